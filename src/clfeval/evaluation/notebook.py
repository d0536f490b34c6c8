"""An Evaluation in a notebook (its ``_repr_html_``): a title line, the confusion matrix, the
classification report with the overall numbers, and the areas under the curves: what the terminal
prints, as small self-contained HTML (no script, no stylesheet), every number in the terminal's
digits (:mod:`clfeval.support.number_text`) and every label escaped. ``Evaluation.to_html(path)``
writes the full page with its pictures; this is the short view.

>>> import clfeval
>>> page = evaluation_html(clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="demo"))
>>> "<b>demo</b> binary · 4 samples · 2 classes" in page, "<th>1</th><td>0.7500</td><td>0.8333</td>" in page
(True, True)
"""

from __future__ import annotations

from typing import Any

from clfeval.results.confusion import confusion_html
from clfeval.results.report import shown_classes
from clfeval.results.report_text import format_html
from clfeval.support.html_table import html_block, html_table
from clfeval.support.number_text import format_value

__all__ = ["evaluation_html", "headline", "areas_html"]


def headline(ev: Any) -> str:
    """What was evaluated, in one line: task, samples (and weight), classes, positive class, rule.

    >>> import clfeval
    >>> headline(clfeval.evaluate(["a", "b", "b"], ["a", "b", "a"], pos_label="b"))
    'binary · 3 samples · 2 classes · positive class b'
    """
    parts = [ev.task, f"{ev.n_samples:,} samples"]
    if ev.total_weight != ev.n_samples:
        parts.append(f"total weight {ev.total_weight:g}")
    parts.append(f"{len(ev.labels)} {'labels' if ev.task == 'multilabel' else 'classes'}")
    if ev.task == "binary" and ev.pos_label is not None:
        labels = list(ev.labels)
        positive = ev.names[labels.index(ev.pos_label)] if ev.pos_label in labels else ev.pos_label
        parts.append(f"positive class {positive}")
    if ev.threshold is not None:
        parts.append(f"positive when {ev.score_kind} >= {ev.threshold:g}")
    elif ev.has_scores and ev.task == "multiclass":
        parts.append("predictions = the highest-scoring class")
    return " · ".join(parts)


def areas_html(ev: Any) -> str:
    """Each curve's ROC AUC and average precision ('' without scores), as the terminal's curves table.

    >>> import clfeval
    >>> "<td>0.7500</td>" in areas_html(clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8]))
    True
    """
    if not ev.has_scores:
        return ""
    digits = ev.report.digits
    rocs, prs = ev.compact_curves("roc", 16), ev.compact_curves("pr", 16)  # the areas are those of the full curves
    rows = [[roc.name, format_value(float(roc.area), digits), format_value(float(prs[key].area), digits)]
            for key, roc in rocs.items()]
    notes = []
    if ev.break_even is not None:
        notes.append(f"break-even (precision = recall): {format_value(float(ev.break_even.value), digits)}")
    return html_block("Areas under the curves", html_table(["curve", "ROC AUC", "AP"], rows), notes=notes)


def evaluation_html(ev: Any) -> str:
    """The notebook's view of an Evaluation: title line, confusion matrix, report, areas.

    >>> import clfeval
    >>> "Confusion matrix" in evaluation_html(clfeval.evaluate(["x", "y", "y"], ["x", "y", "x"]))
    True
    """
    report = format_html(ev.report, *shown_classes(ev.report.rows))
    return html_block(ev.name or "model", confusion_html(ev.confusion), report, areas_html(ev), subtitle=headline(ev))
