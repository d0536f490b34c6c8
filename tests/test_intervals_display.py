"""What a user sees of the intervals (issue 17, section 7): Evaluation.intervals() keeps its
mapping interface and gains a report-like repr and to_frame(); to_json(path) returns the path."""

from __future__ import annotations

import copy
import json
import pickle
import re
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.results.intervals import INTERVAL_COLUMNS, MAX_REPR_CLASSES, Intervals
from clfeval.stats import ConfidenceInterval
from clfeval.uncertainty import confusion_intervals

Y = ["cat", "dog", "cat", "bird", "dog", "cat", "bird", "dog", "cat", "dog", "bird", "cat"]
P = ["cat", "dog", "dog", "bird", "dog", "cat", "cat", "dog", "cat", "bird", "bird", "cat"]


@pytest.fixture(scope="module")
def ev():
    return clfeval.evaluate(Y, P)


def test_mapping_interface_is_unchanged(ev):
    d = ev.intervals(0.95)
    assert isinstance(d, dict) and isinstance(d, Intervals)
    assert set(d) == {"level", "method", "labels", "per_class", "averages", "overall", "notes"}
    kappa = d["overall"]["kappa"]
    assert isinstance(kappa, ConfidenceInterval)
    assert kappa.estimate == pytest.approx(ev.report.overall["kappa"], rel=1e-12)
    assert d["labels"] == list(ev.names)
    assert sorted(d["averages"]) == ["macro", "micro", "weighted"]
    assert ev.intervals(0.95) is d  # cached, as before
    assert ev.ci("kappa") is kappa
    low, high = kappa  # unpacks as before
    assert low < kappa.estimate < high
    # the same numbers as the table-level function
    same = confusion_intervals(ev.confusion.counts, labels=ev.names)
    assert isinstance(same, Intervals)
    assert same["overall"]["kappa"].low == kappa.low and same["overall"]["kappa"].high == kappa.high
    np.testing.assert_array_equal(same["per_class"]["recall"].high, d["per_class"]["recall"].high)
    assert isinstance(copy.deepcopy(d), Intervals) and pickle.loads(pickle.dumps(d))["level"] == 0.95


def _row(text, measure_title, group):
    """The cells of a measure's row under a group title in the repr."""
    lines = text.splitlines()
    start = lines.index(group)
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        if line.strip().startswith(measure_title + "  "):
            return line[len("  " + measure_title):].split()
    raise AssertionError(f"no {measure_title!r} row under {group!r}:\n{text}")


def test_repr_reads_like_the_report(ev):
    d = ev.intervals(0.9)
    text = repr(d)
    lines = text.splitlines()
    assert lines[0] == "90% confidence intervals (method='analytic')"
    assert lines[1].split() == ["estimate", "interval", "std.", "error", "method"]
    groups = [ln for ln in lines if ln and not ln.startswith(" ") and not ln.startswith(("methods", "note"))]
    assert groups[1:] == ["overall", "micro average", "macro average", "weighted average",
                          "class 'bird'", "class 'cat'", "class 'dog'"]
    legend = dict(re.findall(r"^  \[(\d+)\] (.+)$", text, flags=re.M))
    # kappa: estimate, low to high, its standard error, the delta method
    k = d["overall"]["kappa"]
    est, low, to, high, se, key = _row(text, "Cohen's kappa", "overall")
    assert (est, low, to, high) == (f"{k.estimate:.4f}", f"{k.low:.4f}", "to", f"{k.high:.4f}")
    assert se == f"{k.standard_error:.4f}"
    assert legend[key.strip("[]")] == "delta method (multinomial), Fisher z scale, cells + 1/3"
    # accuracy: a Wilson interval, no standard error
    a = d["overall"]["accuracy"]
    cells = _row(text, "accuracy", "overall")
    assert cells[:4] == [f"{a.estimate:.4f}", f"{a.low:.4f}", "to", f"{a.high:.4f}"]
    assert legend[cells[4].strip("[]")] == "Wilson score"
    # a class row: the class's own entry of the per-class arrays
    i = ev.names.index("dog")
    r = d["per_class"]["recall"]
    assert _row(text, "recall", "class 'dog'")[:4] == [f"{r.estimate[i]:.4f}", f"{r.low[i]:.4f}", "to",
                                                      f"{r.high[i]:.4f}"]
    for note in d["notes"]:
        assert f"note: {note}" in text
    html = d._repr_html_()
    assert "<table>" in html and f"{k.low:.4f} to {k.high:.4f}" in html and "Cohen&#x27;s kappa" in html


def test_repr_widens_an_interval_that_would_print_as_one_number():
    ci = ConfidenceInterval(0.964012, 0.964038, 0.95, "delta method (multinomial)", 0.964025, 0.0000066)
    d = Intervals({"level": 0.95, "method": "analytic", "labels": [], "per_class": {}, "averages": {},
                   "overall": {"accuracy": ci}, "notes": []})
    est, low, to, high, se, _ = _row(repr(d), "accuracy", "overall")
    assert (low, high) == ("0.96401", "0.96404") and est == "0.96403" and se == "0.00001"  # never 0.9640 to 0.9640


def test_repr_of_many_classes_lists_the_first_and_counts_the_rest():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 14, 600)
    ev = clfeval.evaluate(y, np.where(rng.random(600) < 0.7, y, rng.integers(0, 14, 600)))
    text = repr(ev.intervals())
    assert text.count("\nclass ") == MAX_REPR_CLASSES
    assert f"... {14 - MAX_REPR_CLASSES} more classes not shown; to_frame() has every one." in text


def test_to_frame_has_every_number(ev):
    pytest.importorskip("pandas")
    d = ev.intervals()
    f = d.to_frame()
    assert tuple(f.columns) == INTERVAL_COLUMNS
    k = len(ev.names)
    n_avg = sum(len(row) for row in d["averages"].values())
    assert len(f) == len(d["overall"]) + n_avg + k * len(d["per_class"])
    row = f[(f.section == "overall") & (f.measure == "kappa")].iloc[0]
    kappa = d["overall"]["kappa"]
    assert (row.estimate, row.low, row.high, row.standard_error, row.level, row.method) == (
        kappa.estimate, kappa.low, kappa.high, kappa.standard_error, 0.95, kappa.method)
    i = ev.names.index("bird")
    row = f[(f.section == "per_class") & (f.label == "bird") & (f.measure == "precision")].iloc[0]
    p = d["per_class"]["precision"]
    assert (row.estimate, row.low, row.high) == (p.estimate[i], p.low[i], p.high[i])
    assert row.standard_error is None or np.isnan(row.standard_error)  # Wilson: no standard error
    f1 = f[(f.section == "per_class") & (f.measure == "f1")]
    assert f1.standard_error.isna().all()  # a score interval per class: no standard error
    row = f[(f.section == "macro") & (f.measure == "f1")].iloc[0]
    assert row.standard_error == d["averages"]["macro"]["f1"].standard_error  # the delta method's
    row = f[(f.section == "macro") & (f.measure == "recall")].iloc[0]
    assert row.low == d["averages"]["macro"]["recall"].low


def test_to_json_with_a_path_returns_the_path(ev, tmp_path):
    target = tmp_path / "ev.json"
    out = ev.to_json(target)
    assert isinstance(out, Path) and out == target
    text = ev.to_json()
    assert isinstance(text, str) and target.read_text() == text + "\n"
    out = ev.to_json(str(tmp_path / "again.json"), ci_level=0.9)
    assert out == tmp_path / "again.json"
    data = json.loads(out.read_text())
    kappa = ev.intervals(0.9)["overall"]["kappa"]
    assert data["intervals"]["overall"]["kappa"]["standard_error"] == kappa.standard_error
    assert data["intervals"]["overall"]["accuracy"]["standard_error"] is None
    assert data["intervals"]["per_class"]["f1"]["standard_error"] is None
    macro_f1 = ev.intervals(0.9)["averages"]["macro"]["f1"]
    assert data["intervals"]["averages"]["macro"]["f1"]["standard_error"] == macro_f1.standard_error
