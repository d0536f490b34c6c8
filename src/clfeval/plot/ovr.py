"""One-vs-rest ROC or PR curves of a multi-class (or multilabel) evaluation: one curve per class
plus the micro and macro averages, with the legend beside the axes when it is long.

>>> import clfeval, numpy as np
>>> from matplotlib.figure import Figure
>>> scores = np.array([[.7, .2, .1], [.2, .5, .3], [.1, .3, .6], [.3, .4, .3]])
>>> ev = clfeval.evaluate([0, 1, 2, 0], y_score=scores)
>>> disp = OneVsRestDisplay.from_evaluation(ev, kind="roc", ax=Figure().add_subplot())
>>> list(disp.lines_)
['0', '1', '2', 'micro', 'macro']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from clfeval.plot._curve import curves_of
from clfeval.plot._style import area_label, new_axes, refresh_legend, set_fitted_title, unit_square
from clfeval.plot.pr import ISO_F1, PR_DRAWSTYLE, draw_iso_f1
from clfeval.plot.roc import draw_chance_diagonal

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from clfeval.evaluation import Evaluation
    from clfeval.statistics.rankings import Curve

__all__ = ["OneVsRestDisplay", "class_colors"]

AVERAGE_STYLE = {
    "micro": dict(color="black", linestyle=(0, (5, 2)), linewidth=2.6),
    "macro": dict(color="#d6006f", linestyle=(0, (1.2, 1.4)), linewidth=2.8),
}


def class_colors(n: int) -> list[Any]:
    """``n`` distinguishable colours: tab10 up to 10 classes, tab20 up to 20, then a rainbow.

    >>> len(class_colors(3)), len(class_colors(25))
    (3, 25)
    """
    import matplotlib as mpl

    if n <= 10:
        return [mpl.colormaps["tab10"](i) for i in range(n)]
    if n <= 20:
        return [mpl.colormaps["tab20"](i) for i in range(n)]
    return [mpl.colormaps["turbo"](v) for v in np.linspace(0.05, 0.95, n)]


class OneVsRestDisplay:
    """ROC (``kind="roc"``) or PR (``kind="pr"``) curves, one per class, plus averages.

    After ``plot``: ``lines_`` (curve name -> Line2D), ``chance_level_``, ``ax_``, ``figure_``.

    Parameters
    ----------
    curves : mapping of str to Curve
        The curves to draw by name: one per class, and "micro" / "macro" for the averages (as
        ``ev.roc`` or ``ev.pr`` of an Evaluation holds them); all of kind ``kind``.
    kind : {"roc", "pr"}
        Which curves they are: ROC (with the chance diagonal) or precision-recall (with iso-F1
        curves).
    name : str, default=None
        The model's name, put before the title; None for the bare title.

    Examples
    --------
    >>> import clfeval, numpy as np
    >>> from matplotlib.figure import Figure
    >>> ev = clfeval.evaluate([0, 1, 2, 2], y_score=np.eye(3)[[0, 1, 2, 1]])
    >>> d = OneVsRestDisplay.from_evaluation(ev, kind="pr", ax=Figure().add_subplot())
    >>> d.lines_["micro"].get_label()
    'micro-average (AP = 0.646)'
    >>> d = OneVsRestDisplay(ev.roc, kind="roc", name="m").plot(ax=Figure().add_subplot(), averages=())
    >>> list(d.lines_), d.ax_.get_title()
    (['0', '1', '2'], 'm: one-vs-rest ROC curves')
    """

    def __init__(
        self, curves: Mapping[str, Curve], *, kind: Literal["roc", "pr"], name: str | None = None
    ) -> None:
        if kind not in ("roc", "pr"):
            raise ValueError(f"kind must be 'roc' or 'pr', got {kind!r}.")
        if any(c.kind != kind for c in curves.values()):
            raise ValueError(f"every curve must be a {kind} curve.")
        self.curves = dict(curves)
        self.kind = kind
        self.name = name

    @classmethod
    def from_evaluation(
        cls,
        ev: Evaluation,
        kind: Literal["roc", "pr"] = "roc",
        *,
        name: str | None = None,
        ax: Axes | None = None,
        **plot_kwargs: Any,
    ) -> OneVsRestDisplay:
        """Every one-vs-rest curve of ``ev`` (a binary evaluation gives its single curve)."""
        disp = cls(curves_of(ev, kind), kind=kind, name=name or ev.name)
        return disp.plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        kind: Literal["roc", "pr"] = "roc",
        labels: Any = None,
        sample_weight: Any = None,
        target_names: Any = None,
        name: str | None = None,
        ax: Axes | None = None,
        **plot_kwargs: Any,
    ) -> OneVsRestDisplay:
        """One-vs-rest curves of (n, k) scores (columns in ``labels`` order), via ``clfeval.evaluate``."""
        from clfeval.evaluation import evaluate

        ev = evaluate(
            y_true, y_score=y_score, labels=labels, sample_weight=sample_weight,
            target_names=target_names, name=name,
        )
        return cls.from_evaluation(ev, kind, ax=ax, **plot_kwargs)

    def plot(
        self,
        ax: Axes | None = None,
        *,
        classes: Sequence[str] | None = None,
        averages: Sequence[str] = ("micro", "macro"),
        plot_chance_level: bool = True,
        iso_f1: Sequence[float] = ISO_F1,
        legend: Literal["auto", "inside", "outside"] = "auto",
    ) -> OneVsRestDisplay:
        """Draw the curves of ``classes`` (default: all) and the ``averages`` present."""
        per_class = [n for n in self.curves if n not in ("micro", "macro")]
        chosen = per_class if classes is None else [str(c) for c in classes]
        unknown = [c for c in chosen if c not in per_class]
        if unknown:
            raise ValueError(f"no curve for classes {unknown}; the classes are {per_class}.")
        n_entries = len(chosen) + len(averages) + 1
        outside = legend == "outside" or (legend == "auto" and n_entries > 6)
        fig, ax = new_axes(ax, (8.2, 5.6) if outside else (5.8, 5.4))
        area = "AUC" if self.kind == "roc" else "AP"
        self.lines_ = {}
        for n, color in zip(chosen, class_colors(len(chosen))):
            self.lines_[n] = self._draw(ax, self.curves[n], area_label(n, area, self.curves[n].area),
                                        color=color, linewidth=1.5, alpha=0.9)
        for avg in averages:
            if avg in self.curves:
                c = self.curves[avg]
                self.lines_[avg] = self._draw(
                    ax, c, area_label(f"{avg}-average", area, c.area), zorder=4, **AVERAGE_STYLE[avg]
                )
        self.chance_level_ = None
        if self.kind == "roc":
            if plot_chance_level:
                self.chance_level_ = draw_chance_diagonal(ax)
            unit_square(ax, "False positive rate", "True positive rate")
        else:
            draw_iso_f1(ax, iso_f1)
            unit_square(ax, "Recall", "Precision", top=1.02)
        title = "One-vs-rest " + ("ROC curves" if self.kind == "roc" else "precision-recall curves")
        set_fitted_title(ax, f"{self.name}: {title[0].lower()}{title[1:]}" if self.name else title)
        iso_labels = self.kind == "pr" and bool(iso_f1)
        refresh_legend(ax, loc="lower right" if self.kind == "roc" else "lower left",
                       outside=outside, fontsize="small", gap=0.13 if iso_labels else 0.02)
        self.ax_, self.figure_ = ax, fig
        return self

    def _draw(self, ax: Axes, c: Curve, label: str, **kw: Any) -> Any:
        ok = np.isfinite(c.x) & np.isfinite(c.y)
        # The macro curve is interpolated between curves: a plain line, not steps.
        if self.kind == "pr" and c.name != "macro":
            kw.setdefault("drawstyle", PR_DRAWSTYLE)
        (line,) = ax.plot(c.x[ok], c.y[ok], label=label, **kw)
        return line

