"""ROC and PR curves averaged vertically across folds, with a pointwise band (:func:`mean_curve`,
giving :class:`MeanCurve`): TPR at fixed FPR, precision at fixed recall read as the step function
average precision integrates.

>>> from clfeval import evaluate
>>> folds = [evaluate([0, 1, 0, 1], y_score=s) for s in ([0.2, 0.8, 0.3, 0.7], [0.6, 0.8, 0.1, 0.4])]
>>> m = mean_curve(folds, "pr", grid=[0.5, 1.0])
>>> m.mean.round(4).tolist(), m.areas.round(4).tolist()
([1.0, 0.8333], [1.0, 0.8333])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.evaluation import Evaluation
from clfeval.cross_evaluation.summaries import INTERVAL_METHODS, mean_interval

__all__ = ["MeanCurve", "mean_curve"]


@dataclass(frozen=True, eq=False)
class MeanCurve:
    """Curves averaged vertically over folds with a pointwise band; plain numpy data to draw.

    ``x``: the grid (FPR for ROC, recall for PR); ``mean``, ``low``, ``high``, ``std``: the
    averaged y (TPR / precision), its band and the sd across folds at each grid point;
    ``curves``: (n_curves, len(x)) the interpolated fold curves; ``areas``: each fold's exact area
    (ROC AUC / AP); ``band``: how the band was made.

    Made by :func:`mean_curve`.

    Parameters
    ----------
    kind : {"roc", "pr"}
        Which curves were averaged.
    curve : str
        Which curve of each fold: a class name, "micro" or "macro".
    x : numpy.ndarray of shape (m,)
        The grid of false positive rates (ROC) or recalls (PR).
    mean : numpy.ndarray of shape (m,)
        Mean over the folds of the true positive rate or precision at each grid point.
    low : numpy.ndarray of shape (m,)
        Lower edge of the band at each grid point.
    high : numpy.ndarray of shape (m,)
        Upper edge of the band at each grid point.
    std : numpy.ndarray of shape (m,)
        Standard deviation across the folds at each grid point.
    curves : numpy.ndarray of shape (n_curves, m)
        Each fold's curve read at the grid points.
    areas : numpy.ndarray of shape (n_curves,)
        Each fold's exact area (ROC AUC or average precision).
    band : str
        How the band was made, in words.
    level : float
        Confidence level of the band (unused by the "sd" band).

    Examples
    --------
    >>> m = MeanCurve("roc", "1", np.array([0.0, 1.0]), np.array([0.5, 1.0]), np.array([0.3, 1.0]),
    ...               np.array([0.7, 1.0]), np.array([0.2, 0.0]), np.array([[0.4, 1.0], [0.6, 1.0]]),
    ...               np.array([0.8, 0.9]), "mean ± 1 sd across folds", 0.95)
    >>> round(m.area_mean, 4), round(m.area_std, 4)
    (0.85, 0.0707)
    """

    kind: str
    curve: str
    x: np.ndarray
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    std: np.ndarray
    curves: np.ndarray
    areas: np.ndarray
    band: str
    level: float

    @property
    def area_mean(self) -> float:
        return float(np.mean(self.areas))

    @property
    def area_std(self) -> float:
        return float(np.std(self.areas, ddof=1)) if self.areas.size > 1 else math.nan

    def __repr__(self) -> str:
        area = "AUC" if self.kind == "roc" else "AP"
        return (f"MeanCurve(kind={self.kind!r}, curve={self.curve!r}, n_curves={self.curves.shape[0]}, "
                f"points={self.x.size}, mean {area}={self.area_mean:.4f}±{self.area_std:.4f}, band={self.band!r})")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "curve": self.curve, "x": self.x.tolist(), "mean": self.mean.tolist(),
                "low": self.low.tolist(), "high": self.high.tolist(), "std": self.std.tolist(),
                "areas": self.areas.tolist(), "band": self.band, "level": self.level}


def _roc_at(fpr: np.ndarray, tpr: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """TPR of a ROC curve at each FPR of ``grid``: linear between thresholds; at an FPR where the
    curve rises vertically (ties, or the first point), the top of the rise."""
    xs, first = np.unique(fpr, return_index=True)
    last = np.r_[first[1:], fpr.size] - 1  # points are in increasing-FPR order
    top, bottom = tpr[last], tpr[first]
    j = np.clip(np.searchsorted(xs, grid, side="right") - 1, 0, xs.size - 1)
    nxt = np.minimum(j + 1, xs.size - 1)
    span = xs[nxt] - xs[j]
    with np.errstate(invalid="ignore", divide="ignore"):
        frac = np.where(span > 0, (grid - xs[j]) / np.where(span > 0, span, 1.0), 0.0)
    return top[j] + frac * (bottom[nxt] - top[j])


def _pr_at(recall: np.ndarray, precision: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Precision of a PR curve at each recall of ``grid`` by the step rule average precision
    integrates: the precision of the first threshold (from the top) whose recall reaches r, so the
    curve is flat on each (R_{n-1}, R_n]; at r = 0, its right limit."""
    real = recall > 0
    r, p = recall[real], precision[real]  # decreasing-threshold order: recall non-decreasing
    idx = np.clip(np.searchsorted(r, np.maximum(grid, np.finfo(float).tiny), side="left"), 0, r.size - 1)
    return p[idx]


def _grid(grid: Any) -> np.ndarray:
    g = np.linspace(0.0, 1.0, 101) if grid is None else np.asarray(grid, dtype=np.float64).reshape(-1)
    if g.size == 0 or not np.all(np.isfinite(g)) or g.min() < 0 or g.max() > 1 or np.any(np.diff(g) <= 0):
        raise ValueError("grid must be increasing values in [0, 1].")
    return g


def mean_curve(evaluations: Sequence[Evaluation], kind: str = "roc", *, curve: str | None = None, grid: Any = None,
               band: str = "sd", level: float = 0.95, test_train_ratio: float | None = None) -> MeanCurve:
    """Vertical average of ROC (TPR at fixed FPR) or PR (precision at fixed recall) curves.

    ``curve``: which curve of each Evaluation (a class name, "micro" or "macro"; default the main
    one). ``grid``: x values (default 101 points on [0, 1]). ROC points are joined linearly
    between thresholds; PR curves are read as the step function average precision integrates
    (precision of the first threshold reaching recall r) - linear interpolation would overstate
    PR curves. ``band``: "sd" (mean ± 1 sd across folds), "t" (t interval of the mean, naive),
    "corrected" (t interval with the Nadeau-Bengio variance; needs ``test_train_ratio``) or
    "percentile" (the central ``level`` range of the fold curves). Bands are clipped to [0, 1].
    Folds whose curve is undefined (no positives or negatives) are skipped.

    Parameters
    ----------
    evaluations : sequence of Evaluation
        The folds' evaluations, each made with scores.
    kind : {"roc", "pr"}, default="roc"
        Which curves to average.
    curve : str, default=None
        Which curve of each evaluation: a class name, "micro" or "macro"; None for the main one.
    grid : array-like, default=None
        Increasing x values in [0, 1] to read the curves at; None for 101 evenly spaced points.
    band : {"sd", "t", "corrected", "percentile"}, default="sd"
        How the pointwise band is made (see above).
    level : float, default=0.95
        Confidence level of the "t" and "corrected" bands, share of folds inside the
        "percentile" band.
    test_train_ratio : float, default=None
        Test rows over training rows of the splits, for ``band="corrected"`` (required there).

    Returns
    -------
    MeanCurve
        The grid, the mean curve, its band, the sd, the fold curves and areas.

    Examples
    --------
    >>> from clfeval import evaluate
    >>> a = evaluate([0, 0, 1, 1], y_score=[0.1, 0.6, 0.4, 0.9])
    >>> b = evaluate([0, 0, 1, 1], y_score=[0.1, 0.2, 0.8, 0.9])
    >>> m = mean_curve([a, b], "roc", grid=[0.0, 0.5, 1.0])
    >>> m.mean.tolist(), m.area_mean
    ([0.75, 1.0, 1.0], 0.875)
    """
    if kind not in ("roc", "pr"):
        raise ValueError(f"kind must be 'roc' or 'pr', got {kind!r}.")
    bands = ("sd", "t", "corrected", "percentile")
    if band not in bands:
        raise ValueError(f"band must be one of {bands}, got {band!r}.")
    if band == "corrected" and test_train_ratio is None:
        raise ValueError("band='corrected' needs test_train_ratio (n_test / n_train of the splits).")
    evaluations = list(evaluations)
    if not evaluations:
        raise ValueError("mean_curve needs at least one Evaluation.")
    g = _grid(grid)
    rows, areas = [], []
    for i, ev in enumerate(evaluations):
        sets = ev.roc if kind == "roc" else ev.pr
        if sets is None:
            raise ValueError(f"evaluation {i} has no scores, so no curves; evaluate with y_score.")
        c = sets.main if curve is None else sets[curve]
        if not np.isfinite(c.area):
            continue
        rows.append(_roc_at(c.x, c.y, g) if kind == "roc" else _pr_at(c.x, c.y, g))
        areas.append(c.area)
    if not rows:
        raise ValueError("every curve is undefined (a class with no positives or no negatives in each fold).")
    name = curve if curve is not None else (evaluations[0].roc.main_name if kind == "roc" else evaluations[0].pr.main_name)  # type: ignore[union-attr]
    ys = np.vstack(rows)
    stats = mean_interval(ys, test_train_ratio if band == "corrected" else None, level)
    if band == "sd":
        low, high = stats["mean"] - stats["std"], stats["mean"] + stats["std"]
        what = "mean ± 1 sd across folds"
    elif band == "percentile":
        low, high = np.percentile(ys, [50 * (1 - level), 50 * (1 + level)], axis=0)
        what = f"central {level:.0%} of the fold curves"
    else:
        low, high = stats["low"], stats["high"]
        what = INTERVAL_METHODS["corrected" if band == "corrected" else "t"]
    return MeanCurve(kind, str(name), g, stats["mean"], np.clip(low, 0, 1), np.clip(high, 0, 1),
                     stats["std"], ys, np.asarray(areas), what, level)
