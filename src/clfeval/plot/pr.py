"""Precision-recall display: the step-wise curve, labelled iso-F1 curves, the break-even point,
the prevalence baseline (chance level) and the average precision.

The curve is drawn as scikit-learn draws it: each recall interval at the precision of its
higher-recall end, the rectangles whose area is the average precision.

>>> import clfeval
>>> from matplotlib.figure import Figure
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="toy")
>>> disp = PrecisionRecallDisplay.from_evaluation(ev, ax=Figure().add_subplot())
>>> disp.line_.get_label(), disp.prevalence, disp.break_even_.get_xydata().tolist()
('toy (AP = 0.833, break-even = 0.500)', 0.5, [[0.5, 0.5]])

``band=0.95`` (or a CurveBand from ``ev.band("pr")``) shades the pointwise confidence band of
precision at each recall, held over each recall step as the curve is:

>>> disp = PrecisionRecallDisplay.from_evaluation(ev, band=0.9, ax=Figure().add_subplot())
>>> disp.band.kind, disp.band_.get_label()
('pr', '90% pointwise band (bootstrap, 2000 resamples)')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._curve import (
    BandOption, ManyModels, band_of, check_band, curve_title_name, draw_band, mark_point, model_name,
    pick_curve,
)
from ._style import DECOR_GID, area_label, positive_suffix, has_gid, new_axes, refresh_legend, threshold_text, unit_square

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

    from ..evaluation import Evaluation
    from ..roc_pr import BreakEvenPoint, Curve, OperatingPoint
    from ..uncertainty import CurveBand

__all__ = ["PrecisionRecallDisplay", "draw_iso_f1", "draw_prevalence", "prevalence_of", "ISO_F1"]

ISO_F1: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8)
ISO_GID = DECOR_GID + "iso-f1"
PREVALENCE_GID = DECOR_GID + "pr-chance"
#: PR curves are stored by decreasing threshold (recall increasing): "steps-pre" then holds each
#: recall interval at the precision of its right (higher-recall) end, as sklearn's plot does.
PR_DRAWSTYLE = "steps-pre"


def iso_f1_curve(f: float, n: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Points (recall, precision) where F1 equals ``f``, for recall in (f / 2, 1].

    >>> r, p = iso_f1_curve(0.5, 3)
    >>> [round(v, 4) for v in p.tolist()], r[-1].item()
    ([1.0, 0.4, 0.3333], 1.0)
    """
    r = np.linspace(f / (2 - f), 1.0, n)
    return r, f * r / (2 * r - f)


def draw_iso_f1(ax: Axes, values: Sequence[float] = ISO_F1) -> list[Line2D]:
    """Grey iso-F1 curves, labelled at the right edge, once per axes (empty list if present)."""
    if not values or has_gid(ax, ISO_GID):
        return []
    lines = []
    for i, f in enumerate(values):
        if not 0 < f < 1:
            raise ValueError(f"iso-F1 values must lie strictly between 0 and 1, got {f!r}.")
        r, p = iso_f1_curve(f)
        (line,) = ax.plot(
            r, p, color="0.6", linewidth=0.8, alpha=0.6, zorder=0, gid=ISO_GID,
            label="iso-F1 curves" if i == 0 else "_nolegend_",
        )
        ax.annotate(
            f"F1={f:g}", xy=(1.0, p[-1]), xytext=(4, 0), textcoords="offset points",
            ha="left", va="center", fontsize="x-small", color="0.45", annotation_clip=False,
        )
        lines.append(line)
    return lines


def draw_prevalence(ax: Axes, prevalence: float | None, **kwargs: Any) -> Line2D | None:
    """The no-skill baseline precision = prevalence, once per value per axes."""
    if prevalence is None or not np.isfinite(prevalence):
        return None
    for line in ax.get_lines():
        if line.get_gid() == PREVALENCE_GID and np.isclose(line.get_ydata()[0], prevalence):
            return None
    kw = dict(linestyle="--", color="0.5", linewidth=1.0, label=f"Chance level (AP = {prevalence:.2f})")
    kw.update(kwargs)
    (line,) = ax.plot([0, 1], [prevalence, prevalence], gid=PREVALENCE_GID, **kw)
    return line


def prevalence_of(ev: Evaluation, curve: Curve) -> float | None:
    """Share (by weight) of positives behind ``curve``: its class, or all one-vs-rest pairs for
    "micro"; None for "macro".

    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 1, 1, 1], y_score=[0.2, 0.9, 0.6, 0.4])
    >>> prevalence_of(ev, ev.pr.main)
    0.75
    """
    pc = ev.confusion.per_class()
    pos = (pc["tp"] + pc["fn"]).astype(np.float64)
    total = pos + pc["fp"] + pc["tn"]
    if ev.task != "binary" and curve.name in ("micro", "macro"):
        return float(pos.sum() / total.sum()) if curve.name == "micro" and total.sum() > 0 else None
    i = ev.names.index(curve.name)
    return float(pos[i] / total[i]) if total[i] > 0 else None


def break_even_of(ev: Evaluation, curve: Curve) -> BreakEvenPoint | None:
    """Break-even point of ``curve``: the evaluation's own for the main curve, else per class."""
    ranking = ev.ranking(curve.name)
    return None if ranking is None else ranking.break_even()


class PrecisionRecallDisplay(ManyModels):
    """Precision-recall curve of one binary scorer (or one curve of a multi-class evaluation).

    ``band``: a pointwise confidence band (:class:`~clfeval.uncertainty.CurveBand`, precision
    at each recall of a grid) or None. After ``plot``: ``line_``, ``band_``, ``chance_level_``,
    ``iso_f1_lines_``, ``break_even_``, ``operating_point_`` (each None / empty when not
    drawn), ``ax_``, ``figure_``.

    >>> from matplotlib.figure import Figure
    >>> d = PrecisionRecallDisplay(precision=[1, 1, 0.5], recall=[0, 1, 1], average_precision=1.0)
    >>> d.plot(ax=Figure().add_subplot(), iso_f1=()).line_.get_drawstyle()
    'steps-pre'
    """

    def __init__(
        self,
        *,
        precision: Any,
        recall: Any,
        average_precision: float | None = None,
        name: str | None = None,
        pos_label: Any = None,
        prevalence: float | None = None,
        break_even: BreakEvenPoint | None = None,
        thresholds: Any = None,
        operating_point: OperatingPoint | None = None,
        band: CurveBand | None = None,
    ) -> None:
        self.band = check_band(band, "pr")
        self.precision = np.asarray(precision, dtype=np.float64)
        self.recall = np.asarray(recall, dtype=np.float64)
        self.average_precision = average_precision
        self.name = name
        self.pos_label = pos_label
        self.prevalence = prevalence
        self.break_even = break_even
        self.thresholds = None if thresholds is None else np.asarray(thresholds, dtype=np.float64)
        self.operating_point = operating_point

    @classmethod
    def from_evaluation(
        cls,
        ev: Evaluation,
        *,
        curve: str | None = None,
        name: str | None = None,
        ax: Axes | None = None,
        band: BandOption = None,
        **plot_kwargs: Any,
    ) -> PrecisionRecallDisplay:
        """The PR curve of ``ev`` (binary: the positive class; else ``curve``, default "micro").

        ``band``: None (default, no band), a confidence level such as 0.95 (``True``: 0.95) for
        the pointwise bootstrap band of ``ev.band("pr", ...)`` (2000 resamples, seed 0), or a
        CurveBand made by ``ev.band`` with other settings.
        """
        c = pick_curve(ev, "pr", curve)
        disp = cls(
            precision=c.y, recall=c.x, average_precision=c.area,
            name=curve_title_name(ev, c, name or model_name(ev)),
            pos_label=c.name if ev.task == "binary" else None,
            prevalence=prevalence_of(ev, c), break_even=break_even_of(ev, c),
            thresholds=c.thresholds, operating_point=c.operating_point, band=band_of(ev, "pr", c, band),
        )
        return disp.plot(ax=ax, **plot_kwargs)

    def plot(
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        plot_chance_level: bool = True,
        iso_f1: Sequence[float] = ISO_F1,
        show_break_even: bool = True,
        show_operating_point: bool = True,
        chance_level_kw: dict[str, Any] | None = None,
        band_kw: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> PrecisionRecallDisplay:
        """Draw on ``ax`` (a new figure if None); ``kwargs`` go to the curve's ``ax.plot``,
        ``band_kw`` to the band's ``ax.fill_between`` (e.g. ``{"alpha": 0.3}``)."""
        fig, ax = new_axes(ax, (5.8, 5.2))
        name = name or self.name or "Classifier"
        be = self.break_even if show_break_even else None
        if be is not None and not np.isfinite(be.value):
            be = None
        label = area_label(name, "AP", self.average_precision)
        if be is not None:
            label = f"{label[:-1]}, break-even = {be.value:.3f})"
        line_kw: dict[str, Any] = {"linewidth": 2.0, "drawstyle": PR_DRAWSTYLE, "label": label}
        line_kw.update(kwargs)
        (self.line_,) = ax.plot(self.recall, self.precision, **line_kw)
        color = self.line_.get_color()
        self.band_ = None
        if self.band is not None:
            self.band_ = draw_band(ax, self.band, color=color, step=True, **(band_kw or {}))
        self.iso_f1_lines_ = draw_iso_f1(ax, iso_f1)
        self.chance_level_ = (
            draw_prevalence(ax, self.prevalence, **(chance_level_kw or {})) if plot_chance_level else None
        )
        self.break_even_ = None
        if be is not None:
            self.break_even_ = mark_point(
                ax, be.value, be.value, color=color, marker="D", size=10, hollow=True,
                label="break-even point (P = R)", group="break-even point",
            )
        self.operating_point_ = None
        op = self.operating_point
        if show_operating_point and op is not None and np.isfinite([op.x, op.y]).all():
            self.operating_point_ = mark_point(
                ax, op.x, op.y, color=color, label=threshold_text(op.threshold), group="operating point"
            )
        suffix = positive_suffix(self.pos_label)
        unit_square(ax, "Recall" + suffix, "Precision" + suffix, top=1.02)
        refresh_legend(ax, loc="lower left")
        self.ax_, self.figure_ = ax, fig
        return self
