"""clfeval.metrics.ranking against scikit-learn 1.9.1 as an oracle, published reference values,
properties and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clfeval.exceptions import UndefinedMetricWarning
from clfeval.metrics.ranking import (
    auc,
    average_precision_score,
    det_curve,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)
from conftest import (
    assert_same_outcome,
    label_pool,
    oracle_share,
    rarely,
    run_capturing,
    sample_weights,
    with_every_class,
)

sk = pytest.importorskip("sklearn.metrics")

OURS = {
    "roc_curve": roc_curve,
    "precision_recall_curve": precision_recall_curve,
    "det_curve": det_curve,
    "roc_auc_score": roc_auc_score,
    "average_precision_score": average_precision_score,
    "auc": auc,
}
CURVES = ("roc_curve", "precision_recall_curve", "det_curve")


def check_same(name, *args, **kwargs):
    """clfeval's function gives scikit-learn's values (1e-12), shapes, dtypes, warnings, errors."""
    return assert_same_outcome(OURS[name], getattr(sk, name), *args, **kwargs)


def messages(func, *args, **kwargs):
    """The set of warning messages a call emits (the shared harness compares categories)."""
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        try:
            func(*args, **kwargs)
        except Exception:  # noqa: BLE001 - only the warnings matter here
            pass
    return {str(w.message) for w in record if not issubclass(w.category, DeprecationWarning)}


# -- strategies --------------------------------------------------------------------------------

# Label pairs: sklearn's implicit pos_label=1 works for {0, 1} and {-1, 1} only.
LABEL_PAIRS = [
    np.array([0, 1]),
    np.array([-1, 1]),
    *(label_pool(d, 2) for d in ("str", "bool", "float", "uint", "bigint", "object_str")),
]


@st.composite
def binary_data(draw, min_size: int = 1):
    """(y_true, y_score, sample_weight, label pair): ties, integer scores, weights with zeros;
    both classes in y_true but for rare draws (one class: curves warn, det_curve raises)."""
    n = draw(st.integers(min_size, 30))
    pair = draw(st.sampled_from(LABEL_PAIRS))
    y = pair[np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.intp)]
    if not rarely(draw):
        y = draw(with_every_class(y, pair))
        n = len(y)
    score_kind = draw(st.sampled_from(["int", "round", "float"]))
    if score_kind == "int":
        s = draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n))  # int dtype
    elif score_kind == "round":
        s = [round(v, 1) for v in draw(st.lists(st.floats(0, 1), min_size=n, max_size=n))]
    else:
        s = draw(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=n, max_size=n))
    return y, np.array(s), draw(nonzero_weights(n)), pair


@st.composite
def nonzero_weights(draw, n: int):
    """The shared weight strategy (None, int, bool, float, zeros included), never all zero."""
    w = draw(sample_weights(n))
    if w is not None and not w.any():
        w = w.copy()
        w[0] = 1
    return w


@st.composite
def multiclass_data(draw):
    n = draw(st.integers(2, 30))
    k = draw(st.integers(3, 5))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, k, n)
    if not rarely(draw):  # every class in y_true (without labels= scikit-learn needs them all)
        codes = draw(with_every_class(codes, np.arange(k)))
        n = len(codes)
    names = draw(st.sampled_from(["int", "str"]))
    classes = np.arange(k) * 2 if names == "int" else np.array([f"c{i}" for i in range(k)])
    y = classes[codes]
    s = rng.dirichlet(np.ones(k), n)
    if draw(st.booleans()):  # ties
        s = np.round(s, 1)
        s[:, -1] = 1 - s[:, :-1].sum(axis=1)
    labels = None
    if draw(st.booleans()):  # an extra class that no sample has
        extra = np.array([classes[-1] + 2]) if names == "int" else np.array(["zz"])
        labels = np.concatenate([classes, extra])
        s = np.hstack([s * 0.9, np.full((n, 1), 0.1)])
    return y, s, labels, draw(nonzero_weights(n))


@st.composite
def multilabel_data(draw):
    n = draw(st.integers(1, 25))
    m = draw(st.integers(2, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y = rng.integers(0, 2, (n, m))
    s = rng.random((n, m))
    if draw(st.booleans()):
        s = np.round(s, 1)
    return y, s, draw(nonzero_weights(n))


# -- parity: binary ------------------------------------------------------------------------------


def implicit_pos_label_ok(pair) -> bool:
    """scikit-learn's pos_label=None works for classes {0, 1} and {-1, 1} only."""
    return pair.dtype.kind in "biuf" and any(np.array_equal(pair, c) for c in ([0, 1], [-1, 1]))


@oracle_share(0.7)
@given(binary_data(), st.booleans(), st.data())
def test_binary_curves_match_sklearn(data, drop, pick):
    y, s, w, pair = data
    implicit = implicit_pos_label_ok(pair) or rarely(pick.draw)
    pos_label = pick.draw(st.sampled_from(([None] if implicit else []) + [pair[0], pair[1]]))
    for name in CURVES:
        check_same(name, y, s, pos_label=pos_label, sample_weight=w, drop_intermediate=drop)


@oracle_share(0.7)
@given(binary_data(), st.sampled_from([None, 1, 0.5, 0.1, 0.999]))
def test_binary_roc_auc_matches_sklearn(data, max_fpr):
    y, s, w, _ = data
    check_same_partial_auc(y, s, sample_weight=w, max_fpr=max_fpr)


def check_same_partial_auc(*args, **kwargs):
    """check_same for roc_auc_score, but where a label has both classes yet one of them has zero
    total weight, scikit-learn's partial AUC interpolates an all-NaN curve and fails ("At least 2
    points are needed"); clfeval gives NaN there with the warning the full AUC gives."""
    _, error, _ = run_capturing(sk.roc_auc_score, *args, **kwargs)
    if error is not None and "At least 2 points" in str(error):
        with pytest.warns(UndefinedMetricWarning, match="samples in y_true"):
            assert np.isnan(roc_auc_score(*args, **kwargs)).any()
        return
    check_same("roc_auc_score", *args, **kwargs)


@oracle_share(0.7)
@given(binary_data(), st.data())
def test_binary_average_precision_matches_sklearn(data, pick):
    y, s, w, pair = data
    default = any(p == 1 for p in pair.tolist()) or rarely(pick.draw)  # the default pos_label=1
    pos_label = pick.draw(st.sampled_from(([1] if default else []) + [pair[0], pair[1]]))
    average = pick.draw(st.sampled_from(["macro", "micro", "weighted", "samples", None]))
    check_same("average_precision_score", y, s, pos_label=pos_label, sample_weight=w, average=average)


@oracle_share(0.7)
@given(st.integers(2, 40), st.integers(0, 2**32 - 1), st.sampled_from([False] * 9 + [True]))
def test_arbitrary_float_weights_match_sklearn(n, seed, maybe_one_class):
    # Weights with rounding error: sums may differ in the last bit from scikit-learn's
    # per-sample cumulative sums, so compare values (not the collinearity pruning).
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    if not maybe_one_class:  # both classes (det_curve refuses one), but for one draw in ten
        y[rng.choice(n, 2, replace=False)] = [0, 1]
    s = np.round(rng.random(n), 1)
    w = rng.random(n)
    for name in CURVES:
        check_same(name, y, s, sample_weight=w, drop_intermediate=False)
    check_same("roc_auc_score", y, s, sample_weight=w)
    check_same("roc_auc_score", y, s, sample_weight=w, max_fpr=0.3)
    check_same("average_precision_score", y, s, sample_weight=w)


@pytest.mark.parametrize(
    "kind", ["uniform", "rounded", "float32", "ints", "decision", "zeros_and_tiny", "constant"]
)
def test_larger_inputs_match_sklearn(kind):
    rng = np.random.default_rng(11)
    n = 5000
    y = rng.integers(0, 2, n)
    s = {
        "uniform": lambda: rng.random(n) + 0.2 * y,
        "rounded": lambda: np.round(rng.random(n) + 0.2 * y, 2),
        "float32": lambda: (rng.random(n) + 0.2 * y).astype(np.float32),
        "ints": lambda: rng.integers(-50, 50, n) + 5 * y,
        "decision": lambda: rng.normal(size=n) * 1e3 + 100 * y,
        "zeros_and_tiny": lambda: np.where(rng.random(n) < 0.3, 0.0, rng.random(n) ** 200 + y),
        "constant": lambda: np.full(n, 0.5),
    }[kind]()
    for name in CURVES:
        for drop in (True, False):
            check_same(name, y, s, drop_intermediate=drop)
    check_same("roc_auc_score", y, s)
    check_same("roc_auc_score", y, s, max_fpr=0.2)
    check_same("average_precision_score", y, s)


# -- parity: multiclass and multilabel -----------------------------------------------------------


@oracle_share(0.7)
@given(multiclass_data(), st.sampled_from(["ovr", "ovo"]), st.data())
def test_multiclass_roc_auc_matches_sklearn(data, multi_class, pick):
    y, s, labels, w = data
    if rarely(pick.draw):  # any average, refused ones included: 'micro'; None and weights with 'ovo'
        average = pick.draw(st.sampled_from(["macro", "weighted", None, "micro"]))
    else:
        average = pick.draw(st.sampled_from(["macro", "weighted"] + ([None] if multi_class == "ovr" else [])))
        w = None if multi_class == "ovo" else w
    if multi_class == "ovo" and np.unique(y).size == 1 and labels is not None:
        # No pair of classes: scikit-learn averages an empty list (NaN for 'macro', but a
        # ZeroDivisionError for 'weighted'); clfeval says so and gives NaN for both.
        if w is None and average in ("macro", "weighted"):
            with pytest.warns(UndefinedMetricWarning, match="one-vs-one ROC AUC is not defined"):
                assert np.isnan(roc_auc_score(y, s, multi_class="ovo", average=average, labels=labels))
        return
    check_same(
        "roc_auc_score", y, s, multi_class=multi_class, average=average, labels=labels, sample_weight=w
    )


@oracle_share(0.7)
@given(multiclass_data(), st.sampled_from(["macro", "weighted", None, "micro", "samples"]))
def test_multiclass_average_precision_matches_sklearn(data, average):
    y, s, labels, w = data
    if labels is not None:  # average_precision_score has no labels=: use y_true's classes
        s = s[:, :-1] / s[:, :-1].sum(axis=1, keepdims=True)
    check_same("average_precision_score", y, s, average=average, sample_weight=w)


@oracle_share(0.7)
@given(
    multilabel_data(),
    st.sampled_from(["macro", "weighted", None, "micro", "samples"]),
    st.sampled_from([None, 0.3, 1.0]),
)
def test_multilabel_matches_sklearn(data, average, max_fpr):
    y, s, w = data
    check_same_partial_auc(y, s, average=average, sample_weight=w, max_fpr=max_fpr)
    check_same("average_precision_score", y, s, average=average, sample_weight=w)


def test_larger_multiclass_matches_sklearn():
    rng = np.random.default_rng(5)
    n, k = 20000, 6
    y = rng.integers(0, k, n)
    s = rng.random((n, k)) + 0.3 * np.eye(k)[y]
    s[rng.random((n, k)) < 0.05] = 0.0  # zeros: split key parts
    s = s / s.sum(axis=1, keepdims=True)
    for multi_class in ("ovr", "ovo"):
        for average in ("macro", "weighted"):
            check_same("roc_auc_score", y, s, multi_class=multi_class, average=average)
    check_same("roc_auc_score", y, s, multi_class="ovr", average=None, sample_weight=rng.random(n))
    check_same("average_precision_score", y, s, average=None)


def test_auc_matches_sklearn():
    for x, y in (([0, 0.5, 1], [0, 1, 1]), ([1, 0.5, 0], [1, 1, 0]), ([0, 0, 1], [0, 1, 1])):
        check_same("auc", x, y)
    check_same("auc", [0, 1, 0.5], [0, 1, 1])  # not monotonic
    check_same("auc", [0], [0])  # one point
    assert np.isnan(auc([0.0, np.nan, 1.0], [0.0, 1.0, 1.0]))


# -- published reference values -----------------------------------------------------------------


def test_asah_reference_values_from_proc(shared_data):
    path = shared_data / "aSAH.csv"
    if not path.exists():
        pytest.skip(f"aSAH.csv not found in {shared_data}")
    pd = pytest.importorskip("pandas")
    data = pd.read_csv(path)
    # pROC's documentation (roc / roc.test examples): AUCs of the aSAH biomarkers, Poor positive.
    for column, published in (("s100b", 0.7314), ("wfns", 0.8237), ("ndka", 0.6120)):
        value = roc_auc_score(data["outcome"] == "Poor", data[column])
        assert value == pytest.approx(published, abs=5e-5)
        fpr, tpr, _ = roc_curve(data["outcome"], data[column], pos_label="Poor")
        assert auc(fpr, tpr) == pytest.approx(value, rel=1e-12)


# -- properties ----------------------------------------------------------------------------------


@given(binary_data(min_size=2), st.randoms(use_true_random=False))
def test_invariant_to_sample_order(data, rnd):
    y, s, w, pair = data
    order = list(range(y.size))
    rnd.shuffle(order)
    shuffled_w = None if w is None else w[order]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for func in (roc_curve, precision_recall_curve):
            for a, b in zip(
                func(y, s, pos_label=pair[1], sample_weight=w),
                func(y[order], s[order], pos_label=pair[1], sample_weight=shuffled_w),
            ):
                np.testing.assert_allclose(a, b, rtol=1e-12)
        a = roc_auc_score(y, s, sample_weight=w)
        b = roc_auc_score(y[order], s[order], sample_weight=shuffled_w)
    np.testing.assert_allclose(a, b, rtol=1e-12)


@given(binary_data(min_size=2))
def test_auc_in_unit_interval_and_symmetric(data):
    y, s, w, pair = data
    if np.unique(y).size < 2:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = roc_auc_score(y, s, sample_weight=w)
        flipped = roc_auc_score(y, -s, sample_weight=w)
    if np.isnan(value):  # every sample of one class has zero weight
        return
    assert 0.0 <= value <= 1.0
    assert flipped == pytest.approx(1 - value, abs=1e-12)


def test_dataframe_inputs_give_the_same_results():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    y = np.array(["a", "b", "b", "a", "b"])
    s = np.array([0.1, 0.8, 0.4, 0.4, 0.9])
    want = roc_auc_score(y, s)
    for wrap in (pd.Series, pl.Series, pa.array, list):
        assert roc_auc_score(wrap(y), wrap(s)) == want
    assert average_precision_score(pd.Series(y).astype("category"), s, pos_label="b") == pytest.approx(
        average_precision_score(y, s, pos_label="b")
    )


# -- undefined values and bad input --------------------------------------------------------------


def test_single_class_roc_auc_warns_and_is_nan_like_sklearn():
    # scikit-learn 1.9.1 warns and returns NaN here (it does not raise).
    check_same("roc_auc_score", [1, 1, 1], [0.1, 0.2, 0.3])
    for name, args, kwargs in (
        ("roc_auc_score", ([1, 1, 1], [0.1, 0.2, 0.3]), {}),
        ("roc_auc_score", ([0, 1, 0], [0.1, 0.2, 0.3]), {"sample_weight": [1, 0, 1]}),
        ("roc_curve", ([1, 1], [0.1, 0.2]), {}),
        ("roc_curve", ([0, 0], [0.1, 0.2]), {}),
        ("average_precision_score", ([0, 0], [0.1, 0.2]), {}),
        ("roc_auc_score", (np.array([[0, 1], [0, 0]]), np.array([[0.1, 0.2], [0.3, 0.4]])), {}),
    ):
        assert messages(OURS[name], *args, **kwargs) == messages(getattr(sk, name), *args, **kwargs)
    with pytest.warns(UndefinedMetricWarning, match="Only one class is present"):
        assert np.isnan(roc_auc_score([0, 0], [0.1, 0.2]))
    check_same("roc_curve", [1, 1], [0.1, 0.2])
    check_same("precision_recall_curve", [0, 0], [0.1, 0.2])
    check_same("average_precision_score", [0, 0], [0.1, 0.2])
    check_same("det_curve", [1, 1], [0.1, 0.2])


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_scores(bad):
    for name in ("roc_curve", "roc_auc_score", "precision_recall_curve", "average_precision_score", "det_curve"):
        check_same(name, [0, 1, 0], [0.1, bad, 0.3])
        with pytest.raises(ValueError, match="first is at position 1"):
            OURS[name]([0, 1, 0], [0.1, bad, 0.3])


def test_bad_input_errors_are_clear():
    cases = [
        (roc_curve, ([0, 1, 1], [0.1, 0.2]), {}, "inconsistent numbers of samples"),
        (roc_auc_score, ([], []), {}, "empty input"),
        (roc_curve, ([], []), {}, "empty input"),
        (average_precision_score, ([], []), {}, "empty input"),
        (roc_curve, ([0, 1], [[0.1, 0.9], [0.2, 0.8]]), {}, r"y_score\[:, 1\]"),
        (roc_curve, (["a", "b"], [0.1, 0.2]), {}, "pass pos_label="),
        (roc_curve, ([0, 1, 2], [0.1, 0.2, 0.3]), {}, "pass pos_label= to pick"),
        (roc_auc_score, ([0.5, 1.0, 0.0], [0.1, 0.2, 0.3]), {}, "swapped"),
        (roc_auc_score, ([0, 1], [0.1, 0.2]), {"sample_weight": [1.0, -1.0]}, "Weights must be >= 0"),
        (roc_auc_score, ([0, 1], [0.1, 0.2]), {"max_fpr": 0.0}, r"max_fpr must be a number in \(0, 1\]"),
        (roc_auc_score, ([0, 1], [0.1, 0.2]), {"average": "mean"}, "average='mean' is not supported"),
        (roc_auc_score, ([0, 1], [0.1, 0.2]), {"multi_class": "both"}, "multi_class must be"),
        (average_precision_score, (["a", "b"], [0.1, 0.2]), {}, "pos_label=1 is not a valid label"),
        (det_curve, ([0, 1, 2], [0.1, 0.2, 0.3]), {"pos_label": 2}, "exactly two classes"),
        (roc_curve, ([0, 1], [0.1, 0.2]), {"sample_weight": [0.0, 0.0]}, "sample_weight is zero for all"),
        (roc_auc_score, (np.eye(3, dtype=int), np.ones((3, 2))), {}, "same shape as the label-indicator"),
        (auc, ([0, 1, 0.5], [0, 1, 1]), {}, "neither increasing nor decreasing"),
        (auc, ([0], [1]), {}, "at least 2 points"),
    ]
    for func, args, kwargs, message in cases:
        with pytest.raises(ValueError, match=message):
            func(*args, **kwargs)


def test_multiclass_bad_input():
    y = np.array([0, 1, 2, 2])
    s = np.array([[0.6, 0.2, 0.2], [0.2, 0.6, 0.2], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4]])
    cases = [
        ({}, ValueError, r"multi_class='ovr'"),
        ({"multi_class": "ovr", "max_fpr": 0.5}, ValueError, "partial AUC"),
        ({"multi_class": "ovo", "average": "micro"}, ValueError, "not supported"),
        ({"multi_class": "ovr", "average": "samples"}, ValueError, "not supported"),
        ({"multi_class": "ovo", "average": None}, NotImplementedError, "average=None"),
        ({"multi_class": "ovo", "sample_weight": [1, 1, 1, 1]}, ValueError, "sample_weight is not supported"),
        ({"multi_class": "ovr", "labels": [0, 2, 1]}, ValueError, "sorted"),
        ({"multi_class": "ovr", "labels": [0, 1, 1]}, ValueError, "unique"),
        ({"multi_class": "ovr", "labels": [0, 1]}, ValueError, "3 columns"),
    ]
    for kwargs, exc, message in cases:
        with pytest.raises(exc, match=message):
            roc_auc_score(y, s, **kwargs)
        check_same("roc_auc_score", y, s, **kwargs)
    with pytest.raises(ValueError, match=r"row 1 sums to 1\.5"):
        roc_auc_score(y, s + np.array([[0, 0, 0], [0.5, 0, 0], [0, 0, 0], [0, 0, 0]]), multi_class="ovr")
    check_same("roc_auc_score", y, s * 2, multi_class="ovo")
    with pytest.raises(ValueError, match="y_score has 4 columns but y_true has 3 classes"):
        roc_auc_score(y, np.hstack([s, np.zeros((4, 1))]), multi_class="ovr")
    check_same("roc_auc_score", y, np.hstack([s, np.zeros((4, 1))]), multi_class="ovr")
    with pytest.raises(ValueError, match=r"y_true\[2\] = 2 is not in labels \[0, 1, 5\]"):
        roc_auc_score(y, s, multi_class="ovr", labels=[0, 1, 5])
    check_same("roc_auc_score", y, s, multi_class="ovr", labels=[0, 1, 5])
    with pytest.raises(ValueError, match="pos_label is fixed to 1"):
        average_precision_score(y, s, pos_label=2)
    with pytest.raises(ValueError, match=r"shape \(n_samples, n_classes\)"):
        roc_auc_score(y, s[:, 0], multi_class="ovr")


def test_absent_class_with_labels_is_undefined_for_ovr_but_skipped_by_ovo():
    y = np.array([0, 1, 1, 0])
    s = np.array([[0.7, 0.2, 0.1], [0.2, 0.7, 0.1], [0.3, 0.6, 0.1], [0.5, 0.4, 0.1]])
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        assert np.isnan(roc_auc_score(y, s, multi_class="ovr", labels=[0, 1, 2]))
    assert roc_auc_score(y, s, multi_class="ovo", labels=[0, 1, 2]) == 1.0
    check_same("roc_auc_score", y, s, multi_class="ovr", labels=[0, 1, 2], average="weighted")
