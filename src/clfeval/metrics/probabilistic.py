"""scikit-learn compatible probabilistic metrics: top-k accuracy, log loss, Brier score.

Each function validates its input, encodes the classes, builds an additive statistic from
:mod:`clfeval.formulas.sums` in one pass, and reads the metric off it. Arguments, defaults, results,
warnings and errors follow scikit-learn 1.9.

>>> log_loss(["spam", "ham", "ham", "spam"], [[.1, .9], [.9, .1], [.8, .2], [.35, .65]])
0.21616187468057912
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from clfeval.exceptions import UndefinedMetricWarning
from clfeval.inputs.labels import (
    as_array,
    check_consistent_length,
    check_sample_weight,
    encode,
    target_kind,
    union_labels,
)
from clfeval.inputs.probabilities import check_unit_interval, classes_and_codes, read_labels_1d, read_scores
from clfeval.inputs.sklearn_pos_label import has_conventional_labels
from clfeval.formulas.sums import BrierSum, LogLossSum, TopKHits

__all__ = ["top_k_accuracy_score", "log_loss", "brier_score_loss"]


# ---------------------------------------------------------------------------------------------
# argument and input checks


def _check_flag(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}.")
    return bool(value)


def probability_targets(
    y_true: Any, proba: np.ndarray, labels: Any, sample_weight: Any
) -> tuple[np.ndarray, np.ndarray | None]:
    """Validate (y_true, probabilities) for log loss / multiclass Brier; return target, weights.

    The target is class codes indexing the columns of ``proba`` (1-D ``proba``: binary, codes
    0/1), or for a 2-D 0/1 ``y_true`` the multilabel indicator matrix itself.
    """
    yt = as_array(y_true, "y_true")
    if yt.ndim == 2 and yt.shape[1] == 1:
        yt = yt[:, 0]
    n = check_consistent_length(y_true=yt, y_proba=proba)
    weight = check_sample_weight(sample_weight, n, allow_all_zero=False)
    check_unit_interval(proba, "y_proba")
    n_columns = proba.shape[1] if proba.ndim == 2 else 2

    if yt.ndim == 2:
        if target_kind(yt, "y_true")[0] != "multilabel-indicator":
            raise ValueError(
                f"y_true is 2-D (shape {yt.shape}) but not a 0/1 multilabel indicator matrix; "
                "pass 1-D class labels, or an indicator matrix with one column per label."
            )
        if labels is not None:
            raise ValueError("labels cannot be used with a multilabel indicator y_true.")
        if proba.ndim != 2 or proba.shape[1] != yt.shape[1]:
            raise ValueError(
                f"y_true is a multilabel indicator with {yt.shape[1]} columns, so y_proba must "
                f"have shape (n_samples, {yt.shape[1]}); got {proba.shape}."
            )
        target = yt
    else:
        _, classes, target = classes_and_codes(yt, labels, strict_order=False)
        if classes.size < 2:
            if labels is None:
                raise ValueError(
                    f"y_true contains only one label ({classes.tolist()[0]!r}); pass the full "
                    "list of class labels through the labels argument."
                )
            raise ValueError(f"labels must contain at least two labels, got {classes.tolist()}.")
        if classes.size != n_columns:
            shape = "is 1-D (binary)" if proba.ndim == 1 else f"has {n_columns} columns"
            source = "y_true" if labels is None else "labels"
            hint = (
                " If y_true lacks some classes, pass all of them through labels."
                if labels is None
                else ""
            )
            raise ValueError(
                f"{source} has {classes.size} classes {classes.tolist()} but y_proba "
                f"{shape}; y_proba needs one column per class, in sorted label order.{hint}"
            )

    if proba.ndim == 2:
        tol = 1e-8 + np.sqrt(np.finfo(proba.dtype).eps)
        if not (np.abs(np.einsum("ij->i", proba) - 1.0) <= tol).all():
            warnings.warn(
                "The y_prob values do not sum to one. Make sure to pass probabilities.",
                UserWarning,
                stacklevel=3,
            )
    return target, weight


def take_deprecated_y_pred(y_proba: Any, y_pred: Any) -> Any:
    if isinstance(y_pred, str) and y_pred == "deprecated":
        return y_proba
    if y_proba is not None:
        raise ValueError(
            "Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, use `y_proba`."
        )
    warnings.warn(
        "`y_pred` was renamed to `y_proba` in version 1.9 and will be removed in 1.11. "
        "Use `y_proba` instead.",
        FutureWarning,
        stacklevel=3,
    )
    return y_pred


# ---------------------------------------------------------------------------------------------
# metrics


def top_k_accuracy_score(
    y_true: Any,
    y_score: Any,
    *,
    k: int = 2,
    normalize: bool = True,
    sample_weight: Any = None,
    labels: Any = None,
) -> float:
    """Fraction (or weighted count) of samples whose true class is among the k top scores.

    Multiclass ``y_score`` has one column per class in sorted label order; binary ``y_score`` is
    1-D (score of the greater label). Tied scores rank the higher class index first.

    With 1-D binary scores and ``k=1`` the greater label is predicted where the score is above a
    cut (0.5 when every score lies in [0, 1], else 0) and the share of right predictions is
    returned; any ``k >= 2`` counts every sample.

    Same as `sklearn.metrics.top_k_accuracy_score`; differences: none in results for ordinary
    input; faster (each true class's score compared with the others in one pass, no sort); a
    negative ``sample_weight`` raises ValueError (scikit-learn accepts it); an invalid ``k`` raises
    TypeError or ValueError (scikit-learn: its InvalidParameterError); clfeval's own error
    messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        One score column per class in sorted label order (probabilities or any scores where higher
        means more likely); for binary ``y_true`` the 1-D score of the greater label.
    k : int, default=2
        How many of the top-scored classes may contain the true class (>= 1). A ``k`` of at least
        the number of classes gives 1 with an UndefinedMetricWarning.
    normalize : bool, default=True
        True returns the share of hits; False their number (their total weight with
        ``sample_weight``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    labels : array-like of shape (n_classes,), default=None
        All classes, sorted, one per column of ``y_score``; needed when ``y_true`` lacks some of
        them. None: the labels of ``y_true``.

    Returns
    -------
    float
        Share (or weighted count) of samples whose true class is among their ``k`` top scores.

    See Also
    --------
    accuracy_score : The top-1 share, from predicted labels.

    Examples
    --------
    >>> top_k_accuracy_score([0, 1, 2, 2], [[.5, .2, .2], [.3, .4, .2], [.2, .4, .3], [.7, .2, .1]])
    0.75
    """
    if isinstance(k, (float, np.floating)) or not isinstance(k, numbers.Integral):
        raise TypeError(f"k must be an integer >= 1, got {k!r}.")
    if k < 1:
        raise ValueError(f"k must be an integer >= 1, got {k!r}.")
    k = int(k)
    normalize = _check_flag(normalize, "normalize")
    yt = read_labels_1d(y_true)
    scores = read_scores(y_score, "y_score")
    n = check_consistent_length(y_true=yt, y_score=scores)
    weight = check_sample_weight(sample_weight, n)

    kind, classes, codes = classes_and_codes(yt, labels, strict_order=True)
    multiclass = kind == "multiclass" or classes.size > 2
    if multiclass and scores.ndim != 2:
        raise ValueError(
            f"y_true has {classes.size} classes, so y_score must have shape "
            f"(n_samples, {classes.size}) with one column per class; got shape {scores.shape}."
        )
    if not multiclass and scores.ndim == 2:
        raise ValueError(
            f"y_true is binary while y_score has {scores.shape[1]} columns. For a binary "
            "problem pass the 1-D score of the greater label (e.g. y_score[:, 1]); if y_true "
            "does not contain all the classes, pass them through labels."
        )
    n_columns = scores.shape[1] if scores.ndim == 2 else 2
    if classes.size != n_columns:
        source = "y_true" if labels is None else "labels"
        raise ValueError(
            f"Number of classes in {source} ({classes.size}) is not equal to the number of "
            f"classes in y_score ({n_columns}). Pass the list of all classes through labels."
        )
    if k >= n_columns:
        warnings.warn(
            f"'k' ({k}) greater than or equal to 'n_classes' ({n_columns}) will result in a "
            "perfect score and is therefore meaningless.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    threshold = 0.5
    if scores.ndim == 1 and not (scores.min() >= 0 and scores.max() <= 1):
        threshold = 0.0
    hits = TopKHits.from_encoded(codes, scores, k, weight, threshold=threshold)
    return hits.mean() if normalize else float(hits.total)


def log_loss(
    y_true: Any,
    y_proba: Any = None,
    *,
    normalize: bool = True,
    sample_weight: Any = None,
    labels: Any = None,
    y_pred: Any = "deprecated",
) -> float:
    """Mean (or total) negative log-likelihood of the true classes (natural log).

    ``y_proba`` is ``(n_samples, n_classes)`` in sorted label order, or 1-D (probability of
    the greater label). Probabilities are clipped to ``[eps, 1 - eps]`` for their dtype.
    A 0/1 indicator ``y_true`` (multilabel) sums ``-log p`` over the labels marked 1.

    Same as `sklearn.metrics.log_loss`; differences: none in results for float64 input (float
    weights: up to rounding in the last bits); faster (one pass that sums the clipped
    log-probabilities of the true classes); float32 probabilities are summed in float64
    (scikit-learn works in float32: results differ near the eighth digit); a negative
    ``sample_weight`` raises ValueError (scikit-learn accepts it); clfeval's own error and warning
    messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True class labels, or a 0/1 indicator matrix.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes), default=None
        Predicted probabilities: one column per class in sorted label order (rows that do not
        sum to 1 give a UserWarning), or for two classes the 1-D probability of the greater label.
        Values must lie in [0, 1].
    normalize : bool, default=True
        True returns the mean loss per sample (weighted mean with ``sample_weight``); False the
        total.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    labels : array-like of shape (n_classes,), default=None
        All classes, one per column of ``y_proba``; needed when ``y_true`` lacks some of them (for
        instance when it holds a single class). Columns are read in sorted label order whatever
        the order given (a UserWarning says so when it is not sorted). None: the labels of
        ``y_true``.
    y_pred : array-like, default="deprecated"
        Former name of ``y_proba``; passing it gives a FutureWarning.

    Returns
    -------
    float
        The mean (or total) negative log-likelihood, >= 0; 0 is perfect.

    See Also
    --------
    brier_score_loss : The squared-error counterpart.
    d2_log_loss_score : This loss relative to that of the class proportions.

    Examples
    --------
    >>> round(log_loss([0, 1, 1], [0.1, 0.9, 0.6]), 6)
    0.240516
    """
    y_proba = take_deprecated_y_pred(y_proba, y_pred)
    normalize = _check_flag(normalize, "normalize")
    proba = read_scores(y_proba, "y_proba")
    target, weight = probability_targets(y_true, proba, labels, sample_weight)
    stat = LogLossSum.from_encoded(target, proba, weight)
    return stat.mean() if normalize else float(stat.total)


def brier_score_loss(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    labels: Any = None,
    scale_by_half: bool | str = "auto",
) -> float:
    """Mean squared difference between predicted probabilities and the one-hot truth.

    1-D ``y_proba`` is the probability of ``pos_label`` (binary); 2-D has one column per class
    in sorted label order. ``scale_by_half="auto"`` halves the score for two classes only.

    Same as `sklearn.metrics.brier_score_loss`; differences: none in results for float64 input
    (float weights: up to rounding in the last bits); faster (one pass that sums the squared
    differences); float32 probabilities are summed in float64 (scikit-learn works in float32:
    results differ near the eighth digit); a negative ``sample_weight`` raises ValueError
    (scikit-learn accepts it); clfeval's own error and warning messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities in [0, 1]: 1-D, the probability of ``pos_label`` (binary
        ``y_true``); or one column per class in sorted label order.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    pos_label : int, float, bool or str, default=None
        The class whose probability a 1-D ``y_proba`` holds. None: 1 for labels in {0, 1} or
        {-1, 1}, else the greater label (text labels need it given).
    labels : array-like of shape (n_classes,), default=None
        With 2-D ``y_proba``: all classes, one per column, needed when ``y_true`` lacks some of
        them; columns are read in sorted label order. None: the labels of ``y_true``.
    scale_by_half : bool or "auto", default="auto"
        True halves the sum over classes of the squared differences, so the score lies in [0, 1];
        False keeps it in [0, 2]; "auto" halves for 1-D or two-column ``y_proba`` only.

    Returns
    -------
    float
        The weighted mean over samples of the (possibly halved) squared distance between the
        predicted probabilities and the one-hot truth; 0 is perfect.

    See Also
    --------
    log_loss : The logarithmic counterpart.
    d2_brier_score : This score relative to that of the class proportions.

    Examples
    --------
    >>> round(brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 12)
    0.0375
    """
    if not (isinstance(scale_by_half, str) and scale_by_half == "auto"):
        if not isinstance(scale_by_half, (bool, np.bool_)):
            raise TypeError(f"scale_by_half must be True, False or 'auto', got {scale_by_half!r}.")
    if pos_label is not None and not isinstance(pos_label, (str, numbers.Real, np.bool_)):
        raise TypeError(
            f"pos_label must be a single label (number, string or bool), got {pos_label!r}."
        )
    proba = read_scores(y_proba, "y_proba")
    if proba.ndim == 2:
        target, weight = probability_targets(y_true, proba, labels, sample_weight)
    else:
        target, weight = binary_target(y_true, proba, pos_label, sample_weight)
    return BrierSum.from_encoded(target, proba, weight).score(scale_by_half)


def binary_target(
    y_true: Any, proba: np.ndarray, pos_label: Any, sample_weight: Any
) -> tuple[np.ndarray, np.ndarray | None]:
    """0/1 codes (1 = ``pos_label``) for binary Brier, with sklearn's default positive label."""
    yt = read_labels_1d(y_true)
    n = check_consistent_length(y_true=yt, y_proba=proba)
    weight = check_sample_weight(sample_weight, n, allow_all_zero=False)
    kind, classes = target_kind(yt, "y_true")
    if kind != "binary":
        raise ValueError(
            f"y_proba is 1-D, so y_true must be binary, but it is {kind}"
            + (f" with classes {classes.tolist()}" if kind == "multiclass" else "")
            + ". For several classes pass y_proba with shape (n_samples, n_classes)."
        )
    check_unit_interval(proba, "y_proba")
    if pos_label is None:
        if classes.dtype.kind in "US" or isinstance(classes.tolist()[0], str):
            raise ValueError(
                f"y_true takes values {classes.tolist()} and pos_label is not specified: "
                "pass pos_label explicitly, or make y_true take values in {0, 1} or {-1, 1}."
            )
        pos_label = 1 if has_conventional_labels(classes) else classes[-1]
    union_labels(classes, np.asarray([pos_label]), names=("y_true", "pos_label"))
    pos_code = encode(np.asarray([pos_label]), classes)[0]
    if pos_code < 0 and classes.size == 2:
        raise ValueError(
            f"pos_label={pos_label!r} is not one of the classes in y_true {classes.tolist()}; "
            "pass one of them."
        )
    return (encode(yt, classes) == pos_code).view(np.uint8), weight
