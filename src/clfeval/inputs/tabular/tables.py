"""One file's named columns read whole, multi-threaded, into a pyarrow Table (the in-memory reader).

Parquet pages are checked against their checksums; a CSV file is opened by pyarrow itself
(:func:`clfeval.inputs.checks.open_native`), compressed or not. A bar shows the progress when asked.

>>> import tempfile
>>> path = Path(tempfile.mkdtemp()) / "p.csv"
>>> _ = path.write_text("id,label,score\\n7,1,0.9\\n8,0,0.2\\n")
>>> read_table(path, "csv", ["label", "score"], False, DataRows(path)).column_names
['label', 'score']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clfeval.inputs.checks import compression_of, open_decompressed, open_native, read_failure_text
from clfeval.inputs.tabular.files import csv_parse_options
from clfeval.inputs.tabular.messages import DataRows, InputFileError, csv_row_error
from clfeval.inputs.tabular.progress_bar import ProgressBar

__all__ = ["read_table"]


def read_table(path: Path, fmt: str, columns: list[str], show_progress: bool, rows: DataRows) -> Any:
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


def _read_parquet(path: Path, columns: list[str], show_progress: bool) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    # one file: ParquetFile reads it without pyarrow.dataset (whose import pulls in pandas)
    pf = pq.ParquetFile(path, page_checksum_verification=True)  # a damaged page is an error, not other numbers
    if not show_progress:
        return pf.read(columns=columns)
    groups = pf.metadata.num_row_groups
    with ProgressBar(path, pf.metadata.num_rows, "rows") as advance:
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
    parse = csv_parse_options(path)
    if not show_progress and compression_of(path) is None:  # pyarrow opens the file itself: fastest
        return pcsv.read_csv(path, parse_options=parse, convert_options=convert)
    if not show_progress:
        with open_native(path) as raw:
            return pcsv.read_csv(open_decompressed(raw, path), parse_options=parse, convert_options=convert)
    size = path.stat().st_size
    batches = []
    with open_native(path) as raw, ProgressBar(path, size, "bytes") as advance:
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
