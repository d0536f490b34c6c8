"""Hand & Till's multi-class AUC (M): its interval, and a paired test of two models on the same cases.

M (Hand & Till 2001; scikit-learn's ``roc_auc_score(multi_class="ovo", average="macro")``) is the
mean over pairs of classes of the two one-vs-one AUCs of the pair; ``average="weighted"`` weighs
each pair by its share of the cases. Each pairwise AUC is a two-sample U statistic; each case's
influence on M is the weighted sum of its influences on the pairs of its class
(:mod:`clfeval.uncertainty.hand_till`), the same method as the one-vs-rest averages of
:func:`clfeval.stats.delong_average_ci`. The variance is the sum of squared influences; two
models on the same cases are compared through the per-case difference of their influences, so
their correlation is kept.

>>> y = [0, 1, 2, 0, 1, 2, 0, 1, 2, 1]
>>> a = np.eye(3)[[0, 1, 2, 0, 1, 2, 1, 1, 2, 1]] * 0.6 + 0.2
>>> b = np.eye(3)[[0, 1, 2, 0, 2, 2, 1, 1, 0, 1]] * 0.6 + 0.2
>>> r = delong_ovo(y, a, b)
>>> round(r.extra["auc_a"], 4), round(r.extra["auc_b"], 4), round(r.pvalue, 4)
(0.9167, 0.7708, 0.0935)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from clfeval.inputs.labels import as_1d, as_array, as_score_array, encode, unique_sorted
from clfeval.stats._common import normal_pvalue
from clfeval.stats._result import (
    ConfidenceInterval,
    TestResult,
    check_alternative,
    check_level,
)

__all__ = ["delong_ovo", "delong_ovo_ci"]

_METHOD = "influence functions (one-vs-one U statistics)"


def _ovo_cases(y_true: Any, scores: list[tuple[str, Any]], labels: Any, average: str, func: str
               ) -> tuple[np.ndarray, list[np.ndarray], int]:
    """(class codes, (n, k) score arrays, k), checked: every class present has 2 or more cases."""
    if average not in ("macro", "weighted"):
        raise ValueError(f"{func}: average must be 'macro' or 'weighted', got {average!r}.")
    y = as_1d(as_array(y_true, "y_true"), f"{func} needs y_true of shape (n_samples,)")
    if y.size == 0:
        raise ValueError(f"{func} got empty input (0 cases).")
    classes = unique_sorted(y, "y_true") if labels is None else np.asarray(labels).reshape(-1)
    codes = encode(y, classes)
    if codes.min() < 0:
        bad = int(np.flatnonzero(codes < 0)[0])
        raise ValueError(f"{func}: y_true[{bad}] = {y[bad].item() if hasattr(y[bad], 'item') else y[bad]!r} is not "
                         f"in labels {classes.tolist()}; add it to labels (with a score column) or drop those cases.")
    k = classes.size
    arrays = []
    for name, s in scores:
        arr = as_score_array(s, name)
        if arr.ndim != 2 or arr.shape != (y.size, k):
            raise ValueError(f"{func}: {name} must have shape (n_samples, n_classes) = ({y.size}, {k}), one column "
                             f"per class in the order {classes.tolist()}; got shape {arr.shape}.")
        arrays.append(np.ascontiguousarray(arr, dtype=np.float64))
    counts = np.bincount(codes, minlength=k)
    present = np.flatnonzero(counts)
    if present.size < 2:
        raise ValueError(f"{func}: y_true holds a single class ({classes[present].tolist()}); one-vs-one AUCs "
                         "need cases of at least two classes.")
    few = present[counts[present] < 2]
    if few.size:
        raise ValueError(f"{func}: class {classes[few[0]].item() if hasattr(classes[few[0]], 'item') else classes[few[0]]!r} "
                         f"has {int(counts[few[0]])} case; the variance needs at least 2 cases of every class "
                         "present (drop the class's column and label, or gather more cases).")
    return codes, arrays, k


def delong_ovo_ci(y_true: Any, y_score: Any, *, labels: Any = None, average: str = "macro",
                  level: float = 0.95) -> ConfidenceInterval:
    """Confidence interval of Hand & Till's M (or the pair-weighted one-vs-one AUC).

    The standard error is the root of the sum of each case's squared influence on M (see the
    module's text); the interval is built on the logit scale with the t quantile of (fewest
    cases of a class) - 1 degrees of freedom, as an Evaluation's averaged AUCs are; in
    ``benchmarks/ovo_coverage.py`` it held 93-97% in every design with 20 or more expected cases
    per class (3 to 8 classes, 60 to 3000 cases, random class totals), and 98% (conservative) with
    a class of about 6 cases. Classes absent from ``y_true`` are left out, as
    scikit-learn leaves them out of M. Unweighted cases.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_score : array-like of shape (n_samples, n_classes)
        One score column per class, in the order of ``labels``; higher means more likely.
    labels : array-like of shape (n_classes,), optional
        The classes of the score columns. Default None: the sorted classes of ``y_true``.
    average : {"macro", "weighted"}, default "macro"
        Hand & Till's M (plain mean over pairs), or the mean weighted by each pair's share of
        the cases (scikit-learn's ``average="weighted"``).
    level : float, default 0.95
        Confidence level of the interval, between 0 and 1.

    Returns
    -------
    ConfidenceInterval
        M as ``estimate``, its standard error, and the limits.

    References
    ----------
    .. [1] Hand, D. J. and Till, R. J. (2001). A simple generalisation of the area under the ROC
       curve for multiple class classification problems. Machine Learning, 45(2), 171-186.
    .. [2] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas under
       two or more correlated receiver operating characteristic curves: a nonparametric approach.
       Biometrics, 44(3), 837-845.

    Examples
    --------
    >>> y = [0, 1, 2, 0, 1, 2, 0, 1, 2, 1]
    >>> s = np.eye(3)[[0, 1, 2, 0, 2, 2, 1, 1, 0, 1]] * 0.6 + 0.2
    >>> ci = delong_ovo_ci(y, s)
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.7708, 0.186, 0.9802)
    """
    from clfeval.uncertainty.hand_till import ovo_influences, ovo_interval

    level = check_level(level)
    codes, (s,), k = _ovo_cases(y_true, [("y_score", y_score)], labels, average, "delong_ovo_ci")
    fit = ovo_influences(codes, s, k, averages=(average,))
    iv = ovo_interval(fit, average, level)
    return iv


def delong_ovo(y_true: Any, y_score_a: Any, y_score_b: Any, *, labels: Any = None, average: str = "macro",
               alternative: str = "two-sided") -> TestResult:
    """Paired test of two models' Hand & Till M (or weighted one-vs-one AUC) on the same cases.

    ``z = (M_a - M_b) / se``, se from the per-case difference of the two models' influences
    (:func:`delong_ovo_ci`'s method), normal p-value; the estimate's interval is
    ``diff +/- z_q se`` (one-sided for one-sided alternatives), clipped to [-1, 1]. Equal M with
    zero variance (identical scores): statistic 0, p = 1, with a note. Unweighted cases.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels, shared by both models.
    y_score_a : array-like of shape (n_samples, n_classes)
        Scores of model A, one column per class in the order of ``labels``.
    y_score_b : array-like of shape (n_samples, n_classes)
        Scores of model B on the same cases, columns in the same order.
    labels : array-like of shape (n_classes,), optional
        The classes of the score columns. Default None: the sorted classes of ``y_true``.
    average : {"macro", "weighted"}, default "macro"
        Hand & Till's M, or the pair-weighted variant.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means model A has the larger M.

    Returns
    -------
    TestResult
        z statistic and p-value, the difference M_a - M_b as ``estimate`` with its interval
        (``confidence_interval(level)``), and ``extra`` holding ``auc_a``, ``auc_b`` and ``se``.

    References
    ----------
    .. [1] Hand, D. J. and Till, R. J. (2001). A simple generalisation of the area under the ROC
       curve for multiple class classification problems. Machine Learning, 45(2), 171-186.
    .. [2] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas under
       two or more correlated receiver operating characteristic curves: a nonparametric approach.
       Biometrics, 44(3), 837-845.

    Examples
    --------
    >>> y = [0, 1, 2, 0, 1, 2, 0, 1, 2, 1]
    >>> a = np.eye(3)[[0, 1, 2, 0, 1, 2, 1, 1, 2, 1]] * 0.6 + 0.2
    >>> b = np.eye(3)[[0, 1, 2, 0, 2, 2, 1, 1, 0, 1]] * 0.6 + 0.2
    >>> r = delong_ovo(y, a, b)
    >>> round(r.estimate, 4), round(r.statistic, 4)
    (0.1458, 1.6773)
    >>> lo, hi = r.confidence_interval(0.95)
    >>> round(lo, 4), round(hi, 4)
    (-0.0246, 0.3162)
    >>> delong_ovo(y, a, a).pvalue
    1.0
    """
    from clfeval.uncertainty.checks import normal_quantile
    from clfeval.uncertainty.hand_till import ovo_influences
    from clfeval.uncertainty.influence import influence_variance

    check_alternative(alternative)
    codes, (sa, sb), k = _ovo_cases(y_true, [("y_score_a", y_score_a), ("y_score_b", y_score_b)], labels,
                                    average, "delong_ovo")
    fit_a = ovo_influences(codes, sa, k, averages=(average,))
    fit_b = ovo_influences(codes, sb, k, averages=(average,))
    est_a, est_b = fit_a.estimates[average], fit_b.estimates[average]
    diff = est_a - est_b
    se = influence_variance(fit_a.influence[average] - fit_b.influence[average]) ** 0.5
    notes: list[str] = []
    if se > 0:
        statistic = diff / se
        pvalue = float(normal_pvalue(statistic, alternative))
    elif diff == 0:
        statistic, pvalue = 0.0, 1.0
        notes.append("the two models' M are equal and the variance of their difference is 0 (identical "
                     "rankings): no difference to test, statistic 0, p = 1.")
    else:
        statistic = math.copysign(math.inf, diff)
        pvalue = float(normal_pvalue(statistic, alternative))
        notes.append("the variance of the difference is 0 but the two M differ (e.g. both rank every pair of "
                     "classes perfectly or constantly): the statistic is infinite, a degenerate result.")

    def interval(level: float) -> tuple[float, float]:
        level = check_level(level)
        q = float(normal_quantile(level if alternative != "two-sided" else 0.5 + level / 2))
        low, high = diff - q * se, diff + q * se
        if alternative == "less":
            low = -1.0
        elif alternative == "greater":
            high = 1.0
        return max(-1.0, low), min(1.0, high)

    return TestResult(statistic=float(statistic), pvalue=pvalue,
                      method=f"paired test of two models' {'Hand-Till M' if average == 'macro' else 'weighted one-vs-one AUC'}"
                      f" ({_METHOD})", alternative=alternative, estimate=float(diff),
                      estimate_name="M difference (A - B)", interval=interval, interval_method=f"normal, {_METHOD}",
                      notes=tuple(notes), extra={"auc_a": est_a, "auc_b": est_b, "se": se}, standard_error=se)
