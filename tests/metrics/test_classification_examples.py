"""Worked examples from classic tutorials, scikit-learn's docstrings and PyCM, reproduced exactly."""

from __future__ import annotations

import csv
import inspect
import math

import numpy as np
import pytest
import sklearn.metrics as skm

from clfeval import UndefinedMetricWarning
from clfeval import metrics as cm


# --------------------------------------------------------------------------------------------
# scikit-learn's docstring examples
# --------------------------------------------------------------------------------------------
def test_confusion_matrix_tutorial_example():
    assert cm.confusion_matrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2]).tolist() == [
        [2, 0, 0],
        [0, 0, 1],
        [1, 0, 2],
    ]


def test_confusion_matrix_cat_ant_bird():
    y_true = ["cat", "ant", "cat", "cat", "ant", "bird"]
    y_pred = ["ant", "ant", "cat", "cat", "ant", "cat"]
    got = cm.confusion_matrix(y_true, y_pred, labels=["ant", "bird", "cat"])
    assert got.tolist() == [[2, 0, 0], [0, 0, 1], [1, 0, 2]]
    assert got.dtype == np.int64
    # custom order permutes rows and columns together
    assert cm.confusion_matrix(y_true, y_pred, labels=["cat", "bird", "ant"]).tolist() == [
        [2, 0, 1],
        [1, 0, 0],
        [0, 0, 2],
    ]
    mcm = cm.multilabel_confusion_matrix(y_true, y_pred, labels=["ant", "bird", "cat"])
    assert mcm.tolist() == [[[3, 1], [0, 2]], [[5, 0], [1, 0]], [[2, 1], [1, 2]]]


def test_binary_ravel_example():
    tn, fp, fn, tp = cm.confusion_matrix([0, 1, 0, 1], [1, 1, 1, 0]).ravel().tolist()
    assert (tn, fp, fn, tp) == (0, 2, 1, 1)


def test_multilabel_confusion_matrix_indicator_example():
    y_true = np.array([[1, 0, 1], [0, 1, 0]])
    y_pred = np.array([[1, 0, 0], [0, 1, 1]])
    assert cm.multilabel_confusion_matrix(y_true, y_pred).tolist() == [
        [[1, 0], [0, 1]],
        [[1, 0], [0, 1]],
        [[0, 1], [1, 0]],
    ]
    # samplewise: one table per sample, over the three labels
    assert cm.multilabel_confusion_matrix(y_true, y_pred, samplewise=True).tolist() == [
        [[1, 0], [1, 1]],
        [[1, 1], [0, 1]],
    ]


def test_pig_dog_cat():
    y_true = np.array(["cat", "dog", "pig", "cat", "dog", "pig"])
    y_pred = np.array(["cat", "pig", "dog", "cat", "cat", "dog"])
    p, r, f, s = cm.precision_recall_fscore_support(y_true, y_pred, average="macro")
    assert (round(p, 3), round(r, 3), round(f, 3), s) == (0.222, 0.333, 0.267, None)
    assert p == pytest.approx(2 / 9, abs=1e-15) and r == pytest.approx(1 / 3, abs=1e-15)
    assert f == pytest.approx(0.8 / 3, abs=1e-15)
    micro = cm.precision_recall_fscore_support(y_true, y_pred, average="micro")
    assert micro[:3] == pytest.approx((1 / 3, 1 / 3, 1 / 3), abs=1e-15) and micro[3] is None
    weighted = cm.precision_recall_fscore_support(y_true, y_pred, average="weighted")
    assert weighted[:3] == pytest.approx((2 / 9, 1 / 3, 0.8 / 3), abs=1e-15)
    p, r, f, s = cm.precision_recall_fscore_support(y_true, y_pred, average=None, labels=["pig", "dog", "cat"])
    np.testing.assert_allclose(p, [0, 0, 2 / 3], atol=1e-15)
    np.testing.assert_allclose(r, [0, 0, 1], atol=1e-15)
    np.testing.assert_allclose(f, [0, 0, 0.8], atol=1e-15)
    assert s.tolist() == [2, 2, 2]


def test_cohen_kappa_docstring():
    y1 = ["negative", "positive", "negative", "neutral", "positive"]
    y2 = ["negative", "positive", "negative", "neutral", "negative"]
    assert cm.cohen_kappa_score(y1, y2) == 0.6875


def test_balanced_accuracy_docstring():
    assert cm.balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1]) == 0.625


def test_class_likelihood_ratios_docstring():
    assert cm.class_likelihood_ratios([0, 1, 0, 1, 0], [1, 1, 0, 0, 0]) == (1.5, 0.75)
    y_true = np.array(["non-cat", "cat", "non-cat", "cat", "non-cat"])
    y_pred = np.array(["cat", "cat", "non-cat", "non-cat", "non-cat"])
    # lexical order makes "non-cat" the positive class
    lr_pos, lr_neg = cm.class_likelihood_ratios(y_true, y_pred)
    assert (lr_pos, lr_neg) == pytest.approx((4 / 3, 2 / 3), abs=1e-15)
    assert cm.class_likelihood_ratios(y_true, y_pred, labels=["non-cat", "cat"]) == (1.5, 0.75)
    y_true = np.array(["non-zebra", "zebra", "non-zebra", "zebra", "non-zebra"])
    y_pred = np.array(["zebra", "zebra", "non-zebra", "non-zebra", "non-zebra"])
    assert cm.class_likelihood_ratios(y_true, y_pred) == (1.5, 0.75)


def test_matthews_docstring():
    assert cm.matthews_corrcoef([+1, +1, +1, -1], [+1, -1, +1, +1]) == pytest.approx(-1 / 3, abs=1e-15)


def test_small_docstring_values():
    assert cm.accuracy_score([0, 1, 2, 3], [0, 2, 1, 3]) == 0.5
    assert cm.accuracy_score([0, 1, 2, 3], [0, 2, 1, 3], normalize=False) == 2.0
    assert cm.accuracy_score(np.array([[0, 1], [1, 1]]), np.ones((2, 2))) == 0.5
    assert cm.zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4]) == 0.25
    assert cm.zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4], normalize=False) == 1.0
    assert cm.zero_one_loss(np.array([[0, 1], [1, 1]]), np.ones((2, 2))) == 0.5
    assert cm.hamming_loss([1, 2, 3, 4], [2, 2, 3, 4]) == 0.25
    assert cm.hamming_loss(np.array([[0, 1], [1, 1]]), np.zeros((2, 2))) == 0.75
    y_true, y_pred = [0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1]
    assert cm.f1_score(y_true, y_pred, average="macro") == pytest.approx(0.8 / 3, abs=1e-15)
    assert cm.f1_score(y_true, y_pred, average="micro") == pytest.approx(1 / 3, abs=1e-15)
    np.testing.assert_allclose(cm.f1_score(y_true, y_pred, average=None), [0.8, 0, 0], atol=1e-15)
    assert cm.fbeta_score(y_true, y_pred, average="macro", beta=0.5) == pytest.approx(0.2380952380952381, abs=1e-15)
    np.testing.assert_allclose(
        cm.fbeta_score(y_true, y_pred, average=None, beta=0.5), [0.7142857142857143, 0, 0], atol=1e-15
    )
    assert cm.precision_score(y_true, y_pred, average="macro") == pytest.approx(2 / 9, abs=1e-15)
    assert cm.recall_score(y_true, y_pred, average="macro") == pytest.approx(1 / 3, abs=1e-15)
    assert cm.jaccard_score(
        np.array([[0, 1, 1], [1, 1, 0]]), np.array([[1, 1, 1], [1, 0, 0]]), average="samples"
    ) == pytest.approx(7 / 12, abs=1e-15)


def test_zero_division_docstring_example():
    y_true, y_pred = [0, 0, 0], [0, 0, 0]
    assert cm.precision_score(y_true, y_pred, zero_division=1) == 1.0
    assert cm.recall_score(y_true, y_pred, zero_division=1) == 1.0
    assert cm.f1_score(y_true, y_pred, zero_division=1) == 1.0
    assert math.isnan(cm.f1_score(y_true, y_pred, zero_division=np.nan))
    with pytest.warns(UndefinedMetricWarning, match="F-score is ill-defined"):
        assert cm.f1_score(y_true, y_pred) == 0.0
    # multilabel: first sample has no true and no predicted labels
    y_true = np.array([[0, 0, 0], [1, 1, 0]])
    y_pred = np.array([[0, 0, 0], [1, 0, 0]])
    assert cm.f1_score(y_true, y_pred, average="samples", zero_division=1) == pytest.approx(5 / 6, abs=1e-15)


# --------------------------------------------------------------------------------------------
# the seven-sample, three-class report of the classic tutorials
# --------------------------------------------------------------------------------------------
SEVEN_TRUE = [0, 0, 1, 1, 2, 2, 2]
SEVEN_PRED = [0, 0, 1, 2, 2, 2, 1]

SEVEN_REPORT = """\
              precision    recall  f1-score   support

     class 0       1.00      1.00      1.00         2
     class 1       0.50      0.50      0.50         2
     class 2       0.67      0.67      0.67         3

    accuracy                           0.71         7
   macro avg       0.72      0.72      0.72         7
weighted avg       0.71      0.71      0.71         7
"""


def test_seven_sample_report_text():
    report = cm.classification_report(SEVEN_TRUE, SEVEN_PRED, target_names=["class 0", "class 1", "class 2"])
    assert report == SEVEN_REPORT


def test_seven_sample_report_dict():
    report = cm.classification_report(SEVEN_TRUE, SEVEN_PRED, output_dict=True)
    assert list(report) == ["0", "1", "2", "accuracy", "macro avg", "weighted avg"]
    assert report["0"] == {"precision": 1.0, "recall": 1.0, "f1-score": 1.0, "support": 2.0}
    assert report["1"] == {"precision": 0.5, "recall": 0.5, "f1-score": 0.5, "support": 2.0}
    assert report["2"]["precision"] == pytest.approx(2 / 3, abs=1e-15)
    assert report["accuracy"] == pytest.approx(5 / 7, abs=1e-15)
    assert report["macro avg"]["precision"] == pytest.approx((1 + 0.5 + 2 / 3) / 3, abs=1e-15)
    assert report["weighted avg"]["recall"] == pytest.approx(5 / 7, abs=1e-15)
    assert report["weighted avg"]["support"] == 7.0
    assert all(type(v) is float for row in report.values() if isinstance(row, dict) for v in row.values())


def test_seven_sample_report_digits_and_labels():
    report = cm.classification_report(SEVEN_TRUE, SEVEN_PRED, digits=4, labels=[2, 0])
    expected = (
        "              precision    recall  f1-score   support\n\n"
        "           2     0.6667    0.6667    0.6667         3\n"
        "           0     1.0000    1.0000    1.0000         2\n\n"
        "   micro avg     0.8000    0.8000    0.8000         5\n"
        "   macro avg     0.8333    0.8333    0.8333         5\n"
        "weighted avg     0.8000    0.8000    0.8000         5\n"
    )
    assert report == expected
    assert report == skm.classification_report(SEVEN_TRUE, SEVEN_PRED, digits=4, labels=[2, 0])


def test_seven_sample_scalar_metrics():
    p, r, f, s = cm.precision_recall_fscore_support(SEVEN_TRUE, SEVEN_PRED)
    np.testing.assert_allclose(p, [1.0, 0.5, 2 / 3], rtol=0, atol=1e-15)
    assert s.tolist() == [2, 2, 3]
    assert cm.accuracy_score(SEVEN_TRUE, SEVEN_PRED) == pytest.approx(5 / 7, abs=1e-15)
    assert cm.error_rate(SEVEN_TRUE, SEVEN_PRED) == pytest.approx(2 / 7, abs=1e-15)
    assert cm.balanced_accuracy_score(SEVEN_TRUE, SEVEN_PRED) == pytest.approx((1 + 0.5 + 2 / 3) / 3, abs=1e-15)


# --------------------------------------------------------------------------------------------
# specificity, NPV, fall-out by hand
# --------------------------------------------------------------------------------------------
def test_specificity_npv_fallout_binary_by_hand():
    # tn=3, fp=1, fn=2, tp=4
    y_true = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    y_pred = [0, 0, 0, 1, 0, 0, 1, 1, 1, 1]
    assert cm.specificity_score(y_true, y_pred) == 0.75
    assert cm.fallout_score(y_true, y_pred) == 0.25
    assert cm.npv_score(y_true, y_pred) == 0.6
    # pos_label=0 swaps the roles: specificity of 0 is the recall of 1
    assert cm.specificity_score(y_true, y_pred, pos_label=0) == pytest.approx(4 / 6, abs=1e-15)
    assert cm.npv_score(y_true, y_pred, pos_label=0) == pytest.approx(4 / 5, abs=1e-15)
    assert cm.fallout_score(y_true, y_pred, pos_label=0) == pytest.approx(2 / 6, abs=1e-15)


def test_specificity_npv_fallout_multiclass_by_hand():
    # matrix [[2,0,0],[0,0,1],[1,0,2]] of the tutorial: per-class tn/fp/fn
    y_true, y_pred = [2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2]
    np.testing.assert_allclose(cm.specificity_score(y_true, y_pred, average=None), [3 / 4, 1.0, 2 / 3], atol=1e-15)
    np.testing.assert_allclose(cm.fallout_score(y_true, y_pred, average=None), [1 / 4, 0.0, 1 / 3], atol=1e-15)
    np.testing.assert_allclose(cm.npv_score(y_true, y_pred, average=None), [1.0, 5 / 6, 2 / 3], atol=1e-15)
    assert cm.specificity_score(y_true, y_pred, average="macro") == pytest.approx((3 / 4 + 1 + 2 / 3) / 3, abs=1e-15)
    # micro: pooled tn / (tn + fp) = (3 + 5 + 2) / (3 + 5 + 2 + 1 + 0 + 1)
    assert cm.specificity_score(y_true, y_pred, average="micro") == pytest.approx(10 / 12, abs=1e-15)
    # weighted by support (2, 1, 3)
    assert cm.specificity_score(y_true, y_pred, average="weighted") == pytest.approx(
        (2 * 3 / 4 + 1 * 1.0 + 3 * 2 / 3) / 6, abs=1e-15
    )


def test_npv_undefined_follows_zero_division():
    # class 1 predicted for every sample: no predicted negatives
    y_true, y_pred = [0, 1, 1], [1, 1, 1]
    with pytest.warns(UndefinedMetricWarning, match="NPV is ill-defined"):
        assert cm.npv_score(y_true, y_pred) == 0.0
    assert cm.npv_score(y_true, y_pred, zero_division=1) == 1.0
    assert math.isnan(cm.npv_score(y_true, y_pred, zero_division=np.nan))


# --------------------------------------------------------------------------------------------
# PyCM's three-class "from vector" example (shared/data/pycm_readme_vectors.csv)
# --------------------------------------------------------------------------------------------
# Published by PyCM (README and its doctest suite, pycm/test.py), rounded to 5 decimals.
PYCM_CLASS_STATS = {
    "TPR": [1.0, 0.33333, 0.5],
    "TNR": [0.77778, 0.88889, 0.66667],
    "PPV": [0.6, 0.5, 0.6],
    "NPV": [1.0, 0.8, 0.57143],
    "FPR": [0.22222, 0.11111, 0.33333],
    "F1": [0.75, 0.4, 0.54545],
    "F0.5": [0.65217, 0.45455, 0.57692],
    "F2": [0.88235, 0.35714, 0.51724],
    "ACC": [0.83333, 0.75, 0.58333],
    "MCC": [0.68313, 0.2582, 0.16903],
    "LR+": [4.5, 3.0, 1.5],
    "LR-": [0.0, 0.75, 0.75],
    "J": [0.6, 0.25, 0.375],
}
PYCM_OVERALL = {"Kappa": 0.35484, "Overall_ACC": 0.58333, "PPV_Macro": 0.56667, "TPR_Macro": 0.61111}
# PyCM prints cm.F_beta(4) at full precision.
PYCM_F4 = [0.9622641509433962, 0.34, 0.504950495049505]


@pytest.fixture
def pycm_vectors(shared_data) -> tuple[np.ndarray, np.ndarray]:
    path = shared_data / "pycm_readme_vectors.csv"
    if not path.is_file():
        pytest.skip(f"{path} is absent (shared data set of the PyCM example)")
    with path.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    return np.array([int(r["actual"]) for r in rows]), np.array([int(r["predicted"]) for r in rows])


def test_pycm_matrix(pycm_vectors):
    y_true, y_pred = pycm_vectors
    assert y_true.shape == (12,)
    assert cm.confusion_matrix(y_true, y_pred).tolist() == [[3, 0, 0], [0, 1, 2], [2, 1, 3]]


def test_pycm_class_statistics(pycm_vectors):
    y_true, y_pred = pycm_vectors
    got = {
        "TPR": cm.recall_score(y_true, y_pred, average=None),
        "TNR": cm.specificity_score(y_true, y_pred, average=None),
        "PPV": cm.precision_score(y_true, y_pred, average=None),
        "NPV": cm.npv_score(y_true, y_pred, average=None),
        "FPR": cm.fallout_score(y_true, y_pred, average=None),
        "F1": cm.f1_score(y_true, y_pred, average=None),
        "F0.5": cm.fbeta_score(y_true, y_pred, beta=0.5, average=None),
        "F2": cm.fbeta_score(y_true, y_pred, beta=2, average=None),
        "ACC": [cm.accuracy_score(y_true == c, y_pred == c) for c in range(3)],
        "MCC": [cm.matthews_corrcoef(y_true == c, y_pred == c) for c in range(3)],
        "LR+": [cm.class_likelihood_ratios(y_true == c, y_pred == c)[0] for c in range(3)],
        "LR-": [cm.class_likelihood_ratios(y_true == c, y_pred == c)[1] for c in range(3)],
        "J": cm.jaccard_score(y_true, y_pred, average=None),
    }
    for name, published in PYCM_CLASS_STATS.items():
        np.testing.assert_allclose(np.round(got[name], 5), published, rtol=0, atol=1e-12, err_msg=name)
    np.testing.assert_allclose(cm.fbeta_score(y_true, y_pred, beta=4, average=None), PYCM_F4, rtol=0, atol=1e-15)


def test_pycm_overall_statistics(pycm_vectors):
    y_true, y_pred = pycm_vectors
    got = {
        "Kappa": cm.cohen_kappa_score(y_true, y_pred),
        "Overall_ACC": cm.accuracy_score(y_true, y_pred),
        "PPV_Macro": cm.precision_score(y_true, y_pred, average="macro"),
        "TPR_Macro": cm.recall_score(y_true, y_pred, average="macro"),
    }
    for name, published in PYCM_OVERALL.items():
        assert round(got[name], 5) == published, name
    # exact values: kappa = (7/12 - 51/144) / (1 - 51/144) = 11/31
    assert got["Kappa"] == pytest.approx(11 / 31, abs=1e-15)
    assert cm.f1_score(y_true, y_pred, average="micro") == pytest.approx(7 / 12, abs=1e-15)


def test_pycm_against_sklearn(pycm_vectors):
    """Everything else about the example agrees with scikit-learn to 1e-12."""
    y_true, y_pred = pycm_vectors
    for name in ("matthews_corrcoef", "balanced_accuracy_score", "hamming_loss", "zero_one_loss"):
        assert getattr(cm, name)(y_true, y_pred) == pytest.approx(getattr(skm, name)(y_true, y_pred), abs=1e-12)
    for weights in (None, "linear", "quadratic"):
        assert cm.cohen_kappa_score(y_true, y_pred, weights=weights) == pytest.approx(
            skm.cohen_kappa_score(y_true, y_pred, weights=weights), abs=1e-12
        )
    assert cm.classification_report(y_true, y_pred, digits=5) == skm.classification_report(y_true, y_pred, digits=5)


# --------------------------------------------------------------------------------------------
# the API mirrors scikit-learn's
# --------------------------------------------------------------------------------------------
def _signature(func) -> list[tuple]:
    out = []
    for p in inspect.signature(func).parameters.values():
        d = p.default
        out.append((p.name, p.kind, "nan" if isinstance(d, float) and math.isnan(d) else d))
    return out


@pytest.mark.parametrize("name", [n for n in cm.__all__ if hasattr(skm, n)])
def test_signatures_match_sklearn(name):
    assert _signature(getattr(cm, name)) == _signature(getattr(skm, name))


@pytest.mark.parametrize("name", ["specificity_score", "npv_score", "fallout_score"])
def test_extra_rates_take_precision_score_arguments(name):
    assert _signature(getattr(cm, name)) == _signature(skm.precision_score)
