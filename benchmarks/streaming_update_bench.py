#!/usr/bin/env python
"""``StreamingEvaluation.update`` per batch, against the one-primitive bound.

    python benchmarks/streaming_update_bench.py --label after
    PYTHONPATH=/tmp/before/src python benchmarks/streaming_update_bench.py --label before
    python benchmarks/streaming_update_bench.py --label smoke --repeats 1 --scale 0.01 --out /tmp/x.json

What is measured (median of ``--repeats`` runs, each on a fresh stream, same rows every run):

* ``binary_scores``: binary labels (int8) with continuous probabilities (float64, every score
  distinct), ``update(y, y_score=s)``;
* ``multiclass_pred``: 10 classes (int64 labels), hard predictions, ``update(y, y_pred)``;

each over 1000 batches of 1,000 rows and 100 batches of 100,000 rows. The bound, timed in the same
run over the same batches: one ``np.argsort`` of the batch's scores (binary scores) or one
``np.bincount`` of the batch's precomputed pair codes ``k * y + p`` (multi-class predictions), i.e.
the one primitive that a batch's statistics cannot do without. ``ratio`` = update time / bound time.

Results go under the ``--label`` key of ``results/streaming_update.json`` (other labels already
there are kept, so a "before" run against older code and an "after" run share one file); when both
"before" and "after" are present, the speed-ups are written too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_io import machine_info, write_text_atomic  # noqa: E402

import clfeval  # noqa: E402
from clfeval.streaming import StreamingEvaluation  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
SHAPES = ((1000, 1_000), (100, 100_000))  # (batches, rows per batch)
K = 10


def binary_batches(rng: np.random.Generator, batches: int, rows: int) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    for _ in range(batches):
        y = (rng.random(rows) < 0.3).astype(np.int8)
        s = 1.0 / (1.0 + np.exp(-(rng.standard_normal(rows) + 1.5 * y)))
        out.append((y, s))
    return out


def multiclass_batches(rng: np.random.Generator, batches: int, rows: int) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    for _ in range(batches):
        y = rng.integers(0, K, rows)
        p = np.where(rng.random(rows) < 0.7, y, rng.integers(0, K, rows))
        out.append((y, p))
    return out


def median_seconds(run: Callable[[], Any], repeats: int) -> tuple[float, list[float]]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def case(task: str, batches: int, rows: int, repeats: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    if task == "binary_scores":
        data = binary_batches(rng, batches, rows)

        def stream() -> StreamingEvaluation:
            s = StreamingEvaluation()
            for y, sc in data:
                s.update(y, y_score=sc)
            return s

        def bound() -> None:
            for _, sc in data:
                np.argsort(sc)

        primitive = "np.argsort(scores) per batch"
    else:
        data = multiclass_batches(rng, batches, rows)
        codes = [K * y + p for y, p in data]

        def stream() -> StreamingEvaluation:
            s = StreamingEvaluation()
            for y, p in data:
                s.update(y, p)
            return s

        def bound() -> None:
            for c in codes:
                np.bincount(c, minlength=K * K)

        primitive = "np.bincount(k * y + p, minlength=k*k) per batch"
    n = batches * rows
    stream()  # warm-up (imports, caches)
    t_update, all_update = median_seconds(stream, repeats)
    t_bound, all_bound = median_seconds(bound, repeats)
    final = stream()
    start = time.perf_counter()
    ev = final.result()
    summary = ev.report.overall
    t_result = time.perf_counter() - start
    return {
        "task": task, "batches": batches, "rows_per_batch": rows, "n": n,
        "update_seconds": t_update, "update_seconds_all": all_update,
        "update_rows_per_s": n / t_update, "update_us_per_batch": 1e6 * t_update / batches,
        "bound": primitive, "bound_seconds": t_bound, "bound_seconds_all": all_bound,
        "bound_rows_per_s": n / t_bound, "ratio_to_bound": t_update / t_bound,
        "result_seconds": t_result,
        "check": {"accuracy": summary["accuracy"], **({"roc_auc": summary["roc_auc"]} if "roc_auc" in summary else {})},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--label", default="after", help="key of this run in the JSON (e.g. before / after)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of batches (smoke runs)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS / "streaming_update.json")
    args = parser.parse_args(argv)
    rows = []
    for task in ("binary_scores", "multiclass_pred"):
        for batches, size in SHAPES:
            b = max(1, int(round(batches * args.scale)))
            r = case(task, b, size, args.repeats, args.seed)
            rows.append(r)
            print(f"{args.label:>8} {task:16} {b:5d} x {size:7d}: update {r['update_rows_per_s']:12.4g} rows/s "
                  f"({r['update_us_per_batch']:9.1f} us/batch), bound {r['bound_rows_per_s']:12.4g} rows/s, "
                  f"ratio {r['ratio_to_bound']:7.2f}", flush=True)
    out: dict[str, Any] = {}
    if args.out.exists():
        out = json.loads(args.out.read_text())
    out.setdefault("runs", {})[args.label] = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"), "clfeval": str(Path(clfeval.__file__).parent),
        "repeats": args.repeats, "machine": machine_info(), "rows": rows,
    }
    runs = out["runs"]
    if "before" in runs and "after" in runs:
        speedups = []
        for b, a in zip(runs["before"]["rows"], runs["after"]["rows"]):
            if (b["task"], b["batches"], b["rows_per_batch"]) == (a["task"], a["batches"], a["rows_per_batch"]):
                speedups.append({"task": a["task"], "batches": a["batches"], "rows_per_batch": a["rows_per_batch"],
                                 "before_rows_per_s": b["update_rows_per_s"], "after_rows_per_s": a["update_rows_per_s"],
                                 "speedup": b["update_seconds"] / a["update_seconds"],
                                 "before_ratio_to_bound": b["ratio_to_bound"],
                                 "after_ratio_to_bound": a["ratio_to_bound"]})
        out["speedups"] = speedups
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(args.out, json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
