"""Coverage of the 95% intervals of evaluation by group, in seeded simulations (slow: ``pytest -m slow``).

The fast form of ``benchmarks/group_coverage.py`` (36 settings x 1000 test sets; the table is in
``benchmarks/results/group_coverage.json``). Three groups with unequal sizes (shares 0.6 / 0.3 / 0.1)
and unequal true performance (ROC AUC 0.90 / 0.80 / 0.86, different TPR, FPR, selection rates and
base rates 0.3 x (1, 1.25, 0.75)); each test set draws **random class totals** (and, cross-sectionally,
random group sizes). Checked: each group's interval from ``by_group.table(ci=0.95)`` (accuracy,
recall, precision, f1, mcc, roc_auc, selection_rate); ``by_group.gaps`` of accuracy, recall, roc_auc
and selection_rate against the overall and against group A (difference and ratio), asked with the
design's ``sampling``; the demographic parity and equalized odds differences away from ties (both
methods: the default simultaneous limits, conservative by design, must reach the band's lower end)
and at a tie (equal groups: the simultaneous limits must hold the true 0).

Bands as in ``tests/test_uncertainty_coverage.py``: 93-97% where each class of every group a number
involves has at least 20 expected cases, at least 90% below that. Each coverage is allowed its Monte
Carlo error at a family-wise 99% (Bonferroni over the test's cells: about 100 cells per test would
otherwise fail one by chance), which with 300 test sets widens 93-97% to about 88-102%: wide enough
to be stable, narrow enough to catch an interval whose standard error is too small by a fifth or more
(2 Phi(0.8 x 1.96) - 1 = 88%); :func:`test_the_check_fails_when_the_gap_standard_error_is_halved`
shows it on the gaps with their intervals halved about the estimate (coverage about 67%). These
tests run in under a minute on 2 cores; .ci/run's slow stage runs only test_uncertainty_coverage.py.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import warnings

import numpy as np
import pytest
from scipy.stats import norm

import clfeval
from clfeval.evaluation.groups import GroupEvaluations
from clfeval.formulas import measures as m

pytestmark = pytest.mark.slow

LOW, HIGH = 0.93, 0.97
GROUPS = ("A", "B", "C")
SHARES = np.array([0.6, 0.3, 0.1])
MU, D = np.array([0.0, 0.3, -0.3]), np.array([1.8, 1.2, 1.5])
BASE_RATE = np.array([1.0, 1.25, 0.75])
PREVALENCE, THRESHOLD = 0.3, 0.9
TABLE_METRICS = ("accuracy", "recall", "precision", "f1", "mcc", "roc_auc", "selection_rate")
GAP_METRICS = ("accuracy", "recall", "roc_auc", "selection_rate")
FAIRNESS = ("demographic_parity_difference", "equalized_odds_difference")
FAIRNESS_METHODS = ("simultaneous", "bootstrap")
REPS = 300


def _values(cells: np.ndarray, auc: float) -> dict[str, float]:
    c = cells / cells.sum()
    tp, fp, fn, tn = c[1, 1], c[0, 1], c[1, 0], c[0, 0]
    return {"accuracy": tp + tn, "recall": tp / (tp + fn), "precision": tp / (tp + fp),
            "f1": 2 * tp / (2 * tp + fp + fn), "mcc": float(m.matthews_corrcoef(c)), "selection_rate": tp + fp,
            "roc_auc": auc, "fpr": fp / (fp + tn)}


@functools.cache
def _truth() -> dict[tuple, float]:
    """Closed forms of the binormal population (benchmarks/group_coverage.py checks them on 4e6 cases)."""
    pi = PREVALENCE * BASE_RATE
    tpr, fpr = norm.sf(THRESHOLD - MU - D), norm.sf(THRESHOLD - MU)
    cells = [np.array([[(1 - p) * (1 - f), (1 - p) * f], [p * (1 - t), p * t]]) for p, t, f in zip(pi, tpr, fpr)]
    v = {h: _values(cells[j], float(norm.cdf(D[j] / math.sqrt(2)))) for j, h in enumerate(GROUPS)}
    a, b = SHARES * pi / np.sum(SHARES * pi), SHARES * (1 - pi) / np.sum(SHARES * (1 - pi))
    auc = sum(a[h] * b[k] * norm.cdf((MU[h] + D[h] - MU[k]) / math.sqrt(2)) for h in range(3) for k in range(3))
    v["overall"] = _values(sum(w * c for w, c in zip(SHARES, cells)), float(auc))
    out: dict[tuple, float] = {("group", h, k): v[h][k] for h in GROUPS for k in TABLE_METRICS}
    for ref in ("overall", "A"):
        for h in GROUPS:
            if h != ref:
                for k in GAP_METRICS:
                    out[ref, h, k, "difference"] = v[h][k] - v[ref][k]
                    out[ref, h, k, "ratio"] = v[h][k] / v[ref][k]

    def spread(key: str) -> float:
        x = [v[h][key] for h in GROUPS]
        return max(x) - min(x)

    for method in FAIRNESS_METHODS:
        out["fairness", "demographic_parity_difference", method] = spread("selection_rate")
        out["fairness", "equalized_odds_difference", method] = max(spread("recall"), spread("fpr"))
    return out


def _min_expected(key: tuple, n: int) -> float:
    """Expected cases of the rarest class in the groups a number involves."""
    pi = PREVALENCE * BASE_RATE
    groups = {"group": [key[1]], "overall": [key[1]], "A": ["A", key[1]]}.get(key[0], GROUPS)
    return min(n * SHARES[GROUPS.index(h)] * min(pi[GROUPS.index(h)], 1 - pi[GROUPS.index(h)]) for h in groups)


def _draw(rng: np.random.Generator, n: int, design: str):
    if design == "cross-sectional":
        h = rng.choice(3, size=n, p=SHARES)
    else:
        h = np.repeat(np.arange(3), np.round(n * SHARES).astype(int))
    y = (rng.random(n) < PREVALENCE * BASE_RATE[h]).astype(int)
    return y, rng.normal(size=n) + MU[h] + D[h] * y, np.array(GROUPS)[h]


def _simulate(n: int, design: str, seed: int, *, table: bool = True, fairness: bool = True,
              reps: int = REPS) -> dict[tuple, list[bool]]:
    """{number: [covered?] over the test sets where its interval is defined}."""
    truth = _truth()
    rng = np.random.default_rng(seed)
    hits: dict[tuple, list[bool]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for rep in range(reps):
            y, s, g = _draw(rng, n, design)
            by = clfeval.evaluate(y, y_score=s, threshold=THRESHOLD, labels=[0, 1], groups=g).by_group
            found: dict[tuple, tuple[float, float]] = {}
            if table:
                t = by.table(list(TABLE_METRICS), ci=0.95)
                for j, h in enumerate(t.groups):
                    for k, metric in enumerate(t.metrics):
                        found["group", h, metric] = t.low[j, k], t.high[j, k]
            for ref in ("overall", "A"):
                for metric in GAP_METRICS:
                    gap = by.gaps(metric, ref, sampling=design)
                    for j, h in enumerate(gap.groups):
                        if h != ref:
                            found[ref, h, metric, "difference"] = gap.difference[j, 1], gap.difference[j, 2]
                            found[ref, h, metric, "ratio"] = gap.ratio[j, 1], gap.ratio[j, 2]
            if fairness:
                for method in FAIRNESS_METHODS:
                    f = by.fairness(0.95, method=method, n_resamples=500, seed=rep, sampling=design)
                    for name in FAIRNESS:
                        found["fairness", name, method] = f.entries[name]["low"], f.entries[name]["high"]
            for key, (low, high) in found.items():
                if np.isfinite(low) and np.isfinite(high):
                    hits.setdefault(key, []).append(bool(low <= truth[key] <= high))
    return hits


def _outside(hits: dict[tuple, list[bool]], n: int, cells: int) -> dict[tuple, float]:
    """The numbers whose coverage is outside their band beyond Monte Carlo error (family-wise 99%)."""
    z = float(norm.isf(0.01 / (2 * cells)))
    bad = {}
    for key, covered in hits.items():
        share, reps = float(np.mean(covered)), len(covered)
        low, high = (LOW, HIGH) if _min_expected(key, n) >= 20 else (0.90, 1.0)
        if key[-1] == "simultaneous":  # Bonferroni over the groups' rates: conservative by design
            high = 1.0
        allowance = z * math.sqrt(0.95 * 0.05 / reps)
        print(f"coverage {' '.join(map(str, key))} (n={n}): {share:.3f} over {reps}, band {low:.2f}-{high:.2f}")
        if not low - allowance <= share <= high + allowance:
            bad[key] = share
    return bad


CELLS_1000 = 3 * len(TABLE_METRICS) + 2 * ((3 + 2) * len(GAP_METRICS) * 2 + len(FAIRNESS) * len(FAIRNESS_METHODS))


def test_each_group_each_gap_and_the_fairness_summaries_cover_95_percent():
    """n = 1000: group C expects 22.5 positives, so every number has the 93-97% band (the simultaneous
    limits of the fairness summaries: at least 93%). The groups' table intervals under
    cross-sectional sampling; the gaps and summaries under both designs."""
    cross = _simulate(1000, "cross-sectional", 20261201)
    by_group = _simulate(1000, "by-group", 20261202, table=False)
    assert len(cross) + len(by_group) == CELLS_1000
    assert all(_min_expected(k, 1000) >= 20 for k in cross)
    assert all(len(v) >= 0.98 * REPS for v in (*cross.values(), *by_group.values()))  # defined almost always
    bad = _outside(cross, 1000, CELLS_1000)
    bad |= {("by-group", *k): v for k, v in _outside(by_group, 1000, CELLS_1000).items()}
    assert not bad, bad


def _halved(table):
    """A GapTable whose intervals are half as wide about their estimates (the ratio's on the log scale):
    what a standard error half the right size gives, whatever builds the limits (Wald or MOVER)."""
    d, r = table.difference.copy(), table.ratio.copy()
    d[:, 1], d[:, 2] = d[:, 0] - (d[:, 0] - d[:, 1]) / 2, d[:, 0] + (d[:, 2] - d[:, 0]) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        log = np.log(r[:, :3])
        r[:, 1], r[:, 2] = np.exp(log[:, 0] - (log[:, 0] - log[:, 1]) / 2), np.exp(log[:, 0] + (log[:, 2] - log[:, 0]) / 2)
    return dataclasses.replace(table, difference=d, ratio=r)


def test_the_check_fails_when_the_gap_standard_error_is_halved(monkeypatch):
    """The same check has the power to see gap intervals half as wide as they should be (with fewer
    test sets, so a wider allowance, than the test it guards)."""
    gaps = GroupEvaluations.gaps
    monkeypatch.setattr(GroupEvaluations, "gaps", lambda self, *a, **kw: _halved(gaps(self, *a, **kw)))
    hits = _simulate(1000, "cross-sectional", 20261201, table=False, fairness=False, reps=150)
    bad = _outside(hits, 1000, CELLS_1000)  # 150 test sets: a wider allowance than the 300 of the test above
    assert len(bad) == len(hits) == (3 + 2) * len(GAP_METRICS) * 2, sorted(hits.keys() - bad.keys())
    assert max(bad.values()) < 0.8  # about 2 Phi(1.96 / 2) - 1 = 67%


# n = 200: group C expects 4.5 positives (band >= 90%), B 22.5 and A 36 (93-97%)
SMALL_N, SMALL_REPS = 200, 250


def test_a_small_group_keeps_its_bands():
    """Each group's table intervals and every gap, with a group of 4.5 expected positives: its recall
    is often 0/k or k/k, where a Wald interval on the influences collapses (the recall gaps of C
    covered 79-82% with one; the MOVER limits from the groups' own Wilson intervals hold the band)."""
    hits = _simulate(SMALL_N, "cross-sectional", 20261203, fairness=False, reps=SMALL_REPS)
    assert {("group", "C", "recall"), ("overall", "C", "recall", "difference"), ("A", "C", "roc_auc", "ratio")} <= hits.keys()
    assert any(_min_expected(k, SMALL_N) < 20 for k in hits) and any(_min_expected(k, SMALL_N) >= 20 for k in hits)
    bad = _outside(hits, SMALL_N, len(hits))
    assert not bad, bad


def test_the_simultaneous_fairness_limits_hold_at_a_tie():
    """Equal groups (same scores, base rate and threshold): demographic parity and equalized odds
    differences are 0, where max - min is non-regular and the cell bootstrap's percentile interval
    never holds 0 (its lower limit is a quantile of a positive statistic; measured 0%). The default
    limits, from simultaneous Wilson intervals of the groups' rates, must hold 0 at least 95% of
    the time."""
    rng = np.random.default_rng(20261204)
    hits: dict[tuple, list[bool]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for rep in range(REPS):
            h = rng.choice(3, size=1000, p=SHARES)
            y = (rng.random(1000) < PREVALENCE).astype(int)
            s = rng.normal(size=1000) + 1.5 * y
            by = clfeval.evaluate(y, y_score=s, threshold=THRESHOLD, labels=[0, 1], groups=np.array(GROUPS)[h]).by_group
            for method in FAIRNESS_METHODS:
                f = by.fairness(0.95, method=method, n_resamples=200, seed=rep)
                for name in FAIRNESS:
                    hits.setdefault((name, method), []).append(f.entries[name]["low"] <= 0.0 <= f.entries[name]["high"])
    shares = {k: float(np.mean(v)) for k, v in hits.items()}
    print(shares)
    assert all(shares[name, "simultaneous"] >= 0.95 for name in FAIRNESS), shares
