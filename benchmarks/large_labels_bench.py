#!/usr/bin/env python
"""Large label sets: time and peak memory of label metrics at 2*10^4 and 10^5 classes.

    python benchmarks/large_labels_bench.py                  # k = 2*10^4 and 10^5, n = 2*10^5
    python benchmarks/large_labels_bench.py --k 1e5 --n 2e5  # one size

Each case runs in a fresh process (so peaks do not mix) on the same data: n rows, true labels
uniform over k classes, predictions right half of the time and uniform otherwise (int64). Measured,
in the same run, for scikit-learn and clfeval:

* ``accuracy_score``, ``f1_score(average="macro")``;
* clfeval's ``evaluate()`` with its report (per-class rows, averages, accuracy, balanced accuracy,
  MCC, kappa), against scikit-learn's nearest single call, ``classification_report(output_dict=True)``
  (its MCC and kappa build a dense k x k table: 3.2 GB at 2*10^4, 80 GB at 10^5);
* the one-primitive bound: one ``np.unique`` of the pair codes ``true * k + pred`` (what any exact
  method must at least do: group the (true, predicted) pairs).

Columns: the best of ``--repeats`` wall times; ``traced``: tracemalloc's peak of the call (numpy
reports its buffers to tracemalloc); ``RSS``: the process's peak resident memory (ru_maxrss), and
``+RSS``: that peak above the resident memory before the call (imports and data included in
``RSS``, not in ``+RSS``). Before issue 16, clfeval built a dense k x k table here: 6.1 GiB and
14.7 s at 2*10^4 classes, a MemoryError (67-75 GiB asked) at 10^5.

Writes ``results/large_labels.json`` and ``results/large_labels_table.md`` (``--out DIR``
elsewhere) and prints the table. No targets are asserted: this is a measurement.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench_io import machine_info, write_text_atomic

RESULTS = Path(__file__).resolve().parent / "results"
SRC = Path(__file__).resolve().parents[1] / "src"

CASES: list[tuple[str, str, str]] = [
    # (library, call name, expression over yt, yp, k)
    ("scikit-learn", "accuracy_score", "skm.accuracy_score(yt, yp)"),
    ("clfeval", "accuracy_score", "cm.accuracy_score(yt, yp)"),
    ("scikit-learn", "f1_score macro", "skm.f1_score(yt, yp, average='macro')"),
    ("clfeval", "f1_score macro", "cm.f1_score(yt, yp, average='macro')"),
    ("scikit-learn", "classification_report", "skm.classification_report(yt, yp, output_dict=True)['macro avg']['f1-score']"),
    ("clfeval", "evaluate + report", "clfeval.evaluate(yt, yp).report.averages['macro']['f1']"),
    ("numpy", "bound: np.unique(pairs)", "np.unique(yt * k + yp, return_counts=True)[0].size"),
]

CHILD = textwrap.dedent("""
    import json, resource, sys, time, tracemalloc, warnings
    import numpy as np
    warnings.simplefilter("ignore")
    import sklearn.metrics as skm
    import clfeval
    import clfeval.metrics as cm
    k, n, repeats, expr = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rng = np.random.default_rng(0)
    yt = rng.integers(0, k, n)
    yp = np.where(rng.random(n) < 0.5, yt, rng.integers(0, k, n))
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    times = []
    tracemalloc.start()
    for _ in range(repeats):
        t = time.perf_counter()
        value = eval(expr)
        times.append(time.perf_counter() - t)
    traced = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": min(times), "traced_bytes": traced, "rss_kib": rss,
                      "rss_before_kib": rss_before, "value": float(value)}))
""")


def run_case(k: int, n: int, repeats: int, expr: str, timeout: float) -> dict[str, Any]:
    env_path = str(SRC)
    try:
        proc = subprocess.run([sys.executable, "-c", CHILD, str(k), str(n), str(repeats), expr],
                              capture_output=True, text=True, timeout=timeout,
                              env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:g} s"}
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["exit status %d" % proc.returncode])[-1]
        return {"error": last[:160]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _mib(kib_or_bytes: float, unit: str) -> str:
    value = kib_or_bytes / 1024 if unit == "kib" else kib_or_bytes / 2**20
    return f"{value:,.0f}"


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| k | library | call | time (s) | traced peak (MiB) | RSS peak (MiB) | +RSS (MiB) | value |",
        "|---:|:---|:---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        m = r["result"]
        if "error" in m:
            lines.append(f"| {r['k']:,} | {r['library']} | {r['call']} | error: {m['error']} | | | | |")
            continue
        lines.append(
            f"| {r['k']:,} | {r['library']} | {r['call']} | {m['seconds']:.3f} | {_mib(m['traced_bytes'], 'b')} | "
            f"{_mib(m['rss_kib'], 'kib')} | {_mib(m['rss_kib'] - m['rss_before_kib'], 'kib')} | {m['value']:.6g} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--k", type=float, nargs="+", default=[2e4, 1e5], help="numbers of classes")
    p.add_argument("--n", type=float, default=2e5, help="rows")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per case")
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    n = int(args.n)
    rows = []
    for k in (int(x) for x in args.k):
        for library, call, expr in CASES:
            result = run_case(k, n, args.repeats, expr, args.timeout)
            rows.append({"k": k, "n": n, "library": library, "call": call, "result": result})
            print(table(rows[-1:]).splitlines()[-1], flush=True)
    text = table(rows)
    print()
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    data = {"when": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine_info(), "n": n, "rows": rows}
    write_text_atomic(args.out / "large_labels.json", json.dumps(data, indent=2) + "\n")
    write_text_atomic(args.out / "large_labels_table.md", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
