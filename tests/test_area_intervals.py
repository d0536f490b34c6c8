"""DeLong's AUC variance from per-score counts, and the intervals Evaluation reports."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import clfeval
from clfeval.uncertainty.area_intervals import delong_interval, delong_variance
from clfeval.uncertainty import proportion_ci


def brute_force_delong(y: np.ndarray, s: np.ndarray) -> tuple[float, float]:
    """DeLong et al. (1988) straight from the definition: O(m n) placements."""
    pos, neg = s[y == 1], s[y == 0]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    auc = psi.mean()
    return auc, v10.var(ddof=1) / pos.size + v01.var(ddof=1) / neg.size


def quiet(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return clfeval.evaluate(*args, **kwargs)


@given(n=st.integers(4, 80), n_values=st.sampled_from([2, 5, 10**6]), seed=st.integers(0, 2**31))
def test_delong_from_counts_equals_the_definition(n, n_values, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:4] = [0, 0, 1, 1]
    s = rng.integers(0, n_values, n) / n_values
    ev = quiet(y, y_score=s)
    auc, var = delong_variance(ev.ranking("1"))
    want_auc, want_var = brute_force_delong(y, s)
    assert auc == pytest.approx(want_auc, abs=1e-12) and var == pytest.approx(want_var, abs=1e-12)


def test_delong_interval_of_asah_s100b_is_proc_s(shared_data):
    # pROC documentation, ci.auc(aSAH$outcome, aSAH$s100b):
    # "Area under the curve: 0.7314; 95% CI: 0.6301-0.8326 (DeLong)"
    import csv

    path = shared_data / "aSAH.csv"

    rows = list(csv.DictReader(path.open()))
    y = np.array([r["outcome"] == "Poor" for r in rows], dtype=int)
    s = np.array([float(r["s100b"]) for r in rows])
    ci = delong_interval(quiet(y, y_score=s).ranking("1"))
    assert (round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)) == (0.7314, 0.6301, 0.8326)


def test_one_class_gives_nan_variance():
    ev = quiet([0, 1, 1], y_score=[0.1, 0.5, 0.7])
    auc, var = delong_variance(ev.ranking("1"))
    assert auc == 1.0 and np.isnan(var)


def test_evaluation_ci_reads_the_report():
    y = np.array(["n", "p", "p", "n", "p", "n", "p", "p"])
    s = np.array([0.1, 0.9, 0.4, 0.3, 0.8, 0.6, 0.7, 0.2])
    ev = quiet(y, y_score=s, pos_label="p")
    tp, fn = ev.confusion.per_class()["tp"][1], ev.confusion.per_class()["fn"][1]
    want = proportion_ci(tp, tp + fn)
    got = ev.ci("recall")
    assert (got.low, got.high) == pytest.approx((want.low, want.high), abs=1e-15)
    assert got.estimate == pytest.approx(ev.report.rows[1]["recall"])
    assert ev.ci("recall", label="n").estimate == pytest.approx(ev.report.rows[0]["recall"])
    assert ev.ci("accuracy").method == "Wilson score"
    assert ev.ci("roc_auc").method.startswith("DeLong, logit scale")
    assert ev.ci("roc_auc", method="delong").method == "DeLong"  # pROC's, kept by name
    assert ev.ci("roc_auc").estimate == pytest.approx(ev.report.overall["roc_auc"])
    assert ev.ci("f1", average="macro").estimate == pytest.approx(ev.report.averages["macro"]["f1"])
    boot = ev.ci("mcc", method="bootstrap", n_resamples=500, seed=1)
    assert boot.method.startswith("bootstrap") and boot == ev.ci("mcc", method="bootstrap", n_resamples=500, seed=1)
    with pytest.raises(ValueError, match="no interval for 'auc'"):
        ev.ci("auc")
    with pytest.raises(ValueError, match="label 'x' is not one of"):
        ev.ci("recall", label="x")


def test_multiclass_ci_needs_a_label_or_average_and_weighted_bootstrap_is_refused():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 60)
    ev = quiet(y, rng.integers(0, 3, 60))
    with pytest.raises(ValueError, match="pass label="):
        ev.ci("precision")
    assert ev.ci("precision", label=2).estimate == pytest.approx(ev.report.rows[2]["precision"])
    weighted = quiet(y, y, sample_weight=np.full(60, 2.0))
    with pytest.raises(ValueError, match="sample weights; use method='analytic'"):
        weighted.intervals(method="bootstrap")


def test_logit_ap_interval_is_boyds_formula():
    # Boyd, Eng & Page (2013): expit(logit(AP) +/- z / sqrt(P AP (1 - AP))), hand-computed here
    from scipy.special import expit, logit

    from clfeval.uncertainty.area_intervals import logit_ap_interval

    y = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 0])
    s = np.linspace(1, 0, 10)
    ev = quiet(y, y_score=s)
    r = ev.ranking("1")
    ap = r.average_precision
    half = 1.959963984540054 / np.sqrt(5 * ap * (1 - ap))
    ci = logit_ap_interval(r)
    assert (ci.low, ci.high) == pytest.approx((expit(logit(ap) - half), expit(logit(ap) + half)), abs=1e-12)
    assert ev.ci("average_precision").method.startswith("case influence, logit scale")  # closed form
    boot = ev.ci("average_precision", method="bootstrap", n_resamples=300, seed=2)
    assert boot.method.startswith("studentized bootstrap")
    assert boot.estimate == ap and boot.low <= ap <= boot.high


def test_band_of_the_main_curve_and_bad_requests():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 400)
    s = rng.random((400, 3)) + np.eye(3)[y] * 0.5
    ev = quiet(y, y_score=s)
    grid = np.linspace(0, 1, 11)
    band = ev.band("roc", grid=grid, n_resamples=300, seed=1)
    micro = ev.roc["micro"]
    assert band.estimate == pytest.approx(np.interp(grid, micro.x, micro.y), abs=0.02)  # the micro curve
    assert np.all(band.low <= band.estimate + 1e-12) and np.all(band.estimate <= band.high + 1e-12)
    pr = ev.band("pr", curve="1", grid=grid, n_resamples=200)
    assert pr.kind == "pr" and pr.x.tolist() == grid.tolist()
    with pytest.raises(ValueError, match="macro curve"):
        ev.band("roc", curve="macro")
    with pytest.raises(ValueError, match="no scores"):
        quiet([0, 1], [0, 1]).band()


def test_binary_headline_areas_get_the_positive_class_interval():
    y = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 0])
    s = np.array([0.1, 0.9, 0.4, 0.3, 0.8, 0.6, 0.7, 0.2, 0.35, 0.5])
    ev = quiet(y, y_score=s)
    data = ev.intervals()
    for area in ("roc_auc", "average_precision"):
        overall, per_class = data["overall"][area], data["per_class"][area]
        assert overall.estimate == ev.report.overall[area]
        assert (overall.low, overall.high) == (per_class.low[1], per_class.high[1])


def test_multilabel_intervals_per_label_and_averages():
    import sklearn.metrics as skm

    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, (150, 3))
    p = np.where(rng.random((150, 3)) < 0.8, y, 1 - y)
    ev = quiet(y, p)
    mcm = skm.multilabel_confusion_matrix(y, p)  # (L, 2, 2) [[TN, FP], [FN, TP]]
    data = ev.intervals()
    for j in range(3):
        tp, fn = mcm[j, 1, 1], mcm[j, 1, 0]
        want = proportion_ci(tp, tp + fn)
        assert (data["per_class"]["recall"].low[j], data["per_class"]["recall"].high[j]) == pytest.approx(
            (want.low, want.high), abs=1e-15)
        assert ev.ci("recall", label=j).estimate == pytest.approx(ev.report.rows[j]["recall"])
    got = ev.ci("precision", average="micro")
    assert got.estimate == pytest.approx(ev.report.averages["micro"]["precision"])
    assert got.method == "delta method (case influence)"
    for avg in ("macro", "weighted", "samples"):
        assert ev.ci("f1", average=avg).estimate == pytest.approx(ev.report.averages[avg]["f1"])
    assert data["notes"] and "a case sits in every label's table" in data["notes"][-1]


# -- edges of the area intervals (cases that mutation testing found unpinned) ------------------


def _ranking(y, s):
    from clfeval.statistics.rankings import BinaryRanking

    y, s = np.asarray(y, dtype=bool), np.asarray(s, dtype=float)
    order = np.argsort(-s, kind="stable")
    return BinaryRanking(s[order], None, y[order])


def test_logit_ap_interval_at_a_perfect_ranking_is_the_point_and_named():
    from clfeval.uncertainty.area_intervals import logit_ap_interval

    ci = logit_ap_interval(_ranking([1, 1, 0, 0], [0.9, 0.8, 0.2, 0.1]))
    assert (ci.low, ci.high, ci.estimate, ci.standard_error) == (1.0, 1.0, 1.0, 0.0)
    assert ci.method == "logit (Boyd et al. 2013)" and ci.level == 0.95


def test_ranking_area_intervals_default_to_95_percent_and_pass_n_resamples_to_bca():
    from clfeval.uncertainty.area_intervals import bootstrap_area_intervals, ranking_area_intervals
    from clfeval.uncertainty.ranking_intervals import ranking_intervals

    rng = np.random.default_rng(3)
    y = np.r_[np.ones(12, bool), np.zeros(15, bool)]
    r = _ranking(y, rng.normal(size=y.size) + y)
    assert {ci.level for ci in ranking_area_intervals(r).values()} == {0.95}
    got = bootstrap_area_intervals(r, method="bca", n_resamples=60, seed=4)["roc_auc"]
    want = ranking_intervals(r, interval="bca", n_resamples=60, seed=4)["roc_auc"]
    assert (got.low, got.high) == (want.low, want.high)


def test_bootstrap_auc_intervals_with_too_few_cases_of_a_class():
    """Below 2 cases of a class the bootstrap AUC interval is NaN (not an error); with exactly 2
    positives BCa runs (0 < AUC < 1)."""
    from clfeval.uncertainty.area_intervals import bootstrap_area_intervals

    one = bootstrap_area_intervals(_ranking([1, 0, 0, 0], [0.3, 0.9, 0.2, 0.1]), n_resamples=40)["roc_auc"]
    assert np.isnan(one.low) and np.isnan(one.high) and one.estimate == pytest.approx(2 / 3)
    from clfeval.uncertainty.ranking_intervals import ranking_intervals

    r = _ranking([1, 1, 0, 0, 0], [0.3, 0.8, 0.9, 0.2, 0.1])
    two = bootstrap_area_intervals(r, method="bca", n_resamples=40)["roc_auc"]
    bca = ranking_intervals(r, interval="bca", n_resamples=40, seed=0)["roc_auc"]
    assert (two.low, two.high, two.method) == (bca.low, bca.high, bca.method)
