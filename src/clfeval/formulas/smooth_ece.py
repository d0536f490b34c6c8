"""Smooth ECE (Błasiok & Nakkiran 2023): the reliability curve smoothed by a Gaussian kernel
reflected at 0 and 1, and its mean distance from the diagonal, at the bandwidth where the two
agree (smECE_sigma = sigma).

Everything is a function of the distinct probabilities ``v`` with the weight ``w`` of the samples
at each and their summed residual ``r = sum (f - y) = w v - positives``: a ranking or exact score
table already holds them, so no pass over the samples is needed, and sample weights enter as
weights. The numbers follow the reference implementation of the paper (the ``relplot`` package,
``relplot.smECE(f, y)``), discretisation included:

- the residuals and the weights are spread linearly onto a grid of ``g = max(2000,
  round(20 / sigma)) // 2 + 1`` equally spaced points on [0, 1] (each value between two grid
  points splits its weight between them in proportion to its distance);
- each grid array is convolved with the Gaussian density of standard deviation ``sigma`` sampled
  at the grid's offsets from the middle point (``linspace(0, 1, g) - 0.5``), the array first
  mirrored at both ends (without repeating the end point), so no mass leaves [0, 1];
- the smoothed arrays are read, by linear interpolation, at ``m = max(round(10 / sigma), 200)``
  equally spaced points ``t``; smECE_sigma is ``sum_t |R(t)| / sum_t (W(t) + 1e-4)`` (R the
  smoothed residuals, W the smoothed weights: the kernel-weighted mean residual at ``t``, weighted
  by the density there);
- the bandwidth: sigma = 1 if smECE_1 <= 1, else ten halvings of [0, 1] keep sigma where
  ``sigma >= smECE_sigma`` (or ``sigma < 0.001``) on the upper side, and the upper end is the
  bandwidth: a multiple of 1/1024.

For an even ``g`` the sampled kernel is centred half a grid step off, as in the reference; the
effect is far below the discretisation error.

Speed: a long table's values are binned at most twice per search: on the first grid's cells,
then on the union of the cells of every other grid size the search can read
(:func:`search_sizes`); each grid sums whole binned cells; the binning reads the values in
cache-sized chunks. :func:`smooth_ece_of_counts` takes integer outcome counts (and a ranking's
running counts) instead of weight and residual arrays, so nothing of the table's length is formed.

>>> v = np.array([0.2, 0.6, 0.9]); w = np.array([2.0, 2.0, 2.0]); pos = np.array([0.0, 1.0, 2.0])
>>> value, sigma = smooth_ece(v, w, w * v - pos)
>>> round(value, 6), sigma
(0.11913, 0.1201171875)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = [
    "MESH_POINTS", "SMALLEST_BANDWIDTH", "grid_size", "search_sizes", "smooth_ece", "smooth_ece_at", "smooth_ece_batch",
    "smooth_ece_of_counts",
]

#: fewest points t the smoothed curve is read at (``relplot.config.smECE_mesh_pts``)
MESH_POINTS = 200
#: a bandwidth below this counts as "too small" without evaluating it (relplot's ``eps``)
SMALLEST_BANDWIDTH = 0.001
#: halvings of [0, 1] in the bandwidth search
REFINE = 10
#: added to the smoothed weight at each t (the reference's guard against 0/0)
DENSITY_FLOOR = 1e-4
_LARGEST = 2.0**700  # larger weights are scaled down (see _checked)
_CHUNK = 1 << 15  # positions binned at a time (see _cell_sums)
#: tables at least this long bin the other grid sizes of a search together (see _Grids)
UNION_FROM = 1 << 17


def grid_size(sigma: float) -> int:
    """Points of the grid the kernel runs on at bandwidth ``sigma``.

    >>> grid_size(0.05), grid_size(0.001)
    (1001, 10001)
    """
    return max(2000, round(20 / sigma)) // 2 + 1


@functools.cache
def search_sizes() -> tuple[int, ...]:
    """Every grid size the bandwidth search can evaluate: sigma = 1 and the multiples k / 1024 of
    1/1024 with k >= 2 (1/1024 is below :data:`SMALLEST_BANDWIDTH`, never evaluated); ten sizes.

    >>> search_sizes()
    (1001, 1025, 1139, 1281, 1464, 1707, 2049, 2561, 3414, 5121)
    """
    return tuple(sorted({grid_size(k / 1024) for k in range(2, 1025)}))


def _bounds(g: int) -> np.ndarray:
    """Left ends j / (g - 1) of the g - 1 cells of the grid of g points."""
    return np.arange(g - 1) / (g - 1)


def _cell_sums(first: np.ndarray, d: int, parts_of: Callable[[int, int], list[np.ndarray]],
               flip: bool = False, chunk: int = _CHUNK) -> np.ndarray:
    """(..., k, U): sums over the cells ``[first[u], first[u + 1])`` (the last one up to d; first
    non-decreasing from 0) of the k parts that ``parts_of(a, b)`` gives for the positions [a, b)
    (each of shape (..., b - a); ``flip``: in the order b - 1, ..., a, the memory order of
    reversed arrays, read fastest), :data:`_CHUNK` positions at a time (so that the parts'
    temporaries stay in cache): each chunk's pieces by ``np.add.reduceat``, then the pieces of
    each cell."""
    ends = np.append(first[1:], d)
    filled = np.flatnonzero(ends > first)  # cells holding a position; the first starts at 0
    starts = first[filled]
    if d <= chunk:  # one chunk: its pieces are the cells
        parts = [part[..., ::-1] if flip else part for part in parts_of(0, d)]
        joined = np.stack([np.add.reduceat(part, starts, axis=-1) for part in parts], axis=-2)
        out = np.zeros(joined.shape[:-1] + (first.size,))
        out[..., filled] = joined
        return out
    # pieces: no piece crosses a chunk
    cuts = np.union1d(starts, np.arange(0, d, chunk))
    pieces = []
    chunk_at = np.searchsorted(cuts, np.arange(0, d + chunk, chunk)).tolist()
    for i, a in enumerate(range(0, d, chunk)):
        b = min(a + chunk, d)
        lo, hi = chunk_at[i], chunk_at[i + 1]
        local = cuts[lo:hi] - a
        if flip:  # the pieces' starts in the flipped chunk, and their sums back in order
            local = (b - a) - np.append(local[1:], b - a)[::-1]
            pieces.append(np.stack([np.add.reduceat(part, local, axis=-1)[..., ::-1] for part in parts_of(a, b)],
                                   axis=-2))
        else:
            pieces.append(np.stack([np.add.reduceat(part, local, axis=-1) for part in parts_of(a, b)], axis=-2))
    joined = np.concatenate(pieces, axis=-1)
    out = np.zeros(joined.shape[:-1] + (first.size,))
    out[..., filled] = np.add.reduceat(joined, np.searchsorted(cuts, starts), axis=-1)
    return out


def _first_at_least(values: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """``np.searchsorted(values, targets)`` (values increasing); for a reversed (negative-stride)
    array by bisection on its positions, as searchsorted would copy it first."""
    if values.strides[0] >= 0 or values.size < 4096:
        return np.searchsorted(values, targets, side="left")
    # a sample of every 1024th value narrows each search to 1024 positions
    step = 1024
    k = np.searchsorted(values[::step], targets, side="left")  # values[(k - 1) step] < t <= values[k step]
    lo = np.maximum(k - 1, 0) * step
    hi = np.minimum(k * step, values.size)
    while True:
        open_ = lo < hi
        if not open_.any():
            return lo
        mid = (lo + hi) // 2
        below = open_ & (values[np.minimum(mid, values.size - 1)] < targets)
        lo = np.where(below, mid + 1, lo)
        hi = np.where(open_ & ~below, mid, hi)


class _Grids:
    """The weights and residuals spread onto each grid size asked for (kept per size).

    The values (increasing) are binned with the sums ``sum w``, ``sum w x``, ``sum r`` and
    ``sum r x`` in each cell (``cell_sums_of(first)``, (B, 4, U), given the cells' first
    positions): the first size asked for (1001 points, all a search with smECE >= 0.01 reads) on
    its own cells; on a table of :data:`UNION_FROM` values or more, any later one on the union of
    the cells of every size in ``sizes`` not binned yet (:func:`search_sizes`; about 15,000
    cells): at most two binnings per search (shorter tables bin each size on its own). Each grid's
    cell sums are sums of whole binned cells. On grid cell ``j`` (between points j and j + 1) a
    value ``x`` puts ``1 - frac`` of its weight on point j and ``frac = x (g - 1) - j`` on point
    j + 1, and ``sum w frac = (g - 1) sum w x - j sum w`` over the cell.
    """

    def __init__(self, values: np.ndarray, cell_sums_of: Callable[[np.ndarray], np.ndarray],
                 sizes: tuple[int, ...]) -> None:
        self.values = values
        self.cell_sums_of = cell_sums_of
        self.sizes = sizes
        self.binned: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # size -> (cells' left ends, (B, 4, U) sums)
        self.by_size: dict[int, np.ndarray] = {}

    def _bin(self, g: int) -> tuple[np.ndarray, np.ndarray]:
        if g not in self.binned:
            # short tables: each size on its own cells (the union's cells would outnumber the values)
            alone = not self.binned or self.values.size < UNION_FROM
            sizes = (g,) if alone else tuple({g, *self.sizes} - set(self.binned))
            bounds = np.unique(np.concatenate([_bounds(size) for size in sizes]))
            # cell u holds the values in [bounds[u], bounds[u + 1]) (1.0 in the last)
            first = _first_at_least(self.values, bounds)
            first[0] = 0
            table = bounds, self.cell_sums_of(first)
            self.binned.update(dict.fromkeys(sizes, table))
        return self.binned[g]

    def of(self, g: int) -> np.ndarray:
        """(B, 2, g): weights and residuals on the grid of g points."""
        if g not in self.by_size:
            bounds, cell_sums = self._bin(g)
            sums = cell_sums if bounds.size == g - 1 else np.add.reduceat(
                cell_sums, np.searchsorted(bounds, _bounds(g)), axis=-1)
            total, total_x = sums[:, 0::2], sums[:, 1::2]  # (B, 2, g - 1): sum w, sum w x; sum r, sum r x
            upper = (g - 1) * total_x - np.arange(g - 1) * total  # the share that goes to point j + 1
            onto = np.zeros(total.shape[:-1] + (g,))
            onto[..., :-1] += total - upper
            onto[..., 1:] += upper
            self.by_size[g] = onto
        return self.by_size[g]


def _grids_of_arrays(values: np.ndarray, weight: np.ndarray, residual: np.ndarray, increasing: bool,
                     sizes: tuple[int, ...]) -> _Grids:
    """The grids of (B, D) weights and residuals at the values (sorted here if not increasing)."""
    if not increasing:
        order = np.argsort(values, kind="stable")
        values, weight, residual = values[order], weight[:, order], residual[:, order]

    if values.size < UNION_FROM:  # each size binned on its own: the products formed once
        parts = [weight, weight * values, residual, residual * values]

        def parts_of(a: int, b: int) -> list[np.ndarray]:
            return [part[:, a:b] for part in parts]
    else:  # at most two binnings: the products formed chunk by chunk, in cache

        def parts_of(a: int, b: int) -> list[np.ndarray]:
            x, w, r = values[a:b], weight[:, a:b], residual[:, a:b]
            return [w, w * x, r, r * x]

    chunk = values.size if values.size < UNION_FROM else _CHUNK
    return _Grids(values, lambda first: _cell_sums(first, values.size, parts_of, chunk=chunk), sizes)


def _kernel(sigma: float, g: int) -> np.ndarray:
    t = np.linspace(0.0, 1.0, g) - 0.5
    return np.exp(-(t * t) / (2.0 * sigma * sigma)) / (math.sqrt(2.0 * math.pi) * sigma)


def _smoothed(grid: np.ndarray, sigma: float) -> np.ndarray:
    """(..., g) grid arrays convolved with the kernel, mirrored at both ends (by FFT)."""
    g = grid.shape[-1]
    mirrored = grid[..., ::-1]
    padded = np.concatenate([mirrored[..., :-1], grid, mirrored[..., 1:]], axis=-1)  # 3g - 2
    size = 1 << int(4 * g - 3).bit_length()  # >= the full convolution's length, 4g - 3
    full = np.fft.irfft(np.fft.rfft(padded, size) * np.fft.rfft(_kernel(sigma, g), size), size)
    # the "valid" part starts at g - 1; the reference keeps g of it from g // 2 on
    start = g - 1 + g // 2
    return full[..., start: start + g]


def _read_at(smoothed: np.ndarray, m: int) -> np.ndarray:
    """Linear interpolation of (..., g) grid values at m equally spaced points of [0, 1]."""
    g = smoothed.shape[-1]
    x = np.linspace(0.0, 1.0, m) * (g - 1)
    i = np.clip(x.astype(np.intp), 0, g - 2)
    frac = x - i
    return smoothed[..., i] * (1.0 - frac) + smoothed[..., i + 1] * frac


def _at(grids: _Grids, rows: np.ndarray, sigma: float) -> np.ndarray:
    """smECE at bandwidth sigma of the batch rows ``rows``."""
    smoothed = _smoothed(grids.of(grid_size(sigma))[rows], sigma)
    at_t = _read_at(smoothed, max(round(10 / sigma), MESH_POINTS))
    density = at_t[:, 0].sum(axis=-1) + DENSITY_FLOOR * at_t.shape[-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.abs(at_t[:, 1]).sum(axis=-1) / density


def _checked(values: Any, weight: Any, residual: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    v = np.asarray(values, dtype=np.float64)
    w = np.asarray(weight, dtype=np.float64)
    r = np.asarray(residual, dtype=np.float64)
    if v.ndim != 1 or w.shape[-1:] != v.shape or r.shape != w.shape:
        raise ValueError(
            f"values must be 1-D with weight and residual of shape (..., {v.size}) alike; got shapes "
            f"{v.shape}, {w.shape} and {r.shape}."
        )
    increasing = v.size < 2 or bool((v[1:] >= v[:-1]).all())
    if v.size and ((v[0] < 0 or v[-1] > 1) if increasing else (v.min() < 0 or v.max() > 1)):
        raise ValueError("smooth ECE needs probabilities in [0, 1]; some values lie outside.")
    w, r = w.reshape(-1, v.size), r.reshape(-1, v.size)
    # weights near the top of the float range: scale each such row by a power of two (exact), so
    # that the sums and the convolution stay finite; the value is a ratio (up to DENSITY_FLOOR)
    top = np.maximum(w.max(axis=-1, initial=0.0), -w.min(axis=-1, initial=0.0))
    if (top > _LARGEST).any():
        shift = np.where(top > _LARGEST, np.frexp(top)[1] - np.frexp(_LARGEST)[1], 0)
        w, r = np.ldexp(w, -shift[:, None]), np.ldexp(r, -shift[:, None])
    return v, w, r, increasing


def smooth_ece_at(values: Any, weight: Any, residual: Any, sigma: float) -> np.ndarray:
    """smECE at a fixed bandwidth ``sigma`` (relplot's ``smECE_sigma``), batched over the leading
    axes of ``weight`` and ``residual``.

    Parameters
    ----------
    values : array-like of shape (D,)
        Distinct probabilities (any order), in [0, 1].
    weight : array-like of shape (..., D)
        Total weight of the samples at each probability.
    residual : array-like of shape (..., D)
        Summed residual ``sum (f - y)`` at each probability (``weight * values - positives``).
    sigma : float
        The kernel's standard deviation, > 0.

    Returns
    -------
    numpy.ndarray of shape (...)
        The smooth ECE at that bandwidth (NaN with no weight).

    Examples
    --------
    >>> float(smooth_ece_at([0.2, 0.8], [1.0, 1.0], [0.2, -0.2], 0.1).round(6))
    0.199452
    """
    v, w, r, increasing = _checked(values, weight, residual)
    if not sigma > 0:
        raise ValueError(f"sigma must be > 0, got {sigma}.")
    shape = np.shape(weight)[:-1]
    if v.size == 0:
        return np.full(shape, np.nan)
    grids = _grids_of_arrays(v, w, r, increasing, (grid_size(float(sigma)),))
    out = _at(grids, np.arange(w.shape[0]), float(sigma))
    out = np.where(w.sum(axis=-1) > 0, out, np.nan)
    return out.reshape(shape)


def smooth_ece_batch(values: Any, weight: Any, residual: Any) -> tuple[np.ndarray, np.ndarray]:
    """smECE at its own bandwidth for every row of a batch: (values, bandwidths), each of shape
    ``weight.shape[:-1]``; the search of the module notes runs for all rows together (rows that
    try the same bandwidth share one convolution).

    Examples
    --------
    >>> w = np.array([[1.0, 1.0], [2.0, 0.0]])
    >>> value, sigma = smooth_ece_batch([0.2, 0.8], w, w * [0.2, -0.2])
    >>> value.round(4).tolist(), sigma.tolist()
    ([0.1814, 0.2], [0.181640625, 0.2001953125])
    """
    v, w, r, increasing = _checked(values, weight, residual)
    shape = np.shape(weight)[:-1]
    if v.size == 0:
        return np.full(shape, np.nan), np.full(shape, np.nan)
    return _search(_grids_of_arrays(v, w, r, increasing, search_sizes()), ~(w.sum(axis=-1) > 0), shape)


def _search(grids: _Grids, empty: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The bandwidth search of the module notes for every row of ``grids`` (rows ``empty``: NaN)."""
    b = empty.size
    upper = np.ones(b)
    lower = np.zeros(b)
    # sigma = 1 below its smECE (never, as smECE <= 1): keep 1, as the reference does; else search
    search = ~(_at(grids, np.arange(b), 1.0) > 1.0) & ~empty
    for _ in range(REFINE):
        rows = np.flatnonzero(search)
        mids = (upper[rows] + lower[rows]) / 2
        too_small = mids < SMALLEST_BANDWIDTH
        for mid in np.unique(mids[~too_small]):
            at = rows[mids == mid]
            too_small[mids == mid] = mid < _at(grids, at, float(mid))
        lower[rows[too_small]] = mids[too_small]
        upper[rows[~too_small]] = mids[~too_small]
    values_out = np.full(b, np.nan)
    for sigma in np.unique(upper[~empty]):
        at = np.flatnonzero((upper == sigma) & ~empty)
        values_out[at] = _at(grids, at, float(sigma))
    bandwidth = np.where(empty, np.nan, upper)
    return values_out.reshape(shape), bandwidth.reshape(shape)


def smooth_ece(values: Any, weight: Any, residual: Any) -> tuple[float, float]:
    """The smooth ECE and its bandwidth (relplot's ``smECE(f, y, return_width=True)``) of one
    table of distinct probabilities.

    Parameters
    ----------
    values : array-like of shape (D,)
        Distinct probabilities (any order), in [0, 1].
    weight : array-like of shape (D,)
        Total weight of the samples at each probability.
    residual : array-like of shape (D,)
        Summed residual ``sum (f - y)`` at each probability (``weight * values - positives``).

    Returns
    -------
    value : float
        The smooth ECE (NaN with no weight).
    sigma : float
        The bandwidth it was read at.

    Examples
    --------
    >>> value, sigma = smooth_ece([0.2, 0.8], [1.0, 1.0], [0.2, -0.2])
    >>> round(value, 4), sigma
    (0.1814, 0.181640625)
    """
    value, sigma = smooth_ece_batch(values, np.asarray(weight, dtype=np.float64)[None],
                                    np.asarray(residual, dtype=np.float64)[None])
    return float(value[0]), float(sigma[0])


def _below(above: np.ndarray, at: np.ndarray, d: int) -> np.ndarray:
    """Counts below positions ``at`` (0..d) from the counts at or above each of d positions."""
    total = int(above[0])
    inside = np.minimum(at, d - 1)
    return np.where(at < d, total - above[inside].astype(np.int64), total)


def smooth_ece_of_counts(values: Any, neg: Any, pos: Any, *, above: Any = None) -> tuple[float, float]:
    """:func:`smooth_ece` of increasing probabilities with the counts of negative and positive
    outcomes at each, read without forming weight or residual arrays: one pass over the values in
    cache-sized chunks gives each union cell's ``sum w x`` and ``sum r x`` (see ``_Grids``); its
    ``sum w`` and positives come from the running counts ``above`` when given (else from the same
    pass), and ``sum r = sum w x - positives``.

    Parameters
    ----------
    values : array-like of shape (D,)
        Probabilities, increasing, in [0, 1].
    neg : array-like of shape (D,) or None
        Negative counts at each; None: one sample at each probability (``pos`` 0 or 1).
    pos : array-like of shape (D,)
        Positive counts at each (bool, integer; float weights are passed on to :func:`smooth_ece`).
    above : tuple (neg_above, pos_above), optional
        Counts of negatives and positives at or above each probability (a ranking's cumulative
        counts down its decreasing scores, reversed; ``neg_above`` None when ``neg`` is None),
        integer.

    Returns
    -------
    value, sigma : float
        As :func:`smooth_ece`.

    Examples
    --------
    >>> v = np.array([0.2, 0.6, 0.9]); neg = np.array([2, 1, 0]); pos = np.array([0, 1, 2])
    >>> value, sigma = smooth_ece_of_counts(v, neg, pos)
    >>> round(value, 6), sigma
    (0.11913, 0.1201171875)
    >>> value, sigma = smooth_ece_of_counts([0.2, 0.8], None, np.array([False, True]))
    >>> round(value, 4), sigma
    (0.1814, 0.181640625)
    """
    v = np.asarray(values, dtype=np.float64)
    p = np.asarray(pos)
    n = None if neg is None else np.asarray(neg)
    if v.ndim != 1 or p.shape != v.shape or (n is not None and n.shape != v.shape):
        raise ValueError(f"values, neg and pos must be 1-D of one length; got shapes {v.shape}, "
                         f"{None if n is None else n.shape} and {p.shape}.")
    if p.dtype.kind not in "biu" or (n is not None and n.dtype.kind not in "biu"):  # weights: the general path
        nf = 1.0 - p if n is None else n.astype(np.float64)
        w = nf + p
        return smooth_ece(v, w, w * v - p)
    d = v.size
    if d == 0:
        return float("nan"), float("nan")
    if v[0] < 0 or v[-1] > 1:
        raise ValueError("smooth ECE needs probabilities in [0, 1]; some values lie outside.")
    if p.dtype == np.bool_ and n is not None:
        p = p.view(np.uint8)
    exact = above is not None
    if exact:
        above = (None if above[0] is None else np.asarray(above[0])), np.asarray(above[1])
    unsorted = []
    # a ranking's values are a reversed (decreasing) array: read each chunk in memory order
    flip = v.strides[0] < 0 and p.strides[0] <= 0

    def parts_of(a: int, b: int) -> list[np.ndarray]:
        x, y = (v[a:b][::-1], p[a:b][::-1]) if flip else (v[a:b], p[a:b])
        if x.size > 1 and (np.greater if flip else np.less)(x[1:], x[:-1]).any() or (a and v[a - 1] > v[a]):
            unsorted.append(a)
        if n is None:
            wx = x
            r = np.subtract(x, y)  # one sample: r = x - y
        else:
            w = np.add(n[a:b][::-1] if flip else n[a:b], y, dtype=np.float64)
            wx = w * x
            r = wx - y
        rx = np.multiply(r, x, out=r)
        if exact:
            return [wx, rx]
        return [wx, rx, y.astype(np.float64)] + ([] if n is None else [w])

    def cell_sums_of(first: np.ndarray) -> np.ndarray:
        sums = _cell_sums(first, d, parts_of, flip)
        if unsorted:
            raise ValueError("smooth_ece_of_counts needs increasing values.")
        ends = np.append(first[1:], d)
        if exact:
            n_above, p_above = above
            positives = (_below(p_above, ends, d) - _below(p_above, first, d)).astype(np.float64)
            weight = (ends - first if n_above is None else
                      _below(n_above, ends, d) - _below(n_above, first, d) + positives).astype(np.float64)
        else:
            positives = sums[2]
            weight = (ends - first).astype(np.float64) if n is None else sums[3]
        wx, rx = sums[0], sums[1]
        return np.stack([weight, wx, wx - positives, rx])[None]

    if exact:
        total = int(above[1][0]) + (d if above[0] is None else int(above[0][0]))
    else:
        total = d if n is None else int(n.sum(dtype=np.int64)) + int(p.sum(dtype=np.int64))
    values_out, sigma = _search(_Grids(v, cell_sums_of, search_sizes()), np.array([not total > 0]), (1,))
    return float(values_out[0]), float(sigma[0])
