"""Common checks of the uncertainty package: the normal quantile, argument checks, output shapes.

:func:`z_quantile` is the package's one home of the two-sided normal quantile (1.96 at 0.95),
built on :func:`normal_quantile`, the one home of the normal quantile function itself; the other
helpers check choices and resample counts, locate the first bad entry of an array for
error messages, and turn 0-d results into Python floats.

>>> round(z_quantile(0.95), 6)
1.959964
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["z_quantile", "normal_quantile", "check_choice", "float_or_array", "first_bad", "check_resamples"]


def z_quantile(level: float) -> float:
    """Two-sided normal quantile of ``level`` (1.96 at 0.95): Phi^-1(0.5 + level / 2).

    >>> round(z_quantile(0.9), 6), round(z_quantile(0.99), 6)
    (1.644854, 2.575829)
    """
    return float(normal_quantile(0.5 + level / 2.0))


def normal_quantile(p: Any) -> Any:
    """The standard normal quantile function Phi^-1(p), elementwise (a NumPy scalar or array).

    One-sided: ``normal_quantile(0.975)`` is 1.96; the upper-tail quantile of ``q`` (scipy's
    ``norm.isf(q)``) is ``-normal_quantile(q)``, exactly.

    >>> round(float(normal_quantile(0.975)), 6), normal_quantile([0.5, 0.5]).tolist()
    (1.959964, [0.0, 0.0])
    """
    from scipy.special import ndtri

    return ndtri(p)


def check_choice(value: str, allowed: Any, name: str) -> str:
    """``value`` if it is one of ``allowed``; else a ValueError naming ``name`` and the choices.

    >>> check_choice("bca", ("percentile", "bca"), "method")
    'bca'
    >>> check_choice("x", ("percentile", "bca"), "method")
    Traceback (most recent call last):
    ...
    ValueError: method must be one of ['percentile', 'bca'], got 'x'.
    """
    if value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}.")
    return value


def float_or_array(a: np.ndarray) -> Any:
    """A 0-d array as a Python float, other arrays as they are (as float64).

    >>> float_or_array(np.array(0.5)), float_or_array(np.array([1, 2])).tolist()
    (0.5, [1.0, 2.0])
    """
    a = np.asarray(a, dtype=np.float64)
    return float(a) if a.ndim == 0 else a


def first_bad(mask: np.ndarray) -> str:
    """Where ``mask`` is first true, for an error message: an index, or a tuple of them.

    >>> first_bad(np.array([False, True])), first_bad(np.array([[False], [True]]))
    ('1', '(1, 0)')
    """
    idx = np.argwhere(mask)[0]
    return str(tuple(int(i) for i in idx)) if idx.size > 1 else str(int(idx[0])) if idx.size else "()"


def check_resamples(n_resamples: int) -> int:
    """``n_resamples`` as an int; a ValueError unless it is an integer of at least 2.

    >>> check_resamples(2000.0)
    2000
    """
    if isinstance(n_resamples, bool) or int(n_resamples) != n_resamples or n_resamples < 2:
        raise ValueError(f"n_resamples must be an integer of at least 2, got {n_resamples!r}.")
    return int(n_resamples)
