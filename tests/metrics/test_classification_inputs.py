"""Input containers (lists, numpy, pandas, polars, pyarrow) and bad input for the label metrics."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

from clfeval import metrics as cm
from conftest import assert_close, assert_same_outcome, label_pairs, sample_weights

pytestmark = [
    pytest.mark.filterwarnings("ignore:A single label was found:UserWarning"),
    pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning"),
]

Y_TRUE = ["cat", "dog", "cat", "bird", "dog", "cat", "bird", "cat"]
Y_PRED = ["cat", "cat", "cat", "bird", "dog", "dog", "cat", "cat"]
WEIGHTS = [1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 0.0, 2.0]

# (function name, kwargs): every label metric, on a three-class task
CALLS = [
    ("confusion_matrix", {}),
    ("confusion_matrix", {"labels": ["dog", "cat", "bird"], "normalize": "true"}),
    ("multilabel_confusion_matrix", {}),
    ("accuracy_score", {}),
    ("error_rate", {}),
    ("balanced_accuracy_score", {"adjusted": True}),
    ("precision_recall_fscore_support", {"average": None}),
    ("precision_score", {"average": "macro"}),
    ("recall_score", {"average": "weighted"}),
    ("f1_score", {"average": "micro"}),
    ("fbeta_score", {"beta": 2.0, "average": None}),
    ("specificity_score", {"average": None}),
    ("npv_score", {"average": "macro"}),
    ("fallout_score", {"average": None}),
    ("jaccard_score", {"average": None, "labels": ["dog", "cat"]}),
    ("classification_report", {}),
    ("classification_report", {"output_dict": True}),
    ("matthews_corrcoef", {}),
    ("cohen_kappa_score", {"weights": "quadratic"}),
    ("hamming_loss", {}),
    ("zero_one_loss", {"normalize": False}),
]


def _call(name: str, kwargs: dict, yt, yp, w=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(cm, name)(yt, yp, sample_weight=w, **kwargs)


# --------------------------------------------------------------------------------------------
# containers
# --------------------------------------------------------------------------------------------
STRING_CONTAINERS = {
    "list": list,
    "tuple": tuple,
    "numpy": np.array,
    "numpy_object": lambda v: np.array(v, dtype=object),
    "pandas": pd.Series,
    "pandas_category": lambda v: pd.Series(v, dtype="category"),
    "pandas_category_unused": lambda v: pd.Series(pd.Categorical(v, categories=["zebra", "bird", "dog", "cat"])),
    "pandas_string": lambda v: pd.Series(v, dtype="string"),
    "pandas_string_pyarrow": lambda v: pd.Series(v, dtype="string[pyarrow]"),
    "polars": pl.Series,
    "polars_categorical": lambda v: pl.Series(v, dtype=pl.Categorical),
    "polars_enum": lambda v: pl.Series(v, dtype=pl.Enum(["dog", "cat", "bird"])),
    "arrow": pa.array,
    "arrow_large_string": lambda v: pa.array(v, type=pa.large_string()),
    "arrow_chunked": lambda v: pa.chunked_array([v[:3], v[3:]]),
    "arrow_dictionary": lambda v: pa.array(v).dictionary_encode(),
}


@pytest.mark.parametrize("container", STRING_CONTAINERS)
@pytest.mark.parametrize("name, kwargs", CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CALLS)])
def test_string_labels_any_container(container, name, kwargs):
    wrap = STRING_CONTAINERS[container]
    expected = _call(name, kwargs, np.array(Y_TRUE), np.array(Y_PRED), np.array(WEIGHTS))
    got = _call(name, kwargs, wrap(Y_TRUE), wrap(Y_PRED), WEIGHTS)
    assert_close(got, expected, what=f"{name} on {container}")


INT_TRUE = [2, 0, 2, 2, 0, 1, 1, 2]
INT_PRED = [0, 0, 2, 1, 0, 2, 1, 0]
INT_CONTAINERS = {
    "list": list,
    "numpy_int32": lambda v: np.array(v, dtype=np.int32),
    "numpy_uint8": lambda v: np.array(v, dtype=np.uint8),
    "numpy_float": lambda v: np.array(v, dtype=np.float64),
    "numpy_object": lambda v: np.array(v, dtype=object),
    "column_vector": lambda v: np.array(v).reshape(-1, 1),
    "pandas": pd.Series,
    "pandas_Int64": lambda v: pd.Series(v, dtype="Int64"),
    "pandas_UInt8": lambda v: pd.Series(v, dtype="UInt8"),
    "pandas_category": lambda v: pd.Series(v, dtype="category"),
    "pandas_arrow_int": lambda v: pd.Series(v, dtype="int64[pyarrow]"),
    "polars": pl.Series,
    "polars_int8": lambda v: pl.Series(v, dtype=pl.Int8),
    "arrow": pa.array,
    "arrow_chunked": lambda v: pa.chunked_array([v[:5], v[5:]]),
}


@pytest.mark.parametrize("container", INT_CONTAINERS)
@pytest.mark.parametrize("name", ["confusion_matrix", "precision_recall_fscore_support", "cohen_kappa_score",
                                  "classification_report", "matthews_corrcoef", "balanced_accuracy_score"])
def test_integer_labels_any_container(container, name):
    wrap = INT_CONTAINERS[container]
    dtype = float if container == "numpy_float" else int  # float labels print as 0.0 in reports
    yt, yp = np.array(INT_TRUE, dtype=dtype), np.array(INT_PRED, dtype=dtype)
    got = _call(name, {}, wrap(INT_TRUE), wrap(INT_PRED))
    assert_close(got, _call(name, {}, yt, yp), what=f"{name} on {container}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_close(got, getattr(skm, name)(yt, yp), what=f"{name} vs sklearn")


BOOL_TRUE = [True, False, True, True, False, False]
BOOL_PRED = [True, True, False, True, False, False]


@pytest.mark.parametrize(
    "wrap",
    [list, np.array, lambda v: np.array(v, dtype=object), pd.Series, lambda v: pd.Series(v, dtype="boolean"),
     pl.Series, pa.array],
    ids=["list", "numpy", "numpy_object", "pandas", "pandas_boolean", "polars", "arrow"],
)
def test_boolean_labels_any_container(wrap):
    yt, yp = wrap(BOOL_TRUE), wrap(BOOL_PRED)
    assert cm.confusion_matrix(yt, yp).tolist() == [[2, 1], [1, 2]]
    assert cm.f1_score(yt, yp) == pytest.approx(2 / 3, abs=1e-15)  # pos_label=1 == True
    assert cm.specificity_score(yt, yp) == pytest.approx(2 / 3, abs=1e-15)
    assert cm.precision_score(yt, yp, pos_label=False) == pytest.approx(2 / 3, abs=1e-15)
    assert cm.class_likelihood_ratios(yt, yp) == pytest.approx((2.0, 0.5), abs=1e-15)


@pytest.mark.parametrize(
    "wrap",
    [np.array, lambda v: pd.DataFrame(v), lambda v: pd.DataFrame(v, dtype="Int64"),
     lambda v: pd.DataFrame(v).astype(bool), lambda v: pl.DataFrame(np.array(v)), lambda v: np.array(v, dtype=float)],
    ids=["numpy", "pandas", "pandas_Int64", "pandas_bool", "polars", "numpy_float"],
)
def test_multilabel_any_container(wrap):
    yt = [[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 0]]
    yp = [[1, 0, 0], [0, 1, 1], [1, 0, 0], [0, 0, 1]]
    for name, kwargs in [("multilabel_confusion_matrix", {}), ("f1_score", {"average": "samples"}),
                         ("precision_recall_fscore_support", {"average": None}), ("hamming_loss", {}),
                         ("accuracy_score", {}), ("classification_report", {"output_dict": True}),
                         ("jaccard_score", {"average": "macro"})]:
        expected = getattr(skm, name)(np.array(yt), np.array(yp), **kwargs)
        got = _call(name, kwargs, wrap(yt), wrap(yp))
        assert_close(got, expected, what=name)


@pytest.mark.parametrize(
    "wrap",
    [list, np.array, pd.Series, lambda v: pd.Series(v, dtype="Float64"), pl.Series, pa.array,
     lambda v: pa.chunked_array([v[:2], v[2:]])],
    ids=["list", "numpy", "pandas", "pandas_Float64", "polars", "arrow", "arrow_chunked"],
)
def test_sample_weight_any_container(wrap):
    expected = _call("precision_recall_fscore_support", {}, np.array(Y_TRUE), np.array(Y_PRED), np.array(WEIGHTS))
    got = _call("precision_recall_fscore_support", {}, Y_TRUE, Y_PRED, wrap(WEIGHTS))
    assert_close(got, expected)


@given(pair=label_pairs(dtypes=("int", "str", "negint")), data=st.data())
def test_pandas_and_polars_agree_with_numpy(pair, data):
    yt, yp, _ = pair
    w = data.draw(sample_weights(len(yt), allow_bool=True))
    if w is not None and not w.any():
        return
    for name, kwargs in [("confusion_matrix", {}), ("f1_score", {"average": "macro"}),
                         ("classification_report", {"output_dict": True}), ("cohen_kappa_score", {})]:
        expected = _call(name, kwargs, yt, yp, w)
        for wrap in (pd.Series, lambda v: pd.Series(v, dtype="category"), pl.Series, pa.array):
            assert_close(_call(name, kwargs, wrap(yt), wrap(yp), w), expected, what=name)


def test_object_numbers_equal_numeric_arrays():
    """Deliberate extension: sklearn calls object arrays of numbers 'unknown' and refuses them."""
    yt, yp = np.array(INT_TRUE, dtype=object), np.array(INT_PRED, dtype=object)
    assert cm.confusion_matrix(yt, yp).tolist() == skm.confusion_matrix(INT_TRUE, INT_PRED).tolist()
    assert cm.f1_score(yt, yp, average="macro") == skm.f1_score(INT_TRUE, INT_PRED, average="macro")
    with pytest.raises(ValueError, match="unknown"):
        skm.f1_score(yt, yp, average="macro")


def test_boolean_weights_count_as_integers():
    """Deliberate: sklearn's accuracy_score(normalize=False) sums boolean weights with a logical
    dot product (two True weights give 1); clfeval counts them as 0/1."""
    w = np.array([False, True, True])
    assert cm.accuracy_score([0, 0, 0], [0, 0, 0], normalize=False, sample_weight=w) == 2.0
    assert skm.accuracy_score([0, 0, 0], [0, 0, 0], normalize=False, sample_weight=w) == 1.0
    for name in ("confusion_matrix", "precision_recall_fscore_support", "classification_report"):
        assert_close(_call(name, {}, INT_TRUE, INT_PRED, np.arange(8) % 2 == 0),
                     _call(name, {}, INT_TRUE, INT_PRED, (np.arange(8) % 2 == 0).astype(int)))


@given(pair=label_pairs(), data=st.data())
def test_float32_weights(pair, data):
    """clfeval sums float32 weights in float64: it equals its own float64 result exactly, and
    sklearn (which sums in float32) up to float32 rounding."""
    yt, yp, _ = pair
    w32 = np.array(data.draw(st.lists(st.sampled_from([0.1, 0.7, 1.0, 3.3]), min_size=len(yt), max_size=len(yt))),
                   dtype=np.float32)
    for name in ("confusion_matrix", "accuracy_score", "matthews_corrcoef"):
        got = _call(name, {}, yt, yp, w32)
        assert_close(got, _call(name, {}, yt, yp, w32.astype(np.float64)), rtol=0, atol=0, what=name)
    np.testing.assert_allclose(cm.confusion_matrix(yt, yp, sample_weight=w32),
                               skm.confusion_matrix(np.array(yt.tolist()), np.array(yp.tolist()), sample_weight=w32),
                               rtol=1e-6, atol=1e-6)


# --------------------------------------------------------------------------------------------
# bad input: a clear error, and an error wherever sklearn raises one
# --------------------------------------------------------------------------------------------
LABEL_FUNCS = [
    "confusion_matrix", "multilabel_confusion_matrix", "accuracy_score", "error_rate", "balanced_accuracy_score",
    "precision_recall_fscore_support", "precision_score", "recall_score", "f1_score", "specificity_score",
    "npv_score", "fallout_score", "jaccard_score", "classification_report", "matthews_corrcoef",
    "cohen_kappa_score", "hamming_loss", "zero_one_loss", "class_likelihood_ratios",
]
SK_FUNCS = [n for n in LABEL_FUNCS if hasattr(skm, n)]


def _raises(name: str, exc, match: str, *args, **kwargs) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc, match=match):
            getattr(cm, name)(*args, **kwargs)


@pytest.mark.parametrize("name", LABEL_FUNCS)
def test_missing_values_name_count_and_position(name):
    pos = r"2 missing value\(s\).*first is at position 3"
    _raises(name, ValueError, pos, [0, 1, 1, np.nan, 0, np.nan], [0, 1, 1, 1, 0, 1])
    _raises(name, ValueError, "y_pred contains " + pos, [0, 1, 1, 1, 0, 1], [0, 1, 1, None, 0, None])
    _raises(name, ValueError, "y_true contains " + pos, pd.Series(["a", "b", "a", None, "b", None]), ["a"] * 6)
    _raises(name, ValueError, "y_true contains " + pos, pd.Series([0, 1, 1, None, 0, None], dtype="Int64"), [0] * 6)
    _raises(name, ValueError, "y_true contains " + pos, pd.Series([True, False, True, None, True, None], dtype="boolean"), [True] * 6)
    _raises(name, ValueError, "y_pred contains " + pos, [1] * 6, pl.Series([0, 1, 1, None, 0, None]))
    _raises(name, ValueError, "y_pred contains " + pos, [1] * 6, pa.array([0, 1, 1, None, 0, None]))


@pytest.mark.parametrize("name", LABEL_FUNCS)
def test_bad_shapes_and_lengths(name):
    _raises(name, ValueError, r"inconsistent numbers of samples: y_true has 3, y_pred has 2", [0, 1, 1], [0, 1])
    _raises(name, ValueError, "empty input", [], [])
    _raises(name, ValueError, r"got shape \(2, 2, 2\)", np.zeros((2, 2, 2), int), np.zeros((2, 2, 2), int))
    _raises(name, TypeError, "must be an array-like of samples, got a scalar 1", 1, 1)
    _raises(name, TypeError, "got a scalar 'ab'", "ab", "ab")


@pytest.mark.parametrize("name", LABEL_FUNCS)
def test_probabilities_as_labels(name):
    _raises(name, ValueError, r"y_pred contains continuous values \(e.g. 0.9 at position 0\).*probabilities"
            r".*y_score >= 0.5", [1, 0, 1], [0.9, 0.2, 0.6])
    _raises(name, ValueError, r"y_true contains continuous values", [0.5, 1.0], [0, 1])


@pytest.mark.parametrize("name", LABEL_FUNCS)
def test_mixed_label_types(name):
    _raises(name, ValueError, r"Mix of label input types \(string and number\)", [1, 2, 1], ["a", "b", "a"])
    _raises(name, ValueError, r"Mix of label input types", np.array([1, "a", 1], dtype=object), np.array(["a"] * 3, dtype=object))


@pytest.mark.parametrize("name", LABEL_FUNCS)
def test_bad_sample_weights(name):
    yt, yp = [0, 1, 1, 0], [0, 1, 0, 0]
    _raises(name, ValueError, r"negative values; the first is at position 2", yt, yp, sample_weight=[1, 1, -1, 1])
    _raises(name, ValueError, r"1 non-finite value\(s\); the first is at position 1", yt, yp, sample_weight=[1, np.inf, 1, 1])
    _raises(name, ValueError, r"sample_weight contains 1 missing value", yt, yp, sample_weight=[1, np.nan, 1, 1])
    _raises(name, ValueError, r"sample_weight has 3 samples but the targets have 4", yt, yp, sample_weight=[1, 1, 1])
    _raises(name, ValueError, r"sample_weight is zero for all 4 samples", yt, yp, sample_weight=[0, 0, 0, 0])
    _raises(name, TypeError, r"sample_weight must be numeric", yt, yp, sample_weight=["a"] * 4)


# inputs on which both libraries must raise (clfeval's class: ValueError or TypeError)
ERROR_CASES = [
    ([0, 1, 1], [0, 1]),
    ([], []),
    ([0, 1, np.nan], [0, 1, 1]),
    ([0, 1], [0.1, 0.9]),
    ([1, 2], ["a", "b"]),
    (np.eye(2), [0, 1]),
    (np.eye(2), np.eye(3)[:2]),
    ([[0, 2], [1, 1]], [[0, 2], [1, 1]]),
    (np.zeros((2, 2, 2)), np.zeros((2, 2, 2))),
]


@pytest.mark.parametrize("name", SK_FUNCS)
@pytest.mark.parametrize("case", range(len(ERROR_CASES)))
def test_errors_where_sklearn_raises(name, case):
    yt, yp = ERROR_CASES[case]
    assert_same_outcome(getattr(cm, name), getattr(skm, name), yt, yp)
    _raises(name, (ValueError, TypeError), "", yt, yp)


YT3, YP3 = [0, 1, 1, 0, 2], [0, 1, 0, 0, 2]
YB, PB = [0, 1, 1, 0], [0, 1, 0, 0]
ML = np.array([[1, 0, 1], [0, 1, 0]])
INVALID = [
    ("confusion_matrix", YT3, YP3, {"normalize": "rows"}),
    ("confusion_matrix", YT3, YP3, {"normalize": True}),
    ("confusion_matrix", YT3, YP3, {"labels": []}),
    ("confusion_matrix", YT3, YP3, {"labels": [7, 8]}),
    ("confusion_matrix", ["a", "b"], ["a", "b"], {"labels": [0, 1]}),
    ("multilabel_confusion_matrix", YT3, YP3, {"samplewise": "yes"}),
    ("multilabel_confusion_matrix", YT3, YP3, {"samplewise": True}),
    ("multilabel_confusion_matrix", ML, ML, {"labels": [3]}),
    ("multilabel_confusion_matrix", ML, ML, {"labels": [-1]}),
    ("accuracy_score", YT3, YP3, {"normalize": "yes"}),
    ("accuracy_score", YT3, YP3, {"normalize": 1}),
    ("accuracy_score", YT3, YP3, {"normalize": None}),
    ("zero_one_loss", YT3, YP3, {"normalize": "no"}),
    ("balanced_accuracy_score", YT3, YP3, {"adjusted": "yes"}),
    ("balanced_accuracy_score", ML, ML, {}),
    ("matthews_corrcoef", ML, ML, {}),
    ("cohen_kappa_score", ML, ML, {}),
    ("precision_recall_fscore_support", YT3, YP3, {"beta": -1}),
    ("precision_recall_fscore_support", YT3, YP3, {"beta": "a"}),
    ("precision_recall_fscore_support", YT3, YP3, {"beta": np.nan}),
    ("precision_recall_fscore_support", YT3, YP3, {"average": "mean"}),
    ("precision_recall_fscore_support", YT3, YP3, {"zero_division": 0.5}),
    ("precision_recall_fscore_support", YT3, YP3, {"zero_division": "nan"}),
    ("precision_recall_fscore_support", YT3, YP3, {"zero_division": None}),
    ("precision_recall_fscore_support", YT3, YP3, {"warn_for": "precision"}),
    ("precision_recall_fscore_support", YT3, YP3, {"pos_label": [1]}),
    ("precision_recall_fscore_support", YB, PB, {"average": "binary", "pos_label": 2}),
    ("precision_recall_fscore_support", YT3, YP3, {"average": "binary"}),
    ("precision_recall_fscore_support", YT3, YP3, {"average": "samples"}),
    ("precision_recall_fscore_support", ML, ML, {"average": "binary"}),
    ("precision_recall_fscore_support", ML, ML, {"labels": [5], "average": "macro"}),
    ("fbeta_score", YB, PB, {"beta": -0.5}),
    ("f1_score", ["a", "b"], ["a", "a"], {}),
    ("jaccard_score", YB, PB, {"zero_division": np.nan}),
    ("jaccard_score", YB, PB, {"zero_division": "nan"}),
    ("jaccard_score", YB, PB, {"zero_division": 0.5}),
    ("classification_report", YT3, YP3, {"digits": -1}),
    ("classification_report", YT3, YP3, {"digits": 2.0}),
    ("classification_report", YT3, YP3, {"output_dict": "yes"}),
    ("classification_report", YT3, YP3, {"zero_division": 0.5}),
    ("classification_report", YT3, YP3, {"target_names": ["a"]}),
    ("cohen_kappa_score", YT3, YP3, {"weights": "cubic"}),
    ("cohen_kappa_score", YT3, YP3, {"replace_undefined_by": 2.0}),
    ("cohen_kappa_score", YT3, YP3, {"replace_undefined_by": "x"}),
    ("cohen_kappa_score", YT3, YP3, {"labels": [7]}),
    ("cohen_kappa_score", YT3, YP3, {"labels": []}),
    ("class_likelihood_ratios", YB, PB, {"replace_undefined_by": 0.5}),
    ("class_likelihood_ratios", YB, PB, {"replace_undefined_by": {"LR+": 0.5, "LR-": 0.5}}),
    ("class_likelihood_ratios", YB, PB, {"replace_undefined_by": {"LR+": 2}}),
    ("class_likelihood_ratios", YB, PB, {"replace_undefined_by": {"LR+": 2, "LR-": 2}}),
    ("class_likelihood_ratios", YB, PB, {"labels": [0]}),
    ("class_likelihood_ratios", YB, PB, {"labels": [0, 1, 2]}),
    ("class_likelihood_ratios", YB, PB, {"labels": [5, 6]}),
    ("class_likelihood_ratios", YT3, YP3, {}),
    ("accuracy_score", YT3, YP3, {"sample_weight": 3}),
]


@pytest.mark.parametrize("name, yt, yp, kwargs", INVALID, ids=[f"{c[0]}-{i}" for i, c in enumerate(INVALID)])
def test_invalid_arguments_raise_like_sklearn(name, yt, yp, kwargs):
    sk_raised = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(skm, name)(yt, yp, **kwargs)
    except (ValueError, TypeError):
        sk_raised = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            getattr(cm, name)(yt, yp, **kwargs)
        except (ValueError, TypeError):
            ours_raised = True
        else:
            ours_raised = False
    assert ours_raised == sk_raised, f"sklearn raised: {sk_raised}, clfeval raised: {ours_raised}"


@pytest.mark.parametrize(
    "name, kwargs, pattern",
    [
        ("accuracy_score", {"normalize": "yes"}, "normalize must be True or False, got 'yes'"),
        ("balanced_accuracy_score", {"adjusted": 1}, "adjusted must be True or False"),
        ("confusion_matrix", {"normalize": "rows"}, "normalize must be one of"),
        ("f1_score", {"average": "mean"}, "average has to be one of"),
        ("f1_score", {"average": "macro", "zero_division": 0.5}, r"zero_division must be 'warn', 0.0, 1.0 or np.nan, got 0.5"),
        ("fbeta_score", {"beta": -1.0}, r"beta should be >= 0"),
        ("f1_score", {"average": "macro", "pos_label": [1, 2]}, r"pos_label must be a single label"),
        ("f1_score", {}, r"Target is multiclass but average='binary'"),
        ("confusion_matrix", {"labels": [7]}, r"At least one label specified must be in y_true: labels=\[7\], y_true has \[0, 1, 2\]"),
        ("classification_report", {"digits": -2}, "digits must be an integer >= 0"),
        ("classification_report", {"target_names": ["x"]}, "Number of classes, 3, does not match size of target_names, 1"),
        ("cohen_kappa_score", {"weights": "cubic"}, "weights must be None, 'linear' or 'quadratic'"),
        ("class_likelihood_ratios", {}, "only supports binary classification"),
    ],
)
def test_invalid_argument_messages(name, kwargs, pattern):
    _raises(name, (ValueError, TypeError), pattern, YT3, YP3, **kwargs)


def test_unseen_pos_label_message():
    _raises("precision_score", ValueError, r"pos_label='yes' is not a valid label. It should be one of \['a', 'b'\]",
            ["a", "b"], ["b", "b"], pos_label="yes")
    # a single class present: sklearn computes for the (absent) positive class; so does clfeval
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert cm.f1_score(["a", "a"], ["a", "a"]) == skm.f1_score(["a", "a"], ["a", "a"]) == 0.0


def test_multiclass_multioutput_message():
    _raises("accuracy_score", ValueError, r"0/1 indicator matrix", [[1, 2], [3, 1]], [[1, 2], [3, 1]])


def test_duplicate_labels_follow_sklearn():
    for labels in ([1, 1], [0, 1, 0], [2, 0, 2, 1]):
        assert_same_outcome(cm.confusion_matrix, skm.confusion_matrix, YT3, YP3, labels=labels)
        assert_same_outcome(cm.precision_recall_fscore_support, skm.precision_recall_fscore_support, YT3, YP3,
                            labels=labels, average=None)
        assert_same_outcome(cm.classification_report, skm.classification_report, YT3, YP3, labels=labels)


def test_labels_argument_not_modified():
    labels = np.array([0, 1, 0], dtype=np.intp)
    cm.confusion_matrix([0, 1, 2], [0, 2, 2], labels=labels)
    assert labels.tolist() == [0, 1, 0]


def test_empty_labels_follow_sklearn():
    for average in (None, "macro", "micro", "weighted"):
        assert_same_outcome(cm.precision_recall_fscore_support, skm.precision_recall_fscore_support, YT3, YP3,
                            labels=[], average=average)
    for average in ("samples", "macro", None):
        assert_same_outcome(cm.precision_recall_fscore_support, skm.precision_recall_fscore_support, ML, ML,
                            labels=[], average=average)
    assert_same_outcome(cm.multilabel_confusion_matrix, skm.multilabel_confusion_matrix, YT3, YP3, labels=[])
    assert_same_outcome(cm.multilabel_confusion_matrix, skm.multilabel_confusion_matrix, ML, ML, labels=[])


def test_two_dimensional_labels_rejected():
    """Deliberate: sklearn silently flattens a 2-D ``labels``; clfeval says what is wrong."""
    _raises("confusion_matrix", ValueError, r"'labels' must be 1-D, got shape \(1, 2\)", YT3, YP3, labels=[[0, 1]])


def test_negative_weights_rejected_unlike_sklearn():
    """Deliberate: sklearn accepts negative weights (and returns e.g. negative counts)."""
    assert skm.confusion_matrix([0, 1], [0, 1], sample_weight=[1, -1]).tolist() == [[1, 0], [0, -1]]
    _raises("confusion_matrix", ValueError, "negative", [0, 1], [0, 1], sample_weight=[1, -1])


def test_single_class_adjusted_balanced_accuracy():
    with pytest.warns(UserWarning):
        value = cm.balanced_accuracy_score([0, 0], [0, 1], adjusted=True)
    assert value == -math.inf
    with pytest.warns(UserWarning):
        assert math.isnan(cm.balanced_accuracy_score([0, 0], [0, 0], adjusted=True))
