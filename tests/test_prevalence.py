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
from clfeval.uncertainty.prevalence_intervals import ap_at_prevalence_interval, prevalence_intervals

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
