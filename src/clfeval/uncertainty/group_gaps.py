"""Intervals on the differences between groups, and on the fairness summaries across groups.

**Gaps (a group against the overall, another group, or the best group).** A measure of a group
and the same measure of the overall data are not two independent samples: the group's cases are
among the overall's. Both are smooth functions of the weighted cell totals of all cases, so the
delta method gives the variance of their difference from each case's influence on each
(:mod:`clfeval.uncertainty.influence`): with u_i the influence of case i on the group's measure
(0 outside the group) and v_i its influence on the reference's,

    psi_i = u_i - v_i                                   (difference)
    psi_i = u_i / f_group - v_i / f_reference           (log of the ratio)
    Var   = sum_i psi_i^2 - (sum_i psi_i)^2 / n         (cases drawn whatever their group)
    Var   = sum_h [sum_{i in h} psi_i^2 - (sum_{i in h} psi_i)^2 / n_h]   (so many cases per group)

The first is the default ("cross-sectional": a test set drawn from the population, so the groups'
sizes vary between samples as they do in reality); the second holds the group sizes fixed, for a
sample drawn group by group (``sampling="by-group"``). The standard error of the difference is
the delta method's; its limits are Zou & Donner's MOVER limits (:func:`mover_bounds`), built from
the group's and the reference's own intervals (Wilson, logit DeLong, ...) and the correlation of
the two estimates that the influences give, so that a group at the edge of the range (a recall
of 1/1, where every influence is 0 and a Wald interval is a point) keeps the width of its own
interval; the ratio's limits are the same on the log scale. The p-value is the two-sided normal
test of no difference with the standard error read off the limit on the side of 0 (the interval
excludes 0 exactly when p < 1 - level), and
:func:`clfeval.uncertainty.multiplicity.holm_adjusted` adjusts the groups' p-values together (Holm 1979).

**Fairness summaries (max - min and min / max across groups).** These are not smooth at ties
between groups, so the delta method does not apply, and a bootstrap is no cure: when the groups'
true rates are equal, max - min is biased upwards and a percentile interval of a bootstrap over
the groups' count cells (:func:`resampled_group_tables`) excludes 0 nearly always
(``benchmarks/group_coverage.py``: 0-34% at ties). The default limits are
:func:`spread_limits`: simultaneous Wilson intervals of every group's rate, valid at ties and away
from them, conservative; the bootstrap stays available for comparison.

>>> round(gap_variance(np.array([0.1, -0.1]), np.array([[0.0, 0.0], [0.0, 0.08]]), 0, np.array([2, 2])), 6)
0.1
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from clfeval.stats._result import ConfidenceInterval, check_level
from clfeval.uncertainty.checks import check_choice, z_quantile
from clfeval.uncertainty.resampling import index_draws

__all__ = ["GROUP_SAMPLING", "holm_adjusted", "gap_variance", "GapEstimate", "gap_estimate",
           "resampled_group_tables"]

#: how the groups were sampled: "cross-sectional" (sizes vary) or "by-group" (sizes fixed)
GROUP_SAMPLING = ("cross-sectional", "by-group")


def gap_variance(inside: np.ndarray, reference_sums: np.ndarray, group: int, sizes: np.ndarray,
                 sampling: str = "cross-sectional") -> float:
    """First-order variance of a statistic whose per-case influence is ``inside`` on the cases of
    group ``group`` and minus the reference's influence v elsewhere (see the module).

    ``reference_sums``: (G, 2) sums of v and of v^2 over each group's cases (group ``group``'s row
    is not used: its cases are in ``inside``); ``sizes``: (G,) cases per group; ``sampling`` one of
    :data:`GROUP_SAMPLING`.

    >>> sums = np.array([[0.0, 0.0], [0.0, 0.08]])
    >>> round(gap_variance(np.array([0.1, -0.1]), sums, 0, np.array([2, 2])), 6)
    0.1
    """
    sampling = check_choice(sampling, GROUP_SAMPLING, "sampling")
    a = np.asarray(inside, dtype=np.float64)
    others = np.ones(sizes.shape[0], dtype=bool)
    others[group] = False
    v1, v2 = reference_sums[others, 0], reference_sums[others, 1]
    if sampling == "cross-sectional":
        s2 = float(np.dot(a, a) + v2.sum())
        s1 = float(a.sum() - v1.sum())
        var = s2 - s1 * s1 / max(int(sizes.sum()), 1)
    else:
        n = sizes[others].astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            rest = np.where(n > 0, v2 - v1 * v1 / np.maximum(n, 1.0), 0.0).sum()
        var = float(np.dot(a, a) - a.sum() ** 2 / max(a.size, 1) + rest)
    return max(var, 0.0)


class GapEstimate:
    """One group against its reference: ``difference`` and ``ratio`` as :class:`ConfidenceInterval`
    (estimate, low, high, standard error), and ``pvalue`` of no difference."""

    __slots__ = ("difference", "ratio", "pvalue")

    def __init__(self, difference: ConfidenceInterval, ratio: ConfidenceInterval, pvalue: float) -> None:
        self.difference, self.ratio, self.pvalue = difference, ratio, pvalue


def mover_bounds(estimate: float, own: ConfidenceInterval, ref: ConfidenceInterval, correlation: float,
                 transform: Any = None) -> tuple[float, float]:
    """Zou & Donner's MOVER limits of ``f(own) - f(ref)`` (``transform`` f, default the identity)
    from each estimate's own interval and the correlation r of the two estimates:

        L = d - sqrt((a - l1)^2 + (u2 - b)^2 - 2 r (a - l1)(u2 - b))
        U = d + sqrt((u1 - a)^2 + (b - l2)^2 - 2 r (u1 - a)(b - l2))

    (Zou & Donner 2008, Comput. Stat. Data Anal. 52:2367; Newcombe 1998 for two independent
    proportions). Each estimate's own interval (Wilson, logit DeLong, ...) carries its asymmetry
    near the edge of the range, where a Wald interval collapses to a point.

    >>> own = ConfidenceInterval(0.2065, 1.0, 0.95, "Wilson", 1.0)
    >>> ref = ConfidenceInterval(0.7, 0.8, 0.95, "Wilson", 0.75)
    >>> [round(x, 4) for x in mover_bounds(0.25, own, ref, 0.0)]
    [-0.5451, 0.3]
    """
    f = (lambda x: x) if transform is None else transform
    a, l1, u1 = f(own.estimate), f(own.low), f(own.high)
    b, l2, u2 = f(ref.estimate), f(ref.low), f(ref.high)
    down = (a - l1) ** 2 + (u2 - b) ** 2 - 2 * correlation * (a - l1) * (u2 - b)
    up = (u1 - a) ** 2 + (b - l2) ** 2 - 2 * correlation * (u1 - a) * (b - l2)
    return estimate - math.sqrt(max(down, 0.0)), estimate + math.sqrt(max(up, 0.0))


def gap_estimate(value: float, reference: float, u: np.ndarray, v_inside: np.ndarray, reference_sums: np.ndarray,
                 group: int, sizes: np.ndarray, *, level: float = 0.95, sampling: str = "cross-sectional",
                 bounds: tuple[float, float] = (0.0, 1.0),
                 own: tuple[ConfidenceInterval, ConfidenceInterval] | None = None) -> GapEstimate:
    """The difference ``value - reference`` and the ratio ``value / reference`` with intervals and
    the p-value of no difference (see the module): ``u`` the influence of the group's cases on
    ``value``, ``v_inside`` their influence on ``reference`` (zeros for a reference group, whose
    cases are others), ``reference_sums`` the (G, 2) sums of the reference's influence and its
    square over each group's cases; ``bounds``: the measure's range; ``own``: the group's and the
    reference's own intervals at ``level``, for the MOVER limits (:func:`mover_bounds`; without
    them, or where one is undefined, Wald limits). The standard error is the delta method's in both.

    >>> sums = np.array([[0.0, 0.0], [0.0, 0.005]])
    >>> g = gap_estimate(0.6, 0.5, np.array([0.1, -0.1]), np.array([0.05, -0.05]), sums, 0, np.array([2, 2]))
    >>> round(g.difference.estimate, 4), round(g.difference.standard_error, 4), round(g.pvalue, 4)
    (0.1, 0.1, 0.3173)
    """
    from scipy.stats import norm

    level = check_level(level)
    z = z_quantile(level)
    nan = float("nan")
    diff = value - reference
    span = bounds[1] - bounds[0]
    usable = own is not None and all(
        c is not None and c.low is not None and c.high is not None
        and bool(np.isfinite([c.low, c.high, c.estimate]).all()) for c in own)
    name = "MOVER (own intervals, delta-method correlation)" if usable else "delta method (case influence, Wald)"
    if not np.isfinite(diff):
        return GapEstimate(ConfidenceInterval(nan, nan, level, name, nan, nan),
                           ConfidenceInterval(nan, nan, level, name + ", log scale", nan, nan), nan)
    var_d = gap_variance(u - v_inside, reference_sums, group, sizes, sampling)
    se = var_d ** 0.5
    correlation = 0.0
    if usable:
        var_g = gap_variance(u, np.zeros_like(reference_sums), group, sizes, sampling)
        var_r = gap_variance(-v_inside, reference_sums, group, sizes, sampling)
        if var_g > 0 and var_r > 0:
            correlation = float(np.clip((var_g + var_r - var_d) / (2 * math.sqrt(var_g * var_r)), -1.0, 1.0))
        low, high = mover_bounds(diff, own[0], own[1], correlation)
    else:
        low, high = diff - z * se, diff + z * se
    low, high = max(-span, low), min(span, high)
    half = (diff - low) if diff >= 0 else (high - diff)  # the side toward no difference
    p = float(2 * norm.sf(abs(diff) * z / half)) if half > 0 else (1.0 if diff == 0 else 0.0)
    d = ConfidenceInterval(low, high, level, name, diff, se)
    if value > 0 and reference > 0:
        scaled = reference_sums / np.array([reference, reference * reference])
        lse = gap_variance(u / value - v_inside / reference, scaled, group, sizes, sampling) ** 0.5
        lr = math.log(value / reference)
        if usable and own[0].low > 0 and own[1].low > 0:
            lo, hi = mover_bounds(lr, own[0], own[1], correlation, math.log)
        else:
            lo, hi = lr - z * lse, lr + z * lse
        r = ConfidenceInterval(math.exp(lo), math.exp(hi), level, name + ", log scale", value / reference, lse)
    else:
        est = value / reference if reference != 0 else nan
        r = ConfidenceInterval(nan, nan, level, name + ", log scale", est, nan)
    return GapEstimate(d, r, p)


def spread_limits(successes: Any, totals: Any, level: float, n_intervals: int | None = None
                  ) -> tuple[float, float, float, float]:
    """Limits of max - min and of min / max of the groups' true rates ``successes / totals``
    (groups with no trials left out), from simultaneous Wilson intervals of each group's rate
    (Bonferroni over ``n_intervals``, default the groups): when every group's interval holds its rate,
    max - min lies in [max(0, max l - min u), max u - min l] and min / max in
    [min l / max u, min(1, min u / max l)], so the limits hold with probability at least ``level``,
    at ties between groups too (where max - min is non-regular and a bootstrap interval misses 0).
    Conservative: each group's interval is wider than a single 95% interval.

    >>> [round(x, 4) for x in spread_limits([10, 30], [100, 100], 0.95)]
    [0.0214, 0.3595, 0.1238, 0.8975]
    """
    from clfeval.uncertainty.proportions import proportion_ci

    x, n = np.asarray(successes, dtype=np.float64), np.asarray(totals, dtype=np.float64)
    keep = n > 0
    if not keep.any():
        return (float("nan"),) * 4
    m = int(keep.sum()) if n_intervals is None else int(n_intervals)
    ci = proportion_ci(x[keep], n[keep], level=1 - (1 - check_level(level)) / max(m, 1))
    low, high = np.asarray(ci.low, dtype=np.float64), np.asarray(ci.high, dtype=np.float64)
    d_low, d_high = max(0.0, float(low.max() - high.min())), float(high.max() - low.min())
    r_low = float(low.min() / high.max()) if high.max() > 0 else float("nan")
    r_high = min(1.0, float(high.min() / low.max())) if low.max() > 0 else 1.0
    return d_low, d_high, r_low, r_high


def resampled_group_tables(tables: np.ndarray, n_resamples: int, seed: Any, sampling: str = "cross-sectional"
                           ) -> np.ndarray:
    """(B, G, *cell_shape) bootstrap replicates of the groups' integer count tables ``tables``
    (G, *cell_shape): multinomial over every group's cells with the total fixed
    ("cross-sectional") or within each group with its size fixed ("by-group").

    >>> r = resampled_group_tables(np.array([[[5, 1], [2, 2]], [[3, 0], [1, 4]]]), 3, 0, "by-group")
    >>> r.shape, r.sum(axis=(2, 3)).tolist()
    ((3, 2, 2, 2), [[10, 8], [10, 8], [10, 8]])
    """
    sampling = check_choice(sampling, GROUP_SAMPLING, "sampling")
    t = np.asarray(tables)
    if t.dtype.kind not in "iu":
        raise ValueError("a bootstrap over count cells needs integer counts; weighted cells have no "
                         "multinomial to resample.")
    rng = np.random.default_rng(seed)
    G = t.shape[0]
    flat = t.reshape(G, -1).astype(np.int64)
    if sampling == "cross-sectional":
        total = int(flat.sum())
        cells = flat.reshape(-1)
        if 5 * cells.size > total:  # many cells per case (many groups): count drawn cases, in chunks
            step = max(1, (1 << 23) // max(total, 1))
            out = np.concatenate([index_draws(cells, total, min(step, n_resamples - b), rng)
                                  for b in range(0, n_resamples, step)])
        else:
            out = rng.multinomial(total, cells / total, size=n_resamples)
    else:
        sizes = flat.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.where(sizes[:, None] > 0, flat / np.maximum(sizes, 1)[:, None], 0.0)
        out = np.stack([rng.multinomial(int(nh), ph, size=n_resamples) if nh else
                        np.zeros((n_resamples, flat.shape[1]), np.int64) for nh, ph in zip(sizes, p)], axis=1)
    return out.reshape((n_resamples,) + t.shape)
