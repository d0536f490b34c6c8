"""``evaluate()`` and the :class:`Evaluation` it returns: the object most users hold.

One pass over the data builds the sufficient statistics (the confusion matrix, and with scores one
ranking per class); the report, the curves, the areas and every output read them.

>>> ev = evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
>>> ev.task, ev.threshold, ev.confusion.counts.tolist()
('binary', 0.5, [[2, 0], [1, 1]])
>>> round(ev.report.overall["roc_auc"], 4), round(ev.roc.main.area, 4)
(0.75, 0.75)
"""

from __future__ import annotations

import copy
import json
import warnings
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from .confusion import ConfusionMatrix
from . import sparse_counts
from .counts import ConfusionCounts, MultilabelCounts
from .exact_sums import scaled_floats, weight_total
from .exceptions import UndefinedMetricWarning, ValuesError
from .influence import Cases
from .interval_results import Intervals
from .labels import (
    as_array,
    as_score_array,
    check_finite_labels,
    check_sample_weight,
    encode,
    union_labels,
    unique_sorted,
)
from .report.table import Report, build_report
from .roc_pr import (
    BinaryRanking,
    BreakEvenPoint,
    Curve,
    CurveSet,
    OperatingPoint,
    macro_curve,
    pr_curve_of,
    roc_curve_of,
)
from .scores import ScoreTable
from .score_kind import default_threshold, score_kind as kind_of_scores

__all__ = ["evaluate", "Evaluation", "json_safe"]

_BINARY = np.array([False, True])
# Label pairs whose positive class is conventional (1 / True), as in scikit-learn.
_NATURAL_POSITIVE = ({0, 1}, {-1, 1})


def json_safe(obj: Any) -> Any:
    """Plain-Python data made valid for strict JSON: NaN -> None, +-inf -> "inf" / "-inf".

    >>> json_safe({"a": [1.0, float("nan"), float("inf")], "b": np.int64(3)})
    {'a': [1.0, None, 'inf'], 'b': 3}
    """
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return json_safe(obj.tolist())
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        v = float(obj)
        if v != v:
            return None
        if v in (float("inf"), float("-inf")):
            return "inf" if v > 0 else "-inf"
        return v
    if obj is None or isinstance(obj, str):
        return obj
    return str(obj)


class Evaluation:
    """Everything classic evaluation says about one classifier on one data set.

    Build it with :func:`evaluate`. Attributes: ``task``, ``labels``, ``names``, ``pos_label``,
    ``name``, ``threshold``, ``score_kind``, ``n_samples``, ``total_weight``, ``confusion``,
    ``report``, ``roc``, ``pr``, ``break_even``, ``rankings`` (the score statistics per class).

    >>> ev = evaluate(["a", "b", "c", "a"], ["a", "b", "b", "a"])
    >>> ev.report.overall["accuracy"]
    0.75
    """

    def __init__(
        self,
        *,
        task: str,
        labels: np.ndarray,
        names: list[str],
        pos_label: Any,
        name: str | None,
        threshold: float | None,
        score_kind: str | None,
        n_samples: int,
        total_weight: float,
        confusion: ConfusionMatrix,
        rankings: dict[str, BinaryRanking] | None,
        micro: BinaryRanking | None,
        beta: float | None,
        per_sample: np.ndarray | None,
        sample_weight: np.ndarray | None,
        notes: list[str],
        cases: Any = None,
    ) -> None:
        self.task = task
        self.labels = labels
        self.names = names
        self.pos_label = pos_label
        self.name = name
        self.threshold = threshold
        self.score_kind = score_kind
        self.n_samples = n_samples
        self.total_weight = total_weight
        self.confusion = confusion
        self.rankings = rankings
        self._micro = micro
        self._beta = beta
        self._per_sample = per_sample
        self._sample_weight = sample_weight
        self._notes = notes
        # the coerced inputs (references, not copies) for intervals that need each case
        self._cases = cases
        # set by whoever built these rows when they are not independent cases (pooled repeated CV)
        self._dependent_rows: str | None = None
        # set by clfeval.streaming: "weighted"/"unweighted" when built from statistics (no cases)
        self._streamed: str | None = None
        #: binned scores (a stream's): {curve name: clfeval.binning.BinnedBounds}, else None
        self.binning: dict[str, Any] | None = None

    @property
    def has_scores(self) -> bool:
        return self.rankings is not None

    def __repr__(self) -> str:
        o = self.report.overall
        bits = [f"task={self.task!r}", f"n_samples={self.n_samples}", f"classes={self.names}"]
        if self.name:
            bits.insert(0, f"name={self.name!r}")
        bits.append(f"accuracy={o['accuracy']:.4f}")
        if "roc_auc" in o:
            bits.append(f"roc_auc={o['roc_auc']:.4f}")
        return f"Evaluation({', '.join(bits)})"

    # -- derived views ---------------------------------------------------------------------------

    def _main_name(self) -> str:
        if self.task == "binary":
            return self.names[self.positive_index]
        return "micro"

    @property
    def positive_index(self) -> int:
        """The positive class's index in :attr:`labels` (1 when the evaluation names none).

        >>> evaluate(["n", "p", "p"], ["n", "p", "n"], pos_label="p").positive_index
        1
        """
        return int(np.flatnonzero(self.labels == self.pos_label)[0]) if self.pos_label is not None else 1

    def _areas(self) -> tuple[np.ndarray, np.ndarray]:
        assert self.rankings is not None
        auc = np.array([r.roc_auc for r in self.rankings.values()])
        ap = np.array([r.average_precision for r in self.rankings.values()])
        return auc, ap

    @cached_property
    def report(self) -> Report:
        """The classification report (per class, averages, overall numbers, notes)."""
        kwargs: dict[str, Any] = {}
        if self.has_scores:
            from .measures import average

            auc, ap = self._areas()
            support = self.confusion.per_class()
            support = (support["tp"] + support["fn"]).astype(np.float64)
            areas: dict[str, dict[str, float | None]] = {
                "macro": {"roc_auc": average(auc), "average_precision": average(ap)},
                "weighted": {
                    "roc_auc": average(auc, support),
                    "average_precision": average(ap, support),
                },
            }
            if self._micro is not None:
                areas["micro"] = {
                    "roc_auc": self._micro.roc_auc,
                    "average_precision": self._micro.average_precision,
                }
            if self.task == "binary":
                i = self.positive_index
                headline = {"roc_auc": float(auc[i]), "average_precision": float(ap[i])}
            else:
                headline = {"roc_auc": areas["macro"]["roc_auc"], "average_precision": areas["macro"]["average_precision"]}
            kwargs = dict(roc_auc=auc, average_precision=ap, area_averages=areas, headline=headline)
        report = build_report(
            self.confusion,
            beta=self._beta,
            per_sample=self._per_sample,
            sample_weight=self._sample_weight,
            notes=self._notes,
            **kwargs,
        )
        undefined = report.notes[len(self._notes):]
        if undefined:
            warnings.warn(
                " ".join(undefined), UndefinedMetricWarning, stacklevel=3
            )
        return report

    def _operating_points(self, kind: str) -> dict[str, OperatingPoint]:
        pc = {k: v.astype(np.float64) for k, v in self.confusion.per_class().items()}
        thr = self.threshold if self.task != "multiclass" else None
        from .measures import fallout, precision, recall

        def point(tp, fp, fn, tn) -> OperatingPoint:
            if kind == "roc":
                return OperatingPoint(float(fallout(fp, tn)), float(recall(tp, fn)), thr)
            return OperatingPoint(float(recall(tp, fn)), float(precision(tp, fp)), thr)

        out = {
            n: point(pc["tp"][i], pc["fp"][i], pc["fn"][i], pc["tn"][i])
            for i, n in enumerate(self.names)
        }
        out["micro"] = point(*(pc[k].sum() for k in ("tp", "fp", "fn", "tn")))
        return out

    def _curves(self, kind: str, max_points: int | None = None) -> CurveSet | None:
        """The curves, with every point (max_points None) or at most ``max_points`` per curve,
        taken exactly from the full curves at evenly spread cut points (areas stay exact)."""
        if self.rankings is None:
            return None
        base = roc_curve_of if kind == "roc" else pr_curve_of

        def build(r: BinaryRanking, *args: Any) -> Curve:
            if max_points is not None and r.scores.size > max_points - 1:
                r = r.coarsened(r.cut_points(max_points - 1))
            return base(r, *args)

        ops = self._operating_points(kind)
        if self.task == "binary":
            n = self._main_name()
            label = self.labels[self.positive_index]
            return CurveSet({n: build(self.rankings[n], n, ops[n], label)}, n)
        curves = {
            n: build(r, n, ops[n], lab)
            for (n, r), lab in zip(self.rankings.items(), self.labels.tolist())
        }
        assert self._micro is not None
        per_class = list(curves.values())
        curves["micro"] = build(self._micro, "micro", ops["micro"])
        curves["macro"] = macro_curve(per_class, "macro")
        return CurveSet(curves, "micro")

    def compact_curves(self, kind: str, max_points: int = 2000) -> CurveSet | None:
        """ROC (``kind="roc"``) or PR (``"pr"``) curves with at most ``max_points`` points each.

        The points are exact points of the full curves (evenly spread over the thresholds and
        both axes, ends kept), areas and operating points are exact; building them costs far
        less than the full curves of a large data set. For plots, reports and JSON.

        >>> ev = evaluate([0, 1] * 5000, y_score=np.linspace(0, 1, 10000))
        >>> c = ev.compact_curves("roc", 100).main
        >>> len(c.x) <= 100, c.area == ev.roc.main.area
        (True, True)
        """
        if kind not in ("roc", "pr"):
            raise ValueError(f"kind must be 'roc' or 'pr', got {kind!r}.")
        if max_points < 8:
            raise ValueError(f"max_points must be at least 8, got {max_points!r}.")
        return self._curves(kind, max_points)

    @cached_property
    def roc(self) -> CurveSet | None:
        """ROC curves (None without scores): binary: the positive class; else per class + averages."""
        return self._curves("roc")

    @cached_property
    def pr(self) -> CurveSet | None:
        """Precision-recall curves, laid out like :attr:`roc`."""
        return self._curves("pr")

    @cached_property
    def break_even(self) -> BreakEvenPoint | None:
        """Break-even point (precision = recall) of the main PR curve."""
        return None if self.rankings is None else self._main_ranking().break_even()

    def ranking(self, curve: str) -> BinaryRanking | None:
        """The score statistics behind the curve named ``curve`` (a class name or "micro");
        None for "macro" (an average of curves) or without scores.

        >>> ev = evaluate([0, 1, 1], y_score=[0.2, 0.9, 0.6])
        >>> ev.ranking("1").scores.tolist(), ev.ranking("1").tps.tolist()
        ([0.9, 0.6, 0.2], [1, 2, 2])
        """
        if self.rankings is None or curve == "macro":
            return None
        if curve == "micro" and self.task != "binary":
            return self._micro
        if curve not in self.rankings:
            raise KeyError(f"no curve named {curve!r}; the curves are {[*self.rankings, 'micro', 'macro']}.")
        return self.rankings[curve]

    def _main_ranking(self) -> BinaryRanking:
        assert self.rankings is not None
        if self.task == "binary":
            return self.rankings[self._main_name()]
        assert self._micro is not None
        return self._micro

    # -- thresholds: operating points, predictions at a threshold, the sweep ----------------------

    def _class_curve(self, curve: str | None, what: str) -> tuple[str, int]:
        """(name, index) of the class whose scores ``what`` thresholds: binary, the positive
        class (``curve`` None or its name); otherwise ``curve``, a class / label name."""
        if self.rankings is None:
            raise ValueError(f"this evaluation has no scores, so it has no {what}: pass y_score to evaluate().")
        if self.task == "binary":
            pos = self._main_name()
            if curve is not None and curve != pos:
                raise ValueError(
                    f"curve={curve!r}: a binary {what} thresholds the scores of the positive class {pos!r} "
                    f"(leave curve out); to rank the other class, evaluate with pos_label= set to it."
                )
            return pos, self.positive_index
        kind = "label" if self.task == "multilabel" else "class"
        if curve is None or curve not in self.names:
            got = "" if curve is None else f"there is no {kind} named {curve!r}; "
            raise ValueError(f"{got}curve= must name the {kind} (one-vs-rest) of this {self.task} evaluation "
                             f"for its {what}: one of {self.names}.")
        return curve, self.names.index(curve)

    def _rest_labels(self, name: str, c: int) -> tuple[np.ndarray, list[str]]:
        """Labels and names [rest, class] of the one-vs-rest view of class ``c``."""
        label = self.labels[c]
        rest = "rest" if "rest" not in (name, str(label)) else f"not {name}"
        labels = np.array([rest, label]) if isinstance(label, str) else np.array([rest, label], dtype=object)
        return labels, [rest, name]

    def operating_point(
        self,
        criterion: str,
        *,
        curve: str | None = None,
        beta: float = 1.0,
        costs: Any = None,
        prevalence: Any = None,
        at: float | None = None,
    ) -> "ThresholdPoint":
        """The threshold ``criterion`` picks on one class's scores, with what it gives there.

        Criteria: "break-even", "youden", "closest-topleft", "max-fbeta" (``beta``), "max-f1",
        "min-cost" (``costs`` (2, 2) in label order, rows true, columns predicted;
        ``prevalence`` the positive share or one share per label), and "recall",
        "sensitivity", "precision", "specificity" with ``at=`` (see
        :mod:`clfeval.operating_points` for the tie rule). Binary: the positive class (the
        costs in the evaluation's label order); multi-class and multilabel: ``curve=`` names
        the class, one-vs-rest (labels [rest, class]). Apply it with ``ev.at(p.threshold)``.

        >>> ev = evaluate([0, 0, 1, 1, 0, 1], y_score=[0.1, 0.4, 0.35, 0.8, 0.5, 0.9])
        >>> p = ev.operating_point("youden")
        >>> p.threshold, round(p.value, 4), p.confusion.counts.tolist()
        (0.8, 0.6667, [[3, 0], [1, 2]])
        """
        from .operating_points import find_operating_point

        name, c = self._class_curve(curve, "operating point")
        assert self.rankings is not None
        if self.task == "binary":
            labels, names, pos_index = self.labels, self.names, c
        else:
            (labels, names), pos_index = self._rest_labels(name, c), 1
        return find_operating_point(
            self.rankings[name], criterion, beta=beta, costs=costs, prevalence=prevalence, at=at,
            curve=name, labels=labels, names=names, pos_index=pos_index,
        )

    def operating_points(self, criterion: str, **options: Any) -> dict[str, "ThresholdPoint"]:
        """:meth:`operating_point` of every class (binary: the positive class only), by name;
        ``options`` as there (``beta``, ``costs``, ``prevalence``, ``at``). A class where the
        criterion is undefined (e.g. no positives) raises, naming it.

        >>> ev = evaluate([0, 1, 2, 2, 1, 0], y_score=np.eye(3)[[0, 1, 2, 1, 1, 0]])
        >>> {k: p.threshold for k, p in ev.operating_points("max-f1").items()}
        {'0': 1.0, '1': 1.0, '2': 1.0}
        """
        if "curve" in options:
            raise TypeError("operating_points gives every class; use operating_point(curve=...) for one.")
        if self.rankings is None:
            raise ValueError("this evaluation has no scores, so it has no operating points: pass y_score "
                             "to evaluate().")
        names = [self._main_name()] if self.task == "binary" else list(self.names)
        return {n: self.operating_point(criterion, curve=n, **options) for n in names}

    def threshold_sweep(
        self,
        metrics: Any = None,
        *,
        thresholds: Any = None,
        curve: str | None = None,
        beta: float | None = None,
    ) -> "ThresholdSweep":
        """Every measure at every distinct threshold (or at ``thresholds``) of one class's
        scores: binary the positive class, else ``curve=`` (one-vs-rest). ``metrics``: the
        columns (default all; see :data:`clfeval.threshold_sweep.SWEEP_COLUMNS`); ``beta``
        (default: the evaluation's) adds an "fbeta" column.

        >>> ev = evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
        >>> s = ev.threshold_sweep(["tp", "fp", "f1"])
        >>> s.column("threshold").tolist(), s.column("tp").tolist(), s.column("fp").tolist()
        ([inf, 0.8, 0.4, 0.35, 0.1], [0, 1, 1, 2, 2], [0, 0, 1, 1, 2])
        """
        from .threshold_sweep import threshold_sweep_of

        name, _ = self._class_curve(curve, "threshold sweep")
        assert self.rankings is not None
        return threshold_sweep_of(self.rankings[name], metrics, thresholds,
                                  beta if beta is not None else self._beta, curve=name)

    def at(self, threshold: float, *, curve: str | None = None) -> Evaluation:
        """This evaluation with predictions ``score >= threshold``, read off the score
        statistics (nothing is sorted again: the score statistics and areas are shared; the curves
        are rebuilt around the new operating point).

        * binary: the same evaluation at another threshold of the positive class's scores;
          it equals ``evaluate(y_true, y_score=..., threshold=threshold)``, intervals included;
        * multilabel: every label at that threshold (``curve=`` a label: that label's
          one-vs-rest binary evaluation, as for multi-class);
        * multi-class: ``curve=`` is required: the binary evaluation of that class against the
          rest (labels [rest, class]), as ``evaluate(y_true == class, y_score=column, ...)``.

        ``threshold`` may be +inf or -inf (nothing / everything predicted positive), as an
        operating point at +inf can be.

        >>> ev = evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
        >>> ev.at(0.3).confusion.counts.tolist(), ev.at(0.3).threshold
        ([[1, 1], [0, 2]], 0.3)
        """
        if isinstance(threshold, (int, float, np.number)) and not isinstance(threshold, (bool, np.bool_)) \
                and float(threshold) in (float("inf"), float("-inf")):
            thr = float(threshold)
        else:
            thr = _check_threshold(threshold)
            if thr is None:
                raise TypeError("threshold must be a number, got None.")
        if self.task == "multilabel" and curve is None:
            return self._multilabel_at(thr)
        name, c = self._class_curve(curve, "predictions at a threshold")
        assert self.rankings is not None
        weighted = self._sample_weight is not None or self._streamed == "weighted"
        if self.task == "binary":
            cases = None if self._cases is None else replace(self._cases, pred=None)
            ranking, rankings = self.rankings[name], self.rankings
            labels, names, pos_label, score_kind, pos_index = self.labels, self.names, self.pos_label, self.score_kind, c
            notes = [n for n in self._notes if not n.startswith("Predictions derived from the scores")]
        else:  # one class against the rest
            ranking = self.rankings[name]
            (labels, names), pos_index = self._rest_labels(name, c), 1
            pos_label = labels[1]
            if self._cases is None:  # built from statistics (a stream)
                cases, score_kind = None, self.score_kind
            else:
                column = self._cases.column(c)
                cases = Cases(self._cases.is_positive(c).astype(np.intp), None, column, self._cases.weight,
                              pos_index=1)
                score_kind = _score_kind(column)
            rest = ranking.reversed()
            if ranking.pos.dtype.kind != "f":  # integer counts: the reversed AUC is bitwise the same
                rest.__dict__["roc_auc"] = ranking.roc_auc
            rankings = {names[0]: rest, name: ranking}
            notes = [f"One-vs-rest view of the {self.task} evaluation: {name!r} against the rest."]
        notes.append(f"Predictions derived from the scores: {names[pos_index]!r} where the score "
                     f">= {thr:g} ({score_kind} scores).")
        tp, fp, fn, tn = ranking.counts_at(thr)
        table = [[tn, fp], [fn, tp]] if pos_index == 1 else [[tp, fn], [fp, tn]]
        matrix = np.array(table, dtype=np.float64 if weighted else np.int64)
        out = Evaluation(
            task="binary", labels=labels, names=names, pos_label=pos_label, name=self.name, threshold=thr,
            score_kind=score_kind, n_samples=self.n_samples, total_weight=self.total_weight,
            confusion=ConfusionMatrix.from_matrix(labels, matrix, names), rankings=rankings, micro=None,
            beta=self._beta, per_sample=None, sample_weight=self._sample_weight, notes=notes, cases=cases,
        )
        out._dependent_rows, out._streamed = self._dependent_rows, self._streamed
        return out

    def _multilabel_at(self, thr: float) -> Evaluation:
        """Every label of a multilabel evaluation predicted where its score >= ``thr``."""
        cases = self._cases
        if cases is None or cases.scores is None:
            raise ValueError("this multilabel evaluation does not hold its scores, so it cannot be "
                             "re-thresholded; evaluate again with threshold=.")
        pred = cases.scores >= thr
        mc = MultilabelCounts.from_indicators(cases.true, pred, self._sample_weight)
        notes = [n for n in self._notes if not n.startswith("Predictions derived from the scores")]
        notes.append(f"Predictions derived from the scores: each label where its score >= {thr:g}.")
        out = Evaluation(
            task="multilabel", labels=self.labels, names=self.names, pos_label=None, name=self.name,
            threshold=thr, score_kind=self.score_kind, n_samples=self.n_samples, total_weight=self.total_weight,
            confusion=ConfusionMatrix.from_label_tables(self.labels, mc.tables, self.names),
            rankings=self.rankings, micro=self._micro, beta=self._beta, per_sample=mc.per_sample,
            sample_weight=self._sample_weight, notes=notes, cases=replace(cases, pred=pred),
        )
        out._dependent_rows = self._dependent_rows
        return out

    # -- costs --------------------------------------------------------------------------------------

    def expected_cost(self, costs: Any, *, prevalence: Any = None) -> float:
        """Expected cost per sample of the predictions under a (k, k) cost matrix in label order
        (rows true, columns predicted); ``prevalence``: class shares to weigh the per-class
        rates by instead of the data's mix (see :func:`clfeval.costs.expected_cost`).

        >>> evaluate([0, 0, 1, 1], [0, 1, 0, 1]).expected_cost([[0, 1], [5, 0]])
        1.5
        """
        from .cost_formulas import expected_cost

        return float(expected_cost(self._label_confusion(), costs, prevalence=prevalence))

    def cost_sensitive_error_rate(self, costs: Any, *, prevalence: Any = None) -> float:
        """Expected cost relative to always paying the worst price (the error rate under 0/1
        costs; see :func:`clfeval.costs.cost_sensitive_error_rate`).

        >>> evaluate([0, 0, 1, 1], [0, 1, 0, 1]).cost_sensitive_error_rate([[0, 1], [1, 0]])
        0.5
        """
        from .cost_formulas import cost_sensitive_error_rate

        return float(cost_sensitive_error_rate(self._label_confusion(), costs, prevalence=prevalence))

    def _label_confusion(self) -> np.ndarray:
        if self.task == "multilabel":
            raise ValueError("a cost matrix is over the classes of one label; for multilabel, evaluate each "
                             "label (ev.at(threshold, curve=label)) and cost it on its own.")
        return np.asarray(self.confusion.counts)

    def _cost_line(self, c: int) -> Any:
        """The cost-curve line of the current predictions of class index ``c`` (one-vs-rest)."""
        from .cost_formulas import CostLine

        pc = self.confusion.per_class()
        thr = self.threshold if self.task != "multiclass" else None
        return CostLine.from_counts(*(pc[k][c] for k in ("tp", "fp", "fn", "tn")), threshold=thr)

    def cost_curve(self, *, curve: str | None = None) -> Any:
        """Drummond and Holte's cost curve of one class's scores (binary: the positive class;
        else ``curve=`` a class, one-vs-rest), with the line of the current predictions.

        >>> cc = evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8]).cost_curve()
        >>> cc.envelope_pc.tolist(), cc.envelope_nec.tolist()
        ([0.0, 0.5, 1.0], [0.0, 0.25, 0.0])
        """
        from .cost_formulas import cost_curve_of

        name, c = self._class_curve(curve, "cost curve")
        assert self.rankings is not None
        return cost_curve_of(self.rankings[name], operating_line=self._cost_line(c), pos_label=name)

    def decision_curve(self, thresholds: Any = None, *, curve: str | None = None) -> Any:
        """Decision curve (net benefit against threshold probability) of one class's predicted
        probabilities (binary: the positive class; else ``curve=``); decision values are refused.

        >>> dc = evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8]).decision_curve([0.2, 0.5])
        >>> dc.net_benefit.tolist()
        [0.4375, 0.25]
        """
        from .cost_formulas import decision_curve_of, require_probabilities

        name, c = self._class_curve(curve, "decision curve")
        assert self.rankings is not None
        ranking = self.rankings[name]
        require_probabilities(ranking)
        return decision_curve_of(ranking, thresholds, pos_label=name)

    # -- calibration --------------------------------------------------------------------------------

    def calibration(self, n_bins: int = 15, *, strategy: str = "uniform") -> Any:
        """Calibration of the predicted probabilities: ECE (L1, L2, max), Brier score with its
        decomposition, log loss and the reliability bins (:class:`clfeval.calibration.CalibrationReport`).

        Binary: the positive class's probabilities, read off the score statistics (no pass over
        the samples; Brier decomposition over the ``n_bins`` bins with its within-bin terms). Multi-class: top-label
        headline, class-wise ECE beside it; uniform bins come from a bounded histogram with
        ``n_bins`` bins (decomposition over those bins, exact with its within-bin terms),
        quantile bins from the exact table. Decision values are refused. Cached per arguments.

        >>> ev = evaluate([0, 0, 1, 1, 1, 0], y_score=[0.1, 0.3, 0.8, 0.9, 0.6, 0.6])
        >>> c = ev.calibration(5)
        >>> round(c.ece, 6), round(c.brier, 6), c.mode
        (0.15, 0.111667, 'binary')
        """
        key = ("calibration", int(n_bins), strategy)
        cache = self.__dict__.setdefault("_calibration_cache", {})
        if key not in cache:
            from .calibration import binary_calibration_report, calibration_of_evaluation

            if self.rankings is None or self.score_kind != "probability":
                what = "no scores" if self.rankings is None else "scores that are not probabilities (some lie outside [0, 1])"
                raise ValueError(f"this evaluation has {what}; calibration needs predicted probabilities "
                                 "(predict_proba output) passed as y_score.")
            if self.task == "binary":
                cache[key] = binary_calibration_report(
                    self.rankings[self._main_name()], classes=self.labels.tolist(), positive=self.positive_index,
                    n_bins=n_bins, strategy=strategy)
            elif self._cases is None:  # a stream: its bounded histogram (see clfeval.streaming)
                state = getattr(self, "_calibration_state", None)
                if state is None or isinstance(state, str):
                    raise ValueError(f"this stream kept no calibration histogram: {state or 'no probabilities'}.")
                cache[key] = state.report(n_bins, strategy)
            else:
                state = calibration_of_evaluation(self, n_bins=n_bins if strategy == "uniform" else None)
                cache[key] = state.report(n_bins, strategy)
        return cache[key]

    # -- uncertainty -----------------------------------------------------------------------------

    def intervals(
        self, level: float = 0.95, *, method: str = "analytic", n_resamples: int = 2000, seed: Any = 0,
        sampling: str = "cross-sectional",
    ) -> Intervals:
        """Confidence intervals of every number in the report, laid out like the report.

        ``method``: "analytic" (closed forms: Wilson for proportions, MOVER for balanced accuracy,
        the delta method on the logit or Fisher-z scale for F, MCC, kappa and the averages, DeLong
        on the logit scale for ROC AUC, case influence for average precision), "delong" (the same
        with pROC's plain DeLong interval of the AUC), "bootstrap" or "bca" (over multinomial
        resamples of the counts). Each is the method that held 95% in ``benchmarks/coverage.py``;
        :func:`clfeval.uncertainty.confusion_intervals` and
        :func:`clfeval.area_intervals.ranking_area_intervals` say what each is. ``sampling``: how
        the test set was drawn, which the bootstrap repeats: "cross-sectional" (the default: cases
        drawn whatever their class, so the prevalence varies between test sets) or "stratified"
        (so many cases of each class, by design); see :mod:`clfeval.resampling`. The result is
        :func:`clfeval.uncertainty.confusion_intervals`' dict; with scores, "roc_auc" and
        "average_precision" are added to "per_class" (and to "averages" where the report has them).
        Cached per arguments. The dict is an :class:`~clfeval.interval_results.Intervals`: printed,
        it lists one number per row (estimate, interval, standard error, method); ``to_frame()``
        gives the same rows as a pandas DataFrame.

        >>> ev = evaluate([0, 0, 1, 1, 1, 0, 1, 0], [0, 1, 1, 1, 0, 0, 1, 0])
        >>> ci = ev.intervals()["overall"]["accuracy"]
        >>> round(ci.low, 4), round(ci.high, 4), ci.method
        (0.4093, 0.9285, 'Wilson score')
        """
        from .resampling import check_sampling

        key = (float(level), method, int(n_resamples), seed, check_sampling(sampling))
        cache = self.__dict__.setdefault("_intervals_cache", {})
        if key not in cache:
            cache[key] = Intervals(self._intervals(*key))
        return cache[key]

    def _intervals(self, level: float, method: str, n_resamples: int, seed: Any, sampling: str) -> dict[str, Any]:
        from .uncertainty import confusion_intervals

        weighted = self._sample_weight is not None
        if self.confusion.pairs is not None:  # many classes (clfeval.sparse_counts): no k x k table
            raise ValueError(
                f"confidence intervals are not available for {self.labels.size:,} classes: they resample "
                f"the k x k confusion table, which is kept pair-coded above {sparse_counts.SPARSE_ABOVE} classes.")
        if self._cases is None and self._streamed is not None:
            if self._streamed == "weighted":
                raise ValueError("intervals of weighted rows need each row's weight, which a stream does not keep; "
                                 "evaluate the rows in memory (clfeval.evaluate) for intervals.")
            if self.task != "binary" or method not in ("analytic", "delong"):
                raise ValueError("a stream keeps counts, not rows: it gives the analytic intervals of a binary "
                                 "evaluation (Wilson, delta method, DeLong); for the others evaluate the rows in "
                                 "memory (clfeval.evaluate).")
        if method not in ("analytic", "delong", "bootstrap", "bca"):
            raise ValueError(f"method must be 'analytic', 'delong', 'bootstrap' or 'bca', got {method!r}.")
        if weighted and method not in ("analytic", "delong"):
            raise ValueError(
                f"method={method!r} resamples counts of cases, and this evaluation has sample weights; "
                "use method='analytic' (Kish effective sizes and the delta method for weighted cases)."
            )
        table_method = "analytic" if method == "delong" else method  # "delong" changes only the ROC AUC
        if self.task == "multilabel":
            out = self._multilabel_intervals(level, table_method, n_resamples, seed, sampling)
        else:
            extra = {}
            if weighted:
                extra = {"weight_squares": self._weight_squares(), "n_cases": self.n_samples}
            out = confusion_intervals(self.confusion.counts, level=level, method=table_method,
                                      n_resamples=n_resamples, seed=seed, beta=self._beta, labels=self.names,
                                      sampling=sampling, **extra)
        out["method"] = method
        if self.rankings is not None:
            self._add_area_intervals(out, level, method, n_resamples, seed, sampling)
        if self._dependent_rows is not None:
            warnings.warn(self._dependent_rows, UserWarning, stacklevel=4)
            out["notes"] = [*out.get("notes", []), self._dependent_rows]
        return out

    def _pred_codes(self) -> np.ndarray:
        """Each case's predicted class code (binary predictions from scores: score >= threshold)."""
        cases = self._cases
        if cases.pred is not None:
            return cases.pred
        i = cases.pos_index
        return np.where(cases.column(i) >= self.threshold, i, 1 - i)

    def _weight_squares(self) -> np.ndarray:
        """(k, k) sums of squared sample weights per confusion cell."""
        k = self.labels.size
        cell = self._cases.true * k + self._pred_codes()
        return np.bincount(cell, weights=self._sample_weight ** 2, minlength=k * k).reshape(k, k)

    def _multilabel_intervals(self, level: float, method: str, n_resamples: int, seed: Any,
                              sampling: str) -> dict[str, Any]:
        """Each label's row from its own 2 x 2 table; the averages over labels, the samples
        average and the overall numbers from each case's influence (labels share cases)."""
        from .influence import multilabel_influence_intervals
        from .stats._result import ConfidenceInterval
        from .uncertainty import confusion_intervals

        tables = self.confusion.sklearn_layout()  # (L, 2, 2): [[TN, FP], [FN, TP]]
        cases = self._cases
        if self._sample_weight is not None:
            w2 = self._sample_weight[:, None] ** 2
            t, p = cases.true, cases.pred
            squares = np.stack([((~t) & (~p)) * w2, ((~t) & p) * w2, (t & (~p)) * w2, (t & p) * w2]).sum(axis=1)
            squares = squares.T.reshape(-1, 2, 2)
            extra = lambda i: {"weight_squares": squares[i], "n_cases": self.n_samples}  # noqa: E731
        else:
            extra = lambda i: {}  # noqa: E731

        def positive_rows(i: int) -> dict[str, Any]:
            d = confusion_intervals(tables[i], level=level, method=method, n_resamples=n_resamples, seed=seed,
                                    beta=self._beta, labels=["rest", "label"], sampling=sampling, **extra(i))
            return {m: ci.at(1) for m, ci in d["per_class"].items()}

        rows = [positive_rows(i) for i in range(len(tables))]
        per_class = {m: ConfidenceInterval.stacked(r[m] for r in rows) for m in rows[0]}
        averages, overall, notes = multilabel_influence_intervals(cases, tables, self._per_sample, level, self._beta)
        return {"level": level, "method": method, "labels": list(self.names), "per_class": per_class,
                "averages": averages, "overall": overall, "notes": notes}

    def _add_area_intervals(self, out: dict[str, Any], level: float, method: str, n_resamples: int,
                            seed: Any, sampling: str) -> None:
        """Add ROC AUC and AP intervals: per class by DeLong / bootstrap (weighted cases: from
        each case's influence), the averages over classes from each case's influence."""
        from .area_intervals import ranking_area_intervals
        from .influence import area_influences, area_interval
        from .stats._result import ConfidenceInterval

        assert self.rankings is not None
        rankings = list(self.rankings.values())
        weighted = self._sample_weight is not None
        per_class: dict[str, Any] = {}
        averages: dict[str, dict[str, Any]] = {}
        positives, negatives = self._cases_per_class(rankings)
        for area in ("roc_auc", "average_precision"):
            # a stream (no cases) is binary and unweighted here: per class from the rankings only
            infl = {} if self._cases is None else area_influences(self._cases, rankings, self._micro, area,
                                                                  per_class=weighted)
            # t quantiles: (fewest cases on either side of a class) - 1, as area_intervals does
            fewest = np.minimum(positives, negatives)
            df = [max(float(f) - 1, 1.0) for f in fewest]
            df_avg = max(float(fewest[fewest > 0].min()) - 1, 1.0) if (fewest > 0).any() else None
            if weighted:
                est, u = infl["per_class"]
                cis = [area_interval(area, e, ui, level, df=d, df_name="min(P, N) - 1") for e, ui, d in zip(est, u, df)]
            else:
                cis = [ranking_area_intervals(r, level=level, method=method, n_resamples=n_resamples,
                                              seed=seed, sampling=sampling)[area] for r in rankings]
            per_class[area] = ConfidenceInterval.stacked(cis)
            for avg in ("micro", "macro", "weighted"):
                if avg in infl:
                    averages.setdefault(avg, {})[area] = area_interval(area, *infl[avg], level, df=df_avg)
        out["per_class"].update(per_class)
        if self._cases is None:
            out["notes"] = [*out.get("notes", []), "ROC AUC and average precision averaged over classes have no "
                            "interval here: those need each row, which a stream does not keep."]
        for avg, d in averages.items():
            out["averages"].setdefault(avg, {}).update(d)
        if self.task == "binary":  # the report's headline areas are the positive class's
            i = self.positive_index
            for area, c in per_class.items():
                out["overall"][area] = c.at(i)
        else:  # multi-class and multilabel headlines are the macro averages
            for area in per_class:
                if area in averages.get("macro", {}):
                    out["overall"][area] = averages["macro"][area]

    def _cases_per_class(self, rankings: list[Any]) -> tuple[np.ndarray, np.ndarray]:
        """(cases of each class, cases of the rest) per ranking: counts of cases, not sums of
        weights (zero-weight cases left out); a stream is unweighted, so its rankings count them."""
        if self._cases is None:
            return (np.array([np.asarray(r.pos, dtype=np.float64).sum() for r in rankings]),
                    np.array([np.asarray(r.negatives(), dtype=np.float64).sum() for r in rankings]))
        counted = np.ones(self._cases.n, bool) if self._sample_weight is None else self._sample_weight > 0
        positives = np.array([float((self._cases.is_positive(c) & counted).sum()) for c in range(len(rankings))])
        return positives, float(counted.sum()) - positives

    def band(self, kind: str = "roc", curve: str | None = None, *, grid: Any = None, level: float = 0.95,
             n_resamples: int = 2000, seed: Any = 0) -> Any:
        """Pointwise bootstrap confidence band of a ROC (``kind="roc"``: TPR at each FPR of
        ``grid``) or PR curve (precision at each recall), resampling the score cells.

        ``curve``: a class name or "micro" (default: the main curve). Long rankings are grouped
        into evenly spread score groups first (see :mod:`clfeval.area_intervals`).

        >>> ev = evaluate([0, 1, 1, 0, 1, 0, 1, 0], y_score=[.1, .9, .7, .3, .6, .4, .2, .8])
        >>> b = ev.band("roc", grid=[0.0, 0.5, 1.0], n_resamples=200)
        >>> b.estimate.tolist()
        [0.25, 0.75, 1.0]
        """
        from .area_intervals import BOOTSTRAP_MAX_SCORES
        from .uncertainty import pr_band, roc_band

        if kind not in ("roc", "pr"):
            raise ValueError(f"kind must be 'roc' or 'pr', got {kind!r}.")
        if self.rankings is None:
            raise ValueError("this evaluation has no scores, so it has no curves: pass y_score to evaluate().")
        name = curve if curve is not None else (self._main_name() if self.task == "binary" else "micro")
        ranking = self.ranking(name)
        if ranking is None:
            raise ValueError("the macro curve is an average of curves and has no band; pick a class or 'micro'.")
        if ranking.scores.size > BOOTSTRAP_MAX_SCORES:
            ranking = ranking.coarsened(ranking.cut_points(BOOTSTRAP_MAX_SCORES))
        make = roc_band if kind == "roc" else pr_band
        return make(ranking, grid, level=level, n_resamples=n_resamples, seed=seed)

    def ci(
        self,
        metric: str,
        *,
        label: Any = None,
        average: str | None = None,
        level: float = 0.95,
        method: str = "analytic",
        n_resamples: int = 2000,
        seed: Any = 0,
        sampling: str = "cross-sectional",
    ) -> Any:
        """The confidence interval of one number of the report (``sampling``: see :meth:`intervals`).

        ``metric`` is a report column ("precision", "recall", "f1", "fallout", "specificity",
        "npv", "roc_auc", "average_precision") or an overall number ("accuracy", "error_rate",
        "balanced_accuracy", "mcc", "kappa"). Per-class columns need ``label`` (a class) or
        ``average`` ("micro", "macro", "weighted"); for a binary task they default to the
        positive class.

        >>> ev = evaluate(["n", "p", "p", "n", "p"], ["n", "p", "n", "n", "p"], pos_label="p")
        >>> ci = ev.ci("recall")
        >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
        (0.6667, 0.2077, 0.9385)
        """
        data = self.intervals(level, method=method, n_resamples=n_resamples, seed=seed, sampling=sampling)
        if metric in data["overall"] and average is None and label is None:
            return data["overall"][metric]
        if metric not in data["per_class"] and (average is None or metric not in data["averages"].get(average, {})):
            known = sorted({*data["overall"], *data["per_class"]})
            raise ValueError(f"no interval for {metric!r}; the report's numbers are {known}.")
        if average is not None:
            if average not in data["averages"] or metric not in data["averages"][average]:
                raise ValueError(f"no {average!r} average of {metric!r}; averages: {sorted(data['averages'])}.")
            return data["averages"][average][metric]
        if label is None:
            if self.task != "binary" or self.pos_label is None:
                raise ValueError(f"{metric!r} is per class: pass label= (one of {self.labels.tolist()}) or average=.")
            label = self.pos_label
        matches = np.flatnonzero(self.labels == label)
        if matches.size == 0:
            raise ValueError(f"label {label!r} is not one of {self.labels.tolist()}.")
        return data["per_class"][metric].at(int(matches[0]))

    # -- outputs ---------------------------------------------------------------------------------

    def intervals_dict(self, level: float = 0.95, **kwargs: Any) -> dict[str, Any]:
        """:meth:`intervals` as plain Python (see :func:`intervals_to_plain`)."""
        return intervals_to_plain(self.intervals(level, **kwargs))

    def to_dict(self, max_points: int | None = 2000, *, ci_level: float | None = None,
                ci_method: str = "analytic", costs: Any = None, prevalence: Any = None) -> dict[str, Any]:
        """Everything as plain Python; curves downsampled to ``max_points`` (None: all points);
        with ``ci_level``, an "intervals" entry (see :meth:`intervals_dict`); with ``costs`` (a
        (k, k) cost matrix in label order) and optional ``prevalence``, a "costs" entry and the
        "min-cost" operating point. See :meth:`thresholds_dict` for the threshold entries."""
        from . import __version__

        return {
            "clfeval_version": __version__,
            "task": self.task,
            "name": self.name,
            "labels": self.labels.tolist(),
            "names": list(self.names),
            "pos_label": None if self.pos_label is None else np.asarray(self.pos_label).tolist(),
            "threshold": self.threshold,
            "score_kind": self.score_kind,
            "n_samples": self.n_samples,
            "total_weight": self.total_weight,
            "confusion": self.confusion.to_dict(),
            "report": self.report.to_dict(),
            "roc": self._curves_dict("roc", max_points),
            "pr": self._curves_dict("pr", max_points),
            "main_curve": None if self.roc is None else self.roc.main_name,
            "break_even": None if self.break_even is None else self.break_even.to_dict(),
            **self.thresholds_dict(costs=costs, prevalence=prevalence),
            **({} if ci_level is None else {"intervals": self.intervals_dict(ci_level, method=ci_method)}),
            **({} if self.binning is None else {"binning": {k: b.to_dict() for k, b in self.binning.items()}}),
        }

    def thresholds_dict(self, *, costs: Any = None, prevalence: Any = None, max_lines: int = 200,
                        n_bins: int = 15) -> dict[str, Any]:
        """The threshold, cost and calibration entries of :meth:`to_dict`, as plain Python.

        * "operating_points": {curve: {criterion: point}} for binary (the positive class) and
          multilabel (each label) scores: break-even, youden, closest-topleft, max-f1 (max-fbeta
          with a beta), and min-cost with ``costs``; a criterion undefined on these data gives
          {"error": why}. Multi-class (arg-max predictions, no threshold): None; ask
          :meth:`operating_point` for a class.
        * "costs" (with ``costs``): the matrix, prevalence, expected cost, cost-sensitive error rate.
        * "cost_curve" (binary scores; at most ``max_lines`` lines) and "decision_curve" (binary
          probabilities); "calibration" (probabilities, not multilabel; ``n_bins`` uniform bins).
        """
        try:
            key = (None if costs is None else np.asarray(costs, dtype=np.float64).tobytes(),
                   None if costs is None else np.shape(costs),
                   None if prevalence is None else np.asarray(prevalence, dtype=np.float64).tobytes(),
                   max_lines, n_bins)
        except (TypeError, ValueError):  # bad costs: the checks below say what is wrong
            return self._thresholds_dict(costs, prevalence, max_lines, n_bins)
        cache = self.__dict__.setdefault("_thresholds_cache", {})
        if key not in cache:  # the CLI prints and writes the same entries
            cache[key] = self._thresholds_dict(costs, prevalence, max_lines, n_bins)
        return copy.deepcopy(cache[key])

    def _thresholds_dict(self, costs: Any, prevalence: Any, max_lines: int, n_bins: int) -> dict[str, Any]:
        out: dict[str, Any] = {"operating_points": None, "cost_curve": None, "decision_curve": None,
                               "calibration": None}
        if costs is not None:
            out["costs"] = {
                "matrix": np.asarray(costs, dtype=np.float64).tolist(),
                "prevalence": None if prevalence is None else np.asarray(prevalence, dtype=np.float64).tolist(),
                "expected_cost": self.expected_cost(costs, prevalence=prevalence),
                "cost_sensitive_error_rate": self.cost_sensitive_error_rate(costs, prevalence=prevalence),
            }
        if self.rankings is None:
            return out
        calibration = None
        if self.score_kind == "probability" and self.task != "multilabel":
            from .counts import _pool

            # independent of the rest, and numpy releases the GIL: on another core meanwhile
            calibration = _pool().submit(self._calibration_entry, n_bins)
        if self.task != "multiclass":
            criteria: list[tuple[str, dict[str, Any]]] = [("break-even", {}), ("youden", {}), ("closest-topleft", {}),
                                                          ("max-f1", {})]
            if self._beta is not None and self._beta != 1:
                criteria.append(("max-fbeta", {"beta": self._beta}))
            if costs is not None and self.task == "binary":
                criteria.append(("min-cost", {"costs": costs, "prevalence": prevalence}))
            curves = [self._main_name()] if self.task == "binary" else list(self.names)
            out["operating_points"] = {c: {name: _point_or_error(self, name, c, kw) for name, kw in criteria}
                                       for c in curves}
        if self.task == "binary":
            ranking = self.rankings[self._main_name()]
            n_total, p_total = ranking.totals
            if n_total > 0 and p_total > 0:
                out["cost_curve"] = self.cost_curve().to_dict(max_lines=max_lines)
            if self.score_kind == "probability":
                out["decision_curve"] = self.decision_curve().to_dict()
        if calibration is not None:
            out["calibration"] = calibration.result()
        return out

    def _calibration_entry(self, n_bins: int) -> dict[str, Any]:
        try:
            return self.calibration(n_bins).to_dict()
        except ValueError as exc:  # e.g. rows that are not probability distributions
            return {"error": str(exc)}

    def _curves_dict(self, kind: str, max_points: int | None) -> dict[str, Any] | None:
        curves = self._curves(kind, max_points)
        return None if curves is None else curves.to_dict(max_points)

    def to_json(self, path: str | Path | None = None, *, indent: int | None = 2, ci_level: float | None = None,
                ci_method: str = "analytic", costs: Any = None, prevalence: Any = None) -> str | Path:
        """Strict JSON (no bare NaN or Infinity: NaN is null, infinities are "inf"/"-inf").

        Without ``path``, the JSON text is returned. With ``path``, it is written there atomically
        and the path is returned as a :class:`pathlib.Path` (as :meth:`to_html` does), not the
        text, which would fill an interactive session. ``ci_level`` adds the intervals,
        ``costs`` (and ``prevalence``) the cost entries (as :meth:`to_dict`).
        """
        data = self.to_dict(ci_level=ci_level, ci_method=ci_method, costs=costs, prevalence=prevalence)
        text = json.dumps(json_safe(data), indent=indent, allow_nan=False)
        if path is not None:
            from .atomic import atomic_write

            with atomic_write(path) as f:
                f.write(text + "\n")
            return Path(path)
        return text

    def to_markdown(self) -> str:
        """The report as Markdown tables."""
        return self.report.to_markdown()

    def to_frame(self) -> Any:
        """The report as a pandas DataFrame."""
        return self.report.to_frame()

    def to_html(self, path: str | Path, title: str | None = None, *, costs: Any = None,
                prevalence: Any = None) -> Path:
        """One self-contained, offline HTML page with the tables and interactive charts; with
        ``costs`` (and ``prevalence``) the costs and the min-cost operating point too."""
        from .report.html import write_html

        return write_html(path, [self if costs is None else self.to_dict(costs=costs, prevalence=prevalence)],
                          title=title)


# -- evaluate ------------------------------------------------------------------------------------


def _point_or_error(ev: Evaluation, criterion: str, curve: str, options: dict[str, Any]) -> dict[str, Any]:
    """An operating point as plain Python, or {"error": why} where the criterion is undefined."""
    try:
        return ev.operating_point(criterion, curve=None if ev.task == "binary" else curve, **options).to_dict()
    except ValueError as exc:
        return {"criterion": criterion, "curve": curve, "error": str(exc)}


def intervals_to_plain(data: dict[str, Any]) -> dict[str, Any]:
    """An :meth:`Evaluation.intervals` dict as plain Python: {"level", "method", "per_class":
    {metric: {"low": [...], "high": [...], "standard_error": [...] or None, "method"}}, "averages":
    {average: {metric: {"low", "high", "standard_error", "method"}}}, "overall": {metric: {...}},
    "notes"} (:meth:`clfeval.interval_results.Intervals.to_dict`)."""

    return Intervals(data).to_dict()


def predict_from_scores(y_score: Any, labels: Any, *, pos_label: Any = None, threshold: float | None = None) -> np.ndarray:
    """The labels :func:`evaluate` predicts from scores: binary ``score >= threshold`` (default 0.5
    for probabilities, 0 for decision values; ``y_score`` 1-D for ``pos_label`` or one column per
    label), multi-class the highest-scoring label.

    >>> predict_from_scores([0.2, 0.7], ["no", "yes"], pos_label="yes").tolist()
    ['no', 'yes']
    >>> predict_from_scores([[0.1, 0.9, 0.0], [0.5, 0.2, 0.3]], [3, 1, 2]).tolist()
    [1, 3]
    """
    s = np.asarray(y_score, dtype=np.float64)
    labels = np.asarray(labels)
    if s.ndim == 2 and s.shape[1] != labels.size:
        raise ValueError(f"y_score has {s.shape[1]} columns but there are {labels.size} labels.")
    if s.ndim == 2 and labels.size > 2:
        return labels[np.argmax(s, axis=1)]
    if labels.size != 2:
        raise ValueError(f"binary scores need two labels, got {labels.tolist()}.")
    pos = labels[1] if pos_label is None else pos_label
    if pos not in labels.tolist():
        raise ValueError(f"pos_label {pos!r} is not one of the labels {labels.tolist()}.")
    pos_index = labels.tolist().index(pos)
    pos_scores = s if s.ndim == 1 else s[:, pos_index]
    if threshold is None:
        threshold = default_threshold(_score_kind(s))
    return np.where(pos_scores >= threshold, labels[pos_index], labels[1 - pos_index])


def _check_threshold(threshold: Any) -> float | None:
    if threshold is None:
        return None
    if isinstance(threshold, (bool, np.bool_)) or not isinstance(threshold, (int, float, np.number)):
        raise TypeError(f"threshold must be a number, got {threshold!r}.")
    t = float(threshold)
    if t != t or t in (float("inf"), float("-inf")):
        raise ValueError(f"threshold must be finite, got {threshold!r}.")
    return t


def _score_kind(s: np.ndarray) -> str:
    """The kind of the scores, by the one rule of :mod:`clfeval.score_kind` (1e-6 tolerance)."""
    return kind_of_scores(s)


def _names(labels: np.ndarray, target_names: Any) -> list[str]:
    if target_names is None:
        return [str(v) for v in labels.tolist()]
    names = [str(v) for v in target_names]
    if len(names) != labels.size:
        raise ValueError(
            f"target_names has {len(names)} entries but there are {labels.size} classes "
            f"({labels.tolist()}); give one name per class."
        )
    if len(set(names)) != len(names):
        raise ValueError(f"target_names must be distinct, got {names}.")
    return names


def _first_outside(y: np.ndarray, codes: np.ndarray, labels: np.ndarray, name: str) -> ValueError:
    bad = int(np.flatnonzero(codes < 0)[0])
    value = y[bad:bad + 1].tolist()[0]
    return ValuesError(
        f"{name}[{bad}] = {value!r} is not one of labels {labels.tolist()}; add it to labels "
        "or drop those samples.",
        argument=name, kind="not-in-labels", position=bad, value=value, count=int(np.count_nonzero(codes < 0)),
        allowed=labels.tolist(),
    )


def _resolve_labels(
    yt: np.ndarray, yp: np.ndarray | None, labels: Any, pos_label: Any, n_columns: int | None
) -> np.ndarray:
    present = [unique_sorted(yt, "y_true")]
    names = ["y_true"]
    if yp is not None:
        present.append(unique_sorted(yp, "y_pred"))
        names.append("y_pred")
    if labels is not None:
        given = as_array(labels, "labels").reshape(-1)
        if unique_sorted(given, "labels").size != given.size:
            raise ValueError(f"labels must be distinct, got {given.tolist()}.")
        union_labels(given, *present, names=("labels", *names))  # refuses a type mix
        if n_columns is not None and n_columns != given.size and not (n_columns == 2 and given.size < 2):
            raise ValuesError(
                f"y_score has {n_columns} columns but labels has {given.size} classes ({given.tolist()}); "
                "give one score column per class, in the order of labels.",
                argument="y_score", kind="columns-vs-classes", count=n_columns, allowed=given.tolist(),
            )
        return given
    out = union_labels(*present, names=tuple(names))
    if pos_label is not None and out.size < 2 and not (out == pos_label).any():
        out = union_labels(out, np.array([pos_label]), names=(*names, "pos_label"))
    if n_columns is not None and n_columns != out.size and not (n_columns == 2 and out.size < 2):
        raise ValuesError(
            f"y_score has {n_columns} columns but the data has {out.size} classes "
            f"({out.tolist()}); pass labels= listing every class in column order.",
            argument="y_score", kind="columns-vs-classes", count=n_columns, allowed=out.tolist(),
        )
    return out


def _resolve_pos_label(classes: np.ndarray, pos_label: Any, one_column: bool, notes: list[str]) -> Any:
    values = classes.tolist()
    if pos_label is not None:
        if not (classes == pos_label).any():
            raise ValuesError(f"pos_label={pos_label!r} is not one of the classes {values}.", argument="pos_label",
                              kind="not-a-class", value=pos_label, allowed=values)
        return classes[classes == pos_label][0]
    if classes.dtype.kind in "biuf" and set(values) in _NATURAL_POSITIVE:
        return classes[-1]
    if one_column:
        raise ValuesError(
            f"y_score is a single column, so it scores one class of {values}: pass pos_label= "
            "to say which.",
            argument="pos_label", kind="pos-label-needed", allowed=values,
        )
    notes.append(
        f"Positive class taken as {values[-1]!r}, the second of the sorted classes (the column "
        "predict_proba puts second); pass pos_label to choose."
    )
    return classes[-1]


def _binary_rankings(
    is_pos: np.ndarray,
    pos_scores: np.ndarray,
    neg_scores: np.ndarray | None,
    w: np.ndarray | None,
    names: list[str],
    pos_index: int,
) -> dict[str, BinaryRanking]:
    pos = BinaryRanking.from_table(ScoreTable._build(is_pos, pos_scores, _BINARY, w), 1)
    if neg_scores is None:
        neg = pos.reversed()
        if pos.pos.dtype.kind != "f":
            # With integer counts both areas are exact ratios of the same integers: the AUC of
            # the reversed ranking is bitwise that of the original, so it is not summed again.
            neg.__dict__["roc_auc"] = pos.roc_auc
    else:
        neg = BinaryRanking.from_table(ScoreTable._build(~is_pos, neg_scores, _BINARY, w), 1)
    pair = [neg, pos] if pos_index == 1 else [pos, neg]
    return dict(zip(names, pair))


def merge_rankings(rankings: list[BinaryRanking]) -> BinaryRanking:
    """The ranking of all the (score, class) pairs of several rankings together (micro average).

    >>> a = BinaryRanking(np.array([0.9, 0.2]), None, np.array([True, False]))
    >>> m = merge_rankings([a, a])
    >>> m.scores.tolist(), m.pos.tolist(), m.neg.tolist()
    ([0.9, 0.2], [2, 0], [0, 2])
    """
    scores = np.concatenate([r.scores for r in rankings])
    # Each ranking is already sorted: a stable sort of the concatenation merges the runs.
    order = np.argsort(-scores, kind="stable")
    ordered = scores[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    weighted = any(r.pos.dtype.kind == "f" or (r.neg is not None and r.neg.dtype.kind == "f") for r in rankings)
    dtype = np.float64 if weighted else np.int64

    def grouped(parts: list[np.ndarray]) -> np.ndarray:
        flat = np.concatenate([p.astype(dtype, copy=False) for p in parts])[order]
        return np.add.reduceat(flat, starts) if flat.size else flat

    pos = grouped([r.pos for r in rankings])
    neg = grouped([r.negatives() for r in rankings])
    return BinaryRanking(ordered[starts], neg, pos)


def evaluate(
    y_true: Any,
    y_pred: Any = None,
    y_score: Any = None,
    *,
    labels: Any = None,
    pos_label: Any = None,
    threshold: float | None = None,
    sample_weight: Any = None,
    beta: float | None = None,
    target_names: Any = None,
    name: str | None = None,
) -> Evaluation:
    """Evaluate a classifier from its predictions, its scores, or both.

    * ``y_score``: 1-D scores of ``pos_label`` (binary), (n, 2) binary or (n, k) multi-class
      scores/probabilities with columns in label order, or (n, L) for a multilabel y_true.
    * Without ``y_pred``, predictions come from the scores: binary and multilabel
      ``score >= threshold`` (default 0.5 for probabilities, 0 for decision values), multi-class
      the highest-scoring column.
    * ``labels``: the classes and their order (a superset of those present; for multilabel,
      names of the L columns). ``target_names``: display names. ``beta``: adds an F-beta column.

    >>> ev = evaluate([1, 0, 1, 1], [1, 0, 0, 1])
    >>> ev.confusion.counts.tolist(), round(ev.report.overall["mcc"], 4)
    ([[1, 0], [1, 2]], 0.5774)
    """
    if y_pred is None and y_score is None:
        raise ValueError("evaluate needs y_pred, y_score or both; got neither.")
    thr = _check_threshold(threshold)
    if thr is not None and y_pred is not None:
        raise ValueError(
            "pass threshold or y_pred, not both: threshold turns y_score into predictions, "
            "which y_pred already are."
        )
    if beta is not None and (not isinstance(beta, (int, float)) or not beta > 0 or beta == float("inf")):
        raise ValueError(f"beta must be a positive finite number, got {beta!r}.")
    yt = as_array(y_true, "y_true")
    if yt.ndim == 0:
        raise TypeError("y_true must be an array-like of samples, not a scalar.")
    n = yt.shape[0]
    if n == 0:
        raise ValueError("y_true is empty: there is nothing to evaluate.")
    yp = None if y_pred is None else as_array(y_pred, "y_pred")
    for arr, nm in ((yt, "y_true"), (yp, "y_pred")):
        if arr is not None:
            check_finite_labels(arr, nm)  # infinity is no class (scikit-learn's error)
    s = None if y_score is None else as_score_array(y_score, "y_score")
    for arr, nm in ((yp, "y_pred"), (s, "y_score")):
        if arr is not None and (arr.ndim == 0 or arr.shape[0] != n):
            got = "a scalar" if arr.ndim == 0 else f"{arr.shape[0]} samples"
            raise ValueError(f"y_true has {n} samples but {nm} has {got}.")
    w = check_sample_weight(sample_weight, n, allow_all_zero=False)
    notes: list[str] = []
    if yt.ndim == 2 and yt.shape[1] > 1:
        return _evaluate_multilabel(yt, yp, s, labels, thr, w, beta, target_names, name, notes)
    if yt.ndim == 2:
        yt = yt[:, 0]
    if yt.ndim != 1:
        raise ValueError(f"y_true must be 1-D labels or a 2-D 0/1 indicator matrix, got shape {yt.shape}.")
    if yt.dtype.kind == "f" and not np.array_equal(yt, np.floor(yt)):
        raise ValueError(
            "y_true holds continuous values; it must hold class labels. Scores belong in y_score."
        )
    if yp is not None:
        if yp.ndim == 2 and yp.shape[1] == 1:
            yp = yp[:, 0]
        if yp.ndim != 1:
            raise ValueError(f"y_pred must be 1-D labels like y_true, got shape {yp.shape}.")
    if s is not None and s.ndim == 2 and s.shape[1] == 1:
        s = s[:, 0]
    n_columns = None if s is None or s.ndim == 1 else s.shape[1]
    classes = _resolve_labels(yt, yp, labels, pos_label, n_columns)
    t_codes = encode(yt, classes)
    if t_codes.size and t_codes.min() < 0:
        raise _first_outside(yt, t_codes, classes, "y_true")
    k = classes.size
    names = _names(classes, target_names)
    binary = k <= 2 and (n_columns is None or n_columns <= 2)
    if s is not None and k < 2:
        raise ValuesError(
            f"y_true has a single class ({classes.tolist()}) and no other class is named: pass "
            "labels=[negative, positive] (or pos_label) so the scores can be read.",
            argument="y_true", kind="one-class", allowed=classes.tolist(),
        )
    pos = None
    score_kind = None if s is None else _score_kind(s)
    if binary and k == 2 and (s is not None or pos_label is not None or classes.dtype.kind in "biuf"):
        try:
            pos = _resolve_pos_label(classes, pos_label, s is not None and s.ndim == 1, notes)
        except ValueError:
            if s is not None:
                raise
    rankings = micro = None
    if s is not None:
        if binary:
            pos_index = int(np.flatnonzero(classes == pos)[0])
            is_pos = t_codes == pos_index
            if s.ndim == 1:
                pos_scores, neg_scores = s, None
            else:
                pos_scores, neg_scores = s[:, pos_index], s[:, 1 - pos_index]
            rankings = _binary_rankings(is_pos, pos_scores, neg_scores, w, names, pos_index)
            if yp is None:
                thr = default_threshold(score_kind) if thr is None else thr
                notes.append(
                    f"Predictions derived from the scores: {names[pos_index]!r} where the score "
                    f">= {thr:g} ({score_kind} scores)."
                )
                if w is not None and w.dtype.kind in "iu":  # integer weights: counted exactly
                    yp_codes = np.where(pos_scores >= thr, pos_index, 1 - pos_index)
                else:
                    # the confusion matrix at a threshold is read off the score statistics
                    tp, fp, fn, tn = rankings[names[pos_index]].counts_at(thr)
                    table = [[tn, fp], [fn, tp]] if pos_index == 1 else [[tp, fn], [fp, tn]]
                    matrix = np.array(table, dtype=np.float64 if w is not None else np.int64)
        else:
            if thr is not None:
                raise ValuesError(
                    "threshold applies to binary and multilabel scores; multi-class predictions "
                    "are the highest-scoring class (leave threshold out).",
                    argument="threshold", kind="not-binary", value=thr, allowed=classes.tolist(),
                )
            if s.ndim != 2:
                raise ValuesError(
                    f"y_true has {k} classes, so y_score needs one column per class "
                    f"(shape ({n}, {k})), got shape {s.shape}.",
                    argument="y_score", kind="score-columns", count=k, allowed=classes.tolist(),
                )
            if yp is None:
                yp_codes = np.argmax(s, axis=1)
                notes.append("Predictions derived from the scores: the highest-scoring class of each sample.")
            rankings = {}
            for c in range(k):
                table = ScoreTable._build(t_codes == c, np.ascontiguousarray(s[:, c]), _BINARY, w)
                rankings[names[c]] = BinaryRanking.from_table(table, 1)
            micro = merge_rankings(list(rankings.values()))
    if yp is not None:
        yp_codes = encode(yp, classes)
        if yp_codes.size and yp_codes.min() < 0:
            raise _first_outside(yp, yp_codes, classes, "y_pred")
    if yp is not None or not binary or (w is not None and w.dtype.kind in "iu"):
        cc = ConfusionCounts.from_codes(t_codes, yp_codes, classes, w)
        if isinstance(cc, sparse_counts.PairCounts):  # many classes: pair-coded, no k x k table
            confusion = ConfusionMatrix.from_counts(cc, names)
        else:  # float weight sums out of range: rates read them rescaled
            formula = cc.exact  # exact sums (Python ints in units of 2**-1074): the formulas divide them exactly
            confusion = ConfusionMatrix.from_matrix(classes, cc.matrix, names, formula=formula)
    else:
        confusion = ConfusionMatrix.from_matrix(classes, matrix, names)
    return Evaluation(
        task="binary" if binary else "multiclass",
        labels=classes,
        names=names,
        pos_label=pos,
        name=name,
        threshold=thr,
        score_kind=score_kind,
        n_samples=n,
        total_weight=float(n if w is None else weight_total(w)),
        confusion=confusion,
        rankings=rankings,
        micro=micro,
        beta=beta,
        per_sample=None,
        sample_weight=w,
        notes=notes,
        cases=Cases(t_codes, None if yp is None and s is not None and binary else yp_codes, s, w,
                    pos_index=0 if pos is None else int(np.flatnonzero(classes == pos)[0])),
    )


def _indicator(y: np.ndarray, name: str, L: int) -> np.ndarray:
    if y.ndim != 2 or y.shape[1] != L:
        raise ValueError(f"{name} must be a 0/1 indicator matrix with {L} columns like y_true, got shape {y.shape}.")
    if y.dtype.kind not in "biuf" or not np.isin(unique_sorted(y, name), [0, 1]).all():
        raise ValueError(f"{name} must hold only 0 and 1 (a multilabel indicator matrix).")
    return y != 0


def _evaluate_multilabel(
    yt: np.ndarray,
    yp: np.ndarray | None,
    s: np.ndarray | None,
    labels: Any,
    thr: float | None,
    w: np.ndarray | None,
    beta: float | None,
    target_names: Any,
    name: str | None,
    notes: list[str],
) -> Evaluation:
    L = yt.shape[1]
    t = _indicator(yt, "y_true", L)
    cols = np.arange(L) if labels is None else as_array(labels, "labels").reshape(-1)
    if cols.size != L:
        raise ValueError(f"labels must name the {L} columns of the multilabel y_true, got {cols.size}.")
    names = _names(cols, target_names)
    score_kind = None
    rankings = micro = None
    if s is not None:
        if s.ndim != 2 or s.shape[1] != L:
            raise ValueError(f"y_score must have one column per label, shape ({yt.shape[0]}, {L}), got {s.shape}.")
        score_kind = _score_kind(s)
        if yp is None:
            thr = default_threshold(score_kind) if thr is None else thr
            p = s >= thr
            notes.append(f"Predictions derived from the scores: each label where its score >= {thr:g}.")
        rankings = {
            names[c]: BinaryRanking.from_table(
                ScoreTable._build(t[:, c], np.ascontiguousarray(s[:, c]), _BINARY, w), 1
            )
            for c in range(L)
        }
        micro = merge_rankings(list(rankings.values()))
    if yp is not None:
        p = _indicator(yp, "y_pred", L)
    mc = MultilabelCounts.from_indicators(t, p, w)
    confusion = ConfusionMatrix.from_label_tables(cols, mc.tables, names)
    return Evaluation(
        task="multilabel",
        labels=cols,
        names=names,
        pos_label=None,
        name=name,
        threshold=thr,
        score_kind=score_kind,
        n_samples=yt.shape[0],
        total_weight=float(yt.shape[0] if w is None else weight_total(w)),
        confusion=confusion,
        rankings=rankings,
        micro=micro,
        beta=beta,
        per_sample=mc.per_sample,
        sample_weight=w,
        notes=notes,
        cases=Cases(t, p, s, w),
    )
