"""Confidence intervals of binomial proportions: Wilson, Clopper-Pearson, Agresti-Coull, Jeffreys, Wald.

:func:`proportion_ci` is vectorised over arrays of counts (weighted counts too);
:data:`PROPORTION_METHODS` names its methods, and :data:`KISH` is the suffix of a method name
whose proportion was taken over Kish's effective number of cases.

>>> ci = proportion_ci(81, 100)
>>> round(ci.low, 4), round(ci.high, 4), ci.method
(0.7222, 0.8749, 'Wilson score')
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from clfeval.stats._result import ConfidenceInterval, check_level
from clfeval.uncertainty.checks import check_choice, first_bad, float_or_array, z_quantile

__all__ = ["PROPORTION_METHODS", "KISH", "proportion_ci", "kish_counts"]

#: Method key -> name reported in :attr:`ConfidenceInterval.method`.
PROPORTION_METHODS = {
    "wilson": "Wilson score",
    "clopper-pearson": "Clopper-Pearson (exact)",
    "agresti-coull": "Agresti-Coull",
    "jeffreys": "Jeffreys",
    "wald": "Wald (normal approximation)",
}
#: Suffix of the method name of a proportion over Kish's effective number of cases (weighted cases).
KISH = " (Kish effective sample size)"


def kish_counts(successes: Any, total: Any, total_squares: Any) -> tuple[np.ndarray, np.ndarray]:
    """A weighted proportion's (successes, total) in Kish's effective cases: total becomes
    (sum w)^2 / sum w^2 of its cases (Korn & Graubard 1998), successes the same share of it;
    (0, 0) where there are no cases. With unit weights the counts come back unchanged.

    >>> x, n = kish_counts(np.array(3.0), np.array(4.0), np.array(8.0))  # weights sum 4, their squares 8
    >>> float(x), float(n)
    (1.5, 2.0)
    """
    n = np.asarray(total, dtype=np.float64)
    n_sq = np.asarray(total_squares, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        n_eff = np.where(n_sq > 0, n**2 / np.where(n_sq > 0, n_sq, 1.0), 0.0)
        x = np.where(n > 0, np.asarray(successes, dtype=np.float64) / np.where(n > 0, n, 1.0), 0.0) * n_eff
    return x, n_eff


def proportion_ci(
    successes: Any,
    total: Any,
    *,
    level: float = 0.95,
    method: Literal["wilson", "clopper-pearson", "agresti-coull", "jeffreys", "wald"] = "wilson",
) -> ConfidenceInterval:
    """Confidence interval of a binomial proportion ``successes / total``.

    Vectorised: ``successes`` and ``total`` broadcast against each other; scalars give floats in
    ``low``/``high``/``estimate``, arrays give float arrays of the broadcast shape. Counts may be
    non-integer (weighted data); they must be finite, non-negative, with successes <= total.

    ``total == 0`` (no trials) leaves the proportion undefined (0/0): its estimate, low and high
    are NaN there, and only there.

    Methods (Brown, Cai & DasGupta 2001, Statistical Science 16:101-133): ``wilson`` (score
    interval, Wilson 1927), ``clopper-pearson`` (inverts two one-sided binomial tests; at least
    nominal coverage), ``agresti-coull`` (Wald at the Wilson centre with n + z^2 trials),
    ``jeffreys`` (equal-tailed Beta(x + 1/2, n - x + 1/2) quantiles, with low = 0 at x = 0 and
    high = 1 at x = n as Brown, Cai & DasGupta recommend) and ``wald`` (p +/- z se, zero width
    at 0 and n; shown for comparison, not recommended). Wald and Agresti-Coull are clipped to
    [0, 1].

    Parameters
    ----------
    successes : float or array-like
        Number (or weighted count) of successes, finite and non-negative.
    total : float or array-like
        Number (or weighted count) of trials, broadcastable with ``successes`` and at least as
        large.
    level : float, default 0.95
        Confidence level, between 0 and 1.
    method : {"wilson", "clopper-pearson", "agresti-coull", "jeffreys", "wald"}, default "wilson"
        How the limits are computed, as described above.

    Returns
    -------
    ConfidenceInterval
        The proportion as ``estimate`` with its limits (floats for scalar input, arrays of the
        broadcast shape otherwise); ``standard_error`` is set for "wald" only.

    References
    ----------
    .. [1] Wilson, E. B. (1927). Probable inference, the law of succession, and statistical
       inference. Journal of the American Statistical Association, 22(158), 209-212.
    .. [2] Clopper, C. J. and Pearson, E. S. (1934). The use of confidence or fiducial limits
       illustrated in the case of the binomial. Biometrika, 26(4), 404-413.
    .. [3] Agresti, A. and Coull, B. A. (1998). Approximate is better than "exact" for interval
       estimation of binomial proportions. The American Statistician, 52(2), 119-126.
    .. [4] Brown, L. D., Cai, T. T. and DasGupta, A. (2001). Interval estimation for a binomial
       proportion. Statistical Science, 16(2), 101-133.

    Examples
    --------
    >>> ci = proportion_ci(81, 100)
    >>> round(ci.low, 4), round(ci.high, 4), ci.method
    (0.7222, 0.8749, 'Wilson score')
    >>> ci = proportion_ci(np.array([0, 5, 10]), 10, method="clopper-pearson")
    >>> ci.low.round(4).tolist(), ci.high.round(4).tolist()
    ([0.0, 0.1871, 0.6915], [0.3085, 0.8129, 1.0])
    >>> proportion_ci(0, 0).low
    nan
    """
    level = check_level(level)
    check_choice(method, PROPORTION_METHODS, "method")
    try:
        x = np.asarray(successes, dtype=np.float64)
        n = np.asarray(total, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"successes and total must be numbers or arrays of numbers: {exc}") from None
    try:
        x, n = np.broadcast_arrays(x, n)
    except ValueError:
        raise ValueError(
            f"successes (shape {np.shape(successes)}) and total (shape {np.shape(total)}) do not broadcast."
        ) from None
    for name, a in (("successes", x), ("total", n)):
        if not np.isfinite(a).all():
            raise ValueError(
                f"{name} must be finite; found {a[~np.isfinite(a)].flat[0]} at {first_bad(~np.isfinite(a))}."
            )
        if (a < 0).any():
            raise ValueError(f"{name} must be non-negative; found {a[a < 0].flat[0]} at {first_bad(a < 0)}.")
    over = x > n * (1 + 1e-12)
    if over.any():
        raise ValueError(f"successes exceed total at {first_bad(over)} ({x[over].flat[0]} > {n[over].flat[0]}).")
    x = np.minimum(x, n)
    empty = n == 0
    nn = np.where(empty, 1.0, n)
    p = x / nn
    alpha = 1.0 - level
    z = z_quantile(level)
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "wilson":
            z2 = z * z
            centre = (x + z2 / 2) / (nn + z2)
            half = z * np.sqrt(x * ((nn - x) / nn) + z2 / 4) / (nn + z2)  # x (n - x) would overflow near 1e308
            low, high = centre - half, centre + half
        elif method == "agresti-coull":
            z2 = z * z
            nt = nn + z2
            pt = (x + z2 / 2) / nt
            half = z * np.sqrt(pt * (1 - pt) / nt)
            low, high = pt - half, pt + half
        elif method == "wald":
            half = z * np.sqrt(p * (1 - p) / nn)
            low, high = p - half, p + half
        else:
            from scipy.special import betaincinv

            shift = 0.5 if method == "jeffreys" else 0.0
            a_low = np.where(x > 0, x + shift, 1.0)
            b_high = np.where(x < nn, nn - x + shift, 1.0)
            low = betaincinv(a_low, nn - x + (shift or 1.0), alpha / 2)
            high = betaincinv(x + (shift or 1.0), b_high, 1 - alpha / 2)
    low = np.where(x <= 0, 0.0, np.clip(low, 0.0, 1.0))
    high = np.where(x >= nn, 1.0, np.clip(high, 0.0, 1.0))
    nan = np.nan
    low, high, p = (np.where(empty, nan, a) for a in (low, high, p))
    se = None
    if method == "wald":  # the only proportion interval made of a standard error
        with np.errstate(invalid="ignore"):
            se = float_or_array(np.where(empty, nan, np.sqrt(p * (1 - p) / nn)))
    return ConfidenceInterval(float_or_array(low), float_or_array(high), level, PROPORTION_METHODS[method],
                              float_or_array(p), standard_error=se)
