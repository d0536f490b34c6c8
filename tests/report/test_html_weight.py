"""What the HTML report weighs besides plotly.js, and what its chart data keep exact.

Budget. A page holds plotly.js (about 4.8 MB, embedded so that it works offline), its tables
(tens of kB), and its charts' data. Curves have at most 2000 points each, the JSON export's
budget (``Evaluation.to_dict(max_points=2000)``). A 2-D curve point then costs about 40 bytes:
its two coordinates at 6 to 7 significant digits with separators (2 x 10 bytes), its threshold
as hover text (about 11 bytes), and its threshold once more as the height in the 3-D view (about
10 bytes; the 3-D view's other two coordinates are the 2-D chart's, written once). Hence the
budget: the non-plotly bytes of a page stay under 80 kB + 42 bytes per 2-D curve point. Before,
every float was written with 17 digits and the 3-D views repeated the coordinates: the demo
pages took 80 bytes per point (multi-class demo: 3.02 MB besides plotly, now 1.42 MB).
"""

from __future__ import annotations

import json
import re
import warnings
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.inputs.examples import demo_kinds, load_demo
from clfeval.report.html import render_html
from clfeval.report.html_numbers import MIN_DIGITS, compact_figures, share_arrays, short_float

BASE_BYTES = 80_000
BYTES_PER_POINT = 42
POINT_BUDGET = 2000  # Evaluation.to_dict's max_points


def page_parts(page: str) -> tuple[int, int, list[dict[str, Any]]]:
    """(bytes of plotly.js, bytes of everything else, the figures with shared arrays put back)."""
    start = page.index("<script>") + len("<script>")
    plotly = len(page[start:page.index("</script>", start)].encode())
    block = re.search(r'<script type="application/json" id="clfeval-figures">(.*?)</script>', page, re.S)
    figs = json.loads(block.group(1))
    for fig in figs:
        for trace in fig["data"]:
            for key, value in list(trace.items()):
                if isinstance(value, dict) and "same_as" in value:
                    i, j, name = value["same_as"]
                    trace[key] = figs[i]["data"][j][name]
    return plotly, len(page.encode()) - plotly, figs


def curve_points(figs: list[dict[str, Any]]) -> int:
    """Points of the 2-D ROC and PR curves (the traces that carry thresholds)."""
    return sum(len(t["x"]) for f in figs if f["id"] in ("roc-curves", "pr-curves")
               for t in f["data"] if "customdata" in t and len(t["x"]) > 1)


def quiet(*args: Any, **kwargs: Any) -> clfeval.Evaluation:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return clfeval.evaluate(*args, **kwargs)


def demo_page(kind: str) -> str:
    demo = load_demo(kind)
    evs = [quiet(demo.y_true, m.y_pred, m.y_score, labels=demo.classes, pos_label=demo.pos_label, name=name)
           for name, m in demo.models.items()]
    return render_html(evs, title=demo.title)


@pytest.fixture(scope="module")
def large() -> list[clfeval.Evaluation]:
    """Two models on 60,000 samples with distinct scores: curves far longer than the budget."""
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 60_000)
    return [quiet(y, y_score=1 / (1 + np.exp(-(s * (2 * y - 1) + rng.normal(0, 1.5, y.size)))), name=f"model {s}")
            for s in (1.0, 2.0)]


@pytest.mark.parametrize("kind", demo_kinds())
def test_demo_pages_stay_within_the_budget(kind: str) -> None:
    plotly, rest, figs = page_parts(demo_page(kind))
    points = curve_points(figs)
    assert plotly > 3_000_000  # plotly.js itself, untouched
    assert points > 1000
    assert rest <= BASE_BYTES + BYTES_PER_POINT * points, (rest, points)


def test_large_page_curves_are_compacted_to_the_json_budget(large: list[clfeval.Evaluation]) -> None:
    plotly, rest, figs = page_parts(render_html(large))
    by_id = {f["id"]: f for f in figs}
    points = curve_points(figs)
    assert rest <= BASE_BYTES + BYTES_PER_POINT * points, (rest, points)
    assert rest < 1_000_000  # 60,000 samples, two models: under 1 MB besides plotly
    for kind in ("roc", "pr"):
        curves = [t for t in by_id[f"{kind}-curves"]["data"] if "customdata" in t and len(t["x"]) > 1]
        ops = [t for t in by_id[f"{kind}-curves"]["data"] if str(t["name"]).endswith("operating point")]
        assert len(curves) == len(ops) == 2
        for ev, trace, op in zip(large, curves, ops):
            full = getattr(ev, kind).main
            exact = ev.compact_curves(kind, POINT_BUDGET).main
            assert len(full.x) > 2 * POINT_BUDGET and len(trace["x"]) == len(exact.x) <= POINT_BUDGET
            # the ends are the full curve's ends, exactly
            assert (trace["x"][0], trace["y"][0]) == (full.x[0], full.y[0])
            assert (trace["x"][-1], trace["y"][-1]) == (full.x[-1], full.y[-1])
            # the operating point is the Evaluation's, exactly
            p = full.operating_point
            assert (op["x"], op["y"]) == ([p.x], [p.y])
            # every point is the exact curve's point, and shows the same in the hover (".4f")
            assert trace["x"] == pytest.approx(exact.x.tolist(), rel=5e-6, abs=0)
            assert trace["y"] == pytest.approx(exact.y.tolist(), rel=5e-6, abs=0)
            assert [js_fixed(v, 4) for v in trace["x"]] == [js_fixed(v, 4) for v in exact.x.tolist()]
            assert [js_fixed(v, 4) for v in trace["y"]] == [js_fixed(v, 4) for v in exact.y.tolist()]
        # the 3-D view draws the same points: the page writes them once
        three = [t for t in by_id[f"{kind}-threshold-3d"]["data"] if t["mode"] == "lines+markers"]
        assert [t["x"] for t in three] == [t["x"] for t in curves]
        assert [t["z"] for t in three] == [t["y"] for t in curves]
    page = render_html(large)
    assert page.count('"same_as"') >= 8


def js_fixed(x: float | None, digits: int) -> str | None:
    """JavaScript's ``x.toFixed(digits)`` (plotly's "%{x:.4f}"): the exact binary value rounded,
    ties away from zero. Written with fractions, independently of html_numbers."""
    if x is None:
        return None
    q = Fraction(x) * 10 ** digits
    n = int(abs(q) + Fraction(1, 2))
    sign = "-" if q < 0 and n else ""
    text = str(n).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}" if digits else sign + text


def js_precision(x: float, digits: int) -> Decimal:
    """JavaScript's ``x.toPrecision(digits)`` value (plotly's "%{y:.6g}"), as an exact decimal."""
    if x == 0:
        return Decimal(0)
    d = Decimal(x)
    step = Decimal(1).scaleb(d.adjusted() - digits + 1)
    q = Fraction(d) / Fraction(step)
    n = int(abs(q) + Fraction(1, 2))
    return (-1 if q < 0 else 1) * n * step


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(x=finite, fixed=st.integers(0, 6), precision=st.integers(1, 8))
def test_short_float_shows_what_the_float_shows(x: float, fixed: int, precision: int) -> None:
    specs = ((fixed, "f"), (precision, "g"))
    y = short_float(x, specs)
    assert js_fixed(y, fixed) == js_fixed(x, fixed)
    assert js_precision(y, precision) == js_precision(x, precision)
    assert y == pytest.approx(x, rel=0.5 * 10 ** (1 - MIN_DIGITS), abs=0)
    assert len(repr(y)) <= len(repr(x))


def test_ties_are_not_made_by_shortening() -> None:
    # 0.1234999 shows as 0.1235 nowhere: 0.12350 (6 digits) would show as 0.1235 in the browser
    assert js_fixed(short_float(0.12349999, ((4, "f"),)), 4) == "0.1235" == js_fixed(0.12349999 + 1e-9, 4)
    assert js_fixed(short_float(0.123449996, ((4, "f"),)), 4) == js_fixed(0.123449996, 4) == "0.1234"


def test_what_is_left_exact() -> None:
    long = [i / 7 for i in range(40)]
    fig = {"id": "f", "kind": "2d", "data": [
        {"x": long, "y": long, "hovertemplate": "%{x:.4f} %{y}"},  # y shown unformatted: exact
        {"x": long[:3], "y": long[:3], "hovertemplate": "%{x:.4f}"},  # a marker: exact
        {"x": long, "y": long},  # plotly's default hover: exact
        {"x": long, "y": long, "hoverinfo": "skip"},  # no hover: 6 digits
    ]}
    a, b, c, d = compact_figures([fig])[0]["data"]
    assert a["y"] == long and a["x"] != long and a["x"] == pytest.approx(long, rel=5e-6)
    assert b["x"] == long[:3] and c["x"] == long and c["y"] == long
    assert d["x"] == [long[0], *(float(f"{v:.6g}") for v in long[1:-1]), long[-1]]
    # only 3-D charts refer back; equal 2-D arrays are written twice (legend bands share x)
    two = {"id": "g", "kind": "2d", "data": [{"x": long}, {"x": long}]}
    three = {"id": "h", "kind": "3d", "data": [{"x": long, "y": [1] * 40}]}
    out = share_arrays([two, three])
    assert out[0]["data"][1]["x"] == long and out[1]["data"][0]["x"] == {"same_as": [0, 0, "x"]}
    assert out[1]["data"][0]["y"] == [1] * 40
