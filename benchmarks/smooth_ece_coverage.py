"""Coverage of the smooth ECE's bootstrap intervals (nominal 95%), percentile and basic.

Forecasts f ~ Beta(2, 2), outcomes y ~ Bernoulli(f ** gamma); the truth is the smooth ECE of the
exact residuals f - f ** gamma over 10^6 draws of f (no outcome noise). Each setting draws REPS
test sets of n rows and builds both intervals from one set of B replicates.

    python benchmarks/smooth_ece_coverage.py [REPS [B]]      # default 150 test sets, 300 resamples

Figures of the run in the notes of clfeval.uncertainty.calibration_intervals.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from clfeval.formulas.smooth_ece import smooth_ece
from clfeval.uncertainty.calibration_intervals import smooth_ece_interval


def truth(gamma: float, m: int = 10**6, seed: int = 123) -> float:
    f = np.random.default_rng(seed).beta(2, 2, size=m)
    return smooth_ece(f, np.ones(m), f - f**gamma)[0]


def main(reps: int = 150, b: int = 300) -> None:
    for gamma in (1.0, 0.85, 0.7):
        t = truth(gamma)
        for n in (300, 1000, 3000):
            rng = np.random.default_rng(int(gamma * 100) + n)
            covered = {"percentile": 0, "basic": 0}
            estimates = []
            start = time.time()
            for r in range(reps):
                f = rng.beta(2, 2, size=n)
                y = rng.uniform(size=n) < f**gamma
                ci = smooth_ece_interval(f, (~y).astype(int), y.astype(int), n_resamples=b, seed=r)
                e = ci.estimate
                covered["percentile"] += ci.low <= t <= ci.high
                covered["basic"] += max(0.0, 2 * e - ci.high) <= t <= max(0.0, 2 * e - ci.low)
                estimates.append(e)
            print(f"gamma={gamma} truth={t:.4f} n={n} mean estimate={np.mean(estimates):.4f} "
                  + " ".join(f"{k}={v / reps:.3f}" for k, v in covered.items())
                  + f" ({time.time() - start:.0f}s)", flush=True)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
