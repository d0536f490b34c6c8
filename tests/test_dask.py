"""clfeval.dask: per-partition statistics merged in a tree equal clfeval.evaluate on all rows.

The oracle is clfeval.evaluate on the computed in-memory arrays: counts exactly, float weights to
rounding of the sums' order. Most tests run on dask's synchronous scheduler; a module-scoped
LocalCluster (two worker processes) checks the distributed path, including a worker killed in the
middle of a computation.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

import cloudpickle  # noqa: E402
import dask  # noqa: E402
import dask.array as da  # noqa: E402
import dask.dataframe as dd  # noqa: E402
import pandas as pd  # noqa: E402

import clfeval  # noqa: E402
from clfeval.dask import evaluate, evaluate_file, statistics  # noqa: E402
from evaluation_equality import assert_same, plain  # noqa: E402
from clfeval.exceptions import ScoresBinnedWarning  # noqa: E402
from clfeval.streaming import StreamingEvaluation  # noqa: E402
from clfeval.inputs.tabular import read_predictions  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::clfeval.UndefinedMetricWarning")

# worker processes cannot import this test module: ship its functions by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])

RNG = np.random.default_rng(7)


@pytest.fixture
def sync():
    with dask.config.set(scheduler="synchronous"):
        yield


def binary_data(n=700):
    y = RNG.integers(0, 2, n)
    p = np.round(RNG.random(n), 2)
    return y, p


def multiclass_data(n=600, k=4):
    y = RNG.integers(0, k, n)
    proba = np.round(RNG.dirichlet(np.ones(k), n), 3)
    proba /= proba.sum(axis=1, keepdims=True)
    return y, proba


# ---------------------------------------------------------------------------------------------
# dask arrays on the synchronous scheduler
# ---------------------------------------------------------------------------------------------


def test_binary_scores(sync):
    y, p = binary_data()
    chunks = ((100, 37, 213, 50, 300),)
    got = evaluate(da.from_array(y, chunks=chunks), y_score=da.from_array(p, chunks=chunks), split_every=2)
    assert_same(got, clfeval.evaluate(y, y_score=p))
    # options go through; chunks of the same length are aligned to y_true's
    got = evaluate(da.from_array(y, chunks=100), y_score=da.from_array(p, chunks=170), threshold=0.3, beta=2.0,
                   name="m")
    assert_same(got, clfeval.evaluate(y, y_score=p, threshold=0.3, beta=2.0, name="m"))


def test_decision_values_cut_where_evaluate_cuts_them(sync):
    # one chunk's decision values all lie in [0, 1]: on its own it would be cut at 0.5, not 0
    y = RNG.integers(0, 2, 400)
    s = np.round(RNG.normal(size=400), 2)
    s[:100] = np.round(RNG.random(100), 2)
    got = evaluate(da.from_array(y, chunks=100), y_score=da.from_array(s, chunks=100))
    want = clfeval.evaluate(y, y_score=s)
    assert want.threshold == 0.0
    assert_same(got, want)


def test_multiclass_probabilities(sync):
    y, proba = multiclass_data()
    # chunked along the classes too: rechunked so that each row's scores are in one chunk
    got = evaluate(da.from_array(y, chunks=90), y_score=da.from_array(proba, chunks=(90, 2)), split_every=3)
    want = clfeval.evaluate(y, y_score=proba)
    assert_same(got, want)
    assert got.calibration(10).ece == pytest.approx(want.calibration(10).ece, rel=1e-9)


def test_predictions_only_with_string_labels(sync):
    y = RNG.choice(np.array(["ant", "bee", "cat"]), 500)
    pred = RNG.choice(np.array(["ant", "bee", "cat", "dog"]), 500)  # "dog" is never true
    got = evaluate(da.from_array(y, chunks=64), da.from_array(pred, chunks=64))
    want = clfeval.evaluate(y, pred)
    assert got.labels.tolist() == ["ant", "bee", "cat", "dog"]
    assert_same(got, want)
    got = evaluate(da.from_array(y, chunks=64), da.from_array(pred, chunks=64), labels=["dog", "cat", "bee", "ant"])
    assert_same(got, clfeval.evaluate(y, pred, labels=["dog", "cat", "bee", "ant"]))


def test_weights(sync):
    y, p = binary_data(500)
    w = RNG.random(500) + 0.01
    got = evaluate(da.from_array(y, chunks=60), y_score=da.from_array(p, chunks=60),
                   sample_weight=da.from_array(w, chunks=60))
    assert_same(got, clfeval.evaluate(y, y_score=p, sample_weight=w), exact=False)
    # integer weights keep exact counts
    pred = RNG.integers(0, 2, 500)
    wi = RNG.integers(1, 4, 500)
    got = evaluate(da.from_array(y, chunks=60), da.from_array(pred, chunks=60), sample_weight=da.from_array(wi, chunks=60))
    want = clfeval.evaluate(y, pred, sample_weight=wi)
    assert got.confusion.counts.tolist() == want.confusion.counts.tolist()
    assert_same(got, want, exact=False)


def test_partitions_missing_classes(sync):
    # sorted labels: each chunk holds one or two classes, the first only class 0
    y, proba = multiclass_data(400, 3)
    order = np.argsort(y, kind="stable")
    y, proba = y[order], proba[order]
    got = evaluate(da.from_array(y, chunks=50), y_score=da.from_array(proba, chunks=50))
    assert_same(got, clfeval.evaluate(y, y_score=proba))
    # binary scores, and predictions only, with one class per chunk
    yb, p = binary_data(300)
    order = np.argsort(yb, kind="stable")
    yb, p = yb[order], p[order]
    got = evaluate(da.from_array(yb, chunks=50), y_score=da.from_array(p, chunks=50))
    assert_same(got, clfeval.evaluate(yb, y_score=p))
    pred = (p > 0.5).astype(int)
    got = evaluate(da.from_array(yb, chunks=50), da.from_array(pred, chunks=50))
    assert_same(got, clfeval.evaluate(yb, pred))


def test_dask_dataframe_and_series(sync):
    y, proba = multiclass_data(500, 3)
    pdf = pd.DataFrame({"truth": np.array(["a", "b", "c"])[y], "p_a": proba[:, 0], "p_b": proba[:, 1],
                        "p_c": proba[:, 2], "w": RNG.integers(1, 3, 500), "pred": np.array(["a", "b", "c"])[
                            RNG.integers(0, 3, 500)]})
    df = dd.from_pandas(pdf, npartitions=6)
    got = evaluate("truth", y_score=["p_a", "p_b", "p_c"], data=df)
    assert_same(got, clfeval.evaluate(pdf["truth"], y_score=pdf[["p_a", "p_b", "p_c"]]))
    got = evaluate("truth", "pred", sample_weight="w", data=df, beta=0.5)
    assert_same(got, clfeval.evaluate(pdf["truth"], pdf["pred"], sample_weight=pdf["w"], beta=0.5))
    # Series (and a DataFrame of scores) taken from one dask DataFrame
    got = evaluate(df["truth"], y_score=df[["p_a", "p_b", "p_c"]], labels=["a", "b", "c"])
    assert_same(got, clfeval.evaluate(pdf["truth"], y_score=pdf[["p_a", "p_b", "p_c"]], labels=["a", "b", "c"]))
    # a categorical column and an empty partition
    cat = dd.from_pandas(pdf.assign(truth=pdf["truth"].astype("category")), npartitions=4)
    row = cat.index.to_series()
    keep = (row < 125) | (row >= 250)  # the second of 4 partitions is left empty
    got = evaluate("truth", "pred", data=cat[keep])
    kept = pdf[(pdf.index < 125) | (pdf.index >= 250)]
    assert_same(got, clfeval.evaluate(kept["truth"], kept["pred"]))


def test_lazy_statistics_and_one_partition(sync):
    y, p = binary_data(200)
    lazy = statistics(da.from_array(y, chunks=200), y_score=da.from_array(p, chunks=200), labels=[0, 1])
    (stream,) = dask.compute(lazy)
    assert stream.n_samples == 200
    assert_same(stream.result(), clfeval.evaluate(y, y_score=p, labels=[0, 1]))


def test_binning_options_go_through(sync):
    y = RNG.integers(0, 2, 300)
    p = RNG.random(300)
    dy, dp = da.from_array(y, chunks=100), da.from_array(p, chunks=100)
    # binned from the first row: the same as one stream over all rows with the same options
    got = evaluate(dy, y_score=dp, mode="binned", bits=4)
    one = StreamingEvaluation(labels=[0, 1], threshold=0.5, mode="binned", bits=4).update(y, y_score=p)
    assert_same(got, one.result())


def test_auto_binning_switch(sync):
    import clfeval.statistics.binning

    if not hasattr(clfeval.statistics.binning, "quantize_ranking"):
        pytest.skip("clfeval.statistics.binning.quantize_ranking (used by the stream's switch to bins) is not there yet")
    y = RNG.integers(0, 2, 300)
    p = RNG.random(300)
    dy, dp = da.from_array(y, chunks=100), da.from_array(p, chunks=100)
    # binned once the merged statistics hold too many distinct scores
    with pytest.warns(ScoresBinnedWarning):
        got = evaluate(dy, y_score=dp, max_distinct=150, bits=8)
    assert got.binning is not None and got.n_samples == 300


# ---------------------------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------------------------


def test_parquet_directory(tmp_path, sync):
    y, proba = multiclass_data(900, 3)
    pdf = pd.DataFrame({"label": y, "proba_0": proba[:, 0], "proba_1": proba[:, 1], "proba_2": proba[:, 2]})
    folder = tmp_path / "preds"
    folder.mkdir()
    for i, part in enumerate(np.array_split(np.arange(900), 4)):
        pdf.iloc[part].to_parquet(folder / f"part-{i}.parquet", index=False)
    (folder / "_SUCCESS").write_text("")  # skipped like hidden files
    got = evaluate_file(folder)
    assert_same(got, clfeval.evaluate(y, y_score=proba, labels=[0, 1, 2], name="preds"))
    # a glob, columns named, on the synchronous scheduler by name
    got = evaluate_file(str(folder / "*.parquet"), y_true="label", y_score="proba_0,proba_1,proba_2",
                        scheduler="synchronous", name="x")
    assert_same(got, clfeval.evaluate(y, y_score=proba, name="x"))
    # Series of one Parquet read: each alone would be read in fewer, larger partitions
    df = dd.read_parquet(folder)
    got = evaluate(df["label"], y_score=df[["proba_0", "proba_1", "proba_2"]])
    assert_same(got, clfeval.evaluate(y, y_score=proba))


def test_csv_and_feather_files(tmp_path, sync):
    y, p = binary_data(800)
    w = RNG.integers(1, 5, 800)
    pdf = pd.DataFrame({"target": np.array(["no", "yes"])[y], "score": p, "weight": w})
    path = tmp_path / "scores.csv"
    pdf.to_csv(path, index=False)
    got = evaluate_file(path, blocksize=2000, pos_label="yes")  # about 8 partitions
    data = read_predictions(path)
    want = clfeval.evaluate(data.y_true, y_score=data.y_score, sample_weight=data.sample_weight, pos_label="yes",
                            name="scores")
    assert_same(got, want)
    assert got.n_samples == 800 and dd.read_csv(path, blocksize=2000).npartitions > 3
    feather = tmp_path / "f"
    feather.mkdir()
    for i, part in enumerate(np.array_split(np.arange(800), 3)):
        pdf.iloc[part].reset_index(drop=True).to_feather(feather / f"{i}.feather")
    assert_same(evaluate_file(feather, pos_label="yes", name="scores"), want)


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------


def test_bad_input_errors(sync):
    y, p = binary_data(100)
    dy, dp = da.from_array(y, chunks=25), da.from_array(p, chunks=25)
    with pytest.raises(ValueError, match="y_pred, y_score or both"):
        evaluate(dy)
    with pytest.raises(ValueError, match="y_true has 100 rows but y_score has 99"):
        evaluate(dy, y_score=da.from_array(p[:99], chunks=25))
    with pytest.raises(TypeError, match="y_score must be a dask array.*clfeval.evaluate"):
        evaluate(dy, y_score=p)
    with pytest.raises(TypeError, match="column name.*data="):
        evaluate("y", y_score="p")
    s = dd.from_pandas(pd.Series(y), npartitions=4)
    with pytest.raises(ValueError, match="4 partitions but y_score into 2"):
        evaluate(s, y_score=dd.from_pandas(pd.Series(p), npartitions=2))
    # partition sizes that only the computation sees
    unknown = dd.from_pandas(pd.Series(p), npartitions=4).to_dask_array()
    with pytest.raises(ValueError, match=r"partition \d of 4: y_true has \d+ rows but y_score has"):
        evaluate(da.from_array(y, chunks=(10, 20, 30, 40)), y_score=unknown, labels=[0, 1])
    df = dd.from_pandas(pd.DataFrame({"y": y, "p": p}), npartitions=2)
    with pytest.raises(ValueError, match=r"y_score='prob': no such column in data \(columns: y, p\)"):
        evaluate("y", y_score="prob", data=df)
    with pytest.raises(TypeError, match="data must be a dask DataFrame"):
        evaluate("y", y_score="p", data=df.compute())
    with pytest.raises(ValueError, match="multilabel"):
        evaluate(da.from_array(np.eye(3, dtype=int)[RNG.integers(0, 3, 30)], chunks=10),
                 da.from_array(np.eye(3, dtype=int)[RNG.integers(0, 3, 30)], chunks=10))
    with pytest.raises(ValueError, match="split_every"):
        evaluate(dy, y_score=dp, split_every=1)
    with pytest.raises(ValueError, match="mode must be"):
        evaluate(dy, y_score=dp, mode="fast")
    with pytest.raises(ValueError, match="threshold or y_pred"):
        evaluate(dy, dy, threshold=0.5)
    bad = p.copy()
    bad[60] = np.nan
    with pytest.raises(ValueError, match="partition 2 of 4: y_score contains 1 missing"):
        evaluate(dy, y_score=da.from_array(bad, chunks=25))
    with pytest.raises(ValueError, match="3 columns but the data has 2 classes"):
        evaluate(dy, y_score=da.from_array(RNG.random((100, 3)), chunks=25))
    with pytest.raises(ValueError, match="no rows"):
        evaluate("y", y_score="p", data=df[df["y"] > 5])


def test_bad_files(tmp_path, sync):
    with pytest.raises(ValueError, match="no such file"):
        evaluate_file(tmp_path / "missing.parquet")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="holds no data files"):
        evaluate_file(tmp_path / "empty")
    path = tmp_path / "a.csv"
    path.write_text("outcome,model_x\n1,0\n0,1\n")
    with pytest.raises(ValueError, match=r"no column of true labels found; .*\(columns: outcome, model_x\)"):
        evaluate_file(path)
    with pytest.raises(ValueError, match=r"--y-score 'model_y': no such column; did you mean 'model_x'"):
        evaluate_file(path, y_true="outcome", y_score="model_y")
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    pd.DataFrame({"y": [0, 1], "p": [0.1, 0.9]}).to_csv(mixed / "a.csv", index=False)
    pd.DataFrame({"y": [0, 1], "p": [0.1, 0.9]}).to_parquet(mixed / "b.parquet")
    with pytest.raises(ValueError, match="different formats"):
        evaluate_file(mixed)
    late = tmp_path / "late.csv"
    late.write_text("y,score\n" + "0,0.1\n1,0.8\n" * 200 + "1,\n")  # a missing score in the last partition
    with pytest.raises(ValueError) as info:
        evaluate_file(late, blocksize=500)
    assert str(late) in str(info.value) and "missing" in str(info.value) and "\n" not in str(info.value)


def test_bad_scheduler_address(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("y,score\n0,0.1\n1,0.9\n")
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(ValueError, match="cannot connect to the dask scheduler at 'tcp://127.0.0.1:1'"):
            evaluate_file(path, scheduler="tcp://127.0.0.1:1")


def test_import_is_lazy_and_names_the_extra():
    code = ("import sys, clfeval; assert 'dask' not in sys.modules, 'dask imported'; sys.modules['dask'] = None\n"
            "try:\n    import clfeval.dask\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "pip install 'clfeval[dask]'" in out.stdout


# ---------------------------------------------------------------------------------------------
# a distributed cluster: two worker processes
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                  silence_logs=50) as lc, distributed.Client(lc, set_as_default=False) as client:
        yield lc, client


def test_cluster_gives_the_same(cluster, tmp_path):
    lc, client = cluster
    client.wait_for_workers(2, timeout=60)
    y, proba = multiclass_data(600, 3)
    order = np.argsort(y, kind="stable")  # chunks missing classes
    got = evaluate(da.from_array(y[order], chunks=70), y_score=da.from_array(proba[order], chunks=70), client=client)
    assert_same(got, clfeval.evaluate(y, y_score=proba))
    yb, p = binary_data(500)
    w = RNG.random(500) + 0.1
    got = evaluate(da.from_array(yb, chunks=45), y_score=da.from_array(p, chunks=45),
                   sample_weight=da.from_array(w, chunks=45), client=client)
    assert_same(got, clfeval.evaluate(yb, y_score=p, sample_weight=w), exact=False)
    # a file through the scheduler's address
    path = tmp_path / "preds.csv"
    pd.DataFrame({"y": yb, "score": p}).to_csv(path, index=False)
    got = evaluate_file(path, scheduler=lc.scheduler_address, blocksize=1500)
    assert_same(got, clfeval.evaluate(yb, y_score=p, name="preds"))


GATE = "clfeval-test-gate"  # the distributed Event that holds back the later partitions
FIRST_GATED = 12  # partitions from this one on wait for the gate


def _gated(block, block_info=None):
    """A partition that takes a moment; from FIRST_GATED on it also waits (at most 120 s) until the test
    opens the gate, so the computation cannot end before the worker is killed, however fast the machine.
    A waiting partition leaves the worker's thread pool, so the other partitions run meanwhile."""
    time.sleep(0.05)
    if block_info[0]["chunk-location"][0] >= FIRST_GATED:
        distributed.secede()
        distributed.Event(GATE).wait(timeout=120)
        distributed.rejoin()
    return block


def _task_states(keys, dask_scheduler=None):
    """On the scheduler: per worker, which statistics among ``keys`` (a partition's, or a merge of them) it
    alone holds in memory; and how many times each of ``keys`` finished (a task computed again after its
    worker died finishes twice)."""
    held = {}
    for key in keys:
        ts = dask_scheduler.tasks.get(key)
        if ts is not None and ts.state == "memory" and len(ts.who_has) == 1 and str(key).startswith("clfeval-"):
            for ws in ts.who_has:
                held.setdefault(ws.address, []).append(key)
    finished = {}
    for entry in dask_scheduler.transition_log:
        if entry[0] in keys and entry[2] == "memory":
            finished[entry[0]] = finished.get(entry[0], 0) + 1
    return held, finished


def test_worker_killed_midway_loses_and_doubles_nothing(cluster):
    lc, client = cluster
    client.wait_for_workers(2, timeout=60)
    y, proba = multiclass_data(4000, 3)
    n_parts = 40
    yt = da.from_array(y, chunks=100).map_blocks(_gated, dtype=y.dtype)
    lazy = statistics(yt, y_score=da.from_array(proba, chunks=(100, 3)), labels=[0, 1, 2], split_every=4,
                      client=client)
    keys = set(lazy.__dask_graph__())
    stream_keys = {k for k in keys if str(k).startswith("clfeval-stream")}
    assert len(stream_keys) == n_parts
    gate = distributed.Event(GATE, client=client)
    gate.clear()
    before = set(client.scheduler_info()["workers"])
    future = client.compute(lazy)
    # Wait until the work before the gate is done and nothing moves: the partitions before FIRST_GATED
    # merged in groups of split_every (and released), each group's merge held by one worker; every other
    # task waits on the gate. (Killing while a result is being copied to the other worker would lose nothing.)
    n_merges = FIRST_GATED // 4
    deadline = time.monotonic() + 60
    while True:
        held, finished = client.run_on_scheduler(_task_states, keys)
        merges = [k for v in held.values() for k in v]
        if len(merges) == n_merges and all(str(k).startswith("clfeval-merge-0-") for k in merges):
            break
        assert time.monotonic() < deadline, f"the partitions before the gate were not merged within 60 s: {held}"
        time.sleep(0.05)
    assert sum(k in stream_keys for k in finished) == FIRST_GATED and not future.done()
    victim = max(held, key=lambda a: len(held[a]))
    pid = client.run(os.getpid, workers=[victim])[victim]
    os.kill(pid, signal.SIGKILL)  # the worker process dies at once, as in a crash
    gate.set()
    stream = future.result(timeout=120)
    _, finished = client.run_on_scheduler(_task_states, keys)
    after = set(client.scheduler_info()["workers"])
    assert victim not in after and before != after  # the worker was lost
    # what it held is still needed by the final merge (the scheduler frees what is not), so it was computed
    # again from its partitions
    assert max(finished[k] for k in stream_keys) >= 2
    got, want = stream.result(), clfeval.evaluate(y, y_score=proba)
    assert got.n_samples == want.n_samples == 4000
    assert got.confusion.counts.tolist() == want.confusion.counts.tolist()
    assert_same(got, want)
    client.wait_for_workers(2, timeout=60)  # the nanny restarts it


def test_option_errors_blame_no_partition_and_value_errors_name_the_row_of_all_data(sync):
    """pos_label is wrong for all the data, not for one partition; a bad value is named by its row in all
    the data (it was named by its row within its partition, beside the partition's number)."""
    y = np.array([0, 1, 0, 1] * 10)
    frame = dd.from_pandas(pd.DataFrame({"y": y, "p": np.linspace(0, 1, 40)}), npartitions=3)
    with pytest.raises(ValueError) as e:
        evaluate(frame["y"], y_score=frame["p"], pos_label=5)
    assert str(e.value) == "pos_label=5 is not one of the classes [0, 1]."
    with pytest.raises(ValueError) as e:
        evaluate(frame["y"], y_score=frame["p"], labels=[0, 2])
    row = e.value.row
    assert y[row] == 1 and str(e.value).startswith(f"partition {e.value.partition} of 3: y_true[{row}] = 1 is not")
