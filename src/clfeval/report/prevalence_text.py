"""The terminal's section of ``clfeval report --prevalence P``: the measures at prevalence P, read from
the "at_prevalence" entry (:meth:`clfeval.results.prevalence.AtPrevalence.to_dict`).

>>> d = {"prevalence": 0.05, "sample_prevalence": 0.5, "note": "at prevalence π = 0.05, not the sample's p̂ = 0.5",
...      "measures": {"precision": 0.2, "recall": 0.8}, "intervals": None, "average_precision": 0.3,
...      "average_precision_interval": None}
>>> for line in at_prevalence_lines(d): print(line)
at prevalence 0.05 (sample: 0.5)
  PPV (precision)  0.2000
  recall           0.8000  (as in the sample)
  AP               0.3000
  TPR and FPR do not depend on the prevalence; the others are recomputed from them for π
>>> prg_auc_line({"value": 0.25, "interval": None})
'PRG AUC 0.2500: area under the precision-recall-gain curve (Flach & Kull 2015)'
"""

from __future__ import annotations

from typing import Any

from clfeval.formulas.measure_registry import MEASURES, title
from clfeval.support.number_text import format_value

__all__ = ["at_prevalence_rows", "at_prevalence_lines", "print_at_prevalence", "prg_auc_line", "print_prg_auc"]

_NAMES = {"precision": "PPV (precision)", "average_precision": "AP"}
_UNCHANGED = ("recall", "fallout")


def at_prevalence_rows(entry: dict[str, Any]) -> list[tuple[str, str, Any, Any]]:
    """(key, name, value, interval dict or None) per measure of the entry, AP last."""
    cis = entry.get("intervals") or {}
    rows = [(k, _NAMES.get(k, title(k)), v, cis.get(k)) for k, v in entry["measures"].items()]
    if entry.get("average_precision") is not None:
        rows.append(("average_precision", "AP", entry["average_precision"], entry.get("average_precision_interval")))
    return rows


def at_prevalence_lines(entry: dict[str, Any]) -> list[str]:
    """A title line "at prevalence P (sample: p)", one line per measure (with its interval when there is
    one), a note on the unchanged rates, and the intervals' methods."""
    rows = at_prevalence_rows(entry)
    width = max(len(name) for _, name, _, _ in rows)
    out = [f"at prevalence {entry['prevalence']:.4g} (sample: {entry['sample_prevalence']:.4g})"]
    for key, name, value, ci in rows:
        text = format_value(value)
        if ci is not None:
            text += f"  [{format_value(ci['low'])}, {format_value(ci['high'])}]"
        if key in _UNCHANGED:
            text += "  (as in the sample)"
        out.append(f"  {name:<{width}}  {text}")
    out.append("  TPR and FPR do not depend on the prevalence; the others are recomputed from them for π")
    methods: dict[tuple[str, float], list[str]] = {}
    for _, name, _, ci in rows:
        if ci is not None:
            methods.setdefault((ci["method"], ci["level"]), []).append(name)
    for (method, level), names in methods.items():
        out.append(f"  {level:.0%} intervals of {', '.join(names)}: {method}")
    return out


def print_at_prevalence(entry: dict[str, Any], console: Any) -> None:
    """:func:`at_prevalence_lines` on ``console`` (a blank line before, the title bold, the methods dim)."""
    from rich.markup import escape

    lines = at_prevalence_lines(entry)
    console.print()
    console.print(f"[bold]{escape(lines[0])}[/bold]  "
                  f"[dim](the numbers are for π = {entry['prevalence']:.4g}, not for the sample)[/dim]")
    for line in lines[1:]:
        dim = " intervals of " in line or "do not depend" in line
        console.print(f"[dim]{escape(line)}[/dim]" if dim else escape(line))


def prg_auc_line(entry: dict[str, Any]) -> str:
    """The PRG area of a binary report ("prg_auc" entry of :meth:`clfeval.Evaluation.to_dict`) in one line."""
    measure = MEASURES["prg_auc"]
    ci = entry.get("interval")
    text = format_value(entry["value"])
    if ci is not None:
        text += f" [{format_value(ci['low'])}, {format_value(ci['high'])}]"
    return f"{measure.title} {text}: {measure.description}"


def print_prg_auc(entry: dict[str, Any], console: Any) -> None:
    """:func:`prg_auc_line` on ``console``, a blank line before."""
    from rich.markup import escape

    console.print()
    console.print(escape(prg_auc_line(entry)))
