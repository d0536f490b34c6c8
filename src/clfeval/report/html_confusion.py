"""The confusion matrix of one model in the HTML report: an interactive heat map (counts, or
shares by true class, by predicted class or of all; per-label outcomes for multilabel) and the
same numbers as a table.

>>> import clfeval
>>> from clfeval.report.html_model import page_models
>>> m = page_models(clfeval.evaluate(["a", "b", "b"], ["a", "b", "a"]))[0]
>>> confusion_figure(m)["kind"], "confusion-table" in confusion_table(m)
('heatmap', True)
"""

from __future__ import annotations

import math
from typing import Any

from clfeval.report.html_charts import base_layout
from clfeval.report.html_format import DASH, as_number, esc, finite_number, fmt, fmt_count, ptext
from clfeval.report.html_model import Model
from clfeval.report.html_tables import value_cell

__all__ = ["confusion_width", "confusion_figure", "confusion_table"]


_BLUES = [
    [0.0, "#f7fbff"], [0.125, "#deebf7"], [0.25, "#c6dbef"], [0.375, "#9ecae1"], [0.5, "#6baed6"],
    [0.625, "#4292c6"], [0.75, "#2171b5"], [0.875, "#08519c"], [1.0, "#08306b"],
]


def confusion_width(k: int) -> int:
    """Widest the confusion matrix frame gets, in pixels, for k columns (wider for many classes)."""
    return min(1232, max(640, 300 + 56 * k))


def confusion_figure(m: Model) -> dict[str, Any] | None:
    """Heat map of the confusion matrix with buttons for counts and the three normalisations.

    Multilabel: one row per label with its TP, FN, FP and TN (counts, or shares of the label's rows).
    """
    conf = m.data.get("confusion") or {}
    names = [ptext(n) for n in m.names]
    k = len(names)
    if not k or conf.get("cells") is not None:  # pair-coded (many classes): no heat map
        return None
    if conf.get("counts") is not None:
        counts = [[as_number(v) for v in row] for row in conf["counts"]]
        norm = conf.get("normalized") or {}
        views = [("counts", "count", counts)]
        for by, label in (("true", "share of true class"), ("pred", "share of predicted class"),
                          ("all", "share of all")):
            if norm.get(by) is not None:
                views.append((f"by {'predicted' if by == 'pred' else by}", label,
                              [[as_number(v) for v in row] for row in norm[by]]))
        x, y = names, names
        xtitle, ytitle = "predicted class", "true class"
        where = "true: %{y}<br>predicted: %{x}"
    else:
        pc = conf.get("per_class") or {}
        cols = ("tp", "fn", "fp", "tn")
        if not all(c in pc for c in cols):
            return None
        counts = [[as_number(pc[c][i]) for c in cols] for i in range(k)]
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
            return DASH
        return fmt_count(v) if is_count else f"{v:.3f}"

    texts = [[[cell_text(v, i == 0) for v in row] for row in z] for i, (_, _, z) in enumerate(views)]
    zs = [[[finite_number(v) for v in row] for row in z] for _, _, z in views]
    # hover shows every view of the cell at once
    custom = [[[texts[0][r][c], *(fmt(views[i][2][r][c]) for i in range(1, len(views)))]
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
    cell_px = (confusion_width(len(x)) - 300) / len(x)  # about the width of one column
    longest = 7 * max(map(len, x))  # pixels, roughly, of the longest column label
    tilt = longest > cell_px
    # slanted labels take room below the matrix; keep the cells as tall as they would be
    height = int(min(1100, max(380, 150 + 44 * k)) + (min(240, 0.65 * longest) if tilt else 0))
    layout = base_layout(f"Confusion matrix \u00b7 {ptext(m.name)}", height)
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


def confusion_table(m: Model) -> str:
    """The confusion matrix as a table (folded away under the heat map); with too many classes for a
    matrix, the per-class counts of the best-supported classes instead."""
    conf = m.data.get("confusion") or {}
    names = m.names
    if conf.get("counts") is not None:
        head = "".join(f'<th scope="col">{esc(n)}</th>' for n in names)
        body = "".join(
            f'<tr><th scope="row">{esc(n)}</th>'
            + "".join(value_cell(f"pred:{p}", v, count=True) for p, v in zip(names, row))
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
            from clfeval.results.report import shown_classes

            shown, notice = shown_classes(m.report.get("rows") or [])
            cells = len(conf["cells"].get("count") or [])
            note = (f"{len(names):,} classes: too many for a matrix; the {cells:,} non-zero (true, predicted) "
                    f"cells are in the JSON output (confusion.cells). Per-class counts:")
            if notice:
                note += f" {notice}"
        body = "".join(
            f'<tr><th scope="row">{esc(names[i])}</th>'
            + "".join(value_cell(c, pc[c][i], count=True) for c in cols) + "</tr>"
            for i in shown
        )
        corner = "label" if conf.get("cells") is None else "class"
        if conf.get("cells") is not None:
            return (
                f'<p class="hint">{esc(note)}</p><div class="table-wrap">'
                f'<table class="numbers confusion-table" data-model="{m.index}">'
                f'<thead><tr><th scope="col">{corner}</th>{head}</tr></thead><tbody>{body}</tbody></table></div>'
            )
    return (
        '<details><summary>The confusion matrix as a table</summary><div class="table-wrap">'
        f'<table class="numbers confusion-table" data-model="{m.index}">'
        f'<thead><tr><th scope="col">{corner}</th>{head}</tr></thead><tbody>{body}</tbody></table>'
        "</div></details>"
    )
