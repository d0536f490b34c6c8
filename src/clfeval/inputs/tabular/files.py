"""The data files a path names and what they are: the format (by suffix, or by the first bytes),
the files of a directory, a file's schema and row count, and how a CSV file is parsed.

>>> import tempfile, os
>>> path = Path(tempfile.mkdtemp()) / "p.csv"
>>> _ = path.write_text("label,score\\n1,0.9\\n")
>>> format_of(path), column_names(path, "csv")
('csv', ['label', 'score'])
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clfeval.inputs.checks import (
    compression_of,
    csv_delimiter,
    data_suffix,
    open_decompressed,
    open_native,
    read_head,
    shown_bytes,
)
from clfeval.inputs.tabular.messages import DataRows, InputFileError, csv_row_error, one_line

__all__ = ["FORMATS", "FOLDER_FORMATS", "format_of", "folder_files", "column_names", "file_metadata",
           "csv_parse_options"]

#: file suffix -> format name
FORMATS = {".csv": "csv", ".tsv": "csv", ".txt": "csv", ".parquet": "parquet", ".pq": "parquet",
           ".feather": "feather", ".arrow": "feather", ".ipc": "feather"}

#: the suffixes read from a directory (.txt is left out: a folder's notes are not data)
FOLDER_FORMATS = {k: v for k, v in FORMATS.items() if k != ".txt"}


def folder_files(folder: Path) -> list[Path]:
    """The data files in a directory and its subfolders, sorted; hidden ones (".", "_") passed over.
    Compressed ones count by the suffix before the compression's (``p.csv.gz`` is a CSV file).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name in ("b.csv.gz", "a.parquet", "notes.txt", "_hidden.csv"):
    ...     _ = (folder / name).write_bytes(b"x")
    >>> [p.name for p in folder_files(folder)]
    ['a.parquet', 'b.csv.gz']
    """
    return sorted(p for p in folder.rglob("*")
                  if data_suffix(p) in FOLDER_FORMATS and p.is_file()
                  and not any(part.startswith((".", "_")) for part in p.relative_to(folder).parts))


def format_of(path: Path) -> str:
    """The format of a data file ("csv", "parquet" or "feather"): by its suffix, else by its first
    bytes (a CSV when they say neither); an :class:`InputFileError` for a missing, empty or
    compressed columnar file, or a directory."""
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


def column_names(path: Path, fmt: str) -> list[str]:
    """The file's column names, as its schema says (a CSV's: its header)."""
    return list(file_metadata(path, fmt)[0].names)


def file_metadata(path: Path, fmt: str) -> tuple[Any, int | None]:
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
                parse_options=csv_parse_options(path)) as reader:
            _ = reader.schema.names  # decoded here: a header that is not UTF-8 is said as such
            return reader.schema, None
    except UnicodeDecodeError:  # column names that are not UTF-8 (a CSV's header)
        header = read_head(path, 1 << 12).split(b"\n", 1)[0]
        raise InputFileError(f"{path}: the header (column names) is not UTF-8 text: {shown_bytes(header)}") from None
    except (pa.ArrowInvalid, OSError) as exc:
        bad = csv_row_error(path, exc, None, DataRows(path)) if fmt == "csv" else None
        raise (bad or InputFileError(f"{path}: cannot be read as {fmt}: {one_line(exc)}")) from None


def csv_parse_options(path: Path) -> Any:
    """pyarrow's parse options of a CSV file (its delimiter: a tab for ``.tsv``)."""
    import pyarrow.csv as pcsv

    return pcsv.ParseOptions(delimiter=csv_delimiter(path))
