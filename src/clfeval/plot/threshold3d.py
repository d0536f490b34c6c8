"""3-D views of ROC and PR curves with the decision threshold as the depth axis:
(FPR, threshold, TPR) and (recall, threshold, precision).

Every distinct score is a point (ROC points are not thinned as in the 2-D curve), and the line
is a staircase along the threshold: rates stay those of a score down to the next lower score.
Points without a finite threshold (the synthetic end point at +inf, an averaged macro curve)
are dropped; decision scores give an unbounded threshold axis, which simply spans their range.

>>> import clfeval
>>> from matplotlib.figure import Figure
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="toy")
>>> ax = Figure().add_subplot(projection="3d")
>>> disp = ThresholdCurve3DDisplay.from_evaluation(ev, kind="roc", ax=ax)
>>> disp.thresholds.tolist()  # the synthetic +inf point is gone
[0.8, 0.4, 0.35, 0.1]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from clfeval.formulas.curves import roc_rates
from clfeval.plot._curve import (
    PLOT_MAX_POINTS,
    ManyModels,
    curve_title_name,
    finite,
    mark_point,
    model_name,
    pick_curve,
)
from clfeval.plot._style import area_label, new_axes, refresh_legend, threshold_text

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from clfeval.evaluation import Evaluation
    from clfeval.statistics.rankings import Curve, OperatingPoint

__all__ = ["ThresholdCurve3DDisplay", "far_walls", "ELEV", "AZIM"]

#: The default view (degrees): from above and in front, FPR (recall) growing to the right, the
#: threshold falling away from the viewer; orthographic, so a point's height does not depend on
#: its depth.
ELEV, AZIM = 24.0, -60.0

_AXES = {
    "roc": ("False positive rate", "True positive rate", "AUC"),
    "pr": ("Recall", "Precision", "AP"),
}


def rates_at_every_score(ev: Evaluation, curve: Curve) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(FPR, TPR, thresholds) at every distinct score of ``curve``'s ranking, by decreasing
    threshold; the curve's own points for an averaged (macro) curve, which has no ranking.

    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 0, 1, 1, 0], y_score=[0.1, 0.2, 0.35, 0.8, 0.9])
    >>> [a.tolist() for a in rates_at_every_score(ev, ev.roc.main)]
    [[0.3333333333333333, 0.3333333333333333, 0.3333333333333333, 0.6666666666666666, 1.0], [0.0, 0.5, 1.0, 1.0, 1.0], [0.9, 0.8, 0.35, 0.2, 0.1]]
    """
    ranking = ev.ranking(curve.name)
    if ranking is None:
        return curve.x, curve.y, curve.thresholds
    if ranking.scores.size > PLOT_MAX_POINTS:  # exact points at evenly spread cuts
        ranking = ranking.coarsened(ranking.cut_points(PLOT_MAX_POINTS))
    fpr, tpr = roc_rates(ranking.neg, ranking.pos)  # from the origin: the first point is (0, 0)
    return fpr[1:], tpr[1:], np.asarray(ranking.scores, dtype=np.float64)


def staircase(x: np.ndarray, t: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The exact path of rates against threshold: each point's rates held from its threshold
    down to the next one, then a jump.

    >>> [a.tolist() for a in staircase(np.array([0., 1.]), np.array([.9, .2]), np.array([.5, 1.]))]
    [[0.0, 0.0, 1.0], [0.9, 0.2, 0.2], [0.5, 0.5, 1.0]]
    """
    return np.repeat(x, 2)[:-1], np.repeat(t, 2)[1:], np.repeat(y, 2)[:-1]


class ThresholdCurve3DDisplay(ManyModels):
    """A curve in 3-D: x = FPR (recall), y = threshold, z = TPR (precision).

    ``x``, ``y``, ``thresholds``: the points drawn (finite thresholds only, decreasing).
    After ``plot``: ``line_`` (the staircase through them), ``projection_`` (the plain 2-D curve
    on the back wall, or None), ``operating_point_``, ``ax_`` (3-D axes), ``figure_``.

    Parameters
    ----------
    kind : {"roc", "pr"}
        Which curve: ROC (x the false positive rate, y the true positive rate) or
        precision-recall (x the recall, y the precision).
    x : array-like
        The curve's horizontal coordinate at each point: false positive rate or recall.
    y : array-like
        The curve's vertical coordinate at each point: true positive rate or precision (drawn on
        the 3-D z axis).
    thresholds : array-like
        The decision threshold of each point, by decreasing value; points whose threshold, x or
        y is not finite are dropped (a ValueError when none is left).
    area : float, default=None
        Area under the curve (AUC or AP), written in the legend.
    name : str, default=None
        The model's name in the legend; None writes "Classifier".
    operating_point : OperatingPoint, default=None
        The point of the model's own predictions, marked at its threshold by ``plot``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> d = ThresholdCurve3DDisplay(kind="pr", x=[0, 0.5, 1], y=[1, 1, 0.5], thresholds=[np.inf, 0.8, 0.2])
    >>> d.x.tolist(), d.thresholds.tolist()
    ([0.5, 1.0], [0.8, 0.2])
    >>> d = ThresholdCurve3DDisplay(kind="roc", x=[0.5, 1], y=[1, 1], thresholds=[0.8, 0.2], area=0.75)
    >>> d.plot(ax=Figure().add_subplot(projection="3d"), name="m").line_.get_label()
    'm (AUC = 0.750)'
    """

    def __init__(
        self,
        *,
        kind: Literal["roc", "pr"],
        x: Any,
        y: Any,
        thresholds: Any,
        area: float | None = None,
        name: str | None = None,
        operating_point: OperatingPoint | None = None,
    ) -> None:
        if kind not in _AXES:
            raise ValueError(f"kind must be 'roc' or 'pr', got {kind!r}.")
        x, y, t = (np.asarray(a, dtype=np.float64) for a in (x, y, thresholds))
        keep = finite(x, y, t)
        if not keep.any():
            raise ValueError(
                "the curve has no point with a finite threshold (an averaged curve has none): "
                "choose a per-class or micro curve."
            )
        self.kind = kind
        self.x, self.y, self.thresholds = x[keep], y[keep], t[keep]
        self.area = area
        self.name = name
        self.operating_point = operating_point

    @classmethod
    def from_evaluation(
        cls,
        ev: Evaluation,
        kind: Literal["roc", "pr"] = "roc",
        *,
        curve: str | None = None,
        name: str | None = None,
        ax: Axes | None = None,
        **plot_kwargs: Any,
    ) -> ThresholdCurve3DDisplay:
        """The main curve of ``ev`` (binary: positive class; else ``curve``, default "micro")."""
        c = pick_curve(ev, kind, curve)
        x, y, t = rates_at_every_score(ev, c) if kind == "roc" else (c.x, c.y, c.thresholds)
        disp = cls(
            kind=kind, x=x, y=y, thresholds=t, area=c.area,
            name=curve_title_name(ev, c, name or model_name(ev)), operating_point=c.operating_point,
        )
        return disp.plot(ax=ax, **plot_kwargs)

    def plot(
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        show_projection: bool = True,
        show_operating_point: bool = True,
        elev: float = ELEV,
        azim: float = AZIM,
        **kwargs: Any,
    ) -> ThresholdCurve3DDisplay:
        """Draw on 3-D ``ax`` (a new figure if None); ``kwargs`` go to the curve's ``ax.plot``.

        A 3-D line on paper has no depth: a point near the viewer looks lower than it is (the
        old view made a ROC curve that ends at (1, 1) seem to sag to TPR 0.75). So the view is
        orthographic (no perspective), from above (``elev``) and in front (``azim``), with the
        threshold axis running from high (near) to low (far): the curve ends on the far wall,
        beside the rate axis's labels, where its plain 2-D curve is drawn (``show_projection``,
        with its other two shadows: the rate against threshold on the far side wall, x against
        threshold on the floor). Both ends are marked, each with a dotted line to the floor.
        """
        fig, ax = new_axes(ax, (7.0, 6.2), projection="3d")
        xlabel, zlabel, area = _AXES[self.kind]
        name = name or self.name or "Classifier"
        line_kw: dict[str, Any] = {"linewidth": 2.0, "label": area_label(name, area, self.area)}
        line_kw.update(kwargs)
        (self.line_,) = ax.plot(*staircase(self.x, self.thresholds, self.y), **line_kw)
        color = self.line_.get_color()
        t_lo, t_hi = float(self.thresholds.min()), float(self.thresholds.max())
        ax.set_xlim(0, 1)
        ax.set_zlim(0, 1)
        # the threshold falls away from the viewer: the curve ends (ROC: at (1, 1)) on the far
        # wall, beside the rate axis's labels; several curves on the axes: it spans them all
        lo, hi = (t_lo - 0.5, t_hi + 0.5) if t_lo == t_hi else (t_lo, t_hi)
        if len(ax.lines) > 1:
            lo, hi = min(lo, *ax.get_ylim()), max(hi, *ax.get_ylim())
        ax.set_ylim(hi, lo)
        self.projection_ = None
        self.wall_projections_: tuple[Any, ...] = ()
        if show_projection:
            x_wall, t_wall = far_walls(ax, azim)
            shadow = {"color": color, "alpha": 0.35, "linewidth": 1.0, "label": "_nolegend_"}
            n = self.x.size
            # the ordinary 2-D curve, on the far threshold wall
            (self.projection_,) = ax.plot(self.x, np.full(n, t_wall), self.y, **shadow)
            # the rate against threshold on the far x wall, x against threshold on the floor
            (side,) = ax.plot(np.full(n, x_wall), self.thresholds, self.y, linestyle="--", **shadow)
            (floor,) = ax.plot(self.x, self.thresholds, np.zeros(n), linestyle=":", **shadow)
            self.wall_projections_ = (self.projection_, side, floor)
        self.ends_ = []
        for i in (0, -1):
            x, t, z = float(self.x[i]), float(self.thresholds[i]), float(self.y[i])
            if np.isfinite([x, z]).all():
                ax.plot([x, x], [t, t], [0.0, z], color=color, linestyle=":", linewidth=1.0, label="_nolegend_")
                (end,) = ax.plot([x], [t], [z], marker="o", markersize=4, color=color, linestyle="none",
                                 label="_nolegend_")
                self.ends_.append(end)
        self.operating_point_ = None
        op = self.operating_point
        if show_operating_point and op is not None and op.threshold is not None and np.isfinite([op.x, op.y]).all():
            self.operating_point_ = mark_point(
                ax, op.x, op.threshold, z=op.y, color=color, label=threshold_text(op.threshold),
                group="operating point",
            )
        ax.set_xlabel(xlabel)
        ax.set_ylabel("Threshold")
        ax.set_zlabel(zlabel)
        ax.view_init(elev=elev, azim=azim)
        ax.set_proj_type("ortho")
        refresh_legend(ax, loc="upper left", fontsize="small")
        self.ax_, self.figure_ = ax, fig
        return self

    def plot_rates(self, ax: Axes, *, color: Any = None) -> list[Any]:
        """The companion 2-D panel: both coordinates of the curve against the threshold on 2-D
        ``ax`` (ROC: TPR solid, FPR dashed; PR: precision solid, recall dashed), as the exact
        staircase; ``color`` defaults to the 3-D line's. Returns the two lines.

        >>> from matplotlib.figure import Figure
        >>> d = ThresholdCurve3DDisplay(kind="roc", x=[0.5, 1], y=[1, 1], thresholds=[0.8, 0.2], name="m")
        >>> [line.get_label() for line in d.plot_rates(Figure().add_subplot())]
        ['m: TPR', 'm: FPR']
        """
        xlabel, zlabel, _ = _AXES[self.kind]
        short = {"roc": ("TPR", "FPR"), "pr": ("precision", "recall")}[self.kind]
        if color is None:
            color = self.line_.get_color() if getattr(self, "line_", None) is not None else None
        x, t, z = staircase(self.x, self.thresholds, self.y)
        name = self.name or "Classifier"
        (rate,) = ax.plot(t, z, color=color, linewidth=1.8, label=f"{name}: {short[0]}")
        (other,) = ax.plot(t, x, color=rate.get_color(), linewidth=1.4, linestyle="--", label=f"{name}: {short[1]}")
        ax.set_xlabel("Threshold")
        ax.set_ylabel("Rate" if self.kind == "roc" else "Precision, recall")
        ax.set_ylim(-0.02, 1.02)
        ax.grid(True, alpha=0.3)
        return [rate, other]



def far_walls(ax: Axes, azim: float) -> tuple[float, float]:
    """(x, threshold) of the two vertical walls of 3-D ``ax`` farthest from a viewer at azimuth
    ``azim`` degrees (matplotlib's: the eye at (cos azim, sin azim) on the x-y plane).

    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot(projection="3d")
    >>> _ = ax.set_xlim(0, 1), ax.set_ylim(0.2, 0.9)
    >>> far_walls(ax, -60.0), far_walls(ax, -120.0)
    ((0.0, 0.9), (1.0, 0.9))
    """
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    a = np.deg2rad(azim)
    return float(x0 if np.cos(a) > 0 else x1), float(y0 if np.sin(a) > 0 else y1)
