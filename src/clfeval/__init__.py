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
from .exceptions import UndefinedMetricWarning
from .scores import ScoreTable

__all__ = [
    "evaluate",
    "Evaluation",
    "ConfusionMatrix",
    "metrics",
    "ConfusionCounts",
    "MultilabelCounts",
    "ScoreTable",
    "UndefinedMetricWarning",
]
