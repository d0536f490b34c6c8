"""The choices calibration takes (modes, norms, bin strategies) and the checks of its arguments.

>>> check_choice("top-label", MODES, "mode")
'top-label'
>>> check_n_bins(10)
10
"""

from __future__ import annotations

import numbers
from typing import Any, Sequence

import numpy as np

__all__ = [
    "MODES",
    "NORMS",
    "STRATEGIES",
    "check_choice",
    "check_n_bins",
    "first_true",
    "check_rows_sum_to_one",
]

MODES = ("binary", "class-wise", "top-label")
NORMS = ("l1", "l2", "max")
STRATEGIES = ("uniform", "quantile")


def check_choice(value: Any, options: Sequence[str], name: str) -> str:
    """``value`` when it is one of ``options``, else a ValueError naming ``name``."""
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {list(options)}, got {value!r}.")
    return value


def check_n_bins(n_bins: Any, name: str = "n_bins") -> int:
    """``n_bins`` as an int when it is an integer >= 1 (not a bool), else a TypeError or ValueError."""
    if isinstance(n_bins, (bool, np.bool_)) or not isinstance(n_bins, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= 1, got {n_bins!r}.")
    if n_bins < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {n_bins!r}.")
    return int(n_bins)


def first_true(mask: np.ndarray) -> int:
    """Index of the first True of a boolean array that has one.

    >>> first_true(np.array([False, True, True]))
    1
    """
    return int(np.flatnonzero(mask)[0])


def check_rows_sum_to_one(P: np.ndarray, name: str) -> None:
    """A ValueError naming the first row of the (n, k) probabilities ``P`` that does not sum to 1
    within ``1e-8 + sqrt(eps)`` (see :mod:`clfeval.calibration`)."""
    tol = 1e-8 + np.sqrt(np.finfo(P.dtype).eps)
    sums = np.einsum("ij->i", P.astype(np.float64, copy=False))
    bad = np.abs(sums - 1.0) > tol
    if bad.any():
        i = first_true(bad)
        raise ValueError(
            f"{name} rows must sum to 1 (probabilities of mutually exclusive classes), but "
            f"{int(bad.sum())} row(s) do not; the first is row {i}, which sums to "
            f"{float(sums[i])!r}. Normalise the rows (divide by their sums) or pass calibrated "
            "probabilities such as predict_proba output."
        )

