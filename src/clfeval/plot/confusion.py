"""Confusion-matrix heat map: counts or normalised rates, annotated, readable for 2 to 50+ classes.

Annotation font, tick-label size and rotation follow the cell size; each number is written in
black or white, whichever contrasts more with its cell; cells too small for any legible number
are left unannotated.

>>> import clfeval
>>> from matplotlib.figure import Figure
>>> ev = clfeval.evaluate(["a", "b", "b", "a", "b"], ["a", "b", "a", "a", "b"])
>>> disp = ConfusionMatrixDisplay.from_evaluation(ev, ax=Figure().add_subplot())
>>> [[t.get_text() for t in row] for row in disp.text_]
[['2', '0'], ['1', '2']]
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ._curve import model_name
from ._style import new_axes, set_fitted_title, text_color_on

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from ..evaluation import Evaluation

__all__ = ["ConfusionMatrixDisplay", "figure_size"]

Normalize = Literal["true", "pred", "all"]

#: Smallest annotation font (points) worth drawing; below it cells stay blank.
MIN_FONT = 4.5
#: Widest digit of DejaVu Sans, in em, and the share of a cell a number may fill.
_DIGIT_EM = 0.64
_FILL = 0.8
#: Longest tick label shown in full; longer names are cut with an ellipsis.
MAX_NAME = 24


def figure_size(k: int, colorbar: bool = True) -> tuple[float, float]:
    """Figure size (inches) for ``k`` classes: grows with k, capped at 16 inches.

    >>> figure_size(2), figure_size(50)
    ((5.4, 4.5), (16.9, 16.0))
    """
    side = float(min(16.0, max(4.5, 2.6 + 0.27 * k)))
    return (round(side + (0.9 if colorbar else 0.0), 2), side)


def _value_format(values: np.ndarray, normalized: bool) -> str:
    if normalized:
        return ".2f"
    finite = values[np.isfinite(values)]
    if values.dtype.kind in "iub" or np.array_equal(finite, np.round(finite)):
        return ".0f"
    return ".3g"


def _format(v: Any, fmt: str) -> str:
    if not np.isfinite(v):
        return "–"
    if v == 0:
        return "0"
    return format(v.item() if isinstance(v, np.generic) else v, fmt)


class ConfusionMatrixDisplay:
    """Heat map of a confusion matrix (rows = true class, columns = predicted).

    ``confusion_matrix`` holds the values shown (counts, or rates when ``normalize`` says how
    they were normalised). After ``plot``: ``im_``, ``text_`` ((k, k) array of Text, None for
    hidden zeros; or None when the cells are too small or ``include_values`` is False),
    ``ax_``, ``figure_``.

    >>> from matplotlib.figure import Figure
    >>> d = ConfusionMatrixDisplay([[0.75, 0.25], [0.0, 1.0]], normalize="true")
    >>> d.plot(ax=Figure().add_subplot()).text_[0, 1].get_text()
    '0.25'
    """

    def __init__(
        self,
        confusion_matrix: Any,
        *,
        display_labels: Any = None,
        normalize: Normalize | None = None,
        title: str | None = None,
    ) -> None:
        cm = np.asarray(confusion_matrix)
        if cm.ndim != 2 or cm.shape[0] != cm.shape[1]:
            raise ValueError(f"confusion_matrix must be square (k, k), got shape {cm.shape}.")
        k = cm.shape[0]
        labels = [str(v) for v in (range(k) if display_labels is None else display_labels)]
        if len(labels) != k:
            raise ValueError(f"display_labels has {len(labels)} entries for a {k} x {k} matrix.")
        if normalize not in (None, "true", "pred", "all"):
            raise ValueError(f"normalize must be 'true', 'pred', 'all' or None, got {normalize!r}.")
        self.confusion_matrix = cm
        self.display_labels = labels
        self.normalize = normalize
        self.title = title

    @classmethod
    def from_evaluation(
        cls,
        ev: Evaluation,
        normalize: Normalize | None = None,
        *,
        display_labels: Any = None,
        ax: Axes | None = None,
        **plot_kwargs: Any,
    ) -> ConfusionMatrixDisplay:
        """The confusion matrix of ``ev``: counts (``normalize=None``) or rates by "true" row,
        "pred" column or "all"."""
        cm = ev.confusion
        if cm.counts is None:
            raise ValueError(
                "a multilabel evaluation has no k x k confusion matrix; plot its per-label "
                "tables from ev.confusion.textbook() instead."
            )
        values = cm.counts if normalize is None else cm.normalized(normalize)
        what = "counts" if normalize is None else f"normalised by {normalize}"
        title = f"Confusion matrix ({what})"
        if ev.name:
            title = f"{model_name(ev)}: {title[0].lower()}{title[1:]}"
        disp = cls(
            values,
            display_labels=ev.names if display_labels is None else display_labels,
            normalize=normalize,
            title=title,
        )
        return disp.plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_pred: Any,
        *,
        labels: Any = None,
        sample_weight: Any = None,
        normalize: Normalize | None = None,
        display_labels: Any = None,
        ax: Axes | None = None,
        **plot_kwargs: Any,
    ) -> ConfusionMatrixDisplay:
        """As ``sklearn.metrics.ConfusionMatrixDisplay.from_predictions``, through ``clfeval.evaluate``.

        Unlike scikit-learn, a row (or column) with no samples is NaN when normalised, shown "–".

        >>> from matplotlib.figure import Figure
        >>> d = ConfusionMatrixDisplay.from_predictions([0, 1, 1], [0, 1, 0], normalize="true",
        ...                                             ax=Figure().add_subplot())
        >>> d.confusion_matrix.tolist()
        [[1.0, 0.0], [0.5, 0.5]]
        """
        from ..evaluation import evaluate

        ev = evaluate(y_true, y_pred, labels=labels, sample_weight=sample_weight)
        return cls.from_evaluation(ev, normalize, display_labels=display_labels, ax=ax, **plot_kwargs)

    def plot(
        self,
        *,
        include_values: bool = True,
        hide_zeros: bool | None = None,
        cmap: Any = "Blues",
        xticks_rotation: Literal["auto", "horizontal", "vertical"] | float = "auto",
        values_format: str | None = None,
        ax: Axes | None = None,
        colorbar: bool = True,
        im_kw: dict[str, Any] | None = None,
        text_kw: dict[str, Any] | None = None,
    ) -> ConfusionMatrixDisplay:
        """Draw the heat map (argument names as scikit-learn's display).

        ``hide_zeros`` leaves cells of exactly 0 blank (their ``text_`` entry is None); by
        default it does so above 20 classes, where the zeros only hide the pattern.
        """
        import matplotlib as mpl

        cm = self.confusion_matrix.astype(np.float64)
        k = cm.shape[0]
        fig, ax = new_axes(ax, figure_size(k, colorbar))
        finite = cm[np.isfinite(cm)]
        top = float(finite.max()) if finite.size else 1.0
        vmax = 1.0 if self.normalize in ("true", "pred") else max(top, 1e-12)
        cmap_obj = mpl.colormaps[cmap] if isinstance(cmap, str) else cmap
        cmap_obj = cmap_obj.with_extremes(bad="0.85")
        kw: dict[str, Any] = dict(cmap=cmap_obj, vmin=0.0, vmax=vmax, interpolation="nearest")
        kw.update(im_kw or {})
        self.im_ = ax.imshow(np.ma.masked_invalid(cm), **kw)
        if colorbar:
            cb = fig.colorbar(self.im_, ax=ax, shrink=0.8, fraction=0.046, pad=0.03)
            cb.set_label("rate" if self.normalize else "count")
        ax.set_xticks(np.arange(k))
        ax.set_yticks(np.arange(k))
        ax.set_xlim(-0.5, k - 0.5)
        ax.set_ylim(k - 0.5, -0.5)
        ax.set_xlabel("Predicted label")
        ax.set_ylabel("True label")
        ax.tick_params(length=0 if k > 15 else 3.5)
        if self.title:
            set_fitted_title(ax, self.title)
        self._label_ticks(ax, xticks_rotation)
        self.text_ = None
        if include_values:
            hide = k > 20 if hide_zeros is None else hide_zeros
            self._annotate(ax, cm, values_format, text_kw or {}, hide)
        self.ax_, self.figure_ = ax, fig
        return self

    # -- readability -----------------------------------------------------------------------------

    def _cell_points(self, ax: Axes, layout: bool) -> float:
        """Side of one cell in points, after running the figure's layout if ``layout``."""
        root = ax.figure.figure  # the top-level Figure, also from a SubFigure
        if layout:
            root.draw_without_rendering()  # runs the layout engine, if any
        box = ax.get_window_extent()
        k = self.confusion_matrix.shape[0]
        dpi = root.dpi
        return min(box.width, box.height) / k * 72.0 / dpi

    def _label_ticks(self, ax: Axes, rotation: Any) -> None:
        k = len(self.display_labels)
        cell = self._cell_points(ax, layout=False)  # before layout: close enough for ticks
        font = float(min(10.0, max(4.0, 0.8 * cell)))
        step = max(1, math.ceil(4.5 / max(cell, 1e-9)))  # show every step-th label when cramped
        short = [lab if len(lab) <= MAX_NAME else lab[: MAX_NAME - 1] + "…" for lab in self.display_labels]
        shown = [lab if i % step == 0 else "" for i, lab in enumerate(short)]
        longest = max((len(s) for s in shown), default=1)
        if rotation == "auto":
            fits = longest * 0.6 * font <= 0.95 * cell * step
            rotation = 0 if fits else (90 if k > 12 or longest > 12 else 45)
        elif rotation == "horizontal":
            rotation = 0
        elif rotation == "vertical":
            rotation = 90
        ax.set_xticklabels(
            shown, fontsize=font, rotation=rotation,
            ha="right" if 0 < float(rotation) < 90 else "center",
            rotation_mode="anchor" if 0 < float(rotation) < 90 else "default",
        )
        ax.set_yticklabels(shown, fontsize=font)

    def _annotate(
        self, ax: Axes, cm: np.ndarray, values_format: str | None, text_kw: dict[str, Any], hide_zeros: bool
    ) -> None:
        fmt = values_format or _value_format(self.confusion_matrix, self.normalize is not None)
        strings = [[_format(v, fmt) for v in row] for row in self.confusion_matrix]
        longest = max(len(s) for row in strings for s in row)
        cell = self._cell_points(ax, layout=True)
        font = min(
            12.0 if cm.shape[0] <= 6 else 10.0,
            _FILL * cell / (_DIGIT_EM * max(longest, 1)),
            0.6 * cell,
        )
        if "fontsize" not in text_kw and font < MIN_FONT:
            return
        rgba = self.im_.to_rgba(np.ma.masked_invalid(cm))
        texts = np.empty(cm.shape, dtype=object)
        for i in range(cm.shape[0]):
            for j in range(cm.shape[1]):
                if hide_zeros and cm[i, j] == 0:
                    continue
                colour = "0.35" if not np.isfinite(cm[i, j]) else text_color_on(rgba[i, j])
                kw: dict[str, Any] = dict(ha="center", va="center", fontsize=font, color=colour)
                kw.update(text_kw)
                t = ax.text(j, i, strings[i][j], **kw)
                t.set_in_layout(False)
                texts[i, j] = t
        self.text_ = texts
