"""Coverage of the smooth ECE's bootstrap intervals (nominal 95%): every kind, both bandwidths of
the replicates, with and without the test of calibration at the low end.

Forecasts f ~ Beta(2, 2), outcomes y ~ Bernoulli(f ** gamma); the truth is the smooth ECE of the
exact residuals f - f ** gamma over 10^6 draws of f (no outcome noise): 0, 0.0195, 0.047, 0.10
and 0.19 for gamma = 1, 0.935, 0.85, 0.7, 0.5. Each setting draws REPS test sets of n rows; per
test set one set of B bootstrap replicates at their own bandwidths, one at the sample's
bandwidth, and B redraws of the outcomes under calibration (the null) at their own bandwidths and
B at the sample's, from which every kind of
:func:`clfeval.uncertainty.calibration_intervals.smooth_ece_limits` is read. A row is named
``kind[@s]/replicates[+null]``: ``@s`` the folded kinds' noise from the redraws at the sample's
bandwidth (else at their own), ``own`` / ``sample`` the replicates' bandwidth, ``+null`` the low
end set to 0 where the estimate is within the redraws' 97.5% quantile.

    python benchmarks/smooth_ece_coverage.py [REPS [B [GAMMAS]]]   # default 200 test sets, 300 resamples,
                                                                    # every gamma (e.g. 0.85,0.7)

prints one line per setting and kind (coverage, truth below / above the interval, mean width) and
puts each setting into ``results/smooth_ece_coverage.json``. Figures of the run in the notes of
clfeval.uncertainty.calibration_intervals.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from clfeval.formulas.smooth_ece import smooth_ece
from clfeval.uncertainty.calibration_intervals import (
    SMOOTH_ECE_INTERVALS,
    calibrated_smooth_ece,
    smooth_ece_limits,
    smooth_ece_replicates,
)

GAMMAS = (1.0, 0.935, 0.85, 0.7, 0.5)
SIZES = (300, 1000, 3000)
RESULTS = Path(__file__).resolve().parent / "results" / "smooth_ece_coverage.json"


def truth(gamma: float, m: int = 10**6, seed: int = 123) -> float:
    f = np.random.default_rng(seed).beta(2, 2, size=m)
    return smooth_ece(f, np.ones(m), f - f**gamma)[0]


def setting(gamma: float, n: int, reps: int, b: int, level: float = 0.95) -> dict:
    """Tallies {name: [covered, truth below, truth above, sum of widths]} of one setting."""
    t = truth(gamma)
    rng = np.random.default_rng(int(gamma * 1000) + n)
    names = [f"{k}{at}/{bw}{'+null' if null else ''}" for k in SMOOTH_ECE_INTERVALS
             for at in (("", "@s") if k.endswith("folded") else ("",))
             for bw in ("own", "sample") for null in (False, True)]
    tally = {name: [0, 0, 0, 0.0] for name in names}
    estimates = []
    for r in range(reps):
        f = rng.beta(2, 2, size=n)
        y = rng.uniform(size=n) < f**gamma
        v = np.sort(f)
        pos = y[np.argsort(f)].astype(np.int64)
        cells = np.stack([1 - pos, pos])
        w = np.ones(n)
        est, sigma = smooth_ece(v, w, w * v - pos)
        estimates.append(est)
        gen = np.random.default_rng(r)
        reps_by = {"own": smooth_ece_replicates(v, cells, b, gen, "cross-sectional"),
                   "sample": smooth_ece_replicates(v, cells, b, gen, "cross-sectional", sigma)}
        null = calibrated_smooth_ece(v, w, b, gen)
        noise = {"": None, "@s": float(np.mean(calibrated_smooth_ece(v, w, b, gen, sigma)))}
        for name in names:
            kind, rest = name.split("/")
            kind, at = (kind[:-2], "@s") if kind.endswith("@s") else (kind, "")
            bw = rest.split("+")[0]
            lo, hi = smooth_ece_limits(est, reps_by[bw], level, kind, null, rest.endswith("+null"), noise[at])
            row = tally[name]
            row[0] += lo <= t <= hi
            row[1] += t < lo
            row[2] += t > hi
            row[3] += hi - lo
    return {"gamma": gamma, "truth": t, "n": n, "reps": reps, "b": b, "mean_estimate": float(np.mean(estimates)),
            "tally": tally}


def save(row: dict) -> None:
    """Put ``row`` into the results file, replacing the row of the same setting."""
    old = json.loads(RESULTS.read_text()) if RESULTS.exists() else []
    kept = [r for r in old if (r["gamma"], r["n"]) != (row["gamma"], row["n"])]
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(sorted(kept + [row], key=lambda r: (-r["gamma"], r["n"])), indent=1))


def main(reps: int = 200, b: int = 300, gammas: tuple[float, ...] = GAMMAS) -> None:
    rows = []
    for gamma in gammas:
        for n in SIZES:
            start = time.time()
            row = setting(gamma, n, reps, b)
            rows.append(row)
            print(f"gamma={gamma} truth={row['truth']:.4f} n={n} mean estimate={row['mean_estimate']:.4f} "
                  f"({time.time() - start:.0f}s)", flush=True)
            for name, (cov, below, above, width) in row["tally"].items():
                print(f"    {name:24s} {cov / reps:.3f}  below {below / reps:.3f} above {above / reps:.3f}  "
                      f"width {width / reps:.4f}", flush=True)
            save(row)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]), *([tuple(float(g) for g in sys.argv[3].split(","))] if sys.argv[3:] else []))
