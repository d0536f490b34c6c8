"""Pointwise confidence bands on the ROC and PR displays: the shaded polygon is ``ev.band(...)``."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib import cbook
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure

import clfeval
from clfeval.plot import PrecisionRecallDisplay, RocCurveDisplay

rng = np.random.default_rng(11)
Y = rng.integers(0, 2, 150)
S = np.clip(0.3 * Y + rng.normal(0.35, 0.2, 150), 0, 1).round(2)
EV = clfeval.evaluate(Y, y_score=S, name="m")
DISPLAYS = [("roc", RocCurveDisplay), ("pr", PrecisionRecallDisplay)]


def polygon(poly) -> tuple[np.ndarray, np.ndarray]:
    """(lower edge, upper edge) of a fill_between polygon, each as (m, 2) points left to right."""
    (path,) = poly.get_paths()
    v = path.vertices  # start, lower edge forward, end, upper edge backward, closing point
    m = (len(v) - 3) // 2
    return v[1:m + 1], v[m + 2:2 * m + 2][::-1]


def expected_edges(band, step: bool) -> tuple[np.ndarray, np.ndarray]:
    x, low, high = (cbook.pts_to_prestep(band.x, band.low, band.high) if step
                    else (band.x, band.low, band.high))
    return np.column_stack([x, low]), np.column_stack([x, high])


@pytest.mark.parametrize("kind, display", DISPLAYS)
def test_drawn_band_is_the_evaluations_band(kind, display, ax, legend_texts):
    disp = display.from_evaluation(EV, band=0.9, ax=ax)
    want = EV.band(kind, level=0.9)
    for attr in ("x", "estimate", "low", "high"):
        np.testing.assert_array_equal(getattr(disp.band, attr), getattr(want, attr))
    assert disp.band.level == 0.9 and disp.band.kind == kind
    low, high = polygon(disp.band_)
    want_low, want_high = expected_edges(want, step=kind == "pr")
    np.testing.assert_allclose(low, want_low, atol=1e-12)
    np.testing.assert_allclose(high, want_high, atol=1e-12)
    assert (want.low <= want.estimate + 1e-12).all() and (want.estimate <= want.high + 1e-12).all()
    # same colour as the curve, translucent, beneath it
    assert np.allclose(disp.band_.get_facecolor()[0][:3], to_rgba(disp.line_.get_color())[:3])
    assert 0 < disp.band_.get_alpha() < 0.5
    assert disp.band_.get_zorder() < disp.line_.get_zorder()
    assert "90% pointwise band (bootstrap, 2000 resamples)" in legend_texts(ax)


@pytest.mark.parametrize("kind, display", DISPLAYS)
def test_no_band_by_default(kind, display, ax, legend_texts):
    disp = display.from_evaluation(EV, ax=ax)
    assert disp.band is None and disp.band_ is None
    assert not ax.collections
    assert not [t for t in legend_texts(ax) if "band" in t]
    assert display.from_evaluation(EV, band=False, ax=Figure().add_subplot()).band_ is None


@pytest.mark.parametrize("kind, display", DISPLAYS)
def test_precomputed_band_is_drawn_as_given(kind, display, ax, legend_texts):
    band = EV.band(kind, grid=np.linspace(0, 1, 11), level=0.8, n_resamples=300, seed=4)
    disp = display.from_evaluation(EV, band=band, ax=ax)
    assert disp.band is band
    low, high = polygon(disp.band_)
    want_low, want_high = expected_edges(band, step=kind == "pr")
    np.testing.assert_allclose(low, want_low, atol=1e-12)
    np.testing.assert_allclose(high, want_high, atol=1e-12)
    assert "80% pointwise band (bootstrap, 300 resamples)" in legend_texts(ax)
    # the display keeps its band: plotting again on other axes draws it again
    again = disp.plot(ax=Figure().add_subplot(), band_kw={"alpha": 0.4})
    assert again.band_.get_alpha() == 0.4
    np.testing.assert_allclose(polygon(again.band_)[1], want_high, atol=1e-12)


def test_true_means_95_and_from_predictions_matches(ax):
    a = RocCurveDisplay.from_predictions(Y, S, name="m", band=True, ax=ax)
    b = RocCurveDisplay.from_evaluation(EV, band=0.95, ax=Figure().add_subplot())
    assert a.band.level == 0.95
    np.testing.assert_array_equal(a.band.low, b.band.low)
    np.testing.assert_array_equal(a.band.high, b.band.high)


def test_multiclass_band_is_the_chosen_curves():
    scores = rng.dirichlet(np.ones(3), 90)
    y = rng.integers(0, 3, 90)
    scores[np.arange(90), y] += 0.4
    ev = clfeval.evaluate(y, y_score=scores / scores.sum(1, keepdims=True))
    micro = PrecisionRecallDisplay.from_evaluation(ev, band=0.95, ax=Figure().add_subplot())
    np.testing.assert_array_equal(micro.band.high, ev.band("pr", "micro").high)
    one = RocCurveDisplay.from_evaluation(ev, curve="2", band=0.95, ax=Figure().add_subplot())
    np.testing.assert_array_equal(one.band.low, ev.band("roc", "2").low)
    with pytest.raises(ValueError, match="macro curve is an average"):
        RocCurveDisplay.from_evaluation(ev, curve="macro", band=0.95, ax=Figure().add_subplot())


def test_overlay_bands_one_per_model_one_legend_entry(ax, legend_texts):
    other = clfeval.evaluate(Y, y_score=np.clip(S + rng.normal(0, 0.15, 150), 0, 1), name="n")
    disps = RocCurveDisplay.from_evaluations([EV, other], band=0.95, ax=ax)
    for d, ev in zip(disps, (EV, other)):
        np.testing.assert_allclose(polygon(d.band_)[0][:, 1], ev.band("roc").low, atol=1e-12)
        assert np.allclose(d.band_.get_facecolor()[0][:3], to_rgba(d.line_.get_color())[:3])
    assert disps[0].line_.get_color() != disps[1].line_.get_color()
    texts = legend_texts(ax)
    assert texts.count("95% pointwise band (bootstrap, 2000 resamples)") == 1
    assert texts.index("n (AUC = %.3f)" % other.roc.main.area) < texts.index(
        "95% pointwise band (bootstrap, 2000 resamples)")
    # the shared entry is a neutral swatch, not one model's colour
    handle = ax.get_legend().legend_handles[texts.index("95% pointwise band (bootstrap, 2000 resamples)")]
    r, g, b, _ = handle.get_facecolor()
    assert r == g == b


@pytest.mark.parametrize("band, error, match", [
    (1.5, ValueError, "strictly between 0 and 1"),
    (0, ValueError, "strictly between 0 and 1"),
    (-0.2, ValueError, "strictly between 0 and 1"),
    ("95%", TypeError, "confidence level such as 0.95"),
    ([0.9], TypeError, "got list"),
])
def test_bad_band_arguments(band, error, match):
    with pytest.raises(error, match=match):
        RocCurveDisplay.from_evaluation(EV, band=band, ax=Figure().add_subplot())


def test_band_of_the_wrong_kind():
    with pytest.raises(ValueError, match="draws 'roc' curves, but the band is a 'pr' band"):
        RocCurveDisplay.from_evaluation(EV, band=EV.band("pr", n_resamples=50), ax=Figure().add_subplot())
    with pytest.raises(ValueError, match="draws 'pr' curves"):
        PrecisionRecallDisplay(precision=[1, 0.5], recall=[0, 1], band=EV.band("roc", n_resamples=50))
    with pytest.raises(TypeError, match="CurveBand"):
        RocCurveDisplay(fpr=[0, 1], tpr=[0, 1], band=0.95)
    with pytest.raises(ValueError, match="one band cannot belong to several models"):
        RocCurveDisplay.from_evaluations([EV, EV], band=EV.band("roc", n_resamples=50))


def test_undefined_band_points_are_left_blank(ax):
    band = EV.band("roc", grid=[0.0, 0.25, 0.5, 0.75, 1.0], n_resamples=50)
    holed = type(band)("roc", band.x, band.estimate, np.where(band.x == 0.5, np.nan, band.low), band.high,
                       band.level, band.method)
    disp = RocCurveDisplay(fpr=EV.roc.main.x, tpr=EV.roc.main.y, band=holed).plot(ax=ax)
    xs = np.concatenate([p.vertices[:, 0] for p in disp.band_.get_paths()])
    assert np.isfinite(np.concatenate([p.vertices for p in disp.band_.get_paths()])).all()
    assert 0.5 not in xs
