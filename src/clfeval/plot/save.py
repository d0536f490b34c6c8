"""``save_pngs``: every standard plot of one or several evaluations, as PNG files.

Figures are made with matplotlib's object API on the Agg canvas (pyplot and the user's backend
are left alone) and each file is written atomically: a temporary file in the same folder,
renamed into place once complete.

>>> import clfeval, tempfile
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
>>> with tempfile.TemporaryDirectory() as folder:
...     [p.name for p in save_pngs(ev, folder)]  # doctest: +NORMALIZE_WHITESPACE
['confusion_matrix.png', 'confusion_matrix_normalized.png', 'roc.png', 'pr.png',
 'roc_3d.png', 'pr_3d.png']
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clfeval.plot._curve import model_name
from clfeval.plot._style import require_matplotlib
from clfeval.plot.confusion import ConfusionMatrixDisplay, figure_size
from clfeval.plot.ovr import OneVsRestDisplay
from clfeval.plot.pr import PrecisionRecallDisplay
from clfeval.plot.roc import RocCurveDisplay
from clfeval.plot.threshold3d import ThresholdCurve3DDisplay

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from clfeval.evaluation import Evaluation

__all__ = ["save_pngs", "render_pngs", "slug"]


def slug(text: str) -> str:
    """A file-name-safe form of a model name.

    >>> slug("Logistic Regression (C=1)"), slug("???")
    ('logistic-regression-c-1', 'model')
    """
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:60].strip("-") or "model"


def _slugs(evaluations: Sequence[Evaluation]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for i, ev in enumerate(evaluations):
        s = slug(model_name(ev, i))
        seen[s] = seen.get(s, 0) + 1
        out.append(s if seen[s] == 1 else f"{s}-{seen[s]}")
    return out


def _figure(figsize: tuple[float, float], dpi: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, dpi=dpi, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _write(fig: Figure, path: Path) -> Path:
    from clfeval.support.atomic import atomic_write

    try:
        with atomic_write(path, mode="wb") as f:
            fig.savefig(f, format="png")
    finally:
        fig.clear()
    return path


def render_pngs(evaluations: Evaluation | Sequence[Evaluation], *, dpi: float = 120) -> list[tuple[str, bytes]]:
    """The files :func:`save_pngs` writes, as (file name, PNG bytes), in the same order, written
    nowhere (for a caller that writes them together with other outputs).

    Parameters
    ----------
    evaluations : Evaluation or sequence of Evaluation
        One model's evaluation, or several models' to draw together.
    dpi : float, default=120
        Resolution of the images, in dots per inch.

    Returns
    -------
    list of (str, bytes)
        Each plot's file name and the bytes of its PNG image.

    Examples
    --------
    >>> import clfeval
    >>> [(name, data[:4]) for name, data in render_pngs(clfeval.evaluate([0, 1], [0, 1]))]
    [('confusion_matrix.png', b'\\x89PNG'), ('confusion_matrix_normalized.png', b'\\x89PNG')]
    """
    import io

    def emit(filename: str, fig: Figure) -> tuple[str, bytes]:
        buffer = io.BytesIO()
        try:
            fig.savefig(buffer, format="png")
        finally:
            fig.clear()
        return filename, buffer.getvalue()

    return _draw_all(evaluations, dpi, emit)


def save_pngs(
    evaluations: Evaluation | Sequence[Evaluation], directory: str | os.PathLike, *, dpi: float = 120
) -> list[Path]:
    """Write the standard plots of one evaluation or several models into ``directory``.

    Files: ``confusion_matrix.png`` and ``confusion_matrix_normalized.png`` (suffixed
    ``_<model>`` when there are several models; none for multilabel); with scores also
    ``roc.png``, ``pr.png`` (all models overlaid; a single multi-class model gets its
    one-vs-rest curves there, several get ``roc_ovr_<model>.png`` / ``pr_ovr_<model>.png``
    besides), ``roc_3d.png`` and ``pr_3d.png``. Returns the paths written, in that order.

    Parameters
    ----------
    evaluations : Evaluation or sequence of Evaluation
        One model's evaluation, or several models' to draw together (a ValueError when empty).
    directory : str or os.PathLike
        The folder to write into, made (with its parents) when missing; files of the same names
        are replaced.
    dpi : float, default=120
        Resolution of the images, in dots per inch.

    Returns
    -------
    list of pathlib.Path
        The paths of the files written, in the order above.

    Examples
    --------
    >>> import clfeval, tempfile
    >>> ev = clfeval.evaluate(["a", "b", "b", "a"], ["a", "b", "a", "a"])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     [p.name for p in save_pngs(ev, folder, dpi=50)]
    ['confusion_matrix.png', 'confusion_matrix_normalized.png']
    """
    require_matplotlib()
    if isinstance(evaluations, Sequence) and not evaluations:
        raise ValueError("save_pngs needs at least one Evaluation.")
    out_dir = Path(directory)
    out_dir.mkdir(parents=True, exist_ok=True)
    return _draw_all(evaluations, dpi, lambda filename, fig: _write(fig, out_dir / filename))


def _draw_all(evaluations: Evaluation | Sequence[Evaluation], dpi: float,
              emit: Callable[[str, Figure], Any]) -> list[Any]:
    """Draw every standard plot, handing each (file name, figure) to ``emit``; its results, in order."""
    require_matplotlib()
    evs = [evaluations] if not isinstance(evaluations, Sequence) else list(evaluations)
    if not evs:
        raise ValueError("save_pngs needs at least one Evaluation.")
    several = len(evs) > 1
    slugs = _slugs(evs)
    written: list[Any] = []

    def save(filename: str, figsize: tuple[float, float], draw: Callable[[Any], Any], projection: str | None = None) -> None:
        fig = _figure(figsize, dpi)
        draw(fig.add_subplot(projection=projection))
        written.append(emit(filename, fig))

    for ev, s in zip(evs, slugs):
        if ev.confusion.is_multilabel or ev.confusion.pairs is not None:  # pair-coded: too many classes to draw
            continue
        suffix = f"_{s}" if several else ""
        size = figure_size(len(ev.names))
        save(f"confusion_matrix{suffix}.png", size,
             lambda ax, ev=ev: ConfusionMatrixDisplay.from_evaluation(ev, ax=ax))
        save(f"confusion_matrix_normalized{suffix}.png", size,
             lambda ax, ev=ev: ConfusionMatrixDisplay.from_evaluation(ev, "true", ax=ax))

    scored = [(i, ev, s) for i, (ev, s) in enumerate(zip(evs, slugs)) if ev.has_scores]
    if not scored:
        return written
    named = [(ev, model_name(ev, i)) for i, ev, _ in scored]
    for kind, display in (("roc", RocCurveDisplay), ("pr", PrecisionRecallDisplay)):
        if not several and scored[0][1].task != "binary":
            ev = scored[0][1]
            save(f"{kind}.png", (8.6, 5.8), lambda ax, ev=ev, kind=kind: OneVsRestDisplay.from_evaluation(ev, kind, ax=ax))
            continue

        def overlay(ax: Any, display: Any = display) -> None:
            for ev, name in named:
                display.from_evaluation(ev, name=name, ax=ax)
            title = "ROC curve" if display is RocCurveDisplay else "Precision-recall curve"
            ax.set_title(title + ("s" if len(named) > 1 else ""))

        save(f"{kind}.png", (7.0, 6.0), overlay)
        for _, ev, s in scored:
            if ev.task != "binary":
                save(f"{kind}_ovr_{s}.png", (8.6, 5.8),
                     lambda ax, ev=ev, kind=kind: OneVsRestDisplay.from_evaluation(ev, kind, ax=ax))
    for kind in ("roc", "pr"):
        # the 3-D view and, beside it, the same curves as rates against threshold: a 3-D line
        # on paper has no depth, the 2-D panel reads exactly
        fig = _figure((12.4, 6.0), dpi)
        grid = fig.add_gridspec(1, 2, width_ratios=[1.35, 1])
        ax3, ax2 = fig.add_subplot(grid[0], projection="3d"), fig.add_subplot(grid[1])
        for ev, name in named:
            ThresholdCurve3DDisplay.from_evaluation(ev, kind, name=name, ax=ax3).plot_rates(ax2)
        # both legends beneath their axes: over the 3-D box the legend hid the curves' tops
        ax3.get_legend().set_loc("upper center")
        ax3.get_legend().set_bbox_to_anchor((0.5, 0.02), transform=ax3.transAxes)
        ax2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize="small")
        ax2.set_title("Rates against threshold" if kind == "roc" else "Precision and recall against threshold")
        written.append(emit(f"{kind}_3d.png", fig))
    return written
