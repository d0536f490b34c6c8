"""Score statistics: what every ranking metric (ROC, PR, DET, AUC, average precision) reads.

The central object is :class:`ScoreTable`: for one score column, the distinct scores (kept in
decreasing order, the order in which a threshold sweeps them) and, at each, the count (or total
weight) of every true class. Tables merge exactly, so streaming and partitioned data are the same
code: build per chunk, then ``merge``.

Two smaller statistics are built straight from the data where full tables would cost too much
memory: :func:`pairwise_u` (the Mann-Whitney U of each class against every other class on its own
score column: all that one-vs-one AUC needs, and one-vs-rest AUC as its row sums) and
:func:`rowwise_counts` (one small table per sample, for ``average='samples'``).

For a multi-class task with scores, :func:`one_vs_rest_columns` sorts each score column once,
with the class codes in the keys, and reads both the column's one-vs-rest table and its row of
:func:`pairwise_u` off that one sort (columns on several threads when large).

Both the tables and :func:`pairwise_u` order the samples with the packed-key sort of
:mod:`clfeval.statistics.packed_sort`.

>>> t = ScoreTable.from_labels([0, 1, 1, 0], [0.1, 0.8, 0.4, 0.4])
>>> t.scores.tolist(), t.counts.tolist()
([0.8, 0.4, 0.1], [[0, 1], [1, 1], [1, 0]])
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from clfeval.formulas.exact_sums import FLOAT_EXACT_INT, integer_bincount
from clfeval.inputs.labels import (
    as_1d,
    as_array,
    as_score_array,
    check_consistent_length,
    check_sample_weight,
    encode,
    unique_sorted,
)
from clfeval.statistics.packed_sort import PARALLEL_SORT_MIN, sort_in_place  # noqa: F401 - re-exported (they lived here)
from clfeval.statistics.packed_sort import code_bits, grouped_binary_keys, sorted_parts, take_codes
from clfeval.support.thread_pools import thread_pool

__all__ = ["ScoreTable", "one_vs_rest_columns", "pairwise_u", "pairwise_u_validated", "rowwise_counts"]

# Rows per block when a statistic is accumulated block by block to bound memory.
_BLOCK = 1 << 18
# Held while a table's lazily kept scores are decoded (in place) or read from their keys.
_DECODING = threading.Lock()


class ScoreTable:
    """Distinct scores (decreasing) with the count or weight of each true class at each score.

    ``scores`` has shape (D,), ``counts`` (D, k) (int64 counts, or float64 weights when built
    with sample weights) and ``classes`` (k,) names the count columns. Rows of zero weight carry
    no information and are left out.

    Parameters
    ----------
    scores : array-like of shape (D,)
        The distinct scores, finite and strictly decreasing.
    counts : array-like of shape (D, k)
        Non-negative count (or weight) of each class at each score.
    classes : array-like of shape (k,)
        The classes the columns of ``counts`` belong to.

    Examples
    --------
    >>> ScoreTable([0.9, 0.5, 0.1], [[0, 2], [1, 1], [3, 0]], ["neg", "pos"])
    ScoreTable(classes=['neg', 'pos'], n_scores=3, totals=[4, 3])
    >>> t = ScoreTable.from_labels(["a", "b", "b"], [0.3, 0.9, 0.3])
    >>> t
    ScoreTable(classes=['a', 'b'], n_scores=2, totals=[1, 2])
    >>> t.merge(t).counts.tolist()
    [[0, 2], [2, 2]]
    """

    # Two storage layouts, one meaning. When every distinct score holds exactly one (unweighted)
    # sample, the usual case for continuous scores, the table keeps just that sample's class code
    # per score (1 byte instead of 8 k bytes) and forms the dense counts only if asked.
    # Binary tables built from continuous scores may also keep their scores undecoded (``_decode``:
    # the sorted keys, lowest score first, and the function that decodes them in place, run on first
    # read): areas never read them, and curves read some.
    __slots__ = ("_scores", "_counts", "_codes", "_classes", "_decode")

    def __init__(self, scores: Any, counts: Any, classes: Any) -> None:
        scores = np.array(scores, dtype=np.float64).reshape(-1)
        counts = np.array(counts)
        classes = np.array(classes).reshape(-1)
        if counts.ndim != 2 or counts.shape != (scores.size, classes.size):
            raise ValueError(
                f"counts must have shape (n_scores, n_classes) = ({scores.size}, {classes.size}), "
                f"got {counts.shape}."
            )
        if not np.isfinite(scores).all():
            raise ValueError("ScoreTable scores must be finite.")
        if scores.size > 1 and not (scores[1:] < scores[:-1]).all():
            raise ValueError("ScoreTable scores must be distinct and in decreasing order.")
        if counts.dtype.kind in "biu":
            counts = counts.astype(np.int64)
        elif counts.dtype.kind == "f":
            counts = counts.astype(np.float64)
        else:
            raise TypeError(f"counts must be numeric, got dtype {counts.dtype}.")
        if counts.size and not (counts.min() >= 0):
            raise ValueError("ScoreTable counts must be finite and >= 0.")
        self._set(scores, np.asfortranarray(counts), None, classes)

    def _set(
        self,
        scores: np.ndarray | None,
        counts: np.ndarray | None,
        codes: np.ndarray | None,
        classes: np.ndarray,
        decode: Any = None,
    ) -> None:
        for a in (scores, counts, codes, classes):
            if a is not None:
                a.flags.writeable = False
        object.__setattr__(self, "_decode", decode)
        object.__setattr__(self, "_scores", scores)
        object.__setattr__(self, "_counts", counts)
        object.__setattr__(self, "_codes", codes)
        object.__setattr__(self, "_classes", classes)

    @classmethod
    def _trusted(
        cls,
        scores: np.ndarray,
        counts: np.ndarray | None,
        classes: np.ndarray,
        codes: np.ndarray | None = None,
        decode: Any = None,
    ) -> ScoreTable:
        """Wrap arrays that a builder just made (no copies, no checks); counts or codes; scores, or
        None and ``decode``: (sorted keys lowest score first, function that decodes them in place)."""
        table = object.__new__(cls)
        table._set(scores, counts, codes, classes, decode)
        return table

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ScoreTable is immutable; build a new one (e.g. with merge).")

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_codes(
        cls, codes: Any, scores: Any, classes: Any, sample_weight: Any = None
    ) -> ScoreTable:
        """Build from class codes (integers indexing ``classes``), one score column and weights.

        >>> t = ScoreTable.from_codes([1, 0, 1], [0.2, 0.2, 0.7], classes=["neg", "pos"])
        >>> t.counts.tolist()
        [[0, 1], [1, 1]]
        """
        classes = np.asarray(classes).reshape(-1)
        codes = as_array(codes, "codes")
        if codes.size == 0:
            codes = codes.astype(np.intp)
        if codes.dtype.kind not in "biu":
            raise TypeError(f"codes must be integer class indices, got dtype {codes.dtype}.")
        x = _one_column(scores)
        n = check_consistent_length(codes=codes.reshape(-1), scores=x)
        codes = codes.reshape(-1)
        if n and (int(codes.min()) < 0 or int(codes.max()) >= classes.size):
            raise ValueError(
                f"codes must lie in [0, {classes.size}) to index the {classes.size} classes; got "
                f"values from {int(codes.min())} to {int(codes.max())}."
            )
        return cls.from_validated(codes, x, classes, check_sample_weight(sample_weight, n))

    @classmethod
    def from_labels(
        cls, y_true: Any, y_score: Any, *, classes: Any = None, sample_weight: Any = None
    ) -> ScoreTable:
        """Build from class labels and one score column; ``classes`` defaults to the sorted labels.

        >>> ScoreTable.from_labels([True, False], [0.5, 0.5]).counts.tolist()
        [[1, 1]]
        """
        y = as_array(y_true, "y_true").reshape(-1)
        x = _one_column(y_score)
        n = check_consistent_length(y_true=y, y_score=x)
        classes = unique_sorted(y, "y_true") if classes is None else as_array(classes, "classes")
        codes = encode(y, classes.reshape(-1))
        if n and codes.min() < 0:
            bad = int(np.flatnonzero(codes < 0)[0])
            raise ValueError(
                f"y_true[{bad}] = {y[bad:bad + 1].tolist()[0]!r} is not one of classes "
                f"{classes.tolist()}; "
                "add it to classes or drop those samples."
            )
        return cls.from_validated(codes, x, classes.reshape(-1), check_sample_weight(sample_weight, n))

    @classmethod
    def from_validated(
        cls,
        codes: np.ndarray,
        scores: np.ndarray,
        classes: np.ndarray,
        weights: np.ndarray | None = None,
        owned: bool = False,
    ) -> ScoreTable:
        """Build from validated arrays: codes in [0, k), finite 1-D scores, weights >= 0 or None
        (no checks: for callers that validated their input already).

        ``owned``: the scores are a scratch copy the build may overwrite.

        >>> ScoreTable.from_validated(np.array([1, 0]), np.array([0.9, 0.2]), np.array([0, 1])).counts.tolist()
        [[0, 1], [1, 0]]
        """
        k = classes.size
        scores = np.asarray(scores, dtype=np.float64)
        if weights is None and k <= 1 << 16:
            if codes.dtype == np.bool_:
                small = codes.view(np.uint8)
            else:
                small = codes.astype(np.uint8 if k <= 256 else np.uint16, copy=False)
            if k == 2 and scores.size > 1:
                built = grouped_binary_keys(scores, small, owned)
                if built is not None:
                    values, decode, counts, one_each = built
                    return cls._trusted(values, counts, classes, one_each, decode)
            values, counts, one_each = _group_by_packed_sort(small, scores, k, owned)
            if one_each is not None:
                return cls._trusted(values, None, classes, one_each)
        else:
            values, counts = _group_by_argsort(codes, scores, k, weights)
        return cls._trusted(values, counts, classes)

    _build = from_validated  # the name it had before it was public

    # -- reading --------------------------------------------------------------------------------

    @property
    def scores(self) -> np.ndarray:
        """Distinct scores, decreasing, shape (D,).

        >>> ScoreTable.from_labels([0, 1], [0.2, 0.9]).scores.tolist()
        [0.9, 0.2]
        """
        if self._scores is None:
            with _DECODING:  # decoding runs in place: once, whatever the threads reading
                if self._scores is None:
                    keys, decode = self._decode
                    scores = decode(keys)[::-1]
                    scores.flags.writeable = False
                    object.__setattr__(self, "_scores", scores)
                    object.__setattr__(self, "_decode", None)
        return self._scores

    def scores_at(self, positions: np.ndarray | None = None, *, release: bool = False) -> np.ndarray:
        """``scores[positions]`` (a new array; None: all), decoding only those where the scores
        are not decoded yet.

        ``release``: the caller reads the table no more (a metric's own table), so all the
        scores may come back in the memory the table holds them in, writable (no copy).

        >>> ScoreTable.from_labels([0, 1, 0], [0.2, 0.9, 0.5]).scores_at(np.array([0, 2])).tolist()
        [0.9, 0.2]
        """
        with _DECODING:  # (the keys are read while no other thread decodes them in place)
            if self._scores is None:
                keys, decode = self._decode
                if positions is None and release:
                    values = decode(keys)[::-1]
                    kept = values[::-1][::-1]  # a view of its own, read-only for the table
                    kept.flags.writeable = False
                    object.__setattr__(self, "_scores", kept)
                    object.__setattr__(self, "_decode", None)
                    return values
                if positions is None:  # decoded into a new array (a reversed view of it: highest first)
                    return decode(keys, fresh=True)[::-1]
                return decode(keys[keys.size - 1 - np.asarray(positions)])
        return self.scores.copy() if positions is None else self.scores[positions]

    @property
    def counts(self) -> np.ndarray:
        """Count (int64) or weight (float64) of each class at each score, shape (D, k).

        >>> ScoreTable.from_labels([0, 1], [0.2, 0.9]).counts.tolist()
        [[0, 1], [1, 0]]
        """
        if self._counts is None:
            counts = _dense(self._codes, self._classes.size)
            counts.flags.writeable = False
            object.__setattr__(self, "_counts", counts)
        return self._counts

    @property
    def classes(self) -> np.ndarray:
        """The class of each count column, shape (k,).

        >>> ScoreTable.from_labels(["x", "y"], [0.2, 0.9]).classes.tolist()
        ['x', 'y']
        """
        return self._classes

    @property
    def weighted(self) -> bool:
        """True when counts are float weights rather than integer counts.

        >>> ScoreTable.from_labels([0, 1], [0.2, 0.9], sample_weight=[0.5, 2.0]).weighted
        True
        """
        return self._counts is not None and self._counts.dtype.kind == "f"

    @property
    def totals(self) -> np.ndarray:
        """Total count or weight of each class, shape (k,).

        >>> ScoreTable.from_labels([0, 1, 1], [0.2, 0.9, 0.9]).totals.tolist()
        [1, 2]
        """
        if self._counts is None:
            if self._classes.size == 2:
                codes = self._codes
                ones = np.count_nonzero(codes[::-1] if codes.strides[0] < 0 else codes)
                return np.array([self._codes.size - ones, ones], dtype=np.int64)
            return np.bincount(self._codes, minlength=self._classes.size).astype(np.int64)
        return self._counts.sum(axis=0)

    def __len__(self) -> int:
        if self._scores is None:
            return (self._codes if self._counts is None else self._counts).shape[0]
        return self._scores.size

    def __repr__(self) -> str:
        return (
            f"ScoreTable(classes={self._classes.tolist()}, n_scores={len(self)}, "
            f"totals={self.totals.tolist()})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreTable):
            return NotImplemented
        return (
            np.array_equal(self._classes, other.classes)
            and np.array_equal(self.scores, other.scores)
            and np.array_equal(self.counts, other.counts)
        )

    __hash__ = None  # type: ignore[assignment]

    def class_index(self, label: Any) -> int:
        """Column of ``label`` in ``counts``.

        >>> ScoreTable.from_labels(["x", "y"], [0.2, 0.9]).class_index("y")
        1
        """
        hits = [i for i, c in enumerate(self._classes.tolist()) if c == label]
        if not hits:
            raise ValueError(
                f"{label!r} is not one of this table's classes {self._classes.tolist()}."
            )
        return hits[0]

    def binary_counts(
        self, positive: int = -1, compact: bool = False
    ) -> tuple[np.ndarray | None, np.ndarray]:
        """(negative, positive) counts at each score: column ``positive`` against all the others.

        Counts may come back as booleans (one sample per score); the curve formulas accept that.
        With ``compact``, the negatives come back as None when every score holds one sample
        (they are then ``1 - pos``), which the formulas of :mod:`clfeval.formulas.curves` read faster.

        >>> neg, pos = ScoreTable.from_labels([0, 1, 2], [0.1, 0.5, 0.5]).binary_counts(1)
        >>> neg.tolist(), pos.tolist()
        ([1, 1], [1, 0])
        """
        k = self._classes.size
        positive = positive % k
        if self._counts is None:
            if k == 2 and positive == 1 and self._codes.dtype == np.uint8:
                pos = self._codes.view(np.bool_)  # codes are 0/1: no copy
            else:
                pos = self._codes == positive
            return (None if compact else ~pos), pos
        pos = self._counts[:, positive]
        if k == 2:
            return self._counts[:, 1 - positive], pos
        return self._counts.sum(axis=1) - pos, pos

    def one_vs_rest(self, positive: int = -1) -> ScoreTable:
        """Two-column table [rest, positive] with classes [False, True] (is the positive class).

        >>> ScoreTable.from_labels([0, 1, 2], [0.1, 0.5, 0.5]).one_vs_rest(2).counts.tolist()
        [[1, 1], [1, 0]]
        """
        neg, pos = self.binary_counts(positive)
        classes = np.array([False, True])
        if self._counts is None:
            return ScoreTable._trusted(self.scores, None, classes, pos.view(np.uint8))
        counts = np.empty((neg.size, 2), dtype=self._counts.dtype, order="F")
        counts[:, 0], counts[:, 1] = neg, pos
        return ScoreTable._trusted(self.scores, counts, classes)

    # -- algebra --------------------------------------------------------------------------------

    def merge(self, other: ScoreTable) -> ScoreTable:
        """The table of the concatenated data: union of distinct scores, counts added.

        >>> a = ScoreTable.from_labels([0, 1], [0.2, 0.9], classes=[0, 1])
        >>> b = ScoreTable.from_labels([1], [0.2], classes=[0, 1])
        >>> a.merge(b).counts.tolist()
        [[0, 1], [1, 1]]
        """
        if not isinstance(other, ScoreTable):
            raise TypeError(
                f"can only merge a ScoreTable with a ScoreTable, got {type(other).__name__}."
            )
        if not np.array_equal(self._classes, other.classes):
            raise ValueError(
                f"cannot merge tables over different classes ({self._classes.tolist()} vs "
                f"{other.classes.tolist()}); build both with the same classes=."
            )
        ascending = np.unique(np.concatenate([self.scores, other.scores]))
        last = ascending.size - 1
        counts = np.zeros(
            (ascending.size, self._classes.size),
            dtype=np.result_type(self.counts, other.counts),
            order="F",
        )
        for t in (self, other):
            # Scores are decreasing, so reversing them gives ascending queries for searchsorted.
            rows = last - np.searchsorted(ascending, t.scores[::-1])[::-1]
            counts[rows] += t.counts
        return ScoreTable._trusted(ascending[::-1].copy(), counts, self._classes.copy())

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python (JSON-ready) form.

        >>> ScoreTable.from_labels([0, 1], [0.2, 0.9]).to_dict()
        {'classes': [0, 1], 'scores': [0.9, 0.2], 'counts': [[0, 1], [1, 0]], 'weighted': False}
        """
        return {
            "classes": self._classes.tolist(),
            "scores": self.scores.tolist(),
            "counts": self.counts.tolist(),
            "weighted": self.weighted,
        }


def _one_column(scores: Any) -> np.ndarray:
    """A single score column as a 1-D finite float array."""
    return as_1d(
        as_score_array(scores, "scores"),
        "a ScoreTable holds one score column; build one table per column",
    )


# -- building: group samples by distinct score -------------------------------------------------


def _group_by_argsort(
    codes: np.ndarray, x: np.ndarray, k: int, weights: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """Distinct scores (decreasing) and per-class counts/weights, via one argsort."""
    integer = weights is not None and weights.dtype.kind in "biu"
    if weights is not None:
        if (weights == 0).any():  # zero-weight rows are not thresholds (as in scikit-learn)
            keep = weights != 0
            codes, x, weights = codes[keep], x[keep], weights[keep]
    if x.size == 0:
        dtype = np.int64 if weights is None or integer else np.float64
        return np.empty(0), np.zeros((0, k), dtype=dtype)
    order = np.argsort(-x)  # ties are summed, so the sort need not be stable
    xs = x[order]
    new = np.empty(xs.size, dtype=bool)
    new[0] = True
    np.not_equal(xs[1:], xs[:-1], out=new[1:])
    group = np.cumsum(new) - 1
    d = int(group[-1]) + 1
    flat = codes[order].astype(np.intp)
    flat *= d
    flat += group
    w = None if weights is None else weights[order]
    # (k, D) bincount transposed: a (D, k) table whose columns are contiguous
    counts = np.bincount(flat, weights=w, minlength=d * k)
    if integer and counts.size and counts.max() >= FLOAT_EXACT_INT:
        # float64 sums of integer weights are exact below 2**53 (and stay float, "weighted");
        # beyond, the exact int64 sums (totals beyond int64 stay float64 sums)
        exact = integer_bincount(flat, w, d * k, counts)
        if exact.dtype == np.int64 and counts.sum() < 2.0**62:  # cumulative sums fit int64
            counts = exact
    return xs[new] + 0.0, counts.reshape(k, d).T  # + 0.0 turns -0.0 into 0.0


def _group_by_packed_sort(
    codes: np.ndarray, x: np.ndarray, k: int, owned: bool = False
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Distinct scores (decreasing) and per-class int64 counts, via packed-key sorts.

    Returns (scores, counts, None), or (scores, None, codes) when every score holds exactly one
    sample (then ``codes`` is that sample's class, per score).
    """
    bits = code_bits(k)
    parts = []
    for keys, decode in sorted_parts(x, codes, bits, owned):
        v, c, one = _group_sorted_keys(keys, bits, k)
        parts.append((decode(v), c, one))
    if not parts:
        return np.empty(0), np.zeros((0, k), dtype=np.int64, order="F"), None
    if len(parts) == 1:
        return parts[0]
    values = np.concatenate([p[0] for p in parts])
    if all(p[2] is not None for p in parts):
        return values, None, np.concatenate([p[2] for p in parts])
    counts = [p[1] if p[2] is None else _dense(p[2], k) for p in parts]
    return values, np.asfortranarray(np.concatenate(counts)), None


def _dense(codes: np.ndarray, k: int) -> np.ndarray:
    """(D, k) counts from one class code per score."""
    counts = np.zeros((codes.size, k), dtype=np.int64, order="F")
    counts[np.arange(codes.size), codes] = 1
    return counts


def _group_sorted_keys(
    keys: np.ndarray, bits: int, k: int
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Run-length encode sorted packed keys: (value keys, (D, k) counts or None, codes or None).

    Consumes ``keys`` (its memory becomes the value keys).
    """
    n = keys.size
    code = take_codes(keys, bits)
    change = keys[1:] != keys[:-1]
    n_change = int(np.count_nonzero(change))
    if n_change == n - 1:  # every score distinct (the usual case for continuous scores)
        return keys, None, code
    ends = np.empty(n_change + 1, dtype=np.intp)
    ends[:-1] = np.flatnonzero(change)
    ends[-1] = n - 1
    d = ends.size
    # Counts are column-major (D, k): per-class columns are contiguous, which makes the cumsums
    # and totals that every curve reads several times faster.
    if k == 2:
        cum_pos = np.cumsum(code, dtype=np.int64)[ends]
        counts = np.empty((d, 2), dtype=np.int64, order="F")
        counts[:, 1] = np.diff(cum_pos, prepend=0)
        counts[:, 0] = np.diff(ends, prepend=-1) - counts[:, 1]
    else:
        group = np.zeros(n, dtype=np.intp)
        np.cumsum(change, out=group[1:])
        group += code * np.intp(d)
        counts = np.bincount(group, minlength=d * k).reshape(k, d).T
    return keys[ends], counts, None



# -- statistics built straight from data -------------------------------------------------------


def pairwise_u(codes: Any, y_score: Any, n_classes: int) -> np.ndarray:
    """Mann-Whitney U of each class against every class, each on its own score column.

    ``U[a, b]`` counts the pairs (i in class a, j in class b) with ``y_score[i, a] >
    y_score[j, a]``, ties counting one half; so ``U[a, b] / (n_a * n_b)`` is the AUC of class a
    against class b on column a, and the sum of row a over b != a gives the one-vs-rest AUC.
    The diagonal holds ``n_a**2 / 2``; rows of absent classes are NaN. Unweighted.

    Memory stays small (about 10 bytes per sample beyond the input): one packed-key sort per
    column, then counts accumulated block by block.

    >>> pairwise_u([0, 0, 1, 2], [[.6, .2, .2], [.3, .3, .4], [.5, .4, .1], [.1, .1, .8]], 3)
    array([[2. , 1. , 2. ],
           [2. , 0.5, 1. ],
           [2. , 1. , 0.5]])
    """
    y_score = as_score_array(y_score, "y_score")
    codes = as_array(codes, "codes").reshape(-1)
    k = int(n_classes)
    if y_score.ndim != 2 or y_score.shape[1] != k:
        raise ValueError(f"y_score must have shape (n_samples, {k}), got {y_score.shape}.")
    check_consistent_length(codes=codes, y_score=y_score)
    if codes.dtype.kind not in "biu" or (codes.size and not 0 <= codes.min() <= codes.max() < k):
        raise ValueError(f"codes must be integers in [0, {k}) indexing the columns of y_score.")
    return pairwise_u_validated(codes, y_score, k)


def pairwise_u_validated(codes: np.ndarray, y_score: np.ndarray, k: int) -> np.ndarray:
    """:func:`pairwise_u` on input already validated: integer codes in [0, k), finite (n, k) scores.

    >>> pairwise_u_validated(np.array([0, 1]), np.array([[0.9, 0.1], [0.2, 0.8]]), 2).tolist()
    [[0.5, 1.0], [1.0, 0.5]]
    """
    small = codes.astype(np.uint8 if k <= 256 else np.uint16, copy=False)
    support = np.bincount(small, minlength=k)[:k]
    u = np.full((k, k), np.nan)
    for a in np.flatnonzero(support):
        u[a] = _u_row(small, y_score[:, a], int(a), k)
        u[a, a] = support[a] ** 2 / 2
    return u


def _u_row(codes: np.ndarray, x: np.ndarray, a: int, k: int) -> np.ndarray:
    """Row a of pairwise_u: class a against every class on score column x."""
    bits = code_bits(k)
    before = np.zeros(k)  # S[b]: pairs (i in a, j in b) with i strictly earlier in key order
    tied = np.zeros(k)  # T[b]: pairs (i in a, j in b) with equal scores
    a_seen = 0
    # A contiguous scratch copy of the column (one strided read), which then becomes the keys.
    column = np.array(x, dtype=np.float64, order="C")
    for keys, _ in sorted_parts(column, codes, bits, owned=True):
        code = take_codes(keys, bits)
        n, start = keys.size, 0
        while start < n:
            stop = min(start + _BLOCK, n)
            if stop < n:  # end blocks on a change of score so that no tie straddles two blocks
                stop = int(np.searchsorted(keys, keys[stop - 1], side="right"))
            c = code[start:stop]
            is_a = c == a
            a_before = np.cumsum(is_a, dtype=np.int64)
            a_block = int(a_before[-1])
            a_before -= is_a
            a_before += a_seen
            # Speed trick: one weighted bincount over class codes sums, for every class b at
            # once, the number of class-a samples ranked above each class-b sample.
            before += np.bincount(c, weights=a_before, minlength=k)
            v = keys[start:stop]
            tie = v[1:] == v[:-1]
            if tie.any():
                group = np.zeros(c.size, dtype=np.intp)
                np.cumsum(~tie, out=group[1:])
                per_group = np.bincount(group * k + c, minlength=(int(group[-1]) + 1) * k)
                per_group = per_group.reshape(-1, k)
                tied += per_group[:, a] @ per_group
            a_seen += a_block
            start = stop
    # Within a tie, keys order samples by class code: class a precedes class b iff a < b. Count
    # half of each tied pair instead.
    sign = np.where(np.arange(k) > a, -0.5, 0.5)
    return before + sign * tied


# -- multi-class: one pass per score column for every class's statistics ----------------------

_OUTCOMES = np.array([False, True])  # the classes of a one-vs-rest table: is the column's class
_PARALLEL_COLUMNS_MIN = 1 << 22  # rows below which one thread does every column (threads cost more than they save)


def one_vs_rest_columns(
    codes: np.ndarray, y_score: np.ndarray, k: int, weights: np.ndarray | None = None, *,
    tables: bool = True, u: bool = True,
) -> tuple[list[ScoreTable] | None, np.ndarray | None]:
    """Each score column's one-vs-rest table and, unweighted, Hand & Till's U statistics, from
    one packed-key sort of (score, class code) per column, columns on several threads.

    Returns ``(tables, U)``: ``tables[c]`` is the two-column :class:`ScoreTable` (classes [False,
    True]: is class c) of column c, the same as ``ScoreTable.from_validated(codes == c, y_score[:,
    c], [False, True], weights)``; ``U`` is :func:`pairwise_u_validated`'s (k, k) matrix (NaN rows
    for absent classes), None with weights. ``tables``/``u`` False leave either out. Input is
    validated: integer codes in [0, k), finite (n, k) scores, weights >= 0 or None.

    >>> t, U = one_vs_rest_columns(np.array([0, 1, 1]), np.array([[.6, .4], [.3, .7], [.6, .4]]), 2)
    >>> t[0].scores.tolist(), t[0].counts.tolist(), U.tolist()
    ([0.6, 0.3], [[1, 1], [1, 0]], [[0.5, 1.5], [1.5, 2.0]])
    """
    packed = weights is None and k <= 1 << 16
    if packed:
        codes = codes.astype(np.uint8 if k <= 256 else np.uint16, copy=False)
    want_u = u and packed

    def column(job: tuple[int, np.ndarray]) -> tuple[ScoreTable | None, np.ndarray | None]:
        c, x = job  # x: a scratch copy of column c, which becomes the keys
        if not packed:
            return ScoreTable.from_validated(codes == c, x, _OUTCOMES, weights, owned=True), None
        return _column_pass(codes, x, c, k, tables, want_u)

    workers = min(os.cpu_count() or 1, 8, k)
    parallel = workers > 1 and codes.size >= _PARALLEL_COLUMNS_MIN  # numpy releases the GIL in sorts
    results = []
    for jobs in _column_copies(y_score, workers):
        if parallel:
            results += thread_pool("columns", workers).map(column, jobs)
        else:
            results += map(column, jobs)
    out_u = None
    if want_u:
        support = np.bincount(codes, minlength=k)[:k]
        out_u = np.full((k, k), np.nan)
        for a in np.flatnonzero(support):
            out_u[a] = results[a][1]
            out_u[a, a] = support[a] ** 2 / 2
    return ([r[0] for r in results] if tables else None), out_u


def _column_copies(y_score: np.ndarray, workers: int) -> Iterator[list[tuple[int, np.ndarray]]]:
    """Contiguous float64 copies of the columns of an (n, k) score matrix, in groups: (column,
    copy) pairs. A row-major matrix is transposed block by block (each block fits in cache), so
    the matrix is read once per group rather than once per column; a group holds about 1 GiB, at
    least ``workers`` columns.

    >>> [[(c, x.tolist()) for c, x in g] for g in _column_copies(np.array([[1.0, 2.0], [3.0, 4.0]]), 1)]
    [[(0, [1.0, 3.0]), (1, [2.0, 4.0])]]
    """
    n, k = y_score.shape
    if y_score.flags.f_contiguous or n < 2:  # columns are contiguous already: copy each
        yield [(c, np.array(y_score[:, c], dtype=np.float64, order="C")) for c in range(k)]
        return
    size = max(workers, (1 << 30) // (8 * n))
    block = 1 << 13
    for start in range(0, k, size):
        stop = min(k, start + size)
        out = np.empty((stop - start, n))
        for i in range(0, n, block):
            out[:, i:i + block] = y_score[i:i + block, start:stop].T
        yield [(start + j, out[j]) for j in range(stop - start)]


def _column_pass(
    codes: np.ndarray, x: np.ndarray, c: int, k: int, table: bool, want_u: bool
) -> tuple[ScoreTable | None, np.ndarray | None]:
    """Column c's one-vs-rest table and row c of U from one packed-key sort of (x, codes);
    consumes ``x``. Scores are grouped as :meth:`ScoreTable.from_validated` groups them; U sums
    half-integers in float64 (exact below 2**53, as :func:`pairwise_u_validated`)."""
    bits = code_bits(k)
    values, sorted_codes = [], []
    for keys, decode in sorted_parts(x, codes, bits, owned=True):
        sorted_codes.append(take_codes(keys, bits))
        values.append(decode(keys))
    if not values:
        empty = ScoreTable._trusted(np.empty(0), np.zeros((0, 2), dtype=np.int64, order="F"), _OUTCOMES)
        return (empty if table else None), (np.zeros(k) if want_u else None)
    v = values[0] if len(values) == 1 else np.concatenate(values)
    code = sorted_codes[0] if len(sorted_codes) == 1 else np.concatenate(sorted_codes)
    del values, sorted_codes
    is_c = code == c
    change = v[1:] != v[:-1]
    out_table = row = None
    if int(np.count_nonzero(change)) == v.size - 1:  # every score distinct: one sample each
        if table:
            out_table = ScoreTable._trusted(v, None, _OUTCOMES, is_c.view(np.uint8))
        if want_u:
            above = np.cumsum(is_c, dtype=np.float64)  # class-c samples scored higher
            above -= is_c
            row = np.bincount(code, weights=above, minlength=k)[:k]
        return out_table, row
    starts = np.flatnonzero(np.r_[True, change])
    pos = np.add.reduceat(is_c.astype(np.int64), starts)
    if table:
        counts = np.empty((starts.size, 2), dtype=np.int64, order="F")
        counts[:, 1] = pos
        np.subtract(np.diff(starts, append=v.size), pos, out=counts[:, 0])
        out_table = ScoreTable._trusted(v[starts], counts, _OUTCOMES)
    if want_u:
        above = np.cumsum(pos, dtype=np.float64)  # class c above each score, ties half
        above -= 0.5 * pos
        group = np.cumsum(change, dtype=np.intp)
        row = np.bincount(code[1:], weights=above[group], minlength=k)[:k]
        row[code[0]] += above[0]
    return out_table, row


def rowwise_counts(y_true: np.ndarray, y_score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One small table per sample: (negative, positive) counts over that row's labels.

    Each row's scores are sorted decreasing; a tie group's counts sit at its first position and
    the rest of the group holds zeros, so batched curve formulas read every row at once.

    >>> neg, pos = rowwise_counts(np.array([[1, 0, 0]]), np.array([[0.2, 0.2, 0.9]]))
    >>> neg.tolist(), pos.tolist()
    ([[1, 1, 0]], [[0, 1, 0]])
    """
    y = np.asarray(y_true).astype(bool)
    order = np.argsort(-np.asarray(y_score, dtype=np.float64), axis=1, kind="stable")
    s = np.take_along_axis(np.asarray(y_score, dtype=np.float64), order, axis=1)
    y = np.take_along_axis(y, order, axis=1)
    n, m = s.shape
    cols = np.arange(m)
    # Last position of each tie group, broadcast to every member of the group.
    is_end = np.ones((n, m), dtype=bool)
    is_end[:, :-1] = s[:, 1:] != s[:, :-1]
    end = np.where(is_end, cols, m)
    end = np.minimum.accumulate(end[:, ::-1], axis=1)[:, ::-1]
    tp = np.take_along_axis(np.cumsum(y, axis=1), end, axis=1)
    fp = end + 1 - tp
    pos = np.diff(tp, axis=1, prepend=0)
    neg = np.diff(fp, axis=1, prepend=0)
    return neg, pos
