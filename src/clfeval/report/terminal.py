"""An Evaluation in the terminal (rich): headline, classification report, confusion matrix, curves.

Undefined values show as ``nan`` (dimmed), average rows are kept apart from the class rows, and a
confusion matrix of more than :data:`MAX_MATRIX_CLASSES` classes is left to the HTML report.

>>> import clfeval
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="demo")
>>> text = render_text(ev, width=100)
>>> "ROC AUC" in text and "break-even" in text
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from clfeval.formulas.measure_registry import MEASURES
from clfeval.report.calibration_text import calibration_modern_line
from clfeval.report.numbers import column_groups, interval_text, share_text
from clfeval.results.confusion import MAX_MATRIX_CLASSES
from clfeval.results.report import shown_classes, title
from clfeval.results.report_text import format_value
from clfeval.support.number_text import pvalue_text

if TYPE_CHECKING:
    from rich.console import Console

    from clfeval.evaluation import Evaluation

__all__ = ["print_evaluation", "print_intervals", "print_thresholds", "print_binning", "print_comparison", "print_tests", "render_text", "print_split_table", "MAX_MATRIX_CLASSES"]


def _cell(value: Any, digits: int, column: str = "") -> str:
    text = format_value(value, digits, column)
    return f"[dim]{text}[/dim]" if text == "nan" else text


def _esc(text: Any) -> str:
    from rich.markup import escape

    return escape(str(text))


def _table(title_text: str) -> Any:
    from rich import box
    from rich.table import Table

    return Table(title=title_text, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                 collapse_padding=True, title_style="bold")


def _with_caption(table: Any, caption: str) -> Any:
    """The table with a dim line under it (wrapped at the console's width, not the table's)."""
    from rich.console import Group
    from rich.text import Text

    return Group(table, Text(caption, style="dim"))


def _headline(ev: Evaluation) -> str:
    parts = [f"[bold]{_esc(ev.name or 'model')}[/bold]", f"{ev.task}", f"{ev.n_samples:,} samples"]
    if ev.total_weight != ev.n_samples:
        parts.append(f"total weight {ev.total_weight:g}")
    parts.append(f"{len(ev.labels)} {'labels' if ev.task == 'multilabel' else 'classes'}")
    if ev.task == "binary":
        parts.append(f"positive class {_esc(ev.names[list(ev.labels).index(ev.pos_label)])}"
                     if ev.pos_label in list(ev.labels) else f"positive class {_esc(ev.pos_label)}")
    if ev.threshold is not None:
        parts.append(f"positive when {ev.score_kind} >= {ev.threshold:g}")
    elif ev.has_scores and ev.task == "multiclass":
        parts.append("predictions = the highest-scoring class")
    return " · ".join(parts)


#: column titles for narrow terminals
SHORT_TITLES = {mm.name: mm.short for mm in MEASURES.values() if mm.kind != "overall" and mm.in_report}


def _report_table(ev: Evaluation, width: int) -> Any:
    rep = ev.report
    shown, notice = shown_classes(rep.rows)  # many classes: those with the most support
    class_rows = [rep.rows[i] for i in shown]
    rows = [*class_rows, *rep.averages.values()]
    cells = {c: [format_value(r.get(c), rep.digits, c) for r in rows] for c in rep.columns}
    labels = [str(r["label"]) for r in rows]
    full = [title(c) for c in rep.columns]
    need = max(map(len, labels)) + sum(max(len(t), *map(len, cells[c])) + 1 for t, c in zip(full, rep.columns))
    short = need > width
    if short:  # narrow terminal: short titles, averages named by their kind only
        full = [SHORT_TITLES.get(c, title(c)) for c in rep.columns]
        labels = labels[: len(class_rows)] + [str(k) for k in rep.averages]
    table = _table("Classification report")
    table.add_column("class", justify="right", style="bold", min_width=min(24, max(map(len, labels))))
    for t, c in zip(full, rep.columns):
        table.add_column(t, justify="right", min_width=max(map(len, cells[c])), no_wrap=True)
    last = len(class_rows) - 1
    for i, (label, r) in enumerate(zip(labels, rows)):
        style = "italic" if i > last else None
        table.add_row(_esc(label), *(_cell(r.get(c), rep.digits, c) for c in rep.columns),
                      end_section=i == last, style=style)
    captions = [notice] if notice else []
    if short:
        captions.append(", ".join(f"{SHORT_TITLES[c]} = {title(c)}" for c in rep.columns
                                  if c in SHORT_TITLES and SHORT_TITLES[c] != title(c)))
    return _with_caption(table, "\n".join(captions)) if captions else table


def _overall_table(ev: Evaluation) -> Any:
    from rich.table import Table

    table = Table(show_header=False, show_edge=False, box=None, pad_edge=False)
    table.add_column(justify="right", style="bold")
    table.add_column(justify="right")
    for k, v in ev.report.overall.items():
        table.add_row(title(k), _cell(v, ev.report.digits))
    if ev.break_even is not None and not math.isnan(ev.break_even.value):
        b = ev.break_even
        table.add_row("break-even", f"{b.value:.{ev.report.digits}f} (precision = recall, threshold {b.threshold:.4g})")
    return table


def _confusion_table(ev: Evaluation) -> Any:
    cm = ev.confusion
    if cm.is_multilabel:  # multilabel: one 2x2 table per label
        table = _table("Per-label counts")
        table.add_column("label", justify="right", style="bold")
        for c in ("TP", "FN", "FP", "TN"):
            table.add_column(c, justify="right")
        pc = cm.per_class()
        for i, name in enumerate(cm.names):
            table.add_row(_esc(name), *(format_value(_num(pc[k][i]), column="support") for k in ("tp", "fn", "fp", "tn")))
        return table
    if cm.pairs is not None:  # pair-coded: no page or picture draws a k x k table either
        return (f"Confusion matrix: {len(cm.names):,} classes, kept as its {cm.pairs.codes.size:,} non-zero cells; "
                "every cell is in the JSON output (--json: confusion.cells).")
    if len(cm.names) > MAX_MATRIX_CLASSES:
        return f"Confusion matrix: {len(cm.names)} classes, too many for the terminal; see --html or --png."
    share = cm.normalized("true")
    table = _table("Confusion matrix")
    table.add_column("true \\ pred", justify="right", style="bold")
    for name in cm.names:
        table.add_column(_esc(name), justify="right")
    for i, name in enumerate(cm.names):
        cells = []
        for j in range(len(cm.names)):
            text = format_value(_num(cm.counts[i, j]), column="support")
            pct = share_text(share[i, j])
            pct = f" [dim]{pct}[/dim]" if pct else ""
            cells.append(f"[bold green]{text}[/bold green]{pct}" if i == j else f"{text}{pct}")
        table.add_row(_esc(name), *cells)
    return _with_caption(table, "rows = true class, columns = predicted class; % = share of the row")


def _num(v: Any) -> Any:
    return v.item() if hasattr(v, "item") else v


def _curves_table(ev: Evaluation) -> Any:
    if not ev.has_scores:
        return None
    rocs, prs = ev.compact_curves("roc", 16), ev.compact_curves("pr", 16)  # areas and operating points only
    table = _table("Curves")
    for c in ("curve", "ROC AUC", "FPR, TPR at threshold", "AP", "recall, precision at threshold"):
        table.add_column(c, justify="right")
    digits = ev.report.digits
    for key, roc in rocs.items():
        pr = prs[key]

        def op(curve: Any) -> str:
            p = curve.operating_point
            return "" if p is None else f"{p.x:.{digits}f}, {p.y:.{digits}f}"

        table.add_row(_esc(roc.name), _cell(roc.area, digits), op(roc), _cell(pr.area, digits), op(pr))
    return _with_caption(table, "at threshold = the operating point of the current predictions")


def print_evaluation(ev: Evaluation, console: Console | None = None) -> None:
    """Print one evaluation: headline, report, overall numbers, confusion matrix, curves, notes."""
    from rich.console import Console

    console = console or Console()
    console.print(_headline(ev))
    console.print()
    console.print(_report_table(ev, console.width))
    console.print()
    console.print(_overall_table(ev))
    console.print()
    console.print(_confusion_table(ev))
    curves = _curves_table(ev)
    if curves is not None:
        console.print()
        console.print(curves)
    if ev.report.notes:
        console.print()
        for note in ev.report.notes:
            console.print(f"[dim]note: {_esc(note)}[/dim]")


def print_thresholds(ev: Evaluation, data: dict[str, Any], console: Console | None = None) -> None:
    """Operating points, costs, the cost curve's area and calibration (``data`` from
    ``ev.thresholds_dict()``); prints nothing where there is nothing to show."""
    from rich.console import Console

    console = console or Console()
    digits = ev.report.digits
    points = data.get("operating_points") or {}
    if points:
        heads = ["threshold", "value", "precision", "recall", "specificity", "F1", "TP", "FP", "FN", "TN"]
        rows = []
        for curve, by_rule in points.items():
            for rule, p in by_rule.items():
                if "error" in p:
                    rows.append([_esc(curve), rule, "[dim]undefined[/dim]", *[""] * 9])
                    continue
                rows.append([_esc(curve), rule, f"{p['threshold']:.6g}", _cell(p["value"], digits),
                             *(_cell(p[k], digits) for k in ("precision", "recall", "specificity", "f1")),
                             *(_cell(p[k], 0) for k in ("tp", "fp", "fn", "tn"))])
        console.print()
        print_split_table(console, "Operating points (score >= threshold)", ["curve", "rule"], heads, rows,
                          caption="apply one with ev.at(threshold), or clfeval report --threshold RULE")
    lines = []
    costs = data.get("costs")
    if costs:
        lines.append(f"costs: expected cost {format_value(costs['expected_cost'], digits)} per sample, "
                     f"cost-sensitive error rate {format_value(costs['cost_sensitive_error_rate'], digits)}")
    curve = data.get("cost_curve")
    if curve:
        lines.append(f"cost curve: area under the lower envelope {format_value(curve['area'], digits)} "
                     "(trivial classifiers 0.25)")
    cal = data.get("calibration")
    if cal and "error" in cal:
        lines.append(f"calibration: not computed ({cal['error']})")
    elif cal:
        d = cal["decomposition"]
        lines.append(
            f"calibration ({cal['mode']}, {cal['n_bins']} {cal['strategy']} bins): ECE {format_value(cal['ece'], digits)}"
            f" (L2 {format_value(cal['ece_l2'], digits)}, max {format_value(cal['ece_max'], digits)}); "
            f"Brier {format_value(cal['brier'], digits)} = reliability {format_value(d['reliability'], digits)} "
            f"- resolution {format_value(d['resolution'], digits)} + uncertainty {format_value(d['uncertainty'], digits)}"
            f" (+ within-bin terms); log loss {format_value(cal['log_loss'], digits)}")
        modern = calibration_modern_line(cal, lambda v: format_value(v, digits))
        if modern:
            lines.append(modern)
    if lines:
        console.print()
        for line in lines:
            console.print(_esc(line))


def print_intervals(ev: Evaluation, data: dict[str, Any], console: Console | None = None) -> None:
    """The report's numbers as confidence intervals (``data`` from ``ev.intervals()``): each interval
    in full, with the decimals its ends need (:mod:`clfeval.report.numbers`); a table wider than the
    console is split into groups of columns, each repeating the class column."""
    from rich.console import Console

    console = console or Console()
    per_class, averages = data["per_class"], data["averages"]
    metrics = [c for c in ev.report.columns if c in per_class]

    def cell(low: Any, high: Any) -> str:
        text = interval_text(low, high)
        return "[dim]nan[/dim]" if text == "nan" else text

    rows = [[_esc(name), *(cell(per_class[m].low[i], per_class[m].high[i]) for m in metrics)]
            for i, name in enumerate(ev.names)]
    rows += [[f"[italic]{_esc(avg)}[/italic]", *(cell(row[m].low, row[m].high) if m in row else "" for m in metrics)]
             for avg, row in averages.items()]
    print_split_table(console, f"{data['level']:.0%} confidence intervals", ["class"],
                      [SHORT_TITLES.get(m, title(m)) for m in metrics], rows, section_after=len(ev.names) - 1)
    console.print()
    overall = _table("")
    overall.show_header = False
    overall.add_column(justify="right", style="bold")
    overall.add_column(justify="right", no_wrap=True)
    overall.add_column(style="dim", overflow="fold")
    for m, ci in data["overall"].items():
        overall.add_row(title(m), cell(ci.low, ci.high), ci.method)
    console.print(overall)
    console.print("[dim]methods of the class rows and averages, by column:[/dim]")
    for m in metrics:  # one line per column, each method once (it was one run-on paragraph)
        rows_of: dict[str, list[str]] = {per_class[m].method: ["classes"]}
        for avg, row in averages.items():
            if m in row:
                rows_of.setdefault(row[m].method, []).append(avg)
        text = " · ".join(f"{', '.join(names)}: {method}" for method, names in rows_of.items())
        console.print(f"[dim]  {_esc(title(m))} — {_esc(text)}[/dim]")
    for note in data.get("notes", []):
        console.print(f"[dim]note: {_esc(note)}[/dim]")


def print_split_table(console: Any, title_text: str, keys: list[str], heads: list[str], rows: list[list[str]],
                      caption: str | None = None, section_after: int | None = None) -> None:
    """A table whose cells (rich markup) are never cut: the ``keys`` columns (left-aligned text) then
    the ``heads`` columns (right-aligned numbers, never wrapped); when they do not fit the console's
    width, the number columns are split into groups (:func:`~clfeval.report.numbers.column_groups`),
    one table each, every one repeating the ``keys`` columns. A line under the last group: ``caption``."""
    from rich.text import Text

    def width(cell: str) -> int:
        return Text.from_markup(cell).cell_len

    nk = len(keys)
    first = sum(max([width(k), *(width(r[i]) for r in rows)]) + 2 for i, k in enumerate(keys)) - 2
    widths = [max([width(h), *(width(r[nk + i]) for r in rows)]) for i, h in enumerate(heads)]
    groups = column_groups(widths, console.width, first)
    for g, group in enumerate(groups):
        table = _table(title_text if g == 0 else "")
        for k in keys:
            table.add_column(k, justify="right" if k == "class" else "left", style="bold" if k == "class" else None)
        for i in group:
            table.add_column(heads[i], justify="right", no_wrap=True, min_width=widths[i])
        for r, row in enumerate(rows):
            table.add_row(*row[:nk], *(row[nk + i] for i in group), end_section=r == section_after)
        if g:
            console.print()
        console.print(_with_caption(table, caption) if caption and g == len(groups) - 1 else table)


def print_comparison(evaluations: Sequence[Evaluation], console: Console | None = None) -> None:
    """One row per model: the overall numbers side by side."""
    from rich.console import Console

    console = console or Console()
    # error rate is 1 - accuracy: left out to keep the row short
    keys = [k for k in dict.fromkeys(k for ev in evaluations for k in ev.report.overall) if k != "error_rate"]
    table = _table("Models compared")
    # numbers never shrink; when space runs out, long model names and titles wrap instead
    table.add_column("model", style="bold", min_width=min(20, max(len(ev.name or "model") for ev in evaluations)))
    for k in [*keys, "break-even"]:
        table.add_column(title(k).replace(" ", "\n"), justify="right", min_width=6)  # two-line titles
    for ev in evaluations:
        digits = ev.report.digits
        bep = "" if ev.break_even is None else _cell(ev.break_even.value, digits)
        table.add_row(_esc(ev.name or "model"), *(_cell(ev.report.overall.get(k), digits) for k in keys), bep)
    console.print(table)


def print_tests(tests: Sequence[tuple[str, str, str, Any]], level: float, console: Console | None = None) -> None:
    """One row per paired test: the models, the test, the estimate with its interval, the p-value.
    Numbers never shrink or lose digits; where the table is wider than the console, the models
    and the test share one column, whose words wrap."""
    from rich.console import Console

    console = console or Console()
    rows, notes = [], []
    for a, b, name, r in tests:
        interval = ""
        if r.interval is not None:
            ci = r.confidence_interval(level)
            interval = interval_text(ci.low, ci.high, 4)
        estimate = "" if r.estimate is None else f"{r.estimate:+.4f}"
        rows.append((a, b, name, estimate, interval, _cell(float(r.statistic), 4), _pvalue(r.pvalue)))
        notes += [f"{a} vs {b}, {name}: {n}" for n in r.notes]
    numbers = ("estimate (a - b)", f"{level:.0%} interval", "statistic", "p-value")
    need = sum(max([len(h), *(len(str(row[i])) for row in rows)]) + 2 for i, h in enumerate(("a", "b", "test", *numbers)))
    narrow = need > console.width
    table = _table("Paired tests (same cases)")
    for c in (("a vs b: test",) if narrow else ("a", "b", "test")):
        table.add_column(c, justify="left", overflow="fold")
    for c in numbers:
        table.add_column(c, justify="right", no_wrap=True)
    for a, b, name, *values in rows:
        keys = [f"{_esc(a)} vs {_esc(b)}: {_esc(name)}"] if narrow else [_esc(a), _esc(b), _esc(name)]
        table.add_row(*keys, *values)
    console.print(table)
    for n in notes:
        console.print(f"[dim]note: {_esc(n)}[/dim]")


def _pvalue(p: float) -> str:
    text = pvalue_text(p)
    return "[dim]nan[/dim]" if text == "nan" else text


def render_text(ev: Evaluation, width: int = 120) -> str:
    """What :func:`print_evaluation` prints, as plain text (no colours)."""
    from rich.console import Console

    console = Console(width=width, record=True, color_system=None, force_terminal=False, file=_Null())
    print_evaluation(ev, console)
    return console.export_text()


class _Null:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def print_binning(ev: Evaluation, console: Console | None = None) -> None:
    """For binned scores (a stream's ``ev.binning``): each curve's binned ROC AUC and average
    precision with the exact bounds on the unbinned values; prints nothing otherwise."""
    from rich.console import Console

    if not getattr(ev, "binning", None):
        return
    console = console or Console()
    digits = ev.report.digits
    table = _table("Binned scores: the unbinned values lie within the bounds")
    for c in ("curve", "ROC AUC", "bounds", "AP", "bounds "):
        table.add_column(c, justify="left" if c == "curve" else "right")
    for curve, b in ev.binning.items():
        table.add_row(_esc(curve), _cell(b.auc, digits), f"[{_cell(b.auc_low, digits)}, {_cell(b.auc_high, digits)}]",
                      _cell(b.ap, digits), f"[{_cell(b.ap_low, digits)}, {_cell(b.ap_high, digits)}]")
    console.print()
    console.print(_with_caption(table, f"{next(iter(ev.binning.values())).bits} mantissa bits: relative bin width "
                                       f"2^-{next(iter(ev.binning.values())).bits}"))
