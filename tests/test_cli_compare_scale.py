"""``clfeval compare`` at real sizes, and what the command tells the user.

- The paired bootstrap of macro F1 that ``compare`` runs resamples the joint (true, A, B) cell
  counts (a ``functools.partial`` of ``f1_score``), not the rows. Stratified by true class, the
  cell counts of a row resample ARE multinomial draws of each class's cells, so the two paths
  draw from the same distribution: the point estimate is the same number, and the intervals,
  standard errors and p-values agree within Monte Carlo error (the bounds are derived below).
- A hand-checkable case: every replicate's difference takes one of three values with known
  probabilities.
- The batched macro F-beta formula equals scikit-learn's ``f1_score``/``fbeta_score``.
- The command: its numbers against scikit-learn, ``--threshold`` outside [0, 1] with probabilities
  (exit 2), the AUC-below-0.5 hint naming ``--pos-label`` (terminal, JSON, HTML), warnings as one
  note line each, and the progress bar (forced by ``CLFEVAL_PROGRESS=1``, never in a pipe
  otherwise, drawn on a pseudo-terminal).

Speed is shown by ``benchmarks/compare_bench.py``, not here.
"""

from __future__ import annotations

import functools
import io
import json
import math
import os
import pty
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from clfeval.metrics import f1_score
from clfeval.support.progress import Progress
from clfeval.stats import paired_bootstrap_test
from clfeval.stats.paired import macro_fbeta_formula

COMMAND = [sys.executable, "-m", "clfeval"]


def run(*args: object, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The command's result, its output decoded as it came (a ``\r`` stays a ``\r``)."""
    full = {**os.environ, "COLUMNS": "160", "NO_COLOR": "1"}
    full.pop("CLFEVAL_PROGRESS", None)
    full.update(env or {})
    r = subprocess.run([*COMMAND, *map(str, args)], capture_output=True, env=full, timeout=timeout)
    return subprocess.CompletedProcess(r.args, r.returncode, r.stdout.decode(), r.stderr.decode())


def no_python_noise(r: subprocess.CompletedProcess[str]) -> None:
    for text in (r.stdout, r.stderr):
        assert "Traceback" not in text and "Warning" not in text and ".py:" not in text, text


def two_models(n: int, k: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    a = np.where(rng.random(n) < 0.75, y, rng.integers(0, k, n))
    b = np.where(rng.random(n) < 0.65, y, rng.integers(0, k, n))
    return y, a, b


# ---------------------------------------------------------------- count cells = rows, in distribution


def test_the_count_cell_bootstrap_draws_what_the_row_bootstrap_draws() -> None:
    y, a, b = two_models(600, 3, seed=1)
    labels = [0, 1, 2]
    partial = functools.partial(f1_score, average="macro", labels=labels, zero_division=0)

    def plain(yt: np.ndarray, yp: np.ndarray) -> float:  # opaque to the test: rows are resampled
        return float(f1_score(yt, yp, average="macro", labels=labels, zero_division=0))

    big = 1500
    cells = paired_bootstrap_test(y, a, b, partial, n_resamples=big, seed=3)
    rows = paired_bootstrap_test(y, a, b, plain, n_resamples=big, seed=4)
    assert "joint (true, A, B) cells" in cells.method and "rows resampled" in rows.method
    # the same statistic, exactly, and scikit-learn's
    expected = (skm.f1_score(y, a, average="macro", labels=labels, zero_division=0)
                - skm.f1_score(y, b, average="macro", labels=labels, zero_division=0))
    assert cells.estimate == rows.estimate == cells.statistic
    assert math.isclose(cells.estimate, expected, rel_tol=1e-12)
    # Monte Carlo error. Both are B draws from one distribution (nearly normal here), sd sigma.
    # - the sd estimate of B draws has relative sd 1/sqrt(2(B-1)); the difference of two
    #   independent ones sqrt(2) times that; 5 of those is the bound.
    sd_c, sd_r = cells.extra["se"], rows.extra["se"]
    assert abs(sd_c - sd_r) <= 5 * math.sqrt(2) / math.sqrt(2 * (big - 1)) * sd_r
    # - a p-quantile of B draws has sd sqrt(p(1-p)/B) / density at the quantile (normal density:
    #   phi(z_p) / sigma); again sqrt(2) for the difference of two and 5 of those.
    p = 0.025
    q_sd = math.sqrt(p * (1 - p) / big) / stats.norm.pdf(stats.norm.ppf(p)) * sd_r
    lo_c, hi_c = cells.confidence_interval(0.95).low, cells.confidence_interval(0.95).high
    lo_r, hi_r = rows.confidence_interval(0.95).low, rows.confidence_interval(0.95).high
    assert abs(lo_c - lo_r) <= 5 * math.sqrt(2) * q_sd and abs(hi_c - hi_r) <= 5 * math.sqrt(2) * q_sd
    # - the two-sided p-value is twice a share s of the replicates (those <= 0): sd
    #   2 sqrt(s(1-s)/B) each, sqrt(2) for the difference, 5 of those
    s = min(cells.pvalue, 1.0) / 2
    assert 0.0 < s < 0.5
    assert abs(cells.pvalue - rows.pvalue) <= 5 * math.sqrt(2) * 2 * math.sqrt(s * (1 - s) / big)


def test_a_hand_checkable_case_gives_three_values_with_known_chances() -> None:
    # class 0: B predicts one of its two cases wrong, class 1: both right; A is always right.
    # Stratified: class 0's two cases are drawn again; k = how many of them are B's wrong one,
    # Binomial(2, 1/2). B's F1 per class: class 0 = 2(2-k) / (2(2-k) + k), class 1 = 4 / (4 + k).
    #   k = 0 (1/4): both 1          -> A - B = 0
    #   k = 1 (1/2): 2/3 and 4/5     -> A - B = 1 - 11/15 = 4/15
    #   k = 2 (1/4): 0 and 2/3       -> A - B = 1 - 1/3 = 2/3
    y, a, b = [0, 0, 1, 1], [0, 0, 1, 1], [0, 1, 1, 1]
    metric = functools.partial(f1_score, average="macro", labels=[0, 1], zero_division=0)
    big = 4000
    r = paired_bootstrap_test(y, a, b, metric, n_resamples=big, seed=0, alternative="greater", sampling="stratified")
    assert r.estimate == pytest.approx(4 / 15, abs=1e-15)
    # the replicates through the interval's quantiles: the 10% and 90% points are 0 and 2/3
    assert r.confidence_interval(0.8).low == 0.0
    sd = math.sqrt(0.25 * 0.75 / big)  # sd of the share of k = 0 replicates
    share_zero = r.pvalue * (big + 1) - 1  # (1 + #{d <= 0}) / (B + 1)
    assert abs(share_zero / big - 0.25) <= 5 * sd
    two_sided = paired_bootstrap_test(y, a, b, metric, n_resamples=big, seed=0, sampling="stratified")
    ci = two_sided.confidence_interval(0.95)
    assert ci.low == 0.0 and ci.high == pytest.approx(2 / 3, abs=1e-15)


def test_identical_models_give_zero_and_p_one() -> None:
    y, a, _ = two_models(200, 3, seed=5)
    metric = functools.partial(f1_score, average="macro", labels=[0, 1, 2], zero_division=0)
    r = paired_bootstrap_test(y, a, a.copy(), metric, n_resamples=200, seed=0)
    ci = r.confidence_interval(0.95)
    assert r.estimate == 0.0 and r.pvalue == 1.0 and ci.low == ci.high == 0.0


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=40),
       st.sampled_from([None, [0, 1, 2, 3], [3, 1], [0, 1, 2, 3, 4]]), st.sampled_from([0, 1]),
       st.sampled_from([1.0, 0.5, 2.0]))
def test_the_batched_macro_fbeta_is_scikit_learns(pairs: list[tuple[int, int]], labels: list[int] | None,
                                                   zero: int, beta: float) -> None:
    y = np.array([p[0] for p in pairs])
    p = np.array([p[1] for p in pairs])
    present = np.union1d(y, p)
    keywords = {"average": "macro", "labels": labels, "zero_division": zero, "beta": beta}
    formula = macro_fbeta_formula(keywords, present)
    assert formula is not None
    table = np.zeros((1, present.size, present.size))
    np.add.at(table, (0, np.searchsorted(present, y), np.searchsorted(present, p)), 1.0)
    expected = skm.fbeta_score(y, p, beta=beta, average="macro", labels=labels, zero_division=zero)
    assert float(formula(table)[0]) == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_other_keywords_are_left_to_the_metric_itself() -> None:
    labels = np.array([0, 1])
    assert macro_fbeta_formula({"average": "weighted", "zero_division": 0}, labels) is None
    assert macro_fbeta_formula({"average": "macro"}, labels) is None  # "warn": the metric warns
    assert macro_fbeta_formula({"average": "macro", "zero_division": np.nan}, labels) is None
    assert macro_fbeta_formula({"average": "macro", "zero_division": 0, "pos_label": 1}, labels) is None


# ---------------------------------------------------------------- the command


@pytest.fixture(scope="module")
def models_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """20,000 rows: a binary label, two models' probabilities and predictions."""
    rng = np.random.default_rng(11)
    n = 20_000
    y = rng.integers(0, 2, n)
    a = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1).round(4)
    b = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1).round(4)
    path = tmp_path_factory.mktemp("cmp") / "models.csv"
    lines = ["y,score_a,score_b,pred_a,pred_b"]
    lines += [f"{t},{sa},{sb},{int(sa >= 0.5)},{int(sb >= 0.5)}" for t, sa, sb in zip(y, a, b)]
    path.write_text("\n".join(lines) + "\n")
    return path


def _table(path: Path) -> dict[str, np.ndarray]:
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    return {"y": data[:, 0].astype(int), "score_a": data[:, 1], "score_b": data[:, 2],
            "pred_a": data[:, 3].astype(int), "pred_b": data[:, 4].astype(int)}


def test_compare_prints_scikit_learns_numbers_from_the_count_cells(models_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    r = run("compare", models_file, "--y-true", "y", "--model", "A=score_a", "--model", "B=score_b", "--json", out)
    assert r.returncode == 0, r.stderr
    no_python_noise(r)
    assert r.stderr == ""  # no progress bar in a pipe
    d = _table(models_file)
    tests = {t["test"]: t["result"] for t in json.loads(out.read_text())["tests"]}
    boot = tests["paired bootstrap (macro F1)"]
    assert "multinomial over the joint (true, A, B) cells, cross-sectional" in boot["method"]
    f1 = (skm.f1_score(d["y"], d["pred_a"], average="macro") - skm.f1_score(d["y"], d["pred_b"], average="macro"))
    assert math.isclose(boot["statistic"], f1, rel_tol=1e-12)
    auc = skm.roc_auc_score(d["y"], d["score_a"]) - skm.roc_auc_score(d["y"], d["score_b"])
    assert math.isclose(tests["DeLong (ROC AUC)"]["estimate"], auc, rel_tol=1e-12)
    acc = skm.accuracy_score(d["y"], d["pred_a"]) - skm.accuracy_score(d["y"], d["pred_b"])
    assert math.isclose(tests["McNemar (accuracy)"]["estimate"], acc, rel_tol=1e-12)
    # the terminal rows carry the same numbers
    row = next(line for line in r.stdout.splitlines() if "paired bootstrap (macro F1)" in line)
    assert f"{f1:+.4f}" in row
    # same seed, same numbers; another seed, another draw of the same distribution
    again = run("compare", models_file, "--y-true", "y", "--model", "A=score_a", "--model", "B=score_b")
    assert again.stdout == r.stdout.replace(f"wrote {out}\n", "")


@pytest.mark.parametrize("value, what", [("1.5", "no case positive"), ("-0.25", "every case positive")])
def test_a_probability_threshold_outside_0_1_is_a_usage_error(models_file: Path, tmp_path: Path, value: str,
                                                              what: str) -> None:
    out = tmp_path / "r.json"
    for args in (("report", models_file, "--y-true", "y", "--y-score", "score_a", "--json", out),
                 ("compare", models_file, "--y-true", "y", "--model", "A=score_a", "--model", "B=score_b",
                  "--json", out)):
        r = run(*args, f"--threshold={value}")
        assert r.returncode == 2, r.stderr
        no_python_noise(r)
        line = r.stderr.strip().splitlines()[-1]
        assert line.startswith(f"clfeval: error: --threshold {value}: the scores are probabilities"), line
        assert "[0, 1]" in line and what in line
        assert not out.exists()


def test_decision_scores_take_any_threshold(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_text("y,margin\n1,2.5\n0,-1.0\n1,0.7\n0,1.8\n1,3.1\n0,-0.2\n")
    r = run("report", path, "--y-score", "margin", "--threshold", "1.5")
    assert r.returncode == 0, r.stderr
    acc = skm.accuracy_score([1, 0, 1, 0, 1, 0], [1, 0, 0, 1, 1, 0])
    assert f"{acc:.4f}" in next(line for line in r.stdout.splitlines() if line.strip().startswith("accuracy"))


def test_an_auc_below_one_half_names_pos_label(models_file: Path, tmp_path: Path) -> None:
    d = _table(models_file)
    flipped = tmp_path / "flipped.csv"
    flipped.write_text("y,p\n" + "".join(f"{t},{1 - s:.4f}\n" for t, s in zip(d["y"], d["score_a"])))
    auc = skm.roc_auc_score(d["y"], 1 - np.round(d["score_a"], 4))
    js, page = tmp_path / "f.json", tmp_path / "f.html"
    r = run("report", flipped, "--y-true", "y", "--y-score", "p", "--json", js, "--html", page)
    assert r.returncode == 0, r.stderr
    note = (f"ROC AUC of the positive class '1' is {auc:.4f}, below 0.5: the scores may be those of the other "
            "class; if they are, pass --pos-label 0")
    assert note in " ".join(r.stdout.split())
    assert any(n.startswith(note) for n in json.loads(js.read_text())["report"]["notes"])
    assert "pass --pos-label 0" in page.read_text()
    # and --pos-label 0 reads them as class 0's scores: the AUC is 1 - auc, and no such note
    r = run("report", flipped, "--y-true", "y", "--y-score", "p", "--pos-label", "0", "--json", js)
    assert json.loads(js.read_text())["report"]["overall"]["roc_auc"] == pytest.approx(1 - auc, rel=1e-12)
    assert "--pos-label" not in r.stdout
    # compare: the model whose scores are flipped gets the note
    r = run("compare", flipped, "--y-true", "y", "--model", "A=p", "--model", "B=p", "--n-resamples", "50")
    assert "note: model A: ROC AUC of the positive class '1'" in r.stdout


def test_warnings_become_one_note_line_each_in_compare(tmp_path: Path) -> None:
    # model B never predicts class 2: its precision for class 2 is 0/0
    path = tmp_path / "m.csv"
    rows = [(0, 0, 0), (1, 1, 1), (2, 2, 0), (0, 0, 1), (1, 1, 1), (2, 2, 1), (0, 1, 0), (1, 1, 0)]
    path.write_text("y,a,b\n" + "".join(f"{t},{a},{b}\n" for t, a, b in rows))
    js = tmp_path / "m.json"
    r = run("compare", path, "--y-true", "y", "--model", "A=a", "--model", "B=b", "--n-resamples", "50",
            "--json", js)
    assert r.returncode == 0, r.stderr
    no_python_noise(r)
    lines = [line for line in r.stdout.splitlines() if line.startswith("note: model B:")]
    assert lines and "precision is undefined (0/0) for 1 class ('2': never predicted)" in lines[0]
    notes = json.loads(js.read_text())["models"][1]["report"]["notes"]
    assert any("precision is undefined (0/0) for 1 class ('2'" in n for n in notes)


# ---------------------------------------------------------------- progress bar


def test_the_progress_bar_shows_only_when_forced_or_on_a_terminal(tmp_path: Path) -> None:
    path = tmp_path / "small.csv"
    path.write_text("y,a,b\n" + "".join(f"{i % 2},{i % 3 % 2},{i % 5 % 2}\n" for i in range(40)))
    args = ("compare", path, "--y-true", "y", "--model", "A=a", "--model", "B=b", "--n-resamples", "50")
    forced = run(*args, env={"CLFEVAL_PROGRESS": "1"})
    assert forced.returncode == 0 and "\r" in forced.stderr
    drawn = [part for part in forced.stderr.split("\r") if part.startswith("clfeval [")]
    assert any("0/3 evaluating model A" in p for p in drawn) and any("2/3 paired tests A vs B" in p for p in drawn)
    assert forced.stderr.endswith("\r") and not forced.stderr.split("\r")[-2].strip()  # erased at the end
    plain = run(*args)
    assert plain.stderr == "" and forced.stdout == plain.stdout  # a pipe: nothing; the report is the same
    assert run(*args, "--no-progress", env={"CLFEVAL_PROGRESS": "1"}).stderr == ""  # the flag wins
    assert "2/3 paired tests A vs B" in run(*args, "--progress").stderr


def test_the_progress_bar_draws_on_a_pseudo_terminal_and_not_in_a_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLFEVAL_PROGRESS", raising=False)
    main, follower = pty.openpty()
    try:
        with open(follower, "w", closefd=False) as tty:
            with Progress(2, stream=tty, delay=0.0) as bar, bar.step("one"):
                pass
        text = os.read(main, 4096).decode()
    finally:
        os.close(main)
        os.close(follower)
    assert text.startswith("\rclfeval [") and "0/2 one" in text
    pipe = io.StringIO()
    with Progress(2, stream=pipe, delay=0.0) as bar, bar.step("one"):
        pass
    assert pipe.getvalue() == ""
