r"""The small HTML that result objects show in a notebook (their ``_repr_html_``): escaped text, a
table from a header and rows, lines under it, all in one titled block.

Self-contained on purpose: no script, no link, nothing loaded; a few inline styles and one small
``<style>`` scoped to the block's own class (cell spacing, numbers right-aligned: some notebook and
documentation themes give table cells no padding), so that it reads the same offline, and after a
trust check strips scripts (and styles: the tables stay readable without them). Every cell is text and is escaped (a class named ``<b>`` shows as ``<b>``); a cell that is
already HTML is wrapped in :class:`RawHtml`. The numbers come in as the text the terminal shows
(:mod:`clfeval.support.number_text`): nothing here formats a number.

>>> page = html_block("Scores", html_table(["class", "recall"], [["<b>", "0.5000"]]))
>>> print(page.replace(BLOCK_STYLE, "").replace("</tr>", "</tr>\n"))
<div class="clfeval"><div><b>Scores</b></div><table><thead><tr><th>class</th><th>recall</th></tr>
</thead><tbody><tr><th>&lt;b&gt;</th><td>0.5000</td></tr>
</tbody></table></div>
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["BLOCK_STYLE", "RawHtml", "html_escape", "html_table", "html_lines", "html_block", "html_pre"]

_LEFT = ' style="text-align:left"'
#: the block's own spacing, scoped to it: cells apart and numbers right-aligned whatever the notebook's
#: or documentation theme's table style (some themes set no cell padding)
BLOCK_STYLE = ("<style>.clfeval table{border-collapse:collapse;margin:0.2em 0}"
               ".clfeval th,.clfeval td{padding:0.1em 0.6em;white-space:nowrap}.clfeval td{text-align:right}</style>")


class RawHtml(str):
    """Text that is already HTML: :func:`html_table` and :func:`html_block` put it in unescaped.

    >>> html_escape(RawHtml("<i>x</i>")), html_escape("<i>x</i>")
    ('<i>x</i>', '&lt;i&gt;x&lt;/i&gt;')
    """

    __slots__ = ()


def html_escape(value: Any) -> str:
    """``str(value)`` with ``& < > " '`` escaped (a :class:`RawHtml` as it is).

    >>> html_escape("a & <b>"), html_escape(3)
    ('a &amp; &lt;b&gt;', '3')
    """
    return value if isinstance(value, RawHtml) else html.escape(str(value), quote=True)


def html_table(header: Sequence[Any], rows: Iterable[Sequence[Any] | str], *, label_column: bool = True) -> str:
    r"""A ``<table>``: ``header`` (one cell per column), then one ``<tr>`` per row of cells; a row that
    is a plain string is a section title across every column. With ``label_column`` the first cell
    of each row is its header cell (``<th>``).

    >>> print(html_table(["", "n"], ["totals", ["all", "3"]]).replace("</tr>", "</tr>\n"))
    <table><thead><tr><th></th><th>n</th></tr>
    </thead><tbody><tr><th colspan="2" style="text-align:left">totals</th></tr>
    <tr><th>all</th><td>3</td></tr>
    </tbody></table>
    """
    head = "".join(f"<th>{html_escape(h)}</th>" for h in header)
    body = []
    for row in rows:
        if isinstance(row, str):
            body.append(f'<tr><th colspan="{len(header)}"{_LEFT}>{html_escape(row)}</th></tr>')
            continue
        cells = [f"<th>{html_escape(c)}</th>" if i == 0 and label_column else f"<td>{html_escape(c)}</td>"
                 for i, c in enumerate(row)]
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def html_lines(lines: Iterable[Any]) -> str:
    """Each line (a note, a legend, a caption) as a small ``<div>`` of its own.

    >>> html_lines(["note: 1 < 2"])
    '<div style="font-size:smaller">note: 1 &lt; 2</div>'
    """
    return "".join(f'<div style="font-size:smaller">{html_escape(line)}</div>' for line in lines)


def html_pre(text: str) -> str:
    """Preformatted text (a repr or a text table), escaped.

    >>> html_pre("a < b")
    '<pre>a &lt; b</pre>'
    """
    return f"<pre>{html_escape(text)}</pre>"


def html_block(title: Any, *parts: str, subtitle: Any = None, notes: Iterable[Any] = ()) -> str:
    """One titled block: the title in bold (then ``subtitle``, text, on the same line), then ``parts``
    (HTML, e.g. from :func:`html_table`), then ``notes`` (text) as lines under it.

    >>> html_block("a & b", subtitle="2 classes", notes=["n"]).replace(BLOCK_STYLE, "")
    '<div class="clfeval"><div><b>a &amp; b</b> 2 classes</div><div style="font-size:smaller">n</div></div>'
    """
    head = f"<b>{html_escape(title)}</b>" + ("" if subtitle is None else f" {html_escape(subtitle)}")
    return f'<div class="clfeval">{BLOCK_STYLE}<div>{head}</div>{"".join(parts)}{html_lines(notes)}</div>'
