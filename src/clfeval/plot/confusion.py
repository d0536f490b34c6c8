"""Confusion-matrix heat map: counts or normalised rates, annotated, with scikit-learn's API.

Built as scikit-learn builds it (``from_estimator``, ``from_predictions``, the constructor and
``plot``) it draws what scikit-learn draws. ``from_evaluation`` draws clfeval's view, readable
for 2 to 50+ classes: annotation font, tick-label size and rotation follow the cell size; each
number is written in black or white, whichever contrasts more with its cell; cells too small for
any legible number are left unannotated.

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

from clfeval.plot._curve import model_name
from clfeval.plot._style import new_axes, set_fitted_title, text_color_on
from clfeval.plot.display_api import Style, is_classifier, plain_axes, style_kwargs

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from clfeval.evaluation import Evaluation

__all__ = ["ConfusionMatrixDisplay", "figure_size", "cell_text"]

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


def cell_text(v: Any, dtype: np.dtype, values_format: str | None) -> str:
    """scikit-learn's annotation of one cell: ``values_format``, else the shorter of ".2g" and
    (for integers) "d".

    >>> cell_text(np.int64(1234), np.dtype(int), None), cell_text(0.125, np.dtype(float), None)
    ('1234', '0.12')
    """
    if values_format is not None:
        return format(v, values_format)
    text = format(v, ".2g")
    if dtype.kind != "f":
        whole = format(v, "d")
        if len(whole) < len(text):
            text = whole
    return text


def _format(v: Any, fmt: str) -> str:
    if not np.isfinite(v):
        return "–"
    if v == 0:
        return "0"
    return format(v.item() if isinstance(v, np.generic) else v, fmt)


class ConfusionMatrixDisplay:
    """Heat map of a confusion matrix (rows = true class, columns = predicted), as
    ``sklearn.metrics.ConfusionMatrixDisplay``.

    Same as `sklearn.metrics.ConfusionMatrixDisplay`; differences: the constructor takes two
    more keyword arguments (``normalize``, ``title``) and checks at once that the matrix is square
    and ``display_labels`` fits it (ValueError); a class method ``from_evaluation`` draws
    clfeval's readable view; ``plot`` accepts ``hide_zeros`` and ``style``, and in that view also
    ``xticks_rotation="auto"``; the matrix comes from :func:`clfeval.metrics.confusion_matrix`,
    ``from_estimator`` calls ``predict`` without importing scikit-learn, and mixed label types
    raise the same ValueError with another message.

    ``confusion_matrix`` holds the values shown (counts, or rates; clfeval's extra ``normalize``
    says how they were normalised, ``title`` titles the axes). Built as scikit-learn builds it
    (``from_estimator``, ``from_predictions``, the constructor and ``plot``) it draws what
    scikit-learn draws; ``from_evaluation`` draws clfeval's readable view (``style="clfeval"``):
    fonts and tick labels fitted to the cells, the better-contrasting text colour, a dash for an
    undefined rate, zeros left blank above 20 classes. After ``plot``: ``im_``, ``text_`` ((k, k)
    array of Text; None when ``include_values`` is False, and in the clfeval style None for a
    hidden zero or when the cells are too small), ``ax_``, ``figure_``.

    Parameters
    ----------
    confusion_matrix : array-like of shape (k, k)
        The values to show: counts or rates, rows the true class, columns the predicted one.
    display_labels : array-like of shape (k,), default=None
        Tick labels of the classes, in row order; None numbers them 0 to k - 1.
    normalize : {"true", "pred", "all"}, default=None
        How ``confusion_matrix`` was normalised (by true row, predicted column or the whole
        table), or None for counts (clfeval's extra: the clfeval style scales its colours and
        colour-bar label by it).
    title : str, default=None
        Title of the axes in the clfeval style (clfeval's extra); None for no title.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> d = ConfusionMatrixDisplay([[3, 1], [0, 12]], display_labels=["no", "yes"])
    >>> d.plot(ax=Figure().add_subplot()).text_[1, 1].get_text(), d.ax_.get_xlabel()
    ('12', 'Predicted label')
    >>> d = ConfusionMatrixDisplay([[0.75, 0.25], [0.0, 1.0]], normalize="true")
    >>> d.plot(ax=Figure().add_subplot(), style="clfeval").text_[0, 1].get_text()
    '0.25'
    """

    #: how ``plot`` draws by default: "sklearn" (as scikit-learn) or "clfeval" (``from_evaluation``)
    style: Style = "sklearn"

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
        if display_labels is not None and len(display_labels) != cm.shape[0]:
            raise ValueError(f"display_labels has {len(display_labels)} entries for a {cm.shape[0]} x "
                             f"{cm.shape[0]} matrix.")
        if normalize not in (None, "true", "pred", "all"):
            raise ValueError(f"normalize must be 'true', 'pred', 'all' or None, got {normalize!r}.")
        self.confusion_matrix = cm
        self.display_labels = display_labels
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
        """The confusion matrix of ``ev`` in clfeval's view: counts (``normalize=None``) or
        rates by "true" row, "pred" column or "all" (an empty row's rates are NaN, shown "–");
        blue by default, tick labels rotated as needed."""
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
        disp.style = "clfeval"
        plot_kwargs.setdefault("cmap", "Blues")
        plot_kwargs.setdefault("xticks_rotation", "auto")
        return disp.plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_estimator(
        cls, estimator: Any, X: Any, y: Any, *, labels: Any = None, sample_weight: Any = None,
        normalize: Normalize | None = None, display_labels: Any = None, include_values: bool = True,
        xticks_rotation: Any = "horizontal", values_format: str | None = None, cmap: Any = "viridis",
        ax: Axes | None = None, colorbar: bool = True, im_kw: dict[str, Any] | None = None,
        text_kw: dict[str, Any] | None = None,
    ) -> ConfusionMatrixDisplay:
        """The confusion matrix of a fitted classifier's ``predict(X)`` against ``y``, as scikit-learn's."""
        if not is_classifier(estimator):
            raise ValueError(f"{cls.__name__}.from_estimator only supports classifiers")
        return cls.from_predictions(
            y, estimator.predict(X), labels=labels, sample_weight=sample_weight, normalize=normalize,
            display_labels=display_labels, include_values=include_values, xticks_rotation=xticks_rotation,
            values_format=values_format, cmap=cmap, ax=ax, colorbar=colorbar, im_kw=im_kw, text_kw=text_kw,
        )

    @classmethod
    def from_predictions(
        cls, y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None,
        normalize: Normalize | None = None, display_labels: Any = None, include_values: bool = True,
        xticks_rotation: Any = "horizontal", values_format: str | None = None, cmap: Any = "viridis",
        ax: Axes | None = None, colorbar: bool = True, im_kw: dict[str, Any] | None = None,
        text_kw: dict[str, Any] | None = None,
    ) -> ConfusionMatrixDisplay:
        """The confusion matrix of (y_true, y_pred), as scikit-learn's (``clfeval.metrics.confusion_matrix``;
        the labels shown default to ``labels``, else the sorted labels of both).

        >>> from matplotlib.figure import Figure
        >>> d = ConfusionMatrixDisplay.from_predictions([0, 1, 1], [0, 1, 0], normalize="true",
        ...                                             ax=Figure().add_subplot())
        >>> d.confusion_matrix.tolist(), [[t.get_text() for t in row] for row in d.text_]
        ([[1.0, 0.0], [0.5, 0.5]], [['1', '0'], ['0.5', '0.5']])
        """
        from clfeval.inputs.labels import as_array, union_labels, unique_sorted
        from clfeval.metrics import confusion_matrix

        if display_labels is None:
            if labels is None:
                yt, yp = as_array(y_true, "y_true"), as_array(y_pred, "y_pred")
                display_labels = union_labels(unique_sorted(yt, "y_true"), unique_sorted(yp, "y_pred"),
                                              names=("y_true", "y_pred"))
            else:
                display_labels = labels
        cm = confusion_matrix(y_true, y_pred, sample_weight=sample_weight, labels=labels, normalize=normalize)
        disp = cls(cm, display_labels=display_labels, normalize=normalize)
        return disp.plot(include_values=include_values, cmap=cmap, ax=ax, xticks_rotation=xticks_rotation,
                         values_format=values_format, colorbar=colorbar, im_kw=im_kw, text_kw=text_kw)

    def plot(
        self,
        *,
        include_values: bool = True,
        cmap: Any = "viridis",
        xticks_rotation: Literal["auto", "horizontal", "vertical"] | float = "horizontal",
        values_format: str | None = None,
        ax: Axes | None = None,
        colorbar: bool = True,
        im_kw: dict[str, Any] | None = None,
        text_kw: dict[str, Any] | None = None,
        hide_zeros: bool | None = None,
        style: Style | None = None,
    ) -> ConfusionMatrixDisplay:
        """Draw the heat map (arguments and defaults as scikit-learn's ``plot``).

        clfeval's extras: ``style`` ("sklearn" or "clfeval"; default: the display's own) and, in
        the clfeval style, ``hide_zeros`` (leave cells of exactly 0 blank, their ``text_`` entry
        None; by default above 20 classes) and ``xticks_rotation="auto"`` (rotate when needed).
        """
        if (style or self.style) == "clfeval":
            return self._plot_clfeval(include_values, hide_zeros, cmap, xticks_rotation, values_format, ax,
                                      colorbar, im_kw, text_kw)
        ax, fig = plain_axes(ax)
        cm = self.confusion_matrix
        k = cm.shape[0]
        self.im_ = ax.imshow(cm, **style_kwargs({"interpolation": "nearest", "cmap": cmap}, im_kw or {}))
        self.text_ = None
        low, high = self.im_.cmap(0), self.im_.cmap(1.0)
        if include_values:
            self.text_ = np.empty_like(cm, dtype=object)
            middle = (cm.max() + cm.min()) / 2.0
            for i in range(k):
                for j in range(k):
                    kw = style_kwargs({"ha": "center", "va": "center", "color": high if cm[i, j] < middle else low},
                                      text_kw or {})
                    self.text_[i, j] = ax.text(j, i, cell_text(cm[i, j], cm.dtype, values_format), **kw)
        labels = np.arange(k) if self.display_labels is None else self.display_labels
        if colorbar:
            fig.colorbar(self.im_, ax=ax)
        ax.set(xticks=np.arange(k), yticks=np.arange(k), xticklabels=labels, yticklabels=labels,
               ylabel="True label", xlabel="Predicted label")
        ax.set_ylim((k - 0.5, -0.5))
        for tick in ax.get_xticklabels():
            tick.set_rotation(xticks_rotation)
        self.figure_, self.ax_ = fig, ax
        return self

    def _plot_clfeval(
        self, include_values: bool, hide_zeros: bool | None, cmap: Any, xticks_rotation: Any,
        values_format: str | None, ax: Axes | None, colorbar: bool, im_kw: dict[str, Any] | None,
        text_kw: dict[str, Any] | None,
    ) -> ConfusionMatrixDisplay:
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
        k = self.confusion_matrix.shape[0]
        names = [str(v) for v in (range(k) if self.display_labels is None else self.display_labels)]
        cell = self._cell_points(ax, layout=False)  # before layout: close enough for ticks
        font = float(min(10.0, max(4.0, 0.8 * cell)))
        step = max(1, math.ceil(4.5 / max(cell, 1e-9)))  # show every step-th label when cramped
        short = [lab if len(lab) <= MAX_NAME else lab[: MAX_NAME - 1] + "…" for lab in names]
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
