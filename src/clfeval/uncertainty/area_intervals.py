"""Confidence intervals of the areas under a ranking's curves (ROC AUC, average precision).

Read from the per-score counts of a :class:`~clfeval.statistics.rankings.BinaryRanking`, never from rows:
DeLong's variance of the AUC needs only each score's counts of positives and negatives (every
positive at one score has the same placement among the negatives, and the reverse), so it costs
one pass over the distinct scores; so does the case-influence variance of average precision.
Each method here is the one that held its nominal level in the coverage simulation
(``benchmarks/coverage.py``, binormal scores, prevalence 0.1 and 0.5, n = 60 to 1000):

* analytic: :func:`logit_delong_interval` (DeLong on the logit scale, a t quantile) and
  :func:`average_precision_interval` (case influence on the logit scale, a t quantile);
* ``method="delong"``: pROC's plain DeLong interval, :func:`delong_interval`, kept for users who
  must match pROC (it covers too little with few positives);
* bootstrap and BCa: :func:`bootstrap_area_intervals`.

>>> from clfeval.statistics.rankings import BinaryRanking
>>> r = BinaryRanking(np.array([0.9, 0.8, 0.7, 0.6, 0.5]), np.array([0, 1, 0, 1, 1]), np.array([1, 0, 1, 1, 0]))
>>> auc, var = delong_variance(r)
>>> round(auc, 4), round(var, 4)
(0.7222, 0.0617)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.formulas.curves import placement_values
from clfeval.uncertainty.scales import logit_interval
from clfeval.stats._result import ConfidenceInterval, check_level

__all__ = ["delong_variance", "delong_interval", "logit_delong_interval", "average_precision_interval",
           "logit_ap_interval", "delong_variances", "bootstrap_area_intervals", "ranking_area_intervals"]


def _counts(ranking: Any) -> tuple[np.ndarray, np.ndarray]:
    pos = np.asarray(ranking.pos, dtype=np.float64)
    neg = 1.0 - pos if ranking.neg is None else np.asarray(ranking.neg, dtype=np.float64)
    return neg, pos


def delong_variance(ranking: Any) -> tuple[float, float]:
    """(AUC, DeLong's variance of it) from the ranking's counts; NaN when a class has fewer than 2.

    DeLong, DeLong & Clarke-Pearson (1988): placements V10 of the positives and V01 of the
    negatives (ties count half); variance = var(V10) / m + var(V01) / n.
    """
    neg, pos = _counts(ranking)
    auc, var = delong_variances(neg, pos)
    return float(auc), float(var)


def delong_variances(neg: Any, pos: Any) -> tuple[np.ndarray, np.ndarray]:
    """(AUC, DeLong's variance) of per-score counts (..., D), highest score first, batched over
    leading axes: one call for all bootstrap replicates. AUC NaN without a case of each class;
    variance NaN below 2 cases of a class.

    >>> auc, var = delong_variances(np.array([[0, 1, 0, 0, 1]]), np.array([[1, 0, 1, 1, 0]]))
    >>> auc.round(4).tolist(), var.round(4).tolist()  # placements: 1, 1/2, 1/2 and 1/3, 1
    ([0.6667], [0.1389])
    """
    neg = np.asarray(neg, dtype=np.float64)
    pos = np.asarray(pos, dtype=np.float64)
    m, n = pos.sum(axis=-1, keepdims=True), neg.sum(axis=-1, keepdims=True)
    v10, v01 = placement_values(neg, pos)
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = (pos * v10).sum(axis=-1, keepdims=True) / m
        s10 = (pos * (v10 - auc) ** 2).sum(axis=-1) / (m[..., 0] - 1)
        s01 = (neg * (v01 - auc) ** 2).sum(axis=-1) / (n[..., 0] - 1)
        var = s10 / m[..., 0] + s01 / n[..., 0]
    auc = np.where((m > 0) & (n > 0), auc, np.nan)[..., 0]
    return auc, np.where((m[..., 0] >= 2) & (n[..., 0] >= 2), var, np.nan)


def delong_interval(ranking: Any, level: float = 0.95) -> ConfidenceInterval:
    """The AUC with DeLong's normal interval, clipped to [0, 1], as pROC's ``ci.auc`` gives it
    (``method="delong"``). NaN bounds where the variance is undefined (fewer than 2 cases of a
    class). Near 1 with few positives it covers too little (81-88% with 6-10 positives in
    ``benchmarks/coverage.py``): :func:`logit_delong_interval` is the default."""
    from clfeval.uncertainty.checks import z_quantile

    level = check_level(level)
    auc, var = delong_variance(ranking)
    se = float(np.sqrt(var))
    if not np.isfinite(se):
        return ConfidenceInterval(float("nan"), float("nan"), level, DELONG, auc, se)
    half = z_quantile(level) * se
    return ConfidenceInterval(max(0.0, auc - half), min(1.0, auc + half), level, DELONG, auc, se)


DELONG = "DeLong"
LOGIT_DELONG = "DeLong, logit scale, t(min(P, N) - 1) quantile; Hanley-McNeil score bound at AUC 0 or 1"
LOGIT_AP = "case influence, logit scale, t(min(P, N) - 1) quantile; Wilson bound of P out of P at AP 1"


def _t_quantile(level: float, df: float) -> float:
    from scipy.stats import t

    return float(t.ppf(0.5 + level / 2, df))


def _hanley_mcneil_se(auc: float, m: float, n: float) -> float:
    """Hanley & McNeil's (1982) standard error of an AUC of ``auc`` from m positives, n negatives."""
    q1, q2 = auc / (2 - auc), 2 * auc * auc / (1 + auc)
    return float(np.sqrt(max(auc * (1 - auc) + (m - 1) * (q1 - auc**2) + (n - 1) * (q2 - auc**2), 0.0) / (m * n)))


def _score_bound(m: float, n: float, q: float) -> float:
    """The AUC a below 1 whose Hanley-McNeil interval just reaches 1: 1 - a = q se(a)."""
    from scipy.optimize import brentq

    return float(brentq(lambda a: (1 - a) - q * _hanley_mcneil_se(a, m, n), 1e-12, 1 - 1e-15, xtol=1e-14))


#: public name of the Hanley-McNeil score bound, for the partial areas' intervals
hanley_mcneil_bound = _score_bound


def logit_delong_interval(ranking: Any, level: float = 0.95) -> ConfidenceInterval:
    """The AUC with DeLong's variance on the logit scale (the default, ``method="analytic"``).

    expit(logit(AUC) +/- q se / (AUC (1 - AUC))), se DeLong's, q the t quantile with min(P, N) - 1
    degrees of freedom (P positives, N negatives): the interval stays inside (0, 1) and widens
    with few cases of a class, where DeLong's normal interval covers too little. At complete
    separation (AUC 0 or 1, DeLong's variance 0) the far bound is the Hanley-McNeil (1982) score
    bound: the AUC a whose own standard error reaches the observed one, |1 - a| = q se(a).
    NaN below 2 cases of a class. Coverage: ``benchmarks/coverage.py``.

    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.arange(8.0)[::-1], None, np.array([1, 1, 0, 1, 0, 1, 0, 0], bool))
    >>> ci = logit_delong_interval(r)
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.8125, 0.1121, 0.9933)
    """
    level = check_level(level)
    neg, pos = _counts(ranking)
    m, n = float(pos.sum()), float(neg.sum())
    auc, var = delong_variance(ranking)
    se = float(np.sqrt(var))
    if not np.isfinite(se):
        return ConfidenceInterval(float("nan"), float("nan"), level, LOGIT_DELONG, auc, se)
    q = _t_quantile(level, min(m, n) - 1)
    if se > 0 and 0.0 < auc < 1.0:
        return ConfidenceInterval(*logit_interval(auc, se, q), level, LOGIT_DELONG, auc, se)
    if auc in (0.0, 1.0):
        bound = _score_bound(m, n, q)
        low, high = (bound, 1.0) if auc == 1.0 else (0.0, 1.0 - bound)
        return ConfidenceInterval(low, high, level, LOGIT_DELONG, auc, se)
    return ConfidenceInterval(auc, auc, level, LOGIT_DELONG, auc, se)  # every placement equal: no spread


def average_precision_interval(ranking: Any, level: float = 0.95) -> ConfidenceInterval:
    """Average precision with a closed-form interval from each case's influence (the default).

    The first-order variance of AP under multinomial sampling of its score cells
    (:func:`clfeval.uncertainty.influence.average_precision_gradients`), on the logit scale, with the t
    quantile of min(P, N) - 1 degrees of freedom (P positives, N negatives): AP is skewed and biased upward with few
    positives, where the normal interval and the percentile bootstrap cover 81-92%. AP 1 (every
    positive above every negative): the Wilson interval of P successes in P trials, Boyd et al.'s
    (2013) binomial view of AP. NaN without a positive. Coverage: ``benchmarks/coverage.py``.

    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.arange(8.0)[::-1], None, np.array([1, 1, 0, 1, 0, 1, 0, 0], bool))
    >>> ci = average_precision_interval(r)
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.8542, 0.1856, 0.9934)
    """
    from clfeval.uncertainty.influence import average_precision_gradients, cell_variance

    level = check_level(level)
    neg, pos = _counts(ranking)
    p = float(pos.sum())
    ap, g_neg, g_pos = average_precision_gradients(neg, pos)
    ap = float(ap)
    if not p > 0:
        return ConfidenceInterval(float("nan"), float("nan"), level, LOGIT_AP, float("nan"), float("nan"))
    se = float(np.sqrt(cell_variance(neg, pos, g_neg, g_pos)))
    if p < 2:
        return ConfidenceInterval(float("nan"), float("nan"), level, LOGIT_AP, ap, float("nan"))
    if ap >= 1.0:
        from clfeval.uncertainty import proportion_ci

        wilson = proportion_ci(p, p, level=level)
        return ConfidenceInterval(float(wilson.low), 1.0, level, LOGIT_AP, ap, se)
    if not se > 0:
        return ConfidenceInterval(ap, ap, level, LOGIT_AP, ap, se)
    n = float(neg.sum())  # few cases of either class widen it: class 0's AP with 10 negatives covered 87% at P - 1
    return ConfidenceInterval(*logit_interval(ap, se, _t_quantile(level, max(min(p, n) - 1, 1.0))), level, LOGIT_AP,
                              ap, se)


def logit_ap_interval(ranking: Any, level: float = 0.95) -> ConfidenceInterval:
    """Average precision with the logit interval of Boyd, Eng & Page (2013), "Area under the
    precision-recall curve: point estimates and confidence intervals" (ECML PKDD):
    expit(logit(AP) +/- z / sqrt(P AP (1 - AP))), P the number of positives.

    Conservative: in our simulation (binormal scores, 150 + 150 cases) the 95% interval covered
    98%; :func:`average_precision_interval` is the default.
    """
    from clfeval.uncertainty.checks import z_quantile

    level = check_level(level)
    ap = float(ranking.average_precision)
    p = float(np.asarray(ranking.pos).sum())
    if not (0.0 < ap < 1.0) or p == 0:
        edge = ap if p else float("nan")
        return ConfidenceInterval(edge, edge, level, "logit (Boyd et al. 2013)", ap, 0.0 if p else float("nan"))
    se = float(np.sqrt(ap * (1 - ap) / p))  # of AP itself: the logit scale's 1 / sqrt(P AP (1 - AP)) x AP (1 - AP)
    return ConfidenceInterval(*logit_interval(ap, se, z_quantile(level)), level,
                              "logit (Boyd et al. 2013)", ap, se)


#: rankings with more distinct scores are bootstrapped on this many evenly spread score groups
BOOTSTRAP_MAX_SCORES = 4_000


_ONE_SD_BELOW = 0.15865525393145707  # Phi(-1)
BOOT_AUC = "bootstrap normal, logit scale (SE from the 16th-84th percentiles of the replicates)"
BOOT_BCA_AUC = "bootstrap BCa (multinomial over score cells)"
BOOT_AP = "studentized bootstrap (bootstrap-t, case-influence SE in each replicate)"


def _replicate_areas(cells: np.ndarray, n_resamples: int, seed: Any, sampling: str) -> dict[str, np.ndarray]:
    """Each replicate's AUC, AP and AP's influence variance, (B,) each, in chunks."""
    from clfeval.uncertainty.influence import average_precision_gradients, cell_variance
    from clfeval.uncertainty.resampling import resampled_tables

    parts: dict[str, list[np.ndarray]] = {"roc_auc": [], "average_precision": [], "ap_variance": []}
    for t in resampled_tables(cells, n_resamples, np.random.default_rng(seed), sampling):
        neg, pos = t[:, 0], t[:, 1]
        parts["roc_auc"].append(delong_variances(neg, pos)[0])
        ap, g_neg, g_pos = average_precision_gradients(neg, pos)
        parts["average_precision"].append(ap)
        parts["ap_variance"].append(cell_variance(neg, pos, g_neg, g_pos))
    return {k: np.concatenate(v) for k, v in parts.items()}


def _bootstrap_auc(auc: float, reps: np.ndarray, m: float, n: float, level: float, name: str) -> ConfidenceInterval:
    """AUC +/- z s on the logit scale, s half the 16th-84th percentile range of the replicates'
    logits (robust to the replicates at 0 or 1, which are clipped half a pair inside)."""
    from scipy.special import logit

    from clfeval.uncertainty.checks import z_quantile

    if not (m >= 2 and n >= 2):
        return ConfidenceInterval(float("nan"), float("nan"), level, name, auc)
    if auc in (0.0, 1.0):
        bound = _score_bound(m, n, z_quantile(level))
        return ConfidenceInterval(*((bound, 1.0) if auc == 1.0 else (0.0, 1.0 - bound)), level, name, auc)
    eps = 0.5 / (m * n)
    r = logit(np.clip(reps[np.isfinite(reps)], eps, 1 - eps))
    q16, q84 = np.quantile(r, [_ONE_SD_BELOW, 1.0 - _ONE_SD_BELOW])
    se = (q84 - q16) / 2 * auc * (1 - auc)  # the logit scale's spread, as a standard error of the AUC
    return ConfidenceInterval(*logit_interval(auc, se, z_quantile(level)), level, name, auc)


def _bootstrap_t_ap(ap: float, se: float, reps: np.ndarray, rep_var: np.ndarray, p: float, level: float,
                    name: str) -> ConfidenceInterval:
    """AP - q_hi se, AP - q_lo se, q the quantiles of t* = (AP* - AP) / se* over the replicates
    (a replicate with se* = 0 counts as far out on its side), clipped to [0, 1]."""
    if not (p >= 2) or not np.isfinite(se):
        return ConfidenceInterval(float("nan"), float("nan"), level, name, ap)
    ok = np.isfinite(reps)
    diff = reps[ok] - ap
    rse = np.sqrt(rep_var[ok])
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(rse > 0, diff / np.where(rse > 0, rse, 1.0), np.sign(diff) * 1e12)
    alpha = 1.0 - level
    q_lo, q_hi = np.quantile(t, [alpha / 2, 1 - alpha / 2])
    if ap >= 1.0:  # every positive on top: nothing to studentize; Wilson of P out of P, as the analytic
        from clfeval.uncertainty import proportion_ci

        return ConfidenceInterval(float(proportion_ci(p, p, level=level).low), 1.0, level, name, ap, se)
    if not se > 0:
        return ConfidenceInterval(ap, ap, level, name, ap, se)
    return ConfidenceInterval(float(max(0.0, ap - q_hi * se)), float(min(1.0, ap - q_lo * se)), level, name, ap, se)


def bootstrap_area_intervals(
    ranking: Any, *, level: float = 0.95, method: str = "bootstrap", n_resamples: int = 2000, seed: Any = 0,
    sampling: str = "cross-sectional",
) -> dict[str, ConfidenceInterval]:
    """{"roc_auc", "average_precision"} bootstrap intervals of one ranking, from one set of replicates.

    The score cells are redrawn (:mod:`clfeval.uncertainty.resampling`); a ranking of more than
    :data:`BOOTSTRAP_MAX_SCORES` distinct scores is redrawn in that many groups of neighbouring
    scores (the estimates and standard errors stay exact; the method name says so). The
    intervals are the ones that held 95% in the coverage simulation (``benchmarks/coverage.py``):

    * ROC AUC, ``method="bootstrap"``: normal on the logit scale with the bootstrap's standard
      error, read robustly from the replicates' 16th and 84th percentiles (the percentile
      interval covered 82-87% with 6-10 positives); ``"bca"``: BCa, the jackknife in closed form.
      At AUC 0 or 1 the far bound is the Hanley-McNeil score bound (as :func:`logit_delong_interval`).
    * average precision, both methods: the studentized bootstrap (bootstrap-t), each replicate's
      AP standardized by its own case-influence standard error; AP's skew and its upward bias with
      few positives are in the t distribution (percentile and BCa covered 81-92%).

    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(200) < 0.3
    >>> s = rng.normal(size=200) + 1.5 * y
    >>> o = np.argsort(-s)
    >>> d = bootstrap_area_intervals(BinaryRanking(s[o], None, y[o]), n_resamples=500)
    >>> [d[k].low < d[k].estimate < d[k].high for k in ("roc_auc", "average_precision")]
    [True, True]
    """
    from dataclasses import replace

    from clfeval.uncertainty.influence import average_precision_gradients, cell_variance
    from clfeval.uncertainty.resampling import check_sampling
    from clfeval.uncertainty import ranking_intervals

    if method not in ("bootstrap", "bca"):
        raise ValueError(f"method must be 'bootstrap' or 'bca', got {method!r}.")
    level = check_level(level)
    sampling = check_sampling(sampling)
    neg, pos = _counts(ranking)
    m, n = float(pos.sum()), float(neg.sum())
    grouped = ranking.scores.size > BOOTSTRAP_MAX_SCORES
    sample = ranking.coarsened(ranking.cut_points(BOOTSTRAP_MAX_SCORES)) if grouped else ranking
    s_neg, s_pos = _counts(sample)
    cells = np.stack([s_neg, s_pos]).astype(np.int64)
    suffix = f", {sampling}, B={n_resamples}" + (f", scores in {sample.scores.size} groups" if grouped else "")
    out: dict[str, ConfidenceInterval] = {}
    if m == 0 or n == 0:
        nan = float("nan")
        return {"roc_auc": ConfidenceInterval(nan, nan, level, BOOT_AUC + suffix, nan),
                "average_precision": ConfidenceInterval(nan, nan, level, BOOT_AP + suffix,
                                                        nan if m == 0 else float(ranking.average_precision))}
    reps = _replicate_areas(cells, n_resamples, seed, sampling)
    auc = float(ranking.roc_auc)
    if method == "bca" and m >= 2 and n >= 2 and 0.0 < auc < 1.0:
        ci = ranking_intervals(sample, level=level, interval="bca", n_resamples=n_resamples, seed=seed,
                               sampling=sampling)["roc_auc"]
        out["roc_auc"] = replace(ci, estimate=auc,
                                 method=ci.method + (f", scores in {sample.scores.size} groups" if grouped else ""))
    else:  # at AUC 0 or 1 both take the score bound; below 2 cases of a class, NaN
        out["roc_auc"] = _bootstrap_auc(auc, reps["roc_auc"], m, n, level,
                                        (BOOT_AUC if method == "bootstrap" else BOOT_BCA_AUC) + suffix)
    ap, g_neg, g_pos = average_precision_gradients(neg, pos)
    se = float(np.sqrt(cell_variance(neg, pos, g_neg, g_pos)))
    out["average_precision"] = _bootstrap_t_ap(float(ap), se, reps["average_precision"], reps["ap_variance"], m,
                                               level, BOOT_AP + suffix)
    return out


def ranking_area_intervals(
    ranking: Any, *, level: float = 0.95, method: str = "analytic", n_resamples: int = 2000, seed: Any = 0,
    sampling: str = "cross-sectional",
) -> dict[str, ConfidenceInterval]:
    """{"roc_auc": ..., "average_precision": ...} intervals of one ranking, as the report gives them.

    ``method="analytic"``: :func:`logit_delong_interval` and :func:`average_precision_interval`
    (closed forms); ``"delong"``: pROC's plain DeLong interval (:func:`delong_interval`) and the
    same AP interval; "bootstrap" / "bca": :func:`bootstrap_area_intervals`.
    """
    if method not in ("analytic", "delong", "bootstrap", "bca"):
        raise ValueError(f"method must be 'analytic', 'delong', 'bootstrap' or 'bca', got {method!r}.")
    if method in ("bootstrap", "bca"):
        return bootstrap_area_intervals(ranking, level=level, method=method, n_resamples=n_resamples, seed=seed,
                                        sampling=sampling)
    auc = logit_delong_interval(ranking, level) if method == "analytic" else delong_interval(ranking, level)
    return {"roc_auc": auc, "average_precision": average_precision_interval(ranking, level)}
