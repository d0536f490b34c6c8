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

from collections.abc import Sequence

# their home is clfeval.support.number_text (the notebook views of lower layers write the same digits)
from clfeval.support.number_text import MAX_DECIMALS, interval_decimals, interval_text, share_text

__all__ = ["interval_decimals", "interval_text", "share_text", "column_groups", "MAX_DECIMALS"]


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
