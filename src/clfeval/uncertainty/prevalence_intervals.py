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
negatives: the plain AP is biased upward there).
Weighted cases: P and N are Kish's effective numbers of cases.

The area under the PRG curve (:func:`prg_auc_interval`): the first-order variance over all score cells
(cross-sectional: pi is the sample's share and varies with it), estimate +/- t se with the t quantile of
min(P, N) - 1 degrees of freedom (as AP's interval), capped at 1.

>>> ci = prevalence_intervals(40, 5, 10, 45, 0.1)
>>> round(ci["precision"].estimate, 4), round(ci["precision"].low, 4), round(ci["precision"].high, 4)
(0.4706, 0.2851, 0.6646)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.formulas.prevalence import (
    average_precision_at_prevalence,
    measure_gradients_at_prevalence,
    measures_at_prevalence,
    prevalence_weights,
)
from clfeval.formulas.prg import prg_area_gradients
from clfeval.stats._result import ConfidenceInterval, check_level
from clfeval.uncertainty.checks import z_quantile
from clfeval.uncertainty.proportions import KISH, kish_counts, proportion_ci
from clfeval.uncertainty.scales import transformed_interval

__all__ = ["PREVALENCE_DELTA", "AP_AT_PREVALENCE", "AP_SMOOTHING", "PRG_AUC_METHOD", "prevalence_intervals",
           "ap_at_prevalence_interval", "prg_auc_interval"]

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


def ap_at_prevalence_interval(neg: Any, pos: Any, prevalence: float, level: float = 0.95) -> ConfidenceInterval:
    """AP at prevalence pi (:func:`clfeval.formulas.prevalence.average_precision_at_prevalence`) with
    its interval: the first-order variance of the step area over the score cells, each class's cells
    multinomial within the class (pi fixed), on the logit scale. NaN without both classes.

    >>> ci = ap_at_prevalence_interval(np.array([0, 1, 0, 1, 3]), np.array([3, 1, 2, 0, 1]), 0.2)
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.6644, 0.1367, 0.6899)
    """
    level = check_level(level)
    pos = np.asarray(pos, dtype=np.float64)
    neg = 1.0 - pos if neg is None else np.asarray(neg, dtype=np.float64)
    p, n = float(pos.sum()), float(neg.sum())
    ap = float(average_precision_at_prevalence(neg, pos, prevalence))
    if not (p > 0 and n > 0):
        return ConfidenceInterval(float("nan"), float("nan"), level, AP_AT_PREVALENCE, float("nan"), float("nan"))
    # the interval is formed at the cells smoothed by AP_SMOOTHING cases per class, spread over the cells
    # like the pooled sample: the calibrated precision at the top of the ranking, pi t / (pi t + (1 - pi) f),
    # is far from linear where few negatives score high, and the plain AP is biased upward there
    pooled = (neg + pos) / (n + p)
    center, se_smoothed = _ap_and_se(neg + AP_SMOOTHING * pooled, pos + AP_SMOOTHING * pooled, prevalence)
    se = _ap_and_se(neg, pos, prevalence)[1]
    if not 0.0 < center < 1.0 or not se_smoothed > 0:
        return ConfidenceInterval(ap, ap, level, AP_AT_PREVALENCE, ap, se)
    low, high = transformed_interval(np.asarray(center), np.asarray(center), np.asarray(se_smoothed),
                                     z_quantile(level), (0.0, 1.0))
    return ConfidenceInterval(float(min(low, ap)), float(max(high, ap)), level, AP_AT_PREVALENCE, ap, se)


def _ap_and_se(neg: np.ndarray, pos: np.ndarray, prevalence: float) -> tuple[float, float]:
    """(AP at pi, its first-order standard error with each class's cells multinomial within the class)."""
    from clfeval.uncertainty.influence import average_precision_gradients

    p, n = float(pos.sum()), float(neg.sum())
    w_neg, w_pos = prevalence_weights(neg, pos, prevalence)
    ap, g_wneg, g_wpos = average_precision_gradients(w_neg, w_pos)
    c_n, c_p = (1.0 - prevalence) / n, prevalence / p
    # d/d neg_e of AP(neg c_n(N), pos c_p(P)): c_n dAP/dw_e - (c_n / N) sum_j dAP/dw_j neg_j (the same for pos)
    g_neg = c_n * g_wneg - c_n / n * float(np.dot(g_wneg, neg))
    g_pos = c_p * g_wpos - c_p / p * float(np.dot(g_wpos, pos))
    var = (float(np.dot(neg, g_neg**2)) - float(np.dot(neg, g_neg)) ** 2 / n
           + float(np.dot(pos, g_pos**2)) - float(np.dot(pos, g_pos)) ** 2 / p)
    return float(ap), float(np.sqrt(max(var, 0.0)))


def prg_auc_interval(neg: Any, pos: Any, level: float = 0.95, *, squares: Any = None,
                     n_cases: float | None = None) -> ConfidenceInterval:
    """The area under the PRG curve (:func:`clfeval.formulas.prg.prg_area`) with the interval estimate +/- t se:
    se from its first-order variance over all score cells (multinomial, cross-sectional; the exact
    gradient :func:`clfeval.formulas.prg.prg_area_gradients`), t the quantile of min(P, N) - 1 degrees of
    freedom, capped at 1 (a perfect ranking). NaN without both classes. Weighted cases: ``squares`` the
    sums of squared weights per cell (neg, pos) and ``n_cases`` the number of cases; the variance is then
    sum g^2 S2 - (sum g W)^2 / n over the cells, and the degrees of freedom Kish's effective numbers.

    >>> ci = prg_auc_interval(np.array([0, 1, 0, 1, 3]), np.array([3, 1, 2, 0, 1]))
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.608, -0.1054, 1.0)
    """
    from clfeval.uncertainty.influence import cell_variance

    level = check_level(level)
    pos = np.asarray(pos, dtype=np.float64)
    neg = 1.0 - pos if neg is None else np.asarray(neg, dtype=np.float64)
    area, g_neg, g_pos = prg_area_gradients(neg, pos)
    if not np.isfinite(area):
        return ConfidenceInterval(float("nan"), float("nan"), level, PRG_AUC_METHOD, float("nan"), float("nan"))
    from scipy.stats import t as student_t

    if squares is None:
        se = float(np.sqrt(cell_variance(neg, pos, g_neg, g_pos)))
        p_eff, n_eff = float(pos.sum()), float(neg.sum())
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
