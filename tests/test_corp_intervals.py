"""Bootstrap intervals of CORP's miscalibration (MCB) and discrimination (DSC), Brier and log score
(:func:`clfeval.uncertainty.calibration_intervals.corp_interval`): the estimate is
``corp_decompositions``' value, the limits follow their formulas from the replicates, the null at
zero, seeds, pooling of tied values, refusals, the Evaluation method; one coverage setting of
``benchmarks/corp_coverage.py`` is the slow test at the end.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.formulas.isotonic import corp_decompositions
from clfeval.uncertainty import corp_interval
from clfeval.uncertainty.calibration_intervals import (
    CORP_INTERVALS,
    calibrated_mcb,
    corp_components,
    corp_limits,
    pooled_cells,
)


def _sample(seed: int, n: int, gamma: float = 0.7) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(values increasing, neg, pos) of n rows f ~ Beta(2, 2), y ~ Bernoulli(f ** gamma)."""
    rng = np.random.default_rng(seed)
    f = np.sort(rng.beta(2, 2, size=n))
    pos = (rng.uniform(size=n) < f**gamma).astype(np.int64)
    return f, 1 - pos, pos


@pytest.mark.parametrize("measure, index", [("mcb", 1), ("dsc", 2)])
@pytest.mark.parametrize("score", ["brier", "log"])
def test_estimate_is_corp_decompositions(measure, index, score):
    v, neg, pos = _sample(1, 400)
    ci = corp_interval(v, neg, pos, measure, score, n_resamples=50)
    assert ci.estimate == corp_decompositions(v, neg, pos)[score][index]
    assert ci.level == 0.95 and 0 <= ci.low <= ci.high


def test_hand_example():
    # two probabilities; shares of positives 0.1 and 0.9 at 0.2 and 0.8: the isotonic fit is the
    # shares; Brier MCB = mean (v - share)^2 = 0.01, DSC = 0.25 - mean share (1 - share) = 0.16
    v, neg, pos = [0.2, 0.8], [900, 100], [100, 900]
    mcb = corp_interval(v, neg, pos, "mcb", n_resamples=200, seed=3)
    dsc = corp_interval(v, neg, pos, "dsc", n_resamples=200, seed=3)
    assert mcb.estimate == pytest.approx(0.01, abs=1e-15) and dsc.estimate == pytest.approx(0.16, abs=1e-15)
    assert 0 < mcb.low < 0.01 < mcb.high  # 10 points off at 1000 cases each: 8 standard errors
    assert dsc.low < 0.16 < dsc.high


def test_limits_follow_their_formulas():
    reps = np.linspace(0.01, 0.05, 401)  # quantiles at 2.5% / 97.5%: 0.011, 0.049
    null = np.linspace(0.0, 0.02, 201)  # mean 0.01, 97.5% quantile 0.0195
    q_lo, q_hi, m = 0.011, 0.049, 0.03
    assert corp_limits(0.03, reps, 0.95, "percentile") == pytest.approx((q_lo, q_hi), abs=1e-15)
    assert corp_limits(0.03, reps, 0.95, "basic") == pytest.approx((0.06 - q_hi, 0.06 - q_lo), abs=1e-15)
    assert corp_limits(0.03, reps, 0.95, "debiased", null) == pytest.approx(
        (0.03 - 0.01 - (q_hi - m), 0.03 - 0.01 + (m - q_lo)), abs=1e-15)
    # the test at zero: an estimate within the null's 97.5% quantile gets the low end 0
    assert corp_limits(0.019, reps, 0.95, "basic", null, at_zero=True)[0] == 0.0
    near = np.linspace(0.015, 0.025, 401)  # 97.5% quantile 0.02475
    assert corp_limits(0.021, near, 0.95, "basic", null, at_zero=True)[0] == pytest.approx(0.042 - 0.02475, abs=1e-15)
    # never below 0
    assert corp_limits(0.001, reps, 0.95, "basic") == (0.0, 0.0)  # 2 t - q_lo < 0


def test_calibrated_forecasts_reach_zero():
    # outcomes drawn from the probabilities: MCB's interval starts at 0, as its population value
    rng = np.random.default_rng(4)
    f = np.sort(rng.beta(2, 2, size=2000))
    pos = (rng.uniform(size=f.size) < f).astype(int)
    for score in ("brier", "log"):
        ci = corp_interval(f, 1 - pos, pos, "mcb", score, n_resamples=200)
        assert ci.low == 0.0 < ci.estimate and ci.high > 0


def test_null_is_calibrated_outcomes():
    # the null's MCB is that of Binomial(w, v) positives: same generator, same draws
    v = np.array([0.1, 0.5, 0.9])
    w = np.array([5, 7, 4])
    got = calibrated_mcb(v, w, 20, 9)
    pos = np.random.default_rng(9).binomial(w, v, size=(20, 3))
    want = corp_components(v, np.stack([w - pos, pos], axis=1))
    for score in ("brier", "log"):
        np.testing.assert_array_equal(got[score], want[score][:, 0])


def test_seed_reproducibility_and_design():
    v, neg, pos = _sample(2, 300)
    a = corp_interval(v, neg, pos, "dsc", "log", n_resamples=100, seed=5)
    b = corp_interval(v, neg, pos, "dsc", "log", n_resamples=100, seed=5)
    c = corp_interval(v, neg, pos, "dsc", "log", n_resamples=100, seed=6)
    assert (a.low, a.high) == (b.low, b.high) and (a.low, a.high) != (c.low, c.high)
    s = corp_interval(v, neg, pos, "dsc", "log", n_resamples=100, seed=5, sampling="stratified")
    assert "stratified by class" in s.method and s.estimate == a.estimate
    assert "cross-sectional" in a.method and "100 resamples" in a.method


def test_levels_nest():
    v, neg, pos = _sample(3, 500)
    for measure in ("mcb", "dsc"):
        wide = corp_interval(v, neg, pos, measure, n_resamples=300, level=0.95)
        narrow = corp_interval(v, neg, pos, measure, n_resamples=300, level=0.8)
        assert wide.low <= narrow.low <= narrow.high <= wide.high


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_order_and_ties_pool(seed):
    # tied probabilities are one cell; the order of the cells does not matter
    rng = np.random.default_rng(seed)
    v = rng.choice(np.linspace(0.05, 0.95, 7), size=40)
    pos = (rng.uniform(size=40) < v).astype(int)
    distinct, cells = pooled_cells(v, 1 - pos, pos)
    assert distinct.tolist() == sorted(set(v.tolist()))
    assert cells.sum() == 40 and cells[1].sum() == pos.sum()
    perm = rng.permutation(40)
    for measure in ("mcb", "dsc"):
        a = corp_interval(v, 1 - pos, pos, measure, "log", n_resamples=30, seed=1)
        b = corp_interval(v[perm], 1 - pos[perm], pos[perm], measure, "log", n_resamples=30, seed=1)
        c = corp_interval(distinct, cells[0], cells[1], measure, "log", n_resamples=30, seed=1)
        assert (a.low, a.high, a.estimate) == (b.low, b.high, b.estimate) == (c.low, c.high, c.estimate)


def test_no_cases_is_nan():
    ci = corp_interval([0.2, 0.8], [0, 0], [0, 0], "dsc", n_resamples=10)
    assert np.isnan(ci.estimate) and np.isnan(ci.low) and np.isnan(ci.high)


def test_refusals():
    with pytest.raises(ValueError, match="non-integer weights; with sample weights these intervals need integer weights"):
        corp_interval([0.2, 0.8], [1.5, 1.0], [1.0, 2.0], n_resamples=10)
    with pytest.raises(ValueError, match="measure"):
        corp_interval([0.2, 0.8], [1, 1], [1, 2], "unc", n_resamples=10)
    with pytest.raises(ValueError, match="score"):
        corp_interval([0.2, 0.8], [1, 1], [1, 2], "mcb", "spherical", n_resamples=10)
    with pytest.raises(ValueError, match="kind"):
        corp_interval([0.2, 0.8], [1, 1], [1, 2], kind="bca", n_resamples=10)
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        corp_interval([0.2, 1.8], [1, 1], [1, 2], n_resamples=10)


@pytest.mark.parametrize("kind", CORP_INTERVALS)
def test_every_kind_runs(kind):
    v, neg, pos = _sample(6, 200)
    ci = corp_interval(v, neg, pos, "mcb", kind=kind, n_resamples=60)
    assert kind in ci.method and 0 <= ci.low <= ci.high


def test_evaluation_method():
    v, neg, pos = _sample(7, 600)
    ev = clfeval.evaluate(pos, y_score=v)
    corp = ev.calibration().corp
    for measure, attr in (("mcb", "miscalibration"), ("dsc", "discrimination")):
        for score in ("brier", "log"):
            ci = ev.corp_interval(measure, score, n_resamples=80, seed=2)
            direct = corp_interval(v, neg, pos, measure, score, n_resamples=80, seed=2)
            assert (ci.low, ci.high) == (direct.low, direct.high)
            assert ci.estimate == pytest.approx(getattr(getattr(corp, score), attr), rel=1e-12, abs=1e-15)


@pytest.mark.slow
def test_coverage():
    # f ~ Beta(2, 2), y ~ Bernoulli(f ** 0.7): the population's recalibration is f ** 0.7, MCB
    # (Brier) = E (f - f ** 0.7)^2, DSC = Var(f ** 0.7), by quadrature (benchmarks/corp_coverage.py,
    # where the default covered MCB 91%, DSC 94% in this setting). 150 test sets: Monte Carlo error ~2 points.
    from scipy import integrate, stats

    gamma, n, reps = 0.7, 1000, 150
    density = stats.beta(2, 2).pdf
    pi = integrate.quad(lambda f: f**gamma * density(f), 0, 1)[0]
    truth = {"mcb": integrate.quad(lambda f: (f - f**gamma) ** 2 * density(f), 0, 1)[0],
             "dsc": integrate.quad(lambda f: (f**gamma - pi) ** 2 * density(f), 0, 1)[0]}
    covered = {"mcb": [], "dsc": []}
    for r in range(reps):
        v, neg, pos = _sample(1000 + r, n, gamma)
        for measure, hits in covered.items():
            ci = corp_interval(v, neg, pos, measure, n_resamples=200, seed=r)
            hits.append(ci.low <= truth[measure] <= ci.high)
    for measure, hits in covered.items():
        assert 0.88 <= np.mean(hits) <= 0.99, (measure, np.mean(hits))


def test_bias_corrected_kinds_say_so_in_their_method():
    # a bias-corrected interval may lie below the sample's (upward-biased) estimate: its method says so
    v, neg, pos = [0.1, 0.4, 0.6, 0.9], [9, 6, 4, 1], [1, 4, 6, 9]
    assert "bias-corrected" in corp_interval(v, neg, pos, "mcb", n_resamples=20).method
    assert "bias-corrected" not in corp_interval(v, neg, pos, "dsc", n_resamples=20, kind="percentile").method


def test_evaluation_methods_pass_the_kind_on():
    import clfeval

    y = np.r_[np.zeros(30, int), np.ones(30, int)]
    s = np.r_[np.linspace(0.05, 0.6, 30), np.linspace(0.3, 0.95, 30)]
    ev = clfeval.evaluate(y, y_score=s)
    ci = ev.corp_interval("dsc", kind="percentile", n_resamples=50)
    assert ci.method.startswith("percentile bootstrap") and ci == ev.corp_interval("dsc", kind="percentile",
                                                                                     n_resamples=50)
    assert ev.smooth_ece_interval(kind="basic", n_resamples=50).method.startswith("basic bootstrap")
    assert ev.smooth_ece_interval(n_resamples=50).method.startswith("folded bootstrap")
