"""The count paths of smooth ECE and CORP (issue 22, speed): an Evaluation's ranking gives the
distinct probabilities with integer counts and their running counts, and
:func:`~clfeval.formulas.smooth_ece.smooth_ece_of_counts`,
:func:`~clfeval.formulas.isotonic.pav_blocks_of_counts` and ``corp_decompositions(..., above=...)``
read them without forming weight or residual arrays. Each equals the array path it replaces
(blocks exactly, values to 1e-12), the isotonic fit equals scikit-learn's, the smooth ECE equals
``relplot.smECE``, on reversed (a ranking's) and contiguous arrays, with ties and integer weights.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
import clfeval.formulas.isotonic as iso
from clfeval.calibration.modern import (
    BAND_POINTS,
    ViewCounts,
    corp_and_smooth_ece,
    view_counts_of_ranking,
)
from clfeval.formulas.isotonic import (
    corp_decompositions,
    pav_blocks,
    pav_blocks_of_counts,
)
from clfeval.formulas.smooth_ece import (
    grid_size,
    search_sizes,
    smooth_ece,
    smooth_ece_batch,
    smooth_ece_of_counts,
)

sklearn_isotonic = pytest.importorskip("sklearn.isotonic")


def _counts(seed: int, n: int, one_each: bool, gamma: float = 1.3):
    """(v increasing, neg or None, pos) and the same as reversed views of decreasing arrays (a
    ranking's layout) with their running counts at or above each value."""
    rng = np.random.default_rng(seed)
    v = np.sort(rng.uniform(size=n)) if one_each else np.unique(np.round(rng.uniform(size=n), 4))
    if one_each:
        neg, pos = None, rng.uniform(size=v.size) < v**gamma
    else:
        cnt = rng.integers(1, 6, size=v.size)
        pos = rng.binomial(cnt, v**gamma)
        neg = cnt - pos
    dec_pos = pos[::-1].copy()
    dec_neg = None if neg is None else neg[::-1].copy()
    reversed_view = (dec_pos[::-1], None if neg is None else dec_neg[::-1])
    above = (None if neg is None else np.cumsum(dec_neg)[::-1], np.cumsum(dec_pos, dtype=np.int64)[::-1])
    return v, neg, pos, v[::-1].copy()[::-1], reversed_view, above


def _arrays(neg, pos):
    p = np.asarray(pos, dtype=np.float64)
    n = 1.0 - p if neg is None else np.asarray(neg, dtype=np.float64)
    return n, p, n + p


# -- smooth ECE ------------------------------------------------------------------------------------

def test_search_sizes_are_every_grid_the_search_can_read():
    sigmas = {1.0} | {k / 1024 for k in range(2, 1025)}
    assert set(search_sizes()) == {grid_size(s) for s in sigmas}


@pytest.mark.parametrize("one_each", [True, False])
@pytest.mark.parametrize("n", [1, 40, 5000, 120_000])
def test_smooth_ece_of_counts_equals_the_array_path(one_each, n):
    v, neg, pos, v_rev, (pos_rev, neg_rev), above = _counts(n, n, one_each)
    _, p, w = _arrays(neg, pos)
    ref, ref_sigma = smooth_ece(v, w, w * v - p)
    for got in (smooth_ece_of_counts(v, neg, pos), smooth_ece_of_counts(v, neg, pos, above=above),
                smooth_ece_of_counts(v_rev, neg_rev, pos_rev, above=above),
                smooth_ece_of_counts(v_rev, neg_rev, pos_rev)):
        assert got[1] == ref_sigma
        assert got[0] == pytest.approx(ref, rel=1e-12, abs=0)


def test_smooth_ece_of_counts_equals_relplot():
    relplot = pytest.importorskip("relplot")
    v, _, pos, v_rev, (pos_rev, _), above = _counts(3, 30_000, True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref, ref_sigma = relplot.smECE(v, pos.astype(float), return_width=True)
    value, sigma = smooth_ece_of_counts(v_rev, None, pos_rev, above=above)
    assert sigma == ref_sigma
    assert value == pytest.approx(float(ref), abs=1e-9)


def test_smooth_ece_of_counts_refuses_bad_values_and_passes_weights_on():
    with pytest.raises(ValueError, match="increasing"):
        smooth_ece_of_counts(np.array([0.5, 0.2]), None, np.array([True, False]))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        smooth_ece_of_counts(np.array([0.2, 1.5]), None, np.array([True, False]))
    v, neg, pos = np.array([0.2, 0.6, 0.9]), np.array([1.5, 0.5, 0.0]), np.array([0.0, 1.0, 2.5])
    assert smooth_ece_of_counts(v, neg, pos) == smooth_ece(v, neg + pos, (neg + pos) * v - pos)
    assert np.isnan(smooth_ece_of_counts(np.zeros(0), None, np.zeros(0, dtype=bool))[0])


def test_batch_rows_read_one_binning_for_every_bandwidth():
    # rows whose searches end at very different bandwidths (sizes 1001 ... 5121), one at a time
    rng = np.random.default_rng(0)
    v = np.sort(rng.uniform(size=4000))
    pos = np.stack([rng.uniform(size=v.size) < v, rng.uniform(size=v.size) < 0.5, rng.uniform(size=v.size) < v**4])
    w = np.ones_like(pos, dtype=float)
    r = v - pos
    value, sigma = smooth_ece_batch(v, w, r)
    assert len(set(sigma.tolist())) == 3
    for i in range(3):
        assert (value[i], sigma[i]) == pytest.approx(smooth_ece(v, w[i], r[i]), rel=1e-12)


# -- the isotonic fit ------------------------------------------------------------------------------

@pytest.mark.parametrize("one_each", [True, False])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pav_blocks_of_counts_equals_pav_blocks_exactly(one_each, seed):
    n = 40_000 + 30_000 * seed  # long: above _SPLIT_FROM
    _, neg, pos, _, (pos_rev, neg_rev), above = _counts(seed, n, one_each, gamma=0.5 + seed)
    _, p, w = _arrays(neg, pos)
    ref = pav_blocks(p / w, w)
    for got in (pav_blocks_of_counts(neg, pos), pav_blocks_of_counts(neg_rev, pos_rev),
                pav_blocks_of_counts(neg_rev, pos_rev, above=above)):
        np.testing.assert_array_equal(got[0], ref[0])
        np.testing.assert_array_equal(got[1], ref[1])


counts_rows = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=70)


@settings(max_examples=150, deadline=None)
@given(counts_rows, st.booleans())
def test_the_hull_path_equals_isotonic_regression(rows, one_each):
    # every length through the hull (as from _SPLIT_FROM on), ties and weights
    neg = np.array([max(a, 1 - b) if not one_each else 0 for a, b in rows])
    pos = np.array([b if not one_each else b % 2 for a, b in rows])
    if one_each:
        neg = 1 - pos
    w = neg + pos
    keep = w > 0
    neg, pos, w = neg[keep], pos[keep], w[keep]
    if w.size == 0:
        return
    old = iso._SPLIT_FROM
    try:
        iso._SPLIT_FROM = 1
        got = pav_blocks_of_counts(None if one_each else neg, pos.astype(bool) if one_each else pos)
    finally:
        iso._SPLIT_FROM = old
    fit = np.repeat(got[1], np.diff(np.append(got[0], w.size)))
    x = np.arange(w.size)
    ref = sklearn_isotonic.IsotonicRegression().fit(x, pos / w, sample_weight=w).predict(x)
    np.testing.assert_allclose(fit, ref, atol=1e-12, rtol=0)
    assert (np.diff(got[1]) > 0).all()  # ties pooled: each block above the last


def test_pav_blocks_of_counts_declines_what_it_cannot_do_exactly():
    assert pav_blocks_of_counts(np.array([1.0, 0.5]), np.array([0.0, 1.0])) is None  # float weights
    long = np.ones(1 << 16, dtype=np.int64)
    long[5] = 0
    assert pav_blocks_of_counts(long * 0, long) is None  # a probability of no weight


# -- CORP and the band -----------------------------------------------------------------------------

@pytest.mark.parametrize("one_each", [True, False])
def test_decompositions_from_running_counts(one_each):
    v, neg, pos, v_rev, (pos_rev, neg_rev), above = _counts(7, 50_000, one_each)
    n, p, _ = _arrays(neg, pos)
    ref = corp_decompositions(v, n, p)
    blocks = pav_blocks_of_counts(neg_rev, pos_rev, above=above)
    got = corp_decompositions(v_rev, neg_rev, pos_rev, blocks=blocks, above=above)
    for score in ref:
        np.testing.assert_allclose(got[score], ref[score], rtol=1e-12, atol=1e-15)
    known = {"brier": ref["brier"][0], "log": ref["log"][0]}
    with_known = corp_decompositions(v_rev, neg_rev, pos_rev, blocks=blocks, above=above, forecast=known)
    for score in ref:
        np.testing.assert_allclose(with_known[score], ref[score], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("one_each, n", [(True, 300), (True, 60_000), (False, 60_000)])
def test_corp_and_smooth_ece_from_running_counts(one_each, n):
    v, neg, pos, v_rev, (pos_rev, neg_rev), above = _counts(11, n, one_each)
    ref_s, ref_c = corp_and_smooth_ece(v, 1 - pos.astype(np.int64) if neg is None else neg, pos.astype(np.int64),
                                       view="v", band_resamples=50)
    s, c = corp_and_smooth_ece(v_rev, neg_rev, pos_rev, view="v", band_resamples=50, above=above)
    assert s.bandwidth == ref_s.bandwidth and s.value == pytest.approx(ref_s.value, rel=1e-12)
    np.testing.assert_array_equal(c.x, ref_c.x)
    np.testing.assert_allclose(c.recalibrated, ref_c.recalibrated, rtol=1e-12)
    np.testing.assert_allclose(c.band_low, ref_c.band_low, rtol=1e-12)
    np.testing.assert_allclose(c.band_high, ref_c.band_high, rtol=1e-12)
    assert c.band_method == ref_c.band_method
    assert ("groups" in c.band_method) == (v.size > BAND_POINTS)
    for score in ("brier", "log"):
        a, b = getattr(c, score), getattr(ref_c, score)
        np.testing.assert_allclose([a.value, a.miscalibration, a.discrimination, a.uncertainty],
                                   [b.value, b.miscalibration, b.discrimination, b.uncertainty], rtol=1e-12)


@pytest.mark.parametrize("weights", [None, "int"])
def test_view_counts_of_a_ranking_carry_its_running_counts(weights):
    rng = np.random.default_rng(2)
    f = np.round(rng.uniform(size=3000), 2 if weights else 6)
    y = (rng.uniform(size=f.size) < f).astype(int)
    ev = clfeval.evaluate(y, y_score=f)
    counts = view_counts_of_ranking(ev.ranking("1"))
    assert isinstance(counts, ViewCounts) and isinstance(counts, tuple)
    v, neg, pos = counts
    np.testing.assert_array_equal(counts.above[1], np.cumsum(pos[::-1])[::-1])
    if counts.one_each:
        assert counts.above[0] is None and (neg + pos == 1).all()
    else:
        np.testing.assert_array_equal(counts.above[0], np.cumsum(neg[::-1])[::-1])
    # the evaluation's report reads them: the same as from the plain arrays
    corp = ev.calibration().corp
    ref = corp_and_smooth_ece(v, np.asarray(neg, dtype=np.int64), np.asarray(pos, dtype=np.int64), view="v",
                              forecast_scores={"brier": ev.calibration().brier, "log": ev.calibration().log_loss})[1]
    np.testing.assert_array_equal(corp.x, ref.x)
    np.testing.assert_allclose(corp.band_low, ref.band_low, rtol=1e-12)
    assert corp.brier.miscalibration == pytest.approx(ref.brier.miscalibration, rel=1e-12)


def test_long_tables_bin_the_other_grid_sizes_together(monkeypatch):
    # calibrated: the search goes below 0.01, where the grids grow past 1001 points; a table of
    # UNION_FROM values or more bins those sizes together, shorter ones each on its own
    import clfeval.formulas.smooth_ece as se

    v, neg, pos, v_rev, (pos_rev, _), above = _counts(5, se.UNION_FROM + 5000, True, gamma=1.0)
    _, p, w = _arrays(neg, pos)
    together = smooth_ece_of_counts(v_rev, None, pos_rev, above=above), smooth_ece(v, w, w * v - p)
    assert together[0][1] < 0.01
    monkeypatch.setattr(se, "UNION_FROM", 1 << 40)
    alone = smooth_ece_of_counts(v_rev, None, pos_rev, above=above), smooth_ece(v, w, w * v - p)
    for a, b in zip(together, alone):
        assert a[1] == b[1] and a[0] == pytest.approx(b[0], rel=1e-12)
    relplot = pytest.importorskip("relplot")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref, ref_sigma = relplot.smECE(v, pos.astype(float), return_width=True)
    assert together[0][1] == ref_sigma and together[0][0] == pytest.approx(float(ref), abs=1e-9)
