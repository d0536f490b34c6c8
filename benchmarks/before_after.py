#!/usr/bin/env python
"""Did a change make clfeval slower? The benchmark suites of two commits, run in turns.

    python benchmarks/before_after.py --before 203ce74 --after HEAD             # 5 rounds at n = 10^6
    python benchmarks/before_after.py --before 203ce74 --rounds 1 --n 1e5       # a smoke run

Each commit is checked out in a git worktree of its own (under ``--work``) and runs *its own*
benchmark scripts against *its own* ``src`` (``PYTHONPATH``), so a commit that moved modules is
timed as it was written. Every round runs each suite once per commit, the order of the two commits
alternating from round to round, so that a machine that gets slower or faster during the run
moves both alike. The figure per row is the median over the rounds of:

* ``run.py`` (clfeval.metrics against sklearn.metrics, best of ``--repeats`` calls per round):
  the speedup over scikit-learn;
* ``evaluate_bench.py`` (``evaluate()`` against the scikit-learn calls that give the same
  numbers; the CLI against pyarrow reading the same file): baseline time / clfeval time.

A row is flagged when the after-commit's median ratio is more than 10% worse than the
before-commit's (issue 19's bound). Writes ``results/before_after.json`` and
``results/before_after_table.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_io import machine_info, write_text_atomic  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results"
WORSE = 0.10  # a ratio more than 10% worse is flagged


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], check=True, capture_output=True, text=True).stdout.strip()


def worktree(ref: str, work: Path) -> tuple[str, Path]:
    """(full commit, folder): the commit checked out in a worktree of its own, made once."""
    sha = git("rev-parse", "--verify", f"{ref}^{{commit}}")
    folder = work / f"clfeval-{sha[:10]}"
    if not (folder / "src" / "clfeval").is_dir():
        git("worktree", "add", "--force", "--detach", str(folder), sha)
    return sha, folder


def run_suite(suite: str, tree: Path, n: float, repeats: int, scratch: Path) -> dict[str, dict[str, float]]:
    """One run of ``suite`` in ``tree``: {row: {"ratio": ..., "clfeval_s": ...}}."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "PYTHONHASHSEED": "0"}
    bench = tree / "benchmarks"
    if suite == "metrics":
        cmd = [sys.executable, str(bench / "run.py"), "--sizes", str(int(n)), "--repeats", str(repeats),
               "--out", str(scratch)]
    else:
        cmd = [sys.executable, str(bench / "evaluate_bench.py"), "--n", str(n), "--repeats", str(repeats)]
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1):  # 1: a speed target missed, the timings written all the same
        raise SystemExit(f"{suite} failed in {tree}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    out: dict[str, dict[str, float]] = {}
    if suite == "metrics":
        for row in json.loads((scratch / "latest.json").read_text())["rows"]:
            if row.get("status") != "ok":
                continue
            params = ", ".join(f"{k}={v}" for k, v in sorted((row.get("params") or {}).items()))
            key = f"{row['function']}({params}) {row['task']}"
            out[key] = {"ratio": row["speedup"], "clfeval_s": row["clfeval"]["seconds"]}
    else:
        for row in json.loads((tree / "benchmarks" / "results" / "evaluate.json").read_text())["rows"]:
            # the script's own ratio is clfeval / pyarrow for the file rows: here always baseline / clfeval
            out[row["what"]] = {"ratio": row["baseline_s"] / row["clfeval_s"], "clfeval_s": row["clfeval_s"]}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the commit before the change")
    parser.add_argument("--after", default="HEAD", help="the commit after it (default HEAD)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--n", type=float, default=1e6, help="rows (default 1e6)")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many calls within a round")
    parser.add_argument("--suites", nargs="+", default=["metrics", "evaluate"], choices=["metrics", "evaluate"])
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()), help="where the worktrees go")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()

    commits = {"before": worktree(args.before, args.work), "after": worktree(args.after, args.work)}
    runs: dict[str, dict[str, dict[str, list[dict[str, float]]]]] = {
        suite: {"before": {}, "after": {}} for suite in args.suites}
    with tempfile.TemporaryDirectory() as scratch:
        for round_ in range(args.rounds):
            order = ["before", "after"] if round_ % 2 == 0 else ["after", "before"]
            for suite in args.suites:
                for which in order:
                    rows = run_suite(suite, commits[which][1], args.n, args.repeats, Path(scratch))
                    for key, value in rows.items():
                        runs[suite][which].setdefault(key, []).append(value)
                    print(f"round {round_ + 1}/{args.rounds} {suite:8s} {which:6s} {len(rows)} rows", flush=True)

    table: list[dict[str, Any]] = []
    for suite, by_commit in runs.items():
        for key in by_commit["before"]:
            if key not in by_commit["after"]:
                continue
            b, a = by_commit["before"][key], by_commit["after"][key]
            rb = statistics.median(x["ratio"] for x in b)
            ra = statistics.median(x["ratio"] for x in a)
            table.append({
                "suite": suite, "row": key, "ratio_before": rb, "ratio_after": ra,
                "clfeval_s_before": statistics.median(x["clfeval_s"] for x in b),
                "clfeval_s_after": statistics.median(x["clfeval_s"] for x in a),
                "change": ra / rb - 1, "worse_than_bound": ra < rb * (1 - WORSE), "rounds": min(len(a), len(b)),
            })
    lines = [f"Before {commits['before'][0][:10]}, after {commits['after'][0][:10]}; n = {args.n:.0e}, median of "
             f"{args.rounds} interleaved rounds (each the best of {args.repeats} calls). Ratio: the baseline's time / "
             "clfeval's (scikit-learn; pyarrow for the file rows): higher is better; change: after / before - 1.", "",
             "| suite | call | ratio before | ratio after | change | clfeval s before | clfeval s after |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for r in table:
        flag = " **(> 10% worse)**" if r["worse_than_bound"] else ""
        lines.append(f"| {r['suite']} | {r['row']} | {r['ratio_before']:.2f} | {r['ratio_after']:.2f} | "
                     f"{r['change']:+.1%}{flag} | {r['clfeval_s_before']:.4f} | {r['clfeval_s_after']:.4f} |")
    worse = [r for r in table if r["worse_than_bound"]]
    lines += ["", f"{len(worse)} of {len(table)} rows more than 10% worse."]
    print("\n".join(lines))
    args.out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(args.out / "before_after_table.md", "\n".join(lines) + "\n")
    write_text_atomic(args.out / "before_after.json", json.dumps({
        "when": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine_info(),
        "before": commits["before"][0], "after": commits["after"][0], "n": args.n, "rounds": args.rounds,
        "repeats": args.repeats, "rows": table,
        "runs": {s: {w: v for w, v in by.items()} for s, by in runs.items()},
    }, indent=1) + "\n")
    return 1 if worse else 0


if __name__ == "__main__":
    raise SystemExit(main())
