"""``clfeval report --by`` and ``clfeval compare --by``: evaluation by group on the command line.

The command runs in this process (:func:`clfeval.cli.main`); every number it prints or writes is
compared with :func:`clfeval.evaluate` with ``groups=`` on the same rows, and every bad input is
checked for its exit status (1 for data, 2 for usage) and its one line, with no traceback and no
file written.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.cli import main
from clfeval.stats import holm
from clfeval.stats.delong import delong
from clfeval.stats.mcnemar import mcnemar

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")


# ---------------------------------------------------------------- helpers


def cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    """Run the command in this process: (exit status, stdout, stderr)."""
    try:
        code = main([str(a) for a in args])
    except SystemExit as exc:  # argparse and usage errors exit through the parser
        code = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    for text in (out.out, out.err):
        assert "Traceback" not in text and "Warning:" not in text, text
    return code, out.out, out.err


def error_line(err: str) -> str:
    """The one error line, after any ``clfeval:`` notices."""
    lines = err.strip().splitlines()
    assert lines and lines[-1].startswith("clfeval: error: "), err
    assert all(line.startswith("clfeval: ") for line in lines), err
    assert sum(line.startswith("clfeval: error:") for line in lines) == 1, err
    return lines[-1]


def row_of(text: str, group: str) -> list[str]:
    """The cells of the first table line that starts with ``group`` (a one-word group name)."""
    for line in text.splitlines():
        cells = line.split()
        if cells and cells[0] == group:
            return cells
    raise AssertionError(f"no row {group!r} in\n{text}")


def section(text: str, start: str) -> str:
    """The terminal output from the line that starts with ``start`` to the next blank line."""
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(start))
    j = next((k for k in range(i + 1, len(lines)) if not lines[k].strip()), len(lines))
    return "\n".join(lines[i:j])


def frame(n: int = 600, seed: int = 0) -> pd.DataFrame:
    """Binary scores whose quality differs by site; a second column crosses it; one site is tiny."""
    rng = np.random.default_rng(seed)
    site = rng.choice(["north", "south", "east"], n, p=[0.5, 0.35, 0.15])
    sex = rng.choice(["F", "M"], n)
    y = rng.integers(0, 2, n)
    noise = np.where(site == "east", 1.2, np.where(site == "south", 0.6, 0.35))
    score = np.round(1 / (1 + np.exp(-(2 * y - 1 + noise * rng.normal(size=n) * 2))), 4)
    return pd.DataFrame({"label": y, "score": score, "site": site, "sex": sex})


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture
def preds(tmp_path: Path) -> Path:
    path = tmp_path / "preds.csv"
    frame().to_csv(path, index=False)
    return path


def library(df: pd.DataFrame, by: list[str], **kwargs: object) -> clfeval.Evaluation:
    return clfeval.evaluate(df.label.to_numpy(), y_score=df.score.to_numpy(), groups=df[by], **kwargs)


# ---------------------------------------------------------------- numbers


def test_report_by_prints_and_writes_the_library_numbers(capsys, preds: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    code, stdout, stderr = cli(capsys, "report", preds, "--by", "site", "--json", out)
    assert code == 0, stderr
    df = frame()
    groups = library(df, ["site"]).by_group
    table = groups.table(["roc_auc", "balanced_accuracy", "accuracy", "recall", "fallout", "precision",
                          "selection_rate"])
    text = section(stdout, "By group: site")
    assert "3 groups · worst first by ROC AUC" in text
    heads = ["n", "pos.", "AUC", "bal. acc.", "accuracy", "TPR", "FPR", "precision", "sel. rate"]
    assert text.splitlines()[1].split()[:2] == ["site", "n"] and all(h in text.splitlines()[1] for h in heads)
    for g, name in enumerate(table.groups):
        cells = row_of(text, name)
        assert int(cells[1]) == table.n[g]
        assert int(cells[2]) == int((df.label[df.site == name] == 1).sum())
        assert cells[3:10] == [f"{v:.4f}" for v in table.values[g]]
    # worst first by ROC AUC
    order = [line.split()[0] for line in text.splitlines()[3:6]]
    assert order == [table.groups[i] for i in np.argsort(table.column("roc_auc"))]
    # the gaps of ROC AUC to the overall, with Holm's p-values
    gaps = groups.gaps("roc_auc")
    gap_text = section(stdout, "ROC AUC of each group against the overall")
    assert f"({clfeval.evaluate(df.label, y_score=df.score).report.overall['roc_auc']:.4f})" in gap_text
    for r in gaps.rows():
        cells = row_of(gap_text, r["group"])
        assert cells[2:4] == [f"{r['value']:.4f}", f"{r['difference']:+.4f}"]
        p = r["pvalue_holm"]
        assert " ".join(cells).endswith("< 0.0001" if p < 1e-4 else f"{p:.4f}")
    # the fairness summaries (a seeded bootstrap: the same intervals)
    fair = groups.fairness()
    fair_text = section(stdout, "Fairness: across the 3 groups")
    line = next(x for x in fair_text.splitlines() if x.startswith("demographic parity difference"))
    assert f"{fair['demographic_parity_difference']:.4f}" in line
    # the JSON: every group, every default metric, the sorting metric's gaps, the fairness summaries
    data = json.loads(out.read_text())
    g = data["groups"]
    assert g["columns"] == ["site"] and g["n_groups"] == 3 and g["sort_metric"] == "roc_auc"
    full = groups.table(g["table"]["metrics"])
    rows = {r["group"]: r for r in g["table"]["rows"]}
    for i, name in enumerate(full.groups):
        for j, m in enumerate(full.metrics):
            assert rows[name][m] == pytest.approx(full.values[i, j], abs=1e-12)
    assert set(g["gaps"]) == {"roc_auc", "accuracy"}
    for r, want in zip(g["gaps"]["roc_auc"]["rows"], gaps.rows()):
        assert r["difference"] == pytest.approx(want["difference"], abs=1e-12)
        assert r["pvalue_holm"] == pytest.approx(want["pvalue_holm"], abs=1e-12)
    assert g["fairness"]["summaries"]["equalized_odds_difference"]["value"] == pytest.approx(
        fair["equalized_odds_difference"], abs=1e-12)
    assert data["columns"]["groups"] == ["site"] and "site" not in data["columns"]["unused"]
    # the overall numbers are those of the file without groups
    assert data["report"]["overall"]["roc_auc"] == pytest.approx(groups.overall.report.overall["roc_auc"], abs=1e-12)


def test_several_columns_are_their_intersections_and_ci_gives_each_groups_interval(capsys, preds: Path,
                                                                                   tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    code, stdout, stderr = cli(capsys, "report", preds, "--by", "site,sex", "--ci", "--by-metric", "recall",
                               "--json", out)
    assert code == 0, stderr
    groups = library(frame(), ["site", "sex"]).by_group
    table = groups.table(["recall"], ci=0.95)
    assert len(groups) == 6
    text = section(stdout, "By group: site, sex")
    assert "6 groups · worst first by recall" in text and "95% CI" in text
    data = json.loads(out.read_text())["groups"]
    assert data["columns"] == ["site", "sex"] and data["sort_metric"] == "recall"
    rows = {r["group"]: r for r in data["table"]["rows"]}
    for g, name in enumerate(table.groups):
        assert rows[name]["key"] == list(table.keys[g])
        assert rows[name]["recall_low"] == pytest.approx(table.low[g, 0], abs=1e-12)
        assert rows[name]["recall_high"] == pytest.approx(table.high[g, 0], abs=1e-12)
    worst = groups.worst("recall")
    first = text.splitlines()[3]
    assert first.startswith(worst.group) and f"{worst.value:.4f}" in first
    assert data["table"]["level"] == 0.95 and "recall" in data["table"]["methods"]
    assert "recall" in data["gaps"]


def test_a_threshold_rule_is_applied_to_every_group(capsys, preds: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    code, _, stderr = cli(capsys, "report", preds, "--by", "site", "--threshold", "youden", "--json", out)
    assert code == 0, stderr
    data = json.loads(out.read_text())
    df = frame()
    ev = library(df, ["site"], threshold=data["threshold"])
    rows = {r["group"]: r for r in data["groups"]["table"]["rows"]}
    for name, group_ev in ev.by_group.items():
        assert rows[name]["recall"] == pytest.approx(group_ev.report.rows[1]["recall"], abs=1e-12)


def test_group_columns_are_not_detected_as_other_columns(capsys, tmp_path: Path) -> None:
    df = frame()
    path = tmp_path / "p.csv"
    # a group column named like a weight column, and one named like a prediction column
    pd.DataFrame({"label": df.label, "score": df.score, "weight": np.where(df.site == "east", 3, 1),
                  "prediction": df.sex}).to_csv(path, index=False)
    out = tmp_path / "out.json"
    code, _, stderr = cli(capsys, "report", path, "--by", "weight,prediction", "--json", out)
    assert code == 0, stderr
    assert "detected columns: y_true = label; y_score = score" in stderr
    data = json.loads(out.read_text())
    assert data["total_weight"] == len(df) and data["columns"]["sample_weight"] is None
    assert data["columns"]["y_pred"] is None and data["columns"]["groups"] == ["weight", "prediction"]
    assert data["groups"]["n_groups"] == 4


def test_multiclass_predictions_are_sorted_by_balanced_accuracy(capsys, tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    n = 300
    y = rng.choice(["a", "b", "c"], n)
    pred = np.where(rng.random(n) < 0.7, y, rng.choice(["a", "b", "c"], n))
    site = rng.choice(["x", "y"], n)
    path = tmp_path / "mc.csv"
    pd.DataFrame({"y_true": y, "y_pred": pred, "site": site}).to_csv(path, index=False)
    code, stdout, stderr = cli(capsys, "report", path, "--by", "site")
    assert code == 0, stderr
    ev = clfeval.evaluate(y, pred, groups=site)
    text = section(stdout, "By group: site")
    assert "worst first by balanced accuracy" in text and "F1 (macro)" in text and "AUC" not in text
    for name, group_ev in ev.by_group.items():
        assert row_of(text, name)[2] == f"{group_ev.report.overall['balanced_accuracy']:.4f}"
    assert "Fairness" not in stdout  # binary only


# ---------------------------------------------------------------- groups that are hard to compare


def test_a_single_group_works_and_says_there_is_nothing_to_compare(capsys, tmp_path: Path) -> None:
    path = tmp_path / "one.csv"
    frame().assign(site="all").to_csv(path, index=False)
    out = tmp_path / "out.json"
    code, stdout, stderr = cli(capsys, "report", path, "--by", "site", "--json", out)
    assert code == 0, stderr
    assert "By group: site · 1 group" in stdout
    assert "note: only one group (site = all): there is nothing to compare it with" in stdout
    assert "against the overall" not in stdout and "Fairness" not in stdout
    data = json.loads(out.read_text())["groups"]
    assert data["n_groups"] == 1 and data["gaps"] == {} and "fairness" not in data
    assert data["table"]["rows"][0]["roc_auc"] == pytest.approx(clfeval.evaluate(
        frame().label, y_score=frame().score).report.overall["roc_auc"], abs=1e-12)


def test_groups_of_one_class_have_undefined_numbers_with_the_reason(capsys, tmp_path: Path) -> None:
    df = frame()
    df.loc[df.site == "east", "label"] = 0  # east holds negatives only
    path = tmp_path / "p.csv"
    df.to_csv(path, index=False)
    out = tmp_path / "out.json"
    code, stdout, stderr = cli(capsys, "report", path, "--by", "site", "--json", out)
    assert code == 0, stderr
    text = section(stdout, "By group: site")
    cells = row_of(text, "east")
    assert cells[2] == "0" and cells[3] == "nan"  # no positives, so no AUC
    assert "note: AUC is undefined (nan) in 1 group (east): only one class present in the group" in stdout
    assert "note: TPR is undefined (nan) in 1 group (east): no true samples (class 1)" in stdout
    rows = {r["group"]: r for r in json.loads(out.read_text())["groups"]["table"]["rows"]}
    assert rows["east"]["roc_auc"] is None and rows["east"]["recall"] is None
    assert any("roc_auc: undefined" in n for n in rows["east"]["notes"])


def test_missing_group_values_are_an_error_that_names_column_count_and_row(capsys, tmp_path: Path) -> None:
    df = frame(60)
    df["site"] = df.site.astype(object)
    df.loc[[4, 9, 30], "site"] = None
    path = tmp_path / "p.csv"
    df.to_csv(path, index=False)
    out = tmp_path / "out.json"
    code, stdout, stderr = cli(capsys, "report", path, "--by", "sex,site", "--json", out)
    assert code == 1
    assert error_line(stderr) == (
        f"clfeval: error: {path}: --by column 'site' has 3 missing values (empty, NaN or null), the first at data "
        "row 5; give --by-missing keep to make them a group of their own ('(missing)'), or fill or drop those rows")
    assert not out.exists() and stdout == ""
    # kept: a group of their own
    code, stdout, stderr = cli(capsys, "report", path, "--by", "site", "--by-missing", "keep", "--json", out)
    assert code == 0, stderr
    rows = {r["group"]: r for r in json.loads(out.read_text())["groups"]["table"]["rows"]}
    assert rows["(missing)"]["n"] == 3 and rows["(missing)"]["key"] is None
    assert "(missing)" in section(stdout, "By group: site")


def test_blank_text_is_a_missing_group_value(capsys, tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_text("label,score,site\n1,0.9,a\n0,0.2,b\n1,0.4, \n0,0.7,a\n")
    code, _, stderr = cli(capsys, "report", path, "--by", "site")
    assert code == 1
    assert "--by column 'site' has a missing value (empty, NaN or null), the first at data row 3" in error_line(stderr)


def test_more_groups_than_the_tables_keep(capsys, tmp_path: Path) -> None:
    n_groups, rng = 10_001, np.random.default_rng(0)
    y = np.tile([0, 1], n_groups)
    pred = np.where(rng.random(y.size) < 0.8, y, 1 - y)
    path = tmp_path / "many.csv"
    pd.DataFrame({"label": y, "pred": pred, "g": np.repeat(np.arange(n_groups), 2)}).to_csv(path, index=False)
    out = tmp_path / "out.json"
    code, stdout, stderr = cli(capsys, "report", path, "--by", "g", "--json", out)
    assert code == 0, stderr
    assert ("clfeval: note: 10,001 groups by g: every group is evaluated, but the tables (terminal and JSON) keep "
            "the 10,000 worst by balanced accuracy and only count the other 1") in stderr
    text = section(stdout, "By group: g")
    assert "10,001 groups · worst first by balanced accuracy" in text
    assert len([line for line in text.splitlines() if line.split() and line.split()[0].isdigit()]) == 30
    words = " ".join(text.split())  # the caption wraps at the terminal's width
    assert f"... 9,971 more groups not shown; the JSON ({out}) has the 10,000 worst, with every metric (the other " \
           "1 is only counted)" in words
    data = json.loads(out.read_text())["groups"]
    assert data["n_groups"] == n_groups and data["table"]["omitted"] == 1 and len(data["table"]["rows"]) == 10_000
    worst = min(r["balanced_accuracy"] for r in data["table"]["rows"])
    assert row_of(text, text.splitlines()[3].split()[0])[3] == f"{worst:.4f}"


# ---------------------------------------------------------------- usage errors


@pytest.mark.parametrize(("options", "line"), [
    (["--by", "sitee"], "{path}: --by 'sitee': no such column; did you mean 'site'? (columns: label, score, site, sex)"),
    (["--by", "site,sexx"], "{path}: --by 'sexx': no such column; did you mean 'sex'? (columns: label, score, site, sex)"),
    (["--by", "site,site"], "--by site,site: the column 'site' is named twice; name each group column once"),
    (["--by=site, sex,site"], "--by site, sex,site: the column 'site' is named twice; name each group column once"),
    (["--by", "site,,sex"], "--by site,,sex: an empty column name; give the group columns separated by commas"),
    (["--by-missing", "keep"], "--by-missing keep: applies to the groups of --by; give --by COL[,COL...] too"),
    (["--by-metric", "recall"], "--by-metric recall: applies to the groups of --by; give --by COL[,COL...] too"),
    (["--by", "site", "--by-metric", "recal"], "--by-metric recal: unknown metric 'recal'; use one of accuracy,"),
    (["--by", "site", "--by-metric", "recall.z"], "--by-metric recall.z: 'recall.z': 'z' is neither an average"),
    (["--by", "sitee", "--stream"], "{path}: --by 'sitee': no such column; did you mean 'site'?"),
])
def test_bad_group_options_are_usage_errors(capsys, preds: Path, tmp_path: Path, options: list[str],
                                            line: str) -> None:
    out = tmp_path / "out.json"
    code, _, stderr = cli(capsys, "report", preds, *options, "--json", out)
    assert code == 2, stderr
    assert error_line(stderr).startswith("clfeval: error: " + line.format(path=preds)), stderr
    assert not out.exists()


def test_a_metric_that_needs_scores(capsys, tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_text("label,pred,site\n1,1,a\n0,0,b\n1,0,a\n0,1,b\n")
    code, _, stderr = cli(capsys, "report", path, "--by", "site", "--by-metric", "roc_auc")
    assert code == 2
    assert error_line(stderr) == ("clfeval: error: --by-metric roc_auc: 'roc_auc' needs scores: name a score column "
                                  "with --y-score COL.")


# ---------------------------------------------------------------- the other engines: a stream, Dask


def assert_same_groups(data: dict, want: clfeval.Evaluation) -> None:
    """The JSON entry "groups" holds ``want``'s group numbers (every metric of its table)."""
    table = want.by_group.table(data["table"]["metrics"])
    rows = {r["group"]: r for r in data["table"]["rows"]}
    assert sorted(rows) == sorted(table.groups)
    for i, name in enumerate(table.groups):
        assert rows[name]["n"] == table.n[i]
        for j, m in enumerate(table.metrics):
            value = rows[name][m]
            assert (value is None and math.isnan(table.values[i, j])) or value == pytest.approx(table.values[i, j],
                                                                                               abs=1e-12), (name, m)


def test_a_streamed_file_gives_each_groups_numbers_and_says_why_there_are_no_gaps(capsys, preds: Path,
                                                                                  tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    code, stdout, stderr = cli(capsys, "report", preds, "--by", "site,sex", "--stream", "--batch-rows", "70",
                               "--json", out)
    assert code == 0, stderr
    assert "streamed" in stderr
    data = json.loads(out.read_text())["groups"]
    assert_same_groups(data, library(frame(), ["site", "sex"]))
    assert "keeps counts, not rows" in data["gaps"]["roc_auc"]["error"]
    assert "note: no gaps of ROC AUC to the overall: the file was streamed (or evaluated with Dask), which keeps " \
           "counts, not rows" in " ".join(stdout.split())
    assert data["fairness"]["summaries"]["demographic_parity_difference"]["value"] == pytest.approx(
        library(frame(), ["site", "sex"]).by_group.fairness()["demographic_parity_difference"], abs=1e-12)


def test_a_missing_group_value_of_a_later_batch_names_its_row(capsys, tmp_path: Path) -> None:
    df = frame(100)
    df["site"] = df.site.astype(object)
    df.loc[[57, 80], "site"] = None
    path = tmp_path / "p.csv"
    df.to_csv(path, index=False)
    code, _, stderr = cli(capsys, "report", path, "--by", "site", "--stream", "--batch-rows", "25")
    assert code == 1
    assert error_line(stderr) == (f"clfeval: error: {path}: --by column 'site' has a missing value (empty, NaN or "
                                  "null), the first at data row 58; give --by-missing keep to make them a group of "
                                  "their own ('(missing)'), or fill or drop those rows")


def test_a_directory_is_streamed_with_its_groups(capsys, tmp_path: Path) -> None:
    folder = tmp_path / "parts"
    folder.mkdir()
    parts = [frame(200, seed=i) for i in range(2)]
    for i, part in enumerate(parts):
        part.to_csv(folder / f"part{i}.csv", index=False)
    out = tmp_path / "out.json"
    code, _, stderr = cli(capsys, "report", folder, "--by", "site", "--json", out)
    assert code == 0, stderr
    assert "a directory of 2 csv files" in stderr
    assert_same_groups(json.loads(out.read_text())["groups"], library(pd.concat(parts), ["site"]))


def test_dask_evaluates_the_groups(capsys, preds: Path, tmp_path: Path) -> None:
    pytest.importorskip("dask.dataframe")
    out = tmp_path / "out.json"
    code, _, stderr = cli(capsys, "report", preds, "--by", "site", "--scheduler", "synchronous", "--json", out)
    assert code == 0, stderr
    assert "with Dask" in stderr
    assert_same_groups(json.loads(out.read_text())["groups"], library(frame(), ["site"]))
    # a group column the Dask reader would take for the weights
    path = tmp_path / "w.csv"
    frame().rename(columns={"site": "weight"}).to_csv(path, index=False)
    code, _, stderr = cli(capsys, "report", path, "--by", "weight", "--scheduler", "synchronous")
    assert code == 2
    assert error_line(stderr).startswith("clfeval: error: --by weight with --scheduler: the Dask engine would also "
                                         "read column 'weight' as the sample weights")


def test_the_entry_point_prints_one_line(preds: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "clfeval", "report", str(preds), "--by", "nope"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines()[-1].startswith("clfeval: error: ") and "Traceback" not in r.stderr


# ---------------------------------------------------------------- compare --by


def compare_frame(n: int = 400, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    site = rng.choice(["a", "b", "c"], n)
    a = np.round(1 / (1 + np.exp(-(2 * y - 1 + 1.5 * rng.normal(size=n)))), 4)
    b = np.round(1 / (1 + np.exp(-(2 * y - 1 + np.where(site == "c", 3.0, 0.8) * rng.normal(size=n)))), 4)
    df = pd.DataFrame({"label": y, "a": a, "b": b, "site": site})
    df.loc[df.site == "c", "label"] = np.where(np.arange((df.site == "c").sum()) == 0, 1, 0)  # c: one positive
    return df


def test_compare_by_tests_each_group_and_adjusts_by_holm(capsys, tmp_path: Path) -> None:
    df = compare_frame()
    path = tmp_path / "m.csv"
    df.to_csv(path, index=False)
    out = tmp_path / "out.json"
    code, stdout, stderr = cli(capsys, "compare", path, "--model", "A=a", "--model", "B=b", "--by", "site",
                               "--json", out)
    assert code == 0, stderr
    text = section(stdout, "Paired tests by group: A vs B (site · 3 groups)")
    rows = json.loads(out.read_text())["group_tests"]
    assert rows["columns"] == ["site"] and rows["n_groups"] == 3
    y = df.label.to_numpy()
    pa, pb = (df.a.to_numpy() >= 0.5).astype(int), (df.b.to_numpy() >= 0.5).astype(int)
    mc = {g: mcnemar(y[df.site == g], pa[df.site == g], pb[df.site == g]) for g in "abc"}
    adjusted = dict(zip("abc", holm([mc[g].pvalue for g in "abc"]).adjusted))
    by_test = {(r["group"], r["test"]): r for r in rows["rows"]}
    for g in "abc":
        r = by_test[(g, "McNemar (accuracy)")]
        assert r["pvalue"] == pytest.approx(mc[g].pvalue, abs=1e-12)
        assert r["estimate"] == pytest.approx(mc[g].estimate, abs=1e-12)
        assert r["pvalue_holm"] == pytest.approx(adjusted[g], abs=1e-12)
        assert r["n"] == int((df.site == g).sum())
    # DeLong where the group holds both classes twice; a note and NaN where it does not (group c)
    dl = {g: delong(y[df.site == g], df.a[df.site == g].to_numpy(), df.b[df.site == g].to_numpy()) for g in "ab"}
    adjusted = dict(zip("ab", holm([dl[g].pvalue for g in "ab"]).adjusted))
    for g in "ab":
        r = by_test[(g, "DeLong (ROC AUC)")]
        assert r["pvalue"] == pytest.approx(dl[g].pvalue, abs=1e-12)
        assert r["pvalue_holm"] == pytest.approx(adjusted[g], abs=1e-12)
    c = by_test[("c", "DeLong (ROC AUC)")]
    assert c["pvalue"] is None and "at least 2 positive and 2 negative cases" in c["note"]
    assert "note: c, DeLong (ROC AUC): delong: DeLong's variance needs at least 2 positive" in stdout
    line = next(x for x in text.splitlines() if x.startswith("a ") and "McNemar" in x)
    assert f"{by_test[('a', 'McNemar (accuracy)')]['estimate']:+.4f}" in line


def test_compare_by_bad_input(capsys, tmp_path: Path) -> None:
    df = compare_frame(60)
    path = tmp_path / "m.csv"
    df.to_csv(path, index=False)
    out = tmp_path / "out.json"
    models = ["--model", "A=a", "--model", "B=b"]
    code, _, stderr = cli(capsys, "compare", path, *models, "--by", "sitex", "--json", out)
    assert code == 2 and "--by 'sitex': no such column; did you mean 'site'?" in error_line(stderr)
    code, _, stderr = cli(capsys, "compare", path, *models, "--by", "site,site")
    assert code == 2 and "--by site,site: the column 'site' is named twice" in error_line(stderr)
    df["site"] = df.site.astype(object)
    df.loc[7, "site"] = None
    df.to_csv(path, index=False)
    code, _, stderr = cli(capsys, "compare", path, *models, "--by", "site", "--json", out)
    assert code == 1
    assert error_line(stderr) == (f"clfeval: error: {path}: --by column 'site' has a missing value (empty, NaN or "
                                  "null), the first at data row 8; give --by-missing keep to make them a group of "
                                  "their own ('(missing)'), or fill or drop those rows")
    assert not out.exists()
    code, stdout, stderr = cli(capsys, "compare", path, *models, "--by", "site", "--by-missing", "keep")
    assert code == 0, stderr
    assert row_of(section(stdout, "Paired tests by group"), "(missing)")[1:4] == ["McNemar", "(accuracy)", "1"]


def test_the_html_page_shows_the_groups_with_their_intervals(capsys, preds: Path, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    code, _, stderr = cli(capsys, "report", preds, "--by", "site", "--by-metric", "recall", "--html", page)
    assert code == 0, stderr
    text = page.read_text()
    assert "By group" in text and "worst first by recall" in text
    low = library(frame(), ["site"]).by_group.table(["recall"], ci=0.95).low
    assert f"{low[0, 0]:.3f}" in text  # each group's interval, although the terminal was asked for none
