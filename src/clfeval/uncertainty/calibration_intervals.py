"""A bootstrap interval of the smooth ECE, from the cells of the view's table of distinct
probabilities (the per-score negative and positive counts a ranking holds): replicates are
multinomial redraws of those cells (:mod:`clfeval.uncertainty.resampling`), each read by
:func:`clfeval.formulas.smooth_ece.smooth_ece_batch` at its own bandwidth. No pass over samples.

The smooth ECE of a finite sample is biased upwards (noise alone gives a positive value, of order
``n ** -1/2``), and its replicates more so. Coverage of nominal 95% in simulation (f ~ Beta(2, 2),
P(y = 1 | f) = f ** gamma, 150 test sets each, 300 resamples; the truth is the smooth ECE of the
exact residuals over 10^6 draws of f; ``tests/test_smooth_ece.py`` holds one setting as a slow test):

- a miscalibrated forecast, the default ``kind="percentile"``: 66% / 89% / 97% at n = 300 / 1000 /
  3000 for smECE 0.047 (gamma 0.85); 94% / 93% / 92% for smECE 0.10 (gamma 0.7); 89% / 95% / 92%
  for smECE 0.19 (gamma 0.5); ``kind="basic"`` (``2 * estimate - quantiles``, Davison & Hinkley
  1997, eq. 5.6) covers 79-94%
  in the same settings (``benchmarks/smooth_ece_coverage.py``);
- a calibrated forecast (true smECE 0, the edge of the range): no interval of a positive estimate
  holds 0: percentile 0%, basic 21% (n = 300) and 1% (n = 1000). Near 0 read the interval as a
  statement about the sample's smooth ECE, not a test of calibration (the CORP consistency band,
  :func:`clfeval.formulas.isotonic.consistency_band`, is that test).

>>> ci = smooth_ece_interval([0.2, 0.5, 0.8], [40, 25, 10], [10, 25, 40], n_resamples=200)
>>> round(ci.estimate, 4), ci.low > ci.estimate  # exactly calibrated: the replicates lie above
(0.0, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.formulas.smooth_ece import smooth_ece, smooth_ece_batch
from clfeval.stats._result import ConfidenceInterval, check_level
from clfeval.uncertainty.bootstrap import (
    integer_cells,
    interval_from_replicates,
    replicates,
)
from clfeval.uncertainty.checks import check_resamples
from clfeval.uncertainty.resampling import check_sampling, sampling_phrase

__all__ = ["SMOOTH_ECE_INTERVALS", "smooth_ece_interval"]

#: the kinds of bootstrap interval of the smooth ECE
SMOOTH_ECE_INTERVALS = ("percentile", "basic")


def smooth_ece_interval(
    values: Any, neg: Any, pos: Any, *, level: float = 0.95, n_resamples: int = 1000, seed: Any = 0,
    sampling: str = "cross-sectional", kind: str = "percentile",
) -> ConfidenceInterval:
    """Bootstrap interval of the smooth ECE of distinct probabilities with their outcome counts.

    Parameters
    ----------
    values : array-like of shape (D,)
        Distinct probabilities (any order), in [0, 1].
    neg, pos : array-like of shape (D,)
        Counts of negative and positive outcomes at each (integers: the bootstrap redraws cases;
        non-integer weights are refused with a ValueError).
    level : float, default=0.95
        Confidence level.
    n_resamples : int, default=1000
        Bootstrap replicates.
    seed : int, numpy.random.Generator or None, default=0
        Seed of the replicates.
    sampling : {"cross-sectional", "stratified"}, default="cross-sectional"
        Redraw all cells with the grand total, or each outcome with its own total.
    kind : {"percentile", "basic"}, default="percentile"
        "percentile": ``[q_lo, q_hi]``; "basic": ``[2 t - q_hi, 2 t - q_lo]`` (clipped at 0),
        which subtracts the bootstrap's estimate of the bias (covered less in simulation; see
        the module notes).

    Returns
    -------
    ConfidenceInterval
        The interval, with the estimate.

    Examples
    --------
    >>> ci = smooth_ece_interval([0.1, 0.9], [9, 1], [1, 9], n_resamples=100, kind="percentile")
    >>> ci.method
    'percentile bootstrap (100 resamples, cross-sectional), each replicate at its own bandwidth'
    """
    check_level(level)
    sampling = check_sampling(sampling)
    n_resamples = check_resamples(n_resamples)
    if kind not in SMOOTH_ECE_INTERVALS:
        raise ValueError(f"kind must be one of {list(SMOOTH_ECE_INTERVALS)}, got {kind!r}.")
    v = np.asarray(values, dtype=np.float64)
    cells = integer_cells(np.stack([np.asarray(neg), np.asarray(pos)]).astype(np.float64), "the score counts")
    w = cells.sum(axis=0)
    estimate, _ = smooth_ece(v, w, w * v - cells[1])

    def statistic(batch: np.ndarray) -> np.ndarray:
        bw = batch.sum(axis=1).astype(np.float64)
        return smooth_ece_batch(v, bw, bw * v - batch[:, 1])[0]

    reps = replicates(statistic, cells, n_resamples, seed, sampling)
    low, high, _ = interval_from_replicates(reps[:, None], np.array([estimate]), level, "percentile")
    lo, hi = float(low[0]), float(high[0])
    if kind == "basic":
        lo, hi = max(0.0, 2 * estimate - hi), max(0.0, 2 * estimate - lo)
    method = (f"{kind} bootstrap ({n_resamples} resamples, {sampling_phrase(sampling, ranking=True)}), "
              "each replicate at its own bandwidth")
    return ConfidenceInterval(lo, hi, level, method, estimate)
