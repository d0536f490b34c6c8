"""The number tables of the HTML report: the headline cards, the classification report, the
comparison of several models and the paired tests, and the table cell of one value (with its
interval) that they share.

>>> value_cell("recall", 0.5)
'<td data-col="recall" data-value="0.5">0.5000</td>'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from clfeval.formulas.measure_registry import MEASURES
from clfeval.report.html_format import DASH, as_number, esc, finite_number, fmt, fmt_count
from clfeval.report.html_model import Model

__all__ = ["HEADLINE", "value_cell", "report_table", "cards", "comparison_table", "paired_tests_section"]


#: (key of report["overall"], display title, higher is better), titles and directions from
#: :mod:`clfeval.formulas.measure_registry`
HEADLINE: tuple[tuple[str, str, bool], ...] = tuple(
    (key, MEASURES[key].title, bool(MEASURES[key].higher_is_better))
    for key in ("accuracy", "balanced_accuracy", "mcc", "kappa", "roc_auc", "average_precision", "ovo_auc",
                "ovo_auc_weighted", "hamming_loss")
)


def value_cell(col: str, value: Any, *, count: bool = False, best: bool = False,
                interval: tuple[Any, Any, str] | None = None) -> str:
    x = as_number(value)
    attrs = f' data-col="{esc(col)}"'
    if x is None or math.isnan(x):
        why = "not applicable" if value is None else "undefined (0/0): see the notes below"
        return f'<td{attrs} data-value="{"nan" if value is not None else ""}" class="undefined" title="{why}">{DASH}</td>'
    text = fmt_count(x) if count else fmt(x)
    cls = ' class="best"' if best else ""
    return f"<td{attrs} data-value=\"{x!r}\"{cls}>{text}{_interval_text(interval)}</td>"


def _interval_text(interval: tuple[Any, Any, str] | None) -> str:
    """The interval under a value ("0.912–0.968"), with its method as a tooltip; '' without one."""
    if interval is None:
        return ""
    low, high, method = as_number(interval[0]), as_number(interval[1]), interval[2]
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return f'<span class="ci" title="{esc(method)}">{DASH}</span>'
    return (f'<span class="ci" data-low="{low!r}" data-high="{high!r}" title="{esc(method)}">'
            f"{fmt(low, 3)}\u2013{fmt(high, 3)}</span>")


def _row_intervals(m: Model, row: int | str, summary: bool) -> dict[str, tuple[Any, Any, str]]:
    """{column: (low, high, method)} of one report row, from the data's "intervals" entry."""
    data = m.data.get("intervals")
    if not data:
        return {}
    if summary:
        return {c: (ci["low"], ci["high"], ci["method"]) for c, ci in (data["averages"].get(row) or {}).items()}
    return {c: (ci["low"][row], ci["high"][row], ci["method"]) for c, ci in data["per_class"].items()}


def report_table(m: Model) -> str:
    """The classification report of one model: a row per class (or label), then the averages, each
    value with its confidence interval when the data hold intervals."""
    from clfeval.results.report import title as column_title

    rep = m.report
    columns = list(rep.get("columns") or [])
    head = "".join(f'<th scope="col" data-col="{esc(c)}">{esc(column_title(c))}</th>' for c in columns)
    first = "label" if m.task == "multilabel" else "class"

    def row(r: dict[str, Any], summary: bool, key: int | str) -> str:
        cis = _row_intervals(m, key, summary)
        cells = "".join(value_cell(c, r.get(c), count=c == "support", interval=cis.get(c)) for c in columns)
        kind = "summary" if summary else "class"
        return (f'<tr data-row="{esc(r.get("label"))}" data-kind="{kind}">'
                f'<th scope="row">{esc(r.get("label"))}</th>{cells}</tr>')

    from clfeval.results.report import shown_classes

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
        f"<caption>One row per {first}, then the averages; {DASH} marks a value that is undefined "
        f"or does not apply.{esc(ci_text)}</caption>"
        f'<thead><tr><th scope="col">{first}</th>{head}</tr></thead>'
        f'<tbody class="classes">{body}</tbody><tbody class="summary">{summary}</tbody></table></div>'
    )


def cards(m: Model) -> str:
    """The headline numbers of one model (those of :data:`HEADLINE` it has), as a row of cards."""
    overall = m.report.get("overall") or {}
    cis = (m.data.get("intervals") or {}).get("overall") or {}
    items = []
    for key, label, _ in HEADLINE:
        if key in overall:
            v = overall[key]
            ci = cis.get(key)
            items.append(
                f'<li class="card" data-metric="{key}" data-value="{esc(repr(as_number(v)))}">'
                f'<span class="label">{esc(label)}</span><span class="value">{fmt(v)}</span>'
                f'{_interval_text(None if ci is None else (ci["low"], ci["high"], ci["method"]))}</li>'
            )
    return f'<ul class="cards" data-model="{m.index}">{"".join(items)}</ul>'


def comparison_table(models: list[Model]) -> str:
    """One row per model with the headline numbers and macro F1; the best of each column highlighted."""
    metrics = [(k, t, hi) for k, t, hi in HEADLINE if any(k in (m.report.get("overall") or {}) for m in models)]
    extra = [("macro_f1", f"macro {MEASURES['f1'].label}", True)]

    def value(m: Model, key: str) -> Any:
        if key == "macro_f1":
            return ((m.report.get("averages") or {}).get("macro") or {}).get("f1")
        return (m.report.get("overall") or {}).get(key)

    cols = metrics + extra
    best: dict[str, set[int]] = {}
    for key, _, higher in cols:
        vals = [(finite_number(value(m, key)), m.index) for m in models]
        finite = [(v, i) for v, i in vals if v is not None]
        if len(finite) >= 2:
            target = max(v for v, _ in finite) if higher else min(v for v, _ in finite)
            best[key] = {i for v, i in finite if v == target}
    head = "".join(f'<th scope="col" data-col="{k}">{esc(t)}</th>' for k, t, _ in cols)
    rows = "".join(
        f'<tr data-row="{esc(m.name)}"><th scope="row"><a href="#model-{m.index + 1}">{esc(m.name)}</a></th>'
        f'<td data-col="n_samples" data-value="{esc(m.data.get("n_samples"))}">{fmt_count(m.data.get("n_samples"))}</td>'
        + "".join(value_cell(k, value(m, k), best=m.index in best.get(k, set())) for k, _, _ in cols)
        + "</tr>"
        for m in models
    )
    return (
        '<div class="table-wrap"><table class="numbers comparison">'
        "<caption>One row per model; the best value of each column is highlighted.</caption>"
        f'<thead><tr><th scope="col">model</th><th scope="col" data-col="n_samples">samples</th>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def paired_tests_section(tests: Sequence[Mapping[str, Any]]) -> str:
    """The paired tests of a comparison: one row per (model a, model b, test)."""
    rows = []
    for t in tests:
        r = t["result"]
        ci = r.get("confidence_interval")
        interval = DASH if not ci else f"{fmt(ci['low'])} to {fmt(ci['high'])}"
        p = as_number(r.get("pvalue"))
        p_text = DASH if p is None or math.isnan(p) else ("&lt; 0.0001" if p < 1e-4 else f"{p:.4f}")
        est = as_number(r.get("estimate"))
        rows.append(
            f'<tr data-test="{esc(t["test"])}"><th scope="row">{esc(t["model_a"])} vs {esc(t["model_b"])}</th>'
            f'<td class="text">{esc(t["test"])}</td><td>{DASH if est is None else f"{est:+.4f}"}</td>'
            f'<td title="{esc((ci or {}).get("method", ""))}">{interval}</td>'
            f'<td>{fmt(r.get("statistic"))}</td><td data-value="{esc(repr(p))}">{p_text}</td></tr>'
        )
        for note in r.get("notes") or []:
            rows.append(f'<tr class="note"><td colspan="6">{esc(note)}</td></tr>')
    return (
        '<section id="tests"><h2>Paired tests</h2><p class="hint">The models were evaluated on the same cases; '
        "each row tests whether model a and model b differ (estimate = a minus b, with its confidence "
        "interval; hover it for the method).</p>"
        '<div class="table-wrap"><table class="numbers tests"><thead><tr><th scope="col">models</th>'
        '<th scope="col">test</th><th scope="col">estimate</th><th scope="col">interval</th>'
        '<th scope="col">statistic</th><th scope="col">p-value</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div></section>\n"
    )
