"""The multi-class fast paths of evaluate() (issue 23) against the implementations they replaced.

* ``one_vs_rest_columns``: one packed sort per column gives each column's one-vs-rest table and
  Hand & Till's U statistics; oracles: ``ScoreTable.from_validated(codes == c, ...)`` per column
  and ``pairwise_u_validated`` (and a brute-force U).
* ``merge_rankings`` of compact rankings (one packed sort): oracle, the stable-argsort merge it had.
* ``macro_curve`` (distinct x values, steps on the grid): oracle, the implementation it had.
* ``evaluate``: the U statistics it keeps (``ev.ovo``) give the same Hand & Till M as the cases and
  as scikit-learn; curves built on threads equal those built on one.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

import clfeval
from clfeval.evaluation import build as build_module
from clfeval.formulas.curves import interpolate_roc
from clfeval.formulas.measures import average
from clfeval.statistics import scores as scores_module
from clfeval.statistics.ranking_merges import merge_rankings
from clfeval.statistics.rankings import BinaryRanking, Curve, macro_curve
from clfeval.statistics.scores import ScoreTable, one_vs_rest_columns, pairwise_u_validated
from clfeval.uncertainty.hand_till import ovo_influences

OUTCOMES = np.array([False, True])


# -- oracles: the implementations replaced ------------------------------------------------------


def old_merge_rankings(rankings: list[BinaryRanking]) -> BinaryRanking:
    scores = np.concatenate([r.scores for r in rankings])
    order = np.argsort(-scores, kind="stable")
    ordered = scores[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    weighted = any(r.pos.dtype.kind == "f" or (r.neg is not None and r.neg.dtype.kind == "f") for r in rankings)

    def grouped(parts: list[np.ndarray]) -> np.ndarray:
        flat = np.concatenate([p.astype(np.float64 if weighted else np.int64, copy=False) for p in parts])[order]
        return np.add.reduceat(flat, starts) if flat.size else flat

    neg, pos = grouped([r.negatives() for r in rankings]), grouped([r.pos for r in rankings])
    return BinaryRanking(ordered[starts], neg, pos)


def old_macro_curve(curves: list[Curve], name: str = "macro") -> Curve:
    usable = [c for c in curves if np.isfinite(c.x).all() and np.isfinite(c.y).all()]
    kind = curves[0].kind if curves else "roc"
    if not usable:
        nan = np.array([np.nan])
        return Curve(kind, name, nan, nan, nan, [False], float("nan"))
    merged = np.concatenate([c.x for c in usable])
    merged.sort(kind="stable")
    grid = merged[np.r_[True, merged[1:] != merged[:-1]]]
    if kind == "pr":
        mean_y = np.zeros(grid.size)
        for c in usable:
            mean_y += c.y[np.minimum(np.searchsorted(c.x, grid), c.x.size - 1)]
        x, y = grid, mean_y / len(usable)
    else:
        low, high = np.zeros(grid.size), np.zeros(grid.size)
        steps = np.zeros(grid.size, dtype=bool)
        for c in usable:
            low += interpolate_roc(grid, c.x, c.y, side="low")
            high += interpolate_roc(grid, c.x, c.y)
            steps |= np.searchsorted(c.x, grid, side="right") - np.searchsorted(c.x, grid, side="left") > 1
        x, y = np.repeat(grid, 2), np.column_stack([low, high]).ravel() / len(usable)
        keep = np.ones(x.size, dtype=bool)
        keep[1::2] = steps
        x, y = x[keep], y[keep]
    area = average(np.array([c.area for c in curves]))
    return Curve(kind, name, x, y, np.full(x.size, np.nan), np.zeros(x.size, bool), area)


def brute_u(codes: np.ndarray, s: np.ndarray, k: int) -> np.ndarray:
    u = np.full((k, k), np.nan)
    for a in range(k):
        if not (codes == a).any():
            continue
        sa = s[codes == a, a]
        for b in range(k):
            sb = s[codes == b, a]
            u[a, b] = (sa[:, None] > sb[None, :]).sum() + 0.5 * (sa[:, None] == sb[None, :]).sum()
    return u


# -- data ---------------------------------------------------------------------------------------


@st.composite
def class_scores(draw, max_classes: int = 6):
    k = draw(st.integers(2, max_classes))
    n = draw(st.integers(0, 60))
    codes = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), dtype=np.int64)
    kind = draw(st.sampled_from(["ties", "signs", "extremes", "continuous"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if kind == "ties":
        s = rng.integers(0, 4, (n, k)).astype(np.float64)
    elif kind == "signs":
        s = np.where(rng.random((n, k)) < 0.3, -0.0, rng.normal(size=(n, k)))
    elif kind == "extremes":
        s = rng.choice([0.0, -0.0, 5e-324, 1e-300, 1e300, -1e300, -5.0, 0.5], (n, k))
    else:
        s = rng.random((n, k))
    if draw(st.booleans()):
        s = np.asfortranarray(s)
    weights = draw(st.sampled_from([None, "int", "float"]))
    w = None
    if weights == "int":
        w = rng.integers(0, 4, n)
    elif weights == "float":
        w = rng.random(n) * (rng.random(n) < 0.8)
    return codes, s, k, w


def assert_same_table(ours: ScoreTable, ref: ScoreTable) -> None:
    assert np.array_equal(ours.scores, ref.scores)
    assert np.array_equal(np.signbit(ours.scores), np.signbit(ref.scores))
    assert ours.counts.dtype == ref.counts.dtype and np.array_equal(ours.counts, ref.counts)
    assert ours.weighted == ref.weighted
    # the same layout: compact (one sample per score) exactly when the reference is
    assert (BinaryRanking.from_table(ours, 1).neg is None) == (BinaryRanking.from_table(ref, 1).neg is None)


# -- one_vs_rest_columns ------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(class_scores(), st.booleans())
def test_columns_equal_one_table_per_column_and_pairwise_u(data, threads):
    codes, s, k, w = data
    old = scores_module._PARALLEL_COLUMNS_MIN
    scores_module._PARALLEL_COLUMNS_MIN = 0 if threads else old
    try:
        tables, u = one_vs_rest_columns(codes, s, k, w)
    finally:
        scores_module._PARALLEL_COLUMNS_MIN = old
    assert len(tables) == k
    for c in range(k):
        ref = ScoreTable.from_validated(codes == c, np.ascontiguousarray(s[:, c]), OUTCOMES, w)
        assert_same_table(tables[c], ref)
    if w is None:
        expected = pairwise_u_validated(codes, s, k)
        assert np.array_equal(u, expected, equal_nan=True)
        assert np.array_equal(u, brute_u(codes, s, k), equal_nan=True)
    else:
        assert u is None


def test_columns_many_classes_and_options():
    rng = np.random.default_rng(3)
    k, n = 300, 2000  # uint16 codes
    codes = rng.integers(0, k, n)
    s = rng.integers(0, 50, (n, k)).astype(np.float64)
    tables, u = one_vs_rest_columns(codes, s, k)
    for c in (0, 7, 299):
        assert_same_table(tables[c], ScoreTable.from_validated(codes == c, s[:, c].copy(), OUTCOMES))
    assert np.array_equal(u, pairwise_u_validated(codes, s, k), equal_nan=True)
    only_u = one_vs_rest_columns(codes, s, k, tables=False)
    assert only_u[0] is None and np.array_equal(only_u[1], u, equal_nan=True)
    assert one_vs_rest_columns(codes, s, k, u=False)[1] is None


def test_columns_of_no_rows():
    tables, u = one_vs_rest_columns(np.zeros(0, dtype=np.int64), np.zeros((0, 3)), 3)
    assert [t.scores.size for t in tables] == [0, 0, 0] and tables[0].counts.shape == (0, 2)
    assert np.isnan(u).all()


# -- merge_rankings ------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 12), st.booleans()), max_size=30), min_size=1, max_size=6),
       st.booleans())
def test_merge_of_compact_rankings_equals_the_stable_sort_merge(runs, continuous):
    rankings = []
    for i, run in enumerate(runs):
        by_score = dict(run)  # one sample per score: compact
        s = np.array(sorted(by_score, reverse=True), dtype=np.float64)
        if continuous:
            s = s + i / 7.0  # scores shared across rankings only by chance
        rankings.append(BinaryRanking(s, None, np.array([by_score[v] for v in sorted(by_score, reverse=True)], bool)))
    ours = merge_rankings(rankings)
    if not sum(r.scores.size for r in rankings):  # (the old merge failed here)
        assert ours.scores.size == ours.pos.size == ours.negatives().size == 0
        return
    ref = old_merge_rankings(rankings)
    assert np.array_equal(ours.scores, ref.scores)
    assert np.array_equal(ours.pos, ref.pos) and np.array_equal(ours.negatives(), ref.negatives())
    if ours.neg is None:  # compact only when no score is shared
        assert ref.scores.size == sum(r.scores.size for r in rankings)
    if ref.scores.size and 0 < ref.totals[1] < ref.scores.size:
        assert ours.roc_auc == ref.roc_auc
        assert ours.average_precision == pytest.approx(ref.average_precision, rel=1e-12)


def test_merge_keeps_the_old_path_for_counts_and_weights():
    a = BinaryRanking(np.array([0.9, 0.2]), np.array([1, 0]), np.array([1, 2]))
    b = BinaryRanking(np.array([0.5, 0.2]), None, np.array([True, False]))
    m = merge_rankings([a, b])
    assert m.scores.tolist() == [0.9, 0.5, 0.2] and m.neg.tolist() == [1, 0, 1] and m.pos.tolist() == [1, 1, 2]
    w = merge_rankings([b, BinaryRanking(np.array([0.7, 0.5]), np.array([0.5, 0.25]), np.array([1.5, 0.0]))])
    assert w.scores.tolist() == [0.7, 0.5, 0.2] and w.pos.tolist() == [1.5, 1.0, 0.0]
    assert w.neg.tolist() == [0.5, 0.25, 1.0]


# -- macro_curve -----------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 5), st.integers(1, 200), st.integers(2, 40), st.integers(0, 2**32 - 1), st.booleans())
def test_macro_curves_equal_the_old_implementation(k, n, levels, seed, continuous):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    s = rng.random((n, k)) if continuous else rng.integers(0, levels, (n, k)).astype(np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = clfeval.evaluate(y, y_score=s, labels=list(range(k)))
        for kind in ("roc", "pr"):
            curves = getattr(ev, kind)
            per_class = [curves[name] for name in curves if name not in ("micro", "macro")]
            ours, ref = macro_curve(per_class), old_macro_curve(per_class)
            assert np.array_equal(ours.x, ref.x, equal_nan=True)
            assert np.array_equal(ours.y, ref.y, equal_nan=True)
            assert ours.area == ref.area or (np.isnan(ours.area) and np.isnan(ref.area))


# -- evaluate ----------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 6), st.integers(2, 120), st.integers(0, 2**32 - 1), st.booleans())
def test_evaluate_keeps_the_u_statistics_of_hand_till(k, n, seed, ties):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    s = rng.integers(0, 5, (n, k)).astype(np.float64) if ties else rng.random((n, k))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = clfeval.evaluate(y, y_score=s, labels=list(range(k)))
        assert ev.ovo is not None and not ev.ovo.binned
        fit = ovo_influences(y, s, k, influence=False)
        assert np.array_equal(ev.ovo.u, fit.u, equal_nan=True)
        head = ev.report.overall
        assert head["ovo_auc"] == fit.estimates["macro"] or np.isnan(fit.estimates["macro"])
        assert head["ovo_auc_weighted"] == fit.estimates["weighted"] or np.isnan(fit.estimates["weighted"])
        present = np.unique(y)
        if present.size == k:
            p = s / s.sum(axis=1, keepdims=True) if (s.sum(axis=1) > 0).all() else None
            if p is not None:  # scikit-learn wants probabilities; M reads column ranks only per pair
                ours = clfeval.evaluate(y, y_score=p, labels=list(range(k))).report.overall["ovo_auc"]
                assert ours == pytest.approx(roc_auc_score(y, p, multi_class="ovo"), rel=1e-12, abs=1e-15)


def test_weighted_evaluation_reads_hand_till_from_the_cases():
    rng = np.random.default_rng(0)
    y, s, w = rng.integers(0, 3, 50), rng.random((50, 3)), rng.random(50)
    ev = clfeval.evaluate(y, y_score=s, sample_weight=w)
    assert ev.ovo is None
    fit = ovo_influences(y, s, 3, weight=w, influence=False)
    assert ev.report.overall["ovo_auc"] == fit.estimates["macro"]


def test_curves_on_threads_equal_curves_on_one(monkeypatch):
    rng = np.random.default_rng(5)
    n, k = 3000, 4
    y = rng.integers(0, k, n)
    s = np.round(rng.random((n, k)), 3)
    one = clfeval.evaluate(y, y_score=s)
    monkeypatch.setattr("clfeval.evaluation._PARALLEL_CURVES_MIN", 0)
    monkeypatch.setattr(scores_module, "_PARALLEL_COLUMNS_MIN", 0)
    many = clfeval.evaluate(y, y_score=s)
    assert build_module is not None
    for kind in ("roc", "pr"):
        a, b = getattr(one, kind), getattr(many, kind)
        assert list(a) == list(b) == [*one.names, "micro", "macro"]
        for name in a:
            assert np.array_equal(a[name].x, b[name].x) and np.array_equal(a[name].y, b[name].y)
            assert np.array_equal(a[name].thresholds, b[name].thresholds, equal_nan=True)
            assert a[name].area == b[name].area
    assert one.report.to_dict() == many.report.to_dict()


def old_columns(codes, y_score, k, weights=None, *, tables=True, u=True):
    """The per-column loop evaluate() ran before: one binary table per column, no U statistics."""
    out = [ScoreTable.from_validated(codes == c, np.ascontiguousarray(y_score[:, c]), OUTCOMES, weights)
           for c in range(k)]
    return out, None


def assert_close(a, b, path=""):
    if isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for key in a:
            assert_close(a[key], b[key], f"{path}/{key}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            assert_close(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-15, nan_ok=True), path
    else:
        assert a == b, path


@pytest.mark.parametrize("case", ["continuous", "ties", "int-weights", "float-weights", "absent-class"])
def test_evaluation_equals_the_one_built_the_old_way(case, monkeypatch):
    rng = np.random.default_rng(11)
    n, k = 4000, 5
    y = rng.integers(0, k - (case == "absent-class"), n)
    s = rng.random((n, k)) if case != "ties" else rng.integers(0, 30, (n, k)) / 30.0
    w = rng.integers(0, 4, n) if case == "int-weights" else rng.random(n) if case == "float-weights" else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        new = clfeval.evaluate(y, y_score=s, sample_weight=w, labels=list(range(k)))
        new_parts = new.report.to_dict(), new.roc, new.pr
        monkeypatch.setattr(build_module, "one_vs_rest_columns", old_columns)
        monkeypatch.setattr(build_module, "merge_rankings", old_merge_rankings)
        monkeypatch.setattr("clfeval.evaluation.macro_curve", old_macro_curve)
        old = clfeval.evaluate(y, y_score=s, sample_weight=w, labels=list(range(k)))
        assert old.ovo is None
        old_parts = old.report.to_dict(), old.roc, old.pr
    assert_close(new_parts[0], old_parts[0])
    for a, b in zip(new_parts[1:], old_parts[1:]):
        assert list(a) == list(b)
        for name in a:
            assert np.array_equal(a[name].x, b[name].x, equal_nan=True), name
            assert np.allclose(a[name].y, b[name].y, rtol=1e-12, atol=0, equal_nan=True), name
            assert np.array_equal(a[name].thresholds, b[name].thresholds, equal_nan=True), name
            assert a[name].area == pytest.approx(b[name].area, rel=1e-12, nan_ok=True), name
