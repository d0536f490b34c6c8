"""Coverage of the weighted interval of AP at another prevalence (issue 22, point 1: weighted rows).

Each setting draws class-conditional probabilities of 12 score levels (binormal-like), class sizes
(40-300 cases), a prevalence pi (log-uniform 0.02-0.5) and sampling weights: within each class, the
cases are drawn from the levels with probabilities tilted by s_level (some levels over-sampled, up to
4x), and each case carries the weight (1 / s_level) u, u uniform on (0.5, 1.5) (random, non-integer,
informative). The weighted cell totals then estimate the population's class-conditional shares, and the
truth is AP at pi of the population. Each replicate asks whether the nominal 95% interval
(:func:`clfeval.uncertainty.prevalence_intervals.ap_at_prevalence_interval` with ``squares`` and
``n_cases``) holds it.

    python benchmarks/prevalence_weighted_coverage.py [n_settings] [n_reps]
"""

from __future__ import annotations

import sys

import numpy as np

from clfeval.formulas.prevalence import average_precision_at_prevalence
from clfeval.uncertainty.prevalence_intervals import ap_at_prevalence_interval

LEVELS = 12


def _population(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Class-conditional probabilities of each score level, highest score first."""
    sep = rng.uniform(0.5, 2.0)
    x = np.linspace(3, -3, LEVELS)
    pos = np.exp(-0.5 * (x - sep / 2) ** 2)
    neg = np.exp(-0.5 * (x + sep / 2) ** 2)
    return neg / neg.sum(), pos / pos.sum()


def _weighted_cells(rng: np.random.Generator, q: np.ndarray, tilt: np.ndarray, n: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(weight totals, sums of squared weights) per level of n cases drawn with probabilities q tilt."""
    sampling = q * tilt / np.dot(q, tilt)
    level = rng.choice(LEVELS, size=n, p=sampling)
    w = rng.uniform(0.5, 1.5, n) / tilt[level]
    return np.bincount(level, w, LEVELS), np.bincount(level, w * w, LEVELS)


def weighted_ap_coverage(n_settings: int = 16, n_reps: int = 250, seed: int = 21,
                         level: float = 0.95) -> np.ndarray:
    """Coverage of each random setting (n_settings,)."""
    rng = np.random.default_rng(seed)
    out = np.zeros(n_settings)
    for s in range(n_settings):
        q_neg, q_pos = _population(rng)
        P, N = int(rng.integers(40, 300)), int(rng.integers(40, 300))
        pi = float(np.exp(rng.uniform(np.log(0.02), np.log(0.5))))
        tilt_neg, tilt_pos = rng.uniform(1.0, 4.0, LEVELS), rng.uniform(1.0, 4.0, LEVELS)
        truth = float(average_precision_at_prevalence(q_neg, q_pos, pi))
        for _ in range(n_reps):
            neg, sq_neg = _weighted_cells(rng, q_neg, tilt_neg, N)
            pos, sq_pos = _weighted_cells(rng, q_pos, tilt_pos, P)
            ci = ap_at_prevalence_interval(neg, pos, pi, level, squares=(sq_neg, sq_pos), n_cases=(N, P))
            out[s] += ci.low <= truth <= ci.high
    return out / n_reps


if __name__ == "__main__":
    n_settings = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    n_reps = int(sys.argv[2]) if len(sys.argv) > 2 else 250
    cov = weighted_ap_coverage(n_settings, n_reps)
    print(f"weighted AP at pi: mean {cov.mean():.3f}  min {cov.min():.3f}  max {cov.max():.3f}  "
          f"settings below 0.93: {(cov < 0.93).sum()} of {cov.size}")
    print("per setting:", " ".join(f"{c:.3f}" for c in cov))
