"""The HTML report's "By group" section of one model (an evaluation made with ``groups=``).

Reads the model's "groups" entry: ``GroupEvaluations.to_dict()`` (:func:`.html_model.groups_dict`
makes it, with 95% intervals, when the page is given an Evaluation; a ``to_dict()`` dict is shown
as it is, with intervals if it was made with ``ci_level``). It holds:

* a forest plot of the section's metric (:func:`main_metric`: ROC AUC with scores, else balanced
  accuracy, or the page's ``group_metric``): one row per group, worst first, the point and its interval, and
  a vertical line at the overall value (the gap table's reference value);
* the per-group table, worst first by that metric: size, cases per class, the metrics with their
  intervals, small groups flagged (the rule is printed), undefined values with their reason;
* the gaps of each group to the overall (difference and ratio with intervals, p-values, Holm);
* for a binary task, fairlearn's summaries (demographic parity, equalized odds, equal
  opportunity) with their intervals, and the per-group rates they summarise.

With many groups the chart and the tables show the :data:`~clfeval.plot.group_labels.MAX_SHOWN_GROUPS`
worst and say how many are left out. Nothing is computed here: every number is read from the entry.

>>> import clfeval
>>> from clfeval.report.html_model import page_models
>>> ev = clfeval.evaluate([0, 1, 1, 0, 1, 0], y_score=[.2, .9, .6, .4, .3, .5], groups=list("aabbcc"))
>>> m = page_models([ev])[0]
>>> [f["id"] for f in group_figures(m)], main_metric(m.data["groups"])
(['groups-forest-1'], 'roc_auc')
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from clfeval.formulas.measure_registry import MEASURES
from clfeval.plot.group_labels import (
    MAX_SHOWN_GROUPS,
    SMALL_GROUP_LABEL,
    default_group_metric,
    group_metric_higher_is_better,
    group_metric_title,
)
from clfeval.report.html_assets import CLASS_COLORS
from clfeval.report.html_charts import BELOW_AXES_LEGEND, base_layout, chart_div
from clfeval.report.html_format import DASH, as_number, esc, finite_number, fmt, fmt_count, ptext
from clfeval.report.html_model import Model
from clfeval.report.html_tables import value_cell
from clfeval.results.group_results import SMALL_GROUP_RULE, worst_order

__all__ = ["main_metric", "group_figures", "group_section", "shown_rows", "metric_label", "HIDDEN_COLUMNS"]

#: Columns of the group table left out of the page (all are in the JSON and ``by_group.table()``):
#: fall-out is 1 - specificity, NPV and kappa are rarely what a comparison of groups is about.
HIDDEN_COLUMNS = ("fallout", "npv", "kappa")
#: Most classes whose cases the group table lists one by one (more: the smallest class only)
MAX_SUPPORT_CLASSES = 4


def main_metric(groups: Mapping[str, Any]) -> str | None:
    """The metric the section leads with: the entry's ``"main_metric"`` (the page's ``group_metric``) or
    ``"sort_metric"`` (the command line's ``--by-metric``) when its table has it, else
    :func:`~clfeval.plot.group_labels.default_group_metric` of the table's metrics; None without a table."""
    metrics = list((groups.get("table") or {}).get("metrics") or [])
    if not metrics:
        return None
    for asked in (groups.get("main_metric"), groups.get("sort_metric")):  # the page's, the command line's
        if asked in metrics:
            return str(asked)
    return default_group_metric(metrics)


def _positive_name(m: Model) -> str | None:
    labels = list(m.data.get("labels") or [])
    pos = m.data.get("pos_label")
    if m.task != "binary" or pos not in labels or labels.index(pos) >= len(m.names):
        return None
    return m.names[labels.index(pos)]


def metric_label(m: Model, metric: str) -> str:
    """A metric's title on the page; a binary task's per-class rate names the positive class.

    >>> m = Model(0, "A", {"task": "binary", "names": ["no", "yes"], "labels": [0, 1], "pos_label": 1}, "#000")
    >>> metric_label(m, "recall"), metric_label(m, "roc_auc"), metric_label(m, "accuracy")
    ('recall of yes', 'ROC AUC', 'accuracy')
    """
    text = group_metric_title(metric)
    measure = MEASURES.get(metric)
    positive = _positive_name(m)
    if positive is not None and measure is not None and measure.kind == "per_class":
        text += f" of {positive}"
    return text


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _value(row: Mapping[str, Any], key: str) -> float:
    x = finite_number(row.get(key))
    return math.nan if x is None else x


def shown_rows(groups: Mapping[str, Any], metric: str) -> tuple[list[dict[str, Any]], int]:
    """The table's rows the page shows, worst first by ``metric`` (undefined values last), at most
    :data:`~clfeval.plot.group_labels.MAX_SHOWN_GROUPS`; and how many groups are not shown."""
    table = groups.get("table") or {}
    rows = list(table.get("rows") or [])
    values = np.array([_value(r, metric) for r in rows], dtype=np.float64)
    order = worst_order(values, group_metric_higher_is_better(metric))[:MAX_SHOWN_GROUPS]
    hidden = len(rows) - len(order) + int(table.get("omitted") or 0)
    return [rows[i] for i in order], hidden


def _reference(m: Model, groups: Mapping[str, Any], metric: str) -> float | None:
    """The overall value of ``metric``: the gap table's reference value, else the report's number
    for a measure of the whole table (accuracy, MCC, ...); None if the entry has neither."""
    gap = (groups.get("gaps") or {}).get(metric) or {}
    if "error" not in gap and gap.get("reference") == "overall":
        return finite_number(gap.get("reference_value"))
    measure = MEASURES.get(metric)
    if measure is not None and measure.kind == "overall":
        return finite_number((m.report.get("overall") or {}).get(metric))
    return None


def _why_undefined(row: Mapping[str, Any], metric: str) -> str:
    for note in row.get("notes") or []:
        if str(note).startswith(f"{metric}: "):
            return str(note)[len(metric) + 2:]
    return "undefined in this group"


def _shown_text(n_shown: int, hidden: int, metric_text: str) -> str:
    if not hidden:
        return ""
    return (f" Only the {n_shown:,} worst groups by {metric_text} are shown; {hidden:,} more are not (every "
            "group is in the JSON and in Evaluation.by_group.table()).")


# -- the forest plot ---------------------------------------------------------------------------------
def _forest_figure(m: Model, groups: Mapping[str, Any], metric: str) -> dict[str, Any] | None:
    rows, hidden = shown_rows(groups, metric)
    if not rows:
        return None
    table = groups.get("table") or {}
    level = as_number(table.get("level"))
    label = metric_label(m, metric)
    color = CLASS_COLORS[0]
    pct = "" if level is None else f"{level * 100:.4g}%"
    ref = _reference(m, groups, metric)
    k = len(rows)
    traces: list[dict[str, Any]] = []
    for small in (False, True):
        idx = [j for j, r in enumerate(rows) if bool(r.get("small")) == small and not math.isnan(_value(r, metric))]
        if not idx:
            continue
        xs = [_value(rows[j], metric) for j in idx]
        lows = [finite_number(rows[j].get(f"{metric}_low")) for j in idx]
        highs = [finite_number(rows[j].get(f"{metric}_high")) for j in idx]
        custom = [[ptext(rows[j]["group"]),
                   DASH if lo is None or hi is None else f"{fmt(lo)} to {fmt(hi)}",
                   fmt_count(rows[j].get("n")), " \u00b7 small group" if small else ""]
                  for j, lo, hi in zip(idx, lows, highs)]
        trace: dict[str, Any] = {
            "type": "scatter", "mode": "markers", "x": xs, "y": idx, "customdata": custom,
            "name": (SMALL_GROUP_LABEL if small else (f"group, {pct} interval" if pct else "group")),
            "marker": {"color": "#ffffff" if small else color, "size": 10, "symbol": "circle",
                       "line": {"color": color, "width": 2}},
            "hovertemplate": (f"%{{customdata[0]}}<br>{ptext(label)} %{{x:.4f}}"
                              + (f"<br>{pct} interval %{{customdata[1]}}" if pct else "")
                              + "<br>n %{customdata[2]}%{customdata[3]}<extra></extra>"),
        }
        if level is not None:
            trace["error_x"] = {
                "type": "data", "symmetric": False, "color": color, "thickness": 1.8, "width": 5,
                "array": [None if hi is None else max(hi - x, 0.0) for x, hi in zip(xs, highs)],
                "arrayminus": [None if lo is None else max(x - lo, 0.0) for x, lo in zip(xs, lows)],
            }
        traces.append(trace)
    undefined = [j for j, r in enumerate(rows) if math.isnan(_value(r, metric))]
    annotations = []
    for j in undefined:  # the reason in the row, from the left edge of the axes
        why = _why_undefined(rows[j], metric)
        annotations.append({
            "xref": "paper", "x": 0.005, "xanchor": "left", "yref": "y", "y": j, "showarrow": False,
            "text": ptext(why if len(why) <= 90 else why[:89] + "\u2026"),
            "hovertext": ptext(why), "font": {"size": 11, "color": "#59636e"},
        })
    if ref is not None:
        traces.append({
            "type": "scatter", "mode": "lines", "x": [ref, ref], "y": [-0.5, k - 0.5],
            "name": f"overall ({fmt(ref)})", "line": {"color": "#59636e", "dash": "dash", "width": 1.5},
            "hovertemplate": f"overall {ptext(label)} %{{x:.4f}}<extra></extra>",
        })
    names = [str(r["group"]) for r in rows]
    ticks = [ptext(n if len(n) <= 28 else n[:27] + "\u2026") for n in names]
    title = f"{_capital(label)} by group \u00b7 {m.name}" + (f" (the {k:,} worst of {k + hidden:,})" if hidden else "")
    layout = base_layout(ptext(title), max(300, 170 + 30 * k))  # the page's charts are 300 px at least
    layout["xaxis"] = {"title": {"text": ptext(label) + (f" ({pct} interval)" if pct else "")},
                       "gridcolor": "#eaeef2", "linecolor": "#8c959f", "mirror": True, "ticks": "outside",
                       "zeroline": False, "automargin": True}
    layout["yaxis"] = {"tickmode": "array", "tickvals": list(range(k)), "ticktext": ticks,
                       "range": [k - 0.5, -0.5], "showgrid": False, "zeroline": False, "linecolor": "#8c959f",
                       "mirror": True,
                       "automargin": True, "fixedrange": True}
    layout["legend"] = BELOW_AXES_LEGEND
    layout["margin"] = {"l": 64, "r": 24, "t": 56, "b": 24}
    layout["hovermode"] = "closest"
    if annotations:
        layout["annotations"] = annotations
    return {"id": f"groups-forest-{m.index + 1}", "kind": "2d", "data": traces, "layout": layout}


def group_figures(m: Model) -> list[dict[str, Any]]:
    """The model's forest plot of its main group metric (none without groups)."""
    groups = m.data.get("groups")
    if not isinstance(groups, Mapping):
        return []
    metric = main_metric(groups)
    fig = None if metric is None else _forest_figure(m, groups, metric)
    return [] if fig is None else [fig]


# -- the tables ---------------------------------------------------------------------------------------
def _p_text(p: Any) -> str:
    x = finite_number(p)
    if x is None:
        return DASH
    return "&lt; 0.0001" if x < 1e-4 else f"{x:.4f}"


def _support_head(rows: list[dict[str, Any]]) -> str:
    """The header of the cases-per-class column: the classes themselves when they are few."""
    classes = list((rows[0].get("support") or {}) if rows else {})
    if classes and len(classes) <= MAX_SUPPORT_CLASSES:
        return "cases per class<br>(" + " \u00b7 ".join(esc(c) for c in classes) + ")"
    return "cases of the smallest class"


def _support_cell(row: Mapping[str, Any]) -> str:
    support = row.get("support") or {}
    if not support:
        return f"<td>{DASH}</td>"
    full = " \u00b7 ".join(f"{esc(c)} {fmt_count(v)}" for c, v in support.items())
    if len(support) <= MAX_SUPPORT_CLASSES:
        return f'<td data-col="support" title="{full}">{" &middot; ".join(fmt_count(v) for v in support.values())}</td>'
    c, v = min(support.items(), key=lambda kv: as_number(kv[1]) or 0.0)
    return f'<td data-col="support" title="{full}">{fmt_count(v)} ({esc(c)})</td>'


def _metric_cell(row: Mapping[str, Any], metric: str, level: float | None, method: str) -> str:
    value = row.get(metric)
    if finite_number(value) is None:  # NaN in the results, null in their JSON
        why = _why_undefined(row, metric)
        return (f'<td data-col="{esc(metric)}" data-value="nan" class="undefined" title="{esc(why)}">{DASH}'
                f'<span class="ci">undefined</span></td>')
    interval = None if level is None else (row.get(f"{metric}_low"), row.get(f"{metric}_high"), method)
    return value_cell(metric, value, interval=interval)


def _group_table(m: Model, groups: Mapping[str, Any], metric: str, rows: list[dict[str, Any]]) -> str:
    table = groups.get("table") or {}
    level = as_number(table.get("level"))
    methods = table.get("methods") or {}
    metrics = [metric] + [c for c in table.get("metrics") or [] if c != metric and c not in HIDDEN_COLUMNS]
    weighted = any("weight" in r for r in rows)
    columns = " / ".join(str(c) for c in groups.get("columns") or table.get("columns") or ["group"])
    head = (f'<th scope="col">{esc(columns)}</th><th scope="col" data-col="n">n</th>'
            + ('<th scope="col" data-col="weight">weight</th>' if weighted else "")
            + f'<th scope="col" data-col="support">{_support_head(rows)}</th>'
            + "".join(f'<th scope="col" data-col="{esc(c)}" title="{esc(metric_label(m, c))}">'
                      f'{esc(group_metric_title(c))}{"&nbsp;&#9650;" if c == metric else ""}</th>' for c in metrics))
    body = []
    notes = []
    for r in rows:
        small = bool(r.get("small"))
        badge = ' <span class="badge" title="' + esc(SMALL_GROUP_RULE) + '">small</span>' if small else ""
        cells = [f'<th scope="row">{esc(r["group"])}{badge}</th>',
                 f'<td data-col="n" data-value="{esc(r.get("n"))}">{fmt_count(r.get("n"))}</td>']
        if weighted:
            cells.append(f'<td data-col="weight">{fmt_count(r.get("weight"))}</td>')
        cells.append(_support_cell(r))
        cells += [_metric_cell(r, c, level, str(methods.get(c, ""))) for c in metrics]
        body.append(f'<tr data-group="{esc(r["group"])}"{" class=small" if small else ""}>{"".join(cells)}</tr>')
        notes += [f"{r['group']}: {n}" for n in r.get("notes") or []]
    ci_text = (f" Under each value, its {level * 100:.4g}% confidence interval (hover for the method)."
               if level is not None else
               " No intervals: the group table this page was made from has none (give the page the Evaluation, "
               "or Evaluation.to_dict(ci_level=0.95); on the command line, add --ci).")
    positive = _positive_name(m)
    of_class = (f" Precision, recall, F1, specificity and the selection rate (the share predicted positive) "
                f"are those of the positive class, {positive}." if positive is not None else "")
    caption = (f"One row per group, worst first by {esc(metric_label(m, metric))} (&#9650;); {DASH} marks an "
               f"undefined value (hover it for why).{esc(of_class + ci_text)}")
    out = (f'<div class="table-wrap"><table class="numbers groups" data-model="{m.index}">'
           f"<caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>")
    rule = str(table.get("small_rule") or SMALL_GROUP_RULE)
    rule = rule[len("small: "):] if rule.startswith("small: ") else rule
    extra = [f"Small groups (marked small; hollow in the chart): {rule}"]
    if any(c in (table.get("metrics") or []) for c in HIDDEN_COLUMNS):
        extra.append("Fall-out, NPV and kappa per group are in the JSON (Evaluation.by_group.table()).")
    return out + '<ul class="notes">' + "".join(f"<li>{esc(n)}</li>" for n in extra + notes) + "</ul>"


def _gap_table(m: Model, gap: Mapping[str, Any]) -> str:
    metric = str(gap.get("metric"))
    label = metric_label(m, metric)
    rows = list(gap.get("rows") or [])
    values = np.array([_value(r, "value") for r in rows], dtype=np.float64)
    order = worst_order(values, group_metric_higher_is_better(metric))[:MAX_SHOWN_GROUPS]
    hidden = len(rows) - len(order) + int(gap.get("omitted") or 0)
    level = as_number(gap.get("level")) or 0.95
    pct = f"{level * 100:.4g}%"
    body = []
    for i in order:
        r = rows[i]
        holm = finite_number(r.get("pvalue_holm"))
        cls = ' class="signif"' if holm is not None and holm < 1 - level else ""

        def signed(key: str) -> str:
            x = finite_number(r.get(key))
            return DASH if x is None else f"{x:+.4f}"

        def interval(lo_key: str, hi_key: str, digits: int = 4, sign: bool = False) -> str:
            lo, hi = finite_number(r.get(lo_key)), finite_number(r.get(hi_key))
            if lo is None or hi is None:
                return f'<span class="ci">{DASH}</span>'
            f = (lambda x: f"{x:+.{digits}f}") if sign else (lambda x: f"{x:.{digits}f}")
            return f'<span class="ci" data-low="{lo!r}" data-high="{hi!r}">{f(lo)} to {f(hi)}</span>'

        body.append(
            f'<tr data-group="{esc(r["group"])}"><th scope="row">{esc(r["group"])}</th>'
            f'<td data-col="n">{fmt_count(r.get("n"))}</td>'
            f'<td data-col="value" data-value="{esc(repr(_value(r, "value")))}">{fmt(r.get("value"))}</td>'
            f'<td data-col="difference" data-value="{esc(repr(_value(r, "difference")))}">{signed("difference")}'
            f'{interval("difference_low", "difference_high", sign=True)}</td>'
            f'<td data-col="ratio" data-value="{esc(repr(_value(r, "ratio")))}">{fmt(r.get("ratio"))}'
            f'{interval("ratio_low", "ratio_high")}</td>'
            f'<td data-col="pvalue" data-value="{esc(repr(_value(r, "pvalue")))}">{_p_text(r.get("pvalue"))}</td>'
            f'<td data-col="pvalue_holm" data-value="{esc(repr(_value(r, "pvalue_holm")))}"{cls}>'
            f'{_p_text(r.get("pvalue_holm"))}</td></tr>')
    caption = (f"Each group's {esc(label)} minus (difference) and divided by (ratio) its value in all rows, "
               f"{fmt(gap.get('reference_value'))}; under each, its {pct} interval; p tests no difference. "
               f"Sampling: {esc(str(gap.get('sampling', '')))}; method: {esc(str(gap.get('method', '')))}. "
               f"Bold: Holm-adjusted p below {1 - level:.2g}.")
    head = "".join(f'<th scope="col">{h}</th>' for h in (
        "group", "n", esc(label), "difference", "ratio", "p", "p (Holm)"))
    notes = [*(gap.get("notes") or [])]
    if hidden:
        notes.append(_shown_text(len(order), hidden, label).strip())
    return (f'<h4>{esc(_capital(label))}</h4><div class="table-wrap"><table class="numbers gaps" data-metric="{esc(metric)}">'
            f"<caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
            + ('<ul class="notes">' + "".join(f"<li>{esc(n)}</li>" for n in notes) + "</ul>" if notes else ""))


def _fairness(fair: Mapping[str, Any], rows: list[dict[str, Any]]) -> str:
    level = as_number(fair.get("level")) or 0.95
    pct = f"{level * 100:.4g}%"
    body = []
    for name, s in (fair.get("summaries") or {}).items():
        lo, hi = finite_number(s.get("low")), finite_number(s.get("high"))
        interval = DASH if lo is None or hi is None else f"{fmt(lo)} to {fmt(hi)}"
        body.append(f'<tr data-summary="{esc(name)}"><th scope="row">{esc(name.replace("_", " "))}</th>'
                    f'<td data-value="{esc(repr(_value(s, "value")))}">{fmt(s.get("value"))}</td>'
                    f'<td>{interval}</td><td class="text">{esc(s.get("definition", ""))}</td></tr>')
    summaries = ('<div class="table-wrap"><table class="numbers fairness"><caption>fairlearn\'s summaries of the '
                 f"per-group rates of the positive class, with {pct} intervals ({esc(fair.get('method', ''))}).</caption>"
                 '<thead><tr><th scope="col">summary</th><th scope="col">value</th><th scope="col">interval</th>'
                 f'<th scope="col" class="text">definition</th></tr></thead><tbody>{"".join(body)}</tbody></table></div>')
    rates = fair.get("rates") or {}
    titles = {"selection_rate": "selection rate", "tpr": "TPR (recall)", "fpr": "FPR (fall-out)"}
    where = {}
    for key, entry in rates.items():
        for g, v in zip(entry.get("groups") or [], entry.get("values") or []):
            where.setdefault(str(g), {})[key] = v
    rate_rows = "".join(
        f'<tr data-group="{esc(r["group"])}"><th scope="row">{esc(r["group"])}</th>'
        + "".join(f'<td data-col="{k}">{fmt(where.get(str(r["group"]), {}).get(k))}</td>' for k in rates)
        + "</tr>" for r in rows)
    rate_table = ("<details><summary>The per-group rates they summarise</summary>"
                  '<div class="table-wrap"><table class="numbers rates"><caption>The positive class\'s rates, '
                  "in the order of the group table.</caption><thead><tr><th scope=\"col\">group</th>"
                  + "".join(f'<th scope="col">{esc(titles.get(k, k))}</th>' for k in rates)
                  + f"</tr></thead><tbody>{rate_rows}</tbody></table></div></details>") if rates else ""
    notes = list(fair.get("notes") or [])
    return (summaries + rate_table
            + ('<ul class="notes">' + "".join(f"<li>{esc(n)}</li>" for n in notes) + "</ul>" if notes else ""))


def group_section(m: Model, by_id: Mapping[str, dict[str, Any]]) -> str:
    """The section's HTML ('' when the model has no groups)."""
    groups = m.data.get("groups")
    if not isinstance(groups, Mapping):
        return ""
    metric = main_metric(groups)
    n_groups = int(groups.get("n_groups") or len((groups.get("table") or {}).get("rows") or []))
    columns = ", ".join(str(c) for c in groups.get("columns") or []) or "group"
    parts = [f'<section class="groups" id="groups-{m.index + 1}"><h2>By group: {esc(m.name)}</h2>']
    intro = (f"{n_groups:,} group{'s' if n_groups != 1 else ''} by {columns}. Each group's numbers are those of "
             "clfeval.evaluate on its rows with the overall evaluation's labels, positive class and threshold.")
    if metric is None:
        parts.append(f'<p class="hint">{esc(intro)} The entry has no group table.</p></section>')
        return "".join(parts)
    rows, hidden = shown_rows(groups, metric)
    label = metric_label(m, metric)
    parts.append(f'<p class="hint">{esc(intro)}{esc(_shown_text(len(rows), hidden, label))}</p>')
    if groups.get("notes"):  # e.g. the command line's "only one group"
        parts.append('<ul class="notes">' + "".join(f"<li>{esc(n)}</li>" for n in groups["notes"]) + "</ul>")
    fig = by_id.get(f"groups-forest-{m.index + 1}")
    if fig is not None:
        ref = "the dashed line is the value in all rows" if any(
            str(t.get("name", "")).startswith("overall") for t in fig["data"]) else (
            "no overall value is in this entry, so there is no reference line")
        has_bars = any("error_x" in t for t in fig["data"])
        bars = "its bar the confidence interval" if has_bars else "without intervals (see the table)"
        parts.append(f"<h3>{esc(_capital(label))} per group</h3>")
        parts.append(f'<p class="hint">Each point is a group\'s value, {bars}; {ref}. Hollow points are small '
                     "groups, whose intervals are least reliable. Hover a point for its numbers.</p>")
        parts.append(chart_div(fig, "forest", max_width=980))
    parts.append("<h3>Per-group table</h3>")
    parts.append(_group_table(m, groups, metric, rows))
    gaps = groups.get("gaps") or {}
    if gaps:
        parts.append("<h3>Gaps against the overall</h3>")
        for name in sorted(gaps, key=lambda g: g != metric):  # the section's metric first, the others folded
            gap = gaps[name]
            if "error" in gap:
                html = (f'<h4>{esc(_capital(metric_label(m, name)))}</h4>'
                        f'<p class="hint">No gaps: {esc(gap["error"])}</p>')
            else:
                html = _gap_table(m, gap)
            parts.append(html if name == metric or metric not in gaps else
                         f"<details><summary>Gaps of {esc(metric_label(m, name))}</summary>{html}</details>")
    fair = groups.get("fairness")
    if isinstance(fair, Mapping):
        parts.append("<h3>Fairness summaries</h3>")
        parts.append(_fairness(fair, rows))
    parts.append("</section>")
    return "".join(parts)
