"""Calibration: parity with scikit-learn's calibration_curve, brier_score_loss and log_loss;
hand-worked and brute-force ECE; the Brier decomposition identities; the mergeable states
(exact table and bounded histogram); bad input."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import sklearn.calibration as skc
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

import clfeval
from clfeval.calibration import (
    BinSums,
    BrierDecomposition,
    CalibrationHistogram,
    CalibrationReport,
    CalibrationTable,
    ReliabilityCurve,
    brier_decomposition,
    calibration_curve,
    calibration_of,
    calibration_of_evaluation,
    calibration_report,
    expected_calibration_error,
    reliability_curve,
    uniform_edges,
)
from clfeval.calibration.binning import assign_bins_uniform as _assign_uniform
from conftest import assert_same_outcome, oracle_share, sample_weights

TOL = dict(rtol=1e-12, atol=1e-12)

# Probabilities drawn from grids that put many values exactly on bin edges, and from [0, 1].
GRIDS = {
    "continuous": None,
    "tenths": np.arange(11) / 10,
    "fifths": np.arange(6) / 5,
    "quarters": np.arange(5) / 4,
    "ends": np.array([0.0, 1.0, 0.5]),
}


@st.composite
def probabilities(draw: st.DrawFn, n: int) -> np.ndarray:
    grid = GRIDS[draw(st.sampled_from(sorted(GRIDS)))]
    if grid is None:
        return np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)), dtype=np.float64)
    return grid[np.array(draw(st.lists(st.integers(0, grid.size - 1), min_size=n, max_size=n)), dtype=np.intp)]


@st.composite
def binary_data(draw: st.DrawFn, min_size: int = 1, max_size: int = 40, weighted: bool = True):
    n = draw(st.integers(min_size, max_size))
    p = draw(probabilities(n))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.int64)
    w = draw(sample_weights(n)) if weighted else None
    if w is not None and not w.any():
        w = None
    return y, p, w


@st.composite
def multiclass_data(draw: st.DrawFn, min_size: int = 1, max_size: int = 30, weighted: bool = True):
    n = draw(st.integers(min_size, max_size))
    k = draw(st.integers(2, 5))
    raw = draw(probabilities(n * k)).reshape(n, k) + draw(st.sampled_from([0.0, 1e-3]))
    raw[raw.sum(axis=1) == 0, 0] = 1.0
    P = raw / raw.sum(axis=1, keepdims=True)
    y = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), dtype=np.int64)
    w = draw(sample_weights(n)) if weighted else None
    if w is not None and not w.any():
        w = None
    return y, P, w


# --------------------------------------------------------------------------------------------
# independent brute force: masks per bin, straight from the definitions


def brute_edges(p: np.ndarray, w: np.ndarray | None, n_bins: int, strategy: str) -> np.ndarray:
    if strategy == "uniform":
        return np.linspace(0, 1, n_bins + 1)
    if w is None:
        return np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    levels = np.linspace(0, 1, n_bins + 1) * 100 / 100
    return np.quantile(p, levels, weights=w, method="inverted_cdf")


def brute_bins(p, hit, w, edges):
    """(weight, observed, mean p) per bin; bin 0 is [e0, e1], the others (e_b, e_b+1]."""
    w = np.ones(p.size) if w is None else np.asarray(w, dtype=np.float64)
    out = []
    for b in range(edges.size - 1):
        lo, hi = edges[b], edges[b + 1]
        if edges.size == 2:
            inside = np.ones(p.size, bool)
        elif b == 0:
            inside = p <= hi
        elif b == edges.size - 2:
            inside = p > lo
        else:
            inside = (p > lo) & (p <= hi)
        wb = w[inside].sum()
        if wb > 0:
            out.append((wb, np.dot(w[inside], hit[inside]) / wb, np.dot(w[inside], p[inside]) / wb))
        else:
            out.append((0.0, np.nan, np.nan))
    return np.array(out)


def brute_ece(p, hit, w, n_bins, strategy, norm):
    table = brute_bins(p, hit.astype(float), w, brute_edges(p, w, n_bins, strategy))
    wb, acc, conf = table.T
    nz = wb > 0
    frac, gap = wb[nz] / wb.sum(), np.abs(acc[nz] - conf[nz])
    if norm == "l1":
        return float(np.sum(frac * gap))
    if norm == "l2":
        return float(np.sqrt(np.sum(frac * gap**2)))
    return float(gap.max())


def brute_views(y, P, mode, pos=1):
    """(probabilities, hits) of each view of a mode."""
    if P.ndim == 1:
        P = np.column_stack([1 - P, P])
    if mode == "binary":
        return [(P[:, pos], y == pos)]
    if mode == "class-wise":
        return [(P[:, c], y == c) for c in range(P.shape[1])]
    top = P.argmax(axis=1)
    return [(P.max(axis=1), top == y)]


def brute_decomposition(p, hit, w):
    """Murphy's terms over the distinct probabilities, by loops."""
    w = np.ones(p.size) if w is None else w.astype(float)
    W, obar = w.sum(), np.dot(w, hit) / w.sum()
    rel = res = 0.0
    for v in np.unique(p[w > 0]):
        m = (p == v) & (w > 0)
        wk, ok = w[m].sum(), np.dot(w[m], hit[m]) / w[m].sum()
        rel += wk * (v - ok) ** 2
        res += wk * (ok - obar) ** 2
    return np.dot(w, (p - hit) ** 2) / W, rel / W, res / W, obar * (1 - obar)


# --------------------------------------------------------------------------------------------
# scikit-learn parity


@oracle_share(0.7)
@given(binary_data(weighted=False), st.integers(1, 12), st.sampled_from(["uniform", "quantile"]))
def test_calibration_curve_matches_sklearn(data, n_bins, strategy):
    y, p, _ = data

    def same(got, exp):
        assert len(got) == len(exp) == 2
        for a, e in zip(got, exp):
            assert isinstance(a, np.ndarray) and a.shape == e.shape
            np.testing.assert_allclose(a, e, **TOL)

    assert_same_outcome(calibration_curve, skc.calibration_curve, y, p, n_bins=n_bins, strategy=strategy, compare=same)


def test_calibration_curve_many_random_inputs():
    rng = np.random.default_rng(0)
    for it in range(400):
        n = int(rng.integers(1, 200))
        p = [rng.random(n), rng.integers(0, 11, n) / 10, rng.beta(0.3, 0.3, n).round(3)][it % 3]
        y = rng.integers(0, 2, n)
        for strategy in ("uniform", "quantile"):
            n_bins = int(rng.integers(1, 20))
            got = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
            exp = skc.calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
            for a, e in zip(got, exp):
                assert a.shape == e.shape, (it, strategy)
                np.testing.assert_allclose(a, e, **TOL)


def test_calibration_curve_labels_and_pos_label():
    y = np.array(["ham", "spam", "spam", "ham", "spam"])
    p = np.array([0.1, 0.8, 0.55, 0.4, 0.95])
    for pos, q in (("spam", p), ("ham", 1 - p)):
        got = calibration_curve(y, q, pos_label=pos, n_bins=3)
        exp = skc.calibration_curve(y, q, pos_label=pos, n_bins=3)
        for a, e in zip(got, exp):
            np.testing.assert_allclose(a, e, **TOL)
    for labels in ([-1, 1, 1, -1, 1], [True, False, True, True, False], [0.0, 1.0, 1.0, 0.0, 0.0]):
        got = calibration_curve(labels, p, n_bins=4)
        exp = skc.calibration_curve(labels, p, n_bins=4)
        for a, e in zip(got, exp):
            np.testing.assert_allclose(a, e, **TOL)


def test_binary_classes_and_positive_class():
    c = reliability_curve([0, 1, 1, 0], [0.9, 0.2, 0.4, 0.7], pos_label=0, n_bins=2)
    assert c.view == "positive class 0" and c.observed.tolist() == [0.0, 1.0]
    r = calibration_report(["b", "b"], [0.9, 0.7], pos_label="b", n_bins=2)
    assert r.classes == ("not b", "b") and r.reliability.observed[1] == 1.0
    r = calibration_report([0, 0], [0.1, 0.3], n_bins=2)  # only negatives: class 1 is absent
    assert r.classes == (0, 1) and r.reliability.observed[0] == 0.0


def test_calibration_curve_empty_bins_are_dropped():
    prob_true, prob_pred = calibration_curve([0, 1, 1], [0.05, 0.95, 0.92], n_bins=10)
    assert prob_true.tolist() == [0.0, 1.0]
    np.testing.assert_allclose(prob_pred, [0.05, 0.935], **TOL)
    # 0.9 is not above the edge 9 * 0.1 = 0.9000000000000001: it has a bin of its own
    assert calibration_curve([0, 1, 1], [0.05, 0.95, 0.9], n_bins=10)[0].size == 3


@pytest.mark.parametrize(
    "args, kwargs",
    [
        (([0, 1], [0.2, 0.8]), {"n_bins": 0}),
        (([0, 1], [0.2, 0.8]), {"strategy": "kmeans"}),
        (([0, 1, 2], [0.2, 0.8, 0.5]), {}),
        (([0, 1], [0.2, 1.3]), {}),
        (([0, 1], [-0.2, 0.3]), {}),
        (([0, 1], [0.2, 0.8, 0.5]), {}),
        ((["a", "b"], [0.2, 0.8]), {}),
        (([1, 2], [0.2, 0.8]), {}),
        (([0, 1], [[0.2, 0.8], [0.5, 0.5]]), {}),
    ],
)
def test_calibration_curve_errors_like_sklearn(args, kwargs):
    assert_same_outcome(calibration_curve, skc.calibration_curve, *args, **kwargs)


@given(binary_data())
def test_report_brier_and_log_loss_match_sklearn_binary(data):
    y, p, w = data
    r = calibration_report(y, p, sample_weight=w)
    np.testing.assert_allclose(r.brier, skm.brier_score_loss(y, p, sample_weight=w), **TOL)
    np.testing.assert_allclose(r.log_loss, skm.log_loss(y, p, sample_weight=w, labels=[0, 1]), **TOL)
    np.testing.assert_allclose(r.decomposition.brier, r.brier, **TOL)


@given(multiclass_data())
def test_report_brier_and_log_loss_match_sklearn_multiclass(data):
    y, P, w = data
    k = P.shape[1]
    labels = list(range(k))
    r = calibration_report(y, P, sample_weight=w, labels=labels)
    np.testing.assert_allclose(r.brier, skm.brier_score_loss(y, P, sample_weight=w, labels=labels), **TOL)
    np.testing.assert_allclose(r.log_loss, skm.log_loss(y, P, sample_weight=w, labels=labels), **TOL)
    d = brier_decomposition(y, P, sample_weight=w, labels=labels)
    if k > 2:
        np.testing.assert_allclose(d.brier, r.brier, **TOL)
    else:  # two columns: the positive class's Brier score, scikit-learn's binary one
        np.testing.assert_allclose(d.brier, skm.brier_score_loss(y, P[:, 1], sample_weight=w), **TOL)


# --------------------------------------------------------------------------------------------
# ECE: hand-worked values


def test_ece_hand_worked_binary_with_probabilities_on_edges():
    # 5 bins [0, .2], (.2, .4], (.4, .6], (.6, .8], (.8, 1]; 0.2, 0.4 and 0.8 are edges and fall
    # in the lower bin, 0 in the first, 1 in the last:
    #   bin 0: 0.0 (y 0), 0.2 (y 1)  -> conf .1,   acc .5, |gap| .4,   weight 2
    #   bin 1: .25 (y 0), 0.4 (y 1)  -> conf .325, acc .5, |gap| .175, weight 2
    #   bin 2: 0.5 (y 1)             -> conf .5,   acc 1,  |gap| .5,   weight 1
    #   bin 3: 0.8 (y 0)             -> conf .8,   acc 0,  |gap| .8,   weight 1
    #   bin 4: 0.9 (y 1), 1.0 (y 1)  -> conf .95,  acc 1,  |gap| .05,  weight 2
    # L1 = (2*.4 + 2*.175 + .5 + .8 + 2*.05) / 8 = 2.55 / 8
    # L2 = sqrt((2*.16 + 2*.030625 + .25 + .64 + 2*.0025) / 8) = sqrt(1.27625 / 8)
    p = [0.0, 0.2, 0.25, 0.4, 0.5, 0.8, 0.9, 1.0]
    y = [0, 1, 0, 1, 1, 0, 1, 1]
    assert uniform_edges(5)[[1, 2, 4]].tolist() == [0.2, 0.4, 0.8]  # exactly the edges
    ece = lambda norm: expected_calibration_error(y, p, n_bins=5, norm=norm)  # noqa: E731
    assert math.isclose(ece("l1"), 2.55 / 8, rel_tol=1e-14)
    assert math.isclose(ece("l2"), math.sqrt(1.27625 / 8), rel_tol=1e-14)
    assert math.isclose(ece("max"), 0.8, rel_tol=1e-14)
    c = reliability_curve(y, p, n_bins=5)
    assert c.weight.tolist() == [2, 2, 1, 1, 2]
    np.testing.assert_allclose(c.mean_predicted, [0.1, 0.325, 0.5, 0.8, 0.95], **TOL)
    np.testing.assert_allclose(c.observed, [0.5, 0.5, 1.0, 0.0, 1.0], **TOL)


def test_ece_hand_worked_multiclass_top_label_and_class_wise():
    P = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.4, 0.4, 0.2]])
    y = [0, 2, 2, 1]
    # top label: confidences .6 (right), .5 (wrong), .8 (right), .4 (tie -> class 0: wrong)
    #   bin [0, .5]: .5, .4 -> conf .45, acc 0, weight 2; bin (.5, 1]: .6, .8 -> conf .7, acc 1
    #   L1 = (2*.45 + 2*.3)/4 = .375; L2 = sqrt((2*.2025 + 2*.09)/4); max = .45
    assert math.isclose(expected_calibration_error(y, P, n_bins=2), 0.375, rel_tol=1e-14)
    assert math.isclose(expected_calibration_error(y, P, n_bins=2, norm="l2"), math.sqrt(0.585 / 4), rel_tol=1e-14)
    assert math.isclose(expected_calibration_error(y, P, n_bins=2, norm="max"), 0.45, rel_tol=1e-14)
    # class-wise: class 0 (.2+.7... ) = (3*|0 - .7/3| + |1 - .6|)/4 = .275; class 1 all in the low
    # bin: |.25 - .325| = .075; class 2: (3*|1/3 - .2| + |1 - .8|)/4 = .15; mean = .5/3
    cw = expected_calibration_error(y, P, n_bins=2, mode="class-wise")
    assert math.isclose(cw, 0.5 / 3, rel_tol=1e-13)
    # one class against the rest
    assert math.isclose(expected_calibration_error(y, P, n_bins=2, mode="binary", pos_label=1), 0.075, rel_tol=1e-13)


def test_ece_weights_are_repetitions():
    rng = np.random.default_rng(3)
    y, p, w = rng.integers(0, 2, 60), rng.random(60), rng.integers(0, 4, 60)
    rep = np.repeat(np.arange(60), w)
    for norm in ("l1", "l2", "max"):
        a = expected_calibration_error(y, p, sample_weight=w, norm=norm, n_bins=7)
        b = expected_calibration_error(y[rep], p[rep], norm=norm, n_bins=7)
        np.testing.assert_allclose(a, b, **TOL)


# --------------------------------------------------------------------------------------------
# ECE: brute force and properties


@given(binary_data(), st.integers(1, 12), st.sampled_from(["uniform", "quantile"]),
       st.sampled_from(["binary", "class-wise", "top-label"]))
def test_ece_binary_matches_brute_force(data, n_bins, strategy, mode):
    y, p, w = data
    values = {}
    for norm in ("l1", "l2", "max"):
        got = expected_calibration_error(y, p, n_bins=n_bins, strategy=strategy, norm=norm, mode=mode, sample_weight=w)
        exp = np.mean([brute_ece(q, h, w, n_bins, strategy, norm) for q, h in brute_views(y, p, mode)])
        np.testing.assert_allclose(got, exp, **TOL)
        assert 0.0 <= got <= 1.0
        values[norm] = got
    # each view: L1 <= L2 (Jensen) <= max; so also their means over the classes
    assert values["l1"] <= values["l2"] + 1e-15 and values["l2"] <= values["max"] + 1e-15


@given(multiclass_data(), st.integers(1, 10), st.sampled_from(["uniform", "quantile"]),
       st.sampled_from(["class-wise", "top-label"]))
def test_ece_multiclass_matches_brute_force(data, n_bins, strategy, mode):
    y, P, w = data
    labels = list(range(P.shape[1]))
    got = {norm: expected_calibration_error(y, P, n_bins=n_bins, strategy=strategy, norm=norm, mode=mode,
                                            sample_weight=w, labels=labels) for norm in ("l1", "l2", "max")}
    for norm, value in got.items():
        exp = np.mean([brute_ece(q, h, w, n_bins, strategy, norm) for q, h in brute_views(y, P, mode)])
        np.testing.assert_allclose(value, exp, **TOL)
        assert 0.0 <= value <= 1.0
    assert got["l1"] <= got["l2"] + 1e-15 and got["l2"] <= got["max"] + 1e-15


def test_perfect_calibration_gives_zero():
    # every probability j/4 holds 8 samples of which exactly 8*j/4 are positive
    p = np.repeat(np.arange(5) / 4, 8)
    y = np.concatenate([np.r_[np.ones(2 * j), np.zeros(8 - 2 * j)] for j in range(5)]).astype(int)
    for n_bins in (1, 2, 3, 4, 5, 10, 15):
        for strategy in ("uniform", "quantile"):
            for norm in ("l1", "l2", "max"):
                assert expected_calibration_error(y, p, n_bins=n_bins, strategy=strategy, norm=norm) == 0.0
    d = brier_decomposition(y, p)
    assert d.reliability == 0.0 and d.within_variance == 0.0
    assert math.isclose(d.brier, d.uncertainty - d.resolution, rel_tol=1e-14)


def test_default_modes():
    y, P = [0, 1, 1], np.array([[0.8, 0.2], [0.3, 0.7], [0.6, 0.4]])
    top = expected_calibration_error(y, P, n_bins=2)
    assert top == expected_calibration_error(y, P, n_bins=2, mode="top-label")
    assert expected_calibration_error(y, P[:, 1], n_bins=2) == expected_calibration_error(y, P, n_bins=2, mode="binary")


def test_ece_matches_torchmetrics_away_from_edges():
    torchmetrics = pytest.importorskip(
        "torchmetrics", reason="torchmetrics is not installed: the torchmetrics comparison is skipped"
    )
    import torch
    from torchmetrics.functional.classification import binary_calibration_error, multiclass_calibration_error

    rng = np.random.default_rng(5)
    # torchmetrics bins [e_b, e_b+1) in float32 with 1.0 in a bin of its own: keep every
    # probability (float32-exact) away from the edges and below 1 so both binnings agree
    logits = rng.normal(size=(300, 4)) * 2
    P = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    P = P.astype(np.float32).astype(np.float64)
    P /= P.sum(1, keepdims=True)
    y = rng.integers(0, 4, 300)
    edges = uniform_edges(15)
    assert np.abs(P.max(1)[:, None] - edges).min() > 1e-6
    for norm in ("l1", "l2", "max"):
        theirs = multiclass_calibration_error(torch.tensor(P), torch.tensor(y), num_classes=4, n_bins=15, norm=norm)
        ours = expected_calibration_error(y, P, n_bins=15, norm=norm)
        np.testing.assert_allclose(ours, float(theirs), rtol=1e-5, atol=1e-6)
    p = rng.random(300).astype(np.float32).astype(np.float64) * 0.999
    assert np.abs(p[:, None] - edges).min() > 1e-6
    yb = rng.integers(0, 2, 300)
    for norm in ("l1", "l2", "max"):
        theirs = binary_calibration_error(torch.tensor(p), torch.tensor(yb), n_bins=15, norm=norm)
        ours = expected_calibration_error(yb, p, n_bins=15, norm=norm)
        np.testing.assert_allclose(ours, float(theirs), rtol=1e-5, atol=1e-6)
    assert torchmetrics is not None


# --------------------------------------------------------------------------------------------
# Brier decomposition


@given(binary_data())
def test_murphy_decomposition_is_exact_over_distinct_probabilities(data):
    y, p, w = data
    d = brier_decomposition(y, p, sample_weight=w)
    brier, rel, res, unc = brute_decomposition(p, y.astype(float), w)
    np.testing.assert_allclose([d.brier, d.reliability, d.resolution, d.uncertainty], [brier, rel, res, unc], **TOL)
    assert d.within_variance == 0.0 and d.within_covariance == 0.0 and d.n_bins is None
    np.testing.assert_allclose(d.brier, d.reliability - d.resolution + d.uncertainty, **TOL)
    np.testing.assert_allclose(d.brier, skm.brier_score_loss(y, p, sample_weight=w), **TOL)


@given(binary_data(), st.integers(1, 12), st.sampled_from(["uniform", "quantile"]))
def test_binned_decomposition_identity_with_within_bin_terms(data, n_bins, strategy):
    y, p, w = data
    d = brier_decomposition(y, p, sample_weight=w, n_bins=n_bins, strategy=strategy)
    total = d.reliability - d.resolution + d.uncertainty + d.within_variance - d.within_covariance
    np.testing.assert_allclose(d.brier, total, **TOL)
    np.testing.assert_allclose(d.brier, skm.brier_score_loss(y, p, sample_weight=w), **TOL)
    # the reliability term is the L2 ECE squared
    l2 = expected_calibration_error(y, p, sample_weight=w, n_bins=n_bins, strategy=strategy, norm="l2")
    np.testing.assert_allclose(d.reliability, l2**2, **TOL)
    assert d.within_variance >= 0.0


@given(multiclass_data(min_size=2), st.sampled_from([None, 3, 10]))
def test_multiclass_decomposition_is_the_sum_over_classes(data, n_bins):
    y, P, w = data
    k = P.shape[1]
    labels = list(range(k))
    d = brier_decomposition(y, P, sample_weight=w, labels=labels, n_bins=n_bins)
    parts = [brier_decomposition((y == c).astype(int), P[:, c], sample_weight=w, n_bins=n_bins) for c in range(k)]
    if k > 2:
        for field in ("brier", "reliability", "resolution", "uncertainty", "within_variance", "within_covariance"):
            np.testing.assert_allclose(getattr(d, field), sum(getattr(q, field) for q in parts), **TOL)
        np.testing.assert_allclose(d.brier, skm.brier_score_loss(y, P, sample_weight=w, labels=labels), **TOL)
    total = d.reliability - d.resolution + d.uncertainty + d.within_variance - d.within_covariance
    np.testing.assert_allclose(d.brier, total, **TOL)


def test_decomposition_hand_worked():
    # p = .2 twice (y 0, 1), p = .6 twice (y 1, 1); base rate .75
    # reliability = (2*(.2-.5)^2 + 2*(.6-1)^2)/4 = (.18 + .32)/4 = .125
    # resolution = (2*(.5-.75)^2 + 2*(1-.75)^2)/4 = .0625; uncertainty = .75*.25 = .1875
    # brier = (.04 + .64 + .16 + .16)/4 = .25 = .125 - .0625 + .1875
    d = brier_decomposition([0, 1, 1, 1], [0.2, 0.2, 0.6, 0.6])
    np.testing.assert_allclose(
        [d.brier, d.reliability, d.resolution, d.uncertainty], [0.25, 0.125, 0.0625, 0.1875], **TOL
    )
    # one bin: everything within it; reliability (mean .4 vs .75), no resolution
    b = brier_decomposition([0, 1, 1, 1], [0.2, 0.2, 0.6, 0.6], n_bins=1)
    np.testing.assert_allclose([b.reliability, b.resolution, b.within_variance], [0.1225, 0.0, 0.04], **TOL)
    # within covariance: 2 * mean((p - .4)(y - .75)) = 2 * (.2*.75 - .2*.25 + .2*.25 + .2*.25)/4
    np.testing.assert_allclose(b.within_covariance, 2 * 0.2 * 0.75 / 4 + 2 * 0.2 * 0.25 / 4, **TOL)
    np.testing.assert_allclose(b.brier, 0.25, **TOL)


# --------------------------------------------------------------------------------------------
# the mergeable states


def assert_same_bins(a: BinSums, b: BinSums) -> None:
    assert (a.edges is None) == (b.edges is None)
    if a.edges is not None:
        np.testing.assert_array_equal(a.edges, b.edges)
    for field in ("weight", "positives"):
        x, z = getattr(a, field), getattr(b, field)
        if x.dtype.kind == "i" and z.dtype.kind == "i":
            np.testing.assert_array_equal(x, z)  # counts: exactly
        else:
            np.testing.assert_allclose(x, z, **TOL)
    for field in ("sum_p", "sum_pp", "sum_py"):
        np.testing.assert_allclose(getattr(a, field), getattr(b, field), **TOL)


def assert_same_state(a, b) -> None:
    assert type(a) is type(b) and a.classes == b.classes and a.mode == b.mode
    np.testing.assert_allclose(a.log_loss_sum.total, b.log_loss_sum.total, **TOL)
    np.testing.assert_allclose(a.brier_sum.total, b.brier_sum.total, **TOL)
    assert a.brier_sum.weight == pytest.approx(b.brier_sum.weight, rel=1e-12)
    if isinstance(a, CalibrationHistogram):
        assert_same_bins(a.sums, b.sums)
        return
    for ta, tb in zip(a.tables, b.tables):
        np.testing.assert_array_equal(ta.scores, tb.scores)
        if ta.weighted or tb.weighted:
            np.testing.assert_allclose(ta.counts, tb.counts, **TOL)
        else:
            np.testing.assert_array_equal(ta.counts, tb.counts)


@given(st.one_of(binary_data(min_size=2), multiclass_data(min_size=2)), st.data(), st.sampled_from([None, 4, 16]))
def test_merge_of_batches_equals_the_state_of_the_concatenation(data, draw, n_bins):
    y, P, w = data
    cut = draw.draw(st.integers(0, y.size))
    parts = [slice(0, cut), slice(cut, None)]
    states = [calibration_of(y[s], P[s], None if w is None else w[s], n_bins=n_bins) for s in parts]
    whole = calibration_of(y, P, w, n_bins=n_bins)
    assert_same_state(states[0].merge(states[1]), whole)
    # every number read off the merged state is the whole data's
    merged = states[0].merge(states[1])
    if n_bins is None or n_bins == 4:
        np.testing.assert_allclose(merged.ece(n_bins=4), whole.ece(n_bins=4), **TOL)
    np.testing.assert_allclose(merged.brier_decomposition().brier, whole.brier_decomposition().brier, **TOL)


@given(st.one_of(binary_data(min_size=2), multiclass_data(min_size=2)), st.randoms(), st.sampled_from([None, 8]))
def test_states_do_not_depend_on_row_order(data, random, n_bins):
    y, P, w = data
    order = list(range(y.size))
    random.shuffle(order)
    o = np.array(order)
    a = calibration_of(y, P, w, n_bins=n_bins)
    b = calibration_of(y[o], P[o], None if w is None else w[o], n_bins=n_bins)
    assert_same_state(a, b)
    for mode in ("class-wise", "top-label"):
        np.testing.assert_allclose(a.ece(mode=mode), b.ece(mode=mode), **TOL)


@given(st.one_of(binary_data(), multiclass_data()), st.sampled_from([1, 3, 8]))
def test_histogram_and_table_agree_on_their_bins(data, n_bins):
    y, P, w = data
    if w is not None and not w.any():
        return
    table, hist = calibration_of(y, P, w), calibration_of(y, P, w, n_bins=n_bins)
    k = len(table.classes)
    for view in range(k + 1):
        assert_same_bins(table._bins(view, n_bins, "uniform"), hist._bins(view, None, "uniform"))
    rt, rh = table.report(n_bins=n_bins), hist.report()
    for field in ("ece", "ece_l2", "ece_max", "brier", "log_loss"):
        np.testing.assert_allclose(getattr(rt, field), getattr(rh, field), **TOL)
    # the histogram's decomposition is over its bins: the identity still holds
    d = rh.decomposition
    np.testing.assert_allclose(
        d.brier, d.reliability - d.resolution + d.uncertainty + d.within_variance - d.within_covariance, **TOL
    )


@given(st.integers(1, 5000), st.lists(st.floats(0, 1), max_size=50), st.lists(st.integers(0, 5000), max_size=50))
def test_uniform_assignment_is_the_edge_search(n_bins, values, at_edges):
    edges = uniform_edges(n_bins)
    on = edges[np.minimum(np.array(at_edges, dtype=np.intp), n_bins)]
    v = np.concatenate([np.array(values), on, np.nextafter(on, 2.0), np.nextafter(on, -1.0)]).clip(0, 1)
    np.testing.assert_array_equal(_assign_uniform(v, edges), np.searchsorted(edges[1:-1], v, side="left"))


@pytest.mark.parametrize("n_bins", [None, 6])
def test_an_empty_batch_is_the_identity_of_merge(n_bins):
    y, p = np.array([0, 1, 1, 0]), np.array([0.1, 0.8, 0.45, 0.6])
    empty = calibration_of(np.array([], dtype=np.int64), np.array([]), n_bins=n_bins)
    full = calibration_of(y, p, n_bins=n_bins)
    assert empty.total_weight == 0
    assert_same_state(empty.merge(full), full)
    assert_same_state(full.merge(empty), full)
    with pytest.raises(ValueError, match="total sample weight is 0"):
        empty.ece()


def test_histogram_coarsens_uniform_bins_exactly():
    rng = np.random.default_rng(11)
    y, p = rng.integers(0, 2, 500), np.round(rng.random(500), 3)
    fine = calibration_of(y, p, n_bins=1024)
    for n_bins in (1, 2, 8, 16, 32, 64):
        np.testing.assert_allclose(
            fine.ece(n_bins=n_bins), expected_calibration_error(y, p, n_bins=n_bins), **TOL
        )
        c = fine.reliability(n_bins=n_bins)
        np.testing.assert_array_equal(c.edges, uniform_edges(n_bins))
        np.testing.assert_array_equal(c.weight, reliability_curve(y, p, n_bins=n_bins).weight)
    with pytest.raises(ValueError, match="divide 1024"):
        fine.ece(n_bins=10)


def test_histogram_quantile_bins_are_unions_of_fine_bins_of_near_equal_mass():
    rng = np.random.default_rng(12)
    y, p = rng.integers(0, 2, 2000), rng.beta(0.5, 2.0, 2000)
    fine = calibration_of(y, p, n_bins=1024)
    for n_bins in (4, 10, 15):
        c = fine.reliability(n_bins=n_bins, strategy="quantile")
        # every edge is a fine edge, and each bin's mass is within one fine bin's mass of equal
        assert np.isin(c.edges, uniform_edges(1024)).all()
        largest_fine = fine.sums.weight[1].max()
        assert np.abs(c.weight - 2000 / n_bins).max() <= largest_fine
        # the bins' numbers are exact for those edges: the brute force over the same edges agrees
        exp = brute_bins(p, y.astype(float), None, c.edges)
        np.testing.assert_allclose(c.weight, exp[:, 0], **TOL)
        np.testing.assert_allclose(c.observed, exp[:, 1], **TOL)
        np.testing.assert_allclose(c.mean_predicted, exp[:, 2], **TOL)
        # and close to the exact quantile ECE
        exact = expected_calibration_error(y, p, n_bins=n_bins, strategy="quantile")
        assert abs(fine.ece(n_bins=n_bins, strategy="quantile") - exact) < 0.02


def test_state_entry_point_and_settings():
    y, P = np.array([0, 2, 1, 2]), np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.4, 0.4, 0.2]])
    s = calibration_of(y, P, classes=["a", "b", "c"])
    assert isinstance(s, CalibrationTable) and s.mode == "top-label" and s.positive is None
    assert [len(t) for t in s.tables] == [4, 4, 4, 4]
    with pytest.raises(ValueError, match="pos_label"):
        s.ece(mode="binary")
    np.testing.assert_allclose(
        s.ece(mode="binary", pos_label="c", n_bins=2),
        expected_calibration_error(y, P, mode="binary", pos_label=2, n_bins=2), **TOL,
    )
    h = calibration_of(y, P, classes=["a", "b", "c"], n_bins=4)
    with pytest.raises(ValueError, match="different classes or settings"):
        h.merge(calibration_of(y, P, n_bins=4))
    with pytest.raises(ValueError, match="different bin edges"):
        h.merge(calibration_of(y, P, classes=["a", "b", "c"], n_bins=5))
    with pytest.raises(TypeError, match="cannot merge"):
        h.merge(s)
    # 1-D probabilities of class 0
    s0 = calibration_of(np.array([0, 1, 0]), np.array([0.9, 0.2, 0.6]), positive=0)
    assert s0.ece(n_bins=2) == expected_calibration_error([1, 0, 1], [0.9, 0.2, 0.6], n_bins=2)


def test_to_dict_is_json_and_repr_is_readable():
    y, p = [0, 1, 1, 0, 1], [0.1, 0.85, 0.7, 0.4, 0.95]
    r = calibration_report(y, p, n_bins=10)
    assert isinstance(r, CalibrationReport)
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert d["reliability"]["observed"].count(None) == 10 - int(r.reliability.nonempty.sum())
    assert set(d["ece_by_mode"]) == {"binary", "class-wise", "top-label"}
    assert repr(r).startswith("CalibrationReport(mode='binary', n_bins=10, strategy='uniform', ece=")
    assert "brier=" in repr(r) and "log_loss=" in repr(r)
    assert isinstance(r.decomposition, BrierDecomposition) and isinstance(r.reliability, ReliabilityCurve)
    assert repr(r.decomposition).startswith("BrierDecomposition(brier=")
    for state in (calibration_of(np.array(y), np.array(p)), calibration_of(np.array(y), np.array(p), n_bins=4)):
        json.dumps(state.to_dict(), allow_nan=False)
    assert repr(calibration_of(np.array(y), np.array(p), n_bins=4)) == (
        "CalibrationHistogram(classes=[0, 1], mode='binary', n_bins=4, total_weight=5)"
    )
    assert repr(reliability_curve(y, p, n_bins=4)) == (
        "ReliabilityCurve(view='positive class 1', strategy='uniform', n_bins=4, nonempty=4, total_weight=5)"
    )


def test_report_values_agree_with_the_functions():
    rng = np.random.default_rng(2)
    y, p, w = rng.integers(0, 2, 80), rng.random(80), rng.random(80)
    r = calibration_report(y, p, n_bins=12, strategy="quantile", sample_weight=w)
    for norm, value in (("l1", r.ece), ("l2", r.ece_l2), ("max", r.ece_max)):
        assert value == expected_calibration_error(y, p, n_bins=12, strategy="quantile", norm=norm, sample_weight=w)
    assert r.ece_by_mode["class-wise"] == expected_calibration_error(
        y, p, n_bins=12, strategy="quantile", mode="class-wise", sample_weight=w
    )
    np.testing.assert_allclose(r.decomposition.brier, brier_decomposition(y, p, sample_weight=w).brier, **TOL)
    np.testing.assert_array_equal(
        r.reliability.weight, reliability_curve(y, p, n_bins=12, strategy="quantile", sample_weight=w).weight
    )
    assert r.reliability.weighted


def test_evaluation_entry_point():
    rng = np.random.default_rng(4)
    y = rng.choice(["no", "yes"], 50)
    p = rng.random(50)
    ev = clfeval.evaluate(y, y_score=p, pos_label="yes")
    s = calibration_of_evaluation(ev)
    assert s.classes == ("no", "yes") and s.mode == "binary"
    assert s.ece() == expected_calibration_error(y, p, pos_label="yes")
    # the negative class is the first column of an (n, 2) score matrix
    ev2 = clfeval.evaluate(y, y_score=np.column_stack([1 - p, p]), pos_label="yes")
    np.testing.assert_allclose(calibration_of_evaluation(ev2, n_bins=15).ece(), s.ece(), **TOL)
    P = rng.dirichlet(np.ones(3), 40)
    yc = rng.integers(0, 3, 40)
    evm = clfeval.evaluate(yc, y_score=P)
    np.testing.assert_allclose(calibration_of_evaluation(evm).ece(), expected_calibration_error(yc, P), **TOL)
    with pytest.raises(ValueError, match="not probabilities"):
        calibration_of_evaluation(clfeval.evaluate(y, y_score=(p - 0.5) * 4, pos_label="yes"))
    with pytest.raises(ValueError, match="no scores"):
        calibration_of_evaluation(clfeval.evaluate(y, y))


# --------------------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: expected_calibration_error([0, 1, 1], [0.2, 1.5, 0.3]), r"greater than 1 \(e.g. 1.5 at position 1\)"),
        (lambda: expected_calibration_error([0, 1, 1], [0.2, -0.1, 0.3]), r"less than 0 \(e.g. -0.1 at position 1\)"),
        (lambda: expected_calibration_error([0, 1, 1], [0.2, np.nan, 0.3]), r"missing value.*position 1"),
        (lambda: expected_calibration_error([0, 1], [[0.2, 0.7], [0.5, 0.5]]), r"the first is row 0, which sums to 0.89"),
        (lambda: expected_calibration_error([0, 1], [[0.2, 0.8, 0.0], [0.5, 0.5, 0.0]]), r"has 2 classes .* 3 columns"),
        (lambda: expected_calibration_error([0, 1, 2], [0.2, 0.8, 0.5]), r"must be binary"),
        (lambda: expected_calibration_error([0, 1], [0.2, 0.8, 0.5]), r"inconsistent numbers of samples"),
        (lambda: expected_calibration_error([0, 1], np.zeros((2, 2, 2))), r"1-D or 2-D"),
        (lambda: expected_calibration_error([0, 1], [0.2, 0.8], norm="l3"), r"norm must be one of"),
        (lambda: expected_calibration_error([0, 1], [0.2, 0.8], mode="topk"), r"mode must be one of"),
        (lambda: expected_calibration_error([0, 1], [0.2, 0.8], strategy="kmeans"), r"strategy must be one of"),
        (lambda: expected_calibration_error([0, 1, 2], np.eye(3), mode="binary"), r"needs pos_label"),
        (lambda: expected_calibration_error([0, 1], [0.2, 0.8], sample_weight=[0, 0]), r"zero for all"),
        (lambda: expected_calibration_error(["a", "b"], [0.2, 0.8]), r"pass pos_label"),
        (lambda: reliability_curve([0, 1, 2], np.eye(3), mode="class-wise"), r"one view"),
        (lambda: brier_decomposition([0, 1], [0.2, 0.8], n_bins=0), r"n_bins must be an integer >= 1"),
        (lambda: calibration_of(np.array([0, 3]), np.array([[0.5, 0.5], [0.2, 0.8]])), r"true_codes\[1\] = 3"),
        (lambda: calibration_of(np.array([0, 1]), np.array([[0.5, 0.5], [0.2, np.inf]])), r"position \(1, 1\)"),
        (lambda: calibration_of(np.array([0.0, 1.0]), np.array([0.5, 0.2])), r"integer class indices"),
    ],
)
def test_bad_input_says_what_and_where(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_n_bins_must_be_an_integer():
    with pytest.raises(TypeError, match="n_bins"):
        expected_calibration_error([0, 1], [0.2, 0.8], n_bins=2.5)
    with pytest.raises(TypeError, match="n_bins"):
        calibration_curve([0, 1], [0.2, 0.8], n_bins=True)
