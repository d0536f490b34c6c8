"""Drop-in replacements for ``sklearn.metrics``: same names, arguments and results.

>>> from clfeval import metrics
>>> metrics.f1_score([0, 1, 1, 0], [0, 1, 0, 0])
0.6666666666666666
"""

from __future__ import annotations

from clfeval.metrics.at_thresholds import *  # noqa: F401,F403
from clfeval.metrics.at_thresholds import __all__ as _at_thresholds_all
from clfeval.metrics.classification import *  # noqa: F401,F403
from clfeval.metrics.classification import __all__ as _classification_all
from clfeval.metrics.probabilistic import *  # noqa: F401,F403
from clfeval.metrics.probabilistic import __all__ as _probabilistic_all
from clfeval.metrics.ranking import *  # noqa: F401,F403
from clfeval.metrics.ranking import __all__ as _ranking_all
from clfeval.metrics.skill_scores import *  # noqa: F401,F403
from clfeval.metrics.skill_scores import __all__ as _skill_scores_all
from clfeval.metrics.hinge import *  # noqa: F401,F403
from clfeval.metrics.hinge import __all__ as _hinge_all
from clfeval.metrics.multilabel_ranking import *  # noqa: F401,F403
from clfeval.metrics.multilabel_ranking import __all__ as _multilabel_ranking_all
from clfeval.metrics.partial_auc import *  # noqa: F401,F403
from clfeval.metrics.partial_auc import __all__ as _partial_auc_all
from clfeval.metrics.prg import *  # noqa: F401,F403
from clfeval.metrics.prg import __all__ as _prg_all

__all__ = list(_classification_all) + list(_ranking_all) + list(_probabilistic_all) + list(_at_thresholds_all)
__all__ += list(_skill_scores_all) + list(_hinge_all) + list(_multilabel_ranking_all) + list(_partial_auc_all)
__all__ += list(_prg_all)
