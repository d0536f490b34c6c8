"""``--by``: the evaluation of each group of rows on the command line.

``clfeval report FILE --by COL[,COL...]`` reads the group columns with the predictions (they take no
other role: :mod:`clfeval.inputs.column_roles`) and evaluates each group too (each combination of
the columns' values is a group), with whichever engine reads the file (:mod:`clfeval.cli.engines`:
``evaluate(groups=)`` in memory, one stream state per group, or Dask's ``groups=``); the groups
join the terminal report and the JSON. A stream (and Dask) keeps counts, not rows: the groups'
numbers and the fairness summaries are the same, the gaps (whose intervals need each row) are
left to the in-memory engine. This module reads the options (:func:`by_columns`, :func:`check_by_options`), checks
the group keys before any evaluation (:func:`checked_group_keys`: a missing value is an error
that names its column, count and first data row, unless ``--by-missing keep``), chooses the
metric that sorts the tables (:func:`sort_metric`) and computes what the views show and the JSON
carries (:func:`group_results`, :func:`groups_json`), once.

>>> by_columns("site, sex", ["report", "f.csv", "--by", "site, sex"])
['site', 'sex']
>>> import clfeval
>>> ev = clfeval.evaluate([0, 1, 1, 0], y_score=[0.2, 0.9, 0.4, 0.3], groups=["a", "a", "b", "b"])
>>> default_sort_metric(ev), shown_metrics(ev.by_group.overall, "roc_auc")[:3]
('roc_auc', ['roc_auc', 'balanced_accuracy', 'accuracy'])
"""

from __future__ import annotations

import argparse
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.cli.messages import Where, data_error
from clfeval.cli.options import UsageError, typed
from clfeval.exceptions import ValuesError
from clfeval.inputs.group_keys import MAX_GROUPS, GroupKeys, group_keys

__all__ = ["GROUP_ROWS", "by_columns", "check_by_options", "checked_group_keys", "default_sort_metric",
           "sort_metric", "shown_metrics", "GroupResults", "group_results", "groups_json", "many_groups_notice"]

#: rows of a group table in the terminal (the JSON holds every group)
GROUP_ROWS = 30

#: the metrics the terminal's group table shows beside the sorting one, by task (those the
#: evaluation has: the areas need scores)
SHOWN = {
    "binary": ("roc_auc", "balanced_accuracy", "accuracy", "recall", "fallout", "precision", "selection_rate"),
    "multiclass": ("roc_auc", "balanced_accuracy", "accuracy", "f1.macro", "precision.macro", "mcc"),
    "multilabel": ("roc_auc", "f1.macro", "f1.micro", "accuracy", "hamming_loss"),
}


def by_columns(text: str, argv: Sequence[str] | None, option: str = "--by") -> list[str]:
    """The group columns of ``--by COL[,COL...]``: each named once, none empty (a usage error
    naming the option as typed otherwise)."""
    shown = typed(argv, option, text)
    names = [c.strip() for c in text.split(",")]
    if not all(names):
        raise UsageError(f"{option} {shown}: an empty column name; give the group columns separated by commas")
    for i, name in enumerate(names):
        if name in names[:i]:
            raise UsageError(f"{option} {shown}: the column {name!r} is named twice; name each group column once")
    return names


def check_by_options(args: argparse.Namespace) -> list[str] | None:
    """The group columns of ``--by`` (None without it); ``--by-missing`` and ``--by-metric`` need ``--by``."""
    argv = getattr(args, "argv", None)
    if getattr(args, "by", None) is None:
        for option, value in (("--by-missing", getattr(args, "by_missing", None)),
                              ("--by-metric", getattr(args, "by_metric", None))):
            if value is not None:
                raise UsageError(f"{option} {typed(argv, option, value)}: applies to the groups of --by; give "
                                 "--by COL[,COL...] too")
        return None
    return by_columns(args.by, argv)


def checked_group_keys(groups: dict[str, np.ndarray], missing: str, where: Where) -> GroupKeys:
    """The rows' groups (:func:`clfeval.inputs.group_keys.group_keys`), read before any evaluation:
    a missing value is the command's one-line error (its column, count and first data row)."""
    try:
        return group_keys(groups, missing=missing)
    except ValuesError as exc:
        raise data_error(exc, where) or exc from None


def many_groups_notice(keys: GroupKeys, metric: str) -> str | None:
    """The notice for more groups than the tables keep (None otherwise)."""
    from clfeval.report.group_text import metric_title

    if keys.n_groups <= MAX_GROUPS:
        return None
    return (f"note: {keys.n_groups:,} groups by {', '.join(keys.columns)}: every group is evaluated, but the "
            f"tables (terminal and JSON) keep the {MAX_GROUPS:,} worst by {metric_title(metric)} and only count "
            f"the other {keys.n_groups - MAX_GROUPS:,}; fewer, larger groups (e.g. binned values) compare better")


def default_sort_metric(ev: Any) -> str:
    """The metric that sorts the group tables when ``--by-metric`` is not given
    (:func:`clfeval.evaluation.group_metrics.lead_metric` of the default metrics)."""
    from clfeval.evaluation.group_metrics import default_metrics, lead_metric

    return lead_metric(default_metrics(ev))


def sort_metric(ev: Any, text: str | None, argv: Sequence[str] | None) -> str:
    """``--by-metric`` checked against the evaluation (a usage error naming it as typed), or the default."""
    from clfeval.evaluation.group_metrics import group_metric

    if text is None:
        return default_sort_metric(ev)
    key = text.strip()
    try:
        group_metric(ev, key)
    except (ValueError, TypeError) as exc:
        why = str(exc).replace("pass y_score to evaluate()", "name a score column with --y-score COL")
        why = re.sub(r"\[([^\[\]]*)\]", lambda m: m.group(1).replace("'", ""), why)  # ['a', 'b'] -> a, b
        raise UsageError(f"--by-metric {typed(argv, '--by-metric', text)}: {why}") from None
    return key


def shown_metrics(ev: Any, metric: str) -> list[str]:
    """The metrics of the terminal's group table: the sorting one first, then a few key ones of the task."""
    others = [m for m in SHOWN.get(ev.task, ()) if m != metric and (ev.has_scores or m != "roc_auc")]
    return [metric, *others]


@dataclass
class GroupResults:
    """What the views show and the JSON carries about the groups, computed once: the table (the
    sorting ``metric`` first, then every default metric), the gaps to the overall of ``gap_metrics``
    (a :class:`~clfeval.results.group_results.GapTable`, or why there is none), the fairness
    summaries of a binary task (or why there are none), at confidence ``level``."""

    groups: Any
    metric: str
    shown: list[str]
    table: Any
    level: float
    gaps: dict[str, Any] = field(default_factory=dict)
    fairness: Any = None
    notes: list[str] = field(default_factory=list)

    @property
    def n_groups(self) -> int:
        return len(self.groups)

    def gap(self, metric: str | None = None) -> Any:
        """The gaps of ``metric`` (default: the sorting one): a GapTable, or a str saying why there are none."""
        return self.gaps.get(metric or self.metric)


def group_results(groups: Any, metric: str, *, level: float, ci: str | None, sampling: str = "cross-sectional",
                  all_gaps: bool = False) -> GroupResults:
    """The group table, gaps and fairness summaries of ``groups`` (a GroupEvaluations), sorted by
    ``metric``; intervals of each group's numbers with ``ci`` (a method of ``--ci``); the gaps of
    the default metrics too when ``all_gaps`` (for the JSON)."""
    from clfeval.evaluation.group_metrics import default_metrics

    ev = groups.overall
    shown = shown_metrics(ev, metric)
    metrics = list(dict.fromkeys([*shown, *default_metrics(ev)]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined numbers: NaN, with their reasons in the table's notes
        table = groups.table(metrics, level if ci is not None else None,
                             method="analytic" if ci in (None, "delong") else ci, sampling=sampling)
        out = GroupResults(groups, metric, shown, table, level)
        if len(groups) < 2:
            out.notes.append(f"only one group ({_one_group(groups)}): there is nothing to compare it with; its "
                             "numbers are those of the report above")
            return out
        gap_metrics = [metric]
        if all_gaps:  # as Evaluation.to_dict: the table's first default metric, and ROC AUC with scores
            gap_metrics += [default_metrics(ev)[0]] + (["roc_auc"] if ev.has_scores else [])
        for m in dict.fromkeys(gap_metrics):
            if ev.cases is None:  # a stream keeps counts, not rows
                out.gaps[m] = ("the file was streamed (or evaluated with Dask), which keeps counts, not rows, and "
                               "the gaps' intervals need each row's influence; read the file in memory for them "
                               "(without --stream or --scheduler, within --memory-budget)")
                continue
            try:
                out.gaps[m] = groups.gaps(m, level=level)
            except ValueError as exc:
                out.gaps[m] = str(exc)
        if ev.task == "binary":
            try:
                out.fairness = groups.fairness(level)
            except ValueError as exc:
                out.fairness = str(exc)
    return out


def _one_group(groups: Any) -> str:
    """``site = A, sex = F``: the one group's value of each column."""
    from clfeval.inputs.group_keys import MISSING_NAME

    keys = groups.keys
    key = keys.keys[0]
    values = key if len(keys.columns) > 1 and isinstance(key, tuple) else (key,)
    return ", ".join(f"{c} = {MISSING_NAME if v is None else v}" for c, v in zip(keys.columns, values))


def groups_json(results: GroupResults) -> dict[str, Any]:
    """The JSON entry ``"groups"`` (the shape of :meth:`GroupEvaluations.to_dict
    <clfeval.evaluation.groups.GroupEvaluations.to_dict>`), with the sorting metric and the notes."""
    keys = results.groups.keys
    out: dict[str, Any] = {"columns": list(keys.columns), "n_groups": len(results.groups),
                           "sort_metric": results.metric, "table": results.table.to_dict(), "gaps": {}}
    for metric, gap in results.gaps.items():
        out["gaps"][metric] = {"error": gap} if isinstance(gap, str) else gap.to_dict()
    if isinstance(results.fairness, str):
        out["fairness"] = {"error": results.fairness}
    elif results.fairness is not None:
        out["fairness"] = results.fairness.to_dict()
    if results.notes:
        out["notes"] = list(results.notes)
    return out
