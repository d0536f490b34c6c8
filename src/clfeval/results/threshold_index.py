"""The confusion counts of a binary ranking at chosen threshold indices, read on demand.

``ranking.counts_at_thresholds()`` gives (thresholds, tp, fp, fn, tn) at every threshold of a
:class:`~clfeval.statistics.rankings.BinaryRanking`: index 0 is +inf (nothing predicted positive),
index i >= 1 its i-th distinct score (predict positive where score >= it). With d distinct scores
those are five arrays of d + 1 entries, while an operating point's search or a cost curve's
envelope reads a few thousand of them. :class:`ThresholdIndex` gives the same rows at any index
array: with integer counts each row is a prefix sum the ranking already holds (its cumulative
positives, and negatives), so nothing of length d is built; with float weights fn and tn are sums
of what lies below the threshold, and the rows are read from the ranking's full arrays.

>>> import numpy as np
>>> from clfeval.statistics.rankings import BinaryRanking
>>> r = BinaryRanking(np.array([0.9, 0.5, 0.2]), None, np.array([True, False, True]))
>>> at = ThresholdIndex(r).take(np.array([0, 2, 3]))
>>> at.thresholds.tolist(), at.tp.tolist(), at.fp.tolist(), at.fn.tolist(), at.tn.tolist()
([inf, 0.5, 0.2], [0, 1, 2], [0, 1, 1], [2, 1, 0], [1, 0, 0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.statistics.rankings import BinaryRanking, ThresholdCounts

__all__ = ["ThresholdIndex"]


class ThresholdIndex:
    """Rows of ``ranking.counts_at_thresholds()`` at index arrays, equal to them entry by entry.

    ``len()`` is the number of thresholds (distinct scores + 1); :meth:`take` reads rows,
    :meth:`fp_tp` their ROC points only, :meth:`full` gives every row (the ranking's own, kept by it).

    >>> import numpy as np
    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.array([0.9, 0.5, 0.2]), np.array([0, 2, 1]), np.array([1, 1, 0]))
    >>> idx = ThresholdIndex(r)
    >>> len(idx), idx.take(np.array([1, 3])).fp.tolist(), idx.full().fp.tolist()
    (4, [0, 3], [0, 0, 2, 3])
    """

    def __init__(self, ranking: BinaryRanking) -> None:
        self.ranking = ranking
        pos, neg = ranking.pos, ranking.neg
        #: integer counts: every row from the ranking's prefix sums; else from its full arrays
        self.exact = pos.dtype.kind != "f" and (neg is None or neg.dtype.kind != "f")
        self._size = int(pos.size) + 1

    def __len__(self) -> int:
        return self._size

    def full(self) -> ThresholdCounts:
        """Every row: ``ranking.counts_at_thresholds()``."""
        return self.ranking.counts_at_thresholds()

    def take(self, idx: Any) -> ThresholdCounts:
        """The rows at the threshold indices ``idx`` (a 1-D integer array in [0, len)), in its order."""
        idx = np.asarray(idx, dtype=np.intp)
        if not self.exact:
            full = self.full()
            return ThresholdCounts(*(a[idx] for a in (full.thresholds, full.tp, full.fp, full.fn, full.tn)))
        r = self.ranking
        if self._size == 1:  # no scores: only +inf
            thr = np.full(idx.size, np.inf)
        else:
            thr = np.where(idx > 0, r.scores[np.maximum(idx - 1, 0)], np.inf)
        fp, tp = self.fp_tp(idx)
        n_total, p_total = r.totals
        return ThresholdCounts(thr, tp, fp, p_total - tp, n_total - fp)

    def fp_tp(self, idx: Any) -> tuple[np.ndarray, np.ndarray]:
        """(fp, tp) of the rows at ``idx``: the ROC points, as :meth:`take` gives them."""
        idx = np.asarray(idx, dtype=np.intp)
        if not self.exact:
            full = self.full()
            return full.fp[idx], full.tp[idx]
        r = self.ranking
        tps = r.tps
        dtype = np.result_type(tps.dtype, r.pos.dtype if r.neg is None else r.neg.dtype, np.int64)
        if self._size == 1:
            return np.zeros(idx.size, dtype=dtype), np.zeros(idx.size, dtype=dtype)
        inner = idx > 0
        before = np.maximum(idx - 1, 0)
        tp = np.where(inner, tps[before], 0).astype(dtype, copy=False)
        if r.neg is None:  # one sample per score: fp = rank - tp
            fp = idx.astype(dtype)
            fp -= tp
        else:
            fp = np.where(inner, r.fps[before], 0).astype(dtype, copy=False)
        return fp, tp
