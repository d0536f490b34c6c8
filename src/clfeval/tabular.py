"""Predictions read from a CSV, Parquet or Feather file: which columns hold what, as numpy arrays.

Only the columns that are needed are read (pyarrow, multi-threaded). A directory is read as one
table: every CSV, Parquet or Feather file in it (sorted; one format; the same columns).
:func:`read_predictions` reads everything at once; :func:`iter_prediction_batches` reads record
batches of at most ``batch_rows`` rows, in bounded memory, with the same column detection,
checks and messages (a message names the file and the row). When the caller does not name
the columns, the obvious layouts are detected (``y_true``/``label``/``target``..., ``y_pred``/
``prediction``..., ``y_score``/``score``/``proba``... or one score column per class such as
``proba_setosa, proba_versicolor, ...``) and :attr:`Predictions.detected` says what was found.
Every problem with the file raises :class:`InputFileError` with one line that says what and where
(a duplicated column read or detectable, an empty label, a ragged row, bytes that are not UTF-8,
a Parquet page that fails its checksum: see :mod:`clfeval.input_checks`). A CSV file may be
compressed (``.csv.gz``, ``.bz2``, ``.zst``), in a directory too.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
>>> _ = open(path, "w").write("label,score\\n1,0.9\\n0,0.2\\n1,0.4\\n")
>>> p = read_predictions(path)
>>> p.y_true.tolist(), p.y_score.tolist(), p.detected
([1, 0, 1], [0.9, 0.2, 0.4], ['y_true = label', 'y_score = score'])
"""

from __future__ import annotations

import contextlib
import difflib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from .column_roles import PER_CLASS_PATTERN, ColumnChoice, ColumnChoiceError, parse_label
from .input_checks import (
    compression_of,
    csv_bytes_per_row,
    csv_conversion_column,
    csv_delimiter,
    csv_row_problem,
    data_suffix,
    duplicate_column_problem,
    duplicate_message,
    duplicated_columns,
    first_not_utf8,
    first_unconvertible,
    open_decompressed,
    open_native,
    read_failure_text,
    read_head,
    shown_bytes,
)

__all__ = ["InputFileError", "Predictions", "PredictionBatches", "read_predictions", "iter_prediction_batches",
           "ModelColumns", "read_models", "detect_true_column", "detect_column", "FORMATS", "DEFAULT_BATCH_ROWS"]

#: file suffix -> format name
FORMATS = {".csv": "csv", ".tsv": "csv", ".txt": "csv", ".parquet": "parquet", ".pq": "parquet",
           ".feather": "feather", ".arrow": "feather", ".ipc": "feather"}

TRUE_NAMES = ("y_true", "true", "target", "label", "labels", "actual", "truth", "y", "class", "gold")
PRED_NAMES = ("y_pred", "pred", "prediction", "predictions", "predicted", "y_hat", "yhat")
SCORE_NAMES = ("y_score", "score", "scores", "y_proba", "proba", "probability", "prob", "y_prob",
               "decision", "decision_function")
WEIGHT_NAMES = ("sample_weight", "weight", "weights")
_PER_CLASS = PER_CLASS_PATTERN

#: the suffixes read from a directory (.txt is left out: a folder's notes are not data)
FOLDER_FORMATS = {k: v for k, v in FORMATS.items() if k != ".txt"}
#: files at least this large get a progress bar (when stderr is a terminal)
PROGRESS_MIN_BYTES = 64 * 2**20
#: rows per batch of :func:`iter_prediction_batches`
DEFAULT_BATCH_ROWS = 1_000_000


class InputFileError(ValueError):
    """The input file cannot be read as predictions; the message is one line for the user."""


@dataclass
class Predictions:
    """The arrays of one file, ready for :func:`clfeval.evaluate`, and what was detected."""

    path: Path
    n_rows: int
    columns: list[str]
    y_true: np.ndarray
    y_pred: np.ndarray | None = None
    y_score: np.ndarray | None = None
    score_columns: list[str] = field(default_factory=list)
    score_labels: list[str] | None = None  # class named by each per-class score column, if detected
    sample_weight: np.ndarray | None = None
    detected: list[str] = field(default_factory=list)
    first_row: int = 0  # a batch: the row of ``path`` its first row is (0-based)
    folder_row: int | None = None  # a batch of a file in a directory: the directory's row of its first row


def read_predictions(
    path: str | os.PathLike[str],
    *,
    y_true: str | None = None,
    y_pred: str | None = None,
    y_score: Sequence[str] | str | None = None,
    sample_weight: str | None = None,
    progress: bool | None = None,
    labels: Sequence[Any] | str | None = None,
) -> Predictions:
    """Read the label, prediction, score and weight columns of a CSV, Parquet or Feather file
    (or of every such file in a directory) into memory.

    ``y_score`` is one column (binary scores of the positive class) or several (one per class, in
    label order); a comma-separated string is split. Columns not named are detected when the
    layout is obvious. ``progress`` None shows a bar for large files when stderr is a terminal.
    """
    return iter_prediction_batches(path, y_true=y_true, y_pred=y_pred, y_score=y_score,
                                   sample_weight=sample_weight, progress=progress, labels=labels).read_all()


def iter_prediction_batches(path: str | os.PathLike[str], *, y_true: str | None = None, y_pred: str | None = None,
                            y_score: Sequence[str] | str | None = None, sample_weight: str | None = None,
                            batch_rows: int = DEFAULT_BATCH_ROWS, progress: bool | None = None,
                            labels: Sequence[Any] | str | None = None) -> PredictionBatches:
    """The predictions of a CSV, Parquet or Feather file, or of a directory of such files, as
    :class:`Predictions` batches of at most ``batch_rows`` rows, read in bounded memory.

    The columns are found (named or detected) and checked at once, as :func:`read_predictions`
    does; iterating reads the batches (again on each iteration). A directory is every file in it
    (and its subfolders; names starting with "." or "_" are passed over) of one format, in sorted
    order, read as one table: each file must hold the columns read. ``progress`` None shows one
    bar over all files (rows, or bytes for CSV) when they are large and stderr is a terminal.
    ``labels`` (a list, or a comma-separated string as ``--labels`` gives it): the classes that
    suffixed score columns must name (:mod:`clfeval.column_roles`; by default those of y_true).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("label,score\\n1,0.9\\n0,0.2\\n1,0.4\\n")
    >>> batches = iter_prediction_batches(path, batch_rows=2)
    >>> [(b.first_row, b.y_true.tolist()) for b in batches]
    [(0, [1, 0]), (2, [1])]
    """
    if isinstance(batch_rows, bool) or not isinstance(batch_rows, (int, np.integer)) or batch_rows < 1:
        raise ValueError(f"batch_rows must be a positive integer, got {batch_rows!r}.")
    source = _Source.open(Path(path))
    if isinstance(y_score, str):
        y_score = [c.strip() for c in y_score.split(",") if c.strip()]
    layout = _Layout.resolve(source.files[0], source.columns, y_true, y_pred, list(y_score) if y_score else None,
                             sample_weight)
    if layout.classes_needed():  # suffixed score columns: read as one per class only if they name the classes
        layout.settle(*_classes_of(source, layout, labels, int(batch_rows)))
    source.check(layout)
    return PredictionBatches(source, layout, int(batch_rows), progress)


class PredictionBatches:
    """The batches of :func:`iter_prediction_batches`: iterate for :class:`Predictions` of at
    most ``batch_rows`` rows each (``first_row`` says where each starts; batches of a file in a
    directory have ``folder_row`` too); :meth:`read_all` reads everything at once.

    What is known before reading: ``path``, ``files``, ``format``, ``columns`` (of the first file),
    the columns read (``y_true_column``, ``y_pred_column``, ``score_columns``, ``weight_column``),
    ``detected``, ``score_labels``, ``columns_used`` (the JSON entry "columns"), ``unused_note``,
    ``n_rows`` (None for CSV), ``nbytes`` (of the files) and :attr:`estimated_memory`.
    """

    def __init__(self, source: _Source, layout: _Layout, batch_rows: int, progress: bool | None) -> None:
        self._source, self._layout = source, layout
        self.path, self.files, self.format = source.path, list(source.files), source.fmt
        self.columns = source.columns
        self.detected, self.score_labels = layout.detected, layout.score_labels
        #: which column is read for what, and the columns not read (the JSON entry "columns")
        self.columns_used = None if layout.choice is None else layout.choice.used()
        #: a note naming the columns not read, when the prediction or score column was named
        self.unused_note = None if layout.choice is None else layout.choice.unused_note()
        self.score_columns: list[str] = layout.y_score or []
        #: the columns read (named or detected): labels, predictions (or None), weights (or None)
        self.y_true_column, self.y_pred_column, self.weight_column = layout.y_true, layout.y_pred, layout.sample_weight
        self.batch_rows, self.progress = batch_rows, progress
        self._wanted = list(dict.fromkeys(c for c in layout.all_columns() if c is not None))
        #: (lowest, highest) score of the rows read so far (None before any): what the scores' kind is decided on
        self.score_range: tuple[float, float] | None = None

    def __repr__(self) -> str:
        return (f"PredictionBatches(path={str(self.path)!r}, format={self.format!r}, files={len(self.files)}, "
                f"n_rows={self.n_rows}, batch_rows={self.batch_rows})")

    @property
    def is_directory(self) -> bool:
        return self._source.folder

    @property
    def n_rows(self) -> int | None:
        """Rows in all files, where the files say (Parquet, Feather); None for CSV."""
        return None if self._source.rows is None else sum(self._source.rows)

    @property
    def nbytes(self) -> int:
        """Bytes of the files on disk."""
        return sum(self._source.sizes)

    @property
    def estimated_memory(self) -> int:
        """Roughly how many bytes the columns read take in memory as arrays, all rows at once
        (the rows are counted from the files' metadata, or estimated from a CSV's first lines)."""
        per_row = 0
        schema = self._source.schemas[0]
        for name in self._wanted:
            per_row += 8 if name in self._numeric_columns() else _row_bytes(schema.field(name).type)
        return int(per_row * self._source.estimated_rows())

    def _numeric_columns(self) -> set[str]:
        return {*self.score_columns, *([] if self._layout.sample_weight is None else [self._layout.sample_weight])}

    def __iter__(self) -> Iterator[Predictions]:
        return self._batches()

    def read_all(self) -> Predictions:
        """Every row at once (each file read whole, multi-threaded); one :class:`Predictions`."""
        show = _want_progress(self.nbytes, self.progress)
        parts = []
        for file, place in self._places():
            table = _read(file, self.format, self._wanted, show, place)
            if table.num_rows:
                parts.append(self._convert(table, place))
            place.advance(table.num_rows)
        if not parts:
            raise self.empty_error()
        if len(parts) == 1 and not self.is_directory:
            return parts[0]

        def joined(name: str) -> Any:
            first = getattr(parts[0], name)
            return None if first is None else np.concatenate([getattr(p, name) for p in parts])

        return replace(parts[0], path=self.path, n_rows=sum(p.n_rows for p in parts), y_true=joined("y_true"),
                       y_pred=joined("y_pred"), y_score=joined("y_score"), sample_weight=joined("sample_weight"),
                       first_row=0, folder_row=None)

    def empty_error(self) -> InputFileError:
        """The error of a file (or directory) without data rows."""
        what = "no file in the directory has any" if self.is_directory else "the file has no"
        return InputFileError(f"{self.path}: {what} data rows")

    def _places(self) -> Iterator[tuple[Path, _Rows]]:
        """Each file and the counter of its rows (for messages); rows advance as they are read."""
        folder_row = 0
        for file in self.files:
            rows = _Rows(file, folder=self.path if self.is_directory else None, folder_first=folder_row)
            yield file, rows
            folder_row += rows.seen

    def _batches(self) -> Iterator[Predictions]:
        csv = self.format == "csv"
        total = self.nbytes if csv else (self.n_rows or 0)
        bar = _progress_bar(self.path, total, "bytes" if csv else "rows") \
            if _want_progress(self.nbytes, self.progress) else contextlib.nullcontext(lambda n: None)
        with bar as advance:
            for file, rows in self._places():
                # closed at once when a batch is refused: the CSV reader's read-ahead thread stops
                # before the interpreter does (else it can abort the process at exit)
                with contextlib.closing(self._file_batches(file, advance, rows)) as tables:
                    for table in tables:
                        if table.num_rows:
                            yield self._convert(table, rows.batch())
                        rows.advance(table.num_rows)

    def _file_batches(self, file: Path, advance: Callable[[int], None], rows: _Rows) -> Iterator[Any]:
        """One file's rows as pyarrow Tables of at most batch_rows rows (one record batch each)."""
        import pyarrow as pa

        n = self.batch_rows
        try:
            if self.format == "parquet":
                import pyarrow.parquet as pq

                # no pre-buffering, a bounded read buffer: memory does not grow with a row group's size
                pf = pq.ParquetFile(file, pre_buffer=False, buffer_size=1 << 22, page_checksum_verification=True)
                for batch in pf.iter_batches(batch_size=n, columns=self._wanted):
                    yield pa.Table.from_batches([batch])
                    advance(batch.num_rows)
            else:  # record batches as written (Feather) or as parsed (CSV blocks), regrouped
                feather = self.format == "feather"
                blocks = self._feather_blocks(file) if feather else self._csv_blocks(file, advance, rows)
                with contextlib.closing(blocks):
                    for table in _regrouped(blocks, n):
                        yield table
                        if feather:
                            advance(table.num_rows)
        except (pa.ArrowInvalid, pa.ArrowTypeError, OSError) as exc:
            raise InputFileError(f"{file}: {read_failure_text(exc)}") from None

    def _feather_blocks(self, file: Path) -> Iterator[Any]:
        """The record batches of a Feather (Arrow IPC) file, memory-mapped, only the columns read."""
        import pyarrow as pa
        import pyarrow.ipc as ipc

        with pa.memory_map(str(file)) as source:
            schema = ipc.open_file(source).schema
            fields = sorted({schema.get_field_index(c) for c in self._wanted})
            reader = ipc.open_file(source, options=ipc.IpcReadOptions(included_fields=fields))
            for i in range(reader.num_record_batches):
                yield reader.get_batch(i)

    def _csv_blocks(self, file: Path, advance: Callable[[int], None], rows: _Rows) -> Iterator[Any]:
        """The parsed blocks of a CSV file (about batch_rows rows each), only the columns read."""
        import pyarrow as pa
        import pyarrow.csv as pcsv

        numeric = self._numeric_columns()
        # scores and weights are numbers in every block (a streamed CSV's types come from its first
        # block: a column of whole numbers there would refuse a later 0.5)
        types = {c: pa.float64() for c in numeric}
        if self._layout.sample_weight is not None:  # text, so that integer weights stay exact
            types[self._layout.sample_weight] = pa.string()
        convert = pcsv.ConvertOptions(include_columns=self._wanted, column_types=types)
        read = pcsv.ReadOptions(block_size=_csv_block_size(file, self.batch_rows))
        size, done, schema = file.stat().st_size, 0, None
        with open_native(file) as raw:
            try:
                with pcsv.open_csv(open_decompressed(raw, file), read_options=read,
                                   parse_options=_csv_parse_options(file), convert_options=convert) as reader:
                    schema = reader.schema
                    for batch in reader:
                        yield batch
                        now = raw.tell()
                        advance(now - done)
                        done = now
            except pa.ArrowInvalid as exc:
                try:
                    found = _csv_conversion_error(file, exc, schema, numeric, read, rows)
                except pa.ArrowInvalid:  # the column read again as text fails too (bytes not UTF-8)
                    found = None
                raise found or csv_row_error(file, exc, self._wanted, rows, any_error=True) or exc
        advance(size - done)

    def _convert(self, table: Any, rows: _Rows) -> Predictions:
        """A table of the needed columns as :class:`Predictions` (the checks of every reader)."""
        layout = self._layout
        out = Predictions(path=rows.path, n_rows=table.num_rows, columns=self.columns,
                          y_true=_labels(table, layout.y_true, rows), detected=layout.detected,
                          score_columns=layout.y_score or [], score_labels=layout.score_labels,
                          first_row=rows.first,
                          folder_row=None if rows.folder is None else rows.folder_first + rows.first)
        if layout.y_pred is not None:
            out.y_pred = _labels(table, layout.y_pred, rows)
        if layout.y_score:
            cols = [_numbers(table, c, rows, "score") for c in layout.y_score]
            out.y_score = cols[0] if len(cols) == 1 else np.column_stack(cols)
            if out.y_score.size:
                lo, hi = float(out.y_score.min()), float(out.y_score.max())
                seen = self.score_range
                self.score_range = (lo, hi) if seen is None else (min(seen[0], lo), max(seen[1], hi))
        if layout.sample_weight is not None:
            out.sample_weight = _numbers(table, layout.sample_weight, rows, "weight")
        return out


def _regrouped(batches: Iterable[Any], n: int) -> Iterator[Any]:
    """Record batches regrouped into pyarrow Tables of ``n`` rows (the last one fewer), by slicing."""
    import pyarrow as pa

    pending: list[Any] = []
    count = 0
    for batch in batches:
        start = 0
        while start < batch.num_rows:
            take = min(n - count, batch.num_rows - start)
            pending.append(batch.slice(start, take))
            count, start = count + take, start + take
            if count == n:
                yield pa.Table.from_batches(pending)
                pending, count = [], 0
    if count:
        yield pa.Table.from_batches(pending)


@dataclass
class _Rows:
    """Where a table's rows lie, for messages: the file, the file's row of the table's first row
    (``first``), and for a file of a directory, the directory's row of the file's first row."""

    path: Path
    first: int = 0
    folder: Path | None = None
    folder_first: int = 0
    partial: bool = False  # the table is a batch: rows outside it may hold more of the same
    seen: int = 0  # rows of the file read so far

    def batch(self) -> _Rows:
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


@dataclass
class _Source:
    """The file, or the files of a directory (one format), with what their metadata say."""

    path: Path
    fmt: str
    files: list[Path]
    schemas: list[Any]
    sizes: list[int]
    rows: list[int] | None  # per file, where the format says (Parquet, Feather)
    folder: bool

    @property
    def columns(self) -> list[str]:
        return list(self.schemas[0].names)

    @classmethod
    def open(cls, path: Path) -> _Source:
        folder = path.is_dir()
        if folder:
            files = _folder_files(path)
            if not files:
                raise InputFileError(f"{path}: no CSV, Parquet or Feather file in the directory")
            by_format: dict[str, list[Path]] = {}
            for f in files:
                by_format.setdefault(FOLDER_FORMATS[data_suffix(f)], []).append(f)
            if len(by_format) > 1:
                mix = "; ".join(f"{len(fs)} {fmt} ({_listing([str(f.relative_to(path)) for f in fs], 3)})"
                                for fmt, fs in by_format.items())
                raise InputFileError(f"{path}: the directory mixes file formats ({mix}); "
                                     "keep files of one format in it")
            fmt = next(iter(by_format))
            both = [f for f in files if compression_of(f) is not None and f.with_suffix("") in set(files)]
            if both:
                raise InputFileError(f"{path}: holds {both[0].with_suffix('').name} and its compressed copy "
                                     f"{both[0].name}: its rows would be read twice; keep one of them in the directory")
            for f in files:
                _format_of(f)  # empty files are errors
        else:
            fmt, files = _format_of(path), [path]
        metas = [_metadata(f, fmt) for f in files]
        rows = None if fmt == "csv" else [m[1] for m in metas]
        return cls(path, fmt, files, [m[0] for m in metas], [f.stat().st_size for f in files], rows, folder)

    def check(self, layout: _Layout) -> None:
        """Every file of a directory holds the columns read, labels of one kind."""
        first, schema0 = self.files[0], self.schemas[0]
        for file, schema in zip(self.files[1:], self.schemas[1:]):
            twice = duplicated_columns(list(schema.names))
            for role, name in layout.roles():
                if name in twice:
                    raise InputFileError(f"{file}: {duplicate_message(name, twice[name], f'it is read as {role}')}")
            for role, name in layout.roles():
                if name not in schema.names:
                    raise InputFileError(
                        f"{file}: no column {name!r} ({role}), which {first.name} has: every file in {self.path} "
                        f"must hold the columns read (columns: {_listing(list(schema.names))})")
            for role, name in layout.roles():
                if role not in ("y_true", "y_pred"):
                    continue
                a, b = _kind(schema0.field(name).type), _kind(schema.field(name).type)
                if a != b and "empty" not in (a, b):
                    raise InputFileError(f"{file}: column {name!r} ({role}) holds {b}, but in {first.name} it "
                                         f"holds {a}: the files in {self.path} must have the same schema")

    def estimated_rows(self) -> float:
        if self.rows is not None:
            return float(sum(self.rows))
        return sum(size / csv_bytes_per_row(f, on_disk=True) for f, size in zip(self.files, self.sizes))


def _folder_files(folder: Path) -> list[Path]:
    """The data files in a directory and its subfolders, sorted; hidden ones (".", "_") passed over.
    Compressed ones count by the suffix before the compression's (``p.csv.gz`` is a CSV file)."""
    return sorted(p for p in folder.rglob("*")
                  if data_suffix(p) in FOLDER_FORMATS and p.is_file()
                  and not any(part.startswith((".", "_")) for part in p.relative_to(folder).parts))


def _kind(t: Any) -> str:
    """What a label column holds, in words."""
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


def _row_bytes(t: Any) -> int:
    """Rough bytes per row of a label column once read (fixed widths, or a guess for text)."""
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        t = t.value_type
    try:
        return max(t.bit_width // 8, 1)
    except ValueError:  # variable width: offsets and characters, then a numpy text array
        return 32


def _csv_block_size(path: Path, batch_rows: int) -> int:
    """A CSV block of about ``batch_rows`` rows (1 to 64 MiB)."""
    return int(min(max(batch_rows * csv_bytes_per_row(path) * 1.05, 1 << 20), 1 << 26))


def _csv_conversion_error(file: Path, exc: BaseException, schema: Any, numeric: set[str], read: Any,
                          rows: _Rows) -> InputFileError | None:
    """A streamed CSV value that does not parse as its column's type: find its row (reading that
    column again as text) and say it as the in-memory reader would; None if it is not found."""
    import pyarrow as pa

    name = csv_conversion_column(file, exc, _csv_parse_options(file))
    if name is None or (name not in numeric and schema is None):  # the first block: its types are its own
        return None
    target = pa.float64() if name in numeric else schema.field(name).type
    found = first_unconvertible(file, name, target, read, _csv_parse_options(file))
    if found is None:
        return None
    i, value = found
    where = _Rows(file, folder=rows.folder, folder_first=rows.folder_first)
    if name in numeric:
        return _not_a_number(where, name, i, value)
    return InputFileError(
        f"{file}: column {name!r}, {where.row(i)}: {value!r} is not one of the {_kind(target)} "
        "that the first rows hold (a streamed CSV column takes its type from its first rows): "
        "give the column values of one kind, or read the file in memory")


@dataclass
class ModelColumns:
    """One model's outputs in a file: predicted labels or scores (one column, or one per class)."""

    name: str
    columns: list[str]
    y_pred: np.ndarray | None = None
    y_score: np.ndarray | None = None


def detect_true_column(path: str | os.PathLike[str], models: Sequence[tuple[str, Sequence[str]]]) -> str:
    """The column of true labels, found as ``clfeval report`` finds it (``y_true``, ``label``, ``target``, ...)
    among the columns that no model reads; an InputFileError when there is none.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "m.csv")
    >>> _ = open(path, "w").write("id,target,a,b\\n1,1,1,0.8\\n2,0,1,0.3\\n")
    >>> detect_true_column(path, [("A", ["a"]), ("B", ["b"])])
    'target'
    """
    path = Path(path)
    columns = _column_names(path, _format_of(path))
    taken = {c for _, cols in models for c in cols}
    found = detect_column(path, [c for c in columns if c not in taken], "y_true", TRUE_NAMES, [])
    if found is None:
        raise _no_true_column(path, columns)
    return found


def _no_true_column(path: Path, columns: Sequence[str]) -> InputFileError:
    return InputFileError(f"{path}: no column of true labels found; name it with --y-true COLUMN "
                          f"(columns: {_listing(columns)})")


def read_models(
    path: str | os.PathLike[str],
    *,
    y_true: str,
    models: Sequence[tuple[str, Sequence[str]]],
    sample_weight: str | None = None,
    progress: bool | None = None,
) -> tuple[np.ndarray, list[ModelColumns], np.ndarray | None]:
    """The true labels and several models' outputs, each given as (name, [columns]).

    A model with one column of labels (every value one of the true labels) is a model of
    predictions; a model with several columns, or a numeric column that is not all labels, is a
    model of scores.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "m.csv")
    >>> _ = open(path, "w").write("y,a,b\\n1,1,0.8\\n0,1,0.3\\n")
    >>> y, (a, b), w = read_models(path, y_true="y", models=[("A", ["a"]), ("B", ["b"])])
    >>> a.y_pred.tolist(), b.y_score.tolist()
    ([1, 1], [0.8, 0.3])
    """
    path = Path(path)
    fmt = _format_of(path)
    columns = _column_names(path, fmt)
    wanted = [("--y-true", y_true)] + [(f"--model {n}", c) for n, cols in models for c in cols]
    if sample_weight is not None:
        wanted.append(("--sample-weight", sample_weight))
    for option, name in wanted:
        if name not in columns:
            raise InputFileError(_missing(path, option, name, columns))
    twice = duplicated_columns(columns)
    for option, name in wanted:
        if name in twice:
            raise InputFileError(f"{path}: {duplicate_message(name, twice[name], f'{option} reads it')}")
    table = _read(path, fmt, list(dict.fromkeys(c for _, c in wanted)), _want_progress(path.stat().st_size, progress),
                  _Rows(path))
    if table.num_rows == 0:
        raise InputFileError(f"{path}: the file has no data rows")
    rows = _Rows(path)
    truth = _labels(table, y_true, rows)
    known = set(truth.tolist())
    out = []
    for name, cols in models:
        m = ModelColumns(name=name, columns=list(cols))
        if len(cols) == 1:
            values = _labels(table, cols[0], rows)
            if values.dtype.kind not in "fiub" and truth.dtype.kind in "fiub":
                m.y_score = _numbers(table, cols[0], rows, "score")  # text among numbers: names its row
            elif set(np.unique(values).tolist()) <= known or values.dtype.kind not in "fiub":
                m.y_pred = values
            else:
                m.y_score = _numbers(table, cols[0], rows, "score")
        else:
            m.y_score = np.column_stack([_numbers(table, c, rows, "score") for c in cols])
        out.append(m)
    weights = None if sample_weight is None else _numbers(table, sample_weight, rows, "weight")
    return truth, out, weights


def _format_of(path: Path) -> str:
    if not path.exists():
        raise InputFileError(f"{path}: no such file")
    if path.is_dir():
        raise InputFileError(f"{path}: is a directory, not a file")
    if path.stat().st_size == 0:
        raise InputFileError(f"{path}: the file is empty")
    fmt = FORMATS.get(data_suffix(path))
    if fmt is None:
        head = read_head(path, 8)
        fmt = "parquet" if head[:4] == b"PAR1" else "feather" if head[:6] == b"ARROW1" else "csv"
    if fmt != "csv" and compression_of(path) is not None:
        raise InputFileError(f"{path}: a compressed {fmt} file ({path.suffix}) cannot be read: {fmt} files compress "
                             f"their own columns; decompress it, or write the {fmt} file with compression inside")
    return fmt


def _column_names(path: Path, fmt: str) -> list[str]:
    return list(_metadata(path, fmt)[0].names)


def _metadata(path: Path, fmt: str) -> tuple[Any, int | None]:
    """The file's pyarrow schema (CSV: as its first block reads) and rows (None for CSV)."""
    import pyarrow as pa

    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            meta = pq.read_metadata(path)
            return meta.schema.to_arrow_schema(), meta.num_rows
        if fmt == "feather":
            import pyarrow.ipc as ipc

            with pa.memory_map(str(path)) as source:
                reader = ipc.open_file(source)
                return reader.schema, reader.count_rows()
        import pyarrow.csv as pcsv

        with open_native(path) as raw, pcsv.open_csv(
                path if compression_of(path) is None else open_decompressed(raw, path),
                parse_options=_csv_parse_options(path)) as reader:
            _ = reader.schema.names  # decoded here: a header that is not UTF-8 is said as such
            return reader.schema, None
    except UnicodeDecodeError:  # column names that are not UTF-8 (a CSV's header)
        header = read_head(path, 1 << 12).split(b"\n", 1)[0]
        raise InputFileError(f"{path}: the header (column names) is not UTF-8 text: {shown_bytes(header)}") from None
    except (pa.ArrowInvalid, OSError) as exc:
        bad = csv_row_error(path, exc, None, _Rows(path)) if fmt == "csv" else None
        raise (bad or InputFileError(f"{path}: cannot be read as {fmt}: {_one_line(exc)}")) from None


def _csv_parse_options(path: Path) -> Any:
    import pyarrow.csv as pcsv

    return pcsv.ParseOptions(delimiter=csv_delimiter(path))


def _want_progress(size: int, progress: bool | None) -> bool:
    """Show a bar: as asked, or for ``size`` bytes of files or more when stderr is a terminal."""
    if progress is not None:
        return progress
    import sys

    return size >= PROGRESS_MIN_BYTES and sys.stderr.isatty()


def _read(path: Path, fmt: str, columns: list[str], show_progress: bool, rows: _Rows) -> Any:
    """The named columns as one pyarrow Table (row order kept); ``rows`` places the file's rows
    (in a directory) for messages."""
    import pyarrow as pa

    try:
        if fmt == "parquet":
            return _read_parquet(path, columns, show_progress)
        if fmt == "feather":
            import pyarrow.feather as feather

            return feather.read_table(path, columns=columns, memory_map=True)
        return _read_csv(path, columns, show_progress)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OSError) as exc:
        bad = csv_row_error(path, exc, columns, rows) if fmt == "csv" else None
        raise (bad or InputFileError(f"{path}: {read_failure_text(exc)}")) from None


def csv_row_error(path: Path, exc: BaseException, columns: list[str] | None, rows: _Rows,
                  any_error: bool = False) -> InputFileError | None:
    """pyarrow's refusal of a CSV file with a ragged row or bytes that are not UTF-8 (see
    :func:`clfeval.input_checks.csv_row_problem`), said with the data row (in a directory, its
    row there too) and column; None if not found."""
    found = csv_row_problem(path, exc, columns, any_error)
    if found is None:
        return None
    i, column, what = found
    where = _Rows(path, folder=rows.folder, folder_first=rows.folder_first).row(i)
    return InputFileError(f"{path}: {where} {what}" if column is None else f"{path}: column {column!r}, {where}: {what}")


def _read_parquet(path: Path, columns: list[str], show_progress: bool) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    # one file: ParquetFile reads it without pyarrow.dataset (whose import pulls in pandas)
    pf = pq.ParquetFile(path, page_checksum_verification=True)  # a damaged page is an error, not other numbers
    if not show_progress:
        return pf.read(columns=columns)
    groups = pf.metadata.num_row_groups
    with _progress_bar(path, pf.metadata.num_rows, "rows") as advance:
        parts = []
        for i in range(groups):
            part = pf.read_row_group(i, columns=columns)
            parts.append(part)
            advance(part.num_rows)
    return pa.concat_tables(parts) if parts else pf.read(columns=columns)


def _read_csv(path: Path, columns: list[str], show_progress: bool) -> Any:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    convert = pcsv.ConvertOptions(include_columns=columns)
    parse = _csv_parse_options(path)
    if not show_progress and compression_of(path) is None:  # pyarrow opens the file itself: fastest
        return pcsv.read_csv(path, parse_options=parse, convert_options=convert)
    if not show_progress:
        with open_native(path) as raw:
            return pcsv.read_csv(open_decompressed(raw, path), parse_options=parse, convert_options=convert)
    size = path.stat().st_size
    batches = []
    with open_native(path) as raw, _progress_bar(path, size, "bytes") as advance:
        with pcsv.open_csv(open_decompressed(raw, path), parse_options=parse, convert_options=convert) as reader:
            done = 0
            for batch in reader:
                batches.append(batch)
                now = raw.tell()
                advance(now - done)
                done = now
            advance(size - done)
            schema = reader.schema
    # the streaming reader infers types from the first block; unify later blocks' types
    return pa.Table.from_batches(batches, schema=schema)


class _progress_bar:
    """A rich progress bar on stderr; ``with _progress_bar(path, total, unit) as advance``."""

    def __init__(self, path: Path, total: int, unit: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

        cols: list[Any] = [TextColumn("reading {task.description}"), BarColumn()]
        cols.append(DownloadColumn() if unit == "bytes" else TextColumn("{task.completed:,}/{task.total:,} rows"))
        cols.append(TimeRemainingColumn())
        self._progress = Progress(*cols, console=Console(stderr=True), transient=True)
        self._task = self._progress.add_task(path.name, total=total)

    def __enter__(self) -> Callable[[int], None]:
        self._progress.start()
        return lambda n: self._progress.advance(self._task, n)

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()


def detect_column(path: Path, free: list[str], role: str, names: Sequence[str], detected: list[str]) -> str | None:
    """The first column of ``free`` named (in any case) like one of ``names``, in their order of preference;
    it is taken out of ``free`` and recorded in ``detected`` as "role = column". Two columns that differ only
    in case (``Score`` and ``score``) are an error: which one is meant is not known.

    >>> free, detected = ["id", "Label", "p"], []
    >>> detect_column(Path("f.csv"), free, "y_true", TRUE_NAMES, detected), free, detected
    ('Label', ['id', 'p'], ['y_true = Label'])
    """
    lower = {c.lower(): c for c in free}
    for n in names:
        alike = list(dict.fromkeys(c for c in free if c.lower() == n))
        if len(alike) > 1:
            raise InputFileError(
                f"{path}: columns {' and '.join(repr(c) for c in alike)} both look like the {role} column; "
                f"name the one to read with --{role.replace('_', '-')} COLUMN")
        if n in lower:
            free.remove(lower[n])
            detected.append(f"{role} = {lower[n]}")
            return lower[n]
    return None


@dataclass
class _Layout:
    y_true: str
    y_pred: str | None
    y_score: list[str] | None
    sample_weight: str | None
    score_labels: list[str] | None
    detected: list[str]
    choice: ColumnChoice | None = None

    def all_columns(self) -> list[str | None]:
        return [self.y_true, self.y_pred, *(self.y_score or []), self.sample_weight]

    def roles(self) -> list[tuple[str, str]]:
        """(role, column) of every column read."""
        pairs = [("y_true", self.y_true), ("y_pred", self.y_pred), *(("y_score", c) for c in self.y_score or []),
                 ("sample_weight", self.sample_weight)]
        return [(role, name) for role, name in pairs if name is not None]

    @classmethod
    def resolve(cls, path: Path, columns: list[str], y_true: str | None, y_pred: str | None,
                y_score: list[str] | None, sample_weight: str | None) -> _Layout:
        for option, name in (("--y-true", y_true), ("--y-pred", y_pred), ("--sample-weight", sample_weight),
                             *(("--y-score", c) for c in (y_score or []))):
            if name is not None and name not in columns:
                raise InputFileError(_missing(path, option, name, columns))
        check_duplicate_columns(path, columns, {"y_true": y_true, "y_pred": y_pred, "sample_weight": sample_weight,
                                          "y_score": y_score})
        detected: list[str] = []
        named = {y_true, y_pred, sample_weight, *(y_score or [])}
        free = [c for c in columns if c not in named]

        def pick(role: str, given: str | None, names: Sequence[str]) -> str | None:
            return given if given is not None else detect_column(path, free, role, names, detected)

        true_col = pick("y_true", y_true, TRUE_NAMES)
        if true_col is None:
            raise _no_true_column(path, columns)
        explicit = y_pred is not None or y_score is not None  # then no other output column is detected
        pred_col = y_pred if explicit else pick("y_pred", None, PRED_NAMES)
        weight_col = pick("sample_weight", sample_weight, WEIGHT_NAMES)
        single = None if explicit else pick("y_score", None, SCORE_NAMES)
        choice = ColumnChoice(str(path), list(columns), true_col, pred_col, y_score or ([single] if single else None),
                              weight_col, explicit, free, detected)
        layout = cls(true_col, pred_col, choice.y_score, weight_col, None, detected, choice)
        if not choice.needs_classes:
            layout.settle(None, False)
        return layout

    def settle(self, classes: Sequence[Any] | None, labels_given: bool, kind: str | None = None) -> None:
        """The score columns decided from the classes (see :mod:`clfeval.column_roles`)."""
        choice = self.choice
        assert choice is not None
        choice.settle(classes, labels_given, kind)
        self.y_score, self.score_labels = choice.y_score, choice.score_labels
        if self.y_pred is None and not self.y_score:
            several = "; several models' columns: clfeval compare --model NAME=COL" if len(choice.free) > 1 else ""
            raise ColumnChoiceError(
                f"{choice.path}: no prediction or score column found; name them with --y-pred COLUMN "
                f"or --y-score COLUMN[,COLUMN...]{several} (columns: {_listing(choice.columns)})")

    def classes_needed(self) -> bool:
        return self.choice is not None and self.choice.needs_classes


def _classes_of(source: _Source, layout: _Layout, labels: Sequence[Any] | str | None, batch_rows: int
                ) -> tuple[list[Any], bool, str]:
    """The classes that per-class score columns must name: ``labels`` (typed like y_true), or those
    of y_true in the first batch (later batches are checked against them by the evaluation);
    whether ``labels`` gave them; y_true's dtype kind."""
    probe = PredictionBatches(source, _Layout(layout.y_true, None, None, None, None, []), batch_rows, False)
    with contextlib.closing(iter(probe)) as rows:
        first = next(rows, None)
    if first is None:
        raise probe.empty_error()
    kind = first.y_true.dtype.kind
    if isinstance(labels, str):
        labels = [v.strip() for v in labels.split(",")]
    if labels is not None:
        typed = [parse_label(v, kind) if isinstance(v, str) else v for v in labels]
        if all(v is not None for v in typed):
            return typed, True, kind
    return np.unique(first.y_true).tolist(), False, kind


_DETECTED_BY = {"y_true": TRUE_NAMES, "y_pred": PRED_NAMES, "sample_weight": WEIGHT_NAMES, "y_score": SCORE_NAMES}


def check_duplicate_columns(path: Path, columns: list[str], given: dict[str, Any]) -> None:
    """:func:`clfeval.input_checks.duplicate_column_problem` of the file's columns (``given``:
    role -> the column or columns named, or None) as an :class:`InputFileError`."""
    problem = duplicate_column_problem(columns, given, _DETECTED_BY, _PER_CLASS)
    if problem is not None:
        raise InputFileError(f"{path}: {problem}")


def _missing(path: Path, option: str, name: str, columns: list[str]) -> str:
    close = difflib.get_close_matches(name, columns, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{path}: {option} {name!r}: no such column{hint} (columns: {_listing(columns)})"


def _listing(columns: list[str], limit: int = 30) -> str:
    shown = ", ".join(columns[:limit])
    return shown + (f", ... ({len(columns)} in all)" if len(columns) > limit else "")


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _nulls(column: Any) -> np.ndarray:
    import pyarrow.compute as pc

    return np.flatnonzero(pc.is_null(column, nan_is_null=True).to_numpy(zero_copy_only=False))


def _not_utf8(rows: _Rows, name: str, i: int, value: bytes) -> InputFileError:
    return InputFileError(f"{rows.path}: column {name!r}, {rows.row(i)}: {shown_bytes(value)} is not UTF-8 text")


def _not_a_number(rows: _Rows, name: str, i: int, value: Any) -> InputFileError:
    return InputFileError(f"{rows.path}: column {name!r}, {rows.row(i)}: {value!r} is not a number")


def _to_numpy(col: Any) -> np.ndarray:
    """A column without missing values as numpy. Integer and float columns are read straight from
    their buffers (pyarrow's to_numpy imports pandas, a third of a second); others via to_numpy.

    >>> import pyarrow as pa
    >>> _to_numpy(pa.chunked_array([[1, 2], [3]])).tolist(), _to_numpy(pa.chunked_array([["a"]])).tolist()
    ([1, 2, 3], ['a'])
    """
    import pyarrow as pa

    if col.null_count == 0 and (pa.types.is_integer(col.type) or pa.types.is_floating(col.type)) \
            and not pa.types.is_float16(col.type):
        dtype = np.dtype(col.type.to_pandas_dtype())
        parts = [np.frombuffer(c.buffers()[1], dtype=dtype)[c.offset:c.offset + len(c)] for c in col.chunks]
        if len(parts) == 1:
            return parts[0]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)
    return col.to_numpy()


def _labels(table: Any, name: str, rows: _Rows) -> np.ndarray:
    """A label column as numpy: integers, strings or booleans; no missing values (an empty or
    blank text is a missing value too, not a class named ''); text that is not UTF-8 is an error."""
    import pyarrow as pa
    import pyarrow.compute as pc

    path = rows.path
    col = table.column(name)
    if col.null_count:
        raise InputFileError(f"{path}: column {name!r} has a missing value at {rows.where(_nulls(col))}")
    if pa.types.is_dictionary(col.type):
        col = col.cast(col.type.value_type)
    if pa.types.is_binary(col.type) or pa.types.is_large_binary(col.type):  # a CSV's text that failed UTF-8
        bad = first_not_utf8(col.to_pylist())
        if bad is not None:
            raise _not_utf8(rows, name, *bad)
        col = col.cast(pa.string())
    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        blank_mask = pc.or_(pc.equal(col, ""), pc.utf8_is_space(col))  # "" or only spaces
        if pc.any(blank_mask).as_py():
            blank = np.flatnonzero(blank_mask.to_numpy(zero_copy_only=False))
            raise InputFileError(f"{path}: column {name!r} has a missing value (empty text) at {rows.where(blank)}")
    values = _to_numpy(col)
    if values.dtype == object:
        values = values.astype(str)
    elif values.dtype.kind == "f" and values.size and np.isnan(values.min()):  # min is NaN if any is
        raise InputFileError(f"{path}: column {name!r} has a missing value at {rows.where(_nulls(col))}")
    return values


def weight_column(col: Any, rows: _Rows, name: str) -> tuple[Any, np.ndarray | None]:
    """A weight column: integers (or text holding only integers) come back exact as int64 (uint64
    beyond it), with the column; anything else comes back as the column, to be read as float64.
    An empty text value is a missing weight."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        text = pc.utf8_trim_whitespace(col)
        empty = np.flatnonzero(pc.fill_null(pc.equal(text, ""), True).to_numpy(zero_copy_only=False))
        if empty.size:
            raise InputFileError(f"{rows.path}: column {name!r} has a NaN or missing weight at {rows.where(empty)}")
        for target in (pa.int64(), pa.uint64()):
            try:
                col = pc.cast(text, target)
                break
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                continue
        else:
            try:
                return pc.cast(text, pa.float64()), None
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                return col, None  # not numbers: the caller names the row
    if (pa.types.is_integer(col.type) or pa.types.is_boolean(col.type)) and not col.null_count:
        values = col.to_numpy() if pa.types.is_boolean(col.type) else _to_numpy(col)
        return col, values.astype(np.int64) if values.dtype.kind == "b" else values
    return col, None


def _numbers(table: Any, name: str, rows: _Rows, what: str) -> np.ndarray:
    """A numeric column as float64; unparseable and missing values are errors that name the row."""
    import pyarrow as pa
    import pyarrow.compute as pc

    path = rows.path
    col = table.column(name)
    if what == "weight":
        col, exact = weight_column(col, rows, name)
        if exact is not None:
            return exact
    if not (pa.types.is_integer(col.type) or pa.types.is_floating(col.type) or pa.types.is_boolean(col.type)
            or pa.types.is_null(col.type)):
        values = col.to_pylist()
        bad = first_not_utf8(values)
        if bad is not None:
            raise _not_utf8(rows, name, *bad)
        for i, v in enumerate(values):
            if v is not None:
                try:
                    float(v)
                except (TypeError, ValueError):
                    raise _not_a_number(rows, name, i, v) from None
        col = pc.cast(col, pa.float64())
    if col.null_count or pa.types.is_null(col.type):
        raise InputFileError(f"{path}: column {name!r} has a NaN or missing {what} at {rows.where(_nulls(col))}")
    values = _to_numpy(col).astype(np.float64, copy=False)
    if values.size and np.isnan(values.min()):  # one pass, no temporary: min is NaN if any is
        raise InputFileError(f"{path}: column {name!r} has a NaN or missing {what} at {rows.where(_nulls(col))}")
    if what == "weight" and not np.isfinite(values).all():
        raise InputFileError(f"{path}: column {name!r} has an infinite weight at "
                             f"{rows.where(np.flatnonzero(~np.isfinite(values)))}")
    return values
