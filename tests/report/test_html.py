"""The HTML report (clfeval.report.html): what the page holds, read back from the page itself.

Every test parses the page (html.parser) or decodes its embedded JSON and compares it with the
Evaluation it came from. The browser-side checks (charts drawn, no network) are in
test_html_browser.py.
"""

from __future__ import annotations

import html as htmllib
import json
import math
import warnings
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import clfeval
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.report import html as report_html
from clfeval.report.html import figures, render_html, write_html

pytest.importorskip("plotly")

DASH = "\u2014"
NASTY = [
    "</script><script>alert(1)</script>",
    "<!--",
    "a & b \"q\" 'x'",
    "<b>bold</b>",
    "%{x} $x$ {{y}}",
    "&lt;escaped&gt;",
    "line\u2028sep\u2029",
]


# -- helpers -------------------------------------------------------------------------------------


def quiet_eval(*args: Any, **kwargs: Any) -> clfeval.Evaluation:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        ev = clfeval.evaluate(*args, **kwargs)
        ev.report  # noqa: B018 - builds (and warns) here
    return ev


class Page(HTMLParser):
    """A parsed page: every start tag with its attributes, the scripts, the tables, the title."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.title = ""
        # table class -> list of rows; a row: (row attrs, [(tag, attrs, text), ...])
        self.tables: dict[str, list[tuple[dict[str, Any], list[tuple[str, dict[str, Any], str]]]]] = {}
        self._stack: list[str] = []
        self._script: tuple[dict[str, str | None], list[str]] | None = None
        self._table: str | None = None
        self._cell: tuple[str, dict[str, Any], list[str]] | None = None
        self._in_title = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "script":
            self._script = (a, [])
        elif tag == "title":
            self._in_title = True
        elif tag == "table":
            self._table = " ".join((a.get("class") or "").split())
            self.tables.setdefault(self._table, [])
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append((a, []))
        elif tag in ("td", "th") and self._table is not None:
            self._cell = (tag, a, [])

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            self.scripts.append((self._script[0], "".join(self._script[1])))
            self._script = None
        elif tag == "title":
            self._in_title = False
        elif tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._cell is not None and self._table is not None:
            tag_, a, parts = self._cell
            self.tables[self._table][-1][1].append((tag_, a, "".join(parts)))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script[1].append(data)
        if self._in_title:
            self.title += data
        if self._cell is not None:
            self._cell[2].append(data)

    def figures(self) -> list[dict[str, Any]]:
        """The page's figures, with the arrays it writes once for two charts put back."""
        (text,) = [t for a, t in self.scripts if a.get("id") == "clfeval-figures"]
        figs = json.loads(text)
        for fig in figs:
            for trace in fig["data"]:
                for key, value in trace.items():
                    if isinstance(value, dict) and "same_as" in value:
                        i, j, name = value["same_as"]
                        trace[key] = figs[i]["data"][j][name]
        return figs

    def figure(self, fid: str) -> dict[str, Any]:
        (fig,) = [f for f in self.figures() if f["id"] == fid]
        return fig

    def rows(self, table: str) -> dict[str, list[tuple[str, dict[str, Any], str]]]:
        """Rows of the first table whose class list includes ``table``, keyed by data-row."""
        out = {}
        for classes, rows in self.tables.items():
            if table in classes.split():
                for attrs, cells in rows:
                    if "data-row" in attrs:
                        out[attrs["data-row"]] = cells
                return out
        raise AssertionError(f"no table {table!r}")


def expected_text(value: Any, count: bool = False) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return DASH
    if count:
        return str(int(value)) if float(value).is_integer() else f"{value:.4f}"
    return f"{value:.4f}"


def plot_values(values: Any) -> list[float | None]:
    """What the page holds for plot coordinates: finite numbers, None for NaN and infinities."""
    return [float(v) if math.isfinite(v) else None for v in np.asarray(values, dtype=float)]


def rng_scores(n: int, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    s = rng.dirichlet(np.ones(k), n)
    s[np.arange(n), y] += 0.4
    return y, s / s.sum(axis=1, keepdims=True)


# -- evaluations used by several tests -----------------------------------------------------------


@pytest.fixture(scope="module")
def evals() -> dict[str, clfeval.Evaluation]:
    rng = np.random.default_rng(7)
    yb = rng.integers(0, 2, 120)
    sb = np.clip(yb * 0.3 + rng.random(120) * 0.7, 0, 1)
    ym, sm = rng_scores(150, 4, seed=3)
    Y = rng.integers(0, 2, (80, 3))
    S = np.clip(Y * 0.3 + rng.random((80, 3)) * 0.7, 0, 1)
    return {
        "binary": quiet_eval(yb, y_score=sb, target_names=["neg", "pos"], name="model A"),
        "multiclass": quiet_eval(np.array(list("wxyz"))[ym], y_score=sm, name="four classes"),
        "multilabel": quiet_eval(Y, y_score=S, target_names=["red", "green", "blue"], name="tags"),
        "noscores": quiet_eval(["a", "b", "c", "a", "b", "c", "a"], ["a", "b", "a", "a", "c", "c", "a"]),
        # class "c" is never predicted: its precision is undefined (NaN)
        "undefined": quiet_eval(["a", "a", "b", "c"], ["a", "a", "a", "b"], name="undef"),
    }


@pytest.fixture(scope="module")
def pages(evals: dict[str, clfeval.Evaluation]) -> dict[str, Page]:
    return {k: Page(render_html(ev)) for k, ev in evals.items()}


ALL = ["binary", "multiclass", "multilabel", "noscores", "undefined"]


# -- the tables ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ALL)
def test_report_table_equals_report(kind: str, evals: dict, pages: dict) -> None:
    ev, page = evals[kind], pages[kind]
    rows = page.rows("report")
    expected = [*ev.report.rows, *ev.report.averages.values()]
    assert list(rows) == [r["label"] for r in expected]
    for r in expected:
        cells = rows[r["label"]]
        assert cells[0][0] == "th" and cells[0][2] == r["label"]
        tds = cells[1:]
        assert [a["data-col"] for _, a, _ in tds] == ev.report.columns
        for (_, attrs, text), col in zip(tds, ev.report.columns):
            value = r.get(col)
            assert text == expected_text(value, count=col == "support"), (r["label"], col)
            if value is not None and not math.isnan(value):
                assert float(attrs["data-value"]) == pytest.approx(value, rel=1e-15, abs=0)


def test_undefined_values_are_a_dash(evals: dict, pages: dict) -> None:
    cells = pages["undefined"].rows("report")["c"]
    precision = [c for c in cells if c[1].get("data-col") == "precision"][0]
    assert math.isnan(evals["undefined"].report.rows[2]["precision"])
    assert precision[2] == DASH and "undefined" in precision[1]["class"]
    # the report's note about it is on the page
    assert any("never predicted" in n for n in evals["undefined"].report.notes)
    text = render_html(evals["undefined"])
    assert "never predicted" in text
    assert "nan" not in {c[2].strip().lower() for rows in pages["undefined"].tables.values() for _, r in rows for c in r}


@pytest.mark.parametrize("kind", ALL)
def test_headline_cards_equal_overall(kind: str, evals: dict, pages: dict) -> None:
    ev, page = evals[kind], pages[kind]
    cards = {a["data-metric"]: a for t, a in page.tags if t == "li" and "card" in (a.get("class") or "")}
    shown = {k for k, _, _ in report_html.HEADLINE if k in ev.report.overall}
    assert set(cards) == shown and shown
    for key in shown:
        assert float(cards[key]["data-value"]) == pytest.approx(ev.report.overall[key], rel=1e-15, abs=0)


@pytest.mark.parametrize("kind", ["binary", "multiclass", "noscores", "undefined"])
def test_confusion_table_equals_counts(kind: str, evals: dict, pages: dict) -> None:
    ev, page = evals[kind], pages[kind]
    (rows,) = [r for c, r in page.tables.items() if "confusion-table" in c.split()]
    header, body = rows[0][1], rows[1:]
    assert [t for _, _, t in header[1:]] == ev.names
    got = [[float(text) for tag, _, text in cells[1:]] for _, cells in body]
    assert [cells[0][2] for _, cells in body] == ev.names
    np.testing.assert_array_equal(got, ev.confusion.counts)
    # and the heat map shows the same counts and the normalised views
    fig = page.figure("confusion-1")
    np.testing.assert_array_equal(fig["data"][0]["z"], ev.confusion.counts)
    by_true = [b for b in fig["layout"]["updatemenus"][0]["buttons"] if b["label"] == "by true"][0]
    z = np.array(by_true["args"][0]["z"][0], dtype=float)
    np.testing.assert_allclose(z, ev.confusion.normalized("true"), rtol=1e-12, equal_nan=True)


def test_multilabel_page(evals: dict, pages: dict) -> None:
    ev, page = evals["multilabel"], pages["multilabel"]
    (rows,) = [r for c, r in page.tables.items() if "confusion-table" in c.split()]
    assert [t for _, _, t in rows[0][1]] == ["label", "TP", "FN", "FP", "TN"]
    pc = ev.confusion.per_class()
    got = np.array([[float(t) for _, _, t in cells[1:]] for _, cells in rows[1:]])
    np.testing.assert_array_equal(got, np.column_stack([pc[k] for k in ("tp", "fn", "fp", "tn")]))
    assert "samples avg" in page.rows("report")
    ids = [f["id"] for f in page.figures()]
    assert ids == ["confusion-1", "roc-curves", "pr-curves", "roc-threshold-3d", "pr-threshold-3d"]
    heat = page.figure("confusion-1")["data"][0]
    assert heat["y"] == ev.names and heat["x"] == ["TP", "FN", "FP", "TN"]


def test_comparison_of_two_models() -> None:
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 200)
    a = quiet_eval(y, y_score=np.clip(y * 0.4 + rng.random(200) * 0.6, 0, 1), name="model A")
    b = quiet_eval(y, y_score=np.clip(y * 0.1 + rng.random(200) * 0.9, 0, 1), name="model B")
    page = Page(render_html([a, b]))
    rows = page.rows("comparison")
    assert list(rows) == ["model A", "model B"]

    def cell(model: str, col: str) -> tuple[str, dict[str, Any], str]:
        return [c for c in rows[model] if c[1].get("data-col") == col][0]

    for ev in (a, b):
        assert cell(ev.name, "accuracy")[2] == expected_text(ev.report.overall["accuracy"])
        auc = cell(ev.name, "roc_auc")
        assert float(auc[1]["data-value"]) == pytest.approx(ev.report.overall["roc_auc"], rel=1e-15)
    assert a.report.overall["roc_auc"] > b.report.overall["roc_auc"]
    assert "best" in (cell("model A", "roc_auc")[1].get("class") or "")
    assert "best" not in (cell("model B", "roc_auc")[1].get("class") or "")
    # each model has its own section, report table and confusion matrix
    assert [f["id"] for f in page.figures()][:2] == ["confusion-1", "confusion-2"]
    reports = [a_ for t, a_ in page.tags if t == "table" and "report" in (a_.get("class") or "").split()]
    assert [r["data-model"] for r in reports] == ["0", "1"]
    sections = [a_["id"] for t, a_ in page.tags if t == "section" and a_.get("class") == "model"]
    assert sections == ["model-1", "model-2"]
    # the charts overlay both models, with a menu to show one of them
    roc = page.figure("roc-curves")
    names = [t["name"] for t in roc["data"]]
    assert any(n.startswith("model A") for n in names) and any(n.startswith("model B") for n in names)
    labels = [b_["label"] for b_ in roc["layout"]["updatemenus"][0]["buttons"]]
    assert labels == ["compare models", "model A", "model B"]
    # one shared PR baseline: both models saw the same data
    pr = page.figure("pr-curves")
    assert len([t for t in pr["data"] if "baseline" in t["name"]]) == 1


def test_models_on_different_data_are_flagged(evals: dict) -> None:
    page = Page(render_html([evals["binary"], evals["multiclass"]]))
    warnings_ = [a for t, a in page.tags if t == "p" and a.get("class") == "warning"]
    assert len(warnings_) == 1
    assert not [a for t, a in Page(render_html([evals["binary"], evals["binary"]])).tags
                if t == "p" and a.get("class") == "warning"]


def test_many_classes() -> None:
    y, s = rng_scores(400, 40, seed=9)
    ev = quiet_eval(y, y_score=s)
    page = Page(render_html(ev))
    heat = page.figure("confusion-1")
    assert heat["data"][0]["texttemplate"] == ""  # too many cells to label; hover still tells
    assert heat["layout"]["height"] <= 1100 + 240
    assert len(page.rows("report")) == 40 + 3
    assert len([t for t in page.figure("roc-curves")["data"] if t["mode"] == "lines"]) == 1 + 42


def test_duplicate_and_missing_model_names_are_told_apart(evals: dict) -> None:
    a = evals["noscores"]  # no name
    page = Page(render_html([a, a, evals["undefined"], evals["undefined"]]))
    assert list(page.rows("comparison")) == ["model 1", "model 2", "undef", "undef (2)"]


# -- the curves ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["binary", "multiclass", "multilabel"])
@pytest.mark.parametrize("curve", ["roc", "pr"])
def test_curve_data_equals_evaluation_curves(kind: str, curve: str, evals: dict, pages: dict) -> None:
    ev, page = evals[kind], pages[kind]
    curves = getattr(ev, curve)
    lines = [t for t in page.figure(f"{curve}-curves")["data"] if t["mode"] == "lines" and "legendgroup" in t]
    assert len(lines) == len(curves)
    for trace, (cname, c) in zip(lines, curves.items()):
        assert len(c.x) < 2000  # small enough that the page holds every point
        # the page writes 6 significant digits or more (clfeval.report.html_numbers)
        assert trace["x"] == pytest.approx(plot_values(c.x), rel=5e-6, abs=0)
        assert trace["y"] == pytest.approx(plot_values(c.y), rel=5e-6, abs=0)
        assert len(trace["customdata"]) == len(c.x)
        area = "AUC" if curve == "roc" else "AP"
        assert f"({area} {c.area:.3f})" in trace["name"]
        label = {"micro": "micro-average", "macro": "macro-average"}.get(cname, cname)
        assert label in trace["name"]
    # the operating point of the main curve is marked where the Evaluation says it is
    main = curves.main
    ops = [t for t in page.figure(f"{curve}-curves")["data"] if t["name"].endswith(": operating point")]
    if main.operating_point is not None:
        assert any(t["x"] == [pytest.approx(main.operating_point.x)] and
                   t["y"] == [pytest.approx(main.operating_point.y)] for t in ops)


@pytest.mark.parametrize("kind", ["binary", "multiclass"])
@pytest.mark.parametrize("curve", ["roc", "pr"])
def test_threshold_views_hold_the_curve_points(kind: str, curve: str, evals: dict, pages: dict) -> None:
    """3-D: x = FPR or recall, y = threshold, z = TPR or precision; points of infinite threshold
    have no height (a gap)."""
    ev, page = evals[kind], pages[kind]
    fig = page.figure(f"{curve}-threshold-3d")
    assert fig["kind"] == "3d" and "scene" in fig["layout"]
    assert fig["layout"]["scene"]["yaxis"]["title"]["text"] == "threshold"
    lines = [t for t in fig["data"] if t["mode"] == "lines+markers"]
    with_thresholds = [(n, c) for n, c in getattr(ev, curve).items() if np.isfinite(c.thresholds).any()]
    assert len(lines) == len(with_thresholds)
    for trace, (_, c) in zip(lines, with_thresholds):
        assert trace["type"] == "scatter3d"
        for axis, want in (("x", c.x), ("y", c.thresholds), ("z", c.y)):
            assert_same_with_gaps(trace[axis], plot_values(want))


def assert_same_with_gaps(got: list, want: list) -> None:
    """Equal to the page's 6-digit rounding, with the gaps (None) in the same places (pytest >= 9.2's
    approx refuses None beside a relative tolerance)."""
    assert [g is None for g in got] == [w is None for w in want]
    assert [g for g in got if g is not None] == pytest.approx([w for w in want if w is not None], rel=5e-6, abs=0)


def test_no_scores_no_curves(evals: dict, pages: dict) -> None:
    page = pages["noscores"]
    assert [f["kind"] for f in page.figures()] == ["heatmap"]
    charts = [a["data-chart"] for t, a in page.tags if "data-chart" in a]
    assert charts == ["heatmap"]
    ids = {a.get("id") for _, a in page.tags}
    assert not ids & {"curves", "threshold-views", "roc-curves", "pr-curves"}
    assert not [a for t, a in page.tags if t == "a" and a.get("href") in ("#curves", "#threshold-views")]
    assert "No scores were given" in render_html(evals["noscores"])


def test_figures_are_valid_plotly() -> None:
    """plotly.graph_objects validates every property name and value."""
    go = pytest.importorskip("plotly.graph_objects")
    y, s = rng_scores(60, 3, seed=5)
    ev = quiet_eval(y, y_score=s, name="m")
    b = quiet_eval(y, y_score=s[:, ::-1], name="other")
    for fig in figures([ev, b]):
        go.Figure(data=fig["data"], layout=fig["layout"])


# -- self-contained and offline ------------------------------------------------------------------------


def test_plotly_embedded_once_and_no_external_urls(evals: dict) -> None:
    from plotly.offline import get_plotlyjs

    bundle = get_plotlyjs()
    text = render_html([evals["binary"], evals["binary"]])
    assert text.count(bundle[:2000]) == 1
    assert text.count(bundle[-2000:]) == 1
    assert len(text) < 1.5 * len(bundle)
    page = Page(text)
    scripts = page.scripts
    assert len(scripts) == 3 and sum(len(t) > 1_000_000 for _, t in scripts) == 1
    for tag, attrs in page.tags:
        assert tag not in ("link", "iframe", "object", "embed", "img", "base", "frame"), tag
        assert "src" not in attrs, (tag, attrs)
        for name in ("href", "action", "srcset", "data", "poster", "xlink:href"):
            value = attrs.get(name)
            if value is not None:
                assert value.startswith("#"), (tag, name, value)
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
    (style,) = [t for t in text.split("<style>")[1:]]
    style = style.split("</style>")[0]
    assert len(style) > 1000
    assert "url(" not in style and "@import" not in style and "http" not in style


def test_charts_offer_no_upload(evals: dict) -> None:
    """plotly's "Share chart..." (upload to Plotly Cloud) and "Edit in Chart Studio" are off."""
    for fig in Page(render_html(evals["binary"])).figures():
        cfg = fig["config"]
        assert cfg["showSendToCloud"] is False and cfg["showEditInChartStudio"] is False
        assert cfg["showLink"] is False and cfg["plotlyServerURL"] == ""
        assert cfg["typesetMath"] is False  # "$x$" in a name must not fetch MathJax


def test_content_security_policy_forbids_network(evals: dict) -> None:
    page = Page(render_html(evals["binary"]))
    (csp,) = [a["content"] for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    directives = dict((d.split()[0], d.split()[1:]) for d in csp.split(";") if d.strip())
    assert directives["default-src"] == ["'none'"]
    assert directives["connect-src"] == ["'none'"]
    for values in directives.values():
        assert not any("http" in v or v == "*" for v in values), csp


# -- escaping ---------------------------------------------------------------------------------------


def _check_names_round_trip(page: Page, names: list[str], model: str, title: str) -> None:
    # the HTML structure is intact: the three scripts of the page and nothing else
    assert [a.get("id") for a, _ in page.scripts] == [None, "clfeval-figures", None]
    assert page.title == title
    # HTML text: table headers
    assert list(page.rows("report"))[: len(names)] == names
    # attributes: data-row holds the names
    row_attrs = [a["data-row"] for t, a in page.tags if t == "tr" and a.get("data-kind") == "class"]
    assert row_attrs == names
    # embedded JSON: plotly shows its strings as a little HTML, so they are entity-escaped there
    heat = page.figure("confusion-1")["data"][0]
    assert [htmllib.unescape(n) for n in heat["y"]] == names
    for t in page.figure("confusion-1")["data"]:
        for v in (t.get("x") or []) + (t.get("y") or []):
            assert "<" not in v and ">" not in v
    assert htmllib.unescape(page.figure("confusion-1")["layout"]["title"]["text"]).endswith(model)
    h2 = [a for t, a in page.tags if t == "section"]
    assert h2


def test_nasty_names_are_escaped_everywhere() -> None:
    names = NASTY[:5]
    y, s = rng_scores(100, len(names), seed=2)
    model = "<img src=x onerror=alert(2)>"
    title = "</title><script>alert(3)</script>"
    ev = quiet_eval(np.array(names, dtype=object)[y], y_score=s, labels=names, name=model)
    text = render_html(ev, title=title)
    page = Page(text)
    _check_names_round_trip(page, names, model, title)
    assert "<img" not in text.split("<script>")[0]
    assert not [t for t, _ in page.tags if t == "img"]
    # the curves' legend entries too
    roc = page.figure("roc-curves")
    legend = [htmllib.unescape(t["name"]) for t in roc["data"] if t["mode"] == "lines"]
    for n in names:
        assert any(entry.startswith(n + " (AUC") for entry in legend)


def test_line_separators_in_json() -> None:
    assert "\u2028" not in report_html._script_json({"a": "x\u2028y\u2029"})
    assert json.loads(report_html._script_json({"a": NASTY[0]})) == {"a": NASTY[0]}


_name_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("<>&\"'/!-{}%$"),
    min_size=1,
    max_size=12,
) | st.sampled_from(NASTY)


@given(names=st.lists(_name_text, min_size=2, max_size=4, unique=True), model=_name_text)
def test_any_names_round_trip(names: list[str], model: str) -> None:
    """Arbitrary class and model names come back unchanged from the tables, attributes and JSON."""
    y = np.array(names, dtype=object)[np.arange(3 * len(names)) % len(names)]
    pred = np.roll(y, 1)
    ev = quiet_eval(y, pred, labels=names, name=model)
    with mock.patch.object(report_html, "_plotly_js", lambda: "/* plotly.js */"):
        text = render_html(ev, title=model)
    _check_names_round_trip(Page(text), names, model, model)


# -- input forms -------------------------------------------------------------------------------------


def test_accepts_evaluation_sequence_and_dicts(evals: dict) -> None:
    ev = evals["binary"]
    reference = Page(render_html(ev)).rows("report")
    for form in ([ev], (ev,), iter([ev]), ev.to_dict(), json.loads(ev.to_json()), [ev.to_dict()]):
        page = Page(render_html(form))
        assert page.rows("report") == reference
        assert [f["id"] for f in page.figures()] == [f["id"] for f in Page(render_html(ev)).figures()]


def test_json_round_tripped_dict_gives_the_same_figures(evals: dict) -> None:
    ev = evals["multiclass"]
    assert figures(json.loads(ev.to_json())) == figures(ev)


@pytest.mark.parametrize(
    "bad, error, match",
    [
        ([], ValueError, "at least one"),
        (42, TypeError, "int"),
        ([{"task": "binary"}], ValueError, "missing"),
        (["not an evaluation"], TypeError, "str"),
    ],
)
def test_bad_input(bad: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        render_html(bad)


# -- writing -------------------------------------------------------------------------------------------


def test_write_html_and_to_html(tmp_path: Path, evals: dict) -> None:
    ev = evals["binary"]
    out = write_html(tmp_path / "r.html", ev, title="T")
    assert out == tmp_path / "r.html"
    text = out.read_text(encoding="utf-8")
    assert text == render_html(ev, title="T")
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    via_method = ev.to_html(tmp_path / "m.html", title="T")
    assert Path(via_method).read_text(encoding="utf-8") == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.html", "r.html"]


def test_write_is_atomic(tmp_path: Path, evals: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.html"
    target.write_text("the old report", encoding="utf-8")

    def fail(*_: Any) -> str:
        raise RuntimeError("boom while rendering")

    # fails half way through the page: the model sections are already written by then
    monkeypatch.setattr(report_html, "_figures_json", fail)
    with pytest.raises(RuntimeError, match="boom"):
        write_html(target, evals["multiclass"])
    assert target.read_text(encoding="utf-8") == "the old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary file left
    monkeypatch.undo()
    write_html(target, evals["multiclass"])
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_bad_paths_are_named(tmp_path: Path, evals: dict) -> None:
    missing = tmp_path / "no such folder" / "r.html"
    with pytest.raises(FileNotFoundError, match="no such folder"):
        write_html(missing, evals["binary"])
    assert not missing.parent.exists()
    with pytest.raises(IsADirectoryError, match=str(tmp_path).replace("\\", "\\\\")):
        write_html(tmp_path, evals["binary"])
    assert list(tmp_path.iterdir()) == []


def test_intervals_appear_under_the_values():
    y = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 0] * 5)
    s = np.linspace(0, 1, 50)[np.argsort(np.arange(50) % 7)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = clfeval.evaluate(y, y_score=s)
    data = {**ev.to_dict(), "intervals": ev.intervals_dict(0.9)}
    page = render_html([data])
    recall = data["intervals"]["per_class"]["recall"]
    for low in recall["low"]:
        assert f'data-low="{low!r}"' in page
    acc = data["intervals"]["overall"]["accuracy"]
    assert f'data-low="{acc["low"]!r}" data-high="{acc["high"]!r}" title="Wilson score"' in page
    assert "its 90% confidence interval" in page
    assert 'class="ci"' not in render_html(ev)


def test_paired_tests_section():
    from clfeval.stats import mcnemar

    y = [0, 1, 1, 0, 1, 0, 1, 1]
    a, b = [0, 1, 1, 0, 1, 1, 1, 1], [0, 1, 0, 0, 1, 0, 0, 1]
    evs = [clfeval.evaluate(y, a, name="A"), clfeval.evaluate(y, b, name="B</td>")]
    r = mcnemar(y, a, b)
    tests = [{"model_a": "A", "model_b": "B</td>", "test": "McNemar (accuracy)", "result": r.to_dict()}]
    page = render_html(evs, tests=tests)
    assert '<section id="tests">' in page and 'href="#tests"' in page
    assert "A vs B&lt;/td&gt;" in page and "B</td>" not in page
    assert f'data-value="{r.pvalue!r}"' in page
    assert f"{r.estimate:+.4f}" in page
    assert '<section id="tests">' not in render_html(evs)
