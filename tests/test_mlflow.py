"""Logging an evaluation into MLflow (clfeval.integrations.mlflow, ``clfeval report --mlflow``), against a
real tracking store: a ``file:`` folder in tmp_path (mlflow-skinny has no database store: its sqlite one
needs alembic; MLflow 3.7 and later take a folder with MLFLOW_ALLOW_FILE_STORE=true). Every run is read
back with MlflowClient and compared with the Evaluation's own numbers, exactly.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import clfeval

mlflow = pytest.importorskip("mlflow", reason="MLflow is the mlflow extra: pip install 'clfeval[mlflow]'")
from mlflow.tracking import MlflowClient  # noqa: E402

from clfeval.cli import main  # noqa: E402
from clfeval.integrations.mlflow import evaluation_record, log_evaluation, metric_label  # noqa: E402


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh folder store, chosen the way a user chooses one: MLFLOW_TRACKING_URI."""
    uri = (tmp_path / "mlruns").as_uri()
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
    for name in ("MLFLOW_EXPERIMENT_NAME", "MLFLOW_EXPERIMENT_ID", "MLFLOW_RUN_ID"):
        monkeypatch.delenv(name, raising=False)
    assert mlflow.get_tracking_uri() == uri  # nothing in this process pinned another
    yield uri
    while mlflow.active_run() is not None:  # a failed test leaves no run open for the next
        mlflow.end_run()


def class_name(label: str) -> str:
    return "class_" + re.sub(r"[^\w-]", "_", label)


def expected_metrics(ev: clfeval.Evaluation, intervals=None, prefix: str = "") -> tuple[dict, set]:
    """What the run must hold, read off the Evaluation, and the names that must be skipped (NaN)."""
    want: dict[str, float] = {}
    skipped: set[str] = set()

    def put(name: str, value) -> None:
        if value is None:
            return
        if math.isfinite(float(value)):
            want[prefix + name] = float(value)
        else:
            skipped.add(prefix + name)

    r = ev.report
    for name, value in r.overall.items():
        put(name, value)
    for average, row in r.averages.items():
        for column in r.columns:
            if column != "support":
                put(f"{column}.{average}", row[column])
    for row in r.rows:
        for column in r.columns:
            put(f"{column}.{class_name(row['label'])}", row[column])
    put("n_samples", ev.n_samples)
    if ev.threshold is not None:
        put("threshold", ev.threshold)
    if intervals is not None:
        for name, ci in intervals["overall"].items():
            put(f"{name}_ci_low", ci.low)
            put(f"{name}_ci_high", ci.high)
        for average, table in intervals["averages"].items():
            for column, ci in table.items():
                put(f"{column}.{average}_ci_low", ci.low)
                put(f"{column}.{average}_ci_high", ci.high)
        for column, ci in intervals["per_class"].items():
            for label, low, high in zip(intervals["labels"], np.atleast_1d(ci.low), np.atleast_1d(ci.high)):
                put(f"{column}.{class_name(label)}_ci_low", low)
                put(f"{column}.{class_name(label)}_ci_high", high)
    return want, skipped


def artifact_text(client: MlflowClient, run_id: str, path: str, tmp_path: Path) -> str:
    folder = tmp_path / f"download-{run_id}-{path.replace('/', '_')}"
    folder.mkdir()
    return Path(client.download_artifacts(run_id, path, str(folder))).read_text(encoding="utf-8")


def binary_evaluation() -> clfeval.Evaluation:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    score = np.round(np.clip(0.3 * y + 0.7 * rng.random(300), 0, 1), 3)
    return clfeval.evaluate(np.where(y == 1, "spam", "ham"), y_score=score, pos_label="spam", name="binary model")


def multiclass_evaluation() -> clfeval.Evaluation:
    """Three classes whose names need cleaning for MLflow, one of them never predicted (its precision is NaN)."""
    rng = np.random.default_rng(5)
    names = np.array(["setosa v1", "versi/color", "virginica"])
    y = names[rng.integers(0, 3, 240)]
    pred = np.where(y == "virginica", "setosa v1", y)
    pred[:20] = "versi/color"
    return clfeval.evaluate(y, pred, name="multi")


# -- the library ---------------------------------------------------------------------------------


def test_binary_run_holds_every_number_of_the_report_exactly(store, tmp_path):
    ev = binary_evaluation()
    logged = log_evaluation(ev, experiment="binary", intervals=False, figures=False)
    client = MlflowClient()
    run = client.get_run(logged.run_id)
    want, skipped = expected_metrics(ev)
    assert run.data.metrics == want == logged.metrics  # exact: MLflow stores doubles
    assert not skipped and logged.skipped == {} and run.data.tags["clfeval.skipped_metrics"] == ""
    o, avg = ev.report.overall, ev.report.averages
    assert run.data.metrics["roc_auc"] == o["roc_auc"] and run.data.metrics["mcc"] == o["mcc"]
    assert run.data.metrics["f1.macro"] == avg["macro"]["f1"] and run.data.metrics["f1.micro"] == avg["micro"]["f1"]
    assert run.data.metrics["f1.weighted"] == avg["weighted"]["f1"]
    assert run.data.metrics["recall.class_spam"] == ev.report.rows[1]["recall"]
    assert {"accuracy", "kappa", "average_precision", "precision.class_ham", "support.class_spam"} <= set(want)
    assert run.data.tags["clfeval.task"] == "binary" and run.data.tags["clfeval.model"] == "binary model"
    assert run.info.status == "FINISHED" and mlflow.active_run() is None  # started here, ended here
    assert client.get_experiment(run.info.experiment_id).name == "binary"

    top = {a.path: a.is_dir for a in client.list_artifacts(logged.run_id)}
    assert top == {"evaluation.json": False, "evaluation.html": False, "curves": True}
    assert json.loads(artifact_text(client, logged.run_id, "evaluation.json", tmp_path)) == json.loads(ev.to_json())
    assert "<html" in artifact_text(client, logged.run_id, "evaluation.html", tmp_path)[:400].lower()
    rows = list(csv.DictReader(io.StringIO(artifact_text(client, logged.run_id, "curves/roc.csv", tmp_path))))
    curve = ev.compact_curves("roc", 2000).main
    assert [r["curve"] for r in rows] == ["spam"] * len(curve.x)
    assert [float(r["fpr"]) for r in rows] == curve.x.tolist() and [float(r["tpr"]) for r in rows] == curve.y.tolist()
    assert [float(r["threshold"]) for r in rows] == curve.thresholds.tolist()
    pr = list(csv.DictReader(io.StringIO(artifact_text(client, logged.run_id, "curves/pr.csv", tmp_path))))
    assert list(pr[0]) == ["curve", "threshold", "recall", "precision"]
    assert sorted(logged.artifacts) == ["curves/pr.csv", "curves/roc.csv", "evaluation.html", "evaluation.json"]


def test_multiclass_run_with_intervals_cleans_labels_and_skips_undefined_numbers(store, tmp_path):
    ev = multiclass_evaluation()
    with pytest.warns(clfeval.exceptions.UndefinedMetricWarning, match="'virginica': never predicted"):
        ev.report  # noqa: B018 - the report is built (and warns) once
    intervals = ev.intervals()
    logged = log_evaluation(ev, experiment="multi", intervals=intervals, curves=False)
    client = MlflowClient()
    run = client.get_run(logged.run_id)
    want, skipped = expected_metrics(ev, intervals)
    assert run.data.metrics == want == logged.metrics
    assert "precision.class_virginica" in skipped and skipped == set(logged.skipped)
    assert not skipped & set(run.data.metrics)  # a NaN is never logged as a number
    assert set(run.data.tags["clfeval.skipped_metrics"].split(", ")) == skipped
    assert logged.skipped["precision.class_virginica"] == "undefined (NaN)"
    assert run.data.metrics["recall.class_setosa_v1"] == ev.report.rows[0]["recall"]
    assert run.data.metrics["recall.class_versi_color_ci_low"] == intervals["per_class"]["recall"].low[1]
    assert run.data.metrics["f1.macro_ci_high"] == intervals["averages"]["macro"]["f1"].high
    assert run.data.metrics["accuracy_ci_low"] == intervals["overall"]["accuracy"].low
    assert run.data.tags["clfeval.ci_level"] == "0.95" and run.data.tags["clfeval.ci_method"] == intervals["method"]
    document = json.loads(artifact_text(client, logged.run_id, "evaluation.json", tmp_path))
    assert document == json.loads(ev.to_json(ci_level=0.95))
    figures = client.list_artifacts(logged.run_id, "figures")
    assert {Path(f.path).name for f in figures} == {"confusion_matrix.png", "confusion_matrix_normalized.png"}
    assert "curves" not in {a.path for a in client.list_artifacts(logged.run_id)}


def test_multiclass_scores_log_one_curve_per_class_and_the_averages(store, tmp_path):
    rng = np.random.default_rng(7)
    y = rng.integers(0, 3, 150)
    ev = clfeval.evaluate(y, y_score=rng.dirichlet([1, 1, 1], 150))
    logged = log_evaluation(ev, intervals=True, artifacts=False, figures=False, max_points=None)
    client = MlflowClient()
    want, _ = expected_metrics(ev, ev.intervals())
    assert client.get_run(logged.run_id).data.metrics == want
    rows = list(csv.DictReader(io.StringIO(artifact_text(client, logged.run_id, "curves/roc.csv", tmp_path))))
    assert list(dict.fromkeys(r["curve"] for r in rows)) == ["0", "1", "2", "micro", "macro"]
    for name in ("1", "macro"):
        assert [float(r["tpr"]) for r in rows if r["curve"] == name] == ev.roc[name].y.tolist()
    assert client.get_experiment(client.get_run(logged.run_id).info.experiment_id).name == "Default"


def test_labels_that_clash_after_cleaning_are_an_error_and_nothing_is_logged(store):
    ev = clfeval.evaluate(["a+b", "a b", "c", "a+b"], ["a+b", "a b", "c", "c"])
    with pytest.raises(ValueError, match=r"the classes 'a b' and 'a\+b' would both be named 'class_a_b'"):
        log_evaluation(ev, experiment="clash", figures=False)
    client = MlflowClient()
    assert client.get_experiment_by_name("clash") is None and mlflow.active_run() is None
    # a class whose cleaned name meets an interval's name: found too
    ev = clfeval.evaluate(["x", "x_ci_low", "x"], ["x", "x_ci_low", "x_ci_low"])
    with pytest.raises(ValueError, match="would both be logged as the MLflow metric 'precision.class_x_ci_low'"):
        evaluation_record(ev, figures=False, artifacts=False)
    assert metric_label("ü-1.5 x") == "class_ü-1_5_x"


def test_an_active_run_is_logged_into_and_left_running_nested_runs_are_its_children(store):
    ev = clfeval.evaluate([0, 1, 1, 0, 1], y_score=[0.2, 0.9, 0.6, 0.4, 0.3])
    client = MlflowClient()
    parent_experiment = client.create_experiment("parent")
    with mlflow.start_run(experiment_id=parent_experiment) as parent:
        into = log_evaluation(ev, prefix="test.", intervals=False, figures=False, curves=False)
        assert into.run_id == parent.info.run_id and mlflow.active_run().info.run_id == parent.info.run_id
        child = log_evaluation(ev, nested=True, run_name="fold 0", intervals=False, figures=False, artifacts=False)
        assert mlflow.active_run().info.run_id == parent.info.run_id  # the child ended, the parent is back
        with pytest.raises(ValueError, match="run_name='x' names a new run, but an MLflow run is active"):
            log_evaluation(ev, run_name="x", figures=False)
        with pytest.raises(ValueError, match="experiment='elsewhere', but the active MLflow run"):
            log_evaluation(ev, experiment="elsewhere", figures=False)
        assert client.get_run(parent.info.run_id).info.status == "RUNNING"
    parent_run = client.get_run(parent.info.run_id)
    want, _ = expected_metrics(ev, prefix="test.")
    assert parent_run.data.metrics == want and parent_run.data.tags["test.clfeval.task"] == "binary"
    assert {a.path for a in client.list_artifacts(parent.info.run_id)} == {"test.evaluation.json",
                                                                          "test.evaluation.html"}
    child_run = client.get_run(child.run_id)
    assert child_run.data.tags["mlflow.parentRunId"] == parent.info.run_id
    assert child_run.info.run_name == "fold 0" and child_run.info.status == "FINISHED"
    assert child_run.info.experiment_id == parent_experiment
    assert child_run.data.metrics == expected_metrics(ev)[0]
    # an ended run, named by its id, gets more and stays ended
    again = log_evaluation(ev, run_id=parent.info.run_id, prefix="again.", intervals=False, figures=False,
                           curves=False, artifacts=False)
    ended = client.get_run(again.run_id)
    assert ended.info.status == "FINISHED" and ended.data.metrics["again.accuracy"] == ev.report.overall["accuracy"]
    with pytest.raises(ValueError, match="run_id names the run to log into"):
        log_evaluation(ev, run_id=parent.info.run_id, experiment="parent")


def test_a_prefix_mlflow_refuses_is_an_error_before_logging(store):
    ev = clfeval.evaluate([0, 1], [0, 1])
    for prefix in ("../x.", "a//b", "a:b", "/abs"):
        with pytest.raises(ValueError, match="MLflow names may hold"):
            log_evaluation(ev, prefix=prefix, figures=False)
    assert MlflowClient().search_runs(["0"]) == []


def test_without_mlflow_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "mlflow", None)  # `import mlflow` fails as if it were not installed
    with pytest.raises(ModuleNotFoundError, match=re.escape("pip install 'clfeval[mlflow]'")):
        log_evaluation(clfeval.evaluate([0, 1], [0, 1]))
    # what needs no MLflow still works
    assert evaluation_record(clfeval.evaluate([0, 1], [0, 1]), figures=False).metrics["accuracy"] == 1.0


# -- the command line ----------------------------------------------------------------------------


#: the columns of write_csv's files, named (no "detected columns" line)
NAMED = ["--y-true", "label", "--y-pred", "prediction"]


def write_csv(path: Path, labels: list[str], scores: list[float] | None = None) -> Path:
    lines = ["label,score" if scores else "label,prediction"]
    for i, label in enumerate(labels):
        predicted = labels[(i + 1) % len(labels)] if i % 3 else label
        lines.append(f"{label},{scores[i]}" if scores else f"{label},{predicted}")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_report_logs_the_files_it_writes_with_the_intervals(store, tmp_path, capsys):
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 200)
    scores = np.round(np.clip(0.35 * y + 0.65 * rng.random(200), 0, 1), 3)
    data = write_csv(tmp_path / "preds.csv", [str(v) for v in y], scores.tolist())
    out = tmp_path / "out.json"
    assert main(["report", str(data), "--mlflow", "cli runs", "--ci", "--json", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert f"wrote {out}" in stdout or "wrote out.json" in stdout
    run_id = re.search(r"logged to MLflow experiment 'cli runs' \(.*\): run (\w+), \d+ metrics", stdout).group(1)
    client = MlflowClient()
    run = client.get_run(run_id)
    assert run.info.status == "FINISHED" and client.get_experiment(run.info.experiment_id).name == "cli runs"
    assert artifact_text(client, run_id, "evaluation.json", tmp_path) == out.read_text()  # the very bytes
    ev = clfeval.evaluate(y, y_score=scores, name="preds.csv")
    want, _ = expected_metrics(ev, ev.intervals())
    assert run.data.metrics == want
    top = {a.path for a in client.list_artifacts(run_id)}
    assert {"evaluation.json", "evaluation.html", "curves"} <= top
    if "figures" in top:  # matplotlib installed: the plots of --png
        assert {Path(f.path).name for f in client.list_artifacts(run_id, "figures")} >= {"roc.png", "pr.png"}

    # --json - : standard output is the JSON alone, whatever MLflow says
    assert main(["report", str(data), "--mlflow", "cli runs", "--json", "-"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["report"]["overall"]["roc_auc"] == ev.report.overall["roc_auc"]
    assert "logged to MLflow experiment 'cli runs'" in captured.err


def test_report_without_mlflow_is_a_usage_error_before_any_work(store, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "mlflow", None)
    out = tmp_path / "out.json"
    with pytest.raises(SystemExit) as stop:  # the file does not even exist: nothing was read
        main(["report", str(tmp_path / "missing.csv"), "--mlflow", "x", "--json", str(out)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("clfeval: error: --mlflow: ") and "pip install 'clfeval[mlflow]'" in err
    assert not out.exists()


def test_report_with_a_store_mlflow_cannot_use_is_a_usage_error(store, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "false")
    with pytest.raises(SystemExit) as stop:
        main(["report", str(tmp_path / "missing.csv"), "--mlflow", "x"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "MLFLOW_ALLOW_FILE_STORE=true" in err


def test_report_with_clashing_class_names_writes_nothing(store, tmp_path, capsys):
    data = write_csv(tmp_path / "clash.csv", ["a+b", "a b", "c"] * 5)
    out = tmp_path / "out.json"
    assert main(["report", str(data), "--mlflow", "clash", "--json", str(out), *NAMED]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "--mlflow clash: the classes 'a b' and 'a+b' would both be named 'class_a_b'" in err
    assert "distinct names in the file" in err
    assert not out.exists() and MlflowClient().get_experiment_by_name("clash") is None


def test_report_says_the_files_were_written_when_logging_fails(store, tmp_path, capsys):
    client = MlflowClient()
    client.delete_experiment(client.create_experiment("gone"))
    data = write_csv(tmp_path / "preds.csv", ["x", "y", "z"] * 4)
    out = tmp_path / "out.json"
    assert main(["report", str(data), "--mlflow", "gone", "--json", str(out), *NAMED]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "logging to MLflow" in err and "is deleted" in err and "the files above were written" in err
    assert json.loads(out.read_text())["task"] == "multiclass"  # written before the logging, and kept


def test_mlflow_default_database_store_works_with_the_extra(tmp_path, monkeypatch):
    """MLflow 3's default store is ``sqlite:///mlflow.db`` in the working folder; the ``mlflow`` extra
    installs SQLAlchemy and Alembic beside mlflow-skinny so that it works without configuration."""
    pytest.importorskip("alembic", reason="the mlflow extra installs alembic for MLflow's sqlite store")
    monkeypatch.chdir(tmp_path)
    for name in ("MLFLOW_TRACKING_URI", "MLFLOW_EXPERIMENT_NAME", "MLFLOW_EXPERIMENT_ID", "MLFLOW_RUN_ID"):
        monkeypatch.delenv(name, raising=False)
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    mlflow.set_tracking_uri(uri)
    try:
        ev = binary_evaluation()
        logged = log_evaluation(ev, experiment="default-store", intervals=False, figures=False, artifacts=False)
        run = MlflowClient(tracking_uri=uri).get_run(logged.run_id)
        assert run.data.metrics["roc_auc"] == ev.report.overall["roc_auc"]
        assert run.data.metrics == logged.metrics
    finally:
        mlflow.set_tracking_uri(None)


def test_a_tracking_server_that_does_not_answer_is_a_usage_error_before_any_work(tmp_path, monkeypatch, capsys):
    """MLflow would retry an unreachable server for minutes, after the files were written; the command
    asks the server first (a closed port here) and stops with one line, writing nothing."""
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"http://127.0.0.1:{port}")
    data = write_csv(tmp_path / "preds.csv", ["x", "y", "z"] * 4)
    out = tmp_path / "out.json"
    with pytest.raises(SystemExit) as stop:
        main(["report", str(data), "--mlflow", "x", "--json", str(out), *NAMED])
    assert stop.value.code == 2 and not out.exists()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"the MLflow tracking server http://127.0.0.1:{port} does not answer" in err


def test_a_tracking_server_that_answers_anything_passes_the_check():
    import http.server
    import threading

    from clfeval.integrations.mlflow import check_tracking_store

    class NotFound(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's name
            self.send_error(404)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), NotFound)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        uri = f"http://127.0.0.1:{server.server_address[1]}"
        assert check_tracking_store(uri, timeout=5) == uri
    finally:
        server.shutdown()
