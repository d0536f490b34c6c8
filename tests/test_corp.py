"""CORP (Dimitriadis, Gneiting & Jordan 2021, PNAS 118(8) e2016191118): the isotonic recalibration
(weighted PAV over the distinct probabilities, ties pooled) against scikit-learn's
``IsotonicRegression`` (an independent computation, per sample), the decomposition of the Brier and
the log score into MCB - DSC + UNC against ``model_diagnostics.scoring.decompose`` (Fissler,
Lorentzen & Mayer's package, which runs the same decomposition through scikit-learn's isotonic
regression), the identities and signs as properties, the consistency band, streams, and the views
(terminal line, JSON, HTML trace).
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.calibration.modern import (
    corp_and_smooth_ece,
    view_counts_of_bins,
)
from clfeval.formulas.isotonic import (
    consistency_band,
    corp_decomposition,
    pav,
    pav_blocks,
    pav_rows,
)
from clfeval.streaming import StreamingEvaluation

sklearn_isotonic = pytest.importorskip("sklearn.isotonic")


def _rows(seed: int, n: int, gamma: float = 1.3, ties: bool = False) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    f = rng.uniform(0.01, 0.99, size=n)
    if ties:
        f = np.round(f, 1)
    y = (rng.uniform(size=n) < f**gamma).astype(int)
    return f, y


def _table(f, y, w=None):
    v, inv = np.unique(f, return_inverse=True)
    w = np.ones(f.size) if w is None else np.asarray(w, dtype=float)
    pos = np.bincount(inv, weights=w * y, minlength=v.size)
    neg = np.bincount(inv, weights=w * (1 - y), minlength=v.size)
    return v, neg, pos


def _iso(f, y, w=None):
    return sklearn_isotonic.IsotonicRegression().fit(f, y, sample_weight=w).predict(f)


# -- PAV ---------------------------------------------------------------------------------------------

weights = st.floats(0.01, 10.0, allow_nan=False)


@given(st.lists(st.tuples(st.floats(-5, 5, allow_nan=False), weights), min_size=1, max_size=80))
def test_pav_is_monotone_and_equals_isotonic_regression(rows):
    y = np.array([r[0] for r in rows])
    w = np.array([r[1] for r in rows])
    fit = pav(y, w)
    assert (np.diff(fit) >= -1e-12).all()
    x = np.arange(y.size)
    ref = sklearn_isotonic.IsotonicRegression().fit(x, y, sample_weight=w).predict(x)
    np.testing.assert_allclose(fit, ref, atol=1e-10, rtol=0)
    # all rows at once, the same
    np.testing.assert_allclose(pav_rows(np.stack([y, y[::-1]]), w)[0], fit, atol=1e-10, rtol=0)


def test_pav_on_a_long_cascade_and_many_rows():
    # one huge violator at the end pools everything: the passes give up, the stack finishes
    y = np.r_[np.arange(5000.0), -1e9]
    np.testing.assert_allclose(pav(y, np.ones(y.size)), np.full(y.size, y.mean()))
    rng = np.random.default_rng(0)
    Y = rng.binomial(1, np.linspace(0.05, 0.95, 700), size=(40, 700)).astype(float)
    w = rng.uniform(0.5, 2, size=700)
    np.testing.assert_allclose(pav_rows(Y, w), np.array([pav(r, w) for r in Y]), atol=1e-12)


@pytest.mark.parametrize("passes, split", [(0, False), (1, False), (64, False), (64, True)])
def test_pav_paths_agree_with_isotonic_regression(passes, split, monkeypatch):
    # 0 passes: the stack alone; 1: one vectorised pass, then the stack; 64: the passes;
    # split: splitting at means (long inputs), at every length
    import clfeval.formulas.isotonic as iso

    monkeypatch.setattr(iso, "_PASSES", passes)
    monkeypatch.setattr(iso, "_SPLIT_FROM", 1 if split else 10**9)
    rng = np.random.default_rng(passes)
    for _ in range(20):
        n = int(rng.integers(1, 300))
        y = rng.binomial(1, np.sort(rng.uniform(size=n))).astype(float) + rng.normal(0, 0.1, size=n)
        w = rng.uniform(0.1, 3, size=n)
        x = np.arange(n)
        ref = sklearn_isotonic.IsotonicRegression().fit(x, y, sample_weight=w).predict(x)
        np.testing.assert_allclose(pav(y, w), ref, atol=1e-10, rtol=0)
        np.testing.assert_allclose(pav_rows(np.stack([y, y]), w)[1], ref, atol=1e-10, rtol=0)


def test_pav_refuses_zero_weights():
    with pytest.raises(ValueError, match="positive weights"):
        pav_blocks([0.0, 1.0], [1.0, 0.0])


# -- the recalibration and decomposition against independent computations --------------------------

@pytest.mark.parametrize("ties", [False, True])
def test_recalibration_equals_sklearn_per_sample(ties):
    f, y = _rows(1, 2000, ties=ties)
    ev = clfeval.evaluate(y, y_score=f)
    corp = ev.calibration().corp
    ref = _iso(f, y)
    # the curve's points are distinct probabilities; at each, sklearn's fit of the samples there
    at = np.searchsorted(np.unique(f), corp.x)
    np.testing.assert_allclose(corp.recalibrated, ref[np.argsort(f, kind="stable")][np.searchsorted(
        np.sort(f), np.unique(f)[at])], atol=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_decomposition_equals_model_diagnostics(seed):
    md = pytest.importorskip("model_diagnostics.scoring")
    f, y = _rows(seed, 1500, gamma=1.0 + 0.3 * seed, ties=seed == 2)
    w = np.random.default_rng(seed).integers(1, 4, size=f.size).astype(float) if seed == 1 else None
    v, neg, pos = _table(f, y, w)
    for score, fn in (("brier", md.SquaredError()), ("log", md.LogLoss())):
        ref = md.decompose(y, f, weights=w, scoring_function=fn)
        value, mcb, dsc, unc = corp_decomposition(v, neg, pos, score)
        assert value == pytest.approx(float(ref["score"][0]), abs=1e-12)
        assert mcb == pytest.approx(float(ref["miscalibration"][0]), abs=1e-12)
        assert dsc == pytest.approx(float(ref["discrimination"][0]), abs=1e-12)
        assert unc == pytest.approx(float(ref["uncertainty"][0]), abs=1e-12)


def test_decomposition_from_sklearn_isotonic_by_hand():
    # independent: MCB = S(f) - S(iso(f)), DSC = S(ybar) - S(iso(f)), UNC = S(ybar), per sample
    f, y = _rows(5, 3000, ties=True)
    iso = _iso(f, y)
    ybar = y.mean()
    brier = lambda p: float(np.mean((y - p) ** 2))
    ev = clfeval.evaluate(y, y_score=f)
    d = ev.calibration().corp.brier
    assert d.value == pytest.approx(brier(f), abs=1e-12)
    assert d.miscalibration == pytest.approx(brier(f) - brier(iso), abs=1e-12)
    assert d.discrimination == pytest.approx(brier(np.full(f.size, ybar)) - brier(iso), abs=1e-12)
    assert d.uncertainty == pytest.approx(ybar * (1 - ybar), abs=1e-12)


def test_scores_equal_the_reports_brier_and_log_loss():
    f, y = _rows(7, 1000)
    r = clfeval.evaluate(y, y_score=f).calibration()
    assert r.corp.brier.value == pytest.approx(r.brier, abs=1e-12)
    assert r.corp.log.value == pytest.approx(r.log_loss, abs=1e-12)


# -- properties --------------------------------------------------------------------------------------

probabilities = st.integers(0, 20).map(lambda i: i / 20)
rows_strategy = st.lists(st.tuples(probabilities, st.booleans(), st.integers(0, 3)), min_size=1, max_size=60)


@given(rows_strategy)
def test_identity_and_signs(rows):
    f = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows], dtype=int)
    w = np.array([r[2] for r in rows], dtype=float)  # zero weights included
    v, neg, pos = _table(f, y, w)
    for score in ("brier", "log"):
        value, mcb, dsc, unc = corp_decomposition(v, neg, pos, score)
        if not w.sum() > 0:
            assert np.isnan(value)
            continue
        assert mcb >= -1e-12 and dsc >= -1e-12 and unc >= 0
        assert value == pytest.approx(mcb - dsc + unc, abs=1e-12)
        # zero weights: as if those rows were not there
        keep = w > 0
        again = corp_decomposition(*_table(f[keep], y[keep], w[keep]), score)
        np.testing.assert_allclose(again, (value, mcb, dsc, unc), atol=1e-12)


@given(rows_strategy)
def test_recalibrated_forecasts_have_no_miscalibration(rows):
    f = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows], dtype=int)
    w = np.array([r[2] for r in rows], dtype=float) + 1.0
    v, neg, pos = _table(f, y, w)
    fit = pav(pos / (neg + pos), neg + pos)
    # the recalibration as the forecast (distinct values pooled): its own recalibration, MCB 0
    at = np.searchsorted(v, f)
    v2, neg2, pos2 = _table(fit[at], y, w)
    for score in ("brier", "log"):
        _value, mcb, dsc, _ = corp_decomposition(v2, neg2, pos2, score)
        assert mcb == pytest.approx(0.0, abs=1e-12)
        # and its discrimination is the original's
        assert dsc == pytest.approx(corp_decomposition(v, neg, pos, score)[2], abs=1e-12)


@settings(max_examples=15)
@given(st.integers(0, 10_000))
def test_order_of_rows_does_not_matter(seed):
    f, y = _rows(seed, 200, ties=True)
    perm = np.random.default_rng(seed).permutation(f.size)
    a = corp_and_smooth_ece(*_table(f, y), view="v", band_resamples=0)[1]
    b = corp_and_smooth_ece(*_table(f[perm], y[perm]), view="v", band_resamples=0)[1]
    np.testing.assert_array_equal(a.recalibrated, b.recalibrated)
    assert a.brier.to_dict() == b.brier.to_dict()


# -- the consistency band ---------------------------------------------------------------------------

def test_band_is_the_papers_resampling():
    # by hand: y* ~ Binomial(count, v) at each distinct v, recalibrated by sklearn, 5% / 95% quantiles
    f, y = _rows(3, 300, ties=True)
    v, neg, pos = _table(f, y)
    w = neg + pos
    low, high = consistency_band(v, w, level=0.9, n_resamples=100, seed=4)
    rng = np.random.default_rng(4)
    draws = rng.binomial(np.round(w).astype(int), v, size=(100, v.size)) / np.round(w)
    fits = np.array([sklearn_isotonic.IsotonicRegression().fit(v, d, sample_weight=w).predict(v) for d in draws])
    ref_low, ref_high = np.quantile(fits, [0.05, 0.95], axis=0)
    np.testing.assert_allclose(low, ref_low, atol=1e-12)
    np.testing.assert_allclose(high, ref_high, atol=1e-12)


def test_band_holds_calibrated_forecasts():
    rng = np.random.default_rng(11)
    f = rng.uniform(size=4000)
    y = (rng.uniform(size=f.size) < f).astype(int)
    corp = clfeval.evaluate(y, y_score=f).calibration().corp
    assert corp.band_level == 0.9 and corp.band_low.shape == corp.x.shape
    inside = (corp.band_low <= corp.x + 1e-12) & (corp.x <= corp.band_high + 1e-12)
    assert inside.mean() >= 0.8
    assert "groups of adjacent probabilities" in corp.band_method  # 4000 distinct > BAND_POINTS


# -- streams and bins ----------------------------------------------------------------------------------

def test_exact_stream_equals_evaluate():
    f, y = _rows(13, 3000)
    s = StreamingEvaluation()
    for part in np.array_split(np.arange(f.size), 5):
        s.update(y[part], y_score=f[part])
    a = s.result().calibration().corp
    b = clfeval.evaluate(y, y_score=f).calibration().corp
    np.testing.assert_array_equal(a.x, b.x)
    np.testing.assert_array_equal(a.recalibrated, b.recalibrated)
    assert a.brier.value == pytest.approx(b.brier.value, abs=1e-14)
    assert a.log.miscalibration == pytest.approx(b.log.miscalibration, abs=1e-14)


def test_bins_discriminate_at_most_as_well_as_the_exact_probabilities():
    # an isotonic fit over bins (constant on each) is one of the isotonic fits of the exact
    # probabilities, so the exact fit scores at least as well: DSC(bins) <= DSC(exact); UNC is exact
    rng = np.random.default_rng(17)
    P = rng.dirichlet([1, 1, 1], size=4000)
    y = np.array([rng.choice(3, p=p) for p in P])
    exact = clfeval.calibration.calibration_of(y, P).report().corp
    binned = clfeval.calibration.calibration_of(y, P, n_bins=20).report().corp
    assert binned.grouping == "20 equal-width bins, each at its mean"
    for e, b in ((exact.brier, binned.brier), (exact.log, binned.log)):
        assert b.discrimination <= e.discrimination + 1e-12
        assert b.uncertainty == pytest.approx(e.uncertainty, abs=1e-12)
    # a multi-class stream reads its 2520-bin histogram
    s = StreamingEvaluation()
    s.update(y, y_score=P)
    streamed = s.result().calibration().corp
    assert streamed.grouping.startswith("2520 equal-width bins")
    assert streamed.brier.discrimination <= exact.brier.discrimination + 1e-12


def test_binned_binary_stream_says_so():
    f, y = _rows(19, 2000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = StreamingEvaluation(mode="binned", bits=3)
        s.update(y, y_score=f)
    corp = s.result().calibration().corp
    assert corp.grouping.startswith("binned scores")
    exact = clfeval.evaluate(y, y_score=f).calibration().corp
    assert corp.brier.discrimination <= exact.brier.discrimination + 1e-12


def test_bin_means_pool_equal_means():
    from clfeval.calibration.bin_sums import BinSums

    b = BinSums(np.array([0, 0.5, 1.0]), np.array([2, 0]), np.array([1, 0]), np.array([0.6, 0.0]),
                np.array([0.2, 0.0]), np.array([0.3, 0.0]))
    v, neg, pos = view_counts_of_bins(b)
    assert v.tolist() == [0.3] and neg.tolist() == [1] and pos.tolist() == [1]


# -- in the views --------------------------------------------------------------------------------------

def test_report_json_terminal_and_html_carry_corp():
    from rich.console import Console

    from clfeval.report.html_decisions import decision_figures
    from clfeval.report.html_model import page_models
    from clfeval.report.terminal import print_thresholds

    f, y = _rows(23, 500)
    ev = clfeval.evaluate(y, y_score=f)
    r = ev.calibration()
    assert "smooth_ece=" in repr(r) and "MCB" in repr(r) and "CORP brier" in r._repr_html_()
    d = json.loads(json.dumps(ev.to_dict()["calibration"], allow_nan=False))
    assert set(d["corp"]) >= {"x", "recalibrated", "band", "brier", "log"}
    assert d["smooth_ece"]["value"] == pytest.approx(r.smooth_ece.value)
    console = Console(record=True, width=400)
    print_thresholds(ev, ev.thresholds_dict(), console)
    text = console.export_text()
    assert "smooth ECE" in text and "MCB" in text and "DSC" in text and "UNC" in text
    fig = next(g for g in decision_figures(page_models([ev])[0]) if g["id"].startswith("reliability"))
    names = [t.get("name", "") for t in fig["data"]]
    assert any(n.startswith("CORP recalibration") for n in names)
    assert any("consistency band" in n for n in names)
