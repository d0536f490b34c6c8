"""k-class score cells of one score column: the mergeable statistic of Hand & Till's M in a stream.

A one-vs-rest ranking of column a pools the classes other than a; Hand & Till's pairwise AUCs
need class b's cases ranked on column a. :class:`ClassCells` keeps, for one score column, each
distinct (score, true class) pair with its count or weight: the non-zero cells of a k-class
:class:`~clfeval.statistics.scores.ScoreTable`, without its zeros. With continuous scores that is
one cell per row, stored as its score (8 bytes) and class code (1 byte for up to 256 classes),
the counts left out while every cell holds one unweighted row: about the size of the column's
one-vs-rest ranking (:meth:`ClassCells.nbytes`).

Cells merge exactly (:meth:`ClassCells.merge`: union of cells, counts added), so the U statistics
(:func:`pairwise_u_of_cells`) of merged cells are those of the concatenated rows: integer counts
give U exactly (sums of half-integers below 2**53), weights to the rounding of float sums.
:func:`collapse_cell_runs` keeps a stream's cells in O(log n) sorted runs, as
:func:`clfeval.statistics.ranking_merges.collapse_runs` does for rankings.

>>> a = ClassCells.from_column(np.array([0, 1, 2]), np.array([0.9, 0.5, 0.1]))
>>> b = ClassCells.from_column(np.array([1, 0]), np.array([0.5, 0.3]))
>>> m = a.merge(b)
>>> m.scores.tolist(), m.codes.tolist(), m.count_array().tolist()
([0.9, 0.5, 0.3, 0.1], [0, 1, 0, 2], [1, 2, 1, 1])
>>> u_row_of_cells(m, 0, 3).tolist()  # class 0 above class 1 on column 0: 2 of 4 pairs
[2.0, 2.0, 2.0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["ClassCells", "OvoCounts", "collapse_cell_runs", "distinct_in_cell_runs", "merge_cell_runs",
           "pairwise_u_of_cells", "ranking_of_cells", "u_row_of_cells"]


def _code_dtype(k: int) -> np.dtype:
    return np.dtype(np.uint8 if k <= 256 else np.uint16 if k <= 65536 else np.int64)


class ClassCells:
    """The distinct (score, class) cells of one score column with their counts.

    ``scores`` decrease (ties ordered by class code); ``codes`` are class indices; ``counts`` is
    None while every cell holds one unweighted row (then each counts 1), else int64 counts or
    float64 weights.

    Parameters
    ----------
    scores : numpy.ndarray of shape (D,)
        The cells' scores, decreasing; equal scores ordered by increasing code, no cell twice.
    codes : numpy.ndarray of shape (D,)
        The class index of each cell.
    counts : numpy.ndarray of shape (D,) or None
        Count or weight of each cell; None: every cell counts 1.

    Examples
    --------
    >>> c = ClassCells.from_column(np.array([1, 0, 1]), np.array([0.2, 0.7, 0.2]))
    >>> c.scores.tolist(), c.codes.tolist(), c.count_array().tolist()
    ([0.7, 0.2], [0, 1], [1, 2])
    """

    __slots__ = ("scores", "codes", "counts")

    def __init__(self, scores: np.ndarray, codes: np.ndarray, counts: np.ndarray | None) -> None:
        self.scores, self.codes, self.counts = scores, codes, counts

    @classmethod
    def from_column(cls, codes: np.ndarray, scores: np.ndarray, weights: np.ndarray | None = None,
                    k: int = 256) -> ClassCells:
        """Cells of one column from each row's class code, score and weight (rows of zero weight
        are left out: they add nothing to any U statistic).

        >>> ClassCells.from_column(np.array([0, 1]), np.array([0.4, 0.6]), np.array([2.0, 0.0])).count_array().tolist()
        [2.0]
        """
        codes = np.asarray(codes).astype(_code_dtype(k), copy=False)
        scores = np.asarray(scores, dtype=np.float64)
        if weights is not None:
            weights = np.asarray(weights)
            keep = weights > 0
            if not keep.all():
                codes, scores, weights = codes[keep], scores[keep], weights[keep]
            weights = weights.astype(np.float64 if weights.dtype.kind == "f" else np.int64, copy=False)
        return _grouped(scores, codes, weights)

    def count_array(self) -> np.ndarray:
        """Each cell's count (ones when ``counts`` is None).

        >>> ClassCells(np.array([0.5]), np.array([1], dtype=np.uint8), None).count_array().tolist()
        [1]
        """
        return np.ones(self.scores.size, dtype=np.int64) if self.counts is None else self.counts

    @property
    def size(self) -> int:
        """Number of cells."""
        return int(self.scores.size)

    @property
    def nbytes(self) -> int:
        """Bytes held."""
        return self.scores.nbytes + self.codes.nbytes + (0 if self.counts is None else self.counts.nbytes)

    def merge(self, other: ClassCells) -> ClassCells:
        """The cells of both columns' rows together: equal (score, class) cells add their counts.

        >>> a = ClassCells.from_column(np.array([0]), np.array([0.5]))
        >>> a.merge(a).count_array().tolist()
        [2]
        """
        if other.size == 0:
            return self
        if self.size == 0:
            return other
        counts = None
        if self.counts is not None or other.counts is not None:
            counts = np.concatenate([self.count_array(), other.count_array()])
        codes = np.concatenate([self.codes, other.codes])
        return _grouped(np.concatenate([self.scores, other.scores]), codes, counts)

    def quantized(self, bits: int) -> ClassCells:
        """The cells with their scores floored onto the ``bits`` grid
        (:func:`clfeval.statistics.binning.quantize`): the cells of one class in one bin become one.

        >>> c = ClassCells.from_column(np.array([0, 0, 1]), np.array([0.9, 0.8, 0.3])).quantized(1)
        >>> c.scores.tolist(), c.count_array().tolist()
        ([0.75, 0.25], [2, 1])
        """
        from clfeval.statistics.binning import quantize

        if self.size == 0:
            return self
        return _grouped(quantize(self.scores, bits), self.codes, self.counts)


def _grouped(scores: np.ndarray, codes: np.ndarray, counts: np.ndarray | None) -> ClassCells:
    """Cells sorted (score decreasing, code increasing) with equal cells added."""
    if scores.size == 0:
        return ClassCells(scores.copy(), codes.copy(), None if counts is None else counts.copy())
    order = np.argsort(-scores, kind="stable")  # sorted runs (a merge's two) cost O(n)
    s = scores[order]
    if bool(np.all(s[1:] != s[:-1])):  # distinct scores (the usual case): one cell each, no grouping
        total = None if counts is None else counts[order]
        if total is not None and total.dtype.kind in "iu" and bool(np.all(total == 1)):
            total = None
        return ClassCells(s + 0.0, codes[order], total)
    order = np.lexsort((codes, -scores))
    s, c = scores[order], codes[order]
    new = np.empty(s.size, dtype=bool)
    new[0] = True
    np.logical_or(s[1:] != s[:-1], c[1:] != c[:-1], out=new[1:])
    if new.all() and counts is None:
        return ClassCells(s + 0.0, c, None)  # + 0.0: -0.0 and 0.0 are one score
    starts = np.flatnonzero(new)
    if counts is None:
        total = np.diff(np.r_[starts, s.size]).astype(np.int64)
    else:
        total = np.add.reduceat(counts[order], starts)
    if total.dtype.kind in "iu" and bool(np.all(total == 1)):
        total = None
    return ClassCells(s[starts] + 0.0, c[starts], total)


def collapse_cell_runs(runs: list[ClassCells]) -> None:
    """Merge the last runs while the newer one is at least half the older one's size (a stream of
    n rows keeps O(log n) runs; each row is merged O(log n) times).

    >>> runs = [ClassCells.from_column(np.array([0]), np.array([0.5])) for _ in range(2)]
    >>> collapse_cell_runs(runs); len(runs)
    1
    """
    while len(runs) > 1 and 2 * runs[-1].size >= runs[-2].size:
        b = runs.pop()
        a = runs.pop()
        runs.append(a.merge(b))


def merge_cell_runs(runs: list[ClassCells]) -> ClassCells:
    """All the runs' cells as one.

    >>> merge_cell_runs([ClassCells.from_column(np.array([0]), np.array([0.5]))] * 3).count_array().tolist()
    [3]
    """
    out = runs[0]
    for other in runs[1:]:
        out = out.merge(other)
    return out


def distinct_in_cell_runs(runs: list[ClassCells]) -> int:
    """Distinct scores over the runs of one column's cells.

    >>> distinct_in_cell_runs([ClassCells.from_column(np.array([0, 1, 1]), np.array([0.5, 0.5, 0.2]))])
    2
    """
    if not runs:
        return 0
    if len(runs) == 1:
        s = runs[0].scores
        return int(s.size and 1 + np.count_nonzero(s[1:] != s[:-1]))
    return int(np.unique(np.concatenate([c.scores for c in runs])).size)


def ranking_of_cells(cells: ClassCells, positive: int) -> Any:
    """The one-vs-rest :class:`~clfeval.statistics.rankings.BinaryRanking` of class ``positive`` on
    this column's cells, in the form ``evaluate`` builds (compact: no negative counts and boolean
    outcomes while every score holds one unweighted row), so that its areas are the same to the bit.

    >>> r = ranking_of_cells(ClassCells.from_column(np.array([0, 1, 2, 0]), np.array([0.9, 0.5, 0.5, 0.1])), 0)
    >>> r.scores.tolist(), r.neg.tolist(), r.pos.tolist()
    ([0.9, 0.5, 0.1], [0, 2, 0], [1, 0, 1])
    """
    from clfeval.statistics.rankings import BinaryRanking

    s, is_pos = cells.scores, cells.codes == positive
    change = s[1:] != s[:-1]
    if cells.counts is None and bool(change.all()):
        return BinaryRanking(s, None, is_pos)
    starts = np.flatnonzero(np.r_[True, change])
    counts = cells.count_array()
    pos = np.add.reduceat(np.where(is_pos, counts, 0), starts) if s.size else counts[:0]
    neg = np.add.reduceat(np.where(is_pos, 0, counts), starts) if s.size else counts[:0]
    return BinaryRanking(s[starts], neg, pos)


def u_row_of_cells(cells: ClassCells, a: int, k: int, tie: float = 0.5) -> np.ndarray:
    """(k,) U statistics of class ``a`` against every class on this (column a's) cells: the
    (weighted) pairs of a class-a row and a class-b row in which the class-a row scores higher,
    a tie counting ``tie`` (0.5; 0 or 1 give the bounds of binned scores). The diagonal is left
    as the formula gives it.

    >>> c = ClassCells.from_column(np.array([0, 1, 0, 2]), np.array([0.9, 0.5, 0.5, 0.1]))
    >>> u_row_of_cells(c, 0, 3).tolist(), u_row_of_cells(c, 0, 3, tie=0.0).tolist()
    ([2.0, 1.5, 2.0], [1.0, 1.0, 2.0])
    """
    if cells.size == 0:
        return np.zeros(k)
    s = cells.scores
    counts = cells.count_array().astype(np.float64)
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    group = np.cumsum(np.r_[False, s[1:] != s[:-1]])
    mass = np.add.reduceat(np.where(cells.codes == a, counts, 0.0), starts)  # class a at each score
    above = np.cumsum(mass) - mass
    above += tie * mass
    return np.bincount(cells.codes, weights=counts * above[group], minlength=k)[:k]


@dataclass(frozen=True)
class OvoCounts:
    """What Hand & Till's M reads of a stream: the (k, k) U matrix and each class's support;
    with binned scores also the U matrices with ties counted 0 (``low``) and 1 (``high``), whose
    M bound M of the unbinned scores. ``weighted``: float weights (U to the rounding of float sums).

    >>> OvoCounts(np.eye(2), np.ones(2)).binned
    False
    """

    u: np.ndarray
    support: np.ndarray
    low: np.ndarray | None = None
    high: np.ndarray | None = None
    weighted: bool = False

    @property
    def binned(self) -> bool:
        """Whether the scores were binned (``low``/``high`` given)."""
        return self.low is not None


def pairwise_u_of_cells(columns: list[ClassCells], k: int, bounds: bool = False) -> OvoCounts:
    """:class:`OvoCounts` of k columns' cells (``columns[a]``: column a's); ``bounds`` adds the
    tie-0 and tie-1 U matrices. The diagonal holds ``support**2 / 2``; rows of absent classes are 0.

    >>> cols = [ClassCells.from_column(np.array([0, 1]), np.array(s)) for s in ([0.9, 0.1], [0.2, 0.8])]
    >>> o = pairwise_u_of_cells(cols, 2)
    >>> o.u.tolist(), o.support.tolist()
    ([[0.5, 1.0], [1.0, 0.5]], [1.0, 1.0])
    """
    mats = {0.5: np.zeros((k, k))} | ({0.0: np.zeros((k, k)), 1.0: np.zeros((k, k))} if bounds else {})
    support = np.zeros(k)
    if columns:
        first = columns[0]
        support = np.bincount(first.codes, weights=first.count_array().astype(np.float64), minlength=k)[:k]
    for a, cells in enumerate(columns):
        if not support[a] > 0:
            continue
        for tie, mat in mats.items():
            mat[a] = u_row_of_cells(cells, a, k, tie)
    for mat in mats.values():
        np.fill_diagonal(mat, support ** 2 / 2)
    weighted = any(c.counts is not None and c.counts.dtype.kind == "f" for c in columns)
    return OvoCounts(mats[0.5], support, mats.get(0.0), mats.get(1.0), weighted)
