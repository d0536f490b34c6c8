"""The threshold sweep: every measure of one class's predictions at every threshold, as a table.

:func:`threshold_sweep_of` reads a :class:`~clfeval.statistics.rankings.BinaryRanking`'s confusion counts at
every distinct threshold (+inf, where nothing is predicted positive, then each distinct score,
decreasing) or at a given grid, and applies each measure's formula from
:mod:`clfeval.formulas.measure_registry` to the whole batch at once. Each row is the rule "positive where
score >= threshold".

>>> import numpy as np
>>> from clfeval.statistics.rankings import BinaryRanking
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

from clfeval.formulas.measure_registry import Measure, fbeta_measure, resolve
from clfeval.formulas.measures import ratio
from clfeval.statistics.rankings import BinaryRanking, ThresholdCounts

__all__ = ["ThresholdSweep", "threshold_sweep_of", "SWEEP_COLUMNS", "SWEEP_METRICS"]

#: every column a sweep can hold, in table order ("fbeta" only with a beta)
SWEEP_COLUMNS = (
    "threshold", "tp", "fp", "fn", "tn", "predicted_positive_rate", "accuracy", "error_rate",
    "precision", "recall", "specificity", "fpr", "npv", "f1", "fbeta", "balanced_accuracy",
    "mcc", "kappa", "youden_j",
)
#: the columns that are measures (not the threshold or the counts): each names (by its key or an
#: alias; "fbeta": the F-beta of the sweep's beta) a registered measure of one-vs-rest counts or
#: of a whole table, every such measure with a formula once
SWEEP_METRICS = SWEEP_COLUMNS[5:]


def _measure(name: str, beta: float | None) -> Measure:
    """The registered measure of a sweep column ("fbeta": the F-beta of ``beta``, exactly)."""
    measure = fbeta_measure(beta) if name == "fbeta" else resolve(name)
    assert measure is not None and measure.formula is not None, name
    return measure


def _formulas(c: ThresholdCounts, beta: float | None) -> dict[str, Callable[[], np.ndarray]]:
    """Each column as a deferred computation over the batched counts: the registry's formula of
    one-vs-rest counts (tp, fp, fn, tn) or of the (m, 2, 2) tables."""
    tp, fp, fn, tn = c.tp, c.fp, c.fn, c.tn
    m = c.matrices()  # [[tn, fp], [fn, tp]]; the symmetric measures do not mind the order
    out: dict[str, Callable[[], np.ndarray]] = {
        "threshold": lambda: c.thresholds,
        "tp": lambda: tp,
        "fp": lambda: fp,
        "fn": lambda: fn,
        "tn": lambda: tn,
    }
    for name in SWEEP_METRICS:
        if name == "fbeta" and beta is None:
            continue
        measure = _measure(name, beta)
        if measure.kind == "overall":
            out[name] = lambda f=measure.formula: f(m)
        else:
            out[name] = lambda f=measure.formula: f(tp, fp, fn, tn)
    # the registry's formula divides by tp + fp + fn + tn; the sweep has always divided by the
    # tables' numpy sums, which add the same four counts in another order: with float weights the
    # two can differ in the last bit, so the sweep keeps its own sum (its numbers as before)
    out["predicted_positive_rate"] = lambda: ratio(tp + fp, m.sum(axis=(-2, -1)))
    return out


@dataclass(frozen=True, eq=False)
class ThresholdSweep:
    """Measures of one class's predictions at many thresholds: one row per threshold.

    ``columns`` maps each column name to a 1-D array (all the same length); the first column
    is always "threshold". Rows follow the thresholds: decreasing from +inf by default.
    Undefined values (0/0) are NaN (MCC is 0 there, as in scikit-learn).

    >>> import numpy as np
    >>> from clfeval.statistics.rankings import BinaryRanking
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
