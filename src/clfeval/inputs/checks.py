"""Checks of input files that pyarrow leaves to the caller, and compressed CSV files.

:mod:`clfeval.inputs.tabular` reads the files; this module says what is wrong with them, in words
that name the data row (1-based, counting the rows after the header) and the column:

* :func:`duplicated_columns` - column names that occur more than once (pyarrow reads the first
  of a CSV's, and both of a Parquet file's);
* :func:`find_bad_csv_row` - the first row with too many or too few fields, or with bytes that
  are not UTF-8 in a column read (pyarrow says neither where nor, for UTF-8, which row);
* :func:`first_not_utf8` - the first value of a binary column (text that failed UTF-8) that
  does not decode;
* :func:`compression_of`, :func:`data_suffix`, :func:`open_native`, :func:`open_decompressed`, :func:`read_head` -
  ``.csv.gz`` (and ``.bz2``, ``.zst``) files read like any CSV, streamed or not.

>>> duplicated_columns(["label", "score", "score", "id"])
{'score': [2, 3]}
>>> data_suffix("runs/p.csv.gz"), compression_of("runs/p.csv.gz"), compression_of("p.csv")
('.csv', 'gzip', None)
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

__all__ = ["COMPRESSIONS", "compression_of", "data_suffix", "stem_of", "open_native", "open_decompressed", "read_head",
           "duplicated_columns", "duplicate_message", "duplicate_column_problem", "find_bad_csv_row", "csv_row_problem",
           "first_not_utf8", "shown_bytes", "read_failure_text", "csv_delimiter", "csv_bytes_per_row",
           "csv_conversion_column", "first_unconvertible"]

#: the options that name each role's column
OPTIONS = {"y_true": "--y-true", "y_pred": "--y-pred", "sample_weight": "--sample-weight", "y_score": "--y-score"}

#: compression suffix -> pyarrow codec: such a CSV file is read decompressed, like any CSV
COMPRESSIONS = {".gz": "gzip", ".bz2": "bz2", ".zst": "zstd"}


def compression_of(path: str | os.PathLike[str]) -> str | None:
    """The codec of a compressed file, from its last suffix (``.gz`` -> "gzip"), else None."""
    return COMPRESSIONS.get(Path(path).suffix.lower())


def stem_of(path: str | os.PathLike[str]) -> str:
    """The file's name without its suffix, past a compression suffix: the name of its evaluation.

    >>> stem_of("runs/p.csv.gz"), stem_of("p.parquet"), stem_of("folder")
    ('p', 'p', 'folder')
    """
    p = Path(path)
    if compression_of(p) is not None:
        p = p.with_suffix("")
    return p.stem


def data_suffix(path: str | os.PathLike[str]) -> str:
    """The suffix that says the format, lowercased, past a compression suffix:
    ``p.tsv.gz`` -> ``.tsv``.

    >>> data_suffix("P.TSV.GZ"), data_suffix("p.parquet"), data_suffix("notes")
    ('.tsv', '.parquet', '')
    """
    p = Path(path)
    if compression_of(p) is not None:
        p = p.with_suffix("")
    return p.suffix.lower()


def open_native(path: str | os.PathLike[str]) -> Any:
    """The file opened by pyarrow itself (a ``pyarrow.OSFile``), for pyarrow's CSV readers.

    Their read-ahead runs on pyarrow's I/O threads; reading a Python file object there leaves
    Python buffers that a thread still running at interpreter exit must release, which aborts
    the process ("terminate called without an active exception") now and then. A native file
    leaves none. ``tell()`` counts the bytes read, for progress.

    >>> import tempfile
    >>> f = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(f, "wb").write(b"label,score\\n")
    >>> with open_native(f) as raw:
    ...     raw.read(5), raw.tell()
    (b'label', 5)
    """
    import pyarrow as pa

    return pa.OSFile(os.fspath(path), "r")


def open_decompressed(raw: BinaryIO, path: str | os.PathLike[str]) -> Any:
    """A stream of the file's bytes for pyarrow's CSV reader: ``raw`` itself, or decompressed
    from ``raw`` (``raw.tell()`` still counts the bytes of the file read, for progress)."""
    codec = compression_of(path)
    if codec is None:
        return raw
    import pyarrow as pa

    return pa.CompressedInputStream(raw, codec)


def read_head(path: str | os.PathLike[str], n: int) -> bytes:
    """The first ``n`` bytes of the file's data (decompressed where it is compressed).

    >>> import gzip, tempfile
    >>> f = os.path.join(tempfile.mkdtemp(), "p.csv.gz")
    >>> with gzip.open(f, "wb") as out:
    ...     _ = out.write(b"label,score\\n1,0.5\\n")
    >>> read_head(f, 11)
    b'label,score'
    """
    with open(path, "rb") as raw:
        stream = open_decompressed(raw, path)
        if stream is raw:
            return raw.read(n)
        try:
            return bytes(stream.read(n))
        finally:
            stream.close()


def duplicated_columns(names: Sequence[str]) -> dict[str, list[int]]:
    """Each column name that occurs more than once, with its positions (1-based), in order."""
    where: dict[str, list[int]] = {}
    for i, name in enumerate(names, start=1):
        where.setdefault(name, []).append(i)
    return {name: places for name, places in where.items() if len(places) > 1}


def duplicate_message(name: str, places: Sequence[int], why: str) -> str:
    """The words for a duplicated column: where it occurs, why that matters, how to fix it.

    >>> duplicate_message("score", [2, 3], "it is read as y_score")
    "column 'score' occurs 2 times (columns 2 and 3) and it is read as y_score: which one holds the data is not known; give each column its own name"
    """
    listed = ", ".join(str(p) for p in places[:-1]) + f" and {places[-1]}"
    return (f"column {name!r} occurs {len(places)} times (columns {listed}) and {why}: which one holds the data "
            "is not known; give each column its own name")


def duplicate_column_problem(columns: Sequence[str], given: dict[str, Any], detected_by: dict[str, Sequence[str]],
                             per_class: Any = None) -> str | None:
    """What is wrong with the duplicated column names of a file, or None.

    A name that occurs twice is a problem when it is read (named in ``given``: role -> the
    column, a list of columns, or None) or when the detection of a role not named looks at it
    (``detected_by``: role -> lowercase names; ``per_class``: a pattern of per-class score
    columns), since it might have been picked: pyarrow would read one of them (CSV: the first)
    or both (Parquet), pandas renames the second, all silently. Other duplicated names (an
    ``id`` column twice) are not read and pass.

    >>> names = {"y_true": ["label"], "y_score": ["score"]}
    >>> duplicate_column_problem(["id", "id", "label", "score"], {"y_true": None, "y_score": None}, names) is None
    True
    >>> duplicate_column_problem(["label", "p", "p"], {"y_true": None, "y_score": ["p"]}, names)[:60]
    "column 'p' occurs 2 times (columns 2 and 3) and --y-score re"
    """
    for name, places in duplicated_columns(columns).items():
        why = None
        for role, value in given.items():
            if name in (value if isinstance(value, (list, tuple)) else [value]):
                why = f"{OPTIONS.get(role, role)} reads it"
                break
        if why is None:
            for role, names in detected_by.items():
                pattern = role == "y_score" and per_class is not None and per_class.match(name) is not None
                if given.get(role) is None and (name.lower() in names or pattern):
                    why = f"clfeval looks for the {role} column by that name"
                    break
        if why is not None:
            return duplicate_message(name, places, why)
    return None


def read_failure_text(exc: BaseException) -> str:
    """pyarrow's error in one line; a Parquet page that fails its checksum says so first.

    >>> read_failure_text(OSError("could not verify page integrity, CRC checksum verification failed"))[:44]
    'a data page fails its checksum: the file is '
    """
    text = " ".join(str(exc).split())
    if "checksum" in text.lower():
        return f"a data page fails its checksum: the file is damaged (changed after it was written) ({text})"
    return text


def csv_row_problem(path: str | os.PathLike[str], exc: BaseException, columns: Sequence[str] | None,
                    any_error: bool = False) -> tuple[int, str | None, str] | None:
    """:func:`find_bad_csv_row` after pyarrow refused the CSV file with ``exc``: only for its
    errors of ragged rows and of UTF-8 (any error with ``any_error``)."""
    text = str(exc)
    if not any_error and "CSV parse error" not in text and "UTF8" not in text:
        return None
    return find_bad_csv_row(path, csv_delimiter(path), columns)


def csv_delimiter(path: str | os.PathLike[str]) -> str:
    """Tab for ``.tsv`` files (compressed too), else comma."""
    return "\t" if data_suffix(path) == ".tsv" else ","


def csv_bytes_per_row(path: str | os.PathLike[str], on_disk: bool = False) -> float:
    """Bytes per line in the first 64 KiB of a CSV file's data (``on_disk``: of the file as
    stored, about: a compressed file's are the head's times its compression ratio).

    >>> import tempfile
    >>> f = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(f, "w").write("label,score\\n1,0.5\\n")
    >>> csv_bytes_per_row(f)
    9.0
    """
    head = read_head(path, 1 << 16)
    per_row = max(len(head) / max(head.count(b"\n"), 1), 1.0)
    if on_disk and compression_of(path) is not None and head:
        import zlib

        per_row *= min(len(zlib.compress(head, 6)) / len(head), 1.0)
    return per_row


_CSV_CONVERSION = re.compile(r"In CSV column #(\d+): CSV conversion error to [^:]+: invalid value")


def csv_conversion_column(file: str | os.PathLike[str], exc: BaseException, parse_options: Any) -> str | None:
    """The column named by pyarrow's "CSV conversion error ... invalid value" ``exc``, else None."""
    import pyarrow.csv as pcsv

    m = _CSV_CONVERSION.search(str(exc))
    if m is None:
        return None
    with open_native(file) as raw, pcsv.open_csv(open_decompressed(raw, file), parse_options=parse_options) as reader:
        return reader.schema.names[int(m.group(1))]


def first_unconvertible(file: str | os.PathLike[str], name: str, target: Any, read_options: Any, parse_options: Any
                        ) -> tuple[int, Any] | None:
    """(data row index, 0-based; value as text) of the first value of column ``name`` that does
    not convert to the pyarrow type ``target``, reading that column again as text; None if all do."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv

    convert = pcsv.ConvertOptions(include_columns=[name], column_types={name: pa.string()}, strings_can_be_null=True)
    seen = 0
    with open_native(file) as raw, pcsv.open_csv(open_decompressed(raw, file), read_options=read_options,
                                                 parse_options=parse_options, convert_options=convert) as reader:
        for batch in reader:
            column = batch.column(0)
            try:
                pc.cast(column, target)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                for i, value in enumerate(column.to_pylist()):
                    try:
                        pc.cast(pa.array([value], pa.string()), target)
                    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                        return seen + i, value
            seen += batch.num_rows
    return None


def shown_bytes(value: bytes, limit: int = 40) -> str:
    """Bytes as the user can read them: Python's escapes, cut at ``limit`` bytes.

    >>> shown_bytes(b"caf\\xe9")
    "b'caf\\\\xe9'"
    """
    return repr(value[:limit]) + ("..." if len(value) > limit else "")


def first_not_utf8(values: Iterable[Any]) -> tuple[int, bytes] | None:
    """(index, bytes) of the first value that is bytes and not valid UTF-8; None if all decode.

    >>> first_not_utf8([b"a", None, b"\\xff\\xfe"])
    (2, b'\\xff\\xfe')
    """
    for i, v in enumerate(values):
        if isinstance(v, (bytes, bytearray)):
            try:
                v.decode("utf-8")
            except UnicodeDecodeError:
                return i, bytes(v)
    return None


def find_bad_csv_row(path: str | os.PathLike[str], delimiter: str, columns: Sequence[str] | None = None
                     ) -> tuple[int, str | None, str] | None:
    """The first data row (0-based index, counting rows after the header; empty lines are not
    rows, as pyarrow skips them) with a number of fields other than the header's, or with bytes
    that are not UTF-8 in one of ``columns`` (all columns if None): (row, column or None, what is
    wrong); None if every row is fine. Reads the file once, in Python: only after pyarrow refused it.

    >>> import tempfile
    >>> f = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(f, "wb").write(b"label,score\\n1,0.5\\n\\n0,0.2,7\\n")
    >>> find_bad_csv_row(f, ",")
    (1, None, 'has 3 fields, but the header has 2')
    >>> _ = open(f, "wb").write(b"label,score\\n1,0.5\\n\\xff,0.2\\n")
    >>> find_bad_csv_row(f, ",")
    (1, 'label', "b'\\\\xff' is not UTF-8 text")
    """
    with open(path, "rb") as raw:
        stream = open_decompressed(raw, path)
        binary = raw if stream is raw else io.BufferedReader(_Readable(stream))
        text = io.TextIOWrapper(binary, encoding="utf-8", errors="surrogateescape", newline="")
        try:
            reader = csv.reader(text, delimiter=delimiter)
            header = next(reader, None)
            if header is None:
                return None
            wanted = [i for i, name in enumerate(header) if columns is None or name in columns]
            row = -1
            for fields in reader:
                if not fields:
                    continue  # an empty line
                row += 1
                if len(fields) != len(header):
                    fields_words = f"{len(fields)} field{'s' if len(fields) != 1 else ''}"
                    return row, None, f"has {fields_words}, but the header has {len(header)}"
                for i in wanted:
                    value = fields[i]
                    try:
                        value.encode("utf-8")
                    except UnicodeEncodeError:
                        data = value.encode("utf-8", errors="surrogateescape")
                        return row, header[i], f"{shown_bytes(data)} is not UTF-8 text"
        except csv.Error:
            return None
        finally:
            text.detach()
            if stream is not raw:
                stream.close()
    return None


class _Readable(io.RawIOBase):
    """A pyarrow input stream as a Python binary file (for io.TextIOWrapper)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        data = self._stream.read(len(b))
        n = len(data)
        b[:n] = data
        return n

