"""McNemar's test: reference values (R, contingencytables, scipy oracle), edge cases, properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from clfeval.stats.mcnemar import mcnemar, mcnemar_table

# Agresti (1990) p. 350, presidential approval: R's `?mcnemar.test` example
# Performance <- matrix(c(794, 86, 150, 570), nrow = 2) (filled by column, so b = 150, c = 86).
# R output: mcnemar.test(Performance) -> McNemar's chi-squared = 16.818, df = 1, p-value = 4.115e-05;
# mcnemar.test(Performance, correct = FALSE) -> 17.356, p-value = 3.099e-05
# (pchisq(4096/236, 1, lower.tail = FALSE) = 3.099293e-05; with correction 4.114562e-05).
# Note: the figure "34.71" sometimes quoted for this table is not what R prints; it is 2 x 17.356.
AGRESTI = [[794, 150], [86, 570]]


def test_r_mcnemar_test_example_with_correction():
    r = mcnemar_table(AGRESTI, method="chi2-corrected")
    assert r.statistic == pytest.approx(63**2 / 236, rel=1e-12)
    assert round(r.statistic, 3) == 16.818
    assert r.pvalue == pytest.approx(4.114562e-05, rel=1e-6)
    assert r.df == 1.0


def test_r_mcnemar_test_example_without_correction():
    r = mcnemar_table(AGRESTI, method="chi2")
    assert r.statistic == pytest.approx(4096 / 236, rel=1e-12)
    assert r.pvalue == pytest.approx(3.099293e-05, rel=1e-6)


def test_agresti_difference_and_wald_interval():
    # Agresti (2002, Categorical Data Analysis, sec. 10.1): difference 0.04, Wald 95% CI (0.021, 0.059).
    r = mcnemar_table(150, 86, n=1600)
    assert r.estimate == pytest.approx(0.04)
    ci = r.confidence_interval()
    assert (round(ci.low, 3), round(ci.high, 3)) == (0.021, 0.059)
    assert "Wald" in ci.method


def test_newcombe_interval_cavo_2012():
    # Fagerland, Lydersen & Laake (2017), Statistical Analysis of Contingency Tables, ch. 8:
    # Cavo et al. (2012) table [[59, 6], [16, 80]]; the R package contingencytables' tests expect
    # Newcombe square-and-add: "estimate = -0.0621 (95% CI -0.1186 to -0.0046)" and
    # Wald: "estimate = -0.0621 (95% CI -0.1184 to -0.0058)".
    r = mcnemar_table([[59, 6], [16, 80]])
    ci = r.confidence_interval()
    assert round(r.estimate, 4) == -0.0621
    assert (round(ci.low, 4), round(ci.high, 4)) == (-0.1186, -0.0046)
    wald = mcnemar_table(6, 16, n=161).confidence_interval()
    assert (round(wald.low, 4), round(wald.high, 4)) == (-0.1184, -0.0058)


@given(st.integers(0, 60), st.integers(0, 60), st.sampled_from(["two-sided", "less", "greater"]))
def test_exact_matches_scipy_binomtest(b, c, alternative):
    r = mcnemar_table(b, c, method="exact", alternative=alternative)
    if b + c == 0:
        assert r.pvalue == 1.0 and r.notes
    else:
        assert r.pvalue == pytest.approx(stats.binomtest(b, b + c, 0.5, alternative=alternative).pvalue, rel=1e-12)


@given(st.integers(0, 60), st.integers(0, 60))
def test_mid_p_definition(b, c):
    r = mcnemar_table(b, c, method="mid-p")
    if b + c == 0:
        assert r.pvalue == 1.0
        return
    x = stats.binom(b + c, 0.5)
    lo = min(b, c)
    expected = min(1.0, 2 * (x.cdf(lo) - 0.5 * x.pmf(lo)))
    assert r.pvalue == pytest.approx(expected, rel=1e-10, abs=1e-15)
    assert r.pvalue <= mcnemar_table(b, c, method="exact").pvalue + 1e-15


@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40), st.integers(0, 40),
       st.sampled_from(["exact", "mid-p", "chi2", "chi2-corrected"]))
def test_swapping_models_mirrors(a, b, c, d, method):
    r1 = mcnemar_table([[a, b], [c, d]], method=method, alternative="greater")
    r2 = mcnemar_table([[a, c], [b, d]], method=method, alternative="less")
    assert r1.pvalue == pytest.approx(r2.pvalue, rel=1e-12)
    t1 = mcnemar_table([[a, b], [c, d]], method=method)
    t2 = mcnemar_table([[a, c], [b, d]], method=method)
    assert t1.pvalue == pytest.approx(t2.pvalue, rel=1e-12)
    assert 0.0 <= t1.pvalue <= 1.0 and not math.isnan(t1.pvalue)
    if a + b + c + d:
        assert t1.estimate == pytest.approx(-t2.estimate)
        lo, hi = t1.confidence_interval()
        assert -1.0 <= lo <= t1.estimate + 1e-12 and t1.estimate - 1e-12 <= hi <= 1.0


def test_from_predictions_counts_discordant_cases():
    y = np.array(["x", "y", "z", "x", "y", "z", "x"])
    a = np.array(["x", "y", "z", "x", "x", "x", "x"])  # right on 0,1,2,3,6
    b = np.array(["x", "x", "z", "y", "y", "z", "z"])  # right on 0,2,4,5
    r = mcnemar(y, a, b)
    assert (r.extra["b"], r.extra["c"], r.extra["n"]) == (3, 2, 7)
    assert r.estimate == pytest.approx(1 / 7)
    assert r.pvalue == pytest.approx(stats.binomtest(3, 5).pvalue)


def test_identical_predictions_give_p_one_with_note():
    r = mcnemar([0, 1, 1, 0], [0, 1, 0, 0], [0, 1, 0, 0], method="chi2")
    assert r.pvalue == 1.0 and r.statistic == 0.0
    assert any("no discordant" in note for note in r.notes)
    assert r.estimate == 0.0


def test_bad_input():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        mcnemar([0, 1, 1], [0, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="method"):
        mcnemar_table(1, 2, method="fisher")
    with pytest.raises(ValueError, match="alternative"):
        mcnemar_table(1, 2, alternative="bigger")
    with pytest.raises(ValueError, match="2x2"):
        mcnemar_table([[1, 2, 3]])
    with pytest.raises(ValueError, match="non-negative integer"):
        mcnemar_table(-1, 2)
    with pytest.raises(ValueError, match="non-negative integer"):
        mcnemar_table(1.5, 2)
    with pytest.raises(ValueError, match="smaller than"):
        mcnemar_table(5, 6, n=10)


def test_discordant_counts_only_has_no_estimate():
    r = mcnemar_table(10, 3)
    assert r.estimate is None and r.notes
    with pytest.raises(ValueError, match="no confidence interval"):
        r.confidence_interval()


def test_one_sided_interval_bounds():
    r = mcnemar_table([[50, 12], [3, 35]], alternative="greater")
    lo, hi = r.confidence_interval(0.95)
    assert hi == 1.0 and lo > 0
    two = mcnemar_table([[50, 12], [3, 35]]).confidence_interval(0.90)
    assert lo == pytest.approx(two.low)
