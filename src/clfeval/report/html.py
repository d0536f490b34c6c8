"""One self-contained HTML page for one or several evaluations: tables, interactive charts, 3-D views.

The page works offline and from ``file://``: plotly.js is embedded once, inline; styles and
scripts are inline; fonts are the reader's system fonts; a Content-Security-Policy forbids any
network access. It holds, for each model, the headline numbers, the classification report and an
interactive confusion matrix (counts or shares by true class, by predicted class or of all);
then ROC and precision-recall charts (per class, micro and macro for multi-class; operating points,
chance diagonal, iso-F1 lines, break-even point and baseline), and 3-D threshold views
(FPR-threshold-TPR, recall-threshold-precision). Several models are compared in a summary table
and overlaid in the charts, whose menu also shows each model on its own.

Everything is read from ``Evaluation.to_dict()`` (a dict in that schema, e.g. a loaded
``to_json`` file, works too). plotly is imported only when a page is made.

Pointwise confidence bands of the ROC and PR curves are shaded when asked for
(``render_html(ev, bands=0.95)``) or when a dict carries a "bands" entry (:func:`bands_dict`);
each band is one legend entry, so a click hides or shows it.

>>> import clfeval
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="demo")
>>> page = render_html(ev, title="Demo")
>>> page.startswith("<!DOCTYPE html>"), page.count(' data-chart="')  # 1 heat map, 3 decision charts, 2 curves, 2 3-D views
(True, 8)
"""

from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from numbers import Real
from pathlib import Path
from typing import Any

from ..column_roles import columns_html
from .html_assets import BOOT_JS, CLASS_COLORS, CSP, CSS, FONT_STACK, MODEL_COLORS

__all__ = ["render_html", "write_html", "figures", "bands_dict", "cross_validation_dict"]

#: (key of report["overall"], display title, higher is better)
HEADLINE: tuple[tuple[str, str, bool], ...] = (
    ("accuracy", "accuracy", True),
    ("balanced_accuracy", "balanced accuracy", True),
    ("mcc", "MCC", True),
    ("kappa", "Cohen's kappa", True),
    ("roc_auc", "ROC AUC", True),
    ("average_precision", "AP", True),
    ("hamming_loss", "Hamming loss", False),
)

_DASH = "\u2014"  # em dash: an undefined or missing value
_BLUES = [
    [0.0, "#f7fbff"], [0.125, "#deebf7"], [0.25, "#c6dbef"], [0.375, "#9ecae1"], [0.5, "#6baed6"],
    [0.625, "#4292c6"], [0.75, "#2171b5"], [0.875, "#08519c"], [1.0, "#08306b"],
]
_AXIS = {"roc": ("FPR", "TPR", "false positive rate (FPR)", "true positive rate (TPR)"),
         "pr": ("recall", "precision", "recall", "precision")}
#: The legend of a 2-D chart: in rows along the frame's bottom edge (placed in the frame, not
#: relative to the axes, so that it never meets the x-axis title however tall the legend is).
BELOW_AXES_LEGEND = {"orientation": "h", "x": 0, "xanchor": "left", "yref": "container", "y": 0,
                     "yanchor": "bottom", "font": {"size": 11}}
_PLOT_CONFIG = {
    "responsive": True,
    "displaylogo": False,
    "typesetMath": False,  # a class named "$x$" is text, not LaTeX to fetch MathJax for
    # plotly.js >= 3 has a "Share chart..." button that uploads the data to Plotly Cloud: none here
    "showSendToCloud": False,
    "showEditInChartStudio": False,
    "showLink": False,
    "plotlyServerURL": "",
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"],
}


# -- small helpers -----------------------------------------------------------------------------


def _esc(value: Any) -> str:
    """Text for HTML content and attribute values."""
    return html.escape(str(value), quote=True)


def _ptext(value: Any) -> str:
    """Text for plotly, which reads its strings as a little HTML: show them literally.

    >>> _ptext("<b>a & b</b>")
    '&lt;b&gt;a &amp; b&lt;/b&gt;'
    """
    return str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _script_json(obj: Any) -> str:
    """Strict JSON that cannot end or confuse the <script> element it is placed in.

    >>> _script_json({"name": "</script><!--"})
    '{"name":"\\\\u003c/script\\\\u003e\\\\u003c!--"}'
    """
    text = json.dumps(obj, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


def _num(value: Any) -> float | None:
    """A number from to_dict() or its JSON form ("inf" strings, None) as float; None if none."""
    if value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _finite(value: Any) -> float | None:
    x = _num(value)
    return x if x is not None and math.isfinite(x) else None


def _clean(values: Sequence[Any]) -> list[float | None]:
    """Plot coordinates: NaN, infinities and missing values become gaps (null)."""
    return [_finite(v) for v in values]


def _fmt(value: Any, digits: int = 4) -> str:
    """A metric for display: fixed digits; NaN and None as an em dash.

    >>> _fmt(0.123456), _fmt(float("nan")), _fmt(None), _fmt("inf")
    ('0.1235', '—', '—', '+∞')
    """
    x = _num(value)
    if x is None or math.isnan(x):
        return _DASH
    if math.isinf(x):
        return "+\u221e" if x > 0 else "\u2212\u221e"
    return f"{x:.{digits}f}"


def _fmt_count(value: Any) -> str:
    """A count or a total weight: integers as such, weights with 4 decimals."""
    x = _num(value)
    if x is None or not math.isfinite(x):
        return _fmt(value)
    return str(int(x)) if x.is_integer() and abs(x) < 2**53 else f"{x:.4f}"


def _fmt_threshold(value: Any) -> str:
    """A threshold for hover text.

    >>> _fmt_threshold("inf"), _fmt_threshold(0.123456789), _fmt_threshold(None)
    ('+∞', '0.123457', '—')
    """
    x = _num(value)
    if x is None or math.isnan(x):
        return _DASH
    if math.isinf(x):
        return "+\u221e" if x > 0 else "\u2212\u221e"
    return f"{x:.6g}"


def _plotly_js() -> str:
    """The plotly.js bundle, made safe to place inside a <script> element."""
    try:
        from plotly.offline import get_plotlyjs
    except ImportError as exc:
        raise ImportError(
            "The HTML report needs plotly: pip install 'clfeval[report]'"
        ) from exc
    # "</script" can only occur in strings, regular expressions and comments, where "<\/" reads
    # the same; the bundle has none today, this keeps it that way.
    return get_plotlyjs().replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT")


# -- the models ----------------------------------------------------------------------------------


@dataclass
class _Model:
    index: int
    name: str
    data: dict[str, Any]
    color: str
    #: set when the model is the pooled Evaluation of a cross-evaluation: how it was pooled
    pooled_from: str | None = None

    @property
    def key(self) -> str:
        return f"m{self.index}"

    @property
    def task(self) -> str:
        return str(self.data.get("task"))

    @property
    def names(self) -> list[str]:
        return [str(n) for n in self.data.get("names") or []]

    @property
    def report(self) -> dict[str, Any]:
        return self.data["report"]

    def curves(self, kind: str) -> dict[str, dict[str, Any]]:
        return dict(self.data.get(kind) or {})

    def bands(self, kind: str) -> dict[str, dict[str, Any]]:
        """Curve name -> pointwise band (a ``CurveBand.to_dict()``), of the curves that have one."""
        return dict((self.data.get("bands") or {}).get(kind) or {})

    def main_curve(self, kind: str) -> str | None:
        curves = self.curves(kind)
        if not curves:
            return None
        main = self.data.get("main_curve")
        if main in curves:
            return str(main)
        if len(curves) == 1:
            return next(iter(curves))
        return "micro" if "micro" in curves else next(iter(curves))

    def class_index(self, kind: str, curve: str) -> int | None:
        """Index of the class a curve belongs to; None for the micro and macro averages."""
        keys = list(self.curves(kind))
        if self.task == "binary":
            return self.names.index(curve) if curve in self.names else None
        i = keys.index(curve)
        return i if i < len(self.names) else None

    def prevalence(self, kind: str, curve: str) -> float | None:
        """Share of positives of a curve's class (micro: of all class/sample pairs)."""
        pc = (self.data.get("confusion") or {}).get("per_class") or {}
        try:
            tp, fn, fp, tn = ([_num(v) or 0.0 for v in pc[k]] for k in ("tp", "fn", "fp", "tn"))
        except KeyError:
            return None
        i = self.class_index(kind, curve)
        if i is not None:
            pos, total = tp[i] + fn[i], tp[i] + fn[i] + fp[i] + tn[i]
        elif curve == "micro":
            pos, total = sum(tp) + sum(fn), sum(tp) + sum(fn) + sum(fp) + sum(tn)
        else:
            return None
        return pos / total if total > 0 else None


def _as_dict(evaluation: Any, bands: float | None = None) -> dict[str, Any]:
    if isinstance(evaluation, Mapping):
        data = dict(evaluation)
    elif callable(getattr(evaluation, "to_dict", None)):
        data = evaluation.to_dict()
        if bands is not None and getattr(evaluation, "has_scores", False):
            data["bands"] = bands_dict(evaluation, bands)
    else:
        raise TypeError(
            f"expected an Evaluation (from clfeval.evaluate) or its to_dict(), got {type(evaluation).__name__}."
        )
    missing = [k for k in ("task", "names", "report", "confusion") if k not in data]
    if missing:
        raise ValueError(f"not an Evaluation.to_dict(): the keys {missing} are missing.")
    _check_bands(data.get("bands"))
    return data


def _check_bands(bands: Any) -> None:
    """A ValueError that names the curve when a "bands" entry is not in :func:`bands_dict`'s form."""
    if bands is None:
        return
    if not isinstance(bands, Mapping) or set(bands) - {"roc", "pr"}:
        raise ValueError('"bands" must be a dict {"roc": {curve: band}, "pr": {curve: band}} (see bands_dict).')
    for kind, per_curve in bands.items():
        for curve, band in (per_curve or {}).items():
            sizes = {len(band.get(k) or []) for k in ("x", "low", "high")} if isinstance(band, Mapping) else set()
            if len(sizes) != 1 or 0 in sizes:
                raise ValueError(f'bands["{kind}"]["{curve}"] must be a CurveBand.to_dict(): "x", "low" and '
                                 '"high" lists of the same, non-zero length.')


def bands_dict(evaluation: Any, level: float = 0.95, *, n_resamples: int = 2000, seed: Any = 0) -> dict[str, Any]:
    """Pointwise bootstrap bands of the main ROC and PR curves of an Evaluation, in the form the
    page reads from a dict's "bands" entry: ``{"roc": {curve: CurveBand.to_dict()}, "pr": ...}``.

    Only the main curve (binary: the positive class; otherwise "micro") gets a band: each costs
    a bootstrap (about 0.1 to 1 s at 2000 resamples), a page would need two per class, and a
    dozen overlapping shaded areas hide the curves they are meant to qualify. For a class's
    band, add ``ev.band(kind, class_name).to_dict()`` under its curve name.

    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 1, 1, 0, 1, 0], y_score=[.2, .9, .6, .4, .3, .5])
    >>> b = bands_dict(ev, 0.9, n_resamples=200)
    >>> list(b["roc"]), b["pr"]["1"]["level"]
    (['1'], 0.9)
    """
    level = _bands_level(level)
    if evaluation.roc is None:
        raise ValueError("this evaluation has no scores, so it has no curves to band: pass y_score to evaluate().")
    out: dict[str, Any] = {}
    for kind in ("roc", "pr"):
        name = getattr(evaluation, kind).main_name
        band = evaluation.band(kind, name, level=level, n_resamples=n_resamples, seed=seed)
        out[kind] = {name: band.to_dict()}
    return out


def _bands_level(bands: Any) -> float:
    if isinstance(bands, bool) or not isinstance(bands, Real) or not 0.0 < float(bands) < 1.0:
        raise ValueError(f"bands must be a confidence level strictly between 0 and 1 (e.g. 0.95) or None, "
                         f"got {bands!r}.")
    return float(bands)


def _is_cross_evaluation(obj: Any) -> bool:
    if not hasattr(obj, "folds"):
        return False
    from ..cross_evaluation import CrossEvaluation

    return isinstance(obj, CrossEvaluation)


def _items(evaluations: Any) -> list[Any]:
    if isinstance(evaluations, Mapping) or callable(getattr(evaluations, "to_dict", None)):
        return [evaluations]
    return list(evaluations)


def _models(evaluations: Any, bands: float | None = None) -> list[_Model]:
    if bands is not None:
        bands = _bands_level(bands)
    items = _items(evaluations)
    if not items:
        raise ValueError("write_html needs at least one Evaluation, got none.")
    pooling = [e.pooling if _is_cross_evaluation(e) else None for e in items]
    items = [e.pooled if _is_cross_evaluation(e) else e for e in items]
    datas = [_as_dict(e, bands) for e in items]
    multi = len(datas) > 1
    names: list[str] = []
    for i, d in enumerate(datas):
        base = str(d["name"]) if d.get("name") not in (None, "") else (f"model {i + 1}" if multi else "model")
        name, n = base, 2
        while name in names:
            name, n = f"{base} ({n})", n + 1
        names.append(name)
    return [_Model(i, nm, d, MODEL_COLORS[i % len(MODEL_COLORS)], pooling[i])
            for i, (nm, d) in enumerate(zip(names, datas))]


# -- figures (plain dicts in plotly's JSON form) ------------------------------------------------------


def _base_layout(title: str, height: int) -> dict[str, Any]:
    return {
        # the title's top edge a fixed 14 px below the frame's, whatever the top margin, so that
        # a menu placed between it and the axes (see _view_menu) never reaches it
        "title": {"text": title, "x": 0.02, "xanchor": "left", "font": {"size": 16},
                  "yref": "container", "y": 1, "yanchor": "top", "pad": {"t": 14}},
        "height": height,
        "font": {"family": FONT_STACK, "size": 12, "color": "#1f2328"},
        "paper_bgcolor": "#ffffff",
        "plot_bgcolor": "#ffffff",
        "margin": {"l": 64, "r": 24, "t": 64, "b": 56},
        "hoverlabel": {"font": {"family": FONT_STACK}},
    }


def _unit_square_layout(title: str, height: int, xtitle: str, ytitle: str, top: int) -> dict[str, Any]:
    """Layout of a curve chart on the unit square (ROC / PR), legend below the axes."""
    layout = _base_layout(title, height)
    pad = {"range": [-0.02, 1.02], "zeroline": False, "gridcolor": "#eaeef2", "linecolor": "#8c959f",
           "mirror": True, "ticks": "outside", "automargin": True}
    layout["xaxis"] = {"title": {"text": xtitle}, **pad, "constrain": "domain"}
    layout["yaxis"] = {"title": {"text": ytitle}, **pad}
    layout["legend"] = BELOW_AXES_LEGEND
    layout["margin"] = {"l": 64, "r": 24, "t": top, "b": 24}
    layout["hovermode"] = "closest"
    return layout


def _view_menu(models: list[_Model], views: list[set[str]], compare_label: str,
               traces: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """A dropdown that shows all models' main curves, or one model's curves.

    With ``traces``, a model's own view names its curves without the "model \u00b7 " prefix
    they need side by side, so that its legend (all its classes) stays short.
    """
    keys = ["compare", *(m.key for m in models)]
    labels = [compare_label, *(_ptext(m.name) for m in models)]
    names = [str(t.get("name", "")) for t in traces or []]
    buttons = []
    for key, label in zip(keys, labels):
        change: dict[str, Any] = {"visible": [key in v for v in views]}
        if names:
            prefix = next((f"{_ptext(m.name)} \u00b7 " for m in models if m.key == key), None)
            short = [n[len(prefix):] if prefix and n.startswith(prefix) else n for n in names]
            if short != names or key == "compare":
                change["name"] = short
        buttons.append({"label": label, "method": "restyle", "args": [change]})
    return [{
        "type": "dropdown", "buttons": buttons, "active": 0, "showactive": True,
        "x": 1.0, "xanchor": "right", "y": 1.02, "yanchor": "bottom",
        "bgcolor": "#ffffff", "bordercolor": "#d1d9e0", "font": {"size": 12},
    }]


def _curve_style(m: _Model, kind: str, curve: str, multi: bool) -> tuple[str, str, float, str]:
    """(colour, dash, width, display name) of one curve."""
    ci = m.class_index(kind, curve)
    if m.task == "binary":
        label = _ptext(m.name) if multi else _ptext(curve)
        return (m.color if multi else CLASS_COLORS[0]), "solid", 2.5, label
    prefix = f"{_ptext(m.name)} \u00b7 " if multi else ""
    if ci is not None:
        return CLASS_COLORS[ci % len(CLASS_COLORS)], "solid", 1.8, prefix + _ptext(curve)
    average = {"micro": "micro-average", "macro": "macro-average"}.get(curve, _ptext(curve))
    color = m.color if multi else "#1f2328"
    return color, ("dash" if curve == "micro" else "dot"), 2.8, prefix + average


def _rgba(color: str, alpha: float) -> str:
    """A "#rrggbb" colour with an opacity, for plotly.

    >>> _rgba("#1f4e9c", 0.2)
    'rgba(31,78,156,0.2)'
    """
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha:g})"


def _band_text(band: Mapping[str, Any]) -> str:
    """ "95% pointwise band" for a band's legend entry.

    >>> _band_text({"level": 0.975})
    '97.5% pointwise band'
    """
    level = _num(band.get("level"))
    return ("" if level is None else f"{level * 100:.4g}% ") + "pointwise band"


def _band_traces(band: Mapping[str, Any], color: str, label: str, group: str, kind: str,
                 stepped: bool) -> list[dict[str, Any]]:
    """A band as two traces: its lower edge, then its upper edge filled down to it ("tonexty").

    They share a legend group with one entry, so a click on it hides or shows the whole band;
    the hover of the upper edge gives both ends and the method.
    """
    xs, ys = _AXIS[kind][:2]
    shape = "vh" if stepped else "linear"
    low = _clean(band["low"])
    edge = {"type": "scatter", "mode": "lines", "x": _clean(band["x"]), "legendgroup": group,
            "line": {"color": color, "width": 0, "shape": shape}}
    text = _band_text(band)
    return [
        {**edge, "y": low, "name": f"{label}: {text} (lower edge)", "showlegend": False, "hoverinfo": "skip"},
        {**edge, "y": _clean(band["high"]), "name": f"{label}: {text}", "fill": "tonexty",
         "fillcolor": _rgba(color, 0.2), "customdata": low,
         "hovertemplate": (f"{text}<br>{xs} %{{x:.4f}}<br>{ys} %{{customdata:.4f}} to %{{y:.4f}}"
                           f"<extra>{_ptext(band.get('method', ''))}</extra>")},
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


def _curve_figure(models: list[_Model], kind: str) -> dict[str, Any] | None:
    """ROC or PR chart: every model's curves, its operating points, and the chart's guides."""
    shown = [m for m in models if m.curves(kind)]
    if not shown:
        return None
    multi = len(models) > 1
    xs, ys, xtitle, ytitle = _AXIS[kind]
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
            color, dash, width, label = _curve_style(m, kind, cname, multi)
            area = _finite(c.get("area"))
            full = f"{label} ({area_label} {area:.3f})" if area is not None else label
            thresholds = [_fmt_threshold(t) for t in c.get("thresholds") or []]
            group = f"{m.key}:{cname}"
            stepped = kind == "pr" and not (m.task != "binary" and cname == "macro")
            band = m.bands(kind).get(cname)
            if band is not None:
                for trace in _band_traces(band, color, label, f"{group}:band", kind, stepped):
                    add(trace, in_views)
            add({
                "type": "scatter", "mode": "lines", "name": full, "legendgroup": group,
                "x": _clean(c["x"]), "y": _clean(c["y"]), "customdata": thresholds,
                "line": {"color": color, "dash": dash, "width": width, "shape": "vh" if stepped else "linear"},
                "hovertemplate": f"threshold %{{customdata}}<br>{xs} %{{x:.4f}}<br>{ys} %{{y:.4f}}",
            }, in_views)
            op = c.get("operating_point") or {}
            ox, oy = _finite(op.get("x")), _finite(op.get("y"))
            if ox is not None and oy is not None:
                thr = _fmt_threshold(op.get("threshold")) if op.get("threshold") is not None else "argmax"
                add({
                    "type": "scatter", "mode": "markers", "name": f"{full}: operating point",
                    "legendgroup": group, "showlegend": False, "x": [ox], "y": [oy], "customdata": [thr],
                    "marker": {"color": color, "size": 10, "line": {"color": "#ffffff", "width": 1.5}},
                    "hovertemplate": f"operating point<br>threshold %{{customdata}}<br>{xs} %{{x:.4f}}<br>{ys} %{{y:.4f}}",
                }, in_views)
        if kind == "pr" and main is not None:
            in_views = {m.key, "compare"}
            color = m.color if multi or m.task != "binary" else CLASS_COLORS[0]
            prefix = f"{_ptext(m.name)}: " if multi else ""
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
            v = _finite(be.get("value"))
            if v is not None:
                add({"type": "scatter", "mode": "markers", "x": [v], "y": [v],
                     "customdata": [_fmt_threshold(be.get("threshold"))],
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
    layout = _unit_square_layout(title, 600, xtitle, ytitle, top=72)
    if kind == "pr":
        # label each iso-F1 line just outside the right edge, where it ends
        layout["annotations"] = [
            {"x": 1.0, "y": f / (2 - f), "text": f"F1 {f:g}", "showarrow": False, "xanchor": "left",
             "xshift": 8, "yanchor": "middle", "font": {"size": 10, "color": "#8c959f"}}
            for f in (0.2, 0.4, 0.6, 0.8)
        ]
        layout["margin"]["r"] = 56
    if multi:
        layout["updatemenus"] = _view_menu(shown, views, "compare models", traces)
    return {"id": f"{kind}-curves", "kind": "2d", "data": traces, "layout": layout}


def _threshold_figure(models: list[_Model], kind: str) -> dict[str, Any] | None:
    """3-D view of a curve against its thresholds (x: FPR/recall, y: threshold, z: TPR/precision)."""
    shown = [m for m in models if m.curves(kind)]
    if not shown:
        return None
    multi = len(models) > 1
    xs, zs, xtitle, ztitle = _AXIS[kind]
    traces: list[dict[str, Any]] = []
    views: list[set[str]] = []
    for m in shown:
        main = m.main_curve(kind)
        for cname, c in m.curves(kind).items():
            x, z, thr = c.get("x") or [], c.get("y") or [], c.get("thresholds") or []
            # synthetic end points have an infinite threshold (no height: a gap in the line),
            # averaged curves none at all; x and z are the 2-D chart's, so the page holds them once
            if len(thr) != len(x) or all(_finite(t) is None for t in thr):
                continue
            color, dash, width, label = _curve_style(m, kind, cname, multi)
            in_views = {m.key, "compare"} if cname == main else {m.key}
            group = f"{m.key}:{cname}"
            traces.append({
                "type": "scatter3d", "mode": "lines+markers", "name": label, "legendgroup": group,
                "x": _clean(x), "y": _clean(thr), "z": _clean(z),
                "line": {"color": color, "width": max(3.0, width + 1)},
                "marker": {"color": color, "size": 2},
                "hovertemplate": f"{xs} %{{x:.4f}}<br>threshold %{{y:.6g}}<br>{zs} %{{z:.4f}}",
            })
            views.append(in_views)
            op = c.get("operating_point") or {}
            ox, oz, ot = _finite(op.get("x")), _finite(op.get("y")), _finite(op.get("threshold"))
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
    layout = _base_layout(title, 600)
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
        layout["updatemenus"] = _view_menu(shown, views, "compare models", traces)
    return {"id": f"{kind}-threshold-3d", "kind": "3d", "data": traces, "layout": layout}


def _confusion_width(k: int) -> int:
    """Widest the confusion matrix frame gets, in pixels, for k columns (wider for many classes)."""
    return min(1232, max(640, 300 + 56 * k))


def _confusion_figure(m: _Model) -> dict[str, Any] | None:
    """Heat map of the confusion matrix with buttons for counts and the three normalisations.

    Multilabel: one row per label with its TP, FN, FP and TN (counts, or shares of the label's rows).
    """
    conf = m.data.get("confusion") or {}
    names = [_ptext(n) for n in m.names]
    k = len(names)
    if not k or conf.get("cells") is not None:  # pair-coded (many classes): no heat map
        return None
    if conf.get("counts") is not None:
        counts = [[_num(v) for v in row] for row in conf["counts"]]
        norm = conf.get("normalized") or {}
        views = [("counts", "count", counts)]
        for by, label in (("true", "share of true class"), ("pred", "share of predicted class"),
                          ("all", "share of all")):
            if norm.get(by) is not None:
                views.append((f"by {'predicted' if by == 'pred' else by}", label,
                              [[_num(v) for v in row] for row in norm[by]]))
        x, y = names, names
        xtitle, ytitle = "predicted class", "true class"
        where = "true: %{y}<br>predicted: %{x}"
    else:
        pc = conf.get("per_class") or {}
        cols = ("tp", "fn", "fp", "tn")
        if not all(c in pc for c in cols):
            return None
        counts = [[_num(pc[c][i]) for c in cols] for i in range(k)]
        shares = []
        for row in counts:
            total = sum(v or 0.0 for v in row)
            shares.append([(v or 0.0) / total if total > 0 else None for v in row])
        views = [("counts", "count", counts), ("by label", "share of the label's samples", shares)]
        x, y = ["TP", "FN", "FP", "TN"], names
        xtitle, ytitle = "outcome (true positive, false negative, false positive, true negative)", "label"
        where = "label: %{y}<br>%{x}"

    def cell_text(v: float | None, is_count: bool) -> str:
        if v is None or not math.isfinite(v):
            return _DASH
        return _fmt_count(v) if is_count else f"{v:.3f}"

    texts = [[[cell_text(v, i == 0) for v in row] for row in z] for i, (_, _, z) in enumerate(views)]
    zs = [[[_finite(v) for v in row] for row in z] for _, _, z in views]
    # hover shows every view of the cell at once
    custom = [[[texts[0][r][c], *(_fmt(views[i][2][r][c]) for i in range(1, len(views)))]
               for c in range(len(x))] for r in range(len(y))]
    hover = where + "<br>count: %{customdata[0]}"
    for i, (_, label, _) in enumerate(views[1:], start=1):
        hover += f"<br>{label}: %{{customdata[{i}]}}"

    def zmax(z: list[list[float | None]], is_count: bool) -> float:
        finite = [v for row in z for v in row if v is not None]
        return max(finite, default=1.0) if is_count else 1.0

    show_text = k <= 25
    trace = {
        "type": "heatmap", "x": x, "y": y, "z": zs[0], "text": texts[0], "customdata": custom,
        "texttemplate": "%{text}" if show_text else "", "textfont": {"size": 13 if k <= 8 else 10},
        "colorscale": _BLUES, "zmin": 0, "zmax": zmax(zs[0], True), "xgap": 1, "ygap": 1,
        "colorbar": {"title": {"text": "count", "side": "right"}, "thickness": 14},
        "hovertemplate": hover + "<extra></extra>", "hoverongaps": False,
    }
    buttons = [
        {"label": name, "method": "restyle",
         "args": [{"z": [zs[i]], "text": [texts[i]], "zmin": [0], "zmax": [zmax(zs[i], i == 0)],
                   "colorbar.title.text": [label]}]}
        for i, (name, label, _) in enumerate(views)
    ]
    cell_px = (_confusion_width(len(x)) - 300) / len(x)  # about the width of one column
    longest = 7 * max(map(len, x))  # pixels, roughly, of the longest column label
    tilt = longest > cell_px
    # slanted labels take room below the matrix; keep the cells as tall as they would be
    height = int(min(1100, max(380, 150 + 44 * k)) + (min(240, 0.65 * longest) if tilt else 0))
    layout = _base_layout(f"Confusion matrix \u00b7 {_ptext(m.name)}", height)
    layout["xaxis"] = {"title": {"text": xtitle}, "type": "category", "side": "bottom", "automargin": True,
                       "tickangle": -40 if tilt else 0, "showgrid": False}
    layout["yaxis"] = {"title": {"text": ytitle}, "type": "category", "autorange": "reversed",
                       "automargin": True, "showgrid": False}
    layout["margin"] = {"l": 64, "r": 24, "t": 96, "b": 48}
    layout["updatemenus"] = [{
        "type": "buttons", "direction": "right", "buttons": buttons, "active": 0, "showactive": True,
        "x": 0, "xanchor": "left", "y": 1.01, "yanchor": "bottom", "pad": {"t": 4, "b": 4},
        "bgcolor": "#ffffff", "bordercolor": "#d1d9e0", "font": {"size": 12},
    }]
    return {"id": f"confusion-{m.index + 1}", "kind": "heatmap", "data": [trace], "layout": layout}


def figures(evaluations: Any, *, bands: float | None = None) -> list[dict[str, Any]]:
    """The page's figures as plotly JSON dicts: ``{"id", "kind", "data", "layout"}`` each.

    ``kind`` is "heatmap", "2d" or "3d". Useful to inspect, or to validate with
    ``plotly.graph_objects.Figure(data=fig["data"], layout=fig["layout"])``. ``bands`` as in
    :func:`write_html`.

    >>> import clfeval
    >>> [f["id"] for f in figures(clfeval.evaluate([0, 1, 1], [0, 1, 0]))]
    ['confusion-1']
    """
    evaluations = _items(evaluations)
    cvs = [f for c, d in enumerate(_cv_datas(evaluations), start=1) for f in _cv_figures(d, c)]
    return cvs + _figures(_models(evaluations, bands))


def _figures(models: list[_Model]) -> list[dict[str, Any]]:
    from .html_decisions import decision_figures

    out = [f for f in (_confusion_figure(m) for m in models) if f is not None]
    for build in (_curve_figure, _threshold_figure):
        for kind in ("roc", "pr"):
            fig = build(models, kind)
            if fig is not None:
                out.append(fig)
    out += [f for m in models for f in decision_figures(m)]
    for fig in out:
        fig["config"] = {**_PLOT_CONFIG, "toImageButtonOptions": {"filename": fig["id"], "scale": 2}}
    return out


# -- HTML ----------------------------------------------------------------------------------------------


def _title(models: list[_Model], title: str | None) -> str:
    if title is not None:
        return str(title)
    named = [m.name for m in models if m.data.get("name") not in (None, "")]
    return "Classifier evaluation" + (f": {', '.join(named)}" if named else "")


def _pos_text(d: dict[str, Any]) -> str:
    pos = d.get("pos_label")
    if pos is None:
        return _DASH
    labels, names = list(d.get("labels") or []), [str(n) for n in d.get("names") or []]
    if pos in labels and len(names) == len(labels):
        name = names[labels.index(pos)]
        return name if name == str(pos) else f"{name} (label {pos})"
    return str(pos)


def _threshold_text(d: dict[str, Any]) -> str:
    t = _num(d.get("threshold"))
    if t is not None:
        what = "label" if d.get("task") == "multilabel" else "positive class"
        return f"{t:g} ({what} predicted where score \u2265 {t:g})"
    if d.get("score_kind") and d.get("task") == "multiclass":
        return "none: the highest-scoring class is predicted"
    return "none: predictions given"


def _classes_text(d: dict[str, Any], limit: int = 30) -> str:
    names = [str(n) for n in d.get("names") or []]
    shown = ", ".join(names[:limit]) + (f", \u2026 and {len(names) - limit} more" if len(names) > limit else "")
    return f"{shown} ({len(names)})"


def _samples_text(d: dict[str, Any]) -> str:
    n, w = d.get("n_samples"), _num(d.get("total_weight"))
    text = _fmt_count(n)
    if w is not None and _num(n) is not None and w != _num(n):
        text += f" (total weight {_fmt_count(w)})"
    return text


def _meta(models: list[_Model]) -> list[tuple[str, str]]:
    """(field, value) pairs for the header; a value that differs between models is given per model."""
    fields: list[tuple[str, Any]] = [
        ("task", lambda d: str(d.get("task"))),
        ("samples", _samples_text),
        ("labels" if all(m.task == "multilabel" for m in models) else "classes", _classes_text),
        ("positive class", _pos_text),
        ("threshold", _threshold_text),
        ("score kind", lambda d: str(d.get("score_kind") or "none (no scores given)")),
    ]
    rows = [("models" if len(models) > 1 else "model", ", ".join(m.name for m in models))]
    for label, get in fields:
        values = [get(m.data) for m in models]
        if label == "positive class" and all(v == _DASH for v in values):
            continue
        if len(set(values)) == 1:
            rows.append((label, values[0]))
        else:
            rows.append((label, "; ".join(f"{m.name}: {v}" for m, v in zip(models, values))))
    versions = sorted({str(m.data.get("clfeval_version") or "") for m in models} - {""})
    rows.append(("clfeval version", ", ".join(versions) or _version()))
    return rows


def _version() -> str:
    from .. import __version__

    return __version__


def _data_warnings(models: list[_Model]) -> list[str]:
    if len(models) < 2:
        return []
    out = []
    for what, key in (("tasks", "task"), ("sample counts", "n_samples"), ("classes", "names")):
        values = {json.dumps(m.data.get(key), default=str) for m in models}
        if len(values) > 1:
            out.append(what)
    if not out:
        return []
    return [f"These models were not evaluated on the same data: their {', '.join(out)} differ, "
            "so their numbers and curves are not directly comparable."]


def _value_cell(col: str, value: Any, *, count: bool = False, best: bool = False,
                interval: tuple[Any, Any, str] | None = None) -> str:
    x = _num(value)
    attrs = f' data-col="{_esc(col)}"'
    if x is None or math.isnan(x):
        why = "not applicable" if value is None else "undefined (0/0): see the notes below"
        return f'<td{attrs} data-value="{"nan" if value is not None else ""}" class="undefined" title="{why}">{_DASH}</td>'
    text = _fmt_count(x) if count else _fmt(x)
    cls = ' class="best"' if best else ""
    return f"<td{attrs} data-value=\"{x!r}\"{cls}>{text}{_interval_text(interval)}</td>"


def _interval_text(interval: tuple[Any, Any, str] | None) -> str:
    """The interval under a value ("0.912–0.968"), with its method as a tooltip; '' without one."""
    if interval is None:
        return ""
    low, high, method = _num(interval[0]), _num(interval[1]), interval[2]
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return f'<span class="ci" title="{_esc(method)}">{_DASH}</span>'
    return (f'<span class="ci" data-low="{low!r}" data-high="{high!r}" title="{_esc(method)}">'
            f"{_fmt(low, 3)}\u2013{_fmt(high, 3)}</span>")


def _row_intervals(m: _Model, row: int | str, summary: bool) -> dict[str, tuple[Any, Any, str]]:
    """{column: (low, high, method)} of one report row, from the data's "intervals" entry."""
    data = m.data.get("intervals")
    if not data:
        return {}
    if summary:
        return {c: (ci["low"], ci["high"], ci["method"]) for c, ci in (data["averages"].get(row) or {}).items()}
    return {c: (ci["low"][row], ci["high"][row], ci["method"]) for c, ci in data["per_class"].items()}


def _report_table(m: _Model) -> str:
    from .table import title as column_title

    rep = m.report
    columns = list(rep.get("columns") or [])
    head = "".join(f'<th scope="col" data-col="{_esc(c)}">{_esc(column_title(c))}</th>' for c in columns)
    first = "label" if m.task == "multilabel" else "class"

    def row(r: dict[str, Any], summary: bool, key: int | str) -> str:
        cis = _row_intervals(m, key, summary)
        cells = "".join(_value_cell(c, r.get(c), count=c == "support", interval=cis.get(c)) for c in columns)
        kind = "summary" if summary else "class"
        return (f'<tr data-row="{_esc(r.get("label"))}" data-kind="{kind}">'
                f'<th scope="row">{_esc(r.get("label"))}</th>{cells}</tr>')

    from .table import shown_classes

    class_rows = rep.get("rows") or []
    shown, notice = shown_classes(class_rows)  # many classes: those with the most support
    body = "".join(row(class_rows[i], False, i) for i in shown)
    summary = "".join(row(r, True, k) for k, r in (rep.get("averages") or {}).items())
    ci = m.data.get("intervals")
    ci_text = (f" Under each value, its {ci['level']:.0%} confidence interval (hover for the method)."
               if ci else "")
    if notice:
        ci_text += f" {notice}"
    return (
        f'<div class="table-wrap"><table class="numbers report" data-model="{m.index}">'
        f"<caption>One row per {first}, then the averages; {_DASH} marks a value that is undefined "
        f"or does not apply.{_esc(ci_text)}</caption>"
        f'<thead><tr><th scope="col">{first}</th>{head}</tr></thead>'
        f'<tbody class="classes">{body}</tbody><tbody class="summary">{summary}</tbody></table></div>'
    )


def _confusion_table(m: _Model) -> str:
    conf = m.data.get("confusion") or {}
    names = m.names
    if conf.get("counts") is not None:
        head = "".join(f'<th scope="col">{_esc(n)}</th>' for n in names)
        body = "".join(
            f'<tr><th scope="row">{_esc(n)}</th>'
            + "".join(_value_cell(f"pred:{p}", v, count=True) for p, v in zip(names, row))
            + "</tr>"
            for n, row in zip(names, conf["counts"])
        )
        corner = "true \\ predicted"
    else:
        pc = conf.get("per_class") or {}
        cols = [c for c in ("tp", "fn", "fp", "tn") if c in pc]
        head = "".join(f'<th scope="col">{c.upper()}</th>' for c in cols)
        shown: list[int] = list(range(len(names)))
        if conf.get("cells") is not None:  # pair-coded: per-class counts of the best-supported classes
            from .table import shown_classes

            shown, notice = shown_classes(m.report.get("rows") or [])
            cells = len(conf["cells"].get("count") or [])
            note = (f"{len(names):,} classes: too many for a matrix; the {cells:,} non-zero (true, predicted) "
                    f"cells are in the JSON output (confusion.cells). Per-class counts:")
            if notice:
                note += f" {notice}"
        body = "".join(
            f'<tr><th scope="row">{_esc(names[i])}</th>'
            + "".join(_value_cell(c, pc[c][i], count=True) for c in cols) + "</tr>"
            for i in shown
        )
        corner = "label" if conf.get("cells") is None else "class"
        if conf.get("cells") is not None:
            return (
                f'<p class="hint">{_esc(note)}</p><div class="table-wrap">'
                f'<table class="numbers confusion-table" data-model="{m.index}">'
                f'<thead><tr><th scope="col">{corner}</th>{head}</tr></thead><tbody>{body}</tbody></table></div>'
            )
    return (
        '<details><summary>The confusion matrix as a table</summary><div class="table-wrap">'
        f'<table class="numbers confusion-table" data-model="{m.index}">'
        f'<thead><tr><th scope="col">{corner}</th>{head}</tr></thead><tbody>{body}</tbody></table>'
        "</div></details>"
    )


def _cards(m: _Model) -> str:
    overall = m.report.get("overall") or {}
    cis = (m.data.get("intervals") or {}).get("overall") or {}
    items = []
    for key, label, _ in HEADLINE:
        if key in overall:
            v = overall[key]
            ci = cis.get(key)
            items.append(
                f'<li class="card" data-metric="{key}" data-value="{_esc(repr(_num(v)))}">'
                f'<span class="label">{_esc(label)}</span><span class="value">{_fmt(v)}</span>'
                f'{_interval_text(None if ci is None else (ci["low"], ci["high"], ci["method"]))}</li>'
            )
    return f'<ul class="cards" data-model="{m.index}">{"".join(items)}</ul>'


def _comparison_table(models: list[_Model]) -> str:
    metrics = [(k, t, hi) for k, t, hi in HEADLINE if any(k in (m.report.get("overall") or {}) for m in models)]
    extra = [("macro_f1", "macro F1", True)]

    def value(m: _Model, key: str) -> Any:
        if key == "macro_f1":
            return ((m.report.get("averages") or {}).get("macro") or {}).get("f1")
        return (m.report.get("overall") or {}).get(key)

    cols = metrics + extra
    best: dict[str, set[int]] = {}
    for key, _, higher in cols:
        vals = [(_finite(value(m, key)), m.index) for m in models]
        finite = [(v, i) for v, i in vals if v is not None]
        if len(finite) >= 2:
            target = max(v for v, _ in finite) if higher else min(v for v, _ in finite)
            best[key] = {i for v, i in finite if v == target}
    head = "".join(f'<th scope="col" data-col="{k}">{_esc(t)}</th>' for k, t, _ in cols)
    rows = "".join(
        f'<tr data-row="{_esc(m.name)}"><th scope="row"><a href="#model-{m.index + 1}">{_esc(m.name)}</a></th>'
        f'<td data-col="n_samples" data-value="{_esc(m.data.get("n_samples"))}">{_fmt_count(m.data.get("n_samples"))}</td>'
        + "".join(_value_cell(k, value(m, k), best=m.index in best.get(k, set())) for k, _, _ in cols)
        + "</tr>"
        for m in models
    )
    return (
        '<div class="table-wrap"><table class="numbers comparison">'
        "<caption>One row per model; the best value of each column is highlighted.</caption>"
        f'<thead><tr><th scope="col">model</th><th scope="col" data-col="n_samples">samples</th>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def _chart_div(fig: dict[str, Any], extra_class: str = "", max_width: int | None = None) -> str:
    """The framed <div> a figure is drawn into (sized in advance so the page does not jump)."""
    height = int(fig["layout"].get("height", 480))
    frame = f"chart-frame {extra_class}".strip()
    style = f' style="max-width:{max_width}px"' if max_width else ""
    return (f'<div class="{frame}"{style}><div class="chart" id="{_esc(fig["id"])}" data-chart="{fig["kind"]}" '
            f'style="height:{height}px" role="img" aria-label="{_esc(fig["id"])} chart"></div></div>')


def _model_section(m: _Model, fig: dict[str, Any] | None, multi: bool) -> str:
    parts = [f'<section class="model" id="model-{m.index + 1}" data-model="{m.index}">']
    if m.pooled_from is not None:
        parts.append(f"<h2>Pooled out-of-fold evaluation{': ' + _esc(m.name) if multi else ''}</h2>"
                     f'<p class="hint">{_esc(m.pooled_from[:1].upper() + m.pooled_from[1:])}.</p>')
    else:
        parts.append(f"<h2>Model: {_esc(m.name)}</h2>" if multi else "<h2>Results</h2>")
    parts.append(_cards(m))
    parts.append(columns_html(m.data.get("columns")))  # which file column was read for what (the CLI's)
    parts.append("<h3>Classification report</h3>")
    parts.append(_report_table(m))
    notes = m.report.get("notes") or []
    if notes:
        parts.append('<ul class="notes">' + "".join(f"<li>{_esc(n)}</li>" for n in notes) + "</ul>")
    parts.append("<h3>Confusion matrix</h3>")
    if fig is not None:
        if m.data.get("confusion", {}).get("counts") is not None:
            hint = ("Rows are the true classes, columns the predicted ones. The buttons switch between "
                    "counts and shares of each true class (recall on the diagonal), of each predicted "
                    "class (precision on the diagonal) or of all samples.")
        else:
            hint = ("One row per label: its true positives, false negatives, false positives and true "
                    "negatives, as counts or as shares of the label's samples.")
        parts.append(f'<p class="hint">{_esc(hint)}</p>')
        parts.append(_chart_div(fig, "confusion", max_width=_confusion_width(len(m.names))))
    parts.append(_confusion_table(m))
    parts.append("</section>")
    return "".join(parts)


def _tests_section(tests: Sequence[Mapping[str, Any]]) -> str:
    """The paired tests of a comparison: one row per (model a, model b, test)."""
    rows = []
    for t in tests:
        r = t["result"]
        ci = r.get("confidence_interval")
        interval = _DASH if not ci else f"{_fmt(ci['low'])} to {_fmt(ci['high'])}"
        p = _num(r.get("pvalue"))
        p_text = _DASH if p is None or math.isnan(p) else ("&lt; 0.0001" if p < 1e-4 else f"{p:.4f}")
        est = _num(r.get("estimate"))
        rows.append(
            f'<tr data-test="{_esc(t["test"])}"><th scope="row">{_esc(t["model_a"])} vs {_esc(t["model_b"])}</th>'
            f'<td class="text">{_esc(t["test"])}</td><td>{_DASH if est is None else f"{est:+.4f}"}</td>'
            f'<td title="{_esc((ci or {}).get("method", ""))}">{interval}</td>'
            f'<td>{_fmt(r.get("statistic"))}</td><td data-value="{_esc(repr(p))}">{p_text}</td></tr>'
        )
        for note in r.get("notes") or []:
            rows.append(f'<tr class="note"><td colspan="6">{_esc(note)}</td></tr>')
    return (
        '<section id="tests"><h2>Paired tests</h2><p class="hint">The models were evaluated on the same cases; '
        "each row tests whether model a and model b differ (estimate = a minus b, with its confidence "
        "interval; hover it for the method).</p>"
        '<div class="table-wrap"><table class="numbers tests"><thead><tr><th scope="col">models</th>'
        '<th scope="col">test</th><th scope="col">estimate</th><th scope="col">interval</th>'
        '<th scope="col">statistic</th><th scope="col">p-value</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div></section>\n"
    )


def _chunks(models: list[_Model], title: str | None, plotly_js: str,
            tests: Sequence[Mapping[str, Any]] | None = None,
            cvs: Sequence[dict[str, Any]] = ()) -> Iterator[str]:
    """The page, piece by piece (so a file can be written without joining 5 MB first)."""
    multi = len(models) > 1
    cv_figs = [f for c, d in enumerate(cvs, start=1) for f in _cv_figures(d, c)]
    figs = cv_figs + _figures(models)
    by_id = {f["id"]: f for f in figs}
    if title is None and cvs:
        title = "Cross-validation: " + ", ".join(str(d["name"]) for d in cvs)
    page_title = _title(models, title)
    yield (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{_esc(CSP)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="clfeval {_esc(_version())}">\n'
        f"<title>{_esc(page_title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
    )
    has_curves = any(m.curves("roc") or m.curves("pr") for m in models)
    has_3d = any(f["kind"] == "3d" for f in figs)
    toc = [(f"cv-{c}", "Cross-validation" + (f": {d['name']}" if len(cvs) > 1 else ""))
           for c, d in enumerate(cvs, start=1)]
    toc += [("summary", "Comparison")] if multi else []
    toc += [("tests", "Paired tests")] if tests else []
    toc += [(f"model-{m.index + 1}", m.name if multi else ("Pooled" if m.pooled_from else "Results")) for m in models]
    toc += [("curves", "ROC and PR curves")] if has_curves else []
    toc += [("threshold-views", "Threshold views (3-D)")] if has_3d else []
    meta = "".join(f"<dt>{_esc(k)}</dt><dd>{_esc(v)}</dd>" for k, v in _meta(models))
    links = " ".join(f'<a href="#{_esc(i)}">{_esc(t)}</a>' for i, t in toc)  # a space: lines break between links
    nav = f'<nav class="toc" aria-label="contents">{links}</nav>\n' if len(toc) > 1 else ""
    warnings = "".join(f'<p class="warning">{_esc(w)}</p>' for w in _data_warnings(models))
    yield (
        f'<header class="page">\n<h1>{_esc(page_title)}</h1>\n<dl class="meta">{meta}</dl>\n'
        f"{nav}{warnings}</header>\n"
        "<noscript><p>The charts need JavaScript; the tables below do not.</p></noscript>\n"
    )
    for c, d in enumerate(cvs, start=1):
        yield _cv_section(d, c, by_id)
    if multi:
        yield f'<section id="summary"><h2>Comparison</h2>{_comparison_table(models)}</section>\n'
    if tests:
        yield _tests_section(tests)
    from .html_decisions import decision_section

    for m in models:
        yield _model_section(m, by_id.get(f"confusion-{m.index + 1}"), multi) + "\n"
        yield decision_section(m, by_id) + "\n"

    if has_curves:
        yield '<section id="curves"><h2>ROC and precision-recall curves</h2>'
        hint = ("Hover a curve to see the threshold of each point. Circles mark the operating point "
                "(the predictions the tables describe), the diamond the break-even point where "
                "precision equals recall. Click a legend entry to hide or show a curve.")
        if multi:
            hint += " The menu at the top right switches between comparing the models and one model's curves."
        hint += _bands_hint(models)
        yield f'<p class="hint">{_esc(hint)}</p><div class="charts">'
        for fid in ("roc-curves", "pr-curves"):
            if fid in by_id:
                yield _chart_div(by_id[fid])
        yield "</div></section>\n"
    else:
        yield ('<p class="hint no-curves">No scores were given, so there are no curves: pass y_score to '
               "clfeval.evaluate() to get ROC and precision-recall curves.</p>\n")
    if has_3d:
        hint = ("Each point of a curve lifted to the height of its threshold (the synthetic end points, "
                "whose threshold is infinite, are left out). Drag to turn, scroll to zoom, hover for values.")
        yield (f'<section id="threshold-views"><h2>Threshold views (3-D)</h2><p class="hint">{_esc(hint)}</p>'
               '<div class="charts">')
        for fid in ("roc-threshold-3d", "pr-threshold-3d"):
            if fid in by_id:
                yield _chart_div(by_id[fid])
        yield "</div></section>\n"
    yield (f'<footer>Made by clfeval {_esc(_version())}. This file is self-contained: it works offline and '
           "loads nothing from the network.</footer>\n</main>\n")
    yield "<script>"
    yield plotly_js
    yield "</script>\n"
    yield f'<script type="application/json" id="clfeval-figures">{_figures_json(figs)}</script>\n'
    yield f"<script>{BOOT_JS}</script>\n</body>\n</html>\n"


def _bands_hint(models: list[_Model]) -> str:
    """A sentence on the shaded bands of the curve charts ('' without any)."""
    texts = sorted({_band_text(b) for m in models for kind in ("roc", "pr") for b in m.bands(kind).values()})
    if not texts:
        return ""
    return (f" Shaded areas are {' and '.join(texts)}s: at each false positive rate (ROC) or recall (PR), "
            "the range that holds the curve in that share of bootstrap resamples of the scores (hover "
            "an upper edge for the method). They qualify each point, not the whole curve at once.")


def _figures_json(figs: list[dict[str, Any]]) -> str:
    from .html_numbers import compact_figures, share_arrays

    return _script_json(share_arrays(compact_figures(figs)))


# -- cross-validation -------------------------------------------------------------------------------

#: level of the intervals and bands of the cross-validation section
CV_LEVEL = 0.95
_CV_AREA = {"roc": "AUC", "pr": "AP"}


def cross_validation_dict(cv: Any, level: float = CV_LEVEL, *, max_points: int = 2000) -> dict[str, Any]:
    """What the cross-validation section of the page shows, as plain Python (JSON-ready after
    ``_clean``): settings, the per-fold table (``cv.table()``), the summary (``cv.summary(level)``)
    and, with scores, each fold's exact ROC and PR curve (at most ``max_points`` points) and
    their vertical mean with its corrected band (``cv.mean_curve(kind, band="corrected")``).

    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from clfeval.cross_evaluation import cross_evaluate
    >>> X, y = load_iris(return_X_y=True)
    >>> d = cross_validation_dict(cross_evaluate(GaussianNB(), X, y, progress=False))
    >>> d["protocol"], d["response"], len(d["table"]["fold"]), d["mean_curves"]["roc"]["curve"]
    ('stratified 5-fold CV', 'predict_proba', 5, 'micro')
    """
    if not _is_cross_evaluation(cv):
        raise TypeError(f"expected a CrossEvaluation (from cross_evaluate), got {type(cv).__name__}.")
    table = cv.table()
    fixed = {"fold", "repeat", "n_train", "n_test", "fit_time", "predict_time", "evaluation_time", "error"}
    metrics = [k for k in table if k not in fixed]
    summary = cv.summary(level, metrics)
    out: dict[str, Any] = {
        "name": str(cv.name), "protocol": cv.protocol_name, "protocol_repr": repr(cv.protocol),
        "response": cv.response, "binary": len(cv.labels) == 2, "n_folds": len(cv.folds), "n_failed": len(cv.failed), "n_repeats": cv.n_repeats,
        "n_samples": int(cv._y.size), "test_train_ratio": cv.test_train_ratio, "pooling": cv.pooling,
        "notes": list(cv.notes), "times": cv.times, "metrics": metrics, "table": table,
        "summary": summary.to_dict(), "mean_curves": {}, "fold_curves": {}, "prevalence": None,
    }
    if cv.response == "predict" or not cv.evaluations:
        return out
    for kind in ("roc", "pr"):
        try:
            mean = cv.mean_curve(kind, band="corrected", level=level)
        except ValueError as exc:  # every fold's curve undefined
            out["notes"].append(f"no mean {kind.upper()} curve: {exc}")
            continue
        out["mean_curves"][kind] = {**mean.to_dict(), "area_mean": mean.area_mean, "area_std": mean.area_std,
                                    "method": mean.band}
        folds = []
        for f in cv.folds:
            if f.evaluation is None:
                continue
            c = f.evaluation.compact_curves(kind, max_points)[mean.curve]
            if math.isfinite(c.area):
                folds.append({"fold": f.index, "repeat": f.repeat, "x": c.x.tolist(), "y": c.y.tolist(),
                              "area": float(c.area)})
        out["fold_curves"][kind] = folds
        if kind == "pr":
            pooled = cv.pooled.to_dict()
            m = _Model(0, "", pooled, "")
            out["prevalence"] = m.prevalence("pr", mean.curve)
    return out


def _cv_curve_figure(d: dict[str, Any], c: int, kind: str) -> dict[str, Any] | None:
    """Per-fold curves (thin), their vertical mean (bold) and its band, and the chance line."""
    mean = d["mean_curves"].get(kind)
    if mean is None:
        return None
    xs, ys, xtitle, ytitle = _AXIS[kind]
    area = _CV_AREA[kind]
    color = MODEL_COLORS[0]
    stepped = kind == "pr"
    shape = "vh" if stepped else "linear"
    traces: list[dict[str, Any]] = []
    if kind == "roc":
        traces.append({"type": "scatter", "x": [0, 1], "y": [0, 1], "mode": "lines", "name": "chance",
                       "line": {"color": "#8c959f", "dash": "dash", "width": 1}, "hoverinfo": "skip"})
    elif d.get("prevalence") is not None:
        p = d["prevalence"]
        traces.append({"type": "scatter", "x": [0, 1], "y": [p, p], "mode": "lines",
                       "name": f"baseline (prevalence {p:.3f})",
                       "line": {"color": "#8c959f", "dash": "dash", "width": 1},
                       "hovertemplate": "baseline: precision of random guessing %{y:.4f}<extra></extra>"})
    folds = d["fold_curves"].get(kind) or []
    for i, f in enumerate(folds):
        rep = f" (repeat {f['repeat'] + 1})" if d["n_repeats"] > 1 else ""
        traces.append({
            "type": "scatter", "mode": "lines", "x": _clean(f["x"]), "y": _clean(f["y"]),
            "name": f"folds ({len(folds)} curves)", "legendgroup": "folds", "showlegend": i == 0,
            "opacity": 0.45, "line": {"color": color, "width": 1, "shape": shape},
            "hovertemplate": (f"fold {f['fold'] + 1}{rep}, {area} {f['area']:.4f}<br>{xs} %{{x:.4f}}<br>"
                              f"{ys} %{{y:.4f}}<extra></extra>"),
        })
    band_name = f"{mean['level'] * 100:.4g}% corrected band of the mean"
    edge = {"type": "scatter", "mode": "lines", "x": _clean(mean["x"]), "legendgroup": "band",
            "line": {"color": color, "width": 0, "shape": shape}}
    traces.append({**edge, "y": _clean(mean["low"]), "name": f"{band_name} (lower edge)", "showlegend": False,
                   "hoverinfo": "skip"})
    traces.append({**edge, "y": _clean(mean["high"]), "name": band_name, "fill": "tonexty",
                   "fillcolor": _rgba(color, 0.22), "customdata": _clean(mean["low"]),
                   "hovertemplate": (f"{band_name}<br>{xs} %{{x:.4f}}<br>{ys} %{{customdata:.4f}} to %{{y:.4f}}"
                                     f"<extra>{_ptext(mean['method'])}</extra>")})
    curve = str(mean["curve"])
    which = "" if d["binary"] else (f", {curve}-average" if curve in ("micro", "macro") else f", class {curve}")
    traces.append({
        "type": "scatter", "mode": "lines", "x": _clean(mean["x"]), "y": _clean(mean["mean"]),
        "name": f"mean{which} ({area} {_fmt(mean['area_mean'], 3)} \u00b1 {_fmt(mean['area_std'], 3)})",
        "line": {"color": color, "width": 3, "shape": shape},
        "hovertemplate": f"mean over folds<br>{xs} %{{x:.4f}}<br>{ys} %{{y:.4f}}<extra></extra>",
    })
    title = ("ROC curves" if kind == "roc" else "Precision-recall curves") + " across folds"
    layout = _unit_square_layout(title, 560, xtitle, ytitle, top=64)
    return {"id": f"cv{c}-{kind}", "kind": "2d", "data": traces, "layout": layout}


def _cv_metrics_figure(d: dict[str, Any], c: int) -> dict[str, Any] | None:
    """Box and strip plot of each metric across folds, with the mean, its interval and the pooled value."""
    metrics = d["metrics"]
    if not metrics:
        return None
    rows = {r["metric"]: r for r in d["summary"]["rows"]}
    folds = [i + 1 for i in d["table"]["fold"]]
    traces: list[dict[str, Any]] = []
    for i, m in enumerate(metrics):
        traces.append({
            "type": "box", "x": [i] * len(folds), "y": _clean(d["table"][m]), "name": _ptext(m),
            "boxpoints": "all", "jitter": 0.5, "pointpos": 0, "width": 0.42, "showlegend": False,
            "fillcolor": _rgba(MODEL_COLORS[0], 0.15), "line": {"color": "#59636e", "width": 1},
            "marker": {"color": MODEL_COLORS[0], "size": 6, "opacity": 0.85,
                       "line": {"color": "#ffffff", "width": 0.5}},
            "customdata": folds, "hovertemplate": f"{_ptext(m)}<br>fold %{{customdata}}: %{{y:.4f}}<extra></extra>",
        })
    xs = [i + 0.36 for i in range(len(metrics))]
    mu = [_finite(rows[m]["mean"]) for m in metrics]
    lo = [_finite(rows[m]["low"]) for m in metrics]
    hi = [_finite(rows[m]["high"]) for m in metrics]
    level = d["summary"]["level"]
    traces.append({
        "type": "scatter", "mode": "markers", "x": xs, "y": mu, "name": f"mean, {level * 100:.4g}% corrected interval",
        "marker": {"color": "#1f2328", "size": 7},
        "error_y": {"type": "data", "symmetric": False, "color": "#1f2328", "thickness": 1.5, "width": 4,
                    "array": [None if a is None or b is None else b - a for a, b in zip(mu, hi)],
                    "arrayminus": [None if a is None or b is None else a - b for a, b in zip(mu, lo)]},
        "customdata": [[_fmt(a), _fmt(b)] for a, b in zip(lo, hi)], "text": [_ptext(m) for m in metrics],
        "hovertemplate": "%{text}<br>mean %{y:.4f}<br>interval %{customdata[0]} to %{customdata[1]}<extra></extra>",
    })
    traces.append({
        "type": "scatter", "mode": "markers", "x": xs, "y": [_finite(rows[m]["pooled"]) for m in metrics],
        "name": "pooled (all out-of-fold predictions)", "text": [_ptext(m) for m in metrics],
        "marker": {"symbol": "diamond-open", "color": "#c0392b", "size": 12, "line": {"width": 2}},
        "hovertemplate": "%{text}<br>pooled %{y:.4f}<extra></extra>",
    })
    layout = _base_layout("Metrics across folds", 460)
    layout["xaxis"] = {"tickvals": list(range(len(metrics))), "ticktext": [_ptext(m) for m in metrics],
                       "range": [-0.6, len(metrics) - 0.4], "zeroline": False, "showgrid": False,
                       "tickangle": -30 if len(metrics) > 6 else 0,
                       "linecolor": "#8c959f", "mirror": True, "automargin": True}
    layout["yaxis"] = {"title": {"text": "value per fold"}, "gridcolor": "#eaeef2", "zeroline": False,
                       "linecolor": "#8c959f", "mirror": True, "ticks": "outside", "automargin": True}
    layout["legend"] = {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.03, "yanchor": "bottom",
                        "font": {"size": 11}}
    layout["margin"] = {"l": 64, "r": 24, "t": 96, "b": 48}
    layout["hovermode"] = "closest"
    return {"id": f"cv{c}-metrics", "kind": "2d", "data": traces, "layout": layout}


def _cv_figures(d: dict[str, Any], c: int) -> list[dict[str, Any]]:
    figs = [f for f in (_cv_curve_figure(d, c, "roc"), _cv_curve_figure(d, c, "pr"), _cv_metrics_figure(d, c))
            if f is not None]
    for fig in figs:
        fig["config"] = {**_PLOT_CONFIG, "toImageButtonOptions": {"filename": fig["id"], "scale": 2}}
    return figs


_CV_FIXED_COLS = (("n_train", "train"), ("n_test", "test"))


def _cv_table(d: dict[str, Any], c: int) -> str:
    t, metrics = d["table"], d["metrics"]
    repeats = d["n_repeats"] > 1
    failed = "error" in t
    head = '<th scope="col">fold</th>' + ('<th scope="col" data-col="repeat">repeat</th>' if repeats else "")
    head += "".join(f'<th scope="col" data-col="{k}">{label}</th>' for k, label in _CV_FIXED_COLS)
    head += "".join(f'<th scope="col" data-col="{_esc(m)}">{_esc(m)}</th>' for m in metrics)
    head += '<th scope="col" data-col="fit_time">fit (s)</th>'
    body = []
    for r, fold in enumerate(t["fold"]):
        cells = (f'<td data-col="repeat" data-value="{t["repeat"][r]}">{t["repeat"][r] + 1}</td>' if repeats else "")
        cells += "".join(f'<td data-col="{k}" data-value="{t[k][r]}">{t[k][r]}</td>' for k, _ in _CV_FIXED_COLS)
        if failed and t["error"][r] is not None:
            cells += f'<td class="undefined" colspan="{len(metrics)}" style="text-align:left">failed: {_esc(t["error"][r])}</td>'
        else:
            cells += "".join(_value_cell(m, t[m][r]) for m in metrics)
        cells += f'<td data-col="fit_time" data-value="{t["fit_time"][r]!r}">{t["fit_time"][r]:.3g}</td>'
        body.append(f'<tr data-row="fold" data-fold="{fold}"><th scope="row">{fold + 1}</th>{cells}</tr>')
    rows = {r["metric"]: r for r in d["summary"]["rows"]}
    pad = 1 + len(_CV_FIXED_COLS) + (1 if repeats else 0)  # columns before the metrics (fold header apart)
    level = d["summary"]["level"]
    stats = []
    for key, label in (("mean", "mean"), ("std", "sd"), ("interval", f"{level * 100:.4g}% interval"),
                       ("pooled", "pooled")):
        cells = ""
        for m in metrics:
            row = rows[m]
            if key == "interval":
                low, high = _num(row["low"]), _num(row["high"])
                ok = low is not None and high is not None and not (math.isnan(low) or math.isnan(high))
                text = f"{_fmt(low, 3)}\u2013{_fmt(high, 3)}" if ok else _DASH
                cells += (f'<td data-col="{_esc(m)}" data-low="{low!r}" data-high="{high!r}" '
                          f'title="{_esc(d["summary"]["method"])}">{text}</td>')
            else:
                cells += _value_cell(m, row[key])
        title = {"mean": "mean over folds (macro over folds)", "std": "standard deviation across folds (ddof=1)",
                 "interval": d["summary"]["method"],
                 "pooled": "the metric of all out-of-fold predictions at once (micro over folds)"}[key]
        stats.append(f'<tr data-row="{key}" data-kind="summary"><th scope="row" colspan="{pad}" '
                     f'style="white-space:nowrap" title="{_esc(title)}">{_esc(label)}</th>{cells}<td></td></tr>')
    return (
        f'<div class="table-wrap"><table class="numbers cv-folds" data-cv="{c}">'
        f"<caption>One row per fold (train and test: sizes), then the mean and sd over folds, a "
        f"{level * 100:.4g}% interval for the mean (hover for the method) and the pooled value; {_DASH} marks "
        "a value that is undefined in that fold.</caption>"
        f"<thead><tr>{head}</tr></thead><tbody class=\"folds\">{''.join(body)}</tbody>"
        f'<tbody class="summary">{"".join(stats)}</tbody></table></div>'
    )


_RESPONSES = {
    "predict_proba": "predict_proba (class probabilities as scores)",
    "decision_function": "decision_function (decision values as scores)",
    "predict": "predict only (no scores, so no curves)",
}


def _cv_section(d: dict[str, Any], c: int, figs: dict[str, dict[str, Any]]) -> str:
    ran = d["n_folds"] - d["n_failed"]
    folds = f"{ran} of {d['n_folds']} ran" if d["n_failed"] else f"{d['n_folds']}"
    if d["n_repeats"] > 1:
        folds += f" ({d['n_repeats']} repetitions)"
    n_train = sum(d["table"]["n_train"]) / max(len(d["table"]["n_train"]), 1)
    n_test = sum(d["table"]["n_test"]) / max(len(d["table"]["n_test"]), 1)
    times = d["times"]
    meta = [
        ("protocol", f"{d['protocol']}: {d['protocol_repr']}"),
        ("response", _RESPONSES.get(d["response"], d["response"])),
        ("folds", folds),
        ("samples", f"{d['n_samples']}; on average {n_train:.1f} to train and {n_test:.1f} to test per fold"),
        ("interval", d["summary"]["method"]),
        ("time", f"fit {times['fit_time']:.3g} s, predict {times['predict_time']:.3g} s, "
                 f"evaluate {times['evaluation_time']:.3g} s (all folds)"),
    ]
    parts = [f'<section class="cross-validation" id="cv-{c}" data-cv="{c}">',
             f"<h2>Cross-validation: {_esc(d['name'])}</h2>",
             '<dl class="meta">' + "".join(f"<dt>{_esc(k)}</dt><dd>{_esc(v)}</dd>" for k, v in meta) + "</dl>"]
    notes = list(d["notes"])
    if notes:
        parts.append('<ul class="notes">' + "".join(f"<li>{_esc(n)}</li>" for n in notes) + "</ul>")
    parts.append("<h3>Metrics per fold</h3>")
    parts.append(_cv_table(d, c))
    curves = [figs[f"cv{c}-{k}"] for k in ("roc", "pr") if f"cv{c}-{k}" in figs]
    if curves:
        hint = ("Thin lines: each fold's curve. Bold: their vertical average (the mean true positive rate at "
                "each false positive rate, the mean precision at each recall, as average precision reads the "
                "curve), with the pointwise interval of the mean shaded. The legend gives the mean area over "
                "folds \u00b1 its sd. Hover a fold's curve to see which fold it is.")
        parts.append(f'<h3>Curves across folds</h3><p class="hint">{_esc(hint)}</p><div class="charts">')
        parts.extend(_chart_div(f) for f in curves)
        parts.append("</div>")
    if f"cv{c}-metrics" in figs:
        hint = ("Each point is one fold; the box spans the middle half of the folds, its line the median. "
                "Beside each box: the mean over folds with its interval, and the pooled value (a diamond).")
        parts.append(f'<h3>Metrics across folds</h3><p class="hint">{_esc(hint)}</p>')
        parts.append(_chart_div(figs[f"cv{c}-metrics"]))
    parts.append("</section>\n")
    return "".join(parts)


def _cv_datas(evaluations: Any) -> list[dict[str, Any]]:
    """The cross-validation dicts of the CrossEvaluations among ``evaluations``, in order."""
    datas = []
    for e in _items(evaluations):
        if _is_cross_evaluation(e):
            datas.append(cross_validation_dict(e))
    return datas


# -- public API ----------------------------------------------------------------------------------------


def render_html(evaluations: Any, title: str | None = None,
                tests: Sequence[Mapping[str, Any]] | None = None, *, bands: float | None = None) -> str:
    """The report page as a string (see :func:`write_html`, also for ``bands``). ``tests``: paired
    tests to show after the comparison, each {"model_a", "model_b", "test", "result": TestResult.to_dict()}.

    >>> import clfeval
    >>> page = render_html(clfeval.evaluate(["a", "b", "b"], ["a", "b", "a"], name="<m>"))
    >>> "&lt;m&gt;" in page and "<m>" not in page
    True
    """
    evaluations = _items(evaluations)
    models = _models(evaluations, bands)
    return "".join(_chunks(models, title, _plotly_js(), tests, _cv_datas(evaluations)))


def write_html(path: str | os.PathLike[str], evaluations: Any, title: str | None = None, *,
               bands: float | None = None) -> Path:
    """Write one self-contained HTML report (atomically) and return its path.

    ``evaluations``: one :class:`~clfeval.Evaluation` or a list of them (several models on the
    same data: their curves are overlaid, each gets its own report table, and a comparison
    table leads the page). A dict from ``Evaluation.to_dict()`` works in place of an Evaluation.
    ``title`` defaults to one naming the models.

    ``bands``: a confidence level (e.g. 0.95) shades the pointwise bootstrap band (2000
    resamples, seed 0) of each Evaluation's main ROC and PR curve (see :func:`bands_dict` for
    why only the main one); None (default) draws none. A dict is drawn with the bands in its
    own "bands" entry, whatever ``bands`` says (it holds no data to resample).

    The page is written to a temporary file beside ``path`` and renamed into place, so ``path``
    is either the whole new page or untouched. A missing folder is a ``FileNotFoundError``, a
    folder given as ``path`` an ``IsADirectoryError``; both name the path.

    >>> import clfeval, tempfile, pathlib
    >>> a = clfeval.evaluate([0, 1, 1, 0], y_score=[0.2, 0.9, 0.6, 0.4], name="A")
    >>> b = clfeval.evaluate([0, 1, 1, 0], y_score=[0.3, 0.7, 0.2, 0.1], name="B")
    >>> out = write_html(pathlib.Path(tempfile.mkdtemp()) / "report.html", [a, b])
    >>> out.name, out.stat().st_size > 1_000_000
    ('report.html', True)
    """
    from ..atomic import atomic_write

    evaluations = _items(evaluations)
    models = _models(evaluations, bands)
    cvs = _cv_datas(evaluations)
    plotly_js = _plotly_js()  # fail before touching the file system when plotly is missing
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(f"cannot write the HTML report to {target}: it is a folder; give a file name.")
    if not target.parent.is_dir():
        raise FileNotFoundError(
            f"cannot write the HTML report to {target}: the folder {target.parent} does not exist."
        )
    with atomic_write(target, "w", encoding="utf-8") as f:
        for piece in _chunks(models, title, plotly_js, cvs=cvs):
            f.write(piece)
    return target
