"""The numbers of the classification report, batched over confusion tables, and their validation.

:func:`check_table` reads a confusion table (array, ConfusionCounts or ConfusionMatrix);
:func:`confusion_metrics` gives every interval-bearing number of the report for tables of shape
(..., k, k), from :func:`rates` (the per-class rates) and :func:`nan_average` (the macro and
weighted averages, undefined classes left out). :mod:`clfeval.uncertainty.influence` reads the multilabel
averages from the same helpers.

>>> d = confusion_metrics(np.array([[[8, 2], [1, 9]], [[5, 5], [5, 5]]]), None)
>>> d["overall", "accuracy"].tolist()
[0.85, 0.5]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.formulas import measures as m
from clfeval.formulas.measure_gradients import f_column
from clfeval.formulas.measure_registry import MEASURES, fbeta_measure, measures_of_kind
from clfeval.uncertainty.checks import first_bad

__all__ = [
    "PER_CLASS",
    "OVERALL",
    "AVERAGES",
    "MEASURE_RANGES",
    "check_table",
    "nan_average",
    "rates",
    "confusion_metrics",
    "mcc_undefined",
]


def check_table(counts: Any, *, batch: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """(table as float64 or int64 array, labels or None); ValueError on anything unusable.

    ``counts``: a (k, k) table (rows true, columns predicted) as an array, ConfusionCounts or
    ConfusionMatrix; with ``batch`` also (..., k, k). Unsigned and boolean counts become int64.

    >>> t, labels = check_table([[3, 1], [0, 2]])
    >>> t.dtype.name, labels
    ('int64', None)
    >>> check_table(np.zeros((2, 2)))
    Traceback (most recent call last):
    ...
    ValueError: the confusion table holds no samples: every count is zero.
    """
    labels = None
    if hasattr(counts, "matrix") and hasattr(counts, "labels"):  # ConfusionCounts
        labels, counts = np.asarray(counts.labels), counts.matrix
    elif hasattr(counts, "per_class") and hasattr(counts, "counts"):  # ConfusionMatrix
        if counts.counts is None:
            raise ValueError(
                "this confusion matrix is multilabel (per-label 2 x 2 tables); give one label's "
                "(2, 2) table, or the (k, k) table of a single-label task."
            )
        labels, counts = np.asarray(counts.labels), counts.counts
    a = np.asarray(counts)
    if a.dtype.kind == "b":
        a = a.astype(np.int64)
    if a.dtype.kind not in "iuf":
        try:
            a = a.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"counts must be numbers, got an array of dtype {a.dtype}.") from None
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or (a.ndim > 2 and not batch):
        want = "(k, k) or (..., k, k)" if batch else "(k, k)"
        raise ValueError(
            f"counts must be a {want} confusion table (rows true, columns predicted), got shape {a.shape}."
        )
    if a.shape[-1] == 0 or a.size == 0:
        raise ValueError(f"counts is empty (shape {a.shape}): there are no classes to evaluate.")
    if a.dtype.kind == "f" and not np.isfinite(a).all():
        raise ValueError(f"counts must be finite; found {a[~np.isfinite(a)].flat[0]} at {first_bad(~np.isfinite(a))}.")
    if (a < 0).any():
        raise ValueError(f"counts must be non-negative; found {a[a < 0].flat[0]} at {first_bad(a < 0)}.")
    totals = a.sum(axis=(-2, -1))
    if (totals == 0).any():
        where = "" if a.ndim == 2 else f" (table {first_bad(totals == 0)} of the batch)"
        raise ValueError(f"the confusion table holds no samples{where}: every count is zero.")
    if a.dtype.kind == "u":
        a = a.astype(np.int64)
    return a, labels


#: The report's per-class rates: the registry's rates of one-vs-rest counts in the report, in its
#: order (the F column renamed by ``beta``: :func:`clfeval.formulas.measure_gradients.f_column`).
PER_CLASS = tuple(mm.name for mm in measures_of_kind("per_class") if mm.in_report)
#: The report's numbers of the whole table: the registry's overall measures with a formula of
#: the (k, k) table (not the multilabel Hamming loss).
OVERALL = tuple(mm.name for mm in measures_of_kind("overall") if mm.formula is not None)
#: The report's averages of the per-class rates.
AVERAGES = ("micro", "macro", "weighted")


def nan_average(values: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Average over the last axis leaving NaN out (as measures.average), batched.

    ``weights`` (None: equal) are renormalised over the defined values; where they are all zero
    the plain mean is taken; no defined value gives NaN.

    >>> nan_average(np.array([[0.5, np.nan, 1.0], [np.nan, np.nan, np.nan]])).tolist()
    [0.75, nan]
    >>> float(nan_average(np.array([0.5, 1.0]), np.array([3, 1])))
    0.625
    """
    keep = ~np.isnan(values)
    v = np.where(keep, values, 0.0)
    if weights is None:
        w = keep.astype(np.float64)
    else:
        w = np.where(keep, np.asarray(weights, dtype=np.float64), 0.0)
        w = np.where((w.sum(axis=-1) == 0)[..., None], keep, w)  # all-zero weights: plain mean
    return m.ratio((v * w).sum(axis=-1), w.sum(axis=-1))


def rates(tp, fp, fn, tn, beta: float | None) -> dict[str, np.ndarray]:
    """The report's six rates of one-vs-rest counts (arrays broadcast), keyed by their names;
    the F column is "f1" for ``beta`` None or 1, else e.g. "f2".

    >>> r = rates(np.array(8.0), np.array(2.0), np.array(1.0), np.array(9.0), None)
    >>> {k: round(float(v), 4) for k, v in r.items()}
    {'precision': 0.8, 'recall': 0.8889, 'f1': 0.8421, 'fallout': 0.1818, 'specificity': 0.8182, 'npv': 0.9}
    """
    formulas = {name: MEASURES[name].formula for name in PER_CLASS}
    formulas["f1"] = fbeta_measure(1.0 if beta is None else beta).formula  # of beta exactly, not of its key
    return {f_column(beta) if name == "f1" else name: f(tp, fp, fn, tn) for name, f in formulas.items()}


def confusion_metrics(cm: np.ndarray, beta: float | None) -> dict[tuple[str, str], np.ndarray]:
    """Every interval-bearing number of the report, for tables of shape (..., k, k).

    Keys are (section, metric): section "per_class" gives (..., k) arrays, "micro", "macro",
    "weighted" and "overall" give (...) arrays. Same conventions as the report (NaN classes
    are left out of the averages; MCC is 0 where undefined, as in measures).

    >>> d = confusion_metrics(np.array([[40, 10], [5, 45]]), None)
    >>> d["per_class", "recall"].tolist(), float(d["overall", "accuracy"])
    ([0.8, 0.9], 0.85)
    """
    cm = np.asarray(cm, dtype=np.float64)
    tp, fp, fn, tn = m.one_vs_rest(cm)
    per_class = rates(tp, fp, fn, tn, beta)
    micro = rates(*(a.sum(axis=-1) for a in (tp, fp, fn, tn)), beta)
    support = tp + fn
    out: dict[tuple[str, str], np.ndarray] = {}
    for name, v in per_class.items():
        out["per_class", name] = v
    for name, v in micro.items():
        out["micro", name] = v
    for name, v in per_class.items():
        out["macro", name] = nan_average(v)
    for name, v in per_class.items():
        out["weighted", name] = nan_average(v, support)
    for name in OVERALL:
        out["overall", name] = MEASURES[name].formula(cm)
    return out


def mcc_undefined(cm: np.ndarray) -> np.ndarray:
    """MCC is 0/0 where all samples share one true class or one predicted class.

    >>> mcc_undefined(np.array([[[5, 0], [3, 0]], [[5, 1], [3, 2]]])).tolist()
    [True, False]
    """
    n = cm.sum(axis=(-2, -1))
    return (cm.sum(axis=-1).max(axis=-1) == n) | (cm.sum(axis=-2).max(axis=-1) == n)


#: The interval measures whose range (the registry's) is not [0, 1]: (lower, upper); MCC and kappa,
#: on [-1, 1], whose delta-method intervals use Fisher's z scale. The others are on [0, 1].
MEASURE_RANGES = {
    name: (MEASURES[name].lower, MEASURES[name].upper)
    for name in PER_CLASS + OVERALL
    if (MEASURES[name].lower, MEASURES[name].upper) != (0.0, 1.0)
}
