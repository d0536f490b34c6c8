#!/usr/bin/env python
"""Time what issue 22's measures add to an evaluation that already holds the ranking.

    python benchmarks/measures_bench.py             # n = 10^7 (the target is checked there)
    python benchmarks/measures_bench.py --n 1e6     # a quicker run

Binary data of ``bench_data.make_dataset``; ``ev = clfeval.evaluate(y, y_score=s)`` is built once
and its ranking touched (``ev.roc``). Then, interleaved and best of R, one ``np.sort`` of the
scores (the cost of the one primitive every ranking needs) and each added measure on the warm
Evaluation (per-Evaluation caches cleared before each call). Target (issue 22): each measure adds
at most half a sort (ratio <= 0.5); the estimates and their intervals carry it. Three rows are timed
for the record with no target of their own (the consistency band, the whole calibration report,
``at_prevalence``): they are parts of the whole report, whose budget is issue 23's.

Writes ``results/measures.json`` and ``results/measures_table.md`` (put into the README by
``benchmarks/update_readme.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from bench_data import BINARY, make_dataset
from bench_io import machine_info, write_text_atomic
from bench_measure import interleaved
from bench_report import format_n

import clfeval
from clfeval.calibration.modern import corp_and_smooth_ece, view_counts_of_ranking
from clfeval.formulas.curves import mcclish_standardized, partial_roc_area
from clfeval.formulas.isotonic import corp_decompositions, pav_blocks_of_counts
from clfeval.formulas.prg import prg_area
from clfeval.formulas.smooth_ece import smooth_ece_of_counts

RESULTS = Path(__file__).resolve().parent / "results"
TARGET = 0.5  # at most half a sort of the scores
#: rows timed for the record, with no target of their own: the whole report's budget (issue 23) holds them
UNTARGETED = frozenset({"smooth_corp_band", "calibration", "at_prevalence"})


def measures(ev: Any) -> dict[str, tuple[str, Callable[[], Any]]]:
    """The timed calls on the warm Evaluation ``ev``: name -> (what it does, call)."""
    ranking = ev.ranking(ev.names[ev.positive_index])
    roc = ev.roc.main

    def fresh(call: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            ev.__dict__.pop("_calibration_cache", None)
            return call()
        return run

    # what ev.calibration() reads: the ranking's distinct probabilities with their counts and, for
    # integer counts, its running counts (kept by the ranking; ev.roc above computed them)
    def calibration_counts() -> tuple[np.ndarray, Any, np.ndarray, Any]:
        counts = view_counts_of_ranking(ranking)
        v, neg, pos = counts
        return v, None if counts.one_each else neg, pos, counts.above

    def smooth() -> Any:
        v, neg, pos, above = calibration_counts()
        return smooth_ece_of_counts(v, neg, pos, above=above)

    report = ev.calibration()  # the forecasts' own Brier score and log loss, which CORP decomposes
    scores = {"brier": report.brier, "log": report.log_loss}

    def corp() -> Any:
        v, neg, pos, above = calibration_counts()
        blocks = pav_blocks_of_counts(neg, pos, above=above)
        return corp_decompositions(v, neg, pos, ("brier", "log"), blocks=blocks, forecast=scores, above=above)

    def smooth_corp_band() -> Any:
        v, neg, pos, above = calibration_counts()
        return corp_and_smooth_ece(v, neg, pos, view="v", forecast_scores=scores, above=above)

    def pauc() -> float:
        return mcclish_standardized(*partial_roc_area(roc.x, roc.y, 0.0, 0.1))

    def prg() -> float:
        return prg_area(ranking.neg, ranking.pos, cum_pos=ranking.tps,
                        cum_neg=None if ranking.neg is None else ranking.fps)

    return {
        "pauc": ("partial AUC, FPR 0-0.1 (McClish), estimate", pauc),
        "pauc_ci": ("partial AUC, FPR 0-0.1, with its DeLong-type interval: `ev.partial_auc((0, 0.1))`",
                    lambda: ev.partial_auc((0.0, 0.1))),
        "prg": ("PRG AUC, estimate", prg),
        "prg_ci": ("PRG AUC with its interval: `ev.prg_auc()`", ev.prg_auc),
        "smooth_ece": ("smooth ECE (with its bandwidth search)", smooth),
        "corp": ("CORP: isotonic recalibration, MCB/DSC/UNC of the Brier and log scores", corp),
        "smooth_corp_band": ("smooth ECE + CORP + consistency band (200 redraws), as `ev.calibration()` adds them",
                             smooth_corp_band),
        "calibration": ("`ev.calibration()` whole: binned ECE, Brier decomposition, smooth ECE, CORP with band",
                        fresh(ev.calibration)),
        "at_prevalence": ("measures at prevalence 0.1 with intervals, AP and PR curve: `ev.at_prevalence(0.1)`",
                          lambda: ev.at_prevalence(0.1)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--n", type=float, default=1e7, help="rows (default 1e7)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated measure keys to time (default: all)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave results/ alone")
    args = parser.parse_args()
    n = int(args.n)
    warnings.simplefilter("ignore")

    data = make_dataset(BINARY, n, seed=0)
    ev = clfeval.evaluate(data.y_true, y_score=data.y_score)
    ev.roc  # the ranking and its curves: what every added measure reads  # noqa: B018
    calls = measures(ev)
    if args.only:
        calls = {k: calls[k] for k in args.only.split(",")}
    for _, call in calls.values():  # warm: imports, first-touch pages
        call()
    timed = {"sort": lambda: np.sort(data.y_score)} | {k: c for k, (_, c) in calls.items()}
    times = interleaved(timed, args.repeats)
    sort_s = times["sort"]
    rows: list[dict[str, Any]] = []
    for key, (what, _) in calls.items():
        ratio = times[key] / sort_s
        rows.append({"key": key, "what": what, "n": n, "distinct": int(ev.ranking(ev.names[ev.positive_index]).scores.size),
                     "seconds": times[key], "sort_s": sort_s, "ratio": ratio,
                     "target": "(none; in the whole report's budget)" if key in UNTARGETED else f"<= {TARGET:g}x a sort",
                     "pass": None if key in UNTARGETED else ratio <= TARGET})
    print(f"np.sort of {n:.0e} scores: {sort_s:.3f} s (best of {args.repeats})")
    for r in rows:
        print(f"{r['what'][:90]:90s} {r['seconds']:8.3f} s  {r['ratio']:6.2f}x sort  {'' if r['pass'] is None else 'PASS' if r['pass'] else 'FAIL'}")
    meta = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "numpy": np.__version__,
            "clfeval": clfeval.__version__, "repeats": args.repeats, "machine": machine_info()}
    if not args.no_write:
        write_text_atomic(RESULTS / "measures.json", json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
        write_text_atomic(RESULTS / "measures_table.md", markdown(rows, meta))
    return 0 if all(r["pass"] is not False for r in rows) else 1


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = [
        "<!-- Generated by benchmarks/measures_bench.py; do not edit by hand. -->",
        "| added to a warm `evaluate()` | n | s | × one sort | target |",
        "|:---|---:|---:|---:|:---|",
    ]
    for r in rows:
        verdict = "" if r["pass"] is None else " ✔" if r["pass"] else " ✘"
        lines.append(f"| {r['what']} | {format_n(r['n'])} | {r['seconds']:.3g} | {r['ratio']:.2f} | "
                     f"{r['target']}{verdict} |")
    machine = meta["machine"]
    sort_s = rows[0]["sort_s"] if rows else float("nan")
    lines.append("")
    lines.append(f"One `np.sort` of the {format_n(rows[0]['n']) if rows else ''} scores: {sort_s:.3g} s. Best of "
                 f"{meta['repeats']}, measured {meta['date'][:10]} with numpy {meta['numpy']} on "
                 f"{machine.get('cpu', 'this machine')}.")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
