"""Timing, peak-memory measurement and result comparison of metric calls."""

from __future__ import annotations

import functools
import gc
import math
import time
import tracemalloc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["CallError", "Measurement", "best_of", "difference", "interleaved", "measure"]

_MIB = float(1 << 20)


@dataclass(frozen=True)
class Measurement:
    """Best wall time over ``repeats`` calls, and the tracemalloc peak of one further call."""

    seconds: float
    repeats: int
    peak_mib: float


class CallError(Exception):
    """A library's call raised; the message names the library and the first line of the error."""

    def __init__(self, library: str, error: Exception) -> None:
        lines = str(error).strip().splitlines()
        super().__init__(f"{library} raised {type(error).__name__}: {lines[0][:200] if lines else ''}")
        self.library = library


def best_of(call: Callable[[], Any], repeats: int) -> float:
    """Best wall time of ``repeats`` calls (the result of each is dropped before the next).

    >>> best_of(lambda: sum(range(10)), 3) >= 0.0
    True
    """
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - start)
        del result
    return best


def interleaved(calls: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """Best time of each call, alternating between them so that a load change hits all alike.

    >>> sorted(interleaved({"a": lambda: 1, "b": lambda: 2}, 2))
    ['a', 'b']
    """
    best = dict.fromkeys(calls, float("inf"))
    for _ in range(repeats):
        for name, call in calls.items():
            best[name] = min(best[name], best_of(call, 1))
    return best


def _run(library: str, call: Callable[[], Any]) -> Any:
    """``call()``, with any exception wrapped in a CallError naming ``library``."""
    try:
        return call()
    except Exception as exc:
        raise CallError(library, exc) from exc


def _peak_mib(library: str, call: Callable[[], Any]) -> float:
    """Peak traced allocation (MiB) during one call, its result included; tracemalloc runs only here."""
    gc.collect()
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        result = _run(library, call)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del result
    return (peak - baseline) / _MIB


def measure(
    funcs: Mapping[str, Callable[..., Any]],
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    repeats: int,
    long_call_s: float,
) -> tuple[dict[str, Measurement], dict[str, Any]]:
    """Time ``func(*args, **kwargs)`` for each library, then measure its peak memory in a separate call.

    Timing (tracemalloc off) is best of ``repeats`` calls, interleaved round by round across the
    libraries so that a change in machine load hits all of them alike; a library whose call took
    over ``long_call_s`` is not called again. Each library's previous result is dropped before its
    next call. Returns the measurements and each library's last result (for the agreement check).
    Raises CallError if a call raises.
    """
    calls = {library: functools.partial(func, *args, **kwargs) for library, func in funcs.items()}
    best = dict.fromkeys(calls, math.inf)
    count = dict.fromkeys(calls, 0)
    results: dict[str, Any] = {}
    active = set(calls)
    for _ in range(repeats):
        for library, call in calls.items():
            if library not in active:
                continue
            results.pop(library, None)
            gc.collect()
            start = time.perf_counter()
            results[library] = _run(library, call)
            elapsed = time.perf_counter() - start
            count[library] += 1
            best[library] = min(best[library], elapsed)
            if elapsed > long_call_s:
                active.discard(library)
    measured = {library: Measurement(best[library], count[library], _peak_mib(library, call))
                for library, call in calls.items()}
    return measured, results


def _text_difference(a: str, b: str) -> str | None:
    """None if equal, else the first differing line of both."""
    if a == b:
        return None
    for number, (line_a, line_b) in enumerate(zip(a.splitlines(), b.splitlines(), strict=False), start=1):
        if line_a != line_b:
            return f"line {number}: {line_a.strip()!r} != {line_b.strip()!r}"
    return f"texts differ in length ({len(a)} vs {len(b)} characters)"


def _array_difference(a: Any, b: Any) -> str | None:
    """None if np.allclose (any float; NaN == NaN) or equal (integers, booleans, strings), else why not."""
    x, y = np.asarray(a), np.asarray(b)
    if x.shape != y.shape:
        return f"shapes differ: {x.shape} vs {y.shape}"
    approximate = x.dtype.kind in "fc" or y.dtype.kind in "fc"
    try:
        same = np.allclose(x, y, equal_nan=True) if approximate else np.array_equal(x, y)
    except TypeError:  # e.g. numbers against strings
        same = False
    if same:
        return None
    if x.ndim == 0:
        return f"{x.item()!r} != {y.item()!r}"
    if x.dtype.kind in "biuf" and y.dtype.kind in "biuf" and x.size:
        with np.errstate(invalid="ignore"):
            gap = np.nanmax(np.abs(x.astype(float) - y.astype(float)))
        return f"values differ (max |difference| {gap:.3g})"
    return "values differ"


def difference(expected: Any, actual: Any) -> str | None:
    """Why ``actual`` does not agree with ``expected`` (None when it does).

    Strings must be equal; dicts, tuples and lists are compared item by item; None only matches
    None; anything else is compared as an array.
    """
    if isinstance(expected, str) or isinstance(actual, str):
        if isinstance(expected, str) and isinstance(actual, str):
            return _text_difference(expected, actual)
        return f"types differ: {type(expected).__name__} vs {type(actual).__name__}"
    if expected is None or actual is None:
        return None if expected is actual else f"{expected!r} vs {actual!r}"
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        if list(expected) != list(actual):
            return f"keys differ: {list(expected)} vs {list(actual)}"
        for key in expected:
            reason = difference(expected[key], actual[key])
            if reason is not None:
                return f"[{key!r}]: {reason}"
        return None
    if isinstance(expected, (tuple, list)) and isinstance(actual, (tuple, list)):
        if len(expected) != len(actual):
            return f"{len(expected)} vs {len(actual)} outputs"
        for index, (x, y) in enumerate(zip(expected, actual, strict=True)):
            reason = difference(x, y)
            if reason is not None:
                return f"output {index}: {reason}"
        return None
    return _array_difference(expected, actual)
