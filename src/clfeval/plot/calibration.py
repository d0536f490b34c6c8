"""Reliability diagram: observed frequency against mean predicted probability per bin, the
diagonal of perfect calibration, and how many samples each bin holds.

On a new figure the counts get a panel of their own below the diagram; on axes you pass, they are
drawn as translucent steps along the bottom of the diagram (right-hand scale), or on ``hist_ax``.

>>> from matplotlib.figure import Figure
>>> ax = Figure().add_subplot()
>>> d = ReliabilityDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.6, 0.9], n_bins=2, ax=ax)
>>> d.line_.get_xydata().tolist(), d.hist_.get_data().values.tolist()
([[0.25, 0.0], [0.75, 1.0]], [2.0, 2.0])
>>> d.line_.get_label()
'Classifier (ECE = 0.250)'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from clfeval.calibration.checks import STRATEGIES, check_choice, check_n_bins
from clfeval.calibration.functions import view_reliability
from clfeval.calibration.inputs import evaluation_inputs, read_inputs, resolve_view
from clfeval.calibration.results import ReliabilityCurve
from clfeval.plot._curve import model_name
from clfeval.plot._style import DECOR_GID, area_label, has_gid, refresh_legend, require_matplotlib, unit_square

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

    from clfeval.evaluation import Evaluation

__all__ = ["ReliabilityDisplay"]

DIAGONAL_GID = DECOR_GID + "perfect-calibration"
COUNTS_GID = "clfeval-reliability-counts"
COUNT_TEXT_GID = "clfeval-reliability-count-text:"
#: drawn inside the diagram, the count steps fill at most this fraction of its height
INSET_FRACTION = 0.22


def _axis_words(view: str) -> tuple[str, str]:
    if view == "top-label":
        return "Mean confidence (top label)", "Accuracy (top label)"
    if view.startswith("positive class "):
        suffix = f" (positive class: {view[len('positive class '):]})"
        return "Mean predicted probability" + suffix, "Fraction of positives" + suffix
    return f"Mean predicted probability ({view})", f"Observed frequency ({view})"


def _count_locator() -> Any:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(nbins=3, integer=True, min_n_ticks=2)


def _inset_counts_axes(ax: Axes) -> Axes:
    """The axes along the bottom of ``ax`` (same x scale, beneath the curves) that holds the
    count steps, made once per ``ax``."""
    for child in ax.child_axes:
        if child.get_gid() == COUNTS_GID:
            return child
    inset = ax.inset_axes([0.0, 0.0, 1.0, INSET_FRACTION], sharex=ax, zorder=0.5)
    inset.set_gid(COUNTS_GID)
    inset.patch.set_visible(False)
    for side in ("top", "left", "bottom"):
        inset.spines[side].set_visible(False)
    inset.spines["right"].set_color("0.6")
    inset.tick_params(axis="x", which="both", bottom=False, labelbottom=False)
    inset.yaxis.tick_right()
    # tick labels inside the diagram: nothing sticks out of the axes' box
    inset.tick_params(axis="y", direction="in", pad=-3, colors="0.35", labelsize="x-small")
    for label in inset.get_yticklabels():
        label.set_horizontalalignment("right")
    return inset


class ReliabilityDisplay:
    """Reliability diagram of one model (one view: the positive class, a class against the rest,
    or the top label).

    Build it with :meth:`from_predictions`, :meth:`from_evaluation` or :meth:`from_evaluations`
    (several models on one axes); ``plot`` again at will. Attributes: ``curve``
    (:class:`~clfeval.calibration.ReliabilityCurve`), ``ece``, ``name``; after ``plot``:
    ``line_``, ``hist_`` (the count steps), ``hist_ax_``, ``diagonal_`` (None when already
    drawn), ``ax_``, ``figure_``.

    Parameters
    ----------
    curve : ReliabilityCurve
        The bins to draw: mean predicted probability, observed frequency and weight per bin
        (a TypeError for anything else).
    ece : float, default=None
        Expected calibration error, written in the legend; None leaves it out.
    name : str, default=None
        The model's name in the legend; None writes "Classifier".

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from clfeval.calibration import reliability_curve
    >>> c = reliability_curve([0, 1, 1, 0], [0.2, 0.9, 0.7, 0.4], n_bins=2)
    >>> d = ReliabilityDisplay(curve=c, ece=c.calibration_error(), name="m").plot(ax=Figure().add_subplot())
    >>> d.line_.get_label(), d.hist_ax_ is not d.ax_
    ('m (ECE = 0.250)', True)
    """

    def __init__(self, *, curve: ReliabilityCurve, ece: float | None = None, name: str | None = None) -> None:
        if not isinstance(curve, ReliabilityCurve):
            raise TypeError(f"curve must be a ReliabilityCurve, got {type(curve).__name__}.")
        self.curve = curve
        self.ece = ece
        self.name = name

    @property
    def mean_predicted(self) -> np.ndarray:
        return self.curve.mean_predicted

    @property
    def observed(self) -> np.ndarray:
        return self.curve.observed

    @property
    def counts(self) -> np.ndarray:
        """Samples (or total weight) per bin."""
        return self.curve.weight

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_prob: Any,
        *,
        n_bins: int = 10,
        strategy: str = "uniform",
        pos_label: Any = None,
        mode: str | None = None,
        labels: Any = None,
        sample_weight: Any = None,
        name: str | None = None,
        ax: Axes | None = None,
        **plot_kwargs: Any,
    ) -> ReliabilityDisplay:
        """Reliability diagram of probabilities: 1-D ``y_prob`` (binary, the probability of
        ``pos_label``) or (n, k) (top-label by default; ``pos_label`` picks a class against the
        rest). Other keywords go to :meth:`plot`."""
        n_bins = check_n_bins(n_bins)
        check_choice(strategy, STRATEGIES, "strategy")
        x = read_inputs(y_true, y_prob, pos_label=pos_label, labels=labels, sample_weight=sample_weight)
        curve = view_reliability(x, resolve_view(x, mode, pos_label), n_bins, strategy)
        disp = cls(curve=curve, ece=curve.calibration_error(), name=name)
        return disp.plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_evaluation(
        cls,
        ev: Evaluation,
        *,
        n_bins: int = 10,
        strategy: str = "uniform",
        mode: str | None = None,
        pos_label: Any = None,
        name: str | None = None,
        ax: Axes | None = None,
        **plot_kwargs: Any,
    ) -> ReliabilityDisplay:
        """Reliability diagram of an evaluation's probabilities: binary, the positive class;
        multi-class, the top label (or ``pos_label``'s class against the rest, by name)."""
        n_bins = check_n_bins(n_bins)
        check_choice(strategy, STRATEGIES, "strategy")
        x = evaluation_inputs(ev)
        curve = view_reliability(x, resolve_view(x, mode, pos_label), n_bins, strategy)
        disp = cls(curve=curve, ece=curve.calibration_error(), name=name or model_name(ev))
        return disp.plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_evaluations(
        cls, evaluations: Sequence[Evaluation], *, ax: Axes | None = None, **kwargs: Any
    ) -> list[ReliabilityDisplay]:
        """One display per evaluation on the same axes (and the same counts panel)."""
        evaluations = list(evaluations)
        if not evaluations:
            raise ValueError("from_evaluations needs at least one Evaluation.")
        out: list[ReliabilityDisplay] = []
        hist_ax = kwargs.pop("hist_ax", None)
        for i, ev in enumerate(evaluations):
            d = cls.from_evaluation(ev, ax=ax, hist_ax=hist_ax, name=model_name(ev, i), **kwargs)
            ax, hist_ax = d.ax_, d.hist_ax_
            out.append(d)
        return out

    # -- drawing ------------------------------------------------------------------------------------

    def plot(
        self,
        ax: Axes | None = None,
        *,
        hist_ax: Axes | None = None,
        name: str | None = None,
        show_counts: bool = True,
        plot_diagonal: bool = True,
        diagonal_kw: dict[str, Any] | None = None,
        hist_kw: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> ReliabilityDisplay:
        """Draw on ``ax`` (None: a new figure with a counts panel below). ``hist_ax``: where the
        counts go (default: that panel, or along the bottom of ``ax``); ``kwargs`` go to the curve's
        ``ax.plot``, ``hist_kw`` to the counts' ``stairs``."""
        require_matplotlib()
        if ax is None:
            import matplotlib.pyplot as plt

            fig = plt.figure(figsize=(5.6, 6.6), layout="constrained")
            grid = fig.add_gridspec(2, 1, height_ratios=(3.2, 1))
            ax = fig.add_subplot(grid[0])
            if show_counts and hist_ax is None:
                hist_ax = fig.add_subplot(grid[1], sharex=ax)
        fig = ax.figure
        c = self.curve
        name = name or self.name or "Classifier"
        keep = c.nonempty
        label = area_label(name, "ECE", self.ece) if self.ece is not None else name
        line_kw: dict[str, Any] = {"marker": "o", "markersize": 5, "linewidth": 1.8, "label": label, "zorder": 3}
        line_kw.update(kwargs)
        (self.line_,) = ax.plot(c.mean_predicted[keep], c.observed[keep], **line_kw)
        self.diagonal_ = self._diagonal(ax, diagonal_kw) if plot_diagonal else None
        xlabel, ylabel = _axis_words(c.view)
        panel = hist_ax is not None and show_counts
        shared = panel and hist_ax.get_shared_x_axes().joined(ax, hist_ax)
        unit_square(ax, "" if shared else xlabel, ylabel)
        if shared:  # a box aspect would narrow the diagram and misalign it with the panel
            ax.set_aspect("auto")
            ax.tick_params(axis="x", labelbottom=False)
        legend = refresh_legend(ax, loc="lower left", fontsize="small")
        if legend is not None:  # above the diagram: no corner of a reliability diagram is free
            legend.set_bbox_to_anchor((0.0, 1.01), transform=ax.transAxes)
            legend.set_frame_on(False)
        self.hist_ = self.hist_ax_ = None
        if show_counts:
            self.hist_ax_ = hist_ax if hist_ax is not None else _inset_counts_axes(ax)
            self.hist_ = self._counts(self.hist_ax_, inset=hist_ax is None, panel_xlabel=xlabel, kw=hist_kw)
        self.ax_, self.figure_ = ax, fig
        return self

    @staticmethod
    def _diagonal(ax: Axes, kw: dict[str, Any] | None) -> Line2D | None:
        if has_gid(ax, DIAGONAL_GID):
            return None
        style = dict(linestyle="--", color="0.5", linewidth=1.0, label="Perfectly calibrated")
        style.update(kw or {})
        (line,) = ax.plot([0, 1], [0, 1], gid=DIAGONAL_GID, **style)
        return line

    def _counts(self, hax: Axes, *, inset: bool, panel_xlabel: str, kw: dict[str, Any] | None) -> Any:
        c = self.curve
        color = self.line_.get_color()
        style: dict[str, Any] = dict(fill=True, alpha=0.3, color=color, linewidth=0)
        style.update(kw or {})
        values = c.weight.astype(np.float64)
        hist = hax.stairs(values, c.edges, label=f"{self.line_.get_label()} counts", **style)
        hax.stairs(values, c.edges, color=color, linewidth=1.0, alpha=0.9, label="_outline")
        what = "Total weight" if c.weighted else "Samples"
        top = max([float(np.max(s.get_data().values, initial=0.0)) for s in hax.patches if hasattr(s, "get_data")] + [1.0])
        if inset:
            hax.set_ylim(0, top * 1.02)
            hax.yaxis.set_major_locator(_count_locator())
            for label in hax.get_yticklabels():
                label.set_horizontalalignment("right")
            if not has_gid(hax, COUNT_TEXT_GID + "title"):
                hax.text(0.995, 1.0, f"{what.lower()} per bin", transform=hax.transAxes, ha="right",
                         va="bottom", fontsize="x-small", color="0.35", gid=COUNT_TEXT_GID + "title")
        else:
            hax.set_ylim(0, top * 1.15)
            hax.set_xlim(-0.01, 1.01)
            hax.set_xlabel(panel_xlabel)
            hax.set_ylabel(f"{what}\nper bin")
            hax.grid(True, axis="y", color="0.9", linewidth=0.8)
            hax.set_axisbelow(True)
            for t in [t for t in hax.texts if str(t.get_gid() or "").startswith(COUNT_TEXT_GID)]:
                t.remove()  # numbers are written for one model only
            models = sum(1 for a in hax.patches if a.get_label() and not a.get_label().startswith("_"))
            if c.n_bins <= 20 and models == 1:
                centers = (c.edges[:-1] + c.edges[1:]) / 2
                for x, v in zip(centers, values):
                    if v > 0:
                        text = f"{v:.0f}" if not c.weighted else f"{v:.3g}"
                        hax.annotate(text, (x, v), xytext=(0, 2), textcoords="offset points", ha="center",
                                     va="bottom", fontsize="x-small", color="0.25", gid=COUNT_TEXT_GID + "n")
        return hist
