"""Each interval method against an exact reference, at tolerances its arithmetic allows.

The coverage simulation (benchmarks/coverage.py, tests/test_uncertainty_coverage.py) says whether a
method holds 95%; these tests say the code computes the method it names: BCa against
scipy.stats.bootstrap on the very same resamples, the closed forms against brute force on rows,
standard errors against their textbook identities. Each would fail if a piece were dropped (the
acceleration set to 0, a standard error inflated by 1%, the smoothing of the draws removed).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.special import expit, logit
from scipy.stats import bootstrap
from scipy.stats import t as student_t

from clfeval import evaluate
from clfeval.formulas import measures as m
from clfeval.uncertainty.area_intervals import (
    average_precision_interval,
    delong_interval,
    delong_variance,
    logit_delong_interval,
)
from clfeval.formulas.curves import average_precision
from clfeval.uncertainty.influence import area_gradients, average_precision_gradients, cell_variance
from clfeval.uncertainty.scales import transformed_interval
from clfeval.statistics.rankings import BinaryRanking
from clfeval.uncertainty import (
    confusion_intervals,
    interval_from_replicates,
    jackknife_acceleration,
    mover_average,
    proportion_ci,
)

Z = 1.959963984540054


def _rows(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(y_true, y_pred) rows of a 2 x 2 count table."""
    y = np.repeat([0, 0, 1, 1], table.ravel())
    p = np.repeat([0, 1, 0, 1], table.ravel())
    return y, p


def _precision_rows(y: np.ndarray, p: np.ndarray, axis: int = -1) -> np.ndarray:
    tp = ((y == 1) & (p == 1)).sum(axis=axis)
    fp = ((y == 0) & (p == 1)).sum(axis=axis)
    return tp / (tp + fp)


def _precision_tables(t: np.ndarray) -> np.ndarray:
    return np.asarray(m.precision(t[..., 1, 1], t[..., 0, 1]), dtype=np.float64)


# ------------------------------------------------------------------------------------------
# BCa: scipy.stats.bootstrap on the same resamples
# ------------------------------------------------------------------------------------------
def _scipy_bca_and_its_resamples(table: np.ndarray, B: int, seed: int, level: float):
    y, p = _rows(table)
    n = y.size
    seen: list[np.ndarray] = []

    def statistic(yy, pp, axis=-1):
        if yy.ndim == 2 and yy.shape[-1] == n:  # a batch of resamples (the jackknife has n - 1)
            seen.append(np.stack([yy, pp], axis=1))
        return _precision_rows(yy, pp, axis)

    res = bootstrap((y, p), statistic, paired=True, vectorized=True, n_resamples=B, method="BCa",
                    confidence_level=level, rng=np.random.default_rng(seed))
    resamples = np.concatenate(seen)
    assert resamples.shape[0] == B
    return res, resamples


@pytest.mark.parametrize("table, level", [(np.array([[40, 7], [6, 9]]), 0.95), (np.array([[25, 3], [9, 30]]), 0.9)])
def test_bca_is_scipys_on_the_same_resamples(table, level):
    res, resamples = _scipy_bca_and_its_resamples(table, 4000, 7, level)
    reps = _precision_rows(resamples[:, 0], resamples[:, 1])
    estimate = float(_precision_tables(table))
    # the jackknife over the table's cells (leave one count out, weighted by the count) is the
    # jackknife over rows that scipy runs
    cells = np.flatnonzero(table.ravel())
    loo = []
    for c in cells:
        t = table.ravel().copy()
        t[c] -= 1
        loo.append(_precision_tables(t.reshape(2, 2)))
    accel = jackknife_acceleration(np.array(loo)[:, None], table.ravel()[cells].astype(float))
    low, high, _ = interval_from_replicates(reps[:, None], np.array([estimate]), level, "bca", accel)
    assert (low[0], high[0]) == pytest.approx((res.confidence_interval.low, res.confidence_interval.high),
                                              rel=1e-12, abs=1e-14)
    # the acceleration matters here: without it the bounds move by more than 1e-4
    low0, high0, _ = interval_from_replicates(reps[:, None], np.array([estimate]), level, "bca", np.zeros(1))
    assert max(abs(low0[0] - low[0]), abs(high0[0] - high[0])) > 1e-4


def test_percentile_is_numpys_quantile_of_the_replicates():
    rng = np.random.default_rng(0)
    reps = rng.beta(3, 2, size=(1001, 3))
    low, high, _ = interval_from_replicates(reps, reps.mean(axis=0), 0.9, "percentile")
    np.testing.assert_allclose(low, np.quantile(reps, 0.05, axis=0), rtol=1e-15)
    np.testing.assert_allclose(high, np.quantile(reps, 0.95, axis=0), rtol=1e-15)


# ------------------------------------------------------------------------------------------
# ROC AUC: DeLong, its logit form, the influence variance
# ------------------------------------------------------------------------------------------
def _ranking(y: np.ndarray, s: np.ndarray) -> BinaryRanking:
    """Distinct scores, highest first, with each one's counts of negatives and positives."""
    scores, inverse = np.unique(-s, return_inverse=True)
    pos = np.bincount(inverse, weights=y, minlength=scores.size).astype(np.int64)
    neg = np.bincount(inverse, weights=1 - y, minlength=scores.size).astype(np.int64)
    return BinaryRanking(-scores, neg, pos)


def _brute_delong(y: np.ndarray, s: np.ndarray) -> tuple[float, float, float, float]:
    """(AUC, DeLong variance, S10 / m, S01 / n) from all pairs of rows."""
    pos, neg = s[y == 1], s[y == 0]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    auc = psi.mean()
    s10, s01 = v10.var(ddof=1), v01.var(ddof=1)
    return auc, s10 / pos.size + s01 / neg.size, s10, s01


def _data(n: int, seed: int, ties: bool = False) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    y[:2], y[2:4] = 1, 0
    s = rng.normal(size=n) + 1.2 * y
    return y, (np.round(s, 1) if ties else s)


@pytest.mark.parametrize("ties", [False, True])
def test_logit_delong_is_the_formula_on_rows(ties):
    y, s = _data(70, 1, ties)
    auc, var, _, _ = _brute_delong(y, s)
    r = _ranking(y, s)
    assert delong_variance(r) == pytest.approx((auc, var), rel=1e-12)
    m_, n_ = y.sum(), (1 - y).sum()
    q = student_t.ppf(0.975, min(m_, n_) - 1)
    half = q * np.sqrt(var) / (auc * (1 - auc))
    ci = logit_delong_interval(r)
    assert (ci.low, ci.high) == pytest.approx((expit(logit(auc) - half), expit(logit(auc) + half)), rel=1e-12)
    assert ci.standard_error == pytest.approx(np.sqrt(var), rel=1e-12)
    plain = delong_interval(r)  # pROC's
    assert (plain.low, plain.high) == pytest.approx((auc - Z * np.sqrt(var), min(1.0, auc + Z * np.sqrt(var))),
                                                    rel=1e-12)


def test_the_auc_influence_variance_is_delong_with_n_minus_1_over_n():
    # case influence (multinomial over cells) = S10 (m - 1) / m^2 + S01 (n - 1) / n^2, exactly
    y, s = _data(90, 2, ties=True)
    r = _ranking(y, s)
    _, _, s10, s01 = _brute_delong(y, s)
    m_, n_ = y.sum(), (1 - y).sum()
    g_neg, g_pos = area_gradients(r, "roc_auc")
    var = cell_variance(r.negatives(), r.pos, g_neg, g_pos)
    assert float(var) == pytest.approx(s10 * (m_ - 1) / m_**2 + s01 * (n_ - 1) / n_**2, rel=1e-12)


def test_complete_separation_takes_the_hanley_mcneil_score_bound():
    y = np.array([1] * 6 + [0] * 30)
    s = np.concatenate([np.linspace(5, 4, 6), np.linspace(3, 0, 30)])
    ci = logit_delong_interval(_ranking(y, s))
    assert ci.estimate == 1.0 and ci.high == 1.0
    a, mm, nn = ci.low, 6, 30
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)  # Hanley & McNeil (1982), eq. 2
    se = np.sqrt((a * (1 - a) + (mm - 1) * (q1 - a * a) + (nn - 1) * (q2 - a * a)) / (mm * nn))
    assert 1 - a == pytest.approx(student_t.ppf(0.975, 5) * se, rel=1e-9)
    assert 0.5 < a < 0.95


def test_one_positive_gives_nan_not_zero_to_one():
    y = np.array([1] + [0] * 20)
    s = np.linspace(1, 0, 21)
    for interval in (delong_interval, logit_delong_interval, average_precision_interval):
        ci = interval(_ranking(y, s))
        assert np.isnan(ci.low) and np.isnan(ci.high), interval.__name__
    from clfeval.stats import delong_auc_ci

    with pytest.raises(ValueError, match="at least 2 positive"):  # pROC's function says why
        delong_auc_ci(y, s)


# ------------------------------------------------------------------------------------------
# average precision: gradients, variance, the interval
# ------------------------------------------------------------------------------------------
def test_average_precision_gradients_are_its_derivatives():
    y, s = _data(40, 3, ties=True)
    r = _ranking(y, s)
    neg, pos = np.asarray(r.negatives(), float), np.asarray(r.pos, float)
    ap, g_neg, g_pos = average_precision_gradients(neg, pos)
    assert float(ap) == pytest.approx(r.average_precision, rel=1e-14)
    h = 1e-6
    for side, grad in ((0, g_neg), (1, g_pos)):
        for d in range(neg.size):
            up, down = np.stack([neg, pos]), np.stack([neg, pos])
            up[side, d] += h
            down[side, d] -= h
            numeric = (average_precision(up[0], up[1]) - average_precision(down[0], down[1])) / (2 * h)
            assert grad[d] == pytest.approx(numeric, abs=1e-7)


def test_average_precision_interval_is_the_formula():
    y, s = _data(80, 4)
    r = _ranking(y, s)
    neg, pos = np.asarray(r.negatives(), float), np.asarray(r.pos, float)
    ap, g_neg, g_pos = average_precision_gradients(neg, pos)
    # the influence variance by cases: each case's gradient, centred, squared, summed
    per_case = np.concatenate([np.repeat(g_neg, neg.astype(int)), np.repeat(g_pos, pos.astype(int))])
    var = float(((per_case - per_case.mean()) ** 2).sum())
    assert float(cell_variance(neg, pos, g_neg, g_pos)) == pytest.approx(var, rel=1e-12)
    q = student_t.ppf(0.975, min(y.sum(), (1 - y).sum()) - 1)
    half = q * np.sqrt(var) / (ap * (1 - ap))
    ci = average_precision_interval(r)
    assert (ci.low, ci.high) == pytest.approx((expit(logit(ap) - half), expit(logit(ap) + half)), rel=1e-12)
    perfect = average_precision_interval(_ranking(np.array([1, 1, 1, 0, 0]), np.arange(5.0)[::-1]))
    assert perfect.estimate == 1.0 and perfect.high == 1.0
    assert perfect.low == pytest.approx(float(proportion_ci(3, 3).low), rel=1e-15)


# ------------------------------------------------------------------------------------------
# the report's analytic intervals: MOVER, the transformed delta method, weighted recall
# ------------------------------------------------------------------------------------------
def _wilson(x: float, n: float, z: float = Z) -> tuple[float, float]:
    p = x / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_balanced_accuracy_is_mover_of_the_wilson_recalls():
    table = np.array([[50, 4], [0, 6]])  # every positive caught: recall 1
    d = confusion_intervals(table)
    (l0, u0), (l1, u1) = _wilson(50, 54), _wilson(6, 6)
    r0, r1 = 50 / 54, 1.0
    ba = (r0 + r1) / 2
    want = (ba - np.hypot(r0 - l0, r1 - l1) / 2, ba + np.hypot(u0 - r0, u1 - r1) / 2)
    ci = d["overall"]["balanced_accuracy"]
    assert (ci.low, ci.high) == pytest.approx(want, rel=1e-12)
    assert ci.high - ci.low > 0.2  # informative at the boundary, where the delta method had width 0
    assert d["averages"]["macro"]["recall"].low == ci.low


def test_weighted_recall_is_the_accuracy_interval():
    d = confusion_intervals(np.array([[30, 5, 2], [4, 20, 6], [1, 2, 9]]))
    acc, wr = d["overall"]["accuracy"], d["averages"]["weighted"]["recall"]
    assert (wr.low, wr.high) == (acc.low, acc.high) and wr.estimate == pytest.approx(acc.estimate, rel=1e-15)


def test_averages_of_proportions_reach_as_far_as_delta_or_mover():
    table = np.array([[40, 6, 3], [5, 22, 4], [2, 3, 15]])
    d = confusion_intervals(table)
    per = d["per_class"]["precision"]
    values = np.asarray(per.estimate)
    mover = mover_average(per, values, None, np.asarray(d["averages"]["macro"]["precision"].estimate), 0.95)
    ci = d["averages"]["macro"]["precision"]
    assert ci.low <= mover.low and ci.high >= mover.high
    assert min(abs(ci.low - mover.low), abs(ci.high - mover.high)) < 1e-15 or "delta" in ci.method


@given(
    est=st.floats(0.0, 1.0), center=st.floats(1e-6, 1 - 1e-6), se=st.floats(0.0, 0.5),
    signed=st.booleans(),
)
@example(est=1.0, center=0.93, se=0.1, signed=False)
@example(est=0.0, center=0.01, se=0.05, signed=True)
def test_transformed_intervals_stay_in_range_and_hold_the_estimate(est, center, se, signed):
    lo_lim, hi_lim = (-1.0, 1.0) if signed else (0.0, 1.0)
    e = lo_lim + (hi_lim - lo_lim) * est
    c = lo_lim + (hi_lim - lo_lim) * center
    low, high = transformed_interval(np.array(e), np.array(c), np.array(se), Z, (lo_lim, hi_lim))
    assert lo_lim <= low <= e + 1e-12 and e - 1e-12 <= high <= hi_lim
    wider_low, wider_high = transformed_interval(np.array(e), np.array(c), np.array(se * 1.5 + 1e-3), Z,
                                                 (lo_lim, hi_lim))
    assert wider_low <= low + 1e-12 and wider_high >= high - 1e-12


def test_smoothed_draws_give_recall_one_a_width():
    # 6 of 6 positives caught; the draws take shares (c + 1/2) / (n + 2): recall* ~ Bin(6, 6.5/7) / 6,
    # whose 2.5% quantile is 4/6 (P(X <= 3) = 0.5%, P(X <= 4) = 6.2%); unsmoothed it would be 1
    d = confusion_intervals(np.array([[50, 4], [0, 6]]), method="bootstrap", n_resamples=20000, seed=3,
                            sampling="stratified")
    ci = d["per_class"]["recall"]
    assert ci.low[1] == pytest.approx(4 / 6, abs=1e-12) and ci.high[1] == 1.0
    assert "shares of cell + 1/2" in ci.method and "stratified by true class" in ci.method


def test_no_positive_in_the_sample_leaves_accuracy_its_interval():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate(np.zeros(30, int), y_score=np.linspace(0, 1, 30), labels=[0, 1], threshold=0.8)
        d = ev.intervals()
    acc = d["overall"]["accuracy"]
    lo, hi = _wilson(24, 30)
    assert (acc.low, acc.high) == pytest.approx((lo, hi), rel=1e-12)
    assert np.isnan(d["per_class"]["recall"].low[1]) and np.isnan(d["overall"]["roc_auc"].low)
    assert any("recall" in note and "no true samples" in note for note in d["notes"])


def test_the_averaged_auc_influence_carries_the_exact_influence_standard_error():
    # binary: both classes' AUCs are the same number, so their macro average's influence is the
    # AUC's, whose variance is DeLong's with (m - 1) / m factors (see above), from the rows. The
    # report gives a binary task's averages the AUC's own (DeLong) interval; the influence machinery
    # the multi-class averages use is checked here on the binary case, where its answer is known.
    from clfeval.uncertainty.influence import area_influences

    y, s = _data(120, 5, ties=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate(y, y_score=s, labels=[0, 1])
        d = ev.intervals()
    infl = area_influences(ev.cases, list(ev.rankings.values()), ev.micro, "roc_auc", per_class=False)
    estimate, u = infl["macro"]
    _, _, s10, s01 = _brute_delong(y, s)
    m_, n_ = y.sum(), (1 - y).sum()
    want = np.sqrt(s10 * (m_ - 1) / m_**2 + s01 * (n_ - 1) / n_**2)
    assert float(np.sqrt(np.sum(np.asarray(u, dtype=np.float64) ** 2))) == pytest.approx(want, rel=1e-12)
    assert estimate == pytest.approx(ev.report.overall["roc_auc"], abs=1e-15)
    # and the report's binary averages carry the AUC's own interval
    assert d["averages"]["macro"]["roc_auc"].standard_error == d["overall"]["roc_auc"].standard_error
