"""Partial area under the ROC curve on any range of either axis (issue 22, part 2).

scikit-learn's ``roc_auc_score(max_fpr=m)`` gives the McClish-standardised area over FPR in [0, m]
only. :func:`partial_auc` takes any FPR range, or any TPR (sensitivity) range as pROC's
``partial.auc.focus="se"`` does, with or without the standardisation, exactly under ties (the
area of the polyline the ROC curve draws: :func:`clfeval.formulas.curves.partial_roc_area`).

>>> partial_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], fpr_range=(0.0, 0.5), standardized=False)
0.25
"""

from __future__ import annotations

import warnings
from typing import Any

from clfeval.exceptions import UndefinedMetricWarning
from clfeval.formulas.curves import mcclish_standardized, partial_roc_area
from clfeval.inputs.partial_ranges import check_range, partial_range  # noqa: F401 (check_range: importable here as before)
from clfeval.metrics.ranking import roc_curve

__all__ = ["partial_auc"]


def partial_auc(
    y_true: Any,
    y_score: Any,
    *,
    fpr_range: Any = None,
    tpr_range: Any = None,
    standardized: bool = True,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> float:
    """Partial area under the ROC curve over a range of false positive rates or of true positive
    rates, optionally standardised (McClish) so that chance is 0.5 and a perfect ranking 1.

    With ``fpr_range=(a, b)`` it is the area under the curve for FPR in [a, b]; with
    ``tpr_range=(a, b)`` the area to the right of the curve for TPR in [a, b] (specificity
    integrated over sensitivity, pROC's ``partial.auc.focus="se"``). Over (0, 1) either is the
    ROC AUC. ``standardized=True`` maps the chance area to 0.5 and the perfect one to 1 (McClish
    1989; for ``fpr_range=(0, m)`` it is scikit-learn's ``roc_auc_score(max_fpr=m)``). Below the
    chance area the standardisation is undefined: NaN with an UndefinedMetricWarning, as pROC
    (scikit-learn's ``max_fpr`` extends it below 0.5 instead).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values; larger means positive).
    fpr_range : tuple of two floats, optional
        ``(a, b)`` with 0 <= a < b <= 1: the false positive rates the area covers. Give this or
        ``tpr_range``, not both.
    tpr_range : tuple of two floats, optional
        ``(a, b)`` with 0 <= a < b <= 1: the true positive rates (sensitivities) the area covers.
    standardized : bool, default=True
        McClish's standardisation (0.5 chance, 1 perfect); False returns the raw area, at most b - a.
    pos_label : int, float, bool or str, default=None
        The positive class, as in :func:`clfeval.metrics.roc_curve`.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample.

    Returns
    -------
    float
        The partial area; NaN when the ROC curve is undefined (no positive or no negative) or,
        standardised, below chance.

    Examples
    --------
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> partial_auc(y, s, fpr_range=(0.0, 1.0)), partial_auc(y, s, tpr_range=(0.0, 1.0))
    (0.75, 0.75)
    >>> partial_auc(y, s, fpr_range=(0.0, 0.5))  # the same as roc_auc_score(y, s, max_fpr=0.5)
    0.6666666666666666
    """
    axis, lo, hi = partial_range(fpr_range, tpr_range)
    if not isinstance(standardized, bool):
        raise ValueError(f"standardized must be True or False, got {standardized!r}.")
    fpr, tpr, _ = roc_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
                            drop_intermediate=False)
    if fpr.size == 0 or not (fpr[-1] == 1.0 and tpr[-1] == 1.0):  # no negative or no positive: NaN rates
        return float("nan")
    area, chance, perfect = partial_roc_area(fpr, tpr, lo, hi, axis)
    if not standardized:
        return float(area)
    value = mcclish_standardized(area, chance, perfect)
    if value != value:
        warnings.warn(f"the partial area over {axis.upper()} in [{lo:g}, {hi:g}] ({area:.6g}) is below the "
                      f"chance area ({chance:.6g}): McClish's standardisation is not defined there; returning "
                      "NaN (pROC: NA). Pass standardized=False for the area itself.",
                      UndefinedMetricWarning, stacklevel=2)
    return value
