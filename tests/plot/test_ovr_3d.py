"""One-vs-rest and 3-D threshold displays."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure
from sklearn.metrics import precision_recall_curve, roc_auc_score, roc_curve
from sklearn.preprocessing import label_binarize

import clfeval
from clfeval.plot import OneVsRestDisplay, ThresholdCurve3DDisplay

rng = np.random.default_rng(3)
K = 4
Y = rng.integers(0, K, 200)
RAW = rng.random((200, K)) + 1.5 * np.eye(K)[Y]
P = RAW / RAW.sum(axis=1, keepdims=True)
NAMES = ["ant", "bee", "cat", "dog"]


def test_one_vs_rest_roc_lines(ax, legend_texts):
    ev = clfeval.evaluate(Y, y_score=P, target_names=NAMES, name="m")
    disp = OneVsRestDisplay.from_evaluation(ev, kind="roc", ax=ax)
    assert list(disp.lines_) == NAMES + ["micro", "macro"]
    onehot = label_binarize(Y, classes=range(K))
    aucs = roc_auc_score(onehot, P, average=None)
    for i, name in enumerate(NAMES):
        fpr, tpr, _ = roc_curve(onehot[:, i], P[:, i])
        np.testing.assert_allclose(disp.lines_[name].get_xydata(), np.c_[fpr, tpr], atol=1e-12)
        assert f"{name} (AUC = {aucs[i]:.3f})" in legend_texts(ax)
    fpr, tpr, _ = roc_curve(onehot.ravel(), P.ravel())
    np.testing.assert_allclose(disp.lines_["micro"].get_xydata(), np.c_[fpr, tpr], atol=1e-12)
    macro = roc_auc_score(Y, P, multi_class="ovr", average="macro")
    assert f"macro-average (AUC = {macro:.3f})" in legend_texts(ax)
    np.testing.assert_allclose(disp.lines_["macro"].get_xdata(), ev.roc["macro"].x)
    assert ax.get_legend().get_bbox_to_anchor().x0 > ax.bbox.x1  # 7 entries: beside the axes
    assert ax.get_title() == "m: one-vs-rest ROC curves"


def test_one_vs_rest_pr_and_class_subset(ax):
    disp = OneVsRestDisplay.from_predictions(Y, P, kind="pr", ax=ax, classes=["1", "3"], averages=("micro",))
    assert list(disp.lines_) == ["1", "3", "micro"]
    p, r, _ = precision_recall_curve(Y == 3, P[:, 3])
    np.testing.assert_allclose(disp.lines_["3"].get_xydata(), np.c_[r[::-1], p[::-1]], atol=1e-12)
    assert disp.lines_["3"].get_drawstyle() == "steps-pre"
    with pytest.raises(ValueError, match="no curve for classes"):
        disp.plot(ax=Figure().add_subplot(), classes=["7"])


def test_ten_classes_get_distinct_colours(ax):
    y = np.arange(300) % 10
    s = rng.random((300, 10)) + np.eye(10)[y]
    disp = OneVsRestDisplay.from_predictions(y, s / s.sum(1, keepdims=True), ax=ax)
    colours = {disp.lines_[str(c)].get_color() for c in range(10)}
    assert len(colours) == 10


def test_3d_roc_drops_infinite_thresholds_and_keeps_every_score(ax3d):
    ev = clfeval.evaluate(Y == 2, y_score=P[:, 2], name="m")
    disp = ThresholdCurve3DDisplay.from_evaluation(ev, kind="roc", ax=ax3d)
    fpr, tpr, thr = roc_curve(Y == 2, P[:, 2], drop_intermediate=False)
    np.testing.assert_allclose(disp.thresholds, thr[1:])  # +inf synthetic point dropped
    np.testing.assert_allclose(disp.x, fpr[1:], atol=1e-12)
    np.testing.assert_allclose(disp.y, tpr[1:], atol=1e-12)
    # every point of the 2-D curve lies on the 3-D one, at its threshold
    c = ev.roc.main
    at = {t: (x, y) for x, y, t in zip(disp.x, disp.y, disp.thresholds)}
    for x, y, t in zip(c.x[1:], c.y[1:], c.thresholds[1:]):
        np.testing.assert_allclose(at[t], (x, y), atol=1e-15)
    xs, ts, zs = disp.line_.get_data_3d()
    assert np.isfinite(ts).all() and set(ts) == set(disp.thresholds)
    op = ev.roc.main.operating_point
    np.testing.assert_allclose(np.ravel(disp.operating_point_.get_data_3d()), [op.x, 0.5, op.y])


def test_3d_pr_with_decision_scores_and_two_models(ax3d, legend_texts):
    d = (P[:, 1] - 0.3) * 40  # unbounded decision values
    ev1 = clfeval.evaluate(Y == 1, y_score=d, name="svm")
    ev2 = clfeval.evaluate(Y == 1, y_score=P[:, 1], name="proba")
    disps = ThresholdCurve3DDisplay.from_evaluations([ev1, ev2], kind="pr", ax=ax3d)
    p, r, t = precision_recall_curve(Y == 1, d)
    np.testing.assert_allclose(disps[0].thresholds, t[::-1])
    np.testing.assert_allclose(disps[0].x, r[::-1][1:], atol=1e-12)
    np.testing.assert_allclose(disps[0].y, p[::-1][1:], atol=1e-12)
    assert disps[0].operating_point.threshold == 0.0
    lo, hi = sorted(ax3d.get_ylim())  # drawn high to low (threshold3d.ELEV, AZIM)
    assert lo <= d.min() and hi >= d.max()
    assert [t for t in legend_texts(ax3d) if "AP" in t] == [
        f"svm (AP = {ev1.pr.main.area:.3f})", f"proba (AP = {ev2.pr.main.area:.3f})"
    ]


def test_3d_micro_curve_and_refusals(ax3d, ax):
    ev = clfeval.evaluate(Y, y_score=P)
    disp = ThresholdCurve3DDisplay.from_evaluation(ev, kind="roc", ax=ax3d)
    onehot = label_binarize(Y, classes=range(K))
    fpr, tpr, thr = roc_curve(onehot.ravel(), P.ravel(), drop_intermediate=False)
    np.testing.assert_allclose(disp.x, fpr[1:], atol=1e-12)
    np.testing.assert_allclose(disp.thresholds, thr[1:])
    with pytest.raises(ValueError, match="finite threshold"):
        ThresholdCurve3DDisplay.from_evaluation(ev, kind="roc", curve="macro", ax=ax3d)
    with pytest.raises(ValueError, match="3-D axes"):
        ThresholdCurve3DDisplay.from_evaluation(ev, kind="roc", ax=ax)
