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
sample drawn group by group (``sampling="by-group"``). The difference's interval is
estimate +/- z se (Wald, clipped to the measure's range of differences), the ratio's is taken on
the log scale; the p-value is the two-sided normal test of no difference, and
:func:`clfeval.uncertainty.multiplicity.holm_adjusted` adjusts the groups' p-values together (Holm 1979).

**Fairness summaries (max - min and min / max across groups).** These are not smooth at ties
between groups, so the delta method does not apply. Their intervals are percentile intervals of a
bootstrap over the groups' count cells (multinomial over every group's cells with the total fixed,
or within each group with its size fixed), never over rows. They are non-regular: when the
groups' true rates are equal, max - min is biased upwards and its interval tends to exclude 0 (it
covers 0 only when the estimate itself is small); away from ties it behaves like the interval of
one difference. ``benchmarks/coverage.py`` measures both.

>>> round(gap_variance(np.array([0.1, -0.1]), np.array([[0.0, 0.0], [0.0, 0.08]]), 0, np.array([2, 2])), 6)
0.1
"""

from __future__ import annotations

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


def gap_estimate(value: float, reference: float, u: np.ndarray, v_inside: np.ndarray, reference_sums: np.ndarray,
                 group: int, sizes: np.ndarray, *, level: float = 0.95, sampling: str = "cross-sectional",
                 bounds: tuple[float, float] = (0.0, 1.0), extra: tuple[float, float] = (0.0, 0.0)) -> GapEstimate:
    """The difference ``value - reference`` and the ratio ``value / reference`` with intervals and
    the p-value of no difference (see the module): ``u`` the influence of the group's cases on
    ``value``, ``v_inside`` their influence on ``reference`` (zeros for a reference group, whose
    cases are others), ``reference_sums`` the (G, 2) sums of the reference's influence and its
    square over each group's cases; ``bounds``: the measure's range; ``extra``: variance added to the
    difference's and to the log ratio's (:func:`boundary_variance`).

    >>> sums = np.array([[0.0, 0.0], [0.0, 0.005]])
    >>> g = gap_estimate(0.6, 0.5, np.array([0.1, -0.1]), np.array([0.05, -0.05]), sums, 0, np.array([2, 2]))
    >>> round(g.difference.estimate, 4), round(g.difference.standard_error, 4), round(g.pvalue, 4)
    (0.1, 0.1, 0.3173)
    """
    level = check_level(level)
    z = z_quantile(level)
    nan = float("nan")
    diff = value - reference
    span = bounds[1] - bounds[0]
    name = "delta method (case influence, Wald)"
    if np.isfinite(diff):
        se = (gap_variance(u - v_inside, reference_sums, group, sizes, sampling) + extra[0]) ** 0.5
        low, high = max(-span, diff - z * se), min(span, diff + z * se)
        if se > 0:
            from scipy.stats import norm

            p = float(2 * norm.sf(abs(diff) / se))
        else:
            p = 1.0 if diff == 0 else 0.0
        d = ConfidenceInterval(low, high, level, name, diff, se)
    else:
        p = nan
        d = ConfidenceInterval(nan, nan, level, name, nan, nan)
    log_name = "delta method (case influence, log scale)"
    if np.isfinite(diff) and value > 0 and reference > 0:
        scaled = reference_sums / np.array([reference, reference * reference])
        lse = (gap_variance(u / value - v_inside / reference, scaled, group, sizes, sampling) + extra[1]) ** 0.5
        lr = float(np.log(value / reference))
        r = ConfidenceInterval(float(np.exp(lr - z * lse)), float(np.exp(lr + z * lse)), level, log_name,
                               value / reference, lse)
    else:
        est = value / reference if np.isfinite(diff) and reference != 0 else nan
        r = ConfidenceInterval(nan, nan, level, log_name, est, nan)
    return GapEstimate(d, r, p)


def boundary_variance(u: np.ndarray, own: ConfidenceInterval) -> float:
    """The variance a group's influences ``u`` miss next to its own interval ``own``:
    max(0, se_own^2 - Var(u)), se_own = (high - low) / (2 z).

    At the edge of a measure's range (a recall of 9/9, an AUC of 1) every case's influence is 0, so
    the delta method says a group is known exactly; the group's own interval (Wilson, score or logit
    intervals, built for the edges) says how far it may be. Adding what the influences miss keeps
    the gap's interval at least as wide as that; inside the range, where the two agree, it adds
    little or nothing.

    >>> own = ConfidenceInterval(0.6637, 1.0, 0.95, "Wilson score", 1.0)
    >>> round(boundary_variance(np.zeros(9), own), 6)
    0.00736
    """
    if own.low is None or own.high is None or not (np.isfinite(own.low) and np.isfinite(own.high)):
        return 0.0
    u = np.asarray(u, dtype=np.float64)
    var = float(max(np.dot(u, u) - u.sum() ** 2 / max(u.size, 1), 0.0))
    se = (own.high - own.low) / (2 * z_quantile(own.level))
    return max(0.0, se * se - var)


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
