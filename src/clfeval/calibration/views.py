"""The bin sums of the calibration views, built from validated arrays: the one-vs-rest view of
each class and the top-label view, as a bounded histogram (:func:`view_histogram`), an exact
table of distinct probabilities (:func:`view_table`, binned by :func:`table_bins`), and the
coarser bins of a histogram (:func:`coarsen`).

>>> h = view_histogram(np.array([0, 1, 1]), np.array([0.2, 0.9, 0.6]), 1, None, uniform_edges(2), [1])
>>> h.weight.tolist(), h.positives.tolist()
([[1, 2]], [[0, 2]])
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from clfeval.statistics.rankings import counts_at_least
from clfeval.statistics.scores import ScoreTable
from clfeval.formulas.sums import row_blocks
from clfeval.calibration.bin_sums import BinSums
from clfeval.calibration.binning import (
    assign_bins,
    assign_bins_uniform,
    inverted_cdf_edges,
    linear_quantile_edges,
    sum_runs,
    uniform_edges,
)

__all__ = ["view_histogram", "view_table", "table_bins", "decreasing_bins", "table_edges", "coarsen"]

_BINARY = np.array([False, True])


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


def view_histogram(
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
    for rows in row_blocks(n, k + V):
        values, outcomes = _view_block(_block_columns(proba, positive, rows), codes[rows], views)
        flat = (assign_bins_uniform(values, edges) + offsets).ravel()
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


def view_table(
    codes: np.ndarray, proba: np.ndarray, positive: int, weight: np.ndarray | None, view: int
) -> ScoreTable:
    """Exact table of one view: distinct probabilities with [negative, positive] weights."""
    n = codes.shape[0]
    k = proba.shape[1] if proba.ndim == 2 else 2
    values = np.empty(n)
    outcomes = np.empty(n, dtype=bool)
    for rows in row_blocks(n, k + 1):
        v, o = _view_block(_block_columns(proba, positive, rows), codes[rows], [view])
        values[rows], outcomes[rows] = v[:, 0], o[:, 0]
    return ScoreTable.from_validated(outcomes, values, _BINARY, weight, owned=True)


def table_bins(table: ScoreTable, edges: np.ndarray | None) -> BinSums:
    """Bin sums of an exact view table over ``edges``, or one group per distinct probability."""
    v = table.scores[::-1]  # ascending
    counts = table.counts[::-1]
    w = counts[:, 0] + counts[:, 1]
    y = counts[:, 1]
    vw = v * w
    if edges is None:
        return BinSums(None, w, y, vw, v * vw, v * y, values=v)
    groups = assign_bins(v, edges)
    sums = sum_runs(groups, edges.size - 1, w, y, vw, v * vw, v * y)
    return BinSums(edges, *sums)


def decreasing_bins(v: np.ndarray, neg: np.ndarray | None, pos: np.ndarray, edges: np.ndarray) -> BinSums:
    """:func:`table_bins` of distinct probabilities ``v`` given in decreasing order with their
    negative and positive counts (same dtype; ``neg=None`` with boolean ``pos``: one sample per
    probability): each bin is a contiguous run, found by bisection at each edge, and summed by dot
    products (equal to the table's sums up to rounding)."""
    d = v.size
    B = edges.size - 1
    # a value lies in bin j when edges[j] < value <= edges[j + 1]; in decreasing order bin j
    # runs from the values above edges[j + 1] to those above edges[j]
    # how many values lie above each inner edge (> e is >= the next float up)
    inner = np.nextafter(edges[-2:0:-1], np.inf)
    above = [0, *counts_at_least(v, inner).tolist(), d]  # bins B-1, ..., 0
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
            # einsum, not np.dot: a threaded BLAS dot leaves its threads spinning on a busy machine
            sums[2][j], sums[3][j], sums[4][j] = vs.sum(), np.einsum("i,i->", vs, vs), np.sum(vs, where=ys)
        else:
            vw = vs * wf[lo:hi]
            sums[0][j], sums[1][j] = w[lo:hi].sum(), pos[lo:hi].sum()
            sums[2][j], sums[3][j], sums[4][j] = vw.sum(), np.einsum("i,i->", vw, vs), np.einsum("i,i->", vs, yf[lo:hi])
    return BinSums(edges, *sums)


def table_edges(table: ScoreTable, n_bins: int, strategy: str) -> np.ndarray:
    """The edges of ``n_bins`` bins of an exact view table: uniform, or quantile edges of its
    probabilities (numpy's "linear" percentiles; weighted "inverted_cdf" quantiles with weights)."""
    if strategy == "uniform":
        return uniform_edges(n_bins)
    v = table.scores[::-1]
    counts = table.counts[::-1]
    w = counts[:, 0] + counts[:, 1]
    if v.size == 0:
        raise ValueError("quantile bins need at least one sample of positive weight.")
    if table.weighted:
        return inverted_cdf_edges(v, w, n_bins)
    return linear_quantile_edges(v, w, n_bins)


def coarsen(bins: BinSums, n_bins: int, strategy: str) -> BinSums:
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

