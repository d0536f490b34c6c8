"""Bootstrap intervals of calibration measures of distinct probabilities with their outcome
counts (the per-score negative and positive counts a ranking holds): the smooth ECE
(:func:`smooth_ece_interval`) and CORP's miscalibration (MCB) and discrimination (DSC)
(:func:`corp_interval`), Brier or log score. No pass over samples: replicates are multinomial
redraws of the cells (:mod:`clfeval.uncertainty.resampling`), read by
:func:`clfeval.formulas.smooth_ece.smooth_ece_at` (at the sample's bandwidth) or
:func:`clfeval.formulas.isotonic.corp_decompositions`. Beside them, as many redraws of the
outcomes under calibration (Binomial(w, v) positives at each distinct probability v with w cases:
the null of the CORP consistency band) measure what noise alone gives.

Both estimators are biased upwards at finite n: noise alone gives a positive smooth ECE (of order
n ** -1/2) and, through the isotonic fit's overfit, positive MCB and DSC terms; the bootstrap's
replicates are biased again, so that percentile intervals miss the truth from above and never
hold 0. The defaults correct for it:

- smooth ECE, ``kind="folded"``: the percentile interval of the replicates (read at the
  sample's bandwidth) mapped back through the estimator's mean as a function of the truth,
  modelled as a folded normal ``E|theta + s Z|`` (:func:`folded_mean`) whose value at 0 is the
  noise: the mean smooth ECE of the redraws under calibration at the sample's bandwidth, sqrt 2
  times for the replicates, which carry the sample's noise and the bootstrap's. Well above the
  noise the map is the identity (the estimate is nearly unbiased there, and the percentile
  interval covers); near it the map takes the bias out. The low end is 0 when the estimate is
  within the 97.5% quantile (for level 0.95) of the redraws' smooth ECE at their own bandwidths:
  the test of calibration, inverted.
- CORP, ``kind="debiased"``: the estimate less the mean MCB of the redraws under calibration (the
  overfit: MCB - DSC = S(forecasts) - S(base rate), so MCB and DSC carry the same overfit), with
  the replicates' spread about their mean; for MCB the low end is 0 when the estimate is within
  the redraws' upper quantile (the test of calibration the CORP band draws).

Coverage of nominal 95% in simulation: f ~ Beta(2, 2), y ~ Bernoulli(f ** gamma). Smooth ECE:
truth the smooth ECE of the exact residuals f - f ** gamma over 10^6 draws of f; 100 test sets x
200 resamples per setting (Monte Carlo error about 2 points), ``benchmarks/smooth_ece_coverage.py``:

=================  ==============  ==============  ==============  ==============  ==============
gamma              1               0.935           0.85            0.7             0.5
true smooth ECE    0.000           0.019           0.047           0.101           0.186
mean estimate      .047 .031 .021  .050 .034 .026  .060 .048 .048  .099 .102 .100  .185 .186 .186
=================  ==============  ==============  ==============  ==============  ==============
folded (default)   100  100  99    99   97   98    99   98   97    95   95   93    96   93   99
basic-folded       100  99   99    95   93   96    97   94   97    90   94   93    96   92   98
percentile         99   97   99    89   88   73    91   99   99    97   95   93    96   93   99
basic              99   97   99    92   94   89    91   86   93    83   94   93    96   92   97
squared            100  100  100   100  93   91    92   84   91    80   93   92    93   91   98
debiased           100  100  100   100  100  94    95   77   82    78   88   89    92   91   97
bc                 99   97   99    89   89   82    92   86   94    86   95   92    97   90   97
old percentile     0    0    0     0    0    0     59   98   97    94   95   92    95   90   98
width, folded      .084 .049 .030  .087 .054 .038  .103 .065 .034  .110 .054 .032  .095 .053 .030
=================  ==============  ==============  ==============  ==============  ==============

Every row but the last reads the replicates at the sample's bandwidth and has the low end 0 by
the test of calibration; "old percentile" is the percentile interval of replicates at their own
bandwidths without it (this module's default before). The default holds 93-99% where the truth
stands clearly above the noise (0.10 and 0.19) and is conservative (97-100%) near the noise,
where it is also wide; for calibrated probabilities its low end is 0 in 99-100% of test sets.
"basic-folded" falls to 90%, the other kinds to 73-84% somewhere.

CORP: f ** gamma increases with f, so it is the population's isotonic recalibration, and MCB =
E[S(f) - S(f ** gamma)], DSC = E[S(pi) - S(f ** gamma)], pi = E[f ** gamma] (numerical
integration, checked against 2 x 10^6 rows); 200 test sets x 300 resamples per setting (Monte
Carlo error 1.5 points), ``benchmarks/corp_coverage.py``. Coverage at n = 300 / 1000 / 3000:

=====================  ==============  ==============  ==============  ==============
gamma                  1               0.85            0.7             0.5
MCB Brier / log        0 / 0           0.0024 / 0.0057 0.011 / 0.026   0.038 / 0.091
DSC Brier / log        0.050 / 0.110   0.046 / 0.101   0.040 / 0.091   0.030 / 0.072
=====================  ==============  ==============  ==============  ==============
MCB Brier debiased     100  100  100   95   96   94    90   91   94    90   91   96
MCB Brier basic        98   98   98    92   88   88    96   92   92    94   92   96
MCB Brier percentile   0    0    0     0    0    0     0    15   34    60   68   79
MCB log   debiased     99   100  100   96   95   94    91   91   94    92   92   96
MCB log   basic        96   95   98    92   80   76    94   89   91    95   92   96
DSC Brier debiased     92   94   94    94   94   94    96   94   93    92   96   96
DSC Brier basic        92   91   92    90   94   92    94   92   92    92   96   96
DSC Brier percentile   60   60   70    60   68   74    59   64   73    62   64   75
DSC Brier bc           84   82   88    80   86   89    83   84   90    81   84   90
DSC log   debiased     94   92   94    95   94   94    94   94   94    90   94   96
DSC log   basic        92   89   92    92   93   90    94   93   92    91   96   96
=====================  ==============  ==============  ==============  ==============

(MCB's "basic" with the low end set to 0 by the test of calibration, as the default; without
it, MCB basic covers a calibrated forecast's 0 only 25-80%; MCB "bc" covers 0-92%.) The
"debiased" kind holds 90-96% everywhere; its weakest, 90-92%, is MCB at n = 300 and 1000 for
gamma 0.7 and 0.5 (presumably the steeper recalibration overfits more than calibrated redraws).

>>> ci = smooth_ece_interval([0.2, 0.5, 0.8], [40, 25, 10], [10, 25, 40], n_resamples=200)
>>> round(ci.estimate, 4), ci.low  # exactly calibrated
(0.0, 0.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.formulas.isotonic import SCORES, corp_decompositions
from clfeval.formulas.smooth_ece import smooth_ece, smooth_ece_at, smooth_ece_batch
from clfeval.stats._result import ConfidenceInterval, check_level
from clfeval.uncertainty.bootstrap import (
    integer_cells,
    interval_from_replicates,
    replicates,
)
from clfeval.uncertainty.checks import check_choice, check_resamples
from clfeval.uncertainty.resampling import (
    CHUNK_ELEMENTS,
    check_sampling,
    sampling_phrase,
)

__all__ = ["CORP_INTERVALS", "CORP_MEASURES", "SMOOTH_ECE_INTERVALS", "calibrated_mcb", "calibrated_smooth_ece",
           "corp_components", "corp_interval", "corp_limits", "folded_inverse", "folded_mean", "pooled_cells",
           "smooth_ece_interval", "smooth_ece_limits", "smooth_ece_replicates"]

#: what a weighted sample can do instead: the bootstrap redraws cases, which non-integer weights are not
WEIGHTED_INSTEAD = ("with sample weights these intervals need integer weights (frequencies); give the rows "
                    "unweighted or as repeated rows.")
#: the kinds whose interval subtracts the estimate's upward bias (noise, the isotonic fit's overfit)
BIAS_CORRECTED = frozenset({"folded", "basic-folded", "squared", "debiased", "basic"})
#: said in their method: the interval is for the population's value, below the biased sample estimate
BIAS_NOTE = "; bias-corrected: it may lie below the sample's estimate"
#: the kinds of bootstrap interval of the smooth ECE
SMOOTH_ECE_INTERVALS = ("folded", "basic-folded", "squared", "debiased", "basic", "percentile", "bc")


def smooth_ece_replicates(values: np.ndarray, cells: np.ndarray, n_resamples: int, seed: Any, sampling: str,
                          sigma: float | None = None) -> np.ndarray:
    """(B,) smooth ECE of bootstrap redraws of the (2, D) cells [neg; pos] at ``values``: each at
    its own bandwidth (``sigma`` None) or at ``sigma``.

    >>> reps = smooth_ece_replicates(np.array([0.2, 0.8]), np.array([[8, 2], [2, 8]]), 5, 0, "cross-sectional")
    >>> reps.shape, bool((reps >= 0).all())
    ((5,), True)
    """

    def statistic(batch: np.ndarray) -> np.ndarray:
        bw = batch.sum(axis=1).astype(np.float64)
        if sigma is None:
            return smooth_ece_batch(values, bw, bw * values - batch[:, 1])[0]
        return smooth_ece_at(values, bw, bw * values - batch[:, 1], sigma)

    return replicates(statistic, cells, n_resamples, seed, sampling)


def calibrated_smooth_ece(values: np.ndarray, weight: np.ndarray, n_resamples: int, seed: Any,
                          sigma: float | None = None) -> np.ndarray:
    """(B,) smooth ECE of outcomes redrawn under calibration, each at its own bandwidth (``sigma``
    None) or at ``sigma``: at each distinct probability v with w cases, Binomial(w, v) positives
    (the null of the CORP consistency band, :func:`clfeval.formulas.isotonic.consistency_band`).

    >>> null = calibrated_smooth_ece(np.array([0.2, 0.8]), np.array([50, 50]), 100, 0)
    >>> null.shape, bool((null >= 0).all())
    ((100,), True)
    """
    rng = np.random.default_rng(seed)
    w = np.asarray(weight, dtype=np.int64)
    wf = w.astype(np.float64)
    per = max(1, CHUNK_ELEMENTS // max(values.size, 1))
    out = []
    for start in range(0, n_resamples, per):
        b = min(per, n_resamples - start)
        pos = rng.binomial(w, values, size=(b, values.size))
        bw = np.broadcast_to(wf, pos.shape)
        out.append(smooth_ece_batch(values, bw, wf * values - pos)[0] if sigma is None
                   else smooth_ece_at(values, bw, wf * values - pos, sigma))
    return np.concatenate(out)


def folded_mean(theta: np.ndarray, noise: float) -> np.ndarray:
    """E|theta + s Z| (Z standard normal) with s = noise sqrt(pi / 2), so that the value at
    theta = 0 is ``noise``: the mean of a folded normal.

    >>> folded_mean(np.array([0.0, 1.0]), 0.1).round(6).tolist()
    [0.1, 1.0]
    """
    from scipy.special import ndtr

    s = noise * np.sqrt(np.pi / 2)
    if not s > 0:
        return np.abs(theta)
    z = theta / s
    return s * np.sqrt(2 / np.pi) * np.exp(-0.5 * z * z) + theta * (1 - 2 * ndtr(-z))


def folded_inverse(x: np.ndarray, noise: float) -> np.ndarray:
    """The theta >= 0 with ``folded_mean(theta, noise) = x`` (0 where x <= noise), by bisection
    on [0, x] (the folded mean lies above theta and increases with it).

    >>> float(folded_inverse(folded_mean(np.array([0.03]), 0.02), 0.02)[0].round(12))
    0.03
    """
    x = np.asarray(x, dtype=np.float64)
    lo, hi = np.zeros(x.shape), np.maximum(x, 0.0)
    for _ in range(80):
        mid = (lo + hi) / 2
        above = folded_mean(mid, noise) > x
        hi, lo = np.where(above, mid, hi), np.where(above, lo, mid)
    return np.where(x <= noise, 0.0, (lo + hi) / 2)


def _bias_corrected_limits(estimate: float, reps: np.ndarray, level: float) -> tuple[float, float]:
    """(low, high) of the bias-corrected percentile interval ("bc") of one estimate's replicates."""
    low, high, _ = interval_from_replicates(reps[:, None], np.array([estimate]), level, "bca")
    return float(low[0]), float(high[0])


def smooth_ece_limits(estimate: float, reps: np.ndarray, level: float, kind: str,
                      null: np.ndarray | None = None, at_zero: bool = False,
                      noise: float | None = None) -> tuple[float, float]:
    """(low, high) of the smooth ECE from the estimate and its bootstrap replicates ``reps`` by
    ``kind`` (see :func:`smooth_ece_interval`). ``null``: the values under calibration (at their
    own bandwidths), whose mean square "debiased" subtracts, whose mean is the noise of "folded"
    unless ``noise`` is given, and whose ``(1 + level) / 2`` quantile, with ``at_zero``, decides
    the low end 0.

    >>> [round(x, 6) for x in smooth_ece_limits(0.05, np.linspace(0.04, 0.08, 201), 0.9, "basic")]
    [0.022, 0.058]
    """
    alpha = 1.0 - level
    if kind == "bc":
        lo, hi = _bias_corrected_limits(estimate, reps, level)
    else:
        q_lo, q_hi = np.quantile(reps, [alpha / 2, 1 - alpha / 2])
        t2 = estimate * estimate
        if kind == "percentile":
            lo, hi = q_lo, q_hi
        elif kind == "basic":
            lo, hi = max(0.0, 2 * estimate - q_hi), max(0.0, 2 * estimate - q_lo)
        elif kind == "squared":
            lo, hi = np.sqrt(max(0.0, 2 * t2 - q_hi * q_hi)), np.sqrt(max(0.0, 2 * t2 - q_lo * q_lo))
        elif kind == "debiased":  # squared scale, the noise's mean square from the null
            m2 = np.mean(reps * reps)
            centre = t2 - np.mean(null * null)
            lo, hi = np.sqrt(max(0.0, centre - (q_hi * q_hi - m2))), np.sqrt(max(0.0, centre + (m2 - q_lo * q_lo)))
        elif kind == "folded":  # the replicates carry the sample's noise and the bootstrap's: sqrt 2 times
            noise = float(np.mean(null)) if noise is None else noise
            lo, hi = folded_inverse(np.array([q_lo, q_hi]), np.sqrt(2.0) * noise)
        else:  # basic-folded
            m = np.mean(reps)
            noise = float(np.mean(null)) if noise is None else noise
            lo, hi = folded_inverse(np.array([estimate - (q_hi - m), estimate + (m - q_lo)]), noise)
    if at_zero and estimate <= np.quantile(null, 1 - alpha / 2):
        lo = 0.0
    return float(lo), float(max(hi, lo))


def smooth_ece_interval(
    values: Any, neg: Any, pos: Any, *, level: float = 0.95, n_resamples: int = 1000, seed: Any = 0,
    sampling: str = "cross-sectional", kind: str = "folded",
) -> ConfidenceInterval:
    """Bootstrap interval of the smooth ECE of distinct probabilities with their outcome counts
    (see the module notes for the kinds and their coverage).

    Parameters
    ----------
    values : array-like of shape (D,)
        Distinct probabilities (any order), in [0, 1].
    neg, pos : array-like of shape (D,)
        Counts of negative and positive outcomes at each (integers: the bootstrap redraws cases;
        non-integer weights are refused with a ValueError).
    level : float, default=0.95
        Confidence level.
    n_resamples : int, default=1000
        Bootstrap replicates, and as many redraws of the outcomes under calibration.
    seed : int, numpy.random.Generator or None, default=0
        Seed of the replicates and the redraws.
    sampling : {"cross-sectional", "stratified"}, default="cross-sectional"
        Redraw all cells with the grand total, or each outcome with its own total.
    kind : {"folded", "basic-folded", "squared", "debiased", "basic", "percentile", "bc"}, default="folded"
        How the limits are read off the replicates ``t*`` (each at the sample's bandwidth; their
        quantiles ``q_lo``, ``q_hi``, mean ``m``) and the estimate ``t``. "folded":
        ``[q_lo, q_hi]`` mapped back through the mean of the estimator as a function of the
        truth, ``E|theta + s Z|`` (:func:`folded_mean`), whose noise is read off the redraws
        under calibration at the sample's bandwidth, sqrt 2 times (a replicate carries the
        sample's noise and the bootstrap's): well above the noise the map is the identity and
        the interval the percentile one; near the noise it takes out the upward bias.
        "basic-folded": ``[t - (q_hi - m), t + (m - q_lo)]`` mapped back with the noise once;
        "percentile" ``[q_lo, q_hi]``; "basic" ``[2 t - q_hi, 2 t - q_lo]``; "squared" the basic
        interval of ``t ** 2``; "debiased" ``t ** 2`` less the redraws' mean square, with the
        spread of ``t* ** 2``; "bc" the bias-corrected percentile interval. For every kind the low
        end is 0 where the estimate is within the redraws' ``(1 + level) / 2`` quantile (their
        smooth ECE at their own bandwidths).

    Returns
    -------
    ConfidenceInterval
        The interval, with the estimate (relplot's smooth ECE), which is biased upwards: the
        interval can lie below it.

    Examples
    --------
    >>> ci = smooth_ece_interval([0.1, 0.9], [90, 10], [10, 90], n_resamples=100)
    >>> ci.low, round(ci.estimate, 4)  # calibrated: the low end is 0
    (0.0, 0.0)
    """
    check_level(level)
    sampling = check_sampling(sampling)
    n_resamples = check_resamples(n_resamples)
    if kind not in SMOOTH_ECE_INTERVALS:
        raise ValueError(f"kind must be one of {list(SMOOTH_ECE_INTERVALS)}, got {kind!r}.")
    v = np.asarray(values, dtype=np.float64)
    cells = integer_cells(np.stack([np.asarray(neg), np.asarray(pos)]).astype(np.float64), "the score counts",
                          WEIGHTED_INSTEAD)
    w = cells.sum(axis=0)
    estimate, sigma = smooth_ece(v, w, w * v - cells[1])
    method = (f"{kind} bootstrap ({n_resamples} resamples, {sampling_phrase(sampling, ranking=True)}; "
              "replicates at the sample's bandwidth; 0 included unless the estimate exceeds its redraws "
              f"under calibration{BIAS_NOTE if kind in BIAS_CORRECTED else ''})")
    if not np.isfinite(estimate):  # no cases
        return ConfidenceInterval(np.nan, np.nan, level, method, estimate)
    rng = np.random.default_rng(seed)
    reps = smooth_ece_replicates(v, cells, n_resamples, rng, sampling, sigma)
    null = calibrated_smooth_ece(v, w, n_resamples, rng)
    folded = kind in ("folded", "basic-folded")
    noise = float(np.mean(calibrated_smooth_ece(v, w, n_resamples, rng, sigma))) if folded else None
    lo, hi = smooth_ece_limits(estimate, reps, level, kind, null, True, noise)
    return ConfidenceInterval(lo, hi, level, method, estimate)


# ------------------------------------------------------------------------------------------ CORP

#: the CORP components with an interval, and the kinds of interval
CORP_MEASURES = ("mcb", "dsc")
CORP_INTERVALS = ("debiased", "basic", "percentile", "bc")


def pooled_cells(values: Any, neg: Any, pos: Any) -> tuple[np.ndarray, np.ndarray]:
    """(distinct values increasing, (2, D) int64 cells [neg; pos]): equal values pooled.

    >>> v, cells = pooled_cells([0.8, 0.2, 0.8], [1, 2, 0], [1, 0, 3])
    >>> v.tolist(), cells.tolist()
    ([0.2, 0.8], [[2, 1], [0, 4]])
    """
    v = np.asarray(values, dtype=np.float64)
    cells = integer_cells(np.stack([np.asarray(neg), np.asarray(pos)]).astype(np.float64), "the score counts",
                          WEIGHTED_INSTEAD)
    if v.ndim != 1 or cells.shape[1] != v.size:
        raise ValueError(f"values, neg and pos must be 1-D of one length, got {v.shape} and {cells.shape[1:]}.")
    if v.size and not (v.min() >= 0 and v.max() <= 1):
        raise ValueError("CORP needs probabilities in [0, 1]; some values lie outside.")
    distinct, inverse = np.unique(v, return_inverse=True)
    if distinct.size == v.size:
        return distinct, cells[:, np.argsort(v, kind="stable")]
    pooled = np.stack([np.bincount(inverse, weights=c, minlength=distinct.size) for c in cells])
    return distinct, np.round(pooled).astype(np.int64)


def corp_components(values: np.ndarray, batch: np.ndarray) -> dict[str, np.ndarray]:
    """{score: (b, 2) [MCB, DSC]} of each (2, D) table of a (b, 2, D) batch at ``values``
    (increasing), by :func:`clfeval.formulas.isotonic.corp_decompositions` (NaN with no weight).

    >>> corp_components(np.array([0.2, 0.8]), np.array([[[90, 10], [10, 90]]]))["brier"].round(6).tolist()
    [[0.01, 0.16]]
    """
    out = {s: np.empty((batch.shape[0], 2)) for s in SCORES}
    for i, (neg, pos) in enumerate(batch):
        for s, d in corp_decompositions(values, neg, pos, SCORES).items():
            out[s][i] = d[1], d[2]
    return out


def corp_limits(estimate: float, reps: np.ndarray, level: float, kind: str, null: np.ndarray | None = None,
                at_zero: bool = False) -> tuple[float, float]:
    """(low, high) of a CORP component from its estimate and bootstrap replicates ``reps`` by
    ``kind`` (see :func:`corp_interval`). ``null``: MCB under calibration, whose mean "debiased"
    subtracts and whose ``(1 + level) / 2`` quantile, with ``at_zero``, decides the low end 0.

    >>> [round(x, 6) for x in corp_limits(0.05, np.linspace(0.04, 0.08, 201), 0.9, "debiased", np.full(9, 0.02))]
    [0.012, 0.048]
    """
    alpha = 1.0 - level
    if kind == "bc":
        lo, hi = _bias_corrected_limits(estimate, reps, level)
    else:
        q_lo, q_hi = np.nanquantile(reps, [alpha / 2, 1 - alpha / 2])
        if kind == "percentile":
            lo, hi = q_lo, q_hi
        elif kind == "basic":
            lo, hi = 2 * estimate - q_hi, 2 * estimate - q_lo
        else:  # debiased: the bias of the isotonic fit's overfit from the null, the spread from the replicates
            m = np.nanmean(reps)
            centre = estimate - np.mean(null)
            lo, hi = centre - (q_hi - m), centre + (m - q_lo)
        lo, hi = max(0.0, lo), max(0.0, hi)
    if at_zero and estimate <= np.quantile(null, 1 - alpha / 2):
        lo = 0.0
    return float(lo), float(max(hi, lo))


def calibrated_mcb(values: np.ndarray, weight: np.ndarray, n_resamples: int, seed: Any) -> dict[str, np.ndarray]:
    """{score: (B,) MCB} of outcomes redrawn under calibration: Binomial(w, v) positives at each
    distinct probability v (increasing) with w cases.

    >>> null = calibrated_mcb(np.array([0.2, 0.8]), np.array([50, 50]), 100, 0)
    >>> null["brier"].shape, bool((null["brier"] >= 0).all())
    ((100,), True)
    """
    rng = np.random.default_rng(seed)
    w = np.asarray(weight, dtype=np.int64)
    per = max(1, CHUNK_ELEMENTS // max(values.size, 1))
    parts = []
    for start in range(0, n_resamples, per):
        pos = rng.binomial(w, values, size=(min(per, n_resamples - start), values.size))
        parts.append(corp_components(values, np.stack([w - pos, pos], axis=1)))
    return {s: np.concatenate([p[s][:, 0] for p in parts]) for s in SCORES}


def corp_interval(
    values: Any, neg: Any, pos: Any, measure: str = "mcb", score: str = "brier", *, level: float = 0.95,
    n_resamples: int = 1000, seed: Any = 0, sampling: str = "cross-sectional", kind: str = "debiased",
) -> ConfidenceInterval:
    """Bootstrap interval of CORP's miscalibration (MCB) or discrimination (DSC) of distinct
    probabilities with their outcome counts (see the module notes for the kinds and their coverage).

    Parameters
    ----------
    values : array-like of shape (D,)
        Probabilities (any order; equal values are pooled into one), in [0, 1].
    neg, pos : array-like of shape (D,)
        Counts of negative and positive outcomes at each (integers: the bootstrap redraws cases;
        non-integer weights are refused with a ValueError).
    measure : {"mcb", "dsc"}, default="mcb"
        Miscalibration ``S(forecasts) - S(isotonic recalibration)`` or discrimination
        ``S(base rate) - S(isotonic recalibration)``.
    score : {"brier", "log"}, default="brier"
        The proper score S, as :func:`clfeval.formulas.isotonic.corp_decomposition` takes it.
    level : float, default=0.95
        Confidence level.
    n_resamples : int, default=1000
        Bootstrap replicates, and as many redraws of the outcomes under calibration.
    seed : int, numpy.random.Generator or None, default=0
        Seed of the replicates and the redraws.
    sampling : {"cross-sectional", "stratified"}, default="cross-sectional"
        Redraw all cells with the grand total, or each outcome with its own total.
    kind : {"debiased", "basic", "percentile", "bc"}, default="debiased"
        "debiased": the estimate less the mean MCB of the redraws under calibration (the isotonic
        fit's overfit, which MCB and DSC share), with the replicates' spread about their mean;
        "basic": ``[2 t - q_hi, 2 t - q_lo]``; "percentile": ``[q_lo, q_hi]``; "bc": the
        bias-corrected percentile interval (BCa without acceleration). All are clipped at 0.

    Returns
    -------
    ConfidenceInterval
        The interval, with the estimate (the value of
        :func:`clfeval.formulas.isotonic.corp_decompositions`). The estimate is biased upwards
        and a "debiased" interval can lie below it.

    Examples
    --------
    >>> ci = corp_interval([0.2, 0.8], [90, 10], [10, 90], "dsc", n_resamples=200)
    >>> round(ci.estimate, 6), ci.low < 0.16 < ci.high
    (0.16, True)
    """
    check_level(level)
    check_choice(measure, CORP_MEASURES, "measure")
    check_choice(score, SCORES, "score")
    check_choice(kind, CORP_INTERVALS, "kind")
    sampling = check_sampling(sampling)
    n_resamples = check_resamples(n_resamples)
    v, cells = pooled_cells(values, neg, pos)
    j = CORP_MEASURES.index(measure)
    estimate = float(corp_components(v, cells[None])[score][0, j])
    zero = "; 0 included unless the estimate exceeds its redraws under calibration" if measure == "mcb" else ""
    bias = BIAS_NOTE if kind in BIAS_CORRECTED else ""
    method = f"{kind} bootstrap ({n_resamples} resamples, {sampling_phrase(sampling, ranking=True)}{zero}{bias})"
    if not np.isfinite(estimate):  # no cases
        return ConfidenceInterval(np.nan, np.nan, level, method, estimate)
    rng = np.random.default_rng(seed)
    reps = replicates(lambda t: corp_components(v, t)[score][:, j], cells, n_resamples, rng, sampling)
    null = calibrated_mcb(v, cells.sum(axis=0), n_resamples, rng)[score]
    lo, hi = corp_limits(estimate, reps, level, kind, null, at_zero=measure == "mcb")
    return ConfidenceInterval(lo, hi, level, method, estimate)
