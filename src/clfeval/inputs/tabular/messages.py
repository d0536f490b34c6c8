"""What is wrong with an input file, in one line that says where: the error, and the words of its messages.

:class:`InputFileError` is every reading problem; :class:`DataRows` names a table's row as the
data row of its file (1-based, counting the rows after the header) and, for a file of a
directory, as the directory's row too. The other helpers put column names, exceptions, values
and column types into the messages' words.

>>> rows = DataRows(Path("p.csv"), first=10)
>>> rows.row(2)
'data row 13'
>>> one_line(ValueError("two\\n  lines")), listing(["a", "b", "c"], limit=2)
('two lines', 'a, b, ... (3 in all)')
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from clfeval.inputs.checks import csv_row_problem, shown_bytes

__all__ = ["InputFileError", "DataRows", "one_line", "listing", "missing_column_message", "not_utf8_error",
           "not_a_number_error", "csv_row_error", "value_kind"]


class InputFileError(ValueError):
    """The input file cannot be read as predictions; the message is one line for the user."""


@dataclass
class DataRows:
    """Where a table's rows lie, for messages: the file, the file's row of the table's first row
    (``first``), and for a file of a directory, the directory's row of the file's first row.

    >>> rows = DataRows(Path("d/p.csv"), folder=Path("d"), folder_first=100)
    >>> rows.advance(5)
    >>> rows.batch().where(np.array([1, 4]))
    'data row 7 (row 107 of the directory; and at least 1 more)'
    """

    path: Path
    first: int = 0
    folder: Path | None = None
    folder_first: int = 0
    partial: bool = False  # the table is a batch: rows outside it may hold more of the same
    seen: int = 0  # rows of the file read so far

    def batch(self) -> DataRows:
        """The rows of the next batch of the file (from the rows seen so far)."""
        return replace(self, first=self.seen, partial=True)

    def advance(self, n: int) -> None:
        self.seen += n

    def row(self, i: int, more: int = 0) -> str:
        """'data row N' (1-based) of the table's row ``i``, with the directory's row."""
        n = self.first + int(i)
        notes = [] if self.folder is None else [f"row {self.folder_first + n + 1} of the directory"]
        if more:
            notes.append(f"and {'at least ' if self.partial else ''}{more} more")
        return f"data row {n + 1}" + (f" ({'; '.join(notes)})" if notes else "")

    def where(self, rows: np.ndarray) -> str:
        return self.row(rows[0], rows.size - 1)


def one_line(exc: BaseException) -> str:
    """An exception's text on one line (runs of white space, newlines too, made one space).

    >>> one_line(OSError("cannot\\n   open"))
    'cannot open'
    """
    return " ".join(str(exc).split())


def listing(columns: list[str], limit: int = 30) -> str:
    """The column names for a message: the first ``limit`` and how many in all.

    >>> listing(["id", "label", "score"])
    'id, label, score'
    """
    shown = ", ".join(columns[:limit])
    return shown + (f", ... ({len(columns)} in all)" if len(columns) > limit else "")


def missing_column_message(path: Path, option: str, name: str, columns: list[str]) -> str:
    """The message of a column named by ``option`` that the file does not hold, with the closest name.

    >>> missing_column_message(Path("p.csv"), "--y-true", "lable", ["label", "score"])
    "p.csv: --y-true 'lable': no such column; did you mean 'label'? (columns: label, score)"
    """
    close = difflib.get_close_matches(name, columns, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{path}: {option} {name!r}: no such column{hint} (columns: {listing(columns)})"


def not_utf8_error(rows: DataRows, name: str, i: int, value: bytes) -> InputFileError:
    """The error of a value of column ``name`` (the table's row ``i``) whose bytes are not UTF-8."""
    return InputFileError(f"{rows.path}: column {name!r}, {rows.row(i)}: {shown_bytes(value)} is not UTF-8 text")


def not_a_number_error(rows: DataRows, name: str, i: int, value: Any) -> InputFileError:
    """The error of a value of column ``name`` (the table's row ``i``) that is not a number.

    >>> str(not_a_number_error(DataRows(Path("p.csv")), "score", 0, "high"))
    "p.csv: column 'score', data row 1: 'high' is not a number"
    """
    return InputFileError(f"{rows.path}: column {name!r}, {rows.row(i)}: {value!r} is not a number")


def csv_row_error(path: Path, exc: BaseException, columns: list[str] | None, rows: DataRows,
                  any_error: bool = False) -> InputFileError | None:
    """pyarrow's refusal of a CSV file with a ragged row or bytes that are not UTF-8 (see
    :func:`clfeval.inputs.checks.csv_row_problem`), said with the data row (in a directory, its
    row there too) and column; None if not found."""
    found = csv_row_problem(path, exc, columns, any_error)
    if found is None:
        return None
    i, column, what = found
    where = DataRows(path, folder=rows.folder, folder_first=rows.folder_first).row(i)
    return InputFileError(f"{path}: {where} {what}" if column is None else f"{path}: column {column!r}, {where}: {what}")


def value_kind(t: Any) -> str:
    """What a label column of pyarrow type ``t`` holds, in words.

    >>> import pyarrow as pa
    >>> value_kind(pa.int64()), value_kind(pa.string()), value_kind(pa.null())
    ('integers', 'text', 'empty')
    """
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        t = t.value_type
    if pa.types.is_integer(t):
        return "integers"
    if pa.types.is_floating(t):
        return "numbers"
    if pa.types.is_boolean(t):
        return "booleans"
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "text"
    return "empty" if pa.types.is_null(t) else str(t)
