"""scikit-learn compatible hinge loss (binary, and Crammer-Singer multiclass).

Arguments, results, warnings and errors follow scikit-learn 1.9 (sample weights must be >= 0,
as everywhere in clfeval).

>>> hinge_loss([-1, 1, 1], [-2.18, 2.36, 0.09])
0.30333333333333334
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.inputs.labels import (
    as_1d,
    as_array,
    check_consistent_length,
    check_sample_weight,
    encode,
    target_kind,
    unique_sorted,
)
from clfeval.inputs.probabilities import read_scores
from clfeval.formulas.sums import weighted_mean

__all__ = ["hinge_loss"]


def _multiclass_margins(y: np.ndarray, decision: np.ndarray, classes: np.ndarray, given: bool) -> np.ndarray:
    """Crammer-Singer margins: the true class's decision minus the largest other decision."""
    n, k = y.shape[0], classes.size
    if decision.ndim != 2:
        raise ValueError(
            f"With a multiclass target pred_decision must have shape (n_samples, n_classes), that is "
            f"({n}, {k}); got {decision.shape}."
        )
    if decision.shape[1] != k:
        if not given:
            raise ValueError(
                f"pred_decision has {decision.shape[1]} columns but y_true has {k} classes "
                f"{classes.tolist()}. Please include all labels in y_true or pass labels as third argument "
                "(labels=[...], every class in the column order of pred_decision)."
            )
        raise ValueError(
            f"pred_decision has {decision.shape[1]} columns but labels has {k} classes; pred_decision "
            f"must have shape (n_samples, n_classes), that is ({n}, {k})."
        )
    codes = encode(y, classes)
    if (codes < 0).any():
        raise ValueError(
            f"y_true contains labels {unique_sorted(y[codes < 0]).tolist()} that are not in labels "
            f"{classes.tolist()}."
        )
    rows = np.arange(n)
    own = decision[rows, codes]
    others = decision.copy()
    others[rows, codes] = -np.inf
    return own - others.max(axis=1)


def _binary_signs(y: np.ndarray) -> np.ndarray:
    """+1/-1 targets as scikit-learn's binarizer of ``y_true`` makes them.

    Two classes: +1 for the greater. One class: all -1. More classes (possible only when
    ``labels`` names at most two): +1 for the smallest class, the first binarized column.
    """
    kind, classes = target_kind(y, "y_true")
    if kind in ("continuous", "unknown"):
        raise ValueError(f"y_true must hold class labels for the hinge loss; it holds {kind} values.")
    if classes.size == 1:
        return -np.ones(y.shape[0])
    positive = classes[1] if classes.size == 2 else classes[0]
    return np.where(encode(y, classes) == encode(np.asarray([positive]), classes)[0], 1.0, -1.0)


def hinge_loss(y_true: Any, pred_decision: Any, *, labels: Any = None, sample_weight: Any = None) -> float:
    """Average hinge loss ``max(0, 1 - margin)`` of decision-function values.

    Binary: the greater label is +1 and ``pred_decision`` is 1-D. Multiclass (more than two
    classes in ``labels``, or in ``y_true`` when ``labels`` is None): ``pred_decision`` has one
    column per class in sorted label order and the margin is the true class's decision minus the
    largest other one (Crammer and Singer, JMLR 2, 2001).

    Same as `sklearn.metrics.hinge_loss`; differences: none in results for ordinary input;
    faster (the margins computed for all samples at once); a negative ``sample_weight`` raises
    ValueError (scikit-learn accepts it); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    pred_decision : array-like of shape (n_samples,) or (n_samples, n_classes)
        Decision-function values (not probabilities): 1-D for two classes, the value for the greater
        label; otherwise one column per class in sorted label order.
    labels : array-like of shape (n_classes,), default=None
        All classes, needed for multiclass data when ``y_true`` lacks some of them. None: the
        labels of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.

    Returns
    -------
    float
        The (weighted) mean of ``max(0, 1 - margin)`` over the samples, >= 0.

    See Also
    --------
    log_loss : The loss of predicted probabilities.

    Examples
    --------
    >>> hinge_loss([-1, 1, 1], [-2.18, 2.36, 0.09])
    0.30333333333333334
    >>> hinge_loss([0, 2, 1], [[1, 2, 3], [3, 2, 1], [0, 0, 0]])
    2.3333333333333335
    """
    y = as_1d(as_array(y_true, "y_true"), "y_true must be a 1-D array of class labels")
    decision = read_scores(pred_decision, "pred_decision")
    n = check_consistent_length(y_true=y, pred_decision=decision)
    weight = check_sample_weight(sample_weight, n)
    if labels is not None:
        given = as_array(labels, "labels")
        classes = unique_sorted(given.reshape(-1), "labels")
    else:
        classes = unique_sorted(y, "y_true")
    if classes.size > 2:
        margin = _multiclass_margins(y, decision, classes, labels is not None)
    else:
        if decision.ndim != 1:
            raise ValueError(
                f"With a binary target pred_decision must be 1-D (the decision for the greater "
                f"label); got shape {decision.shape}."
            )
        margin = _binary_signs(y) * decision
    return weighted_mean(np.maximum(1.0 - margin, 0.0), weight)
