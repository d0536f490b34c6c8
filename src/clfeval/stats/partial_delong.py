"""DeLong-type test of partial ROC areas: one model against chance, or two models on the same cases.

pROC compares partial AUCs by the bootstrap only (``roc.test(..., partial.auc=)``). Here each case
gets its component of the partial area (:mod:`clfeval.formulas.partial_placements`: the exact
first-order terms, DeLong's placements over [0, 1]); the two models' components are correlated
case by case, so, as in DeLong's test, var(A - B) = var A + var B - 2 cov(A, B) with each term
s10 / m + s01 / n from the positives' and the negatives' covariance matrices (m - 1, n - 1).

>>> y = [0, 0, 0, 1, 1, 1, 0, 1, 0, 1]
>>> a = [0.1, 0.3, 0.2, 0.8, 0.7, 0.4, 0.5, 0.9, 0.35, 0.6]
>>> b = [0.2, 0.1, 0.6, 0.5, 0.3, 0.9, 0.4, 0.8, 0.7, 0.65]
>>> r = delong_partial(y, a, b, fpr_range=(0, 0.4), standardized=False)
>>> round(r.extra["auc_a"], 4), round(r.extra["auc_b"], 4), round(r.pvalue, 4)
(0.36, 0.2, 0.2603)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from clfeval.formulas.curves import mcclish_standardized, partial_roc_area
from clfeval.formulas.partial_placements import partial_placement_values
from clfeval.inputs.labels import (
    as_1d,
    as_array,
    as_score_array,
    check_consistent_length,
    target_kind,
)
from clfeval.inputs.partial_ranges import partial_range
from clfeval.inputs.sklearn_pos_label import label_mask, sklearn_pos_label
from clfeval.stats._common import normal_pvalue
from clfeval.stats._result import TestResult, check_alternative

__all__ = ["delong_partial", "partial_components"]

_UNWEIGHTED = (
    "delong_partial, like delong, is defined for unweighted cases; sample_weight is not supported. For "
    "weighted cases, evaluate() with sample_weight= and read Evaluation.partial_auc() (weights as "
    "frequencies), or use clfeval.stats.paired_bootstrap_test."
)


def partial_components(is_pos: np.ndarray, score: np.ndarray, axis: str, lo: float, hi: float
                       ) -> tuple[float, np.ndarray]:
    """(raw partial area, each case's component): V10 for a positive, V01 for a negative, from one
    sort of the scores.

    >>> area, v = partial_components(np.array([False, True, True]), np.array([0.2, 0.2, 0.9]), "fpr", 0.0, 1.0)
    >>> area, v.tolist()  # DeLong's placements over [0, 1]
    (0.75, [0.75, 0.5, 1.0])
    """
    order = np.argsort(-score, kind="stable")
    s = score[order]
    new = np.empty(s.size, dtype=bool)
    new[0] = True
    np.not_equal(s[1:], s[:-1], out=new[1:])
    group = np.cumsum(new) - 1
    p = is_pos[order]
    pos = np.bincount(group, weights=p, minlength=group[-1] + 1)
    neg = np.bincount(group, weights=~p, minlength=group[-1] + 1)
    _, v10, v01 = partial_placement_values(neg, pos, lo, hi, axis)
    fpr = np.concatenate(([0.0], np.cumsum(neg) / neg.sum()))
    tpr = np.concatenate(([0.0], np.cumsum(pos) / pos.sum()))
    area = partial_roc_area(fpr, tpr, lo, hi, axis)[0]
    out = np.empty(s.size)
    out[order] = np.where(p, v10[group], v01[group])
    return float(area), out


def _binary(y_true: Any, pos_label: Any) -> np.ndarray:
    y = as_1d(as_array(y_true, "y_true"), "delong_partial needs y_true of shape (n_samples,)")
    kind, classes = target_kind(y, "y_true")
    if kind not in ("binary", "multiclass") or (kind == "multiclass" and pos_label is None) or classes.size < 2:
        raise ValueError(f"delong_partial needs binary class labels in y_true (both classes present); got {kind} "
                         f"targets with classes {classes.tolist()} (multi-class: pass pos_label=).")
    is_pos = label_mask(y, sklearn_pos_label(pos_label, classes, "delong_partial"))
    m = int(np.count_nonzero(is_pos))
    if m < 2 or is_pos.size - m < 2:
        raise ValueError(f"delong_partial needs at least 2 positive and 2 negative cases; got {m} positive and "
                         f"{is_pos.size - m} negative.")
    return is_pos


def _score(y_score: Any, name: str, n: int) -> np.ndarray:
    s = as_score_array(y_score, name)
    if s.ndim == 2 and s.shape[1] == 1:
        s = s[:, 0]
    if s.ndim != 1:
        raise ValueError(f"delong_partial needs one score per case ({name} of shape (n_samples,)), got shape "
                         f"{s.shape}; for class probabilities pass the positive class's column.")
    check_consistent_length(y_true=np.empty(n), **{name: s})
    return np.ascontiguousarray(s, dtype=np.float64)


def delong_partial(
    y_true: Any, y_score_a: Any, y_score_b: Any = None, *, fpr_range: Any = None, tpr_range: Any = None,
    standardized: bool = True, pos_label: Any = None, alternative: str = "two-sided", sample_weight: Any = None,
) -> TestResult:
    """DeLong-type test of partial ROC areas over ``fpr_range=(a, b)`` or ``tpr_range=(a, b)``.

    * Two scores of the same cases: z = (A - B) / se(A - B), the correlated components' variance
      (the partial-area analogue of pROC's "DeLong's test for two correlated ROC curves").
    * One score: the test of A = the chance area (standardised: 0.5) with A's own variance.

    The statistic and p-value do not depend on ``standardized`` (McClish's map is a line, the same
    for both models); the estimate, its interval and ``extra`` do. Unweighted only, as :func:`delong`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (or multi-class labels with ``pos_label``).
    y_score_a : array-like of shape (n_samples,)
        Positive-class scores of model A.
    y_score_b : array-like of shape (n_samples,), optional
        Positive-class scores of model B on the same cases; None tests A against chance.
    fpr_range, tpr_range : tuple of two floats
        ``(a, b)`` with 0 <= a < b <= 1 on one axis; give exactly one.
    standardized : bool, default=True
        Report McClish-standardised areas (0.5 chance, 1 perfect) instead of raw ones.
    pos_label : int, str or bool, optional
        The positive class (scikit-learn's rule, as :func:`delong`).
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        "greater": A has the larger partial area (or, with one score, A is above chance).
    sample_weight : None
        Not supported; anything but None raises a ValueError.

    Returns
    -------
    TestResult
        The z statistic and normal p-value; ``estimate`` A - B (one score: A) with its interval;
        ``extra``: ``auc_a``, ``auc_b`` (the partial areas, standardised or not), ``se``.

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas under
       two or more correlated receiver operating characteristic curves: a nonparametric approach.
       Biometrics, 44(3), 837-845.
    .. [2] McClish, D. K. (1989). Analyzing a portion of the ROC curve. Medical Decision Making, 9(3),
       190-195.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 1, 1, 0, 1, 0, 1]
    >>> a = [0.1, 0.3, 0.2, 0.8, 0.7, 0.4, 0.5, 0.9, 0.35, 0.6]
    >>> r = delong_partial(y, a, tpr_range=(0.5, 1.0))
    >>> round(r.estimate, 4), round(r.statistic, 4), r.method
    (0.9467, 5.922, 'DeLong-type test of a partial ROC area (TPR in [0.5, 1]) against chance')
    """
    if sample_weight is not None:
        raise ValueError(_UNWEIGHTED)
    check_alternative(alternative)
    axis, lo, hi = partial_range(fpr_range, tpr_range)
    if not isinstance(standardized, bool):
        raise ValueError(f"standardized must be True or False, got {standardized!r}.")
    is_pos = _binary(y_true, pos_label)
    m, n = int(np.count_nonzero(is_pos)), int(is_pos.size - np.count_nonzero(is_pos))
    scores = [_score(y_score_a, "y_score_a", is_pos.size)]
    if y_score_b is not None:
        scores.append(_score(y_score_b, "y_score_b", is_pos.size))
    areas, comps = zip(*(partial_components(is_pos, s, axis, lo, hi) for s in scores))
    v = np.vstack(comps)
    cov = np.atleast_2d(np.cov(v[:, is_pos])) / m + np.atleast_2d(np.cov(v[:, ~is_pos])) / n
    _, chance, perfect = partial_roc_area(np.array([0.0, 1.0]), np.array([0.0, 1.0]), lo, hi, axis)
    scale = 0.5 / (perfect - chance) if standardized else 1.0
    where = f"{axis.upper()} in [{lo:g}, {hi:g}]"
    if len(scores) == 2:
        diff = (areas[0] - areas[1]) * scale
        se = math.sqrt(max(float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]), 0.0)) * scale
        method, name, bounds = f"DeLong-type test of two correlated partial ROC areas ({where})", "partial AUC difference (A - B)", (-1.0, 1.0)
    else:
        diff = (areas[0] - chance) * scale
        se = math.sqrt(max(float(cov[0, 0]), 0.0)) * scale
        method, name, bounds = f"DeLong-type test of a partial ROC area ({where}) against chance", "partial AUC", (0.0, 1.0)
    notes: list[str] = []
    if se > 0:
        z = diff / se
        p = normal_pvalue(z, alternative)
    elif diff == 0:
        z, p = 0.0, 1.0
        notes.append("the difference is 0 and its variance 0 (identical or constant components): p = 1.")
    else:
        z = math.copysign(math.inf, diff)
        p = normal_pvalue(z, alternative)
        notes.append("the variance is 0 but the difference is not: the statistic is infinite, a degenerate result.")

    def std(a: float) -> float:
        return mcclish_standardized(a, chance, perfect, below_chance=True) if standardized else a

    estimate = diff if len(scores) == 2 else std(areas[0])
    offset = estimate - diff

    def interval(level: float) -> tuple[float, float]:
        from clfeval.uncertainty.checks import normal_quantile

        q = float(normal_quantile(level if alternative != "two-sided" else 0.5 + level / 2))
        low, high = diff - q * se + offset, diff + q * se + offset
        low = bounds[0] if alternative == "less" else low
        high = bounds[1] if alternative == "greater" else high
        return max(bounds[0], low), min(bounds[1], high)

    extra: dict[str, Any] = {"auc_a": std(areas[0]), "se": se}
    if len(scores) == 2:
        extra["auc_b"] = std(areas[1])
    return TestResult(statistic=float(z), pvalue=float(p), method=method, alternative=alternative,
                      estimate=float(estimate), estimate_name=name + (", McClish-standardised" if standardized else ""),
                      interval=interval, interval_method="DeLong-type (normal)", notes=tuple(notes), extra=extra,
                      standard_error=se)
