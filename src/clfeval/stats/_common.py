"""Small pieces every test in clfeval.stats needs: checked float input and p-values.

>>> t_pvalue(2.0, 10, "two-sided") == 2 * t_pvalue(2.0, 10, "greater")
True
>>> round(normal_pvalue(1.959963984540054, "two-sided"), 6)
0.05
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["as_finite_floats", "normal_pvalue", "t_pvalue"]


def as_finite_floats(x: Any, name: str, fix: str = "every entry needs a value") -> np.ndarray:
    """``x`` as a float64 array; a TypeError for non-numbers, a ValueError naming the first NaN/inf."""
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an array of numbers, got {type(x).__name__}.") from None
    if not np.all(np.isfinite(arr)):
        bad = np.flatnonzero(~np.isfinite(arr.ravel()))
        raise ValueError(
            f"{name} holds {bad.size} non-finite value(s) (NaN or infinity), the first at flat position "
            f"{bad[0]}; {fix}."
        )
    return arr


def normal_pvalue(z: float, alternative: str) -> float:
    """p-value of a standard normal statistic ("greater": large z is evidence)."""
    from scipy.special import ndtr

    if alternative == "greater":
        return float(ndtr(-z))
    if alternative == "less":
        return float(ndtr(z))
    return float(min(1.0, 2 * ndtr(-abs(z))))


def t_pvalue(t: float, df: float, alternative: str) -> float:
    """p-value of a Student t statistic with ``df`` degrees of freedom."""
    from scipy import stats

    if alternative == "greater":
        return float(stats.t.sf(t, df))
    if alternative == "less":
        return float(stats.t.cdf(t, df))
    return float(min(1.0, 2 * stats.t.sf(abs(t), df)))
