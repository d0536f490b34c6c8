"""The entry points of :mod:`clfeval.inputs.tabular`: a file's or a directory's predictions read at once
(:func:`read_predictions`) or in batches (:func:`iter_prediction_batches`), with the columns found
(named or detected) and checked before any row is read.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
>>> _ = open(path, "w").write("y_true,proba_a,proba_b\\na,0.9,0.1\\nb,0.3,0.7\\n")
>>> p = read_predictions(path)
>>> p.score_columns, p.score_labels, p.y_score.tolist()
(['proba_a', 'proba_b'], ['a', 'b'], [[0.9, 0.1], [0.3, 0.7]])
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from clfeval.inputs.column_roles import parse_label
from clfeval.inputs.tabular.batches import DEFAULT_BATCH_ROWS, PredictionBatches, Predictions
from clfeval.inputs.tabular.detection import ColumnLayout
from clfeval.inputs.tabular.source import DataSource

__all__ = ["read_predictions", "iter_prediction_batches"]


def read_predictions(
    path: str | os.PathLike[str],
    *,
    y_true: str | None = None,
    y_pred: str | None = None,
    y_score: Sequence[str] | str | None = None,
    sample_weight: str | None = None,
    progress: bool | None = None,
    labels: Sequence[Any] | str | None = None,
    groups: Sequence[str] | None = None,
) -> Predictions:
    """Read the label, prediction, score and weight columns of a CSV, Parquet or Feather file
    (or of every such file in a directory) into memory.

    ``y_score`` is one column (binary scores of the positive class) or several (one per class, in
    label order); a comma-separated string is split. Columns not named are detected when the
    layout is obvious. ``progress`` None shows a bar for large files when stderr is a terminal.
    ``groups``: group columns, read into :attr:`Predictions.groups` with their missing values (and
    never detected as another column).
    """
    return iter_prediction_batches(path, y_true=y_true, y_pred=y_pred, y_score=y_score,
                                   sample_weight=sample_weight, progress=progress, labels=labels,
                                   groups=groups).read_all()


def iter_prediction_batches(path: str | os.PathLike[str], *, y_true: str | None = None, y_pred: str | None = None,
                            y_score: Sequence[str] | str | None = None, sample_weight: str | None = None,
                            batch_rows: int = DEFAULT_BATCH_ROWS, progress: bool | None = None,
                            labels: Sequence[Any] | str | None = None,
                            groups: Sequence[str] | None = None) -> PredictionBatches:
    """The predictions of a CSV, Parquet or Feather file, or of a directory of such files, as
    :class:`Predictions` batches of at most ``batch_rows`` rows, read in bounded memory.

    The columns are found (named or detected) and checked at once, as :func:`read_predictions`
    does; iterating reads the batches (again on each iteration). A directory is every file in it
    (and its subfolders; names starting with "." or "_" are passed over) of one format, in sorted
    order, read as one table: each file must hold the columns read. ``progress`` None shows one
    bar over all files (rows, or bytes for CSV) when they are large and stderr is a terminal.
    ``labels`` (a list, or a comma-separated string as ``--labels`` gives it): the classes that
    suffixed score columns must name (:mod:`clfeval.inputs.column_roles`; by default those of y_true).
    ``groups``: group columns (see :func:`read_predictions`).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("label,score\\n1,0.9\\n0,0.2\\n1,0.4\\n")
    >>> batches = iter_prediction_batches(path, batch_rows=2)
    >>> [(b.first_row, b.y_true.tolist()) for b in batches]
    [(0, [1, 0]), (2, [1])]
    """
    if isinstance(batch_rows, bool) or not isinstance(batch_rows, (int, np.integer)) or batch_rows < 1:
        raise ValueError(f"batch_rows must be a positive integer, got {batch_rows!r}.")
    source = DataSource.open(Path(path))
    if isinstance(y_score, str):
        y_score = [c.strip() for c in y_score.split(",") if c.strip()]
    layout = ColumnLayout.resolve(source.files[0], source.columns, y_true, y_pred, list(y_score) if y_score else None,
                                  sample_weight, groups=groups)
    if layout.classes_needed():  # suffixed score columns: read as one per class only if they name the classes
        layout.settle(*_classes_of(source, layout, labels, int(batch_rows)))
    source.check(layout)
    return PredictionBatches(source, layout, int(batch_rows), progress)



def _classes_of(source: DataSource, layout: ColumnLayout, labels: Sequence[Any] | str | None, batch_rows: int
                ) -> tuple[list[Any], bool, str]:
    """The classes that per-class score columns must name: ``labels`` (typed like y_true), or those
    of y_true in the first batch (later batches are checked against them by the evaluation);
    whether ``labels`` gave them; y_true's dtype kind."""
    probe = PredictionBatches(source, ColumnLayout(layout.y_true, None, None, None, None, []), batch_rows, False)
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
