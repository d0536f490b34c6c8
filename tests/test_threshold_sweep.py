"""Threshold sweep (Evaluation.threshold_sweep / threshold_sweep_of): every row against
scikit-learn's metrics of ``y_score >= threshold``, and against roc_curve."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    f1_score,
    fbeta_score,
    matthews_corrcoef,
    precision_score,
    recall_score,
    roc_curve,
)

import clfeval
from clfeval.evaluation import json_safe
from clfeval.statistics.rankings import BinaryRanking
from clfeval.results.threshold_sweep import SWEEP_COLUMNS, ThresholdSweep, threshold_sweep_of

pytestmark = pytest.mark.filterwarnings("ignore::clfeval.UndefinedMetricWarning")


def sklearn_row(y, s, w, t, pos, neg, beta=None):
    """Every sweep column at threshold ``t`` from scikit-learn (NaN where undefined)."""
    pred = np.where(np.asarray(s) >= t, pos, neg)
    nan = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kw = dict(sample_weight=w)
        is_pos_pred = (pred == pos).astype(float)
        weights = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
        recall = recall_score(y, pred, pos_label=pos, zero_division=nan, **kw)
        spec = recall_score(y, pred, pos_label=neg, zero_division=nan, **kw)
        row = {
            "predicted_positive_rate": float((is_pos_pred * weights).sum() / weights.sum()),
            "accuracy": accuracy_score(y, pred, **kw),
            "error_rate": 1 - accuracy_score(y, pred, **kw),
            "precision": precision_score(y, pred, pos_label=pos, zero_division=nan, **kw),
            "recall": recall,
            "specificity": spec,
            "fpr": 1 - spec,
            "npv": precision_score(y, pred, pos_label=neg, zero_division=nan, **kw),
            "f1": f1_score(y, pred, pos_label=pos, zero_division=nan, **kw),
            "balanced_accuracy": balanced_accuracy_score(y, pred, **kw),
            "mcc": matthews_corrcoef(y, pred, **kw),
            "kappa": cohen_kappa_score(y, pred, sample_weight=w),
            "youden_j": recall - (1 - spec),
        }
        if np.isnan(row["mcc"]) and np.unique(pred).size == 1:
            # one predicted class: MCC is 0 by scikit-learn's own convention, but with float weights
            # its covariance can round below 0 and the square root gives NaN (e.g. 13 zero weights
            # and 17 others, every sample predicted negative)
            row["mcc"] = 0.0
        if beta is not None:
            row["fbeta"] = fbeta_score(y, pred, beta=beta, pos_label=pos, zero_division=nan, **kw)
    return row


def check_rows(sweep, y, s, w, pos, neg, beta=None):
    for r, t in enumerate(sweep.column("threshold")):
        expected = sklearn_row(y, s, w, t, pos, neg, beta)
        for name, value in expected.items():
            got = sweep.column(name)[r]
            np.testing.assert_allclose(got, value, rtol=1e-10, atol=1e-12, equal_nan=True,
                                       err_msg=f"{name} at threshold {t}")


def data(seed, n=80, labels=(0, 1), weights=None):
    rng = np.random.default_rng(seed)
    yc = rng.integers(0, 2, n)
    s = np.clip(0.3 * yc + rng.normal(0.35, 0.2, n), 0, 1).round(2)
    w = {None: None, "float": rng.random(n) + 0.05, "int": rng.integers(0, 4, n)}[weights]
    return np.asarray(labels)[yc], s, w


@pytest.mark.parametrize("weights", [None, "int", "float"])
def test_every_row_matches_sklearn(weights):
    y, s, w = data(1, weights=weights)
    ev = clfeval.evaluate(y, y_score=s, sample_weight=w)
    sweep = ev.threshold_sweep(beta=2.0)
    assert sweep.names == list(SWEEP_COLUMNS)
    assert sweep.column("threshold")[0] == math.inf
    np.testing.assert_array_equal(sweep.column("threshold")[1:], np.unique(s[w != 0] if w is not None else s)[::-1])
    check_rows(sweep, y, s, w, 1, 0, beta=2.0)


def test_positive_class_first():
    y, s, w = data(2, labels=("b", "a"), weights="float")
    ev = clfeval.evaluate(y, y_score=s, pos_label="a", sample_weight=w)
    assert ev.labels.tolist() == ["a", "b"]
    check_rows(ev.threshold_sweep(), y, s, w, "a", "b")


@pytest.mark.parametrize("weights", [None, "float"])
def test_fpr_and_tpr_are_roc_curve(weights):
    y, s, w = data(3, n=200, weights=weights)
    sweep = clfeval.evaluate(y, y_score=s, sample_weight=w).threshold_sweep(["fpr", "recall"])
    fpr, tpr, thr = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(sweep.column("threshold"), thr)
    np.testing.assert_allclose(sweep.column("fpr"), fpr, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(sweep.column("recall"), tpr, rtol=1e-12, atol=1e-15)


def test_given_grid_matches_evaluate_at_each_threshold():
    y, s, w = data(4, weights="float")
    ev = clfeval.evaluate(y, y_score=s, sample_weight=w)
    grid = [0.9, 0.1, 0.5, 0.505, -3.0, 7.0]
    sweep = ev.threshold_sweep(["tp", "fp", "fn", "tn", "precision", "recall", "f1", "accuracy", "mcc", "kappa"],
                               thresholds=grid)
    assert sweep.column("threshold").tolist() == grid  # kept in the given order
    for r, t in enumerate(grid):
        at = clfeval.evaluate(y, y_score=s, sample_weight=w, threshold=t)
        (tn, fp), (fn, tp) = at.confusion.counts
        np.testing.assert_allclose([sweep.column(k)[r] for k in ("tp", "fp", "fn", "tn")], [tp, fp, fn, tn],
                                   rtol=1e-12)
        overall, pos_row = at.report.overall, at.report.to_dict()["rows"][1]
        for ours, theirs in [("precision", pos_row["precision"]), ("recall", pos_row["recall"]),
                             ("f1", pos_row["f1"]), ("accuracy", overall["accuracy"]),
                             ("mcc", overall["mcc"]), ("kappa", overall["kappa"])]:
            np.testing.assert_allclose(sweep.column(ours)[r], theirs, rtol=1e-10, atol=1e-12, equal_nan=True)


def test_multiclass_and_multilabel_one_vs_rest():
    rng = np.random.default_rng(5)
    y = rng.choice(["cat", "dog", "eel"], 60)
    S = rng.dirichlet([1, 1, 1], 60).round(2)
    ev = clfeval.evaluate(y, y_score=S)
    for c, name in enumerate(ev.names):
        sweep = ev.threshold_sweep(curve=name)
        assert sweep.curve == name
        check_rows(sweep, y == name, S[:, c], None, True, False)
    with pytest.raises(ValueError, match=r"curve= must name the class \(one-vs-rest\) of this multiclass evaluation for its threshold sweep: one of \['cat', 'dog', 'eel'\]"):
        ev.threshold_sweep()
    Y = rng.integers(0, 2, (50, 2))
    S2 = rng.random((50, 2)).round(1)
    ml = clfeval.evaluate(Y, y_score=S2, labels=["p", "q"])
    check_rows(ml.threshold_sweep(curve="q"), Y[:, 1], S2[:, 1], None, 1, 0)


def test_hand_worked_sweep():
    # y = [0, 0, 1, 1], scores [0.1, 0.4, 0.35, 0.8]
    ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
    s = ev.threshold_sweep()
    assert s.column("threshold").tolist() == [math.inf, 0.8, 0.4, 0.35, 0.1]
    assert s.column("tp").tolist() == [0, 1, 1, 2, 2]
    assert s.column("fp").tolist() == [0, 0, 1, 1, 2]
    assert s.column("fn").tolist() == [2, 1, 1, 0, 0]
    assert s.column("tn").tolist() == [2, 2, 1, 1, 0]
    assert s.column("predicted_positive_rate").tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert s.column("accuracy").tolist() == [0.5, 0.75, 0.5, 0.75, 0.5]
    assert s.column("precision").tolist()[1:] == [1.0, 0.5, 2 / 3, 0.5]
    assert math.isnan(s.column("precision")[0])
    assert s.column("youden_j").tolist() == [0.0, 0.5, 0.0, 0.5, 0.0]
    assert s.column("f1").tolist() == [0.0, 2 / 3, 0.5, 0.8, 2 / 3]
    assert s.column("npv").tolist()[:4] == [0.5, 2 / 3, 0.5, 1.0]
    assert math.isnan(s.column("npv")[4])
    assert s.column("mcc")[0] == 0.0 and s.column("mcc")[1] == pytest.approx(1 / math.sqrt(3))


def test_result_object():
    ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], beta=2)
    s = ev.threshold_sweep()
    assert "fbeta" in s.names and s.beta == 2.0  # the evaluation's beta
    s = ev.threshold_sweep(["f1", "threshold", "tp"])
    assert s.names == ["threshold", "f1", "tp"]
    assert len(s) == 5
    assert repr(s) == "ThresholdSweep(curve='1', n_thresholds=5, columns=['threshold', 'f1', 'tp'])"
    d = s.to_dict()
    assert d["curve"] == "1" and d["n_thresholds"] == 5 and d["beta"] == 2.0
    assert d["columns"]["tp"] == [0, 1, 1, 2, 2]
    assert json.loads(json.dumps(json_safe(d), allow_nan=False))["columns"]["threshold"][0] == "inf"
    with pytest.raises(KeyError, match=r"no column 'mcc' in this sweep; its columns are \['threshold', 'f1', 'tp'\]"):
        s.column("mcc")
    with pytest.raises(ValueError, match="read-only"):
        s.column("tp")[0] = 5
    pd = pytest.importorskip("pandas")
    frame = s.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["threshold", "f1", "tp"] and frame["tp"].tolist() == [0, 1, 1, 2, 2]


def test_core_function_on_a_ranking():
    r = BinaryRanking(np.array([0.9, 0.5, 0.2]), None, np.array([True, False, True]))
    s = threshold_sweep_of(r, "recall", thresholds=[0.5], curve="x")
    assert isinstance(s, ThresholdSweep) and s.curve == "x"
    assert s.column("recall").tolist() == [0.5]


@pytest.mark.parametrize("kwargs, exc, message", [
    ({"metrics": ["f2"]}, ValueError, "unknown sweep column 'f2'; choose from threshold, tp, fp"),
    ({"metrics": ["fbeta"]}, ValueError, "the 'fbeta' column needs beta="),
    ({"metrics": ["f1", "f1"]}, ValueError, "metrics lists a column twice"),
    ({"beta": 0}, ValueError, "beta must be a positive finite number, got 0"),
    ({"beta": -2.0}, ValueError, "beta must be a positive finite number"),
    ({"thresholds": [[0.5]]}, ValueError, "thresholds must be 1-D"),
    ({"thresholds": [0.5, np.nan]}, ValueError, r"thresholds hold NaN \(first at position 1\)"),
    ({"curve": "0"}, ValueError, "thresholds the scores of the positive class '1'"),
])
def test_bad_input(kwargs, exc, message):
    ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
    with pytest.raises(exc, match=message):
        ev.threshold_sweep(**kwargs)


def test_no_scores():
    with pytest.raises(ValueError, match="no scores, so it has no threshold sweep"):
        clfeval.evaluate([0, 1], [0, 1]).threshold_sweep()


@st.composite
def scored(draw):
    n = draw(st.integers(1, 40))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    s = np.array(draw(st.lists(st.sampled_from([-1.0, 0.0, 0.2, 0.5, 0.7, 3.0]), min_size=n, max_size=n)))
    # weights 0 or in [0.1, 4]: tiny weights make MCC ill-conditioned (both formulas lose digits)
    weight = st.one_of(st.just(0.0), st.floats(0.1, 4.0))
    w = draw(st.one_of(st.none(), st.lists(weight, min_size=n, max_size=n).map(np.array)))
    if w is not None and not w.sum() > 0:
        w = None
    return y, s, w


@given(scored())
def test_rows_are_monotone(case):
    y, s, w = case
    ev = clfeval.evaluate(y, y_score=s, sample_weight=w, labels=[0, 1])
    sw = ev.threshold_sweep()
    tp, fp, fn, tn = (sw.column(k) for k in ("tp", "fp", "fn", "tn"))
    t = sw.column("threshold")
    assert (np.diff(t) < 0).all() and t[0] == math.inf
    # as the threshold decreases, predictions only turn positive
    assert (np.diff(tp) >= 0).all() and (np.diff(fp) >= 0).all()
    assert (np.diff(fn) <= 1e-12).all() and (np.diff(tn) <= 1e-12).all()
    assert (np.diff(sw.column("predicted_positive_rate")) >= -1e-12).all()
    np.testing.assert_allclose(tp + fn, ev.rankings["1"].totals[1], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(fp + tn, ev.rankings["1"].totals[0], rtol=1e-12, atol=1e-12)
    assert (tp[0], fp[0]) == (0, 0)
    assert fn[-1] == 0 and tn[-1] == 0


@given(scored())
def test_rows_match_sklearn_property(case):
    y, s, w = case
    if y.min() == y.max():
        return
    ev = clfeval.evaluate(y, y_score=s, sample_weight=w)
    check_rows(ev.threshold_sweep(), y, s, w, 1, 0)
