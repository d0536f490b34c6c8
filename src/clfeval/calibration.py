"""Calibration: reliability curves, expected calibration error (ECE), the Brier decomposition.

A forecast is calibrated when, among the samples given probability ``p``, a fraction ``p`` is
positive. Every calibration measure here reads one small statistic that merges: the statistic of
two batches merges into the statistic of their concatenation.

**Views.** A probability forecast is looked at through *views*, each a (probability, 0/1 outcome)
pair per sample: for each class ``c`` the one-vs-rest view (``p_c``, ``y == c``); and the
top-label view (``max_c p_c``, whether the arg-max class is the true one; ties go to the lower
class index, as ``numpy.argmax``). ``mode="binary"`` reads the view of the positive class,
``"class-wise"`` averages over the class views, ``"top-label"`` reads the top-label view.
For 1-D binary input ``p`` (the probability of the positive class) the columns are
``[1 - p, p]`` (in class order); (n, k) input must have rows that sum to 1 (within
``1e-8 + sqrt(eps)``), else a ValueError names the first row that does not.

**Bins.** ``n_bins`` intervals with edges ``e_0 < ... < e_B``. A probability goes into the bin
whose upper edge is the first edge ``>= p``: bins are ``[e_0, e_1], (e_1, e_2], ..., (e_B-1, e_B]``,
so a probability exactly on an interior edge falls in the lower bin, 0 in the first bin and 1.0
in the last (``numpy.searchsorted(edges[1:-1], p, side="left")``, as scikit-learn's
``calibration_curve`` and Guo et al. (2017)'s reference ECE code). Uniform edges are
``numpy.linspace(0, 1, n_bins + 1)``. Quantile edges are ``numpy.percentile(p, linspace(0, 100,
n_bins + 1))`` (numpy's default "linear" method, as scikit-learn) for unweighted data, and numpy's
weighted ``method="inverted_cdf"`` quantiles when the data carry sample weights (any weights,
integer ones included: numpy has no weighted "linear" method). torchmetrics'
``binary_/multiclass_calibration_error`` (1.x) bins ``[e_b, e_b+1)`` instead
(``torch.bucketize(right=True) - 1``), usually in float32, and puts a confidence of exactly 1.0
in an extra bin of its own: it agrees with the numbers here unless a probability lies exactly on
an interior edge or equals 1.

**States.** Two mergeable statistics, both holding every view (each class, then top-label), a
:class:`~clfeval.sums.LogLossSum` and a :class:`~clfeval.sums.BrierSum`:

- :class:`CalibrationTable` (exact): per view a :class:`~clfeval.scores.ScoreTable` of the distinct
  probabilities with the weight of positive and negative outcomes at each; merges like ScoreTable
  (union of values, weights added). Any binning is exact from it: uniform with any ``n_bins``,
  quantile (equal mass) bins, and Murphy's decomposition over the distinct probabilities. Its size
  grows with the number of distinct probabilities.
- :class:`CalibrationHistogram` (bounded memory): fixed equal-width bins; per view and bin the
  total weight, ``sum w*y``, ``sum w*p``, ``sum w*p^2`` and ``sum w*p*y`` (:class:`BinSums`).
  Merging adds the arrays; the size does not grow with rows. Uniform bins with ``n_bins`` equal
  to the histogram's, or a divisor of it (unions of adjacent bins, whose edges are the fine edges:
  within one rounding of ``linspace(0, 1, n_bins + 1)``, exactly equal when the ratio is a power of
  two), are exact. Quantile bins are *approximated*: the coarse edges are fine edges, the upper
  edge of the fine bin that holds each weighted quantile (``i / n_bins`` of the total weight,
  inverted CDF); every coarse bin is a union of whole fine bins, so its sums, ECE terms and the
  decomposition are exact for the bins used, and each bin's mass is off equal mass by at most the
  mass of one fine bin. Build it with many bins (say 1024, a power of two) to serve both. Its
  Brier decomposition is over its own bins (with the within-bin terms, so still exact).

Counts are int64 (exact) without sample weights; with weights they are float64 weights.

>>> y = [0, 0, 1, 1, 1, 0]
>>> p = [0.1, 0.3, 0.8, 0.9, 0.6, 0.6]
>>> round(expected_calibration_error(y, p, n_bins=5), 6)
0.15
>>> d = brier_decomposition(y, p)
>>> round(d.brier, 6), round(d.reliability - d.resolution + d.uncertainty, 6)
(0.111667, 0.111667)
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, Sequence, Union

import numpy as np

from .labels import (
    as_1d,
    check_consistent_length,
    check_sample_weight,
    encode,
    target_kind,
    union_labels,
)
from .metrics.probabilistic import (
    _check_unit_interval,
    _classes_and_codes,
    _read_labels_1d,
    read_scores,
)
from .roc_pr import _counts_at_least
from .scores import ScoreTable
from .sums import BrierSum, LogLossSum, _row_blocks

__all__ = [
    "calibration_curve",
    "reliability_curve",
    "expected_calibration_error",
    "brier_decomposition",
    "calibration_report",
    "calibration_of",
    "calibration_of_evaluation",
    "binary_calibration_report",
    "uniform_edges",
    "BinSums",
    "CalibrationHistogram",
    "CalibrationTable",
    "ReliabilityCurve",
    "BrierDecomposition",
    "CalibrationReport",
]

MODES = ("binary", "class-wise", "top-label")
NORMS = ("l1", "l2", "max")
STRATEGIES = ("uniform", "quantile")
_BINARY = np.array([False, True])
#: An Evaluation's (n, k) probability rows that all sum to 1 within this (rounding in a file, e.g.
#: 6 decimals over 10 classes) are divided by their sums before calibration; larger gaps are refused.
ROUNDED_ROWS_TOLERANCE = 1e-4


# ---------------------------------------------------------------------------------------------
# per-bin sums and the formulas that read them


@dataclass(frozen=True, eq=False)
class BinSums:
    """Per-bin sums of one or more views: arrays of shape ``(..., B)`` over bins.

    ``weight``: total weight (int64 counts without sample weights); ``positives``: ``sum w*y``
    (same dtype); ``sum_p``, ``sum_pp``, ``sum_py``: ``sum w*p``, ``sum w*p^2``, ``sum w*p*y``.
    ``edges`` (B + 1,) are the bin edges, or None when each "bin" is one distinct probability
    (then ``values`` holds it, and the within-bin spread is zero by construction).

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


def _calibration_error(w: np.ndarray, gap: np.ndarray, norm: str) -> float:
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


def _decomposition_terms(b: BinSums) -> np.ndarray:
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


# ---------------------------------------------------------------------------------------------
# bin edges and bin assignment


def uniform_edges(n_bins: int) -> np.ndarray:
    """``n_bins`` equal-width bins on [0, 1]: ``numpy.linspace(0, 1, n_bins + 1)``.

    >>> uniform_edges(4).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    return np.linspace(0.0, 1.0, n_bins + 1)


def _assign(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Bin index of each value: the first edge >= value closes its bin (see the module notes)."""
    return np.searchsorted(edges[1:-1], values, side="left")


def _assign_uniform(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """:func:`_assign` for ``edges = uniform_edges(B)`` and values in [0, 1], without a search:
    ``ceil(B * v) - 1`` is off by at most one bin near an edge (the edges are ``j * fl(1/B)``), and
    one comparison with each neighbouring edge corrects it."""
    B = edges.size - 1
    idx = np.ceil(values * B).astype(np.intp)
    idx -= 1
    np.clip(idx, 0, B - 1, out=idx)
    idx -= (values <= edges[idx]) & (idx > 0)
    idx += (values > edges[idx + 1]) & (idx < B - 1)
    return idx


def _quantile_levels(n_bins: int) -> np.ndarray:
    # the levels as numpy.percentile forms them from scikit-learn's linspace(0, 1) * 100
    return np.true_divide(np.linspace(0.0, 1.0, n_bins + 1) * 100, 100)


def _linear_quantile_edges(values: np.ndarray, counts: np.ndarray, n_bins: int) -> np.ndarray:
    """``numpy.percentile`` ("linear") of the data given as ascending distinct values with counts,
    bit for bit: the same virtual indices and the same interpolation arithmetic."""
    n = int(counts.sum())
    levels = _quantile_levels(n_bins)
    virtual = (n - 1) * levels
    below = np.floor(virtual)
    last = virtual >= n - 1
    cum = np.cumsum(counts)

    def at(i: np.ndarray) -> np.ndarray:
        return values[np.searchsorted(cum, i, side="right")]

    a = at(np.where(last, n - 1, below).astype(np.int64))
    b = at(np.where(last, n - 1, below + 1).astype(np.int64))
    t = virtual - below
    diff = b - a
    return np.where(t >= 0.5, b - diff * (1 - t), a + diff * t)


def _inverted_cdf_edges(values: np.ndarray, weights: np.ndarray, n_bins: int) -> np.ndarray:
    """numpy's weighted ``method="inverted_cdf"`` quantiles of ascending distinct values."""
    cdf = np.cumsum(weights, dtype=np.float64)
    cdf /= cdf[-1]
    idx = np.searchsorted(cdf, _quantile_levels(n_bins), side="left")
    return values[np.minimum(idx, values.size - 1)]


def _sum_runs(groups: np.ndarray, n_groups: int, *arrays: np.ndarray) -> list[np.ndarray]:
    """Sum each array over runs of equal (non-decreasing) group ids, into ``n_groups`` slots."""
    out = [np.zeros(n_groups, dtype=a.dtype) for a in arrays]
    if groups.size:
        starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
        for o, a in zip(out, arrays):
            o[groups[starts]] = np.add.reduceat(a, starts)
    return out


# ---------------------------------------------------------------------------------------------
# results


def _json_float(v: float) -> float | None:
    return None if v != v else float(v)


@dataclass(frozen=True, eq=False)
class ReliabilityCurve:
    """Per-bin mean predicted probability and observed frequency of one view, for a reliability
    diagram. Empty bins are kept (NaN means, zero weight) so that counts line up with ``edges``.

    ``weight`` is the number of samples per bin (int64), or their total weight when the data
    carry sample weights (``weighted``).

    >>> c = reliability_curve([0, 1, 1, 0], [0.2, 0.9, 0.7, 0.4], n_bins=2)
    >>> c.mean_predicted.round(6).tolist(), c.observed.tolist(), c.weight.tolist()
    ([0.3, 0.8], [0.0, 1.0], [2, 2])
    """

    edges: np.ndarray
    weight: np.ndarray
    mean_predicted: np.ndarray
    observed: np.ndarray
    view: str
    strategy: str
    weighted: bool = False

    @classmethod
    def from_bins(cls, bins: BinSums, view: str, strategy: str) -> ReliabilityCurve:
        w = bins.weight.astype(np.float64)
        nz = w > 0
        nan = np.full_like(w, np.nan)
        mean_p = np.divide(bins.sum_p, w, out=nan.copy(), where=nz)
        observed = np.divide(bins.positives, w, out=nan, where=nz)
        assert bins.edges is not None
        return cls(
            bins.edges, bins.weight, mean_p, observed, view, strategy,
            weighted=bins.weight.dtype.kind == "f",
        )

    @property
    def n_bins(self) -> int:
        return int(self.weight.size)

    @property
    def nonempty(self) -> np.ndarray:
        """Bins that hold samples (positive weight)."""
        return self.weight > 0

    @property
    def gap(self) -> np.ndarray:
        """Observed frequency minus mean predicted probability (NaN where empty)."""
        return self.observed - self.mean_predicted

    def calibration_error(self, norm: str = "l1") -> float:
        """ECE of this curve's bins (``norm``: "l1", "l2" or "max").

        >>> reliability_curve([0, 1, 1, 0], [0.2, 0.9, 0.7, 0.4], n_bins=2).calibration_error()
        0.25
        """
        _check_choice(norm, NORMS, "norm")
        w = self.weight.astype(np.float64)
        return _calibration_error(w, np.nan_to_num(self.gap), norm)

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form (valid JSON: empty bins give None)."""
        return {
            "view": self.view,
            "strategy": self.strategy,
            "weighted": self.weighted,
            "edges": self.edges.tolist(),
            "weight": self.weight.tolist(),
            "mean_predicted": [_json_float(v) for v in self.mean_predicted.tolist()],
            "observed": [_json_float(v) for v in self.observed.tolist()],
        }

    def __repr__(self) -> str:
        return (
            f"ReliabilityCurve(view={self.view!r}, strategy={self.strategy!r}, "
            f"n_bins={self.n_bins}, nonempty={int(self.nonempty.sum())}, "
            f"total_weight={_fmt(float(self.weight.sum()))})"
        )


def _fmt(v: float | None) -> str:
    if v is None:
        return "None"
    return f"{v:.4g}" if abs(v - round(v)) > 0 or abs(v) >= 1e15 else str(int(round(v)))


@dataclass(frozen=True)
class BrierDecomposition:
    """The Brier score split into reliability, resolution and uncertainty.

    ``brier = reliability - resolution + uncertainty + within_variance - within_covariance``
    (Murphy 1973; the two within-bin terms of Stephenson, Coelho & Jolliffe 2008 are zero when
    each group holds one distinct probability, ``n_bins=None``). Binary: the Brier score of the
    positive class, ``mean (y - p)^2`` (scikit-learn's binary ``brier_score_loss``); more classes:
    each term summed over the one-vs-rest views, so ``brier`` is scikit-learn's multiclass Brier
    score (unscaled, range [0, 2]).

    >>> d = brier_decomposition([0, 1, 1, 0], [0.2, 0.9, 0.9, 0.2])
    >>> round(d.brier, 6), round(d.reliability, 6), d.resolution, d.uncertainty
    (0.025, 0.025, 0.25, 0.25)
    """

    brier: float
    reliability: float
    resolution: float
    uncertainty: float
    within_variance: float = 0.0
    within_covariance: float = 0.0
    n_bins: int | None = None
    strategy: str | None = None

    @classmethod
    def from_bins(cls, views: Sequence[BinSums], n_bins: int | None, strategy: str | None) -> BrierDecomposition:
        terms = np.sum([_decomposition_terms(b) for b in views], axis=0)
        return cls(*(float(t) for t in terms), n_bins=n_bins, strategy=strategy)

    def to_dict(self) -> dict[str, Any]:
        return {
            "brier": self.brier,
            "reliability": self.reliability,
            "resolution": self.resolution,
            "uncertainty": self.uncertainty,
            "within_variance": self.within_variance,
            "within_covariance": self.within_covariance,
            "n_bins": self.n_bins,
            "strategy": self.strategy,
        }

    def __repr__(self) -> str:
        parts = [
            f"brier={self.brier:.6g}", f"reliability={self.reliability:.6g}",
            f"resolution={self.resolution:.6g}", f"uncertainty={self.uncertainty:.6g}",
        ]
        if self.n_bins is not None:
            parts += [
                f"within_variance={self.within_variance:.6g}",
                f"within_covariance={self.within_covariance:.6g}",
                f"n_bins={self.n_bins}", f"strategy={self.strategy!r}",
            ]
        return f"BrierDecomposition({', '.join(parts)})"


@dataclass(frozen=True, eq=False)
class CalibrationReport:
    """Calibration of one probabilistic classifier: ECE (three norms) in the headline ``mode``,
    L1 ECE in every mode, Brier score with its decomposition, log loss and the reliability bins.

    ``brier`` and ``log_loss`` follow scikit-learn (binary Brier halved, multiclass unscaled);
    ``decomposition`` is over the report's bins, with Stephenson et al.'s within-bin terms (over
    distinct probabilities, as :func:`brier_decomposition` gives by default, continuous scores
    make every group one sample: reliability = Brier and resolution = uncertainty, which says
    nothing).
    """

    mode: str
    n_bins: int
    strategy: str
    ece: float
    ece_l2: float
    ece_max: float
    ece_by_mode: dict[str, float]
    brier: float
    log_loss: float
    decomposition: BrierDecomposition
    reliability: ReliabilityCurve
    classes: tuple
    total_weight: float

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form (valid JSON)."""
        return {
            "mode": self.mode,
            "n_bins": self.n_bins,
            "strategy": self.strategy,
            "ece": self.ece,
            "ece_l2": self.ece_l2,
            "ece_max": self.ece_max,
            "ece_by_mode": dict(self.ece_by_mode),
            "brier": self.brier,
            "log_loss": self.log_loss,
            "decomposition": self.decomposition.to_dict(),
            "reliability": self.reliability.to_dict(),
            "classes": [c if isinstance(c, (str, int, float, bool)) else str(c) for c in self.classes],
            "total_weight": self.total_weight,
        }

    def __repr__(self) -> str:
        return (
            f"CalibrationReport(mode={self.mode!r}, n_bins={self.n_bins}, "
            f"strategy={self.strategy!r}, ece={self.ece:.4f}, ece_l2={self.ece_l2:.4f}, "
            f"ece_max={self.ece_max:.4f}, brier={self.brier:.4f}, log_loss={self.log_loss:.4f}, "
            f"total_weight={_fmt(self.total_weight)})"
        )


# ---------------------------------------------------------------------------------------------
# building the views from validated arrays


def _block_columns(proba: np.ndarray, positive: int, rows: slice) -> np.ndarray:
    """Rows of the (n, k) probability matrix; 1-D binary ``p`` becomes ``[1 - p, p]`` in class
    order (``p`` belongs to class ``positive``)."""
    p = proba[rows]
    if proba.ndim == 2:
        return p.astype(np.float64, copy=False)
    out = np.empty((p.shape[0], 2))
    out[:, positive] = p
    out[:, 1 - positive] = 1.0 - p.astype(np.float64, copy=False)
    return out


def _view_block(P: np.ndarray, codes: np.ndarray, views: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """(values, outcomes) of shape (rows, V): view ``c < k`` is class ``c``; ``k`` is top-label."""
    k = P.shape[1]
    values = np.empty((P.shape[0], len(views)))
    outcomes = np.empty((P.shape[0], len(views)), dtype=bool)
    for j, v in enumerate(views):
        if v == k:
            top = np.argmax(P, axis=1)
            values[:, j] = P[np.arange(P.shape[0]), top]
            outcomes[:, j] = top == codes
        else:
            values[:, j] = P[:, v]
            outcomes[:, j] = codes == v
    return values, outcomes


def _histogram(
    codes: np.ndarray, proba: np.ndarray, positive: int, weight: np.ndarray | None,
    edges: np.ndarray, views: Sequence[int],
) -> BinSums:
    """Stacked (V, B) bin sums of the given views over ``edges = uniform_edges(B)``, in row
    blocks (bounded temporaries)."""
    n = codes.shape[0]
    k = proba.shape[1] if proba.ndim == 2 else 2
    V, B = len(views), edges.size - 1
    size = V * B
    count_dtype = np.int64 if weight is None else np.float64
    weight_sum = np.zeros(size, dtype=count_dtype)
    positives = np.zeros(size, dtype=count_dtype)
    sum_p, sum_pp, sum_py = np.zeros(size), np.zeros(size), np.zeros(size)
    offsets = np.arange(V) * B
    for rows in _row_blocks(n, k + V):
        values, outcomes = _view_block(_block_columns(proba, positive, rows), codes[rows], views)
        flat = (_assign_uniform(values, edges) + offsets).ravel()
        hit = outcomes.ravel()
        if weight is None:
            wv = values.ravel()
            weight_sum += np.bincount(flat, minlength=size)
            positives += np.bincount(flat[hit], minlength=size)
        else:
            w = np.broadcast_to(weight[rows].astype(np.float64)[:, None], values.shape).ravel()
            wv = values.ravel() * w
            weight_sum += np.bincount(flat, weights=w, minlength=size)
            positives += np.bincount(flat[hit], weights=w[hit], minlength=size)
        sum_p += np.bincount(flat, weights=wv, minlength=size)
        sum_pp += np.bincount(flat, weights=wv * values.ravel(), minlength=size)
        sum_py += np.bincount(flat[hit], weights=wv[hit], minlength=size)
    return BinSums(
        edges, weight_sum.reshape(V, B), positives.reshape(V, B), sum_p.reshape(V, B),
        sum_pp.reshape(V, B), sum_py.reshape(V, B),
    )


def _view_table(
    codes: np.ndarray, proba: np.ndarray, positive: int, weight: np.ndarray | None, view: int
) -> ScoreTable:
    """Exact table of one view: distinct probabilities with [negative, positive] weights."""
    n = codes.shape[0]
    k = proba.shape[1] if proba.ndim == 2 else 2
    values = np.empty(n)
    outcomes = np.empty(n, dtype=bool)
    for rows in _row_blocks(n, k + 1):
        v, o = _view_block(_block_columns(proba, positive, rows), codes[rows], [view])
        values[rows], outcomes[rows] = v[:, 0], o[:, 0]
    return ScoreTable._build(outcomes, values, _BINARY, weight, owned=True)


def _table_bins(table: ScoreTable, edges: np.ndarray | None) -> BinSums:
    """Bin sums of an exact view table over ``edges``, or one group per distinct probability."""
    v = table.scores[::-1]  # ascending
    counts = table.counts[::-1]
    w = counts[:, 0] + counts[:, 1]
    y = counts[:, 1]
    vw = v * w
    if edges is None:
        return BinSums(None, w, y, vw, v * vw, v * y, values=v)
    groups = _assign(v, edges)
    sums = _sum_runs(groups, edges.size - 1, w, y, vw, v * vw, v * y)
    return BinSums(edges, *sums)


def _decreasing_bins(v: np.ndarray, neg: np.ndarray | None, pos: np.ndarray, edges: np.ndarray) -> BinSums:
    """:func:`_table_bins` of distinct probabilities ``v`` given in decreasing order with their
    negative and positive counts (same dtype; ``neg=None`` with boolean ``pos``: one sample per
    probability): each bin is a contiguous run, found by bisection at each edge, and summed by dot
    products (equal to the table's sums up to rounding)."""
    d = v.size
    B = edges.size - 1
    # a value lies in bin j when edges[j] < value <= edges[j + 1]; in decreasing order bin j
    # runs from the values above edges[j + 1] to those above edges[j]
    # how many values lie above each inner edge (> e is >= the next float up)
    inner = np.nextafter(edges[-2:0:-1], np.inf)
    above = [0, *_counts_at_least(v, inner).tolist(), d]  # bins B-1, ..., 0
    unit = neg is None
    w = None if unit else neg + pos
    wf = None if unit else w.astype(np.float64, copy=False)
    yf = None if unit else pos.astype(np.float64, copy=False)
    sums = [np.zeros(B, dtype=np.int64 if unit else w.dtype), np.zeros(B, dtype=np.int64 if unit else pos.dtype)]
    sums += [np.zeros(B) for _ in range(3)]
    for k in range(B):
        lo, hi = above[k], above[k + 1]
        if hi == lo:
            continue
        j = B - 1 - k
        vs = v[lo:hi]
        if unit:
            ys = pos[lo:hi]
            sums[0][j], sums[1][j] = hi - lo, np.count_nonzero(ys)
            sums[2][j], sums[3][j], sums[4][j] = vs.sum(), np.dot(vs, vs), np.sum(vs, where=ys)
        else:
            vw = vs * wf[lo:hi]
            sums[0][j], sums[1][j] = w[lo:hi].sum(), pos[lo:hi].sum()
            sums[2][j], sums[3][j], sums[4][j] = vw.sum(), np.dot(vw, vs), np.dot(vs, yf[lo:hi])
    return BinSums(edges, *sums)


def _table_edges(table: ScoreTable, n_bins: int, strategy: str) -> np.ndarray:
    if strategy == "uniform":
        return uniform_edges(n_bins)
    v = table.scores[::-1]
    counts = table.counts[::-1]
    w = counts[:, 0] + counts[:, 1]
    if v.size == 0:
        raise ValueError("quantile bins need at least one sample of positive weight.")
    if table.weighted:
        return _inverted_cdf_edges(v, w, n_bins)
    return _linear_quantile_edges(v, w, n_bins)


def _coarsen(bins: BinSums, n_bins: int, strategy: str) -> BinSums:
    """Bins of one histogram view as unions of its fine bins (see the module notes)."""
    B = bins.n_bins
    assert bins.edges is not None
    if strategy == "uniform":
        if n_bins == B:
            return bins
        if n_bins > B or B % n_bins:
            raise ValueError(
                f"this histogram has {B} equal-width bins, so its uniform bins come in counts that "
                f"divide {B}; got n_bins={n_bins}. Build the state with n_bins={n_bins} (or a "
                "multiple of it), or use the exact table (calibration_of(..., n_bins=None))."
            )
        cut = np.arange(0, B + 1, B // n_bins)
    else:
        if n_bins > B:
            raise ValueError(
                f"this histogram has {B} bins; it cannot give {n_bins} quantile bins. Build it "
                "with more bins, or use the exact table."
            )
        w = bins.weight.astype(np.float64)
        cum = np.cumsum(w)
        if not cum[-1] > 0:
            raise ValueError("quantile bins need at least one sample of positive weight.")
        targets = cum[-1] * np.arange(1, n_bins) / n_bins
        inner = np.searchsorted(cum, targets, side="left") + 1  # upper edge of that fine bin
        cut = np.concatenate([[0], np.minimum(inner, B), [B]])
    group = np.searchsorted(cut, np.arange(B), side="right") - 1
    sums = []
    for a in (bins.weight, bins.positives, bins.sum_p, bins.sum_pp, bins.sum_py):
        out = np.zeros(n_bins, dtype=a.dtype)
        np.add.at(out, group, a)
        sums.append(out)
    return BinSums(bins.edges[cut], *sums)


# ---------------------------------------------------------------------------------------------
# the mergeable states


def _check_choice(value: Any, options: Sequence[str], name: str) -> str:
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {list(options)}, got {value!r}.")
    return value


def _check_n_bins(n_bins: Any, name: str = "n_bins") -> int:
    if isinstance(n_bins, (bool, np.bool_)) or not isinstance(n_bins, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= 1, got {n_bins!r}.")
    if n_bins < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {n_bins!r}.")
    return int(n_bins)


@dataclass(frozen=True, eq=False)
class _CalibrationState:
    """What both states share: the classes, the default mode, the additive sums, the readers."""

    classes: tuple
    mode: str
    positive: int | None
    log_loss_sum: LogLossSum
    brier_sum: BrierSum

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    @property
    def total_weight(self) -> float:
        return float(self.brier_sum.weight)

    # -- subclass hooks --------------------------------------------------------------------------
    _default_bins = 15

    def _bins(self, view: int, n_bins: int | None, strategy: str) -> BinSums:  # pragma: no cover
        raise NotImplementedError

    def _groups(self, view: int) -> BinSums:  # pragma: no cover
        """The decomposition's default grouping: distinct probabilities, or the histogram's bins."""
        raise NotImplementedError

    def _merge_parts(self, other: Any) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    # -- merging -----------------------------------------------------------------------------------
    def merge(self, other: Any) -> Any:
        """The state of the concatenated data (same classes, settings and kind of state)."""
        if type(other) is not type(self):
            raise TypeError(f"cannot merge {type(self).__name__} with {type(other).__name__}.")
        mine = (self.classes, self.mode, self.positive)
        theirs = (other.classes, other.mode, other.positive)
        if mine != theirs:
            raise ValueError(
                "cannot merge calibration states built with different classes or settings: "
                f"(classes, mode, positive) = {mine} vs {theirs}."
            )
        return replace(
            self,
            log_loss_sum=self.log_loss_sum.merge(other.log_loss_sum),
            brier_sum=self.brier_sum.merge(other.brier_sum),
            **self._merge_parts(other),
        )

    # -- views ---------------------------------------------------------------------------------------
    def _class_index(self, label: Any) -> int:
        for i, c in enumerate(self.classes):
            if c == label or str(c) == str(label):
                return i
        raise ValueError(f"{label!r} is not one of the classes {list(self.classes)}.")

    def _positive_index(self, pos_label: Any) -> int:
        if pos_label is not None:
            return self._class_index(pos_label)
        if self.positive is None:
            raise ValueError(
                f"mode='binary' needs a positive class among {self.n_classes} classes: pass "
                "pos_label (that class against the rest)."
            )
        return self.positive

    def _views(self, mode: str | None, pos_label: Any = None) -> tuple[str, list[int]]:
        mode = self.mode if mode is None else _check_choice(mode, MODES, "mode")
        if mode == "binary":
            return mode, [self._positive_index(pos_label)]
        if mode == "class-wise":
            return mode, list(range(self.n_classes))
        return mode, [self.n_classes]

    def _view_name(self, view: int) -> str:
        if view == self.n_classes:
            return "top-label"
        return f"class {self.classes[view]} vs rest" if self.n_classes > 2 else (
            f"positive class {self.classes[view]}"
        )

    # -- readers -----------------------------------------------------------------------------------
    def reliability(
        self, *, mode: str | None = None, pos_label: Any = None, n_bins: int | None = None,
        strategy: str = "uniform",
    ) -> ReliabilityCurve:
        """Reliability bins of one view: ``mode`` "binary" (class ``pos_label``, default the
        positive class) or "top-label"; default the state's mode."""
        _check_choice(strategy, STRATEGIES, "strategy")
        mode, views = self._views(mode, pos_label)
        if len(views) != 1:
            raise ValueError(
                "a reliability curve shows one view: use mode='binary' with pos_label=<class> "
                "or mode='top-label'."
            )
        b = self._bins(views[0], n_bins, strategy)
        return ReliabilityCurve.from_bins(b, self._view_name(views[0]), strategy)

    def ece(
        self, norm: str = "l1", *, mode: str | None = None, pos_label: Any = None,
        n_bins: int | None = None, strategy: str = "uniform",
    ) -> float:
        """Expected calibration error; class-wise is the mean over classes of each class's ECE."""
        _check_choice(norm, NORMS, "norm")
        _check_choice(strategy, STRATEGIES, "strategy")
        _, views = self._views(mode, pos_label)
        errors = [_calibration_error(*self._bins(v, n_bins, strategy).gaps(), norm) for v in views]
        return float(np.mean(errors))

    def brier_decomposition(
        self, *, n_bins: int | None = None, strategy: str = "uniform", pos_label: Any = None
    ) -> BrierDecomposition:
        """Brier decomposition: the positive class for two classes (or ``pos_label``'s
        one-vs-rest view), else summed over the classes. ``n_bins=None``: over the distinct
        probabilities (exact state) or the histogram's own bins (bounded state)."""
        _check_choice(strategy, STRATEGIES, "strategy")
        if pos_label is not None or self.n_classes == 2:
            views = [self._positive_index(pos_label)]
        else:
            views = list(range(self.n_classes))
        bins = [self._bins(v, n_bins, strategy) if n_bins is not None else self._groups(v) for v in views]
        used = None if bins[0].edges is None else bins[0].n_bins
        return BrierDecomposition.from_bins(bins, used, None if used is None else strategy)

    def report(self, n_bins: int | None = None, strategy: str = "uniform") -> CalibrationReport:
        """Every calibration number of this state (see :class:`CalibrationReport`)."""
        _check_choice(strategy, STRATEGIES, "strategy")
        b = self._bins(self._views(None)[1][0], n_bins, strategy)
        used = b.n_bins
        ece3 = {norm: self.ece(norm, n_bins=used, strategy=strategy) for norm in NORMS}
        modes = ["binary"] if self.positive is not None else []
        by_mode = {m: self.ece(mode=m, n_bins=used, strategy=strategy) for m in modes + ["class-wise", "top-label"]}
        return CalibrationReport(
            mode=self.mode,
            n_bins=used,
            strategy=strategy,
            ece=ece3["l1"],
            ece_l2=ece3["l2"],
            ece_max=ece3["max"],
            ece_by_mode=by_mode,
            brier=self.brier_sum.score(),
            log_loss=self.log_loss_sum.mean(),
            decomposition=self.brier_decomposition(n_bins=used, strategy=strategy),
            reliability=self.reliability(n_bins=used, strategy=strategy),
            classes=self.classes,
            total_weight=self.total_weight,
        )

    def _common_dict(self) -> dict[str, Any]:
        return {
            "classes": [c if isinstance(c, (str, int, float, bool)) else str(c) for c in self.classes],
            "mode": self.mode,
            "positive": self.positive,
            "log_loss": {"total": self.log_loss_sum.total, "weight": self.log_loss_sum.weight},
            "brier": {"total": self.brier_sum.total, "weight": self.brier_sum.weight},
        }


@dataclass(frozen=True, eq=False)
class CalibrationTable(_CalibrationState):
    """Exact calibration state: per view (each class, then top-label) a ScoreTable of the distinct
    probabilities with [negative, positive] outcome weights. Merges exactly; any binning is exact.

    >>> s = calibration_of(np.array([0, 1, 1]), np.array([0.2, 0.9, 0.6]))
    >>> s
    CalibrationTable(classes=[0, 1], mode='binary', total_weight=3, distinct=[3, 3, 3])
    >>> round(s.merge(s).ece(n_bins=2), 6)
    0.233333
    """

    tables: tuple = ()

    def _bins(self, view: int, n_bins: int | None, strategy: str) -> BinSums:
        table = self.tables[view]
        n_bins = self._default_bins if n_bins is None else _check_n_bins(n_bins)
        return _table_bins(table, _table_edges(table, n_bins, strategy))

    def _groups(self, view: int) -> BinSums:
        return _table_bins(self.tables[view], None)

    def _merge_parts(self, other: CalibrationTable) -> dict[str, Any]:
        return {"tables": tuple(a.merge(b) for a, b in zip(self.tables, other.tables))}

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form: the per-view tables (classes in order, then top-label)."""
        out = self._common_dict()
        out["views"] = [t.to_dict() for t in self.tables]
        return out

    def __repr__(self) -> str:
        return (
            f"CalibrationTable(classes={list(self.classes)}, mode={self.mode!r}, "
            f"total_weight={_fmt(self.total_weight)}, distinct={[len(t) for t in self.tables]})"
        )


@dataclass(frozen=True, eq=False)
class CalibrationHistogram(_CalibrationState):
    """Bounded calibration state: fixed equal-width bins, per view (each class, then top-label)
    the :class:`BinSums`, stacked ``(k + 1, n_bins)``. Merges by adding the arrays.

    >>> h = calibration_of(np.array([0, 1, 1]), np.array([0.2, 0.9, 0.6]), n_bins=4)
    >>> h
    CalibrationHistogram(classes=[0, 1], mode='binary', n_bins=4, total_weight=3)
    >>> h.merge(h).sums.weight.tolist()
    [[2, 2, 0, 2], [2, 0, 2, 2], [0, 0, 2, 4]]
    """

    sums: BinSums | None = None

    @property
    def n_bins(self) -> int:
        assert self.sums is not None
        return self.sums.n_bins

    def _bins(self, view: int, n_bins: int | None, strategy: str) -> BinSums:
        assert self.sums is not None
        n_bins = self.n_bins if n_bins is None else _check_n_bins(n_bins)
        return _coarsen(self.sums.row(view), n_bins, strategy)

    def _groups(self, view: int) -> BinSums:
        assert self.sums is not None
        return self.sums.row(view)

    def _merge_parts(self, other: CalibrationHistogram) -> dict[str, Any]:
        assert self.sums is not None and other.sums is not None
        return {"sums": self.sums.merge(other.sums)}

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form: the stacked bin sums (classes in order, then top-label)."""
        assert self.sums is not None
        out = self._common_dict()
        out["sums"] = self.sums.to_dict()
        return out

    def __repr__(self) -> str:
        return (
            f"CalibrationHistogram(classes={list(self.classes)}, mode={self.mode!r}, "
            f"n_bins={self.n_bins}, total_weight={_fmt(self.total_weight)})"
        )


State = Union[CalibrationTable, CalibrationHistogram]


def _first(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def _check_rows_sum_to_one(P: np.ndarray, name: str) -> None:
    tol = 1e-8 + np.sqrt(np.finfo(P.dtype).eps)
    sums = np.einsum("ij->i", P.astype(np.float64, copy=False))
    bad = np.abs(sums - 1.0) > tol
    if bad.any():
        i = _first(bad)
        raise ValueError(
            f"{name} rows must sum to 1 (probabilities of mutually exclusive classes), but "
            f"{int(bad.sum())} row(s) do not; the first is row {i}, which sums to "
            f"{float(sums[i])!r}. Normalise the rows (divide by their sums) or pass calibrated "
            "probabilities such as predict_proba output."
        )


def calibration_of(
    true_codes: Any,
    proba: Any,
    weights: Any = None,
    *,
    classes: Sequence[Any] | None = None,
    positive: int | None = None,
    n_bins: int | None = None,
) -> State:
    """The mergeable calibration state of encoded data: the entry point for other layers.

    ``true_codes``: (n,) integer class indices in ``[0, k)``. ``proba``: (n,) probabilities of
    class ``positive`` (binary, k = 2; default 1) or (n, k) with rows summing to 1. ``weights``:
    (n,) non-negative or None. ``classes``: the k class labels (default ``0..k-1``).
    ``positive``: with (n, k) input, the class that ``mode="binary"`` reads (default 1 for two
    classes, else none). ``n_bins``: None for the exact :class:`CalibrationTable`, an integer for
    a bounded :class:`CalibrationHistogram` with that many equal-width bins.
    Default mode: "binary" for 1-D ``proba``, "top-label" for (n, k).

    >>> calibration_of([0, 1, 2], [[.7, .2, .1], [.1, .8, .1], [.3, .3, .4]], n_bins=5).ece()
    0.3666666666666667
    """
    codes = np.asarray(true_codes)
    if codes.ndim != 1 or codes.dtype.kind not in "biu":
        raise TypeError(
            f"true_codes must be a 1-D array of integer class indices, got dtype {codes.dtype} "
            f"and shape {codes.shape}."
        )
    P = np.asarray(proba)
    if P.dtype.kind not in "biuf":
        raise TypeError(f"proba must be numeric probabilities, got dtype {P.dtype}.")
    if P.dtype.kind != "f":
        P = P.astype(np.float64)
    if P.ndim not in (1, 2):
        raise ValueError(f"proba must be 1-D (binary) or 2-D (n, k), got shape {P.shape}.")
    n = check_consistent_length(true_codes=codes, proba=P)
    if not np.isfinite(P).all():
        bad = ~np.isfinite(P)
        where = np.argwhere(bad)[0]
        pos = int(where[0]) if where.size == 1 else tuple(int(i) for i in where)
        raise ValueError(
            f"proba contains {int(bad.sum())} NaN or infinite value(s); the first is at position "
            f"{pos}. Probabilities must be finite numbers in [0, 1]."
        )
    if n:
        _check_unit_interval(P, "proba")
    k = 2 if P.ndim == 1 else P.shape[1]
    if k < 2:
        raise ValueError(f"proba needs at least two classes (columns), got shape {P.shape}.")
    if P.ndim == 2 and n:
        _check_rows_sum_to_one(P, "proba")
    names = tuple(range(k)) if classes is None else tuple(np.asarray(classes).tolist())
    if len(names) != k:
        raise ValueError(f"classes has {len(names)} entries but proba has {k} classes.")
    if n and (int(codes.min()) < 0 or int(codes.max()) >= k):
        bad = _first((codes < 0) | (codes >= k))
        raise ValueError(
            f"true_codes must lie in [0, {k}) to index the {k} classes; true_codes[{bad}] = "
            f"{int(codes[bad])}."
        )
    codes = codes.astype(np.intp, copy=False)
    w = check_sample_weight(weights, n)
    if P.ndim == 1:
        positive = 1 if positive is None else int(positive)
        if positive not in (0, 1):
            raise ValueError(f"positive must be 0 or 1 for 1-D binary proba, got {positive}.")
        mode, target = "binary", (codes == positive).view(np.uint8)
    else:
        if positive is None:
            positive = 1 if k == 2 else None
        elif not 0 <= int(positive) < k:
            raise ValueError(f"positive must index one of the {k} classes, got {positive}.")
        else:
            positive = int(positive)
        mode, target = "top-label", codes
    sums = (LogLossSum.from_encoded(target, P, w), BrierSum.from_encoded(target, P, w))
    pos = 1 if positive is None else positive
    views = list(range(k + 1))
    if n_bins is None:
        tables = tuple(_view_table(codes, P, pos, w, v) for v in views)
        return CalibrationTable(names, mode, positive, *sums, tables=tables)
    edges = uniform_edges(_check_n_bins(n_bins))
    return CalibrationHistogram(names, mode, positive, *sums, sums=_histogram(codes, P, pos, w, edges, views))


def calibration_of_evaluation(ev: Any, *, n_bins: int | None = None) -> State:
    """The calibration state of an :class:`~clfeval.evaluation.Evaluation` with probabilities.

    Binary: the positive class's probabilities (mode "binary"); multi-class: the (n, k) rows
    (mode "top-label"). Multilabel evaluations are not supported yet.

    >>> import clfeval
    >>> ev = clfeval.evaluate(["a", "b", "b"], y_score=[0.3, 0.8, 0.4], pos_label="b")
    >>> calibration_of_evaluation(ev)
    CalibrationTable(classes=['a', 'b'], mode='binary', total_weight=3, distinct=[3, 3, 3])
    """
    x = _evaluation_inputs(ev)
    return calibration_of(x.codes, x.proba, x.weight, classes=x.classes, positive=x.positive, n_bins=n_bins)


def binary_calibration_report(
    ranking: Any, *, classes: Sequence[Any], positive: int, n_bins: int = 15, strategy: str = "uniform"
) -> CalibrationReport:
    """The calibration report of a binary evaluation's positive-class probabilities, read off its
    :class:`~clfeval.roc_pr.BinaryRanking` (the distinct probabilities with their outcome counts,
    already sorted): O(distinct probabilities), no pass over the samples. Mode "binary" only
    (``ece_by_mode`` holds just it); the Brier decomposition is over the report's bins, exact with
    its within-bin terms.
    The numbers equal :func:`calibration_report` on the same data.

    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 0, 1, 1, 1, 0], y_score=[0.1, 0.3, 0.8, 0.9, 0.6, 0.6])
    >>> r = binary_calibration_report(ev.ranking("1"), classes=[0, 1], positive=1, n_bins=5)
    >>> round(r.ece, 6), round(r.brier, 6)
    (0.15, 0.111667)
    """
    _check_choice(strategy, STRATEGIES, "strategy")
    n_bins = _check_n_bins(n_bins)
    # decreasing; probabilities within the tolerance of [0, 1] (clfeval.score_kind) count as 0 or 1
    v = _onto_unit_interval(np.asarray(ranking.scores, dtype=np.float64))
    eps = np.finfo(np.float64).eps
    if ranking.neg is None and ranking.pos.dtype == np.bool_:
        # one sample per distinct probability: its outcome is pos
        is_pos = ranking.pos
        edges = uniform_edges(n_bins) if strategy == "uniform" else _linear_quantile_edges(
            v[::-1], np.ones(v.size, dtype=np.int64), n_bins)
        binned = _decreasing_bins(v, None, is_pos, edges)
        brier_total = log_total = 0.0
        step = 1 << 18  # in blocks: small temporaries that stay in cache
        for start in range(0, v.size, step):
            vb, yb = v[start:start + step], is_pos[start:start + step]
            gap = vb - yb
            brier_total += float(np.dot(gap, gap))
            # -log of the probability given to what happened, clipped as scikit-learn does
            q = np.where(yb, vb, 1.0 - vb)
            log_total -= float(np.log(np.clip(q, eps, 1.0 - eps, out=q), out=q).sum())
        total = float(v.size)
    else:
        neg, pos = ranking.negatives(), np.asarray(ranking.pos)
        count_dtype = np.float64 if neg.dtype.kind == "f" or pos.dtype.kind == "f" else np.int64
        neg, pos = neg.astype(count_dtype, copy=False), pos.astype(count_dtype, copy=False)
        if strategy == "uniform":
            edges = uniform_edges(n_bins)
        else:
            w_up = (neg + pos)[::-1]
            quantiles = _inverted_cdf_edges if count_dtype == np.float64 else _linear_quantile_edges
            edges = quantiles(v[::-1], w_up, n_bins)
        binned = _decreasing_bins(v, neg, pos, edges)
        # sums over the distinct probabilities v, each outcome weighted by its count
        wn, wp = neg.astype(np.float64, copy=False), pos.astype(np.float64, copy=False)
        total = float(wn.sum() + wp.sum())
        u = 1.0 - v
        brier_total = float(np.dot(wp * u, u) + np.dot(wn * v, v))
        log_p = np.log(np.clip(v, eps, 1.0 - eps, out=np.empty_like(v)))
        log_q = np.log(np.clip(u, eps, 1.0 - eps, out=u), out=u)
        log_total = -float(np.dot(wp, log_p) + np.dot(wn, log_q))
    w_gap = binned.gaps()
    ece3 = {norm: _calibration_error(*w_gap, norm) for norm in NORMS}
    # the per-sample terms of BrierSum (2 (y - v)^2 over both columns) and LogLossSum
    brier_sum, log_loss_sum = BrierSum(2.0 * brier_total, total, 2), LogLossSum(log_total, total, 2)
    return CalibrationReport(
        mode="binary", n_bins=n_bins, strategy=strategy,
        ece=ece3["l1"], ece_l2=ece3["l2"], ece_max=ece3["max"], ece_by_mode={"binary": ece3["l1"]},
        brier=brier_sum.score(),
        log_loss=log_loss_sum.mean(),
        decomposition=BrierDecomposition.from_bins([binned], n_bins, strategy),
        reliability=ReliabilityCurve.from_bins(binned, f"positive class {classes[positive]}", strategy),
        classes=tuple(classes), total_weight=total,
    )


# ---------------------------------------------------------------------------------------------
# user-facing input checks


class _Inputs(NamedTuple):
    codes: np.ndarray
    proba: np.ndarray
    weight: np.ndarray | None
    classes: tuple
    positive: int | None

    @property
    def k(self) -> int:
        return 2 if self.proba.ndim == 1 else self.proba.shape[1]


_CONVENTIONAL = ([0, 1], [-1, 1], [0], [-1], [1])


def _read_binary(y_true: Any, proba: np.ndarray, pos_label: Any, weight: Any) -> _Inputs:
    yt = _read_labels_1d(y_true)
    n = check_consistent_length(y_true=yt, y_prob=proba)
    w = check_sample_weight(weight, n, allow_all_zero=False)
    _check_unit_interval(proba, "y_prob")
    kind, present = target_kind(yt, "y_true")
    if kind != "binary":
        what = f"{present.size} classes {present[:8].tolist()}" if kind == "multiclass" else f"{kind} values"
        raise ValueError(
            f"y_prob is 1-D (the probability of one class), so y_true must be binary, but it has "
            f"{what}. For several classes pass y_prob with shape (n_samples, n_classes)."
        )
    if pos_label is None:
        numeric = present.dtype.kind in "biuf" or (present.size and not isinstance(present.tolist()[0], str))
        if not numeric or not any(np.array_equal(present, c) for c in _CONVENTIONAL):
            raise ValueError(
                f"y_true takes values {present.tolist()} and pos_label is not specified: pass "
                "pos_label (the class whose probability y_prob holds), or make y_true take "
                "values in {0, 1} or {-1, 1}."
            )
        pos_label = 1
    elif not isinstance(pos_label, (str, numbers.Real, np.bool_)):
        raise TypeError(f"pos_label must be a single label, got {pos_label!r}.")
    union_labels(present, np.asarray([pos_label]), names=("y_true", "pos_label"))
    pos_code = encode(np.asarray([pos_label]), present)[0]
    if pos_code < 0 and present.size == 2:
        raise ValueError(
            f"pos_label={pos_label!r} is not one of the classes in y_true {present.tolist()}; "
            "pass one of them."
        )
    pos = pos_label.item() if isinstance(pos_label, np.generic) else pos_label
    if present.size == 2:  # the classes in sorted order; p is the probability of one of them
        return _Inputs(encode(yt, present), proba, w, tuple(present.tolist()), int(pos_code))
    # one class present: name the missing one
    if pos_code >= 0:
        negative: Any = {1: 0, 0: 1, -1: 1}.get(pos, f"not {pos}") if not isinstance(pos, bool) else not pos
    else:
        negative = present.tolist()[0]
    codes = np.full(yt.shape[0], 1 if pos_code >= 0 else 0, dtype=np.intp)
    return _Inputs(codes, proba, w, (negative, pos), 1)


def _read_inputs(
    y_true: Any, y_prob: Any, *, pos_label: Any = None, labels: Any = None, sample_weight: Any = None
) -> _Inputs:
    """Validated (codes, probabilities, weights, classes, positive) from user input."""
    proba = read_scores(y_prob, "y_prob")
    if proba.ndim == 1:
        if labels is not None:
            raise ValueError("labels applies to (n_samples, n_classes) y_prob; for 1-D use pos_label.")
        return _read_binary(y_true, proba, pos_label, sample_weight)
    yt = _read_labels_1d(y_true)
    n = check_consistent_length(y_true=yt, y_prob=proba)
    w = check_sample_weight(sample_weight, n, allow_all_zero=False)
    _check_unit_interval(proba, "y_prob")
    _, classes, codes = _classes_and_codes(yt, labels, strict_order=False)
    k = proba.shape[1]
    if classes.size != k:
        source = "y_true" if labels is None else "labels"
        hint = " If y_true lacks some classes, pass all of them through labels." if labels is None else ""
        raise ValueError(
            f"{source} has {classes.size} classes {classes.tolist()[:8]} but y_prob has {k} "
            f"columns; y_prob needs one column per class, in sorted label order.{hint}"
        )
    _check_rows_sum_to_one(proba, "y_prob")
    positive = None
    if pos_label is not None:
        idx = encode(np.asarray([pos_label]), classes)[0]
        if idx < 0:
            raise ValueError(f"pos_label={pos_label!r} is not one of the classes {classes.tolist()}.")
        positive = int(idx)
    elif k == 2:
        positive = 1
    return _Inputs(codes, proba, w, tuple(classes.tolist()), positive)


def _input_views(x: _Inputs, mode: str | None) -> tuple[str, list[int]]:
    mode = ("binary" if x.proba.ndim == 1 else "top-label") if mode is None else mode
    _check_choice(mode, MODES, "mode")
    if mode == "binary":
        if x.positive is None:
            raise ValueError(
                f"mode='binary' with {x.k} classes needs pos_label: the class to read against the "
                "rest."
            )
        return mode, [x.positive]
    if mode == "class-wise":
        return mode, list(range(x.k))
    return mode, [x.k]


def _input_bins(x: _Inputs, views: list[int], n_bins: int | None, strategy: str) -> list[BinSums]:
    """Bin sums of the requested views only: one histogram pass for uniform bins, an exact table
    per view for quantile bins and for ``n_bins=None`` (one group per distinct probability)."""
    pos = 1 if x.positive is None else x.positive
    if n_bins is not None and strategy == "uniform":
        stacked = _histogram(x.codes, x.proba, pos, x.weight, uniform_edges(n_bins), views)
        return [stacked.row(i) for i in range(len(views))]
    out = []
    for v in views:
        table = _view_table(x.codes, x.proba, pos, x.weight, v)
        out.append(_table_bins(table, None if n_bins is None else _table_edges(table, n_bins, strategy)))
    return out


def _view_label(x: _Inputs, view: int) -> str:
    if view == x.k:
        return "top-label"
    return f"positive class {x.classes[view]}" if x.k == 2 else f"class {x.classes[view]} vs rest"


def _resolve_view(x: _Inputs, mode: str | None, pos_label: Any) -> int:
    """The one view a reliability curve shows: ``pos_label``'s class (mode "binary"), the
    positive class, or top-label."""
    if mode is None and pos_label is not None:
        mode = "binary"
    if mode == "binary" and pos_label is not None:
        hits = [i for i, c in enumerate(x.classes) if c == pos_label or str(c) == str(pos_label)]
        if not hits:
            raise ValueError(f"pos_label={pos_label!r} is not one of the classes {list(x.classes)}.")
        return hits[0]
    _, views = _input_views(x, mode)
    if len(views) != 1:
        raise ValueError(
            "a reliability curve shows one view: pass mode='binary' (with pos_label for more "
            "than two classes) or mode='top-label'."
        )
    return views[0]


def _reliability(x: _Inputs, view: int, n_bins: int, strategy: str) -> ReliabilityCurve:
    bins = _input_bins(x, [view], n_bins, strategy)[0]
    return ReliabilityCurve.from_bins(bins, _view_label(x, view), strategy)


def _onto_unit_interval(p: np.ndarray) -> np.ndarray:
    """Probabilities that lie within the tolerance of [0, 1] (an Evaluation reads them as
    probabilities, see :mod:`clfeval.score_kind`) put onto [0, 1]: 1.0000001 counts as 1 in the
    bins, the Brier score and the log loss; ``p`` itself when all lie inside (no copy).

    >>> _onto_unit_interval(np.array([1.0000001, 0.5, -1e-9])).tolist()
    [1.0, 0.5, 0.0]
    """
    if p.size and (p.min() < 0.0 or p.max() > 1.0):
        return np.clip(p, 0.0, 1.0)
    return p


def _evaluation_inputs(ev: Any) -> _Inputs:
    """The encoded probabilities of an Evaluation (binary: the positive class's, 1-D)."""
    cases = getattr(ev, "_cases", None)
    if cases is None or cases.scores is None:
        raise ValueError(
            "this evaluation has no scores; calibration needs predicted probabilities: pass "
            "y_score=predict_proba(X) to clfeval.evaluate."
        )
    if ev.task == "multilabel":
        raise ValueError("calibration of multilabel evaluations is not supported yet.")
    if ev.score_kind != "probability":
        raise ValueError(
            "this evaluation's scores are not probabilities (some lie outside [0, 1]); "
            "calibration needs predict_proba output, not decision values."
        )
    s = cases.scores
    names = tuple(ev.names)
    if ev.task == "binary":
        pos = int(cases.pos_index)
        p = _onto_unit_interval(s if s.ndim == 1 else s[:, pos])
        return _Inputs(np.asarray(cases.true, dtype=np.intp), p, cases.weight, names, pos)
    s = _onto_unit_interval(s)
    # column by column, left to right: the same sums whatever the array's memory layout
    sums = s[:, 0].astype(np.float64)
    for j in range(1, s.shape[1]):
        sums += s[:, j]
    if np.all(np.abs(sums - 1.0) <= ROUNDED_ROWS_TOLERANCE):
        # probabilities written to a file with a few decimals: rows off 1 by rounding only
        s = s / sums[:, None]
    _check_rows_sum_to_one(s, "y_score")
    return _Inputs(np.asarray(cases.true, dtype=np.intp), s, cases.weight, names, None)


# ---------------------------------------------------------------------------------------------
# public functions


def calibration_curve(
    y_true: Any, y_prob: Any, *, pos_label: Any = None, n_bins: int = 5, strategy: str = "uniform"
) -> tuple[np.ndarray, np.ndarray]:
    """(fraction of positives, mean predicted probability) per non-empty bin, as
    ``sklearn.calibration.calibration_curve`` (same arguments and results).

    >>> prob_true, prob_pred = calibration_curve([0, 0, 1, 1], [0.1, 0.4, 0.6, 0.9], n_bins=2)
    >>> prob_true.tolist(), prob_pred.tolist()
    ([0.0, 1.0], [0.25, 0.75])
    """
    n_bins = _check_n_bins(n_bins)
    _check_choice(strategy, STRATEGIES, "strategy")
    proba = as_1d(
        read_scores(y_prob, "y_prob"),
        "y_prob must be 1-D: the probability of the positive class",
    )
    x = _read_binary(y_true, proba, pos_label, None)
    curve = _reliability(x, x.positive, n_bins, strategy)
    keep = curve.nonempty
    return curve.observed[keep], curve.mean_predicted[keep]


def reliability_curve(
    y_true: Any,
    y_prob: Any,
    *,
    pos_label: Any = None,
    n_bins: int = 10,
    strategy: str = "uniform",
    mode: str | None = None,
    labels: Any = None,
    sample_weight: Any = None,
) -> ReliabilityCurve:
    """Reliability bins (edges, weight, mean predicted probability, observed frequency) of one
    view: binary (1-D ``y_prob``, or ``pos_label``'s column against the rest) or top-label
    (the default for (n, k) ``y_prob``).

    >>> c = reliability_curve([0, 1, 2, 1], [[.8, .1, .1], [.2, .7, .1], [.1, .3, .6], [.5, .4, .1]],
    ...                       n_bins=2)
    >>> c.view, c.observed.tolist(), c.weight.tolist()
    ('top-label', [0.0, 1.0], [1, 3])
    """
    n_bins = _check_n_bins(n_bins)
    _check_choice(strategy, STRATEGIES, "strategy")
    x = _read_inputs(y_true, y_prob, pos_label=pos_label, labels=labels, sample_weight=sample_weight)
    return _reliability(x, _resolve_view(x, mode, pos_label), n_bins, strategy)


def expected_calibration_error(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 15,
    strategy: str = "uniform",
    norm: str = "l1",
    mode: str | None = None,
    pos_label: Any = None,
    labels: Any = None,
    sample_weight: Any = None,
) -> float:
    """Expected calibration error: the weighted gap between observed frequency and mean
    probability per bin.

    ``norm``: "l1" ``sum_b w_b/W |acc_b - conf_b|``, "l2" ``sqrt(sum_b w_b/W (acc_b - conf_b)^2)``,
    "max" ``max_b |acc_b - conf_b|`` over non-empty bins. ``mode``: "binary" (default for 1-D
    ``y_prob``; with (n, k) input the class ``pos_label``, default the greater of two labels),
    "top-label" (default for (n, k)), or "class-wise" (mean over classes of each class's
    one-vs-rest ECE). Bins: see the module notes (a probability on an edge goes to the lower bin).

    >>> round(expected_calibration_error([1, 1, 0, 1], [0.9, 0.8, 0.3, 0.4], n_bins=2), 6)
    0.15
    """
    n_bins = _check_n_bins(n_bins)
    _check_choice(strategy, STRATEGIES, "strategy")
    _check_choice(norm, NORMS, "norm")
    x = _read_inputs(y_true, y_prob, pos_label=pos_label, labels=labels, sample_weight=sample_weight)
    _, views = _input_views(x, mode)
    errors = [_calibration_error(*b.gaps(), norm) for b in _input_bins(x, views, n_bins, strategy)]
    return float(np.mean(errors))


def brier_decomposition(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int | None = None,
    strategy: str = "uniform",
    pos_label: Any = None,
    labels: Any = None,
    sample_weight: Any = None,
) -> BrierDecomposition:
    """Murphy's decomposition ``brier = reliability - resolution + uncertainty``.

    ``n_bins=None`` (default): the forecasts are grouped by distinct probability and the identity
    is exact. With ``n_bins`` the samples are grouped into bins (``strategy``) and the two
    within-bin terms of Stephenson et al. (2008) keep it exact:
    ``brier = reliability - resolution + uncertainty + within_variance - within_covariance``.
    Two classes: the positive class's Brier score (scikit-learn's binary ``brier_score_loss``);
    more: the sum over classes of each one-vs-rest decomposition (scikit-learn's multiclass
    Brier score), or ``pos_label``'s alone.

    >>> d = brier_decomposition([0, 0, 1, 1], [0.2, 0.2, 0.6, 0.6])
    >>> round(d.brier, 6), round(d.reliability, 6), d.resolution, d.uncertainty
    (0.1, 0.1, 0.25, 0.25)
    """
    if n_bins is not None:
        n_bins = _check_n_bins(n_bins)
    _check_choice(strategy, STRATEGIES, "strategy")
    x = _read_inputs(y_true, y_prob, pos_label=pos_label, labels=labels, sample_weight=sample_weight)
    views = [x.positive] if x.positive is not None else list(range(x.k))
    bins = _input_bins(x, views, n_bins, strategy)
    return BrierDecomposition.from_bins(bins, n_bins, None if n_bins is None else strategy)


def calibration_report(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 15,
    strategy: str = "uniform",
    pos_label: Any = None,
    labels: Any = None,
    sample_weight: Any = None,
) -> CalibrationReport:
    """Every calibration number at once (from the exact state; see :class:`CalibrationReport`).

    >>> r = calibration_report([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4], n_bins=2)
    >>> round(r.ece, 6), round(r.brier, 6), round(r.log_loss, 6)
    (0.275, 0.0925, 0.337539)
    """
    n_bins = _check_n_bins(n_bins)
    _check_choice(strategy, STRATEGIES, "strategy")
    x = _read_inputs(y_true, y_prob, pos_label=pos_label, labels=labels, sample_weight=sample_weight)
    state = calibration_of(x.codes, x.proba, x.weight, classes=x.classes, positive=x.positive)
    return state.report(n_bins=n_bins, strategy=strategy)
