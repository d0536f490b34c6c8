"""Predictions read in batches: :class:`PredictionBatches` reads the columns that a
:class:`~clfeval.inputs.tabular.detection.ColumnLayout` names from a :class:`~clfeval.inputs.tabular.source.DataSource`,
file after file, as :class:`Predictions` of at most ``batch_rows`` rows in bounded memory (Parquet
read batch by batch without pre-buffering, Feather record batches memory-mapped, CSV blocks parsed
as they stream), or every row at once (:meth:`PredictionBatches.read_all`). Each table is converted
with the checks of every reader, its messages naming the data row.

>>> import tempfile
>>> from clfeval.inputs.tabular.detection import ColumnLayout
>>> from clfeval.inputs.tabular.source import DataSource
>>> path = Path(tempfile.mkdtemp()) / "p.csv"
>>> _ = path.write_text("label,score\\n1,0.9\\n0,0.2\\n1,0.4\\n")
>>> source = DataSource.open(path)
>>> layout = ColumnLayout.resolve(path, source.columns, None, None, None, None)
>>> [b.y_score.tolist() for b in PredictionBatches(source, layout, 2, False)]
[[0.9, 0.2], [0.4]]
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from clfeval.inputs.checks import (
    csv_bytes_per_row,
    csv_conversion_column,
    first_unconvertible,
    open_decompressed,
    open_native,
    read_failure_text,
)
from clfeval.inputs.tabular.arrays import group_array, label_array, number_array
from clfeval.inputs.tabular.detection import ColumnLayout
from clfeval.inputs.tabular.files import csv_parse_options
from clfeval.inputs.tabular.messages import DataRows, InputFileError, csv_row_error, not_a_number_error, value_kind
from clfeval.inputs.tabular.progress_bar import ProgressBar, want_progress
from clfeval.inputs.tabular.source import DataSource
from clfeval.inputs.tabular.tables import read_table

__all__ = ["DEFAULT_BATCH_ROWS", "Predictions", "PredictionBatches"]

#: rows per batch of :func:`~clfeval.inputs.tabular.iter_prediction_batches`
DEFAULT_BATCH_ROWS = 1_000_000


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
    #: the group columns read (``groups=``): column name -> its values, missing values kept (None or NaN)
    groups: dict[str, np.ndarray] | None = None


class PredictionBatches:
    """The batches of :func:`iter_prediction_batches`: iterate for :class:`Predictions` of at
    most ``batch_rows`` rows each (``first_row`` says where each starts; batches of a file in a
    directory have ``folder_row`` too); :meth:`read_all` reads everything at once.

    What is known before reading: ``path``, ``files``, ``format``, ``columns`` (of the first file),
    the columns read (``y_true_column``, ``y_pred_column``, ``score_columns``, ``weight_column``),
    ``detected``, ``score_labels``, ``columns_used`` (the JSON entry "columns"), ``unused_note``,
    ``n_rows`` (None for CSV), ``nbytes`` (of the files) and :attr:`estimated_memory`.
    """

    def __init__(self, source: DataSource, layout: ColumnLayout, batch_rows: int, progress: bool | None) -> None:
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
        #: the group columns read (``groups=``), in the order given
        self.group_columns: list[str] = list(layout.groups)
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
        show = want_progress(self.nbytes, self.progress)
        parts = []
        for file, place in self._places():
            table = read_table(file, self.format, self._wanted, show, place)
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

        groups = None
        if parts[0].groups is not None:  # values of one kind in every file: else compared as objects
            groups = {c: _joined_values([p.groups[c] for p in parts if p.groups is not None])
                      for c in parts[0].groups}
        return replace(parts[0], path=self.path, n_rows=sum(p.n_rows for p in parts), y_true=joined("y_true"),
                       y_pred=joined("y_pred"), y_score=joined("y_score"), sample_weight=joined("sample_weight"),
                       first_row=0, folder_row=None, groups=groups)

    def empty_error(self) -> InputFileError:
        """The error of a file (or directory) without data rows."""
        what = "no file in the directory has any" if self.is_directory else "the file has no"
        return InputFileError(f"{self.path}: {what} data rows")

    def _places(self) -> Iterator[tuple[Path, DataRows]]:
        """Each file and the counter of its rows (for messages); rows advance as they are read."""
        folder_row = 0
        for file in self.files:
            rows = DataRows(file, folder=self.path if self.is_directory else None, folder_first=folder_row)
            yield file, rows
            folder_row += rows.seen

    def _batches(self) -> Iterator[Predictions]:
        csv = self.format == "csv"
        total = self.nbytes if csv else (self.n_rows or 0)
        bar = ProgressBar(self.path, total, "bytes" if csv else "rows") \
            if want_progress(self.nbytes, self.progress) else contextlib.nullcontext(lambda n: None)
        with bar as advance:
            for file, rows in self._places():
                # closed at once when a batch is refused: the CSV reader's read-ahead thread stops
                # before the interpreter does (else it can abort the process at exit)
                with contextlib.closing(self._file_batches(file, advance, rows)) as tables:
                    for table in tables:
                        if table.num_rows:
                            yield self._convert(table, rows.batch())
                        rows.advance(table.num_rows)

    def _file_batches(self, file: Path, advance: Callable[[int], None], rows: DataRows) -> Iterator[Any]:
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

    def _csv_blocks(self, file: Path, advance: Callable[[int], None], rows: DataRows) -> Iterator[Any]:
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
                                   parse_options=csv_parse_options(file), convert_options=convert) as reader:
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

    def _convert(self, table: Any, rows: DataRows) -> Predictions:
        """A table of the needed columns as :class:`Predictions` (the checks of every reader)."""
        layout = self._layout
        out = Predictions(path=rows.path, n_rows=table.num_rows, columns=self.columns,
                          y_true=label_array(table, layout.y_true, rows), detected=layout.detected,
                          score_columns=layout.y_score or [], score_labels=layout.score_labels,
                          first_row=rows.first,
                          folder_row=None if rows.folder is None else rows.folder_first + rows.first)
        if layout.y_pred is not None:
            out.y_pred = label_array(table, layout.y_pred, rows)
        if layout.y_score:
            cols = [number_array(table, c, rows, "score") for c in layout.y_score]
            out.y_score = cols[0] if len(cols) == 1 else np.column_stack(cols)
            if out.y_score.size:
                lo, hi = float(out.y_score.min()), float(out.y_score.max())
                seen = self.score_range
                self.score_range = (lo, hi) if seen is None else (min(seen[0], lo), max(seen[1], hi))
        if layout.sample_weight is not None:
            out.sample_weight = number_array(table, layout.sample_weight, rows, "weight")
        if layout.groups:
            out.groups = {c: group_array(table, c, rows) for c in layout.groups}
        return out


def _joined_values(parts: list[np.ndarray]) -> np.ndarray:
    """One column's values of several files: as they are when of one kind, else as objects (numpy
    would turn the numbers of one file into text to join them with another file's text)."""
    kinds = {p.dtype.kind for p in parts}
    if len(kinds) == 1 and "O" not in kinds:
        return np.concatenate(parts)
    return np.concatenate([p.astype(object) for p in parts])


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
                          rows: DataRows) -> InputFileError | None:
    """A streamed CSV value that does not parse as its column's type: find its row (reading that
    column again as text) and say it as the in-memory reader would; None if it is not found."""
    import pyarrow as pa

    name = csv_conversion_column(file, exc, csv_parse_options(file))
    if name is None or (name not in numeric and schema is None):  # the first block: its types are its own
        return None
    target = pa.float64() if name in numeric else schema.field(name).type
    found = first_unconvertible(file, name, target, read, csv_parse_options(file))
    if found is None:
        return None
    i, value = found
    where = DataRows(file, folder=rows.folder, folder_first=rows.folder_first)
    if name in numeric:
        return not_a_number_error(where, name, i, value)
    return InputFileError(
        f"{file}: column {name!r}, {where.row(i)}: {value!r} is not one of the {value_kind(target)} "
        "that the first rows hold (a streamed CSV column takes its type from its first rows): "
        "give the column values of one kind, or read the file in memory")
