"""Binned scores with exact bounds on what binning hides.

When a stream holds too many distinct scores to keep, each score is floored onto a fixed grid
(:func:`quantize`) and the score statistics are built from the grid values. Every distinct
binned score is then one *bin*: its samples kept their order against every other bin, but their
order (and ties) inside the bin is lost. :func:`auc_bounds` and :func:`average_precision_bounds`
give lower and upper bounds that provably hold the ROC AUC and average precision of the
original, unbinned data, whatever that lost order was; :func:`binned_bounds` collects both.

The grid is the same for every chunk, so binned tables of separate chunks merge exactly.

>>> import numpy as np
>>> from clfeval.statistics.rankings import BinaryRanking
>>> from clfeval.statistics.scores import ScoreTable
>>> y = np.array([0, 1, 1, 0, 1, 0, 1])
>>> s = np.array([0.11, 0.93, 0.35, 0.32, 0.91, 0.05, 0.3])
>>> q = quantize(s, bits=1)  # grid: ..., 0.25, 0.375, 0.5, 0.75, 1, 1.5, 2, ...
>>> q.tolist()
[0.09375, 0.75, 0.25, 0.25, 0.75, 0.046875, 0.25]
>>> ranking = BinaryRanking.from_table(ScoreTable.from_labels(y, q), 1)
>>> binned_bounds(ranking, bits=1)
BinnedBounds(bits=1, auc=0.916667 in [0.833333, 1], ap=0.9 in [0.887332, 1])
>>> # the unbinned values: ROC AUC 0.916667 and AP 0.95, inside both
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.support.json_plain import nan_to_none
from clfeval.statistics.rankings import BinaryRanking

__all__ = [
    "quantize",
    "is_grid_value",
    "auc_bounds",
    "average_precision_bounds",
    "BinnedBounds",
    "binned_bounds",
    "quantize_ranking",
]

_SIGN = np.uint64(1 << 63)
_MAGNITUDE = np.uint64((1 << 63) - 1)
_MAX_FINITE = np.uint64(0x7FEFFFFFFFFFFFFF)  # bit pattern of the largest finite float64
_LOWEST = float(np.finfo(np.float64).min)  # -1.7976931348623157e308, the grid's bottom value
_EPS = float(np.finfo(np.float64).eps)
# Outward widening of every bound, relative to its value: rounding in the few operations per
# bin and in the (pairwise) sums is a few ulps, far below this. Plus a few ulps of 1 in absolute
# terms, so that the values of other floating-point computations (scikit-learn's, whose error is
# of that order near a bound that is reached) stay inside too.
_SLACK = 1e-13
_ABS_SLACK = 8 * _EPS


# -- the grid -----------------------------------------------------------------------------------


def _check_bits(bits: Any) -> int:
    if isinstance(bits, (bool, np.bool_)) or not isinstance(bits, (int, np.integer)):
        raise TypeError(f"bits must be an integer from 1 to 52, got {bits!r}.")
    if not 1 <= bits <= 52:
        raise ValueError(
            f"bits must be from 1 to 52 (mantissa bits kept; 52 keeps every float64), got {bits}."
        )
    return int(bits)


def _low_mask(bits: int) -> np.uint64:
    """The mantissa bits that ``bits`` drops: the low (52 - bits) bits."""
    return np.uint64((1 << (52 - bits)) - 1)


def quantize(scores: Any, bits: int = 16) -> np.ndarray:
    """Floor each score onto the grid of float64 values with at most ``bits`` mantissa bits.

    The grid is every finite float64 whose low ``52 - bits`` mantissa bits are zero, of either
    sign (so 0.0, +-0.5, +-1.0, +-3.0, any float with few significant bits, and every value
    ``quantize`` returns), plus the lowest float64 (-1.797e308) at the bottom, so that every
    finite score has a finite floor. Each score becomes the largest grid value ``<=`` it:
    positive scores drop their low mantissa bits, negative scores round their magnitude up.
    Consequences, for every grid value ``t``: ``x >= t`` exactly when ``quantize(x) >= t``
    (thresholds on the grid see binned data exactly), ``quantize`` is non-decreasing and
    idempotent, and ``0 <= x - quantize(x) <= |x| * 2**-bits`` (normal numbers; subnormals are
    binned with the absolute width of the smallest normal binade). ``bits=52`` is the identity.
    -0.0 becomes 0.0. NaN or infinite scores raise ValueError.

    The grid is symmetric on purpose: zeroing the low bits of the order-preserving uint64 key
    (bits | 1<<63 for positives, ~bits for negatives) also floors, but puts the negative grid
    values where the low mantissa bits are all ones, so -0.5 or -1.0 would not be on it.

    Vectorised: a few integer operations per score on its bit pattern.

    >>> quantize([0.7, -0.7, 3.0, -0.0], bits=2).tolist()
    [0.625, -0.75, 3.0, 0.0]
    """
    bits = _check_bits(bits)
    try:
        x = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"scores must be numeric: {exc}") from None
    bad = ~np.isfinite(x)
    if bad.any():
        where = tuple(int(i) for i in np.unravel_index(int(np.flatnonzero(bad)[0]), x.shape))
        position = f"scores[{where[0] if len(where) == 1 else where}]" if where else "the score"
        raise ValueError(
            f"scores must be finite to quantize; {position} is {float(x[where])}. "
            "Drop or replace NaN and infinite scores first."
        )
    out = np.array(x, dtype=np.float64)  # a copy (also of a 0-d input)
    out += 0.0  # -0.0 becomes +0.0
    if bits == 52:
        return out
    b = out.view(np.uint64)
    low = _low_mask(bits)
    # positive: drop the low bits; negative: round the magnitude up, by adding the low mask
    # first (the sign bit is untouched; a carry into the exponent gives the next binade's first
    # value, still on the grid); past the top binade's last grid value, the lowest float64
    up = b >> np.uint64(63)
    up *= low
    b += up
    b &= ~low
    np.minimum(b, _SIGN | _MAX_FINITE, out=b)
    return out


def is_grid_value(t: float, bits: int = 16) -> bool:
    """Whether ``t`` lies on the grid of :func:`quantize` with ``bits`` bits (quantize(t) == t).

    >>> is_grid_value(-0.5, 1), is_grid_value(0.75, 1), is_grid_value(0.1, 16)
    (True, True, False)
    """
    bits = _check_bits(bits)
    t = float(t)
    if not math.isfinite(t):
        return False
    return bool(_on_grid(np.array([t]), bits)[0])


def _on_grid(values: np.ndarray, bits: int) -> np.ndarray:
    """Elementwise: finite and on the ``bits`` grid."""
    values = np.asarray(values, dtype=np.float64)  # float32 scores too, read as the float64 they equal
    b = (values + 0.0).view(np.uint64)
    on = ((b & _low_mask(bits)) == 0) & ((b & _MAGNITUDE) <= _MAX_FINITE)
    return on | (values == _LOWEST)


# -- bounds -------------------------------------------------------------------------------------


def _counts(ranking: BinaryRanking) -> tuple[np.ndarray, np.ndarray, bool]:
    """(neg, pos) per bin as float64 or int64 arrays, and whether they are integer counts."""
    pos, neg = np.asarray(ranking.pos), np.asarray(ranking.negatives())
    integer = pos.dtype.kind in "biu" and neg.dtype.kind in "biu"
    dtype = np.int64 if integer else np.float64
    return neg.astype(dtype, copy=False), pos.astype(dtype, copy=False), integer


def _slack(n_bins: int, integer: bool) -> float:
    """Relative widening: _SLACK, plus the worst-case error of float running sums over the bins."""
    return _SLACK if integer else _SLACK + 4 * n_bins * _EPS


def _widen(low: float, high: float, slack: float) -> tuple[float, float]:
    return max(0.0, low * (1 - slack) - _ABS_SLACK), min(1.0, high * (1 + slack) + _ABS_SLACK)


def auc_bounds(ranking: BinaryRanking) -> tuple[float, float]:
    """Bounds on the ROC AUC of the unbinned data behind a ranking of binned scores.

    Each distinct score of ``ranking`` is one bin; its samples may have had any order, ties
    included, in the original data, while samples of different bins kept their order. A
    (positive, negative) pair from different bins is thus ordered as in the bins; a pair from
    the same bin may have counted 1, 1/2 or 0. With ``pos_b``, ``neg_b`` the counts (or
    weights) of bin b, ``P`` and ``N`` the totals::

        low  = sum_b pos_b * (negatives in bins below b) / (P N)
        high = low + sum_b pos_b * neg_b / (P N)

    and the binned AUC (ties counted 1/2, as scikit-learn does) is their midpoint. Integer
    counts are summed exactly; the bounds are then widened outward by a relative 1e-13 (with
    float weights also by 4 ulps per bin, the worst case of the running sums) and by 8 ulps of
    1, and clipped to [0, 1]. NaN bounds without positives or negatives.

    >>> r = BinaryRanking(np.array([1.0, 0.5]), np.array([1, 1]), np.array([1, 1]))
    >>> [round(v, 12) for v in auc_bounds(r)], r.roc_auc
    ([0.25, 0.75], 0.5)
    """
    neg, pos, integer = _counts(ranking)
    n_total, p_total = neg.sum(), pos.sum()
    if not (n_total > 0 and p_total > 0):
        return float("nan"), float("nan")
    neg_below = neg.sum() - np.cumsum(neg)  # negatives strictly below each bin
    if integer and float(n_total) * float(p_total) < 2.0**62:  # exact in int64
        below, inside = int(np.dot(pos, neg_below)), int(np.dot(pos, neg))
        denom = int(n_total) * int(p_total)
        low, high = below / denom, (below + inside) / denom
    else:
        if integer:  # products beyond int64: float, from the exact running sums
            neg_below, neg, pos = (v.astype(np.float64) for v in (neg_below, neg, pos))
        else:  # float weights: sum from the bottom, so empty tails are exactly 0
            neg_below = np.concatenate([np.cumsum(neg[::-1])[::-1][1:], [0.0]])
        denom = float(n_total) * float(p_total)
        below, inside = np.sum(pos * neg_below), np.sum(pos * neg)
        low, high = float(below / denom), float((below + inside) / denom)
    return _widen(low, high, _slack(pos.size, integer))


def _u_minus_log1p(u: np.ndarray) -> np.ndarray:
    """``u - log1p(u)`` for u >= 0, accurate to a few ulps also where the two nearly cancel.

    With s = u / (2 + u): log1p(u) = 2 atanh(s) = 2 s + 2 s^3 (1/3 + s^2/5 + ...) and
    u = 2 s / (1 - s), so u - log1p(u) = 2 s^2 (1 / (1 - s) - s (1/3 + s^2/5 + ...)), with no
    cancellation for u < 1/2 (s < 1/5; 13 terms reach 1e-18).

    >>> u = np.array([1e-9])  # u^2/2 - u^3/3 + ... = 4.99999999666666667e-19
    >>> float(_u_minus_log1p(u)[0]), float(u[0] - np.log1p(u[0]))
    (4.999999996666667e-19, 5.000000746056408e-19)
    """
    u = np.asarray(u, dtype=np.float64)
    small = u < 0.5
    out = u - np.log1p(u)
    s = u[small] / (2.0 + u[small])
    s2 = s * s
    series = np.zeros_like(s)
    for k in range(13, 0, -1):  # 1/3 + s2/5 + s2^2/7 + ... by Horner
        series = 1.0 / (2 * k + 1) + s2 * series
    out[small] = 2.0 * s2 * (1.0 / (1.0 - s) - s * series)
    return out


def _integral(a: np.ndarray, c: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``integral_0^p (a + x) / (c + x) dx`` for c > 0, 0 <= a <= c, p >= 0.

    It equals p - (c - a) log1p(p / c) = a log1p(p / c) + c (p / c - log1p(p / c)), a sum of two
    non-negative terms: accurate to a few ulps relative.
    """
    u = p / c
    return a * np.log1p(u) + c * _u_minus_log1p(u)


def average_precision_bounds(ranking: BinaryRanking) -> tuple[float, float]:
    """Bounds on the average precision of the unbinned data behind a ranking of binned scores.

    Average precision (scikit-learn's, step-wise) is ``sum_t (R_t - R_{t-1}) P_t`` over the
    distinct scores t, where a group of tied samples shares the precision at the group's end.
    Each distinct score of ``ranking`` is one bin whose samples may have had any order and ties
    in the original data; bins kept their order. Going down the bins, let ``a`` be the positive
    weight and ``b`` the total weight before a bin, and ``p``, ``n`` the bin's positives and
    negatives; every original group g inside the bin ends with cumulative (within the bin)
    positives ``A_g <= p`` and negatives ``B_g <= n`` and adds ``p_g / P * (a + A_g) / (b + A_g
    + B_g)``. Since b >= a, ``f(x) = (a + x) / (c + x)`` increases in x for any c >= b.

    * Upper: ``B_g >= 0`` and ``A_g <= p`` bound the precision by ``(a + p) / (b + p)``, so the
      bin adds at most ``p / P * (a + p) / (b + p)``: reached when the bin's positives were tied
      together, ahead of its negatives.
    * Lower, float weights: ``B_g <= n`` and, with c = b + n, ``p_g f(A_g) >= integral of f
      over [A_g - p_g, A_g]``; these intervals tile [0, p], so the bin adds at least
      ``(1/P) integral_0^p f = (1/P) (p - (c - a) log1p(p / c))`` (p / P when c = 0, where
      a = 0): approached by negatives first, then the positives one by one with tiny weights.
    * Lower, integer counts (unit samples; an integer weight is that many tied unit samples):
      the k-th positive of the bin ends a group with A_g >= k, so the bin adds at least
      ``(1/P) sum_{k=1..p} f(k)`` (reached: negatives first, then positives one by one). As f
      is concave, ``f(k) >=`` its mean over [k - 1/2, k + 1/2], so this is at least
      ``(1/P) (f(1) + integral_{3/2}^{p+1/2} f)``: exact when p = 1 (so a ranking with one
      sample per score gets equal bounds), and tighter than the float bound.

    The bounds are sums over bins of these terms (computed without cancellation), widened
    outward by a relative 1e-13 (with float weights also by 4 ulps per bin, the worst case of
    the running sums) and by 8 ulps of 1, and clipped to [0, 1]; the binned AP lies between
    them. NaN bounds without positives.

    >>> r = BinaryRanking(np.array([1.0]), np.array([1]), np.array([1]))  # one bin: +, -
    >>> [round(v, 12) for v in average_precision_bounds(r)]  # (+ then -), (- then +)
    [0.5, 1.0]
    >>> r = BinaryRanking(np.array([1.0]), np.array([1.0]), np.array([1.0]))  # weights
    >>> [round(v, 12) for v in average_precision_bounds(r)]  # 1 - log(2): many tiny positives
    [0.30685281944, 1.0]
    """
    neg, pos, integer = _counts(ranking)
    p_total = pos.sum()
    if not p_total > 0:
        return float("nan"), float("nan")
    # running sums before each bin (non-negative and non-decreasing also with float weights)
    zero = np.zeros(1, dtype=pos.dtype)
    before_pos = np.concatenate([zero, np.cumsum(pos)[:-1]])
    before_all = np.concatenate([zero, np.cumsum(pos + neg)[:-1]])
    has = pos > 0  # bins without positives add nothing to either bound
    p = pos[has].astype(np.float64)
    n = neg[has].astype(np.float64)
    a = before_pos[has].astype(np.float64)  # positive weight before the bin
    b = before_all[has].astype(np.float64)  # total weight before the bin
    upper = p * ((a + p) / (b + p))  # b + p > 0 where p > 0
    c = b + n
    if integer:
        # f(1) + integral_{3/2}^{p+1/2} f, i.e. the integral from 0 to p - 1 with a, c + 3/2
        lower = (a + 1.0) / (c + 1.0) + _integral(a + 1.5, c + 1.5, p - 1.0)
    else:
        lower = p.copy()  # c == 0: then a == 0 and every precision is 1
        ok = c > 0
        lower[ok] = _integral(np.minimum(a[ok], c[ok]), c[ok], p[ok])
    # min: rounding must not lift a bin's lower term above its upper one
    low = float(np.sum(np.minimum(lower, upper)) / p_total)
    high = float(np.sum(upper) / p_total)
    return _widen(low, high, _slack(pos.size, integer))


def quantize_ranking(ranking: BinaryRanking, bits: int = 16) -> BinaryRanking:
    """The ranking of the same samples with their scores floored onto the ``bits`` grid: the
    distinct scores that fall in one bin become one score holding their counts, added. O(d).

    >>> r = BinaryRanking(np.array([0.9, 0.8, 0.3]), None, np.array([True, False, True]))
    >>> q = quantize_ranking(r, bits=1)
    >>> q.scores.tolist(), q.neg.tolist(), q.pos.tolist()
    ([0.75, 0.25], [1, 0], [1, 1])
    """
    q = quantize(ranking.scores, bits)
    if q.size == 0:
        return ranking
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])  # q is non-increasing: bins are runs
    pos, neg = np.asarray(ranking.pos), ranking.negatives()
    count = np.float64 if pos.dtype.kind == "f" or neg.dtype.kind == "f" else np.int64
    return BinaryRanking(q[starts], np.add.reduceat(neg.astype(count, copy=False), starts),
                         np.add.reduceat(pos.astype(count, copy=False), starts))


# -- the result ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class BinnedBounds:
    """ROC AUC and average precision of binned scores, each with bounds on the unbinned value.

    ``auc`` and ``ap`` are computed from the binned scores; the unbinned data's values lie in
    ``[auc_low, auc_high]`` and ``[ap_low, ap_high]``. ``bits`` is the grid of :func:`quantize`
    the scores were binned with (None: unknown or another binning).

    >>> BinnedBounds(8, 0.8, 0.79, 0.81, 0.7, 0.68, 0.71).auc_width
    0.020000000000000018
    """

    bits: int | None
    auc: float
    auc_low: float
    auc_high: float
    ap: float
    ap_low: float
    ap_high: float

    @property
    def auc_width(self) -> float:
        """auc_high - auc_low: how much binning may hide of the ROC AUC."""
        return self.auc_high - self.auc_low

    @property
    def ap_width(self) -> float:
        """ap_high - ap_low: how much binning may hide of the average precision."""
        return self.ap_high - self.ap_low

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form (NaN as None, so that it is valid JSON).

        >>> BinnedBounds(None, 0.5, 0.5, 0.5, float("nan"), float("nan"), float("nan")).to_dict()["ap"]
        """
        clean = nan_to_none
        return {
            "bits": self.bits,
            "auc": clean(self.auc),
            "auc_low": clean(self.auc_low),
            "auc_high": clean(self.auc_high),
            "auc_width": clean(self.auc_width),
            "ap": clean(self.ap),
            "ap_low": clean(self.ap_low),
            "ap_high": clean(self.ap_high),
            "ap_width": clean(self.ap_width),
        }

    def __repr__(self) -> str:
        return (
            f"BinnedBounds(bits={self.bits}, auc={self.auc:.6g} in [{self.auc_low:.6g}, "
            f"{self.auc_high:.6g}], ap={self.ap:.6g} in [{self.ap_low:.6g}, {self.ap_high:.6g}])"
        )


def binned_bounds(ranking: BinaryRanking, bits: int | None = None) -> BinnedBounds:
    """Binned ROC AUC and average precision of ``ranking``, with bounds on the unbinned values.

    ``bits``: the :func:`quantize` grid the scores were binned with; checked (every score must
    lie on it) and recorded. None skips the check (any other monotone binning).

    >>> r = BinaryRanking(np.array([1.0, 0.5]), np.array([1, 1]), np.array([1, 1]))
    >>> binned_bounds(r, bits=1)
    BinnedBounds(bits=1, auc=0.5 in [0.25, 0.75], ap=0.5 in [0.5, 0.833333])
    """
    if bits is not None:
        bits = _check_bits(bits)
        off = ~_on_grid(ranking.scores, bits)
        if off.any():
            i = int(np.flatnonzero(off)[0])
            raise ValueError(
                f"the ranking's score {float(ranking.scores[i])!r} is not on the {bits}-bit grid; bin "
                f"the scores with quantize(scores, bits={bits}) before building the ranking."
            )
    auc_low, auc_high = auc_bounds(ranking)
    ap_low, ap_high = average_precision_bounds(ranking)
    return BinnedBounds(
        bits, ranking.roc_auc, auc_low, auc_high, ranking.average_precision, ap_low, ap_high
    )
