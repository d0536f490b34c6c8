"""Measures at another prevalence (issue 22, point 1): formulas, their gradients, the Evaluation API.

Oracles: hand computations; reweighting the sample so that its prevalence is pi (positives by
pi / p, negatives by (1 - pi) / (1 - p)) and feeding it through the package's own evaluate(), which
must give the same PPV, NPV, F1, accuracy, MCC, AP and PR curve to ~1e-12; and properties (pi = p
reproduces the sample; TPR/FPR unchanged; monotone in pi; bounds).
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clfeval import evaluate
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.formulas.prevalence import (
    average_precision_at_prevalence,
    calibrated_precision,
    measure_gradients_at_prevalence,
    measures_at_prevalence,
    pr_points_at_prevalence,
)
from clfeval.inputs.evaluate_options import EvaluateOptions, check_prevalence
from clfeval.results.prevalence import AtPrevalence
from clfeval.uncertainty.prevalence_intervals import (
    ap_at_prevalence_interval,
    prevalence_intervals,
)

TOL = 1e-12


def _quiet_evaluate(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        ev = evaluate(*args, **kwargs)
        _ = ev.report
    return ev


# -- hand computations -----------------------------------------------------------------------------------------
def test_hand_computed_table():
    # TPR 0.8, FPR 0.1 at pi = 0.1 (a screening test): TP' .08, FP' .09, FN' .02, TN' .81
    v = measures_at_prevalence(0.8, 0.1, 0.1)
    assert float(v["precision"]) == pytest.approx(0.08 / 0.17, abs=TOL)
    assert float(v["npv"]) == pytest.approx(0.81 / 0.83, abs=TOL)
    assert float(v["accuracy"]) == pytest.approx(0.89, abs=TOL)
    assert float(v["f1"]) == pytest.approx(2 * 0.08 / (2 * 0.08 + 0.09 + 0.02), abs=TOL)
    mcc = (0.08 * 0.81 - 0.09 * 0.02) / math.sqrt(0.17 * 0.10 * 0.90 * 0.83)
    assert float(v["mcc"]) == pytest.approx(mcc, abs=TOL)
    assert float(v["recall"]) == 0.8 and float(v["fallout"]) == 0.1
    # F2: (1 + 4) TP / ((1 + 4) TP + 4 FN + FP)
    assert float(measures_at_prevalence(0.8, 0.1, 0.1, beta=2.0)["f2"]) == pytest.approx(0.4 / (0.4 + 0.08 + 0.09))


def test_calibrated_precision_siblini():
    # Siblini et al. (2020), eq. (2): precision_pi = pi TPR / (pi TPR + (1 - pi) FPR)
    assert float(calibrated_precision(0.5, 0.25, 0.2)) == pytest.approx(0.1 / (0.1 + 0.2), abs=TOL)
    assert np.isnan(calibrated_precision(0.0, 0.0, 0.3))


def test_batched_over_leading_axes():
    t = np.array([[0.9, 0.5], [0.7, 0.2]])
    f = np.array([[0.1, 0.5], [0.3, 0.05]])
    pi = np.array([0.05, 0.5])
    batch = measures_at_prevalence(t, f, pi)
    for i in range(2):
        for j in range(2):
            one = measures_at_prevalence(t[i, j], f[i, j], pi[j])
            for k in batch:
                assert batch[k][i, j] == pytest.approx(float(one[k]), abs=TOL)


def test_ap_at_prevalence_by_hand():
    # scores .8 (pos), .4 (pos, neg), .1 (neg): TPR steps .5, 1 at FPR 0, .5; pi = .2
    neg, pos = np.array([0, 1, 1]), np.array([1, 1, 0])
    p1 = 1.0
    p2 = 0.2 * 1.0 / (0.2 * 1.0 + 0.8 * 0.5)
    assert average_precision_at_prevalence(neg, pos, 0.2) == pytest.approx(0.5 * p1 + 0.5 * p2, abs=TOL)
    assert np.isnan(average_precision_at_prevalence(np.array([0, 0]), np.array([1, 1]), 0.2))


@pytest.mark.parametrize("name", ["precision", "npv", "f1", "f2", "accuracy", "mcc"])
def test_gradients_match_central_differences(name):
    beta = 2.0 if name == "f2" else 1.0
    rng = np.random.default_rng(3)
    for _ in range(30):
        t, f, pi = rng.uniform(0.05, 0.95), rng.uniform(0.05, 0.95), rng.uniform(0.01, 0.99)
        g_t, g_f = measure_gradients_at_prevalence(t, f, pi, beta)[name]
        h = 1e-6
        num_t = (measures_at_prevalence(t + h, f, pi, beta)[name] - measures_at_prevalence(t - h, f, pi, beta)[name]) / (2 * h)
        num_f = (measures_at_prevalence(t, f + h, pi, beta)[name] - measures_at_prevalence(t, f - h, pi, beta)[name]) / (2 * h)
        assert float(g_t) == pytest.approx(float(num_t), rel=1e-6, abs=1e-8)
        assert float(g_f) == pytest.approx(float(num_f), rel=1e-6, abs=1e-8)


# -- reweighting oracle: the package's own code on a sample reweighted to prevalence pi ----------------------
def _reweighted(y, pi):
    y = np.asarray(y)
    p_hat = y.mean()
    return np.where(y == 1, pi / p_hat, (1 - pi) / (1 - p_hat))


@pytest.mark.parametrize("seed", range(6))
def test_matches_reweighted_sample(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 300))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(rng.random(n) + 0.4 * y, int(rng.integers(1, 4)))  # ties
    pi = float(rng.uniform(0.01, 0.99))
    ev = _quiet_evaluate(y, y_score=s, threshold=0.6)
    r = ev.at_prevalence(pi)
    w = _reweighted(y, pi)
    ref = _quiet_evaluate(y, y_score=s, threshold=0.6, sample_weight=w)
    pc = {k: [None, v] for k, v in ref.report.rows[1].items()}
    for key, want in [("precision", pc["precision"][1]), ("npv", pc["npv"][1]), ("f1", pc["f1"][1]),
                      ("recall", pc["recall"][1]), ("fallout", pc["fallout"][1]),
                      ("accuracy", ref.report.overall["accuracy"]), ("mcc", ref.report.overall["mcc"])]:
        got = r[key]
        if np.isnan(want):
            assert np.isnan(got), key
        else:
            assert got == pytest.approx(want, abs=1e-12, rel=1e-12), key
    assert r.average_precision == pytest.approx(ref.report.overall["average_precision"], abs=1e-12)
    # the PR curve at pi: the reweighted sample's curve, point for point
    assert np.allclose(r.pr_curve.x, ref.pr.main.x, atol=1e-12, rtol=0)
    assert np.allclose(r.pr_curve.y, ref.pr.main.y, atol=1e-12, rtol=0)
    assert np.array_equal(r.pr_curve.thresholds, ref.pr.main.thresholds)


# -- properties -------------------------------------------------------------------------------------------------
cells = st.integers(0, 60)


@given(tp=cells, fp=cells, fn=cells, tn=cells)
def test_sample_prevalence_reproduces_the_sample(tp, fp, fn, tn):
    if tp + fn == 0 or fp + tn == 0:
        return
    y_true = [1] * (tp + fn) + [0] * (fp + tn)
    y_pred = [1] * tp + [0] * fn + [1] * fp + [0] * tn
    ev = _quiet_evaluate(y_true, y_pred)
    p_hat = (tp + fn) / (tp + fp + fn + tn)
    r = ev.at_prevalence(p_hat, level=None)
    pc = {k: [None, v] for k, v in ev.report.rows[1].items()}
    for key, want in [("precision", pc["precision"][1]), ("npv", pc["npv"][1]), ("f1", pc["f1"][1]),
                      ("accuracy", ev.report.overall["accuracy"]), ("mcc", ev.report.overall["mcc"]),
                      ("recall", pc["recall"][1]), ("fallout", pc["fallout"][1])]:
        if np.isnan(want):
            assert np.isnan(r[key]), key
        else:
            assert r[key] == pytest.approx(want, abs=1e-12), key


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 6), st.sampled_from([0.0, 0.5, 1.0, 2.0])),
                min_size=2, max_size=40))
def test_sample_prevalence_reproduces_ap(rows):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows], dtype=float)
    w = np.array([r[2] for r in rows])
    wp, wn = w[y == 1].sum(), w[y == 0].sum()
    if wp == 0 or wn == 0:
        return
    ev = _quiet_evaluate(y, y_score=s, sample_weight=w)
    r = ev.at_prevalence(wp / (wp + wn), level=None)
    assert r.average_precision == pytest.approx(ev.report.overall["average_precision"], abs=1e-12)


@given(t=st.floats(0.0, 1.0), f=st.floats(0.0, 1.0), pi=st.floats(1e-6, 1 - 1e-6))
def test_bounds_and_rates_unchanged(t, f, pi):
    v = measures_at_prevalence(t, f, pi)
    for key in ("precision", "npv", "f1", "accuracy"):
        x = float(v[key])
        assert np.isnan(x) or -1e-15 <= x <= 1 + 1e-15, key
    assert -1 - 1e-12 <= float(v["mcc"]) <= 1 + 1e-12
    assert float(v["recall"]) == t and float(v["fallout"]) == f


@given(t=st.floats(0.01, 1.0), f=st.floats(0.01, 1.0), a=st.floats(0.001, 0.999), b=st.floats(0.001, 0.999))
def test_monotone_in_prevalence(t, f, a, b):
    lo, hi = min(a, b), max(a, b)
    v_lo, v_hi = measures_at_prevalence(t, f, lo), measures_at_prevalence(t, f, hi)
    assert float(v_hi["precision"]) >= float(v_lo["precision"]) - 1e-12  # PPV rises with pi
    if t < 1 or f < 1:  # else never predicted negative: NPV 0/0 at every pi
        assert float(v_hi["npv"]) <= float(v_lo["npv"]) + 1e-12  # NPV falls
    assert float(v_hi["f1"]) >= float(v_lo["f1"]) - 1e-12
    # accuracy is linear in pi: rises iff TPR > specificity
    slope = t - (1 - f)
    assert (float(v_hi["accuracy"]) - float(v_lo["accuracy"])) * np.sign(slope) >= -1e-12


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 5)), min_size=2, max_size=30),
       st.floats(0.01, 0.99), st.floats(0.01, 0.99))
def test_ap_monotone_in_prevalence(rows, a, b):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows])
    if y.min() == y.max():
        return
    levels = np.unique(s)[::-1]
    pos = np.array([(y[s == v] == 1).sum() for v in levels])
    neg = np.array([(y[s == v] == 0).sum() for v in levels])
    lo, hi = min(a, b), max(a, b)
    assert average_precision_at_prevalence(neg, pos, hi) >= average_precision_at_prevalence(neg, pos, lo) - 1e-12
    p, r, thr = pr_points_at_prevalence(neg, pos, levels.astype(float), lo)
    assert p.size == r.size == thr.size and thr[0] == np.inf


# -- intervals ---------------------------------------------------------------------------------------------------
def test_ppv_interval_is_the_log_likelihood_ratio_interval_at_large_counts():
    # logit PPV = logit pi + log(t / f): the delta method on the logit scale is Katz's interval of log LR+
    tp, fn, fp, tn, pi = 8000, 2000, 1000, 9000, 0.05
    ci = prevalence_intervals(tp, fp, fn, tn, pi)["precision"]
    t, f = 0.8, 0.1
    se = math.sqrt((1 - t) / (t * 10000) + (1 - f) / (f * 10000))
    eta = math.log(pi / (1 - pi)) + math.log(t / f)
    low, high = (1 / (1 + math.exp(-(eta + s * 1.959963984540054 * se))) for s in (-1, 1))
    assert ci.low == pytest.approx(low, abs=2e-4) and ci.high == pytest.approx(high, abs=2e-4)
    assert ci.low < ci.estimate < ci.high


def test_intervals_edges_and_weights():
    cis = prevalence_intervals(10, 0, 0, 10, 0.1)  # perfect: still a width, inside the range
    for key, ci in cis.items():
        assert ci.low <= ci.estimate <= ci.high, key
        assert -1 <= ci.low and ci.high <= 1
    assert cis["precision"].low < 1.0
    nan = prevalence_intervals(0, 3, 0, 5, 0.1)  # no positives
    assert np.isnan(nan["precision"].low) and np.isnan(nan["recall"].estimate)
    plain = prevalence_intervals(40, 5, 10, 45, 0.1)
    # Kish: weight 2 on each of the same 100 cases (sum of squares 4 x 50 per class): the same interval
    kish = prevalence_intervals(80, 10, 20, 90, 0.1, class_squares=(4 * 50, 4 * 50))
    assert kish["precision"].low == pytest.approx(plain["precision"].low, abs=1e-12)
    assert kish["precision"].high == pytest.approx(plain["precision"].high, abs=1e-12)
    assert "Kish" in kish["precision"].method
    # uneven weights (sum of squares 300 per class: 33 effective cases of 50): wider, same estimate
    uneven = prevalence_intervals(80, 10, 20, 90, 0.1, class_squares=(300, 300))
    assert uneven["precision"].estimate == pytest.approx(plain["precision"].estimate)
    assert uneven["precision"].high - uneven["precision"].low > plain["precision"].high - plain["precision"].low


def test_ap_interval_holds_estimate():
    ci = ap_at_prevalence_interval(np.array([0, 1, 2, 5, 9]), np.array([7, 5, 3, 1, 0]), 0.05)
    assert ci.low <= ci.estimate <= ci.high
    assert np.isnan(ap_at_prevalence_interval(np.array([1, 1]), np.array([0, 0]), 0.05).estimate)


# -- the Evaluation API -------------------------------------------------------------------------------------------
def test_evaluate_prevalence_stored_and_reported():
    y = [0, 0, 1, 1, 0, 1, 1, 0, 0, 0]
    s = [.1, .4, .35, .8, .5, .9, .7, .2, .3, .6]
    ev = evaluate(y, y_score=s, prevalence=0.02)
    assert ev.prevalence == 0.02
    r = ev.at_prevalence()
    assert isinstance(r, AtPrevalence)
    assert r.prevalence == 0.02 and r.sample_prevalence == pytest.approx(0.4)
    assert "π = 0.02" in repr(r) and "p̂ = 0.4" in repr(r)
    assert "π = 0.02" in r._repr_html_() and "p̂ = 0.4" in r._repr_html_()
    d = json.loads(ev.to_json(ci_level=0.9))
    entry = d["at_prevalence"]
    assert entry["prevalence"] == 0.02 and "not the sample" in entry["note"]
    assert entry["intervals"]["precision"]["level"] == 0.9
    assert set(entry["measures"]) == {"precision", "npv", "f1", "accuracy", "mcc", "recall", "fallout"}
    assert "at_prevalence" not in evaluate(y, y_score=s).to_dict()
    plain = ev.to_dict()
    assert plain["at_prevalence"]["intervals"] is None  # intervals only with ci_level, as the others
    assert plain["prg_auc"] == {"value": ev.prg_auc().estimate, "interval": None}
    assert d["prg_auc"]["interval"]["level"] == 0.9
    assert "prg_auc" not in evaluate([0, 1, 2], y_score=np.eye(3)).to_dict()
    # another prevalence on demand, without intervals
    assert ev.at_prevalence(0.5, level=None).intervals is None
    # the same through EvaluateOptions
    same = evaluate(y, y_score=s, options=EvaluateOptions(prevalence=0.02)).at_prevalence()
    assert same.values == r.values


def test_prg_auc_method():
    ev = evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
    ci = ev.prg_auc()
    assert ci.estimate == pytest.approx(0.25, abs=TOL)
    multi = evaluate([0, 1, 2, 2, 1, 0], y_score=np.eye(3)[[0, 1, 2, 1, 1, 0]] * 0.8 + 0.1)
    assert np.isfinite(multi.prg_auc(curve="2").estimate)


@pytest.mark.parametrize("bad", [0, 1, 0.0, 1.0, -0.1, 1.5, float("nan"), float("inf"), "0.1", True, None])
def test_bad_prevalence(bad):
    if bad is None:
        with pytest.raises(ValueError, match="needs a prevalence"):
            evaluate([0, 1], [0, 1]).at_prevalence()
        return
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        evaluate([0, 1, 1], [0, 1, 0], prevalence=bad)
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        check_prevalence(bad)


def test_prevalence_needs_a_binary_task():
    with pytest.raises(ValueError, match="binary task; this task is multiclass"):
        evaluate([0, 1, 2], [0, 1, 1], prevalence=0.1)
    with pytest.raises(ValueError, match="binary task"):
        evaluate([0, 1, 2], [0, 1, 1]).at_prevalence(0.1)


def test_stream_carries_prevalence():
    from clfeval.streaming import StreamingEvaluation

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    s = rng.random(300) + 0.5 * y
    stream = StreamingEvaluation(options=EvaluateOptions(prevalence=0.1))
    for i in range(0, 300, 100):
        stream.update(y[i:i + 100], y_score=s[i:i + 100])
    got = stream.result().at_prevalence()
    want = evaluate(y, y_score=s, prevalence=0.1).at_prevalence()
    for k in want.values:
        assert got[k] == pytest.approx(want[k], abs=1e-12, nan_ok=True)
    assert got.average_precision == pytest.approx(want.average_precision, abs=1e-12)


def test_dask_carries_prevalence():
    da = pytest.importorskip("dask.array")
    import clfeval.dask as clfeval_dask

    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 400)
    s = rng.random(400) * 0.7 + 0.3 * y
    ev = clfeval_dask.evaluate(da.from_array(y, chunks=100), y_score=da.from_array(s, chunks=100),
                               options=EvaluateOptions(prevalence=0.1))
    want = evaluate(y, y_score=s, prevalence=0.1).at_prevalence(level=None)
    got = ev.at_prevalence(level=None)
    assert ev.prevalence == 0.1
    for k in want.values:
        assert got[k] == pytest.approx(want[k], abs=1e-12, nan_ok=True)


# -- AP at pi's interval: the one-pass implementation against the previous one (kept here as the oracle) -------
def _old_ap_and_se(neg, pos, prevalence):
    """The previous implementation: the full gradients (influence.average_precision_gradients) at pi."""
    from clfeval.formulas.prevalence import prevalence_weights
    from clfeval.uncertainty.influence import average_precision_gradients

    p, n = float(pos.sum()), float(neg.sum())
    w_neg, w_pos = prevalence_weights(neg, pos, prevalence)
    ap, g_wneg, g_wpos = average_precision_gradients(w_neg, w_pos)
    c_n, c_p = (1.0 - prevalence) / n, prevalence / p
    g_neg = c_n * g_wneg - c_n / n * float(np.dot(g_wneg, neg))
    g_pos = c_p * g_wpos - c_p / p * float(np.dot(g_wpos, pos))
    var = (float(np.dot(neg, g_neg**2)) - float(np.dot(neg, g_neg)) ** 2 / n
           + float(np.dot(pos, g_pos**2)) - float(np.dot(pos, g_pos)) ** 2 / p)
    return float(ap), float(np.sqrt(max(var, 0.0))), g_neg, g_pos


def _old_ap_interval(neg, pos, prevalence, level=0.95):
    """(estimate, low, high, se) as the previous ap_at_prevalence_interval gave them."""
    from clfeval.uncertainty.checks import z_quantile
    from clfeval.uncertainty.scales import transformed_interval

    pos = np.asarray(pos, dtype=np.float64)
    neg = 1.0 - pos if neg is None else np.asarray(neg, dtype=np.float64)
    p, n = float(pos.sum()), float(neg.sum())
    ap = float(average_precision_at_prevalence(neg[None], pos[None], prevalence)[0])  # the batched (old) route
    if not (p > 0 and n > 0):
        return (float("nan"),) * 4
    pooled = (neg + pos) / (n + p)
    center, se_s = _old_ap_and_se(neg + 3.0 * pooled, pos + 3.0 * pooled, prevalence)[:2]
    se = _old_ap_and_se(neg, pos, prevalence)[1]
    if not 0.0 < center < 1.0 or not se_s > 0:
        return ap, ap, ap, se
    low, high = transformed_interval(np.asarray(center), np.asarray(center), np.asarray(se_s), z_quantile(level),
                                     (0.0, 1.0))
    return ap, float(min(low, ap)), float(max(high, ap)), se


def _as_tuple(ci):
    return ci.estimate, ci.low, ci.high, ci.standard_error


def _assert_close(got, want, rel=1e-12):
    for g, w in zip(got, want, strict=True):
        if np.isnan(w):
            assert np.isnan(g)
        else:
            assert g == pytest.approx(w, rel=rel, abs=1e-15)


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=40),
       st.floats(0.005, 0.95), st.sampled_from(["counts", "one per score", "weights"]))
def test_ap_interval_equals_the_previous_implementation(rows, pi, kind):
    neg = np.array([r[0] for r in rows])
    pos = np.array([r[1] for r in rows])
    if kind == "one per score":
        pos = pos > 1
        got = ap_at_prevalence_interval(None, pos, pi)
        want = _old_ap_interval(None, pos, pi)
    else:
        if kind == "weights":  # float weights, empty cells included
            neg, pos = neg * 0.37, pos * 1.9
        got = ap_at_prevalence_interval(neg, pos, pi)
        want = _old_ap_interval(neg, pos, pi)
    _assert_close(_as_tuple(got), want)
    # the interval's estimate is the formula's, bit for bit
    est = average_precision_at_prevalence(None if kind == "one per score" else neg, pos, pi)
    assert (np.isnan(est) and np.isnan(got.estimate)) or got.estimate == est


@pytest.mark.parametrize("kind", ["one per score", "counts"])
def test_ap_interval_across_many_chunks(kind):
    """More cells than one chunk (the tails carried across chunks, a block without positives), ranking's
    cumulative counts passed in: the previous implementation's numbers."""
    from clfeval.formulas.prevalence import CHUNK

    rng = np.random.default_rng(3)
    d = 3 * CHUNK + 123
    pos = rng.random(d) < np.linspace(0.9, 0.02, d)
    pos[CHUNK:2 * CHUNK] = False  # a whole chunk of negatives
    if kind == "one per score":
        got = ap_at_prevalence_interval(None, pos, 0.07, tps=np.cumsum(pos))
        want = _old_ap_interval(None, pos, 0.07)
    else:
        neg, cnt = rng.integers(0, 3, d), rng.integers(0, 3, d) * pos
        got = ap_at_prevalence_interval(neg, cnt, 0.07, tps=np.cumsum(cnt), fps=np.cumsum(neg))
        want = _old_ap_interval(neg, cnt, 0.07)
    _assert_close(_as_tuple(got), want, rel=1e-11)


# -- weighted rows --------------------------------------------------------------------------------------------
def _weighted_data(seed, n=160):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(rng.random(n) + 0.5 * y, 2)  # ties
    w = rng.uniform(0.2, 3.0, n)
    return y, s, w


@pytest.mark.parametrize("seed", range(3))
def test_weighted_ap_interval_unit_and_scaled_weights(seed):
    y, s, w = _weighted_data(seed)
    plain = _quiet_evaluate(y, y_score=s).at_prevalence(0.05).ap_interval
    ones = _quiet_evaluate(y, y_score=s, sample_weight=np.ones(y.size)).at_prevalence(0.05).ap_interval
    _assert_close(_as_tuple(ones), _as_tuple(plain))
    a = _quiet_evaluate(y, y_score=s, sample_weight=w).at_prevalence(0.05).ap_interval
    b = _quiet_evaluate(y, y_score=s, sample_weight=3.7 * w).at_prevalence(0.05).ap_interval
    _assert_close(_as_tuple(b), _as_tuple(a))
    assert a.low < a.estimate < a.high and a.standard_error > 0


@pytest.mark.parametrize("seed", range(3))
def test_weighted_ap_se_is_the_case_influence_variance(seed):
    """Brute force over the rows: each case's influence w_i g(its cell, its class), g the previous
    implementation's exact gradient of AP at pi; the variance within each class, sum u^2 - (sum u)^2 / n."""
    y, s, w = _weighted_data(seed)
    w[::7] = 0.0  # zero-weight rows: no influence, not counted
    pi = 0.2
    ev = _quiet_evaluate(y, y_score=s, sample_weight=w)
    got = ev.at_prevalence(pi).ap_interval
    r = ev.ranking(ev.names[ev.positive_index])
    _, _, g_neg, g_pos = _old_ap_and_se(r.negatives().astype(float), r.pos.astype(float), pi)
    cell = np.searchsorted(-r.scores, -s)
    var = 0.0
    for cls, g in ((0, g_neg), (1, g_pos)):
        keep = (y == cls) & (w > 0)
        u = w[keep] * g[cell[keep]]
        var += np.dot(u, u) - u.sum() ** 2 / keep.sum()
    assert got.standard_error == pytest.approx(np.sqrt(var), rel=1e-10)
    assert got.estimate == pytest.approx(_old_ap_interval(r.negatives(), r.pos, pi)[0], rel=1e-12)


def test_integer_weights_equal_repeated_rows():
    """Integer weights: the estimate is the repeated rows'; given as frequencies (squares = the counts, n =
    their totals) the interval is the repeated rows' interval, exactly."""
    y, s, _ = _weighted_data(4)
    w = np.random.default_rng(4).integers(1, 5, y.size)
    rows = np.repeat(np.arange(y.size), w)
    weighted = _quiet_evaluate(y, y_score=s, sample_weight=w).at_prevalence(0.1)
    repeated = _quiet_evaluate(y[rows], y_score=s[rows]).at_prevalence(0.1)
    assert weighted.average_precision == pytest.approx(repeated.average_precision, rel=1e-12)
    r = _quiet_evaluate(y, y_score=s, sample_weight=w).ranking("1")
    neg, pos = r.negatives(), r.pos
    freq = ap_at_prevalence_interval(neg, pos, 0.1, squares=(neg, pos), n_cases=(neg.sum(), pos.sum()))
    _assert_close(_as_tuple(freq), _as_tuple(repeated.ap_interval))
    # as sampling weights (squares w^2, n the rows) the interval differs: fewer cases than repeated rows
    assert weighted.ap_interval.standard_error > repeated.ap_interval.standard_error


def test_zero_weight_rows_change_no_ap_interval():
    y, s, w = _weighted_data(5)
    w[::5] = 0.0
    keep = w > 0
    a = _quiet_evaluate(y, y_score=s, sample_weight=w).at_prevalence(0.1).ap_interval
    b = _quiet_evaluate(y[keep], y_score=s[keep], sample_weight=w[keep]).at_prevalence(0.1).ap_interval
    _assert_close(_as_tuple(a), _as_tuple(b))


def test_weighted_stream_has_no_intervals_but_the_same_values():
    from clfeval.streaming import StreamingEvaluation

    y, s, w = _weighted_data(6)
    stream = StreamingEvaluation()
    for i in range(0, y.size, 50):
        stream.update(y[i:i + 50], y_score=s[i:i + 50], sample_weight=w[i:i + 50])
    got = stream.result().at_prevalence(0.1)
    want = _quiet_evaluate(y, y_score=s, sample_weight=w).at_prevalence(0.1)
    assert got.intervals is None and got.ap_interval is None  # the stream keeps no squared weights
    assert got.average_precision == pytest.approx(want.average_precision, rel=1e-12)
    for k in want.values:
        assert got[k] == pytest.approx(want[k], rel=1e-12, nan_ok=True)


def test_pr_curve_is_built_when_read():
    from clfeval.statistics.rankings import Curve

    y, s, _ = _weighted_data(7)
    r = _quiet_evaluate(y, y_score=s).at_prevalence(0.1)
    assert isinstance(r.pr_curve, Curve) and r.pr_curve is r.pr_curve  # built once, kept
    ev = _quiet_evaluate(y, y_score=s)
    rank = ev.ranking(ev.names[ev.positive_index])
    p, rec, thr = pr_points_at_prevalence(rank.neg, rank.pos, rank.scores, 0.1)
    assert np.array_equal(r.pr_curve.y, p) and np.array_equal(r.pr_curve.x, rec)
    assert np.array_equal(r.pr_curve.thresholds, thr)
    assert r.pr_curve.area == r.average_precision
    assert len(r.to_dict(50)["pr_curve"]["x"]) <= 50
