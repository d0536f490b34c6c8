"""Hand & Till's M and the weighted one-vs-one AUC: values, influences, intervals, the paired test,
and where they appear (report, intervals, JSON, terminal, HTML).

Oracles: scikit-learn's ``roc_auc_score(multi_class="ovo", average="macro" | "weighted")`` (to 1e-12),
a brute-force O(n^2) sum over pairs of cases for weighted data (scikit-learn has no weighted ovo),
finite differences of M in each case's weight for the influences, and DeLong's placement values
(:func:`clfeval.stats.delong.delong_placements`) for two classes. Coverage: tests/test_hand_till_coverage.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score as sk_roc_auc_score

import clfeval
from clfeval.formulas.hand_till import hand_till_average, ovo_pair_weights, ovo_u
from clfeval.statistics.scores import ScoreTable
from clfeval.stats import delong_ovo, delong_ovo_ci
from clfeval.stats.delong import delong_placements
from clfeval.uncertainty.hand_till import ovo_influences, ovo_interval

# random labels leave some classes never predicted or absent: their rates are undefined (not M)
pytestmark = pytest.mark.filterwarnings("ignore::clfeval.exceptions.UndefinedMetricWarning")


def _data(rng: np.random.Generator, n: int, k: int, levels: int = 5, classes: int | None = None):
    """Labels of ``classes`` (default k) of the k classes and tied probabilities (few levels)."""
    present = k if classes is None else classes
    y = rng.integers(0, present, n)
    y[:present] = np.arange(present)  # every chosen class present
    s = rng.integers(1, levels + 1, (n, k)).astype(np.float64)
    return y, s / s.sum(axis=1, keepdims=True)


def _brute_force(y: np.ndarray, s: np.ndarray, w: np.ndarray, k: int, average: str) -> float:
    """M over every pair of cases, weighted w_i w_j, ties half: the definition, O(n^2)."""
    present = [c for c in range(k) if w[y == c].sum() > 0]
    pairs, weights = [], []
    for i, a in enumerate(present):
        for b in present[i + 1:]:
            aucs = []
            for pos, neg in ((a, b), (b, a)):
                xp, xn = s[y == pos, pos], s[y == neg, pos]
                wp, wn = w[y == pos], w[y == neg]
                h = (xp[:, None] > xn[None, :]) + 0.5 * (xp[:, None] == xn[None, :])
                aucs.append(float(wp @ h @ wn) / (wp.sum() * wn.sum()))
            pairs.append(sum(aucs) / 2)
            weights.append((w[y == a].sum() + w[y == b].sum()) / w.sum())
    return float(np.average(pairs, weights=weights if average == "weighted" else None))


# --------------------------------------------------------------------------------------------
# values: scikit-learn and the definition
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_equals_scikit_learn_with_ties_and_absent_classes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    k = int(rng.integers(3, 7))
    classes = int(rng.integers(2, k + 1))  # some classes of labels= may be absent from y_true
    y, s = _data(rng, int(rng.integers(8, 120)), k, levels=int(rng.integers(2, 6)), classes=classes)
    ev = clfeval.evaluate(y, y_score=s, labels=list(range(k)))
    for avg, name in (("macro", "ovo_auc"), ("weighted", "ovo_auc_weighted")):
        expected = sk_roc_auc_score(y, s, multi_class="ovo", average=avg, labels=list(range(k)))
        assert abs(ev.report.overall[name] - expected) <= 1e-12
        assert abs(ovo_influences(y, s, k, influence=False).estimates[avg] - expected) <= 1e-12
        ci = delong_ovo_ci(y, s, labels=list(range(k)), average=avg) if np.bincount(y).min() >= 2 else None
        assert ci is None or abs(ci.estimate - expected) <= 1e-12


@pytest.mark.parametrize("seed", range(6))
def test_sample_weights_are_pair_weights(seed: int) -> None:
    """With weights every pair of cases counts w_i w_j; integer weights equal repeated rows."""
    rng = np.random.default_rng(100 + seed)
    y, s = _data(rng, 40, 4, levels=3)
    w = rng.integers(0, 4, y.size).astype(np.float64)
    w[:4] = 1.0  # every class keeps weight
    ev = clfeval.evaluate(y, y_score=s, sample_weight=w)
    rows = np.repeat(np.arange(y.size), w.astype(int))
    repeated = clfeval.evaluate(y[rows], y_score=s[rows])
    for avg, name in (("macro", "ovo_auc"), ("weighted", "ovo_auc_weighted")):
        assert ev.report.overall[name] == pytest.approx(_brute_force(y, s, w, 4, avg), abs=1e-12)
        assert ev.report.overall[name] == pytest.approx(repeated.report.overall[name], abs=1e-12)


def test_formulas_by_hand() -> None:
    # Hand & Till's definition on three classes of two cases: column c scores class c
    y = np.array([0, 0, 1, 1, 2, 2])
    s = np.array([[.8, .1, .1], [.3, .4, .3], [.2, .7, .1], [.5, .3, .2], [.1, .2, .7], [.3, .3, .4]])
    # A[0,1]: class 0 (.8, .3) over class 1 (.2, .5) on column 0: 3/4; A[1,0]: (.7, .3) over (.1, .4): 3/4
    # A[0,2]: (.8, .3) over (.1, .3): 3.5/4; A[2,0]: (.7, .4) over (.1, .3): 1; A[1,2]: (.7, .3) over (.2, .3): 3.5/4
    # A[2,1]: (.7, .4) over (.1, .2): 1 -> pairs 0.75, 0.9375, 0.9375: M = 0.875
    fit = ovo_influences(y, s, 3)
    assert fit.estimates["macro"] == 0.875
    assert ovo_pair_weights(np.array([2, 2, 0])).tolist() == [[0, .5, 0], [.5, 0, 0], [0, 0, 0]]
    assert np.isnan(hand_till_average(np.full((2, 2), 1.0), np.array([3, 0])))


def test_merged_score_tables_give_the_whole() -> None:
    """The mergeable statistic: a k-class ScoreTable per column; M of the halves' merged tables is M
    of all the rows (and scikit-learn's)."""
    rng = np.random.default_rng(7)
    y, s = _data(rng, 90, 4, levels=4)
    classes = np.arange(4)

    def tables(rows):
        return [ScoreTable.from_labels(y[rows], s[rows, c], classes=classes) for c in range(4)]

    half = np.arange(90) < 37
    merged = [a.merge(b) for a, b in zip(tables(half), tables(~half))]
    u = ovo_u([t.counts for t in merged])
    support = np.bincount(y, minlength=4)
    for avg in ("macro", "weighted"):
        assert hand_till_average(u, support, avg) == pytest.approx(
            sk_roc_auc_score(y, s, multi_class="ovo", average=avg), abs=1e-12)
    assert np.array_equal(u, ovo_u([t.counts for t in tables(np.ones(90, bool))]))


# --------------------------------------------------------------------------------------------
# properties
# --------------------------------------------------------------------------------------------
@st.composite
def _multiclass(draw, k_min: int = 2, k_max: int = 5):
    k = draw(st.integers(k_min, k_max))
    n = draw(st.integers(2 * k, 40))
    y = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    y[:2] = [0, 1]  # at least two classes present (others may be absent)
    levels = draw(st.integers(1, 6))
    s = np.array(draw(st.lists(st.integers(0, levels), min_size=n * k, max_size=n * k)), float).reshape(n, k)
    w = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]), min_size=n, max_size=n)))
    w[:2] = 1.0
    return y, s, w, k


@given(_multiclass(), st.randoms(use_true_random=False))
def test_invariant_to_the_order_of_the_labels(data, random) -> None:
    y, s, w, k = data
    perm = np.array(random.sample(range(k), k))  # class c is called perm[c]
    relabelled = perm[y]
    columns = np.empty_like(s)
    columns[:, perm] = s
    a = ovo_influences(y, s, k, weight=w)
    b = ovo_influences(relabelled, columns, k, weight=w)
    for avg in ("macro", "weighted"):
        assert b.estimates[avg] == pytest.approx(a.estimates[avg], abs=1e-12)
        assert b.standard_error(avg) == pytest.approx(a.standard_error(avg), abs=1e-12)


@given(_multiclass(2, 2))
def test_two_classes_give_the_binary_auc_and_delongs_placements(data) -> None:
    y, s, _, _ = data
    s[:, 0] = -s[:, 1]  # one score, read both ways
    fit = ovo_influences(y, s, 2)
    is_pos = y == 1
    auc, v = delong_placements(is_pos, s[:, 1])
    assert fit.estimates["macro"] == pytest.approx(auc, abs=1e-12)
    assert fit.estimates["weighted"] == pytest.approx(auc, abs=1e-12)
    m, n = is_pos.sum(), (~is_pos).sum()
    # the influence variance is DeLong's with population (ddof 0) variances of the placements
    var = np.var(v[is_pos]) / m + np.var(v[~is_pos]) / n
    assert fit.standard_error() ** 2 == pytest.approx(var, abs=1e-12)
    ev = clfeval.evaluate(y, y_score=s[:, 1])
    assert "ovo_auc" not in ev.report.overall  # a binary report does not repeat its AUC


@given(_multiclass(3, 5))
def test_influence_is_the_derivative_in_each_cases_weight(data) -> None:
    y, s, w, k = data
    fit = ovo_influences(y, s, k, weight=w)

    def m_at(weights: np.ndarray, avg: str) -> float:
        return ovo_influences(y, s, k, weight=weights, influence=False).estimates[avg]

    for avg in ("macro", "weighted"):
        if not np.isfinite(fit.estimates[avg]):
            continue
        eps, g = 1e-6, np.empty(y.size)
        for i in range(y.size):  # central differences (one-sided at weight 0)
            up, down = w.copy(), w.copy()
            up[i] += eps
            step = eps if w[i] > 0 else 0.0
            down[i] -= step
            g[i] = (m_at(up, avg) - m_at(down, avg)) / (eps + step)
        assert np.abs(g * w - fit.influence[avg]).max() <= 1e-7
        assert abs(fit.influence[avg].sum()) <= 1e-12  # M is unchanged when every weight is scaled


# --------------------------------------------------------------------------------------------
# the stats functions
# --------------------------------------------------------------------------------------------
def test_paired_test_against_a_hand_computation() -> None:
    rng = np.random.default_rng(11)
    y, sa = _data(rng, 80, 3, levels=8)
    sb = 0.5 * sa + 0.5 * rng.dirichlet(np.ones(3), 80)
    r = delong_ovo(y, sa, sb)
    fa, fb = ovo_influences(y, sa, 3), ovo_influences(y, sb, 3)
    diff = fa.estimates["macro"] - fb.estimates["macro"]
    d = fa.influence["macro"] - fb.influence["macro"]
    se = float(np.sqrt(d @ d))
    assert r.estimate == pytest.approx(diff, abs=1e-15)
    assert r.statistic == pytest.approx(diff / se, rel=1e-12)
    from scipy.stats import norm

    assert r.pvalue == pytest.approx(2 * norm.sf(abs(diff / se)), rel=1e-10)
    low, high = r.confidence_interval(0.9)
    assert (low, high) == pytest.approx((diff - norm.ppf(0.95) * se, diff + norm.ppf(0.95) * se), abs=1e-12)
    assert r.extra["auc_a"] == pytest.approx(sk_roc_auc_score(y, sa, multi_class="ovo"), abs=1e-12)
    # the correlation is kept: the paired se is smaller than that of independent models here
    assert se < np.hypot(fa.standard_error(), fb.standard_error())
    g = delong_ovo(y, sa, sb, alternative="greater")
    assert g.pvalue == pytest.approx(norm.sf(diff / se), rel=1e-10)
    assert g.confidence_interval(0.95).high == 1.0
    same = delong_ovo(y, sa, sa, average="weighted")
    assert (same.statistic, same.pvalue, same.estimate) == (0.0, 1.0, 0.0) and same.notes


@pytest.mark.parametrize("call, message", [
    (lambda: delong_ovo_ci([0, 0, 0], np.eye(3)[[0, 0, 0]], labels=[0, 1, 2]), "single class"),
    (lambda: delong_ovo_ci([0, 0, 1, 2, 2], np.eye(3)[[0, 0, 1, 2, 2]]), "has 1 case"),
    (lambda: delong_ovo_ci([0, 1, 0, 1], np.ones((4, 3))), r"shape \(n_samples, n_classes\) = \(4, 2\)"),
    (lambda: delong_ovo_ci([0, 1, 5, 1], np.ones((4, 2)), labels=[0, 1]), r"y_true\[2\] = 5 is not in labels"),
    (lambda: delong_ovo_ci([0, 1, 0, 1], np.ones((4, 2)), average="micro"), "'macro' or 'weighted'"),
    (lambda: delong_ovo([0, 1, 0, 1], np.ones((4, 2)), np.ones((3, 2))), "y_score_b must have shape"),
    (lambda: delong_ovo_ci([0, 1, 0, 1], np.ones((4, 2)), level=95), "level must be between 0 and 1"),
])
def test_errors_say_what_to_fix(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()


# --------------------------------------------------------------------------------------------
# where they appear
# --------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def multi():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 150)
    s = rng.dirichlet(np.ones(3), 150)
    s[np.arange(150), y] += 0.4
    return y, s / s.sum(axis=1, keepdims=True)


def test_report_intervals_json_terminal_and_html(multi, tmp_path) -> None:
    y, s = multi
    ev = clfeval.evaluate(y, y_score=s)
    expected = sk_roc_auc_score(y, s, multi_class="ovo")
    assert abs(ev.report.overall["ovo_auc"] - expected) <= 1e-12
    ci = ev.ci("ovo_auc")
    ref = ovo_interval(ovo_influences(y, s, 3), "macro", 0.95)
    assert (ci.estimate, ci.low, ci.high) == (ref.estimate, ref.low, ref.high)
    assert ci.low < expected < ci.high and "one-vs-one" in ci.method
    assert ev.ci("ovo_auc_weighted", level=0.9).level == 0.9
    d = json.loads(ev.to_json(ci_level=0.95))
    assert d["report"]["overall"]["ovo_auc"] == pytest.approx(expected, abs=1e-12)
    assert d["intervals"]["overall"]["ovo_auc"]["low"] == pytest.approx(ci.low, abs=1e-15)
    from clfeval.report.terminal import render_text

    text = render_text(ev)
    assert "Hand-Till AUC" in text and "weighted OvO AUC" in text
    page = ev.to_html(tmp_path / "r.html").read_text()
    assert 'data-metric="ovo_auc"' in page and 'data-metric="ovo_auc_weighted"' in page


def test_stratified_sampling_holds_the_pair_weights_fixed(multi) -> None:
    y, s = multi
    ev = clfeval.evaluate(y, y_score=s)
    fixed = ovo_influences(y, s, 3, averages=("weighted",), fixed_shares=True)
    strat = ev.intervals(sampling="stratified")["overall"]["ovo_auc_weighted"]
    assert strat.standard_error == pytest.approx(fixed.standard_error("weighted"), rel=1e-12)
    cross = ev.intervals()["overall"]["ovo_auc_weighted"]
    assert cross.standard_error != strat.standard_error  # the random class totals' own term
    assert cross.standard_error == pytest.approx(ovo_influences(y, s, 3).standard_error("weighted"), rel=1e-12)
    assert ev.intervals(sampling="stratified")["overall"]["ovo_auc"] == ev.intervals()["overall"]["ovo_auc"]


def test_a_stream_has_the_one_vs_one_areas_of_all_rows(multi) -> None:
    """A stream keeps each column's k-class cells (clfeval.statistics.class_cells), so M and the weighted
    variant are those of all rows (more in tests/test_hand_till_streams.py)."""
    y, s = multi
    stream = clfeval.StreamingEvaluation()
    stream.update(y[:70], y_score=s[:70])
    stream.update(y[70:], y_score=s[70:])
    got, want = stream.result().report.overall, clfeval.evaluate(y, y_score=s).report.overall
    assert (got["ovo_auc"], got["ovo_auc_weighted"]) == (want["ovo_auc"], want["ovo_auc_weighted"])
