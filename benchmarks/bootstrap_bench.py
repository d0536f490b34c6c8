#!/usr/bin/env python
"""Bootstrap intervals from the sufficient statistic against resampling rows with scikit-learn.

    python benchmarks/bootstrap_bench.py                # n = 10^6, 10 classes, B = 2000
    python benchmarks/bootstrap_bench.py --n 1e5 --resamples 500

clfeval: build the 10 x 10 confusion table from the predictions (ConfusionCounts.from_labels),
draw B multinomial resamples of its cells (unstratified, i.e. the same scheme as resampling rows
with replacement) and evaluate macro F1 on all of them at once, then the percentile interval:
``bootstrap_ci``. The time counts everything from the label arrays on. A stratified run (the
default of clfeval) and a BCa run are timed too.

scikit-learn: the usual loop, one replicate = draw n row indices with replacement, then
``sklearn.metrics.f1_score(y_true[idx], y_pred[idx], average="macro")``. Only a few replicates
are timed (``--sklearn-replicates``, default 10); the per-replicate time is extrapolated to B,
and the JSON says so. Target: clfeval under 1 s, and at least 100x faster than the extrapolated
loop.

Writes ``results/bootstrap.json`` (atomically) and prints one line per measurement.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import sklearn
import sklearn.metrics as skm

from bench_io import machine_info, write_text_atomic

import clfeval
from clfeval.formulas import measures as m
from clfeval.statistics.counts import ConfusionCounts
from clfeval.uncertainty import bootstrap_ci

RESULTS = Path(__file__).resolve().parent / "results"
TARGET_SECONDS = 1.0
TARGET_RATIO = 100.0


def macro_f1(tables: np.ndarray) -> np.ndarray:
    """Macro F1 of a batch of (b, k, k) tables (every class present here)."""
    tp, fp, fn, _ = m.one_vs_rest(tables)
    return m.fbeta(tp, fp, fn).mean(axis=-1)


def make_data(n: int, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels 0..k-1; predictions right 70% of the time, else a uniformly random class."""
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, k, n)
    wrong = rng.random(n) >= 0.7
    y_pred = np.where(wrong, rng.integers(0, k, n), y_true)
    return y_true, y_pred


def clfeval_interval(y_true: np.ndarray, y_pred: np.ndarray, b: int, seed: int, stratify: bool,
                     method: str = "percentile") -> Any:
    counts = ConfusionCounts.from_labels(y_true, y_pred)
    return bootstrap_ci(macro_f1, counts, n_resamples=b, seed=seed, stratify=stratify, method=method)


def sklearn_replicates(y_true: np.ndarray, y_pred: np.ndarray, reps: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = y_true.size
    out = np.empty(reps)
    for r in range(reps):
        idx = rng.integers(0, n, n)
        out[r] = skm.f1_score(y_true[idx], y_pred[idx], average="macro")
    return out


def best_time(call: Any, repeats: int) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - start)
    return best, result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=float, default=1e6)
    ap.add_argument("--classes", type=int, default=10)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--sklearn-replicates", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    n, k, b = int(args.n), args.classes, args.resamples
    y_true, y_pred = make_data(n, k, args.seed)

    t_free, ci = best_time(lambda: clfeval_interval(y_true, y_pred, b, args.seed, False), args.repeats)
    t_strat, ci_strat = best_time(lambda: clfeval_interval(y_true, y_pred, b, args.seed, True), args.repeats)
    t_bca, ci_bca = best_time(lambda: clfeval_interval(y_true, y_pred, b, args.seed, True, "bca"), args.repeats)
    t_table, _ = best_time(lambda: ConfusionCounts.from_labels(y_true, y_pred), args.repeats)

    reps = args.sklearn_replicates
    start = time.perf_counter()
    sk_values = sklearn_replicates(y_true, y_pred, reps, args.seed)
    t_sk = time.perf_counter() - start
    per_rep = t_sk / reps
    sk_total = per_rep * b
    ratio = sk_total / t_free

    # sanity: the row bootstrap's replicates fall in the same range as ours
    estimate = float(skm.f1_score(y_true, y_pred, average="macro"))
    result = {
        "benchmark": "bootstrap interval of macro F1",
        "n": n,
        "classes": k,
        "n_resamples": b,
        "level": 0.95,
        "estimate": estimate,
        "clfeval": {
            "seconds": t_free,
            "what": "ConfusionCounts.from_labels + bootstrap_ci(macro F1, B multinomial resamples of the "
                    "cells, unstratified = row resampling, percentile), best of repeats",
            "interval": [ci.low, ci.high],
            "confusion_table_seconds": t_table,
            "stratified_seconds": t_strat,
            "stratified_interval": [ci_strat.low, ci_strat.high],
            "bca_stratified_seconds": t_bca,
            "bca_stratified_interval": [ci_bca.low, ci_bca.high],
        },
        "sklearn": {
            "replicates_timed": reps,
            "seconds_timed": t_sk,
            "seconds_per_replicate": per_rep,
            "seconds_extrapolated": sk_total,
            "what": f"rows resampled with replacement + f1_score(average='macro'), {reps} replicates timed, "
                    f"extrapolated linearly to {b}",
            "replicate_values": sk_values.tolist(),
        },
        "ratio": ratio,
        "targets": {"clfeval_seconds": TARGET_SECONDS, "ratio": TARGET_RATIO,
                    "pass": bool(t_free < TARGET_SECONDS and ratio >= TARGET_RATIO)},
        "versions": {"clfeval": getattr(clfeval, "__version__", None), "numpy": np.__version__,
                     "scikit-learn": sklearn.__version__},
        "machine": machine_info(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    write_text_atomic(args.out / "bootstrap.json", json.dumps(result, indent=2) + "\n")
    verdict = "PASS" if result["targets"]["pass"] else "FAIL"
    print(f"bootstrap macro F1, n={n:.0e}, k={k}, B={b}: clfeval {t_free:.3f} s (table {t_table:.3f} s; "
          f"stratified {t_strat:.3f} s, BCa {t_bca:.3f} s) vs scikit-learn {per_rep:.3f} s/replicate x {b} "
          f"= {sk_total:.0f} s (extrapolated from {reps}) -> {ratio:,.0f}x [{verdict}: < {TARGET_SECONDS:g} s "
          f"and >= {TARGET_RATIO:g}x]")
    print(f"  interval {ci.low:.5f} .. {ci.high:.5f} (estimate {estimate:.5f}); "
          f"scikit-learn replicates {sk_values.min():.5f} .. {sk_values.max():.5f}")
    return result


if __name__ == "__main__":
    main()
