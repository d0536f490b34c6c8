"""Short numbers for the HTML report's chart data: what the page does not need, it does not carry.

A chart's coordinates are written to the page as JSON. ``json.dumps`` writes each float with
all 17 significant digits it may need (``0.005494505494505495``), although a point is drawn to
a fraction of a pixel with 6 and its hover text shows 3 to 6. :func:`compact_figures` rewrites
every long numeric array of every trace with the fewest significant digits (6 at least) for
which each number *prints the same* in every hover format the trace applies to that array
(``%{x:.4f}``, ``%{y:.6g}``, ...), rounding as the browser does (plotly's d3-format rounds the
exact binary value, ties away from zero, unlike Python's ``format``). Arrays a trace shows
without a format, short arrays (markers such as the operating points, guides) and the first and
last number of every array (a curve's ends) are left as they are, so those stay exact.

>>> fig = {"data": [{"x": [i / 91 for i in range(20)], "y": [0.12345, 1 / 3] * 10,
...                  "hovertemplate": "x %{x:.4f}<br>y %{y:.6g}"}]}
>>> out = compact_figures([fig])[0]["data"][0]
>>> out["x"][:3], out["y"][:2], out["y"][-1]
([0.0, 0.010989, 0.021978], [0.12345, 0.333333], 0.3333333333333333)
>>> fig["data"][0]["x"][1]  # the input is left untouched
0.01098901098901099
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

__all__ = ["compact_figures", "share_arrays", "short_float", "MIN_DIGITS", "MIN_LENGTH", "SAME_AS"]

#: Fewest significant digits a coordinate keeps: a millionth of the axis, far below a pixel.
MIN_DIGITS = 6
#: Arrays shorter than this are left exact (a marker, a guide line: they weigh nothing).
MIN_LENGTH = 16
_ARRAYS = ("x", "y", "z", "customdata")
#: The key of a reference that stands for an array written earlier in the page:
#: ``{"same_as": [figure index, trace index, array name]}`` (resolved by the page's start-up script).
SAME_AS = "same_as"
_FORMAT = re.compile(r"%\{(x|y|z|customdata)(?:\[\d+\])?(?::([^}]*))?\}")
_SPEC = re.compile(r"^[,]?\.(\d+)([fge%])$")


def _shown(x: float, spec: tuple[int, str]) -> Decimal:
    """The value a d3 format shows for ``x`` (exact binary value, ties away from zero)."""
    digits, kind = spec
    d = Decimal(x)
    if kind == "%":
        d, kind = d * 100, "f"
    if kind == "f" or d == 0:
        return d.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    keep = max(digits, 1) if kind == "g" else digits + 1  # "e": one digit before the point
    return d.quantize(Decimal(1).scaleb(d.adjusted() - keep + 1), rounding=ROUND_HALF_UP)


def short_float(x: float, specs: tuple[tuple[int, str], ...] = ()) -> float:
    """``x`` with the fewest significant digits (at least :data:`MIN_DIGITS`) that every format
    in ``specs`` ((digits, "f" / "g" / "e" / "%") pairs) shows exactly as it shows ``x``.

    >>> short_float(0.005494505494505495), short_float(2 / 3, ((4, "f"),))
    (0.00549451, 0.666667)
    >>> short_float(0.123449996, ((4, "f"),))  # 0.12345 would show as 0.1235
    0.12344999...
    >>> short_float(float("inf")), short_float(3.0)
    (inf, 3.0)
    """
    if not math.isfinite(x) or x == 0:
        return x
    want = [_shown(x, s) for s in specs]
    for digits in range(MIN_DIGITS, 17):
        y = float(f"{x:.{digits}g}")
        if all(_shown(y, s) == w for s, w in zip(specs, want)):
            return y
    return x


def _specs(trace: dict[str, Any]) -> dict[str, tuple[tuple[int, str], ...] | None]:
    """Array name -> the formats the trace's hover applies to it; None where it shows the array
    without one (plotly's own number formatting: left exact)."""
    out: dict[str, list[tuple[int, str]] | None] = {k: [] for k in _ARRAYS}
    template = trace.get("hovertemplate")
    if not isinstance(template, str):
        # plotly's default hover shows the raw numbers, unless hover is off
        return {k: (None if trace.get("hoverinfo") != "skip" else ()) for k in _ARRAYS}
    for name, spec in _FORMAT.findall(template):
        m = _SPEC.match(spec) if spec else None
        found = out[name]
        if m is None or found is None:
            out[name] = None
        else:
            found.append((int(m.group(1)), m.group(2)))
    return {k: (None if v is None else tuple(sorted(set(v)))) for k, v in out.items()}


def _short_array(values: list[Any], specs: tuple[tuple[int, str], ...]) -> list[Any]:
    """The array shortened, its first and last numbers (a curve's ends) kept exact."""
    inner = [short_float(v, specs) if type(v) is float else v for v in values[1:-1]]
    return [values[0], *inner, values[-1]]


def compact_figures(figs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of the figures (plotly JSON dicts) with their long numeric arrays shortened; see the
    module's docstring. Nothing else changes."""
    out = []
    for fig in figs:
        data = []
        for trace in fig.get("data") or []:
            specs = _specs(trace)
            new = dict(trace)
            for key in _ARRAYS:
                values, spec = trace.get(key), specs[key]
                if spec is None or not isinstance(values, list) or len(values) < MIN_LENGTH:
                    continue
                if any(isinstance(v, (list, dict)) for v in values):
                    continue  # customdata rows: left as they are
                new[key] = _short_array(values, spec)
            data.append(new)
        out.append({**fig, "data": data})
    return out


def share_arrays(figs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of the figures in which each long array of a 3-D chart that equals an array of an
    earlier chart (the threshold views draw the ROC and PR curves' own coordinates) is replaced by
    a reference to it, ``{"same_as": [figure, trace, name]}``; :data:`~clfeval.report.html_assets.BOOT_JS`
    puts the array back before drawing.

    >>> a = {"kind": "2d", "data": [{"x": list(range(20))}]}
    >>> b = {"kind": "3d", "data": [{"x": list(range(20)), "y": [0] * 20}]}
    >>> share_arrays([a, b])[1]["data"][0]["x"]
    {'same_as': [0, 0, 'x']}
    """
    seen: dict[tuple[Any, ...], list[Any]] = {}
    out = []
    for i, fig in enumerate(figs):
        data = []
        for j, trace in enumerate(fig.get("data") or []):
            new = dict(trace)
            for key in _ARRAYS:
                values = trace.get(key)
                if not isinstance(values, list) or len(values) < MIN_LENGTH:
                    continue
                if any(isinstance(v, (list, dict)) for v in values):
                    continue
                # type-exact key: 1 and 1.0 and True print differently
                ident = tuple((type(v).__name__, v) for v in values)
                if fig.get("kind") == "3d" and ident in seen:
                    new[key] = {SAME_AS: seen[ident]}
                else:
                    seen.setdefault(ident, [i, j, key])
            data.append(new)
        out.append({**fig, "data": data})
    return out
