"""The HTML report in a real browser: headless Chromium (Debian's) driven by Playwright.

Each page is opened from a file:// URL and must draw every chart (plotly's SVG for the 2-D
charts, a WebGL scene for the 3-D views) with no console error, no page error and no request
other than file:, data: or blob:. Full-page screenshots go to ``artifacts/`` (or to the folder in
``CLFEVAL_ARTIFACTS``).

Skipped when Playwright or Chromium is missing, unless ``CLFEVAL_REQUIRE_BROWSER=1``, in which
case that is a failure. Never runs ``playwright install``: it uses the system's Chromium.
"""

from __future__ import annotations

import functools
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.report.html import write_html

ARTIFACTS = Path(os.environ.get("CLFEVAL_ARTIFACTS", Path(__file__).resolve().parents[2] / "artifacts"))
ALLOWED_SCHEMES = ("file:", "data:", "blob:")
from browser_fixture import browser  # noqa: F401 - the fixture: one headless Chromium per module


def quiet_eval(*args: Any, **kwargs: Any) -> clfeval.Evaluation:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        ev = clfeval.evaluate(*args, **kwargs)
        ev.report  # noqa: B018
    return ev


@functools.cache
def _breast_cancer() -> list[clfeval.Evaluation]:
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.5, random_state=0, stratify=y)
    out = []
    for name, model in (("logistic regression", make_pipeline(StandardScaler(), LogisticRegression())),
                        ("naive Bayes", GaussianNB())):
        scores = model.fit(Xtr, ytr).predict_proba(Xte)[:, 1]
        out.append(quiet_eval(yte, y_score=scores, target_names=["malignant", "benign"], name=name))
    return out


def _digits() -> clfeval.Evaluation:
    from sklearn.datasets import load_digits
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_digits(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.4, random_state=0, stratify=y)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=500)).fit(Xtr, ytr)
    return quiet_eval(yte, y_score=model.predict_proba(Xte), name="digits: logistic regression")


def _multilabel() -> clfeval.Evaluation:
    rng = np.random.default_rng(1)
    Y = rng.integers(0, 2, (300, 4))
    S = np.clip(Y * 0.35 + rng.random((300, 4)) * 0.65, 0, 1)
    return quiet_eval(Y, y_score=S, target_names=["sports", "politics", "tech", "art"], name="tagger")


NASTY = ["</script><script>alert(1)</script>", "a & b \"q\" 'x'", "<b>bold</b>", "%{x} $x$"]


def _nasty() -> clfeval.Evaluation:
    rng = np.random.default_rng(2)
    y = rng.integers(0, 4, 200)
    s = rng.dirichlet(np.ones(4), 200)
    s[np.arange(200), y] += 0.5
    return quiet_eval(np.array(NASTY, dtype=object)[y], y_score=s / s.sum(1, keepdims=True), labels=NASTY,
                      name="<img src=x onerror=alert(2)>")


PAGES = {
    "binary": lambda: _breast_cancer()[:1],
    "multiclass_digits": lambda: [_digits()],
    "multilabel": lambda: [_multilabel()],
    "comparison": _breast_cancer,
    "nasty_names": lambda: [_nasty()],
    "no_scores": lambda: [quiet_eval(["a", "b", "c", "a", "b"], ["a", "b", "b", "a", "c"], name="plain")],
}


def _open(browser: Any, path: Path) -> tuple[Any, dict[str, list[Any]]]:
    """Open a written page; return it with what it logged and requested."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    seen: dict[str, list[Any]] = {"console": [], "pageerror": [], "request": [], "dialog": []}
    page.on("console", lambda m: seen["console"].append((m.type, m.text)))
    page.on("pageerror", lambda e: seen["pageerror"].append(str(e)))
    page.on("request", lambda r: seen["request"].append(r.url))
    page.on("dialog", lambda d: (seen["dialog"].append(d.message), d.dismiss()))
    page.goto(path.as_uri(), wait_until="load")
    page.wait_for_function("document.body.hasAttribute('data-charts-rendered')", timeout=60_000)
    return page, seen


def _decision_charts(ev: Any) -> int:
    """Reliability, cost-curve and decision-curve charts the page draws for ``ev``."""
    d = ev.thresholds_dict()
    calibration = d["calibration"] is not None and "error" not in d["calibration"]
    return int(calibration) + (d["cost_curve"] is not None) + (d["decision_curve"] is not None)


@pytest.mark.parametrize("name", list(PAGES))
def test_page_renders_offline(name: str, browser: Any, tmp_path: Path) -> None:
    evaluations = PAGES[name]()
    path = write_html(tmp_path / f"{name}.html", evaluations)
    page, seen = _open(browser, path)
    try:
        body = page.evaluate("[document.body.dataset.chartsRendered, document.body.dataset.chartsFailed]")
        charts = page.evaluate(
            """() => Array.from(document.querySelectorAll('[data-chart]')).map(el => ({
                 id: el.id, kind: el.dataset.chart,
                 plotly: el.classList.contains('js-plotly-plot'),
                 svg: el.querySelectorAll('svg.main-svg').length,
                 traces: (el.data || []).length,
                 buttons: Array.from(el.querySelectorAll('.modebar-btn')).map(b => b.dataset.title),
                 gl: el.querySelectorAll('.gl-container canvas').length,
                 // a 3-D scene with a live WebGL context (without one plotly still makes the
                 // canvases but has no glplot and says "WebGL is not supported")
                 scene: !!(el._fullLayout && el._fullLayout.scene && el._fullLayout.scene._scene
                           && el._fullLayout.scene._scene.glplot),
                 nowebgl: el.innerText.includes('WebGL is not supported'),
                 width: el.getBoundingClientRect().width,
                 height: el.getBoundingClientRect().height}))"""
        )
        has_scores = any(ev.has_scores for ev in evaluations)
        kinds = sorted(c["kind"] for c in charts)
        expected = ["heatmap"] * len(evaluations) + (["2d", "2d", "3d", "3d"] if has_scores else [])
        expected += ["2d"] * sum(_decision_charts(ev) for ev in evaluations)
        assert kinds == sorted(expected)
        assert body == [str(len(charts)), "0"]
        for c in charts:
            assert c["plotly"] and c["svg"] >= 1 and c["traces"] >= 1, c
            assert c["width"] > 300 and c["height"] > 300, c
            assert "Download plot as a PNG" in c["buttons"], c
            assert not [b for b in c["buttons"] if "share" in b.lower() or "studio" in b.lower()], c
            if c["kind"] == "3d":
                assert c["scene"] and c["gl"] >= 1 and not c["nowebgl"], c  # a WebGL scene was drawn
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"report_{name}.png"), full_page=True)
        # the heat map's buttons switch the view: "by true" shows shares of each true class
        page.locator("#confusion-1 .updatemenu-button").nth(1).click()
        z = page.evaluate("document.getElementById('confusion-1').data[0].z")
        assert max(v for row in z for v in row if v is not None) <= 1.0 + 1e-12
        if name == "nasty_names":
            assert page.title() == "Classifier evaluation: <img src=x onerror=alert(2)>"
            headers = page.locator("table.report tbody.classes th").all_inner_texts()
            assert headers == NASTY
            assert page.locator("img").count() == 0
    finally:
        page.close()
    errors = [text for kind, text in seen["console"] if kind == "error"]
    assert errors == [] and seen["pageerror"] == [] and seen["dialog"] == []
    assert seen["request"] and all(url.startswith(ALLOWED_SCHEMES) for url in seen["request"]), seen["request"]


def test_network_is_refused(browser: Any, tmp_path: Path) -> None:
    """The page's Content-Security-Policy stops a script on it from reaching the network."""
    path = write_html(tmp_path / "csp.html", PAGES["no_scores"]())
    page, seen = _open(browser, path)
    try:
        blocked = page.evaluate(
            """() => fetch('http://127.0.0.1:9/x').then(() => 'fetched', e => 'refused: ' + e.name)"""
        )
    finally:
        page.close()
    assert blocked.startswith("refused")
    assert not [u for u in seen["request"] if u.startswith("http")]


@pytest.mark.parametrize("name", ["comparison", "multiclass_digits"])
def test_bands_render_and_toggle(name: str, browser: Any, tmp_path: Path) -> None:
    """Pages with pointwise bands: each band is a filled area, hidden and shown by its legend entry."""
    evaluations = PAGES[name]()
    path = write_html(tmp_path / f"bands_{name}.html", evaluations, bands=0.95)
    page, seen = _open(browser, path)
    band_state = """id => document.getElementById(id).data
        .filter(t => (t.legendgroup || '').endsWith(':band')).map(t => [t.legendgroup, t.visible])"""
    try:
        assert page.evaluate("[document.body.dataset.chartsRendered, document.body.dataset.chartsFailed]")[1] == "0"
        for fid in ("roc-curves", "pr-curves"):
            state = page.evaluate(band_state, fid)
            assert len(state) == 2 * len(evaluations) and all(v is True for _, v in state), state
            # plotly drew one filled area per band, with a real outline
            fills = page.evaluate(
                """id => Array.from(document.querySelectorAll('#' + id + ' path.js-fill'))
                     .filter(p => (p.getAttribute('d') || '').length > 20).length""", fid)
            assert fills >= len(evaluations), fills
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("#roc-curves").screenshot(path=str(ARTIFACTS / f"report_bands_{name}_roc.png"))
        page.locator("#pr-curves").screenshot(path=str(ARTIFACTS / f"report_bands_{name}_pr.png"))
        # a click on the first band's legend entry hides both of its edges, and nothing else
        entry = page.locator("#roc-curves .legend .traces", has_text="pointwise band").first
        entry.locator(".legendtoggle").click()
        # plotly waits out its double-click delay before it acts on a single click
        page.wait_for_function(
            "() => document.getElementById('roc-curves').data.some(t => t.visible === 'legendonly')", timeout=5_000)
        state = page.evaluate(band_state, "roc-curves")
        assert [v for _, v in state[:2]] == ["legendonly", "legendonly"], state
        assert all(v is True for _, v in state[2:]), state
        curves = page.evaluate("""() => document.getElementById('roc-curves').data
            .filter(t => t.mode === 'lines' && !(t.legendgroup || '').endsWith(':band') && t.legendgroup)
            .map(t => t.visible)""")
        assert all(v is True for v in curves), curves
    finally:
        page.close()
    errors = [text for kind, text in seen["console"] if kind == "error"]
    assert errors == [] and seen["pageerror"] == [] and seen["dialog"] == []
    assert all(url.startswith(ALLOWED_SCHEMES) for url in seen["request"]), seen["request"]


def test_cross_validation_page(browser: Any, tmp_path: Path) -> None:
    """A CrossEvaluation's page: its cross-validation charts and the pooled report draw with no error."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.naive_bayes import GaussianNB

    from clfeval.cross_evaluation import cross_evaluate
    from clfeval.protocols import KFold

    X, y = load_breast_cancer(return_X_y=True)
    cv = cross_evaluate(GaussianNB(), X, y, KFold(5, random_state=0), progress=False, name="naive Bayes")
    path = write_html(tmp_path / "cross_validation.html", cv)
    page, seen = _open(browser, path)
    try:
        # 3 cross-validation charts, the pooled report's 5, its reliability, cost and decision curves
        assert page.evaluate("[document.body.dataset.chartsRendered, document.body.dataset.chartsFailed]") == ["11", "0"]
        traces = page.evaluate("""() => ['cv1-roc', 'cv1-pr', 'cv1-metrics'].map(id => {
            const el = document.getElementById(id);
            return [el.classList.contains('js-plotly-plot'), el.data.length,
                    el.data.filter(t => t.legendgroup === 'folds').length,
                    el.querySelectorAll('.boxlayer .trace').length];
        })""")
        assert [t[0] for t in traces] == [True, True, True]
        assert traces[0][2] == traces[1][2] == 5  # one drawn line per fold
        assert traces[2][3] >= 11  # one drawn box per metric
        assert page.locator("table.cv-folds tbody.folds tr").count() == 5
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("#cv-1").screenshot(path=str(ARTIFACTS / "report_cross_validation.png"))
    finally:
        page.close()
    errors = [text for kind, text in seen["console"] if kind == "error"]
    assert errors == [] and seen["pageerror"] == [] and seen["dialog"] == []
    assert all(url.startswith(ALLOWED_SCHEMES) for url in seen["request"]), seen["request"]
