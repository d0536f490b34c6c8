"""The clfeval command as a person uses it: the installed entry point on real CSV, Parquet and Feather files.

Numbers are checked against scikit-learn; errors must be one line, exit 1 (data) or 2 (usage),
and leave no file behind.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import clfeval
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")
skm = pytest.importorskip("sklearn.metrics")

from clfeval.inputs.tabular import InputFileError, read_predictions  # noqa: E402

ENTRY = shutil.which("clfeval")
COMMAND = [ENTRY] if ENTRY else [sys.executable, "-m", "clfeval"]


def run(*args: str | os.PathLike[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "160", "NO_COLOR": "1"}
    return subprocess.run([*COMMAND, *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


def binary_frame(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1), 3)  # rounded: ties
    return pd.DataFrame({"label": y, "score": s})


@pytest.fixture
def binary_csv(tmp_path: Path) -> Path:
    path = tmp_path / "preds.csv"
    binary_frame().to_csv(path, index=False)
    return path


def test_report_detects_the_layout_and_prints_sklearn_numbers(binary_csv: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    r = run("report", binary_csv, "--json", out)
    assert r.returncode == 0, r.stderr
    assert "detected columns: y_true = label; y_score = score" in r.stderr
    df = binary_frame()
    pred = (df.score >= 0.5).astype(int)
    p, rec, f1, sup = skm.precision_recall_fscore_support(df.label, pred)
    line = next(x for x in r.stdout.splitlines() if x.strip().startswith("1 "))
    assert line.split()[:4] == ["1", f"{p[1]:.4f}", f"{rec[1]:.4f}", f"{f1[1]:.4f}"]
    assert f"{skm.roc_auc_score(df.label, df.score):.4f}" in r.stdout
    assert f"{skm.matthews_corrcoef(df.label, pred):.4f}" in r.stdout
    data = json.loads(out.read_text())
    assert data["confusion"]["counts"] == skm.confusion_matrix(df.label, pred).tolist()
    assert data["report"]["overall"]["roc_auc"] == pytest.approx(skm.roc_auc_score(df.label, df.score), abs=1e-12)
    assert data["report"]["overall"]["average_precision"] == pytest.approx(
        skm.average_precision_score(df.label, df.score), abs=1e-12)
    assert data["name"] == "preds" and data["threshold"] == 0.5


def test_parquet_per_class_columns_give_the_label_order(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    n, order = 300, ["cat", "ant", "bee"]
    y = rng.choice(order, n)
    prob = rng.random((n, 3)) + np.eye(3)[[order.index(v) for v in y]]
    prob /= prob.sum(axis=1, keepdims=True)
    path = tmp_path / "m.parquet"
    pd.DataFrame({"y_true": y, **{f"proba_{c}": prob[:, i] for i, c in enumerate(order)}}).to_parquet(path)
    out = tmp_path / "m.json"
    r = run("report", path, "--json", out)
    assert r.returncode == 0, r.stderr
    assert "y_score = proba_cat, proba_ant, proba_bee (one column per class)" in r.stderr
    data = json.loads(out.read_text())
    assert data["labels"] == order
    pred = np.array(order)[prob.argmax(axis=1)]
    assert data["confusion"]["counts"] == skm.confusion_matrix(y, pred, labels=order).tolist()
    by_name = np.argsort(order)  # sklearn wants the columns in sorted label order
    assert data["report"]["overall"]["roc_auc"] == pytest.approx(
        skm.roc_auc_score(y, prob[:, by_name], multi_class="ovr"), abs=1e-12)


def test_feather_named_columns_weights_pos_label_and_threshold(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    n = 500
    y = rng.choice(["ham", "spam"], n)
    s = np.clip((y == "spam") * 0.3 + rng.random(n) * 0.7, 0, 1)
    w = rng.integers(1, 5, n).astype(float)
    path = tmp_path / "w.feather"
    pd.DataFrame({"truth_col": y, "s": s, "w": w}).to_feather(path)
    out = tmp_path / "w.json"
    r = run("report", path, "--y-true", "truth_col", "--y-score", "s", "--sample-weight", "w",
            "--pos-label", "spam", "--threshold", "0.4", "--name", "model A", "--json", out)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    pred = np.where(s >= 0.4, "spam", "ham")
    assert data["confusion"]["counts"] == skm.confusion_matrix(y, pred, sample_weight=w).tolist()
    assert data["name"] == "model A" and data["pos_label"] == "spam" and data["threshold"] == 0.4
    assert data["report"]["overall"]["roc_auc"] == pytest.approx(
        skm.roc_auc_score(y == "spam", s, sample_weight=w), abs=1e-12)


def test_hard_predictions_only(tmp_path: Path) -> None:
    path = tmp_path / "hard.csv"
    path.write_text("actual,predicted\na,a\nb,a\nc,c\nb,b\na,c\n")
    out = tmp_path / "hard.json"
    r = run("report", path, "--json", out, "--labels", "c,b,a")
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["labels"] == ["c", "b", "a"] and data["roc"] is None
    assert data["confusion"]["counts"] == skm.confusion_matrix(
        list("abcba"), list("aacbc"), labels=["c", "b", "a"]).tolist()
    assert "Curves" not in r.stdout


def test_html_and_png_outputs(binary_csv: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("plotly")
    html, png = tmp_path / "r.html", tmp_path / "png"
    r = run("report", binary_csv, "--html", html, "--png", png)
    assert r.returncode == 0, r.stderr
    assert html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    pngs = sorted(png.glob("*.png"))
    assert {"roc.png", "pr.png"} <= {p.name for p in pngs}
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary leftovers


# ------------------------------------------------------------------ errors


def assert_one_line_error(r: subprocess.CompletedProcess[str], status: int, *fragments: str) -> None:
    assert r.returncode == status, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clfeval: error: "), r.stderr
    for f in fragments:
        assert f in lines[0], lines[0]


def test_missing_file(tmp_path: Path) -> None:
    assert_one_line_error(run("report", tmp_path / "nope.csv"), 1, "nope.csv: no such file")


def test_misnamed_column_lists_the_columns(binary_csv: Path) -> None:
    r = run("report", binary_csv, "--y-true", "lable")
    assert_one_line_error(r, 1, "--y-true 'lable': no such column", "did you mean 'label'?", "columns: label, score")


def test_no_detectable_truth_column(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,0.5\n")
    assert_one_line_error(run("report", path), 1, "--y-true COLUMN", "columns: a, b")


def test_empty_file_and_header_only(tmp_path: Path) -> None:
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert_one_line_error(run("report", empty), 1, "empty.csv: the file is empty")
    header = tmp_path / "header.csv"
    header.write_text("y_true,y_score\n")
    assert_one_line_error(run("report", header), 1, "header.csv: the file has no data rows")


def test_unparseable_and_nan_scores_name_the_row(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("y_true,y_score\n1,0.9\n0,0.1\n1,high\n")
    assert_one_line_error(run("report", bad), 1, "column 'y_score', data row 3: 'high' is not a number")
    nan = tmp_path / "nan.parquet"
    pd.DataFrame({"y_true": [1, 0, 1, 0], "y_score": [0.9, np.nan, 0.4, 0.2]}).to_parquet(nan)
    assert_one_line_error(run("report", nan), 1, "column 'y_score' has a NaN or missing score at data row 2")
    gap = tmp_path / "gap.csv"
    gap.write_text("y_true,y_pred\n1,1\n,0\n0,0\n")
    assert_one_line_error(run("report", gap), 1, "column 'y_true' has a missing value at data row 2")


def test_failure_leaves_outputs_untouched(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("y_true,y_score\n1,0.9\n0,\n")
    out = tmp_path / "keep.json"
    out.write_text("old")
    r = run("report", bad, "--json", out, "--html", tmp_path / "new.html")
    assert r.returncode == 1
    assert out.read_text() == "old" and not (tmp_path / "new.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.csv", "keep.json"]


def test_bad_output_folder_is_reported_before_any_work(binary_csv: Path, tmp_path: Path) -> None:
    json_out = tmp_path / "fine.json"
    r = run("report", binary_csv, "--json", json_out, "--html", tmp_path / "missing" / "r.html")
    assert_one_line_error(r, 1, "--html", "folder", "does not exist")
    assert not json_out.exists()


def test_usage_errors_exit_2(binary_csv: Path) -> None:
    assert run().returncode == 2
    r = run("report", binary_csv, "--threshold", "high")
    assert r.returncode == 2 and "--threshold 'high': give a number, one of youden" in r.stderr
    r = run("report", binary_csv, "--pos-label", "yes")
    assert_one_line_error(r, 2, "--pos-label 'yes'", "integers")


def test_score_count_that_does_not_match_the_classes(tmp_path: Path) -> None:
    path = tmp_path / "k.csv"
    path.write_text("y_true,a,b\n0,0.1,0.9\n1,0.8,0.2\n2,0.3,0.7\n")
    r = run("report", path, "--y-score", "a,b")
    assert r.returncode == 1 and r.stderr.startswith("clfeval: error: ") and "k.csv" in r.stderr


# ------------------------------------------------------------------ demo


def test_demo_prints_both_examples_and_writes_the_html(tmp_path: Path) -> None:
    pytest.importorskip("plotly")
    from clfeval.inputs.examples import load_demo

    r = run("demo", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    # the pages go into a folder of their own, named on screen before anything else
    assert [p.name for p in tmp_path.iterdir()] == ["clfeval-demo"]
    folder = tmp_path / "clfeval-demo"
    assert sorted(p.name for p in folder.iterdir()) == ["clfeval-demo-binary.html", "clfeval-demo-multiclass.html"]
    assert r.stdout.splitlines()[0] == (f"clfeval demo: the HTML reports go to {folder}/ "
                                        "(clfeval-demo-binary.html, clfeval-demo-multiclass.html)")
    assert f"wrote the HTML report to {folder / 'clfeval-demo-binary.html'}" in r.stdout
    # a second run replaces the pages in the same folder
    assert run("demo", "--kind", "binary", cwd=tmp_path).returncode == 0
    assert sorted(p.name for p in folder.iterdir()) == ["clfeval-demo-binary.html", "clfeval-demo-multiclass.html"]
    assert r.stdout.count("The models make the same predictions") == 2
    d = load_demo("binary")
    aucs = [skm.roc_auc_score(d.y_true == d.pos_label, m.y_score) for m in d.models.values()]
    assert f"ROC AUC {aucs[0]:.4f} vs {aucs[1]:.4f}" in r.stdout


def test_the_demo_files_work_with_report_as_the_demo_says(tmp_path: Path) -> None:
    import shlex

    from clfeval.inputs.examples import load_demo

    r = run("demo", "--kind", "binary", "--no-html")
    hint = next(x for x in r.stdout.splitlines() if "the same from the command line: " in x)
    argv = shlex.split(hint.split("the same from the command line: ", 1)[1])
    out = tmp_path / "d.json"
    r2 = run(*argv[1:], "--json", out)
    assert r2.returncode == 0, r2.stderr
    assert "y_true = y_true; y_pred = y_pred; y_score = y_score" in r2.stderr
    d = load_demo("binary")
    m = next(iter(d.models.values()))
    data = json.loads(out.read_text())
    assert data["confusion"]["counts"] == skm.confusion_matrix(d.y_true, m.y_pred).tolist()
    # with --threshold the detected prediction column gives way to the scores
    r3 = run(*argv[1:], "--threshold", "0.2", "--json", out)
    assert r3.returncode == 0 and "--threshold 0.2" in r3.stderr
    pred = np.where(m.y_score >= 0.2, "malignant", "benign")
    assert json.loads(out.read_text())["confusion"]["counts"] == skm.confusion_matrix(d.y_true, pred).tolist()


def test_demo_one_kind_to_a_file_and_no_html(tmp_path: Path) -> None:
    pytest.importorskip("plotly")
    target = tmp_path / "x.html"
    r = run("demo", "--kind", "multiclass", "--out", target)
    assert r.returncode == 0 and target.exists() and "Handwritten digits" in r.stdout
    r = run("demo", "--no-html", cwd=tmp_path)
    assert r.returncode == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["x.html"]
    r = run("demo", "--out", tmp_path / "y.html")
    assert_one_line_error(r, 2, "--kind")


def test_python_dash_m_is_the_same_command() -> None:
    out = subprocess.run([sys.executable, "-m", "clfeval", "--help"], capture_output=True, text=True, check=True)
    assert "report" in out.stdout and "demo" in out.stdout


# ------------------------------------------------------------------ reading (in-process)

frames = st.integers(1, 60).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from(["x", "y", "z"]), min_size=n, max_size=n),
    st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=n, max_size=n),
    st.lists(st.floats(0.01, 100), min_size=n, max_size=n),
))


@settings(max_examples=25, deadline=None)
@given(frame=frames, fmt=st.sampled_from(["csv", "parquet", "feather"]), progress=st.booleans())
def test_read_predictions_round_trips(tmp_path_factory: pytest.TempPathFactory, frame, fmt: str,
                                      progress: bool) -> None:
    y, s, w = frame
    df = pd.DataFrame({"Target": y, "Decision": s, "Sample_Weight": w})
    path = tmp_path_factory.mktemp("rt") / f"f.{fmt}"
    getattr(df, {"csv": "to_csv", "parquet": "to_parquet", "feather": "to_feather"}[fmt])(
        path, **({"index": False} if fmt == "csv" else {}))
    p = read_predictions(path, progress=progress)
    assert p.y_true.tolist() == y
    np.testing.assert_array_equal(p.y_score, np.array(s))
    np.testing.assert_array_equal(p.sample_weight, np.array(w))
    assert p.detected == ["y_true = Target", "sample_weight = Sample_Weight", "y_score = Decision"]


def test_explicit_score_columns_and_comma_list(tmp_path: Path) -> None:
    path = tmp_path / "e.csv"
    path.write_text("t,s1,s2,s0\n0,0.1,0.2,0.7\n1,0.5,0.4,0.1\n")
    p = read_predictions(path, y_true="t", y_score="s0, s1,s2")
    np.testing.assert_array_equal(p.y_score, [[0.7, 0.1, 0.2], [0.1, 0.5, 0.4]])
    assert p.detected == []
    with pytest.raises(InputFileError, match=r"--y-score 's3': no such column"):
        read_predictions(path, y_true="t", y_score="s3")


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_progress_bar_while_reading(tmp_path: Path, suffix: str) -> None:
    rng = np.random.default_rng(4)
    n = 200_000
    df = pd.DataFrame({"y_true": rng.integers(0, 2, n), "y_score": rng.random(n)})
    path = tmp_path / f"big.{suffix}"
    if suffix == "csv":
        df.to_csv(path, index=False)
    else:
        df.to_parquet(path, row_group_size=20_000)
    env = {**os.environ, "FORCE_COLOR": "1", "TTY_INTERACTIVE": "1", "COLUMNS": "100"}
    out = tmp_path / "p.json"
    r = subprocess.run([*COMMAND, "report", str(path), "--progress", "--json", str(out)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert f"reading big.{suffix}" in r.stderr
    assert ("MB" in r.stderr) if suffix == "csv" else (f"{n:,}/{n:,} rows" in r.stderr)
    data = json.loads(out.read_text())
    assert data["n_samples"] == n
    assert data["report"]["overall"]["roc_auc"] == pytest.approx(skm.roc_auc_score(df.y_true, df.y_score), abs=1e-12)
    r = subprocess.run([*COMMAND, "report", str(path), "--no-progress", "--json", str(out)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and "reading" not in r.stderr


def test_report_with_intervals(binary_csv: Path, tmp_path: Path) -> None:
    from clfeval.uncertainty import proportion_ci

    out = tmp_path / "ci.json"
    r = run("report", binary_csv, "--ci", "--level", "0.9", "--json", out)
    assert r.returncode == 0, r.stderr
    assert "90% confidence intervals" in r.stdout and "Wilson score" in r.stdout
    data = json.loads(out.read_text())
    df = binary_frame()
    pred = (df.score >= 0.5).astype(int)
    tp, fn = int(((pred == 1) & (df.label == 1)).sum()), int(((pred == 0) & (df.label == 1)).sum())
    want = proportion_ci(tp, tp + fn, level=0.9)
    got = data["intervals"]["per_class"]["recall"]
    assert got["low"][1] == pytest.approx(want.low, abs=1e-12) and got["high"][1] == pytest.approx(want.high, abs=1e-12)
    assert data["intervals"]["per_class"]["roc_auc"]["method"].startswith("DeLong, logit scale")
    assert data["intervals"]["level"] == 0.9
    r = run("report", binary_csv, "--ci", "delong", "--json", out)  # pROC's plain DeLong, by name
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text())["intervals"]["per_class"]["roc_auc"]["method"] == "DeLong"
    r = run("report", binary_csv, "--ci", "bootstrap", "--ci-sampling", "stratified", "--json", out)
    assert r.returncode == 0, r.stderr
    assert "stratified by true class" in json.loads(out.read_text())["intervals"]["overall"]["accuracy"]["method"]
    r = run("report", binary_csv, "--ci", "bootstrap", "--ci-sampling", "by-class")
    assert r.returncode == 2 and "--ci-sampling" in r.stderr and "Traceback" not in r.stderr
    r = run("report", binary_csv, "--ci", "--level", "1.5")
    assert_one_line_error(r, 2, "--level 1.5: must be between 0 and 1")
    r = run("report", binary_csv, "--ci", "bootstrap", "--sample-weight", "score")
    assert_one_line_error(r, 2, "--ci bootstrap with --sample-weight")


def test_compare_two_models_with_paired_tests(tmp_path: Path) -> None:
    from scipy.stats import binomtest

    rng = np.random.default_rng(7)
    n = 300
    y = rng.integers(0, 2, n)
    a = np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1)
    b = np.clip(0.2 * y + 0.8 * rng.random(n), 0, 1)
    path = tmp_path / "two.csv"
    pd.DataFrame({"truth": y, "pa": a, "pb": b, "hard": (b >= 0.5).astype(int)}).to_csv(path, index=False)
    out = tmp_path / "cmp.json"
    r = run("compare", path, "--y-true", "truth", "--model", "A=pa", "--model", "B=pb", "--model", "H=hard",
            "--n-resamples", "300", "--json", out, "--html", tmp_path / "cmp.html")
    assert r.returncode == 0, r.stderr
    assert '<section id="tests">' in (tmp_path / "cmp.html").read_text(encoding="utf-8")
    assert "Paired tests" in r.stdout and "McNemar" in r.stdout and "DeLong" in r.stdout
    data = json.loads(out.read_text())
    assert [m["name"] for m in data["models"]] == ["A", "B", "H"]
    tests = {(t["model_a"], t["model_b"], t["test"]): t["result"] for t in data["tests"]}
    # McNemar exact = binomial test on the discordant pairs
    right_a, right_b = (a >= 0.5) == y, (b >= 0.5) == y
    n01, n10 = int((right_a & ~right_b).sum()), int((~right_a & right_b).sum())
    mc = tests[("A", "B", "McNemar (accuracy)")]
    assert mc["pvalue"] == pytest.approx(binomtest(n01, n01 + n10).pvalue, rel=1e-9)
    assert mc["estimate"] == pytest.approx((n01 - n10) / n)
    assert tests[("A", "B", "DeLong (ROC AUC)")]["estimate"] == pytest.approx(
        skm.roc_auc_score(y, a) - skm.roc_auc_score(y, b), abs=1e-12)
    assert ("A", "H", "DeLong (ROC AUC)") not in tests  # H has no scores
    # B and H make the same predictions: nothing to test
    assert tests[("B", "H", "McNemar (accuracy)")]["pvalue"] == 1.0


def test_compare_usage_errors(tmp_path: Path) -> None:
    path = tmp_path / "c.csv"
    path.write_text("y,a,b\n0,0,1\n1,1,1\n")
    assert_one_line_error(run("compare", path, "--y-true", "y", "--model", "A=a"), 2, "at least two --model")
    assert_one_line_error(run("compare", path, "--y-true", "y", "--model", "A", "--model", "B=b"), 2, "NAME=COLUMN")
    assert_one_line_error(run("compare", path, "--y-true", "y", "--model", "A=a", "--model", "B=c"), 1,
                          "--model B 'c': no such column")


def test_multiclass_report_intervals_include_the_averaged_auc(tmp_path: Path) -> None:
    from clfeval.stats.delong import delong_average_ci

    rng = np.random.default_rng(9)
    n = 300
    y = rng.integers(0, 3, n)
    p = rng.random((n, 3)) + 0.7 * np.eye(3)[y]
    p /= p.sum(axis=1, keepdims=True)
    path = tmp_path / "mc.csv"
    pd.DataFrame({"y_true": y, **{f"proba_{c}": p[:, c] for c in range(3)}}).to_csv(path, index=False)
    out = tmp_path / "mc.json"
    r = run("report", path, "--ci", "--json", out)
    assert r.returncode == 0, r.stderr
    got = json.loads(out.read_text())["intervals"]["averages"]["macro"]["roc_auc"]
    want = clfeval.evaluate(y, y_score=p).ci("roc_auc", average="macro")
    assert (got["low"], got["high"]) == pytest.approx((want.low, want.high), abs=1e-12)
    fewest = int(np.bincount(y).min())
    assert got["method"] == f"delta method (case influence, logit scale, t({fewest - 1}) quantile)"
    # the same influence functions as DeLong's test of averaged AUCs, up to its m - 1 scaling
    delong = delong_average_ci(y, p)
    assert got["standard_error"] == pytest.approx(delong.standard_error, rel=0.01)


def test_compare_multiclass_score_models(tmp_path: Path) -> None:
    from clfeval.stats.delong import delong_average

    rng = np.random.default_rng(10)
    n = 240
    y = rng.integers(0, 3, n)
    pa = rng.random((n, 3)) + 0.8 * np.eye(3)[y]
    pb = rng.random((n, 3)) + 0.3 * np.eye(3)[y]
    path = tmp_path / "mc.parquet"
    pd.DataFrame({"y": y, **{f"a{c}": pa[:, c] for c in range(3)}, **{f"b{c}": pb[:, c] for c in range(3)}}).to_parquet(path)
    out = tmp_path / "mc.json"
    r = run("compare", path, "--y-true", "y", "--model", "A=a0,a1,a2", "--model", "B=b0,b1,b2",
            "--n-resamples", "200", "--json", out)
    assert r.returncode == 0, r.stderr
    tests = {t["test"]: t["result"] for t in json.loads(out.read_text())["tests"]}
    want = delong_average(y, pa, pb)
    assert tests["DeLong (macro one-vs-rest ROC AUC)"]["statistic"] == pytest.approx(want.statistic, abs=1e-12)
    assert tests["McNemar (accuracy)"]["estimate"] == pytest.approx(
        ((pa.argmax(1) == y).sum() - (pb.argmax(1) == y).sum()) / n)
