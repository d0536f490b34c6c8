"""top_k_accuracy_score, log_loss and brier_score_loss: parity with scikit-learn, properties of
the additive statistics, hand-computed values and bad input."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

from clfeval.exceptions import UndefinedMetricWarning
from clfeval.metrics.probabilistic import brier_score_loss, log_loss, top_k_accuracy_score
from clfeval.formulas.sums import BrierSum, LogLossSum, SampleSum, TopKHits
from conftest import (
    LABEL_DTYPES,
    assert_same_outcome,
    label_pairs,
    multilabel_pairs,
    oracle_share,
    oracle_weights,
    rarely,
    sample_weights,
    with_every_class,
)

EPS = np.finfo(np.float64).eps
# Probabilities with exact edges, values that get clipped and ordinary values.
PROBA = st.one_of(
    st.sampled_from([0.0, 1.0, 0.5, 1e-300, 1e-17, 1 - 1e-16, 0.25]),
    st.floats(0, 1, allow_subnormal=False),
)


# ---------------------------------------------------------------------------------------------
# helpers


def parity(ours, theirs, *args, **kwargs):
    """Same value (1e-12), warnings and error class as scikit-learn; values are Python floats."""
    result = assert_same_outcome(ours, theirs, *args, **kwargs)
    assert result is None or type(result) is float
    return result


@st.composite
def class_case(draw, min_classes=2, max_classes=5, max_size=25):
    """(sorted class pool, y_true drawn from it, sample weights): y_true has every class of the
    pool (scikit-learn needs them without labels=) but for rare draws that miss some; weights
    are all zero (refused) rarely too."""
    dtypes = LABEL_DTYPES if min_classes <= 2 else tuple(d for d in LABEL_DTYPES if d != "bool")
    y, _, pool = draw(label_pairs(dtypes=dtypes, min_classes=min_classes,
                                  max_classes=max_classes, max_size=max_size))
    if not rarely(draw):
        y = draw(with_every_class(y, pool))
    return pool, y, draw(oracle_weights(len(y)))


def proba_matrix(draw, n, c, normalized=True):
    rows = np.array(draw(st.lists(st.lists(PROBA, min_size=c, max_size=c),
                                  min_size=n, max_size=n)), dtype=float).reshape(n, c)
    if normalized:
        sums = rows.sum(axis=1, keepdims=True)
        rows = np.where(sums > 0, rows / np.where(sums > 0, sums, 1), 1.0 / c)
    return rows


def labels_choice(draw, pool, reorder=True):
    """None, the sorted classes, or (when ``reorder``) the classes in reverse order."""
    return draw(st.sampled_from([None, pool, pool[::-1]] if reorder else [None, pool]))


# ---------------------------------------------------------------------------------------------
# parity with scikit-learn


@oracle_share(0.7)
@given(st.data())
def test_top_k_multiclass_parity(data):
    pool, y, w = data.draw(class_case(min_classes=3))
    c, n = len(pool), len(y)
    # few distinct values -> many ties, to check the tie-breaking order
    values = data.draw(st.sampled_from([[0.0, 1.0, 2.0], [0.1, 0.2], [-3.5, 0.0, 7.25, 1e9]]))
    scores = np.array(data.draw(st.lists(st.sampled_from(values), min_size=n * c,
                                         max_size=n * c))).reshape(n, c)
    parity(top_k_accuracy_score, skm.top_k_accuracy_score, y, scores,
           k=data.draw(st.integers(1, c + 1)), normalize=data.draw(st.booleans()),
           sample_weight=w, labels=labels_choice(data.draw, pool, reorder=False))


@oracle_share(0.7)
@given(st.data())
def test_top_k_binary_parity(data):
    pool, y, w = data.draw(class_case(max_classes=2))
    n = len(y)
    kind = data.draw(st.sampled_from(["proba", "real"]))
    elem = PROBA if kind == "proba" else st.sampled_from([-2.0, -0.0, 0.0, 0.5, 3.0])
    scores = np.array(data.draw(st.lists(elem, min_size=n, max_size=n)))
    parity(top_k_accuracy_score, skm.top_k_accuracy_score, y, scores,
           k=data.draw(st.integers(1, 3)), normalize=data.draw(st.booleans()),
           sample_weight=w, labels=labels_choice(data.draw, pool, reorder=False))


@oracle_share(0.7)
@given(st.data())
def test_log_loss_parity(data):
    pool, y, w = data.draw(class_case())
    n, c = len(y), len(pool)
    if c == 2 and data.draw(st.booleans()):
        proba = np.array(data.draw(st.lists(PROBA, min_size=n, max_size=n)))
    else:
        proba = proba_matrix(data.draw, n, c, normalized=data.draw(st.booleans()))
    parity(log_loss, skm.log_loss, y, proba, normalize=data.draw(st.booleans()),
           sample_weight=w, labels=labels_choice(data.draw, pool))


@oracle_share(0.7)
@given(st.data())
def test_brier_binary_parity(data):
    pool, y, w = data.draw(class_case(max_classes=2))
    proba = np.array(data.draw(st.lists(PROBA, min_size=len(y), max_size=len(y))))
    # pos_label=None works for classes {0, 1} and {-1, 1} only (scikit-learn raises otherwise)
    implicit = pool.dtype.kind in "biuf" and any(
        np.array_equal(pool, c) for c in ([0, 1], [-1, 1], [0], [1], [-1])) or rarely(data.draw)
    pos_label = data.draw(st.sampled_from(([None] if implicit else []) + pool.tolist()))
    parity(brier_score_loss, skm.brier_score_loss, y, proba, sample_weight=w,
           pos_label=pos_label, scale_by_half=data.draw(st.sampled_from(["auto", True, False])))


@oracle_share(0.7)
@given(st.data())
def test_brier_multiclass_parity(data):
    pool, y, w = data.draw(class_case())
    proba = proba_matrix(data.draw, len(y), len(pool), normalized=data.draw(st.booleans()))
    parity(brier_score_loss, skm.brier_score_loss, y, proba, sample_weight=w,
           labels=labels_choice(data.draw, pool),
           scale_by_half=data.draw(st.sampled_from(["auto", True, False])))


@oracle_share(0.7)
@given(st.data())
def test_multilabel_parity(data):
    y, _ = data.draw(multilabel_pairs(min_labels=2, max_labels=4))
    n, n_labels = y.shape
    proba = proba_matrix(data.draw, n, n_labels, normalized=data.draw(st.booleans()))
    w = data.draw(oracle_weights(n))
    parity(log_loss, skm.log_loss, y, proba, sample_weight=w)
    parity(brier_score_loss, skm.brier_score_loss, y, proba, sample_weight=w)


def test_parity_across_blocks_and_float32():
    """Large enough to span several internal row blocks; float32 keeps float32 clipping."""
    rng = np.random.default_rng(0)
    n, c = 300_000, 4
    y = rng.integers(0, c, n)
    proba = rng.dirichlet(np.ones(c) * 0.3, n)
    proba[rng.random(n) < 0.01] = np.eye(c)[0]  # some exact 0/1 (clipped)
    w = rng.random(n)
    for fn, sk in ((log_loss, skm.log_loss), (brier_score_loss, skm.brier_score_loss)):
        parity(fn, sk, y, proba, sample_weight=w)
    parity(top_k_accuracy_score, skm.top_k_accuracy_score, y, proba.round(1), k=2)
    yb, pb = y % 2, proba[:, 0]
    parity(log_loss, skm.log_loss, yb, pb)
    parity(brier_score_loss, skm.brier_score_loss, yb, pb, sample_weight=w)
    p32 = proba.astype(np.float32)
    ours = log_loss(y, p32)
    assert math.isclose(ours, skm.log_loss(y, p32), rel_tol=1e-6)
    # float32 clipping: p = 0 costs -log(eps32), not -log(eps64)
    assert log_loss([1, 0], np.array([0.0, 0.0], np.float32)) == pytest.approx(
        -np.log(np.finfo(np.float32).eps) / 2, rel=1e-7)


def test_dataframe_inputs():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    y = ["b", "a", "c", "a"]
    p = np.array([[0.2, 0.5, 0.3], [0.6, 0.2, 0.2], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4]])
    expected = skm.log_loss(y, p)
    assert log_loss(pd.Series(y, dtype="category"), pd.DataFrame(p)) == pytest.approx(expected)
    assert log_loss(pl.Series(y), p) == pytest.approx(expected)
    assert top_k_accuracy_score(pd.Series(y), pd.DataFrame(p), k=1) == 0.75


# ---------------------------------------------------------------------------------------------
# properties of the statistics


@st.composite
def encoded(draw):
    n = draw(st.integers(2, 40))
    c = draw(st.integers(2, 5))
    codes = np.array(draw(st.lists(st.integers(0, c - 1), min_size=n, max_size=n)))
    proba = proba_matrix(draw, n, c)
    w = draw(sample_weights(n))
    cut = draw(st.integers(1, n - 1))
    return codes, proba, w, cut


def _builders(codes, proba, w):
    return {
        "log": lambda s: LogLossSum.from_encoded(codes[s], proba[s], None if w is None else w[s]),
        "brier": lambda s: BrierSum.from_encoded(codes[s], proba[s], None if w is None else w[s]),
        "topk": lambda s: TopKHits.from_encoded(codes[s], proba[s].round(1), 2,
                                                None if w is None else w[s]),
    }


@given(encoded())
def test_merge_equals_concatenation(case):
    codes, proba, w, cut = case
    for name, build in _builders(codes, proba, w).items():
        whole = build(slice(None))
        merged = build(slice(None, cut)).merge(build(slice(cut, None)))
        assert type(merged) is type(whole)
        assert merged.weight == pytest.approx(whole.weight, rel=1e-12)
        assert merged.total == pytest.approx(whole.total, rel=1e-12, abs=1e-12), name
        if name == "topk" and (w is None or w.dtype.kind == "i"):
            assert merged.total == whole.total and isinstance(whole.total, int)


@given(encoded(), st.randoms(use_true_random=False))
def test_invariant_to_sample_order(case, rnd):
    codes, proba, w, _ = case
    order = np.array(rnd.sample(range(len(codes)), len(codes)))
    w2 = None if w is None else w[order]
    before = _builders(codes, proba, w)
    after = _builders(codes[order], proba[order], w2)
    for name in before:
        a, b = before[name](slice(None)), after[name](slice(None))
        assert a.total == pytest.approx(b.total, rel=1e-12, abs=1e-12), name


@given(st.data())
def test_bounds_and_monotone_in_k(data):
    classes, y, _ = data.draw(class_case(min_classes=3))
    proba = proba_matrix(data.draw, len(y), len(classes))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        accs = [top_k_accuracy_score(y, proba, k=k, labels=classes)
                for k in range(1, len(classes) + 1)]
    assert all(0 <= a <= 1 for a in accs)
    assert accs == sorted(accs) and accs[-1] == 1.0
    loss = log_loss(y, proba, labels=classes)
    assert 0 <= loss <= -np.log(EPS)
    assert 0 <= brier_score_loss(y, proba, labels=classes) <= 2
    assert 0 <= brier_score_loss(y, proba, labels=classes, scale_by_half=True) <= 1


@given(st.data())
def test_integer_weights_equal_repetition(data):
    classes, y, _ = data.draw(class_case(min_classes=3))
    n, c = len(y), len(classes)
    w = np.array(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    if w.sum() == 0:
        w[0] = 1
    proba = proba_matrix(data.draw, n, c)
    rep = np.repeat(np.arange(n), w)
    for fn, kw in ((log_loss, {}), (brier_score_loss, {}), (top_k_accuracy_score, {"k": 2})):
        weighted = fn(y, proba, sample_weight=w, labels=classes, **kw)
        repeated = fn(y[rep], proba[rep], labels=classes, **kw)
        assert weighted == pytest.approx(repeated, rel=1e-12, abs=1e-15)


def test_merge_refuses_mismatched_statistics():
    codes = np.array([0, 1, 2])
    scores = np.eye(3)
    with pytest.raises(ValueError, match="different settings"):
        TopKHits.from_encoded(codes, scores, 1).merge(TopKHits.from_encoded(codes, scores, 2))
    with pytest.raises(ValueError, match="different settings"):
        BrierSum.from_encoded(codes[:2] % 2, scores[:2, 0]).merge(
            BrierSum.from_encoded(codes, scores))
    with pytest.raises(TypeError, match="Cannot merge"):
        LogLossSum.from_encoded(codes, scores).merge(BrierSum.from_encoded(codes, scores))
    with pytest.raises(ZeroDivisionError, match="total sample weight is zero"):
        SampleSum(0, 0).mean()


# ---------------------------------------------------------------------------------------------
# hand-computed values


def test_top_k_hand_computed_and_ties():
    y = [0, 1, 2, 2]
    s = [[0.5, 0.2, 0.2], [0.3, 0.4, 0.2], [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]]
    assert top_k_accuracy_score(y, s, k=2) == 0.75
    assert top_k_accuracy_score(y, s, k=2, normalize=False) == 3.0
    assert top_k_accuracy_score(y, s, k=2, sample_weight=[1, 1, 1, 5]) == 3 / 8
    # all scores tied: the higher class index ranks first
    tied = np.full((3, 3), 0.5)
    assert top_k_accuracy_score([0, 1, 2], tied, k=1) == pytest.approx(1 / 3)  # only class 2
    assert top_k_accuracy_score([0, 1, 2], tied, k=2) == pytest.approx(2 / 3)  # classes 2, 1
    # binary: k=1 thresholds at 0.5 for scores in [0, 1], else at 0; strictly greater
    assert top_k_accuracy_score([0, 1, 1], [0.2, 0.5, 0.9], k=1) == pytest.approx(2 / 3)
    assert top_k_accuracy_score([0, 1, 1], [-1.0, 0.2, 3.0], k=1) == 1.0
    assert top_k_accuracy_score(["no", "yes"], [0.7, 0.9], k=1) == 0.5
    with pytest.warns(UndefinedMetricWarning, match="perfect score"):
        assert top_k_accuracy_score([0, 1], [0.9, 0.1], k=2) == 1.0


def test_log_loss_hand_computed():
    y = ["spam", "ham", "ham", "spam"]
    p = [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]]
    expected = -(np.log(0.9) + np.log(0.9) + np.log(0.8) + np.log(0.65)) / 4
    assert log_loss(y, p) == pytest.approx(expected, rel=1e-15)
    assert log_loss(y, p, normalize=False) == pytest.approx(4 * expected, rel=1e-15)
    # clipping at float64 eps: a sure miss costs -log(eps) = 36.04..., a sure hit ~eps
    assert log_loss([1, 0], [0.0, 0.0], normalize=False) == pytest.approx(
        -np.log(EPS) - np.log1p(-EPS), rel=1e-15)
    # one class present, the other declared through labels
    assert log_loss([1, 1], [0.8, 0.6], labels=[0, 1]) == pytest.approx(
        -(np.log(0.8) + np.log(0.6)) / 2)
    # multilabel indicator: -sum of log p over the labels marked 1
    assert log_loss([[1, 1, 0], [0, 0, 1]], [[0.5, 0.25, 0.25], [0.5, 0.25, 0.25]]) == (
        pytest.approx(-(np.log(0.5) + np.log(0.25) + np.log(0.25)) / 2))


def test_log_loss_warnings():
    with pytest.warns(UserWarning, match="do not sum to one"):
        log_loss([0, 1, 2], [[0.2, 0.3, 0.4]] * 3)
    with pytest.warns(UserWarning, match="sorted label order"):
        value = log_loss(["a", "b"], [[0.7, 0.3], [0.4, 0.6]], labels=["b", "a"])
    assert value == pytest.approx(log_loss(["a", "b"], [[0.7, 0.3], [0.4, 0.6]]))
    with pytest.warns(FutureWarning, match="renamed to `y_proba`"):
        assert log_loss([0, 1], y_pred=[0.5, 0.5]) == pytest.approx(np.log(2))
    with pytest.raises(ValueError, match="Cannot use both"):
        log_loss([0, 1], [0.5, 0.5], y_pred=[0.5, 0.5])


def test_brier_hand_computed():
    y = np.array([0, 1, 1, 0])
    p = np.array([0.1, 0.9, 0.8, 0.3])
    assert brier_score_loss(y, p) == pytest.approx(0.0375, rel=1e-14)
    assert brier_score_loss(y, 1 - p, pos_label=0) == pytest.approx(0.0375, rel=1e-14)
    assert brier_score_loss(["spam", "ham", "ham", "spam"], p, pos_label="ham") == (
        pytest.approx(0.0375, rel=1e-14))
    assert brier_score_loss(y, p, scale_by_half=False) == pytest.approx(0.075, rel=1e-14)
    assert brier_score_loss(y, p > 0.5) == 0.0
    assert brier_score_loss([1, 2, 2], [0.1, 0.8, 0.6]) == pytest.approx(  # pos_label = 2
        (0.1**2 + 0.2**2 + 0.4**2) / 3)
    assert brier_score_loss([0, 0], [0.1, 0.8]) == pytest.approx((0.01 + 0.64) / 2)
    mc = [[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.2, 0.2, 0.6]]
    labels = ["eggs", "ham", "spam"]
    assert brier_score_loss(labels, mc, labels=labels) == pytest.approx(0.44 / 3, rel=1e-14)
    assert brier_score_loss(labels, mc, scale_by_half=True) == pytest.approx(0.22 / 3, rel=1e-14)


# ---------------------------------------------------------------------------------------------
# bad input


P3 = [[0.2, 0.3, 0.5], [0.1, 0.1, 0.8], [0.6, 0.2, 0.2]]


@pytest.mark.parametrize(
    "call, error, match",
    [
        # missing / non-finite values
        (lambda: log_loss([0, 1], [0.5, np.nan]), ValueError, "missing value"),
        (lambda: log_loss([0, np.nan], [0.5, 0.5]), ValueError, "y_true contains 1 missing"),
        (lambda: brier_score_loss([0, 1], [0.5, np.inf]), ValueError, "infinite"),
        (lambda: top_k_accuracy_score([0, 1, 2], [[np.inf, 0, 0]] * 3), ValueError, "infinite"),
        (lambda: log_loss([0, 1], [0.5, 0.5], sample_weight=[1, np.nan]), ValueError, "missing"),
        # shapes and lengths
        (lambda: log_loss([0, 1, 1], [0.5, 0.5]), ValueError, "inconsistent numbers"),
        (lambda: top_k_accuracy_score([0, 1, 2], P3[:2]), ValueError, "inconsistent numbers"),
        (lambda: brier_score_loss([0, 1], [0.2, 0.3], sample_weight=[1]), ValueError, "samples"),
        (lambda: log_loss([], []), ValueError, "empty"),
        (lambda: top_k_accuracy_score([], np.zeros((0, 3))), ValueError, "empty"),
        (lambda: brier_score_loss([0, 1], np.zeros((2, 2, 2))), ValueError, "1-D or 2-D"),
        (lambda: log_loss([0, 1, 2], [0.2, 0.3, 0.4]), ValueError, "3 classes .* 1-D"),
        (lambda: log_loss([0, 1, 1], P3), ValueError, "2 classes .* 3 columns"),
        (lambda: log_loss([0, 1, 1], P3, labels=[0, 1]), ValueError, "labels has 2 classes"),
        (lambda: brier_score_loss([0, 1, 2], [0.2, 0.3, 0.4]), ValueError, "must be binary"),
        (lambda: top_k_accuracy_score([0, 1, 2], [0.1, 0.5, 0.4]), ValueError, "n_samples, 3"),
        (lambda: top_k_accuracy_score([0, 1, 1], [[0.1, 0.9]] * 3), ValueError, "y_score\\[:, 1"),
        (lambda: top_k_accuracy_score([[0, 1], [1, 0]], [0.2, 0.3]), ValueError, "1-D array"),
        (lambda: log_loss([[0, 2], [1, 0]], [[0.5, 0.5]] * 2), ValueError, "indicator"),
        # probabilities outside [0, 1]
        (lambda: brier_score_loss([0, 1], [0.2, 1.3]), ValueError, "greater than 1"),
        (lambda: brier_score_loss([0, 1, 2], [[-0.1, 0.6, 0.5]] * 3), ValueError, "less than 0"),
        (lambda: log_loss([0, 1], [-0.2, 0.5]), ValueError, "less than 0"),
        # classes and labels
        (lambda: log_loss([1, 1, 1], [0.2, 0.3, 0.5]), ValueError, "only one label"),
        (lambda: log_loss([1, 1], [0.2, 0.3], labels=[1]), ValueError, "at least two"),
        (lambda: log_loss([0, 1, 5], P3, labels=[0, 1, 2]), ValueError, r"labels \[5\]"),
        (lambda: log_loss([0, 1, 2], P3, labels=[0, 1, 1, 2]), ValueError, "unique"),
        (lambda: log_loss(["a", "b", "a"], P3[:3], labels=[0, 1, 2]), ValueError, "Mix"),
        (lambda: log_loss([0.5, 1.5], [0.2, 0.3]), ValueError, "continuous values .*0.5"),
        (lambda: top_k_accuracy_score([0, 1, 2], P3, labels=[2, 1, 0]), ValueError, "sorted"),
        (lambda: top_k_accuracy_score([0, 1, 2], P3, labels=[0, 1, 1, 2]), ValueError, "unique"),
        (lambda: top_k_accuracy_score([1, 1], [0.2, 0.3], k=1), ValueError, "Number of classes"),
        (lambda: brier_score_loss(["a", "b"], [0.2, 0.3]), ValueError, "pos_label"),
        (lambda: brier_score_loss(["a", "b"], [0.2, 0.3], pos_label=1), ValueError, "Mix"),
        (lambda: log_loss([[0, 1], [1, 1]], [[0.5, 0.5]] * 2, labels=[0, 1]), ValueError,
         "multilabel"),
        # parameters
        (lambda: top_k_accuracy_score([0, 1, 2], P3, k=0), ValueError, "k must be"),
        (lambda: top_k_accuracy_score([0, 1, 2], P3, k=2.0), TypeError, "k must be"),
        (lambda: top_k_accuracy_score([0, 1, 2], P3, k="2"), TypeError, "k must be"),
        (lambda: top_k_accuracy_score([0, 1, 2], P3, normalize=1), TypeError, "normalize"),
        (lambda: log_loss([0, 1], [0.2, 0.3], normalize="yes"), TypeError, "normalize"),
        (lambda: brier_score_loss([0, 1], [0.2, 0.3], scale_by_half="yes"), TypeError, "auto"),
        (lambda: brier_score_loss([0, 1], [0.2, 0.3], pos_label=[1]), TypeError, "pos_label"),
        (lambda: log_loss([0, 1], None), TypeError, "None"),
        (lambda: log_loss([0, 1], ["a", "b"]), TypeError, "numeric"),
        # weights
        (lambda: log_loss([0, 1], [0.2, 0.3], sample_weight=[0, 0]), ValueError, "zero"),
        (lambda: brier_score_loss([0, 1], [0.2, 0.3], sample_weight=[0, 0]), ValueError, "zero"),
        (lambda: top_k_accuracy_score([0, 1, 2], P3, sample_weight=[0, 0, 0]), ZeroDivisionError,
         "weight is zero"),
    ],
)
def test_bad_input(call, error, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error, match=match):
            call()


def test_deliberate_deviations_from_sklearn():
    """Where clfeval refuses input that scikit-learn 1.9.1 silently accepts."""
    # negative weights (sklearn does not check them here)
    with pytest.raises(ValueError, match="negative"):
        top_k_accuracy_score([0, 1, 2], P3, k=1, sample_weight=[1, -1, 1])
    # pos_label that is neither of two classes present (sklearn: every sample negative)
    with pytest.raises(ValueError, match="not one of the classes"):
        brier_score_loss([0, 1], [0.1, 0.8], pos_label=2)
    # ... but a batch that holds only one class may name the other one
    assert brier_score_loss([0, 0], [0.1, 0.8], pos_label=1) == pytest.approx(0.325)
    # all-zero weights with normalize=False are fine for top-k, as in sklearn
    assert top_k_accuracy_score([0, 1, 2], P3, sample_weight=[0, 0, 0], normalize=False) == 0.0
