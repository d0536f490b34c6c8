"""Case-influence intervals: averaged areas, weighted cases, multilabel averages.

Oracles: exact derivatives by finite differences, DeLong's variance (the per-class linearisation
is DeLong's with m and n in place of m - 1 and n - 1), the unweighted intervals (unit weights
must reproduce them exactly), and a bootstrap over cases (the first-order standard error must
agree with the bootstrap's at moderate n).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.uncertainty.area_intervals import delong_variance
from clfeval.formulas.curves import average_precision, roc_auc
from clfeval.uncertainty.influence import (
    Cases,
    area_gradients,
    area_influences,
    influence_variance,
    linearized_variance,
)
from clfeval.statistics.rankings import BinaryRanking
from clfeval.uncertainty import confusion_intervals, delta_method_se


def quiet(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return clfeval.evaluate(*args, **kwargs)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=15))
def test_area_gradients_equal_finite_differences(cells):
    neg = np.array([c[0] for c in cells], dtype=float)
    pos = np.array([c[1] for c in cells], dtype=float)
    keep = pos + neg > 0  # a ranking has no empty scores
    neg, pos = neg[keep], pos[keep]
    if pos.sum() == 0 or neg.sum() == 0:
        return
    r = BinaryRanking(np.linspace(1.0, 0.0, pos.size), neg, pos)
    for area, f in (("roc_auc", roc_auc), ("average_precision", average_precision)):
        g_neg, g_pos = area_gradients(r, area)
        h = 1e-6
        for e in range(pos.size):
            p2, n2 = pos.copy(), neg.copy()
            p2[e] += h
            n2[e] += h
            assert g_pos[e] == pytest.approx((f(neg, p2) - f(neg, pos)) / h, abs=1e-5)
            assert g_neg[e] == pytest.approx((f(n2, pos) - f(neg, pos)) / h, abs=1e-5)
        # scale invariance (Euler): the count-weighted gradient sums to zero
        assert float(g_pos @ pos + g_neg @ neg) == pytest.approx(0.0, abs=1e-12)


def test_per_class_auc_influence_is_delongs_variance():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 120)
    s = np.round(rng.normal(size=120) + y, 1)  # ties
    ev = quiet(y, y_score=s)
    r = ev.rankings[ev.names[1]]
    est, u = area_influences(Cases(y, None, s, None), list(ev.rankings.values()), None, "roc_auc")["per_class"]
    auc, var = delong_variance(r)
    m, n = int(y.sum()), int((1 - y).sum())
    # DeLong: var(V10) / m + var(V01) / n with m - 1 and n - 1 in the sample variances; the
    # linearisation is the same sum with m and n there
    pos2 = float(np.sum(np.where(y == 1, u[1], 0.0) ** 2))
    neg2 = float(np.sum(np.where(y == 0, u[1], 0.0) ** 2))
    assert est[1] == pytest.approx(auc, abs=1e-15)
    assert influence_variance(u[1]) == pytest.approx(pos2 + neg2, rel=1e-9)
    assert var == pytest.approx(pos2 * m / (m - 1) + neg2 * n / (n - 1), rel=1e-9)


def test_unit_weights_reproduce_the_unweighted_confusion_intervals():
    rng = np.random.default_rng(1)
    y, p = rng.integers(0, 3, 200), rng.integers(0, 3, 200)
    plain = quiet(y, p).intervals()
    ones = quiet(y, p, sample_weight=np.ones(200)).intervals()
    for section in ("per_class", "overall"):
        for name, ci in plain[section].items():
            np.testing.assert_allclose(ones[section][name].low, ci.low, atol=1e-9)
            np.testing.assert_allclose(ones[section][name].high, ci.high, atol=1e-9)
    for avg, row in plain["averages"].items():
        for name, ci in row.items():
            np.testing.assert_allclose(ones["averages"][avg][name].low, ci.low, atol=1e-9)
    assert "Kish" in ones["overall"]["accuracy"].method
    assert ones["overall"]["mcc"].method == "delta method (weighted cases), Fisher z scale, cells + 1/3"


def test_linearized_variance_with_counts_is_the_multinomial_delta_method():
    t = np.array([[30.0, 10.0, 2.0], [10.0, 50.0, 4.0], [1.0, 3.0, 20.0]])
    from clfeval.formulas import measures as m

    v = linearized_variance(m.matthews_corrcoef, t, t, t.sum())[None]
    # linearized_variance differentiates numerically; delta_method_se takes MCC's exact gradient
    assert float(v) ** 0.5 == pytest.approx(float(delta_method_se(m.matthews_corrcoef, t)), rel=1e-8)


def test_weighted_intervals_do_not_change_when_the_weights_are_scaled():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 3, 150)
    s = rng.random((150, 3)) + 0.6 * np.eye(3)[y]
    w = rng.uniform(0.2, 3.0, 150)
    a = quiet(y, y_score=s, sample_weight=w).intervals_dict()
    b = quiet(y, y_score=s, sample_weight=3.7 * w).intervals_dict()

    def flat(d, prefix=""):
        if isinstance(d, dict) and "low" in d:
            yield prefix, d["low"], d["high"]
        elif isinstance(d, dict):
            for k, v in d.items():
                yield from flat(v, f"{prefix}/{k}")

    got = {k: (lo, hi) for k, lo, hi in flat(b)}
    for key, lo, hi in flat(a):
        np.testing.assert_allclose(np.asarray(got[key][0], float), np.asarray(lo, float), rtol=1e-7, err_msg=key)
        np.testing.assert_allclose(np.asarray(got[key][1], float), np.asarray(hi, float), rtol=1e-7, err_msg=key)


def _bootstrap_se(stat, n, B=1500, seed=0):
    rng = np.random.default_rng(seed)
    vals = [stat(rng.integers(0, n, n)) for _ in range(B)]
    return float(np.nanstd(vals, ddof=1))


def test_averaged_area_standard_errors_agree_with_a_case_bootstrap():
    import sklearn.metrics as skm

    rng = np.random.default_rng(3)
    n = 400
    y = rng.choice(3, n, p=[0.5, 0.3, 0.2])
    s = rng.normal(size=(n, 3)) + np.eye(3)[y] * np.array([1.0, 1.5, 0.8])
    ev = quiet(y, y_score=s)
    onehot = np.eye(3)[y]
    checks = {
        ("roc_auc", "macro"): lambda i: skm.roc_auc_score(onehot[i], s[i], average="macro"),
        ("roc_auc", "micro"): lambda i: skm.roc_auc_score(onehot[i], s[i], average="micro"),
        ("average_precision", "macro"): lambda i: skm.average_precision_score(onehot[i], s[i], average="macro"),
        ("average_precision", "weighted"): lambda i: skm.average_precision_score(onehot[i], s[i], average="weighted"),
    }
    z = 1.959963984540054
    for (area, avg), stat in checks.items():
        ci = ev.ci(area, average=avg)
        assert ci.estimate == pytest.approx(stat(np.arange(n)), abs=1e-12)
        se = _bootstrap_se(stat, n, B=400)
        half = (ci.high - ci.low) / (2 * z)  # AP is on the logit scale: near-symmetric at these values
        assert half == pytest.approx(se, rel=0.15), (area, avg)


def test_weighted_confusion_standard_errors_agree_with_a_case_bootstrap():
    import sklearn.metrics as skm

    rng = np.random.default_rng(4)
    n = 500
    y = rng.integers(0, 3, n)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n))
    w = rng.exponential(1.0, n)
    ev = quiet(y, p, sample_weight=w)
    z = 1.959963984540054
    checks = {
        "mcc": lambda i: skm.matthews_corrcoef(y[i], p[i], sample_weight=w[i]),
        "balanced_accuracy": lambda i: skm.balanced_accuracy_score(y[i], p[i], sample_weight=w[i]),
    }
    for name, stat in checks.items():
        ci = ev.ci(name)
        assert ci.estimate == pytest.approx(stat(np.arange(n)), abs=1e-12)
        assert (ci.high - ci.low) / (2 * z) == pytest.approx(_bootstrap_se(stat, n, B=400), rel=0.15), name
    f1 = ev.ci("f1", average="macro")
    se = _bootstrap_se(lambda i: skm.f1_score(y[i], p[i], average="macro", sample_weight=w[i]), n, B=400)
    assert (f1.high - f1.low) / (2 * z) == pytest.approx(se, rel=0.15)
    # accuracy: Wilson over Kish's effective number of cases, n_eff = (sum w)^2 / sum w^2
    n_eff = w.sum() ** 2 / (w @ w)
    acc = ev.ci("accuracy")
    want = clfeval.uncertainty.proportion_ci(acc.estimate * n_eff, n_eff)
    assert (acc.low, acc.high) == pytest.approx((want.low, want.high), abs=1e-12)


def test_multilabel_averages_agree_with_a_case_bootstrap_and_the_report():
    import sklearn.metrics as skm

    rng = np.random.default_rng(5)
    n, L = 300, 4
    y = (rng.random((n, L)) < [0.5, 0.3, 0.2, 0.6]).astype(int)
    y[:, 1] = np.where(rng.random(n) < 0.6, y[:, 0], y[:, 1])  # correlated labels
    p = np.where(rng.random((n, L)) < 0.8, y, 1 - y)
    ev = quiet(y, p)
    data = ev.intervals()
    z = 1.959963984540054
    for avg in ("micro", "macro", "weighted", "samples"):
        for name in ("precision", "recall", "f1"):
            ci = data["averages"][avg][name]
            assert ci.estimate == pytest.approx(ev.report.averages[avg][name], abs=1e-12)
            assert ci.low <= ci.estimate <= ci.high
        stat = lambda i, a=avg: skm.f1_score(y[i], p[i], average=a, zero_division=0)  # noqa: E731
        half = (data["averages"][avg]["f1"].high - data["averages"][avg]["f1"].low) / (2 * z)
        assert half == pytest.approx(_bootstrap_se(stat, n, B=300), rel=0.15), avg
    ham = data["overall"]["hamming_loss"]
    assert ham.estimate == pytest.approx(skm.hamming_loss(y, p))
    assert (ham.high - ham.low) / (2 * z) == pytest.approx(
        _bootstrap_se(lambda i: skm.hamming_loss(y[i], p[i]), n, B=300), rel=0.15)
    exact = float((y == p).all(axis=1).mean())
    want = clfeval.uncertainty.proportion_ci(exact * n, n)
    assert (data["overall"]["accuracy"].low, data["overall"]["accuracy"].high) == pytest.approx(
        (want.low, want.high), abs=1e-12)


def test_every_number_of_the_report_has_an_interval():
    rng = np.random.default_rng(6)
    n = 120
    y = rng.integers(0, 3, n)
    s = rng.random((n, 3)) + 0.5 * np.eye(3)[y]
    yl = rng.integers(0, 2, (n, 3))
    sl = rng.random((n, 3)) + 0.3 * yl
    w = rng.uniform(0.5, 2.0, n)
    for ev in (quiet(y, y_score=s), quiet(y, y_score=s, sample_weight=w), quiet(yl, y_score=sl),
               quiet(yl, y_score=sl, sample_weight=w), quiet(y % 2, y_score=s[:, 1], sample_weight=w, threshold=0.75)):
        data = ev.intervals()
        for name, value in ev.report.overall.items():
            ci = data["overall"][name]
            assert ci.estimate == pytest.approx(value, abs=1e-12), name
            assert ci.low <= ci.estimate + 1e-12 and ci.estimate <= ci.high + 1e-12
        for avg, row in ev.report.averages.items():
            for name, value in row.items():
                if name in ("label", "support") or value is None:
                    continue
                ci = data["averages"][avg][name]
                assert ci.estimate == pytest.approx(value, abs=1e-12, nan_ok=True), (avg, name)
                if np.isnan(value):  # undefined: a NaN interval
                    assert np.isnan(ci.low) and np.isnan(ci.high)
                else:
                    assert ci.low <= ci.estimate + 1e-12 and ci.estimate <= ci.high + 1e-12, (avg, name)
        for name in ("precision", "recall", "roc_auc", "average_precision"):
            c = data["per_class"][name]
            want = [row[name] for row in ev.report.rows]
            np.testing.assert_allclose(c.estimate, np.array(want, dtype=float), atol=1e-12)
            ok = ~np.isnan(c.estimate)
            assert np.all(c.low[ok] <= c.estimate[ok] + 1e-12) and np.all(c.estimate[ok] <= c.high[ok] + 1e-12)


def test_weighted_bootstrap_is_refused_with_the_way_out():
    ev = quiet([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], sample_weight=[1, 2, 1, 1, 3])
    with pytest.raises(ValueError, match="use method='analytic'"):
        ev.intervals(method="bca")
    with pytest.raises(ValueError, match="weight_squares"):
        confusion_intervals(np.array([[2.0, 1.0], [0.0, 3.0]]), n_cases=4)  # n_cases without squares
    with pytest.raises(ValueError, match="resamples counts"):
        confusion_intervals(np.array([[2.0, 1.0], [0.0, 3.0]]), method="bootstrap",
                            weight_squares=np.ones((2, 2)), n_cases=4)
    with pytest.raises(ValueError, match="shape"):
        confusion_intervals(np.array([[2.0, 1.0], [0.0, 3.0]]), weight_squares=np.ones(3), n_cases=4)


def test_zero_weight_cases_with_scores_of_their_own_change_no_interval():
    """A zero-weight case's score is left out of the ranking; its interval contribution is 0."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 60)
    s = rng.random(60) + 0.5 * y
    w = rng.random(60) + 0.2
    w[[3, 10, int(np.argmin(s)), int(np.argmax(s))]] = 0.0  # incl. the lowest and highest score
    keep = w > 0
    full = clfeval.evaluate(y, y_score=s, sample_weight=w).intervals()
    kept = clfeval.evaluate(y[keep], y_score=s[keep], sample_weight=w[keep]).intervals()
    for metric in ("roc_auc", "average_precision", "precision", "recall"):
        np.testing.assert_allclose(full["per_class"][metric].low, kept["per_class"][metric].low, rtol=1e-12)
        np.testing.assert_allclose(full["per_class"][metric].high, kept["per_class"][metric].high, rtol=1e-12)
