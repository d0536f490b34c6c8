"""The terminal's lines for the partial AUC of ``clfeval report --partial-fpr a,b`` (or
``--partial-tpr``): read from :func:`clfeval.evaluation.partial_areas.partial_auc_summary`'s dict.

>>> d = {"title": "partial AUC", "short": "pAUC", "axis": "fpr", "range": [0.0, 0.1], "chance_raw": 0.005,
...      "perfect_raw": 0.1, "main": "1", "curves": {"1": {"value": 0.75, "raw": 0.0525, "below_chance": False}}}
>>> partial_auc_lines(d)
['partial AUC, FPR in [0, 0.1]: 0.7500 McClish-standardised (0.5 chance, 1 perfect); raw area 0.0525 of 0.1 (chance 0.005)']
>>> d["curves"]["micro"] = {"value": 0.5, "raw": 0.005, "below_chance": False}
>>> for line in partial_auc_lines(d): print(line)
partial AUC, FPR in [0, 0.1], McClish-standardised (0.5 chance, 1 perfect); raw area of 0.1 (chance 0.005):
      1  0.7500  raw 0.0525
  micro  0.5000  raw 0.0050
"""

from __future__ import annotations

from typing import Any

from clfeval.support.number_text import format_value

__all__ = ["partial_auc_lines", "print_partial_auc"]


def _interval(entry: dict[str, Any], low: str, high: str) -> str:
    ci = entry.get("interval")
    if ci is None:
        return ""
    return f" [{format_value(ci[low])}, {format_value(ci[high])}]"


def partial_auc_lines(summary: dict[str, Any]) -> list[str]:
    """One line per curve (binary: one line): the standardised value, the raw area and, with an
    interval, both intervals; a last line names the interval's method."""
    lo, hi = summary["range"]
    where = f"{summary['axis'].upper()} in [{lo:g}, {hi:g}]"
    out = []
    curves = summary["curves"]
    if len(curves) > 1:  # one heading, then one aligned row per curve
        out.append(f"{summary['title']}, {where}, McClish-standardised (0.5 chance, 1 perfect); raw area of "
                   f"{summary['perfect_raw']:g} (chance {summary['chance_raw']:g}):")
        width = max(len(str(name)) for name in curves)
    for name, entry in curves.items():
        value = format_value(entry["value"]) + _interval(entry, "low", "high")
        why = " (below the chance area: undefined)" if entry.get("below_chance") else ""
        raw = format_value(entry["raw"]) + _interval(entry, "raw_low", "raw_high")
        if len(curves) > 1:
            out.append(f"  {str(name):>{width}}  {value}{why}  raw {raw}")
            continue
        out.append(f"{summary['title']}, {where}: {value}{why} McClish-standardised (0.5 chance, 1 perfect); raw "
                   f"area {raw} of {summary['perfect_raw']:g} (chance {summary['chance_raw']:g})")
    if summary.get("note"):
        out.append(f"note: partial AUC {summary['note']}")
    first = next(iter(summary["curves"].values()))
    if "interval" in first:
        ci = first["interval"]
        out.append(f"{ci['level']:.0%} intervals: {ci['method']}")
    return out


def print_partial_auc(summary: dict[str, Any], console: Any) -> None:
    """:func:`partial_auc_lines` on ``console`` (a blank line before; the note and method lines dim)."""
    from rich.markup import escape

    n_curves = len(summary["curves"]) + (len(summary["curves"]) > 1)  # the heading of several
    console.print()
    for i, line in enumerate(partial_auc_lines(summary)):
        console.print(escape(line) if i < n_curves else f"[dim]{escape(line)}[/dim]")
