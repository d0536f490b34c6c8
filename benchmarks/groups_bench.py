#!/usr/bin/env python
"""Evaluation by group: what ``groups=`` costs, and its bootstrap intervals against fairlearn's.

    python benchmarks/groups_bench.py                 # n = 10^7 x 100 groups, and 10^5 x 3 groups
    python benchmarks/groups_bench.py --n 1e6 --fairlearn-boot 20   # quicker
    python benchmarks/groups_bench.py --no-write      # print only; leave results/ alone

Two comparisons, each in the same process, on the same arrays, with its PASS/FAIL:

* **overhead of groups**: ``clfeval.evaluate(y_true, y_score=p, groups=g)`` then
  ``ev.by_group.table()`` (every default metric of every group: the report's numbers, the selection
  rate, ROC AUC and AP) against a plain ``clfeval.evaluate(y_true, y_score=p)`` then ``ev.report``;
  binary, probabilities as scores (``bench_data``), n = 10^7, 100 groups of equal expected size
  (int64 codes, each row's group drawn at random). Best of 3, interleaved. Target: at most 3x.
  When it is missed the grouped call is profiled once (cProfile) and the steps are also timed one by
  one without the profiler; both go into the JSON.
* **bootstrap intervals per group**: n = 10^5, 3 groups (shares 0.5 / 0.3 / 0.2), binary predictions,
  accuracy and recall: ``evaluate(..., groups=g).by_group.table(["accuracy", "recall"], ci=0.95,
  method="bootstrap", n_resamples=1000)`` (the evaluate call included; best of 3) against fairlearn's
  ``MetricFrame(metrics=..., y_true, y_pred, sensitive_features=g, n_boot=100,
  ci_quantiles=[0.025, 0.975])`` with scikit-learn's ``accuracy_score`` and ``recall_score``, timed once
  and scaled x10 to 1,000 replicates (fairlearn resamples rows and recomputes every metric per
  replicate, so its time is linear in n_boot). Target: at least 1000x faster. ``MetricFrame``
  without ``n_boot`` (point values only; best of 3) is timed too, against clfeval's analytic
  intervals, for information.

Both check that the numbers agree (groups' values to 1e-12 with evaluate on each group's rows and with
fairlearn's ``by_group``) before the times mean anything.

Writes ``results/groups.json`` and ``results/groups_table.md`` (put into the README between the
GROUPS-TABLE markers by ``benchmarks/update_readme.py``).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import sklearn

from bench_data import BINARY, make_dataset
from bench_io import machine_info, write_text_atomic
from bench_measure import best_of, interleaved
from bench_report import format_n

import clfeval

RESULTS = Path(__file__).resolve().parent / "results"
TARGET_OVERHEAD = 3.0  # grouped / plain, at most
TARGET_BOOTSTRAP = 1000.0  # fairlearn (scaled to 1000 replicates) / clfeval, at least
BOOT_METRICS = ("accuracy", "recall")


def say(text: str = "") -> None:
    print(text, flush=True)


# ------------------------------------------------------------------------------------------
# a. what groups= costs at 10^7 rows
# ------------------------------------------------------------------------------------------
def plain(y_true: np.ndarray, y_score: np.ndarray) -> Any:
    ev = clfeval.evaluate(y_true, y_score=y_score)
    return ev.report


def grouped(y_true: np.ndarray, y_score: np.ndarray, groups: np.ndarray) -> Any:
    ev = clfeval.evaluate(y_true, y_score=y_score, groups=groups)
    return ev.by_group.table()


def _direct(ev: Any, key: str) -> float | None:
    """A number of the table read straight from an Evaluation's report or confusion counts."""
    if key in ev.report.overall:
        return float(ev.report.overall[key])
    row = ev.report.rows[ev.positive_index]
    if key in row:
        return float(row[key])
    if key == "selection_rate":
        counts = np.asarray(ev.confusion.counts, dtype=np.float64)
        return float(counts[:, ev.positive_index].sum() / counts.sum())
    return None


def check_groups(y_true: np.ndarray, y_score: np.ndarray, groups: np.ndarray) -> None:
    """The grouped table's numbers are evaluate's on each group's rows; the overall is the plain one."""
    ev = clfeval.evaluate(y_true, y_score=y_score, groups=groups)
    table = ev.by_group.table()
    assert ev.report.overall == clfeval.evaluate(y_true, y_score=y_score).report.overall
    checked = 0
    for j in (0, len(table.keys) - 1):
        rows = groups == table.keys[j]
        alone = clfeval.evaluate(y_true[rows], y_score=y_score[rows], threshold=ev.threshold)
        for m, key in enumerate(table.metrics):
            want = _direct(alone, key)
            if want is None:
                continue
            got = table.values[j, m]
            assert abs(got - want) <= 1e-12 * max(1.0, abs(want)), (key, got, want)
            checked += 1
        assert int(table.n[j]) == int(rows.sum())
    assert checked >= 2 * (len(table.metrics) - 2), (checked, table.metrics)


def steps(y_true: np.ndarray, y_score: np.ndarray, groups: np.ndarray, repeats: int) -> dict[str, float]:
    """The grouped call's steps timed one by one (best of ``repeats``, no profiler): reading the
    group keys, sorting the rows by group, the grouped evaluate in all, and the table."""
    from clfeval.evaluation.groups import sorted_rows
    from clfeval.inputs.group_keys import group_keys

    keys = group_keys(groups, y_true.size)
    out = {
        "plain evaluate + report": best_of(lambda: plain(y_true, y_score), repeats),
        "group_keys(groups)": best_of(lambda: group_keys(groups, y_true.size), repeats),
        "np.unique(groups, return_inverse=True) alone": best_of(lambda: np.unique(groups, return_inverse=True),
                                                               repeats),
        "sorted_rows(keys) (stable argsort of the codes)": best_of(lambda: sorted_rows(keys), repeats),
    }
    evaluate_s = table_s = float("inf")
    for _ in range(repeats):  # the table caches on its Evaluation: each round times a fresh one
        start = time.perf_counter()
        ev = clfeval.evaluate(y_true, y_score=y_score, groups=groups)
        middle = time.perf_counter()
        table = ev.by_group.table()
        end = time.perf_counter()
        evaluate_s, table_s = min(evaluate_s, middle - start), min(table_s, end - middle)
        del ev, table
    out["evaluate(groups=g)"] = evaluate_s
    out["by_group.table() (default metrics)"] = table_s
    return out


def profile(call: Callable[[], Any], top: int = 25) -> dict[str, Any]:
    """One profiled call: the top functions by cumulative and by own time (seconds, under cProfile)."""
    prof = cProfile.Profile()
    prof.enable()
    result = call()
    prof.disable()
    del result
    stats = pstats.Stats(prof)
    rows = []
    for (file, line, func), (cc, nc, tt, ct, _) in stats.stats.items():  # type: ignore[attr-defined]
        short = file.split("/src/")[-1].split("site-packages/")[-1]
        rows.append({"function": f"{short}:{line}({func})", "calls": nc, "own_s": tt, "cumulative_s": ct})
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(top)
    total = max(r["cumulative_s"] for r in rows)
    return {
        "total_s": total,
        "by_cumulative": sorted(rows, key=lambda r: -r["cumulative_s"])[:top],
        "by_own_time": sorted(rows, key=lambda r: -r["own_s"])[:top],
        "text": text.getvalue(),
    }


def overhead_row(n: int, n_groups: int, repeats: int, do_profile: bool) -> dict[str, Any]:
    data = make_dataset(BINARY, n, seed=0)
    y_true, y_score = data.y_true, data.y_score
    groups = np.random.default_rng(1).integers(0, n_groups, n)
    check_groups(y_true, y_score, groups)
    times = interleaved({"plain": lambda: plain(y_true, y_score),
                         "grouped": lambda: grouped(y_true, y_score, groups)}, repeats)
    ratio = times["grouped"] / times["plain"]
    row: dict[str, Any] = {
        "what": f"`evaluate(groups=g)` + `by_group.table()` vs `evaluate()` + `report` "
                f"(binary, probabilities, {n_groups} groups)",
        "n": n, "groups": n_groups, "baseline_s": times["plain"], "clfeval_s": times["grouped"],
        "ratio": ratio, "ratio_kind": "slower", "target": f"<= {TARGET_OVERHEAD:g}x the plain call",
        "pass": ratio <= TARGET_OVERHEAD,
    }
    if do_profile or not row["pass"]:
        say("profiling the grouped call (target missed or --profile) ...")
        row["steps_s"] = steps(y_true, y_score, groups, repeats)
        row["profile"] = profile(lambda: grouped(y_true, y_score, groups))
        row["profile_plain"] = profile(lambda: plain(y_true, y_score))
    return row


# ------------------------------------------------------------------------------------------
# b. bootstrap intervals per group against fairlearn
# ------------------------------------------------------------------------------------------
def boot_data(n: int, seed: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Binary labels (prevalence 0.4), predictions right 80% of the time, 3 groups (0.5 / 0.3 / 0.2)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(np.int64)
    p = np.where(rng.random(n) < 0.8, y, 1 - y)
    g = rng.choice(np.array(["a", "b", "c"]), n, p=[0.5, 0.3, 0.2])
    return y, p, g


def clfeval_boot(y: np.ndarray, p: np.ndarray, g: np.ndarray, n_resamples: int) -> Any:
    ev = clfeval.evaluate(y, p, groups=g)
    return ev.by_group.table(list(BOOT_METRICS), ci=0.95, method="bootstrap", n_resamples=n_resamples)


def clfeval_analytic(y: np.ndarray, p: np.ndarray, g: np.ndarray) -> Any:
    return clfeval.evaluate(y, p, groups=g).by_group.table(list(BOOT_METRICS), ci=0.95)


def fairlearn_frame(y: np.ndarray, p: np.ndarray, g: np.ndarray, n_boot: int | None) -> Any:
    from fairlearn.metrics import MetricFrame
    from sklearn.metrics import accuracy_score, recall_score

    kw: dict[str, Any] = {}
    if n_boot:
        kw = {"n_boot": n_boot, "ci_quantiles": [0.025, 0.975], "random_state": 0}
    frame = MetricFrame(metrics={"accuracy": accuracy_score, "recall": recall_score}, y_true=y, y_pred=p,
                        sensitive_features=g, **kw)
    return frame, (frame.by_group_ci if n_boot else frame.by_group)


def bootstrap_rows(n: int, fairlearn_boot: int, n_resamples: int, repeats: int) -> tuple[list[dict[str, Any]], dict]:
    try:
        import fairlearn
    except ImportError as exc:
        say(f"skipped the fairlearn comparison: {exc} (pip install -e '.[bench]')")
        return [], {}
    y, p, g = boot_data(n)
    table = clfeval_boot(y, p, g, n_resamples)
    frame, _ = fairlearn_frame(y, p, g, None)
    by_group = frame.by_group
    for j, key in enumerate(table.keys):
        for m, metric in enumerate(BOOT_METRICS):
            want = float(by_group.loc[key, metric])
            assert abs(table.values[j, m] - want) <= 1e-12, (key, metric, table.values[j, m], want)
    # warm both (imports, first calls), then time
    clfeval_analytic(y, p, g)
    ours = best_of(lambda: clfeval_boot(y, p, g, n_resamples), repeats)
    ours_analytic = best_of(lambda: clfeval_analytic(y, p, g), repeats)
    plain_frame = best_of(lambda: fairlearn_frame(y, p, g, None), repeats)
    start = time.perf_counter()
    frame, (low, high) = fairlearn_frame(y, p, g, fairlearn_boot)
    boot_seconds = time.perf_counter() - start
    scaled = boot_seconds * n_resamples / fairlearn_boot
    ratio = scaled / ours
    widths = {
        "clfeval_bootstrap": {f"{k} {metric}": float(table.high[j, m] - table.low[j, m])
                              for j, k in enumerate(table.keys) for m, metric in enumerate(BOOT_METRICS)},
        f"fairlearn_n_boot_{fairlearn_boot}": {f"{k} {metric}": float(high.loc[k, metric] - low.loc[k, metric])
                                                for k in table.keys for metric in BOOT_METRICS},
    }
    rows = [
        {
            "what": f"{n_resamples} bootstrap replicates, per-group 95% intervals of accuracy and recall "
                    f"(3 groups; clfeval: evaluate + `by_group.table(ci=0.95, method=\"bootstrap\")`; fairlearn: "
                    f"`MetricFrame(n_boot={fairlearn_boot})` timed once, x{n_resamples / fairlearn_boot:g})",
            "n": n, "groups": 3, "baseline_s": scaled, "baseline_measured_s": boot_seconds,
            "baseline_replicates_timed": fairlearn_boot, "clfeval_s": ours, "ratio": ratio, "ratio_kind": "faster",
            "target": f">= {TARGET_BOOTSTRAP:g}x faster than fairlearn", "pass": ratio >= TARGET_BOOTSTRAP,
        },
        {
            "what": "per-group accuracy and recall, no resampling (clfeval: evaluate + `by_group.table(ci=0.95)`, "
                    "analytic intervals; fairlearn: `MetricFrame` without n_boot, point values only)",
            "n": n, "groups": 3, "baseline_s": plain_frame, "clfeval_s": ours_analytic,
            "ratio": plain_frame / ours_analytic, "ratio_kind": "faster", "target": "(none)", "pass": None,
        },
    ]
    return rows, {"fairlearn": fairlearn.__version__, "interval_widths": widths}


# ------------------------------------------------------------------------------------------
# output
# ------------------------------------------------------------------------------------------
def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = [
        "<!-- Generated by benchmarks/groups_bench.py; do not edit by hand. -->",
        "| what | n | baseline s | clfeval s | ratio | target |",
        "|:---|---:|---:|---:|---:|:---|",
    ]
    for r in rows:
        verdict = "" if r["pass"] is None else (" ✔" if r["pass"] else " ✘")
        if r["ratio_kind"] == "slower":
            ratio = f"{r['ratio']:.2f}× the plain call"
        else:
            ratio = f"{r['ratio']:,.0f}× faster" if r["ratio"] >= 100 else f"{r['ratio']:.1f}× faster"
        lines.append(f"| {r['what']} | {format_n(r['n'])} | {r['baseline_s']:.3g} | {r['clfeval_s']:.3g} | "
                     f"{ratio} | {r['target']}{verdict} |")
    machine = meta["machine"]
    lines.append("")
    versions = f"scikit-learn {meta['sklearn']}" + (f", fairlearn {meta['fairlearn']}" if meta.get("fairlearn") else "")
    lines.append(f"Measured {meta['date'][:10]} with {versions} on {machine.get('cpu', 'this machine')} "
                 f"({machine.get('cores')} cores).")
    steps_row = next((r for r in rows if "steps_s" in r), None)
    if steps_row is not None:
        s = steps_row["steps_s"]
        lines.append("")
        lines.append("Where the grouped call's time goes (each step timed alone, best of the repeats, seconds): "
                     + "; ".join(f"{k} {v:.3g}" for k, v in s.items()) + ".")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--n", type=float, default=1e7, help="rows of the overhead comparison (default 1e7)")
    parser.add_argument("--groups", type=int, default=100, help="groups of the overhead comparison (default 100)")
    parser.add_argument("--boot-n", type=float, default=1e5, help="rows of the bootstrap comparison (default 1e5)")
    parser.add_argument("--n-resamples", type=int, default=1000, help="clfeval's replicates (default 1000)")
    parser.add_argument("--fairlearn-boot", type=int, default=100,
                        help="fairlearn's n_boot, timed once and scaled to --n-resamples (default 100)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="profile the grouped call even if it passes")
    parser.add_argument("--no-write", action="store_true", help="print only; leave results/ alone")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")

    rows = [overhead_row(int(args.n), args.groups, args.repeats, args.profile)]
    boot, extra = bootstrap_rows(int(args.boot_n), args.fairlearn_boot, args.n_resamples, args.repeats)
    rows += boot
    for r in rows:
        verdict = "" if r["pass"] is None else ("PASS" if r["pass"] else "FAIL")
        say(f"{r['what']}  n={r['n']:.0e}  baseline {r['baseline_s']:.4g} s  clfeval {r['clfeval_s']:.4g} s  "
            f"ratio {r['ratio']:.2f} ({r['ratio_kind']})  target {r['target']}  {verdict}")
        for k, v in r.get("steps_s", {}).items():
            say(f"    {k}: {v:.3f} s")
        if "profile" in r:
            say(r["profile"]["text"])
    meta = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "sklearn": sklearn.__version__,
            "clfeval": clfeval.__version__, "numpy": np.__version__, "machine": machine_info(),
            "fairlearn": extra.get("fairlearn"),
            "settings": {"n": int(args.n), "groups": args.groups, "boot_n": int(args.boot_n),
                         "n_resamples": args.n_resamples, "fairlearn_boot": args.fairlearn_boot,
                         "repeats": args.repeats}}
    if not args.no_write:
        payload = {"meta": meta, "rows": rows, "interval_widths": extra.get("interval_widths")}
        for r in rows:  # the printable profile text stays out of the JSON (its rows are there)
            for key in ("profile", "profile_plain"):
                if key in r:
                    r[key] = {k: v for k, v in r[key].items() if k != "text"}
        write_text_atomic(RESULTS / "groups.json", json.dumps(payload, indent=2, allow_nan=False) + "\n")
        write_text_atomic(RESULTS / "groups_table.md", markdown(rows, meta))
        say(f"wrote {RESULTS / 'groups.json'} and {RESULTS / 'groups_table.md'}")
    return 0 if all(r["pass"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
