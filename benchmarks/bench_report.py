"""Benchmark rows, target verdicts, and their renderings (console table, Markdown, JSON)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bench_cases import Case
from bench_data import task_label
from bench_measure import Measurement

__all__ = [
    "OK",
    "SKIPPED",
    "ERROR",
    "MEMORY_SLACK_MIB",
    "Row",
    "Verdict",
    "evaluate",
    "format_n",
    "console_header",
    "console_line",
    "verdict_line",
    "markdown_table",
    "json_payload",
]

OK, SKIPPED, ERROR = "ok", "skipped", "error"
# Two runs of the same call differ by a few KiB of Python objects; a clfeval peak within this much of
# sklearn's counts as "no higher" (it is below the printed precision, so verdicts match the table).
MEMORY_SLACK_MIB = 0.05


@dataclass(frozen=True)
class Row:
    """The outcome of one case at one size."""

    case: Case
    n: int
    status: str  # OK, SKIPPED or ERROR
    sklearn: Measurement | None = None
    clfeval: Measurement | None = None
    mismatch: str | None = None  # why the results disagree (None: they agree, or not compared)
    note: str | None = None  # why skipped / the error

    @property
    def speedup(self) -> float | None:
        """sklearn time / clfeval time."""
        if self.sklearn is None or self.clfeval is None:
            return None
        return self.sklearn.seconds / max(self.clfeval.seconds, 1e-9)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""

        def side(m: Measurement | None) -> dict[str, Any] | None:
            return None if m is None else {"seconds": m.seconds, "repeats": m.repeats, "peak_mib": m.peak_mib}

        return {
            "function": self.case.func,
            "params": self.case.kwargs,
            "task": self.case.task,
            "n": self.n,
            "status": self.status,
            "sklearn": side(self.sklearn),
            "clfeval": side(self.clfeval),
            "speedup": self.speedup,
            "results_agree": None if self.status != OK else self.mismatch is None,
            "mismatch": self.mismatch,
            "note": self.note,
            "required_speedup": self.case.min_speedup,
        }


@dataclass(frozen=True)
class Verdict:
    """Whether one row meets its required speed-up and the peak-memory bound (None: not measured)."""

    row: Row
    passed: bool | None
    detail: str


def evaluate(row: Row) -> Verdict:
    """Check a row against its case's required speed-up and peak memory <= sklearn's."""
    if row.status == SKIPPED:
        return Verdict(row, None, row.note or "skipped")
    if row.status == ERROR:
        return Verdict(row, False, f"error: {row.note}")
    assert row.sklearn is not None and row.clfeval is not None and row.speedup is not None
    checks: list[tuple[bool, str]] = []
    need = row.case.min_speedup
    if need is not None:
        ok = row.speedup >= need
        checks.append((ok, f"speed-up {row.speedup:.1f}x {'>=' if ok else '<'} {need:g}x"))
    ok = row.clfeval.peak_mib <= row.sklearn.peak_mib + MEMORY_SLACK_MIB
    checks.append((ok, f"peak {row.clfeval.peak_mib:.1f} {'<=' if ok else '>'} {row.sklearn.peak_mib:.1f} MiB"))
    if row.mismatch is not None:
        checks.append((False, f"results differ: {row.mismatch}"))
    return Verdict(row, all(ok for ok, _ in checks), "; ".join(text for _, text in checks))


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def format_n(n: int) -> str:
    """10⁶ for powers of ten, else 1,234,567."""
    exponent = round(math.log10(n)) if n > 0 else 0
    return f"10{str(exponent).translate(_SUPERSCRIPT)}" if n >= 10 and 10**exponent == n else f"{n:,}"


def _seconds(value: float) -> str:
    """Seconds to three significant digits, without exponent notation."""
    decimals = min(6, max(0, 2 - math.floor(math.log10(value)))) if value > 0 else 0
    return f"{value:.{decimals}f}"


def _cells(row: Row) -> dict[str, str]:
    """Every display cell of a row, keyed by column name; shared by the console and Markdown tables."""
    s, c = row.sklearn, row.clfeval
    speedup = row.speedup
    check = {OK: "ok" if row.mismatch is None else "DIFFERS", SKIPPED: "skipped", ERROR: "ERROR"}[row.status]
    return {
        "function": row.case.label,
        "task": task_label(row.case.task),
        "n": format_n(row.n),
        "sklearn s": "—" if s is None else _seconds(s.seconds),
        "runs": "—" if s is None or c is None else f"{s.repeats}/{c.repeats}",
        "clfeval s": "—" if c is None else _seconds(c.seconds),
        "speed-up ×": "—" if speedup is None else f"{speedup:.1f}",
        "sklearn MiB": "—" if s is None else f"{s.peak_mib:.1f}",
        "clfeval MiB": "—" if c is None else f"{c.peak_mib:.1f}",
        "peak MiB sklearn / clfeval": "—" if s is None or c is None else f"{s.peak_mib:.1f} / {c.peak_mib:.1f}",
        "check": check,
    }


# (column, width); negative width = left-aligned
_CONSOLE = [
    ("function", -46),
    ("task", -8),
    ("n", 5),
    ("sklearn s", 10),
    ("clfeval s", 10),
    ("speed-up ×", 10),
    ("sklearn MiB", 12),
    ("clfeval MiB", 12),
    ("runs", 5),
    ("check", -8),
]


def _aligned(values: Callable[[str], str], columns: list[tuple[str, int]] = _CONSOLE) -> str:
    """Fixed-width console line of the given columns."""
    return "  ".join(
        values(name).ljust(-width) if width < 0 else values(name).rjust(width) for name, width in columns
    ).rstrip()


def console_header() -> str:
    """Header line of the console table."""
    header = _aligned(lambda name: name)
    return f"{header}\n{'-' * len(header)}"


def console_line(row: Row) -> str:
    """One row of the console table (a skipped or failed row shows why)."""
    cells = _cells(row)
    if row.status == OK:
        return _aligned(cells.__getitem__)
    return f"{_aligned(cells.__getitem__, _CONSOLE[:3])}  {cells['check']}: {row.note}"


def verdict_line(verdict: Verdict) -> str:
    """``PASS``/``FAIL``/``SKIP`` line of one target."""
    word = {True: "PASS", False: "FAIL", None: "SKIP"}[verdict.passed]
    row = verdict.row
    return f"{word}  {row.case.label + ' [' + task_label(row.case.task) + ']':<60}  {verdict.detail}"


_MARKDOWN = ["function", "task", "n", "sklearn s", "clfeval s", "speed-up ×", "peak MiB sklearn / clfeval"]
_LEFT = {"function", "task"}


def markdown_table(rows: Iterable[Row], meta: dict[str, Any]) -> str:
    """The README's benchmark table: measured rows, then notes on skipped/failed ones and the setup."""
    rows = list(rows)
    lines = [
        "<!-- Generated by benchmarks/run.py; do not edit by hand. -->",
        "| " + " | ".join(_MARKDOWN) + " |",
        "|" + "|".join(":---" if name in _LEFT else "---:" for name in _MARKDOWN) + "|",
    ]
    measured = [row for row in rows if row.status == OK]
    for row in measured:
        cells = _cells(row)
        cells["function"] = f"`{cells['function']}`" + (" (results differ!)" if row.mismatch else "")
        lines.append("| " + " | ".join(cells[name] for name in _MARKDOWN) + " |")
    if not measured:
        lines[1:] = ["No function has been benchmarked yet."]
    lines.append("")
    skipped = sorted({row.case.label for row in rows if row.status == SKIPPED})
    if skipped:
        lines.append(f"Skipped (not available in `clfeval.metrics` yet): {', '.join(f'`{s}`' for s in skipped)}.")
        lines.append("")
    failed = sorted({row.case.label for row in rows if row.status == ERROR})
    if failed:
        lines.append(f"Failed to run (see `latest.json`): {', '.join(f'`{s}`' for s in failed)}.")
        lines.append("")
    machine, versions, settings = meta["machine"], meta["versions"], meta["settings"]
    lines.append(
        f"Wall time: best of {settings['repeats']} calls, alternating between the libraries "
        f"(1 call if over {settings['long_call_s']:g} s); "
        "peak: tracemalloc peak of one further call; both libraries in the same process on the same data. "
        f"{machine['cpu']}, {machine['cores']} cores, {machine['memory_gib']} GiB; Python {machine['python']}, "
        f"numpy {versions['numpy']}, scikit-learn {versions['sklearn']}, clfeval {versions['clfeval']}; "
        f"{meta['date'][:10]}."
    )
    return "\n".join(lines) + "\n"


def json_payload(rows: Iterable[Row], verdicts: Iterable[Verdict], meta: dict[str, Any]) -> dict[str, Any]:
    """latest.json: metadata, every row, and the target verdicts."""
    return {
        **meta,
        "rows": [row.to_dict() for row in rows],
        "targets": [
            {
                "function": v.row.case.func,
                "params": v.row.case.kwargs,
                "task": v.row.case.task,
                "n": v.row.n,
                "required_speedup": v.row.case.min_speedup,
                "passed": v.passed,
                "detail": v.detail,
            }
            for v in verdicts
        ],
    }
