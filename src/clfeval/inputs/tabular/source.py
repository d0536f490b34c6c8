"""What is read: one file, or the data files of a directory (one format, the same columns), with
what their metadata say (schemas, sizes, rows) before any row is read.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> for i in range(2):
...     _ = (folder / f"part{i}.csv").write_text("label,score\\n1,0.9\\n")
>>> source = DataSource.open(folder)
>>> source.fmt, [f.name for f in source.files], source.columns, source.folder
('csv', ['part0.csv', 'part1.csv'], ['label', 'score'], True)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clfeval.inputs.checks import compression_of, csv_bytes_per_row, data_suffix, duplicate_message, duplicated_columns
from clfeval.inputs.tabular.detection import ColumnLayout
from clfeval.inputs.tabular.files import FOLDER_FORMATS, file_metadata, folder_files, format_of
from clfeval.inputs.tabular.messages import InputFileError, listing, value_kind

__all__ = ["DataSource"]


@dataclass
class DataSource:
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
    def open(cls, path: Path) -> DataSource:
        """The file at ``path``, or the data files of the directory: an :class:`InputFileError` for
        a directory without any, of mixed formats, or holding a file and its compressed copy."""
        folder = path.is_dir()
        if folder:
            files = folder_files(path)
            if not files:
                raise InputFileError(f"{path}: no CSV, Parquet or Feather file in the directory")
            by_format: dict[str, list[Path]] = {}
            for f in files:
                by_format.setdefault(FOLDER_FORMATS[data_suffix(f)], []).append(f)
            if len(by_format) > 1:
                mix = "; ".join(f"{len(fs)} {fmt} ({listing([str(f.relative_to(path)) for f in fs], 3)})"
                                for fmt, fs in by_format.items())
                raise InputFileError(f"{path}: the directory mixes file formats ({mix}); "
                                     "keep files of one format in it")
            fmt = next(iter(by_format))
            both = [f for f in files if compression_of(f) is not None and f.with_suffix("") in set(files)]
            if both:
                raise InputFileError(f"{path}: holds {both[0].with_suffix('').name} and its compressed copy "
                                     f"{both[0].name}: its rows would be read twice; keep one of them in the directory")
            for f in files:
                format_of(f)  # empty files are errors
        else:
            fmt, files = format_of(path), [path]
        metas = [file_metadata(f, fmt) for f in files]
        rows = None if fmt == "csv" else [m[1] for m in metas]
        return cls(path, fmt, files, [m[0] for m in metas], [f.stat().st_size for f in files], rows, folder)

    def check(self, layout: ColumnLayout) -> None:
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
                        f"must hold the columns read (columns: {listing(list(schema.names))})")
            for role, name in layout.roles():
                if role not in ("y_true", "y_pred"):
                    continue
                a, b = value_kind(schema0.field(name).type), value_kind(schema.field(name).type)
                if a != b and "empty" not in (a, b):
                    raise InputFileError(f"{file}: column {name!r} ({role}) holds {b}, but in {first.name} it "
                                         f"holds {a}: the files in {self.path} must have the same schema")

    def estimated_rows(self) -> float:
        """Rows in all files: from the metadata, or (CSV) estimated from the bytes of the first rows."""
        if self.rows is not None:
            return float(sum(self.rows))
        return sum(size / csv_bytes_per_row(f, on_disk=True) for f, size in zip(self.files, self.sizes))
