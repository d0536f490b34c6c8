"""What every chart of the HTML report shares: plotly's config, the base layouts (the unit square
of ROC and PR charts among them), the model menu, the curve styles, colours and the <div> a chart
is drawn into.

Figures are plain dicts in plotly's JSON form: ``{"id", "kind", "data", "layout"}``.

>>> layout = unit_square_layout("ROC curves", 600, "FPR", "TPR", top=72)
>>> layout["height"], layout["xaxis"]["title"]["text"], layout["legend"] is BELOW_AXES_LEGEND
(600, 'FPR', True)
"""

from __future__ import annotations

from typing import Any

from clfeval.report.html_assets import CLASS_COLORS, FONT_STACK
from clfeval.report.html_format import esc, ptext
from clfeval.report.html_model import Model

__all__ = ["AXIS", "BELOW_AXES_LEGEND", "PLOT_CONFIG", "base_layout", "unit_square_layout", "view_menu",
           "curve_style", "rgba", "chart_div"]


AXIS = {"roc": ("FPR", "TPR", "false positive rate (FPR)", "true positive rate (TPR)"),
         "pr": ("recall", "precision", "recall", "precision")}


#: The legend of a 2-D chart: in rows along the frame's bottom edge (placed in the frame, not
#: relative to the axes, so that it never meets the x-axis title however tall the legend is).
BELOW_AXES_LEGEND = {"orientation": "h", "x": 0, "xanchor": "left", "yref": "container", "y": 0,
                     "yanchor": "bottom", "font": {"size": 11}}


PLOT_CONFIG = {
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


def base_layout(title: str, height: int) -> dict[str, Any]:
    """The layout every chart starts from: title, height, fonts, white background, margins.

    >>> base_layout("Confusion matrix", 400)["height"]
    400
    """
    return {
        # the title's top edge a fixed 14 px below the frame's, whatever the top margin, so that
        # a menu placed between it and the axes (see view_menu) never reaches it
        "title": {"text": title, "x": 0.02, "xanchor": "left", "font": {"size": 16},
                  "yref": "container", "y": 1, "yanchor": "top", "pad": {"t": 14}},
        "height": height,
        "font": {"family": FONT_STACK, "size": 12, "color": "#1f2328"},
        "paper_bgcolor": "#ffffff",
        "plot_bgcolor": "#ffffff",
        "margin": {"l": 64, "r": 24, "t": 64, "b": 56},
        "hoverlabel": {"font": {"family": FONT_STACK}},
    }


def unit_square_layout(title: str, height: int, xtitle: str, ytitle: str, top: int) -> dict[str, Any]:
    """Layout of a curve chart on the unit square (ROC / PR), legend below the axes."""
    layout = base_layout(title, height)
    pad = {"range": [-0.02, 1.02], "zeroline": False, "gridcolor": "#eaeef2", "linecolor": "#8c959f",
           "mirror": True, "ticks": "outside", "automargin": True}
    layout["xaxis"] = {"title": {"text": xtitle}, **pad, "constrain": "domain"}
    layout["yaxis"] = {"title": {"text": ytitle}, **pad}
    layout["legend"] = BELOW_AXES_LEGEND
    layout["margin"] = {"l": 64, "r": 24, "t": top, "b": 24}
    layout["hovermode"] = "closest"
    return layout


def view_menu(models: list[Model], views: list[set[str]], compare_label: str,
               traces: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """A dropdown that shows all models' main curves, or one model's curves.

    With ``traces``, a model's own view names its curves without the "model \u00b7 " prefix
    they need side by side, so that its legend (all its classes) stays short.
    """
    keys = ["compare", *(m.key for m in models)]
    labels = [compare_label, *(ptext(m.name) for m in models)]
    names = [str(t.get("name", "")) for t in traces or []]
    buttons = []
    for key, label in zip(keys, labels):
        change: dict[str, Any] = {"visible": [key in v for v in views]}
        if names:
            prefix = next((f"{ptext(m.name)} \u00b7 " for m in models if m.key == key), None)
            short = [n[len(prefix):] if prefix and n.startswith(prefix) else n for n in names]
            if short != names or key == "compare":
                change["name"] = short
        buttons.append({"label": label, "method": "restyle", "args": [change]})
    return [{
        "type": "dropdown", "buttons": buttons, "active": 0, "showactive": True,
        "x": 1.0, "xanchor": "right", "y": 1.02, "yanchor": "bottom",
        "bgcolor": "#ffffff", "bordercolor": "#d1d9e0", "font": {"size": 12},
    }]


def curve_style(m: Model, kind: str, curve: str, multi: bool) -> tuple[str, str, float, str]:
    """(colour, dash, width, display name) of one curve."""
    ci = m.class_index(kind, curve)
    if m.task == "binary":
        label = ptext(m.name) if multi else ptext(curve)
        return (m.color if multi else CLASS_COLORS[0]), "solid", 2.5, label
    prefix = f"{ptext(m.name)} \u00b7 " if multi else ""
    if ci is not None:
        return CLASS_COLORS[ci % len(CLASS_COLORS)], "solid", 1.8, prefix + ptext(curve)
    average = {"micro": "micro-average", "macro": "macro-average"}.get(curve, ptext(curve))
    color = m.color if multi else "#1f2328"
    return color, ("dash" if curve == "micro" else "dot"), 2.8, prefix + average


def rgba(color: str, alpha: float) -> str:
    """A "#rrggbb" colour with an opacity, for plotly.

    >>> rgba("#1f4e9c", 0.2)
    'rgba(31,78,156,0.2)'
    """
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha:g})"


def chart_div(fig: dict[str, Any], extra_class: str = "", max_width: int | None = None) -> str:
    """The framed <div> a figure is drawn into (sized in advance so the page does not jump)."""
    height = int(fig["layout"].get("height", 480))
    frame = f"chart-frame {extra_class}".strip()
    style = f' style="max-width:{max_width}px"' if max_width else ""
    return (f'<div class="{frame}"{style}><div class="chart" id="{esc(fig["id"])}" data-chart="{fig["kind"]}" '
            f'style="height:{height}px" role="img" aria-label="{esc(fig["id"])} chart"></div></div>')
