"""ScoreTable and the score statistics built straight from data (clfeval.statistics.scores), and the curve
formulas that read them (clfeval.formulas.curves): exact against brute-force references."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clfeval.formulas import curves
from clfeval.statistics import scores
from clfeval.statistics.scores import ScoreTable, pairwise_u, rowwise_counts

# Scores chosen to stress the packed-key sort: ties, +-0.0, both signs, subnormals, extremes
# (which force the split into parts), and integer values.
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -3.0, 5e-324, -5e-324, 1e-300, 1e300, -1e300, 7.0]


@st.composite
def samples(draw, max_classes: int = 5, weighted: bool | None = None):
    """(codes, scores, k, weights or None) with plenty of ties."""
    n = draw(st.integers(0, 40))
    k = draw(st.integers(1, max_classes))
    codes = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), dtype=np.intp)
    kind = draw(st.sampled_from(["small_ints", "special", "floats"]))
    if kind == "small_ints":
        values = st.integers(-3, 3).map(float)
    elif kind == "special":
        values = st.sampled_from(SPECIAL)
    else:
        values = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
    x = np.array(draw(st.lists(values, min_size=n, max_size=n)), dtype=np.float64)
    use_w = draw(st.booleans()) if weighted is None else weighted
    w = None
    if use_w:
        w = np.array(
            draw(st.lists(st.sampled_from([0.0, 0.25, 1.0, 2.5, 3.0]), min_size=n, max_size=n))
        )
    return codes, x, k, w


def reference_table(codes, x, k, w):
    """Brute force: distinct scores (decreasing) and per-class totals."""
    keep = np.ones(x.size, bool) if w is None else w != 0
    uniq = np.unique(x[keep])[::-1]
    counts = np.zeros((uniq.size, k), dtype=np.float64 if w is not None else np.int64)
    for c, v, wi in zip(codes[keep], x[keep], (w[keep] if w is not None else np.ones(keep.sum()))):
        counts[np.flatnonzero(uniq == v)[0], c] += wi
    return uniq, counts


@given(samples())
def test_table_matches_brute_force(data):
    codes, x, k, w = data
    table = ScoreTable.from_codes(codes, x, classes=np.arange(k), sample_weight=w)
    uniq, counts = reference_table(codes, x, k, w)
    np.testing.assert_array_equal(table.scores, uniq)
    np.testing.assert_allclose(table.counts, counts, rtol=0, atol=1e-12)
    assert table.counts.shape == (uniq.size, k)
    assert table.weighted == (w is not None)
    np.testing.assert_allclose(table.totals, counts.sum(axis=0), atol=1e-12)
    assert len(table) == uniq.size


@given(samples(), st.randoms(use_true_random=False))
def test_table_invariant_to_sample_order(data, rnd):
    codes, x, k, w = data
    order = list(range(x.size))
    rnd.shuffle(order)
    a = ScoreTable.from_codes(codes, x, np.arange(k), sample_weight=w)
    b = ScoreTable.from_codes(
        codes[order], x[order], np.arange(k), sample_weight=None if w is None else w[order]
    )
    np.testing.assert_array_equal(a.scores, b.scores)
    np.testing.assert_allclose(a.counts, b.counts, rtol=1e-12, atol=1e-12)


@given(samples(weighted=False), st.integers(0, 40), st.booleans())
def test_merge_equals_table_of_concatenation(data, cut, weighted_half):
    codes, x, k, _ = data
    cut = min(cut, x.size)
    classes = np.arange(k)
    whole = ScoreTable.from_codes(codes, x, classes)
    left = ScoreTable.from_codes(codes[:cut], x[:cut], classes)
    right = ScoreTable.from_codes(codes[cut:], x[cut:], classes)
    merged = left.merge(right)
    assert merged == whole
    assert right.merge(left) == whole
    assert merged.counts.dtype == np.int64
    if weighted_half:  # counts merge with weights into weights, exactly
        ones = ScoreTable.from_codes(codes[cut:], x[cut:], classes, sample_weight=np.ones(x.size - cut))
        mixed = left.merge(ones)
        assert mixed.weighted or x.size - cut == 0
        np.testing.assert_array_equal(mixed.counts, whole.counts)


@given(samples(weighted=True), st.integers(0, 40), st.integers(0, 40))
def test_weighted_merge_is_associative(data, i, j):
    codes, x, k, w = data
    i, j = sorted((min(i, x.size), min(j, x.size)))
    parts = [
        ScoreTable.from_codes(codes[a:b], x[a:b], np.arange(k), sample_weight=w[a:b])
        for a, b in ((0, i), (i, j), (j, x.size))
    ]
    whole = ScoreTable.from_codes(codes, x, np.arange(k), sample_weight=w)
    for merged in (parts[0].merge(parts[1]).merge(parts[2]), parts[0].merge(parts[1].merge(parts[2]))):
        np.testing.assert_array_equal(merged.scores, whole.scores)
        np.testing.assert_allclose(merged.counts, whole.counts, rtol=1e-12, atol=1e-12)


def test_one_sample_per_score_layout_reads_like_dense():
    rng = np.random.default_rng(0)
    x = rng.random(1000)
    y = rng.integers(0, 3, 1000)
    table = ScoreTable.from_labels(y, x)
    dense = ScoreTable(table.scores, table.counts, table.classes)  # public constructor: dense
    assert table == dense
    for p in range(3):
        for got, want in zip(table.binary_counts(p), dense.binary_counts(p)):
            np.testing.assert_array_equal(got.astype(np.int64), want)
        assert table.one_vs_rest(p) == dense.one_vs_rest(p)
    np.testing.assert_array_equal(table.totals, np.bincount(y))


def test_from_labels_examples_and_repr():
    table = ScoreTable.from_labels(["b", "a", "b", "b"], [0.2, 0.9, 0.2, 0.5])
    assert table.classes.tolist() == ["a", "b"]
    assert table.scores.tolist() == [0.9, 0.5, 0.2]
    assert table.counts.tolist() == [[1, 0], [0, 1], [0, 2]]
    assert repr(table) == "ScoreTable(classes=['a', 'b'], n_scores=3, totals=[1, 3])"
    assert table.class_index("b") == 1
    with pytest.raises(ValueError, match="not one of this table's classes"):
        table.class_index("z")


def test_zero_weight_rows_are_not_scores():
    table = ScoreTable.from_labels([0, 1, 1], [0.3, 0.7, 0.5], sample_weight=[1.0, 0.0, 2.0])
    assert table.scores.tolist() == [0.5, 0.3]
    assert table.counts.tolist() == [[0.0, 2.0], [1.0, 0.0]]


def test_negative_zero_ties_with_zero():
    table = ScoreTable.from_labels([0, 1, 1], [0.0, -0.0, 1.0])
    assert table.scores.tolist() == [1.0, 0.0]
    assert table.counts.tolist() == [[0, 1], [1, 1]]


def test_immutable_and_read_only():
    table = ScoreTable.from_labels([0, 1], [0.2, 0.8])
    with pytest.raises(AttributeError, match="immutable"):
        table.scores = np.zeros(2)
    for arr in (table.scores, table.counts, table.classes):
        with pytest.raises(ValueError):
            arr[0] = arr[0]


def test_to_dict_is_valid_json():
    table = ScoreTable.from_labels([True, False, True], [1e-300, 2.0, 2.0], sample_weight=[1, 2, 3])
    out = json.loads(json.dumps(table.to_dict(), allow_nan=False))
    assert out == {
        "classes": [False, True],
        "scores": [2.0, 1e-300],
        "counts": [[2.0, 3.0], [0.0, 1.0]],
        "weighted": True,
    }


def test_empty_table():
    table = ScoreTable.from_codes([], [], classes=[0, 1])
    assert len(table) == 0 and table.counts.shape == (0, 2)
    full = ScoreTable.from_codes([1], [0.5], classes=[0, 1])
    assert table.merge(full) == full


def test_constructor_and_builder_errors():
    with pytest.raises(ValueError, match="shape"):
        ScoreTable([0.5, 0.2], [[1, 0]], [0, 1])
    with pytest.raises(ValueError, match="decreasing"):
        ScoreTable([0.2, 0.5], [[1, 0], [0, 1]], [0, 1])
    with pytest.raises(ValueError, match=">= 0"):
        ScoreTable([0.5], [[-1, 0]], [0, 1])
    with pytest.raises(ValueError, match="finite"):
        ScoreTable([np.inf], [[1, 0]], [0, 1])
    with pytest.raises(ValueError, match=r"codes must lie in \[0, 2\)"):
        ScoreTable.from_codes([0, 2], [0.1, 0.2], classes=[0, 1])
    with pytest.raises(TypeError, match="integer class indices"):
        ScoreTable.from_codes([0.5, 1.0], [0.1, 0.2], classes=[0, 1])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        ScoreTable.from_codes([0, 1], [0.1], classes=[0, 1])
    with pytest.raises(ValueError, match="missing value"):
        ScoreTable.from_labels([0, 1], [0.1, np.nan])
    with pytest.raises(ValueError, match="infinite"):
        ScoreTable.from_labels([0, 1], [0.1, np.inf])
    with pytest.raises(ValueError, match="one score column"):
        ScoreTable.from_labels([0, 1], [[0.1, 0.2], [0.3, 0.4]])
    with pytest.raises(ValueError, match=r"y_true\[1\] = 'c' is not one of classes"):
        ScoreTable.from_labels(["a", "c"], [0.1, 0.2], classes=["a", "b"])
    with pytest.raises(ValueError, match="Weights must be >= 0"):
        ScoreTable.from_labels([0, 1], [0.1, 0.2], sample_weight=[1.0, -1.0])
    a = ScoreTable.from_labels([0, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match="different classes"):
        a.merge(ScoreTable.from_labels([0, 2], [0.1, 0.2]))
    with pytest.raises(TypeError, match="ScoreTable"):
        a.merge("not a table")


# -- pairwise U and rowwise counts ----------------------------------------------------------------


def brute_u(codes, s, k):
    u = np.full((k, k), np.nan)
    for a in range(k):
        if not (codes == a).any():
            continue
        for b in range(k):
            sa = s[codes == a, a][:, None]
            sb = s[codes == b, a][None, :]
            u[a, b] = (sa > sb).sum() + 0.5 * (sa == sb).sum()
    return u


@given(st.integers(1, 30), st.integers(2, 6), st.sampled_from(["round", "special", "float"]), st.data())
def test_pairwise_u_matches_brute_force(n, k, kind, data):
    codes = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    if kind == "round":
        s = np.round(rng.random((n, k)), 1)
    elif kind == "special":
        s = rng.choice(np.array(SPECIAL), size=(n, k))
    else:
        s = rng.normal(size=(n, k)) * 10.0 ** rng.integers(-3, 4)
    np.testing.assert_array_equal(pairwise_u(codes, s, k), brute_u(codes, s, k))


def test_pairwise_u_across_blocks(monkeypatch):
    # Tiny blocks: ties must never be split between two blocks.
    monkeypatch.setattr(scores, "_BLOCK", 7)
    rng = np.random.default_rng(3)
    codes = rng.integers(0, 4, 300)
    s = np.round(rng.random((300, 4)), 1)
    np.testing.assert_array_equal(pairwise_u(codes, s, 4), brute_u(codes, s, 4))


def test_pairwise_u_agrees_with_table_formula():
    rng = np.random.default_rng(4)
    codes = rng.integers(0, 3, 200)
    s = np.round(rng.random((200, 3)), 2)
    u = pairwise_u(codes, s, 3)
    for a in range(3):
        table = ScoreTable.from_codes(codes, s[:, a], classes=np.arange(3))
        np.testing.assert_allclose(curves.mann_whitney_u(table.counts, a), u[a], rtol=1e-15)


def test_pairwise_u_errors():
    with pytest.raises(ValueError, match=r"shape \(n_samples, 3\)"):
        pairwise_u([0, 1], np.ones((2, 2)), 3)
    with pytest.raises(ValueError, match=r"integers in \[0, 2\)"):
        pairwise_u([0, 5], np.ones((2, 2)), 2)


@given(st.integers(1, 12), st.integers(1, 6), st.data())
def test_rowwise_counts_are_per_row_tables(n, m, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    y = rng.integers(0, 2, (n, m))
    s = np.round(rng.random((n, m)), 1)
    neg, pos = rowwise_counts(y, s)
    for i in range(n):
        table = ScoreTable.from_codes(y[i], s[i], classes=[0, 1])
        # the padded row holds the same counts, in the same order, with zeros in between
        nz = (neg[i] + pos[i]) > 0
        np.testing.assert_array_equal(neg[i][nz], table.counts[:, 0])
        np.testing.assert_array_equal(pos[i][nz], table.counts[:, 1])


# -- curve formulas --------------------------------------------------------------------------------


@given(samples(max_classes=2, weighted=False))
def test_roc_auc_is_mann_whitney_probability(data):
    codes, x, _, _ = data
    pos, neg = x[codes == 1], x[codes == 0]
    table = ScoreTable.from_codes(codes, x, classes=[0, 1])
    got = curves.roc_auc(*table.binary_counts())
    if pos.size == 0 or neg.size == 0:
        assert np.isnan(got)
        return
    want = ((pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()) / (
        pos.size * neg.size
    )
    assert got == pytest.approx(want, rel=1e-15)
    assert 0.0 <= got <= 1.0
    flipped = ScoreTable.from_codes(1 - codes, x, classes=[0, 1])
    assert curves.roc_auc(*flipped.binary_counts()) == pytest.approx(1 - got, abs=1e-15)


def test_batched_formulas_match_one_by_one():
    rng = np.random.default_rng(7)
    neg = rng.integers(0, 3, (4, 5, 9))
    pos = rng.integers(0, 3, (4, 5, 9))
    pos[..., 0] += 1  # a positive in every table
    neg[..., -1] += 1  # and a negative
    auc = curves.roc_auc(neg, pos)
    ap = curves.average_precision(neg, pos)
    assert auc.shape == ap.shape == (4, 5)
    for i in range(4):
        for j in range(5):
            assert auc[i, j] == pytest.approx(curves.roc_auc(neg[i, j], pos[i, j]), rel=1e-15)
            assert ap[i, j] == pytest.approx(
                curves.average_precision(neg[i, j], pos[i, j]), rel=1e-15
            )


def test_zero_count_positions_change_nothing():
    neg, pos = np.array([0, 1, 2, 1]), np.array([2, 1, 0, 1])
    pad_neg, pad_pos = np.array([0, 0, 1, 0, 2, 1, 0]), np.array([2, 0, 1, 0, 0, 1, 0])
    assert curves.roc_auc(neg, pos) == curves.roc_auc(pad_neg, pad_pos)
    assert curves.average_precision(neg, pos) == pytest.approx(
        curves.average_precision(pad_neg, pad_pos), rel=1e-15
    )
    assert curves.partial_roc_auc(neg, pos, 0.3) == pytest.approx(
        curves.partial_roc_auc(pad_neg, pad_pos, 0.3), rel=1e-15
    )


def test_partial_auc_mcclish_extremes():
    perfect = (np.array([0, 0, 3]), np.array([2, 1, 0]))
    worst = (np.array([3, 0]), np.array([0, 2]))
    chance = (np.array([3]), np.array([2]))
    for max_fpr in (0.1, 0.5, 0.9):
        assert curves.partial_roc_auc(*perfect, max_fpr) == pytest.approx(1.0)
        assert curves.partial_roc_auc(*chance, max_fpr) == pytest.approx(0.5)
        assert curves.partial_roc_auc(*worst, max_fpr) == pytest.approx(0.5 * (1 - max_fpr / (2 - max_fpr)))


def test_hand_till_pairs():
    u = np.array([[2.0, 3.0, 4.0], [1.0, 2.0, 2.0], [np.nan] * 3])
    support = np.array([2, 2, 0])
    s, w = curves.hand_till_pairs(u, support)  # class 2 is absent: one pair
    assert s.tolist() == [(3 / 4 + 1 / 4) / 2] and w.tolist() == [1.0]


@given(samples(max_classes=2, weighted=False))
def test_compact_negatives_read_the_same(data):
    codes, x, _, _ = data
    if x.size == 0:
        return
    table = ScoreTable.from_codes(codes, x, classes=[0, 1])
    neg, pos = table.binary_counts()
    compact = table.binary_counts(compact=True)
    for drop in (True, False):
        for points in (curves.roc_points, curves.precision_recall_points, curves.det_points):
            with np.errstate(invalid="ignore", divide="ignore"):
                for a, b in zip(points(neg, pos, table.scores, drop), points(*compact, table.scores, drop)):
                    np.testing.assert_array_equal(a, b)
    for formula in (curves.roc_auc, curves.average_precision):
        # equal up to summation order (AP of one-sample-per-score rankings sums k / rank_k directly)
        np.testing.assert_allclose(formula(neg, pos), formula(*compact), rtol=1e-14, atol=0)
    np.testing.assert_array_equal(
        curves.partial_roc_auc(neg, pos, 0.4), curves.partial_roc_auc(*compact, 0.4)
    )


@given(st.lists(st.floats(-1e300, 1e300, allow_nan=False), max_size=300))
def test_parallel_sort_equals_numpy_sort(values):
    import clfeval.statistics.packed_sort as scores_module  # the sort moved there from clfeval.statistics.scores

    a = np.array(values, dtype=np.float64)
    expected = np.sort(a)
    old, old_workers = scores_module.PARALLEL_SORT_MIN, scores_module.PARALLEL_SORT_MIN_WORKERS
    scores_module.PARALLEL_SORT_MIN = 0  # exercise the threaded path on small arrays
    scores_module.PARALLEL_SORT_MIN_WORKERS = 2  # also on a 2-core machine
    try:
        scores_module.sort_in_place(a)
    finally:
        scores_module.PARALLEL_SORT_MIN, scores_module.PARALLEL_SORT_MIN_WORKERS = old, old_workers
    np.testing.assert_array_equal(a, expected)


@given(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 7.0]), min_size=2, max_size=200), st.integers(2, 9))
def test_parallel_sort_with_heavy_ties(values, cpus):
    import clfeval.statistics.packed_sort as scores_module  # the sort moved there from clfeval.statistics.scores

    a = np.array(values)
    old, old_count = scores_module.PARALLEL_SORT_MIN, scores_module.os.cpu_count
    old_workers = scores_module.PARALLEL_SORT_MIN_WORKERS
    scores_module.PARALLEL_SORT_MIN, scores_module.PARALLEL_SORT_MIN_WORKERS = 0, 2
    scores_module.os.cpu_count = lambda: cpus  # more ranges than distinct values
    try:
        scores_module.sort_in_place(a)
    finally:
        scores_module.PARALLEL_SORT_MIN, scores_module.os.cpu_count = old, old_count
        scores_module.PARALLEL_SORT_MIN_WORKERS = old_workers
    np.testing.assert_array_equal(a, np.sort(values))


def test_score_table_refuses_negative_counts_with_its_message():
    with pytest.raises(ValueError, match=r"^ScoreTable counts must be finite and >= 0\.$"):
        ScoreTable([0.9, 0.2], [[1, -1], [0, 2]], ["a", "b"])
    with pytest.raises(ValueError, match=r"^ScoreTable counts must be finite and >= 0\.$"):
        ScoreTable([0.9], [[np.nan, 1.0]], ["a", "b"])
