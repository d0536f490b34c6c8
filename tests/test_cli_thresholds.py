"""clfeval report --threshold RULE, --cost and --prevalence."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sklearn.metrics as skm

import clfeval
from test_cli import binary_frame, run


@pytest.fixture
def binary_csv(tmp_path: Path) -> Path:
    path = tmp_path / "preds.csv"
    binary_frame().to_csv(path, index=False)
    return path


@pytest.mark.parametrize("rule, options", [("youden", {}), ("max-f1", {}), ("recall=0.9", {"at": 0.9})])
def test_threshold_rule_applies_the_operating_point(binary_csv: Path, tmp_path: Path, rule: str, options: dict) -> None:
    out = tmp_path / "out.json"
    r = run("report", binary_csv, "--threshold", rule, "--json", out)
    assert r.returncode == 0, r.stderr
    df = binary_frame()
    point = clfeval.evaluate(df.label, y_score=df.score).operating_point(rule.split("=")[0], **options)
    assert f"threshold {point.threshold:.6g} chosen by --threshold" in r.stderr
    data = json.loads(out.read_text())
    assert data["threshold"] == point.threshold
    want = skm.confusion_matrix(df.label, (df.score >= point.threshold).astype(int))
    assert data["confusion"]["counts"] == want.tolist()
    assert "Operating points" in r.stdout and "youden" in r.stdout


def test_cost_matrix_inline_and_from_a_file(binary_csv: Path, tmp_path: Path) -> None:
    df = binary_frame()
    ev = clfeval.evaluate(df.label, y_score=df.score)
    cost_file = tmp_path / "costs.json"
    cost_file.write_text(json.dumps([[0, 1], [10, 0]]))
    outs = []
    for spec in ("0,1;10,0", str(cost_file)):
        out = tmp_path / f"out{len(outs)}.json"
        r = run("report", binary_csv, "--cost", spec, "--prevalence", "0.2", "--threshold", "min-cost", "--json", out)
        assert r.returncode == 0, r.stderr
        outs.append(json.loads(out.read_text()))
    assert outs[0]["costs"] == outs[1]["costs"]
    point = ev.operating_point("min-cost", costs=[[0, 1], [10, 0]], prevalence=0.2)
    assert outs[0]["threshold"] == point.threshold
    assert outs[0]["costs"]["expected_cost"] == pytest.approx(
        ev.at(point.threshold).expected_cost([[0, 1], [10, 0]], prevalence=0.2), rel=1e-12)
    assert outs[0]["operating_points"]["1"]["min-cost"]["threshold"] == point.threshold
    assert outs[0]["calibration"]["ece"] == pytest.approx(ev.calibration(15).ece, rel=1e-12)


@pytest.mark.parametrize("args, message", [
    (["--threshold", "bogus"], "give a number, one of youden"),
    (["--threshold", "min-cost"], "needs a cost matrix"),
    (["--cost", "0,1;1"], "must hold numbers only|must be square"),
    (["--cost", "0,1,2;1,0,2;1,1,0"], "the cost matrix must be 2 x 2; got 3 x 3"),
    (["--cost", "0,1,2;1,0,2;1,1,0", "--threshold", "min-cost"], "the cost matrix must be 2 x 2; got 3 x 3"),
    (["--prevalence", "0.3,0.7"], "give --cost too"),  # one number stands alone (tests/test_cli_prevalence.py)
    (["--threshold", "max-fbeta"], "needs --beta"),
])
def test_bad_threshold_and_cost_options_are_usage_errors(binary_csv: Path, args: list[str], message: str) -> None:
    r = run("report", binary_csv, *args)
    assert r.returncode == 2, r.stdout
    assert any(part in r.stderr for part in message.split("|")) or __import__("re").search(message, r.stderr), r.stderr


def test_rule_on_multiclass_scores_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.csv"
    rng = np.random.default_rng(0)
    proba = rng.dirichlet(np.ones(3), 60)
    import pandas as pd

    pd.DataFrame({"y_true": rng.integers(0, 3, 60), **{f"proba_{c}": proba[:, c] for c in range(3)}}).to_csv(path, index=False)
    r = run("report", path, "--threshold", "youden")
    assert r.returncode == 2 and "needs binary scores" in r.stderr
