"""McNemar's test: do two classifiers differ in accuracy on the same cases?

Only the discordant cases carry information: ``b`` (A right, B wrong) and ``c`` (A wrong, B
right). Under the null hypothesis each discordant case is as likely to go either way, so
``b ~ Binomial(b + c, 1/2)``. The estimate is the difference in accuracy ``(b - c) / n``
(A minus B) with Newcombe's hybrid score interval for paired proportions (Newcombe 1998,
method 10), or a Wald interval when only ``b``, ``c`` and ``n`` are known.

>>> r = mcnemar([1, 1, 0, 0, 1, 1], [1, 1, 0, 0, 0, 1], [0, 0, 0, 0, 1, 0])
>>> r.extra["b"], r.extra["c"], round(r.pvalue, 4), round(r.estimate, 4)
(3, 1, 0.625, 0.3333)
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np

from clfeval.inputs.labels import check_classification_targets
from clfeval.stats._result import TestResult, check_alternative

__all__ = ["mcnemar", "mcnemar_table", "MCNEMAR_METHODS"]

#: method key -> name reported in :attr:`TestResult.method`.
MCNEMAR_METHODS = {
    "exact": "McNemar's exact test (binomial)",
    "mid-p": "McNemar's mid-p test",
    "chi2": "McNemar's chi-squared test",
    "chi2-corrected": "McNemar's chi-squared test with continuity correction",
}
_NEWCOMBE = "Newcombe hybrid score (paired, method 10)"
_WALD = "Wald (paired proportions)"


def _count(value: Any, name: str) -> int:
    """A non-negative integer count, or a ValueError naming it."""
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a non-negative integer count, got {value!r}.") from None
    if isinstance(value, bool) or not math.isfinite(f) or f < 0 or f != round(f):
        raise ValueError(f"{name} must be a non-negative integer count, got {value!r}.")
    return int(round(f))


def _wilson(x: int, n: int, z: float) -> tuple[float, float]:
    p = x / n
    den = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def _newcombe(a: int, b: int, c: int, d: int, z: float) -> tuple[float, float]:
    """Newcombe (1998) method 10: Wilson limits of both margins combined with the phi correlation."""
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = _wilson(a + b, n, z)
    l2, u2 = _wilson(a + c, n, z)
    den = float(a + b) * (c + d) * (a + c) * (b + d)
    # Newcombe's continuity-corrected correlation: ad - bc shrunk by n/2 towards 0 when positive.
    num = float(a * d - b * c)
    num = num - n / 2 if num > n / 2 else (0.0 if num >= 0 else num)
    phi = num / math.sqrt(den) if den > 0 else 0.0
    dl = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    du = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    theta = p1 - p2
    return max(-1.0, theta - math.sqrt(max(dl, 0.0))), min(1.0, theta + math.sqrt(max(du, 0.0)))


def _wald_se(b: int, c: int, n: int) -> float:
    theta = (b - c) / n
    return math.sqrt(max(((b + c) / n - theta * theta) / n, 0.0))


def _wald(b: int, c: int, n: int, z: float) -> tuple[float, float]:
    theta = (b - c) / n
    half = z * _wald_se(b, c, n)
    return max(-1.0, theta - half), min(1.0, theta + half)


def _interval_fn(b: int, c: int, n: int | None, cells: tuple[int, int, int, int] | None, alternative: str):
    """level -> (low, high) of the accuracy difference; one-sided bounds for one-sided alternatives."""

    from clfeval.uncertainty.checks import z_quantile

    def interval(level: float) -> tuple[float, float]:
        two_level = level if alternative == "two-sided" else 2 * level - 1
        z = z_quantile(two_level)
        low, high = _newcombe(*cells, z) if cells is not None else _wald(b, c, n, z)
        if alternative == "less":
            return -1.0, high
        if alternative == "greater":
            return low, 1.0
        return low, high

    return interval


def _pvalue(b: int, c: int, method: str, alternative: str) -> tuple[float, float]:
    """(statistic, p-value) of the discordant counts; requires b + c > 0."""
    from scipy import stats

    m = b + c
    if method in ("exact", "mid-p"):
        # The statistic is b, the number of discordant cases won by A (binomial under H0).
        x = stats.binom(m, 0.5)
        if method == "exact":
            p = stats.binomtest(b, m, 0.5, alternative=alternative).pvalue
        else:
            # mid-p (Fagerland, Lydersen & Laake 2013): half the probability of the observed count.
            greater = x.sf(b) + 0.5 * x.pmf(b)  # P(X > b) + P(X = b) / 2
            less = x.cdf(b) - 0.5 * x.pmf(b)
            if alternative == "greater":
                p = greater
            elif alternative == "less":
                p = less
            else:
                p = 2 * min(greater, less)
        return float(b), float(min(1.0, p))
    diff = abs(b - c)
    if method == "chi2-corrected" and diff > 0:  # as R's mcnemar.test: no correction when b == c
        diff -= 1
    chi2 = diff * diff / m
    if alternative == "two-sided":
        p = stats.chi2.sf(chi2, 1)
    else:
        signed = math.copysign(math.sqrt(chi2), b - c)
        p = stats.norm.sf(signed) if alternative == "greater" else stats.norm.cdf(signed)
    return float(chi2), float(p)


def mcnemar_table(
    table_or_b: Any,
    c: Any = None,
    *,
    n: Any = None,
    method: Literal["exact", "mid-p", "chi2", "chi2-corrected"] = "exact",
    alternative: str = "two-sided",
) -> TestResult:
    """McNemar's test from counts: a 2x2 table, or the discordant counts ``b`` and ``c``.

    The table is ``[[both right, A right & B wrong], [A wrong & B right, both wrong]]`` (so
    ``b = table[0][1]``, ``c = table[1][0]``, as in R's ``mcnemar.test``). ``method``:

    * ``"exact"``: binomial test of ``b`` out of ``b + c`` at 1/2 (statistic: ``b``);
    * ``"mid-p"``: the same, counting half the probability of the observed ``b``;
    * ``"chi2"``: ``(b - c)^2 / (b + c)`` on 1 degree of freedom;
    * ``"chi2-corrected"``: ``(|b - c| - 1)^2 / (b + c)`` (Edwards' correction, not applied when
      ``b == c``, as R does). One-sided chi-squared p-values use the signed root, a z statistic.

    ``alternative="greater"``: A is more accurate than B. The estimate is ``(b - c) / n``, the
    accuracy of A minus that of B, with Newcombe's interval when the full table is given, a
    Wald interval when only ``b``, ``c`` and ``n`` are, and none without ``n``. No discordant
    cases: nothing to test, p = 1 with a note.

    Parameters
    ----------
    table_or_b : array-like of shape (2, 2) or int
        The paired 2x2 table described above, or, when ``c`` is given, the count ``b`` of cases
        that A classifies correctly and B does not.
    c : int, optional
        Count of cases that B classifies correctly and A does not. Default None: ``table_or_b``
        is the full table.
    n : int, optional
        Total number of cases, needed for the accuracy difference when only ``b`` and ``c`` are
        given (with a table it must equal the table's total). Default None.
    method : {"exact", "mid-p", "chi2", "chi2-corrected"}, default "exact"
        How the p-value is computed, as listed above.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means A is more accurate than B.

    Returns
    -------
    TestResult
        The statistic and p-value, the accuracy difference A - B as ``estimate`` (when ``n`` is
        known) with its interval, and ``extra`` holding ``b``, ``c`` and ``n``.

    References
    ----------
    .. [1] McNemar, Q. (1947). Note on the sampling error of the difference between correlated
       proportions or percentages. Psychometrika, 12(2), 153-157.
    .. [2] Edwards, A. L. (1948). Note on the "correction for continuity" in testing the
       significance of the difference between correlated proportions. Psychometrika, 13(3), 185-187.
    .. [3] Newcombe, R. G. (1998). Improved confidence intervals for the difference between
       binomial proportions based on paired data. Statistics in Medicine, 17(22), 2635-2650.
    .. [4] Fagerland, M. W., Lydersen, S. and Laake, P. (2013). The McNemar test for binary
       matched-pairs data: mid-p and asymptotic are better than exact conditional. BMC Medical
       Research Methodology, 13, 91.

    Examples
    --------
    >>> r = mcnemar_table([[794, 150], [86, 570]], method="chi2-corrected")
    >>> round(r.statistic, 3), f"{r.pvalue:.3e}"
    (16.818, '4.115e-05')
    >>> round(mcnemar_table(12, 4, n=100).pvalue, 4)  # from the discordant counts alone
    0.0768
    """
    if method not in MCNEMAR_METHODS:
        raise ValueError(f"method must be one of {list(MCNEMAR_METHODS)}, got {method!r}.")
    check_alternative(alternative)
    cells: tuple[int, int, int, int] | None = None
    if c is None:
        table = np.asarray(table_or_b)
        if table.shape != (2, 2):
            raise ValueError(
                "mcnemar_table needs a 2x2 table [[both right, A right & B wrong], "
                "[A wrong & B right, both wrong]] or the two discordant counts b and c; "
                f"got an array of shape {table.shape}."
            )
        names = ("table[0][0]", "table[0][1]", "table[1][0]", "table[1][1]")
        a, b, cc, d = (_count(v, k) for v, k in zip(table.reshape(-1).tolist(), names))
        if n is not None and _count(n, "n") != a + b + cc + d:
            raise ValueError(f"n = {n!r} does not equal the table's total {a + b + cc + d}.")
        cells = (a, b, cc, d)
        n_total: int | None = a + b + cc + d
        c_ = cc
    else:
        b = _count(table_or_b, "b")
        c_ = _count(c, "c")
        n_total = None if n is None else _count(n, "n")
        if n_total is not None and n_total < b + c_:
            raise ValueError(f"n = {n_total} is smaller than the b + c = {b + c_} discordant cases.")
    notes: list[str] = []
    extra: dict[str, Any] = {"b": b, "c": c_, "n": n_total}
    estimate = None if not n_total else (b - c_) / n_total
    interval = None
    interval_method = None
    if n_total:
        interval = _interval_fn(b, c_, n_total, cells, alternative)
        interval_method = _NEWCOMBE if cells is not None else _WALD
    elif n_total is None:
        notes.append("n (the number of cases) is not known: no estimate of the accuracy difference.")
    else:
        notes.append("the table is empty (0 cases): nothing to estimate.")
    if b + c_ == 0:
        notes.append("no discordant pairs (the classifiers are right and wrong on the same cases): "
                     "nothing to test, p = 1.")
        statistic, pvalue = 0.0, 1.0
    else:
        statistic, pvalue = _pvalue(b, c_, method, alternative)
    df = 1.0 if method.startswith("chi2") else None
    return TestResult(
        statistic=statistic,
        pvalue=pvalue,
        method=MCNEMAR_METHODS[method],
        alternative=alternative,
        estimate=estimate,
        estimate_name="accuracy difference (A - B)",
        df=df,
        interval=interval,
        interval_method=interval_method,
        notes=tuple(notes),
        extra=extra,
        standard_error=_wald_se(b, c_, n_total) if interval_method == _WALD else None,
    )


def mcnemar(
    y_true: Any,
    y_pred_a: Any,
    y_pred_b: Any,
    *,
    method: Literal["exact", "mid-p", "chi2", "chi2-corrected"] = "exact",
    alternative: str = "two-sided",
) -> TestResult:
    """McNemar's test comparing the correctness of two classifiers on the same cases.

    ``b`` counts the cases A gets right and B wrong, ``c`` the reverse; see
    :func:`mcnemar_table` for the methods. Labels may be of any type (binary or multiclass;
    for multilabel targets a case is right when its whole label row is).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels of the cases.
    y_pred_a : array-like, shaped like ``y_true``
        Predictions of classifier A on the same cases.
    y_pred_b : array-like, shaped like ``y_true``
        Predictions of classifier B on the same cases.
    method : {"exact", "mid-p", "chi2", "chi2-corrected"}, default "exact"
        How the p-value is computed (see :func:`mcnemar_table`).
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means A is more accurate than B.

    Returns
    -------
    TestResult
        As :func:`mcnemar_table` returns for the paired table of correct and wrong predictions,
        with the accuracy difference A - B and Newcombe's interval for it.

    References
    ----------
    .. [1] McNemar, Q. (1947). Note on the sampling error of the difference between correlated
       proportions or percentages. Psychometrika, 12(2), 153-157.
    .. [2] Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
       classification learning algorithms. Neural Computation, 10(7), 1895-1923.

    Examples
    --------
    >>> r = mcnemar([1, 1, 0, 0, 1, 1], [1, 1, 0, 0, 0, 1], [0, 0, 0, 0, 1, 0])
    >>> r.extra["b"], r.extra["c"], round(r.pvalue, 4)
    (3, 1, 0.625)
    >>> r = mcnemar([0, 1, 1, 0], [0, 1, 1, 0], [0, 1, 1, 0])
    >>> r.pvalue, r.notes[0][:23]
    (1.0, 'no discordant pairs (th')
    """
    targets_a = check_classification_targets(y_true, y_pred_a)
    targets_b = check_classification_targets(y_true, y_pred_b)
    right_a = _correct(targets_a.y_true, targets_a.y_pred)
    right_b = _correct(targets_b.y_true, targets_b.y_pred)
    a = int(np.count_nonzero(right_a & right_b))
    b = int(np.count_nonzero(right_a & ~right_b))
    c = int(np.count_nonzero(~right_a & right_b))
    d = right_a.size - a - b - c
    return mcnemar_table([[a, b], [c, d]], method=method, alternative=alternative)


def _correct(y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    hit = np.asarray(y_true == y_pred)
    if hit.shape != y_true.shape:  # incomparable label types
        hit = np.zeros(y_true.shape, dtype=bool)
    if hit.ndim == 2:
        hit = hit.all(axis=1)
    return hit.astype(bool, copy=False)
