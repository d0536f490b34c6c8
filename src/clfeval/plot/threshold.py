"""Metrics against the decision threshold: precision, recall, F1 (or any sweep column) of one
class's predictions ``score >= threshold``, with optional operating points marked.

Each metric is a step function of the threshold: between two neighbouring distinct scores the
predictions do not change, so a value holds from a score down to (not including) the next lower
score. The line runs over the score range (over [0, 1] for probabilities); right of the highest
score nothing is predicted positive (precision is undefined there and left blank).

>>> import clfeval
>>> from matplotlib.figure import Figure
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
>>> disp = ThresholdMetricsDisplay.from_evaluation(ev, mark="youden", ax=Figure().add_subplot())
>>> disp.thresholds.tolist(), disp.values["recall"].tolist()
([inf, 0.8, 0.4, 0.35, 0.1], [0.0, 0.5, 0.5, 1.0, 1.0])
>>> disp.marks[0].threshold, sorted(disp.lines_)
(0.8, ['f1', 'precision', 'recall'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from clfeval.formulas.measure_registry import label as measure_label
from clfeval.inputs.score_kind import kind_of_range
from clfeval.results.threshold_sweep import SWEEP_METRICS
from clfeval.plot._curve import PLOT_MAX_POINTS, ManyModels
from clfeval.plot._style import new_axes, refresh_legend

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from clfeval.evaluation import Evaluation
    from clfeval.results.operating_points import ThresholdPoint

__all__ = ["ThresholdMetricsDisplay", "metric_label", "mark_text", "step_path"]

#: what ``mark=`` takes: a criterion name, a ThresholdPoint, or a sequence of them
MarkOption = Union[None, str, "ThresholdPoint", Sequence[Union[str, "ThresholdPoint"]]]

#: line styles of the marked operating points, in turn
_MARK_STYLES = ("--", ":", "-.", (0, (6, 2, 1, 2, 1, 2)))


def metric_label(metric: str, beta: float | None = None) -> str:
    """Legend text of a sweep column: its label in :mod:`clfeval.formulas.measure_registry`.

    >>> metric_label("youden_j"), metric_label("fbeta", 2.0)
    ("Youden's J", 'F2')
    """
    return measure_label(metric, beta)


def step_path(thresholds: np.ndarray, values: np.ndarray, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) to draw with ``drawstyle="steps-pre"`` for sweep rows by decreasing threshold
    (+inf first): x increasing from ``lo`` to ``hi``; each value holds from its threshold down
    to the next lower one; below the lowest threshold everything is positive (the last row),
    above the highest nothing is (the +inf row).

    >>> [a.tolist() for a in step_path(np.array([np.inf, .8, .3]), np.array([0., .5, 1.]), 0, 1)]
    [[0.0, 0.3, 0.8, 1.0], [1.0, 1.0, 0.5, 0.0]]
    """
    finite = np.isfinite(thresholds)
    t, v = thresholds[finite][::-1], values[finite][::-1]
    above = values[~finite & (thresholds > 0)]
    top = above[0] if above.size else v[-1]
    x = np.concatenate([[lo], t, [hi]])
    y = np.concatenate([[v[0]], v, [top]])
    return x, y


class ThresholdMetricsDisplay(ManyModels):
    """Chosen metrics of one class's predictions against the decision threshold.

    Build it with :meth:`from_evaluation` or :meth:`from_predictions`. Attributes:
    ``thresholds`` (the sweep's rows, +inf first, decreasing), ``values`` ({metric: array}),
    ``marks`` (ThresholdPoints to mark), ``name``, ``pos_label``, ``score_kind``. After
    ``plot``: ``lines_`` ({metric: Line2D}), ``mark_lines_`` and ``mark_texts_`` (one per
    marked point with a finite threshold), ``ax_``, ``figure_``.

    Parameters
    ----------
    thresholds : array-like of shape (m,)
        The threshold of each row of the sweep, by decreasing value (+inf first: nothing
        predicted positive); at least one must be finite.
    values : dict of str to array-like
        For each metric (a sweep column such as "precision", "recall", "f1"), its value at each
        threshold, shaped like ``thresholds``.
    name : str, default=None
        The model's name, put before each metric in the legend.
    pos_label : int, float, bool or str, default=None
        The class whose predictions are swept, named in the x-axis label.
    marks : sequence of ThresholdPoint, default=()
        Operating points to mark with a vertical line at their threshold (those at +inf are
        skipped).
    score_kind : {"probability", "decision"}, default=None
        Whether the scores are probabilities (the x axis then spans at least [0, 1]) or
        decision values; None infers it from the finite thresholds.
    beta : float, default=None
        The beta of an "fbeta" column, used for its legend label (e.g. "F2").

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> d = ThresholdMetricsDisplay(thresholds=[np.inf, 0.7, 0.2], values={"recall": [0, 0.5, 1]})
    >>> d.plot(ax=Figure().add_subplot()).lines_["recall"].get_xdata().tolist()
    [0.0, 0.2, 0.7, 1.0]
    """

    def __init__(
        self,
        *,
        thresholds: Any,
        values: dict[str, Any],
        name: str | None = None,
        pos_label: Any = None,
        marks: Sequence[ThresholdPoint] = (),
        score_kind: str | None = None,
        beta: float | None = None,
    ) -> None:
        self.thresholds = np.asarray(thresholds, dtype=np.float64)
        if self.thresholds.ndim != 1 or not np.isfinite(self.thresholds).any():
            raise ValueError("thresholds must be 1-D with at least one finite threshold (a distinct score).")
        self.values = {m: np.asarray(v, dtype=np.float64) for m, v in values.items()}
        for m, v in self.values.items():
            if v.shape != self.thresholds.shape:
                raise ValueError(f"values[{m!r}] has shape {v.shape}; it needs one value per threshold "
                                 f"{self.thresholds.shape}.")
        if score_kind is None:
            t = self.thresholds[np.isfinite(self.thresholds)]
            score_kind = kind_of_range(t.min(), t.max())
        self.name = name
        self.pos_label = pos_label
        self.marks = list(marks)
        self.score_kind = score_kind
        self.beta = beta

    @classmethod
    def from_evaluation(
        cls,
        ev: Evaluation,
        metrics: Sequence[str] = ("precision", "recall", "f1"),
        *,
        curve: str | None = None,
        name: str | None = None,
        ax: Axes | None = None,
        mark: MarkOption = None,
        **plot_kwargs: Any,
    ) -> ThresholdMetricsDisplay:
        """``metrics`` (sweep columns: see :data:`clfeval.results.threshold_sweep.SWEEP_METRICS`) of
        ``ev``'s positive class (multi-class / multilabel: ``curve``, a class name) against the
        threshold. ``mark``: criteria (e.g. ``["youden", "max-f1"]``) or ThresholdPoints from
        ``ev.operating_point`` (for the criteria that need ``at=``) to mark by vertical lines.
        At most PLOT_MAX_POINTS thresholds are drawn (exact rows at evenly spread scores).
        """
        wanted = [metrics] if isinstance(metrics, str) else list(metrics)
        bad = [m for m in wanted if m not in SWEEP_METRICS]
        if not wanted or bad:
            raise ValueError(f"metrics must be sweep measures, one or more of {', '.join(SWEEP_METRICS)}; "
                             f"got {metrics!r}.")
        target, _ = ev.class_curve(curve, "threshold plot")
        assert ev.rankings is not None
        ranking = ev.rankings[target]
        grid = None
        if ranking.scores.size > PLOT_MAX_POINTS:  # exact rows at evenly spread scores
            grid = np.concatenate([[np.inf], ranking.scores[ranking.cut_points(PLOT_MAX_POINTS)]])
        sweep = ev.threshold_sweep(wanted, thresholds=grid, curve=target)
        points = [ev.operating_point(m, curve=target) if isinstance(m, str) else m for m in _mark_list(mark)]
        for p in points:
            if getattr(p, "curve", target) != target:
                raise ValueError(f"a marked point is for curve {p.curve!r}, but this plot shows {target!r}.")
        disp = cls(
            thresholds=sweep.column("threshold"), values={m: sweep.column(m) for m in wanted},
            name=name or ev.name, pos_label=target, marks=points, score_kind=ev.score_kind, beta=sweep.beta,
        )
        return disp.plot(ax=ax, **plot_kwargs)

    def plot(
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        show_marks: bool = True,
        **kwargs: Any,
    ) -> ThresholdMetricsDisplay:
        """Draw on ``ax`` (a new figure if None); ``kwargs`` go to every metric's ``ax.plot``."""
        fig, ax = new_axes(ax, (6.4, 4.6))
        name = name or self.name
        finite = self.thresholds[np.isfinite(self.thresholds)]
        lo, hi = float(finite.min()), float(finite.max())
        if self.score_kind == "probability":
            lo, hi = min(lo, 0.0), max(hi, 1.0)
        else:
            pad = 0.05 * (hi - lo) if hi > lo else 0.5
            lo, hi = lo - pad, hi + pad
        self.lines_ = {}
        for metric, values in self.values.items():
            text = metric_label(metric, self.beta)
            kw: dict[str, Any] = {"linewidth": 2.0, "drawstyle": "steps-pre",
                                  "label": f"{name}: {text}" if name else text}
            kw.update(kwargs)
            (self.lines_[metric],) = ax.plot(*step_path(self.thresholds, values, lo, hi), **kw)
        self.mark_lines_, self.mark_texts_ = [], []
        if show_marks:
            self._draw_marks(ax)
        ax.set_xlim(lo, hi)
        low = min((np.nanmin(v) for v in self.values.values() if np.isfinite(v).any()), default=0.0)
        ax.set_ylim(-1.03 if low < 0 else -0.02, 1.03)
        what = "positive" if self.pos_label is None else f"{self.pos_label!s}"
        ax.set_xlabel(f"Threshold (predicted {what} where score \u2265 threshold)")
        ax.set_ylabel("Value")
        ax.grid(True, color="0.9", linewidth=0.8)
        ax.set_axisbelow(True)
        refresh_legend(ax, loc="best", fontsize="small")
        self.ax_, self.figure_ = ax, fig
        return self

    def _draw_marks(self, ax: Axes) -> None:
        """A vertical line per marked point, its criterion written above the axes at the line (one
        row per point, so that points close together stay legible)."""
        from matplotlib.transforms import blended_transform_factory

        along = blended_transform_factory(ax.transData, ax.transAxes)
        drawn = [p for p in self.marks if np.isfinite(p.threshold)]  # +inf: off the axis
        for i, p in enumerate(drawn):
            short = mark_text(p)
            label = f"{short}: threshold {p.threshold:.3g} (value {p.value:.3g})"
            line = ax.axvline(p.threshold, color="0.3", linewidth=1.2, zorder=4,
                              linestyle=_MARK_STYLES[i % len(_MARK_STYLES)], label=label)
            text = ax.annotate(
                short, xy=(p.threshold, 1.0), xycoords=along, xytext=(0, 3 + 13 * i),
                textcoords="offset points", ha="center", va="bottom", annotation_clip=False, fontsize="small", color="0.2", zorder=6,
            )
            self.mark_lines_.append(line)
            self.mark_texts_.append(text)


def mark_text(point: ThresholdPoint) -> str:
    """Short text of a marked point: its criterion, with the target of a constrained one.

    >>> from types import SimpleNamespace
    >>> mark_text(SimpleNamespace(criterion="recall", options={"at": 0.9}))
    'recall \u2265 0.9'
    """
    at = point.options.get("at")
    return point.criterion if at is None else f"{point.criterion} \u2265 {at:g}"


def _mark_list(mark: MarkOption) -> list[Any]:
    if mark is None:
        return []
    if isinstance(mark, str) or not isinstance(mark, Sequence):
        return [mark]
    return list(mark)
