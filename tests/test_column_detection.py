"""Column detection never mixes two models (issue 17, section 2): the rule of clfeval.inputs.column_roles,
through the real command (in memory, streamed, a directory, Dask) and as a unit.

Numbers are checked against scikit-learn on the column the report says it read.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from clfeval.inputs.column_roles import ColumnChoice, ColumnChoiceError, columns_html, labels_from_columns, parse_label

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")
skm = pytest.importorskip("sklearn.metrics")


def run(*args: str | os.PathLike[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "160", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "clfeval", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=120)


def one_error_line(r: subprocess.CompletedProcess[str], status: int) -> str:
    assert r.returncode == status, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clfeval: error: "), r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    return lines[0]


def report_json(path: Path, tmp_path: Path, *options: str, note: str | None = None) -> dict:
    """``clfeval report path options --json``: it succeeds (printing ``note``); the JSON."""
    out = tmp_path / "r.json"
    r = run("report", path, *options, "--json", out)
    assert r.returncode == 0, r.stderr
    assert note is None or note in r.stderr, r.stderr
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def two_models(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    """A binary file with two models' probabilities and predictions (the issue's layout)."""
    rng = np.random.default_rng(17)
    n = 400
    y = rng.integers(0, 2, n)
    lr = np.clip(0.3 * y + 0.35 + 0.25 * rng.standard_normal(n), 0.001, 0.999).round(6)
    rf = np.clip(0.25 * y + 0.375 + 0.25 * rng.standard_normal(n), 0.001, 0.999).round(6)
    frame = pd.DataFrame({"y_true": y, "proba_lr": lr, "proba_rf": rf, "pred_lr": (lr >= 0.5).astype(int),
                          "pred_rf": (rf >= 0.5).astype(int)})
    path = tmp_path_factory.mktemp("two") / "two.csv"
    frame.to_csv(path, index=False)
    return path, frame


def choice(columns: list[str], **kw: object) -> ColumnChoice:
    return ColumnChoice("f.csv", ["y", *columns], "y", kw.pop("y_pred", None), kw.pop("y_score", None),  # type: ignore[arg-type]
                        None, bool(kw.pop("explicit", False)), list(columns))


# ---------------------------------------------------------------- the command


def test_two_models_without_an_option_is_a_usage_error(two_models, tmp_path):
    path, _ = two_models
    out = tmp_path / "r.json"
    line = one_error_line(run("report", path, "--json", out), 2)
    for name in ("proba_lr", "proba_rf", "pred_lr", "pred_rf", "--y-score COL", "clfeval compare --model"):
        assert name in line
    assert "do not name the classes (0, 1)" in line
    assert not out.exists()


def test_the_advice_to_compare_works_as_written(two_models, tmp_path):
    """report's error says "clfeval compare --model NAME=COL": compare finds y_true as report does."""
    path, frame = two_models
    out = tmp_path / "c.json"
    r = run("compare", path, "--model", "lr=proba_lr", "--model", "rf=proba_rf", "--n-resamples", "200",
            "--no-progress", "--json", out)
    assert r.returncode == 0, r.stderr
    assert "clfeval: detected columns: y_true = y_true" in r.stderr
    data = json.loads(out.read_text())
    assert [m["columns"]["y_true"] for m in data["models"]] == ["y_true", "y_true"]
    aucs = [m["report"]["overall"]["roc_auc"] for m in data["models"]]
    assert aucs == pytest.approx([skm.roc_auc_score(frame.y_true, frame.proba_lr),
                                  skm.roc_auc_score(frame.y_true, frame.proba_rf)], rel=1e-12)
    # a column a model reads is never taken for the true labels; with none left: one line, exit 1
    bare = tmp_path / "bare.csv"
    frame[["proba_lr", "proba_rf"]].to_csv(bare, index=False)
    line = one_error_line(run("compare", bare, "--model", "a=proba_lr", "--model", "b=proba_rf"), 1)
    assert "no column of true labels found; name it with --y-true COLUMN (columns: proba_lr, proba_rf)" in line
    twice = tmp_path / "twice.csv"
    frame.drop(columns="y_true").rename(columns={"pred_lr": "Label", "pred_rf": "label"}).to_csv(twice, index=False)
    line = one_error_line(run("compare", twice, "--model", "a=proba_lr", "--model", "b=proba_rf"), 1)
    assert line.endswith("columns 'Label' and 'label' both look like the y_true column; "
                         "name the one to read with --y-true COLUMN")


def test_y_score_reads_that_column_alone(two_models, tmp_path):
    path, frame = two_models
    data = report_json(path, tmp_path, "--y-score", "proba_lr", note="columns not read: proba_rf, pred_lr, pred_rf")
    assert data["columns"] == {"y_true": "y_true", "y_pred": None, "y_score": ["proba_lr"], "sample_weight": None,
                               "unused": ["proba_rf", "pred_lr", "pred_rf"]}
    assert data["roc"]["1"]["area"] == pytest.approx(skm.roc_auc_score(frame.y_true, frame.proba_lr), rel=1e-12)
    # the predictions are this model's scores at 0.5, not the other model's column
    acc = data["report"]["overall"]["accuracy"]
    assert acc == pytest.approx(skm.accuracy_score(frame.y_true, (frame.proba_lr >= 0.5).astype(int)), rel=1e-12)


def test_a_named_score_column_stops_the_detection_of_predictions(tmp_path):
    y = np.array([0, 1, 1, 0, 1, 0])
    score = np.array([0.2, 0.7, 0.6, 0.4, 0.3, 0.8])
    path = tmp_path / "m.csv"
    pd.DataFrame({"y_true": y, "y_pred": 1 - y, "y_score": score}).to_csv(path, index=False)
    data = report_json(path, tmp_path, "--y-score", "y_score", note="columns not read: y_pred")
    assert data["columns"]["y_pred"] is None
    assert data["report"]["overall"]["accuracy"] == pytest.approx(skm.accuracy_score(y, score >= 0.5))


def test_y_pred_reads_no_scores(two_models, tmp_path):
    path, frame = two_models
    data = report_json(path, tmp_path, "--y-pred", "pred_lr", note="columns not read: proba_lr, proba_rf, pred_rf")
    assert data["columns"]["y_score"] == [] and data["columns"]["y_pred"] == "pred_lr"
    assert not data.get("roc")  # no model's scores beside this model's predictions
    assert data["report"]["overall"]["accuracy"] == pytest.approx(skm.accuracy_score(frame.y_true, frame.pred_lr))


def test_y_pred_and_y_score_of_one_model(two_models, tmp_path):
    path, frame = two_models
    data = report_json(path, tmp_path, "--y-pred", "pred_rf", "--y-score", "proba_rf")
    assert data["columns"]["unused"] == ["proba_lr", "pred_lr"]
    assert data["roc"]["1"]["area"] == pytest.approx(skm.roc_auc_score(frame.y_true, frame.proba_rf), rel=1e-12)
    assert data["report"]["overall"]["accuracy"] == pytest.approx(skm.accuracy_score(frame.y_true, frame.pred_rf))


@pytest.mark.parametrize("how", [["--stream"], ["--batch-rows", "50", "--stream"]])
def test_streamed_paths_follow_the_same_rule(two_models, tmp_path, how):
    path, frame = two_models
    line = one_error_line(run("report", path, *how), 2)
    assert "proba_lr, proba_rf" in line and "pred_lr, pred_rf" in line
    out = tmp_path / "r.json"
    r = run("report", path, *how, "--y-score", "proba_lr", "--json", out)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["columns"]["y_score"] == ["proba_lr"]
    assert data["roc"]["1"]["area"] == pytest.approx(skm.roc_auc_score(frame.y_true, frame.proba_lr), rel=1e-9)


def test_the_dask_path_follows_the_same_rule(two_models):
    pytest.importorskip("dask.dataframe")
    from clfeval.dask import evaluate_file

    path, frame = two_models
    line = one_error_line(run("report", path, "--scheduler", "synchronous"), 2)
    assert "proba_lr, proba_rf" in line and "pred_lr, pred_rf" in line
    with pytest.raises(ColumnChoiceError, match="proba_lr, proba_rf"):
        evaluate_file(path, scheduler="synchronous")
    ev = evaluate_file(path, scheduler="synchronous", y_score="proba_lr")
    assert ev.roc["1"].area == pytest.approx(skm.roc_auc_score(frame.y_true, frame.proba_lr), rel=1e-12)
    ev = evaluate_file(path, scheduler="synchronous", y_pred="pred_rf")
    accuracy = ev.to_dict()["report"]["overall"]["accuracy"]
    assert not ev.has_scores and accuracy == pytest.approx(skm.accuracy_score(frame.y_true, frame.pred_rf))


def test_a_directory_follows_the_rule(two_models, tmp_path):
    _, frame = two_models
    folder = tmp_path / "parts"
    folder.mkdir()
    frame.iloc[:200].to_csv(folder / "a.csv", index=False)
    frame.iloc[200:].to_csv(folder / "b.csv", index=False)
    assert "proba_lr, proba_rf" in one_error_line(run("report", folder), 2)


def test_int_suffixes_are_one_column_per_class(tmp_path):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    p = np.clip(0.3 * y + 0.35 + 0.2 * rng.standard_normal(200), 0.01, 0.99)
    path, out = tmp_path / "m.csv", tmp_path / "m.json"
    pd.DataFrame({"y_true": y, "Proba_0": 1 - p, "Proba_1": p, "id": np.arange(200)}).to_csv(path, index=False)
    r = run("report", path, "--json", out)
    assert r.returncode == 0, r.stderr
    assert "y_score = Proba_0, Proba_1 (one column per class)" in r.stderr
    data = json.loads(out.read_text())
    assert data["columns"] == {"y_true": "y_true", "y_pred": None, "y_score": ["Proba_0", "Proba_1"],
                               "sample_weight": None, "unused": ["id"]}
    assert data["roc"]["1"]["area"] == pytest.approx(skm.roc_auc_score(y, p), rel=1e-12)


def test_string_suffixes_in_any_case_give_the_label_order(tmp_path):
    rng = np.random.default_rng(2)
    spam = rng.random(300) < 0.4
    p = np.clip(0.3 * spam + 0.35 + 0.2 * rng.standard_normal(300), 0.01, 0.99)
    labels = np.where(spam, "spam", "ham")
    path, out = tmp_path / "mail.csv", tmp_path / "mail.json"
    pd.DataFrame({"label": labels, "p_Spam": p, "p_HAM": 1 - p}).to_csv(path, index=False)
    r = run("report", path, "--pos-label", "spam", "--json", out)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["labels"] == ["spam", "ham"] and data["pos_label"] == "spam"
    assert data["roc"]["spam"]["area"] == pytest.approx(skm.roc_auc_score(spam, p), rel=1e-12)


def test_named_per_class_columns_that_name_the_classes_give_their_order(tmp_path):
    """--y-score p_spam,p_ham is read as spam, ham (not as the sorted labels ham, spam)."""
    rng = np.random.default_rng(6)
    spam = rng.random(200) < 0.5
    p = np.clip(0.3 * spam + 0.35 + 0.2 * rng.standard_normal(200), 0.01, 0.99)
    path = tmp_path / "mail.csv"
    pd.DataFrame({"label": np.where(spam, "spam", "ham"), "p_spam": p, "p_ham": 1 - p}).to_csv(path, index=False)
    for order in (["p_spam", "p_ham"], ["p_ham", "p_spam"]):
        data = report_json(path, tmp_path, "--y-score", ",".join(order), "--pos-label", "spam")
        assert data["labels"] == [c[2:] for c in order]
        assert data["roc"]["spam"]["area"] == pytest.approx(skm.roc_auc_score(spam, p), rel=1e-12)
    line = one_error_line(run("report", path, "--y-score", "p_spam,p_ham", "--labels", "ham,spam"), 2)
    assert "name the classes spam, ham, but --labels orders them ham, spam" in line
    data = report_json(path, tmp_path, "--y-score", "p_ham,p_spam", "--labels", "ham,spam")
    assert data["roc"]["spam"]["area"] == pytest.approx(skm.roc_auc_score(spam, p), rel=1e-12)


def test_labels_name_a_class_absent_from_the_data_and_set_the_column_order(tmp_path):
    rng = np.random.default_rng(3)
    y = np.array(list("ab"))[rng.integers(0, 2, 200)]
    raw = rng.random((200, 3)) + np.c_[y == "a", y == "b", np.zeros(200)]
    prob = raw / raw.sum(axis=1, keepdims=True)
    path, out = tmp_path / "abc.csv", tmp_path / "abc.json"
    pd.DataFrame({"y_true": y, "proba_a": prob[:, 0], "proba_b": prob[:, 1], "proba_c": prob[:, 2]}).to_csv(
        path, index=False)
    r = run("report", path, "--labels", "c,b,a", "--json", out)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["labels"] == ["c", "b", "a"] and data["columns"]["y_score"] == ["proba_c", "proba_b", "proba_a"]
    assert data["roc"]["a"]["area"] == pytest.approx(skm.roc_auc_score(y == "a", prob[:, 0]), rel=1e-12)
    # without --labels the suffixes may name more classes than the data hold
    r = run("report", path, "--json", out)
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text())["labels"] == ["a", "b", "c"]
    # --labels that leave a suffix's class out: the columns do not name those classes
    line = one_error_line(run("report", path, "--labels", "a,b"), 2)
    assert "proba_a, proba_b, proba_c" in line and "of --labels (a, b)" in line


def test_rows_that_do_not_sum_to_one_keep_the_note(tmp_path):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 150)
    path = tmp_path / "m.csv"
    pd.DataFrame({"y_true": y, **{f"proba_{k}": rng.random(150) for k in range(3)}}).to_csv(path, index=False)
    r = run("report", path)
    assert r.returncode == 0, r.stderr
    assert "must sum to 1" in r.stderr + r.stdout


def test_one_class_column_is_that_class_s_score(tmp_path):
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 200)
    p0 = np.clip(0.6 - 0.3 * y + 0.2 * rng.standard_normal(200), 0.01, 0.99)
    path, out = tmp_path / "p0.csv", tmp_path / "p0.json"
    pd.DataFrame({"y_true": y, "proba_0": p0}).to_csv(path, index=False)
    r = run("report", path, "--json", out)
    assert r.returncode == 0, r.stderr
    assert "y_score = proba_0 (the scores of class 0)" in r.stderr
    data = json.loads(out.read_text())
    assert data["pos_label"] == 0
    assert data["roc"]["0"]["area"] == pytest.approx(skm.roc_auc_score(y == 0, p0), rel=1e-12)
    line = one_error_line(run("report", path, "--pos-label", "1"), 2)
    assert "proba_0 holds the scores of class 0" in line


def test_a_lone_suffixed_score_column_says_how_to_read_it(tmp_path):
    path = tmp_path / "lone.csv"
    pd.DataFrame({"y_true": [0, 1, 1, 0], "proba_lr": [0.2, 0.7, 0.6, 0.4]}).to_csv(path, index=False)
    line = one_error_line(run("report", path), 2)
    assert "pass --y-score proba_lr" in line


def test_two_sets_of_per_class_columns(tmp_path):
    y = np.array([0, 1, 1, 0, 1])
    p = np.array([0.2, 0.7, 0.6, 0.4, 0.9])
    path = tmp_path / "m.csv"
    pd.DataFrame({"y_true": y, "proba_lr_0": 1 - p, "proba_lr_1": p, "proba_rf_0": p, "proba_rf_1": 1 - p}).to_csv(
        path, index=False)
    line = one_error_line(run("report", path), 2)
    assert "proba_lr_0, proba_lr_1 and proba_rf_0, proba_rf_1 are 2 sets of one score column per class" in line
    plain = tmp_path / "plain.csv"
    pd.DataFrame({"y_true": y, "lr_0": 1 - p, "lr_1": p, "rf_0": p, "rf_1": 1 - p}).to_csv(plain, index=False)
    line = one_error_line(run("report", plain), 2)
    assert "no prediction or score column found" in line and "clfeval compare --model" in line
    out = tmp_path / "r.json"
    r = run("report", plain, "--y-score", "rf_0,rf_1", "--json", out)
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text())["roc"]["1"]["area"] == pytest.approx(skm.roc_auc_score(y, 1 - p))


def test_html_and_reloaded_json_record_the_columns(two_models, tmp_path):
    path, _ = two_models
    page, out = tmp_path / "r.html", tmp_path / "r.json"
    r = run("report", path, "--y-score", "proba_rf", "--html", page, "--json", out)
    assert r.returncode == 0, r.stderr
    line = "Columns read: y_true = y_true; y_score = proba_rf; not read: proba_lr, pred_lr, pred_rf"
    assert line in page.read_text()
    from clfeval.report.html import render_html

    assert line in render_html(json.loads(out.read_text()))  # the JSON read back renders the same line


# ---------------------------------------------------------------- the rule, as a unit


def test_parse_label_by_kind():
    assert [parse_label("1", k) for k in "iuf"] == [1, 1, 1.0]
    assert parse_label("lr", "i") is None and parse_label("x", "f") is None
    assert (parse_label("TRUE", "b"), parse_label("0", "b"), parse_label("yes", "b")) == (True, False, None)
    assert parse_label("Spam", "O") == "Spam"


def test_float_and_bool_labels_are_named_by_suffixes():
    c = choice(["p_0", "p_1"])
    c.settle([0.0, 1.0], labels_given=False)
    assert c.y_score == ["p_0", "p_1"]
    c = choice(["proba_False", "proba_True"])
    c.settle([False, True], labels_given=False)
    assert c.score_labels == ["False", "True"]
    assert labels_from_columns(c.score_labels, np.array([True]), None, None) == ([False, True], True)  # the larger class is positive


def test_one_class_column_of_two_classes_one_of_them_perhaps_absent():
    for seen, ok in (([0, 1], True), ([0], True), ([1], True), ([0, 2], False), ([0, 1, 2], False)):
        c = choice(["proba_1"])
        if ok:
            c.settle(seen, labels_given=False)
            assert c.y_score == ["proba_1"] and c.score_labels == ["1"]
        else:
            with pytest.raises(ColumnChoiceError, match="pass --y-score proba_1"):
                c.settle(seen, labels_given=False)
    with pytest.raises(ColumnChoiceError, match="of --labels"):
        choice(["proba_1"]).settle([0, 2], labels_given=True)


def test_explicit_columns_stop_detection():
    c = choice(["proba_lr", "pred_rf", "proba_0"], y_score=["proba_lr"], explicit=True)
    assert not c.needs_classes
    c.settle(None, labels_given=False)
    assert c.y_score == ["proba_lr"] and c.unused() == ["pred_rf", "proba_0"]
    assert c.unused_note() == "columns not read: pred_rf, proba_0 (only the columns named or detected are read)"
    assert c.used()["unused"] == ["pred_rf", "proba_0"]


def test_a_plain_score_beside_suffixed_ones_and_two_predictions():
    with pytest.raises(ColumnChoiceError, match="score columns score, proba_0, proba_1"):
        choice(["proba_0", "proba_1"], y_score=["score"])
    c = choice(["pred_a"], y_pred="y_pred")
    with pytest.raises(ColumnChoiceError, match="prediction columns y_pred, pred_a"):
        c.settle(None, labels_given=False)


def test_a_class_named_twice_is_not_one_column_per_class():
    c = choice(["proba_A", "proba_a"])
    with pytest.raises(ColumnChoiceError, match="proba_A, proba_a"):
        c.settle(["a", "b"], labels_given=False)


def test_columns_html_escapes_names():
    html = columns_html({"y_true": "<y>", "y_pred": None, "y_score": [], "sample_weight": "w", "unused": []})
    assert html == '<p class="hint">Columns read: y_true = &lt;y&gt;; sample_weight = w</p>'
    assert columns_html(None) == ""


names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6)


@example([0, 1, 2, 3, -1], random.Random(0), "proba_", 1)  # proba_-1 of an absent class -1 was read as class 1
@settings(max_examples=60, deadline=None)
@given(st.one_of(st.lists(st.integers(-5, 50), min_size=2, max_size=6, unique=True),
                 st.lists(names, min_size=2, max_size=6, unique=True)),
       st.randoms(use_true_random=False), st.sampled_from(["proba_", "p.", "Score:", "y_prob-"]),
       st.integers(0, 2))
def test_per_class_columns_in_any_order_are_read_in_that_order(classes, random, prefix, absent):
    """Suffixes naming every class: read in the columns' order, with classes absent from y_true too;
    the same columns for two models: an error naming both sets."""
    order = list(classes)
    random.shuffle(order)
    columns = [f"{prefix}{v}" for v in order]
    seen = classes[: max(1, len(classes) - absent)]
    c = choice(columns)
    c.settle(seen, labels_given=False, kind=np.asarray(classes).dtype.kind)
    assert c.y_score == columns and c.score_labels == [str(v) for v in order]
    typed = labels_from_columns(c.score_labels, np.asarray(classes), None, None)[0]
    assert list(typed) == order
    c = choice(columns, y_score=None)
    c.settle(order[::-1], labels_given=True, kind=np.asarray(classes).dtype.kind)  # --labels: their order
    assert c.score_labels == [str(v) for v in order[::-1]]
    two = [f"{prefix}{m}_{v}" for m in ("lr", "rf") for v in order]
    with pytest.raises(ColumnChoiceError, match="2 sets of one score column per class"):
        choice(two).settle(classes, labels_given=False, kind=np.asarray(classes).dtype.kind)


# ---------------------------------------------------------------- found in review (lead)


def test_the_column_order_does_not_choose_the_positive_class(tmp_path):
    """p_1,p_0 and p_0,p_1 hold the same scores: both report class 1 (the larger, as predict_proba's
    columns) as the positive class, with the same AP and break-even; so do p_spam,p_ham."""
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 300)
    p = np.clip(0.3 * y + 0.35 + 0.2 * rng.standard_normal(300), 0.01, 0.99).round(6)
    results = []
    for cols in (["p_1", "p_0"], ["p_0", "p_1"]):
        path = tmp_path / f"{'_'.join(cols)}.csv"
        pd.DataFrame({"y_true": y, cols[0]: p if cols[0] == "p_1" else 1 - p,
                      cols[1]: p if cols[1] == "p_1" else 1 - p}).to_csv(path, index=False)
        data = report_json(path, tmp_path)
        assert data["pos_label"] == 1
        assert data["report"]["overall"]["average_precision"] == pytest.approx(
            skm.average_precision_score(y, p), rel=1e-12)
        results.append(data["report"]["overall"]["average_precision"])
    assert results[0] == results[1]
    path = tmp_path / "mail.csv"
    pd.DataFrame({"label": np.where(y == 1, "spam", "ham"), "p_spam": p, "p_ham": 1 - p}).to_csv(path, index=False)
    assert report_json(path, tmp_path)["pos_label"] == "spam"


def test_compare_reads_per_class_columns_by_their_names(tmp_path):
    """--model A=p_spam,p_ham: the columns are put in label order (ham, spam) by their names, for the
    evaluation, the predictions of McNemar's test and DeLong's AUCs alike."""
    rng = np.random.default_rng(9)
    spam = rng.random(400) < 0.5
    a = np.clip(0.3 * spam + 0.35 + 0.2 * rng.standard_normal(400), 0.01, 0.99).round(6)
    b = np.clip(0.2 * spam + 0.4 + 0.2 * rng.standard_normal(400), 0.01, 0.99).round(6)
    path, out = tmp_path / "two.csv", tmp_path / "c.json"
    pd.DataFrame({"label": np.where(spam, "spam", "ham"), "p_spam": a, "p_ham": 1 - a,
                  "q_ham": 1 - b, "q_spam": b}).to_csv(path, index=False)
    page = tmp_path / "c.html"
    r = run("compare", path, "--y-true", "label", "--model", "A=p_spam,p_ham", "--model", "B=q_ham,q_spam",
            "--no-progress", "--json", out, "--html", page)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    # the JSON and the page say which columns each model was read from
    assert [m["columns"] for m in data["models"]] == [
        {"y_true": "label", "y_pred": None, "y_score": ["p_spam", "p_ham"], "sample_weight": None, "unused": []},
        {"y_true": "label", "y_pred": None, "y_score": ["q_ham", "q_spam"], "sample_weight": None, "unused": []}]
    html = page.read_text()
    assert "Columns read: y_true = label; y_score = p_spam, p_ham" in html
    assert "Columns read: y_true = label; y_score = q_ham, q_spam" in html
    aucs = [m["report"]["overall"]["roc_auc"] for m in data["models"]]
    assert aucs == pytest.approx([skm.roc_auc_score(spam, a), skm.roc_auc_score(spam, b)], rel=1e-12)
    acc = [m["report"]["overall"]["accuracy"] for m in data["models"]]
    assert acc == pytest.approx([skm.accuracy_score(spam, a >= 0.5), skm.accuracy_score(spam, b >= 0.5)], rel=1e-12)
    tests = {t["test"]: t["result"] for t in data["tests"]}
    mcnemar = next(v for k, v in tests.items() if k.startswith("McNemar"))
    assert mcnemar["estimate"] == pytest.approx(acc[0] - acc[1], abs=1e-12)
    delong = next(v for k, v in tests.items() if k.startswith("DeLong"))
    assert delong["estimate"] == pytest.approx(aucs[0] - aucs[1], abs=1e-12)


def test_named_score_columns_that_name_no_class_get_a_note(two_models, tmp_path):
    path, frame = two_models
    r = run("report", path, "--y-score", "proba_lr,proba_rf")
    assert r.returncode == 0, r.stderr
    assert ("--y-score proba_lr,proba_rf: the column names do not name the classes 0, 1, so the columns are "
            "read as their scores in that order") in r.stderr
