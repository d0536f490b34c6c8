"""`clfeval report` on large files and directories: record batches streamed into a
StreamingEvaluation give the numbers (JSON and terminal report) of the in-memory path.

Most runs call :func:`clfeval.cli.main` in this process (fast); the progress bar and the memory
test run the command in a child process.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pcsv = pytest.importorskip("pyarrow.csv")
feather = pytest.importorskip("pyarrow.feather")

from clfeval.cli import main  # noqa: E402
from clfeval.inputs.tabular import InputFileError, iter_prediction_batches, read_predictions  # noqa: E402

ENTRY = shutil.which("clfeval")
COMMAND = [ENTRY] if ENTRY else [sys.executable, "-m", "clfeval"]


# ---------------------------------------------------------------- helpers


def cli(*args: Any) -> tuple[int, str, str]:
    """Run ``clfeval`` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([str(a) for a in args])
        except SystemExit as exc:  # usage errors
            status = exc.code
    return status, out.getvalue(), err.getvalue()


def write(table: Any, path: Path) -> Path:
    """The table as CSV, Parquet or Feather, by the file's suffix."""
    if path.suffix == ".csv":
        pcsv.write_csv(table, path)
    elif path.suffix == ".parquet":
        pq.write_table(table, path)
    else:
        feather.write_feather(table, path)
    return path


def binary_table(n: int = 1000, seed: int = 0, weights: bool = False) -> Any:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1), 3)  # rounded: ties across batches
    cols = {"label": y, "score": s}
    if weights:
        cols["weight"] = np.round(rng.random(n) * 3, 3)
    return pa.table(cols)


def multiclass_table(n: int = 900, seed: int = 1) -> Any:
    rng = np.random.default_rng(seed)
    order = ["cat", "ant", "bee"]
    codes = rng.integers(0, 3, n)
    prob = rng.random((n, 3)) + np.eye(3)[codes]
    prob /= prob.sum(axis=1, keepdims=True)
    return pa.table({"y_true": np.array(order)[codes], **{f"proba_{c}": prob[:, i] for i, c in enumerate(order)}})


def in_memory_and_streamed(path: Path, tmp_path: Path, *options: Any, stream: tuple[Any, ...] = ("--stream",)
                           ) -> tuple[tuple[int, str, str, dict], tuple[int, str, str, dict]]:
    """Both paths on the same file, each writing the same JSON path: (status, out, err, json) twice."""
    out = tmp_path / "out.json"
    results = []
    for extra in ((), stream):
        status, stdout, stderr = cli("report", path, "--json", out, *options, *extra)
        assert status == 0, stderr
        results.append((status, stdout, stderr, json.loads(out.read_text())))
        out.unlink()
    return results[0], results[1]


def assert_same(a: Any, b: Any, rel: float = 0.0, where: str = "") -> None:
    """Equal JSON; floats to ``rel`` relative tolerance (0: exactly)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), f"{where}: keys {list(a)} != {list(b)}"
        for k in a:
            assert_same(a[k], b[k], rel, f"{where}/{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), f"{where}: lengths differ"
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, rel, f"{where}[{i}]")
    elif isinstance(a, float) and isinstance(b, float) and rel:
        assert b == pytest.approx(a, rel=rel, abs=rel), where
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


# ---------------------------------------------------------------- same numbers as in memory


@pytest.mark.parametrize("suffix", [".csv", ".parquet", ".feather"])
def test_streamed_binary_scores_equal_the_in_memory_report(tmp_path: Path, suffix: str) -> None:
    path = write(binary_table(1000), tmp_path / f"preds{suffix}")
    memory, streamed = in_memory_and_streamed(path, tmp_path, stream=("--stream", "--batch-rows", "97"))
    assert "streamed" not in memory[2]
    assert f"clfeval: streamed {path} (--stream): 1,000 rows in 11 batches of at most 97 rows" in streamed[2]
    assert "detected columns: y_true = label; y_score = score" in streamed[2]
    assert streamed[1] == memory[1]  # the terminal report
    assert_same(memory[3], streamed[3])


def test_directory_of_parquet_files_is_one_table(tmp_path: Path) -> None:
    table = binary_table(1000, seed=3)
    whole = write(table, tmp_path / "whole.parquet")
    folder = tmp_path / "parts"
    (folder / "part-2").mkdir(parents=True)
    cuts = [0, 130, 600, 1000]
    for i, (a, b) in enumerate(zip(cuts, cuts[1:])):  # uneven parts, one in a subfolder (sorted by path)
        write(table.slice(a, b - a), folder / ("part-2/data.parquet" if i == 2 else f"part-{i}.parquet"))
    (folder / "_SUCCESS").write_text("")  # markers of Spark and Dask writers are passed over
    (folder / ".part-0.parquet.crc").write_text("x")
    memory = cli("report", whole, "--name", "m", "--json", tmp_path / "m.json")
    streamed = cli("report", folder, "--name", "m", "--batch-rows", "250", "--json", tmp_path / "s.json")
    assert memory[0] == streamed[0] == 0, streamed[2]
    assert f"streamed {folder} (a directory of 3 parquet files): 1,000 rows in 5 batches" in streamed[2]
    assert_same(json.loads((tmp_path / "m.json").read_text()), json.loads((tmp_path / "s.json").read_text()))
    # the in-memory reader takes a directory too: the same rows, in file order
    p = read_predictions(folder)
    assert p.n_rows == 1000 and p.path == folder
    np.testing.assert_array_equal(p.y_score, table.column("score").to_numpy())


def test_multiclass_per_class_scores_costs_and_calibration(tmp_path: Path) -> None:
    path = write(multiclass_table(900), tmp_path / "m.parquet")
    cost = "0,1,2;1,0,1;4,1,0"
    memory, streamed = in_memory_and_streamed(path, tmp_path, "--cost", cost,
                                              stream=("--stream", "--batch-rows", "101"))
    data = streamed[3]
    assert data["labels"] == ["cat", "ant", "bee"] and data["task"] == "multiclass"
    assert data["calibration"] is not None and "error" not in data["calibration"]
    # Hand & Till's M: the stream keeps each column's k-class cells (clfeval.statistics.class_cells),
    # so it has M and the weighted variant of all rows, to the last bit (integer counts)
    for key, title in {"ovo_auc": "Hand-Till AUC", "ovo_auc_weighted": "weighted OvO AUC"}.items():
        assert data["report"]["overall"][key] == memory[3]["report"]["overall"][key] > 0.5
        assert title in streamed[1] and title in memory[1]

    # a multi-class stream keeps a histogram: its smooth ECE and CORP run over the bins (and say so),
    # in memory over the distinct probabilities (bounds in tests/test_smooth_ece.py, tests/test_corp.py)
    assert "over 2520 equal-width bins" in " ".join(streamed[1].split())
    assert data["calibration"]["corp"]["grouping"].startswith("2520 equal-width bins")
    for d in (memory[3], data):
        d["calibration"].pop("smooth_ece"), d["calibration"].pop("corp")

    def words(out: str) -> str:  # the report but its smooth ECE / CORP line (over bins in the stream)
        kept = " ".join(" ".join(line.split()) for line in out.splitlines())
        return re.sub(r"smooth ECE .*? log score \S+ = MCB \S+ - DSC \S+ \+ UNC \S+", "", kept)

    assert words(streamed[1]) == words(memory[1])
    assert_same(memory[3], data, rel=1e-12)


def test_predictions_only_with_classes_that_appear_late(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    names = np.array(["ant", "bee", "cat", "dog"])
    y = np.sort(rng.integers(0, 4, 700))  # sorted: the first batches hold one class only
    pred = np.where(rng.random(700) < 0.7, y, rng.integers(0, 4, 700))
    path = write(pa.table({"truth": names[y], "prediction": names[pred]}), tmp_path / "p.csv")
    memory, streamed = in_memory_and_streamed(path, tmp_path, stream=("--stream", "--batch-rows", "64"))
    assert streamed[3]["labels"] == ["ant", "bee", "cat", "dog"]
    assert streamed[1] == memory[1]
    assert_same(memory[3], streamed[3])


def test_weights_agree_to_rounding(tmp_path: Path) -> None:
    path = write(binary_table(1000, seed=7, weights=True), tmp_path / "w.parquet")
    memory, streamed = in_memory_and_streamed(path, tmp_path, stream=("--stream", "--batch-rows", "77"))
    assert "sample_weight = weight" in streamed[2]
    assert memory[3]["total_weight"] == pytest.approx(streamed[3]["total_weight"], rel=1e-12)
    assert_same(memory[3], streamed[3], rel=1e-9)


def test_threshold_rule_and_number_are_streamed(tmp_path: Path) -> None:
    path = write(binary_table(800, seed=2), tmp_path / "b.feather")
    for threshold in ("youden", "0.3"):
        memory, streamed = in_memory_and_streamed(path, tmp_path, "--threshold", threshold, "--beta", "2",
                                                  stream=("--stream", "--batch-rows", "150"))
        assert streamed[1] == memory[1]
        assert_same(memory[3], streamed[3])


def test_first_batches_without_every_class_or_score_kind(tmp_path: Path) -> None:
    """A file sorted by label (the first batch holds one class), and decision values that look like
    probabilities in the first batch: the stream learns both from every row and reads again."""
    rng = np.random.default_rng(9)
    y = np.sort(rng.integers(0, 2, 600))
    s = rng.random(600)
    s[400:] -= 0.5  # decision values from row 401 on: the default threshold is 0, as in memory
    path = write(pa.table({"y_true": y, "y_score": s}), tmp_path / "sorted.parquet")
    memory, streamed = in_memory_and_streamed(path, tmp_path, stream=("--stream", "--batch-rows", "100"))
    assert "the first rows did not show every class or the kind of scores" in streamed[2]
    assert memory[3]["threshold"] == streamed[3]["threshold"] == 0.0
    assert_same(memory[3], streamed[3])


# ---------------------------------------------------------------- when to stream


def test_memory_budget_switch(tmp_path: Path) -> None:
    path = write(binary_table(500), tmp_path / "b.csv")
    status, _, err = cli("report", path)
    assert status == 0 and "streamed" not in err
    status, _, err = cli("report", path, "--memory-budget", "1KiB")
    assert status == 0
    notice = next(line for line in err.splitlines() if "streamed" in line)
    assert notice.startswith(f"clfeval: streamed {path} (in memory it would take about ")
    assert "over --memory-budget 1.0 KiB): 500 rows in 1 batch of at most 1,000,000 rows" in notice
    status, _, err = cli("report", path, "--memory-budget", "lots")
    assert status == 2 and "--memory-budget: 'lots': give a size such as 512MiB" in err


def test_bins_stream_with_binned_scores(tmp_path: Path) -> None:
    table = binary_table(2000, seed=4)
    table = table.set_column(1, "score", pa.array(np.random.default_rng(4).random(2000) * 0.5
                                                  + 0.5 * table.column("label").to_numpy()))
    path = write(table, tmp_path / "b.parquet")
    memory, streamed = in_memory_and_streamed(path, tmp_path, stream=("--bins", "6"))
    assert "scores binned (6 mantissa bits, relative bin width 2^-6)" in streamed[2]
    exact, binned = memory[3]["report"]["overall"]["roc_auc"], streamed[3]["report"]["overall"]["roc_auc"]
    assert binned == pytest.approx(exact, abs=0.02)
    assert streamed[3]["confusion"] == memory[3]["confusion"]  # predictions come from the unbinned scores
    bounds = streamed[3]["binning"]["1"]
    assert bounds["auc_low"] <= exact <= bounds["auc_high"] and bounds["auc"] == binned
    exact_ap = memory[3]["report"]["overall"]["average_precision"]
    assert bounds["ap_low"] <= exact_ap <= bounds["ap_high"]
    assert "Binned scores: the unbinned values lie within the bounds" in streamed[1]
    assert "Binned scores" not in memory[1]
    status, _, err = cli("report", path, "--bins", "0")
    assert status == 2 and "--bins: '0': give the mantissa bits" in err
    status, _, err = cli("report", path, "--bins", "8", "--exact")
    assert status == 2 and "not allowed with argument" in err


def test_help_lists_the_streaming_options() -> None:
    status, out, _ = cli("report", "--help")
    assert status == 0
    assert "large files:" in out
    for option in ("--stream", "--memory-budget SIZE", "--batch-rows N", "--exact", "--bins BITS",
                   "--scheduler ADDRESS"):
        assert option in out


# ---------------------------------------------------------------- what a stream cannot give


def test_intervals_of_a_stream(tmp_path: Path) -> None:
    path = write(binary_table(600), tmp_path / "b.parquet")
    memory, streamed = in_memory_and_streamed(path, tmp_path, "--ci", stream=("--stream", "--batch-rows", "100"))
    assert_same(memory[3]["intervals"]["overall"], streamed[3]["intervals"]["overall"], rel=1e-12)
    assert_same(memory[3]["intervals"]["per_class"], streamed[3]["intervals"]["per_class"], rel=1e-12)
    status, _, err = cli("report", path, "--stream", "--ci", "bootstrap")
    assert status == 2
    assert f"--ci bootstrap: {path} is streamed (--stream), and a stream keeps counts, not rows" in err
    assert "leave out --stream to read the file in memory" in err
    multi = write(multiclass_table(300), tmp_path / "m.parquet")
    status, _, err = cli("report", multi, "--stream", "--ci")
    assert status == 2 and "--ci analytic (binary, unweighted) only" in err
    weighted = write(binary_table(300, weights=True), tmp_path / "w.parquet")
    status, _, err = cli("report", weighted, "--stream", "--ci")
    assert status == 2 and "intervals of weighted rows need each row's weight" in err


def test_html_and_png_of_a_streamed_file(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = write(multiclass_table(300), tmp_path / "m.parquet")
    status, _, err = cli("report", path, "--stream", "--batch-rows", "64", "--html", tmp_path / "r.html",
                         "--png", tmp_path / "png", "--cost", "0,1,1;1,0,1;1,1,0")
    assert status == 0, err
    assert "<html" in (tmp_path / "r.html").read_text()[:500].lower()
    assert (tmp_path / "png" / "roc.png").stat().st_size > 0


# ---------------------------------------------------------------- errors


def test_directory_errors(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("not data")
    status, _, err = cli("report", empty)
    assert status == 1 and f"{empty}: no CSV, Parquet or Feather file in the directory" in err

    mixed = tmp_path / "mixed"
    mixed.mkdir()
    write(binary_table(50), mixed / "a.parquet")
    write(binary_table(50), mixed / "b.csv")
    status, _, err = cli("report", mixed)
    assert status == 1 and "the directory mixes file formats (1 parquet (a.parquet); 1 csv (b.csv))" in err

    missing = tmp_path / "missing"
    missing.mkdir()
    write(binary_table(50), missing / "a.parquet")
    write(binary_table(50).rename_columns(["label", "proba"]), missing / "b.parquet")
    status, _, err = cli("report", missing)
    assert status == 1
    assert f"{missing / 'b.parquet'}: no column 'score' (y_score), which a.parquet has" in err

    kinds = tmp_path / "kinds"
    kinds.mkdir()
    write(binary_table(50), kinds / "a.parquet")
    t = binary_table(50)
    write(t.set_column(0, "label", pa.array(np.where(t.column("label").to_numpy() == 1, "yes", "no"))),
          kinds / "b.parquet")
    status, _, err = cli("report", kinds)
    assert status == 1 and "column 'label' (y_true) holds text, but in a.parquet it holds integers" in err


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".feather"])
def test_missing_value_in_a_later_batch_names_the_row(tmp_path: Path, suffix: str) -> None:
    t = binary_table(1000)
    scores = t.column("score").to_numpy().copy()
    scores[[730, 900]] = np.nan
    path = write(t.set_column(1, "score", pa.array(scores, mask=np.isnan(scores))), tmp_path / f"n{suffix}")
    expected = f"{path}: column 'score' has a NaN or missing score at data row 731"
    status, _, err = cli("report", path)
    assert status == 1 and f"{expected} (and 1 more)" in err
    status, _, err = cli("report", path, "--stream", "--batch-rows", "100")
    assert status == 1 and f"{expected}\n" in err  # the row 901 is in another batch
    status, _, err = cli("report", path, "--stream", "--batch-rows", "500")  # rows 501-1000: both
    assert status == 1 and f"{expected} (and at least 1 more)" in err


def test_missing_value_in_a_directory_names_the_file_and_both_rows(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    t = binary_table(600)
    write(t.slice(0, 250), folder / "a.parquet")
    labels = t.column("label").to_numpy()[250:]
    write(pa.table({"label": pa.array(labels, mask=np.arange(350) == 40), "score": t.column("score")[250:]}),
          folder / "b.parquet")
    status, _, err = cli("report", folder, "--batch-rows", "100")
    assert status == 1
    where = "data row 41 (row 291 of the directory)"
    assert f"{folder / 'b.parquet'}: column 'label' has a missing value at {where}" in err


def test_csv_value_that_is_not_a_number_far_down(tmp_path: Path) -> None:
    """A streamed CSV is parsed block by block: a bad value past the first block still gets the
    in-memory reader's message and row."""
    path = tmp_path / "late.csv"
    rows = "".join(f"{i % 2},{i % 2}\n" for i in range(300_000))  # scores that look like integers at first
    path.write_text("label,score\n" + rows + "1,0.25\n0,oops\n")
    status, _, err = cli("report", path)
    assert status == 1 and f"{path}: column 'score', data row 300002: 'oops' is not a number" in err
    status, _, err = cli("report", path, "--stream", "--batch-rows", "50000")
    assert status == 1 and f"{path}: column 'score', data row 300002: 'oops' is not a number" in err


def test_a_batch_the_stream_refuses_names_its_rows(tmp_path: Path) -> None:
    t = pa.table({"label": np.repeat([0, 1, 2], 100), "score": np.linspace(0, 1, 300)})
    path = write(t, tmp_path / "three.parquet")
    status, _, err = cli("report", path, "--stream", "--batch-rows", "100")
    assert status == 1
    # the classes are learnt from every row (the third first shows at row 201): no batch's rows are named
    assert f"{path}: column 'label' holds 3 classes (0, 1, 2), so give one score column per class" in err
    assert "data rows" not in err and "y_score" not in err


def test_empty_stream(tmp_path: Path) -> None:
    path = tmp_path / "h.csv"
    path.write_text("label,score\n")
    status, _, err = cli("report", path, "--stream")
    assert status == 1 and f"{path}: the file has no data rows" in err


# ---------------------------------------------------------------- the batch reader


def test_iter_prediction_batches(tmp_path: Path) -> None:
    table = binary_table(1000, weights=True)
    folder = tmp_path / "d"
    folder.mkdir()
    write(table.slice(0, 450), folder / "a.feather")
    write(table.slice(450), folder / "b.feather")
    batches = iter_prediction_batches(folder, batch_rows=200)
    assert batches.is_directory and batches.format == "feather" and batches.n_rows == 1000
    assert batches.score_columns == ["score"] and batches.weight_column == "weight"
    assert batches.estimated_memory == 1000 * 24
    got = [(b.path.name, b.first_row, b.folder_row, b.n_rows) for b in batches]
    assert got == [("a.feather", 0, 0, 200), ("a.feather", 200, 200, 200), ("a.feather", 400, 400, 50),
                   ("b.feather", 0, 450, 200), ("b.feather", 200, 650, 200), ("b.feather", 400, 850, 150)]
    again = list(batches)  # each iteration reads again
    np.testing.assert_array_equal(np.concatenate([b.sample_weight for b in again]), table.column("weight").to_numpy())
    small = tmp_path / "small_batches.feather"
    feather.write_feather(table, small, chunksize=64)  # record batches of 64 rows, regrouped
    assert [b.n_rows for b in iter_prediction_batches(small, batch_rows=300)] == [300, 300, 300, 100]
    with pytest.raises(ValueError, match="batch_rows must be a positive integer"):
        iter_prediction_batches(folder, batch_rows=0)
    with pytest.raises(InputFileError, match="--y-score 'scor': no such column; did you mean 'score'"):
        iter_prediction_batches(folder, y_score="scor")


def test_progress_bar_over_a_streamed_directory(tmp_path: Path) -> None:
    folder = tmp_path / "parts"
    folder.mkdir()
    table = binary_table(3000)
    for i in range(3):
        write(table.slice(1000 * i, 1000), folder / f"p{i}.parquet")
    env = {**os.environ, "FORCE_COLOR": "1", "TTY_INTERACTIVE": "1", "COLUMNS": "100"}
    r = subprocess.run([*COMMAND, "report", str(folder), "--progress", "--batch-rows", "500"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "reading parts" in r.stderr and "3,000/3,000 rows" in r.stderr


# ---------------------------------------------------------------- --scheduler


def test_scheduler_calls_clfeval_dask_with_the_options(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import clfeval

    path = write(binary_table(400), tmp_path / "b.parquet")
    calls: list[dict[str, Any]] = []

    def evaluate_file(file: Any, **kwargs: Any) -> Any:
        calls.append({"file": file, **kwargs})
        data = read_predictions(file, y_true=kwargs["y_true"], y_score=kwargs["y_score"])
        options = {k: kwargs[k] for k in ("labels", "pos_label", "threshold", "name") if k in kwargs}
        return clfeval.evaluate(data.y_true, y_score=data.y_score, **options)

    monkeypatch.setitem(sys.modules, "clfeval.dask", types.SimpleNamespace(evaluate_file=evaluate_file))
    status, out, err = cli("report", path, "--scheduler", "tcp://10.0.0.1:8786", "--labels", "0,1",
                           "--threshold", "0.4", "--bins", "12", "--json", tmp_path / "d.json")
    assert status == 0, err
    assert calls == [{"file": str(path), "scheduler": "tcp://10.0.0.1:8786", "y_true": "label", "y_score": ["score"],
                      "labels": [0, 1], "threshold": 0.4, "name": "b", "mode": "binned", "bits": 12}]
    assert f"clfeval: evaluated {path} with Dask (scheduler tcp://10.0.0.1:8786)" in err
    assert json.loads((tmp_path / "d.json").read_text())["threshold"] == 0.4

    monkeypatch.setitem(sys.modules, "clfeval.dask", None)  # not installed
    status, _, err = cli("report", path, "--scheduler", "tcp://10.0.0.1:8786")
    assert status == 2 and "--scheduler: this installation of clfeval has no Dask engine" in err


def test_scheduler_runs_the_dask_engine(tmp_path: Path) -> None:
    """The real clfeval.dask on dask's local synchronous scheduler: the numbers of the stream."""
    pytest.importorskip("dask.dataframe")
    folder = tmp_path / "parts"
    folder.mkdir()
    table = binary_table(900, seed=8)
    for i in range(3):
        write(table.slice(300 * i, 300), folder / f"p{i}.parquet")
    status, _, err = cli("report", folder, "--scheduler", "synchronous", "--json", tmp_path / "d.json")
    assert status == 0, err
    status, _, err = cli("report", folder, "--json", tmp_path / "s.json")
    assert status == 0, err
    assert_same(json.loads((tmp_path / "s.json").read_text()), json.loads((tmp_path / "d.json").read_text()),
                rel=1e-12)


# ---------------------------------------------------------------- bounded memory


PEAK = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, capture_output=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def _peak_rss(*args: Any) -> int:
    """Peak resident memory (bytes) of ``clfeval ARGS`` in a fresh child (its only child)."""
    r = subprocess.run([sys.executable, "-c", PEAK, *COMMAND, *map(str, args)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return int(r.stdout.split()[-1]) * (1 if sys.platform == "darwin" else 1024)


def test_streaming_memory_does_not_grow_with_the_rows(tmp_path: Path) -> None:
    """6 million rows streamed in batches of 100,000 need about the memory of 200,000 rows; reading
    them all would hold at least their 96 MB of columns (the in-memory path takes about 10x that)."""
    n, rng = 6_000_000, np.random.default_rng(0)
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 4)  # 10,001 distinct scores: a small state
    big, small = tmp_path / "big.parquet", tmp_path / "small.parquet"
    pq.write_table(pa.table({"label": y, "score": s}), big)
    pq.write_table(pa.table({"label": y[:200_000], "score": s[:200_000]}), small)
    columns = n * 16
    options = ("--stream", "--batch-rows", "100000", "--no-progress")
    base = _peak_rss("report", small, *options)
    peak = _peak_rss("report", big, *options)
    assert peak - base < columns / 2, (peak >> 20, base >> 20)
