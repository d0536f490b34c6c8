"""Misclassification costs of labels and scores given as arrays, as scikit-learn-style
functions: expected cost, Drummond and Holte's cost curves, decision curves. The formulas (of
confusion counts and rankings) live in :mod:`clfeval.results.cost_curves`; their names are importable
from here too.

A cost matrix ``costs`` is (k, k) over the evaluation's label order: ``costs[i, j]`` is the cost
of predicting class j for a sample of class i (rows true, columns predicted, like the confusion
matrix). The diagonal is usually 0; negative entries are benefits.

>>> expected_cost([[50, 10], [5, 35]], [[0, 1], [5, 0]])
0.35
>>> cc = cost_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
>>> cc.envelope_pc.tolist(), cc.envelope_nec.tolist(), cc.area
([0.0, 0.5, 1.0], [0.0, 0.25, 0.0], 0.125)
>>> decision_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], thresholds=[0.2, 0.5]).net_benefit.tolist()
[0.4375, 0.25]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.results.cost_curves import (
    DEFAULT_DECISION_THRESHOLDS,
    CostCurve,
    CostLine,
    DecisionCurve,
    check_costs,
    check_decision_thresholds,
    cost_curve_of,
    cost_sensitive_error_rate,
    decision_curve_of,
    expected_cost,
    normalized_expected_cost,
    probability_cost,
    require_probabilities,
)
from clfeval.evaluation import Evaluation, evaluate
from clfeval.statistics.rankings import BinaryRanking

__all__ = [
    "check_costs",
    "expected_cost",
    "cost_sensitive_error_rate",
    "probability_cost",
    "normalized_expected_cost",
    "CostLine",
    "CostCurve",
    "cost_curve_of",
    "cost_curve",
    "DecisionCurve",
    "DEFAULT_DECISION_THRESHOLDS",
    "net_benefit",
    "decision_curve_of",
    "decision_curve",
]


def _binary_ranking(y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any,
                    what: str) -> tuple[BinaryRanking, Evaluation]:
    """The positive class's ranking of binary scores, through ``clfeval.evaluate``."""
    ev = evaluate(y_true, y_score=y_score, pos_label=pos_label, sample_weight=sample_weight)
    if ev.task != "binary":
        raise ValueError(f"a {what} needs a binary problem, but y_true and y_score make a {ev.task} one; "
                         "compare one class against the rest by passing y_true == that_class.")
    ranking = ev.ranking(ev.names[ev.positive_index])
    assert ranking is not None
    return ranking, ev


def cost_curve(y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None,
               threshold: float | None = None) -> CostCurve:
    """Drummond and Holte's cost curve of binary scores (see :class:`CostCurve`).

    Arguments as scikit-learn's ``roc_curve``; ``threshold``: also the line of predicting
    positive where score >= it (``operating_line``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels of a binary problem (a ValueError for more classes).
    y_score : array-like of shape (n_samples,) or (n_samples, 2)
        Scores of the positive class (probabilities or decision values), or one column per
        class in label order.
    pos_label : int, float, bool or str, default=None
        The positive class; None takes 1 for labels {0, 1} or {-1, 1}, the second of the sorted
        labels with two score columns, and is an error otherwise (as :func:`clfeval.evaluate`).
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each sample; None weighs every sample 1.
    threshold : float, default=None
        When given, the result's ``operating_line`` is the line of predicting positive where
        the score is >= it.

    Returns
    -------
    CostCurve
        Every threshold's line, the lower envelope and its area.

    Examples
    --------
    >>> cc = cost_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], threshold=0.5)
    >>> cc.operating_line, cc.best_threshold([0.2, 0.5, 0.9]).tolist()
    (CostLine(fpr=0.0, fnr=0.5, threshold=0.5), [0.8, 0.35, 0.35])
    """
    ranking, ev = _binary_ranking(y_true, y_score, pos_label, sample_weight, "cost curve")
    line = None if threshold is None else CostLine.at_threshold(ranking, float(threshold))
    return cost_curve_of(ranking, operating_line=line, pos_label=ev.pos_label)


def _probability_ranking(y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any) -> tuple[BinaryRanking, Evaluation]:
    ranking, ev = _binary_ranking(y_true, y_score, pos_label, sample_weight, "decision curve")
    require_probabilities(ranking)
    return ranking, ev


def decision_curve(y_true: Any, y_score: Any, *, thresholds: Any = None, pos_label: Any = None,
                   sample_weight: Any = None) -> DecisionCurve:
    """Decision curve (net benefit against threshold probability) of predicted probabilities.

    ``y_score``: probabilities of ``pos_label`` (1-D) or (n, 2) columns in label order; scores
    outside [0, 1] are refused. ``thresholds``: in [0, 1), default 0.01 to 0.99 by 0.01.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels of a binary problem (a ValueError for more classes).
    y_score : array-like of shape (n_samples,) or (n_samples, 2)
        Predicted probability of the positive class, or one column per class in label order;
        a ValueError for scores outside [0, 1].
    thresholds : array-like, default=None
        Threshold probabilities in [0, 1); None for 0.01 to 0.99 by 0.01.
    pos_label : int, float, bool or str, default=None
        The positive class; None takes 1 for labels {0, 1} or {-1, 1}, the second of the sorted
        labels with two score columns, and is an error otherwise (as :func:`clfeval.evaluate`).
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each sample; None weighs every sample 1.

    Returns
    -------
    DecisionCurve
        Net benefit of the model and of treating all, at each threshold.

    Examples
    --------
    >>> dc = decision_curve([0, 0, 1, 1, 1], [0.1, 0.6, 0.3, 0.8, 0.9], thresholds=[0.25, 0.5])
    >>> dc.net_benefit.round(4).tolist(), dc.treat_all.round(4).tolist()
    ([0.5333, 0.2], [0.4667, 0.2])
    """
    t = check_decision_thresholds(thresholds)
    ranking, ev = _probability_ranking(y_true, y_score, pos_label, sample_weight)
    return decision_curve_of(ranking, t, pos_label=ev.pos_label)


def net_benefit(y_true: Any, y_score: Any, thresholds: Any, *, pos_label: Any = None,
                sample_weight: Any = None) -> np.ndarray:
    """Net benefit ``TP / n - FP / n * pt / (1 - pt)`` of treating where ``y_score >= pt``, at each
    threshold probability ``pt`` in ``thresholds`` (in [0, 1); the result has their shape).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels of a binary problem (a ValueError for more classes).
    y_score : array-like of shape (n_samples,) or (n_samples, 2)
        Predicted probability of the positive class, or one column per class in label order;
        a ValueError for scores outside [0, 1].
    thresholds : float or array-like
        Threshold probabilities pt, in [0, 1).
    pos_label : int, float, bool or str, default=None
        The positive class; None takes 1 for labels {0, 1} or {-1, 1}, the second of the sorted
        labels with two score columns, and is an error otherwise (as :func:`clfeval.evaluate`).
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each sample (TP, FP and n are then weights); None weighs every sample 1.

    Returns
    -------
    numpy.ndarray
        The net benefit at each threshold, shaped like ``thresholds``.

    Examples
    --------
    >>> net_benefit([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0.2, 0.5]).tolist()  # 2/4 - 1/4 * 0.25
    [0.4375, 0.25]
    """
    t = check_decision_thresholds(thresholds)
    ranking, _ = _probability_ranking(y_true, y_score, pos_label, sample_weight)
    return decision_curve_of(ranking, t).net_benefit.reshape(np.shape(t))
