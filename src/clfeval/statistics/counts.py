"""Confusion counts: the sufficient statistic of every label-based classification measure.

A :class:`ConfusionCounts` is a (k, k) table over an explicit ordered label set (rows = true class,
columns = predicted class) holding integer counts, or float64 weights when the sample weights are
not integers.  :class:`MultilabelCounts` is the (L, 2, 2) table of a multilabel task, plus the
per-sample counts that the ``samples`` average needs.  Both merge exactly.

>>> cc = ConfusionCounts.from_labels([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2])
>>> cc.matrix.tolist()
[[2, 0, 0], [0, 0, 1], [1, 0, 2]]
>>> cc.merge(cc).matrix.tolist()
[[4, 0, 0], [0, 0, 2], [2, 0, 4]]
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.formulas.exact_sums import (
    FLOAT_EXACT_INT,
    add_counts,
    float_bincount_exact,
    float_table_needs_exact,
    in_units,
    integer_bincount,
)
from clfeval.inputs.labels import (
    all_zero_weights_error,
    as_array,
    check_classification_targets,
    check_sample_weight,
    encode,
    union_labels,
)
from clfeval.statistics.sparse_counts import PairCounts, use_pairs
from clfeval.support.thread_pools import thread_pool

__all__ = ["ConfusionCounts", "MultilabelCounts", "build_counts"]

# Integer label spans up to this size are counted directly on a span x span grid.
_MAX_GRID = 1 << 22
# Arrays at least this long are split across two threads (numpy releases the GIL).
_PARALLEL_MIN = 1 << 21
def worker_pool() -> ThreadPoolExecutor:
    """The package's shared pool of two threads, for numpy work that releases the GIL (made on
    first use, and again in a forked child: see :mod:`clfeval.support.thread_pools`)."""
    return thread_pool("work", 2)


def _count_table(
    table: np.ndarray, a: np.ndarray, b: np.ndarray, width: int, weights: np.ndarray | None, offset: int = 0
) -> tuple[np.ndarray, np.ndarray | None]:
    """The (flat) count table in its value type, and its exact form where floats would not do.

    Counts stay int64; integer weights give int64 while exact (an object array of Python ints
    where a sum exceeds int64); other weights give float64, plus their exact sums (integers in
    units of 2**-1074) when cells overflowed or are too large or small for the formulas.
    The float64 bincount ``table`` decides, so the common case makes no further pass.
    """
    if weights is None:
        return (np.rint(table).astype(np.int64) if table.dtype.kind == "f" else table.astype(np.int64)), None
    if weights.dtype.kind in "iub":
        if table.size == 0 or (table.max() < FLOAT_EXACT_INT and table.sum() < 2.0**62):
            return np.rint(table).astype(np.int64), None
        return integer_bincount(_joint_index(a, b, width, offset), weights, table.size, table), None
    table = table.astype(np.float64, copy=False)
    if not float_table_needs_exact(table):
        return table, None
    return table, float_bincount_exact(_joint_index(a, b, width, offset), weights, table.size)


def _joint_index(a: np.ndarray, b: np.ndarray, width: int, offset: int) -> np.ndarray:
    joint = np.multiply(a, width, dtype=np.intp)
    np.add(joint, b, out=joint, casting="unsafe")
    if offset:
        np.subtract(joint, offset * (width + 1), out=joint)
    return joint


def _joint_bincount(
    a: np.ndarray, b: np.ndarray, width: int, size: int, weights: np.ndarray | None, offset: int = 0
) -> np.ndarray:
    """bincount of (a - offset) * width + (b - offset), chunked over two threads for long input."""

    def part(sl: slice) -> np.ndarray:
        aa, bb = a[sl], b[sl]
        joint = np.multiply(aa, width, dtype=np.intp)
        np.add(joint, bb, out=joint, casting="unsafe")
        if offset:
            np.subtract(joint, offset * (width + 1), out=joint)
        w = None if weights is None else weights[sl]
        return np.bincount(joint, weights=w, minlength=size)

    n = a.shape[0]
    if n < _PARALLEL_MIN:
        return part(slice(None))
    half = n // 2
    left, right = worker_pool().map(part, (slice(0, half), slice(half, n)))
    return left + right


@dataclass(frozen=True, eq=False)
class ConfusionCounts:
    """A (k, k) confusion table over ``labels`` (rows true, columns predicted).

    ``matrix`` is int64 for counts and integer weights, float64 otherwise.

    Parameters
    ----------
    labels : numpy.ndarray of shape (k,)
        The classes, in the order of the table's rows and columns.
    matrix : numpy.ndarray of shape (k, k) or (..., k, k)
        The counts (or sums of sample weights): row i, column j holds the cases of true class
        ``labels[i]`` predicted as ``labels[j]``.
    exact : numpy.ndarray, optional
        Exact sums of extreme float weights, as Python ints counting units of 2**-1074 and
        shaped like ``matrix``; the formulas read them instead of ``matrix``. Default None.

    Examples
    --------
    >>> ConfusionCounts(np.array(["a", "b"]), np.array([[3, 1], [0, 2]]))
    ConfusionCounts(labels=['a', 'b'], total=6)
    >>> cc = ConfusionCounts.from_labels(["a", "b", "a"], ["a", "a", "a"])
    >>> cc.labels.tolist(), cc.matrix.tolist()
    (['a', 'b'], [[2, 0], [1, 0]])
    """

    labels: np.ndarray
    matrix: np.ndarray
    #: None, or the exact sums of extreme float weights (Python ints counting units of
    #: 2**-1074, same shape as ``matrix``), which the formulas read instead (see ``table``)
    exact: np.ndarray | None = None

    def __post_init__(self) -> None:
        k = self.labels.shape[0]
        if self.matrix.shape[-2:] != (k, k):
            raise ValueError(f"matrix has shape {self.matrix.shape}, expected (..., {k}, {k}).")
        self.labels.setflags(write=False)
        self.matrix.setflags(write=False)
        if self.exact is not None:
            self.exact.setflags(write=False)

    @property
    def table(self) -> np.ndarray:
        """The table the formulas read: ``exact`` where there is one, else ``matrix``.

        Every measure is scale-free, so the unit of ``exact`` (2**-1074) does not matter to them.

        >>> ConfusionCounts.from_labels([0, 1], [0, 0], sample_weight=[1e308, 1e308]).table[0, 0] > 0
        True
        """
        return self.matrix if self.exact is None else self.exact

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def from_labels(
        cls, y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None
    ) -> "ConfusionCounts":
        """Count (true, predicted) pairs; with ``labels``, over exactly those labels in that order
        (samples whose true or predicted label is outside them are left out).

        >>> ConfusionCounts.from_labels([1, 2], [2, 2], labels=[2, 1]).matrix.tolist()
        [[1, 0], [1, 0]]
        """
        counts = build_counts(y_true, y_pred, sample_weight, allow_all_zero_weights=True)[1]
        if isinstance(counts, MultilabelCounts):
            raise ValueError("from_labels needs 1-D labels; use MultilabelCounts for indicator matrices.")
        if labels is None:
            return counts
        lab = np.asarray(labels)
        if isinstance(counts, PairCounts) or use_pairs(lab.shape[0]):  # large k: pair-coded (sparse_counts)
            pairs = counts if isinstance(counts, PairCounts) else PairCounts.from_counts(counts)
            return pairs.reindex(lab)
        exact = None if counts.exact is None else counts.submatrix(lab, exact=True)
        return cls(lab, counts.submatrix(lab), exact)

    @classmethod
    def from_codes(
        cls,
        true_codes: np.ndarray,
        pred_codes: np.ndarray,
        labels: np.ndarray,
        sample_weight: np.ndarray | None = None,
    ) -> "ConfusionCounts":
        """Count already-encoded labels (integers in ``[0, k)``).

        >>> ConfusionCounts.from_codes(np.array([0, 1]), np.array([1, 1]), np.array(["x", "y"])).matrix.tolist()
        [[0, 1], [0, 1]]
        """
        k = labels.shape[0]
        if use_pairs(k):  # large k: pair-coded counts (clfeval.statistics.sparse_counts), not a k x k table
            return PairCounts.from_codes(true_codes, pred_codes, labels, sample_weight)
        table = _joint_bincount(true_codes, pred_codes, k, k * k, sample_weight)
        matrix, exact = _count_table(table, true_codes, pred_codes, k, sample_weight)
        return cls(labels, matrix.reshape(k, k), None if exact is None else exact.reshape(k, k))

    @classmethod
    def zeros(cls, labels: Any, dtype: Any = np.int64) -> "ConfusionCounts":
        """An empty table over ``labels`` (the identity of ``merge``)."""
        lab = np.asarray(labels)
        return cls(lab, np.zeros((lab.shape[0], lab.shape[0]), dtype=dtype))

    # ---- the monoid ---------------------------------------------------------------------
    def merge(self, other: "ConfusionCounts") -> "ConfusionCounts":
        """The table of the concatenated data: labels are united (sorted when they differ).

        >>> a = ConfusionCounts.from_labels([0, 1], [0, 1]); b = ConfusionCounts.from_labels([2], [1])
        >>> a.merge(b).matrix.tolist()
        [[1, 0, 0], [0, 1, 0], [0, 1, 0]]
        """
        if isinstance(other, PairCounts):  # pair-coded stays pair-coded
            return PairCounts.from_counts(self).merge(other)
        same = self.labels.shape == other.labels.shape and np.array_equal(self.labels, other.labels)
        labels = self.labels if same else union_labels(self.labels, other.labels)
        mine = self.matrix if same else self.submatrix(labels)
        theirs = other.matrix if same else other.submatrix(labels)
        exact = None
        if self.exact is not None or other.exact is not None:
            exact = _in_units(self, labels, same) + _in_units(other, labels, same)
        return ConfusionCounts(labels, add_counts(mine, theirs), exact)

    # ---- views ---------------------------------------------------------------------------
    def positions(self, labels: Any) -> np.ndarray:
        """Index of each of ``labels`` in this table, -1 for a label it has not seen."""
        return encode(np.asarray(labels), self.labels)

    def submatrix(self, labels: Any, exact: bool = False) -> np.ndarray:
        """The (m, m) table over ``labels`` in that order; unseen labels give zero rows/columns.
        ``exact``: of :attr:`table` (what the formulas read) instead of ``matrix``."""
        idx = self.positions(labels)
        source = self.table if exact else self.matrix
        padded = np.zeros((self.labels.shape[0] + 1,) * 2, dtype=source.dtype)
        padded[:-1, :-1] = source
        return padded[np.ix_(idx, idx)]  # index -1 is the zero padding row/column

    def one_vs_rest(self, labels: Any = None, exact: bool = False) -> np.ndarray:
        """Per-label (m, 2, 2) tables ``[[tn, fp], [fn, tp]]`` (scikit-learn's layout);
        ``exact``: of :attr:`table` (what the formulas read) instead of ``matrix``.

        >>> ConfusionCounts.from_labels([0, 1, 1], [0, 1, 0]).one_vs_rest().tolist()
        [[[1, 1], [0, 1]], [[1, 0], [1, 1]]]
        """
        from clfeval.formulas.measures import one_vs_rest

        source = self.table if exact else self.matrix
        tp, fp, fn, tn = one_vs_rest(source)
        stacked = np.stack([tn, fp, fn, tp], axis=-1).reshape(tp.shape + (2, 2))
        if labels is None:
            return stacked
        idx = self.positions(labels)
        total = source.sum()
        unseen = np.zeros((2, 2), dtype=source.dtype)
        unseen[0, 0] = total
        return np.where((idx < 0)[:, None, None], unseen, stacked[idx])

    @property
    def total(self) -> Any:
        return self.matrix.sum()

    def to_dict(self) -> dict:
        return {"labels": self.labels.tolist(), "matrix": self.matrix.tolist()}

    def __repr__(self) -> str:
        return f"ConfusionCounts(labels={self.labels.tolist()}, total={self.total})"


def _in_units(counts: ConfusionCounts, labels: np.ndarray, same: bool) -> np.ndarray:
    """A table's exact sums in units of 2**-1074 (object array), over ``labels``."""
    if counts.exact is not None:
        return counts.exact if same else counts.submatrix(labels, exact=True)
    return in_units(counts.matrix if same else counts.submatrix(labels))


@dataclass(frozen=True, eq=False)
class MultilabelCounts:
    """Per-label one-vs-rest tables of a multilabel task, and per-sample counts.

    ``tables`` is (L, 2, 2) as ``[[tn, fp], [fn, tp]]``; ``per_sample`` is (n, 3) holding each
    sample's (tp, fp, fn) over the L labels, with ``sample_weight`` (n,) or None, for the
    ``samples`` average.

    Parameters
    ----------
    tables : numpy.ndarray of shape (L, 2, 2)
        One two-class table per label, ``[[tn, fp], [fn, tp]]``.
    per_sample : numpy.ndarray of shape (n_samples, 3)
        Each sample's true positives, false positives and false negatives over the labels.
    sample_weight : numpy.ndarray of shape (n_samples,), optional
        Weight of each sample in the ``samples`` average; default None (equal weights).

    Examples
    --------
    >>> mc = MultilabelCounts.from_indicators(np.array([[1, 0], [1, 1]]), np.array([[1, 1], [0, 1]]))
    >>> mc.tables[:, 1, 1].tolist(), mc.per_sample.tolist()
    ([1, 1], [[1, 1, 0], [1, 0, 1]])
    """

    tables: np.ndarray
    per_sample: np.ndarray
    sample_weight: np.ndarray | None = None

    @classmethod
    def from_indicators(
        cls, y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray | None = None
    ) -> "MultilabelCounts":
        t = y_true != 0
        p = y_pred != 0
        both = t & p
        tp_s = both.sum(axis=1)
        fp_s = p.sum(axis=1) - tp_s
        fn_s = t.sum(axis=1) - tp_s
        if sample_weight is None:
            tp = both.sum(axis=0)
            pred = p.sum(axis=0)
            true = t.sum(axis=0)
            total = t.shape[0]
        else:
            w = sample_weight
            if w.dtype.kind in "iu" and w.size and int(w.max()) * w.size >= FLOAT_EXACT_INT:
                w = w.astype(object)  # integer sums that int64 could wrap: Python ints
            tp, pred, true = (w @ both, w @ p, w @ t)
            total = w.sum()
            if w.dtype.kind == "f":
                tp, pred, true = (x.astype(np.float64) for x in (tp, pred, true))
        fp = pred - tp
        fn = true - tp
        if sample_weight is not None and sample_weight.dtype.kind == "f":
            # summed directly: total - tp - fp - fn leaves rounding residue (even negative)
            tn = (sample_weight @ ~(t | p)).astype(np.float64)
        else:
            tn = total - tp - fp - fn
        tables = np.stack([tn, fp, fn, tp], axis=-1).reshape(-1, 2, 2)
        if tables.dtype.kind == "O":
            tables = add_counts(tables, np.zeros((), dtype=np.int64))  # int64 if it fits
        elif tables.dtype.kind != "f":
            tables = tables.astype(np.int64)
        per_sample = np.stack([tp_s, fp_s, fn_s], axis=-1).astype(np.int64)
        return cls(tables, per_sample, sample_weight)

    def merge(self, other: "MultilabelCounts") -> "MultilabelCounts":
        """Tables add; per-sample rows are concatenated (in order)."""
        if self.tables.shape != other.tables.shape:
            raise ValueError(
                f"Cannot merge multilabel counts over {self.tables.shape[0]} and "
                f"{other.tables.shape[0]} labels."
            )
        if (self.sample_weight is None) != (other.sample_weight is None):
            raise ValueError("Cannot merge weighted with unweighted multilabel counts.")
        w = None
        if self.sample_weight is not None:
            w = np.concatenate([self.sample_weight, other.sample_weight])
        return MultilabelCounts(
            self.tables + other.tables, np.concatenate([self.per_sample, other.per_sample]), w
        )

    @property
    def n_labels(self) -> int:
        return self.tables.shape[0]

    def to_dict(self) -> dict:
        return {"tables": self.tables.tolist()}

    def __repr__(self) -> str:
        return f"MultilabelCounts(n_labels={self.n_labels}, n_samples={self.per_sample.shape[0]})"


def _fast_integer_counts(
    yt: np.ndarray, yp: np.ndarray, w: np.ndarray | None
) -> tuple[str, ConfusionCounts, np.ndarray, np.ndarray] | None:
    """One pass for integer labels: count on the (span x span) grid, read label sets off its margins.

    Returns None when the labels are too spread out for a grid (the general path takes over).
    """

    def extremes(a: np.ndarray) -> tuple[int, int]:
        return int(a.min()), int(a.max())

    if yt.shape[0] >= _PARALLEL_MIN:
        (lo_t, hi_t), (lo_p, hi_p) = worker_pool().map(extremes, (yt, yp))
    else:
        (lo_t, hi_t), (lo_p, hi_p) = extremes(yt), extremes(yp)
    lo, hi = min(lo_t, lo_p), max(hi_t, hi_p)
    span = hi - lo + 1
    if span * span > _MAX_GRID:
        return None
    grid = _joint_bincount(yt, yp, span, span * span, None, offset=lo).reshape(span, span)
    seen_t = grid.any(axis=1)
    seen_p = grid.any(axis=0)
    present = np.flatnonzero(seen_t | seen_p)
    dtype = np.result_type(yt.dtype, yp.dtype)
    labels = (present + lo).astype(dtype)
    true_labels = (np.flatnonzero(seen_t) + lo).astype(dtype)
    pred_labels = (np.flatnonzero(seen_p) + lo).astype(dtype)
    exact = None
    if w is not None:
        flat = _joint_bincount(yt, yp, span, span * span, w, offset=lo)
        grid, exact = _count_table(flat, yt, yp, span, w, offset=lo)
        grid = grid.reshape(span, span)
        if exact is not None:
            exact = exact.reshape(span, span)[np.ix_(present, present)]
    else:
        grid = grid.astype(np.int64, copy=False)
    matrix = grid[np.ix_(present, present)]
    kind = "multiclass" if labels.shape[0] > 2 else "binary"
    return kind, ConfusionCounts(labels, matrix, exact), true_labels, pred_labels


def build_counts(
    y_true: Any, y_pred: Any, sample_weight: Any = None, *, allow_all_zero_weights: bool = False
) -> tuple[str, ConfusionCounts | MultilabelCounts, np.ndarray, np.ndarray]:
    """Validate a (y_true, y_pred) pair and build its counts in one pass.

    All-zero ``sample_weight`` is an error (as in scikit-learn's metrics) unless
    ``allow_all_zero_weights`` (a statistic of a zero-weight chunk is still a valid statistic).

    Returns the task kind ('binary', 'multiclass' or 'multilabel-indicator'), the counts over the
    labels present in either array (sorted), and the labels present in y_true and in y_pred.

    >>> kind, cc, lt, lp = build_counts([1, 1, 0], [1, 0, 0])
    >>> kind, cc.matrix.tolist()
    ('binary', [[1, 0], [1, 1]])
    """
    yt = as_array(y_true, "y_true")
    yp = as_array(y_pred, "y_pred")
    result = None
    w: np.ndarray | None = None
    weights_checked = False
    if (
        yt.ndim == 1
        and yp.ndim == 1
        and yt.dtype.kind in "iu"
        and yp.dtype.kind in "iu"
        and yt.shape[0] == yp.shape[0]
        and yt.shape[0] > 0
    ):
        w = check_sample_weight(sample_weight, yt.shape[0])
        weights_checked = True
        result = _fast_integer_counts(yt, yp, w)
    if result is None:
        targets = check_classification_targets(yt, yp)
        if not weights_checked:
            w = check_sample_weight(sample_weight, targets.y_true.shape[0])
        if targets.kind == "multilabel-indicator":
            counts: ConfusionCounts | MultilabelCounts = MultilabelCounts.from_indicators(
                targets.y_true, targets.y_pred, w
            )
        else:
            labels = targets.labels
            true_codes = encode(targets.y_true, labels)
            pred_codes = encode(targets.y_pred, labels)
            counts = ConfusionCounts.from_codes(true_codes, pred_codes, labels, w)
        result = (targets.kind, counts, targets.true_labels, targets.pred_labels)
    if isinstance(result[1], ConfusionCounts) and use_pairs(result[1].labels.shape[0]):
        result = (result[0], PairCounts.from_counts(result[1]), *result[2:])
    if w is not None and not allow_all_zero_weights:
        # Weights are non-negative, so they are all zero exactly when the counted total is:
        # read off the small table instead of another pass over the weights.
        table = result[1].tables[0] if isinstance(result[1], MultilabelCounts) else (
            result[1].values if isinstance(result[1], PairCounts) else result[1].matrix)
        if not table.any():
            raise all_zero_weights_error(w.shape[0])
    return result
