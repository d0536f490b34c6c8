"""cross_evaluate and its aggregation, comparison and bootstrap estimators.

scikit-learn is the oracle: per-fold numbers equal cross_validate's scorers and pooled numbers equal
cross_val_predict + sklearn.metrics on the same splits, to 1e-12.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_breast_cancer, load_digits, load_iris
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    RepeatedStratifiedKFold,
    StratifiedKFold,
    cross_val_predict,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.validation import check_is_fitted

from clfeval import UndefinedMetricWarning, evaluate, stats
from clfeval.cross_evaluation import (
    FoldError,
    aggregate_confusions,
    bootstrap_632,
    compare,
    cross_evaluate,
    efron_tibshirani,
    mean_curve,
    metric_value,
)
from clfeval.evaluation import json_safe
from clfeval.protocols import Bootstrap, FiveByTwo, HoldOut, KFold, PredefinedSplits, TrainValidationTest

TOL = 1e-12
CANCER = load_breast_cancer(return_X_y=True)
IRIS = load_iris(return_X_y=True)
_digits = load_digits(return_X_y=True)
DIGITS = (_digits[0][:400], _digits[1][:400])


def logreg():
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=300))


def assert_matches(result, sk, names):
    for name in names:
        ours = np.asarray(result.values(name))
        assert np.max(np.abs(ours - sk[f"test_{name}"])) < TOL, name


# -- parity with scikit-learn ---------------------------------------------------------------------


def test_binary_matches_cross_validate_and_cross_val_predict():
    X, y = CANCER
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    names = ["accuracy", "balanced_accuracy", "precision", "recall", "f1", "f1_macro", "precision_macro",
             "recall_macro", "f1_weighted", "roc_auc", "average_precision", "matthews_corrcoef"]
    sk = cross_validate(logreg(), X, y, cv=cv, scoring=names)
    res = cross_evaluate(logreg(), X, y, KFold(5, random_state=0), progress=False)
    assert res.response == "predict_proba"
    assert_matches(res, sk, names)
    pred = cross_val_predict(logreg(), X, y, cv=cv)
    proba = cross_val_predict(logreg(), X, y, cv=cv, method="predict_proba")[:, 1]
    pooled = res.pooled
    assert np.array_equal(pooled.confusion.counts, skm.confusion_matrix(y, pred))
    assert abs(pooled.report.overall["accuracy"] - skm.accuracy_score(y, pred)) < TOL
    assert abs(pooled.report.averages["macro"]["f1"] - skm.f1_score(y, pred, average="macro")) < TOL
    assert abs(pooled.report.overall["roc_auc"] - skm.roc_auc_score(y, proba)) < TOL
    assert abs(pooled.report.overall["average_precision"] - skm.average_precision_score(y, proba)) < TOL
    for fold, (train, test) in zip(res.folds, cv.split(X, y)):
        assert np.array_equal(fold.train, train) and np.array_equal(fold.test, test)


def test_multiclass_matches_sklearn_iris_and_digits():
    names = ["accuracy", "balanced_accuracy", "f1_macro", "precision_macro", "recall_macro", "f1_weighted",
             "f1_micro", "roc_auc_ovr", "roc_auc_ovr_weighted"]
    for (X, y), est in ((IRIS, GaussianNB()), (DIGITS, GaussianNB())):
        cv = StratifiedKFold(4, shuffle=True, random_state=2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sk = cross_validate(est, X, y, cv=cv, scoring=names)
            res = cross_evaluate(est, X, y, KFold(4, random_state=2), progress=False)
        defined = [n for n in names if np.isfinite(res.values(n)).all()]
        assert "roc_auc_ovr" in defined and "f1_macro" in defined
        assert_matches(res, sk, defined)
        pred = cross_val_predict(est, X, y, cv=cv)
        assert np.array_equal(res.pooled.confusion.counts, skm.confusion_matrix(y, pred))
        proba = cross_val_predict(est, X, y, cv=cv, method="predict_proba")
        assert abs(res.pooled.report.overall["roc_auc"] - skm.roc_auc_score(y, proba, multi_class="ovr")) < TOL


def test_default_protocol_is_sklearns_default_cv():
    X, y = IRIS
    sk = cross_validate(GaussianNB(), X, y, scoring=["accuracy", "f1_macro"])  # cv=5: StratifiedKFold(5)
    res = cross_evaluate(GaussianNB(), X, y, progress=False)
    assert_matches(res, sk, ["accuracy", "f1_macro"])
    assert res.protocol_name == "stratified 5-fold CV"
    res3 = cross_evaluate(GaussianNB(), X, y, 3, progress=False)
    assert len(res3.folds) == 3


def test_decision_function_and_predict_only():
    X, y = CANCER
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    res = cross_evaluate(logreg(), X, y, KFold(3, random_state=0), response="decision_function", progress=False)
    assert res.response == "decision_function"
    sk = cross_validate(logreg(), X, y, cv=cv, scoring=["roc_auc", "average_precision"])  # uses decision_function
    assert_matches(res, sk, ["roc_auc", "average_precision"])
    knn = cross_evaluate(KNeighborsClassifier(), X, y, KFold(3, random_state=0), response="predict", progress=False)
    assert knn.response == "predict" and knn.pooled.rankings is None
    assert "roc_auc" not in knn.table()
    with pytest.raises(ValueError, match="needs scores"):
        knn.values("roc_auc")


def test_pooled_by_repeat_and_repeated_kfold():
    X, y = IRIS
    res = cross_evaluate(GaussianNB(), X, y, KFold(3, n_repeats=2, random_state=0), progress=False)
    assert res.n_repeats == 2 and [f.repeat for f in res.folds] == [0, 0, 0, 1, 1, 1]
    assert res.pooled.n_samples == 300 and [e.n_samples for e in res.pooled_by_repeat] == [150, 150]
    sk = cross_validate(GaussianNB(), X, y, cv=RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0),
                        scoring=["accuracy"])
    assert_matches(res, sk, ["accuracy"])
    assert "each test appearance counted (300 predictions for 150 samples)" in res.pooling


def test_pooled_intervals_warn_when_samples_repeat_and_per_repeat_ones_do_not():
    X, y = IRIS
    res = cross_evaluate(GaussianNB(), X, y, KFold(3, n_repeats=2, random_state=0), progress=False)
    with pytest.warns(UserWarning, match="150 of the 300 pooled predictions are of samples already counted"):
        pooled = res.pooled.intervals()
    assert any("too narrow" in note for note in pooled["notes"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        one = res.pooled_by_repeat[0].intervals()
        single = cross_evaluate(GaussianNB(), X, y, KFold(3, random_state=0), progress=False).pooled.intervals()
    assert not any("too narrow" in note for note in one["notes"] + single["notes"])
    # the pooled interval counts each sample twice, so it is narrower than one repetition's
    width = lambda ci: ci.high - ci.low  # noqa: E731
    assert width(pooled["overall"]["accuracy"]) < width(one["overall"]["accuracy"])


def test_fold_missing_a_class_keeps_k_classes_and_maps_score_columns():
    X, y = IRIS
    train = np.flatnonzero(y != 2)[::2]  # the model never sees class 2
    test = np.r_[np.flatnonzero(y == 0)[1::2][:10], np.flatnonzero(y == 1)[1::2][:10]]  # no class 2 in the test
    splits = PredefinedSplits([(train, test), (np.arange(0, 150, 2), np.arange(1, 150, 2))])
    with pytest.warns(UndefinedMetricWarning, match="in 1 fold reports; the first: fold 0: precision is undefined"):
        res = cross_evaluate(GaussianNB(), X, y, splits, progress=False)
    fold = res.folds[0]
    assert fold.evaluation.confusion.counts.shape == (3, 3)
    model = GaussianNB().fit(X[train], y[train])
    expected = np.zeros((test.size, 3))
    expected[:, :2] = model.predict_proba(X[test])
    assert np.array_equal(fold.y_score, expected)


def test_labels_argument_and_string_labels():
    X, y = IRIS
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    res = cross_evaluate(GaussianNB(), X, names, KFold(3, random_state=0), progress=False)
    num = cross_evaluate(GaussianNB(), X, y, KFold(3, random_state=0), progress=False)
    assert res.values("f1_macro").tolist() == num.values("f1_macro").tolist()
    with pytest.raises(ValueError, match="does not list"):
        cross_evaluate(GaussianNB(), X, names, labels=["setosa", "versicolor"], progress=False)


# -- practicalities -------------------------------------------------------------------------------


def test_deterministic_and_parallel_equal_serial():
    X, y = CANCER
    tree = DecisionTreeClassifier(max_depth=4, random_state=0)
    a = cross_evaluate(tree, X, y, random_state=3, progress=False)
    b = cross_evaluate(tree, X, y, random_state=3, progress=False)
    c = cross_evaluate(tree, X, y, random_state=3, n_jobs=2, progress=False)
    for other in (b, c):
        assert a.table(["accuracy", "roc_auc", "f1"])["roc_auc"] == other.table(["roc_auc"])["roc_auc"]
        assert a.values("f1").tolist() == other.values("f1").tolist()
        assert np.array_equal(a.pooled.confusion.counts, other.pooled.confusion.counts)
        for fa, fb in zip(a.folds, other.folds):
            assert np.array_equal(fa.test, fb.test) and np.array_equal(fa.y_score, fb.y_score)


def test_callers_estimator_is_never_fitted():
    X, y = IRIS
    est = GaussianNB()
    res = cross_evaluate(est, X, y, progress=False, return_estimators=True)
    with pytest.raises(NotFittedError):
        check_is_fitted(est)
    assert all(f.estimator is not est for f in res.folds)
    check_is_fitted(res.folds[0].estimator)


class FailsWithout(ClassifierMixin, BaseEstimator):
    """GaussianNB that refuses to fit when the row marked ``marker`` (last column) is not in training."""

    def __init__(self, marker: int = 7):
        self.marker = marker

    def fit(self, X, y):
        if self.marker not in X[:, -1]:
            raise ValueError(f"row {self.marker} is missing")
        self.model_ = GaussianNB().fit(X[:, :-1], y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X[:, :-1])

    def predict_proba(self, X):
        return self.model_.predict_proba(X[:, :-1])


def test_failing_fold_raise_and_continue():
    X, y = IRIS
    Xm = np.column_stack([X, np.arange(150)])
    protocol = KFold(5, random_state=0)
    bad = next(i for i, (_, test) in enumerate(protocol.split(Xm, y)) if 7 in test)
    with pytest.raises(FoldError, match=rf"fold {bad} \(repeat 0\) failed in fit \(train 120 rows, test 30 rows\): "
                                        r"ValueError: row 7 is missing") as info:
        cross_evaluate(FailsWithout(), Xm, y, protocol, progress=False)
    assert isinstance(info.value.__cause__, ValueError) and info.value.fold == bad
    with pytest.warns(RuntimeWarning, match=rf"1 of 5 folds failed: fold {bad}: ValueError: row 7 is missing"):
        res = cross_evaluate(FailsWithout(), Xm, y, protocol, on_error="continue", progress=False)
    assert [f.index for f in res.failed] == [bad] and res.failed[0].stage == "fit"
    table = res.table(["accuracy"])
    assert table["error"][bad] == "ValueError: row 7 is missing" and math.isnan(table["accuracy"][bad])
    assert res.summary()["accuracy"]["n_folds"] == 4 and res.pooled.n_samples == 120
    assert "1 of 5 folds failed" in res.notes[0] and "folds=4/5" in repr(res)
    with pytest.raises(FoldError, match="all 5 folds failed"):
        cross_evaluate(FailsWithout(marker=999), Xm, y, protocol, on_error="continue", progress=False)


def test_sample_weight_reaches_fit_and_metrics():
    X, y = CANCER
    w = np.random.default_rng(0).uniform(0.1, 3.0, y.size)
    protocol = KFold(3, random_state=1)
    res = cross_evaluate(GaussianNB(), X, y, protocol, sample_weight=w, progress=False)
    for fold in res.folds:
        model = GaussianNB().fit(X[fold.train], y[fold.train], sample_weight=w[fold.train])
        pred = model.predict(X[fold.test])
        assert np.array_equal(fold.y_pred, pred)
        expected = skm.accuracy_score(y[fold.test], pred, sample_weight=w[fold.test])
        assert abs(fold.evaluation.report.overall["accuracy"] - expected) < TOL
        auc = skm.roc_auc_score(y[fold.test], model.predict_proba(X[fold.test])[:, 1], sample_weight=w[fold.test])
        assert abs(fold.evaluation.report.overall["roc_auc"] - auc) < TOL
    assert res.pooled.total_weight == pytest.approx(w.sum())
    with pytest.raises(TypeError, match="takes no sample_weight"):
        cross_evaluate(KNeighborsClassifier(), X, y, sample_weight=w, progress=False)


def test_bad_input_errors():
    X, y = IRIS
    with pytest.raises(ValueError, match="X has 150 rows but y has 149"):
        cross_evaluate(GaussianNB(), X, y[:-1], progress=False)
    y_nan = y.astype(float)
    y_nan[3] = np.nan
    with pytest.raises(ValueError, match="missing value.*position 3"):
        cross_evaluate(GaussianNB(), X, y_nan, progress=False)
    with pytest.raises(TypeError, match="has no fit"):
        cross_evaluate(object(), X, y, progress=False)
    with pytest.raises(TypeError, match="protocol must be"):
        cross_evaluate(GaussianNB(), X, y, protocol="ten-fold", progress=False)
    with pytest.raises(ValueError, match="more than the 150 samples"):
        cross_evaluate(GaussianNB(), X, y, KFold(200, stratify=False), progress=False)
    with pytest.raises(ValueError, match="fewer than n_splits=60"):
        cross_evaluate(GaussianNB(), X, y, 60, progress=False)
    with pytest.raises(ValueError, match="on_error"):
        cross_evaluate(GaussianNB(), X, y, on_error="ignore", progress=False)
    with pytest.raises(ValueError, match="response"):
        cross_evaluate(KNeighborsClassifier(), X, y, response="decision_function", progress=False)
    with pytest.raises(ValueError, match="continuous"):
        cross_evaluate(GaussianNB(), X, y + 0.5, progress=False)
    with pytest.raises(ValueError, match="single class"):
        cross_evaluate(GaussianNB(), X, np.zeros(150, int), progress=False)


def test_sklearn_splitter_list_of_pairs_and_train_validation_test():
    X, y = IRIS
    sk_cv = StratifiedKFold(3, shuffle=True, random_state=0)
    a = cross_evaluate(GaussianNB(), X, y, sk_cv, progress=False)
    b = cross_evaluate(GaussianNB(), X, y, list(sk_cv.split(X, y)), progress=False)
    assert a.values("accuracy").tolist() == b.values("accuracy").tolist()
    tvt = TrainValidationTest(0.2, 0.2, random_state=0)
    tune = cross_evaluate(GaussianNB(), X, y, tvt.validation, progress=False)
    final = cross_evaluate(GaussianNB(), X, y, tvt, progress=False)
    (train, val, test), = list(tvt.split3(X, y))
    assert np.array_equal(tune.folds[0].test, val) and np.array_equal(final.folds[0].test, test)
    assert np.intersect1d(tune.folds[0].train, test).size == 0  # tuning never sees the test rows


def test_outputs_table_frame_dict_repr():
    X, y = IRIS
    res = cross_evaluate(GaussianNB(), X, y, KFold(3, random_state=0), progress=True, name="nb")
    table = res.table()
    assert list(table)[:7] == ["fold", "repeat", "n_train", "n_test", "fit_time", "predict_time", "evaluation_time"]
    assert "f1_of_macros" in table and len(table["accuracy"]) == 3
    frame = res.to_frame(["accuracy", "f1_macro"])
    assert list(frame.columns)[-2:] == ["accuracy", "f1_macro"] and frame.index.name == "fold"
    text = json.dumps(json_safe(res.to_dict()), allow_nan=False)
    assert '"protocol": "stratified 3-fold CV"' in text
    assert repr(res).startswith("CrossEvaluation(name='nb', protocol='stratified 3-fold CV', folds=3/3")
    assert "Nadeau-Bengio" in repr(res.summary())
    assert res.summary().to_frame().loc["accuracy", "n_folds"] == 3
    assert set(res.times) == {"fit_time", "predict_time", "evaluation_time"}


# -- aggregation ----------------------------------------------------------------------------------


def test_summary_interval_is_the_corrected_t_interval():
    X, y = IRIS
    res = cross_evaluate(GaussianNB(), X, y, KFold(5, n_repeats=2, random_state=0), progress=False)
    acc = res.values("accuracy")
    expected = stats.corrected_repeated_kfold_ttest(acc.reshape(2, 5), n_repeats=2, n_folds=5).confidence_interval(0.9)
    row = res.summary(0.9)["accuracy"]
    assert row["low"] == pytest.approx(expected.low, abs=1e-12)
    assert row["high"] == pytest.approx(min(expected.high, 1.0), abs=1e-12)
    assert row["mean"] == pytest.approx(acc.mean()) and row["std"] == pytest.approx(acc.std(ddof=1))
    assert row["pooled"] == pytest.approx(res.pooled.report.overall["accuracy"])
    naive = res.summary(0.9, method="t")["accuracy"]
    assert naive["high"] - naive["low"] < row["high"] - row["low"]


def test_f1_of_macros_and_mean_of_f1_by_hand():
    ev = evaluate([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 2, 2])
    p = np.array([1.0, 0.5, 0.5])  # per-class precision
    r = np.array([2 / 3, 0.5, 1.0])  # per-class recall
    f1 = 2 * p * r / (p + r)
    assert metric_value(ev.report, "f1_macro") == pytest.approx(f1.mean(), abs=TOL)
    mp, mr = p.mean(), r.mean()
    assert metric_value(ev.report, "f1_of_macros") == pytest.approx(2 * mp * mr / (mp + mr), abs=TOL)


@given(st.lists(st.integers(0, 30), min_size=6, max_size=6))
def test_f1_of_macros_equals_mean_f1_when_precision_equals_recall(cells):
    a, b, c, d, e, f = cells
    table = np.array([[a + 1, b, c], [b, d + 1, e], [c, e, f + 1]])  # symmetric: each class has P = R
    agg = aggregate_confusions([table])
    assert agg.pooled_value("f1_of_macros") == pytest.approx(agg.pooled_value("f1_macro"), abs=1e-12)


@given(st.lists(st.integers(1, 30), min_size=9, max_size=9))
def test_f1_of_macros_is_at_least_the_mean_of_f1(cells):
    agg = aggregate_confusions([np.array(cells).reshape(3, 3)])
    assert agg.pooled_value("f1_of_macros") >= agg.pooled_value("f1_macro") - 1e-12


@given(st.lists(st.lists(st.integers(0, 20), min_size=4, max_size=4), min_size=1, max_size=5))
def test_aggregate_confusions_pooled_and_mean(runs):
    tables = [np.array(r).reshape(2, 2) + np.eye(2, dtype=int) for r in runs]
    agg = aggregate_confusions(tables)
    total = sum(tables)
    assert agg.pooled_value("accuracy") == pytest.approx(np.trace(total) / total.sum(), abs=1e-12)
    per_run = [np.trace(t) / t.sum() for t in tables]
    assert agg.mean_value("accuracy") == pytest.approx(np.mean(per_run), abs=1e-12)
    recall = [t[1, 1] / t[1].sum() for t in tables]
    assert agg.values("recall") == pytest.approx(recall, abs=1e-12)


def test_aggregate_confusions_from_evaluations_and_errors():
    a = evaluate(["x", "y", "y"], ["x", "y", "x"])
    b = evaluate(["x", "x", "y"], ["x", "x", "y"])
    agg = aggregate_confusions([a, b])
    assert agg.labels.tolist() == ["x", "y"] and agg.pooled_value("accuracy") == pytest.approx(5 / 6)
    assert "ConfusionAggregate(runs=2" in repr(agg) and json.dumps(json_safe(agg.to_dict()))
    with pytest.raises(ValueError, match="square"):
        aggregate_confusions([[1, 2, 3]])
    with pytest.raises(ValueError, match="differ in shape"):
        aggregate_confusions([np.eye(2), np.eye(3)])


def test_pooled_confusion_is_the_sum_of_fold_confusions():
    X, y = IRIS
    for protocol in (KFold(3, n_repeats=2, random_state=0), Bootstrap(4, random_state=0), HoldOut(n_repeats=3, random_state=0)):
        res = cross_evaluate(GaussianNB(), X, y, protocol, progress=False)
        total = sum(f.evaluation.confusion.counts for f in res.folds)
        assert np.array_equal(res.pooled.confusion.counts, total)


# -- mean curves ----------------------------------------------------------------------------------


def test_mean_roc_by_vertical_averaging():
    a = evaluate([0, 0, 1, 1], y_score=[0.1, 0.6, 0.4, 0.9])  # ROC (0,0) (0,.5) (.5,.5) (.5,1) (1,1)
    b = evaluate([0, 0, 0, 1], y_score=[0.1, 0.2, 0.3, 0.9])  # ROC (0,0) (0,1) (1,1)
    m = mean_curve([a, b], "roc", grid=[0.0, 0.25, 0.5, 0.75, 1.0])
    tpr_a = [0.5, 0.5, 1.0, 1.0, 1.0]  # at FPR 0 the top of the vertical rise; linear between points
    assert m.mean.tolist() == pytest.approx([(t + 1.0) / 2 for t in tpr_a])
    assert m.areas.tolist() == [0.75, 1.0] and m.curves.shape == (2, 5)
    assert m.std[0] == pytest.approx(np.std([0.5, 1.0], ddof=1))
    assert np.all(m.low <= m.mean) and np.all(m.high <= 1.0)


def test_mean_pr_uses_the_average_precision_step_rule():
    rng = np.random.default_rng(0)
    evs = [evaluate(rng.integers(0, 2, 60), y_score=rng.random(60)) for _ in range(3)]
    grid = np.linspace(0, 1, 200001)
    m = mean_curve(evs, "pr", grid=grid, band="percentile")
    # the step curve integrates to average precision (right Riemann sum on a fine grid)
    area = np.sum(m.mean[1:] * np.diff(grid))
    assert area == pytest.approx(np.mean([e.report.overall["average_precision"] for e in evs]), abs=1e-4)
    small = mean_curve(evs[:1], "pr", grid=[0.5])
    curve = evs[0].pr.main
    first = np.flatnonzero(curve.recall >= 0.5)[0]
    assert small.mean[0] == curve.precision[first]


def test_cross_evaluation_mean_curve_band():
    X, y = CANCER
    res = cross_evaluate(GaussianNB(), X, y, KFold(5, random_state=0), progress=False)
    m = res.mean_curve("roc")
    assert m.x.size == 101 and m.curves.shape == (5, 101) and "Nadeau-Bengio" in m.band
    assert m.area_mean == pytest.approx(res.mean["roc_auc"])
    assert np.all((m.low <= m.mean + 1e-12) & (m.mean <= m.high + 1e-12))
    with pytest.raises(ValueError, match="band"):
        res.mean_curve("roc", band="wide")
    iris = cross_evaluate(GaussianNB(), *IRIS, KFold(3, random_state=0), progress=False)
    assert iris.mean_curve("pr", curve="micro").curve == "micro"


# -- comparison -----------------------------------------------------------------------------------


def test_compare_picks_the_right_test():
    X, y = CANCER
    nb, tree = GaussianNB(), DecisionTreeClassifier(max_depth=3, random_state=0)
    c = compare(nb, tree, X, y, FiveByTwo(random_state=0), progress=False)
    expected = stats.paired_ttest_5x2cv(c.a.values("accuracy").reshape(5, 2), c.b.values("accuracy").reshape(5, 2))
    assert c.statistic == expected.statistic and c.pvalue == expected.pvalue
    f = c.a.compare(c.b, "accuracy", test="5x2cv_f")
    assert f.test.method == "Alpaydin's combined 5x2cv F test"
    k = compare(nb, tree, X, y, KFold(5, n_repeats=2, random_state=0), metric="f1_macro", progress=False)
    assert k.test.method == "Bouckaert-Frank corrected repeated k-fold t test"
    h = compare(nb, tree, X, y, HoldOut(0.3, n_repeats=4, random_state=0), metric="roc_auc", progress=False)
    assert h.test.method == "Nadeau-Bengio corrected resampled t test"
    assert h.test.extra["n_train"] == 398 and h.test.extra["n_test"] == 171
    assert "GaussianNB" in repr(h) and json.dumps(json_safe(h.to_dict()))


def test_compare_refuses_different_splits():
    X, y = IRIS
    a = cross_evaluate(GaussianNB(), X, y, KFold(5, random_state=0), progress=False)
    b = cross_evaluate(GaussianNB(), X, y, KFold(5, random_state=1), progress=False)
    with pytest.raises(ValueError, match="fold 0 differs"):
        a.compare(b)
    with pytest.raises(ValueError, match="needs five repetitions of 2-fold"):
        a.compare(a, test="5x2cv_t")


# -- bootstrap estimators (Efron & Tibshirani 1997) -----------------------------------------------


def test_efron_tibshirani_hand_worked():
    # Efron & Tibshirani (1997), JASA 92:548-560, eqs. 24, 27-32.
    # err = 0.1, Err1 = 0.3, gamma = 0.5: R' = (0.3 - 0.1)/(0.5 - 0.1) = 0.5; w = .632/(1 - .368 * .5) = .632/.816
    r = efron_tibshirani(0.1, 0.3, 0.5)
    w = 0.632 / 0.816
    assert r["estimate_632"] == pytest.approx(0.368 * 0.1 + 0.632 * 0.3, abs=TOL)
    assert r["relative_overfitting"] == pytest.approx(0.5, abs=TOL)
    assert r["weight"] == pytest.approx(w, abs=TOL)
    assert r["estimate_632_plus"] == pytest.approx((1 - w) * 0.1 + w * 0.3, abs=TOL)
    # the paper's additive form (eq. 32) agrees when Err1 <= gamma
    additive = r["estimate_632"] + (0.3 - 0.1) * (0.368 * 0.632 * 0.5) / (1 - 0.368 * 0.5)
    assert r["estimate_632_plus"] == pytest.approx(additive, abs=TOL)
    # no overfitting (Err1 <= err): R' = 0, .632+ = .632
    r = efron_tibshirani(0.3, 0.25, 0.5)
    assert r["relative_overfitting"] == 0.0 and r["estimate_632_plus"] == pytest.approx(r["estimate_632"], abs=TOL)
    # Err1 beyond the no-information rate: Err1' = gamma, R' = 1, w = 1, .632+ = gamma
    r = efron_tibshirani(0.0, 0.6, 0.5)
    assert r["relative_overfitting"] == 1.0 and r["weight"] == pytest.approx(1.0) and r["estimate_632_plus"] == 0.5
    # a score (higher is better) is the same on the other side: accuracy = 1 - error
    acc = efron_tibshirani(0.9, 0.7, 0.5, higher_is_better=True)
    assert acc["estimate_632_plus"] == pytest.approx(1 - efron_tibshirani(0.1, 0.3, 0.5)["estimate_632_plus"], abs=TOL)


def test_bootstrap_estimates_by_hand():
    X, y = IRIS
    tree = DecisionTreeClassifier(max_depth=2, random_state=0)
    res = cross_evaluate(tree, X, y, Bootstrap(15, random_state=0), progress=False)
    assert res.apparent is not None and res.apparent.test.size == 150
    est = res.bootstrap_estimates()
    # leave-one-out bootstrap: each sample's error averaged over the bags it was out of, then over samples
    errors = np.zeros(150)
    times = np.zeros(150)
    for f in res.folds:
        errors[f.test] += f.y_pred != y[f.test]
        times[f.test] += 1
    seen = times > 0
    assert est.loo_bootstrap == pytest.approx(np.mean(errors[seen] / times[seen]), abs=TOL)
    assert est.n_never_out == int(np.sum(~seen))
    assert est.oob_mean == pytest.approx(np.mean([np.mean(f.y_pred != y[f.test]) for f in res.folds]), abs=TOL)
    full = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y).predict(X)
    assert est.apparent == pytest.approx(np.mean(full != y), abs=TOL)
    p = np.bincount(y) / 150
    q = np.bincount(full, minlength=3) / 150
    assert est.no_information == pytest.approx(np.sum(p * (1 - q)), abs=TOL)
    parts = efron_tibshirani(est.apparent, est.loo_bootstrap, est.no_information)
    assert est.estimate_632 == pytest.approx(parts["estimate_632"]) and est.estimate_632_plus == parts["estimate_632_plus"]
    acc = res.bootstrap_estimates("accuracy")
    assert acc.estimate_632_plus == pytest.approx(1 - est.estimate_632_plus, abs=1e-12)
    assert acc.no_information == pytest.approx(1 - est.no_information, abs=1e-12)
    assert "BootstrapEstimate(metric='error_rate'" in repr(est)


def test_bootstrap_632_function_and_refusal():
    X, y = CANCER
    b = bootstrap_632(GaussianNB(), X, y, n_bootstraps=10, random_state=0, progress=False)
    assert 0 <= b.apparent <= b.estimate_632 <= b.loo_bootstrap and b.n_bootstraps == 10
    res = cross_evaluate(GaussianNB(), X, y, KFold(3, random_state=0), progress=False)
    with pytest.raises(ValueError, match="fit on all data"):
        res.bootstrap_estimates()
    res = cross_evaluate(GaussianNB(), X, y, KFold(3, random_state=0), apparent=True, progress=False)
    with pytest.raises(ValueError, match="not a bootstrap bag"):
        res.bootstrap_estimates()
