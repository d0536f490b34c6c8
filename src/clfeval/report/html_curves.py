"""The ROC and precision-recall charts of the HTML report, with their pointwise bands, and the
3-D views of a curve against its thresholds.

>>> import clfeval
>>> from clfeval.report.html_model import page_models
>>> models = page_models(clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8]))
>>> curve_figure(models, "roc")["id"], threshold_figure(models, "pr")["kind"]
('roc-curves', '3d')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clfeval.report.html_assets import CLASS_COLORS
from clfeval.report.html_charts import AXIS, base_layout, curve_style, rgba, unit_square_layout, view_menu
from clfeval.report.html_format import as_number, finite_number, fmt_threshold, plot_values, ptext
from clfeval.report.html_model import Model

__all__ = ["curve_figure", "threshold_figure", "bands_hint"]


def _band_text(band: Mapping[str, Any]) -> str:
    """ "95% pointwise band" for a band's legend entry.

    >>> _band_text({"level": 0.975})
    '97.5% pointwise band'
    """
    level = as_number(band.get("level"))
    return ("" if level is None else f"{level * 100:.4g}% ") + "pointwise band"


def _band_traces(band: Mapping[str, Any], color: str, label: str, group: str, kind: str,
                 stepped: bool) -> list[dict[str, Any]]:
    """A band as two traces: its lower edge, then its upper edge filled down to it ("tonexty").

    They share a legend group with one entry, so a click on it hides or shows the whole band;
    the hover of the upper edge gives both ends and the method.
    """
    xs, ys = AXIS[kind][:2]
    shape = "vh" if stepped else "linear"
    low = plot_values(band["low"])
    edge = {"type": "scatter", "mode": "lines", "x": plot_values(band["x"]), "legendgroup": group,
            "line": {"color": color, "width": 0, "shape": shape}}
    text = _band_text(band)
    return [
        {**edge, "y": low, "name": f"{label}: {text} (lower edge)", "showlegend": False, "hoverinfo": "skip"},
        {**edge, "y": plot_values(band["high"]), "name": f"{label}: {text}", "fill": "tonexty",
         "fillcolor": rgba(color, 0.2), "customdata": low,
         "hovertemplate": (f"{text}<br>{xs} %{{x:.4f}}<br>{ys} %{{customdata:.4f}} to %{{y:.4f}}"
                           f"<extra>{ptext(band.get('method', ''))}</extra>")},
    ]


def _layer_bands(traces: list[dict[str, Any]], views: list[set[str]]) -> None:
    """Draw every band (pairs of edge traces) beneath every curve, above the chart's guide (the
    first trace), yet list each band right after its curve in the legend. In place, keeping
    ``views`` aligned with ``traces``."""
    def is_band(i: int) -> bool:
        return str(traces[i].get("legendgroup", "")).endswith(":band")

    if not any(is_band(i) for i in range(len(traces))):
        return
    order = sorted(range(len(traces)), key=lambda i: 0 if i == 0 else 1 if is_band(i) else 2)
    traces[:], views[:] = [traces[i] for i in order], [views[i] for i in order]
    curve_at = {t["legendgroup"]: i for i, t in enumerate(traces)
                if t.get("legendgroup") and t.get("showlegend", True)}
    for i, t in enumerate(traces):
        t["legendrank"] = curve_at[t["legendgroup"][:-len(":band")]] + 0.5 if is_band(i) else i


def curve_figure(models: list[Model], kind: str) -> dict[str, Any] | None:
    """ROC or PR chart: every model's curves, its operating points, and the chart's guides."""
    shown = [m for m in models if m.curves(kind)]
    if not shown:
        return None
    multi = len(models) > 1
    xs, ys, xtitle, ytitle = AXIS[kind]
    area_label = "AUC" if kind == "roc" else "AP"
    traces: list[dict[str, Any]] = []
    views: list[set[str]] = []
    everywhere = {"compare", *(m.key for m in shown)}

    def add(trace: dict[str, Any], in_views: set[str]) -> None:
        traces.append(trace)
        views.append(in_views)

    if kind == "roc":
        add({"type": "scatter", "x": [0, 1], "y": [0, 1], "mode": "lines", "name": "chance",
             "line": {"color": "#8c959f", "dash": "dash", "width": 1}, "hoverinfo": "skip"}, everywhere)
    else:
        iso_x: list[float | None] = []
        iso_y: list[float | None] = []
        for f in (0.2, 0.4, 0.6, 0.8):
            for j in range(60):
                x = f / 2 + (1 - f / 2) * ((j + 1) / 60) ** 1.5
                iso_x.append(x)
                iso_y.append(f * x / (2 * x - f))
            iso_x.append(None)
            iso_y.append(None)
        add({"type": "scatter", "x": iso_x, "y": iso_y, "mode": "lines", "name": "iso-F1 lines",
             "line": {"color": "#c5ccd3", "width": 1}, "hoverinfo": "skip"}, everywhere)

    baselines: dict[float, int] = {}  # PR baseline (prevalence) -> index of its trace
    for m in shown:
        main = m.main_curve(kind)
        for cname, c in m.curves(kind).items():
            in_views = {m.key, "compare"} if cname == main else {m.key}
            color, dash, width, label = curve_style(m, kind, cname, multi)
            area = finite_number(c.get("area"))
            full = f"{label} ({area_label} {area:.3f})" if area is not None else label
            thresholds = [fmt_threshold(t) for t in c.get("thresholds") or []]
            group = f"{m.key}:{cname}"
            stepped = kind == "pr" and not (m.task != "binary" and cname == "macro")
            band = m.bands(kind).get(cname)
            if band is not None:
                for trace in _band_traces(band, color, label, f"{group}:band", kind, stepped):
                    add(trace, in_views)
            add({
                "type": "scatter", "mode": "lines", "name": full, "legendgroup": group,
                "x": plot_values(c["x"]), "y": plot_values(c["y"]), "customdata": thresholds,
                "line": {"color": color, "dash": dash, "width": width, "shape": "vh" if stepped else "linear"},
                "hovertemplate": f"threshold %{{customdata}}<br>{xs} %{{x:.4f}}<br>{ys} %{{y:.4f}}",
            }, in_views)
            op = c.get("operating_point") or {}
            ox, oy = finite_number(op.get("x")), finite_number(op.get("y"))
            if ox is not None and oy is not None:
                thr = fmt_threshold(op.get("threshold")) if op.get("threshold") is not None else "argmax"
                add({
                    "type": "scatter", "mode": "markers", "name": f"{full}: operating point",
                    "legendgroup": group, "showlegend": False, "x": [ox], "y": [oy], "customdata": [thr],
                    "marker": {"color": color, "size": 10, "line": {"color": "#ffffff", "width": 1.5}},
                    "hovertemplate": f"operating point<br>threshold %{{customdata}}<br>{xs} %{{x:.4f}}<br>{ys} %{{y:.4f}}",
                }, in_views)
        if kind == "pr" and main is not None:
            in_views = {m.key, "compare"}
            color = m.color if multi or m.task != "binary" else CLASS_COLORS[0]
            prefix = f"{ptext(m.name)}: " if multi else ""
            base = m.prevalence(kind, main)
            if base is not None and round(base, 12) in baselines:
                # models on the same data share one baseline
                views[baselines[round(base, 12)]].add(m.key)
                traces[baselines[round(base, 12)]]["name"] = f"baseline (prevalence {base:.3f})"
                traces[baselines[round(base, 12)]]["line"]["color"] = "#8c959f"
            elif base is not None:
                baselines[round(base, 12)] = len(traces)
                add({"type": "scatter", "mode": "lines", "x": [0, 1], "y": [base, base],
                     "name": f"{prefix}baseline (prevalence {base:.3f})",
                     "line": {"color": color, "dash": "dash", "width": 1}, "opacity": 0.6,
                     "hovertemplate": "baseline: precision of random guessing %{y:.4f}<extra></extra>"}, in_views)
            be = m.data.get("break_even") or {}
            v = finite_number(be.get("value"))
            if v is not None:
                add({"type": "scatter", "mode": "markers", "x": [v], "y": [v],
                     "customdata": [fmt_threshold(be.get("threshold"))],
                     "name": f"{prefix}break-even point ({v:.3f})",
                     "marker": {"color": color, "symbol": "diamond", "size": 11,
                                "line": {"color": "#ffffff", "width": 1.5}},
                     "hovertemplate": "break-even point<br>precision = recall = %{x:.4f}<br>"
                                      "threshold %{customdata}<extra></extra>"}, in_views)

    _layer_bands(traces, views)
    default = "compare" if multi else shown[0].key
    for t, v in zip(traces, views):
        t["visible"] = default in v
    title = "ROC curves" if kind == "roc" else "Precision-recall curves"
    layout = unit_square_layout(title, 600, xtitle, ytitle, top=72)
    if kind == "pr":
        # label each iso-F1 line just outside the right edge, where it ends
        layout["annotations"] = [
            {"x": 1.0, "y": f / (2 - f), "text": f"F1 {f:g}", "showarrow": False, "xanchor": "left",
             "xshift": 8, "yanchor": "middle", "font": {"size": 10, "color": "#8c959f"}}
            for f in (0.2, 0.4, 0.6, 0.8)
        ]
        layout["margin"]["r"] = 56
    if multi:
        layout["updatemenus"] = view_menu(shown, views, "compare models", traces)
    return {"id": f"{kind}-curves", "kind": "2d", "data": traces, "layout": layout}


def threshold_figure(models: list[Model], kind: str) -> dict[str, Any] | None:
    """3-D view of a curve against its thresholds (x: FPR/recall, y: threshold, z: TPR/precision)."""
    shown = [m for m in models if m.curves(kind)]
    if not shown:
        return None
    multi = len(models) > 1
    xs, zs, xtitle, ztitle = AXIS[kind]
    traces: list[dict[str, Any]] = []
    views: list[set[str]] = []
    for m in shown:
        main = m.main_curve(kind)
        for cname, c in m.curves(kind).items():
            x, z, thr = c.get("x") or [], c.get("y") or [], c.get("thresholds") or []
            # synthetic end points have an infinite threshold (no height: a gap in the line),
            # averaged curves none at all; x and z are the 2-D chart's, so the page holds them once
            if len(thr) != len(x) or all(finite_number(t) is None for t in thr):
                continue
            color, dash, width, label = curve_style(m, kind, cname, multi)
            in_views = {m.key, "compare"} if cname == main else {m.key}
            group = f"{m.key}:{cname}"
            traces.append({
                "type": "scatter3d", "mode": "lines+markers", "name": label, "legendgroup": group,
                "x": plot_values(x), "y": plot_values(thr), "z": plot_values(z),
                "line": {"color": color, "width": max(3.0, width + 1)},
                "marker": {"color": color, "size": 2},
                "hovertemplate": f"{xs} %{{x:.4f}}<br>threshold %{{y:.6g}}<br>{zs} %{{z:.4f}}",
            })
            views.append(in_views)
            op = c.get("operating_point") or {}
            ox, oz, ot = finite_number(op.get("x")), finite_number(op.get("y")), finite_number(op.get("threshold"))
            if ox is not None and oz is not None and ot is not None:
                traces.append({
                    "type": "scatter3d", "mode": "markers", "name": f"{label}: operating point",
                    "legendgroup": group, "showlegend": False, "x": [ox], "y": [ot], "z": [oz],
                    "marker": {"color": color, "size": 6, "symbol": "diamond",
                               "line": {"color": "#ffffff", "width": 1}},
                    "hovertemplate": f"operating point<br>{xs} %{{x:.4f}}<br>threshold %{{y:.6g}}<br>{zs} %{{z:.4f}}",
                })
                views.append(in_views)
    if not traces:
        return None
    default = "compare" if multi else shown[0].key
    for t, v in zip(traces, views):
        t["visible"] = default in v
    title = "ROC against threshold" if kind == "roc" else "Precision and recall against threshold"
    layout = base_layout(title, 600)
    axis = {"backgroundcolor": "#f6f8fa", "gridcolor": "#d1d9e0", "showbackground": True,
            "zerolinecolor": "#8c959f"}
    layout["scene"] = {
        "xaxis": {"title": {"text": xtitle}, "range": [0, 1], **axis},
        # the threshold falls away from the viewer, as in the static 3-D views
        # (clfeval.plot.threshold3d): the curve ends on the far wall
        "yaxis": {"title": {"text": "threshold"}, "autorange": "reversed", **axis},
        "zaxis": {"title": {"text": ztitle}, "range": [0, 1], **axis},
        "aspectmode": "cube",
        # orthographic: a point's height on the screen does not depend on its depth
        "camera": {"eye": {"x": 1.1, "y": -1.9, "z": 0.9}, "center": {"x": 0, "y": 0, "z": -0.12},
                   "projection": {"type": "orthographic"}},
    }
    layout["legend"] = {"orientation": "h", "x": 0, "xanchor": "left", "y": 0, "yanchor": "top",
                        "font": {"size": 11}}
    layout["margin"] = {"l": 8, "r": 8, "t": 72, "b": 8}
    if multi:
        layout["updatemenus"] = view_menu(shown, views, "compare models", traces)
    return {"id": f"{kind}-threshold-3d", "kind": "3d", "data": traces, "layout": layout}


def bands_hint(models: list[Model]) -> str:
    """A sentence on the shaded bands of the curve charts ('' without any)."""
    texts = sorted({_band_text(b) for m in models for kind in ("roc", "pr") for b in m.bands(kind).values()})
    if not texts:
        return ""
    return (f" Shaded areas are {' and '.join(texts)}s: at each false positive rate (ROC) or recall (PR), "
            "the range that holds the curve in that share of bootstrap resamples of the scores (hover "
            "an upper edge for the method). They qualify each point, not the whole curve at once.")
