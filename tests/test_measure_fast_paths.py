"""The fast paths of issue 22's measures (``benchmarks/measures_bench.py``) give the numbers of the
plain formulas they replace.

* partial AUC: :func:`partial_area_and_variance` (only the scores inside the range, the ranking's
  cumulative counts) against :func:`partial_placement_values` + :func:`partial_area_variance`
  (the per-score components over every score), ties, zero cells and one-sample-per-score rankings;
* PRG: :func:`prg_area` from the cumulative counts against the rates of every point, bit for bit;
* CORP: :func:`pav_blocks` on long inputs (pooling passes, then splits at means) against
  scikit-learn's ``IsotonicRegression`` (oracle); :func:`corp_decompositions` against one
  :func:`corp_decomposition` per score, and with the forecasts' scores handed in;
* smooth ECE: the grid sums by runs of sorted values do not depend on the input's order, and an
  Evaluation's CORP (forecast scores taken from its calibration report) equals CORP summed afresh.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.calibration.modern import corp_and_smooth_ece, view_counts_of_ranking
from clfeval.formulas.isotonic import (
    corp_decomposition,
    corp_decompositions,
    pav,
    pav_blocks,
)
from clfeval.formulas.partial_placements import (
    partial_area_and_variance,
    partial_area_variance,
    partial_placement_values,
)
from clfeval.formulas.prg import prg_area
from clfeval.formulas.smooth_ece import smooth_ece, smooth_ece_batch

BOUNDS = [0.0, 0.1, 0.25, 1 / 3, 0.5, 2 / 3, 0.75, 0.9, 1.0]


def _cells(seed: int, d: int, kind: str) -> tuple[np.ndarray | None, np.ndarray]:
    """(neg or None, pos) of d scores, highest first: counts with ties and zero cells, weights, or
    one sample per score (neg None, pos bool)."""
    rng = np.random.default_rng(seed)
    if kind == "one each":
        return None, rng.random(d) < 0.5
    neg, pos = rng.integers(0, 4, d), rng.integers(0, 4, d)
    if kind == "weights":
        return neg * rng.random(d), pos * rng.random(d)
    return neg, pos


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**6), d=st.integers(1, 40), kind=st.sampled_from(["counts", "weights", "one each"]),
       bounds=st.lists(st.one_of(st.sampled_from(BOUNDS), st.floats(0, 1)), min_size=2, max_size=2, unique=True),
       axis=st.sampled_from(["fpr", "tpr"]), cumulative=st.booleans())
def test_partial_area_and_variance_equal_the_per_score_components(seed, d, kind, bounds, axis, cumulative):
    neg, pos = _cells(seed, d, kind)
    lo, hi = sorted(bounds)
    full_neg = (~pos) if neg is None else neg
    area, v10, v01 = partial_placement_values(full_neg, pos, lo, hi, axis)
    variance = partial_area_variance(full_neg, pos, v10, v01)
    kw = {}
    if cumulative and axis == "fpr":  # as an Evaluation hands them over: tps, and fps unless one sample each
        kw = {"cum_pos": np.cumsum(pos), "cum_neg": None if neg is None else np.cumsum(neg)}
        before = {k: None if v is None else v.copy() for k, v in kw.items()}
    fast_area, fast_variance = partial_area_and_variance(neg, pos, lo, hi, axis, **kw)
    if np.isnan(area):
        assert np.isnan(fast_area) and np.isnan(fast_variance)
        return
    assert fast_area == pytest.approx(area, abs=1e-14)
    if np.isnan(variance):
        assert np.isnan(fast_variance)
    else:
        assert fast_variance == pytest.approx(variance, rel=1e-12, abs=1e-16)
    for k, v in kw.items():  # the ranking's cached counts are left as they were
        assert v is None or np.array_equal(v, before[k])


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), d=st.integers(1, 40), kind=st.sampled_from(["counts", "weights", "one each"]))
def test_prg_area_from_cumulative_counts_is_bit_for_bit(seed, d, kind):
    neg, pos = _cells(seed, d, kind)
    plain = prg_area(neg, pos)
    cum_neg = None if neg is None else np.cumsum(neg)
    fast = prg_area(neg, pos, cum_pos=np.cumsum(pos), cum_neg=cum_neg)
    assert (np.isnan(plain) and np.isnan(fast)) or fast == plain


@pytest.mark.parametrize("seed", range(6))
def test_long_pav_matches_sklearn_isotonic_regression(seed):
    """Inputs of 2^15 values and more take the pooling passes and splits; sklearn is the oracle."""
    from sklearn.isotonic import IsotonicRegression

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1 << 15, 1 << 17))
    x = np.sort(rng.random(n))
    if seed >= 4:  # continuous values: small rises between pooled means
        y = x + rng.normal(0.0, 0.2, n)
    elif seed % 2:  # shares of positives with many ties (few distinct values)
        y = rng.integers(0, 4, n) / 3
    else:
        y = (rng.random(n) < x**1.5).astype(np.float64)
    w = rng.integers(1, 4, n).astype(np.float64) if seed < 2 else rng.random(n) + 0.01
    fit = pav(y, w)
    oracle = IsotonicRegression().fit(np.arange(n), y, sample_weight=w).predict(np.arange(n))
    np.testing.assert_allclose(fit, oracle, rtol=0, atol=1e-10)
    _, values = pav_blocks(y, w)
    assert (np.diff(values) > 0).all()  # blocks of a long input: strictly increasing, ties pooled


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), d=st.integers(1, 30))
def test_corp_decompositions_equal_one_decomposition_per_score(seed, d):
    rng = np.random.default_rng(seed)
    v = np.unique(np.round(rng.random(d), 2))
    neg, pos = rng.integers(0, 3, v.size), rng.integers(0, 3, v.size)
    both = corp_decompositions(v, neg, pos)
    for score in ("brier", "log"):
        one = corp_decomposition(v, neg, pos, score)
        np.testing.assert_allclose(both[score], one, rtol=1e-12, atol=1e-15)
        given_forecast = corp_decompositions(v, neg, pos, (score,), forecast={score: one[0]})[score]
        np.testing.assert_allclose(given_forecast, one, rtol=1e-12, atol=1e-15)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), d=st.integers(2, 300))
def test_smooth_ece_does_not_depend_on_the_order_of_the_values(seed, d):
    rng = np.random.default_rng(seed)
    v = np.unique(np.round(rng.random(d), int(rng.integers(1, 4))))
    w = rng.integers(0, 5, (2, v.size)).astype(np.float64)
    r = w * v - np.minimum(rng.integers(0, 5, w.shape), w)
    order = rng.permutation(v.size)
    a_value, a_sigma = smooth_ece_batch(v, w, r)
    b_value, b_sigma = smooth_ece_batch(v[order], w[:, order], r[:, order])
    np.testing.assert_array_equal(a_sigma, b_sigma)
    np.testing.assert_allclose(a_value, b_value, rtol=1e-12, atol=1e-15)
    if w[0].sum() > 0:
        assert smooth_ece(v, w[0], r[0]) == (pytest.approx(float(a_value[0]), rel=1e-12), float(a_sigma[0]))


@pytest.mark.parametrize("weighted", [False, True])
def test_evaluation_corp_takes_its_reports_scores_to_rounding(weighted):
    rng = np.random.default_rng(1)
    s = np.round(rng.random(3000), 3)
    y = (rng.random(3000) < s**1.3).astype(int)
    ev = clfeval.evaluate(y, y_score=s, sample_weight=rng.random(3000) * 2 if weighted else None)
    corp = ev.calibration().corp
    ranking = ev.ranking(ev.names[ev.positive_index])
    _, fresh = corp_and_smooth_ece(*view_counts_of_ranking(ranking), view="v", band_resamples=0)
    for a, b in ((corp.brier, fresh.brier), (corp.log, fresh.log)):
        for k in ("value", "miscalibration", "discrimination", "uncertainty"):
            assert getattr(a, k) == pytest.approx(getattr(b, k), rel=1e-12, abs=1e-15)
