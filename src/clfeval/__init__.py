"""clfeval: classifier evaluation built on sufficient statistics that merge.

The light public surface; heavy optional dependencies are never imported here. The names below
are imported on first use (PEP 562), so ``import clfeval`` itself is nearly free: the ``clfeval``
command installs its Ctrl-C handling before numpy and the rest load (see :mod:`clfeval.cli`).

>>> import clfeval
>>> clfeval.metrics.accuracy_score([0, 1, 1], [0, 1, 0])
0.6666666666666666
>>> clfeval.evaluate([0, 1, 1], [0, 1, 0]).report.overall["accuracy"]
0.6666666666666666
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

from clfeval.support.moved_paths import install as _install_moved_paths

_install_moved_paths()  # old module paths (clfeval.counts, ...) keep working for one release

#: public name -> (module, attribute); a module itself where the attribute is None
_PUBLIC: dict[str, tuple[str, str | None]] = {
    "evaluate": ("evaluation", "evaluate"),
    "Evaluation": ("evaluation", "Evaluation"),
    "cross_evaluate": ("cross_evaluation", "cross_evaluate"),
    "CrossEvaluation": ("cross_evaluation", "CrossEvaluation"),
    "compare_estimators": ("cross_evaluation", "compare"),
    "aggregate_confusions": ("cross_evaluation", "aggregate_confusions"),
    "protocols": ("protocols", None),
    "ConfusionMatrix": ("results.confusion", "ConfusionMatrix"),
    "metrics": ("metrics", None),
    "ConfusionCounts": ("statistics.counts", "ConfusionCounts"),
    "MultilabelCounts": ("statistics.counts", "MultilabelCounts"),
    "ScoreTable": ("statistics.scores", "ScoreTable"),
    "UndefinedMetricWarning": ("exceptions", "UndefinedMetricWarning"),
    "ScoresBinnedWarning": ("exceptions", "ScoresBinnedWarning"),
    "StreamingEvaluation": ("streaming", "StreamingEvaluation"),
    "exceptions": ("exceptions", None),
}

__all__ = list(_PUBLIC)


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name not in _PUBLIC:  # a submodule (clfeval.metrics...): imported on its own, as ``import`` would
        if importlib.util.find_spec(f"{__name__}.{name}") is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return importlib.import_module(f".{name}", __name__)
    _load_all()  # the whole public surface at once, in its usual order (no partial imports)
    module_name, attribute = _PUBLIC[name]
    module = importlib.import_module(f".{module_name}", __name__)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))


def _load_all() -> None:
    """Import the public modules in the order the package always imported them."""
    for module_name in ("metrics", "results.confusion", "statistics.counts", "evaluation", "exceptions",
                        "statistics.scores", "protocols",
                        "cross_evaluation", "streaming"):
        importlib.import_module(f".{module_name}", __name__)


if TYPE_CHECKING:  # pragma: no cover
    from clfeval import exceptions, metrics, protocols
    from clfeval.results.confusion import ConfusionMatrix
    from clfeval.statistics.counts import ConfusionCounts, MultilabelCounts
    from clfeval.cross_evaluation import CrossEvaluation, aggregate_confusions, cross_evaluate
    from clfeval.cross_evaluation import compare as compare_estimators
    from clfeval.evaluation import Evaluation, evaluate
    from clfeval.exceptions import ScoresBinnedWarning, UndefinedMetricWarning
    from clfeval.statistics.scores import ScoreTable
    from clfeval.streaming import StreamingEvaluation
