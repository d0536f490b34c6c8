#!/usr/bin/env python
"""Should clfeval read dataframe columns through narwhals? The measurement behind the decision.

    python benchmarks/narwhals_decision.py            # writes results/narwhals_decision.json

clfeval turns pandas, polars and pyarrow columns into numpy arrays by hand
(:func:`clfeval.inputs.labels.as_array`: about 45 lines, one reader per library, each refusing
missing values with the position of the first and reading categoricals, nullable integers and
strings as their values). The candidate is the same conversion written once over narwhals
(``nw.from_native`` -> ``is_null`` -> ``to_numpy``), which scikit-learn 1.9 itself depends on.

For each input (1e6 rows and 100 rows: pandas int64 / nullable Int64 / category / string[python],
polars Int64 / Categorical / String, pyarrow int64 / dictionary) it checks that both give the same
array, then times both (median of ``--repeats``), and it measures what importing narwhals costs a
process (``python -X importtime``-free: a fresh interpreter's wall time with and without the import).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_io import machine_info, write_text_atomic  # noqa: E402

from clfeval.inputs.labels import as_array  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "narwhals_decision.json"


def through_narwhals(x: Any, name: str) -> np.ndarray:
    """The candidate: one conversion for every dataframe library narwhals knows."""
    import narwhals.stable.v2 as nw

    s = nw.from_native(x, series_only=True, pass_through=False)
    nulls = s.is_null()
    if nulls.any():
        first = int(np.flatnonzero(nulls.to_numpy())[0])
        raise ValueError(f"{name} has missing values; the first is at position {first}.")
    if s.dtype in (nw.Categorical, nw.Enum):
        s = s.cast(nw.String)
    if s.dtype == nw.String:
        return np.asarray(s.to_numpy(), dtype=object)
    return s.to_numpy()


def inputs(n: int) -> dict[str, Any]:
    import pandas as pd
    import polars as pl
    import pyarrow as pa

    rng = np.random.default_rng(19)
    codes = rng.integers(0, 3, n)
    words = np.array(["cat", "dog", "eel"], dtype=object)[codes]
    return {
        "pandas int64": pd.Series(codes),
        "pandas Int64 (nullable)": pd.Series(codes, dtype="Int64"),
        "pandas category": pd.Series(words, dtype="category"),
        "pandas string": pd.Series(words, dtype="string[python]"),
        "polars Int64": pl.Series(codes),
        "polars Categorical": pl.Series(words.tolist(), dtype=pl.Categorical),
        "polars String": pl.Series(words.tolist()),
        "pyarrow int64": pa.chunked_array([codes]),
        "pyarrow dictionary": pa.chunked_array([pa.array(words.tolist()).dictionary_encode()]),
    }


def median_seconds(f: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def import_cost(repeats: int) -> dict[str, float]:
    def run(code: str) -> float:
        return median_seconds(lambda: subprocess.run([sys.executable, "-c", code], check=True), repeats)

    base = run("import numpy, clfeval.inputs.labels")
    with_nw = run("import numpy, clfeval.inputs.labels, narwhals.stable.v2")
    return {"without_s": base, "with_narwhals_s": with_nw, "narwhals_import_s": with_nw - base}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    rows = []
    for n in (1_000_000, 100):
        for label, x in inputs(n).items():
            mine, theirs = as_array(x, "y"), through_narwhals(x, "y")
            same = mine.shape == theirs.shape and bool(np.all(mine == theirs))
            t_mine = median_seconds(lambda: as_array(x, "y"), args.repeats)
            t_nw = median_seconds(lambda: through_narwhals(x, "y"), args.repeats)
            rows.append({"input": label, "rows": n, "same_values": same, "dtype_clfeval": str(mine.dtype),
                         "dtype_narwhals": str(theirs.dtype), "clfeval_s": t_mine, "narwhals_s": t_nw,
                         "narwhals_over_clfeval": t_nw / t_mine})
            print(f"{label:26s} {n:>9,} rows  clfeval {t_mine * 1e3:9.3f} ms  narwhals {t_nw * 1e3:9.3f} ms  "
                  f"ratio {t_nw / t_mine:5.2f}  same values: {same} ({mine.dtype} / {theirs.dtype})")
    cost = import_cost(args.repeats)
    print(f"import narwhals: +{cost['narwhals_import_s'] * 1e3:.0f} ms per process "
          f"({cost['without_s'] * 1e3:.0f} -> {cost['with_narwhals_s'] * 1e3:.0f} ms)")
    import narwhals

    write_text_atomic(args.out, json.dumps({
        "when": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine_info(),
        "narwhals": narwhals.__version__, "repeats": args.repeats, "rows": rows, "import": cost,
    }, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
