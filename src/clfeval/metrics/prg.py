"""Precision-Recall-Gain curves and their area (Flach & Kull 2015), in the manner of scikit-learn's
curve functions. The formulas are :mod:`clfeval.formulas.prg`'s; inputs are checked as
:func:`clfeval.metrics.roc_curve` checks them.

>>> round(prg_auc([1, 0, 1, 1, 0, 0, 1, 0], [.9, .8, .7, .6, .5, .4, .3, .2]), 6)
0.430556
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from clfeval.exceptions import UndefinedMetricWarning
from clfeval.formulas.prg import prg_area_of_rates, prg_points_of_rates
from clfeval.metrics.ranking import roc_curve

__all__ = ["prg_curve", "prg_auc"]


def _prevalence(y_true: Any, pos_label: Any, sample_weight: Any) -> float:
    """The positive class's share of the (weighted) cases, by :func:`roc_curve`'s positive-class rule."""
    from clfeval.metrics.ranking import binary_positives

    y = np.asarray(y_true)
    is_pos, _ = binary_positives(y.ravel() if y.ndim > 1 and y.shape[1] == 1 else y, pos_label, "prg_curve")
    w = np.ones(is_pos.size) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64).ravel()
    total = float(w.sum())
    return float(w[is_pos].sum()) / total if total > 0 else float("nan")


def prg_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision-Recall-Gain curve: (precision_gain, recall_gain, thresholds), by decreasing threshold.

    With pi the positive class's share of the cases, precision gain is (prec - pi) / ((1 - pi) prec)
    and recall gain (rec - pi) / ((1 - pi) rec) (Flach & Kull 2015). The curve is the part where recall
    gain is in [0, 1]: it starts at the point where the curve enters that region (recall gain 0,
    linearly interpolated between the two thresholds around it; a synthetic point, whose threshold is
    NaN) and ends at recall gain 1, precision gain 0 (everything predicted positive, the lowest
    score). Points with negative precision gain are kept (they count, negatively, in
    :func:`prg_auc`). Tied scores are one threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels; without ``pos_label`` they must be {0, 1} or {-1, 1} (1 is positive).
    y_score : array-like of shape (n_samples,)
        Scores of the positive class; higher means more positive.
    pos_label : int, float, bool or str, default=None
        The positive class, as in :func:`clfeval.metrics.roc_curve`.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample (pi is the positives' share of the weight).

    Returns
    -------
    precision_gain : ndarray
        Precision gain at each point.
    recall_gain : ndarray
        Recall gain at each point, non-decreasing from 0 to 1.
    thresholds : ndarray
        The score at each point; NaN at the synthetic crossing point. All three are empty (with an
        UndefinedMetricWarning) when y_true has only one class.

    See Also
    --------
    prg_auc : The area under this curve.

    Examples
    --------
    >>> pg, rg, thr = prg_curve([1, 0, 1, 1, 0, 0, 1, 0], [.9, .8, .7, .6, .5, .4, .3, .2])
    >>> rg.round(4).tolist()
    [0.0, 0.6667, 0.6667, 0.6667, 1.0, 1.0]
    >>> pg.round(4).tolist(), thr.tolist()
    ([0.5, 0.6667, 0.3333, 0.0, 0.25, 0.0], [0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
    """
    fpr, tpr, thresholds = _roc(y_true, y_score, pos_label, sample_weight)
    pi = _prevalence(y_true, pos_label, sample_weight)
    rg, pg, crossing = prg_points_of_rates(fpr, tpr, pi)
    if rg.size == 0:
        warnings.warn("prg_curve: y_true has only one class, so the precision-recall-gain curve is undefined "
                      "(it needs positives and negatives); returning empty arrays.", UndefinedMetricWarning,
                      stacklevel=2)
        return rg, rg.copy(), np.zeros(0)
    thr = np.asarray(thresholds, dtype=np.float64)[thresholds.size - int((~crossing).sum()):]
    return pg, rg, np.concatenate([np.full(int(crossing.sum()), np.nan), thr])


def prg_auc(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> float:
    """Area under the Precision-Recall-Gain curve (AUPRG, Flach & Kull 2015).

    The trapezoid area of :func:`prg_curve` over recall gain in [0, 1]; precision gains below 0
    count negatively, so the area can be below 0 (its upper bound is 1, a perfect ranking). It is
    linear in the expected F1 score over the range of recalls where the classifier does better than
    always predicting positive (the paper's Theorem 3).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class.
    pos_label : int, float, bool or str, default=None
        The positive class, as in :func:`clfeval.metrics.roc_curve`.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample.

    Returns
    -------
    float
        AUPRG; NaN (with an UndefinedMetricWarning) when y_true has only one class.

    See Also
    --------
    prg_curve : The curve.

    Notes
    -----
    Checked against the authors' ``pyprg`` package (``prg.calc_auprg(prg.create_prg_curve(...))``),
    which gives the same value on data with and without ties.

    Examples
    --------
    >>> prg_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.25
    """
    fpr, tpr, _ = _roc(y_true, y_score, pos_label, sample_weight)
    pi = _prevalence(y_true, pos_label, sample_weight)
    area = prg_area_of_rates(fpr, tpr, pi)
    if area != area:
        warnings.warn("prg_auc: y_true has only one class, so the area under the precision-recall-gain curve is "
                      "undefined (it needs positives and negatives); returning NaN.", UndefinedMetricWarning,
                      stacklevel=2)
    return area


def _roc(y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any) -> tuple[np.ndarray, ...]:
    """The ROC points at every distinct score (from the origin), without roc_curve's one-class warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return roc_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, drop_intermediate=False)
