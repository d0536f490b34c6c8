"""The classification report of an Evaluation: per-class rows, summary rows and overall numbers.

Built from the one-vs-rest tables of a confusion matrix (and, with scores, per-class areas). An
undefined value (0/0) is NaN, is left out of the averages, and is explained in ``notes``; a value
that does not apply (e.g. a micro-averaged AUC of a binary task) is None.

>>> import numpy as np
>>> from clfeval.results.confusion import ConfusionMatrix
>>> r = build_report(ConfusionMatrix.from_matrix(["a", "b"], np.array([[3, 1], [2, 4]])))
>>> round(r.rows[1]["precision"], 3), r.overall["accuracy"]
(0.8, 0.7)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.formulas import measures as m
from clfeval.results.confusion import ConfusionMatrix
from clfeval.formulas.exact_sums import normalized_float_table, scaled_floats
from clfeval.statistics.margins import pair_overall
from clfeval.formulas.measure_registry import MEASURES, title, undefined_because

__all__ = ["Report", "build_report", "COLUMN_TITLES", "MAX_CLASS_ROWS", "shown_classes", "title",
           "samples_undefined_notes"]

#: Per-class tables of the terminal and HTML reports list at most this many classes (those with
#: the most support); the JSON keeps every class.
MAX_CLASS_ROWS = 50

#: display titles of the report's columns (from :mod:`clfeval.formulas.measure_registry`)
COLUMN_TITLES = {name: measure.title for name, measure in MEASURES.items()}


def _clean(v: Any) -> Any:
    if isinstance(v, (np.floating, float)):
        return float(v)
    if isinstance(v, np.integer):
        return int(v)
    return v


@dataclass(frozen=True)
class Report:
    """Per-class rows, averaged rows and overall numbers of one evaluation.

    ``columns`` are the metric keys of a row in display order; every row is a dict with
    "label" (display name) and one value per column.
    """

    columns: list[str]
    rows: list[dict[str, Any]]
    averages: dict[str, dict[str, Any]]
    overall: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    digits: int = 4

    def __str__(self) -> str:
        from clfeval.results.report_text import format_report

        return format_report(self)

    __repr__ = __str__  # the table, not every row's dict

    def _repr_html_(self) -> str:
        from clfeval.results.report_text import format_html

        return format_html(self, *shown_classes(self.rows))

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form (NaN stays float NaN; Evaluation.to_json makes it JSON-safe)."""
        return {
            "columns": list(self.columns),
            "rows": [{k: _clean(v) for k, v in r.items()} for r in self.rows],
            "averages": {
                n: {k: _clean(v) for k, v in r.items()} for n, r in self.averages.items()
            },
            "overall": {k: _clean(v) for k, v in self.overall.items()},
            "notes": list(self.notes),
        }

    def to_markdown(self) -> str:
        """The report as GitHub-flavoured Markdown tables."""
        from clfeval.results.report_text import format_markdown

        return format_markdown(self)

    def to_frame(self) -> Any:
        """A pandas DataFrame: class rows then average rows (index = label; 'kind' column)."""
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError("to_frame() needs pandas: pip install pandas") from exc
        records = [{"kind": "class", **r} for r in self.rows]
        records += [{"kind": "average", **r, "label": f"{n} avg"} for n, r in self.averages.items()]
        frame = pd.DataFrame.from_records(records, columns=["label", "kind", *self.columns])
        return frame.set_index("label")


def shown_classes(rows: list[dict[str, Any]], limit: int | None = None) -> tuple[list[int], str | None]:
    """Indices of the class rows a per-class table shows, and the notice of what it leaves out.

    Up to ``limit`` (default :data:`MAX_CLASS_ROWS`) classes: all of them, in label order, or
    else the ``limit`` with the most support (ties in label order), and a notice (None when all fit).

    >>> shown_classes([{"support": 1}, {"support": 5}, {"support": 3}], limit=2)
    ([1, 2], '1 more class not shown: the table lists the 2 of 3 classes with the most support; every class is in the JSON output (--json).')
    """
    limit = MAX_CLASS_ROWS if limit is None else limit
    k = len(rows)
    if k <= limit:
        return list(range(k)), None
    support = np.array([_support_key(r.get("support")) for r in rows], dtype=np.float64)
    top = np.argsort(-support, kind="stable")[:limit]
    hidden = k - limit
    notice = (f"{hidden:,} more {'class' if hidden == 1 else 'classes'} not shown: the table lists the "
              f"{limit} of {k:,} classes with the most support; every class is in the JSON output (--json).")
    return top.tolist(), notice


def _counts_for_formulas(a: np.ndarray) -> np.ndarray:
    """Counts as the formulas should read them: integer (or Python-int object) arrays unchanged,
    anything else as float64.

    >>> _counts_for_formulas(np.array([2**53 + 1])).dtype.kind, _counts_for_formulas(np.array([True])).dtype
    ('i', dtype('float64'))
    """
    return a if a.dtype.kind in "iuO" else a.astype(np.float64)


def _support_key(v: Any) -> float:
    return float(v) if isinstance(v, (int, float, np.integer, np.floating)) and not math.isnan(v) else -1.0


def _rates(tp, fp, fn, tn, beta: float | None) -> dict[str, np.ndarray]:
    out = {
        "precision": m.precision(tp, fp),
        "recall": m.recall(tp, fn),
        "f1": m.fbeta(tp, fp, fn, 1.0),
    }
    if beta is not None:
        out[f"f{beta:g}"] = m.fbeta(tp, fp, fn, beta)
    out["fallout"] = m.fallout(fp, tn)
    out["specificity"] = m.specificity(tn, fp)
    out["npv"] = m.npv(tn, fn)
    return out


def _samples_row(
    per_sample: np.ndarray, n_labels: int, weight: np.ndarray | None, beta: float | None
) -> dict[str, Any]:
    tp, fp, fn = (per_sample[:, i].astype(np.float64) for i in range(3))
    tn = n_labels - tp - fp - fn
    rates = _rates(tp, fp, fn, tn, beta)
    if weight is not None:  # a sample of weight 0 is not in the average, even where it alone is defined
        held = np.asarray(weight) > 0
        rates = {k: np.where(held, v, np.nan) for k, v in rates.items()}
    row = {k: m.average(v, weight) for k, v in rates.items()}
    row["support"] = float(per_sample[:, [0, 2]].sum()) if weight is None else None
    return row


def samples_undefined_notes(per_sample: np.ndarray, n_labels: int, weight: np.ndarray | None,
                            beta: float | None) -> list[str]:
    """One sentence per measure that is 0/0 for some samples of a multilabel task: the samples
    average leaves those samples out, where scikit-learn's ``average="samples"`` counts them as 0.

    >>> samples_undefined_notes(np.array([[1, 0, 0], [0, 0, 1]]), 2, None, None)[0][:49]
    'precision is undefined (0/0) for 1 of 2 samples, '
    """
    tp, fp, fn = (per_sample[:, i].astype(np.float64) for i in range(3))
    rates = _rates(tp, fp, fn, n_labels - tp - fp - fn, beta)
    held = np.ones(len(per_sample), dtype=bool) if weight is None else np.asarray(weight) > 0
    notes = []
    for name, values in rates.items():
        bad = int(np.count_nonzero(np.isnan(values) & held))
        if bad:
            notes.append(f"{title(name)} is undefined (0/0) for {bad} of {int(held.sum())} samples, which the "
                         "samples average leaves out (scikit-learn's average='samples' counts them as 0).")
    return notes


def build_report(
    confusion: ConfusionMatrix,
    *,
    beta: float | None = None,
    roc_auc: np.ndarray | None = None,
    average_precision: np.ndarray | None = None,
    area_averages: dict[str, dict[str, float | None]] | None = None,
    per_sample: np.ndarray | None = None,
    sample_weight: np.ndarray | None = None,
    headline: dict[str, float] | None = None,
    notes: list[str] | None = None,
) -> Report:
    """The report of a confusion matrix (+ per-class areas when there are scores).

    ``area_averages`` maps "micro"/"macro"/"weighted" to {"roc_auc", "average_precision"};
    ``per_sample`` (n, 3) per-sample (tp, fp, fn) of a multilabel task adds the "samples" row;
    ``headline`` holds the overall ROC AUC / AP.
    """
    pc = confusion.per_class()
    rates_pc = confusion.formula_per_class()  # proportional, in range where weight sums overflow
    # integer counts stay integers: the formulas divide them exactly (correctly rounded past 2**53)
    tp, fp, fn, tn = (_counts_for_formulas(rates_pc[k]) for k in ("tp", "fp", "fn", "tn"))
    # the weights of the weighted average (only their proportions count)
    support = scaled_floats(tp + fn) if (tp + fn).dtype.kind == "O" else np.asarray(tp + fn, dtype=np.float64)
    per_class: dict[str, Any] = _rates(tp, fp, fn, tn, beta)
    per_class["support"] = pc["tp"] + pc["fn"]
    if confusion.pairs is None and confusion.counts is not None and confusion.formula_counts() is not confusion.counts:
        with np.errstate(over="ignore"):  # weight sums past the float range: the row sums (inf)
            per_class["support"] = confusion.counts.sum(axis=1)
    if roc_auc is not None:
        per_class["roc_auc"] = roc_auc
        per_class["average_precision"] = average_precision
    columns = list(per_class)
    names = confusion.names
    # one tolist() per column (Python numbers, as _clean gives) instead of k x columns numpy scalars
    lists = {k: (v.tolist() if isinstance(v, np.ndarray) else [v[i] for i in range(len(names))])
             for k, v in per_class.items()}
    lists = {k: (v if isinstance(per_class[k], np.ndarray) else [_clean(x) for x in v]) for k, v in lists.items()}
    keys = list(lists)
    rows = [{"label": n, **dict(zip(keys, vals))} for n, vals in zip(names, zip(*lists.values()))]

    # averages
    sums = [sum(a.tolist()) if a.dtype.kind in "iuO" else a.sum() for a in (tp, fp, fn, tn)]  # ints: no wrap
    micro = _rates(*sums, beta)
    total_support = _clean(per_class["support"].sum())
    averages: dict[str, dict[str, Any]] = {
        "micro": {k: float(v) for k, v in micro.items()},
        "macro": {k: m.average(per_class[k]) for k in micro},
        "weighted": {k: m.average(per_class[k], support) for k in micro},
    }
    for name in averages:
        averages[name]["support"] = total_support
        if roc_auc is not None:
            extra = (area_averages or {}).get(name, {})
            averages[name]["roc_auc"] = extra.get("roc_auc")
            averages[name]["average_precision"] = extra.get("average_precision")
    if per_sample is not None:
        averages["samples"] = _samples_row(per_sample, len(names), sample_weight, beta)
        averages["samples"]["support"] = total_support
        if roc_auc is not None:
            averages["samples"]["roc_auc"] = None
            averages["samples"]["average_precision"] = None
    averages = {
        n: {"label": f"{n} avg", **{c: _clean(r.get(c)) for c in columns}}
        for n, r in averages.items()
    }

    overall: dict[str, Any] = {}
    if confusion.pairs is not None:  # many classes: read off the margins, no k x k table
        overall.update(pair_overall(confusion.pairs))
    elif confusion.counts is not None:
        # integer tables as they are (the formulas take their exact path where float64 would round);
        # extreme float weights scaled by a power of two so that the products stay in range
        cm = _counts_for_formulas(np.asarray(confusion.formula_counts()))
        if cm.dtype.kind == "f":
            cm = normalized_float_table(cm)
        overall["accuracy"] = float(m.accuracy(cm))
        overall["error_rate"] = float(m.error_rate(cm))
        overall["balanced_accuracy"] = float(m.balanced_accuracy(cm))
        overall["mcc"] = float(m.matthews_corrcoef(cm))
        overall["kappa"] = float(m.cohen_kappa(cm))
    elif per_sample is not None:
        exact = (per_sample[:, 1] == 0) & (per_sample[:, 2] == 0)
        w = None if sample_weight is None else sample_weight
        overall["accuracy"] = float(np.average(exact, weights=w))
        overall["error_rate"] = float(np.average(~exact, weights=w))  # its own ratio, not 1 - accuracy's rounding
        wrong = (per_sample[:, 1] + per_sample[:, 2]).astype(np.float64)
        overall["hamming_loss"] = float(np.average(wrong, weights=w) / len(names))
    if headline:
        overall.update({k: _clean(v) for k, v in headline.items()})

    all_notes = list(notes or [])
    all_notes += _undefined_notes(rows, columns, names, per_class)
    if per_sample is not None:
        all_notes += samples_undefined_notes(per_sample, len(names), sample_weight, beta)
    return Report(columns, rows, averages, overall, all_notes)


def _undefined_notes(rows: list[dict[str, Any]], columns: list[str], names: list[str],
                     arrays: dict[str, Any] | None = None) -> list[str]:
    """One sentence per metric that is undefined for some classes (``arrays``: the per-class
    columns, read at once where they are float arrays)."""
    out = []
    for c in columns:
        a = None if arrays is None else arrays.get(c)
        if isinstance(a, np.ndarray) and a.dtype.kind == "f":
            bad = [rows[i]["label"] for i in np.flatnonzero(np.isnan(a))]
        else:
            bad = [r["label"] for r in rows if isinstance(r.get(c), float) and math.isnan(r[c])]
        if not bad:
            continue
        shown = ", ".join(repr(b) for b in bad[:5]) + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
        why = undefined_because(c) or "0/0"
        s = "class" if len(bad) == 1 else "classes"
        out.append(
            f"{title(c)} is undefined (0/0) for {len(bad)} {s} ({shown}: {why}); shown as NaN "
            "and left out of the macro and weighted averages."
        )
    return out
