"""Intervals of F-beta and of two-class MCC assembled from binomial proportions of the cells.

The delta method (on the logit or Fisher-z scale) serves these measures well from about 20 cases
of every class on; below that, at one or two positives, the repository's coverage simulations
found its 95% intervals holding the truth only 77-88% of the time (a group of 20 cases with 1.5
expected positives). Both measures are functions of proportions that have score intervals of
their own, and those intervals stay honest at counts of 0, 1 and 2:

* **F-beta** (:func:`f_beta_interval`). Among the cases that are positive in truth or in
  prediction, m = TP + FP + FN, the share of true positives J = TP / m (the Jaccard index) is a
  binomial proportion given m, and among the e = FP + FN errors so is the share of misses
  s = FN / e. F-beta is a function of the two: log(1 / F - 1) = log((1 - J) / J) +
  log((1 - s + beta^2 s) / (1 + beta^2)), a sum of two terms with (asymptotically) independent
  estimates, so MOVER (Zou & Donner 2008) combines each term's Wilson limits into limits of the
  sum. For beta = 1 the second term is the constant log(1/2) and the interval is exactly the
  Wilson interval of J mapped through F1 = 2J / (1 + J). Where a share sits at 0 or 1 its
  estimate is taken at half a case in from the edge (the limits themselves are the score
  limits); F = 0 has lower limit 0 and F = 1 upper limit 1.
* **MCC of two classes** (:func:`mcc_bound`). MCC^2 = informedness x markedness, with
  informedness = TPR - FPR (two proportions of different true classes) and markedness =
  PPV - FOR (two proportions of different predicted classes), all of one sign. Newcombe's
  hybrid score intervals (Newcombe 1998, method 10 for independent proportions) bound each, and
  sign * sqrt(low_I x low_M) .. sign * sqrt(high_I x high_M) bounds MCC as if the two were
  perfectly correlated: conservative (they are correlated, not perfectly), which is why
  :func:`clfeval.uncertainty.confusion_intervals` reaches that far only where a margin of the
  table holds fewer than :data:`~clfeval.results.group_results.SMALL_CLASS_CASES` cases.

Weighted cases use Kish's effective number of cases for each proportion, as every proportion of
the report does (:func:`clfeval.uncertainty.proportions.kish_counts`).

>>> low, high = f_beta_interval(np.array(1.0), np.array(2.0), np.array(1.0))  # F1 = 2/5
>>> round(float(low), 4), round(float(high), 4)
(0.0872, 0.8231)
>>> low, high = mcc_bound(np.array(1.0), np.array(2.0), np.array(1.0), np.array(16.0))
>>> round(float(low), 4), round(float(high), 4)
(-0.0703, 0.7684)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.uncertainty.proportions import kish_counts, proportion_ci

__all__ = ["F_BETA_METHOD", "MCC_BOUND_METHOD", "f_beta_interval", "mcc_bound"]

#: how a method name says the F-beta interval (``{p}``: the proportions' method, e.g. "Wilson score")
F_BETA_METHOD = {
    True: "{p} interval of TP / (TP + FP + FN), mapped to F1 = 2J / (1 + J)",
    False: "MOVER from the {p} intervals of TP / (TP + FP + FN) and FN / (FN + FP)",
}
#: how a method name says the MCC bound
MCC_BOUND_METHOD = ("sqrt of the limits of informedness x markedness ({p}-based Newcombe intervals, "
                    "as if perfectly correlated)")


def _limits(x: np.ndarray, n: np.ndarray, n_sq: np.ndarray | None, level: float,
            method: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(estimate, low, high, estimate kept half a case in from 0 and 1) of x / n, over Kish's
    effective n when ``n_sq`` is given; NaN at n = 0."""
    if n_sq is not None:
        x, n = kish_counts(x, n, n_sq)
    ci = proportion_ci(x, n, level=level, method=method)
    p = np.asarray(ci.estimate, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        inside = np.where((p <= 0) | (p >= 1), (x + 0.5) / (n + 1.0), p)
    return p, np.asarray(ci.low, dtype=np.float64), np.asarray(ci.high, dtype=np.float64), inside


def f_beta_interval(tp: Any, fp: Any, fn: Any, beta: float = 1.0, *, level: float = 0.95,
                    method: str = "wilson", squares: tuple[Any, Any, Any] | None = None,
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Limits (low, high) of F-beta = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP), elementwise.

    ``tp``, ``fp``, ``fn``: counts (or sums of weights) of the class's cells, any shape;
    ``squares``: their sums of squared weights (weighted cases), else None; ``method``: the
    proportions' interval (:data:`clfeval.uncertainty.proportions.PROPORTION_METHODS`). NaN
    where TP + FP + FN = 0 (F undefined). See the module's docstring for the construction.

    >>> low, high = f_beta_interval(np.array([0.0, 9.0]), np.array([3.0, 1.0]), np.array([0.0, 0.0]))
    >>> low.round(4).tolist(), high.round(4).tolist()
    ([0.0, 0.7467], [0.7192, 0.991])
    """
    tp, fp, fn = (np.asarray(a, dtype=np.float64) for a in (tp, fp, fn))
    b2 = float(beta) ** 2
    sq = (None, None, None) if squares is None else tuple(np.asarray(a, dtype=np.float64) for a in squares)
    m, errors = tp + fp + fn, fp + fn
    j, j_low, j_high, j_inside = _limits(tp, m, None if sq[0] is None else sq[0] + sq[1] + sq[2], level, method)
    _, s_low, s_high, s_inside = _limits(fn, errors, None if sq[0] is None else sq[1] + sq[2], level, method)
    no_errors = errors <= 0  # s unknown: its limits are the whole range
    s_inside = np.where(no_errors, 0.5, s_inside)
    s_low, s_high = np.where(no_errors, 0.0, s_low), np.where(no_errors, 1.0, s_high)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        def log_odds_term(share: np.ndarray) -> np.ndarray:  # log((1 - J) / J), decreasing in J
            return np.log1p(-share) - np.log(share)

        def split_term(share: np.ndarray) -> np.ndarray:  # log((1 - s + b^2 s) / (1 + b^2)), monotone in s
            return np.log1p((b2 - 1.0) * share) - np.log1p(b2)

        a0 = log_odds_term(j_inside)
        a_low, a_high = log_odds_term(j_high), log_odds_term(j_low)
        b0 = split_term(s_inside)
        b_one, b_two = split_term(s_low), split_term(s_high)
        b_low, b_high = np.fmin(b_one, b_two), np.fmax(b_one, b_two)
        # MOVER for the sum a + b = log(1/F - 1): low side from the low limits, high side from the high ones
        sum_low = a0 + b0 - np.sqrt((a0 - a_low) ** 2 + (b0 - b_low) ** 2)
        sum_high = a0 + b0 + np.sqrt((a_high - a0) ** 2 + (b_high - b0) ** 2)
        f_high = np.where(j >= 1, 1.0, 1.0 / (1.0 + np.exp(sum_low)))
        f_low = np.where(j <= 0, 0.0, 1.0 / (1.0 + np.exp(sum_high)))
    undefined = m <= 0
    return np.where(undefined, np.nan, f_low), np.where(undefined, np.nan, f_high)


def _newcombe(x1: np.ndarray, n1: np.ndarray, x2: np.ndarray, n2: np.ndarray, sq1: Any, sq2: Any, level: float,
              method: str) -> tuple[np.ndarray, np.ndarray]:
    """Newcombe's MOVER limits of p1 - p2, two independent proportions (Newcombe 1998, method 10);
    a proportion of no cases is only known to lie in [0, 1] (then the limits are l1 - 1 .. u1, etc.)."""
    p1, l1, u1, _ = _limits(x1, n1, sq1, level, method)
    p2, l2, u2, _ = _limits(x2, n2, sq2, level, method)
    d = p1 - p2
    low = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    l1, u1, l2, u2 = (np.where(np.isnan(v), fill, v) for v, fill in ((l1, 0.0), (u1, 1.0), (l2, 0.0), (u2, 1.0)))
    unknown = np.isnan(p1) | np.isnan(p2)
    return np.where(unknown, l1 - u2, low), np.where(unknown, u1 - l2, high)


def _signed_root(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """sign * sqrt(a b) where a and b share a sign, else 0 (the geometric mean of two limits)."""
    same = np.sign(a) == np.sign(b)
    return np.where(same, np.sign(a) * np.sqrt(np.abs(a * b)), 0.0)


def mcc_bound(tp: Any, fp: Any, fn: Any, tn: Any, *, level: float = 0.95, method: str = "wilson",
              squares: tuple[Any, Any, Any, Any] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Conservative limits (low, high) of a two-class MCC from the cells, elementwise: the
    comonotone bound of sqrt(informedness x markedness) (see the module's docstring). Where a
    margin is empty (MCC 0/0 in the sample) the rates it divides are only known to lie in
    [0, 1], and the bound says what that leaves. ``squares``: the cells' sums of squared
    weights, else None.

    >>> low, high = mcc_bound(np.array(45.0), np.array(5.0), np.array(5.0), np.array(45.0))
    >>> round(float(low), 3), round(float(high), 3)
    (0.639, 0.88)
    """
    tp, fp, fn, tn = (np.asarray(a, dtype=np.float64) for a in (tp, fp, fn, tn))
    sq = (None,) * 4 if squares is None else tuple(np.asarray(a, dtype=np.float64) for a in squares)

    def total(i: int, k: int) -> Any:
        return None if sq[i] is None else sq[i] + sq[k]

    i_low, i_high = _newcombe(tp, tp + fn, fp, fp + tn, total(0, 2), total(1, 3), level, method)  # TPR - FPR
    m_low, m_high = _newcombe(tp, tp + fp, fn, fn + tn, total(0, 1), total(2, 3), level, method)  # PPV - FOR
    return _signed_root(i_low, m_low), _signed_root(i_high, m_high)
