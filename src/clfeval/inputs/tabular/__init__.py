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
a Parquet page that fails its checksum: see :mod:`clfeval.inputs.checks`). A CSV file may be
compressed (``.csv.gz``, ``.bz2``, ``.zst``), in a directory too.

The modules: :mod:`~clfeval.inputs.tabular.reading` (the entry points), :mod:`~clfeval.inputs.tabular.batches`
(:class:`PredictionBatches`, :class:`Predictions`), :mod:`~clfeval.inputs.tabular.source` (the file or the
files of a directory), :mod:`~clfeval.inputs.tabular.files` (formats, directories, schemas),
:mod:`~clfeval.inputs.tabular.detection` (which column holds what), :mod:`~clfeval.inputs.tabular.tables` (a file
read whole), :mod:`~clfeval.inputs.tabular.arrays` (columns as checked arrays),
:mod:`~clfeval.inputs.tabular.messages` (the error and the data rows it names),
:mod:`~clfeval.inputs.tabular.progress_bar` and :mod:`~clfeval.inputs.tabular.models` (several models' columns).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
>>> _ = open(path, "w").write("label,score\\n1,0.9\\n0,0.2\\n1,0.4\\n")
>>> p = read_predictions(path)
>>> p.y_true.tolist(), p.y_score.tolist(), p.detected
([1, 0, 1], [0.9, 0.2, 0.4], ['y_true = label', 'y_score = score'])
"""

from __future__ import annotations

from clfeval.inputs.tabular.arrays import weight_column
from clfeval.inputs.tabular.batches import DEFAULT_BATCH_ROWS, PredictionBatches, Predictions
from clfeval.inputs.tabular.detection import (
    PRED_NAMES,
    SCORE_NAMES,
    TRUE_NAMES,
    WEIGHT_NAMES,
    ColumnLayout,
    check_duplicate_columns,
    detect_column,
)
from clfeval.inputs.tabular.files import FOLDER_FORMATS, FORMATS, column_names, folder_files, format_of
from clfeval.inputs.tabular.messages import InputFileError, csv_row_error, one_line
from clfeval.inputs.tabular.models import ModelColumns, detect_true_column, read_group_columns, read_models
from clfeval.inputs.tabular.progress_bar import PROGRESS_MIN_BYTES
from clfeval.inputs.tabular.reading import iter_prediction_batches, read_predictions

__all__ = ["InputFileError", "Predictions", "PredictionBatches", "read_predictions", "iter_prediction_batches",
           "ModelColumns", "read_models", "read_group_columns", "detect_true_column", "detect_column", "FORMATS", "DEFAULT_BATCH_ROWS",
           # the rules and helpers that the dask reader (clfeval.dask) shares
           "ColumnLayout", "check_duplicate_columns", "column_names", "folder_files", "format_of", "one_line",
           # the names this module has always held
           "FOLDER_FORMATS", "PROGRESS_MIN_BYTES", "TRUE_NAMES", "PRED_NAMES", "SCORE_NAMES", "WEIGHT_NAMES",
           "csv_row_error", "weight_column"]
