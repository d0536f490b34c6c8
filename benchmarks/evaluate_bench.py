#!/usr/bin/env python
"""Time the main job against what people do today, in the same process, on the same data.

    python benchmarks/evaluate_bench.py             # n = 10^7 (the targets are checked there)
    python benchmarks/evaluate_bench.py --n 1e6     # a quicker run

Three comparisons, each printed with its PASS/FAIL against the issue's target:

* ``clfeval.evaluate`` on binary predictions with scores, building everything a person looks at
  (report, ROC and PR curves, ROC AUC, average precision, break-even point), against the sequence
  of scikit-learn calls that gives the same: confusion_matrix, classification_report, roc_curve,
  auc, roc_auc_score, precision_recall_curve, average_precision_score. Target: 30x.
  A 10-class case (report, one-vs-rest ROC and PR per class, micro and macro curves and areas) at
  10^6 and at n (up to ``--mc-max``, default 10^7) against scikit-learn's sequence (target: 20x) and
  against 10 binary evaluations of the same n (target: no slower).
* the whole binary report: ``ev = clfeval.evaluate(y_true, y_pred, y_score); ev.to_json()`` (every
  section ``clfeval report --json`` writes: report, curves, operating points, cost and decision
  curves, calibration, PRG) against one ``np.sort`` of the scores (issue 23). Target: within 4x.
* ``clfeval report FILE.parquet --json OUT`` against pyarrow alone reading the same file, both as
  fresh processes (target: under 2x), and the same in-process and warm (no target).

Writes ``results/evaluate.json`` and ``results/evaluate_table.md`` (put into the README by
``benchmarks/update_readme.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import sklearn
import sklearn.metrics as skm

from bench_data import BINARY, MULTICLASS, make_dataset
from bench_io import machine_info, write_text_atomic
from bench_measure import interleaved
from bench_report import format_n

import clfeval

RESULTS = Path(__file__).resolve().parent / "results"
TARGET_EVALUATE = 30.0
TARGET_MULTICLASS = 20.0  # 10 classes, at 10^6 and 10^7
TARGET_REPORT = 4.0  # evaluate() + to_json(), in sorts of the scores
TARGET_CLI = 2.0


def clfeval_binary(y_true: np.ndarray, y_score: np.ndarray) -> Any:
    ev = clfeval.evaluate(y_true, y_score=y_score)
    return ev.report, ev.roc.main, ev.pr.main, ev.break_even


def clfeval_report_json(y_true: np.ndarray, y_pred: np.ndarray, y_score: np.ndarray) -> str:
    """The whole binary report as ``clfeval report --json`` writes it (less the columns read)."""
    return clfeval.evaluate(y_true, y_pred, y_score).to_json()


def report_row(n: int, repeats: int) -> dict[str, Any]:
    """evaluate() + to_json() against one np.sort of the float64 scores (issue 23: within 4x)."""
    data = make_dataset(BINARY, n, seed=0)
    times = interleaved(
        {
            "sort": lambda: np.sort(data.y_score),
            "clfeval": lambda: clfeval_report_json(data.y_true, data.y_pred, data.y_score),
        },
        repeats,
    )
    ratio = times["clfeval"] / times["sort"]
    return {
        "what": "`evaluate(y, y_pred, y_score).to_json()` (every section the CLI writes) vs one `np.sort`",
        "n": n, "baseline_s": times["sort"], "clfeval_s": times["clfeval"], "ratio": ratio,
        "target": f"<= {TARGET_REPORT:g}x one np.sort", "pass": ratio <= TARGET_REPORT,
    }


def sklearn_binary(y_true: np.ndarray, y_score: np.ndarray) -> Any:
    y_pred = (y_score >= 0.5).astype(y_true.dtype)
    cm = skm.confusion_matrix(y_true, y_pred)
    report = skm.classification_report(y_true, y_pred, output_dict=True)
    fpr, tpr, thr = skm.roc_curve(y_true, y_score)
    area = skm.auc(fpr, tpr)
    auc = skm.roc_auc_score(y_true, y_score)
    prec, rec, pthr = skm.precision_recall_curve(y_true, y_score)
    ap = skm.average_precision_score(y_true, y_score)
    return cm, report, (fpr, tpr, thr, area, auc), (prec, rec, pthr, ap)


def clfeval_multiclass(y_true: np.ndarray, y_score: np.ndarray) -> Any:
    ev = clfeval.evaluate(y_true, y_score=y_score)
    return ev.report, ev.roc, ev.pr


def sklearn_multiclass(y_true: np.ndarray, y_score: np.ndarray) -> Any:
    k = y_score.shape[1]
    y_pred = y_score.argmax(axis=1)
    cm = skm.confusion_matrix(y_true, y_pred)
    report = skm.classification_report(y_true, y_pred, output_dict=True)
    onehot = y_true[:, None] == np.arange(k)
    curves = [skm.roc_curve(onehot[:, c], y_score[:, c]) for c in range(k)]
    curves.append(skm.roc_curve(onehot.ravel(), y_score.ravel()))
    pr = [skm.precision_recall_curve(onehot[:, c], y_score[:, c]) for c in range(k)]
    auc = skm.roc_auc_score(y_true, y_score, multi_class="ovr", average=None)
    ap = skm.average_precision_score(onehot, y_score, average=None)
    return cm, report, curves, pr, auc, ap


def ten_binary(y_true: np.ndarray, y_score: np.ndarray) -> Any:
    """What the 10-class case is held to: 10 binary evaluations of the same n."""
    return [clfeval_binary(y_true, y_score) for _ in range(10)]


def multiclass_rows(n: int, repeats: int) -> list[dict[str, Any]]:
    """The 10-class ``evaluate()`` against scikit-learn's sequence and against 10 binary
    evaluations of the same n, all three timed interleaved."""
    data = make_dataset(MULTICLASS, n, seed=0)
    binary = make_dataset(BINARY, n, seed=0)
    times = interleaved(
        {
            "sklearn": lambda: sklearn_multiclass(data.y_true, data.y_score),
            "clfeval": lambda: clfeval_multiclass(data.y_true, data.y_score),
            "binary": lambda: ten_binary(binary.y_true, binary.y_score),
        },
        repeats,
    )
    what = "`evaluate()`: report, one-vs-rest ROC and PR per class + micro/macro (10 classes)"
    speedup, versus_binary = times["sklearn"] / times["clfeval"], times["binary"] / times["clfeval"]
    return [
        {"what": what, "n": n, "baseline_s": times["sklearn"], "clfeval_s": times["clfeval"], "ratio": speedup,
         "target": f">= {TARGET_MULTICLASS:g}x faster than sklearn", "pass": speedup >= TARGET_MULTICLASS},
        {"what": "the same 10-class `evaluate()` vs 10 binary evaluations of the same n (baseline)", "n": n,
         "baseline_s": times["binary"], "clfeval_s": times["clfeval"], "ratio": versus_binary,
         "target": "no slower than 10 binary evaluations", "pass": versus_binary >= 1.0},
    ]


def check_agreement(y_true: np.ndarray, y_score: np.ndarray) -> None:
    """The compared calls must give the same numbers, or the timing means nothing."""
    ev = clfeval.evaluate(y_true, y_score=y_score)
    assert abs(ev.report.overall["roc_auc"] - skm.roc_auc_score(y_true, y_score)) < 1e-12
    assert abs(ev.report.overall["average_precision"] - skm.average_precision_score(y_true, y_score)) < 1e-12
    cm = skm.confusion_matrix(y_true, (y_score >= 0.5).astype(y_true.dtype))
    assert np.array_equal(ev.confusion.counts, cm)


def cli_rows(n: int, repeats: int) -> list[dict[str, Any]]:
    """Time the CLI on a Parquet file of n rows against pyarrow reading it.

    The headline (with the target) compares what a person runs: ``clfeval report FILE --json OUT``
    against ``python -c "pyarrow.parquet.read_table(FILE)"``, each a fresh process (interpreter,
    imports, reading; the file in the page cache for both). A second row compares the same work
    in-process and warm (no imports), for information: there the exact sort of 10^7 scores that
    every ROC/PR/AUC needs costs several times pyarrow's multi-threaded read.
    """
    import shutil
    import subprocess

    try:
        import pyarrow as pa
        import pyarrow.parquet as pq

        from clfeval import cli
    except ImportError as exc:
        print(f"skipped the CLI comparison: {exc}")
        return []
    data = make_dataset(BINARY, n, seed=1)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "predictions.parquet"
        pq.write_table(pa.table({"y_true": data.y_true, "y_score": data.y_score}), path)
        del data
        size = path.stat().st_size
        out = Path(tmp) / "report.json"
        argv = ["report", str(path), "--json", str(out), "--no-progress"]
        command = shutil.which("clfeval")
        clfeval_cmd = [command, *argv] if command else [sys.executable, "-m", "clfeval", *argv]
        pyarrow_cmd = [sys.executable, "-c", f"import pyarrow.parquet as pq; pq.read_table({str(path)!r})"]

        def run(cmd: list[str]) -> Callable[[], Any]:
            return lambda: subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        # fresh processes vary more (page faults, caches): best of at least 5 each
        times = interleaved({"pyarrow": run(pyarrow_cmd), "clfeval": run(clfeval_cmd)}, max(5, repeats))
        ratio = times["clfeval"] / times["pyarrow"]
        rows.append({
            "what": "`clfeval report FILE.parquet --json OUT` vs `python -c 'pq.read_table(FILE)'` (fresh processes)",
            "n": n, "file_mib": size / 2**20, "baseline_s": times["pyarrow"], "clfeval_s": times["clfeval"],
            "ratio": ratio, "target": f"< {TARGET_CLI:g}x pyarrow", "pass": ratio < TARGET_CLI,
        })
        import contextlib
        import io

        calls = {"pyarrow": lambda: pq.read_table(path), "clfeval": lambda: cli.main(argv)}
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            times = interleaved(calls, repeats)
        rows.append({
            "what": "the same in-process, warm (no interpreter start or imports)",
            "n": n, "file_mib": size / 2**20, "baseline_s": times["pyarrow"], "clfeval_s": times["clfeval"],
            "ratio": times["clfeval"] / times["pyarrow"], "target": "(none; pyarrow)", "pass": None,
        })
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--n", type=float, default=1e7, help="rows (default 1e7)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only; leave results/ alone")
    parser.add_argument("--mc-max", type=float, default=1e7,
                        help="largest n of the 10-class rows (default 1e7; they also run at 1e6)")
    args = parser.parse_args()
    n = int(args.n)
    warnings.simplefilter("ignore")
    rows: list[dict[str, Any]] = []

    data = make_dataset(BINARY, n, seed=0)
    check_agreement(data.y_true, data.y_score)
    times = interleaved(
        {
            "sklearn": lambda: sklearn_binary(data.y_true, data.y_score),
            "clfeval": lambda: clfeval_binary(data.y_true, data.y_score),
        },
        args.repeats,
    )
    speedup = times["sklearn"] / times["clfeval"]
    rows.append({
        "what": "`evaluate()`: report, ROC, PR, AUC, AP, break-even (binary)",
        "n": n,
        "baseline_s": times["sklearn"],
        "clfeval_s": times["clfeval"],
        "ratio": speedup,
        "target": f">= {TARGET_EVALUATE:g}x faster than sklearn",
        "pass": speedup >= TARGET_EVALUATE,
    })
    del data

    for n_mc in sorted({min(n, 10**6), min(n, int(args.mc_max))}):
        rows += multiclass_rows(n_mc, max(1, args.repeats - 1))

    rows.append(report_row(n, args.repeats))
    rows += cli_rows(n, args.repeats)

    for r in rows:
        verdict = "" if r["pass"] is None else ("PASS" if r["pass"] else "FAIL")
        print(f"{r['what']}  n={r['n']:.0e}  baseline {r['baseline_s']:.3f} s  clfeval {r['clfeval_s']:.3f} s  "
              f"ratio {r['ratio']:.2f}  target {r['target']}  {verdict}")
    meta = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "sklearn": sklearn.__version__,
        "clfeval": clfeval.__version__,
        "machine": machine_info(),
    }
    if not args.no_write:
        write_text_atomic(RESULTS / "evaluate.json", json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
        write_text_atomic(RESULTS / "evaluate_table.md", markdown(rows, meta))
    return 0 if all(r["pass"] is not False for r in rows) else 1


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = [
        "<!-- Generated by benchmarks/evaluate_bench.py; do not edit by hand. -->",
        "| what | n | baseline s | clfeval s | ratio | target |",
        "|:---|---:|---:|---:|---:|:---|",
    ]
    for r in rows:
        verdict = "" if r["pass"] is None else (" ✔" if r["pass"] else " ✘")
        if "pyarrow" in r["target"]:
            ratio = f"{r['ratio']:.2f}× pyarrow"
        elif "np.sort" in r["target"]:
            ratio = f"{r['ratio']:.2f}× one sort"
        else:
            ratio = f"{r['ratio']:.1f}× faster"
        lines.append(
            f"| {r['what']} | {format_n(r['n'])} | {r['baseline_s']:.3g} | {r['clfeval_s']:.3g} | {ratio} | {r['target']}{verdict} |"
        )
    machine = meta["machine"]
    lines.append("")
    lines.append(f"Measured {meta['date'][:10]} with scikit-learn {meta['sklearn']} on {machine.get('cpu', 'this machine')}.")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
