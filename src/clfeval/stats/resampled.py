"""Do two learning algorithms differ? Tests on the per-fold scores of repeated resamplings.

Each function takes the scores that algorithms A and B obtained on the same splits (or, with
``scores_b=None``, the differences A - B directly) and returns a :class:`TestResult` whose sign
convention is always A minus B.

- :func:`paired_ttest_5x2cv`: Dietterich (1998), five repetitions of 2-fold cross-validation, t with 5 df.
- :func:`combined_ftest_5x2cv`: Alpaydin (1999), the same 5 x 2 scores, F with (10, 5) df.
- :func:`corrected_resampled_ttest`: Nadeau & Bengio (2003), J random train/test splits.
- :func:`corrected_repeated_kfold_ttest`: Bouckaert & Frank (2004), r repetitions of k-fold CV.
- :func:`uncorrected_resampled_ttest`: the naive t test on resampled scores, kept for comparison
  only: its type-I error is far above the nominal level.

>>> a = [[0.90, 0.88], [0.91, 0.89], [0.87, 0.90], [0.92, 0.88], [0.90, 0.91]]
>>> b = [[0.85, 0.86], [0.88, 0.86], [0.86, 0.85], [0.89, 0.87], [0.88, 0.87]]
>>> r = paired_ttest_5x2cv(a, b)
>>> round(r.statistic, 3), round(r.pvalue, 3), r.df
(2.752, 0.04, 5.0)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from clfeval.stats._common import as_finite_floats, t_pvalue
from clfeval.stats._result import TestResult, check_alternative

__all__ = [
    "paired_ttest_5x2cv",
    "combined_ftest_5x2cv",
    "corrected_resampled_ttest",
    "corrected_repeated_kfold_ttest",
    "uncorrected_resampled_ttest",
]

_NOTHING = "the two algorithms scored the same on every split: nothing to test, p = 1"


def _differences(scores_a: Any, scores_b: Any, shape: tuple[int, ...] | None, what: str) -> np.ndarray:
    """A - B as a float64 array (``scores_b=None``: ``scores_a`` already holds the differences).

    ``shape``: the exact shape expected (None: any 1-D or 2-D shape, flattened by the caller).
    """
    a = as_finite_floats(scores_a, "scores_a")
    if scores_b is None:
        d = a
    else:
        b = as_finite_floats(scores_b, "scores_b")
        if a.shape != b.shape:
            raise ValueError(
                f"scores_a and scores_b must have the same shape ({what}); got {a.shape} and {b.shape}."
            )
        d = a - b
    if shape is not None and d.shape != shape:
        raise ValueError(f"expected scores of shape {shape} ({what}), got shape {d.shape}.")
    return d


def _t_interval(centre: float, se: float, df: float, alternative: str) -> Callable[[float], tuple[float, float]]:
    """level -> (low, high) of ``centre ± t quantile × se``; one-sided bounds for one-sided tests."""

    def interval(level: float) -> tuple[float, float]:
        from scipy import stats

        if alternative == "two-sided":
            q = float(stats.t.ppf(0.5 + level / 2.0, df))
            return centre - q * se, centre + q * se
        q = float(stats.t.ppf(level, df))
        if alternative == "less":
            return -math.inf, centre + q * se
        return centre - q * se, math.inf

    return interval


def _t_result(
    numerator: float, se: float, df: float, alternative: str, method: str, estimate_name: str,
    interval_method: str, extra: dict[str, Any], all_zero: bool,
) -> TestResult:
    """The t statistic ``numerator / se`` with the degenerate cases spelled out in notes."""
    notes: tuple[str, ...] = ()
    if all_zero:
        t, p = 0.0, 1.0
        notes = (_NOTHING,)
    elif se == 0.0:
        # Every difference is the same non-zero number: no spread to compare it with.
        t = math.copysign(math.inf, numerator) if numerator != 0 else 0.0
        p = t_pvalue(t, df, alternative) if numerator != 0 else 1.0
        notes = ("the differences have zero variance: the t statistic is infinite (p = 0 in the "
                 "direction of the difference); more splits or a finer score would help",)
    else:
        t = numerator / se
        p = t_pvalue(t, df, alternative)
    return TestResult(
        statistic=float(t), pvalue=float(p), method=method, alternative=alternative,
        estimate=float(numerator), estimate_name=estimate_name, df=float(df),
        interval=_t_interval(numerator, se, df, alternative), interval_method=interval_method,
        notes=notes, extra=extra, standard_error=float(se),
    )


def paired_ttest_5x2cv(scores_a: Any, scores_b: Any = None, *, alternative: str = "two-sided") -> TestResult:
    """Dietterich's 5x2cv paired t test.

    ``scores_a``, ``scores_b``: shape (5, 2), the scores of A and B on fold j of repetition i
    (or ``scores_b=None`` and the differences A - B in ``scores_a``). With ``p_ij`` the
    difference, ``s_i^2 = sum_j (p_ij - mean_j p_ij)^2``, the statistic is
    ``t = p_11 / sqrt(sum_i s_i^2 / 5)`` with 5 degrees of freedom: the numerator is the first
    fold's difference only, as Dietterich (1998) defines it. The estimate is ``p_11`` and its
    interval inverts the test; ``extra["mean_difference"]`` holds the mean of all ten.

    Parameters
    ----------
    scores_a : array-like of shape (5, 2)
        Scores of algorithm A on fold j of repetition i, or, when ``scores_b`` is None, the
        differences A - B directly.
    scores_b : array-like of shape (5, 2), optional
        Scores of algorithm B on the same folds. Default None: ``scores_a`` holds differences.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means A scores higher than B.

    Returns
    -------
    TestResult
        t statistic and p-value on 5 degrees of freedom, the first fold's difference as
        ``estimate`` with its t interval, and ``extra`` holding ``mean_difference`` and the
        per-repetition ``variances``.

    References
    ----------
    .. [1] Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
       classification learning algorithms. Neural Computation, 10(7), 1895-1923 (eq. for t~).

    Examples
    --------
    >>> d = [[0.02, 0.01], [0.03, 0.01], [0.0, 0.02], [0.01, 0.02], [0.02, 0.03]]
    >>> round(paired_ttest_5x2cv(d).statistic, 4)
    1.9069
    """
    alternative = check_alternative(alternative)
    d = _differences(scores_a, scores_b, (5, 2), "5 repetitions x 2 folds")
    mean_i = d.mean(axis=1)
    s2 = ((d - mean_i[:, None]) ** 2).sum(axis=1)  # Dietterich's s_i^2 (no division by n - 1)
    se = math.sqrt(float(s2.mean()))
    return _t_result(
        float(d[0, 0]), se, 5.0, alternative, "Dietterich's 5x2cv paired t test",
        "difference on the first fold (A - B)", "t interval, 5 df (Dietterich 5x2cv variance)",
        {"mean_difference": float(d.mean()), "variances": s2.tolist()},
        all_zero=not np.any(d),
    )


def combined_ftest_5x2cv(scores_a: Any, scores_b: Any = None) -> TestResult:
    """Alpaydin's combined 5x2cv F test.

    Same input as :func:`paired_ttest_5x2cv`. ``f = sum_ij p_ij^2 / (2 sum_i s_i^2)`` is
    approximately F with (10, 5) degrees of freedom; it uses all ten differences and does not
    depend on the order of the folds. The test has no direction (two-sided); the estimate is
    the mean difference, without an interval.

    Parameters
    ----------
    scores_a : array-like of shape (5, 2)
        Scores of algorithm A on fold j of repetition i, or, when ``scores_b`` is None, the
        differences A - B directly.
    scores_b : array-like of shape (5, 2), optional
        Scores of algorithm B on the same folds. Default None: ``scores_a`` holds differences.

    Returns
    -------
    TestResult
        The F statistic on (10, 5) degrees of freedom and its p-value, the mean of the ten
        differences as ``estimate`` (no interval), and the per-repetition ``variances`` in
        ``extra``.

    References
    ----------
    .. [1] Alpaydin, E. (1999). Combined 5 x 2 cv F test for comparing supervised classification
       learning algorithms. Neural Computation, 11(8), 1885-1892.

    Examples
    --------
    >>> d = [[0.02, 0.01], [0.03, 0.01], [0.0, 0.02], [0.01, 0.02], [0.02, 0.03]]
    >>> r = combined_ftest_5x2cv(d)
    >>> round(r.statistic, 4), r.df
    (3.3636, (10.0, 5.0))
    """
    from scipy import stats

    d = _differences(scores_a, scores_b, (5, 2), "5 repetitions x 2 folds")
    s2 = ((d - d.mean(axis=1)[:, None]) ** 2).sum(axis=1)
    num = float((d**2).sum())
    den = 2.0 * float(s2.sum())
    notes: tuple[str, ...] = ()
    if num == 0.0:
        f, p = 0.0, 1.0
        notes = (_NOTHING,)
    elif den == 0.0:
        f, p = math.inf, 0.0
        notes = ("the differences have zero variance within every repetition: F is infinite, p = 0",)
    else:
        f = num / den
        p = float(stats.f.sf(f, 10, 5))
    return TestResult(
        statistic=float(f), pvalue=float(p), method="Alpaydin's combined 5x2cv F test",
        alternative="two-sided", estimate=float(d.mean()), estimate_name="mean difference (A - B)",
        df=(10.0, 5.0), notes=notes, extra={"variances": s2.tolist()},
    )


def _resampled(
    d: np.ndarray, ratio: float, alternative: str, method: str, interval_method: str, extra: dict[str, Any]
) -> TestResult:
    """t test of the mean of ``d`` with variance ``var(d) * (1/J + ratio)``."""
    j = d.size
    if j < 2:
        raise ValueError(
            f"a resampled t test needs the scores of at least 2 splits, got {j}; its variance "
            "comes from the spread between splits."
        )
    mean = float(d.mean())
    var = float(d.var(ddof=1))
    se = math.sqrt(var * (1.0 / j + ratio))
    extra = {"n_splits": j, "variance": var, **extra}
    return _t_result(mean, se, float(j - 1), alternative, method, "mean difference (A - B)",
                     interval_method, extra, all_zero=not np.any(d))


def _positive(value: Any, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}.")
    return int(value)


def corrected_resampled_ttest(
    scores_a: Any, scores_b: Any = None, *, n_train: int, n_test: int, alternative: str = "two-sided"
) -> TestResult:
    """Nadeau and Bengio's corrected resampled t test.

    ``scores_a``, ``scores_b``: the scores on J random train/test splits (1-D of length J; any
    shape is flattened), each split with ``n_train`` training and ``n_test`` test cases. The
    variance of the mean difference is ``var(d) * (1/J + n_test/n_train)`` instead of
    ``var(d) / J``: the training sets overlap, so the splits are correlated. t has J - 1 df;
    the interval is that of the mean difference.

    Parameters
    ----------
    scores_a : array-like of shape (n_splits,)
        Scores of algorithm A on each split (or the differences A - B when ``scores_b`` is None).
    scores_b : array-like of shape (n_splits,), optional
        Scores of algorithm B on the same splits. Default None: ``scores_a`` holds differences.
    n_train : int
        Number of training cases in each split (keyword-only, required).
    n_test : int
        Number of test cases in each split (keyword-only, required).
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means A scores higher than B.

    Returns
    -------
    TestResult
        t statistic on J - 1 degrees of freedom with its p-value, the mean difference A - B as
        ``estimate`` with its t interval; ``extra`` holds ``n_splits``, ``variance``,
        ``n_train`` and ``n_test``.

    References
    ----------
    .. [1] Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. Machine
       Learning, 52(3), 239-281 (the "corrected resampled t-test", sec. 4).

    Examples
    --------
    >>> r = corrected_resampled_ttest([0.80, 0.82, 0.84], [0.78, 0.80, 0.80], n_train=90, n_test=10)
    >>> round(r.statistic, 4), r.df
    (3.4641, 2.0)
    """
    alternative = check_alternative(alternative)
    n_train = _positive(n_train, "n_train")
    n_test = _positive(n_test, "n_test")
    d = _differences(scores_a, scores_b, None, "one score per split").ravel()
    return _resampled(
        d, n_test / n_train, alternative, "Nadeau-Bengio corrected resampled t test",
        "t interval with Nadeau-Bengio corrected variance", {"n_train": n_train, "n_test": n_test},
    )


def corrected_repeated_kfold_ttest(
    scores_a: Any, scores_b: Any = None, *, n_repeats: int, n_folds: int, alternative: str = "two-sided"
) -> TestResult:
    """Bouckaert and Frank's corrected repeated k-fold cross-validation t test.

    ``scores_a``, ``scores_b``: shape (``n_repeats``, ``n_folds``), the score on each fold of
    each repetition. It is the Nadeau-Bengio correction with ``n_test/n_train = 1/(k-1)``:
    ``t = mean(d) / sqrt(var(d) * (1/(k r) + 1/(k-1)))`` with ``k r - 1`` df.

    Parameters
    ----------
    scores_a : array-like of shape (n_repeats, n_folds)
        Scores of algorithm A on each fold of each repetition (or the differences A - B when
        ``scores_b`` is None).
    scores_b : array-like of shape (n_repeats, n_folds), optional
        Scores of algorithm B on the same folds. Default None: ``scores_a`` holds differences.
    n_repeats : int
        Number r of repetitions of the cross-validation (keyword-only, required).
    n_folds : int
        Number k of folds in each repetition, at least 2 (keyword-only, required).
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means A scores higher than B.

    Returns
    -------
    TestResult
        t statistic on k r - 1 degrees of freedom with its p-value and the mean difference A - B
        as ``estimate`` with its t interval.

    References
    ----------
    .. [1] Bouckaert, R. R. and Frank, E. (2004). Evaluating the replicability of significance
       tests for comparing learning algorithms. PAKDD 2004, LNCS 3056, 3-12.

    Examples
    --------
    >>> d = [[0.01, 0.02, 0.00], [0.03, 0.01, 0.02]]
    >>> r = corrected_repeated_kfold_ttest(d, n_repeats=2, n_folds=3)
    >>> round(r.statistic, 4), r.df
    (1.7516, 5.0)
    """
    alternative = check_alternative(alternative)
    n_repeats = _positive(n_repeats, "n_repeats")
    n_folds = _positive(n_folds, "n_folds", minimum=2)
    d = _differences(scores_a, scores_b, (n_repeats, n_folds), "n_repeats x n_folds")
    return _resampled(
        d.ravel(), 1.0 / (n_folds - 1), alternative, "Bouckaert-Frank corrected repeated k-fold t test",
        "t interval with Nadeau-Bengio corrected variance", {"n_repeats": n_repeats, "n_folds": n_folds},
    )


def uncorrected_resampled_ttest(
    scores_a: Any, scores_b: Any = None, *, alternative: str = "two-sided"
) -> TestResult:
    """The naive paired t test on resampled (or cross-validated) scores. Do not use it to decide.

    .. warning:: Inflated type-I error. The splits share training (and, for repeated CV, test) cases, so their scores
       are correlated and ``var(d) / J`` underestimates the variance of the mean: the type-I
       error is far above the nominal level (Dietterich 1998 measured rates up to ~50% at a
       nominal 5%; Nadeau & Bengio 2003). It is here to show how far the corrected tests move
       the answer. Use :func:`corrected_resampled_ttest`, :func:`corrected_repeated_kfold_ttest`
       or :func:`combined_ftest_5x2cv` instead.

    Parameters
    ----------
    scores_a : array-like of shape (n_splits,)
        Scores of algorithm A on each split (or the differences A - B when ``scores_b`` is None).
    scores_b : array-like of shape (n_splits,), optional
        Scores of algorithm B on the same splits. Default None: ``scores_a`` holds differences.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means A scores higher than B.

    Returns
    -------
    TestResult
        t statistic on J - 1 degrees of freedom with a p-value that is too small, the mean
        difference as ``estimate``, and a note repeating the warning.

    References
    ----------
    .. [1] Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
       classification learning algorithms. Neural Computation, 10(7), 1895-1923.
    .. [2] Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. Machine
       Learning, 52(3), 239-281.

    Examples
    --------
    >>> r = uncorrected_resampled_ttest([0.80, 0.82, 0.84], [0.78, 0.80, 0.80])
    >>> round(r.statistic, 4)
    4.0
    """
    alternative = check_alternative(alternative)
    d = _differences(scores_a, scores_b, None, "one score per split").ravel()
    result = _resampled(
        d, 0.0, alternative, "uncorrected resampled t test (inflated type-I error)",
        "t interval (uncorrected, too narrow)", {},
    )
    warning = "uncorrected: splits are correlated, so this p-value is too small; prefer a corrected test"
    return dataclasses.replace(result, notes=(*result.notes, warning))
