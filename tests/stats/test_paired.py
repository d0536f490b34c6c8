"""Paired bootstrap and permutation tests: exhaustive enumeration, naive loops, properties."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from clfeval import metrics
from clfeval.stats.paired import _Cells, _Metric, _table_values, paired_bootstrap_test, paired_permutation_test


def _brute_permutation_p(y, a, b, metric, alternative="two-sided"):
    """Exhaustive: every swap pattern of the cases, each with probability 2^-n."""
    obs = metric(y, a) - metric(y, b)
    null = []
    for bits in itertools.product([False, True], repeat=len(y)):
        s = np.array(bits)
        aa, bb = np.where(s, b, a), np.where(s, a, b)
        null.append(metric(y, aa) - metric(y, bb))
    null = np.array(null)
    tol = 1e-12 * max(1, abs(obs))
    if alternative == "greater":
        return np.mean(null >= obs - tol)
    if alternative == "less":
        return np.mean(null <= obs + tol)
    return np.mean(np.abs(null) >= abs(obs) - tol)


class _quiet:
    """Silence the metrics' warnings (e.g. zero_division) inside brute-force loops."""

    def __enter__(self):
        import warnings

        self._c = warnings.catch_warnings()
        self._c.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._c.__exit__(*exc)


@st.composite
def _tiny_labels(draw, k=3):
    n = draw(st.integers(3, 9))
    arr = hnp.arrays(np.int64, n, elements=st.integers(0, k - 1))
    return draw(arr), draw(arr), draw(arr)


@settings(max_examples=25)
@given(_tiny_labels(), st.sampled_from(["accuracy_score", "matthews_corrcoef", "balanced_accuracy_score"]),
       st.sampled_from(["two-sided", "less", "greater"]))
def test_permutation_exact_matches_exhaustive_enumeration_cells(data, name, alternative):
    y, a, b = data
    func = getattr(metrics, name)
    r = paired_permutation_test(y, a, b, name, alternative=alternative, n_resamples=10**6)
    assert r.extra["exact"]
    with _quiet():
        expected = _brute_permutation_p(y, a, b, func, alternative)
    if not np.array_equal(a, b):
        assert r.pvalue == pytest.approx(expected, abs=1e-12)
    else:
        assert r.pvalue == 1.0


@settings(max_examples=15)
@given(_tiny_labels(k=2))
def test_permutation_exact_matches_enumeration_row_path_and_f1(data):
    y, a, b = data
    for metric in (lambda t, p: float(np.mean(t == p)) ** 2, functools.partial(metrics.f1_score, zero_division=0)):
        r = paired_permutation_test(y, a, b, metric, n_resamples=10**6)
        with _quiet():
            expected = _brute_permutation_p(y, a, b, metric)
        assert r.pvalue == pytest.approx(expected, abs=1e-12)


def test_permutation_scores_exhaustive_roc_auc():
    rng = np.random.default_rng(3)
    y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
    a = rng.random(8) + 0.3 * y
    b = rng.random(8)
    r = paired_permutation_test(y, a, b, "roc_auc_score", n_resamples=10**4)
    assert r.extra["exact"]
    assert r.pvalue == pytest.approx(_brute_permutation_p(y, a, b, metrics.roc_auc_score), abs=1e-12)


def test_permutation_monte_carlo_close_to_exact():
    y = np.array([0, 1] * 10)
    a = y.copy()
    b = y.copy()
    b[:12] = 1 - b[:12]
    a[12:15] = 1 - a[12:15]  # 15 discordant cases: 32768 swap patterns
    metric = lambda t, p: float(np.mean(t == p))  # noqa: E731 - a plain callable: row path
    exact = paired_permutation_test(y, a, b, metric, n_resamples=2**15)
    mc = paired_permutation_test(y, a, b, metric, n_resamples=3000, seed=1)
    assert exact.extra["exact"] and not mc.extra["exact"]
    assert mc.pvalue == pytest.approx(exact.pvalue, abs=0.03)
    cells = paired_permutation_test(y, a, b, "accuracy_score", n_resamples=3000, seed=1)
    assert cells.extra["exact"]  # swapped counts per joint cell: 7 * 7 * 3 * 2 patterns
    assert cells.pvalue == pytest.approx(exact.pvalue, abs=1e-12)


def _naive_bootstrap(y, a, b, metric, B, seed, stratify=True):
    rng = np.random.default_rng(seed)
    classes = [np.flatnonzero(y == c) for c in np.unique(y)]
    out = []
    for _ in range(B):
        if stratify:
            idx = np.concatenate([c[rng.integers(0, c.size, c.size)] for c in classes])
        else:
            idx = rng.integers(0, y.size, y.size)
        out.append(metric(y[idx], a[idx]) - metric(y[idx], b[idx]))
    return np.array(out)


@pytest.mark.parametrize("name", ["accuracy_score", "matthews_corrcoef", "f1_score"])
@pytest.mark.parametrize("stratify", [True, False])
def test_bootstrap_cells_agrees_with_naive_row_loop(name, stratify):
    rng = np.random.default_rng(5)
    n = 400
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.8, y, 1 - y)
    b = np.where(rng.random(n) < 0.7, y, 1 - y)
    func = getattr(metrics, name)
    B = 3000
    sampling = "stratified" if stratify else "cross-sectional"
    r = paired_bootstrap_test(y, a, b, name, n_resamples=B, seed=11, sampling=sampling)
    assert "cells" in r.method
    naive = _naive_bootstrap(y, a, b, func, B, 12, stratify)
    assert r.estimate == pytest.approx(func(y, a) - func(y, b), abs=1e-12)
    assert r.extra["se"] == pytest.approx(naive.std(ddof=1), rel=0.08)
    lo, hi = r.confidence_interval(0.9)
    nlo, nhi = np.quantile(naive, [0.05, 0.95])
    tol = 0.25 * naive.std()
    assert abs(lo - nlo) < tol and abs(hi - nhi) < tol


def test_bootstrap_row_path_matches_naive_loop_same_seed():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 60)
    a = rng.random(60) + 0.5 * y
    b = rng.random(60) + 0.2 * y
    metric = lambda t, s: metrics.roc_auc_score(t, s)  # noqa: E731 - plain callable: row resampling
    r = paired_bootstrap_test(y, a, b, metric, n_resamples=300, seed=4, sampling="cross-sectional")
    naive = _naive_bootstrap(y, a, b, metric, 300, 4, stratify=False)  # same generator calls
    lo, hi = r.confidence_interval(0.8)
    assert (lo, hi) == (pytest.approx(np.quantile(naive, 0.1)), pytest.approx(np.quantile(naive, 0.9)))
    assert r.extra["se"] == pytest.approx(naive.std(ddof=1))


@st.composite
def _tables(draw):
    k = draw(st.integers(2, 4))
    n = draw(st.integers(4, 30))
    arr = hnp.arrays(np.int64, n, elements=st.integers(0, k - 1))
    return draw(arr), draw(arr), draw(arr), draw(hnp.arrays(np.int64, (3, 1), elements=st.integers(0, 5)))


@settings(max_examples=30)
@given(_tables(), st.sampled_from(["accuracy_score", "matthews_corrcoef", "cohen_kappa_score",
                                    "balanced_accuracy_score", "error_rate", "zero_one_loss"]))
def test_table_values_equal_metric_on_expanded_rows(data, name):
    y, a, b, _ = data
    cells = _Cells(y, a, b)
    rng = np.random.default_rng(len(y))
    reps = rng.multinomial(len(y), cells.counts / cells.counts.sum(), size=5).astype(float)
    ta, _ = cells.tables(reps)
    m = _Metric(name)
    with _quiet():
        got = _table_values(m, cells, ta, {})
        for r in range(5):
            rows = np.repeat(np.arange(cells.counts.size), reps[r].astype(int))
            yy, pp = cells.labels[cells.t[rows]], cells.labels[cells.a[rows]]
            np.testing.assert_allclose(got[r], m(yy, pp), rtol=0, atol=1e-12, equal_nan=True)  # both NaN if 0/0


def test_swapping_a_and_b_negates_the_estimate():
    rng = np.random.default_rng(8)
    y = rng.integers(0, 3, 200)
    a = np.where(rng.random(200) < 0.7, y, rng.integers(0, 3, 200))
    b = np.where(rng.random(200) < 0.6, y, rng.integers(0, 3, 200))
    f1 = functools.partial(metrics.f1_score, average="macro")
    r1 = paired_bootstrap_test(y, a, b, f1, n_resamples=500, seed=1)
    r2 = paired_bootstrap_test(y, b, a, f1, n_resamples=500, seed=1)
    assert r2.estimate == pytest.approx(-r1.estimate)
    p1 = paired_permutation_test(y, a, b, "accuracy_score", n_resamples=2000, seed=3)
    p2 = paired_permutation_test(y, b, a, "accuracy_score", n_resamples=2000, seed=3)
    assert p2.estimate == pytest.approx(-p1.estimate)
    assert p2.pvalue == pytest.approx(p1.pvalue, abs=0.04)  # Monte Carlo: same null, other draws


def test_seeded_and_reproducible():
    y = [0, 1, 1, 0, 1, 0, 1, 1, 0, 0] * 5
    a = [0, 1, 1, 0, 1, 0, 1, 0, 0, 0] * 5
    b = [0, 1, 0, 0, 1, 1, 1, 0, 1, 0] * 5
    for fn in (paired_bootstrap_test, paired_permutation_test):
        r1 = fn(y, a, b, "f1_score", n_resamples=300, seed=42)
        r2 = fn(y, a, b, "f1_score", n_resamples=300, seed=42)
        assert r1.pvalue == r2.pvalue
    c1 = paired_bootstrap_test(y, a, b, "f1_score", n_resamples=300, seed=42).confidence_interval()
    c2 = paired_bootstrap_test(y, a, b, "f1_score", n_resamples=300, seed=42).confidence_interval()
    assert (c1.low, c1.high) == (c2.low, c2.high)


def test_identical_predictions_p_one_with_note():
    y = [0, 1, 1, 0, 1, 0]
    a = [0, 1, 0, 0, 1, 1]
    for fn in (paired_bootstrap_test, paired_permutation_test):
        r = fn(y, a, list(a), "accuracy_score", n_resamples=200, seed=0)
        assert r.pvalue == 1.0 and r.estimate == 0.0
        assert any("identical" in note for note in r.notes)


def test_bootstrap_pvalue_and_interval_are_consistent():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    a = np.where(rng.random(300) < 0.85, y, 1 - y)
    b = np.where(rng.random(300) < 0.7, y, 1 - y)
    r = paired_bootstrap_test(y, a, b, "accuracy_score", n_resamples=2000, seed=0)
    assert r.pvalue < 0.05 and r.confidence_interval(0.95).low > 0
    g = paired_bootstrap_test(y, a, b, "accuracy_score", n_resamples=2000, seed=0, alternative="greater")
    lo, hi = g.confidence_interval(0.95)
    assert hi == np.inf and g.pvalue <= r.pvalue


def test_bad_input():
    y, a = [0, 1, 1, 0], [0, 1, 0, 0]
    with pytest.raises(ValueError, match="inconsistent"):
        paired_bootstrap_test(y, a, [0, 1], "accuracy_score")
    with pytest.raises(ValueError, match="not a clfeval.metrics function"):
        paired_permutation_test(y, a, a, "accuracy")
    with pytest.raises(TypeError, match="callable"):
        paired_permutation_test(y, a, a, 3)
    with pytest.raises(ValueError, match="at least 2 cases"):
        paired_bootstrap_test([1], [1], [0], "accuracy_score")
    with pytest.raises(ValueError, match="n_resamples"):
        paired_bootstrap_test(y, a, a, "accuracy_score", n_resamples=0)
    with pytest.raises(ValueError, match="same shape"):
        paired_bootstrap_test(y, np.ones((4, 2)), np.ones((4, 3)), lambda t, p: 0.0)
    with pytest.raises(ValueError, match="undefined"):
        paired_bootstrap_test([1, 1, 1], [0.1, 0.2, 0.3], [0.3, 0.2, 0.1], "roc_auc_score")
