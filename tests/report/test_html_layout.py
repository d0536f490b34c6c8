"""Nothing on a chart of the HTML report covers anything else, in a real browser at two widths.

The two demo pages (``clfeval demo``: two models each, binary and multi-class) are drawn in
headless Chromium at 1400 px (two charts side by side) and 900 px (one per row). For every chart,
the boxes plotly's SVG gives its title, legend, menus and buttons, axis titles and tick labels
must not intersect one another (tick labels among themselves excepted) and must lie inside the
chart's frame. Multi-model curve charts are checked in every view of their menu ("compare
models" and each model alone: a model's legend is longer). The reliability diagram's "samples per
bin" must have an axis of its own, with its own tick labels, beside no other axis.

Skipped when Playwright or Chromium is missing, unless ``CLFEVAL_REQUIRE_BROWSER=1``, in which
case that is a failure (the ``browser`` fixture of tests/report/browser_fixture.py).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

import clfeval
from clfeval.inputs.examples import demo_kinds, load_demo
from clfeval.report.html import write_html

from browser_fixture import browser  # noqa: F401 - the fixture: one headless Chromium per module

WIDTHS = (1400, 900)

#: Boxes (left, top, right, bottom in CSS pixels) of the parts of every chart, by kind of part.
PARTS_JS = """
(only) => {
  const parts = {};
  const kinds = [
    ["title", "g.g-gtitle text"], ["legend", "g.legend > rect.bg"], ["menu", "g.updatemenu-container > g"],
    ["axis title", "g.g-xtitle text, g.g-ytitle text, g.g-x2title text, g.g-y2title text"],
    ["tick label", "g.xtick text, g.ytick text, g.x2tick text, g.y2tick text"],
    ["colour bar", "g.colorbar"], ["annotation", "g.annotation"],
  ];
  const charts = only ? [document.getElementById(only)] : document.querySelectorAll(".chart");
  for (const chart of charts) {
    const frame = chart.getBoundingClientRect();
    const found = [];
    for (const [kind, sel] of kinds) {
      chart.querySelectorAll(sel).forEach((el) => {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) {
          found.push({kind: kind, text: (el.textContent || "").slice(0, 40), box: [r.left, r.top, r.right, r.bottom]});
        }
      });
    }
    const size = chart._fullLayout._size;
    parts[chart.id] = {frame: [frame.left, frame.top, frame.right, frame.bottom], parts: found,
                       plot: chart._fullLayout.scene ? null : size.h};
  }
  return parts;
}
"""


@pytest.fixture(scope="module")
def demo_page(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """kind -> the demo's page (made as ``clfeval demo`` makes it), open in the browser. Each
    page is loaded once (3-D scenes in software WebGL are slow to draw) and resized per test."""
    folder = tmp_path_factory.mktemp("layout")
    opened: dict[str, Any] = {}

    def open_page(kind: str) -> Any:
        if kind not in opened:
            demo = load_demo(kind)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                evs = [clfeval.evaluate(demo.y_true, m.y_pred, m.y_score, labels=demo.classes,
                                        pos_label=demo.pos_label, name=name) for name, m in demo.models.items()]
            path = write_html(folder / f"{kind}.html", evs, title=f"clfeval demo: {demo.title}")
            page = browser.new_page(viewport={"width": WIDTHS[0], "height": 1000})
            page.goto(path.as_uri(), wait_until="load")
            page.wait_for_function("document.body.hasAttribute('data-charts-rendered')", timeout=60_000)
            assert page.evaluate("document.body.dataset.chartsFailed") == "0"
            opened[kind] = page
        return opened[kind]

    try:
        yield open_page
    finally:
        for page in opened.values():
            page.close()


def at_width(page: Any, width: int) -> None:
    """Resize the window and wait until every chart has been laid out again."""
    page.set_viewport_size({"width": width, "height": 1000})
    page.evaluate("() => Promise.all(Array.from(document.querySelectorAll('.chart')).map((el) => Plotly.Plots.resize(el)))")
    assert page.evaluate("document.querySelector('main').getBoundingClientRect().width") <= width


def _intersect(a: list[float], b: list[float]) -> bool:
    """Boxes that share more than half a pixel each way."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def overlaps(chart: dict[str, Any]) -> list[str]:
    """Every pair of parts that intersect, and every part that sticks out of the frame."""
    bad = []
    parts, frame = chart["parts"], chart["frame"]
    for i, a in enumerate(parts):
        inside = (a["box"][0] >= frame[0] - 0.5 and a["box"][1] >= frame[1] - 0.5
                  and a["box"][2] <= frame[2] + 0.5 and a["box"][3] <= frame[3] + 0.5)
        if not inside:
            bad.append(f"{a['kind']} {a['text']!r} outside the frame")
        for b in parts[i + 1:]:
            if a["kind"] == b["kind"] == "tick label":
                continue
            if _intersect(a["box"], b["box"]):
                bad.append(f"{a['kind']} {a['text']!r} x {b['kind']} {b['text']!r}")
    if chart["plot"] is not None and chart["plot"] < 0.4 * (frame[3] - frame[1]):
        bad.append(f"axes squeezed to {chart['plot']:.0f} px of the frame's {frame[3] - frame[1]:.0f}")
    return bad


def _views(page: Any) -> dict[str, list[Any]]:
    """Chart id -> the argument lists of its dropdown's entries (charts with a dropdown only)."""
    return page.evaluate("""() => {
        const out = {};
        for (const el of document.querySelectorAll(".chart")) {
          const menus = (el.layout && el.layout.updatemenus) || [];
          const drop = menus.filter((m) => (m.type || "dropdown") === "dropdown");
          if (drop.length) { out[el.id] = drop[0].buttons.map((b) => b.args); }
        }
        return out;
    }""")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("kind", demo_kinds())
def test_no_chart_part_covers_another(kind: str, width: int, demo_page: Any) -> None:
    page = demo_page(kind)
    at_width(page, width)
    found = page.evaluate(PARTS_JS, None)
    assert len(found) >= 8
    kinds_seen = {p["kind"] for chart in found.values() for p in chart["parts"]}
    assert {"title", "legend", "menu", "axis title", "tick label"} <= kinds_seen
    bad = {cid: overlaps(chart) for cid, chart in found.items()}
    # each view of the model menus (a single model's legend lists all its curves)
    views = _views(page)
    assert {"roc-curves", "pr-curves", "roc-threshold-3d", "pr-threshold-3d"} <= set(views)
    restyle = "([id, args]) => Plotly.restyle(document.getElementById(id), ...args)"
    for cid, arg_lists in views.items():
        for n, args in enumerate(arg_lists[1:], start=1):
            page.evaluate(restyle, [cid, args])
            bad[f"{cid} (view {n})"] = overlaps(page.evaluate(PARTS_JS, cid)[cid])
        page.evaluate(restyle, [cid, arg_lists[0]])  # back to "compare models"
    assert {cid: b for cid, b in bad.items() if b} == {}
    for n in (1, 2):
        assert_counts_have_their_own_axis(page, f"reliability-{n}")


#: Elements whose right edge passes the window's, outside any box that scrolls them sideways.
SIDEWAYS_JS = """
() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= width + 0.5) continue;
    let clipped = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const s = getComputedStyle(up);
      if (s.overflowX !== "visible" && up.getBoundingClientRect().right <= width + 0.5) { clipped = true; break; }
    }
    if (!clipped) out.push(el.tagName.toLowerCase() + "." + el.className + " ends at " + Math.round(r.right));
  }
  return {scroll: document.documentElement.scrollWidth, width: width, out: out.slice(0, 5)};
}
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("kind", demo_kinds())
def test_the_page_never_scrolls_sideways(kind: str, width: int, demo_page: Any) -> None:
    """Wide tables scroll inside their own box; the contents line wraps between its links (at 900 px
    the operating-points table and a long model name in the contents line widened the page to 998 px)."""
    page = demo_page(kind)
    at_width(page, width)
    found = page.evaluate(SIDEWAYS_JS)
    assert found["out"] == [] and found["scroll"] <= found["width"], found


def assert_counts_have_their_own_axis(page: Any, chart_id: str) -> None:
    """The reliability diagram's "samples per bin" bars: on an axis of their own, beneath the
    observed-frequency axis, with a title and tick labels, tall enough for the tallest bar."""
    info = page.evaluate("""(id) => {
        const el = document.getElementById(id), L = el._fullLayout;
        const bars = el._fullData.find((t) => t.type === "bar");
        const lines = el._fullData.filter((t) => t.type === "scatter");
        return {bars: bars.yaxis, lines: lines.map((t) => t.yaxis), y: L.yaxis.domain,
                y2: L.yaxis2 ? L.yaxis2.domain : null, overlaying: L.yaxis2 ? L.yaxis2.overlaying : null,
                title2: L.yaxis2 ? L.yaxis2.title.text : null,
                ticks2: el.querySelectorAll("g.y2tick text").length,
                top2: L.yaxis2 ? L.yaxis2.range[1] : null, most: Math.max(...bars.y)};
    }""", chart_id)
    assert info["bars"] == "y2" and set(info["lines"]) == {"y"}, info
    assert not info["overlaying"], info  # not drawn over the frequency axis
    assert info["y2"][1] < info["y"][0], info  # beneath it, with a gap
    assert info["title2"] == "samples" and info["ticks2"] >= 2, info  # a scale of its own
    assert info["most"] <= info["top2"] <= 1.2 * info["most"], info  # the tallest bar fits


def test_threshold_scenes_are_orthographic_with_the_threshold_falling_away() -> None:
    """As the static PNGs (clfeval.plot.threshold3d): no perspective, the curve ends far."""
    from clfeval.report.html import figures

    ev = clfeval.evaluate([0, 1, 1, 0, 1, 0], y_score=[0.2, 0.9, 0.6, 0.4, 0.3, 0.5])
    scenes = [f["layout"]["scene"] for f in figures(ev) if f["kind"] == "3d"]
    assert len(scenes) == 2
    for scene in scenes:
        assert scene["camera"]["projection"] == {"type": "orthographic"}
        assert scene["yaxis"]["autorange"] == "reversed"
