"""clfeval report --prevalence P: a binary task's measures at the positive class's prevalence P.

A single number 0 < P < 1 stands alone (terminal section, JSON entry "at_prevalence", HTML section);
class shares with --cost keep weighing the costs (tests/test_cli_thresholds.py). Bad values are one
line, exit 2, quoting the option as typed.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import clfeval
from test_cli import binary_frame, run


@pytest.fixture
def binary_csv(tmp_path: Path) -> Path:
    path = tmp_path / "preds.csv"
    binary_frame().to_csv(path, index=False)
    return path


def test_prevalence_alone_reports_the_section(binary_csv: Path, tmp_path: Path) -> None:
    out, page = tmp_path / "out.json", tmp_path / "out.html"
    r = run("report", binary_csv, "--prevalence", "0.05", "--ci", "--json", out, "--html", page)
    assert r.returncode == 0, r.stderr
    df = binary_frame()
    want = clfeval.evaluate(df.label, y_score=df.score).at_prevalence(0.05, level=0.95)
    p_hat = df.label.mean()
    assert f"at prevalence 0.05 (sample: {p_hat:.4g})" in r.stdout
    assert "not for the sample" in r.stdout
    assert f"{want['precision']:.4f}" in r.stdout and f"{want.intervals['precision'].low:.4f}" in r.stdout
    entry = json.loads(out.read_text())["at_prevalence"]
    assert entry["prevalence"] == 0.05 and entry["sample_prevalence"] == pytest.approx(p_hat)
    assert "not the sample" in entry["note"]
    for key, value in want.values.items():
        assert entry["measures"][key] == pytest.approx(value, abs=1e-12), key
        assert entry["intervals"][key]["low"] == pytest.approx(want.intervals[key].low, abs=1e-12), key
    assert entry["average_precision"] == pytest.approx(want.average_precision, abs=1e-12)
    html = page.read_text()
    assert "Measures at prevalence 0.05" in html and "not the sample" in html.replace("&#x27;", "'")


def test_prevalence_without_ci_has_no_intervals(binary_csv: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    r = run("report", binary_csv, "--prevalence", "0.3", "--json", out)
    assert r.returncode == 0, r.stderr
    entry = json.loads(out.read_text())["at_prevalence"]
    assert entry["intervals"] is None and entry["measures"]["precision"] > 0
    assert "intervals of" not in r.stdout


def test_prevalence_with_cost_weighs_the_costs_and_reports(binary_csv: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    r = run("report", binary_csv, "--cost", "0,1;10,0", "--prevalence", "0.2", "--json", out)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["costs"]["prevalence"] == [0.2]  # the positive share weighs the costs too
    assert data["at_prevalence"]["prevalence"] == 0.2
    # class shares with --cost: the costs only, no section
    r = run("report", binary_csv, "--cost", "0,1;10,0", "--prevalence", "0.8,0.2", "--json", out)
    assert r.returncode == 0, r.stderr
    assert "at_prevalence" not in json.loads(out.read_text())


@pytest.mark.parametrize("value, message", [
    ("0", "--prevalence 0: the positive class's prevalence must be strictly between 0 and 1"),
    ("1", "--prevalence 1: the positive class's prevalence must be strictly between 0 and 1"),
    ("1.5", "--prevalence 1.5: the positive class's prevalence must be strictly between 0 and 1"),
    ("-0.1", "--prevalence -0.1: the positive class's prevalence must be strictly between 0 and 1"),
    ("nan", "--prevalence nan: give finite numbers"),
    ("abc", "--prevalence abc: give numbers"),
    ("0.2,0.8", "--prevalence 0.2,0.8: several class shares weigh the costs: give --cost too"),
])
def test_bad_prevalence_is_a_one_line_usage_error(binary_csv: Path, value: str, message: str) -> None:
    r = run("report", binary_csv, f"--prevalence={value}")
    assert r.returncode == 2, r.stdout
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], r.stderr


def test_multiclass_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.csv"
    rng = np.random.default_rng(0)
    proba = rng.dirichlet(np.ones(3), 60)
    pd.DataFrame({"y_true": rng.integers(0, 3, 60), **{f"proba_{c}": proba[:, c] for c in range(3)}}).to_csv(
        path, index=False)
    r = run("report", path, "--prevalence", "0.1")
    assert r.returncode == 2, r.stdout
    assert "--prevalence 0.1: one number is the positive class's prevalence of a binary task; the data are " \
           "multiclass (3 classes" in r.stderr
    assert len([line for line in r.stderr.splitlines() if line.startswith("clfeval: error")]) == 1


def test_prevalence_with_a_threshold_rule_and_stream(binary_csv: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    r = run("report", binary_csv, "--prevalence", "0.1", "--threshold", "youden", "--json", out)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    df = binary_frame()
    ev = clfeval.evaluate(df.label, y_score=df.score, threshold=data["threshold"])
    assert data["at_prevalence"]["measures"]["precision"] == pytest.approx(
        ev.at_prevalence(0.1, level=None)["precision"], abs=1e-12)
    r = run("report", binary_csv, "--prevalence", "0.1", "--stream", "--json", out)
    assert r.returncode == 0, r.stderr
    streamed = json.loads(out.read_text())["at_prevalence"]
    want = clfeval.evaluate(df.label, y_score=df.score).at_prevalence(0.1, level=None)
    assert streamed["measures"]["npv"] == pytest.approx(want["npv"], abs=1e-12)
    assert streamed["average_precision"] == pytest.approx(want.average_precision, abs=1e-12)
