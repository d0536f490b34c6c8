"""Parity of the scikit-learn 1.9 additions with scikit-learn as the oracle, plus hand-computed values.

d2_log_loss_score, d2_brier_score, hinge_loss, coverage_error, label_ranking_average_precision_score,
label_ranking_loss, dcg_score and ndcg_score: same values (1e-12), same warnings (class name and
message, in order) and the same error class as scikit-learn on inputs that reach ties, zero weights,
absent classes, all-zero and all-one label rows, every k and single samples.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import call_recording

from clfeval import metrics as cm

skm = pytest.importorskip("sklearn.metrics")

FUNCTIONS = [
    "d2_log_loss_score", "d2_brier_score", "hinge_loss", "coverage_error",
    "label_ranking_average_precision_score", "label_ranking_loss", "dcg_score", "ndcg_score",
]


def _run(func: Callable, args: tuple, kwargs: dict) -> tuple[Any, BaseException | None, list[tuple[str, str]]]:
    result, exc, records = call_recording(func, *args, **kwargs)
    return result, exc, [(r.category.__name__, str(r.message)) for r in records]


def same(name: str, *args: Any, **kwargs: Any) -> Any:
    """clfeval's and scikit-learn's ``name`` agree: value to 1e-12, warnings (class, message), error class."""
    exp, exp_exc, exp_warn = _run(getattr(skm, name), args, kwargs)
    got, got_exc, got_warn = _run(getattr(cm, name), args, kwargs)
    call = f"{name}(*{args!r}, **{kwargs!r})"
    if exp_exc is not None:
        cls = (ValueError, TypeError) if type(exp_exc).__name__ == "InvalidParameterError" else type(exp_exc)
        assert isinstance(got_exc, cls), f"{call}: sklearn raised {exp_exc!r}, clfeval gave {got_exc or got!r}"
        return None
    assert got_exc is None, f"{call}: clfeval raised {got_exc!r}, sklearn returned {exp!r}"
    assert type(got) is float, f"{call}: {type(got)}"
    np.testing.assert_allclose(got, exp, rtol=1e-12, atol=1e-12, equal_nan=True, err_msg=call)
    assert got_warn == exp_warn, f"{call}: warnings {got_warn} != sklearn's {exp_warn}"
    return got


# -------------------------------------------------------------------------------------------------
# strategies

PROBS = [0.0, 0.1, 0.25, 0.5, 0.5, 0.75, 0.9, 1.0]  # repeated values: ties; 0 and 1: clipping


@st.composite
def weights(draw: st.DrawFn, n: int) -> np.ndarray | None:
    kind = draw(st.sampled_from(["none", "int", "float"]))
    if kind == "none":
        return None
    if kind == "int":
        return np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), dtype=np.int64)
    values = st.one_of(st.just(0.0), st.floats(0.01, 10.0))
    return np.array(draw(st.lists(values, min_size=n, max_size=n)))


@st.composite
def probabilistic_inputs(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, dict]:
    """Binary (1-D or 2-column), multiclass (some classes absent, labels given) or multilabel."""
    kind = draw(st.sampled_from(["binary", "binary2", "multiclass", "multilabel"]))
    n = draw(st.integers(1, 12))
    k = 2 if kind.startswith("binary") else draw(st.integers(3, 4))
    codes = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    kwargs: dict = {"sample_weight": draw(weights(n))}
    if kind == "multilabel":
        y = np.array(draw(st.lists(st.integers(0, 1), min_size=n * k, max_size=n * k))).reshape(n, k)
        proba = np.array(draw(st.lists(st.sampled_from(PROBS), min_size=n * k, max_size=n * k))).reshape(n, k)
        return y, proba, kwargs
    y = np.array(["ant", "bee", "cat", "dog"])[codes] if draw(st.booleans()) else codes * 2 - (kind != "multiclass")
    raw = np.array(draw(st.lists(st.integers(0, 4), min_size=n * k, max_size=n * k)), float).reshape(n, k)
    raw[raw.sum(axis=1) == 0, 0] = 1.0
    proba = raw / raw.sum(axis=1, keepdims=True)
    if kind == "binary":
        proba = np.array(draw(st.lists(st.sampled_from(PROBS), min_size=n, max_size=n)))
    if draw(st.booleans()):
        kwargs["labels"] = np.unique(np.array(["ant", "bee", "cat", "dog"])[:k] if y.dtype.kind == "U"
                                     else np.arange(k) * 2 - (kind != "multiclass"))
    return y, proba, kwargs


@st.composite
def indicator_inputs(draw: st.DrawFn, min_labels: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(y_true 0/1, y_score with ties, weights); rows with no or all labels relevant are common."""
    n = draw(st.integers(1, 8))
    m = draw(st.integers(min_labels, 6))
    density = draw(st.sampled_from([0.0, 0.3, 0.7, 1.0]))
    cells = draw(st.lists(st.floats(0, 1), min_size=n * m, max_size=n * m))
    y = (np.array(cells) < density).reshape(n, m).astype(np.int64)
    if draw(st.booleans()):  # a free mix of rows
        y = np.array(draw(st.lists(st.integers(0, 1), min_size=n * m, max_size=n * m))).reshape(n, m)
    grid = draw(st.sampled_from([[0.0, 1.0], [0.1, 0.2, 0.3, 0.3, 0.9], [-2.0, 0.0, 0.5, 3.0, 3.0, 7.5]]))
    s = np.array(draw(st.lists(st.sampled_from(grid), min_size=n * m, max_size=n * m))).reshape(n, m)
    if draw(st.booleans()):
        s = s + np.array(draw(st.lists(st.floats(0, 1e-3), min_size=n * m, max_size=n * m))).reshape(n, m)
    return y, s, draw(weights(n))


# -------------------------------------------------------------------------------------------------
# exports and doctests


def test_every_name_is_exported_with_an_example():
    for name in FUNCTIONS:
        func = getattr(cm, name)
        assert name in cm.__all__
        assert ">>> " in func.__doc__, name
        assert func.__module__.startswith("clfeval.metrics.")


def test_signatures_match_sklearn():
    import inspect

    for name in FUNCTIONS:
        ours, theirs = inspect.signature(getattr(cm, name)), inspect.signature(getattr(skm, name))
        assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == [
            (p.name, p.kind, p.default) for p in theirs.parameters.values()
        ], name


# -------------------------------------------------------------------------------------------------
# D^2 scores


@settings(max_examples=150)
@given(probabilistic_inputs())
def test_d2_scores_match_sklearn(case):
    y, proba, kwargs = case
    same("d2_log_loss_score", y, proba, **kwargs)
    brier_kwargs = dict(kwargs)
    if proba.ndim == 1 and y.dtype.kind == "U":
        brier_kwargs["pos_label"] = "bee"
    if proba.ndim == 1:
        brier_kwargs.pop("labels", None)
    same("d2_brier_score", y, proba, **brier_kwargs)


def test_d2_by_hand():
    # y = [0, 1, 1, 0], p = [.2, .7, .6, .4]: prior predicts 0.5 everywhere
    model_ll = -(math.log(0.8) + math.log(0.7) + math.log(0.6) + math.log(0.6))
    assert cm.d2_log_loss_score([0, 1, 1, 0], [0.2, 0.7, 0.6, 0.4]) == pytest.approx(
        1 - model_ll / (4 * math.log(2)), rel=1e-13
    )
    # Brier: model mean (.04 + .09 + .16 + .16) / 4 = .1125, prior .25: 1 - .45 = .55
    assert cm.d2_brier_score([0, 1, 1, 0], [0.2, 0.7, 0.6, 0.4]) == pytest.approx(0.55, rel=1e-13)
    # weights move the prior: weights [1, 1, 3, 1] make the prior 4/6 for class 1
    w = [1, 1, 3, 1]
    prior = 4 / 6
    model = (0.04 + 0.09 + 3 * 0.16 + 0.16) / 6
    null = (2 * prior**2 + 4 * (1 - prior) ** 2) / 6
    assert cm.d2_brier_score([0, 1, 1, 0], [0.2, 0.7, 0.6, 0.4], sample_weight=w) == pytest.approx(
        1 - model / null, rel=1e-13
    )
    # multiclass with an absent class (labels given): the prior gives it probability 0 (clipped)
    y, p = [0, 2, 0, 2], [[0.2, 0.7, 0.1], [0.6, 0.2, 0.2], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4]]
    model_ll = -(math.log(0.2) + math.log(0.2) + math.log(0.1) + math.log(0.4))
    assert cm.d2_log_loss_score(y, p, labels=[0, 1, 2]) == pytest.approx(1 - model_ll / (4 * math.log(2)), rel=1e-13)


def test_d2_warnings_and_errors_are_sklearns():
    # one sample: UndefinedMetricWarning and NaN, before any other check
    assert math.isnan(same("d2_log_loss_score", [1], [0.3]))
    assert math.isnan(same("d2_brier_score", [1], [0.3]))
    assert math.isnan(same("d2_log_loss_score", [], []))
    # the y_pred deprecation (FutureWarning, same message), also with a single sample
    assert same("d2_log_loss_score", [0, 1, 1], y_pred=[0.1, 0.8, 0.4]) == pytest.approx(
        cm.d2_log_loss_score([0, 1, 1], [0.1, 0.8, 0.4]), rel=1e-15
    )
    assert math.isnan(same("d2_log_loss_score", [1], y_pred=[0.3]))
    with pytest.warns(FutureWarning, match="`y_pred` was renamed to `y_proba`"):
        cm.d2_log_loss_score([0, 1], y_pred=[0.1, 0.8])
    same("d2_log_loss_score", [0, 1], [0.1, 0.8], y_pred=[0.1, 0.8])  # both: ValueError
    with pytest.raises(ValueError, match="Cannot use both"):
        cm.d2_log_loss_score([0, 1], [0.1, 0.8], y_pred=[0.1, 0.8])
    same("d2_log_loss_score", [0, 1])  # no probabilities: TypeError
    same("d2_log_loss_score", [1, 1], [0.3, 0.4])  # one class, no labels
    same("d2_log_loss_score", [1, 0], [0.3])  # lengths differ
    same("d2_log_loss_score", [0, 1, 1, 0], [0.2, 0.7, 0.6, 1.4])  # above 1
    same("d2_log_loss_score", [0, 1, 2], [[0.2, 0.8], [0.5, 0.5], [0.1, 0.9]])  # 3 classes, 2 columns
    same("d2_log_loss_score", [0, 1, 0, 1], [0.2, 0.7, 0.6, 0.4], sample_weight=[0, 0, 0, 0])
    same("d2_log_loss_score", [0, 2, 1], [[0.2, 0.7, 0.1], [0.6, 0.2, 0.2], [0.1, 0.1, 0.9]])  # sums
    same("d2_brier_score", ["a", "b", "b"], [0.2, 0.7, 0.6])  # strings need pos_label
    same("d2_brier_score", [0, 1, 1], [0.2, 0.7, 1.6])
    # one class only: the prior is perfect, so sklearn divides by zero (-inf, numpy's warning)
    assert same("d2_brier_score", [1, 1], [0.3, 0.4]) == -math.inf
    assert math.isnan(same("d2_brier_score", [1, 1], [1.0, 1.0]))
    assert same("d2_brier_score", [0, 1, 1, 0], [0.2, 0.7, 0.6, 0.4], sample_weight=[0, 1, 1, 0]) == -math.inf
    # one class with float weights: the prior's share of it is a hair below 1 in scikit-learn's
    # arithmetic (column sums of the weighted one-hot matrix), so a perfect model scores 1, not NaN
    w = [8.060357075271236, 6.303177554434782, 3.6269685705784838, 0.0, 0.2648454890397234, 0.0, 0.0,
         4.770740056373494, 1.2762068649606961]
    assert same("d2_brier_score", [-1] * 9, [0.0] * 9, sample_weight=w) == 1.0


# -------------------------------------------------------------------------------------------------
# hinge loss


@st.composite
def hinge_inputs(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, dict]:
    n = draw(st.integers(1, 12))
    k = draw(st.sampled_from([1, 2, 2, 3, 4]))
    codes = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    pool = draw(st.sampled_from([np.array([-1, 1, 3, 4]), np.array([0, 1, 2, 3]), np.array(["a", "b", "c", "d"])]))
    y = pool[codes]
    values = st.sampled_from([-2.0, -1.0, -0.5, 0.0, 0.0, 0.5, 1.0, 1.0, 2.5])
    kwargs: dict = {"sample_weight": draw(weights(n))}
    if k > 2 or (k == 2 and draw(st.booleans()) and draw(st.booleans())):
        kk = max(k, 3)
        decision = np.array(draw(st.lists(values, min_size=n * kk, max_size=n * kk))).reshape(n, kk)
        if draw(st.booleans()) or k < 3:
            kwargs["labels"] = pool[:kk]
    else:
        decision = np.array(draw(st.lists(values, min_size=n, max_size=n)))
    return y, decision, kwargs


@settings(max_examples=150)
@given(hinge_inputs())
def test_hinge_loss_matches_sklearn(case):
    y, decision, kwargs = case
    same("hinge_loss", y, decision, **kwargs)


def test_hinge_by_hand():
    # binary: margins -1*-2.18, 1*2.36, 1*0.09 -> losses 0, 0, 0.91
    assert cm.hinge_loss([-1, 1, 1], [-2.18, 2.36, 0.09]) == pytest.approx(0.91 / 3, rel=1e-13)
    # multiclass (Crammer-Singer): margins 1-3=-2, 1-3=-2, 0-0=0 -> losses 3, 3, 1
    assert cm.hinge_loss([0, 2, 1], [[1, 2, 3], [3, 2, 1], [0, 0, 0]]) == pytest.approx(7 / 3, rel=1e-13)
    # weights: losses [0, 0, 0.91] weighted [1, 1, 2]
    assert cm.hinge_loss([-1, 1, 1], [-2.18, 2.36, 0.09], sample_weight=[1, 1, 2]) == pytest.approx(1.82 / 4)
    # an absent class named in labels
    assert cm.hinge_loss([0, 2, 0], [[1, 2, 3], [3, 2, 1], [0, 0, 0]], labels=[0, 1, 2]) == pytest.approx(7 / 3)


def test_hinge_errors_are_sklearns():
    d3 = [[1, 2, 3], [3, 2, 1], [0, 0, 0.0]]
    same("hinge_loss", [0, 2, 0], d3)  # absent class, no labels: read as binary, 2-D decision
    same("hinge_loss", [0, 2, 0], d3, labels=[0, 1, 2, 3])  # labels mismatch the columns
    same("hinge_loss", [0, 1, 2], [[1, 2, 3, 4], [3, 2, 1, 0], [0, 0, 0, 0.0]])  # 4 columns, 3 classes
    same("hinge_loss", [0, 2, 5], d3, labels=[0, 1, 2])  # a label outside labels
    same("hinge_loss", [0, 2, 1], [1, 2, 3])  # multiclass with 1-D decisions
    same("hinge_loss", [0, 1, 1], [1, 2])
    same("hinge_loss", [0, 1, 1], [1, 2, np.inf])
    same("hinge_loss", [0, 1, 1], [1, 2, 3], sample_weight=[0, 0, 0])  # ZeroDivisionError
    same("hinge_loss", [0.5, 1.5, 1.5], [1, 2, 3])  # continuous targets
    same("hinge_loss", [], [])
    # quirks kept: one class is all -1; three classes with two labels: the smallest class is +1
    assert same("hinge_loss", [1, 1, 1], [-2.18, 2.36, 0.09]) == pytest.approx((3.36 + 1.09) / 3)
    assert same("hinge_loss", [0, 1, 2], [-2.18, 2.36, 0.09], labels=[0, 1]) == pytest.approx(7.63 / 3)


# -------------------------------------------------------------------------------------------------
# multilabel ranking


@settings(max_examples=200)
@given(indicator_inputs(), st.booleans())
def test_multilabel_ranking_matches_sklearn(case, sparse):
    y, s, w = case
    same("coverage_error", y, s, sample_weight=w)
    y_in = sp.csr_array(y) if sparse else y
    same("label_ranking_average_precision_score", y_in, s, sample_weight=w)
    same("label_ranking_loss", y_in, s, sample_weight=w)


def test_multilabel_ranking_by_hand():
    y = [[1, 0, 0], [0, 0, 1]]
    s = [[0.75, 0.5, 1], [1, 0.2, 0.1]]
    # coverage: row 1 needs labels scored >= .75 (2), row 2 needs all 3
    assert cm.coverage_error(y, s) == 2.5
    # LRAP: row 1, the relevant label has rank 2, one relevant at or above: 1/2; row 2: 1/3
    assert cm.label_ranking_average_precision_score(y, s) == pytest.approx((1 / 2 + 1 / 3) / 2, rel=1e-15)
    # ranking loss: row 1, 1 of 2 pairs wrong; row 2, 2 of 2
    assert cm.label_ranking_loss(y, s) == 0.75
    # ties: a relevant label tied with an irrelevant one shares the worse rank and counts as wrong
    yt, st_ = [[1, 0, 1, 0]], [[0.5, 0.5, 0.9, 0.1]]
    assert cm.coverage_error(yt, st_) == 3.0
    assert cm.label_ranking_average_precision_score(yt, st_) == pytest.approx((1 / 1 + 2 / 3) / 2, rel=1e-15)
    assert cm.label_ranking_loss(yt, st_) == 0.25
    # rows with no relevant label, or all: coverage 0, LRAP 1, ranking loss 0
    assert cm.coverage_error([[0, 0], [1, 1]], [[0.1, 0.2], [0.3, 0.4]]) == 1.0
    assert cm.label_ranking_average_precision_score([[0, 0], [1, 1]], [[0.1, 0.2], [0.3, 0.4]]) == 1.0
    assert cm.label_ranking_loss([[0, 0], [1, 1]], [[0.1, 0.2], [0.3, 0.4]]) == 0.0


def test_multilabel_ranking_errors_and_warnings_are_sklearns():
    y, s = np.array([[1, 0, 0], [0, 1, 1]]), np.array([[0.5, 0.2, 0.1], [0.3, 0.3, 0.9]])
    for name in ("coverage_error", "label_ranking_average_precision_score", "label_ranking_loss"):
        same(name, y, s[:, :2])  # shapes differ
        same(name, y, s[:1])  # lengths differ
        same(name, [0, 1], [0.2, 0.3])  # 1-D
        same(name, y * 0.5, s)  # continuous
        same(name, y, s * np.nan)
        same(name, np.zeros((0, 3)), np.zeros((0, 3)))
        same(name, [[1, 2, 1], [2, 1, 1]], s)  # any two integral values make an indicator
        same(name, [[0], [1]], [[0.2], [0.3]])  # one column: binary (LRAP accepts it)
        same(name, y, s, sample_weight=[1, 2])
    same("coverage_error", y, s, sample_weight=[0, 0])  # ZeroDivisionError
    same("label_ranking_loss", y, s, sample_weight=[0, 0])
    # LRAP divides by the zero total weight: NaN with numpy's warning
    assert math.isnan(same("label_ranking_average_precision_score", y, s, sample_weight=[0, 0]))
    same("coverage_error", sp.csr_array(y), s)  # sparse y_true is refused here only


# -------------------------------------------------------------------------------------------------
# DCG and NDCG


@st.composite
def gain_inputs(draw: st.DrawFn, negative: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, int | None]:
    n = draw(st.integers(1, 8))
    m = draw(st.integers(2, 7))
    lo = -2 if negative else 0
    kind = draw(st.sampled_from(["binary", "graded", "float"]))
    if kind == "float":
        y = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.25, 3.0] + ([-1.5] if negative else [])),
                                   min_size=n * m, max_size=n * m))).reshape(n, m)
    else:
        hi = 1 if kind == "binary" else 4
        y = np.array(draw(st.lists(st.integers(0 if kind == "binary" else lo, hi),
                                   min_size=n * m, max_size=n * m))).reshape(n, m)
    grid = draw(st.sampled_from([[0, 1], [0.1, 0.2, 0.3, 0.3, 0.9], [-2.0, 0.0, 0.5, 3.0, 7.5]]))
    s = np.array(draw(st.lists(st.sampled_from(grid), min_size=n * m, max_size=n * m))).reshape(n, m)
    k = draw(st.one_of(st.none(), st.integers(1, m + 1)))
    return y, s, draw(weights(n)), k


@settings(max_examples=150)
@given(gain_inputs(negative=True), st.booleans(), st.sampled_from([2, 10, math.e, 0.5]))
def test_dcg_matches_sklearn(case, ignore_ties, log_base):
    y, s, w, k = case
    same("dcg_score", y, s, k=k, log_base=log_base, sample_weight=w, ignore_ties=ignore_ties)


@settings(max_examples=150)
@given(gain_inputs(negative=False), st.booleans())
def test_ndcg_matches_sklearn(case, ignore_ties):
    y, s, w, k = case
    same("ndcg_score", y, s, k=k, sample_weight=w, ignore_ties=ignore_ties)


def test_dcg_ties_with_integer_scores_follow_numpys_order():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 4, size=(30, 40))
    s = rng.integers(0, 3, size=(30, 40))  # many ties, integer dtype
    for k in (None, 5):
        same("dcg_score", y, s, k=k, ignore_ties=True)
        same("ndcg_score", y, s, k=k, ignore_ties=True)
        same("dcg_score", y, s, k=k)


def test_dcg_by_hand():
    # gains [3, 2, 0] ranked by scores [.9, .1, .5] -> order 3, 0, 2: 3/log2(2) + 0 + 2/log2(4) = 4
    assert cm.dcg_score([[3, 2, 0]], [[0.9, 0.1, 0.5]]) == pytest.approx(4.0, rel=1e-15)
    assert cm.dcg_score([[3, 2, 0]], [[0.9, 0.1, 0.5]], k=1) == pytest.approx(3.0, rel=1e-15)
    # ideal order 3, 2, 0: 3 + 2/log2(3)
    assert cm.ndcg_score([[3, 2, 0]], [[0.9, 0.1, 0.5]]) == pytest.approx(4 / (3 + 2 / math.log2(3)), rel=1e-14)
    # tie between the first two: both get the average gain (3 + 2) / 2 over discounts 1 and 1/log2(3)
    tied = 2.5 * (1 + 1 / math.log2(3))
    assert cm.dcg_score([[3, 2, 0]], [[0.9, 0.9, 0.5]]) == pytest.approx(tied, rel=1e-14)
    # with k=1 the tie group's discount is cut after the first rank: 2.5 * 1
    assert cm.dcg_score([[3, 2, 0]], [[0.9, 0.9, 0.5]], k=1) == pytest.approx(2.5, rel=1e-14)
    # log base 10 scales every discount by log(10)/log(2)... inverse: 3/log10(2) + 2/log10(4)
    assert cm.dcg_score([[3, 2, 0]], [[0.9, 0.1, 0.5]], log_base=10) == pytest.approx(
        3 / math.log10(2) + 2 / math.log10(4), rel=1e-14
    )
    # an all-zero row scores 0 in NDCG
    assert cm.ndcg_score([[0, 0, 0], [1, 0, 0]], [[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]]) == 0.5


def test_dcg_errors_and_warnings_are_sklearns():
    y, s = np.array([[1, 0, 0], [0, 1, 1]]), np.array([[0.5, 0.2, 0.1], [0.3, 0.3, 0.9]])
    same("ndcg_score", [[-1, 2, 1]], [[0.1, 0.2, 0.3]])  # negative gains
    same("ndcg_score", [-1, 2, 1], [0.1, 0.2, 0.3])
    same("ndcg_score", [[1], [0]], [[0.1], [0.2]])  # one document
    for name in ("dcg_score", "ndcg_score"):
        same(name, y, s, k=0)
        same(name, y, s, k=1.0)
        same(name, y, s, ignore_ties=1)
        same(name, y, s, sample_weight=[0, 0])
        same(name, [0, 1], [0.2, 0.3])
        same(name, y, s[:, :2])
        same(name, y, s[:1])
        same(name, y, s * np.nan)
        same(name, sp.csr_array(y), s)
        same(name, y, s, k=10)
    same("dcg_score", y, s, log_base=0)
    assert same("dcg_score", y, s, log_base=1) == 0.0  # every discount 1/inf, numpy's warning


@pytest.mark.parametrize("name", ["label_ranking_average_precision_score", "dcg_score", "ndcg_score",
                                  "coverage_error", "label_ranking_loss"])
def test_unsigned_scores_rank_as_the_same_numbers_as_floats(name):
    """scikit-learn negates the scores to sort them; for uint8 a 0 stays 0 and ranks first (LRAP
    0.5417, nDCG 0.662 here, 1.0 as floats). clfeval ranks unsigned scores as the numbers they are."""
    y = np.array([[1, 0, 0], [0, 1, 1]])
    s = np.array([[3, 0, 1], [0, 2, 5]], dtype=np.uint8)
    f = getattr(cm, name)
    assert f(y, s) == f(y, s.astype(np.float64))
