"""Intervals of the measures at another prevalence, and of the area under the PRG curve.

At prevalence pi (fixed, not estimated) every measure of :mod:`clfeval.formulas.prevalence` is a
function of TPR and FPR alone. These are two independent binomial proportions (the positives'
and the negatives' hits), so the delta method gives

    Var m = (dm/dt)^2 t (1 - t) / P + (dm/df)^2 f (1 - f) / N,

formed, as the report's delta-method intervals are, at the table smoothed by half a case per cell
(so that a rate of 0 or 1 keeps a variance) and on the logit scale (Fisher's z for MCC), mapped back
into the measure's range (:func:`clfeval.uncertainty.scales.transformed_interval`). For PPV this is
the log-ratio interval of the positive likelihood ratio: logit PPV = logit pi + log(t / f). TPR and
FPR keep their Wilson intervals. AP at pi: the first-order variance of the step area over the score
cells, sampled within each class (the classes' sizes are fixed, as pi is), on the logit scale, formed
at the cells smoothed by three cases per class spread like the pooled sample (unsmoothed, the interval
covered 82% on average and 33% at worst in ``benchmarks/prevalence_coverage.py``, at small pi with few
negatives: the plain AP is biased upward there). Its variance is formed in one backward pass over the cells,
chunk by chunk (the tails of the gradient carried across chunks; the plain AP's pass reads only the cells that
hold positives): at 10^7 cells its numbers are closer to an 80-bit reference than the full-gradient form of
:func:`clfeval.uncertainty.influence.average_precision_gradients` (AP 5e-14 against 4e-12, se 6e-14 against 1e-10).
Weighted cases: P and N are Kish's effective numbers of cases; AP at pi's variance takes the sums of squared
weights per cell and class (sum g^2 S2 - (sum g W)^2 / n within each class), smoothed by three cases of
each class's mean weight.

The area under the PRG curve (:func:`prg_auc_interval`): the first-order variance over all score cells
(cross-sectional: pi is the sample's share and varies with it), estimate +/- t se with the t quantile of
min(P, N) - 1 degrees of freedom (as AP's interval), capped at 1.

>>> ci = prevalence_intervals(40, 5, 10, 45, 0.1)
>>> round(ci["precision"].estimate, 4), round(ci["precision"].low, 4), round(ci["precision"].high, 4)
(0.4706, 0.2851, 0.6646)
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from clfeval.formulas.prevalence import (
    CHUNK,
    average_precision_at_prevalence,
    calibrated_precision_sum,
    class_totals,
    measure_gradients_at_prevalence,
    measures_at_prevalence,
    positive_cell_chunks,
)
from clfeval.formulas.prg import prg_area_gradients, prg_area_variance
from clfeval.stats._result import ConfidenceInterval, check_level
from clfeval.uncertainty.checks import z_quantile
from clfeval.uncertainty.proportions import KISH, kish_counts, proportion_ci
from clfeval.uncertainty.scales import transformed_interval

__all__ = [
    "AP_AT_PREVALENCE",
    "AP_SMOOTHING",
    "PREVALENCE_DELTA",
    "PRG_AUC_METHOD",
    "ap_at_prevalence_interval",
    "prevalence_intervals",
    "prg_auc_interval",
]

#: method name of the delta-method intervals at a prevalence
PREVALENCE_DELTA = "delta method on TPR and FPR (independent binomials, prevalence fixed), {scale} scale, cells + 1/2"
#: method name of AP at a prevalence
AP_AT_PREVALENCE = ("first-order variance over score cells within each class (prevalence fixed), logit scale, "
                    "3 cases per class added like the pooled cells")
#: cases per class added, spread like the pooled sample over the score cells, where AP at pi's interval is formed
AP_SMOOTHING = 3.0
#: method name of the PRG area's interval
PRG_AUC_METHOD = "first-order variance over score cells (influence), t(min(P, N) - 1) quantile, capped at 1"

_RANGES = {"mcc": (-1.0, 1.0)}


def prevalence_intervals(tp: Any, fp: Any, fn: Any, tn: Any, prevalence: float, *, beta: float = 1.0,
                         level: float = 0.95, class_squares: Any = None) -> dict[str, ConfidenceInterval]:
    """Intervals of every measure of :func:`clfeval.formulas.prevalence.measures_at_prevalence` from
    one confusion table (tp, fp, fn, tn) of the sample, at prevalence ``prevalence``.

    Parameters
    ----------
    tp, fp, fn, tn : float
        The sample's confusion table (counts or weight sums).
    prevalence : float
        The positive share pi, 0 < pi < 1, taken as known.
    beta : float, default 1.0
        Weight of recall in F-beta (key ``f<beta>``).
    level : float, default 0.95
        Confidence level.
    class_squares : tuple of two floats, optional
        Sums of squared weights of the positives and of the negatives (weighted cases); P and N are
        then Kish's effective numbers of cases.

    Returns
    -------
    dict of str to ConfidenceInterval
        One per measure ("recall" and "fallout": Wilson; the others: the delta method).

    Examples
    --------
    >>> ci = prevalence_intervals(8, 1, 2, 9, 0.5)
    >>> round(ci["accuracy"].estimate, 4), ci["recall"].method
    (0.85, 'Wilson score')
    """
    level = check_level(level)
    tp, fp, fn, tn = (float(x) for x in (tp, fp, fn, tn))
    p_w, n_w = tp + fn, fp + tn
    suffix = ""
    p_eff, n_eff = p_w, n_w
    if class_squares is not None:
        _, p_eff = kish_counts(tp, p_w, float(class_squares[0]))
        _, n_eff = kish_counts(fp, n_w, float(class_squares[1]))
        p_eff, n_eff = float(p_eff), float(n_eff)
        suffix = KISH
    with np.errstate(invalid="ignore", divide="ignore"):
        t = tp / p_w if p_w > 0 else float("nan")
        f = fp / n_w if n_w > 0 else float("nan")
    est = measures_at_prevalence(t, f, prevalence, beta)
    # the smoothed rates: half a case added to each cell (in effective cases)
    t_s = (t * p_eff + 0.5) / (p_eff + 1.0) if p_eff > 0 else float("nan")
    f_s = (f * n_eff + 0.5) / (n_eff + 1.0) if n_eff > 0 else float("nan")
    center = measures_at_prevalence(t_s, f_s, prevalence, beta)
    grads = measure_gradients_at_prevalence(t_s, f_s, prevalence, beta)
    var_t = t_s * (1.0 - t_s) / (p_eff + 1.0) if p_eff > 0 else float("nan")
    var_f = f_s * (1.0 - f_s) / (n_eff + 1.0) if n_eff > 0 else float("nan")
    plain = measure_gradients_at_prevalence(t, f, prevalence, beta)
    var_t_plain = t * (1.0 - t) / p_eff if p_eff > 0 else float("nan")
    var_f_plain = f * (1.0 - f) / n_eff if n_eff > 0 else float("nan")
    z = z_quantile(level)
    out: dict[str, ConfidenceInterval] = {}
    for name, (x, n) in {"recall": (t * p_eff, p_eff), "fallout": (f * n_eff, n_eff)}.items():
        if n > 0:
            ci = proportion_ci(x, n, level=level)
            out[name] = ConfidenceInterval(float(ci.low), float(ci.high), level, ci.method + suffix,
                                           float(est[name]), ci.standard_error)
        else:
            out[name] = ConfidenceInterval(float("nan"), float("nan"), level, "Wilson score" + suffix, float("nan"))
    for name, value in est.items():
        if name in out:
            continue
        g_t, g_f = grads[name]
        with np.errstate(invalid="ignore"):
            se = float(np.sqrt(g_t**2 * var_t + g_f**2 * var_f))
            se_plain = float(np.sqrt(plain[name][0] ** 2 * var_t_plain + plain[name][1] ** 2 * var_f_plain))
        bounds = _RANGES.get(name, (0.0, 1.0))
        e = float(value)
        if not np.isfinite(e) or not np.isfinite(se):
            low = high = float("nan")
        else:
            lo, hi = transformed_interval(np.asarray(e), np.asarray(float(center[name])), np.asarray(se), z, bounds)
            low, high = float(lo), float(hi)
        scale = "Fisher z" if name in _RANGES else "logit"
        out[name] = ConfidenceInterval(low, high, level, PREVALENCE_DELTA.format(scale=scale) + suffix, e,
                                       se_plain if np.isfinite(e) else float("nan"))
    return out


def ap_at_prevalence_interval(neg: Any, pos: Any, prevalence: float, level: float = 0.95, *, squares: Any = None,
                              n_cases: Any = None, tps: Any = None, fps: Any = None) -> ConfidenceInterval:
    """AP at prevalence pi (:func:`clfeval.formulas.prevalence.average_precision_at_prevalence`) with
    its interval: the first-order variance of the step area over the score cells, each class's cells
    multinomial within the class (pi fixed), on the logit scale. NaN without both classes.

    ``neg`` None: one sample per score. ``tps`` and ``fps``: the ranking's cumulative counts, where held
    (they spare the sums). Weighted cases: ``squares`` the sums of squared weights per cell (neg, pos) and
    ``n_cases`` the number of cases (of non-zero weight) of each class (neg, pos); each class's variance is
    then sum g^2 S2 - (sum g W)^2 / n over its cells, and the smoothing adds three cases of the class's mean
    weight (three effective cases: unit weights give the unweighted interval).

    >>> ci = ap_at_prevalence_interval(np.array([0, 1, 0, 1, 3]), np.array([3, 1, 2, 0, 1]), 0.2)
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.6644, 0.1367, 0.6899)
    """
    level = check_level(level)
    pos = np.asarray(pos)
    if neg is not None:
        neg, pos = (x.astype(np.int64) if x.dtype == np.bool_ else x for x in (np.asarray(neg), pos))
    if squares is not None:
        squares = tuple(np.asarray(x, dtype=np.float64) for x in squares)
        n_cases = (float(n_cases[0]), float(n_cases[1]))
    n, p = class_totals(neg, pos)
    if not (n > 0 and p > 0 and np.isfinite(n) and np.isfinite(p)):
        ap = float(average_precision_at_prevalence(neg, pos, prevalence, tps=tps, fps=fps))
        return ConfidenceInterval(float("nan"), float("nan"), level, AP_AT_PREVALENCE, ap, float("nan"))
    ap, se = _ap_and_se(_plain_blocks(neg, pos, tps, fps, squares), prevalence, (n, p),
                        (n, p) if squares is None else n_cases)
    # the interval is formed at the cells smoothed by AP_SMOOTHING cases per class, spread over the cells
    # like the pooled sample: the calibrated precision at the top of the ranking, pi t / (pi t + (1 - pi) f),
    # is far from linear where few negatives score high, and the plain AP is biased upward there
    mean_w = (1.0, 1.0) if squares is None else (n / n_cases[0], p / n_cases[1])  # the classes' mean weights
    cases = (n, p) if squares is None else n_cases
    center, se_smoothed = _ap_and_se(_smoothed_blocks(neg, pos, tps, fps, squares, mean_w), prevalence,
                                     (n + AP_SMOOTHING * mean_w[0], p + AP_SMOOTHING * mean_w[1]),
                                     (cases[0] + AP_SMOOTHING, cases[1] + AP_SMOOTHING))
    if not 0.0 < center < 1.0 or not se_smoothed > 0:
        return ConfidenceInterval(ap, ap, level, AP_AT_PREVALENCE, ap, se)
    low, high = transformed_interval(np.asarray(center), np.asarray(center), np.asarray(se_smoothed),
                                     z_quantile(level), (0.0, 1.0))
    return ConfidenceInterval(float(min(low, ap)), float(max(high, ap)), level, AP_AT_PREVALENCE, ap, se)


# -- AP at pi and its variance in one backward pass over the cells, chunk by chunk -----------------------------------
# With T and F the cumulative positives and negatives in shares of the population at pi (T_D = pi, F_D = 1 - pi),
# K = T + F, prec = T / K and q = pos_pi / (pi K) (pos_pi: a cell's positives in those shares), the gradients of AP
# with respect to the cells at pi are dAP/dpos_e = (prec_e - AP) / pi + A_e and dAP/dneg_e = -B_e, with the tails
# A_e = sum_{d >= e} q_d (1 - prec_d) and B_e = sum_{d >= e} q_d prec_d (:func:`clfeval.uncertainty.influence.
# average_precision_gradients`, at pi). A class's cells enter through its share c = pi / P (or (1 - pi) / N), which
# centres the gradient within the class: the variance is c^2 (sum S (h - m)^2 - (sum W (h - m))^2 / n) with
# h = prec / pi + A (positives) or B (negatives), m the W-weighted mean of h, W the cells' counts or weights, S
# their sums of squared weights (W for counts) and n the class's cases. A cell without positives adds nothing to
# the tails: its negatives have the B of the next cell with positives, so the plain AP's pass reads only the cells
# that hold positives, each with the negatives since the one before.
# Each block (last first) is (TP, FP, pos, neg, pos squares, neg squares, after): cumulative counts and the cells'
# counts (squares None: counts), and ``after`` None or the (weight, squares) of negatives below the block's last cell
# and above the next block's first (their B is the tail carried in).


def _plain_blocks(neg: Any, pos: np.ndarray, tps: Any, fps: Any, squares: Any) -> Iterator[tuple]:
    """The blocks of the plain cells: those that hold positives, with the negatives grouped onto them."""
    for lo, hi, idx, tp, fp, w in positive_cell_chunks(neg, pos, tps, fps, reverse=True):
        m = idx.size
        if neg is None:  # one sample per score: the negatives between consecutive positives are rank gaps
            gaps = np.empty(m)
            if m:
                gaps[0] = idx[0] - lo
                np.subtract(idx[1:], idx[:-1], out=gaps[1:])
                gaps[1:] -= 1.0
            after = float(hi - 1 - idx[-1]) if m else float(hi - lo)
            yield tp, fp, None, gaps, None, None, (after, None)
            continue
        g_neg, after = _grouped(neg[lo:hi], idx - lo)
        if squares is None:
            yield tp, fp, w, g_neg, None, None, (after, None)
        else:
            s_neg, s_after = _grouped(squares[0][lo:hi], idx - lo)
            yield tp, fp, w, g_neg, squares[1][idx], s_neg, (after, s_after)


def _grouped(x: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, float]:
    """(sums of x over (ends[j - 1], ends[j]] (from the start for j = 0), the sum of x after the last end).

    >>> _grouped(np.array([1, 2, 3, 4, 5]), np.array([1, 3]))
    (array([3., 7.]), 5.0)
    """
    if not ends.size:
        return np.zeros(0), float(x.sum())
    stop = int(ends[-1]) + 1
    starts = np.concatenate(([0], ends[:-1] + 1))
    return np.add.reduceat(x[:stop], starts).astype(np.float64), float(x[stop:].sum())


def _smoothed_blocks(neg: Any, pos: np.ndarray, tps: Any, fps: Any, squares: Any,
                     mean_w: tuple[float, float]) -> Iterator[tuple]:
    """The blocks of every cell with AP_SMOOTHING cases of each class's mean weight added, spread like the
    pooled cells, formed block by block from the cumulative counts."""
    d = pos.size
    t_all = np.cumsum(pos) if tps is None else tps
    starts = range(0, d, CHUNK)
    if neg is None:  # one sample per score: cell e (from 1) holds TP_e + FP_e = e cases
        a = AP_SMOOTHING / d
        ranks = np.arange(1.0, min(d, CHUNK) + 1.0)
        for lo in reversed(starts):
            hi = min(d, lo + CHUNK)
            e = ranks[:hi - lo] + float(lo)
            t = t_all[lo:hi]
            tp = e * a
            tp += t
            fp = e * (1.0 + a)
            fp -= t
            pos_s = pos[lo:hi] + a
            yield tp, fp, pos_s, (1.0 + 2.0 * a) - pos_s, None, None, None
        return
    f_all = np.cumsum(neg) if fps is None else fps
    total = float(t_all[-1]) + float(f_all[-1])
    a_n, a_p = AP_SMOOTHING * mean_w[0] / total, AP_SMOOTHING * mean_w[1] / total
    for lo in reversed(starts):
        hi = min(d, lo + CHUNK)
        both = np.add(t_all[lo:hi], f_all[lo:hi], dtype=np.float64)
        tp = both * a_p
        tp += t_all[lo:hi]
        fp = both * a_n
        fp += f_all[lo:hi]
        cell = np.add(pos[lo:hi], neg[lo:hi], dtype=np.float64)
        pos_s, neg_s = pos[lo:hi] + a_p * cell, neg[lo:hi] + a_n * cell
        if squares is None:
            yield tp, fp, pos_s, neg_s, None, None, None
        else:
            yield (tp, fp, pos_s, neg_s, squares[1][lo:hi] + (a_p * mean_w[1]) * cell,
                   squares[0][lo:hi] + (a_n * mean_w[0]) * cell, None)


def _ap_and_se(blocks: Iterator[tuple], prevalence: float, totals: tuple[float, float],
               n_cases: tuple[float, float]) -> tuple[float, float]:
    """(AP at pi, its first-order standard error with each class's cells multinomial within the class), in one
    backward pass over the blocks (the tails carried from block to block). ``totals``: (N, P) of the cells."""
    c_p, c_n = prevalence / totals[1], (1.0 - prevalence) / totals[0]
    carry_a = carry_b = 0.0
    parts = []
    moments: tuple[list, list] = ([], [])
    for tp, fp, pos, neg, sq_pos, sq_neg, after in blocks:
        if after is not None and after[0] > 0:  # negatives below the block: the B carried in
            moments[0].append((after[0], carry_b, 0.0, after[0] if after[1] is None else after[1], 0.0))
        if not tp.size:
            continue
        if not (tp[0] > 0 or fp[0] > 0):  # leading cells of no weight (K = 0) add nothing: left out
            z = int(np.searchsorted(tp + fp, 0.0, side="right"))
            tp, fp, pos, neg, sq_pos, sq_neg = (None if x is None else x[z:]
                                                for x in (tp, fp, pos, neg, sq_pos, sq_neg))
            if not tp.size:
                continue
        prec, k, part = calibrated_precision_sum(tp, fp, pos, c_p, c_n)
        parts.append(part)
        if pos is None:  # q pi: the tails come out times pi, and h as pi h
            q = np.divide(c_p, k)
        else:
            q = np.multiply(pos, c_p)
            q /= k
        b = _tail(np.multiply(q, prec, out=k), carry_b)
        carry_b = float(b[0])
        np.multiply(q, 1.0 - prec, out=q)
        a = _tail(q, carry_a)
        carry_a = float(a[0])
        a += prec
        moments[1].append(_moments(a, pos, sq_pos))
        moments[0].append(_moments(b, neg, sq_neg))
    var = c_p**2 * _merged(moments[1], n_cases[1]) + c_n**2 * _merged(moments[0], n_cases[0])
    return math.fsum(parts) / totals[1], float(np.sqrt(max(var, 0.0))) / prevalence


def _tail(x: np.ndarray, carry: float) -> np.ndarray:
    """x's suffix sums (sum over d >= e), plus ``carry``, in place."""
    rev = x[::-1]
    np.cumsum(rev, out=rev)
    x += carry
    return x


def _moments(h: np.ndarray, w: Any, s: np.ndarray | None) -> tuple[float, float, float, float, float]:
    """(sum W, the W-mean m of h, sum S (h - m)^2, sum S, sum S (h - m)) of one block (S None: W; W None: 1)."""
    if w is None:  # one each
        m = float(h.sum()) / h.size
        h -= m
        return float(h.size), m, float(np.einsum("i,i->", h, h)), float(h.size), 0.0
    sw = float(w.sum())
    if not sw > 0:
        return 0.0, 0.0, 0.0, 0.0 if s is None else float(s.sum()), 0.0
    m = float(np.einsum("i,i->", w, h)) / sw
    h -= m
    if s is None:
        return sw, m, float(np.einsum("i,i,i->", w, h, h)), sw, 0.0
    return sw, m, float(np.einsum("i,i,i->", s, h, h)), float(s.sum()), float(np.einsum("i,i->", s, h))


def _merged(parts: list, n_cases: float) -> float:
    """sum S (h - m)^2 - (sum W (h - m))^2 / n over all blocks, m the overall W-mean (block moments merged)."""
    if not parts:
        return 0.0
    sw, m, q, ss, ls = (np.array(x) for x in zip(*parts, strict=True))
    total = float(sw.sum())
    if not total > 0:
        return 0.0
    shift = m - float(np.dot(sw, m)) / total
    shift[sw == 0] = 0.0
    squares = float(q.sum() + 2.0 * np.dot(shift, ls) + np.dot(shift * shift, ss))
    return squares - float(np.dot(sw, shift)) ** 2 / n_cases


def prg_auc_interval(neg: Any, pos: Any, level: float = 0.95, *, squares: Any = None,
                     n_cases: float | None = None, cum_pos: Any = None) -> ConfidenceInterval:
    """The area under the PRG curve (:func:`clfeval.formulas.prg.prg_area`) with the interval estimate +/- t se:
    se from its first-order variance over all score cells (multinomial, cross-sectional; the exact
    gradient :func:`clfeval.formulas.prg.prg_area_gradients`), t the quantile of min(P, N) - 1 degrees of
    freedom, capped at 1 (a perfect ranking). NaN without both classes. Weighted cases: ``squares`` the
    sums of squared weights per cell (neg, pos) and ``n_cases`` the number of cases; the variance is then
    sum g^2 S2 - (sum g W)^2 / n over the cells, and the degrees of freedom Kish's effective numbers.
    ``cum_pos``: the cumulative positives down the ranking, if known (a ranking's ``tps``; unweighted).
    The unweighted variance is :func:`clfeval.formulas.prg.prg_area_variance` (one case per cell: read
    off the positives past the curve's start).

    >>> ci = prg_auc_interval(np.array([0, 1, 0, 1, 3]), np.array([3, 1, 2, 0, 1]))
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.608, -0.1054, 1.0)
    """
    level = check_level(level)
    if squares is None:  # no array of gradients (one case per cell: read off the positives alone)
        area, var = prg_area_variance(neg, pos, cum_pos=cum_pos)
        g_neg = g_pos = None
    else:
        pos = np.asarray(pos, dtype=np.float64)
        neg = 1.0 - pos if neg is None else np.asarray(neg, dtype=np.float64)
        area, g_neg, g_pos = prg_area_gradients(neg, pos)
    if not np.isfinite(area):
        return ConfidenceInterval(float("nan"), float("nan"), level, PRG_AUC_METHOD, float("nan"), float("nan"))
    from scipy.stats import t as student_t

    if squares is None:
        se = float(np.sqrt(var))
        p_eff = float(cum_pos[-1]) if cum_pos is not None else _class_total(pos)
        n_eff = float(np.asarray(pos).size) - p_eff if neg is None else _class_total(neg)
    else:
        sq_neg, sq_pos = (np.asarray(x, dtype=np.float64) for x in squares)
        s1 = float(np.dot(g_neg, neg) + np.dot(g_pos, pos))
        s2 = float(np.dot(g_neg**2, sq_neg) + np.dot(g_pos**2, sq_pos))
        n = float(n_cases) if n_cases is not None else float(neg.sum() + pos.sum())
        se = float(np.sqrt(max(s2 - s1**2 / n, 0.0)))
        p_eff = float(pos.sum()) ** 2 / float(sq_pos.sum()) if sq_pos.sum() > 0 else 0.0
        n_eff = float(neg.sum()) ** 2 / float(sq_neg.sum()) if sq_neg.sum() > 0 else 0.0
    df = max(min(p_eff, n_eff) - 1.0, 1.0)  # as AP's interval: few cases of a class widen it
    half = float(student_t.ppf(0.5 + level / 2.0, df)) * se
    return ConfidenceInterval(area - half, min(area + half, 1.0), level, PRG_AUC_METHOD, area, se)


def _class_total(cells: Any) -> float:
    """The sum of one class's cells (boolean: a count, no float copy)."""
    cells = np.asarray(cells)
    return float(np.count_nonzero(cells)) if cells.dtype == np.bool_ else float(np.sum(cells, dtype=np.float64))
