"""Critical-difference diagram (Demšar 2006, sec. 3.2.4): average ranks with the tests' verdict.

The top line is the axis of average ranks, turned so that the best rank (1) is on the right.
Each classifier hangs from its average rank by an elbow line to its name (the better half on the
right, the worse half on the left). Above the axis a bar shows the critical difference. For the
Nemenyi test, thick lines join the groups of classifiers whose ranks differ by less than the CD
(not significantly different); for the Bonferroni-Dunn test, a thick line marks the interval of
one CD around the control's rank: classifiers outside it differ from the control.

>>> from matplotlib.figure import Figure
>>> scores = [[0.9, 0.8, 0.7], [0.8, 0.85, 0.6], [0.9, 0.7, 0.8], [0.95, 0.9, 0.7]]
>>> d = CriticalDifferenceDisplay.from_scores(scores, ["A", "B", "C"], ax=Figure().add_subplot())
>>> d.average_ranks.tolist(), round(d.critical_difference, 3), d.groups_
([1.25, 2.0, 2.75], 1.657, [(0, 1, 2)])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from clfeval.plot._style import new_axes, require_matplotlib

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["CriticalDifferenceDisplay"]

Test = Literal["nemenyi", "bonferroni-dunn"]

# vertical layout, in data units (the y axis has no meaning of its own)
_TICK_TEXT = 0.22  # tick labels above the axis
_CD_Y = 0.85  # the CD bar
_GROUP_TOP = -0.28  # first group line below the axis
_GROUP_STEP = 0.16
_ROW_GAP = 0.38  # between two names
_FONT = 10.0


class CriticalDifferenceDisplay:
    """Demšar's critical-difference diagram.

    ``average_ranks`` (1 = best), ``names`` and ``critical_difference`` describe it; ``test``
    says which post-hoc test made the CD (``control`` is the control's index for
    "bonferroni-dunn"). After ``plot``: ``ax_``, ``figure_``, ``axis_line_``, ``cd_bar_`` (its
    x data span the CD), ``rank_lines_`` and ``name_texts_`` (one per classifier, in input
    order), ``group_lines_`` (one thick line per group, or the control's CD interval) and
    ``groups_`` (tuples of classifier indices, best first).

    Parameters
    ----------
    average_ranks : array-like of shape (k,)
        Average rank of each of the k >= 2 classifiers over the data sets (1 = best).
    names : sequence of str
        Name of each classifier, in the order of ``average_ranks`` (turned into strings).
    critical_difference : float
        The critical difference of the post-hoc test: a positive number of ranks.
    test : {"nemenyi", "bonferroni-dunn"}, default="nemenyi"
        The test behind the CD: "nemenyi" joins the groups of classifiers that do not differ
        significantly; "bonferroni-dunn" marks one CD around the control's rank.
    control : int, default=None
        Index of the control classifier; required with ``test="bonferroni-dunn"`` (a negative
        index counts from the end), ignored otherwise.
    alpha : float, default=None
        The significance level behind the CD; when given, ``plot`` writes a default title with
        it.
    n_datasets : int, default=None
        Number of data sets the ranks were averaged over, written in the default title.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> d = CriticalDifferenceDisplay([1.2, 2.1, 2.7], ["A", "B", "C"], 1.5, alpha=0.05, n_datasets=10)
    >>> d = d.plot(ax=Figure().add_subplot())
    >>> d.groups_, d.cd_bar_.get_xdata().tolist()
    ([(0, 1), (1, 2)], [3.0, 1.5])
    >>> d.ax_.get_title()
    'Critical difference (Nemenyi, α = 0.05, N = 10)'
    """

    def __init__(
        self,
        average_ranks: Any,
        names: Sequence[Any],
        critical_difference: float,
        *,
        test: Test = "nemenyi",
        control: int | None = None,
        alpha: float | None = None,
        n_datasets: int | None = None,
    ) -> None:
        ranks = np.asarray(average_ranks, dtype=np.float64)
        if ranks.ndim != 1 or ranks.size < 2:
            raise ValueError(f"average_ranks must be 1-D with one rank per classifier (at least 2), "
                             f"got shape {ranks.shape}.")
        names = [str(n) for n in names]
        if len(names) != ranks.size:
            raise ValueError(f"got {len(names)} names for {ranks.size} classifiers.")
        if test not in ("nemenyi", "bonferroni-dunn"):
            raise ValueError(f"test must be 'nemenyi' or 'bonferroni-dunn', got {test!r}.")
        if test == "bonferroni-dunn" and control is None:
            raise ValueError("the Bonferroni-Dunn diagram needs the control classifier's index (control=...).")
        if not np.isfinite(critical_difference) or critical_difference <= 0:
            raise ValueError(f"critical_difference must be a positive number, got {critical_difference!r}.")
        self.average_ranks = ranks
        self.names = names
        self.critical_difference = float(critical_difference)
        self.test = test
        self.control = None if control is None else int(control) % ranks.size
        self.alpha = alpha
        self.n_datasets = n_datasets

    @classmethod
    def from_scores(
        cls,
        scores: Any,
        names: Sequence[Any] | None = None,
        *,
        alpha: float = 0.05,
        test: Test = "nemenyi",
        control: int = 0,
        higher_is_better: bool = True,
        ax: Axes | None = None,
        **plot_kwargs: Any,
    ) -> CriticalDifferenceDisplay:
        """The diagram of a score table of shape (n_datasets, n_classifiers), higher = better
        unless ``higher_is_better=False``; ``test`` "nemenyi" (all pairs) or "bonferroni-dunn"
        (against ``control``)."""
        from clfeval.stats.ranks import bonferroni_dunn, nemenyi

        if test == "nemenyi":
            res = nemenyi(scores, alpha=alpha, higher_is_better=higher_is_better, names=names)
        elif test == "bonferroni-dunn":
            res = bonferroni_dunn(scores, control=control, alpha=alpha, higher_is_better=higher_is_better,
                                  names=names)
        else:
            raise ValueError(f"test must be 'nemenyi' or 'bonferroni-dunn', got {test!r}.")
        x = res.extra
        disp = cls(x["average_ranks"], x["names"], x["critical_difference"], test=test,
                   control=x.get("control"), alpha=alpha, n_datasets=x["n_datasets"])
        return disp.plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_ranks(
        cls,
        average_ranks: Any,
        n_datasets: int,
        names: Sequence[Any] | None = None,
        *,
        alpha: float = 0.05,
        test: Test = "nemenyi",
        control: int = 0,
        ax: Axes | None = None,
        **plot_kwargs: Any,
    ) -> CriticalDifferenceDisplay:
        """The diagram of published average ranks over ``n_datasets`` data sets."""
        from clfeval.stats.ranks import critical_difference

        ranks = np.asarray(average_ranks, dtype=np.float64)
        names = [f"classifier {i}" for i in range(ranks.size)] if names is None else names
        cd = critical_difference(ranks.size, n_datasets, alpha, test)
        disp = cls(ranks, names, cd, test=test, control=control if test == "bonferroni-dunn" else None,
                   alpha=alpha, n_datasets=n_datasets)
        return disp.plot(ax=ax, **plot_kwargs)

    # -----------------------------------------------------------------------------------------
    def _groups(self) -> list[tuple[int, ...]]:
        from clfeval.stats.ranks import nemenyi_groups

        if self.test == "nemenyi":
            return nemenyi_groups(self.average_ranks, self.critical_difference)
        r = self.average_ranks
        c = self.control
        return [tuple(int(i) for i in np.argsort(r, kind="stable")
                      if abs(r[i] - r[c]) < self.critical_difference)]

    def plot(self, *, ax: Axes | None = None, show_ranks: bool = True, title: str | None = None,
             fontsize: float = _FONT) -> CriticalDifferenceDisplay:
        """Draw the diagram; ``show_ranks`` writes each average rank after its name."""
        require_matplotlib()
        from matplotlib.textpath import TextPath

        r = self.average_ranks
        k = r.size
        order = np.argsort(r, kind="stable")  # best first
        n_right = k // 2
        right = [int(i) for i in order[:n_right]]  # best half: rows top-down from the right edge
        left = [int(i) for i in order[n_right:]][::-1]  # worst half: worst on top, at the left edge
        self.groups_ = self._groups()
        n_group_rows = len(self.groups_)
        rows_top = _GROUP_TOP - _GROUP_STEP * max(n_group_rows - 1, 0) - 0.3
        n_rows = max(len(left), len(right))
        bottom = rows_top - _ROW_GAP * (n_rows - 1) - 0.3
        labels = [f"{n} ({r[i]:.2f})" if show_ranks else n for i, n in enumerate(self.names)]

        # Room for the names: the widest label, measured as a text path (points -> inches).
        widest = max(TextPath((0, 0), s, size=fontsize).get_extents().width for s in labels) / 72.0
        height = 1.6 + 0.38 * (n_rows - 1) + 0.16 * n_group_rows + (0.3 if title else 0.0)
        own_figure = ax is None
        fig, ax = new_axes(ax, (max(6.4, 2 * widest + 0.45 * k + 3.0), height))
        self.figure_, self.ax_ = fig, ax
        # a new figure has constrained layout and no axis decorations: the axes fill it
        ax_width_in = (0.96 if own_figure else ax.get_position().width) * fig.get_figwidth()
        span = max(k - 1, 1)
        # axes fraction per side for a label, then the data width that gives it beyond the elbows
        margin = min(0.45, (widest + 0.15) / max(ax_width_in, 1e-6))
        pad = (margin * span + 0.12 * span + 0.1) / (1 - 2 * margin)
        reach = 0.1 * span + 0.1  # how far beyond the axis the elbows run (data)
        left_edge, right_edge = k + reach, 1 - reach
        ax.set_xlim(k + pad, 1 - pad)  # reversed: rank 1 (best) on the right
        ax.set_ylim(bottom, _CD_Y + 0.35)
        ax.set_axis_off()

        line = dict(color="0.15", linewidth=1.0, solid_capstyle="butt")
        (self.axis_line_,) = ax.plot([1, k], [0, 0], **line)
        for t in range(1, k + 1):
            ax.plot([t, t], [0, 0.1], **line)
            ax.text(t, _TICK_TEXT, str(t), ha="center", va="bottom", fontsize=fontsize)
        for t in np.arange(1.5, k, 1.0):
            ax.plot([t, t], [0, 0.05], **line)

        cd = self.critical_difference
        # the CD bar sits at the top left, as in Demšar's figures
        (self.cd_bar_,) = ax.plot([k, k - cd], [_CD_Y, _CD_Y], color="0.15", linewidth=1.5)
        for x in (k, k - cd):
            ax.plot([x, x], [_CD_Y - 0.06, _CD_Y + 0.06], **line)
        self.cd_text_ = ax.text(k - cd / 2, _CD_Y + 0.09, f"CD = {cd:.2f}", ha="center", va="bottom",
                                fontsize=fontsize)

        self.rank_lines_: list[Any] = [None] * k
        self.name_texts_: list[Any] = [None] * k
        for side, members, edge, ha in (("right", right, right_edge, "left"), ("left", left, left_edge, "right")):
            for row, i in enumerate(members):
                y = rows_top - _ROW_GAP * row
                (self.rank_lines_[i],) = ax.plot([r[i], r[i], edge], [0, y, y], **line)
                weight = "bold" if self.control == i and self.test == "bonferroni-dunn" else "normal"
                gap = -0.02 * span if side == "right" else 0.02 * span
                self.name_texts_[i] = ax.text(edge + gap, y, labels[i], ha=ha, va="center", fontsize=fontsize,
                                              fontweight=weight)

        self.group_lines_: list[Any] = []
        thick = dict(color="black", linewidth=4.0, solid_capstyle="round", zorder=3)
        if self.test == "nemenyi":
            for g, members in enumerate(self.groups_):
                y = _GROUP_TOP - _GROUP_STEP * g
                lo, hi = float(r[list(members)].min()), float(r[list(members)].max())
                (ln,) = ax.plot([lo, hi], [y, y], **thick)
                self.group_lines_.append(ln)
        else:
            c = self.control
            lo, hi = max(1.0, r[c] - cd), min(float(k), r[c] + cd)
            # butt caps: the ends are exactly rank +- CD (a classifier just outside stays visibly outside)
            (ln,) = ax.plot([lo, hi], [_GROUP_TOP, _GROUP_TOP], **{**thick, "solid_capstyle": "butt"})
            self.group_lines_.append(ln)
        if title is None and self.alpha is not None:
            test = "Nemenyi" if self.test == "nemenyi" else f"Bonferroni-Dunn, control {self.names[self.control]}"
            n = f", N = {self.n_datasets}" if self.n_datasets else ""
            title = f"Critical difference ({test}, α = {self.alpha:g}{n})"
        if title:
            ax.set_title(title, fontsize=fontsize)
        return self
