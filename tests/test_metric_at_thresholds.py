"""confusion_matrix_at_thresholds and metric_at_thresholds against scikit-learn 1.9 (the oracle).

Values to 1e-12, dtypes, threshold order, warnings (class and message) and error classes; the
sweep path of known label metrics equals calling the metric at every threshold.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sklearn_metrics = pytest.importorskip("sklearn.metrics")

import clfeval.metrics as cm  # noqa: E402
from clfeval.metrics.at_thresholds import known_metric  # noqa: E402

from conftest import call_recording, sample_weights  # noqa: E402

SK_KNOWN = [
    "precision_score", "recall_score", "f1_score", "fbeta_score", "jaccard_score", "accuracy_score",
    "zero_one_loss", "hamming_loss", "balanced_accuracy_score", "matthews_corrcoef", "cohen_kappa_score",
]
CLFEVAL_ONLY = ["specificity_score", "npv_score", "fallout_score", "error_rate"]


def outcome(func, *args, **kwargs) -> tuple[Any, BaseException | None, set[tuple[str, str]]]:
    """(result, exception, {(warning class, message)}) of one call, every warning recorded."""
    result, exc, records = call_recording(func, *args, **kwargs)
    return result, exc, {(r.category.__name__, str(r.message)) for r in records}


def assert_arrays(got, exp, atol: float = 1e-12) -> None:
    assert len(got) == len(exp)
    for g, e in zip(got, exp):
        assert isinstance(g, np.ndarray) and g.dtype == e.dtype and g.shape == e.shape, (g, e)
        np.testing.assert_allclose(g.astype(float), e.astype(float), rtol=1e-12, atol=atol, equal_nan=True)


def assert_same(ours, theirs, *args, atol: float = 1e-12, messages: bool = True, **kwargs):
    exp, exp_exc, exp_warn = outcome(theirs, *args, **kwargs)
    got, got_exc, got_warn = outcome(ours, *args, **kwargs)
    if exp_exc is not None:
        cls = type(exp_exc)
        if cls.__name__ == "InvalidParameterError":  # scikit-learn's ValueError and TypeError
            cls = (ValueError, TypeError)
        assert isinstance(got_exc, cls), (exp_exc, got_exc)
        return None
    assert got_exc is None, got_exc
    assert_arrays(got, exp, atol)
    if messages:
        assert got_warn == exp_warn
    else:  # classes only; numpy's 0/0 noise in scikit-learn is clfeval's UndefinedMetricWarning
        exp_classes = {c for c, _ in exp_warn}
        if "RuntimeWarning" in exp_classes:
            exp_classes = (exp_classes - {"RuntimeWarning"}) | {"UndefinedMetricWarning"}
        assert {c for c, _ in got_warn} == exp_classes
    return got


@st.composite
def scored(draw, labels=("01",)):
    """(y_true, y_score, sample_weight): ties (scores from a small pool) or continuous scores,
    one class only, all-equal scores, zero and float weights; labels of several types."""
    n = draw(st.integers(1, 25))
    kind = draw(st.sampled_from(labels))
    codes = np.array(draw(st.lists(st.integers(0, 1 if kind != "multi" else 2), min_size=n, max_size=n)))
    if kind == "01":
        dtype = draw(st.sampled_from([np.int64, np.float64, bool, np.int32]))
        y = codes.astype(dtype)
    elif kind == "pm1":
        y = np.where(codes == 1, 1, -1)
    elif kind == "str":
        y = np.array(["neg", "pos"])[codes]
    else:  # multi
        y = np.array([3, 7, 9])[codes]
    pool = draw(st.sampled_from(["ties", "continuous", "equal", "int", "float32"]))
    if pool == "ties":
        s = np.array(draw(st.lists(st.sampled_from([0.1, 0.25, 0.5, 0.9]), min_size=n, max_size=n)))
    elif pool == "continuous":
        s = np.array(draw(st.lists(st.floats(-5, 5), min_size=n, max_size=n)))
    elif pool == "equal":
        s = np.full(n, 0.5)
    elif pool == "int":
        s = np.array(draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n)))
    else:
        s = np.array(draw(st.lists(st.sampled_from([0.1, 0.2, 0.7]), min_size=n, max_size=n)), dtype=np.float32)
    return y, s, draw(sample_weights(n))


# --------------------------------------------------------------------------------------------
# confusion_matrix_at_thresholds
# --------------------------------------------------------------------------------------------
def test_confusion_matrix_at_thresholds_hand_example():
    tns, fps, fns, tps, thr = cm.confusion_matrix_at_thresholds(
        [1, 0, 1, 1, 0], [0.9, 0.9, 0.3, 0.5, 0.1], sample_weight=[1, 2, 0, 1, 1]
    )
    # 0.3 carries zero weight: no threshold; at 0.9 the 1 (w 1) and the 0 (w 2) are predicted positive
    assert thr.tolist() == [0.9, 0.5, 0.1]
    assert tps.tolist() == [1.0, 2.0, 2.0] and fps.tolist() == [2.0, 2.0, 3.0]
    assert fns.tolist() == [1.0, 0.0, 0.0] and tns.tolist() == [1.0, 1.0, 0.0]
    assert all(a.dtype == np.float64 for a in (tns, fps, fns, tps))


@given(scored(labels=("01", "pm1", "str", "multi")), st.sampled_from([None, "given"]))
def test_confusion_matrix_at_thresholds_parity(data, pos):
    y, s, w = data
    pos_label = None if pos is None else y[0].item()
    total = 1.0 if w is None else max(float(np.sum(w)), 1.0)
    assert_same(cm.confusion_matrix_at_thresholds, sklearn_metrics.confusion_matrix_at_thresholds,
                y, s, pos_label=pos_label, sample_weight=w, atol=1e-12 * total)


@pytest.mark.parametrize(
    "y, s, kwargs",
    [
        ([0, 1, 2], [0.1, 0.2, 0.3], {}),  # multiclass without pos_label
        (["a", "b"], [0.1, 0.2], {}),  # strings without pos_label
        ([0.5, 1.0], [0.1, 0.2], {}),  # continuous y_true
        ([0, 1], [np.inf, 0.2], {}),
        ([0, 1], [np.nan, 0.2], {}),
        ([0, 1, 1], [0.1, 0.2], {}),
        ([0, 1], [0.1, 0.2], {"sample_weight": [0, 0]}),
        ([0, 1], [0.1, 0.2], {"sample_weight": [1.0]}),
        ([0, 1], [0.1, 0.2], {"pos_label": [1]}),
        ([], [], {}),
    ],
)
def test_confusion_matrix_at_thresholds_errors(y, s, kwargs):
    with pytest.raises(ValueError if "pos_label" not in kwargs else (TypeError, ValueError)):
        sklearn_metrics.confusion_matrix_at_thresholds(y, s, **kwargs)
    with pytest.raises(ValueError if "pos_label" not in kwargs else TypeError):
        cm.confusion_matrix_at_thresholds(y, s, **kwargs)


# --------------------------------------------------------------------------------------------
# metric_at_thresholds
# --------------------------------------------------------------------------------------------
@st.composite
def metric_call(draw):
    """(name, metric_params) for a known metric, options reached by the sweep and beyond it."""
    name = draw(st.sampled_from(SK_KNOWN))
    params: dict[str, Any] = {}
    if name in ("precision_score", "recall_score", "f1_score", "fbeta_score", "jaccard_score"):
        params["pos_label"] = draw(st.sampled_from([0, 1, True]))
        zd = ["warn", 0.0, 1.0] + ([np.nan] if name != "jaccard_score" else [])
        params["zero_division"] = draw(st.sampled_from(zd))
        if name == "fbeta_score":
            params["beta"] = draw(st.sampled_from([0.5, 2.0]))
    if name == "cohen_kappa_score":
        params["weights"] = draw(st.sampled_from([None, "linear", "quadratic"]))
        params["replace_undefined_by"] = draw(st.sampled_from([np.nan, 0.0, -1.0]))
    if name in ("accuracy_score", "zero_one_loss") and draw(st.booleans()):
        params["normalize"] = draw(st.booleans())
    if name == "balanced_accuracy_score":
        params["adjusted"] = draw(st.booleans())
    return name, params


@given(scored(), metric_call())
def test_metric_at_thresholds_parity(data, call):
    """scikit-learn's metric through clfeval: the values, thresholds and warnings scikit-learn gives."""
    y, s, w = data
    name, params = call
    func = getattr(sklearn_metrics, name)
    assert_same(cm.metric_at_thresholds, sklearn_metrics.metric_at_thresholds, y, s, func,
                sample_weight=w, metric_params=params, atol=1e-10)


@given(scored(), metric_call())
def test_clfeval_metric_at_thresholds_parity(data, call):
    """clfeval's metric of the same name gives scikit-learn's values and warning classes."""
    y, s, w = data
    name, params = call
    ours = functools.partial(cm.metric_at_thresholds, metric_func=getattr(cm, name))
    theirs = functools.partial(sklearn_metrics.metric_at_thresholds, metric_func=getattr(sklearn_metrics, name))
    assert_same(ours, theirs, y, s, sample_weight=w, metric_params=params, atol=1e-10, messages=False)


@pytest.mark.parametrize(
    "library, name", [("sklearn", n) for n in SK_KNOWN] + [("clfeval", n) for n in SK_KNOWN + CLFEVAL_ONLY]
)
@settings(max_examples=15)
@given(data=scored())
def test_sweep_equals_one_call_per_threshold(library, name, data):
    """The sweep path of each known metric equals calling it at each threshold (the slow path
    of an unknown wrapper): values and warnings with their messages."""
    func = getattr(cm if library == "clfeval" else sklearn_metrics, name)
    params = {"beta": 2.0} if name == "fbeta_score" else {}
    assert known_metric(func, params) is not None
    y, s, w = data
    fast = outcome(cm.metric_at_thresholds, y, s, func, sample_weight=w, metric_params=params)
    slow = outcome(cm.metric_at_thresholds, y, s, lambda t, p, **k: func(t, p, **k), sample_weight=w,
                   metric_params=params)
    if slow[1] is not None:  # all weights zero
        assert type(fast[1]) is type(slow[1])
        return
    assert fast[1] is None, fast[1]
    assert_arrays(fast[0], slow[0], atol=1e-10)
    assert fast[2] == slow[2]


def _disguised(target, calls: list):
    """A wrapper of ``target`` that counts its calls and carries scikit-learn's module and name."""

    def wrapper(*args, **kwargs):
        calls.append(1)
        return target(*args, **kwargs)

    wrapper.__module__ = target.__module__
    wrapper.__qualname__ = wrapper.__name__ = target.__name__
    return wrapper


def _mixed(n: int = 200, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, rng.normal(size=n) + y


@pytest.mark.parametrize(
    "wrap, params",
    [
        (lambda f: f, None),
        (lambda f: functools.partial(f, zero_division=0.0), None),
        (lambda f: functools.partial(functools.partial(f, pos_label=0), average="binary"), {"zero_division": 1.0}),
        (lambda f: f, {"pos_label": 1, "zero_division": np.nan}),
    ],
)
def test_known_metric_takes_the_sweep(wrap, params):
    """A metric recognised by module and name (also through partial and metric_params) is not
    called once per threshold: here not at all (no threshold can warn), yet gives its values."""
    y, s = _mixed()
    calls: list = []
    func = wrap(_disguised(sklearn_metrics.f1_score, calls))
    values, thresholds = cm.metric_at_thresholds(y, s, func, metric_params=params)
    assert thresholds.size == 200 and calls == []
    expected, _ = sklearn_metrics.metric_at_thresholds(y, s, wrap(sklearn_metrics.f1_score), metric_params=params)
    np.testing.assert_allclose(values, expected, rtol=1e-12, atol=0)


def test_warnings_come_from_one_call_per_pattern():
    """One class only: the metric is called once per pattern of empty cells that may warn (here
    one), and the user sees scikit-learn's warning."""
    y, s = np.zeros(50, dtype=int), np.linspace(0, 1, 50)
    calls: list = []
    got = outcome(cm.metric_at_thresholds, y, s, _disguised(sklearn_metrics.recall_score, calls))
    exp = outcome(sklearn_metrics.metric_at_thresholds, y, s, sklearn_metrics.recall_score)
    assert len(calls) == 1
    assert got[2] == exp[2] == {("UndefinedMetricWarning", "Recall is ill-defined and being set to 0.0 due to no "
                                 "true samples. Use `zero_division` parameter to control this behavior.")}
    np.testing.assert_array_equal(got[0][0], exp[0][0])


@pytest.mark.parametrize(
    "func, params",
    [
        (functools.partial(sklearn_metrics.f1_score, average="macro"), None),
        (sklearn_metrics.f1_score, {"labels": [0, 1]}),
        (sklearn_metrics.f1_score, {"sample_weight": np.ones(200)}),
        (functools.partial(sklearn_metrics.fbeta_score, [0] * 200), {"beta": 1.0}),  # positional
        (sklearn_metrics.accuracy_score, {"normalize": False}),
        (sklearn_metrics.balanced_accuracy_score, {"adjusted": True}),
        (sklearn_metrics.class_likelihood_ratios, None),
    ],
)
def test_other_arguments_call_the_metric_per_threshold(func, params):
    """Arguments the sweep does not reproduce: the metric is called at every threshold, as
    scikit-learn calls it (same outcome)."""
    y, s = _mixed()
    if isinstance(func, functools.partial) and func.args:
        y_rows = func.args[0]
        func = functools.partial(sklearn_metrics.fbeta_score, y_rows)
    counted: list = []

    def counting(*a, **k):
        counted.append(1)
        return func(*a, **k)

    out = outcome(cm.metric_at_thresholds, y, s, counting, metric_params=params)
    assert len(counted) == 200 or out[1] is not None
    assert_same(cm.metric_at_thresholds, sklearn_metrics.metric_at_thresholds, y, s, func,
                metric_params=params, messages=True)


def test_unknown_callable_sees_what_scikit_learn_passes():
    """Called once per threshold with y_true (decreasing-score order, ties in input order),
    y_pred (int32, score >= threshold), sample_weight (float64, zero weights left out)."""
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([0.5, 0.5, 0.2, 0.9, 0.5, 0.2])
    w = np.array([1, 2, 0, 3, 1, 2])
    seen: dict[str, list] = {"ours": [], "sklearn": []}

    def recorder(key):
        def metric(y_true, y_pred, *, sample_weight=None, extra=None):
            seen[key].append((y_true.tolist(), y_pred.tolist(), y_pred.dtype, sample_weight.tolist(),
                              sample_weight.dtype, extra))
            return float(y_pred.sum()), extra

        return metric

    got = cm.metric_at_thresholds(y, s, recorder("ours"), sample_weight=w, metric_params={"extra": 7})
    exp = sklearn_metrics.metric_at_thresholds(y, s, recorder("sklearn"), sample_weight=w, metric_params={"extra": 7})
    assert len(seen["ours"]) == 3 and seen["ours"] == seen["sklearn"]
    assert_arrays(got, exp)
    assert got[0].shape == (3, 2)


@pytest.mark.parametrize(
    "args, kwargs",
    [
        (([0, 1], [0.1, 0.2], 3), {}),  # not callable
        (([0, 1], [0.1, 0.2], sklearn_metrics.f1_score), {"metric_params": [1]}),
        (([0, 1], [np.inf, 0.2], sklearn_metrics.f1_score), {}),
        (([0, 1], [0.1, 0.2], sklearn_metrics.f1_score), {"sample_weight": [0, 0]}),
        ((["a", "b"], [0.1, 0.2], sklearn_metrics.f1_score), {}),  # the metric's own error
        (([-1, 1, 1], [0.1, 0.2, 0.3], sklearn_metrics.f1_score), {}),
    ],
)
def test_metric_at_thresholds_errors(args, kwargs):
    exp = outcome(sklearn_metrics.metric_at_thresholds, *args, **kwargs)[1]
    got = outcome(cm.metric_at_thresholds, *args, **kwargs)[1]
    assert exp is not None and got is not None
    expected = (ValueError, TypeError) if type(exp).__name__ == "InvalidParameterError" else type(exp)
    assert isinstance(got, expected), (exp, got)


def test_exported():
    assert {"confusion_matrix_at_thresholds", "metric_at_thresholds"} <= set(cm.__all__)


@pytest.mark.parametrize("fill", [0, 0.0, np.nan])
def test_kappa_replacement_value_as_scikit_learn_returns_it(fill):
    """One class and one threshold: kappa is undefined; scikit-learn returns replace_undefined_by
    as given (an int makes an int array)."""
    args = ([1, 1], [0.5, 0.5], sklearn_metrics.cohen_kappa_score)
    assert_same(cm.metric_at_thresholds, sklearn_metrics.metric_at_thresholds, *args,
                metric_params={"replace_undefined_by": fill})


@pytest.mark.parametrize("args", [(1,), ("b", [1, 2, 3])])
def test_positional_pos_label_and_weights_warn_as_scikit_learn(args):
    """scikit-learn 1.9 still takes pos_label and sample_weight positionally, with a FutureWarning."""
    y = ["a", "b", "b"] if args[0] == "b" else [0, 1, 1]
    got = assert_same(cm.confusion_matrix_at_thresholds, sklearn_metrics.confusion_matrix_at_thresholds,
                      y, [0.1, 0.3, 0.2], *args)
    assert got[4].tolist() == [0.3, 0.2, 0.1]
    with pytest.raises(TypeError):
        cm.confusion_matrix_at_thresholds([0, 1], [0.1, 0.2], 1, None, 3)
