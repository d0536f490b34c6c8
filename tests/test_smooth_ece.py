"""Smooth ECE (Błasiok & Nakkiran 2023): clfeval's own computation from the distinct probabilities
against the paper's reference implementation, ``relplot.smECE(f, y)`` (relplot 1.0.x, Apple; note
the argument order (f, y)), to 1e-6 (in practice ~1e-15); top-label against
``relplot.multiclass_logits_to_confidences``; weights, order, zero weights, streams (exact and
binned) and the bootstrap interval. The coverage simulation is the slow test at the end.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.formulas.smooth_ece import (
    grid_size,
    smooth_ece,
    smooth_ece_at,
    smooth_ece_batch,
)
from clfeval.streaming import StreamingEvaluation
from clfeval.uncertainty.calibration_intervals import (
    SMOOTH_ECE_INTERVALS,
    calibrated_smooth_ece,
    folded_inverse,
    folded_mean,
    smooth_ece_interval,
    smooth_ece_limits,
)

relplot = pytest.importorskip("relplot", reason="relplot (the test extra) is the smooth-ECE oracle")

TOL = 1e-6


def _table(f: np.ndarray, y: np.ndarray, w: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(distinct f, weight, summed residual f - y) of rows."""
    v, inv = np.unique(f, return_inverse=True)
    w = np.ones(f.size) if w is None else w
    weight = np.bincount(inv, weights=w, minlength=v.size)
    pos = np.bincount(inv, weights=w * y, minlength=v.size)
    return v, weight, weight * v - pos


def _relplot(f: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value, sigma = relplot.smECE(np.asarray(f, dtype=float), np.asarray(y, dtype=float), return_width=True)
    return float(value), float(sigma)


def _draw(seed: int, n: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        f = rng.uniform(size=n)
    elif kind == "ties":
        f = np.round(rng.uniform(size=n), 1)
    elif kind == "skewed":
        f = rng.beta(0.3, 3.0, size=n)
    else:  # "extremes": exact 0s and 1s
        f = rng.choice([0.0, 1.0, 0.5, 0.999], size=n)
    y = (rng.uniform(size=n) < f**1.4).astype(float)
    return f, y


@pytest.mark.parametrize("kind", ["uniform", "ties", "skewed", "extremes"])
@pytest.mark.parametrize("n", [1, 7, 200, 3000])
def test_equals_relplot(kind, n):
    f, y = _draw(n, n, kind)
    ref, ref_sigma = _relplot(f, y)
    value, sigma = smooth_ece(*_table(f, y))
    assert sigma == ref_sigma
    assert value == pytest.approx(ref, abs=TOL)


@given(st.lists(st.tuples(st.integers(0, 20).map(lambda i: i / 20), st.booleans()), min_size=1, max_size=60))
def test_equals_relplot_on_tied_grids(rows):
    # probabilities on a coarse grid (many ties, 0 and 1 included), every outcome mix
    f = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows], dtype=float)
    ref, ref_sigma = _relplot(f, y)
    value, sigma = smooth_ece(*_table(f, y))
    assert sigma == ref_sigma
    assert value == pytest.approx(ref, abs=TOL)


@pytest.mark.parametrize("sigma", [0.003, 0.01, 0.05, 0.3])
def test_fixed_bandwidth_equals_relplot(sigma):
    # small bandwidths use larger grids (an even grid size among them: grid_size(0.003) = 3334)
    f, y = _draw(5, 500, "uniform")
    ref = relplot.smECE_sigma(f, y, sigma)
    assert float(smooth_ece_at(*_table(f, y), sigma)) == pytest.approx(ref, abs=TOL)
    assert grid_size(0.003) % 2 == 0


def test_binary_evaluation_equals_relplot():
    f, y = _draw(11, 2000, "skewed")
    ev = clfeval.evaluate(y.astype(int), y_score=f)
    s = ev.calibration().smooth_ece
    ref, ref_sigma = _relplot(f, y)
    assert s.value == pytest.approx(ref, abs=TOL) and s.bandwidth == ref_sigma
    assert s.view == "positive class 1" and s.grouping == "distinct probabilities"


def test_top_label_equals_relplot():
    rng = np.random.default_rng(3)
    P = rng.dirichlet([0.6, 0.6, 0.6, 0.6], size=1500)
    y = np.array([rng.choice(4, p=p**1.3 / (p**1.3).sum()) for p in P])
    conf, correct = relplot.multiclass_logits_to_confidences(P, y, probs=True)
    ref, ref_sigma = _relplot(conf, correct)
    ev = clfeval.evaluate(np.array(list("abcd"))[y], y_score=P)
    s = ev.calibration().smooth_ece
    assert s.view == "top-label" and s.bandwidth == ref_sigma
    assert s.value == pytest.approx(ref, abs=TOL)
    # the same from the exact calibration state
    state = clfeval.calibration.calibration_of(y, P)
    assert state.report().smooth_ece.value == pytest.approx(ref, abs=TOL)


def test_integer_weights_are_repeated_rows_and_zero_weights_drop_out():
    f, y = _draw(2, 300, "ties")
    w = np.random.default_rng(2).integers(0, 4, size=f.size)
    rep_f, rep_y = np.repeat(f, w), np.repeat(y, w)
    ref = _relplot(rep_f, rep_y)[0]
    ev = clfeval.evaluate(y.astype(int), y_score=f, sample_weight=w.astype(float))
    assert ev.calibration().smooth_ece.value == pytest.approx(ref, abs=TOL)
    assert smooth_ece(*_table(f, y, w.astype(float)))[0] == pytest.approx(ref, abs=TOL)


@settings(max_examples=10)
@given(st.integers(0, 10_000))
def test_order_of_rows_does_not_matter(seed):
    f, y = _draw(seed, 150, "ties")
    perm = np.random.default_rng(seed).permutation(f.size)
    a = clfeval.evaluate(y.astype(int), y_score=f).calibration().smooth_ece.value
    b = clfeval.evaluate(y[perm].astype(int), y_score=f[perm]).calibration().smooth_ece.value
    assert a == pytest.approx(b, abs=1e-12)


def test_batch_equals_one_at_a_time():
    f, y = _draw(8, 400, "uniform")
    v, w, _r = _table(f, y)
    rng = np.random.default_rng(0)
    W = rng.poisson(w, size=(6, w.size)).astype(float)
    R = W * v - rng.binomial(W.astype(int), v)
    values, sigmas = smooth_ece_batch(v, W, R)
    for i in range(6):
        assert (values[i], sigmas[i]) == pytest.approx(smooth_ece(v, W[i], R[i]), abs=1e-15)


def test_no_samples_is_nan_and_out_of_range_is_refused():
    assert np.isnan(smooth_ece([0.2], [0.0], [0.0])[0])
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        smooth_ece([1.5], [1.0], [0.5])


def test_exact_stream_equals_evaluate():
    f, y = _draw(21, 5000, "uniform")
    s = StreamingEvaluation()
    for part in np.array_split(np.arange(f.size), 7):
        s.update(y[part].astype(int), y_score=f[part])
    streamed = s.result().calibration()
    whole = clfeval.evaluate(y.astype(int), y_score=f).calibration()
    assert streamed.smooth_ece.value == whole.smooth_ece.value
    assert streamed.smooth_ece.bandwidth == whole.smooth_ece.bandwidth


def test_binned_stream_moves_smooth_ece_by_at_most_the_bin_width():
    # a binned stream floors each score onto a grid of relative width 2^-bits: each sample moves
    # by at most delta; at a fixed bandwidth sigma smECE moves by at most delta (1 + 1/sigma)
    # (residuals move by delta, the kernel's position by delta, whose L1 change is
    # 2 delta K(0) = 0.8 delta / sigma); the value at its own bandwidth is reported with the grouping
    f, y = _draw(4, 4000, "uniform")
    bits = 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = StreamingEvaluation(mode="binned", bits=bits)
        s.update(y.astype(int), y_score=f)
        binned = s.result()
    report = binned.calibration()
    assert report.smooth_ece.grouping.startswith("binned scores")
    exact = clfeval.evaluate(y.astype(int), y_score=f).calibration().smooth_ece
    ranking = binned.rankings[binned.names[binned.positive_index]]
    q = np.asarray(ranking.scores)
    delta = float(np.max(f - q[np.searchsorted(-q, -f, side="left")]))
    assert 0 < delta <= 2.0**-bits
    sigma = exact.bandwidth
    vq, wq, rq = _table(q[np.searchsorted(-q, -f, side="left")], y)
    moved = abs(float(smooth_ece_at(vq, wq, rq, sigma)) - float(smooth_ece_at(*_table(f, y), sigma)))
    assert moved <= delta * (1 + 1 / sigma)
    assert abs(report.smooth_ece.value - exact.value) <= delta * (1 + 1 / sigma) + 2.0**-10


def test_multiclass_stream_reads_its_histogram_bins():
    rng = np.random.default_rng(5)
    P = rng.dirichlet([1, 1, 1], size=3000)
    y = rng.integers(0, 3, size=3000)
    s = StreamingEvaluation()
    for part in np.array_split(np.arange(3000), 3):
        s.update(y[part], y_score=P[part])
    report = s.result().calibration()
    assert report.smooth_ece.grouping == "2520 equal-width bins, each at its mean"
    exact = clfeval.evaluate(y, y_score=P).calibration().smooth_ece
    # bins of width 1/2520: every sample moves by less than that
    delta = 1 / 2520
    assert abs(report.smooth_ece.value - exact.value) <= delta * (1 + 1 / exact.bandwidth) + 2.0**-10


def test_interval_is_reproducible_and_follows_the_evaluation():
    f, y = _draw(9, 800, "skewed")
    v, w, r = _table(f, y)
    pos = np.round(w * v - r).astype(int)
    neg = np.round(w).astype(int) - pos
    a = smooth_ece_interval(v, neg, pos, n_resamples=200, seed=1)
    b = smooth_ece_interval(v, neg, pos, n_resamples=200, seed=1)
    c = smooth_ece_interval(v, neg, pos, n_resamples=200, seed=2)
    assert (a.low, a.high) == (b.low, b.high) and (a.low, a.high) != (c.low, c.high)
    assert a.estimate == smooth_ece(v, w, w * v - pos)[0] and 0 <= a.low <= a.high
    assert a.method.startswith(f"{SMOOTH_ECE_INTERVALS[0]} bootstrap (200 resamples, cross-sectional")
    ev = clfeval.evaluate(y.astype(int), y_score=f)
    e = ev.smooth_ece_interval(n_resamples=200, seed=1)
    assert (e.low, e.high) == (a.low, a.high)
    for kind in SMOOTH_ECE_INTERVALS:
        k = smooth_ece_interval(v, neg, pos, n_resamples=100, seed=1, kind=kind)
        assert kind in k.method and 0 <= k.low <= k.high and k.estimate == a.estimate


def test_interval_limits_follow_their_formulas():
    reps = np.linspace(0.03, 0.07, 401)  # 2.5% / 97.5% quantiles 0.031, 0.069; mean 0.05
    null = np.linspace(0.0, 0.02, 201)  # mean 0.01; 97.5% quantile 0.0195
    t, q_lo, q_hi = 0.04, 0.031, 0.069
    assert smooth_ece_limits(t, reps, 0.95, "percentile") == pytest.approx((q_lo, q_hi), abs=1e-15)
    assert smooth_ece_limits(t, reps, 0.95, "basic") == pytest.approx((0.011, 0.049), abs=1e-15)
    assert smooth_ece_limits(t, reps, 0.95, "squared") == pytest.approx(
        (0.0, np.sqrt(2 * t * t - q_lo**2)), abs=1e-15)  # 2 t^2 < q_hi^2: the low end is 0
    # folded: the percentile limits mapped back through the folded mean, the replicates' noise
    # sqrt 2 times the redraws' mean (0.01, or the noise given)
    lo, hi = smooth_ece_limits(t, reps, 0.95, "folded", null)
    assert folded_mean(np.array([lo, hi]), np.sqrt(2) * 0.01) == pytest.approx([q_lo, q_hi], abs=1e-12)
    assert lo < q_lo and hi < q_hi
    lo, hi = smooth_ece_limits(t, reps, 0.95, "folded", null, noise=0.005)
    assert folded_mean(np.array([lo, hi]), np.sqrt(2) * 0.005) == pytest.approx([q_lo, q_hi], abs=1e-12)
    # basic-folded: the interval [t - (q_hi - m), t + (m - q_lo)] for the estimator's mean, mapped back
    lo, hi = smooth_ece_limits(t, reps, 0.95, "basic-folded", null)
    assert folded_mean(np.array([lo, hi]), 0.01) == pytest.approx([t - 0.019, t + 0.019], abs=1e-12)
    # the test at zero: an estimate within the null's 97.5% quantile gets the low end 0
    assert smooth_ece_limits(0.0195, reps, 0.95, "percentile", null, at_zero=True)[0] == 0.0
    assert smooth_ece_limits(0.0196, reps, 0.95, "percentile", null, at_zero=True)[0] == pytest.approx(q_lo)


@settings(max_examples=30)
@given(st.floats(0.0, 0.5), st.floats(1e-4, 0.2))
def test_folded_mean_and_its_inverse(theta, noise):
    m = folded_mean(np.array([0.0, theta]), noise)
    assert m[0] == pytest.approx(noise, rel=1e-12)
    assert theta <= m[1] + 1e-15 and m[1] >= m[0] - 1e-15
    if m[1] > noise * (1 + 1e-9):
        assert folded_inverse(m[1:], noise)[0] == pytest.approx(theta, abs=1e-9)
    assert folded_inverse(np.array([noise * 0.999]), noise)[0] == 0.0


def test_calibrated_redraws_are_binomial():
    v = np.array([0.1, 0.5, 0.9])
    w = np.array([5, 7, 4])
    got = calibrated_smooth_ece(v, w, 20, 9)
    pos = np.random.default_rng(9).binomial(w, v, size=(20, 3))
    want = smooth_ece_batch(v, np.broadcast_to(w.astype(float), pos.shape), w * v - pos)[0]
    np.testing.assert_array_equal(got, want)


def test_interval_reaches_zero_for_calibrated_probabilities_only():
    rng = np.random.default_rng(12)
    f = rng.beta(2, 2, size=3000)
    y = rng.uniform(size=f.size) < f
    calibrated = smooth_ece_interval(f, (~y).astype(int), y.astype(int), n_resamples=200)
    assert calibrated.low == 0.0 < calibrated.high and calibrated.estimate > 0
    y = rng.uniform(size=f.size) < f**0.5  # smooth ECE 0.19
    off = smooth_ece_interval(f, (~y).astype(int), y.astype(int), n_resamples=200)
    assert 0.1 < off.low < 0.186 < off.high < 0.3


def test_interval_of_no_cases_is_nan():
    ci = smooth_ece_interval([0.2, 0.8], [0, 0], [0, 0], n_resamples=10)
    assert np.isnan(ci.estimate) and np.isnan(ci.low) and np.isnan(ci.high)


def test_interval_refuses_non_integer_weights():
    with pytest.raises(ValueError, match="non-integer weights; with sample weights these intervals need integer weights"):
        smooth_ece_interval([0.2, 0.8], [1.5, 1.0], [1.0, 2.0], n_resamples=10)
    with pytest.raises(ValueError, match="kind must be one of"):
        smooth_ece_interval([0.2, 0.8], [1, 1], [1, 2], n_resamples=10, kind="bca")


@pytest.mark.slow
def test_interval_coverage():
    # f ~ Beta(2, 2), P(y = 1 | f) = f ** gamma; the truth is the smooth ECE of the exact
    # residuals f - f ** gamma over 10^6 draws of f. Nominal 95%, the default kind (95%
    # in the full run of this setting; the grid is in clfeval.uncertainty.calibration_intervals' notes).
    # Allowance: 100 test sets give a Monte Carlo standard error of about 2 points.
    gamma, n, reps = 0.7, 1000, 100
    f = np.random.default_rng(123).beta(2, 2, size=10**6)
    truth = smooth_ece(f, np.ones(f.size), f - f**gamma)[0]
    rng = np.random.default_rng(7)
    covered = []
    for r in range(reps):
        f = rng.beta(2, 2, size=n)
        y = rng.uniform(size=n) < f**gamma
        ci = smooth_ece_interval(f, (~y).astype(int), y.astype(int), n_resamples=200, seed=r)
        covered.append(ci.low <= truth <= ci.high)
    assert 0.88 <= np.mean(covered) <= 0.99
