"""Mutation score of the layers every number is read from: ``formulas/``, ``statistics/`` and
``uncertainty/`` (configured in ``[tool.mutmut]`` of pyproject.toml; issue 19 asks for >= 90%).

Every mutant takes the tests that reach its function (seconds to minutes each), so the whole set
takes hours on a small machine. By default this runs a seeded random sample of the mutants and
gives the score with its 95% Wilson interval, per module and overall; ``--all`` runs every one.
Run from the repository root, in a copy you do not mind mutmut writing ``mutants/`` into:

    python scripts/mutation_score.py --sample 300 --seed 19 --jobs 2

It prints, and writes to ``--out`` (JSON), the status of every mutant run and the survivors' diffs;
judge each survivor: a missing test (write it) or an equivalent mutant (say why in the note).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

KILLED = {"killed", "timeout", "segfault", "caught by type check"}


# mutmut forks one child per mutant from a process whose tests have started numpy's BLAS thread
# pool; a child that then calls BLAS can wait forever on a lock of a thread it does not have (seen:
# a child asleep on a futex until mutmut's timeout, which mutmut then counts as a kill). One BLAS
# thread leaves no such lock behind.
SINGLE_THREADED = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}


def mutmut(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **SINGLE_THREADED}
    return subprocess.run([sys.executable, "-m", "mutmut", *args], capture_output=True, text=True, env=env)


def statuses() -> dict[str, str]:
    """Every generated mutant's status, read from mutmut's own records."""
    from mutmut.stats import status_by_exit_code

    out: dict[str, str] = {}
    for meta in Path("mutants").rglob("*.py.meta"):
        data = json.loads(meta.read_text())
        for name, code in data.get("exit_code_by_key", {}).items():
            out[name] = status_by_exit_code[code]
    return out


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    if n == 0:
        return (math.nan, math.nan)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=300, help="mutants to run (default 300)")
    parser.add_argument("--all", action="store_true", help="run every mutant")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="mutation_score.json")
    args = parser.parse_args()

    if not statuses():  # generate the mutants and map tests to functions; runs no mutant
        done = mutmut("run", "--max-children", str(args.jobs), "no-such-mutant")
        said = done.stdout + done.stderr
        if "failed to collect stats" in said or "clean tests failed" in said.lower():
            print("the selected tests fail without any mutant (mutmut's clean run); fix that first:\n"
                  + said[-3000:], file=sys.stderr)
            return 1
    names = sorted(statuses())
    if not names:
        print("mutmut generated no mutants; see `python -m mutmut run` for why", file=sys.stderr)
        return 1
    chosen = names if args.all else sorted(random.Random(args.seed).sample(names, min(args.sample, len(names))))
    # a run cut short goes on where it stopped: killed and survived mutants keep their verdict;
    # the rest (not checked, timeouts) run (again)
    before = statuses()
    todo = [n for n in chosen if before.get(n) not in ("killed", "survived", "no tests")]
    for start in range(0, len(todo), 50):  # keep each command line short
        mutmut("run", "--max-children", str(args.jobs), *todo[start:start + 50])
        done = statuses()
        print(f"{sum(done[n] != 'not checked' for n in chosen)} / {len(chosen)} mutants judged", flush=True)
    found = statuses()
    ran = {name: found[name] for name in chosen}
    by_module: dict[str, Counter[str]] = {}
    for name, status in ran.items():
        module = name.split(".x_")[0].split(".xǁ")[0]
        by_module.setdefault(module, Counter())[status] += 1
    counted = {n: s for n, s in ran.items() if s not in ("no tests", "not checked", "skipped")}
    killed = sum(s in KILLED for s in counted.values())
    low, high = wilson(killed, len(counted))
    print(f"{len(names)} mutants generated, {len(chosen)} run (seed {args.seed})")
    for module, counts in sorted(by_module.items()):
        n = sum(v for k, v in counts.items() if k not in ("no tests", "not checked", "skipped"))
        k = sum(v for s, v in counts.items() if s in KILLED)
        print(f"  {module:45s} {k:4d} / {n:4d} killed  {dict(counts)}")
    print(f"score: {killed} / {len(counted)} = {killed / max(len(counted), 1):.1%} "
          f"(95% interval {low:.1%} - {high:.1%}); no tests: {sum(s == 'no tests' for s in ran.values())}; "
          f"of the killed, by timeout: {sum(s == 'timeout' for s in ran.values())}")
    survivors = sorted(n for n, s in counted.items() if s not in KILLED)
    diffs = {n: mutmut("show", n).stdout for n in survivors}
    for name in survivors:
        print(diffs[name])
    Path(args.out).write_text(json.dumps({"generated": len(names), "run": ran, "killed": killed,
                                          "counted": len(counted), "interval": [low, high],
                                          "survivors": diffs}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
