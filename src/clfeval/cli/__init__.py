"""The ``clfeval`` command: ``clfeval report FILE``, ``clfeval compare FILE`` and ``clfeval demo``.

``report`` reads predictions from a CSV, Parquet or Feather file (or a directory of them), prints
the evaluation in the terminal and writes JSON, HTML and PNG files on request. A directory, or a
file whose evaluation in memory would take more than ``--memory-budget``, is streamed: read in
record batches into a :class:`~clfeval.streaming.StreamingEvaluation`, in bounded memory, with
the same numbers; ``--scheduler`` evaluates on a Dask cluster. ``demo`` does the same on the example
data shipped inside the package. Errors are one line on stderr (``clfeval: error: ...``), exit
status 1 for bad data or files and 2 for bad usage; every output is computed and staged before
any is written, then all are moved into place together, or none (:mod:`clfeval.support.staged_outputs`);
an output that is an input is refused.

The flow of ``report``: the arguments (:mod:`clfeval.cli.parser`) -> the options, read once
(:mod:`clfeval.cli.report_options`) -> one engine, memory, stream or Dask (:mod:`clfeval.cli.engines`)
-> the views (:mod:`clfeval.cli.views`). ``compare``: :mod:`clfeval.cli.compare`; ``demo``:
:mod:`clfeval.cli.demo`. This module is the console script's entry point and nothing in the
package imports it (:mod:`clfeval.command` and ``python -m clfeval`` re-export :func:`main`).

Ctrl-C (SIGINT), SIGTERM and SIGHUP become :class:`~clfeval.support.signals.Interrupted` from the start of
:func:`main` on, also while numpy and the rest are still being imported: one line (``clfeval:
error: interrupted (SIGINT); nothing was written``) and exit status 128 + the signal's number (130
for Ctrl-C, 143 for SIGTERM), never a traceback. Only the standard library and
:mod:`clfeval.support.signals` are imported at the top of this module; the rest loads inside :func:`main`,
after the handlers are in place.

>>> args = build_parser().parse_args(["report", "preds.parquet", "--y-score", "p0,p1,p2", "--json", "out.json"])
>>> args.file, args.y_score, args.json
('preds.parquet', 'p0,p1,p2', 'out.json')
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from clfeval.support.signals import Interrupted, install_signal_handlers, interruption_message, raised_signal, signals_deferred

if TYPE_CHECKING:
    from clfeval.cli.engines import Evaluated
    from clfeval.cli.report_options import ReportOptions

__all__ = ["main", "build_parser"]

#: modules of the optional extras (plot, report, files): missing ones get an install hint
OPTIONAL_MODULES = {"matplotlib", "plotly", "rich", "pyarrow", "dask", "distributed"}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``clfeval`` command; returns the exit status (0 ok, 1 bad data or files, 2 bad usage,
    128 + the signal's number when a signal stopped it)."""
    try:
        install_signal_handlers()
        # held back while the heavy modules load: a C extension (numpy's) that is interrupted while
        # importing turns the KeyboardInterrupt into an ImportError; the signal is raised right after
        with signals_deferred():
            from clfeval.cli import compare as cli_compare
            from clfeval.cli import demo as cli_demo
            from clfeval.cli import engines as cli_engines
            from clfeval.cli import parser as cli_parser
            from clfeval.cli import views as cli_views  # noqa: F401

        return _run(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt as exc:  # while importing, or anywhere _run does not catch it
        return _report_interruption(exc)
    except Exception:  # an error a signal caused (an import it broke): still an interruption
        if not raised_signal():
            raise
        return _report_interruption(Interrupted(raised_signal()))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``clfeval`` command (:func:`clfeval.cli.parser.build_parser`)."""
    from clfeval.cli.parser import build_parser as parser_of_the_command

    return parser_of_the_command()


def _run(argv: list[str]) -> int:
    """Parse ``argv``, run its command, and turn its errors into one line and an exit status."""
    from clfeval.cli.compare import compare
    from clfeval.cli.demo import demo
    from clfeval.cli.messages import cluster_error, in_cli_words, warnings_as_notes
    from clfeval.cli.options import PROG, UsageError
    from clfeval.inputs.column_roles import ColumnChoiceError
    from clfeval.support.staged_outputs import OutputError
    from clfeval.inputs.tabular import InputFileError

    parser = build_parser()
    args = parser.parse_args(list(argv))
    args.argv = list(argv)  # the options as typed, for messages
    if args.command is None:
        parser.print_help()
        return 2
    try:
        with warnings_as_notes():  # warnings: one note line each, never Python's warning lines
            if args.command == "report":
                return _report(args)
            if args.command == "compare":
                return compare(args)
            return demo(args)
    except UsageError as exc:
        parser.exit(2, f"{PROG}: error: {exc}\n")
    except ColumnChoiceError as exc:  # which columns to read: a usage error (name them)
        parser.exit(2, f"{PROG}: error: {exc}\n")
    except (InputFileError, OutputError) as exc:
        return _fail(str(exc))
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in OPTIONAL_MODULES:
            raise
        return _fail(f"{exc} (install the extras: pip install 'clfeval[all]')")
    except ValueError as exc:
        path = getattr(args, "file", None)
        text = in_cli_words(str(exc))
        return _fail(f"{path}: {text}" if path else text)
    except KeyboardInterrupt as exc:  # SIGINT, SIGTERM, SIGHUP (see clfeval.support.signals)
        return _fail(*interruption_message(exc))
    except Exception as exc:  # a Dask cluster that lost its workers
        message = cluster_error(exc, getattr(args, "scheduler", None))
        if message is None:
            raise
        return _fail(message)
    return 0


def _fail(message: str, status: int = 1) -> int:
    print(f"clfeval: error: {' '.join(message.split())}", file=sys.stderr)
    return status


def _report_interruption(exc: BaseException) -> int:
    with signals_deferred(reraise=False):
        text, status = interruption_message(exc)
        sys.stderr.write(f"clfeval: error: {text}\n")
        sys.stderr.flush()
    return status


# ---------------------------------------------------------------- report


def _report(args: argparse.Namespace) -> int:
    """``clfeval report``: the options, read once -> one engine -> the views."""
    from clfeval.cli.engines import check_stream_intervals
    from clfeval.cli.notes import add_notes, check_probability_threshold, flipped_scores_note
    from clfeval.cli.options import check_options
    from clfeval.cli.partial_auc import check_partial
    from clfeval.cli.prevalence import with_prevalence
    from clfeval.cli.report_options import apply_rule, check_costs_shape, check_prevalence, report_options
    from clfeval.cli.views import Outputs, show_report
    from clfeval.support.progress import Progress
    from clfeval.inputs.score_kind import evaluation_score_note

    check_options(args)
    tracking = None
    if args.mlflow is not None:  # MLflow importable and its store usable, before any work (exit 2)
        from clfeval.cli.tracking import MlflowOutput

        tracking = MlflowOutput(args.mlflow)
    outputs = Outputs(args.json, args.html, args.png, inputs=[("FILE", args.file), ("--cost", args.cost)],
                      mlflow=tracking)
    options = report_options(args)
    notices: list[str] = []
    read = _evaluate(options, notices)
    ev = read.evaluation
    check_stream_intervals(ev, options)
    check_partial(ev, options.partial)  # --partial-fpr / --partial-tpr need scores
    if options.costs is not None:  # before any rule uses it: a wrong size is a usage error either way
        check_costs_shape(ev, options.costs)
        check_prevalence(options, ev.names)
    ev = with_prevalence(ev, options.at_prevalence, options.prevalence_text, options.argv)  # --prevalence P
    if options.rule is None and options.threshold is not None:
        check_probability_threshold(ev.score_kind, options.threshold, f"--threshold {options.threshold_text}")
    groups = read.groups
    if options.rule is not None:
        ev = apply_rule(ev, options, notices)
        if groups is not None:  # every group at the rule's threshold
            groups = groups.at(ev, ev.threshold)
    metric = None
    if groups is not None:
        from clfeval.cli.groups import many_groups_notice, sort_metric

        metric = sort_metric(ev, options.by_metric, options.argv)
        notice = many_groups_notice(groups.keys, metric)
        if notice is not None:
            notices.append(notice)
    add_notes(ev, [flipped_scores_note(ev) or ""])
    # scores outside [0, 1]: how they were read (clfeval.inputs.score_kind) and which threshold applies
    given = None if options.threshold_text is None else f"--threshold {options.threshold_text}"
    note = evaluation_score_note(ev, read.score_range, columns=read.score_columns, threshold_given=given)
    if note is not None:
        notices.append(f"note: {note}")
    if read.unused_note:
        notices.insert(0, read.unused_note)
    if read.detected:
        notices.insert(0, f"detected columns: {'; '.join(read.detected)}")
    intervals = by_group = None
    with Progress(1 + (options.ci is not None) + (groups is not None), force=options.progress) as bar:
        with bar.step("operating points, costs and calibration"):
            from clfeval.evaluation.thresholds import start_threshold_entries

            if start_threshold_entries(ev):  # the calibration on the worker thread, the report's areas here
                ev.report  # noqa: B018 (a cached property: computed now, read by the views)
            thresholds = ev.thresholds_dict(costs=options.costs, prevalence=options.prevalence)
        if options.ci is not None:
            with bar.step(f"{options.ci} confidence intervals"):
                intervals = ev.intervals(options.level, method=options.ci, sampling=options.ci_sampling)
        if groups is not None and metric is not None:
            from clfeval.cli.groups import group_results

            with bar.step(f"{len(groups):,} groups: table, gaps{' and fairness' if ev.task == 'binary' else ''}"):
                by_group = group_results(groups, metric, level=options.level, ci=options.ci,
                                         sampling=options.ci_sampling, all_gaps=bool(outputs.plan.files))
    show_report(ev, thresholds, intervals, options, outputs, notices, read.columns_used, by_group)
    return 0


def _evaluate(options: ReportOptions, notices: list[str]) -> Evaluated:
    """The one engine the options choose: the Dask cluster (``--scheduler``), else the file streamed
    in batches (a directory, ``--stream``, ``--bins``, over ``--memory-budget``), else read in memory."""
    from clfeval.cli.engines import evaluate_in_memory, evaluate_on_cluster, read_batches, stream_file, why_stream

    if options.scheduler is not None:
        return evaluate_on_cluster(options, notices)
    batches = read_batches(options)
    why = why_stream(batches, options)
    if why is None:
        return evaluate_in_memory(batches, options, notices)
    return stream_file(batches, options, notices, why)


if __name__ == "__main__":  # pragma: no cover
    with contextlib.suppress(BrokenPipeError):
        sys.exit(main())
