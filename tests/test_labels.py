"""Input coercion, target kinds, label sets and encoding (clfeval.inputs.labels)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.utils.multiclass import type_of_target

from clfeval.inputs.labels import (
    as_array,
    as_score_array,
    check_classification_targets,
    check_consistent_length,
    check_sample_weight,
    encode,
    target_kind,
    union_labels,
    unique_sorted,
)
from conftest import LABEL_DTYPES, label_pairs, label_pool


# --------------------------------------------------------------------------------------------
# as_array: every container gives the same numpy array
# --------------------------------------------------------------------------------------------
CONTAINERS = {
    "list": lambda v: list(v),
    "tuple": lambda v: tuple(v),
    "numpy": lambda v: np.asarray(v),
    "pandas": lambda v: pd.Series(v),
    "pandas_category": lambda v: pd.Series(v, dtype="category"),
    "polars": lambda v: pl.Series(v),
    "arrow": lambda v: pa.array(v),
    "arrow_chunked": lambda v: pa.chunked_array([v[:2], v[2:]]),
    "arrow_dictionary": lambda v: pa.array(v).dictionary_encode(),
}


@pytest.mark.parametrize("container", CONTAINERS)
@pytest.mark.parametrize(
    "values", [[3, 1, 3, 2, 1], ["b", "a", "b", "c", "a"], [True, False, True, True, False], [1.0, 0.0, 2.0, 2.0, 1.0]]
)
def test_as_array_containers_agree(container, values):
    got = as_array(CONTAINERS[container](values), "y")
    assert isinstance(got, np.ndarray) and got.shape == (5,)
    assert got.tolist() == values


@pytest.mark.parametrize(
    "series, expected_kind",
    [
        (pd.Series([1, 2, 3], dtype="Int64"), "i"),
        (pd.Series([True, False], dtype="boolean"), "b"),
        (pd.Series(["a", "b"], dtype="string"), None),
        (pd.Series([1.0, 2.5], dtype="Float64"), "f"),
        (pd.Series(["x", "y"], dtype=object), "O"),
        (pd.Series(pd.Categorical(["lo", "hi", "lo"], categories=["lo", "hi"], ordered=True)), None),
    ],
)
def test_as_array_pandas_extension_dtypes(series, expected_kind):
    got = as_array(series, "y")
    assert got.tolist() == series.tolist()
    if expected_kind is not None:
        assert got.dtype.kind == expected_kind


def test_as_array_polars_categorical_and_enum():
    s = pl.Series(["b", "a", "b"], dtype=pl.Categorical)
    assert as_array(s, "y").tolist() == ["b", "a", "b"]
    e = pl.Series(["lo", "hi"], dtype=pl.Enum(["lo", "hi"]))
    assert as_array(e, "y").tolist() == ["lo", "hi"]


def test_as_array_dataframes_and_sparse():
    df = pd.DataFrame({"a": [1, 0], "b": [0, 1]})
    assert as_array(df, "y").tolist() == [[1, 0], [0, 1]]
    assert as_array(pl.DataFrame({"a": [1, 0], "b": [0, 1]}), "y").tolist() == [[1, 0], [0, 1]]
    assert as_array(sp.csr_matrix(np.eye(2, dtype=int)), "y").tolist() == [[1, 0], [0, 1]]
    nullable = as_array(pd.DataFrame({"a": [1, 0], "b": [0, 1]}, dtype="Int64"), "y")
    assert nullable.dtype == np.int64 and nullable.tolist() == [[1, 0], [0, 1]]
    assert as_array(pd.DataFrame({"a": [True, False]}, dtype="boolean"), "y").dtype == bool
    with pytest.raises(ValueError, match=r"1 missing value.*position \(1, 1\)"):
        as_array(pd.DataFrame({"a": [1, 0], "b": [0, None]}, dtype="Int64"), "y")
    with pytest.raises(ValueError, match=r"1 missing value.*position \(1, 1\)"):
        as_array(pl.DataFrame({"a": [1, 0], "b": [0, None]}), "y")


def test_as_array_object_booleans_become_bool():
    assert as_array(np.array([True, False], dtype=object), "y").dtype == bool
    assert as_array(np.array([1, 0], dtype=object), "y").dtype == object


@pytest.mark.parametrize(
    "values, count, first",
    [
        (np.array([1.0, np.nan, 2.0, np.nan]), 2, "1"),
        (np.array(["a", None, "b"], dtype=object), 1, "1"),
        (np.array([1, 2, float("nan")], dtype=object), 1, "2"),
        ([None, "a"], 1, "0"),
        (pd.Series([1, None, 3], dtype="Int64"), 1, "1"),
        (pd.Series(["a", "b", None, None], dtype="string"), 2, "2"),
        (pd.Series(["a", None], dtype="category"), 1, "1"),
        (pd.Series([True, None], dtype="boolean"), 1, "1"),
        (pd.Series([1.0, np.nan]), 1, "1"),
        (pl.Series([1, None, None]), 2, "1"),
        (pl.Series(["a", None]), 1, "1"),
        (pa.array([None, 1, 2]), 1, "0"),
        (pa.chunked_array([[1, 2], [None, 4]]), 1, "2"),
        (np.array([[0.0, 1.0], [np.nan, 0.0]]), 1, r"\(1, 0\)"),
        # object columns: the dataframe library's own null check stands for clfeval's scan
        (pd.Series(["a", float("nan"), "b"], dtype=object), 1, "1"),
        (pd.Series(["a", "b", pd.NA], dtype=object), 1, "2"),
        (pd.DataFrame({"a": ["x", "y"], "b": ["z", None]}), 1, r"\(1, 1\)"),
        (pa.chunked_array([["a"], [None, "b"]]), 1, "1"),
        # ... except polars' Object columns, which hold Python objects: a NaN there is not null
        (pl.Series(["a", float("nan")], dtype=pl.Object), 1, "1"),
        (pl.DataFrame({"a": pl.Series([float("nan"), "a"], dtype=pl.Object)}), 1, r"\(0, 0\)"),
    ],
)
def test_missing_values_are_named(values, count, first):
    with pytest.raises(ValueError, match=rf"y_true contains {count} missing value\(s\).*first is at position {first}(?!\d)"):
        as_array(values, "y_true")


def test_missing_position_is_positional_not_the_index_label():
    s = pd.Series([1, 2, None], index=[10, 20, 30], dtype="Int64")
    with pytest.raises(ValueError, match=r"1 missing value\(s\).*position 2\."):
        as_array(s, "y_pred")
    assert as_array(pd.Series([3, 4], index=[7, 5]), "y").tolist() == [3, 4]


def test_as_array_rejects_scalars_and_none():
    for bad in (3, 2.5, "abc", b"ab", np.int64(1)):
        with pytest.raises(TypeError, match="y_pred must be an array-like"):
            as_array(bad, "y_pred")
    with pytest.raises(TypeError, match="y_pred is None"):
        as_array(None, "y_pred")


def test_as_array_ragged():
    with pytest.raises(ValueError, match="y_true could not be read as an array"):
        as_array([[1, 2], [1]], "y_true")


# --------------------------------------------------------------------------------------------
# as_score_array
# --------------------------------------------------------------------------------------------
def test_as_score_array():
    assert as_score_array([0, 1]).dtype == np.float64
    assert as_score_array(np.array([0.5], dtype=np.float32)).dtype == np.float32
    assert as_score_array(pd.Series([0.1, 0.2], dtype="Float64")).tolist() == [0.1, 0.2]
    assert as_score_array([[0.1, 0.9]]).shape == (1, 2)
    with pytest.raises(TypeError, match="must be numeric"):
        as_score_array(["a", "b"])
    with pytest.raises(ValueError, match="1 infinite value.*position 1"):
        as_score_array([0.1, np.inf])
    with pytest.raises(ValueError, match="missing value"):
        as_score_array([0.1, np.nan])
    with pytest.raises(ValueError, match="1-D or 2-D"):
        as_score_array(np.zeros((2, 2, 2)))


# --------------------------------------------------------------------------------------------
# lengths and weights
# --------------------------------------------------------------------------------------------
def test_check_consistent_length():
    assert check_consistent_length(y_true=[1, 2, 3], y_pred=[1, 2, 3], sample_weight=None) == 3
    assert check_consistent_length() == 0
    with pytest.raises(ValueError, match="y_true has 3, y_pred has 2"):
        check_consistent_length(y_true=[1, 2, 3], y_pred=[1, 2])


def test_check_sample_weight_dtypes():
    assert check_sample_weight(None, 3) is None
    w = check_sample_weight([1, 2, 0], 3)
    assert w.dtype == np.int64 and w.tolist() == [1, 2, 0]
    assert check_sample_weight(np.array([True, False]), 2).dtype == np.int64
    assert check_sample_weight(np.array([1, 2], dtype=np.uint8), 2).dtype == np.int64
    assert check_sample_weight([0.5, 1.0], 2).dtype == np.float64
    assert check_sample_weight(np.array([0.5], dtype=np.float32), 1).dtype == np.float64
    assert check_sample_weight(pd.Series([1.5, 2.0]), 2).tolist() == [1.5, 2.0]
    assert check_sample_weight(np.array([[1.0], [2.0]]), 2).tolist() == [1.0, 2.0]
    assert check_sample_weight([0, 0], 2).tolist() == [0, 0]  # allowed by default


@pytest.mark.parametrize(
    "weights, n, exc, pattern",
    [
        ([1.0, -0.5, 2.0], 3, ValueError, r"negative values; the first is at position 1"),
        ([1, -1], 2, ValueError, r"negative"),
        ([1.0, np.inf], 2, ValueError, r"1 non-finite value\(s\); the first is at position 1"),
        ([1.0, np.nan], 2, ValueError, r"sample_weight contains 1 missing value"),
        ([1.0, 2.0], 3, ValueError, r"sample_weight has 2 samples but the targets have 3"),
        (np.ones((3, 2)), 3, ValueError, r"sample_weight must be 1-D"),
        (["a", "b"], 2, TypeError, r"sample_weight must be numeric"),
        (2.0, 1, TypeError, r"sample_weight must be an array-like"),
    ],
)
def test_check_sample_weight_rejects(weights, n, exc, pattern):
    with pytest.raises(exc, match=pattern):
        check_sample_weight(weights, n)


def test_check_sample_weight_all_zero():
    with pytest.raises(ValueError, match="sample_weight is zero for all 3 samples"):
        check_sample_weight([0.0, 0.0, 0.0], 3, allow_all_zero=False)
    assert check_sample_weight([0.0, 1.0], 2, allow_all_zero=False).tolist() == [0.0, 1.0]


# --------------------------------------------------------------------------------------------
# target kinds
# --------------------------------------------------------------------------------------------
TARGETS = [
    [0, 1, 1],
    [1, 1, 1],
    [0, 1, 2],
    [-1, 1],
    ["a", "b"],
    ["a", "b", "c"],
    [True, False],
    [0.0, 1.0, 2.0],
    [0.5, 1.0],
    [[0, 1], [1, 1]],
    [[1, 0, 0]],
    [[1], [0]],
    [[1, 2], [3, 0]],
    [[0.5, 1.0], [0.0, 1.0]],
    [[True, False], [False, False]],
    np.array([[1.0, 0.0], [0.0, 1.0]]),
]


@pytest.mark.parametrize("y", TARGETS, ids=str)
def test_target_kind_matches_type_of_target(y):
    arr = np.asarray(y)
    assert target_kind(arr, "y")[0] == type_of_target(arr)


@st.composite
def _small_targets(draw: st.DrawFn) -> np.ndarray:
    dtype = draw(st.sampled_from([np.int64, np.uint8, np.float64, np.bool_]))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=5))
    if dtype is np.bool_:
        elements = st.booleans()
    elif dtype is np.float64:
        elements = st.sampled_from([0.0, 1.0, 2.0, 0.5, -1.0])
    else:
        elements = st.integers(0, 3)
    return draw(hnp.arrays(dtype, shape, elements=elements))


@given(_small_targets())
def test_target_kind_matches_type_of_target_hypothesis(y):
    expected = type_of_target(y)
    if expected == "multilabel-indicator" and not np.isin(y, [0, 1]).all():
        # Deliberate: sklearn reads any 2-column integer array with at most two distinct values
        # (e.g. +-1 coding) as an indicator matrix and counts every nonzero as positive.
        # clfeval takes only 0/1 matrices as indicators and rejects the rest with a clear error.
        expected = "multiclass-multioutput"
    assert target_kind(y, "y")[0] == expected


def test_target_kind_labels_and_errors():
    kind, labels = target_kind(np.array([3, 1, 3]), "y")
    assert (kind, labels.tolist()) == ("binary", [1, 3])
    kind, cols = target_kind(np.array([[0, 1, 0], [1, 1, 0]]), "y")
    assert (kind, cols.tolist()) == ("multilabel-indicator", [0, 1, 2])
    with pytest.raises(ValueError, match="got shape"):
        target_kind(np.zeros((2, 2, 2)), "y")
    with pytest.raises(ValueError, match="no columns"):
        target_kind(np.zeros((2, 0)), "y")
    # clfeval reads object arrays of numbers as labels (sklearn calls them 'unknown')
    assert target_kind(np.array([1, 2, 1], dtype=object), "y")[0] == "binary"
    assert target_kind(np.array([(1,), (2,)] + [None], dtype=object)[:2], "y")[0] == "unknown"


# --------------------------------------------------------------------------------------------
# label sets
# --------------------------------------------------------------------------------------------
@given(
    hnp.arrays(
        st.sampled_from([np.int8, np.int16, np.int64, np.uint8, np.uint64]),
        st.integers(0, 40),
        elements=st.integers(0, 120),
    ),
    st.integers(-100, 100),
)
def test_unique_sorted_integers(y, shift):
    if y.dtype.kind == "i" and y.size:
        y = (y.astype(np.int64) + shift).clip(np.iinfo(y.dtype).min, np.iinfo(y.dtype).max).astype(y.dtype)
    got = unique_sorted(y)
    assert got.dtype == y.dtype
    assert got.tolist() == np.unique(y).tolist()


def test_unique_sorted_other_kinds():
    assert unique_sorted(np.array([2**40, -(2**40), 2**40])).tolist() == [-(2**40), 2**40]  # sparse span
    assert unique_sorted(np.array(["b", "a", "b"])).tolist() == ["a", "b"]
    assert unique_sorted(np.array(["b", "a"], dtype=object)).tolist() == ["a", "b"]
    assert unique_sorted(np.array([True, True])).tolist() == [True]
    assert unique_sorted(np.array([2.0, 1.0, 2.0])).tolist() == [1.0, 2.0]
    assert unique_sorted(np.array([], dtype=np.int64)).tolist() == []
    with pytest.raises((TypeError, ValueError), match="Mix of label input types|cannot be ordered"):
        unique_sorted(np.array(["a", 1], dtype=object), "y_true")


def test_union_labels():
    assert union_labels(np.array([1, 3]), np.array([2])).tolist() == [1, 2, 3]
    assert union_labels(np.array(["b"]), np.array(["a", "b"])).tolist() == ["a", "b"]
    assert union_labels(np.array([1]), np.array([], dtype=np.int64)).tolist() == [1]
    assert union_labels(np.array([], dtype=np.int64)).tolist() == []
    with pytest.raises(ValueError, match=r"Mix of label input types \(string and number\) \(y_true vs y_pred\)"):
        union_labels(np.array([1, 2]), np.array(["a"]), names=("y_true", "y_pred"))
    with pytest.raises(ValueError, match="Mix of label input types"):
        union_labels(np.array([1, 2], dtype=object), np.array(["a"], dtype=object))


@given(data=st.data(), dtype=st.sampled_from(LABEL_DTYPES))
def test_encode_matches_dictionary_lookup(data, dtype):
    pool = label_pool(dtype, 5 if dtype != "bool" else 2)
    y = np.array(data.draw(st.lists(st.sampled_from(list(pool)), min_size=0, max_size=20)), dtype=pool.dtype)
    classes = np.array(
        data.draw(st.lists(st.sampled_from(list(pool)), unique=True, max_size=len(pool))), dtype=pool.dtype
    )
    lookup = {v: i for i, v in enumerate(classes.tolist())}
    got = encode(y, classes)
    assert got.dtype == np.intp and got.shape == y.shape
    assert got.tolist() == [lookup.get(v, -1) for v in y.tolist()]


def test_encode_edge_cases():
    assert encode(np.array([0, 1, 2]), np.arange(3)).tolist() == [0, 1, 2]  # identity shortcut
    assert encode(np.array([5, -3]), np.array([-3, 5, 7])).tolist() == [1, 0]
    assert encode(np.array([250], dtype=np.uint8), np.array([-3, 250])).tolist() == [1]
    assert encode(np.array([True, False]), np.array([False])).tolist() == [-1, 0]
    assert encode(np.array([1, 2]), np.array([1.0, 2.5])).tolist() == [0, -1]
    assert encode(np.array([2**40, 3]), np.array([3, 2**40])).tolist() == [1, 0]
    # a number is never equal to a string: absent, not an error
    assert encode(np.array([1, 2]), np.array(["1", "a"])).tolist() == [-1, -1]
    assert encode(np.array(["a"]), np.array([0, 1])).tolist() == [-1]
    assert encode(np.array([1]), np.array([], dtype=np.int64)).tolist() == [-1]
    assert encode(np.array([], dtype=np.int64), np.array([1])).tolist() == []


# --------------------------------------------------------------------------------------------
# pairs of targets
# --------------------------------------------------------------------------------------------
@given(pair=label_pairs())
def test_check_classification_targets_labels(pair):
    yt, yp, pool = pair
    t = check_classification_targets(yt, yp)
    expected = sorted(set(yt.tolist()) | set(yp.tolist()))
    assert t.labels.tolist() == expected
    assert t.true_labels.tolist() == sorted(set(yt.tolist()))
    assert t.pred_labels.tolist() == sorted(set(yp.tolist()))
    assert t.kind == ("multiclass" if len(expected) > 2 else "binary")


def test_check_classification_targets_errors():
    with pytest.raises(ValueError, match=r"y_pred contains continuous values \(e.g. 0.7 at position 1\).*probabilities"):
        check_classification_targets([0, 1, 1], [1.0, 0.7, 0.9])
    with pytest.raises(ValueError, match=r"y_score >= 0.5.*argmax"):
        check_classification_targets([0.5, 1.0], [0, 1])
    with pytest.raises(ValueError, match="mix of multilabel-indicator .*and binary"):
        check_classification_targets([[0, 1], [1, 1]], [0, 1])
    with pytest.raises(ValueError, match="Multilabel y_true has 2 columns but y_pred has 3"):
        check_classification_targets([[0, 1]], [[0, 1, 1]])
    with pytest.raises(ValueError, match=r"multiclass-multioutput .*0/1 indicator matrix .*values \[0, 1, 2\]"):
        check_classification_targets([[0, 2], [1, 1]], [[0, 2], [1, 1]])
    with pytest.raises(ValueError, match=r"0/1 indicator matrix .*values \[-1, 1\]"):
        check_classification_targets([[-1, 1], [1, -1]], [[-1, 1], [1, 1]])
    with pytest.raises(ValueError, match="empty input"):
        check_classification_targets([], [])
    with pytest.raises(ValueError, match="inconsistent numbers of samples: y_true has 2, y_pred has 3"):
        check_classification_targets([0, 1], [0, 1, 1])
    with pytest.raises(TypeError, match="not scalars"):
        check_classification_targets(np.array(1), np.array(1))
    with pytest.raises(ValueError, match=r"Mix of label input types .*y_true vs y_pred"):
        check_classification_targets([1, 2], ["a", "b"])
    with pytest.raises(ValueError, match="Mix of label input types"):
        check_classification_targets(np.array(["a", 1], dtype=object), np.array(["a", "a"], dtype=object))
