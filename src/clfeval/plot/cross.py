"""Plots of a cross-evaluation: fold curves with their vertical mean and band, and the spread of
metrics across folds.

* :class:`CrossValidationCurveDisplay`: each fold's exact ROC or precision-recall curve (thin,
  translucent), their vertical average (:meth:`CrossEvaluation.mean_curve`, bold) with its
  pointwise band shaded, the chance diagonal (ROC) or the prevalence baseline (PR), and the mean
  area ± sd across folds in the legend.
* :class:`FoldMetricsDisplay`: a box and strip plot of one or several metrics across folds, with
  the mean and its interval (:meth:`CrossEvaluation.summary`) and the pooled value beside each
  box; several CrossEvaluations side by side to compare models.

>>> from sklearn.datasets import load_iris
>>> from sklearn.naive_bayes import GaussianNB
>>> from matplotlib.figure import Figure
>>> from clfeval.cross_evaluation import cross_evaluate
>>> X, y = load_iris(return_X_y=True)
>>> cv = cross_evaluate(GaussianNB(), X, y, progress=False)
>>> d = CrossValidationCurveDisplay.from_cross_evaluation(cv, "roc", curve="micro", ax=Figure().add_subplot())
>>> len(d.fold_lines_), d.mean_line_.get_label()
(5, 'Mean ROC, micro-average (AUC = 0.995 ± 0.005)')
>>> d = FoldMetricsDisplay.from_cross_evaluation(cv, metrics=["accuracy", "f1_macro"], ax=Figure().add_subplot())
>>> [round(v, 4) for v in d.values[0].tolist()]
[0.9333, 0.9667, 0.9333, 0.9333, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.cross_evaluation.metric_names import metric_title
from clfeval.plot._curve import BAND_ALPHA, BAND_GID, label_bands, pick_curve
from clfeval.plot._style import fmt_number, new_axes, refresh_legend, set_fitted_title, unit_square
from clfeval.plot.pr import PR_DRAWSTYLE, draw_iso_f1, draw_prevalence, prevalence_of
from clfeval.plot.roc import draw_chance_diagonal

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from clfeval.cross_evaluation import CrossEvaluation, MeanCurve

__all__ = ["CrossValidationCurveDisplay", "FoldMetricsDisplay", "band_text", "DEFAULT_FOLD_METRICS"]

#: band= values of :meth:`CrossEvaluation.mean_curve`
BANDS = ("corrected", "t", "sd", "percentile")

#: metrics shown by FoldMetricsDisplay when none are named (those the folds have)
DEFAULT_FOLD_METRICS = ("accuracy", "balanced_accuracy", "f1_macro", "mcc", "roc_auc", "average_precision")

_AREA = {"roc": "AUC", "pr": "AP"}


def band_text(band: str, level: float) -> str:
    """Short legend text of a mean-curve band.

    >>> band_text("corrected", 0.95), band_text("sd", 0.95), band_text("percentile", 0.9)
    ('95% corrected t band of the mean', '± 1 sd across folds', 'central 90% of the folds')
    """
    if band == "sd":
        return "± 1 sd across folds"
    if band == "percentile":
        return f"central {level * 100:.4g}% of the folds"
    return f"{level * 100:.4g}% {'corrected ' if band == 'corrected' else ''}t band of the mean"


def _check_cv(cv: Any) -> CrossEvaluation:
    from clfeval.cross_evaluation import CrossEvaluation

    if not isinstance(cv, CrossEvaluation):
        raise TypeError(f"expected a CrossEvaluation (from clfeval.cross_evaluation.cross_evaluate), "
                        f"got {type(cv).__name__}.")
    return cv


def _curve_name(kind: str, curve: str, binary: bool) -> str:
    """'Mean ROC' (binary) or 'Mean PR, micro-average' / 'Mean ROC, class setosa'."""
    head = "Mean ROC" if kind == "roc" else "Mean PR"
    if binary:
        return head
    return f"{head}, {curve}-average" if curve in ("micro", "macro") else f"{head}, class {curve}"


class CrossValidationCurveDisplay:
    """ROC or precision-recall curves of the folds of a cross-evaluation, with their mean and band.

    Build it with :meth:`from_cross_evaluation`; ``plot`` again on other axes at will. Data:
    ``kind``, ``mean`` (the :class:`~clfeval.cross_evaluation.MeanCurve`: grid, mean, band,
    fold areas), ``fold_x`` / ``fold_y`` (each fold's exact curve), ``name``, ``pos_label``,
    ``prevalence`` (PR baseline, None for a macro curve), ``band`` (how the mean's band was
    made, None for none). After ``plot``: ``fold_lines_`` (one
    per fold, in fold order), ``mean_line_``, ``band_`` (None without a band), ``chance_level_``,
    ``ax_``, ``figure_``.

    Parameters
    ----------
    kind : {"roc", "pr"}
        Which curves: ROC or precision-recall.
    mean : MeanCurve
        The folds' curves averaged vertically, with the band's limits and the folds' areas
        (from :func:`clfeval.cross_evaluation.mean_curve` or ``cv.mean_curve``).
    fold_x : sequence of array-like
        Each fold's exact curve, x coordinates (false positive rate or recall).
    fold_y : sequence of array-like
        Each fold's exact curve, y coordinates (true positive rate or precision); as many
        curves as ``fold_x``.
    name : str, default=None
        The model's name: the plot's title when ``title`` is None.
    title : str, default=None
        Title drawn by ``plot(title=True)`` (``from_cross_evaluation`` writes
        "model · protocol").
    pos_label : int, float, bool or str, default=None
        The positive class of a binary task, named in the axis labels.
    prevalence : float, default=None
        Share of positives, the height of the precision-recall chance line; None draws none.
    binary : bool, default=True
        Whether the task has two classes: the mean curve's legend then says only "Mean ROC" /
        "Mean PR" instead of naming the class or average.
    band : {"corrected", "t", "sd", "percentile"} or None, default="corrected"
        How ``mean``'s band was made, for its legend text; None draws no band.

    Examples
    --------
    >>> import clfeval
    >>> from matplotlib.figure import Figure
    >>> from clfeval.cross_evaluation import mean_curve
    >>> folds = [clfeval.evaluate([0, 0, 1, 1], y_score=s) for s in ([0.1, 0.6, 0.4, 0.9], [0.1, 0.2, 0.8, 0.9])]
    >>> d = CrossValidationCurveDisplay(kind="roc", mean=mean_curve(folds, "roc"), name="toy", band="sd",
    ...                                 fold_x=[ev.roc.main.x for ev in folds], fold_y=[ev.roc.main.y for ev in folds])
    >>> d = d.plot(ax=Figure().add_subplot())
    >>> d.mean_line_.get_label(), len(d.fold_lines_), d.ax_.get_title()
    ('Mean ROC (AUC = 0.875 ± 0.177)', 2, 'toy')
    """

    def __init__(self, *, kind: str, mean: MeanCurve, fold_x: Sequence[Any], fold_y: Sequence[Any],
                 name: str | None = None, title: str | None = None, pos_label: Any = None,
                 prevalence: float | None = None, binary: bool = True, band: str | None = "corrected") -> None:
        if kind not in ("roc", "pr"):
            raise ValueError(f"kind must be 'roc' or 'pr', got {kind!r}.")
        if len(fold_x) != len(fold_y):
            raise ValueError(f"fold_x has {len(fold_x)} curves, fold_y {len(fold_y)}.")
        self.kind = kind
        self.mean = mean
        self.fold_x = [np.asarray(x, dtype=np.float64) for x in fold_x]
        self.fold_y = [np.asarray(y, dtype=np.float64) for y in fold_y]
        self.name = name
        self.title = title
        self.pos_label = pos_label
        self.prevalence = prevalence
        self.binary = binary
        self.band = band

    @classmethod
    def from_cross_evaluation(
        cls,
        cv: CrossEvaluation,
        kind: str = "roc",
        *,
        curve: str | None = None,
        band: str | None = "corrected",
        level: float = 0.95,
        grid: Any = None,
        show_folds: bool = True,
        ax: Axes | None = None,
        **plot_kwargs: Any,
    ) -> CrossValidationCurveDisplay:
        """The folds' ``kind`` ("roc" or "pr") curves of ``cv`` and their vertical mean.

        ``curve``: binary - the positive class (default); multi-class - a class name, "micro"
        (default) or "macro". ``band``: how the shaded band is made, as
        :meth:`CrossEvaluation.mean_curve` makes it: "corrected" (default: the t interval of the
        mean with the Nadeau-Bengio variance, as ``cv.summary()``), "t", "sd" (mean ± 1 sd),
        "percentile", or None for no band. ``grid``: the x values of the mean (101 by default).
        Other keywords go to :meth:`plot`.
        """
        cv = _check_cv(cv)
        if band is not None and band not in BANDS:
            raise ValueError(f"band must be one of {BANDS} or None, got {band!r}.")
        mean = cv.mean_curve(kind, curve, grid=grid, band=band or "sd", level=level)
        fx, fy = [], []
        for ev in cv.evaluations:
            c = pick_curve(ev, kind, mean.curve)
            if np.isfinite(c.area):  # the folds mean_curve averaged
                fx.append(c.x)
                fy.append(c.y)
        binary = cv.labels.size == 2
        pooled = cv.pooled
        prevalence = prevalence_of(pooled, pick_curve(pooled, kind, mean.curve)) if kind == "pr" else None
        disp = cls(kind=kind, mean=mean, fold_x=fx, fold_y=fy, name=cv.name,
                   title=f"{cv.name} \u00b7 {cv.protocol_name}", pos_label=mean.curve if binary else None,
                   prevalence=prevalence, binary=binary, band=band)
        return disp.plot(ax=ax, show_folds=show_folds, **plot_kwargs)

    def plot(
        self,
        ax: Axes | None = None,
        *,
        show_folds: bool = True,
        show_band: bool = True,
        plot_chance_level: bool = True,
        iso_f1: Sequence[float] = (),
        title: str | bool = True,
        fold_kw: dict[str, Any] | None = None,
        band_kw: dict[str, Any] | None = None,
        chance_level_kw: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> CrossValidationCurveDisplay:
        """Draw on ``ax`` (a new figure if None). ``kwargs`` go to the mean curve's ``ax.plot``,
        ``fold_kw`` to each fold's, ``band_kw`` to the band's ``ax.fill_between``. ``title``:
        True for "model · protocol", a string, or False. ``iso_f1`` (PR): iso-F1 values to draw."""
        fig, ax = new_axes(ax, (5.8, 5.4))
        m = self.mean
        area = _AREA[self.kind]
        label = (f"{_curve_name(self.kind, m.curve, self.binary)} ({area} = "
                 f"{fmt_number(m.area_mean)} \u00b1 {fmt_number(m.area_std)})")
        step = self.kind == "pr"
        line_kw: dict[str, Any] = {"linewidth": 2.6, "label": label, "zorder": 4}
        if step:
            line_kw["drawstyle"] = PR_DRAWSTYLE
        line_kw.update(kwargs)
        (self.mean_line_,) = ax.plot(m.x, m.mean, **line_kw)
        color = self.mean_line_.get_color()
        self.fold_lines_ = []
        if show_folds:
            n = len(self.fold_x)
            for i, (x, y) in enumerate(zip(self.fold_x, self.fold_y)):
                kw: dict[str, Any] = {"color": color, "linewidth": 0.9, "alpha": 0.4, "zorder": 2,
                                      "label": f"folds ({n} curves)" if i == 0 else "_nolegend_"}
                if step:
                    kw["drawstyle"] = PR_DRAWSTYLE
                kw.update(fold_kw or {})
                (line,) = ax.plot(x, y, **kw)
                self.fold_lines_.append(line)
        self.band_ = None
        if show_band and self.band is not None:
            ok = np.isfinite(m.low) & np.isfinite(m.high)
            text = band_text(self.band, m.level)
            bkw: dict[str, Any] = {"color": color, "alpha": BAND_ALPHA * 1.2, "linewidth": 0, "zorder": 1,
                                   "gid": BAND_GID + text}
            bkw.update(band_kw or {})
            self.band_ = ax.fill_between(m.x, np.where(ok, m.low, 0.0), np.where(ok, m.high, 0.0), where=ok,
                                         step="pre" if step else None, **bkw)
            label_bands(ax)
        self.chance_level_ = None
        self.iso_f1_lines_ = []
        if self.kind == "roc":
            if plot_chance_level:
                self.chance_level_ = draw_chance_diagonal(ax, **(chance_level_kw or {}))
            xlabel, ylabel = "False positive rate", "True positive rate"
        else:
            self.iso_f1_lines_ = draw_iso_f1(ax, iso_f1)
            if plot_chance_level:
                self.chance_level_ = draw_prevalence(ax, self.prevalence, **(chance_level_kw or {}))
            xlabel, ylabel = "Recall", "Precision"
        if self.pos_label is not None:
            xlabel += f" (positive class: {self.pos_label})"
            ylabel += f" (positive class: {self.pos_label})"
        unit_square(ax, xlabel, ylabel, top=1.02 if step else 1.01)
        if title:
            set_fitted_title(ax, title if isinstance(title, str) else (self.title or self.name or ""))
        refresh_legend(ax, loc="lower right" if self.kind == "roc" else "lower left")
        self.ax_, self.figure_ = ax, fig
        return self


def _fold_values(cv: CrossEvaluation, metric: str) -> np.ndarray:
    return np.asarray(cv.values(metric), dtype=np.float64)


class FoldMetricsDisplay:
    """Box and strip plot of metrics across the folds of one or several cross-evaluations.

    One group per metric; in a group, one box per model (CrossEvaluation). Each box holds the
    fold values (drawn as points over it, with a little horizontal spread); beside it, a dot with
    a bar marks the mean over folds and its interval, and a hollow diamond the pooled value (the
    metric of all out-of-fold predictions at once).

    Data: ``metrics``, ``names`` (the models), ``values`` (one array per box, metric-major:
    box ``i * len(names) + j`` is metric i of model j; NaN for a failed fold or an undefined
    value), ``means``, ``lows``, ``highs``, ``pooled`` (one number per box), ``level``,
    ``method``. After ``plot``: ``boxes_`` (the dict of ``ax.boxplot``), ``points_`` (one
    PathCollection per box), ``means_`` (one ErrorbarContainer per box), ``pooled_`` (one Line2D
    per box), ``ax_``, ``figure_``.

    Parameters
    ----------
    metrics : sequence of str
        The metrics shown, one group of boxes each, in this order.
    names : sequence of str
        The models' names, one box per model in each group.
    values : sequence of array-like
        The fold values of each box, metric-major (``len(metrics) * len(names)`` arrays).
    means : sequence of float
        Mean over folds of each box.
    lows : sequence of float
        Lower end of each mean's interval (NaN: no bar).
    highs : sequence of float
        Upper end of each mean's interval (NaN: no bar).
    pooled : sequence of float
        The metric of each model's pooled out-of-fold predictions, one per box.
    level : float, default=0.95
        Confidence level of the intervals, written in the legend.
    method : str, default="corrected"
        How the intervals were made ("corrected" or "t", as ``cv.summary``), written in the
        legend.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> d = FoldMetricsDisplay(metrics=["accuracy"], names=["A", "B"], values=[[0.8, 0.9], [0.7, 0.75]],
    ...                        means=[0.85, 0.725], lows=[0.2, 0.4], highs=[1.0, 1.0], pooled=[0.85, 0.725])
    >>> d = d.plot(ax=Figure().add_subplot())
    >>> d.positions().tolist(), len(d.points_), d.ax_.get_title()
    ([-0.2, 0.2], 2, 'Metrics across folds')
    """

    def __init__(self, *, metrics: Sequence[str], names: Sequence[str], values: Sequence[Any],
                 means: Sequence[float], lows: Sequence[float], highs: Sequence[float],
                 pooled: Sequence[float], level: float = 0.95, method: str = "corrected") -> None:
        self.metrics = [str(m) for m in metrics]
        self.names = [str(n) for n in names]
        n = len(self.metrics) * len(self.names)
        for what, seq in (("values", values), ("means", means), ("lows", lows), ("highs", highs), ("pooled", pooled)):
            if len(seq) != n:
                raise ValueError(f"{what} needs one entry per (metric, model) pair: {n}, got {len(seq)}.")
        self.values = [np.asarray(v, dtype=np.float64) for v in values]
        self.means = np.asarray(means, dtype=np.float64)
        self.lows = np.asarray(lows, dtype=np.float64)
        self.highs = np.asarray(highs, dtype=np.float64)
        self.pooled = np.asarray(pooled, dtype=np.float64)
        self.level = float(level)
        self.method = method

    @classmethod
    def from_cross_evaluation(
        cls,
        cv: CrossEvaluation | Sequence[CrossEvaluation],
        metrics: Sequence[str] | str | None = None,
        *,
        names: Sequence[str] | None = None,
        level: float = 0.95,
        method: str = "corrected",
        ax: Axes | None = None,
        **plot_kwargs: Any,
    ) -> FoldMetricsDisplay:
        """The fold values of ``metrics`` in ``cv`` - one CrossEvaluation, or a list of them to
        compare models side by side (best on the same splits).

        ``metrics``: a name or names of :data:`clfeval.cross_evaluation.METRICS` (default: those
        of :data:`DEFAULT_FOLD_METRICS` that the folds have). ``names``: the models' names
        (default: each ``cv.name``, made unique). ``level`` / ``method``: the interval of the mean,
        as ``cv.summary(level, method=method)``. Other keywords go to :meth:`plot`.
        """
        cvs = [cv] if not isinstance(cv, (list, tuple)) else list(cv)
        if not cvs:
            raise ValueError("FoldMetricsDisplay needs at least one CrossEvaluation.")
        cvs = [_check_cv(c) for c in cvs]
        if metrics is None:
            have = set(cvs[0].table())
            metrics = [m for m in DEFAULT_FOLD_METRICS if all(m in c.table() for c in cvs) and m in have]
        elif isinstance(metrics, str):
            metrics = [metrics]
        metrics = list(metrics)
        if not metrics:
            raise ValueError("metrics is empty: name at least one metric, e.g. metrics=['accuracy'].")
        if names is None:
            names = []
            for c in cvs:
                base, k, nm = str(c.name), 2, str(c.name)
                while nm in names:
                    nm, k = f"{base} ({k})", k + 1
                names.append(nm)
        elif len(names) != len(cvs):
            raise ValueError(f"got {len(names)} names for {len(cvs)} cross-evaluations.")
        summaries = [c.summary(level, metrics, method=method) for c in cvs]
        values, means, lows, highs, pooled = [], [], [], [], []
        for metric in metrics:
            for c, s in zip(cvs, summaries):
                row = s[metric]
                values.append(_fold_values(c, metric))
                means.append(row["mean"])
                lows.append(row["low"])
                highs.append(row["high"])
                pooled.append(row["pooled"])
        disp = cls(metrics=metrics, names=names, values=values, means=means, lows=lows, highs=highs,
                   pooled=pooled, level=level, method=method)
        return disp.plot(ax=ax, **plot_kwargs)

    def positions(self) -> np.ndarray:
        """x position of each box (metric-major), groups one unit apart."""
        k = len(self.names)
        width = 0.8 / k
        return np.array([i + (j - (k - 1) / 2) * width for i in range(len(self.metrics)) for j in range(k)])

    def plot(self, ax: Axes | None = None, *, show_points: bool = True, title: str | bool = True,
             colors: Sequence[Any] | None = None, seed: int = 0) -> FoldMetricsDisplay:
        """Draw on ``ax`` (a new figure if None). ``colors``: one per model (default: the colour
        cycle). ``seed``: the horizontal spread of the points (drawing only)."""
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch

        k, n_metrics = len(self.names), len(self.metrics)
        fig, ax = new_axes(ax, (max(4.8, 1.0 + n_metrics * (0.9 + 0.45 * k)) + 2.4, 4.6))  # + the legend
        if colors is None:
            cycle = [c["color"] for c in __import__("matplotlib").rcParams["axes.prop_cycle"]]
            colors = [cycle[j % len(cycle)] for j in range(k)]
        pos = self.positions()
        slot = 0.8 / k
        box_w = slot * 0.5
        data = [v[np.isfinite(v)] for v in self.values]
        self.boxes_ = ax.boxplot(
            data, positions=pos, widths=box_w, patch_artist=True, showfliers=False, manage_ticks=False,
            medianprops={"color": "0.15", "linewidth": 1.4}, whiskerprops={"color": "0.35"},
            capprops={"color": "0.35"}, boxprops={"linewidth": 1.0, "edgecolor": "0.35"},
        )
        rng = np.random.default_rng(seed)
        self.points_, self.means_, self.pooled_ = [], [], []
        for b, (p, v) in enumerate(zip(pos, data)):
            color = colors[b % k]
            self.boxes_["boxes"][b].set_facecolor(color)
            self.boxes_["boxes"][b].set_alpha(0.28)
            if show_points:
                jitter = rng.uniform(-box_w * 0.32, box_w * 0.32, v.size)
                self.points_.append(ax.scatter(p + jitter, v, s=16, color=color, edgecolor="white", linewidth=0.5,
                                               zorder=4, label="_nolegend_"))
            x_mean = p + box_w * 0.5 + slot * 0.12
            lo, hi, mu = self.lows[b], self.highs[b], self.means[b]
            err = None
            if np.isfinite(lo) and np.isfinite(hi):
                err = [[max(mu - lo, 0.0)], [max(hi - mu, 0.0)]]
            self.means_.append(ax.errorbar([x_mean], [mu], yerr=err, fmt="o", color="0.1", markersize=4.5,
                                           elinewidth=1.3, capsize=3, zorder=5, label="_nolegend_"))
            (pt,) = ax.plot([x_mean], [self.pooled[b]], linestyle="none", marker="D", markersize=8,
                            markerfacecolor="none", markeredgecolor="#c0392b", markeredgewidth=1.4, zorder=6,
                            label="_nolegend_")
            self.pooled_.append(pt)
        ax.set_xticks(range(n_metrics), [metric_title(m) for m in self.metrics], rotation=30 if n_metrics > 4 else 0,
                      ha="right" if n_metrics > 4 else "center")
        ax.set_xlim(-0.6, n_metrics - 0.4)
        ax.set_ylabel("value per fold")
        ax.grid(True, axis="y", color="0.9", linewidth=0.8)
        ax.set_axisbelow(True)
        method = {"corrected": "corrected t", "t": "t"}.get(self.method, self.method)
        handles: list[Any] = [Patch(facecolor=colors[j], alpha=0.45, edgecolor="0.35", label=self.names[j])
                              for j in range(k)] if k > 1 else []
        if show_points:
            handles.append(Line2D([], [], linestyle="none", marker="o", markersize=5, color="0.45",
                                  markeredgecolor="white", label="one fold"))
        handles.append(Line2D([], [], linestyle="-", marker="o", markersize=4.5, color="0.1",
                              label=f"mean, {self.level * 100:.4g}% {method} interval"))
        handles.append(Line2D([], [], linestyle="none", marker="D", markersize=7, markerfacecolor="none",
                              markeredgecolor="#c0392b", markeredgewidth=1.4, label="pooled (all folds' predictions)"))
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
                  fontsize="small")
        if title:
            text = title if isinstance(title, str) else (
                f"Metrics across folds: {self.names[0]}" if k == 1 else "Metrics across folds")
            set_fitted_title(ax, text)
        self.ax_, self.figure_ = ax, fig
        return self
