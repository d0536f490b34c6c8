"""What the curve displays share: picking a curve from an Evaluation, building one from
predictions, overlaying several models, marking a point on a curve and shading its pointwise
confidence band.

>>> import clfeval
>>> ev = clfeval.evaluate([0, 1, 1, 0], y_score=[0.2, 0.9, 0.6, 0.4])
>>> pick_curve(ev, "roc").name, model_name(ev, 1)
('1', 'model 2')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from numbers import Real
from typing import TYPE_CHECKING, Any, TypeVar, Union

import numpy as np

from clfeval.plot._style import MARK_GID, has_gid

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D

    from clfeval.evaluation import Evaluation
    from clfeval.statistics.rankings import Curve, CurveSet
    from clfeval.uncertainty import CurveBand

__all__ = [
    "curves_of", "pick_curve", "model_name", "binary_evaluation", "ManyModels", "mark_point",
    "BandOption", "band_of", "check_band", "band_label", "draw_band",
]

#: What a display's ``band`` option takes: None or False (no band), True (95%), a confidence
#: level in (0, 1), or a CurveBand made by ``Evaluation.band``.
BandOption = Union[None, bool, float, "CurveBand"]

#: gid prefix of the shaded bands (the rest is the legend text); bands of several models that
#: share a legend text are listed once, by a grey swatch with the gid BAND_PROXY_GID + text.
BAND_GID = "clfeval-band:"
BAND_PROXY_GID = "clfeval-band-legend:"
#: opacity of a band: the curve stays readable over it, and two overlapping bands still show
BAND_ALPHA = 0.2

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
    from clfeval.evaluation import evaluate

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


def check_band(
    band: Any, kind: str, allowed: str = "a CurveBand (from Evaluation.band) or None"
) -> CurveBand | None:
    """``band`` if it is None or a ``kind`` CurveBand; else a TypeError (naming ``allowed``) or
    a ValueError (a band of the other kind)."""
    from clfeval.uncertainty import CurveBand

    if band is None:
        return None
    if not isinstance(band, CurveBand):
        raise TypeError(f"band must be {allowed}; got {type(band).__name__}.")
    if band.kind != kind:
        raise ValueError(f"this display draws {kind!r} curves, but the band is a {band.kind!r} band; "
                         f"make it with Evaluation.band({kind!r}, ...).")
    return band


def band_of(ev: Evaluation, kind: str, curve: Curve, band: BandOption) -> CurveBand | None:
    """The band to draw for ``band=`` of ``from_evaluation``: None, or a CurveBand of ``curve``.

    ``True`` means a 95% band; a number is the level (2000 bootstrap resamples, seed 0); a
    CurveBand is used as it is (make it with ``ev.band(...)`` to choose the resamples or grid).

    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 1, 1, 0, 1, 0], y_score=[.2, .9, .6, .4, .3, .5])
    >>> band_of(ev, "roc", ev.roc.main, 0.9).level
    0.9
    >>> band_of(ev, "roc", ev.roc.main, 95)
    Traceback (most recent call last):
    ...
    ValueError: band=95: a confidence level must lie strictly between 0 and 1 (e.g. 0.95).
    """
    if band is None or band is False:
        return None
    if band is True:
        band = 0.95
    if isinstance(band, Real):
        if not 0.0 < float(band) < 1.0:
            raise ValueError(f"band={band!r}: a confidence level must lie strictly between 0 and 1 (e.g. 0.95).")
        return ev.band(kind, curve.name, level=float(band))
    return check_band(band, kind, "True, a confidence level such as 0.95, or a CurveBand from Evaluation.band")


def band_label(band: CurveBand) -> str:
    """Legend text of a band: its level and how it was made.

    >>> from clfeval.uncertainty import CurveBand
    >>> import numpy as np
    >>> z = np.zeros(2)
    >>> band_label(CurveBand("roc", z, z, z, z, 0.975, "bootstrap percentile (B=500)"))
    '97.5% pointwise band (bootstrap, 500 resamples)'
    """
    found = re.search(r"B=(\d+)", band.method)
    how = "bootstrap" if "bootstrap" in band.method else band.method
    if found:
        how += f", {found.group(1)} resamples"
    return f"{band.level * 100:.4g}% pointwise band ({how})"


def draw_band(ax: Axes, band: CurveBand, *, color: Any, step: bool = False, **kwargs: Any) -> PolyCollection:
    """Shade ``band`` (low to high at each grid point) in ``color``, beneath the curves.

    ``step``: hold each value over the grid interval to its left, as precision-recall curves
    are drawn. Points where the band is undefined are left blank. ``kwargs`` go to
    ``ax.fill_between``. The legend lists each band text once (see :func:`label_bands`).
    """
    ok = finite(band.x, band.low, band.high)
    text = band_label(band)
    kw: dict[str, Any] = dict(color=color, alpha=BAND_ALPHA, linewidth=0, zorder=1, gid=BAND_GID + text)
    kw.update(kwargs)
    low = np.where(ok, band.low, 0.0)
    high = np.where(ok, band.high, 0.0)
    poly = ax.fill_between(band.x, low, high, where=ok, step="pre" if step else None, **kw)
    label_bands(ax)
    return poly


def label_bands(ax: Axes) -> None:
    """One legend entry per band text: the band itself when it is alone on ``ax``, else a grey
    swatch (the colours already say which model each band belongs to)."""
    from matplotlib.patches import Rectangle

    groups: dict[str, list[Any]] = {}
    for c in ax.collections:
        gid = str(c.get_gid() or "")
        if gid.startswith(BAND_GID):
            groups.setdefault(gid[len(BAND_GID):], []).append(c)
    for text, members in groups.items():
        if len(members) == 1:
            members[0].set_label(text)
            continue
        for member in members:
            member.set_label("_nolegend_")
        if not has_gid(ax, BAND_PROXY_GID + text):
            ax.add_patch(Rectangle((0, 0), 0, 0, facecolor="0.35", alpha=BAND_ALPHA * 1.5, linewidth=0,
                                   label=text, gid=BAND_PROXY_GID + text))


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
        through ``clfeval.evaluate``; other keywords (``band``, plot options) go to
        ``from_evaluation``.

        >>> from matplotlib.figure import Figure
        >>> from clfeval.plot import CostCurveDisplay
        >>> d = CostCurveDisplay.from_predictions([0, 1, 1], [0.2, 0.7, 0.9], ax=Figure().add_subplot())
        >>> d.name
        'Classifier'
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

        Unnamed models are called "model 1", "model 2", ... ``band=0.95`` shades each model's
        own band, in its colour; the legend lists the band once.
        """
        evaluations = list(evaluations)
        if not evaluations:
            raise ValueError("from_evaluations needs at least one Evaluation.")
        band = kwargs.get("band")
        if len(evaluations) > 1 and band is not None and not isinstance(band, (bool, Real)):
            raise ValueError("one band cannot belong to several models: give a level (band=0.95), "
                             "and each model gets its own band.")
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
