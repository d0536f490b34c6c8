"""What the views of an evaluation by group share: the forest plot
(:class:`clfeval.plot.groups.GroupMetricsDisplay`) and the HTML report's "By group" section
(:mod:`clfeval.report.html_groups`) show the same metric when none is named, title it alike and
show as many groups at most.

Kept apart from :mod:`clfeval.plot.groups` (which imports the evaluation to build a display), so
that the report can read these without an import cycle through ``Evaluation.to_html``.

>>> default_group_metric(["accuracy", "roc_auc"]), group_metric_title("f1.macro")
('roc_auc', 'f1-score (macro)')
"""

from __future__ import annotations

from collections.abc import Sequence

from clfeval.evaluation.group_metrics import lead_metric, metric_key_parts
from clfeval.formulas.measure_registry import Measure
from clfeval.formulas.measure_registry import title as measure_title
from clfeval.results.group_results import SMALL_CLASS_CASES

__all__ = ["default_group_metric", "group_metric_title", "group_metric_higher_is_better", "MAX_SHOWN_GROUPS",
           "SMALL_GROUP_LABEL"]

#: The most groups a forest plot or the HTML report's group tables show: the worst by the metric
#: shown (the others are counted in a note; every group is in ``ev.by_group.table()``).
MAX_SHOWN_GROUPS = 40

#: Legend text of a small group's hollow marker
SMALL_GROUP_LABEL = f"small group (a class has fewer than {SMALL_CLASS_CASES} cases)"


def default_group_metric(metrics: Sequence[str]) -> str:
    """The metric a group view shows when none is named, among a group table's ``metrics``
    (:func:`clfeval.evaluation.group_metrics.lead_metric`, as the command line's ``--by`` sorts).

    >>> default_group_metric(["accuracy", "balanced_accuracy", "roc_auc"])
    'roc_auc'
    """
    return lead_metric(metrics)


def _measure(key: str) -> tuple[Measure | None, str | None]:
    """The registry measure a group metric key names, and its scope after the dot (None, None for
    a key that names none)."""
    try:
        return metric_key_parts(key)
    except ValueError:
        return None, None


def group_metric_title(key: str) -> str:
    """A group metric's key as the views title it.

    >>> group_metric_title("roc_auc"), group_metric_title("recall.macro"), group_metric_title("f1.malignant")
    ('ROC AUC', 'recall (macro)', 'f1-score of malignant')
    >>> group_metric_title("selection_rate")
    'selection rate'
    """
    measure, scope = _measure(key)
    if measure is None:
        return key
    head = "selection rate" if key.partition(".")[0] == "selection_rate" else measure_title(measure.name)
    if scope is None:
        return head
    return f"{head} ({scope})" if scope in ("micro", "macro", "weighted", "samples") else f"{head} of {scope}"


def group_metric_higher_is_better(key: str) -> bool:
    """Whether a larger value of the metric is better (the registry's direction; True where it has
    none, as :attr:`clfeval.evaluation.group_metrics.GroupMetric.higher_is_better`).

    >>> group_metric_higher_is_better("recall.macro"), group_metric_higher_is_better("hamming_loss")
    (True, False)
    """
    measure, _ = _measure(key)
    return measure is None or measure.higher_is_better is not False
