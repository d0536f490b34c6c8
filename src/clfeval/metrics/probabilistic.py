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
