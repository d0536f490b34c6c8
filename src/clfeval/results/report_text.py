"""Plain-text and Markdown renderings of a :class:`~clfeval.results.report.Report`.

>>> import numpy as np
>>> from clfeval.results.confusion import ConfusionMatrix
>>> from clfeval.results.report import build_report
>>> text = format_report(build_report(ConfusionMatrix.from_matrix(["a", "b"], np.array([[3, 1], [2, 4]]))))
>>> text.splitlines()[0].split()
['precision', 'recall', 'f1-score', 'fall-out', 'specificity', 'NPV', 'support']
>>> text.splitlines()[3].split()
['b', '0.8000', '0.6667', '0.7273', '0.2500', '0.7500', '0.6000', '6']
"""

from __future__ import annotations

from typing import Any, Protocol

from clfeval.formulas.measure_registry import title
from clfeval.support.html_table import html_block, html_table
from clfeval.support.number_text import format_value  # the one home of a cell's text, here as before


class Report(Protocol):
    """What these renderings read of a :class:`~clfeval.results.report.Report` (which calls them:
    this module does not import it)."""

    columns: list[str]
    rows: list[dict[str, Any]]
    averages: dict[str, dict[str, Any]]
    overall: dict[str, Any]
    notes: list[str]
    digits: int

__all__ = ["format_value", "format_report", "format_markdown", "format_html"]


def _table_lines(report: Report) -> tuple[list[str], list[list[str]], list[list[str]]]:
    header = [title(c) for c in report.columns]
    body = [[str(r["label"])] + [format_value(r.get(c), report.digits, c) for c in report.columns] for r in report.rows]
    summary = [
        [str(r["label"])] + [format_value(r.get(c), report.digits, c) for c in report.columns]
        for r in report.averages.values()
    ]
    return header, body, summary


def format_report(report: Report) -> str:
    """Fixed-width text: class rows, a blank line, average rows, then overall numbers and notes."""
    header, body, summary = _table_lines(report)
    first = max([len(r[0]) for r in body + summary] + [12])
    widths = [max(len(h), 9) for h in header]
    for r in body + summary:
        widths = [max(w, len(v)) for w, v in zip(widths, r[1:])]

    def line(cells: list[str]) -> str:
        return f"{cells[0]:>{first}}" + "".join(f"  {v:>{w}}" for v, w in zip(cells[1:], widths))

    out = [line([""] + header), ""]
    out += [line(r) for r in body]
    out.append("")
    out += [line(r) for r in summary]
    if report.overall:
        out.append("")
        w = max([first] + [len(title(k)) for k in report.overall])
        out += [f"{title(k):>{w}}  {format_value(v, report.digits)}" for k, v in report.overall.items()]
    if report.notes:
        out.append("")
        out += [f"Note: {n}" for n in report.notes]
    return "\n".join(out)


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def format_markdown(report: Report) -> str:
    """GitHub-flavoured Markdown: the class/average table, then the overall numbers."""
    header, body, summary = _table_lines(report)
    out = ["| class | " + " | ".join(header) + " |", "|---|" + "---:|" * len(header)]
    for r in body:
        out.append("| " + " | ".join(_md_escape(c) for c in r) + " |")
    for r in summary:
        out.append("| **" + _md_escape(r[0]) + "** | " + " | ".join(r[1:]) + " |")
    if report.overall:
        out += ["", "| measure | value |", "|---|---:|"]
        out += [f"| {title(k)} | {format_value(v, report.digits)} |" for k, v in report.overall.items()]
    if report.notes:
        out.append("")
        out += [f"- {_md_escape(n)}" for n in report.notes]
    return "\n".join(out) + "\n"


def format_html(report: Report, shown: list[int] | None = None, notice: str | None = None) -> str:
    """The notebook's view: the class rows (those of ``shown``, default all; ``notice`` says what is
    left out), the average rows, then the overall numbers and the notes, every cell as
    :func:`format_report` writes it and every label escaped.

    >>> import numpy as np
    >>> from clfeval.results.confusion import ConfusionMatrix
    >>> from clfeval.results.report import build_report
    >>> page = format_html(build_report(ConfusionMatrix.from_matrix(["a", "<b>"], np.array([[3, 1], [2, 4]]))))
    >>> "<th>&lt;b&gt;</th><td>0.8000</td><td>0.6667</td>" in page, "<td>0.7000</td>" in page
    (True, True)
    """
    header, body, summary = _table_lines(report)
    rows: list[list[str] | str] = [body[i] for i in (range(len(body)) if shown is None else shown)]
    rows += ["averages", *summary]
    parts = [html_table(["class", *header], rows)]
    if report.overall:
        parts.append(html_table(["measure", "value"],
                                [[title(k), format_value(v, report.digits)] for k, v in report.overall.items()]))
    notes = ([notice] if notice else []) + [f"Note: {n}" for n in report.notes]
    return html_block("Classification report", *parts, notes=notes)
