"""Confusion tables of several data sets or runs, aggregated two ways: the metric of the summed
table (pooled, micro over runs) and the mean of the per-run metrics (macro over runs), with a t
interval of that mean (:func:`aggregate_confusions`, giving :class:`ConfusionAggregate`).

>>> agg = aggregate_confusions([[[8, 2], [1, 9]], [[5, 5], [0, 10]]])
>>> round(agg.pooled_value("f1_macro"), 4), round(agg.mean_value("f1_macro"), 4)
(0.7954, 0.7915)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from clfeval.results.confusion import ConfusionMatrix
from clfeval.evaluation import Evaluation
from clfeval.results.report import Report, build_report
from clfeval.cross_evaluation.summaries import INTERVAL_METHODS, MetricSummary, ReportSet

__all__ = ["ConfusionAggregate", "aggregate_confusions"]


class ConfusionAggregate(ReportSet):
    """Confusion tables of several data sets or runs, aggregated two ways.

    ``pooled_value(metric)``: the metric of the summed table (micro over runs); ``mean_value(metric)``: the
    mean of the per-run metric (macro over runs); ``values(metric)`` per run; ``summary()``.
    ``reports``: one report per run; ``pooled_report``.

    Build it with :func:`aggregate_confusions`, which checks the input.

    Parameters
    ----------
    tables : numpy.ndarray of shape (n_runs, k, k)
        The runs' confusion tables, rows the true class, columns the predicted one.
    labels : numpy.ndarray of shape (k,)
        The classes of the rows and columns.
    names : list of str or None
        Display names of the classes; None writes the labels.
    pos_label : int, float, bool, str or None
        The positive class, for per-class metric names of a binary task; None for none.

    Examples
    --------
    >>> import numpy as np
    >>> agg = ConfusionAggregate(np.array([[[8, 2], [1, 9]], [[5, 5], [0, 10]]]), np.array([0, 1]), None, 1)
    >>> agg.values("recall").tolist(), round(agg.pooled_value("recall"), 4), agg.mean_value("accuracy")
    ([0.9, 1.0], 0.95, 0.8)
    """

    _unit = "run"

    def __init__(self, tables: np.ndarray, labels: np.ndarray, names: list[str] | None, pos_label: Any) -> None:
        self.tables = tables
        self.labels = labels
        self.names = names if names is not None else [str(v) for v in labels.tolist()]
        self.reports = [build_report(ConfusionMatrix.from_matrix(labels, t, self.names)) for t in tables]
        self.pooled_report = build_report(ConfusionMatrix.from_matrix(labels, tables.sum(axis=0), self.names))
        self._task = "binary" if labels.size == 2 else "multiclass"
        self._pos_row = None if pos_label is None else int(np.flatnonzero(labels == pos_label)[0])

    def _reports(self) -> list[Report | None]:
        return list(self.reports)

    def _pooled_report(self) -> Report:
        return self.pooled_report

    def summary(self, level: float = 0.95, metrics: Sequence[str] | str | None = None) -> MetricSummary:
        """Mean, sd, t interval of the mean over runs (runs taken as independent) and pooled value."""
        from clfeval.stats._result import check_level

        return self._summary(check_level(level), metrics, None, INTERVAL_METHODS["independent"], [])

    def __repr__(self) -> str:
        return (f"ConfusionAggregate(runs={len(self.reports)}, labels={self.labels.tolist()}, "
                f"pooled_accuracy={self.pooled_value('accuracy'):.4f}, mean_accuracy={self.mean_value('accuracy'):.4f})")

    def to_dict(self) -> dict[str, Any]:
        return {"labels": self.labels.tolist(), "tables": self.tables.tolist(),
                "pooled": self.pooled_report.to_dict(), "summary": self.summary().to_dict()}


def aggregate_confusions(tables: Sequence[Any], *, labels: Any = None, names: list[str] | None = None,
                         pos_label: Any = None) -> ConfusionAggregate:
    """Aggregate confusion tables (or Evaluations) from several data sets or runs.

    ``tables``: (k, k) count tables (rows true, columns predicted) or Evaluations with the same
    labels. ``labels`` default: those of the Evaluations, else 0..k-1. ``pos_label``: positive class
    for per-class names of a binary task (default: the second label).

    Parameters
    ----------
    tables : sequence of array-like of shape (k, k) or of Evaluation
        The confusion tables of the runs (non-negative counts or weights), all over the same
        classes.
    labels : array-like of shape (k,), optional
        The classes of the rows and columns. Default None: those of the Evaluations, else
        0 .. k - 1.
    names : list of str, optional
        Display names of the classes; default None (those of the Evaluations, else the labels).
    pos_label : object, optional
        The positive class of a binary task; default None (the second label).

    Returns
    -------
    ConfusionAggregate
        The tables stacked, with per-run values, pooled values and averages of any measure.

    Examples
    --------
    >>> agg = aggregate_confusions([[[5, 0], [1, 4]], [[3, 2], [0, 5]]])
    >>> agg.values("recall").tolist(), agg.pooled_value("recall")
    ([0.8, 1.0], 0.9)
    """
    if len(tables) == 0:
        raise ValueError("aggregate_confusions needs at least one table.")
    found_labels = None
    arrays = []
    for i, t in enumerate(tables):
        if isinstance(t, Evaluation):
            if t.confusion.counts is None:
                raise ValueError(f"tables[{i}] is a multilabel Evaluation; aggregate_confusions takes (k, k) tables.")
            if found_labels is not None and not np.array_equal(found_labels, t.labels):
                raise ValueError(f"tables[{i}] has labels {t.labels.tolist()}, tables[0] {found_labels.tolist()}; "
                                 "evaluate every run with the same labels=.")
            found_labels = t.labels
            names = names or t.names
            t = t.confusion.counts
        arr = np.asarray(t)
        if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.dtype.kind not in "biuf":
            raise ValueError(f"tables[{i}] must be a square (k, k) table of counts, got shape {arr.shape}.")
        arrays.append(arr)
    if len({a.shape for a in arrays}) > 1:
        raise ValueError(f"the tables differ in shape: {[a.shape for a in arrays]}; they need the same classes.")
    stacked = np.stack(arrays)
    if (stacked < 0).any():
        raise ValueError("confusion tables hold counts or weights, which cannot be negative.")
    k = stacked.shape[1]
    lab = np.asarray(labels).reshape(-1) if labels is not None else (found_labels if found_labels is not None else np.arange(k))
    if lab.size != k:
        raise ValueError(f"labels has {lab.size} entries for {k} x {k} tables.")
    if k == 2 and pos_label is None:
        pos_label = lab[1]
    return ConfusionAggregate(stacked, lab, names, pos_label)
