"""StreamingEvaluation: batches and merges give the Evaluation of the concatenated rows.

The oracle is clfeval.evaluate on all rows at once (itself checked against scikit-learn): counts
exactly, and with float weights to rounding of the sums' order.
"""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.evaluation import json_safe
from evaluation_equality import assert_same, plain
from clfeval.streaming import StreamingEvaluation

pytestmark = pytest.mark.filterwarnings("ignore::clfeval.UndefinedMetricWarning")


def stream(batches, **options) -> StreamingEvaluation:
    s = StreamingEvaluation(**options)
    for batch in batches:
        s.update(*batch[:3], **({"sample_weight": batch[3]} if len(batch) > 3 else {}))
    return s


def cuts(n: int, data) -> list[slice]:
    points = sorted(set(data.draw(st.lists(st.integers(1, max(1, n - 1)), max_size=6))))
    edges = [0, *[p for p in points if 0 < p < n], n]
    return [slice(a, b) for a, b in zip(edges[:-1], edges[1:])]


RNG = np.random.default_rng(3)


# ---------------------------------------------------------------------------------------------
# batches equal all rows at once
# ---------------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.integers(4, 80), kind=st.sampled_from(["proba", "rounded", "decision", "two-columns"]))
def test_binary_batches_equal_evaluate(data, n, kind):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    score = {"proba": rng.random(n), "rounded": np.round(rng.random(n), 1), "decision": rng.normal(size=n),
             "two-columns": None}[kind]
    if kind == "two-columns":
        p = np.round(rng.random(n), 2)
        score = np.column_stack([1 - p, p])
    parts = cuts(n, data)
    # a first batch may hold one class; a batch of decision values may all lie in [0, 1]
    options = {"labels": [0, 1], "threshold": 0.0 if kind == "decision" else None}
    s = stream([(y[c], None, score[c]) for c in parts], **options)
    assert_same(s.result(), clfeval.evaluate(y, y_score=score, **options))


@settings(max_examples=30, deadline=None)
@given(data=st.data(), n=st.integers(6, 80), k=st.integers(3, 5))
def test_multiclass_batches_equal_evaluate(data, n, k):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    proba = rng.dirichlet(np.ones(k), n)
    if data.draw(st.booleans()):
        proba = np.round(proba, 2)
        proba /= proba.sum(axis=1, keepdims=True)
    s = stream([(y[c], None, proba[c]) for c in cuts(n, data)], labels=list(range(k)))
    want = clfeval.evaluate(y, y_score=proba)
    assert_same(s.result(), want)
    assert s.result().calibration(10).ece == pytest.approx(want.calibration(10).ece, rel=1e-9)


@settings(max_examples=30, deadline=None)
@given(data=st.data(), n=st.integers(2, 80))
def test_predictions_with_classes_appearing_late(data, n):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    y = np.sort(rng.choice(np.array(["ant", "bee", "cat", "dog"]), n))  # later batches bring new classes
    pred = rng.choice(np.array(["ant", "bee", "cat", "dog", "eel"]), n)
    s = stream([(y[c], pred[c]) for c in cuts(n, data)])
    assert_same(s.result(), clfeval.evaluate(y, pred))


@settings(max_examples=30, deadline=None)
@given(data=st.data(), n=st.integers(4, 60))
def test_weighted_batches_equal_evaluate_to_rounding(data, n):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    p = np.round(rng.random(n), 2)
    w = rng.random(n) + 0.01
    s = stream([(y[c], None, p[c], w[c]) for c in cuts(n, data)], labels=[0, 1])
    assert_same(s.result(), clfeval.evaluate(y, y_score=p, sample_weight=w), exact=False)


def test_integer_weights_keep_exact_counts():
    y = RNG.integers(0, 2, 300)
    pred = RNG.integers(0, 2, 300)
    w = RNG.integers(1, 4, 300).astype(float)
    s = stream([(y[i:i + 50], pred[i:i + 50], None, w[i:i + 50]) for i in range(0, 300, 50)])
    assert s.result().confusion.counts.tolist() == clfeval.evaluate(y, pred, sample_weight=w).confusion.counts.tolist()


# ---------------------------------------------------------------------------------------------
# merge
# ---------------------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(data=st.data(), n=st.integers(8, 80))
def test_merge_in_any_order_equals_evaluate(data, n):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    y = rng.integers(0, 3, n)
    y[:3] = [0, 1, 2]
    proba = np.round(rng.dirichlet(np.ones(3), n), 3)
    proba /= proba.sum(axis=1, keepdims=True)
    parts = [stream([(y[c], None, proba[c])], labels=[0, 1, 2]) for c in cuts(n, data)]
    order = data.draw(st.permutations(range(len(parts))))
    merged = StreamingEvaluation(labels=[0, 1, 2])
    for i in order:
        merged = merged.merge(parts[i])
    want = clfeval.evaluate(y, y_score=proba, labels=[0, 1, 2])
    assert_same(merged.result(), want)
    # a tree of merges gives the same
    while len(parts) > 1:
        parts = [parts[i].merge(parts[i + 1]) if i + 1 < len(parts) else parts[i] for i in range(0, len(parts), 2)]
    assert_same(parts[0].result(), want)


def test_merge_leaves_both_streams_unchanged_and_joins_classes():
    a = stream([(["x", "y"], ["x", "x"])])
    b = stream([(["z", "y"], ["z", "y"])])
    ab = a.merge(b)
    assert a.result().labels.tolist() == ["x", "y"] and b.result().labels.tolist() == ["y", "z"]
    assert_same(ab.result(), clfeval.evaluate(["x", "y", "z", "y"], ["x", "x", "z", "y"]))
    assert ab.n_samples == 4


def test_merge_refuses_different_settings():
    a = StreamingEvaluation(threshold=0.3).update([0, 1], y_score=[0.2, 0.8])
    with pytest.raises(ValueError, match="different settings"):
        a.merge(StreamingEvaluation().update([0, 1], y_score=[0.2, 0.8]))
    with pytest.raises(ValueError, match="score columns"):
        StreamingEvaluation().update([0, 1], [0, 1]).merge(StreamingEvaluation().update([0, 1], y_score=[0.2, 0.8]))
    with pytest.raises(TypeError, match="StreamingEvaluation"):
        a.merge(clfeval.evaluate([0, 1], [0, 1]))
    with pytest.raises(ValueError, match="different classes"):
        StreamingEvaluation().update([0, 1], y_score=[[0.5, 0.5], [0.2, 0.8]]).merge(
            StreamingEvaluation().update([1, 2], y_score=[[0.5, 0.5], [0.2, 0.8]]))


def test_pickle_round_trip_and_empty_merges():
    s = stream([([0, 1, 1, 0], None, [0.1, 0.9, 0.7, 0.4])])
    back = pickle.loads(pickle.dumps(s))
    assert_same(back.result(), s.result())
    empty = StreamingEvaluation()
    assert_same(empty.merge(s).result(), s.result())
    assert_same(s.merge(empty).result(), s.result())


# ---------------------------------------------------------------------------------------------
# what a stream's Evaluation can and cannot do
# ---------------------------------------------------------------------------------------------


def test_state_size_does_not_grow_without_scores():
    s = StreamingEvaluation()
    for _ in range(5):
        s.update(RNG.integers(0, 3, 1000), RNG.integers(0, 3, 1000))
    size = s.nbytes
    for _ in range(20):
        s.update(RNG.integers(0, 3, 1000), RNG.integers(0, 3, 1000))
    assert s.nbytes == size == 9 * 8 and s.n_samples == 25_000


def test_runs_stay_few():
    s = StreamingEvaluation()
    for _ in range(200):
        s.update(RNG.integers(0, 2, 64), y_score=RNG.random(64))
    assert len(s._rankings[1]) <= 10  # O(log n) runs
    assert s.distinct_scores == 200 * 64


def test_binary_stream_gives_analytic_intervals_and_at():
    y = RNG.integers(0, 2, 400)
    p = np.round(RNG.random(400), 3)
    ev = stream([(y[i:i + 100], None, p[i:i + 100]) for i in range(0, 400, 100)]).result()
    want = clfeval.evaluate(y, y_score=p)
    got, expected = json_safe(ev.intervals_dict()), json_safe(want.intervals_dict())
    # the averages of the areas over the two classes need each row: left out, with a note
    for avg in expected["averages"].values():
        avg.pop("roc_auc", None), avg.pop("average_precision", None)
    assert "need each row" in got.pop("notes")[-1]
    expected.pop("notes", None)
    assert got == expected
    assert plain(ev.at(0.3)) == plain(want.at(0.3))
    assert ev.operating_point("youden").threshold == want.operating_point("youden").threshold
    with pytest.raises(ValueError, match="analytic intervals"):
        ev.intervals(method="bootstrap")


def test_what_a_stream_cannot_give_says_why():
    w = stream([([0, 1, 1, 0], None, [0.1, 0.9, 0.7, 0.4], [1.0, 2.0, 1.0, 0.5])]).result()
    with pytest.raises(ValueError, match="each row's weight"):
        w.intervals()
    mc = stream([([0, 1, 2], None, [[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.3, 0.3, 0.4]])]).result()
    with pytest.raises(ValueError, match="binary evaluation"):
        mc.intervals()
    assert mc.at(0.5, curve="1").confusion.counts.tolist() == [[2, 0], [0, 1]]
    dec = stream([([0, 1, 2], None, [[2.0, 0.1, 0.1], [0.2, 0.7, 0.1], [0.3, 0.3, 0.4]])]).result()
    with pytest.raises(ValueError, match="not probabilities"):
        dec.calibration()


# ---------------------------------------------------------------------------------------------
# bad input: clear errors, the state unchanged
# ---------------------------------------------------------------------------------------------


def test_bad_batches_leave_the_state_unchanged():
    s = stream([([0, 1, 1], None, [0.2, 0.8, 0.6])])
    before = plain(s.result())
    with pytest.raises(ValueError, match="2 samples"):
        s.update([0, 1, 1], y_score=[0.1, 0.2])
    with pytest.raises(ValueError, match="NaN|missing"):
        s.update([0, 1], y_score=[0.1, np.nan])
    with pytest.raises(ValueError, match="earlier batches had scores"):
        s.update([0, 1], [0, 1])
    with pytest.raises(ValueError, match="fixed by the first batch"):
        s.update([0, 2], y_score=[0.1, 0.2])
    with pytest.raises(ValueError, match="same score columns"):
        s.update([0, 1], y_score=[[0.9, 0.1], [0.2, 0.8]])
    with pytest.raises(ValueError, match="pass threshold="):
        s.update([0, 1], y_score=[-1.5, 2.0])  # decision values: cut at 0, not 0.5
    assert plain(s.result()) == before and s.n_samples == 3


def test_first_batch_of_one_class_needs_labels():
    with pytest.raises(ValueError, match="single class"):
        StreamingEvaluation().update([1, 1], y_score=[0.2, 0.9])
    s = StreamingEvaluation(labels=[0, 1]).update([1, 1], y_score=[0.2, 0.9]).update([0], y_score=[0.5])
    assert_same(s.result(), clfeval.evaluate([1, 1, 0], y_score=[0.2, 0.9, 0.5]))


def test_settings_and_empty_stream_errors():
    with pytest.raises(ValueError, match="mode must be"):
        StreamingEvaluation(mode="fast")
    with pytest.raises(ValueError, match="bits must be"):
        StreamingEvaluation(bits=0)
    with pytest.raises(ValueError, match="max_distinct"):
        StreamingEvaluation(max_distinct=0)
    with pytest.raises(ValueError, match="nothing to evaluate"):
        StreamingEvaluation().result()
    with pytest.raises(ValueError, match="multilabel"):
        StreamingEvaluation().update([[0, 1], [1, 1]], [[0, 1], [1, 0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        StreamingEvaluation().update([0, 1], [0, 1]).result()  # no warning on a plain stream


# ---------------------------------------------------------------------------------------------
# binned scores: the switch, the values, the bounds
# ---------------------------------------------------------------------------------------------


def without_binning(d: dict) -> dict:
    d = dict(d)
    d.pop("binning", None)
    d["report"] = {**d["report"], "notes": [n for n in d["report"]["notes"] if not n.startswith("Scores binned")]}
    cal = d.get("calibration")
    if cal and cal.get("corp"):  # smooth ECE and CORP name the binned scores they read
        d["calibration"] = {**cal, "smooth_ece": {**cal["smooth_ece"], "grouping": "distinct probabilities"},
                            "corp": {**cal["corp"], "grouping": "distinct probabilities"}}
    return d


@settings(max_examples=30, deadline=None)
@given(data=st.data(), n=st.integers(4, 120), bits=st.integers(1, 8))
def test_binned_stream_is_evaluate_on_binned_scores_with_bounds_around_the_truth(data, n, bits):
    from clfeval.statistics.binning import quantize

    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    p = rng.random(n)
    s = stream([(y[c], None, p[c]) for c in cuts(n, data)], labels=[0, 1], mode="binned", bits=bits)
    ev = s.result()
    binned = clfeval.evaluate(y, y_score=quantize(p, bits), labels=[0, 1])
    assert without_binning(plain(ev)) == plain(binned)
    truth = clfeval.evaluate(y, y_score=p)
    b = ev.binning["1"]
    assert b.auc_low <= truth.report.overall["roc_auc"] <= b.auc_high
    assert b.ap_low <= truth.report.overall["average_precision"] <= b.ap_high
    assert ev.confusion.counts.tolist() == truth.confusion.counts.tolist()  # predictions from raw scores
    assert plain(ev)["binning"]["1"]["auc_width"] == pytest.approx(b.auc_width)


def test_auto_mode_switches_with_one_warning_and_says_so():
    y = RNG.integers(0, 2, 4000)
    p = np.clip(0.3 * y + 0.7 * RNG.random(4000), 0, 1)
    s = StreamingEvaluation(max_distinct=1000, bits=10)
    with pytest.warns(clfeval.exceptions.ScoresBinnedWarning, match="more than 1000 distinct scores") as record:
        for i in range(0, 4000, 500):
            s.update(y[i:i + 500], y_score=p[i:i + 500])
    assert len(record) == 1 and s.binned
    ev = s.result()
    assert any("after 1500 rows (more than 1000 distinct scores)" in n for n in ev.report.notes)
    truth = clfeval.evaluate(y, y_score=p)
    b = ev.binning["1"]
    assert b.auc_low <= truth.report.overall["roc_auc"] <= b.auc_high and b.auc_width < 1e-2
    assert b.ap_low <= truth.report.overall["average_precision"] <= b.ap_high
    assert ev.confusion.counts.tolist() == truth.confusion.counts.tolist()
    assert s.distinct_scores <= 2 ** 10 * 12  # bins, not rows
    # an exact stream merged into a binned one is binned too; the bounds still hold
    exact = StreamingEvaluation(max_distinct=1000, bits=10).update(y[:300], y_score=p[:300])
    both = exact.merge(s)
    assert both.binned and both.n_samples == 4300
    truth = clfeval.evaluate(np.r_[y[:300], y], y_score=np.r_[p[:300], p])
    b = both.result().binning["1"]
    assert b.auc_low <= truth.report.overall["roc_auc"] <= b.auc_high


def test_binned_stream_with_a_threshold_off_the_grid_predicts_from_raw_scores():
    y = RNG.integers(0, 2, 500)
    p = RNG.random(500)
    s = stream([(y[i:i + 100], None, p[i:i + 100]) for i in range(0, 500, 100)], labels=[0, 1], mode="binned",
               bits=2, threshold=0.3)
    ev = s.result()
    assert ev.threshold == 0.3
    assert ev.confusion.counts.tolist() == clfeval.evaluate(y, y_score=p, threshold=0.3).confusion.counts.tolist()


def test_multiclass_binned_bounds_per_class():
    y = RNG.integers(0, 3, 600)
    proba = RNG.dirichlet(np.ones(3), 600)
    ev = stream([(y[i:i + 200], None, proba[i:i + 200]) for i in range(0, 600, 200)], labels=[0, 1, 2],
                mode="binned", bits=3).result()
    truth = clfeval.evaluate(y, y_score=proba)
    for c in ("0", "1", "2"):
        b, ranking = ev.binning[c], truth.ranking(c)
        assert b.auc_low <= ranking.roc_auc <= b.auc_high and b.auc_width > 0
        assert b.ap_low <= ranking.average_precision <= b.ap_high


def test_zero_weight_batches_count_rows_and_add_nothing():
    y, p = np.array([0, 1, 1, 0]), np.array([0.2, 0.9, 0.6, 0.4])
    s = stream([(y, None, p, np.ones(4)), (np.array([1, 2]), None, np.array([0.1, 0.3]), np.zeros(2))],
               labels=[0, 1, 2]) if False else None
    s = StreamingEvaluation(labels=[0, 1])
    s.update(y, y_score=p, sample_weight=np.ones(4)).update([1, 0], y_score=[0.1, 0.3], sample_weight=[0, 0])
    want = clfeval.evaluate(np.r_[y, [1, 0]], y_score=np.r_[p, [0.1, 0.3]], sample_weight=np.r_[np.ones(4), [0, 0]])
    assert_same(s.result(), want, exact=False)
    with pytest.raises(ValueError, match="zero for all 2 rows"):
        StreamingEvaluation(labels=[0, 1]).update([1, 0], y_score=[0.1, 0.3], sample_weight=[0, 0]).result()


def test_string_labels_pos_label_kept_and_warn_off():
    yt = np.array(["no", "yes", "yes", "no"], dtype=object)
    s = StreamingEvaluation(pos_label="yes").update(yt, y_score=[0.1, 0.8, 0.7, 0.3])
    assert s.result().pos_label == "yes"
    a = StreamingEvaluation().update([0, 0], [0, 0])
    b = StreamingEvaluation().update([0, 1], [1, 1])
    assert a.merge(b).result().pos_label == clfeval.evaluate([0, 0, 0, 1], [0, 0, 1, 1]).pos_label
    quiet = StreamingEvaluation(max_distinct=2, warn=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet.update([0, 1, 0, 1], y_score=[0.1, 0.2, 0.3, 0.4])
    assert quiet.binned


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_merging_two_runs_equals_merging_by_sorting(data):
    from clfeval.statistics.ranking_merges import merge_rankings, merge_two

    def ranking():
        n = data.draw(st.integers(0, 30))
        s = np.array(data.draw(st.lists(st.sampled_from(np.linspace(0, 1, 21).tolist()), min_size=n, max_size=n)))
        y = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
        kind = data.draw(st.sampled_from(["compact", "counts", "weights"]))
        if kind == "weights":
            w = np.array(data.draw(st.lists(st.floats(0.1, 3.0), min_size=n, max_size=n)))
            return clfeval.evaluate(y.astype(int), y_score=s, sample_weight=w, labels=[0, 1]).ranking("1") if n else None
        if kind == "compact":
            if n == 0:
                return None
            s = np.unique(s)[::-1].copy()
            y = y[:s.size]
            from clfeval.statistics.rankings import BinaryRanking
            return BinaryRanking(s, None, y)
        return clfeval.evaluate(y.astype(int), y_score=s, labels=[0, 1]).ranking("1") if n else None

    a, b = ranking(), ranking()
    if a is None or b is None:
        return
    got, want = merge_two(a, b), merge_rankings([a, b])
    assert got.scores.tolist() == want.scores.tolist()
    np.testing.assert_allclose(np.asarray(got.pos, dtype=float), np.asarray(want.pos, dtype=float), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(got.negatives(), dtype=float), np.asarray(want.negatives(), dtype=float),
                               rtol=1e-12)


def test_binned_binary_batch_errors_leave_the_state_unchanged():
    s = StreamingEvaluation(labels=[0, 1], mode="binned", bits=4).update([0, 1, 1], y_score=[0.2, 0.8, 0.6])
    before = plain(s.result())
    with pytest.raises(ValueError, match="2 samples"):
        s.update([0, 1, 1], y_score=[0.1, 0.2])
    with pytest.raises(ValueError, match="infinite|NaN|missing"):
        s.update([0, 1], y_score=[0.1, np.inf])
    with pytest.raises(ValueError, match="pass threshold="):
        s.update([0, 1], y_score=[-1.5, 2.0])
    with pytest.raises(ValueError, match="same score columns"):
        s.update([0, 1], y_score=[[0.9, 0.1], [0.2, 0.8]])
    with pytest.raises(ValueError, match="not one of|classes"):
        s.update([0, 2], y_score=[0.1, 0.2])
    assert plain(s.result()) == before and s.n_samples == 3


def test_distinct_scores_count_a_score_held_in_several_runs_once_and_do_not_bin_early():
    """The state keeps sorted runs merged lazily; distinct_scores summed the runs' sizes (742,672 for
    561,762 distinct scores in the gallery's stream, and not monotone), and mode="auto" binned on
    that sum. Here a first batch holds 100 scores and later small batches repeat some of them:
    100 distinct scores throughout, under max_distinct=110, so nothing is binned."""
    rng = np.random.default_rng(3)
    scores = np.unique(np.round(rng.random(100), 6))
    s = StreamingEvaluation(max_distinct=110)
    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a ScoresBinnedWarning would fail here
        s.update(rng.permutation(np.arange(scores.size) % 2), y_score=scores)
        for _ in range(30):
            s.update(np.r_[0, 1, rng.integers(0, 2, 8)], y_score=rng.choice(scores, 10, replace=False))
            seen.append(s.distinct_scores)
    assert seen == [scores.size] * 30
    assert not s.binned
    big = StreamingEvaluation(max_distinct=60)
    with pytest.warns(clfeval.ScoresBinnedWarning):
        for _ in range(3):
            big.update(np.r_[0, 1, rng.integers(0, 2, 28)], y_score=rng.random(30))
    assert big.binned
