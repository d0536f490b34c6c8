"""Bootstrap intervals of the ranking measures, ROC AUC and average precision, from score cells.

:func:`ranking_intervals` resamples a BinaryRanking's counts per distinct score;
:func:`auc_leave_one_out` gives BCa's jackknife of the AUC in closed form. The report's own
intervals of the areas are in :mod:`clfeval.uncertainty.area_intervals`.

>>> values, weights = auc_leave_one_out(np.array([[0, 1, 1], [1, 1, 0]]))  # AUC 0.875
>>> values.round(4).tolist(), weights.tolist()
([1.0, 0.75, 0.75, 1.0], [1.0, 1.0, 1.0, 1.0])
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from clfeval.formulas.curves import average_precision, roc_auc
from clfeval.uncertainty.resampling import check_sampling
from clfeval.stats._result import ConfidenceInterval, check_level
from clfeval.uncertainty.bootstrap import (
    bootstrap_method_name,
    interval_from_replicates,
    jackknife,
    jackknife_acceleration,
    ranking_cells,
    replicates,
    warn_undefined,
)
from clfeval.uncertainty.checks import check_choice, check_resamples, float_or_array

__all__ = ["auc_leave_one_out", "ranking_intervals"]


def _auc_stat(t: np.ndarray) -> np.ndarray:
    return np.asarray(roc_auc(t[:, 0], t[:, 1]), dtype=np.float64)


def _ap_stat(t: np.ndarray) -> np.ndarray:
    return np.asarray(average_precision(t[:, 0], t[:, 1]), dtype=np.float64)


def auc_leave_one_out(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Closed-form leave-one-out AUCs (one per non-empty cell) and their weights, for BCa.

    ``cells``: the (2, D) table [negatives; positives] per score, highest first.

    U counts (positive, negative) pairs with the positive ranked higher (ties half). Dropping a
    positive at score s removes the negatives below it plus half those tied at s; dropping a
    negative removes the positives above it plus half those tied.

    Parameters
    ----------
    cells : numpy.ndarray of shape (2, D)
        Counts of negatives (row 0) and positives (row 1) at each distinct score, highest first.

    Returns
    -------
    values : numpy.ndarray
        The AUC with one case left out, for each non-empty cell: negative cells first, then
        positive cells.
    weights : numpy.ndarray
        The count of each of those cells (how many cases each value stands for).

    Examples
    --------
    >>> values, weights = auc_leave_one_out(np.array([[0, 1, 1], [1, 1, 0]]))  # AUC 0.875
    >>> values.round(4).tolist(), weights.tolist()
    ([1.0, 0.75, 0.75, 1.0], [1.0, 1.0, 1.0, 1.0])
    """
    neg, pos = cells.astype(np.float64)
    N, P = neg.sum(), pos.sum()
    fps, tps = np.cumsum(neg), np.cumsum(pos)
    U = float((neg * (tps - pos)).sum() + 0.5 * (neg * pos).sum())  # negatives x positives above
    # U as written counts, for each negative, the positives strictly above it plus half the tied
    with np.errstate(invalid="ignore", divide="ignore"):
        drop_pos = (U - (N - fps) - 0.5 * neg) / ((P - 1) * N)
        drop_neg = (U - (tps - pos) - 0.5 * pos) / (P * (N - 1))
    values = np.concatenate([drop_neg[neg > 0], drop_pos[pos > 0]])
    weights = np.concatenate([neg[neg > 0], pos[pos > 0]])
    return values, weights


def ranking_intervals(
    ranking: Any,
    *,
    level: float = 0.95,
    method: Literal["bootstrap"] = "bootstrap",
    interval: Literal["percentile", "bca"] = "percentile",
    n_resamples: int = 2000,
    seed: Any = 0,
    sampling: str = "cross-sectional",
    stratify: bool | None = None,
) -> dict[str, ConfidenceInterval]:
    """Bootstrap intervals of ROC AUC and average precision of a BinaryRanking.

    Returns ``{"roc_auc": ConfidenceInterval, "average_precision": ConfidenceInterval}``, both
    from the same replicates: the counts redrawn multinomially over the distinct scores, all
    together (``sampling="cross-sectional"``) or each class with its own total ("stratified").
    ``interval="bca"`` takes ROC AUC's jackknife in closed form (from the Mann-Whitney
    placements) and AP's over the score cells. These are the plain percentile and BCa intervals;
    the report's intervals of the areas, chosen by their coverage, are
    :func:`clfeval.uncertainty.area_intervals.ranking_area_intervals`. Cost: B x (number of distinct scores).

    Parameters
    ----------
    ranking : BinaryRanking or array-like of shape (2, D)
        Counts of negatives and positives at each of D distinct scores, highest score first.
    level : float, default 0.95
        Confidence level, between 0 and 1.
    method : {"bootstrap"}, default "bootstrap"
        The only method offered here (DeLong's interval is :func:`clfeval.stats.delong_auc_ci`).
    interval : {"percentile", "bca"}, default "percentile"
        Kind of bootstrap interval.
    n_resamples : int, default 2000
        Number of bootstrap replicates B.
    seed : int, numpy.random.Generator or None, default 0
        Seed of the random stream (anything ``numpy.random.default_rng`` accepts); the fixed
        default makes repeated calls agree.
    sampling : {"cross-sectional", "stratified"}, default "cross-sectional"
        Redraw all score cells together, or each class with its own total.
    stratify : bool, optional
        Deprecated spelling of ``sampling`` (True means "stratified"); it warns. Default None.

    Returns
    -------
    dict of str to ConfidenceInterval
        The intervals of ``"roc_auc"`` and ``"average_precision"``.

    References
    ----------
    .. [1] Efron, B. (1987). Better bootstrap confidence intervals. Journal of the American
       Statistical Association, 82(397), 171-185.

    Examples
    --------
    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.arange(8.0)[::-1], None, np.array([1, 1, 0, 1, 0, 1, 0, 0], bool))
    >>> d = ranking_intervals(r, n_resamples=500, seed=3)
    >>> round(d["roc_auc"].estimate, 4), d["roc_auc"].low <= 0.8125 <= d["roc_auc"].high
    (0.8125, True)
    """
    level = check_level(level)
    if method == "delong":
        raise ValueError("method='delong' lives in clfeval.stats.delong.delong_auc_ci; here method='bootstrap'.")
    check_choice(method, ("bootstrap",), "method")
    check_choice(interval, ("percentile", "bca"), "interval")
    sampling = check_sampling(sampling, stratify)
    n_resamples = check_resamples(n_resamples)
    cells = ranking_cells(ranking)

    def both(t: np.ndarray) -> dict[str, np.ndarray]:
        return {"roc_auc": _auc_stat(t), "average_precision": _ap_stat(t)}

    est = both(cells[None])
    reps = replicates(both, cells, n_resamples, seed, sampling)
    accel: dict[str, np.ndarray] = {}
    if interval == "bca":
        loo, w = auc_leave_one_out(cells)
        accel["roc_auc"] = jackknife_acceleration(loo[:, None], w)
        loo_ap, w_ap = jackknife(_ap_stat, cells)
        accel["average_precision"] = jackknife_acceleration(loo_ap[:, None], w_ap)
    name = bootstrap_method_name(interval, n_resamples, sampling, ranking=True)
    out = {}
    for key, r in reps.items():
        low, high, undefined = interval_from_replicates(r, est[key][0], level, interval, accel.get(key))
        warn_undefined(int(undefined.sum()), r.size, key)
        out[key] = ConfidenceInterval(float_or_array(low), float_or_array(high), level, name, float(est[key][0]))
    return out
