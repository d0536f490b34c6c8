"""Dask: evaluate predictions that live in dask arrays, dask DataFrames or many files.

The same statistics as everywhere (see :mod:`clfeval.streaming`): each partition (chunk) builds a
:class:`~clfeval.streaming.StreamingEvaluation` from its rows, the streams are merged in a tree
(``split_every`` at a time), and only these statistics travel between workers - never the rows.
The result equals :func:`clfeval.evaluate` on all rows at once: counts exactly, weights up to the
order of float sums.

Classes are fixed before the statistics are built: without ``labels=`` one cheap pass reads the
distinct labels of ``y_true`` (and ``y_pred``) - and, for binary scores without a threshold,
their range (probabilities are cut at 0.5, decision values at 0, as ``evaluate`` decides on all
rows) - so that a partition missing a class is read like all the others.

Works on any dask scheduler: the default one, ``client=`` (a :class:`distributed.Client`), or
``scheduler=`` an address in :func:`evaluate_file`. Workers need clfeval installed. A worker
lost in the middle is harmless: its tasks are pure and are recomputed, so no row is lost or
counted twice.

>>> import numpy as np, dask, dask.array as da
>>> y = da.from_array(np.array([0, 1, 1, 0, 1, 0]), chunks=3)
>>> p = da.from_array(np.array([0.2, 0.9, 0.4, 0.6, 0.8, 0.1]), chunks=3)
>>> with dask.config.set(scheduler="synchronous"):
...     ev = evaluate(y, y_score=p)
>>> ev.n_samples, ev.confusion.counts.tolist(), round(ev.report.overall["roc_auc"], 4)
(6, [[2, 1], [1, 2]], 0.8889)

Needs the ``dask`` extra: ``pip install 'clfeval[dask]'``.
"""

from __future__ import annotations

import contextlib
import glob as _glob
import os
import inspect
import warnings
from collections.abc import Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

try:
    import dask
    from dask import delayed as _delayed
    from dask.base import is_dask_collection, tokenize
except ImportError as _exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "clfeval.dask needs dask (with dataframe and distributed): pip install 'clfeval[dask]'"
    ) from _exc

import numpy as np

from clfeval.evaluation import Evaluation
from clfeval.inputs.evaluate_arguments import resolve_labels
from clfeval.inputs.evaluate_options import DEFAULT_BITS, DEFAULT_MAX_DISTINCT, EvaluateOptions, StreamSettings
from clfeval.exceptions import ScoresBinnedWarning, ValuesError
from clfeval.inputs.labels import as_array, as_score_array, union_labels, unique_sorted
from clfeval.inputs.checks import compression_of, data_suffix, stem_of
from clfeval.inputs.score_kind import default_threshold, kind_of_range
from clfeval.streaming import StreamingEvaluation

__all__ = ["evaluate", "evaluate_file", "statistics"]

_ROLES = ("y_true", "y_pred", "y_score", "sample_weight", "groups")
#: seconds to wait for a dask scheduler to answer before giving up (``evaluate_file(scheduler=...)``; less
#: where dask's ``distributed.comm.timeouts.connect`` says less)
CONNECT_TIMEOUT = 5

#: scheduler names that run locally (dask.config "scheduler") rather than an address to connect to
LOCAL_SCHEDULERS = ("synchronous", "sync", "single-threaded", "threads", "threading", "processes")


# ---------------------------------------------------------------------------------------------
# public API
# ---------------------------------------------------------------------------------------------


def evaluate(
    y_true: Any = None,
    y_pred: Any = None,
    y_score: Any = None,
    sample_weight: Any = None,
    *,
    data: Any = None,
    labels: Any = None,
    pos_label: Any = None,
    threshold: float | None = None,
    beta: float | None = None,
    target_names: Any = None,
    name: str | None = None,
    mode: str = "auto",
    max_distinct: int = DEFAULT_MAX_DISTINCT,
    bits: int = DEFAULT_BITS,
    split_every: int = 8,
    client: Any = None,
    options: EvaluateOptions | None = None,
    settings: StreamSettings | None = None,
    groups: Any = None,
    group_missing: str = "error",
    prevalence: float | None = None,
) -> Evaluation:
    """:func:`clfeval.evaluate` on dask data: per-partition statistics, merged in a tree.

    Inputs are either dask collections - ``y_true``, ``y_pred`` and ``sample_weight`` 1-D dask
    arrays or Series, ``y_score`` a 1-D dask array / Series (binary scores of the positive
    class) or an (n, k) dask array / DataFrame (one column per class, in label order) - split
    into the same partitions (dask arrays with other chunks of the same length are rechunked),
    or ``data=`` a dask DataFrame with the four given as column names (``y_score`` one name or a
    list of names, one per class in label order).

    ``labels``, ``pos_label``, ``threshold``, ``beta``, ``target_names`` and ``name`` are those of
    :func:`clfeval.evaluate`; ``mode``, ``max_distinct`` and ``bits`` those of
    :class:`~clfeval.streaming.StreamingEvaluation` (exact or binned scores); ``options`` and
    ``settings`` give them as the objects a stream takes. ``split_every``:
    how many streams one task merges. ``client``: a :class:`distributed.Client` to compute on
    (default: dask's current scheduler). ``groups``: evaluate each group too, as
    ``clfeval.evaluate(..., groups=)`` (the result's ``by_group``): with ``data=`` the group column's
    name or a list of names, else a dask Series, array or DataFrame split like ``y_true``; each
    partition keeps one state per group (:mod:`clfeval.evaluation.group_streams`) and the tree
    merges them group by group. ``group_missing``: "error" or "keep", as in ``evaluate``.

    Parameters
    ----------
    y_true : dask array, dask Series or str, optional
        True classes; with ``data=``, the name of their column. Default None (needed either way).
    y_pred : dask array, dask Series or str, optional
        Predicted classes (or their column's name); default None: derived from the scores.
    y_score : dask array, dask Series, dask DataFrame, str or list of str, optional
        Scores: 1-D for the positive class, or one column per class in label order (with
        ``data=``, one column name or a list of them). Default None.
    sample_weight : dask array, dask Series or str, optional
        Weight of each row (or its column's name); default None (unweighted).
    data : dask DataFrame, optional
        A frame holding the inputs, which are then given as column names; default None.
    labels : array-like, optional
        The classes and their order. Default None: found by a first pass over the data.
    pos_label : object, optional
        The positive class of a binary task; default None (as :func:`clfeval.evaluate`).
    threshold : float, optional
        Cut of binary scores when predictions are derived from them. Default None: 0.5 for
        probabilities, 0 for decision values, decided on all rows.
    beta : float, optional
        Adds an F-beta column to the report; default None.
    target_names : list of str, optional
        Display names of the classes, in the order of ``labels``; default None.
    name : str, optional
        Name of the classifier; default None.
    mode : {"auto", "exact", "binned"}, default "auto"
        When the scores are binned (see :class:`~clfeval.streaming.StreamingEvaluation`).
    max_distinct : int, default 16777216 (2**24)
        Distinct scores kept exactly per ranking before ``mode="auto"`` bins them.
    bits : int, default 16
        Mantissa bits of the bin grid, 1 to 52.
    split_every : int, default 8
        How many partial statistics one merge task combines (at least 2).
    client : distributed.Client, optional
        The cluster to compute on; default None (dask's current scheduler).
    options : EvaluateOptions, optional
        ``labels`` ... ``name`` as one object instead of the keywords; default None.
    settings : StreamSettings, optional
        ``mode``, ``max_distinct`` and ``bits`` as one object; default None.
    groups : str, list of str, dask Series, array or DataFrame, optional
        Group membership of each row, for per-group evaluations; default None.
    group_missing : {"error", "keep"}, default "error"
        Whether a missing group value is an error or a group of its own.
    prevalence : float, optional
        A binary task's measures also at this prevalence, as in :func:`clfeval.evaluate`; default None.

    Returns
    -------
    Evaluation
        The same Evaluation :func:`clfeval.evaluate` gives on all the rows at once.

    Examples
    --------
    >>> import numpy as np, pandas as pd, dask, dask.dataframe as dd
    >>> df = dd.from_pandas(pd.DataFrame({"y": ["cat", "dog", "dog", "cat", "eel", "eel"],
    ...                                   "pred": ["cat", "dog", "cat", "cat", "eel", "dog"]}),
    ...                     npartitions=3)
    >>> with dask.config.set(scheduler="synchronous"):
    ...     ev = evaluate("y", "pred", data=df)
    >>> ev.labels.tolist(), ev.confusion.counts.tolist()
    (['cat', 'dog', 'eel'], [[2, 0, 0], [1, 1, 0], [0, 1, 1]])
    """
    options = EvaluateOptions.of(options, labels=labels, pos_label=pos_label, threshold=threshold, beta=beta,
                                 target_names=target_names, name=name, prevalence=prevalence)
    settings = StreamSettings.of(settings, mode, max_distinct, bits)
    lazy, source = _plan(y_true, y_pred, y_score, sample_weight, data=data, options=options, settings=settings,
                         split_every=split_every, client=client, groups=groups, group_missing=group_missing)
    try:
        stream = _compute(lazy, client)
    except ValuesError as exc:
        raise _located(exc, source, list(_ROLES), client) from None
    if stream.n_samples == 0:
        raise ValueError("the data have no rows: there is nothing to evaluate.")
    if stream.binned and settings.mode == "auto":
        # the workers' streams do not warn (their warnings would go to worker logs, or repeat)
        warnings.warn(
            f"more than {settings.max_distinct} distinct scores: the scores were binned ({settings.bits} mantissa "
            f"bits, relative bin width 2^-{settings.bits}); ROC AUC and average precision come with exact bounds (ev.binning). "
            "Pass mode='exact' to keep every score.", ScoresBinnedWarning, stacklevel=2)
    return stream.result()


def statistics(*args: Any, **options: Any) -> Any:
    """The merged statistics as a lazy :class:`dask.delayed.Delayed`: computing it gives the
    :class:`~clfeval.streaming.StreamingEvaluation` of all rows (``.result()`` is the
    Evaluation). Arguments as :func:`evaluate` (the same names); without ``labels`` the pass that fixes the
    classes runs now (on ``client`` if given). Use it to compute asynchronously
    (``client.compute(...)``) or together with other dask work.

    Parameters
    ----------
    *args : object
        Positional arguments of :func:`evaluate` (``y_true``, ``y_pred``, ``y_score``,
        ``sample_weight``).
    **options : object
        Keyword arguments of :func:`evaluate` (``data``, ``labels``, ``client``, ...).

    Returns
    -------
    dask.delayed.Delayed
        A lazy object whose computed value is the merged
        :class:`~clfeval.streaming.StreamingEvaluation`.

    Examples
    --------
    >>> import numpy as np, dask, dask.array as da
    >>> y = da.from_array(np.array([1, 1, 0, 0]), chunks=2)  # the first chunk has one class
    >>> p = da.from_array(np.array([1, 0, 0, 1]), chunks=2)
    >>> with dask.config.set(scheduler="synchronous"):
    ...     lazy = statistics(y, p)
    ...     (stream,) = dask.compute(lazy)
    >>> stream
    StreamingEvaluation(task='binary', n_samples=4, distinct_scores=0, mode='exact')
    """
    bound = inspect.signature(evaluate).bind(*args, **options)
    bound.apply_defaults()
    a = bound.arguments
    checked = EvaluateOptions.of(a["options"], **{f.name: a[f.name] for f in fields(EvaluateOptions)})
    settings = StreamSettings.of(a["settings"], a["mode"], a["max_distinct"], a["bits"])
    return _plan(a["y_true"], a["y_pred"], a["y_score"], a["sample_weight"], data=a["data"], options=checked,
                 settings=settings, split_every=a["split_every"], client=a["client"], groups=a["groups"],
                 group_missing=a["group_missing"])[0]


def _plan(
    y_true: Any, y_pred: Any, y_score: Any, sample_weight: Any, *, data: Any, options: EvaluateOptions,
    settings: StreamSettings, split_every: int, client: Any, groups: Any = None, group_missing: str = "error",
) -> tuple[Any, _Source]:
    """The lazy merged statistics, and the inputs' partitions they are computed from."""
    if client is not None and not callable(getattr(client, "compute", None)):
        raise TypeError(f"client must be a distributed.Client, got {type(client).__name__}.")
    if isinstance(split_every, bool) or not isinstance(split_every, (int, np.integer)) or split_every < 2:
        raise ValueError(f"split_every must be an integer of at least 2, got {split_every!r}.")
    threshold, labels = options.threshold, options.labels
    if threshold is not None and y_pred is not None:
        raise ValueError("pass threshold or y_pred, not both: threshold turns y_score into predictions, "
                         "which y_pred already are.")
    if labels is not None:
        labels = _plain_strings(as_array(labels, "labels").reshape(-1))
        if unique_sorted(labels, "labels").size != labels.size:
            raise ValueError(f"labels must be distinct, got {labels.tolist()}.")
        options = replace(options, labels=labels)

    source = _Source.of(y_true, y_pred, y_score, sample_weight, data, groups)
    need_range = y_score is not None and y_pred is None and threshold is None and source.n_columns in (None, 2)
    if labels is None or need_range:
        roles = ["y_true"] + (["y_pred"] if y_pred is not None else []) + (["y_score"] if need_range else [])
        try:
            summary = _compute(_tree(source.tasks(_summarize, roles), _merge_summaries, "clfeval-labels",
                                     split_every), client)
        except ValuesError as exc:
            raise _located(exc, source, roles, client) from None
        if summary.n_rows == 0:
            raise ValueError("the data have no rows: there is nothing to evaluate.")
        classes = labels
        if classes is None:
            present = [summary.y_true] + ([summary.y_pred] if summary.y_pred is not None else [])
            classes = resolve_labels(present[0], present[1] if len(present) > 1 else None, None, options.pos_label,
                                     source.n_columns)
            classes = _plain_strings(classes)
            options = replace(options, labels=classes)
        if need_range and classes.size <= 2:
            # evaluate's default threshold, decided on all rows (a partition alone may decide otherwise)
            options = replace(options, threshold=default_threshold(kind_of_range(summary.score_min,
                                                                                 summary.score_max)))
    stream = {"options": options, "settings": settings, "warn": False}  # the driver warns once (see evaluate)
    if groups is not None:  # one state per group: named by data='s columns, else by each partition's
        spec = source.specs["groups"]
        stream.update(groups=True if spec is None else [str(c) for c in (spec if isinstance(spec, list) else [spec])],
                      group_missing=group_missing)
    streams = source.tasks(_partition_stream, list(_ROLES), stream)
    return _tree(streams, _merge_streams, "clfeval-merge", split_every, stream), source


def evaluate_file(
    path: str | os.PathLike[str],
    *,
    y_true: str | None = None,
    y_pred: str | None = None,
    y_score: Sequence[str] | str | None = None,
    sample_weight: str | None = None,
    scheduler: str | None = None,
    blocksize: int | str | None = "default",
    **options: Any,
) -> Evaluation:
    """Evaluate a CSV, Parquet or Feather file - or a directory (or glob) of them - with dask.

    Columns are found as the ``clfeval`` command finds them (:mod:`clfeval.inputs.tabular`): named by
    ``y_true``, ``y_pred``, ``y_score`` (one column, several, or a comma-separated string) and
    ``sample_weight``, or detected from the usual names. ``scheduler``: the address of a dask
    scheduler (``"tcp://host:8786"``; the files must be readable by its workers), a local
    scheduler name (``"synchronous"``, ``"threads"``, ``"processes"``), or None for dask's
    default. ``blocksize``: bytes per CSV partition. Other ``options`` are those of
    :func:`evaluate` (``labels``, ``pos_label``, ``threshold``, ``mode``, ..., or ``options=`` and
    ``settings=``); ``name`` defaults to the file's name. Problems raise ``ValueError`` with a one-line message.

    Parameters
    ----------
    path : str or os.PathLike
        A data file, a directory of data files, or a glob pattern.
    y_true : str, optional
        Column of the true classes; default None (detected from the usual names).
    y_pred : str, optional
        Column of the predictions; default None (detected, or derived from the scores).
    y_score : str or sequence of str, optional
        Score column(s): one name, several, or a comma-separated string; default None
        (detected).
    sample_weight : str, optional
        Column of the sample weights; default None (detected, or unweighted).
    scheduler : str, optional
        Address of a dask scheduler, or a local scheduler name; default None (dask's default).
    blocksize : int, str or None, default "default"
        Bytes per CSV partition, as ``dask.dataframe.read_csv`` takes it ("default" is dask's
        choice; "none" or None reads each file whole).
    **options : object
        Further keyword arguments of :func:`evaluate`.

    Returns
    -------
    Evaluation
        The evaluation of all the rows of the file(s).

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> for i, rows in enumerate(["1,0.9\\n0,0.2\\n", "1,0.4\\n0,0.6\\n"]):
    ...     _ = open(os.path.join(folder, f"part{i}.csv"), "w").write("label,score\\n" + rows)
    >>> ev = evaluate_file(folder, scheduler="synchronous")
    >>> ev.n_samples, ev.confusion.counts.tolist()
    (4, [[1, 1], [1, 1]])
    """
    from clfeval.inputs.tabular import ColumnLayout, InputFileError, check_duplicate_columns, column_names, one_line

    checked = EvaluateOptions.of(options.pop("options", None),
                                 **{f.name: options.pop(f.name, None) for f in fields(EvaluateOptions)})
    shown = Path(path)
    files, fmt = _files_of(path)
    if isinstance(y_score, str):
        y_score = [c.strip() for c in y_score.split(",") if c.strip()]
    frame = _read_frame(files, fmt, blocksize, shown)
    columns = [str(c) for c in frame.columns]
    # the file's own names: pandas renames a duplicated CSV column ("score.1") where it should be an error
    check_duplicate_columns(shown, column_names(files[0], fmt), {"y_true": y_true, "y_pred": y_pred,
                            "sample_weight": sample_weight, "y_score": list(y_score) if y_score else None})
    layout = ColumnLayout.resolve(shown, columns, y_true, y_pred, list(y_score) if y_score else None, sample_weight)
    dtype = frame[layout.y_true].dtype
    like = np.empty(0, dtype=dtype if isinstance(dtype, np.dtype) else getattr(dtype, "numpy_dtype", object))
    if layout.classes_needed():  # suffixed score columns name the classes of y_true's first partition, or not
        from clfeval.inputs.column_roles import parse_label

        first = np.asarray(frame[layout.y_true].get_partition(0).compute())
        labels = checked.labels
        typed = None if labels is None else [parse_label(v, like.dtype.kind) if isinstance(v, str) else v
                                             for v in labels]
        given = typed is not None and all(v is not None for v in typed)
        layout.settle(typed if given else unique_sorted(first, "y_true").tolist(), given, like.dtype.kind)
    from clfeval.inputs.column_roles import labels_from_columns

    labels, pos_label = labels_from_columns(layout.score_labels, like, checked.labels, checked.pos_label,
                                            layout.y_score or ())
    checked = replace(checked, **{k: v for k, v in (("labels", labels), ("pos_label", pos_label)) if v is not None})
    if checked.name is None:  # a glob is named after its folder
        checked = replace(checked, name=(shown.parent.name or None) if not shown.exists() else
                          stem_of(shown) if data_suffix(shown) in _suffixes() else shown.name)
    score = layout.y_score if layout.y_score is None or len(layout.y_score) > 1 else layout.y_score[0]
    pred = layout.y_pred
    if y_pred is None and pred is not None and score is not None and checked.threshold is not None:
        pred = None  # a detected prediction column gives way to an explicit threshold (as the CLI)
    client = None
    if scheduler is not None and str(scheduler) not in LOCAL_SCHEDULERS:
        client = _connect(str(scheduler))
    local = dask.config.set(scheduler=str(scheduler)) if client is None and scheduler is not None else None
    try:
        with (client if client is not None else contextlib.nullcontext()), (local or contextlib.nullcontext()):
            return evaluate(layout.y_true, pred, score, layout.sample_weight, data=frame, client=client,
                            options=checked, **options)
    except InputFileError:
        raise
    except (ValueError, TypeError) as exc:
        row = getattr(exc, "row", None)
        where = "" if row is None else f"data row {row + 1}{' of the files' if len(files) > 1 else ''}, "
        error = InputFileError(f"{shown}: {where}{one_line(exc)}")
        error.values_error = exc if isinstance(exc, ValuesError) else None  # type: ignore[attr-defined]
        error.n_files = len(files)  # type: ignore[attr-defined]
        raise error from None
    except Exception as exc:  # a reader's error on a worker (bad CSV types, a corrupt file): one line
        if type(exc).__module__.split(".")[0] in ("pandas", "pyarrow", "dask", "fsspec") or isinstance(exc, OSError):
            raise InputFileError(f"{shown}: {type(exc).__name__}: {one_line(exc)}") from None
        raise


# ---------------------------------------------------------------------------------------------
# the inputs, split into partitions
# ---------------------------------------------------------------------------------------------


class _Source:
    """The inputs as per-partition pieces: for each role, a list of delayed partitions and how
    to take the role from one (None: the piece itself; a column name or names of a DataFrame)."""

    def __init__(self, pieces: dict[str, Any], specs: dict[str, Any], n_columns: int | None,
                 frame: Any = None) -> None:
        self.pieces, self.specs, self.n_columns, self.frame = pieces, specs, n_columns, frame

    @classmethod
    def of(cls, y_true: Any, y_pred: Any, y_score: Any, sample_weight: Any, data: Any, groups: Any = None
           ) -> _Source:
        given = dict(zip(_ROLES, (y_true, y_pred, y_score, sample_weight, groups)))
        if y_true is None:
            raise ValueError("y_true is required" + (" (the name of its column in data)." if data is not None else "."))
        if y_pred is None and y_score is None:
            raise ValueError("evaluate needs y_pred, y_score or both; got neither.")
        if data is not None:
            return cls._of_frame(given, data)
        return cls._of_collections(given)

    @classmethod
    def _of_frame(cls, given: dict[str, Any], data: Any) -> _Source:
        if not (is_dask_collection(data) and _is_frame(data)):
            raise TypeError(f"data must be a dask DataFrame, got {type(data).__module__}.{type(data).__name__}"
                            " (for pandas data use clfeval.evaluate).")
        columns = list(data.columns)
        specs: dict[str, Any] = {}
        for role, value in given.items():
            if value is None:
                continue
            if is_dask_collection(value) or isinstance(value, np.ndarray):
                raise TypeError(f"with data=, {role} must be a column name of data, not a "
                                f"{type(value).__name__}.")
            several = role in ("y_score", "groups") and isinstance(value, (list, tuple))
            names = list(value) if several else [value]
            if not names:
                raise ValueError(f"{role} is an empty list of columns.")
            for n in names:
                if n not in columns:
                    raise ValueError(f"{role}={n!r}: no such column in data (columns: "
                                     f"{', '.join(map(str, columns))}).")
            specs[role] = names if several and (len(names) > 1 or role == "groups") else names[0]
        score = specs.get("y_score")
        n_columns = len(score) if isinstance(score, list) else None
        return cls({}, specs, n_columns, frame=data)

    @classmethod
    def _of_collections(cls, given: dict[str, Any]) -> _Source:
        items = {r: v for r, v in given.items() if v is not None}
        for role, value in items.items():
            if not is_dask_collection(value):
                kind = f"{type(value).__module__.split('.')[0]}.{type(value).__name__}"
                hint = (" (in-memory data: use clfeval.evaluate; or wrap it with dask.array.from_array(..., "
                        "chunks=y_true.chunks))")
                if isinstance(value, str):
                    hint = " (a column name: pass data=your_dask_dataframe)"
                raise TypeError(f"{role} must be a dask array, Series or DataFrame, got {kind}{hint}.")
        ref = items["y_true"]
        n_columns: int | None = None
        pieces: dict[str, list[Any]] = {}
        for role, value in items.items():
            value = _shaped(role, value)
            if role == "y_score" and value.ndim == 2:
                n_columns = len(value.columns) if _is_frame(value) else int(value.shape[1])
                n_columns = None if n_columns == 1 else n_columns
            value = _aligned(role, value, ref)
            if role == "y_true":
                ref = value
            pieces[role] = _partitions(value)
        return cls(pieces, dict.fromkeys(items), n_columns)

    def tasks(self, func: Any, roles: list[str], options: dict[str, Any] | None = None) -> list[Any]:
        """One delayed ``func(index, options, specs, *pieces)`` per partition (pieces in ``roles``
        order; None for a role not given)."""
        roles = [r for r in roles if r in self.specs]
        if self.frame is not None:
            wanted = []
            for r in roles:
                spec = self.specs[r]
                wanted.extend(spec if isinstance(spec, list) else [spec])
            parts = self.frame[list(dict.fromkeys(wanted))].to_delayed()
            pieces = {r: parts for r in roles}
        else:
            pieces = {r: self.pieces[r] for r in roles}
        specs = tuple(self.specs.get(r) for r in _ROLES)
        n = len(next(iter(pieces.values())))
        token = tokenize([p.key for r in roles for p in pieces[r]], func.__name__, specs, options)
        label = "clfeval-stream" if func is _partition_stream else "clfeval-labels"
        out = []
        for i in range(n):
            args = [pieces[r][i] if r in pieces else None for r in _ROLES]
            out.append(_delayed(func, pure=True)(i, n, options, specs, *args, dask_key_name=f"{label}-{i}-{token}"))
        return out


def _shaped(role: str, value: Any) -> Any:
    """Check the number of dimensions; an (n, 1) array or one-column DataFrame is one column."""
    ndim = getattr(value, "ndim", None)
    if _is_frame(value):
        if role not in ("y_score", "groups") and len(value.columns) != 1:
            raise ValueError(f"{role} is a DataFrame of {len(value.columns)} columns; pass one column "
                             "(multilabel data are not supported by clfeval.dask yet).")
        return value if role in ("y_score", "groups") and len(value.columns) > 1 else value[value.columns[0]]
    if ndim is None or not hasattr(value, "to_delayed"):
        raise TypeError(f"{role} must be a dask array, Series or DataFrame, got {type(value).__name__}.")
    if ndim == 2 and value.shape[1] == 1:
        return value[:, 0]
    if ndim == 2 and role == "y_score":
        return value
    if ndim != 1:
        extra = " (multilabel data are not supported by clfeval.dask yet)" if role == "y_true" and ndim == 2 else ""
        raise ValueError(f"{role} must be 1-D{' or 2-D (n, k)' if role == 'y_score' else ''}, got shape "
                         f"{value.shape}{extra}.")
    return value


def _is_frame(value: Any) -> bool:
    """A dask DataFrame (not a Series, not an array)."""
    return getattr(value, "ndim", None) == 2 and hasattr(value, "columns") and not _is_array(value)


def _is_array(value: Any) -> bool:
    return hasattr(value, "chunks") and hasattr(value, "numblocks")


def _count(value: Any) -> int:
    return int(value.numblocks[0]) if _is_array(value) else int(value.npartitions)


def _aligned(role: str, value: Any, ref: Any) -> Any:
    """``value`` split into the partitions of ``ref`` (y_true): the same partitions, or a dask
    array rechunked to y_true's chunks; else a ValueError that says what differs."""
    if role == "y_true":
        if _is_array(value) and value.ndim == 2 and value.numblocks[1] > 1:
            value = value.rechunk({1: -1})
        return value
    if _is_array(value) and value.ndim == 2 and value.numblocks[1] > 1:
        value = value.rechunk({1: -1})  # every class's score of a row in one chunk
    if _is_array(value) and _is_array(ref):
        a, b = ref.chunks[0], value.chunks[0]
        known = not (any(np.isnan(a)) or any(np.isnan(b)))
        if known and a != b:
            if sum(a) != sum(b):
                raise ValueError(f"y_true has {sum(a)} rows but {role} has {sum(b)}; they must have the same rows.")
            return value.rechunk({0: a})
        if not known and len(a) != len(b):
            raise ValueError(f"y_true is split into {len(a)} chunks but {role} into {len(b)}, and their sizes are "
                             "unknown: compute_chunk_sizes() or split them alike.")
        return value
    if _count(value) != _count(ref):
        raise ValueError(
            f"y_true is split into {_count(ref)} partitions but {role} into {_count(value)}; split them alike "
            "(take them from one dask DataFrame, e.g. data=df with column names, or rechunk/repartition).")
    d_ref, d_val = getattr(ref, "divisions", None), getattr(value, "divisions", None)
    if d_ref is not None and d_val is not None and None not in d_ref and None not in d_val and \
            tuple(d_ref) != tuple(d_val):
        raise ValueError(f"y_true and {role} have different partition divisions ({d_ref} vs {d_val}); "
                         "take them from one dask DataFrame or repartition them alike.")
    return value


def _partitions(value: Any) -> list[Any]:
    if not _is_array(value):
        # unoptimized: optimizing each Series alone may join partitions differently (the column
        # projection of a Parquet read changes how files are grouped), and the roles must stay aligned
        return list(value.to_delayed(optimize_graph=False))
    pieces = np.asarray(value.to_delayed(), dtype=object)
    return list(pieces[:, 0] if pieces.ndim == 2 else pieces.reshape(-1))


# ---------------------------------------------------------------------------------------------
# the tasks
# ---------------------------------------------------------------------------------------------


def _pick(piece: Any, spec: Any) -> Any:
    if piece is None or spec is None:
        return piece
    return piece[spec]


def _rows(index: int, n_parts: int, specs: tuple, pieces: tuple) -> tuple[list[Any], int]:
    """The roles of one partition and its number of rows (checked alike)."""
    values = [_pick(p, s) for p, s in zip(pieces, specs)]
    n = len(values[0])
    for role, v in zip(_ROLES, values):
        if v is not None and len(v) != n:
            raise ValueError(f"partition {index} of {n_parts}: y_true has {n} rows but {role} has {len(v)}; "
                             "the inputs must be split into the same partitions.")
    return values, n


def _in_partition(index: int, n_parts: int, exc: Exception) -> Exception:
    if isinstance(exc, ValuesError) and exc.position is None and exc.argument not in _ROLES:
        return exc  # about an option (pos_label, labels): no partition is to blame
    message = f"partition {index} of {n_parts}: {exc}"
    if isinstance(exc, ValuesError):  # where the bad value is: its partition (the driver finds its row)
        out = ValuesError(message, argument=exc.argument, kind=exc.kind, position=exc.position, column=exc.column,
                          value=exc.value, count=exc.count, allowed=exc.allowed)
        out.partition = index  # type: ignore[attr-defined]
        return out
    try:
        return type(exc)(message)
    except Exception:  # an exception class with another signature
        return (TypeError if isinstance(exc, TypeError) else ValueError)(message)


def _partition_stream(index: int, n_parts: int, stream_arguments: dict[str, Any], specs: tuple, *pieces: Any
                      ) -> StreamingEvaluation:
    """One partition's statistics (a fresh stream: tasks are pure, so a retried task counts once)."""
    stream = StreamingEvaluation(**stream_arguments)
    (yt, yp, ys, w, g), n = _rows(index, n_parts, specs, pieces)
    if n == 0:
        return stream
    try:
        if ys is not None:
            # C order, as evaluate's callers mostly pass it (a pandas DataFrame's values are in F order)
            ys = np.ascontiguousarray(as_score_array(ys, "y_score"))
        return stream.update(yt, yp, ys, sample_weight=w, groups=g)
    except (ValueError, TypeError) as exc:
        raise _in_partition(index, n_parts, exc) from None


def _located(exc: ValuesError, source: _Source, roles: list[str], client: Any) -> ValuesError:
    """``exc`` from one partition, with ``row``: the 0-based row of all the data (the partitions in
    order) of its position, found by counting the rows of the partitions before it (the same
    partitions as the failed pass: the same roles, so the same column projection)."""
    index = getattr(exc, "partition", None)
    if index is None or exc.position is None:
        return exc
    try:
        lengths = _compute(_delayed(list)(source.tasks(_partition_length, roles)[:index]), client) if index else []
    except Exception:  # counting failed too: the partition says where
        return exc
    row = int(sum(lengths)) + exc.position
    # the message named the row within its partition: name the row of all the data instead
    message = str(exc).replace(f"{exc.argument}[{exc.position}", f"{exc.argument}[{row}", 1)
    out = ValuesError(message, argument=exc.argument, kind=exc.kind, position=exc.position, column=exc.column,
                      value=exc.value, count=exc.count, allowed=exc.allowed)
    out.partition, out.row = index, row  # type: ignore[attr-defined]
    return out


def _partition_length(index: int, n_parts: int, options: Any, specs: tuple, *pieces: Any) -> int:
    return _rows(index, n_parts, specs, pieces)[1]


def _merge_streams(options: dict[str, Any], *streams: StreamingEvaluation) -> StreamingEvaluation:
    out = streams[0]
    for s in streams[1:]:
        out = out.merge(s)
    return out


class _Summary:
    """What the labels pass keeps: rows, distinct labels, score range."""

    __slots__ = ("n_rows", "y_true", "y_pred", "score_min", "score_max")

    def __init__(self, n_rows: int, y_true: Any, y_pred: Any, score_min: float, score_max: float) -> None:
        self.n_rows, self.y_true, self.y_pred = n_rows, y_true, y_pred
        self.score_min, self.score_max = score_min, score_max


def _summarize(index: int, n_parts: int, options: Any, specs: tuple, *pieces: Any) -> _Summary:
    (yt, yp, ys, _, _), n = _rows(index, n_parts, specs, pieces)
    if n == 0:
        return _Summary(0, None, None, np.inf, -np.inf)
    try:
        t = as_array(yt, "y_true")
        if t.ndim == 2 and t.shape[1] > 1:
            raise ValueError("multilabel y_true (a 2-D indicator matrix) is not supported by clfeval.dask yet.")
        ut = unique_sorted(t.reshape(-1), "y_true")
        up = None if yp is None else unique_sorted(as_array(yp, "y_pred").reshape(-1), "y_pred")
        lo, hi = np.inf, -np.inf
        if ys is not None:
            s = as_score_array(ys, "y_score")
            lo, hi = float(s.min()), float(s.max())
    except (ValueError, TypeError) as exc:
        raise _in_partition(index, n_parts, exc) from None
    return _Summary(n, ut, up, lo, hi)


def _merge_summaries(options: Any, *parts: _Summary) -> _Summary:
    def union(arrays: list[Any], name: str) -> Any:
        arrays = [a for a in arrays if a is not None]
        return union_labels(*arrays, names=(name,) * len(arrays)) if arrays else None

    return _Summary(sum(p.n_rows for p in parts), union([p.y_true for p in parts], "y_true"),
                    union([p.y_pred for p in parts], "y_pred"), min(p.score_min for p in parts),
                    max(p.score_max for p in parts))


def _tree(items: list[Any], merge: Any, label: str, split_every: int, options: Any = None) -> Any:
    """Merge delayed items ``split_every`` at a time, level by level, down to one."""
    if not items:
        raise ValueError("the data have no partitions: there is nothing to evaluate.")
    token = tokenize([d.key for d in items], label, split_every)
    level, depth = list(items), 0
    while len(level) > 1:
        level = [
            _delayed(merge, pure=True)(options, *level[i:i + split_every],
                                       dask_key_name=f"{label}-{depth}-{i // split_every}-{token}")
            for i in range(0, len(level), split_every)
        ]
        depth += 1
    return level[0]


def _plain_strings(labels: np.ndarray) -> np.ndarray:
    """String labels as a numpy string array rather than objects (as evaluate gets them from numpy)."""
    if labels.dtype == object and labels.size and all(isinstance(v, str) for v in labels.tolist()):
        return labels.astype(str)
    return labels


def _compute(obj: Any, client: Any) -> Any:
    if client is not None:
        return client.compute(obj).result()
    return dask.compute(obj)[0]


def _on_cluster(client: Any) -> bool:
    """True when the computation ran in other processes (whose warnings the user does not see)."""
    if client is not None:
        return True
    scheduler = dask.base.get_scheduler()
    if type(getattr(scheduler, "__self__", None)).__name__ == "Client":
        return True
    from dask import multiprocessing as processes

    return scheduler is processes.get


# ---------------------------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------------------------


def _suffixes() -> dict[str, str]:
    from clfeval.inputs.tabular import FORMATS

    return FORMATS


def _files_of(path: str | os.PathLike[str]) -> tuple[list[Path], str]:
    """The data files of a file, a directory (as the CLI reads it: data files in it and its
    subfolders, names starting with '.' or '_' skipped) or a glob pattern, and their one format."""
    from clfeval.inputs.tabular import InputFileError, folder_files, format_of

    p = Path(path)
    if not p.exists() and any(ch in str(path) for ch in "*?["):
        files = sorted(Path(f) for f in _glob.glob(str(path), recursive=True) if Path(f).is_file())
        if not files:
            raise InputFileError(f"{path}: no file matches")
    elif p.is_dir():
        files = folder_files(p)  # the files the CLI reads from a directory
        if not files:
            raise InputFileError(f"{path}: the directory holds no data files")
    else:
        files = [p]
    formats = {}
    for f in files:
        formats.setdefault(format_of(f), f)  # one-line errors: no such file, empty file
    if len(formats) > 1:
        listing = ", ".join(f"{fmt} ({f.name})" for fmt, f in formats.items())
        raise InputFileError(f"{path}: the files are of different formats: {listing}; use one format")
    fmt = next(iter(formats))
    if fmt == "csv" and len({data_suffix(f) == ".tsv" for f in files}) > 1:
        raise InputFileError(f"{path}: mixes .tsv (tab-separated) and comma-separated files; use one kind")
    return files, fmt


def _read_frame(files: list[Path], fmt: str, blocksize: Any, shown: Path) -> Any:
    """A lazy dask DataFrame of the files."""
    import dask.dataframe as dd

    from clfeval.inputs.tabular import InputFileError, column_names, one_line

    names = [str(f) for f in files]
    try:
        if fmt == "parquet":
            return dd.read_parquet(names)
        if fmt == "csv":
            sep = "\t" if data_suffix(files[0]) == ".tsv" else ","
            whole = blocksize == "none" or compression_of(files[0]) is not None  # a .csv.gz is not split
            return dd.read_csv(names, sep=sep, blocksize=None if whole else blocksize)
        columns = column_names(files[0], "feather")
        for f in files[1:]:
            if column_names(f, "feather") != columns:
                raise InputFileError(f"{f}: its columns differ from those of {files[0].name}")
        return dd.from_map(_read_feather, names, meta=_feather_meta(files[0]), enforce_metadata=False,
                           label="clfeval-read-feather")
    except InputFileError:
        raise
    except Exception as exc:
        if type(exc).__module__.split(".")[0] in ("pandas", "pyarrow", "dask", "fsspec") or \
                isinstance(exc, (OSError, ValueError, TypeError)):
            raise InputFileError(f"{shown}: cannot be read as {fmt}: {one_line(exc)}") from None
        raise


def _read_feather(path: str) -> Any:
    import pyarrow.feather as feather

    return feather.read_table(path, memory_map=True).to_pandas()


def _feather_meta(path: Path) -> Any:
    import pyarrow as pa
    import pyarrow.ipc as ipc

    with pa.memory_map(str(path)) as source:
        return ipc.open_file(source).schema.empty_table().to_pandas()


def _connect(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError as exc:
        raise ImportError("a dask scheduler address needs dask.distributed: pip install 'clfeval[dask]'") from exc
    try:
        from distributed.comm import registry
        from distributed.comm.addressing import parse_address

        registry.get_backend(parse_address(address)[0])  # an unknown scheme: before a Client half-starts
        from dask.utils import parse_timedelta

        configured = parse_timedelta(dask.config.get("distributed.comm.timeouts.connect", CONNECT_TIMEOUT), "s")
        client = Client.__new__(Client)
        try:
            client.__init__(address, set_as_default=False, timeout=min(CONNECT_TIMEOUT, configured or CONNECT_TIMEOUT))
        except BaseException:
            _forget(client)
            raise
        return client
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        raise ValueError(f"cannot connect to the dask scheduler at {address!r}: {message}") from None


def _forget(client: Any) -> None:
    """A Client whose constructor failed: mark it closed and stop its event loop, so that its
    ``__del__`` neither waits for a scheduler that never answered nor prints a traceback."""
    with contextlib.suppress(Exception):
        client.status = "closed"
        runner = getattr(client, "_loop_runner", None)
        if runner is not None:
            runner.stop()
