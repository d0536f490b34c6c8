"""Costs: expected cost, cost-sensitive error rate, probability cost, cost curves, decision curves.

Values are checked against hand-worked examples, the definitions computed directly on the raw
arrays (numpy loops), and scikit-learn's zero_one_loss for the 0/1-cost case.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import zero_one_loss

from clfeval.costs import (
    DEFAULT_DECISION_THRESHOLDS,
    CostCurve,
    CostLine,
    DecisionCurve,
    cost_curve,
    cost_curve_of,
    cost_sensitive_error_rate,
    decision_curve,
    decision_curve_of,
    expected_cost,
    net_benefit,
    normalized_expected_cost,
    probability_cost,
)
from clfeval.evaluation import json_safe
from clfeval.statistics.rankings import BinaryRanking

# -- helpers: the definitions, on raw arrays --------------------------------------------------


def confusion_of(y_true, y_pred, k, w=None):
    cm = np.zeros((k, k))
    np.add.at(cm, (y_true, y_pred), 1.0 if w is None else w)
    return cm


def raw_lines(y, s, w=None):
    """(thresholds, fpr, fnr) at +inf and every distinct score, by loops over the samples."""
    y, s = np.asarray(y), np.asarray(s, dtype=float)
    w = np.ones(y.size) if w is None else np.asarray(w, dtype=float)
    # zero-weight samples place no threshold (as in scikit-learn's roc_curve)
    thresholds = [np.inf] + sorted(set(s[w > 0].tolist()), reverse=True)
    fpr, fnr = [], []
    for t in thresholds:
        fp = fn = 0.0
        for yi, si, wi in zip(y, s, w):
            if yi == 0 and si >= t:
                fp += wi
            if yi == 1 and si < t:
                fn += wi
        fpr.append(fp / w[y == 0].sum())
        fnr.append(fn / w[y == 1].sum())
    return np.array(thresholds), np.array(fpr), np.array(fnr)


def raw_net_benefit(y, s, pts, w=None):
    y, s = np.asarray(y), np.asarray(s, dtype=float)
    w = np.ones(y.size) if w is None else np.asarray(w, dtype=float)
    out = []
    for pt in pts:
        tp = fp = 0.0
        for yi, si, wi in zip(y, s, w):
            if si >= pt:
                if yi == 1:
                    tp += wi
                else:
                    fp += wi
        n = w.sum()
        out.append(tp / n - fp / n * pt / (1 - pt))
    return np.array(out)


def exact_upper_hull(points):
    """Strict vertices of the upper-left ROC hull, by brute force in exact arithmetic: a point is
    no vertex when it lies on or below a chord between two other points (or equals another)."""
    pts = sorted(set(points))
    vertices = []
    for b in pts:
        dominated = False
        for a in pts:
            for c in pts:
                if a == b or c == b or not (a <= b <= c):
                    continue
                cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
                if cross >= 0:
                    dominated = True
                    break
            if dominated:
                break
        if not dominated:
            vertices.append(b)
    return vertices


@st.composite
def binary_data(draw, weighted=None, min_size=2, max_size=40):
    n = draw(st.integers(min_size, max_size))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[0], y[1] = 0, 1  # both classes
    levels = draw(st.integers(1, 12))  # few levels: many ties
    s = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))) / levels
    if weighted is None:
        weighted = draw(st.booleans())
    w = None
    if weighted:
        w = np.array(draw(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 1.7, 3.0]), min_size=n, max_size=n)))
        w[0], w[1] = 1.0, 2.0  # both classes keep weight; other zero weights make duplicate points
    return y, s, w


# -- expected cost and the cost-sensitive error rate ------------------------------------------


CM = np.array([[50, 10], [5, 35]])
C = np.array([[0, 1], [5, 0]])


def test_expected_cost_hand_worked():
    # (10 * 1 + 5 * 5) / 100
    assert expected_cost(CM, C) == pytest.approx(0.35, abs=1e-15)
    # 0.9 * (10 / 60) * 1 + 0.1 * (5 / 40) * 5 = 0.15 + 0.0625
    assert expected_cost(CM, C, prevalence=[0.9, 0.1]) == pytest.approx(0.2125, abs=1e-15)
    assert expected_cost(CM, C, prevalence=0.1) == pytest.approx(0.2125, abs=1e-15)


def test_cost_sensitive_error_rate_hand_worked():
    # numerator 0.35 as above; worst regrets per row [1, 5]: (60 * 1 + 40 * 5) / 100 = 2.6
    assert cost_sensitive_error_rate(CM, C) == pytest.approx(0.35 / 2.6, abs=1e-15)
    # with prevalence: 0.2125 / (0.9 * 1 + 0.1 * 5)
    assert cost_sensitive_error_rate(CM, C, prevalence=[0.9, 0.1]) == pytest.approx(0.2125 / 1.4, abs=1e-15)


def test_cost_sensitive_error_rate_nonzero_diagonal():
    # true 0: right costs 1, wrong 3; true 1: right is a benefit of 1, wrong costs 4
    costs = [[1, 3], [4, -1]]  # regrets [[0, 2], [5, 0]]
    cm = [[8, 2], [3, 7]]
    # regret (2 * 2 + 3 * 5) / 20 = 0.95; worst (10 * 2 + 10 * 5) / 20 = 3.5
    assert cost_sensitive_error_rate(cm, costs) == pytest.approx(0.95 / 3.5, abs=1e-15)
    # the plain expected cost: (8 * 1 + 2 * 3 + 3 * 4 - 7) / 20
    assert expected_cost(cm, costs) == pytest.approx(19 / 20, abs=1e-15)
    # a cost every class-0 sample pays whatever is predicted does not change it
    shifted = np.array(costs, float) + [[10], [0]]
    assert cost_sensitive_error_rate(cm, shifted) == pytest.approx(0.95 / 3.5, abs=1e-15)


def test_cost_sensitive_error_rate_negative_when_a_mistake_pays():
    # predicting 1 for a true 0 earns 1: regrets [[0, -1], [1, 0]], worst [0, 1]
    # (5 * -1 + 2 * 1) / 20 over (10 * 0 + 10 * 1) / 20
    assert cost_sensitive_error_rate([[5, 5], [2, 8]], [[0, -1], [1, 0]]) == pytest.approx(-0.3, abs=1e-15)


def test_cost_sensitive_error_rate_undefined():
    assert np.isnan(cost_sensitive_error_rate([[5, 5], [2, 8]], np.zeros((2, 2))))
    assert np.isnan(cost_sensitive_error_rate(np.zeros((3, 3)), 1 - np.eye(3)))


def test_cost_sensitive_error_rate_three_classes_hand_worked():
    cm = np.array([[10, 2, 0], [1, 6, 3], [0, 4, 4]])
    costs = np.array([[0, 1, 2], [1, 0, 1], [10, 3, 0]])
    # numerator (2 * 1 + 1 * 1 + 3 * 1 + 4 * 3) / 30 = 18 / 30; worst [2, 1, 10]:
    # (12 * 2 + 10 * 1 + 8 * 10) / 30 = 114 / 30
    assert cost_sensitive_error_rate(cm, costs) == pytest.approx(18 / 114, abs=1e-15)
    # prevalence [0.5, 0.3, 0.2]: numerator 0.5 * 2/12 + 0.3 * 4/10 + 0.2 * 12/8, denominator
    # 0.5 * 2 + 0.3 * 1 + 0.2 * 10
    num = 0.5 * 2 / 12 + 0.3 * 4 / 10 + 0.2 * 12 / 8
    assert cost_sensitive_error_rate(cm, costs, prevalence=[0.5, 0.3, 0.2]) == pytest.approx(num / 3.3, abs=1e-15)


def test_batched_shapes():
    rng = np.random.default_rng(0)
    stack = rng.integers(0, 20, size=(2, 3, 4, 4)).astype(float)
    costs = rng.random((4, 4)) * 5
    p = np.array([0.1, 0.2, 0.3, 0.4])
    for prevalence in (None, p):
        ec = expected_cost(stack, costs, prevalence=prevalence)
        cser = cost_sensitive_error_rate(stack, costs, prevalence=prevalence)
        assert ec.shape == cser.shape == (2, 3)
        for i in range(2):
            for j in range(3):
                assert ec[i, j] == pytest.approx(expected_cost(stack[i, j], costs, prevalence=prevalence), rel=1e-13)
                assert cser[i, j] == pytest.approx(
                    cost_sensitive_error_rate(stack[i, j], costs, prevalence=prevalence), rel=1e-13)


def test_prevalence_of_the_data_changes_nothing():
    cm = np.array([[10, 2, 0], [1, 6, 3], [0, 4, 4]])
    costs = np.array([[0, 1, 2], [1, 0, 1], [10, 3, 0]])
    shares = cm.sum(axis=1) / cm.sum()
    assert cost_sensitive_error_rate(cm, costs, prevalence=shares) == pytest.approx(
        cost_sensitive_error_rate(cm, costs), rel=1e-13)


@given(st.integers(2, 5), st.data())
def test_zero_one_costs_give_the_error_rate(k, data):
    n = data.draw(st.integers(1, 60))
    y = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    p = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    w = np.array(data.draw(st.lists(st.floats(0.01, 10), min_size=n, max_size=n)))
    zero_one = 1 - np.eye(k)
    for weights in (None, w):
        cm = confusion_of(y, p, k, weights)
        expected = zero_one_loss(y, p, sample_weight=weights)
        assert cost_sensitive_error_rate(cm, zero_one) == pytest.approx(expected, abs=1e-12)
        assert expected_cost(cm, zero_one) == pytest.approx(expected, abs=1e-12)
    # any uniform price of a mistake normalises away
    assert cost_sensitive_error_rate(confusion_of(y, p, k, w), 7.5 * zero_one) == pytest.approx(
        zero_one_loss(y, p, sample_weight=w), abs=1e-12)


def test_cost_matrix_errors():
    with pytest.raises(ValueError, match=r"costs must be \(2, 2\).*got shape \(3, 3\)"):
        expected_cost(CM, np.eye(3))
    with pytest.raises(ValueError, match=r"costs\[0, 1\] is inf"):
        cost_sensitive_error_rate(CM, [[0, np.inf], [1, 0]])
    with pytest.raises(ValueError, match=r"confusion must be \(\.\.\., k, k\)"):
        cost_sensitive_error_rate([1, 2], C)
    with pytest.raises(ValueError, match="prevalence must be 2 non-negative class shares"):
        cost_sensitive_error_rate(CM, C, prevalence=[0.5, 0.6])


# -- probability cost and normalised expected cost --------------------------------------------


def test_probability_cost_hand_worked():
    # p C(-|+) / (p C(-|+) + (1 - p) C(+|-)) = 0.1 * 5 / (0.5 + 0.9)
    assert probability_cost(0.1, C) == pytest.approx(0.5 / 1.4, abs=1e-15)
    np.testing.assert_allclose(probability_cost([0.0, 0.5, 1.0], C), [0.0, 5 / 6, 1.0], atol=1e-15)
    # the positive class first in the matrix: C(-|+) is costs[0, 1]
    assert probability_cost(0.1, [[0, 5], [1, 0]], positive=0) == pytest.approx(0.5 / 1.4, abs=1e-15)
    # costs relative to being right: a diagonal shifts nothing
    assert probability_cost(0.1, [[2, 3], [7, 2]]) == pytest.approx(0.5 / 1.4, abs=1e-15)
    assert np.isnan(probability_cost(0.3, np.zeros((2, 2))))


def test_probability_cost_errors():
    with pytest.raises(ValueError, match=r"C\(-\|\+\) - C\(\+\|\+\) = -1"):
        probability_cost(0.5, [[0, 1], [0, 1]])
    with pytest.raises(ValueError, match=r"prevalence must lie in \[0, 1\]; prevalence\[1\] is 1.5"):
        probability_cost([0.2, 1.5], C)
    with pytest.raises(ValueError, match="positive must be 0 or 1"):
        probability_cost(0.5, C, positive=2)


def test_normalized_expected_cost_is_the_binary_cost_sensitive_error_rate():
    cm = np.array([[40, 12], [7, 21]])  # rows true negative, positive: [[tn, fp], [fn, tp]]
    costs = np.array([[0.5, 3.0], [8.0, -1.0]])
    fpr, fnr = 12 / 52, 7 / 28
    for p in (0.05, 0.3, 0.9):
        pc = probability_cost(p, costs)
        assert normalized_expected_cost(fpr, fnr, pc) == pytest.approx(
            cost_sensitive_error_rate(cm, costs, prevalence=p), rel=1e-13)


def test_normalized_expected_cost_values_and_errors():
    np.testing.assert_allclose(normalized_expected_cost(0.2, 0.1, [0, 0.25, 1]), [0.2, 0.175, 0.1], atol=1e-15)
    assert normalized_expected_cost([0.0, 1.0], [1.0, 0.0], 0.3).tolist() == [0.3, 0.7]  # trivial ones
    with pytest.raises(ValueError, match=r"pc must lie in \[0, 1\]; pc\[0\] is -0.1"):
        normalized_expected_cost(0.2, 0.1, [-0.1])
    with pytest.raises(ValueError, match="pc must lie in"):
        normalized_expected_cost(0.2, 0.1, np.nan)


# -- cost curves ------------------------------------------------------------------------------

# Worked example: 3 positives, 3 negatives, a tie at 0.6 (one of each class).
#   threshold  predicted +        fp tp   line (fpr, fnr)   NEC(PC) = fnr PC + fpr (1 - PC)
#   +inf       none               0  0    (0, 1)            PC            (always negative)
#   0.9        {.9}               0  1    (0, 2/3)          2/3 PC
#   0.8        {.9, .8}           0  2    (0, 1/3)          1/3 PC
#   0.7        + .7 (neg)         1  2    (1/3, 1/3)        1/3
#   0.6        + both .6          2  3    (2/3, 0)          2/3 (1 - PC)
#   0.1        all                3  3    (1, 0)            1 - PC        (always positive)
# ROC points (fpr, tpr): (0,0) (0,1/3) (0,2/3) (1/3,2/3) (2/3,1) (1,1). Upper hull: (0,0), (0,2/3),
# (2/3,1), (1,1) [(1/3,2/3) lies below the chord (0,2/3)-(2/3,1)]. Lines cross at
# PC = df / (df + dt): (0,0)-(0,2/3): 0; (0,2/3)-(2/3,1): (2/3) / (2/3 + 1/3) = 2/3; last edge
# horizontal: 1. Envelope: 1/3 PC on [0, 2/3], 2/3 (1 - PC) on [2/3, 1]; both 2/9 at PC = 2/3.
# Area: triangle of base 1 and height 2/9 = 1/9.
Y6 = np.array([1, 1, 0, 1, 0, 0])
S6 = np.array([0.9, 0.8, 0.7, 0.6, 0.6, 0.1])


def test_cost_curve_worked_example():
    cc = cost_curve(Y6, S6)
    assert cc.thresholds.tolist() == [np.inf, 0.9, 0.8, 0.7, 0.6, 0.1]
    np.testing.assert_allclose(cc.fpr, [0, 0, 0, 1 / 3, 2 / 3, 1], atol=1e-15)
    np.testing.assert_allclose(cc.fnr, [1, 2 / 3, 1 / 3, 1 / 3, 0, 0], atol=1e-15)
    assert cc.envelope_lines.tolist() == [2, 4]
    np.testing.assert_allclose(cc.envelope_pc, [0, 2 / 3, 1], atol=1e-15)
    np.testing.assert_allclose(cc.envelope_nec, [0, 2 / 9, 0], atol=1e-15)
    assert cc.area == pytest.approx(1 / 9, abs=1e-15)
    np.testing.assert_allclose(cc.hull_fpr, [0, 2 / 3], atol=1e-15)
    np.testing.assert_allclose(cc.hull_tpr, [2 / 3, 1], atol=1e-15)
    assert cc.best_threshold(0.5) == 0.8
    assert cc.best_threshold([0.0, 0.9, 1.0]).tolist() == [0.8, 0.6, 0.6]
    assert cc.envelope(1 / 3) == pytest.approx(1 / 9, abs=1e-15)
    assert cc.trivial_envelope([0.2, 0.7]).tolist() == [0.2, pytest.approx(0.3)]
    assert len(cc) == 6 and repr(cc) == "CostCurve(n_lines=6, envelope_segments=2, area=0.111111)"
    assert cc.line(0) == CostLine(0.0, 1.0, np.inf)


def test_cost_curve_operating_line():
    cc = cost_curve(Y6, S6, threshold=0.65)  # predicts .9, .8, .7 positive: fp 1, tp 2
    assert cc.operating_line == CostLine(1 / 3, 1 / 3, 0.65)
    assert cc.operating_line.nec(0.25) == pytest.approx(1 / 3)
    ranking = BinaryRanking(np.array([0.9, 0.8, 0.7, 0.6, 0.1]), np.array([0, 0, 1, 1, 1]),
                            np.array([1, 1, 0, 1, 0]))
    assert CostLine.at_threshold(ranking, 0.65) == cc.operating_line


def test_trivial_and_perfect_scorers():
    flat = cost_curve([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5])  # only the trivial classifiers
    np.testing.assert_allclose(flat.envelope_pc, [0, 0.5, 1])
    np.testing.assert_allclose(flat.envelope_nec, [0, 0.5, 0])
    assert flat.area == 0.25 and flat.best_threshold([0.2, 0.8]).tolist() == [np.inf, 0.5]
    perfect = cost_curve([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8])
    assert perfect.envelope_pc.tolist() == [0.0, 1.0] and perfect.envelope_nec.tolist() == [0.0, 0.0]
    assert perfect.area == 0.0 and perfect.best_threshold(0.3) == 0.8
    inverted = cost_curve([0, 1, 0, 1], [0.9, 0.1, 0.8, 0.2])  # worse than trivial: trivial lines win
    np.testing.assert_allclose(inverted.envelope_nec, [0, 0.5, 0])


@given(binary_data())
def test_envelope_is_the_lowest_line(data):
    y, s, w = data
    cc = cost_curve(y, s, sample_weight=w)
    thresholds, fpr, fnr = raw_lines(y, s, w)
    np.testing.assert_array_equal(cc.thresholds, thresholds)
    np.testing.assert_allclose(cc.fpr, fpr, atol=1e-12)
    np.testing.assert_allclose(cc.fnr, fnr, atol=1e-12)
    # the lowest of all lines, on a dense grid that holds the breakpoints
    grid = np.union1d(np.linspace(0, 1, 1001), cc.envelope_pc)
    lowest = (fnr[:, None] * grid + fpr[:, None] * (1 - grid)).min(axis=0)
    np.testing.assert_allclose(cc.envelope(grid), lowest, atol=1e-12)
    # piecewise linear between the breakpoints, so the trapezoid rule on that grid is exact
    assert cc.area == pytest.approx(float(np.sum(np.diff(grid) * (lowest[1:] + lowest[:-1]) / 2)), abs=1e-12)
    assert np.all(np.diff(cc.envelope_pc) > 0) and cc.envelope_pc[[0, -1]].tolist() == [0.0, 1.0]
    # never worse than the trivial classifiers, never below 0
    assert np.all(cc.envelope(grid) <= np.minimum(grid, 1 - grid) + 1e-12)
    assert np.all(cc.envelope_nec >= -1e-15) and cc.area <= 0.25 + 1e-12
    # the best threshold's line is the lowest one
    best = cc.best_threshold(grid)
    at = np.searchsorted(-thresholds, -best)
    np.testing.assert_allclose(fnr[at] * grid + fpr[at] * (1 - grid), lowest, atol=1e-12)


@given(binary_data(weighted=False, max_size=24))
def test_envelope_lines_are_the_roc_hull_vertices(data):
    y, s, _ = data
    cc = cost_curve(y, s)
    n_neg, n_pos = int((y == 0).sum()), int((y == 1).sum())
    points = [(Fraction(int(round(f * n_neg)), n_neg), Fraction(int(round((1 - m) * n_pos)), n_pos))
              for f, m in zip(cc.fpr, cc.fnr)]
    hull = exact_upper_hull(points)
    on_envelope = [points[i] for i in cc.envelope_lines]
    assert len(set(on_envelope)) == len(on_envelope)
    # every envelope line is a hull vertex; every hull vertex but a corner (0, 0) / (1, 1) with a
    # vertical / horizontal edge (lowest only at PC = 0 / 1) has a segment of its own
    assert set(on_envelope) <= set(hull)
    corners = {(0, 0), (1, 1)}
    assert set(hull) - corners <= set(on_envelope)
    assert sorted(on_envelope) == on_envelope  # along the hull as PC rises


def test_cost_curve_scale_and_long_input():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200_000)
    s = rng.normal(y * 1.2, 1.0)
    cc = cost_curve(y, s)
    assert len(cc) == np.unique(s).size + 1
    grid = np.union1d(np.linspace(0, 1, 301), cc.envelope_pc)
    # brute force over the hull's candidates would be the envelope; check against all lines in chunks
    lowest = np.full(grid.size, np.inf)
    for start in range(0, len(cc), 20_000):
        f, m = cc.fpr[start:start + 20_000, None], cc.fnr[start:start + 20_000, None]
        lowest = np.minimum(lowest, (m * grid + f * (1 - grid)).min(axis=0))
    np.testing.assert_allclose(cc.envelope(grid), lowest, atol=1e-12)


def test_cost_curve_of_ranking_and_pos_label():
    cc = cost_curve(np.array(["b", "a", "b", "a"]), [0.2, 0.9, 0.4, 0.6], pos_label="a")
    assert cc.pos_label == "a" and cc.area == 0.0
    ranking = BinaryRanking(np.array([0.9, 0.6, 0.4, 0.2]), None, np.array([True, True, False, False]))
    same = cost_curve_of(ranking, pos_label="a")
    np.testing.assert_array_equal(same.envelope_nec, cc.envelope_nec)
    # (n, 2) probabilities in label order
    two = cost_curve([0, 1, 1, 0], np.array([[0.8, 0.2], [0.3, 0.7], [0.4, 0.6], [0.5, 0.5]]))
    one = cost_curve([0, 1, 1, 0], [0.2, 0.7, 0.6, 0.5])
    np.testing.assert_array_equal(two.envelope_nec, one.envelope_nec)


def test_cost_curve_line_subset_and_to_dict():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 3000)
    s = rng.normal(y, 1.0)
    cc = cost_curve(y, s, threshold=0.5)
    keep = cc.line_subset(50)
    assert keep[0] == 0 and keep[-1] == len(cc) - 1 and np.all(np.diff(keep) > 0)
    assert set(cc.envelope_lines.tolist()) <= set(keep.tolist())
    assert keep.size <= 50 + cc.envelope_lines.size
    d = cc.to_dict(max_lines=50)
    assert d["n_lines"] == len(cc) and len(d["fpr"]) == keep.size
    assert d["envelope_nec"] == cc.envelope_nec.tolist() and d["area"] == cc.area
    assert d["envelope_thresholds"] == cc.thresholds[cc.envelope_lines].tolist()
    assert d["operating_line"]["threshold"] == 0.5
    json.dumps(json_safe(d), allow_nan=False)
    assert len(cc.to_dict(max_lines=None)["fpr"]) == len(cc)
    with pytest.raises(ValueError, match="max_lines must be at least 2"):
        cc.line_subset(1)


def test_cost_curve_is_immutable():
    cc = cost_curve(Y6, S6)
    with pytest.raises(ValueError):
        cc.fpr[0] = 0.5
    with pytest.raises(AttributeError):
        cc.area = 0.0  # type: ignore[misc]
    assert isinstance(cc, CostCurve)


def test_cost_curve_errors():
    with pytest.raises(ValueError, match="cost curve needs both classes, but the ranking has no negatives"):
        cost_curve_of(BinaryRanking(np.array([0.9, 0.2]), None, np.array([True, True])))
    with pytest.raises(ValueError, match="no positives"):
        cost_curve([0, 1, 0], [0.1, 0.5, 0.7], sample_weight=[1, 0, 1])
    with pytest.raises(ValueError, match="cost curve needs a binary problem.*multiclass"):
        cost_curve([0, 1, 2], np.eye(3))
    with pytest.raises(ValueError, match=r"pc must lie in \[0, 1\]; pc\[1\] is 1.2"):
        cost_curve(Y6, S6).best_threshold([0.5, 1.2])


# -- decision curves --------------------------------------------------------------------------


def test_net_benefit_hand_worked():
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    # pt 0.2: .4 (neg), .35, .8 treated: 2/4 - 1/4 * 0.25; pt 0.5: .8 only: 1/4
    np.testing.assert_allclose(net_benefit(y, s, [0.2, 0.5]), [0.4375, 0.25], atol=1e-15)
    # pt 0: everybody treated; treat all = prevalence there
    assert net_benefit(y, s, 0.0) == 0.5 and net_benefit(y, s, 0.0).shape == ()
    dc = decision_curve(y, s, thresholds=[0.2, 0.5])
    np.testing.assert_allclose(dc.treat_all, [0.5 - 0.5 * 0.25, 0.0], atol=1e-15)
    np.testing.assert_allclose(dc.standardized_net_benefit, [0.875, 0.5], atol=1e-15)
    assert dc.prevalence == 0.5 and dc.treat_none.tolist() == [0.0, 0.0]
    # interventions avoided per sample: (NB - NB_all) (1 - pt) / pt
    np.testing.assert_allclose(dc.interventions_avoided, [(0.4375 - 0.375) * 4, 0.25], atol=1e-15)


@given(binary_data(), st.lists(st.floats(0, 0.995), min_size=1, max_size=8))
def test_net_benefit_matches_the_definition(data, pts):
    y, s, w = data
    pts = np.array(pts)
    expected = raw_net_benefit(y, s, pts, w)
    np.testing.assert_allclose(net_benefit(y, s, pts, sample_weight=w), expected, atol=1e-12)
    dc = decision_curve(y, s, thresholds=pts, sample_weight=w)
    np.testing.assert_allclose(dc.net_benefit, expected, atol=1e-12)
    ww = np.ones(y.size) if w is None else w
    prev = ww[y == 1].sum() / ww.sum()
    assert dc.prevalence == pytest.approx(prev, rel=1e-12)
    np.testing.assert_allclose(dc.treat_all, prev - (1 - prev) * pts / (1 - pts), atol=1e-12)
    np.testing.assert_allclose(dc.standardized_net_benefit, expected / prev, atol=1e-12)
    # a model that treats everyone (score 1) is "treat all"
    np.testing.assert_allclose(net_benefit(y, np.ones(y.size), pts, sample_weight=w), dc.treat_all, atol=1e-12)


def test_perfect_model_net_benefit_is_the_prevalence():
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 500)
    dc = decision_curve(y, y.astype(float))
    np.testing.assert_allclose(dc.net_benefit, y.mean(), atol=1e-15)
    np.testing.assert_allclose(dc.standardized_net_benefit, 1.0, atol=1e-15)
    assert np.all(dc.net_benefit >= dc.treat_all) and np.all(dc.net_benefit >= 0)


def test_default_thresholds():
    assert DEFAULT_DECISION_THRESHOLDS.tolist() == [round(0.01 * i, 2) for i in range(1, 100)]
    dc = decision_curve(Y6, S6)
    assert len(dc) == 99 and dc.thresholds.tolist() == DEFAULT_DECISION_THRESHOLDS.tolist()
    assert repr(dc) == "DecisionCurve(n_thresholds=99, pt=[0.01, 0.99], prevalence=0.5)"
    d = dc.to_dict()
    assert d["kind"] == "decision" and d["net_benefit"] == dc.net_benefit.tolist() and len(d["treat_none"]) == 99
    json.dumps(d, allow_nan=False)


def test_decision_curve_of_ranking():
    ranking = BinaryRanking(np.array([0.8, 0.4, 0.35, 0.1]), None, np.array([True, False, True, False]))
    dc = decision_curve_of(ranking, [0.0, 0.3])
    # pt 0.3: .8, .4, .35 treated: (2 - 1 * 0.3 / 0.7) / 4
    np.testing.assert_allclose(dc.net_benefit, [0.5, (2 - 0.3 / 0.7) / 4], atol=1e-15)
    assert isinstance(dc, DecisionCurve) and decision_curve_of(ranking, 0.3).thresholds.shape == (1,)
    weighted = BinaryRanking(np.array([0.8, 0.4]), np.array([0.5, 2.0]), np.array([1.5, 1.0]))
    # pt 0.5: the 0.8 group treated: (1.5 - 0.5) / 5
    assert decision_curve_of(weighted, [0.5]).net_benefit.tolist() == [0.2]


def test_decision_curve_errors():
    with pytest.raises(ValueError, match=r"thresholds must lie in \[0, 1\); thresholds\[2\] is 1.0"):
        decision_curve(Y6, S6, thresholds=[0.1, 0.5, 1.0, 2.0])
    with pytest.raises(ValueError, match=r"thresholds\[0\] is -0.1"):
        net_benefit(Y6, S6, [-0.1])
    with pytest.raises(ValueError, match=r"thresholds\[1\] is nan"):
        net_benefit(Y6, S6, [0.1, np.nan])
    with pytest.raises(ValueError, match=r"thresholds must lie in \[0, 1\); thresholds is 1.0"):
        net_benefit(Y6, S6, 1.0)
    with pytest.raises(ValueError, match="thresholds must be 1-D"):
        decision_curve(Y6, S6, thresholds=[[0.1, 0.2]])
    with pytest.raises(ValueError, match=r"predicted probabilities.*from -1.15 to 1.65\. Decision values .* not probabilities"):
        decision_curve(Y6, S6 * 3.5 - 1.5)
    with pytest.raises(ValueError, match="decision curve needs a binary problem"):
        net_benefit([0, 1, 2], np.eye(3), [0.5])
