"""ThresholdMetricsDisplay: metrics against the threshold, read as steps, with operating points."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import clfeval
from clfeval.plot import ThresholdMetricsDisplay
from clfeval.plot.threshold import step_path

pytestmark = pytest.mark.filterwarnings("ignore::clfeval.UndefinedMetricWarning")

rng = np.random.default_rng(17)
Y = rng.integers(0, 2, 150)
S = np.clip(0.35 * Y + rng.normal(0.35, 0.2, 150), 0, 1).round(2)
W = rng.random(150) + 0.1


def value_at(line, t):
    """The value a steps-pre line shows at x = t (between data points: the right end's value)."""
    x, y = line.get_xdata(), line.get_ydata()
    return y[int(np.searchsorted(x, t, side="left"))]


def test_lines_read_the_metric_at_any_threshold(ax, legend_texts):
    ev = clfeval.evaluate(Y, y_score=S, sample_weight=W)
    disp = ThresholdMetricsDisplay.from_evaluation(ev, metrics=("precision", "recall", "f1", "mcc"), ax=ax)
    assert list(disp.lines_) == ["precision", "recall", "f1", "mcc"]
    assert legend_texts(ax)[:4] == ["Precision", "Recall", "F1", "MCC"]
    for line in disp.lines_.values():
        assert line.get_drawstyle() == "steps-pre"
        assert line.get_xdata()[0] == 0.0 and line.get_xdata()[-1] == 1.0  # probabilities: [0, 1]
    assert ax.get_xlim() == (0.0, 1.0)
    for t in (0.003, 0.2, 0.333, 0.35, 0.5, 0.61, 0.9, 0.999):
        at = clfeval.evaluate(Y, y_score=S, sample_weight=W, threshold=t)
        row = at.report.to_dict()["rows"][1]
        np.testing.assert_allclose(value_at(disp.lines_["recall"], t), row["recall"], rtol=1e-12)
        np.testing.assert_allclose(value_at(disp.lines_["precision"], t), row["precision"], rtol=1e-12)
        np.testing.assert_allclose(value_at(disp.lines_["f1"], t), row["f1"], rtol=1e-12)
        np.testing.assert_allclose(value_at(disp.lines_["mcc"], t), at.report.overall["mcc"], rtol=1e-10,
                                   atol=1e-12)
    assert disp.ax_ is ax and disp.figure_ is ax.figure
    assert ax.get_xlabel() == "Threshold (predicted 1 where score \u2265 threshold)"


def test_step_path_ends():
    x, y = step_path(np.array([np.inf, 0.8, 0.3]), np.array([np.nan, 0.5, 1.0]), -1.0, 2.0)
    assert x.tolist() == [-1.0, 0.3, 0.8, 2.0]
    assert y[:3].tolist() == [1.0, 1.0, 0.5] and math.isnan(y[3])  # above every score: undefined


def test_marks(ax, legend_texts):
    ev = clfeval.evaluate(Y, y_score=S)
    at90 = ev.operating_point("recall", at=0.9)
    disp = ThresholdMetricsDisplay.from_evaluation(ev, mark=["youden", "max-f1", at90], ax=ax)
    youden, f1 = ev.operating_point("youden"), ev.operating_point("max-f1")
    assert [p.threshold for p in disp.marks] == [youden.threshold, f1.threshold, at90.threshold]
    assert [ln.get_xdata()[0] for ln in disp.mark_lines_] == [youden.threshold, f1.threshold, at90.threshold]
    assert [t.get_text() for t in disp.mark_texts_] == ["youden", "max-f1", "recall \u2265 0.9"]
    texts = legend_texts(ax)
    assert f"youden: threshold {youden.threshold:.3g} (value {youden.value:.3g})" in texts
    assert f"recall \u2265 0.9: threshold {at90.threshold:.3g} (value {at90.value:.3g})" in texts
    # one mark as a plain string, and a point at +inf (nothing positive) is listed but not drawn
    one = ThresholdMetricsDisplay.from_evaluation(ev, mark="break-even", ax=ax.figure.add_subplot(2, 1, 2))
    assert len(one.mark_lines_) == 1
    flat = clfeval.evaluate([0, 1, 0, 1], y_score=[0.5] * 4)
    d = ThresholdMetricsDisplay.from_evaluation(flat, mark="youden", ax=ax.figure.add_subplot(2, 2, 2))
    assert d.marks[0].threshold == math.inf and d.mark_lines_ == []


def test_decision_scores_and_negative_measures(ax):
    y = rng.integers(0, 2, 60)
    s = rng.normal(0, 2, 60) + 2 * y
    ev = clfeval.evaluate(y, y_score=s, name="svm")
    disp = ThresholdMetricsDisplay.from_evaluation(ev, metrics=["kappa", "youden_j"], ax=ax)
    lo, hi = ax.get_xlim()
    assert lo < s.min() and hi > s.max()  # padded around the score range
    negative = min(np.nanmin(v) for v in disp.values.values()) < 0
    assert ax.get_ylim() == ((-1.03, 1.03) if negative else (-0.02, 1.03))
    assert disp.lines_["kappa"].get_label() == "svm: Cohen's kappa"
    assert disp.score_kind == "decision"


def test_multiclass_needs_a_curve(ax):
    y = rng.integers(0, 3, 90)
    S3 = rng.dirichlet([1, 1, 1], 90).round(2)
    ev = clfeval.evaluate(y, y_score=S3)
    disp = ThresholdMetricsDisplay.from_evaluation(ev, curve="2", metrics=["recall"], mark="youden", ax=ax)
    np.testing.assert_array_equal(disp.values["recall"], ev.threshold_sweep(["recall"], curve="2").column("recall"))
    assert disp.marks[0].curve == "2"
    with pytest.raises(ValueError, match="curve= must name the class"):
        ThresholdMetricsDisplay.from_evaluation(ev, ax=ax)
    with pytest.raises(ValueError, match="a marked point is for curve '1', but this plot shows '2'"):
        ThresholdMetricsDisplay.from_evaluation(ev, curve="2", mark=ev.operating_point("youden", curve="1"), ax=ax)


def test_from_predictions(ax):
    disp = ThresholdMetricsDisplay.from_predictions(Y, S, sample_weight=W, name="m", metrics=["accuracy"], ax=ax)
    ev = clfeval.evaluate(Y, y_score=S, sample_weight=W)
    np.testing.assert_array_equal(disp.values["accuracy"], ev.threshold_sweep(["accuracy"]).column("accuracy"))
    assert disp.lines_["accuracy"].get_label() == "m: Accuracy"
    with pytest.raises(ValueError, match="from_predictions here takes binary targets"):
        ThresholdMetricsDisplay.from_predictions([0, 1, 2], np.eye(3), ax=ax)


def test_many_scores_are_drawn_at_exact_rows(ax):
    r = np.random.default_rng(0)
    y = r.integers(0, 2, 20_000)
    s = r.random(20_000)
    ev = clfeval.evaluate(y, y_score=s)
    disp = ThresholdMetricsDisplay.from_evaluation(ev, metrics=["recall"], ax=ax)
    assert len(disp.thresholds) <= 4001
    exact = ev.threshold_sweep(["recall"], thresholds=disp.thresholds).column("recall")
    np.testing.assert_array_equal(disp.values["recall"], exact)


def test_bad_metrics(ax):
    ev = clfeval.evaluate(Y, y_score=S)
    for bad in (["tp"], ["threshold"], [], ["nope"]):
        with pytest.raises(ValueError, match="metrics must be sweep measures, one or more of predicted_positive_rate"):
            ThresholdMetricsDisplay.from_evaluation(ev, metrics=bad, ax=ax)
    with pytest.raises(ValueError, match="no scores, so it has no threshold plot"):
        ThresholdMetricsDisplay.from_evaluation(clfeval.evaluate([0, 1], [0, 1]), ax=ax)
    with pytest.raises(ValueError, match=r"values\['recall'\] has shape \(2,\)"):
        ThresholdMetricsDisplay(thresholds=[np.inf, 0.5, 0.2], values={"recall": [0, 1]})


def test_replot_and_save(ax, tmp_path):
    ev = clfeval.evaluate(Y, y_score=S)
    disp = ThresholdMetricsDisplay.from_evaluation(ev, mark=["youden"], ax=ax)
    from matplotlib.figure import Figure

    other = Figure().add_subplot()
    disp.plot(ax=other, show_marks=False, linewidth=1.0)
    assert disp.ax_ is other and disp.mark_lines_ == []
    assert disp.lines_["f1"].get_linewidth() == 1.0
    path = tmp_path / "thr.png"
    ax.figure.savefig(path)
    assert path.stat().st_size > 1000


def test_matplotlib_not_imported_until_drawing():
    code = "import sys, clfeval, clfeval.plot.threshold; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
