"""Regressions for the drop-in bugs that scikit-learn's own metric tests found (scikit-learn as oracle).

See ``scripts/run_sklearn_metrics_suite.py`` and ``notes/sklearn_suite.md``: each test here names the
scikit-learn test that failed against clfeval before the fix.
"""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

import clfeval.metrics as cm

LABEL_FUNCS = ["accuracy_score", "f1_score", "confusion_matrix", "matthews_corrcoef", "hamming_loss"]
CURVE_FUNCS = ["roc_curve", "precision_recall_curve", "det_curve", "roc_auc_score", "average_precision_score"]


def same_error(name, *args, **kwargs):
    """Call clfeval's and scikit-learn's ``name``; both raise, with the same class; return clfeval's."""
    with pytest.raises(Exception) as theirs:
        getattr(skm, name)(*args, **kwargs)
    with pytest.raises(Exception) as ours:
        getattr(cm, name)(*args, **kwargs)
    assert type(ours.value).__mro__[:-3] == type(theirs.value).__mro__[:-3] or isinstance(ours.value, theirs.type)
    return ours.value


# test_ranking.py::test_confusion_matrix_at_thresholds_implicit_bytes_pos_label: labels held as bytes are
# refused with a TypeError (clfeval raised a ValueError about pos_label for the curves, and accepted
# them in the label metrics).
@pytest.mark.parametrize("container", ["list", "array", "object"])
@pytest.mark.parametrize("name", CURVE_FUNCS)
def test_bytes_labels_are_a_type_error_in_curves(name, container):
    labels = [b"a", b"b", b"a"]
    y = labels if container == "list" else np.array(labels, dtype=object if container == "object" else None)
    err = same_error(name, y, [0.0, 1.0, 0.5])
    assert isinstance(err, TypeError) and "bytes" in str(err)


@pytest.mark.parametrize("name", LABEL_FUNCS)
def test_bytes_labels_are_a_type_error_in_label_metrics(name):
    err = same_error(name, [b"a", b"b", b"b"], [b"a", b"a", b"b"])
    assert isinstance(err, TypeError)


# test_classification.py::test_confusion_matrix_dtype: weights held as objects (or numeric text) are
# numbers (float64), as scikit-learn converts them; clfeval raised a TypeError.
@given(st.lists(st.sampled_from([0, 1, 2]), min_size=1, max_size=12).flatmap(
    lambda y: st.tuples(st.just(y), st.lists(st.sampled_from([0, 1, 2]), min_size=len(y), max_size=len(y)),
                        st.lists(st.integers(0, 5), min_size=len(y), max_size=len(y)))))
def test_object_weights_are_floats(case):
    y_true, y_pred, weights = case
    weights[0] = weights[0] or 1  # all-zero weights are an error in both
    for w in (np.array(weights, dtype=object), np.array([str(v) for v in weights])):
        ours = cm.confusion_matrix(y_true, y_pred, labels=[0, 1, 2], sample_weight=w)
        theirs = skm.confusion_matrix(y_true, y_pred, labels=[0, 1, 2], sample_weight=w)
        assert ours.dtype == theirs.dtype == np.float64
        np.testing.assert_array_equal(ours, theirs)
    # (scikit-learn's f1_score itself fails on object weights inside numpy's bincount: float ones there)
    ours = cm.f1_score(y_true, y_pred, average="macro", sample_weight=np.array(weights, dtype=object),
                       zero_division=0.0)
    theirs = skm.f1_score(y_true, y_pred, average="macro", sample_weight=np.array(weights, dtype=float),
                          zero_division=0.0)
    assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.uint64, np.float32, np.float64, object])
def test_confusion_matrix_dtype_follows_the_weights(dtype):
    y = [0, 1, 1]
    w = np.ones(3).astype(dtype)
    assert cm.confusion_matrix(y, y, sample_weight=w).dtype == skm.confusion_matrix(y, y, sample_weight=w).dtype


def test_non_numeric_text_weights_still_refused():
    with pytest.raises(TypeError, match="sample_weight must be numeric"):
        cm.confusion_matrix([0, 1], [0, 1], sample_weight=np.array(["a", "b"], dtype=object))


# test_common.py::test_classification_with_invalid_sample_weight: complex weights are a ValueError
# ("Complex data not supported"), as in scikit-learn; clfeval raised a TypeError.
@pytest.mark.parametrize("name", ["accuracy_score", "confusion_matrix", "f1_score", "roc_auc_score", "log_loss"])
def test_complex_weights_are_a_value_error(name):
    y_true = [0, 1, 1]
    second = [0, 1, 0] if name in ("accuracy_score", "confusion_matrix", "f1_score") else [0.2, 0.7, 0.4]
    err = same_error(name, y_true, second, sample_weight=np.array([1 + 2j, 3 + 4j, 5 + 7j]))
    assert isinstance(err, ValueError) and "Complex data not supported" in str(err)
