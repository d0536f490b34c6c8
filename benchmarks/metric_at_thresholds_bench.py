#!/usr/bin/env python
"""An F1 sweep over every threshold: clfeval's metric_at_thresholds against scikit-learn's.

    python benchmarks/metric_at_thresholds_bench.py                  # n = 20,000, scikit-learn timed in full
    python benchmarks/metric_at_thresholds_bench.py --n 2e4 --sklearn-thresholds 2000

What is compared (same process, same data, same call):

* ``sklearn.metrics.metric_at_thresholds(y, score, sklearn.metrics.f1_score)``: scikit-learn
  calls ``f1_score`` once per distinct score (about n calls for continuous scores). By default
  it is timed once, over every threshold. With ``--sklearn-thresholds K`` only its loop over the
  first K thresholds is timed (scikit-learn's own function on the K highest-scoring distinct
  values is not the same work, so the script runs the same loop as scikit-learn's body: sort,
  then ``f1_score(y_sorted, (score_sorted >= t).astype(int32))`` per threshold) and the time is
  extrapolated linearly to all thresholds: every call does the same work, O(n), whatever the
  threshold.
* ``clfeval.metrics.metric_at_thresholds`` with the same ``sklearn.metrics.f1_score`` (the
  drop-in case: a user's code keeps passing scikit-learn's metric) and with clfeval's own
  ``f1_score``: best of ``--repeats`` warm calls. Target: at least 100x faster than scikit-learn.
* The one-primitive bound: one ``np.argsort`` of the scores (best of ``--repeats``); every sweep
  sorts the scores once.

Both results are checked to agree (largest absolute difference, thresholds equal).
Data: y uniform over {0, 1}; score = sigmoid(+-1.5 + N(0, 1)), float64 (continuous: n distinct
values). Writes ``results/metric_at_thresholds.json`` and ``results/metric_at_thresholds_table.md``
(atomically) and prints one line.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import sklearn
from sklearn.metrics import f1_score as sk_f1
from sklearn.metrics import metric_at_thresholds as sk_metric_at_thresholds

from bench_io import machine_info, write_text_atomic

from clfeval.metrics import f1_score as cf_f1
from clfeval.metrics import metric_at_thresholds

RESULTS = Path(__file__).resolve().parent / "results"
TARGET_RATIO = 100.0


def _best(call, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def _sklearn_loop(y: np.ndarray, s: np.ndarray, k: int) -> tuple[np.ndarray, float]:
    """scikit-learn's loop over the first k thresholds (its sort included), and its time."""
    start = time.perf_counter()
    order = np.argsort(s, kind="stable")[::-1]
    ys, ss = y[order], s[order]
    thresholds = ss[np.append(np.flatnonzero(np.diff(ss)), ss.size - 1)][:k]
    values = np.asarray([sk_f1(ys, (ss >= t).astype(np.int32)) for t in thresholds])
    return values, time.perf_counter() - start


def table(record: dict) -> str:
    """The Markdown table of one run (written next to the JSON)."""
    ms = 1000.0
    return (
        "| n | thresholds | scikit-learn | clfeval (sklearn's f1_score) | clfeval (own f1_score) | ratio | one argsort |\n"
        "|---:|---:|---:|---:|---:|---:|---:|\n"
        f"| {record['n']:,} | {record['n_thresholds']:,} | {record['sklearn_seconds']:.1f} s | "
        f"{record['clfeval_seconds'] * ms:.2f} ms | {record['clfeval_seconds_own_f1'] * ms:.2f} ms | "
        f"{record['ratio']:,.0f}x (target >= {record['ratio_target']:.0f}x) | "
        f"{record['argsort_bound_seconds'] * ms:.2f} ms (clfeval = {record['clfeval_over_bound']:.1f}x) |\n\n"
        f"scikit-learn 1.9.1: {record['sklearn_how']}; clfeval: best of {record['clfeval_repeats']} warm calls; "
        f"{record['machine']['cores']} cores ({record['machine']['cpu']}), {record['when']}.\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=2e4)
    parser.add_argument("--sklearn-thresholds", type=int, default=0,
                        help="time scikit-learn on this many thresholds and extrapolate (0: all, the default)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    n = int(args.n)
    rng = np.random.default_rng(args.seed)
    y = rng.integers(0, 2, n)
    s = 1.0 / (1.0 + np.exp(-(np.where(y == 1, 1.5, -1.5) + rng.normal(size=n))))
    for a in (y, s):
        a.flags.writeable = False

    metric_at_thresholds(y[:100], s[:100], sk_f1)  # warm up (imports, first-call costs)
    ours, thresholds = metric_at_thresholds(y, s, sk_f1)
    t_ours = _best(lambda: metric_at_thresholds(y, s, sk_f1), args.repeats)
    t_ours_own = _best(lambda: metric_at_thresholds(y, s, cf_f1), args.repeats)
    t_bound = _best(lambda: np.argsort(s), args.repeats)

    m = thresholds.size
    if args.sklearn_thresholds and args.sklearn_thresholds < m:
        k = args.sklearn_thresholds
        theirs, t_part = _sklearn_loop(y, s, k)
        t_sklearn = t_part * m / k
        how = f"scikit-learn's loop timed over the first {k} of {m} thresholds, extrapolated linearly"
        max_diff = float(np.max(np.abs(theirs - ours[:k])))
        same_thresholds = True
    else:
        start = time.perf_counter()
        theirs, sk_thresholds = sk_metric_at_thresholds(y, s, sk_f1)
        t_sklearn = time.perf_counter() - start
        how = f"sklearn.metrics.metric_at_thresholds timed once over all {m} thresholds"
        max_diff = float(np.max(np.abs(theirs - ours)))
        same_thresholds = bool(np.array_equal(sk_thresholds, thresholds))
    ratio = t_sklearn / t_ours
    record = {
        "benchmark": "metric_at_thresholds",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_info(),
        "sklearn": sklearn.__version__,
        "n": n,
        "n_thresholds": int(m),
        "metric": "f1_score",
        "sklearn_seconds": t_sklearn,
        "sklearn_how": how,
        "clfeval_seconds": t_ours,
        "clfeval_seconds_own_f1": t_ours_own,
        "clfeval_repeats": args.repeats,
        "argsort_bound_seconds": t_bound,
        "ratio": ratio,
        "ratio_target": TARGET_RATIO,
        "ratio_pass": ratio >= TARGET_RATIO,
        "clfeval_over_bound": t_ours / t_bound,
        "max_abs_difference": max_diff,
        "same_thresholds": same_thresholds,
    }
    write_text_atomic(args.out / "metric_at_thresholds.json", json.dumps(record, indent=2) + "\n")
    write_text_atomic(args.out / "metric_at_thresholds_table.md", table(record))
    print(
        f"metric_at_thresholds(f1_score) n={n}, {m} thresholds: scikit-learn {t_sklearn:.1f} s "
        f"({how}); clfeval {t_ours * 1000:.2f} ms (own f1_score {t_ours_own * 1000:.2f} ms); "
        f"ratio {ratio:.0f}x ({'PASS' if record['ratio_pass'] else 'FAIL'} >= {TARGET_RATIO:.0f}x); "
        f"one argsort {t_bound * 1000:.2f} ms (clfeval = {t_ours / t_bound:.1f}x the bound); "
        f"max |difference| {max_diff:.1e}, thresholds {'equal' if same_thresholds else 'DIFFER'}"
    )


if __name__ == "__main__":
    main()
