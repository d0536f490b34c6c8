"""Summaries of a metric over several reports (the folds of a cross-evaluation, or runs): the mean,
the sd and a t interval for the mean (:func:`mean_interval`, with Nadeau and Bengio's correction
when the folds share training data), the :class:`MetricSummary` table, and :class:`ReportSet`,
the base of results made of several reports and one pooled report.

>>> s = mean_interval([[0.8], [0.9], [1.0]], None, 0.95)
>>> round(s["mean"].item(), 4), round(s["std"].item(), 4), int(s["n"].item())
(0.9, 0.1, 3)
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.results.report import Report
from clfeval.support.html_table import html_block, html_table
from clfeval.support.number_text import format_value
from clfeval.cross_evaluation.metric_names import ALIASES, SIGNED, default_metrics, metric_value

__all__ = ["INTERVAL_METHODS", "mean_interval", "MetricSummary", "pandas_module", "ReportSet"]


def mean_interval(values: np.ndarray, ratio: float | None, level: float) -> dict[str, np.ndarray]:
    """Mean, sd and a t interval for the mean of ``values`` along axis 0 (NaN rows ignored).

    With ``ratio`` (n_test / n_train) the variance of the mean is Nadeau and Bengio's corrected
    ``(1/J + ratio) s^2`` - the interval of :func:`clfeval.stats.corrected_resampled_ttest` -
    else the naive ``s^2 / J``. J - 1 degrees of freedom; NaN where J < 2.
    """
    from scipy import stats

    v = np.asarray(values, dtype=np.float64)
    j = np.sum(~np.isnan(v), axis=0)
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(v, axis=0)
        sd = np.nanstd(v, axis=0, ddof=1)
        factor = 1.0 / j + (ratio if ratio is not None else 0.0)
        half = stats.t.ppf(0.5 + level / 2.0, j - 1) * np.sqrt(factor * sd**2)
    half = np.where(j >= 2, half, np.nan)
    return {"mean": mean, "std": np.where(j >= 2, sd, np.nan), "low": mean - half, "high": mean + half, "n": j}


INTERVAL_METHODS = {
    "corrected": "t interval with Nadeau-Bengio corrected variance (1/J + n_test/n_train) s^2, J-1 df",
    "t": "t interval with naive variance s^2/J, J-1 df (too narrow: the folds share training data)",
    "independent": "t interval with variance s^2/J, J-1 df (the runs taken as independent)",
}


@dataclass(frozen=True)
class MetricSummary:
    """Per metric: mean and sd over folds, an interval for the mean, and the pooled value.

    ``rows``: one dict per metric {"metric", "mean", "std", "low", "high", "n_folds", "pooled"}.

    Parameters
    ----------
    rows : list of dict
        One dict per metric, with the keys above: the metric's name, its mean and sd over the
        folds (or runs), the interval of the mean, how many folds had a value, and the metric of
        the pooled predictions.
    level : float
        Confidence level of the intervals.
    method : str
        How the intervals were made, in words (one of the descriptions in
        ``INTERVAL_METHODS``).
    notes : tuple of str, default=()
        Remarks printed under the table (e.g. why an interval is missing).

    Examples
    --------
    >>> s = MetricSummary([{"metric": "accuracy", "mean": 0.85, "std": 0.07, "low": 0.2, "high": 1.0,
    ...                     "n_folds": 2, "pooled": 0.85}], 0.95, "t")
    >>> s["accuracy"]["n_folds"], s.to_dict()["method"]
    (2, 't')
    """

    rows: list[dict[str, Any]]
    level: float
    method: str
    notes: tuple[str, ...] = ()

    def __getitem__(self, metric: str) -> dict[str, Any]:
        for r in self.rows:
            if r["metric"] == metric:
                return r
        raise KeyError(f"no metric {metric!r} in this summary; it has {[r['metric'] for r in self.rows]}.")

    def __repr__(self) -> str:
        lines = [f"MetricSummary(level={self.level}, method={self.method!r})",
                 f"  {'metric':<20} {'mean':>8} {'sd':>8} {'low':>8} {'high':>8} {'pooled':>8} folds"]
        for r in self.rows:
            nums = " ".join(f"{r[k]:8.4f}" for k in ("mean", "std", "low", "high", "pooled"))
            lines.append(f"  {r['metric']:<20} {nums} {r['n_folds']}")
        return "\n".join(lines + [f"  note: {n}" for n in self.notes])

    def _repr_html_(self) -> str:  # the repr's numbers (4 decimals), one row per metric
        rows = [[r["metric"], *(format_value(float(r[k])) for k in ("mean", "std", "low", "high", "pooled")),
                 str(r["n_folds"])] for r in self.rows]
        table = html_table(["metric", "mean", "sd", "low", "high", "pooled", "folds"], rows)
        return html_block("Summary", table, subtitle=f"(mean over folds; {self.level:.0%} interval: {self.method})",
                          notes=[f"note: {n}" for n in self.notes])

    def to_dict(self) -> dict[str, Any]:
        return {"level": self.level, "method": self.method, "rows": [dict(r) for r in self.rows],
                "notes": list(self.notes)}

    def to_frame(self) -> Any:
        """A pandas DataFrame indexed by metric."""
        return pandas_module().DataFrame.from_records(self.rows).set_index("metric")


def pandas_module() -> Any:
    """pandas, imported on first use (``to_frame()`` needs it; nothing else does).

    >>> pandas_module().__name__
    'pandas'
    """
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("to_frame() needs pandas: pip install pandas") from exc
    return pd


class ReportSet:
    """Shared by results made of several reports (folds, runs) and one pooled report.

    Subclasses give ``_reports()`` (one report per fold / run, None for a failed fold) and
    ``_pooled_report()``; ``values``, ``mean``, ``std``, ``mean_value``, ``pooled_value`` and
    the summary follow.

    >>> from clfeval.cross_evaluation import aggregate_confusions
    >>> agg = aggregate_confusions([[[5, 0], [1, 4]], [[3, 2], [0, 5]]])
    >>> isinstance(agg, ReportSet), agg.values("accuracy").tolist(), agg.pooled_value("accuracy")
    (True, [0.9, 0.8], 0.85)
    """

    _unit = "fold"

    def _reports(self) -> list[Report | None]:
        raise NotImplementedError

    def _pooled_report(self) -> Report:
        raise NotImplementedError

    _pos_row: int | None = None
    _task: str = "binary"
    _has_scores: bool = False

    def values(self, metric: str) -> np.ndarray:
        """The metric per fold / run (NaN for a failed fold or an undefined value)."""
        return np.array([np.nan if r is None else metric_value(r, metric, self._pos_row) for r in self._reports()])

    def _metrics(self, metrics: Sequence[str] | str | None) -> list[str]:
        if metrics is None:
            return default_metrics(self._task, self._has_scores)
        return [metrics] if isinstance(metrics, str) else list(metrics)

    @property
    def mean(self) -> dict[str, float]:
        """Mean over folds (runs) of each default metric; undefined values left out."""
        return {m: mean_interval(self.values(m)[:, None], None, 0.95)["mean"].item() for m in self._metrics(None)}

    @property
    def std(self) -> dict[str, float]:
        """Sample standard deviation (ddof=1) over folds (runs) of each default metric."""
        return {m: mean_interval(self.values(m)[:, None], None, 0.95)["std"].item() for m in self._metrics(None)}

    def mean_value(self, metric: str) -> float:
        """The metric averaged over folds / runs (macro over folds), undefined values left out."""
        return mean_interval(self.values(metric)[:, None], None, 0.95)["mean"].item()

    def pooled_value(self, metric: str) -> float:
        """The metric of the pooled table (micro over folds / runs)."""
        return metric_value(self._pooled_report(), metric, self._pos_row)

    def _summary(self, level: float, metrics: Sequence[str] | str | None, ratio: float | None,
                 method: str, notes: list[str]) -> MetricSummary:
        names = self._metrics(metrics)
        rows = []
        for m in names:
            s = mean_interval(self.values(m)[:, None], ratio, level)
            lowest = -1.0 if ALIASES.get(m, m) in SIGNED else 0.0  # intervals stay in the metric's range
            rows.append({"metric": m, "mean": s["mean"].item(), "std": s["std"].item(),
                         "low": max(s["low"].item(), lowest), "high": min(s["high"].item(), 1.0),
                         "n_folds": int(s["n"].item()), "pooled": self.pooled_value(m)})
        if rows and rows[0]["n_folds"] < 2:
            notes = [*notes, f"one {self._unit}: no spread to build an interval from (low/high are NaN); "
                     "the pooled Evaluation has intervals of its own (.ci())."]
        return MetricSummary(rows, level, method, tuple(notes))
