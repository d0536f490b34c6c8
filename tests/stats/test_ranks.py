"""Rank tests over several data sets: Demšar's (2006) worked example, scipy oracles, properties.

Source of the reference numbers: Demšar, J. (2006). Statistical comparisons of classifiers over
multiple data sets. JMLR 7:1-30.
- Table 6: AUC of C4.5, C4.5+m, C4.5+cf, C4.5+m+cf on 14 UCI data sets (below), average ranks
  3.143, 2.000, 2.893, 1.964; Friedman chi^2_F = 9.28, Iman-Davenport F_F = 3.69 (sec. 3.2.4).
  The table prints AUCs to three decimals; on "voting" C4.5+cf and C4.5+m+cf both print 0.975
  but are ranked 2 and 3 (the unrounded AUCs differ), so that cell is 0.9751 here. With the
  printed tie the ranks would be 2.929 / 1.929 instead (tested too).
- Table 5: critical values q_alpha for the Nemenyi and Bonferroni-Dunn tests, k = 2..10 (one
  misprint: Bonferroni-Dunn, alpha = 0.05, k = 9 is 2.734, not 2.724).
- Sec. 3.2.4: Nemenyi CD = 2.569 sqrt(4*5/(6*14)) = 1.25 at alpha = 0.05 (1.12 at 0.10, where
  C4.5 differs from C4.5+m and C4.5+m+cf); Bonferroni-Dunn CD = 2.394 * 0.488 = 1.168 (the paper
  prints 1.16), only C4.5+m+cf differs from C4.5; Holm with C4.5 as control rejects C4.5+m+cf
  (p = 0.016 < 0.05/3) and C4.5+m (p = 0.019 < 0.05/2), not C4.5+cf (p = 0.607).
- Table 2 / sec. 3.1.3: Wilcoxon, C4.5+m vs C4.5: R+ = 93, R- = 12, T = 12 <= 21 (the critical
  value for N = 14, alpha = 0.05); exact p = 0.0078 < 0.01 here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from clfeval.stats.ranks import (
    average_ranks,
    binomial_test,
    bonferroni_dunn,
    critical_difference,
    critical_value,
    friedman,
    holm,
    holm_control,
    nemenyi,
    nemenyi_groups,
    sign_test,
    wilcoxon,
)

NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
# Demšar (2006) Table 6 (see the module docstring about "voting").
DEMSAR = np.array([
    [0.763, 0.768, 0.771, 0.798],  # adult (sample)
    [0.599, 0.591, 0.590, 0.569],  # breast cancer
    [0.954, 0.971, 0.968, 0.967],  # breast cancer wisconsin
    [0.628, 0.661, 0.654, 0.657],  # cmc
    [0.882, 0.888, 0.886, 0.898],  # ionosphere
    [0.936, 0.931, 0.916, 0.931],  # iris
    [0.661, 0.668, 0.609, 0.685],  # liver disorders
    [0.583, 0.583, 0.563, 0.625],  # lung cancer
    [0.775, 0.838, 0.866, 0.875],  # lymphography
    [1.000, 1.000, 1.000, 1.000],  # mushroom
    [0.940, 0.962, 0.965, 0.962],  # primary tumor
    [0.619, 0.666, 0.614, 0.669],  # rheum
    [0.972, 0.981, 0.9751, 0.975],  # voting (0.975 and 0.975 printed, ranked 2 and 3)
    [0.957, 0.978, 0.946, 0.970],  # wine
])
DEMSAR_RANKS = (3.143, 2.000, 2.893, 1.964)

# Demšar (2006) Table 5.
TABLE5 = {
    ("nemenyi", 0.05): [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
    ("nemenyi", 0.10): [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920],
    ("bonferroni-dunn", 0.05): [1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, 2.724, 2.773],
    ("bonferroni-dunn", 0.10): [1.645, 1.960, 2.128, 2.241, 2.326, 2.394, 2.450, 2.498, 2.539],
}


# ---------------------------------------------------------------------------------------------
# Demšar's worked example
# ---------------------------------------------------------------------------------------------
def test_demsar_average_ranks_and_friedman():
    r = friedman(DEMSAR, names=NAMES)
    assert np.round(r.extra["average_ranks"], 3).tolist() == list(DEMSAR_RANKS)
    assert round(r.statistic, 2) == 9.28
    assert r.df == 3.0
    assert r.pvalue == pytest.approx(stats.chi2.sf(r.statistic, 3))
    iman = r.extra["iman_davenport"]
    assert round(iman.statistic, 2) == 3.69
    assert iman.df == (3.0, 39.0)
    assert iman.pvalue < 0.05 and stats.f.isf(0.05, 3, 39) == pytest.approx(2.85, abs=0.005)  # paper: 2.85
    assert r.extra["names"] == tuple(NAMES)


def test_demsar_table_as_printed_ties_on_voting():
    printed = DEMSAR.copy()
    printed[12, 2] = 0.975
    r = friedman(printed)
    assert np.round(r.extra["average_ranks"], 3).tolist() == [3.143, 2.0, 2.929, 1.929]


@pytest.mark.parametrize(("test", "alpha"), list(TABLE5))
def test_critical_values_match_demsar_table_5(test, alpha):
    got = [critical_value(k, alpha, test) for k in range(2, 11)]
    want = list(TABLE5[(test, alpha)])
    if (test, alpha) == ("bonferroni-dunn", 0.05):
        # Misprint in Table 5 (copied into Orange and many scripts): k = 9 reads 2.724, but
        # z_{1 - 0.05/16} = 2.7344 (0.10 column and k = 8, 10 fit the formula to 3 decimals).
        assert got[7] == pytest.approx(stats.norm.isf(0.05 / 16)) and round(got[7], 3) == 2.734
        want[7] = 2.734
    # Table 5 is rounded to 3 decimals; k = 3 and 7 at alpha = 0.05 (Nemenyi) are off by one in
    # the last digit (the studentized range gives 2.3437 and 2.9486).
    np.testing.assert_allclose(got, want, atol=1.01e-3)


def test_demsar_nemenyi():
    r = nemenyi(DEMSAR, names=NAMES)
    cd = r.extra["critical_difference"]
    assert round(cd, 2) == 1.25
    assert cd == pytest.approx(2.569 * math.sqrt(4 * 5 / (6 * 14)), abs=1e-3)
    assert not any(map(any, r.extra["significant"]))  # nothing at 0.05
    assert r.extra["groups"] == [(3, 1, 2, 0)]
    r10 = nemenyi(DEMSAR, alpha=0.10)
    assert round(r10.extra["critical_difference"], 2) == 1.12
    sig = np.array(r10.extra["significant"])
    assert sig.sum() == 4 and sig[0, 1] and sig[0, 3] and sig[1, 0] and sig[3, 0]
    # the same from the average ranks
    r2 = nemenyi(r.extra["average_ranks"], n_datasets=14)
    assert r2.extra["critical_difference"] == cd
    np.testing.assert_allclose(r2.extra["pvalues"], r.extra["pvalues"])


def test_nemenyi_pvalues_are_consistent_with_the_critical_difference():
    r = nemenyi(DEMSAR, alpha=0.10)
    p = np.array(r.extra["pvalues"])
    off_diagonal = ~np.eye(4, dtype=bool)
    assert np.array_equal((p <= 0.10) & off_diagonal, np.array(r.extra["significant"]))
    assert np.allclose(p, p.T) and np.all(np.diag(p) == 1.0)


def test_demsar_bonferroni_dunn():
    r = bonferroni_dunn(DEMSAR, control=0, names=NAMES)
    assert r.extra["q_alpha"] == pytest.approx(2.394, abs=5e-4)
    assert r.extra["critical_difference"] == pytest.approx(1.168, abs=1e-3)  # paper prints 1.16
    assert r.extra["significant"] == (False, False, False, True)
    # significance by CD and by Bonferroni-adjusted p agree
    assert r.extra["significant"][1:] == tuple(p <= 0.05 for p in r.extra["adjusted_pvalues"][1:])


def test_demsar_holm_with_a_control():
    r = holm_control(DEMSAR, control=0)
    z = np.abs(r.extra["z"])
    assert np.round(z[1:], 3).tolist() == [2.342, 0.512, 2.415]
    assert np.round(r.extra["pvalues"][1:], 3).tolist() == [0.019, 0.608, 0.016]
    assert r.extra["significant"] == (False, True, False, True)


def test_demsar_wilcoxon_c45m_vs_c45():
    r = wilcoxon(DEMSAR[:, 1], DEMSAR[:, 0])
    assert (r.extra["r_plus"], r.extra["r_minus"], r.statistic) == (93.0, 12.0, 12.0)
    assert r.statistic <= 21  # Demšar: critical value of T for N = 14 at alpha = 0.05
    assert r.pvalue < 0.01 and "exact" in r.method
    approx = wilcoxon(DEMSAR[:, 1], DEMSAR[:, 0], method="approx")
    assert approx.pvalue == pytest.approx(0.0108, abs=1e-4)
    # Demšar's z uses N(N+1)(2N+1)/24; ours the tie/zero-corrected variance: close.
    demsar_z = (12 - 14 * 15 / 4) / math.sqrt(14 * 15 * 29 / 24)
    assert abs(approx.extra["z"]) == pytest.approx(abs(demsar_z), abs=0.01)


def test_demsar_sign_test():
    # C4.5+m beats C4.5 on 10 data sets, loses on 2, ties on 2 (one tie to each side): 11 of 14.
    r = sign_test(DEMSAR[:, 1], DEMSAR[:, 0])
    assert (r.extra["wins"], r.extra["losses"], r.extra["ties"]) == (10, 2, 2)
    assert r.statistic == 11.0
    assert r.pvalue == pytest.approx(stats.binomtest(11, 14).pvalue)
    assert r.pvalue > 0.05  # Demšar: the sign test needs 12 wins of 14 at alpha = 0.05


# ---------------------------------------------------------------------------------------------
# scipy oracles
# ---------------------------------------------------------------------------------------------
@given(st.lists(st.integers(-50, 50).filter(lambda v: v != 0), min_size=2, max_size=20, unique_by=abs),
       st.sampled_from(["two-sided", "less", "greater"]))
def test_wilcoxon_matches_scipy_without_ties_or_zeros(d, alternative):
    d = np.array(d, dtype=float)
    ours = wilcoxon(d, alternative=alternative)
    ref = stats.wilcoxon(d, alternative=alternative, method="exact")
    assert ours.statistic == ref.statistic
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    ours_a = wilcoxon(d, alternative=alternative, method="approx")
    ref_a = stats.wilcoxon(d, alternative=alternative, method="asymptotic")
    assert ours_a.pvalue == pytest.approx(ref_a.pvalue, rel=1e-10)


@given(st.lists(st.integers(-5, 5), min_size=3, max_size=25))
def test_wilcoxon_wilcox_zero_method_matches_scipy_normal_approximation(d):
    d = np.array(d, dtype=float)
    ours = wilcoxon(d, zero_method="wilcox", method="approx")
    if np.count_nonzero(d) == 0:
        assert ours.pvalue == 1.0 and ours.notes
        return
    ref = stats.wilcoxon(d, zero_method="wilcox", method="asymptotic")  # tie-corrected variance
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


@given(st.lists(st.integers(-6, 6), min_size=2, max_size=16))
def test_wilcoxon_exact_equals_brute_force_with_ties_and_zeros(d):
    d = np.array(d, dtype=float)
    r = wilcoxon(d, method="exact")
    if np.count_nonzero(d) == 0:
        assert r.pvalue == 1.0
        return
    # brute force: Demšar zero handling, then all sign flips of the non-zero differences
    zeros = np.flatnonzero(d == 0)
    if zeros.size % 2:
        d = np.delete(d, zeros[0])
    ranks = stats.rankdata(np.abs(d))
    nz = d != 0
    rz = ranks[nz]
    obs = rz[d[nz] > 0].sum()
    signs = (np.arange(2 ** rz.size)[:, None] >> np.arange(rz.size)) & 1
    sums = signs @ rz
    p = min(1.0, 2 * min(np.mean(sums <= obs + 1e-9), np.mean(sums >= obs - 1e-9)))
    assert r.pvalue == pytest.approx(p, rel=1e-12)


def test_friedman_tie_corrected_matches_scipy():
    r = friedman(DEMSAR, tie_correction=True)
    ref = stats.friedmanchisquare(*DEMSAR.T)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


@given(st.integers(2, 8), st.integers(3, 6), st.data())
def test_friedman_without_ties_matches_scipy(n, k, data):
    rows = [data.draw(st.permutations(range(k))) for _ in range(n)]
    s = np.array(rows, dtype=float)
    r = friedman(s)
    ref = stats.friedmanchisquare(*s.T)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12, abs=1e-12)


@given(st.integers(0, 40), st.integers(1, 40), st.floats(0.01, 0.99),
       st.sampled_from(["two-sided", "less", "greater"]))
def test_binomial_test_matches_scipy(x, n, rate, alternative):
    x = min(x, n)
    r = binomial_test(x, n, rate, alternative=alternative)
    ref = stats.binomtest(x, n, rate, alternative=alternative)
    assert r.pvalue == pytest.approx(min(1.0, ref.pvalue), rel=1e-12)
    ci = r.confidence_interval(0.9)
    ref_ci = ref.proportion_ci(0.9, method="exact")
    assert (ci.low, ci.high) == pytest.approx((ref_ci.low, ref_ci.high), rel=1e-12)
    assert r.estimate == x / n


def test_binomial_test_clopper_pearson_reference():
    # Clopper-Pearson 95% for 12/100: (0.0636, 0.2002) (exact beta quantiles).
    ci = binomial_test(12, 100, 0.05).confidence_interval()
    assert (round(ci.low, 4), round(ci.high, 4)) == (0.0636, 0.2002)
    assert ci.method == "Clopper-Pearson"


# ---------------------------------------------------------------------------------------------
# Holm
# ---------------------------------------------------------------------------------------------
def test_holm_by_hand():
    r = holm([0.01, 0.04, 0.03, 0.005], alpha=0.05)
    # sorted .005 .01 .03 .04, factors 4 3 2 1 -> .02 .03 .06 .04 -> cummax .02 .03 .06 .06
    assert r.adjusted == pytest.approx((0.03, 0.06, 0.06, 0.02))
    assert r.reject == (True, False, False, True)


@given(st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=30), st.floats(0.001, 0.5))
def test_holm_properties(p, alpha):
    r = holm(p, alpha)
    p, adj = np.array(p), np.array(r.adjusted)
    assert np.all(adj >= p - 1e-15) and np.all(adj <= 1.0)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adj[order]) >= -1e-15)  # monotone in the raw p-values
    assert r.reject == tuple(adj <= alpha)
    # step-down definition
    m = p.size
    rejected = np.zeros(m, dtype=bool)
    for i, j in enumerate(order):
        if p[j] <= alpha / (m - i):
            rejected[j] = True
        else:
            break
    assert tuple(rejected) == r.reject


# ---------------------------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------------------------
tables = st.integers(2, 8).flatmap(lambda k: st.lists(
    st.lists(st.sampled_from([0.5, 0.6, 0.7, 0.8, 0.9, 1.0]), min_size=k, max_size=k), min_size=2, max_size=12))


@given(tables, st.booleans())
def test_ranks_sum_to_k_k_plus_1_over_2(rows, higher):
    s = np.array(rows)
    k = s.shape[1]
    avg = average_ranks(s, higher_is_better=higher)
    assert avg.sum() == pytest.approx(k * (k + 1) / 2)
    assert np.all((avg >= 1) & (avg <= k))
    flipped = average_ranks(-s, higher_is_better=not higher)
    np.testing.assert_allclose(avg, flipped)
    r = friedman(s, higher_is_better=higher)
    assert 0.0 <= r.pvalue <= 1.0 and not math.isnan(r.statistic)
    id_ = r.extra["iman_davenport"]
    assert 0.0 <= id_.pvalue <= 1.0 and not math.isnan(id_.statistic)
    n = nemenyi(s, higher_is_better=higher)
    assert 0.0 <= n.pvalue <= 1.0
    assert 0.0 <= holm_control(s, control=k - 1).pvalue <= 1.0


@given(st.lists(st.floats(0, 1, allow_nan=False), min_size=2, max_size=30), st.data())
def test_swapping_a_and_b(a, data):
    b = data.draw(st.lists(st.floats(0, 1, allow_nan=False), min_size=len(a), max_size=len(a)))
    ab, ba = wilcoxon(a, b), wilcoxon(b, a)
    assert ab.statistic == ba.statistic and ab.pvalue == pytest.approx(ba.pvalue, rel=1e-12)
    assert (ab.extra["r_plus"], ab.extra["r_minus"]) == (ba.extra["r_minus"], ba.extra["r_plus"])
    assert ab.extra["z"] == pytest.approx(-ba.extra["z"], abs=1e-12)
    g, le = wilcoxon(a, b, alternative="greater"), wilcoxon(b, a, alternative="less")
    assert g.pvalue == pytest.approx(le.pvalue, rel=1e-12)
    sa, sb = sign_test(a, b), sign_test(b, a)
    assert sa.pvalue == pytest.approx(sb.pvalue, rel=1e-12)
    assert sa.statistic + sb.statistic == sa.extra["n"]


def test_nemenyi_groups():
    assert nemenyi_groups([1.0, 1.5, 2.9, 3.2], 1.0) == [(0, 1), (2, 3)]
    assert nemenyi_groups([1.0, 2.0, 3.0], 1.5) == [(0, 1), (1, 2)]
    assert nemenyi_groups([1.0, 2.5, 4.0], 1.0) == []
    assert nemenyi_groups([2.0, 2.0], 1.0) == [(0, 1)]


# ---------------------------------------------------------------------------------------------
# bad and degenerate input
# ---------------------------------------------------------------------------------------------
def test_identical_scores_nothing_to_test():
    s = np.full((5, 3), 0.8)
    r = friedman(s)
    assert r.statistic == 0.0 and r.pvalue == 1.0 and r.notes
    assert r.extra["iman_davenport"].pvalue == 1.0
    assert friedman(s, tie_correction=True).pvalue == 1.0
    n = nemenyi(s)
    assert n.pvalue == 1.0 and n.notes and not any(map(any, n.extra["significant"]))
    assert bonferroni_dunn(s).pvalue == 1.0 and holm_control(s).pvalue == 1.0
    w = wilcoxon(s[:, 0], s[:, 1])
    assert w.pvalue == 1.0 and any("nothing to test" in t for t in w.notes)
    st_ = sign_test(s[:, 0], s[:, 1])
    assert st_.pvalue == 1.0 and st_.notes


def test_perfect_agreement_gives_infinite_iman_davenport_not_nan():
    s = np.tile([0.9, 0.8, 0.7], (6, 1))
    r = friedman(s)
    assert r.statistic == pytest.approx(12.0)  # N (k - 1)
    assert r.extra["iman_davenport"].statistic == math.inf
    assert r.extra["iman_davenport"].pvalue == 0.0 and r.notes


@pytest.mark.parametrize("bad", [np.zeros(5), np.zeros((1, 4)), np.zeros((5, 1)), np.zeros((2, 2, 2))])
def test_friedman_bad_shapes_name_the_expected_shape(bad):
    with pytest.raises(ValueError, match=r"n_datasets, n_classifiers"):
        friedman(bad)


def test_bad_input_messages():
    with pytest.raises(ValueError, match="same shape"):
        wilcoxon([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="at least 2 data sets"):
        sign_test([0.9], [0.8])
    with pytest.raises(ValueError, match="n_datasets"):
        nemenyi([2.0, 1.0])
    with pytest.raises(ValueError, match="not average ranks"):
        nemenyi([0.9, 0.8, 0.7], n_datasets=10)
    with pytest.raises(ValueError, match="n_datasets=3 but"):
        nemenyi(DEMSAR, n_datasets=3)
    with pytest.raises(ValueError, match="control"):
        bonferroni_dunn(DEMSAR, control=4)
    with pytest.raises(ValueError, match="alpha"):
        nemenyi(DEMSAR, alpha=5)
    with pytest.raises(ValueError, match="names"):
        friedman(DEMSAR, names=["a"])
    with pytest.raises(ValueError, match="non-finite"):
        friedman([[0.1, np.nan], [0.2, 0.3]])
    with pytest.raises(ValueError, match="exceed"):
        binomial_test(5, 3, 0.1)
    with pytest.raises(ValueError, match="rate"):
        binomial_test(1, 3, 1.5)
    with pytest.raises(ValueError, match="p-values must lie"):
        holm([0.5, 1.5])
    with pytest.raises(ValueError, match="k"):
        critical_value(1)
    with pytest.raises(ValueError, match="test must be"):
        critical_difference(4, 14, test="tukey")


def test_odd_zeros_dropped_and_noted():
    r = wilcoxon([0.5, 0.6, 0.7, 0.8], [0.5, 0.5, 0.6, 0.6])
    assert r.extra["n"] == 3 and r.extra["n_zero"] == 1 and r.notes


def test_float_rounding_is_not_a_difference():
    # 0.768 - 0.763 and 0.936 - 0.931 are both 0.005 (floats differ in the last bits)
    r = wilcoxon([0.768, 0.931, 0.3], [0.763, 0.936, 0.1])
    assert r.extra["r_plus"] == 1.5 + 3 and r.extra["r_minus"] == 1.5
    assert sign_test([0.1 + 0.2, 0.5], [0.3, 0.4]).extra["ties"] == 1
