"""Confusion tables as scikit-learn's label metrics read them: over chosen labels (with scikit-learn's
checks of ``labels``), one-vs-rest 2x2 tables per label, dense tables of pair-coded counts, and the
trace, from the counts of :mod:`clfeval.statistics.counts` (dense) or :mod:`clfeval.statistics.sparse_counts` (pair-coded).

>>> from clfeval.statistics.counts import build_counts
>>> kind, counts, true_labels, _ = build_counts([0, 1, 1, 2], [0, 1, 2, 2], None)
>>> labelled_matrix(counts, true_labels, [2, 1]).tolist()
[[1, 0], [1, 1]]
>>> ovr_tables(counts, [1], False).tolist(), int(table_trace(counts))
([[[2, 0], [1, 1]]], 3)
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from clfeval.statistics.counts import ConfusionCounts
from clfeval.formulas.exact_sums import UNIT_EXPONENT, is_big
from clfeval.statistics.sparse_counts import PairCounts, dense_limit_bytes, dense_refusal

__all__ = ["binary_1d", "unit_exponent_of", "ovr_tables", "table_trace", "dense_of_pairs", "labelled_matrix",
           "warn_single_label", "encode_hits"]


def binary_1d(kind: str, counts: Any) -> ConfusionCounts:
    """The counts of 1-D labels (a binary or multiclass target); a ValueError for any other ``kind``."""
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"{kind} targets are not supported by this metric; it needs 1-D labels.")
    return counts


def unit_exponent_of(counts: ConfusionCounts) -> int:
    """The formulas' counts are in units of 2**this (exact sums of extreme float weights; else 0)."""
    if isinstance(counts, PairCounts):
        return counts.for_formulas()[1]
    return UNIT_EXPONENT if counts.exact is not None else 0


def ovr_tables(counts: ConfusionCounts, labels: Any, weighted: bool, exact: bool = True) -> np.ndarray:
    """Per-label [[tn, fp], [fn, tp]] tables, in the dtype scikit-learn returns them.

    scikit-learn returns float tables when sample weights are given, and also (a quirk kept for
    identical output) when no sample at all is predicted correctly. Counts that float64 would
    round (2**53 and beyond, Python ints) stay exact integers. ``exact``: the formulas' table
    (exact sums of extreme float weights), else the user-facing one.
    """
    if isinstance(counts, PairCounts):
        pairs = counts.for_formulas()[0] if exact else counts
        tables, total = pairs.one_vs_rest(labels), pairs.total
    else:
        tables, total = counts.one_vs_rest(labels, exact=exact), counts.table.sum()
    # float64 holds the formulas' sums of counts (2 tp + fp + fn at most) exactly while the
    # total stays below 2**52
    if (weighted or table_trace(counts) == 0) and not is_big(total, limit=1 << 52):
        tables = tables.astype(np.float64)
    return tables


def table_trace(counts: Any, exact: bool = False) -> Any:
    """Sum of the diagonal of dense (the formulas' table with ``exact``) or pair-coded counts."""
    if isinstance(counts, PairCounts):
        return (counts.for_formulas()[0] if exact else counts).trace
    return np.trace(counts.table if exact else counts.matrix)


def dense_of_pairs(counts: PairCounts) -> np.ndarray:
    """The dense table scikit-learn returns, refused with its size when the machine cannot hold it."""
    limit = dense_limit_bytes()
    if counts.k * counts.k * counts.values.dtype.itemsize > limit:
        raise dense_refusal(counts.k, counts.values.dtype.itemsize, limit,
                            f"the {limit / 2**30:.1f} GiB (half of this machine's memory) it may take")
    return counts.dense_matrix(limit)


def labelled_matrix(
    counts: ConfusionCounts, true_labels: np.ndarray, labels: Any, exact: bool = False
) -> np.ndarray:
    """A writable copy of the table over ``labels`` (all present labels when None), with
    scikit-learn's checks on ``labels``. ``exact``: of the formulas' table (``counts.table``)."""
    if labels is None:
        if isinstance(counts, PairCounts):
            return dense_of_pairs(counts)
        return (counts.table if exact else counts.matrix).copy()
    lab = np.asarray(labels)
    if lab.size == 0:
        raise ValueError("'labels' should contain at least one label.")
    if lab.ndim != 1:
        raise ValueError(f"'labels' must be 1-D, got shape {lab.shape}.")
    if not encode_hits(lab, true_labels):
        raise ValueError(
            f"At least one label specified must be in y_true: labels={_preview(lab)}, "
            f"y_true has {_preview(true_labels)}."
        )
    return _table_at(counts, lab, exact)


def _table_at(counts: ConfusionCounts, labels: np.ndarray, exact: bool = False) -> np.ndarray:
    """The table over ``labels`` (unseen labels give zero rows/columns). A label given more than
    once is counted in its last row/column only, as scikit-learn does."""
    if isinstance(counts, PairCounts):
        return dense_of_pairs(counts.reindex(labels))
    idx = np.array(counts.positions(labels), dtype=np.intp, copy=True)  # may alias ``labels``
    seen: set[int] = set()
    for i in range(idx.shape[0] - 1, -1, -1):
        if idx[i] in seen:
            idx[i] = -1
        seen.add(int(idx[i]))
    k = counts.labels.shape[0]
    source = counts.table if exact else counts.matrix
    padded = np.zeros((k + 1, k + 1), dtype=source.dtype)
    padded[:-1, :-1] = source
    return padded[np.ix_(idx, idx)]  # index -1 is the zero padding row/column


def warn_single_label(stacklevel: int) -> None:
    """scikit-learn's warning of a table of one label (``stacklevel`` as ``warnings.warn`` takes it)."""
    warnings.warn(
        "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix to "
        "have the correct shape, use the 'labels' parameter to pass all known labels.",
        UserWarning,
        stacklevel=stacklevel,
    )


def _preview(values: np.ndarray, limit: int = 8) -> str:
    """Short text of a label array: the first ``limit`` labels and how many more."""
    head = values[:limit].tolist()
    more = values.shape[0] - len(head)
    return f"{head!r}" + (f" (and {more} more)" if more > 0 else "")


def encode_hits(labels: np.ndarray, present: np.ndarray) -> bool:
    """Whether any of ``labels`` is among ``present``.

    >>> encode_hits(np.array([3, 1]), np.array([0, 1])), encode_hits(np.array(["x"]), np.array(["a", "b"]))
    (True, False)
    """
    from clfeval.inputs.labels import encode

    return bool((encode(labels, present) >= 0).any())
