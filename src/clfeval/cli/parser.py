"""The ``clfeval`` command's argument parser: its subcommands (``report``, ``compare``, ``demo``),
their options and help, and the option types (sizes, row counts, bits).

>>> args = build_parser().parse_args(["report", "preds.parquet", "--y-score", "p0,p1,p2", "--json", "out.json"])
>>> args.file, args.y_score, args.json
('preds.parquet', 'p0,p1,p2', 'out.json')
>>> human_size(1536), human_size(3 * 2**30)
('1.5 KiB', '3.0 GiB')
"""

from __future__ import annotations

import argparse
import os
import re

from clfeval.cli.options import PROG, OneLineParser
from clfeval.inputs.tabular import DEFAULT_BATCH_ROWS

__all__ = ["build_parser", "DEMO_FOLDER", "DEFAULT_MEMORY_BUDGET", "IN_MEMORY_FACTOR", "auto_budget", "byte_size",
           "human_size"]

#: the folder ``clfeval demo`` writes its pages into when no ``--out`` is given (created if missing)
DEMO_FOLDER = "clfeval-demo"
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
    from clfeval import __version__

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
                     help="binary: the positive class's prevalence P (0 < P < 1) where the model is used: adds "
                          "PPV, NPV, F, accuracy, MCC, AP and the PR curve at P (and weighs --cost); with --cost, "
                          "class shares to weigh the costs by; default: the data's mix")
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
    rep.add_argument("--partial-fpr", metavar="A,B",
                     help="add the partial AUC over false positive rates A to B (0 <= A < B <= 1), McClish-"
                          "standardised and raw (with --ci, its DeLong-type interval)")
    rep.add_argument("--partial-tpr", metavar="A,B",
                     help="add the partial AUC over true positive rates (sensitivities) A to B, as pROC's "
                          "partial.auc.focus='se'")
    _add_groups(rep, "report")
    _add_outputs(rep, html_help="write the HTML report (self-contained, works offline)")
    rep.add_argument("--mlflow", metavar="EXPERIMENT",
                     help="once every file asked for is written, log the evaluation into a new run of this MLflow "
                          "experiment (created if missing): the numbers as metrics (with --ci, their intervals), the "
                          "JSON, the HTML page, the curves (CSV) and the plots (PNG) as artifacts. The tracking server "
                          "is MLflow's setting: MLFLOW_TRACKING_URI (needs clfeval[mlflow])")
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
    _add_groups(cmp, "compare")
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
                      help=f"folder for the HTML reports (default: ./{DEMO_FOLDER}, created if missing; a folder "
                           "you name must exist), or a .html file with one --kind")
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
    big.add_argument("--memory-budget", metavar="SIZE", type=byte_size, default=DEFAULT_MEMORY_BUDGET,
                     help="stream a file when evaluating it in memory would take more than SIZE (estimated: "
                          f"about {IN_MEMORY_FACTOR['scores']} times its columns' bytes with scores, "
                          f"{IN_MEMORY_FACTOR['labels']} times without; default: a quarter of this machine's "
                          f"memory, here {human_size(auto_budget())}; e.g. 500MB, 2GiB)")
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


def auto_budget() -> int:
    """A quarter of the physical memory, at least 1 GiB (1 GiB where it cannot be read)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 2**30
    return max(2**30, total // 4)


def byte_size(text: str) -> int:
    """'1GiB', '500MB', '2g', '1e9' -> bytes (K, M, G, T and KiB... are powers of 1024; KB... of 1000);
    'auto': a quarter of this machine's memory.

    >>> byte_size("1GiB"), byte_size("1.5 MB"), byte_size("2k"), byte_size("100")
    (1073741824, 1500000, 2048, 100)
    """
    if text.strip().lower() == "auto":
        return auto_budget()
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


def human_size(n: float) -> str:
    """Bytes for people: '1.5 GiB'."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


def _add_groups(p: argparse.ArgumentParser, command: str) -> None:
    """--by, --by-missing (and for report, --by-metric)."""
    if command == "report":
        what = ("Evaluate each group of rows too: the group table (sorted worst first), each group's gap to the "
                "overall with its interval and Holm-adjusted p-value, and for a binary task the fairness summaries "
                "(demographic parity, equalized odds, equal opportunity); every group in the JSON ('groups'). "
                "A streamed file (or --scheduler) gives each group's numbers and the fairness summaries, not the gaps "
                "(their intervals need each row).")
    else:
        what = ("Compare the models within each group of rows too: McNemar's test (and DeLong's with scores) on "
                "each group's rows, the p-values Holm-adjusted over the groups.")
    grp = p.add_argument_group("groups", what)
    grp.add_argument("--by", metavar="COL[,COL...]",
                     help="group column(s); several: each combination of their values present is a group")
    grp.add_argument("--by-missing", choices=("error", "keep"), default=None,
                     help="a missing group value: an error (default), or keep: a group of its own, '(missing)'")
    if command == "report":
        grp.add_argument("--by-metric", metavar="METRIC",
                         help="the metric that sorts the group tables, worst first, and whose gaps are shown "
                              "(default: roc_auc with scores, else balanced_accuracy; any metric of the group "
                              "table: accuracy, recall, fallout, selection_rate, f1.macro, recall.<class>, ...)")


def _add_outputs(p: argparse.ArgumentParser, html_help: str) -> None:
    p.add_argument("--json", metavar="PATH", help="write everything as JSON ('-': to standard output, and the "
                                                  "terminal report to standard error)")
    p.add_argument("--html", metavar="PATH", help=html_help)
    p.add_argument("--png", metavar="DIR", help="write the plots as PNG files into DIR")
