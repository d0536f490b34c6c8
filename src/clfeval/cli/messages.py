"""The ``clfeval`` command's words for the library's errors and warnings.

The library raises :class:`~clfeval.exceptions.ValuesError` with the argument and the position of
the first bad value; here that becomes one line in the command's words: the file, the data row
(1-based, counted from the first data row of the file, whatever batch it was read in), the column
and the option as typed.

>>> from clfeval.exceptions import ValuesError
>>> err = ValuesError("y_score contains 1 infinite value(s); the first is at position 4.", argument="y_score",
...                   kind="infinite", position=4, value=float("inf"), count=1)
>>> where = Where("p.csv", {"y_true": "label", "y_score": ["score"]}, first_row=1000)
>>> print(data_error(err, where))
p.csv: column 'score', data row 1005: the score is inf; scores must be finite numbers
"""

from __future__ import annotations

import contextlib
import re
import sys
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any


from clfeval.cli.options import PROG, UsageError, typed
from clfeval.exceptions import ScoresBinnedWarning, UndefinedMetricWarning, ValuesError
from clfeval.inputs.tabular import InputFileError

__all__ = ["Where", "data_error", "first_text", "in_cli_words", "warnings_as_notes", "warning_notes", "cluster_error"]

#: warnings that never become notes: the report itself lists undefined values and the binning,
#: and the others are meant for developers
SILENT_WARNINGS: tuple[type[Warning], ...] = (UndefinedMetricWarning, ScoresBinnedWarning, DeprecationWarning,
                                              PendingDeprecationWarning, FutureWarning, ImportWarning, ResourceWarning)


@dataclass
class Where:
    """Where the arrays given to the library came from: the file, each argument's column(s)
    (``y_score``: a list), the file's row of the arrays' first row (0-based), for a file of a
    directory the directory's row of it, whether the arrays are one batch of more (``partial``), and
    the command line (to quote options as typed)."""

    path: Any
    columns: dict[str, Any]
    first_row: int | None = 0
    folder_row: int | None = None
    partial: bool = False
    argv: Sequence[str] | None = None
    options: dict[str, Any] = field(default_factory=dict)  # the options' texts: {"--labels": "0,1", ...}
    arrays: dict[str, Any] = field(default_factory=dict)  # the arrays themselves, to find a bad value's row
    groups: Sequence[str] = ()  # the group columns of --by (a library error names them as its argument)

    def row(self, position: int) -> str:
        if self.first_row is None:  # only the directory's row is known
            return f"row {(self.folder_row or 0) + position + 1} of the directory"
        text = f"data row {self.first_row + position + 1}"
        if self.folder_row is not None:
            text += f" (row {self.folder_row + position + 1} of the directory)"
        return text

    def column(self, argument: str, index: int | None) -> str | None:
        col = self.columns.get(argument)
        if isinstance(col, (list, tuple)):
            if not col:
                return None
            col = col[index or 0] if index is None or index < len(col) else None
        return None if col is None else str(col)

    def option(self, name: str) -> str | None:
        value = self.options.get(name)
        return None if value is None else typed(self.argv, name, value)


def data_error(exc: ValuesError, where: Where) -> InputFileError | UsageError | None:
    """The command's one-line error for ``exc`` (None where it cannot say it better than the
    library's message)."""
    if exc.kind == "not-a-class" and exc.argument == "pos_label":
        pos = where.option("--pos-label")
        if pos is None:
            return None
        classes = ", ".join(str(v) for v in exc.allowed or [])
        col = where.column("y_true", None)
        labels = where.option("--labels")
        if labels is not None:
            return UsageError(f"--pos-label {pos} is not one of --labels {labels}")
        in_col = f" in column {col!r}" if col else ""
        return InputFileError(f"{where.path}: --pos-label {pos} is not one of the classes{in_col} ({classes})")
    if exc.kind == "pos-label-needed":
        col = where.column("y_score", 0)
        classes = ", ".join(str(v) for v in exc.allowed or [])
        return InputFileError(f"{where.path}: the score column{f' {col!r}' if col else ''} scores one class of "
                              f"({classes}): give --pos-label to say which")
    if exc.kind == "not-binary" and exc.argument == "threshold":
        threshold = where.option("--threshold")
        if threshold is not None:
            return UsageError(f"--threshold {threshold}: a threshold cuts binary scores, and this is a multi-class "
                              f"evaluation ({len(exc.allowed or [])} classes: each row is predicted as its "
                              "highest-scoring class); leave --threshold out")
    if exc.kind == "columns-vs-classes":
        cols = where.columns.get("y_score") or []
        named = f" ({', '.join(map(repr, cols))})" if len(cols) == exc.count else ""
        truth = where.column("y_true", None)
        classes = ", ".join(str(v) for v in exc.allowed or [])
        labels = where.option("--labels")
        if labels is not None:
            return UsageError(f"--labels {labels} names {len(exc.allowed or [])} classes, so give one score column "
                              f"per class (--y-score COL1,COL2,...), not the {exc.count}{named}")
        return InputFileError(f"{where.path}: {exc.count} score columns{named}, but column {truth!r} holds "
                              f"{len(exc.allowed or [])} classes ({classes}): give one score column per class, "
                              "or --labels listing the classes in column order")
    if exc.kind == "mixed-types":
        found = first_text(where.arrays.get(exc.argument))
        col = where.column(exc.argument, None)
        others = [where.column(a, None) for a in exc.allowed or []]
        numbers = " and ".join(repr(c) for c in others if c)
        if col is None or not numbers:
            return None
        hold = f"column{'s' if ' and ' in numbers else ''} {numbers} hold{'' if ' and ' in numbers else 's'} numbers"
        if found is None:  # the text is in rows not read yet
            return InputFileError(f"{where.path}: column {col!r} is read as text, but {hold}; the labels of both "
                                  "must be numbers, or both text")
        i, value = found
        return InputFileError(f"{where.path}: column {col!r}, {where.row(i)}: {value!r} is text, but {hold}; the "
                              "labels of both must be numbers, or both text")
    if exc.kind == "one-class":
        truth = where.column("y_true", None)
        only = ", ".join(str(v) for v in exc.allowed or [])
        return InputFileError(f"{where.path}: column {truth!r} holds one class only ({only}): give --labels "
                              "NEGATIVE,POSITIVE (or --pos-label) so the scores can be read")
    if exc.kind == "score-columns":
        col, truth = where.column("y_score", 0), where.column("y_true", None)
        classes = ", ".join(str(v) for v in exc.allowed or [])
        labels = where.option("--labels")
        if labels is not None:
            return UsageError(f"--labels {labels} names {exc.count} classes, so give one score column per class "
                              f"(--y-score COL1,COL2,...), not the one column {col!r}")
        return InputFileError(f"{where.path}: column {truth!r} holds {exc.count} classes ({classes}), so give one "
                              f"score column per class (--y-score COL1,COL2,...), not the one column {col!r}")
    if exc.kind == "missing" and exc.argument in where.groups and exc.position is not None:
        count = exc.count or 1  # of one batch's rows when the file is streamed (partial)
        values = "a missing value" if count == 1 else f"{'at least ' if where.partial else ''}{count:,} missing values"
        return InputFileError(f"{where.path}: --by column {exc.argument!r} has {values} (empty, NaN or null), "
                              f"the first at {where.row(exc.position)}; give --by-missing keep to make them a group "
                              "of their own ('(missing)'), or fill or drop those rows")
    col = where.column(exc.argument, exc.column)
    if col is None or exc.position is None:
        return None
    at = f"{where.path}: column {col!r}, {where.row(exc.position)}"
    more = ""
    if exc.count is not None and exc.count > 1:
        more = f" (and {'at least ' if where.partial else ''}{exc.count - 1} more)"
    if exc.kind == "missing":
        return InputFileError(f"{at}: a missing value (empty, NaN or null){more}")
    if exc.kind == "infinite":
        return InputFileError(f"{at}: the score is {_number(exc.value)}; scores must be finite numbers{more}")
    if exc.kind == "non-finite":
        return InputFileError(f"{at}: the weight is {_number(exc.value)}; weights must be finite numbers{more}")
    if exc.kind == "negative":
        return InputFileError(f"{at}: the weight is {_number(exc.value)}; weights must be 0 or more{more}")
    if exc.kind == "not-in-labels":
        labels = where.option("--labels")
        if labels is not None:
            return InputFileError(f"{at}: {exc.value!r} is not one of --labels {labels}; add it to --labels or drop "
                                  f"those rows{more}")
        classes = ", ".join(str(v) for v in exc.allowed or [])
        return InputFileError(f"{at}: {exc.value!r} is not one of the classes ({classes}){more}")
    return None


def first_text(values: Any) -> tuple[int, str] | None:
    """The first value of a text label column that does not read as a number, and its index.

    >>> import numpy as np
    >>> first_text(np.array(["1", "0", " x", "y"]))
    (2, ' x')
    """
    if values is None or getattr(values, "dtype", None) is None or values.dtype.kind not in "UO":
        return None
    for i, v in enumerate(values.tolist()):
        try:
            float(v)
        except (TypeError, ValueError):
            return i, v
    return None


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


_ARGUMENTS = {"pos_label": "--pos-label", "labels": "--labels", "threshold": "--threshold", "beta": "--beta",
              "prevalence": "--prevalence", "n_resamples": "--n-resamples", "level": "--level"}


def in_cli_words(text: str, columns: dict[str, Any] | None = None) -> str:
    """A library message with its argument names in the command's words: ``pass pos_label=`` is
    ``give --pos-label``, ``labels=`` is ``--labels``, and ``y_true``, ``y_pred``, ``y_score``,
    ``sample_weight`` are their columns where ``columns`` names them.

    >>> in_cli_words("y_score is a single column, so it scores one class of ['a', 'b']: pass pos_label= to say which.",
    ...              {"y_score": ["p"]})
    "column 'p' is a single column, so it scores one class of ['a', 'b']: give --pos-label to say which."
    """
    text = re.sub(r"\bpass (\w+)=( to StreamingEvaluation)?",
                  lambda m: f"give {_ARGUMENTS.get(m.group(1), '--' + m.group(1).replace('_', '-'))} ", text)
    text = re.sub(r" +([ ,.;:)])", r"\1", text)
    text = re.sub(r"\b(pos_label|labels|threshold|beta|prevalence|n_resamples)=", lambda m: _ARGUMENTS[m.group(1)] + " ",
                  text)
    for argument, col in (columns or {}).items():
        if isinstance(col, (list, tuple)):
            col = col[0] if len(col) == 1 else None
        if col:
            text = re.sub(rf"\b{argument}\b(?!\[)", f"column {str(col)!r}", text)
    return text


def cluster_error(exc: BaseException, scheduler: str | None) -> str | None:
    """One line for a Dask cluster that lost its workers (``distributed``'s ``KilledWorker``: every
    worker that ran a task died), else None.

    >>> class KilledWorker(Exception):
    ...     allowed_failures = 3
    >>> cluster_error(KilledWorker(), "tcp://h:8786")
    "the Dask cluster at tcp://h:8786 lost its workers: 4 workers died in turn running the same task (the scheduler's allowed-failures is 3); check the workers' memory and logs"
    >>> cluster_error(KeyError("x"), None) is None
    True
    """
    if not any(t.__name__ == "KilledWorker" for t in type(exc).__mro__):
        return None
    where = f" at {scheduler}" if scheduler else ""
    allowed = getattr(exc, "allowed_failures", None)
    if not isinstance(allowed, int):
        died = "its workers died running a task"
    elif allowed == 0:
        died = "a worker died running a task, and the scheduler's allowed-failures is 0 (no retry)"
    else:
        died = f"{allowed + 1} workers died in turn running the same task (the scheduler's allowed-failures is {allowed})"
    return f"the Dask cluster{where} lost its workers: {died}; check the workers' memory and logs"


@contextlib.contextmanager
def warning_notes() -> Iterator[list[str]]:
    """Collect the warnings raised inside the block as one-line notes (one per distinct message,
    filled in when the block ends); those the report already says (undefined values, binned
    scores) and those meant for developers (deprecations) are dropped.

    >>> with warning_notes() as notes:
    ...     warnings.warn("first\\n  second")
    ...     warnings.warn("old", DeprecationWarning)
    >>> notes
    ['first second']
    """
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield notes
        finally:
            for w in caught:
                if issubclass(w.category, SILENT_WARNINGS):
                    continue
                text = " ".join(str(w.message).split())
                if text and text not in notes:
                    notes.append(text)


@contextlib.contextmanager
def warnings_as_notes(stream: Any = None) -> Iterator[list[str]]:
    """Warnings raised inside become ``clfeval: note: ...`` lines on standard error when the block
    ends (one per distinct message, see :func:`warning_notes`), never Python's warning lines.

    >>> import io, warnings
    >>> out = io.StringIO()
    >>> with warnings_as_notes(out):
    ...     warnings.warn("first")
    ...     warnings.warn("first")
    ...     warnings.warn("old", DeprecationWarning)
    >>> print(out.getvalue().strip())
    clfeval: note: first
    """
    notes: list[str] = []
    try:
        with warning_notes() as notes:
            yield notes
    finally:
        out = sys.stderr if stream is None else stream
        for text in notes:
            print(f"{PROG}: note: {text}", file=out)
