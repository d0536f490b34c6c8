"""How clfeval writes a number as text: the one home of the digits that the terminal report, the
text reprs and the notebook (HTML) views show, so that all of them show the same ones.

- :func:`format_value`: a report cell: 4 decimals, ``nan`` for an undefined value, counts as
  integers.
- :func:`interval_text`: ``[low, high]`` with at least ``digits`` decimals, and more until the
  two ends differ (up to 17, the float's precision): never ``[0.964, 0.964]`` for ends that differ.
- :func:`share_text`: a share of 0 is ``0%`` and of 1 is ``100%``; any other share that would
  round to 0% or 100% gets decimals (one, then two): 0.3% not 0%, 99.96% not 100%; past two
  decimals it is ``<0.01%`` or ``>99.99%``.
- :func:`pvalue_text`: a p-value in 4 decimals, ``< 0.0001`` below that.

>>> format_value(0.123456), interval_text(0.9571, 0.9642), share_text(0.9996), pvalue_text(0.00002)
('0.1235', '[0.957, 0.964]', '99.96%', '< 0.0001')
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["DIGITS", "FLOAT_EXACT_INT", "format_value", "interval_decimals", "interval_text", "share_text", "pvalue_text",
           "MAX_DECIMALS"]

#: decimals of every measure the reports show
DIGITS = 4

#: decimals past which two float64 values near 1 can no longer be told apart in fixed notation
MAX_DECIMALS = 17

#: integers below this are exact in float64 (and a float64 sum that stays below it is exact)
FLOAT_EXACT_INT = 1 << 53


def format_value(value: Any, digits: int = DIGITS, column: str = "") -> str:
    """A cell as text: NaN (undefined) as 'nan', None (not applicable) as '', counts as integers.

    A float support is written out as an integer only below 2**53, where every digit is the sum's
    own; a larger one (a float sum of weights, rounded) in six significant digits.

    >>> format_value(0.123456), format_value(float("nan")), format_value(None), format_value(12.0, column="support")
    ('0.1235', 'nan', '', '12')
    >>> format_value(5e307, column="support"), format_value(2.5, column="support")
    ('5e+307', '2.5')
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if column == "support":
            if abs(value) >= FLOAT_EXACT_INT:
                return f"{value:.6g}"
            return str(int(value)) if value.is_integer() else f"{value:.{digits}g}"
        return f"{value:.{digits}f}"
    return str(value)


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


def pvalue_text(pvalue: float, digits: int = DIGITS) -> str:
    """A p-value with ``digits`` decimals; one below ``10**-digits`` as ``< 0.0001``; 'nan' for NaN.

    >>> pvalue_text(0.01234), pvalue_text(3e-9), pvalue_text(float("nan")), pvalue_text(1.0)
    ('0.0123', '< 0.0001', 'nan', '1.0000')
    """
    p = float(pvalue)
    if math.isnan(p):
        return "nan"
    floor = 10.0 ** -digits
    return f"< {floor:.{digits}f}" if p < floor else f"{p:.{digits}f}"
