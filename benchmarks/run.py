#!/usr/bin/env python
"""Time clfeval.metrics against sklearn.metrics in the same process, on the same data.

    python benchmarks/run.py                     # n = 10^6 and 10^7 (targets are checked at 10^7)
    python benchmarks/run.py --quick             # smoke run at n = 10^5
    python benchmarks/run.py --sizes 1e6 --only roc_auc_score log_loss

Prints a table and the PASS/FAIL of every required target, and writes ``results/latest.json`` and
``results/table.md`` (embedded in the top-level README by ``benchmarks/update_readme.py``).
Functions that clfeval.metrics does not have yet are skipped, with a note.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import scipy
import sklearn
import sklearn.metrics

from bench_cases import CASES, TARGET_N, Case, case_names
from bench_data import AGREEMENT, BINARY, MULTICLASS, N_CLASSES, Dataset, make_dataset, task_label
from bench_io import machine_info, write_text_atomic
from bench_measure import CallError, difference, measure
from bench_report import (
    ERROR,
    OK,
    SKIPPED,
    Row,
    console_header,
    console_line,
    evaluate,
    format_n,
    json_payload,
    markdown_table,
    verdict_line,
)

RESULTS_DIR = Path(__file__).resolve().parent / "results"
QUICK_N = 10**5


def say(text: str = "") -> None:
    """Print a line at once (the full run takes a while)."""
    print(text, flush=True)


def _size(text: str) -> int:
    """Parse a sample count such as ``1000000``, ``1e6`` or ``10_000_000``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value.is_integer() or value < 10:
        raise argparse.ArgumentTypeError(f"size must be a whole number >= 10, got {text!r}")
    return int(value)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--sizes", nargs="+", type=_size, default=[10**6, TARGET_N], metavar="N",
                       help="sample counts (default: 1e6 1e7)")
    sizes.add_argument("--quick", action="store_true", help=f"smoke run at n = {QUICK_N:.0e} only")
    parser.add_argument("--only", nargs="+", choices=case_names(), metavar="FUNC",
                        help="benchmark only these functions")
    parser.add_argument("--repeats", type=int, default=3, help="timed calls per function; the best counts (default 3)")
    parser.add_argument("--long-call", type=float, default=10.0, metavar="SECONDS",
                        help="a call slower than this is not repeated (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="data seed (default 0)")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR, help="results folder (default benchmarks/results)")
    parser.add_argument("--strict", action="store_true",
                        help="exit with status 1 if a target fails or any results differ or error")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    if args.quick:
        args.sizes = [QUICK_N]
    args.sizes = sorted(set(args.sizes))
    return args


def load_clfeval() -> tuple[ModuleType | None, str | None]:
    """clfeval.metrics, or None and the reason it cannot be imported (everything is then skipped)."""
    try:
        return importlib.import_module("clfeval.metrics"), None
    except Exception as exc:  # an unfinished package can fail in many ways; report, don't crash
        return None, f"clfeval.metrics cannot be imported ({type(exc).__name__}: {exc})"


def _candidate(module: ModuleType | None, import_error: str | None, case: Case) -> Callable[..., Any] | str:
    """The clfeval function of a case, or why it is skipped."""
    if module is None:
        return import_error or "clfeval.metrics cannot be imported"
    func = getattr(module, case.func, None)
    return func if callable(func) else f"clfeval.metrics.{case.func} does not exist yet"


def run_case(case: Case, data: Dataset, n: int, candidate: Callable[..., Any], repeats: int, long_call_s: float) -> Row:
    """Time and measure sklearn and clfeval on one case, and compare their results."""
    funcs = {"sklearn": getattr(sklearn.metrics, case.func), "clfeval": candidate}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. UndefinedMetricWarning: not what is measured
            measured, results = measure(funcs, case.args(data), case.kwargs, repeats, long_call_s)
    except CallError as exc:
        return Row(case, n, ERROR, note=str(exc))
    mismatch = difference(results.pop("sklearn"), results.pop("clfeval"))
    return Row(case, n, OK, measured["sklearn"], measured["clfeval"], mismatch)


def run_size(n: int, cases: Sequence[Case], module: ModuleType | None, import_error: str | None,
             args: argparse.Namespace) -> list[Row]:
    """All cases at one size, in order; a task's data is generated only if one of its cases runs, and freed after."""
    rows: list[Row] = []
    for task in (BINARY, MULTICLASS):
        plan = [(case, _candidate(module, import_error, case)) for case in cases if case.task == task]
        data: Dataset | None = None
        if any(callable(found) for _, found in plan):
            start = time.perf_counter()
            data = make_dataset(task, n, args.seed)
            say(f"# {task_label(task)} data, n={format_n(n)}: {data.nbytes / 2**20:,.0f} MiB, "
                f"generated in {time.perf_counter() - start:.1f} s")
        for case, found in plan:
            if isinstance(found, str) or data is None:
                row = Row(case, n, SKIPPED, note=str(found))
            else:
                row = run_case(case, data, n, found, args.repeats, args.long_call)
            rows.append(row)
            say(console_line(row))
            where = f"{case.label} [{task_label(task)}, n={format_n(n)}]"
            if row.mismatch is not None:
                say(f"WARNING: results differ for {where}: {row.mismatch}")
            if row.status == ERROR:
                say(f"WARNING: {where} failed: {row.note}")
        del data
    return rows


def metadata(args: argparse.Namespace, import_error: str | None) -> dict[str, Any]:
    """Machine, versions, date and settings of this run."""
    try:
        clfeval_version = importlib.import_module("clfeval").__version__
    except Exception:
        clfeval_version = "not importable"
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_info(),
        "versions": {"numpy": np.__version__, "scipy": scipy.__version__, "sklearn": sklearn.__version__,
                     "clfeval": clfeval_version},
        "settings": {"sizes": args.sizes, "repeats": args.repeats, "long_call_s": args.long_call, "seed": args.seed,
                     "n_classes": N_CLASSES, "prediction_agreement": AGREEMENT, "target_n": TARGET_N},
        "clfeval_import_error": import_error,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; returns the exit status."""
    args = parse_args(argv)
    module, import_error = load_clfeval()
    meta = metadata(args, import_error)
    machine, versions = meta["machine"], meta["versions"]
    say(f"clfeval {versions['clfeval']} vs scikit-learn {versions['sklearn']} (numpy {versions['numpy']}); "
        f"{machine['cpu']}, {machine['cores']} cores, {machine['memory_gib']} GiB")
    if import_error:
        say(f"NOTE: {import_error}; every function is skipped")
    say(f"time: best of {args.repeats} calls alternating sklearn/clfeval (a call over {args.long_call:g} s is not "
        "repeated; runs = timed calls of each); MiB: tracemalloc peak of one more call\n")
    say(console_header())
    cases = [case for case in CASES if args.only is None or case.func in args.only]
    rows = [row for n in args.sizes for row in run_size(n, cases, module, import_error, args)]

    target_n = TARGET_N if TARGET_N in args.sizes else max(args.sizes)
    verdicts = [evaluate(row) for row in rows if row.n == target_n]
    say(f"\nRequired targets at n={format_n(target_n)} "
        "(speed-up where one is required; clfeval peak memory <= sklearn's everywhere):")
    if target_n != TARGET_N:
        say(f"(indicative only: the targets are defined at n={format_n(TARGET_N)}, which was not run)")
    for verdict in verdicts:
        say(verdict_line(verdict))

    args.out.mkdir(parents=True, exist_ok=True)
    json_path, table_path = args.out / "latest.json", args.out / "table.md"
    write_text_atomic(json_path, json.dumps(json_payload(rows, verdicts, meta), indent=2, allow_nan=False) + "\n")
    write_text_atomic(table_path, markdown_table(rows, meta))
    say(f"\nwrote {json_path} and {table_path}")

    failed = any(v.passed is False for v in verdicts) or any(r.status == ERROR or r.mismatch for r in rows)
    return 1 if args.strict and failed else 0


if __name__ == "__main__":
    sys.exit(main())
