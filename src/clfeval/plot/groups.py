"""A forest plot of one metric per group: :class:`GroupMetricsDisplay`.

One row per group (worst first by default): the group's value as a point, its confidence interval
as a horizontal bar, and a vertical reference line at the overall value (or at a group's, or at the
best group's). Groups too small for their intervals
(:data:`clfeval.results.group_results.SMALL_GROUP_RULE`) are drawn hollow; a group where the metric
is undefined gets the reason in its row instead of a point. Everything drawn is read from
``ev.by_group.table()`` (and ``ev.by_group.gaps()`` for a reference other than the overall).

What it shares with the HTML report's "By group" section (the metric shown when none is named,
titles, how many groups are shown) is in :mod:`clfeval.plot.group_labels`.

>>> import clfeval
>>> from matplotlib.figure import Figure
>>> ev = clfeval.evaluate([0, 1, 1, 0, 1, 0, 1, 1], [0, 1, 0, 0, 1, 0, 0, 1], groups=list("aaaabbbb"))
>>> d = GroupMetricsDisplay.from_evaluation(ev, "accuracy", ax=Figure().add_subplot())
>>> d.groups, d.values.tolist(), d.reference_value
(['a', 'b'], [0.75, 0.75], 0.75)
>>> d.points_.get_offsets()[:, 0].tolist()
[0.75, 0.75]
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.plot._style import new_axes, set_fitted_title
from clfeval.plot.group_labels import (
    MAX_SHOWN_GROUPS,
    SMALL_GROUP_LABEL,
    default_group_metric,
    group_metric_title,
)
from clfeval.results.group_results import worst_order

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["GroupMetricsDisplay"]

def _floats(values: Any, size: int) -> np.ndarray:
    if values is None:
        return np.full(size, np.nan)
    out = np.asarray(values, dtype=np.float64).reshape(-1)
    if out.size != size:
        raise ValueError(f"expected one value per group ({size}), got {out.size}.")
    return out


class GroupMetricsDisplay:
    """Forest plot of one metric per group: a point and its interval per row, a reference line.

    Data (one entry per row, top to bottom): ``groups`` (names), ``values``, ``low`` / ``high``
    (the interval at ``level``; NaN where there is none), ``small`` (too few cases of a class for
    the interval, :data:`clfeval.results.group_results.SMALL_GROUP_RULE`), ``n`` (rows),
    ``notes`` (why a value is undefined); ``metric``, ``reference_value`` and ``reference_name``
    (the line), ``omitted`` (groups not drawn), ``name`` (the model), ``label`` (the metric's
    title; default :func:`group_metric_title`). After :meth:`plot`:
    ``points_`` (a PathCollection: one point per defined value, in row order), ``errorbar_`` (the
    ErrorbarContainer of the intervals), ``reference_line_`` (Line2D or None), ``undefined_``
    (one Text per undefined value), ``ax_``, ``figure_``.

    Parameters
    ----------
    groups : sequence
        The groups' names, one row each from top to bottom (turned into strings).
    values : array-like
        The metric in each group; NaN where it is undefined (the row then shows the reason).
    metric : str
        Key of the metric (as in ``by_group.table``), used to find each row's note.
    low : array-like, default=None
        Lower end of each group's interval; None (or NaN) for no interval.
    high : array-like, default=None
        Upper end of each group's interval; None (or NaN) for no interval.
    level : float, default=None
        Confidence level of the intervals, written in the legend and axis label; None for none.
    reference_value : float, default=None
        Where the dashed reference line is drawn (the overall value, a group's, the best
        group's); None or NaN draws no line.
    reference_name : str, default="overall"
        What the reference line is, for its legend entry.
    small : array-like of bool, default=None
        Groups too small for their interval, drawn hollow; None: none is.
    n : array-like of int, default=None
        Each group's number of rows, written after its name; None writes none.
    notes : sequence of sequence of str, default=None
        Each group's notes; for an undefined value the note starting with ``"<metric>: "``
        is written in its row (None: no notes).
    omitted : int, default=0
        How many further groups are not drawn, said in the default title.
    name : str, default=None
        The model's name, added to the default title.
    label : str, default=None
        Title of the metric for the axis and the title; None derives it from ``metric``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> d = GroupMetricsDisplay(groups=["north", "south"], values=[0.9, np.nan], metric="recall", low=[0.7, np.nan],
    ...                         high=[0.97, np.nan], level=0.95, reference_value=0.85, n=[40, 3],
    ...                         notes=[[], ["recall: no positives in this group"]])
    >>> d = d.plot(ax=Figure().add_subplot())
    >>> d.ax_.get_title(), [t.get_text() for t in d.undefined_], d.reference_line_.get_label()
    ('Recall by group', ['no positives in this group'], 'overall (0.850)')
    """

    def __init__(self, *, groups: Sequence[Any], values: Any, metric: str, low: Any = None, high: Any = None,
                 level: float | None = None, reference_value: float | None = None, reference_name: str = "overall",
                 small: Any = None, n: Any = None, notes: Sequence[Sequence[str]] | None = None,
                 omitted: int = 0, name: str | None = None, label: str | None = None) -> None:
        self.groups = [str(g) for g in groups]
        size = len(self.groups)
        self.values = _floats(values, size)
        self.low, self.high = _floats(low, size), _floats(high, size)
        self.metric = str(metric)
        self.level = None if level is None else float(level)
        self.reference_value = None if reference_value is None else float(reference_value)
        self.reference_name = str(reference_name)
        self.small = np.zeros(size, bool) if small is None else np.asarray(small, dtype=bool).reshape(-1)
        self.n = None if n is None else np.asarray(n).reshape(-1)
        self.notes = [list(x) for x in notes] if notes is not None else [[] for _ in range(size)]
        if self.small.size != size or len(self.notes) != size or (self.n is not None and self.n.size != size):
            raise ValueError(f"small, n and notes need one entry per group ({size}).")
        self.omitted = int(omitted)
        self.name = name
        self.label = group_metric_title(self.metric) if label is None else str(label)

    # -- constructors ----------------------------------------------------------------------------
    @classmethod
    def from_evaluation(cls, evaluation: Any, metric: str | None = None, *, ci: float | None = 0.95,
                        reference: Any = "overall", sort: bool = True, max_groups: int = MAX_SHOWN_GROUPS,
                        ax: Axes | None = None, **plot_kwargs: Any) -> GroupMetricsDisplay:
        """The forest plot of ``metric`` across the groups of an Evaluation made with ``groups=``.

        ``metric``: a key of ``by_group.table`` (``"recall"``, ``"f1.macro"``, ``"recall.malignant"``,
        ``"selection_rate"``, ...; default :func:`default_group_metric`: ROC AUC with scores, else
        accuracy). ``ci``: the level of each group's interval (None: none). ``reference``: the line,
        "overall" (the evaluation of all rows), a group (its key or name) or "best" (as
        ``by_group.gaps``). ``sort``: worst first (else in the groups' order). Beyond
        ``max_groups`` groups only the worst are drawn, and the title says how many are not.
        Other keywords go to :meth:`plot`.
        """
        from clfeval.evaluation.group_metrics import default_metrics, group_metric

        by_group = getattr(evaluation, "by_group", None)
        if by_group is None:
            raise ValueError("this evaluation has no groups: pass groups= to clfeval.evaluate() "
                             "(or use GroupMetricsDisplay.from_predictions).")
        if isinstance(max_groups, bool) or not isinstance(max_groups, int) or max_groups < 1:
            raise ValueError(f"max_groups must be a positive integer, got {max_groups!r}.")
        if metric is None:
            metric = default_group_metric(default_metrics(evaluation))
        table = by_group.table([metric], ci)
        values = table.column(metric)
        order = worst_order(values, table.higher_is_better.get(metric, True))[:max_groups]
        rows = order if sort else np.sort(order)
        chosen = group_metric(evaluation, metric)
        label = group_metric_title(metric)
        if chosen.scope == "class" and "." not in metric and chosen.measure.kind != "area":  # binary: the positive class
            label += f" of {evaluation.names[chosen.class_index]}"
        if isinstance(reference, str) and reference == "overall":
            ref_value, ref_name = chosen.value(evaluation), "overall"
        else:
            gaps = by_group.gaps(metric, reference, level=0.95 if ci is None else ci)
            ref_value, ref_name = gaps.reference_value, gaps.reference
        disp = cls(
            groups=[table.groups[g] for g in rows], values=values[rows], metric=metric,
            low=None if table.low is None else table.low[rows, 0],
            high=None if table.high is None else table.high[rows, 0], level=table.level,
            reference_value=ref_value, reference_name=ref_name, small=table.small[rows], n=table.n[rows],
            notes=[table.notes[g] for g in rows] if table.notes else None,
            omitted=table.omitted + len(values) - len(rows), name=getattr(evaluation, "name", None), label=label,
        )
        return disp.plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_predictions(cls, y_true: Any, y_pred: Any = None, y_score: Any = None, *, groups: Any,
                         metric: str | None = None, ci: float | None = 0.95, reference: Any = "overall",
                         sort: bool = True, max_groups: int = MAX_SHOWN_GROUPS, sample_weight: Any = None,
                         labels: Any = None, pos_label: Any = None, threshold: float | None = None,
                         name: str | None = None, ax: Axes | None = None, **plot_kwargs: Any) -> GroupMetricsDisplay:
        """Evaluate ``y_true`` against ``y_pred`` and/or ``y_score`` by ``groups`` (as
        :func:`clfeval.evaluate`), then draw as :meth:`from_evaluation`.

        >>> from matplotlib.figure import Figure
        >>> d = GroupMetricsDisplay.from_predictions([0, 1, 0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 1, 1, 0],
        ...                                          groups=list("aaaabbbb"), metric="accuracy",
        ...                                          ax=Figure().add_subplot())
        >>> d.groups, d.values.tolist(), d.reference_value
        (['b', 'a'], [0.5, 1.0], 0.75)
        """
        from clfeval.evaluation import evaluate

        ev = evaluate(y_true, y_pred, y_score, groups=groups, sample_weight=sample_weight, labels=labels,
                      pos_label=pos_label, threshold=threshold, name=name)
        return cls.from_evaluation(ev, metric, ci=ci, reference=reference, sort=sort, max_groups=max_groups,
                                   ax=ax, **plot_kwargs)

    # -- drawing ---------------------------------------------------------------------------------
    def _labels(self, show_n: bool) -> list[str]:
        out = []
        for j, g in enumerate(self.groups):
            text = g if len(g) <= 32 else g[:31] + "\u2026"
            if show_n and self.n is not None:
                text += f"  (n={int(self.n[j]):,})"
            out.append(text)
        return out

    def plot(self, ax: Axes | None = None, *, title: str | bool = True, color: Any = "#1f4e9c",
             show_n: bool = True, legend: bool = True) -> GroupMetricsDisplay:
        """Draw on ``ax`` (a new figure sized to the groups if None). ``title``: True for one
        naming the metric and the model, a string, or False. ``color``: of the points and bars.
        ``show_n``: each group's size beside its name."""
        from matplotlib.lines import Line2D

        k = len(self.groups)
        fig, ax = new_axes(ax, (8.4, 1.6 + 0.34 * max(k, 2)))
        y = np.arange(k, dtype=np.float64)
        v = self.values
        defined = np.isfinite(v)
        with np.errstate(invalid="ignore"):
            minus = np.where(defined & np.isfinite(self.low), np.maximum(v - self.low, 0.0), np.nan)
            plus = np.where(defined & np.isfinite(self.high), np.maximum(self.high - v, 0.0), np.nan)
        self.errorbar_ = ax.errorbar(v, y, xerr=np.vstack([minus, plus]), fmt="none", ecolor=color,
                                     elinewidth=1.6, capsize=3.5, zorder=3, label="_nolegend_")
        faces = np.where(self.small[defined], "white", color).tolist()
        self.points_ = ax.scatter(v[defined], y[defined], s=42, marker="o", facecolors=faces, edgecolors=color,
                                  linewidths=1.5, zorder=4, label="_nolegend_")
        self.undefined_ = []
        for j in np.flatnonzero(~defined):  # the reason in the row (the group table's note, wrapped)
            prefix = f"{self.metric}: "
            why = next((n[len(prefix):] for n in self.notes[j] if n.startswith(prefix)), "undefined in this group")
            self.undefined_.append(ax.text(0.01, y[j], textwrap.fill(why, 60), transform=ax.get_yaxis_transform(),
                                           va="center", ha="left", fontsize="small", color="0.4", style="italic",
                                           clip_on=True))
        self.reference_line_ = None
        metric_text = self.label
        handles: list[Any] = [Line2D([], [], color=color, marker="o", markersize=6, linewidth=1.6,
                                     label=f"group, {self.level * 100:.4g}% interval" if self.level else "group")]
        if self.small.any():
            handles.append(Line2D([], [], color=color, marker="o", markersize=6, markerfacecolor="white",
                                  linestyle="none", label=SMALL_GROUP_LABEL))
        if self.reference_value is not None and np.isfinite(self.reference_value):
            self.reference_line_ = ax.axvline(self.reference_value, color="0.35", linestyle="--", linewidth=1.2,
                                              zorder=2, label=f"{self.reference_name} ({self.reference_value:.3f})")
            handles.append(self.reference_line_)
        ax.set_yticks(y, self._labels(show_n))
        ax.set_ylim(k - 0.5, -0.5)  # the first row on top
        ax.set_xlabel(metric_text + (f" ({self.level * 100:.4g}% interval)" if self.level else ""))
        ax.grid(True, axis="x", color="0.9", linewidth=0.8)
        ax.set_axisbelow(True)
        if legend:
            ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                      fontsize="small")
        if title:
            text = title if isinstance(title, str) else (
                f"{metric_text[:1].upper()}{metric_text[1:]} by group" + (f": {self.name}" if self.name else ""))
            if self.omitted and not isinstance(title, str):
                text += f" ({len(self.groups):,} worst shown, {self.omitted:,} more not)"
            set_fitted_title(ax, text)
        self.ax_, self.figure_ = ax, fig
        return self
