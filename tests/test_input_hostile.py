"""Hostile input files (issue 16, section 2): each is read right or refused with one line that
says what and where (data row, 1-based; column), exit 1, no traceback - in memory, streamed
(``--stream``, small ``--batch-rows``, directories) and in ``clfeval compare``.

Also the one rule of probabilities against decision values (:mod:`clfeval.inputs.score_kind`): scores
within 1e-6 of [0, 1] are probabilities (threshold 0.5), scores clearly outside are decision
values (threshold 0), the same in ``evaluate``, streams and Dask, with a note on stderr.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.inputs.score_kind import PROBABILITY_TOLERANCE, kind_of_range, score_kind
from clfeval.streaming import StreamingEvaluation
from clfeval.inputs.tabular import InputFileError, iter_prediction_batches, read_predictions

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
skm = pytest.importorskip("sklearn.metrics")

SRC = str(Path(clfeval.__file__).resolve().parents[1])


def run(*args: str | os.PathLike[str]) -> subprocess.CompletedProcess[str]:
    """The real command, with this checkout's clfeval first on the path."""
    env = {**os.environ, "COLUMNS": "160", "NO_COLOR": "1",
           "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "clfeval", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=120)


def error_line(r: subprocess.CompletedProcess[str]) -> str:
    """The one error line of a failed run (exit 1, no traceback, nothing else on stderr but notices)."""
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr and "'ascii' codec" not in r.stderr, r.stderr
    errors = [line for line in r.stderr.splitlines() if line.startswith("clfeval: error: ")]
    assert len(errors) == 1, r.stderr
    assert all(line.startswith("clfeval: ") for line in r.stderr.splitlines()), r.stderr
    return errors[0]


def counts(path: Path) -> list[list[int]]:
    return json.loads(path.read_text())["confusion"]["counts"]


MODES = [(), ("--stream",), ("--stream", "--batch-rows", "2")]
#: in memory, and streamed in batches smaller than the file (the row is found past the first batch)
TWO_MODES = [MODES[0], MODES[2]]


# ------------------------------------------------------------------ duplicated columns


def _dup_parquet(path: Path) -> Path:
    table = pa.table([pa.array([1, 0, 1]), pa.array([0.9, 0.2, 0.4]), pa.array([0.1, 0.8, 0.3])],
                     names=["label", "score", "score"])
    pq.write_table(table, path)
    assert pq.read_metadata(path).schema.to_arrow_schema().names == ["label", "score", "score"]
    return path


@pytest.mark.parametrize("mode", TWO_MODES)
def test_duplicated_score_column_csv_is_an_error(tmp_path: Path, mode: tuple[str, ...]) -> None:
    f = tmp_path / "p.csv"
    f.write_text("label,score,score\n1,0.9,0.1\n0,0.2,0.8\n1,0.4,0.3\n")
    out = tmp_path / "o.json"
    line = error_line(run("report", f, *mode, "--json", out))
    assert line == (f"clfeval: error: {f}: column 'score' occurs 2 times (columns 2 and 3) and clfeval looks for "
                    "the y_score column by that name: which one holds the data is not known; give each column "
                    "its own name")
    assert not out.exists()


@pytest.mark.parametrize("mode", TWO_MODES)
def test_duplicated_field_parquet_is_an_error(tmp_path: Path, mode: tuple[str, ...]) -> None:
    f = _dup_parquet(tmp_path / "p.parquet")
    line = error_line(run("report", f, *mode))
    assert f"{f}: column 'score' occurs 2 times (columns 2 and 3)" in line
    # named by the user: the option is said
    line = error_line(run("report", f, "--y-true", "label", "--y-score", "score", *mode))
    assert "column 'score' occurs 2 times (columns 2 and 3) and --y-score reads it" in line


def test_duplicated_column_in_a_directory_and_in_compare(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "a.csv").write_text("label,score\n1,0.9\n0,0.2\n")
    (folder / "b.csv").write_text("label,score,score\n1,0.9,0.1\n0,0.2,0.8\n")
    line = error_line(run("report", folder))
    assert f"{folder / 'b.csv'}: column 'score' occurs 2 times (columns 2 and 3) and it is read as y_score" in line
    f = tmp_path / "m.csv"
    f.write_text("y,a,a,b\n1,1,0,0.8\n0,0,1,0.3\n1,1,1,0.6\n0,0,0,0.1\n")
    line = error_line(run("compare", f, "--y-true", "y", "--model", "A=a", "--model", "B=b"))
    assert f"{f}: column 'a' occurs 2 times (columns 2 and 3) and --model A reads it" in line


def test_duplicated_column_not_read_nor_detectable_passes(tmp_path: Path) -> None:
    """Decision: an ``id`` column twice is not read and could not be detected: no error."""
    f = tmp_path / "p.csv"
    f.write_text("id,id,label,score\n1,1,1,0.9\n2,2,0,0.2\n3,3,1,0.4\n4,4,0,0.6\n")
    out = tmp_path / "o.json"
    r = run("report", f, "--json", out)
    assert r.returncode == 0, r.stderr
    assert counts(out) == [[1, 1], [1, 1]]


def test_duplicated_detectable_column_is_an_error_even_when_another_is_read(tmp_path: Path) -> None:
    """Decision: a duplicated name that detection looks at is an error (it could have been picked)."""
    f = tmp_path / "p.csv"
    f.write_text("label,score,weight,weight\n1,0.9,1,2\n0,0.2,1,2\n")
    line = error_line(run("report", f))
    assert "column 'weight' occurs 2 times (columns 3 and 4) and clfeval looks for the sample_weight column" in line
    # two columns whose names differ by case only both look like the score column
    g = tmp_path / "q.csv"
    g.write_text("label,Score,score\n1,0.9,0.1\n0,0.2,0.8\n")
    line = error_line(run("report", g))
    assert "columns 'Score' and 'score' both look like the y_score column; name the one to read with --y-score" in line


def test_duplicated_field_feather_is_an_error(tmp_path: Path) -> None:
    feather = pytest.importorskip("pyarrow.feather")
    f = tmp_path / "p.feather"
    table = pa.table([pa.array([1, 0, 1]), pa.array([0.9, 0.2, 0.4]), pa.array([0.1, 0.8, 0.3])],
                     names=["y_true", "y_score", "y_score"])
    feather.write_feather(table, f)
    for mode in MODES[:2]:
        line = error_line(run("report", f, *mode))
        assert f"{f}: column 'y_score' occurs 2 times (columns 2 and 3) and clfeval looks for the y_score" in line


def test_duplicated_column_python_api(tmp_path: Path) -> None:
    f = _dup_parquet(tmp_path / "p.parquet")
    with pytest.raises(InputFileError, match="column 'score' occurs 2 times"):
        read_predictions(f)
    with pytest.raises(InputFileError, match="column 'score' occurs 2 times"):
        iter_prediction_batches(f, batch_rows=1)


# ------------------------------------------------------------------ empty text labels


@pytest.mark.parametrize("mode", TWO_MODES)
def test_empty_text_label_is_a_missing_value_with_its_row(tmp_path: Path, mode: tuple[str, ...]) -> None:
    f = tmp_path / "p.csv"
    f.write_text("label,pred\ncat,cat\ndog,cat\ncat,dog\ndog,dog\n,dog\ncat,cat\n")
    line = error_line(run("report", f, *mode))
    assert line == f"clfeval: error: {f}: column 'label' has a missing value (empty text) at data row 5"
    g = tmp_path / "q.csv"
    g.write_text("label,pred\ncat,cat\ndog,\ncat,dog\ndog, \n")
    line = error_line(run("report", g, *mode))
    # a blank ' ' is missing too; in memory "(and 1 more)", a batch "(and at least 1 more)" or none in its rows
    assert line.startswith(f"clfeval: error: {g}: column 'pred' has a missing value (empty text) at data row 2")
    assert line[len(f"clfeval: error: {g}: column 'pred' has a missing value (empty text) at data row 2"):] in \
        ("", " (and 1 more)", " (and at least 1 more)")


def test_empty_text_label_worded_as_a_numeric_missing_value(tmp_path: Path) -> None:
    """The same words as a missing value in a numeric label column (data row, column)."""
    num = tmp_path / "n.csv"
    num.write_text("label,score\n1,0.9\n0,0.2\n,0.4\n")
    text = tmp_path / "t.csv"
    text.write_text("label,score\nb,0.9\na,0.2\n,0.4\n")
    a = error_line(run("report", num))
    b = error_line(run("report", text, "--pos-label", "b"))
    assert a == f"clfeval: error: {num}: column 'label' has a missing value at data row 3"
    assert b == f"clfeval: error: {text}: column 'label' has a missing value (empty text) at data row 3"


def test_empty_text_label_in_parquet_and_in_a_directory(tmp_path: Path) -> None:
    f = tmp_path / "p.parquet"
    pq.write_table(pa.table({"label": ["a", "b", "", "a"], "score": [0.1, 0.8, 0.3, 0.2]}), f)
    with pytest.raises(InputFileError, match=r"column 'label' has a missing value \(empty text\) at data row 3"):
        read_predictions(f)
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "a.csv").write_text("label,score\na,0.1\nb,0.9\n")
    (folder / "b.csv").write_text("label,score\na,0.2\n,0.9\n")
    line = error_line(run("report", folder, "--pos-label", "b"))
    assert line == (f"clfeval: error: {folder / 'b.csv'}: column 'label' has a missing value (empty text) at "
                    "data row 2 (row 4 of the directory)")


# ------------------------------------------------------------------ probabilities or decision values

# the old rule read these as decision values (one score 1.0000001 > 1): threshold 0, all positive,
# counts [[0, 3], [0, 2]]; within 1e-6 of [0, 1] they are probabilities: threshold 0.5
Y_ROUNDED = [0, 0, 0, 1, 1]
S_ROUNDED = [0.1, 0.2, 1.0000001, 0.3, 0.8]


@pytest.mark.parametrize("mode", MODES)
def test_a_probability_of_1_0000001_stays_a_probability(tmp_path: Path, mode: tuple[str, ...]) -> None:
    f = tmp_path / "p.csv"
    f.write_text("label,score\n" + "".join(f"{y},{s!r}\n" for y, s in zip(Y_ROUNDED, S_ROUNDED)))
    out = tmp_path / "o.json"
    r = run("report", f, *mode, "--json", out)
    assert r.returncode == 0, r.stderr
    assert counts(out) == [[2, 1], [1, 1]]
    d = json.loads(out.read_text())
    assert d["score_kind"] == "probability" and d["threshold"] == 0.5
    notes = [line for line in r.stderr.splitlines() if line.startswith("clfeval: note: ")]
    assert notes == ["clfeval: note: scores of 'score' run from 0.1 to 1.0000001: read as probabilities "
                     "(within 1e-06 of [0, 1]); the default threshold 0.5 applies"]
    # the curve keeps the score as given
    assert 1.0000001 in d["roc"]["1"]["thresholds"]


@pytest.mark.parametrize("mode", TWO_MODES)
def test_decision_values_get_threshold_0_and_a_note(tmp_path: Path, mode: tuple[str, ...]) -> None:
    y = [0, 0, 0, 1, 1, 1]
    s = [-2.5, 0.4, 1.5, -0.1, 0.7, 3.0]
    f = tmp_path / "p.csv"
    f.write_text("label,score\n" + "".join(f"{a},{b}\n" for a, b in zip(y, s)))
    out = tmp_path / "o.json"
    r = run("report", f, *mode, "--json", out)
    assert r.returncode == 0, r.stderr
    expected = skm.confusion_matrix(y, (np.array(s) >= 0).astype(int)).tolist()
    assert counts(out) == expected == [[1, 2], [1, 2]]
    notes = [line for line in r.stderr.splitlines() if line.startswith("clfeval: note: ")]
    assert notes == ["clfeval: note: scores of 'score' run from -2.5 to 3: read as decision values (some lie more "
                     "than 1e-06 outside [0, 1]); the default threshold 0 applies"]


def test_note_names_a_given_threshold_and_is_absent_inside_0_1(tmp_path: Path) -> None:
    f = tmp_path / "p.csv"
    f.write_text("label,score\n" + "".join(f"{y},{s!r}\n" for y, s in zip(Y_ROUNDED, S_ROUNDED)))
    r = run("report", f, "--threshold", "0.25")
    assert r.returncode == 0, r.stderr
    assert "clfeval: note: scores of 'score' run from 0.1 to 1.0000001: read as probabilities (within 1e-06 of " \
           "[0, 1]); --threshold 0.25 applies" in r.stderr.splitlines()
    g = tmp_path / "q.csv"
    g.write_text("label,score\n0,0.0\n1,1.0\n0,0.4\n")
    r = run("report", g)
    assert r.returncode == 0 and "note:" not in r.stderr.replace("note: Predictions", ""), r.stderr
    assert not [line for line in r.stderr.splitlines() if line.startswith("clfeval: note")]


def test_note_with_the_dask_engine(tmp_path: Path) -> None:
    pytest.importorskip("dask")
    f = tmp_path / "p.csv"
    f.write_text("label,score\n" + "".join(f"{y},{s!r}\n" for y, s in zip(Y_ROUNDED, S_ROUNDED)))
    out = tmp_path / "o.json"
    r = run("report", f, "--scheduler", "synchronous", "--json", out)
    assert r.returncode == 0, r.stderr
    assert counts(out) == [[2, 1], [1, 1]]
    assert "clfeval: note: scores run from 0.1 to 1.0000001: read as probabilities (within 1e-06 of [0, 1]); the " \
           "default threshold 0.5 applies" in r.stderr.splitlines()


def test_note_in_compare(tmp_path: Path) -> None:
    f = tmp_path / "m.csv"
    b = [0.2, 0.1, 0.9, 0.7, 0.6]
    f.write_text("y,a,b\n" + "".join(f"{y},{s!r},{t}\n" for y, s, t in zip(Y_ROUNDED, S_ROUNDED, b)))
    out = tmp_path / "o.json"
    r = run("compare", f, "--y-true", "y", "--model", "A=a", "--model", "B=b", "--n-resamples", "50", "--json", out)
    assert r.returncode == 0, r.stderr
    notes = [line for line in r.stderr.splitlines() if line.startswith("clfeval: note: ")]
    assert notes == ["clfeval: note: model A: scores of 'a' run from 0.1 to 1.0000001: read as probabilities "
                     "(within 1e-06 of [0, 1]); the default threshold 0.5 applies"]
    d = json.loads(out.read_text())
    first = d["evaluations"][0] if "evaluations" in d else d["models"][0]
    assert first["confusion"]["counts"] == [[2, 1], [1, 1]]


def test_one_rule_for_evaluate_streaming_and_dask() -> None:
    ev = clfeval.evaluate(Y_ROUNDED, y_score=S_ROUNDED)
    assert ev.score_kind == "probability" and ev.threshold == 0.5
    assert ev.confusion.counts.tolist() == [[2, 1], [1, 1]]
    stream = StreamingEvaluation(labels=[0, 1])
    for i in range(0, 5, 2):
        stream.update(Y_ROUNDED[i:i + 2], y_score=S_ROUNDED[i:i + 2])
    res = stream.result()
    assert res.score_kind == "probability" and res.confusion.counts.tolist() == [[2, 1], [1, 1]]
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    from clfeval.dask import evaluate as dask_evaluate

    with dask.config.set(scheduler="synchronous"):
        dev = dask_evaluate(da.from_array(np.array(Y_ROUNDED), chunks=2),
                            y_score=da.from_array(np.array(S_ROUNDED), chunks=2))
    assert dev.score_kind == "probability" and dev.confusion.counts.tolist() == [[2, 1], [1, 1]]
    # one score beyond the tolerance: decision values everywhere
    s = [0.1, 0.2, 1.00001, 0.3, 0.8]
    assert clfeval.evaluate(Y_ROUNDED, y_score=s).confusion.counts.tolist() == [[0, 3], [0, 2]]
    with dask.config.set(scheduler="synchronous"):
        dev = dask_evaluate(da.from_array(np.array(Y_ROUNDED), chunks=2), y_score=da.from_array(np.array(s), chunks=2))
    assert dev.score_kind == "decision" and dev.confusion.counts.tolist() == [[0, 3], [0, 2]]


def test_calibration_and_decision_curve_of_1_0000001_count_it_as_1() -> None:
    """Decision: calibration puts probabilities within 1e-6 of [0, 1] onto [0, 1] (1.0000001 is 1);
    the decision curve takes them as they are (a score >= any pt < 1 either way)."""
    ev = clfeval.evaluate(Y_ROUNDED, y_score=S_ROUNDED)
    same = clfeval.evaluate(Y_ROUNDED, y_score=[0.1, 0.2, 1.0, 0.3, 0.8])
    c, c1 = ev.calibration(5), same.calibration(5)
    assert c.ece == pytest.approx(c1.ece, abs=1e-15) and c.brier == pytest.approx(c1.brier, abs=1e-15)
    brier = np.mean((np.array([0.1, 0.2, 1.0, 0.3, 0.8]) - np.array(Y_ROUNDED)) ** 2)
    assert c.brier == pytest.approx(brier, abs=1e-15)
    assert ev.decision_curve([0.2, 0.5]).net_benefit.tolist() == same.decision_curve([0.2, 0.5]).net_benefit.tolist()
    # multi-class rows off [0, 1] by rounding: probabilities, calibrated like the exact rows
    P = np.array([[0.2, 0.3, 0.5000001], [0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [1.0000001, 0.0, 0.0]])
    ev3 = clfeval.evaluate([2, 0, 1, 0], y_score=P)
    assert ev3.score_kind == "probability"
    assert np.isfinite(ev3.calibration(3).ece)


def test_sklearn_parity_functions_keep_the_scores_as_given() -> None:
    """The sklearn-compatible layer does not use the rule: thresholds and areas as scikit-learn's."""
    from clfeval import metrics

    fpr, tpr, thr = metrics.roc_curve(Y_ROUNDED, S_ROUNDED)
    efpr, etpr, ethr = skm.roc_curve(Y_ROUNDED, S_ROUNDED)
    assert thr[1:].tolist() == ethr[1:].tolist() and 1.0000001 in thr.tolist()
    assert fpr.tolist() == efpr.tolist() and tpr.tolist() == etpr.tolist()
    assert metrics.roc_auc_score(Y_ROUNDED, S_ROUNDED) == pytest.approx(skm.roc_auc_score(Y_ROUNDED, S_ROUNDED), abs=1e-12)
    assert metrics.roc_auc_score(Y_ROUNDED, S_ROUNDED) == pytest.approx(4 / 6, abs=1e-12)


TOL = PROBABILITY_TOLERANCE
inside = st.floats(-TOL, 1 + TOL, allow_nan=False)
beyond = st.one_of(st.floats(-1e6, -2 * TOL, allow_nan=False), st.floats(1 + 2 * TOL, 1e6, allow_nan=False))


@settings(max_examples=200, deadline=None)
@given(st.lists(inside, min_size=1, max_size=30))
def test_scores_within_the_tolerance_are_probabilities(scores: list[float]) -> None:
    assert score_kind(scores) == "probability"
    assert kind_of_range(min(scores), max(scores)) == "probability"


@settings(max_examples=200, deadline=None)
@given(st.lists(inside, min_size=1, max_size=30), beyond, st.integers(0, 30))
def test_any_score_beyond_the_tolerance_makes_decision_values(scores: list[float], out: float, at: int) -> None:
    scores = scores[:at] + [out] + scores[at:]
    assert score_kind(scores) == "decision"
    assert score_kind(np.array(scores).reshape(-1, 1)) == "decision"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(inside, beyond), min_size=4, max_size=24), st.integers(1, 5), st.randoms())
def test_evaluate_and_streaming_agree_on_the_kind(scores: list[float], size: int, rnd: object) -> None:
    y = [i % 2 for i in range(len(scores))]
    ev = clfeval.evaluate(y, y_score=scores)
    stream = StreamingEvaluation(labels=[0, 1], threshold=ev.threshold)
    for i in range(0, len(scores), size):
        stream.update(y[i:i + size], y_score=scores[i:i + size])
    res = stream.result()
    assert res.score_kind == ev.score_kind == score_kind(scores)
    assert ev.threshold == (0.5 if score_kind(scores) == "probability" else 0.0)
    assert res.confusion.counts.tolist() == ev.confusion.counts.tolist()


# ------------------------------------------------------------------ Parquet page checksums


def _damaged_parquet(path: Path) -> Path:
    rng = np.random.default_rng(0)
    table = pa.table({"label": rng.integers(0, 2, 1000), "score": rng.random(1000)})
    pq.write_table(table, path, write_page_checksum=True, compression="none", use_dictionary=False)
    chunk = pq.read_metadata(path).row_group(0).column(1)
    data = bytearray(path.read_bytes())
    data[chunk.data_page_offset + chunk.total_compressed_size - 10] ^= 0xFF  # inside the score column's page
    path.write_bytes(bytes(data))
    # without verification the damage is read as another number
    assert pq.ParquetFile(path).read().column("score").to_numpy()[-10:].tolist() != \
        table.column("score").to_numpy()[-10:].tolist()
    return path


@pytest.mark.parametrize("mode", MODES[:2])
def test_parquet_page_that_fails_its_checksum_is_an_error(tmp_path: Path, mode: tuple[str, ...]) -> None:
    f = _damaged_parquet(tmp_path / "p.parquet")
    out = tmp_path / "o.json"
    line = error_line(run("report", f, *mode, "--json", out))
    assert line.startswith(f"clfeval: error: {f}: a data page fails its checksum: the file is damaged")
    assert "CRC checksum verification failed" in line
    assert not out.exists()
    with pytest.raises(InputFileError, match="fails its checksum"):
        read_predictions(f)
    line = error_line(run("compare", f, "--y-true", "label", "--model", "A=score", "--model", "B=score"))
    assert "fails its checksum" in line


# ------------------------------------------------------------------ compressed CSV


def _write_pair(folder: Path, name: str, text: str) -> tuple[Path, Path]:
    folder.mkdir(exist_ok=True)
    plain = folder / name
    plain.write_text(text)
    packed = folder / (name + ".gz")
    with gzip.open(packed, "wt") as f:
        f.write(text)
    return plain, packed


def _same_json(a: Path, b: Path, *, names: tuple[str, str] | None = None) -> None:
    """The same JSON; the same name too (p.csv.gz is "p" like p.csv), unless ``names`` says which."""
    da, db = json.loads(a.read_text()), json.loads(b.read_text())
    if names is not None:
        assert (da.pop("name"), db.pop("name")) == names
    assert da == db


@pytest.mark.parametrize("mode", MODES)
def test_csv_gz_reads_like_the_csv(tmp_path: Path, mode: tuple[str, ...]) -> None:
    rng = np.random.default_rng(3)
    y, s = rng.integers(0, 2, 50), np.round(rng.random(50), 3)
    text = "label,score\n" + "".join(f"{a},{b}\n" for a, b in zip(y, s))
    plain, packed = _write_pair(tmp_path / "d", "p.csv", text)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    ra, rb = run("report", plain, *mode, "--json", a), run("report", packed, *mode, "--json", b)
    assert ra.returncode == 0 and rb.returncode == 0, rb.stderr
    _same_json(a, b)
    assert counts(b) == skm.confusion_matrix(y, (s >= 0.5).astype(int)).tolist()


def test_csv_gz_files_in_a_directory_and_tsv_gz(tmp_path: Path) -> None:
    parts = ["label,score\n1,0.9\n0,0.2\n1,0.4\n", "label,score\n0,0.6\n1,0.7\n0,0.1\n"]
    plain_dir, packed_dir = tmp_path / "plain", tmp_path / "packed"
    for i, text in enumerate(parts):
        _write_pair(plain_dir, f"part{i}.csv", text)
        _write_pair(packed_dir, f"part{i}.csv", text)
    for f in packed_dir.glob("*.csv"):
        f.unlink()  # only .csv.gz files left
    for f in plain_dir.glob("*.gz"):
        f.unlink()
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    ra, rb = run("report", plain_dir, "--json", a), run("report", packed_dir, "--json", b)
    assert ra.returncode == 0 and rb.returncode == 0, rb.stderr
    assert "a directory of 2 csv files" in rb.stderr
    _same_json(a, b, names=("plain", "packed"))
    assert counts(b) == [[2, 1], [1, 2]]
    # decision: a file and its compressed copy side by side would count the rows twice: refused
    _write_pair(plain_dir, "part0.csv", parts[0])
    line = error_line(run("report", plain_dir))
    assert line == (f"clfeval: error: {plain_dir}: holds part0.csv and its compressed copy part0.csv.gz: its rows "
                    "would be read twice; keep one of them in the directory")
    _, tsv = _write_pair(tmp_path / "t", "p.tsv", "label\tscore\n1\t0.9\n0\t0.2\n1\t0.4\n0\t0.6\n")
    c = tmp_path / "c.json"
    r = run("report", tsv, "--stream", "--json", c)
    assert r.returncode == 0, r.stderr
    assert counts(c) == [[1, 1], [1, 1]]


def test_compressed_parquet_is_refused_naming_the_compression(tmp_path: Path) -> None:
    """Decision: Parquet and Feather compress their own columns; a .parquet.gz is refused (a file
    or in a directory) with a message that names the compression."""
    plain = tmp_path / "p.parquet"
    pq.write_table(pa.table({"label": [1, 0], "score": [0.9, 0.2]}), plain)
    folder = tmp_path / "runs"
    folder.mkdir()
    packed = folder / "p.parquet.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    for target in (packed, folder):
        line = error_line(run("report", target))
        assert line == (f"clfeval: error: {packed}: a compressed parquet file (.gz) cannot be read: parquet files "
                        "compress their own columns; decompress it, or write the parquet file with compression inside")


# ------------------------------------------------------------------ ragged rows, bytes not UTF-8


def _many_rows(n: int, bad: bytes, at: int) -> bytes:
    """A CSV of ``n`` data rows whose data row ``at`` (1-based) is ``bad``; over 1 MiB for n = 200_000
    (the streamed reader's blocks are at least 1 MiB: the bad row lies past the first block)."""
    rows = [b"1,0.75\n" if i % 2 else b"0,0.25\n" for i in range(n)]
    rows[at - 1] = bad
    return b"label,score\n" + b"".join(rows)


@pytest.mark.parametrize("mode", [(), ("--stream", "--batch-rows", "1000")])
@pytest.mark.parametrize("bad, what", [(b"1,0.5,7\n", "has 3 fields, but the header has 2"),
                                       (b"1\n", "has 1 field, but the header has 2")])
def test_ragged_row_names_its_data_row(tmp_path: Path, mode: tuple[str, ...], bad: bytes, what: str) -> None:
    small = tmp_path / "s.csv"
    small.write_bytes(b"label,score\n1,0.9\n0,0.2\n" + bad + b"1,0.4\n")
    assert error_line(run("report", small, *mode)) == f"clfeval: error: {small}: data row 3 {what}"
    big = tmp_path / "b.csv"
    big.write_bytes(_many_rows(200_000, bad, 180_001))
    assert error_line(run("report", big, *mode)) == f"clfeval: error: {big}: data row 180001 {what}"


@pytest.mark.parametrize("mode", [(), ("--stream", "--batch-rows", "1000")])
def test_bytes_not_utf8_name_the_data_row(tmp_path: Path, mode: tuple[str, ...]) -> None:
    small = tmp_path / "s.csv"
    small.write_bytes(b"label,score\nyes,0.9\nno,0.2\n\xff\xfe,0.4\nyes,0.3\n")
    line = error_line(run("report", small, *mode, "--pos-label", "yes"))
    assert line == f"clfeval: error: {small}: column 'label', data row 3: b'\\xff\\xfe' is not UTF-8 text"
    big = tmp_path / "b.csv"
    big.write_bytes(_many_rows(200_000, b"1,0.\xe95\n", 150_000))  # in the score column, past the first block
    line = error_line(run("report", big, *mode))
    assert line == f"clfeval: error: {big}: column 'score', data row 150000: b'0.\\xe95' is not UTF-8 text"
    text = tmp_path / "t.csv"
    text.write_bytes(b"label,score\n" + b"".join(b"caf\xc3\xa9,0.5\n" if i % 2 else b"th\xc3\xa9,0.1\n"
                                                 for i in range(200_000)) + b"caf\xe9,0.4\n")
    line = error_line(run("report", text, *mode, "--pos-label", "café"))
    assert line == f"clfeval: error: {text}: column 'label', data row 200001: b'caf\\xe9' is not UTF-8 text"


def test_ragged_row_in_a_directory_names_the_file_and_its_data_row(tmp_path: Path) -> None:
    """A ragged row among a file's first rows is found when the directory is opened (before the
    rows of earlier files are counted): the message names the file and its data row; one past
    the first block is found while reading, with the directory's row too."""
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "a.csv").write_text("label,score\n1,0.9\n0,0.2\n")
    (folder / "b.csv").write_text("label,score\n1,0.9\n0,0.2,9\n")
    line = error_line(run("report", folder))
    assert line == f"clfeval: error: {folder / 'b.csv'}: data row 2 has 3 fields, but the header has 2"
    (folder / "b.csv").write_bytes(_many_rows(200_000, b"0,0.2,9\n", 190_000))
    line = error_line(run("report", folder, "--batch-rows", "1000"))
    assert line == (f"clfeval: error: {folder / 'b.csv'}: data row 190000 (row 190002 of the directory) has 3 fields, "
                    "but the header has 2")


def test_header_not_utf8(tmp_path: Path) -> None:
    f = tmp_path / "p.csv"
    f.write_bytes(b"lab\xffel,score\n1,0.9\n0,0.2\n")
    for mode in TWO_MODES:
        line = error_line(run("report", f, "--y-true", "x", *mode))
        assert line == f"clfeval: error: {f}: the header (column names) is not UTF-8 text: b'lab\\xffel,score'"
