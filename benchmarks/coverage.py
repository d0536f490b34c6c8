#!/usr/bin/env python
"""How often clfeval's nominal 95% intervals contain the true value: a simulation as a user's data behave.

(Evaluation by group, ``evaluate(..., groups=g).by_group``: each group's intervals, the gaps between
groups and the fairness summaries, has its own simulation, ``benchmarks/group_coverage.py``.)

Each design draws many test sets from a known population and asks ``Evaluation.intervals`` for
every interval of the report, with every method (``analytic``, ``bootstrap``, ``bca``), then counts
how often each interval holds the population value.

* binary: labels drawn with prevalence 0.1 or 0.5, so **class totals vary from test set to test
  set** (a cross-sectional sample); scores N(0, 1) for negatives and N(d, 1) for positives with
  d chosen for a true ROC AUC of 0.75 or 0.9 (AUC = Phi(d / sqrt 2)); predictions
  ``score >= d / 2``; n = 60, 100, 300, 1000, and at prevalence 0.1 also n = 20 and 40 (2 and 4
  expected positives).
* 3 classes: class shares 0.5, 0.3, 0.2; scores the softmax of N(1.5 e_y, I); predictions the
  highest score; n = 150, 600.

True values: binary confusion measures from the population's cell probabilities (exact), ROC AUC
from Phi(d / sqrt 2), average precision by quadrature of precision over recall; 3 classes from a
sample of 2 million cases (their Monte Carlo error, about 0.0005, is small against the intervals'
half-widths of 0.03 and more). A coverage near 0.95 with R replicates has a Monte Carlo standard
error of sqrt(0.95 x 0.05 / R), 0.007 at R = 1000; the table gives each coverage's own.

    python benchmarks/coverage.py                 # every design, R = 1000 (about an hour on 2 cores)
    python benchmarks/coverage.py --quick         # 4 designs, R = 200: what .ci/run checks
    python benchmarks/coverage.py --reps 300 --designs b-0.1-0.9-60 --methods analytic

writes ``results/coverage.json``, ``results/coverage_table.md`` (every cell) and
``results/coverage_summary.md`` (the README's block, put there by ``update_readme.py``);
``--quick`` writes ``coverage_quick*`` instead. ``--rows A.json [B.json ...]`` rebuilds the
tables from saved runs without simulating. The committed ``results/coverage.json`` holds all four
methods: the bootstrap and BCa rows of the full run (R = 500), and the analytic and ``delong``
rows (pROC's plain DeLong interval of the AUC) of ``--methods analytic delong``, re-run after the
last change to an analytic interval and merged in.
``--check`` exits 1 when a default interval falls outside its band beyond Monte Carlo error:
93-97% where each class has at least 20 expected cases, at least 90% below that (an interval
counts as outside when its coverage's 99% Monte Carlo interval misses the band).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import warnings
import zlib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from coverage_counts import count_interval, judge

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
METHODS = ("analytic", "bootstrap", "bca")
#: also simulated on request: pROC's plain DeLong interval, which differs from analytic only for ROC AUC
KEPT_BY_NAME = ("delong",)


@dataclass(frozen=True)
class Design:
    """One simulated population and test-set size."""

    name: str
    classes: int
    prevalence: float  # binary: share of positives
    auc: float  # binary: true ROC AUC
    n: int

    @property
    def shift(self) -> float:
        from scipy.special import ndtri

        return float(math.sqrt(2.0) * ndtri(self.auc))

    @property
    def shares(self) -> np.ndarray:
        return np.array([1 - self.prevalence, self.prevalence]) if self.classes == 2 else np.array([0.5, 0.3, 0.2])

    @property
    def min_expected(self) -> float:
        """Expected cases of the rarest class."""
        return float(self.n * self.shares.min())

    def draw(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, float | None]:
        """(y, scores, threshold) of one test set."""
        if self.classes == 2:
            y = (rng.random(self.n) < self.prevalence).astype(np.int64)
            return y, rng.normal(size=self.n) + self.shift * y, self.shift / 2
        return _multiclass(rng, self.n) + (None,)


def _multiclass(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    y = rng.choice(3, size=n, p=[0.5, 0.3, 0.2])
    x = rng.normal(size=(n, 3))
    x[np.arange(n), y] += 1.5
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return y, e / e.sum(axis=1, keepdims=True)


def designs() -> list[Design]:
    out = [Design(f"b-{p}-{a}-{n}", 2, p, a, n) for p in (0.1, 0.5) for a in (0.75, 0.9) for n in (60, 100, 300, 1000)]
    # 2 and 4 expected positives: where the delta method's F1 and MCC intervals failed (77-88%)
    out += [Design(f"b-0.1-{a}-{n}", 2, 0.1, a, n) for a in (0.75, 0.9) for n in (20, 40)]
    return out + [Design(f"m3-{n}", 3, float("nan"), float("nan"), n) for n in (150, 600)]


QUICK = ("b-0.1-0.9-60", "b-0.1-0.75-300", "b-0.5-0.9-100", "m3-150")


# ------------------------------------------------------------------------------------------
# true values
# ------------------------------------------------------------------------------------------
def _binormal_ap(prevalence: float, d: float) -> float:
    """Population average precision: the integral of precision over recall, positives N(d, 1),
    negatives N(0, 1), thresholds t from high to low."""
    from scipy.integrate import quad
    from scipy.stats import norm

    def precision_density(t: float) -> float:
        tp, fp = prevalence * norm.sf(t - d), (1 - prevalence) * norm.sf(t)
        return tp / (tp + fp) * norm.pdf(t - d) if tp + fp > 0 else 0.0

    return float(quad(precision_density, d - 12, d + 12, limit=400, epsabs=1e-13)[0])


def _key(label: object) -> str | None:
    return None if label is None else str(label)


def truth(design: Design) -> dict[tuple, float]:
    """{(section, label, measure): true value} of every number the report gives an interval."""
    from clfeval import evaluate
    from clfeval.uncertainty import confusion_intervals

    if design.classes == 3:
        cache = RESULTS / "coverage_truth_3_classes.json"  # the Monte Carlo truth takes a minute; kept
        if cache.exists():
            return {tuple(k): v for k, v in json.loads(cache.read_text())}
        y, s = _multiclass(np.random.default_rng(123456789), 2_000_000)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rows = evaluate(y, y_score=s).intervals().rows()
        out = {(sec, _key(lab), meas): est for sec, lab, meas, est, *_ in rows}
        cache.write_text(json.dumps([[list(k), v] for k, v in out.items()], indent=0))
        return out
    from scipy.stats import norm

    d, p = design.shift, design.prevalence
    tpr, fpr = norm.sf(d / 2 - d), norm.sf(d / 2)
    cells = np.array([[(1 - p) * (1 - fpr), (1 - p) * fpr], [p * (1 - tpr), p * tpr]])
    out = {(sec, _key(lab), meas): est for sec, lab, meas, est, *_ in confusion_intervals(cells, labels=[0, 1]).rows()}
    ap1, ap0 = _binormal_ap(p, d), _binormal_ap(1 - p, d)
    out["overall", None, "roc_auc"] = design.auc
    out["overall", None, "average_precision"] = ap1
    for label, ap in (("0", ap0), ("1", ap1)):
        out["per_class", label, "roc_auc"] = design.auc
        out["per_class", label, "average_precision"] = ap
    out["macro", None, "roc_auc"] = out["weighted", None, "roc_auc"] = design.auc
    out["macro", None, "average_precision"] = (ap0 + ap1) / 2
    out["weighted", None, "average_precision"] = (1 - p) * ap0 + p * ap1
    return out


# ------------------------------------------------------------------------------------------
# the simulation
# ------------------------------------------------------------------------------------------
def _one_chunk(args: tuple) -> dict:
    """Counts per (method, entry) over replicates [start, start + count) of one design."""
    design, truths, start, count, methods, n_resamples, seed = args
    from clfeval import evaluate

    tally: dict = {}
    for rep in range(start, start + count):
        rng = np.random.default_rng([seed, zlib.crc32(design.name.encode()), rep])
        y, s, thr = design.draw(rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ev = (evaluate(y, y_score=s, threshold=thr, labels=[0, 1]) if thr is not None
                  else evaluate(y, y_score=s, labels=[0, 1, 2]))
            for method in methods:
                try:
                    rows = list(ev.intervals(method=method, n_resamples=n_resamples, seed=rep).rows())
                except ValueError as exc:  # every entry undefined
                    rows = [(sec, lab, meas, np.nan, np.nan, np.nan, None, 0.95, f"error: {exc}")
                            for sec, lab, meas in truths]
                for sec, lab, meas, _est, low, high, _se, _lvl, how in rows:
                    key = (sec, _key(lab), meas)
                    if key not in truths or (method == "delong" and meas != "roc_auc"):
                        continue
                    t = truths[key]
                    c = tally.setdefault((method, key), [0, 0, 0, 0, 0.0, set()])
                    if count_interval(c, low, high, t):
                        c[5].add(how)
    return tally


def simulate(chosen: list[Design], reps: int, methods: tuple[str, ...], n_resamples: int, seed: int,
             workers: int) -> list[dict]:
    rows = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for design in chosen:
            t0 = time.perf_counter()
            truths = truth(design)
            per = max(1, reps // (4 * workers))
            jobs = [(design, truths, s, min(per, reps - s), methods, n_resamples, seed) for s in range(0, reps, per)]
            total: dict = {}
            for part in pool.map(_one_chunk, jobs):
                for key, c in part.items():
                    t = total.setdefault(key, [0, 0, 0, 0, 0.0, set()])
                    for i in range(5):
                        t[i] += c[i]
                    t[5] |= c[5]
            for (method, (sec, lab, meas)), (cov, below, above, undefined, width, hows) in sorted(
                    total.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
                valid = cov + below + above
                rows.append({
                    "design": design.name, "classes": design.classes, "prevalence": design.prevalence,
                    "auc": design.auc, "n": design.n, "min_expected": design.min_expected,
                    "method": method, "section": sec, "label": lab, "measure": meas,
                    "truth": truths[sec, lab, meas], "replicates": valid, "undefined": undefined,
                    "coverage": cov / valid if valid else float("nan"),
                    "below": below / valid if valid else float("nan"),
                    "above": above / valid if valid else float("nan"),
                    "mean_width": width / valid if valid else float("nan"),
                    "interval_methods": sorted(hows),
                })
            print(f"{design.name}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return rows


# ------------------------------------------------------------------------------------------
# judging and the table
# ------------------------------------------------------------------------------------------
def band(row: dict) -> tuple[float, float]:
    return (0.93, 0.97) if row["min_expected"] >= 20 else (0.90, 1.0)


def mc_se(row: dict) -> float:
    n = max(row["replicates"], 1)
    return math.sqrt(0.95 * 0.05 / n)


def verdict(row: dict) -> str:
    """"in": the coverage is in its band; "mc": outside but within Monte Carlo error (99%);
    "low" / "high": outside beyond it; "n/a": never defined."""
    return judge(row["coverage"], *band(row), row["replicates"])


def entry(row: dict) -> str:
    where = f"class {row['label']}" if row["section"] == "per_class" else row["section"]
    return f"{where} {row['measure']}"


def summary(rows: list[dict]) -> dict:
    out: dict = {"cells": len(rows)}
    for v in ("in", "mc", "low", "high", "n/a"):
        out[v] = sum(verdict(r) == v for r in rows)
    worst: dict = {}
    for r in rows:
        if not np.isfinite(r["coverage"]):
            continue
        key = (r["method"], r["measure"])
        if key not in worst or abs(r["coverage"] - 0.95) > abs(worst[key]["coverage"] - 0.95):
            worst[key] = r
    out["worst"] = {f"{m} {meas}": {"coverage": r["coverage"], "design": r["design"], "entry": entry(r)}
                    for (m, meas), r in sorted(worst.items())}
    return out


def _methods_of(rows: list[dict]) -> list[str]:
    return [m for m in (*METHODS, *KEPT_BY_NAME) if any(r["method"] == m for r in rows)]


def summary_table(rows: list[dict], reps: int, n_resamples: int, seconds: float, workers: int | None = None) -> str:
    """The README's block: the count of cells in band and the worst design of each measure and method."""
    s = summary([r for r in rows if r["method"] in METHODS])  # the counts judge the default methods
    worst = summary(rows)["worst"]
    kept = " The `delong` column (pROC's plain interval, kept by name) is not counted." if any(
        r["method"] in KEPT_BY_NAME for r in rows) else ""
    lines = [
        "<!-- Generated by benchmarks/coverage.py; do not edit. -->",
        f"{s['cells']} cells (design x number x method), R = {reps} test sets per design, bootstrap B = "
        f"{n_resamples} ({seconds / 60:.0f} min; processes: {workers or os.cpu_count()}). Band: 93-97% where each class has at "
        "least 20 expected cases, at least 90% below that. "
        f"**{s['in']} in band, {s['mc']} outside it only within Monte Carlo error (99%), {s['low']} too low, "
        f"{s['high']} too high.**{kept} Worst design of each measure (coverage %, design "
        "`b-prevalence-AUC-n` or `m3-n`); every cell is in `benchmarks/results/coverage_table.md`:",
        "",
        "| measure | " + " | ".join(_methods_of(rows)) + " |",
        "|:---|" + "---:|" * len(_methods_of(rows)),
    ]
    for meas in sorted({r["measure"] for r in rows}):
        cells = []
        for method in _methods_of(rows):
            w = worst.get(f"{method} {meas}")
            cells.append("" if w is None else f"{100 * w['coverage']:.1f} ({w['design']})")
        lines.append(f"| {meas} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def full_table(rows: list[dict], reps: int, n_resamples: int, seconds: float, workers: int | None = None) -> str:
    """Every cell, with its Monte Carlo standard error and the side its misses fall on."""
    lines = [summary_table(rows, reps, n_resamples, seconds, workers).rstrip("\n"), "",
             "Every cell (coverage %, ± its Monte Carlo standard error; ✘ outside its band beyond Monte Carlo "
             "error; the share of misses below and above the interval):", "",
             "| design | number | method | coverage | ± | below | above | mean width | undefined |",
             "|:---|:---|:---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        mark = " ✘" if verdict(r) in ("low", "high") else ""
        lines.append(f"| {r['design']} | {entry(r)} | {r['method']} | {100 * r['coverage']:.1f}{mark} | "
                     f"{100 * mc_se(r):.1f} | {100 * r['below']:.1f} | {100 * r['above']:.1f} | "
                     f"{r['mean_width']:.3f} | {r['undefined']} |")
    methods = sorted({(r["method"], h) for r in rows for h in r["interval_methods"]})
    lines += ["", "Interval methods met (method asked: the name each interval reported):", ""]
    lines += [f"- {m}: {h}" for m, h in methods]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="4 designs, R = 200 (what .ci/run checks)")
    ap.add_argument("--reps", type=int, default=None, help="test sets per design (default 1000; --quick 200)")
    ap.add_argument("--designs", nargs="*", default=None, help="design names (default: all)")
    ap.add_argument("--methods", nargs="*", default=list(METHODS), choices=(*METHODS, *KEPT_BY_NAME))
    ap.add_argument("--n-resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20261128)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", type=Path, default=None, help="results file stem (default results/coverage)")
    ap.add_argument("--check", action="store_true", help="exit 1 if a cell is outside its band beyond MC error")
    ap.add_argument("--rows", type=Path, nargs="+", default=None,
                    help="rebuild the tables from saved runs' JSON (several: their rows together)")
    a = ap.parse_args(argv)
    if a.rows is not None:
        runs = [json.loads(p.read_text()) for p in a.rows]
        saved = runs[0]
        stem = a.out or a.rows[0].with_suffix("")
        rows = [r for run in runs for r in run["rows"]]
        args = (rows, saved["reps"], saved["n_resamples"], sum(run["seconds"] for run in runs), saved.get("workers"))
        Path(f"{stem}_table.md").write_text(full_table(*args))
        Path(f"{stem}_summary.md").write_text(summary_table(*args))
        return 0
    all_designs = {d.name: d for d in designs()}
    names = a.designs or (list(QUICK) if a.quick else list(all_designs))
    unknown = [n for n in names if n not in all_designs]
    if unknown:
        ap.error(f"unknown design(s) {unknown}; known: {list(all_designs)}")
    reps = a.reps or (200 if a.quick else 1000)
    t0 = time.perf_counter()
    rows = simulate([all_designs[n] for n in names], reps, tuple(a.methods), a.n_resamples, a.seed, a.workers)
    seconds = time.perf_counter() - t0
    stem = a.out or RESULTS / ("coverage_quick" if a.quick else "coverage")
    stem.parent.mkdir(parents=True, exist_ok=True)
    Path(f"{stem}.json").write_text(json.dumps({"reps": reps, "n_resamples": a.n_resamples, "seconds": seconds,
                                                "workers": a.workers,
                                                "summary": summary(rows), "rows": rows}, indent=1, default=str))
    Path(f"{stem}_table.md").write_text(full_table(rows, reps, a.n_resamples, seconds, a.workers))
    Path(f"{stem}_summary.md").write_text(summary_table(rows, reps, a.n_resamples, seconds, a.workers))
    s = summary(rows)
    print(f"{s['cells']} cells: {s['in']} in band, {s['mc']} outside within Monte Carlo error, {s['low']} too low, "
          f"{s['high']} too high ({seconds:.0f} s); table in {stem}_table.md")
    bad = [r for r in rows if verdict(r) in ("low", "high")]
    for r in bad[:40]:
        print(f"  {verdict(r)}: {r['design']} {entry(r)} {r['method']}: {100 * r['coverage']:.1f}% "
              f"(below {100 * r['below']:.1f}%, above {100 * r['above']:.1f}%)")
    return 1 if a.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())
