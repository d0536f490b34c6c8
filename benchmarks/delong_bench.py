#!/usr/bin/env python
"""DeLong's test on 10^6 predictions against a paired bootstrap that calls scikit-learn.

    python benchmarks/delong_bench.py                 # n = 10^6, 20 bootstrap replicates timed
    python benchmarks/delong_bench.py --n 1e5 --replicates 10

What is compared (same process, same data):

* ``clfeval.stats.delong.delong(y, score_a, score_b)``: the test for two correlated AUCs, with
  its interval (best of ``--repeats`` warm calls). Target: under 1 s at n = 10^6.
* The usual alternative without DeLong: a paired bootstrap of the AUC difference, each
  replicate resampling the rows (``rng.integers``) and calling ``sklearn.metrics.roc_auc_score``
  twice. A useful bootstrap needs B = 2000 replicates, which would take long, so only
  ``--replicates`` (default 20) are timed, and the time of B = 2000 is extrapolated linearly
  from the measured time per replicate (each replicate costs the same). Target: DeLong at least
  100x faster than the extrapolated 2000-replicate bootstrap.

Data: y uniform over {0, 1}; scores N(0, 1) plus 1.0 (A) or 0.8 (B) for positives, float64.
Writes ``results/delong.json`` (atomically) and prints one line.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import sklearn
from sklearn.metrics import roc_auc_score

from bench_io import machine_info, write_text_atomic

from clfeval.stats.delong import delong

RESULTS = Path(__file__).resolve().parent / "results"
TARGET_SECONDS = 1.0
TARGET_RATIO = 100.0
BOOTSTRAP_B = 2000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e6)
    parser.add_argument("--replicates", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    n = int(args.n)
    rng = np.random.default_rng(args.seed)
    y = rng.integers(0, 2, n)
    a = rng.normal(size=n) + 1.0 * y
    b = rng.normal(size=n) + 0.8 * y

    delong(y[:1000], a[:1000], b[:1000])  # warm up (imports, first-call costs)
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        result = delong(y, a, b)
        times.append(time.perf_counter() - start)
    t_delong = min(times)

    boot_rng = np.random.default_rng(args.seed + 1)
    start = time.perf_counter()
    diffs = []
    for _ in range(args.replicates):
        idx = boot_rng.integers(0, n, n)
        diffs.append(roc_auc_score(y[idx], a[idx]) - roc_auc_score(y[idx], b[idx]))
    t_boot = time.perf_counter() - start
    per_replicate = t_boot / args.replicates
    t_boot_full = per_replicate * BOOTSTRAP_B
    ratio = t_boot_full / t_delong

    record = {
        "benchmark": "delong",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_info(),
        "sklearn": sklearn.__version__,
        "n": n,
        "delong_seconds": t_delong,
        "delong_repeats": args.repeats,
        "delong_target_seconds": TARGET_SECONDS,
        "delong_pass": t_delong < TARGET_SECONDS,
        "bootstrap_replicates_timed": args.replicates,
        "bootstrap_seconds_timed": t_boot,
        "bootstrap_seconds_per_replicate": per_replicate,
        "bootstrap_B": BOOTSTRAP_B,
        "bootstrap_seconds_extrapolated": t_boot_full,
        "ratio": ratio,
        "ratio_target": TARGET_RATIO,
        "ratio_pass": ratio >= TARGET_RATIO,
        "how": ("delong: best of repeats, warm; bootstrap: rows resampled with rng.integers and "
                "sklearn.metrics.roc_auc_score called for A and B per replicate; "
                f"{args.replicates} replicates timed, time per replicate x {BOOTSTRAP_B}"),
        "auc_difference": result.estimate,
        "delong_se": result.extra["se"],
        "bootstrap_se_from_timed_replicates": float(np.std(diffs, ddof=1)) if len(diffs) > 1 else None,
    }
    write_text_atomic(args.out / "delong.json", json.dumps(record, indent=2) + "\n")
    print(
        f"delong n={n:.0e}: {t_delong * 1000:.0f} ms ({'PASS' if record['delong_pass'] else 'FAIL'} < "
        f"{TARGET_SECONDS:.0f} s); sklearn bootstrap {per_replicate * 1000:.0f} ms/replicate x {BOOTSTRAP_B} = "
        f"{t_boot_full:.0f} s (extrapolated from {args.replicates}); ratio {ratio:.0f}x "
        f"({'PASS' if record['ratio_pass'] else 'FAIL'} >= {TARGET_RATIO:.0f}x)"
    )


if __name__ == "__main__":
    main()
