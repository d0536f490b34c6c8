"""Metric names of cross-evaluation results: which report numbers exist (:data:`METRICS`), how a
name (ours or a scikit-learn scorer's) is read off a :class:`~clfeval.results.report.Report`
(:func:`metric_value`), the default per-fold metrics, and which names are losses.

>>> ALIASES["matthews_corrcoef"], "f1_of_macros" in METRICS
('mcc', True)
>>> higher_is_better("accuracy"), higher_is_better("error_rate"), higher_is_better("fallout_macro")
(True, False, False)
"""

from __future__ import annotations

import math
from typing import Any

from clfeval.formulas import measures
from clfeval.formulas.measure_registry import MEASURES, label, measures_of_kind
from clfeval.results.report import Report

__all__ = [
    "AVERAGES",
    "METRICS",
    "ALIASES",
    "SCORE_METRICS",
    "LOSSES",
    "SIGNED",
    "metric_value",
    "default_metrics",
    "higher_is_better",
    "metric_title",
]

AVERAGES = ("micro", "macro", "weighted")
_PER_CLASS = [mm.name for mm in measures_of_kind("per_class") + measures_of_kind("area") if mm.in_report]
#: every name :func:`metric_value` reads, with what it means (from :mod:`clfeval.formulas.measure_registry`)
METRICS: dict[str, str] = {
    **{mm.name: mm.description for mm in measures_of_kind("overall") if mm.formula is not None},
    **{name: f"{MEASURES[name].description} (binary: positive class; multi-class: macro one-vs-rest)"
       for name in ("roc_auc", "average_precision")},
    **{name: f"{MEASURES[name].title} of the positive class (binary)" for name in ("precision", "recall", "f1")},
    "f1_macro": "mean of per-class F1 (scikit-learn's macro F1)",
    "f1_of_macros": "F1 of macro precision and macro recall (Sokolova & Lapalme 2009)",
    "<column>_<average>": f"a report column ({', '.join(_PER_CLASS)}) averaged micro, macro or weighted, "
    "e.g. recall_weighted",
}
# other names of report numbers: the registry's aliases (scikit-learn's names), and scikit-learn
# scorer names of averages
ALIASES = {
    **{alias: mm.name for mm in MEASURES.values() if mm.in_report for alias in mm.aliases},
    "roc_auc_ovr": "roc_auc_macro",
    "roc_auc_ovr_weighted": "roc_auc_weighted",
}
SCORE_METRICS = tuple(mm.name for mm in measures_of_kind("area"))
#: the report's numbers where lower is better
LOSSES = tuple(mm.name for mm in MEASURES.values() if mm.in_report and mm.higher_is_better is False)
#: range [-1, 1]; every other report number lies in [0, 1] (or counts, the support)
SIGNED = tuple(mm.name for mm in MEASURES.values() if mm.in_report and mm.lower < 0)


def _float(v: Any) -> float:
    return float("nan") if v is None else float(v)


def metric_value(report: Report, metric: str, pos_row: int | None = None) -> float:
    """One number of a :class:`~clfeval.results.report.Report` by name (see :data:`METRICS`).

    ``pos_row``: the row of the positive class, for per-class names ("precision", "f1", ...) of a
    binary task. scikit-learn scorer names work where they denote a report number (``f1_macro``,
    ``precision_weighted``, ``roc_auc_ovr``, ``matthews_corrcoef``, ...).

    Parameters
    ----------
    report : Report
        The report to read (e.g. ``ev.report`` of an Evaluation).
    metric : str
        The number's name: an overall metric ("accuracy", "mcc"), "f1_of_macros", a report
        column with an average ("recall_macro"), a per-class column of a binary task
        ("precision"), or a scikit-learn scorer name that denotes one of these.
    pos_row : int, default=None
        Row of the positive class in the report; needed for per-class names (a ValueError
        without it).

    Returns
    -------
    float
        The value; NaN where the report has it undefined.

    Examples
    --------
    >>> from clfeval import evaluate
    >>> ev = evaluate([0, 1, 1, 0, 1], [0, 1, 0, 0, 1])
    >>> metric_value(ev.report, "f1", pos_row=1), round(metric_value(ev.report, "f1_macro"), 4)
    (0.8, 0.8)
    >>> metric_value(ev.report, "matthews_corrcoef") == metric_value(ev.report, "mcc")
    True
    """
    name = ALIASES.get(metric, metric)
    if name == "f1_of_macros":
        p, r = (_float(report.averages["macro"][c]) for c in ("precision", "recall"))
        return float(measures.ratio(2.0 * p * r, p + r)) if not (math.isnan(p) or math.isnan(r)) else math.nan
    if name in report.overall:
        return _float(report.overall[name])
    base, _, average = name.rpartition("_")
    if average in AVERAGES and base in report.columns and average in report.averages:
        return _float(report.averages[average][base])
    if name in report.columns:
        if pos_row is None:
            raise ValueError(
                f"{metric!r} is a per-class number and this task is not binary: name an average, e.g. "
                f"{name}_macro or {name}_weighted."
            )
        return _float(report.rows[pos_row][name])
    if any(name.startswith(s) for s in SCORE_METRICS):
        raise ValueError(f"{metric!r} needs scores; these predictions have none (response='predict').")
    raise ValueError(f"unknown metric {metric!r}; known: {sorted(k for k in METRICS if '<' not in k)} and "
                     "<column>_<average> (e.g. recall_macro).")


def default_metrics(task: str, has_scores: bool) -> list[str]:
    """The metrics of the per-fold table when none are asked for.

    >>> default_metrics("multiclass", has_scores=False)[:3]
    ['accuracy', 'balanced_accuracy', 'precision_macro']
    """
    if task == "binary":
        names = ["accuracy", "balanced_accuracy", "precision", "recall", "f1", "f1_macro", "f1_of_macros"]
    else:
        names = ["accuracy", "balanced_accuracy", "precision_macro", "recall_macro", "f1_macro", "f1_of_macros",
                 "f1_weighted"]
    names += ["mcc", "kappa"]
    return names + list(SCORE_METRICS) if has_scores else names


def higher_is_better(metric: str) -> bool:
    """Whether a larger value of ``metric`` is better (False for losses: error rate, fallout).

    >>> higher_is_better("f1_macro"), higher_is_better("error_rate")
    (True, False)
    """
    return not any(ALIASES.get(metric, metric).startswith(s) for s in LOSSES)


def metric_title(metric: str) -> str:
    """How a plot or table names ``metric``: the registry's title, an average in brackets.

    >>> metric_title("roc_auc"), metric_title("recall_weighted"), metric_title("f1_of_macros"), metric_title("x")
    ('ROC AUC', 'Recall (weighted)', 'F1 of macro P and R', 'x')
    """
    metric = ALIASES.get(metric, metric)
    if metric == "f1_of_macros":
        return "F1 of macro P and R"
    column, _, average = metric.rpartition("_")
    if average in AVERAGES and column in _PER_CLASS:
        return f"{label(column)} ({average})"
    return label(metric)
