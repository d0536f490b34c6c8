#!/usr/bin/env python
"""How often the 95% intervals of evaluation by group contain the true value: a simulation.

The companion of ``benchmarks/coverage.py`` (one test set, every number of the report) for
``evaluate(..., groups=g).by_group``: each setting draws many test sets from a known population of
three groups and counts how often each interval holds the population value.

**Population.** Groups A, B, C with shares 0.6 / 0.3 / 0.1 (unequal sizes). In group h the label is
1 with probability pi_h, the score is N(mu_h, 1) for class 0 and N(mu_h + d_h, 1) for class 1, and
the prediction is ``score >= 0.9`` (one threshold for all). Two populations:

* ``unequal``: mu = (0, 0.3, -0.3), d = (1.8, 1.2, 1.5), pi_h = prevalence x (1, 1.25, 0.75), so the
  groups differ in ROC AUC (0.90, 0.80, 0.86), TPR, FPR, selection rate and base rate: every gap
  and fairness summary is away from 0 and away from ties;
* ``equal``: mu = 0, d = 1.5, pi_h = prevalence in every group: every gap and summary is 0 (the
  fairness summaries' tie, where max - min is non-regular).

**Sampling.** ``cross-sectional`` (``xs``): n cases, each with a random group (the shares) and a
random class, so group sizes and class totals vary between test sets; the intervals are asked with
``sampling="cross-sectional"``. ``by-group`` (``bg``): exactly n x share cases per group, classes at
random within it, intervals with ``sampling="by-group"``. n in {200, 1000, 5000}, prevalence in
{0.1, 0.3, 0.5}: 2 x 2 x 3 x 3 = 36 settings.

**What is checked** on every test set:

* each group's 95% interval from ``by_group.table(metrics, ci=0.95)`` (analytic: Wilson, delta
  method, DeLong) for accuracy, recall, precision, f1, mcc, roc_auc and selection_rate;
* ``by_group.gaps(metric, reference, sampling=...)`` for accuracy, recall, roc_auc and
  selection_rate, against the overall and against group A: the difference's and the ratio's
  interval for every other group;
* ``by_group.fairness(0.95, method=...)`` for demographic parity, equalized odds and equal
  opportunity (difference and ratio), with both methods: ``"simultaneous"`` (the default: limits
  from Bonferroni-simultaneous Wilson intervals of the groups' rates) and ``"bootstrap"``
  (percentile intervals of 1000 replicates of the groups' count cells, ``sampling=...``).

**Truth**, exactly: each group's confusion cells are (1 - pi)(1 - FPR), (1 - pi) FPR, pi (1 - TPR),
pi TPR with TPR = P(N(mu + d, 1) >= t), FPR = P(N(mu, 1) >= t); its ROC AUC Phi(d / sqrt 2); the
overall's cells are the share-weighted sum (the design's sizes n_h / n, the same numbers here) and
its ROC AUC sum_h sum_k a_h b_k Phi((mu_h + d_h - mu_k) / sqrt 2), a_h and b_k the shares of the
positives and negatives in each group. ``--verify-truth`` compares these with 4 million drawn cases.

**Bands**, as ``coverage.py``'s: 93-97% where each class of every group the number involves has at
least 20 expected cases, at least 90% below that; a coverage counts as outside only when its 99%
Monte Carlo interval misses the band. The simultaneous limits are conservative by design, and so
are the bootstrap's limits of the fairness summaries where a group of the test set has fewer than
20 cases of a class (widened to the simultaneous ones there), so only their lower side is judged
(93-100%, 90-100%); the bootstrap intervals of the fairness summaries of
the ``equal`` population are reported, not judged (non-regular at the tie: they miss 0 by
construction; see :mod:`clfeval.uncertainty.group_gaps`).
R = 1000 test sets per setting gives a Monte Carlo standard error of 0.69% at 95% (+/-1.35%).

    python benchmarks/group_coverage.py                   # 36 settings x R = 1000 (about 16 min on 2 cores)
    python benchmarks/group_coverage.py --reps 200 --settings unequal-xs-0.3-1000
    python benchmarks/group_coverage.py --verify-truth    # the closed-form truths against 4e6 cases

writes ``results/group_coverage.json`` (every cell), ``results/group_coverage_table.md`` (every cell,
a table per population and sampling) and ``results/group_coverage_summary.md`` (the README's block,
put there by ``update_readme.py``). ``--check`` exits 1 when a judged cell is outside its band.
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
from typing import Any

import numpy as np
from coverage_counts import count_interval, judge

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
GROUPS = ("A", "B", "C")
SHARES = np.array([0.6, 0.3, 0.1])
THRESHOLD = 0.9
POPULATIONS = {
    "unequal": {"mu": (0.0, 0.3, -0.3), "d": (1.8, 1.2, 1.5), "base_rate": (1.0, 1.25, 0.75)},
    "equal": {"mu": (0.0, 0.0, 0.0), "d": (1.5, 1.5, 1.5), "base_rate": (1.0, 1.0, 1.0)},
}
SAMPLING = {"xs": "cross-sectional", "bg": "by-group"}
TABLE_METRICS = ("accuracy", "recall", "precision", "f1", "mcc", "roc_auc", "selection_rate")
GAP_METRICS = ("accuracy", "recall", "roc_auc", "selection_rate")
GAP_REFERENCES = ("overall", "A")
FAIRNESS = ("demographic_parity_difference", "equalized_odds_difference", "equal_opportunity_difference",
            "demographic_parity_ratio", "equalized_odds_ratio", "equal_opportunity_ratio")
#: the fairness summaries' interval methods: simultaneous Wilson limits (the default) and the cell bootstrap
FAIRNESS_METHODS = ("simultaneous", "bootstrap")


@dataclass(frozen=True)
class Setting:
    """One population, sampling design, prevalence and test-set size."""

    population: str
    design: str  # "xs" or "bg"
    prevalence: float
    n: int

    @property
    def name(self) -> str:
        return f"{self.population}-{self.design}-{self.prevalence}-{self.n}"

    @property
    def sampling(self) -> str:
        return SAMPLING[self.design]

    @property
    def params(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(mu, d, pi) per group."""
        p = POPULATIONS[self.population]
        return np.array(p["mu"]), np.array(p["d"]), self.prevalence * np.array(p["base_rate"])

    def expected_min_class(self, groups: tuple[int, ...]) -> float:
        """Expected cases of the rarest class over ``groups``."""
        _, _, pi = self.params
        return float(min(self.n * SHARES[h] * min(pi[h], 1 - pi[h]) for h in groups))

    def draw(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(y, scores, group names) of one test set."""
        mu, d, pi = self.params
        if self.design == "xs":
            h = rng.choice(3, size=self.n, p=SHARES)
        else:
            h = np.repeat(np.arange(3), np.round(self.n * SHARES).astype(int))
        y = (rng.random(h.size) < pi[h]).astype(np.int64)
        s = rng.normal(size=h.size) + mu[h] + d[h] * y
        return y, s, np.array(GROUPS)[h]


def settings() -> list[Setting]:
    return [Setting(pop, design, p, n) for pop in POPULATIONS for design in SAMPLING
            for p in (0.1, 0.3, 0.5) for n in (200, 1000, 5000)]


# ------------------------------------------------------------------------------------------
# true values
# ------------------------------------------------------------------------------------------
def _cell_metrics(cells: np.ndarray) -> dict[str, float]:
    from clfeval.formulas import measures as m

    c = cells / cells.sum()
    tp, fp, fn, tn = c[1, 1], c[0, 1], c[1, 0], c[0, 0]
    return {"accuracy": float(tp + tn), "recall": float(tp / (tp + fn)), "precision": float(tp / (tp + fp)),
            "f1": float(2 * tp / (2 * tp + fp + fn)), "mcc": float(m.matthews_corrcoef(c)),
            "selection_rate": float(tp + fp), "tpr": float(tp / (tp + fn)), "fpr": float(fp / (fp + tn))}


def population_values(setting: Setting) -> dict[str, dict[str, float]]:
    """{"A" | "B" | "C" | "overall": {metric: value}} of the population (the design's group weights)."""
    from scipy.stats import norm

    mu, d, pi = setting.params
    tpr, fpr = norm.sf(THRESHOLD - mu - d), norm.sf(THRESHOLD - mu)
    cells = [np.array([[(1 - pi[h]) * (1 - fpr[h]), (1 - pi[h]) * fpr[h]], [pi[h] * (1 - tpr[h]), pi[h] * tpr[h]]])
             for h in range(3)]
    weights = np.round(setting.n * SHARES) / setting.n if setting.design == "bg" else SHARES
    out = {}
    for h, name in enumerate(GROUPS):
        out[name] = _cell_metrics(cells[h]) | {"roc_auc": float(norm.cdf(d[h] / math.sqrt(2)))}
    overall = sum(w * c for w, c in zip(weights, cells))
    a = weights * pi / np.sum(weights * pi)  # where the positives are
    b = weights * (1 - pi) / np.sum(weights * (1 - pi))  # where the negatives are
    auc = float(sum(a[h] * b[k] * norm.cdf((mu[h] + d[h] - mu[k]) / math.sqrt(2)) for h in range(3) for k in range(3)))
    out["overall"] = _cell_metrics(overall) | {"roc_auc": auc}
    return out


def truth(setting: Setting) -> dict[tuple, float]:
    """{entry: true value}; entries ("group", h, metric), ("gap-overall" | "gap-A", h, metric, kind)
    and ("fairness", summary, method)."""
    v = population_values(setting)
    out: dict[tuple, float] = {}
    for h in GROUPS:
        for metric in TABLE_METRICS:
            out["group", h, metric] = v[h][metric]
    for ref in GAP_REFERENCES:
        for h in GROUPS:
            if h == ref:
                continue
            for metric in GAP_METRICS:
                out[f"gap-{ref}", h, metric, "difference"] = v[h][metric] - v[ref][metric]
                out[f"gap-{ref}", h, metric, "ratio"] = v[h][metric] / v[ref][metric]

    def spread(key: str) -> tuple[float, float]:
        x = np.array([v[h][key] for h in GROUPS])
        return float(x.max() - x.min()), float(x.min() / x.max())

    sr, tpr, fpr = spread("selection_rate"), spread("tpr"), spread("fpr")
    values = {"demographic_parity_difference": sr[0], "demographic_parity_ratio": sr[1],
              "equalized_odds_difference": max(tpr[0], fpr[0]), "equalized_odds_ratio": min(tpr[1], fpr[1]),
              "equal_opportunity_difference": tpr[0], "equal_opportunity_ratio": tpr[1]}
    for method in FAIRNESS_METHODS:
        for name in FAIRNESS:
            out["fairness", name, method] = values[name]
    return out


def involved(entry: tuple) -> tuple[int, ...]:
    """The groups (indices) whose class counts an entry's interval rests on."""
    if entry[0] == "group" or entry[0] == "gap-overall":
        return (GROUPS.index(entry[1]),)
    if entry[0] == "gap-A":
        return (0, GROUPS.index(entry[1]))
    return (0, 1, 2)


def judged(setting: Setting, entry: tuple) -> bool:
    """False for the bootstrap intervals of the fairness summaries at a tie (the equal population):
    reported, not judged (non-regular there). The simultaneous limits claim to hold at ties too."""
    return not (entry[0] == "fairness" and entry[2] == "bootstrap" and setting.population == "equal")


# ------------------------------------------------------------------------------------------
# one test set
# ------------------------------------------------------------------------------------------
def intervals_of(ev: Any, sampling: str, seed: int, *, table: bool = True, gaps: bool = True,
                 fairness: bool = True) -> dict[tuple, tuple[float, float]]:
    """{entry: (low, high)} of one grouped Evaluation (NaN where undefined)."""
    out: dict[tuple, tuple[float, float]] = {}
    bg = ev.by_group
    if table:
        t = bg.table(list(TABLE_METRICS), ci=0.95)
        for j, h in enumerate(t.groups):
            for k, metric in enumerate(t.metrics):
                out["group", h, metric] = (float(t.low[j, k]), float(t.high[j, k]))
    if gaps:
        for ref in GAP_REFERENCES:
            for metric in GAP_METRICS:
                gap = bg.gaps(metric, ref, sampling=sampling)
                for j, h in enumerate(gap.groups):
                    if h == ref:
                        continue
                    out[f"gap-{ref}", h, metric, "difference"] = (float(gap.difference[j, 1]),
                                                                 float(gap.difference[j, 2]))
                    out[f"gap-{ref}", h, metric, "ratio"] = (float(gap.ratio[j, 1]), float(gap.ratio[j, 2]))
    if fairness:
        for method in FAIRNESS_METHODS:
            f = bg.fairness(0.95, method=method, n_resamples=1000, seed=seed, sampling=sampling)
            for name in FAIRNESS:
                out["fairness", name, method] = (float(f.entries[name]["low"]), float(f.entries[name]["high"]))
    return out


def _chunk(args: tuple) -> dict:
    """Tallies [covered, below, above, undefined, width sum] per entry over replicates [start, start + count)."""
    setting, truths, start, count, seed = args
    import clfeval

    tally: dict = {}
    for rep in range(start, start + count):
        rng = np.random.default_rng([seed, zlib.crc32(setting.name.encode()), rep])
        y, s, g = setting.draw(rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ev = clfeval.evaluate(y, y_score=s, threshold=THRESHOLD, labels=[0, 1], groups=g)
            found = intervals_of(ev, setting.sampling, rep)
        for entry, t in truths.items():
            count_interval(tally.setdefault(entry, [0, 0, 0, 0, 0.0]), *found.get(entry, (math.nan, math.nan)), t)
    return tally


def simulate(chosen: list[Setting], reps: int, seed: int, workers: int) -> list[dict]:
    rows = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for setting in chosen:
            t0 = time.perf_counter()
            truths = truth(setting)
            per = max(1, reps // (4 * workers))
            jobs = [(setting, truths, s, min(per, reps - s), seed) for s in range(0, reps, per)]
            total: dict = {}
            for part in pool.map(_chunk, jobs):
                for key, c in part.items():
                    t = total.setdefault(key, [0, 0, 0, 0, 0.0])
                    for i in range(5):
                        t[i] += c[i]
            for entry, (cov, below, above, undefined, width) in total.items():
                valid = cov + below + above
                rows.append({
                    "setting": setting.name, "population": setting.population, "sampling": setting.sampling,
                    "prevalence": setting.prevalence, "n": setting.n, "entry": list(entry), "label": label(entry),
                    "truth": truths[entry], "min_expected": setting.expected_min_class(involved(entry)),
                    "judged": judged(setting, entry), "replicates": valid, "undefined": undefined,
                    "coverage": cov / valid if valid else math.nan,
                    "below": below / valid if valid else math.nan,
                    "above": above / valid if valid else math.nan,
                    "mean_width": width / valid if valid else math.nan,
                })
            print(f"{setting.name}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return rows


# ------------------------------------------------------------------------------------------
# judging and the tables
# ------------------------------------------------------------------------------------------
def label(entry: tuple) -> str:
    if entry[0] == "group":
        return f"{entry[1]} {entry[2]}"
    if entry[0] == "fairness":
        return f"{entry[1]} ({entry[2]})"
    return f"{entry[1]} - {entry[0][4:]} {entry[2]} ({entry[3]})"


def conservative(row: dict) -> bool:
    """Simultaneous limits (Bonferroni over the groups' rates) over-cover by design, and so do the
    bootstrap's limits where they are widened to them (a group with fewer than 20 cases of a class in
    the test set): only their lower side is judged."""
    return row["entry"][0] == "fairness"


def band(row: dict) -> tuple[float, float]:
    low = 0.93 if row["min_expected"] >= 20 else 0.90
    return (low, 0.97) if low == 0.93 and not conservative(row) else (low, 1.0)


def verdict(row: dict) -> str:
    """"in", "mc" (outside within 99% Monte Carlo error), "low", "high", "n/a" (never defined) or
    "not judged" (the fairness summaries at a tie)."""
    v = judge(row["coverage"], *band(row), row["replicates"])
    return v if row["judged"] or v == "n/a" else "not judged"


KINDS = (("group", "each group's interval (table)"), ("gap-overall", "gap to the overall"),
         ("gap-A", "gap to group A"),
         ("fairness-simultaneous", "fairness summary, simultaneous limits (default; band 93-100% / 90-100%)"),
         ("fairness-bootstrap", "fairness summary, cell bootstrap (method=\"bootstrap\"; widened to the "
                                "simultaneous limits for groups under 20 cases of a class; band 93-100% / 90-100%)"))


def _kind(row: dict) -> str:
    e = row["entry"]
    return f"fairness-{e[2]}" if e[0] == "fairness" else e[0]


def summary(rows: list[dict]) -> dict:
    out: dict = {"cells": len(rows)}
    for v in ("in", "mc", "low", "high", "n/a", "not judged"):
        out[v] = sum(verdict(r) == v for r in rows)
    return out


def _cell(r: dict) -> str:
    v = verdict(r)
    mark = {"low": " ✘", "high": " ✘", "mc": " ~"}.get(v, "")
    return f"{100 * r['coverage']:.1f}{mark}" if np.isfinite(r["coverage"]) else "n/a"


def summary_table(rows: list[dict], reps: int, seconds: float, workers: int | None) -> str:
    s = summary(rows)
    lines = [
        "<!-- Generated by benchmarks/group_coverage.py; do not edit. -->",
        f"Coverage of the 95% intervals of evaluation by group: {len({r['setting'] for r in rows})} settings "
        f"(3 groups of shares 0.6 / 0.3 / 0.1, n = 200, 1000, 5000, prevalence 0.1, 0.3, 0.5, cross-sectional and "
        f"by-group sampling, groups unequal or equal), R = {reps} test sets each ({seconds / 60:.0f} min, "
        f"{workers or os.cpu_count()} processes). Band: 93-97% where each class of the groups involved has at least "
        f"20 expected cases, at least 90% below that. **{s['in']} of {s['cells'] - s['not judged']} judged cells in band, "
        f"{s['mc']} outside only within Monte Carlo error (99%), {s['low']} too low, {s['high']} too high.** "
        "Lowest and highest coverage of each kind (%, where); every cell is in "
        "`benchmarks/results/group_coverage_table.md`:",
        "",
        "| interval | cells | in band | lowest where 20+ expected per class | lowest below 20 | highest |",
        "|:---|---:|---:|---:|---:|---:|",
    ]
    for kind, title in KINDS:
        for kind_rows, suffix in ((([r for r in rows if _kind(r) == kind and r["judged"]]), ""),
                                  ([r for r in rows if _kind(r) == kind and not r["judged"]], " at a tie (not judged)")):
            ok = [r for r in kind_rows if np.isfinite(r["coverage"])]
            if not ok:
                continue
            big = [r for r in ok if r["min_expected"] >= 20]
            small = [r for r in ok if r["min_expected"] < 20]

            def lowest(rs: list[dict]) -> str:
                if not rs:
                    return ""
                r = min(rs, key=lambda r: r["coverage"])
                return f"{100 * r['coverage']:.1f} ({r['label']}, {r['setting']})"

            hi = max(ok, key=lambda r: r["coverage"])
            n_in = sum(verdict(r) in ("in", "mc") for r in ok)
            lines.append(f"| {title}{suffix} | {len(ok)} | {n_in if not suffix else '-'} | {lowest(big)} | "
                         f"{lowest(small)} | {100 * hi['coverage']:.1f} ({hi['label']}, {hi['setting']}) |")
    return "\n".join(lines) + "\n"


def full_table(rows: list[dict], reps: int, seconds: float, workers: int | None) -> str:
    lines = [summary_table(rows, reps, seconds, workers).rstrip("\n"), "",
             "Every cell: coverage % (✘ outside its band beyond Monte Carlo error, ~ outside within it); "
             "columns prevalence / n; `und.` counts the test sets where the number was undefined (left out).", ""]
    for pop in POPULATIONS:
        for design, sampling in SAMPLING.items():
            part = [r for r in rows if r["population"] == pop and r["sampling"] == sampling]
            if not part:
                continue
            cols = sorted({(r["prevalence"], r["n"]) for r in part})
            lines.append(f"**{pop} groups, {sampling} sampling**")
            lines.append("")
            lines.append("| interval | " + " | ".join(f"{p} / {n}" for p, n in cols) + " | und. |")
            lines.append("|:---|" + "---:|" * (len(cols) + 1))
            by_label: dict[str, dict] = {}
            for r in part:
                by_label.setdefault(r["label"], {})[r["prevalence"], r["n"]] = r
            order = [label(e) for e in truth(Setting(pop, design, 0.3, 1000))]
            for lab in order:
                if lab not in by_label:
                    continue
                cells = by_label[lab]
                und = sum(c["undefined"] for c in cells.values())
                lines.append(f"| {lab} | " + " | ".join(_cell(cells[c]) if c in cells else "" for c in cols)
                             + f" | {und} |")
            lines.append("")
    return "\n".join(lines) + "\n"


def verify_truth(n: int = 4_000_000, seed: int = 7) -> int:
    """The closed-form truths against one very large test set of each population (by-group design)."""
    import clfeval

    worst = 0.0
    for pop in POPULATIONS:
        for design in ("xs", "bg"):
            setting = Setting(pop, design, 0.3, n)
            y, s, g = setting.draw(np.random.default_rng(seed))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ev = clfeval.evaluate(y, y_score=s, threshold=THRESHOLD, labels=[0, 1], groups=g)
                t = ev.by_group.table(list(TABLE_METRICS))
                gaps = {m: ev.by_group.gaps(m) for m in GAP_METRICS}
            want = truth(setting)
            for j, h in enumerate(t.groups):
                for k, metric in enumerate(t.metrics):
                    err = abs(t.values[j, k] - want["group", h, metric])
                    worst = max(worst, err)
                    print(f"{pop}-{design} {h} {metric}: sample {t.values[j, k]:.5f} truth "
                          f"{want['group', h, metric]:.5f} ({err:.1e})")
            for metric, gap in gaps.items():
                for j, h in enumerate(gap.groups):
                    err = abs(gap.difference[j, 0] - want["gap-overall", h, metric, "difference"])
                    worst = max(worst, err)
                    print(f"{pop}-{design} {h} - overall {metric}: sample {gap.difference[j, 0]:.5f} truth "
                          f"{want['gap-overall', h, metric, 'difference']:.5f} ({err:.1e})")
    print(f"largest |sample - truth| {worst:.1e} (Monte Carlo error of n = {n:.0e}: about 1e-3 for group C)")
    return 0 if worst < 5e-3 else 1


def source_fingerprint() -> dict[str, str]:
    """The git commit and a hash of the code the simulation runs (src/clfeval but the views, the CLI,
    streaming and Dask): a run whose code changed while it ran (an edit in the same tree) says so."""
    import hashlib
    import subprocess

    digest = hashlib.sha256()
    src = HERE.parent / "src" / "clfeval"
    views = ("cli", "report", "plot", "streaming", "dask", "inputs/tabular")
    for path in sorted(src.rglob("*.py")):
        if any(str(path.relative_to(src)).startswith(v) for v in views):
            continue
        digest.update(str(path.relative_to(src)).encode())
        digest.update(path.read_bytes())
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {"commit": commit, "src_sha256": digest.hexdigest()}


def recheck(path: Path, names: list[str] | None, workers: int) -> int:
    """Rerun ``names`` (default: three settings spread over the run) with the saved run's seed and
    replicates on the current code; record in the JSON whether every cell came out the same."""
    saved = json.loads(path.read_text())
    known = {s.name: s for s in settings()}
    names = names or [n for n in ("unequal-xs-0.3-200", "unequal-bg-0.1-1000", "equal-xs-0.5-5000")
                      if any(r["setting"] == n for r in saved["rows"])]
    old = {(r["setting"], r["label"]): r for r in saved["rows"]}
    fields = ("coverage", "below", "above", "undefined", "mean_width", "replicates")
    differ = [f"{r['setting']} {r['label']}"
              for r in simulate([known[n] for n in names], saved["reps"], saved["seed"], workers)
              if any(not (old[r["setting"], r["label"]][f] == r[f]
                          or (old[r["setting"], r["label"]][f] != old[r["setting"], r["label"]][f] and r[f] != r[f]))
                     for f in fields)]
    saved.setdefault("source", {})["recheck"] = {"code": source_fingerprint(), "settings": names,
                                                "identical": not differ, "differ": differ[:20]}
    path.write_text(json.dumps(saved, indent=1))
    print(f"recheck of {names}: {'every cell identical' if not differ else f'{len(differ)} cells differ'}")
    return 0 if not differ else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=1000, help="test sets per setting (default 1000)")
    ap.add_argument("--settings", nargs="+", default=None, help="setting names (default: all 36)")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", type=Path, default=None, help="results file stem (default results/group_coverage)")
    ap.add_argument("--check", action="store_true", help="exit 1 if a judged cell is outside its band")
    ap.add_argument("--verify-truth", action="store_true", help="check the closed-form truths and exit")
    ap.add_argument("--rows", type=Path, default=None, help="rebuild the tables from a saved run's JSON")
    ap.add_argument("--recheck", type=Path, default=None, metavar="JSON",
                    help="rerun some settings of a saved run (--settings; default 3) with the code as it is now "
                         "and record in that JSON whether every number is the same (for a run the code changed under)")
    a = ap.parse_args(argv)
    if a.verify_truth:
        return verify_truth()
    if a.recheck is not None:
        return recheck(a.recheck, a.settings, a.workers)
    if a.rows is not None:
        saved = json.loads(a.rows.read_text())
        stem = a.out or a.rows.with_suffix("")
        args = (saved["rows"], saved["reps"], saved["seconds"], saved.get("workers"))
        Path(f"{stem}_table.md").write_text(full_table(*args))
        Path(f"{stem}_summary.md").write_text(summary_table(*args))
        return 0
    known = {s.name: s for s in settings()}
    names = a.settings or list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        ap.error(f"unknown setting(s) {unknown}; known: {list(known)}")
    t0 = time.perf_counter()
    before = source_fingerprint()
    rows = simulate([known[n] for n in names], a.reps, a.seed, a.workers)
    seconds = time.perf_counter() - t0
    after = source_fingerprint()
    if after["src_sha256"] != before["src_sha256"]:
        print(f"WARNING: src/clfeval changed during the run ({before} -> {after}); its numbers may mix two "
              "versions of the code: run it again", file=sys.stderr)
    stem = a.out or RESULTS / "group_coverage"
    stem.parent.mkdir(parents=True, exist_ok=True)
    s = summary(rows)
    Path(f"{stem}.json").write_text(json.dumps({"reps": a.reps, "seed": a.seed, "seconds": seconds,
                                                "workers": a.workers, "source": {"start": before, "end": after},
                                                "summary": s, "rows": rows}, indent=1))
    Path(f"{stem}_table.md").write_text(full_table(rows, a.reps, seconds, a.workers))
    Path(f"{stem}_summary.md").write_text(summary_table(rows, a.reps, seconds, a.workers))
    print(f"{s['cells']} cells: {s['in']} in band, {s['mc']} outside within Monte Carlo error, {s['low']} too low, "
          f"{s['high']} too high, {s['not judged']} not judged ({seconds:.0f} s); table in {stem}_table.md")
    bad = [r for r in rows if verdict(r) in ("low", "high")]
    for r in bad:
        print(f"  {verdict(r)}: {r['setting']} {r['label']}: {100 * r['coverage']:.1f}% "
              f"(below {100 * r['below']:.1f}%, above {100 * r['above']:.1f}%, min expected {r['min_expected']:.1f})")
    return 1 if a.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())
