"""DeLong's test for ROC AUCs: one AUC's interval, two correlated AUCs, two independent AUCs.

DeLong, DeLong & Clarke-Pearson (1988) write the AUC as the mean of *placement values*: for a
positive case, the share of negatives it outscores (ties half), ``V10``; for a negative case,
the share of positives that outscore it, ``V01``. The variance of the AUC is
``var(V10) / m + var(V01) / n`` (m positives, n negatives); for two scores on the same cases
the covariance of their placements gives the variance of the difference.

Placements come from one sort per score column (Sun & Xu 2014): with midranks ``Z`` of the
pooled scores, ``X`` of the positives alone and ``Y`` of the negatives alone,
``V10 = (Z - X) / n`` and ``V01 = 1 - (Z - Y) / m``. Within the pooled sort, ``Z - X`` of a
positive is the number of negatives below its score plus half those tied with it, so both
come from per-tie-group counts: O(n log n) in all, no pairwise loops.

Unweighted only: DeLong's variance is defined for unweighted cases. Results match pROC's
``roc.test(..., method="delong")`` and ``ci.auc`` (pROC reads the scores in the direction
``controls < cases``: the positive class scores higher, as here).

>>> y = [0, 0, 0, 1, 1, 1, 0, 1]
>>> a = [0.1, 0.3, 0.2, 0.8, 0.7, 0.4, 0.5, 0.9]
>>> b = [0.2, 0.1, 0.6, 0.5, 0.3, 0.9, 0.4, 0.8]
>>> r = delong(y, a, b)
>>> round(r.extra["auc_a"], 4), round(r.extra["auc_b"], 4), round(r.pvalue, 4)
(0.9375, 0.8125, 0.5403)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from clfeval.stats._common import normal_pvalue, t_pvalue
from clfeval.formulas.curves import placement_values
from clfeval.inputs.labels import as_1d, as_array, as_score_array, check_consistent_length, target_kind
from clfeval.inputs.sklearn_pos_label import label_mask, sklearn_pos_label
from clfeval.stats._result import ConfidenceInterval, TestResult, check_alternative, check_level

__all__ = ["delong", "delong_auc_ci", "delong_placements"]

_UNWEIGHTED = (
    "DeLong's test and interval are defined for unweighted data (the placement values count "
    "cases); sample_weight is not supported. Use a bootstrap (clfeval.stats.paired_bootstrap_test "
    "or clfeval.uncertainty) for weighted data."
)


# ------------------------------------------------------------------------------------------
# placements
# ------------------------------------------------------------------------------------------
def delong_placements(is_pos: np.ndarray, score: np.ndarray) -> tuple[float, np.ndarray]:
    """(AUC, placement of every case): ``V10`` for positives, ``V01`` for negatives.

    ``is_pos`` is a boolean array, ``score`` finite floats of the same length, with at least
    one positive and one negative. One sort; ties count one half.

    >>> auc, v = delong_placements(np.array([False, True, True]), np.array([0.2, 0.2, 0.9]))
    >>> auc, v.tolist()
    (0.75, [0.75, 0.5, 1.0])
    """
    n_total = score.size
    m = int(np.count_nonzero(is_pos))
    order = np.argsort(score)  # ascending; tie order does not matter (groups are used)
    s = score[order]
    p = is_pos[order]
    new_group = np.empty(n_total, dtype=bool)
    new_group[0] = True
    np.not_equal(s[1:], s[:-1], out=new_group[1:])
    group = np.cumsum(new_group) - 1
    n_groups = int(group[-1]) + 1
    size = np.diff(np.append(np.flatnonzero(new_group), n_total))
    pos_in = np.bincount(group[p], minlength=n_groups)
    neg_in = size - pos_in
    # V10 of a positive: negatives strictly below its score, plus half those tied with it
    # (= pooled midrank minus midrank among positives); V01 of a negative: positives strictly
    # above, plus half the tied ones (= 1 - (pooled midrank - midrank among negatives) / m).
    # The groups ascend; the placement formula reads counts highest score first.
    v10, v01 = (v[::-1] for v in placement_values(neg_in[::-1], pos_in[::-1]))
    auc = float(np.dot(pos_in, v10) / m)
    # One gather from a 2G lookup table (negatives' V01, then positives' V10), one scatter back.
    lookup = np.concatenate([v01, v10])
    group += p * n_groups
    out = np.empty(n_total)
    out[order] = lookup[group]
    return auc, out


def _binary_cases(y_true: Any, pos_label: Any, func: str) -> tuple[np.ndarray, Any]:
    y = as_1d(as_array(y_true, "y_true"), f"{func} needs y_true of shape (n_samples,)")
    if y.size == 0:
        raise ValueError(f"{func} got empty input (0 cases).")
    kind, classes = target_kind(y, "y_true")
    if kind not in ("binary", "multiclass") or (kind == "multiclass" and pos_label is None):
        hint = f" ({classes.size} classes: pass pos_label= to pick the positive one)" if kind == "multiclass" else ""
        raise ValueError(f"{func} needs binary class labels in y_true; got {kind} targets{hint}.")
    if classes.size < 2:
        raise ValueError(
            f"{func}: y_true holds a single class ({classes.tolist()}); the ROC AUC and DeLong's "
            "variance need both positive and negative cases."
        )
    pos_label = sklearn_pos_label(pos_label, classes, func)
    is_pos = label_mask(y, pos_label)
    m = int(np.count_nonzero(is_pos))
    if m == 0:
        raise ValueError(f"{func}: pos_label={pos_label!r} does not occur in y_true (labels {classes.tolist()}).")
    n = y.size - m
    if m < 2 or n < 2:
        raise ValueError(
            f"{func}: DeLong's variance needs at least 2 positive and 2 negative cases; got {m} "
            f"positive and {n} negative."
        )
    return is_pos, pos_label


def _scores(y_score: Any, name: str, func: str) -> np.ndarray:
    s = as_score_array(y_score, name)
    if s.ndim == 2 and s.shape[1] == 1:
        s = s[:, 0]
    if s.ndim != 1:
        raise ValueError(
            f"{func} needs one score per case ({name} of shape (n_samples,)), got shape {s.shape}; "
            "for class probabilities pass the positive class's column."
        )
    return np.ascontiguousarray(s, dtype=np.float64)


def _variance_parts(is_pos: np.ndarray, placements: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(S10, S01): covariance matrices (ddof 1) of the placements over positives and negatives.

    ``placements`` has shape (r, n_cases) for r score columns.
    """
    pos = placements[:, is_pos]
    neg = placements[:, ~is_pos]
    return np.atleast_2d(np.cov(pos)), np.atleast_2d(np.cov(neg))


def _auc_se(is_pos: np.ndarray, v: np.ndarray) -> float:
    m = int(np.count_nonzero(is_pos))
    n = is_pos.size - m
    s10, s01 = _variance_parts(is_pos, v[None])
    return math.sqrt(max(float(s10[0, 0] / m + s01[0, 0] / n), 0.0))


# ------------------------------------------------------------------------------------------
# public API
# ------------------------------------------------------------------------------------------
def delong_auc_ci(
    y_true: Any, y_score: Any, *, level: float = 0.95, pos_label: Any = None, sample_weight: Any = None
) -> ConfidenceInterval:
    """Confidence interval of a ROC AUC by DeLong's variance (pROC's default ``ci.auc``).

    ``AUC +/- z * se``, clipped to [0, 1]. Scores all equal (or every placement equal): the
    variance is 0 and the interval collapses to the AUC, as in pROC. Needs at least two cases of
    each class.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (or multiclass labels with ``pos_label`` naming the positive class).
    y_score : array-like of shape (n_samples,)
        Scores of the positive class; higher means more likely positive.
    level : float, default 0.95
        Confidence level of the interval, between 0 and 1.
    pos_label : int, str or bool, optional
        The label of the positive class. Default None: 1, as in scikit-learn, which needs labels
        in {0, 1} or {-1, 1}.
    sample_weight : None
        Not supported (DeLong's variance counts unweighted cases); anything but None raises a
        ValueError that points to the bootstrap.

    Returns
    -------
    ConfidenceInterval
        The AUC as ``estimate``, its DeLong standard error and the limits, method "DeLong".

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas under
       two or more correlated receiver operating characteristic curves: a nonparametric approach.
       Biometrics, 44(3), 837-845.
    .. [2] Sun, X. and Xu, W. (2014). Fast implementation of DeLong's algorithm for comparing the
       areas under correlated receiver operating characteristic curves. IEEE Signal Processing
       Letters, 21(11), 1389-1393.

    Examples
    --------
    >>> ci = delong_auc_ci([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.8889, 0.5809, 1.0)
    """
    if sample_weight is not None:
        raise ValueError(_UNWEIGHTED)
    level = check_level(level)
    is_pos, _ = _binary_cases(y_true, pos_label, "delong_auc_ci")
    s = _scores(y_score, "y_score", "delong_auc_ci")
    check_consistent_length(y_true=is_pos, y_score=s)
    auc, v = delong_placements(is_pos, s)
    from clfeval.uncertainty.checks import z_quantile

    se = _auc_se(is_pos, v)
    half = z_quantile(level) * se
    return ConfidenceInterval(max(0.0, auc - half), min(1.0, auc + half), level, "DeLong", auc, se)


def _interval(estimate: float, se: float, alternative: str, bounds: tuple[float, float], df: float | None):
    """level -> (low, high): estimate +/- quantile * se; one-sided for one-sided alternatives."""
    from scipy import stats

    from clfeval.uncertainty.checks import normal_quantile

    def interval(level: float) -> tuple[float, float]:
        q = level if alternative != "two-sided" else 0.5 + level / 2
        crit = float(normal_quantile(q) if df is None else stats.t.ppf(q, df))
        low, high = estimate - crit * se, estimate + crit * se
        if alternative == "less":
            low = bounds[0]
        elif alternative == "greater":
            high = bounds[1]
        return max(bounds[0], low), min(bounds[1], high)

    return interval


def _statistic_and_pvalue(diff: float, se: float, df: float | None, alternative: str,
                          notes: list[str]) -> tuple[float, float]:
    """z (or t with ``df``) = diff / se and its p-value; the degenerate cases when se is 0."""
    if se > 0:
        statistic = diff / se
        return statistic, normal_pvalue(statistic, alternative) if df is None else t_pvalue(statistic, df, alternative)
    statistic, pvalue = _degenerate(diff, notes)
    return statistic, normal_pvalue(statistic, alternative) if math.isnan(pvalue) else pvalue


def _degenerate(diff: float, notes: list[str]) -> tuple[float, float]:
    """(statistic, p-value) when the standard error is 0."""
    if diff == 0:
        notes.append("the AUCs are equal and DeLong's variance is 0 (identical or constant "
                     "placements): no difference to test, statistic 0, p = 1.")
        return 0.0, 1.0
    notes.append("DeLong's variance is 0 (every placement value is the same, e.g. perfectly "
                 "separating or constant scores) but the AUCs differ: the statistic is infinite "
                 "and p = 0 (two-sided), a degenerate result.")
    return math.copysign(math.inf, diff), math.nan


def _average_auc_influence(y_true: Any, y_score: Any, labels: Any, average: str) -> tuple[float, np.ndarray]:
    """(average one-vs-rest AUC, each case's influence on it).

    Each class's AUC is a two-sample U-statistic whose influence on case i is its DeLong
    placement minus the AUC over the class's positive (or negative) count, with DeLong's m - 1
    and n - 1 scaling; the average's influence is the weighted mean over classes, so the
    correlation between classes (every case is a positive of one class, a negative of the
    others) is kept. Sum of squares = variance.
    """
    if average not in ("macro", "weighted"):
        raise ValueError(f"average must be 'macro' or 'weighted', got {average!r}.")
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=np.float64)
    classes = np.unique(y) if labels is None else np.asarray(labels)
    if s.ndim != 2 or s.shape != (y.shape[0], classes.size):
        raise ValueError(f"y_score must have shape (n_samples, n_classes) = ({y.shape[0]}, {classes.size}), "
                         f"got {s.shape}.")
    if not np.isfinite(s).all():
        raise ValueError("y_score holds NaN or infinite values; scores must be finite.")
    influence = np.zeros(y.shape[0])
    aucs, weights = [], []
    for c, label in enumerate(classes):
        is_pos = y == label
        m = int(is_pos.sum())
        n = is_pos.size - m
        if m < 2 or n < 2:
            raise ValueError(f"class {label.item() if hasattr(label, 'item') else label!r} has {m} positive and "
                             f"{n} negative cases; the interval needs at least 2 of each for every class.")
        auc, v = delong_placements(is_pos, s[:, c])
        w = 1.0 if average == "macro" else m / y.shape[0]
        scale = np.where(is_pos, 1.0 / math.sqrt(m * (m - 1)), 1.0 / math.sqrt(n * (n - 1)))
        influence += w * (v - auc) * scale
        aucs.append(auc)
        weights.append(w)
    total = sum(weights)
    return float(np.dot(aucs, weights) / total), influence / total


def delong_average_ci(
    y_true: Any, y_score: Any, *, labels: Any = None, average: str = "macro", level: float = 0.95
) -> ConfidenceInterval:
    """Interval of the macro (or support-weighted) average of one-vs-rest ROC AUCs.

    The variance is the sum over cases of the squared influence of each case on the average
    (see :func:`_average_auc_influence`); with one class it is DeLong's variance exactly.
    ``y_score``: (n, k) scores, columns in ``labels`` order (default: the sorted classes).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_score : array-like of shape (n_samples, n_classes)
        One score column per class, in the order of ``labels``.
    labels : array-like of shape (n_classes,), optional
        The classes the columns of ``y_score`` belong to. Default None: the sorted classes
        found in ``y_true``. Every class needs at least 2 cases in and 2 out of it.
    average : {"macro", "weighted"}, default "macro"
        Plain mean of the per-class AUCs, or mean weighted by each class's share of cases.
    level : float, default 0.95
        Confidence level of the interval, between 0 and 1.

    Returns
    -------
    ConfidenceInterval
        The averaged AUC as ``estimate``, its standard error, and the normal limits clipped to
        [0, 1].

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas under
       two or more correlated receiver operating characteristic curves: a nonparametric approach.
       Biometrics, 44(3), 837-845.

    Examples
    --------
    >>> y = [0, 1, 2, 0, 1, 2, 0, 1, 2, 1]
    >>> s = np.eye(3)[[0, 1, 2, 0, 2, 2, 1, 1, 0, 1]] * 0.6 + 0.2
    >>> ci = delong_average_ci(y, s)
    >>> round(ci.estimate, 4), ci.method
    (0.7718, 'DeLong (one-vs-rest influence functions, macro)')
    """
    from clfeval.uncertainty.checks import z_quantile

    level = check_level(level)
    estimate, influence = _average_auc_influence(y_true, y_score, labels, average)
    se = math.sqrt(float(np.dot(influence, influence)))
    half = z_quantile(level) * se
    return ConfidenceInterval(max(0.0, estimate - half), min(1.0, estimate + half), level,
                              f"DeLong (one-vs-rest influence functions, {average})", estimate, se)


def delong_average(
    y_true: Any, y_score_a: Any, y_score_b: Any, *, labels: Any = None, average: str = "macro",
    alternative: str = "two-sided",
) -> TestResult:
    """Paired test of two models' macro (or weighted) one-vs-rest ROC AUCs on the same cases.

    z = (AUC_a - AUC_b) / se, with se from the per-case difference of the two models'
    influences (:func:`delong_average_ci`'s method), so the pairing is kept.

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
        Plain mean of the per-class AUCs, or mean weighted by class frequency.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means model A has the larger average AUC.

    Returns
    -------
    TestResult
        z statistic and normal p-value, the difference of average AUCs (A - B) as ``estimate``
        with its interval, and ``extra`` holding ``auc_a``, ``auc_b`` and ``se``.

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas under
       two or more correlated receiver operating characteristic curves: a nonparametric approach.
       Biometrics, 44(3), 837-845.

    Examples
    --------
    >>> y = [0, 1, 2, 0, 1, 2, 0, 1, 2, 1]
    >>> a = np.eye(3)[[0, 1, 2, 0, 1, 2, 1, 1, 2, 1]] * 0.6 + 0.2
    >>> b = np.eye(3)[[0, 1, 2, 0, 2, 2, 1, 1, 0, 1]] * 0.6 + 0.2
    >>> r = delong_average(y, a, b)
    >>> round(r.estimate, 4), round(r.pvalue, 4)
    (0.1448, 0.1488)
    >>> r = delong_average(y, a, a)
    >>> r.estimate, r.pvalue
    (0.0, 1.0)
    """
    check_alternative(alternative)
    est_a, inf_a = _average_auc_influence(y_true, y_score_a, labels, average)
    est_b, inf_b = _average_auc_influence(y_true, y_score_b, labels, average)
    diff = est_a - est_b
    se = math.sqrt(float(np.dot(inf_a - inf_b, inf_a - inf_b)))
    notes: list[str] = []
    z, p = _statistic_and_pvalue(diff, se, None, alternative, notes)
    return TestResult(statistic=float(z), pvalue=float(p), method=f"DeLong test of {average} one-vs-rest ROC AUCs",
                      alternative=alternative, estimate=float(diff), estimate_name="AUC difference",
                      interval=_interval(diff, se, alternative, (-1.0, 1.0), None),
                      interval_method="DeLong (influence functions)", notes=tuple(notes),
                      extra={"auc_a": est_a, "auc_b": est_b, "se": se}, standard_error=se)


def delong(
    y_true: Any,
    y_score_a: Any,
    y_score_b: Any = None,
    *,
    y_true_b: Any = None,
    pos_label: Any = None,
    alternative: str = "two-sided",
    paired: bool | None = None,
    sample_weight: Any = None,
) -> TestResult:
    """DeLong's test comparing ROC AUCs: ``AUC(y_score_a) - AUC(y_score_b)``.

    * Same cases (``paired``, the default when ``y_true_b`` is not given): the test for two
      correlated AUCs, ``z = (A - B) / sqrt(var A + var B - 2 cov)``, normal p-value
      (pROC's "DeLong's test for two correlated ROC curves").
    * Independent samples (``paired=False``; give ``y_true_b`` when the second score belongs to
      another sample): ``D = (A - B) / sqrt(var A + var B)`` on Welch-type degrees of freedom,
      t p-value (pROC's unpaired DeLong test).
    * One score only: the test of ``AUC = 1/2`` with DeLong's variance (estimate: the AUC).

    ``alternative="greater"``: AUC of A larger. The estimate's interval uses the same standard
    error (normal, or t for the unpaired test; one-sided for one-sided alternatives).
    ``extra`` holds ``auc_a``, ``auc_b`` and ``se``. Equal AUCs with zero variance (identical
    scores): statistic 0, p = 1 with a note. Unweighted only.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels of the cases ``y_score_a`` scores (and ``y_score_b`` too when paired).
    y_score_a : array-like of shape (n_samples,)
        Positive-class scores of model A.
    y_score_b : array-like, optional
        Positive-class scores of model B: of the same cases (paired) or of the cases of
        ``y_true_b``. Default None: test A's AUC against 1/2.
    y_true_b : array-like, optional
        True labels of a second, independent sample that ``y_score_b`` scores. Default None:
        ``y_score_b`` scores the cases of ``y_true``.
    pos_label : int, str or bool, optional
        The label of the positive class. Default None: 1, as in scikit-learn, which needs labels
        in {0, 1} or {-1, 1}.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means A has the larger AUC.
    paired : bool, optional
        Whether the two scores are of the same cases. Default None: True unless ``y_true_b`` is
        given.
    sample_weight : None
        Not supported; anything but None raises a ValueError.

    Returns
    -------
    TestResult
        The z (paired, one-sample) or t (unpaired) statistic with its p-value, the AUC difference
        A - B (or the AUC itself for one score) as ``estimate`` with its interval, and ``extra``
        holding ``auc_a``, ``auc_b`` and ``se``.

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas under
       two or more correlated receiver operating characteristic curves: a nonparametric approach.
       Biometrics, 44(3), 837-845.
    .. [2] Sun, X. and Xu, W. (2014). Fast implementation of DeLong's algorithm for comparing the
       areas under correlated receiver operating characteristic curves. IEEE Signal Processing
       Letters, 21(11), 1389-1393.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 1, 1, 0, 1]
    >>> a = [0.1, 0.3, 0.2, 0.8, 0.7, 0.4, 0.5, 0.9]
    >>> b = [0.2, 0.1, 0.6, 0.5, 0.3, 0.9, 0.4, 0.8]
    >>> r = delong(y, a, b)
    >>> round(r.estimate, 4), round(r.statistic, 4), round(r.pvalue, 4)
    (0.125, 0.6124, 0.5403)
    >>> r = delong([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> r.statistic, r.pvalue
    (0.0, 1.0)
    """
    if sample_weight is not None:
        raise ValueError(_UNWEIGHTED)
    check_alternative(alternative)
    if paired is None:
        paired = y_true_b is None
    is_pos, pos_label = _binary_cases(y_true, pos_label, "delong")
    sa = _scores(y_score_a, "y_score_a", "delong")
    check_consistent_length(y_true=is_pos, y_score_a=sa)
    notes: list[str] = []
    auc_a, va = delong_placements(is_pos, sa)
    if y_score_b is None:
        if y_true_b is not None:
            raise ValueError("delong: y_true_b was given without y_score_b.")
        return _one_sample(is_pos, auc_a, va, alternative, notes)
    sb = _scores(y_score_b, "y_score_b", "delong")
    if y_true_b is None:
        if sb.size != sa.size:
            raise ValueError(
                f"delong: y_score_a has {sa.size} scores but y_score_b has {sb.size}. Scores of the "
                "same cases must have the same length; for two independent samples pass "
                "y_true_b= (and paired=False)."
            )
        is_pos_b = is_pos
    else:
        if paired:
            raise ValueError(
                "delong: paired=True compares two scores of the same cases, but y_true_b gives a "
                "second sample; use paired=False (or drop y_true_b)."
            )
        is_pos_b, _ = _binary_cases(y_true_b, pos_label, "delong")
        check_consistent_length(y_true_b=is_pos_b, y_score_b=sb)
    auc_b, vb = delong_placements(is_pos_b, sb)
    diff = auc_a - auc_b
    extra: dict[str, Any] = {"auc_a": auc_a, "auc_b": auc_b}
    if paired:
        m = int(np.count_nonzero(is_pos))
        n = is_pos.size - m
        s10, s01 = _variance_parts(is_pos, np.vstack([va, vb]))
        s = s10 / m + s01 / n
        var = float(s[0, 0] + s[1, 1] - 2 * s[0, 1])
        se = math.sqrt(max(var, 0.0))
        df = None
        method = "DeLong's test for two correlated ROC curves"
    else:
        var_a = _auc_se(is_pos, va) ** 2
        var_b = _auc_se(is_pos_b, vb) ** 2
        se = math.sqrt(var_a + var_b)
        # Welch-Satterthwaite-type degrees of freedom over the total sample sizes (as pROC).
        den = var_a**2 / (is_pos.size - 1) + var_b**2 / (is_pos_b.size - 1)
        df = (var_a + var_b) ** 2 / den if den > 0 else math.inf
        method = "DeLong's test for two independent ROC curves"
    extra["se"] = se
    statistic, pvalue = _statistic_and_pvalue(diff, se, df, alternative, notes)
    return TestResult(
        statistic=float(statistic),
        pvalue=float(pvalue),
        method=method,
        alternative=alternative,
        estimate=diff,
        estimate_name="AUC difference (A - B)",
        df=df,
        interval=_interval(diff, se, alternative, (-1.0, 1.0), df),
        interval_method="DeLong (normal)" if df is None else "DeLong (t, Welch-type df)",
        notes=tuple(notes),
        extra=extra,
        standard_error=se,
    )


def _one_sample(is_pos: np.ndarray, auc: float, v: np.ndarray, alternative: str, notes: list[str]) -> TestResult:
    se = _auc_se(is_pos, v)
    diff = auc - 0.5
    statistic, pvalue = _statistic_and_pvalue(diff, se, None, alternative, notes)
    return TestResult(
        statistic=float(statistic),
        pvalue=float(pvalue),
        method="DeLong's test of AUC = 0.5",
        alternative=alternative,
        estimate=auc,
        estimate_name="AUC",
        interval=_interval(auc, se, alternative, (0.0, 1.0), None),
        interval_method="DeLong (normal)",
        notes=tuple(notes),
        extra={"auc_a": auc, "se": se},
        standard_error=se,
    )
