"""ROC curve display: the curve, the random-guess diagonal, the current operating point, AUC.

>>> import clfeval
>>> from matplotlib.figure import Figure
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="toy")
>>> disp = RocCurveDisplay.from_evaluation(ev, ax=Figure().add_subplot())
>>> disp.line_.get_label(), disp.line_.get_xdata().tolist()
('toy (AUC = 0.750)', [0.0, 0.0, 0.5, 0.5, 1.0])

``band=0.95`` (or a CurveBand from ``ev.band("roc")``) shades the pointwise confidence band:

>>> disp = RocCurveDisplay.from_evaluation(ev, band=0.95, ax=Figure().add_subplot())
>>> disp.band.level, disp.band_.get_label()
(0.95, '95% pointwise band (bootstrap, 2000 resamples)')
"""

from __future__ import annotations

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
    from ..roc_pr import OperatingPoint
    from ..uncertainty import CurveBand

__all__ = ["RocCurveDisplay", "draw_chance_diagonal"]

CHANCE_GID = DECOR_GID + "roc-chance"


def draw_chance_diagonal(ax: Axes, **kwargs: Any) -> Line2D | None:
    """The random-guess diagonal (AUC 0.5), once per axes; None if it is already there."""
    if has_gid(ax, CHANCE_GID):
        return None
    kw = dict(linestyle="--", color="0.5", linewidth=1.0, label="Chance level (AUC = 0.5)")
    kw.update(kwargs)
    (line,) = ax.plot([0, 1], [0, 1], gid=CHANCE_GID, **kw)
    return line


class RocCurveDisplay(ManyModels):
    """ROC curve of one binary scorer (or one curve of a multi-class evaluation).

    Build it with :meth:`from_evaluation`, :meth:`from_evaluations` (several models on one
    axes) or :meth:`from_predictions`; ``plot`` again on other axes at will. ``band``: a
    pointwise confidence band (:class:`~clfeval.uncertainty.CurveBand`, TPR at each FPR of a
    grid) or None. After ``plot``: ``line_``, ``band_`` (the shaded band or None),
    ``chance_level_`` (None when not drawn or already there), ``operating_point_``, ``ax_``,
    ``figure_``.

    >>> from matplotlib.figure import Figure
    >>> d = RocCurveDisplay(fpr=[0, 0, 1], tpr=[0, 1, 1], roc_auc=1.0, name="perfect")
    >>> d.plot(ax=Figure().add_subplot()).line_.get_label()
    'perfect (AUC = 1.000)'
    """

    def __init__(
        self,
        *,
        fpr: Any,
        tpr: Any,
        roc_auc: float | None = None,
        name: str | None = None,
        pos_label: Any = None,
        thresholds: Any = None,
        operating_point: OperatingPoint | None = None,
        band: CurveBand | None = None,
    ) -> None:
        self.band = check_band(band, "roc")
        self.fpr = np.asarray(fpr, dtype=np.float64)
        self.tpr = np.asarray(tpr, dtype=np.float64)
        self.roc_auc = roc_auc
        self.name = name
        self.pos_label = pos_label
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
    ) -> RocCurveDisplay:
        """The ROC curve of ``ev`` (binary: the positive class; else ``curve``, default "micro").

        ``band``: None (default, no band), a confidence level such as 0.95 (``True``: 0.95) for
        the pointwise bootstrap band of ``ev.band("roc", ...)`` (2000 resamples, seed 0), or a
        CurveBand made by ``ev.band`` with other settings.
        """
        c = pick_curve(ev, "roc", curve)
        disp = cls(
            fpr=c.x, tpr=c.y, roc_auc=c.area,
            name=curve_title_name(ev, c, name or model_name(ev)),
            pos_label=c.name if ev.task == "binary" else None,
            thresholds=c.thresholds, operating_point=c.operating_point, band=band_of(ev, "roc", c, band),
        )
        return disp.plot(ax=ax, **plot_kwargs)

    def plot(
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        plot_chance_level: bool = True,
        show_operating_point: bool = True,
        chance_level_kw: dict[str, Any] | None = None,
        band_kw: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> RocCurveDisplay:
        """Draw on ``ax`` (a new figure if None); ``kwargs`` go to the curve's ``ax.plot``,
        ``band_kw`` to the band's ``ax.fill_between`` (e.g. ``{"alpha": 0.3}``)."""
        fig, ax = new_axes(ax, (5.6, 5.2))
        name = name or self.name or "Classifier"
        line_kw: dict[str, Any] = {"linewidth": 2.0, "label": area_label(name, "AUC", self.roc_auc)}
        line_kw.update(kwargs)
        (self.line_,) = ax.plot(self.fpr, self.tpr, **line_kw)
        self.band_ = None
        if self.band is not None:
            self.band_ = draw_band(ax, self.band, color=self.line_.get_color(), **(band_kw or {}))
        self.chance_level_ = draw_chance_diagonal(ax, **(chance_level_kw or {})) if plot_chance_level else None
        self.operating_point_ = None
        op = self.operating_point
        if show_operating_point and op is not None and np.isfinite([op.x, op.y]).all():
            self.operating_point_ = mark_point(
                ax, op.x, op.y, color=self.line_.get_color(), label=threshold_text(op.threshold),
                group="operating point",
            )
        suffix = positive_suffix(self.pos_label)
        unit_square(ax, "False positive rate" + suffix, "True positive rate" + suffix)
        refresh_legend(ax, loc="lower right")
        self.ax_, self.figure_ = ax, fig
        return self
