"""Rows of a ranking's threshold counts read on demand, and the outputs built from them.

Oracles: ``ranking.counts_at_thresholds()`` (every row), ``cost_curve_of(...).to_dict()`` (every line
built, then thinned), a plain monotone chain over every ROC point in exact integer arithmetic (the
cost curve's hull), and :meth:`Evaluation.to_dict` read the old way (full ROC curves for the main
curve's name).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.results.cost_curves import CostLine, cost_curve_dict, cost_curve_of
from clfeval.results.threshold_index import ThresholdIndex
from clfeval.statistics.rankings import BinaryRanking


def ranking_of(y, s, w=None):
    return clfeval.evaluate(y, y_score=s, sample_weight=w, labels=[0, 1]).ranking("1")


def rows_equal(a, b):
    for name in ("thresholds", "tp", "fp", "fn", "tn"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype, name
        np.testing.assert_array_equal(x, y, err_msg=name)


@st.composite
def rankings(draw):
    n = draw(st.integers(1, 60))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    levels = draw(st.sampled_from([3, 20, 1000]))
    s = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))) / levels
    kind = draw(st.sampled_from(["none", "int", "float"]))
    w = None
    if kind == "int":
        w = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    elif kind == "float":
        w = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.5]), min_size=n, max_size=n)))
    if w is not None and not w.sum() > 0:
        w[0] = 1
    return ranking_of(y, s, w)


@given(r=rankings(), data=st.data())
def test_rows_equal_the_full_rows(r, data):
    full = r.counts_at_thresholds()
    m = len(full)
    index = ThresholdIndex(r)
    assert len(index) == m
    idx = np.array(data.draw(st.lists(st.integers(0, m - 1), max_size=12)), dtype=np.intp)
    expected = type(full)(*(getattr(full, k)[idx] for k in ("thresholds", "tp", "fp", "fn", "tn")))
    rows_equal(index.take(idx), expected)
    fp, tp = index.fp_tp(idx)
    np.testing.assert_array_equal(fp, expected.fp)
    np.testing.assert_array_equal(tp, expected.tp)
    rows_equal(index.take(np.arange(m)), full)


def test_rows_of_hand_rankings():
    unique = BinaryRanking(np.array([0.9, 0.5, 0.2]), None, np.array([True, False, True]))
    at = ThresholdIndex(unique).take(np.array([3, 0, 1]))
    assert at.thresholds.tolist() == [0.2, np.inf, 0.9]
    counts = (at.tp.tolist(), at.fp.tolist(), at.fn.tolist(), at.tn.tolist())
    assert counts == ([2, 0, 1], [1, 0, 0], [0, 2, 1], [0, 1, 1])
    tied = BinaryRanking(np.array([0.9, 0.5]), np.array([2, 1]), np.array([1, 3]))
    at = ThresholdIndex(tied).take(np.array([1, 2]))
    assert (at.tp.tolist(), at.fp.tolist(), at.fn.tolist(), at.tn.tolist()) == ([1, 4], [2, 3], [3, 0], [1, 0])
    assert ThresholdIndex(tied).exact
    weighted = BinaryRanking(np.array([0.9, 0.5]), np.array([0.5, 0.25]), np.array([1.0, 0.0]))
    assert not ThresholdIndex(weighted).exact
    at = ThresholdIndex(weighted).take(np.array([1]))
    assert (at.tp.tolist(), at.fp.tolist(), at.fn.tolist(), at.tn.tolist()) == ([1.0], [0.5], [0.0], [0.25])


def test_a_ranking_without_scores_has_one_row():
    empty = BinaryRanking(np.array([]), None, np.array([], dtype=bool))
    index = ThresholdIndex(empty)
    assert len(index) == 1
    at = index.take(np.array([0, 0]))
    assert at.thresholds.tolist() == [np.inf, np.inf] and at.tp.tolist() == [0, 0] and at.fn.tolist() == [0, 0]


# -- the cost curve's hull and its plain form -------------------------------------------------------


def monotone_chain(fp: np.ndarray, tp: np.ndarray) -> list[int]:
    """Strict vertices of the upper hull of the ROC points in index order (the first of a run of equal
    points), by Andrew's monotone chain in exact integer arithmetic."""
    xs, ys = fp.tolist(), tp.tolist()
    hull: list[int] = []
    for i, (x, y) in enumerate(zip(xs, ys)):
        if i and (x, y) == (xs[i - 1], ys[i - 1]):
            continue
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (xs[b] - xs[a]) * (y - ys[b]) - (ys[b] - ys[a]) * (x - xs[b]) >= 0:
                hull.pop()
            else:
                break
        hull.append(i)
    return hull


def long_cases():
    rng = np.random.default_rng(11)
    for n in (300, 3000, 60_000, 250_000):
        y = rng.integers(0, 2, n)
        s = rng.normal(size=n) + 1.3 * y
        yield f"continuous-{n}", y, s, None
    n = 100_000
    y = rng.integers(0, 2, n)
    yield "ties", y, np.round(rng.normal(size=n) + y, 2), None
    yield "int-weights-with-zeros", y, np.round(rng.normal(size=n) + y, 4), rng.integers(0, 3, n)
    # a straight ROC curve: every point on the hull's one edge (collinear), and an uninformative scorer
    yield "collinear", np.arange(20_000) % 2, np.repeat(np.arange(10_000), 2)[::-1].astype(float), None
    yield "random", y, rng.random(n), None
    yield "perfect", np.r_[np.zeros(5000, int), np.ones(5000, int)], np.linspace(0, 1, 10_000), None
    yield "inverted", np.r_[np.ones(5000, int), np.zeros(5000, int)], np.linspace(0, 1, 10_000), None


@pytest.mark.parametrize("name, y, s, w", [pytest.param(*case, id=case[0]) for case in long_cases()])
def test_hull_of_long_rankings_is_the_monotone_chain_of_every_point(name, y, s, w):
    r = ranking_of(y, s, w)
    full = r.counts_at_thresholds()
    cc = cost_curve_of(r)
    hull = monotone_chain(full.fp, full.tp)
    # the envelope's lines are the hull's vertices (less a corner on a vertical or horizontal edge)
    on = cc.envelope_lines.tolist()
    assert set(on) <= set(hull)
    assert set(hull) - {0, len(full) - 1} <= set(on)
    d = cost_curve_dict(r, max_lines=200)
    assert d == cc.to_dict(max_lines=200)
    assert len(d["fpr"]) <= 200 and d["n_lines"] == len(full)


@pytest.mark.parametrize("weights", ["float", "huge", "tiny"])
def test_plain_form_of_weighted_rankings_equals_the_full_curve(weights):
    rng = np.random.default_rng(3)
    n = 40_000
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + y, 3)
    w = rng.random(n) * {"float": 1.0, "huge": 1e300, "tiny": 1e-300}[weights]
    r = ranking_of(y, s, w)
    line = CostLine(0.25, 0.5, 0.5)
    assert cost_curve_dict(r, operating_line=line, max_lines=150) == \
        cost_curve_of(r, operating_line=line).to_dict(max_lines=150)


@given(r=rankings(), max_lines=st.sampled_from([2, 5, 200, None]))
@settings(max_examples=60)
def test_plain_form_equals_the_full_curve(r, max_lines):
    n_total, p_total = r.totals
    if not (n_total > 0 and p_total > 0):
        with pytest.raises(ValueError, match="cost curve needs both classes"):
            cost_curve_dict(r)
        return
    assert cost_curve_dict(r, max_lines=max_lines) == cost_curve_of(r).to_dict(max_lines=max_lines)


def test_max_lines_below_two_is_refused():
    r = ranking_of(np.arange(1000) % 2, np.linspace(0, 1, 1000))
    with pytest.raises(ValueError, match="max_lines must be at least 2"):
        cost_curve_dict(r, max_lines=1)


# -- the evaluation's plain form --------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["probabilities", "weights", "multiclass", "labels only"])
def test_evaluation_entries_equal_the_full_objects(kind):
    rng = np.random.default_rng(5)
    n = 30_000
    y = rng.integers(0, 2, n)
    kwargs = {"y_score": 1 / (1 + np.exp(-(rng.normal(size=n) + y)))}
    if kind == "weights":
        kwargs["sample_weight"] = rng.random(n)
    elif kind == "multiclass":
        y = rng.integers(0, 3, n)
        kwargs = {"y_score": rng.dirichlet(np.ones(3), n)}
    elif kind == "labels only":
        kwargs = {"y_pred": rng.integers(0, 2, n)}
    ev = clfeval.evaluate(y, **kwargs)
    d = ev.to_dict()
    assert d["main_curve"] == (None if ev.roc is None else ev.roc.main_name)
    if kind in ("probabilities", "weights"):
        assert d["cost_curve"] == ev.cost_curve().to_dict(max_lines=200)
        assert ev.cost_curve_dict(max_lines=None) == ev.cost_curve().to_dict(max_lines=None)
        for criterion, point in d["operating_points"]["1"].items():
            assert point == ev.operating_point(criterion).to_dict()
