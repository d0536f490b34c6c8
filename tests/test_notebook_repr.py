"""What a notebook shows of each result object (issue 21): ``_repr_html_`` is small, self-contained
HTML (no script, no link, no stylesheet; tags from a short list), shows the numbers the terminal
shows in the same digits, and escapes every label.

Each view is read back with :mod:`html.parser` into tables of cell texts, and the cells are compared
with the terminal's own strings: the text report (``str(ev.report)``), the text reprs and tables,
and the functions the terminal formats numbers with (:mod:`clfeval.support.number_text`).
"""

from __future__ import annotations

import warnings
from html.parser import HTMLParser

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import clfeval
from clfeval.results.confusion import MAX_MATRIX_CLASSES, ConfusionMatrix
from clfeval.results.group_results import GroupTable
from clfeval.stats import ConfidenceInterval, TestResult, mcnemar
from clfeval.support.html_table import BLOCK_STYLE, RawHtml, html_table
from clfeval.support.number_text import format_value, interval_decimals, interval_text, pvalue_text, share_text

#: every tag and attribute a view may use: nothing that loads, runs or styles from elsewhere
TAGS = {"div", "b", "small", "pre", "table", "thead", "tbody", "tr", "th", "td"}
ATTRIBUTES = {"class", "style", "colspan"}

#: labels that break HTML unless they are escaped
ODD = ["<b>", "a & b", "x'y\"z"]


class Page(HTMLParser):
    """An HTML fragment read back: its tables (rows of cell texts, entities decoded), the bold
    titles, every tag and attribute, and whether each element was closed."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[list[str]]] = []
        self.bold: list[str] = []
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.text: list[str] = []
        self._open: list[str] = []
        self._cell: list[str] | None = None
        self._bold: list[str] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes += attrs
        self._open.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("th", "td"):
            self._cell = []
        elif tag == "b" and self._cell is None:
            self._bold = []

    def handle_endtag(self, tag):
        assert self._open and self._open[-1] == tag, f"</{tag}> closes <{self._open[-1:]}>"
        self._open.pop()
        if tag in ("th", "td"):
            self.tables[-1][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "b" and self._bold is not None:
            self.bold.append("".join(self._bold))
            self._bold = None

    def handle_data(self, data):
        self.text.append(data)
        for part in (self._cell, self._bold):
            if part is not None:
                part.append(data)

    def table(self, first_header: str) -> list[list[str]]:
        """The table whose header row starts with ``first_header`` (header row first)."""
        found = [t for t in self.tables if t and t[0] and t[0][0] == first_header]
        assert found, f"no table headed {first_header!r} among {[t[0][:1] for t in self.tables]}"
        return found[0]


def page_of(obj) -> Page:
    """The object's HTML, checked to be self-contained and well formed, read back."""
    text = obj._repr_html_()
    assert isinstance(text, str) and text.startswith("<")
    # the one <style> a block carries: spacing scoped to its own class, loading nothing
    assert BLOCK_STYLE.startswith("<style>.clfeval ") and "url(" not in BLOCK_STYLE and "@" not in BLOCK_STYLE
    text = text.replace(BLOCK_STYLE, "")
    low = text.lower()
    for banned in ("<script", "<link", "<style", "<iframe", "<img", "http://", "https://", "javascript:",
                   "src=", "href=", "url("):
        assert banned not in low, f"{type(obj).__name__}'s HTML has {banned!r}"
    page = Page(text)
    assert not page._open, f"unclosed elements: {page._open}"
    assert set(page.tags) <= TAGS, set(page.tags) - TAGS
    assert {name for name, _ in page.attributes} <= ATTRIBUTES
    assert len(text) < 200_000
    return page


def rows_by_label(table: list[list[str]]) -> dict[str, list[str]]:
    return {row[0]: row[1:] for row in table[1:] if len(row) > 1}


def same_words(a: str, b: str) -> bool:
    return a.split() == b.split()


def text_line(text: str, label: str, cells: list[str]) -> bool:
    """Whether a line of a fixed-width text table is the label followed by exactly these cells."""
    for line in text.splitlines():
        words = line.split()
        head, tail = words[:len(words) - len(cells)], words[len(words) - len(cells):]
        if len(words) > len(cells) and tail == cells and same_words(" ".join(head), label):
            return True
    return False


# -- fixtures ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def multiclass():
    rng = np.random.default_rng(21)
    y = rng.integers(0, 3, 240)
    scores = rng.dirichlet([1, 1, 1], 240) + np.eye(3)[y] * rng.random((240, 1))
    scores /= scores.sum(axis=1, keepdims=True)
    names = np.array(ODD)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return clfeval.evaluate(names[y], y_score=scores, labels=ODD, name="<my model> & co")


@pytest.fixture(scope="module")
def binary():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 400)
    score = np.clip(0.35 * y + 0.65 * rng.random(400), 0, 1)
    groups = rng.choice(["<g1>", "a & b", "plain"], 400)
    return clfeval.evaluate(np.where(y == 1, "yes <1>", "no & 0"), y_score=score, pos_label="yes <1>",
                            groups=groups, name="bin")


# -- the report ------------------------------------------------------------------------------------


def test_report_cells_are_the_text_reports(multiclass):
    rep = multiclass.report
    page = page_of(rep)
    table = page.table("class")
    from clfeval.formulas.measure_registry import title

    assert table[0] == ["class", *(title(c) for c in rep.columns)]
    body = rows_by_label(table)
    text = str(rep)
    for row in [*rep.rows, *rep.averages.values()]:
        cells = body[str(row["label"])]  # escaped labels come back as they are
        assert cells == [format_value(row.get(c), 4, c) for c in rep.columns]
        assert text_line(text, str(row["label"]), cells), f"{row['label']!r} row differs from the text report"
    overall = rows_by_label(page.table("measure"))
    for key, value in rep.overall.items():
        assert overall[title(key)] == [format_value(value, 4)]
        assert text_line(text, title(key), [format_value(value, 4)])
    assert set(ODD) <= set(body)
    assert repr(rep) == str(rep)  # a readable repr: the table, not every row's dict


def test_report_lists_the_classes_the_terminal_lists():
    k = 60
    y = np.repeat(np.arange(k), np.arange(1, k + 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = clfeval.evaluate(y, y).report
    page = page_of(rep)
    body = rows_by_label(page.table("class"))
    assert len([lab for lab in body if not lab.endswith(" avg")]) == 50
    assert "0" not in body and str(k - 1) in body
    assert any("10 more classes not shown" in t for t in page.text)


# -- the confusion matrix ----------------------------------------------------------------------------


def test_confusion_matrix_counts_and_shares_as_the_terminal(multiclass):
    cm = multiclass.confusion
    page = page_of(cm)
    table = page.table("true \\ pred")
    assert table[0][1:] == ODD
    share = cm.normalized("true")
    for i, row in enumerate(table[1:]):
        assert row[0] == ODD[i]
        for j, cell in enumerate(row[1:]):
            assert cell.split() == [format_value(int(cm.counts[i, j]), column="support"), share_text(share[i, j])]
    from clfeval.report.terminal import render_text

    terminal = render_text(multiclass, width=200)
    for i, row in enumerate(table[1:]):
        assert text_line(terminal, ODD[i], " ".join(row[1:]).split())


def test_confusion_matrix_of_weights_multilabel_and_many_classes():
    weighted = ConfusionMatrix.from_matrix(["a", "b"], np.array([[2.5, 0.5], [1.0, 3.0]]))
    assert page_of(weighted).table("true \\ pred")[1][1:] == ["2.5 83%", "0.5 17%"]
    multi = ConfusionMatrix.from_label_tables(["<x>", "y"], [[[5, 1], [2, 3]], [[4, 0], [1, 6]]])
    rows = rows_by_label(page_of(multi).table("label"))
    assert rows == {"<x>": ["3", "2", "1", "5"], "y": ["6", "1", "0", "4"]}
    k = MAX_MATRIX_CLASSES + 1
    big = page_of(ConfusionMatrix.from_matrix(list(range(k)), np.eye(k, dtype=int)))
    assert big.tables == [] and any(f"{k} classes" in t for t in big.text)


@given(st.lists(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=8),
                min_size=2, max_size=4, unique=True))
def test_any_label_comes_back_as_written(names):
    k = len(names)
    cm = ConfusionMatrix.from_matrix(list(range(k)), np.arange(k * k).reshape(k, k), names=names)
    table = page_of(cm).table("true \\ pred")
    assert table[0][1:] == names
    assert [row[0] for row in table[1:]] == names


@given(st.text(st.characters(blacklist_categories=("Cs", "Cc"))))
def test_a_cell_is_escaped_unless_it_is_raw_html(text):
    page = Page(html_table(["h"], [["label", text]]))
    assert page.tables[0][1] == ["label", text]
    assert Page(html_table(["h"], [["l", RawHtml("<b>bold</b>")]])).tables[0][1] == ["l", "bold"]


# -- the evaluation ---------------------------------------------------------------------------------


def test_evaluation_shows_title_matrix_report_and_areas(binary):
    from sklearn.metrics import accuracy_score, average_precision_score, roc_auc_score

    ev = binary
    page = page_of(ev)
    assert page.bold[0] == "bin"
    title = "".join(page.text[:3])
    assert "binary" in title and "400 samples" in title and "2 classes" in title and "positive class yes <1>" in title
    assert page.table("true \\ pred")[0][1:] == ["no & 0", "yes <1>"]
    overall = rows_by_label(page.table("measure"))
    assert overall["accuracy"] == [format_value(ev.report.overall["accuracy"])]
    areas = rows_by_label(page.table("curve"))
    assert areas == {"yes <1>": [format_value(ev.roc.main.area), format_value(ev.pr.main.area)]}
    # the numbers against scikit-learn, computed here from the same data
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 400)
    score = np.clip(0.35 * y + 0.65 * rng.random(400), 0, 1)
    assert overall["accuracy"] == [f"{accuracy_score(y, score >= 0.5):.4f}"]
    assert areas["yes <1>"] == [f"{roc_auc_score(y, score):.4f}", f"{average_precision_score(y, score):.4f}"]
    # and against the terminal
    from clfeval.report.terminal import render_text

    terminal = render_text(ev, width=200)
    for key, cells in overall.items():
        assert text_line(terminal, key, cells)
    assert len(ev._repr_html_()) < 50_000  # the short view, not the page of to_html()


def test_evaluation_without_scores_and_multiclass(multiclass):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = clfeval.evaluate(["a", "b", "a", "b"], ["a", "a", "a", "b"])
    page = page_of(plain)
    assert not any(t and t[0] and t[0][0] == "curve" for t in page.tables)
    page = page_of(multiclass)
    assert page.bold[0] == "<my model> & co"
    areas = rows_by_label(page.table("curve"))
    assert list(areas) == [*ODD, "micro", "macro"]
    for name, cells in areas.items():
        assert cells == [format_value(multiclass.roc[name].area), format_value(multiclass.pr[name].area)]


# -- curves ---------------------------------------------------------------------------------------------


def test_curve_sets_show_each_area_and_operating_point(multiclass, binary):
    for ev in (multiclass, binary):
        for curves in (ev.roc, ev.pr):
            rows = rows_by_label(page_of(curves).table("curve"))
            assert list(rows) == list(curves)
            for name, cells in rows.items():
                c = curves[name]
                assert cells[0] == format_value(c.area) and cells[1] == f"{len(c):,}"
                p = c.operating_point
                assert cells[2] == ("" if p is None else f"{p.x:.4f}, {p.y:.4f}")
                assert f"{name!r}: {cells[0]}" in repr(curves)  # the text repr shows the same areas


# -- tests and intervals ---------------------------------------------------------------------------


def test_test_result_as_the_terminal_writes_tests():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    a = np.where(rng.random(200) < 0.85, y, 1 - y)
    b = np.where(rng.random(200) < 0.75, y, 1 - y)
    r = mcnemar(y, a, b)
    page = page_of(r)
    rows = rows_by_label(page.table(""))
    ci = r.confidence_interval(0.95)
    assert rows["statistic"] == [format_value(float(r.statistic), 4)]
    assert rows["p-value"] == [pvalue_text(r.pvalue)]
    assert rows[r.estimate_name] == [f"{r.estimate:.4f}"]
    assert rows["95% interval"] == [interval_text(ci.low, ci.high, 4)]
    assert page.bold == [r.method]  # McNemar's: the quote escaped and back
    tiny = TestResult(statistic=40.0, pvalue=1e-9, method="<t>", df=1.0)
    rows = rows_by_label(page_of(tiny).table(""))
    assert rows == {"statistic": ["40.0000"], "p-value": ["< 0.0001"], "df": ["1"]}


def test_confidence_interval_scalar_and_stacked():
    ci = ConfidenceInterval(0.964012, 0.964038, 0.95, "delta & co", 0.964025, 0.0000066)
    page = page_of(ci)
    d = interval_decimals(ci.low, ci.high, 4)
    assert d == 5
    assert rows_by_label(page.table("")) == {"value": ["0.96403", "[0.96401, 0.96404]", "0.00001"]}
    assert "(delta & co)" in "".join(page.text)
    stacked = ConfidenceInterval([0.1, 0.2], [0.5, 0.6], 0.9, "m", [0.3, 0.4])
    assert rows_by_label(page_of(stacked).table("")) == {"0": ["0.3000", "[0.1000, 0.5000]", ""],
                                                         "1": ["0.4000", "[0.2000, 0.6000]", ""]}


def test_interval_table_has_the_reprs_rows(multiclass):
    d = multiclass.intervals(0.95)
    page = page_of(d)
    table = page.table("")
    text = repr(d)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    measures = [row for row in table[1:] if len(row) == 5]
    assert len(measures) > 10
    for row in measures:
        assert " ".join(" ".join(row).split()) in lines
    sections = [row[0] for row in table[1:] if len(row) == 1]
    assert sections[0] == "overall" and "class '<b>'" in sections
    kappa = d["overall"]["kappa"]
    assert f"{kappa.low:.4f} to {kappa.high:.4f}" in "".join(page.text)


# -- cross-evaluation ---------------------------------------------------------------------------------


def test_cross_evaluation_shows_its_summary():
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB

    from clfeval.cross_evaluation import cross_evaluate

    X, y = load_iris(return_X_y=True)
    cv = cross_evaluate(GaussianNB(), X, y, 3, progress=False, name="<nb> & co")
    page = page_of(cv)
    assert page.bold[0] == "<nb> & co"
    summary = cv.summary(0.95)
    rows = rows_by_label(page.table("metric"))
    assert list(rows) == [r["metric"] for r in summary.rows]
    text = repr(summary)
    for r in summary.rows:
        cells = [f"{r[k]:.4f}" for k in ("mean", "std", "low", "high", "pooled")] + [str(r["n_folds"])]
        assert rows[r["metric"]] == cells
        assert text_line(text, r["metric"], cells)
    assert f"accuracy={rows['accuracy'][0]}±{rows['accuracy'][1]}" in repr(cv)


# -- groups ------------------------------------------------------------------------------------------


def test_group_tables_have_the_texts_rows(binary):
    by_group = binary.by_group
    tables = [by_group.table(["accuracy", "recall"], ci=0.95), by_group.gaps("recall"),
              by_group.fairness(n_resamples=200)]
    for t in tables:
        page = page_of(t)
        html_rows = page.tables[0]
        text = str(t)
        lines = [" ".join(line.split()) for line in text.splitlines()]
        for row in html_rows:
            assert " ".join(" ".join(row).split()) in lines, (type(t).__name__, row)
    labels = [row[0] for row in page_of(tables[0]).tables[0][1:]]
    assert sorted(labels) == sorted(["<g1>", "a & b", "plain"])
    page = page_of(by_group)
    assert page.bold[0] == "3 groups by group"
    assert sorted(row[0] for row in page.tables[0][1:]) == sorted(["<g1>", "a & b", "plain"])


def test_group_table_html_lists_fifty_groups_and_counts_the_rest():
    g = 60
    t = GroupTable(metrics=["recall"], groups=[f"<{i}>" for i in range(g)], keys=list(range(g)), n=np.full(g, 5),
                   values=np.linspace(0, 1, g)[:, None], small=np.ones(g, bool))
    page = page_of(t)
    assert len(page.tables[0]) == 51
    assert page.tables[0][1] == ["<0>", "5", "0.0000", "yes"]
    assert any("10 more group(s) not shown" in x for x in page.text)


def test_an_evaluation_of_many_classes_has_a_short_repr():
    """The repr listed every class: 39,000 characters for 5,000 classes."""
    y = np.arange(400) % 200
    ev = clfeval.evaluate(y, y)
    text = repr(ev)
    assert len(text) < 300 and "... (200 in all)" in text and text.startswith("Evaluation(task='multiclass'")
    assert repr(clfeval.evaluate([0, 1, 1], [0, 1, 0])) == (
        "Evaluation(task='binary', n_samples=3, classes=['0', '1'], accuracy=0.6667)")
