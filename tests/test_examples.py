"""The built-in example data: the iris example and the two ``clfeval demo`` data sets.

The demo promise: in each demo the two models make the same hard predictions (same confusion
matrix at the default decision rule) but rank the samples differently (different ROC AUCs).
scikit-learn is the reference for the confusion matrices and AUCs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, roc_auc_score

from clfeval.inputs.examples import Demo, ModelPredictions, demo_kinds, load_demo, load_iris_example

ROOT = Path(__file__).resolve().parents[1]

#: (kind, n_samples, classes, pos_label, model names, AUC of model A, AUC of model B)
EXPECTED = {
    "binary": (
        569,
        ["benign", "malignant"],
        "malignant",
        ["logistic regression", "naive Bayes (2 features), remapped"],
        0.9953,
        0.9854,
    ),
    "multiclass": (
        1797,
        list(range(10)),
        None,
        ["logistic regression", "naive Bayes (4 quadrant features), remapped"],
        0.9991,
        0.9828,
    ),
}
#: the AUCs of the two models differ by at least this much
AUC_MARGIN = {"binary": 0.008, "multiclass": 0.01}


def _auc(demo: Demo, model: ModelPredictions) -> float:
    if demo.key == "binary":
        return roc_auc_score(demo.y_true == demo.pos_label, model.y_score)
    return roc_auc_score(demo.y_true, model.y_score, labels=demo.classes, multi_class="ovr", average="macro")


def _decide(demo: Demo, score: np.ndarray) -> np.ndarray:
    if demo.key == "binary":
        (neg,) = [c for c in demo.classes if c != demo.pos_label]
        return np.where(score >= 0.5, demo.pos_label, neg)
    return demo.classes[score.argmax(axis=1)]


@pytest.fixture(scope="module", params=["binary", "multiclass"])
def demo(request) -> Demo:
    return load_demo(request.param)


def test_iris_example_still_works():
    ex = load_iris_example()
    assert ex.y_true.shape == (150,) and ex.y_score.shape == (150, 3)
    assert set(ex.y_pred) <= set(ex.classes)


def test_demo_kinds():
    assert demo_kinds() == ("binary", "multiclass")
    assert load_demo().key == "binary"


def test_unknown_kind_lists_the_kinds():
    with pytest.raises(ValueError, match=r"'iris'.*'binary', 'multiclass'"):
        load_demo("iris")


def test_sizes_classes_and_names(demo):
    n, classes, pos_label, names, _, _ = EXPECTED[demo.key]
    assert demo.y_true.shape == (n,)
    assert demo.classes.tolist() == classes
    assert np.unique(demo.y_true).tolist() == classes
    assert demo.pos_label == pos_label
    assert list(demo.models) == names
    assert demo.title and demo.description
    k = len(classes)
    for name, model in demo.models.items():
        assert model.name == name
        assert model.y_pred.shape == (n,)
        assert model.y_score.shape == ((n,) if demo.key == "binary" else (n, k))
        assert set(model.y_pred.tolist()) <= set(classes)
        assert model.path.is_file() and model.path.name.startswith("demo_")
        assert model.path.stat().st_size < 200_000


def test_binary_counts():
    demo = load_demo("binary")
    assert (demo.y_true == "malignant").sum() == 212
    assert (demo.y_true == "benign").sum() == 357


def test_stored_predictions_follow_the_decision_rule(demo):
    for model in demo.models.values():
        np.testing.assert_array_equal(model.y_pred, _decide(demo, model.y_score))
        if demo.key == "multiclass":
            top2 = np.sort(model.y_score, axis=1)[:, -2:]
            assert (top2[:, 1] > top2[:, 0]).all(), "argmax must be unique"


def test_scores_are_probabilities(demo):
    for model in demo.models.values():
        assert np.isfinite(model.y_score).all()
        assert (model.y_score >= 0).all() and (model.y_score <= 1).all()
        if demo.key == "multiclass":
            np.testing.assert_allclose(model.y_score.sum(axis=1), 1.0, atol=1e-5)


def test_same_confusion_matrix(demo):
    a, b = demo.models.values()
    np.testing.assert_array_equal(a.y_pred, b.y_pred)
    cm_a = confusion_matrix(demo.y_true, a.y_pred, labels=demo.classes)
    cm_b = confusion_matrix(demo.y_true, b.y_pred, labels=demo.classes)
    np.testing.assert_array_equal(cm_a, cm_b)
    # and the models are not trivial: mistakes exist, but most predictions are right
    accuracy = np.trace(cm_a) / cm_a.sum()
    assert 0.9 < accuracy < 1.0


def test_different_roc_auc(demo):
    *_, auc_a, auc_b = EXPECTED[demo.key]
    a, b = demo.models.values()
    got_a, got_b = _auc(demo, a), _auc(demo, b)
    assert got_a == pytest.approx(auc_a, abs=5e-4)
    assert got_b == pytest.approx(auc_b, abs=5e-4)
    assert got_a - got_b > AUC_MARGIN[demo.key]


def test_binary_remap_keeps_scores_off_the_threshold():
    demo = load_demo("binary")
    for model in demo.models.values():
        assert not (model.y_score == 0.5).any()


@pytest.mark.slow
def test_script_reproduces_the_files(tmp_path):
    pytest.importorskip("sklearn")
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_demo_data.py"), "--out", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    for kind in demo_kinds():
        for model in load_demo(kind).models.values():
            assert (tmp_path / model.path.name).read_bytes() == model.path.read_bytes(), model.path.name
