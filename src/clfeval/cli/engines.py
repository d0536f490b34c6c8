"""The engines of ``clfeval report``, each given the same :class:`~clfeval.cli.report_options.ReportOptions`:
the file read whole into ``evaluate`` (:func:`evaluate_in_memory`), read in record batches into a
:class:`~clfeval.streaming.StreamingEvaluation` in bounded memory (:func:`stream_file`; a directory,
``--stream``, ``--bins`` or a file over ``--memory-budget``: :func:`why_stream`), or evaluated on a
Dask cluster (:func:`evaluate_on_cluster`, ``--scheduler``). Each returns an :class:`Evaluated`: the
evaluation and what was read for it. A library error becomes one line in the command's words
(:func:`in_words`, :func:`where`).

>>> in_words(ValueError("y_score must be finite"), "p.csv", {"y_score": ["proba"]}).args[0].startswith("p.csv: ")
True
"""

from __future__ import annotations

import contextlib
import itertools
import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.cli.groups import checked_group_keys
from clfeval.cli.messages import Where, data_error, first_text, in_cli_words
from clfeval.cli.options import UsageError, typed
from clfeval.cli.parser import IN_MEMORY_FACTOR, human_size
from clfeval.cli.report_options import ReportOptions, evaluate_options
from clfeval.exceptions import ValuesError
from clfeval.inputs.checks import stem_of
from clfeval.inputs.evaluate_options import EvaluateOptions, StreamSettings
from clfeval.support.progress import Progress
from clfeval.inputs.score_kind import default_threshold, kind_of_range
from clfeval.inputs.tabular import InputFileError, PredictionBatches, Predictions, iter_prediction_batches

if TYPE_CHECKING:
    from clfeval.evaluation import Evaluation

__all__ = ["Evaluated", "read_batches", "why_stream", "evaluate_in_memory", "stream_file", "evaluate_on_cluster",
           "check_stream_intervals", "columns_of", "where", "in_words"]


@dataclass
class Evaluated:
    """An engine's evaluation, and what it read: the detected columns, the scores' range and columns
    (for the note on scores outside [0, 1]), the JSON entry "columns" and the note on the columns
    not read. With ``--by``: ``groups``, each group's evaluation (a GroupEvaluations whose
    ``overall`` is ``evaluation``)."""

    evaluation: Evaluation
    detected: list[str]
    score_range: tuple[float, float] | None = None
    score_columns: list[str] | None = None
    columns_used: dict[str, Any] | None = None
    unused_note: str | None = None
    groups: Any = None

    @classmethod
    def of_batches(cls, ev: Evaluation, batches: PredictionBatches) -> Evaluated:
        """What ``batches`` read for ``ev``; an evaluation with groups gives its overall and its groups."""
        if ev.by_group is None:
            return cls(ev, batches.detected, batches.score_range, batches.score_columns, batches.columns_used,
                       batches.unused_note)
        return cls(ev.by_group.overall, batches.detected, batches.score_range, batches.score_columns,
                   batches.columns_used, batches.unused_note, ev.by_group)


def read_batches(options: ReportOptions) -> PredictionBatches:
    """The file's batches, its columns found and checked (nothing read yet)."""
    return iter_prediction_batches(options.file, **options.columns, batch_rows=options.batch_rows,
                                   progress=options.progress, labels=options.labels, groups=options.by)


def _check_cluster_groups(options: ReportOptions, columns: dict[str, Any]) -> None:
    """--by with --scheduler: a group column that the Dask reader would also take for the weights
    (it detects an unnamed weight column by its name) is a usage error."""
    from clfeval.inputs.tabular import WEIGHT_NAMES

    if columns.get("sample_weight") is not None:
        return
    taken = [c for c in options.by or () if c.lower() in WEIGHT_NAMES]
    if taken:
        by = typed(options.argv, "--by", ",".join(options.by or ()))
        raise UsageError(f"--by {by} with --scheduler: the Dask engine would also read column {taken[0]!r} as the "
                         "sample weights (by its name); rename the column, or leave out --scheduler")


def why_stream(batches: PredictionBatches, options: ReportOptions) -> str | None:
    """Why the file is streamed (words for the notice), or None to read it in memory."""
    if batches.is_directory:
        return f"a directory of {len(batches.files)} {batches.format} file{'s' if len(batches.files) > 1 else ''}"
    if options.stream:
        return "--stream"
    if options.bins is not None:
        return "--bins"
    need = batches.estimated_memory * IN_MEMORY_FACTOR["scores" if batches.score_columns else "labels"]
    if need > options.memory_budget:
        return (f"in memory it would take about {human_size(need)}, over --memory-budget "
                f"{human_size(options.memory_budget)}")
    return None


# ---------------------------------------------------------------- in memory


def evaluate_in_memory(batches: PredictionBatches, options: ReportOptions, notices: list[str]) -> Evaluated:
    """Read the whole file, then ``evaluate`` it."""
    data = batches.read_all()  # with its own bar for a large file
    groups = None
    if options.by:  # the groups' keys first: a missing value is an error before any evaluation
        groups = {c: data.groups[c] for c in options.by} if data.groups is not None else None
        checked_group_keys(groups or {}, options.by_missing, where(data, columns_of(batches), options))
    step = "evaluating" if groups is None else f"evaluating every group by {', '.join(options.by or [])}"
    with Progress(1, force=options.progress) as bar, bar.step(step):
        read = Evaluated.of_batches(_evaluate_file(data, options, notices, columns_of(batches), groups), batches)
        if options.rule is None and options.at_prevalence is None:  # this Evaluation is the one reported
            from clfeval.evaluation.thresholds import start_threshold_entries

            start_threshold_entries(read.evaluation)  # its calibration on the worker thread, meanwhile:
        read.evaluation.report  # noqa: B018 - computed inside the bar's step
    return read


def _evaluate_file(data: Predictions, options: ReportOptions, notices: list[str], columns: dict[str, Any],
                   groups: dict[str, np.ndarray] | None = None) -> Evaluation:
    """The evaluation of ``data`` (with its groups: ``by_group``)."""
    from clfeval.evaluation import evaluate

    checked, use_pred = evaluate_options(options, data, notices, stem_of(data.path))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined values are listed in the report's notes
        try:
            ev = evaluate(data.y_true, data.y_pred if use_pred else None, data.y_score,
                          sample_weight=data.sample_weight, options=checked, groups=groups,
                          group_missing=options.by_missing)
        except ValuesError as exc:
            raise data_error(exc, where(data, columns, options)) or in_words(exc, data.path, columns) from None
        except ValueError as exc:
            raise in_words(exc, data.path, columns) from None
    return ev


def columns_of(batches: PredictionBatches) -> dict[str, Any]:
    """The column of each argument of ``evaluate``, for messages."""
    return {"y_true": batches.y_true_column, "y_pred": batches.y_pred_column, "y_score": batches.score_columns,
            "sample_weight": batches.weight_column}


def where(data: Predictions, columns: dict[str, Any] | None, options: ReportOptions, partial: bool = False
          ) -> Where:
    """Where ``data``'s arrays lie (for the rows and columns of a data error's message)."""
    return Where(data.path, columns or {"y_score": data.score_columns}, first_row=data.first_row,
                 folder_row=data.folder_row, partial=partial, argv=options.argv, options=options.message_options,
                 arrays={"y_true": data.y_true, "y_pred": data.y_pred}, groups=tuple(options.by or ()))


def in_words(exc: ValueError, path: Any, columns: dict[str, Any] | None) -> InputFileError:
    """A library error about ``path``'s columns, its argument names in the command's words."""
    return InputFileError(f"{path}: {in_cli_words(str(exc), columns)}")


# ---------------------------------------------------------------- streaming


class _BatchError(Exception):
    """A batch the stream refused (a ValueError of ``update``), with where it was."""

    def __init__(self, batch: Predictions, error: ValueError) -> None:
        super().__init__(str(error))
        self.batch, self.error = batch, error

    def input_error(self, columns: dict[str, Any], options: ReportOptions) -> InputFileError | UsageError:
        b = self.batch
        if isinstance(self.error, ValuesError):  # the bad value's own row and column
            better = data_error(self.error, where(b, columns, options, partial=True))
            if better is not None:
                return better
        rows = f"data rows {b.first_row + 1}-{b.first_row + b.n_rows}"
        if b.folder_row is not None:
            rows += f" (rows {b.folder_row + 1}-{b.folder_row + b.n_rows} of the directory)"
        # the stream's hints name its Python arguments; here they are options and columns
        return InputFileError(f"{b.path}, {rows}: {in_cli_words(str(self.error), columns)}")


def stream_file(batches: PredictionBatches, options: ReportOptions, notices: list[str], why: str) -> Evaluated:
    """Evaluate the file batch by batch (bounded memory); the same options as in memory."""
    if options.ci is not None and (options.ci not in ("analytic", "delong") or len(batches.score_columns) > 2):
        raise UsageError(f"--ci {options.ci}: {batches.path} is streamed ({why}), and a stream keeps counts, not "
                         f"rows: it gives --ci analytic (binary, unweighted) only{_in_memory_hint(batches, why)}")
    if options.ci is not None and batches.weight_column is not None:
        raise UsageError(f"--ci with --sample-weight: {batches.path} is streamed ({why}), and intervals of weighted "
                         f"rows need each row's weight, which a stream does not keep{_in_memory_hint(batches, why)}")
    settings = options.stream_settings
    with contextlib.closing(iter(batches)) as rows:
        first = next(rows, None)
        if first is None:
            raise batches.empty_error()
        checked, use_pred = evaluate_options(options, first, notices, stem_of(batches.path))
        try:
            stream, count = _stream(itertools.chain([first], rows), checked, settings, use_pred, options)
            failure = None
        except _BatchError as exc:
            failure = exc
    if failure is not None:
        if isinstance(failure.error, ValuesError) and failure.error.kind == "mixed-types":
            raise _text_row_error(batches, failure, options) from None
        if isinstance(failure.error, ValuesError) and failure.error.argument in (options.by or ()):
            raise failure.input_error(columns_of(batches), options) from None  # a missing group value
        # the first batches did not show every class (or the scores' kind): learn them from
        # every row, then stream again with them fixed
        fixed = _options_from_all_rows(batches, checked, use_pred) if first.y_score is not None else None
        if fixed is None:
            raise failure.input_error(columns_of(batches), options) from None
        with contextlib.closing(iter(batches)) as rows:
            try:
                stream, count = _stream(rows, fixed, settings, use_pred, options)
            except _BatchError as exc:
                raise exc.input_error(columns_of(batches), options) from None
        notices.append("the first rows did not show every class or the kind of scores: read the file once to "
                       "learn them, then streamed it again")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ev = stream.result()
        except ValuesError as exc:  # about every row together (their weights' total)
            raise in_words(exc, batches.path, columns_of(batches)) from None
    notices.append(f"streamed {batches.path} ({why}): {stream.n_samples:,} rows in {count:,} "
                   f"batch{'es' if count > 1 else ''} of at most {batches.batch_rows:,} rows")
    if stream.binned or settings.mode == "binned":
        bounds = ", with exact bounds in the JSON 'binning' entry" if ev.binning else ""
        notices.append(f"scores binned ({stream.bits} mantissa bits, relative bin width 2^-{stream.bits}): ROC AUC and "
                       f"average precision are those of the binned scores{bounds}"
                       + ("" if options.bins is not None else "; --exact keeps every score"))
    return Evaluated.of_batches(ev, batches)


def _text_row_error(batches: PredictionBatches, failure: _BatchError, options: ReportOptions
                    ) -> InputFileError | UsageError:
    """Text among number labels, refused by a batch that may not hold the text itself: the error of
    the first batch that does (it names the row)."""
    argument = failure.error.argument  # type: ignore[attr-defined]
    if argument in ("y_true", "y_pred"):
        with contextlib.closing(iter(batches)) as rows:
            for b in rows:
                if first_text(getattr(b, argument)) is not None:
                    return _BatchError(b, failure.error).input_error(columns_of(batches), options)
    return failure.input_error(columns_of(batches), options)


def _stream(batches: Any, checked: EvaluateOptions, settings: StreamSettings, use_pred: bool,
            options: ReportOptions) -> tuple[Any, int]:
    """A StreamingEvaluation of every batch (with --by, one state per group too), and how many
    batches there were."""
    from clfeval.streaming import StreamingEvaluation

    by = list(options.by) if options.by else None
    stream = StreamingEvaluation(options=checked, settings=settings, groups=by, group_missing=options.by_missing)
    count = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined values: the report's notes; binning: a notice
        for batch in batches:
            try:
                stream.update(batch.y_true, batch.y_pred if use_pred else None, batch.y_score, batch.sample_weight,
                              **({"groups": batch.groups} if by else {}))
            except ValueError as exc:
                raise _BatchError(batch, exc) from None
            count += 1
    return stream, count


def _options_from_all_rows(batches: PredictionBatches, checked: EvaluateOptions, use_pred: bool
                           ) -> EvaluateOptions | None:
    """``checked`` with the classes of every row (when --labels did not give them) and, for binary
    scores without --threshold, the default threshold of all the scores (by the rule of
    :mod:`clfeval.inputs.score_kind`, as ``evaluate`` picks it); None if nothing is left to fix."""
    from clfeval.inputs.labels import union_labels, unique_sorted

    classes: list[np.ndarray] = []
    lo, hi, one_column = np.inf, -np.inf, True
    with contextlib.closing(iter(batches)) as rows:
        for b in rows:
            parts = [unique_sorted(b.y_true, "y_true")]
            if use_pred:
                parts.append(unique_sorted(b.y_pred, "y_pred"))
            classes = [union_labels(*classes, *parts)]
            one_column = b.y_score.ndim == 1
            lo, hi = min(lo, float(b.y_score.min())), max(hi, float(b.y_score.max()))
    fixed = checked
    if checked.labels is None and classes and classes[0].size >= 2:
        fixed = replace(fixed, labels=classes[0])
    binary = fixed.labels is not None and len(fixed.labels) == 2
    if checked.threshold is None and not use_pred and one_column and binary:
        fixed = replace(fixed, threshold=default_threshold(kind_of_range(lo, hi)))
    return fixed if fixed is not checked else None


def _in_memory_hint(batches: PredictionBatches, why: str) -> str:
    if batches.is_directory:
        return ""
    if why.startswith("--"):
        return f"; leave out {why} to read the file in memory"
    return "; a larger --memory-budget reads the file in memory"


def check_stream_intervals(ev: Evaluation, options: ReportOptions) -> None:
    """--ci on an evaluation built from statistics (a stream, a cluster): what it can give."""
    if options.ci is None or ev.streamed is None:
        return
    if ev.streamed == "weighted":
        raise UsageError(f"--ci with sample weights: {options.file} was streamed, and intervals of weighted rows "
                         "need each row's weight, which a stream does not keep")
    if ev.task != "binary" or options.ci not in ("analytic", "delong"):
        raise UsageError(f"--ci {options.ci}: {options.file} was streamed, and a stream keeps counts, not rows: it "
                         f"gives --ci analytic (binary, unweighted) only, and this is a {ev.task} evaluation")


# ---------------------------------------------------------------- a Dask cluster


def evaluate_on_cluster(options: ReportOptions, notices: list[str]) -> Evaluated:
    """--scheduler: ``clfeval.dask.evaluate_file`` on the cluster, with the options of the other engines
    (labels typed from the file's first rows where it can be read here)."""
    try:
        from clfeval.dask import evaluate_file
    except ImportError as exc:
        if isinstance(exc, ModuleNotFoundError) and exc.name == "clfeval.dask":
            raise UsageError("--scheduler: this installation of clfeval has no Dask engine (clfeval.dask); "
                             "leave out --scheduler to evaluate on this machine") from None
        raise UsageError(f"--scheduler: {exc}") from None  # e.g. dask itself is not installed
    columns: dict[str, Any] = options.columns
    detected: list[str] = []
    used: tuple[Any, Any] = (None, None)  # the JSON entry "columns", the note on the columns not read
    name = stem_of(options.file)
    if Path(options.file).exists():
        batches = iter_prediction_batches(options.file, **columns, batch_rows=10_000, progress=False,
                                          labels=options.labels, groups=options.by)
        with contextlib.closing(iter(batches)) as rows:
            first = next(rows, None)
        if first is None:
            raise batches.empty_error()
        checked, use_pred = evaluate_options(options, first, notices, name)
        columns = {"y_true": batches.y_true_column, "y_pred": batches.y_pred_column if use_pred else None,
                   "y_score": batches.score_columns or None, "sample_weight": batches.weight_column}
        detected, used = batches.detected, (batches.columns_used, batches.unused_note)
    else:  # only the cluster sees the file: the labels stay text
        checked = options.untyped(name)
    # through clfeval.dask's keyword API: the options set here, as they were checked once
    given = {**{k: v for k, v in columns.items() if v is not None}, **checked.given(), **options.stream_settings.given()}
    if options.by:  # the group columns, read on the workers (evaluate's groups=, by column name)
        _check_cluster_groups(options, columns)
        given.update(groups=list(options.by), group_missing=options.by_missing)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ev = evaluate_file(options.file, scheduler=options.scheduler, **given)
        except InputFileError as exc:  # a partition's error: its row, columns and options in the command's words
            located = getattr(exc, "values_error", None)
            row = getattr(located, "row", None)
            if located is not None and (row is not None or located.position is None):
                shift = 0 if row is None else row - located.position
                several = getattr(exc, "n_files", 1) > 1
                place = Where(options.file, columns, first_row=None if several else shift,
                              folder_row=shift if several else None, argv=options.argv,
                              options=options.message_options, groups=tuple(options.by or ()),
                              partial=bool(options.by))  # a group's count: of one partition
                better = data_error(located, place)
                if better is not None:
                    raise better from None
            head, sep, rest = str(exc).partition(": ")
            raise InputFileError(f"{head}{sep}{in_cli_words(rest, columns)}" if sep else str(exc)) from None
    if not hasattr(ev, "report") and hasattr(ev, "result"):  # a StreamingEvaluation
        ev = ev.result()
    notices.append(f"evaluated {options.file} with Dask (scheduler {options.scheduler})")
    groups, ev = ev.by_group, ev if ev.by_group is None else ev.by_group.overall
    return Evaluated(ev, detected, score_columns=options.y_score.split(",") if options.y_score else None,
                     columns_used=used[0], unused_note=used[1], groups=groups)
