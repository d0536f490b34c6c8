"""Predictions read from a CSV, Parquet or Feather file: which columns hold what, as numpy arrays.

Only the columns that are needed are read (pyarrow, multi-threaded). When the caller does not name
the columns, the obvious layouts are detected (``y_true``/``label``/``target``..., ``y_pred``/
``prediction``..., ``y_score``/``score``/``proba``... or one score column per class such as
``proba_setosa, proba_versicolor, ...``) and :attr:`Predictions.detected` says what was found.
Every problem with the file raises :class:`InputFileError` with one line that says what and where.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
>>> _ = open(path, "w").write("label,score\\n1,0.9\\n0,0.2\\n1,0.4\\n")
>>> p = read_predictions(path)
>>> p.y_true.tolist(), p.y_score.tolist(), p.detected
([1, 0, 1], [0.9, 0.2, 0.4], ['y_true = label', 'y_score = score'])
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["InputFileError", "Predictions", "read_predictions", "ModelColumns", "read_models", "FORMATS"]

#: file suffix -> format name
FORMATS = {".csv": "csv", ".tsv": "csv", ".txt": "csv", ".parquet": "parquet", ".pq": "parquet",
           ".feather": "feather", ".arrow": "feather", ".ipc": "feather"}

TRUE_NAMES = ("y_true", "true", "target", "label", "labels", "actual", "truth", "y", "class", "gold")
PRED_NAMES = ("y_pred", "pred", "prediction", "predictions", "predicted", "y_hat", "yhat")
SCORE_NAMES = ("y_score", "score", "scores", "y_proba", "proba", "probability", "prob", "y_prob",
               "decision", "decision_function")
WEIGHT_NAMES = ("sample_weight", "weight", "weights")
_PER_CLASS = re.compile(r"^(y_score|score|y_proba|proba|probability|prob|y_prob|p)[_:.\-](.+)$", re.I)

#: files at least this large get a progress bar (when stderr is a terminal)
PROGRESS_MIN_BYTES = 64 * 2**20


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


def read_predictions(
    path: str | os.PathLike[str],
    *,
    y_true: str | None = None,
    y_pred: str | None = None,
    y_score: Sequence[str] | str | None = None,
    sample_weight: str | None = None,
    progress: bool | None = None,
) -> Predictions:
    """Read the label, prediction, score and weight columns of a CSV, Parquet or Feather file.

    ``y_score`` is one column (binary scores of the positive class) or several (one per class, in
    label order); a comma-separated string is split. Columns not named are detected when the
    layout is obvious. ``progress`` None shows a bar for large files when stderr is a terminal.
    """
    path = Path(path)
    fmt = _format_of(path)
    columns = _column_names(path, fmt)
    if isinstance(y_score, str):
        y_score = [c.strip() for c in y_score.split(",") if c.strip()]
    layout = _Layout.resolve(path, columns, y_true, y_pred, list(y_score) if y_score else None, sample_weight)
    wanted = list(dict.fromkeys(c for c in layout.all_columns() if c is not None))
    show = _want_progress(path, progress)
    table = _read(path, fmt, wanted, show)
    if table.num_rows == 0:
        raise InputFileError(f"{path}: the file has no data rows")
    out = Predictions(path=path, n_rows=table.num_rows, columns=columns,
                      y_true=_labels(table, layout.y_true, path), detected=layout.detected,
                      score_columns=layout.y_score or [], score_labels=layout.score_labels)
    if layout.y_pred is not None:
        out.y_pred = _labels(table, layout.y_pred, path)
    if layout.y_score:
        cols = [_numbers(table, c, path, "score") for c in layout.y_score]
        out.y_score = cols[0] if len(cols) == 1 else np.column_stack(cols)
    if layout.sample_weight is not None:
        out.sample_weight = _numbers(table, layout.sample_weight, path, "weight")
    return out


@dataclass
class ModelColumns:
    """One model's outputs in a file: predicted labels or scores (one column, or one per class)."""

    name: str
    columns: list[str]
    y_pred: np.ndarray | None = None
    y_score: np.ndarray | None = None


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
    table = _read(path, fmt, list(dict.fromkeys(c for _, c in wanted)), _want_progress(path, progress))
    if table.num_rows == 0:
        raise InputFileError(f"{path}: the file has no data rows")
    truth = _labels(table, y_true, path)
    known = set(truth.tolist())
    out = []
    for name, cols in models:
        m = ModelColumns(name=name, columns=list(cols))
        if len(cols) == 1:
            values = _labels(table, cols[0], path)
            if set(np.unique(values).tolist()) <= known or values.dtype.kind not in "fiub":
                m.y_pred = values
            else:
                m.y_score = _numbers(table, cols[0], path, "score")
        else:
            m.y_score = np.column_stack([_numbers(table, c, path, "score") for c in cols])
        out.append(m)
    weights = None if sample_weight is None else _numbers(table, sample_weight, path, "weight")
    return truth, out, weights


def _format_of(path: Path) -> str:
    if not path.exists():
        raise InputFileError(f"{path}: no such file")
    if path.is_dir():
        raise InputFileError(f"{path}: is a directory, not a file")
    if path.stat().st_size == 0:
        raise InputFileError(f"{path}: the file is empty")
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        with open(path, "rb") as f:
            head = f.read(8)
        fmt = "parquet" if head[:4] == b"PAR1" else "feather" if head[:6] == b"ARROW1" else "csv"
    return fmt


def _column_names(path: Path, fmt: str) -> list[str]:
    import pyarrow as pa

    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            return list(pq.read_schema(path).names)
        if fmt == "feather":
            import pyarrow.ipc as ipc

            with pa.memory_map(str(path)) as source:
                return list(ipc.open_file(source).schema.names)
        import pyarrow.csv as pcsv

        with pcsv.open_csv(path, parse_options=_csv_parse_options(path)) as reader:
            return list(reader.schema.names)
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputFileError(f"{path}: cannot be read as {fmt}: {_one_line(exc)}") from None


def _csv_parse_options(path: Path) -> Any:
    import pyarrow.csv as pcsv

    return pcsv.ParseOptions(delimiter="\t" if path.suffix.lower() == ".tsv" else ",")


def _want_progress(path: Path, progress: bool | None) -> bool:
    if progress is not None:
        return progress
    import sys

    return path.stat().st_size >= PROGRESS_MIN_BYTES and sys.stderr.isatty()


def _read(path: Path, fmt: str, columns: list[str], show_progress: bool) -> Any:
    """The named columns as one pyarrow Table (row order kept)."""
    import pyarrow as pa

    try:
        if fmt == "parquet":
            return _read_parquet(path, columns, show_progress)
        if fmt == "feather":
            import pyarrow.feather as feather

            return feather.read_table(path, columns=columns, memory_map=True)
        return _read_csv(path, columns, show_progress)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OSError) as exc:
        raise InputFileError(f"{path}: {_one_line(exc)}") from None


def _read_parquet(path: Path, columns: list[str], show_progress: bool) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not show_progress:
        return pq.read_table(path, columns=columns)
    pf = pq.ParquetFile(path)
    groups = pf.metadata.num_row_groups
    with _progress_bar(path, pf.metadata.num_rows, "rows") as advance:
        parts = []
        for i in range(groups):
            part = pf.read_row_group(i, columns=columns)
            parts.append(part)
            advance(part.num_rows)
    return pa.concat_tables(parts) if parts else pq.read_table(path, columns=columns)


def _read_csv(path: Path, columns: list[str], show_progress: bool) -> Any:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    convert = pcsv.ConvertOptions(include_columns=columns)
    parse = _csv_parse_options(path)
    if not show_progress:
        return pcsv.read_csv(path, parse_options=parse, convert_options=convert)
    size = path.stat().st_size
    batches = []
    with open(path, "rb") as raw, _progress_bar(path, size, "bytes") as advance:
        reader = pcsv.open_csv(raw, parse_options=parse, convert_options=convert)
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


@dataclass
class _Layout:
    y_true: str
    y_pred: str | None
    y_score: list[str] | None
    sample_weight: str | None
    score_labels: list[str] | None
    detected: list[str]

    def all_columns(self) -> list[str | None]:
        return [self.y_true, self.y_pred, *(self.y_score or []), self.sample_weight]

    @classmethod
    def resolve(cls, path: Path, columns: list[str], y_true: str | None, y_pred: str | None,
                y_score: list[str] | None, sample_weight: str | None) -> _Layout:
        for option, name in (("--y-true", y_true), ("--y-pred", y_pred), ("--sample-weight", sample_weight),
                             *(("--y-score", c) for c in (y_score or []))):
            if name is not None and name not in columns:
                raise InputFileError(_missing(path, option, name, columns))
        detected: list[str] = []
        named = {y_true, y_pred, sample_weight, *(y_score or [])}
        free = [c for c in columns if c not in named]

        def pick(role: str, given: str | None, names: Sequence[str]) -> str | None:
            if given is not None:
                return given
            lower = {c.lower(): c for c in free}
            for n in names:
                if n in lower:
                    free.remove(lower[n])
                    detected.append(f"{role} = {lower[n]}")
                    return lower[n]
            return None

        true_col = pick("y_true", y_true, TRUE_NAMES)
        if true_col is None:
            raise InputFileError(
                f"{path}: no column of true labels found; name it with --y-true COLUMN "
                f"(columns: {_listing(columns)})")
        pred_col = pick("y_pred", y_pred, PRED_NAMES)
        weight_col = pick("sample_weight", sample_weight, WEIGHT_NAMES)
        score_labels = None
        score_cols = y_score
        if score_cols is None:
            single = pick("y_score", None, SCORE_NAMES)
            if single is not None:
                score_cols = [single]
            else:
                score_cols, score_labels = _per_class_scores(free)
                if score_cols:
                    detected.append(f"y_score = {', '.join(score_cols)} (one column per class)")
        if pred_col is None and not score_cols:
            raise InputFileError(
                f"{path}: no prediction or score column found; name them with --y-pred COLUMN "
                f"or --y-score COLUMN[,COLUMN...] (columns: {_listing(columns)})")
        return cls(true_col, pred_col, score_cols or None, weight_col, score_labels, detected)


def _per_class_scores(free: list[str]) -> tuple[list[str], list[str] | None]:
    """The largest group of columns named <prefix>_<class> with a common score prefix."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for c in free:
        m = _PER_CLASS.match(c)
        if m:
            groups.setdefault(m.group(1).lower(), []).append((c, m.group(2)))
    best = max(groups.values(), key=len, default=[])
    if len(best) < 2:
        return [], None
    return [c for c, _ in best], [label for _, label in best]


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


def _where(rows: np.ndarray) -> str:
    more = f" (and {rows.size - 1} more)" if rows.size > 1 else ""
    return f"data row {rows[0] + 1}{more}"


def _labels(table: Any, name: str, path: Path) -> np.ndarray:
    """A label column as numpy: integers, strings or booleans; no missing values."""
    import pyarrow as pa

    col = table.column(name)
    if col.null_count:
        raise InputFileError(f"{path}: column {name!r} has a missing value at {_where(_nulls(col))}")
    if pa.types.is_dictionary(col.type):
        col = col.cast(col.type.value_type)
    values = col.to_numpy()
    if values.dtype == object:
        values = values.astype(str)
    elif values.dtype.kind == "f" and values.size and np.isnan(values.min()):  # min is NaN if any is
        raise InputFileError(f"{path}: column {name!r} has a missing value at {_where(_nulls(col))}")
    return values


def _numbers(table: Any, name: str, path: Path, what: str) -> np.ndarray:
    """A numeric column as float64; unparseable and missing values are errors that name the row."""
    import pyarrow as pa
    import pyarrow.compute as pc

    col = table.column(name)
    if not (pa.types.is_integer(col.type) or pa.types.is_floating(col.type) or pa.types.is_boolean(col.type)
            or pa.types.is_null(col.type)):
        values = col.to_pylist()
        for i, v in enumerate(values):
            if v is not None:
                try:
                    float(v)
                except (TypeError, ValueError):
                    raise InputFileError(
                        f"{path}: column {name!r}, data row {i + 1}: {v!r} is not a number") from None
        col = pc.cast(col, pa.float64())
    if col.null_count or pa.types.is_null(col.type):
        raise InputFileError(f"{path}: column {name!r} has a NaN or missing {what} at {_where(_nulls(col))}")
    values = col.to_numpy().astype(np.float64, copy=False)
    if values.size and np.isnan(values.min()):  # one pass, no temporary: min is NaN if any is
        raise InputFileError(f"{path}: column {name!r} has a NaN or missing {what} at {_where(_nulls(col))}")
    if what == "weight" and not np.isfinite(values).all():
        raise InputFileError(f"{path}: column {name!r} has an infinite weight at "
                             f"{_where(np.flatnonzero(~np.isfinite(values)))}")
    return values
