"""ROC curve display, with scikit-learn's API: the curve, the chance diagonal, the AUC.

Built as scikit-learn builds it (``from_estimator``, ``from_predictions``, ``from_cv_results``,
or the constructor and ``plot``), it draws what scikit-learn draws, with the same arguments and
defaults. ``from_evaluation`` draws clfeval's richer view: the operating point, a confidence band,
the chance diagonal once per axes and three decimals in the legend.

>>> import clfeval
>>> from matplotlib.figure import Figure
>>> disp = RocCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], name="toy",
...                                         ax=Figure().add_subplot())
>>> disp.line_.get_label(), disp.fpr.tolist(), disp.tpr.tolist()
('toy (AUC = 0.75)', [0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="toy")
>>> disp = RocCurveDisplay.from_evaluation(ev, ax=Figure().add_subplot())
>>> disp.line_.get_label(), disp.line_.get_xdata().tolist()
('toy (AUC = 0.750)', [0.0, 0.0, 0.5, 0.5, 1.0])

``band=0.95`` (or a CurveBand from ``ev.band("roc")``) shades the pointwise confidence band:

>>> disp = RocCurveDisplay.from_evaluation(ev, band=0.95, ax=Figure().add_subplot())
>>> disp.band.level, disp.band_.get_label()
(0.95, '95% pointwise band (bootstrap, 2000 resamples)')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.plot._curve import (
    BandOption, ManyModels, band_of, binary_evaluation, check_band, curve_title_name, draw_band, mark_point,
    model_name, pick_curve,
)
from clfeval.plot._style import DECOR_GID, area_label, positive_suffix, has_gid, new_axes, refresh_legend, threshold_text, unit_square
from clfeval.plot.display_api import (
    Style, as_list, binary_response, check_binary_predictions, check_param_lengths, curve_line_kwargs, curve_values,
    cv_fold_scores, despine as despine_axes, estimator_name, plain_axes, positive_label_suffix, style_kwargs,
)

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

    from clfeval.evaluation import Evaluation
    from clfeval.statistics.rankings import OperatingPoint
    from clfeval.uncertainty import CurveBand

__all__ = ["RocCurveDisplay", "draw_chance_diagonal"]

CHANCE_GID = DECOR_GID + "roc-chance"


def draw_chance_diagonal(ax: Axes, **kwargs: Any) -> Line2D | None:
    """The random-guess diagonal (AUC 0.5), once per axes; None if it is already there."""
    if has_gid(ax, CHANCE_GID):
        return None
    kw = dict(linestyle="--", color="0.5", linewidth=1.0, label="Chance level (AUC = 0.5)")
    kw.update(kwargs)
    (line,) = ax.plot([0, 1], [0, 1], gid=CHANCE_GID, **kw)
    return line


class RocCurveDisplay(ManyModels):
    """ROC curve(s) of a binary scorer, as ``sklearn.metrics.RocCurveDisplay``.

    Same as `sklearn.metrics.RocCurveDisplay`; differences: the constructor takes three more
    keyword arguments (``thresholds``, ``operating_point``, ``band``); two more class methods,
    ``from_evaluation`` and ``from_evaluations``, draw clfeval's own view (operating point,
    confidence band, chance diagonal once per axes, three decimals); ``from_predictions``
    accepts ``band=`` and ``plot`` accepts ``show_operating_point``, ``band_kw`` and ``style``;
    the points come from :func:`clfeval.metrics.roc_curve`, ``from_estimator`` calls the
    estimator's score method without importing scikit-learn, and scikit-learn's private
    ``_validate_plot_params`` helper is not provided.

    Parameters as scikit-learn's: ``fpr``, ``tpr`` (arrays, or lists of arrays for several
    curves), ``roc_auc``, ``name``, ``pos_label``; clfeval's extras: ``thresholds``,
    ``operating_point`` (marked when drawn) and ``band`` (a pointwise
    :class:`~clfeval.uncertainty.CurveBand` or None). After ``plot``: ``line_`` (one Line2D, or a
    list for several curves), ``chance_level_``, ``ax_``, ``figure_``, and ``band_``,
    ``operating_point_`` (None when not drawn).

    Parameters
    ----------
    fpr : array-like or list of array-like
        False positive rate of each point, by increasing rate; a list of arrays holds several
        curves (one per fold, as ``from_cv_results`` makes), drawn with one legend entry.
    tpr : array-like or list of array-like
        True positive rate of each point, matching ``fpr`` (one array per curve).
    roc_auc : float or list of float, default=None
        Area under the curve (one per curve), shown in the legend; None leaves it out.
    name : str or list of str, default=None
        Name of the curve in the legend; None shows only the area, if any.
    pos_label : int, float, bool or str, default=None
        The positive class; when given, the axis labels name it.
    thresholds : array-like or list of array-like, default=None
        The decision threshold of each point (clfeval's extra: kept for the caller, not drawn).
    operating_point : OperatingPoint, default=None
        The point of the model's own predictions, marked by ``plot`` (clfeval's extra).
    band : CurveBand, default=None
        A pointwise confidence band of the true positive rate (from ``ev.band("roc")``), shaded
        by ``plot``; None draws no band (clfeval's extra).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> d = RocCurveDisplay(fpr=[0, 0, 1], tpr=[0, 1, 1], roc_auc=1.0, name="perfect")
    >>> d.plot(ax=Figure().add_subplot(), plot_chance_level=True).line_.get_label()
    'perfect (AUC = 1.00)'
    >>> d.chance_level_.get_label(), d.ax_.get_xlabel()
    ('Chance level (AUC = 0.5)', 'False Positive Rate')
    """

    #: how ``plot`` draws by default: "sklearn" (as scikit-learn) or "clfeval" (``from_evaluation``)
    style: Style = "sklearn"

    def __init__(
        self,
        *,
        fpr: Any,
        tpr: Any,
        roc_auc: Any = None,
        name: Any = None,
        pos_label: Any = None,
        thresholds: Any = None,
        operating_point: OperatingPoint | None = None,
        band: CurveBand | None = None,
    ) -> None:
        self.band = check_band(band, "roc")
        self.fpr = curve_values(fpr)
        self.tpr = curve_values(tpr)
        self.roc_auc = roc_auc
        self.name = name
        self.pos_label = pos_label
        self.thresholds = curve_values(thresholds)
        self.operating_point = operating_point

    # -- scikit-learn's constructors -------------------------------------------------------------

    @classmethod
    def from_estimator(
        cls, estimator: Any, X: Any, y: Any, *, sample_weight: Any = None, drop_intermediate: bool = True,
        response_method: Any = "auto", pos_label: Any = None, name: str | None = None, ax: Axes | None = None,
        curve_kwargs: Any = None, plot_chance_level: bool = False, chance_level_kw: dict[str, Any] | None = None,
        despine: bool = False,
    ) -> RocCurveDisplay:
        """The ROC curve of a fitted binary classifier on (X, y), as scikit-learn's.

        The scores are ``predict_proba``'s positive column, else ``decision_function``
        (``response_method="auto"``); the positive class defaults to ``estimator.classes_[1]``
        and the name to the estimator's class name.
        """
        y_score, pos_label = binary_response(estimator, X, response_method, pos_label)
        return cls.from_predictions(
            y, y_score, sample_weight=sample_weight, drop_intermediate=drop_intermediate, pos_label=pos_label,
            name=estimator_name(estimator, name), ax=ax, curve_kwargs=curve_kwargs,
            plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kw, despine=despine,
        )

    @classmethod
    def from_predictions(
        cls, y_true: Any, y_score: Any = None, *, sample_weight: Any = None, drop_intermediate: bool = True,
        pos_label: Any = None, name: str | None = None, ax: Axes | None = None, curve_kwargs: Any = None,
        plot_chance_level: bool = False, chance_level_kw: dict[str, Any] | None = None, despine: bool = False,
        band: BandOption = None,
    ) -> RocCurveDisplay:
        """The ROC curve of binary scores, as scikit-learn's (``clfeval.metrics.roc_curve``).

        clfeval's extra ``band``: a confidence level such as 0.95 (``True``: 0.95) shades the
        pointwise bootstrap band of :meth:`clfeval.Evaluation.band`.

        >>> from matplotlib.figure import Figure
        >>> d = RocCurveDisplay.from_predictions(["b", "a", "a"], [0.2, 0.7, 0.9], pos_label="a",
        ...                                      ax=Figure().add_subplot())
        >>> d.roc_auc, d.ax_.get_ylabel()
        (1.0, 'True Positive Rate (Positive label: a)')
        """
        from clfeval.metrics import auc, roc_curve

        pos_label_shown, name = check_binary_predictions(y_true, y_score, sample_weight, pos_label, name)
        fpr, tpr, thresholds = roc_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
                                         drop_intermediate=drop_intermediate)
        shaded = None
        if band is not None and band is not False:
            ev = binary_evaluation(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, name=name)
            shaded = band_of(ev, "roc", ev.roc.main, band)
        disp = cls(fpr=fpr, tpr=tpr, roc_auc=auc(fpr, tpr), name=name, pos_label=pos_label_shown,
                   thresholds=thresholds, band=shaded)
        return disp.plot(ax=ax, curve_kwargs=curve_kwargs, plot_chance_level=plot_chance_level,
                         chance_level_kw=chance_level_kw, despine=despine)

    @classmethod
    def from_cv_results(
        cls, cv_results: Mapping[str, Any], X: Any, y: Any, *, sample_weight: Any = None,
        drop_intermediate: bool = True, response_method: Any = "auto", pos_label: Any = None,
        ax: Axes | None = None, name: Any = None, curve_kwargs: Any = None, plot_chance_level: bool = False,
        chance_level_kwargs: dict[str, Any] | None = None, despine: bool = False,
    ) -> RocCurveDisplay:
        """One ROC curve per fold of ``cross_validate(..., return_estimator=True,
        return_indices=True)``: each fold's estimator scored on its test rows, as scikit-learn's."""
        from clfeval.metrics import auc, roc_curve

        fprs, tprs, aucs, fold_pos = [], [], [], None
        for y_test, y_score, fold_pos, w_test in cv_fold_scores(cv_results, X, y, sample_weight, response_method,
                                                                 pos_label):
            fpr, tpr, _ = roc_curve(y_test, y_score, pos_label=fold_pos, sample_weight=w_test,
                                    drop_intermediate=drop_intermediate)
            fprs.append(fpr)
            tprs.append(tpr)
            aucs.append(auc(fpr, tpr))
        disp = cls(fpr=fprs, tpr=tprs, roc_auc=aucs, name=name, pos_label=fold_pos)
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
    ) -> RocCurveDisplay:
        """The ROC curve of ``ev`` (binary: the positive class; else ``curve``, default "micro"),
        in clfeval's view (``style="clfeval"``): the operating point, the chance diagonal once per
        axes (``plot_chance_level=False`` leaves it out), three decimals.

        ``band``: None (default, no band), a confidence level such as 0.95 (``True``: 0.95) for
        the pointwise bootstrap band of ``ev.band("roc", ...)`` (2000 resamples, seed 0), or a
        CurveBand made by ``ev.band`` with other settings.
        """
        c = pick_curve(ev, "roc", curve)
        disp = cls(
            fpr=c.x, tpr=c.y, roc_auc=c.area,
            name=curve_title_name(ev, c, name or model_name(ev)),
            pos_label=c.name if ev.task == "binary" else None,
            thresholds=c.thresholds, operating_point=c.operating_point, band=band_of(ev, "roc", c, band),
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
        show_operating_point: bool = True,
        band_kw: dict[str, Any] | None = None,
        style: Style | None = None,
    ) -> RocCurveDisplay:
        """Draw on ``ax`` (new pyplot axes if None); arguments as scikit-learn's ``plot``.

        ``curve_kwargs`` go to the curve's ``ax.plot`` (a list: one dict per curve). clfeval's
        extras: ``show_operating_point`` (marks ``operating_point`` when the display holds one),
        ``band_kw`` (to the band's ``ax.fill_between``), ``style`` ("sklearn" or "clfeval";
        default: the display's own, "clfeval" when made by ``from_evaluation``).
        """
        if (style or self.style) == "clfeval" and not isinstance(self.fpr, list):
            return self._plot_clfeval(ax, name, curve_kwargs, plot_chance_level, chance_level_kw,
                                      show_operating_point, band_kw, despine)
        ax, fig = plain_axes(ax)
        self.ax_, self.figure_ = ax, fig
        name = as_list(self.name if name is None else name)
        fprs, tprs, aucs = as_list(self.fpr), as_list(self.tpr), as_list(self.roc_auc)
        optional: dict[str, Any] = {"self.roc_auc": aucs}
        if isinstance(name, list) and len(name) != 1:
            optional["'name' (or self.name)"] = name
        check_param_lengths({"self.fpr": fprs, "self.tpr": tprs}, optional, "RocCurveDisplay")
        line_kws = curve_line_kwargs(len(fprs), name, aucs, "AUC", curve_kwargs,
                                     multi_defaults={"alpha": 0.5, "linestyle": "--", "color": "blue"})
        lines = [ax.plot(x, y, **kw)[0] for x, y, kw in zip(fprs, tprs, line_kws)]
        self.line_ = lines[0] if len(lines) == 1 else lines
        suffix = positive_label_suffix(self.pos_label)
        ax.set(xlabel="False Positive Rate" + suffix, xlim=(-0.01, 1.01), ylabel="True Positive Rate" + suffix,
               ylim=(-0.01, 1.01), aspect="equal")
        chance_kw = style_kwargs({"label": "Chance level (AUC = 0.5)", "color": "k", "linestyle": "--"},
                                 chance_level_kw or {})
        self.chance_level_ = ax.plot((0, 1), (0, 1), **chance_kw)[0] if plot_chance_level else None
        self._draw_extras(ax, lines[0].get_color(), show_operating_point, band_kw)
        if despine:
            despine_axes(ax)
        if line_kws[0].get("label") is not None or (plot_chance_level and chance_kw.get("label") is not None):
            ax.legend(loc="lower right")
        return self

    def _draw_extras(self, ax: Axes, color: Any, show_operating_point: bool, band_kw: dict[str, Any] | None) -> None:
        """The band and the operating point, when the display holds them."""
        self.band_ = None
        if self.band is not None:
            self.band_ = draw_band(ax, self.band, color=color, **(band_kw or {}))
        self.operating_point_ = None
        op = self.operating_point
        if show_operating_point and op is not None and np.isfinite([op.x, op.y]).all():
            self.operating_point_ = mark_point(
                ax, op.x, op.y, color=color, label=threshold_text(op.threshold), group="operating point",
            )

    def _plot_clfeval(
        self, ax: Axes | None, name: str | None, curve_kwargs: dict[str, Any] | None, plot_chance_level: bool,
        chance_level_kw: dict[str, Any] | None, show_operating_point: bool, band_kw: dict[str, Any] | None,
        despine: bool,
    ) -> RocCurveDisplay:
        fig, ax = new_axes(ax, (5.6, 5.2))
        name = name or self.name or "Classifier"
        line_kw: dict[str, Any] = {"linewidth": 2.0, "label": area_label(name, "AUC", self.roc_auc)}
        line_kw.update(curve_kwargs or {})
        (self.line_,) = ax.plot(self.fpr, self.tpr, **line_kw)
        self._draw_extras(ax, self.line_.get_color(), show_operating_point, band_kw)
        self.chance_level_ = draw_chance_diagonal(ax, **(chance_level_kw or {})) if plot_chance_level else None
        suffix = positive_suffix(self.pos_label)
        unit_square(ax, "False positive rate" + suffix, "True positive rate" + suffix)
        if despine:
            despine_axes(ax)
        refresh_legend(ax, loc="lower right")
        self.ax_, self.figure_ = ax, fig
        return self
