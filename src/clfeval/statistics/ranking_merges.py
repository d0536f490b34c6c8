"""Merging rankings: the one home of how score statistics of the same kind add up.

A :class:`~clfeval.statistics.rankings.BinaryRanking` is a monoid: two rankings of disjoint samples
merge into the ranking of all of them (equal scores add their counts). Three shapes of the same
operation live here, each where it is fastest:

- :func:`merge_rankings`: many rankings at once (the micro average of one-vs-rest rankings), one
  packed-key sort of all their (score, outcome) pairs when each ranking holds one unweighted sample
  per score (continuous scores), else one stable sort of the concatenated runs;
- :func:`merge_two`: two rankings, O(n + m log n) with no sort (a stream's batches), and
  :func:`merge_compact` for two rankings of one unweighted sample per score;
- :func:`collapse_runs` / :func:`merge_runs`: a stream's list of runs kept at O(log n) runs, and
  read out as one ranking in the form ``evaluate`` builds.

>>> a = BinaryRanking(np.array([0.9, 0.5]), None, np.array([True, False]))
>>> b = BinaryRanking(np.array([0.7, 0.5]), None, np.array([True, True]))
>>> merge_rankings([a, b]).pos.tolist() == merge_two(a, b).pos.tolist() == [1, 1, 1]
True
"""

from __future__ import annotations

import numpy as np

from clfeval.statistics.rankings import BinaryRanking
from clfeval.statistics.scores import ScoreTable

__all__ = ["merge_rankings", "merge_two", "merge_compact", "collapse_runs", "merge_runs"]

_OUTCOMES = np.array([False, True])  # the classes of a one-vs-rest table: is the positive class


def merge_rankings(rankings: list[BinaryRanking]) -> BinaryRanking:
    """The ranking of all the (score, class) pairs of several rankings together (micro average).

    Parameters
    ----------
    rankings : list of BinaryRanking
        The rankings to pool; counts (or weights) at equal scores are added.

    Returns
    -------
    BinaryRanking
        One ranking over the union of the distinct scores, highest first.

    Examples
    --------
    >>> a = BinaryRanking(np.array([0.9, 0.2]), None, np.array([True, False]))
    >>> m = merge_rankings([a, a])
    >>> m.scores.tolist(), m.pos.tolist(), m.neg.tolist()
    ([0.9, 0.2], [2, 0], [0, 2])
    """
    if rankings and all(r.neg is None and r.pos.dtype == np.bool_ for r in rankings):
        return _merge_compact_many(rankings)
    scores = np.concatenate([r.scores for r in rankings])
    # Each ranking is already sorted: a stable sort of the concatenation merges the runs.
    order = np.argsort(-scores, kind="stable")
    ordered = scores[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    weighted = any(r.pos.dtype.kind == "f" or (r.neg is not None and r.neg.dtype.kind == "f") for r in rankings)
    dtype = np.float64 if weighted else np.int64

    def grouped(parts: list[np.ndarray]) -> np.ndarray:
        flat = np.concatenate([p.astype(dtype, copy=False) for p in parts])[order]
        return np.add.reduceat(flat, starts) if flat.size else flat

    pos = grouped([r.pos for r in rankings])
    neg = grouped([r.negatives() for r in rankings])
    return BinaryRanking(ordered[starts], neg, pos)


def _merge_compact_many(rankings: list[BinaryRanking]) -> BinaryRanking:
    """:func:`merge_rankings` of compact rankings (one unweighted sample per score, as ``evaluate``
    builds them for continuous scores): one packed-key sort of all their (score, outcome) pairs
    (:meth:`~clfeval.statistics.scores.ScoreTable.from_validated`, on several cores when large),
    not a stable argsort and gathers. The result is compact again when no score is shared, else
    it holds the integer counts at each distinct score (the same numbers either way).

    >>> a = BinaryRanking(np.array([0.9, 0.2]), None, np.array([True, False]))
    >>> b = BinaryRanking(np.array([0.5, 0.2]), None, np.array([True, True]))
    >>> m = _merge_compact_many([a, b])
    >>> m.scores.tolist(), m.neg.tolist(), m.pos.tolist()
    ([0.9, 0.5, 0.2], [0, 0, 1], [1, 1, 1])
    >>> _merge_compact_many([a, BinaryRanking(np.array([0.4]), None, np.array([False]))]).neg is None
    True
    """
    scores = np.concatenate([r.scores for r in rankings])  # a scratch copy: the sort may overwrite it
    outcomes = np.concatenate([r.pos for r in rankings])
    table = ScoreTable.from_validated(outcomes, scores, _OUTCOMES, owned=True)
    return BinaryRanking.from_table(table, 1)


def collapse_runs(runs: list[BinaryRanking]) -> None:
    """Merge the last runs while the newer one is at least half the older one's size, so that a
    stream of n rows keeps O(log n) runs and each row is merged O(log n) times."""
    while len(runs) > 1 and 2 * runs[-1].scores.size >= runs[-2].scores.size:
        b = runs.pop()
        a = runs.pop()
        runs.append(merge_two(a, b))


def merge_runs(runs: list[BinaryRanking]) -> BinaryRanking:
    """The ranking of all the runs' samples together, in the compact form ``evaluate`` builds when
    every score holds one unweighted sample (no negative counts, boolean outcomes), so that the
    areas are computed the same way, to the last bit."""
    r = runs[0]
    for other in runs[1:]:
        r = merge_two(r, other)
    if r.neg is not None and r.neg.dtype.kind in "iu" and r.pos.dtype.kind in "iu" and \
            bool(np.all(r.neg + r.pos == 1)):
        return BinaryRanking(r.scores, None, r.pos.astype(bool))
    return r


def merge_two(a: BinaryRanking, b: BinaryRanking) -> BinaryRanking:
    """Two rankings merged like two sorted runs: O(n + m log n), no sort. Equal scores add their
    counts; two compact rankings (one sample per score) with no score in common stay compact.

    >>> a = BinaryRanking(np.array([0.9, 0.5]), None, np.array([True, False]))
    >>> b = BinaryRanking(np.array([0.7, 0.5]), None, np.array([True, True]))
    >>> m = merge_two(a, b)
    >>> m.scores.tolist(), m.neg.tolist(), m.pos.tolist()
    ([0.9, 0.7, 0.5], [0, 0, 1], [1, 1, 1])
    """
    sa, sb = a.scores, b.scores
    if sb.size == 0:
        return a
    if sa.size == 0:
        return b
    compact = a.neg is None and b.neg is None and a.pos.dtype == np.bool_ and b.pos.dtype == np.bool_
    if compact:
        return merge_compact(a, b)
    # how many of a's scores lie above each of b's (both decreasing)
    above = sa.size - np.searchsorted(sa[::-1], sb, side="right")
    same = np.zeros(sb.size, dtype=bool)
    inside = above < sa.size
    same[inside] = sa[above[inside]] == sb[inside]
    new = ~same
    n_new = int(np.count_nonzero(new))
    at_new = above[new]  # non-decreasing
    out_size = sa.size + n_new
    # a[i] moves down by the number of new scores placed above it (those with at_new <= i)
    pos_a = np.arange(sa.size) + np.cumsum(np.bincount(at_new, minlength=sa.size + 1))[:sa.size]
    pos_b = at_new + np.arange(n_new)
    scores = np.empty(out_size)
    scores[pos_a], scores[pos_b] = sa, sb[new]
    weighted = any(np.asarray(x).dtype.kind == "f" for x in (a.pos, b.pos, a.negatives(), b.negatives()))
    dtype = np.float64 if weighted else np.int64
    counts = []
    for xa, xb in ((a.negatives(), b.negatives()), (a.pos, b.pos)):
        out = np.empty(out_size, dtype=dtype)
        out[pos_a] = xa
        out[pos_b] = xb[new]
        np.add.at(out, pos_a[above[same]], np.asarray(xb[same], dtype=dtype))
        counts.append(out)
    return BinaryRanking(scores, counts[0], counts[1])


def merge_compact(a: BinaryRanking, b: BinaryRanking) -> BinaryRanking:
    """:func:`merge_two` of two compact rankings (one unweighted sample per score): one stable
    sort of the two runs (a run-merging sort: O(n + m) here; each run is strictly decreasing)
    and, where they share scores, their outcomes added. Equal scores keep ``a``'s value.

    >>> a = BinaryRanking(np.array([0.9, 0.5]), None, np.array([True, False]))
    >>> m = merge_compact(a, BinaryRanking(np.array([0.7, 0.2]), None, np.array([False, True])))
    >>> m.scores.tolist(), m.neg, m.pos.tolist()
    ([0.9, 0.7, 0.5, 0.2], None, [True, False, False, True])
    """
    keys = np.concatenate([b.scores, a.scores])
    order = np.argsort(keys, kind="stable")[::-1]  # decreasing; among equal scores a's first
    scores = keys[order]
    first = np.empty(scores.size, dtype=bool)
    first[0] = True
    np.not_equal(scores[1:], scores[:-1], out=first[1:])
    pos = np.concatenate([b.pos, a.pos])[order]
    if first.all():
        return BinaryRanking(scores, None, pos)
    starts = np.flatnonzero(first)
    positives = np.add.reduceat(pos.astype(np.int64), starts)
    return BinaryRanking(scores[starts], np.diff(np.r_[starts, scores.size]) - positives, positives)
