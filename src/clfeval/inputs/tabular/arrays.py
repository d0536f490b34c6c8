"""Columns of a pyarrow Table as checked numpy arrays: labels (integers, text or booleans) and
numbers (scores, weights), every missing, blank, unparseable or non-UTF-8 value an
:class:`~clfeval.inputs.tabular.messages.InputFileError` that names its data row.

>>> import pyarrow as pa
>>> from pathlib import Path
>>> table = pa.table({"label": ["a", "b"], "score": [0.5, None]})
>>> label_array(table, "label", DataRows(Path("p.csv"))).tolist()
['a', 'b']
>>> number_array(table, "score", DataRows(Path("p.csv")), "score")
Traceback (most recent call last):
...
clfeval.inputs.tabular.messages.InputFileError: p.csv: column 'score' has a NaN or missing score at data row 2
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.inputs.checks import first_not_utf8
from clfeval.inputs.tabular.messages import DataRows, InputFileError, not_a_number_error, not_utf8_error

__all__ = ["label_array", "number_array", "weight_column", "group_array"]



def _decoded(col: Any, rows: Any, name: str) -> Any:
    """A column with dictionary encoding undone and bytes read as UTF-8 text (an error naming the
    row where a CSV's text is not UTF-8)."""
    import pyarrow as pa

    if pa.types.is_dictionary(col.type):
        col = col.cast(col.type.value_type)
    if pa.types.is_binary(col.type) or pa.types.is_large_binary(col.type):  # a CSV's text that failed UTF-8
        bad = first_not_utf8(col.to_pylist())
        if bad is not None:
            raise not_utf8_error(rows, name, *bad)
        col = col.cast(pa.string())
    return col

def _nulls(column: Any) -> np.ndarray:
    import pyarrow.compute as pc

    return np.flatnonzero(pc.is_null(column, nan_is_null=True).to_numpy(zero_copy_only=False))


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


def label_array(table: Any, name: str, rows: DataRows) -> np.ndarray:
    """A label column as numpy: integers, strings or booleans; no missing values (an empty or
    blank text is a missing value too, not a class named ''); text that is not UTF-8 is an error."""
    import pyarrow as pa
    import pyarrow.compute as pc

    path = rows.path
    col = table.column(name)
    if col.null_count:
        raise InputFileError(f"{path}: column {name!r} has a missing value at {rows.where(_nulls(col))}")
    col = _decoded(col, rows, name)
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


def weight_column(col: Any, rows: DataRows, name: str) -> tuple[Any, np.ndarray | None]:
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


def number_array(table: Any, name: str, rows: DataRows, what: str) -> np.ndarray:
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
            raise not_utf8_error(rows, name, *bad)
        for i, v in enumerate(values):
            if v is not None:
                try:
                    float(v)
                except (TypeError, ValueError):
                    raise not_a_number_error(rows, name, i, v) from None
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


def group_array(table: Any, name: str, rows: DataRows) -> np.ndarray:
    """A group column as numpy, its missing values kept (what to do with them is the evaluation's
    choice, :func:`clfeval.inputs.group_keys.group_keys`): null, NaN and empty or blank text are
    None (an object array) or NaN; text that is not UTF-8 is an error.

    >>> import pyarrow as pa
    >>> from pathlib import Path
    >>> group_array(pa.table({"site": ["a", " ", None, "b"]}), "site", DataRows(Path("p.csv"))).tolist()
    ['a', None, None, 'b']
    >>> group_array(pa.table({"age": [3, 1]}), "age", DataRows(Path("p.csv"))).tolist()
    [3, 1]
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    col = table.column(name)
    col = _decoded(col, rows, name)
    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        blank = pc.or_(pc.equal(col, ""), pc.utf8_is_space(col))  # "" or only spaces: missing, as for labels
        col = pc.if_else(pc.fill_null(blank, False), pa.scalar(None, col.type), col)
    if col.null_count:
        return np.array(col.to_pylist(), dtype=object)
    values = _to_numpy(col)
    return values.astype(str) if values.dtype == object and pa.types.is_string(col.type) else values
