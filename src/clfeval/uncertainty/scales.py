"""Intervals formed on a scale that keeps a bounded measure inside its range.

A measure on [0, 1] (a rate, an area) or [-1, 1] (MCC, kappa) has a skewed sampling distribution
near its bounds, and estimate +/- z se runs past them. Formed on the logit scale (Fisher's z,
atanh, for [-1, 1]) and mapped back, the interval stays inside and follows the skew: the one home
of that step for the report's delta-method intervals, the areas' DeLong and influence intervals
and the bootstrap's normal interval of the AUC.

>>> lo, hi = transformed_interval(np.array(0.9), np.array(0.9), np.array(0.05), 1.96, (0.0, 1.0))
>>> round(float(lo), 4), round(float(hi), 4)
(0.7518, 0.9639)
"""

from __future__ import annotations

import numpy as np

__all__ = ["transformed_interval", "logit_interval"]


def transformed_interval(estimate: np.ndarray, center: np.ndarray, se: np.ndarray, z: float,
                         bounds: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """estimate +/- z se formed on a scale that keeps the measure within ``bounds``: logit for
    [0, 1], Fisher's z (atanh) for [-1, 1]; the interval maps back inside the bounds.

    ``center`` is the measure of the smoothed table whose delta method gave ``se``: the scale's
    slope is taken there (where ``se`` was), the interval is centred on the estimate. At a bound
    (an estimate of 0 or 1, infinite on the new scale) the interval runs from that bound to the
    far bound of the interval around ``center``, so it keeps a width.

    >>> lo, hi = transformed_interval(np.array(0.9), np.array(0.9), np.array(0.05), 1.96, (0.0, 1.0))
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.7518, 0.9639)
    """
    from scipy.special import expit

    a, b = bounds
    width = b - a

    def to_unit(v: np.ndarray) -> np.ndarray:
        return (np.asarray(v, dtype=np.float64) - a) / width

    u, c = to_unit(estimate), np.clip(to_unit(center), 1e-12, 1 - 1e-12)
    interior = (u > 0) & (u < 1)
    ref = np.where(interior, u, c)
    with np.errstate(invalid="ignore", divide="ignore"):
        eta = np.log(ref) - np.log1p(-ref)
        half = z * (np.asarray(se, dtype=np.float64) / width) / (c * (1 - c))
        lo_u, hi_u = expit(eta - half), expit(eta + half)
    lo_u = np.where(u <= 0, 0.0, lo_u)
    hi_u = np.where(u >= 1, 1.0, hi_u)
    nan = np.isnan(u) | np.isnan(half)
    return np.where(nan, np.nan, a + width * lo_u), np.where(nan, np.nan, a + width * hi_u)


def logit_interval(estimate: float, se: float, q: float) -> tuple[float, float]:
    """expit(logit(estimate) +/- q se / (estimate (1 - estimate))) for a scalar in (0, 1): the
    delta method's interval formed on the logit scale (:func:`transformed_interval` at its own
    estimate).

    >>> [round(v, 4) for v in logit_interval(0.8, 0.05, 1.959963984540054)]
    [0.6843, 0.8807]
    """
    low, high = transformed_interval(np.asarray(estimate, dtype=np.float64), np.asarray(estimate, dtype=np.float64),
                                     np.asarray(se, dtype=np.float64), q, (0.0, 1.0))
    return float(low), float(high)
