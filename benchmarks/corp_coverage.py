"""Coverage of the bootstrap intervals of CORP's miscalibration (MCB) and discrimination (DSC),
Brier and log score, nominal 95%.

Forecasts f ~ Beta(2, 2), outcomes y ~ Bernoulli(q) with q = f ** gamma. q increases with f, so
the population's isotonic recalibration is q itself and, with S(p; q) the expected score of the
forecast p when the outcome is Bernoulli(q),

    MCB_pop = E[S(f; q) - S(q; q)],   DSC_pop = E[S(pi; q) - S(q; q)],   pi = E[q],

by numerical integration over the Beta(2, 2) density (Brier: E(f - q)^2 and Var q; log: the
expected Kullback-Leibler divergences of Bernoulli(q) from Bernoulli(f) and from Bernoulli(pi)).
``--check`` compares them with the decomposition of one sample of 2 x 10^6 rows.

Each setting (gamma 1, 0.85, 0.7, 0.5; n 300, 1000, 3000) draws REPS test sets; per test set one
set of B bootstrap replicates over the score cells (cross-sectional) and B redraws of the outcomes
under calibration (the null, for the low end of MCB), from which every kind of
:func:`clfeval.uncertainty.calibration_intervals.corp_limits` is read.

    python benchmarks/corp_coverage.py [REPS [B]]     # default 200 test sets, 300 resamples
    python benchmarks/corp_coverage.py --check        # population values against a large sample

writes ``results/corp_coverage.json``. Figures of the run in the notes of
clfeval.uncertainty.calibration_intervals.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy import integrate, stats

from clfeval.formulas.isotonic import corp_decompositions
from clfeval.uncertainty.bootstrap import replicates
from clfeval.uncertainty.calibration_intervals import (
    CORP_INTERVALS,
    calibrated_mcb,
    corp_components,
    corp_limits,
)

GAMMAS = (1.0, 0.85, 0.7, 0.5)
SIZES = (300, 1000, 3000)
RESULTS = Path(__file__).resolve().parent / "results" / "corp_coverage.json"


def _expected(p: float, q: float, score: str) -> float:
    """Expected score of forecast p when the outcome is Bernoulli(q)."""
    if score == "brier":
        return q * (1 - p) ** 2 + (1 - q) * p**2
    with np.errstate(divide="ignore", invalid="ignore"):
        return -(q * np.log(p) if q > 0 else 0.0) - ((1 - q) * np.log1p(-p) if q < 1 else 0.0)


def population(gamma: float) -> dict[str, tuple[float, float]]:
    """{score: (MCB_pop, DSC_pop)} by numerical integration."""
    density = stats.beta(2, 2).pdf
    pi = integrate.quad(lambda f: f**gamma * density(f), 0, 1, epsabs=1e-14)[0]
    out = {}
    for score in ("brier", "log"):
        def mcb(f: float, score: str = score) -> float:
            q = f**gamma
            return (_expected(f, q, score) - _expected(q, q, score)) * density(f)

        def dsc(f: float, score: str = score) -> float:
            q = f**gamma
            return (_expected(pi, q, score) - _expected(q, q, score)) * density(f)

        out[score] = (integrate.quad(mcb, 0, 1, epsabs=1e-14, limit=200)[0],
                      integrate.quad(dsc, 0, 1, epsabs=1e-14, limit=200)[0])
    return out


def check(m: int = 2 * 10**6) -> None:
    for gamma in GAMMAS:
        rng = np.random.default_rng(5)
        f = rng.beta(2, 2, size=m)
        y = rng.uniform(size=m) < f**gamma
        order = np.argsort(f)
        pos = y[order].astype(float)
        d = corp_decompositions(f[order], 1 - pos, pos)
        for score, (mcb, dsc) in population(gamma).items():
            print(f"gamma={gamma} {score:5s} MCB {mcb:.6f} (sample {d[score][1]:.6f})  "
                  f"DSC {dsc:.6f} (sample {d[score][2]:.6f})")


def setting(gamma: float, n: int, reps: int, b: int, level: float = 0.95) -> dict:
    """Tallies {name: [covered, truth below, truth above, sum of widths]} of one setting."""
    truth = population(gamma)
    rng = np.random.default_rng(int(gamma * 1000) + n)
    names = [f"{score}/{measure}/{kind}{null}" for score in ("brier", "log") for measure in ("mcb", "dsc")
             for kind in CORP_INTERVALS
             for null in (("", "+null") if measure == "mcb" and kind in ("debiased", "basic") else ("",))]
    tally = {name: [0, 0, 0, 0.0] for name in names}
    for r in range(reps):
        f = rng.beta(2, 2, size=n)
        y = rng.uniform(size=n) < f**gamma
        v = np.sort(f)
        pos = y[np.argsort(f)].astype(np.int64)
        cells = np.stack([1 - pos, pos])
        est = corp_components(v, cells[None])
        gen = np.random.default_rng(r)
        reps_by = replicates(lambda t, v=v: corp_components(v, t), cells, b, gen, "cross-sectional")
        null = calibrated_mcb(v, np.ones(n, dtype=np.int64), b, gen)
        for name in names:
            score, measure, rest = name.split("/")
            j = 0 if measure == "mcb" else 1
            kind = rest.split("+")[0]
            lo, hi = corp_limits(float(est[score][0, j]), reps_by[score][:, j], level, kind, null[score],
                                 rest.endswith("+null"))
            t = truth[score][j]
            row = tally[name]
            row[0] += lo <= t <= hi
            row[1] += t < lo
            row[2] += t > hi
            row[3] += hi - lo
    return {"gamma": gamma, "n": n, "reps": reps, "b": b, "truth": truth, "tally": tally}


def main(reps: int = 200, b: int = 300) -> None:
    rows = []
    for gamma in GAMMAS:
        for n in SIZES:
            start = time.time()
            row = setting(gamma, n, reps, b)
            rows.append(row)
            print(f"gamma={gamma} n={n} truth={row['truth']} ({time.time() - start:.0f}s)", flush=True)
            for name, (cov, below, above, width) in row["tally"].items():
                print(f"    {name:24s} {cov / reps:.3f}  below {below / reps:.3f} above {above / reps:.3f}  "
                      f"width {width / reps:.4f}", flush=True)
            RESULTS.parent.mkdir(exist_ok=True)
            RESULTS.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    if "--check" in sys.argv:
        check()
    else:
        main(*(int(a) for a in sys.argv[1:3]))
