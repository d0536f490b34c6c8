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

>>> v = np.array([0.2, 0.6, 0.9]); w = np.array([2.0, 2.0, 2.0]); pos = np.array([0.0, 1.0, 2.0])
>>> value, sigma = smooth_ece(v, w, w * v - pos)
>>> round(value, 6), sigma
(0.11913, 0.1201171875)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["MESH_POINTS", "SMALLEST_BANDWIDTH", "grid_size", "smooth_ece", "smooth_ece_at", "smooth_ece_batch"]

#: fewest points t the smoothed curve is read at (``relplot.config.smECE_mesh_pts``)
MESH_POINTS = 200
#: a bandwidth below this counts as "too small" without evaluating it (relplot's ``eps``)
SMALLEST_BANDWIDTH = 0.001
#: halvings of [0, 1] in the bandwidth search
REFINE = 10
#: added to the smoothed weight at each t (the reference's guard against 0/0)
DENSITY_FLOOR = 1e-4
_LARGEST = 2.0**700  # larger weights are scaled down (see _checked)


def grid_size(sigma: float) -> int:
    """Points of the grid the kernel runs on at bandwidth ``sigma``.

    >>> grid_size(0.05), grid_size(0.001)
    (1001, 10001)
    """
    return max(2000, round(20 / sigma)) // 2 + 1


class _Grids:
    """The weights and residuals spread onto each grid size asked for (kept per size).

    The values are sorted once, with the products of the weights and residuals with the values;
    each grid then costs one read of those four arrays (sums over the runs of values in each grid
    cell, ``np.add.reduceat``), no running sums: on grid cell ``j`` (between points j and j + 1)
    a value ``x`` puts ``1 - frac`` of its weight on point j and ``frac = x (g - 1) - j`` on point
    j + 1, and ``sum w frac = (g - 1) sum w x - j sum w`` over the cell.
    """

    def __init__(self, values: np.ndarray, weight: np.ndarray, residual: np.ndarray, increasing: bool) -> None:
        if not increasing:
            order = np.argsort(values, kind="stable")
            values, weight, residual = values[order], weight[:, order], residual[:, order]
        self.values = values
        self.parts = (weight, weight * values, residual, residual * values)  # each (B, D)
        self.by_size: dict[int, np.ndarray] = {}

    def of(self, g: int) -> np.ndarray:
        """(B, 2, g): weights and residuals on the grid of g points."""
        if g not in self.by_size:
            # cell j holds the values with floor(x (g - 1)) = j (1.0 in the last cell, g - 2)
            cells = np.arange(g - 1)
            first = np.searchsorted(self.values, cells / (g - 1), side="left")
            first[0] = 0
            d = self.values.size
            filled = np.flatnonzero(np.diff(np.append(first, d)) > 0)  # cells holding a value
            sums = np.zeros((self.parts[0].shape[0], 4, g - 1))
            for i, part in enumerate(self.parts):
                sums[:, i, filled] = np.add.reduceat(part, first[filled], axis=-1)
            total, total_x = sums[:, 0::2], sums[:, 1::2]  # (B, 2, g - 1): sum w, sum w x; sum r, sum r x
            upper = (g - 1) * total_x - cells * total  # the share that goes to point j + 1
            onto = np.zeros(total.shape[:-1] + (g,))
            onto[..., :-1] += total - upper
            onto[..., 1:] += upper
            self.by_size[g] = onto
        return self.by_size[g]


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
    out = _at(_Grids(v, w, r, increasing), np.arange(w.shape[0]), float(sigma))
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
    b = w.shape[0]
    if v.size == 0:
        return np.full(shape, np.nan), np.full(shape, np.nan)
    grids = _Grids(v, w, r, increasing)
    empty = ~(w.sum(axis=-1) > 0)
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
