"""Hand & Till's M and the weighted one-vs-one AUC of streamed evaluations (issue 22).

A stream keeps each score column's k-class cells (:mod:`clfeval.statistics.class_cells`), so a
stream in batches, merged streams and Dask partitions give the M of ``evaluate`` on all rows: the
same float (integer counts: U statistics are exact half-integer sums, the same formula reads them),
to 1e-12 with float weights. Oracles: ``clfeval.evaluate`` (itself checked against scikit-learn's
``roc_auc_score(multi_class="ovo")`` in tests/test_hand_till.py) and scikit-learn directly.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

import clfeval
from clfeval.statistics.binning import quantize
from clfeval.statistics.class_cells import ClassCells, merge_cell_runs, pairwise_u_of_cells
from clfeval.streaming import StreamingEvaluation

NAMES = ("ovo_auc", "ovo_auc_weighted")


def ovo(ev: clfeval.Evaluation) -> tuple[float, float]:
    return tuple(ev.report.overall[name] for name in NAMES)


def same(got: tuple[float, ...], want: tuple[float, ...], exact: bool) -> None:
    if exact:
        assert got == want or (np.isnan(got).all() and np.isnan(want).all())
    else:
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)


def streamed(y, s, w, cuts, k, **kw) -> StreamingEvaluation:
    stream = StreamingEvaluation(labels=list(range(k)), warn=False, **kw)
    for a, b in zip(cuts, cuts[1:]):
        stream.update(y[a:b], y_score=s[a:b], sample_weight=None if w is None else w[a:b])
    return stream


@st.composite
def multiclass_rows(draw):
    """Rows of 3-5 classes (some absent), scores with many ties, optional weights (some zero)."""
    k = draw(st.integers(3, 5))
    n = draw(st.integers(2, 60))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    present = draw(st.integers(1, k))  # classes that occur: the rest are absent
    y = rng.integers(0, present, n)
    levels = draw(st.sampled_from([2, 5, 1000]))  # few levels: ties within and across classes
    s = rng.integers(0, levels, (n, k)) / levels
    kind = draw(st.sampled_from(["none", "int", "float"]))
    w = None if kind == "none" else rng.integers(0, 4, n) if kind == "int" else rng.integers(0, 4, n) * 0.3
    if w is not None and not w.sum() > 0:
        w[0] = 1
    cuts = sorted({0, n, *draw(st.lists(st.integers(0, n), max_size=5))})
    return y, s, w, cuts, k, kind


@settings(max_examples=150, deadline=None)
@given(multiclass_rows())
def test_batches_equal_evaluate(case):
    y, s, w, cuts, k, kind = case
    want = clfeval.evaluate(y, y_score=s, sample_weight=w, labels=list(range(k)))
    got = streamed(y, s, w, cuts, k).result()
    same(ovo(got), ovo(want), exact=kind != "float")
    # the one-vs-rest rankings the stream reads off its cells
    for key in ("roc_auc", "average_precision"):
        same((got.report.overall[key],), (want.report.overall[key],), exact=kind != "float")


@settings(max_examples=60, deadline=None)
@given(multiclass_rows(), st.randoms(use_true_random=False))
def test_merge_in_any_order(case, random):
    y, s, w, cuts, k, kind = case
    want = ovo(clfeval.evaluate(y, y_score=s, sample_weight=w, labels=list(range(k))))
    parts = [streamed(y, s, w, [a, b], k) for a, b in zip(cuts, cuts[1:])]
    random.shuffle(parts)
    out = parts[0]
    for p in parts[1:]:
        out = out.merge(p) if random.random() < 0.5 else p.merge(out)
    same(ovo(out.result()), want, exact=kind != "float")


def test_unweighted_stream_is_sklearn_to_the_last_bit():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 4, 5000)
    s = rng.multinomial(20, np.full(4, 0.25), 5000) / 20  # probabilities with many ties
    got = streamed(y, s, None, list(range(0, 5001, 777)) + [5000], 4).result()
    assert got.report.overall["ovo_auc"] == roc_auc_score(y, s, multi_class="ovo")
    assert got.report.overall["ovo_auc_weighted"] == roc_auc_score(y, s, multi_class="ovo", average="weighted")


def test_hand_computed_cells():
    # column 0: class 0 at 0.9 and 0.5, class 1 at 0.5, class 2 at 0.1: class 0 outscores class 1
    # in 1 pair and ties it in 1 (1.5 of 2 pairs), class 2 in 2 of 2
    cells = ClassCells.from_column(np.array([0, 1, 0, 2]), np.array([0.9, 0.5, 0.5, 0.1]))
    o = pairwise_u_of_cells([cells, cells, cells], 3)
    assert o.u[0].tolist() == [2.0, 1.5, 2.0] and o.support.tolist() == [2.0, 1.0, 1.0]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(1, 40))
def test_cells_merge_equals_cells_of_concatenation(seed, n, m):
    rng = np.random.default_rng(seed)
    codes, scores = rng.integers(0, 3, n + m), rng.integers(0, 4, n + m) / 4.0
    w = rng.integers(0, 3, n + m).astype(float) if seed % 2 else None
    whole = ClassCells.from_column(codes, scores, w, 3)
    parts = [ClassCells.from_column(codes[a:b], scores[a:b], None if w is None else w[a:b], 3)
             for a, b in ((0, n), (n, n + m))]
    merged = merge_cell_runs(parts)
    assert merged.scores.tolist() == whole.scores.tolist() and merged.codes.tolist() == whole.codes.tolist()
    assert merged.count_array().tolist() == whole.count_array().tolist()


def test_weighted_stream_counts_pairs_by_product_of_weights():
    # integer weights are repeated rows: the weighted stream equals the unweighted M of the repeated rows
    rng = np.random.default_rng(3)
    y, s, w = rng.integers(0, 3, 300), rng.dirichlet(np.ones(3), 300).round(2), rng.integers(1, 4, 300)
    got = streamed(y, s, w, [0, 100, 300], 3).result()
    want = clfeval.evaluate(np.repeat(y, w), y_score=np.repeat(s, w, axis=0))
    np.testing.assert_allclose(ovo(got), ovo(want), rtol=1e-13)


def test_binned_stream_gives_m_of_binned_scores_with_bounds():
    rng = np.random.default_rng(11)
    y = rng.integers(0, 3, 2000)
    s = rng.dirichlet(np.ones(3), 2000)
    exact = ovo(clfeval.evaluate(y, y_score=s))
    for kw in ({"mode": "binned", "bits": 4}, {"max_distinct": 300, "bits": 4}):  # from the start; after a switch
        ev = streamed(y, s, None, [0, 500, 1000, 2000], 3, **kw).result()
        assert ovo(ev) == ovo(clfeval.evaluate(y, y_score=quantize(s, 4)))
        note = next(n for n in ev.report.notes if "Hand-Till AUC" in n)
        lows_highs = [float(x) for x in note.split("lie in")[1].replace("[", " ").replace("]", " ")
                      .replace(",", " ").replace("and", " ").rstrip(". ").split()]
        for value, lo, hi in zip(exact, lows_highs[0::2], lows_highs[1::2]):
            assert lo - 1e-6 <= value <= hi + 1e-6  # the note prints 6 digits
            assert hi - lo < 0.1


def test_exact_stream_merged_with_binned_one_is_binned():
    rng = np.random.default_rng(12)
    y, s = rng.integers(0, 3, 400), rng.dirichlet(np.ones(3), 400)
    a = streamed(y, s, None, [0, 200], 3, max_distinct=1000, bits=5)
    b = streamed(y, s, None, [200, 400], 3, max_distinct=1000, bits=5)
    b._switch_to_bins()
    for m in (a.merge(b), b.merge(a)):
        assert ovo(m.result()) == ovo(clfeval.evaluate(y, y_score=quantize(s, 5)))


def test_cells_replace_the_rankings_in_the_state():
    rng = np.random.default_rng(0)
    y, s = np.arange(20000) % 10, rng.random((20000, 10))
    stream = streamed(y, s, None, [0, 10000, 20000], 10)
    cells = sum(c.nbytes for runs in stream._cells for c in runs)
    assert cells == 20000 * 10 * 9  # a score and a one-byte class per row and column, no counts
    assert stream.nbytes == cells + stream._matrix.nbytes and stream.distinct_scores == 20000 * 10
    # the rankings read from the cells are evaluate's, to the last bit
    got, want = stream.result(), clfeval.evaluate(y, y_score=s)
    for name in want.rankings:
        assert got.rankings[name].roc_auc == want.rankings[name].roc_auc
        assert got.rankings[name].average_precision == want.rankings[name].average_precision


def test_stream_has_no_interval_of_m():
    stream = streamed(np.arange(30) % 3, np.random.default_rng(1).random((30, 3)), None, [0, 30], 3)
    ev = stream.result()
    assert ev.report.overall["ovo_auc"] > 0
    with pytest.raises(ValueError, match="stream"):
        ev.intervals()


def test_dask_partitions_equal_evaluate():
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    from clfeval.dask import evaluate as dask_evaluate

    rng = np.random.default_rng(4)
    y, s, w = rng.integers(0, 4, 3000), rng.dirichlet(np.ones(4), 3000).round(2), rng.random(3000)
    with dask.config.set(scheduler="synchronous"):
        got = dask_evaluate(da.from_array(y, chunks=700), y_score=da.from_array(s, chunks=(700, 4)),
                            labels=[0, 1, 2, 3], split_every=2)
        got_w = dask_evaluate(da.from_array(y, chunks=700), y_score=da.from_array(s, chunks=(700, 4)),
                              sample_weight=da.from_array(w, chunks=700), labels=[0, 1, 2, 3])
    assert ovo(got) == ovo(clfeval.evaluate(y, y_score=s))
    np.testing.assert_allclose(ovo(got_w), ovo(clfeval.evaluate(y, y_score=s, sample_weight=w)), rtol=1e-12)
