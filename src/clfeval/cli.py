"""The ``clfeval`` command: ``clfeval report FILE`` and ``clfeval demo``.

``report`` reads predictions from a CSV, Parquet or Feather file (or a directory of them), prints
the evaluation in the terminal and writes JSON, HTML and PNG files on request. A directory, or a
file whose evaluation in memory would take more than ``--memory-budget``, is streamed: read in
record batches into a :class:`~clfeval.streaming.StreamingEvaluation`, in bounded memory, with
the same numbers; ``--scheduler`` evaluates on a Dask cluster. ``demo`` does the same on the example
data shipped inside the package. Errors are one line on stderr (``clfeval: error: ...``), exit
status 1 for bad data or files and 2 for bad usage; every output is computed and staged before
any is written, then all are moved into place together, or none (:mod:`clfeval.staged_outputs`);
an output that is an input is refused. Ctrl-C and SIGTERM: :mod:`clfeval.command`.

>>> args = build_parser().parse_args(["report", "preds.parquet", "--y-score", "p0,p1,p2", "--json", "out.json"])
>>> args.file, args.y_score, args.json
('preds.parquet', 'p0,p1,p2', 'out.json')
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import itertools
import os
import re
import shutil
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .cli_messages import Where, cluster_error, data_error, first_text, in_cli_words, warning_notes, warnings_as_notes
from .cli_notes import add_notes, check_probability_threshold, flipped_scores_note, print_model_notes
from .cli_options import (PROG, OneLineParser, UsageError, check_labels, check_options, check_prevalence_size,
                          read_costs, threshold_rule, typed)
from .column_roles import ColumnChoiceError, labels_from_columns, scores_in_label_order
from .signals import install_signal_handlers, interruption_message
from .exceptions import ValuesError
from .input_checks import stem_of
from .progress import Progress
from .score_kind import default_threshold, evaluation_score_note, kind_of_range
from .staged_outputs import OutputConflict, OutputError, OutputPlan
from .tabular import DEFAULT_BATCH_ROWS, InputFileError, PredictionBatches, Predictions, iter_prediction_batches

#: the folder ``clfeval demo`` writes its pages into when no ``--out`` is given (created if missing)
DEMO_FOLDER = "clfeval-demo"

if TYPE_CHECKING:
    from rich.console import Console

    from .evaluation import Evaluation

__all__ = ["main", "build_parser"]

#: modules of the optional extras (plot, report, files): missing ones get an install hint
OPTIONAL_MODULES = {"matplotlib", "plotly", "rich", "pyarrow", "dask", "distributed"}
#: files whose in-memory evaluation would take more than --memory-budget are streamed; the default
#: is a quarter of this machine's memory (at least 1 GiB; 1 GiB where it cannot be read)
DEFAULT_MEMORY_BUDGET = "auto"
#: the in-memory path's peak memory per byte of the columns read (measured: sorting the scores and
#: building curves and calibration take 8 to 12 times the columns; labels alone about 3 times)
IN_MEMORY_FACTOR = {"scores": 10, "labels": 3}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``clfeval`` command."""
    parser = OneLineParser(
        prog=PROG, description="Evaluate a classifier from its predictions: report, curves, JSON, HTML, PNG.")
    from . import __version__

    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    rep = sub.add_parser(
        "report", help="evaluate the predictions in a CSV, Parquet or Feather file (or a directory of them)",
        description="Evaluate the predictions in FILE (CSV, Parquet or Feather, or a directory of such files "
                    "read as one table). Columns that are not "
                    "named are detected when the layout is obvious (y_true/label/target, y_pred/prediction, "
                    "y_score/score/proba, or one proba_<class> column per class whose suffixes name the "
                    "classes); the columns of several models are an error that names them. --y-pred or "
                    "--y-score stops the detection of other prediction and score columns.")
    rep.add_argument("file", metavar="FILE", help="CSV (.csv, .tsv), Parquet (.parquet) or Feather (.feather, .arrow), "
                                                  "or a directory of files of one of these formats")
    rep.add_argument("--y-true", metavar="COL", help="column of true labels")
    rep.add_argument("--y-pred", metavar="COL", help="column of predicted labels")
    rep.add_argument("--y-score", metavar="COL[,COL...]",
                     help="score column(s): one for binary (score of the positive class), one per class otherwise, "
                          "in label order")
    rep.add_argument("--pos-label", metavar="LABEL", help="the positive class (binary)")
    rep.add_argument("--labels", metavar="L1,L2,...", help="the classes and their order")
    rep.add_argument("--threshold", metavar="T|RULE",
                     help="predict positive when score >= T (default 0.5 for probabilities, 0 for decision scores), "
                          "or where a rule puts the threshold: youden, max-f1, max-fbeta (with --beta), break-even, "
                          "closest-topleft, min-cost (with --cost), or recall=R, precision=P, specificity=S, "
                          "sensitivity=S (the best threshold meeting that bound)")
    rep.add_argument("--cost", metavar="MATRIX|FILE",
                     help="cost matrix, rows true and columns predicted in label order: inline as '0,1;5,0' or a "
                          ".json / .csv file; adds the expected cost, the cost-sensitive error rate and the "
                          "min-cost operating point")
    rep.add_argument("--prevalence", metavar="P[,P...]",
                     help="class shares to weigh the costs by (binary: the positive class's share); default: "
                          "the data's mix")
    rep.add_argument("--sample-weight", metavar="COL", help="column of sample weights")
    rep.add_argument("--beta", type=float, metavar="B", help="add an F-beta column")
    rep.add_argument("--name", help="model name (default: the file name)")
    rep.add_argument("--ci", nargs="?", const="analytic", choices=("analytic", "delong", "bootstrap", "bca"),
                     metavar="METHOD",
                     help="confidence intervals of every number: analytic (default: Wilson, MOVER, delta method "
                          "on the logit scale, DeLong on the logit scale), delong (analytic with pROC's plain "
                          "DeLong interval of the AUC), bootstrap or bca")
    rep.add_argument("--ci-sampling", choices=("cross-sectional", "stratified"), default="cross-sectional",
                     help="how the test set was drawn, which the bootstrap repeats: cross-sectional (default: "
                          "cases drawn whatever their class, so the prevalence varies) or stratified (so many "
                          "cases of each class, by design)")
    rep.add_argument("--level", type=float, default=0.95, help="confidence level of --ci (default 0.95)")
    _add_outputs(rep, html_help="write the HTML report (self-contained, works offline)")
    progress = rep.add_mutually_exclusive_group()
    progress.add_argument("--progress", dest="progress", action="store_true", default=None,
                          help="always show a progress bar while reading")
    progress.add_argument("--no-progress", dest="progress", action="store_false",
                          help="never show a progress bar (default: for files over 64 MiB on a terminal)")
    _add_streaming(rep)

    cmp = sub.add_parser(
        "compare", help="compare two or more models' predictions or scores in one file, with paired tests",
        description="Compare models evaluated on the same cases: each --model NAME=COL names a column of "
                    "predicted labels or of scores (NAME=COL1,COL2,... for one score column per class). "
                    "Prints each model's numbers side by side and, for every pair, McNemar's test on the "
                    "predictions, DeLong's test on the scores (binary AUC, or the macro one-vs-rest AUC) "
                    "and a paired bootstrap of macro F1.")
    cmp.add_argument("file", metavar="FILE", help="CSV, Parquet or Feather")
    cmp.add_argument("--y-true", metavar="COL",
                     help="column of true labels (default: detected as in report: y_true, label, target, ...)")
    cmp.add_argument("--model", metavar="NAME=COL[,COL...]", action="append", required=True,
                     help="a model and its column(s); give two or more")
    cmp.add_argument("--pos-label", metavar="LABEL", help="the positive class (binary)")
    cmp.add_argument("--labels", metavar="L1,L2,...", help="the classes and their order")
    cmp.add_argument("--threshold", type=float, metavar="T", help="predict positive when score >= T")
    cmp.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    cmp.add_argument("--n-resamples", type=int, default=2000, metavar="B", help="bootstrap replicates (default 2000)")
    cmp.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    _add_outputs(cmp, html_help="write the HTML report of all models")
    bars = cmp.add_mutually_exclusive_group()
    bars.add_argument("--progress", dest="progress", action="store_true", default=None,
                      help="always show a progress bar on standard error")
    bars.add_argument("--no-progress", dest="progress", action="store_false",
                      help="never show a progress bar (default: on a terminal, for steps that take over a second)")

    demo = sub.add_parser(
        "demo", help="evaluate the example data shipped with clfeval and write its HTML report",
        description="Evaluate two models on built-in example data (a binary and a multi-class data set): "
                    "the two models have the same confusion matrix but different ROC curves.")
    demo.add_argument("--kind", choices=("all", "binary", "multiclass"), default="all",
                      help="which example (default: both)")
    demo.add_argument("--out", metavar="PATH", default=None,
                      help=f"folder for the HTML reports (default: ./{DEMO_FOLDER}, created if missing), "
                           "or a .html file with one --kind")
    demo.add_argument("--no-html", action="store_true", help="print only; write no file")
    return parser


def _add_streaming(p: argparse.ArgumentParser) -> None:
    big = p.add_argument_group(
        "large files", "A directory, or a file whose evaluation in memory would take more than --memory-budget, is "
                       "streamed: read in batches into mergeable statistics, in bounded memory, with the numbers of "
                       "the in-memory path. Past 2^24 distinct scores a stream bins them (a notice says so; ROC "
                       "AUC and average precision then come with exact bounds). A stream gives --ci analytic of "
                       "binary, unweighted data only.")
    big.add_argument("--stream", action="store_true", help="stream even a file that fits the memory budget")
    big.add_argument("--memory-budget", metavar="SIZE", type=_byte_size, default=DEFAULT_MEMORY_BUDGET,
                     help="stream a file when evaluating it in memory would take more than SIZE (estimated: "
                          f"about {IN_MEMORY_FACTOR['scores']} times its columns' bytes with scores, "
                          f"{IN_MEMORY_FACTOR['labels']} times without; default: a quarter of this machine's "
                          f"memory, here {_size(_auto_budget())}; e.g. 500MB, 2GiB)")
    big.add_argument("--batch-rows", metavar="N", type=_positive_int, default=DEFAULT_BATCH_ROWS,
                     help=f"rows per batch when streaming (default {DEFAULT_BATCH_ROWS:,})")
    scores = big.add_mutually_exclusive_group()
    scores.add_argument("--exact", action="store_true",
                        help="never bin the scores of a stream (memory grows with the distinct scores)")
    scores.add_argument("--bins", metavar="BITS", type=_bits,
                        help="stream, binning the scores from the first row on a grid of BITS mantissa bits (1-52; "
                             "relative bin width 2^-BITS)")
    big.add_argument("--scheduler", metavar="ADDRESS",
                     help="evaluate on the Dask cluster at ADDRESS (e.g. tcp://host:8786; needs clfeval[dask])")


_SIZE_UNITS = {"": 1, "b": 1, "k": 2**10, "kib": 2**10, "kb": 10**3, "m": 2**20, "mib": 2**20, "mb": 10**6,
               "g": 2**30, "gib": 2**30, "gb": 10**9, "t": 2**40, "tib": 2**40, "tb": 10**12}


def _auto_budget() -> int:
    """A quarter of the physical memory, at least 1 GiB (1 GiB where it cannot be read)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 2**30
    return max(2**30, total // 4)


def _byte_size(text: str) -> int:
    """'1GiB', '500MB', '2g', '1e9' -> bytes (K, M, G, T and KiB... are powers of 1024; KB... of 1000);
    'auto': a quarter of this machine's memory.

    >>> _byte_size("1GiB"), _byte_size("1.5 MB"), _byte_size("2k"), _byte_size("100")
    (1073741824, 1500000, 2048, 100)
    """
    if text.strip().lower() == "auto":
        return _auto_budget()
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?(?:e[+-]?\d+)?)\s*([a-z]*)\s*", text.lower())
    if m is None or m.group(2) not in _SIZE_UNITS:
        raise argparse.ArgumentTypeError(f"{text!r}: give a size such as 512MiB, 2GB or 1e9 (bytes)")
    return int(float(m.group(1)) * _SIZE_UNITS[m.group(2)])


def _positive_int(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a positive whole number")
    return value


def _bits(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 52:
        raise argparse.ArgumentTypeError(f"{text!r}: give the mantissa bits of the bin grid, 1 to 52 (e.g. 16)")
    return value


def _size(n: float) -> str:
    """Bytes for people: '1.5 GiB'."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


def _add_outputs(p: argparse.ArgumentParser, html_help: str) -> None:
    p.add_argument("--json", metavar="PATH", help="write everything as JSON ('-': to standard output, and the "
                                                  "terminal report to standard error)")
    p.add_argument("--html", metavar="PATH", help=html_help)
    p.add_argument("--png", metavar="DIR", help="write the plots as PNG files into DIR")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (0 ok, 1 bad data or files, 2 bad usage)."""
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    args.argv = list(sys.argv[1:] if argv is None else argv)  # the options as typed, for messages
    if args.command is None:
        parser.print_help()
        return 2
    try:
        with warnings_as_notes():  # warnings: one note line each, never Python's warning lines
            if args.command == "report":
                return _report(args)
            if args.command == "compare":
                return _compare(args)
            return _demo(args)
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
    except KeyboardInterrupt as exc:  # SIGINT, SIGTERM, SIGHUP (see clfeval.command)
        return _fail(*interruption_message(exc))
    except Exception as exc:  # a Dask cluster that lost its workers
        message = cluster_error(exc, getattr(args, "scheduler", None))
        if message is None:
            raise
        return _fail(message)
    return 0


def _fail(message: str, status: int = 1) -> int:
    print(f"{PROG}: error: {' '.join(message.split())}", file=sys.stderr)
    return status


# ---------------------------------------------------------------- report


def _report(args: argparse.Namespace) -> int:
    check_options(args)
    outputs = _Outputs(args.json, args.html, args.png, inputs=[("FILE", args.file), ("--cost", args.cost)])
    if args.ci not in (None, "analytic", "delong") and args.sample_weight is not None:
        raise UsageError(f"--ci {args.ci} with --sample-weight: the bootstrap resamples counts of cases; "
                         "use --ci analytic for weighted cases")
    costs = None if args.cost is None else read_costs(args.cost)
    prevalence = None if args.prevalence is None else [float(v) for v in args.prevalence.split(",")]
    if prevalence is not None and costs is None:
        raise UsageError("--prevalence weighs the costs: give --cost too")
    rule = threshold_rule(args.threshold)
    if rule is not None and rule[0] == "min-cost" and costs is None:
        raise UsageError("--threshold min-cost needs a cost matrix: give --cost")
    notices: list[str] = []
    score_range, score_columns = None, args.y_score.split(",") if args.y_score else None
    used_columns: list[Any] = [None, None]  # the JSON entry "columns", the note on the columns not read
    if args.scheduler is not None:
        ev, detected = _evaluate_on_cluster(args, notices, rule, used_columns)
    else:
        batches = iter_prediction_batches(args.file, y_true=args.y_true, y_pred=args.y_pred, y_score=args.y_score,
                                          sample_weight=args.sample_weight, batch_rows=args.batch_rows,
                                          progress=args.progress, labels=args.labels)
        why = _why_stream(batches, args)
        if why is None:
            data = batches.read_all()  # with its own bar for a large file
            with Progress(1, force=args.progress) as bar, bar.step("evaluating"):
                ev = _evaluate_file(data, args, notices, rule, _columns(batches))
                ev.report  # noqa: B018 - computed inside the bar's step
        else:
            ev = _stream_file(batches, args, notices, rule, why)
        detected, score_range, score_columns = batches.detected, batches.score_range, batches.score_columns
        used_columns = [batches.columns_used, batches.unused_note]
    _check_stream_intervals(ev, args)
    if costs is not None:  # before any rule uses it: a wrong size is a usage error either way
        _check_costs_shape(ev, costs)
        check_prevalence_size(prevalence, ev.names, args)
    if rule is None and args.threshold is not None:
        check_probability_threshold(ev.score_kind, float(args.threshold), f"--threshold {args.threshold}")
    if rule is not None:
        ev = _apply_rule(ev, rule, costs, prevalence, args.beta, notices)
    add_notes(ev, [flipped_scores_note(ev) or ""])
    # scores outside [0, 1]: how they were read (clfeval.score_kind) and which threshold applies
    note = evaluation_score_note(ev, score_range, columns=score_columns,
                                 threshold_given=None if args.threshold is None else f"--threshold {args.threshold}")
    if note is not None:
        notices.append(f"note: {note}")
    if used_columns[1]:
        notices.insert(0, used_columns[1])
    if detected:
        notices.insert(0, f"detected columns: {'; '.join(detected)}")
    with Progress(1 + (args.ci is not None), force=args.progress) as bar:
        with bar.step("operating points, costs and calibration"):
            thresholds = ev.thresholds_dict(costs=costs, prevalence=prevalence)
        if args.ci is not None:
            with bar.step(f"{args.ci} confidence intervals"):
                intervals = ev.intervals(args.level, method=args.ci, sampling=args.ci_sampling)
    for notice in notices:
        print(f"{PROG}: {notice}", file=sys.stderr)
    console = _console(outputs.to_stdout)
    from .report.terminal import print_binning, print_evaluation, print_intervals, print_thresholds

    print_evaluation(ev, console)
    print_binning(ev, console)
    print_thresholds(ev, thresholds, console)
    extra: dict[str, Any] | None = None
    if args.ci is not None:
        console.print()
        print_intervals(ev, intervals, console)
        from .evaluation import intervals_to_plain

        extra = {"intervals": intervals_to_plain(intervals)}
    extra = {**thresholds, **(extra or {}), **({"columns": used_columns[0]} if used_columns[0] else {})}
    html_items = None
    if args.ci is not None or costs is not None or used_columns[0]:
        item = {**ev.to_dict(), **extra}
        if args.html is not None and ev.has_scores and ev._sample_weight is None and ev._streamed != "weighted":
            from .report.html import bands_dict

            item["bands"] = bands_dict(ev, args.level)
        html_items = [item]
    outputs.write([ev], title=f"clfeval report: {ev.name}", console=console, json_extra=extra, html_items=html_items)
    return 0


def _apply_rule(ev: Evaluation, rule: tuple[str, float | None], costs: Any, prevalence: Any, beta: float | None,
                notices: list[str]) -> Evaluation:
    """``ev`` at the threshold the rule picks (binary scores only)."""
    name, bound = rule
    if ev.task != "binary" or not ev.has_scores:
        raise UsageError(f"--threshold {name}: a threshold rule needs binary scores (this is a "
                         f"{ev.task} evaluation{'' if ev.has_scores else ' without scores'})")
    options: dict[str, Any] = {}
    if name == "max-fbeta":
        if beta is None:
            raise UsageError("--threshold max-fbeta needs --beta")
        options["beta"] = beta
    elif name == "min-cost":
        options.update(costs=costs, prevalence=prevalence)
    elif bound is not None:
        options["at"] = bound
    point = ev.operating_point(name, **options)
    what = name if bound is None else f"{name} >= {bound:g}"
    notices.append(f"threshold {point.threshold:.6g} chosen by --threshold {what} (value {point.value:.6g})")
    return ev.at(point.threshold)


def _check_costs_shape(ev: Evaluation, costs: np.ndarray) -> None:
    k = len(ev.labels)
    if costs.shape != (k, k):
        raise UsageError(f"--cost: the data have {k} classes ({', '.join(ev.names)}), so the cost matrix must be "
                         f"{k} x {k}; got {costs.shape[0]} x {costs.shape[1]}")


def _evaluate_file(data: Predictions, args: argparse.Namespace, notices: list[str],
                   rule: tuple[str, float | None] | None = None, columns: dict[str, Any] | None = None) -> Evaluation:
    from .evaluation import evaluate

    options, use_pred = _evaluate_options(data, args, notices, rule, stem_of(data.path))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined values are listed in the report's notes
        try:
            return evaluate(data.y_true, data.y_pred if use_pred else None, data.y_score,
                            sample_weight=data.sample_weight, **options)
        except ValuesError as exc:
            raise data_error(exc, _where(data, columns, args)) or _in_words(exc, data.path, columns) from None
        except ValueError as exc:
            raise _in_words(exc, data.path, columns) from None


def _evaluate_options(data: Predictions, args: argparse.Namespace, notices: list[str],
                      rule: tuple[str, float | None] | None, name: str) -> tuple[dict[str, Any], bool]:
    """The options of ``evaluate`` (labels, pos_label, threshold, beta, name) from the command line,
    typed like the labels in ``data`` (the file, or its first batch), and whether the file's
    prediction column is used."""
    y_true = data.y_true
    labels = None if args.labels is None else [_as_label(v.strip(), y_true, "--labels") for v in args.labels.split(",")]
    pos_label = None if args.pos_label is None else _as_label(args.pos_label, y_true, "--pos-label")
    check_labels(labels, pos_label, args)
    y_score = data.y_score
    # per-class score columns name their classes (the label order); one class's column, the positive class
    labels, pos_label = labels_from_columns(data.score_labels, y_true, labels, pos_label, data.score_columns)
    y_pred = data.y_pred
    threshold = None if args.threshold is None or rule is not None else float(args.threshold)
    if rule is not None and y_pred is not None and y_score is not None:
        y_pred = None  # the rule reads the scores; a prediction column gives way to it
        notices.append(f"predictions derived from the scores at the --threshold {args.threshold} threshold "
                       "(the file's prediction column is not used)")
    if threshold is not None and y_pred is not None:
        if args.y_pred is not None or y_score is None:
            raise UsageError("--threshold derives the predictions from the scores; it cannot be used with --y-pred")
        y_pred = None  # a detected prediction column gives way to the threshold
        notices.append(f"predictions derived from the scores at --threshold {threshold:g} "
                       "(the file's prediction column is not used)")
    options = {"labels": labels, "pos_label": pos_label, "threshold": threshold, "beta": args.beta,
               "name": args.name or name}
    return options, y_pred is not None


# ---------------------------------------------------------------- report: streaming


def _why_stream(batches: PredictionBatches, args: argparse.Namespace) -> str | None:
    """Why the file is streamed (words for the notice), or None to read it in memory."""
    if batches.is_directory:
        return f"a directory of {len(batches.files)} {batches.format} file{'s' if len(batches.files) > 1 else ''}"
    if args.stream:
        return "--stream"
    if args.bins is not None:
        return "--bins"
    need = batches.estimated_memory * IN_MEMORY_FACTOR["scores" if batches.score_columns else "labels"]
    if need > args.memory_budget:
        return f"in memory it would take about {_size(need)}, over --memory-budget {_size(args.memory_budget)}"
    return None


def _stream_settings(args: argparse.Namespace) -> dict[str, Any]:
    """StreamingEvaluation's mode and bits from --exact / --bins."""
    if args.exact:
        return {"mode": "exact"}
    return {} if args.bins is None else {"mode": "binned", "bits": args.bins}


class _BatchError(Exception):
    """A batch the stream refused (a ValueError of ``update``), with where it was."""

    def __init__(self, batch: Predictions, error: ValueError) -> None:
        super().__init__(str(error))
        self.batch, self.error = batch, error

    def input_error(self, columns: dict[str, Any], args: argparse.Namespace) -> InputFileError | UsageError:
        b = self.batch
        if isinstance(self.error, ValuesError):  # the bad value's own row and column
            better = data_error(self.error, _where(b, columns, args, partial=True))
            if better is not None:
                return better
        rows = f"data rows {b.first_row + 1}-{b.first_row + b.n_rows}"
        if b.folder_row is not None:
            rows += f" (rows {b.folder_row + 1}-{b.folder_row + b.n_rows} of the directory)"
        # the stream's hints name its Python arguments; here they are options and columns
        return InputFileError(f"{b.path}, {rows}: {in_cli_words(str(self.error), columns)}")


def _columns(batches: PredictionBatches) -> dict[str, Any]:
    """The column of each argument of ``evaluate``, for messages."""
    return {"y_true": batches.y_true_column, "y_pred": batches.y_pred_column, "y_score": batches.score_columns,
            "sample_weight": batches.weight_column}


def _where(data: Predictions, columns: dict[str, Any] | None, args: argparse.Namespace, partial: bool = False
           ) -> Where:
    """Where ``data``'s arrays lie (for the rows and columns of a data error's message)."""
    options = {"--labels": args.labels, "--pos-label": args.pos_label, "--threshold": args.threshold}
    return Where(data.path, columns or {"y_score": data.score_columns}, first_row=data.first_row,
                 folder_row=data.folder_row, partial=partial, argv=getattr(args, "argv", None), options=options,
                 arrays={"y_true": data.y_true, "y_pred": data.y_pred})


def _in_words(exc: ValueError, path: Any, columns: dict[str, Any] | None) -> InputFileError:
    """A library error about ``path``'s columns, its argument names in the command's words."""
    return InputFileError(f"{path}: {in_cli_words(str(exc), columns)}")


def _stream_file(batches: PredictionBatches, args: argparse.Namespace, notices: list[str],
                 rule: tuple[str, float | None] | None, why: str) -> Evaluation:
    """Evaluate the file batch by batch (bounded memory); the same options as in memory."""
    if args.ci is not None and (args.ci not in ("analytic", "delong") or len(batches.score_columns) > 2):
        raise UsageError(f"--ci {args.ci}: {batches.path} is streamed ({why}), and a stream keeps counts, not rows: "
                         f"it gives --ci analytic (binary, unweighted) only{_in_memory_hint(batches, why)}")
    if args.ci is not None and batches.weight_column is not None:
        raise UsageError(f"--ci with --sample-weight: {batches.path} is streamed ({why}), and intervals of weighted "
                         f"rows need each row's weight, which a stream does not keep{_in_memory_hint(batches, why)}")
    settings = _stream_settings(args)
    with contextlib.closing(iter(batches)) as rows:
        first = next(rows, None)
        if first is None:
            raise batches.empty_error()
        options, use_pred = _evaluate_options(first, args, notices, rule, stem_of(batches.path))
        try:
            stream, count = _stream(itertools.chain([first], rows), options, settings, use_pred)
            failure = None
        except _BatchError as exc:
            failure = exc
    if failure is not None:
        if isinstance(failure.error, ValuesError) and failure.error.kind == "mixed-types":
            raise _text_row_error(batches, failure, args) from None
        # the first batches did not show every class (or the scores' kind): learn them from
        # every row, then stream again with them fixed
        fixed = _options_from_all_rows(batches, options, use_pred) if first.y_score is not None else None
        if fixed is None:
            raise failure.input_error(_columns(batches), args) from None
        with contextlib.closing(iter(batches)) as rows:
            try:
                stream, count = _stream(rows, fixed, settings, use_pred)
            except _BatchError as exc:
                raise exc.input_error(_columns(batches), args) from None
        notices.append("the first rows did not show every class or the kind of scores: read the file once to "
                       "learn them, then streamed it again")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = stream.result()
    notices.append(f"streamed {batches.path} ({why}): {stream.n_samples:,} rows in {count:,} "
                   f"batch{'es' if count > 1 else ''} of at most {batches.batch_rows:,} rows")
    if stream.binned or settings.get("mode") == "binned":
        bounds = ", with exact bounds in the JSON 'binning' entry" if ev.binning else ""
        notices.append(f"scores binned ({stream.bits} mantissa bits, relative bin width 2^-{stream.bits}): ROC AUC and "
                       f"average precision are those of the binned scores{bounds}"
                       + ("" if args.bins is not None else "; --exact keeps every score"))
    return ev


def _text_row_error(batches: PredictionBatches, failure: _BatchError, args: argparse.Namespace
                    ) -> InputFileError | UsageError:
    """Text among number labels, refused by a batch that may not hold the text itself: the error of
    the first batch that does (it names the row)."""
    argument = failure.error.argument  # type: ignore[attr-defined]
    if argument in ("y_true", "y_pred"):
        with contextlib.closing(iter(batches)) as rows:
            for b in rows:
                if first_text(getattr(b, argument)) is not None:
                    return _BatchError(b, failure.error).input_error(_columns(batches), args)
    return failure.input_error(_columns(batches), args)


def _stream(batches: Any, options: dict[str, Any], settings: dict[str, Any], use_pred: bool) -> tuple[Any, int]:
    """A StreamingEvaluation of every batch, and how many batches there were."""
    from .streaming import StreamingEvaluation

    stream = StreamingEvaluation(**options, **settings)
    count = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined values: the report's notes; binning: a notice
        for batch in batches:
            try:
                stream.update(batch.y_true, batch.y_pred if use_pred else None, batch.y_score, batch.sample_weight)
            except ValueError as exc:
                raise _BatchError(batch, exc) from None
            count += 1
    return stream, count


def _options_from_all_rows(batches: PredictionBatches, options: dict[str, Any], use_pred: bool
                           ) -> dict[str, Any] | None:
    """``options`` with the classes of every row (when --labels did not give them) and, for binary
    scores without --threshold, the default threshold of all the scores (by the rule of
    :mod:`clfeval.score_kind`, as ``evaluate`` picks it); None if nothing is left to fix."""
    from .labels import union_labels, unique_sorted

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
    fixed = dict(options)
    if options["labels"] is None and classes and classes[0].size >= 2:
        fixed["labels"] = classes[0]
    binary = fixed["labels"] is not None and len(fixed["labels"]) == 2
    if options["threshold"] is None and not use_pred and one_column and binary:
        fixed["threshold"] = default_threshold(kind_of_range(lo, hi))
    changed = fixed["labels"] is not options["labels"] or fixed["threshold"] is not options["threshold"]
    return fixed if changed else None


def _in_memory_hint(batches: PredictionBatches, why: str) -> str:
    if batches.is_directory:
        return ""
    if why.startswith("--"):
        return f"; leave out {why} to read the file in memory"
    return "; a larger --memory-budget reads the file in memory"


def _check_stream_intervals(ev: Evaluation, args: argparse.Namespace) -> None:
    """--ci on an evaluation built from statistics (a stream, a cluster): what it can give."""
    if args.ci is None or ev._streamed is None:
        return
    if ev._streamed == "weighted":
        raise UsageError(f"--ci with sample weights: {args.file} was streamed, and intervals of weighted rows need "
                         "each row's weight, which a stream does not keep")
    if ev.task != "binary" or args.ci not in ("analytic", "delong"):
        raise UsageError(f"--ci {args.ci}: {args.file} was streamed, and a stream keeps counts, not rows: it gives "
                         f"--ci analytic (binary, unweighted) only, and this is a {ev.task} evaluation")


def _evaluate_on_cluster(args: argparse.Namespace, notices: list[str], rule: tuple[str, float | None] | None,
                         used_columns: list[Any]) -> tuple[Evaluation, list[str]]:
    """--scheduler: ``clfeval.dask.evaluate_file`` on the cluster, with the options of the other paths
    (labels typed from the file's first rows where it can be read here)."""
    try:
        from .dask import evaluate_file
    except ImportError as exc:
        if isinstance(exc, ModuleNotFoundError) and exc.name == f"{__package__}.dask":
            raise UsageError("--scheduler: this installation of clfeval has no Dask engine (clfeval.dask); "
                             "leave out --scheduler to evaluate on this machine") from None
        raise UsageError(f"--scheduler: {exc}") from None  # e.g. dask itself is not installed
    columns: dict[str, Any] = {"y_true": args.y_true, "y_pred": args.y_pred, "y_score": args.y_score,
                               "sample_weight": args.sample_weight}
    detected: list[str] = []
    name = stem_of(args.file)
    if Path(args.file).exists():
        batches = iter_prediction_batches(args.file, **columns, batch_rows=10_000, progress=False, labels=args.labels)
        with contextlib.closing(iter(batches)) as rows:
            first = next(rows, None)
        if first is None:
            raise batches.empty_error()
        options, use_pred = _evaluate_options(first, args, notices, rule, name)
        columns = {"y_true": batches.y_true_column, "y_pred": batches.y_pred_column if use_pred else None,
                   "y_score": batches.score_columns or None, "sample_weight": batches.weight_column}
        detected = batches.detected
        used_columns[:] = [batches.columns_used, batches.unused_note]
    else:  # only the cluster sees the file: the labels stay text
        threshold = None if args.threshold is None or rule is not None else float(args.threshold)
        options = {"labels": None if args.labels is None else [v.strip() for v in args.labels.split(",")],
                   "pos_label": args.pos_label, "threshold": threshold, "beta": args.beta, "name": args.name or name}
    given = {k: v for k, v in {**columns, **options, **_stream_settings(args)}.items() if v is not None}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ev = evaluate_file(args.file, scheduler=args.scheduler, **given)
        except InputFileError as exc:  # a partition's error: its row, columns and options in the command's words
            located = getattr(exc, "values_error", None)
            row = getattr(located, "row", None)
            if located is not None and (row is not None or located.position is None):
                shift = 0 if row is None else row - located.position
                several = getattr(exc, "n_files", 1) > 1
                where = Where(args.file, columns, first_row=None if several else shift,
                              folder_row=shift if several else None, argv=args.argv, options={"--labels": args.labels, "--pos-label": args.pos_label,
                                                       "--threshold": args.threshold})
                better = data_error(located, where)
                if better is not None:
                    raise better from None
            head, sep, rest = str(exc).partition(": ")
            raise InputFileError(f"{head}{sep}{in_cli_words(rest, columns)}" if sep else str(exc)) from None
    if not hasattr(ev, "report") and hasattr(ev, "result"):  # a StreamingEvaluation
        ev = ev.result()
    notices.append(f"evaluated {args.file} with Dask (scheduler {args.scheduler})")
    return ev, detected


def _as_label(text: str, like: Any, option: str) -> Any:
    """A label given on the command line, typed like the labels in the file."""
    kind = getattr(like, "dtype", None)
    kind = kind.kind if kind is not None else "U"
    try:
        if kind in "iu":
            return int(text)
        if kind == "f":
            return float(text)
        if kind == "b":
            low = text.lower()
            if low in ("true", "1", "false", "0"):
                return low in ("true", "1")
            raise ValueError(text)
    except ValueError:
        raise UsageError(f"{option} {text!r}: the labels in the file are {_kind_name(kind)}") from None
    return text


def _kind_name(kind: str) -> str:
    return {"i": "integers", "u": "integers", "f": "numbers", "b": "booleans"}.get(kind, "text")


def _console(stderr: bool = False) -> Console:
    """The terminal report's console; on standard error when an output (``--json -``) takes standard output."""
    from rich.console import Console

    # piped output keeps whole lines (no wrapping at 80 columns)
    if (sys.stderr if stderr else sys.stdout).isatty():
        return Console(stderr=stderr)
    return Console(stderr=stderr, width=max(100, shutil.get_terminal_size((120, 24)).columns))


# ---------------------------------------------------------------- outputs


class _Outputs:
    """The files asked for: checked before any input is read (see :class:`OutputPlan`), rendered
    once everything is computed, then written all together or not at all."""

    def __init__(self, json_path: str | None, html_path: str | None, png_dir: str | None,
                 inputs: Sequence[tuple[str, str | None]] = ()) -> None:
        self.html = html_path
        try:
            self.plan = OutputPlan([("--json", json_path), ("--html", html_path)], png_dir, inputs)
        except OutputConflict as exc:
            raise UsageError(str(exc)) from None
        self.to_stdout = self.plan.to_stdout

    def write(self, evaluations: list[Evaluation], title: str, console: Console,
              json_extra: dict[str, Any] | None = None, html_items: list[Any] | None = None,
              html_tests: list[dict[str, Any]] | None = None, model_extras: list[dict[str, Any]] | None = None
              ) -> None:
        """Render every output asked for, then write them; ``html_items`` (e.g. to_dict()s with
        intervals) replace the evaluations in the HTML page; ``model_extras``: entries added to each
        model's dict (JSON and HTML) when there are several."""
        contents = []
        if model_extras is not None and html_items is None:
            html_items = [{**ev.to_dict(), **more} for ev, more in zip(evaluations, model_extras)]
        for out in self.plan.files:
            if out.option == "--json":
                contents.append(_json_of(evaluations, json_extra, model_extras).encode())
            else:
                from .report.html import render_html

                contents.append(render_html(html_items or evaluations, title=title, tests=html_tests).encode())
        pngs: list[tuple[str, bytes]] = []
        if self.plan.png is not None:
            from .plot import render_pngs

            pngs = render_pngs(evaluations if len(evaluations) > 1 else evaluations[0])
        try:
            self.plan.write(contents, pngs)
        except OutputConflict as exc:  # a plot named like another output: known only now, still nothing written
            raise UsageError(str(exc)) from None
        for out in self.plan.files:
            console.print(f"wrote the {out.option[2:].upper()} to standard output" if out.path is None
                          else f"wrote {out.shown}")
        if pngs and self.plan.png is not None:
            console.print(f"wrote {len(pngs)} PNG files to {self.plan.png.shown.rstrip('/')}/: "
                          f"{', '.join(name for name, _ in pngs)}")


def _json_of(evaluations: list[Evaluation], extra: dict[str, Any] | None = None,
             model_extras: list[dict[str, Any]] | None = None) -> str:
    """One evaluation's dict (plus ``extra`` entries), or {"models": [...], **extra} for several
    (each model's dict with its ``model_extras`` entries)."""
    import json

    from .evaluation import json_safe

    if len(evaluations) == 1:
        data = {**evaluations[0].to_dict(), **(extra or {})}
    else:
        data = {"models": [{**ev.to_dict(), **more} for ev, more in zip(evaluations, model_extras or [{}] * len(evaluations))],
                **(extra or {})}
    return json.dumps(json_safe(data), indent=2, allow_nan=False) + "\n"


# ---------------------------------------------------------------- compare


def _model_specs(specs: list[str]) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for spec in specs:
        name, sep, cols = spec.partition("=")
        columns = [c.strip() for c in cols.split(",") if c.strip()]
        if not sep or not name.strip() or not columns:
            raise UsageError(f"--model {spec!r}: write NAME=COLUMN or NAME=COL1,COL2,... (one score column per class)")
        out.append((name.strip(), columns))
    names = [n for n, _ in out]
    if len(out) < 2:
        raise UsageError("compare needs at least two --model options")
    if len(set(names)) != len(names):
        raise UsageError(f"--model names must differ, got {names}")
    return out


def _compare(args: argparse.Namespace) -> int:
    from .report.terminal import print_comparison, print_tests

    check_options(args)
    outputs = _Outputs(args.json, args.html, args.png, inputs=[("FILE", args.file)])
    specs = _model_specs(args.model)
    from .tabular import detect_true_column, read_models

    if args.y_true is None:  # found as report finds it, among the columns no model reads
        args.y_true = detect_true_column(args.file, specs)
        print(f"{PROG}: detected columns: y_true = {args.y_true}", file=sys.stderr)
    y_true, models, _ = read_models(args.file, y_true=args.y_true, models=specs, progress=args.progress)
    labels = None if args.labels is None else [_as_label(v.strip(), y_true, "--labels") for v in args.labels.split(",")]
    pos_label = None if args.pos_label is None else _as_label(args.pos_label, y_true, "--pos-label")
    check_labels(labels, pos_label, args)
    for m in models:  # per-class columns named after their classes, in any order: put in label order
        m.y_score = scores_in_label_order(m.y_score, m.columns, y_true, labels)
    evs, preds, stderr_notes = [], [], []
    bar = Progress(len(models) * (len(models) + 1) // 2, force=args.progress)  # models, then pairs
    with bar:
        for m in models:
            with bar.step(f"evaluating model {m.name}"):
                _compare_model(m, y_true, labels, pos_label, args, evs, preds, stderr_notes)
        tests = _paired_tests(y_true, models, evs, preds, args, bar)
    for note in stderr_notes:
        print(f"{PROG}: note: {note}", file=sys.stderr)
    console = _console(outputs.to_stdout)
    print_comparison(evs, console)
    console.print()
    print_tests(tests, args.level, console)
    print_model_notes(evs, console)
    extra = {"tests": [{"model_a": a, "model_b": b, "test": t, "result": r.to_dict(args.level)}
                       for a, b, t, r in tests]}
    read = [{"columns": {"y_true": args.y_true, "y_pred": m.columns[0] if m.y_pred is not None else None,
                         "y_score": list(m.columns) if m.y_pred is None else [], "sample_weight": None,
                         "unused": []}} for m in models]  # which file column was read for what
    outputs.write(evs, title="clfeval compare: " + " vs ".join(ev.name for ev in evs), console=console,
                  json_extra=extra, html_tests=extra["tests"], model_extras=read)
    return 0


def _compare_model(m: Any, y_true: Any, labels: Any, pos_label: Any, args: argparse.Namespace, evs: list[Any],
                   preds: list[Any], stderr_notes: list[str]) -> None:
    """Evaluate one model of ``compare`` (appends to ``evs``, ``preds`` and ``stderr_notes``)."""
    from .evaluation import evaluate, predict_from_scores

    thr = args.threshold if m.y_score is not None and m.y_pred is None else None
    with warning_notes() as model_notes:  # warnings: this model's notes
        try:
            ev = evaluate(y_true, m.y_pred, m.y_score, labels=labels, pos_label=pos_label, threshold=thr,
                          name=m.name)
        except ValuesError as exc:
            columns = {"y_true": args.y_true, "y_pred": m.columns, "y_score": m.columns}
            where = Where(Path(args.file), columns, argv=args.argv, arrays={"y_true": y_true, "y_pred": m.y_pred},
                          options={"--labels": args.labels, "--pos-label": args.pos_label,
                                   "--threshold": args.threshold})
            raise data_error(exc, where) or _in_words(exc, args.file, columns) from None
        except ValueError as exc:
            raise _in_words(exc, args.file, {"y_true": args.y_true, "y_score": m.columns}) from None
    if thr is not None:
        check_probability_threshold(ev.score_kind, thr, f"--threshold {typed(args.argv, '--threshold', thr)}")
    add_notes(ev, [*model_notes, flipped_scores_note(ev) or ""])
    evs.append(ev)
    note = None if m.y_score is None or not m.y_score.size else evaluation_score_note(
        ev, (float(m.y_score.min()), float(m.y_score.max())), columns=m.columns,
        threshold_given=None if args.threshold is None else f"--threshold {args.threshold:g}")
    if note is not None:
        stderr_notes.append(f"model {m.name}: {note}")
    if m.y_pred is not None:
        preds.append(m.y_pred)
    elif ev.task == "multiclass":
        preds.append(predict_from_scores(m.y_score, ev.labels))
    else:
        preds.append(predict_from_scores(m.y_score, ev.labels, pos_label=ev.pos_label, threshold=ev.threshold))
    ev.report  # noqa: B018 - computed here, inside the progress bar's step


def _paired_tests(y_true: Any, models: list[Any], evs: list[Evaluation], preds: list[Any],
                  args: argparse.Namespace, bar: Progress) -> list[tuple[str, str, str, Any]]:
    """(model a, model b, test name, TestResult) for every pair of models."""
    tests = []
    for i in range(len(models)):
        for j in range(i + 1, len(models)):
            with bar.step(f"paired tests {models[i].name} vs {models[j].name}"):
                tests += _pair_tests(y_true, models[i], models[j], (evs[i], evs[j], evs[0]), preds[i], preds[j], args)
    return tests


def _pair_tests(y_true: Any, a: Any, b: Any, evs: tuple[Evaluation, Evaluation, Evaluation], pred_a: Any,
                pred_b: Any, args: argparse.Namespace) -> list[tuple[str, str, str, Any]]:
    """McNemar, DeLong where both models have scores, and the paired bootstrap of macro F1 (over the
    classes of the first model, ``evs[2]``, for every pair)."""
    from .metrics import f1_score
    from .stats.delong import delong, delong_average
    from .stats.mcnemar import mcnemar
    from .stats.paired import paired_bootstrap_test

    ev, ev_b, first = evs
    tests = [(a.name, b.name, "McNemar (accuracy)", mcnemar(y_true, pred_a, pred_b))]
    if ev.task == "multiclass" and a.y_score is not None and b.y_score is not None:
        tests.append((a.name, b.name, "DeLong (macro one-vs-rest ROC AUC)",
                      delong_average(y_true, a.y_score, b.y_score, labels=ev.labels)))
    if ev.task == "binary" and a.y_score is not None and b.y_score is not None:
        sa = a.y_score if a.y_score.ndim == 1 else a.y_score[:, list(ev.labels).index(ev.pos_label)]
        sb = b.y_score if b.y_score.ndim == 1 else b.y_score[:, list(ev_b.labels).index(ev_b.pos_label)]
        tests.append((a.name, b.name, "DeLong (ROC AUC)", delong(y_true, sa, sb, pos_label=ev.pos_label)))
    # a partial of clfeval's f1_score: the bootstrap resamples the joint (true, A, B) cell counts
    macro_f1 = functools.partial(f1_score, average="macro", labels=list(first.labels), zero_division=0)
    tests.append((a.name, b.name, "paired bootstrap (macro F1)", paired_bootstrap_test(
        y_true, pred_a, pred_b, macro_f1, n_resamples=args.n_resamples, seed=args.seed, level=args.level)))
    return tests


# ---------------------------------------------------------------- demo


def _demo(args: argparse.Namespace) -> int:
    from .evaluation import evaluate
    from .examples import demo_kinds, load_demo
    from .report.terminal import print_comparison, print_evaluation

    kinds = list(demo_kinds()) if args.kind == "all" else [args.kind]
    default_folder = args.out is None
    created: Path | None = None  # the default folder, when this run made it: removed again if nothing is written
    out = Path(DEMO_FOLDER if default_folder else args.out)
    single_file = out.suffix.lower() == ".html"
    if single_file and len(kinds) > 1:
        raise UsageError("--out FILE.html needs --kind binary or --kind multiclass (two reports otherwise)")
    targets = {k: out if single_file else out / f"clfeval-demo-{k}.html" for k in kinds}
    plan = None
    if not args.no_html:
        folder = out.parent if single_file else out
        if default_folder and not folder.is_dir():
            try:
                folder.mkdir()
                created = folder
            except OSError as e:
                raise OutputError(f"cannot create the folder {folder} for the demo's HTML reports: "
                                  f"{e.strerror or e} (give another with --out DIR)") from None
        if not folder.is_dir():
            raise OutputError(f"--out {out}: folder {folder} does not exist")
        plan = OutputPlan([("--out", str(targets[k])) for k in kinds])
    console = _console()
    if plan is not None:
        names = ", ".join(targets[k].name for k in kinds)
        console.print(f"clfeval demo: the HTML reports go to {folder.resolve()}{os.sep} ({names})", soft_wrap=True)
        console.print()
    pages: list[tuple[Path, str]] = []
    for kind in kinds:
        demo = load_demo(kind)
        console.rule(f"[bold]{demo.title}")
        console.print(demo.description)
        console.print()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            evs = [evaluate(demo.y_true, m.y_pred, m.y_score, labels=demo.classes, pos_label=demo.pos_label,
                            name=name) for name, m in demo.models.items()]
        print_evaluation(evs[0], console)
        console.print()
        print_comparison(evs, console)
        console.print()
        console.print(_demo_moral(evs))
        console.print(f"[dim]the same from the command line: {_demo_command(demo)}[/dim]", soft_wrap=True)
        console.print()
        if not args.no_html:
            from .report.html import render_html

            pages.append((targets[kind], render_html(evs, title=f"clfeval demo: {demo.title}")))
    if plan is not None:
        try:
            plan.write([text.encode() for _, text in pages])
        except BaseException:
            if created is not None:
                with contextlib.suppress(OSError):
                    created.rmdir()
            raise
    for path, _ in pages:
        console.print(f"wrote the HTML report to {path.resolve()} (open it in a browser; it works offline)")
    return 0



def _demo_command(demo: Any) -> str:
    """The ``clfeval report`` command that evaluates the demo's first model from its file."""
    import shlex

    path = next(iter(demo.models.values())).path
    pos = [] if demo.pos_label is None else ["--pos-label", str(demo.pos_label)]
    return shlex.join(["clfeval", "report", str(path), *pos])


def _demo_moral(evs: list[Evaluation]) -> str:
    import numpy as np

    a, b = evs[0], evs[1]
    same = np.array_equal(a.confusion.counts, b.confusion.counts)
    auc = " vs ".join(f"{ev.report.overall.get('roc_auc', float('nan')):.4f}" for ev in evs)
    if same:
        return (f"The models make the same predictions (identical confusion matrices and reports) but rank the "
                f"samples differently: ROC AUC {auc}. Only the scores tell them apart; the curves show where.")
    return f"ROC AUC {auc}."


if __name__ == "__main__":  # pragma: no cover
    install_signal_handlers()
    with contextlib.suppress(BrokenPipeError):
        sys.exit(main())
