"""DeLong's test and interval: pROC reference values on aSAH, an O(n^2) oracle, edge cases."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats
from sklearn.metrics import roc_auc_score

from clfeval.stats.delong import delong, delong_auc_ci, delong_placements


# pROC's own test suite, tests/testthat/test-roc.test.R (github.com/xrobin/pROC), with
# r.wfns <- roc(aSAH$outcome, aSAH$wfns) etc. (helper-rocs.R; cases = "Poor", direction "<"):
#   t1 <- roc.test(r.wfns, r.s100b): Z = 2.20898359144091, p = 0.0271757822291882,
#         conf.int = (0.0104061769564846, 0.174214419249478)
#   t2 <- roc.test(r.wfns, r.ndka):  Z = 2.79777591868904, p = 0.00514557970691098,
#         conf.int = (0.0634011709339876, 0.3600405634833566)
#   t3 <- roc.test(r.ndka, r.s100b): Z = -1.39077002573558, p = 0.164295175223054,
#         conf.int = (-0.2876917446341914, 0.0488706064228094)
PAIRED = [
    ("wfns", "s100b", 2.20898359144091, 0.0271757822291882, 0.0104061769564846, 0.174214419249478),
    ("wfns", "ndka", 2.79777591868904, 0.00514557970691098, 0.0634011709339876, 0.3600405634833566),
    ("ndka", "s100b", -1.39077002573558, 0.164295175223054, -0.2876917446341914, 0.0488706064228094),
]
# Same file, roc.test(..., paired = FALSE): D statistic and p (t distribution, Welch-type df).
UNPAIRED = [
    ("wfns", "s100b", 1.43490640926908, 0.152825378808796),
    ("wfns", "ndka", 3.10125096778969, 0.00220950791756457),
    ("ndka", "s100b", -1.55995743389685, 0.120192832430845),
]


@pytest.mark.parametrize("a, b, z, p, low, high", PAIRED)
def test_proc_roc_test_paired(asah, a, b, z, p, low, high):
    r = delong(asah.outcome, asah[a], asah[b], pos_label="Poor")
    assert r.statistic == pytest.approx(z, rel=1e-10)
    assert r.pvalue == pytest.approx(p, rel=1e-10)
    ci = r.confidence_interval(0.95)
    assert (ci.low, ci.high) == (pytest.approx(low, rel=1e-9), pytest.approx(high, rel=1e-9))
    assert "correlated" in r.method


def test_proc_aucs_and_reversal(asah):
    # pROC's roc.test print-out on aSAH: AUC of wfns 0.8236789, s100b 0.7313686.
    r = delong(asah.outcome, asah.wfns, asah.s100b, pos_label="Poor")
    assert r.extra["auc_a"] == pytest.approx(0.8236789, abs=5e-8)
    assert r.extra["auc_b"] == pytest.approx(0.7313686, abs=5e-8)
    back = delong(asah.outcome, asah.s100b, asah.wfns, pos_label="Poor")
    assert back.statistic == pytest.approx(-r.statistic) and back.pvalue == pytest.approx(r.pvalue)


def test_proc_one_sided(asah):
    # test-roc.test.R: roc.test(r.wfns, r.s100b, alternative = "greater"/"less"): p = 0.0135878911145941 /
    # 0.986412108885406; unpaired greater/less: 0.076412689404398 / 0.923587310595602.
    y, w, s = asah.outcome, asah.wfns, asah.s100b
    assert delong(y, w, s, pos_label="Poor", alternative="greater").pvalue == pytest.approx(0.0135878911145941, rel=1e-10)
    assert delong(y, w, s, pos_label="Poor", alternative="less").pvalue == pytest.approx(0.986412108885406, rel=1e-10)
    up = dict(pos_label="Poor", paired=False)
    assert delong(y, w, s, alternative="greater", **up).pvalue == pytest.approx(0.076412689404398, rel=1e-10)
    assert delong(y, w, s, alternative="less", **up).pvalue == pytest.approx(0.923587310595602, rel=1e-10)


@pytest.mark.parametrize("a, b, d, p", UNPAIRED)
def test_proc_roc_test_unpaired(asah, a, b, d, p):
    r = delong(asah.outcome, asah[a], asah[b], pos_label="Poor", paired=False)
    assert r.statistic == pytest.approx(d, rel=1e-10)
    assert r.pvalue == pytest.approx(p, rel=1e-10)
    # the same through two separate samples
    r2 = delong(asah.outcome, asah[a], asah[b], y_true_b=asah.outcome, pos_label="Poor")
    assert r2.statistic == pytest.approx(d, rel=1e-10) and r2.df == pytest.approx(r.df)


def test_proc_ci_auc(asah):
    # pROC tests/testthat/test-ci.auc.R: ci.auc(r.ndka) = c(0.501244999271703, 0.611957994579946,
    # 0.722670989888189) (DeLong). pROC's documentation, ci.auc(aSAH$outcome, aSAH$s100b):
    # "95% CI: 0.6301-0.8326 (DeLong)", AUC 0.7314.
    ci = delong_auc_ci(asah.outcome, asah.ndka, pos_label="Poor")
    assert (ci.low, ci.estimate, ci.high) == (
        pytest.approx(0.501244999271703, rel=1e-10),
        pytest.approx(0.611957994579946, rel=1e-10),
        pytest.approx(0.722670989888189, rel=1e-10),
    )
    ci = delong_auc_ci(asah.outcome, asah.s100b, pos_label="Poor")
    assert (round(ci.low, 4), round(ci.estimate, 4), round(ci.high, 4)) == (0.6301, 0.7314, 0.8326)
    assert ci.method == "DeLong"
    # ci.auc(outcome ~ ndka, data = aSAH, subset = (gender == "Female")) = c(0.5261398281, 0.6671428571, 0.8081458862)
    f = asah[asah.gender == "Female"]
    ci = delong_auc_ci(f.outcome, f.ndka, pos_label="Poor")
    assert (ci.low, ci.estimate, ci.high) == (
        pytest.approx(0.5261398281, abs=1e-10), pytest.approx(0.6671428571, abs=1e-10),
        pytest.approx(0.8081458862, abs=1e-10))


# -- an O(n^2) oracle of DeLong's structural components ----------------------------------------
def _slow(y: np.ndarray, scores: list[np.ndarray]):
    pos, neg = y == 1, y == 0
    m, n = pos.sum(), neg.sum()
    v10, v01, aucs = [], [], []
    for s in scores:
        x, z = s[pos], s[neg]
        psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
        v10.append(psi.mean(axis=1))
        v01.append(psi.mean(axis=0))
        aucs.append(psi.mean())
    s10 = np.atleast_2d(np.cov(np.array(v10)))
    s01 = np.atleast_2d(np.cov(np.array(v01)))
    return np.array(aucs), s10 / m + s01 / n, v10, v01


def _midrank_placements(y: np.ndarray, s: np.ndarray):
    """Sun & Xu (2014) in their own terms: midranks of pooled, positive-only and negative-only scores."""
    pos = y == 1
    m, n = pos.sum(), (~pos).sum()
    z = stats.rankdata(s)
    v10 = (z[pos] - stats.rankdata(s[pos])) / n
    v01 = 1 - (z[~pos] - stats.rankdata(s[~pos])) / m
    return v10, v01


@st.composite
def _paired_data(draw):
    n = draw(st.integers(4, 40))
    y = draw(hnp.arrays(np.int8, n, elements=st.integers(0, 1)))
    y[:2], y[2:4] = 0, 1
    # few distinct values -> many ties
    grid = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 2.0, -1.0])
    a = draw(hnp.arrays(np.float64, n, elements=grid | st.floats(-3, 3)))
    b = draw(hnp.arrays(np.float64, n, elements=grid | st.floats(-3, 3)))
    return y, a, b


@given(_paired_data())
def test_fast_placements_match_slow_and_midranks(data):
    y, a, b = data
    aucs, cov, v10, v01 = _slow(y, [a, b])
    for s, auc, v1, v0 in zip((a, b), aucs, v10, v01):
        fast_auc, placements = delong_placements(y == 1, s)
        assert fast_auc == pytest.approx(auc, abs=1e-12)
        assert fast_auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
        np.testing.assert_allclose(placements[y == 1], v1, atol=1e-12)
        np.testing.assert_allclose(placements[y == 0], v0, atol=1e-12)
        m1, m0 = _midrank_placements(y, s)
        np.testing.assert_allclose(placements[y == 1], m1, atol=1e-12)
        np.testing.assert_allclose(placements[y == 0], m0, atol=1e-12)
    r = delong(y, a, b)
    var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    assert r.estimate == pytest.approx(aucs[0] - aucs[1], abs=1e-12)
    assert r.extra["se"] == pytest.approx(math.sqrt(max(var, 0)), abs=1e-9)
    if r.extra["se"] > 1e-9:
        assert r.statistic == pytest.approx((aucs[0] - aucs[1]) / math.sqrt(var), rel=1e-6)
    assert 0.0 <= r.pvalue <= 1.0
    ci = delong_auc_ci(y, a)
    half = stats.norm.ppf(0.975) * math.sqrt(cov[0, 0])
    assert ci.low == pytest.approx(max(0, aucs[0] - half), abs=1e-9)
    assert ci.high == pytest.approx(min(1, aucs[0] + half), abs=1e-9)


@given(_paired_data(), st.sampled_from(["two-sided", "less", "greater"]))
def test_swap_negates_and_monotone_transform_invariant(data, alternative):
    y, a, b = data
    r = delong(y, a, b, alternative=alternative)
    back = delong(y, b, a, alternative={"less": "greater", "greater": "less"}.get(alternative, alternative))
    assert back.estimate == pytest.approx(-r.estimate, abs=1e-12)
    assert back.pvalue == pytest.approx(r.pvalue, abs=1e-9)
    shifted = delong(y, 2.0 * a, 4.0 * b, alternative=alternative)  # order-preserving (exact in binary)
    assert shifted.estimate == pytest.approx(r.estimate, abs=1e-12)
    assert shifted.pvalue == pytest.approx(r.pvalue, abs=1e-9)


def test_identical_scores_give_p_one():
    # pROC test-roc.test.R: roc.test(r.wfns, r.wfns) gives Z = 0 and p = 1.
    y = [0, 0, 1, 1, 0, 1, 1]
    s = [0.1, 0.5, 0.5, 0.9, 0.3, 0.2, 0.8]
    r = delong(y, s, s)
    assert r.statistic == 0.0 and r.pvalue == 1.0 and r.notes


def test_all_equal_scores():
    y = [0, 0, 1, 1]
    ci = delong_auc_ci(y, [0.5] * 4)
    assert (ci.low, ci.estimate, ci.high) == (0.5, 0.5, 0.5)
    r = delong(y, [0.5] * 4, [0.5] * 4)
    assert r.pvalue == 1.0 and r.notes
    # degenerate: constant B (AUC 0.5, zero variance) against perfectly separating A (AUC 1)
    r = delong(y, [0, 0, 1, 1], [0.5] * 4)
    assert r.statistic == math.inf and r.pvalue == 0.0 and "degenerate" in r.notes[0]


def test_one_sample_test_of_half():
    y = np.array([0, 0, 1, 1, 0, 1, 0, 1])
    s = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.3, 0.7])
    r = delong(y, s)
    ci = delong_auc_ci(y, s)
    assert r.estimate == pytest.approx(ci.estimate)
    se = r.extra["se"]
    assert r.statistic == pytest.approx((ci.estimate - 0.5) / se)
    assert r.pvalue == pytest.approx(2 * stats.norm.sf(abs(r.statistic)))


def test_bad_input():
    y = [0, 0, 1, 1, 0]
    s = [0.1, 0.2, 0.3, 0.4, 0.5]
    with pytest.raises(ValueError, match="unweighted"):
        delong(y, s, s, sample_weight=[1] * 5)
    with pytest.raises(ValueError, match="unweighted"):
        delong_auc_ci(y, s, sample_weight=[1] * 5)
    with pytest.raises(ValueError, match="single class"):
        delong([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="at least 2 positive"):
        delong([0, 0, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="same length"):
        delong(y, s, s[:4])
    with pytest.raises(ValueError, match="inconsistent"):
        delong(y, s[:4])
    with pytest.raises(ValueError, match="pos_label"):
        delong(["a", "b", "a", "b"], [1, 2, 3, 4])
    with pytest.raises(ValueError, match="paired=True"):
        delong(y, s, s, y_true_b=y, paired=True)
    with pytest.raises(ValueError, match="missing|NaN"):
        delong(y, [0.1, np.nan, 0.3, 0.4, 0.5])
    with pytest.raises(ValueError, match="alternative"):
        delong(y, s, s, alternative="two.sided")
    with pytest.raises(ValueError, match="one score per case"):
        delong(y, np.ones((5, 2)))


def test_average_ci_of_two_mirrored_classes_is_delongs_interval():
    from clfeval.stats.delong import delong_auc_ci, delong_average_ci

    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 120)
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(120), 0, 1), 2)  # ties
    one = delong_auc_ci(y, s)
    avg = delong_average_ci(y, np.column_stack([1 - s, s]))
    assert (avg.estimate, avg.low, avg.high) == pytest.approx((one.estimate, one.low, one.high), abs=1e-12)


def test_average_ci_standard_error_agrees_with_a_case_bootstrap():
    from sklearn.metrics import roc_auc_score

    from clfeval.stats.delong import delong_average_ci

    rng = np.random.default_rng(12)
    n, k = 400, 3
    y = rng.integers(0, k, n)
    s = rng.normal(size=(n, k)) + 0.8 * np.eye(k)[y]
    for average in ("macro", "weighted"):
        ci = delong_average_ci(y, s, average=average, level=0.95)
        se = (ci.high - ci.low) / (2 * 1.959963984540054)
        assert ci.estimate == pytest.approx(roc_auc_score(np.eye(k)[y], s, average=average), abs=1e-12)
        reps = []
        for _ in range(400):
            i = rng.integers(0, n, n)
            reps.append(roc_auc_score(np.eye(k)[y[i]], s[i], average=average))
        assert se == pytest.approx(np.std(reps, ddof=1), rel=0.15)


def test_average_ci_needs_two_cases_of_each_side_per_class():
    from clfeval.stats.delong import delong_average_ci

    with pytest.raises(ValueError, match="class 2 has 1 positive"):
        delong_average_ci([0, 0, 1, 1, 2], np.eye(3)[[0, 0, 1, 1, 2]])
    with pytest.raises(ValueError, match="must have shape"):
        delong_average_ci([0, 1, 0, 1], np.zeros((4, 3)))


def test_average_test_of_mirrored_binary_scores_is_the_paired_delong_test():
    from clfeval.stats.delong import delong_average

    rng = np.random.default_rng(13)
    y = rng.integers(0, 2, 150)
    a = np.clip(0.3 * y + 0.7 * rng.random(150), 0, 1)
    b = np.clip(0.15 * y + 0.85 * rng.random(150), 0, 1)
    want = delong(y, a, b)
    got = delong_average(y, np.column_stack([1 - a, a]), np.column_stack([1 - b, b]))
    assert (got.statistic, got.pvalue, got.estimate) == pytest.approx((want.statistic, want.pvalue, want.estimate),
                                                                      abs=1e-10)
    assert got.confidence_interval().low == pytest.approx(want.confidence_interval().low, abs=1e-10)
    swapped = delong_average(y, np.column_stack([1 - b, b]), np.column_stack([1 - a, a]))
    assert swapped.statistic == pytest.approx(-got.statistic) and swapped.pvalue == pytest.approx(got.pvalue)
