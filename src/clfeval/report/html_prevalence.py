"""The HTML page's small table of the measures at another prevalence (``clfeval report --prevalence P
--html``, or an Evaluation built with ``prevalence=``), read from a model's "at_prevalence" entry
(:meth:`clfeval.results.prevalence.AtPrevalence.to_dict`).

>>> d = {"prevalence": 0.05, "sample_prevalence": 0.5, "note": "at prevalence π = 0.05, not the sample's p̂ = 0.5",
...      "measures": {"precision": 0.2}, "intervals": None, "average_precision": None}
>>> html = at_prevalence_html(d)
>>> html.startswith("<h3>Measures at prevalence 0.05 (sample: 0.5)</h3>"), "0.2000" in html, at_prevalence_html(None)
(True, True, '')
"""

from __future__ import annotations

from typing import Any

from clfeval.report.html_format import esc
from clfeval.report.prevalence_text import at_prevalence_rows, prg_auc_line
from clfeval.support.number_text import format_value

__all__ = ["at_prevalence_html", "prg_auc_html"]


def at_prevalence_html(entry: dict[str, Any] | None) -> str:
    """A heading, one row per measure (with its interval when present) and the note; '' without an entry."""
    if not entry:
        return ""
    rows = []
    for _, name, value, ci in at_prevalence_rows(entry):
        text = format_value(value) + ("" if ci is None else f" [{format_value(ci['low'])}, {format_value(ci['high'])}]")
        rows.append(f'<tr><th scope="row">{esc(name)}</th><td>{esc(text)}</td></tr>')
    methods = sorted({ci["method"] for _, _, _, ci in at_prevalence_rows(entry) if ci})
    hint = entry["note"] + ". TPR (recall) and FPR (fall-out) do not change with the prevalence; the others are " \
        "recomputed from them (AP with the calibrated precision, Siblini et al. 2020)." + \
        ("" if not methods else " Intervals: " + "; ".join(methods) + ".")
    return (f"<h3>Measures at prevalence {entry['prevalence']:.4g} (sample: {entry['sample_prevalence']:.4g})</h3>"
            f'<div class="table-wrap"><table class="numbers report"><thead><tr><th scope="col">measure</th>'
            f'<th scope="col">at prevalence {entry["prevalence"]:.4g}</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>"
            f'<p class="hint">{esc(hint)}</p>')


def prg_auc_html(entry: dict[str, Any] | None) -> str:
    """The PRG area of a binary model ("prg_auc" entry) as one paragraph; '' without it.

    >>> prg_auc_html({"value": 0.25, "interval": None})
    '<p class="hint">PRG AUC 0.2500: area under the precision-recall-gain curve (Flach &amp; Kull 2015)</p>'
    """
    if not entry:
        return ""
    return f'<p class="hint">{esc(prg_auc_line(entry))}</p>'
