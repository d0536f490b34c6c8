"""The groups of an evaluation in the terminal (rich): the group table sorted worst first, each
group's gap to the overall, the fairness summaries of a binary task, and the paired tests of
``clfeval compare --by`` within each group.

A view only: it prints :class:`~clfeval.results.group_results.GroupTable`,
:class:`~clfeval.results.group_results.GapTable` and
:class:`~clfeval.results.group_results.FairnessSummary` as computed by
:mod:`clfeval.evaluation.groups`. The tables keep to a terminal's width: a few key metrics (the
JSON holds every one), at most ``limit`` rows with a last line counting the others, and number
columns split into groups where the console is narrow (:func:`~clfeval.report.terminal.print_split_table`).

>>> import clfeval
>>> ev = clfeval.evaluate([0, 1, 1, 0, 1, 0], y_score=[.2, .9, .4, .3, .8, .6], groups=list("aaabbb"))
>>> g = ev.by_group
>>> text = render_groups(g.overall, g.table(["roc_auc", "accuracy"]), "roc_auc", ["roc_auc", "accuracy"],
...                      gaps=g.gaps("roc_auc"), fairness=g.fairness())
>>> "By group: group" in text and "ROC AUC of each group against the overall" in text
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from clfeval.report.numbers import interval_text
from clfeval.report.terminal import print_split_table
from clfeval.results.group_results import SMALL_CLASS_CASES
from clfeval.results.report import title
from clfeval.results.report_text import format_value

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["print_groups", "print_group_tests", "render_groups", "metric_title", "metric_head"]

#: column heads of the group table (short, so that the table fits a terminal)
HEADS = {"roc_auc": "AUC", "average_precision": "AP", "balanced_accuracy": "bal. acc.", "accuracy": "accuracy",
         "recall": "TPR", "fallout": "FPR", "precision": "precision", "selection_rate": "sel. rate",
         "specificity": "TNR", "npv": "NPV", "f1": "F1", "mcc": "MCC", "kappa": "kappa",
         "hamming_loss": "Hamming", "error_rate": "error"}

#: fairness summaries in words
SUMMARY_TITLES = {
    "demographic_parity_difference": "demographic parity difference",
    "demographic_parity_ratio": "demographic parity ratio",
    "equalized_odds_difference": "equalized odds difference",
    "equalized_odds_ratio": "equalized odds ratio",
    "equal_opportunity_difference": "equal opportunity difference",
    "equal_opportunity_ratio": "equal opportunity ratio",
}


def _esc(text: Any) -> str:
    from rich.markup import escape

    return escape(str(text))


def _cell(value: Any, digits: int) -> str:
    text = format_value(value, digits)
    return f"[dim]{text}[/dim]" if text == "nan" else text


def _interval(low: Any, high: Any) -> str:
    text = interval_text(low, high)
    return "[dim]nan[/dim]" if text == "nan" else text


def _pvalue(p: Any) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "[dim]nan[/dim]"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def _split(key: str) -> tuple[str, str | None]:
    base, dot, scope = key.partition(".")
    return base, (scope if dot else None)


def metric_title(key: str, ev: Any = None) -> str:
    """A group metric's key in words: ``roc_auc`` -> "ROC AUC", ``f1.macro`` -> "macro f1-score",
    ``recall.benign`` -> "recall of benign"; a binary task's per-class number names its positive class.

    >>> metric_title("f1.macro"), metric_title("selection_rate"), metric_title("recall.benign")
    ('macro f1-score', 'selection rate', 'recall of benign')
    """
    base, scope = _split(key)
    name = "selection rate" if base == "selection_rate" else title(base)
    if scope in ("micro", "macro", "weighted"):
        return f"{scope} {name}"
    if scope is not None:
        return f"{name} of {scope}"
    return name


def metric_head(key: str, task: str | None = None) -> str:
    """A group metric's column head: short (``AUC``, ``TPR``, ``F1 (macro)``); a binary task's recall
    and fall-out as TPR and FPR.

    >>> metric_head("roc_auc"), metric_head("f1.macro"), metric_head("recall", "binary"), metric_head("recall.a")
    ('AUC', 'F1 (macro)', 'TPR', 'recall (a)')
    """
    base, scope = _split(key)
    if scope is None:
        if base in ("recall", "fallout", "specificity") and task not in (None, "binary"):
            return title(base)
        return HEADS.get(base, title(base))
    short = {"recall": "recall", "fallout": "fall-out", "specificity": "specificity"}.get(base, HEADS.get(base, title(base)))
    return f"{short} ({scope})"


def _positive(ev: Any) -> str | None:
    if ev is None or ev.task != "binary":
        return None
    return str(ev.names[ev.positive_index])


def _abbreviations(ev: Any, shown: Sequence[str], with_pos: bool) -> str:
    """The caption that says what the short heads mean."""
    pos = _positive(ev)
    parts = []
    if with_pos and pos is not None:
        parts.append(f"pos. = cases of {pos}")
    said = {"recall": f"TPR = recall of {pos}" if pos else None, "fallout": "FPR = fall-out (false positive rate)",
            "selection_rate": f"sel. rate = share predicted {pos}" if pos else "sel. rate = share predicted positive",
            "balanced_accuracy": "bal. acc. = balanced accuracy", "specificity": "TNR = specificity"}
    for key in shown:
        base, scope = _split(key)
        if scope is None and said.get(base) and (base not in ("recall", "fallout", "specificity") or pos):
            parts.append(str(said[base]))
    return "; ".join(parts)


def _undefined_lines(table: Any, shown: Sequence[str], ev: Any) -> list[str]:
    """One line per shown metric undefined (NaN) in some groups: how many, which (the first few), why
    (the registry's reason: :mod:`clfeval.formulas.measure_registry`)."""
    from clfeval.formulas.measure_registry import resolve

    task, pos = (None if ev is None else ev.task), _positive(ev)
    lines = []
    for j, key in enumerate(table.metrics):
        if key not in shown:
            continue
        groups = [g for g, v in zip(table.groups, table.values[:, j]) if math.isnan(v)]
        if not groups:
            continue
        base, scope = _split(key)
        measure = resolve(base)
        why = None if measure is None else measure.undefined_because
        if measure is not None and measure.kind == "area" and task == "binary":
            why = "only one class present in the group"
        elif why and measure is not None and measure.kind == "per_class" and scope is None and pos is not None:
            why = f"{why} (class {pos})"
        elif why and scope in ("macro", "weighted", "micro"):
            why = f"{why}, in every class"
        named = "; ".join(groups[:3]) + ("; ..." if len(groups) > 3 else "")
        lines.append(f"{metric_head(key, task)} is undefined (nan) in {len(groups):,} group{'s' if len(groups) > 1 else ''} "
                     f"({named}): {why or 'not defined on these rows'}")
    return lines


def _no_interval_lines(table: Any, metric: str, pct: str | None) -> list[str]:
    """The groups whose ``metric`` has a value but no interval (too few cases for the interval's method)."""
    if pct is None or table.low is None or metric not in table.metrics:
        return []
    j = table.metrics.index(metric)
    groups = [g for i, g in enumerate(table.groups)
              if not math.isnan(table.values[i, j]) and (math.isnan(table.low[i, j]) or math.isnan(table.high[i, j]))]
    if not groups:
        return []
    named = "; ".join(groups[:3]) + ("; ..." if len(groups) > 3 else "")
    return [f"no {pct} CI (nan) of {metric_title(metric)} in {len(groups):,} group{'s' if len(groups) > 1 else ''} "
            f"({named}): too few cases of a class in the group for the interval's method"]


def print_groups(ev: Any, table: Any, metric: str, shown: Sequence[str], console: Console | None = None, *,
                 gaps: Any = None, fairness: Any = None, notes: Sequence[str] = (), limit: int = 30,
                 more: str = "the JSON") -> None:
    """The groups of ``ev``: the group ``table`` (the ``shown`` metrics, worst first by ``metric``,
    with its interval where the table has them), the ``gaps`` of ``metric`` to the overall and the
    ``fairness`` summaries (each a result, or a str saying why there is none), and ``notes``; at
    most ``limit`` rows per table (``more``: where every group is)."""
    from rich.console import Console

    console = console or Console()
    digits = ev.report.digits if ev is not None else 4
    task = None if ev is None else ev.task
    pos = _positive(ev)
    rows = table.rows(sort_by=metric)
    shown_rows = rows[:limit]
    hidden = len(rows) - len(shown_rows) + table.omitted
    with_pos = pos is not None and pos in table.support
    with_small = bool(table.small.any())
    pct = None if table.level is None else f"{table.level:.0%}"
    heads = ["n"] + (["pos."] if with_pos else [])
    for key in shown:
        heads.append(metric_head(key, task))
        if key == metric and pct is not None:
            heads.append(f"{pct} CI")
    heads += ["small"] if with_small else []
    cells = []
    for r in shown_rows:
        row = [_esc(r["group"]), format_value(r["n"], column="support")]
        if with_pos:
            row.append(format_value(r["support"][pos], column="support"))
        for key in shown:
            row.append(_cell(r.get(key), digits))
            if key == metric and pct is not None:
                row.append(_interval(r.get(f"{key}_low"), r.get(f"{key}_high")))
        if with_small:
            row.append("yes" if r["small"] else "")
        cells.append(row)
    n_groups = len(rows) + table.omitted
    head = (f"By group: {_esc(', '.join(table.columns))} · {n_groups:,} group{'s' if n_groups != 1 else ''}"
            + (f" · worst first by {_esc(metric_title(metric))}" if n_groups > 1 else ""))
    captions = [_abbreviations(ev, shown, with_pos)]
    if with_small:
        captions.append(f"small = fewer than {SMALL_CLASS_CASES} cases of some class in the group: its intervals "
                        "and gaps are unreliable")
    if pct is not None and metric in table.methods:
        captions.append(f"{pct} CI of each group's {metric_title(metric)}: {table.methods[metric]}")
    if hidden:
        captions.append(_hidden_caption(hidden, table.omitted, len(rows), more, "with every metric"))
    print_split_table(console, head, [", ".join(table.columns)], heads, cells,
                      caption="\n".join(c for c in captions if c))
    for line in _undefined_lines(table, shown, ev) + _no_interval_lines(table, metric, pct):
        console.print(f"[dim]note: {_esc(line)}[/dim]")
    for note in notes:
        console.print(f"[dim]note: {_esc(note)}[/dim]")
    if isinstance(gaps, str):
        console.print(f"[dim]note: no gaps of {_esc(metric_title(metric))} to the overall: {_esc(gaps)}[/dim]")
    elif gaps is not None:
        console.print()
        _print_gaps(gaps, console, digits, limit, more, task)
    if isinstance(fairness, str):
        console.print(f"[dim]note: no fairness summaries: {_esc(fairness)}[/dim]")
    elif fairness is not None:
        console.print()
        _print_fairness(fairness, console, digits, pos)


def _print_gaps(gaps: Any, console: Any, digits: int, limit: int, more: str, task: str | None) -> None:
    rows = gaps.rows(sort=True)
    shown = rows[:limit]
    pct = f"{gaps.level:.0%}"
    heads = ["n", metric_head(gaps.metric, task), "difference", f"{pct} CI", "ratio", f"{pct} CI ", "p", "p (Holm)"]
    cells = [[_esc(r["group"]), format_value(r["n"], column="support"), _cell(r["value"], digits),
              _signed(r["difference"], digits), _interval(r["difference_low"], r["difference_high"]),
              _cell(r["ratio"], digits), _interval(r["ratio_low"], r["ratio_high"]), _pvalue(r["pvalue"]),
              _pvalue(r["pvalue_holm"])] for r in shown]
    compared = sum(1 for r in rows if r["pvalue"] is not None and not math.isnan(r["pvalue"]))
    head = (f"{metric_title(gaps.metric)} of each group against the {_esc(gaps.reference)} "
            f"({format_value(gaps.reference_value, digits)}), worst first")
    captions = [f"difference = group - {gaps.reference}, ratio = group / {gaps.reference}; {pct} CI: MOVER limits "
                f"from each number's own interval, correlated by each case's influence (each group is part of the "
                f"{gaps.reference}); p tests no difference, Holm-adjusted over the {compared} "
                f"group{'s' if compared != 1 else ''} compared"]
    captions += [f"note: {note}" for note in gaps.notes]
    hidden = len(rows) - len(shown) + gaps.omitted
    if hidden:
        captions.append(_hidden_caption(hidden, gaps.omitted, len(rows), more, ""))
    print_split_table(console, head, ["group"], heads, cells, caption="\n".join(captions))
    for note in gaps.notes:
        console.print(f"[dim]note: {_esc(note)}[/dim]")


def _hidden_caption(hidden: int, omitted: int, kept: int, more: str, what: str) -> str:
    """The last line of a table that shows fewer groups than there are: where the others are
    (``omitted``: groups past those the tables keep, only counted; ``what``: e.g. "with every metric").

    >>> _hidden_caption(70, 0, 100, "the JSON", "with every metric")
    '... 70 more groups not shown; every group, with every metric, is in the JSON'
    >>> _hidden_caption(10070, 100, 10000, "the JSON", "")
    '... 10,070 more groups not shown; the JSON has the 10,000 worst (the other 100 are only counted)'
    """
    line = f"... {hidden:,} more group{'s' if hidden > 1 else ''} not shown"
    if not omitted:
        return f"{line}; every group, {what + ', ' if what else ''}is in {more}"
    are = "is" if omitted == 1 else "are"
    return f"{line}; {more} has the {kept:,} worst{', ' + what if what else ''} (the other {omitted:,} {are} only counted)"


def _signed(value: Any, digits: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "[dim]nan[/dim]"
    return f"{value:+.{digits}f}"


def _print_fairness(fairness: Any, console: Any, digits: int, pos: str | None) -> None:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    pct = f"{fairness.level:.0%}"
    of = f" ({_esc(pos)} as the positive class)" if pos else ""
    table = Table(title=f"Fairness: across the {len(fairness.groups):,} groups{of}", title_justify="left",
                  box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True, title_style="bold")
    table.add_column("summary", justify="left", no_wrap=True)
    table.add_column("value", justify="right", no_wrap=True)
    table.add_column(f"{pct} CI", justify="right", no_wrap=True)
    table.add_column("definition", justify="left", style="dim", overflow="fold")
    for name, entry in fairness.entries.items():
        table.add_row(SUMMARY_TITLES.get(name, name), _cell(entry["value"], digits),
                      _interval(entry["low"], entry["high"]), _esc(str(entry["definition"]).removesuffix(" across groups")))
    console.print(table)
    console.print(Text(f"{pct} CI: {fairness.method}", style="dim"))
    for note in fairness.notes:
        console.print(f"[dim]note: {_esc(note)}[/dim]")


def print_group_tests(rows: Sequence[dict[str, Any]], columns: Sequence[str], level: float,
                      console: Console | None = None, *, limit: int = 30, n_groups: int | None = None,
                      more: str = "the JSON") -> None:
    """``compare --by``: one row per group and test (``rows``: dicts with group, n, a, b, test,
    estimate, low, high, statistic, pvalue, pvalue_holm, note); at most ``limit`` groups."""
    from rich.console import Console

    console = console or Console()
    pairs = len({(r["a"], r["b"]) for r in rows}) > 1
    pct = f"{level:.0%}"
    heads = ["n", "estimate (a - b)", f"{pct} CI", "statistic", "p", "p (Holm)"]
    keys = [", ".join(columns)] + (["a vs b"] if pairs else []) + ["test"]
    groups = list(dict.fromkeys(r["group"] for r in rows))
    kept = set(groups[:limit])
    cells = []
    for r in rows:
        if r["group"] not in kept:
            continue
        estimate = "" if r["estimate"] is None else _signed(r["estimate"], 4)
        interval = "" if r["low"] is None else _interval(r["low"], r["high"])
        statistic = "" if r["statistic"] is None else _cell(r["statistic"], 4)
        cells.append([_esc(r["group"]), *([f"{_esc(r['a'])} vs {_esc(r['b'])}"] if pairs else []), _esc(r["test"]),
                      format_value(r["n"], column="support"), estimate, interval, statistic, _pvalue(r["pvalue"]),
                      _pvalue(r["pvalue_holm"])])
    total = n_groups if n_groups is not None else len(groups)
    a_b = "" if pairs else f": {_esc(rows[0]['a'])} vs {_esc(rows[0]['b'])}" if rows else ""
    head = f"Paired tests by group{a_b} ({', '.join(columns)} · {total:,} group{'s' if total != 1 else ''})"
    captions = ["each group's rows compared as the whole file's are; p-values Holm-adjusted over the groups, "
                "for each test (and pair of models)"]
    if len(groups) > limit:
        captions.append(f"... {len(groups) - limit:,} more groups not shown (the smallest adjusted p-values first "
                        f"above); all in {more}")
    print_split_table(console, head, keys, heads, cells, caption="\n".join(captions))
    notes = [f"{r['group']}, {r['test']}: {r['note']}" for r in rows if r.get("note") and r["group"] in kept]
    for note in notes[:10]:
        console.print(f"[dim]note: {_esc(note)}[/dim]")
    if len(notes) > 10:
        console.print(f"[dim]note: ... {len(notes) - 10} more notes in {more}[/dim]")


def render_groups(ev: Any, table: Any, metric: str, shown: Sequence[str], width: int = 120, **kwargs: Any) -> str:
    """What :func:`print_groups` prints, as plain text (no colours)."""
    import io

    from rich.console import Console

    console = Console(width=width, record=True, color_system=None, force_terminal=False, file=io.StringIO())
    print_groups(ev, table, metric, shown, console, **kwargs)
    return console.export_text()
