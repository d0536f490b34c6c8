"""F-beta's interval from binomial pieces and the two-class MCC bound (clfeval.uncertainty.cell_ratio_intervals),
and how confusion_intervals uses them. Their coverage at 1-2 positives is in test_uncertainty_coverage.py (slow)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clfeval.formulas import measures as m
from clfeval.uncertainty import confusion_intervals, proportion_ci
from clfeval.uncertainty.cell_ratio_intervals import f_beta_interval, mcc_bound

counts = st.integers(0, 60)
betas = st.sampled_from([0.5, 1.0, 2.0, 3.0])


@settings(max_examples=300, deadline=None)
@given(tp=counts, fp=counts, fn=counts)
def test_f1_is_the_wilson_interval_of_the_jaccard_index_mapped(tp, fp, fn):
    low, high = f_beta_interval(np.array(tp), np.array(fp), np.array(fn))
    m_ = tp + fp + fn
    if m_ == 0:
        assert np.isnan(low) and np.isnan(high)
        return
    j = proportion_ci(tp, m_)  # Wilson: J = TP / (TP + FP + FN), F1 = 2J / (1 + J)
    assert float(low) == pytest.approx(2 * j.low / (1 + j.low), rel=1e-12, abs=1e-15)
    assert float(high) == pytest.approx(2 * j.high / (1 + j.high), rel=1e-12, abs=1e-15)


@settings(max_examples=300, deadline=None)
@given(tp=counts, fp=counts, fn=counts, beta=betas)
def test_f_beta_limits_hold_the_estimate_inside_the_range(tp, fp, fn, beta):
    low, high = (float(v) for v in f_beta_interval(np.array(tp), np.array(fp), np.array(fn), beta))
    if tp + fp + fn == 0:
        assert np.isnan(low) and np.isnan(high)
        return
    f = float(m.fbeta(np.array(tp), np.array(fp), np.array(fn), beta))
    assert 0.0 <= low <= f + 1e-12 and f - 1e-12 <= high <= 1.0
    assert (low == 0.0) == (tp == 0) and (high == 1.0) == (fp + fn == 0)
    assert high - low > 0.0  # never a point, not even at F = 0 or 1


@settings(max_examples=200, deadline=None)
@given(tp=counts, fp=counts, fn=counts, beta=betas)
def test_f_beta_swapping_errors_is_f_one_over_beta(tp, fp, fn, beta):
    """F_beta(TP, FP, FN) = F_{1/beta}(TP, FN, FP): the limits too, exactly (the split term's symmetry)."""
    a = f_beta_interval(np.array(tp), np.array(fp), np.array(fn), beta)
    b = f_beta_interval(np.array(tp), np.array(fn), np.array(fp), 1.0 / beta)
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_f_beta_at_large_counts_is_the_delta_method_interval():
    """At thousands of cases the score pieces and the delta method on the logit scale agree (the
    delta method is fine there; the new limits change only small counts)."""
    from scipy.special import expit, logit

    tp, fp, fn = 4000.0, 900.0, 2100.0
    for beta in (0.5, 1.0, 2.0):
        b2 = beta * beta
        f = (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)
        n = tp + fp + fn  # multinomial delta method of F over (TP, FP, FN) given m = n: Var = sum g_i^2 p_i - (sum g_i p_i)^2
        d = (1 + b2) * tp + b2 * fn + fp
        g = np.array([(1 + b2) / d - f * (1 + b2) / d, -f / d, -f * b2 / d]) * n  # d F / d share
        p = np.array([tp, fp, fn]) / n
        se = np.sqrt(((g**2) @ p - (g @ p) ** 2) / n)
        se_logit = se / (f * (1 - f))
        want = expit(logit(f) - 1.959964 * se_logit), expit(logit(f) + 1.959964 * se_logit)
        got = f_beta_interval(np.array(tp), np.array(fp), np.array(fn), beta)
        np.testing.assert_allclose(got, want, rtol=2e-3)


def test_f_beta_weighted_with_unit_or_constant_weights_is_the_unweighted_interval():
    tp, fp, fn = np.array([0.0, 3, 17]), np.array([2.0, 0, 5]), np.array([1.0, 4, 0])
    for beta in (0.5, 1.0, 2.0):
        plain = f_beta_interval(tp, fp, fn, beta)
        np.testing.assert_array_equal(f_beta_interval(tp, fp, fn, beta, squares=(tp, fp, fn)), plain)
        np.testing.assert_allclose(f_beta_interval(2 * tp, 2 * fp, 2 * fn, beta, squares=(4 * tp, 4 * fp, 4 * fn)),
                                   plain, rtol=1e-13)
    # uneven weights: fewer effective cases, a wider interval
    wide = f_beta_interval(tp, fp, fn, squares=(3 * tp, 3 * fp, 3 * fn))
    plain = f_beta_interval(tp, fp, fn)
    assert np.all(wide[0] <= plain[0]) and np.all(wide[1] >= plain[1])


def test_f2_by_hand():
    """TP 2, FP 1, FN 5, beta 2: F2 = 10 / (10 + 20 + 1) = 0.3226. J = 2/8 with Wilson limits [0.07148,
    0.59072]; s = 5/6 with Wilson limits [0.43650, 0.96995]. Terms a = log((1 - J) / J): 1.09861 with
    limits [-0.36696, 2.56419]; b = log((1 - s + 4 s) / 5): -0.35667 with limits [-0.77241, -0.24594].
    MOVER: a + b = 0.74194, low 0.74194 - hypot(1.46557, 0.41574) = -0.78144, high 0.74194 +
    hypot(1.46557, 0.11073) = 2.21169; F2 = 1 / (1 + e^(a + b)): [0.09871, 0.68599]."""
    low, high = f_beta_interval(np.array(2.0), np.array(1.0), np.array(5.0), 2.0)
    assert float(low) == pytest.approx(0.09871, abs=6e-6) and float(high) == pytest.approx(0.68599, abs=6e-6)


def test_mcc_bound_by_hand():
    """TP 1, FP 2, FN 1, TN 16. Informedness = 1/2 - 2/18 with Wilson limits [0.0945, 0.9055] of 1/2 and
    [0.0310, 0.3280] of 2/18 (Newcombe): [-0.0710, 0.8022]; markedness = 1/3 - 1/17, Wilson [0.0615,
    0.7923] and [0.0105, 0.2698]: [-0.0696, 0.7360]; MCC limits -sqrt(0.0710 x 0.0696) = -0.0703 and
    sqrt(0.8022 x 0.7360) = 0.7684."""
    low, high = mcc_bound(np.array(1.0), np.array(2.0), np.array(1.0), np.array(16.0))
    assert float(low) == pytest.approx(-0.0703, abs=6e-5) and float(high) == pytest.approx(0.7684, abs=6e-5)


@settings(max_examples=300, deadline=None)
@given(tp=counts, fp=counts, fn=counts, tn=counts)
def test_mcc_bound_holds_mcc_and_ignores_which_class_is_positive(tp, fp, fn, tn):
    cells = np.array([tp, fp, fn, tn], dtype=np.float64)
    low, high = mcc_bound(*cells)
    swapped = mcc_bound(cells[3], cells[2], cells[1], cells[0])  # the negative class as positive
    np.testing.assert_allclose(swapped, (low, high), rtol=1e-12, atol=1e-14)
    table = np.array([[tn, fp], [fn, tp]])
    assert -1.0 <= low <= high <= 1.0
    if (table.sum(axis=0) == 0).any() or (table.sum(axis=1) == 0).any():
        # an empty margin: its rates lie anywhere in [0, 1], and the bound reaches 0 on both sides
        assert low <= 0.0 <= high
        return
    r = float(m.matthews_corrcoef(table))
    assert low <= r + 1e-12 and r - 1e-12 <= high
    kappa = float(m.cohen_kappa(table))
    if np.isfinite(kappa):  # |kappa| <= |MCC| with MCC's sign (two classes): the kappa guard's premise
        assert abs(kappa) <= abs(r) + 1e-12 and kappa * r >= -1e-12


def test_confusion_intervals_widen_mcc_only_where_a_margin_is_small():
    big = np.array([[300, 40], [30, 130]])
    ci = confusion_intervals(big)["overall"]["mcc"]
    assert ci.method == "delta method (multinomial), Fisher z scale, cells + 1/2"
    small = np.array([[15, 3], [1, 1]])
    d = confusion_intervals(small)
    ci = d["overall"]["mcc"]
    low, high = mcc_bound(1.0, 3.0, 1.0, 15.0)
    assert "widened to the sqrt of the limits of informedness x markedness" in ci.method
    assert ci.low <= low and ci.high >= high and ci.low <= ci.estimate <= ci.high
    assert ci.standard_error is not None  # still the delta method's, reported
    # batched: each table by its own rule
    both = confusion_intervals(np.stack([big, small]))["overall"]["mcc"]
    assert both.low[1] == ci.low and both.high[1] == ci.high
    assert both.low[0] == confusion_intervals(big)["overall"]["mcc"].low


def test_confusion_intervals_f_column_is_the_cell_ratio_interval():
    cm = np.array([[50, 3, 7], [4, 38, 8], [6, 5, 29]])
    tp, fp, fn, _ = m.one_vs_rest(cm)
    for beta, name in ((None, "f1"), (2.0, "f2")):
        ci = confusion_intervals(cm, beta=beta)["per_class"][name]
        want = f_beta_interval(tp, fp, fn, 1.0 if beta is None else beta)
        np.testing.assert_array_equal(ci.low, want[0])
        np.testing.assert_array_equal(ci.high, want[1])
        assert ci.standard_error is None
    ci = confusion_intervals(cm, proportion_method="jeffreys")["per_class"]["f1"]
    assert ci.method.startswith("Jeffreys interval of TP / (TP + FP + FN)")


def test_kappa_of_a_small_two_class_table_reaches_mcc_and_zero():
    small = np.array([[15, 2], [1, 2]])  # 3 positives
    d = confusion_intervals(small)
    kappa, mcc = d["overall"]["kappa"], d["overall"]["mcc"]
    assert kappa.low <= min(mcc.low, 0.0) and kappa.high >= max(mcc.high, 0.0)
    assert "widened to MCC's limits and 0" in kappa.method
    big = np.array([[300, 40], [30, 130]])
    assert "widened" not in confusion_intervals(big)["overall"]["kappa"].method


def test_macro_and_weighted_f_reach_as_far_as_mover_of_the_classes():
    from clfeval.uncertainty import mover_average

    cm = np.array([[17, 1, 0], [2, 1, 0], [0, 1, 1]])
    d = confusion_intervals(cm)
    tp, fp, fn, _ = m.one_vs_rest(cm)
    f = m.fbeta(tp, fp, fn)
    for avg, weights in (("macro", None), ("weighted", tp + fn)):
        ci = d["averages"][avg]["f1"]
        mover = mover_average(d["per_class"]["f1"], f, weights, np.asarray(ci.estimate), 0.95)
        assert ci.low <= mover.low and ci.high >= mover.high
        assert "whichever reaches further" in ci.method
