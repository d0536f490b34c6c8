"""Resampled comparisons of two algorithms: hand-computed references, edge cases, properties.

References: Dietterich (1998), Neural Computation 10(7):1895-1923 (5x2cv t); Alpaydin (1999),
Neural Computation 11(8):1885-1892 (combined 5x2cv F); Nadeau & Bengio (2003), Machine Learning
52:239-281 (corrected resampled t); Bouckaert & Frank (2004), PAKDD, LNCS 3056 (corrected
repeated k-fold t). Every expected number below is computed by hand from those definitions.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from clfeval.stats.resampled import (
    combined_ftest_5x2cv,
    corrected_repeated_kfold_ttest,
    corrected_resampled_ttest,
    paired_ttest_5x2cv,
    uncorrected_resampled_ttest,
)

# Differences A - B on 5 repetitions x 2 folds, chosen so the arithmetic is easy by hand:
# row means .015 .02 .01 .015 .025; s_i^2 = sum_j (p_ij - mean_i)^2 =
# 5e-5, 2e-4, 2e-4, 5e-5, 5e-5 -> sum 5.5e-4, mean 1.1e-4.
D = np.array([[0.02, 0.01], [0.03, 0.01], [0.0, 0.02], [0.01, 0.02], [0.02, 0.03]])


def test_5x2cv_t_by_hand():
    r = paired_ttest_5x2cv(D)
    t = 0.02 / math.sqrt(1.1e-4)  # Dietterich: p_11 / sqrt(mean s_i^2)
    assert r.statistic == pytest.approx(t, rel=1e-12)
    assert r.pvalue == pytest.approx(2 * stats.t.sf(t, 5), rel=1e-12)
    assert r.df == 5.0
    assert r.estimate == pytest.approx(0.02)
    assert r.extra["mean_difference"] == pytest.approx(0.017)
    low, high = r.confidence_interval(0.95)
    half = stats.t.ppf(0.975, 5) * math.sqrt(1.1e-4)
    assert (low, high) == pytest.approx((0.02 - half, 0.02 + half), rel=1e-12)
    # the interval inverts the test: 0 inside iff p > 0.05
    assert (low < 0 < high) == (r.pvalue > 0.05)


def test_5x2cv_t_uses_only_the_first_fold_in_the_numerator():
    swapped = D[:, ::-1]  # same s_i^2, but the first fold's difference is now 0.01
    assert paired_ttest_5x2cv(swapped).statistic == pytest.approx(0.01 / math.sqrt(1.1e-4))
    # the F test does not depend on fold order
    assert combined_ftest_5x2cv(swapped).statistic == pytest.approx(combined_ftest_5x2cv(D).statistic)


def test_5x2cv_from_scores_equals_from_differences():
    rng = np.random.default_rng(0)
    a = rng.uniform(0.7, 0.9, (5, 2))
    b = rng.uniform(0.7, 0.9, (5, 2))
    assert paired_ttest_5x2cv(a, b).statistic == pytest.approx(paired_ttest_5x2cv(a - b).statistic, rel=1e-12)


def test_combined_f_by_hand():
    r = combined_ftest_5x2cv(D)
    f = 3.7e-3 / (2 * 5.5e-4)  # Alpaydin: sum p_ij^2 / (2 sum s_i^2)
    assert r.statistic == pytest.approx(f, rel=1e-12)
    assert r.pvalue == pytest.approx(stats.f.sf(f, 10, 5), rel=1e-12)
    assert r.df == (10.0, 5.0)
    assert r.alternative == "two-sided"


def test_nadeau_bengio_by_hand():
    # d = .02 .02 .04: mean .026667, var (ddof 1) = 1.3333e-4; J = 3, n_test/n_train = 10/90.
    a, b = [0.80, 0.82, 0.84], [0.78, 0.80, 0.80]
    r = corrected_resampled_ttest(a, b, n_train=90, n_test=10)
    mean, var = 0.08 / 3, (2 * (0.02 - 0.08 / 3) ** 2 + (0.04 - 0.08 / 3) ** 2) / 2
    se = math.sqrt(var * (1 / 3 + 10 / 90))
    assert r.statistic == pytest.approx(mean / se, rel=1e-9)
    assert r.statistic == pytest.approx(2 * math.sqrt(3), rel=1e-9)  # 4 * sqrt(3/4)
    assert r.df == 2.0
    assert r.pvalue == pytest.approx(2 * stats.t.sf(mean / se, 2), rel=1e-9)
    ci = r.confidence_interval(0.9)
    q = stats.t.ppf(0.95, 2)
    assert (ci.low, ci.high) == pytest.approx((mean - q * se, mean + q * se), rel=1e-9)
    assert ci.estimate == pytest.approx(mean)


def test_uncorrected_is_named_so_and_warns():
    a, b = [0.80, 0.82, 0.84], [0.78, 0.80, 0.80]
    r = uncorrected_resampled_ttest(a, b)
    assert r.statistic == pytest.approx(4.0, rel=1e-9)  # mean / sqrt(var / J)
    assert "uncorrected" in r.method and "inflated" in r.method
    assert any("too small" in n for n in r.notes)
    assert "Inflated type-I error" in uncorrected_resampled_ttest.__doc__
    # the scipy paired t test is the same thing
    assert r.pvalue == pytest.approx(stats.ttest_rel(a, b).pvalue, rel=1e-9)
    # the correction can only widen the interval
    c = corrected_resampled_ttest(a, b, n_train=90, n_test=10)
    assert c.pvalue > r.pvalue
    assert c.confidence_interval().low < r.confidence_interval().low


def test_bouckaert_frank_by_hand():
    d = [[0.01, 0.02, 0.00], [0.03, 0.01, 0.02]]
    r = corrected_repeated_kfold_ttest(d, n_repeats=2, n_folds=3)
    var = 5.5e-4 / 5
    t = 0.015 / math.sqrt(var * (1 / 6 + 1 / 2))
    assert r.statistic == pytest.approx(t, rel=1e-9)
    assert r.df == 5.0
    # it is Nadeau-Bengio with n_test / n_train = 1 / (k - 1)
    nb = corrected_resampled_ttest(np.ravel(d), n_train=2, n_test=1)
    assert nb.statistic == pytest.approx(r.statistic, rel=1e-12)


def test_one_sided_alternatives():
    a, b = [0.80, 0.82, 0.84, 0.83], [0.78, 0.80, 0.80, 0.79]
    two = corrected_resampled_ttest(a, b, n_train=80, n_test=20)
    g = corrected_resampled_ttest(a, b, n_train=80, n_test=20, alternative="greater")
    le = corrected_resampled_ttest(a, b, n_train=80, n_test=20, alternative="less")
    assert g.pvalue == pytest.approx(two.pvalue / 2)
    assert g.pvalue + le.pvalue == pytest.approx(1.0)
    assert g.confidence_interval().high == math.inf
    assert le.confidence_interval().low == -math.inf


# ---------------------------------------------------------------------------------------------
# bad and degenerate input
# ---------------------------------------------------------------------------------------------
def test_identical_scores_give_p_one_with_a_note():
    s = np.full((5, 2), 0.9)
    for r in (paired_ttest_5x2cv(s, s), combined_ftest_5x2cv(s, s),
              corrected_repeated_kfold_ttest(s, s, n_repeats=5, n_folds=2),
              corrected_resampled_ttest(s.ravel(), s.ravel(), n_train=9, n_test=1),
              uncorrected_resampled_ttest(s.ravel(), s.ravel())):
        assert r.pvalue == 1.0 and r.statistic == 0.0
        assert any("nothing to test" in n for n in r.notes)
        assert not math.isnan(r.confidence_interval().low) if r.interval else True


def test_constant_nonzero_difference_is_infinite_not_nan():
    d = np.full(6, 0.01)
    r = corrected_resampled_ttest(d, n_train=50, n_test=10)
    assert r.statistic == math.inf and r.pvalue == 0.0 and r.notes
    f = combined_ftest_5x2cv(np.full((5, 2), 0.01))
    assert f.statistic == math.inf and f.pvalue == 0.0 and f.notes


@pytest.mark.parametrize("shape", [(5,), (2, 5), (5, 3), (10,)])
def test_5x2cv_wrong_shape_names_the_expected_one(shape):
    with pytest.raises(ValueError, match=r"\(5, 2\)"):
        paired_ttest_5x2cv(np.zeros(shape), np.ones(shape))
    with pytest.raises(ValueError, match=r"\(5, 2\)"):
        combined_ftest_5x2cv(np.zeros(shape))


def test_mismatched_and_bad_input():
    with pytest.raises(ValueError, match="same shape"):
        paired_ttest_5x2cv(np.zeros((5, 2)), np.zeros((2, 5)))
    with pytest.raises(ValueError, match=r"\(3, 10\)"):
        corrected_repeated_kfold_ttest(np.zeros((10, 3)), np.ones((10, 3)), n_repeats=3, n_folds=10)
    with pytest.raises(ValueError, match="at least 2 splits"):
        corrected_resampled_ttest([0.9], [0.8], n_train=9, n_test=1)
    with pytest.raises(ValueError, match="n_train"):
        corrected_resampled_ttest([0.9, 0.8], [0.8, 0.7], n_train=0, n_test=1)
    with pytest.raises(ValueError, match="n_folds"):
        corrected_repeated_kfold_ttest([[0.1]], n_repeats=1, n_folds=1)
    with pytest.raises(ValueError, match="non-finite"):
        uncorrected_resampled_ttest([0.9, np.nan], [0.8, 0.7])
    with pytest.raises(ValueError, match="alternative"):
        paired_ttest_5x2cv(D, alternative="bigger")


# ---------------------------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------------------------
scores_5x2 = st.lists(st.floats(0, 1, allow_nan=False), min_size=10, max_size=10).map(
    lambda v: np.array(v).reshape(5, 2)
)


@given(scores_5x2, scores_5x2)
def test_swapping_a_and_b_flips_the_sign(a, b):
    for fn in (paired_ttest_5x2cv, lambda x, y: corrected_repeated_kfold_ttest(x, y, n_repeats=5, n_folds=2),
               lambda x, y: corrected_resampled_ttest(x, y, n_train=8, n_test=2)):
        ab, ba = fn(a, b), fn(b, a)
        assert ab.statistic == pytest.approx(-ba.statistic, rel=1e-9, abs=1e-9) or (
            math.isinf(ab.statistic) and ab.statistic == -ba.statistic)
        assert ab.pvalue == pytest.approx(ba.pvalue, rel=1e-9, abs=1e-12)
        assert 0.0 <= ab.pvalue <= 1.0 and not math.isnan(ab.statistic)
    f_ab, f_ba = combined_ftest_5x2cv(a, b), combined_ftest_5x2cv(b, a)
    assert f_ab.statistic == pytest.approx(f_ba.statistic, rel=1e-9) or f_ab.statistic == f_ba.statistic


@given(st.lists(st.floats(-0.2, 0.2, allow_nan=False), min_size=3, max_size=30),
       st.integers(1, 100), st.integers(1, 100))
def test_correction_never_makes_the_test_more_significant(d, n_train, n_test):
    c = corrected_resampled_ttest(d, n_train=n_train, n_test=n_test)
    u = uncorrected_resampled_ttest(d)
    assert c.pvalue >= u.pvalue - 1e-12
    assert abs(c.statistic) <= abs(u.statistic) + 1e-9 or math.isinf(u.statistic)
