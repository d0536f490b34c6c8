"""Run scikit-learn's own metric tests with ``sklearn.metrics``' functions swapped for clfeval's.

The three test files installed with scikit-learn (``sklearn/metrics/tests/test_classification.py``,
``test_ranking.py``, ``test_common.py``) are copied into a temporary folder next to a conftest
(``scripts/sklearn_suite_conftest.py``) that, before the test modules import, puts every function
that ``clfeval.metrics`` provides under a ``sklearn.metrics`` name in place of scikit-learn's (in
``sklearn.metrics``, ``sklearn.metrics._classification``, ``_ranking``, ``_base`` and the scorers of
``sklearn.metrics._scorer``). Whatever clfeval provides is swapped, so the run follows clfeval as it
grows. pytest runs them; every test is then classified:

- ``passed``: passed and called at least one swapped function;
- ``value``: failed by value or behaviour: a wrong number (``value``), an error where scikit-learn
  returns or a different error class (``raised``, ``error_class``), a missing, extra or different
  warning (``warning_class``);
- ``message``: failed by message only: the error or warning class was right, the ``match=`` text not;
- ``missing``: failed because a clfeval function lacks an argument (``missing_argument``), or passed
  while calling only scikit-learn functions that clfeval lacks (``sklearn_only``: not a test of clfeval);
- ``untouched``: called no metric function that clfeval provides or lacks (private helpers, ...);
- ``skipped``: skipped or expected to fail in scikit-learn's own terms.

Usage::

    PYTHONPATH=src python scripts/run_sklearn_metrics_suite.py [--json PATH] [--files test_ranking.py]
        [-k EXPR] [--baseline] [--list KIND]

It prints a summary table (per file and in all) and writes the classification to
``artifacts/sklearn_metrics_suite.json`` (or ``--json PATH``). ``--baseline`` runs the same tests
without swapping (scikit-learn alone) to show which failures are the environment's own.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FILES = ("test_classification.py", "test_ranking.py", "test_common.py")
#: detailed kind -> column of the summary
SUMMARY = {"passed": "passed", "value": "value", "raised": "value", "error_class": "value",
           "warning_class": "value", "message": "message", "missing_argument": "missing",
           "sklearn_only": "missing", "untouched": "untouched", "skipped": "skipped"}
COLUMNS = ("passed", "value", "message", "missing", "untouched", "skipped")


def sklearn_tests_dir() -> Path:
    import sklearn  # the oracle's own tests; only this script imports it

    return Path(sklearn.__file__).resolve().parent / "metrics" / "tests"


def run_suite(files: list[str], workdir: Path, records: Path, *, keyword: str | None, swap: bool) -> int:
    source = sklearn_tests_dir()
    for name in files:
        shutil.copy(source / name, workdir / name)
    shutil.copy(HERE / "sklearn_suite_conftest.py", workdir / "conftest.py")
    # an ini of its own: the project's pytest settings (doctests, warnings as errors) stay out
    (workdir / "pytest.ini").write_text("[pytest]\nmarkers =\n    thread_unsafe\n")
    env = dict(os.environ, SKSUITE_RECORDS=str(records), SKSUITE_SWAP="1" if swap else "0",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])),
               MPLBACKEND="Agg", SKLEARN_SKIP_NETWORK_TESTS="1")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
               "--tb=no", "--no-header", "-rN", "-W", "ignore::DeprecationWarning", *files]
    if keyword:
        command += ["-k", keyword]
    done = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True)
    if not records.exists():
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
    return done.returncode


def classify(raw: dict) -> dict:
    """Add ``kind`` and ``column`` to each test's record; return the whole classification."""
    tests = raw["tests"]
    for nodeid, record in tests.items():
        outcome = record["outcome"]
        if outcome in ("skipped", "xfailed"):
            kind = "skipped"
        elif outcome == "failed":
            kind = record["kind"]
            if not record.get("swapped") and kind == "value":
                kind = "untouched"  # scikit-learn alone failed here (see --baseline)
        elif record.get("swapped"):
            kind = "passed"
        elif record.get("sklearn"):
            kind = "sklearn_only"
        else:
            kind = "untouched"
        record["kind"] = kind
        record["column"] = SUMMARY[kind]
    return raw


def table(raw: dict) -> str:
    rows: dict[str, Counter] = {}
    for nodeid, record in raw["tests"].items():
        rows.setdefault(nodeid.split("::")[0], Counter())[record["column"]] += 1
    total = sum(rows.values(), Counter())
    width = max(len(name) for name in [*rows, "total"]) + 2
    lines = ["file".ljust(width) + "".join(c.rjust(11) for c in COLUMNS)]
    for name, counts in [*sorted(rows.items()), ("total", total)]:
        lines.append(name.ljust(width) + "".join(str(counts[c]).rjust(11) for c in COLUMNS))
    detail = Counter(record["kind"] for record in raw["tests"].values())
    lines.append("detail: " + ", ".join(f"{k}={v}" for k, v in sorted(detail.items())))
    lines.append(f"swapped ({len(raw['swapped'])}): " + ", ".join(sorted(raw["swapped"])))
    lines.append(f"scikit-learn's own, clfeval lacks ({len(raw['kept'])}): " + ", ".join(sorted(raw["kept"])))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, default=ROOT / "artifacts" / "sklearn_metrics_suite.json",
                        help="where to write the classification (default: artifacts/sklearn_metrics_suite.json)")
    parser.add_argument("--files", nargs="+", default=list(FILES), choices=FILES, help="test files to run")
    parser.add_argument("-k", dest="keyword", help="pytest -k expression")
    parser.add_argument("--baseline", action="store_true", help="run scikit-learn alone (nothing swapped)")
    parser.add_argument("--list", nargs="*", metavar="KIND",
                        help="also print the failing tests of these kinds (default: every failure)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sksuite-") as tmp:
        workdir = Path(tmp)
        records = workdir / "records.json"
        run_suite(args.files, workdir, records, keyword=args.keyword, swap=not args.baseline)
        if not records.exists():
            print("the test run wrote no records (see above)", file=sys.stderr)
            return 2
        raw = classify(json.loads(records.read_text()))
    import sklearn

    raw["sklearn_version"] = sklearn.__version__
    raw["baseline"] = args.baseline
    raw["summary"] = dict(sum((Counter({r["column"]: 1}) for r in raw["tests"].values()), Counter()))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(raw, indent=1, sort_keys=True) + "\n")
    print(table(raw))
    if args.list is not None:
        kinds = set(args.list) or {"value", "raised", "error_class", "warning_class", "message", "missing_argument"}
        for nodeid, record in sorted(raw["tests"].items()):
            if record["kind"] in kinds:
                print(f"{record['kind']:>16}  {nodeid}\n{'':>18}{record.get('error', '')[:300]}")
    print(f"written: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
