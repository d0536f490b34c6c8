"""``clfeval report --partial-fpr a,b`` / ``--partial-tpr a,b``: the partial AUC on the command line.

The command runs in this process (:func:`clfeval.cli.main`); the JSON's numbers are compared with
:func:`clfeval.metrics.partial_auc` and :meth:`clfeval.Evaluation.partial_auc` on the same rows, the
terminal's line and the HTML table are looked for, and every bad value is checked for its one
line, exit status 2 and the option quoted as typed, with no file written.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval import metrics
from clfeval.cli import main

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")


def cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    """Run the command in this process: (exit status, stdout, stderr)."""
    try:
        code = main([str(a) for a in args])
    except SystemExit as exc:  # argparse and usage errors exit through the parser
        code = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    assert "Traceback" not in out.err, out.err
    return code, out.out, out.err


def _frame(n: int = 300, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 2)  # ties
    return pd.DataFrame({"label": y, "score": s})


@pytest.fixture
def binary_csv(tmp_path: Path) -> Path:
    path = tmp_path / "preds.csv"
    _frame().to_csv(path, index=False)
    return path


@pytest.mark.parametrize(("option", "axis", "bounds"), [("--partial-fpr", "fpr", (0.0, 0.1)),
                                                        ("--partial-tpr", "tpr", (0.8, 1.0)),
                                                        ("--partial-fpr", "fpr", (0.25, 0.5))])
def test_json_and_terminal_carry_the_metric(capsys, binary_csv, tmp_path, option, axis, bounds):
    out = tmp_path / "out.json"
    code, stdout, err = cli(capsys, "report", binary_csv, option, f"{bounds[0]:g},{bounds[1]:g}", "--json", out)
    assert code == 0, err
    d = json.loads(out.read_text())["partial_auc"]
    df = _frame()
    kw = {f"{axis}_range": bounds}
    entry = d["curves"]["1"]
    assert d["axis"] == axis and d["range"] == list(bounds) and d["main"] == "1"
    assert entry["value"] == pytest.approx(metrics.partial_auc(df.label, df.score, **kw), rel=1e-14)
    assert entry["raw"] == pytest.approx(metrics.partial_auc(df.label, df.score, standardized=False, **kw), rel=1e-14)
    assert "interval" not in entry  # no --ci
    line = next(x for x in stdout.splitlines() if x.startswith("partial AUC, "))
    assert f"{axis.upper()} in [{bounds[0]:g}, {bounds[1]:g}]: {entry['value']:.4f}" in line
    assert "McClish" in line and f"raw area {entry['raw']:.4f}" in line


def test_with_ci_the_interval_is_the_evaluations(capsys, binary_csv, tmp_path):
    out = tmp_path / "out.json"
    code, stdout, err = cli(capsys, "report", binary_csv, "--partial-tpr", "0.9,1", "--ci", "--level", "0.9",
                            "--json", out)
    assert code == 0, err
    entry = json.loads(out.read_text())["partial_auc"]["curves"]["1"]
    df = _frame()
    want = clfeval.evaluate(df.label.to_numpy(), y_score=df.score.to_numpy()).partial_auc(tpr_range=(0.9, 1.0), level=0.9)
    ci = entry["interval"]
    assert (ci["low"], ci["high"], ci["standard_error"], ci["level"]) == pytest.approx(
        (want.low, want.high, want.standard_error, 0.9), rel=1e-12)
    assert "DeLong-type" in ci["method"]
    assert f"[{ci['low']:.4f}, {ci['high']:.4f}]" in stdout and "90% intervals: DeLong-type" in stdout


def test_multiclass_gives_each_class_and_micro(capsys, tmp_path):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 240)
    p = rng.dirichlet(np.ones(3), 240) + 0.5 * np.eye(3)[y]
    p = np.round(p / p.sum(axis=1, keepdims=True), 3)
    path = tmp_path / "multi.csv"
    pd.DataFrame({"y_true": y, "proba_0": p[:, 0], "proba_1": p[:, 1], "proba_2": p[:, 2]}).to_csv(path, index=False)
    out = tmp_path / "out.json"
    code, stdout, err = cli(capsys, "report", path, "--partial-fpr", "0,0.2", "--json", out)
    assert code == 0, err
    d = json.loads(out.read_text())["partial_auc"]
    assert list(d["curves"]) == ["0", "1", "2", "micro"] and d["main"] == "0"
    for c in range(3):
        assert d["curves"][str(c)]["value"] == pytest.approx(
            metrics.partial_auc(y == c, p[:, c], fpr_range=(0, 0.2)), rel=1e-13)
    lines = stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("partial AUC, FPR in [0, 0.2], McClish"))
    rows = [line.split() for line in lines[head + 1:head + 5]]  # one row per curve, under one heading
    assert [r[0] for r in rows] == ["0", "1", "2", "micro"]
    assert [float(r[1]) for r in rows] == [round(d["curves"][c]["value"], 4) for c in ("0", "1", "2", "micro")]


def test_html_shows_the_table(capsys, binary_csv, tmp_path):
    page = tmp_path / "page.html"
    code, _, err = cli(capsys, "report", binary_csv, "--partial-fpr", "0,0.1", "--ci", "--html", page)
    assert code == 0, err
    html = page.read_text()
    assert "<h3>Partial AUC, FPR in [0, 0.1]</h3>" in html and "McClish-standardised" in html


@pytest.mark.parametrize(("args", "message"), [
    (("--partial-fpr", "0.2"), "--partial-fpr 0.2: give two numbers a,b with 0 <= a < b <= 1"),
    (("--partial-fpr", "0.2,0.1"), ("--partial-fpr 0.2,0.1: the range must run from low to high, a < b "
                                    "(e.g. --partial-fpr 0.1,0.2)")),
    (("--partial-fpr", "0.1,0.1"), "--partial-fpr 0.1,0.1: the range must run from low to high"),
    (("--partial-tpr", "0,1.5"), "--partial-tpr 0,1.5: both ends must be from 0 to 1"),
    (("--partial-tpr=-0.1,0.5",), "--partial-tpr -0.1,0.5: both ends must be from 0 to 1"),
    (("--partial-fpr", "nan,0.1"), "--partial-fpr nan,0.1: give two numbers"),
    (("--partial-fpr", "a,b"), "--partial-fpr a,b: give two numbers"),
    (("--partial-fpr", "0,0.1,0.2"), "--partial-fpr 0,0.1,0.2: give two numbers"),
    (("--partial-fpr", "0,0.1", "--partial-tpr", "0.9,1"), "give one of them"),
    (("--partial-f", "0.3,0.2"), "--partial-fpr 0.3,0.2: the range must run from low to high"),  # abbreviated
])
def test_bad_ranges_are_one_line_usage_errors(capsys, binary_csv, tmp_path, args, message):
    out = tmp_path / "out.json"
    code, _, err = cli(capsys, "report", binary_csv, *args, "--json", out)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clfeval: error: ") and message in lines[0], err
    assert not out.exists()


def test_labels_only_is_a_usage_error_that_names_the_option(capsys, tmp_path):
    path = tmp_path / "labels.csv"
    pd.DataFrame({"y_true": [0, 1, 2, 1, 0, 2], "y_pred": [0, 1, 1, 1, 0, 2]}).to_csv(path, index=False)
    out = tmp_path / "out.json"
    code, _, err = cli(capsys, "report", path, "--partial-tpr", "0.8,1", "--json", out)
    assert code == 2
    line = err.strip().splitlines()[-1]
    assert line.startswith("clfeval: error: --partial-tpr 0.8,1: the partial AUC needs scores") and "--y-score" in line
    assert not out.exists()


def test_weights_and_a_stream_give_the_evaluations_numbers(capsys, tmp_path):
    df = _frame()
    df["w"] = np.random.default_rng(2).gamma(2.0, 1.0, len(df))
    path = tmp_path / "weighted.csv"
    df.to_csv(path, index=False)
    out = tmp_path / "w.json"
    code, _, err = cli(capsys, "report", path, "--y-true", "label", "--y-score", "score", "--sample-weight", "w",
                       "--partial-fpr", "0,0.3", "--ci", "--json", out)
    assert code == 0, err
    ci = json.loads(out.read_text())["partial_auc"]["curves"]["1"]["interval"]
    ev = clfeval.evaluate(df.label.to_numpy(), y_score=df.score.to_numpy(), sample_weight=df.w.to_numpy())
    want = ev.partial_auc((0.0, 0.3))
    assert (ci["low"], ci["high"], ci["standard_error"]) == pytest.approx((want.low, want.high, want.standard_error),
                                                                          rel=1e-12)
    streamed = tmp_path / "s.json"
    code, _, err = cli(capsys, "report", tmp_path / "weighted.csv", "--y-true", "label", "--y-score", "score",
                       "--stream", "--partial-tpr", "0.8,1", "--ci", "--json", streamed)
    assert code == 0, err
    entry = json.loads(streamed.read_text())["partial_auc"]["curves"]["1"]
    memory = clfeval.evaluate(df.label.to_numpy(), y_score=df.score.to_numpy()).partial_auc(tpr_range=(0.8, 1.0))
    assert (entry["value"], entry["interval"]["low"], entry["interval"]["high"]) == pytest.approx(
        (memory.estimate, memory.low, memory.high), rel=1e-12)
