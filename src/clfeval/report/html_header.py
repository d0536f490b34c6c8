"""The header of the HTML report: the page's title, the list of settings (task, samples,
classes, threshold, ...; per model where the models differ) and the warning that models were not
evaluated on the same data.

>>> import clfeval
>>> from clfeval.report.html_model import page_models
>>> models = page_models(clfeval.evaluate([0, 1, 1], [0, 1, 0], name="A"))
>>> title_text(models, None), dict(meta_rows(models))["samples"]
('Classifier evaluation: A', '3')
"""

from __future__ import annotations

import json
from typing import Any

from clfeval.report.html_format import DASH, as_number, fmt_count
from clfeval.report.html_model import Model

__all__ = ["title_text", "meta_rows", "clfeval_version", "data_warnings"]


def title_text(models: list[Model], title: str | None) -> str:
    """The page's title: ``title`` when given, else one naming the models that have names."""
    if title is not None:
        return str(title)
    named = [m.name for m in models if m.data.get("name") not in (None, "")]
    return "Classifier evaluation" + (f": {', '.join(named)}" if named else "")


def _pos_text(d: dict[str, Any]) -> str:
    pos = d.get("pos_label")
    if pos is None:
        return DASH
    labels, names = list(d.get("labels") or []), [str(n) for n in d.get("names") or []]
    if pos in labels and len(names) == len(labels):
        name = names[labels.index(pos)]
        return name if name == str(pos) else f"{name} (label {pos})"
    return str(pos)


def _threshold_text(d: dict[str, Any]) -> str:
    t = as_number(d.get("threshold"))
    if t is not None:
        what = "label" if d.get("task") == "multilabel" else "positive class"
        return f"{t:g} ({what} predicted where score \u2265 {t:g})"
    if d.get("score_kind") and d.get("task") == "multiclass":
        return "none: the highest-scoring class is predicted"
    return "none: predictions given"


def _classes_text(d: dict[str, Any], limit: int = 30) -> str:
    names = [str(n) for n in d.get("names") or []]
    shown = ", ".join(names[:limit]) + (f", \u2026 and {len(names) - limit} more" if len(names) > limit else "")
    return f"{shown} ({len(names)})"


def _samples_text(d: dict[str, Any]) -> str:
    n, w = d.get("n_samples"), as_number(d.get("total_weight"))
    text = fmt_count(n)
    if w is not None and as_number(n) is not None and w != as_number(n):
        text += f" (total weight {fmt_count(w)})"
    return text


def meta_rows(models: list[Model]) -> list[tuple[str, str]]:
    """(field, value) pairs for the header; a value that differs between models is given per model."""
    fields: list[tuple[str, Any]] = [
        ("task", lambda d: str(d.get("task"))),
        ("samples", _samples_text),
        ("labels" if all(m.task == "multilabel" for m in models) else "classes", _classes_text),
        ("positive class", _pos_text),
        ("threshold", _threshold_text),
        ("score kind", lambda d: str(d.get("score_kind") or "none (no scores given)")),
    ]
    rows = [("models" if len(models) > 1 else "model", ", ".join(m.name for m in models))]
    for label, get in fields:
        values = [get(m.data) for m in models]
        if label == "positive class" and all(v == DASH for v in values):
            continue
        if len(set(values)) == 1:
            rows.append((label, values[0]))
        else:
            rows.append((label, "; ".join(f"{m.name}: {v}" for m, v in zip(models, values))))
    versions = sorted({str(m.data.get("clfeval_version") or "") for m in models} - {""})
    rows.append(("clfeval version", ", ".join(versions) or clfeval_version()))
    return rows


def clfeval_version() -> str:
    """The version of clfeval that makes the page (named in its header and footer)."""
    from clfeval import __version__

    return __version__


def data_warnings(models: list[Model]) -> list[str]:
    """A warning when several models differ in task, sample count or classes; [] otherwise.

    >>> import clfeval
    >>> from clfeval.report.html_model import page_models
    >>> data_warnings(page_models([clfeval.evaluate([0, 1], [0, 1]), clfeval.evaluate([0, 1, 1], [0, 1, 1])]))[0][:45]
    'These models were not evaluated on the same d'
    """
    if len(models) < 2:
        return []
    out = []
    for what, key in (("tasks", "task"), ("sample counts", "n_samples"), ("classes", "names")):
        values = {json.dumps(m.data.get(key), default=str) for m in models}
        if len(values) > 1:
            out.append(what)
    if not out:
        return []
    return [f"These models were not evaluated on the same data: their {', '.join(out)} differ, "
            "so their numbers and curves are not directly comparable."]
