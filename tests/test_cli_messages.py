"""The clfeval command's messages: one line, the right exit status, the user's own words.

Every case runs the real command (``python -m clfeval``) and checks its exit status (2 for bad
options, 1 for bad data), that standard error ends in exactly one ``clfeval: error:`` line (any
line before it is a ``clfeval:`` notice), that the line names the option as typed or the file's data
row (1-based) and column, and that no Python traceback or warning line reaches the terminal.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.exceptions import ValuesError

COMMAND = [sys.executable, "-m", "clfeval"]


def run(*args: str | os.PathLike[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "160", "NO_COLOR": "1"}
    return subprocess.run([*COMMAND, *map(str, args)], capture_output=True, text=True, env=env, timeout=timeout)


def no_python_noise(r: subprocess.CompletedProcess[str]) -> None:
    for text in (r.stdout, r.stderr):
        assert "Traceback" not in text and "Warning" not in text and "Exception ignored" not in text, text


def assert_error(r: subprocess.CompletedProcess[str], status: int, *fragments: str) -> str:
    """The one error line (after any ``clfeval:`` notices), holding every fragment."""
    assert r.returncode == status, (r.returncode, r.stdout, r.stderr)
    no_python_noise(r)
    lines = r.stderr.strip().splitlines()
    assert lines and lines[-1].startswith("clfeval: error: "), r.stderr
    assert all(line.startswith("clfeval: ") and not line.startswith("clfeval: error") for line in lines[:-1]), r.stderr
    for f in fragments:
        assert f in lines[-1], (f, lines[-1])
    return lines[-1]


@pytest.fixture
def preds(tmp_path: Path) -> Path:
    path = tmp_path / "p.csv"
    path.write_text("label,score,w\n1,0.9,1\n0,0.2,1\n1,0.4,2\n0,0.7,1\n1,0.8,1\n")
    return path


# ---------------------------------------------------------------- usage errors (exit 2)

# (options, the error line's start): checked before the file is read, so a missing file gives them too
BEFORE_READING = [
    (["--threshold", "nan"], "--threshold nan: give a finite number"),
    (["--threshold", "1e400"], "--threshold 1e400: give a finite number"),
    (["--threshold=-inf"], "--threshold -inf: give a finite number"),
    (["--threshold", "recall=2"], "--threshold recall=2: recall must be a number from 0 to 1"),
    (["--threshold", "precision=nan"], "--threshold precision=nan: precision must be a number from 0 to 1"),
    (["--beta", "-1"], "--beta -1: give a positive number"),
    (["--beta=0"], "--beta 0: give a positive number"),
    (["--beta", "nan"], "--beta nan: give a positive number"),
    (["--labels", "0,0"], "--labels 0,0: the label '0' is listed twice"),
    (["--labels", "0,,1"], "--labels 0,,1: an empty label"),
    (["--cost", "0,1;1,0", "--prevalence", "1.5"], "--prevalence 1.5: a class share must be from 0 to 1"),
    (["--cost", "0,1;1,0", "--prevalence", "0.5,0.6"], "--prevalence 0.5,0.6: the class shares must sum to 1"),
    (["--cost", "0,1;1,0", "--prevalence", "nan"], "--prevalence nan: give finite numbers"),
    (["--cost", "0,nan;1,0"], "--cost 0,nan;1,0: the cost in row 1, column 2 is nan"),
    (["--level", "1"], "--level 1: must be between 0 and 1"),
    (["--ci", "--level", "nan"], "--level nan: must be between 0 and 1"),
    (["--lev", "2"], "--level 2: must be between 0 and 1"),
    (["--scheduler", "bogus://x"], "--scheduler bogus://x: unknown address scheme 'bogus'"),
    (["--scheduler", "nohost"], "--scheduler nohost: missing port number in address 'nohost'"),
]


@pytest.mark.parametrize(("options", "start", "absent"), [(o, t, i % 2 == 1) for i, (o, t) in enumerate(BEFORE_READING)],
                         ids=[" ".join(o) for o, _ in BEFORE_READING])
def test_bad_options_are_usage_errors_before_reading(preds: Path, options: list[str], start: str,
                                                     absent: bool) -> None:
    # checked before the file is read: every other case names a file that is not there
    path = preds.parent / "absent.csv" if absent else preds
    line = assert_error(run("report", path, *options), 2)
    assert line.startswith(f"clfeval: error: {start}"), line


def test_options_checked_against_the_data_are_usage_errors(preds: Path) -> None:
    assert_error(run("report", preds, "--labels", "0,1", "--pos-label", "7"), 2,
                 "--pos-label 7 is not one of --labels 0,1")
    assert_error(run("report", preds, "--labels", "1,01"), 2, "--labels 1,01: the label 1 is listed twice")
    assert_error(run("report", preds, "--cost", "0,1;1,0", "--prevalence", "0.2,0.3,0.5"), 2,
                 "--prevalence 0.2,0.3,0.5: the data have 2 classes (0, 1)")


def test_options_that_do_not_fit_the_data_are_usage_errors(tmp_path: Path, preds: Path) -> None:
    multi = tmp_path / "mc.csv"
    multi.write_text("label,p0,p1,p2\n0,0.5,0.3,0.2\n1,0.2,0.5,0.3\n2,0.1,0.2,0.7\n1,0.3,0.4,0.3\n")
    for extra in ([], ["--stream"]):
        assert_error(run("report", multi, "--y-score", "p0,p1,p2", "--threshold", "0.3", *extra), 2,
                     "--threshold 0.3: a threshold cuts binary scores, and this is a multi-class evaluation "
                     "(3 classes")
        assert_error(run("report", preds, "--labels", "0,1,2", *extra), 2,
                     "--labels 0,1,2 names 3 classes, so give one score column per class", "'score'")
        assert_error(run("report", multi, "--y-score", "p0,p1", "--labels", "0,1,2", *extra), 2,
                     "--labels 0,1,2 names 3 classes, so give one score column per class", "not the 2 ('p0', 'p1')")
        assert_error(run("report", multi, "--y-score", "p0,p1", *extra), 1,
                     f"{multi}: 2 score columns ('p0', 'p1'), but column 'label' holds 3 classes (0, 1, 2)")
    one = tmp_path / "one.csv"
    one.write_text("label,score\n1,0.9\n1,0.2\n")
    assert_error(run("report", one), 1, f"{one}: column 'label' holds one class only (1): give --labels")


def test_argparse_errors_are_one_line(preds: Path) -> None:
    assert_error(run("report", preds, "--beta", "high"), 2, "--beta", "'high'")
    assert_error(run("report", preds, "--batch-rows", "0"), 2, "--batch-rows", "'0'")
    assert_error(run("compare", preds, "--y-true", "label"), 2, "--model")
    assert_error(run("report", preds, "--cost", "-1,1;1,0"), 2,
                 "--cost: expected one argument (a value that starts with '-' goes after '=', as in --cost=-1;")
    assert run("report", preds, "--cost=-1,1;1,0").returncode == 0  # a benefit on the diagonal is allowed


COMPARE = [
    (["--n-resamples", "0"], "--n-resamples 0: give a whole number of bootstrap replicates, at least 1"),
    (["--n-resamples", "-5"], "--n-resamples -5: give a whole number"),
    (["--threshold", "nan"], "--threshold nan: give a finite number"),
    (["--threshold", "1e400"], "--threshold 1e400: give a finite number"),
    (["--level", "1.5"], "--level 1.5: must be between 0 and 1"),
    (["--labels", "1,1"], "--labels 1,1: the label '1' is listed twice"),
    (["--seed", "-1"], "--seed -1: give a whole number from 0 up"),
]


@pytest.mark.parametrize(("options", "start"), COMPARE, ids=[" ".join(o) for o, _ in COMPARE])
def test_compare_bad_options(tmp_path: Path, options: list[str], start: str) -> None:
    path = tmp_path / "m.csv"
    path.write_text("y,a,b\n1,0.9,0.8\n0,0.2,0.1\n1,0.4,0.3\n0,0.7,0.3\n1,0.8,0.6\n")
    line = assert_error(run("compare", path, "--y-true", "y", "--model", "A=a", "--model", "B=b", *options), 2)
    assert line.startswith(f"clfeval: error: {start}"), line


# ---------------------------------------------------------------- data errors (exit 1): row and column


def test_data_errors_name_the_row_and_column(tmp_path: Path, preds: Path) -> None:
    inf = tmp_path / "inf.csv"
    inf.write_text("label,score\n1,inf\n0,0.2\n1,0.4\n0,-inf\n")
    line = assert_error(run("report", inf), 1)
    assert line == (f"clfeval: error: {inf}: column 'score', data row 1: the score is inf; scores must be finite "
                    "numbers (and 1 more)")
    neg = tmp_path / "neg.csv"
    neg.write_text("y,p,weight\n1,0.9,1\n0,0.2,1\n1,0.4,-1.5\n0,0.7,1\n")
    line = assert_error(run("report", neg, "--y-true", "y", "--y-score", "p", "--sample-weight", "weight"), 1)
    assert line == f"clfeval: error: {neg}: column 'weight', data row 3: the weight is -1.5; weights must be 0 or more"
    lab = tmp_path / "lab.csv"
    lab.write_text("label,score\n1,0.9\n0,0.2\n2,0.4\n0,0.7\n")
    line = assert_error(run("report", lab, "--labels", "0,1"), 1)
    assert line == (f"clfeval: error: {lab}: column 'label', data row 3: 2 is not one of --labels 0,1; add it to "
                    "--labels or drop those rows")
    for text in (line,):
        assert "position" not in text and "y_true" not in text and "labels=" not in text


def test_pos_label_absent_from_the_data_is_a_data_error(preds: Path) -> None:
    assert_error(run("report", preds, "--pos-label", "7"), 1,
                 f"{preds}: --pos-label 7 is not one of the classes in column 'label' (0, 1)")


def test_three_classes_with_one_score_column_names_the_columns_not_a_batch(tmp_path: Path) -> None:
    path = tmp_path / "three.csv"
    path.write_text("label,score\n" + "".join(f"{i % 3},0.{i}\n" for i in range(1, 10)))
    for extra in ([], ["--stream", "--batch-rows", "2"]):
        line = assert_error(run("report", path, *extra), 1,
                            "column 'label' holds 3 classes (0, 1, 2)", "not the one column 'score'")
        assert "data rows" not in line and "y_score" not in line


@pytest.fixture
def stream_file(tmp_path: Path) -> Path:
    """6000 rows of labels 0/1 and scores; row 5000 (1-based) has label 2."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 6000).astype(str).astype(object)
    s = np.round(rng.random(6000), 4).astype(str).astype(object)
    y[4999] = "2"
    path = tmp_path / "big.csv"
    path.write_text("label,score\n" + "".join(f"{a},{b}\n" for a, b in zip(y, s)))
    return path


def test_a_stream_names_the_row_not_the_batch(stream_file: Path) -> None:
    for extra in ([], ["--stream", "--batch-rows", "1000"], ["--stream", "--batch-rows", "777"]):
        line = assert_error(run("report", stream_file, "--labels", "0,1", *extra), 1,
                            f"{stream_file}: column 'label', data row 5000: 2 is not one of --labels 0,1")
        assert "data rows" not in line and "1-1000" not in line
    # without --labels the classes are learnt from every row: the message is about the file, not a batch
    line = assert_error(run("report", stream_file, "--stream", "--batch-rows", "1000"), 1,
                        f"{stream_file}: column 'label' holds 3 classes (0, 1, 2), so give one score column per class")
    assert "data rows" not in line


def test_a_stream_names_the_row_of_an_infinite_score(stream_file: Path, tmp_path: Path) -> None:
    path = tmp_path / "scores.csv"
    lines = stream_file.read_text().splitlines()
    lines[5000] = "1,inf"  # data row 5000: label 1, infinite score
    path.write_text("\n".join(lines) + "\n")
    for extra in ([], ["--stream", "--batch-rows", "1000"]):
        assert_error(run("report", path, *extra), 1, f"{path}: column 'score', data row 5000: the score is inf")


def test_a_directory_names_the_file_its_row_and_the_directory_row(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "a.csv").write_text("label,score\n" + "1,0.5\n0,0.25\n" * 3)
    (folder / "b.csv").write_text("label,score\n1,0.5\n0,0.25\n5,0.75\n")
    assert_error(run("report", folder, "--labels", "0,1", "--batch-rows", "2"), 1,
                 "b.csv: column 'label', data row 3 (row 9 of the directory): 5 is not one of --labels 0,1")


def test_text_among_number_labels_names_its_row(tmp_path: Path) -> None:
    path = tmp_path / "mix.csv"
    path.write_text("label,pred\n1,1\n0,0\n1,x\n0,0\n")
    # a stream refuses the first batch (the column is text throughout) and finds the batch with the text
    for extra in ([], ["--stream", "--batch-rows", "2"], ["--stream", "--batch-rows", "1"]):
        assert_error(run("report", path, *extra), 1,
                     f"{path}: column 'pred', data row 3: 'x' is text, but column 'label' holds numbers")


def test_compare_names_text_in_a_score_column(tmp_path: Path) -> None:
    path = tmp_path / "m.csv"
    path.write_text("y,a,b\n1,0.9,0.8\n0,0.2,0.1\n1,0.4,n/a?\n0,0.7,0.3\n1,0.8,0.6\n")
    line = assert_error(run("compare", path, "--y-true", "y", "--model", "A=a", "--model", "B=b"), 1)
    assert line == f"clfeval: error: {path}: column 'b', data row 3: 'n/a?' is not a number"
    path.write_text("y,a,b\n1,0.9,0.8\n0,0.2,inf\n1,0.4,0.3\n0,0.7,0.3\n1,0.8,0.6\n")
    assert_error(run("compare", path, "--y-true", "y", "--model", "A=a", "--model", "B=b"), 1,
                 "column 'b', data row 2: the score is inf")
    assert_error(run("compare", path, "--y-true", "y", "--model", "A=a", "--model", "B=a", "--pos-label", "3"), 1,
                 "--pos-label 3 is not one of the classes in column 'y' (0, 1)")


# ---------------------------------------------------------------- warnings: notes, never Python's lines


def test_an_undefined_value_prints_the_numbers_and_no_warning(preds: Path, tmp_path: Path) -> None:
    # --threshold 0.95 (above every score): nothing is predicted positive, so precision of class 1 is 0/0
    r = run("report", preds, "--threshold", "0.95")
    assert r.returncode == 0, r.stderr
    no_python_noise(r)
    assert r.stderr.strip().splitlines() == ["clfeval: detected columns: y_true = label; y_score = score"]
    rows: dict[str, list[str]] = {}
    for line in r.stdout.splitlines():  # the first row of each name: the classification report's
        if line.strip():
            rows.setdefault(line.split()[0], line.split()[1:])
    assert rows["accuracy"] == ["0.4000"] and rows["1"][:3] == ["nan", "0.0000", "0.0000"]
    assert "precision is undefined (0/0) for 1 class" in r.stdout  # the report's own note
    path = tmp_path / "m.csv"
    path.write_text("y,a,b\n1,0.9,0.8\n0,0.2,0.1\n1,0.4,0.3\n0,0.7,0.3\n1,0.8,0.6\n")
    r = run("compare", path, "--y-true", "y", "--model", "A=a", "--model", "B=b", "--threshold", "0.95",
            "--n-resamples", "20")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    no_python_noise(r)
    rows = {}
    for line in r.stdout.splitlines():  # the first row of each name: the table of models
        if line.strip():
            rows.setdefault(line.split()[0], line.split()[1:])
    assert rows["A"][:2] == ["0.4000", "0.5000"] and rows["B"][:2] == ["0.4000", "0.5000"]


def test_other_warnings_become_one_note_each(preds: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from clfeval import cli
    from clfeval.report import terminal

    original = terminal.print_evaluation

    def noisy(*args: object, **kwargs: object) -> None:
        warnings.warn("the scores look odd", UserWarning, stacklevel=1)
        warnings.warn("the scores look odd", UserWarning, stacklevel=1)
        warnings.warn("old API", DeprecationWarning, stacklevel=1)
        original(*args, **kwargs)

    monkeypatch.setattr(terminal, "print_evaluation", noisy)
    assert cli.main(["report", str(preds)]) == 0
    err = capsys.readouterr().err
    assert err.splitlines().count("clfeval: note: the scores look odd") == 1
    assert "Warning" not in err and "old API" not in err


# ---------------------------------------------------------------- the library's errors carry where


def test_score_columns_must_match_the_labels_given() -> None:
    with pytest.raises(ValuesError, match=r"y_score has 2 columns but labels has 3 classes \(\[0, 1, 2\]\)") as e:
        clfeval.evaluate([0, 1, 0, 1], y_score=[[0.5, 0.5], [0.4, 0.6], [0.5, 0.5], [0.1, 0.9]], labels=[0, 1, 2])
    assert (e.value.kind, e.value.count) == ("columns-vs-classes", 2)
    with pytest.raises(ValuesError, match=r"y_score has 3 columns but labels has 2 classes"):
        clfeval.evaluate([0, 1, 0, 1], y_score=np.full((4, 3), 1 / 3), labels=[0, 1])


def test_library_errors_keep_their_words_and_carry_the_position() -> None:
    with pytest.raises(ValuesError, match=r"^y_score contains 1 infinite value\(s\); the first is at position 2\. ") as e:
        clfeval.evaluate([0, 1, 1], y_score=[0.1, 0.9, np.inf])
    assert (e.value.argument, e.value.position, e.value.kind, e.value.value) == ("y_score", 2, "infinite", np.inf)
    with pytest.raises(ValueError, match=r"^y_true\[3\] = 5 is not one of labels \[0, 1\]") as e:
        clfeval.evaluate([0, 1, 1, 5], [0, 1, 1, 1], labels=[0, 1])
    assert (e.value.argument, e.value.position, e.value.allowed) == ("y_true", 3, [0, 1])
    with pytest.raises(ValuesError, match="sample_weight contains negative values; the first is at position 1") as e:
        clfeval.evaluate([0, 1, 1], [0, 1, 1], sample_weight=[1, -2, -3])
    assert (e.value.argument, e.value.position, e.value.count, e.value.value) == ("sample_weight", 1, 2, -2)
    with pytest.raises(ValuesError, match=r"^pos_label=7 is not one of the classes \[0, 1\]") as e:
        clfeval.evaluate([0, 1, 1], y_score=[0.1, 0.9, 0.8], pos_label=7)
    assert (e.value.argument, e.value.kind) == ("pos_label", "not-a-class")
    with pytest.raises(ValuesError, match="y_score contains 1 infinite") as e:
        clfeval.evaluate([0, 1, 2], y_score=[[0.2, 0.3, 0.5], [0.1, -np.inf, 0.9], [0.3, 0.3, 0.4]])
    assert (e.value.position, e.value.column) == (1, 1)


# ---------------------------------------------------------------- Dask


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_scheduler_that_does_not_answer_fails_fast(preds: Path) -> None:
    pytest.importorskip("distributed")
    start = time.monotonic()
    address = f"tcp://127.0.0.1:{closed_port()}"
    r = run("report", preds, "--scheduler", address, timeout=60)  # gives up after clfeval's 5 s
    assert_error(r, 1, f"cannot connect to the dask scheduler at '{address}'", "after 5 s")
    assert time.monotonic() - start < 30
    # dask's own connect timeout, where shorter, wins
    import dask

    from clfeval.dask import evaluate_file

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}), \
            pytest.raises(ValueError, match=r"cannot connect to the dask scheduler .* after 1 s"):
        evaluate_file(preds, scheduler=address)


def test_a_client_that_fails_to_start_leaves_no_traceback_at_exit(preds: Path) -> None:
    pytest.importorskip("distributed")
    code = ("from clfeval.dask import evaluate_file\n"
            "for address in ('nohost', 'inproc://x', 'bogus://x'):\n"
            "    try:\n"
            f"        evaluate_file({str(preds)!r}, scheduler=address)\n"
            "    except ValueError as exc:\n"
            "        print(exc)\n")
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr  # no Client.__del__ traceback, no 60 s wait
    assert r.stdout.count("cannot connect to the dask scheduler") == 3, r.stdout
    assert time.monotonic() - start < 30


def test_a_partition_error_on_dask_names_the_row(tmp_path: Path, stream_file: Path) -> None:
    pytest.importorskip("dask")
    path = tmp_path / "w.csv"
    path.write_text("y,p,weight\n1,0.9,1\n0,0.2,1\n1,0.4,-1\n")
    assert_error(run("report", path, "--y-true", "y", "--y-score", "p", "--sample-weight", "weight",
                     "--scheduler", "synchronous"), 1,
                 f"{path}: column 'weight', data row 3: the weight is -1; weights must be 0 or more")
    assert_error(run("report", stream_file, "--labels", "0,1", "--scheduler", "synchronous"), 1,
                 f"{stream_file}: column 'label', data row 5000: 2 is not one of --labels 0,1")
    plain = tmp_path / "plain.csv"
    plain.write_text("y,p\n1,0.9\n0,0.2\n1,0.4\n")
    assert_error(run("report", plain, "--y-true", "y", "--y-score", "p", "--pos-label", "3", "--scheduler",
                     "synchronous"), 1, f"{plain}: --pos-label 3 is not one of the classes in column 'y' (0, 1)")
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "a.csv").write_text("y,p,weight\n1,0.9,1\n0,0.2,1\n")
    path.rename(folder / "b.csv")
    assert_error(run("report", folder, "--y-true", "y", "--y-score", "p", "--sample-weight", "weight",
                     "--scheduler", "synchronous"), 1, f"{folder}: column 'weight', row 5 of the directory: the weight is -1")


def test_dask_finds_the_row_across_partitions(stream_file: Path, tmp_path: Path) -> None:
    dask = pytest.importorskip("dask")
    from clfeval.dask import evaluate_file

    with dask.config.set(scheduler="synchronous"), pytest.raises(ValueError) as e:
        evaluate_file(stream_file, labels=[0, 1], blocksize=10_000)  # about a dozen partitions
    located = e.value.values_error
    assert located.partition > 0 and located.position < 4999 and located.row == 4999
    assert str(e.value).startswith(f"{stream_file}: data row 5000, partition {located.partition} of ")


class _DieOnTask:
    """A worker plugin that ends its worker's process when a task starts (a crash on every task)."""

    name = "clfeval-test-die-on-task"

    def transition(self, key: object, start: str, finish: str, **kwargs: object) -> None:
        if finish == "executing":
            os._exit(1)


def test_a_cluster_whose_workers_keep_dying_is_one_line(preds: Path) -> None:
    distributed = pytest.importorskip("distributed")
    import cloudpickle
    import dask
    from distributed.diagnostics.plugin import WorkerPlugin

    plugin = type("DieOnTask", (_DieOnTask, WorkerPlugin), {})()
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                     silence_logs=50) as cluster, distributed.Client(cluster) as client:
        client.register_plugin(plugin)
        r = run("report", preds, "--scheduler", cluster.scheduler_address, timeout=90)
    assert_error(r, 1, f"the Dask cluster at {cluster.scheduler_address} lost its workers",
                 "allowed-failures is 0")
