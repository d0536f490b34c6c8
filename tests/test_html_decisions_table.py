"""The HTML report's "Thresholds, costs and calibration" section (clfeval.report.html_decisions),
read back from written pages.

Every test writes a page (``Evaluation.to_html`` or ``write_html``), parses it with html.parser
and compares what the section shows - the operating-points table (class "numbers points"), the
costs and calibration paragraphs, the reliability / cost-curve / decision-curve charts - with the
numbers the Evaluation itself gives (``operating_point``, ``at``, ``expected_cost``,
``calibration``, ``cost_curve``, ``decision_curve``). Printed numbers are compared within the
precision they are printed with: rates and values with 4 decimals, thresholds and counts with 6
significant digits.
"""

from __future__ import annotations

import json
import math
import re
import warnings
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import clfeval
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.report.html import write_html

pytest.importorskip("plotly")

DATA = Path(clfeval.__file__).resolve().parent / "data"
DASH = "\u2014"
HEAD = ["curve", "rule", "threshold", "value", "precision", "recall", "specificity", "F1", "TP", "FP", "FN", "TN"]
RULES = ["break-even", "youden", "closest-topleft", "max-f1"]
#: label order [benign, malignant]: rows true, columns predicted; a missed malignant costs 5
COSTS = [[0.0, 1.0], [5.0, 0.0]]


# -- reading the page back -------------------------------------------------------------------------


class Section:
    """One model's decisions section: its title, headings, points table, paragraphs and charts."""

    def __init__(self, sid: str) -> None:
        self.id = sid
        self.title = ""
        self.h3: list[str] = []
        self.head: list[str] = []
        self.rows: list[list[tuple[str, dict[str, Any]]]] = []  # [(cell text, cell attributes)]
        self.tables: list[str] = []  # the class of every table in the section
        self.paragraphs: list[tuple[str, str]] = []  # (class, text)
        self.charts: list[str] = []

    def paragraph(self, start: str) -> str | None:
        found = [t for c, t in self.paragraphs if t.startswith(start)]
        assert len(found) <= 1, found
        return found[0] if found else None


class Page(HTMLParser):
    """The decisions sections of a page (in order), its figures and its raw text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text = text
        self.sections: list[Section] = []
        self.figures: list[dict[str, Any]] = []
        self._sec: Section | None = None
        self._in: str | None = None  # "h2", "h3", "p", "cell", "script"
        self._buf: list[str] = []
        self._p_class = ""
        self._cell_attrs: dict[str, Any] = {}
        self._table: str | None = None
        self._row: list[tuple[str, dict[str, Any]]] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script" and a.get("id") == "clfeval-figures":
            self._in, self._buf = "script", []
        if tag == "section" and "decisions" in (a.get("class") or "").split():
            self._sec = Section(str(a.get("id")))
            self.sections.append(self._sec)
            return
        if self._sec is None:
            return
        if tag in ("h2", "h3", "p"):
            self._in, self._buf, self._p_class = tag, [], a.get("class") or ""
        elif tag == "table":
            self._table = a.get("class") or ""
            self._sec.tables.append(self._table)
        elif tag == "tr" and self._table is not None:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._in, self._buf, self._cell_attrs = "cell", [], a
        elif tag == "div" and "chart" in (a.get("class") or "").split():
            self._sec.charts.append(str(a.get("id")))

    def handle_endtag(self, tag: str) -> None:
        text = "".join(self._buf)
        if tag == "script" and self._in == "script":
            self.figures = json.loads(text)
            self._in = None
        if self._sec is None:
            return
        if tag == "section":
            self._sec = None
        elif tag == "h2" and self._in == "h2":
            self._sec.title, self._in = text, None
        elif tag == "h3" and self._in == "h3":
            self._sec.h3.append(text)
            self._in = None
        elif tag == "p" and self._in == "p":
            self._sec.paragraphs.append((self._p_class, text))
            self._in = None
        elif tag in ("td", "th") and self._in == "cell" and self._row is not None:
            self._row.append((text, self._cell_attrs))
            self._in = None
        elif tag == "tr" and self._row is not None:
            if self._row and "points" in (self._table or "").split():
                if not self._sec.head:  # the first row is the header
                    self._sec.head = [t for t, _ in self._row]
                else:
                    self._sec.rows.append(self._row)
            self._row = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            self._buf.append(data)

    def section(self, index: int = 1) -> Section:
        found = [s for s in self.sections if s.id == f"decisions-{index}"]
        assert len(found) == 1, [s.id for s in self.sections]
        return found[0]

    def figure(self, fid: str) -> dict[str, Any]:
        (fig,) = [f for f in self.figures if f["id"] == fid]
        return fig


def read_page(path: Path) -> Page:
    return Page(Path(path).read_text(encoding="utf-8"))


def written(tmp_path: Path, evaluations: Any, name: str = "report.html") -> Page:
    return read_page(write_html(tmp_path / name, evaluations))


# -- comparing printed numbers ---------------------------------------------------------------------


def number(text: str) -> float:
    """A printed number: the em dash is NaN, "inf" / "+\u221e" infinity."""
    if text == DASH:
        return math.nan
    return float(text.replace("+\u221e", "inf").replace("\u2212\u221e", "-inf"))


def assert_fixed(text: str, value: Any, decimals: int = 4) -> None:
    """``text`` shows ``value`` to ``decimals`` decimals (NaN as the em dash)."""
    v = float(value)
    if math.isnan(v):
        assert text == DASH, (text, value)
        return
    assert re.fullmatch(rf"-?\d+\.\d{{{decimals}}}", text), text
    assert abs(number(text) - v) <= 0.5 * 10.0**-decimals + 1e-12, (text, value)


def assert_significant(text: str, value: Any, digits: int = 6) -> None:
    """``text`` shows ``value`` to ``digits`` significant digits (infinities as "inf")."""
    v = float(value)
    if math.isinf(v):
        assert number(text) == v, (text, value)
        return
    shown = number(text)
    if v == 0:
        assert shown == 0, (text, value)
        return
    tol = 0.5 * 10.0 ** (math.floor(math.log10(abs(v))) - (digits - 1))
    assert abs(shown - v) <= tol * (1 + 1e-9), (text, value)


def assert_row_is_point(row: list[tuple[str, dict[str, Any]]], p: Any, curve: str, rule: str) -> None:
    """One table row equals the ThresholdPoint ``p`` (as ev.operating_point gives it)."""
    cells = [t for t, _ in row]
    assert len(cells) == len(HEAD)
    assert cells[0] == curve == p.curve and cells[1] == rule == p.criterion
    assert_significant(cells[2], p.threshold)
    assert_fixed(cells[3], p.value)
    for text, v in zip(cells[4:8], (p.precision, p.recall, p.specificity, p.f1)):
        assert_fixed(text, v)
    for text, v in zip(cells[8:], (p.tp, p.fp, p.fn, p.tn)):
        assert_significant(text, v)


def assert_error_row(row: list[tuple[str, dict[str, Any]]], curve: str, rule: str, message: str) -> None:
    """A row where the criterion is undefined: curve, rule, then the reason over 10 columns."""
    assert len(row) == 3
    (c, _), (r, _), (why, attrs) = row
    assert (c, r) == (curve, rule)
    assert attrs.get("colspan") == "10" and attrs.get("class") == "hint"
    assert why == message


def counts_of(ev: clfeval.Evaluation) -> tuple[float, float, float, float]:
    """(tp, fp, fn, tn) of a binary evaluation's positive class."""
    pc = ev.confusion.per_class()
    i = list(ev.labels).index(ev.pos_label)
    return tuple(float(pc[k][i]) for k in ("tp", "fp", "fn", "tn"))  # type: ignore[return-value]


def error_of(ev: clfeval.Evaluation, rule: str, **options: Any) -> str:
    with pytest.raises(ValueError) as info:
        ev.operating_point(rule, **options)
    return str(info.value)


COSTS_TEXT = re.compile(r"Costs (?P<matrix>\[.*\]): expected cost (?P<cost>\S+) per sample, "
                        r"cost-sensitive error rate (?P<cser>\S+)\.")
CALIBRATION_TEXT = re.compile(
    r"Calibration \((?P<mode>[^,]+), (?P<n_bins>\d+) (?P<strategy>\w+) bins\): ECE (?P<ece>\S+) "
    r"\(L2 (?P<l2>\S+), max (?P<max>\S+)\); Brier (?P<brier>\S+) = reliability (?P<rel>\S+) \u2212 "
    r"resolution (?P<res>\S+) \+ uncertainty (?P<unc>\S+) \(\+ within-bin terms\); log loss (?P<ll>\S+)\.")


def assert_costs_paragraph(sec: Section, ev: clfeval.Evaluation, costs: Any, prevalence: Any = None) -> None:
    text = sec.paragraph("Costs ")
    assert text is not None
    m = COSTS_TEXT.fullmatch(text)
    assert m, text
    assert json.loads(m["matrix"]) == np.asarray(costs, dtype=float).tolist()
    assert_fixed(m["cost"], ev.expected_cost(costs, prevalence=prevalence))
    assert_fixed(m["cser"], ev.cost_sensitive_error_rate(costs, prevalence=prevalence))


def assert_calibration_paragraph(sec: Section, ev: clfeval.Evaluation, mode: str) -> None:
    text = sec.paragraph("Calibration ")
    assert text is not None
    m = CALIBRATION_TEXT.fullmatch(text)
    assert m, text
    cal = ev.calibration()  # what the page's 15 uniform bins are
    assert (m["mode"], int(m["n_bins"]), m["strategy"]) == (mode, cal.n_bins, cal.strategy) == (mode, 15, "uniform")
    d = cal.decomposition
    for key, v in (("ece", cal.ece), ("l2", cal.ece_l2), ("max", cal.ece_max), ("brier", cal.brier),
                   ("rel", d.reliability), ("res", d.resolution), ("unc", d.uncertainty), ("ll", cal.log_loss)):
        assert_fixed(m[key], v)
    # the "(+ within-bin terms)": the decomposition is over the report's bins, and exact with them
    assert d.n_bins == 15
    assert d.brier == pytest.approx(d.reliability - d.resolution + d.uncertainty + d.within_variance
                                    - d.within_covariance, abs=1e-12)


def quiet_evaluate(*args: Any, **kwargs: Any) -> clfeval.Evaluation:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        ev = clfeval.evaluate(*args, **kwargs)
        ev.report  # noqa: B018 - builds (and warns) here
    return ev


# -- the data ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cancer() -> clfeval.Evaluation:
    df = pd.read_csv(DATA / "demo_breast_cancer_logistic_regression.csv")
    return clfeval.evaluate(df["y_true"], y_score=df["y_score"], pos_label="malignant", name="logistic regression")


@pytest.fixture(scope="module")
def cancer_page(cancer: clfeval.Evaluation, tmp_path_factory: pytest.TempPathFactory) -> Page:
    """The page of the breast-cancer model with costs (so min-cost is in the table)."""
    path = tmp_path_factory.mktemp("cancer") / "report.html"
    return read_page(write_html(path, cancer.to_dict(costs=COSTS)))


@pytest.fixture(scope="module")
def digits() -> clfeval.Evaluation:
    df = pd.read_csv(DATA / "demo_digits_logistic_regression.csv")
    proba = df[[f"proba_{i}" for i in range(10)]].to_numpy()
    return clfeval.evaluate(df["y_true"], y_score=proba, name="digits")


# -- binary probabilities ------------------------------------------------------------------------------


def test_binary_table_rows_are_the_operating_points(cancer: clfeval.Evaluation, cancer_page: Page) -> None:
    sec = cancer_page.section(1)
    assert sec.title == "Thresholds, costs and calibration: logistic regression"
    assert sec.h3 == ["Operating points"] and sec.tables == ["numbers points"]
    assert sec.head == HEAD
    rules = RULES + ["min-cost"]
    assert [row[1][0] for row in sec.rows] == rules
    for row, rule in zip(sec.rows, rules):
        p = cancer.operating_point(rule, **({"costs": COSTS} if rule == "min-cost" else {}))
        assert_row_is_point(row, p, "malignant", rule)
        # the table's counts are the predictions ev.at(threshold) makes ("... applies one")
        assert counts_of(cancer.at(p.threshold)) == (p.tp, p.fp, p.fn, p.tn)
        assert p.tp + p.fp + p.fn + p.tn == cancer.n_samples == 569


def test_binary_table_numbers(cancer_page: Page) -> None:
    """The numbers of this data set, pinned: a change in a criterion shows up here."""
    cells = {row[1][0]: [t for t, _ in row] for row in cancer_page.section(1).rows}
    assert cells["break-even"][2:] == ["0.431782", "0.9623", "0.9623", "0.9623", "0.9776", "0.9623",
                                       "204", "8", "8", "349"]
    assert cells["youden"][2:4] == ["0.487197", "0.9539"] and cells["max-f1"][2:4] == ["0.487197", "0.9737"]
    assert cells["closest-topleft"][2:4] == ["0.487197", "0.0387"]
    # a missed malignant costs 5 false alarms: min-cost moves the threshold down, trading 14
    # more false positives for 4 fewer false negatives
    assert cells["min-cost"][2:4] == ["0.20496", "0.0668"] and cells["min-cost"][8:] == ["208", "18", "4", "339"]


def test_binary_costs_and_calibration_paragraphs(cancer: clfeval.Evaluation, cancer_page: Page) -> None:
    sec = cancer_page.section(1)
    # the costs of the evaluation's own predictions (threshold 0.5), not of an operating point
    assert cancer.threshold == 0.5
    assert_costs_paragraph(sec, cancer, COSTS)
    cm = cancer.confusion.counts
    assert cancer.expected_cost(COSTS) == pytest.approx((cm[0, 1] * 1 + cm[1, 0] * 5) / cm.sum())
    assert_calibration_paragraph(sec, cancer, "binary")
    assert sec.charts == ["reliability-1", "cost-curve-1", "decision-curve-1"]


def test_binary_charts_hold_the_evaluations_curves(cancer: clfeval.Evaluation, cancer_page: Page) -> None:
    rel = cancer.calibration().reliability
    bars, _, line, *corp = cancer_page.figure("reliability-1")["data"]  # then the CORP band and curve
    assert bars["y"] == rel.weight.tolist() and sum(bars["y"]) == 569
    full = cancer.calibration().corp  # the chart keeps every step of the curve, and some points between
    x, y = full.x.tolist(), full.recalibrated.tolist()
    steps = {x[i] for i in range(1, len(x)) if y[i] != y[i - 1]} | {x[i - 1] for i in range(1, len(x)) if y[i] != y[i - 1]}
    assert steps <= set(corp[-1]["x"]) <= set(x) and {x[0], x[-1]} <= set(corp[-1]["x"])
    assert corp[-1]["y"] == pytest.approx([y[x.index(v)] for v in corp[-1]["x"]], rel=1e-5)  # 6 digits
    assert line["x"] == pytest.approx([None if np.isnan(v) else v for v in rel.mean_predicted], abs=1e-12)
    assert line["y"] == pytest.approx([None if np.isnan(v) else v for v in rel.observed], abs=1e-12)

    cc = cancer.cost_curve()
    trivial, envelope, current = cancer_page.figure("cost-curve-1")["data"]
    assert trivial["y"] == [0, 0.5, 0]
    assert envelope["x"] == pytest.approx(cc.envelope_pc.tolist())
    assert envelope["y"] == pytest.approx(cc.envelope_nec.tolist())
    tp, fp, fn, tn = counts_of(cancer)
    assert current["y"] == pytest.approx([fp / (fp + tn), fn / (fn + tp)])  # NEC at PC 0 and 1: FPR, FNR

    dc = cancer.decision_curve()
    treat_all, treat_none, model = cancer_page.figure("decision-curve-1")["data"]
    # the page writes 6 significant digits or more (clfeval.report.html_numbers)
    assert model["x"] == pytest.approx(dc.thresholds.tolist(), rel=5e-6)
    assert model["y"] == pytest.approx(dc.net_benefit.tolist(), rel=5e-6)
    assert treat_all["y"] == pytest.approx(dc.treat_all.tolist(), rel=5e-6) and treat_none["y"] == [0, 0]


def test_prevalence_reweighs_min_cost_and_the_costs(cancer: clfeval.Evaluation, tmp_path: Path) -> None:
    page = written(tmp_path, cancer.to_dict(costs=COSTS, prevalence=0.1))
    sec = page.section(1)
    (row,) = [r for r in sec.rows if r[1][0] == "min-cost"]
    p = cancer.operating_point("min-cost", costs=COSTS, prevalence=0.1)
    assert_row_is_point(row, p, "malignant", "min-cost")
    # the prevalence is used: at 10 % malignant the cheapest threshold is higher than at the data's 37 %
    assert p.threshold > cancer.operating_point("min-cost", costs=COSTS).threshold
    assert p.value == pytest.approx(cancer.at(p.threshold).expected_cost(COSTS, prevalence=0.1))
    assert_costs_paragraph(sec, cancer, COSTS, prevalence=0.1)
    assert cancer.expected_cost(COSTS, prevalence=0.1) != pytest.approx(cancer.expected_cost(COSTS))


def test_to_html_without_costs(cancer: clfeval.Evaluation, tmp_path: Path) -> None:
    """Evaluation.to_html takes no costs: no min-cost row and no costs paragraph."""
    sec = read_page(cancer.to_html(tmp_path / "plain.html")).section(1)
    assert [row[1][0] for row in sec.rows] == RULES
    for row, rule in zip(sec.rows, RULES):
        assert_row_is_point(row, cancer.operating_point(rule), "malignant", rule)
    assert sec.paragraph("Costs ") is None
    assert_calibration_paragraph(sec, cancer, "binary")


def test_beta_adds_a_max_fbeta_row(tmp_path: Path) -> None:
    y = [1, 1, 0, 1, 0, 0, 1, 0, 0, 0]
    s = [0.95, 0.85, 0.75, 0.65, 0.55, 0.45, 0.35, 0.25, 0.15, 0.05]
    ev = clfeval.evaluate(y, y_score=s, beta=2)
    sec = read_page(ev.to_html(tmp_path / "beta.html")).section(1)
    assert [row[1][0] for row in sec.rows] == RULES + ["max-fbeta"]
    p = ev.operating_point("max-fbeta", beta=2)
    assert_row_is_point(sec.rows[-1], p, "1", "max-fbeta")
    # F2 weighs recall: every positive is caught, at a lower threshold than max-f1's
    assert p.recall == 1.0 and p.threshold == 0.35 < ev.operating_point("max-f1").threshold == 0.65


def test_weighted_counts_are_shown_as_weights(tmp_path: Path) -> None:
    y, s, w = [0, 1, 1, 0, 1], [0.2, 0.9, 0.3, 0.6, 0.5], [0.5, 1.25, 2.0, 1.0, 3.0]
    ev = clfeval.evaluate(y, y_score=s, sample_weight=w)
    sec = written(tmp_path, ev.to_dict(costs=COSTS)).section(1)
    for row in sec.rows:
        rule = row[1][0]
        options = {"costs": COSTS} if rule == "min-cost" else {}
        assert_row_is_point(row, ev.operating_point(rule, **options), "1", rule)
    cells = {row[1][0]: [t for t, _ in row] for row in sec.rows}
    assert cells["break-even"][8:] == ["4.25", "1", "2", "0.5"]  # weight sums, not sample counts
    assert_costs_paragraph(sec, ev, COSTS)


def test_decision_values_have_points_and_a_cost_curve_only(tmp_path: Path) -> None:
    """Scores outside [0, 1]: no calibration, no decision curve (both need probabilities)."""
    ev = clfeval.evaluate([0, 1, 1, 0, 1], y_score=[-2.0, 1.5, 0.3, 0.1, -0.4])
    assert ev.score_kind == "decision"
    page = read_page(ev.to_html(tmp_path / "margins.html"))
    sec = page.section(1)
    for row, rule in zip(sec.rows, RULES, strict=True):
        assert_row_is_point(row, ev.operating_point(rule), "1", rule)
    assert sec.rows[-1][2][0] == "-0.4"  # max-f1 below zero: thresholds are scores, not probabilities
    assert sec.paragraph("Calibration ") is None
    assert sec.charts == ["cost-curve-1"]
    assert page.figure("cost-curve-1")["data"][1]["y"] == pytest.approx(ev.cost_curve().envelope_nec.tolist())


# -- multilabel and multi-class -----------------------------------------------------------------------


def multilabel_data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    Y = rng.integers(0, 2, (60, 3))
    S = np.clip(0.45 * Y + 0.6 * rng.random((60, 3)), 0.0, 1.0)
    S[:, 2] = rng.random(60)  # an uninformative label
    return Y, S


def test_multilabel_points_per_label(tmp_path: Path) -> None:
    Y, S = multilabel_data()
    ev = clfeval.evaluate(Y, y_score=S, labels=["spam", "urgent", "noise"], beta=0.5)
    assert ev.task == "multilabel"
    sec = read_page(ev.to_html(tmp_path / "ml.html")).section(1)
    rules = RULES + ["max-fbeta"]
    assert [(r[0][0], r[1][0]) for r in sec.rows] == [(c, rule) for c in ev.names for rule in rules]
    for row in sec.rows:
        label, rule = row[0][0], row[1][0]
        p = ev.operating_point(rule, curve=label, **({"beta": 0.5} if rule == "max-fbeta" else {}))
        assert_row_is_point(row, p, label, rule)
        # that label's one-vs-rest predictions at the threshold
        one = ev.at(p.threshold, curve=label)
        assert counts_of(one) == (p.tp, p.fp, p.fn, p.tn)
        assert p.tp + p.fn == Y[:, ev.names.index(label)].sum()
    # no calibration (not supported for multilabel) and no binary-only charts
    assert sec.paragraph("Calibration ") is None and sec.charts == []


def test_multilabel_label_without_positives_shows_why(tmp_path: Path) -> None:
    Y = np.array([[1, 0], [0, 0], [1, 0], [0, 0]])
    S = np.array([[0.9, 0.2], [0.1, 0.8], [0.7, 0.6], [0.4, 0.3]])
    ev = quiet_evaluate(Y, y_score=S, labels=["a", "b"])
    sec = read_page(ev.to_html(tmp_path / "ml.html")).section(1)
    assert [(r[0][0], r[1][0]) for r in sec.rows] == [(c, rule) for c in ("a", "b") for rule in RULES]
    for row in sec.rows[:4]:
        assert_row_is_point(row, ev.operating_point(row[1][0], curve="a"), "a", row[1][0])
    for row in sec.rows[4:]:
        rule = row[1][0]
        message = error_of(ev, rule, curve="b")
        assert "has no positive samples" in message
        assert_error_row(row, "b", rule, message)


def test_multiclass_shows_calibration_and_costs_but_no_points(digits: clfeval.Evaluation, tmp_path: Path) -> None:
    assert digits.task == "multiclass" and digits.score_kind == "probability"
    costs = np.abs(np.subtract.outer(np.arange(10), np.arange(10))).astype(float)  # |true - predicted|
    page = written(tmp_path, digits.to_dict(costs=costs))
    sec = page.section(1)
    # arg-max predictions have no threshold: no points table, though each class has points
    assert digits.thresholds_dict()["operating_points"] is None
    assert sec.tables == [] and sec.rows == [] and "Operating points" not in sec.h3
    assert digits.operating_point("max-f1", curve="3").curve == "3"
    assert_costs_paragraph(sec, digits, costs)
    assert_calibration_paragraph(sec, digits, "top-label")
    assert sec.charts == ["reliability-1"]  # cost and decision curves are binary
    bars = page.figure("reliability-1")["data"][0]
    assert bars["y"] == digits.calibration().reliability.weight.tolist() and sum(bars["y"]) == 1797


def test_multiclass_calibration_error_is_left_out(tmp_path: Path) -> None:
    """Rows in [0, 1] that do not sum to 1: calibration is {"error": ...}; the page still builds
    and says why calibration is missing (as the terminal does), with no reliability chart."""
    S = np.array([[0.6, 0.3, 0.3], [0.2, 0.7, 0.2], [0.1, 0.1, 0.9], [0.5, 0.5, 0.5]])
    ev = clfeval.evaluate([0, 1, 2, 1], y_score=S)
    error = ev.thresholds_dict()["calibration"]["error"]
    assert "rows must sum to 1" in error
    page = read_page(ev.to_html(tmp_path / "rows.html"))
    assert [s.id for s in page.sections] == ["decisions-1"]
    assert "Calibration not computed: " + error in page.text
    assert not [f for f in page.figures if f["id"] == "reliability-1"]


# -- hostile and edge cases ------------------------------------------------------------------------------


def test_only_positives(tmp_path: Path) -> None:
    """One class in y_true: the criteria that need negatives (and min-cost with a prevalence that
    needs both classes' rates) show why they are undefined; the others still have a row."""
    ev = quiet_evaluate([1, 1, 1, 1], y_score=[0.1, 0.4, 0.6, 0.9], labels=[0, 1])
    sec = written(tmp_path, ev.to_dict(costs=COSTS, prevalence=0.3)).section(1)
    rows = {row[1][0]: row for row in sec.rows}
    assert list(rows) == RULES + ["min-cost"]
    for rule in ("break-even", "max-f1"):
        p = ev.operating_point(rule)
        assert_row_is_point(rows[rule], p, "1", rule)
        assert rows[rule][6][0] == DASH  # specificity 0/0
    for rule in ("youden", "closest-topleft"):
        message = error_of(ev, rule)
        assert "has no negative samples" in message
        assert_error_row(rows[rule], "1", rule, message)
    message = error_of(ev, "min-cost", costs=COSTS, prevalence=0.3)
    assert "with prevalence=" in message
    assert_error_row(rows["min-cost"], "1", "min-cost", message)
    # the costs paragraph shows the undefined (NaN) cost as a dash
    assert math.isnan(ev.expected_cost(COSTS, prevalence=0.3))
    assert_costs_paragraph(sec, ev, COSTS, prevalence=0.3)
    assert "cost-curve-1" not in sec.charts  # a cost curve needs both classes


def test_only_negatives(tmp_path: Path) -> None:
    """No positives: every criterion but min-cost is undefined; min-cost predicts nothing
    positive, at threshold +inf, where precision, recall and F1 are 0/0."""
    ev = quiet_evaluate([0, 0, 0, 0], y_score=[0.1, 0.4, 0.6, 0.9], labels=[0, 1])
    sec = written(tmp_path, ev.to_dict(costs=COSTS)).section(1)
    for row, rule in zip(sec.rows[:4], RULES, strict=True):
        message = error_of(ev, rule)
        assert "has no positive samples" in message
        assert_error_row(row, "1", rule, message)
    p = ev.operating_point("min-cost", costs=COSTS)
    assert p.threshold == math.inf and p.value == 0.0
    assert_row_is_point(sec.rows[4], p, "1", "min-cost")
    assert [t for t, _ in sec.rows[4]][2:] == ["+\u221e", "0.0000", DASH, DASH, "1.0000", DASH, "0", "0", "0", "4"]


def test_reversed_scores_put_youden_at_infinity(tmp_path: Path) -> None:
    """J <= 0 everywhere: the tie rule takes the highest threshold, +inf (nothing positive)."""
    ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.9, 0.8, 0.2, 0.1])
    sec = read_page(ev.to_html(tmp_path / "rev.html")).section(1)
    rows = {row[1][0]: row for row in sec.rows}
    for rule in ("youden", "closest-topleft"):
        p = ev.operating_point(rule)
        assert p.threshold == math.inf
        assert_row_is_point(rows[rule], p, "1", rule)
        assert rows[rule][2][0] == "+\u221e" and rows[rule][4][0] == DASH
    assert_row_is_point(rows["max-f1"], ev.operating_point("max-f1"), "1", "max-f1")


def test_hostile_names_are_escaped(tmp_path: Path) -> None:
    neg, pos, model = "<b>n</b> & co", "</script><script>alert(1)</script>", "<img src=x onerror=alert(1)>"
    ev = clfeval.evaluate([neg, pos, pos, neg, pos], y_score=[0.2, 0.7, 0.4, 0.5, 0.9], pos_label=pos, name=model)
    page = read_page(ev.to_html(tmp_path / "nasty.html"))
    sec = page.section(1)
    assert sec.title == f"Thresholds, costs and calibration: {model}"
    for row, rule in zip(sec.rows, RULES, strict=True):
        assert_row_is_point(row, ev.operating_point(rule), pos, rule)
    raw = page.text[page.text.index('<section class="decisions"'):]
    raw = raw[:raw.index("</section>")]
    assert "<script>" not in raw and "<img" not in raw
    # each rule's row names the positive class, and so does the CORP line (its view)
    assert raw.count("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;") == len(RULES) + 1


def test_several_models_each_get_their_own_section(cancer: clfeval.Evaluation, tmp_path: Path) -> None:
    df = pd.read_csv(DATA / "demo_breast_cancer_naive_bayes_remapped.csv")
    other = clfeval.evaluate(df["y_true"], y_score=df["y_score"], pos_label="malignant", name="naive Bayes")
    no_scores = clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0], name="labels only")
    page = written(tmp_path, [cancer, no_scores, other])
    # the model without scores has nothing for the section: ids keep each model's position
    assert [s.id for s in page.sections] == ["decisions-1", "decisions-3"]
    for index, ev in ((1, cancer), (3, other)):
        sec = page.section(index)
        assert sec.title.endswith(ev.name)
        for row, rule in zip(sec.rows, RULES, strict=True):
            assert_row_is_point(row, ev.operating_point(rule), "malignant", rule)
        assert sec.charts == [f"reliability-{index}", f"cost-curve-{index}", f"decision-curve-{index}"]


def test_predictions_only_with_costs_show_the_costs(tmp_path: Path) -> None:
    ev = clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0])
    assert read_page(ev.to_html(tmp_path / "plain.html")).sections == []
    sec = written(tmp_path, ev.to_dict(costs=[[0, 1], [3, 0]])).section(1)
    assert sec.tables == [] and sec.charts == []
    assert_costs_paragraph(sec, ev, [[0, 1], [3, 0]])
    assert ev.expected_cost([[0, 1], [3, 0]]) == 0.75  # one missed positive (3) in 4


def test_page_from_loaded_json(cancer: clfeval.Evaluation, tmp_path: Path) -> None:
    """A to_json file loaded back (strict JSON) gives the same table as the Evaluation."""
    data = json.loads(cancer.to_json())
    sec = written(tmp_path, data).section(1)
    for row, rule in zip(sec.rows, RULES, strict=True):
        assert_row_is_point(row, cancer.operating_point(rule), "malignant", rule)
    assert_calibration_paragraph(sec, cancer, "binary")


def test_page_from_loaded_json_with_an_infinite_threshold(tmp_path: Path) -> None:
    """to_json writes +inf as "inf"; the table shows it as +∞, as in memory."""
    ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.9, 0.8, 0.2, 0.1])
    data = json.loads(ev.to_json())
    assert data["operating_points"]["1"]["youden"]["threshold"] == "inf"
    for source in (data, ev.to_dict()):
        rows = {row[1][0]: row for row in written(tmp_path, source).section(1).rows}
        assert_row_is_point(rows["youden"], ev.operating_point("youden"), "1", "youden")
        assert rows["youden"][2][0] == "+∞"


def test_to_html_and_to_json_take_costs(cancer: clfeval.Evaluation, tmp_path: Path) -> None:
    costs = [[0, 1], [10, 0]]
    via_dict = written(tmp_path, cancer.to_dict(costs=costs, prevalence=0.2))
    direct = read_page(cancer.to_html(tmp_path / "direct.html", costs=costs, prevalence=0.2))
    assert [r for r in direct.section(1).rows] == [r for r in via_dict.section(1).rows]
    rows = {row[1][0]: row for row in direct.section(1).rows}
    assert_row_is_point(rows["min-cost"], cancer.operating_point("min-cost", costs=costs, prevalence=0.2),
                        "malignant", "min-cost")
    data = json.loads(cancer.to_json(costs=costs, prevalence=0.2))
    assert data["costs"]["expected_cost"] == pytest.approx(cancer.expected_cost(costs, prevalence=0.2), rel=1e-15)
    assert data["operating_points"]["malignant"]["min-cost"]["threshold"] == \
        cancer.operating_point("min-cost", costs=costs, prevalence=0.2).threshold
