"""clfeval: classifier evaluation built on sufficient statistics that merge.

The light public surface; heavy optional dependencies are never imported here.

>>> import clfeval
>>> clfeval.metrics.accuracy_score([0, 1, 1], [0, 1, 0])
0.6666666666666666
>>> clfeval.evaluate([0, 1, 1], [0, 1, 0]).report.overall["accuracy"]
0.6666666666666666
"""

from __future__ import annotations

from . import metrics
__version__ = "0.1.0"

from .confusion import ConfusionMatrix
from .counts import ConfusionCounts, MultilabelCounts
from .evaluation import Evaluation, evaluate
from .exceptions import ScoresBinnedWarning, UndefinedMetricWarning
from .scores import ScoreTable
from . import protocols
from .cross_evaluation import CrossEvaluation, aggregate_confusions, cross_evaluate
from .cross_evaluation import compare as compare_estimators
from .streaming import StreamingEvaluation
from . import exceptions

__all__ = [
    "evaluate",
    "Evaluation",
    "cross_evaluate",
    "CrossEvaluation",
    "compare_estimators",
    "aggregate_confusions",
    "protocols",
    "ConfusionMatrix",
    "metrics",
    "ConfusionCounts",
    "MultilabelCounts",
    "ScoreTable",
    "UndefinedMetricWarning",
    "ScoresBinnedWarning",
    "StreamingEvaluation",
    "exceptions",
]
