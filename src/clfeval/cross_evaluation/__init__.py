"""Cross-evaluation: fit an estimator on the training part of each split, evaluate it on the test
part, and aggregate honestly.

* :func:`cross_evaluate` runs any scikit-learn-compatible classifier over a protocol
  (:mod:`clfeval.protocols` or any scikit-learn splitter) and returns a :class:`CrossEvaluation`:
  a full :class:`~clfeval.Evaluation` per fold, the pooled out-of-fold Evaluation, per-fold metric
  tables, means, spreads and intervals (Nadeau-Bengio corrected), times and split indices.
* Aggregation named plainly: "mean over folds" vs "pooled"; ``f1_macro`` (mean of per-class F1,
  scikit-learn's macro F1) vs ``f1_of_macros`` (F1 of macro precision and macro recall);
  :func:`aggregate_confusions` does the same for confusion tables from several data sets or runs.
* :func:`mean_curve`: ROC / PR curves averaged vertically across folds, with a pointwise band.
* :func:`compare` / :meth:`CrossEvaluation.compare`: two estimators on identical splits with the
  corrected resampled t test (or 5x2cv).
* :func:`bootstrap_632` / :meth:`CrossEvaluation.bootstrap_estimates`: the leave-one-out
  bootstrap, .632 and .632+ estimators of Efron and Tibshirani (1997).

scikit-learn and joblib are needed only when an estimator is run (``pip install
'clfeval[protocols]'``); aggregating tables and curves needs neither.

>>> agg = aggregate_confusions([[[8, 2], [1, 9]], [[5, 5], [0, 10]]])
>>> round(agg.pooled_value("accuracy"), 4), round(agg.mean_value("accuracy"), 4)
(0.8, 0.8)
>>> round(agg.pooled_value("f1_macro"), 4), round(agg.mean_value("f1_macro"), 4)
(0.7954, 0.7915)

The package, one concept a module: :mod:`.runner` (``cross_evaluate``, ``compare``,
``bootstrap_632``: estimators run over the splits), :mod:`.inputs` (the input checked once, the
splits drawn), :mod:`.folds` (one split fitted and evaluated, :class:`Fold`), :mod:`.results`
(:class:`CrossEvaluation`), :mod:`.metric_names`, :mod:`.summaries` (means and intervals over
folds), :mod:`.aggregation` (confusion tables of several runs), :mod:`.curves` (mean curves),
:mod:`.comparison` (paired tests on identical splits) and :mod:`.bootstrap_estimators` (.632, .632+).
"""

from __future__ import annotations

from clfeval.cross_evaluation.aggregation import ConfusionAggregate, aggregate_confusions
from clfeval.cross_evaluation.bootstrap_estimators import BootstrapEstimate, efron_tibshirani
from clfeval.cross_evaluation.comparison import Comparison
from clfeval.cross_evaluation.curves import MeanCurve, mean_curve
from clfeval.cross_evaluation.folds import Fold, FoldError
from clfeval.cross_evaluation.metric_names import AVERAGES, METRICS, default_metrics, metric_value
from clfeval.cross_evaluation.results import CrossEvaluation
from clfeval.cross_evaluation.runner import bootstrap_632, compare, cross_evaluate
from clfeval.cross_evaluation.summaries import MetricSummary

__all__ = [
    "cross_evaluate",
    "CrossEvaluation",
    "Fold",
    "FoldError",
    "MetricSummary",
    "metric_value",
    "METRICS",
    "aggregate_confusions",
    "ConfusionAggregate",
    "mean_curve",
    "MeanCurve",
    "compare",
    "Comparison",
    "bootstrap_632",
    "efron_tibshirani",
    "BootstrapEstimate",
]
