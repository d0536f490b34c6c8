"""The range of a partial ROC area, checked once for every layer that takes one (the drop-in
metric, the Evaluation, the intervals, the tests and the command line).

>>> partial_range(None, (0.8, 1))
('tpr', 0.8, 1.0)
"""

from __future__ import annotations

import math
import numbers
from typing import Any

__all__ = ["check_range", "partial_range"]


def check_range(value: Any, name: str) -> tuple[float, float]:
    """``(a, b)`` with 0 <= a < b <= 1, as floats; a ValueError naming ``name`` otherwise.

    >>> check_range([0, 0.2], "fpr_range")
    (0.0, 0.2)
    """
    try:
        a, b = value
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a pair (a, b) with 0 <= a < b <= 1, got {value!r}.") from None
    for v in (a, b):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise ValueError(f"{name} must be a pair of numbers (a, b) with 0 <= a < b <= 1, got {value!r}.")
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        raise ValueError(f"{name} must be a pair of numbers (a, b) with 0 <= a < b <= 1, got NaN in ({a!r}, {b!r}).")
    if not (0.0 <= a < b <= 1.0):
        raise ValueError(f"{name} must satisfy 0 <= a < b <= 1, got ({a!r}, {b!r}).")
    return a, b


def partial_range(fpr_range: Any, tpr_range: Any) -> tuple[str, float, float]:
    """(axis, a, b) of exactly one of ``fpr_range`` and ``tpr_range``; a ValueError otherwise.

    >>> partial_range((0, 0.1), None)
    ('fpr', 0.0, 0.1)
    """
    if (fpr_range is None) == (tpr_range is None):
        raise ValueError("give exactly one of fpr_range=(a, b) and tpr_range=(a, b).")
    if tpr_range is None:
        return ("fpr", *check_range(fpr_range, "fpr_range"))
    return ("tpr", *check_range(tpr_range, "tpr_range"))
