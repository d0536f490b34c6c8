"""Per-bin sums of the calibration views (:class:`BinSums`) and the formulas that read them: the
calibration error of one view and the terms of the Brier decomposition.

>>> w, gap = np.array([2.0, 2.0]), np.array([-0.3, 0.2])
>>> round(binned_calibration_error(w, gap, "l1"), 6), binned_calibration_error(w, gap, "max")
(0.25, 0.3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["BinSums", "binned_calibration_error", "decomposition_terms"]


@dataclass(frozen=True, eq=False)
class BinSums:
    """Per-bin sums of one or more views: arrays of shape ``(..., B)`` over bins.

    ``weight``: total weight (int64 counts without sample weights); ``positives``: ``sum w*y``
    (same dtype); ``sum_p``, ``sum_pp``, ``sum_py``: ``sum w*p``, ``sum w*p^2``, ``sum w*p*y``.
    ``edges`` (B + 1,) are the bin edges, or None when each "bin" is one distinct probability
    (then ``values`` holds it, and the within-bin spread is zero by construction).

    Parameters
    ----------
    edges : numpy.ndarray of shape (B + 1,) or None
        The bin edges, or None when each bin is one distinct probability.
    weight : numpy.ndarray of shape (..., B)
        Total weight of the samples in each bin (int64 counts without sample weights).
    positives : numpy.ndarray of shape (..., B)
        Weight of the positive outcomes in each bin, ``sum w*y``.
    sum_p : numpy.ndarray of shape (..., B)
        Weighted sum of the probabilities in each bin, ``sum w*p``.
    sum_pp : numpy.ndarray of shape (..., B)
        Weighted sum of the squared probabilities, ``sum w*p^2``.
    sum_py : numpy.ndarray of shape (..., B)
        Weighted sum of the probabilities of the positive outcomes, ``sum w*p*y``.
    values : numpy.ndarray of shape (B,), default=None
        The distinct probability of each bin when ``edges`` is None; else None.

    Examples
    --------
    >>> b = BinSums(np.array([0.0, 0.5, 1.0]), np.array([2, 1]), np.array([1, 1]),
    ...             np.array([0.5, 0.9]), np.array([0.17, 0.81]), np.array([0.4, 0.9]))
    >>> b.merge(b).weight.tolist(), b.n_bins
    ([4, 2], 2)
    """

    edges: np.ndarray | None
    weight: np.ndarray
    positives: np.ndarray
    sum_p: np.ndarray
    sum_pp: np.ndarray
    sum_py: np.ndarray
    values: np.ndarray | None = None

    @property
    def n_bins(self) -> int:
        return int(self.weight.shape[-1])

    def merge(self, other: BinSums) -> BinSums:
        """The sums of the concatenated data (same bins): every array adds."""
        if not isinstance(other, BinSums):
            raise TypeError(f"can only merge BinSums with BinSums, got {type(other).__name__}.")
        if self.edges is None or other.edges is None or not np.array_equal(self.edges, other.edges):
            raise ValueError("cannot merge bin sums over different bin edges; use the same bins.")
        if self.weight.shape != other.weight.shape:
            raise ValueError(
                f"cannot merge bin sums of shapes {self.weight.shape} and {other.weight.shape}."
            )
        return BinSums(
            self.edges,
            self.weight + other.weight,
            self.positives + other.positives,
            self.sum_p + other.sum_p,
            self.sum_pp + other.sum_pp,
            self.sum_py + other.sum_py,
        )

    def row(self, i: int) -> BinSums:
        """The sums of view ``i`` (first axis) of a stacked ``(V, B)`` BinSums."""
        return BinSums(
            self.edges, self.weight[i], self.positives[i], self.sum_p[i], self.sum_pp[i],
            self.sum_py[i],
        )

    def gaps(self) -> tuple[np.ndarray, np.ndarray]:
        """(weight as float, observed frequency - mean probability per bin; 0 where empty)."""
        w = self.weight.astype(np.float64)
        nz = w > 0
        observed = np.divide(self.positives, w, out=np.zeros_like(w), where=nz)
        predicted = np.divide(self.sum_p, w, out=np.zeros_like(w), where=nz)
        return w, observed - predicted  # as ReliabilityCurve.gap: the same numbers, bit for bit

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python (JSON-ready) form."""
        out = {
            "edges": None if self.edges is None else self.edges.tolist(),
            "weight": self.weight.tolist(),
            "positives": self.positives.tolist(),
            "sum_p": self.sum_p.tolist(),
            "sum_pp": self.sum_pp.tolist(),
            "sum_py": self.sum_py.tolist(),
        }
        if self.values is not None:
            out["values"] = self.values.tolist()
        return out


def binned_calibration_error(w: np.ndarray, gap: np.ndarray, norm: str) -> float:
    """ECE of one view from per-bin weights and gaps (observed - predicted; ignored where w = 0).

    l1: ``sum_b w_b/W |gap_b|``; l2: ``sqrt(sum_b w_b/W gap_b^2)``; max: ``max |gap_b|`` over
    non-empty bins.
    """
    w = np.asarray(w, dtype=np.float64)
    total = w.sum()
    if not total > 0:
        raise ValueError("the calibration error is undefined: the total sample weight is 0.")
    nonempty = w > 0
    g = np.abs(np.where(nonempty, gap, 0.0))
    if norm == "l1":
        return float(np.dot(w, g) / total)
    if norm == "l2":
        return float(math.sqrt(np.dot(w, g * g) / total))
    return float(g[nonempty].max())


def decomposition_terms(b: BinSums) -> np.ndarray:
    """[brier, reliability, resolution, uncertainty, within variance, within covariance] of one
    view, each a weighted mean over its samples (Murphy 1973; Stephenson et al. 2008).

    brier = reliability - resolution + uncertainty + within_variance - within_covariance holds
    exactly (up to rounding) for any grouping of the samples.
    """
    w = b.weight.astype(np.float64)
    total = w.sum()
    if not total > 0:
        raise ValueError("the Brier decomposition is undefined: the total sample weight is 0.")
    nz = w > 0
    wn = w[nz]
    pos = np.asarray(b.positives, dtype=np.float64)[nz]
    sp, spp, spy = b.sum_p[nz], b.sum_pp[nz], b.sum_py[nz]
    if total > 2.0**500:  # weights near the top of the range: sp * sp would overflow; every term is a
        # ratio of sums of the same degree, so all of them are scaled by one power of two (exact)
        scale = 2.0 ** -int(np.frexp(total)[1])
        wn, pos, sp, spp, spy, total = (v * scale for v in (wn, pos, sp, spp, spy, total))
    base_rate = pos.sum() / total
    brier = (spp - 2.0 * spy + pos).sum() / total
    reliability = ((sp - pos) ** 2 / wn).sum() / total
    resolution = (wn * (pos / wn - base_rate) ** 2).sum() / total
    uncertainty = base_rate * (1.0 - base_rate)
    if b.values is not None:  # one distinct probability per group: no spread within a group
        within_var = within_cov = 0.0
    else:
        within_var = np.maximum(spp - sp * sp / wn, 0.0).sum() / total  # >= 0 up to rounding
        within_cov = 2.0 * (spy - sp * pos / wn).sum() / total
    return np.array(
        [max(brier, 0.0), reliability, resolution, uncertainty, within_var, within_cov]
    )
