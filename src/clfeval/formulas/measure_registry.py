"""The one list of the report's measures: for each, its key (as in the report and the JSON), its
title on screen, its long description, its range, whether higher is better, why it can be 0/0,
its formula (a batched function of count arrays from :mod:`clfeval.formulas.measures` or of scores), and
the symmetries it has (which the registry-driven common test, ``tests/test_measure_registry.py``,
checks for every measure).

Views, notes, intervals, the threshold sweep, operating points and option parsers read names,
titles, labels and texts from here rather than declaring them again.

>>> MEASURES["npv"].title, MEASURES["npv"].undefined_because
('NPV', 'never predicted negative')
>>> title("f0.5"), title("kappa")
('f0.5-score', "Cohen's kappa")
>>> sorted(name for name, m in MEASURES.items() if m.kind == "area")
['average_precision', 'roc_auc']
>>> float(MEASURES["precision"].formula(np.array(3.0), np.array(1.0), np.array(2.0), np.array(4.0)))
0.75
>>> resolve("fpr").name, resolve("matthews_corrcoef").name, resolve("f2").label
('fallout', 'mcc', 'F2')
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from clfeval.formulas import measures as m

__all__ = ["Measure", "MEASURES", "title", "label", "undefined_because", "measures_of_kind", "resolve",
           "fbeta_measure"]

#: per_class: a rate of one class against the rest, formula(tp, fp, fn, tn);
#: overall: a number of the whole (k, k) table, formula(table);
#: area: an area under a curve of scores (formula in :mod:`clfeval.formulas.curves`, of a ranking);
#: count: a count of samples; ranking: a number of the scores' rankings beyond the report's areas,
#: asked for by name (partial AUC over a range, the PRG area, one-vs-one AUC); calibration: a number of
#: how well probabilities are calibrated (smooth ECE, the CORP decomposition)
Kind = Literal["per_class", "overall", "area", "count", "ranking", "calibration"]


@dataclass(frozen=True)
class Measure:
    """One measure of the report (or of the threshold sweep).

    ``label``: the measure in a plot's legend or axis (default: the title, first letter capital);
    ``short``: its column title in a narrow table (default: the title); ``aliases``: other keys
    that name it (the threshold sweep's "fpr", scikit-learn's scorer and function names such as
    "matthews_corrcoef", "accuracy_score");
    ``in_report``: a column or overall number of the classification report (else only of the
    threshold sweep and operating points); ``higher_is_better`` None: neither (a share of
    predictions). Symmetries, for the common test: ``swap_classes`` names the measure this one
    becomes when the two classes of a one-vs-rest table change roles (tp <-> tn, fp <-> fn; for an
    overall measure: when the classes are relabelled, rows and columns permuted together), and
    ``swap_truth`` the one it becomes when truth and prediction change roles (the table
    transposed; fp <-> fn); None where it becomes no registered measure. ``scale_invariant``:
    unchanged when every count is multiplied by the same c > 0 (every ratio of counts).

    >>> MEASURES["mcc"].lower, MEASURES["mcc"].upper, MEASURES["mcc"].higher_is_better
    (-1.0, 1.0, True)
    >>> MEASURES["precision"].swap_truth, MEASURES["precision"].swap_classes, MEASURES["f1"].label
    ('recall', 'npv', 'F1')
    """

    name: str
    title: str
    description: str
    kind: Kind
    formula: Callable[..., np.ndarray] | None
    lower: float = 0.0
    upper: float = 1.0
    higher_is_better: bool | None = True
    undefined_because: str | None = None
    label: str = ""
    short: str = ""
    aliases: tuple[str, ...] = ()
    in_report: bool = True
    swap_classes: str | None = None
    swap_truth: str | None = None
    scale_invariant: bool = True

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.title[:1].upper() + self.title[1:])
        if not self.short:
            object.__setattr__(self, "short", self.title)


def _rate(name: str, title_: str, description: str, formula: Callable[..., np.ndarray], because: str | None,
          **more: Any) -> Measure:
    return Measure(name, title_, description, "per_class", formula, undefined_because=because, **more)


_F_BECAUSE = "neither true nor predicted"


def fbeta_measure(beta: float | None) -> Measure:
    """The F-beta measure of the report column ``f<beta>`` (beta None: the sweep's "fbeta" column,
    whose beta the sweep holds). Its formula uses ``beta`` exactly as given (the key only rounds
    it for the name): the sweep's "fbeta" column and the report's F column of any beta read it.

    >>> fb = fbeta_measure(1 / 3)
    >>> fb.name, float(fb.formula(np.array(3.0), np.array(1.0), np.array(2.0), np.array(4.0)))
    ('f0.333333', 0.7317073170731708)
    """
    b = 1.0 if beta is None else beta
    name = "fbeta" if beta is None else f"f{beta:g}"
    which = "the sweep's beta" if beta is None else f"beta = {beta:g}"
    return _rate(name, f"{name}-score", f"F-beta ({which}), the weighted harmonic mean of precision and recall",
                 lambda tp, fp, fn, tn: m.fbeta(tp, fp, fn, b), _F_BECAUSE,
                 label="F-beta" if beta is None else f"F{beta:g}",
                 swap_truth=name if b == 1.0 else None)


MEASURES: dict[str, Measure] = {
    measure.name: measure
    for measure in (
        _rate("precision", "precision", "precision TP / (TP + FP)",
              lambda tp, fp, fn, tn: m.precision(tp, fp), "never predicted", short="prec.",
              swap_classes="npv", swap_truth="recall"),
        _rate("recall", "recall", "recall (sensitivity, TPR) TP / (TP + FN)",
              lambda tp, fp, fn, tn: m.recall(tp, fn), "no true samples",
              swap_classes="specificity", swap_truth="precision"),
        _rate("f1", "f1-score", "F1, the harmonic mean of precision and recall",
              lambda tp, fp, fn, tn: m.fbeta(tp, fp, fn, 1.0), _F_BECAUSE, label="F1", short="F1",
              swap_truth="f1"),
        _rate("fallout", "fall-out", "fall-out (FPR) FP / (FP + TN)",
              lambda tp, fp, fn, tn: m.fallout(fp, tn), "no negative samples", higher_is_better=False,
              short="FPR", aliases=("fpr",), label="False positive rate"),
        _rate("specificity", "specificity", "specificity (TNR) TN / (TN + FP)",
              lambda tp, fp, fn, tn: m.specificity(tn, fp), "no negative samples", short="spec.",
              swap_classes="recall", swap_truth="npv"),
        _rate("npv", "NPV", "negative predictive value TN / (TN + FN)",
              lambda tp, fp, fn, tn: m.npv(tn, fn), "never predicted negative",
              swap_classes="precision", swap_truth="specificity"),
        Measure("support", "support", "number (or weight) of true samples of the class", "count", None,
                upper=float("inf"), short="n", scale_invariant=False),
        Measure("roc_auc", "ROC AUC", "area under the ROC curve", "area", None, short="AUC",
                undefined_because="only one of the two sides (class / rest) present"),
        Measure("average_precision", "AP", "average precision (step area under the precision-recall curve)",
                "area", None, undefined_because="no true samples"),
        Measure("accuracy", "accuracy", "accuracy (share of samples predicted right)", "overall", m.accuracy,
                aliases=("accuracy_score",), swap_classes="accuracy", swap_truth="accuracy"),
        Measure("error_rate", "error rate", "error rate (1 - accuracy)", "overall", m.error_rate,
                higher_is_better=False, aliases=("zero_one_loss",), swap_classes="error_rate",
                swap_truth="error_rate"),
        Measure("balanced_accuracy", "balanced accuracy", "balanced accuracy (mean recall over classes)",
                "overall", m.balanced_accuracy, aliases=("balanced_accuracy_score",),
                swap_classes="balanced_accuracy"),
        Measure("mcc", "MCC", "Matthews correlation coefficient", "overall", m.matthews_corrcoef, lower=-1.0,
                aliases=("matthews_corrcoef",), swap_classes="mcc", swap_truth="mcc"),
        Measure("kappa", "Cohen's kappa", "Cohen's kappa", "overall", m.cohen_kappa, lower=-1.0,
                undefined_because="a single class, the same, in both truth and predictions",
                aliases=("cohen_kappa", "cohen_kappa_score"), swap_classes="kappa", swap_truth="kappa"),
        Measure("hamming_loss", "Hamming loss", "Hamming loss (share of label decisions wrong)", "overall", None,
                higher_is_better=False),
        # numbers of the scores beyond the report's columns, each in its own section of the report
        Measure("partial_auc", "partial AUC", "area under the ROC curve over a range of FPR or TPR, "
                "McClish-standardised (0.5 chance, 1 perfect) unless asked raw", "ranking", None, short="pAUC",
                undefined_because="only one of the two sides present, or (standardised) below the chance line",
                in_report=False),
        Measure("prg_auc", "PRG AUC", "area under the precision-recall-gain curve (Flach & Kull 2015)",
                "ranking", None, short="AUPRG", undefined_because="only one of the two sides present",
                in_report=False, lower=-float("inf")),
        Measure("ovo_auc", "Hand-Till AUC", "mean one-vs-one ROC AUC over all pairs of classes, Hand & "
                "Till's M (scikit-learn's multi_class='ovo', average='macro')", "ranking", None, short="M",
                undefined_because="fewer than two classes present", in_report=False),
        Measure("ovo_auc_weighted", "weighted OvO AUC", "one-vs-one ROC AUC over pairs of classes, "
                "each pair weighted by its share of the samples (scikit-learn's multi_class='ovo', "
                "average='weighted')", "ranking", None, short="M (wtd)",
                undefined_because="fewer than two classes present", in_report=False),
        Measure("smooth_ece", "smooth ECE", "smooth expected calibration error (Blasiok & Nakkiran 2023): "
                "the kernel-smoothed reliability curve's mean distance from the diagonal", "calibration", None,
                higher_is_better=False, short="smECE", in_report=False),
        Measure("corp_miscalibration", "miscalibration (MCB)", "CORP miscalibration: the score of the "
                "probabilities minus that of their isotonic recalibration (Dimitriadis, Gneiting & Jordan "
                "2021)", "calibration", None, higher_is_better=False, short="MCB", upper=float("inf"),
                in_report=False),
        Measure("corp_discrimination", "discrimination (DSC)", "CORP discrimination: the score of the "
                "climatology (base rate) minus that of the isotonic recalibration", "calibration", None,
                short="DSC", upper=float("inf"), in_report=False),
        Measure("corp_uncertainty", "uncertainty (UNC)", "CORP uncertainty: the score of the climatology "
                "(base rate), a property of the data alone", "calibration", None, higher_is_better=None,
                short="UNC", upper=float("inf"), in_report=False),
        # of the threshold sweep and operating points only
        _rate("predicted_positive_rate", "predicted positive rate", "share predicted positive (TP + FP) / n",
              lambda tp, fp, fn, tn: m.ratio(tp + fp, tp + fp + fn + tn), None, higher_is_better=None,
              in_report=False),
        _rate("youden_j", "Youden's J", "Youden's J statistic, recall + specificity - 1 (= recall - fall-out)",
              lambda tp, fp, fn, tn: m.recall(tp, fn) - m.fallout(fp, tn), "no true or no negative samples",
              lower=-1.0, in_report=False, swap_classes="youden_j"),
    )
}
_BY_ALIAS = {alias: measure for measure in MEASURES.values() for alias in measure.aliases}


@functools.lru_cache(maxsize=64)
def _fbeta_of_key(name: str) -> Measure | None:
    """The F-beta measure of a report key ``f<beta>`` ("f2", "f0.5") or the sweep's "fbeta"; else None."""
    if name == "fbeta":
        return fbeta_measure(None)
    if not name.startswith("f"):
        return None
    try:
        beta = float(name[1:])
    except ValueError:
        return None
    if not beta >= 0 or f"f{beta:g}" != name:  # NaN, negative, or not the report's spelling
        return None
    return fbeta_measure(beta)


def resolve(name: str) -> Measure | None:
    """The registered measure that ``name`` denotes: its key, an alias, or an F-beta key
    ``f<beta>`` (e.g. "f2", "f0.5", and the sweep's "fbeta"); None for any other name.

    >>> resolve("f1") is MEASURES["f1"], resolve("f0.5").title, resolve("precision_macro")
    (True, 'f0.5-score', None)
    """
    return MEASURES.get(name) or _BY_ALIAS.get(name) or _fbeta_of_key(name)


def title(name: str) -> str:
    """Display title of a report column key (an F-beta key ``f<beta>`` reads ``f<beta>-score``);
    a name that is no measure stays as it is.

    >>> title("npv"), title("f2"), title("unknown"), title("fold")
    ('NPV', 'f2-score', 'unknown', 'fold')
    """
    measure = resolve(name)
    return name if measure is None else measure.title


def label(name: str, beta: float | None = None) -> str:
    """The measure in a plot's legend or axis (``beta``: of the sweep's "fbeta" column); an
    unregistered name stays as it is.

    >>> label("accuracy"), label("fpr"), label("fbeta", 2.0), label("fbeta"), label("tp")
    ('Accuracy', 'False positive rate', 'F2', 'F-beta', 'tp')
    """
    if name == "fbeta" and beta is not None:
        name = f"f{beta:g}"
    measure = resolve(name)
    return name if measure is None else measure.label


def undefined_because(name: str) -> str | None:
    """Why the measure ``name`` can be 0/0 for a class, else None (not registered, or never 0/0).

    >>> undefined_because("recall"), undefined_because("accuracy"), undefined_because("f2")
    ('no true samples', None, 'neither true nor predicted')
    """
    measure = resolve(name)
    return None if measure is None else measure.undefined_because


def measures_of_kind(kind: Kind) -> list[Measure]:
    """The registered measures of one kind, in the registry's order.

    >>> [mm.name for mm in measures_of_kind("overall")][:3]
    ['accuracy', 'error_rate', 'balanced_accuracy']
    """
    return [measure for measure in MEASURES.values() if measure.kind == kind]
