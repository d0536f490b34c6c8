"""Cost curve and decision curve displays: the drawn data are the curves' numbers."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure

import clfeval
from clfeval.costs import cost_curve, decision_curve
from clfeval.plot import CostCurveDisplay, DecisionCurveDisplay

rng = np.random.default_rng(17)
Y = rng.integers(0, 2, 400)
P = np.clip(0.3 * Y + rng.beta(2, 3, 400) * 0.7, 0, 1).round(3)  # probabilities, with ties
W = rng.random(400) + 0.1


# -- cost curves ------------------------------------------------------------------------------


def test_cost_display_draws_the_curve(ax, legend_texts):
    disp = CostCurveDisplay.from_predictions(Y, P, sample_weight=W, name="m", ax=ax)
    cc = cost_curve(Y, P, sample_weight=W)
    np.testing.assert_array_equal(disp.envelope_line_.get_xdata(), cc.envelope_pc)
    np.testing.assert_array_equal(disp.envelope_line_.get_ydata(), cc.envelope_nec)
    assert disp.area == cc.area
    # one faint line per threshold from (0, FPR) to (1, FNR): a subset of at most 200
    keep = cc.line_subset(200)
    segments = np.array(disp.lines_.get_segments())
    assert isinstance(disp.lines_, LineCollection) and len(segments) == keep.size <= 200
    np.testing.assert_array_equal(segments[:, 0, 0], 0.0)
    np.testing.assert_array_equal(segments[:, 1, 0], 1.0)
    np.testing.assert_array_equal(segments[:, 0, 1], cc.fpr[keep])
    np.testing.assert_array_equal(segments[:, 1, 1], cc.fnr[keep])
    assert disp.trivial_line_.get_xydata().tolist() == [[0, 0], [0.5, 0.5], [1, 0]]
    assert disp.trivial_line_.get_linestyle() == "--"
    assert disp.envelope_line_.get_linewidth() > disp.lines_.get_linewidths()[0]
    texts = legend_texts(ax)
    assert f"m (area = {cc.area:.3f})" in texts and "Trivial classifiers (area = 0.250)" in texts
    assert f"m: one line per threshold ({keep.size} of {len(cc)})" in texts
    assert ax.get_xlabel() == "Probability cost PC(+) (positive class: 1)"
    assert ax.get_ylabel() == "Normalised expected cost"
    assert ax.get_xlim() == (0.0, 1.0) and ax.get_ylim() == (0.0, 0.52)
    assert disp.ax_ is ax and disp.figure_ is ax.figure


def test_cost_display_operating_line_is_the_predictions(ax):
    ev = clfeval.evaluate(Y, y_score=P, threshold=0.4, name="m")
    disp = CostCurveDisplay.from_evaluation(ev, ax=ax)
    pred = P >= 0.4
    fpr = (pred & (Y == 0)).sum() / (Y == 0).sum()
    fnr = (~pred & (Y == 1)).sum() / (Y == 1).sum()
    np.testing.assert_allclose(disp.operating_line_.get_xydata(), [[0, fpr], [1, fnr]], atol=1e-15)
    assert disp.operating_line_.get_label() == "m: operating line (threshold = 0.4)"
    # the same from given predictions
    ev = clfeval.evaluate(Y, y_pred=pred.astype(int), y_score=P)
    disp = CostCurveDisplay.from_evaluation(ev, ax=Figure().add_subplot())
    np.testing.assert_allclose(disp.operating_line_.get_xydata(), [[0, fpr], [1, fnr]], atol=1e-15)
    assert disp.operating_line_.get_label() == "Classifier: operating line"


def test_cost_display_constructors_agree(ax):
    ev = clfeval.evaluate(Y, y_score=P)
    ranking = ev.ranking("1")
    a = CostCurveDisplay.from_ranking(ranking, threshold=0.5, pos_label="1", ax=ax)
    b = CostCurveDisplay.from_curve(cost_curve(Y, P, threshold=0.5), ax=Figure().add_subplot())
    np.testing.assert_array_equal(a.envelope_line_.get_xydata(), b.envelope_line_.get_xydata())
    np.testing.assert_array_equal(a.operating_line_.get_xydata(), b.operating_line_.get_xydata())
    np.testing.assert_array_equal(np.array(a.lines_.get_segments()), np.array(b.lines_.get_segments()))


def test_cost_display_options(ax):
    disp = CostCurveDisplay.from_predictions(Y, P, ax=ax, show_lines=False, show_trivial=False,
                                             max_lines=10, y_max=1.0, color="C3")
    assert disp.lines_ is None and disp.trivial_line_ is None and ax.get_ylim() == (0.0, 1.0)
    assert disp.envelope_line_.get_color() == "C3"
    few = CostCurveDisplay.from_predictions(Y, P, ax=Figure().add_subplot(), max_lines=10)
    cc = cost_curve(Y, P)
    assert cc.envelope_lines.size > 8  # the envelope's lines are always drawn, even beyond max_lines
    assert len(few.lines_.get_segments()) == cc.envelope_lines.size + 2 == len(cc.line_subset(10))
    assert len(CostCurveDisplay.from_predictions(Y, P, ax=Figure().add_subplot(), max_lines=40)
               .lines_.get_segments()) <= 40
    small = CostCurveDisplay.from_predictions([0, 1, 0, 1], [0.2, 0.9, 0.6, 0.4], ax=Figure().add_subplot())
    assert len(small.lines_.get_segments()) == 5  # all lines when there are few


def test_several_cost_curves_on_one_axes(ax, legend_texts):
    a = clfeval.evaluate(Y, y_score=P, name="a")
    b = clfeval.evaluate(Y, y_score=np.sqrt(P), name="b")
    da, db = CostCurveDisplay.from_evaluations([a, b], ax=ax)
    assert da.ax_ is db.ax_ is ax
    assert da.trivial_line_ is not None and db.trivial_line_ is None  # drawn once
    assert da.envelope_line_.get_color() != db.envelope_line_.get_color()
    assert legend_texts(ax)[-1] == "Trivial classifiers (area = 0.250)"
    # a monotone transformation of the scores leaves the curve as it is
    np.testing.assert_allclose(da.envelope_line_.get_xydata(), db.envelope_line_.get_xydata(), atol=1e-15)


def test_cost_display_errors():
    with pytest.raises(TypeError, match="curve must be a CostCurve"):
        CostCurveDisplay(curve=decision_curve(Y, P))
    multi = clfeval.evaluate([0, 1, 2, 1], y_score=np.eye(3)[[0, 1, 2, 2]])
    with pytest.raises(ValueError, match=r"curve= must name the class .* one of \['0', '1', '2'\]"):
        CostCurveDisplay.from_evaluation(multi)
    # one class against the rest: that class's ranking, and its line at the argmax predictions
    d = CostCurveDisplay.from_evaluation(multi, curve="2", ax=Figure().add_subplot())
    one = cost_curve(np.array([0, 1, 2, 1]) == 2, np.eye(3)[[0, 1, 2, 2]][:, 2])
    np.testing.assert_array_equal(d.curve.envelope_nec, one.envelope_nec)
    assert (d.curve.operating_line.fpr, d.curve.operating_line.fnr) == (1 / 3, 0.0)
    with pytest.raises(ValueError, match="has no scores"):
        CostCurveDisplay.from_evaluation(clfeval.evaluate([0, 1, 1], [0, 1, 0]))


# -- decision curves --------------------------------------------------------------------------


def test_decision_display_draws_the_curve(ax, legend_texts):
    disp = DecisionCurveDisplay.from_predictions(Y, P, sample_weight=W, name="m", ax=ax)
    dc = decision_curve(Y, P, sample_weight=W)
    np.testing.assert_array_equal(disp.line_.get_xdata(), dc.thresholds)
    np.testing.assert_array_equal(disp.line_.get_ydata(), dc.net_benefit)
    p = W[Y == 1].sum() / W.sum()
    pt = dc.thresholds
    np.testing.assert_allclose(disp.treat_all_.get_ydata(), p - (1 - p) * pt / (1 - pt), atol=1e-12)
    assert np.asarray(disp.treat_none_.get_ydata()).tolist() == [0, 0]
    assert legend_texts(ax) == ["m", f"Treat all (prevalence = {p:.3g})", "Treat none"]
    bottom, top = ax.get_ylim()
    assert top == pytest.approx(1.05 * p) and bottom == pytest.approx(-0.105 * p)
    assert ax.get_xlim() == (0.01, 0.99)
    assert ax.get_xlabel() == "Threshold probability $p_t$ (positive class: 1)"
    assert ax.get_ylabel() == "Net benefit"


def test_decision_display_standardized_and_limits(ax):
    dc = decision_curve(Y, P, thresholds=np.linspace(0.05, 0.5, 10))
    disp = DecisionCurveDisplay.from_curve(dc, ax=ax, standardized=True, y_min=-0.3)
    np.testing.assert_allclose(disp.line_.get_ydata(), dc.net_benefit / dc.prevalence, atol=1e-15)
    np.testing.assert_allclose(disp.treat_all_.get_ydata(), dc.treat_all / dc.prevalence, atol=1e-15)
    assert ax.get_ylim() == pytest.approx((-0.3, 1.05)) and ax.get_xlim() == pytest.approx((0.05, 0.5))
    assert ax.get_ylabel() == "Standardised net benefit"


def test_several_decision_curves_on_one_axes(ax, legend_texts):
    a = clfeval.evaluate(Y, y_score=P, name="a")
    b = clfeval.evaluate(Y, y_score=P ** 2, name="b")
    da, db = DecisionCurveDisplay.from_evaluations([a, b], ax=ax)
    assert da.treat_all_ is not None and db.treat_all_ is None  # same data: one "treat all"
    assert da.treat_none_ is not None and db.treat_none_ is None
    assert legend_texts(ax)[:2] == ["a", "b"]
    np.testing.assert_array_equal(db.line_.get_ydata(), decision_curve(Y, P ** 2).net_benefit)
    # another data set (another prevalence) on the same axes: its own "treat all", limits widened
    y2 = np.r_[np.ones(90, int), np.zeros(10, int)]
    dc = DecisionCurveDisplay.from_predictions(y2, np.linspace(0, 1, 100), name="c", ax=ax)
    assert dc.treat_all_ is not None and dc.treat_none_ is None
    assert ax.get_ylim()[1] == pytest.approx(1.05 * 0.9)
    assert "Treat all (prevalence = 0.9)" in legend_texts(ax)


def test_decision_display_from_ranking(ax):
    ev = clfeval.evaluate(Y, y_score=P)
    disp = DecisionCurveDisplay.from_ranking(ev.ranking("1"), thresholds=[0.1, 0.2], ax=ax)
    np.testing.assert_array_equal(disp.line_.get_ydata(), decision_curve(Y, P, thresholds=[0.1, 0.2]).net_benefit)


def test_decision_display_errors():
    with pytest.raises(ValueError, match="run from -1.824 to 1.76. Decision values .* are not probabilities"):
        DecisionCurveDisplay.from_predictions(Y, P * 4 - 2)
    with pytest.raises(ValueError, match=r"thresholds must lie in \[0, 1\)"):
        DecisionCurveDisplay.from_predictions(Y, P, thresholds=[0.5, 1.0])
    with pytest.raises(TypeError, match="curve must be a DecisionCurve"):
        DecisionCurveDisplay(curve=cost_curve(Y, P))


def test_no_matplotlib_until_drawing():
    code = ("import sys, clfeval.costs, clfeval.plot.costs; "
            "clfeval.costs.cost_curve([0, 1], [0.2, 0.8]); "
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported'")
    subprocess.run([sys.executable, "-c", code], check=True)
