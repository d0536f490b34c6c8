"""Matplotlib plots of evaluations, in the manner of scikit-learn's Display objects.

Each display computes once (``from_evaluation``, ``from_predictions``) and draws with
``plot(ax=None, ...) -> self``, keeping ``figure_``, ``ax_`` and its artists (``line_``,
``im_``, ``text_``, ...). ``RocCurveDisplay``, ``PrecisionRecallDisplay``,
``ConfusionMatrixDisplay`` and ``DetCurveDisplay`` are drop-in for scikit-learn's: the same
constructors (``from_estimator``, ``from_predictions``, ``from_cv_results``), arguments,
defaults, attributes and drawing; ``from_evaluation`` adds clfeval's richer view. matplotlib is imported only when something is drawn
(``pip install 'clfeval[plot]'``).

>>> import clfeval
>>> from clfeval.plot import RocCurveDisplay
>>> from matplotlib.figure import Figure
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="toy")
>>> RocCurveDisplay.from_evaluation(ev, ax=Figure().add_subplot()).roc_auc
0.75
"""

from __future__ import annotations

from clfeval.plot.calibration import ReliabilityDisplay
from clfeval.plot.cd_diagram import CriticalDifferenceDisplay
from clfeval.plot.confusion import ConfusionMatrixDisplay
from clfeval.plot.costs import CostCurveDisplay, DecisionCurveDisplay
from clfeval.plot.det import DetCurveDisplay
from clfeval.plot.groups import GroupMetricsDisplay
from clfeval.plot.cross import CrossValidationCurveDisplay, FoldMetricsDisplay
from clfeval.plot.ovr import OneVsRestDisplay
from clfeval.plot.pr import PrecisionRecallDisplay
from clfeval.plot.roc import RocCurveDisplay
from clfeval.plot.save import render_pngs, save_pngs
from clfeval.plot.threshold import ThresholdMetricsDisplay
from clfeval.plot.threshold3d import ThresholdCurve3DDisplay

__all__ = [
    "ConfusionMatrixDisplay",
    "DetCurveDisplay",
    "CriticalDifferenceDisplay",
    "RocCurveDisplay",
    "PrecisionRecallDisplay",
    "OneVsRestDisplay",
    "ThresholdCurve3DDisplay",
    "ThresholdMetricsDisplay",
    "CrossValidationCurveDisplay",
    "FoldMetricsDisplay",
    "GroupMetricsDisplay",
    "ReliabilityDisplay",
    "CostCurveDisplay",
    "DecisionCurveDisplay",
    "save_pngs",
    "render_pngs",
]
