"""Vectorised bisection over monotone arrays: many targets searched at once, no copies.

>>> first_reaching(lambda i: np.asarray(i) * 2, np.array([0, 3, 4, 100]), 10).tolist()
[0, 2, 2, 9]
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["first_reaching"]


def first_reaching(values_at: Any, targets: np.ndarray, n: int) -> np.ndarray:
    """For each target, the first index i < n with values_at(i) >= target, for a
    non-decreasing function evaluated at index arrays (vectorised bisection, ~log2(n) steps);
    n - 1 where no index reaches it.

    >>> first_reaching(lambda i: np.asarray(i) * 2, np.array([0, 3, 4, 100]), 10).tolist()
    [0, 2, 2, 9]
    """
    lo = np.zeros(targets.size, dtype=np.intp)
    hi = np.full(targets.size, n - 1, dtype=np.intp)
    while True:
        active = lo < hi
        if not active.any():
            return lo
        mid = (lo + hi) // 2
        reached = values_at(mid) >= targets
        hi = np.where(active & reached, mid, hi)
        lo = np.where(active & ~reached, mid + 1, lo)
