"""The partial ROC area of an :class:`~clfeval.evaluation.Evaluation`, with its interval, read off
the Evaluation's rankings (no pass over the rows, so a streamed or merged Evaluation gives it too):
:meth:`Evaluation.partial_auc <clfeval.evaluation.Evaluation.partial_auc>`.

>>> import clfeval
>>> ev = clfeval.evaluate([0, 0, 1, 1, 0, 1], y_score=[0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
>>> ci = partial_auc_of(ev, (0.0, 0.5), None, standardized=False, level=0.95, curve=None)
>>> round(ci.estimate, 4), round(ci.standard_error, 4)
(0.3889, 0.1571)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from clfeval.inputs.partial_ranges import partial_range
from clfeval.uncertainty.partial_auc_intervals import partial_auc_interval

__all__ = ["curve_ranking", "partial_auc_of", "partial_auc_summary"]


def curve_ranking(ev: Any, curve: str | None, what: str = "partial AUC") -> tuple[str, Any]:
    """(name, ranking) of the curve ``curve`` of ``ev``: a class name (one-vs-rest) or "micro";
    None: the main curve (binary: the positive class; otherwise the micro average)."""
    if ev.rankings is None:
        raise ValueError(f"this evaluation has no scores, so it has no ROC curve for a {what}: "
                         "pass y_score to evaluate() (a score column to the command line).")
    name = (ev.names[ev.positive_index] if ev.task == "binary" else "micro") if curve is None else str(curve)
    if name == "macro":
        raise ValueError(f"the macro ROC curve is an average of curves and has no {what} interval; "
                         "pick a class or 'micro'.")
    if name not in ev.rankings and not (name == "micro" and ev.micro is not None):
        known = [*ev.rankings, *(["micro"] if ev.micro is not None and ev.task != "binary" else [])]
        raise ValueError(f"curve={curve!r} names no ROC curve of this evaluation; the curves are {known}.")
    return name, ev.ranking(name)


def partial_auc_of(ev: Any, fpr_range: Any, tpr_range: Any, *, standardized: bool, level: float,
                   curve: str | None) -> Any:
    """:meth:`Evaluation.partial_auc <clfeval.evaluation.Evaluation.partial_auc>` of ``ev`` (see there)."""
    axis, lo, hi = partial_range(fpr_range, tpr_range)
    name, ranking = curve_ranking(ev, curve)
    pooled = name == "micro" and ev.task != "binary"  # every case sits in every column of the micro ranking
    if ev.sample_weight is None and ev.streamed != "weighted" and not (pooled and ev.cases is not None):
        ci = partial_auc_interval(ranking, standardized=standardized, level=level, **{f"{axis}_range": (lo, hi)})
        if pooled:  # a stream keeps no rows: the micro ranking's cells, as if its entries were independent
            from dataclasses import replace

            ci = replace(ci, method=ci.method + "; micro: the pooled cells, each case's columns taken as independent")
        return ci
    # weighted cases, or the micro curve: each case's influence (a weighted case is one sampled
    # case, not w of them; a case's columns of the micro ranking move together)
    from clfeval.stats._result import check_level
    from clfeval.uncertainty.influence import influence_variance
    from clfeval.uncertainty.partial_auc_intervals import (
        PARTIAL_INFLUENCE,
        interval_of_partial_area,
        partial_auc_case_influences,
    )

    level = check_level(level)
    if ev.cases is None:
        raise ValueError("the partial AUC's interval of weighted rows needs each row's weight, which a stream does "
                         "not keep; evaluate the rows in memory (clfeval.evaluate) for it.")
    # (an unweighted micro curve reaches here only with its cases)
    columns = list(range(len(ev.rankings))) if name == "micro" else [_column_of(ev, name)]
    area, u, counts = partial_auc_case_influences(ev.cases, columns, ranking, axis, lo, hi)
    return interval_of_partial_area(area, influence_variance(u), axis, lo, hi, counts, level=level,
                                    standardized=standardized, method=PARTIAL_INFLUENCE)


def _column_of(ev: Any, name: str) -> int:
    """The index of class (or label) ``name``'s scores in the evaluation's cases."""
    return ev.positive_index if ev.task == "binary" else list(ev.names).index(name)


def partial_auc_summary(ev: Any, fpr_range: Any = None, tpr_range: Any = None, *, level: float | None = None
                        ) -> dict[str, Any]:
    """The partial AUC of every ROC curve of ``ev`` (binary: the positive class; otherwise each class
    one-vs-rest, then "micro") as plain Python, the entry the JSON, the terminal and the HTML page
    read: standardised and raw values, the chance and perfect raw areas, and with ``level`` each
    one's interval (:func:`clfeval.uncertainty.partial_auc_intervals.partial_auc_interval`).

    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 0, 1, 1, 0, 1], y_score=[0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> d = partial_auc_summary(ev, fpr_range=(0, 0.5))
    >>> d["title"], d["axis"], d["range"], round(d["curves"]["1"]["value"], 4), round(d["curves"]["1"]["raw"], 4)
    ('partial AUC', 'fpr', [0.0, 0.5], 0.8519, 0.3889)
    """
    from clfeval.formulas.curves import (
        mcclish_standardized,
        partial_roc_area,
        roc_rates,
    )
    from clfeval.formulas.measure_registry import resolve

    axis, lo, hi = partial_range(fpr_range, tpr_range)
    curve_ranking(ev, None)  # no scores: the error
    names = [ev.names[ev.positive_index]] if ev.task == "binary" else [*ev.rankings, "micro"]
    _, chance, perfect = partial_roc_area(np.array([0.0, 1.0]), np.array([0.0, 1.0]), lo, hi, axis)
    measure = resolve("partial_auc")
    curves: dict[str, Any] = {}
    def std(a: float, below: bool = True) -> float:
        return float("nan") if math.isnan(a) else mcclish_standardized(a, chance, perfect, below_chance=below)

    for name in names:
        if level is None:  # the areas only: no interval asked (nor the rows a weighted one needs)
            ranking = ev.ranking(name)
            fpr, tpr = roc_rates(ranking.neg, ranking.pos)
            raw_area = partial_roc_area(fpr, tpr, lo, hi, axis)[0] if tpr[-1] == tpr[-1] and fpr[-1] == fpr[-1] \
                else float("nan")
        else:
            bounds = (lo, hi)
            raw = partial_auc_of(ev, bounds if axis == "fpr" else None, bounds if axis == "tpr" else None,
                                 standardized=False, level=level, curve=name)
            raw_area = raw.estimate
        entry: dict[str, Any] = {"value": std(raw_area, below=False), "raw": raw_area,
                                 "below_chance": bool(raw_area < chance - 1e-12 * perfect)}
        if level is not None:
            entry["interval"] = {"low": std(raw.low), "high": std(raw.high), "raw_low": raw.low, "raw_high": raw.high,
                                 "standard_error": 0.5 * raw.standard_error / (perfect - chance),
                                 "raw_standard_error": raw.standard_error, "level": level, "method": raw.method}
        curves[name] = entry
    out = {"name": "partial_auc", "title": measure.title if measure else "partial AUC",
           "short": getattr(measure, "short", None) or "pAUC", "axis": axis, "range": [lo, hi],
           "standardization": "McClish (0.5 chance, 1 perfect)", "chance_raw": chance, "perfect_raw": perfect,
           "main": names[0], "curves": curves}
    if ev.binning:  # a binned stream: the areas of the binned scores, as its ROC AUC
        out["note"] = "computed from the binned scores (a binned stream), as its ROC AUC is"
    return out
