#!/usr/bin/env python
"""Put the generated benchmark tables into README.md, each between its pair of markers.

``results/table.md`` (benchmarks/run.py) goes between the BENCHMARK-TABLE markers,
``results/evaluate_table.md`` (benchmarks/evaluate_bench.py) between the EVALUATE-TABLE ones,
``results/stats_table.md`` (benchmarks/stats_table.py) between the STATS-TABLE ones and
``results/cross_evaluate_table.md`` (benchmarks/cross_evaluate_bench.py) between the
CROSS-EVALUATE-TABLE ones, ``results/streaming_table.md`` (benchmarks/streaming_bench.py)
between the STREAMING-TABLE ones and ``results/metric_at_thresholds_table.md``
(benchmarks/metric_at_thresholds_bench.py) between the AT-THRESHOLDS-TABLE ones, and
``results/coverage_summary.md`` (benchmarks/coverage.py) between the COVERAGE-TABLE ones,
``results/groups_table.md`` (benchmarks/groups_bench.py) between the GROUPS-TABLE ones,
``results/group_coverage_summary.md`` (benchmarks/group_coverage.py) between the
GROUP-COVERAGE-TABLE ones, ``results/measures_table.md`` (benchmarks/measures_bench.py)
between the MEASURES-TABLE ones and ``results/ranking_table.md`` (benchmarks/ranking_bench.py)
between the RANKING-TABLE ones.

    python benchmarks/update_readme.py            # rewrite the block in README.md
    python benchmarks/update_readme.py --check    # exit 1 if README.md's block is out of date

Everything between ``<!-- BENCHMARK-TABLE:START -->`` and ``<!-- BENCHMARK-TABLE:END -->`` is
replaced; the markers stay. Fails (exit status 1, message on stderr) if a file or a marker is
missing, or a marker appears twice or out of order. The README table is never typed by hand.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from bench_io import write_text_atomic

START = "<!-- BENCHMARK-TABLE:START -->"
END = "<!-- BENCHMARK-TABLE:END -->"
HERE = Path(__file__).resolve().parent
DEFAULT_README = HERE.parent / "README.md"
DEFAULT_TABLE = HERE / "results" / "table.md"
#: the other generated tables: (file, start marker, end marker, the script that writes the file)
TABLES = [
    (HERE / "results" / "evaluate_table.md", "EVALUATE-TABLE", "benchmarks/evaluate_bench.py"),
    (HERE / "results" / "stats_table.md", "STATS-TABLE", "benchmarks/stats_table.py"),
    (HERE / "results" / "cross_evaluate_table.md", "CROSS-EVALUATE-TABLE", "benchmarks/cross_evaluate_bench.py"),
    (HERE / "results" / "streaming_table.md", "STREAMING-TABLE", "benchmarks/streaming_bench.py"),
    (HERE / "results" / "metric_at_thresholds_table.md", "AT-THRESHOLDS-TABLE", "benchmarks/metric_at_thresholds_bench.py"),
    (HERE / "results" / "coverage_summary.md", "COVERAGE-TABLE", "benchmarks/coverage.py"),
    (HERE / "results" / "groups_table.md", "GROUPS-TABLE", "benchmarks/groups_bench.py"),
    (HERE / "results" / "group_coverage_summary.md", "GROUP-COVERAGE-TABLE", "benchmarks/group_coverage.py"),
    (HERE / "results" / "measures_table.md", "MEASURES-TABLE", "benchmarks/measures_bench.py"),
    (HERE / "results" / "ranking_table.md", "RANKING-TABLE", "benchmarks/ranking_bench.py"),
]


class MarkerError(ValueError):
    """The README's benchmark-table markers are missing, repeated or out of order."""


def replace_block(readme: str, table: str, start: str = START, end: str = END) -> str:
    """``readme`` with the text between ``start`` and ``end`` replaced by ``table`` (line endings kept)."""
    START, END = start, end  # noqa: N806 - the messages below name the markers in use
    for marker in (START, END):
        count = readme.count(marker)
        if count != 1:
            problem = "is missing" if count == 0 else f"appears {count} times"
            raise MarkerError(f"the marker {marker!r} {problem}; the README needs exactly one {START!r} "
                              f"line and, after it, one {END!r} line where the benchmark table goes")
    head, rest = readme.split(START)
    if END not in rest:
        raise MarkerError(f"{END!r} comes before {START!r}")
    tail = rest.split(END)[1]
    newline = "\r\n" if "\r\n" in readme else "\n"
    body = newline.join(table.strip().splitlines())
    return f"{head}{START}{newline}{newline}{body}{newline}{newline}{END}{tail}"


def _read(path: Path, what: str, hint: str = "") -> str:
    """Text of ``path`` as is (no newline translation), or exit with a clear message."""
    try:
        with open(path, encoding="utf-8", newline="") as file:
            return file.read()
    except FileNotFoundError:
        raise SystemExit(f"error: {what} not found: {path}{hint}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Update (or with --check, verify) the README's benchmark table; returns the exit status."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--readme", type=Path, default=DEFAULT_README, help="default: README.md at the repository root")
    parser.add_argument("--table", type=Path, default=DEFAULT_TABLE, help="default: benchmarks/results/table.md")
    parser.add_argument("--check", action="store_true", help="only check that the README is up to date")
    args = parser.parse_args(argv)

    table = _read(args.table, "benchmark table", " (run `python benchmarks/run.py` first)")
    readme = _read(args.readme, "README")
    try:
        updated = replace_block(readme, table)
        if args.table == DEFAULT_TABLE:
            for path, marker, script in TABLES:
                other = _read(path, f"{marker.lower()} benchmark table", f" (run `python {script}` first)")
                updated = replace_block(updated, other, f"<!-- {marker}:START -->", f"<!-- {marker}:END -->")
    except MarkerError as exc:
        raise SystemExit(f"error: {args.readme}: {exc}") from None
    if updated == readme:
        print(f"{args.readme}: benchmark table already up to date")
        return 0
    if args.check:
        print(f"{args.readme}: benchmark table is out of date; run `python benchmarks/update_readme.py`",
              file=sys.stderr)
        return 1
    write_text_atomic(args.readme, updated)
    print(f"{args.readme}: benchmark table updated from {args.table}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
