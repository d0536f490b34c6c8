"""Cost curve and decision curve displays.

:class:`CostCurveDisplay` draws Drummond and Holte's cost curve: one faint line per threshold,
their lower envelope in bold, the trivial classifiers' envelope dashed.
:class:`DecisionCurveDisplay` draws Vickers and Elkin's decision curve: the model's net benefit
against the threshold probability, with "treat all" and "treat none".

>>> import clfeval
>>> from matplotlib.figure import Figure
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="toy")
>>> d = CostCurveDisplay.from_evaluation(ev, ax=Figure().add_subplot())
>>> d.envelope_line_.get_label(), d.envelope_line_.get_xydata().tolist()
('toy (area = 0.125)', [[0.0, 0.0], [0.5, 0.25], [1.0, 0.0]])
>>> d = DecisionCurveDisplay.from_evaluation(ev, thresholds=[0.2, 0.5], ax=Figure().add_subplot())
>>> d.line_.get_ydata().tolist(), d.treat_all_.get_label()
([0.4375, 0.25], 'Treat all (prevalence = 0.5)')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.results.cost_curves import CostCurve, CostLine, DecisionCurve, cost_curve_of, decision_curve_of
from clfeval.plot._curve import ManyModels, model_name
from clfeval.plot._style import DECOR_GID, area_label, has_gid, new_axes, positive_suffix, refresh_legend

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    from clfeval.evaluation import Evaluation
    from clfeval.statistics.rankings import BinaryRanking

__all__ = ["CostCurveDisplay", "DecisionCurveDisplay"]

TRIVIAL_GID = DECOR_GID + "cost-trivial"
TREAT_NONE_GID = DECOR_GID + "treat-none"
TREAT_ALL_GID = DECOR_GID + "treat-all:"
DECISION_GID = "clfeval-decision-curve"

#: at most this many threshold lines are drawn (spread along the ROC curve, the envelope's own
#: lines always among them); more would be an unreadable grey block and slow to draw.
MAX_COST_LINES = 200


class CostCurveDisplay(ManyModels):
    """Drummond and Holte's cost curve of a binary scorer.

    Build it with :meth:`from_evaluation`, :meth:`from_evaluations` (several models on one
    axes), :meth:`from_predictions`, :meth:`from_ranking` or :meth:`from_curve`. After ``plot``:
    ``envelope_line_`` (the lower envelope), ``lines_`` (a LineCollection of the threshold lines,
    or None), ``trivial_line_`` (``min(PC, 1 - PC)``; None when not drawn or already there),
    ``operating_line_`` (the current predictions' line, or None), ``ax_``, ``figure_``.

    Parameters
    ----------
    curve : CostCurve
        The cost curve to draw (see :func:`clfeval.costs.cost_curve`); a TypeError for anything
        else.
    name : str, default=None
        The model's name in the legend; None writes "Classifier".
    pos_label : int, float, bool or str, default=None
        The positive class, named in the x-axis label; None takes ``curve.pos_label``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from clfeval.costs import cost_curve
    >>> d = CostCurveDisplay.from_curve(cost_curve([0, 1, 0, 1], [.2, .9, .6, .4]), ax=Figure().add_subplot())
    >>> len(d.lines_.get_segments()), d.trivial_line_.get_label()
    (5, 'Trivial classifiers (area = 0.250)')
    >>> d = CostCurveDisplay(curve=d.curve, name="m", pos_label="yes").plot(ax=Figure().add_subplot())
    >>> d.envelope_line_.get_label(), d.ax_.get_xlabel()
    ('m (area = 0.125)', 'Probability cost PC(+) (positive class: yes)')
    """

    def __init__(self, *, curve: CostCurve, name: str | None = None, pos_label: Any = None) -> None:
        if not isinstance(curve, CostCurve):
            raise TypeError(f"curve must be a CostCurve (see clfeval.costs.cost_curve), got {type(curve).__name__}.")
        self.curve = curve
        self.name = name
        self.pos_label = curve.pos_label if pos_label is None else pos_label

    @property
    def area(self) -> float:
        """Area under the lower envelope."""
        return self.curve.area

    @classmethod
    def from_curve(cls, curve: CostCurve, *, name: str | None = None, pos_label: Any = None,
                   ax: Axes | None = None, **plot_kwargs: Any) -> CostCurveDisplay:
        """Draw a :class:`~clfeval.costs.CostCurve`."""
        return cls(curve=curve, name=name, pos_label=pos_label).plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_ranking(cls, ranking: BinaryRanking, *, name: str | None = None, pos_label: Any = None,
                     threshold: float | None = None, ax: Axes | None = None, **plot_kwargs: Any) -> CostCurveDisplay:
        """The cost curve of a binary ranking; ``threshold`` adds the line of score >= it."""
        line = None if threshold is None else CostLine.at_threshold(ranking, threshold)
        curve = cost_curve_of(ranking, operating_line=line, pos_label=pos_label)
        return cls.from_curve(curve, name=name, ax=ax, **plot_kwargs)

    @classmethod
    def from_evaluation(cls, ev: Evaluation, *, curve: str | None = None, name: str | None = None,
                        ax: Axes | None = None, **plot_kwargs: Any) -> CostCurveDisplay:
        """The cost curve of an evaluation's scores (binary: the positive class; else ``curve=``
        a class, one-vs-rest), with the line of its predictions."""
        return cls.from_curve(ev.cost_curve(curve=curve), name=name or model_name(ev), ax=ax, **plot_kwargs)

    def plot(
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        max_lines: int = MAX_COST_LINES,
        show_lines: bool = True,
        show_trivial: bool = True,
        show_operating_line: bool = True,
        y_max: float = 0.52,
        lines_kw: dict[str, Any] | None = None,
        trivial_kw: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> CostCurveDisplay:
        """Draw on ``ax`` (a new figure if None). ``max_lines``: at most that many threshold lines
        (plus the envelope's), see :meth:`~clfeval.costs.CostCurve.line_subset`. ``kwargs`` go
        to the envelope's ``ax.plot``, ``lines_kw`` to the LineCollection, ``trivial_kw`` to the
        trivial classifiers' ``ax.plot``. ``y_max``: the top of the y-axis; the default shows
        the trivial classifiers' peak (0.5): a line above it at some PC is worse there than
        always predicting one class (lines reach 1; ``y_max=1`` shows them whole)."""
        from matplotlib.collections import LineCollection

        fig, ax = new_axes(ax, (5.6, 5.2))
        c = self.curve
        name = name or self.name or "Classifier"
        kw: dict[str, Any] = {"linewidth": 2.2, "label": area_label(name, "area", c.area), "zorder": 3}
        kw.update(kwargs)
        self.envelope_line_: Line2D = ax.plot(c.envelope_pc, c.envelope_nec, **kw)[0]
        color = self.envelope_line_.get_color()
        self.lines_: LineCollection | None = None
        if show_lines:
            keep = c.line_subset(max_lines)
            segments = np.stack([np.zeros(keep.size), c.fpr[keep], np.ones(keep.size), c.fnr[keep]], axis=1)
            shown = f"{keep.size} of {len(c)}" if keep.size < len(c) else f"{len(c)}"
            lkw: dict[str, Any] = {"colors": [color], "linewidths": 0.6, "alpha": 0.2, "zorder": 1,
                                   "label": f"{name}: one line per threshold ({shown})"}
            lkw.update(lines_kw or {})
            self.lines_ = LineCollection(segments.reshape(-1, 2, 2), **lkw)
            ax.add_collection(self.lines_)
        self.trivial_line_: Line2D | None = None
        if show_trivial and not has_gid(ax, TRIVIAL_GID):
            tkw: dict[str, Any] = {"linestyle": "--", "color": "0.45", "linewidth": 1.2, "zorder": 2,
                                   "label": area_label("Trivial classifiers", "area", 0.25)}
            tkw.update(trivial_kw or {})
            (self.trivial_line_,) = ax.plot([0.0, 0.5, 1.0], [0.0, 0.5, 0.0], gid=TRIVIAL_GID, **tkw)
        self.operating_line_: Line2D | None = None
        op = c.operating_line
        if show_operating_line and op is not None and np.isfinite([op.fpr, op.fnr]).all():
            text = "operating line" if op.threshold is None else f"operating line (threshold = {op.threshold:.3g})"
            (self.operating_line_,) = ax.plot([0.0, 1.0], [op.fpr, op.fnr], color=color, linestyle=":",
                                              linewidth=1.6, zorder=2.5, label=f"{name}: {text}")
        ax.set_xlim(0.0, 1.0)
        ax.set_ylim(0.0, y_max)
        ax.set_xlabel("Probability cost PC(+)" + positive_suffix(self.pos_label))
        ax.set_ylabel("Normalised expected cost")
        ax.grid(True, color="0.9", linewidth=0.8)
        ax.set_axisbelow(True)
        refresh_legend(ax, loc="upper right", fontsize="small")
        self.ax_, self.figure_ = ax, fig
        return self


class DecisionCurveDisplay(ManyModels):
    """Vickers and Elkin's decision curve: net benefit against the threshold probability.

    Build it with :meth:`from_evaluation`, :meth:`from_evaluations` (several models on one axes;
    also ``plot(ax=...)`` again on the same axes), :meth:`from_predictions`,
    :meth:`from_ranking` or :meth:`from_curve`. The y-axis runs from a tenth of its top below 0
    (its top: just above the highest prevalence drawn, the most any model can gain) - "treat all" dives
    steeply to the right and is clipped there, as decision curves customarily are. After
    ``plot``: ``line_`` (the model), ``treat_all_`` (None when not drawn or already there for that
    prevalence), ``treat_none_`` (likewise), ``ax_``, ``figure_``.

    Parameters
    ----------
    curve : DecisionCurve
        The decision curve to draw (see :func:`clfeval.costs.decision_curve`); a TypeError for
        anything else.
    name : str, default=None
        The model's name in the legend; None writes "Classifier".
    pos_label : int, float, bool or str, default=None
        The positive class, named in the x-axis label; None takes ``curve.pos_label``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from clfeval.costs import decision_curve
    >>> dc = decision_curve([0, 1, 0, 1], [.2, .9, .6, .4], thresholds=[0.1, 0.5])
    >>> d = DecisionCurveDisplay.from_curve(dc, name="m", ax=Figure().add_subplot())
    >>> d.line_.get_label(), [round(float(v), 4) for v in d.ax_.get_ylim()]
    ('m', [-0.0525, 0.525])
    """

    def __init__(self, *, curve: DecisionCurve, name: str | None = None, pos_label: Any = None) -> None:
        if not isinstance(curve, DecisionCurve):
            raise TypeError(f"curve must be a DecisionCurve (see clfeval.costs.decision_curve), got "
                            f"{type(curve).__name__}.")
        self.curve = curve
        self.name = name
        self.pos_label = curve.pos_label if pos_label is None else pos_label

    @classmethod
    def from_curve(cls, curve: DecisionCurve, *, name: str | None = None, pos_label: Any = None,
                   ax: Axes | None = None, **plot_kwargs: Any) -> DecisionCurveDisplay:
        """Draw a :class:`~clfeval.costs.DecisionCurve`."""
        return cls(curve=curve, name=name, pos_label=pos_label).plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_ranking(cls, ranking: BinaryRanking, *, thresholds: Any = None, name: str | None = None,
                     pos_label: Any = None, ax: Axes | None = None, **plot_kwargs: Any) -> DecisionCurveDisplay:
        """The decision curve of a ranking of predicted probabilities (not checked here)."""
        curve = decision_curve_of(ranking, thresholds, pos_label=pos_label)
        return cls.from_curve(curve, name=name, ax=ax, **plot_kwargs)

    @classmethod
    def from_evaluation(cls, ev: Evaluation, *, thresholds: Any = None, curve: str | None = None,
                        name: str | None = None, ax: Axes | None = None, **plot_kwargs: Any) -> DecisionCurveDisplay:
        """The decision curve of an evaluation's predicted probabilities (binary: the positive
        class; else ``curve=``); decision values are refused: they are not risks."""
        return cls.from_curve(ev.decision_curve(thresholds, curve=curve), name=name or model_name(ev), ax=ax,
                              **plot_kwargs)

    def plot(
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        standardized: bool = False,
        show_treat_all: bool = True,
        show_treat_none: bool = True,
        y_min: float | None = None,
        treat_all_kw: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> DecisionCurveDisplay:
        """Draw on ``ax`` (a new figure if None). ``standardized``: net benefit / prevalence
        (treat all then ``1 - (1 - p) / p * pt / (1 - pt)``). ``y_min``: the bottom of the y-axis
        (default: a tenth of the top below 0). ``kwargs`` go to the model's ``ax.plot``."""
        fig, ax = new_axes(ax, (6.4, 4.8))
        c = self.curve
        name = name or self.name or "Classifier"
        shared = has_gid(ax, DECISION_GID)  # decision curves drawn here before: keep their limits
        p = c.prevalence
        kw: dict[str, Any] = {"linewidth": 2.0, "label": name, "zorder": 3}
        kw.update(kwargs)
        y = c.standardized_net_benefit if standardized else c.net_benefit
        (self.line_,) = ax.plot(c.thresholds, y, gid=DECISION_GID, **kw)
        self.treat_all_: Line2D | None = None
        all_gid = f"{TREAT_ALL_GID}{p!r}:{standardized}"
        if show_treat_all and not has_gid(ax, all_gid):
            treat_all = c.treat_all / p if standardized else c.treat_all
            akw: dict[str, Any] = {"color": "0.35", "linewidth": 1.2, "linestyle": "-.", "zorder": 2,
                                   "label": f"Treat all (prevalence = {p:.3g})"}
            akw.update(treat_all_kw or {})
            (self.treat_all_,) = ax.plot(c.thresholds, treat_all, gid=all_gid, **akw)
        self.treat_none_: Line2D | None = None
        if show_treat_none and not has_gid(ax, TREAT_NONE_GID):
            self.treat_none_ = ax.axhline(0.0, color="0.2", linewidth=1.0, linestyle="--", zorder=2,
                                          label="Treat none", gid=TREAT_NONE_GID)
        top = 1.05 * (1.0 if standardized else p)
        lo, hi = (float(c.thresholds.min()), float(c.thresholds.max())) if len(c) else (0.0, 1.0)
        if shared:
            (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
            lo, hi, top = min(lo, x0), max(hi, x1), max(top, y1)
        bottom = -0.1 * top if y_min is None else float(y_min)
        if shared and y_min is None:
            bottom = min(bottom, y0)
        ax.set_ylim(float(bottom), float(top))
        if hi > lo:
            ax.set_xlim(lo, hi)
        ax.set_xlabel("Threshold probability $p_t$" + positive_suffix(self.pos_label))
        ax.set_ylabel("Standardised net benefit" if standardized else "Net benefit")
        ax.grid(True, color="0.9", linewidth=0.8)
        ax.set_axisbelow(True)
        refresh_legend(ax, loc="best")
        self.ax_, self.figure_ = ax, fig
        return self
