"""Module paths that moved when the package took its layered shape, kept working for one release.

``import clfeval.counts`` (or ``from clfeval import roc_pr``) still gives the module, now at
``clfeval.statistics.counts``: the very same module object, so its classes, private helpers and
anything patched on it are shared, and pickles that name an old path still load. Each old path
warns once with a :class:`DeprecationWarning` naming the new one. This costs one finder on
:data:`sys.meta_path` that answers only for the names in :data:`MOVED` and no files: the old
top level stays as short as the new layout.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     import clfeval.roc_pr as old
>>> import clfeval.statistics.rankings as new
>>> old is new, caught[0].category.__name__
(True, 'DeprecationWarning')
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

__all__ = ["MOVED", "MovedPathFinder", "install"]

#: old dotted path -> new dotted path (removed in the release after next)
MOVED: dict[str, str] = {
    f"clfeval.{old}": f"clfeval.{new}" for old, new in {
        "read_only": "support.read_only", "sorted_search": "support.sorted_search",
        "signals": "support.signals", "progress": "support.progress", "atomic": "support.atomic",
        "staged_outputs": "support.staged_outputs", "json_plain": "support.json_plain",
        "labels": "inputs.labels", "input_checks": "inputs.checks",
        "probability_inputs": "inputs.probabilities", "score_kind": "inputs.score_kind",
        "sklearn_pos_label": "inputs.sklearn_pos_label", "evaluation_inputs": "inputs.evaluate_arguments",
        "column_roles": "inputs.column_roles", "examples": "inputs.examples",
        "measures": "formulas.measures", "measure_registry": "formulas.measure_registry",
        "measure_gradients": "formulas.measure_gradients", "curves": "formulas.curves",
        "sums": "formulas.sums", "exact_sums": "formulas.exact_sums",
        "counts": "statistics.counts", "sparse_counts": "statistics.sparse_counts",
        "margins": "statistics.margins", "scores": "statistics.scores",
        "packed_sort": "statistics.packed_sort", "roc_pr": "statistics.rankings",
        "binning": "statistics.binning",
        "confusion": "results.confusion", "operating_points": "results.operating_points",
        "threshold_sweep": "results.threshold_sweep", "interval_results": "results.intervals",
        "report.table": "results.report", "report.text": "results.report_text",
        "cost_formulas": "results.cost_curves",
        "influence": "uncertainty.influence", "area_intervals": "uncertainty.area_intervals",
        "interval_scales": "uncertainty.scales", "resampling": "uncertainty.resampling",
        "evaluation_build": "evaluation.build", "evaluation_intervals": "evaluation.intervals",
        "evaluation_thresholds": "evaluation.thresholds",
        "cli_compare": "cli.compare", "cli_demo": "cli.demo", "cli_engines": "cli.engines",
        "cli_messages": "cli.messages", "cli_notes": "cli.notes", "cli_options": "cli.options",
        "cli_parser": "cli.parser", "cli_report_options": "cli.report_options", "cli_views": "cli.views",
        **{f"tabular{sub}": f"inputs.tabular{sub}" for sub in (
            "", ".arrays", ".batches", ".detection", ".files", ".messages", ".models", ".progress_bar",
            ".reading", ".source", ".tables")},
    }.items()
}


class MovedPathFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path of :data:`MOVED` and loads it as the module at the new path."""

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(f"{spec.name} moved to {new}; the old path works until the release after next",
                      DeprecationWarning, stacklevel=2)
        module = importlib.import_module(new)
        spec.loader_state = module.__spec__  # the import system is about to overwrite it
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module at the new path is loaded. Give it back its own spec."""
        alias_spec = module.__spec__
        if alias_spec is not None and alias_spec.loader_state is not None:
            module.__spec__ = alias_spec.loader_state


def install() -> None:
    """Put the finder at the front of :data:`sys.meta_path`, once (called by ``import clfeval``)."""
    if not any(isinstance(finder, MovedPathFinder) for finder in sys.meta_path):
        # first: an old package path (clfeval.tabular) must not let the path finder load a second
        # copy of its submodules under the old names; every other name costs one dict lookup
        sys.meta_path.insert(0, MovedPathFinder())
