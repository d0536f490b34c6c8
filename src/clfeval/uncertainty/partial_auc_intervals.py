"""Confidence intervals of a partial ROC area (over a range of FPR or of TPR), from a ranking's counts.

pROC bootstraps the partial AUC; here it gets a DeLong-type variance instead, from the exact
first-order components of the partial area (:mod:`clfeval.formulas.partial_placements`): one
component per score for the positives and one for the negatives, Var = s²(V10)/m + s²(V01)/n,
which over [0, 1] is DeLong's variance. Read from the per-score counts of a
:class:`~clfeval.statistics.rankings.BinaryRanking` (no pass over rows), so it works on a
streamed or merged evaluation too; weights count as frequencies, as in
:func:`clfeval.uncertainty.area_intervals.delong_variances`.

The interval is formed on the logit scale of the area's share of its range, A / (b - a), with a
t quantile on min(P, N_in) - 1 degrees of freedom, N_in the cases of the range's own axis inside
it (negatives for an FPR range, positives for a TPR range) and P the cases of the other class:
the normal interval on the raw area covered 79-94% (n = 50 to 1000) in the simulation of
``tests/test_partial_auc_coverage.py``, this one 93-97% where each class has 20 expected cases
in range. At a share of 1 (every positive above every negative of the range) or 0 the far bound
is the Hanley-McNeil score bound with those counts, as :func:`logit_delong_interval` does for the
AUC. McClish's standardisation is a line through the raw area: its estimate, bounds and standard
error follow the raw ones (a bound below 0.5 is read on scikit-learn's extension of the line
below chance; the estimate is NaN there, as :func:`clfeval.metrics.partial_auc` says).

>>> from clfeval.statistics.rankings import BinaryRanking
>>> r = BinaryRanking(np.arange(10.0)[::-1], None, np.array([1, 1, 0, 1, 1, 0, 1, 0, 0, 0], bool))
>>> ci = partial_auc_interval(r, fpr_range=(0.0, 0.4), standardized=False)
>>> round(ci.estimate, 4), round(ci.standard_error, 4), round(ci.low, 4), round(ci.high, 4)
(0.24, 0.1225, 0.0, 0.4)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from clfeval.formulas.curves import mcclish_standardized, partial_roc_area
from clfeval.formulas.partial_placements import (
    partial_area_and_variance,
    partial_area_variance,
    partial_placement_values,
)
from clfeval.inputs.partial_ranges import partial_range
from clfeval.stats._result import ConfidenceInterval, check_level
from clfeval.uncertainty.area_intervals import hanley_mcneil_bound
from clfeval.uncertainty.scales import logit_interval

__all__ = ["PARTIAL_DELONG", "PARTIAL_INFLUENCE", "interval_of_partial_area", "partial_auc_case_influences",
           "partial_auc_components", "partial_auc_interval", "partial_auc_variance"]

PARTIAL_DELONG = "DeLong-type (partial-area placements), logit scale of A / (b - a), t(min(P, N in range) - 1) quantile"
PARTIAL_INFLUENCE = ("DeLong-type from each case's influence (weighted cases; micro: a case's columns together), "
                     "Kish (m - 1) scaling, logit scale of A / (b - a), t(min(P, N in range) - 1) quantile")


def _counts(ranking: Any) -> tuple[np.ndarray, np.ndarray]:
    pos = np.asarray(ranking.pos, dtype=np.float64)
    neg = 1.0 - pos if ranking.neg is None else np.asarray(ranking.neg, dtype=np.float64)
    return neg, pos


def partial_auc_components(ranking: Any, axis: str, lo: float, hi: float
                           ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(raw partial area, V10 per score, V01 per score, negatives per score, positives per score)
    of a ranking; the area is the polyline's (as :func:`clfeval.metrics.partial_auc` computes it, to rounding).

    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.array([0.9, 0.4]), np.array([0, 1]), np.array([1, 1]))
    >>> area, v10, v01, neg, pos = partial_auc_components(r, "fpr", 0.0, 1.0)
    >>> area, v10.tolist(), v01.tolist()
    (0.75, [1.0, 0.5], [0.25, 0.75])
    """
    neg, pos = _counts(ranking)
    area, v10, v01 = partial_placement_values(neg, pos, lo, hi, axis)  # the positives' mean V10: the polyline's area
    return float(area), v10, v01, neg, pos


def partial_auc_variance(ranking: Any, *, fpr_range: Any = None, tpr_range: Any = None) -> tuple[float, float]:
    """(raw partial area, its DeLong-type variance); the variance is NaN below 2 cases of a class.

    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.array([0.9, 0.8, 0.7, 0.6, 0.5]), np.array([0, 1, 0, 1, 1]), np.array([1, 0, 1, 1, 0]))
    >>> [round(v, 4) for v in partial_auc_variance(r, fpr_range=(0, 1))]  # DeLong's: delong_variance(r)
    [0.7222, 0.0617]
    """
    axis, lo, hi = partial_range(fpr_range, tpr_range)
    area, v10, v01, neg, pos = partial_auc_components(ranking, axis, lo, hi)
    return area, partial_area_variance(neg, pos, v10, v01)


def _t_quantile(level: float, df: float) -> float:
    from scipy.stats import t

    return float(t.ppf(0.5 + level / 2, df))


def _share_bounds(share: float, se: float, inside: float, other: float, level: float) -> tuple[float, float]:
    """Bounds of the area's share of its range, A / (b - a), with the share's standard error."""
    q = _t_quantile(level, max(min(inside, other) - 1.0, 1.0))
    if se > 0 and 0.0 < share < 1.0:
        return logit_interval(share, se, q)
    if share in (0.0, 1.0):
        # an AUC of the P cases of the other class against the N_in cases inside the range
        bound = hanley_mcneil_bound(max(other, 1.0), max(inside, 1.0), q)
        return (bound, 1.0) if share == 1.0 else (0.0, 1.0 - bound)
    return share, share  # every component equal: no spread


def partial_auc_interval(
    ranking: Any, *, fpr_range: Any = None, tpr_range: Any = None, standardized: bool = True, level: float = 0.95,
) -> ConfidenceInterval:
    """The partial ROC area over ``fpr_range=(a, b)`` or ``tpr_range=(a, b)`` of a ranking, with
    its DeLong-type interval and standard error (see the module's description).

    Parameters
    ----------
    ranking : BinaryRanking
        Per-score counts of one class against the rest (``Evaluation.ranking(name)``).
    fpr_range, tpr_range : tuple of two floats
        ``(a, b)`` with 0 <= a < b <= 1 on one axis; give exactly one.
    standardized : bool, default=True
        McClish's standardisation (chance 0.5, perfect 1), as :func:`clfeval.metrics.partial_auc`.
    level : float, default=0.95
        Confidence level, between 0 and 1.

    Returns
    -------
    ConfidenceInterval
        ``estimate`` (the partial area, equal to :func:`clfeval.metrics.partial_auc`),
        ``standard_error``, ``low``, ``high``; NaN bounds below 2 cases of a class.

    Examples
    --------
    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.arange(10.0)[::-1], None, np.array([1, 1, 0, 1, 1, 0, 1, 0, 0, 0], bool))
    >>> ci = partial_auc_interval(r, tpr_range=(0.5, 1.0))
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.8133, 0.3364, 0.9995)
    """
    axis, lo, hi = partial_range(fpr_range, tpr_range)
    level = check_level(level)
    # the ranking's cumulative counts (cached there): only the scores inside the range are read
    cum = {"cum_neg": None if ranking.neg is None else ranking.fps, "cum_pos": ranking.tps} if axis == "fpr" else {}
    area, var = partial_area_and_variance(ranking.neg, ranking.pos, lo, hi, axis, **cum)
    n, m = ranking.totals
    return interval_of_partial_area(area, var, axis, lo, hi, (m, n), level=level, standardized=standardized)


def interval_of_partial_area(area: float, var: float, axis: str, lo: float, hi: float, cases: tuple[float, float],
                             *, level: float, standardized: bool, method: str = PARTIAL_DELONG) -> ConfidenceInterval:
    """The interval of a raw partial area ``area`` with variance ``var`` (see the module's
    description); ``cases``: (positives, negatives), which give the t quantile's degrees of freedom.

    >>> ci = interval_of_partial_area(0.05, 0.0001, "fpr", 0.0, 0.1, (50.0, 100.0), level=0.95, standardized=False)
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.0288, 0.0712)
    """
    if not isinstance(standardized, bool):
        raise ValueError(f"standardized must be True or False, got {standardized!r}.")
    se = float(np.sqrt(var)) if not math.isnan(var) else float("nan")
    width = hi - lo
    m, n = cases
    inside, other = (n * width, m) if axis == "fpr" else (m * width, n)
    if np.isfinite(se) and not math.isnan(area):
        low, high = (width * b for b in _share_bounds(min(max(area / width, 0.0), 1.0), se / width, inside, other,
                                                       level))
    else:
        low = high = float("nan")
    if not standardized:
        return ConfidenceInterval(float(low), float(high), level, method, area, se)
    _, chance, perfect = partial_roc_area(np.array([0.0, 1.0]), np.array([0.0, 1.0]), lo, hi, axis)
    estimate = float("nan") if math.isnan(area) else mcclish_standardized(area, chance, perfect)
    low, high = (float("nan") if math.isnan(b) else mcclish_standardized(b, chance, perfect, below_chance=True)
                 for b in (low, high))
    return ConfidenceInterval(low, high, level, method + ", McClish-standardised", estimate,
                              0.5 * se / (perfect - chance))


def partial_auc_case_influences(cases: Any, columns: list[int], ranking: Any, axis: str, lo: float, hi: float
                                ) -> tuple[float, np.ndarray, tuple[float, float]]:
    """(raw partial area, each case's influence u_i, (positive cases, negative cases)) for weighted
    cases: u_i = w_i times the area's exact gradient at the cell of case i
    (:mod:`clfeval.uncertainty.influence`), summed over the score ``columns`` the ranking pools
    (one class: one column; micro: every column), each side scaled by sqrt(k / (k - 1)), k its
    Kish effective size, so that unit weights give DeLong's (m - 1, n - 1) variance exactly:
    Var = sum u_i² - (sum u_i)² / n.

    >>> from clfeval.uncertainty.influence import Cases
    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> c = Cases(np.array([0, 1, 1, 0]), None, np.array([0.2, 0.9, 0.6, 0.7]), np.array([1.0, 2.0, 1.0, 1.0]))
    >>> r = BinaryRanking(np.array([0.9, 0.7, 0.6, 0.2]), np.array([0.0, 1.0, 0.0, 1.0]), np.array([2.0, 0.0, 1.0, 0.0]))
    >>> area, u, counts = partial_auc_case_influences(c, [1], r, "fpr", 0.0, 1.0)
    >>> round(area, 4), counts
    (0.8333, (2.0, 2.0))
    """
    from clfeval.uncertainty.influence import cells_of_scores

    neg, pos = _counts(ranking)
    area, v10, v01 = partial_placement_values(neg, pos, lo, hi, axis)
    big_m, big_n = pos.sum(), neg.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        g_pos, g_neg = (v10 - pos @ v10 / big_m) / big_m, (v01 - neg @ v01 / big_n) / big_n
    w = np.ones(cases.n) if cases.weight is None else np.asarray(cases.weight, dtype=np.float64)
    member = [cases.is_positive(c) for c in columns]
    sums = np.zeros((2, 2))  # [positive, negative] x [sum w, sum w²], over the pooled columns
    counts = [0.0, 0.0]
    for is_pos in member:
        for side, mask in enumerate((is_pos, ~is_pos)):
            sums[side] += (w[mask].sum(), (w[mask] ** 2).sum())
            counts[side] += float(np.count_nonzero(w[mask] > 0))
    with np.errstate(invalid="ignore", divide="ignore"):
        kish = sums[:, 0] ** 2 / sums[:, 1]
        scale = np.sqrt(kish / (kish - 1))
    u = np.zeros(cases.n)
    for c, is_pos in zip(columns, member):
        idx = cells_of_scores(ranking, cases.column(c))
        u += np.where(is_pos, g_pos[idx] * scale[0], g_neg[idx] * scale[1])
    return float(area), u * w, (counts[0], counts[1])
