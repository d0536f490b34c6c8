"""Exact sums and correctly rounded ratios for counts at the ends of the number range.

The common case never comes here: unweighted counts and integer weights whose sums stay below
2**53 are summed by ``np.bincount`` in float64 (exact there) and stored as int64; float weights
of ordinary size are summed in float64 as scikit-learn does. This module takes over where that
would give a wrong number:

* integer weights whose cell sums reach 2**53 are summed exactly in integers
  (:func:`integer_bincount`); a sum beyond int64 is kept as a Python int in an object array,
  never wrapped;
* float weights whose cells overflow, or are so large or small that the formulas' products
  would overflow or underflow, are summed exactly in integer units of 2**-1074 (every float64 is
  a whole multiple of it) by :func:`float_bincount_exact`; every measure is scale-free, so the
  formulas read those integers directly;
* the formulas' ratios of such integers are correctly rounded (:func:`exact_ratio`), and so are
  the Matthews correlation and Cohen's kappa of an integer table (:func:`exact_mcc`,
  :func:`exact_kappa`);
* ranking metrics rescale weights by powers of two (exact) so that sums neither overflow nor
  underflow (:func:`ranking_weight_scale`).

>>> integer_bincount(np.array([0, 0, 1]), np.array([2**62, 2**62, 1]), 2).tolist()
[9223372036854775808, 1]
>>> exact_ratio(np.array([2**53 + 1], dtype=object), np.array([2**54 + 2], dtype=object)).tolist()
[0.5]
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from clfeval.support.number_text import FLOAT_EXACT_INT

__all__ = [
    "FLOAT_EXACT_INT",
    "UNIT_EXPONENT",
    "integer_bincount",
    "float_bincount_exact",
    "float_table_needs_exact",
    "is_big",
    "exact_div",
    "exact_ratio",
    "exact_mcc",
    "exact_mcc_of_margins",
    "exact_kappa",
    "exact_plain_kappa_of_margins",
    "scaled_floats",
    "to_float",
    "in_units",
    "add_counts",
    "normalized_float_table",
    "weight_total",
    "ranking_weight_scale",
    "class_total_overflows",
    "overflow_scaled_weights",
    "exact_average_precision",
    "exact_cumulative",
    "exact_roc_points",
    "exact_pr_points",
    "sums_overflow",
    "rescale_classes",
]

_INT64_MAX = (1 << 63) - 1
#: exact float-weight tables count in units of 2**UNIT_EXPONENT (the smallest subnormal)
UNIT_EXPONENT = -1074
# Float weight tables whose non-zero cells lie in [2**-_SAFE_BITS, 2**_SAFE_BITS] are read by the
# float formulas: their products (up to the fourth power, in the Matthews correlation) stay normal.
_SAFE_BITS = 240
# Limbs of integer weights summed by np.bincount: sums of _LIMB_ROWS values below 2**_LIMB_BITS
# stay below 2**53, where float64 is exact.
_LIMB_BITS = 26
_LIMB_ROWS = 1 << 27


def _to_table(total: np.ndarray) -> np.ndarray:
    """int64 when the values and their sum fit (so that margins and totals of the table cannot
    wrap), else the object array of Python ints itself."""
    if total.size == 0 or sum(total.ravel().tolist()) <= _INT64_MAX:
        return total.astype(np.int64)
    return total


def integer_bincount(
    idx: np.ndarray, weights: np.ndarray, size: int, float_sums: np.ndarray | None = None
) -> np.ndarray:
    """Exact ``np.bincount(idx, weights, minlength=size)`` for non-negative integer weights.

    ``float_sums``: the float64 bincount if the caller has it already. When its largest cell is
    below 2**53 every partial sum was exact, so it is returned as int64 (no further pass);
    otherwise the weights are split into 26-bit limbs, each summed exactly, and recombined in
    Python integers. The result is int64, or an object array of Python ints where a sum exceeds
    int64 (never wrapped).

    >>> integer_bincount(np.array([0, 0]), np.array([2**53 + 1, 1]), 1).tolist()
    [9007199254740994]
    """
    if float_sums is None:
        float_sums = np.bincount(idx, weights=weights, minlength=size)
    if float_sums.size == 0 or (float_sums.max() < FLOAT_EXACT_INT and float_sums.sum() < 2.0**62):
        return np.rint(float_sums).astype(np.int64)
    w = weights.astype(np.uint64, copy=False)  # non-negative: the bit pattern is the value
    total = np.zeros(size, dtype=object)
    mask = np.uint64((1 << _LIMB_BITS) - 1)
    for start in range(0, idx.shape[0], _LIMB_ROWS):
        rows = slice(start, start + _LIMB_ROWS)
        part_idx, part_w = idx[rows], w[rows]
        for i in range(3):  # 3 * 26 bits >= 64
            limb = (part_w >> np.uint64(_LIMB_BITS * i)) & mask
            if not limb.any():
                continue
            sums = np.bincount(part_idx, weights=limb, minlength=size).astype(np.int64)
            total += sums.astype(object) * (1 << (_LIMB_BITS * i))
    return _to_table(total)


def float_bincount_exact(idx: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """Exact sums of non-negative finite float64 weights per bin, as Python ints counting units
    of 2**-1074 (object array).

    Each weight is ``mantissa * 2**shift`` units; weights are grouped by (bin, shift) and their
    mantissas (split in two 26/27-bit limbs) summed exactly by ``np.bincount``, then shifted and
    added in Python integers.

    >>> t = float_bincount_exact(np.array([0, 0, 1]), np.array([1e308, 1e308, 5e-324]), 2)
    >>> to_float(t, UNIT_EXPONENT).tolist()
    [inf, 5e-324]
    >>> t[0] == 2 * int(1e308) * 2**1074
    True
    """
    w = np.ascontiguousarray(weights, dtype=np.float64)
    bits = w.view(np.uint64)
    expo = (bits >> np.uint64(52)).astype(np.intp)
    mant = bits & np.uint64((1 << 52) - 1)
    mant |= np.where(expo > 0, np.uint64(1 << 52), np.uint64(0))
    shift = np.maximum(expo - 1, 0)  # weight = mant * 2**shift units of 2**-1074
    present = np.flatnonzero(np.bincount(shift, minlength=1))
    remap = np.zeros(int(present[-1]) + 1 if present.size else 1, dtype=np.intp)
    remap[present] = np.arange(present.size)
    s = max(present.size, 1)
    key = np.asarray(idx, dtype=np.intp) * s + remap[shift]
    keys, inverse = np.unique(key, return_inverse=True)
    lo = (mant & np.uint64((1 << 26) - 1)).astype(np.float64)
    hi = (mant >> np.uint64(26)).astype(np.float64)
    lo_sum = np.zeros(keys.size, dtype=object)
    hi_sum = np.zeros(keys.size, dtype=object)
    for start in range(0, w.size, 1 << 26):  # sums of < 2**26 values below 2**27 stay exact
        rows = slice(start, start + (1 << 26))
        lo_sum += np.bincount(inverse[rows], weights=lo[rows], minlength=keys.size).astype(np.int64).astype(object)
        hi_sum += np.bincount(inverse[rows], weights=hi[rows], minlength=keys.size).astype(np.int64).astype(object)
    total = np.zeros(size, dtype=object)
    shifts = present[keys % s].tolist()
    for cell, h, l, sh in zip((keys // s).tolist(), hi_sum.tolist(), lo_sum.tolist(), shifts):
        total[cell] += ((h << 26) + l) << sh
    return total


def float_table_needs_exact(table: np.ndarray) -> bool:
    """Whether a float64 table of weight sums is unsafe for the float formulas: a cell overflowed,
    or a non-zero cell lies outside [2**-240, 2**240] (products would overflow or underflow).

    >>> float_table_needs_exact(np.array([1.0, 0.0, 1e30])), float_table_needs_exact(np.array([1e308, 1e308]))
    (False, True)
    """
    if table.size == 0:
        return False
    top = table.max()
    if not np.isfinite(top) or top > 2.0**_SAFE_BITS:
        return True
    nonzero = table[table != 0]
    return bool(nonzero.size and nonzero.min() < 2.0**-_SAFE_BITS)


def is_big(*arrays: Any, limit: int = FLOAT_EXACT_INT) -> bool:
    """Whether integer count arrays need exact arithmetic: object (Python int) arrays, or
    integers of ``limit`` (2**53: float64 would round them) and more.

    >>> is_big(np.array([1, 2])), is_big(np.array([2**53])), is_big(np.array([1.5]))
    (False, True, False)
    """
    for a in arrays:
        a = np.asarray(a)
        if a.dtype.kind == "O":
            return True
        if a.dtype.kind in "iu" and a.size and (a.max() >= limit or a.min() <= -limit):
            return True
    return False


def _exact(v: Any) -> int | Fraction:
    """A count as an exact Python number (ints stay ints; floats become exact fractions)."""
    if isinstance(v, (int, Fraction)):
        return v
    if isinstance(v, (np.integer, bool, np.bool_)):
        return int(v)
    return Fraction(float(v))


def exact_div(a: Any, b: Any) -> float:
    """a / b correctly rounded to float64 for exact numbers; NaN for 0/0 and x/0, +-inf beyond range.

    >>> exact_div(2**80 + 1, 2**80), exact_div(1, 0), exact_div(2**2000, 1)
    (1.0, nan, inf)
    """
    a, b = _exact(a), _exact(b)
    if b == 0:
        return float("nan")
    try:
        return a / b if isinstance(a, int) and isinstance(b, int) else float(Fraction(a) / b)
    except OverflowError:
        return float("inf") if (a > 0) == (b > 0) else float("-inf")


def exact_ratio(num: Any, den: Any) -> np.ndarray:
    """Element-wise correctly rounded ``num / den`` (float64, NaN where den == 0), for integer,
    object or fraction arrays.

    >>> exact_ratio(np.array([1, 3]), np.array([0, 2**60])).tolist()
    [nan, 2.6020852139652106e-18]
    """
    n, d = np.broadcast_arrays(np.asarray(num, dtype=object), np.asarray(den, dtype=object))
    out = np.fromiter((exact_div(a, b) for a, b in zip(n.ravel(), d.ravel())), dtype=np.float64, count=n.size)
    return out.reshape(n.shape)


def _ints(cm: np.ndarray) -> np.ndarray:
    """A count table as an object array of exact Python numbers."""
    cm = np.asarray(cm)
    if cm.dtype.kind == "O":
        return cm
    return np.array([_exact(v) for v in cm.ravel().tolist()], dtype=object).reshape(cm.shape)


def _sqrt_ratio(num: Any, den: Any) -> float:
    """sqrt(num / den) correctly rounded, for exact num >= 0, den > 0."""
    q = Fraction(num) / Fraction(den)
    if q == 0:
        return 0.0
    # scale so that the integer square root has at least 64 significant bits, then round once
    e = max(0, 130 - (q.numerator.bit_length() - q.denominator.bit_length()))
    e += e % 2
    scaled = (q.numerator << e) // q.denominator
    root = math.isqrt(scaled)
    if root * root != scaled or (q.numerator << e) % q.denominator:
        root = 2 * root + 1  # a sticky bit: the root is not exact
        e += 2
    return exact_div(root, 1 << (e // 2))


def exact_mcc(cm: np.ndarray) -> float:
    """Matthews correlation of one (k, k) table of exact counts, correctly rounded (0 where
    undefined, as scikit-learn).

    >>> exact_mcc(np.array([[1, 1], [0, 2]], dtype=object))
    0.5773502691896257
    """
    t = _ints(cm)
    return exact_mcc_of_margins(sum(np.diagonal(t).tolist()), t.sum(axis=1).tolist(), t.sum(axis=0).tolist())


def exact_mcc_of_margins(correct: Any, rows: list[Any], cols: list[Any]) -> float:
    """Matthews correlation from the trace and the row / column sums of exact counts (Python
    numbers), correctly rounded; 0 where undefined. Serves tables too large to hold densely.

    >>> exact_mcc_of_margins(3, [2, 2], [1, 3])
    0.5773502691896257
    """
    correct = _exact(correct)
    t_sum, p_sum = [_exact(v) for v in rows], [_exact(v) for v in cols]
    n = sum(p_sum)
    cov_tp = correct * n - sum(a * b for a, b in zip(t_sum, p_sum))
    cov_pp = n * n - sum(b * b for b in p_sum)
    cov_tt = n * n - sum(a * a for a in t_sum)
    den = cov_pp * cov_tt
    if den == 0:
        return 0.0
    value = _sqrt_ratio(cov_tp * cov_tp, den)
    return -value if cov_tp < 0 else value


def exact_plain_kappa_of_margins(correct: Any, rows: list[Any], cols: list[Any]) -> float:
    """Cohen's kappa (no weights) from the trace and the margins of exact counts, correctly
    rounded; NaN where undefined: (n * trace - sum(row * col)) / (n**2 - sum(row * col)).

    >>> exact_plain_kappa_of_margins(35, [25, 25], [30, 20])
    0.4
    """
    rows_, cols_ = [_exact(v) for v in rows], [_exact(v) for v in cols]
    n = sum(rows_)
    chance = sum(a * b for a, b in zip(rows_, cols_))
    if n * n - chance == 0:
        return float("nan")
    return exact_div(n * _exact(correct) - chance, n * n - chance)


def exact_kappa(cm: np.ndarray, weights: str | None = None) -> float:
    """Cohen's kappa of one (k, k) table of exact counts, correctly rounded (NaN where undefined).

    >>> exact_kappa(np.array([[20, 5], [10, 15]], dtype=object))
    0.4
    """
    t = _ints(cm)
    k = t.shape[0]
    row, col = t.sum(axis=1).tolist(), t.sum(axis=0).tolist()
    total = sum(row)
    if weights is None:
        w = [[0 if i == j else 1 for j in range(k)] for i in range(k)]
    elif weights == "linear":
        w = [[abs(i - j) for j in range(k)] for i in range(k)]
    else:
        w = [[(i - j) ** 2 for j in range(k)] for i in range(k)]
    w = np.array(w, dtype=object)
    observed = (w * t).sum()
    chance = (w * np.multiply.outer(np.array(col, dtype=object), np.array(row, dtype=object))).sum()  # x total
    if chance == 0:
        return float("nan")
    return exact_div(chance - observed * total, chance)


def in_units(values: np.ndarray) -> np.ndarray:
    """Counts or float weights as exact Python ints in units of 2**UNIT_EXPONENT (every float64
    is a whole multiple of it), an object array of the same shape.

    >>> in_units(np.array([1.0, 2**-1074])).tolist() == [2**1074, 1]
    True
    """
    scale = 1 << -UNIT_EXPONENT
    flat = [int(v) * scale if isinstance(v, (int, np.integer)) else int(Fraction(float(v)) * scale)
            for v in np.asarray(values).ravel().tolist()]
    return np.array(flat, dtype=object).reshape(np.shape(values))


def to_float(values: np.ndarray, unit_exponent: int = 0) -> np.ndarray:
    """Exact counts (in units of 2**unit_exponent) as correctly rounded float64 (inf beyond range).

    >>> to_float(np.array([3, 2**1100], dtype=object), -1).tolist()
    [1.5, inf]
    """
    unit = Fraction(2) ** unit_exponent
    flat = [exact_div(_exact(v) * unit, 1) for v in np.asarray(values, dtype=object).ravel().tolist()]
    return np.array(flat, dtype=np.float64).reshape(np.shape(values))


def scaled_floats(values: np.ndarray) -> np.ndarray:
    """Exact non-negative counts as float64 after dividing all by one power of two, so that the
    largest is about 1 (for weights of an average, which only their proportions matter to).

    >>> scaled_floats(np.array([2**2000, 2**1999], dtype=object)).tolist()
    [0.5, 0.25]
    """
    flat = [_exact(v) for v in np.asarray(values, dtype=object).ravel().tolist()]
    top = max(flat, default=0)
    if top == 0:
        return np.zeros(np.shape(values))
    if isinstance(top, Fraction):
        shift = top.numerator.bit_length() - top.denominator.bit_length() + 1
    else:
        shift = int(top).bit_length()
    unit = Fraction(2) ** -shift
    return np.array([exact_div(v * unit, 1) for v in flat], dtype=np.float64).reshape(np.shape(values))


def weight_total(weights: np.ndarray) -> int | float:
    """Sum of sample weights: exact (a Python int) for integer weights, however large.

    >>> weight_total(np.array([2**62] * 5))
    23058430092136939520
    """
    if weights.dtype.kind in "biu":
        if weights.size == 0:
            return 0
        if int(weights.max()) * weights.size <= _INT64_MAX:
            return int(weights.sum())
        return int(integer_bincount(np.zeros(weights.size, dtype=np.intp), weights, 1)[0])
    with np.errstate(over="ignore"):  # past the float range: inf
        return float(weights.sum())


def normalized_float_table(table: np.ndarray) -> np.ndarray:
    """A float64 weight table divided by the power of two nearest its largest cell (exact, but
    for cells below 2**-1074 of it), so that the products of scale-free formulas (Matthews
    correlation, kappa) neither underflow nor overflow. Other tables are returned as they are.

    >>> normalized_float_table(np.array([[1e-320, 0.0], [0.0, 3e-320]])).tolist()
    [[0.2470703125, 0.0], [0.0, 0.7412109375]]
    """
    if table.dtype.kind != "f" or table.size == 0:
        return table
    top = float(np.max(table))
    if not (np.isfinite(top) and top > 0) or 2.0**-200 <= top <= 2.0**200:
        return table
    return np.ldexp(table, -int(np.frexp(top)[1]))


def add_counts(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a + b for count tables, exact: int64 sums that would leave int64 become Python ints.

    >>> add_counts(np.array([2**62]), np.array([2**62])).tolist()
    [9223372036854775808]
    """
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "iu" and b.dtype.kind in "iu":
        if not (a.size and b.size) or (int(a.max()) + int(b.max())) * max(a.size, b.size) <= _INT64_MAX:
            return a + b
        return _to_table(a.astype(object) + b.astype(object))
    with np.errstate(over="ignore"):  # float64 sums past the range are inf, as the user sees them
        if a.dtype.kind == "O" or b.dtype.kind == "O":
            if a.dtype.kind == "f" or b.dtype.kind == "f":
                return np.asarray(a, dtype=np.float64) + np.asarray(b, dtype=np.float64)
            return _to_table(a.astype(object) + b.astype(object))
        return a + b


def ranking_weight_scale(weights: np.ndarray | None, groups: np.ndarray | None = None) -> np.ndarray | None:
    """Float weights rescaled by powers of two so that ranking sums neither overflow nor vanish.

    Returned unchanged (the same object, after one ``max``) in the common case: the largest
    weight between 2**-240 and 2**500 / n (2**1020 / n without groups). Otherwise the largest
    weight becomes about 2**-bits(n) (exact for scaling up; scaling down only rounds weights far
    too small to matter). With ``groups`` (a boolean array: the positive class) each class is
    scaled on its own, which ROC rates and areas allow (they depend on each class's proportions
    only); without, one scale serves all (precision mixes the classes). Tiny classes next to
    ordinary ones are rescaled later, on the score table (see :func:`clfeval.formulas.curves.roc_auc`).

    >>> w = ranking_weight_scale(np.array([1e-320, 1e-320, 1e-320]))
    >>> w.tolist()
    [0.494140625, 0.494140625, 0.494140625]
    >>> ranking_weight_scale(np.array([1e308, 1.0]), np.array([True, False])).tolist()
    [0.2781342323134002, 1.0]
    """
    if weights is None or weights.dtype.kind != "f" or weights.size == 0:
        return weights
    n_bits = int(weights.size).bit_length()
    # per class, the areas multiply two classes' sums (each must stay below 2**511); with one
    # scale for all, only the sums themselves must not overflow (and less scaling loses less)
    ceiling = 2.0**500 if groups is not None else 2.0**1020

    def fine(peak: float) -> bool:
        return peak == 0 or (peak >= 2.0**-_SAFE_BITS and peak * 2.0**n_bits < ceiling)

    if fine(float(weights.max())):
        return weights
    out = np.array(weights, dtype=np.float64)
    parts = [np.ones(out.size, dtype=bool)] if groups is None else [groups, ~groups]
    for mask in parts:
        if not mask.any():
            continue
        peak = float(out[mask].max())
        if fine(peak):
            continue
        shift = -int(np.frexp(peak)[1]) - n_bits + 1  # peak to [2**-n_bits, 2**(1 - n_bits))
        out[mask] = np.ldexp(out[mask], shift)
    return out


def class_total_overflows(weights: np.ndarray | None, is_pos: np.ndarray) -> bool:
    """Whether a class's total float weight passes the float64 range (one ``max`` in the common
    case).

    >>> class_total_overflows(np.array([1e308, 1e308, 1.0]), np.array([False, False, True]))
    True
    """
    if weights is None or weights.dtype.kind != "f" or weights.size == 0:
        return False
    if float(weights.max()) * weights.size < 1e308:
        return False
    with np.errstate(over="ignore"):
        return not all(np.isfinite(weights[m].sum()) for m in (is_pos, ~is_pos))


def overflow_scaled_weights(weights: np.ndarray | None, groups: np.ndarray | None = None) -> np.ndarray | None:
    """Weights for curves (rates and precisions: ratios of sums, exact enough however small):
    scaled down by 2**-bits(n), just enough, only where a total passes the float range - each
    class on its own with ``groups`` (ROC and DET rates read each class alone), else all at
    once (precision mixes them). Unchanged (the same object) otherwise.

    >>> overflow_scaled_weights(np.array([1e308, 1e308, 1e-300]), np.array([False, False, True])).tolist()
    [2.5e+307, 2.5e+307, 1e-300]
    """
    if weights is None or weights.dtype.kind != "f" or weights.size == 0:
        return weights
    n = weights.size
    if float(weights.max()) * n < 1e308:
        return weights
    shift = -int(n).bit_length()
    parts = [np.ones(n, dtype=bool)] if groups is None else [groups, ~groups]
    out = weights
    with np.errstate(over="ignore"):
        for mask in parts:
            if np.isfinite(weights[mask].sum()):
                continue
            if out is weights:
                out = np.array(weights, dtype=np.float64)
            out[mask] = np.ldexp(out[mask], shift)
    return out


def exact_cumulative(
    is_pos: np.ndarray, scores: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Exact per-score sums of float weights (Python ints in units of 2**-1074): the distinct
    scores of positive weight (decreasing), the positives' and negatives' sums there, and their
    running sums (tps, fps). For weights whose sums pass the float range.

    >>> s, pos, neg, tps, fps = exact_cumulative(np.array([True, False]), np.array([.2, .1]), np.array([1.0, 0.5]))
    >>> s.tolist(), [int(t) >> 1073 for t in tps], [int(f) >> 1073 for f in fps]
    ([0.2, 0.1], [2, 2], [0, 1])
    """
    keep = weights != 0
    is_pos, scores, weights = is_pos[keep], scores[keep], weights[keep]
    if scores.size == 0:
        empty = np.zeros(0, dtype=object)
        return np.zeros(0), empty, empty, empty, empty
    order = np.argsort(-scores, kind="stable")
    s = scores[order]
    new = np.empty(s.size, dtype=bool)
    new[:1] = True
    np.not_equal(s[1:], s[:-1], out=new[1:])
    group = np.cumsum(new) - 1
    d = int(group[-1]) + 1
    positive = is_pos[order]
    w = weights[order]
    pos = float_bincount_exact(group[positive], w[positive], d)
    neg = float_bincount_exact(group[~positive], w[~positive], d)
    return s[new] + 0.0, pos, neg, np.cumsum(pos), np.cumsum(neg)


def sums_overflow(weights: np.ndarray | None, is_pos: np.ndarray) -> bool:
    """Whether a class's total weight, or the total of both, passes the float64 range.

    >>> sums_overflow(np.array([1e308, 1e308]), np.array([True, False]))
    True
    """
    if class_total_overflows(weights, is_pos):
        return True
    if weights is None or weights.dtype.kind != "f" or float(weights.max()) * weights.size < 1e308:
        return False
    with np.errstate(over="ignore"):
        return not np.isfinite(weights.sum())


def exact_roc_points(
    is_pos: np.ndarray, scores: np.ndarray, weights: np.ndarray, drop_intermediate: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROC curve (fpr, tpr, thresholds) from exact sums (:func:`exact_cumulative`), each rate
    correctly rounded; the points :func:`clfeval.formulas.curves.roc_points` gives.

    >>> fpr, tpr, thr = exact_roc_points(np.array([False, True]), np.array([.1, .2]), np.array([1e308, 1e308]))
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 1.0], [0.0, 1.0, 1.0], [inf, 0.2, 0.1])
    """
    thr, pos, neg, tps, fps = exact_cumulative(is_pos, scores, weights)
    d = thr.size
    idx = np.arange(d)
    if drop_intermediate and d > 2:  # corners: the per-score counts change (exact)
        keep = np.ones(d, dtype=bool)
        keep[1:-1] = (pos[1:-1] != pos[2:]) | (neg[1:-1] != neg[2:])
        idx = np.flatnonzero(keep)
    p_total, n_total = (tps[-1], fps[-1]) if d else (0, 0)
    fpr = np.concatenate([[0.0], exact_ratio(fps[idx], np.array(n_total, dtype=object))])
    tpr = np.concatenate([[0.0], exact_ratio(tps[idx], np.array(p_total, dtype=object))])
    for rate in (fpr, tpr):
        if np.isnan(rate[-1]):
            rate[0] = np.nan
    return fpr, tpr, np.concatenate([[np.inf], thr[idx]])


def exact_pr_points(
    is_pos: np.ndarray, scores: np.ndarray, weights: np.ndarray, drop_intermediate: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision-recall curve in scikit-learn's order (thresholds increasing, then the point
    (1, 0)) from exact sums (:func:`exact_cumulative`), each value correctly rounded.

    >>> p, r, t = exact_pr_points(np.array([False, True]), np.array([.1, .2]), np.array([1e308, 1e308]))
    >>> p.tolist(), r.tolist(), t.tolist()
    ([0.5, 1.0, 1.0], [1.0, 1.0, 0.0], [0.1, 0.2])
    """
    thr, _, _, tps, fps = exact_cumulative(is_pos, scores, weights)
    if drop_intermediate and tps.size > 2:
        keep = np.ones(tps.size, dtype=bool)
        change = tps[1:] != tps[:-1]
        keep[1:-1] = change[:-1] | change[1:]
        thr, tps, fps = thr[keep], tps[keep], fps[keep]
    predicted = tps + fps
    precision = np.nan_to_num(exact_ratio(tps, predicted), nan=0.0)
    p_total = tps[-1] if tps.size else 0
    recall = exact_ratio(tps, np.array(p_total, dtype=object)) if p_total else np.ones(tps.size)
    return (np.concatenate([precision[::-1], [1.0]]), np.concatenate([recall[::-1], [0.0]]),
            thr[::-1].copy())


def exact_average_precision(is_pos: np.ndarray, scores: np.ndarray, weights: np.ndarray) -> float:
    """Average precision from exact sums of float weights (:func:`exact_cumulative`): for
    weights whose sums pass the float range, where no single float scale keeps both the largest
    sums and the smallest weights. Each precision and recall step is correctly rounded; their
    products are summed in float64. 0 without positive weight.

    >>> exact_average_precision(np.array([False, False, False, True]), np.array([0., 0., .1, .1]),
    ...                         np.array([1e308, 1e308, 5e-324, 5e-324]))
    0.5
    """
    _, pos, _, tps, fps = exact_cumulative(is_pos, scores, weights)
    if not pos.size or tps[-1] == 0:
        return 0.0
    steps = np.flatnonzero(pos != 0)
    precision = exact_ratio(tps[steps], tps[steps] + fps[steps])
    recall_steps = exact_ratio(pos[steps], np.array(tps[-1], dtype=object))
    return float(np.dot(precision, recall_steps))


def rescale_classes(neg: np.ndarray, pos: np.ndarray, n_total: float, p_total: float
                    ) -> tuple[np.ndarray, np.ndarray, float, float] | None:
    """Per-score float weights of two classes whose totals multiply to less than 2**-16 or more
    than 2**1000, each scaled by a power of two (exact) to a total in [0.5, 1), so that the area's
    products neither underflow (losing more than 2**-1006 of the area) nor overflow; None if
    they need not be.

    >>> neg, pos, n, p = rescale_classes(np.array([5e-324]), np.array([1.0]), 5e-324, 1.0)
    >>> neg.tolist(), n
    ([0.5], 0.5)
    """
    if n_total <= 0 or p_total <= 0:
        return None
    with np.errstate(over="ignore", under="ignore"):
        product = n_total * p_total
    if 2.0**-16 <= product <= 2.0**1000:
        return None
    out = []
    for col, total in ((neg, n_total), (pos, p_total)):
        shift = -int(np.frexp(total)[1])
        out.append((np.ldexp(np.asarray(col, dtype=np.float64), shift), float(np.ldexp(total, shift))))
    return out[0][0], out[1][0], out[0][1], out[1][1]
