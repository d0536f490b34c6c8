"""Streams and Dask keep one state per group: each group's numbers equal ``evaluate(..., groups=)``'s.

The oracle is :func:`clfeval.evaluate` with ``groups=`` on all rows at once (its groups are checked
against ``evaluate`` on each group's rows in tests/test_groups.py): integer counts exactly, float
weights to 1e-12 relative (sums in another order). Batches split anywhere, a group first seen in the
last batch, batches without some groups, merged streams and Dask partitions all give the same.
"""

from __future__ import annotations

import itertools
import sys
import warnings
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from evaluation_equality import assert_close, assert_same, plain, without_binned_calibration
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import clfeval
from clfeval.evaluation import json_safe
from clfeval.evaluation.group_streams import GroupStreams
from clfeval.exceptions import ValuesError
from clfeval.streaming import StreamingEvaluation

pytestmark = pytest.mark.filterwarnings("ignore::clfeval.exceptions.UndefinedMetricWarning")

RNG = np.random.default_rng(11)
REL = 1e-12  # float weights: the same sums in another order


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def stream_of(y, p, s, w, g, edges, **options) -> StreamingEvaluation:
    """A stream fed the rows in batches [edges[i], edges[i+1])."""
    out = StreamingEvaluation(**{"groups": True, **options})
    for a, b in itertools.pairwise(edges):
        yb, pb, sb, wb, gb = (None if x is None else x[a:b] for x in (y, p, s, w, g))
        out.update(yb, pb, sb, sample_weight=wb, groups=gb)
    return out


def without_groups(ev: clfeval.Evaluation) -> clfeval.Evaluation:
    return replace(ev, by_group=None)


def same(got: clfeval.Evaluation, want: clfeval.Evaluation, exact: bool) -> None:
    """Equal plain forms: exactly for counts (the calibration histogram to rounding), else to REL."""
    if exact:
        assert_same(got, want)
        return
    a, b = plain(got), plain(want)
    ca, cb = a.pop("calibration"), b.pop("calibration")
    without_binned_calibration(ca, cb)
    assert_close(a, b, rel=REL)
    assert_close(ca, cb)  # bins of |accuracy - confidence|: differences of sums, to 1e-9


def assert_groups_equal(got: clfeval.Evaluation, want: clfeval.Evaluation, exact: bool = True) -> None:
    """The stream's overall and each group's Evaluation equal in-memory, and so do their tables."""
    gb, wb = got.by_group, want.by_group
    assert list(gb) == list(wb)
    assert gb.names == wb.names
    assert gb.keys.columns == wb.keys.columns
    assert gb.keys.sizes.tolist() == wb.keys.sizes.tolist()
    same(without_groups(got), without_groups(want), exact)
    for key in wb:
        g, w = gb[key], wb[key]
        assert g.name == w.name
        assert g.labels.tolist() == w.labels.tolist() and g.pos_label == w.pos_label
        assert g.threshold == w.threshold and g.n_samples == w.n_samples
        if exact:
            assert json_safe(g.report.to_dict()) == json_safe(w.report.to_dict())  # NaN as null
            assert np.asarray(g.confusion.counts).tolist() == np.asarray(w.confusion.counts).tolist()
        else:
            assert_close(plain(g)["report"], plain(w)["report"], rel=REL)
            np.testing.assert_allclose(np.asarray(g.confusion.counts, dtype=float),
                                       np.asarray(w.confusion.counts, dtype=float), rtol=REL)
        for metric in ("roc_auc", "average_precision"):
            if metric in w.report.overall:
                a, b = g.report.overall[metric], w.report.overall[metric]
                assert a == b or np.isnan(a) and np.isnan(b) if exact else \
                    a == pytest.approx(b, rel=REL, abs=1e-15, nan_ok=True)
        same(g, w, exact)
    tg, tw = gb.table(), wb.table()
    assert tg.metrics == tw.metrics and tg.groups == tw.groups and tg.keys == tw.keys
    assert tg.n.tolist() == tw.n.tolist()
    if exact:
        np.testing.assert_array_equal(tg.values, tw.values)
    else:
        np.testing.assert_allclose(tg.values, tw.values, rtol=REL, atol=1e-15)
    if exact and want.sample_weight is None:  # a weighted stream keeps weight sums, not rows, per class
        assert {k: v.tolist() for k, v in tg.support.items()} == {k: v.tolist() for k, v in tw.support.items()}
        assert tg.small.tolist() == tw.small.tolist()


def weights(kind: str | None, n: int, rng) -> np.ndarray | None:
    if kind is None:
        return None
    if kind == "int":
        return rng.integers(1, 5, n)
    return rng.random(n) * 3 + 0.01


def grouped_rows(n: int, rng, late: int, only_u: slice) -> np.ndarray:
    """Groups u, v, w; the rows in ``only_u`` are all u (a batch without v and w) and the last
    ``late`` rows form the group "late" (seen only in the last batch)."""
    g = rng.choice(np.array(["u", "v", "w"], dtype=object), n)
    g[only_u] = "u"
    g[n - late:] = "late"
    return g


# ---------------------------------------------------------------------------------------------
# streams in batches equal evaluate(groups=)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("weight", [None, "int", "float"])
def test_binary_scores_by_group(weight):
    rng = np.random.default_rng(1)
    n = 500
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n) * 0.6 + y * 0.3, 2)  # ties, and some skill
    g = grouped_rows(n, rng, late=40, only_u=slice(120, 200))
    w = weights(weight, n, rng)
    edges = [0, 120, 200, 330, 460, n]  # the second batch is all u; the last brings "late"
    got = stream_of(y, None, s, w, g, edges).result()
    want = clfeval.evaluate(y, y_score=s, sample_weight=w, groups=g)
    assert list(got.by_group) == ["late", "u", "v", "w"]
    assert_groups_equal(got, want, exact=weight != "float")
    same(without_groups(got), clfeval.evaluate(y, y_score=s, sample_weight=w), exact=weight != "float")
    # the numbers are the groups' own (scikit-learn on the late rows)
    late = g == "late"
    auc = skm.roc_auc_score(y[late], s[late], sample_weight=None if w is None else w[late])
    ap = skm.average_precision_score(y[late], s[late], sample_weight=None if w is None else w[late])
    assert got.by_group["late"].report.overall["roc_auc"] == pytest.approx(auc, rel=1e-12)
    assert got.by_group["late"].report.overall["average_precision"] == pytest.approx(ap, rel=1e-12)
    aucs = {k: got.by_group[k].report.overall["roc_auc"] for k in got.by_group}
    assert len(set(aucs.values())) == 4  # four different groups, not four copies of the overall
    # the fairness summaries read the same counts
    fg, fw = got.by_group.fairness(n_resamples=50).entries, want.by_group.fairness(n_resamples=50).entries
    for name in fw:
        assert fg[name]["value"] == pytest.approx(fw[name]["value"], rel=REL)


@pytest.mark.parametrize("weight", [None, "int", "float"])
def test_multiclass_probabilities_by_group(weight):
    rng = np.random.default_rng(2)
    n, k = 600, 4
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)  # the first batch fixes the classes (scores need them)
    proba = rng.dirichlet(np.ones(k), n).round(2)
    proba /= proba.sum(axis=1, keepdims=True)
    g = grouped_rows(n, rng, late=60, only_u=slice(100, 250))
    w = weights(weight, n, rng)
    edges = [0, 100, 250, 400, 540, n]
    got = stream_of(y, None, proba, w, g, edges).result()
    want = clfeval.evaluate(y, y_score=proba, sample_weight=w, groups=g)
    assert_groups_equal(got, want, exact=weight != "float")
    ovr = got.by_group["v"].report.overall["roc_auc"]
    oracle = skm.roc_auc_score(y[g == "v"], proba[g == "v"], multi_class="ovr", average="macro",
                               sample_weight=None if w is None else w[g == "v"])
    assert ovr == pytest.approx(oracle, rel=1e-12)


@pytest.mark.parametrize("weight", [None, "int", "float"])
def test_predictions_with_classes_found_late(weight):
    # no labels=: the stream learns the classes; "c" and the group "late" appear only at the end,
    # so the earlier groups' states are read over the final classes
    rng = np.random.default_rng(3)
    n = 300
    y = rng.choice(np.array(["a", "b"], dtype=object), n)
    p = rng.choice(np.array(["a", "b"], dtype=object), n)
    y[250:] = rng.choice(np.array(["a", "b", "c"], dtype=object), 50)
    p[260:] = "c"
    g = grouped_rows(n, rng, late=30, only_u=slice(80, 150))
    w = weights(weight, n, rng)
    got = stream_of(y, p, None, w, g, [0, 80, 150, 240, 270, n], name="m").result()
    want = clfeval.evaluate(y, p, sample_weight=w, groups=g, name="m")
    assert got.by_group["u"].labels.tolist() == ["a", "b", "c"]
    assert got.by_group["u"].name == "m: u"
    assert_groups_equal(got, want, exact=weight != "float")


def test_decision_values_cut_where_the_overall_cuts_them():
    # the group "unit"'s scores all lie in [0, 1]: alone they would be cut at 0.5; the stream's
    # decision values (every batch has negative ones) are cut at 0, and so is each group
    rng = np.random.default_rng(4)
    n = 200
    y = rng.integers(0, 2, n)
    g = rng.choice(np.array(["real", "unit"], dtype=object), n)
    s = np.where(g == "real", np.round(rng.normal(size=n), 2), np.round(rng.random(n), 2))
    got = stream_of(y, None, s, None, g, [0, 50, 120, n]).result()
    want = clfeval.evaluate(y, y_score=s, groups=g)
    assert want.by_group["unit"].threshold == 0.0 == got.by_group["unit"].threshold
    assert clfeval.evaluate(y[g == "unit"], y_score=s[g == "unit"]).threshold == 0.5
    assert_groups_equal(got, want)


@st.composite
def batched_data(draw):
    task = draw(st.sampled_from(["binary-scores", "binary-pred", "multiclass"]))
    weight = draw(st.sampled_from([None, "int", "float"]))
    n = draw(st.integers(8, 90))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    g = rng.choice(np.array(["x", "y", "z"][:draw(st.integers(1, 3))], dtype=object), n)
    k = 2 if task.startswith("binary") else 3
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    p = s = None
    if task == "binary-scores":
        s = np.round(rng.random(n), 1)
    elif task == "binary-pred":
        p = rng.integers(0, 2, n)
    else:
        s = rng.dirichlet(np.ones(k), n).round(2)
        s /= s.sum(axis=1, keepdims=True)
    points = sorted(set(draw(st.lists(st.integers(1, n - 1), max_size=6))))
    return task, y, p, s, weights(weight, n, rng), g, [0, *points, n]


@settings(max_examples=60, deadline=None)
@given(data=batched_data())
def test_any_batches_give_each_group_its_numbers(data):
    task, y, p, s, w, g, edges = data
    exact = w is None or w.dtype.kind != "f"
    # scores need the classes from the first batch; predictions alone learn them batch by batch
    labels = None if task == "binary-pred" else [0, 1] if task == "binary-scores" else [0, 1, 2]
    got = stream_of(y, p, s, w, g, edges, labels=labels).result()
    want = clfeval.evaluate(y, p, s, sample_weight=w, groups=g)
    assert_groups_equal(got, want, exact=exact)
    one = stream_of(y, p, s, w, g, [0, len(y)], labels=labels)
    for key in want.by_group:  # any split gives what one batch gives
        same(got.by_group[key], one.result().by_group[key], exact)


# ---------------------------------------------------------------------------------------------
# merging, group columns, the tables of a stream
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("weight", [None, "float"])
def test_merged_streams_join_their_groups(weight):
    rng = np.random.default_rng(5)
    n = 400
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n), 2)
    g = grouped_rows(n, rng, late=50, only_u=slice(0, 0))
    g[:100] = rng.choice(np.array(["only-first", "u"], dtype=object), 100)  # a group only the first stream sees
    w = weights(weight, n, rng)
    first = stream_of(y[:200], None, s[:200], None if w is None else w[:200], g[:200], [0, 90, 200])
    second = stream_of(y[200:], None, s[200:], None if w is None else w[200:], g[200:], [0, 120, 200])
    before = first.result()
    merged = first.merge(second)
    assert sorted(merged.groups.states) == ["late", "only-first", "u", "v", "w"]
    assert_groups_equal(merged.result(), clfeval.evaluate(y, y_score=s, sample_weight=w, groups=g),
                        exact=weight is None)
    assert_groups_equal(first.result(), before)  # merging changed neither stream
    assert len(second.groups) == 4
    # an empty stream merges as nothing
    empty = StreamingEvaluation(groups=True)
    assert_groups_equal(empty.merge(merged).result(), merged.result())
    assert_groups_equal(merged.merge(empty).result(), merged.result())
    with pytest.raises(ValueError, match="keeps groups with one that does not"):
        first.merge(StreamingEvaluation())


def test_several_group_columns_and_missing_values():
    rng = np.random.default_rng(6)
    n = 300
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n), 2)
    frame = pd.DataFrame({"noise": rng.random(n), "sex": rng.choice(["F", "M"], n),
                          "age": rng.choice([30, 50, None], n)})
    frame.loc[:99, "age"] = 30  # the first batch has no missing age
    stream = StreamingEvaluation(groups=["sex", "age"], group_missing="keep", labels=[0, 1])
    for a, b in [(0, 100), (100, 230), (230, n)]:  # DataFrames with an extra column, columns in another order
        stream.update(y[a:b], y_score=s[a:b], groups=frame.iloc[a:b][["age", "noise", "sex"]])
    got = stream.result()
    want = clfeval.evaluate(y, y_score=s, labels=[0, 1], groups=frame[["sex", "age"]], group_missing="keep")
    assert got.by_group.keys.keys == want.by_group.keys.keys
    assert ("F", None) in got.by_group and got.by_group.names[1] == "F, 50"
    assert_groups_equal(got, want)
    # a mapping name -> array, and one unnamed array named by the stream
    m = StreamingEvaluation(groups=["sex", "age"], group_missing="keep", labels=[0, 1])
    for a, b in [(0, 150), (150, n)]:
        m.update(y[a:b], y_score=s[a:b], groups={"age": frame["age"][a:b].tolist(), "sex": frame["sex"][a:b].to_numpy()})
    assert_groups_equal(m.result(), want)
    one = StreamingEvaluation(groups="sex", labels=[0, 1])
    for a, b in [(0, 150), (150, n)]:
        one.update(y[a:b], y_score=s[a:b], groups=frame["sex"].to_numpy()[a:b])
    assert_groups_equal(one.result(), clfeval.evaluate(y, y_score=s, labels=[0, 1], groups=frame["sex"]))


def test_a_streams_tables():
    rng = np.random.default_rng(7)
    n = 240
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n), 2)
    g = rng.choice(np.array(["a", "b"], dtype=object), n)
    got = stream_of(y, None, s, None, g, [0, 100, n], labels=[0, 1]).result()
    want = clfeval.evaluate(y, y_score=s, labels=[0, 1], groups=g)
    assert repr(got.by_group) == repr(want.by_group)
    assert got.by_group.keys.codes.shape == (0,) and got.by_group.keys.codes.dtype == np.int64
    # analytic intervals of an unweighted binary stream: each group's own, as in memory
    tg, tw = got.by_group.table(["accuracy", "roc_auc"], ci=0.9), want.by_group.table(["accuracy", "roc_auc"], ci=0.9)
    np.testing.assert_array_equal(tg.values, tw.values)
    np.testing.assert_allclose(tg.low, tw.low, rtol=1e-12)
    np.testing.assert_allclose(tg.high, tw.high, rtol=1e-12)
    assert got.by_group.worst("recall").group == want.by_group.worst("recall").group
    with pytest.raises(ValueError, match="a stream does not keep"):
        got.by_group.gaps("accuracy")
    d = got.to_dict()
    assert "error" in d["groups"]["gaps"]["accuracy"] and d["groups"]["table"] == want.to_dict()["groups"]["table"]


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------


def test_bad_groups_leave_the_stream_as_it_was():
    y, s, g = np.array([0, 1, 1, 0]), np.array([0.1, 0.8, 0.6, 0.3]), np.array(["a", "a", "b", "b"])
    with pytest.raises(ValueError, match="keeps no groups"):
        StreamingEvaluation().update(y, y_score=s, groups=g)
    with pytest.raises(TypeError, match="group column name"):
        StreamingEvaluation(groups=3)
    with pytest.raises(ValueError, match="group_missing must be"):
        StreamingEvaluation(groups=True, group_missing="drop")
    stream = StreamingEvaluation(groups=True, labels=[0, 1]).update(y, y_score=s, groups=g)
    want = plain(without_groups(stream.result()))
    with pytest.raises(ValueError, match="pass each batch's groups"):
        stream.update(y, y_score=s)
    with pytest.raises(ValuesError, match="1 missing value"):
        stream.update(y, y_score=s, groups=np.array(["a", None, "b", "b"], dtype=object))
    with pytest.raises(ValueError, match="has 4 samples but group column"):
        stream.update(y, y_score=s, groups=["a", "b"])
    with pytest.raises(ValueError, match="group columns"):
        stream.update(y, y_score=s, groups={"x": g, "z": g})
    named = StreamingEvaluation(groups=["site"], labels=[0, 1])
    with pytest.raises(ValueError, match="no column 'site'"):
        named.update(y, y_score=s, groups=pd.DataFrame({"place": g}))
    assert stream.n_samples == 4 and len(stream.groups) == 2
    assert plain(without_groups(stream.result())) == want
    assert stream.result().by_group["a"].n_samples == 2


def test_group_streams_alone():
    gs = GroupStreams.declared(["k"], "error")
    keys = gs.keys_of(np.array([2, 1, 2]), 3)
    assert keys.columns == ["k"]
    gs2 = gs.updated(keys, lambda state, rows: (state or 0) + rows.size)
    assert gs.states == {} and gs2.states == {1: 1, 2: 2}  # updated is not in place
    merged = gs2.merged(GroupStreams(["k"], "error", {3: 5, 1: 1}), lambda a, b: a + b)
    assert merged.states == {1: 2, 2: 2, 3: 5}
    assert merged.sorted_keys(lambda v: v).keys == [1, 2, 3]
    assert GroupStreams.declared(None, "error") is None and GroupStreams.declared(False, "keep") is None
    with pytest.raises(ValueError, match="grouped differently"):
        gs2.merged(GroupStreams(["other"], "error"), lambda a, b: a)


# ---------------------------------------------------------------------------------------------
# Dask: per-partition group states merged in the tree
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def sync():
    dask = pytest.importorskip("dask")
    pytest.importorskip("dask.dataframe")
    with dask.config.set(scheduler="synchronous"):
        yield


def grouped_frame(n: int, seed: int, weight: str | None):
    rng = np.random.default_rng(seed)
    k = 3
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    proba = rng.dirichlet(np.ones(k), n).round(3)
    proba /= proba.sum(axis=1, keepdims=True)
    pdf = pd.DataFrame({"y": y, "p0": proba[:, 0], "p1": proba[:, 1], "p2": proba[:, 2],
                        "site": grouped_rows(n, rng, late=n // 10, only_u=slice(n // 5, 2 * n // 5)),
                        "sex": rng.choice(["F", "M"], n)})
    pdf["yb"] = (y == 2).astype(int)
    pdf["pb"] = proba[:, 2]
    if weight is not None:
        pdf["w"] = weights(weight, n, rng)
    return pdf


@pytest.mark.parametrize("weight", [None, "int", "float"])
def test_dask_data_frame_groups(sync, weight):
    import dask.dataframe as dd

    from clfeval.dask import evaluate as dask_evaluate

    pdf = grouped_frame(600, 8, weight)
    df = dd.from_pandas(pdf, npartitions=7)  # a partition of u only; "late" only in the last partitions
    w = None if weight is None else "w"
    pw = None if weight is None else pdf["w"]
    exact = weight != "float"
    got = dask_evaluate("y", y_score=["p0", "p1", "p2"], sample_weight=w, data=df, groups="site", split_every=2)
    want = clfeval.evaluate(pdf["y"], y_score=pdf[["p0", "p1", "p2"]], sample_weight=pw, groups=pdf["site"])
    assert_groups_equal(got, want, exact=exact)
    got = dask_evaluate("yb", y_score="pb", sample_weight=w, data=df, groups=["site", "sex"])
    want = clfeval.evaluate(pdf["yb"], y_score=pdf["pb"], sample_weight=pw, groups=pdf[["site", "sex"]])
    assert_groups_equal(got, want, exact=exact)
    # Series taken from the dask DataFrame, and the lazy statistics
    from clfeval.dask import statistics

    got = dask_evaluate(df["yb"], y_score=df["pb"], groups=df["site"], labels=[0, 1])
    want = clfeval.evaluate(pdf["yb"], y_score=pdf["pb"], labels=[0, 1], groups=pdf["site"])
    assert_groups_equal(got, want)
    import dask

    (stream,) = dask.compute(statistics(df["yb"], y_score=df["pb"], groups=df[["site", "sex"]], labels=[0, 1]))
    assert_groups_equal(stream.result(), clfeval.evaluate(pdf["yb"], y_score=pdf["pb"], labels=[0, 1],
                                                          groups=pdf[["site", "sex"]]))


def test_dask_arrays_and_bad_groups(sync):
    import dask.array as da
    import dask.dataframe as dd

    from clfeval.dask import evaluate as dask_evaluate

    rng = np.random.default_rng(9)
    n = 300
    y = rng.integers(0, 2, n)
    p = rng.integers(0, 2, n)
    g = rng.integers(0, 3, n)
    got = dask_evaluate(da.from_array(y, chunks=70), da.from_array(p, chunks=70), groups=da.from_array(g, chunks=70))
    assert_groups_equal(got, clfeval.evaluate(y, p, groups=g))
    assert got.by_group.keys.keys == [0, 1, 2]
    df = dd.from_pandas(pd.DataFrame({"y": y, "p": p, "g": pd.array(np.where(g == 1, None, g), dtype="Int64")}),
                        npartitions=3)
    with pytest.raises(ValuesError, match="missing value") as info:
        dask_evaluate("y", "p", data=df, groups="g")
    assert g[info.value.row] == 1  # the row of all the data (of the partition that failed first)
    kept = dask_evaluate("y", "p", data=df, groups="g", group_missing="keep")
    assert kept.by_group.names == ["0", "2", "(missing)"]
    with pytest.raises(ValueError, match="no such column"):
        dask_evaluate("y", "p", data=df, groups="nope")
    with pytest.raises(TypeError, match="groups must be a dask"):
        dask_evaluate(da.from_array(y, chunks=70), da.from_array(p, chunks=70), groups=g)


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import this module
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                      silence_logs=50) as lc, distributed.Client(lc, set_as_default=False) as client:
            yield lc, client


def test_cluster_gives_each_group_its_numbers(cluster):
    import dask.dataframe as dd

    from clfeval.dask import evaluate as dask_evaluate

    _, client = cluster
    client.wait_for_workers(2, timeout=60)
    pdf = grouped_frame(800, 10, "int")
    df = dd.from_pandas(pdf, npartitions=9)
    got = dask_evaluate("y", y_score=["p0", "p1", "p2"], sample_weight="w", data=df, groups=["site", "sex"],
                        client=client, split_every=3)
    want = clfeval.evaluate(pdf["y"], y_score=pdf[["p0", "p1", "p2"]], sample_weight=pdf["w"],
                            groups=pdf[["site", "sex"]])
    assert_groups_equal(got, want)
