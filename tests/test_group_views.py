"""The views of an evaluation by group: the HTML report's "By group" section and the matplotlib
forest plot (``clfeval.plot.GroupMetricsDisplay``).

Every number a view shows must be the number of the results (``ev.by_group.table()``, ``gaps()``,
``fairness()``), as the page formats it; the forest plot's points, bars and reference line must be
those numbers too. Edge cases: an undefined metric in a group (shown with its reason), one group,
300 groups (the views show the 40 worst and say so), a dict from ``to_dict()`` with and without
intervals, a multi-class task without scores.
"""

from __future__ import annotations

import functools
import html
import json
import math
import re
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval
from clfeval.plot import GroupMetricsDisplay
from clfeval.plot.group_labels import MAX_SHOWN_GROUPS
from clfeval.report.html import figures, render_html, write_html
from clfeval.report.html_format import fmt
from clfeval.results.group_results import SMALL_GROUP_RULE, worst_order

matplotlib = pytest.importorskip("matplotlib")
from matplotlib.figure import Figure  # noqa: E402

LEVEL = 0.95


def quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@functools.cache
def breast_cancer() -> clfeval.Evaluation:
    """A logistic regression on half of scikit-learn's breast-cancer data, by tertile of the mean radius."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    data = load_breast_cancer(as_frame=True)
    Xtr, Xte, ytr, yte = train_test_split(data.data, data.target, test_size=0.5, random_state=0,
                                          stratify=data.target)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(Xtr, ytr)
    radius = Xte["mean radius"].to_numpy()
    cuts = np.quantile(radius, [1 / 3, 2 / 3])
    size = np.where(radius <= cuts[0], "small", np.where(radius <= cuts[1], "medium", "large"))
    names = np.array(data.target_names)  # target 0 is malignant: its probability is column 0
    return quiet(clfeval.evaluate, names[yte.to_numpy()], y_score=model.predict_proba(Xte)[:, 0],
                 pos_label="malignant", groups={"radius": size}, name="logistic regression")


@functools.cache
def many_groups() -> clfeval.Evaluation:
    rng = np.random.default_rng(0)
    n = 30_000
    y = rng.integers(0, 2, n)
    s = np.clip(y * 0.3 + rng.random(n) * 0.7, 0, 1)
    g = np.char.add("site-", rng.integers(0, 300, n).astype(str))
    return quiet(clfeval.evaluate, y, y_score=s, groups={"site": g}, name="many")


def undefined_in_one_group() -> clfeval.Evaluation:
    """Group b has no positive case: its ROC AUC and recall are undefined."""
    y = np.array([0, 1, 0, 1, 0, 1, 0, 0, 0, 0])
    s = np.array([.1, .9, .6, .8, .2, .4, .3, .7, .2, .1])
    return quiet(clfeval.evaluate, y, y_score=s, groups=["a"] * 6 + ["b"] * 4, name="undefined")


# -- reading the page -----------------------------------------------------------------------------
def page_figures(page: str) -> dict[str, dict[str, Any]]:
    """The figures of a page, by id, as the browser gets them (shared arrays put back)."""
    m = re.search(r'<script type="application/json" id="clfeval-figures">(.*?)</script>', page, re.S)
    figs = json.loads(m.group(1))
    for fig in figs:
        for trace in fig["data"]:
            for key, value in list(trace.items()):
                if isinstance(value, dict) and "same_as" in value:
                    f, t, name = value["same_as"]
                    trace[key] = list(figs[f]["data"][t][name])
    return {f["id"]: f for f in figs}


def attrs(text: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', text)}


def plain(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def table_rows(page: str, css_class: str, nth: int = 0) -> list[dict[str, Any]]:
    """Rows of the nth table whose class list has ``css_class``: the row's attributes and its cells
    (attributes, the value's text, and the interval span's attributes and text)."""
    tables = re.findall(rf'<table class="numbers {css_class}"[^>]*>.*?</table>', page, re.S)
    out = []
    for attr_text, body in re.findall(r"<tr( data-group[^>]*)>(.*?)</tr>", tables[nth], re.S):
        cells = []
        for tag_attrs, inner in re.findall(r"<t[dh]([^>]*)>(.*?)</t[dh]>", body, re.S):
            span = re.search(r'<span class="ci"([^>]*)>(.*?)</span>', inner)
            value = inner[:span.start()] if span else inner
            cells.append({"attrs": attrs(tag_attrs), "text": plain(value).strip(),
                          "ci": None if span is None else (attrs(span.group(1)), plain(span.group(2)))})
        out.append({"attrs": attrs(attr_text), "cells": cells})
    return out


def cell(row: dict[str, Any], col: str) -> dict[str, Any]:
    return next(c for c in row["cells"] if c["attrs"].get("data-col") == col)


def section(page: str, n: int = 1) -> str:
    start = page.index(f'<section class="groups" id="groups-{n}">')
    return page[start:page.index("</section>", start)]


@pytest.fixture(scope="module")
def demo_page() -> str:
    return render_html(breast_cancer())


# -- the HTML page --------------------------------------------------------------------------------
def test_group_table_shows_the_results_numbers_worst_first(demo_page: str) -> None:
    ev = breast_cancer()
    table = ev.by_group.table(ci=LEVEL)
    order = worst_order(table.column("roc_auc"), True)
    rows = table_rows(demo_page, "groups")
    assert [r["attrs"]["data-group"] for r in rows] == [table.groups[g] for g in order] == ["medium", "large", "small"]
    shown_cols = [c["attrs"]["data-col"] for c in rows[0]["cells"] if c["attrs"].get("data-col") in table.metrics]
    assert shown_cols[0] == "roc_auc" and {"accuracy", "recall", "selection_rate", "average_precision"} <= set(shown_cols)
    for r, g in zip(rows, order):
        assert cell(r, "n")["text"] == str(table.n[g])
        for metric in shown_cols:
            j = table.metrics.index(metric)
            c = cell(r, metric)
            value, low, high = table.values[g, j], table.low[g, j], table.high[g, j]
            assert float(c["attrs"]["data-value"]) == value
            assert c["text"] == fmt(value)
            ci_attrs, ci_text = c["ci"]
            assert (float(ci_attrs["data-low"]), float(ci_attrs["data-high"])) == (low, high)
            assert ci_text == f"{fmt(low, 3)}\u2013{fmt(high, 3)}"
            assert ci_attrs["title"] == table.methods[metric]
        # the classes' cases; the small flag with its rule below
        assert cell(r, "support")["text"] == " \u00b7 ".join(str(int(table.support[k][g])) for k in ("benign", "malignant"))
    body = section(demo_page)
    for g in order:
        row_html = re.search(rf'<tr data-group="{table.groups[g]}".*?</tr>', body, re.S).group(0)
        assert (">small</span>" in row_html) == bool(table.small[g])
    assert html.escape(SMALL_GROUP_RULE[len("small: "):], quote=True) in body


def test_forest_plot_has_the_values_intervals_and_the_overall_line(demo_page: str) -> None:
    ev = breast_cancer()
    table = ev.by_group.table(["roc_auc"], ci=LEVEL)
    gap = ev.by_group.gaps("roc_auc")
    order = worst_order(table.column("roc_auc"), True)
    fig = page_figures(demo_page)["groups-forest-1"]
    assert fig["layout"]["yaxis"]["ticktext"] == [table.groups[g] for g in order]
    points = {}
    for trace in fig["data"]:
        if trace.get("mode") != "markers":
            continue
        hollow = trace["marker"]["color"] == "#ffffff"
        for x, y, plus, minus in zip(trace["x"], trace["y"], trace["error_x"]["array"], trace["error_x"]["arrayminus"]):
            points[y] = (x, x - minus, x + plus, hollow)
    assert sorted(points) == list(range(len(order)))
    for row, g in enumerate(order):
        x, low, high, hollow = points[row]
        assert x == table.values[g, 0]
        assert low == pytest.approx(table.low[g, 0], abs=1e-12)
        assert high == pytest.approx(table.high[g, 0], abs=1e-12)
        assert hollow == bool(table.small[g])
    line = next(t for t in fig["data"] if str(t["name"]).startswith("overall"))
    assert line["x"] == [gap.reference_value, gap.reference_value]
    assert gap.reference_value == ev.report.overall["roc_auc"]
    assert line["y"] == [-0.5, len(order) - 0.5]
    assert "95% interval" in fig["layout"]["xaxis"]["title"]["text"]
    # figures() (the page's figures before they are written) holds the same chart
    assert [f["id"] for f in figures(ev) if f["id"].startswith("groups")] == ["groups-forest-1"]


def test_gaps_and_fairness_tables_show_the_results(demo_page: str) -> None:
    ev = breast_cancer()
    for nth, metric in enumerate(["roc_auc", "accuracy"]):
        gap = ev.by_group.gaps(metric, level=LEVEL)
        rows = {r["attrs"]["data-group"]: r for r in table_rows(demo_page, "gaps", nth)}
        assert set(rows) == set(gap.groups)
        for g, name in enumerate(gap.groups):
            r = rows[name]
            assert float(cell(r, "value")["attrs"]["data-value"]) == gap.values[g]
            diff = cell(r, "difference")
            assert float(diff["attrs"]["data-value"]) == gap.difference[g, 0]
            assert diff["text"] == f"{gap.difference[g, 0]:+.4f}"
            low, high = (float(diff["ci"][0][k]) for k in ("data-low", "data-high"))
            assert (low, high) == (gap.difference[g, 1], gap.difference[g, 2])
            assert float(cell(r, "pvalue")["attrs"]["data-value"]) == gap.pvalue[g]
            holm = cell(r, "pvalue_holm")
            assert float(holm["attrs"]["data-value"]) == gap.pvalue_holm[g]
            assert holm["text"] == f"{gap.pvalue_holm[g]:.4f}"
            assert ("signif" in holm["attrs"].get("class", "")) == bool(gap.pvalue_holm[g] < 0.05)
    fair = ev.by_group.fairness(LEVEL)
    body = section(demo_page)
    for name, entry in fair.entries.items():
        m = re.search(rf'<tr data-summary="{name}">.*?<td data-value="([^"]+)">([^<]+)</td><td>([^<]+)</td>', body)
        assert float(m.group(1)) == entry["value"] and m.group(2) == fmt(entry["value"])
        assert m.group(3) == f"{fmt(entry['low'])} to {fmt(entry['high'])}"


def test_the_page_from_a_dict_with_intervals_shows_the_same_numbers() -> None:
    ev = breast_cancer()
    page = render_html(ev.to_dict(ci_level=LEVEL))
    from_ev = page_figures(render_html(ev))["groups-forest-1"]["data"]
    from_dict = page_figures(page)["groups-forest-1"]["data"]
    assert from_dict == from_ev
    table = ev.by_group.table(ci=LEVEL)
    for r in table_rows(page, "groups"):
        g = table.groups.index(r["attrs"]["data-group"])
        c = cell(r, "accuracy")
        assert float(c["attrs"]["data-value"]) == table.values[g, table.metrics.index("accuracy")]
        assert float(c["ci"][0]["data-low"]) == table.low[g, table.metrics.index("accuracy")]


def test_a_dict_without_intervals_shows_points_and_says_why() -> None:
    ev = breast_cancer()
    page = render_html(ev.to_dict())
    fig = page_figures(page)["groups-forest-1"]
    assert all("error_x" not in t for t in fig["data"])
    assert "No intervals: the group table this page was made from has none" in page
    assert all(c["ci"] is None for r in table_rows(page, "groups") for c in r["cells"])


def test_the_metric_is_chosen_by_scores_or_by_the_caller() -> None:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 400)
    p = np.where(rng.random(400) < 0.8, y, 1 - y)
    g = rng.choice(["north", "south"], 400)
    ev = quiet(clfeval.evaluate, y, p, groups=g)
    figs = page_figures(render_html(ev))  # without scores: balanced accuracy, as the command line's --by
    xs = [x for t in figs["groups-forest-1"]["data"] if t.get("mode") == "markers" for x in t["x"]]
    expected = ev.by_group.table("balanced_accuracy").column("balanced_accuracy")
    assert sorted(xs) == sorted(expected.tolist())
    line = next(t for t in figs["groups-forest-1"]["data"] if str(t["name"]).startswith("overall"))
    assert line["x"][0] == ev.report.overall["balanced_accuracy"]
    # a dict from the command line names its metric "sort_metric"
    data = ev.to_dict(ci_level=LEVEL)
    data["groups"]["sort_metric"] = "recall"
    fig = page_figures(render_html(data))["groups-forest-1"]
    assert fig["layout"]["xaxis"]["title"]["text"].startswith("recall of 1")
    page = render_html(ev, group_metric="recall")
    fig = page_figures(page)["groups-forest-1"]
    xs = [x for t in fig["data"] if t.get("mode") == "markers" for x in t["x"]]
    assert sorted(xs) == sorted(ev.by_group.table("recall").column("recall").tolist())
    assert fig["layout"]["xaxis"]["title"]["text"].startswith("recall of 1")
    line = next(t for t in fig["data"] if str(t["name"]).startswith("overall"))
    assert line["x"][0] == ev.by_group.gaps("recall").reference_value == ev.report.rows[1]["recall"]
    with pytest.raises(ValueError, match="unknown metric"):
        render_html(ev, group_metric="recal")


def test_an_undefined_metric_is_shown_with_its_reason() -> None:
    ev = undefined_in_one_group()
    page = quiet(render_html, ev)
    table = ev.by_group.table(ci=LEVEL)
    note = next(n for n in table.notes[table.groups.index("b")] if n.startswith("roc_auc: "))
    rows = {r["attrs"]["data-group"]: r for r in table_rows(page, "groups")}
    assert list(rows) == ["a", "b"]  # undefined values last
    c = cell(rows["b"], "roc_auc")
    assert c["attrs"]["data-value"] == "nan" and c["text"] == "\u2014"
    assert c["attrs"]["title"] == note[len("roc_auc: "):]
    assert html.escape(f"b: {note}", quote=True) in page
    fig = page_figures(page)["groups-forest-1"]
    ys = [y for t in fig["data"] if t.get("mode") == "markers" for y in t["y"]]
    assert ys == [0]  # a point for a, none for b
    [annotation] = fig["layout"]["annotations"]
    assert annotation["y"] == 1 and annotation["text"] == note[len("roc_auc: "):]
    gap = {r["attrs"]["data-group"]: r for r in table_rows(page, "gaps")}
    assert cell(gap["b"], "difference")["text"] == "\u2014"


def test_a_single_group() -> None:
    ev = quiet(clfeval.evaluate, [0, 1, 1, 0, 1, 0, 1, 0], [0, 1, 0, 0, 1, 1, 1, 0], groups=["all"] * 8)
    page = quiet(render_html, ev)
    fig = page_figures(page)["groups-forest-1"]
    [trace] = [t for t in fig["data"] if t.get("mode") == "markers"]
    assert trace["x"] == [ev.report.overall["balanced_accuracy"]] and trace["y"] == [0]
    assert "1 group by group." in page
    assert [r["attrs"]["data-group"] for r in table_rows(page, "groups")] == ["all"]


def test_many_groups_show_the_worst_and_say_how_many_are_not(tmp_path: Path) -> None:
    ev = many_groups()
    path = write_html(tmp_path / "many.html", ev)
    page = path.read_text(encoding="utf-8")
    table = ev.by_group.table(["roc_auc"])
    worst = [table.groups[g] for g in worst_order(table.column("roc_auc"), True)[:MAX_SHOWN_GROUPS]]
    assert [r["attrs"]["data-group"] for r in table_rows(page, "groups")] == worst
    fig = page_figures(page)["groups-forest-1"]
    assert fig["layout"]["yaxis"]["ticktext"] == worst
    xs = {y: x for t in fig["data"] if t.get("mode") == "markers" for x, y in zip(t["x"], t["y"])}
    values = dict(zip(table.groups, table.column("roc_auc")))
    for row, name in enumerate(worst):  # long arrays are written with 6 significant digits at least
        assert xs[row] == pytest.approx(values[name], rel=1e-6)
    assert fig["layout"]["height"] < 1500
    assert "Only the 40 worst groups by ROC AUC are shown; 260 more are not" in page
    assert "(the 40 worst of 300)" in fig["layout"]["title"]["text"]
    assert len(table_rows(page, "gaps")) == MAX_SHOWN_GROUPS


def test_a_multiclass_page_without_scores() -> None:
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 600)
    pred = np.where(rng.random(600) < 0.7, y, rng.integers(0, 3, 600))
    ev = quiet(clfeval.evaluate, y, pred, groups=rng.choice(["x", "y", "z"], 600))
    page = render_html(ev)
    fig = page_figures(page)["groups-forest-1"]
    assert fig["layout"]["xaxis"]["title"]["text"] == "balanced accuracy (95% interval)"
    assert "Fairness summaries" not in page  # binary only
    head = re.search(r'<table class="numbers groups".*?</thead>', page, re.S).group(0)
    assert 'data-col="f1.macro"' in head and 'data-col="kappa"' not in head


def test_a_page_without_groups_has_no_group_section() -> None:
    page = render_html(clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0]))
    assert 'class="groups"' not in page and "groups-forest" not in page


# -- the matplotlib display -----------------------------------------------------------------------
def test_display_draws_the_table_values_and_intervals() -> None:
    ev = breast_cancer()
    d = GroupMetricsDisplay.from_evaluation(ev, ax=Figure().add_subplot())
    table = ev.by_group.table(["roc_auc"], ci=LEVEL)
    order = worst_order(table.column("roc_auc"), True)
    assert d.metric == "roc_auc" and d.groups == [table.groups[g] for g in order]
    np.testing.assert_array_equal(d.points_.get_offsets()[:, 0], table.values[order, 0])
    np.testing.assert_array_equal(d.points_.get_offsets()[:, 1], np.arange(3))
    segments = d.errorbar_.lines[2][0].get_segments()
    for seg, g in zip(segments, order):
        assert seg[0][0] == pytest.approx(table.low[g, 0], abs=1e-12)
        assert seg[1][0] == pytest.approx(table.high[g, 0], abs=1e-12)
    assert d.reference_line_.get_xdata()[0] == ev.report.overall["roc_auc"]
    faces = d.points_.get_facecolors()
    assert [tuple(f[:3]) == (1.0, 1.0, 1.0) for f in faces] == table.small[order].tolist()
    labels = [t.get_text() for t in d.ax_.get_yticklabels()]
    assert labels == [f"{table.groups[g]}  (n={table.n[g]})" for g in order]
    assert d.ax_.get_xlabel() == "ROC AUC (95% interval)"


def test_display_from_predictions_equals_from_evaluation_and_keeps_key_order() -> None:
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 500)
    p = np.where(rng.random(500) < 0.75, y, 1 - y)
    g = rng.choice(["c", "a", "b"], 500)
    ev = quiet(clfeval.evaluate, y, p, groups=g)
    a = quiet(GroupMetricsDisplay.from_predictions, y, p, groups=g, metric="recall", sort=False,
              ax=Figure().add_subplot())
    b = quiet(GroupMetricsDisplay.from_evaluation, ev, "recall", sort=False, ax=Figure().add_subplot())
    assert a.groups == b.groups == ["a", "b", "c"]
    np.testing.assert_array_equal(a.values, b.values)
    np.testing.assert_array_equal(a.values, ev.by_group.table("recall").column("recall"))
    assert a.reference_value == ev.report.rows[1]["recall"]
    assert a.ax_.get_xlabel() == "recall of 1 (95% interval)"


def test_display_reference_best_and_no_intervals() -> None:
    ev = breast_cancer()
    d = GroupMetricsDisplay.from_evaluation(ev, "accuracy", reference="best", ci=None, ax=Figure().add_subplot())
    gap = ev.by_group.gaps("accuracy", "best")
    assert d.reference_value == gap.reference_value == max(d.values)
    assert d.reference_line_.get_label().startswith(gap.reference)
    assert np.isnan(d.low).all() and d.level is None
    assert all(len(seg) == 0 or seg[0][0] == seg[-1][0] for seg in d.errorbar_.lines[2][0].get_segments())


def test_display_undefined_value_many_groups_and_errors() -> None:
    ev = undefined_in_one_group()
    d = quiet(GroupMetricsDisplay.from_evaluation, ev, "roc_auc", ax=Figure().add_subplot())
    assert d.groups == ["a", "b"] and len(d.points_.get_offsets()) == 1
    [text] = d.undefined_
    note = next(n for n in ev.by_group.table("roc_auc").notes[1] if n.startswith("roc_auc: "))
    assert text.get_text().replace("\n", " ") == note[len("roc_auc: "):]
    ev = many_groups()
    d = GroupMetricsDisplay.from_evaluation(ev, max_groups=25, ax=Figure().add_subplot())
    assert len(d.groups) == 25 and d.omitted == 275
    assert "25 worst shown, 275 more not" in d.ax_.get_title().replace("\n", " ")
    values = ev.by_group.table("roc_auc").column("roc_auc")
    np.testing.assert_array_equal(np.sort(d.values), np.sort(values)[:25])
    with pytest.raises(ValueError, match="no groups"):
        GroupMetricsDisplay.from_evaluation(clfeval.evaluate([0, 1], [0, 1]))
    with pytest.raises(ValueError, match="max_groups"):
        GroupMetricsDisplay.from_evaluation(ev, max_groups=0)


# -- in a browser ----------------------------------------------------------------------------------
sys.path.insert(0, str(Path(__file__).resolve().parent / "report"))
from browser_fixture import browser  # noqa: E402, F401 - the fixture: one headless Chromium per module
from test_html_layout import PARTS_JS, overlaps  # noqa: E402


@pytest.mark.parametrize("make", [breast_cancer, many_groups, undefined_in_one_group])
def test_the_forest_plot_draws_and_nothing_on_it_overlaps(make: Any, browser: Any, tmp_path: Path) -> None:
    path = quiet(write_html, tmp_path / "groups.html", make())
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(path.as_uri(), wait_until="load")
        page.wait_for_function("document.body.hasAttribute('data-charts-rendered')", timeout=60_000)
        assert page.evaluate("document.body.dataset.chartsFailed") == "0" and errors == []
        for width in (1300, 900):
            page.set_viewport_size({"width": width, "height": 1000})
            page.evaluate("() => Plotly.Plots.resize(document.getElementById('groups-forest-1'))")
            chart = page.evaluate(PARTS_JS, "groups-forest-1")["groups-forest-1"]
            assert {p["kind"] for p in chart["parts"]} >= {"title", "legend", "axis title", "tick label"}
            assert overlaps(chart) == []
            assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        page.close()
