"""Set-wise scores as scikit-learn computes them: per-label (or per-sample) tp/fp/fn/tn
(:class:`SetwiseCounts`) over the labels chosen by ``average``, ``labels`` and ``pos_label``, the
rates read from them with :mod:`clfeval.formulas.measures`, 0/0 replaced by ``zero_division`` (with
scikit-learn's warning), and the averages.

>>> c = setwise_counts([0, 1, 1, 2], [0, 1, 2, 2], average="macro", labels=None, pos_label=1, sample_weight=None)
>>> c.tp.tolist(), c.fp.tolist(), c.fn.tolist()
([1, 1, 1], [0, 0, 1], [0, 1, 0])
>>> round(rate_of_counts("precision", c, "warn"), 4)
0.8333
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from clfeval.formulas import measures
from clfeval.statistics.counts import MultilabelCounts, build_counts
from clfeval.formulas.exact_sums import scaled_floats, to_float
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.metrics.label_options import check_average, check_pos_label, multilabel_columns, select_binary_labels, zero_division_value
from clfeval.metrics.label_tables import ovr_tables, unit_exponent_of

__all__ = ["SetwiseCounts", "setwise_counts", "multilabel_setwise", "rate_of_counts", "prf_from_counts"]


@dataclass
class SetwiseCounts:
    """Per-label (or, for average='samples', per-sample) tp/fp/fn/tn and averaging weights."""

    kind: str
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    sample_weight: np.ndarray | None
    average: str | None
    #: counts are in units of 2**unit_exponent (exact sums of extreme float weights)
    unit_exponent: int = 0

    @property
    def support(self) -> np.ndarray:
        s = self.tp + self.fn
        return to_float(s, self.unit_exponent) if self.unit_exponent else s

    def support_weights(self) -> np.ndarray:
        """The supports as averaging weights (only their proportions count): float64."""
        s = self.tp + self.fn
        return scaled_floats(s) if s.dtype.kind == "O" else s

    def summed(self) -> "SetwiseCounts":
        """Counts pooled over labels (the micro average)."""
        pooled = [np.asarray([x.sum()]) for x in (self.tp, self.fp, self.fn, self.tn)]
        return SetwiseCounts(self.kind, *pooled, self.sample_weight, self.average, self.unit_exponent)

    def with_average(self, average: Any) -> "SetwiseCounts":
        return SetwiseCounts(self.kind, self.tp, self.fp, self.fn, self.tn, None, average, self.unit_exponent)


def setwise_counts(
    y_true: Any, y_pred: Any, *, average: Any, labels: Any, pos_label: Any, sample_weight: Any
) -> SetwiseCounts:
    """The per-label counts of ``y_true`` against ``y_pred`` over the labels that ``average``,
    ``labels`` and ``pos_label`` choose (scikit-learn's rules), with the average to take."""
    check_average(average)
    check_pos_label(pos_label)
    kind, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    if kind == "multilabel-indicator":
        present = np.arange(counts.n_labels)
    else:
        present = counts.labels
    labels = select_binary_labels(kind, present, average, labels, pos_label)
    if kind == "multilabel-indicator":
        return multilabel_setwise(y_true, y_pred, counts, labels, average, sample_weight)
    if average == "samples":
        raise ValueError("Samplewise metrics are not available outside of multilabel classification.")
    tables = ovr_tables(counts, labels, sample_weight is not None)
    tn, fp, fn, tp = (tables[:, 0, 0], tables[:, 0, 1], tables[:, 1, 0], tables[:, 1, 1])
    return SetwiseCounts(kind, tp, fp, fn, tn, None, average, unit_exponent_of(counts))


def multilabel_setwise(y_true, y_pred, counts: MultilabelCounts, labels, average, sample_weight):
    """The per-label (or, for average='samples', per-sample) counts of a multilabel target over the
    label columns ``labels`` (all when None)."""
    if labels is not None:
        cols = multilabel_columns(counts.n_labels, labels)
        if not np.array_equal(cols, np.arange(counts.n_labels)):
            from clfeval.inputs.labels import as_array

            yt = as_array(y_true, "y_true")[:, cols]
            yp = as_array(y_pred, "y_pred")[:, cols]
            counts = MultilabelCounts.from_indicators(yt, yp, counts.sample_weight)
    if average == "samples":
        tp, fp, fn = (counts.per_sample[:, i] for i in range(3))
        n_cols = counts.n_labels
        w = counts.sample_weight
        if w is not None:
            tp, fp, fn = (x * w for x in (tp, fp, fn))
            tn = w * n_cols - tp - fp - fn
        else:
            tn = n_cols - tp - fp - fn
        return SetwiseCounts("multilabel-indicator", tp, fp, fn, tn, w, average)
    t = counts.tables
    if counts.sample_weight is not None and counts.per_sample.any():
        # scikit-learn's weighted tables are float, except (a numpy bincount quirk kept for
        # identical output) integer-weighted ones where the chosen columns hold no positives.
        t = t.astype(np.float64)
    return SetwiseCounts("multilabel-indicator", t[:, 1, 1], t[:, 0, 1], t[:, 1, 0], t[:, 0, 0], None, average)


def _warn_undefined(metric: str, modifier: str, average: Any, size: int) -> None:
    axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
    where = "due to" if size == 1 else f"in {axis1}s with"
    warnings.warn(
        f"{metric} is ill-defined and being set to 0.0 {where} no {modifier} {axis0}s. "
        "Use `zero_division` parameter to control this behavior.",
        UndefinedMetricWarning,
        stacklevel=4,
    )


def _fill_undefined(
    values: np.ndarray, zero_division: Any, *, metric: str, modifier: str, average: Any, warn: bool
) -> np.ndarray:
    """Replace NaN (0/0) by the zero_division value, warning when it is 'warn'."""
    undefined = np.isnan(values)
    if not undefined.any():
        return values
    values = values.copy()
    values[undefined] = zero_division_value(zero_division)
    if warn and isinstance(zero_division, str) and zero_division == "warn":
        _warn_undefined(metric, modifier, average, values.shape[0])
    return values


def _reduce(values: np.ndarray, c: SetwiseCounts) -> float | np.ndarray:
    """Average per-label values as scikit-learn does (NaN entries are left out)."""
    if c.average is None:
        return values
    if c.average == "weighted":
        return measures.average(values, c.support_weights())
    if c.average == "samples":
        return measures.average(values, c.sample_weight)
    return measures.average(values)


# (formula, metric name in warnings, what is missing when undefined)
_RATE_FORMULAS: dict[str, tuple[Callable[[SetwiseCounts], np.ndarray], str, str]] = {
    "precision": (lambda c: measures.precision(c.tp, c.fp), "Precision", "predicted"),
    "recall": (lambda c: measures.recall(c.tp, c.fn), "Recall", "true"),
    "specificity": (lambda c: measures.specificity(c.tn, c.fp), "Specificity", "negative"),
    "npv": (lambda c: measures.npv(c.tn, c.fn), "NPV", "predicted negative"),
    "fallout": (lambda c: measures.fallout(c.fp, c.tn), "Fall-out", "negative"),
    "jaccard": (lambda c: measures.jaccard(c.tp, c.fp, c.fn), "Jaccard", "true or predicted"),
}


def rate_of_counts(name: str, c: SetwiseCounts, zero_division: Any, warn: bool = True):
    """The rate ``name`` ("precision", "recall", "specificity", "npv", "fallout", "jaccard") of the
    counts, per label or averaged as ``c.average`` says; 0/0 is ``zero_division`` (a warning for 'warn')."""
    formula, metric, modifier = _RATE_FORMULAS[name]
    if c.average == "micro":
        c = c.summed()
    values = _fill_undefined(
        formula(c), zero_division, metric=metric, modifier=modifier, average=c.average, warn=warn
    )
    return _reduce(values, c)


def prf_from_counts(c: SetwiseCounts, beta: float, warn_for, zero_division):
    """Precision, recall, F-beta and support of the counts: per label (arrays) or averaged (floats,
    support None); the metrics named in ``warn_for`` warn when undefined."""
    support = c.support
    per = c.summed() if c.average == "micro" else c
    common = dict(average=c.average)
    precision = _fill_undefined(
        measures.precision(per.tp, per.fp), zero_division, metric="Precision",
        modifier="predicted", warn="precision" in warn_for, **common,
    )
    recall = _fill_undefined(
        measures.recall(per.tp, per.fn), zero_division, metric="Recall", modifier="true",
        warn="recall" in warn_for, **common,
    )
    if np.isposinf(beta):
        f = recall
    elif beta == 0:
        f = precision
    else:
        f = _fill_undefined(
            measures.fbeta(per.tp, per.fp, per.fn, beta), zero_division, metric="F-score",
            modifier="true nor predicted", warn="f-score" in warn_for, **common,
        )
    if c.average is None:
        return precision, recall, f, support
    return float(_reduce(precision, per)), float(_reduce(recall, per)), float(_reduce(f, per)), None
