"""Several models' outputs in one file, side by side (``clfeval compare --model NAME=COL``): the true
labels, each model's predictions or scores (:class:`ModelColumns`), and the weights.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "m.csv")
>>> _ = open(path, "w").write("label,a,b\\n1,1,0.8\\n0,0,0.3\\n")
>>> truth, (a, b), _ = read_models(path, y_true=detect_true_column(path, [("A", ["a"]), ("B", ["b"])]),
...                               models=[("A", ["a"]), ("B", ["b"])])
>>> truth.tolist(), a.y_pred.tolist(), b.y_score.tolist()
([1, 0], [1, 0], [0.8, 0.3])
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from clfeval.inputs.checks import duplicate_message, duplicated_columns
from clfeval.inputs.column_roles import ColumnChoiceError
from clfeval.inputs.tabular.arrays import group_array, label_array, number_array
from clfeval.inputs.tabular.detection import TRUE_NAMES, detect_column, no_true_column_error
from clfeval.inputs.tabular.files import column_names, format_of
from clfeval.inputs.tabular.messages import DataRows, InputFileError, missing_column_message
from clfeval.inputs.tabular.progress_bar import want_progress
from clfeval.inputs.tabular.tables import read_table

__all__ = ["ModelColumns", "detect_true_column", "read_models", "read_group_columns"]


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
    columns = column_names(path, format_of(path))
    taken = {c for _, cols in models for c in cols}
    found = detect_column(path, [c for c in columns if c not in taken], "y_true", TRUE_NAMES, [])
    if found is None:
        raise no_true_column_error(path, columns)
    return found


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
    fmt = format_of(path)
    columns = column_names(path, fmt)
    wanted = [("--y-true", y_true)] + [(f"--model {n}", c) for n, cols in models for c in cols]
    if sample_weight is not None:
        wanted.append(("--sample-weight", sample_weight))
    for option, name in wanted:
        if name not in columns:
            raise InputFileError(missing_column_message(path, option, name, columns))
    twice = duplicated_columns(columns)
    for option, name in wanted:
        if name in twice:
            raise InputFileError(f"{path}: {duplicate_message(name, twice[name], f'{option} reads it')}")
    table = read_table(path, fmt, list(dict.fromkeys(c for _, c in wanted)),
                       want_progress(path.stat().st_size, progress), DataRows(path))
    if table.num_rows == 0:
        raise InputFileError(f"{path}: the file has no data rows")
    rows = DataRows(path)
    truth = label_array(table, y_true, rows)
    known = set(truth.tolist())
    out = []
    for name, cols in models:
        m = ModelColumns(name=name, columns=list(cols))
        if len(cols) == 1:
            values = label_array(table, cols[0], rows)
            if values.dtype.kind not in "fiub" and truth.dtype.kind in "fiub":
                m.y_score = number_array(table, cols[0], rows, "score")  # text among numbers: names its row
            elif set(np.unique(values).tolist()) <= known or values.dtype.kind not in "fiub":
                m.y_pred = values
            else:
                m.y_score = number_array(table, cols[0], rows, "score")
        else:
            m.y_score = np.column_stack([number_array(table, c, rows, "score") for c in cols])
        out.append(m)
    weights = None if sample_weight is None else number_array(table, sample_weight, rows, "weight")
    return truth, out, weights


def read_group_columns(path: str | os.PathLike[str], names: Sequence[str], progress: bool | None = None
                       ) -> dict[str, np.ndarray]:
    """The group columns ``names`` of a file (``clfeval compare --by``): name -> values, missing
    values kept (None or NaN; see :func:`~clfeval.inputs.tabular.arrays.group_array`). A column
    the file does not hold is a :class:`~clfeval.inputs.column_roles.ColumnChoiceError`.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "m.csv")
    >>> _ = open(path, "w").write("y,a,site\\n1,1,x\\n0,1,\\n")
    >>> read_group_columns(path, ["site"])["site"].tolist()
    ['x', None]
    """
    path = Path(path)
    fmt = format_of(path)
    columns = column_names(path, fmt)
    for name in names:
        if name not in columns:
            raise ColumnChoiceError(missing_column_message(path, "--by", name, columns))
    twice = duplicated_columns(columns)
    for name in names:
        if name in twice:
            raise InputFileError(f"{path}: {duplicate_message(name, twice[name], '--by reads it')}")
    wanted = list(dict.fromkeys(names))
    table = read_table(path, fmt, wanted, want_progress(path.stat().st_size, progress), DataRows(path))
    return {name: group_array(table, name, DataRows(path)) for name in wanted}
