"""Numbers as the terminal report writes them: intervals with the decimals they need, shares of a
confusion-matrix row that never round to 0% or 100% when they are not, and tables split into
column groups that fit the terminal's width.

- :func:`interval_text`: ``[low, high]`` with at least ``digits`` decimals, and more until the
  two ends differ (up to 17, the float's precision): never ``[0.964, 0.964]`` for ends that differ.
- :func:`share_text`: a share of 0 is ``0%`` and of 1 is ``100%``; any other share that would
  round to 0% or 100% gets decimals (one, then two): 0.3% not 0%, 99.96% not 100%; past two
  decimals it is ``<0.01%`` or ``>99.99%``.
- :func:`column_groups`: the columns of a wide table in groups that each fit a width, every
  group repeating the first (label) column.

>>> interval_text(0.9571, 0.9642), interval_text(0.96401, 0.96449), interval_text(0.5, 0.5)
('[0.957, 0.964]', '[0.9640, 0.9645]', '[0.500, 0.500]')
>>> share_text(0.9996), share_text(0.003), share_text(0.5), share_text(1.0), share_text(0.99999)
('99.96%', '0.3%', '50%', '100%', '>99.99%')
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["interval_decimals", "interval_text", "share_text", "column_groups", "MAX_DECIMALS"]

#: decimals past which two float64 values near 1 can no longer be told apart in fixed notation
MAX_DECIMALS = 17


def interval_decimals(low: float, high: float, digits: int = 3) -> int:
    """The fewest decimals, at least ``digits``, that write ``low`` and ``high`` differently (``digits``
    when they are equal or not finite; at most :data:`MAX_DECIMALS`).

    >>> interval_decimals(0.9641, 0.9644), interval_decimals(0.1, 0.1), interval_decimals(0.2, 0.2 + 1e-15)
    (4, 3, 15)
    """
    low, high = float(low), float(high)
    if not (math.isfinite(low) and math.isfinite(high)) or low == high:
        return digits
    for d in range(digits, MAX_DECIMALS + 1):
        if f"{low:.{d}f}" != f"{high:.{d}f}":
            return d
    return MAX_DECIMALS


def interval_text(low: float, high: float, digits: int = 3) -> str:
    """``[low, high]`` with the decimals of :func:`interval_decimals` (``nan`` for an undefined one).

    >>> interval_text(-0.05, 0.1), interval_text(float("nan"), float("nan")), interval_text(0.2, float("inf"))
    ('[-0.050, 0.100]', 'nan', '[0.200, inf]')
    """
    low, high = float(low), float(high)
    if math.isnan(low) or math.isnan(high):
        return "nan"
    d = interval_decimals(low, high, digits)
    return f"[{low:.{d}f}, {high:.{d}f}]"


def share_text(share: float) -> str:
    """A share (0..1) of a row as a percentage (see the module); '' for NaN.

    >>> share_text(0.0), share_text(0.004), share_text(0.00004), share_text(0.995), share_text(0.1234)
    ('0%', '0.4%', '<0.01%', '99.5%', '12%')
    """
    share = float(share)
    if math.isnan(share):
        return ""
    pct = 100.0 * share
    if share <= 0.0 or share >= 1.0:
        return f"{pct:.0f}%"
    for d in (0, 1, 2):
        text = f"{pct:.{d}f}"
        if 0.0 < float(text) < 100.0:
            return f"{text}%"
    return "<0.01%" if pct < 50 else ">99.99%"


def column_groups(widths: Sequence[int], width: int, first: int, gap: int = 2) -> list[list[int]]:
    """Indices of the columns (of ``widths``, not counting the first, label column of width
    ``first``) in consecutive groups whose table, label column included and ``gap`` characters
    between columns, fits ``width``; a column too wide on its own gets a group of its own.

    >>> column_groups([11, 11, 11, 11, 11, 11], 80, first=12)
    [[0, 1, 2, 3, 4], [5]]
    >>> column_groups([5, 5], 80, first=5)
    [[0, 1]]
    """
    groups: list[list[int]] = []
    used = first
    for i, w in enumerate(widths):
        if groups and used + gap + w <= width:
            groups[-1].append(i)
            used += gap + w
        else:
            groups.append([i])
            used = first + gap + w
    return groups
