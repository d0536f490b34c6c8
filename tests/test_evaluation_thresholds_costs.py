"""Evaluation's cost and calibration methods and the threshold entries of its JSON.

The module functions (clfeval.costs, clfeval.calibration, clfeval.results.operating_points) are the
oracles here, themselves checked against scikit-learn and brute force in their own tests.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.calibration import calibration_report
from clfeval.costs import cost_curve, cost_sensitive_error_rate, decision_curve, expected_cost
from clfeval.evaluation import json_safe

RNG = np.random.default_rng(7)
Y = RNG.integers(0, 2, 400)
P = np.clip(np.round(0.35 * Y + 0.65 * RNG.random(400), 2), 0, 1)
W = RNG.random(400) + 0.1


@pytest.mark.parametrize("pos_label", [0, 1])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_binary_calibration_from_the_ranking_equals_calibration_report(pos_label, weighted, strategy):
    w = W if weighted else None
    ev = clfeval.evaluate(Y, y_score=P, pos_label=pos_label, sample_weight=w)
    got = ev.calibration(10, strategy=strategy).to_dict()
    want = calibration_report(Y, P, pos_label=pos_label, n_bins=10, strategy=strategy, sample_weight=w).to_dict()
    for key in ("ece", "ece_l2", "ece_max", "brier", "log_loss"):
        assert got[key] == pytest.approx(want[key], rel=1e-12, abs=1e-15), key
    for key in ("reliability", "resolution", "uncertainty", "within_variance", "within_covariance"):
        assert got["decomposition"][key] == pytest.approx(want["decomposition"][key], rel=1e-10, abs=1e-15), key
    np.testing.assert_allclose(got["reliability"]["observed"], want["reliability"]["observed"], rtol=1e-12)
    d = got["decomposition"]
    assert d["brier"] == pytest.approx(d["reliability"] - d["resolution"] + d["uncertainty"]
                                       + d["within_variance"] - d["within_covariance"], abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), n_bins=st.sampled_from([1, 3, 10, 15]), strategy=st.sampled_from(["uniform", "quantile"]))
def test_binary_calibration_of_distinct_probabilities_equals_calibration_report(data, n_bins, strategy):
    # one sample per distinct probability (the ranking keeps outcomes only): bin edges included
    grid = np.unique(np.r_[np.linspace(0, 1, 31), np.linspace(0, 1, 16), [1e-17, 0.5 + 1e-16]])
    p = np.array(data.draw(st.lists(st.sampled_from(grid.tolist()), min_size=2, max_size=40, unique=True)))
    y = np.array(data.draw(st.lists(st.integers(0, 1), min_size=p.size, max_size=p.size)))
    y[:2] = [0, 1]  # both classes
    ev = clfeval.evaluate(y, y_score=p)
    assert ev.ranking("1").neg is None  # the one-sample-per-score form
    got = ev.calibration(n_bins, strategy=strategy).to_dict()
    want = calibration_report(y, p, pos_label=1, n_bins=n_bins, strategy=strategy).to_dict()
    for key in ("ece", "ece_l2", "ece_max", "brier", "log_loss"):
        assert got[key] == pytest.approx(want[key], rel=1e-12, abs=1e-15), key
    np.testing.assert_array_equal(got["reliability"]["weight"], want["reliability"]["weight"])
    for key in ("mean_predicted", "observed"):  # None: an empty bin
        a, b = (np.array(d["reliability"][key], dtype=float) for d in (got, want))
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_multiclass_calibration_is_top_label_and_decision_values_are_refused():
    y = RNG.integers(0, 3, 300)
    proba = RNG.dirichlet(np.ones(3), 300)
    ev = clfeval.evaluate(y, y_score=proba)
    got = ev.calibration(10)
    want = calibration_report(y, proba, n_bins=10)
    assert got.mode == "top-label" and got.ece == pytest.approx(want.ece, rel=1e-12)
    assert got.ece_by_mode["class-wise"] == pytest.approx(want.ece_by_mode["class-wise"], rel=1e-12)
    with pytest.raises(ValueError, match="not probabilities"):
        clfeval.evaluate(Y, y_score=P * 4 - 2).calibration()
    with pytest.raises(ValueError, match="no scores"):
        clfeval.evaluate(Y, Y).calibration()


def test_expected_cost_and_rate_of_an_evaluation():
    y_true, y_pred = [0, 0, 0, 1, 1, 2, 2, 2], [0, 1, 2, 1, 0, 2, 2, 1]
    costs = [[0, 1, 4], [2, 0, 1], [8, 3, 0]]
    ev = clfeval.evaluate(y_true, y_pred)
    # hand: errors (0->1) 1, (0->2) 4, (1->0) 2, (2->1) 3 = 10 over 8 samples
    assert ev.expected_cost(costs) == 10 / 8
    assert ev.expected_cost(costs) == expected_cost(ev.confusion.counts, costs)
    assert ev.cost_sensitive_error_rate(costs, prevalence=[0.5, 0.25, 0.25]) == pytest.approx(
        cost_sensitive_error_rate(ev.confusion.counts, costs, prevalence=[0.5, 0.25, 0.25]))
    # 0/1 costs: the error rate
    assert ev.cost_sensitive_error_rate(1 - np.eye(3)) == pytest.approx(1 - ev.report.overall["accuracy"])
    with pytest.raises(ValueError, match=r"\(3, 3\)"):
        ev.expected_cost([[0, 1], [1, 0]])


def test_cost_and_decision_curves_of_one_class_against_the_rest():
    y = RNG.integers(0, 3, 200)
    proba = RNG.dirichlet(np.ones(3), 200)
    ev = clfeval.evaluate(y, y_score=proba)
    cc = ev.cost_curve(curve="2")
    want = cost_curve(y == 2, proba[:, 2])
    np.testing.assert_array_equal(cc.envelope_pc, want.envelope_pc)
    np.testing.assert_array_equal(cc.envelope_nec, want.envelope_nec)
    # its operating line: class 2's one-vs-rest rates at the arg-max predictions
    pred = proba.argmax(axis=1)
    fpr = np.mean(pred[y != 2] == 2)
    fnr = np.mean(pred[y == 2] != 2)
    assert (cc.operating_line.fpr, cc.operating_line.fnr) == pytest.approx((fpr, fnr))
    dc = ev.decision_curve([0.1, 0.3], curve="0")
    np.testing.assert_allclose(dc.net_benefit, decision_curve(y == 0, proba[:, 0], thresholds=[0.1, 0.3]).net_benefit)
    with pytest.raises(ValueError, match="curve= must name the class"):
        ev.cost_curve()
    with pytest.raises(ValueError, match="not probabilities"):
        clfeval.evaluate(Y, y_score=P * 4 - 2).decision_curve()


def test_json_carries_operating_points_costs_curves_and_calibration():
    ev = clfeval.evaluate(Y, y_score=P, beta=2.0)
    costs = [[0, 1], [10, 0]]
    d = ev.to_dict(costs=costs, prevalence=0.3)
    text = json.dumps(json_safe(d), allow_nan=False)
    assert json.loads(text)["costs"]["expected_cost"] == pytest.approx(ev.expected_cost(costs, prevalence=0.3))
    points = d["operating_points"]["1"]
    assert set(points) == {"break-even", "youden", "closest-topleft", "max-f1", "max-fbeta", "min-cost"}
    for name, p in points.items():
        options = {"beta": 2.0} if name == "max-fbeta" else {}
        if name == "min-cost":
            options = {"costs": costs, "prevalence": 0.3}
        want = ev.operating_point(name, **options)
        assert p["threshold"] == want.threshold and p["value"] == want.value, name
    assert d["cost_curve"]["area"] == ev.cost_curve().area
    assert d["decision_curve"]["net_benefit"] == ev.decision_curve().net_benefit.tolist()
    assert d["calibration"]["ece"] == ev.calibration(15).ece
    # decision values: operating points and a cost curve, no decision curve or calibration
    dv = clfeval.evaluate(Y, y_score=P * 4 - 2).to_dict()
    assert dv["operating_points"] and dv["cost_curve"] and dv["decision_curve"] is None and dv["calibration"] is None
    # multi-class: no single threshold (None), calibration top-label
    mc = clfeval.evaluate([0, 1, 2, 1], y_score=np.eye(3)[[0, 1, 2, 2]] * 0.7 + 0.1).to_dict()
    assert mc["operating_points"] is None and mc["calibration"]["mode"] == "top-label"


def test_undefined_operating_points_say_why_in_the_json():
    ev = clfeval.evaluate([0, 0, 0], y_score=[0.2, 0.4, 0.9], labels=[0, 1])
    points = ev.to_dict()["operating_points"]["1"]
    assert "no positive samples" in points["youden"]["error"]
    assert ev.to_dict()["cost_curve"] is None


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 20)), min_size=2, max_size=60),
       st.floats(0.0, 1.0))
def test_min_cost_point_costs_no_more_than_any_threshold(rows, share):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] / 20 for r in rows])
    ev = clfeval.evaluate(y, y_score=s, labels=[0, 1])
    costs = [[0, 1], [3, 0]]
    point = ev.operating_point("min-cost", costs=costs)
    best = min(ev.at(t).expected_cost(costs) for t in np.r_[np.inf, np.unique(s)])
    assert ev.at(point.threshold).expected_cost(costs) == pytest.approx(best, abs=1e-12)


def test_rounded_probability_rows_are_normalised_and_bad_rows_reported_not_raised():
    y = RNG.integers(0, 3, 200)
    proba = RNG.dirichlet(np.ones(3), 200)
    rounded = np.round(proba, 5)  # rows off 1 by rounding only
    got = clfeval.evaluate(y, y_score=rounded).calibration(10)
    want = calibration_report(y, rounded / rounded.sum(axis=1, keepdims=True), n_bins=10)
    assert got.ece == pytest.approx(want.ece, rel=1e-12)
    bad = proba * np.r_[np.ones(199), 0.5][:, None]  # the last row sums to 0.5
    d = clfeval.evaluate(y, y_score=bad).to_dict()
    assert "row 199" in d["calibration"]["error"]


def test_multiclass_calibration_does_not_depend_on_memory_layout():
    # rounded rows are renormalised; values on bin edges must land alike for C and F order
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 900)
    p = np.round(rng.dirichlet(np.ones(3), 900), 3)
    p /= p.sum(axis=1, keepdims=True)
    c = clfeval.evaluate(y, y_score=np.ascontiguousarray(p)).calibration().to_dict()
    f = clfeval.evaluate(y, y_score=np.asfortranarray(p)).calibration().to_dict()
    assert c == f
