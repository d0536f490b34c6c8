"""The cross-validation section of the HTML report: its numbers and charts, read back from the
page, are the CrossEvaluation's (table(), summary(), mean_curve()); pages of Evaluations are
unchanged."""

from __future__ import annotations

import json
import math
import re
from html.parser import HTMLParser
from typing import Any

import numpy as np
import pytest

pytest.importorskip("plotly")
pytest.importorskip("sklearn")
from sklearn.datasets import load_breast_cancer, load_iris  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402

import clfeval  # noqa: E402
from clfeval.cross_evaluation import cross_evaluate  # noqa: E402
from clfeval.protocols import KFold  # noqa: E402
from clfeval.report.html import cross_validation_dict, figures, render_html, write_html  # noqa: E402


@pytest.fixture(scope="module")
def binary():
    X, y = load_breast_cancer(return_X_y=True)
    return cross_evaluate(GaussianNB(), X, y, KFold(5, random_state=0), progress=False, name="naive Bayes")


@pytest.fixture(scope="module")
def multiclass():
    X, y = load_iris(return_X_y=True)
    return cross_evaluate(GaussianNB(), X, y, KFold(5, random_state=0), progress=False, name="iris NB")


class CvTable(HTMLParser):
    """The cells of table.cv-folds: {(row, col): attributes}, rows "fold:<i>" or the summary rows."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.cells: dict[tuple[str, str], dict[str, Any]] = {}
        self.inside = False
        self.row = ""
        self.headers: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table" and "cv-folds" in (a.get("class") or ""):
            self.inside = True
        if not self.inside:
            return
        if tag == "tr":
            self.row = f"fold:{a['data-fold']}" if a.get("data-row") == "fold" else str(a.get("data-row"))
        if tag == "th" and a.get("data-col"):
            self.headers.append(str(a["data-col"]))
        if tag == "td" and a.get("data-col"):
            self.cells[(self.row, str(a["data-col"]))] = a

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False


def _figs(page: str) -> dict[str, dict[str, Any]]:
    block = re.search(r'<script type="application/json" id="clfeval-figures">(.*?)</script>', page, re.S)
    return {f["id"]: f for f in json.loads(block.group(1))}


def _num(v: str | None) -> float:
    return float(v) if v not in (None, "", "nan") else math.nan


@pytest.mark.parametrize("which", ["binary", "multiclass"])
def test_table_numbers_are_table_and_summary(which, request):
    cv = request.getfixturevalue(which)
    page = render_html(cv)
    t = CvTable(page)
    table = cv.table()
    summary = cv.summary()
    metrics = [r["metric"] for r in summary.rows]
    assert metrics == [k for k in table if k not in
                       ("fold", "repeat", "n_train", "n_test", "fit_time", "predict_time", "evaluation_time")]
    assert t.headers[:2] == ["n_train", "n_test"] and t.headers[2:2 + len(metrics)] == metrics
    for r, fold in enumerate(table["fold"]):
        for col in ("n_train", "n_test"):
            assert int(t.cells[(f"fold:{fold}", col)]["data-value"]) == table[col][r]
        for m in metrics:
            assert _num(t.cells[(f"fold:{fold}", m)]["data-value"]) == table[m][r]  # repr round-trips
    for row in summary.rows:
        m = row["metric"]
        assert _num(t.cells[("mean", m)]["data-value"]) == row["mean"] == cv.mean_value(m)
        assert _num(t.cells[("std", m)]["data-value"]) == row["std"]
        assert _num(t.cells[("pooled", m)]["data-value"]) == row["pooled"] == cv.pooled_value(m)
        cell = t.cells[("interval", m)]
        assert (_num(cell["data-low"]), _num(cell["data-high"])) == (row["low"], row["high"])
        assert cell["title"] == summary.method
    # the protocol and the response are said
    assert cv.protocol_name in page and repr(cv.protocol) in page
    assert "predict_proba (class probabilities as scores)" in page


@pytest.mark.parametrize("which", ["binary", "multiclass"])
def test_curve_charts_hold_fold_and_mean_curves(which, request):
    cv = request.getfixturevalue(which)
    figs = _figs(render_html(cv))
    for kind in ("roc", "pr"):
        fig = figs[f"cv1-{kind}"]
        mean = cv.mean_curve(kind, band="corrected")
        folds = [t for t in fig["data"] if t.get("legendgroup") == "folds"]
        assert len(folds) == len(cv.folds) == 5
        assert sum(t["showlegend"] for t in folds) == 1
        for t, ev in zip(folds, cv.evaluations):
            c = ev.compact_curves(kind, 2000)[mean.curve]
            # the page writes 6 significant digits or more (clfeval.report.html_numbers)
            assert t["x"] == pytest.approx(c.x.tolist(), rel=5e-6) and t["y"] == pytest.approx(c.y.tolist(), rel=5e-6)
        (line,) = [t for t in fig["data"] if str(t.get("name", "")).startswith("mean")]
        assert line["x"] == pytest.approx(mean.x.tolist(), rel=5e-6)
        assert line["y"] == pytest.approx(mean.mean.tolist(), rel=5e-6)
        assert f"{mean.area_mean:.3f} \u00b1 {mean.area_std:.3f}" in line["name"]
        low, high = [t for t in fig["data"] if t.get("legendgroup") == "band"]
        assert low["y"] == pytest.approx(mean.low.tolist(), rel=5e-6)
        assert high["y"] == pytest.approx(mean.high.tolist(), rel=5e-6)
        assert high["fill"] == "tonexty"
        if kind == "pr":
            assert line["line"]["shape"] == "vh"
            (base,) = [t for t in fig["data"] if str(t.get("name", "")).startswith("baseline")]
            pc = cv.pooled.confusion.per_class()
            i = None if cv.labels.size > 2 else 1
            pos = (pc["tp"] + pc["fn"]).astype(float)
            tot = pos + pc["fp"] + pc["tn"]
            expected = pos[i] / tot[i] if i is not None else pos.sum() / tot.sum()
            assert base["y"][0] == pytest.approx(expected)


def test_metrics_strip_chart(binary):
    fig = _figs(render_html(binary))["cv1-metrics"]
    summary = binary.summary()
    boxes = [t for t in fig["data"] if t["type"] == "box"]
    assert [b["name"] for b in boxes] == [r["metric"] for r in summary.rows]
    for b in boxes:
        assert b["y"] == binary.values(b["name"]).tolist() and b["boxpoints"] == "all"
    mean, pooled = [t for t in fig["data"] if t["type"] == "scatter"]
    assert mean["y"] == [r["mean"] for r in summary.rows]
    assert [m + p for m, p in zip(mean["y"], mean["error_y"]["array"])] == pytest.approx([r["high"] for r in summary.rows])
    assert [m - p for m, p in zip(mean["y"], mean["error_y"]["arrayminus"])] == pytest.approx([r["low"] for r in summary.rows])
    assert pooled["y"] == [r["pooled"] for r in summary.rows]


def test_page_layout_and_pooled_report_below(binary, tmp_path):
    path = write_html(tmp_path / "cv.html", binary)
    page = path.read_text(encoding="utf-8")
    assert page.count("<script>") == 2  # plotly.js once, then the start-up script
    assert "Content-Security-Policy" in page
    assert "<title>Cross-validation: naive Bayes</title>" in page
    cv_at, pooled_at = page.index('id="cv-1"'), page.index('id="model-1"')
    assert cv_at < pooled_at
    assert "Pooled out-of-fold evaluation" in page and "Every out-of-fold prediction" in page
    ids = [f["id"] for f in figures(binary)]
    assert ids == ["cv1-roc", "cv1-pr", "cv1-metrics", "confusion-1", "roc-curves", "pr-curves",
                   "roc-threshold-3d", "pr-threshold-3d", "reliability-1", "cost-curve-1", "decision-curve-1"]
    assert page.count(' data-chart="') == len(ids)
    # the pooled Evaluation's report is the usual one
    assert f'data-value="{binary.pooled.report.overall["accuracy"]!r}"' in page


def test_two_cross_evaluations_and_an_evaluation(binary, multiclass):
    d = cross_validation_dict(binary)
    assert d["response"] == "predict_proba" and d["binary"] and len(d["fold_curves"]["roc"]) == 5
    X, y = load_breast_cancer(return_X_y=True)
    other = cross_evaluate(GaussianNB(var_smoothing=1e-3), X, y, KFold(5, random_state=0), progress=False,
                           name="smoothed NB")
    page = render_html([binary, other])
    figs = _figs(page)
    assert {"cv1-roc", "cv2-roc", "cv1-metrics", "cv2-metrics"} <= set(figs)
    assert 'id="cv-2"' in page and "Cross-validation: smoothed NB" in page
    assert 'id="summary"' in page  # the pooled evaluations are compared as models


def test_without_scores(multiclass):
    X, y = load_iris(return_X_y=True)
    cv = cross_evaluate(GaussianNB(), X, y, KFold(5, random_state=0), response="predict", progress=False)
    ids = [f["id"] for f in figures(cv)]
    assert ids == ["cv1-metrics", "confusion-1"]
    assert "predict only (no scores, so no curves)" in render_html(cv)


def test_evaluation_pages_unchanged():
    ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="demo")
    page = render_html(ev, title="Demo")
    assert "cross-validation" not in page.lower() and "<h2>Results</h2>" in page
    assert [f["id"] for f in figures(ev)] == ["confusion-1", "roc-curves", "pr-curves", "roc-threshold-3d",
                                               "pr-threshold-3d", "reliability-1", "cost-curve-1",
                                               "decision-curve-1"]


def test_failed_folds_are_shown():
    class Picky(GaussianNB):
        def fit(self, X, y, sample_weight=None):
            if X.shape[0] < 455 or X[0, 0] > 19:  # the fold whose training part starts high fails
                raise ValueError("boom")
            return super().fit(X, y, sample_weight)

    X, y = load_breast_cancer(return_X_y=True)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cv = cross_evaluate(Picky(), X, y, KFold(5, random_state=0), progress=False, on_error="continue")
    if not cv.failed or len(cv.failed) == len(cv.folds):
        pytest.skip("the split did not give a mix of failed and working folds")
    page = render_html(cv)
    assert "failed: " in page and "boom" in page
    t = CvTable(page)
    ok = [f for f in cv.folds if f.ok]
    assert _num(t.cells[("mean", "accuracy")]["data-value"]) == pytest.approx(
        np.mean([f.evaluation.report.overall["accuracy"] for f in ok]))
