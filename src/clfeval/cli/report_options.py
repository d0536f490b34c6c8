"""What ``clfeval report`` was asked, read once from the command line: :class:`ReportOptions`, which
every engine (memory, stream, Dask) takes; :func:`evaluate_options` types them like the labels of
the data an engine reads first; :func:`apply_rule` applies a ``--threshold`` rule afterwards.

>>> import argparse
>>> args = argparse.Namespace(file="f.csv", y_true=None, y_pred=None, y_score="p", sample_weight=None, labels="0,1",
...                           pos_label="1", threshold="0.3", beta=None, name=None, cost=None, prevalence=None,
...                           ci=None, ci_sampling="cross-sectional", level=0.95, progress=None, stream=False,
...                           memory_budget=2**30, batch_rows=1000, exact=False, bins=None, scheduler=None,
...                           html=None, argv=["report", "f.csv"])
>>> options = report_options(args)
>>> options.threshold, options.rule, options.stream_settings.mode
(0.3, None, 'auto')
>>> as_label("1", np.array([0, 1]), "--pos-label"), as_label("yes", np.array(["no", "yes"]), "--pos-label")
(1, 'yes')
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.cli.groups import check_by_options
from clfeval.cli.partial_auc import read_partial
from clfeval.cli.prevalence import read_at_prevalence
from clfeval.cli.options import UsageError, check_labels, check_prevalence_size, read_costs, threshold_rule
from clfeval.inputs.column_roles import labels_from_columns
from clfeval.inputs.evaluate_options import EvaluateOptions, StreamSettings

if TYPE_CHECKING:
    from clfeval.evaluation import Evaluation
    from clfeval.inputs.tabular import Predictions

__all__ = ["ReportOptions", "report_options", "evaluate_options", "as_label", "apply_rule", "check_costs_shape",
           "check_prevalence"]


@dataclass(frozen=True)
class ReportOptions:
    """The options of ``clfeval report``, read and checked once; option values as typed where the
    messages quote them (``labels``, ``pos_label``, ``threshold_text``, ``prevalence_text``)."""

    file: str
    y_true: str | None
    y_pred: str | None
    y_score: str | None
    sample_weight: str | None
    labels: str | None
    pos_label: str | None
    threshold_text: str | None
    #: the --threshold rule (name, bound), or None for a number or no --threshold
    rule: tuple[str, float | None] | None
    #: --threshold as a number (None for a rule or no --threshold)
    threshold: float | None
    beta: float | None
    name: str | None
    costs: np.ndarray | None
    prevalence: list[float] | None
    prevalence_text: str | None
    ci: str | None
    ci_sampling: str
    level: float
    progress: bool | None
    stream: bool
    memory_budget: int
    batch_rows: int
    exact: bool
    bins: int | None
    scheduler: str | None
    html: str | None
    argv: list[str] | None
    #: the group columns of --by (None: no groups), --by-missing ("error" or "keep") and --by-metric as typed
    by: list[str] | None = None
    by_missing: str = "error"
    by_metric: str | None = None
    #: --mlflow: the MLflow experiment to log into (None: no logging)
    mlflow: str | None = None
    #: --partial-fpr / --partial-tpr: (axis, a, b, the option as typed), or None
    partial: tuple[str, float, float, str] | None = None
    #: --prevalence P (one number, 0 < P < 1): the binary task's measures at that prevalence (clfeval.cli.prevalence)
    at_prevalence: float | None = None

    @property
    def columns(self) -> dict[str, Any]:
        """The columns named on the command line (None: detected)."""
        return {"y_true": self.y_true, "y_pred": self.y_pred, "y_score": self.y_score,
                "sample_weight": self.sample_weight}

    @property
    def stream_settings(self) -> StreamSettings:
        """A stream's mode and bits from --exact / --bins."""
        if self.exact:
            return StreamSettings(mode="exact")
        return StreamSettings() if self.bins is None else StreamSettings(mode="binned", bits=self.bins)

    @property
    def message_options(self) -> dict[str, Any]:
        """The options a data error's message may name, as typed."""
        return {"--labels": self.labels, "--pos-label": self.pos_label, "--threshold": self.threshold_text}

    def untyped(self, default_name: str) -> EvaluateOptions:
        """The options of ``evaluate`` where no data can be read here (only a cluster sees the file):
        the labels stay text."""
        return EvaluateOptions(labels=None if self.labels is None else [v.strip() for v in self.labels.split(",")],
                               pos_label=self.pos_label, threshold=self.threshold, beta=self.beta,
                               name=self.name or default_name)


def report_options(args: argparse.Namespace) -> ReportOptions:
    """The options of ``report`` from its parsed command line (after :func:`~clfeval.cli.options.check_options`),
    with the checks that need several of them together."""
    if args.ci not in (None, "analytic", "delong") and args.sample_weight is not None:
        raise UsageError(f"--ci {args.ci} with --sample-weight: the bootstrap resamples counts of cases; "
                         "use --ci analytic for weighted cases")
    costs = None if args.cost is None else read_costs(args.cost)
    prevalence = None if args.prevalence is None else [float(v) for v in args.prevalence.split(",")]
    at_prevalence = read_at_prevalence(args)  # one number stands alone; class shares need --cost
    rule = threshold_rule(args.threshold)
    if rule is not None and rule[0] == "min-cost" and costs is None:
        raise UsageError("--threshold min-cost needs a cost matrix: give --cost")
    threshold = None if args.threshold is None or rule is not None else float(args.threshold)
    by = check_by_options(args)
    return ReportOptions(
        file=args.file, y_true=args.y_true, y_pred=args.y_pred, y_score=args.y_score,
        sample_weight=args.sample_weight, labels=args.labels, pos_label=args.pos_label,
        threshold_text=args.threshold, rule=rule, threshold=threshold, beta=args.beta, name=args.name, costs=costs,
        prevalence=prevalence, prevalence_text=args.prevalence, ci=args.ci, ci_sampling=args.ci_sampling,
        level=args.level, progress=args.progress, stream=args.stream, memory_budget=args.memory_budget,
        batch_rows=args.batch_rows, exact=args.exact, bins=args.bins, scheduler=args.scheduler, html=args.html,
        argv=getattr(args, "argv", None), by=by, by_missing=getattr(args, "by_missing", None) or "error",
        by_metric=getattr(args, "by_metric", None), mlflow=getattr(args, "mlflow", None),
        partial=read_partial(args), at_prevalence=at_prevalence)


def evaluate_options(options: ReportOptions, data: Predictions, notices: list[str], default_name: str
                     ) -> tuple[EvaluateOptions, bool]:
    """The options of ``evaluate`` (labels, pos_label, threshold, beta, name) from the command line,
    typed like the labels in ``data`` (the file, or its first batch), and whether the file's
    prediction column is used."""
    y_true = data.y_true
    labels = None if options.labels is None else [as_label(v.strip(), y_true, "--labels")
                                                  for v in options.labels.split(",")]
    pos_label = None if options.pos_label is None else as_label(options.pos_label, y_true, "--pos-label")
    check_labels(labels, pos_label, _typed_args(options))
    y_score = data.y_score
    # per-class score columns name their classes (the label order); one class's column, the positive class
    labels, pos_label = labels_from_columns(data.score_labels, y_true, labels, pos_label, data.score_columns)
    y_pred = data.y_pred
    threshold = options.threshold
    if options.rule is not None and y_pred is not None and y_score is not None:
        y_pred = None  # the rule reads the scores; a prediction column gives way to it
        notices.append(f"predictions derived from the scores at the --threshold {options.threshold_text} threshold "
                       "(the file's prediction column is not used)")
    if threshold is not None and y_pred is not None:
        if options.y_pred is not None or y_score is None:
            raise UsageError("--threshold derives the predictions from the scores; it cannot be used with --y-pred")
        y_pred = None  # a detected prediction column gives way to the threshold
        notices.append(f"predictions derived from the scores at --threshold {threshold:g} "
                       "(the file's prediction column is not used)")
    checked = EvaluateOptions(labels=labels, pos_label=pos_label, threshold=threshold, beta=options.beta,
                              name=options.name or default_name)
    return checked, y_pred is not None


def _typed_args(options: ReportOptions) -> argparse.Namespace:
    """The options as the checks of :mod:`clfeval.cli.options` read them (the values as typed)."""
    return argparse.Namespace(labels=options.labels, pos_label=options.pos_label, prevalence=options.prevalence_text,
                              argv=options.argv)


def check_prevalence(options: ReportOptions, classes: Any) -> None:
    """--prevalence against the classes of the evaluation (see :func:`~clfeval.cli.options.check_prevalence_size`)."""
    check_prevalence_size(options.prevalence, classes, _typed_args(options))


def as_label(text: str, like: Any, option: str) -> Any:
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


def apply_rule(ev: Evaluation, options: ReportOptions, notices: list[str]) -> Evaluation:
    """``ev`` at the threshold the --threshold rule picks (binary scores only)."""
    assert options.rule is not None
    name, bound = options.rule
    if ev.task != "binary" or not ev.has_scores:
        raise UsageError(f"--threshold {name}: a threshold rule needs binary scores (this is a "
                         f"{ev.task} evaluation{'' if ev.has_scores else ' without scores'})")
    kwargs: dict[str, Any] = {}
    if name == "max-fbeta":
        if options.beta is None:
            raise UsageError("--threshold max-fbeta needs --beta")
        kwargs["beta"] = options.beta
    elif name == "min-cost":
        kwargs.update(costs=options.costs, prevalence=options.prevalence)
    elif bound is not None:
        kwargs["at"] = bound
    point = ev.operating_point(name, **kwargs)
    what = name if bound is None else f"{name} >= {bound:g}"
    notices.append(f"threshold {point.threshold:.6g} chosen by --threshold {what} (value {point.value:.6g})")
    return ev.at(point.threshold)


def check_costs_shape(ev: Evaluation, costs: np.ndarray) -> None:
    k = len(ev.labels)
    if costs.shape != (k, k):
        raise UsageError(f"--cost: the data have {k} classes ({', '.join(ev.names)}), so the cost matrix must be "
                         f"{k} x {k}; got {costs.shape[0]} x {costs.shape[1]}")
