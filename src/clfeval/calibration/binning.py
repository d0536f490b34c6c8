"""Bin edges (uniform, and quantile edges as numpy computes them) and the assignment of
probabilities to bins: a probability goes into the bin whose upper edge is the first edge ``>= p``
(see :mod:`clfeval.calibration`).

>>> edges = uniform_edges(4)
>>> assign_bins(np.array([0.0, 0.25, 0.3, 1.0]), edges).tolist()
[0, 0, 1, 3]
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "uniform_edges",
    "assign_bins",
    "assign_bins_uniform",
    "linear_quantile_edges",
    "inverted_cdf_edges",
    "sum_runs",
]


def uniform_edges(n_bins: int) -> np.ndarray:
    """``n_bins`` equal-width bins on [0, 1]: ``numpy.linspace(0, 1, n_bins + 1)``.

    Parameters
    ----------
    n_bins : int
        Number of bins (positive).

    Returns
    -------
    numpy.ndarray of shape (n_bins + 1,)
        The bin edges, from 0 to 1.

    Examples
    --------
    >>> uniform_edges(4).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    return np.linspace(0.0, 1.0, n_bins + 1)


def assign_bins(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Bin index of each value: the first edge >= value closes its bin (see the module notes)."""
    return np.searchsorted(edges[1:-1], values, side="left")


def assign_bins_uniform(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """:func:`assign_bins` for ``edges = uniform_edges(B)`` and values in [0, 1], without a search:
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


def linear_quantile_edges(values: np.ndarray, counts: np.ndarray, n_bins: int) -> np.ndarray:
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


def inverted_cdf_edges(values: np.ndarray, weights: np.ndarray, n_bins: int) -> np.ndarray:
    """numpy's weighted ``method="inverted_cdf"`` quantiles of ascending distinct values."""
    cdf = np.cumsum(weights, dtype=np.float64)
    cdf /= cdf[-1]
    idx = np.searchsorted(cdf, _quantile_levels(n_bins), side="left")
    return values[np.minimum(idx, values.size - 1)]


def sum_runs(groups: np.ndarray, n_groups: int, *arrays: np.ndarray) -> list[np.ndarray]:
    """Sum each array over runs of equal (non-decreasing) group ids, into ``n_groups`` slots."""
    out = [np.zeros(n_groups, dtype=a.dtype) for a in arrays]
    if groups.size:
        starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
        for o, a in zip(out, arrays):
            o[groups[starts]] = np.add.reduceat(a, starts)
    return out

