"""The bootstrap over the cells of a count table: replicates, jackknife, percentile and BCa intervals.

A bootstrap is a batch of resampled count tables, multinomial over the cells
(:mod:`clfeval.uncertainty.resampling`: all cells together, or each true class with its own total), that the
vectorised formulas of :mod:`clfeval.formulas.measures` and :mod:`clfeval.formulas.curves` read all at once.
:func:`bootstrap_confusion` and :func:`bootstrap_ranking` return the replicates;
:func:`bootstrap_ci` the percentile or BCa interval of any vectorised statistic, from
:func:`replicates`, :func:`jackknife` (over the cells) and :func:`interval_from_replicates`.

>>> reps = bootstrap_confusion(np.array([[8, 2], [1, 9]]), 3, seed=0)
>>> reps.shape, reps.sum(axis=(1, 2)).tolist()
((3, 2, 2), [20, 20, 20])
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from clfeval.exceptions import UndefinedMetricWarning
from clfeval.uncertainty.resampling import CHUNK_ELEMENTS, check_sampling, resampled_tables, sampling_phrase
from clfeval.stats._result import ConfidenceInterval, check_level
from clfeval.uncertainty.checks import check_choice, check_resamples, float_or_array, normal_quantile
from clfeval.uncertainty.confusion_measures import check_table

__all__ = [
    "bootstrap_confusion",
    "bootstrap_ranking",
    "bootstrap_ci",
    "interval_from_replicates",
    "jackknife_acceleration",
    "jackknife",
    "replicates",
    "integer_cells",
    "ranking_cells",
    "bootstrap_method_name",
    "warn_undefined",
]


#: what to do instead, where non-integer weights meet a bootstrap of counts (the default advice)
ANALYTIC_INSTEAD = ("use method='analytic' (delta method and proportion intervals accept weights) or "
                    "resample the weighted rows yourself.")


def integer_cells(cells: np.ndarray, what: str, instead: str = ANALYTIC_INSTEAD) -> np.ndarray:
    """``cells`` as int64 counts; a ValueError naming ``what`` (and ``instead``: what to do instead)
    if any is a non-integer weight.

    >>> integer_cells(np.array([[2.0, 1.0], [0.0, 3.0]]), "the table").tolist()
    [[2, 1], [0, 3]]
    """
    if cells.dtype.kind == "f":
        if not np.array_equal(cells, np.round(cells)):
            raise ValueError(
                f"the bootstrap resamples {what} as counts, but these are non-integer weights; {instead}"
            )
        cells = np.round(cells)
    return cells.astype(np.int64)


def bootstrap_confusion(
    cm: Any, n_resamples: int = 2000, *, seed: Any = None, sampling: str = "cross-sectional",
    stratify: bool | None = None,
) -> np.ndarray:
    """``n_resamples`` bootstrap replicates of a (k, k) confusion table, as a (B, k, k) int64 array.

    Each replicate is a multinomial draw over the cells (:mod:`clfeval.uncertainty.resampling`): with
    ``sampling="cross-sectional"`` (the default) all cells together with the grand total, so
    class supports vary as they do between test sets; with "stratified" each row (true class)
    with its own total. ``stratify`` is the deprecated spelling (True: "stratified"). Same
    ``seed``, same replicates. Any formula of :mod:`clfeval.formulas.measures` then evaluates every
    replicate in one call.

    Parameters
    ----------
    cm : array-like of shape (k, k)
        The confusion table of integer counts (rows true classes, columns predictions).
    n_resamples : int, default 2000
        Number of replicates B.
    seed : int, numpy.random.Generator or None, default None
        Seed of the random stream (anything ``numpy.random.default_rng`` accepts); the same
        seed gives the same replicates.
    sampling : {"cross-sectional", "stratified"}, default "cross-sectional"
        Redraw all cells together with the grand total, or each class with its own total.
    stratify : bool, optional
        Deprecated spelling of ``sampling`` (True means "stratified"); it warns. Default None.

    Returns
    -------
    numpy.ndarray of shape (n_resamples, k, k)
        The resampled tables, int64.

    Examples
    --------
    >>> reps = bootstrap_confusion(np.array([[8, 2], [1, 9]]), 5, seed=0, sampling="stratified")
    >>> reps.shape, reps.sum(axis=2)[:, 0].tolist()
    ((5, 2, 2), [10, 10, 10, 10, 10])
    """
    sampling = check_sampling(sampling, stratify)
    table, _ = check_table(cm, batch=False)
    table = integer_cells(table, "the confusion table")
    n_resamples = check_resamples(n_resamples)
    rng = np.random.default_rng(seed)
    return np.concatenate(list(resampled_tables(table, n_resamples, rng, sampling)), axis=0)


def ranking_cells(ranking: Any) -> np.ndarray:
    """The (2, D) table [negatives; positives] of a BinaryRanking (or a (2, D) array), as int64
    counts per score, highest score first; a ValueError if a class is empty.

    >>> ranking_cells(np.array([[0, 1, 2], [2, 1, 0]])).tolist()
    [[0, 1, 2], [2, 1, 0]]
    """
    if hasattr(ranking, "pos") and hasattr(ranking, "negatives"):
        pos = np.asarray(ranking.pos)
        neg = np.asarray(ranking.negatives())
        cells = np.stack([neg.astype(np.float64 if neg.dtype.kind == "f" else np.int64),
                          pos.astype(np.float64 if pos.dtype.kind == "f" else np.int64)])
    else:
        cells = np.asarray(ranking)
        if cells.ndim != 2 or cells.shape[0] != 2:
            raise ValueError(
                f"expected a BinaryRanking or a (2, D) array of [negative; positive] counts per score "
                f"(highest score first), got shape {cells.shape}."
            )
    if cells.shape[1] == 0:
        raise ValueError("the ranking is empty: there are no scores.")
    if cells.dtype.kind == "f" and not np.isfinite(cells).all():
        raise ValueError("the ranking's counts must be finite.")
    if (cells < 0).any():
        raise ValueError("the ranking's counts must be non-negative.")
    totals = cells.sum(axis=1)
    if (totals == 0).any():
        side = "negatives" if totals[0] == 0 else "positives"
        raise ValueError(f"the ranking has no {side}: ROC AUC and the curves are undefined (0/0).")
    return integer_cells(cells, "the ranking's score counts")


def bootstrap_ranking(
    ranking: Any, n_resamples: int = 2000, *, seed: Any = None, sampling: str = "cross-sectional",
    stratify: bool | None = None,
) -> np.ndarray:
    """Bootstrap replicates of a ranking's per-score counts, (B, 2, D): [:, 0] negatives, [:, 1] positives.

    All score cells are redrawn together (``sampling="cross-sectional"``, the default), or each
    class with its own total ("stratified"; ``stratify=True`` is the deprecated spelling); scores
    keep their order, so ``curves.roc_auc(reps[:, 0], reps[:, 1])`` gives
    every replicate's AUC at once. Memory is B x 2 x D counts: for long rankings use
    :func:`ranking_intervals` or :func:`bootstrap_ci`, which stream the replicates.

    Parameters
    ----------
    ranking : BinaryRanking or array-like of shape (2, D)
        Counts of negatives and positives at each of D distinct scores, highest score first.
    n_resamples : int, default 2000
        Number of replicates B.
    seed : int, numpy.random.Generator or None, default None
        Seed of the random stream (anything ``numpy.random.default_rng`` accepts); the same
        seed gives the same replicates.
    sampling : {"cross-sectional", "stratified"}, default "cross-sectional"
        Redraw all cells together with the grand total, or each class with its own total.
    stratify : bool, optional
        Deprecated spelling of ``sampling`` (True means "stratified"); it warns. Default None.

    Returns
    -------
    numpy.ndarray of shape (n_resamples, 2, D)
        The resampled per-score counts, int64: negatives in ``[:, 0]``, positives in ``[:, 1]``.

    Examples
    --------
    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.array([0.9, 0.5, 0.1]), np.array([0, 1, 2]), np.array([2, 1, 0]))
    >>> bootstrap_ranking(r, 3, seed=1, sampling="stratified").sum(axis=2).tolist()
    [[3, 3], [3, 3], [3, 3]]
    """
    sampling = check_sampling(sampling, stratify)
    cells = ranking_cells(ranking)
    n_resamples = check_resamples(n_resamples)
    rng = np.random.default_rng(seed)
    return np.concatenate(list(resampled_tables(cells, n_resamples, rng, sampling)), axis=0)


def replicates(
    statistic: Callable[[np.ndarray], Any], cells: np.ndarray, n_resamples: int, seed: Any, sampling: str,
    smoothing: float = 0.0,
) -> Any:
    """``statistic`` evaluated on every replicate of ``cells``: a (B, ...) array, or a dict of them.

    The replicates are drawn in chunks by :func:`clfeval.uncertainty.resampling.resampled_tables` (``sampling``
    "cross-sectional" or "stratified"; each cell's share smoothed by ``smoothing``), so only
    the statistic's values are kept. Same ``seed``, same values.

    >>> r = replicates(lambda t: t.sum(axis=(1, 2)), np.array([[8, 2], [1, 9]]), 4, 0, "stratified")
    >>> r.tolist()
    [20.0, 20.0, 20.0, 20.0]
    """
    rng = np.random.default_rng(seed)
    parts = [statistic(batch) for batch in resampled_tables(cells, n_resamples, rng, sampling, smoothing)]
    if isinstance(parts[0], dict):
        return {k: np.concatenate([np.asarray(p[k], dtype=np.float64) for p in parts]) for k in parts[0]}
    return np.concatenate([np.asarray(p, dtype=np.float64) for p in parts])


def _quantiles(values: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Per-column quantiles of (B, E) values ignoring NaN, with per-column levels q (Q, E).

    Linear interpolation between order statistics (numpy's default); all-NaN columns give NaN.
    """
    s = np.sort(values, axis=0)  # NaN last
    valid = (~np.isnan(values)).sum(axis=0)
    pos = q * np.maximum(valid - 1, 0)
    lo = np.floor(pos).astype(np.intp)
    hi = np.minimum(lo + 1, np.maximum(valid - 1, 0))
    frac = pos - lo
    cols = np.arange(values.shape[1])
    a, b = s[lo, cols], s[hi, cols]
    out = a + frac * (b - a)
    return np.where(valid > 0, out, np.nan)


def jackknife_acceleration(loo: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """BCa's acceleration a = sum w d^3 / (6 (sum w d^2)^1.5), d = mean - leave-one-out value.

    ``loo``: (m, E) leave-one-out values of E statistics, one row per non-empty cell; ``weights``
    (m,): how many cases each row stands for (the cell's count). NaN values are left out; no
    spread gives 0.

    Parameters
    ----------
    loo : numpy.ndarray of shape (m, E)
        Leave-one-out values of E statistics, one row per non-empty cell.
    weights : numpy.ndarray of shape (m,)
        Number of cases each row stands for (the count of its cell).

    Returns
    -------
    numpy.ndarray of shape (E,)
        The acceleration constant of each statistic.

    References
    ----------
    .. [1] Efron, B. (1987). Better bootstrap confidence intervals. Journal of the American
       Statistical Association, 82(397), 171-185.

    Examples
    --------
    >>> round(float(jackknife_acceleration(np.array([[1.0], [2.0], [4.0]]), np.ones(3))[0]), 5)
    -0.03674
    """
    keep = ~np.isnan(loo)
    w = np.where(keep, weights[:, None], 0.0)
    v = np.where(keep, loo, 0.0)
    sw = w.sum(axis=0)
    mean = np.divide((w * v).sum(axis=0), sw, out=np.zeros(sw.shape), where=sw > 0)
    d = np.where(keep, mean - loo, 0.0)
    num = (w * d**3).sum(axis=0)
    den = 6.0 * (w * d**2).sum(axis=0) ** 1.5
    return np.divide(num, den, out=np.zeros(num.shape), where=den > 0)


def interval_from_replicates(
    reps: np.ndarray, estimate: np.ndarray, level: float, kind: str, accel: np.ndarray | None = None,
    center: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(low, high, undefined replicates per entry) of (B, ...) bootstrap replicates.

    ``kind="percentile"``: the alpha/2 and 1 - alpha/2 quantiles (linear interpolation, numpy's
    default), NaN replicates left out. ``kind="bca"`` (Efron 1987): the quantile levels
    Phi(z0 + (z0 + z_q) / (1 - a (z0 + z_q))), with the bias correction z0 = Phi^-1(share of
    replicates below ``center``, ties counted half, kept within [0.5/B, 1 - 0.5/B]) and the
    acceleration ``accel`` (:func:`jackknife_acceleration`; None: 0). ``center``: the statistic
    of the table the replicates were drawn from (default ``estimate``; the smoothed table's
    value when the draws were smoothed). scipy.stats.bootstrap's BCa gives the same bounds from
    the same replicates (tests/test_uncertainty.py).

    Parameters
    ----------
    reps : numpy.ndarray of shape (B, ...)
        Bootstrap replicates of one or more statistics; NaN marks an undefined replicate.
    estimate : numpy.ndarray
        The statistic on the observed data, broadcastable to ``reps.shape[1:]``; where it is
        NaN the limits are NaN.
    level : float
        Confidence level, between 0 and 1.
    kind : {"percentile", "bca"}
        Percentile interval, or bias-corrected and accelerated interval.
    accel : numpy.ndarray, optional
        BCa acceleration of each statistic; default None (0). Ignored for "percentile".
    center : numpy.ndarray, optional
        Value the bias correction compares replicates with; default None (``estimate``).

    Returns
    -------
    low : numpy.ndarray
        Lower limits, shaped like ``reps.shape[1:]``.
    high : numpy.ndarray
        Upper limits, same shape.
    undefined : numpy.ndarray
        Number of NaN replicates of each statistic (0 where the estimate is itself NaN).

    References
    ----------
    .. [1] Efron, B. (1987). Better bootstrap confidence intervals. Journal of the American
       Statistical Association, 82(397), 171-185.

    Examples
    --------
    >>> reps = np.arange(1, 1001, dtype=float)[:, None] / 1000
    >>> low, high, _ = interval_from_replicates(reps, np.array([0.5]), 0.9, "percentile")
    >>> round(float(low[0]), 5), round(float(high[0]), 5)
    (0.05095, 0.95005)
    """
    from scipy.special import ndtr

    B = reps.shape[0]
    shape = reps.shape[1:]
    flat = reps.reshape(B, -1)
    est = np.broadcast_to(np.asarray(estimate, dtype=np.float64), shape).reshape(-1)
    ref = est if center is None else np.broadcast_to(np.asarray(center, dtype=np.float64), shape).reshape(-1)
    alpha = 1.0 - level
    q = np.array([alpha / 2, 1 - alpha / 2])[:, None] * np.ones(flat.shape[1])
    if kind == "bca":
        valid = (~np.isnan(flat)).sum(axis=0)
        with np.errstate(invalid="ignore"):
            below = (flat < ref).sum(axis=0) + 0.5 * (flat == ref).sum(axis=0)
            frac = np.divide(below, valid, out=np.full(below.shape, 0.5), where=valid > 0)
        frac = np.clip(frac, 0.5 / B, 1 - 0.5 / B)  # all replicates on one side: keep z0 finite
        z0 = normal_quantile(frac)
        a = np.zeros(flat.shape[1]) if accel is None else np.nan_to_num(np.asarray(accel).reshape(-1))
        zq = normal_quantile(q)
        t = z0 + zq
        den = 1.0 - a * t
        adj = ndtr(z0 + t / np.where(den > 0, den, 1.0))
        q = np.where(den > 0, adj, q)
    qs = _quantiles(flat, q)
    nanest = np.isnan(est)
    # undefined replicates per entry, counted where the estimate itself is defined
    undefined = np.where(nanest, 0, np.isnan(flat).sum(axis=0)).reshape(shape)
    low = np.where(nanest, np.nan, qs[0]).reshape(shape)
    high = np.where(nanest, np.nan, qs[1]).reshape(shape)
    return low, high, undefined


def _cells_of(data: Any) -> tuple[np.ndarray, bool]:
    """(cells (r, c), is_ranking)."""
    if hasattr(data, "pos") and hasattr(data, "negatives"):
        return ranking_cells(data), True
    table, _ = check_table(data, batch=False)
    return table, False


def jackknife(statistic: Callable[[np.ndarray], Any], cells: np.ndarray) -> tuple[Any, np.ndarray]:
    """Leave-one-out statistic for every non-empty cell (table minus one count there), with the
    cell counts as weights: (values (m, ...) or dict of them, weights (m,)).

    >>> loo, w = jackknife(lambda t: t[:, 0, 0] / t.sum(axis=(1, 2)), np.array([[3, 0], [1, 0]]))
    >>> loo.round(4).tolist(), w.tolist()
    ([0.6667, 1.0], [3.0, 1.0])
    """
    r, c = cells.shape
    nz = np.flatnonzero(cells.reshape(-1))
    if nz.size * r * c > 200 * CHUNK_ELEMENTS:
        raise ValueError(
            f"BCa's jackknife needs one evaluation per non-empty cell ({nz.size} cells of a "
            f"{r} x {c} table): too many; use method='percentile', or coarsen the ranking first."
        )
    per = max(1, CHUNK_ELEMENTS // (r * c))
    parts = []
    for start in range(0, nz.size, per):
        idx = nz[start:start + per]
        loo = np.broadcast_to(cells.reshape(-1), (idx.size, r * c)).copy()
        loo[np.arange(idx.size), idx] -= 1
        parts.append(statistic(loo.reshape(idx.size, r, c)))
    weights = cells.reshape(-1)[nz].astype(np.float64)
    if isinstance(parts[0], dict):
        return {k: np.concatenate([np.asarray(p[k], dtype=np.float64) for p in parts]) for k in parts[0]}, weights
    return np.concatenate([np.asarray(p, dtype=np.float64) for p in parts]), weights


def bootstrap_method_name(kind: str, n_resamples: int, sampling: str, ranking: bool, k: int | None = None) -> str:
    """The method name of a bootstrap interval: percentile or BCa, what was resampled and how.

    ``k``: the classes of a confusion table whose cells are smoothed by 1/k (None: no smoothing).

    >>> bootstrap_method_name("bca", 500, "stratified", ranking=True)
    'bootstrap BCa (multinomial over score cells, stratified by class, B=500)'
    """
    what = "score cells" if ranking else "cells"
    name = "percentile" if kind == "percentile" else "BCa"
    smoothed = f", shares of cell + 1/{k}" if k else ""
    design = sampling_phrase(sampling, ranking)
    return f"bootstrap {name} (multinomial over {what}{smoothed}, {design}, B={n_resamples})"


def warn_undefined(count: int, total: int, what: str) -> None:
    """An UndefinedMetricWarning that ``count`` of ``total`` bootstrap values of ``what`` are
    undefined (0/0) and left out; nothing when ``count`` is 0. The warning names the caller of
    the public function that called this one."""
    if count:
        warnings.warn(
            f"{count} of {total} bootstrap values of {what} are undefined (0/0) and were left out "
            "of the interval.",
            UndefinedMetricWarning,
            stacklevel=3,
        )


def bootstrap_ci(
    statistic: Callable[[np.ndarray], Any],
    data: Any,
    *,
    method: Literal["percentile", "bca"] = "percentile",
    n_resamples: int = 2000,
    level: float = 0.95,
    seed: Any = None,
    sampling: str = "cross-sectional",
    stratify: bool | None = None,
) -> ConfidenceInterval:
    """Bootstrap confidence interval of ``statistic`` over the cells of a count table.

    ``data`` is a (k, k) confusion table (array, ConfusionCounts or ConfusionMatrix) or a
    BinaryRanking (read as the (2, D) table [negatives; positives] per score, highest first).
    ``statistic`` must be vectorised: it maps a batch of tables (b, r, c) to (b,) or (b, s)
    values (e.g. ``lambda t: m.accuracy(t)``, or for a ranking
    ``lambda t: curves.roc_auc(t[:, 0], t[:, 1])``); scalars give float bounds, vectors arrays.

    Replicates are multinomial over the cells: all together (``sampling="cross-sectional"``,
    the default), or each row (true class) with its own total ("stratified"; ``stratify`` is the
    deprecated spelling). ``percentile``: the alpha/2 and 1 - alpha/2 quantiles of the replicates.
    ``bca`` (Efron 1987): the quantiles shifted by the bias correction z0 (share of replicates
    below the estimate, ties counted half, kept within [0.5/B, 1 - 0.5/B]) and the acceleration
    from a jackknife over the cells: leaving out one count of cell c gives theta_(c), weighted
    by the count of c (the same as leaving out each row). Undefined (NaN) replicates are left
    out, with an UndefinedMetricWarning saying how many. Same seed, same interval.

    Parameters
    ----------
    statistic : callable
        Vectorised function from a batch of tables, shape (b, r, c), to values of shape (b,) or
        (b, s).
    data : array-like of shape (k, k), ConfusionCounts, ConfusionMatrix or BinaryRanking
        The counts the replicates are drawn from.
    method : {"percentile", "bca"}, default "percentile"
        Kind of bootstrap interval.
    n_resamples : int, default 2000
        Number of replicates B.
    level : float, default 0.95
        Confidence level, between 0 and 1.
    seed : int, numpy.random.Generator or None, default None
        Seed of the random stream (anything ``numpy.random.default_rng`` accepts); the same
        seed gives the same interval.
    sampling : {"cross-sectional", "stratified"}, default "cross-sectional"
        Redraw all cells together with the grand total, or each class with its own total.
    stratify : bool, optional
        Deprecated spelling of ``sampling`` (True means "stratified"); it warns. Default None.

    Returns
    -------
    ConfidenceInterval
        The statistic on ``data`` as ``estimate`` and its bootstrap limits (floats for a scalar
        statistic, arrays for a vector one).

    References
    ----------
    .. [1] Efron, B. (1987). Better bootstrap confidence intervals. Journal of the American
       Statistical Association, 82(397), 171-185.
    .. [2] Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman &
       Hall/CRC, New York.

    Examples
    --------
    >>> from clfeval.formulas import measures as m
    >>> t = np.array([[45, 5], [10, 40]])
    >>> ci = bootstrap_ci(m.accuracy, t, n_resamples=1000, seed=1)
    >>> ci.estimate, ci.low < 0.85 < ci.high
    (0.85, True)
    """
    level = check_level(level)
    check_choice(method, ("percentile", "bca"), "method")
    sampling = check_sampling(sampling, stratify)
    n_resamples = check_resamples(n_resamples)
    cells, is_ranking = _cells_of(data)
    cells = integer_cells(cells, "the table")
    estimate = np.asarray(statistic(cells[None]), dtype=np.float64)[0]
    reps = replicates(statistic, cells, n_resamples, seed, sampling)
    accel = None
    if method == "bca":
        loo, w = jackknife(statistic, cells)
        accel = jackknife_acceleration(np.asarray(loo).reshape(loo.shape[0], -1), w)
    low, high, undefined = interval_from_replicates(reps, estimate, level, method, accel)
    warn_undefined(int(undefined.sum()), reps.size, "the statistic")
    name = bootstrap_method_name(method, n_resamples, sampling, is_ranking)
    return ConfidenceInterval(float_or_array(low), float_or_array(high), level, name, float_or_array(estimate))


# ------------------------------------------------------------------------------------------
