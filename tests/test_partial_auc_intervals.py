"""Partial AUC intervals and tests (issue 22, point 2): the DeLong-type components, their variance,
Evaluation.partial_auc and clfeval.stats.delong_partial.

Oracles: finite differences of the polyline's area (the components are its exact gradient),
DeLong's variance and test over [0, 1] (clfeval's, which match pROC's), a case bootstrap and the
jackknife (the standard error), pROC's printed partial areas of s100b on aSAH and its bootstrap
covariance of two partial AUCs (a loose check: 100 replicates), and properties (adjacent ranges
add up, the mirror image of a TPR range, invariance to monotone transforms, unit weights).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import clfeval
from clfeval import metrics, stats
from clfeval.formulas.curves import partial_roc_area, roc_rates
from clfeval.formulas.partial_placements import (
    partial_area_variance,
    partial_placement_values,
)
from clfeval.statistics.rankings import BinaryRanking
from clfeval.stats.partial_delong import partial_components
from clfeval.uncertainty.area_intervals import delong_variances
from clfeval.uncertainty.partial_auc_intervals import (
    partial_auc_interval,
    partial_auc_variance,
)

# per-score counts, highest score first; zeros allowed anywhere (ties of both classes, empty cells)
cells = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=9)
ranges = st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)).filter(lambda r: abs(r[0] - r[1]) > 1e-3).map(sorted)
axes = st.sampled_from(["fpr", "tpr"])


def _counts(rows):
    neg = np.array([r[0] for r in rows], dtype=float)
    pos = np.array([r[1] for r in rows], dtype=float)
    return neg, pos


def _area(neg, pos, lo, hi, axis):
    fpr, tpr = roc_rates(neg, pos)
    return partial_roc_area(fpr, tpr, lo, hi, axis)[0]


# ------------------------------------------------------------------------------------------------
# the components
# ------------------------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(rows=cells, rng_=ranges, axis=axes)
def test_components_are_the_exact_gradient_of_the_polyline_area(rows, rng_, axis):
    """m dA/dp_d = V10_d - mean V10, n dA/dn_d = V01_d - mean V01 (central differences), and the
    area is the polyline's, ties and ranges that cut a tie block included."""
    neg, pos = _counts(rows)
    if neg.sum() == 0 or pos.sum() == 0:
        return
    lo, hi = rng_
    area, v10, v01 = partial_placement_values(neg, pos, lo, hi, axis)
    assert area == pytest.approx(_area(neg, pos, lo, hi, axis), abs=1e-13)
    eps = 1e-7
    for counts, comp, other_first in ((pos, v10, False), (neg, v01, True)):
        total, mean = counts.sum(), counts @ comp / counts.sum()
        for d in np.flatnonzero(counts):
            up, down = counts.copy(), counts.copy()
            up[d] += eps
            down[d] -= eps
            args_up, args_down = ((up, pos), (down, pos)) if other_first else ((neg, up), (neg, down))
            grad = (_area(*args_up, lo, hi, axis) - _area(*args_down, lo, hi, axis)) / (2 * eps)
            assert grad * total == pytest.approx(comp[d] - mean, abs=2e-6)


@settings(max_examples=100, deadline=None)
@given(rows=cells)
def test_over_zero_to_one_they_are_delongs_placements_and_variance(rows):
    neg, pos = _counts(rows)
    if neg.sum() < 2 or pos.sum() < 2:
        return
    auc, var = delong_variances(neg, pos)
    for axis in ("fpr", "tpr"):
        area, v10, v01 = partial_placement_values(neg, pos, 0.0, 1.0, axis)
        assert area == pytest.approx(float(auc), abs=1e-13)
        assert partial_area_variance(neg, pos, v10, v01) == pytest.approx(float(var), rel=1e-10, abs=1e-16)


@settings(max_examples=100, deadline=None)
@given(rows=cells, cut=st.floats(0.01, 0.99), axis=axes)
def test_components_of_adjacent_ranges_add_up(rows, cut, axis):
    neg, pos = _counts(rows)
    if neg.sum() == 0 or pos.sum() == 0:
        return
    whole = partial_placement_values(neg, pos, 0.0, 1.0, axis)
    left = partial_placement_values(neg, pos, 0.0, cut, axis)
    right = partial_placement_values(neg, pos, cut, 1.0, axis)
    assert left[0] + right[0] == pytest.approx(whole[0], abs=1e-12)
    for k in (1, 2):
        np.testing.assert_allclose(left[k] + right[k], whole[k], atol=1e-12)


@settings(max_examples=80, deadline=None)
@given(rows=cells, rng_=ranges)
def test_a_tpr_range_is_the_mirror_image_of_an_fpr_range(rows, rng_):
    """TPR in [a, b] of (y, s) is FPR in [1 - b, 1 - a] with the classes swapped and scores negated."""
    neg, pos = _counts(rows)
    if neg.sum() == 0 or pos.sum() == 0:
        return
    lo, hi = rng_
    a, v_pos, v_neg = partial_placement_values(neg, pos, lo, hi, "tpr")
    b, w_pos, w_neg = partial_placement_values(pos[::-1], neg[::-1], 1 - hi, 1 - lo, "fpr")
    assert a == pytest.approx(b, abs=1e-13)
    np.testing.assert_allclose(v_pos, w_neg[::-1], atol=1e-13)
    np.testing.assert_allclose(v_neg, w_pos[::-1], atol=1e-13)


def _binormal(n, seed, prevalence=0.4, shift=1.2, digits=1):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    return y, np.round(np.where(y, rng.normal(shift, 1, n), rng.normal(0, 1, n)), digits)


@pytest.mark.parametrize(("axis", "lo", "hi"), [("fpr", 0.0, 0.2), ("fpr", 0.1, 0.4), ("tpr", 0.8, 1.0),
                                                ("fpr", 0.5, 1.0)])
def test_standard_error_matches_the_case_bootstrap_and_the_jackknife(axis, lo, hi):
    """400 cases with ties (scores to one decimal): SE within 4% of a 2000-replicate case bootstrap
    (its own Monte Carlo error is about 1.6%) and within 2% of the delete-one jackknife."""
    y, s = _binormal(400, 5)
    _, comp = partial_components(y, s, axis, lo, hi)
    se = np.sqrt(comp[y].var(ddof=1) / y.sum() + comp[~y].var(ddof=1) / (~y).sum())
    rng = np.random.default_rng(1)
    kw = {f"{axis}_range": (lo, hi), "standardized": False}
    boot = [metrics.partial_auc(y[i], s[i], **kw) for i in (rng.integers(0, y.size, y.size) for _ in range(2000))]
    jack = np.array([metrics.partial_auc(np.delete(y, k), np.delete(s, k), **kw) for k in range(y.size)])
    se_jack = np.sqrt((y.size - 1) / y.size * ((jack - jack.mean()) ** 2).sum())
    assert se == pytest.approx(np.std(boot, ddof=1), rel=0.04)
    assert se == pytest.approx(se_jack, rel=0.02)


# ------------------------------------------------------------------------------------------------
# the interval of one ranking and Evaluation.partial_auc
# ------------------------------------------------------------------------------------------------
def test_interval_estimate_is_the_metric_and_standardisation_is_a_line():
    y, s = _binormal(300, 2)
    ev = clfeval.evaluate(y.astype(int), y_score=s)
    for kw in ({"fpr_range": (0.0, 0.1)}, {"fpr_range": (0.2, 0.5)}, {"tpr_range": (0.9, 1.0)}):
        raw = ev.partial_auc(**kw, standardized=False)
        std = ev.partial_auc(**kw)
        assert raw.estimate == pytest.approx(metrics.partial_auc(y, s, standardized=False, **kw), rel=1e-14)
        assert std.estimate == pytest.approx(metrics.partial_auc(y, s, **kw), rel=1e-14)
        (axis, (lo, hi)), = kw.items()
        _, chance, perfect = partial_roc_area(np.array([0.0, 1.0]), np.array([0.0, 1.0]), lo, hi, axis[:3])
        slope = 0.5 / (perfect - chance)
        assert std.standard_error == pytest.approx(raw.standard_error * slope, rel=1e-12)
        assert (std.low, std.high) == pytest.approx((0.5 + slope * (raw.low - chance), 0.5 + slope * (raw.high - chance)),
                                                    rel=1e-12)
        assert raw.low < raw.estimate < raw.high and 0.0 <= raw.low and raw.high <= hi - lo


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), axis=axes, rng_=ranges)
@example(seed=7172, axis="tpr", rng_=[0.0625, 0.31708783919075284])  # a low bound near 0: see the tolerance
def test_interval_is_invariant_to_monotone_transforms_and_unit_weights(seed, axis, rng_):
    y, s = _binormal(60, seed, digits=0)
    if y.sum() < 2 or (~y).sum() < 2:
        return
    kw = {f"{axis}_range": tuple(rng_), "standardized": False}
    base = clfeval.evaluate(y.astype(int), y_score=s).partial_auc(**kw)
    moved = clfeval.evaluate(y.astype(int), y_score=np.exp(s / 3) - 7).partial_auc(**kw)
    weighted = clfeval.evaluate(y.astype(int), y_score=s, sample_weight=np.ones(y.size)).partial_auc(**kw)
    for other in (moved, weighted):
        assert other.estimate == pytest.approx(base.estimate, abs=1e-14)
        assert other.standard_error == pytest.approx(base.standard_error, rel=1e-12, abs=1e-15)
        # the weighted path sums the area in another order (1 ulp); on the logit scale a bound near 0
        # moves by up to ~10^4 times that (seed 7172: low 0.0045 moved 1.6e-12 relative)
        assert (other.low, other.high) == pytest.approx((base.low, base.high), rel=1e-10, abs=1e-15)


def test_weighted_cases_match_a_weighted_case_bootstrap():
    """A weighted case is one sampled case (its weight travels with it): the influence-based SE
    matches the delete-one jackknife and the bootstrap of cases with their weights, and scaling
    every weight leaves the interval alone."""
    y, s = _binormal(300, 3)
    w = np.random.default_rng(0).gamma(2.0, 1.0, y.size)
    kw = {"tpr_range": (0.8, 1.0), "standardized": False}
    ci = clfeval.evaluate(y.astype(int), y_score=s, sample_weight=w).partial_auc(**kw)
    scaled = clfeval.evaluate(y.astype(int), y_score=s, sample_weight=1e-3 * w).partial_auc(**kw)
    assert (scaled.estimate, scaled.standard_error, scaled.low) == pytest.approx((ci.estimate, ci.standard_error, ci.low),
                                                                                rel=1e-9)
    assert ci.estimate == pytest.approx(metrics.partial_auc(y, s, sample_weight=w, **kw), rel=1e-12)
    rng = np.random.default_rng(4)
    boot = [metrics.partial_auc(y[i], s[i], sample_weight=w[i], **kw)
            for i in (rng.integers(0, y.size, y.size) for _ in range(1000))]
    jack = np.array([metrics.partial_auc(np.delete(y, k), np.delete(s, k), sample_weight=np.delete(w, k), **kw)
                     for k in range(y.size)])
    assert ci.standard_error == pytest.approx(np.std(boot, ddof=1), rel=0.08)  # its own error ~2.2%, skew
    assert ci.standard_error == pytest.approx(np.sqrt((y.size - 1) / y.size * ((jack - jack.mean()) ** 2).sum()),
                                              rel=0.03)
    assert "each case's influence" in ci.method


def test_micro_interval_keeps_a_cases_columns_together():
    """The micro ranking holds k entries per case; its SE is each case's influence (a case bootstrap
    agrees to 6%), not the pooled cells' (which treat the k entries as independent)."""
    rng = np.random.default_rng(8)
    n = 300
    y = rng.integers(0, 3, n)
    p = rng.dirichlet(np.ones(3), n) + 0.5 * np.eye(3)[y]
    p /= p.sum(axis=1, keepdims=True)
    ci = clfeval.evaluate(y, y_score=p).partial_auc((0.0, 0.3), standardized=False)
    onehot = np.eye(3)[y]
    boot = [metrics.partial_auc(onehot[i].ravel(), p[i].ravel(), fpr_range=(0.0, 0.3), standardized=False)
            for i in (rng.integers(0, n, n) for _ in range(2000))]
    assert ci.standard_error == pytest.approx(np.std(boot, ddof=1), rel=0.06)


def test_a_streamed_evaluation_gives_the_same_interval():
    y, s = _binormal(500, 4)
    stream = clfeval.streaming.StreamingEvaluation(labels=[0, 1], mode="exact")
    for part in np.array_split(np.arange(y.size), 5):
        stream.update(y[part].astype(int), y_score=s[part])
    a = stream.result().partial_auc(tpr_range=(0.8, 1.0))
    b = clfeval.evaluate(y.astype(int), y_score=s).partial_auc(tpr_range=(0.8, 1.0))
    assert (a.estimate, a.standard_error, a.low, a.high) == pytest.approx((b.estimate, b.standard_error, b.low, b.high),
                                                                         rel=1e-12)


def test_multiclass_curves_are_one_vs_rest_and_micro():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 3, 300)
    p = rng.dirichlet(np.ones(3), 300) + 0.6 * np.eye(3)[y]
    p /= p.sum(axis=1, keepdims=True)
    ev = clfeval.evaluate(y, y_score=p)
    for c in range(3):
        got = ev.partial_auc((0, 0.2), curve=str(c), standardized=False)
        assert got.estimate == pytest.approx(metrics.partial_auc(y == c, p[:, c], fpr_range=(0, 0.2),
                                                                 standardized=False), rel=1e-13)
    micro = ev.partial_auc((0, 0.2))  # the main curve of a multi-class evaluation: micro
    onehot = np.eye(3)[y].ravel()
    assert micro.estimate == pytest.approx(metrics.partial_auc(onehot, p.ravel(), fpr_range=(0, 0.2)), rel=1e-13)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"fpr_range": (0.3, 0.1)}, r"fpr_range must satisfy 0 <= a < b <= 1"),
    ({"fpr_range": (0.0, 0.1), "tpr_range": (0.0, 0.1)}, "exactly one of"),
    ({"fpr_range": (float("nan"), 0.1)}, "NaN"),
    ({"fpr_range": (0.0, 0.1), "curve": "macro"}, "macro ROC curve is an average"),
    ({"fpr_range": (0.0, 0.1), "curve": "nope"}, r"curve='nope' names no ROC curve"),
    ({"fpr_range": (0.0, 0.1), "level": 1.5}, "level must be between 0 and 1"),
])
def test_evaluation_partial_auc_errors_say_what_and_how(kwargs, match):
    ev = clfeval.evaluate([0, 1, 0, 1, 1, 0], y_score=[0.1, 0.8, 0.3, 0.6, 0.7, 0.2])
    with pytest.raises(ValueError, match=match):
        ev.partial_auc(**kwargs)


def test_without_scores_the_error_says_to_pass_them():
    with pytest.raises(ValueError, match="pass y_score to evaluate"):
        clfeval.evaluate([0, 1, 0, 1], [0, 1, 1, 1]).partial_auc((0, 0.1))


def test_edges_perfect_ranking_and_few_cases():
    """Every positive on top: the share is 1 and the far bound is the Hanley-McNeil score bound;
    below two cases of a class: NaN bounds."""
    r = BinaryRanking(np.arange(8.0)[::-1], None, np.array([1, 1, 1, 1, 0, 0, 0, 0], bool))
    ci = partial_auc_interval(r, fpr_range=(0.0, 0.5), standardized=False)
    assert ci.estimate == 0.5 and ci.high == 0.5 and 0.0 < ci.low < 0.5
    reverse = BinaryRanking(np.arange(8.0)[::-1], None, np.array([0, 0, 0, 0, 1, 1, 1, 1], bool))
    ci = partial_auc_interval(reverse, fpr_range=(0.0, 0.5), standardized=False)
    assert ci.estimate == 0.0 and ci.low == 0.0 and 0.0 < ci.high < 0.5
    one = BinaryRanking(np.arange(4.0)[::-1], None, np.array([1, 0, 0, 0], bool))
    ci = partial_auc_interval(one, tpr_range=(0.5, 1.0))
    assert np.isnan(ci.low) and np.isnan(ci.high) and np.isnan(ci.standard_error)
    a, var = partial_auc_variance(one, fpr_range=(0, 1))
    assert a == 1.0 and np.isnan(var)


# ------------------------------------------------------------------------------------------------
# pROC on aSAH
# ------------------------------------------------------------------------------------------------
def test_proc_partial_areas_of_s100b_and_ndka(asah):
    """pROC tests/testthat/test-print.R: r.s100b.percent.partial1 (partial.auc = c(99, 90), specificity,
    i.e. FPR 0.01 to 0.1) prints 2.983%, r.ndka.partial1 0.01046, r.s100b.partial2 (sensitivity 0.99
    to 0.9) 0.01376 (4 significant digits)."""
    y = (asah["outcome"] == "Poor").to_numpy()
    ev = clfeval.evaluate(y.astype(int), y_score=asah["s100b"].to_numpy(float))
    assert ev.partial_auc((0.01, 0.1), standardized=False).estimate == pytest.approx(0.02983, abs=5e-6)
    assert ev.partial_auc(tpr_range=(0.9, 0.99), standardized=False).estimate == pytest.approx(0.01376, abs=5e-6)
    ndka = clfeval.evaluate(y.astype(int), y_score=asah["ndka"].to_numpy(float))
    assert ndka.partial_auc((0.01, 0.1), standardized=False).estimate == pytest.approx(0.01046, abs=5e-6)


def test_proc_bootstrap_covariance_of_two_partial_aucs_is_matched_loosely(asah):
    """pROC tests/testthat/test-bootstrap.R: cov(r.s100b.partial1, r.wfns.partial1, method="bootstrap",
    boot.n=100) = 2.899627e-05 (FPR 0.01 to 0.1). With 100 replicates a covariance is known to
    about +/- 30%; the DeLong-type covariance must be of that size (and a 4000-replicate paired
    case bootstrap here agrees with it to 10%)."""
    y = (asah["outcome"] == "Poor").to_numpy()
    a, b = asah["s100b"].to_numpy(float), asah["wfns"].to_numpy(float)
    _, va = partial_components(y, a, "fpr", 0.01, 0.1)
    _, vb = partial_components(y, b, "fpr", 0.01, 0.1)
    cov = np.cov(va[y], vb[y])[0, 1] / y.sum() + np.cov(va[~y], vb[~y])[0, 1] / (~y).sum()
    assert 0.6 * 2.899627e-05 < cov < 1.6 * 2.899627e-05
    rng = np.random.default_rng(3)
    kw = {"fpr_range": (0.01, 0.1), "standardized": False}
    reps = []
    for _ in range(4000):
        i = np.concatenate([rng.choice(np.flatnonzero(y), y.sum()), rng.choice(np.flatnonzero(~y), (~y).sum())])
        reps.append((metrics.partial_auc(y[i], a[i], **kw), metrics.partial_auc(y[i], b[i], **kw)))
    assert cov == pytest.approx(np.cov(np.array(reps).T)[0, 1], rel=0.1)


# ------------------------------------------------------------------------------------------------
# the paired test
# ------------------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), one=st.booleans())
def test_over_zero_to_one_the_test_is_delongs(seed, one):
    y, a = _binormal(40, seed, digits=0)
    _, b = _binormal(40, seed + 1, digits=0)
    if y.sum() < 2 or (~y).sum() < 2:
        return
    r = stats.delong_partial(y, a, None if one else b, fpr_range=(0, 1), standardized=False)
    d = stats.delong(y, a, None if one else b)
    if d.standard_error > 1e-12:
        assert r.statistic == pytest.approx(d.statistic, rel=1e-9)
        assert r.pvalue == pytest.approx(d.pvalue, rel=1e-9, abs=1e-300)
    assert r.estimate == pytest.approx(d.estimate, abs=1e-13)


def test_paired_se_matches_a_paired_case_bootstrap():
    rng = np.random.default_rng(11)
    n = 300
    y = rng.random(n) < 0.4
    latent = rng.normal(size=n) + 1.0 * y
    a = np.round(latent + rng.normal(0, 0.5, n), 1)
    b = np.round(latent + rng.normal(0, 0.8, n), 1)
    kw = {"tpr_range": (0.8, 1.0), "standardized": False}
    r = stats.delong_partial(y, a, b, **kw)
    reps = [metrics.partial_auc(y[i], a[i], **kw) - metrics.partial_auc(y[i], b[i], **kw)
            for i in (rng.integers(0, n, n) for _ in range(2000))]
    assert r.standard_error == pytest.approx(np.std(reps, ddof=1), rel=0.06)
    assert r.extra["auc_a"] - r.extra["auc_b"] == pytest.approx(r.estimate, abs=1e-15)
    std = stats.delong_partial(y, a, b, tpr_range=(0.8, 1.0))
    assert std.statistic == pytest.approx(r.statistic, rel=1e-12) and std.pvalue == pytest.approx(r.pvalue, rel=1e-12)
    assert std.extra["auc_a"] == pytest.approx(metrics.partial_auc(y, a, tpr_range=(0.8, 1.0)), rel=1e-13)
    low, high = std.confidence_interval(0.95)
    assert low < std.estimate < high


def test_identical_scores_give_p_one_and_a_note():
    y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
    s = np.array([0.1, 0.9, 0.4, 0.7, 0.35, 0.2, 0.8, 0.5])
    r = stats.delong_partial(y, s, s, fpr_range=(0, 0.5))
    assert (r.statistic, r.pvalue, r.estimate) == (0.0, 1.0, 0.0) and r.notes


@pytest.mark.parametrize(("args", "kwargs", "match"), [
    (([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]), {"fpr_range": (0, 0.5), "sample_weight": [1, 1, 1, 1]}, "unweighted"),
    (([0, 1, 0, 0], [0.1, 0.2, 0.3, 0.4]), {"fpr_range": (0, 0.5)}, "at least 2 positive and 2 negative"),
    (([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]), {}, "exactly one of"),
    (([0, 1, 0, 1], [0.1, 0.2, 0.3]), {"fpr_range": (0, 0.5)}, "inconsistent|length"),
    (([0, 1, 0, 1], [[0.1, 0.9]] * 4), {"fpr_range": (0, 0.5)}, "one score per case"),
])
def test_delong_partial_errors(args, kwargs, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=match):
            stats.delong_partial(*args, **kwargs)


@pytest.mark.parametrize("axis", ["fpr", "tpr"])
def test_one_case_per_score_reads_the_negatives_inside_only(axis):
    """A long ranking of one case per score (an Evaluation's, ``neg`` None): the range's area and
    variance from the negatives inside it and the runs of positives between them equal the
    components of every score (bounds on a span's end, inner and outer, and between)."""
    from clfeval.formulas.partial_placements import partial_area_and_variance

    rng = np.random.default_rng(11)
    y = rng.random(120_000) < 0.3
    pos = y[np.argsort(-(rng.normal(size=y.size) + 1.5 * y), kind="stable")]
    n = int((~pos).sum()) if axis == "fpr" else int(pos.sum())
    for lo, hi in [(0.0, 0.1), (0.0, 1.0), (250 / n, 0.5), (0.37, 1.0), (0.0123456, 4001 / n)]:
        area, v10, v01 = partial_placement_values(~pos, pos, lo, hi, axis)
        variance = partial_area_variance(~pos, pos, v10, v01)
        cum = {"cum_pos": np.cumsum(pos)} if axis == "fpr" else {}
        got = partial_area_and_variance(None, pos, lo, hi, axis, **cum)
        assert got == pytest.approx((area, variance), rel=1e-12)
        assert partial_area_and_variance(None, pos, lo, hi, axis) == pytest.approx(got, rel=1e-13)
        ranking = BinaryRanking(np.arange(pos.size, 0, -1.0), None, pos)
        ci = partial_auc_interval(ranking, standardized=False, **{f"{axis}_range": (lo, hi)})
        assert (ci.estimate, ci.standard_error) == pytest.approx((area, np.sqrt(variance)), rel=1e-12)
