"""Label-based metrics: drop-in replacements for scikit-learn's, built on :mod:`clfeval.statistics.counts`.

Each function validates its input, builds the confusion counts once and reads every number off
them with the formulas of :mod:`clfeval.formulas.measures`.

Deliberate differences from scikit-learn at the ends of the number range (see
:mod:`clfeval.formulas.exact_sums`): integer weights are summed exactly, and sums past int64 come back as
Python ints in an object array (scikit-learn wraps them to negative counts); float weights whose
sums overflow are still read exactly by the formulas, so ``f1_score(y, p, sample_weight=[1e308]
* 5)`` is 0.8 where scikit-learn's float64 sums reach inf and it returns NaN (the confusion
matrix itself still shows the float64 sums, inf included).

This module holds the scores of accuracy and agreement and the set-wise rates (precision, recall,
F, specificity, ...); the other families live beside it and are importable from here as well:
:mod:`~clfeval.metrics.confusion_matrices`, :mod:`~clfeval.metrics.classification_report` and
:mod:`~clfeval.metrics.likelihood_ratios`, built on :mod:`~clfeval.metrics.setwise` (per-label
counts, scikit-learn's averages and zero-division rules), :mod:`~clfeval.metrics.label_tables`
and :mod:`~clfeval.metrics.label_options`.

>>> precision_recall_fscore_support([0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 2, 2, 2, 1], average="macro")[0]
0.7222222222222222
"""

from __future__ import annotations

import warnings
from numbers import Real
from typing import Any, Literal

import numpy as np

from clfeval.statistics import margins
from clfeval.formulas import measures
from clfeval.statistics.counts import MultilabelCounts, build_counts
from clfeval.formulas.exact_sums import exact_div, is_big
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.statistics.sparse_counts import PairCounts
from clfeval.metrics.classification_report import classification_report
from clfeval.metrics.confusion_matrices import confusion_matrix, multilabel_confusion_matrix
from clfeval.metrics.label_options import ZeroDivision as ZeroDivision  # noqa: F401 (importable from here, as before)
from clfeval.metrics.label_options import check_bool, zero_division_value
from clfeval.metrics.label_tables import binary_1d, encode_hits, labelled_matrix, table_trace, warn_single_label
from clfeval.metrics.likelihood_ratios import class_likelihood_ratios
from clfeval.metrics.setwise import prf_from_counts, rate_of_counts, setwise_counts

__all__ = [
    "confusion_matrix",
    "multilabel_confusion_matrix",
    "accuracy_score",
    "error_rate",
    "balanced_accuracy_score",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "fbeta_score",
    "f1_score",
    "specificity_score",
    "npv_score",
    "fallout_score",
    "jaccard_score",
    "classification_report",
    "matthews_corrcoef",
    "cohen_kappa_score",
    "hamming_loss",
    "zero_one_loss",
    "class_likelihood_ratios",
]


# --------------------------------------------------------------------------------------------
# accuracy family
# --------------------------------------------------------------------------------------------
def _div(a: Any, b: Any) -> float:
    """a / b as a float: correctly rounded for exact counts (Python ints, or 2**53 and beyond)."""
    if isinstance(a, int) or isinstance(b, int) or is_big(np.asarray(a), np.asarray(b)):
        return exact_div(a, b)
    return float(a / b)


def _weighted_total(counts: Any, exact: bool = True) -> Any:
    """Total weight: of the formulas' table (``exact``), else as the user sees it."""
    if isinstance(counts, PairCounts):
        return (counts.for_formulas()[0] if exact else counts).total
    if isinstance(counts, MultilabelCounts):
        w = counts.sample_weight
        return counts.per_sample.shape[0] if w is None else w.sum()
    return (counts.table if exact else counts.matrix).sum()


def _correct(counts: Any, exact: bool = True) -> Any:
    if isinstance(counts, MultilabelCounts):
        hit = (counts.per_sample[:, 1] + counts.per_sample[:, 2]) == 0
        w = counts.sample_weight
        if w is not None and w.dtype.kind in "iu" and is_big(w):
            return sum(w[hit].tolist())  # exact Python int
        return hit.sum() if w is None else np.dot(hit, w)
    return table_trace(counts, exact)


def accuracy_score(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Fraction (or count, normalize=False) of exactly correct predictions; subset accuracy for multilabel.

    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3])
    0.5
    """
    check_bool(normalize, "normalize")
    _, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    if not normalize:
        return float(_correct(counts, exact=False))
    correct = _correct(counts)
    total = _weighted_total(counts)
    if total == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return _div(correct, total)


def zero_one_loss(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Fraction (or count) of misclassified samples.

    >>> zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    """
    check_bool(normalize, "normalize")
    _, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    if not normalize:
        return float(_weighted_total(counts, exact=False) - _correct(counts, exact=False))
    total = _weighted_total(counts)
    correct = _correct(counts)
    if total == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    if isinstance(total, int) or is_big(np.asarray(total), np.asarray(correct)):
        return exact_div(total - correct, total)
    return float(1 - correct / total)


def error_rate(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Misclassification rate, 1 - accuracy (subset error for multilabel).

    >>> error_rate([0, 1, 1, 0], [0, 1, 0, 0])
    0.25
    """
    return zero_one_loss(y_true, y_pred, normalize=True, sample_weight=sample_weight)


def hamming_loss(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Fraction of wrong labels (per label for multilabel).

    >>> hamming_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    """
    kind, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    if isinstance(counts, MultilabelCounts):
        wrong = counts.tables[:, 0, 1].sum() + counts.tables[:, 1, 0].sum()
        return float(wrong / (counts.n_labels * _weighted_total(counts)))
    total = _weighted_total(counts)
    if total == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return _div(total - table_trace(counts, exact=True), total)


def _balanced_accuracy(table: Any, adjusted: bool) -> float:
    """Balanced accuracy of pair-coded counts (from their margins) or of a dense table."""
    if isinstance(table, PairCounts):
        return margins.balanced_accuracy(table, adjusted=adjusted)
    return float(measures.balanced_accuracy(table, adjusted=adjusted))


def balanced_accuracy_score(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, adjusted: bool = False
) -> float:
    """Mean per-class recall (classes present in y_true); chance-adjusted on request.

    >>> balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1])
    0.625
    """
    check_bool(adjusted, "adjusted")
    kind, counts, true_labels, _ = build_counts(y_true, y_pred, sample_weight)
    counts = binary_1d(kind, counts)
    if counts.labels.shape[0] == 1:
        warn_single_label(stacklevel=3)
    table = counts if isinstance(counts, PairCounts) else counts.table
    rows = margins.margins(table).rows if isinstance(counts, PairCounts) else table.sum(axis=1)
    if (rows == 0).any():
        warnings.warn("y_pred contains classes not in y_true", UserWarning, stacklevel=2)
    score = _balanced_accuracy(table, adjusted)
    if np.isnan(score):
        # One class in y_true: chance is 1 and the rescaling divides by zero. scikit-learn lets
        # IEEE arithmetic decide: -inf below a perfect score, nan at it.
        raw = _balanced_accuracy(table, False)
        score = float("nan") if raw >= 1.0 else float("-inf")
        warnings.warn(
            "Adjusted balanced accuracy is undefined with a single class in y_true (chance "
            f"level is 1) and is set to {score}.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    return score


def matthews_corrcoef(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Matthews correlation coefficient (multi-class generalisation of Gorodkin).

    >>> round(matthews_corrcoef([+1, +1, +1, -1], [+1, -1, +1, +1]), 4)
    -0.3333
    """
    kind, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    counts = binary_1d(kind, counts)
    if counts.labels.shape[0] == 1:
        warn_single_label(stacklevel=3)
    if isinstance(counts, PairCounts):
        return margins.matthews_corrcoef(counts)
    return float(measures.matthews_corrcoef(counts.table))


def cohen_kappa_score(
    y1: Any,
    y2: Any,
    *,
    labels: Any = None,
    weights: Literal["linear", "quadratic"] | None = None,
    sample_weight: Any = None,
    replace_undefined_by: float = np.nan,
) -> float:
    """Cohen's kappa between two annotators (optionally linear or quadratic weighted).

    >>> cohen_kappa_score(["negative", "positive", "negative", "neutral", "positive"],
    ...                   ["negative", "positive", "negative", "neutral", "negative"])
    0.6875
    """
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}.")
    if not isinstance(replace_undefined_by, Real) or not (
        np.isnan(replace_undefined_by) or -1.0 <= replace_undefined_by <= 1.0
    ):
        raise ValueError(
            f"replace_undefined_by must be in [-1, 1] or np.nan, got {replace_undefined_by!r}."
        )
    try:
        cm = _kappa_table(y1, y2, labels, sample_weight)
    except ValueError as exc:
        if "At least one label specified must be in y_true" in str(exc):
            raise ValueError(
                "At least one label in `labels` must be present in `y1` (even though "
                "`cohen_kappa_score` is otherwise agnostic to the order of `y1` and `y2`)."
            ) from None
        raise
    if isinstance(cm, PairCounts):
        kappa = margins.cohen_kappa(cm, weights)
    else:
        kappa = float(measures.cohen_kappa(cm, weights))
    if np.isnan(kappa):
        warnings.warn(
            "`cohen_kappa_score` is undefined for these labels (no agreement expected by chance "
            "can be computed) and set to the value of the `replace_undefined_by` param, "
            f"which is {replace_undefined_by}.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return replace_undefined_by
    return kappa


def _kappa_table(y1: Any, y2: Any, labels: Any, sample_weight: Any) -> Any:
    """confusion_matrix(y1, y2, labels=...), kept pair-coded for many classes."""
    kind, counts, true_labels, _ = build_counts(y1, y2, sample_weight)
    counts = binary_1d(kind, counts)
    if not isinstance(counts, PairCounts):  # the formulas' table (exact sums of extreme float weights)
        cm = labelled_matrix(counts, true_labels, labels, exact=True)
        if cm.shape == (1, 1):
            warn_single_label(stacklevel=3)
        return cm
    if labels is not None:
        lab = np.asarray(labels)
        if lab.size == 0:
            raise ValueError("'labels' should contain at least one label.")
        if not encode_hits(lab, true_labels):
            raise ValueError("At least one label specified must be in y_true.")
        counts = counts.reindex(lab)
    if counts.k == 1:
        warn_single_label(stacklevel=3)
    return counts


# --------------------------------------------------------------------------------------------
# precision, recall, F, and the other set-wise rates
# --------------------------------------------------------------------------------------------
def precision_recall_fscore_support(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = None,
    warn_for: tuple = ("precision", "recall", "f-score"),
    sample_weight: Any = None,
    zero_division: Any = "warn",
):
    """Precision, recall, F-beta and support, per label or averaged.

    >>> p, r, f, s = precision_recall_fscore_support([0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 2, 2, 2, 1])
    >>> p.round(2).tolist(), s.tolist()
    ([1.0, 0.5, 0.67], [2, 2, 3])
    """
    zero_division_value(zero_division)
    if not isinstance(warn_for, (list, tuple, set)):
        raise TypeError(f"warn_for must be a list, tuple or set of metric names, got {warn_for!r}.")
    if not isinstance(beta, Real) or beta < 0 or np.isnan(beta):
        raise ValueError(f"beta should be >= 0 in the F-beta score, got {beta!r}.")
    c = setwise_counts(
        y_true, y_pred, average=average, labels=labels, pos_label=pos_label, sample_weight=sample_weight
    )
    return prf_from_counts(c, beta, warn_for, zero_division)


def _prf_one(which: int, warn_name: str, y_true, y_pred, *, beta=1.0, labels, pos_label, average, sample_weight, zero_division):
    result = precision_recall_fscore_support(
        y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label, average=average,
        warn_for=(warn_name,), sample_weight=sample_weight, zero_division=zero_division,
    )
    return result[which]


def precision_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Precision tp / (tp + fp).

    >>> precision_score([0, 1, 1, 0], [1, 1, 1, 0])
    0.6666666666666666
    """
    return _prf_one(0, "precision", y_true, y_pred, labels=labels, pos_label=pos_label,
                    average=average, sample_weight=sample_weight, zero_division=zero_division)


def recall_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Recall (sensitivity, true positive rate) tp / (tp + fn).

    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _prf_one(1, "recall", y_true, y_pred, labels=labels, pos_label=pos_label,
                    average=average, sample_weight=sample_weight, zero_division=zero_division)


def fbeta_score(
    y_true: Any, y_pred: Any, *, beta: float, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """F-beta: weighted harmonic mean of precision and recall (beta > 1 favours recall).

    >>> round(fbeta_score([0, 1, 1, 0], [1, 1, 0, 0], beta=2), 4)
    0.5
    """
    return _prf_one(2, "f-score", y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label,
                    average=average, sample_weight=sample_weight, zero_division=zero_division)


def f1_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """F1: harmonic mean of precision and recall.

    >>> f1_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return fbeta_score(y_true, y_pred, beta=1.0, labels=labels, pos_label=pos_label,
                       average=average, sample_weight=sample_weight, zero_division=zero_division)


def _setwise_rate(name: str, y_true, y_pred, *, labels, pos_label, average, sample_weight, zero_division):
    zero_division_value(zero_division)
    c = setwise_counts(
        y_true, y_pred, average=average, labels=labels, pos_label=pos_label, sample_weight=sample_weight
    )
    result = rate_of_counts(name, c, zero_division)
    return result if average is None else float(result)


def specificity_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Specificity (true negative rate) tn / (tn + fp), with precision_score's arguments.

    The 'weighted' average weights each class by its support, as scikit-learn's averages do.

    >>> specificity_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _setwise_rate("specificity", y_true, y_pred, labels=labels, pos_label=pos_label,
                         average=average, sample_weight=sample_weight, zero_division=zero_division)


def npv_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Negative predictive value tn / (tn + fn), with precision_score's arguments.

    >>> npv_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _setwise_rate("npv", y_true, y_pred, labels=labels, pos_label=pos_label,
                         average=average, sample_weight=sample_weight, zero_division=zero_division)


def fallout_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Fall-out (false positive rate) fp / (fp + tn), with precision_score's arguments.

    >>> fallout_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _setwise_rate("fallout", y_true, y_pred, labels=labels, pos_label=pos_label,
                         average=average, sample_weight=sample_weight, zero_division=zero_division)


def jaccard_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Jaccard similarity tp / (tp + fp + fn).

    >>> jaccard_score([0, 1, 2, 2], [0, 2, 1, 2], average=None).round(3).tolist()
    [1.0, 0.0, 0.333]
    """
    if np.isnan(zero_division_value(zero_division)):
        raise ValueError(f"jaccard_score's zero_division must be 'warn', 0 or 1, got {zero_division!r}.")
    c = setwise_counts(
        y_true, y_pred, average=average, labels=labels, pos_label=pos_label, sample_weight=sample_weight
    )
    values = rate_of_counts("jaccard", c, zero_division)
    if average is None:
        return values
    if average == "weighted" and not np.any(c.support):
        return float(measures.average(rate_of_counts("jaccard", c.with_average(None), zero_division, warn=False)))
    return float(values)
