"""Likelihood ratios of a binary classifier, scikit-learn's drop-in :func:`class_likelihood_ratios`:
LR+ = sensitivity / (1 - specificity), LR- = (1 - sensitivity) / specificity, each correctly rounded
for exact counts, with scikit-learn's warnings and ``replace_undefined_by`` when one is undefined.

>>> class_likelihood_ratios([0, 0, 1, 1], [0, 1, 1, 1])
(2.0, 0.0)
"""

from __future__ import annotations

import warnings
from numbers import Real
from typing import Any

import numpy as np

from clfeval.formulas import measures
from clfeval.statistics.counts import build_counts
from clfeval.formulas.exact_sums import exact_div, is_big
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.metrics.label_tables import labelled_matrix

__all__ = ["class_likelihood_ratios"]


def class_likelihood_ratios(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    replace_undefined_by: Any = np.nan,
) -> tuple[float, float]:
    """Positive and negative likelihood ratios (LR+, LR-) of a binary classifier.

    >>> class_likelihood_ratios([0, 1, 0, 1, 0], [1, 1, 0, 0, 0])
    (1.5, 0.75)
    """
    kind, counts, true_labels, _ = build_counts(y_true, y_pred, sample_weight)
    if kind != "binary":
        raise ValueError(
            "class_likelihood_ratios only supports binary classification problems, got targets "
            f"of type: {kind}"
        )
    lr_pos_fill, lr_neg_fill = _check_lr_replacement(replace_undefined_by)
    cm = labelled_matrix(counts, true_labels, labels, exact=True)
    if cm.shape != (2, 2):
        raise ValueError(f"class_likelihood_ratios needs exactly 2 labels, got {cm.shape[0]}.")
    if is_big(cm):  # exact counts: each ratio correctly rounded
        tn, fp, fn, tp = (int(x) for x in cm.ravel().tolist())
        pos_, neg_ = tp + fn, tn + fp
        lr_pos = exact_div(tp * neg_, fp * pos_) if pos_ else float("nan")
        lr_neg = exact_div(fn * neg_, tn * pos_) if pos_ else float("nan")
    else:
        tn, fp, fn, tp = (float(x) for x in cm.ravel())
        lr_pos, lr_neg = (float(x) for x in measures.likelihood_ratios(tp, fp, fn, tn))
    if tp + fn == 0:
        warnings.warn(
            "No samples of the positive class are present in `y_true`. "
            "`positive_likelihood_ratio` and `negative_likelihood_ratio` are both set to "
            "`np.nan`. Use the `replace_undefined_by` param to control this behavior.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    if fp == 0:
        start = (
            "No samples were predicted for the positive class and `positive_likelihood_ratio` is "
            if tp == 0
            else "`positive_likelihood_ratio` is ill-defined and "
        )
        warnings.warn(start + "set to `np.nan`. Use the `replace_undefined_by` param to control "
                      "this behavior.", UndefinedMetricWarning, stacklevel=2)
        lr_pos = lr_pos_fill
    if tn == 0:
        warnings.warn(
            "`negative_likelihood_ratio` is ill-defined and set to `np.nan`. Use the "
            "`replace_undefined_by` param to control this behavior.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        lr_neg = lr_neg_fill
    return float(lr_pos), float(lr_neg)


def _check_lr_replacement(replace: Any) -> tuple[float, float]:
    if isinstance(replace, dict):
        if "LR+" not in replace or "LR-" not in replace:
            raise ValueError("replace_undefined_by must be {'LR+': value, 'LR-': value}.")
        pos, neg = replace["LR+"], replace["LR-"]
        ok_pos = isinstance(pos, Real) and (np.isnan(pos) or pos >= 1.0)
        ok_neg = isinstance(neg, Real) and (np.isnan(neg) or 0.0 <= neg <= 1.0)
        if not (ok_pos and ok_neg):
            raise ValueError(
                "The dictionary passed as `replace_undefined_by` needs LR+ in [1, inf] or nan and "
                f"LR- in [0, 1] or nan; got {replace}."
            )
        return float(pos), float(neg)
    if isinstance(replace, Real) and replace == 1.0:
        return 1.0, 1.0
    if isinstance(replace, Real) and np.isnan(replace):
        return np.nan, np.nan
    raise ValueError(f"replace_undefined_by must be np.nan, 1.0 or a dict, got {replace!r}.")
