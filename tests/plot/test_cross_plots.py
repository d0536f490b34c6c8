"""Cross-evaluation plots: what is drawn is the CrossEvaluation's numbers (mean curve, fold curves,
fold values, summary), checked on real estimators and scikit-learn data sets."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval.cross_evaluation.metric_names import metric_title
from matplotlib.figure import Figure

pytest.importorskip("sklearn")
from sklearn.datasets import load_breast_cancer, load_iris  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from clfeval.cross_evaluation import cross_evaluate  # noqa: E402
from clfeval.plot import CrossValidationCurveDisplay, FoldMetricsDisplay  # noqa: E402
from clfeval.plot.cross import DEFAULT_FOLD_METRICS, band_text  # noqa: E402
from clfeval.protocols import KFold  # noqa: E402


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    nb = cross_evaluate(GaussianNB(), X, y, KFold(10, random_state=0), progress=False, name="naive Bayes")
    lr = cross_evaluate(make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)), X, y,
                        KFold(10, random_state=0), progress=False, name="logistic regression")
    return nb, lr


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return cross_evaluate(GaussianNB(), X, y, KFold(5, random_state=0), progress=False, name="iris NB")


def _ax():
    return Figure(layout="constrained").add_subplot()


@pytest.mark.parametrize("kind", ["roc", "pr"])
@pytest.mark.parametrize("band", ["corrected", "sd", "t", "percentile"])
def test_mean_curve_and_band_are_the_cross_evaluations(cancer, kind, band, legend_texts):
    cv = cancer[0]
    d = CrossValidationCurveDisplay.from_cross_evaluation(cv, kind, band=band, ax=_ax())
    expected = cv.mean_curve(kind, band=band)
    np.testing.assert_array_equal(d.mean_line_.get_xdata(), expected.x)
    np.testing.assert_array_equal(d.mean_line_.get_ydata(), expected.mean)
    # the shaded band spans low..high at every grid point
    verts = np.vstack([p.vertices for p in d.band_.get_paths()])
    assert verts[:, 1].min() == pytest.approx(expected.low.min())
    assert verts[:, 1].max() == pytest.approx(expected.high.max())
    assert band_text(band, 0.95) in legend_texts(d.ax_)
    area = "AUC" if kind == "roc" else "AP"
    head = "Mean ROC" if kind == "roc" else "Mean PR"
    assert d.mean_line_.get_label() == f"{head} ({area} = {expected.area_mean:.3f} \u00b1 {expected.area_std:.3f})"
    if kind == "pr":
        assert d.mean_line_.get_drawstyle() == "steps-pre"


@pytest.mark.parametrize("kind", ["roc", "pr"])
def test_one_thin_line_per_fold_with_the_folds_exact_curve(cancer, kind):
    cv = cancer[0]
    d = CrossValidationCurveDisplay.from_cross_evaluation(cv, kind, ax=_ax())
    assert len(d.fold_lines_) == len(cv.folds) == 10
    for line, ev in zip(d.fold_lines_, cv.evaluations):
        c = ev.compact_curves(kind, 4000).main
        np.testing.assert_array_equal(line.get_xdata(), c.x)
        np.testing.assert_array_equal(line.get_ydata(), c.y)
        assert line.get_linewidth() < d.mean_line_.get_linewidth()
        assert line.get_alpha() < 1
        assert line.get_color() == d.mean_line_.get_color()
    # one legend entry for all folds
    assert [ln.get_label() for ln in d.fold_lines_].count("folds (10 curves)") == 1
    np.testing.assert_allclose(np.sort(cv.mean_curve(kind).areas), np.sort(cv.values(
        "roc_auc" if kind == "roc" else "average_precision")))


def test_chance_lines(cancer, legend_texts):
    cv = cancer[0]
    roc = CrossValidationCurveDisplay.from_cross_evaluation(cv, "roc", ax=_ax())
    assert roc.chance_level_.get_xydata().tolist() == [[0, 0], [1, 1]]
    pr = CrossValidationCurveDisplay.from_cross_evaluation(cv, "pr", ax=_ax())
    y = cv.pooled.confusion.counts.sum(axis=1)
    prevalence = y[1] / y.sum()
    assert pr.prevalence == pytest.approx(prevalence)
    np.testing.assert_allclose(pr.chance_level_.get_ydata(), [prevalence, prevalence])
    assert "Positive class: 1".lower() in pr.ax_.get_xlabel().lower()


def test_no_band_no_folds(cancer):
    d = CrossValidationCurveDisplay.from_cross_evaluation(cancer[0], "roc", band=None, show_folds=False, ax=_ax())
    assert d.band_ is None and d.fold_lines_ == []
    with pytest.raises(ValueError, match="band must be one of"):
        CrossValidationCurveDisplay.from_cross_evaluation(cancer[0], "roc", band="bootstrap", ax=_ax())
    with pytest.raises(TypeError, match="CrossEvaluation"):
        CrossValidationCurveDisplay.from_cross_evaluation(cancer[0].pooled, "roc", ax=_ax())


@pytest.mark.parametrize("kind", ["roc", "pr"])
def test_multiclass_micro_curve(iris, kind, legend_texts):
    d = CrossValidationCurveDisplay.from_cross_evaluation(iris, kind, curve="micro", ax=_ax())
    m = iris.mean_curve(kind, "micro")
    np.testing.assert_array_equal(d.mean_line_.get_ydata(), m.mean)
    assert len(d.fold_lines_) == 5
    for line, ev in zip(d.fold_lines_, iris.evaluations):
        np.testing.assert_array_equal(line.get_ydata(), ev.compact_curves(kind, 4000)["micro"].y)
    assert "micro-average" in d.mean_line_.get_label()
    # plotting again on other axes draws the same data
    again = d.plot(ax=_ax())
    np.testing.assert_array_equal(again.mean_line_.get_ydata(), m.mean)


def test_a_class_curve_of_a_multiclass_cv(iris):
    d = CrossValidationCurveDisplay.from_cross_evaluation(iris, "roc", curve="2", ax=_ax())
    np.testing.assert_array_equal(d.mean_line_.get_ydata(), iris.mean_curve("roc", "2").mean)
    assert "class 2" in d.mean_line_.get_label()


def test_fold_metrics_box_data_is_the_fold_values(cancer):
    cv = cancer[0]
    metrics = ["accuracy", "f1_macro", "mcc", "roc_auc"]
    d = FoldMetricsDisplay.from_cross_evaluation(cv, metrics=metrics, ax=_ax())
    summary = cv.summary(metrics=metrics)
    assert len(d.boxes_["boxes"]) == len(metrics)
    for i, m in enumerate(metrics):
        v = cv.values(m)
        np.testing.assert_array_equal(d.values[i], v)
        np.testing.assert_array_equal(np.sort(d.points_[i].get_offsets()[:, 1]), np.sort(v))
        # the box: median line and quartiles of the fold values
        assert d.boxes_["medians"][i].get_ydata()[0] == pytest.approx(np.median(v))
        box_y = d.boxes_["boxes"][i].get_path().vertices[:, 1]
        assert box_y.min() == pytest.approx(np.percentile(v, 25))
        assert box_y.max() == pytest.approx(np.percentile(v, 75))
        row = summary[m]
        mean_line = d.means_[i].lines[0]
        assert mean_line.get_ydata()[0] == pytest.approx(row["mean"])
        bar = d.means_[i].lines[2][0].get_segments()[0]
        assert bar[:, 1].tolist() == pytest.approx([row["low"], row["high"]])
        assert d.pooled_[i].get_ydata()[0] == pytest.approx(row["pooled"]) == cv.pooled_value(m)
    # ticks read as the report's titles ("ROC AUC", "MCC"), not the keys the box data are keyed by
    assert [t.get_text() for t in d.ax_.get_xticklabels()] == [metric_title(m) for m in metrics]
    assert "ROC AUC" in [t.get_text() for t in d.ax_.get_xticklabels()]


def test_fold_metrics_defaults_and_one_metric(cancer, iris):
    d = FoldMetricsDisplay.from_cross_evaluation(iris, ax=_ax())
    assert d.metrics == list(DEFAULT_FOLD_METRICS)
    d = FoldMetricsDisplay.from_cross_evaluation(iris, "accuracy", method="t", level=0.9, ax=_ax())
    assert d.metrics == ["accuracy"]
    row = iris.summary(0.9, ["accuracy"], method="t")["accuracy"]
    assert (d.lows[0], d.highs[0]) == pytest.approx((row["low"], row["high"]))
    with pytest.raises(ValueError, match="unknown metric"):
        FoldMetricsDisplay.from_cross_evaluation(iris, "nonsense", ax=_ax())


def test_fold_metrics_compare_models(cancer):
    nb, lr = cancer
    d = FoldMetricsDisplay.from_cross_evaluation([nb, lr], metrics=["accuracy", "roc_auc"], ax=_ax())
    assert d.names == ["naive Bayes", "logistic regression"]
    assert len(d.boxes_["boxes"]) == 4
    expected = [nb.values("accuracy"), lr.values("accuracy"), nb.values("roc_auc"), lr.values("roc_auc")]
    for got, want in zip(d.values, expected):
        np.testing.assert_array_equal(got, want)
    pos = d.positions()
    assert pos[0] < pos[1] < 0.5 < pos[2] < pos[3]  # grouped by metric, models side by side
    colors = [tuple(b.get_facecolor()[:3]) for b in d.boxes_["boxes"]]
    assert colors[0] == colors[2] != colors[1] == colors[3]
    legend = [t.get_text() for t in d.ax_.get_legend().get_texts()]
    assert legend[:2] == ["naive Bayes", "logistic regression"]
    assert "pooled (all folds' predictions)" in legend
    same = FoldMetricsDisplay.from_cross_evaluation([nb, nb], metrics="accuracy", ax=_ax())
    assert same.names == ["naive Bayes", "naive Bayes (2)"]
