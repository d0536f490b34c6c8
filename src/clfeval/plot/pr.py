"""Precision-recall display, with scikit-learn's API: the step-wise curve, the prevalence
baseline (chance level) and the average precision.

Built as scikit-learn builds it (``from_estimator``, ``from_predictions``, ``from_cv_results``,
or the constructor and ``plot``), it draws what scikit-learn draws. ``from_evaluation`` draws
clfeval's richer view: labelled iso-F1 curves, the break-even point, the operating point, a
confidence band. Either way each recall interval is drawn at the precision of its higher-recall
end: the rectangles whose area is the average precision.

>>> import clfeval
>>> from matplotlib.figure import Figure
>>> disp = PrecisionRecallDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], name="toy",
...                                                ax=Figure().add_subplot())
>>> disp.line_.get_label(), disp.prevalence_pos_label, disp.line_.get_drawstyle()
('toy (AP = 0.83)', 0.5, 'steps-post')
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="toy")
>>> disp = PrecisionRecallDisplay.from_evaluation(ev, ax=Figure().add_subplot())
>>> disp.line_.get_label(), disp.prevalence_pos_label, disp.break_even_.get_xydata().tolist()
('toy (AP = 0.833, break-even = 0.500)', 0.5, [[0.5, 0.5]])

``band=0.95`` (or a CurveBand from ``ev.band("pr")``) shades the pointwise confidence band of
precision at each recall, held over each recall step as the curve is:

>>> disp = PrecisionRecallDisplay.from_evaluation(ev, band=0.9, ax=Figure().add_subplot())
>>> disp.band.kind, disp.band_.get_label()
('pr', '90% pointwise band (bootstrap, 2000 resamples)')
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.plot._curve import (
    BandOption, ManyModels, band_of, binary_evaluation, check_band, curve_title_name, draw_band, mark_point,
    model_name, pick_curve,
)
from clfeval.plot._style import DECOR_GID, area_label, positive_suffix, has_gid, new_axes, refresh_legend, threshold_text, unit_square
from clfeval.plot.display_api import (
    as_list, binary_response, check_binary_predictions, check_param_lengths, curve_line_kwargs, cv_fold_scores,
    deprecated_estimator_name, deprecated_y_pred, despine as despine_axes, estimator_name, plain_axes,
    style_kwargs, Style, curve_values, positive_label_suffix,
)

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

    from clfeval.evaluation import Evaluation
    from clfeval.statistics.rankings import BreakEvenPoint, Curve, OperatingPoint
    from clfeval.uncertainty import CurveBand

__all__ = ["PrecisionRecallDisplay", "draw_iso_f1", "draw_prevalence", "prevalence_of", "positive_share", "ISO_F1"]

ISO_F1: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8)
ISO_GID = DECOR_GID + "iso-f1"
PREVALENCE_GID = DECOR_GID + "pr-chance"
#: PR curves are stored by decreasing threshold (recall increasing): "steps-pre" then holds each
#: recall interval at the precision of its right (higher-recall) end, as sklearn's plot does.
PR_DRAWSTYLE = "steps-pre"


def iso_f1_curve(f: float, n: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Points (recall, precision) where F1 equals ``f``, for recall in (f / 2, 1].

    >>> r, p = iso_f1_curve(0.5, 3)
    >>> [round(v, 4) for v in p.tolist()], r[-1].item()
    ([1.0, 0.4, 0.3333], 1.0)
    """
    r = np.linspace(f / (2 - f), 1.0, n)
    return r, f * r / (2 * r - f)


def draw_iso_f1(ax: Axes, values: Sequence[float] = ISO_F1) -> list[Line2D]:
    """Grey iso-F1 curves, labelled at the right edge, once per axes (empty list if present)."""
    if not values or has_gid(ax, ISO_GID):
        return []
    lines = []
    for i, f in enumerate(values):
        if not 0 < f < 1:
            raise ValueError(f"iso-F1 values must lie strictly between 0 and 1, got {f!r}.")
        r, p = iso_f1_curve(f)
        (line,) = ax.plot(
            r, p, color="0.6", linewidth=0.8, alpha=0.6, zorder=0, gid=ISO_GID,
            label="iso-F1 curves" if i == 0 else "_nolegend_",
        )
        ax.annotate(
            f"F1={f:g}", xy=(1.0, p[-1]), xytext=(4, 0), textcoords="offset points",
            ha="left", va="center", fontsize="x-small", color="0.45", annotation_clip=True,  # hidden when zoomed past it
        )
        lines.append(line)
    return lines


def draw_prevalence(ax: Axes, prevalence: float | None, **kwargs: Any) -> Line2D | None:
    """The no-skill baseline precision = prevalence, once per value per axes."""
    if prevalence is None or not np.isfinite(prevalence):
        return None
    for line in ax.get_lines():
        if line.get_gid() == PREVALENCE_GID and np.isclose(line.get_ydata()[0], prevalence):
            return None
    kw = dict(linestyle="--", color="0.5", linewidth=1.0, label=f"Chance level (AP = {prevalence:.2f})")
    kw.update(kwargs)
    (line,) = ax.plot([0, 1], [prevalence, prevalence], gid=PREVALENCE_GID, **kw)
    return line


def prevalence_of(ev: Evaluation, curve: Curve) -> float | None:
    """Share (by weight) of positives behind ``curve``: its class, or all one-vs-rest pairs for
    "micro"; None for "macro".

    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 1, 1, 1], y_score=[0.2, 0.9, 0.6, 0.4])
    >>> prevalence_of(ev, ev.pr.main)
    0.75
    """
    pc = ev.confusion.per_class()
    pos = (pc["tp"] + pc["fn"]).astype(np.float64)
    total = pos + pc["fp"] + pc["tn"]
    if ev.task != "binary" and curve.name in ("micro", "macro"):
        return float(pos.sum() / total.sum()) if curve.name == "micro" and total.sum() > 0 else None
    i = ev.names.index(curve.name)
    return float(pos[i] / total[i]) if total[i] > 0 else None


def break_even_of(ev: Evaluation, curve: Curve) -> BreakEvenPoint | None:
    """Break-even point of ``curve``: the evaluation's own for the main curve, else per class."""
    ranking = ev.ranking(curve.name)
    return None if ranking is None else ranking.break_even()


class PrecisionRecallDisplay(ManyModels):
    """Precision-recall curve(s) of a binary scorer, as ``sklearn.metrics.PrecisionRecallDisplay``.

    Same as `sklearn.metrics.PrecisionRecallDisplay`; differences: the constructor takes four
    more keyword arguments (``break_even``, ``thresholds``, ``operating_point``, ``band``); two
    more class methods, ``from_evaluation`` and ``from_evaluations``, draw clfeval's own view
    (iso-F1 curves, break-even and operating points, confidence band, three decimals);
    ``from_predictions`` accepts ``band=`` and ``plot`` accepts ``iso_f1``, ``show_break_even``,
    ``show_operating_point``, ``band_kw`` and ``style``; the curve and the average precision come
    from :mod:`clfeval.metrics`, ``from_estimator`` calls the estimator's score method without
    importing scikit-learn, and scikit-learn's private ``_validate_plot_params`` helper is not
    provided.

    Parameters as scikit-learn's: ``precision``, ``recall`` (arrays, or lists of arrays for
    several curves), ``average_precision``, ``name``, ``pos_label``, ``prevalence_pos_label``
    (where the chance level is drawn) and the deprecated ``estimator_name``; clfeval's extras:
    ``break_even``, ``thresholds``, ``operating_point``, ``band`` (a pointwise
    :class:`~clfeval.uncertainty.CurveBand` of precision at each recall, or None). After
    ``plot``: ``line_``, ``chance_level_``, ``ax_``, ``figure_``, and ``band_``,
    ``iso_f1_lines_``, ``break_even_``, ``operating_point_`` (None / empty when not drawn).

    Parameters
    ----------
    precision : array-like or list of array-like
        Precision of each point of the curve; a list of arrays holds several curves (one per
        fold, as ``from_cv_results`` makes).
    recall : array-like or list of array-like
        Recall of each point, matching ``precision`` (one array per curve).
    average_precision : float or list of float, default=None
        Average precision (one per curve), shown in the legend; None leaves it out.
    name : str or list of str, default=None
        Name of the curve in the legend; None shows only the average precision, if any.
    pos_label : int, float, bool or str, default=None
        The positive class; when given, the axis labels name it.
    prevalence_pos_label : float or list of float, default=None
        Share of the positive class, the precision of a model that guesses: the height of the
        chance-level line (one per curve); None when unknown.
    estimator_name : str, default="deprecated"
        Old name of ``name``, deprecated as in scikit-learn: giving it warns (FutureWarning) and
        uses it as ``name``; giving both raises a ValueError.
    break_even : BreakEvenPoint, default=None
        The point where precision equals recall, marked by ``plot`` (clfeval's extra).
    thresholds : array-like or list of array-like, default=None
        The decision threshold of each point (clfeval's extra: kept for the caller, not drawn).
    operating_point : OperatingPoint, default=None
        The point of the model's own predictions, marked by ``plot`` (clfeval's extra).
    band : CurveBand, default=None
        A pointwise confidence band of precision at each recall (from ``ev.band("pr")``), shaded
        by ``plot``; None draws no band (clfeval's extra).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> d = PrecisionRecallDisplay([1, 1, 0.5], [0, 1, 1], average_precision=1.0, prevalence_pos_label=0.5)
    >>> d.plot(ax=Figure().add_subplot(), plot_chance_level=True).chance_level_.get_label()
    'Chance level (AP = 0.50)'
    """

    #: how ``plot`` draws by default: "sklearn" (as scikit-learn) or "clfeval" (``from_evaluation``)
    style: Style = "sklearn"

    def __init__(
        self,
        precision: Any,
        recall: Any,
        *,
        average_precision: Any = None,
        name: Any = None,
        pos_label: Any = None,
        prevalence_pos_label: Any = None,
        estimator_name: Any = "deprecated",
        break_even: BreakEvenPoint | None = None,
        thresholds: Any = None,
        operating_point: OperatingPoint | None = None,
        band: CurveBand | None = None,
    ) -> None:
        self.band = check_band(band, "pr")
        self.precision = curve_values(precision)
        self.recall = curve_values(recall)
        self.average_precision = average_precision
        self.name = deprecated_estimator_name(estimator_name, name)
        self.pos_label = pos_label
        self.prevalence_pos_label = prevalence_pos_label
        self.break_even = break_even
        self.thresholds = curve_values(thresholds)
        self.operating_point = operating_point

    # -- scikit-learn's constructors -------------------------------------------------------------

    @classmethod
    def from_estimator(
        cls, estimator: Any, X: Any, y: Any, *, sample_weight: Any = None, drop_intermediate: bool = False,
        response_method: Any = "auto", pos_label: Any = None, name: str | None = None, ax: Axes | None = None,
        curve_kwargs: Any = None, plot_chance_level: bool = False, chance_level_kw: dict[str, Any] | None = None,
        despine: bool = False, **kwargs: Any,
    ) -> PrecisionRecallDisplay:
        """The PR curve of a fitted binary classifier on (X, y), as scikit-learn's (scores from
        ``predict_proba``, else ``decision_function``; positive class ``estimator.classes_[1]``)."""
        y_score, pos_label = binary_response(estimator, X, response_method, pos_label)
        return cls.from_predictions(
            y, y_score, sample_weight=sample_weight, drop_intermediate=drop_intermediate, pos_label=pos_label,
            name=estimator_name(estimator, name), ax=ax, curve_kwargs=curve_kwargs,
            plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kw, despine=despine, **kwargs,
        )

    @classmethod
    def from_predictions(
        cls, y_true: Any, y_score: Any = None, *, sample_weight: Any = None, drop_intermediate: bool = False,
        pos_label: Any = None, name: str | None = None, ax: Axes | None = None, curve_kwargs: Any = None,
        plot_chance_level: bool = False, chance_level_kw: dict[str, Any] | None = None, despine: bool = False,
        y_pred: Any = "deprecated", band: BandOption = None, **kwargs: Any,
    ) -> PrecisionRecallDisplay:
        """The PR curve of binary scores, as scikit-learn's (``clfeval.metrics``' curve and AP).

        ``prevalence_pos_label`` is the share of samples of the positive class (unweighted, as
        scikit-learn). clfeval's extra ``band``: a confidence level such as 0.95 shades the
        pointwise bootstrap band of :meth:`clfeval.Evaluation.band`.

        >>> from matplotlib.figure import Figure
        >>> d = PrecisionRecallDisplay.from_predictions([0, 1, 1], [0.2, 0.7, 0.9], ax=Figure().add_subplot())
        >>> d.average_precision, d.recall.tolist(), d.precision.tolist()
        (1.0, [1.0, 1.0, 0.5, 0.0], [0.6666666666666666, 1.0, 1.0, 1.0])
        """
        from clfeval.inputs.labels import as_array
        from clfeval.metrics import average_precision_score, precision_recall_curve

        y = as_array(y_true, "y_true")
        y_score = deprecated_y_pred(y_score, y_pred)
        pos_label, name = check_binary_predictions(y, y_score, sample_weight, pos_label, name)
        precision, recall, _ = precision_recall_curve(y, y_score, pos_label=pos_label, sample_weight=sample_weight,
                                                      drop_intermediate=drop_intermediate)
        ap = average_precision_score(y, y_score, pos_label=pos_label, sample_weight=sample_weight)
        shaded = None
        if band is not None and band is not False:
            ev = binary_evaluation(y, y_score, pos_label=pos_label, sample_weight=sample_weight, name=name)
            shaded = band_of(ev, "pr", ev.pr.main, band)
        disp = cls(precision, recall, average_precision=ap, name=name, pos_label=pos_label,
                   prevalence_pos_label=positive_share(y, pos_label), band=shaded)
        return disp.plot(ax=ax, name=name, curve_kwargs=curve_kwargs, plot_chance_level=plot_chance_level,
                         chance_level_kw=chance_level_kw, despine=despine, **kwargs)

    @classmethod
    def from_cv_results(
        cls, cv_results: Mapping[str, Any], X: Any, y: Any, *, sample_weight: Any = None,
        drop_intermediate: bool = True, response_method: Any = "auto", pos_label: Any = None,
        name: Any = None, ax: Axes | None = None, curve_kwargs: Any = None, plot_chance_level: bool = False,
        chance_level_kwargs: dict[str, Any] | None = None, despine: bool = False,
    ) -> PrecisionRecallDisplay:
        """One PR curve per fold of ``cross_validate(..., return_estimator=True,
        return_indices=True)``, as scikit-learn's."""
        from clfeval.inputs.labels import as_array
        from clfeval.metrics import average_precision_score, precision_recall_curve

        precisions, recalls, aps, prevalences, fold_pos = [], [], [], [], None
        for y_test, y_score, fold_pos, w_test in cv_fold_scores(cv_results, X, y, sample_weight, response_method,
                                                                 pos_label):
            p, r, _ = precision_recall_curve(y_test, y_score, pos_label=fold_pos, sample_weight=w_test,
                                             drop_intermediate=drop_intermediate)
            precisions.append(p)
            recalls.append(r)
            aps.append(average_precision_score(y_test, y_score, pos_label=fold_pos, sample_weight=w_test))
            prevalences.append(positive_share(as_array(y_test, "y"), fold_pos))
        disp = cls(precisions, recalls, average_precision=aps, name=name, pos_label=fold_pos,
                   prevalence_pos_label=prevalences)
        return disp.plot(ax=ax, curve_kwargs=curve_kwargs, plot_chance_level=plot_chance_level,
                         chance_level_kw=chance_level_kwargs, despine=despine)

    # -- clfeval's constructor -------------------------------------------------------------------

    @classmethod
    def from_evaluation(
        cls,
        ev: Evaluation,
        *,
        curve: str | None = None,
        name: str | None = None,
        ax: Axes | None = None,
        band: BandOption = None,
        **plot_kwargs: Any,
    ) -> PrecisionRecallDisplay:
        """The PR curve of ``ev`` (binary: the positive class; else ``curve``, default "micro"),
        in clfeval's view (``style="clfeval"``): iso-F1 curves, break-even and operating points,
        the chance level (the weighted prevalence) once per axes, three decimals.

        ``band``: None (default, no band), a confidence level such as 0.95 (``True``: 0.95) for
        the pointwise bootstrap band of ``ev.band("pr", ...)`` (2000 resamples, seed 0), or a
        CurveBand made by ``ev.band`` with other settings.
        """
        c = pick_curve(ev, "pr", curve)
        disp = cls(
            c.y, c.x, average_precision=c.area,
            name=curve_title_name(ev, c, name or model_name(ev)),
            pos_label=c.name if ev.task == "binary" else None,
            prevalence_pos_label=prevalence_of(ev, c), break_even=break_even_of(ev, c),
            thresholds=c.thresholds, operating_point=c.operating_point, band=band_of(ev, "pr", c, band),
        )
        disp.style = "clfeval"
        plot_kwargs.setdefault("plot_chance_level", True)
        return disp.plot(ax=ax, **plot_kwargs)

    # -- drawing ---------------------------------------------------------------------------------

    def plot(
        self,
        ax: Axes | None = None,
        *,
        name: Any = None,
        curve_kwargs: Any = None,
        plot_chance_level: bool = False,
        chance_level_kw: dict[str, Any] | None = None,
        despine: bool = False,
        iso_f1: Sequence[float] | None = None,
        show_break_even: bool = True,
        show_operating_point: bool = True,
        band_kw: dict[str, Any] | None = None,
        style: Style | None = None,
        **kwargs: Any,
    ) -> PrecisionRecallDisplay:
        """Draw on ``ax`` (new pyplot axes if None); arguments as scikit-learn's ``plot``
        (``**kwargs``: deprecated there, a FutureWarning; use ``curve_kwargs``).

        clfeval's extras: ``iso_f1`` (F1 values of the grey iso-F1 curves; default: none, or
        ISO_F1 in the clfeval style), ``show_break_even`` / ``show_operating_point`` (mark the
        points the display holds), ``band_kw`` (to the band's ``ax.fill_between``), ``style``
        ("sklearn" or "clfeval"; default: the display's own).
        """
        if (style or self.style) == "clfeval" and not isinstance(self.precision, list):
            if kwargs:
                curve_kwargs = {**(curve_kwargs or {}), **kwargs}
            return self._plot_clfeval(ax, name, curve_kwargs, plot_chance_level, chance_level_kw, despine,
                                      ISO_F1 if iso_f1 is None else iso_f1, show_break_even,
                                      show_operating_point, band_kw)
        ax, fig = plain_axes(ax)
        self.ax_, self.figure_ = ax, fig
        name = as_list(self.name if name is None else name)
        precisions, recalls = as_list(self.precision), as_list(self.recall)
        aps, prevalences = as_list(self.average_precision), as_list(self.prevalence_pos_label)
        optional: dict[str, Any] = {"self.average_precision": aps, "self.prevalence_pos_label": prevalences}
        if isinstance(name, list) and len(name) != 1:
            optional["'name' (or self.name)"] = name
        check_param_lengths({"self.precision": precisions, "self.recall": recalls}, optional,
                            "PrecisionRecallDisplay")
        n = len(precisions)
        line_kws = curve_line_kwargs(
            n, name, aps, "AP", curve_kwargs, defaults={"drawstyle": "steps-post"},
            multi_defaults={"alpha": 0.5, "linestyle": "--", "color": "blue"}, legacy_kwargs=kwargs,
            removed_version="1.11",
        )
        for r, kw in zip(recalls, line_kws):  # by increasing recall (from_evaluation): the same steps
            if kw.get("drawstyle") == "steps-post" and len(r) > 1 and r[0] < r[-1]:
                kw["drawstyle"] = PR_DRAWSTYLE
        lines = [ax.plot(r, p, **kw)[0] for r, p, kw in zip(recalls, precisions, line_kws)]
        self.line_ = lines[0] if n == 1 else lines
        suffix = positive_label_suffix(self.pos_label)
        ax.set(xlabel="Recall" + suffix, xlim=(-0.01, 1.01), ylabel="Precision" + suffix, ylim=(-0.01, 1.01),
               aspect="equal")
        chance_kw: dict[str, Any] = {}
        self.chance_level_ = None
        if plot_chance_level:
            if self.prevalence_pos_label is None:
                raise ValueError(
                    "You must provide prevalence_pos_label when constructing the PrecisionRecallDisplay "
                    "object in order to plot the chance level line. Alternatively, you may use "
                    "PrecisionRecallDisplay.from_estimator or PrecisionRecallDisplay.from_predictions to "
                    "automatically set prevalence_pos_label"
                )
            chance_kw = style_kwargs({"color": "k", "linestyle": "--", **({"alpha": 0.3} if n > 1 else {})},
                                     chance_level_kw or {})
            chance = [ax.plot((0, 1), (v, v), **chance_kw)[0] for v in prevalences]
            if "label" not in chance_kw:
                mean = np.mean(prevalences)
                chance[0].set_label(f"Chance level (AP = {prevalences[0]:0.2f})" if n == 1 else
                                    f"Chance level (AP = {mean:0.2f} +/- {np.std(prevalences):0.2f})")
            self.chance_level_ = chance[0] if n == 1 else chance
        self.iso_f1_lines_ = draw_iso_f1(ax, iso_f1 or ())
        self._draw_band(ax, lines[0].get_color(), band_kw)
        self._draw_points(ax, lines[0].get_color(), show_break_even, show_operating_point)
        if despine:
            despine_axes(ax)
        if line_kws[0].get("label") is not None or (plot_chance_level and chance_kw.get("label") is not None):
            ax.legend(loc="lower left")
        return self

    def _draw_band(self, ax: Axes, color: Any, band_kw: dict[str, Any] | None) -> None:
        """The band, when the display holds one."""
        self.band_ = None
        if self.band is not None:
            self.band_ = draw_band(ax, self.band, color=color, step=True, **(band_kw or {}))

    def _draw_points(self, ax: Axes, color: Any, show_break_even: bool, show_operating_point: bool) -> None:
        """The break-even and the operating points, when the display holds them."""
        self.break_even_ = None
        be = self.break_even
        if show_break_even and be is not None and np.isfinite(be.value):
            self.break_even_ = mark_point(
                ax, be.value, be.value, color=color, marker="D", size=10, hollow=True,
                label="break-even point (P = R)", group="break-even point",
            )
        self.operating_point_ = None
        op = self.operating_point
        if show_operating_point and op is not None and np.isfinite([op.x, op.y]).all():
            self.operating_point_ = mark_point(
                ax, op.x, op.y, color=color, label=threshold_text(op.threshold), group="operating point"
            )

    def _plot_clfeval(
        self, ax: Axes | None, name: str | None, curve_kwargs: dict[str, Any] | None, plot_chance_level: bool,
        chance_level_kw: dict[str, Any] | None, despine: bool, iso_f1: Sequence[float], show_break_even: bool,
        show_operating_point: bool, band_kw: dict[str, Any] | None,
    ) -> PrecisionRecallDisplay:
        fig, ax = new_axes(ax, (5.8, 5.2))
        name = name or self.name or "Classifier"
        be = self.break_even if show_break_even else None
        label = area_label(name, "AP", self.average_precision)
        if be is not None and np.isfinite(be.value):
            label = f"{label[:-1]}, break-even = {be.value:.3f})"
        line_kw: dict[str, Any] = {"linewidth": 2.0, "drawstyle": PR_DRAWSTYLE, "label": label}
        line_kw.update(curve_kwargs or {})
        (self.line_,) = ax.plot(self.recall, self.precision, **line_kw)
        color = self.line_.get_color()
        self._draw_band(ax, color, band_kw)
        self.iso_f1_lines_ = draw_iso_f1(ax, iso_f1)
        self.chance_level_ = (
            draw_prevalence(ax, self.prevalence_pos_label, **(chance_level_kw or {})) if plot_chance_level else None
        )
        self._draw_points(ax, color, show_break_even, show_operating_point)
        suffix = positive_suffix(self.pos_label)
        unit_square(ax, "Recall" + suffix, "Precision" + suffix, top=1.02)
        if despine:
            despine_axes(ax)
        refresh_legend(ax, loc="lower left")
        self.ax_, self.figure_ = ax, fig
        return self


def positive_share(y_true: np.ndarray, pos_label: Any) -> float:
    """Share of the samples (unweighted) whose label is ``pos_label``.

    >>> positive_share(np.array(["a", "b", "b", "b"]), "b")
    0.75
    """
    mask = y_true == pos_label
    if not isinstance(mask, np.ndarray) or mask.shape != y_true.shape:
        return 0.0
    return float(np.count_nonzero(mask) / y_true.shape[0])
