#!/usr/bin/env python
"""Streaming, big files and Dask: throughput, peak memory, scaling and exactness.

    python benchmarks/streaming_bench.py                 # 10^7 rows; the 10^8-row file run too
    python benchmarks/streaming_bench.py --big 0          # skip the 10^8-row file (quicker)
    python benchmarks/streaming_bench.py --n 1e6 --big 0 --out /tmp/x   # a smoke run

What is measured (each in the same run, same machine):

* rows per second of ``StreamingEvaluation.update`` over in-memory batches of 10^6 (exact and
  binned), against ``clfeval.evaluate`` on all rows at once and scikit-learn's ``roc_auc_score``
  + ``average_precision_score`` + ``confusion_matrix`` on all rows at once;
* ``clfeval report FILE.parquet --stream`` as a fresh process on n rows: wall time, rows per
  second and peak resident memory (the child's ru_maxrss), and whether its JSON equals the
  in-memory report's; then the same on ``--big`` rows (10^8 by default; issue 7 asks for a peak
  under 2 GiB), written in row groups so that the file never exists in memory;
* Dask: ``clfeval.dask.evaluate`` on a LocalCluster of one and of two worker processes (one
  thread each) over the same dask array, and the speed-up;
* the state a stream keeps against torchmetrics' exact ``BinaryAUROC`` (which keeps every
  prediction and target: measured when torchmetrics is installed, else its state size given as
  n x (4 + 8) bytes, float32 predictions and int64 targets, marked as computed);
* exactness: ROC AUC and AP of 10^8 rows whose values are known in closed form, streamed;
* with pyspark and Java installed: the same Parquet file through Spark's
  ``BinaryClassificationEvaluator`` (MLlib's BinaryClassificationMetrics underneath; local[2]),
  exact (numBins=0) and with its default 1000 bins: time and ROC AUC error.

Writes ``results/streaming.json`` and ``results/streaming_table.md`` (put into the README by
``update_readme.py``); ``--out DIR`` writes elsewhere.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from bench_io import machine_info, write_text_atomic

import clfeval
from clfeval.streaming import StreamingEvaluation

RESULTS = Path(__file__).resolve().parent / "results"
BATCH = 1_000_000
MEMORY_TARGET = 2 * 2**30


def binary_rows(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels (int8) and informative probabilities (float64, continuous: every score distinct)."""
    y = (rng.random(n) < 0.3).astype(np.int8)
    logit = rng.standard_normal(n) + 1.5 * y
    return y, 1.0 / (1.0 + np.exp(-logit))


def rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("inf")


def in_memory_rows(n: int) -> list[dict[str, Any]]:
    import sklearn.metrics as skm

    y, s = binary_rows(np.random.default_rng(0), n)
    rows = []

    def timed(what: str, call: Any) -> float:
        start = time.perf_counter()
        call()
        seconds = time.perf_counter() - start
        rows.append({"what": what, "n": n, "seconds": seconds, "rows_per_s": rate(n, seconds)})
        return seconds

    def stream(mode: str) -> None:
        st = StreamingEvaluation(labels=[0, 1], mode=mode)
        for i in range(0, n, BATCH):
            st.update(y[i:i + BATCH], y_score=s[i:i + BATCH])
        st.result().report

    def sklearn_all() -> None:
        skm.roc_auc_score(y, s), skm.average_precision_score(y, s), skm.confusion_matrix(y, s >= 0.5)

    timed("StreamingEvaluation.update, batches of 10^6, exact", lambda: stream("exact"))
    timed("StreamingEvaluation.update, batches of 10^6, binned (16 bits)", lambda: stream("binned"))
    timed("clfeval.evaluate, all rows at once", lambda: clfeval.evaluate(y, y_score=s).report)
    timed("scikit-learn roc_auc_score + average_precision_score + confusion_matrix, all rows", sklearn_all)
    return rows


def write_parquet(path: Path, n: int, seed: int, decimals: int | None = None) -> None:
    """n rows in row groups of 10^6, never all in memory."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    writer = None
    try:
        for start in range(0, n, BATCH):
            y, s = binary_rows(rng, min(BATCH, n - start))
            if decimals is not None:
                s = np.round(s, decimals)
            table = pa.table({"y_true": y, "y_score": s})
            writer = writer or pq.ParquetWriter(path, table.schema)
            writer.write_table(table)
    finally:
        if writer is not None:
            writer.close()


def run_child(argv: list[str]) -> tuple[float, int, str]:
    """Wall time, peak RSS (bytes) and stderr of ``clfeval`` run as a fresh process."""
    code = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
            "r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
            "w = time.perf_counter() - t; "
            "print(w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode); "
            "sys.stderr.write(r.stderr)")
    out = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "clfeval", *argv],
                         capture_output=True, text=True, check=True)
    wall, rss_kib, rc = out.stdout.split()
    if rc != "0":
        raise RuntimeError(f"clfeval {' '.join(argv)} failed:\n{out.stderr}")
    return float(wall), int(rss_kib) * 1024, out.stderr


def file_rows(n: int, big: int, tmp: Path) -> list[dict[str, Any]]:
    rows = []
    path = tmp / "predictions.parquet"
    write_parquet(path, n, seed=1)
    streamed, in_memory = tmp / "streamed.json", tmp / "in_memory.json"
    wall, rss, _ = run_child(["report", str(path), "--stream", "--json", str(streamed), "--no-progress"])
    wall_mem, rss_mem, _ = run_child(["report", str(path), "--json", str(in_memory), "--no-progress"])
    a, b = json.loads(streamed.read_text()), json.loads(in_memory.read_text())
    same = {k: a[k] for k in ("confusion", "report", "roc", "pr")} == {k: b[k] for k in ("confusion", "report", "roc", "pr")}
    rows.append({"what": "`clfeval report FILE.parquet --stream --json OUT` (fresh process)", "n": n,
                 "seconds": wall, "rows_per_s": rate(n, wall), "peak_rss": rss, "same_as_in_memory": same})
    rows.append({"what": "`clfeval report FILE.parquet --json OUT`, in memory (fresh process)", "n": n,
                 "seconds": wall_mem, "rows_per_s": rate(n, wall_mem), "peak_rss": rss_mem})
    path.unlink()
    for what, decimals in (("continuous scores", None), ("scores with 4 decimals", 4)):
        if not big:
            break
        path = tmp / "big.parquet"
        write_parquet(path, big, seed=2, decimals=decimals)
        out = tmp / "big.json"
        wall, rss, err = run_child(["report", str(path), "--stream", "--json", str(out), "--no-progress"])
        d = json.loads(out.read_text())
        rows.append({"what": f"`clfeval report` on {big:.0e} rows, {what} (fresh process)", "n": big,
                     "seconds": wall, "rows_per_s": rate(big, wall), "peak_rss": rss,
                     "under_target": rss < MEMORY_TARGET, "binned": "binning" in d and d["binning"] is not None,
                     "roc_auc": d["report"]["overall"].get("roc_auc"),
                     "auc_bounds": None if not d.get("binning") else
                     [v for k, v in next(iter(d["binning"].values())).items() if k in ("auc_low", "auc_high")]})
        path.unlink()
    return rows


def dask_rows(n: int) -> list[dict[str, Any]]:
    try:
        import dask.array as da
        from distributed import Client, LocalCluster

        from clfeval import dask as cdask
    except ImportError as exc:
        return [{"what": f"Dask: skipped ({exc})", "n": n}]
    y, s = binary_rows(np.random.default_rng(3), n)
    chunks = max(n // 20, 1)
    dy, ds = da.from_array(y, chunks=chunks), da.from_array(s, chunks=chunks)
    want = clfeval.evaluate(y, y_score=s).report.overall["roc_auc"]
    rows, times = [], {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            dyp, dsp = client.persist([dy, ds])  # the data on the workers, as in a real cluster
            cdask.evaluate(dyp, y_score=dsp, labels=[0, 1], client=client)  # warm-up
            best = float("inf")
            for _ in range(3):
                start = time.perf_counter()
                ev = cdask.evaluate(dyp, y_score=dsp, labels=[0, 1], client=client)
                best = min(best, time.perf_counter() - start)
            times[workers] = best
            rows.append({"what": f"`clfeval.dask.evaluate`, LocalCluster of {workers} worker process(es)", "n": n,
                         "seconds": best, "rows_per_s": rate(n, best),
                         "same_as_in_memory": ev.report.overall["roc_auc"] == want})
    rows.append({"what": "Dask speed-up, 2 workers over 1", "n": n, "speedup": times[1] / times[2]})
    return rows


def spark_rows(n: int, tmp: Path) -> list[dict[str, Any]]:
    """The same Parquet file through Spark's BinaryClassificationEvaluator (MLlib's
    BinaryClassificationMetrics underneath; local[2]): exact (numBins=0) and with its default of
    1000 bins; time (session start excluded) and ROC AUC error."""
    try:
        from pyspark.ml.evaluation import BinaryClassificationEvaluator
        from pyspark.sql import SparkSession
        from pyspark.sql import functions as F
    except ImportError as exc:
        return [{"what": f"Spark MLlib: skipped ({exc})", "n": n}]
    path = tmp / "spark.parquet"
    write_parquet(path, n, seed=5)
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    want = clfeval.evaluate(table.column("y_true").to_numpy(),
                            y_score=table.column("y_score").to_numpy()).report.overall["roc_auc"]
    del table
    spark = (SparkSession.builder.master("local[2]").config("spark.driver.memory", "6g")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    rows = []
    try:
        for bins, what in ((0, "exact (numBins=0)"), (1000, "numBins=1000 (its default)")):
            start = time.perf_counter()
            df = spark.read.parquet(str(path)).withColumn("label", F.col("y_true").cast("double"))
            evaluator = BinaryClassificationEvaluator(rawPredictionCol="y_score", labelCol="label", numBins=bins)
            auc = evaluator.evaluate(df)
            seconds = time.perf_counter() - start
            rows.append({"what": f"Spark BinaryClassificationEvaluator (MLlib), {what}, local[2]", "n": n,
                         "seconds": seconds, "rows_per_s": rate(n, seconds), "auc_error": abs(auc - want)})
    finally:
        spark.stop()
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "clfeval", "report", str(path), "--stream", "--json", str(tmp / "s.json"),
                    "--no-progress"], check=True, capture_output=True)
    seconds = time.perf_counter() - start
    got = json.loads((tmp / "s.json").read_text())["report"]["overall"]["roc_auc"]
    rows.append({"what": "the same file: `clfeval report --stream` (fresh process)", "n": n, "seconds": seconds,
                 "rows_per_s": rate(n, seconds), "auc_error": abs(got - want)})
    path.unlink()
    return rows


def torchmetrics_rows(n: int) -> list[dict[str, Any]]:
    y, s = binary_rows(np.random.default_rng(4), n)
    st = StreamingEvaluation(labels=[0, 1])
    for i in range(0, n, BATCH):
        st.update(y[i:i + BATCH], y_score=s[i:i + BATCH])
    rows = [{"what": "StreamingEvaluation state, exact (every score distinct)", "n": n, "state_bytes": st.nbytes}]
    binned = StreamingEvaluation(labels=[0, 1], mode="binned")
    for i in range(0, n, BATCH):
        binned.update(y[i:i + BATCH], y_score=s[i:i + BATCH])
    rows.append({"what": "StreamingEvaluation state, binned (16 bits)", "n": n, "state_bytes": binned.nbytes})
    try:
        import torch
        from torchmetrics.classification import BinaryAUROC

        metric = BinaryAUROC()
        for i in range(0, n, BATCH):
            metric.update(torch.from_numpy(s[i:i + BATCH]).float(), torch.from_numpy(y[i:i + BATCH]).long())
        held = sum(t.element_size() * t.nelement() for t in metric.preds + metric.target)
        rows.append({"what": "torchmetrics BinaryAUROC (exact) state", "n": n, "state_bytes": held,
                     "measured": True})
    except ImportError:
        rows.append({"what": "torchmetrics BinaryAUROC (exact) state: n x (4 + 8) bytes (not installed: computed)",
                     "n": n, "state_bytes": n * 12, "measured": False})
    return rows


def exactness_rows(n: int) -> list[dict[str, Any]]:
    """Positives score j, negatives j + 1/2, each 50 times, j = 0 .. m - 1: AUC = (m - 1) / (2m), AP = 1/2."""
    per = 50
    m = n // (2 * per)
    j = np.repeat(np.arange(m, dtype=np.float64), per)
    st = StreamingEvaluation(labels=[0, 1], threshold=0.0)
    step = BATCH // 2
    start = time.perf_counter()
    for i in range(0, j.size, step):
        part = j[i:i + step]
        st.update(np.r_[np.ones(part.size, np.int8), np.zeros(part.size, np.int8)], y_score=np.r_[part, part + 0.5])
    ev = st.result()
    seconds = time.perf_counter() - start
    auc, ap = ev.report.overall["roc_auc"], ev.report.overall["average_precision"]
    true_auc = Fraction(m - 1, 2 * m)
    return [{"what": "closed form: ROC AUC (m-1)/(2m) and AP 1/2, streamed", "n": ev.n_samples, "seconds": seconds,
             "auc_rel_error": abs(float(Fraction(auc) - true_auc) / float(true_auc)),
             "ap_rel_error": abs(ap - 0.5) / 0.5}]


def fmt_bytes(b: float) -> str:
    return f"{b / 2**30:.2f} GiB" if b >= 2**30 else f"{b / 2**20:.1f} MiB"


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = ["<!-- Generated by benchmarks/streaming_bench.py; do not edit by hand. -->",
             "| what | rows | time s | rows/s | memory | note |", "|:---|---:|---:|---:|---:|:---|"]
    for r in rows:
        note = []
        if "same_as_in_memory" in r:
            note.append("same numbers as in memory" if r["same_as_in_memory"] else "DIFFERS from in memory")
        if "under_target" in r:
            note.append(f"peak {'<' if r['under_target'] else '>='} 2 GiB target {'✔' if r['under_target'] else '✘'}")
        if r.get("binned"):
            note.append(f"binned: ROC AUC {r['roc_auc']:.6f} in [{r['auc_bounds'][0]:.6f}, {r['auc_bounds'][1]:.6f}]")
        if "speedup" in r:
            note.append(f"{r['speedup']:.2f}x")
        if "auc_error" in r:
            note.append(f"ROC AUC off the exact value by {r['auc_error']:.1e}")
        if "auc_rel_error" in r:
            note.append(f"relative error: AUC {r['auc_rel_error']:.1e}, AP {r['ap_rel_error']:.1e}")
        if "measured" in r and not r["measured"]:
            note.append("computed, not measured")
        memory = r.get("peak_rss", r.get("state_bytes"))
        seconds = "" if "seconds" not in r else f"{r['seconds']:.3g}"
        speed = "" if "rows_per_s" not in r else f"{r['rows_per_s']:.3g}"
        lines.append(f"| {r['what']} | {r['n']:.0e} | {seconds} | {speed} | "
                     f"{'' if memory is None else fmt_bytes(memory)} | {'; '.join(note)} |")
    lines += ["", f"Measured {meta['date']} on {meta['machine']['cpu']} ({meta['machine']['cores']} cores); "
              "memory: peak resident set of the process (fresh processes) or the statistics' own size (state rows)."]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--n", type=float, default=1e7, help="rows for throughput, Dask and state (default 1e7)")
    parser.add_argument("--big", type=float, default=1e8, help="rows of the big-file run (0: skip; default 1e8)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--no-spark", dest="spark", action="store_false",
                        help="skip Spark MLlib (run when pyspark and Java are installed)")
    args = parser.parse_args()
    n, big = int(args.n), int(args.big)
    warnings.simplefilter("ignore")
    rows: list[dict[str, Any]] = []
    rows += in_memory_rows(n)
    with tempfile.TemporaryDirectory() as tmp:
        rows += file_rows(n, big, Path(tmp))
        if args.spark:
            rows += spark_rows(n, Path(tmp))
    rows += dask_rows(n)
    rows += torchmetrics_rows(n)
    rows += exactness_rows(max(big, n))
    for r in rows:
        print({k: v for k, v in r.items()})
    meta = {"date": datetime.now(UTC).strftime("%Y-%m-%d"), "machine": machine_info(), "n": n, "big": big}
    args.out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(args.out / "streaming.json", json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
    table = markdown(rows, meta)
    write_text_atomic(args.out / "streaming_table.md", table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
