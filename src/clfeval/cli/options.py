"""The ``clfeval`` command's options: their parser's one-line errors and their checks.

Every check here runs before a file is read, and a bad option is a usage error (exit status 2)
whose one line names the option as the user typed it:

>>> import argparse
>>> args = argparse.Namespace(command="report", threshold="recall=2", beta=None, labels=None, pos_label=None,
...                           prevalence=None, cost=None, level=0.95, argv=["report", "f.csv", "--threshold", "recall=2"])
>>> try:
...     check_options(args)
... except UsageError as exc:
...     print(exc)
--threshold recall=2: recall must be a number from 0 to 1 (e.g. recall=0.9)
>>> typed(["report", "f.csv", "--beta=1e400"], "--beta", float("inf"))
'1e400'
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

__all__ = ["UsageError", "OneLineParser", "PROG", "RULES", "BOUNDS", "typed", "check_options", "check_level", "check_scheduler",
           "threshold_rule", "read_numbers", "read_costs", "check_labels", "check_prevalence_size"]

PROG = "clfeval"
#: --threshold rules without a bound, and the measures a bound (recall=0.9) may name
RULES = ("youden", "max-f1", "max-fbeta", "break-even", "closest-topleft", "min-cost")
BOUNDS = ("recall", "precision", "specificity", "sensitivity")


class UsageError(Exception):
    """Bad options (exit status 2)."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, ``clfeval: error: ...``, with exit status 2
    (argparse prints the usage and its own prefix otherwise)."""

    def error(self, message: str) -> NoReturn:
        text = re.sub(r"^argument ([^:]+): ", r"\1: ", " ".join(message.split()))
        m = re.match(r"(--[\w-]+): expected one argument", text)
        # e.g. --cost -1,1;1,0: argparse takes a value starting with '-' for an option
        hint = f"a value that starts with '-' goes after '=', as in {m.group(1)}=-1; " if m else ""
        self.exit(2, f"{PROG}: error: {text} ({hint}see {self.prog} --help)\n")


def typed(argv: Sequence[str] | None, option: str, value: Any) -> str:
    """The text the user typed for ``option`` (its last occurrence in ``argv``, abbreviated or with
    ``=``), or ``value`` written out where it cannot be found.

    >>> typed(["--thr", "nan"], "--threshold", float("nan")), typed([], "--level", 2.0)
    ('nan', '2')
    """
    found = None
    tokens = list(argv or [])
    for i, token in enumerate(tokens):
        name, eq, rest = token.partition("=")
        if len(name) > 2 and name.startswith("--") and option.startswith(name):
            if eq:
                found = rest
            elif i + 1 < len(tokens):
                found = tokens[i + 1]
    if found is not None:
        return found
    return f"{value:g}" if isinstance(value, float) else str(value)


def check_level(level: float, argv: Sequence[str] | None = None) -> None:
    """--level: a confidence level strictly between 0 and 1."""
    if not 0.0 < level < 1.0:
        raise UsageError(f"--level {typed(argv, '--level', level)}: must be between 0 and 1 (e.g. 0.95)")


def threshold_rule(text: str | None) -> tuple[str, float | None] | None:
    """--threshold as a rule (criterion, bound), or None for a number (or nothing).

    >>> threshold_rule("Recall=0.9"), threshold_rule("youden"), threshold_rule("0.3")
    (('recall', 0.9), ('youden', None), None)
    """
    if text is None:
        return None
    try:
        float(text)
        return None
    except ValueError:
        pass
    name, _, bound = text.strip().lower().partition("=")
    if name in RULES and not bound:
        return name, None
    if name in BOUNDS and bound:
        try:
            value = float(bound)
        except ValueError:
            value = math.nan
        if not 0.0 <= value <= 1.0:
            raise UsageError(f"--threshold {text}: {name} must be a number from 0 to 1 (e.g. {name}=0.9)")
        return name, value
    raise UsageError(f"--threshold {text!r}: give a number, one of {', '.join(RULES)}, or a bound such as "
                     "recall=0.9 (recall, precision, specificity, sensitivity)")


def read_numbers(text: str, option: str) -> list[float]:
    """Numbers separated by commas (finite ones).

    >>> read_numbers("0.2, 0.8", "--prevalence")
    [0.2, 0.8]
    """
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise UsageError(f"{option} {text}: give numbers separated by commas") from None
    if not all(math.isfinite(v) for v in values):
        raise UsageError(f"{option} {text}: give finite numbers")
    return values


def read_costs(text: str) -> np.ndarray:
    """--cost: inline rows 'a,b;c,d', or a .json (list of rows) or .csv file.

    >>> read_costs("0,1;5,0").tolist()
    [[0.0, 1.0], [5.0, 0.0]]
    """
    path = Path(text)
    if path.suffix.lower() in (".json", ".csv", ".tsv") or path.exists():
        if not path.is_file():
            raise UsageError(f"--cost {text}: no such file")
        if path.suffix.lower() == ".json":
            import json

            try:
                rows = json.loads(path.read_text())
            except json.JSONDecodeError as exc:
                raise UsageError(f"--cost {text}: not valid JSON ({exc})") from None
        else:
            sep = "\t" if path.suffix.lower() == ".tsv" else ","
            rows = [line.split(sep) for line in path.read_text().splitlines() if line.strip()]
    else:
        rows = [r.split(",") for r in text.split(";")]
    try:
        matrix = np.array([[float(v) for v in row] for row in rows], dtype=np.float64)
    except (TypeError, ValueError):
        raise UsageError(f"--cost {text}: the cost matrix must hold numbers only (rows of equal length)") from None
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise UsageError(f"--cost {text}: the cost matrix must be square (k rows of k finite numbers)")
    if not np.isfinite(matrix).all():
        i, j = (int(v) for v in np.argwhere(~np.isfinite(matrix))[0])
        raise UsageError(f"--cost {text}: the cost in row {i + 1}, column {j + 1} is {matrix[i, j]:g}; "
                         "costs must be finite numbers")
    return matrix


def check_labels(labels: list[Any] | None, pos_label: Any, args: argparse.Namespace) -> None:
    """--labels typed like the file's labels: distinct, and holding --pos-label when both are given."""
    if labels is None:
        return
    argv = getattr(args, "argv", None)
    text = typed(argv, "--labels", args.labels)
    seen: set[Any] = set()
    for value in labels:
        if value in seen:
            raise UsageError(f"--labels {text}: the label {value!r} is listed twice; give each class once")
        seen.add(value)
    if pos_label is not None and pos_label not in seen:
        raise UsageError(f"--pos-label {typed(argv, '--pos-label', args.pos_label)} is not one of --labels {text}")


def check_prevalence_size(prevalence: list[float] | None, classes: Sequence[str], args: argparse.Namespace) -> None:
    """--prevalence against the classes of the data: the positive share (binary) or one per class."""
    if prevalence is None:
        return
    k = len(classes)
    if (k == 2 and len(prevalence) == 1) or len(prevalence) == k:
        return
    text = typed(getattr(args, "argv", None), "--prevalence", args.prevalence)
    raise UsageError(f"--prevalence {text}: the data have {k} classes ({', '.join(classes)}), so give "
                     f"{'the positive class share or ' if k == 2 else ''}{k} shares summing to 1")


def check_options(args: argparse.Namespace) -> None:
    """Check the options of ``report`` and ``compare`` that can be checked before reading the file."""
    argv = getattr(args, "argv", None)
    check_level(args.level, argv)
    threshold = getattr(args, "threshold", None)
    if isinstance(threshold, str):
        rule = threshold_rule(threshold)
        if rule is None and not math.isfinite(float(threshold)):
            raise UsageError(f"--threshold {threshold}: give a finite number (predict positive when the score "
                             "is at least that)")
    elif threshold is not None and not math.isfinite(threshold):
        raise UsageError(f"--threshold {typed(argv, '--threshold', threshold)}: give a finite number")
    beta = getattr(args, "beta", None)
    if beta is not None and not (math.isfinite(beta) and beta > 0):
        raise UsageError(f"--beta {typed(argv, '--beta', beta)}: give a positive number (F-beta weighs recall "
                         "beta times as much as precision, e.g. 2)")
    if getattr(args, "labels", None) is not None:
        parts = [v.strip() for v in args.labels.split(",")]
        if not all(parts):
            raise UsageError(f"--labels {args.labels}: an empty label; give the classes separated by commas")
        for i, part in enumerate(parts):
            if part in parts[:i]:
                raise UsageError(f"--labels {args.labels}: the label {part!r} is listed twice; give each class once")
    if getattr(args, "prevalence", None) is not None:
        shares = read_numbers(args.prevalence, "--prevalence")
        bad = [v for v in shares if not 0.0 <= v <= 1.0]
        if bad and len(shares) == 1 and getattr(args, "cost", None) is None:  # a binary task's prevalence P
            raise UsageError(f"--prevalence {args.prevalence}: the positive class's prevalence must be strictly "
                             "between 0 and 1, e.g. --prevalence 0.05")
        if bad:
            raise UsageError(f"--prevalence {args.prevalence}: a class share must be from 0 to 1, got {bad[0]:g}")
        if len(shares) > 1 and abs(sum(shares) - 1.0) > 1e-9:
            raise UsageError(f"--prevalence {args.prevalence}: the class shares must sum to 1 (they sum to "
                             f"{sum(shares):g})")
    n_resamples = getattr(args, "n_resamples", None)
    if n_resamples is not None and n_resamples < 1:
        raise UsageError(f"--n-resamples {typed(argv, '--n-resamples', n_resamples)}: give a whole number of "
                         "bootstrap replicates, at least 1 (default 2000)")
    scheduler = getattr(args, "scheduler", None)
    if scheduler is not None:
        check_scheduler(scheduler)
    seed = getattr(args, "seed", None)
    if seed is not None and seed < 0:
        raise UsageError(f"--seed {typed(argv, '--seed', seed)}: give a whole number from 0 up")



def check_scheduler(address: str) -> None:
    """--scheduler: a local scheduler's name, or an address Dask can connect to (a known scheme, and
    a port where the scheme has ports), checked where Dask is installed."""
    try:
        from distributed.comm import registry
        from distributed.comm.addressing import get_address_host_port, parse_address

        from clfeval.dask import LOCAL_SCHEDULERS
    except ImportError:  # the cluster path says what to install
        return
    if address in LOCAL_SCHEDULERS:
        return
    scheme = parse_address(address)[0]
    try:
        registry.get_backend(scheme)
    except ValueError:
        known = ", ".join(sorted(registry.backends))
        raise UsageError(f"--scheduler {address}: unknown address scheme {scheme!r} (Dask knows {known}; "
                         "e.g. tcp://host:8786)") from None
    if scheme != "inproc":
        try:
            get_address_host_port(address)
        except ValueError as exc:
            raise UsageError(f"--scheduler {address}: {exc} (e.g. tcp://host:8786)") from None
