"""Operating points (Evaluation.operating_point / find_operating_point) and Evaluation.at.

The oracle is brute force: every distinct score plus +inf as a threshold, the confusion matrix of
``y_score >= t`` from scikit-learn, the criterion computed by hand from its cells, and the best
picked with the documented tie rule (values within 1e-12 relative count as equal; constrained
criteria then prefer the better constrained metric; then the highest threshold).
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

import clfeval
from clfeval.evaluation import json_safe
from clfeval.results.operating_points import CRITERIA, TIE_TOLERANCE, ThresholdPoint, find_operating_point
from clfeval.statistics.rankings import BinaryRanking

pytestmark = pytest.mark.filterwarnings("ignore::clfeval.UndefinedMetricWarning")

# --------------------------------------------------------------------------------------------
# brute force
# --------------------------------------------------------------------------------------------


def _div(a: float, b: float) -> float:
    return a / b if b != 0 else math.nan


def brute_rows(y, s, w, labels, pos):
    """(threshold, tp, fp, fn, tn, matrix in label order) at +inf and every distinct score."""
    labels = list(labels)
    i = labels.index(pos)
    neg = labels[1 - i]
    rows = []
    for t in [math.inf, *sorted(set(np.asarray(s).tolist()), reverse=True)]:
        pred = np.where(np.asarray(s) >= t, pos, neg)
        cm = confusion_matrix(y, pred, labels=labels, sample_weight=w).astype(np.float64)
        tp, fn, fp, tn = cm[i, i], cm[i, 1 - i], cm[1 - i, i], cm[1 - i, 1 - i]
        rows.append((t, tp, fp, fn, tn, cm))
    return rows


def brute_point(y, s, w, labels, pos, criterion, *, beta=1.0, costs=None, prevalence=None, at=None):
    """(threshold, value, (tp, fp, fn, tn)) by brute force over every threshold."""
    labels = list(labels)
    i_pos = labels.index(pos)
    cand = []  # (keys to maximise, value, threshold, counts)
    for t, tp, fp, fn, tn, cm in brute_rows(y, s, w, labels, pos):
        tpr, fpr = _div(tp, tp + fn), _div(fp, fp + tn)
        prec, spec = _div(tp, tp + fp), _div(tn, tn + fp)
        counts = (tp, fp, fn, tn)
        if criterion == "youden":
            v = tpr - fpr
            keys = [v]
        elif criterion == "closest-topleft":
            v = math.hypot(fpr, 1 - tpr)
            keys = [-v]
        elif criterion in ("max-fbeta", "max-f1"):
            b2 = beta * beta
            v = _div((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)
            keys = [v]
        elif criterion == "min-cost":
            c = np.asarray(costs, dtype=float)
            if prevalence is None:
                v = float((cm * c).sum() / cm.sum())
            else:
                p = np.atleast_1d(np.asarray(prevalence, dtype=float))
                if p.size == 1:
                    p = np.array([1 - p[0], p[0]] if i_pos == 1 else [p[0], 1 - p[0]])
                rates = cm / cm.sum(axis=1, keepdims=True)
                v = float(sum(p[a] * (rates[a] * c[a]).sum() for a in range(2)))
            keys = [-v]
        else:
            metric = {"recall": tpr, "sensitivity": tpr, "precision": prec, "specificity": spec}[criterion]
            objective = {"recall": prec, "sensitivity": spec, "precision": tpr, "specificity": tpr}[criterion]
            if not (metric >= at - TIE_TOLERANCE):
                continue
            v = metric
            keys = [objective, metric]
        if math.isnan(keys[0]):
            continue
        cand.append((keys, v, t, counts))
    assert cand, "no candidate"
    for k in range(len(cand[0][0])):
        best = max(c[0][k] for c in cand)
        cand = [c for c in cand if c[0][k] >= best - TIE_TOLERANCE * max(1.0, abs(best))]
    _, v, t, counts = cand[0]  # rows run by decreasing threshold: the first is the highest
    return t, v, counts


def assert_point(p: ThresholdPoint, expected, *, rtol=1e-12):
    t, v, counts = expected
    assert p.threshold == t, (p, expected)
    np.testing.assert_allclose(p.value, v, rtol=rtol, atol=1e-12)
    np.testing.assert_allclose([p.tp, p.fp, p.fn, p.tn], counts, rtol=rtol, atol=1e-9)


def random_binary(seed, n=120, labels=(0, 1), weights=None):
    rng = np.random.default_rng(seed)
    yc = rng.integers(0, 2, n)
    y = np.asarray(labels)[yc]
    s = np.clip(0.3 * yc + rng.normal(0.35, 0.2, n), 0, 1).round(2)  # ties
    w = None
    if weights == "float":
        w = rng.random(n) + 0.05
    elif weights == "int":
        w = rng.integers(0, 4, n)
    elif weights == "dyadic":
        w = rng.choice([0.5, 1.0, 2.25], n)
    return y, s, w


SIMPLE = ["youden", "closest-topleft", "max-f1", "break-even"]
CASES = [
    ("youden", {}),
    ("closest-topleft", {}),
    ("max-f1", {}),
    ("max-fbeta", {"beta": 2.0}),
    ("max-fbeta", {"beta": 0.5}),
    ("min-cost", {"costs": [[0, 1], [5, 0]]}),
    ("min-cost", {"costs": [[-1, 2], [7, 0.5]], "prevalence": 0.2}),
    ("min-cost", {"costs": [[0, 3], [1, 0]], "prevalence": [0.7, 0.3]}),
    ("recall", {"at": 0.8}),
    ("recall", {"at": 0.0}),
    ("sensitivity", {"at": 0.9}),
    ("precision", {"at": 0.6}),
    ("specificity", {"at": 0.75}),
    ("specificity", {"at": 1.0}),
]

# --------------------------------------------------------------------------------------------
# a hand-worked example
# --------------------------------------------------------------------------------------------
# y     = 0    0    1     1    0    1    1    0
# score = 0.1  0.4  0.35  0.8  0.6  0.9  0.6  0.2      (P = N = 4)
#
# threshold  inf   0.9   0.8   0.6    0.4   0.35  0.2    0.1
# tp          0     1     2     3      3     4     4      4
# fp          0     0     0     1      2     2     3      4
# TPR         0    .25   .5    .75    .75    1     1      1
# FPR         0     0     0    .25    .5    .5    .75     1
# J           0    .25   .5    .5     .25   .5    .25     0     -> 0.5, tied: highest threshold 0.8
# dist(0,1)   1    .75   .5   .3536  .559   .5    .75     1     -> 0.3536 at 0.6
# F1          0    .4   .667  .75   .667   .8   .727   .667     -> 0.8 at 0.35
# precision  nan    1     1    .75    .6   .667  .571    .5
# specificity 1     1     1    .75    .5    .5    .25     0
# cost (fp*1 + fn*5) / 8:  2.5 1.875 1.25 .75 .875 .25 .375 .5 -> 0.25 at 0.35
# cost, prevalence 0.1: .9*FPR + .1*5*(1 - TPR): .5 .375 .25 .35 .575 .45 .675 .9 -> 0.25 at 0.8
HAND_Y = [0, 0, 1, 1, 0, 1, 1, 0]
HAND_S = [0.1, 0.4, 0.35, 0.8, 0.6, 0.9, 0.6, 0.2]


@pytest.mark.parametrize(
    "criterion, options, threshold, value",
    [
        ("youden", {}, 0.8, 0.5),
        ("closest-topleft", {}, 0.6, math.sqrt(0.125)),
        ("max-f1", {}, 0.35, 0.8),
        ("max-fbeta", {"beta": 1.0}, 0.35, 0.8),
        ("min-cost", {"costs": [[0, 1], [5, 0]]}, 0.35, 0.25),
        ("min-cost", {"costs": [[0, 1], [5, 0]], "prevalence": 0.1}, 0.8, 0.25),
        ("recall", {"at": 0.75}, 0.6, 0.75),  # precision .75 beats .667 (0.35) and .6 (0.4)
        ("recall", {"at": 0.25}, 0.8, 0.5),  # precision 1 at 0.9 and 0.8: the higher recall wins
        ("precision", {"at": 0.7}, 0.6, 0.75),
        ("precision", {"at": 1.0}, 0.8, 1.0),
        ("specificity", {"at": 0.5}, 0.35, 0.5),
        ("sensitivity", {"at": 1.0}, 0.35, 1.0),
        ("sensitivity", {"at": 0.0}, 0.8, 0.5),  # specificity 1 down to 0.8: the highest recall there
        ("break-even", {}, 0.6, 0.75),
    ],
)
def test_hand_worked_example(criterion, options, threshold, value):
    ev = clfeval.evaluate(HAND_Y, y_score=HAND_S)
    p = ev.operating_point(criterion, **options)
    assert p.threshold == threshold
    assert p.value == pytest.approx(value, abs=1e-12)
    assert p.criterion == criterion and p.curve == "1"
    cm = p.confusion.counts
    assert cm.tolist() == [[p.tn, p.fp], [p.fn, p.tp]]
    assert p.accuracy == pytest.approx((p.tp + p.tn) / 8)


def test_hand_example_details():
    ev = clfeval.evaluate(HAND_Y, y_score=HAND_S)
    p = ev.operating_point("youden")
    assert (p.tp, p.fp, p.fn, p.tn) == (2, 0, 2, 4)
    assert (p.precision, p.recall, p.specificity, p.fpr) == (1.0, 0.5, 1.0, 0.0)
    assert p.f1 == pytest.approx(2 / 3) and p.accuracy == 0.75
    assert p.confusion.counts.tolist() == [[4, 0], [2, 2]]
    # the break-even point is the report's own
    be = ev.operating_point("break-even")
    assert (be.threshold, be.value, be.precision, be.recall) == (
        ev.break_even.threshold, ev.break_even.value, ev.break_even.precision, ev.break_even.recall)
    assert (be.tp, be.fp) == (3, 1)


def test_repr_and_to_dict():
    ev = clfeval.evaluate(HAND_Y, y_score=HAND_S)
    p = ev.operating_point("recall", at=0.75)
    assert repr(p) == (
        "ThresholdPoint('recall', curve='1', threshold=0.6, value=0.75, tp=3, fp=1, fn=1, tn=3, "
        "precision=0.75, recall=0.75, specificity=0.75, fpr=0.25, f1=0.75, accuracy=0.75)"
    )
    d = p.to_dict()
    assert d["criterion"] == "recall" and d["options"] == {"at": 0.75}
    assert (d["tp"], d["fp"], d["fn"], d["tn"]) == (3, 1, 1, 3)
    assert d["confusion"]["counts"] == [[3, 1], [1, 3]]
    json.dumps(d, allow_nan=False)  # plain and finite here
    inf = clfeval.evaluate([0, 1, 0, 1], y_score=[0.5] * 4).operating_point("youden").to_dict()
    assert inf["threshold"] == math.inf and math.isnan(inf["precision"])
    assert json.loads(json.dumps(json_safe(inf), allow_nan=False))["threshold"] == "inf"
    costly = ev.operating_point("min-cost", costs=[[0, 1], [5, 0]], prevalence=0.1).to_dict()
    assert costly["options"] == {"costs": [[0.0, 1.0], [5.0, 0.0]], "prevalence": [0.9, 0.1]}


def test_ties_prefer_the_highest_threshold():
    # every threshold between the scores gives J = 0: +inf (predict nothing) wins
    ev = clfeval.evaluate([0, 1, 0, 1], y_score=[0.5, 0.5, 0.5, 0.5])
    assert ev.operating_point("youden").threshold == math.inf
    # equal costs at +inf and everywhere: +inf again
    assert ev.operating_point("min-cost", costs=[[0, 1], [1, 0]]).threshold == math.inf


# --------------------------------------------------------------------------------------------
# brute force on random data
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("weights", [None, "int", "dyadic", "float"])
@pytest.mark.parametrize("criterion, options", CASES)
def test_binary_against_brute_force(criterion, options, weights):
    y, s, w = random_binary(11, weights=weights)
    ev = clfeval.evaluate(y, y_score=s, sample_weight=w)
    p = ev.operating_point(criterion, **options)
    assert_point(p, brute_point(y, s, w, [0, 1], 1, criterion, **options))


@pytest.mark.parametrize("criterion, options", CASES)
def test_positive_class_first_in_label_order(criterion, options):
    # "a" is the positive class and the first label: costs and the confusion matrix follow
    # the label order [a, b]
    y, s, w = random_binary(5, labels=("b", "a"), weights="dyadic")
    ev = clfeval.evaluate(y, y_score=s, pos_label="a", sample_weight=w)
    assert ev.labels.tolist() == ["a", "b"]
    p = ev.operating_point(criterion, **options)
    assert_point(p, brute_point(y, s, w, ["a", "b"], "a", criterion, **options))
    assert p.confusion.counts.tolist() == [[p.tp, p.fn], [p.fp, p.tn]]
    assert p.confusion.labels.tolist() == ["a", "b"]


def test_two_score_columns_rank_the_positive_column():
    y, s, w = random_binary(8)
    both = np.column_stack([1 - s, s])
    p = clfeval.evaluate(y, y_score=both).operating_point("youden")
    assert_point(p, brute_point(y, s, None, [0, 1], 1, "youden"))


@pytest.mark.parametrize("weights", [None, "float"])
@pytest.mark.parametrize("criterion, options", CASES)
def test_multiclass_one_vs_rest_against_brute_force(criterion, options, weights):
    rng = np.random.default_rng(3)
    n = 150
    y = rng.choice(["cat", "dog", "eel"], n)
    S = rng.dirichlet([1, 1, 1], n).round(2)
    w = None if weights is None else rng.random(n) + 0.1
    ev = clfeval.evaluate(y, y_score=S, sample_weight=w)
    points = ev.operating_points(criterion, **options)
    assert list(points) == ["cat", "dog", "eel"]
    for c, name in enumerate(ev.names):
        p = points[name]
        assert p.curve == name
        assert_point(p, brute_point(y == name, S[:, c], w, [False, True], True, criterion, **options))
        assert p.confusion.labels.tolist() == ["rest", name]
        assert p.confusion.counts.tolist() == [[p.tn, p.fp], [p.fn, p.tp]]
        assert repr(ev.operating_point(criterion, curve=name, **options)) == repr(p)


@pytest.mark.parametrize("criterion, options", CASES)
def test_multilabel_against_brute_force(criterion, options):
    rng = np.random.default_rng(4)
    n = 100
    Y = rng.integers(0, 2, (n, 3))
    S = np.clip(0.3 * Y + rng.random((n, 3)) * 0.7, 0, 1).round(2)
    w = rng.choice([0.5, 1.0, 2.0], n)
    ev = clfeval.evaluate(Y, y_score=S, sample_weight=w, labels=["x", "y", "z"])
    points = ev.operating_points(criterion, **options)
    for c, name in enumerate(["x", "y", "z"]):
        expected = brute_point(Y[:, c] == 1, S[:, c], w, [False, True], True, criterion, **options)
        assert_point(points[name], expected)


def test_core_function_on_a_ranking():
    r = BinaryRanking(np.array([0.9, 0.8, 0.6, 0.4, 0.2]), None, np.array([1, 1, 0, 1, 0], bool))
    p = find_operating_point(r, "youden", curve="yes")
    assert (p.threshold, p.tp, p.fp, p.fn, p.tn) == (0.8, 2, 0, 1, 2)
    assert p.confusion.labels.tolist() == ["rest", "yes"]
    q = find_operating_point(r, "youden", curve="yes", labels=["yes", "no"], pos_index=0)
    assert q.confusion.counts.tolist() == [[2, 1], [0, 2]]


# --------------------------------------------------------------------------------------------
# properties
# --------------------------------------------------------------------------------------------


@st.composite
def scored_binary(draw, max_size=30):
    n = draw(st.integers(2, max_size))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    if y.min() == y.max():  # both classes
        y[0] = 1 - y[0]
    s = np.array(draw(st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.6, 0.75, 0.9, 1.0]),
                               min_size=n, max_size=n)))
    weighted = draw(st.sampled_from([None, "dyadic", "positive"]))
    if weighted == "dyadic":
        w = np.array(draw(st.lists(st.sampled_from([0.5, 1.0, 2.25]), min_size=n, max_size=n)))
    elif weighted == "positive":
        w = np.array(draw(st.lists(st.floats(0.1, 5.0), min_size=n, max_size=n)))
    else:
        w = None
    return y, s, w


OBJECTIVES = {  # criterion -> (sweep column, +1 maximised / -1 minimised)
    "youden": ("youden_j", 1),
    "max-f1": ("f1", 1),
}


@given(data=scored_binary(), criterion=st.sampled_from(["youden", "max-f1", "closest-topleft", "min-cost"]))
def test_chosen_value_is_the_best_of_every_threshold(data, criterion):
    y, s, w = data
    ev = clfeval.evaluate(y, y_score=s, sample_weight=w)
    costs = [[0.0, 1.0], [3.0, 0.0]]
    p = ev.operating_point(criterion, **({"costs": costs} if criterion == "min-cost" else {}))
    sweep = ev.threshold_sweep()
    tp, fp, fn, tn = (sweep.column(k).astype(float) for k in ("tp", "fp", "fn", "tn"))
    if criterion == "youden":
        values, better = sweep.column("youden_j"), np.greater
    elif criterion == "max-f1":
        values, better = sweep.column("f1"), np.greater
    elif criterion == "closest-topleft":
        values, better = np.hypot(sweep.column("fpr"), 1 - sweep.column("recall")), np.less
    else:
        values, better = (fp * 1.0 + fn * 3.0) / (tp + fp + fn + tn), np.less
    tol = 1e-9
    assert not better(values, p.value + (tol if better is np.greater else -tol)).any()
    i = int(np.flatnonzero(sweep.column("threshold") == p.threshold)[0])
    assert values[i] == pytest.approx(p.value, abs=1e-12)
    # nothing at a higher threshold is as good (the tie rule)
    assert better(p.value + (tol if better is np.greater else -tol), values[:i]).all()


@given(data=scored_binary(), at=st.sampled_from([0.0, 0.3, 0.5, 0.8, 1.0]),
       criterion=st.sampled_from(["recall", "sensitivity", "precision", "specificity"]))
def test_constrained_criteria_meet_the_target(data, at, criterion):
    y, s, w = data
    ev = clfeval.evaluate(y, y_score=s, sample_weight=w)
    try:
        p = ev.operating_point(criterion, at=at)
    except ValueError as e:
        assert criterion == "precision" and "best achievable precision" in str(e)
        best = np.nanmax(ev.threshold_sweep(["precision"]).column("precision"))
        assert best < at
        return
    assert getattr(p, criterion if criterion != "sensitivity" else "recall") >= at - 1e-12
    assert p.value == getattr(p, "recall" if criterion in ("recall", "sensitivity") else criterion)
    expected = brute_point(y, s, w, [0, 1], 1, criterion, at=at)
    assert p.threshold == expected[0]


# --------------------------------------------------------------------------------------------
# Evaluation.at
# --------------------------------------------------------------------------------------------


def _same_evaluation(a, b, *, intervals=True):
    da, db = json_safe(a.to_dict()), json_safe(b.to_dict())
    da.pop("clfeval_version"), db.pop("clfeval_version")
    assert da == db
    if intervals:
        assert json_safe(a.intervals_dict()) == json_safe(b.intervals_dict())


@pytest.mark.parametrize("weights", [None, "dyadic", "float"])
@pytest.mark.parametrize("pos_label", ["a", "b"])
def test_at_equals_evaluate_with_that_threshold(weights, pos_label):
    y, s, w = random_binary(2, labels=("a", "b"), weights=weights)
    ev = clfeval.evaluate(y, y_score=s, pos_label=pos_label, sample_weight=w)
    for t in (0.0, 0.3, 0.35, 0.5, 0.77, 1.0, 2.0):
        moved = ev.at(t)
        _same_evaluation(moved, clfeval.evaluate(y, y_score=s, pos_label=pos_label, sample_weight=w, threshold=t))
        assert moved.threshold == t
        assert moved.rankings is ev.rankings  # nothing re-sorted
    # the pointwise intervals of the report's numbers agree too
    t = 0.42
    a = ev.at(t).ci("recall")
    b = clfeval.evaluate(y, y_score=s, pos_label=pos_label, sample_weight=w, threshold=t).ci("recall")
    assert (a.low, a.high, a.estimate) == (b.low, b.high, b.estimate)


def test_at_replaces_given_predictions():
    y, s, _ = random_binary(6)
    ev = clfeval.evaluate(y, (s > 0.6).astype(int), s)  # y_pred and y_score
    _same_evaluation(ev.at(0.45), clfeval.evaluate(y, y_score=s, threshold=0.45))


def test_at_an_operating_point_round_trip():
    ev = clfeval.evaluate(HAND_Y, y_score=HAND_S)
    p = ev.operating_point("max-f1")
    moved = ev.at(p.threshold)
    assert moved.confusion.counts.tolist() == p.confusion.counts.tolist()
    assert moved.report.overall["accuracy"] == p.accuracy
    nothing = ev.at(math.inf)
    assert nothing.confusion.counts.tolist() == [[4, 0], [4, 0]]
    assert any("where the score >= inf" in note for note in nothing.report.notes)
    everything = ev.at(-math.inf)
    assert everything.confusion.counts.tolist() == [[0, 4], [0, 4]]


@given(data=scored_binary(), t=st.floats(-0.5, 1.5, allow_nan=False))
def test_at_equals_evaluate_property(data, t):
    y, s, w = data
    ev = clfeval.evaluate(y, y_score=s, sample_weight=w)
    _same_evaluation(ev.at(t), clfeval.evaluate(y, y_score=s, sample_weight=w, threshold=t))


@pytest.mark.parametrize("weights", [None, "int", "float"])
def test_at_multiclass_is_one_vs_rest(weights):
    rng = np.random.default_rng(9)
    n = 90
    y = rng.integers(0, 3, n)
    S = rng.dirichlet([1, 1, 1], n).round(2)
    w = {None: None, "int": rng.integers(1, 4, n), "float": rng.random(n) + 0.1}[weights]
    ev = clfeval.evaluate(y, y_score=S, sample_weight=w)
    for c in range(3):
        a = ev.at(0.4, curve=str(c))
        b = clfeval.evaluate((y == c).astype(int), y_score=S[:, c], threshold=0.4, sample_weight=w)
        assert a.task == "binary" and a.names == ["rest", str(c)] and a.pos_label == c
        assert a.labels.tolist() == ["rest", c]
        np.testing.assert_array_equal(a.confusion.counts, b.confusion.counts)
        assert json_safe(a.report.to_dict()["overall"]) == json_safe(b.report.to_dict()["overall"])
        rows_a, rows_b = a.report.to_dict()["rows"], b.report.to_dict()["rows"]
        assert [r.pop("label") for r in rows_a] == ["rest", str(c)]
        assert [r.pop("label") for r in rows_b] == ["0", "1"]
        assert json_safe(rows_a) == json_safe(rows_b)
        ia, ib = json_safe(a.intervals_dict()), json_safe(b.intervals_dict())
        assert ia["overall"] == ib["overall"] and ia["per_class"] == ib["per_class"]
        assert a.rankings[str(c)] is ev.rankings[str(c)]
        assert a.roc.main.area == b.roc.main.area


@pytest.mark.parametrize("weights", [None, "float"])
def test_at_multilabel(weights):
    rng = np.random.default_rng(10)
    n = 70
    Y = rng.integers(0, 2, (n, 3))
    S = rng.random((n, 3)).round(1)
    w = None if weights is None else rng.random(n) + 0.1
    ev = clfeval.evaluate(Y, y_score=S, sample_weight=w)
    for t in (0.2, 0.5, 0.85):
        _same_evaluation(ev.at(t), clfeval.evaluate(Y, y_score=S, sample_weight=w, threshold=t))
    one = ev.at(0.3, curve="1")
    ref = clfeval.evaluate(Y[:, 1], y_score=S[:, 1], threshold=0.3, sample_weight=w)
    np.testing.assert_array_equal(one.confusion.counts, ref.confusion.counts)
    assert json_safe(one.intervals_dict()["overall"]) == json_safe(ref.intervals_dict()["overall"])


# --------------------------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------------------------


@pytest.fixture
def ev():
    return clfeval.evaluate(HAND_Y, y_score=HAND_S)


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (("best",), {}, "unknown criterion 'best'; choose one of 'break-even', 'youden'"),
        ((3,), {}, "unknown criterion 3"),
        (("recall",), {}, "'recall' needs at=, the recall to reach"),
        (("precision",), {"at": 1.5}, "at must be a number in [0, 1], got 1.5"),
        (("precision",), {"at": -0.1}, "at must be a number in [0, 1]"),
        (("precision",), {"at": True}, "at must be a number in [0, 1], got True"),
        (("precision",), {"at": "0.5"}, "at must be a number in [0, 1]"),
        (("youden",), {"at": 0.5}, "at applies only to 'recall', 'sensitivity', 'precision', 'specificity'"),
        (("max-fbeta",), {"beta": 0}, "beta must be a positive finite number, got 0"),
        (("max-fbeta",), {"beta": -1.0}, "beta must be a positive finite number"),
        (("max-fbeta",), {"beta": math.inf}, "beta must be a positive finite number"),
        (("max-f1",), {"beta": 2.0}, "'max-f1' is F-beta with beta = 1"),
        (("youden",), {"beta": 2.0}, "beta applies only to 'max-fbeta'"),
        (("min-cost",), {}, "'min-cost' needs costs=, a (2, 2) cost matrix"),
        (("min-cost",), {"costs": [[0, 1, 2], [1, 0, 2]]}, "costs must be (2, 2)"),
        (("min-cost",), {"costs": [[0, 1], [np.nan, 0]]}, "costs[1, 0] is nan"),
        (("min-cost",), {"costs": [[0, 1], [1, 0]], "prevalence": 1.5}, "prevalence must be the positive class's share"),
        (("min-cost",), {"costs": [[0, 1], [1, 0]], "prevalence": [0.5, 0.6]}, "summing to 1"),
        (("youden",), {"costs": [[0, 1], [1, 0]]}, "costs applies only to 'min-cost'"),
        (("youden",), {"prevalence": 0.3}, "prevalence applies only to 'min-cost'"),
        (("youden",), {"curve": "0"}, "thresholds the scores of the positive class '1'"),
    ],
)
def test_bad_arguments(ev, args, kwargs, message):
    with pytest.raises(ValueError) as info:
        ev.operating_point(*args, **kwargs)
    assert message in str(info.value)


def test_infeasible_target_gives_the_best_achievable(ev):
    ev2 = clfeval.evaluate([1, 0, 1, 0], y_score=[0.9, 0.95, 0.5, 0.1])
    with pytest.raises(ValueError, match=r"reaches precision >= 0.9: the best achievable precision is 0.666667 "
                                          r"\(at threshold 0.5\)"):
        ev2.operating_point("precision", at=0.9)


def test_undefined_without_positives_or_negatives():
    no_pos = clfeval.evaluate([0, 0, 0], y_score=[0.2, 0.5, 0.9], labels=[0, 1])
    for criterion, kw in [("youden", {}), ("max-f1", {}), ("break-even", {}), ("precision", {"at": 0.5})]:
        with pytest.raises(ValueError, match=f"'{criterion}' is undefined for curve '1': it has no positive"):
            no_pos.operating_point(criterion, **kw)
    # min-cost is defined: only false positives cost, so predict nothing
    p = no_pos.operating_point("min-cost", costs=[[0, 1], [5, 0]])
    assert (p.threshold, p.value) == (math.inf, 0.0)
    with pytest.raises(ValueError, match="'min-cost' is undefined .* leave prevalence out"):
        no_pos.operating_point("min-cost", costs=[[0, 1], [5, 0]], prevalence=0.5)
    no_neg = clfeval.evaluate([1, 1, 1], y_score=[0.2, 0.5, 0.9], labels=[0, 1])
    with pytest.raises(ValueError, match="'youden' is undefined for curve '1': it has no negative"):
        no_neg.operating_point("youden")
    assert no_neg.operating_point("max-f1").threshold == 0.2


def test_multiclass_needs_a_class_name():
    ev = clfeval.evaluate([0, 1, 2, 2], y_score=np.eye(3)[[0, 1, 2, 1]], target_names=["a", "b", "c"])
    with pytest.raises(ValueError, match=r"curve= must name the class \(one-vs-rest\) of this multiclass evaluation for its operating point: one of \['a', 'b', 'c'\]"):
        ev.operating_point("youden")
    with pytest.raises(ValueError, match=r"there is no class named 'micro'; curve= must name the class"):
        ev.operating_point("youden", curve="micro")
    with pytest.raises(ValueError, match="multiclass evaluation for its predictions at a threshold"):
        ev.at(0.5)
    with pytest.raises(TypeError, match="operating_points gives every class"):
        ev.operating_points("youden", curve="a")
    ml = clfeval.evaluate([[0, 1], [1, 1]], y_score=[[0.2, 0.8], [0.6, 0.7]])
    with pytest.raises(ValueError, match=r"curve= must name the label \(one-vs-rest\) of this multilabel evaluation"):
        ml.operating_point("youden")


def test_no_scores():
    ev = clfeval.evaluate([0, 1, 1], [0, 1, 0])
    with pytest.raises(ValueError, match="no scores, so it has no operating point: pass y_score"):
        ev.operating_point("youden")
    with pytest.raises(ValueError, match="no scores, so it has no operating points"):
        ev.operating_points("youden")
    with pytest.raises(ValueError, match="no scores, so it has no predictions at a threshold"):
        ev.at(0.5)


@pytest.mark.parametrize("bad, exc, message", [
    (math.nan, ValueError, "threshold must be finite"),
    ("0.5", TypeError, "threshold must be a number"),
    (None, TypeError, "threshold must be a number"),
    (True, TypeError, "threshold must be a number"),
])
def test_at_bad_threshold(ev, bad, exc, message):
    with pytest.raises(exc, match=message):
        ev.at(bad)


def test_criteria_list_is_complete():
    assert set(CRITERIA) == {"break-even", "youden", "closest-topleft", "max-fbeta", "max-f1", "min-cost",
                             "recall", "sensitivity", "precision", "specificity"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no runtime warnings from 0/0 anywhere
        ev = clfeval.evaluate(HAND_Y, y_score=HAND_S)
        for c in CRITERIA:
            kw = {"at": 0.5} if c in ("recall", "sensitivity", "precision", "specificity") else {}
            kw.update({"costs": [[0, 1], [1, 0]]} if c == "min-cost" else {})
            assert isinstance(ev.operating_point(c, **kw), ThresholdPoint)


# --------------------------------------------------------------------------------------------
# the search over blocks equals the search over every threshold
# --------------------------------------------------------------------------------------------


@st.composite
def tie_prone_binary(draw):
    """Few distinct scores, zero and tiny weights: runs of equal false positives, exact ties."""
    n = draw(st.integers(1, 60))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=int)
    s = np.array(draw(st.lists(st.sampled_from(np.linspace(0, 1, 41).tolist()), min_size=n, max_size=n)))
    w = np.array(draw(st.lists(st.sampled_from([0.0, 1e-14, 0.5, 1.0, 3.0]), min_size=n, max_size=n)))
    if not w.sum() > 0:
        w[0] = 1.0
    return y, s, draw(st.sampled_from([None, w]))


ALL_RULES = [("youden", {}), ("closest-topleft", {}), ("max-f1", {}), ("max-fbeta", {"beta": 0.5}),
             ("min-cost", {"costs": [[0, 1], [4, 0]]}), ("min-cost", {"costs": [[0, 1], [4, 0]], "prevalence": 0.3}),
             ("min-cost", {"costs": [[1, 2], [0, 3]]}),  # a missed positive is cheaper than a caught one
             ("recall", {"at": 0.5}), ("sensitivity", {"at": 0.8}), ("precision", {"at": 0.6}),
             ("specificity", {"at": 0.5})]


@given(data=tie_prone_binary(), rule=st.sampled_from(ALL_RULES))
def test_block_search_equals_the_search_over_every_threshold(data, rule):
    from unittest import mock

    from clfeval.results import operating_points as op

    y, s, w = data
    ranking = clfeval.evaluate(y, y_score=s, sample_weight=w, labels=[0, 1]).ranking("1")
    criterion, options = rule

    def run():
        try:
            return find_operating_point(ranking, criterion, **options)
        except ValueError as e:
            return str(e)

    fast = run()
    # one block: its corner bounds nothing, so every threshold is searched
    with mock.patch.object(op, "_blocks", lambda m: (np.array([0]), np.array([m - 1]))):
        slow = run()
    if isinstance(slow, str):
        assert fast == slow
    else:
        assert (fast.threshold, fast.value, fast.tp, fast.fp) == (slow.threshold, slow.value, slow.tp, slow.fp)


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: f"{r[0]}{sorted(r[1].items())}")
@pytest.mark.parametrize("weights", [None, "float"])
def test_block_search_skips_blocks_and_agrees(rule, weights):
    from unittest import mock

    from clfeval.results import operating_points as op

    rng = np.random.default_rng(7)
    n = 5000
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + 1.2 * y, 3)  # ties too
    w = None if weights is None else rng.choice([0.0, 0.5, 2.0], n)
    ranking = clfeval.evaluate(y, y_score=s, sample_weight=w).ranking("1")
    criterion, options = rule
    searched = []
    real = op._search

    def spy(measure, counts, monotone):
        def counting(tp, fp, fn, tn):
            searched.append(np.size(tp))
            return measure(tp, fp, fn, tn)
        return real(counting, counts, monotone)

    with mock.patch.object(op, "_search", spy):
        fast = find_operating_point(ranking, criterion, **options)
    with mock.patch.object(op, "_blocks", lambda m: (np.array([0]), np.array([m - 1]))):
        slow = find_operating_point(ranking, criterion, **options)
    assert (fast.threshold, fast.value, fast.tp, fast.fp) == (slow.threshold, slow.value, slow.tp, slow.fp)
    m = len(ranking.counts_at_thresholds())
    if criterion == "min-cost" and options["costs"] == [[1, 2], [0, 3]]:
        assert searched[-1] == m  # not monotone: every threshold
    else:
        assert searched[-1] < m / 2  # most blocks were skipped


def test_break_even_between_two_scores_reports_the_nearer_one():
    """Counts per score (weights 1..3): positives [2, 0, 1, 1], negatives [0, 1, 3, 0], P = 4.
    Predicted counts 2, 3, 7, 8: the crossing lies between scores 0.8 (precision 2/3, recall 1/2)
    and 0.7 (3/7, 3/4), at t = (1/6) / (1/6 + 9/28) = 14/41 of the way, so the value is
    1/2 + 14/41 * 1/4 = 24/41 and the nearer score, 0.8, is the threshold (worked by hand)."""
    from clfeval.statistics.rankings import BinaryRanking, BreakEvenPoint

    r = BinaryRanking(np.array([0.9, 0.8, 0.7, 0.6]), np.array([0, 1, 3, 0]), np.array([2, 0, 1, 1]))
    got = r.break_even()
    assert got == BreakEvenPoint(pytest.approx(24 / 41, rel=1e-15), 0.8, pytest.approx(2 / 3, rel=1e-15), 0.5)


def test_point_repr_writes_counts_in_full():
    """``:g`` wrote 1,386,940 negatives as tn=1.38694e+06 (found in the gallery's streaming example)."""
    y = np.r_[np.zeros(1_386_940, dtype=np.int8), np.ones(3, dtype=np.int8)]
    s = np.r_[np.zeros(1_386_940), np.ones(3)]
    text = repr(clfeval.evaluate(y, y_score=s).operating_point("break-even"))
    assert "tp=3, fp=0, fn=0, tn=1386940," in text
