"""Pointwise bootstrap bands of the ROC and precision-recall curves, and operating points with intervals.

:class:`CurveBand` holds a band on a grid; :func:`roc_band` and :func:`pr_band` draw them from
the score cells of a BinaryRanking, :func:`sensitivity_at_specificity` and
:func:`specificity_at_sensitivity` read one point of the ROC curve with its percentile interval.

>>> from clfeval.statistics.rankings import BinaryRanking
>>> r = BinaryRanking(np.arange(6.0)[::-1], None, np.array([1, 1, 0, 1, 0, 0], bool))
>>> roc_band(r, [0.0, 1.0], n_resamples=100).kind
'roc'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.formulas.curves import cumulative_counts, interpolate_roc, roc_rates
from clfeval.uncertainty.resampling import check_sampling
from clfeval.stats._result import ConfidenceInterval, check_level
from clfeval.uncertainty.bootstrap import bootstrap_method_name, interval_from_replicates, ranking_cells, replicates, warn_undefined
from clfeval.uncertainty.checks import check_resamples

__all__ = ["CurveBand", "roc_band", "pr_band", "sensitivity_at_specificity", "specificity_at_sensitivity"]


@dataclass(frozen=True)
class CurveBand:
    """A pointwise confidence band of a curve on a fixed grid of ``x`` values.

    ``kind`` "roc": x is the false positive rate, y the true positive rate; "pr": x is recall,
    y precision. ``estimate``, ``low`` and ``high`` have the grid's length.

    Parameters
    ----------
    kind : {"roc", "pr"}
        Which curve the band belongs to.
    x : numpy.ndarray of shape (G,)
        The grid of x values (false positive rates or recalls) in [0, 1].
    estimate : numpy.ndarray of shape (G,)
        The curve's y value at each grid point, on the observed data.
    low : numpy.ndarray of shape (G,)
        Lower limit of the band at each grid point.
    high : numpy.ndarray of shape (G,)
        Upper limit of the band at each grid point.
    level : float
        Pointwise confidence level, between 0 and 1.
    method : str
        How the band was computed (the bootstrap and its design).

    Examples
    --------
    >>> band = CurveBand("roc", np.array([0.0, 1.0]), np.array([0.5, 1.0]), np.array([0.2, 1.0]),
    ...                  np.array([0.8, 1.0]), 0.95, "demo")
    >>> band
    CurveBand('roc', n_points=2, level=0.95, method='demo')
    >>> band.to_dict()["low"]
    [0.2, 1.0]
    """

    kind: str
    x: np.ndarray
    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    level: float
    method: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "x": self.x.tolist(), "estimate": self.estimate.tolist(),
                "low": self.low.tolist(), "high": self.high.tolist(), "level": self.level,
                "method": self.method}

    def __repr__(self) -> str:
        return f"CurveBand({self.kind!r}, n_points={self.x.size}, level={self.level}, method={self.method!r})"


def _roc_axes(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(fpr, tpr) of (b, 2, D) counts, each (b, D + 1) starting at the origin."""
    return roc_rates(t[:, 0], t[:, 1])  # a class drawn empty: NaN, counted later


def _y_at_x(x_pts: np.ndarray, y_pts: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """On each row's polyline (x non-decreasing), the highest y at each grid x (b, G)."""
    out = np.full((x_pts.shape[0], grid.size), np.nan)  # NaN rows (a class drawn empty) stay NaN
    for r in np.flatnonzero(np.isfinite(x_pts).all(axis=1) & np.isfinite(y_pts).all(axis=1)):
        out[r] = interpolate_roc(grid, x_pts[r], y_pts[r])
    return out


def _x_at_y(x_pts: np.ndarray, y_pts: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """On each row's polyline (y non-decreasing), the lowest x reaching each grid y (b, G)."""
    b, npts = x_pts.shape
    out = np.empty((b, grid.size))
    for r in range(b):
        j = np.minimum(np.searchsorted(y_pts[r], grid, side="left"), npts - 1)
        i = np.maximum(j - 1, 0)
        x0, x1, y0, y1 = x_pts[r, i], x_pts[r, j], y_pts[r, i], y_pts[r, j]
        dy = y1 - y0
        t = np.divide(grid - y0, dy, out=np.ones(grid.size), where=dy > 0)
        out[r] = np.where(j == 0, x_pts[r, 0], x0 + np.clip(t, 0, 1) * (x1 - x0))
    return out


def _precision_at_recall(t: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Precision of the first point (by decreasing threshold) whose recall reaches each grid
    recall: the step function that average precision integrates (recall 0: the first point
    with a positive)."""
    fps = cumulative_counts(t[:, 0]).astype(np.float64)
    tps = cumulative_counts(t[:, 1]).astype(np.float64)
    rec = roc_rates(t[:, 0], t[:, 1])[1][:, 1:]
    out = np.empty((t.shape[0], grid.size))
    zero = grid <= 0
    for r in range(t.shape[0]):
        i = np.where(zero, np.searchsorted(rec[r], 0.0, side="right"), np.searchsorted(rec[r], grid, side="left"))
        i = np.minimum(i, rec.shape[1] - 1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[r] = np.where(np.isnan(rec[r, -1]), np.nan, tps[r, i] / (tps[r, i] + fps[r, i]))
    return out


def _grid(values: Any, name: str, default: int = 101) -> np.ndarray:
    g = np.linspace(0.0, 1.0, default) if values is None else np.asarray(values, dtype=np.float64)
    if g.ndim > 1 or g.size == 0 or not np.isfinite(g).all() or (g < 0).any() or (g > 1).any():
        raise ValueError(f"{name} must be one or more numbers in [0, 1], got {values!r}.")
    return np.atleast_1d(g)


def _band(
    kind: str, stat: Callable[[np.ndarray], np.ndarray], ranking: Any, level: float, n_resamples: int, seed: Any,
    sampling: str, stratify: bool | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    level = check_level(level)
    sampling = check_sampling(sampling, stratify, stacklevel=4)
    n_resamples = check_resamples(n_resamples)
    cells = ranking_cells(ranking)
    est = stat(cells[None])[0]
    reps = replicates(stat, cells, n_resamples, seed, sampling)
    low, high, undefined = interval_from_replicates(reps, est, level, "percentile")
    warn_undefined(int(undefined.sum()), reps.size, f"the {kind}")
    return est, low, high, bootstrap_method_name("percentile", n_resamples, sampling, ranking=True)


def roc_band(
    ranking: Any, fpr: Any = None, *, level: float = 0.95, n_resamples: int = 2000, seed: Any = 0,
    sampling: str = "stratified",
    stratify: bool | None = None,
) -> CurveBand:
    """Pointwise bootstrap band of the ROC curve: TPR at each false positive rate of ``fpr``.

    The curve is the ROC polyline (ties as straight segments); at an FPR where it rises
    vertically the highest TPR is taken. Default grid: 0, 0.01, ..., 1. The ROC curve is
    conditional on the class, so the replicates redraw each class with its own total
    (``sampling="stratified"``) by default; "cross-sectional" also redraws the prevalence.

    Parameters
    ----------
    ranking : BinaryRanking or array-like of shape (2, D)
        Counts of negatives and positives at each of D distinct scores, highest score first.
    fpr : array-like of float, optional
        The false positive rates in [0, 1] to read the curve at. Default None: 101 points
        0, 0.01, ..., 1.
    level : float, default 0.95
        Confidence level, between 0 and 1.
    n_resamples : int, default 2000
        Number of bootstrap replicates B.
    seed : int, numpy.random.Generator or None, default 0
        Seed of the random stream (anything ``numpy.random.default_rng`` accepts); the fixed
        default makes repeated calls agree.
    sampling : {"cross-sectional", "stratified"}, default "stratified"
        Redraw all score cells together, or each class with its own total.
    stratify : bool, optional
        Deprecated spelling of ``sampling`` (True means "stratified"); it warns. Default None.

    Returns
    -------
    CurveBand
        Kind "roc": the TPR and its percentile limits at each FPR of the grid.

    Examples
    --------
    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.arange(6.0)[::-1], None, np.array([1, 1, 0, 1, 0, 0], bool))
    >>> band = roc_band(r, [0.0, 0.5, 1.0], n_resamples=200, seed=0)
    >>> band.estimate.round(3).tolist()
    [0.667, 1.0, 1.0]
    """
    grid = _grid(fpr, "fpr")

    def stat(t: np.ndarray) -> np.ndarray:
        return _y_at_x(*_roc_axes(t), grid)

    est, low, high, name = _band("ROC band", stat, ranking, level, n_resamples, seed, sampling, stratify)
    return CurveBand("roc", grid, est, low, high, level, name)


def pr_band(
    ranking: Any, recall: Any = None, *, level: float = 0.95, n_resamples: int = 2000, seed: Any = 0,
    sampling: str = "cross-sectional",
    stratify: bool | None = None,
) -> CurveBand:
    """Pointwise bootstrap band of the precision-recall curve: precision at each recall of ``recall``.

    Precision at recall r is that of the first threshold (from the top) whose recall reaches r,
    the step function average precision integrates. Default grid: 0, 0.01, ..., 1.

    Parameters
    ----------
    ranking : BinaryRanking or array-like of shape (2, D)
        Counts of negatives and positives at each of D distinct scores, highest score first.
    recall : array-like of float, optional
        The recalls in [0, 1] to read the curve at. Default None: 101 points 0, 0.01, ..., 1.
    level : float, default 0.95
        Confidence level, between 0 and 1.
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
    CurveBand
        Kind "pr": precision and its percentile limits at each recall of the grid.

    Examples
    --------
    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.arange(6.0)[::-1], None, np.array([1, 0, 1, 1, 0, 0], bool))
    >>> pr_band(r, [0.5, 1.0], n_resamples=200, seed=0).estimate.round(3).tolist()
    [0.667, 0.75]
    """
    grid = _grid(recall, "recall")

    def stat(t: np.ndarray) -> np.ndarray:
        return _precision_at_recall(t, grid)

    est, low, high, name = _band("PR band", stat, ranking, level, n_resamples, seed, sampling, stratify)
    return CurveBand("pr", grid, est, low, high, level, name)


def sensitivity_at_specificity(
    ranking: Any, specificity: Any, *, level: float = 0.95, n_resamples: int = 2000, seed: Any = 0,
    sampling: str = "stratified",
    stratify: bool | None = None,
) -> ConfidenceInterval:
    """Sensitivity (TPR) on the ROC polyline where specificity is ``specificity``, with a
    bootstrap percentile interval (over the score cells, each class redrawn with its own total
    by default, as :func:`roc_band`). Arrays of specificities give arrays.

    Parameters
    ----------
    ranking : BinaryRanking or array-like of shape (2, D)
        Counts of negatives and positives at each of D distinct scores, highest score first.
    specificity : float or array-like of float
        The specificity (1 - FPR) or specificities, in [0, 1], at which to read the sensitivity.
    level : float, default 0.95
        Confidence level, between 0 and 1.
    n_resamples : int, default 2000
        Number of bootstrap replicates B.
    seed : int, numpy.random.Generator or None, default 0
        Seed of the random stream (anything ``numpy.random.default_rng`` accepts); the fixed
        default makes repeated calls agree.
    sampling : {"cross-sectional", "stratified"}, default "stratified"
        Redraw all score cells together, or each class with its own total.
    stratify : bool, optional
        Deprecated spelling of ``sampling`` (True means "stratified"); it warns. Default None.

    Returns
    -------
    ConfidenceInterval
        The sensitivity as ``estimate`` with its percentile limits: floats for one
        specificity, arrays for several.

    Examples
    --------
    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.arange(6.0)[::-1], None, np.array([1, 1, 0, 1, 0, 0], bool))
    >>> round(sensitivity_at_specificity(r, 0.5, n_resamples=200).estimate, 3)
    1.0
    """
    spec = _grid(specificity, "specificity")

    def stat(t: np.ndarray) -> np.ndarray:
        return _y_at_x(*_roc_axes(t), 1.0 - spec)

    est, low, high, name = _band("sensitivity", stat, ranking, level, n_resamples, seed, sampling, stratify)
    squeeze = np.ndim(specificity) == 0
    pick = (lambda a: float(a[0])) if squeeze else (lambda a: a)  # noqa: E731
    return ConfidenceInterval(pick(low), pick(high), level, name, pick(est))


def specificity_at_sensitivity(
    ranking: Any, sensitivity: Any, *, level: float = 0.95, n_resamples: int = 2000, seed: Any = 0,
    sampling: str = "stratified",
    stratify: bool | None = None,
) -> ConfidenceInterval:
    """Specificity on the ROC polyline where sensitivity first reaches ``sensitivity``, with a
    bootstrap percentile interval (over the score cells, each class redrawn with its own total
    by default, as :func:`roc_band`). Arrays of sensitivities give arrays.

    Parameters
    ----------
    ranking : BinaryRanking or array-like of shape (2, D)
        Counts of negatives and positives at each of D distinct scores, highest score first.
    sensitivity : float or array-like of float
        The sensitivity (TPR) or sensitivities, in [0, 1], the curve must reach.
    level : float, default 0.95
        Confidence level, between 0 and 1.
    n_resamples : int, default 2000
        Number of bootstrap replicates B.
    seed : int, numpy.random.Generator or None, default 0
        Seed of the random stream (anything ``numpy.random.default_rng`` accepts); the fixed
        default makes repeated calls agree.
    sampling : {"cross-sectional", "stratified"}, default "stratified"
        Redraw all score cells together, or each class with its own total.
    stratify : bool, optional
        Deprecated spelling of ``sampling`` (True means "stratified"); it warns. Default None.

    Returns
    -------
    ConfidenceInterval
        The specificity as ``estimate`` with its percentile limits: floats for one
        sensitivity, arrays for several.

    Examples
    --------
    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.arange(6.0)[::-1], None, np.array([1, 1, 0, 1, 0, 0], bool))
    >>> round(specificity_at_sensitivity(r, 1.0, n_resamples=200).estimate, 3)
    0.667
    """
    sens = _grid(sensitivity, "sensitivity")

    def stat(t: np.ndarray) -> np.ndarray:
        fpr, tpr = _roc_axes(t)
        return 1.0 - _x_at_y(fpr, tpr, sens)

    est, low, high, name = _band("specificity", stat, ranking, level, n_resamples, seed, sampling, stratify)
    squeeze = np.ndim(sensitivity) == 0
    pick = (lambda a: float(a[0])) if squeeze else (lambda a: a)  # noqa: E731
    return ConfidenceInterval(pick(low), pick(high), level, name, pick(est))
