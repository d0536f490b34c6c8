"""ConfusionCounts and MultilabelCounts: construction, the merge monoid, views (clfeval.statistics.counts)."""

from __future__ import annotations

from functools import reduce

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import assume, given
from hypothesis import strategies as st

from clfeval.statistics import counts as counts_module
from clfeval.statistics.counts import ConfusionCounts, MultilabelCounts, build_counts
from conftest import for_oracle, label_pairs, label_pool, multilabel_pairs, sample_weights

pytestmark = pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")

INT_DTYPES = ("int", "negint", "uint", "bigint")


def _exact(a: np.ndarray, b: np.ndarray) -> None:
    """Identical values, and both integer or both float."""
    assert a.shape == b.shape
    assert (a.dtype.kind in "iu") == (b.dtype.kind in "iu"), (a.dtype, b.dtype)
    np.testing.assert_array_equal(a, b)


# --------------------------------------------------------------------------------------------
# construction
# --------------------------------------------------------------------------------------------
@given(pair=label_pairs(), data=st.data())
def test_from_labels_matches_sklearn(pair, data):
    yt, yp, pool = pair
    w = data.draw(sample_weights(len(yt), allow_bool=True))
    assume(w is None or w.any())
    cc = ConfusionCounts.from_labels(yt, yp, sample_weight=w)
    labels = np.unique(np.concatenate([yt, yp]))
    assert cc.labels.tolist() == labels.tolist()
    expected = skm.confusion_matrix(for_oracle(yt), for_oracle(yp), sample_weight=w, labels=for_oracle(labels))
    np.testing.assert_allclose(cc.matrix, expected, rtol=1e-12, atol=0)
    if w is None or w.dtype.kind in "biu":
        assert cc.matrix.dtype == np.int64
    else:
        assert cc.matrix.dtype == np.float64


@given(pair=label_pairs(dtypes=INT_DTYPES), data=st.data())
def test_integer_fast_path_equals_general_path(pair, data):
    """Integer labels take the one-pass grid; with the grid disabled, the general path (label
    union, encoding, joint bincount) must give the very same statistic."""
    yt, yp, _ = pair
    w = data.draw(sample_weights(len(yt), allow_bool=True))
    assume(w is None or w.any())
    fast = build_counts(yt, yp, w)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(counts_module, "_MAX_GRID", 0)
        slow = build_counts(yt, yp, w)
        assert counts_module._fast_integer_counts(yt, yp, None) is None
    assert fast[0] == slow[0]
    assert fast[1].labels.tolist() == slow[1].labels.tolist()
    _exact(fast[1].matrix, slow[1].matrix)
    assert fast[2].tolist() == slow[2].tolist() and fast[3].tolist() == slow[3].tolist()
    assert fast[1].labels.dtype.kind == yt.dtype.kind


def test_fast_path_parallel_split(monkeypatch):
    """Long input is counted in two halves on two threads; the sum must be the same table."""
    rng = np.random.default_rng(0)
    yt = rng.integers(-2, 5, size=1001)
    yp = rng.integers(0, 7, size=1001)
    w = rng.random(1001)
    serial = build_counts(yt, yp, w)[1].matrix
    serial_int = build_counts(yt, yp)[1].matrix
    monkeypatch.setattr(counts_module, "_PARALLEL_MIN", 16)
    np.testing.assert_allclose(build_counts(yt, yp, w)[1].matrix, serial, rtol=1e-13)
    _exact(build_counts(yt, yp)[1].matrix, serial_int)
    expected = skm.confusion_matrix(yt, yp)
    _exact(serial_int, expected)


def test_fast_path_mixed_integer_dtypes():
    yt = np.array([0, 1, 200], dtype=np.uint8)
    yp = np.array([-1, 1, 200], dtype=np.int16)
    kind, cc, lt, lp = build_counts(yt, yp)
    assert kind == "multiclass"
    assert cc.labels.tolist() == [-1, 0, 1, 200]
    assert cc.matrix.tolist() == [[0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    assert lt.tolist() == [0, 1, 200] and lp.tolist() == [-1, 1, 200]


def test_from_labels_with_labels_leaves_out_other_samples():
    cc = ConfusionCounts.from_labels([1, 2, 3, 3], [2, 2, 3, 1], labels=[3, 2])
    assert cc.labels.tolist() == [3, 2]
    assert cc.matrix.tolist() == [[1, 0], [0, 1]]  # (3 -> 1) and (1 -> 2) are outside
    with pytest.raises(ValueError, match="MultilabelCounts"):
        ConfusionCounts.from_labels(np.eye(2), np.eye(2))


def test_from_labels_allows_all_zero_weights():
    """A chunk whose weights are all zero is still a valid (empty) statistic for merging."""
    cc = ConfusionCounts.from_labels([0, 1], [1, 1], sample_weight=[0.0, 0.0])
    assert cc.matrix.tolist() == [[0.0, 0.0], [0.0, 0.0]] and cc.matrix.dtype == np.float64
    with pytest.raises(ValueError, match="zero for all 2 samples"):
        build_counts([0, 1], [1, 1], [0.0, 0.0])


def test_from_codes_and_zeros():
    cc = ConfusionCounts.from_codes(np.array([0, 1, 1]), np.array([1, 1, 0]), np.array(["x", "y"]))
    assert cc.matrix.tolist() == [[0, 1], [1, 1]]
    w = ConfusionCounts.from_codes(np.array([0, 1]), np.array([1, 1]), np.array(["x", "y"]), np.array([0.5, 2.0]))
    assert w.matrix.tolist() == [[0.0, 0.5], [0.0, 2.0]] and w.matrix.dtype == np.float64
    z = ConfusionCounts.zeros(["a", "b", "c"])
    assert z.matrix.shape == (3, 3) and not z.matrix.any() and z.total == 0


def test_immutable_and_shape_checked():
    cc = ConfusionCounts.from_labels([0, 1], [0, 0])
    with pytest.raises(ValueError):
        cc.matrix[0, 0] = 5
    with pytest.raises(ValueError):
        cc.labels[0] = 7
    with pytest.raises(ValueError, match=r"expected \(\.\.\., 2, 2\)"):
        ConfusionCounts(np.array([0, 1]), np.zeros((3, 3)))
    # a batch of tables over the same labels is allowed
    assert ConfusionCounts(np.array([0, 1]), np.zeros((5, 2, 2))).matrix.shape == (5, 2, 2)


def test_repr_and_to_dict():
    cc = ConfusionCounts.from_labels(["a", "b", "a"], ["a", "a", "a"])
    assert repr(cc) == "ConfusionCounts(labels=['a', 'b'], total=3)"
    assert cc.to_dict() == {"labels": ["a", "b"], "matrix": [[2, 0], [1, 0]]}
    mc = MultilabelCounts.from_indicators(np.array([[1, 0]]), np.array([[1, 1]]))
    assert repr(mc) == "MultilabelCounts(n_labels=2, n_samples=1)"
    assert mc.to_dict() == {"tables": [[[0, 0], [0, 1]], [[0, 1], [0, 0]]]}


# --------------------------------------------------------------------------------------------
# views
# --------------------------------------------------------------------------------------------
def test_submatrix_and_positions():
    cc = ConfusionCounts.from_labels([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2])
    assert cc.positions([2, 9, 0]).tolist() == [2, -1, 0]
    assert cc.submatrix([2, 9, 0]).tolist() == [[2, 0, 1], [0, 0, 0], [0, 0, 2]]
    assert cc.submatrix([1]).tolist() == [[0]]
    assert cc.submatrix(["a"]).tolist() == [[0]]  # a string is not among integer labels


def test_one_vs_rest():
    cc = ConfusionCounts.from_labels([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2])
    expected = skm.multilabel_confusion_matrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2])
    _exact(cc.one_vs_rest(), expected)
    # unseen labels get an all-negative table
    assert cc.one_vs_rest([7, 2]).tolist() == [[[6, 0], [0, 0]], [[2, 1], [1, 2]]]


# --------------------------------------------------------------------------------------------
# the merge monoid
# --------------------------------------------------------------------------------------------
@st.composite
def chunks(draw: st.DrawFn, n_chunks: int = 3, weighted: bool = False):
    """Several (y_true, y_pred, w) chunks of the same label type, with differing label sets."""
    dtype = draw(st.sampled_from(("int", "str", "negint", "bigint", "object_str", "float")))
    pool = label_pool(dtype, 6)
    out = []
    for _ in range(n_chunks):
        sub = draw(st.lists(st.sampled_from(list(range(6))), min_size=1, max_size=4, unique=True))
        n = draw(st.integers(1, 12))
        codes = st.lists(st.sampled_from(sub), min_size=n, max_size=n)
        yt, yp = pool[np.array(draw(codes))], pool[np.array(draw(codes))]
        w = None
        if weighted:
            w = np.array(draw(st.lists(st.sampled_from([0, 1, 2, 5]), min_size=n, max_size=n)), dtype=np.int64)
        out.append((yt, yp, w))
    return out


def _counts(chunk) -> ConfusionCounts:
    yt, yp, w = chunk
    return ConfusionCounts.from_labels(yt, yp, sample_weight=w)


def _same_counts(a: ConfusionCounts, b: ConfusionCounts) -> None:
    assert a.labels.tolist() == b.labels.tolist()
    _exact(a.matrix, b.matrix)


@given(parts=chunks(), weighted=st.booleans())
def test_merge_equals_counts_of_concatenation(parts, weighted):
    if weighted:
        parts = [(yt, yp, np.arange(len(yt), dtype=np.int64) % 3) for yt, yp, _ in parts]
    merged = reduce(ConfusionCounts.merge, [_counts(p) for p in parts])
    yt = np.concatenate([p[0] for p in parts])
    yp = np.concatenate([p[1] for p in parts])
    w = np.concatenate([p[2] for p in parts]) if weighted else None
    _same_counts(merged, ConfusionCounts.from_labels(yt, yp, sample_weight=w))


@given(parts=chunks(n_chunks=3, weighted=True))
def test_merge_is_associative_and_commutative(parts):
    a, b, c = (_counts(p) for p in parts)
    _same_counts(a.merge(b).merge(c), a.merge(b.merge(c)))
    ab, ba = a.merge(b), b.merge(a)
    _same_counts(ab, ba)
    zero = ConfusionCounts.zeros(a.labels)
    _same_counts(a.merge(zero), a)


@given(data=st.data())
def test_merge_float_weights(data):
    yt, yp, _ = data.draw(label_pairs(min_size=2))
    w = np.array(data.draw(st.lists(st.floats(0.01, 5.0), min_size=len(yt), max_size=len(yt))))
    cut = data.draw(st.integers(1, len(yt) - 1))
    whole = ConfusionCounts.from_labels(yt, yp, sample_weight=w)
    left = ConfusionCounts.from_labels(yt[:cut], yp[:cut], sample_weight=w[:cut])
    right = ConfusionCounts.from_labels(yt[cut:], yp[cut:], sample_weight=w[cut:])
    merged = left.merge(right)
    assert merged.labels.tolist() == whole.labels.tolist()
    assert merged.matrix.dtype == np.float64
    np.testing.assert_allclose(merged.matrix, whole.matrix, rtol=1e-12, atol=1e-12)


def test_merge_refuses_mixed_label_types():
    with pytest.raises(ValueError, match="Mix of label input types"):
        ConfusionCounts.from_labels([1, 2], [1, 2]).merge(ConfusionCounts.from_labels(["a"], ["a"]))


@given(pair=label_pairs(), data=st.data())
def test_invariant_to_sample_order(pair, data):
    yt, yp, _ = pair
    w = data.draw(sample_weights(len(yt), allow_bool=True))
    assume(w is None or w.any())
    perm = np.array(data.draw(st.permutations(range(len(yt)))), dtype=np.intp)
    a = ConfusionCounts.from_labels(yt, yp, sample_weight=w)
    b = ConfusionCounts.from_labels(yt[perm], yp[perm], sample_weight=None if w is None else w[perm])
    assert a.labels.tolist() == b.labels.tolist()
    if w is not None and w.dtype.kind == "f":
        np.testing.assert_allclose(a.matrix, b.matrix, rtol=1e-12)
    else:
        _exact(a.matrix, b.matrix)


# --------------------------------------------------------------------------------------------
# multilabel
# --------------------------------------------------------------------------------------------
@given(pair=multilabel_pairs(min_labels=2), data=st.data())
def test_multilabel_tables_match_sklearn(pair, data):
    yt, yp = pair
    w = data.draw(sample_weights(yt.shape[0], allow_bool=True))
    assume(w is None or w.any())
    ww = None if w is None else (w.astype(np.int64) if w.dtype.kind == "b" else w)
    mc = MultilabelCounts.from_indicators(yt, yp, ww)
    # sklearn forms tn = total - tp - fp - fn, which can leave rounding residue; clfeval sums it
    expected = skm.multilabel_confusion_matrix(yt, yp, sample_weight=w)
    np.testing.assert_allclose(mc.tables, expected, rtol=1e-12, atol=1e-12)
    assert np.all(mc.tables >= 0)
    samplewise = skm.multilabel_confusion_matrix(yt, yp, samplewise=True)
    # per_sample holds (tp, fp, fn) of each sample over the labels
    _exact(mc.per_sample, samplewise[:, [1, 0, 1], [1, 1, 0]])
    assert mc.n_labels == yt.shape[1]
    assert mc.tables.dtype == (np.float64 if ww is not None and ww.dtype.kind == "f" else np.int64)


@given(pair=multilabel_pairs(min_labels=2, min_size=2), data=st.data(), weighted=st.booleans())
def test_multilabel_merge_equals_concatenation(pair, data, weighted):
    yt, yp = pair
    cut = data.draw(st.integers(1, yt.shape[0] - 1))
    w = (np.arange(yt.shape[0]) % 4).astype(np.int64) if weighted else None
    part = lambda s: MultilabelCounts.from_indicators(yt[s], yp[s], None if w is None else w[s])  # noqa: E731
    merged = part(slice(None, cut)).merge(part(slice(cut, None)))
    whole = part(slice(None))
    _exact(merged.tables, whole.tables)
    _exact(merged.per_sample, whole.per_sample)
    if weighted:
        _exact(merged.sample_weight, whole.sample_weight)
    else:
        assert merged.sample_weight is None


def test_multilabel_merge_errors():
    a = MultilabelCounts.from_indicators(np.eye(2, dtype=int), np.eye(2, dtype=int))
    b = MultilabelCounts.from_indicators(np.eye(3, dtype=int), np.eye(3, dtype=int))
    with pytest.raises(ValueError, match="over 2 and 3 labels"):
        a.merge(b)
    c = MultilabelCounts.from_indicators(np.eye(2, dtype=int), np.eye(2, dtype=int), np.array([1, 2]))
    with pytest.raises(ValueError, match="weighted with unweighted"):
        a.merge(c)


def test_build_counts_multilabel():
    kind, mc, lt, lp = build_counts(np.array([[1, 0], [0, 1]]), np.array([[1, 1], [0, 0]]))
    assert kind == "multilabel-indicator"
    assert isinstance(mc, MultilabelCounts)
    assert mc.tables.tolist() == [[[1, 0], [0, 1]], [[0, 1], [1, 0]]]
    assert lt.tolist() == [0, 1]
