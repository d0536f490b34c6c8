"""Each case's influence on Hand & Till's M and the weighted one-vs-one AUC: their intervals.

Every pairwise AUC ``A[a, b]`` (class a against class b on score column a) is a two-sample U
statistic, ``sum over i in a, j in b of w_i w_j h(s_ia, s_ja) / (W_a W_b)`` with ``h`` 1, 1/2 or 0.
Its derivative with respect to the weight of one case (the infinitesimal jackknife, or the
delta method on the weighted empirical distribution) is

* for a case i of class a: ``(V_i - A[a, b]) / W_a``, ``V_i`` the share of class b it outscores
  on column a (ties half: DeLong's placement value);
* for a case j of class b: ``(P_j - A[a, b]) / W_b``, ``P_j`` the share of class a that
  outscores it on column a (ties half);
* 0 for the other cases.

M is linear in the pairwise AUCs (:func:`clfeval.formulas.hand_till.ovo_pair_weights`), so its
influence is the same weighted sum of theirs: every case enters the pairs of its own class, on
its own column and on every other class's column, and the correlations between pairs are kept.
The weighted variant's pair weights ``(n_a + n_b) / n`` are random under cross-sectional
sampling; their own term (:func:`clfeval.formulas.hand_till.ovo_share_gradient`) is added unless
``fixed_shares``. The variance is ``sum u_i^2 - (sum u_i)^2 / n`` over the cases' influences
``u_i = w_i * dM / dw_i`` (:func:`clfeval.uncertainty.influence.influence_variance`).

One pass per score column: each case's position among the column's distinct scores (one sort;
a binary search when they are given, which for random queries measured slower than sorting
again), then per-score sums. No (distinct scores x classes) table is formed. The estimates alone
(``influence=False``, unweighted) come from :func:`clfeval.statistics.scores.pairwise_u_validated`,
the U statistics ``clfeval.metrics.roc_auc_score(multi_class="ovo")`` reads.

>>> y = np.array([0, 0, 1, 1, 2, 2])
>>> s = np.array([[.8, .1, .1], [.3, .4, .3], [.2, .7, .1], [.5, .3, .2], [.1, .2, .7], [.3, .3, .4]])
>>> fit = ovo_influences(y, s, 3)
>>> round(fit.estimates["macro"], 6), round(float(fit.influence["macro"].sum()), 12)
(0.875, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from clfeval.formulas.hand_till import (
    hand_till_average,
    ovo_pair_weights,
    ovo_share_gradient,
)
from clfeval.uncertainty.influence import influence_variance

__all__ = ["OvoInfluence", "ovo_influences", "ovo_interval", "ovo_positions"]


@dataclass(frozen=True)
class OvoInfluence:
    """The U matrix, class supports, M estimates and per-case influences of one model.

    ``u``: (k, k) U statistics (:func:`clfeval.formulas.curves.mann_whitney_u` row by row);
    ``support``: (k,) class totals (weights); ``cases``: (k,) counts of cases with positive
    weight per class; ``estimates`` and ``influence``: by average ("macro", "weighted"), the
    estimate and (n,) influences ``u_i = w_i dM/dw_i``.
    """

    u: np.ndarray
    support: np.ndarray
    cases: np.ndarray
    estimates: dict[str, float] = field(default_factory=dict)
    influence: dict[str, np.ndarray] = field(default_factory=dict)

    def standard_error(self, average: str = "macro") -> float:
        """First-order standard error of the ``average`` estimate from the influences.

        >>> fit = ovo_influences(np.array([0, 1, 0, 1]), np.array([[.9, .1], [.4, .6], [.3, .7], [.2, .8]]), 2)
        >>> fit.estimates["macro"], fit.standard_error()
        (0.75, 0.25)
        """
        return influence_variance(self.influence[average]) ** 0.5


def ovo_positions(column: np.ndarray, distinct: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """(position of each score among the distinct scores, highest first; their number).

    ``distinct``: the column's distinct scores in decreasing order when already known (an
    Evaluation's ranking): found by binary search, no sort; a score not among them (a case of
    weight 0, which rankings leave out) goes to a neighbour, where its weight adds nothing.

    >>> ovo_positions(np.array([0.2, 0.9, 0.2]))[0].tolist(), ovo_positions(np.array([0.5]), np.array([0.9, 0.5]))[0].tolist()
    ([1, 0, 1], [1])
    """
    column = np.asarray(column, dtype=np.float64)
    if distinct is None:
        uniq, pos = np.unique(-column, return_inverse=True)
        return pos.reshape(-1), int(uniq.size)
    desc = np.asarray(distinct, dtype=np.float64)
    pos = np.searchsorted(-desc, -column)
    return np.minimum(pos, max(desc.size - 1, 0)), int(max(desc.size, 1))


def _safe_inverse(x: np.ndarray) -> np.ndarray:
    out = np.zeros_like(x, dtype=np.float64)
    np.divide(1.0, x, out=out, where=x > 0)
    return out


def ovo_influences(
    codes: np.ndarray,
    scores: np.ndarray,
    k: int,
    *,
    weight: np.ndarray | None = None,
    distinct: list[np.ndarray] | None = None,
    averages: tuple[str, ...] = ("macro", "weighted"),
    fixed_shares: bool = False,
    influence: bool = True,
) -> OvoInfluence:
    """U statistics, M estimates and each case's influence on them, from coerced inputs.

    ``codes``: (n,) class codes in [0, k); ``scores``: (n, k) finite scores, column c ranking
    class c; ``weight``: (n,) non-negative weights or None; ``distinct``: each column's distinct
    scores (decreasing), when known. ``fixed_shares``: treat the weighted average's pair weights
    as fixed (stratified sampling). ``influence=False`` gives the estimates only.

    >>> fit = ovo_influences(np.array([0, 1, 2, 1]), np.eye(3)[[0, 1, 2, 0]], 3, influence=False)
    >>> fit.u.tolist()[0], round(fit.estimates["macro"], 4), fit.influence
    ([0.5, 1.5, 1.0], 0.875, {})
    """
    codes = np.asarray(codes, dtype=np.intp)
    n = codes.size
    if weight is None and not influence:  # the sklearn-compatible path: one packed sort per column
        from clfeval.statistics.scores import pairwise_u_validated

        support = np.bincount(codes, minlength=k)[:k]
        u = pairwise_u_validated(codes, np.asarray(scores, dtype=np.float64), k)
        return OvoInfluence(u, support.astype(np.float64), support,
                            {avg: hand_till_average(u, support, avg) for avg in averages})
    w = np.ones(n) if weight is None else np.asarray(weight, dtype=np.float64)
    support = np.bincount(codes, weights=w, minlength=k)[:k]
    cases = np.bincount(codes[w > 0], minlength=k)[:k]
    inv_support = _safe_inverse(support)
    omegas = {avg: ovo_pair_weights(support, avg) for avg in averages}
    u_mat = np.full((k, k), np.nan)
    infl = {avg: np.zeros(n) for avg in averages} if influence else {}
    for a in np.flatnonzero(support > 0):
        pos, d = ovo_positions(scores[:, a], None if distinct is None else distinct[a])
        is_a = codes == a
        mass_a = np.bincount(pos, weights=np.where(is_a, w, 0.0), minlength=d)
        above_a = np.cumsum(mass_a) - mass_a
        above_a += 0.5 * mass_a  # class-a weight above each score, ties half
        p = above_a[pos]  # per case: class-a weight that outscores it on column a
        u_row = np.bincount(codes, weights=w * p, minlength=k)[:k]
        u_row[a] = support[a] ** 2 / 2
        u_mat[a] = u_row
        if not influence:
            continue
        auc_row = u_row * inv_support[a] * inv_support  # A[a, b]; 0 where b is absent
        for avg, omega in omegas.items():
            row = omega[a]
            coef = (row * inv_support)[codes]  # omega[a, b] / W_b per case of class b (0 for class a)
            g = coef * (p * inv_support[a] - auc_row[codes])  # the class-b cases' terms
            x = np.bincount(pos, weights=w * coef, minlength=d)  # sum of omega[a, b] / W_b over cases
            below = x.sum() - np.cumsum(x)
            below += 0.5 * x
            g_a = (below[pos] - float(np.dot(row, auc_row))) * inv_support[a]  # the class-a cases' term
            infl[avg] += np.where(is_a, g_a, g)
    estimates = {avg: hand_till_average(u_mat, support, avg) for avg in averages}
    if influence and "weighted" in infl and not fixed_shares:
        infl["weighted"] += ovo_share_gradient(u_mat, support)[codes]
    return OvoInfluence(u_mat, support, cases, estimates, {avg: g * w for avg, g in infl.items()})


def ovo_interval(fit: OvoInfluence, average: str, level: float) -> Any:
    """Interval of one average from the influences: on the logit scale with the t quantile of
    (fewest cases of a class present) - 1 degrees of freedom, as the one-vs-rest averages of an
    Evaluation (:func:`clfeval.uncertainty.influence.area_interval`).

    >>> fit = ovo_influences(np.array([0, 1, 0, 1, 2, 2]), np.eye(3)[[0, 1, 1, 1, 2, 0]] + 0.1, 3)
    >>> iv = ovo_interval(fit, "macro", 0.95)
    >>> round(iv.estimate, 4), iv.method
    (0.75, 'delta method (case influence on the one-vs-one AUCs, logit scale, t(1) quantile)')
    """
    from clfeval.uncertainty.influence import area_interval

    present = fit.cases[fit.support > 0]
    df = max(float(present.min()) - 1, 1.0) if present.size else None
    iv = area_interval("roc_auc", fit.estimates[average], fit.influence[average], level, df=df)
    return replace(iv, method=iv.method.replace("case influence", "case influence on the one-vs-one AUCs"))

