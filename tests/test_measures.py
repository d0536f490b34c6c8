"""The formulas (clfeval.formulas.measures): hand-computed values, ranges, and batching over leading axes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from clfeval.formulas import measures as m


@pytest.fixture(autouse=True)
def _no_numpy_warnings():
    """The formulas handle 0/0 themselves: numpy must never warn."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield


@st.composite
def tables(draw: st.DrawFn, batch: tuple[int, ...] = (), weighted: bool | None = None) -> np.ndarray:
    """Confusion tables (*batch, k, k) of counts or float weights; zeros are frequent."""
    k = draw(st.integers(1, 5))
    if weighted is None:
        weighted = draw(st.booleans())
    if weighted:
        cell = st.one_of(st.just(0.0), st.floats(0.01, 50.0))
        dtype = np.float64
    else:
        cell = st.one_of(st.just(0), st.integers(0, 30))
        dtype = np.int64
    return draw(hnp.arrays(dtype, batch + (k, k), elements=cell))


def _labels_from_table(cm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Expand an integer table into (y_true, y_pred) label arrays."""
    k = cm.shape[0]
    idx = np.repeat(np.arange(k * k), cm.ravel())
    return idx // k, idx % k


# --------------------------------------------------------------------------------------------
# hand-computed values
# --------------------------------------------------------------------------------------------
CM3 = np.array([[2, 0, 0], [0, 0, 1], [1, 0, 2]])


def test_one_vs_rest_by_hand():
    tp, fp, fn, tn = m.one_vs_rest(CM3)
    assert tp.tolist() == [2, 0, 2]
    assert fp.tolist() == [1, 0, 1]
    assert fn.tolist() == [0, 1, 1]
    assert tn.tolist() == [3, 5, 2]
    assert (tp + fp + fn + tn).tolist() == [6, 6, 6]


def test_one_vs_rest_float_zero_is_exact():
    """With float weights a true tn of zero must come out as exactly 0 (0/0 stays undefined)."""
    rng = np.random.default_rng(1)
    for _ in range(200):
        cm = np.zeros((3, 3))
        cm[0, :] = rng.random(3) * 10  # all mass in row 0 and column 0
        cm[:, 0] = rng.random(3) * 10
        tp, fp, fn, tn = m.one_vs_rest(cm)
        assert tn[0] == 0.0
        assert np.all(tn >= 0)
    cm = np.array([[0.1, 0.2], [0.0, 0.0]])  # (0.1 + 0.2) - 0.1 - 0.2 is 5.6e-17, not 0
    tp, fp, fn, tn = m.one_vs_rest(cm)
    assert tn[0] == 0.0 and tn[1] == pytest.approx(0.1, abs=1e-15)
    assert np.isnan(m.specificity(tn, fp)[0])  # class 0 has no negatives at all: 0/0


def test_ratio_and_rates_by_hand():
    np.testing.assert_array_equal(m.ratio(np.array([1, 0, 3]), np.array([2, 0, 4])), [0.5, np.nan, 0.75])
    tp, fp, fn, tn = (np.array(x) for x in ([2, 0, 2], [1, 0, 1], [0, 1, 1], [3, 5, 2]))
    np.testing.assert_allclose(m.precision(tp, fp), [2 / 3, np.nan, 2 / 3])
    np.testing.assert_allclose(m.recall(tp, fn), [1.0, 0.0, 2 / 3])
    np.testing.assert_allclose(m.specificity(tn, fp), [3 / 4, 1.0, 2 / 3])
    np.testing.assert_allclose(m.fallout(fp, tn), [1 / 4, 0.0, 1 / 3])
    np.testing.assert_allclose(m.npv(tn, fn), [1.0, 5 / 6, 2 / 3])
    np.testing.assert_allclose(m.jaccard(tp, fp, fn), [2 / 3, 0.0, 1 / 2])
    np.testing.assert_allclose(m.fbeta(tp, fp, fn), [0.8, 0.0, 2 / 3])
    np.testing.assert_allclose(m.fbeta(tp, fp, fn, beta=2.0), [5 * 2 / (5 * 2 + 4 * 0 + 1), 0.0, 10 / 15])
    np.testing.assert_array_equal(m.fbeta(tp, fp, fn, beta=0.0), m.precision(tp, fp))
    np.testing.assert_array_equal(m.fbeta(tp, fp, fn, beta=np.inf), m.recall(tp, fn))
    assert np.isnan(m.fbeta(np.array(0), np.array(0), np.array(0)))


def test_table_measures_by_hand():
    assert m.accuracy(CM3) == pytest.approx(4 / 6, abs=1e-15)
    assert m.error_rate(CM3) == pytest.approx(2 / 6, abs=1e-15)
    assert m.balanced_accuracy(CM3) == pytest.approx((1 + 0 + 2 / 3) / 3, abs=1e-15)
    # Cohen's classic: 20 agree-yes, 15 agree-no, 5 + 10 disagree -> kappa 0.4
    assert m.cohen_kappa(np.array([[20, 5], [10, 15]])) == pytest.approx(0.4, abs=1e-15)
    assert m.matthews_corrcoef(np.array([[1, 1], [0, 2]])) == pytest.approx(1 / np.sqrt(3), abs=1e-15)
    assert m.matthews_corrcoef(np.array([[5, 0], [0, 0]])) == 0.0  # undefined -> 0 (sklearn)
    assert np.isnan(m.cohen_kappa(np.array([[5, 0], [0, 0]])))
    assert np.isnan(m.accuracy(np.zeros((2, 2))))
    lr_pos, lr_neg = m.likelihood_ratios(2, 1, 1, 2)
    assert (float(lr_pos), float(lr_neg)) == (2.0, 0.5)
    lr_pos, lr_neg = m.likelihood_ratios(0, 0, 0, 3)  # no positives
    assert np.isnan(lr_pos) and np.isnan(lr_neg)


def test_balanced_accuracy_adjusted_by_hand():
    cm = np.array([[3, 1], [1, 1]])
    raw = (3 / 4 + 1 / 2) / 2
    assert m.balanced_accuracy(cm, adjusted=True) == pytest.approx((raw - 0.5) / 0.5, abs=1e-15)
    # a class absent from y_true is left out
    cm = np.array([[2, 1, 0], [0, 0, 0], [0, 1, 3]])
    assert m.balanced_accuracy(cm) == pytest.approx((2 / 3 + 3 / 4) / 2, abs=1e-15)
    # a single class: adjusted is undefined
    assert np.isnan(m.balanced_accuracy(np.array([[4, 1], [0, 0]]), adjusted=True))


def test_cohen_kappa_weighted_by_hand():
    cm = np.array([[2, 1, 0], [0, 2, 1], [1, 0, 3]])
    n = cm.sum()
    row, col = cm.sum(1), cm.sum(0)
    expected = np.outer(row, col) / n
    for name, w in (("linear", np.abs(np.subtract.outer(range(3), range(3)))),
                    ("quadratic", np.subtract.outer(range(3), range(3)) ** 2)):
        want = 1 - (w * cm).sum() / (w * expected).sum()
        assert m.cohen_kappa(cm, name) == pytest.approx(want, abs=1e-14)


def test_average():
    assert m.average(np.array([1.0, np.nan, 0.0])) == 0.5
    assert m.average(np.array([1.0, 0.0]), np.array([3.0, 1.0])) == 0.75
    assert m.average(np.array([1.0, 0.0]), np.array([0.0, 0.0])) == 0.5  # all-zero weights: plain mean
    assert np.isnan(m.average(np.array([np.nan, np.nan])))
    assert np.isnan(m.average(np.array([])))


# --------------------------------------------------------------------------------------------
# against scikit-learn, table by table
# --------------------------------------------------------------------------------------------
@given(cm=tables(weighted=False))
def test_table_measures_match_sklearn(cm):
    if cm.sum() == 0:
        return
    yt, yp = _labels_from_table(cm)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert m.accuracy(cm) == pytest.approx(skm.accuracy_score(yt, yp), abs=1e-12)
        assert m.matthews_corrcoef(cm) == pytest.approx(skm.matthews_corrcoef(yt, yp), abs=1e-12)
        for weights in (None, "linear", "quadratic"):
            k = skm.cohen_kappa_score(yt, yp, weights=weights, labels=np.arange(cm.shape[0]))
            np.testing.assert_allclose(m.cohen_kappa(cm, weights), k, atol=1e-12, equal_nan=True)
        if cm.sum(axis=1).all():
            ba = skm.balanced_accuracy_score(yt, yp)
            assert m.balanced_accuracy(cm) == pytest.approx(ba, abs=1e-12)


# --------------------------------------------------------------------------------------------
# ranges
# --------------------------------------------------------------------------------------------
@given(cm=tables())
def test_rates_lie_in_unit_interval(cm):
    tp, fp, fn, tn = m.one_vs_rest(cm)
    assert np.all(tn >= 0) and np.all(fp >= 0) and np.all(fn >= 0)
    values = [
        m.precision(tp, fp), m.recall(tp, fn), m.specificity(tn, fp), m.npv(tn, fn),
        m.fallout(fp, tn), m.jaccard(tp, fp, fn), m.fbeta(tp, fp, fn), m.fbeta(tp, fp, fn, 0.5),
        m.accuracy(cm), m.error_rate(cm), m.balanced_accuracy(cm),
    ]
    for v in values:
        v = np.asarray(v)
        finite = v[~np.isnan(v)]
        assert np.all((finite >= -1e-15) & (finite <= 1 + 1e-15))
    mcc = m.matthews_corrcoef(cm)
    assert -1 - 1e-12 <= mcc <= 1 + 1e-12
    for weights in (None, "linear", "quadratic"):
        kappa = m.cohen_kappa(cm, weights)
        assert np.isnan(kappa) or kappa <= 1 + 1e-12
    acc, err = m.accuracy(cm), m.error_rate(cm)
    assert np.isnan(acc) or abs(acc + err - 1) < 1e-12
    np.testing.assert_allclose(m.fallout(fp, tn), 1 - m.specificity(tn, fp), atol=1e-12, equal_nan=True)


# --------------------------------------------------------------------------------------------
# batching: a stack of tables gives the same as one table at a time
# --------------------------------------------------------------------------------------------
@given(data=st.data(), batch=st.sampled_from([(1,), (3,), (2, 3)]))
def test_measures_batch_over_leading_axes(data, batch):
    stack = data.draw(tables(batch=batch))
    flat = stack.reshape((-1,) + stack.shape[-2:])

    def each(fn):
        return np.stack([np.asarray(fn(t)) for t in flat]).reshape(batch + np.shape(fn(flat[0])))

    table_fns = {
        "accuracy": m.accuracy,
        "error_rate": m.error_rate,
        "balanced_accuracy": m.balanced_accuracy,
        "balanced_accuracy_adj": lambda t: m.balanced_accuracy(t, adjusted=True),
        "mcc": m.matthews_corrcoef,
        "kappa": m.cohen_kappa,
        "kappa_linear": lambda t: m.cohen_kappa(t, "linear"),
        "kappa_quadratic": lambda t: m.cohen_kappa(t, "quadratic"),
    }
    for name, fn in table_fns.items():
        np.testing.assert_allclose(fn(stack), each(fn), rtol=1e-13, atol=1e-15, equal_nan=True, err_msg=name)
    counts = m.one_vs_rest(stack)
    for got, want in zip(counts, zip(*[m.one_vs_rest(t) for t in flat])):
        np.testing.assert_array_equal(got, np.stack(want).reshape(got.shape))
    tp, fp, fn, tn = counts
    rate_fns = {
        "precision": lambda a, b, c, d: m.precision(a, b),
        "recall": lambda a, b, c, d: m.recall(a, c),
        "specificity": lambda a, b, c, d: m.specificity(d, b),
        "npv": lambda a, b, c, d: m.npv(d, c),
        "fallout": lambda a, b, c, d: m.fallout(b, d),
        "f2": lambda a, b, c, d: m.fbeta(a, b, c, 2.0),
        "jaccard": lambda a, b, c, d: m.jaccard(a, b, c),
        "lr": lambda a, b, c, d: np.stack(m.likelihood_ratios(a, b, c, d)),
    }
    for name, rate in rate_fns.items():
        batched = rate(*counts)
        one_by_one = [rate(*(x.reshape((-1,) + x.shape[-1:])[i] for x in counts)) for i in range(flat.shape[0])]
        want = np.stack(one_by_one)
        if name == "lr":
            want = np.moveaxis(want, 0, 1).reshape((2,) + batch + tp.shape[-1:])
        else:
            want = want.reshape(batch + tp.shape[-1:])
        np.testing.assert_allclose(batched, want, rtol=1e-13, equal_nan=True, err_msg=name)


@example(y=[0, 0, 1], w=[1.0, 16.740852572818355] + [1.0] * 28, flip=True)  # -1.0000000000000018 unclipped
@given(
    y=st.lists(st.integers(0, 3), min_size=2, max_size=30),
    w=st.lists(st.floats(0.001, 1e3), min_size=30, max_size=30),
    flip=st.booleans(),
)
def test_mcc_of_perfect_agreement_with_float_weights_stays_in_range(y, w, flip):
    """Predictions equal to the truth (or, for two classes, its opposite) give MCC +1 (-1) to the
    last ulps, and never past it: a correlation stays in [-1, 1], where the float sums of weights
    can carry the quotient a few ulps beyond (scikit-learn's passes -1 by up to 1e-12 on such draws)."""
    y = np.array(y)
    if np.unique(y).size < 2:
        return
    weights = np.array(w[: y.size])
    if flip:
        y = (y > np.median(y)).astype(int)
        if np.unique(y).size < 2:
            return
        pred, expected = 1 - y, -1.0
    else:
        pred, expected = y, 1.0
    cm = skm.confusion_matrix(y, pred, sample_weight=weights)
    value = float(m.matthews_corrcoef(cm))
    assert -1.0 <= value <= 1.0 and abs(value - expected) <= 1e-12


def test_two_class_mcc_of_weights_near_the_float_range():
    """(TP TN - FP FN) / sqrt(margins) multiplies four margins: weights of 1e300 or 1e-300 must not overflow
    or underflow it (shares of the total are used there), and the value stays the unweighted one."""
    from clfeval.formulas.measures import matthews_corrcoef

    cm = np.array([[3.0, 1.0], [2.0, 5.0]])
    want = float(matthews_corrcoef(cm))
    assert want == pytest.approx((15 - 2) / np.sqrt(5 * 7 * 4 * 6), rel=1e-15)
    for scale in (1e300 / 10, 1e150, 1e-300, 1e-160):
        assert float(matthews_corrcoef(cm * scale)) == pytest.approx(want, rel=1e-13), scale
    assert float(matthews_corrcoef(np.array([[3.0, 0.0], [0.0, 0.0]]) * 1e300)) == 0.0  # one class: 0 by convention
