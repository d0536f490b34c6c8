"""The one list of the report's measures: for each, its key (as in the report and the JSON), its
title on screen, its long description, its range, whether higher is better, why it can be 0/0,
and its formula (a batched function of count arrays from :mod:`clfeval.measures` or of scores).

Views, notes and option parsers read titles and texts from here rather than declaring them again.

>>> MEASURES["npv"].title, MEASURES["npv"].undefined_because
('NPV', 'never predicted negative')
>>> title("f0.5"), title("kappa")
('f0.5-score', "Cohen's kappa")
>>> sorted(name for name, m in MEASURES.items() if m.kind == "area")
['average_precision', 'roc_auc']
>>> float(MEASURES["precision"].formula(np.array(3.0), np.array(1.0), np.array(2.0), np.array(4.0)))
0.75
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from . import measures as m

__all__ = ["Measure", "MEASURES", "title", "undefined_because", "measures_of_kind"]

#: per_class: a rate of one class against the rest, formula(tp, fp, fn, tn);
#: overall: a number of the whole (k, k) table, formula(table);
#: area: an area under a curve of scores (formula in :mod:`clfeval.curves`, of a ranking);
#: count: a count of samples
Kind = Literal["per_class", "overall", "area", "count"]


@dataclass(frozen=True)
class Measure:
    """One measure of the report.

    >>> MEASURES["mcc"].lower, MEASURES["mcc"].upper, MEASURES["mcc"].higher_is_better
    (-1.0, 1.0, True)
    """

    name: str
    title: str
    description: str
    kind: Kind
    formula: Callable[..., np.ndarray] | None
    lower: float = 0.0
    upper: float = 1.0
    higher_is_better: bool = True
    undefined_because: str | None = None


def _rate(name: str, title_: str, description: str, formula: Callable[..., np.ndarray], because: str,
          higher_is_better: bool = True) -> Measure:
    return Measure(name, title_, description, "per_class", formula, higher_is_better=higher_is_better,
                   undefined_because=because)


MEASURES: dict[str, Measure] = {
    measure.name: measure
    for measure in (
        _rate("precision", "precision", "precision TP / (TP + FP)",
              lambda tp, fp, fn, tn: m.precision(tp, fp), "never predicted"),
        _rate("recall", "recall", "recall (sensitivity, TPR) TP / (TP + FN)",
              lambda tp, fp, fn, tn: m.recall(tp, fn), "no true samples"),
        _rate("f1", "f1-score", "F1, the harmonic mean of precision and recall",
              lambda tp, fp, fn, tn: m.fbeta(tp, fp, fn, 1.0), "neither true nor predicted"),
        _rate("fallout", "fall-out", "fall-out (FPR) FP / (FP + TN)",
              lambda tp, fp, fn, tn: m.fallout(fp, tn), "no negative samples", higher_is_better=False),
        _rate("specificity", "specificity", "specificity (TNR) TN / (TN + FP)",
              lambda tp, fp, fn, tn: m.specificity(tn, fp), "no negative samples"),
        _rate("npv", "NPV", "negative predictive value TN / (TN + FN)",
              lambda tp, fp, fn, tn: m.npv(tn, fn), "never predicted negative"),
        Measure("support", "support", "number (or weight) of true samples of the class", "count", None,
                upper=float("inf")),
        Measure("roc_auc", "ROC AUC", "area under the ROC curve", "area", None,
                undefined_because="only one of the two sides (class / rest) present"),
        Measure("average_precision", "AP", "average precision (step area under the precision-recall curve)",
                "area", None, undefined_because="no true samples"),
        Measure("accuracy", "accuracy", "accuracy (share of samples predicted right)", "overall", m.accuracy),
        Measure("error_rate", "error rate", "error rate (1 - accuracy)", "overall", m.error_rate,
                higher_is_better=False),
        Measure("balanced_accuracy", "balanced accuracy", "balanced accuracy (mean recall over classes)",
                "overall", m.balanced_accuracy),
        Measure("mcc", "MCC", "Matthews correlation coefficient", "overall", m.matthews_corrcoef, lower=-1.0),
        Measure("kappa", "Cohen's kappa", "Cohen's kappa", "overall", m.cohen_kappa, lower=-1.0),
        Measure("hamming_loss", "Hamming loss", "Hamming loss (share of label decisions wrong)", "overall", None,
                higher_is_better=False),
    )
}


def title(name: str) -> str:
    """Display title of a report column key (an F-beta key ``f<beta>`` reads ``f<beta>-score``).

    >>> title("npv"), title("f2"), title("unknown")
    ('NPV', 'f2-score', 'unknown')
    """
    if name in MEASURES:
        return MEASURES[name].title
    return f"{name}-score" if name.startswith("f") else name


def undefined_because(name: str) -> str | None:
    """Why the measure ``name`` can be 0/0 for a class, else None (not registered, or never 0/0).

    >>> undefined_because("recall"), undefined_because("accuracy"), undefined_because("f2")
    ('no true samples', None, None)
    """
    measure = MEASURES.get(name)
    return None if measure is None else measure.undefined_because


def measures_of_kind(kind: Kind) -> list[Measure]:
    """The registered measures of one kind, in the registry's order.

    >>> [mm.name for mm in measures_of_kind("overall")][:3]
    ['accuracy', 'error_rate', 'balanced_accuracy']
    """
    return [measure for measure in MEASURES.values() if measure.kind == kind]
