"""Coverage of the influence intervals of Hand & Till's M and the weighted one-vs-one AUC.

Each scenario draws test sets cross-sectionally (class totals random, multinomial with the
population's prevalences), scores each case with a softmax of Gaussian class signals, builds the
95% interval (:func:`clfeval.uncertainty.hand_till.ovo_interval`) and counts how often it holds the
population value (M on 400,000 cases of the same model). It also prints, per scenario, the mean
influence standard error against the replications' own standard deviation and against a case
bootstrap's (200 resamples, on the first 40 replications), and the weighted variant's coverage with
its pair weights held fixed (``fixed_shares=True``) beside the full delta method.

    python benchmarks/ovo_coverage.py [reps]
"""

from __future__ import annotations

import sys
import time

import numpy as np

from clfeval.uncertainty.hand_till import ovo_influences, ovo_interval

SCENARIOS = [  # (k, n, prevalences, separation)
    (3, 60, (1 / 3, 1 / 3, 1 / 3), 1.0),
    (3, 150, (0.6, 0.3, 0.1), 1.0),
    (3, 300, (1 / 3, 1 / 3, 1 / 3), 2.5),
    (4, 200, (0.4, 0.3, 0.2, 0.1), 0.5),
    (5, 500, (0.4, 0.25, 0.15, 0.1, 0.1), 1.5),
    (5, 1000, (0.2,) * 5, 3.0),
    (8, 800, tuple(np.linspace(2, 1, 8) / np.linspace(2, 1, 8).sum()), 1.0),
    (3, 60, (0.7, 0.2, 0.1), 1.0),
    (4, 120, (0.25,) * 4, 0.0),
    (2, 100, (0.7, 0.3), 1.5),
    (6, 3000, (0.3, 0.3, 0.2, 0.1, 0.05, 0.05), 2.0),
]


def draw(rng: np.random.Generator, n: int, prev: tuple[float, ...], sep: float) -> tuple[np.ndarray, np.ndarray]:
    k = len(prev)
    y = rng.choice(k, size=n, p=prev)
    z = rng.normal(size=(n, k))
    z[np.arange(n), y] += sep
    z = np.round(z, 1)  # ties
    p = np.exp(z - z.max(axis=1, keepdims=True))
    return y, p / p.sum(axis=1, keepdims=True)


def run(reps: int = 1000, seed: int = 0, boot_reps: int = 40, n_boot: int = 200) -> list[dict]:
    rng = np.random.default_rng(seed)
    rows = []
    for k, n, prev, sep in SCENARIOS:
        y, s = draw(rng, 400_000, prev, sep)
        truth = ovo_influences(y, s, k, influence=False).estimates
        hits = {"macro": [], "weighted": [], "weighted_fixed": [], "macro_logit_z": [], "macro_normal_z": []}
        est, se, boot_se = {"macro": [], "weighted": []}, {"macro": [], "weighted": []}, {"macro": [], "weighted": []}
        for r in range(reps):
            while True:
                y, s = draw(rng, n, prev, sep)
                counts = np.bincount(y, minlength=k)
                if (counts >= 2).all():
                    break
            fit = ovo_influences(y, s, k)
            fixed = ovo_influences(y, s, k, averages=("weighted",), fixed_shares=True)
            for avg in ("macro", "weighted"):
                iv = ovo_interval(fit, avg, 0.95)
                hits[avg].append(iv.low <= truth[avg] <= iv.high)
                est[avg].append(fit.estimates[avg])
                se[avg].append(fit.standard_error(avg))
            e, q = fit.estimates["macro"], fit.standard_error("macro") * 1.959963984540054
            lo, hi = (np.log(e / (1 - e)) + np.array([-q, q]) / (e * (1 - e))) if 0 < e < 1 else (e, e)
            lo, hi = (1 / (1 + np.exp(-lo)), 1 / (1 + np.exp(-hi))) if 0 < e < 1 else (e, e)
            hits["macro_logit_z"].append(lo <= truth["macro"] <= hi)
            hits["macro_normal_z"].append(e - q <= truth["macro"] <= e + q)
            iv = ovo_interval(fixed, "weighted", 0.95)
            hits["weighted_fixed"].append(iv.low <= truth["weighted"] <= iv.high)
            if r < boot_reps:
                b = {"macro": [], "weighted": []}
                for _ in range(n_boot):
                    idx = rng.integers(0, n, n)
                    e = ovo_influences(y[idx], s[idx], k, influence=False).estimates
                    for avg, values in b.items():
                        values.append(e[avg])
                for avg, values in b.items():
                    boot_se[avg].append(np.nanstd(values, ddof=1))
        row = {"k": k, "n": n, "prevalence": "/".join(f"{p:.2f}" for p in prev), "separation": sep,
               "M": truth["macro"], "M_weighted": truth["weighted"]}
        for avg in ("macro", "weighted"):
            row[f"cover_{avg}"] = float(np.mean(hits[avg]))
            row[f"se_{avg}"] = float(np.mean(se[avg]))
            row[f"sd_{avg}"] = float(np.std(est[avg], ddof=1))
            row[f"boot_ratio_{avg}"] = float(np.mean(np.array(se[avg][:boot_reps]) / np.array(boot_se[avg])))
        for key in ("weighted_fixed", "macro_logit_z", "macro_normal_z"):
            row[f"cover_{key}"] = float(np.mean(hits[key]))
        rows.append(row)
        print(row, flush=True)
    return rows


if __name__ == "__main__":
    t0 = time.perf_counter()
    rows = run(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
    print("| k | n | prevalences | sep | M | cover M | cover M_w | cover M_w (fixed weights) | se/sd M | se/sd M_w | se/boot se M | se/boot se M_w | cover M, logit z | cover M, plain z |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['k']} | {r['n']} | {r['prevalence']} | {r['separation']} | {r['M']:.3f} | {r['cover_macro']:.3f} | "
              f"{r['cover_weighted']:.3f} | {r['cover_weighted_fixed']:.3f} | {r['se_macro'] / r['sd_macro']:.3f} | "
              f"{r['se_weighted'] / r['sd_weighted']:.3f} | {r['boot_ratio_macro']:.3f} | {r['boot_ratio_weighted']:.3f} | "
              f"{r['cover_macro_logit_z']:.3f} | {r['cover_macro_normal_z']:.3f} |")
    print(f"{time.perf_counter() - t0:.0f} s")
