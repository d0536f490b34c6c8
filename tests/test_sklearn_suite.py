"""scikit-learn's own metric tests, run with ``sklearn.metrics``' functions swapped for clfeval's.

Runs ``scripts/run_sklearn_metrics_suite.py`` (a subprocess that runs pytest on scikit-learn's
``test_classification.py``, ``test_ranking.py`` and ``test_common.py``) and asserts that no test
that calls a swapped function fails by value or behaviour, except those on the allow-list below.
Failures by message only (the error or warning class is right, the ``match=`` wording differs) are
allowed: clfeval words its messages its own way. It takes about 2 minutes here (1 min 47 s with the
machine's 2 cores under a load of 9), under the 4-minute bound for a default test, so it is not
marked slow.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "run_sklearn_metrics_suite.py"

#: failures by value that remain on purpose, each with why
ALLOWED = {
    # scikit-learn's confusion matrix wraps around in int64 (the test asserts 2 * (2**63 - 1) == -2);
    # clfeval's integer counts are exact (DESIGN.md, "Exact arithmetic": no int64 wrap) and give
    # 18446744073709551614. Every other assertion of that test passes.
    "test_classification.py::test_confusion_matrix_dtype",
}

VALUE_KINDS = {"value", "raised", "error_class", "warning_class"}


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    out = tmp_path_factory.mktemp("sksuite") / "suite.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--json", str(out)], capture_output=True, text=True,
                          cwd=ROOT, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "passed" in done.stdout and "written:" in done.stdout
    return json.loads(out.read_text())


def test_no_failure_by_value_in_sklearn_metric_tests(suite):
    failures = {nodeid: record["error"] for nodeid, record in suite["tests"].items()
                if record["kind"] in VALUE_KINDS}
    assert set(failures) == ALLOWED, {k: v for k, v in failures.items() if k not in ALLOWED}
    assert "18446744073709551614" in failures["test_classification.py::test_confusion_matrix_dtype"]


def test_suite_ran_and_swapped_what_clfeval_provides(suite):
    import clfeval.metrics

    import sklearn.metrics

    expected = {name for name in clfeval.metrics.__all__ if name in sklearn.metrics.__all__}
    assert set(suite["swapped"]) == expected
    assert all("sklearn.metrics._classification" in modules or "sklearn.metrics._ranking" in modules
               for modules in suite["swapped"].values())
    summary = suite["summary"]
    assert summary["passed"] > 1300  # 1365 with this branch's functions
    assert sum(summary.values()) == len(suite["tests"]) > 4000
    # no test failed by a missing argument: clfeval's signatures take every argument the tests pass
    assert not [n for n, r in suite["tests"].items() if r["kind"] == "missing_argument"]
