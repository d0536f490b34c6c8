"""ReliabilityDisplay: the drawn points and counts are the reliability bins; layouts (counts
panel, counts inside given axes, hist_ax); several models; lazy matplotlib import."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("matplotlib")
from matplotlib.figure import Figure  # noqa: E402

import clfeval  # noqa: E402
from clfeval.calibration import expected_calibration_error, reliability_curve  # noqa: E402
from clfeval.plot import ReliabilityDisplay  # noqa: E402
from clfeval.plot.calibration import COUNTS_GID, DIAGONAL_GID  # noqa: E402

rng = np.random.default_rng(8)
Y = rng.integers(0, 2, 200)
P = np.clip(0.5 * Y + rng.normal(0.25, 0.2, 200), 0, 1)
W = rng.random(200)


def counts_of(disp) -> list[float]:
    return disp.hist_.get_data().values.tolist()


def test_points_and_counts_are_the_reliability_bins(ax, legend_texts):
    d = ReliabilityDisplay.from_predictions(Y, P, n_bins=8, name="m", ax=ax)
    c = reliability_curve(Y, P, n_bins=8)
    keep = c.nonempty
    np.testing.assert_array_equal(d.line_.get_xdata(), c.mean_predicted[keep])
    np.testing.assert_array_equal(d.line_.get_ydata(), c.observed[keep])
    assert counts_of(d) == c.weight.astype(float).tolist()
    np.testing.assert_array_equal(d.hist_.get_data().edges, c.edges)
    ece = expected_calibration_error(Y, P, n_bins=8)
    assert d.ece == ece and legend_texts(ax)[0] == f"m (ECE = {ece:.3f})"
    assert "Perfectly calibrated" in legend_texts(ax)
    assert d.diagonal_.get_xydata().tolist() == [[0, 0], [1, 1]]
    assert "positive class: 1" in ax.get_xlabel() and ax.get_ylabel().startswith("Fraction of positives")


def test_counts_are_drawn_inside_given_axes_once_per_axes(ax, legend_texts):
    a = ReliabilityDisplay.from_predictions(Y, P, n_bins=5, name="a", ax=ax)
    b = ReliabilityDisplay.from_predictions(Y, P**2, n_bins=5, name="b", ax=ax, strategy="quantile")
    assert a.hist_ax_ is b.hist_ax_ and a.hist_ax_ in ax.child_axes
    assert a.hist_ax_.get_gid() == COUNTS_GID
    assert a.hist_ax_.get_ylim()[1] >= max(counts_of(a) + counts_of(b))
    assert b.diagonal_ is None and sum(1 for l in ax.lines if l.get_gid() == DIAGONAL_GID) == 1
    assert legend_texts(ax)[:2] == [f"a (ECE = {a.ece:.3f})", f"b (ECE = {b.ece:.3f})"]
    assert a.line_.get_color() != b.line_.get_color()
    assert a.hist_.get_facecolor()[:3] == pytest.approx(__import__("matplotlib").colors.to_rgb(a.line_.get_color()))


def test_new_figure_has_a_counts_panel_with_the_numbers(tmp_path):
    d = ReliabilityDisplay.from_predictions(Y, P, n_bins=10)
    assert len(d.figure_.axes) == 2 and d.hist_ax_ is d.figure_.axes[1]
    assert d.hist_ax_.get_shared_x_axes().joined(d.ax_, d.hist_ax_)
    texts = [t.get_text() for t in d.hist_ax_.texts]
    c = reliability_curve(Y, P, n_bins=10)
    assert texts == [str(int(v)) for v in c.weight if v > 0]
    assert d.hist_ax_.get_ylabel() == "Samples\nper bin"
    out = tmp_path / "reliability.png"
    d.figure_.savefig(out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_hist_ax_and_weights(ax):
    hax = Figure().add_subplot()
    d = ReliabilityDisplay.from_predictions(Y, P, n_bins=4, sample_weight=W, ax=ax, hist_ax=hax)
    assert d.hist_ax_ is hax and not ax.child_axes
    np.testing.assert_allclose(counts_of(d), reliability_curve(Y, P, n_bins=4, sample_weight=W).weight)
    assert hax.get_ylabel().startswith("Total weight")


def test_without_counts(ax):
    d = ReliabilityDisplay.from_predictions(Y, P, ax=ax, show_counts=False)
    assert d.hist_ is None and d.hist_ax_ is None and not ax.child_axes


def test_from_evaluation_binary_matches_from_predictions(ax):
    y = np.where(Y == 1, "spam", "ham")
    ev = clfeval.evaluate(y, y_score=P, pos_label="spam", sample_weight=W, name="model")
    a = ReliabilityDisplay.from_evaluation(ev, n_bins=6, ax=ax)
    b = ReliabilityDisplay.from_predictions(y, P, pos_label="spam", sample_weight=W, n_bins=6, ax=Figure().add_subplot())
    np.testing.assert_array_equal(a.line_.get_xydata(), b.line_.get_xydata())
    assert counts_of(a) == counts_of(b) and a.ece == b.ece
    assert a.line_.get_label().startswith("model (ECE") and "positive class: spam" in ax.get_xlabel()
    # the other class against the rest reads 1 - p
    c = ReliabilityDisplay.from_evaluation(ev, n_bins=6, pos_label="ham", ax=Figure().add_subplot())
    ref = reliability_curve(y, 1 - P, pos_label="ham", sample_weight=W, n_bins=6)
    np.testing.assert_allclose(c.line_.get_ydata(), ref.observed[ref.nonempty], rtol=1e-12)


def test_multiclass_top_label_and_one_class(ax):
    k = 4
    Pm = rng.dirichlet(np.ones(k) * 0.5, 150)
    ym = np.array([rng.choice(k, p=row) for row in Pm])
    ev = clfeval.evaluate(ym, y_score=Pm, name="mc")
    d = ReliabilityDisplay.from_evaluation(ev, ax=ax)
    c = reliability_curve(ym, Pm, n_bins=10)
    assert c.view == "top-label" and ax.get_xlabel() == "Mean confidence (top label)"
    np.testing.assert_array_equal(d.line_.get_ydata(), c.observed[c.nonempty])
    one = ReliabilityDisplay.from_evaluation(ev, pos_label="2", ax=Figure().add_subplot())
    ref = reliability_curve(ym, Pm, pos_label=2, n_bins=10)
    np.testing.assert_array_equal(one.line_.get_ydata(), ref.observed[ref.nonempty])
    assert "class 2 vs rest" in one.ax_.get_xlabel()
    with pytest.raises(ValueError, match="one view"):
        ReliabilityDisplay.from_evaluation(ev, mode="class-wise", ax=Figure().add_subplot())


def test_from_evaluations_share_axes_and_panel():
    evs = [clfeval.evaluate(Y, y_score=P, name="first"), clfeval.evaluate(Y, y_score=P**3)]
    ds = ReliabilityDisplay.from_evaluations(evs, n_bins=5)
    assert ds[0].ax_ is ds[1].ax_ and ds[0].hist_ax_ is ds[1].hist_ax_
    assert ds[1].line_.get_label().startswith("model 2 (ECE")
    assert not ds[0].hist_ax_.texts  # numbers are written for a single model only
    with pytest.raises(ValueError, match="at least one"):
        ReliabilityDisplay.from_evaluations([])


def test_bad_input(ax):
    with pytest.raises(ValueError, match="not probabilities"):
        ReliabilityDisplay.from_evaluation(clfeval.evaluate(Y, y_score=P * 4 - 2), ax=ax)
    with pytest.raises(ValueError, match="greater than 1"):
        ReliabilityDisplay.from_predictions(Y, P + 1, ax=ax)
    with pytest.raises(TypeError, match="ReliabilityCurve"):
        ReliabilityDisplay(curve=[0.1, 0.2])


def test_real_data_png(tmp_path):
    sklearn = pytest.importorskip("sklearn")
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    models = {
        "GaussianNB": GaussianNB(),
        "LogisticRegression": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    }
    evs = [
        clfeval.evaluate(y, y_score=cross_val_predict(m, X, y, cv=5, method="predict_proba")[:, 1], name=name)
        for name, m in models.items()
    ]
    ds = ReliabilityDisplay.from_evaluations(evs)
    assert ds[0].ece > ds[1].ece  # naive Bayes is the worse calibrated
    out = tmp_path / "reliability.png"
    ds[0].figure_.savefig(out)
    assert out.stat().st_size > 10_000 and sklearn is not None


def test_matplotlib_is_imported_only_to_draw():
    code = (
        "import sys, clfeval.calibration, clfeval.plot.calibration; "
        "clfeval.calibration.calibration_report([0, 1], [0.2, 0.7]); "
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
