"""Precision-Recall-Gain curves and their area (Flach & Kull 2015, NeurIPS), issue 22 point 1.

Oracles: the authors' ``pyprg`` package (``import prg``; test extra) on random data with ties; the
paper's formulas by hand; the exact gradient of the area against central differences.

pyprg's edge cases, and what clfeval does instead (see the report of issue 22):
* one class only: pyprg's AUPRG is 0.0 for all positives and NaN for all negatives; clfeval says NaN
  (with an UndefinedMetricWarning) for both, as the PRG space needs both classes.
* pyprg calls ``np.alen``, removed in NumPy 1.23; the tests restore it before calling pyprg.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clfeval import evaluate, metrics
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.formulas.prg import (
    precision_gain,
    prg_area,
    prg_area_gradients,
    prg_area_of_rates,
    prg_area_variance,
    prg_points_of_rates,
    recall_gain,
)
from clfeval.uncertainty.prevalence_intervals import prg_auc_interval


@pytest.fixture(scope="module")
def pyprg():
    prg = pytest.importorskip("prg.prg", reason="pyprg (the test extra) is not installed")
    if not hasattr(np, "alen"):  # pyprg predates NumPy 1.23, which removed np.alen
        def alen(a):
            try:
                return len(a)
            except TypeError:
                return 1
        np.alen = alen
    return prg


def _counts(y, s, w=None):
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    levels = np.unique(s)[::-1]
    idx = np.searchsorted(-levels, -np.asarray(s))
    pos = np.bincount(idx, weights=w * (np.asarray(y) == 1), minlength=levels.size)
    neg = np.bincount(idx, weights=w * (np.asarray(y) != 1), minlength=levels.size)
    return neg, pos


@pytest.mark.parametrize("seed", range(40))
def test_matches_pyprg_with_ties(pyprg, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 200))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    levels = int(rng.integers(2, 30)) if seed % 3 else n  # heavy ties, or (almost) none
    s = rng.integers(0, levels, n) + 0.2 * y * rng.integers(0, 3)
    s = s.astype(float)
    curve = pyprg.create_prg_curve(y, s)
    want = pyprg.calc_auprg(curve)
    assert metrics.prg_auc(y, s) == pytest.approx(want, abs=1e-12)
    # the curve: pyprg's points in the region (recall gain >= 0), crossings included
    pg, rg, thr = metrics.prg_curve(y, s)
    keep = curve["recall_gain"] >= 0
    ref = np.column_stack([curve["recall_gain"][keep], curve["precision_gain"][keep]])
    got = np.column_stack([rg, pg])
    # pyprg also inserts points where precision gain crosses 0 (on the segments, so no change in area)
    on_axis = (ref[:, 1] == 0) & curve["is_crossing"][keep].astype(bool)
    ref = ref[~on_axis]
    assert got.shape == ref.shape
    assert np.allclose(got, ref, atol=1e-12, rtol=0)
    assert thr.size == rg.size


def test_pyprg_edge_cases_differ_as_documented(pyprg):
    # all positive: pyprg 0.0, clfeval NaN (no negatives, so no gain)
    assert pyprg.calc_auprg(pyprg.create_prg_curve(np.array([1, 1, 1]), np.array([.1, .4, .35]))) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="only one class"):
        assert np.isnan(metrics.prg_auc([1, 1, 1], [.1, .4, .35]))
    with pytest.warns(UndefinedMetricWarning, match="only one class"):
        pg, rg, thr = metrics.prg_curve([0, 0, 0], [.1, .4, .35])
    assert pg.size == rg.size == thr.size == 0


def test_paper_formulas_by_hand():
    # Flach & Kull (2015), eq. (3): precG = (prec - pi) / ((1 - pi) prec), recG likewise
    assert float(precision_gain(0.75, 0.5)) == pytest.approx(2 / 3, abs=1e-15)
    assert float(recall_gain(0.3, 0.3)) == 0.0 and float(recall_gain(1.0, 0.3)) == 1.0
    assert float(precision_gain(0.25, 0.5)) == pytest.approx(-2.0)
    # ROC points (f, t) with pi = 1/2 (rho = 1): gains recG = 1 - (1 - t) / t, precG = 1 - f / t.
    f = np.array([0, .25, .25, .5, .75, 1])
    t = np.array([0, .25, .75, .75, 1, 1])
    rg, pg, crossing = prg_points_of_rates(f, t, 0.5)
    # the segment (0.25, 0.25) -> (0.25, 0.75) crosses t = pi = 0.5 at f = 0.25: precG = 1 - 0.25 / 0.5
    assert crossing.tolist() == [True, False, False, False, False]
    assert rg.tolist() == pytest.approx([0, 2 / 3, 2 / 3, 1, 1], abs=1e-15)
    assert pg.tolist() == pytest.approx([0.5, 2 / 3, 1 / 3, 0.25, 0.0], abs=1e-15)
    # trapezoids: (2/3)(0.5 + 2/3)/2 + 0 + (1/3)(1/3 + 1/4)/2 + 0
    assert prg_area_of_rates(f, t, 0.5) == pytest.approx((2 / 3) * (7 / 6) / 2 + (1 / 3) * (7 / 12) / 2, abs=1e-15)


def test_perfect_and_single_threshold():
    assert metrics.prg_auc([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9]) == pytest.approx(1.0, abs=1e-15)
    # one threshold (every score tied): the curve is the single point (1, 0), the area 0
    assert metrics.prg_auc([0, 1, 0, 1], [0.5] * 4) == 0.0


def test_weights_equal_repeats():
    y, s, w = [0, 1, 1, 0, 1, 0], [.2, .9, .4, .4, .7, .1], [1, 3, 2, 1, 0, 2]
    rep_y = np.repeat(y, w)
    rep_s = np.repeat(s, w)
    assert metrics.prg_auc(y, s, sample_weight=w) == pytest.approx(metrics.prg_auc(rep_y, rep_s), abs=1e-12)
    a = metrics.prg_curve(y, s, sample_weight=w)
    b = metrics.prg_curve(rep_y, rep_s)
    for x, z in zip(a, b):
        assert np.allclose(x, z, equal_nan=True, atol=1e-12)


def test_pos_label_and_strings():
    y = ["a", "b", "b", "a", "b", "a"]
    s = [.2, .9, .4, .4, .7, .1]
    assert metrics.prg_auc(y, s, pos_label="b") == pytest.approx(metrics.prg_auc([0, 1, 1, 0, 1, 0], s))
    with pytest.raises(ValueError):
        metrics.prg_auc(y, s)  # no pos_label for string labels


rows = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 8), st.sampled_from([0.0, 0.5, 1.0, 3.0])),
                min_size=2, max_size=40)


@given(rows)
def test_properties(data):
    y = np.array([r[0] for r in data])
    s = np.array([r[1] for r in data], dtype=float)
    w = np.array([r[2] for r in data])
    if w[y == 1].sum() == 0 or w[y == 0].sum() == 0:
        return
    area = metrics.prg_auc(y, s, sample_weight=w)
    assert area <= 1 + 1e-12
    # order invariance, and invariance to a strictly increasing map of the scores
    perm = np.random.default_rng(0).permutation(y.size)
    assert metrics.prg_auc(y[perm], s[perm], sample_weight=w[perm]) == pytest.approx(area, abs=1e-12)
    assert metrics.prg_auc(y, np.exp(s), sample_weight=w) == pytest.approx(area, abs=1e-12)
    # scaling every weight leaves it unchanged; the counts' formula equals the metric
    assert metrics.prg_auc(y, s, sample_weight=w * 7.0) == pytest.approx(area, abs=1e-12)
    neg, pos = _counts(y, s, w)
    assert prg_area(neg, pos) == pytest.approx(area, abs=1e-12)
    pg, rg, _ = metrics.prg_curve(y, s, sample_weight=w)
    assert rg[0] == pytest.approx(0.0, abs=1e-12) and rg[-1] == pytest.approx(1.0) and pg[-1] == pytest.approx(0.0, abs=1e-12)
    assert np.all(np.diff(rg) >= -1e-12)


def test_gradient_matches_central_differences():
    rng = np.random.default_rng(5)
    for _ in range(30):
        d = int(rng.integers(2, 12))
        neg, pos = rng.uniform(0.1, 3, d), rng.uniform(0.1, 3, d)  # continuous: no point exactly at t = pi
        area, g_neg, g_pos = prg_area_gradients(neg, pos)
        assert area == pytest.approx(prg_area(neg, pos), abs=1e-14)
        assert float(neg @ g_neg + pos @ g_pos) == pytest.approx(0.0, abs=1e-10)  # scale invariance
        h = 1e-6
        for i in range(d):
            e = np.zeros(d)
            e[i] = h
            assert g_neg[i] == pytest.approx((prg_area(neg + e, pos) - prg_area(neg - e, pos)) / (2 * h), abs=1e-6)
            assert g_pos[i] == pytest.approx((prg_area(neg, pos + e) - prg_area(neg, pos - e)) / (2 * h), abs=1e-6)


def test_evaluation_prg_auc_and_interval():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 400)
    s = np.round(rng.normal(size=400) + y, 2)
    ev = evaluate(y, y_score=s)
    ci = ev.prg_auc()
    assert ci.estimate == pytest.approx(metrics.prg_auc(y, s), abs=1e-12)
    assert ci.low < ci.estimate < ci.high <= 1.0
    neg, pos = _counts(y, s)
    assert prg_auc_interval(neg, pos).standard_error == pytest.approx(ci.standard_error)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(prg_auc_interval(np.array([0.0, 0.0]), np.array([1.0, 2.0])).estimate)


def test_weighted_interval_reduces_to_unweighted():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.normal(size=300) + y, 1)
    plain = evaluate(y, y_score=s).prg_auc()
    for w in (np.ones(300), np.full(300, 2.5)):  # the same cases, weighted alike: the same interval
        ci = evaluate(y, y_score=s, sample_weight=w).prg_auc()
        assert (ci.low, ci.high) == pytest.approx((plain.low, plain.high), abs=1e-12)
    w = rng.uniform(0.2, 3.0, 300)
    w[:5] = 0.0  # zero weights add nothing
    ci = evaluate(y, y_score=s, sample_weight=w).prg_auc()
    assert ci.low < ci.estimate < ci.high and ci.standard_error > 0


# --- the closed form (issue 22, speed) against the trapezoid sum and its gradient as first written ---

def _start_oracle(fpr, tpr, prevalence):
    k0 = int(np.argmax(tpr >= prevalence))
    if tpr[k0] == prevalence or k0 == 0:
        return k0, 1.0, float(fpr[k0])
    t_a, t_b = tpr[k0 - 1], tpr[k0]
    lam = (prevalence - t_a) / (t_b - t_a)
    return k0, float(lam), float(fpr[k0 - 1] + lam * (fpr[k0] - fpr[k0 - 1]))


def _gradients_oracle(neg, pos):
    """prg_area_gradients as first written: the trapezoid's derivative in every PRG point, chained
    through the rates, the crossing and pi (kept here as the oracle of the closed form)."""
    from clfeval.formulas.curves import trapezoid
    from clfeval.formulas.prg import rates_of_counts

    fpr, tpr, n, p = rates_of_counts(neg, pos)
    d = fpr.size - 1
    pi = p / (p + n)
    rho = pi / (1.0 - pi)
    drho = 1.0 / (1.0 - pi) ** 2
    k0, lam, f_star = _start_oracle(fpr, tpr, pi)
    tk, fk = tpr[k0:], fpr[k0:]
    miss = 1.0 - tk
    xs = 1.0 - rho * miss / tk
    miss /= tk
    ys = 1.0 - fk / tk
    inv = 1.0 / tk
    crossing = lam < 1.0
    if crossing:
        xs, ys = np.concatenate([[0.0], xs]), np.concatenate([[1.0 - f_star / pi], ys])
    area = trapezoid(xs, ys)
    mid = (ys[:-1] + ys[1:]) / 2
    d_x = np.zeros(xs.size)
    d_x[1:] = mid
    d_x[:-1] -= mid
    half = xs / 2
    d_y = np.zeros(xs.size)
    if xs.size > 1:
        d_y[1:-1] = half[2:] - half[:-2]
        d_y[0], d_y[-1] = half[1] - half[0], half[-1] - half[-2]
    real = slice(1, None) if crossing else slice(None)
    dx_r, dy_r = d_x[real], d_y[real]
    d_t, d_f = np.zeros(d + 1), np.zeros(d + 1)
    d_t[k0:] = (dx_r * rho + dy_r * fk) * (inv * inv)
    d_f[k0:] = -dy_r * inv
    d_pi = -float(np.dot(dx_r, miss)) * drho
    if crossing:
        a, b = k0 - 1, k0
        s = (fpr[b] - fpr[a]) / (tpr[b] - tpr[a])
        g = d_y[0] * (-1.0 / pi)
        d_pi += d_y[0] * f_star / pi**2 + g * s
        if a > 0:
            d_f[a] += g * (1.0 - lam)
            d_t[a] += g * (-s * (1.0 - lam))
        d_f[b] += g * lam
        d_t[b] += g * (-s * lam)
    d_p = -float(np.dot(d_t, tpr)) / p + d_pi * n / (p + n) ** 2
    d_n = -float(np.dot(d_f, fpr)) / n - d_pi * p / (p + n) ** 2
    g_pos = np.cumsum(d_t[:0:-1])[::-1] / p + d_p
    g_neg = np.cumsum(d_f[:0:-1])[::-1] / n + d_n
    return area, g_neg, g_pos


def _area_oracle(neg, pos):
    from clfeval.formulas.prg import rates_of_counts

    fpr, tpr, n, p = rates_of_counts(neg, pos)
    return prg_area_of_rates(fpr, tpr, p / (p + n)) if n > 0 and p > 0 else float("nan")


def _variance_oracle(neg, pos):
    from clfeval.uncertainty.influence import cell_variance

    _, g_neg, g_pos = _gradients_oracle(neg, pos)
    return float(cell_variance(neg, pos, g_neg, g_pos))


cells = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.sampled_from([1.0, 0.25, 1.5, 7.0])),
                 min_size=1, max_size=30)


@given(cells, st.booleans())
def test_closed_form_equals_the_trapezoid_sum_and_its_gradient(data, weighted):
    # per-score counts with ties (several cases per score), zero cells, and weights
    neg = np.array([r[0] * (r[2] if weighted else 1) for r in data], dtype=float)
    pos = np.array([r[1] * (r[2] if weighted else 1) for r in data], dtype=float)
    want = _area_oracle(neg, pos)
    got = prg_area(neg, pos)
    cumulative = prg_area(neg, pos, cum_neg=np.cumsum(neg), cum_pos=np.cumsum(pos))
    if np.isnan(want):
        assert np.isnan(got) and np.isnan(cumulative) and np.isnan(prg_area_variance(neg, pos)[1])
        return
    scale = max(1.0, neg.sum() / pos.sum())  # the gains' own size: rho f / t
    assert got == pytest.approx(want, rel=1e-12, abs=1e-13 * scale)
    assert cumulative == got
    area, g_neg, g_pos = prg_area_gradients(neg, pos)
    _, o_neg, o_pos = _gradients_oracle(neg, pos)
    size = max(np.abs(o_neg).max(), np.abs(o_pos).max(), 1.0 / (neg.sum() + pos.sum()))  # gradients ~ 1 / n
    assert area == got
    assert np.allclose(g_neg, o_neg, rtol=1e-11, atol=1e-12 * size)
    assert np.allclose(g_pos, o_pos, rtol=1e-11, atol=1e-12 * size)
    variance = _variance_oracle(neg, pos)
    a, v = prg_area_variance(neg, pos)
    assert a == got and v == pytest.approx(variance, rel=1e-10, abs=1e-13 * scale * size**2)
    # a point at t = pi exactly is a kink (the curve starts there or on the segment after it): rounding
    # may put a scaled copy on either side, so its gradients are compared elsewhere only
    kink = np.isclose(np.cumsum(pos) / pos.sum(), pos.sum() / (pos.sum() + neg.sum()), rtol=1e-12, atol=0).any()
    for c in (1e-300, 1e200):  # weights anywhere in the float64 range: the same area, gradients over c
        big, b_neg, b_pos = prg_area_gradients(c * neg, c * pos)
        assert big == pytest.approx(got, rel=1e-12, abs=1e-13 * scale)
        if kink:
            continue
        assert np.allclose(b_neg * c, g_neg, rtol=1e-11, atol=1e-12 * size)
        assert np.allclose(b_pos * c, g_pos, rtol=1e-11, atol=1e-12 * size)


def _ranked_cases(n, prevalence, seed):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    return y[np.argsort(-(rng.normal(size=n) + 1.2 * y), kind="stable")]


@pytest.mark.parametrize("prevalence", [0.5, 0.03, 0.97])
def test_one_case_per_score_long_rankings(prevalence):
    # one sample per score, long enough for several blocks of the positives' search (and a
    # stretch of more than a block without a positive): the same numbers as the trapezoid sum
    pos = _ranked_cases(150_000, prevalence, 1)
    pos = np.concatenate([pos, np.zeros(70_000, bool), [True, False, True], np.zeros(70_000, bool)])
    neg = ~pos
    want, variance = _area_oracle(neg, pos), _variance_oracle(neg, pos)
    assert prg_area(None, pos) == pytest.approx(want, rel=1e-12)
    assert prg_area(None, pos, cum_pos=np.cumsum(pos)) == prg_area(None, pos)
    assert prg_area(neg, pos) == pytest.approx(want, rel=1e-12)  # the counts' general path
    for args in [(None, pos), (neg, pos), (neg.astype(float), pos.astype(float))]:
        a, v = prg_area_variance(*args)
        assert a == pytest.approx(want, rel=1e-12) and v == pytest.approx(variance, rel=1e-11)
    assert prg_area_variance(None, pos, cum_pos=np.cumsum(pos).astype(np.int32)) == prg_area_variance(None, pos)
    ci = prg_auc_interval(neg, pos)
    assert ci == prg_auc_interval(None, pos) == prg_auc_interval(None, pos, cum_pos=np.cumsum(pos))
    assert ci.standard_error == pytest.approx(np.sqrt(variance), rel=1e-11)


def test_one_case_per_score_is_recognised_only_when_it_holds():
    # boolean cells with a case of each class at one score (or none) are counts, not one case each
    pos = np.array([True, True, False, True, False, False, True])
    neg = np.array([False, True, True, False, True, False, True])
    assert prg_area_variance(neg, pos) == pytest.approx(
        (_area_oracle(neg, pos), _variance_oracle(neg.astype(float), pos.astype(float))), rel=1e-12)
