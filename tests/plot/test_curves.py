"""ROC and PR displays: the drawn points are the evaluation's (and scikit-learn's) curves."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib import cbook
from matplotlib.figure import Figure
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score, roc_curve

import clfeval
from clfeval.plot import PrecisionRecallDisplay, RocCurveDisplay
from clfeval.plot.pr import ISO_F1

rng = np.random.default_rng(7)
Y = rng.integers(0, 2, 120)
S = np.clip(0.35 * Y + rng.normal(0.35, 0.2, 120), 0, 1).round(2)  # ties included
W = rng.random(120)


def sk_pr(y, s, w=None):
    p, r, t = precision_recall_curve(y, s, sample_weight=w)
    return r[::-1], p[::-1], t[::-1]  # by decreasing threshold, as clfeval stores it


def test_roc_line_is_the_curve(ax, legend_texts):
    ev = clfeval.evaluate(Y, y_score=S, sample_weight=W, name="m")
    disp = RocCurveDisplay.from_evaluation(ev, ax=ax)
    fpr, tpr, _ = roc_curve(Y, S, sample_weight=W)
    np.testing.assert_allclose(disp.line_.get_xdata(), ev.roc.main.x)
    np.testing.assert_allclose(disp.line_.get_ydata(), ev.roc.main.y)
    np.testing.assert_allclose(disp.line_.get_xdata(), fpr, atol=1e-12)
    np.testing.assert_allclose(disp.line_.get_ydata(), tpr, atol=1e-12)
    auc = roc_auc_score(Y, S, sample_weight=W)
    assert f"m (AUC = {auc:.3f})" in legend_texts(ax)
    assert "Chance level (AUC = 0.5)" in legend_texts(ax)
    assert disp.chance_level_.get_xydata().tolist() == [[0, 0], [1, 1]]


def test_roc_operating_point_is_the_threshold_point(ax):
    ev = clfeval.evaluate(Y, y_score=S, threshold=0.4)
    disp = RocCurveDisplay.from_evaluation(ev, ax=ax)
    pred = S >= 0.4
    fpr = (pred & (Y == 0)).sum() / (Y == 0).sum()
    tpr = (pred & (Y == 1)).sum() / (Y == 1).sum()
    np.testing.assert_allclose(disp.operating_point_.get_xydata(), [[fpr, tpr]], atol=1e-15)
    assert "threshold = 0.4" in disp.operating_point_.get_label()


def test_roc_from_predictions_matches_from_evaluation(ax):
    a = RocCurveDisplay.from_predictions(Y, S, sample_weight=W, name="m", ax=ax)
    b = RocCurveDisplay.from_evaluation(clfeval.evaluate(Y, y_score=S, sample_weight=W, name="m"),
                                        ax=Figure().add_subplot())
    for attr in ("fpr", "tpr", "thresholds"):
        np.testing.assert_array_equal(getattr(a, attr), getattr(b, attr))
    assert a.roc_auc == pytest.approx(b.roc_auc, rel=1e-12)  # scikit-learn's auc(fpr, tpr) against the exact area
    assert a.line_.get_label() == f"m (AUC = {a.roc_auc:.2f})" and b.line_.get_label() == f"m (AUC = {b.roc_auc:.3f})"
    assert a.operating_point is None and b.operating_point is not None


def test_string_labels_and_pos_label(ax):
    y = np.where(Y == 1, "spam", "ham")
    disp = RocCurveDisplay.from_predictions(y, 1 - S, pos_label="ham", ax=ax)
    fpr, tpr, _ = roc_curve(y, 1 - S, pos_label="ham")
    np.testing.assert_allclose(disp.line_.get_xydata(), np.c_[fpr, tpr], atol=1e-12)
    assert ax.get_xlabel() == "False Positive Rate (Positive label: ham)"


def test_several_models_share_one_axes(ax, legend_texts):
    ev1 = clfeval.evaluate(Y, y_score=S, name="first")
    ev2 = clfeval.evaluate(Y, y_score=(S - 0.5) * 4)  # decision values, unnamed
    roc = RocCurveDisplay.from_evaluations([ev1, ev2], ax=ax)
    assert [d.ax_ for d in roc] == [ax, ax]
    assert roc[0].chance_level_ is not None and roc[1].chance_level_ is None
    texts = legend_texts(ax)
    assert texts[0].startswith("first (AUC") and texts[1].startswith("model 2 (AUC")
    assert texts[-1] == "Chance level (AUC = 0.5)"
    assert "operating points" in texts  # one legend entry for both markers
    assert roc[0].line_.get_color() != roc[1].line_.get_color()
    # thresholds 0.5 (probabilities) and 0 (decision values) give the same predictions here
    np.testing.assert_allclose(roc[0].operating_point_.get_xydata(), roc[1].operating_point_.get_xydata())
    pr = PrecisionRecallDisplay.from_evaluations([ev1, ev2])  # a new pyplot figure
    assert sum(line.get_gid() == "clfeval-decor:pr-chance" for line in pr[0].ax_.get_lines()) == 1
    assert len(pr[0].ax_.get_lines()) == 2 + 2 * 2 + len(ISO_F1) + 1


def test_multiclass_needs_the_one_vs_rest_display(ax):
    with pytest.raises(ValueError, match="OneVsRestDisplay"):
        RocCurveDisplay.from_predictions([0, 1, 2], np.eye(3), ax=ax)
    with pytest.raises(ValueError, match="no scores"):
        RocCurveDisplay.from_evaluation(clfeval.evaluate([0, 1], [0, 1]), ax=ax)


def test_pr_line_is_the_step_curve(ax, legend_texts):
    ev = clfeval.evaluate(Y, y_score=S, sample_weight=W, name="m")
    disp = PrecisionRecallDisplay.from_evaluation(ev, ax=ax)
    r, p, _ = sk_pr(Y, S, W)
    np.testing.assert_allclose(disp.line_.get_xdata(), ev.pr.main.x)
    np.testing.assert_allclose(disp.line_.get_ydata(), ev.pr.main.y)
    np.testing.assert_allclose(disp.line_.get_xdata(), r, atol=1e-12)
    np.testing.assert_allclose(disp.line_.get_ydata(), p, atol=1e-12)
    # the drawn staircase encloses exactly the average precision
    xs, ys = cbook.pts_to_prestep(disp.line_.get_xdata(), disp.line_.get_ydata())
    ap = average_precision_score(Y, S, sample_weight=W)
    assert np.sum(np.diff(xs) * ys[1:]) == pytest.approx(ap, abs=1e-12)
    assert any(t.startswith(f"m (AP = {ap:.3f}, break-even = ") for t in legend_texts(ax))
    prevalence = W[Y == 1].sum() / W.sum()
    np.testing.assert_allclose(disp.chance_level_.get_ydata(), [prevalence] * 2)
    assert f"Chance level (AP = {prevalence:.2f})" in legend_texts(ax)


def test_pr_break_even_and_operating_point(ax):
    y = [0, 1, 1, 0, 1, 0]
    s = [0.9, 0.8, 0.7, 0.4, 0.3, 0.2]
    disp = PrecisionRecallDisplay.from_evaluation(clfeval.evaluate(y, y_score=s), ax=ax)
    # ranks 1..3 hold 2 positives of 3: precision = recall = 2/3 at threshold 0.7
    np.testing.assert_allclose(disp.break_even_.get_xydata(), [[2 / 3, 2 / 3]])
    assert disp.break_even.threshold == 0.7
    # threshold 0.5: predicted positive 0.9, 0.8, 0.7 -> recall 2/3, precision 2/3
    np.testing.assert_allclose(disp.operating_point_.get_xydata(), [[2 / 3, 2 / 3]])
    assert disp.line_.get_drawstyle() == "steps-pre"


def test_iso_f1_lines_have_constant_f1(ax):
    disp = PrecisionRecallDisplay.from_evaluation(clfeval.evaluate(Y, y_score=S), ax=ax)
    assert len(disp.iso_f1_lines_) == len(ISO_F1)
    for f, line in zip(ISO_F1, disp.iso_f1_lines_):
        r, p = line.get_xdata(), line.get_ydata()
        np.testing.assert_allclose(2 * p * r / (p + r), f, rtol=1e-12)
        assert p.max() == pytest.approx(1.0) and r.max() == 1.0
    labels = [t.get_text() for t in ax.texts]
    assert labels == [f"F1={f:g}" for f in ISO_F1]
    assert PrecisionRecallDisplay.from_predictions(Y, S, ax=Figure().add_subplot(), iso_f1=()).iso_f1_lines_ == []


def test_iso_f1_labels_stay_inside_a_zoomed_plot(ax):
    """The labels sit at recall 1; zoomed to recall <= 0.5 they are not drawn (they were, outside the axes)."""
    PrecisionRecallDisplay.from_evaluation(clfeval.evaluate(Y, y_score=S), ax=ax)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(ax.figure).get_renderer()
    assert len(ax.texts) == len(ISO_F1) and all(t._check_xy(renderer) for t in ax.texts)
    ax.set_xlim(0, 0.5)
    drawn = [t for t in ax.texts if t._check_xy(renderer)]
    assert drawn == []


def test_pyplot_figure_when_no_axes():
    import matplotlib.pyplot as plt

    disp = RocCurveDisplay.from_predictions(Y, S)
    assert disp.figure_ is plt.gcf() and disp.ax_ in disp.figure_.axes
    again = disp.plot(ax=Figure().add_subplot(), plot_chance_level=False, show_operating_point=False)
    assert again is disp and disp.chance_level_ is None and disp.operating_point_ is None


@settings(max_examples=15)
@given(
    data=st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=2, max_size=40).filter(
        lambda d: len({a for a, _ in d}) == 2
    )
)
def test_curves_match_sklearn(data):
    y = np.array([int(a) for a, _ in data])
    s = np.array([b / 6 for _, b in data])
    ax = Figure().add_subplot()
    roc = RocCurveDisplay.from_predictions(y, s, ax=ax)
    fpr, tpr, _ = roc_curve(y, s)
    np.testing.assert_allclose(roc.line_.get_xydata(), np.c_[fpr, tpr], atol=1e-12)
    pr = PrecisionRecallDisplay.from_predictions(y, s, ax=Figure().add_subplot())
    p, r, _ = precision_recall_curve(y, s)  # drawn in scikit-learn's order, "steps-post"
    np.testing.assert_allclose(pr.line_.get_xydata(), np.c_[r, p], atol=1e-12)
    assert pr.average_precision == pytest.approx(average_precision_score(y, s), abs=1e-12)


def test_large_data_draws_at_most_the_budget_of_exact_points(ax):
    from clfeval.plot._curve import PLOT_MAX_POINTS
    from clfeval.plot.threshold3d import rates_at_every_score

    rng = np.random.default_rng(3)
    n = 50_000
    y = rng.integers(0, 2, n)
    s = rng.random(n) + 0.3 * y
    ev = clfeval.evaluate(y, y_score=s)
    d = RocCurveDisplay.from_evaluation(ev, ax=ax)
    x, t = d.line_.get_xdata(), d.thresholds
    assert len(x) <= PLOT_MAX_POINTS
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    at = {float(a): (b, c) for a, b, c in zip(thr, fpr, tpr)}
    for xi, yi, ti in zip(x[1:], d.line_.get_ydata()[1:], t[1:]):  # every drawn point is sklearn's at its threshold
        assert at[float(ti)] == pytest.approx((xi, yi), abs=1e-12)
    assert d.roc_auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    fx, fy, ft = rates_at_every_score(ev, ev.roc.main)
    assert len(fx) <= PLOT_MAX_POINTS and all(at[float(a)] == pytest.approx((b, c), abs=1e-12)
                                              for a, b, c in zip(ft, fx, fy))
