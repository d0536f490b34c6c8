"""Shared plotting helpers: the lazy matplotlib import, new axes, colours, labels and legends.

Nothing here imports matplotlib at module import time; each helper imports it when called.

>>> text_color_on((0.03, 0.19, 0.42, 1.0)), text_color_on((0.97, 0.98, 1.0, 1.0))
('white', 'black')
>>> area_label("LR", "AUC", 0.98765)
'LR (AUC = 0.988)'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - typing only
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure

__all__ = [
    "set_fitted_title",
    "INSTALL_HINT",
    "require_matplotlib",
    "new_axes",
    "text_color_on",
    "area_label",
    "has_gid",
    "refresh_legend",
    "unit_square",
    "DECOR_GID",
    "MARK_GID",
]

INSTALL_HINT = "pip install 'clfeval[plot]'"

#: gid prefix of the reference artists (chance lines, iso-F1 curves) drawn once per axes and
#: listed last in legends.
DECOR_GID = "clfeval-decor:"
#: gid prefix of point markers (operating point, break-even); the rest of the gid is the group.
MARK_GID = "clfeval-mark:"


def require_matplotlib() -> Any:
    """Import matplotlib, or raise an ImportError that says how to install it."""
    try:
        import matplotlib
    except ImportError as exc:  # pragma: no cover - exercised with matplotlib hidden
        raise ImportError(
            f"clfeval's plots need matplotlib, which is not installed: {INSTALL_HINT}"
        ) from exc
    return matplotlib


def new_axes(
    ax: Axes | None, figsize: tuple[float, float], projection: str | None = None
) -> tuple[Figure | SubFigure, Axes]:
    """``ax`` and its figure, or a new pyplot figure (constrained layout) with one axes."""
    require_matplotlib()
    if ax is not None:
        if projection == "3d" and getattr(ax, "name", "") != "3d":
            raise ValueError(
                "this plot needs 3-D axes: make them with fig.add_subplot(projection='3d')."
            )
        return ax.figure, ax
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot(projection=projection)


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def text_color_on(rgba: Sequence[float]) -> str:
    """"black" or "white", whichever contrasts more with the colour ``rgba`` (WCAG luminance)."""
    r, g, b = (_linear(float(c)) for c in rgba[:3])
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "white" if (1.05 / (lum + 0.05)) > ((lum + 0.05) / 0.05) else "black"


def fmt_number(v: float | None, digits: int = 3) -> str:
    """A float with ``digits`` decimals; "n/a" for None or NaN."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return f"{float(v):.{digits}f}"


def area_label(name: str, area_name: str, area: float | None) -> str:
    """Legend text of a curve: ``name (AUC = 0.987)``."""
    return f"{name} ({area_name} = {fmt_number(area)})"


def threshold_text(threshold: float | None) -> str:
    """Legend text of an operating point."""
    if threshold is None:
        return "operating point"
    return f"operating point (threshold = {threshold:.3g})"


def positive_suffix(pos_label: Any) -> str:
    """Axis-label suffix naming the positive class ("" when there is none)."""
    return "" if pos_label is None else f" (positive class: {pos_label})"


def set_fitted_title(ax: Axes, title: str) -> None:
    """Set the axes title, wrapped onto more lines when it is wider than the figure."""
    import textwrap

    from matplotlib import rcParams
    from matplotlib.font_manager import FontProperties

    points = FontProperties(size=rcParams["axes.titlesize"]).get_size_in_points()
    fig = ax.get_figure()
    width_pt = (fig.get_figwidth() if fig is not None else 6.4) * 72
    chars = max(20, int(width_pt / (0.6 * points)) - 4)  # about 0.6 em per character
    ax.set_title("\n".join(textwrap.wrap(title, chars)) or title)


def has_gid(ax: Axes, gid: str) -> bool:
    """Whether ``ax`` already holds an artist with this gid."""
    return any(a.get_gid() == gid for a in ax.get_children())


def _rank(handle: Any) -> int:
    gid = str(handle.get_gid() or "")
    return 2 if gid.startswith(DECOR_GID) else 1 if gid.startswith(MARK_GID) else 0


def _merge_markers(handles: list[Any], labels: list[str]) -> tuple[list[Any], list[str]]:
    """One legend entry per marker group: the marker itself when it is alone, else a grey
    stand-in (the colours already say which model each marker belongs to)."""
    from matplotlib.lines import Line2D

    out_h: list[Any] = []
    out_l: list[str] = []
    groups: dict[str, list[int]] = {}
    for i, h in enumerate(handles):
        gid = str(h.get_gid() or "")
        if gid.startswith(MARK_GID):
            groups.setdefault(gid[len(MARK_GID):], []).append(i)
        else:
            out_h.append(h)
            out_l.append(labels[i])
    for group, idx in groups.items():
        if len(idx) == 1:
            out_h.append(handles[idx[0]])
            out_l.append(labels[idx[0]])
            continue
        first = handles[idx[0]]
        hollow = first.get_markerfacecolor() == "none"
        proxy = Line2D(
            [], [], linestyle="none", marker=first.get_marker(), markersize=first.get_markersize(),
            color="0.3", markerfacecolor="none" if hollow else "0.3",
            markeredgecolor="0.3" if hollow else "white", markeredgewidth=first.get_markeredgewidth(),
        )
        texts = {labels[i] for i in idx}
        out_h.append(proxy)
        out_l.append(texts.pop() if len(texts) == 1 else f"{group}s")
    return out_h, out_l


def refresh_legend(
    ax: Axes, *, loc: str = "best", outside: bool = False, fontsize: Any = None, gap: float = 0.02
) -> Any:
    """(Re)draw the legend of ``ax``: curves first, then point markers (one entry per kind),
    then reference lines. ``outside`` puts it right of the axes, ``gap`` (axes widths) away.
    """
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    order = sorted(range(len(handles)), key=lambda i: _rank(handles[i]))
    handles, labels = _merge_markers([handles[i] for i in order], [labels[i] for i in order])
    order = sorted(range(len(handles)), key=lambda i: _rank(handles[i]) if handles[i].axes else 1)
    handles = [handles[i] for i in order]
    labels = [labels[i] for i in order]
    kw: dict[str, Any] = {"fontsize": fontsize or ("small" if len(handles) > 4 else "medium")}
    if outside:
        kw.update(loc="upper left", bbox_to_anchor=(1.0 + gap, 1.0), borderaxespad=0.0)
        ax.set_anchor("W")  # a square axes keeps to the left of its slot, beside its legend
    else:
        kw.update(loc=loc, framealpha=0.9)
    return ax.legend(handles, labels, **kw)


def unit_square(ax: Axes, xlabel: str, ylabel: str, *, top: float = 1.01) -> None:
    """[0, 1] x [0, 1] axes with a little margin, equal aspect, a light grid and labels."""
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, top)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, color="0.9", linewidth=0.8)
    ax.set_axisbelow(True)
