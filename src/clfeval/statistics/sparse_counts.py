"""Pair-coded confusion counts: the sufficient statistic of a task with many classes.

A dense (k, k) table costs k * k cells: 80 GB of int64 for k = 10^5 classes, almost all zero. A
:class:`PairCounts` keeps only the (true, predicted) cells that hold a sample, as sorted codes
``true * k + predicted`` with their counts (at most one cell per row of data), and reads off them
the per-class diagonal, row sums (support) and column sums (predicted counts). Every label
measure (precision, recall, F, Jaccard, accuracy, balanced accuracy, MCC, Cohen's kappa, the
one-vs-rest tables) is a function of those, so nothing k x k is ever built.

The switch: :func:`use_pairs` chooses pair coding when ``k > SPARSE_ABOVE`` (2048 classes, the
size where an int64 table passes 32 MiB). Tests set ``SPARSE_ABOVE = 0`` to run every path on
pair-coded counts and compare them with the dense ones.

>>> pc = PairCounts.from_codes(np.array([0, 2, 2, 1]), np.array([0, 2, 0, 1]), np.array(["a", "b", "c"]))
>>> pc.codes.tolist(), pc.values.tolist()
([0, 4, 6, 8], [1, 1, 1, 1])
>>> pc.diagonal.tolist(), pc.row_sums.tolist(), pc.col_sums.tolist()
([1, 1, 1], [1, 1, 2], [2, 1, 1])
>>> pc.dense_matrix().tolist()
[[1, 0, 0], [0, 1, 0], [1, 0, 1]]
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from clfeval.formulas.exact_sums import (
    UNIT_EXPONENT,
    float_bincount_exact,
    float_table_needs_exact,
    in_units,
    integer_bincount,
    is_big,
)
from clfeval.inputs.labels import encode, union_labels

__all__ = [
    "SPARSE_ABOVE",
    "DENSE_VIEW_BYTES",
    "PairCounts",
    "use_pairs",
    "add_pairs",
    "dense_limit_bytes",
    "dense_refusal",
    "DenseTableTooLarge",
]

#: Tables over more classes than this are pair-coded (2048**2 int64 cells = 32 MiB).
SPARSE_ABOVE = 2048
#: Pair codes are counted with one bincount (instead of a sort) up to this many cells, when the
#: rows are at least a quarter of the cells.
_BINCOUNT_CELLS = 1 << 25
#: Largest dense table an Evaluation view (``ConfusionMatrix.counts``) builds on request.
DENSE_VIEW_BYTES = 1 << 30


def use_pairs(k: int) -> bool:
    """Whether counts over ``k`` classes are pair-coded (read at call time, so tests can force it).

    >>> use_pairs(10), use_pairs(100_000)
    (False, True)
    """
    return k > SPARSE_ABOVE


def dense_limit_bytes() -> int:
    """Largest dense table :func:`clfeval.metrics.confusion_matrix` builds: half the machine's memory."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 8 << 30


def _size_text(nbytes: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if nbytes < 1024 or unit == "TiB":
            return f"{nbytes:,.0f} {unit}" if unit == "bytes" else f"{nbytes:,.1f} {unit}"
        nbytes /= 1024
    return ""  # pragma: no cover


class DenseTableTooLarge(MemoryError, ValueError):
    """A dense k x k table refused for its size (a ``MemoryError``, and a ``ValueError`` so that
    callers that report bad input in one line report this too)."""


def dense_refusal(k: int, itemsize: int, limit: int, allowed: str | None = None) -> DenseTableTooLarge:
    """The error for a k x k table too large to build, naming its size and the way around it.

    >>> str(dense_refusal(100_000, 8, 1 << 30))[:80]
    'a dense confusion matrix over 100,000 classes needs 74.5 GiB (100,000 x 100,000 '
    """
    allowed = allowed or (f"the {_size_text(limit)} a dense view may take "
                          "(clfeval.statistics.sparse_counts.DENSE_VIEW_BYTES)")
    return DenseTableTooLarge(
        f"a dense confusion matrix over {k:,} classes needs {_size_text(float(k) * k * itemsize)} "
        f"({k:,} x {k:,} cells of {itemsize} bytes), more than {allowed}; use the pair-coded counts "
        "instead: clfeval.ConfusionCounts.from_labels(y_true, y_pred) (a clfeval.statistics.sparse_counts.PairCounts "
        "with .codes/.values, .diagonal, .row_sums, .col_sums) or Evaluation.confusion.pairs, or "
        "per-class tables (multilabel_confusion_matrix, Evaluation.confusion.per_class())."
    )


def _sum_by(index: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Sums of ``values`` grouped by ``index`` in [0, size); integer sums exact (int64, or Python
    ints where a sum would leave int64: :func:`clfeval.formulas.exact_sums.integer_bincount`)."""
    if values.dtype.kind == "f":
        return np.bincount(index, weights=values, minlength=size)
    if values.dtype.kind in "iu":
        return integer_bincount(index, values, size)
    out = np.zeros(size, dtype=object)
    np.add.at(out, index, values)
    return out


def _exact_sum(values: np.ndarray) -> Any:
    """The sum of count values, exact for integers (a Python int past int64), float64 otherwise."""
    if values.dtype.kind in "iuO" and is_big(values, limit=(1 << 63) // max(values.size, 1)):
        return sum(values.tolist())
    return values.sum() if values.size else values.dtype.type(0)


def _combine(codes: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted unique codes and the summed values of equal codes, zero cells left out."""
    uniq, inverse = np.unique(codes, return_inverse=True)
    summed = _sum_by(inverse.reshape(-1), values, uniq.shape[0])
    keep = summed != 0
    if not keep.all():
        uniq, summed = uniq[keep], summed[keep]
    return uniq, summed


def _merge_exact(labels: np.ndarray, a: "PairCounts", b: "PairCounts") -> "PairCounts":
    """Merge of same-labelled counts of which one keeps exact sums: float64 sums of the values,
    exact sums (units of 2**UNIT_EXPONENT) of the exact parts."""
    codes = np.concatenate([a.codes, b.codes])
    uniq, inverse = np.unique(codes, return_inverse=True)
    inverse = inverse.reshape(-1)
    units = np.zeros(uniq.shape[0], dtype=object)
    np.add.at(units, inverse, np.concatenate([x.exact if x.exact is not None else in_units(x.values) for x in (a, b)]))
    with np.errstate(over="ignore"):
        values = np.bincount(inverse, weights=np.concatenate([a.values, b.values]).astype(np.float64),
                             minlength=uniq.shape[0])
    keep = (units != 0) | (values != 0)
    return PairCounts(labels, uniq[keep], values[keep], units[keep])


@dataclass(frozen=True, eq=False)
class PairCounts:
    """Confusion counts as (true, predicted) cells: ``codes = true * k + predicted``, sorted and
    unique, with ``values`` (int64 counts / integer weights, else float64 weights); zero cells are
    left out. Same meaning as a dense :class:`clfeval.ConfusionCounts` over ``labels``.

    >>> a = PairCounts.from_codes(np.array([0, 1]), np.array([1, 1]), np.array([5, 7]))
    >>> a.merge(a).values.tolist(), int(a.total), int(a.trace)
    ([2, 2], 2, 1)
    """

    labels: np.ndarray
    codes: np.ndarray
    values: np.ndarray
    #: float weights whose cell sums leave [2**-240, 2**240] (overflow, or products that would
    #: underflow): the exact cell sums as Python ints in units of 2**UNIT_EXPONENT, as
    #: ``ConfusionCounts.exact``; the formulas read them (:meth:`for_formulas`), ``values`` stays
    #: what float64 sums give
    exact: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        for a in (self.labels, self.codes, self.values):
            a.setflags(write=False)

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def from_codes(
        cls,
        true_codes: np.ndarray,
        pred_codes: np.ndarray,
        labels: np.ndarray,
        sample_weight: np.ndarray | None = None,
    ) -> "PairCounts":
        """Count already-encoded labels (integers in ``[0, k)``): one sort of the pair codes (one
        bincount instead where the rows are many for the k * k cells)."""
        k = labels.shape[0]
        pair = np.multiply(true_codes, k, dtype=np.int64)
        pair += pred_codes
        cells = k * k
        if sample_weight is not None and sample_weight.dtype.kind == "f":
            return cls._from_floats(pair, labels, sample_weight.astype(np.float64, copy=False), cells)
        if sample_weight is None and cells <= min(4 * pair.shape[0], _BINCOUNT_CELLS):
            # many rows per cell: one bincount beats a sort
            table = np.bincount(pair, minlength=cells)
            codes = np.flatnonzero(table).astype(np.int64)
            return cls(labels, codes, table[codes].astype(np.int64, copy=False))
        if sample_weight is None:
            codes, values = np.unique(pair, return_counts=True)
            return cls(labels, codes, values.astype(np.int64, copy=False))
        w = sample_weight.astype(np.int64) if sample_weight.dtype.kind == "b" else sample_weight
        codes, values = _combine(pair, w)
        return cls(labels, codes, values)

    @classmethod
    def _from_floats(cls, pair: np.ndarray, labels: np.ndarray, w: np.ndarray, cells: int) -> "PairCounts":
        """Float weights: float64 sums per cell (one bincount where the rows are many for the
        cells, else one sort), plus the exact sums where those leave the safe range."""
        with np.errstate(over="ignore"):  # sums past the float range are inf, as float64 gives them
            if cells <= min(4 * pair.shape[0], _BINCOUNT_CELLS):
                table = np.bincount(pair, weights=w, minlength=cells)
                codes = np.flatnonzero(table).astype(np.int64)
                values = table[codes]
            else:
                codes, values = _combine(pair, w)
        if not float_table_needs_exact(values):
            return cls(labels, codes, values)
        uniq, inverse = np.unique(pair, return_inverse=True)
        units = float_bincount_exact(inverse.reshape(-1), w, uniq.shape[0])
        return cls(labels, codes, values, units[np.searchsorted(uniq, codes)])

    @classmethod
    def from_counts(cls, counts: Any) -> "PairCounts":
        """The pair coding of dense confusion counts (``labels``, ``matrix`` and, for extreme float
        weights, ``exact``: their exact sums in units of 2**UNIT_EXPONENT, kept as ``exact``).

        >>> from clfeval.statistics.counts import ConfusionCounts
        >>> pc = PairCounts.from_counts(ConfusionCounts.from_labels([0, 1], [0, 1], sample_weight=[1e308, 1e308]))
        >>> pc.values.tolist(), pc.for_formulas()[0].values.tolist() == [int(1e308) << 1074] * 2
        ([1e+308, 1e+308], True)
        """
        exact = getattr(counts, "exact", None)
        if exact is None:
            return cls.from_dense(counts.labels, counts.matrix)
        units = np.asarray(exact, dtype=object).reshape(-1)
        codes = np.flatnonzero((units != 0) | (np.asarray(counts.matrix).reshape(-1) != 0)).astype(np.int64)
        values = np.asarray(counts.matrix).reshape(-1)[codes]
        return cls(np.asarray(counts.labels), codes, values, units[codes])

    @classmethod
    def from_dense(cls, labels: Any, matrix: np.ndarray) -> "PairCounts":
        """The pair coding of a dense (k, k) table.

        >>> PairCounts.from_dense([0, 1], np.array([[2, 0], [1, 0]])).codes.tolist()
        [0, 2]
        """
        m = np.asarray(matrix)
        codes = np.flatnonzero(m).astype(np.int64)
        return cls(np.asarray(labels), codes, m.reshape(-1)[codes])

    # ---- the monoid ---------------------------------------------------------------------
    def merge(self, other: Any) -> "PairCounts":
        """The counts of the concatenated data (``other``: pair-coded or dense counts); labels are
        united, sorted when they differ, as ``ConfusionCounts.merge`` does.

        >>> a = PairCounts.from_codes(np.array([0]), np.array([0]), np.array([1]))
        >>> b = PairCounts.from_codes(np.array([0]), np.array([0]), np.array([3]))
        >>> m = a.merge(b); m.labels.tolist(), m.codes.tolist(), m.values.tolist()
        ([1, 3], [0, 3], [1, 1])
        """
        if not isinstance(other, PairCounts):
            other = PairCounts.from_counts(other)
        if self.labels.shape == other.labels.shape and np.array_equal(self.labels, other.labels):
            labels, a, b = self.labels, self, other
        else:
            labels = union_labels(self.labels, other.labels)
            a, b = self.reindex(labels), other.reindex(labels)
        if a.exact is not None or b.exact is not None:
            return _merge_exact(labels, a, b)
        dtype = np.result_type(a.values.dtype, b.values.dtype)
        if a.values.dtype != b.values.dtype and {a.values.dtype.kind, b.values.dtype.kind} <= set("iuO"):
            dtype = np.dtype(object)  # int64 with uint64 or Python ints: exact, never float64
        codes, values = _combine(
            np.concatenate([a.codes, b.codes]),
            np.concatenate([a.values.astype(dtype, copy=False), b.values.astype(dtype, copy=False)]),
        )
        return PairCounts(labels, codes, values)

    def for_formulas(self) -> tuple["PairCounts", int]:
        """The counts the formulas read and their unit exponent (counts = these * 2**exponent):
        the exact sums of extreme float weights (Python ints in units of 2**UNIT_EXPONENT) where
        kept, else ``(self, 0)``.

        >>> pc = PairCounts.from_codes(np.array([0, 1]), np.array([0, 1]), np.array([0, 1]), np.array([1e308, 1e308]))
        >>> counts, e = pc.for_formulas(); e, counts.values.tolist() == [int(1e308) << 1074] * 2
        (-1074, True)
        """
        if self.exact is None:
            return self, 0
        return PairCounts(self.labels, self.codes, self.exact), UNIT_EXPONENT

    # ---- views ---------------------------------------------------------------------------
    @property
    def k(self) -> int:
        return int(self.labels.shape[0])

    @cached_property
    def true_index(self) -> np.ndarray:
        return self.codes // max(self.k, 1)

    @cached_property
    def pred_index(self) -> np.ndarray:
        return self.codes % max(self.k, 1)

    @cached_property
    def diagonal(self) -> np.ndarray:
        """Per-class correct counts (tp), in label order."""
        on = self.true_index == self.pred_index
        return _sum_by(self.true_index[on], self.values[on], self.k)

    @cached_property
    def row_sums(self) -> np.ndarray:
        """Per-class true counts (support)."""
        return _sum_by(self.true_index, self.values, self.k)

    @cached_property
    def col_sums(self) -> np.ndarray:
        """Per-class predicted counts."""
        return _sum_by(self.pred_index, self.values, self.k)

    @property
    def total(self) -> Any:
        return _exact_sum(self.values)

    @property
    def trace(self) -> Any:
        return _exact_sum(self.diagonal)

    @property
    def dtype(self) -> np.dtype:
        return self.values.dtype

    def positions(self, labels: Any) -> np.ndarray:
        """Index of each of ``labels`` in this table, -1 for a label it has not seen."""
        return encode(np.asarray(labels), self.labels)

    def reindex(self, labels: Any) -> "PairCounts":
        """The counts over ``labels`` in that order (unseen labels have no cells; samples whose true
        or predicted label is not among ``labels`` are left out). A label given more than once
        keeps its cells in its last place only (scikit-learn's rule).

        >>> pc = PairCounts.from_codes(np.array([0, 1, 2]), np.array([0, 2, 2]), np.array([0, 1, 2]))
        >>> pc.reindex([2, 1, 9]).dense_matrix().tolist()
        [[1, 0, 0], [1, 0, 0], [0, 0, 0]]
        """
        lab = np.asarray(labels)
        idx = self.positions(lab)
        m = lab.shape[0]
        new_of_old = np.full(self.k + 1, -1, dtype=np.int64)
        hit = np.flatnonzero(idx >= 0)
        new_of_old[idx[hit]] = hit  # repeated labels: the last place wins
        t, p = new_of_old[self.true_index], new_of_old[self.pred_index]
        keep = (t >= 0) & (p >= 0)
        codes = t[keep] * m + p[keep]
        order = np.argsort(codes, kind="stable")
        exact = None if self.exact is None else self.exact[keep][order]
        return PairCounts(lab, codes[order], self.values[keep][order], exact)

    def submatrix(self, labels: Any) -> np.ndarray:
        """The dense (m, m) table over ``labels`` (guarded as :meth:`dense_matrix`)."""
        return self.reindex(labels).dense_matrix()

    def dense_matrix(self, limit: int | None = None) -> np.ndarray:
        """The dense (k, k) table; a ``MemoryError`` naming its size when it would pass ``limit`` bytes
        (default :data:`DENSE_VIEW_BYTES`)."""
        limit = DENSE_VIEW_BYTES if limit is None else limit
        itemsize = self.values.dtype.itemsize
        if self.k * self.k * itemsize > limit:
            raise dense_refusal(self.k, itemsize, limit)
        out = np.zeros(self.k * self.k, dtype=self.values.dtype)
        out[self.codes] = self.values
        return out.reshape(self.k, self.k)

    @property
    def matrix(self) -> np.ndarray:
        """The dense table (guarded as :meth:`dense_matrix`)."""
        return self.dense_matrix()

    def one_vs_rest(self, labels: Any = None) -> np.ndarray:
        """Per-label (m, 2, 2) tables ``[[tn, fp], [fn, tp]]``, equal to the dense counts' ones.

        >>> PairCounts.from_codes(np.array([0, 1, 1]), np.array([0, 1, 0]), np.array([0, 1])).one_vs_rest().tolist()
        [[[1, 1], [0, 1]], [[1, 0], [1, 1]]]
        """
        tp, fp, fn, tn = self.per_class()
        stacked = np.stack([tn, fp, fn, tp], axis=-1).reshape(tp.shape + (2, 2))
        if labels is None:
            return stacked
        idx = self.positions(labels)
        unseen = np.zeros((2, 2), dtype=stacked.dtype)
        unseen[0, 0] = self.total
        return np.where((idx < 0)[:, None, None], unseen, stacked[idx])

    def per_class(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(tp, fp, fn, tn) per class, as :func:`clfeval.formulas.measures.one_vs_rest` of the dense table."""
        tp = self.diagonal
        fp = self.col_sums - tp
        fn = self.row_sums - tp
        tn = self.total - tp - fp - fn
        if self.values.dtype.kind == "f":
            # as measures.one_vs_rest: tn is exactly 0 where no cell outside row c and column c
            # holds weight (the subtraction would leave rounding residue)
            nz = self.values != 0
            t, p = self.true_index[nz], self.pred_index[nz]
            n_row = np.bincount(t, minlength=self.k)
            n_col = np.bincount(p, minlength=self.k)
            n_diag = np.bincount(t[t == p], minlength=self.k)
            outside = int(nz.sum()) - n_row - n_col + n_diag
            tn = np.where(outside == 0, 0.0, np.maximum(tn, 0.0))
        return tp, fp, fn, tn

    def to_dict(self) -> dict:
        """Labels and the non-zero cells as parallel lists of row index, column index, count."""
        return {
            "labels": self.labels.tolist(),
            "cells": {
                "true": self.true_index.tolist(),
                "pred": self.pred_index.tolist(),
                "count": self.values.tolist(),
            },
        }

    def __repr__(self) -> str:
        return f"PairCounts(k={self.k}, cells={self.codes.shape[0]}, total={self.total})"


def add_pairs(state: Any, labels: np.ndarray, other: Any, other_labels: np.ndarray, *, zero: bool = False) -> PairCounts:
    """``state`` (a dense table or pair-coded counts over ``labels``) plus ``other`` (the same, over
    ``other_labels``, all among ``labels``), pair-coded over ``labels`` in that order; ``zero``
    adds nothing but the dtype (a batch of zero weights). A stream's accumulator for many classes.

    >>> s = add_pairs(np.array([[1, 0], [0, 0]]), np.array([0, 1]), np.array([[2]]), np.array([1]))
    >>> s.dense_matrix().tolist()
    [[1, 0], [0, 2]]
    """
    s = state if isinstance(state, PairCounts) else PairCounts.from_dense(labels, state)
    if not np.array_equal(s.labels, labels):
        s = s.reindex(labels)
    o = other if isinstance(other, PairCounts) else PairCounts.from_dense(other_labels, other)
    if zero:
        o = PairCounts(o.labels, o.codes[:0], o.values[:0])
    return s.merge(o.reindex(labels))
