"""Coverage of the intervals at another prevalence (issue 22, point 1) and of the PRG area.

Each setting draws a true TPR, FPR, class sizes and a target prevalence pi; each replicate draws
tp ~ Bin(P, TPR), fp ~ Bin(N, FPR) and asks whether the nominal 95% interval of each measure at pi
holds the true value (the measure of the true TPR and FPR). AP at pi and the PRG area: scores on a
grid of 12 levels with known class-conditional probabilities (the true values are those of the
population's probabilities), cases drawn within each class (AP at pi) or cross-sectionally (PRG).

    python benchmarks/prevalence_coverage.py [n_settings] [n_reps]
"""

from __future__ import annotations

import sys

import numpy as np

from clfeval.formulas.prevalence import average_precision_at_prevalence, measures_at_prevalence
from clfeval.formulas.prg import prg_area
from clfeval.uncertainty.prevalence_intervals import (
    ap_at_prevalence_interval,
    prevalence_intervals,
    prg_auc_interval,
)

MEASURES = ("precision", "npv", "f1", "accuracy", "mcc")


def measure_coverage(n_settings: int = 40, n_reps: int = 400, seed: int = 0) -> dict[str, np.ndarray]:
    """Per measure, the coverage of each random setting (n_settings,)."""
    rng = np.random.default_rng(seed)
    out = {m: np.zeros(n_settings) for m in MEASURES}
    for s in range(n_settings):
        t, f = rng.uniform(0.55, 0.97), rng.uniform(0.03, 0.4)
        P, N = int(rng.integers(30, 400)), int(rng.integers(30, 400))
        pi = float(np.exp(rng.uniform(np.log(0.01), np.log(0.6))))
        truth = measures_at_prevalence(t, f, pi)
        tps, fps = rng.binomial(P, t, n_reps), rng.binomial(N, f, n_reps)
        for tp, fp in zip(tps, fps):
            ci = prevalence_intervals(tp, fp, P - tp, N - fp, pi)
            for m in MEASURES:
                out[m][s] += ci[m].low <= float(truth[m]) <= ci[m].high
    return {m: v / n_reps for m, v in out.items()}


def _population(rng: np.random.Generator, levels: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """Class-conditional probabilities of each score level, highest score first (binormal-like)."""
    sep = rng.uniform(0.5, 2.0)
    x = np.linspace(3, -3, levels)
    pos = np.exp(-0.5 * (x - sep / 2) ** 2)
    neg = np.exp(-0.5 * (x + sep / 2) ** 2)
    return neg / neg.sum(), pos / pos.sum()


def area_coverage(n_settings: int = 20, n_reps: int = 300, seed: int = 1) -> dict[str, np.ndarray]:
    """Coverage of AP at pi (within-class sampling) and of the PRG area (cross-sectional) per setting."""
    rng = np.random.default_rng(seed)
    ap_cov, prg_cov = np.zeros(n_settings), np.zeros(n_settings)
    for s in range(n_settings):
        q_neg, q_pos = _population(rng)
        P, N = int(rng.integers(30, 300)), int(rng.integers(30, 300))
        pi = float(np.exp(rng.uniform(np.log(0.02), np.log(0.5))))
        true_ap = float(average_precision_at_prevalence(q_neg, q_pos, pi))
        share = P / (P + N)
        true_prg = prg_area(q_neg * (1 - share), q_pos * share)
        for _ in range(n_reps):
            neg, pos = rng.multinomial(N, q_neg), rng.multinomial(P, q_pos)
            ci = ap_at_prevalence_interval(neg, pos, pi)
            ap_cov[s] += ci.low <= true_ap <= ci.high
            cells = rng.multinomial(P + N, np.concatenate([q_neg * (1 - share), q_pos * share]))
            c_neg, c_pos = cells[:q_neg.size], cells[q_neg.size:]
            if c_pos.sum() == 0 or c_neg.sum() == 0:
                continue
            ci = prg_auc_interval(c_neg, c_pos)
            prg_cov[s] += ci.low <= true_prg <= ci.high
    return {"ap_at_prevalence": ap_cov / n_reps, "prg_auc": prg_cov / n_reps}


if __name__ == "__main__":
    n_settings = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    n_reps = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    for name, cov in {**measure_coverage(n_settings, n_reps), **area_coverage(n_settings // 2, n_reps)}.items():
        print(f"{name:18s} mean {cov.mean():.3f}  min {cov.min():.3f}  max {cov.max():.3f}  "
              f"settings below 0.93: {(cov < 0.93).sum()} of {cov.size}")
