"""The threshold sweep: every measure of one class's predictions at every threshold, as a table.

:func:`threshold_sweep_of` reads a :class:`~clfeval.roc_pr.BinaryRanking`'s confusion counts at
every distinct threshold (+inf, where nothing is predicted positive, then each distinct score,
decreasing) or at a given grid, and applies the :mod:`clfeval.measures` formulas to the whole
batch at once. Each row is the rule "positive where score >= threshold".

>>> import numpy as np
>>> from clfeval.roc_pr import BinaryRanking
>>> r = BinaryRanking(np.array([0.9, 0.5, 0.2]), None, np.array([True, False, True]))
>>> sweep = threshold_sweep_of(r, ["precision", "recall"])
>>> sweep.column("threshold").tolist(), sweep.column("recall").tolist()
([inf, 0.9, 0.5, 0.2], [0.0, 0.5, 0.5, 1.0])
>>> sweep.column("precision").tolist()
[nan, 1.0, 0.5, 0.6666666666666666]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from numbers import Real
from typing import Any

import numpy as np

from .measures import (
    accuracy,
    balanced_accuracy,
    cohen_kappa,
    error_rate,
    fallout,
    fbeta,
    matthews_corrcoef,
    npv,
    precision,
    ratio,
    recall,
    specificity,
)
from .roc_pr import BinaryRanking, ThresholdCounts

__all__ = ["ThresholdSweep", "threshold_sweep_of", "SWEEP_COLUMNS", "SWEEP_METRICS"]

#: every column a sweep can hold, in table order ("fbeta" only with a beta)
SWEEP_COLUMNS = (
    "threshold", "tp", "fp", "fn", "tn", "predicted_positive_rate", "accuracy", "error_rate",
    "precision", "recall", "specificity", "fpr", "npv", "f1", "fbeta", "balanced_accuracy",
    "mcc", "kappa", "youden_j",
)
#: the columns that are measures (not the threshold or the counts)
SWEEP_METRICS = SWEEP_COLUMNS[5:]


def _formulas(c: ThresholdCounts, beta: float | None) -> dict[str, Callable[[], np.ndarray]]:
    """Each column as a deferred computation over the batched counts."""
    tp, fp, fn, tn = c.tp, c.fp, c.fn, c.tn
    m = c.matrices()  # [[tn, fp], [fn, tp]]; the symmetric measures do not mind the order
    return {
        "threshold": lambda: c.thresholds,
        "tp": lambda: tp,
        "fp": lambda: fp,
        "fn": lambda: fn,
        "tn": lambda: tn,
        "predicted_positive_rate": lambda: ratio(tp + fp, m.sum(axis=(-2, -1))),
        "accuracy": lambda: accuracy(m),
        "error_rate": lambda: error_rate(m),
        "precision": lambda: precision(tp, fp),
        "recall": lambda: recall(tp, fn),
        "specificity": lambda: specificity(tn, fp),
        "fpr": lambda: fallout(fp, tn),
        "npv": lambda: npv(tn, fn),
        "f1": lambda: fbeta(tp, fp, fn, 1.0),
        "fbeta": lambda: fbeta(tp, fp, fn, beta),
        "balanced_accuracy": lambda: balanced_accuracy(m),
        "mcc": lambda: matthews_corrcoef(m),
        "kappa": lambda: cohen_kappa(m),
        "youden_j": lambda: recall(tp, fn) - fallout(fp, tn),
    }


@dataclass(frozen=True, eq=False)
class ThresholdSweep:
    """Measures of one class's predictions at many thresholds: one row per threshold.

    ``columns`` maps each column name to a 1-D array (all the same length); the first column
    is always "threshold". Rows follow the thresholds: decreasing from +inf by default.
    Undefined values (0/0) are NaN (MCC is 0 there, as in scikit-learn).

    >>> import numpy as np
    >>> from clfeval.roc_pr import BinaryRanking
    >>> r = BinaryRanking(np.array([0.9, 0.5, 0.2]), None, np.array([True, False, True]))
    >>> s = threshold_sweep_of(r, ["f1"], thresholds=[0.6, 0.3], curve="yes")
    >>> s, len(s), s.column("f1").round(4).tolist()
    (ThresholdSweep(curve='yes', n_thresholds=2, columns=['threshold', 'f1']), 2, [0.6667, 0.5])
    """

    curve: str
    columns: dict[str, np.ndarray]
    beta: float | None = field(default=None)

    def __len__(self) -> int:
        return int(self.columns["threshold"].size)

    @property
    def names(self) -> list[str]:
        """The column names, in order."""
        return list(self.columns)

    def column(self, name: str) -> np.ndarray:
        """One column (read-only array)."""
        try:
            return self.columns[name]
        except KeyError:
            raise KeyError(f"no column {name!r} in this sweep; its columns are {self.names}.") from None

    def to_dict(self) -> dict[str, Any]:
        """Plain Python, column-wise: {"curve", "beta", "n_thresholds", "columns": {name: list}}
        (the first threshold is +inf, undefined values NaN: see
        :func:`clfeval.evaluation.json_safe` for strict JSON)."""
        return {
            "curve": self.curve,
            "beta": self.beta,
            "n_thresholds": len(self),
            "columns": {k: v.tolist() for k, v in self.columns.items()},
        }

    def to_frame(self) -> Any:
        """A pandas DataFrame, one row per threshold (ImportError without pandas)."""
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError("ThresholdSweep.to_frame() needs pandas: pip install pandas") from exc
        return pd.DataFrame({k: np.asarray(v) for k, v in self.columns.items()})

    def __repr__(self) -> str:
        return f"ThresholdSweep(curve={self.curve!r}, n_thresholds={len(self)}, columns={self.names})"


def _check_metrics(metrics: Sequence[str] | str | None, beta: float | None) -> list[str]:
    if metrics is None:
        return [c for c in SWEEP_COLUMNS if c != "fbeta" or beta is not None]
    wanted = [metrics] if isinstance(metrics, str) else list(metrics)
    for m in wanted:
        if not isinstance(m, str) or m not in SWEEP_COLUMNS:
            raise ValueError(f"unknown sweep column {m!r}; choose from {', '.join(SWEEP_COLUMNS)}.")
    if "fbeta" in wanted and beta is None:
        raise ValueError("the 'fbeta' column needs beta= (e.g. beta=2); 'f1' is beta = 1.")
    if len(set(wanted)) != len(wanted):
        raise ValueError(f"metrics lists a column twice: {wanted}.")
    return ["threshold", *(m for m in wanted if m != "threshold")]


def threshold_sweep_of(
    ranking: BinaryRanking,
    metrics: Sequence[str] | str | None = None,
    thresholds: Any = None,
    beta: float | None = None,
    *,
    curve: str = "positive",
) -> ThresholdSweep:
    """The sweep of ``ranking``: ``metrics`` (default: every column; "fbeta" when ``beta`` is
    given) at every distinct threshold (``thresholds=None``) or at the given ones (in their
    order). The "threshold" column always comes first.

    >>> import numpy as np
    >>> r = BinaryRanking(np.array([0.9, 0.5, 0.2]), None, np.array([True, False, True]))
    >>> threshold_sweep_of(r, ["tp", "fp", "mcc"]).column("tp").tolist()
    [0, 1, 1, 2]
    """
    if beta is not None and (
        isinstance(beta, (bool, np.bool_)) or not isinstance(beta, Real) or not 0 < beta < math.inf
    ):
        raise ValueError(f"beta must be a positive finite number, got {beta!r}.")
    names = _check_metrics(metrics, beta)
    counts = ranking.counts_at_thresholds(thresholds)
    formulas = _formulas(counts, beta)
    columns = {}
    for name in names:
        a = np.asarray(formulas[name]()).view()
        a.flags.writeable = False
        columns[name] = a
    return ThresholdSweep(curve, columns, None if beta is None else float(beta))
