"""Confusion matrices, scikit-learn's drop-ins: :func:`confusion_matrix` (normalised on request,
exact shares for exact counts) and :func:`multilabel_confusion_matrix` (one-vs-rest 2x2 tables per
label, or per sample).

>>> confusion_matrix(["a", "b", "b"], ["a", "b", "a"], normalize="true").tolist()
[[1.0, 0.0], [0.5, 0.5]]
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from clfeval.statistics.counts import build_counts
from clfeval.formulas.exact_sums import exact_ratio, is_big
from clfeval.metrics.label_options import check_bool
from clfeval.metrics.label_tables import binary_1d, labelled_matrix, ovr_tables, warn_single_label
from clfeval.metrics.setwise import multilabel_setwise

__all__ = ["confusion_matrix", "multilabel_confusion_matrix"]


def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    normalize: Literal["true", "pred", "all"] | None = None,
) -> np.ndarray:
    """Confusion matrix C[i, j]: samples of true class i predicted as class j.

    Rows are the true classes and columns the predicted ones, both in the order of ``labels``
    (sorted labels by default); the diagonal holds the correct predictions.

    Same as `sklearn.metrics.confusion_matrix`; differences: none in results for ordinary input
    (same values and dtype: int64 counts, float64 with float weights); faster (one pass over the
    label codes); integer weights are counted exactly, and a table whose cells pass int64 comes
    back as an object array of Python ints where scikit-learn wraps around to negative counts; with
    ``normalize``, shares of such exact counts are correctly rounded; a cell whose float weights
    sum past the float64 range is inf (scikit-learn: the largest float64); a table too large for
    half the machine's memory raises ``DenseTableTooLarge`` (a MemoryError and a ValueError)
    before anything is allocated; a negative ``sample_weight`` raises ValueError (scikit-learn
    accepts it); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (binary or multiclass).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels.
    labels : array-like of shape (n_classes,), default=None
        Classes that index the rows and columns, in this order; classes absent from the data give
        zero rows and columns, and samples of classes not listed are left out. At least one of
        them must occur in ``y_true``. None: every label in ``y_true`` and ``y_pred``, sorted.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None counts every sample once.
    normalize : {"true", "pred", "all"} or None, default=None
        Turn the counts into shares: of each row ("true": each true class sums to 1), of each
        column ("pred") or of the whole table ("all"). None keeps the counts. Empty rows or
        columns give 0.

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
        The table; int64 counts without weights or with integer weights, float64 with float
        weights or ``normalize``.

    See Also
    --------
    multilabel_confusion_matrix : One 2x2 one-vs-rest table per class or per label.

    Examples
    --------
    >>> confusion_matrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2]).tolist()
    [[2, 0, 0], [0, 0, 1], [1, 0, 2]]
    >>> confusion_matrix(["cat", "dog", "dog"], ["cat", "cat", "dog"], normalize="true").tolist()
    [[1.0, 0.0], [0.5, 0.5]]
    """
    if normalize not in ("true", "pred", "all", None):
        raise ValueError(f"normalize must be one of {{'true', 'pred', 'all', None}}, got {normalize!r}.")
    kind, counts, true_labels, _ = build_counts(y_true, y_pred, sample_weight)
    cm = labelled_matrix(binary_1d(kind, counts), true_labels, labels)
    if normalize is not None and (counts.exact is not None or is_big(cm)):
        # exact counts: each share correctly rounded (0 where the row/column/total is 0)
        t = labelled_matrix(counts, true_labels, labels, exact=True)
        den = {"true": t.sum(axis=1, keepdims=True), "pred": t.sum(axis=0, keepdims=True), "all": t.sum()}[normalize]
        cm = np.nan_to_num(exact_ratio(t, den))
    elif normalize is not None:
        with np.errstate(all="ignore"):
            if normalize == "true":
                cm = cm / cm.sum(axis=1, keepdims=True)
            elif normalize == "pred":
                cm = cm / cm.sum(axis=0, keepdims=True)
            else:
                cm = cm / cm.sum()
        cm = np.nan_to_num(cm)
    if cm.shape == (1, 1):
        warn_single_label(stacklevel=3)
    return cm


def multilabel_confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
) -> np.ndarray:
    """One-vs-rest 2x2 tables ``[[tn, fp], [fn, tp]]`` per label (or per sample).

    For 1-D labels each class gets the table of "this class" against all others; for a multilabel
    indicator matrix each column does (or, with ``samplewise=True``, each sample, over its labels).

    Same as `sklearn.metrics.multilabel_confusion_matrix`; differences: none in results for
    ordinary input (same values and dtypes: float64 tables when ``sample_weight`` is given, as
    scikit-learn returns them); faster (read off confusion counts built in one pass); integer
    weights are summed exactly, so cells past 2**53 stay exact integers (int64, or Python ints
    past int64) where scikit-learn returns rounded float64 (negative once totals pass int64); a
    negative ``sample_weight`` raises ValueError (scikit-learn accepts it); clfeval's own error
    messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None counts every sample once.
    labels : array-like, default=None
        Classes (column indices for multilabel data) to make tables for, in this order; None: every
        label in ``y_true`` and ``y_pred``, sorted (all columns for multilabel data).
    samplewise : bool, default=False
        Multilabel data only: one table per sample, counting its labels, instead of one per label.

    Returns
    -------
    ndarray of shape (n_outputs, 2, 2)
        One ``[[tn, fp], [fn, tp]]`` table per label (``n_outputs`` = number of labels) or, with
        ``samplewise=True``, per sample.

    See Also
    --------
    confusion_matrix : The full table of true against predicted classes.

    Examples
    --------
    >>> multilabel_confusion_matrix(["cat", "ant", "cat"], ["ant", "ant", "cat"]).tolist()
    [[[1, 1], [0, 1]], [[1, 0], [1, 1]]]
    >>> multilabel_confusion_matrix([[1, 0], [1, 1]], [[1, 1], [0, 1]], samplewise=True).tolist()
    [[[0, 1], [0, 1]], [[0, 0], [1, 1]]]
    """
    check_bool(samplewise, "samplewise")
    kind, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    if kind != "multilabel-indicator":
        if samplewise:
            raise ValueError(
                "Samplewise metrics are not available outside of multilabel classification."
            )
        lab = counts.labels if labels is None else np.asarray(labels)
        return ovr_tables(counts, lab, sample_weight is not None, exact=False)
    average = "samples" if samplewise else None
    c = multilabel_setwise(y_true, y_pred, counts, labels, average, sample_weight)
    return np.stack([c.tn, c.fp, c.fn, c.tp], axis=-1).reshape(-1, 2, 2)
