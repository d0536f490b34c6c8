"""One number of an :class:`~clfeval.evaluation.Evaluation`, named as the group tables name it:
its value, its interval, and each case's influence on it (for the intervals of gaps between groups).

A metric is a key: an overall number (``"accuracy"``, ``"mcc"``, ``"kappa"``, ...), a per-class
rate or area (``"recall"``, ``"f1"``, ``"roc_auc"``, ``"selection_rate"``), optionally with a
scope after a dot: an average (``"f1.macro"``, ``"recall.weighted"``, ``"precision.micro"``) or a
class (``"recall.malignant"``). Without a scope a per-class number is the positive class's in a
binary task and the macro average otherwise. ``selection_rate`` (fairlearn's name) is the share
predicted positive, the registry's ``predicted_positive_rate``. In a multilabel evaluation the
classes are the labels (``"recall.<label>"``, ``"f1.macro"`` over labels), and the overall numbers
are the subset accuracy (``"accuracy"``: every label right), its error rate and the Hamming loss.

>>> import clfeval
>>> ev = clfeval.evaluate(["a", "b", "b", "a", "b"], ["a", "b", "a", "a", "b"], pos_label="b")
>>> m = group_metric(ev, "recall")
>>> m.key, m.value(ev), round(group_metric(ev, "f1.macro").value(ev), 4)
('recall', 0.6666666666666666, 0.8)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.formulas import measures as fm
from clfeval.formulas.measure_registry import MEASURES, Measure, resolve
from clfeval.stats._result import ConfidenceInterval
from clfeval.uncertainty.confusion_measures import nan_average
from clfeval.uncertainty.influence import (
    DELTA_CASES,
    MULTILABEL_ROW_MEANS,
    area_influences,
    cell_gradients,
    influence_interval,
    label_table_influences,
    multilabel_row_influences,
)
from clfeval.uncertainty.proportions import KISH, proportion_ci

__all__ = ["GroupMetric", "group_metric", "default_metrics", "SCOPES"]

#: the averages a per-class number can take
SCOPES = ("micro", "macro", "weighted")


def _group_measure(key: str) -> Measure | None:
    """The registry measure a group table can hold (a report column, an overall number or an area)."""
    measure = resolve(key) or (MEASURES["predicted_positive_rate"] if key == "selection_rate" else None)
    return measure if measure is not None and measure.kind in ("per_class", "overall", "area", "count") else None


def metric_key_parts(key: str) -> tuple[Measure, str | None]:
    """(the registry measure, the scope after the dot or None) that a metric key names; a
    ValueError listing the known names for any other key.

    >>> [(m.name, scope) for m, scope in map(metric_key_parts, ["f0.5", "selection_rate", "recall.b"])]
    [('f0.5', None), ('predicted_positive_rate', None), ('recall', 'b')]
    """
    measure = _group_measure(key)
    if measure is not None:
        return measure, None
    for i, ch in enumerate(key):
        if ch == ".":
            head = key[:i]
            measure = _group_measure(head)
            if measure is not None:
                return measure, key[i + 1:]
    known = sorted(n for n, mm in MEASURES.items() if mm.kind in ("per_class", "overall", "area"))
    raise ValueError(f"unknown metric {key!r}; use one of {known} or 'selection_rate', optionally with "
                     f"a scope after a dot: an average ({', '.join(SCOPES)}) or a class, e.g. 'recall.macro'.")


@dataclass(frozen=True)
class GroupMetric:
    """A number of an Evaluation: ``key`` as asked, the registry ``measure``, ``scope``
    ("overall", "class", or an average of :data:`SCOPES`) and ``class_index`` (scope "class")."""

    key: str
    measure: Measure
    scope: str
    class_index: int | None = None

    @property
    def higher_is_better(self) -> bool:
        return self.measure.higher_is_better is not False

    @property
    def bounds(self) -> tuple[float, float]:
        return self.measure.lower, self.measure.upper

    @property
    def title(self) -> str:
        return self.key

    def value(self, ev: Any) -> float:
        """The number in the Evaluation ``ev`` (NaN where it is undefined)."""
        name = self.measure.name
        if not self.measure.in_report:
            tp, fp, fn, tn = (a[self.class_index] for a in _per_class_counts(ev))
            return float(self.measure.formula(tp, fp, fn, tn))
        report = ev.report
        if self.scope == "overall":
            v = report.overall.get(name)
        elif self.scope == "class":
            v = report.rows[self.class_index].get(self.measure.name)
        else:
            v = report.averages.get(self.scope, {}).get(self.measure.name)
        return float("nan") if v is None else float(v)

    def interval(self, ev: Any, level: float, sampling: str = "cross-sectional", *, method: str = "analytic",
                 n_resamples: int = 2000, seed: Any = 0) -> ConfidenceInterval:
        """Its confidence interval in ``ev`` (:meth:`Evaluation.ci <clfeval.evaluation.Evaluation.ci>`
        with these arguments; Wilson for the selection rate, over Kish's effective number of cases
        with sample weights; the delta method on each case's influence for Youden's J)."""
        if self.measure.name == "youden_j":  # recall + specificity - 1: not a proportion
            if ev.cases is None:
                raise ValueError("Youden's J's interval is from each case's influence, which a stream does not "
                                 "keep: evaluate the rows in memory (clfeval.evaluate).")
            return influence_interval(self.value(ev), self.influences(ev), level, DELTA_CASES, self.bounds)
        if not self.measure.in_report:
            tp, fp, fn, tn = (float(a[self.class_index]) for a in _per_class_counts(ev))
            x, n = tp + fp, tp + fp + fn + tn
            method_suffix = ""
            if ev.sample_weight is not None:
                w = np.asarray(ev.sample_weight, dtype=np.float64)
                eff = n * n / float(np.dot(w, w)) if n > 0 else 0.0
                x, n, method_suffix = x / n * eff if n > 0 else 0.0, eff, KISH
            ci = proportion_ci(x, n, level=level)
            return ConfidenceInterval(ci.low, ci.high, ci.level, ci.method + method_suffix, self.value(ev), None)
        kw = dict(level=level, sampling=sampling, method=method, n_resamples=n_resamples, seed=seed)
        if self.scope == "overall":
            return ev.ci(self.measure.name, **kw)
        if self.scope == "class":
            return ev.ci(self.measure.name, label=ev.labels[self.class_index], **kw)
        return ev.ci(self.measure.name, average=self.scope, **kw)

    def influences(self, ev: Any) -> np.ndarray:
        """Each case's influence on the number (the weighted derivative, as in
        :mod:`clfeval.uncertainty.influence`), in the order of ``ev.cases``: (n,).

        Multilabel: a rate or its average over labels is a function of the label tables, and a case's
        influence sums its gradient over the case's cell in every label's table
        (:func:`~clfeval.uncertainty.influence.label_table_influences`); the subset accuracy, its error
        rate and the Hamming loss are means over cases
        (:func:`~clfeval.uncertainty.influence.multilabel_row_influences`); a number the multilabel
        report lacks (MCC, kappa, balanced accuracy) is a ValueError that lists those available.

        >>> import clfeval
        >>> ev = clfeval.evaluate([[1, 0], [0, 1], [1, 1]], [[1, 0], [0, 0], [1, 1]])
        >>> group_metric(ev, "recall.micro").influences(ev).round(4).tolist()
        [0.0625, -0.1875, 0.125]
        """
        cases = ev.cases
        if cases is None:
            raise ValueError("intervals of gaps between groups need each case (the rows): evaluate the rows "
                             "in memory (clfeval.evaluate); a stream keeps counts only.")
        if self.measure.kind == "area":
            rankings = list(ev.rankings.values())
            data = area_influences(cases, rankings, ev.micro, self.measure.name)
            if self.scope == "class":
                return data["per_class"][1][self.class_index]
            key = "macro" if self.scope == "overall" else self.scope
            if key not in data:
                return np.full(cases.n, np.nan)
            return data[key][1]
        if ev.task == "multilabel":
            return self._label_influences(ev)
        cm = np.asarray(ev.confusion.counts, dtype=np.float64)
        k = cm.shape[0]
        g = np.zeros(k * k)
        for idx, grads in cell_gradients(self._of_tables(ev), cm):
            g[idx] = grads[None][0]
        pred = cases.pred
        if pred is None:  # binary predictions from the scores
            i = cases.pos_index
            pred = np.where(cases.column(i) >= ev.threshold, i, 1 - i)
        return cases.weighted(g[cases.true * k + pred])

    def _label_influences(self, ev: Any) -> np.ndarray:
        """:meth:`influences` of a multilabel evaluation: a number of the label tables through their
        cells (each case sits in one cell of every label's table), an overall number as a mean over
        cases."""
        name = self.measure.name
        if self.scope != "overall":
            return label_table_influences(self._of_tables(ev), ev.confusion.sklearn_layout(), ev.cases)
        if name not in MULTILABEL_ROW_MEANS:
            rates = ", ".join(n for n, mm in MEASURES.items() if mm.kind == "per_class" and mm.in_report)
            raise ValueError(
                f"{self.key!r} is not defined for a multilabel evaluation (its report has no {name}; every group's "
                f"value is NaN), so it has no gaps. A multilabel evaluation has gaps of "
                f"{', '.join(MULTILABEL_ROW_MEANS)} (accuracy: every label right); of {rates} per label (e.g. "
                f"'recall.<label>') or averaged over labels (micro, macro, weighted, e.g. 'f1.macro'); of "
                f"'selection_rate.<label>' and 'youden_j.<label>'; and, with scores, of roc_auc and average_precision.")
        return multilabel_row_influences(ev.per_sample, len(ev.names), ev.cases.weight, name)[1]

    def _of_tables(self, ev: Any) -> Any:
        """The number as a batched function of (..., k, k) tables, as the report computes it
        (classes where a rate is undefined are left out of its averages); of (..., L, 2, 2) label
        tables for a multilabel evaluation."""
        if self.measure.kind == "overall":
            return self.measure.formula
        formula, scope, c = self.measure.formula, self.scope, self.class_index
        counts = _label_counts if ev.task == "multilabel" else fm.one_vs_rest

        def of_tables(t: np.ndarray) -> np.ndarray:
            tp, fp, fn, tn = counts(t)
            if scope == "class":
                return formula(tp[..., c], fp[..., c], fn[..., c], tn[..., c])
            if scope == "micro":
                return formula(*(a.sum(axis=-1) for a in (tp, fp, fn, tn)))
            return nan_average(formula(tp, fp, fn, tn), None if scope == "macro" else tp + fn)

        return of_tables


def _label_counts(t: np.ndarray) -> tuple[np.ndarray, ...]:
    """(tp, fp, fn, tn), each (..., L), of multilabel tables (..., L, 2, 2) laid out [[tn, fp], [fn, tp]]:
    the one-vs-rest counts of each table's second class (the label present).

    >>> [a.tolist() for a in _label_counts(np.array([[[5, 1], [2, 3]]]))]
    [[3], [1], [2], [5]]
    """
    return tuple(a[..., 1] for a in fm.one_vs_rest(t))


def _per_class_counts(ev: Any) -> tuple[np.ndarray, ...]:
    """(tp, fp, fn, tn) of each class (each label of a multilabel evaluation) of ``ev``, as floats."""
    if ev.task == "multilabel":
        return _label_counts(np.asarray(ev.confusion.sklearn_layout(), dtype=np.float64))
    return fm.one_vs_rest(np.asarray(ev.confusion.counts, dtype=np.float64))


def group_metric(ev: Any, key: str) -> GroupMetric:
    """The :class:`GroupMetric` that ``key`` names in the Evaluation ``ev`` (see the module)."""
    if not isinstance(key, str):
        raise TypeError(f"a metric is named by a string such as 'recall' or 'f1.macro', got {key!r}.")
    measure, scope = metric_key_parts(key)
    if measure.kind == "count":
        raise ValueError(f"{key!r} is a count, not a metric; the tables show it as 'n' and 'support'.")
    names = [str(n) for n in ev.names]
    if measure.kind == "overall":
        if scope is not None:
            raise ValueError(f"{measure.name!r} is a number of the whole table; it has no scope ({key!r}).")
        if measure.formula is None and measure.name not in ev.report.overall:
            raise ValueError(f"{measure.name!r} is not in this evaluation's report.")
        return GroupMetric(key, measure, "overall")
    if measure.kind == "area" and ev.rankings is None:
        raise ValueError(f"{key!r} needs scores: pass y_score to evaluate().")
    if scope is None:
        if ev.task == "binary":
            return GroupMetric(key, measure, "class", ev.positive_index)
        if measure.name == "predicted_positive_rate":
            raise ValueError("selection_rate is the share predicted positive, which needs a binary task "
                             "(or a class: 'selection_rate.<class>').")
        return GroupMetric(key, measure, "macro" if measure.in_report else "class",
                           None if measure.in_report else 0)
    if scope in SCOPES:
        if not measure.in_report:
            raise ValueError(f"{key!r}: {measure.name!r} is read per class only ('{measure.name}.<class>').")
        if scope == "micro" and measure.kind == "area" and ev.micro is None:
            raise ValueError(f"{key!r}: a binary task has no micro-averaged area.")
        return GroupMetric(key, measure, scope)
    if scope in names:
        return GroupMetric(key, measure, "class", names.index(scope))
    raise ValueError(f"{key!r}: {scope!r} is neither an average ({', '.join(SCOPES)}) nor a class ({names}).")


def default_metrics(ev: Any) -> list[str]:
    """The metrics a group table shows by default: the report's numbers (the positive class's in a
    binary task, macro averages otherwise), the selection rate of a binary task, and the areas with
    scores."""
    rates = ["precision", "recall", "f1"] + ([] if ev.beta is None or ev.beta == 1 else [f"f{ev.beta:g}"])
    if ev.task == "binary":
        keys = ["accuracy", "balanced_accuracy", *rates, "fallout", "specificity", "npv", "mcc", "kappa",
                "selection_rate"]
    elif ev.task == "multilabel":
        keys = ["accuracy", "hamming_loss"] + [f"{r}.{avg}" for avg in ("micro", "macro") for r in rates]
    else:
        keys = ["accuracy", "balanced_accuracy"] + [f"{r}.macro" for r in rates] + ["mcc", "kappa"]
    if ev.rankings is not None:
        keys += ["roc_auc", "average_precision"]
    return keys


#: the metric a group view leads with (sorts by, plots, shows gaps of), first of these present: ROC
#: AUC with scores (threshold-free, and unmoved by the groups' different class mixes), else balanced
#: accuracy, else (multilabel) macro F1
LEAD_METRICS = ("roc_auc", "balanced_accuracy", "f1.macro")


def lead_metric(metrics: Any) -> str:
    """The first of :data:`LEAD_METRICS` among ``metrics`` (else the first of them).

    >>> lead_metric(["accuracy", "balanced_accuracy", "roc_auc"]), lead_metric(["accuracy", "recall"])
    ('roc_auc', 'accuracy')
    """
    metrics = list(metrics)
    if not metrics:
        raise ValueError("no metrics to choose from: the group table is empty.")
    return next((m for m in LEAD_METRICS if m in metrics), metrics[0])
