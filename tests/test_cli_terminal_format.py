"""The terminal report in an 80-column terminal: intervals in full, with the decimals they need,
and confusion-matrix shares that never round to 0% or 100% when they are not.

The command runs on a pseudo-terminal (so that it lays the report out for a terminal, as a user
sees it) with ``COLUMNS=80``; the printed intervals are checked against statsmodels' Wilson
interval and against ``Evaluation.intervals()``, and the shares against hand-computed values.
"""

from __future__ import annotations

import math
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.proportion import proportion_confint

import clfeval
from clfeval.report.numbers import column_groups, interval_decimals, interval_text, share_text

INTERVAL = re.compile(r"\[(-?\d+\.\d+|-?inf), (-?\d+\.\d+|-?inf)\]")
ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


def run_on_terminal(*args: object, columns: int = 80) -> tuple[int, str, str]:
    """(exit status, what the terminal shows, standard error) of the command on a pseudo-terminal."""
    main, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": str(columns), "LINES": "40"}
    env.pop("CLFEVAL_PROGRESS", None)
    try:
        proc = subprocess.run([sys.executable, "-m", "clfeval", *map(str, args)], stdout=follower,
                              stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, timeout=180)
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(main, 1 << 16)
            except OSError:  # the terminal's other end is closed: all read
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(main)
    text = ANSI.sub("", b"".join(chunks).decode()).replace("\r\n", "\n")
    return proc.returncode, text, proc.stderr.decode()


def check_80_columns(text: str) -> None:
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80, max(lines, key=len)
    assert "…" not in text, [line for line in lines if "…" in line]


# ---------------------------------------------------------------- the rules, by hand


def test_intervals_get_decimals_until_their_ends_differ() -> None:
    assert interval_text(0.9571, 0.9642) == "[0.957, 0.964]"
    assert interval_text(0.96402, 0.96447) == "[0.9640, 0.9645]"  # not [0.964, 0.964]
    assert interval_text(0.99972, 0.99984) == "[0.9997, 0.9998]"
    assert interval_text(0.123456781, 0.123456789) == "[0.12345678, 0.12345679]"
    assert interval_text(0.5, 0.5) == "[0.500, 0.500]"  # equal ends: nothing to tell apart
    assert interval_text(-0.0123, 0.0456) == "[-0.012, 0.046]"
    assert interval_text(float("nan"), 0.3) == "nan"
    assert interval_decimals(0.1, np.nextafter(0.1, 1.0)) == 17  # the float's precision, no more


@given(st.floats(-10, 10, allow_nan=False), st.floats(-10, 10, allow_nan=False))
def test_different_ends_always_print_differently(x: float, y: float) -> None:
    low, high = min(x, y), max(x, y)
    text = interval_text(low, high)
    a, b = INTERVAL.fullmatch(text).groups()  # type: ignore[union-attr]
    assert len(a.split(".")[1]) == len(b.split(".")[1]) >= 3
    if float(f"{low:.17f}") != float(f"{high:.17f}"):
        assert a != b
    assert abs(float(a) - low) <= 0.5 * 10 ** -len(a.split(".")[1]) * (1 + 1e-9)


def test_shares_never_round_to_0_or_100_percent_unless_they_are() -> None:
    assert share_text(49980 / 50000) == "99.96%"
    assert share_text(20 / 50000) == "0.04%"
    assert share_text(3 / 50000) == "0.01%"  # 0.006%
    assert share_text(49997 / 50000) == "99.99%"  # 99.994%
    assert share_text(1 / 10**6) == "<0.01%" and share_text(1 - 1 / 10**6) == ">99.99%"
    assert share_text(0.995) == "99.5%" and share_text(0.003) == "0.3%"
    assert share_text(0.0) == "0%" and share_text(1.0) == "100%" and share_text(0.25) == "25%"
    assert share_text(float("nan")) == ""


def test_column_groups_fit_the_width() -> None:
    assert column_groups([16] * 8, 80, first=8) == [[0, 1, 2, 3], [4, 5, 6, 7]]  # 8 + 4 x 18 = 80
    assert column_groups([16] * 8, 200, first=8) == [list(range(8))]
    assert column_groups([90, 5], 80, first=8) == [[0], [1]]  # too wide alone: a group of its own


# ---------------------------------------------------------------- the command at 80 columns


@pytest.fixture(scope="module")
def accurate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """100,000 rows, 20 + 3 errors: 3-decimal intervals would read [1.000, 1.000]."""
    n = 100_000
    y = np.r_[np.zeros(n // 2, int), np.ones(n // 2, int)]
    pred = y.copy()
    pred[:20] = 1
    pred[-3:] = 0
    path = tmp_path_factory.mktemp("fmt") / "accurate.csv"
    path.write_text("y_true,y_pred\n" + "".join(f"{t},{p}\n" for t, p in zip(y, pred)))
    return path


def test_narrow_intervals_print_in_full_with_the_decimals_they_need(accurate: Path) -> None:
    status, text, err = run_on_terminal("report", accurate, "--ci")
    assert status == 0, err
    check_80_columns(text)
    # accuracy: Wilson score, as statsmodels computes it
    low, high = proportion_confint(100_000 - 23, 100_000, alpha=0.05, method="wilson")
    section = text[text.index("95% confidence intervals"):]
    line = next(line for line in section.splitlines() if line.strip().startswith("accuracy"))
    a, b = INTERVAL.search(line).groups()  # type: ignore[union-attr]
    d = interval_decimals(low, high)
    assert d >= 4 and (a, b) == (f"{low:.{d}f}", f"{high:.{d}f}") and a != b
    # every interval of the table, against Evaluation.intervals()
    data = np.loadtxt(accurate, delimiter=",", skiprows=1, dtype=int)
    ev = clfeval.evaluate(data[:, 0], data[:, 1])
    ci = ev.intervals(0.95)
    shown = INTERVAL.findall(text)
    for m, per in ci["per_class"].items():
        for lo, hi in zip(per.low, per.high):
            assert (f"{lo:.{interval_decimals(lo, hi)}f}", f"{hi:.{interval_decimals(lo, hi)}f}") in shown, m
    for lo_text, hi_text in shown:
        assert lo_text != hi_text or lo_text in ("0.000", "1.000")
    # confusion-matrix shares: 49980/50000, 20/50000, 3/50000, 49997/50000
    matrix = text[text.index("Confusion matrix"):text.index("rows = true class")]
    for share in ("99.96%", "0.04%", "0.01%", "99.99%"):
        assert share in matrix
    assert "100%" not in matrix and " 0%" not in matrix


def test_every_interval_of_a_multiclass_report_fits_80_columns(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    n, k = 400, 4
    y = rng.integers(0, k, n)
    p = rng.dirichlet(np.ones(k), n)
    p[np.arange(n), y] += 0.3
    p /= p.sum(axis=1, keepdims=True)
    path = tmp_path / "multi.csv"
    cols = [f"proba_{j}" for j in range(k)]
    path.write_text("y_true," + ",".join(cols) + "\n"
                    + "".join(f"{t}," + ",".join(f"{v:.6f}" for v in row) + "\n" for t, row in zip(y, p)))
    status, text, err = run_on_terminal("report", path, "--ci")
    assert status == 0, err
    check_80_columns(text)
    section = text[text.index("95% confidence intervals"):]
    assert len(INTERVAL.findall(section)) >= (k + 3) * 8  # every class and average, every metric
    # the overall rows: kappa's interval against the library's
    ev = clfeval.evaluate(y, y_score=np.round(p, 6))
    kappa = ev.intervals(0.95)["overall"]["kappa"]
    line = next(line for line in section.splitlines() if line.strip().startswith("Cohen's kappa"))
    d = interval_decimals(kappa.low, kappa.high)
    assert f"[{kappa.low:.{d}f}, {kappa.high:.{d}f}]" in line


def test_compare_keeps_its_intervals_whole_at_80_columns(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 300)
    a = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1)
    b = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1)
    path = tmp_path / "two.csv"
    path.write_text("y,a,b\n" + "".join(f"{t},{u:.4f},{v:.4f}\n" for t, u, v in zip(y, a, b)))
    status, text, err = run_on_terminal("compare", path, "--y-true", "y", "--model", "LogisticRegression=a",
                                        "--model", "RandomForest=b", "--n-resamples", "200")
    assert status == 0, err
    check_80_columns(text)
    tests = text[text.index("Paired tests"):]
    assert len(INTERVAL.findall(tests)) == 3  # McNemar, DeLong, bootstrap
    for lo, hi in INTERVAL.findall(tests):
        assert lo != hi and len(lo.split(".")[1]) >= 4
