"""Coverage of nominal 95% intervals in seeded simulations (slow: run with ``-m slow``).

Each test draws many data sets from a known model, builds the interval on each, and checks that
the share of intervals containing the true value lies in [0.93, 0.97]. The sampling design of
each simulation is the one its interval assumes: a multinomial over the cells for the analytic
(delta-method) intervals; fixed class totals for the stratified bootstrap.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import ndtr

from clfeval import measures as m
from clfeval.roc_pr import BinaryRanking
from clfeval.uncertainty import confusion_intervals, proportion_ci, ranking_intervals

pytestmark = pytest.mark.slow

LOW, HIGH = 0.93, 0.97

# Binary cell probabilities, rows true (0, 1), columns predicted.
P2 = np.array([[0.42, 0.08], [0.12, 0.38]])


def _truth(p: np.ndarray) -> dict[str, float]:
    tp, fp, fn, tn = m.one_vs_rest(p)
    return {"f1": float(m.fbeta(tp, fp, fn)[1]), "mcc": float(m.matthews_corrcoef(p)),
            "recall": float(m.recall(tp, fn)[1])}


def _report(name: str, covered: np.ndarray) -> float:
    share = float(np.mean(covered))
    print(f"coverage {name}: {share:.3f} over {covered.size} simulations")
    return share


def test_wilson_recall_coverage():
    rng = np.random.default_rng(20240501)
    n, sims = 400, 1000
    tables = rng.multinomial(n, P2.ravel(), size=sims).reshape(sims, 2, 2)
    tp, fn = tables[:, 1, 1], tables[:, 1, 0]
    ci = proportion_ci(tp, tp + fn)
    truth = _truth(P2)["recall"]
    share = _report("Wilson recall (n=400)", (ci.low <= truth) & (truth <= ci.high))
    assert LOW <= share <= HIGH


def test_delta_f1_and_mcc_coverage():
    rng = np.random.default_rng(7)
    n, sims = 400, 1000
    tables = rng.multinomial(n, P2.ravel(), size=sims).reshape(sims, 2, 2)
    d = confusion_intervals(tables)  # analytic, batched over the simulations
    truth = _truth(P2)
    f1 = d["per_class"]["f1"]
    share_f1 = _report("delta F1 (n=400)", (f1.low[:, 1] <= truth["f1"]) & (truth["f1"] <= f1.high[:, 1]))
    mcc = d["overall"]["mcc"]
    share_mcc = _report("delta MCC (n=400)", (mcc.low <= truth["mcc"]) & (truth["mcc"] <= mcc.high))
    assert LOW <= share_f1 <= HIGH and LOW <= share_mcc <= HIGH


def test_bootstrap_macro_f1_coverage():
    rng = np.random.default_rng(11)
    rows = np.array([[0.80, 0.12, 0.08], [0.10, 0.75, 0.15], [0.07, 0.18, 0.75]])
    support = np.array([200, 150, 150])  # fixed class totals: the stratified design
    expected = rows * support[:, None]
    tp, fp, fn, tn = m.one_vs_rest(expected)
    truth = float(np.mean(m.fbeta(tp, fp, fn)))
    sims = 1000
    covered = np.empty(sims, dtype=bool)
    for s in range(sims):
        table = np.stack([rng.multinomial(support[i], rows[i]) for i in range(3)])
        ci = confusion_intervals(table, method="bootstrap", n_resamples=1000, seed=s)["averages"]["macro"]["f1"]
        covered[s] = ci.low <= truth <= ci.high
    share = _report("bootstrap percentile macro F1 (n=500)", covered)
    assert LOW <= share <= HIGH


def test_bootstrap_auc_coverage():
    rng = np.random.default_rng(3)
    n_pos, n_neg, sims = 150, 150, 1000
    truth = float(ndtr(1 / np.sqrt(2)))  # binormal, unit variances, means 0 and 1
    covered = np.empty(sims, dtype=bool)
    for s in range(sims):
        scores = np.concatenate([rng.normal(1, 1, n_pos), rng.normal(0, 1, n_neg)])
        y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
        order = np.argsort(-scores)
        ranking = BinaryRanking(scores[order], None, y[order])
        ci = ranking_intervals(ranking, n_resamples=1000, seed=s)["roc_auc"]
        covered[s] = ci.low <= truth <= ci.high
    share = _report("bootstrap percentile ROC AUC (n=300)", covered)
    assert LOW <= share <= HIGH


@pytest.mark.slow
def test_coverage_of_delong_auc_and_bootstrap_ap_from_evaluate():
    import warnings

    import clfeval

    rng = np.random.default_rng(2026)
    n_pos = n_neg = 150
    # binormal scores: true AUC = Phi(1 / sqrt(2)); true AP by a very large sample
    big = np.concatenate([rng.normal(1, 1, 10**6), rng.normal(0, 1, 10**6)])
    big_y = np.r_[np.ones(10**6, int), np.zeros(10**6, int)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        truth = clfeval.evaluate(big_y, y_score=big)
        true_auc, true_ap = truth.report.overall["roc_auc"], truth.report.overall["average_precision"]
        hits = np.zeros(2)
        sims = 600
        for _ in range(sims):
            s = np.concatenate([rng.normal(1, 1, n_pos), rng.normal(0, 1, n_neg)])
            y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
            data = clfeval.evaluate(y, y_score=s).intervals(n_resamples=1000, seed=int(rng.integers(2**31)))["overall"]
            hits += [data["roc_auc"].low <= true_auc <= data["roc_auc"].high,
                     data["average_precision"].low <= true_ap <= data["average_precision"].high]
    coverage = hits / sims
    print(f"coverage DeLong AUC: {coverage[0]:.3f}, bootstrap AP: {coverage[1]:.3f} over {sims} simulations")
    assert 0.93 <= coverage[0] <= 0.97 and 0.93 <= coverage[1] <= 0.97


def _covered(ci, truth: float) -> bool:
    return bool(ci.low <= truth <= ci.high)


def test_coverage_of_case_influence_intervals():
    """Averaged areas of a multi-class scorer, weighted accuracy and macro F1, and multilabel
    averages: the truth of each is its value on 10^6 cases from the same model."""
    import warnings

    import clfeval

    rng = np.random.default_rng(20261123)

    def multiclass(n):
        y = rng.choice(3, n, p=[0.5, 0.3, 0.2])
        s = rng.normal(size=(n, 3)) + np.eye(3)[y] * np.array([1.0, 1.5, 0.8])
        return y, s, rng.exponential(1.0, n)

    def multilabel(n):
        y = (rng.random((n, 3)) < [0.5, 0.3, 0.6]).astype(int)
        y[:, 1] = np.where(rng.random(n) < 0.6, y[:, 0], y[:, 1])
        p = np.where(rng.random((n, 3)) < 0.8, y, 1 - y)
        return y, p

    def numbers(ev):
        out = {f"{avg} {area}": ev.ci(area, average=avg) for area in ("roc_auc", "average_precision")
               for avg in ("macro", "weighted", "micro")} if ev.has_scores else {}
        if ev._sample_weight is not None:
            out = {f"sample-weighted {k}": c for k, c in out.items()}
            out.update({"sample-weighted accuracy": ev.ci("accuracy"),
                        "sample-weighted macro f1": ev.ci("f1", average="macro"),
                        "sample-weighted mcc": ev.ci("mcc")})
        if ev.task == "multilabel":
            out.update({f"multilabel {avg} f1": ev.ci("f1", average=avg) for avg in ("micro", "macro", "samples")})
            out["multilabel hamming"] = ev.ci("hamming_loss")
        return out

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y, s, w = multiclass(1_000_000)
        truth = {k: c.estimate for k, c in numbers(clfeval.evaluate(y, y_score=s)).items()}
        truth.update({k: c.estimate for k, c in numbers(clfeval.evaluate(y, y_score=s, sample_weight=w)).items()})
        truth.update({k: c.estimate for k, c in numbers(clfeval.evaluate(*multilabel(1_000_000))).items()})
        hits: dict[str, list[bool]] = {k: [] for k in truth}
        for _ in range(1000):
            y, s, _w = multiclass(400)
            y8, s8, w8 = multiclass(800)  # exponential weights halve the effective n: 800 cases ~ 400
            evs = [clfeval.evaluate(*multilabel(400)), clfeval.evaluate(y, y_score=s),
                   clfeval.evaluate(y8, y_score=s8, sample_weight=w8)]
            for ev in evs:
                for k, ci in numbers(ev).items():
                    hits[k].append(_covered(ci, truth[k]))
    shares = {k: _report(k + (" (n=800)" if k.startswith("sample-weighted") else " (n=400)"), np.array(v))
              for k, v in hits.items()}
    assert all(LOW <= v <= HIGH for v in shares.values()), shares
