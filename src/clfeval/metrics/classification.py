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
from clfeval.formulas.exact_sums import exact_div, is_big, weight_total
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
        return counts.per_sample.shape[0] if w is None else weight_total(w)
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

    Same as `sklearn.metrics.accuracy_score`; differences: none in results for ordinary input
    (float weights: up to rounding in the last bits); faster (the trace of confusion counts built
    in one pass); exact where scikit-learn's float sums fail (integer weights are summed as
    integers, float weights whose total overflows still give the right share; scikit-learn: NaN);
    a negative ``sample_weight`` raises ValueError (scikit-learn accepts it); clfeval's own error
    messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix (one column per label) for multilabel
        data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``. For multilabel data a sample counts as
        correct only when its whole row matches.
    normalize : bool, default=True
        True returns the share of correct samples; False returns their number (their total weight
        when ``sample_weight`` is given).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.

    Returns
    -------
    float
        Share of correctly predicted samples in [0, 1], or their (weighted) count when
        ``normalize=False``.

    See Also
    --------
    error_rate : One minus this share.
    balanced_accuracy_score : Mean recall over the classes, robust to class imbalance.

    Examples
    --------
    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3])
    0.5
    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3], normalize=False)
    2.0
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

    Same as `sklearn.metrics.zero_one_loss`; differences: none in results for ordinary input
    (float weights: up to rounding in the last bits); faster (read off confusion counts built in
    one pass); exact where scikit-learn's float sums fail (the share is one correctly rounded
    division of exact integer counts, and float weights whose total overflows still give the right
    share; scikit-learn: NaN); a negative ``sample_weight`` raises ValueError (scikit-learn accepts
    it); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``. A multilabel sample is wrong when any of
        its labels is wrong.
    normalize : bool, default=True
        True returns the share of misclassified samples; False returns their number (their total
        weight when ``sample_weight`` is given).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.

    Returns
    -------
    float
        Share of misclassified samples in [0, 1] (1 - accuracy), or their (weighted) count when
        ``normalize=False``.

    See Also
    --------
    error_rate : The same share, under its usual name.
    hamming_loss : Share of wrong labels rather than wrong samples for multilabel data.

    Examples
    --------
    >>> zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    >>> zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4], normalize=False)
    1.0
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

    In confusion-matrix terms: the (weighted) off-diagonal total over the grand total, computed as that
    ratio (the report's error rate), where :func:`zero_one_loss` computes ``1 - accuracy`` as scikit-learn
    does; scikit-learn has no function of this name.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``. A multilabel sample is wrong when any of
        its labels is wrong.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.

    Returns
    -------
    float
        Share of misclassified samples (by weight), in [0, 1].

    See Also
    --------
    accuracy_score : One minus this rate.
    zero_one_loss : The same share, or a count with ``normalize=False``.

    Examples
    --------
    >>> error_rate([0, 1, 1, 0], [0, 1, 0, 0])
    0.25

    It is the misclassified weight over the total, correctly rounded, as the report shows it; scikit-learn's
    ``zero_one_loss`` is ``1 - accuracy``, which can differ in the last bit:

    >>> error_rate([0] * 10, [1] * 3 + [0] * 7), zero_one_loss([0] * 10, [1] * 3 + [0] * 7)
    (0.3, 0.30000000000000004)
    """
    _, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    total = _weighted_total(counts)
    correct = _correct(counts)
    if total == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    if isinstance(total, int) or is_big(np.asarray(total), np.asarray(correct)):
        return exact_div(total - correct, total)
    return float((total - correct) / total)


def hamming_loss(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Fraction of wrong labels (per label for multilabel).

    For 1-D labels it equals :func:`zero_one_loss`; for multilabel data every (sample, label) cell
    counts once, so a sample with one wrong label out of four adds a quarter of its weight.

    Same as `sklearn.metrics.hamming_loss`; differences: none in results for ordinary input
    (float weights: up to rounding in the last bits); faster (read off confusion counts built in
    one pass); exact where scikit-learn's float sums fail (float weights whose total overflows
    still give the right share; scikit-learn: a wrong value); a negative ``sample_weight`` raises
    ValueError (scikit-learn accepts it); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.

    Returns
    -------
    float
        Share of wrong labels, in [0, 1].

    See Also
    --------
    zero_one_loss : Counts a multilabel sample as wrong when any of its labels is.

    Examples
    --------
    >>> hamming_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    >>> hamming_loss([[0, 1], [1, 1]], [[0, 0], [1, 1]])
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

    Same as `sklearn.metrics.balanced_accuracy_score`; differences: none in results for ordinary
    input (float weights: up to rounding in the last bits); faster (read off the diagonal and row
    sums of confusion counts built in one pass); exact where scikit-learn's sums fail (integer
    weights never wrap around int64, float weights whose sums overflow still give the right value);
    a negative ``sample_weight`` raises ValueError (scikit-learn accepts it); clfeval's own error
    messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (binary or multiclass).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels. A predicted class that never occurs in ``y_true`` adds no recall of
        its own and gives a UserWarning.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    adjusted : bool, default=False
        If True, rescale so that chance level (1 / number of classes in ``y_true``) maps to 0 and
        a perfect score stays 1; the result can then be negative.

    Returns
    -------
    float
        Mean recall over the classes of ``y_true`` (adjusted if asked). With ``adjusted=True`` and
        a single class in ``y_true`` it is undefined: NaN or -inf, with an UndefinedMetricWarning.

    See Also
    --------
    recall_score : Per-class recall; its macro average is this score when every predicted class
        occurs in ``y_true``.

    Examples
    --------
    >>> balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1])
    0.625
    >>> balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1], adjusted=True)
    0.25
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

    The correlation between true and predicted class memberships, computed from the confusion
    matrix: 1 is perfect, 0 no better than chance, -1 total disagreement (binary); 0 when it is
    undefined (a constant ``y_true`` or ``y_pred``).

    Same as `sklearn.metrics.matthews_corrcoef`; differences: none in results for ordinary input;
    faster (read off the diagonal and margins of confusion counts built in one pass); exact where
    scikit-learn's sums fail (integer weights never wrap around int64, float weights whose sums
    overflow still give the right value; scikit-learn: NaN or a value outside [-1, 1]); a negative
    ``sample_weight`` raises ValueError (scikit-learn accepts it); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (binary or multiclass).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.

    Returns
    -------
    float
        The coefficient, in [-1, 1].

    See Also
    --------
    cohen_kappa_score : Agreement beyond chance, another chance-corrected summary of the table.

    Examples
    --------
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

    Kappa is (observed agreement - chance agreement) / (1 - chance agreement), where chance
    agreement comes from the margins of the confusion matrix of ``y1`` against ``y2``. It is
    symmetric in the two annotators.

    Same as `sklearn.metrics.cohen_kappa_score`; differences: none in results for ordinary input;
    faster (confusion counts built in one pass; with many classes only the non-zero cells are
    kept); exact where scikit-learn's sums fail (integer weights never wrap around int64, float
    weights whose sums overflow still give the right value; scikit-learn: NaN or a value above 1);
    a negative ``sample_weight`` raises ValueError (scikit-learn accepts it); invalid ``weights`` or
    ``replace_undefined_by`` raise ValueError (scikit-learn: its InvalidParameterError, a
    ValueError too); clfeval's own error messages.

    Parameters
    ----------
    y1 : array-like of shape (n_samples,)
        Labels given by the first annotator.
    y2 : array-like of shape (n_samples,)
        Labels given by the second annotator.
    labels : array-like of shape (n_classes,), default=None
        Classes that index the confusion matrix, at least one of them present in ``y1``; None uses
        every class seen in ``y1`` or ``y2``.
    weights : {None, "linear", "quadratic"}, default=None
        How much a disagreement counts: None counts every disagreement fully; "linear" and
        "quadratic" count it by the distance between the two classes' positions in the label
        order (or its square), for ordinal classes.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    replace_undefined_by : float, default=np.nan
        Value returned, with an UndefinedMetricWarning, when kappa is 0/0 (chance agreement
        is 1); a number in [-1, 1] or NaN.

    Returns
    -------
    float
        Kappa, at most 1 (perfect agreement); 0 is chance-level agreement.

    See Also
    --------
    matthews_corrcoef : Correlation between true and predicted classes.

    Examples
    --------
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

    For each label, from its one-vs-rest confusion counts: precision tp / (tp + fp), recall
    tp / (tp + fn), F-beta (1 + beta^2) tp / ((1 + beta^2) tp + beta^2 fn + fp) and support
    tp + fn (the label's true samples).

    Same as `sklearn.metrics.precision_recall_fscore_support`; differences: none in results for
    ordinary input (float weights: up to rounding in the last bits); faster (one-vs-rest counts
    read off confusion counts built in one pass); exact where scikit-learn's sums fail (integer
    weights are summed exactly and supports past 2**53 stay exact integers, where scikit-learn
    returns rounded float64; float weights whose sums overflow still give the right rates;
    scikit-learn: NaN); a negative ``sample_weight`` raises ValueError (scikit-learn accepts it);
    invalid arguments raise ValueError or TypeError (scikit-learn: its InvalidParameterError);
    clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``.
    beta : float, default=1.0
        Weight of recall against precision in the F-score (>= 0): beta > 1 favours recall, beta < 1
        precision, and beta = 0 gives precision itself.
    labels : array-like, default=None
        Labels to report and average over, in this order for ``average=None`` (column indices for
        multilabel data). Labels absent from the data may be listed and present ones left out.
        None: every label in ``y_true`` and ``y_pred``, sorted. Ignored when ``average='binary'``.
    pos_label : int, float, bool or str, default=1
        The class scored when ``average='binary'``; with any other average it is ignored (a
        UserWarning says so when it is not 1).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default=None
        None returns one value per label. "binary": the scores of ``pos_label`` only (binary data
        only). "micro": from the counts summed over the labels. "macro": the unweighted mean of
        the per-label scores. "weighted": their mean weighted by support. "samples": the mean over
        samples of each sample's scores (multilabel only).
    warn_for : tuple or set of str, default=("precision", "recall", "f-score")
        The scores that give an UndefinedMetricWarning when they are 0/0.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score that is 0/0 (no predicted or no true samples). "warn" uses 0 and warns.

    Returns
    -------
    precision : float or ndarray of shape (n_labels,)
        Precision, averaged to a float unless ``average=None``.
    recall : float or ndarray of shape (n_labels,)
        Recall, averaged likewise.
    fbeta_score : float or ndarray of shape (n_labels,)
        F-beta score, averaged likewise.
    support : ndarray of shape (n_labels,) or None
        Number (or total weight) of true samples of each label; None when ``average`` is set.

    See Also
    --------
    classification_report : The same numbers as a text table or a dict.

    Examples
    --------
    >>> p, r, f, s = precision_recall_fscore_support([0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 2, 2, 2, 1])
    >>> p.round(2).tolist(), s.tolist()
    ([1.0, 0.5, 0.67], [2, 2, 3])
    >>> precision_recall_fscore_support([0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 2, 2, 2, 1], average="micro")
    (0.7142857142857143, 0.7142857142857143, 0.7142857142857143, None)
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

    The share of the samples predicted as a class that truly belong to it: of each label's
    one-vs-rest confusion counts, true positives over all predicted positives.

    Same as `sklearn.metrics.precision_score`; differences: none in results for ordinary input
    (float weights: up to rounding in the last bits); faster (one-vs-rest counts read off confusion
    counts built in one pass); exact where scikit-learn's sums fail (integer weights are summed
    exactly, scikit-learn rounds them to float64 past 2**53; float weights whose sums overflow
    still give the right value, scikit-learn: NaN); a negative ``sample_weight`` raises ValueError
    (scikit-learn accepts it); invalid arguments raise ValueError or TypeError (scikit-learn: its
    InvalidParameterError); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``.
    labels : array-like, default=None
        Labels to score and average over, in this order for ``average=None`` (column indices for
        multilabel data). Labels absent from the data may be listed and present ones left out.
        None: every label in ``y_true`` and ``y_pred``, sorted. Ignored when ``average='binary'``.
    pos_label : int, float, bool or str, default=1
        The class scored when ``average='binary'``; with any other average it is ignored (a
        UserWarning says so when it is not 1).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        "binary": the score of ``pos_label`` (binary data only). "micro": from the counts summed
        over the labels. "macro": the unweighted mean of the per-label scores. "weighted": their
        mean weighted by each label's support (true samples). "samples": the mean over samples of
        each sample's score (multilabel only). None: one score per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score that is 0/0 (no sample predicted as the label). "warn" uses 0 and gives an
        UndefinedMetricWarning.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        Precision in [0, 1], a float unless ``average=None`` (then one value per label).

    See Also
    --------
    recall_score : The share of a class's true samples that are found.
    precision_recall_fscore_support : Precision, recall, F-beta and support at once.

    Examples
    --------
    >>> precision_score([0, 1, 1, 0], [1, 1, 1, 0])
    0.6666666666666666
    >>> precision_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average=None).tolist()
    [0.6666666666666666, 0.0, 0.0]
    """
    return _prf_one(0, "precision", y_true, y_pred, labels=labels, pos_label=pos_label,
                    average=average, sample_weight=sample_weight, zero_division=zero_division)


def recall_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Recall (sensitivity, true positive rate) tp / (tp + fn).

    The share of a class's true samples that are predicted as that class: of each label's
    one-vs-rest confusion counts, true positives over all true samples of the label.

    Same as `sklearn.metrics.recall_score`; differences: none in results for ordinary input (float
    weights: up to rounding in the last bits); faster (one-vs-rest counts read off confusion counts
    built in one pass); exact where scikit-learn's sums fail (integer weights are summed exactly,
    scikit-learn rounds them to float64 past 2**53; float weights whose sums overflow still give
    the right value, scikit-learn: NaN); a negative ``sample_weight`` raises ValueError
    (scikit-learn accepts it); invalid arguments raise ValueError or TypeError (scikit-learn: its
    InvalidParameterError); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``.
    labels : array-like, default=None
        Labels to score and average over, in this order for ``average=None`` (column indices for
        multilabel data). Labels absent from the data may be listed and present ones left out.
        None: every label in ``y_true`` and ``y_pred``, sorted. Ignored when ``average='binary'``.
    pos_label : int, float, bool or str, default=1
        The class scored when ``average='binary'``; with any other average it is ignored (a
        UserWarning says so when it is not 1).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        "binary": the score of ``pos_label`` (binary data only). "micro": from the counts summed
        over the labels. "macro": the unweighted mean of the per-label scores. "weighted": their
        mean weighted by each label's support (true samples). "samples": the mean over samples of
        each sample's score (multilabel only). None: one score per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score that is 0/0 (no true sample of the label). "warn" uses 0 and gives an
        UndefinedMetricWarning.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        Recall in [0, 1], a float unless ``average=None`` (then one value per label).

    See Also
    --------
    precision_score : The share of predictions of a class that are right.
    balanced_accuracy_score : Macro-averaged recall over the classes of ``y_true``.

    Examples
    --------
    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    >>> recall_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average="macro")
    0.3333333333333333
    """
    return _prf_one(1, "recall", y_true, y_pred, labels=labels, pos_label=pos_label,
                    average=average, sample_weight=sample_weight, zero_division=zero_division)


def fbeta_score(
    y_true: Any, y_pred: Any, *, beta: float, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """F-beta: weighted harmonic mean of precision and recall (beta > 1 favours recall).

    From each label's one-vs-rest confusion counts: (1 + beta^2) tp / ((1 + beta^2) tp +
    beta^2 fn + fp).

    Same as `sklearn.metrics.fbeta_score`; differences: none in results for ordinary input (float
    weights: up to rounding in the last bits); faster (one-vs-rest counts read off confusion counts
    built in one pass); exact where scikit-learn's sums fail (integer weights are summed exactly,
    scikit-learn rounds them to float64 past 2**53; float weights whose sums overflow still give
    the right value, scikit-learn: NaN); a negative ``sample_weight`` raises ValueError
    (scikit-learn accepts it); invalid arguments raise ValueError or TypeError (scikit-learn: its
    InvalidParameterError); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``.
    beta : float
        Weight of recall against precision (>= 0): beta > 1 favours recall, beta < 1 precision;
        beta = 0 gives precision and a very large beta tends to recall.
    labels : array-like, default=None
        Labels to score and average over, in this order for ``average=None`` (column indices for
        multilabel data). Labels absent from the data may be listed and present ones left out.
        None: every label in ``y_true`` and ``y_pred``, sorted. Ignored when ``average='binary'``.
    pos_label : int, float, bool or str, default=1
        The class scored when ``average='binary'``; with any other average it is ignored (a
        UserWarning says so when it is not 1).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        "binary": the score of ``pos_label`` (binary data only). "micro": from the counts summed
        over the labels. "macro": the unweighted mean of the per-label scores. "weighted": their
        mean weighted by each label's support (true samples). "samples": the mean over samples of
        each sample's score (multilabel only). None: one score per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score that is 0/0 (no true and no predicted sample of the label). "warn" uses 0
        and gives an UndefinedMetricWarning.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        F-beta score in [0, 1], a float unless ``average=None`` (then one value per label).

    See Also
    --------
    f1_score : The case beta = 1.
    precision_recall_fscore_support : Precision, recall, F-beta and support at once.

    Examples
    --------
    >>> round(fbeta_score([0, 1, 1, 0], [1, 1, 0, 0], beta=2), 4)
    0.5
    >>> round(fbeta_score([0, 1, 1, 0], [1, 1, 1, 0], beta=0.5), 4)
    0.7143
    """
    return _prf_one(2, "f-score", y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label,
                    average=average, sample_weight=sample_weight, zero_division=zero_division)


def f1_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """F1: harmonic mean of precision and recall.

    From each label's one-vs-rest confusion counts: 2 tp / (2 tp + fp + fn).

    Same as `sklearn.metrics.f1_score`; differences: none in results for ordinary input (float
    weights: up to rounding in the last bits); faster (one-vs-rest counts read off confusion counts
    built in one pass); exact where scikit-learn's sums fail (integer weights are summed exactly,
    scikit-learn rounds them to float64 past 2**53; float weights whose sums overflow still give
    the right value, scikit-learn: NaN); a negative ``sample_weight`` raises ValueError
    (scikit-learn accepts it); invalid arguments raise ValueError or TypeError (scikit-learn: its
    InvalidParameterError); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``.
    labels : array-like, default=None
        Labels to score and average over, in this order for ``average=None`` (column indices for
        multilabel data). Labels absent from the data may be listed and present ones left out.
        None: every label in ``y_true`` and ``y_pred``, sorted. Ignored when ``average='binary'``.
    pos_label : int, float, bool or str, default=1
        The class scored when ``average='binary'``; with any other average it is ignored (a
        UserWarning says so when it is not 1).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        "binary": the score of ``pos_label`` (binary data only). "micro": from the counts summed
        over the labels. "macro": the unweighted mean of the per-label scores. "weighted": their
        mean weighted by each label's support (true samples). "samples": the mean over samples of
        each sample's score (multilabel only). None: one score per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score that is 0/0 (no true and no predicted sample of the label). "warn" uses 0
        and gives an UndefinedMetricWarning.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        F1 score in [0, 1], a float unless ``average=None`` (then one value per label).

    See Also
    --------
    fbeta_score : Weighs recall beta times as much as precision.
    precision_recall_fscore_support : Precision, recall, F-beta and support at once.

    Examples
    --------
    >>> f1_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    >>> f1_score(["a", "b", "c", "a"], ["a", "b", "b", "c"], average="weighted")
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

    Not in scikit-learn. In each label's one-vs-rest confusion counts: true negatives over all
    samples not of the label, that is the recall of "not this label". It takes the arguments of
    :func:`precision_score`, with the same averages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``.
    labels : array-like, default=None
        Labels to score and average over, in this order for ``average=None`` (column indices for
        multilabel data). Labels absent from the data may be listed and present ones left out.
        None: every label in ``y_true`` and ``y_pred``, sorted. Ignored when ``average='binary'``.
    pos_label : int, float, bool or str, default=1
        The class scored when ``average='binary'``; with any other average it is ignored (a
        UserWarning says so when it is not 1).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        "binary": the score of ``pos_label`` (binary data only). "micro": from the counts summed
        over the labels. "macro": the unweighted mean of the per-label scores. "weighted": their
        mean weighted by each label's support (true samples). "samples": the mean over samples of
        each sample's score (multilabel only). None: one score per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score that is 0/0 (no sample outside the label). "warn" uses 0 and gives an
        UndefinedMetricWarning.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        Specificity in [0, 1], a float unless ``average=None`` (then one value per label).

    See Also
    --------
    fallout_score : One minus specificity (the false positive rate).
    recall_score : The true positive rate.

    Examples
    --------
    >>> specificity_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    >>> specificity_score([0, 1, 1, 0], [1, 1, 0, 0], pos_label=0)
    0.5
    """
    return _setwise_rate("specificity", y_true, y_pred, labels=labels, pos_label=pos_label,
                         average=average, sample_weight=sample_weight, zero_division=zero_division)


def npv_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Negative predictive value tn / (tn + fn), with precision_score's arguments.

    Not in scikit-learn. In each label's one-vs-rest confusion counts: true negatives over all
    samples predicted as not the label, that is the precision of "not this label". It takes the
    arguments of :func:`precision_score`, with the same averages ('weighted' by support).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``.
    labels : array-like, default=None
        Labels to score and average over, in this order for ``average=None`` (column indices for
        multilabel data). Labels absent from the data may be listed and present ones left out.
        None: every label in ``y_true`` and ``y_pred``, sorted. Ignored when ``average='binary'``.
    pos_label : int, float, bool or str, default=1
        The class scored when ``average='binary'``; with any other average it is ignored (a
        UserWarning says so when it is not 1).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        "binary": the score of ``pos_label`` (binary data only). "micro": from the counts summed
        over the labels. "macro": the unweighted mean of the per-label scores. "weighted": their
        mean weighted by each label's support (true samples). "samples": the mean over samples of
        each sample's score (multilabel only). None: one score per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score that is 0/0 (no sample predicted outside the label). "warn" uses 0 and
        gives an UndefinedMetricWarning.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        Negative predictive value in [0, 1], a float unless ``average=None`` (then one value per
        label).

    See Also
    --------
    precision_score : The positive predictive value.
    specificity_score : The true negative rate.

    Examples
    --------
    >>> npv_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    >>> npv_score([0, 1, 1, 0], [1, 1, 1, 0])
    1.0
    """
    return _setwise_rate("npv", y_true, y_pred, labels=labels, pos_label=pos_label,
                         average=average, sample_weight=sample_weight, zero_division=zero_division)


def fallout_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Fall-out (false positive rate) fp / (fp + tn), with precision_score's arguments.

    Not in scikit-learn. In each label's one-vs-rest confusion counts: false positives over all
    samples not of the label, one minus :func:`specificity_score` (where defined); the x axis of
    the ROC curve. It takes the arguments of :func:`precision_score`, with the same averages
    ('weighted' by support).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``.
    labels : array-like, default=None
        Labels to score and average over, in this order for ``average=None`` (column indices for
        multilabel data). Labels absent from the data may be listed and present ones left out.
        None: every label in ``y_true`` and ``y_pred``, sorted. Ignored when ``average='binary'``.
    pos_label : int, float, bool or str, default=1
        The class scored when ``average='binary'``; with any other average it is ignored (a
        UserWarning says so when it is not 1).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        "binary": the score of ``pos_label`` (binary data only). "micro": from the counts summed
        over the labels. "macro": the unweighted mean of the per-label scores. "weighted": their
        mean weighted by each label's support (true samples). "samples": the mean over samples of
        each sample's score (multilabel only). None: one score per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score that is 0/0 (no sample outside the label). "warn" uses 0 and gives an
        UndefinedMetricWarning.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        False positive rate in [0, 1], a float unless ``average=None`` (then one value per label).

    See Also
    --------
    specificity_score : One minus the fall-out.
    roc_curve : The false positive rate at every threshold of a score.

    Examples
    --------
    >>> fallout_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    >>> fallout_score([0, 1, 1, 0], [0, 1, 1, 1])
    0.5
    """
    return _setwise_rate("fallout", y_true, y_pred, labels=labels, pos_label=pos_label,
                         average=average, sample_weight=sample_weight, zero_division=zero_division)


def jaccard_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Jaccard similarity tp / (tp + fp + fn).

    For each label, the size of the intersection over the size of the union of the samples that
    truly have it and those predicted to have it, from its one-vs-rest confusion counts.

    Same as `sklearn.metrics.jaccard_score`; differences: none in results for ordinary input (float
    weights: up to rounding in the last bits); faster (one-vs-rest counts read off confusion counts
    built in one pass); exact where scikit-learn's sums fail (integer weights are summed exactly,
    scikit-learn rounds them to float64 past 2**53; float weights whose sums overflow still give
    the right value, scikit-learn: NaN); a negative ``sample_weight`` raises ValueError
    (scikit-learn accepts it); invalid arguments raise ValueError or TypeError (scikit-learn: its
    InvalidParameterError); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``.
    labels : array-like, default=None
        Labels to score and average over, in this order for ``average=None`` (column indices for
        multilabel data). Labels absent from the data may be listed and present ones left out.
        None: every label in ``y_true`` and ``y_pred``, sorted. Ignored when ``average='binary'``.
    pos_label : int, float, bool or str, default=1
        The class scored when ``average='binary'``; with any other average it is ignored (a
        UserWarning says so when it is not 1).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        "binary": the score of ``pos_label`` (binary data only). "micro": from the counts summed
        over the labels. "macro": the unweighted mean of the per-label scores. "weighted": their
        mean weighted by each label's support (true samples). "samples": the mean over samples of
        each sample's score (multilabel only). None: one score per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    zero_division : {"warn", 0.0, 1.0}, default="warn"
        Value of a score that is 0/0 (no true and no predicted sample of the label). "warn" uses 0
        and gives an UndefinedMetricWarning.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        Jaccard index in [0, 1], a float unless ``average=None`` (then one value per label).

    See Also
    --------
    f1_score : 2 J / (1 + J) of the same counts, for one label.

    Examples
    --------
    >>> jaccard_score([0, 1, 2, 2], [0, 2, 1, 2], average=None).round(3).tolist()
    [1.0, 0.0, 0.333]
    >>> jaccard_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.3333333333333333
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
