"""The HTML report's "Thresholds, costs and calibration" section of one model.

Reads the entries of :meth:`clfeval.evaluation.Evaluation.thresholds_dict` from the model's dict:
the operating points as a table, and three charts: the reliability diagram (with the samples per
bin), Drummond and Holte's cost curve (lower envelope, trivial classifiers, the line of the
current predictions) and the decision curve (net benefit, treat all, treat none).

>>> import clfeval
>>> from clfeval.report.html_model import page_models
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
>>> [f["id"] for f in decision_figures(page_models([ev])[0])]
['reliability-1', 'cost-curve-1', 'decision-curve-1']
"""

from __future__ import annotations

from typing import Any

from clfeval.report.html_charts import chart_div, unit_square_layout
from clfeval.report.html_format import esc, fmt, fmt_threshold
from clfeval.report.html_model import Model
from clfeval.report.html_corp import corp_traces
from clfeval.report.calibration_text import calibration_modern_line

__all__ = ["decision_figures", "decision_section"]

_LINE = {"width": 2.5}
_GREY = {"color": "#6e7781", "dash": "dash", "width": 1.5}


def _reliability_figure(m: Model, cal: dict[str, Any]) -> dict[str, Any]:
    """Observed frequency against mean predicted probability, and beneath it, on an axis of its
    own, a histogram of the samples per bin (sharing the probability axis)."""
    rel = cal["reliability"]
    xs, ys, counts = rel["mean_predicted"], rel["observed"], rel["weight"]
    edges = rel["edges"]
    centers = [(a + b) / 2 for a, b in zip(edges[:-1], edges[1:])]
    widths = [b - a for a, b in zip(edges[:-1], edges[1:])]
    top = max([c for c in counts if c] or [1])
    layout = unit_square_layout(f"Reliability \u00b7 {m.name} (ECE {fmt(cal['ece'])})", 600,
                                 "mean predicted probability", "observed frequency", 64)
    # the diagram above, the histogram below: two y axes, one probability axis drawn twice
    # (tick labels only under the histogram)
    layout["yaxis"]["domain"] = [0.3, 1.0]
    layout["xaxis"]["showticklabels"] = False
    layout["xaxis2"] = {**layout["xaxis"], "showticklabels": True, "anchor": "y2", "matches": "x"}
    layout["xaxis"]["title"] = {"text": ""}
    layout["yaxis2"] = {"domain": [0.0, 0.2], "anchor": "x2", "range": [0, top * 1.08], "rangemode": "tozero",
                        "title": {"text": "samples"}, "nticks": 3, "gridcolor": "#eaeef2", "linecolor": "#8c959f",
                        "mirror": True, "ticks": "outside", "zeroline": False, "automargin": True}
    return {"id": f"reliability-{m.index + 1}", "kind": "2d", "layout": layout, "data": [
        {"type": "bar", "x": centers, "y": counts, "width": widths, "xaxis": "x2", "yaxis": "y2",
         "name": "samples per bin", "marker": {"color": "rgba(9,105,218,0.35)", "line": {"color": "#ffffff", "width": 1}},
         "hovertemplate": "%{y} samples<extra></extra>"},
        {"type": "scatter", "mode": "lines", "x": [0, 1], "y": [0, 1], "name": "perfectly calibrated",
         "line": _GREY, "hoverinfo": "skip"},
        {"type": "scatter", "mode": "lines+markers", "x": xs, "y": ys, "name": m.name, "connectgaps": False,
         "line": {**_LINE, "color": m.color},
         "hovertemplate": "predicted %{x:.3f}<br>observed %{y:.3f}<extra></extra>"},
        *corp_traces(cal.get("corp"), m.color),
    ]}


def _cost_figure(m: Model, cc: dict[str, Any]) -> dict[str, Any]:
    layout = unit_square_layout(f"Cost curve \u00b7 {m.name} (area {fmt(cc['area'])})", 480,
                                 "probability cost PC(+)", "normalised expected cost", 64)
    layout["yaxis"]["range"] = [-0.01, 0.52]
    data = [
        {"type": "scatter", "mode": "lines", "x": [0, 0.5, 1], "y": [0, 0.5, 0], "name": "trivial classifiers",
         "line": _GREY, "hoverinfo": "skip"},
        {"type": "scatter", "mode": "lines", "x": cc["envelope_pc"], "y": cc["envelope_nec"],
         "name": "lower envelope (best threshold at each PC)", "line": {**_LINE, "color": m.color},
         "hovertemplate": "PC %{x:.3f}<br>cost %{y:.4f}<extra></extra>"},
    ]
    op = cc.get("operating_line")
    if op and op.get("fpr") is not None and op.get("fnr") is not None:
        data.append({"type": "scatter", "mode": "lines", "x": [0, 1], "y": [op["fpr"], op["fnr"]],
                     "name": "current predictions", "line": {"color": m.color, "dash": "dot", "width": 1.5}})
    return {"id": f"cost-curve-{m.index + 1}", "kind": "2d", "layout": layout, "data": data}


def _decision_figure(m: Model, dc: dict[str, Any]) -> dict[str, Any]:
    layout = unit_square_layout(f"Decision curve \u00b7 {m.name}", 480, "threshold probability", "net benefit", 64)
    prevalence = float(dc["prevalence"])
    layout["yaxis"]["range"] = [-0.1 * prevalence, 1.05 * prevalence]
    t = dc["thresholds"]
    return {"id": f"decision-curve-{m.index + 1}", "kind": "2d", "layout": layout, "data": [
        {"type": "scatter", "mode": "lines", "x": t, "y": dc["treat_all"], "name": "treat all",
         "line": {"color": "#6e7781", "dash": "dashdot", "width": 1.5}},
        {"type": "scatter", "mode": "lines", "x": [0, 1], "y": [0, 0], "name": "treat none", "line": _GREY},
        {"type": "scatter", "mode": "lines", "x": t, "y": dc["net_benefit"], "name": m.name,
         "line": {**_LINE, "color": m.color},
         "hovertemplate": "threshold %{x:.2f}<br>net benefit %{y:.4f}<extra></extra>"},
    ]}


def decision_figures(m: Model) -> list[dict[str, Any]]:
    """The model's reliability, cost-curve and decision-curve charts (those its data have)."""
    d = m.data
    out = []
    if d.get("calibration") and "error" not in d["calibration"]:
        out.append(_reliability_figure(m, d["calibration"]))
    if d.get("cost_curve"):
        out.append(_cost_figure(m, d["cost_curve"]))
    if d.get("decision_curve"):
        out.append(_decision_figure(m, d["decision_curve"]))
    return out


def _points_table(points: dict[str, dict[str, Any]]) -> str:
    head = ("curve", "rule", "threshold", "value", "precision", "recall", "specificity", "F1", "TP", "FP", "FN", "TN")
    rows = []
    for curve, by_rule in points.items():
        for rule, p in by_rule.items():
            if "error" in p:
                cells = [esc(curve), esc(rule), f'<td colspan="10" class="hint">{esc(p["error"])}</td>']
                rows.append("<tr><td>" + "</td><td>".join(cells[:2]) + "</td>" + cells[2] + "</tr>")
                continue
            values = [esc(curve), esc(rule), esc(fmt_threshold(p["threshold"])), fmt(p["value"])]
            values += [fmt(p[k]) for k in ("precision", "recall", "specificity", "f1")]
            values += [esc(f"{p[k]:g}") for k in ("tp", "fp", "fn", "tn")]
            rows.append("<tr>" + "".join(f"<td>{v}</td>" for v in values) + "</tr>")
    return ('<div class="table-wrap"><table class="numbers points"><thead><tr>' + "".join(f"<th>{h}</th>" for h in head)
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>")


def decision_section(m: Model, by_id: dict[str, dict[str, Any]]) -> str:
    """The section's HTML ('' when the model has no scores)."""
    d = m.data
    points, costs, cal = d.get("operating_points"), d.get("costs"), d.get("calibration")
    cal_error = cal["error"] if cal and "error" in cal else None
    if cal_error:
        cal = None
    figs = [by_id[f"{name}-{m.index + 1}"] for name in ("reliability", "cost-curve", "decision-curve")
            if f"{name}-{m.index + 1}" in by_id]
    if not (points or costs or figs or cal_error):
        return ""
    parts = [f'<section class="decisions" id="decisions-{m.index + 1}"><h2>Thresholds, costs and calibration'
             f": {esc(m.name)}</h2>"]
    if points:
        parts.append('<h3>Operating points</h3><p class="hint">Where each rule puts the threshold (predict '
                     "positive where score &ge; threshold) and what the predictions are there; "
                     "<code>ev.at(threshold)</code> or <code>clfeval report --threshold RULE</code> applies one.</p>")
        parts.append(_points_table(points))
    if costs:
        parts.append(f'<p>Costs {esc(costs["matrix"])}: expected cost <b>{fmt(costs["expected_cost"])}</b> per '
                     f'sample, cost-sensitive error rate <b>{fmt(costs["cost_sensitive_error_rate"])}</b>.</p>')
    if cal:
        dec = cal["decomposition"]
        parts.append(
            f'<p>Calibration ({esc(cal["mode"])}, {cal["n_bins"]} {esc(cal["strategy"])} bins): ECE '
            f'<b>{fmt(cal["ece"])}</b> (L2 {fmt(cal["ece_l2"])}, max {fmt(cal["ece_max"])}); Brier '
            f'{fmt(cal["brier"])} = reliability {fmt(dec["reliability"])} &minus; resolution '
            f'{fmt(dec["resolution"])} + uncertainty {fmt(dec["uncertainty"])} (+ within-bin terms); '
            f'log loss {fmt(cal["log_loss"])}.</p>')
        modern = calibration_modern_line(cal, fmt)
        if modern:  # smooth ECE and the CORP decomposition, beside the binned ECE
            parts.append(f"<p>{esc(modern)}.</p>")
    if cal_error:
        parts.append(f'<p class="hint">Calibration not computed: {esc(cal_error)}</p>')
    if figs:
        parts.append('<div class="charts">' + "".join(chart_div(f) for f in figs) + "</div>")
    parts.append("</section>")
    return "".join(parts)
