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

__all__ = ["precision_gain", "recall_gain", "prg_points_of_rates", "prg_area_of_rates", "prg_area",
           "prg_area_gradients", "rates_of_counts"]


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


def prg_area(neg: Any, pos: Any, *, cum_neg: Any = None, cum_pos: Any = None) -> float:
    """AUPRG of per-score counts, highest score first (``neg`` None: one sample per score), pi the
    positives' share of the total; NaN without positives or without negatives. ``cum_neg``,
    ``cum_pos``: the cumulative counts down the ranking, if known (a ranking's ``fps`` and
    ``tps``): then only the points from the curve's start on are formed (the same numbers).

    >>> neg, pos = np.array([0, 1, 0, 0, 1, 1, 0, 1]), np.array([1, 0, 1, 1, 0, 0, 1, 0])
    >>> round(prg_area(neg, pos), 6), prg_area(neg, pos, cum_neg=np.cumsum(neg), cum_pos=np.cumsum(pos)) == prg_area(neg, pos)
    (0.430556, True)
    """
    if cum_pos is not None and (cum_neg is not None or neg is None) and len(cum_pos):
        return _prg_area_of_cumulative(None if cum_neg is None else np.asarray(cum_neg), np.asarray(cum_pos))
    fpr, tpr, n, p = rates_of_counts(neg, pos)
    if not (n > 0 and p > 0):
        return float("nan")
    return prg_area_of_rates(fpr, tpr, p / (p + n))


def _prg_area_of_cumulative(cn: np.ndarray | None, cp: np.ndarray) -> float:
    """:func:`prg_area` from the cumulative counts: a binary search for the first ROC point with
    tpr >= pi, then the rates of the points from the one before it on. ``cn`` None: one sample
    per score, the negatives down to k being k + 1 less the positives (formed for those points only)."""
    if cn is None:
        def negatives(a: int) -> np.ndarray:  # cumulative negatives from index a on
            out = np.arange(a + 1, cp.size + 1, dtype=np.float64)
            out -= cp[a:]
            return out

        n = float(cp.size) - float(cp[-1])
    else:
        def negatives(a: int) -> np.ndarray:
            return cn[a:]

        n = float(cn[-1])
    p = float(cp[-1])
    if not (n > 0 and p > 0):
        return float("nan")
    pi = p / (p + n)
    # ROC point k (k = 0 the origin) has tpr = cp[k - 1] / p, as rates_of_counts forms it
    k0 = bisect.bisect_left(range(cp.size + 1), pi, key=lambda k: float(cp[k - 1]) / p if k else 0.0)
    a = max(k0 - 1, 0)
    if a == 0:
        fpr = np.concatenate([[0.0], negatives(0) / n])
        tpr = np.concatenate([[0.0], cp / p])
    else:
        fpr, tpr = negatives(a - 1) / n, cp[a - 1:] / p
    return prg_area_of_rates(fpr, tpr, pi)


def prg_area_gradients(neg: Any, pos: Any) -> tuple[float, np.ndarray, np.ndarray]:
    """(AUPRG, d AUPRG / d negatives, d AUPRG / d positives) at each distinct score: the exact
    gradient of the trapezoid sum with respect to every cell count (the rates, the crossing point
    and pi all move with them), for the delta method / influence function of the area. NaN where
    the area is undefined.

    With the curve's points (X_j, Y_j), j = 0..m, the area sum_j (X_j - X_(j-1))(Y_j + Y_(j-1)) / 2
    has dA/dX_j = (Y_(j-1) - Y_(j+1)) / 2 and dA/dY_j = (X_(j+1) - X_(j-1)) / 2 (one-sided at the
    ends); each point is a function of its ROC point (t, f) and pi (the crossing of two ROC points
    and pi), and t = TP / P, f = FP / N, pi = P / (P + N) of the cumulative counts.

    >>> a, g_neg, g_pos = prg_area_gradients(np.array([0, 1, 0, 1]), np.array([1, 0, 1, 1]))
    >>> round(a, 6), round(float(g_neg @ [0, 1, 0, 1] + g_pos @ [1, 0, 1, 1]), 12)  # scale invariant
    (0.145833, 0.0)
    """
    fpr, tpr, n, p = rates_of_counts(neg, pos)
    d = fpr.size - 1
    if not (n > 0 and p > 0):
        nan = np.full(d, np.nan)
        return float("nan"), nan, nan.copy()
    pi = p / (p + n)
    rho = pi / (1.0 - pi)
    drho = 1.0 / (1.0 - pi) ** 2
    k0, lam, f_star = _start(fpr, tpr, pi)
    tk, fk = tpr[k0:], fpr[k0:]  # the ROC points on the curve (views: tpr >= pi > 0 there)
    miss = 1.0 - tk
    xs = 1.0 - rho * miss / tk  # as prg_points_of_rates forms them (the same area, bit for bit)
    miss /= tk  # (1 - t) / t
    ys = 1.0 - fk / tk
    inv = 1.0 / tk
    crossing = lam < 1.0
    if crossing:
        xs, ys = np.concatenate([[0.0], xs]), np.concatenate([[1.0 - f_star / pi], ys])
    area = trapezoid(xs, ys)
    # dA/dX_j = (Y_(j-1) + Y_j) / 2 - (Y_j + Y_(j+1)) / 2, dA/dY_j = X_(j+1) / 2 - X_(j-1) / 2
    # (one-sided at the ends: X_j itself stands in for the missing neighbour)
    mid = (ys[:-1] + ys[1:]) / 2
    d_x = np.zeros(xs.size)
    d_x[1:] = mid
    d_x[:-1] -= mid
    half = xs / 2
    d_y = np.empty(xs.size)
    if xs.size > 1:
        d_y[1:-1] = half[2:] - half[:-2]
        d_y[0], d_y[-1] = half[1] - half[0], half[-1] - half[-2]
    else:
        d_y[:] = 0.0
    real = slice(1, None) if crossing else slice(None)
    dx_r, dy_r = d_x[real], d_y[real]
    d_t, d_f = np.zeros(d + 1), np.zeros(d + 1)  # dA / d tpr_k, dA / d fpr_k over the ROC points
    d_t[k0:] = (dx_r * rho + dy_r * fk) * (inv * inv)
    d_f[k0:] = -dy_r * inv
    d_pi = -float(np.dot(dx_r, miss)) * drho
    if crossing:
        a, b = k0 - 1, k0
        s = (fpr[b] - fpr[a]) / (tpr[b] - tpr[a])
        g = d_y[0] * (-1.0 / pi)  # dA / d f*
        d_pi += d_y[0] * f_star / pi**2 + g * s
        if a > 0:  # the origin (a = 0) is fixed
            d_f[a] += g * (1.0 - lam)
            d_t[a] += g * (-s * (1.0 - lam))
        d_f[b] += g * lam
        d_t[b] += g * (-s * lam)
    # to the cell counts: t_k = TP_k / P, f_k = FP_k / N, pi = P / (P + N); cell e enters TP_k for k >= e
    d_p = -float(np.dot(d_t, tpr)) / p + d_pi * n / (p + n) ** 2
    d_n = -float(np.dot(d_f, fpr)) / n - d_pi * p / (p + n) ** 2
    g_pos = np.cumsum(d_t[:0:-1])[::-1]
    g_pos /= p
    g_pos += d_p
    g_neg = np.cumsum(d_f[:0:-1])[::-1]
    g_neg /= n
    g_neg += d_n
    return area, g_neg, g_pos
