"""Detection error tradeoff (DET) display, as ``sklearn.metrics.DetCurveDisplay``: false negative
rate against false positive rate, both on normal-deviate (probit) scales, where the curve of two
normal score distributions is a straight line.

>>> from matplotlib.figure import Figure
>>> d = DetCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], name="toy",
...                                      ax=Figure().add_subplot())
>>> d.fpr.tolist(), d.fnr.tolist(), d.line_.get_label()
([0.5, 0.5, 2.220446049250313e-16], [2.220446049250313e-16, 0.5, 0.5], 'toy')
>>> round(float(d.line_.get_xdata()[0]), 6), [t.get_text() for t in d.ax_.get_xticklabels()][:3]
(0.0, ['0.1%', '1%', '5%'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.plot.display_api import (
    binary_response, check_binary_predictions, deprecated_y_pred, estimator_name, plain_axes, positive_label_suffix,
)

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["DetCurveDisplay", "DET_TICKS"]

#: rates marked on both axes (the axes span the probits of about 0.13% to 99.87%)
DET_TICKS = (0.001, 0.01, 0.05, 0.20, 0.5, 0.80, 0.95, 0.99, 0.999)


def _tick_text(rate: float) -> str:
    return f"{rate:.0%}" if (100 * rate).is_integer() else f"{rate:.1%}"


class DetCurveDisplay:
    """DET curve of a binary scorer (parameters and attributes as scikit-learn's).

    Same as `sklearn.metrics.DetCurveDisplay`; differences: the constructor takes one more
    keyword argument, ``thresholds``; the rates come from :func:`clfeval.metrics.det_curve`;
    ``from_estimator`` calls the estimator's score method without importing scikit-learn; there is
    no ``from_evaluation`` (unlike clfeval's ROC and precision-recall displays).

    ``fpr``, ``fnr``: the error rates; ``estimator_name``: the legend name; ``pos_label``:
    named in the axis labels; clfeval's extra ``thresholds``. ``plot`` clips the rates to
    [eps, 1 - eps] (so the probits are finite), as scikit-learn does, and keeps ``line_``,
    ``ax_``, ``figure_``.

    Parameters
    ----------
    fpr : numpy.ndarray
        False positive rate of each point of the curve (a float array: ``plot`` clips it).
    fnr : numpy.ndarray
        False negative rate of each point, matching ``fpr``.
    estimator_name : str, default=None
        Name of the curve in the legend; None draws no legend.
    pos_label : int, float, bool or str, default=None
        The positive class; when given, the axis labels name it.
    thresholds : numpy.ndarray, default=None
        The decision threshold of each point (clfeval's extra: kept for the caller, not drawn).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> d = DetCurveDisplay(fpr=np.array([0.5, 0.1]), fnr=np.array([0.1, 0.5]), estimator_name="m")
    >>> d.plot(ax=Figure().add_subplot()).ax_.get_xlabel(), d.line_.get_xdata().round(4).tolist()
    ('False Positive Rate', [0.0, -1.2816])
    """

    def __init__(self, *, fpr: Any, fnr: Any, estimator_name: str | None = None, pos_label: Any = None,
                 thresholds: Any = None) -> None:
        self.fpr = fpr
        self.fnr = fnr
        self.estimator_name = estimator_name
        self.pos_label = pos_label
        self.thresholds = thresholds

    @classmethod
    def from_estimator(
        cls, estimator: Any, X: Any, y: Any, *, sample_weight: Any = None, drop_intermediate: bool = True,
        response_method: Any = "auto", pos_label: Any = None, name: str | None = None, ax: Axes | None = None,
        **kwargs: Any,
    ) -> DetCurveDisplay:
        """The DET curve of a fitted binary classifier on (X, y), as scikit-learn's (scores from
        ``predict_proba``, else ``decision_function``; positive class ``estimator.classes_[1]``);
        ``kwargs`` go to the curve's ``ax.plot``."""
        y_score, pos_label = binary_response(estimator, X, response_method, pos_label)
        return cls.from_predictions(y, y_score, sample_weight=sample_weight, drop_intermediate=drop_intermediate,
                                    pos_label=pos_label, name=estimator_name(estimator, name), ax=ax, **kwargs)

    @classmethod
    def from_predictions(
        cls, y_true: Any, y_score: Any = None, *, sample_weight: Any = None, drop_intermediate: bool = True,
        pos_label: Any = None, name: str | None = None, ax: Axes | None = None, y_pred: Any = "deprecated",
        **kwargs: Any,
    ) -> DetCurveDisplay:
        """The DET curve of binary scores (``clfeval.metrics.det_curve``), as scikit-learn's;
        ``kwargs`` go to the curve's ``ax.plot``."""
        from clfeval.metrics import det_curve

        y_score = deprecated_y_pred(y_score, y_pred)
        pos_label_shown, name = check_binary_predictions(y_true, y_score, sample_weight, pos_label, name)
        fpr, fnr, thresholds = det_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
                                         drop_intermediate=drop_intermediate)
        disp = cls(fpr=fpr, fnr=fnr, estimator_name=name, pos_label=pos_label_shown, thresholds=thresholds)
        return disp.plot(ax=ax, name=name, **kwargs)

    def plot(self, ax: Axes | None = None, *, name: str | None = None, **kwargs: Any) -> DetCurveDisplay:
        """Draw on ``ax`` (new pyplot axes if None); ``name`` (default ``estimator_name``) labels
        the curve, ``kwargs`` go to its ``ax.plot``."""
        from clfeval.uncertainty.checks import normal_quantile  # the probit scale of the axes

        ax, fig = plain_axes(ax)
        self.ax_, self.figure_ = ax, fig
        name = self.estimator_name if name is None else name
        line_kw = {} if name is None else {"label": name}
        line_kw.update(kwargs)
        eps = np.finfo(self.fpr.dtype).eps
        self.fpr = self.fpr.clip(eps, 1 - eps)
        self.fnr = self.fnr.clip(eps, 1 - eps)
        (self.line_,) = ax.plot(normal_quantile(self.fpr), normal_quantile(self.fnr), **line_kw)
        suffix = positive_label_suffix(self.pos_label)
        ax.set(xlabel="False Positive Rate" + suffix, ylabel="False Negative Rate" + suffix)
        if "label" in line_kw:
            ax.legend(loc="lower right")
        where = normal_quantile(np.array(DET_TICKS))
        texts = [_tick_text(t) for t in DET_TICKS]
        ax.set_xticks(where)
        ax.set_xticklabels(texts)
        ax.set_xlim(-3, 3)
        ax.set_yticks(where)
        ax.set_yticklabels(texts)
        ax.set_ylim(-3, 3)
        return self
