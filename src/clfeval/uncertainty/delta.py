"""The delta method: standard errors of functions of a confusion table under multinomial sampling.

:func:`delta_method_se` takes the exact gradients of the report's measures
(:mod:`clfeval.formulas.measure_gradients`) or numerical ones (:func:`clfeval.uncertainty.influence.linearized_variance`);
:data:`DELTA`, :data:`DELTA_WEIGHTED` and :func:`delta_method_name` name the report's
delta-method intervals.

>>> from clfeval.formulas import measures as m
>>> round(float(delta_method_se(m.accuracy, np.array([[30, 10], [10, 50]]))), 6)
0.04
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from clfeval.uncertainty.checks import float_or_array
from clfeval.uncertainty.confusion_measures import MEASURE_RANGES, check_table

__all__ = ["DELTA", "DELTA_WEIGHTED", "delta_method_name", "delta_method_se"]

#: Method name of the report's delta-method intervals of counts, and of weighted cases.
DELTA = "delta method (multinomial)"
DELTA_WEIGHTED = "delta method (weighted cases)"


def delta_method_name(base: str, measure: str, k: int) -> str:
    """The method name of a report's delta-method interval: the variance, the scale, the smoothing.

    >>> delta_method_name(DELTA, "mcc", 2)
    'delta method (multinomial), Fisher z scale, cells + 1/2'
    """
    scale = "Fisher z" if measure in MEASURE_RANGES else "logit"
    return f"{base}, {scale} scale, cells + 1/{k}"


def delta_method_se(
    func: Callable[[np.ndarray], Any], counts: Any
) -> Any:
    """Standard error(s) of ``func(table)`` under multinomial sampling of the table's cells.

    ``func`` maps tables of shape ``(..., k, k)`` to an array of shape ``(..., *s)``, or to a dict of
    such arrays; the result has the same structure, with the leading shape of ``counts``.
    With cell counts c and gradient g = d func / d c,

        Var = sum_c g_c^2 c - (sum_c g_c c)^2 / n,

    the first-order (delta-method) variance of the multinomial (Agresti, Categorical Data
    Analysis, 3rd ed., section 16.1). Cells with count 0 add nothing. The measures of whole tables
    (``measures.accuracy``, ``error_rate``, ``balanced_accuracy``, ``matthews_corrcoef``,
    ``cohen_kappa``, also ``functools.partial(cohen_kappa, weights=...)``) take their exact
    gradients (:mod:`clfeval.formulas.measure_gradients`): for Cohen's kappa this is the large-sample
    variance of Fleiss, Cohen & Everitt (1969), statsmodels' ``cohens_kappa(...).std_kappa``.
    Any other ``func`` is differentiated numerically (central differences with a step of 1e-5
    of each cell, all cells of all tables in one batched call; about 10 correct digits).

    Parameters
    ----------
    func : callable
        Function of count tables, vectorised over leading axes: ``(..., k, k)`` to ``(..., *s)``, or to
        a dict of such arrays.
    counts : array-like of shape (k, k) or (..., k, k)
        The confusion table (or a batch of them) whose multinomial sampling is assumed.

    Returns
    -------
    float, numpy.ndarray or dict
        The standard error of each value of ``func(counts)``, in the same structure (a float for
        one table and a scalar function).

    References
    ----------
    .. [1] Agresti, A. (2013). Categorical Data Analysis, 3rd ed. Wiley, Hoboken (section 16.1).
    .. [2] Fleiss, J. L., Cohen, J. and Everitt, B. S. (1969). Large sample standard errors of
       kappa and weighted kappa. Psychological Bulletin, 72(5), 323-327.

    Examples
    --------
    >>> from clfeval.formulas import measures as m
    >>> se = delta_method_se(m.accuracy, np.array([[30, 10], [10, 50]]))
    >>> round(float(se), 6), round((0.8 * 0.2 / 100) ** 0.5, 6)
    (0.04, 0.04)
    """
    from clfeval.uncertainty.influence import linearized_variance
    from clfeval.formulas.measure_gradients import gradient_of, table_variance

    table, _ = check_table(counts)
    cm = table.astype(np.float64)
    n = cm.sum(axis=(-2, -1))
    grad = gradient_of(func)
    if grad is not None:
        return float_or_array(np.sqrt(table_variance(grad(table), cm, cm, n)))
    var = linearized_variance(func, cm, cm, n)
    out = {key: float_or_array(np.sqrt(v)) for key, v in var.items()}
    return out[None] if list(out) == [None] else out
