"""The HTML page's small table of the partial AUC (``clfeval report --partial-fpr a,b --html``), read
from the "partial_auc" entry of a model's dict
(:func:`clfeval.evaluation.partial_areas.partial_auc_summary`).

>>> d = {"title": "partial AUC", "short": "pAUC", "axis": "fpr", "range": [0.0, 0.1], "chance_raw": 0.005,
...      "perfect_raw": 0.1, "main": "1", "curves": {"1": {"value": 0.75, "raw": 0.0525, "below_chance": False}}}
>>> html = partial_auc_html(d)
>>> html.startswith("<h3>Partial AUC, FPR in [0, 0.1]</h3>"), "0.7500" in html, partial_auc_html(None)
(True, True, '')
"""

from __future__ import annotations

from typing import Any

from clfeval.report.html_format import esc
from clfeval.support.number_text import format_value

__all__ = ["partial_auc_html"]


def _cell(entry: dict[str, Any], value: str, low: str, high: str) -> str:
    text = format_value(entry[value])
    ci = entry.get("interval")
    if ci is not None:
        text += f" [{format_value(ci[low])}, {format_value(ci[high])}]"
    return f"<td>{esc(text)}</td>"


def partial_auc_html(summary: dict[str, Any] | None) -> str:
    """A heading, one row per curve (standardised and raw, with intervals when present) and a hint;
    '' without a summary."""
    if not summary:
        return ""
    lo, hi = summary["range"]
    where = f"{summary['axis'].upper()} in [{lo:g}, {hi:g}]"
    rows = "".join(f'<tr><th scope="row">{esc(name)}</th>'
                   f"{_cell(e, 'value', 'low', 'high')}{_cell(e, 'raw', 'raw_low', 'raw_high')}"
                   "</tr>" for name, e in summary["curves"].items())
    first = next(iter(summary["curves"].values()), {})
    method = f" Intervals ({first['interval']['level']:.0%}): {first['interval']['method']}." if "interval" in first else ""
    hint = (f"McClish-standardised: 0.5 is the chance area ({summary['chance_raw']:g} raw), 1 the perfect one "
            f"({summary['perfect_raw']:g}); below chance it is undefined (nan).{method}")
    return (f"<h3>{esc(summary['title'][:1].upper() + summary['title'][1:])}, {esc(where)}</h3>"
            f'<div class="table-wrap"><table class="numbers report"><thead><tr><th scope="col">curve</th>'
            f'<th scope="col">{esc(summary["short"])} (standardised)</th><th scope="col">raw area</th></tr></thead>'
            f"<tbody>{rows}</tbody></table></div>"
            f'<p class="hint">{esc(hint)}</p>')
