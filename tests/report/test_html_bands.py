"""Pointwise confidence bands in the HTML report: read back from the page's plotly figures."""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pytest

import clfeval
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.report.html import bands_dict, figures, render_html

pytest.importorskip("plotly")

rng = np.random.default_rng(5)
Y = rng.integers(0, 2, 160)
S = np.clip(0.3 * Y + rng.normal(0.35, 0.2, 160), 0, 1)
A = clfeval.evaluate(Y, y_score=S, name="A")
B = clfeval.evaluate(Y, y_score=np.clip(S + rng.normal(0, 0.2, 160), 0, 1), name="B")


def multiclass() -> clfeval.Evaluation:
    y = rng.integers(0, 3, 120)
    s = rng.dirichlet(np.ones(3), 120)
    s[np.arange(120), y] += 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return clfeval.evaluate(y, y_score=s / s.sum(1, keepdims=True), name="mc")


def chart(figs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return next(f for f in figs if f["id"] == f"{kind}-curves")["data"]


def curve_index(traces: list[dict[str, Any]], group: str) -> int:
    """Index of the curve (not its operating point) of a legend group."""
    return next(i for i, t in enumerate(traces) if t.get("legendgroup") == group and t.get("showlegend", True))


def band_pairs(traces: list[dict[str, Any]]) -> dict[str, tuple[int, dict[str, Any], dict[str, Any]]]:
    """legendgroup -> (index of the lower edge, lower edge, upper edge) of each band."""
    out = {}
    for i, t in enumerate(traces):
        if t.get("fill") == "tonexty":
            out[t["legendgroup"]] = (i - 1, traces[i - 1], t)
    return out


@pytest.mark.parametrize("kind", ["roc", "pr"])
def test_band_traces_are_the_evaluations_band(kind):
    traces = chart(figures(A, bands=0.9), kind)
    pairs = band_pairs(traces)
    assert list(pairs) == ["m0:1:band"]
    i, lower, upper = pairs["m0:1:band"]
    want = A.band(kind, level=0.9)
    assert lower["legendgroup"] == upper["legendgroup"]
    np.testing.assert_allclose(lower["x"], want.x)
    np.testing.assert_allclose(upper["x"], want.x)
    np.testing.assert_allclose(lower["y"], want.low)
    np.testing.assert_allclose(upper["y"], want.high)
    np.testing.assert_allclose(upper["customdata"], want.low)  # hover shows both ends
    assert lower["showlegend"] is False and upper.get("showlegend", True)
    assert upper["name"] == "1: 90% pointwise band"
    assert upper["line"]["shape"] == ("vh" if kind == "pr" else "linear")  # as the curve is drawn
    assert want.method in upper["hovertemplate"]
    # beneath its curve (drawn after it), listed right after it in the legend, same visibility
    c = curve_index(traces, "m0:1")
    curve = traces[c]
    assert c > i + 1 and curve["mode"] == "lines"
    legend = [t["name"] for t in sorted(traces, key=lambda t: t["legendrank"]) if t.get("showlegend", True)]
    assert legend[legend.index(curve["name"]) + 1] == upper["name"]
    assert lower["visible"] == upper["visible"] == curve["visible"] is True
    assert upper["fillcolor"].startswith("rgba(") and upper["fillcolor"].endswith(",0.2)")


def test_no_bands_by_default():
    for kind in ("roc", "pr"):
        traces = chart(figures([A, B]), kind)
        assert not [t for t in traces if "fill" in t or str(t.get("legendgroup", "")).endswith(":band")]
    assert "pointwise band" not in render_html(A)


def test_a_dict_draws_the_bands_it_carries():
    data = {**A.to_dict(ci_level=0.95), "bands": bands_dict(A, 0.95)}
    from_dict = chart(figures(data), "roc")
    from_ev = chart(figures(A, bands=0.95), "roc")
    assert band_pairs(from_dict).keys() == band_pairs(from_ev).keys()
    for (_, lo1, up1), (_, lo2, up2) in zip(band_pairs(from_dict).values(), band_pairs(from_ev).values()):
        assert (lo1["y"], up1["y"]) == (lo2["y"], up2["y"])
    # a to_json file (strict JSON) works the same
    assert band_pairs(chart(figures(json.loads(json.dumps(data))), "pr"))
    # a dict has no data to resample: bands= leaves it as it is
    assert not band_pairs(chart(figures(A.to_dict(), bands=0.95), "roc"))


def test_models_overlaid_each_with_its_band():
    figs = figures([A, B], bands=0.95)
    for kind in ("roc", "pr"):
        traces = chart(figs, kind)
        pairs = band_pairs(traces)
        assert list(pairs) == ["m0:1:band", "m1:1:band"]
        # every band beneath every curve
        assert max(i for i, _, _ in pairs.values()) + 1 < min(curve_index(traces, g) for g in ("m0:1", "m1:1"))
        for ev, (_, lower, upper) in zip((A, B), pairs.values()):
            np.testing.assert_allclose(upper["y"], ev.band(kind).high)
            assert upper["name"].startswith(ev.name + ": 95%")
        colors = {upper["fillcolor"] for _, _, upper in pairs.values()}
        assert len(colors) == 2
        # the view menu shows and hides a band with its curve
        menu = next(f for f in figs if f["id"] == f"{kind}-curves")["layout"]["updatemenus"][0]
        for button in menu["buttons"]:
            visible = button["args"][0]["visible"]
            for group, (i, _, _) in pairs.items():
                assert visible[i] == visible[i + 1] == visible[curve_index(traces, group[:-len(":band")])]


def test_multiclass_bands_only_for_micro():
    ev = multiclass()
    traces = chart(figures(ev, bands=0.95), "roc")
    pairs = band_pairs(traces)
    assert list(pairs) == ["m0:micro:band"]
    np.testing.assert_allclose(pairs["m0:micro:band"][2]["y"], ev.band("roc", "micro").high)
    # a class's band added by hand to the dict is drawn too
    data = ev.to_dict()
    data["bands"] = bands_dict(ev, 0.95)
    data["bands"]["pr"]["2"] = ev.band("pr", "2", n_resamples=200).to_dict()
    assert list(band_pairs(chart(figures(data), "pr"))) == ["m0:2:band", "m0:micro:band"]


def test_undefined_band_points_are_gaps():
    data = A.to_dict()
    band = A.band("roc", grid=[0, 0.5, 1], n_resamples=100).to_dict()
    band["low"][1] = float("nan")
    data["bands"] = {"roc": {"1": band}}
    page = render_html(data)  # strict JSON inside: no NaN
    _, lower, _ = band_pairs(chart(figures(data), "roc"))["m0:1:band"]
    assert lower["y"][1] is None
    assert "NaN" not in page.split('id="clfeval-figures">')[1].split("</script>")[0]


@pytest.mark.parametrize("bands, match", [(1.5, "strictly between 0 and 1"), (0.0, "between 0 and 1"),
                                          (True, "got True"), ("0.95", "got '0.95'")])
def test_bad_bands_argument(bands, match):
    with pytest.raises(ValueError, match=match):
        render_html(A, bands=bands)


def test_malformed_bands_entry():
    data = {**A.to_dict(), "bands": {"det": {}}}
    with pytest.raises(ValueError, match="see bands_dict"):
        figures(data)
    data["bands"] = {"roc": {"1": {"x": [0, 1], "low": [0.1], "high": [0.2, 0.3]}}}
    with pytest.raises(ValueError, match=r'bands\["roc"\]\["1"\]'):
        figures(data)


def test_bands_need_scores_and_unweighted_data():
    plain = clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0])
    assert "pointwise band" not in render_html(plain, bands=0.95)  # nothing to band, no error
    with pytest.raises(ValueError, match="no scores"):
        bands_dict(plain)
    weighted = clfeval.evaluate(Y, y_score=S, sample_weight=rng.random(160))
    with pytest.raises(ValueError, match="non-integer weights"):
        render_html(weighted, bands=0.95)


def test_page_explains_the_bands():
    page = render_html([A, B], bands=0.95)
    assert "Shaded areas are 95% pointwise bands" in page
