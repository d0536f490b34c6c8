"""Binned scores (clfeval.statistics.binning): the quantize grid, and the bounds on ROC AUC and average
precision that must hold the unbinned data's values (scikit-learn as the oracle, plus exact
rational references for the arrangements that reach the bounds)."""

from __future__ import annotations

import dataclasses
import json
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score

import clfeval
from clfeval.statistics.binning import (
    BinnedBounds,
    _u_minus_log1p,
    auc_bounds,
    average_precision_bounds,
    binned_bounds,
    is_grid_value,
    quantize,
)
from clfeval.statistics.rankings import BinaryRanking
from clfeval.statistics.scores import ScoreTable

LOWEST = float(np.finfo(np.float64).min)
TINY = 5e-324
# scikit-learn computes the unbinned values in floating point too: allow its rounding
SK_TOL = 1e-12
# BinaryRanking.average_precision with float weights is not clipped to 1 and may exceed it by an
# ulp, while the bounds are clipped to [0, 1]
AP_ULPS = 4 * np.finfo(np.float64).eps

finite = st.floats(allow_nan=False, allow_infinity=False)  # subnormals, +-0.0, extremes
bits_any = st.integers(1, 52)
NICE = [0.0, 0.5, 1.0, -0.5, -1.0, 3.0, -3.0, 0.75, 1e-300, -1e-300, 2.0**-1074, LOWEST]


def q1(x: float, bits: int) -> float:
    return float(quantize(np.array([x]), bits)[0])


def ranking_of(y, scores, weights=None) -> BinaryRanking:
    table = ScoreTable.from_labels(np.asarray(y, dtype=int), scores, classes=[0, 1], sample_weight=weights)
    return BinaryRanking.from_table(table, 1)


# -- quantize ---------------------------------------------------------------------------------


@given(st.lists(finite, min_size=1, max_size=30), bits_any)
def test_quantize_floors_monotone_idempotent(xs, bits):
    x = np.array(xs)
    q = quantize(x, bits)
    assert q.shape == x.shape and q.dtype == np.float64
    assert np.isfinite(q).all()
    assert (q <= x).all()
    assert not np.signbit(q[q == 0]).any()  # -0.0 normalised
    assert np.array_equal(quantize(q, bits), q)  # idempotent
    order = np.argsort(x, kind="stable")
    assert (np.diff(q[order]) >= 0).all()  # x <= y  =>  q(x) <= q(y)
    assert all(is_grid_value(v, bits) for v in q.tolist())


@given(finite, finite, bits_any)
def test_quantize_threshold_equivalence(x, r, bits):
    # for every grid value t: x >= t  <=>  quantize(x) >= t
    qx = q1(x, bits)
    for t in [*NICE, q1(r, bits)]:
        if is_grid_value(t, bits):
            assert (x >= t) == (qx >= t), (x, t, qx)
    for t in (0.0, 0.5, 1.0, -0.5, -1.0, LOWEST):  # always on the grid
        assert is_grid_value(t, bits)


@given(finite, bits_any)
def test_quantize_relative_gap(x, bits):
    q = q1(x, bits)
    gap = x - q  # exact: q and x are within a factor 2 of each other (Sterbenz)
    assert 0.0 <= gap <= abs(x) * 2.0**-bits + 2.0 ** (52 - bits) * TINY


@given(st.floats(min_value=1e-300, max_value=1e300) | st.floats(min_value=-1e300, max_value=-1e-300), bits_any)
def test_quantize_matches_frexp_reference(x, bits):
    # normal numbers: floor of the (bits + 1)-bit significand, for both signs
    m, e = math.frexp(x)  # x = m 2^e, 0.5 <= |m| < 1
    scale = 2.0 ** (bits + 1)
    assert q1(x, bits) == math.ldexp(math.floor(m * scale) / scale, e)


@given(finite)
def test_quantize_52_bits_is_identity(x):
    assert q1(x, 52) == x
    assert is_grid_value(x, 52)


def test_quantize_hand_examples():
    # bits=1 keeps significands 1.0 and 1.5: grid ..., 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, ...
    assert quantize([0.7, 1.0, 1.4, 1.5, 1.99, 2.9, 5.0], 1).tolist() == [0.5, 1.0, 1.0, 1.5, 1.5, 2.0, 4.0]
    # negatives floor away from zero; -0.5, -1 are on the grid; -1.99 floors to -2 (next binade)
    assert quantize([-0.7, -0.5, -1.0, -1.2, -1.99], 1).tolist() == [-0.75, -0.5, -1.0, -1.5, -2.0]
    assert quantize([0.7, -0.7, 3.0, -0.0], bits=2).tolist() == [0.625, -0.75, 3.0, 0.0]
    assert not np.signbit(quantize(-0.0, 4))
    # below the lowest finite grid value (-1.5 * 2^1023 for bits=1) the floor is the lowest float64
    assert q1(-1.7e308, 1) == LOWEST and q1(LOWEST, 1) == LOWEST and q1(-1.5 * 2.0**1023, 1) == -1.5 * 2.0**1023
    assert q1(np.finfo(np.float64).max, 1) == 1.5 * 2.0**1023
    # subnormals: absolute spacing 2^(52 - bits) * 5e-324
    assert q1(7 * TINY, 50) == 4 * TINY and q1(-7 * TINY, 50) == -8 * TINY
    # shapes are kept, default 16 bits
    out = quantize([[0.1, -0.3], [2.0, 1e-5]])
    assert out.shape == (2, 2) and (out <= np.array([[0.1, -0.3], [2.0, 1e-5]])).all()
    assert quantize(0.3, 3).shape == () and float(quantize(0.3, 3)) == 0.28125
    assert quantize([], 8).shape == (0,)
    assert quantize([1, 2, 3], 1).tolist() == [1.0, 2.0, 3.0]  # integers become float64


def test_quantize_relative_bin_width():
    # 2^-bits relative: 1 + 2^-bits is the grid value after 1
    for bits in (1, 8, 16, 52):
        nxt = 1.0 + 2.0**-bits
        assert is_grid_value(nxt, bits) and q1(np.nextafter(nxt, 0), bits) == 1.0


def test_quantize_bad_input():
    with pytest.raises(ValueError, match=r"scores\[2\] is nan"):
        quantize([0.1, 0.2, np.nan, np.inf])
    with pytest.raises(ValueError, match=r"scores\[1\] is -inf"):
        quantize([0.1, -np.inf])
    with pytest.raises(ValueError, match=r"scores\[\(1, 0\)\]"):
        quantize([[0.1, 0.2], [np.nan, 0.3]])
    for bad in (0, 53, -1):
        with pytest.raises(ValueError, match="bits must be from 1 to 52"):
            quantize([0.5], bad)
        with pytest.raises(ValueError, match="bits must be from 1 to 52"):
            is_grid_value(0.5, bad)
    for bad in (1.5, "8", True, None):
        with pytest.raises(TypeError, match="bits must be an integer"):
            quantize([0.5], bad)
    with pytest.raises(TypeError, match="numeric"):
        quantize(["a", "b"])


def test_is_grid_value():
    assert is_grid_value(0.75, 1) and is_grid_value(-0.75, 1) and not is_grid_value(0.625, 1)
    assert is_grid_value(0.625, 2) and is_grid_value(LOWEST, 1) and is_grid_value(-0.0, 3)
    assert not is_grid_value(0.1, 16) and is_grid_value(0.1, 52)
    assert not is_grid_value(float("nan"), 8) and not is_grid_value(float("inf"), 8)


def test_binned_tables_merge_exactly():
    # the grid is fixed, so binning chunks and merging equals binning everything
    rng = np.random.default_rng(0)
    y, s = rng.integers(0, 2, 500), rng.normal(size=500)
    whole = ScoreTable.from_labels(y, quantize(s, 4), classes=[0, 1])
    parts = [ScoreTable.from_labels(y[i:i + 100], quantize(s[i:i + 100], 4), classes=[0, 1]) for i in range(0, 500, 100)]
    merged = parts[0]
    for part in parts[1:]:
        merged = merged.merge(part)
    assert merged == whole


# -- bounds against scikit-learn on the original data -----------------------------------------


@st.composite
def original_data(draw):
    """(labels, scores, weights or None) with many ties and scores of both signs."""
    n = draw(st.integers(1, 40))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    kind = draw(st.sampled_from(["ties", "spread", "wide"]))
    if kind == "ties":
        values = st.integers(-8, 8).map(lambda k: k / 4)
    elif kind == "spread":
        values = st.floats(-3, 3, allow_subnormal=False)
    else:
        values = finite.filter(lambda v: abs(v) < 1e300)
    s = np.array(draw(st.lists(values, min_size=n, max_size=n)), dtype=np.float64)
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.floats(0.01, 10), min_size=n, max_size=n)))
    return y, s, w


def _inside(low, value, high, tol=0.0):
    return low - tol <= value <= high + tol


@given(original_data(), st.integers(1, 6) | st.just(52))
def test_bounds_hold_the_unbinned_values(data, bits):
    y, s, w = data
    r = ranking_of(y, quantize(s, bits), w)
    auc_low, auc_high = auc_bounds(r)
    ap_low, ap_high = average_precision_bounds(r)
    has_pos, has_neg = y.any(), (~y).any()
    if has_pos and has_neg:
        true_auc = roc_auc_score(y, s, sample_weight=w)
        assert 0.0 <= auc_low <= auc_high <= 1.0
        assert _inside(auc_low, true_auc, auc_high, SK_TOL)
        assert _inside(auc_low, r.roc_auc, auc_high)
        # the binned AUC is the midpoint: half the width on each side
        assert abs((auc_low + auc_high) / 2 - r.roc_auc) <= 1e-12
    else:
        assert math.isnan(auc_low) and math.isnan(auc_high)
    if has_pos:
        true_ap = average_precision_score(y, s, sample_weight=w)
        assert 0.0 <= ap_low <= ap_high <= 1.0
        assert _inside(ap_low, true_ap, ap_high, SK_TOL)
        assert _inside(ap_low, r.average_precision, ap_high, AP_ULPS)
    else:
        assert math.isnan(ap_low) and math.isnan(ap_high)


@given(original_data())
def test_bounds_without_binning(data):
    # bits=52 keeps every score; the AUC width is then that of the original ties only
    y, s, w = data
    assume(y.any() and (~y).any())
    r = ranking_of(y, quantize(s, 52), w)
    low, high = auc_bounds(r)
    true_auc = roc_auc_score(y, s, sample_weight=w)
    tied = sum(
        (w[(s == v) & y].sum() * w[(s == v) & ~y].sum()) if w is not None else ((s == v) & y).sum() * ((s == v) & ~y).sum()
        for v in np.unique(s)
    )
    total = (w[y].sum() * w[~y].sum()) if w is not None else y.sum() * (~y).sum()
    assert high - low == pytest.approx(tied / total, abs=1e-12)
    assert _inside(low, true_auc, high, SK_TOL)
    if tied == 0:  # no pair tied: the bounds collapse onto the exact value
        assert high - low <= 1e-12 and true_auc == pytest.approx(low, abs=1e-12)


@given(st.integers(0, 10**6))
def test_one_sample_per_score_collapses(seed):
    # a ranking with one unweighted sample per score (neg is None) hides nothing
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    y, s = rng.integers(0, 2, n).astype(bool), rng.permutation(n).astype(float)
    assume(y.any() and (~y).any())
    r = clfeval.evaluate(y.astype(int), y_score=s).ranking("1")
    assert r.neg is None
    for (low, high), true in (
        (auc_bounds(r), roc_auc_score(y, s)),
        (average_precision_bounds(r), average_precision_score(y, s)),
    ):
        assert high - low <= 1e-12 and low - 1e-12 <= true <= high + 1e-12


def test_bounds_through_evaluate():
    # the documented route: quantize, evaluate, read the ranking of the positive class
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 2000)
    s = rng.normal(size=2000) + y
    r = clfeval.evaluate(y, y_score=quantize(s, 3)).ranking("1")
    out = binned_bounds(r, bits=3)
    assert _inside(out.auc_low, roc_auc_score(y, s), out.auc_high, SK_TOL)
    assert _inside(out.ap_low, average_precision_score(y, s), out.ap_high, SK_TOL)
    assert out.auc == r.roc_auc and out.ap == r.average_precision
    # a finer grid gives narrower bounds
    finer = binned_bounds(clfeval.evaluate(y, y_score=quantize(s, 8)).ranking("1"), bits=8)
    assert finer.auc_width < out.auc_width and finer.ap_width < out.ap_width
    assert finer.auc_width < 0.01 and finer.ap_width < 0.02


# -- the bounds are reached: arrangements inside bins, exact rational references -------------


def _original_from_bins(bins, arrangement, pieces=1):
    """Original data (y, scores, weights) whose bits=1 binning gives ``bins`` [(p, n), ...], top
    first: bin j has grid value 2^-j and original scores in [2^-j, 1.5 * 2^-j).

    arrangement 'pos_tied_first': the bin's positives tied, above its negatives (tied);
    'neg_first': negatives tied on top, then the positives one by one, each split into
    ``pieces`` samples of weight 1 / pieces at distinct scores.
    """
    y, s, w = [], [], []
    for j, (p, n) in enumerate(bins):
        base = 2.0**-j
        if arrangement == "pos_tied_first":
            y += [1] * p + [0] * n
            s += [base * (1 + 2 / 1024)] * p + [base * (1 + 1 / 1024)] * n
            w += [1.0] * (p + n)
        else:  # neg_first
            y += [0] * n
            s += [base * 1.49] * n
            w += [1.0] * n
            for i in range(p * pieces):
                y.append(1)
                s.append(base * (1.4 - i * 1e-6))
                w.append(1.0 / pieces)
    return np.array(y, dtype=bool), np.array(s), np.array(w)


def _exact_ap(bins, arrangement):
    """Exact AP (Fractions) of an arrangement of unit samples inside the bins, top bin first."""
    big_p = sum(p for p, _ in bins)
    a = b = 0
    total = Fraction(0)
    for p, n in bins:
        if arrangement == "pos_tied_first":
            total += Fraction(p) * Fraction(a + p, b + p) if p else 0
        elif arrangement == "neg_first":
            total += sum(Fraction(a + k, b + n + k) for k in range(1, p + 1))
        else:  # all tied: the binned value
            total += Fraction(p) * Fraction(a + p, b + p + n) if p else 0
        a, b = a + p, b + p + n
    return total / big_p


bins_strategy = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=6).filter(
    lambda bins: sum(p for p, _ in bins) > 0
)


@given(bins_strategy)
def test_ap_bounds_reached_by_arrangements(bins):
    y, s, _ = _original_from_bins(bins, "pos_tied_first")
    r = ranking_of(y, quantize(s, 1))
    assert [(int(p), int(n)) for p, n in zip(r.pos, r.negatives())] == [b for b in bins if b != (0, 0)]
    low, high = average_precision_bounds(r)
    best, worst, tied = (_exact_ap(bins, a) for a in ("pos_tied_first", "neg_first", "tied"))
    # upper: reached exactly by the positives tied first (also per scikit-learn)
    assert high >= best and float(best) == pytest.approx(high, rel=2e-13, abs=1e-14)
    assert average_precision_score(y, s) == pytest.approx(high, rel=1e-12)
    # lower: below the worst discrete arrangement (negatives first, positives one by one), by
    # at most the midpoint-rule error, d / (24 (c + 3/2)^2) <= 1/36 per bin (over P)
    y2, s2, _ = _original_from_bins(bins, "neg_first")
    assert average_precision_score(y2, s2) == pytest.approx(float(worst), rel=1e-12)
    big_p = sum(p for p, _ in bins)
    assert low <= worst <= low + len(bins) / (36 * big_p) + 1e-12
    if all(p <= 1 for p, _ in bins):  # one positive per bin: the lower bound is exact
        assert float(worst) == pytest.approx(low, rel=2e-13, abs=1e-14)
    assert low <= tied <= high and float(tied) == pytest.approx(r.average_precision, rel=1e-12)


def test_ap_float_lower_bound_is_approached():
    # one bin, 1 positive weight after 1 negative weight: the float lower bound is
    # integral_0^1 x / (1 + x) dx = 1 - log 2 = 0.30685...; splitting the positive into m
    # pieces after the negative gives sum_k (k/m) / (1 + k/m) / m -> 1 - log 2 (from above)
    r = BinaryRanking(np.array([1.0]), np.array([1.0]), np.array([1.0]))
    low, high = average_precision_bounds(r)
    assert low == pytest.approx(1 - math.log(2), rel=1e-12) and high == pytest.approx(1.0)
    for m, gap in ((10, 0.03), (1000, 3e-4)):
        y, s, w = _original_from_bins([(1, 1)], "neg_first", pieces=m)
        true = average_precision_score(y, s, sample_weight=w)
        assert low < true < low + gap
        rb = ranking_of(y, quantize(s, 1), w)
        assert average_precision_bounds(rb)[0] == pytest.approx(low, rel=1e-12)
    # the positive tied ahead of the negative reaches the upper bound: AP 1
    y, s, w = _original_from_bins([(1, 1)], "pos_tied_first")
    assert average_precision_score(y, s, sample_weight=w) == 1.0 == high


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=6))
def test_auc_bounds_reached(bins):
    # positives above negatives inside every bin reach the upper bound; below, the lower
    p_tot, n_tot = sum(p for p, _ in bins), sum(n for _, n in bins)
    assume(p_tot > 0 and n_tot > 0)
    y, s, _ = _original_from_bins(bins, "pos_tied_first")
    r = ranking_of(y, quantize(s, 1))
    low, high = auc_bounds(r)
    assert roc_auc_score(y, s) == pytest.approx(high, abs=1e-12)
    y2, s2, _ = _original_from_bins(bins, "neg_first")
    assert roc_auc_score(y2, s2) == pytest.approx(low, abs=1e-12)


# -- hand-worked examples ---------------------------------------------------------------------


def test_auc_hand_example():
    # bins (top first): [1 pos, 1 neg], [1 pos, 1 neg]; P = N = 2, PN = 4
    # pairs across bins: the top positive beats the bottom negative: 1  -> low = 1/4
    # pairs inside bins: 1 * 1 + 1 * 1 = 2 could go either way      -> high = 3/4
    # binned AUC counts them 1/2: (1 + 2/2) / 4 = 1/2
    r = BinaryRanking(np.array([1.0, 0.5]), np.array([1, 1]), np.array([1, 1]))
    low, high = auc_bounds(r)
    assert low == pytest.approx(0.25, rel=1e-12) and high == pytest.approx(0.75, rel=1e-12)
    assert low <= 0.25 and high >= 0.75 and r.roc_auc == 0.5
    # the same with float weights, doubled: nothing changes
    r = BinaryRanking(np.array([1.0, 0.5]), np.array([2.0, 2.0]), np.array([2.0, 2.0]))
    assert auc_bounds(r) == pytest.approx((0.25, 0.75), rel=1e-12)


def test_ap_hand_example():
    # bins (top first): bin 1 = 2 pos + 1 neg, bin 2 = 1 pos + 2 neg; P = 3
    r = BinaryRanking(np.array([1.0, 0.5]), np.array([1, 2]), np.array([2, 1]))
    low, high = average_precision_bounds(r)
    # upper: bin 1 (a=0, b=0): 2/3 * 2/2 = 2/3; bin 2 (a=2, b=3): 1/3 * 3/4 = 1/4 -> 11/12
    assert high == pytest.approx(11 / 12, rel=1e-12) and high >= 11 / 12
    # integer lower: bin 1 (a=0, c=b+n=1, f(x) = x/(1+x)): f(1) + int_{3/2}^{5/2} f
    #   = 1/2 + (1 - log(3.5/2.5)) = 1.163527...; bin 2 (a=2, c=5): f(1) = 3/6 = 1/2
    #   -> (1.163527 + 0.5) / 3 = 0.554509...; the worst arrangement gives (1/2 + 2/3 + 1/2) / 3
    expected_low = (0.5 + 1 - math.log(1.4) + 0.5) / 3
    assert low == pytest.approx(expected_low, rel=1e-12) and low <= expected_low
    assert low <= (0.5 + 2 / 3 + 0.5) / 3
    # binned AP: bin 1 precision 2/3 (x 2/3 recall), bin 2 precision 3/6 (x 1/3) -> 11/18
    assert r.average_precision == pytest.approx(11 / 18) and low <= r.average_precision <= high
    # float weights, same numbers: the continuous lower bound
    #   bin 1: 2 - (1 - 0) log1p(2/1) = 2 - log 3; bin 2: 1 - (5 - 2) log1p(1/5) = 1 - 3 log 1.2
    rf = BinaryRanking(np.array([1.0, 0.5]), np.array([1.0, 2.0]), np.array([2.0, 1.0]))
    low_f, high_f = average_precision_bounds(rf)
    assert low_f == pytest.approx((2 - math.log(3) + 1 - 3 * math.log(1.2)) / 3, rel=1e-12)
    assert high_f == pytest.approx(11 / 12, rel=1e-12) and low_f < low


def test_missing_class_gives_nan():
    no_pos = BinaryRanking(np.array([1.0, 0.5]), np.array([3, 1]), np.array([0, 0]))
    assert all(math.isnan(v) for v in (*auc_bounds(no_pos), *average_precision_bounds(no_pos)))
    no_neg = BinaryRanking(np.array([1.0, 0.5]), np.array([0.0, 0.0]), np.array([2.0, 1.5]))
    assert all(math.isnan(v) for v in auc_bounds(no_neg))
    # without negatives every precision is 1, whatever the order: AP is exactly 1
    assert average_precision_bounds(no_neg) == pytest.approx((1.0, 1.0), abs=1e-12)
    no_neg_int = BinaryRanking(np.array([1.0, 0.5]), np.array([0, 0]), np.array([3, 2]))
    assert average_precision_bounds(no_neg_int) == pytest.approx((1.0, 1.0), abs=1e-12)
    empty = BinaryRanking(np.array([]), np.array([], dtype=np.int64), np.array([], dtype=np.int64))
    assert all(math.isnan(v) for v in (*auc_bounds(empty), *average_precision_bounds(empty)))
    out = binned_bounds(no_pos)
    assert math.isnan(out.ap) and json.loads(json.dumps(out.to_dict()))["ap_low"] is None


# -- floating point ---------------------------------------------------------------------------


def test_u_minus_log1p_accuracy():
    mpmath.mp.dps = 40
    for u in (0.0, 1e-300, 1e-20, 1e-9, 1e-4, 0.1, 0.3, 0.4999, 0.5, 0.7, 3.0, 1e10, 1e300):
        got = float(_u_minus_log1p(np.array([u]))[0])
        ref = float(mpmath.mpf(u) - mpmath.log1p(mpmath.mpf(u)))
        assert got == pytest.approx(ref, rel=1e-15, abs=0), u


def _binned_auc_reference(neg, pos) -> float:
    """Binned AUC (ties 1/2) with Python integers (exact) or math.fsum (weights)."""
    neg_below = np.concatenate([np.cumsum(neg[::-1])[::-1][1:], [0]])
    if neg.dtype.kind == "i":
        area2 = sum(int(p) * (2 * int(b) + int(n)) for p, n, b in zip(pos, neg, neg_below))
        return area2 / (2 * int(pos.sum()) * int(neg.sum()))
    area2 = math.fsum(pos * (2 * neg_below + neg))
    return area2 / (2 * math.fsum(pos) * math.fsum(neg))


@given(st.integers(0, 10**6), st.booleans())
def test_bounds_with_large_counts_and_many_bins(seed, weighted):
    # huge counts (exact int64 sums, or float beyond 2^62) or weights over many bins: the
    # binned values stay inside
    rng = np.random.default_rng(seed)
    d = int(rng.integers(1, 3000))
    scale = 10 ** int(rng.integers(0, 9))
    pos = rng.integers(0, 5, d) * scale
    neg = rng.integers(0, 5, d) * scale
    if weighted:
        pos, neg = pos * rng.random(d), neg * rng.random(d)
    r = BinaryRanking(np.linspace(1, 0, d), neg, pos)
    auc_low, auc_high = auc_bounds(r)
    ap_low, ap_high = average_precision_bounds(r)
    if pos.sum() > 0 and neg.sum() > 0:
        assert _inside(auc_low, _binned_auc_reference(neg, pos), auc_high)
        if float(pos.sum()) * float(neg.sum()) < 2.0**61:  # BinaryRanking.roc_auc sums in int64
            assert _inside(auc_low, r.roc_auc, auc_high)
    if pos.sum() > 0:
        assert _inside(ap_low, r.average_precision, ap_high, AP_ULPS)


def test_auc_beyond_int64_products():
    # P * N > 2^62: summed in float, still around the binned value
    big = 3 * 10**9
    neg, pos = np.array([big, big, big]), np.array([big, big, 0])
    r = BinaryRanking(np.array([1.0, 0.5, 0.2]), neg, pos)
    low, high = auc_bounds(r)
    # pairs: top pos beats 2 bins of negatives; middle pos beats 1: low = (2 + 1) / 6 = 1/2
    # inside: 2 bins x big^2 -> width 2/6
    assert low == pytest.approx(0.5, rel=1e-12) and high == pytest.approx(5 / 6, rel=1e-12)
    assert low <= _binned_auc_reference(neg, pos) == 2 / 3 <= high


# -- the result object ------------------------------------------------------------------------


def test_binned_bounds_result():
    r = BinaryRanking(np.array([1.0, 0.5]), np.array([1, 1]), np.array([1, 1]))
    out = binned_bounds(r, bits=1)
    assert repr(out) == "BinnedBounds(bits=1, auc=0.5 in [0.25, 0.75], ap=0.5 in [0.5, 0.833333])"
    assert out.auc == 0.5 and out.auc_width == pytest.approx(0.5) and out.ap_width == pytest.approx(1 / 3)
    d = out.to_dict()
    assert d["bits"] == 1 and d["auc_low"] == out.auc_low and d["ap_width"] == out.ap_width
    assert set(d) == {"bits", "auc", "auc_low", "auc_high", "auc_width", "ap", "ap_low", "ap_high", "ap_width"}
    json.dumps(d, allow_nan=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        out.auc = 0.1  # type: ignore[misc]
    assert isinstance(out, BinnedBounds) and binned_bounds(r).bits is None


def test_binned_bounds_checks_the_grid():
    r = BinaryRanking(np.array([0.7, 0.5]), np.array([1, 1]), np.array([1, 1]))
    with pytest.raises(ValueError, match=r"0\.7 is not on the 1-bit grid.*quantize\(scores, bits=1\)"):
        binned_bounds(r, bits=1)
    assert binned_bounds(r, bits=52).bits == 52  # every float is on the 52-bit grid
    with pytest.raises(ValueError, match="bits must be from 1 to 52"):
        binned_bounds(r, bits=60)


def test_bounds_of_a_ranking_with_float32_scores_on_the_grid():
    """binned_bounds checks each score against the grid in float64, whatever the ranking's dtype."""
    from clfeval.statistics.rankings import BinaryRanking

    scores = np.array([0.75, 0.5, 0.25], dtype=np.float32)  # on every grid of >= 2 bits
    ranking = BinaryRanking(scores, np.array([0, 1, 1]), np.array([2, 1, 0]))
    got = binned_bounds(ranking, bits=4)
    assert got.auc == ranking.roc_auc and got.bits == 4
    off = BinaryRanking(np.array([0.7, 0.5], dtype=np.float32), np.array([0, 1]), np.array([1, 0]))
    with pytest.raises(ValueError, match="not on the 4-bit grid"):
        binned_bounds(off, bits=4)
