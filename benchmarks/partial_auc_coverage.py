#!/usr/bin/env python
"""Coverage of the partial AUC's nominal 95% interval (DeLong-type, logit scale; issue 22, point 2).

Binormal scores: negatives N(0, 1), positives N(mu, sd) with (mu, sd) in (1, 1), (2, 1), (1.5, 1.5);
ranges FPR [0, 0.1], [0, 0.2], [0.1, 0.3], [0.5, 1], TPR [0.9, 1], [0.8, 1] and [0, 1] (the AUC);
n = 50, 100, 300, 1000 with labels drawn at prevalence 0.2 or 0.5 (class totals vary between test
sets). True values by quadrature of the binormal ROC curve. Each design is judged as in
benchmarks/coverage.py: 93-97% where the range holds at least 20 expected cases of its own axis
(negatives for FPR, positives for TPR) and the other class at least 20, at least 90% below that,
each widened by 2.576 Monte Carlo standard errors.

    python benchmarks/partial_auc_coverage.py              # R = 1000 per design (168 designs)
    python benchmarks/partial_auc_coverage.py --reps 200   # quicker

prints the summary and writes ``results/partial_auc_coverage.md`` (every design) and
``results/partial_auc_coverage.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import zlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from scipy import integrate, stats

from clfeval.statistics.rankings import BinaryRanking
from clfeval.uncertainty.partial_auc_intervals import partial_auc_interval

RESULTS = Path(__file__).resolve().parent / "results"
MODELS = ((1.0, 1.0), (2.0, 1.0), (1.5, 1.5))
RANGES = (("fpr", 0.0, 0.1), ("fpr", 0.0, 0.2), ("fpr", 0.1, 0.3), ("fpr", 0.5, 1.0), ("tpr", 0.9, 1.0),
          ("tpr", 0.8, 1.0), ("fpr", 0.0, 1.0))
SIZES = (50, 100, 300, 1000)
PREVALENCES = (0.2, 0.5)


def true_area(mu: float, sd: float, axis: str, lo: float, hi: float) -> float:
    if axis == "fpr":
        return integrate.quad(lambda f: stats.norm.sf((stats.norm.isf(f) - mu) / sd), lo, hi, epsabs=1e-13)[0]
    return integrate.quad(lambda t: stats.norm.cdf(mu + sd * stats.norm.isf(t)), lo, hi, epsabs=1e-13)[0]


def ranking_of(y: np.ndarray, s: np.ndarray) -> BinaryRanking:
    order = np.argsort(-s, kind="stable")
    s, y = s[order], y[order]
    new = np.r_[True, s[1:] != s[:-1]]
    group = np.cumsum(new) - 1
    return BinaryRanking(s[new], np.bincount(group, weights=1 - y).astype(np.int64),
                         np.bincount(group, weights=y).astype(np.int64))


def run_design(design: tuple) -> dict:
    (mu, sd), (axis, lo, hi), n, prevalence, reps = design
    rng = np.random.default_rng(zlib.crc32(repr(design[:4]).encode()))
    truth = true_area(mu, sd, axis, lo, hi)
    hits = done = 0
    while done < reps:
        y = (rng.random(n) < prevalence).astype(float)
        if y.sum() < 2 or n - y.sum() < 2:
            continue
        s = np.where(y > 0, rng.normal(mu, sd, n), rng.normal(0.0, 1.0, n))
        ci = partial_auc_interval(ranking_of(y, s), standardized=False, **{f"{axis}_range": (lo, hi)})
        hits += ci.low <= truth <= ci.high
        done += 1
    m, negatives = n * prevalence, n * (1 - prevalence)
    inside, other = (negatives * (hi - lo), m) if axis == "fpr" else (m * (hi - lo), negatives)
    share = hits / done
    allowance = 2.576 * math.sqrt(0.95 * 0.05 / done)
    many = min(inside, other) >= 20
    ok = (0.93 - allowance <= share <= 0.97 + allowance) if many else share >= 0.90 - allowance
    return {"mu": mu, "sd": sd, "axis": axis, "range": [lo, hi], "n": n, "prevalence": prevalence, "truth": truth,
            "reps": done, "coverage": share, "expected_in_range": inside, "expected_other": other,
            "band": "93-97%" if many else ">= 90%", "ok": bool(ok)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    designs = [(model, rng, n, p, args.reps) for model in MODELS for rng in RANGES for n in SIZES for p in PREVALENCES]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(run_design, designs))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "partial_auc_coverage.json").write_text(json.dumps(rows, indent=1) + "\n")
    lines = ["| mu, sd | range | n | prevalence | expected in range / other | coverage | band | ok |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| {r['mu']:g}, {r['sd']:g} | {r['axis'].upper()} [{r['range'][0]:g}, {r['range'][1]:g}] | "
                     f"{r['n']} | {r['prevalence']:g} | {r['expected_in_range']:g} / {r['expected_other']:g} | "
                     f"{r['coverage']:.3f} | {r['band']} | {'yes' if r['ok'] else 'NO'} |")
    (RESULTS / "partial_auc_coverage.md").write_text("\n".join(lines) + "\n")
    for band in ("93-97%", ">= 90%"):
        cov = [r["coverage"] for r in rows if r["band"] == band]
        bad = sum(not r["ok"] for r in rows if r["band"] == band)
        print(f"band {band}: {len(cov)} designs, coverage mean {np.mean(cov):.3f}, range {min(cov):.3f}-{max(cov):.3f}, "
              f"outside the band beyond Monte Carlo error: {bad}")
    for n in SIZES:
        cov = [r["coverage"] for r in rows if r["n"] == n]
        print(f"n = {n}: mean {np.mean(cov):.3f}, range {min(cov):.3f}-{max(cov):.3f}")


if __name__ == "__main__":
    main()
