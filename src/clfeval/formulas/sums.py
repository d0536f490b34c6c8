"""Additive statistics behind log loss, the Brier score and top-k accuracy.

Each of these metrics is a weighted mean of a per-sample quantity, so its sufficient statistic is
two numbers: the weighted total of that quantity and the total weight. Statistics of two batches
``merge`` into the statistic of their concatenation; the metric is ``total / weight``.

The constructors take *encoded* input that the caller has already validated (see
:mod:`clfeval.metrics.probabilistic` for the checked, scikit-learn compatible functions):

- ``target``: either integer class codes of shape ``(n,)`` indexing the columns of the prediction
  array, or a 0/1 indicator matrix of the prediction array's shape (multilabel);
- a 1-D prediction array holds the probability (or score) of class 1 of a binary problem.

>>> a = LogLossSum.from_encoded(np.array([0, 1]), np.array([[0.5, 0.5], [0.2, 0.8]]))
>>> b = LogLossSum.from_encoded(np.array([1]), np.array([[0.5, 0.5]]))
>>> round(a.merge(b).mean(), 6)
0.536479
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Callable, Iterator, TypeVar

import numpy as np

from clfeval.formulas.exact_sums import weight_total

__all__ = ["SampleSum", "LogLossSum", "BrierSum", "TopKHits", "weighted_mean"]

_S = TypeVar("_S", bound="SampleSum")

# Elements per block of a row-wise 2-D computation: keeps temporaries small and in cache.
_BLOCK_ELEMENTS = 1 << 18


def row_blocks(n: int, width: int) -> Iterator[slice]:
    step = max(1, _BLOCK_ELEMENTS // max(width, 1))
    for start in range(0, n, step):
        yield slice(start, min(start + step, n))


def _accumulate(
    per_sample: Callable[[slice], np.ndarray], n: int, width: int, weight: np.ndarray | None
) -> tuple[int | float, int | float]:
    """Weighted total of ``per_sample`` over row blocks, and the total weight (one pass)."""
    total: int | float = 0
    for block in row_blocks(n, width):
        values = per_sample(block)
        if weight is None:
            total += values.sum().item()
        elif values.dtype.kind == "b":  # a weighted count: exact for integer weights, however large
            total += weight_total(weight[block][values])
        else:
            total += np.dot(values, weight[block]).item()
    return total, (n if weight is None else weight_total(weight))


def _check_weight(weight: np.ndarray | None, n: int) -> np.ndarray | None:
    if weight is not None and weight.shape != (n,):
        raise ValueError(f"sample_weight has shape {weight.shape}; expected ({n},).")
    return weight


def _rows(n: int) -> np.ndarray:
    return np.arange(n)


@dataclass(frozen=True)
class SampleSum:
    """Weighted total of a per-sample quantity and the total weight; merges by addition.

    Counts stay Python ints when there are no weights or the weights are integers.

    >>> SampleSum(3, 4).merge(SampleSum(1, 4)).mean()
    0.5
    """

    total: int | float
    weight: int | float

    def merge(self: _S, other: _S) -> _S:
        """The statistic of the concatenated data: totals and weights add."""
        if type(other) is not type(self):
            raise TypeError(
                f"Cannot merge {type(self).__name__} with {type(other).__name__}; "
                "merge statistics of the same metric."
            )
        mine = {f.name: getattr(self, f.name) for f in fields(self)[2:]}
        theirs = {f.name: getattr(other, f.name) for f in fields(other)[2:]}
        if mine != theirs:
            raise ValueError(
                f"Cannot merge {type(self).__name__} statistics built with different settings: "
                f"{mine} vs {theirs}. Build every batch with the same settings."
            )
        return replace(self, total=self.total + other.total, weight=self.weight + other.weight)

    def mean(self) -> float:
        """``total / weight``; a ZeroDivisionError (as in ``numpy.average``) when weight is 0."""
        if self.weight == 0:
            raise ZeroDivisionError(
                f"{type(self).__name__}: the total sample weight is zero, so the mean is "
                "undefined. Give at least one sample a positive weight, or use normalize=False."
            )
        return float(self.total / self.weight)


@dataclass(frozen=True)
class LogLossSum(SampleSum):
    """Weighted total of ``-sum_c y_ic log(clip(p_ic))`` (natural log) and the total weight.

    Probabilities are clipped to ``[eps, 1 - eps]`` with ``eps`` the machine epsilon of their
    dtype (clipping happens in that dtype; the logarithm and sums are taken in float64).

    >>> s = LogLossSum.from_encoded(np.array([1, 0]), np.array([0.9, 0.2]))
    >>> round(s.mean(), 6), s.n_classes
    (0.164252, 2)
    """

    n_classes: int

    @classmethod
    def from_encoded(
        cls, target: np.ndarray, proba: np.ndarray, sample_weight: np.ndarray | None = None
    ) -> LogLossSum:
        """Build from class codes (or a multilabel indicator) and probabilities."""
        n = proba.shape[0]
        weight = _check_weight(sample_weight, n)
        eps = np.finfo(proba.dtype).eps
        lo, hi = eps, proba.dtype.type(1) - eps

        if target.ndim == 2:  # multilabel indicator: sum over the columns marked 1

            def per_sample(b: slice) -> np.ndarray:
                logp = np.log(np.clip(proba[b], lo, hi).astype(np.float64, copy=False))
                return -np.einsum("ij,ij->i", target[b].astype(np.float64), logp)

        else:

            def per_sample(b: slice) -> np.ndarray:
                codes = target[b]
                if proba.ndim == 1:
                    p = proba[b]
                    q = np.where(codes == 1, p, 1 - p)
                else:
                    q = proba[b][_rows(codes.shape[0]), codes]
                return -np.log(np.clip(q, lo, hi).astype(np.float64, copy=False))

        width = proba.shape[1] if target.ndim == 2 else 1
        total, w = _accumulate(per_sample, n, width, weight)
        n_classes = proba.shape[1] if proba.ndim == 2 else 2
        return cls(total, w, n_classes)


@dataclass(frozen=True)
class BrierSum(SampleSum):
    """Weighted total of ``sum_c (y_ic - p_ic)^2`` and the total weight.

    This is the multiclass (unscaled, range [0, 2]) form; for a binary problem each sample
    contributes ``2 (y_i - p_i)^2``, and :meth:`score` halves it by default.

    >>> s = BrierSum.from_encoded(np.array([0, 1, 1, 0]), np.array([0.1, 0.9, 0.8, 0.3]))
    >>> round(s.score(), 6), round(s.score(scale_by_half=False), 6)
    (0.0375, 0.075)
    """

    n_classes: int

    @classmethod
    def from_encoded(
        cls, target: np.ndarray, proba: np.ndarray, sample_weight: np.ndarray | None = None
    ) -> BrierSum:
        """Build from class codes (or a multilabel indicator) and probabilities."""
        n = proba.shape[0]
        weight = _check_weight(sample_weight, n)

        if proba.ndim == 1:

            def per_sample(b: slice) -> np.ndarray:
                d = (target[b] == 1) - proba[b].astype(np.float64, copy=False)
                return 2.0 * (d * d)

        elif target.ndim == 2:

            def per_sample(b: slice) -> np.ndarray:
                d = proba[b].astype(np.float64) - target[b]
                return np.einsum("ij,ij->i", d, d)

        else:

            def per_sample(b: slice) -> np.ndarray:
                d = proba[b].astype(np.float64)  # a copy: the block is modified below
                codes = target[b]
                d[_rows(codes.shape[0]), codes] -= 1.0
                return np.einsum("ij,ij->i", d, d)

        width = proba.shape[1] if proba.ndim == 2 else 1
        total, w = _accumulate(per_sample, n, width, weight)
        return cls(total, w, proba.shape[1] if proba.ndim == 2 else 2)

    def score(self, scale_by_half: bool | str = "auto") -> float:
        """Mean Brier score; halved when ``scale_by_half`` is True, or "auto" and binary."""
        half = self.n_classes < 3 if scale_by_half == "auto" else bool(scale_by_half)
        return self.mean() * 0.5 if half else self.mean()


@dataclass(frozen=True)
class TopKHits(SampleSum):
    """Weighted count of samples whose true class is among the ``k`` highest scores.

    Ties are broken towards the higher class index (as scikit-learn's stable descending sort
    does): the true class ``c`` is ranked behind every class with a greater score and every
    class with an equal score and a greater index.

    For 1-D binary scores ``k >= 2`` always hits, and ``k == 1`` predicts class 1 when the score
    exceeds ``threshold``. scikit-learn picks the threshold from the *whole* array (0.5 if all
    scores lie in [0, 1], else 0), so batches that are merged must be given the same threshold.

    >>> scores = np.array([[3, 3, 0], [3, 3, 0], [0, 1, 1]])
    >>> s = TopKHits.from_encoded(np.array([0, 1, 2]), scores, k=1)
    >>> s.total, s.mean()
    (2, 0.6666666666666666)
    """

    k: int
    n_classes: int

    @classmethod
    def from_encoded(
        cls,
        target: np.ndarray,
        scores: np.ndarray,
        k: int,
        sample_weight: np.ndarray | None = None,
        threshold: float = 0.5,
    ) -> TopKHits:
        """Build from class codes and scores (``(n, n_classes)``, or 1-D for binary)."""
        n = scores.shape[0]
        weight = _check_weight(sample_weight, n)
        n_classes = scores.shape[1] if scores.ndim == 2 else 2

        if k >= n_classes:

            def per_sample(b: slice) -> np.ndarray:
                return np.ones(b.stop - b.start, dtype=bool)

        elif scores.ndim == 1:  # binary, k == 1

            def per_sample(b: slice) -> np.ndarray:
                return (scores[b] > threshold) == (target[b] == 1)

        else:
            columns = np.arange(n_classes)
            # Row counts of a boolean mask as a matrix-vector product (exact: counts < 2**24).
            ones = np.ones(n_classes, dtype=np.float32 if n_classes < 1 << 24 else np.float64)

            def per_sample(b: slice) -> np.ndarray:
                s, codes = scores[b], target[b]
                own = s[_rows(codes.shape[0]), codes][:, None]
                ahead = (s > own).astype(ones.dtype) @ ones
                tied = s == own
                rows = np.flatnonzero(tied.astype(ones.dtype) @ ones > 1)  # ties besides itself
                if rows.size:  # an equal score at a higher index ranks ahead
                    after = tied[rows] & (columns > codes[rows, None])
                    ahead[rows] += np.count_nonzero(after, axis=1)
                return ahead < k

        width = n_classes if scores.ndim == 2 else 1
        total, w = _accumulate(per_sample, n, width, weight)
        return cls(total, w, k, n_classes)


def weighted_mean(values: np.ndarray, weight: np.ndarray | None) -> float:
    """Mean of per-sample ``values``, weighted as :func:`numpy.average` weighs them.

    Zero total weight is a ZeroDivisionError, as in :func:`numpy.average`.

    >>> weighted_mean(np.array([1.0, 3.0]), np.array([3, 1]))
    1.5
    """
    if weight is None:
        return float(values.mean())
    total = weight_total(weight)  # integer weights summed exactly (their int64 sum can wrap)
    if total == 0:
        raise ZeroDivisionError(
            f"Weights sum to zero, can't be normalized: sample_weight is zero for all {weight.size} samples."
        )
    return float(np.dot(values, weight) / total)
