"""Comparing classifiers over several data sets with rank tests (Demšar 2006).

Scores are arranged as (n_datasets, n_classifiers), higher = better unless
``higher_is_better=False`` (errors, losses). Rank 1 is the best classifier on a data set; ties
share the average rank.

- two classifiers: :func:`wilcoxon` (signed ranks, Demšar's handling of zero differences),
  :func:`sign_test` (wins and losses, ties split evenly);
- several: :func:`friedman` (chi-squared and the Iman-Davenport F), then :func:`nemenyi` (all
  pairs, critical difference), :func:`bonferroni_dunn` or :func:`holm_control` (each against a
  control); :func:`holm` adjusts any list of p-values;
- one error rate against a hypothesised one: :func:`binomial_test`.

Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. Journal of
Machine Learning Research 7, 1-30.

>>> scores = [[0.8, 0.7, 0.6], [0.9, 0.8, 0.85], [0.7, 0.6, 0.5], [0.75, 0.7, 0.72]]
>>> r = friedman(scores)
>>> r.extra["average_ranks"], round(r.statistic, 3)
((1.0, 2.5, 2.5), 6.0)
>>> round(nemenyi(scores).extra["critical_difference"], 4)
1.6572
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from clfeval.stats._common import as_finite_floats
from clfeval.stats._result import TestResult, check_alternative
from clfeval.uncertainty.multiplicity import holm_adjusted

__all__ = [
    "wilcoxon",
    "sign_test",
    "friedman",
    "nemenyi",
    "bonferroni_dunn",
    "holm",
    "holm_control",
    "binomial_test",
    "average_ranks",
    "critical_value",
    "critical_difference",
    "nemenyi_groups",
    "MultipleComparison",
]

PostHoc = Literal["nemenyi", "bonferroni-dunn"]

# Differences closer than this (relative to the largest score) are ties; a difference this close
# to zero is a zero. It absorbs float rounding (0.768 - 0.763 vs 0.936 - 0.931) and nothing else.
_RTOL = 64 * np.finfo(np.float64).eps


# ---------------------------------------------------------------------------------------------
# input
# ---------------------------------------------------------------------------------------------
def _paired(scores_a: Any, scores_b: Any) -> tuple[np.ndarray, float]:
    """(A - B per data set, scale for tolerances); ``scores_b=None``: ``scores_a`` are the differences."""
    a = as_finite_floats(scores_a, "scores_a")
    if scores_b is None:
        d = a
        scale = float(np.max(np.abs(a), initial=0.0))
    else:
        b = as_finite_floats(scores_b, "scores_b")
        if a.shape != b.shape:
            raise ValueError(
                f"scores_a and scores_b must have the same shape (n_datasets,), got {a.shape} and {b.shape}."
            )
        d = a - b
        scale = float(max(np.max(np.abs(a), initial=0.0), np.max(np.abs(b), initial=0.0)))
    if d.ndim != 1:
        raise ValueError(f"expected one score per data set, shape (n_datasets,), got shape {d.shape}.")
    if d.size < 2:
        raise ValueError(f"comparing two classifiers over data sets needs at least 2 data sets, got {d.size}.")
    return d, scale


def _score_table(scores: Any) -> np.ndarray:
    s = as_finite_floats(scores, "scores")
    if s.ndim != 2:
        raise ValueError(
            f"scores must have shape (n_datasets, n_classifiers), got an array of shape {s.shape}."
        )
    n, k = s.shape
    if k < 2:
        raise ValueError(f"comparing classifiers needs at least 2 classifiers (columns), got {k} "
                         f"in scores of shape {s.shape} (n_datasets, n_classifiers).")
    if n < 2:
        raise ValueError(f"comparing classifiers over data sets needs at least 2 data sets (rows), got "
                         f"{n} in scores of shape {s.shape} (n_datasets, n_classifiers).")
    return s


def _check_alpha(alpha: float) -> float:
    alpha = float(alpha)
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be between 0 and 1 (e.g. 0.05), got {alpha!r}.")
    return alpha


def _names(names: Sequence[Any] | None, k: int) -> tuple[str, ...]:
    if names is None:
        return tuple(f"classifier {i}" for i in range(k))
    names = tuple(str(n) for n in names)
    if len(names) != k:
        raise ValueError(f"got {len(names)} names for {k} classifiers; give one name per column of scores.")
    return names


def average_ranks(scores: Any, *, higher_is_better: bool = True) -> np.ndarray:
    """Average rank of each classifier over the data sets (1 = best; ties share the mean rank).

    >>> average_ranks([[0.9, 0.8, 0.8], [0.7, 0.9, 0.8]])
    array([2.  , 1.75, 2.25])
    """
    return _ranks(_score_table(scores), higher_is_better).mean(axis=0)


def _ranks(s: np.ndarray, higher_is_better: bool) -> np.ndarray:
    from scipy.stats import rankdata

    return rankdata(-s if higher_is_better else s, axis=1)


def _ranks_or_scores(
    scores: Any, n_datasets: int | None, higher_is_better: bool
) -> tuple[np.ndarray, int]:
    """(average ranks, N) from a score table (2-D) or from average ranks (1-D) and ``n_datasets``."""
    arr = as_finite_floats(scores, "scores")
    if arr.ndim == 2:
        s = _score_table(arr)
        if n_datasets is not None and int(n_datasets) != s.shape[0]:
            raise ValueError(f"n_datasets={n_datasets} but scores has {s.shape[0]} rows (data sets); "
                             "leave n_datasets out when you pass the score table.")
        return _ranks(s, higher_is_better).mean(axis=0), s.shape[0]
    if arr.ndim != 1:
        raise ValueError("expected scores of shape (n_datasets, n_classifiers) or average ranks of shape "
                         f"(n_classifiers,), got shape {arr.shape}.")
    k = arr.size
    if k < 2:
        raise ValueError(f"comparing classifiers needs at least 2 average ranks, got {k}.")
    if n_datasets is None or isinstance(n_datasets, bool) or int(n_datasets) != n_datasets or n_datasets < 2:
        raise ValueError("with average ranks (a 1-D array) give n_datasets, the number of data sets they "
                         f"were averaged over (an integer >= 2); got n_datasets={n_datasets!r}.")
    if np.any(arr < 1 - 1e-9) or np.any(arr > k + 1e-9) or abs(arr.sum() - k * (k + 1) / 2) > 1e-6 * k * k:
        raise ValueError(f"these are not average ranks of {k} classifiers: each must lie in [1, {k}] and "
                         f"they must sum to k(k+1)/2 = {k * (k + 1) / 2:g} (they sum to {arr.sum():g}). "
                         "Pass the score table of shape (n_datasets, n_classifiers) instead.")
    return arr, int(n_datasets)


def _tol_ranks(values: np.ndarray, tol: float) -> np.ndarray:
    """Ranks (1-based, ties averaged) of non-negative ``values``; values within ``tol`` of their
    neighbour in sorted order are tied."""
    order = np.argsort(values, kind="stable")
    v = values[order]
    new_group = np.concatenate(([True], np.diff(v) > tol))
    group = np.cumsum(new_group) - 1
    starts = np.flatnonzero(new_group)
    ends = np.append(starts[1:], v.size)  # exclusive
    mean_rank = (starts + 1 + ends) / 2.0  # mean of positions start+1 .. end
    ranks = np.empty_like(v)
    ranks[order] = mean_rank[group]
    return ranks


# ---------------------------------------------------------------------------------------------
# two classifiers
# ---------------------------------------------------------------------------------------------
def _signed_rank_distribution(doubled: np.ndarray) -> np.ndarray:
    """P(S = s), s = 0..sum(doubled), for S = sum of a random subset (each element w.p. 1/2)."""
    total = int(doubled.sum())
    dist = np.zeros(total + 1)
    dist[0] = 1.0
    top = 0
    for w in doubled.astype(np.int64):
        dist[w: top + w + 1] += dist[: top + 1].copy()
        dist[: top + w + 1] *= 0.5
        top += int(w)
    return dist


def wilcoxon(
    scores_a: Any,
    scores_b: Any = None,
    *,
    zero_method: Literal["demsar", "wilcox"] = "demsar",
    alternative: str = "two-sided",
    method: Literal["auto", "exact", "approx"] = "auto",
) -> TestResult:
    """Wilcoxon signed-ranks test of two classifiers' scores over data sets (A - B).

    The absolute differences are ranked (ties share the mean rank); ``R+`` sums the ranks where
    A scored higher, ``R-`` where B did. ``zero_method="demsar"`` (Demšar 2006, sec. 3.1.3):
    the ranks of zero differences are split evenly between ``R+`` and ``R-``, one zero dropped
    if their number is odd; ``"wilcox"`` drops all zero differences. Differences equal up to
    float rounding are tied.

    ``method="exact"`` enumerates the signs of the non-zero differences (exact even with ties
    and zeros); ``"approx"`` uses the normal approximation with the tie-corrected variance
    ``sum(r^2)/4`` over the non-zero ranks; ``"auto"`` is exact up to 50 data sets.
    ``statistic`` is ``T = min(R+, R-)`` (two-sided) or ``R+`` (one-sided), as in
    ``scipy.stats.wilcoxon``; ``extra`` holds ``r_plus``, ``r_minus`` and ``z``. The estimate
    is the median difference (no interval).

    Parameters
    ----------
    scores_a : array-like of shape (n_datasets,)
        Score of classifier A on each data set (or the differences A - B when ``scores_b`` is
        None).
    scores_b : array-like of shape (n_datasets,), optional
        Score of classifier B on the same data sets. Default None: ``scores_a`` holds
        differences.
    zero_method : {"demsar", "wilcox"}, default "demsar"
        What to do with zero differences: split their ranks between the two sums, or drop them.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means A scores higher than B.
    method : {"auto", "exact", "approx"}, default "auto"
        Exact null distribution, normal approximation, or exact up to 50 data sets.

    Returns
    -------
    TestResult
        The signed-rank statistic and p-value, the median difference as ``estimate``, and
        ``extra`` holding ``r_plus``, ``r_minus``, ``z``, ``n``, ``n_zero`` and the ``method``
        used.

    References
    ----------
    .. [1] Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin,
       1(6), 80-83.
    .. [2] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       Journal of Machine Learning Research, 7, 1-30.

    Examples
    --------
    >>> r = wilcoxon([0.9, 0.8, 0.7, 0.85, 0.6], [0.85, 0.82, 0.65, 0.8, 0.5])
    >>> r.statistic, r.extra["r_plus"], round(r.pvalue, 4)
    (1.0, 14.0, 0.125)
    """
    from scipy import stats

    alternative = check_alternative(alternative)
    if zero_method not in ("demsar", "wilcox"):
        raise ValueError(f"zero_method must be 'demsar' or 'wilcox', got {zero_method!r}.")
    if method not in ("auto", "exact", "approx"):
        raise ValueError(f"method must be 'auto', 'exact' or 'approx', got {method!r}.")
    d, scale = _paired(scores_a, scores_b)
    tol = _RTOL * scale
    is_zero = np.abs(d) <= tol
    n_zero = int(is_zero.sum())
    notes: list[str] = []
    if zero_method == "wilcox":
        d = d[~is_zero]
        is_zero = np.zeros(d.size, dtype=bool)
        if n_zero:
            notes.append(f"{n_zero} zero difference(s) dropped (zero_method='wilcox')")
    elif n_zero % 2 == 1:
        drop = np.flatnonzero(is_zero)[0]
        keep = np.ones(d.size, dtype=bool)
        keep[drop] = False
        d, is_zero = d[keep], is_zero[keep]
        notes.append("an odd number of zero differences: one was dropped, the others' ranks split evenly")
    n = d.size
    estimate = float(np.median(d)) if d.size else 0.0
    if not np.any(~is_zero):
        return TestResult(statistic=0.0, pvalue=1.0, method="Wilcoxon signed-ranks test",
                          alternative=alternative, estimate=estimate, estimate_name="median difference (A - B)",
                          notes=(*notes, "every difference is zero: nothing to test, p = 1"),
                          extra={"r_plus": 0.0, "r_minus": 0.0, "z": 0.0, "n": n, "n_zero": n_zero,
                                 "method": "none"})
    r = _tol_ranks(np.where(is_zero, 0.0, np.abs(d)), tol)
    zero_share = float(r[is_zero].sum()) / 2.0
    nonzero = ~is_zero
    r_plus = float(r[nonzero & (d > 0)].sum()) + zero_share
    r_minus = float(r[nonzero & (d < 0)].sum()) + zero_share
    rz = r[nonzero]
    mean = float(rz.sum()) / 2.0 + zero_share
    sd = math.sqrt(float((rz**2).sum()) / 4.0)
    z = (r_plus - mean) / sd
    use_exact = method == "exact" or (method == "auto" and n <= 50)
    if use_exact:
        doubled = np.rint(2 * rz).astype(np.int64)  # mean ranks are multiples of 1/2
        dist = _signed_rank_distribution(doubled)
        s_obs = int(round(2 * (r_plus - zero_share)))
        cdf = float(dist[: s_obs + 1].sum())
        sf = float(dist[s_obs:].sum())
        p = {"greater": sf, "less": cdf, "two-sided": min(1.0, 2.0 * min(cdf, sf))}[alternative]
        used = "exact"
    else:
        p = {"greater": float(stats.norm.sf(z)), "less": float(stats.norm.cdf(z)),
             "two-sided": float(min(1.0, 2.0 * stats.norm.sf(abs(z))))}[alternative]
        used = "normal approximation"
    statistic = min(r_plus, r_minus) if alternative == "two-sided" else r_plus
    return TestResult(
        statistic=float(statistic), pvalue=float(p), method=f"Wilcoxon signed-ranks test ({used})",
        alternative=alternative, estimate=estimate, estimate_name="median difference (A - B)",
        notes=tuple(notes),
        extra={"r_plus": r_plus, "r_minus": r_minus, "z": float(z), "n": n, "n_zero": n_zero, "method": used},
    )


def _clopper_pearson(x: int, n: int, alternative: str):
    def interval(level: float) -> tuple[float, float]:
        from scipy import stats

        ci = stats.binomtest(x, n, 0.5, alternative=alternative).proportion_ci(level, method="exact")
        return float(ci.low), float(ci.high)

    return interval


def sign_test(scores_a: Any, scores_b: Any = None, *, alternative: str = "two-sided") -> TestResult:
    """Sign test (wins and losses) of two classifiers over data sets.

    Counts the data sets where A beats B; ties (equal up to float rounding) are split evenly
    between the two, one dropped if their number is odd (Demšar 2006, sec. 3.1.2). The wins
    follow Binomial(n, 1/2) under the null hypothesis; the p-value is exact. ``statistic`` is
    A's wins; the estimate is A's share of the wins with a Clopper-Pearson interval.

    Parameters
    ----------
    scores_a : array-like of shape (n_datasets,)
        Score of classifier A on each data set (or the differences A - B when ``scores_b`` is
        None).
    scores_b : array-like of shape (n_datasets,), optional
        Score of classifier B on the same data sets. Default None: ``scores_a`` holds
        differences.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means A scores higher than B.

    Returns
    -------
    TestResult
        A's wins (ties included by halves) as ``statistic`` with the exact p-value, A's share
        of the wins as ``estimate`` with a Clopper-Pearson interval, and ``extra`` holding
        ``wins``, ``losses``, ``ties`` and ``n``.

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       Journal of Machine Learning Research, 7, 1-30.

    Examples
    --------
    >>> r = sign_test([0.9, 0.8, 0.7, 0.85, 0.6, 0.7], [0.85, 0.82, 0.65, 0.8, 0.5, 0.7])
    >>> r.statistic, r.extra["n"], round(r.pvalue, 4)
    (4.0, 5, 0.375)
    """
    from scipy import stats

    alternative = check_alternative(alternative)
    d, scale = _paired(scores_a, scores_b)
    tol = _RTOL * scale
    wins, losses = int((d > tol).sum()), int((d < -tol).sum())
    ties = d.size - wins - losses
    half = ties // 2
    x, n = wins + half, wins + losses + 2 * half
    notes = ["an odd number of ties: one was dropped, the others split evenly"] if ties % 2 else []
    extra = {"wins": wins, "losses": losses, "ties": ties, "n": n}
    if n == 0:
        return TestResult(statistic=0.0, pvalue=1.0, method="sign test", alternative=alternative,
                          notes=(*notes, "no wins and no losses: nothing to test, p = 1"), extra=extra)
    p = float(stats.binomtest(x, n, 0.5, alternative=alternative).pvalue)
    return TestResult(
        statistic=float(x), pvalue=min(1.0, p), method="sign test (exact binomial)", alternative=alternative,
        estimate=x / n, estimate_name="share of wins of A", interval=_clopper_pearson(x, n, alternative),
        interval_method="Clopper-Pearson", notes=tuple(notes), extra=extra,
    )


def binomial_test(errors: int, n: int, rate: float, *, alternative: str = "two-sided") -> TestResult:
    """Exact binomial test of an observed error rate ``errors / n`` against a hypothesised ``rate``.

    ``alternative="greater"``: the true error rate is above ``rate``. The estimate is the
    observed error rate with a Clopper-Pearson (exact) interval.

    Parameters
    ----------
    errors : int
        Number of misclassified cases.
    n : int
        Number of cases classified, at least 1 and at least ``errors``.
    rate : float
        The error rate under the null hypothesis, in [0, 1].
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means the true error rate exceeds ``rate``.

    Returns
    -------
    TestResult
        ``errors`` as ``statistic`` with the exact p-value, the observed error rate as
        ``estimate`` with its Clopper-Pearson interval, and ``n`` and ``rate`` in ``extra``.

    References
    ----------
    .. [1] Clopper, C. J. and Pearson, E. S. (1934). The use of confidence or fiducial limits
       illustrated in the case of the binomial. Biometrika, 26(4), 404-413.

    Examples
    --------
    >>> r = binomial_test(12, 100, 0.05, alternative="greater")
    >>> round(r.pvalue, 5), r.confidence_interval(0.95).low > 0.05
    (0.00427, True)
    """
    from scipy import stats

    alternative = check_alternative(alternative)
    for value, name in ((errors, "errors"), (n, "n")):
        if isinstance(value, bool) or not float(value).is_integer() or value < 0:
            raise ValueError(f"{name} must be a non-negative integer count, got {value!r}.")
    errors, n = int(errors), int(n)
    if n == 0:
        raise ValueError("n must be at least 1: no cases were classified.")
    if errors > n:
        raise ValueError(f"errors ({errors}) cannot exceed the number of cases n ({n}).")
    rate = float(rate)
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"rate must be a probability in [0, 1], got {rate!r}.")
    res = stats.binomtest(errors, n, rate, alternative=alternative)

    def interval(level: float) -> tuple[float, float]:
        ci = res.proportion_ci(level, method="exact")
        return float(ci.low), float(ci.high)

    return TestResult(
        statistic=float(errors), pvalue=float(min(1.0, res.pvalue)), method="exact binomial test",
        alternative=alternative, estimate=errors / n, estimate_name="error rate", interval=interval,
        interval_method="Clopper-Pearson", extra={"n": n, "rate": rate},
    )


# ---------------------------------------------------------------------------------------------
# several classifiers
# ---------------------------------------------------------------------------------------------
def friedman(
    scores: Any,
    *,
    higher_is_better: bool = True,
    tie_correction: bool = False,
    names: Sequence[Any] | None = None,
) -> TestResult:
    """Friedman test: do the classifiers' average ranks differ more than chance allows?

    ``scores``: shape (n_datasets, n_classifiers). With average ranks ``R_j``,
    ``chi2 = 12N/(k(k+1)) (sum_j R_j^2 - k(k+1)^2/4)`` with k - 1 df (Demšar 2006, eq. for
    chi^2_F; no tie correction, as in the paper: ``tie_correction=True`` divides by
    ``1 - sum(t^3 - t)/(N k (k^2 - 1))`` as ``scipy.stats.friedmanchisquare`` does).
    ``extra["iman_davenport"]`` is the TestResult of Iman and Davenport's
    ``F = (N-1) chi2 / (N(k-1) - chi2)`` with (k-1, (k-1)(N-1)) df, which Demšar recommends
    (less conservative). ``extra["average_ranks"]`` holds the ranks (1 = best).

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_classifiers)
        The score of each classifier (column) on each data set (row); at least 2 of each.
    higher_is_better : bool, default True
        Whether larger scores are better (accuracies, AUCs); False for errors and losses.
    tie_correction : bool, default False
        Whether to divide the statistic by the correction for tied ranks.
    names : sequence of str, optional
        A name for each classifier (column), reported in ``extra["names"]``. Default None:
        "classifier 0", "classifier 1", ...

    Returns
    -------
    TestResult
        The Friedman chi-squared statistic on k - 1 degrees of freedom and its p-value;
        ``extra`` holds ``average_ranks``, the ``iman_davenport`` TestResult, ``n_datasets``,
        ``n_classifiers`` and ``names``.

    References
    ----------
    .. [1] Friedman, M. (1937). The use of ranks to avoid the assumption of normality implicit in
       the analysis of variance. Journal of the American Statistical Association, 32(200),
       675-701.
    .. [2] Iman, R. L. and Davenport, J. M. (1980). Approximations of the critical region of the
       Friedman statistic. Communications in Statistics - Theory and Methods, 9(6), 571-595.
    .. [3] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       Journal of Machine Learning Research, 7, 1-30.

    Examples
    --------
    >>> r = friedman([[1, 2, 3], [2, 3, 4], [1, 3, 2], [0, 1, 2]])
    >>> r.extra["average_ranks"], round(r.statistic, 2), round(r.extra["iman_davenport"].statistic, 2)
    ((3.0, 1.75, 1.25), 6.5, 13.0)
    """
    from scipy import stats

    s = _score_table(scores)
    n, k = s.shape
    ranks = _ranks(s, higher_is_better)
    avg = ranks.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (float((avg**2).sum()) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(chi2, 0.0)  # rounding below zero when every rank is equal
    notes: list[str] = []
    method = "Friedman test"
    if tie_correction:
        ties = 0.0
        for row in s if higher_is_better else -s:
            _, counts = np.unique(row, return_counts=True)
            ties += float((counts**3 - counts).sum())
        c = 1.0 - ties / (n * k * (k * k - 1))
        method = "Friedman test (tie-corrected)"
        chi2 = chi2 / c if c > 0 else 0.0
    df1, df2 = k - 1, (k - 1) * (n - 1)
    if chi2 == 0.0:
        notes.append("every classifier has the same average rank: nothing to test, p = 1")
        p, f, pf = 1.0, 0.0, 1.0
    else:
        p = float(stats.chi2.sf(chi2, df1))
        den = n * (k - 1) - chi2
        if den <= 1e-12 * n * k:
            f, pf = math.inf, 0.0
            notes.append("the ranks agree perfectly on every data set: Iman-Davenport F is infinite, p = 0")
        else:
            f = (n - 1) * chi2 / den
            pf = float(stats.f.sf(f, df1, df2))
    iman = TestResult(statistic=float(f), pvalue=pf, method="Iman-Davenport F test", df=(float(df1), float(df2)),
                      notes=tuple(notes))
    return TestResult(
        statistic=float(chi2), pvalue=p, method=method, df=float(df1), notes=tuple(notes),
        extra={"average_ranks": tuple(float(r) for r in avg), "iman_davenport": iman, "n_datasets": n,
               "n_classifiers": k, "names": _names(names, k)},
    )


def critical_value(k: int, alpha: float = 0.05, test: PostHoc = "nemenyi") -> float:
    """Demšar's ``q_alpha`` for ``k`` classifiers (Demšar 2006, Table 5).

    Nemenyi: the studentized range quantile (k groups, infinite df) divided by sqrt(2).
    Bonferroni-Dunn: the normal quantile ``z_{1 - alpha / (2 (k - 1))}``.

    >>> round(critical_value(4, 0.05), 3), round(critical_value(4, 0.05, "bonferroni-dunn"), 3)
    (2.569, 2.394)
    """
    from scipy import stats

    from clfeval.uncertainty.checks import normal_quantile

    alpha = _check_alpha(alpha)
    if isinstance(k, bool) or int(k) != k or k < 2:
        raise ValueError(f"k (the number of classifiers) must be an integer >= 2, got {k!r}.")
    k = int(k)
    if test == "nemenyi":
        if k == 2:  # the range of two normals / sqrt(2) is |N(0,1)|: exact, and faster
            return float(-normal_quantile(alpha / 2))  # the upper alpha/2 quantile, as norm.isf
        return float(stats.studentized_range.isf(alpha, k, np.inf) / math.sqrt(2.0))
    if test == "bonferroni-dunn":
        return float(-normal_quantile(alpha / (2 * (k - 1))))
    raise ValueError(f"test must be 'nemenyi' or 'bonferroni-dunn', got {test!r}.")


def critical_difference(k: int, n_datasets: int, alpha: float = 0.05, test: PostHoc = "nemenyi") -> float:
    """``CD = q_alpha sqrt(k(k+1)/(6N))``: average ranks this far apart differ significantly.

    >>> round(critical_difference(4, 14), 2), round(critical_difference(4, 14, test="bonferroni-dunn"), 2)
    (1.25, 1.17)
    """
    if isinstance(n_datasets, bool) or int(n_datasets) != n_datasets or n_datasets < 1:
        raise ValueError(f"n_datasets must be a positive integer, got {n_datasets!r}.")
    return critical_value(k, alpha, test) * _rank_se(int(k), int(n_datasets))


def _rank_se(k: int, n: int) -> float:
    """Standard error of the difference of two average ranks, sqrt(k(k+1)/(6N))."""
    return math.sqrt(k * (k + 1) / (6.0 * n))


def nemenyi_groups(avg_ranks: Sequence[float], cd: float) -> list[tuple[int, ...]]:
    """Maximal sets of classifiers (indices, best first) whose average ranks lie within less than
    ``cd`` of each other: the thick lines of a critical-difference diagram. Singletons are left out.

    >>> nemenyi_groups([1.0, 1.5, 2.9, 3.2], 1.0)
    [(0, 1), (2, 3)]
    """
    r = np.asarray(avg_ranks, dtype=np.float64)
    order = np.argsort(r, kind="stable")
    groups: list[tuple[int, ...]] = []
    last_end = -1
    for i in range(order.size):
        j = i
        while j + 1 < order.size and r[order[j + 1]] - r[order[i]] < cd:
            j += 1
        if j > i and j > last_end:  # not inside the previous group
            groups.append(tuple(int(x) for x in order[i: j + 1]))
            last_end = j
    return groups


def nemenyi(
    scores: Any,
    n_datasets: int | None = None,
    *,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    names: Sequence[Any] | None = None,
) -> TestResult:
    """Nemenyi post-hoc test: every pair of classifiers, by the critical difference of average ranks.

    ``scores``: the table (n_datasets, n_classifiers), or the average ranks (n_classifiers,)
    with ``n_datasets``. Two classifiers differ significantly when their average ranks differ by
    at least ``CD = q_alpha sqrt(k(k+1)/(6N))`` (Demšar 2006, sec. 3.2.2). ``extra`` holds
    ``critical_difference``, ``q_alpha``, ``average_ranks``, and k x k tables
    ``rank_differences`` (row minus column), ``pvalues`` (studentized range, infinite df) and
    ``significant``; ``groups`` lists the cliques not significantly different. ``statistic``
    is the studentized range of the average ranks; ``pvalue`` is the smallest pairwise p-value.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_classifiers) or (n_classifiers,)
        The score of each classifier on each data set, or the classifiers' average ranks
        (1 = best) when ``n_datasets`` is given.
    n_datasets : int, optional
        Number of data sets the average ranks were computed over; required with average
        ranks, left out (None, the default) with a score table.
    alpha : float, default 0.05
        Family-wise significance level.
    higher_is_better : bool, default True
        Whether larger scores are better (accuracies, AUCs); False for errors and losses.
    names : sequence of str, optional
        A name for each classifier (column), reported in ``extra["names"]``. Default None:
        "classifier 0", "classifier 1", ...

    Returns
    -------
    TestResult
        The studentized range of the average ranks and the smallest pairwise p-value, with the
        pairwise tables, the critical difference and the groups in ``extra``.

    References
    ----------
    .. [1] Nemenyi, P. B. (1963). Distribution-free multiple comparisons. PhD thesis, Princeton
       University.
    .. [2] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       Journal of Machine Learning Research, 7, 1-30.

    Examples
    --------
    >>> r = nemenyi([3.143, 2.000, 2.893, 1.964], n_datasets=14)
    >>> round(r.extra["critical_difference"], 3), any(map(any, r.extra["significant"]))
    (1.254, False)
    """
    from scipy import stats

    alpha = _check_alpha(alpha)
    avg, n = _ranks_or_scores(scores, n_datasets, higher_is_better)
    k = avg.size
    se = _rank_se(k, n)
    q = critical_value(k, alpha, "nemenyi")
    cd = q * se
    diff = avg[:, None] - avg[None, :]
    studentized = np.abs(diff) / se * math.sqrt(2.0)  # range of k standard normals
    if k == 2:
        pvals = 2.0 * stats.norm.sf(studentized / math.sqrt(2.0))
    else:
        pvals = stats.studentized_range.sf(studentized, k, np.inf)
    pvals = np.clip(pvals, 0.0, 1.0)
    np.fill_diagonal(pvals, 1.0)
    significant = np.abs(diff) >= cd
    np.fill_diagonal(significant, False)
    notes = ("every classifier has the same average rank: nothing to test, p = 1",) if np.ptp(avg) == 0 else ()
    return TestResult(
        statistic=float(np.ptp(avg) / se * math.sqrt(2.0)), pvalue=float(pvals.min()),
        method="Nemenyi test", notes=notes,
        extra={
            "critical_difference": float(cd), "q_alpha": q, "alpha": alpha, "n_datasets": n,
            "average_ranks": tuple(float(r) for r in avg), "names": _names(names, k),
            "rank_differences": _table(diff), "pvalues": _table(pvals),
            "significant": tuple(tuple(bool(v) for v in row) for row in significant),
            "groups": nemenyi_groups(avg, cd),
        },
    )


def _table(m: np.ndarray) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(float(v) for v in row) for row in m)


def _control_index(control: int, k: int) -> int:
    if isinstance(control, bool) or int(control) != control or not -k <= control < k:
        raise ValueError(f"control must be the index of a classifier, 0 to {k - 1}, got {control!r}.")
    return int(control) % k


def _versus_control(avg: np.ndarray, n: int, control: int) -> tuple[np.ndarray, np.ndarray]:
    """(z, raw two-sided p) of each classifier against the control; the control's own entry is 0 / 1."""
    from scipy import stats

    z = (avg - avg[control]) / _rank_se(avg.size, n)
    p = np.minimum(1.0, 2.0 * stats.norm.sf(np.abs(z)))
    p[control] = 1.0
    return z, p


def bonferroni_dunn(
    scores: Any,
    n_datasets: int | None = None,
    *,
    control: int = 0,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    names: Sequence[Any] | None = None,
) -> TestResult:
    """Bonferroni-Dunn test: each classifier against a ``control`` (index), by the critical difference.

    ``z_i = (R_i - R_c) / sqrt(k(k+1)/(6N))``; classifier i differs from the control when
    ``|R_i - R_c| >= CD`` with ``q_alpha = z_{1 - alpha/(2(k-1))}`` (Demšar 2006, sec. 3.2.2),
    i.e. when its Bonferroni-adjusted p-value ``min(1, (k-1) p_i)`` is at most ``alpha``.
    ``extra``: ``critical_difference``, ``z``, ``pvalues`` (raw), ``adjusted_pvalues``,
    ``significant`` (the control's own entries are 0, 1, 1, False). ``statistic`` is the largest
    ``|z|``, ``pvalue`` the smallest adjusted p-value.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_classifiers) or (n_classifiers,)
        The score of each classifier on each data set, or the classifiers' average ranks
        (1 = best) when ``n_datasets`` is given.
    n_datasets : int, optional
        Number of data sets the average ranks were computed over; required with average
        ranks, left out (None, the default) with a score table.
    control : int, default 0
        Index of the control classifier the others are compared with (negative indices count
        from the end).
    alpha : float, default 0.05
        Family-wise significance level.
    higher_is_better : bool, default True
        Whether larger scores are better (accuracies, AUCs); False for errors and losses.
    names : sequence of str, optional
        A name for each classifier (column), reported in ``extra["names"]``. Default None:
        "classifier 0", "classifier 1", ...

    Returns
    -------
    TestResult
        The largest ``|z|`` against the control and the smallest adjusted p-value, with the
        per-classifier results in ``extra``.

    References
    ----------
    .. [1] Dunn, O. J. (1961). Multiple comparisons among means. Journal of the American
       Statistical Association, 56(293), 52-64.
    .. [2] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       Journal of Machine Learning Research, 7, 1-30.

    Examples
    --------
    >>> r = bonferroni_dunn([3.143, 2.000, 2.893, 1.964], n_datasets=14, control=0)
    >>> round(r.extra["critical_difference"], 2), r.extra["significant"]
    (1.17, (False, False, False, True))
    """
    alpha = _check_alpha(alpha)
    avg, n = _ranks_or_scores(scores, n_datasets, higher_is_better)
    k = avg.size
    c = _control_index(control, k)
    z, p = _versus_control(avg, n, c)
    adjusted = np.minimum(1.0, p * (k - 1))
    adjusted[c] = 1.0
    q = critical_value(k, alpha, "bonferroni-dunn")
    cd = q * _rank_se(k, n)
    significant = np.abs(avg - avg[c]) >= cd
    significant[c] = False
    others = np.arange(k) != c
    return TestResult(
        statistic=float(np.abs(z[others]).max()), pvalue=float(adjusted[others].min()),
        method="Bonferroni-Dunn test", notes=_same_notes(avg),
        extra={
            "control": c, "critical_difference": float(cd), "q_alpha": q, "alpha": alpha, "n_datasets": n,
            "average_ranks": tuple(float(r) for r in avg), "names": _names(names, k),
            "z": tuple(float(v) for v in z), "pvalues": tuple(float(v) for v in p),
            "adjusted_pvalues": tuple(float(v) for v in adjusted),
            "significant": tuple(bool(v) for v in significant),
        },
    )


def _same_notes(avg: np.ndarray) -> tuple[str, ...]:
    return ("every classifier has the same average rank: nothing to test, p = 1",) if np.ptp(avg) == 0 else ()


@dataclass(frozen=True)
class MultipleComparison:
    """p-values adjusted for multiple testing: ``adjusted[i]`` belongs to ``pvalues[i]``;
    ``reject[i]`` says whether hypothesis i is rejected at family-wise level ``alpha``."""

    pvalues: tuple[float, ...]
    adjusted: tuple[float, ...]
    reject: tuple[bool, ...]
    alpha: float
    method: str

    def to_dict(self) -> dict[str, Any]:
        return {"pvalues": list(self.pvalues), "adjusted": list(self.adjusted), "reject": list(self.reject),
                "alpha": self.alpha, "method": self.method}


def holm(pvalues: Any, alpha: float = 0.05) -> MultipleComparison:
    """Holm's step-down procedure.

    Sorted ascending, ``p_(i)`` is compared with ``alpha / (m - i + 1)``; hypotheses are
    rejected until the first that passes (Holm 1979; Demšar 2006, sec. 3.2.2). The adjusted
    p-values ``max_{j <= i} min(1, (m - j + 1) p_(j))`` are monotone in the raw ones, at least
    as large, and ``reject == (adjusted <= alpha)``.

    Parameters
    ----------
    pvalues : array-like of shape (m,)
        The raw p-values of the m hypotheses, each in [0, 1].
    alpha : float, default 0.05
        Family-wise significance level the rejections are made at.

    Returns
    -------
    MultipleComparison
        The raw and adjusted p-values, in the input order, and which hypotheses are rejected.

    References
    ----------
    .. [1] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
       Scandinavian Journal of Statistics, 6(2), 65-70.
    .. [2] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       Journal of Machine Learning Research, 7, 1-30.

    Examples
    --------
    >>> r = holm([0.016, 0.019, 0.609])
    >>> [round(v, 3) for v in r.adjusted], r.reject
    ([0.048, 0.048, 0.609], (True, True, False))
    """
    alpha = _check_alpha(alpha)
    p = as_finite_floats(pvalues, "pvalues")
    if p.ndim != 1 or p.size == 0:
        raise ValueError(f"pvalues must be a non-empty 1-D array of p-values, got shape {p.shape}.")
    if np.any((p < 0) | (p > 1)):
        raise ValueError(f"p-values must lie in [0, 1]; got {p[(p < 0) | (p > 1)][0]!r}.")
    adjusted = holm_adjusted(p)
    return MultipleComparison(
        pvalues=tuple(float(v) for v in p), adjusted=tuple(float(v) for v in adjusted),
        reject=tuple(bool(v) for v in adjusted <= alpha), alpha=alpha, method="Holm step-down",
    )


def holm_control(
    scores: Any,
    n_datasets: int | None = None,
    *,
    control: int = 0,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    names: Sequence[Any] | None = None,
) -> TestResult:
    """Each classifier against a ``control`` (index) with Holm's step-down procedure.

    The p-values come from ``z = (R_i - R_c) / sqrt(k(k+1)/(6N))`` (normal, two-sided) and are
    adjusted with :func:`holm`; more powerful than :func:`bonferroni_dunn` (Demšar 2006,
    sec. 3.2.2). ``extra`` as for :func:`bonferroni_dunn`, without a critical difference.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_classifiers) or (n_classifiers,)
        The score of each classifier on each data set, or the classifiers' average ranks
        (1 = best) when ``n_datasets`` is given.
    n_datasets : int, optional
        Number of data sets the average ranks were computed over; required with average
        ranks, left out (None, the default) with a score table.
    control : int, default 0
        Index of the control classifier the others are compared with (negative indices count
        from the end).
    alpha : float, default 0.05
        Family-wise significance level.
    higher_is_better : bool, default True
        Whether larger scores are better (accuracies, AUCs); False for errors and losses.
    names : sequence of str, optional
        A name for each classifier (column), reported in ``extra["names"]``. Default None:
        "classifier 0", "classifier 1", ...

    Returns
    -------
    TestResult
        The largest ``|z|`` against the control and the smallest Holm-adjusted p-value, with
        ``z``, raw and adjusted p-values and ``significant`` per classifier in ``extra``.

    References
    ----------
    .. [1] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
       Scandinavian Journal of Statistics, 6(2), 65-70.
    .. [2] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       Journal of Machine Learning Research, 7, 1-30.

    Examples
    --------
    >>> r = holm_control([3.143, 2.000, 2.893, 1.964], n_datasets=14, control=0)
    >>> r.extra["significant"]
    (False, True, False, True)
    """
    alpha = _check_alpha(alpha)
    avg, n = _ranks_or_scores(scores, n_datasets, higher_is_better)
    k = avg.size
    c = _control_index(control, k)
    z, p = _versus_control(avg, n, c)
    others = np.arange(k) != c
    h = holm(p[others], alpha)
    adjusted = np.ones(k)
    adjusted[others] = h.adjusted
    significant = np.zeros(k, dtype=bool)
    significant[others] = h.reject
    return TestResult(
        statistic=float(np.abs(z[others]).max()), pvalue=float(adjusted[others].min()),
        method="Holm test against a control", notes=_same_notes(avg),
        extra={
            "control": c, "alpha": alpha, "n_datasets": n, "average_ranks": tuple(float(r) for r in avg),
            "names": _names(names, k), "z": tuple(float(v) for v in z), "pvalues": tuple(float(v) for v in p),
            "adjusted_pvalues": tuple(float(v) for v in adjusted),
            "significant": tuple(bool(v) for v in significant),
        },
    )
