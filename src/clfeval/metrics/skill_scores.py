"""scikit-learn compatible skill scores: D^2 of the log loss and of the Brier score.

A skill score compares a model's loss with the loss of the prior-only prediction, which
predicts for every sample the (weighted) class proportions of ``y_true``:
``D^2 = 1 - loss(model) / loss(prior)``. Both losses come from the statistics that
:func:`~clfeval.metrics.log_loss` and :func:`~clfeval.metrics.brier_score_loss` read their
values from (:class:`clfeval.formulas.sums.LogLossSum`, :class:`clfeval.formulas.sums.BrierSum`), after the same
input checks. Arguments, results, warnings and errors follow scikit-learn 1.9.

>>> round(d2_brier_score([0, 1, 1, 0], [0.2, 0.7, 0.6, 0.4]), 12)
0.55
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from clfeval.exceptions import UndefinedMetricWarning
from clfeval.inputs.labels import check_consistent_length
from clfeval.metrics.probabilistic import (
    binary_target,
    probability_targets,
    read_scores,
    take_deprecated_y_pred,
)
from clfeval.formulas.sums import BrierSum, LogLossSum

__all__ = ["d2_log_loss_score", "d2_brier_score"]


def _n_samples(y: Any, name: str) -> int:
    """Number of samples of an array-like (its first dimension), as scikit-learn counts them."""
    if y is None or isinstance(y, (str, bytes)) or np.isscalar(y):
        raise TypeError(f"{name} must be an array-like of samples, got {y!r}.")
    shape = getattr(y, "shape", None)
    return int(shape[0]) if shape is not None and len(shape) else len(y)


def _enough_samples(y_true: Any, y_proba: Any, sample_weight: Any) -> bool:
    """Same length everywhere; with fewer than two samples warn (D^2 undefined) and say so."""
    n = _n_samples(y_proba, "y_proba")
    check_consistent_length(
        y_proba=range(n),
        y_true=range(_n_samples(y_true, "y_true")),
        sample_weight=None if sample_weight is None else range(_n_samples(sample_weight, "sample_weight")),
    )
    if n < 2:
        warnings.warn(
            "D^2 score is not well-defined with less than two samples.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        return False
    return True


def prior_prediction(target: np.ndarray, proba: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    """The prior-only prediction: every sample gets the weighted class proportions of ``target``.

    ``target`` holds class codes indexing the columns of ``proba`` (1-D ``proba``: codes 0/1, two
    columns), or is a multilabel indicator matrix (each column's weighted mean). Returns an
    ``(n_samples, n_columns)`` view. The proportions are column sums of the weighted one-hot
    matrix over the total weight, so a class that has all the weight gets exactly the share
    scikit-learn computes (1 or a hair below), which decides whether D^2 is 1, NaN or -inf.

    >>> prior_prediction(np.array([0, 2, 2, 1]), np.zeros((4, 3)), None)[0].tolist()
    [0.25, 0.25, 0.5]
    """
    n = target.shape[0]
    if target.ndim == 2:
        onehot = target.astype(np.float64)
    else:
        onehot = np.zeros((n, proba.shape[1] if proba.ndim == 2 else 2))
        onehot[np.arange(n), target] = 1.0
    if weight is None:
        share = onehot.sum(axis=0) / n
    else:
        w = weight.astype(np.float64)
        share = (onehot * w[:, None]).sum(axis=0) / w.sum()
    return np.broadcast_to(share, onehot.shape)


def _skill(model: float, prior: float) -> float:
    """``1 - model / prior``; a zero prior loss warns as numpy's division does and gives -inf/NaN."""
    if prior == 0:
        what = "invalid value" if model == 0 else "divide by zero"
        warnings.warn(f"{what} encountered in divide", RuntimeWarning, stacklevel=3)
        return float("nan") if model == 0 else float("-inf")
    return float(1 - model / prior)


def d2_log_loss_score(
    y_true: Any,
    y_proba: Any = None,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    y_pred: Any = "deprecated",
) -> float:
    """D^2 of the log loss: the fraction of the prior-only prediction's log loss explained.

    1 is perfect, 0 is no better than predicting the class proportions of ``y_true``, and it
    can be arbitrarily negative. ``y_proba`` is read as in :func:`~clfeval.metrics.log_loss`.
    With fewer than two samples it warns (``UndefinedMetricWarning``) and returns NaN.
    ``y_pred`` is the deprecated name of ``y_proba``.

    Same as `sklearn.metrics.d2_log_loss_score`; differences: none in results for float64 input
    (same values and warnings, to rounding in the last bits); faster (both log losses from one
    additive statistic each); float32 probabilities are summed in float64 (scikit-learn works in
    float32: results differ near the eighth digit); a negative ``sample_weight`` raises ValueError
    (scikit-learn accepts it); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True class labels, or a 0/1 indicator matrix.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes), default=None
        Predicted probabilities in [0, 1]: one column per class in sorted label order, or for two
        classes the 1-D probability of the greater label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample, used in both losses and in the class proportions; None
        weighs every sample 1.
    labels : array-like of shape (n_classes,), default=None
        All classes, one per column of ``y_proba``; needed when ``y_true`` lacks some of them.
        None: the labels of ``y_true``.
    y_pred : array-like, default="deprecated"
        Former name of ``y_proba``; passing it gives a FutureWarning.

    Returns
    -------
    float
        1 - log_loss(model) / log_loss(prior), at most 1; NaN for fewer than two samples.

    See Also
    --------
    log_loss : The loss compared here.
    d2_brier_score : The same skill score for the Brier score.

    Examples
    --------
    >>> round(d2_log_loss_score([0, 1, 1, 0], [0.2, 0.7, 0.6, 0.4]), 6)
    0.422392
    """
    y_proba = take_deprecated_y_pred(y_proba, y_pred)
    if not _enough_samples(y_true, y_proba, sample_weight):
        return float("nan")
    proba = read_scores(y_proba, "y_proba")
    target, weight = probability_targets(y_true, proba, labels, sample_weight)
    model = LogLossSum.from_encoded(target, proba, weight).total
    prior = LogLossSum.from_encoded(target, prior_prediction(target, proba, weight), weight).total
    if prior == 0:  # only a multilabel y_true that marks no label at all
        raise ZeroDivisionError(
            "D^2 of the log loss is undefined: y_true marks no label, so the prior's log loss is 0."
        )
    return _skill(model, prior)


def d2_brier_score(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    labels: Any = None,
) -> float:
    """D^2 of the Brier score (Brier skill score): the share of the prior's Brier score explained.

    ``y_proba`` is 1-D (probability of ``pos_label``, chosen as in
    :func:`~clfeval.metrics.brier_score_loss`) or has one column per class in sorted label order.
    With fewer than two samples it warns (``UndefinedMetricWarning``) and returns NaN.

    Same as `sklearn.metrics.d2_brier_score`; differences: none in results for float64 input
    (same values and warnings, to rounding in the last bits); faster (both Brier scores from one
    additive statistic each); float32 probabilities are summed in float64 (scikit-learn works in
    float32: results differ near the eighth digit); a negative ``sample_weight`` raises ValueError
    (scikit-learn accepts it); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities in [0, 1]: 1-D, the probability of ``pos_label``; or one column
        per class in sorted label order.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample, used in both scores and in the class proportions; None
        weighs every sample 1.
    pos_label : int, float, bool or str, default=None
        The class whose probability a 1-D ``y_proba`` holds; None: 1 for labels in {0, 1} or
        {-1, 1}, else the greater label.
    labels : array-like of shape (n_classes,), default=None
        With 2-D ``y_proba``: all classes, one per column, needed when ``y_true`` lacks some of
        them. None: the labels of ``y_true``.

    Returns
    -------
    float
        1 - brier(model) / brier(prior), at most 1; NaN for fewer than two samples, and -inf or
        NaN (with a RuntimeWarning, as numpy's division gives) when ``y_true`` holds a single
        class.

    See Also
    --------
    brier_score_loss : The score compared here.
    d2_log_loss_score : The same skill score for the log loss.

    Examples
    --------
    >>> round(d2_brier_score([0, 2, 1, 0], [[.2, .7, .1], [.6, .2, .2], [.1, .1, .8], [.3, .3, .4]]), 12)
    -0.752
    """
    if not _enough_samples(y_true, y_proba, sample_weight):
        return float("nan")
    proba = read_scores(y_proba, "y_proba")
    if proba.ndim == 1:
        target, weight = binary_target(y_true, proba, pos_label, sample_weight)
    else:
        target, weight = probability_targets(y_true, proba, labels, sample_weight)
    model = BrierSum.from_encoded(target, proba, weight).total
    prior = BrierSum.from_encoded(target, prior_prediction(target, proba, weight), weight).total
    return _skill(model, prior)
