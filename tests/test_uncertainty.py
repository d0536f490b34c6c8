"""Tests of clfeval.uncertainty: proportion intervals, the delta method, the cell bootstrap,
confusion_intervals, ranking intervals and curve bands.

Reference values (sources next to each):
- R ``binom::binom.confint(x, n, tol = 1e-8)`` as recorded in statsmodels'
  ``statsmodels/stats/tests/results/results_proportion.py`` (methods agresti-coull, asymptotic
  = Wald, exact = Clopper-Pearson, wilson).
- scipy's documented example ``binomtest(k=7, n=50).proportion_ci()`` (Clopper-Pearson):
  (0.05819170033997342, 0.26739600249700846).
- Cohen's kappa: the SAS PROC FREQ printout reproduced in statsmodels'
  ``statsmodels/stats/tests/test_inter_rater.py`` for the table [[0, 4, 1], [0, 8, 0], [0, 1, 5]]:
  kappa 0.4842, ASE 0.1380, 95% limits 0.2137 and 0.7547 (SAS's ASE is the Fleiss, Cohen &
  Everitt 1969 large-sample standard error).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clfeval.formulas import measures as m
from clfeval.statistics.counts import ConfusionCounts
from clfeval.formulas.curves import roc_auc
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.statistics.rankings import BinaryRanking
from clfeval.stats._result import ConfidenceInterval
from clfeval.uncertainty import (
    DELTA,
    PROPORTION_METHODS,
    auc_leave_one_out,
    _jackknife,
    jackknife_acceleration,
    bootstrap_ci,
    bootstrap_confusion,
    bootstrap_ranking,
    confusion_intervals,
    delta_method_se,
    pr_band,
    proportion_ci,
    ranking_intervals,
    roc_band,
    sensitivity_at_specificity,
    specificity_at_sensitivity,
)

METHODS = list(PROPORTION_METHODS)

# ---------------------------------------------------------------------------------------------
# proportion_ci: reference values
# ---------------------------------------------------------------------------------------------
# R binom.confint(x, n, tol = 1e-8), via statsmodels results_proportion.py (res_binom[(x, n)]):
# method: (low, high) as R prints them; we clip Wald / Agresti-Coull to [0, 1].
R_BINOM = {
    (18, 20): {
        "agresti-coull": (0.6867561125596077, 0.984343760998137),
        "wald": (0.768521618913513, 1.031478381086487),
        "clopper-pearson": (0.6830172859809176, 0.9876514728297052),
        "wilson": (0.6989663547715128, 0.972133518786232),
    },
    (4, 20): {
        "agresti-coull": (0.0749115102767071, 0.4217635845549845),
        "wald": (0.0246954918846837, 0.3753045081153163),
        "clopper-pearson": (0.05733399705003284, 0.436614002996668),
        "wilson": (0.0806576625797981, 0.4160174322518935),
    },
    (4, 200): {
        "agresti-coull": (0.005991954548218395, 0.0520995587739575),
        "wald": (0.000597346459104517, 0.0394026535408955),
        "clopper-pearson": (0.005475565879556443, 0.05041360908989634),
        "wilson": (0.00780442641634947, 0.05028708690582643),
    },
    (190, 200): {
        "agresti-coull": (0.909307307911624, 0.973731898348837),
        "wald": (0.919794926420966, 0.980205073579034),
        "clopper-pearson": (0.9099724622986486, 0.975765834527891),
        "wilson": (0.910421851861224, 0.972617354399236),
    },
    (1, 30): {  # printed to 7 significant digits
        "agresti-coull": (-8.305484e-03, 0.18091798),
        "wald": (-3.090070e-02, 0.09756737),
        "clopper-pearson": (8.435709e-04, 0.17216946),
        "wilson": (5.908590e-03, 0.16670391),
    },
}


@pytest.mark.parametrize("xn", list(R_BINOM))
@pytest.mark.parametrize("method", ["agresti-coull", "wald", "clopper-pearson", "wilson"])
def test_proportion_matches_r_binom_confint(xn, method):
    low, high = R_BINOM[xn][method]
    ci = proportion_ci(*xn, method=method)
    tol = 1e-6 if xn == (1, 30) else 1e-12
    assert ci.low == pytest.approx(min(max(low, 0.0), 1.0), abs=tol)
    assert ci.high == pytest.approx(min(max(high, 0.0), 1.0), abs=tol)
    assert ci.estimate == xn[0] / xn[1] and ci.level == 0.95 and ci.method == PROPORTION_METHODS[method]


def test_proportion_extremes_match_r():
    # R binom.confint(x = 0, n = 30) and (30, 30): exact upper 0.11570331, wilson 0.11351339,
    # agresti-coull 0.13471170 (R clips the negative lower AC limit to 0, as we do).
    assert proportion_ci(0, 30, method="clopper-pearson").high == pytest.approx(0.11570331, abs=1e-8)
    assert proportion_ci(0, 30, method="wilson").high == pytest.approx(0.11351339, abs=1e-8)
    assert proportion_ci(0, 30, method="agresti-coull").high == pytest.approx(0.13471170, abs=1e-8)
    assert proportion_ci(30, 30, method="clopper-pearson").low == pytest.approx(0.8842967, abs=1e-7)
    assert proportion_ci(30, 30, method="wilson").low == pytest.approx(0.8864866, abs=1e-7)
    for method in METHODS:
        assert proportion_ci(0, 30, method=method).low == 0.0
        assert proportion_ci(30, 30, method=method).high == 1.0


def test_proportion_scipy_documented_example():
    # scipy.stats.binomtest docs: binomtest(k=7, n=50, p=0.1).proportion_ci()
    ci = proportion_ci(7, 50, method="clopper-pearson")
    assert (ci.low, ci.high) == pytest.approx((0.05819170033997342, 0.26739600249700846), abs=1e-11)  # docs of an older scipy


@pytest.mark.parametrize("x,n", [(0, 5), (3, 17), (40, 41), (250, 1000)])
def test_wilson_and_exact_agree_with_scipy_binomtest(x, n):
    from scipy.stats import binomtest

    for ours, theirs in (("wilson", "wilson"), ("clopper-pearson", "exact")):
        ref = binomtest(x, n).proportion_ci(confidence_level=0.9, method=theirs)
        ci = proportion_ci(x, n, level=0.9, method=ours)
        assert (ci.low, ci.high) == pytest.approx((ref.low, ref.high), abs=1e-12)


def test_jeffreys_by_hand():
    # Jeffreys: equal-tailed quantiles of Beta(x + 1/2, n - x + 1/2) (Brown, Cai & DasGupta 2001,
    # eq. 4.1), with the boundary modification low = 0 at x = 0 and high = 1 at x = n.
    from scipy.stats import beta

    ci = proportion_ci(4, 20, method="jeffreys")
    assert ci.low == pytest.approx(beta.ppf(0.025, 4.5, 16.5), abs=1e-14)
    assert ci.high == pytest.approx(beta.ppf(0.975, 4.5, 16.5), abs=1e-14)
    # R binom.confint(..., methods = "bayes") uses the same prior Beta(1/2, 1/2) and central
    # limits; values recorded in statsmodels results_proportion.py (res_binom, 3rd entry):
    for (x, n), (low, high) in {
        (4, 20): (0.07152005247873425, 0.4082257625169254),
        (18, 20): (0.716146742695748, 0.97862751197755),
        (4, 200): (0.00678759879519299, 0.0468465669668423),
    }.items():
        r = proportion_ci(x, n, method="jeffreys")
        assert (r.low, r.high) == pytest.approx((low, high), abs=1e-9)
    ci0 = proportion_ci(0, 20, method="jeffreys")
    assert ci0.low == 0.0 and ci0.high == pytest.approx(beta.ppf(0.975, 0.5, 20.5), abs=1e-14)


def test_wilson_by_hand():
    # Wilson (1927): (x + z^2/2) / (n + z^2) +/- z / (n + z^2) sqrt(x (n - x) / n + z^2 / 4)
    z = 1.959963984540054
    x, n = 81, 100
    c = (x + z * z / 2) / (n + z * z)
    h = z / (n + z * z) * np.sqrt(x * (n - x) / n + z * z / 4)
    ci = proportion_ci(x, n)
    assert (ci.low, ci.high) == pytest.approx((c - h, c + h), abs=1e-15)


def test_statsmodels_oracle_if_installed():
    sm = pytest.importorskip("statsmodels.stats.proportion")
    names = {"wilson": "wilson", "clopper-pearson": "beta", "agresti-coull": "agresti_coull", "wald": "normal"}
    x = np.array([1, 5, 17, 33])
    for ours, theirs in names.items():
        lo, hi = sm.proportion_confint(x, 40, alpha=0.1, method=theirs)
        ci = proportion_ci(x, 40, level=0.9, method=ours)
        np.testing.assert_allclose(ci.low, np.clip(lo, 0, 1), atol=1e-10)
        np.testing.assert_allclose(ci.high, np.clip(hi, 0, 1), atol=1e-10)


# ---------------------------------------------------------------------------------------------
# proportion_ci: shapes, 0/0, bad input
# ---------------------------------------------------------------------------------------------
def test_proportion_vectorised_and_broadcast():
    ci = proportion_ci(np.array([[0, 1], [2, 3]]), np.array([3, 4]))
    assert ci.low.shape == ci.high.shape == ci.estimate.shape == (2, 2)
    one = proportion_ci(2, 3)
    assert ci.low[1, 0] == one.low and ci.high[1, 0] == one.high
    assert isinstance(one.low, float) and isinstance(one.estimate, float)


def test_proportion_zero_total_is_nan_only_there():
    ci = proportion_ci(np.array([0, 2]), np.array([0, 4]), method="clopper-pearson")
    assert np.isnan(ci.low[0]) and np.isnan(ci.high[0]) and np.isnan(ci.estimate[0])
    assert np.isfinite(ci.low[1]) and np.isfinite(ci.high[1])
    for method in METHODS:
        single = proportion_ci(0, 0, method=method)
        assert np.isnan(single.low) and np.isnan(single.high)


@pytest.mark.parametrize(
    "args,kwargs,match",
    [
        ((-1, 5), {}, "non-negative"),
        ((6, 5), {}, "exceed"),
        ((1, np.inf), {}, "finite"),
        ((np.nan, 5), {}, "finite"),
        ((1, 5), {"level": 1.0}, "level"),
        ((1, 5), {"level": 0}, "level"),
        ((1, 5), {"level": 95}, "level"),
        ((1, 5), {"method": "exact"}, "method"),
        (([1, 2, 3], [4, 5]), {}, "broadcast"),
    ],
)
def test_proportion_bad_input(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        proportion_ci(*args, **kwargs)


counts = st.integers(0, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))).filter(lambda t: t[1] > 0)


@given(counts, st.sampled_from(METHODS))
def test_interval_contains_estimate(xn, method):
    ci = proportion_ci(*xn, method=method)
    assert 0.0 <= ci.low <= ci.estimate <= ci.high <= 1.0


@given(counts, st.sampled_from(METHODS))
def test_wider_at_higher_level(xn, method):
    narrow = proportion_ci(*xn, level=0.9, method=method)
    wide = proportion_ci(*xn, level=0.99, method=method)
    assert wide.low <= narrow.low + 1e-15 and wide.high >= narrow.high - 1e-15


@given(counts, st.sampled_from(METHODS), st.sampled_from([0.8, 0.95]))
def test_successes_failures_mirror(xn, method, level):
    x, n = xn
    a = proportion_ci(x, n, level=level, method=method)
    b = proportion_ci(n - x, n, level=level, method=method)
    assert a.low == pytest.approx(1 - b.high, abs=1e-12)
    assert a.high == pytest.approx(1 - b.low, abs=1e-12)


@given(st.lists(counts, min_size=1, max_size=6), st.sampled_from(METHODS))
def test_batch_equals_one_by_one(pairs, method):
    x = np.array([p[0] for p in pairs])
    n = np.array([p[1] for p in pairs])
    ci = proportion_ci(x, n, method=method)
    for i, (xi, ni) in enumerate(pairs):
        one = proportion_ci(xi, ni, method=method)
        assert ci.low[i] == pytest.approx(one.low, abs=1e-15) and ci.high[i] == pytest.approx(one.high, abs=1e-15)


# ---------------------------------------------------------------------------------------------
# delta method
# ---------------------------------------------------------------------------------------------
SAS_TABLE = np.array([[0, 4, 1], [0, 8, 0], [0, 1, 5]])


def test_kappa_matches_sas_fleiss_cohen_everitt():
    # SAS PROC FREQ (AGREE) printout, reproduced in statsmodels test_inter_rater.py:
    # Kappa 0.4842, ASE 0.1380, 95% Lower 0.2137, Upper 0.7547.
    assert float(m.cohen_kappa(SAS_TABLE)) == pytest.approx(0.4842, abs=5e-5)
    assert delta_method_se(m.cohen_kappa, SAS_TABLE) == pytest.approx(0.1380, abs=5e-5)
    ci = confusion_intervals(SAS_TABLE)["overall"]["kappa"]
    assert ci.standard_error == pytest.approx(0.1380, abs=5e-5)  # the reported SE is SAS's ASE
    k = SAS_TABLE.shape[0]
    assert ci.method == f"{DELTA}, Fisher z scale, cells + 1/{k}"
    # SAS's Wald interval is 0.2137 to 0.7547; ours is formed on Fisher's z scale with the variance
    # of the table smoothed by 1/k per cell (benchmarks/coverage.py), rebuilt here by hand:
    smoothed = SAS_TABLE + 1.0 / k
    se = delta_method_se(m.cohen_kappa, smoothed)
    center = float(m.cohen_kappa(smoothed))
    z = 1.959963984540054
    kappa = float(m.cohen_kappa(SAS_TABLE))
    half = z * (se / 2) / (((center + 1) / 2) * (1 - (center + 1) / 2))
    eta = np.log((kappa + 1) / (1 - kappa))  # logit of (kappa + 1) / 2
    expected = [2 / (1 + np.exp(-(eta + s * half))) - 1 for s in (-1, 1)]
    assert (ci.low, ci.high) == pytest.approx(expected, abs=1e-12)


def test_kappa_se_closed_form():
    # Fleiss, Cohen & Everitt (1969), eq. (13), written out independently of the finite differences.
    t = np.array([[22, 3, 2], [4, 30, 6], [1, 5, 27]], dtype=float)
    n = t.sum()
    p = t / n
    r, c = p.sum(1), p.sum(0)
    po, pe = np.trace(p), (r * c).sum()
    a = sum(p[i, i] * ((1 - pe) - (r[i] + c[i]) * (1 - po)) ** 2 for i in range(3))
    b = (1 - po) ** 2 * sum(p[i, j] * (c[i] + r[j]) ** 2 for i in range(3) for j in range(3) if i != j)
    cc = (po * pe - 2 * pe + po) ** 2
    se = np.sqrt((a + b - cc) / (n * (1 - pe) ** 4))
    assert delta_method_se(m.cohen_kappa, t) == pytest.approx(se, rel=1e-7)


def test_delta_accuracy_is_wald_se():
    t = np.array([[30, 10], [10, 50]])
    assert delta_method_se(m.accuracy, t) == pytest.approx(np.sqrt(0.8 * 0.2 / 100), rel=1e-8)


def test_delta_f1_matches_analytic_gradient():
    tp, fp, fn, tn = 40.0, 7.0, 12.0, 61.0
    t = np.array([[tn, fp], [fn, tp]])
    n = t.sum()
    d = 2 * tp + fp + fn
    g = {"tp": 2 * (fp + fn) / d**2, "fp": -2 * tp / d**2, "fn": -2 * tp / d**2, "tn": 0.0}
    c = {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
    var = sum(g[k] ** 2 * c[k] for k in g) - sum(g[k] * c[k] for k in g) ** 2 / n

    def f1(tables):
        tp_, fp_, fn_, _ = m.one_vs_rest(tables)
        return m.fbeta(tp_, fp_, fn_)[..., 1]

    assert delta_method_se(f1, t) == pytest.approx(np.sqrt(var), rel=1e-7)


def test_delta_batched_and_dict():
    rng = np.random.default_rng(4)
    tables = rng.integers(1, 30, size=(2, 3, 4, 4))
    both = lambda t: {"acc": m.accuracy(t), "kappa": m.cohen_kappa(t)}  # noqa: E731
    se = delta_method_se(both, tables)
    assert se["acc"].shape == (2, 3)
    assert se["kappa"][1, 2] == pytest.approx(delta_method_se(both, tables[1, 2])["kappa"], rel=1e-12)
    # a lambda is differentiated numerically; measures.cohen_kappa itself exactly (about 10 digits agree)
    assert se["kappa"][1, 2] == pytest.approx(delta_method_se(m.cohen_kappa, tables[1, 2]), rel=1e-8)


# ---------------------------------------------------------------------------------------------
# confusion_intervals
# ---------------------------------------------------------------------------------------------
CM3 = np.array([[50, 3, 7], [4, 38, 8], [6, 5, 29]])


def test_layout_and_methods():
    d = confusion_intervals(CM3, labels=["a", "b", "c"])
    assert set(d) == {"level", "method", "labels", "per_class", "averages", "overall", "notes"}
    assert d["labels"] == ["a", "b", "c"] and d["method"] == "analytic" and d["level"] == 0.95
    assert list(d["per_class"]) == ["precision", "recall", "f1", "fallout", "specificity", "npv"]
    assert list(d["averages"]) == ["micro", "macro", "weighted"]
    assert list(d["overall"]) == ["accuracy", "error_rate", "balanced_accuracy", "mcc", "kappa"]
    for name, ci in d["per_class"].items():
        assert isinstance(ci, ConfidenceInterval) and ci.low.shape == ci.high.shape == (3,)
        assert np.all(ci.low <= ci.estimate) and np.all(ci.estimate <= ci.high)
        assert ci.method == ("Wilson score interval of TP / (TP + FP + FN), mapped to F1 = 2J / (1 + J)"
                             if name == "f1" else "Wilson score")
    for avg in d["averages"].values():
        for ci in avg.values():
            assert isinstance(ci.low, float) and ci.low <= ci.estimate <= ci.high
    assert d["overall"]["accuracy"].method == "Wilson score"
    for name in ("mcc", "kappa"):
        assert d["overall"][name].method == f"{DELTA}, Fisher z scale, cells + 1/3"
    mover = "MOVER from each class's interval (Wilson score)"
    assert d["overall"]["balanced_accuracy"].method == d["averages"]["macro"]["recall"].method == mover
    assert d["averages"]["weighted"]["recall"].method == "Wilson score (weighted recall = accuracy)"
    for avg in ("macro", "weighted"):
        for name in ("precision", "specificity", "npv", "fallout"):
            union = f"{DELTA}, logit scale, cells + 1/3 or {mover}, whichever reaches further"
            assert d["averages"][avg][name].method == union
        f_mover = f"MOVER from each class's interval ({d['per_class']['f1'].method})"
        assert d["averages"][avg]["f1"].method == f"{DELTA}, logit scale, cells + 1/3 or {f_mover}, whichever reaches further"
    assert d["notes"] == []


def test_estimates_are_the_reports():
    from clfeval.results.confusion import ConfusionMatrix
    from clfeval.results.report import build_report

    rep = build_report(ConfusionMatrix.from_matrix(["a", "b", "c"], CM3))
    d = confusion_intervals(CM3)
    for i, row in enumerate(rep.rows):
        for name, ci in d["per_class"].items():
            assert ci.estimate[i] == pytest.approx(row[name], abs=1e-15)
    for avg, metrics in d["averages"].items():
        for name, ci in metrics.items():
            assert ci.estimate == pytest.approx(rep.averages[avg][name], abs=1e-15)
    for name, ci in d["overall"].items():
        assert ci.estimate == pytest.approx(rep.overall[name], abs=1e-15)


def test_micro_intervals_follow_accuracy():
    d = confusion_intervals(CM3)
    acc = d["overall"]["accuracy"]
    err = d["overall"]["error_rate"]
    for name in ("precision", "recall", "f1"):
        assert (d["averages"]["micro"][name].low, d["averages"]["micro"][name].high) == (acc.low, acc.high)
    fo = d["averages"]["micro"]["fallout"]
    assert fo.low == pytest.approx(err.low / 2) and fo.high == pytest.approx(err.high / 2)
    assert fo.low <= fo.estimate <= fo.high
    sp = d["averages"]["micro"]["specificity"]
    assert sp.low == pytest.approx(1 - fo.high) and sp.low <= sp.estimate <= sp.high


def test_proportion_entries_match_proportion_ci():
    d = confusion_intervals(CM3, proportion_method="clopper-pearson", level=0.9)
    ref = proportion_ci(np.diag(CM3), CM3.sum(axis=1), level=0.9, method="clopper-pearson")
    np.testing.assert_allclose(d["per_class"]["recall"].low, ref.low)
    np.testing.assert_allclose(d["per_class"]["recall"].high, ref.high)


def test_counts_objects_labels_and_beta():
    cc = ConfusionCounts.from_labels(["x", "y", "y", "x", "y"], ["x", "y", "x", "x", "y"])
    d = confusion_intervals(cc, beta=2)
    assert d["labels"] == ["x", "y"]
    assert "f2" in d["per_class"] and "f1" not in d["per_class"] and "f2" in d["averages"]["macro"]


def test_undefined_class_is_nan_with_note():
    t = np.array([[5, 0, 1], [2, 0, 3], [0, 0, 4]])  # class 1 never predicted
    for method in ("analytic", "bootstrap"):
        d = confusion_intervals(t, method=method, n_resamples=200)
        prec = d["per_class"]["precision"]
        assert np.isnan(prec.low[1]) and np.isnan(prec.high[1]) and np.isnan(prec.estimate[1])
        assert np.isfinite(prec.low[[0, 2]]).all()
        assert any("precision" in note and "never predicted" in note for note in d["notes"])
        assert np.isfinite(d["averages"]["macro"]["precision"].low)


def test_mcc_undefined_gets_nan_interval():
    t = np.array([[5, 0], [3, 0]])  # everything predicted as class 0
    d = confusion_intervals(t)
    assert d["overall"]["mcc"].estimate == 0.0
    assert np.isnan(d["overall"]["mcc"].low) and np.isnan(d["overall"]["mcc"].high)
    assert any(note.startswith("mcc") for note in d["notes"])


def test_analytic_batch():
    rng = np.random.default_rng(1)
    tables = rng.integers(1, 40, size=(4, 3, 3))
    d = confusion_intervals(tables)
    assert d["per_class"]["recall"].low.shape == (4, 3)
    assert d["overall"]["kappa"].low.shape == (4,)
    one = confusion_intervals(tables[2])
    assert d["overall"]["mcc"].high[2] == pytest.approx(one["overall"]["mcc"].high, rel=1e-12)
    assert d["averages"]["weighted"]["f1"].low[2] == pytest.approx(one["averages"]["weighted"]["f1"].low, rel=1e-12)


def test_bootstrap_reproducible_and_sane():
    a = confusion_intervals(CM3, method="bootstrap", n_resamples=400, seed=7)
    b = confusion_intervals(CM3, method="bootstrap", n_resamples=400, seed=7)
    c = confusion_intervals(CM3, method="bootstrap", n_resamples=400, seed=8)
    np.testing.assert_array_equal(a["per_class"]["f1"].low, b["per_class"]["f1"].low)
    assert a["overall"]["kappa"].low == b["overall"]["kappa"].low
    assert a["overall"]["kappa"].low != c["overall"]["kappa"].low
    analytic = confusion_intervals(CM3)
    for name in ("f1", "recall"):
        width_b = a["per_class"][name].high - a["per_class"][name].low
        width_a = analytic["per_class"][name].high - analytic["per_class"][name].low
        np.testing.assert_allclose(width_b, width_a, rtol=0.35)


def test_bca_runs_and_brackets():
    d = confusion_intervals(CM3, method="bca", n_resamples=500, seed=0)
    assert d["overall"]["mcc"].method.startswith("bootstrap BCa")
    for section in ("overall",):
        for ci in d[section].values():
            assert ci.low <= ci.estimate <= ci.high


@pytest.mark.parametrize(
    "bad,match",
    [
        (np.zeros((3, 3)), "no samples"),
        (np.zeros((0, 0)), "empty"),
        (np.array([[1, -1], [0, 2]]), "non-negative"),
        (np.array([1, 2, 3]), "shape"),
        (np.ones((2, 3)), "shape"),
        (np.array([[1.0, np.nan], [0, 2]]), "finite"),
    ],
)
def test_confusion_bad_input(bad, match):
    with pytest.raises(ValueError, match=match):
        confusion_intervals(bad)


def test_confusion_bad_options():
    with pytest.raises(ValueError, match="level"):
        confusion_intervals(CM3, level=1.5)
    with pytest.raises(ValueError, match="method"):
        confusion_intervals(CM3, method="jackknife")
    with pytest.raises(ValueError, match="labels"):
        confusion_intervals(CM3, labels=["a"])
    with pytest.raises(ValueError, match="non-integer"):
        confusion_intervals(CM3 + 0.5, method="bootstrap")
    with pytest.raises(ValueError, match="shape"):
        confusion_intervals(np.ones((2, 3, 3)), method="bootstrap")
    with pytest.raises(ValueError, match="n_resamples"):
        confusion_intervals(CM3, method="bootstrap", n_resamples=1)
    # weighted tables are fine analytically
    d = confusion_intervals(CM3 * 0.5)
    assert np.isfinite(d["overall"]["kappa"].low)


# ---------------------------------------------------------------------------------------------
# the cell bootstrap
# ---------------------------------------------------------------------------------------------
def test_bootstrap_confusion_shapes_and_strata():
    reps = bootstrap_confusion(CM3, 300, seed=2, sampling="stratified")
    assert reps.shape == (300, 3, 3) and reps.dtype == np.int64
    assert (reps.sum(axis=2) == CM3.sum(axis=1)).all()
    free = bootstrap_confusion(CM3, 300, seed=2)  # the default: cross-sectional
    assert (free.sum(axis=(1, 2)) == CM3.sum()).all() and not (free.sum(axis=2) == CM3.sum(axis=1)).all()
    np.testing.assert_array_equal(reps, bootstrap_confusion(CM3, 300, seed=2, sampling="stratified"))
    with pytest.warns(FutureWarning, match="sampling='stratified'"):
        np.testing.assert_array_equal(reps, bootstrap_confusion(CM3, 300, seed=2, stratify=True))
    for sampling in ("stratified", "cross-sectional"):
        big = bootstrap_confusion(CM3, 20000, seed=0, sampling=sampling)
        np.testing.assert_allclose(big.mean(axis=0), CM3, atol=0.25)


def test_bootstrap_ci_percentile_is_quantile_of_replicates():
    reps = bootstrap_confusion(CM3, 1000, seed=11)
    vals = m.matthews_corrcoef(reps)
    ci = bootstrap_ci(m.matthews_corrcoef, CM3, n_resamples=1000, seed=11, level=0.9)
    assert (ci.low, ci.high) == pytest.approx(tuple(np.quantile(vals, [0.05, 0.95])), abs=1e-15)
    assert ci.estimate == pytest.approx(float(m.matthews_corrcoef(CM3)))


def test_bootstrap_ci_vector_statistic():
    def recalls(t):
        tp, fp, fn, tn = m.one_vs_rest(t)
        return m.recall(tp, fn)

    ci = bootstrap_ci(recalls, CM3, n_resamples=300, seed=0)
    assert ci.low.shape == (3,) and np.all(ci.low <= ci.high)


def test_cell_jackknife_equals_row_jackknife():
    # Leaving out one row of the data = leaving one count out of its cell; the acceleration
    # computed from the cells (weighted by counts) must equal the one from the n rows.
    t = np.array([[7, 2], [3, 5]])
    loo, w = _jackknife(m.cohen_kappa, t)
    a_cells = jackknife_acceleration(loo[:, None], w)[0]
    rows = [(i, j) for i in range(2) for j in range(2) for _ in range(t[i, j])]
    theta = []
    for r in range(len(rows)):
        tt = np.zeros((2, 2))
        for q, (i, j) in enumerate(rows):
            if q != r:
                tt[i, j] += 1
        theta.append(float(m.cohen_kappa(tt)))
    theta = np.array(theta)
    d = theta.mean() - theta
    a_rows = (d**3).sum() / (6 * ((d**2).sum()) ** 1.5)
    assert a_cells == pytest.approx(a_rows, rel=1e-12)


def test_bca_close_to_scipy_bootstrap():
    # Unstratified cell bootstrap = ordinary row bootstrap; BCa agrees with scipy's to Monte Carlo error.
    from scipy.stats import bootstrap

    t = np.array([[60, 15], [25, 100]])
    y_true = np.repeat([0, 0, 1, 1], t.ravel())
    y_pred = np.repeat([0, 1, 0, 1], t.ravel())

    def kappa_rows(a, b, axis=-1):
        return np.array([float(m.cohen_kappa(np.histogram2d(x, y, bins=2)[0])) for x, y in zip(np.atleast_2d(a), np.atleast_2d(b))]).squeeze()

    ref = bootstrap((y_true, y_pred), kappa_rows, paired=True, vectorized=True, n_resamples=3000,
                    method="BCa", random_state=0, batch=500).confidence_interval
    ci = bootstrap_ci(m.cohen_kappa, t, method="bca", n_resamples=3000, seed=0, sampling="cross-sectional")
    assert ci.low == pytest.approx(ref.low, abs=0.02) and ci.high == pytest.approx(ref.high, abs=0.02)


def test_bootstrap_ci_nan_replicates_warn():
    t = np.array([[20, 1], [1, 1]])  # class 1 rarely predicted: some replicates never predict it

    def prec1(tables):
        tp, fp, fn, tn = m.one_vs_rest(tables)
        return m.precision(tp, fp)[:, 1]

    with pytest.warns(UndefinedMetricWarning, match="undefined"):
        ci = bootstrap_ci(prec1, t, n_resamples=400, seed=0)
    assert np.isfinite(ci.low) and np.isfinite(ci.high)


def test_bootstrap_ci_bad_input():
    with pytest.raises(ValueError, match="method"):
        bootstrap_ci(m.accuracy, CM3, method="basic")
    with pytest.raises(ValueError, match="level"):
        bootstrap_ci(m.accuracy, CM3, level=-0.1)


# ---------------------------------------------------------------------------------------------
# rankings: AUC, AP, bands
# ---------------------------------------------------------------------------------------------
def _ranking(n=120, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    s = rng.normal(size=n) + 1.2 * y
    if ties:
        s = np.round(s, 1)
    order = np.argsort(-s, kind="stable")
    s, y = s[order], y[order]
    scores, start = np.unique(-s, return_index=True)
    pos = np.add.reduceat(y.astype(np.int64), start)
    neg = np.add.reduceat((~y).astype(np.int64), start)
    return BinaryRanking(-scores, neg, pos), y, s


def test_ranking_intervals_estimates_and_reproducibility():
    from sklearn.metrics import average_precision_score, roc_auc_score

    r, y, s = _ranking(ties=True)
    d = ranking_intervals(r, n_resamples=500, seed=5)
    assert d["roc_auc"].estimate == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert d["average_precision"].estimate == pytest.approx(average_precision_score(y, s), abs=1e-12)
    for ci in d.values():
        assert ci.low <= ci.estimate <= ci.high and "score cells" in ci.method
    again = ranking_intervals(r, n_resamples=500, seed=5)
    assert again["roc_auc"].low == d["roc_auc"].low
    bca = ranking_intervals(r, n_resamples=500, seed=5, interval="bca")
    assert bca["roc_auc"].method.startswith("bootstrap BCa")
    assert bca["roc_auc"].low == pytest.approx(d["roc_auc"].low, abs=0.05)
    with pytest.raises(ValueError, match="delong"):
        ranking_intervals(r, method="delong")


def test_auc_leave_one_out_closed_form():
    r, _, _ = _ranking(n=60, ties=True)
    cells = np.stack([r.negatives(), r.pos]).astype(np.int64)
    fast, w = auc_leave_one_out(cells)
    slow, w2 = _jackknife(lambda t: roc_auc(t[:, 0], t[:, 1]), cells)
    # both list the negatives' cells, then the positives', in score order
    np.testing.assert_allclose(fast, slow, rtol=1e-12)
    np.testing.assert_array_equal(w, w2)


def test_bootstrap_ranking_strata():
    r, _, _ = _ranking(n=50)
    reps = bootstrap_ranking(r, 40, seed=1, sampling="stratified")
    assert reps.shape == (40, 2, r.scores.size)
    assert (reps.sum(axis=2) == np.array(r.totals, dtype=np.int64)).all()
    free = bootstrap_ranking(r, 40, seed=1)  # the default: cross-sectional
    assert (free.sum(axis=(1, 2)) == sum(r.totals)).all() and len(set(free[:, 1].sum(axis=1))) > 1


def test_roc_band_matches_curve_points():
    from sklearn.metrics import roc_curve

    r, y, s = _ranking(ties=True)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    grid = np.unique(fpr)
    band = roc_band(r, grid, n_resamples=300, seed=0)
    expected = [tpr[fpr == g].max() for g in grid]
    np.testing.assert_allclose(band.estimate, expected, atol=1e-12)
    mid = (grid[1:] + grid[:-1]) / 2  # between vertices: the straight segment
    band_mid = roc_band(r, mid, n_resamples=50, seed=0)
    np.testing.assert_allclose(band_mid.estimate, np.interp(mid, fpr, tpr), atol=1e-12)
    assert np.all(band.low <= band.high)
    assert band.to_dict()["kind"] == "roc"


def test_pr_band_is_ap_step_function():
    from sklearn.metrics import precision_recall_curve

    r, y, s = _ranking(ties=True)
    precision, recall, _ = precision_recall_curve(y, s)
    precision, recall = precision[::-1][1:], recall[::-1][1:]  # by decreasing threshold, no synthetic end
    grid = np.linspace(0.05, 1, 20)
    band = pr_band(r, grid, n_resamples=200, seed=1)
    expected = [precision[np.searchsorted(recall, g, side="left")] for g in grid]
    np.testing.assert_allclose(band.estimate, expected, atol=1e-12)
    assert np.all(band.low <= band.high)


def test_operating_point_intervals():
    from sklearn.metrics import roc_curve

    r, y, s = _ranking(n=200, seed=3)
    sens = sensitivity_at_specificity(r, 0.8, n_resamples=300, seed=0)
    band = roc_band(r, [0.2], n_resamples=300, seed=0)
    assert sens.estimate == pytest.approx(band.estimate[0]) and sens.low == pytest.approx(band.low[0])
    assert sens.low <= sens.estimate <= sens.high
    spec = specificity_at_sensitivity(r, np.array([0.5, 0.9]), n_resamples=300, seed=0)
    assert spec.low.shape == (2,) and spec.estimate[0] >= spec.estimate[1]
    # no ties: the curve is a staircase, and sensitivity 0.5 is first reached at the lowest
    # false positive rate of any point with tpr >= 0.5
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    assert spec.estimate[0] == pytest.approx(1 - fpr[tpr >= 0.5].min(), abs=1e-12)
    assert spec.estimate[1] == pytest.approx(1 - fpr[tpr >= 0.9].min(), abs=1e-12)


def test_ranking_bad_input():
    one_class = BinaryRanking(np.array([0.9, 0.1]), np.array([0, 0]), np.array([1, 2]))
    with pytest.raises(ValueError, match="no negatives"):
        ranking_intervals(one_class)
    r, _, _ = _ranking()
    with pytest.raises(ValueError, match="fpr"):
        roc_band(r, [0.5, 1.5])
    with pytest.raises(ValueError, match="specificity"):
        sensitivity_at_specificity(r, -0.1)
    with pytest.raises(ValueError, match="non-integer"):
        ranking_intervals(BinaryRanking(np.array([0.9, 0.1]), np.array([0.5, 1.0]), np.array([1.0, 0.25])))


def test_no_warnings_on_clean_input():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        confusion_intervals(CM3)
        confusion_intervals(CM3, method="bootstrap", n_resamples=200)
        r, _, _ = _ranking()
        ranking_intervals(r, n_resamples=200)
