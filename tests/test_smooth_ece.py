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
from clfeval.uncertainty.calibration_intervals import smooth_ece_interval

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


def test_interval_holds_the_estimate_and_is_reproducible():
    f, y = _draw(9, 800, "skewed")
    v, w, r = _table(f, y)
    pos = np.round(w * v - r).astype(int)
    neg = np.round(w).astype(int) - pos
    a = smooth_ece_interval(v, neg, pos, n_resamples=200, seed=1, kind="basic")
    b = smooth_ece_interval(v, neg, pos, n_resamples=200, seed=1, kind="basic")
    assert (a.low, a.high) == (b.low, b.high)
    assert 0 <= a.low <= a.estimate <= a.high
    p = smooth_ece_interval(v, neg, pos, n_resamples=200, seed=1, kind="percentile")
    # basic = 2 t - (percentile limits, swapped)
    assert a.low == pytest.approx(max(0.0, 2 * p.estimate - p.high), abs=1e-15)
    assert a.high == pytest.approx(max(0.0, 2 * p.estimate - p.low), abs=1e-15)
    ev = clfeval.evaluate(y.astype(int), y_score=f)
    assert ev.smooth_ece_interval(n_resamples=200, seed=1).low == p.low  # percentile by default
    assert p.low <= p.estimate <= p.high


def test_interval_refuses_non_integer_weights():
    with pytest.raises(ValueError, match="non-integer weights"):
        smooth_ece_interval([0.2, 0.8], [1.5, 1.0], [1.0, 2.0], n_resamples=10)
    with pytest.raises(ValueError, match="kind must be one of"):
        smooth_ece_interval([0.2, 0.8], [1, 1], [1, 2], n_resamples=10, kind="bca")


@pytest.mark.slow
def test_interval_coverage():
    # f ~ Beta(2, 2), P(y = 1 | f) = f ** gamma; the truth is the smooth ECE of the exact
    # residuals f - f ** gamma over 10^6 draws of f. Nominal 95%, percentile bootstrap (93% in the
    # full run of this setting; the grid is in clfeval.uncertainty.calibration_intervals' notes).
    # Allowance: 150 test sets give a Monte Carlo standard error of about 2 points.
    gamma, n, reps = 0.7, 1000, 150
    f = np.random.default_rng(123).beta(2, 2, size=10**6)
    truth = smooth_ece(f, np.ones(f.size), f - f**gamma)[0]
    rng = np.random.default_rng(7)
    covered = []
    for r in range(reps):
        f = rng.beta(2, 2, size=n)
        y = rng.uniform(size=n) < f**gamma
        ci = smooth_ece_interval(f, (~y).astype(int), y.astype(int), n_resamples=300, seed=r)
        covered.append(ci.low <= truth <= ci.high)
    assert 0.88 <= np.mean(covered) <= 0.99
