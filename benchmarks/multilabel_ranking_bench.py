#!/usr/bin/env python
"""The scikit-learn 1.9 additions (multilabel ranking, DCG/NDCG, hinge loss, D^2) against scikit-learn.

    python benchmarks/multilabel_ranking_bench.py                 # n = 20,000 samples x 20 labels
    python benchmarks/multilabel_ranking_bench.py --n 2e5 --labels 50

What is compared (same process, same arrays, best of ``--repeats`` warm calls each):

* ``clfeval.metrics.<name>`` against ``sklearn.metrics.<name>``: the ratio sklearn / clfeval, and
  that both return the same value (1e-12 relative, else the row says DIFF).
* A one-primitive bound measured on the same arrays: the single numpy operation the function
  cannot do without (ranking metrics: one stable ``argsort`` of the score matrix along its rows;
  coverage error: one row-wise ``min`` of the scores; hinge loss: one row-wise ``max`` of the decision matrix; D^2: one ``log`` of the probability
  matrix). ``clfeval / bound`` says how close clfeval is to that floor.

scikit-learn's LRAP, label ranking loss and tie-averaged DCG loop over the samples in Python;
clfeval sorts all rows at once.

Data: y_true Bernoulli(0.3) per label (a row may have no or all labels relevant); scores uniform
rounded to 2 decimals (many ties); gains for DCG 0..3; multiclass (5 classes) decisions N(0, 1)
and softmax probabilities. Writes ``results/multilabel_ranking.json`` (atomically), prints a table.
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Callable

import numpy as np
import sklearn
import sklearn.metrics as skm

from bench_io import machine_info, write_text_atomic

import clfeval.metrics as cm

RESULTS = Path(__file__).resolve().parent / "results"


def best_of(func: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    func()  # warm up
    times, value = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        value = func()
        times.append(time.perf_counter() - start)
    return min(times), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=2e4)
    parser.add_argument("--labels", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    n, m = int(args.n), args.labels
    rng = np.random.default_rng(args.seed)
    y = (rng.random((n, m)) < 0.3).astype(np.int64)
    s = np.round(rng.random((n, m)), 2)
    gains = rng.integers(0, 4, (n, m))
    k = 5
    codes = rng.integers(0, k, n)
    decision = rng.normal(size=(n, k))
    proba = np.exp(decision) / np.exp(decision).sum(axis=1, keepdims=True)

    def sort_bound(scores: np.ndarray) -> Callable[[], Any]:
        return lambda: np.argsort(scores, axis=1, kind="stable")

    cases = [
        ("coverage_error", (y, s), {}, lambda: s.min(axis=1)),
        ("label_ranking_average_precision_score", (y, s), {}, sort_bound(s)),
        ("label_ranking_loss", (y, s), {}, sort_bound(s)),
        ("dcg_score", (gains, s), {}, sort_bound(s)),
        ("dcg_score", (gains, s), {"ignore_ties": True}, sort_bound(s)),
        ("ndcg_score", (gains, s), {"k": 10}, sort_bound(s)),
        ("hinge_loss", (codes, decision), {}, lambda: decision.max(axis=1)),
        ("d2_log_loss_score", (codes, proba), {}, lambda: np.log(proba)),
        ("d2_brier_score", (codes, proba), {}, lambda: np.log(proba)),
    ]
    rows = []
    for name, call_args, kwargs, bound in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t_sk, v_sk = best_of(lambda: getattr(skm, name)(*call_args, **kwargs), args.repeats)
            t_cl, v_cl = best_of(lambda: getattr(cm, name)(*call_args, **kwargs), args.repeats)
        t_bound, _ = best_of(bound, args.repeats)
        label = name + (f"({', '.join(f'{a}={b!r}' for a, b in kwargs.items())})" if kwargs else "")
        rows.append({
            "call": label,
            "sklearn_seconds": t_sk,
            "clfeval_seconds": t_cl,
            "bound_seconds": t_bound,
            "speedup": t_sk / t_cl,
            "clfeval_over_bound": t_cl / t_bound,
            "same_value": bool(np.isclose(v_cl, v_sk, rtol=1e-12, atol=0)),
        })
    record = {
        "benchmark": "multilabel_ranking",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_info(),
        "sklearn": sklearn.__version__,
        "n": n,
        "labels": m,
        "repeats": args.repeats,
        "how": "best of repeats, warm, same process and arrays; bound = one numpy primitive on the same arrays",
        "rows": rows,
    }
    write_text_atomic(args.out / "multilabel_ranking.json", json.dumps(record, indent=2) + "\n")
    print(f"n={n:,} x {m} labels (multiclass: {k} classes); best of {args.repeats}")
    print(f"{'call':52s} {'sklearn':>9s} {'clfeval':>9s} {'bound':>9s} {'speed-up':>9s} {'/bound':>7s}")
    for r in rows:
        print(
            f"{r['call']:52s} {r['sklearn_seconds'] * 1e3:7.1f}ms {r['clfeval_seconds'] * 1e3:7.1f}ms "
            f"{r['bound_seconds'] * 1e3:7.1f}ms {r['speedup']:8.1f}x {r['clfeval_over_bound']:6.1f}x"
            + ("" if r["same_value"] else "  DIFF")
        )


if __name__ == "__main__":
    main()
