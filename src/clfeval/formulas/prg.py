"""Precision-Recall-Gain (Flach & Kull 2015): the PRG curve, its area, and the area's gradient.

With pi the positive share of the cases, precision gain and recall gain are

    precG = (prec - pi) / ((1 - pi) prec),    recG = (rec - pi) / ((1 - pi) rec),

that is, in the ROC curve's rates (TPR t, FPR f) and rho = pi / (1 - pi),

    precG = 1 - f / t,                        recG = 1 - rho (1 - t) / t.

The curve is the part with recall gain in [0, 1] (t >= pi): it starts where the ROC segment that
passes t = pi crosses the precision-gain axis (recall gain 0; the crossing is interpolated linearly
between the two thresholds, which in PRG space is a straight line as well: along an ROC segment
both gains are affine in 1 / t) and ends at (1, 0), everything predicted positive. Its area (AUPRG)
is the trapezoid sum over those points, precision gains below 0 included (so the area can be
negative; a ranking no better than the positive share everywhere has area <= 0). Tied scores are one
threshold, a straight segment, as in the ROC curve. Undefined (NaN) without positives or negatives.

>>> rg, pg, crossing = prg_points_of_rates(np.array([0, .25, .25, .5, .75, 1]), np.array([0, .25, .75, .75, 1, 1]), 0.5)
>>> rg.tolist(), pg.tolist(), crossing.tolist()
([0.0, 0.6666666666666667, 0.6666666666666667, 1.0, 1.0], [0.5, 0.6666666666666667, 0.33333333333333337, 0.25, 0.0], [True, False, False, False, False])
>>> round(prg_area_of_rates(np.array([0, .25, .25, .5, .75, 1]), np.array([0, .25, .75, .75, 1, 1]), 0.5), 6)
0.486111

References
----------
.. [1] Flach, P. A. and Kull, M. (2015). Precision-Recall-Gain curves: PR analysis done right.
   Advances in Neural Information Processing Systems 28 (NIPS 2015), 838-846.
"""

from __future__ import annotations

import bisect
from typing import Any

import numpy as np

from clfeval.formulas.curves import trapezoid

__all__ = [
    "precision_gain",
    "prg_area",
    "prg_area_gradients",
    "prg_area_of_rates",
    "prg_area_variance",
    "prg_points_of_rates",
    "rates_of_counts",
    "recall_gain",
]


def precision_gain(precision: Any, prevalence: Any) -> np.ndarray:
    """(prec - pi) / ((1 - pi) prec); -inf at precision 0.

    >>> float(precision_gain(0.75, 0.5)), float(precision_gain(0.5, 0.5))
    (0.6666666666666666, 0.0)
    """
    p, pi = np.asarray(precision, dtype=np.float64), np.asarray(prevalence, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (p - pi) / ((1.0 - pi) * p)


def recall_gain(recall: Any, prevalence: Any) -> np.ndarray:
    """(rec - pi) / ((1 - pi) rec); -inf at recall 0 (the same map as :func:`precision_gain`).

    >>> float(recall_gain(1.0, 0.3)), float(recall_gain(0.3, 0.3))
    (1.0, 0.0)
    """
    return precision_gain(recall, prevalence)


def rates_of_counts(neg: Any, pos: Any) -> tuple[np.ndarray, np.ndarray, float, float]:
    """(fpr, tpr, negatives, positives) of per-score counts (highest score first; ``neg`` None: one
    sample per score), the rates from the origin on, (D + 1,).

    >>> f, t, n, p = rates_of_counts(np.array([0, 1, 1]), np.array([1, 1, 0]))
    >>> f.tolist(), t.tolist(), n, p
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0], 2.0, 2.0)
    """
    pos = np.asarray(pos)
    tps = np.zeros(pos.size + 1)
    np.cumsum(pos, dtype=np.float64, out=tps[1:])
    if neg is None:  # one sample per score: the negatives are the rank less the positives (exact)
        fps = np.arange(pos.size + 1, dtype=np.float64)
        fps -= tps
    else:
        fps = np.zeros(pos.size + 1)
        np.cumsum(np.asarray(neg), dtype=np.float64, out=fps[1:])
    n, p = float(fps[-1]), float(tps[-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        fps /= n
        tps /= p
    return fps, tps, n, p


def _start(fpr: np.ndarray, tpr: np.ndarray, prevalence: float) -> tuple[int, float, float]:
    """(k0, lambda, crossing fpr): k0 the first point with tpr >= pi; the crossing lies at
    lambda of the way from point k0 - 1 to point k0 (lambda 1: at point k0 itself)."""
    k0 = int(np.argmax(tpr >= prevalence))
    if tpr[k0] == prevalence or k0 == 0:
        return k0, 1.0, float(fpr[k0])
    t_a, t_b = tpr[k0 - 1], tpr[k0]
    lam = (prevalence - t_a) / (t_b - t_a)
    return k0, float(lam), float(fpr[k0 - 1] + lam * (fpr[k0] - fpr[k0 - 1]))


def prg_points_of_rates(fpr: Any, tpr: Any, prevalence: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(recall gain, precision gain, crossing) of the PRG curve from ROC points (fpr, tpr), ordered
    by decreasing threshold and starting at the origin (0, 0), with ``prevalence`` pi the positive
    share. The curve is the part with recall gain >= 0: the crossing point first (``crossing``
    True there; left out where a threshold's point lies on the axis itself), then every ROC point
    with tpr >= pi. Empty arrays where a rate is NaN (no positives or no negatives).
    """
    f, t = np.asarray(fpr, dtype=np.float64), np.asarray(tpr, dtype=np.float64)
    if f.size == 0 or not (np.isfinite(f).all() and np.isfinite(t).all()) or not 0.0 < prevalence < 1.0:
        empty = np.zeros(0)
        return empty, empty, np.zeros(0, dtype=bool)
    k0, lam, f_star = _start(f, t, prevalence)
    rho = prevalence / (1.0 - prevalence)
    tk, fk = t[k0:], f[k0:]
    with np.errstate(divide="ignore", invalid="ignore"):
        rg = 1.0 - rho * (1.0 - tk) / tk
        pg = 1.0 - fk / tk
    crossing = np.zeros(tk.size, dtype=bool)
    if lam < 1.0:
        rg = np.concatenate([[0.0], rg])
        pg = np.concatenate([[1.0 - f_star / prevalence], pg])
        crossing = np.concatenate([[True], crossing])
    return rg, pg, crossing


def prg_area_of_rates(fpr: Any, tpr: Any, prevalence: float) -> float:
    """Area under the PRG curve (:func:`prg_points_of_rates`): the trapezoid sum over recall gain
    in [0, 1]; NaN where the curve is undefined."""
    rg, pg, _ = prg_points_of_rates(fpr, tpr, prevalence)
    if rg.size == 0:
        return float("nan")
    return trapezoid(rg, pg)


# The area in closed form. With ROC point K's cumulative counts TP_K, FP_K (K = 0 the origin, K = D
# everything predicted positive), U_K = 1 / TP_K and rho = P / N, the gains are X_K = 1 + rho - rho P U_K
# and Y_K = 1 - rho FP_K U_K, so the trapezoid over cell c (from point c to point c + 1) is
# (rho P / 2) (U_c - U_(c+1)) (2 - rho (FP_(c+1) U_(c+1) + FP_c U_c)); summed from the curve's first
# point K0 on, both parts telescope but for the cells' negatives:
#
#     sum = (1 - X_K0) - (P^3 / (2 N^2)) (FP_K0 U_K0^2 - N / P^2 + T),   T = sum_(c >= K0) neg_c U_c U_(c+1),
#
# and the area is that plus the crossing's trapezoid (from recall gain 0 to point K0). Everything but T
# is a function of six numbers, (P, N) and the counts at the points K0 - 1 and K0 (the "head"); T is
# one dot product over the cells past K0. Its gradient is as short: d T / d neg_c = U_c U_(c+1) and
# d T / d pos_c = -(R_(c+1) + neg_c U_(c+1)^2 U_c), R_c = sum_(c' >= c) neg_c' U_c' U_(c'+1) (U_c' + U_(c'+1)).


def _head(p: Any, n: Any, tp_a: Any, fp_a: Any, tp0: Any, fp0: Any, crossing: bool) -> Any:
    """The area but for -(P^3 / (2 N^2)) T (see above), from P, N and the counts at points K0 - 1
    (``tp_a``, ``fp_a``) and K0; ``crossing``: the curve starts on the segment between them.
    Arithmetic only, so that it takes complex numbers (:func:`_head_partials`)."""
    s = p / n
    x0, y0 = p / tp0, fp0 / tp0  # 1 / t and FP / TP at point K0 (no power of a count: any weights' scale)
    out = s * x0 - s / 2 - s * s / 2 * x0 * y0
    if crossing:  # as _start: lambda of the way from point K0 - 1 to K0, in the rates
        pi = p / (p + n)
        t_a, f_a = tp_a / p, fp_a / n
        lam = (pi - t_a) / (tp0 / p - t_a)
        f_star = f_a + lam * (fp0 / n - f_a)
        out = out + (1.0 + s - s * x0) * ((1.0 - f_star / pi) + (1.0 - s * y0)) / 2
    return out


def _head_partials(args: tuple[float, ...], crossing: bool) -> list[float]:
    """The partial derivatives of :func:`_head` in each of its six arguments, by the complex step
    (Im f(x + ih) / h: no difference is taken, so they are exact to rounding), taken at the
    arguments over c = P + N (the head is a function of the counts' ratios: d/dx f(x) = f'(x / c) / c)."""
    c = args[0] + args[1]
    h = 1e-30
    out = []
    for i in range(len(args)):
        z = [complex(a / c) for a in args]
        z[i] += complex(0.0, h)
        out.append(float(_head(*z, crossing).imag) / h / c)
    return out


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """sum a b of two 1-D arrays in float64, by numpy's own loop (a BLAS dot may hand a long vector to
    threads, which on a busy machine costs more than the sum)."""
    return float(np.einsum("i,i->", a, b, dtype=np.float64, casting="unsafe"))


def _first_point(tp_at: Any, d: int, p: float, pi: float) -> int:
    """K0: the first ROC point with tpr = TP / P >= pi (``tp_at(k)``: TP down to cell k), as
    :func:`_start` finds it (the same floating comparison), by a binary search."""
    return bisect.bisect_left(range(d + 1), pi, key=lambda k: float(tp_at(k - 1)) / p if k else 0.0)


def _kth_true(mask: np.ndarray, k: int, block: int = 1 << 20) -> int:
    """The position of the k-th True (k >= 1) of ``mask``: counted block by block, then located."""
    seen = 0
    for start in range(0, mask.size, block):
        part = mask[start:start + block]
        c = int(np.count_nonzero(part))
        if seen + c >= k:
            return start + int(np.flatnonzero(part)[k - seen - 1])
        seen += c
    raise ValueError(f"fewer than {k} positives")


def _one_each(neg: Any, pos: np.ndarray, block: int = 1 << 16) -> bool:
    """Whether every cell holds one case: ``neg`` None, or both boolean and exactly one set per cell."""
    if neg is None:
        return True
    neg = np.asarray(neg)
    if not (neg.dtype == np.bool_ and pos.dtype == np.bool_ and neg.shape == pos.shape == (pos.size,)):
        return False
    both = np.empty(min(pos.size, block), dtype=np.bool_)  # one small buffer: no pages of a full-size array
    for start in range(0, pos.size, block):
        part = both[:min(block, pos.size - start)]
        np.bitwise_xor(neg[start:start + block], pos[start:start + block], out=part)
        if int(np.count_nonzero(part)) != part.size:
            return False
    return True


def _prg_sums(neg: Any, pos: Any, cum_neg: Any, cum_pos: Any, variance: bool, squares: Any = None
              ) -> tuple[float, Any, Any]:
    """(area, then with ``variance``: sum over the cases of the area's gradient g, sum of g^2) with
    ``squares`` None; with ``squares`` (neg, pos) the per-cell weights of g^2: (area, g_neg, g_pos)."""
    pos = np.asarray(pos)
    if squares is None and _one_each(neg, pos):
        return _one_each_sums(pos if pos.dtype == np.bool_ else pos != 0,
                              None if cum_pos is None else np.asarray(cum_pos), variance)
    neg = (1 - pos) if neg is None else np.asarray(neg)
    cp = np.cumsum(pos, dtype=np.float64) if cum_pos is None else np.asarray(cum_pos)
    cn = np.cumsum(neg, dtype=np.float64) if cum_neg is None else np.asarray(cum_neg)
    d = pos.size
    p, n = (float(cp[-1]), float(cn[-1])) if d else (0.0, 0.0)
    if not (p > 0 and n > 0):
        nan = np.full(d, np.nan)
        return float("nan"), nan, nan.copy()
    k0 = _first_point(cp.__getitem__, d, p, p / (p + n))
    head = (p, n, float(cp[k0 - 2]) if k0 > 1 else 0.0, float(cn[k0 - 2]) if k0 > 1 else 0.0,
            float(cp[k0 - 1]), float(cn[k0 - 1]))
    crossing = head[4] / p != p / (p + n)
    # in the rates, so that no power of a weight sum over- or underflows: u = P U = 1 / t, and
    # alpha T = (rho / 2) (T' / N) with T' = sum neg_c u_c u_(c+1)
    u = np.divide(p, cp[k0 - 1:], dtype=np.float64)  # 1 / t at points K0..D
    prod = u[:-1] * u[1:]
    tail_neg = np.asarray(neg[k0:], dtype=np.float64)
    t_n = _dot(tail_neg, prod) / n
    rho = p / n
    area = float(_head(*head, crossing)) - rho / 2 * t_n
    if not variance:
        return area, None, None
    d_p, d_n, d_tpa, d_fpa, d_tp0, d_fp0 = _head_partials(head, crossing)
    g_n, g_p = d_n + rho * t_n / n, d_p - 1.5 * t_n / n  # alpha's own P and N: P^3 T / N^3, -3 P^2 T / (2 N^2)
    q = tail_neg * prod
    beyond = q * u[1:]  # neg_c u_c u_(c+1)^2
    q *= u[:-1]
    q += beyond  # neg_c u_c u_(c+1) (u_c + u_(c+1))
    r = np.cumsum(q[::-1])[::-1]  # P^3 R_c from K0 on
    g_neg, g_pos = np.empty(d), np.empty(d)
    np.multiply(prod, -rho / 2 / n, out=g_neg[k0:])  # alpha U_c U_(c+1)
    g_neg[k0:] += g_n
    g_neg[k0 - 1] = g_n + d_fp0
    g_neg[:k0 - 1] = g_n + d_fp0 + d_fpa
    beyond[:-1] += r[1:]
    beyond /= n
    beyond /= 2.0 * n  # alpha / P^3 = 1 / (2 N^2)
    g_pos[k0:] = beyond
    g_pos[k0:] += g_p
    g_pos[k0 - 1] = g_p + d_tp0 + float(r[0]) / n / (2.0 * n) if r.size else g_p + d_tp0
    g_pos[:k0 - 1] = g_pos[k0 - 1] + d_tpa
    if squares is not None:
        return area, g_neg, g_pos
    s1 = _dot(neg, g_neg) + _dot(pos, g_pos)
    s2 = _dot(neg * g_neg, g_neg) + _dot(pos * g_pos, g_pos)
    return area, s1, s2


def _one_each_sums(pos: np.ndarray, cp: np.ndarray | None, variance: bool, block: int = 1 << 16
                   ) -> tuple[float, Any, Any]:
    """:func:`_prg_sums` of one case per cell (``pos`` boolean). Past K0 the cells are read by the
    positives alone: after the positive that brings TP to j come m_j negatives with TP = j, so
    T = sum_j m_j / j^2; a negative's gradient is g_n - alpha / j^2 (alpha = P^3 / (2 N^2)) and a
    positive's g_p + 2 alpha r, r the sum of m_j / j^3 from its own j on; the cells before K0 share
    three values. The positives past K0 are visited block by block from the end (each block's
    arrays stay in cache), carrying the sum of m_j / j^3 below; each side's sum of squares is formed
    about its mean (the constants g_n, g_p need T first)."""
    d = pos.size
    p = float(cp[-1]) if cp is not None and d else float(np.count_nonzero(pos))
    n = d - p
    if not (p > 0 and n > 0):
        return float("nan"), float("nan"), float("nan")
    pi = p / (p + n)
    j0 = max(int(np.ceil(pi * p)), 1)  # the least TP count with TP / P >= pi, as _start compares
    while j0 > 1 and (j0 - 1) / p >= pi:
        j0 -= 1
    while j0 / p < pi:
        j0 += 1
    # the cell of the j0-th positive (j0 in cp's own type: no converted copy of cp)
    at = int(np.searchsorted(cp, np.asarray(j0, dtype=cp.dtype))) if cp is not None else _kth_true(pos, j0)
    k0 = at + 1
    fp0 = float(k0 - j0)
    head = (p, n, float(j0 - 1), fp0, float(j0), fp0)
    crossing = j0 / p != pi
    tail_pos = int(p) - j0  # the positives past K0, ranked 0, 1, ...: the i-th brings TP to j0 + 1 + i
    t = s4 = sum_r = sum_r2 = carry = 0.0  # carry: sum of m_j / j^3 over the blocks below
    later, nxt = 0, d  # positives below the block; the position of the first of them
    width = max(min(block, d - k0), 1)
    ranks = np.arange(width, dtype=np.float64)
    buffers = np.empty((4, width))  # reused by every block: m, 1 / j, 1 / j^2, r
    for start in reversed(range(k0, d, block)):
        at_block = np.flatnonzero(pos[start:min(start + block, d)])
        size = at_block.size
        if not size:
            continue
        m, inv, inv2, r = buffers[:, :size]
        np.subtract(at_block[1:], at_block[:-1], out=m[:-1])  # the negatives after each positive, down to the next
        m[-1] = nxt - start - at_block[-1]
        m -= 1.0
        nxt = start + int(at_block[0])
        first = j0 + 1 + tail_pos - later - size  # the j of the block's first positive
        later += size
        np.add(ranks[:size], first, out=inv)
        np.reciprocal(inv, out=inv)
        np.multiply(inv, inv, out=inv2)
        m *= inv2  # m_j / j^2
        t += float(m.sum())
        if variance:
            s4 += _dot(m, inv2)
            m *= inv  # m_j / j^3
            np.cumsum(m[::-1], out=r[::-1])  # from each positive's own j on, within the block
            r_sum = float(r.sum())
            sum_r2 += _dot(r, r) + carry * (2.0 * r_sum + size * carry)
            sum_r += r_sum + size * carry
            carry += float(r[0])
    m0 = float((nxt - k0) if tail_pos else d - k0)  # the negatives with TP = j0, before the first positive
    t += m0 / j0**2
    alpha = p**3 / (2.0 * n * n)
    area = float(_head(*head, crossing)) - alpha * t
    if not variance:
        return area, None, None
    s4 += m0 / j0**4
    carry += m0 / j0**3
    d_p, d_n, d_tpa, d_fpa, d_tp0, d_fp0 = _head_partials(head, crossing)
    g_n, g_p = d_n + p**3 / n**3 * t, d_p - 1.5 * p * p / (n * n) * t
    tail_neg = n - fp0
    s1, s2 = 0.0, 0.0
    if tail_neg > 0:  # the negatives past K0, about their mean g_n - alpha T / M
        mean = g_n - alpha * t / tail_neg
        s1 += tail_neg * mean
        s2 += tail_neg * mean * mean + alpha * alpha * max(s4 - t * t / tail_neg, 0.0)
    if tail_pos > 0:  # the positives past K0, about theirs
        mean = g_p + 2.0 * alpha * sum_r / tail_pos
        s1 += tail_pos * mean
        s2 += tail_pos * mean * mean + 4.0 * alpha * alpha * max(sum_r2 - sum_r * sum_r / tail_pos, 0.0)
    last = g_p + d_tp0 + 2.0 * alpha * carry  # the cell K0 - 1 (the j0-th positive)
    before_pos, before_neg = last + d_tpa, g_n + d_fp0 + d_fpa  # the cells before it
    s1 += last + (j0 - 1) * before_pos + fp0 * before_neg
    s2 += last * last + (j0 - 1) * before_pos**2 + fp0 * before_neg**2
    return area, s1, s2


def prg_area(neg: Any, pos: Any, *, cum_neg: Any = None, cum_pos: Any = None) -> float:
    """AUPRG of per-score counts, highest score first (``neg`` None: one sample per score), pi the
    positives' share of the total; NaN without positives or without negatives. ``cum_neg``,
    ``cum_pos``: the cumulative counts down the ranking, if known (a ranking's ``fps`` and
    ``tps``): then only the cells past the curve's start are read.

    The trapezoid sum of :func:`prg_area_of_rates` in closed form (see the comment above
    :func:`_head`): the same number to rounding, from one dot product over the cells past the
    curve's start (one case per cell: over the positives there).

    >>> neg, pos = np.array([0, 1, 0, 0, 1, 1, 0, 1]), np.array([1, 0, 1, 1, 0, 0, 1, 0])
    >>> round(prg_area(neg, pos), 6), round(prg_area(neg, pos, cum_neg=np.cumsum(neg), cum_pos=np.cumsum(pos)), 6)
    (0.430556, 0.430556)
    """
    return _prg_sums(neg, pos, cum_neg, cum_pos, variance=False)[0]


def prg_area_variance(neg: Any, pos: Any, *, cum_pos: Any = None) -> tuple[float, float]:
    """(AUPRG, its first-order variance sum c g^2 - (sum c g)^2 / n over all cells, g the exact
    gradient of :func:`prg_area_gradients`): multinomial sampling of the cases (cross-sectional,
    pi varies). One case per cell (``neg`` None, or boolean ``neg``, ``pos``): read off the
    positives past the curve's start, no array of D gradients. NaN without both classes.

    >>> a, v = prg_area_variance(np.array([0, 1, 0, 1, 3]), np.array([3, 1, 2, 0, 1]))
    >>> round(a, 4), round(float(np.sqrt(v)), 4)
    (0.608, 0.257)
    """
    area, s1, s2 = _prg_sums(neg, pos, None, cum_pos, variance=True)
    if not np.isfinite(area):
        return float("nan"), float("nan")
    pos = np.asarray(pos)
    total = float(pos.size) if neg is None else _cases(neg) + _cases(pos)
    return area, max(s2 - s1 * s1 / total, 0.0)


def _cases(cells: Any) -> float:
    """The sum of a class's cells (boolean: a count, no float copy)."""
    cells = np.asarray(cells)
    return float(np.count_nonzero(cells)) if cells.dtype == np.bool_ else float(np.sum(cells, dtype=np.float64))


def prg_area_gradients(neg: Any, pos: Any) -> tuple[float, np.ndarray, np.ndarray]:
    """(AUPRG, d AUPRG / d negatives, d AUPRG / d positives) at each distinct score: the exact
    gradient of the trapezoid sum with respect to every cell count (the rates, the crossing point
    and pi all move with them), for the delta method / influence function of the area. NaN where
    the area is undefined.

    From the closed form (see the comment above :func:`_head`): past the curve's start K0 a
    negative's cell has g = G_N - (P^3 / (2 N^2)) U_c U_(c+1) and a positive's
    g = G_P + (P^3 / (2 N^2)) (R_(c+1) + neg_c U_(c+1)^2 U_c); before it the cells share the head's
    partial derivatives. One reverse cumulative sum over the cells past K0.

    >>> a, g_neg, g_pos = prg_area_gradients(np.array([0, 1, 0, 1]), np.array([1, 0, 1, 1]))
    >>> round(a, 6), abs(round(float(g_neg @ [0, 1, 0, 1] + g_pos @ [1, 0, 1, 1]), 12))  # scale invariant
    (0.145833, 0.0)
    """
    pos = np.asarray(pos, dtype=np.float64)
    neg = 1.0 - pos if neg is None else np.asarray(neg, dtype=np.float64)
    return _prg_sums(neg, pos, None, None, variance=True, squares=(neg, pos))
