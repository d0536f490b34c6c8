"""What the curve displays share: picking a curve from an Evaluation, building one from
predictions, overlaying several models, and marking a point on a curve.

>>> import clfeval
>>> ev = clfeval.evaluate([0, 1, 1, 0], y_score=[0.2, 0.9, 0.6, 0.4])
>>> pick_curve(ev, "roc").name, model_name(ev, 1)
('1', 'model 2')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from ._style import MARK_GID

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

    from ..evaluation import Evaluation
    from ..roc_pr import Curve, CurveSet

__all__ = ["curves_of", "pick_curve", "model_name", "binary_evaluation", "ManyModels", "mark_point"]

D = TypeVar("D", bound="ManyModels")

#: at most this many (exact) points per drawn curve; all points when a curve has fewer
PLOT_MAX_POINTS = 4000


def curves_of(ev: Evaluation, kind: str) -> CurveSet:
    """The ``kind`` ("roc" or "pr") curves of ``ev`` to draw: exact points, at most PLOT_MAX_POINTS each."""
    if kind not in ("roc", "pr"):
        raise ValueError(f"kind must be 'roc' or 'pr', got {kind!r}.")
    curves = ev.compact_curves(kind, PLOT_MAX_POINTS)
    if curves is None:
        raise ValueError(
            "this evaluation has no scores, so it has no curves: pass y_score to clfeval.evaluate."
        )
    return curves


def pick_curve(ev: Evaluation, kind: str, curve: str | None = None) -> Curve:
    """The ``kind`` ("roc" or "pr") curve named ``curve`` of ``ev`` (default: the main one)."""
    curves = curves_of(ev, kind)
    return curves.main if curve is None else curves[curve]


def model_name(ev: Evaluation, index: int | None = None) -> str:
    """The model's name for legends: ``ev.name``, else "model <index + 1>" or "Classifier"."""
    if ev.name:
        return str(ev.name)
    return "Classifier" if index is None else f"model {index + 1}"


def curve_title_name(ev: Evaluation, curve: Curve, name: str) -> str:
    """Legend name of one curve of a model: the model, plus the curve's name unless binary."""
    if ev.task == "binary":
        return name
    return f"{name}, {curve.name}-average" if curve.name in ("micro", "macro") else f"{name}, {curve.name}"


def binary_evaluation(
    y_true: Any, y_score: Any, *, pos_label: Any, sample_weight: Any, name: str | None
) -> Evaluation:
    """``clfeval.evaluate`` of binary scores, refusing other tasks with a pointer to the right display."""
    from ..evaluation import evaluate

    ev = evaluate(y_true, y_score=y_score, pos_label=pos_label, sample_weight=sample_weight, name=name)
    if ev.task != "binary":
        raise ValueError(
            f"from_predictions here takes binary targets, got a {ev.task} task; use "
            "OneVsRestDisplay.from_predictions for one curve per class."
        )
    return ev


def mark_point(
    ax: Axes, x: float, y: float, *, color: Any, label: str, group: str, marker: str = "o",
    size: float = 8, hollow: bool = False, z: float | None = None,
) -> Line2D:
    """A single marker at (x, y), or (x, y, z) on 3-D axes, above the curves.

    Filled with a white edge, or ``hollow`` (edge in ``color``: a point beneath stays visible).
    ``group`` names the kind of point: legends list markers of several models once per group.
    """
    kw: dict[str, Any] = dict(
        marker=marker, markersize=size, linestyle="none", label=label, zorder=5,
        gid=MARK_GID + group,
    )
    if hollow:
        kw.update(markerfacecolor="none", markeredgecolor=color, markeredgewidth=1.8, color=color)
    else:
        kw.update(color=color, markeredgecolor="white", markeredgewidth=1.2)
    if z is None:
        (pt,) = ax.plot([x], [y], **kw)
    else:
        (pt,) = ax.plot([x], [y], [z], **kw)
    return pt


class ManyModels:
    """Mixin: ``from_predictions`` of binary scores, and ``from_evaluations``, which overlays
    the models on one axes, one display each."""

    @classmethod
    def from_predictions(
        cls: type[D],
        y_true: Any,
        y_score: Any,
        *,
        pos_label: Any = None,
        sample_weight: Any = None,
        name: str | None = None,
        ax: Axes | None = None,
        **kwargs: Any,
    ) -> D:
        """The display of binary scores (arguments as scikit-learn's ``from_predictions``),
        through ``clfeval.evaluate``; other keywords (``kind``, plot options) go to
        ``from_evaluation``.

        >>> from matplotlib.figure import Figure
        >>> from clfeval.plot import PrecisionRecallDisplay, RocCurveDisplay
        >>> d = RocCurveDisplay.from_predictions([0, 1, 1], [0.2, 0.7, 0.9], ax=Figure().add_subplot())
        >>> d.roc_auc, d.operating_point.threshold
        (1.0, 0.5)
        >>> d = PrecisionRecallDisplay.from_predictions([0, 1, 1], [0.2, 0.7, 0.9], ax=Figure().add_subplot())
        >>> d.average_precision, d.recall.tolist(), d.precision.tolist()
        (1.0, [0.0, 0.5, 1.0, 1.0], [1.0, 1.0, 1.0, 0.6666666666666666])
        """
        ev = binary_evaluation(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, name=name)
        return cls.from_evaluation(ev, ax=ax, **kwargs)

    @classmethod
    def from_evaluation(cls: type[D], ev: Evaluation, **kwargs: Any) -> D:  # pragma: no cover
        raise NotImplementedError

    @classmethod
    def from_evaluations(
        cls: type[D], evaluations: Sequence[Evaluation], *, ax: Axes | None = None, **kwargs: Any
    ) -> list[D]:
        """One display per evaluation, all on the same axes (made if ``ax`` is None).

        Unnamed models are called "model 1", "model 2", ...
        """
        evaluations = list(evaluations)
        if not evaluations:
            raise ValueError("from_evaluations needs at least one Evaluation.")
        out: list[D] = []
        for i, ev in enumerate(evaluations):
            d = cls.from_evaluation(ev, ax=ax, name=model_name(ev, i), **kwargs)
            ax = d.ax_  # type: ignore[attr-defined]
            out.append(d)
        return out


def finite(*arrays: np.ndarray) -> np.ndarray:
    """Mask of the positions where every array is finite."""
    mask = np.ones(np.asarray(arrays[0]).shape, dtype=bool)
    for a in arrays:
        mask &= np.isfinite(np.asarray(a, dtype=np.float64))
    return mask
