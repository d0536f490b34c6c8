"""DeLong-type placement values of a partial ROC area, from per-score counts (highest score first).

The partial area over FPR in [a, b] is A = ∫_a^b TPR(f) df. It is a functional of the two
empirical score distributions, and its first-order (influence-function) expansion gives one
component per case, as DeLong's placements do for the whole area (DeLong, DeLong & Clarke-Pearson
1988):

* a positive at score y: ``V10(y) = ∫_a^b c_y(f) df``, with ``c_y(f)`` the positive's share of the
  TPR at FPR f: 0 before the FPR span of its tie block, a linear ramp across the span (tied
  negatives), 1 after. The positives' mean of V10 is exactly A (the polyline's area, ties
  included);
* a negative at score x: ``V01(x) = (1/m) Σ_i [w(y_i) 1(y_i > x) + t(y_i) 1(y_i = x)]``, with
  ``w(y_i)`` the share of positive i's FPR span inside [a, b] (a span of width 0 on an inner
  boundary counts one half, the mean of the two one-sided derivatives, so that the components of
  adjacent ranges add up) and, for a tie, ``t = h(u_b) - h(u_a)``, ``h(u) = u - u²/2``, ``u_a``,
  ``u_b`` the ramp's value at a and b (½ for a span inside the range, DeLong's half). This is the
  derivative of A with respect to each negative's weight: a negative moves the FPR positions of
  the blocks below it, and only the positives whose position lies in [a, b] change A.

These are the exact gradients of the polyline's area with respect to the cell counts (the
infinitesimal jackknife), ties and ranges that cut a tie block included; the variance below is
DeLong's form of them.

Var(A) = s²(V10) / m + s²(V01) / n (sample variances, m - 1 and n - 1). Over [0, 1] both reduce
to DeLong's placements. A range of TPR is the mirror image: the negatives as positives, scores
negated, FPR range (1 - b, 1 - a).

>>> area, v_pos, v_neg = partial_placement_values(np.array([0, 1, 1]), np.array([1, 1, 0]), 0.0, 1.0)
>>> float(area), v_pos.tolist(), v_neg.tolist()  # DeLong's placements over [0, 1]
(0.875, [1.0, 0.75, 0.25], [0.25, 0.75, 1.0])
"""

from __future__ import annotations

import bisect

import numpy as np

__all__ = ["partial_area_and_variance", "partial_area_variance", "partial_placement_values"]


def _fpr_spans(neg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(FPR where each score's block starts, where it ends): the polyline's segment per score."""
    n = neg.sum()
    end = np.cumsum(neg) / n
    return np.concatenate(([0.0], end[:-1])), end


def _ramp_integral(f: float, start: np.ndarray, width: np.ndarray) -> np.ndarray:
    """∫_0^f of the ramp that is 0 before ``start``, rises linearly to 1 over ``width``, 1 after."""
    with np.errstate(invalid="ignore", divide="ignore"):
        inside = np.where(width > 0, (f - start) ** 2 / (2 * np.where(width > 0, width, 1.0)), 0.0)
    after = width / 2 + (f - start - width)
    return np.where(f >= start + width, after, np.where(f > start, inside, 0.0))


def _tie_share(f: float, start: np.ndarray, width: np.ndarray) -> np.ndarray:
    """h(u) = u - u²/2 of the ramp's value u at ``f`` (spans of width > 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        u = np.clip((f - start) / np.where(width > 0, width, 1.0), 0.0, 1.0)
    return u - u * u / 2


def _share_inside(start: np.ndarray, width: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """The share of each block's FPR span [start, start + width] inside [lo, hi]; a point span
    counts 1 inside, 1/2 on a boundary inside (0, 1), 1 on the boundary 0 or 1."""
    end = start + width
    overlap = np.clip(np.minimum(end, hi) - np.maximum(start, lo), 0.0, None)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = overlap / np.where(width > 0, width, 1.0)
    edge_lo, edge_hi = (1.0 if lo == 0.0 else 0.5), (1.0 if hi == 1.0 else 0.5)
    point = np.where((start > lo) & (start < hi), 1.0,
                     np.where(start == lo, edge_lo, np.where(start == hi, edge_hi, 0.0)))
    return np.where(width > 0, share, point)


def partial_placement_values(neg: np.ndarray, pos: np.ndarray, lo: float, hi: float, axis: str = "fpr"
                             ) -> tuple[float, np.ndarray, np.ndarray]:
    """(raw partial area, component of a positive at each score, component of a negative at each
    score) of 1-D per-score counts, highest score first; ``axis="tpr"``: the area over TPR in
    [lo, hi] (specificity integrated over sensitivity), by the mirror image. NaN without a case of
    each class.

    >>> neg, pos = np.array([0, 1, 1]), np.array([1, 0, 1])  # scores 0.9, 0.8, 0.4 (a tie at 0.4)
    >>> a, v10, v01 = partial_placement_values(neg, pos, 0.0, 0.75)
    >>> float(a), v10[pos > 0].tolist()  # the tied positive's ramp spans FPR 0.5 to 1
    (0.40625, [0.75, 0.0625])
    """
    neg, pos = np.asarray(neg, dtype=np.float64), np.asarray(pos, dtype=np.float64)
    if axis == "tpr":
        area, v_neg, v_pos = partial_placement_values(pos[::-1], neg[::-1], 1.0 - hi, 1.0 - lo)
        return area, v_pos[::-1], v_neg[::-1]
    if axis != "fpr":
        raise ValueError(f"axis must be 'fpr' or 'tpr', got {axis!r}.")
    m, n = pos.sum(), neg.sum()
    if not (m > 0 and n > 0):
        nan = np.full(pos.shape, np.nan)
        return float("nan"), nan, nan
    start, end = _fpr_spans(neg)
    # spans are in order: those ending before lo count the whole range for their positives and
    # none of their share; those starting after hi neither; only the ones between need the ramps
    i, j = int(np.searchsorted(end, lo, side="left")), int(np.searchsorted(start, hi, side="right"))
    start, end, p = start[i:j], end[i:j], pos[i:j]
    width = end - start
    v10 = np.empty_like(pos)
    v10[:i], v10[j:] = hi - lo, 0.0
    v10[i:j] = _ramp_integral(hi, start, width) - _ramp_integral(lo, start, width)
    share = _share_inside(start, width, lo, hi)
    inside = p * share
    # a span of width 0 has no tied negative to read it: half the share, as DeLong's placements
    ties = p * np.where(width > 0, _tie_share(hi, start, width) - _tie_share(lo, start, width), share / 2)
    v01 = np.empty_like(pos)
    v01[:i] = 0.0
    above = np.cumsum(inside)
    v01[i:j] = (above - inside + ties) / m
    v01[j:] = (above[-1] if above.size else 0.0) / m
    return float(pos @ v10 / m), v10, v01


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """sum a b of two 1-D arrays in float64, by numpy's own loop (a BLAS dot may hand a long vector to
    threads, which on a busy machine costs more than the sum)."""
    return float(np.einsum("i,i->", a, b, dtype=np.float64, casting="unsafe"))


def _spread(counts: np.ndarray, middle: np.ndarray, before: float, at_before: float, after: float,
            at_after: float, size: float) -> float:
    """s²(V) / size of components that are ``at_before`` for ``before`` cases, ``middle`` for the
    cases ``counts`` and ``at_after`` for ``after`` cases (frequency weights; size cases)."""
    mean = (before * at_before + _dot(counts, middle) + after * at_after) / size
    d = middle - mean
    cd = counts * d
    ss = before * (at_before - mean) ** 2 + _dot(cd, d) + after * (at_after - mean) ** 2
    return ss / ((size - 1) * size)


def partial_area_and_variance(neg: np.ndarray | None, pos: np.ndarray, lo: float, hi: float, axis: str = "fpr", *,
                              cum_neg: np.ndarray | None = None, cum_pos: np.ndarray | None = None
                              ) -> tuple[float, float]:
    """(raw partial area, its variance ``s²(V10) / m + s²(V01) / n``): the numbers of
    :func:`partial_placement_values` and :func:`partial_area_variance`, computed on the scores whose
    FPR span meets the range only (the components are constant before and after it). ``neg``
    None: one negative wherever ``pos`` is 0 (a ranking of distinct samples). ``cum_neg``,
    ``cum_pos``: the cumulative counts down the ranking, if known (a ranking's ``fps``, ``tps``);
    with them the cost is a binary search plus the scores inside the range (one sample per score:
    a search of the negatives inside it, each run of positives between two negatives read as one
    score with their count: the same spans, the same components).

    >>> neg, pos = np.array([0, 1, 0, 0, 1]), np.array([1, 0, 1, 1, 0])
    >>> area, var = partial_area_and_variance(neg, pos, 0.0, 1.0)
    >>> float(area), round(var, 4)  # as partial_placement_values and partial_area_variance
    (0.6666666666666666, 0.1389)
    """
    pos = np.asarray(pos)
    one_each = neg is None

    def negatives(cells: np.ndarray) -> np.ndarray:  # one sample per score: where no positive is
        return (~cells) if cells.dtype == np.bool_ else 1 - cells

    if axis == "tpr":
        if one_each:  # the mirror image of one sample per score is one sample per score
            return partial_area_and_variance(None, negatives(pos)[::-1], 1.0 - hi, 1.0 - lo)
        return partial_area_and_variance(pos[::-1], np.asarray(neg)[::-1], 1.0 - hi, 1.0 - lo)
    if axis != "fpr":
        raise ValueError(f"axis must be 'fpr' or 'tpr', got {axis!r}.")
    cp = np.cumsum(pos, dtype=np.float64) if cum_pos is None else cum_pos
    d = pos.size
    if cum_neg is None and one_each:
        # one sample per score: the negatives down to k are the rank less the positives (exact),
        # formed only for the scores read (no array of D running counts)
        def cn_at(k: int) -> float:
            return float(k + 1) - float(cp[k])
    else:
        neg = negatives(pos) if one_each else np.asarray(neg)
        cn = np.cumsum(neg, dtype=np.float64) if cum_neg is None else cum_neg

        def cn_at(k: int) -> float:
            return float(cn[k])
    m, n = (float(cp[-1]), cn_at(d - 1)) if d else (0.0, 0.0)
    if not (m > 0 and n > 0):
        return float("nan"), float("nan")
    # as partial_placement_values: end[k] = cn[k] / n, start[k] = end[k - 1] (0 first); i the
    # first span ending at or after lo, j the first starting after hi (a binary search each)
    i = bisect.bisect_left(range(d), lo, key=lambda k: cn_at(k) / n)
    j = bisect.bisect_right(range(d), hi, key=lambda k: cn_at(k - 1) / n if k else 0.0)
    neg_before = cn_at(i - 1) if i else 0.0
    pos_before = float(cp[i - 1]) if i else 0.0
    pos_after, neg_after = m - (float(cp[j - 1]) if j else 0.0), n - (cn_at(j - 1) if j else 0.0)
    outside = (pos_before, neg_before, pos_after, neg_after)
    if one_each:  # the negatives inside, and the runs of positives before each of them (and after the last)
        at = np.flatnonzero(negatives(pos[i:j]))
        runs = np.empty(at.size + 1)
        runs[0] = at[0] if at.size else j - i
        if at.size:
            np.subtract(at[1:], at[:-1], out=runs[1:-1])
            runs[1:-1] -= 1.0
            runs[-1] = j - i - 1 - at[-1]
        return _runs_area_and_variance(runs, lo, hi, m, n, outside)
    end = np.array(cn[i:j], dtype=np.float64)  # a copy: divided in place below
    end /= n
    return _range_area_and_variance(end, np.asarray(pos[i:j], dtype=np.float64), np.asarray(neg[i:j], dtype=np.float64),
                                    neg_before / n, lo, hi, m, n, outside)


def _edge_factors(lo: float, hi: float) -> tuple[float, float]:
    """The share of the positives at FPR ``lo`` and at ``hi`` (a span of width 0) counted inside the
    range: all of them on the boundary 0 or 1, half on an inner boundary."""
    return 1.0 if lo == 0.0 else 0.5, 1.0 if hi == 1.0 else 0.5


def _runs_area_and_variance(runs: np.ndarray, lo: float, hi: float, m: float, n: float,
                            outside: tuple[float, float, float, float]) -> tuple[float, float]:
    """:func:`_range_area_and_variance` of one sample per score: the negatives inside the range
    and ``runs[r]`` positives after the r-th of them (``runs[0]``: before the first), at FPR
    (negatives before them) / n, a span of width 0. A negative's own score has no positive, so
    its V01 is the positives inside above it over m; a positive's V10 is hi less its FPR."""
    pos_before, neg_before, pos_after, neg_after = outside
    fpr = np.arange(neg_before, neg_before + runs.size, dtype=np.float64)
    fpr /= n
    inside = runs.copy()
    for edge, factor in zip((lo, hi), _edge_factors(lo, hi)):
        inside[int(np.searchsorted(fpr, edge, "left")):int(np.searchsorted(fpr, edge, "right"))] *= factor
    v10 = np.subtract(hi, fpr, out=fpr)
    above = np.cumsum(inside)
    total_inside = float(above[-1])
    v01 = above[:-1]
    v01 /= m
    area = ((hi - lo) * pos_before + _dot(runs, v10)) / m
    if not (m >= 2 and n >= 2):
        return area, float("nan")
    var = (_spread(runs, v10, pos_before, hi - lo, pos_after, 0.0, m)
           + _spread(np.ones(v01.size), v01, neg_before, 0.0, neg_after, total_inside / m, n))
    return area, float(var)


def _range_area_and_variance(end: np.ndarray, p: np.ndarray, q: np.ndarray, first: float, lo: float, hi: float,
                             m: float, n: float, outside: tuple[float, float, float, float]) -> tuple[float, float]:
    """:func:`partial_area_and_variance` from the scores whose FPR span meets [lo, hi]: their span
    ends ``end``, positives ``p`` and negatives ``q``, the first span's start ``first``, and the
    (positives, negatives) before and after them."""
    pos_before, neg_before, pos_after, neg_after = outside
    # the scores with no negative (a span of width 0 at s = end, lo <= s <= hi): V10 = hi - s and
    # all of the positives inside (half on an inner boundary); the others (the negatives' scores,
    # the only ones V01 is read at) by the general formulas
    wide = np.flatnonzero(q > 0)
    v10 = np.subtract(hi, end)
    inside = p.copy()
    for edge, factor in zip((lo, hi), _edge_factors(lo, hi)):
        inside[int(np.searchsorted(end, edge, "left")):int(np.searchsorted(end, edge, "right"))] *= factor
    e = end[wide]
    st = np.where(wide > 0, end[np.maximum(wide - 1, 0)], first)
    width = e - st
    pw = p[wide]
    v10[wide] = _ramp_integral(hi, st, width) - _ramp_integral(lo, st, width)
    share = _share_inside(st, width, lo, hi)
    inside[wide] = pw * share
    ties_w = pw * np.where(width > 0, _tie_share(hi, st, width) - _tie_share(lo, st, width), share / 2)
    qw = q[wide]
    above = np.cumsum(inside)
    total_inside = float(above[-1]) if above.size else 0.0
    v01 = (above[wide] - inside[wide] + ties_w) / m
    area = ((hi - lo) * pos_before + _dot(p, v10)) / m
    if not (m >= 2 and n >= 2):
        return area, float("nan")
    var = (_spread(p, v10, pos_before, hi - lo, pos_after, 0.0, m)
           + _spread(qw, v01, neg_before, 0.0, neg_after, total_inside / m, n))
    return area, float(var)


def partial_area_variance(neg: np.ndarray, pos: np.ndarray, v10: np.ndarray, v01: np.ndarray) -> float:
    """s²(V10) / m + s²(V01) / n from per-score counts (frequency weights) and components; NaN
    below 2 cases of a class.

    >>> neg, pos = np.array([0, 1, 0, 0, 1]), np.array([1, 0, 1, 1, 0])
    >>> a, v10, v01 = partial_placement_values(neg, pos, 0.0, 1.0)
    >>> round(partial_area_variance(neg, pos, v10, v01), 4)  # DeLong's, as delong_variances gives
    0.1389
    """
    neg, pos = np.asarray(neg, dtype=np.float64), np.asarray(pos, dtype=np.float64)
    m, n = pos.sum(), neg.sum()
    if not (m >= 2 and n >= 2):
        return float("nan")
    total = 0.0
    for counts, v, size in ((pos, v10, m), (neg, v01, n)):
        d = v - _dot(counts, v) / size
        total += _dot(counts * d, d) / ((size - 1) * size)
    return float(total)
