"""conftest for scikit-learn's metric tests run against clfeval (copied next to the test files).

Written by ``scripts/run_sklearn_metrics_suite.py``; not a module of clfeval. Before the test
modules import, every function that ``clfeval.metrics`` provides under a ``sklearn.metrics`` name
replaces scikit-learn's in ``sklearn.metrics`` and the private modules the tests and scorers take
it from; scikit-learn's remaining metric functions are wrapped unchanged, only to record that a
test called them. Each test's outcome, the functions it touched and its error go to a JSON file
(environment variable ``SKSUITE_RECORDS``).
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import traceback
from pathlib import Path

import pytest

import sklearn.metrics
import sklearn.metrics._base
import sklearn.metrics._classification
import sklearn.metrics._ranking
import sklearn.metrics._scorer

import clfeval.metrics

pytest_plugins = ["sklearn.conftest"]  # scikit-learn's fixtures (global_random_seed, pyplot, ...)

SWAP = os.environ.get("SKSUITE_SWAP", "1") == "1"  # 0: a baseline run of scikit-learn alone
MODULES = [sklearn.metrics, sklearn.metrics._classification, sklearn.metrics._ranking, sklearn.metrics._base,
           sklearn.metrics._scorer]
CLFEVAL_DIR = str(Path(clfeval.metrics.__file__).resolve().parents[1])
TOUCHED: dict[str, set[str]] = {"swapped": set(), "sklearn": set()}
RECORDS: dict[str, dict] = {}
SWAPPED: dict[str, list[str]] = {}
KEPT: list[str] = []


def recording(name: str, func, kind: str):
    @functools.wraps(func)
    def call(*args, **kwargs):
        TOUCHED[kind].add(name)
        return func(*args, **kwargs)
    return call


def swap() -> None:
    originals = {}
    for name in sorted(sklearn.metrics.__all__):
        theirs = getattr(sklearn.metrics, name)
        if not callable(theirs) or isinstance(theirs, type):
            continue
        if getattr(theirs, "__module__", "") not in ("sklearn.metrics._classification", "sklearn.metrics._ranking"):
            continue
        ours = getattr(clfeval.metrics, name, None) if SWAP else None
        if ours is not None:
            replacement = recording(name, ours, "swapped")
            SWAPPED[name] = []
        else:
            replacement = recording(name, theirs, "sklearn")
            KEPT.append(name)
        originals[id(theirs)] = replacement
        for module in MODULES:
            if getattr(module, name, None) is theirs:
                setattr(module, name, replacement)
                if name in SWAPPED:
                    SWAPPED[name].append(module.__name__)
    for scorer in sklearn.metrics._scorer._SCORERS.values():  # scorers hold the functions themselves
        func = getattr(scorer, "_score_func", None)
        if id(func) in originals:
            scorer._score_func = originals[id(func)]


swap()


# pytest.raises(..., match=) and pytest.warns(..., match=) check the class as usual but only note a
# message that does not match, so that the rest of the test still runs: a test "fails by message
# only" when nothing else in it fails.
MISMATCHES: list[str] = []
_RAISES, _WARNS = pytest.raises, pytest.warns


class LenientRaises:
    def __init__(self, expected, match, kwargs):
        self.context, self.match = _RAISES(expected, **kwargs), match

    def __enter__(self):
        self.info = self.context.__enter__()
        return self.info

    def __exit__(self, *exc):
        handled = self.context.__exit__(*exc)
        if handled and not re.search(self.match, str(self.info.value)):
            MISMATCHES.append(f"raises {type(self.info.value).__name__}: expected /{self.match}/, got "
                              f"{str(self.info.value)[:300]!r}")
        return handled


class LenientWarns:
    def __init__(self, expected, match, kwargs):
        self.context, self.match, self.expected = _WARNS(expected, **kwargs), match, expected

    def __enter__(self):
        self.record = self.context.__enter__()
        return self.record

    def __exit__(self, *exc):
        handled = self.context.__exit__(*exc)
        if exc[0] is None:
            ours = [w for w in self.record if issubclass(w.category, self.expected)]
            if not any(re.search(self.match, str(w.message)) for w in ours):
                got = str(ours[0].message)[:300] if ours else ""
                MISMATCHES.append(f"warns {getattr(self.expected, '__name__', self.expected)}: expected "
                                  f"/{self.match}/, got {got!r}")
        return handled


def lenient_raises(expected, *args, match=None, **kwargs):
    if args or match is None:
        return _RAISES(expected, *args, match=match, **kwargs)
    return LenientRaises(expected, match, kwargs)


def lenient_warns(expected=Warning, *args, match=None, **kwargs):
    if args or match is None:
        return _WARNS(expected, *args, match=match, **kwargs)
    return LenientWarns(expected, match, kwargs)


if SWAP:
    pytest.raises, pytest.warns = lenient_raises, lenient_warns


def pytest_runtest_logstart(nodeid, location):
    TOUCHED["swapped"].clear()
    TOUCHED["sklearn"].clear()
    MISMATCHES.clear()


def _frames(tb):
    out = []
    while tb is not None:
        out.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    return out


def classify(excinfo) -> tuple[str, str]:
    """(kind, short text) of a failing test's exception."""
    exc = excinfo.value
    text = f"{type(exc).__name__}: {exc}"
    text = text if len(text) <= 600 else text[:600] + "..."
    frames = _frames(excinfo.tb)
    last = frames[-1] if frames else ""
    in_clfeval = any(f.startswith(CLFEVAL_DIR) for f in frames)
    message = str(exc)
    if isinstance(exc, AssertionError) and last.replace("\\", "/").endswith("_pytest/raises.py"):
        return "message", text  # pytest.raises(Class, match=...): the class was right, the text not
    if "DID NOT WARN" in message:
        return ("message" if "matching the regex" in message else "warning_class"), text
    if "DID NOT RAISE" in message:
        return "error_class", text
    if isinstance(exc, TypeError) and ("unexpected keyword argument" in message
                                       or "positional argument" in message) and not last.startswith(CLFEVAL_DIR):
        return "missing_argument", text
    if isinstance(exc, Warning):
        return "warning_class", text  # a warning turned into an error: one scikit-learn does not give
    if in_clfeval and last.startswith(CLFEVAL_DIR):
        return "raised", text  # clfeval raised where scikit-learn returns (or raises another class)
    return "value", text


def pytest_runtest_makereport(item, call):
    record = RECORDS.setdefault(item.nodeid, {"outcome": "passed"})
    if call.excinfo is None:
        return
    if call.excinfo.errisinstance(pytest.skip.Exception):
        record.update(outcome="skipped", reason=str(call.excinfo.value)[:200])
        return
    if hasattr(item, "wasxfail") or item.get_closest_marker("xfail") is not None:
        record["outcome"] = "xfailed"
        return
    if record["outcome"] == "failed":
        return
    record["outcome"] = "failed"
    record["phase"] = call.when
    record["kind"], record["error"] = classify(call.excinfo)
    record["where"] = [f"{Path(f.filename).name}:{f.lineno}:{f.name}"
                       for f in traceback.extract_tb(call.excinfo.tb)][-4:]


def pytest_runtest_logfinish(nodeid, location):
    record = RECORDS.setdefault(nodeid, {"outcome": "passed"})
    record["swapped"] = sorted(TOUCHED["swapped"])
    if MISMATCHES:
        record["messages"] = list(dict.fromkeys(MISMATCHES))
        if record["outcome"] == "passed":
            record.update(outcome="failed", kind="message", error=record["messages"][0])
    record["sklearn"] = sorted(TOUCHED["sklearn"])


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("SKSUITE_RECORDS")
    if path:
        Path(path).write_text(json.dumps({"swapped": SWAPPED, "kept": KEPT, "tests": RECORDS}, indent=0))

