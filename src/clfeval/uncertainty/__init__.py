"""How sure are we: confidence intervals for classification measures, analytic and bootstrap.

Everything works on the sufficient statistics, never on rows:

* :func:`proportion_ci`: Wilson, Clopper-Pearson, Agresti-Coull, Jeffreys and Wald intervals of a
  binomial proportion, vectorised over arrays of counts.
* :func:`delta_method_se`: standard errors of any function of a confusion table under multinomial
  sampling of its cells (the delta method, exact gradients of the report's measures, batched).
* :func:`bootstrap_confusion` / :func:`bootstrap_ranking`: a bootstrap is a batch of resampled count
  tables, multinomial over the cells (stratified by true class by default), that the formulas of
  :mod:`clfeval.formulas.measures` and :mod:`clfeval.formulas.curves` read all at once.
* :func:`bootstrap_ci`: percentile and BCa intervals of any vectorised statistic of a count table;
  BCa's jackknife runs over the cells (leave one count out of a cell, weighted by the cell count).
* :func:`confusion_intervals`: every interval of the classification report in one dict;
  :func:`ranking_intervals`: ROC AUC and average precision; :func:`partial_auc_interval`: a partial ROC area; :func:`roc_band`, :func:`pr_band`,
  :func:`sensitivity_at_specificity`, :func:`specificity_at_sensitivity`: curves and operating points.
* :func:`smooth_ece_interval`, :func:`corp_interval`: the smooth ECE and CORP's miscalibration and
  discrimination (:mod:`~clfeval.uncertainty.calibration_intervals`), with their coverage.

One concept per module: :mod:`~clfeval.uncertainty.checks` (the normal quantile
:func:`~clfeval.uncertainty.checks.z_quantile`, argument checks), :mod:`~clfeval.uncertainty.proportions`,
:mod:`~clfeval.uncertainty.confusion_measures` (the report's numbers of batches of tables),
:mod:`~clfeval.uncertainty.delta`, :mod:`~clfeval.uncertainty.cell_ratio_intervals` (F-beta and a
two-class MCC from score intervals of proportions of the cells), :mod:`~clfeval.uncertainty.bootstrap`,
:mod:`~clfeval.uncertainty.confusion_intervals`, :mod:`~clfeval.uncertainty.ranking_intervals` and
:mod:`~clfeval.uncertainty.bands`; this package re-exports their public names.

>>> ci = proportion_ci(81, 100)
>>> round(ci.low, 4), round(ci.high, 4), ci.method
(0.7222, 0.8749, 'Wilson score')
>>> import numpy as np
>>> d = confusion_intervals(np.array([[40, 10], [5, 45]]))
>>> d["per_class"]["recall"].low.round(3).tolist()
[0.67, 0.786]
"""

from __future__ import annotations

from clfeval.uncertainty.bands import CurveBand, pr_band, roc_band, sensitivity_at_specificity, specificity_at_sensitivity
from clfeval.uncertainty.bootstrap import (
    bootstrap_ci,
    bootstrap_confusion,
    bootstrap_ranking,
    interval_from_replicates,
    jackknife_acceleration,
)
from clfeval.uncertainty.confusion_intervals import confusion_intervals, mover_average
from clfeval.uncertainty.confusion_measures import AVERAGES, OVERALL, PER_CLASS  # noqa: F401
from clfeval.uncertainty.delta import DELTA, DELTA_WEIGHTED, delta_method_name, delta_method_se  # noqa: F401
from clfeval.uncertainty.proportions import KISH, PROPORTION_METHODS, proportion_ci  # noqa: F401
from clfeval.uncertainty.ranking_intervals import auc_leave_one_out, ranking_intervals
from clfeval.uncertainty.partial_auc_intervals import partial_auc_interval
from clfeval.uncertainty.calibration_intervals import corp_interval, smooth_ece_interval

# Also importable from here, as before the split (not in __all__, as before): AVERAGES, OVERALL,
# PER_CLASS, DELTA, DELTA_WEIGHTED, delta_method_name, KISH; and _jackknife, the old private name of
# bootstrap.jackknife, kept only because tests/test_uncertainty.py imports it.
from clfeval.uncertainty.bootstrap import jackknife as _jackknife  # noqa: E402, F401

__all__ = [
    "PROPORTION_METHODS",
    "proportion_ci",
    "delta_method_se",
    "bootstrap_confusion",
    "bootstrap_ranking",
    "bootstrap_ci",
    "interval_from_replicates",
    "jackknife_acceleration",
    "auc_leave_one_out",
    "mover_average",
    "confusion_intervals",
    "ranking_intervals",
    "partial_auc_interval",
    "smooth_ece_interval",
    "corp_interval",
    "CurveBand",
    "roc_band",
    "pr_band",
    "sensitivity_at_specificity",
    "specificity_at_sensitivity",
]
