"""Text of the HTML report: escaping (for HTML, for plotly, for JSON inside a <script> element)
and numbers for display.

Values come from ``Evaluation.to_dict()`` or its JSON form, so a number may be a float, an int,
None or a string such as "inf"; every helper here reads all of them.

>>> esc("<b>"), fmt(0.5), fmt_count(12.0), fmt(None) == DASH
('&lt;b&gt;', '0.5000', '12', True)
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Sequence
from typing import Any

from clfeval.formulas.exact_sums import FLOAT_EXACT_INT

__all__ = ["DASH", "esc", "ptext", "script_json", "as_number", "finite_number", "plot_values", "fmt", "fmt_count",
           "fmt_threshold"]


DASH = "\u2014"  # em dash: an undefined or missing value


def esc(value: Any) -> str:
    """Text for HTML content and attribute values."""
    return html.escape(str(value), quote=True)


def ptext(value: Any) -> str:
    """Text for plotly, which reads its strings as a little HTML: show them literally.

    >>> ptext("<b>a & b</b>")
    '&lt;b&gt;a &amp; b&lt;/b&gt;'
    """
    return str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def script_json(obj: Any) -> str:
    """Strict JSON that cannot end or confuse the <script> element it is placed in.

    >>> script_json({"name": "</script><!--"})
    '{"name":"\\\\u003c/script\\\\u003e\\\\u003c!--"}'
    """
    text = json.dumps(obj, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


def as_number(value: Any) -> float | None:
    """A number from to_dict() or its JSON form ("inf" strings, None) as float; None if none."""
    if value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def finite_number(value: Any) -> float | None:
    """A finite number as float; None for NaN, infinities and what is no number.

    >>> finite_number("0.5"), finite_number("inf"), finite_number(None)
    (0.5, None, None)
    """
    x = as_number(value)
    return x if x is not None and math.isfinite(x) else None


def plot_values(values: Sequence[Any]) -> list[float | None]:
    """Plot coordinates: NaN, infinities and missing values become gaps (null)."""
    return [finite_number(v) for v in values]


def fmt(value: Any, digits: int = 4) -> str:
    """A metric for display: fixed digits; NaN and None as an em dash.

    >>> fmt(0.123456), fmt(float("nan")), fmt(None), fmt("inf")
    ('0.1235', '—', '—', '+∞')
    """
    x = as_number(value)
    if x is None or math.isnan(x):
        return DASH
    if math.isinf(x):
        return "+\u221e" if x > 0 else "\u2212\u221e"
    return f"{x:.{digits}f}"


def fmt_count(value: Any) -> str:
    """A count or a total weight: integers as such, weights with 4 decimals; from 2**53 on (a float
    sum, rounded) six significant digits.

    >>> fmt_count(12.0), fmt_count(2.5), fmt_count(5e307)
    ('12', '2.5000', '5e+307')
    """
    x = as_number(value)
    if x is None or not math.isfinite(x):
        return fmt(value)
    if abs(x) >= FLOAT_EXACT_INT:
        return f"{x:.6g}"
    return str(int(x)) if x.is_integer() else f"{x:.4f}"


def fmt_threshold(value: Any) -> str:
    """A threshold for hover text.

    >>> fmt_threshold("inf"), fmt_threshold(0.123456789), fmt_threshold(None)
    ('+∞', '0.123457', '—')
    """
    x = as_number(value)
    if x is None or math.isnan(x):
        return DASH
    if math.isinf(x):
        return "+\u221e" if x > 0 else "\u2212\u221e"
    return f"{x:.6g}"
