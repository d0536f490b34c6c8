"""The fast binary paths of issue 23 give exactly what the general paths give.

* ``sorted_binary_keys`` (one uint64 key per sample: score image + class bit) orders and
  decodes every score exactly, ties included, and declines only where it says it does;
* binary score tables built from those keys (scores decoded lazily) equal the tables of the
  general packed sort (``_group_by_packed_sort``), ties and signs included;
* the formulas' one-sample-per-score paths (ROC AUC from the positives' positions, ROC corners
  from run lengths, precision-recall and DET block by block) equal the same formulas fed
  explicit negative counts (the general code), bit for bit, also across many blocks;
* the sklearn-compatible calls equal scikit-learn on scores of both signs, zeros and ties.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval.metrics as cm
from clfeval.formulas import curves
from clfeval.statistics import scores as scores_module
from clfeval.statistics.packed_sort import sorted_binary_keys
from clfeval.statistics.scores import ScoreTable

sk = pytest.importorskip("sklearn.metrics")

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -3.5, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, 1e300, -1e300,
           1.7976931348623157e308, -1.7976931348623157e308, np.nextafter(1.0, 2.0), np.nextafter(1.0, 0.0)]
scores_strategy = st.lists(
    st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(SPECIAL),
              st.floats(0, 1, allow_nan=False)),
    min_size=2, max_size=60,
)


def _labels(data, n):
    return np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))


@settings(max_examples=300, deadline=None)
@given(scores_strategy, st.data())
def test_sorted_binary_keys_order_decode_and_ties(values, data):
    x = np.array(values, dtype=np.float64)
    y = _labels(data, x.size)
    before = x.copy()
    built = sorted_binary_keys(x, y)
    assert np.array_equal(x.view(np.uint64), before.view(np.uint64))  # x untouched, -0.0 included
    # declined exactly where scores of both signs, scaled below 1 in magnitude by a power of two,
    # would hold a zero or a subnormal (or need a scale below the normal range)
    shift = max(int(np.frexp(np.abs(x).max())[1]), 0)
    declines = x.min() < 0 and (shift > 1022 or bool((np.abs(x) < 2.0 ** (shift - 1022)).any()))
    assert (built is None) == declines
    if built is None:
        return
    keys, decode = built
    code = (keys & np.uint64(1)).astype(bool)
    value_keys = keys >> np.uint64(1)
    decoded = decode(keys.copy())
    order = np.lexsort((y, x + 0.0))
    np.testing.assert_array_equal(decoded, x[order] + 0.0)  # ascending, exact (-0.0 read as 0.0)
    assert sorted(zip((decoded + 0.0).tolist(), code.tolist())) == sorted(zip((x + 0.0).tolist(), y.tolist()))
    # tied scores share their value key, distinct ones do not
    np.testing.assert_array_equal(value_keys[1:] == value_keys[:-1], decoded[1:] == decoded[:-1])
    fresh = decode(keys, fresh=True)
    np.testing.assert_array_equal(fresh, decoded)
    owned = x.copy()
    again = sorted_binary_keys(owned, y, owned=True)
    np.testing.assert_array_equal(again[0], keys)


@settings(max_examples=300, deadline=None)
@given(scores_strategy, st.data())
def test_binary_tables_equal_the_general_packed_sort(values, data):
    x = np.array(values, dtype=np.float64)
    y = _labels(data, x.size)
    table = ScoreTable.from_validated(y, x, np.array([False, True]))
    expected_scores, counts, one_each = scores_module._group_by_packed_sort(y.view(np.uint8), x, 2)
    expected_counts = scores_module._dense(one_each, 2) if counts is None else counts
    assert len(table) == expected_scores.size
    np.testing.assert_array_equal(table.scores_at(np.arange(len(table))[::-1]), expected_scores[::-1])
    np.testing.assert_array_equal(table.scores_at(), expected_scores)
    np.testing.assert_array_equal(table.scores, expected_scores)
    np.testing.assert_array_equal(table.counts, expected_counts)
    np.testing.assert_array_equal(table.totals, expected_counts.sum(axis=0))


def _explicit(pos):
    return 1 - pos.astype(np.int64), pos.astype(np.int64)


def _check_formulas(pos, scores):
    neg, posi = _explicit(pos)

    def scores_at(positions):
        return scores.copy() if positions is None else scores[positions]

    with np.errstate(all="ignore"):
        for fast, general in [
            (curves.precision_recall_points(None, pos, scores_at), curves.precision_recall_points(neg, posi, scores)),
            (curves.precision_recall_points(None, pos, scores), curves.precision_recall_points(neg, posi, scores)),
            (curves.det_points(None, pos, scores_at), curves.det_points(neg, posi, scores)),
            (curves.roc_points(None, pos, scores_at), curves.roc_points(neg, posi, scores)),
            (curves.roc_points(None, pos, scores), curves.roc_points(neg, posi, scores)),
        ]:
            for a, b in zip(fast, general):
                assert a.shape == b.shape
                np.testing.assert_array_equal(a, b)
    if pos.any() and not pos.all():
        assert curves.roc_auc(None, pos) == curves.roc_auc(neg, posi)
        assert curves.roc_auc(None, pos[::-1].copy()[::-1]) == curves.roc_auc(neg, posi)
    ap = curves.average_precision(None, pos)  # sums of k / rank_k, in blocks: equal up to summation order
    assert ap == pytest.approx(curves.average_precision(None, pos[::-1].copy()[::-1]), rel=1e-14, abs=0)
    assert ap == pytest.approx(curves.average_precision(neg, posi), rel=1e-14, abs=0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=40), st.booleans(), st.integers(1, 5))
def test_one_sample_per_score_formulas_equal_the_general_ones(flags, reversed_view, block):
    pos = np.array(flags)
    if reversed_view:  # the layout binary tables hand out: a reversed view of the sorted codes
        pos = pos[::-1].copy()[::-1]
    scores = np.linspace(1.0, 0.0, pos.size)
    old = curves._CACHE_BLOCK
    curves._CACHE_BLOCK = block  # many blocks
    try:
        _check_formulas(pos, scores)
    finally:
        curves._CACHE_BLOCK = old
    _check_formulas(pos, scores)


def test_corners_of_one_sample_per_score_by_hand():
    pos = np.array([True, True, False, True, False, False])
    idx, fps, tps = curves._one_each_corners(pos)
    assert idx.tolist() == [0, 1, 2, 3, 5] and tps.tolist() == [1, 2, 2, 3, 3] and fps.tolist() == [0, 0, 1, 1, 3]
    assert curves._changes(np.array([1, 1, 0, 0, 0, 1])).tolist() == [1, 4]
    # AUC by hand: positives at ranks 1, 2, 4 of 6 outscore 3, 3 and 2 of the 3 negatives
    assert curves.roc_auc(None, pos) == 8 / 9


@pytest.mark.parametrize("kind", ["probabilities", "signed", "signed with zeros", "ties", "huge"])
def test_metrics_equal_scikit_learn(kind):
    rng = np.random.default_rng(3)
    n = 20_000
    y = rng.integers(0, 2, n)
    s = 1 / (1 + np.exp(-(rng.standard_normal(n) + y)))
    if kind != "probabilities":
        s = np.log(s / (1 - s))
    if kind == "signed with zeros":
        s[::7] = 0.0
        s[::11] = -0.0
    if kind == "ties":
        s = np.round(s, 1)
    if kind == "huge":
        s = s * 1e306
    for name in ("roc_auc_score", "average_precision_score", "roc_curve", "precision_recall_curve", "det_curve"):
        ours, theirs = getattr(cm, name)(y, s), getattr(sk, name)(y, s)
        if isinstance(ours, tuple):
            for a, b in zip(ours, theirs):
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=0)
                assert a.shape == b.shape
            np.testing.assert_array_equal(ours[2], theirs[2])  # thresholds exactly
            assert all(a.flags.writeable for a in ours)
        else:
            assert ours == pytest.approx(theirs, rel=1e-12, abs=0)


def test_lazy_scores_decode_once_across_threads():
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(5)
    x, y = rng.standard_normal(200_000), rng.random(200_000) < 0.3
    expected = np.sort(x)[::-1]
    for _ in range(5):
        table = ScoreTable.from_validated(y, x, np.array([False, True]))
        def read(i, table=table):
            return table.scores if i % 2 else table.scores_at(np.arange(3))

        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(read, range(8)))
        np.testing.assert_array_equal(table.scores, expected)
        for i, r in enumerate(results):
            np.testing.assert_array_equal(r, expected if i % 2 else expected[:3])


def test_released_scores_are_the_tables_and_writable():
    table = ScoreTable.from_validated(np.array([True, False, True]), np.array([0.3, 0.1, 0.7]), np.array([False, True]))
    released = table.scores_at(release=True)
    assert released.tolist() == [0.7, 0.3, 0.1] and released.flags.writeable
    assert table.scores.tolist() == [0.7, 0.3, 0.1] and not table.scores.flags.writeable
    copy = table.scores_at()
    copy[0] = 9.0  # a copy once decoded
    assert table.scores[0] == 0.7
