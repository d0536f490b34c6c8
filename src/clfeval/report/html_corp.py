"""The CORP curve on the HTML report's reliability chart: the isotonic recalibration (observed
frequency as a non-decreasing function of the probability; Dimitriadis, Gneiting & Jordan 2021)
as a thin line, and its consistency band (where the curve of a calibrated forecast would lie) as a
light band (one legend entry for both edges), both from the "corp" part of the "calibration" entry.

>>> corp = {"x": [0.1, 0.9], "recalibrated": [0.0, 1.0], "grouping": "distinct probabilities",
...         "band": {"level": 0.9, "low": [0.0, 0.8], "high": [0.3, 1.0]},
...         "brier": {"value": 0.1, "miscalibration": 0.01, "discrimination": 0.2, "uncertainty": 0.25}}
>>> [t["name"] for t in corp_traces(corp, "#0969da")]
['CORP 90% consistency band', 'CORP 90% consistency band', 'CORP recalibration (MCB 0.0100)']
>>> corp_traces(None, "#0969da")
[]
"""

from __future__ import annotations

from typing import Any

from clfeval.formulas.measure_registry import MEASURES

__all__ = ["corp_traces"]


#: at most this many points between the ends of the curve's constant blocks (the band's shape)
BAND_POINTS = 30


def _thinned(corp: dict[str, Any]) -> dict[str, Any]:
    """``corp`` with only the points the chart needs: the ends of each constant block of the
    recalibration (its steps, exactly) and about :data:`BAND_POINTS` evenly spread others (where
    only the band changes), so a long curve does not weigh the page down."""
    x, y = corp["x"], corp["recalibrated"]
    n = len(x)
    step = max(1, n // BAND_POINTS)
    keep = [i for i in range(n)
            if i == 0 or i == n - 1 or i % step == 0 or y[i] != y[i - 1] or y[i] != y[i + 1]]
    if len(keep) == n:
        return corp
    band = corp.get("band")
    return {**corp, "x": [x[i] for i in keep], "recalibrated": [y[i] for i in keep],
            **({"band": {**band, "low": [band["low"][i] for i in keep], "high": [band["high"][i] for i in keep]}}
               if band else {})}


def corp_traces(corp: dict[str, Any] | None, color: str) -> list[dict[str, Any]]:
    """Plotly traces of the CORP curve and its band ([] without a CORP entry or points)."""
    if not corp or not corp.get("x"):
        return []
    corp = _thinned(corp)
    traces: list[dict[str, Any]] = []
    band = corp.get("band")
    if band:
        name = f"CORP {band['level']:.0%} consistency band"
        common = {"type": "scatter", "mode": "lines", "x": corp["x"], "name": name, "legendgroup": "corp-band",
                  "line": {"width": 0, "color": "rgba(110,119,129,0.25)"}, "hoverinfo": "skip"}
        traces.append({**common, "y": band["high"], "showlegend": False})
        traces.append({**common, "y": band["low"], "fill": "tonexty", "fillcolor": "rgba(110,119,129,0.18)"})
    short = MEASURES["corp_miscalibration"].short
    mcb = corp["brier"]["miscalibration"]
    label = "CORP recalibration" + ("" if mcb is None else f" ({short} {mcb:.4f})")
    traces.append({"type": "scatter", "mode": "lines", "x": corp["x"], "y": corp["recalibrated"], "name": label,
                   "line": {"color": color, "width": 1.5, "dash": "dot"},
                   "hovertemplate": "predicted %{x:.3f}<br>recalibrated %{y:.3f}<extra>CORP</extra>"})
    return traces
