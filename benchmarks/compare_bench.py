#!/usr/bin/env python
"""``clfeval compare`` at 10^6 rows: the whole command in a fresh process, and its paired bootstrap.

    python benchmarks/compare_bench.py                  # n = 10^6, binary and 5 classes, B = 2000
    python benchmarks/compare_bench.py --n 1e5 --row-replicates 5

End to end: ``python -m clfeval compare FILE --y-true y_true --model A=... --model B=...`` run in
a new interpreter (imports, reading, both evaluations, McNemar, DeLong where there are scores,
the paired bootstrap of macro F1 with B = 2000, the terminal report), on a CSV and on a Parquet
file, with predicted labels and with scores. Target: at most 5 s each for two models.

The paired bootstrap alone, on the same arrays, in this process:

- ``cells``: what the command runs now, ``paired_bootstrap_test`` with a ``functools.partial`` of
  ``clfeval.metrics.f1_score``: the rows reduce to the counts of the joint (true, A, B) cells, and
  each replicate is a multinomial draw of those counts within each true class.
- ``rows``: what the command ran before, the same test with a plain Python callable, which
  resamples the rows (within each true class) and calls f1_score twice per replicate. Only
  ``--row-replicates`` replicates are timed; the per-replicate time is extrapolated to B, and the
  JSON says so.
- ``bound``: one ``np.bincount`` over the rows' joint cell codes, the least work any method that
  reads every row must do (one primitive pass over the data).

Writes ``results/compare.json`` (atomically) and prints one line per measurement.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bench_io import machine_info, write_text_atomic
from bootstrap_bench import best_time

import clfeval
from clfeval.metrics import f1_score
from clfeval.stats import paired_bootstrap_test

RESULTS = Path(__file__).resolve().parent / "results"
SRC = Path(__file__).resolve().parent.parent / "src"
TARGET_SECONDS = 5.0


def make_data(n: int, k: int, seed: int) -> pd.DataFrame:
    """Labels 0..k-1; two models' probabilities (B noisier than A) and their predictions."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    frame: dict[str, Any] = {"y_true": y}
    for name, noise in (("a", 1.0), ("b", 1.3)):
        z = rng.normal(0.0, noise, (n, k))
        z[np.arange(n), y] += 1.0
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        p = p.round(6)
        if k == 2:
            frame[f"score_{name}"] = p[:, 1]
            frame[f"pred_{name}"] = (p[:, 1] >= 0.5).astype(np.int64)
        else:
            for j in range(k):
                frame[f"{name}{j}"] = p[:, j]
            frame[f"pred_{name}"] = p.argmax(axis=1)
    return pd.DataFrame(frame)


def command_seconds(path: Path, models: list[str], repeats: int) -> tuple[float, str]:
    """Best wall time of the whole command in a fresh interpreter, and its output."""
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", "COLUMNS": "120"}
    cmd = [sys.executable, "-m", "clfeval", "compare", str(path), "--y-true", "y_true", "--no-progress"]
    for m in models:
        cmd += ["--model", m]
    best, out = float("inf"), ""
    for _ in range(repeats):
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
        best = min(best, time.perf_counter() - start)
        out = done.stdout
    return best, out


def bootstrap_part(frame: pd.DataFrame, k: int, b: int, row_reps: int, repeats: int, seed: int) -> dict[str, Any]:
    y, pa, pb = (frame[c].to_numpy() for c in ("y_true", "pred_a", "pred_b"))
    labels = list(range(k))
    partial = functools.partial(f1_score, average="macro", labels=labels, zero_division=0)

    def plain(yt: Any, yp: Any) -> float:  # the command's former metric: a callable the test cannot see into
        return float(f1_score(yt, yp, average="macro", labels=labels, zero_division=0))

    t_cells, r_cells = best_time(lambda: paired_bootstrap_test(y, pa, pb, partial, n_resamples=b, seed=seed), repeats)
    start = time.perf_counter()
    r_rows = paired_bootstrap_test(y, pa, pb, plain, n_resamples=row_reps, seed=seed)
    t_rows = (time.perf_counter() - start) * b / row_reps
    codes = (y * k + pa) * k + pb
    t_bound, _ = best_time(lambda: np.bincount(codes, minlength=k ** 3), repeats)
    return {
        "cells_seconds": t_cells,
        "rows_seconds_extrapolated": t_rows,
        "rows_replicates_timed": row_reps,
        "bound_seconds": t_bound,
        "ratio_rows_over_cells": t_rows / t_cells,
        "ratio_cells_over_bound": t_cells / t_bound,
        "estimate_cells": r_cells.estimate,
        "estimate_rows": r_rows.estimate,
        "interval_cells": list(r_cells.confidence_interval(0.95)),
        "pvalue_cells": r_cells.pvalue,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=float, default=1e6)
    ap.add_argument("--resamples", type=int, default=2000, help="B of the command's default")
    ap.add_argument("--row-replicates", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    n = int(args.n)
    cases: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in (2, 5):
            frame = make_data(n, k, args.seed)
            boot = bootstrap_part(frame, k, args.resamples, args.row_replicates, args.repeats, args.seed)
            print(f"k={k}, n={n:.0e}, B={args.resamples}: paired bootstrap on cells {boot['cells_seconds']:.3f} s; "
                  f"rows {boot['rows_seconds_extrapolated']:.1f} s (extrapolated from {args.row_replicates}) -> "
                  f"{boot['ratio_rows_over_cells']:,.0f}x; one bincount {boot['bound_seconds']:.4f} s "
                  f"(cells = {boot['ratio_cells_over_bound']:.1f}x the bound); estimates "
                  f"{boot['estimate_cells']:.6f} / {boot['estimate_rows']:.6f}")
            scores = ["A=score_a", "B=score_b"] if k == 2 else \
                [f"A={','.join(f'a{j}' for j in range(k))}", f"B={','.join(f'b{j}' for j in range(k))}"]
            for fmt in ("csv", "parquet"):
                path = Path(tmp) / f"k{k}.{fmt}"
                frame.to_csv(path, index=False) if fmt == "csv" else frame.to_parquet(path)
                for what, models in (("labels", ["A=pred_a", "B=pred_b"]), ("scores", scores)):
                    seconds, out = command_seconds(path, models, args.repeats)
                    ok = seconds <= TARGET_SECONDS
                    cases.append({"classes": k, "format": fmt, "models": what, "seconds": seconds, "pass": ok,
                                  "ratio_to_bound": seconds / boot["bound_seconds"]})
                    print(f"  clfeval compare, {fmt}, {what}: {seconds:.2f} s end to end "
                          f"[{'PASS' if ok else 'FAIL'}: <= {TARGET_SECONDS:g} s]")
            cases[-1]["bootstrap"] = boot
    result = {
        "benchmark": "clfeval compare of two models, end to end in a fresh process",
        "n": n,
        "n_resamples": args.resamples,
        "cases": cases,
        "target_seconds": TARGET_SECONDS,
        "pass": all(c["pass"] for c in cases),
        "what": {"seconds": "wall time of python -m clfeval compare in a new interpreter, best of repeats",
                 "cells": "paired_bootstrap_test with a partial of f1_score (joint cell counts resampled)",
                 "rows": "paired_bootstrap_test with a plain callable (rows resampled), extrapolated",
                 "bound": "one np.bincount over the rows' joint (true, A, B) codes"},
        "versions": {"clfeval": getattr(clfeval, "__version__", None), "numpy": np.__version__},
        "machine": machine_info(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    write_text_atomic(args.out / "compare.json", json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    main()
