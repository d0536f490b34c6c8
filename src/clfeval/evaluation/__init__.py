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

import os
import warnings
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.results.confusion import ConfusionMatrix
from clfeval.statistics.counts import MultilabelCounts
from clfeval.evaluation.build import evaluation_fields
from clfeval.statistics.ranking_merges import merge_rankings
from clfeval.inputs.evaluate_options import EvaluateOptions
from clfeval.inputs.evaluate_arguments import check_threshold, predict_from_scores
from clfeval.evaluation.intervals import band_of, interval_of, interval_tables
from clfeval.evaluation.thresholds import plain_copy, start_threshold_entries, threshold_entries
from clfeval.evaluation.prevalence import at_prevalence_of, checked_prevalence, prevalence_entry, prg_auc_of, prg_entry
from clfeval.evaluation.notebook import evaluation_html
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.uncertainty.influence import Cases
from clfeval.results.intervals import Intervals, intervals_to_plain
from clfeval.support.json_plain import json_safe
from clfeval.results.json_text import json_text
from clfeval.support.thread_pools import thread_pool
from clfeval.results.report import Report, build_report
from clfeval.statistics.rankings import BinaryRanking, BreakEvenPoint, Curve, CurveSet, OperatingPoint, macro_curve, pr_curve_of, roc_curve_of
from clfeval.inputs.score_kind import score_kind as kind_of_scores

if TYPE_CHECKING:  # pragma: no cover
    from clfeval.results.operating_points import ThresholdPoint
    from clfeval.results.threshold_sweep import ThresholdSweep

__all__ = ["evaluate", "Evaluation", "json_safe", "merge_rankings", "predict_from_scores", "intervals_to_plain"]


_PARALLEL_CURVES_MIN = 1 << 25  # micro-average scores from which the curves are built on several threads


@dataclass(frozen=True, eq=False, kw_only=True)
class Evaluation:
    """Everything classic evaluation says about one classifier on one data set.

    Build it with :func:`evaluate` (or a stream's ``result()``); it is immutable: a variant is a
    new Evaluation (:func:`dataclasses.replace`, :meth:`at`). Attributes: ``task``, ``labels``,
    ``names``, ``pos_label``, ``name``, ``threshold``, ``score_kind``, ``n_samples``,
    ``total_weight``, ``confusion``, ``report``, ``roc``, ``pr``, ``break_even``, ``rankings``
    (the score statistics per class), ``micro`` (the micro-averaged ranking of a multi-class or
    multilabel task), ``beta``, ``per_sample`` (multilabel per-sample counts), ``sample_weight``,
    ``notes``, ``cases`` (the coerced inputs, for intervals that need each case; None for a
    stream), ``dependent_rows`` (why the rows are not independent cases, e.g. pooled repeated
    cross-validation; intervals warn with it), ``streamed`` ("weighted"/"unweighted" when built
    from a stream's statistics), ``calibration_state`` (a stream's calibration histogram, or why
    it has none), ``binning`` (binned scores: {curve name: :class:`clfeval.statistics.binning.BinnedBounds`})
    and ``by_group`` (with ``groups=``: each group's Evaluation and the tables that compare them,
    :class:`clfeval.evaluation.groups.GroupEvaluations`; else None).

    Parameters
    ----------
    task : {"binary", "multiclass", "multilabel"}
        The kind of classification problem.
    labels : numpy.ndarray of shape (k,)
        The classes (label columns for multilabel tasks), in the order every table uses.
    names : list of str
        Display name of each label, as the report prints it.
    pos_label : object
        The positive class of a binary task; None for the other tasks, and for a binary task
        of non-numeric labels evaluated from predictions alone.
    name : str or None
        Name of the classifier, shown in reprs and reports.
    threshold : float or None
        Cut applied to the scores when the predictions were derived from them; None when the
        predictions were given.
    score_kind : {"probability", "decision"} or None
        Whether the scores look like probabilities or decision values; None without scores.
    n_samples : int
        Number of rows evaluated.
    total_weight : float
        Sum of the sample weights (``n_samples`` without weights).
    confusion : ConfusionMatrix
        The counts of true against predicted classes.
    rankings : dict of str to BinaryRanking or None
        The score statistics of each class (one-vs-rest), keyed by display name; None without
        scores.
    micro : BinaryRanking, optional
        The micro-averaged ranking of a multi-class or multilabel task; default None.
    beta : float, optional
        Weight of recall in the report's extra F-beta column; default None (F1 only).
    per_sample : numpy.ndarray of shape (n_samples, 3), optional
        Each sample's (tp, fp, fn) over the labels of a multilabel task; default None.
    sample_weight : numpy.ndarray of shape (n_samples,), optional
        The checked sample weights; default None (unweighted).
    notes : list of str, default []
        What was decided while reading the data (e.g. predictions derived from scores).
    cases : Cases, optional
        The coerced inputs, for intervals that resample cases; default None (a stream).
    dependent_rows : str, optional
        Why the rows are not independent cases; default None (they are).
    streamed : {"weighted", "unweighted"}, optional
        Set when built from a stream's statistics; default None.
    calibration_state : object, optional
        A stream's calibration histogram, or a string saying why it has none; default None.
    binning : dict of str to BinnedBounds, optional
        Bounds of the areas when the scores were binned; default None (exact scores).
    by_group : GroupEvaluations, optional
        Each group's Evaluation when built with ``groups=``; default None.
    prevalence : float, optional
        The positive class's share (binary) at which the measures are also reported,
        :meth:`at_prevalence`; default None.
    ovo : OvoCounts, optional
        The U statistics of Hand & Till's M (:class:`clfeval.statistics.class_cells.OvoCounts`): a
        multi-class stream's, or built by :func:`evaluate` with the rankings (multi-class, unweighted);
        default None (read from ``cases``).

    Examples
    --------
    >>> ev = evaluate(["a", "b", "c", "a"], ["a", "b", "b", "a"])
    >>> ev.report.overall["accuracy"]
    0.75
    >>> ev
    Evaluation(task='multiclass', n_samples=4, classes=['a', 'b', 'c'], accuracy=0.7500)
    """

    task: str
    labels: np.ndarray
    names: list[str]
    pos_label: Any
    name: str | None
    threshold: float | None
    score_kind: str | None
    n_samples: int
    total_weight: float
    confusion: ConfusionMatrix
    rankings: dict[str, BinaryRanking] | None
    micro: BinaryRanking | None = None
    beta: float | None = None
    per_sample: np.ndarray | None = None
    sample_weight: np.ndarray | None = None
    notes: list[str] = field(default_factory=list)
    cases: Any = None
    dependent_rows: str | None = None
    streamed: str | None = None
    calibration_state: Any = None
    binning: dict[str, Any] | None = None
    by_group: Any = None
    prevalence: float | None = None
    ovo: Any = None

    @property
    def _sample_weight(self) -> np.ndarray | None:  # the old name, read by tests
        return self.sample_weight

    @property
    def has_scores(self) -> bool:
        return self.rankings is not None

    def __repr__(self) -> str:
        o = self.report.overall
        names = list(self.names)
        shown = repr(names) if len(names) <= 12 else f"[{', '.join(map(repr, names[:10]))}, ... ({len(names)} in all)]"
        bits = [f"task={self.task!r}", f"n_samples={self.n_samples}", f"classes={shown}"]
        if self.name:
            bits.insert(0, f"name={self.name!r}")
        bits.append(f"accuracy={o['accuracy']:.4f}")
        if "roc_auc" in o:
            bits.append(f"roc_auc={o['roc_auc']:.4f}")
        return f"Evaluation({', '.join(bits)})"
    _repr_html_ = evaluation_html  # a notebook's view: confusion matrix, report, areas (clfeval.evaluation.notebook)

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
            from clfeval.formulas.measures import average

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
            if self.micro is not None:
                areas["micro"] = {
                    "roc_auc": self.micro.roc_auc,
                    "average_precision": self.micro.average_precision,
                }
            if self.task == "binary":
                i = self.positive_index
                headline = {"roc_auc": float(auc[i]), "average_precision": float(ap[i])}
            else:
                headline = {"roc_auc": areas["macro"]["roc_auc"], "average_precision": areas["macro"]["average_precision"]}
                from clfeval.evaluation.hand_till import ovo_areas

                headline.update(ovo_areas(self))  # Hand & Till's M: multi-class with rows held
            kwargs = dict(roc_auc=auc, average_precision=ap, area_averages=areas, headline=headline)
        report = build_report(
            self.confusion,
            beta=self.beta,
            per_sample=self.per_sample,
            sample_weight=self.sample_weight,
            notes=self.notes,
            **kwargs,
        )
        undefined = report.notes[len(self.notes):]
        if undefined:
            warnings.warn(
                " ".join(undefined), UndefinedMetricWarning, stacklevel=3
            )
        return report

    def _operating_points(self, kind: str) -> dict[str, OperatingPoint]:
        pc = {k: v.astype(np.float64) for k, v in self.confusion.per_class().items()}
        thr = self.threshold if self.task != "multiclass" else None
        from clfeval.formulas.measures import fallout, precision, recall

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
        assert self.micro is not None
        # the micro curve (the longest) first, then one per class; on several threads when large
        # (numpy releases the GIL in the sums and divisions)
        jobs = [(self.micro, "micro", ops["micro"], None)]
        jobs += [(r, n, ops[n], lab) for (n, r), lab in zip(self.rankings.items(), self.labels.tolist())]
        workers = min(os.cpu_count() or 1, 8)
        if workers > 1 and self.micro.scores.size >= _PARALLEL_CURVES_MIN:
            built = list(thread_pool("curves", workers).map(lambda job: build(*job), jobs))
        else:
            built = [build(*job) for job in jobs]
        curves = {c.name: c for c in built[1:]}
        curves["micro"] = built[0]
        curves["macro"] = macro_curve(built[1:], "macro")
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
            return self.micro
        if curve not in self.rankings:
            raise KeyError(f"no curve named {curve!r}; the curves are {[*self.rankings, 'micro', 'macro']}.")
        return self.rankings[curve]

    def _main_ranking(self) -> BinaryRanking:
        assert self.rankings is not None
        if self.task == "binary":
            return self.rankings[self._main_name()]
        assert self.micro is not None
        return self.micro

    # -- thresholds: operating points, predictions at a threshold, the sweep ----------------------

    def class_curve(self, curve: str | None, what: str = "threshold view") -> tuple[str, int]:
        """(name, index) of the class whose scores a threshold view (``what``, named in errors)
        thresholds: binary, the positive class (``curve`` None or its name); otherwise ``curve``,
        a class / label name (one-vs-rest).

        >>> evaluate([0, 1, 1], y_score=[0.2, 0.9, 0.6]).class_curve(None)
        ('1', 1)
        """
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
        :mod:`clfeval.results.operating_points` for the tie rule). Binary: the positive class (the
        costs in the evaluation's label order); multi-class and multilabel: ``curve=`` names
        the class, one-vs-rest (labels [rest, class]). Apply it with ``ev.at(p.threshold)``.

        >>> ev = evaluate([0, 0, 1, 1, 0, 1], y_score=[0.1, 0.4, 0.35, 0.8, 0.5, 0.9])
        >>> p = ev.operating_point("youden")
        >>> p.threshold, round(p.value, 4), p.confusion.counts.tolist()
        (0.8, 0.6667, [[3, 0], [1, 2]])
        """
        from clfeval.results.operating_points import find_operating_point

        name, c = self.class_curve(curve, "operating point")
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
        columns (default all; see :data:`clfeval.results.threshold_sweep.SWEEP_COLUMNS`); ``beta``
        (default: the evaluation's) adds an "fbeta" column.

        >>> ev = evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
        >>> s = ev.threshold_sweep(["tp", "fp", "f1"])
        >>> s.column("threshold").tolist(), s.column("tp").tolist(), s.column("fp").tolist()
        ([inf, 0.8, 0.4, 0.35, 0.1], [0, 1, 1, 2, 2], [0, 0, 1, 1, 2])
        """
        from clfeval.results.threshold_sweep import threshold_sweep_of

        name, _ = self.class_curve(curve, "threshold sweep")
        assert self.rankings is not None
        return threshold_sweep_of(self.rankings[name], metrics, thresholds,
                                  beta if beta is not None else self.beta, curve=name)

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
            thr = check_threshold(threshold)
            if thr is None:
                raise TypeError("threshold must be a number, got None.")
        if self.task == "multilabel" and curve is None:
            return self._multilabel_at(thr)
        name, c = self.class_curve(curve, "predictions at a threshold")
        assert self.rankings is not None
        weighted = self.sample_weight is not None or self.streamed == "weighted"
        if self.task == "binary":
            cases = None if self.cases is None else replace(self.cases, pred=None)
            ranking, rankings = self.rankings[name], self.rankings
            labels, names, pos_label, score_kind, pos_index = self.labels, self.names, self.pos_label, self.score_kind, c
            notes = [n for n in self.notes if not n.startswith("Predictions derived from the scores")]
        else:  # one class against the rest
            ranking = self.rankings[name]
            (labels, names), pos_index = self._rest_labels(name, c), 1
            pos_label = labels[1]
            if self.cases is None:  # built from statistics (a stream)
                cases, score_kind = None, self.score_kind
            else:
                column = self.cases.column(c)
                cases = Cases(self.cases.is_positive(c).astype(np.intp), None, column, self.cases.weight,
                              pos_index=1)
                score_kind = kind_of_scores(column)
            rest = ranking.reversed()  # with integer counts it reads the AUC of ranking (bitwise the same)
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
            beta=self.beta, per_sample=None, sample_weight=self.sample_weight, notes=notes, cases=cases,
            dependent_rows=self.dependent_rows, streamed=self.streamed,
            prevalence=self.prevalence if self.task == "binary" else None,
        )  # with groups: each group at the same threshold
        return out if self.by_group is None else replace(out, by_group=self.by_group.at(out, thr, curve))

    def _multilabel_at(self, thr: float) -> Evaluation:
        """Every label of a multilabel evaluation predicted where its score >= ``thr``."""
        cases = self.cases
        if cases is None or cases.scores is None:
            raise ValueError("this multilabel evaluation does not hold its scores, so it cannot be "
                             "re-thresholded; evaluate again with threshold=.")
        pred = cases.scores >= thr
        mc = MultilabelCounts.from_indicators(cases.true, pred, self.sample_weight)
        notes = [n for n in self.notes if not n.startswith("Predictions derived from the scores")]
        notes.append(f"Predictions derived from the scores: each label where its score >= {thr:g}.")
        return Evaluation(
            task="multilabel", labels=self.labels, names=self.names, pos_label=None, name=self.name,
            threshold=thr, score_kind=self.score_kind, n_samples=self.n_samples, total_weight=self.total_weight,
            confusion=ConfusionMatrix.from_label_tables(self.labels, mc.tables, self.names),
            rankings=self.rankings, micro=self.micro, beta=self.beta, per_sample=mc.per_sample,
            sample_weight=self.sample_weight, notes=notes, cases=replace(cases, pred=pred),
            dependent_rows=self.dependent_rows,
        )

    # -- costs --------------------------------------------------------------------------------------

    def expected_cost(self, costs: Any, *, prevalence: Any = None) -> float:
        """Expected cost per sample of the predictions under a (k, k) cost matrix in label order
        (rows true, columns predicted); ``prevalence``: class shares to weigh the per-class
        rates by instead of the data's mix (see :func:`clfeval.costs.expected_cost`).

        >>> evaluate([0, 0, 1, 1], [0, 1, 0, 1]).expected_cost([[0, 1], [5, 0]])
        1.5
        """
        from clfeval.results.cost_curves import expected_cost

        return float(expected_cost(self._label_confusion(), costs, prevalence=prevalence))

    def cost_sensitive_error_rate(self, costs: Any, *, prevalence: Any = None) -> float:
        """Expected cost relative to always paying the worst price (the error rate under 0/1
        costs; see :func:`clfeval.costs.cost_sensitive_error_rate`).

        >>> evaluate([0, 0, 1, 1], [0, 1, 0, 1]).cost_sensitive_error_rate([[0, 1], [1, 0]])
        0.5
        """
        from clfeval.results.cost_curves import cost_sensitive_error_rate

        return float(cost_sensitive_error_rate(self._label_confusion(), costs, prevalence=prevalence))

    def _label_confusion(self) -> np.ndarray:
        if self.task == "multilabel":
            raise ValueError("a cost matrix is over the classes of one label; for multilabel, evaluate each "
                             "label (ev.at(threshold, curve=label)) and cost it on its own.")
        return np.asarray(self.confusion.counts)

    def _cost_line(self, c: int) -> Any:
        """The cost-curve line of the current predictions of class index ``c`` (one-vs-rest)."""
        from clfeval.results.cost_curves import CostLine

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
        from clfeval.results.cost_curves import cost_curve_of

        name, c = self.class_curve(curve, "cost curve")
        assert self.rankings is not None
        return cost_curve_of(self.rankings[name], operating_line=self._cost_line(c), pos_label=name)

    def cost_curve_dict(self, *, curve: str | None = None, max_lines: int | None = 2000) -> dict[str, Any]:
        """``cost_curve(curve=curve).to_dict(max_lines)``, reading only the lines it keeps (fast on many scores).

        >>> evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8]).cost_curve_dict()["envelope_nec"]
        [0.0, 0.25, 0.0]
        """
        from clfeval.results.cost_curves import cost_curve_dict

        name, c = self.class_curve(curve, "cost curve")
        assert self.rankings is not None
        return cost_curve_dict(self.rankings[name], operating_line=self._cost_line(c), max_lines=max_lines)

    def decision_curve(self, thresholds: Any = None, *, curve: str | None = None) -> Any:
        """Decision curve (net benefit against threshold probability) of one class's predicted
        probabilities (binary: the positive class; else ``curve=``); decision values are refused.

        >>> dc = evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8]).decision_curve([0.2, 0.5])
        >>> dc.net_benefit.tolist()
        [0.4375, 0.25]
        """
        from clfeval.results.cost_curves import decision_curve_of, require_probabilities

        name, c = self.class_curve(curve, "decision curve")
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
        With smooth ECE and the CORP diagram and decomposition of the headline view
        (:mod:`clfeval.calibration.modern`; exact, except over bins for a multi-class or binned stream).

        >>> ev = evaluate([0, 0, 1, 1, 1, 0], y_score=[0.1, 0.3, 0.8, 0.9, 0.6, 0.6])
        >>> c = ev.calibration(5)
        >>> round(c.ece, 6), round(c.brier, 6), c.mode
        (0.15, 0.111667, 'binary')
        """
        key = ("calibration", int(n_bins), strategy)
        cache = self.__dict__.setdefault("_calibration_cache", {})
        if key not in cache:
            from clfeval.calibration.of_evaluation import calibration_report

            cache[key] = calibration_report(self, n_bins, strategy)
        elif isinstance(cache[key], Future):  # started by start_calibration: wait for it
            cache[key] = cache[key].result()
        return cache[key]

    def start_calibration(self, n_bins: int = 15, *, strategy: str = "uniform") -> None:
        """Start :meth:`calibration` with these arguments on the package's worker thread (numpy
        releases the GIL), for an output that needs it later: the next ``calibration()`` call with
        them waits for it (and raises what it raised). Call it from one thread only.

        >>> ev = evaluate([0, 0, 1, 1, 1, 0], y_score=[0.1, 0.3, 0.8, 0.9, 0.6, 0.6])
        >>> ev.start_calibration(5)
        >>> round(ev.calibration(5).ece, 6)
        0.15
        """
        key = ("calibration", int(n_bins), strategy)
        cache = self.__dict__.setdefault("_calibration_cache", {})
        if key not in cache:
            from clfeval.calibration.of_evaluation import calibration_report
            from clfeval.statistics.counts import worker_pool

            cache[key] = worker_pool().submit(calibration_report, self, n_bins, strategy)

    def smooth_ece_interval(self, level: float = 0.95, *, n_resamples: int = 1000, seed: Any = 0,
                            sampling: str = "cross-sectional", kind: str | None = None) -> Any:
        """Bootstrap interval of ``calibration().smooth_ece`` (see
        :func:`clfeval.calibration.of_evaluation.smooth_ece_interval_of`; ``kind`` None: the default kind of
        :func:`clfeval.uncertainty.calibration_intervals.smooth_ece_interval`)."""
        from clfeval.calibration.of_evaluation import smooth_ece_interval_of

        return smooth_ece_interval_of(self, level, n_resamples=n_resamples, seed=seed, sampling=sampling, kind=kind)

    def corp_interval(self, measure: str, score: str = "brier", level: float = 0.95, *, n_resamples: int = 1000,
                      seed: Any = 0, sampling: str = "cross-sectional", kind: str | None = None) -> Any:
        """Bootstrap interval of CORP's miscalibration (``measure="mcb"``) or discrimination ("dsc")
        of ``calibration().corp``, Brier or log ``score`` (see
        :func:`clfeval.calibration.of_evaluation.corp_interval_of`; ``kind`` None: the default kind of
        :func:`clfeval.uncertainty.calibration_intervals.corp_interval`)."""
        from clfeval.calibration.of_evaluation import corp_interval_of

        return corp_interval_of(self, measure, score, level, n_resamples=n_resamples, seed=seed, sampling=sampling,
                                kind=kind)

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
        :func:`clfeval.uncertainty.area_intervals.ranking_area_intervals` say what each is. ``sampling``: how
        the test set was drawn, which the bootstrap repeats: "cross-sectional" (the default: cases
        drawn whatever their class, so the prevalence varies between test sets) or "stratified"
        (so many cases of each class, by design); see :mod:`clfeval.uncertainty.resampling`. The result is
        :func:`clfeval.uncertainty.confusion_intervals`' dict; with scores, "roc_auc" and
        "average_precision" are added to "per_class" (and to "averages" where the report has them).
        Cached per arguments. The dict is an :class:`~clfeval.results.intervals.Intervals`: printed,
        it lists one number per row (estimate, interval, standard error, method); ``to_frame()``
        gives the same rows as a pandas DataFrame.

        >>> ev = evaluate([0, 0, 1, 1, 1, 0, 1, 0], [0, 1, 1, 1, 0, 0, 1, 0])
        >>> ci = ev.intervals()["overall"]["accuracy"]
        >>> round(ci.low, 4), round(ci.high, 4), ci.method
        (0.4093, 0.9285, 'Wilson score')
        """
        from clfeval.uncertainty.resampling import check_sampling

        key = (float(level), method, int(n_resamples), seed, check_sampling(sampling))
        cache = self.__dict__.setdefault("_intervals_cache", {})
        if key not in cache:
            cache[key] = Intervals(interval_tables(self, *key))
        return cache[key]

    def partial_auc(self, fpr_range: Any = None, tpr_range: Any = None, *, standardized: bool = True,
                    level: float = 0.95, curve: str | None = None) -> Any:
        """Partial ROC area over ``fpr_range=(a, b)`` or ``tpr_range=(a, b)`` (McClish-standardised by
        default) of the main curve or ``curve`` (a class, one-vs-rest, or "micro"), as a
        ConfidenceInterval with ``estimate`` and ``standard_error`` (DeLong-type; read off the
        rankings: :mod:`clfeval.uncertainty.partial_auc_intervals`).

        >>> ci = evaluate([0, 0, 1, 1, 0, 1], y_score=[0.1, 0.4, 0.35, 0.8, 0.2, 0.9]).partial_auc((0, 0.5))
        >>> round(ci.estimate, 4), round(ci.standard_error, 4)
        (0.8519, 0.2095)
        """
        from clfeval.evaluation.partial_areas import partial_auc_of

        return partial_auc_of(self, fpr_range, tpr_range, standardized=standardized, level=level, curve=curve)

    def at_prevalence(self, prevalence: float | None = None, *, level: float | None = 0.95) -> Any:
        """A binary evaluation's PPV, NPV, F-beta, accuracy and MCC at prevalence ``prevalence`` (default:
        ``evaluate(..., prevalence=)``'s) from its TPR and FPR, with intervals at ``level`` (None: none),
        and AP and the PR curve at it (calibrated precision): a
        :class:`~clfeval.results.prevalence.AtPrevalence` (see :mod:`clfeval.evaluation.prevalence`).

        >>> evaluate([0, 0, 1, 1], [0, 1, 1, 1]).at_prevalence(0.2, level=None)["precision"]
        0.3333333333333333
        """
        return at_prevalence_of(self, prevalence, level)

    def prg_auc(self, *, curve: str | None = None, level: float = 0.95) -> Any:
        """Area under the precision-recall-gain curve (Flach & Kull 2015) of the positive class's
        scores (``curve``: a class, one against the rest), as a ConfidenceInterval (``estimate``).

        >>> round(evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8]).prg_auc().estimate, 4)
        0.25
        """
        return prg_auc_of(self, curve, level)

    def band(self, kind: str = "roc", curve: str | None = None, *, grid: Any = None, level: float = 0.95,
             n_resamples: int = 2000, seed: Any = 0) -> Any:
        """Pointwise bootstrap confidence band of a ROC (``kind="roc"``: TPR at each FPR of
        ``grid``) or PR curve (precision at each recall), resampling the score cells.

        ``curve``: a class name or "micro" (default: the main curve). Long rankings are grouped
        into evenly spread score groups first (see :mod:`clfeval.uncertainty.area_intervals`).

        >>> ev = evaluate([0, 1, 1, 0, 1, 0, 1, 0], y_score=[.1, .9, .7, .3, .6, .4, .2, .8])
        >>> b = ev.band("roc", grid=[0.0, 0.5, 1.0], n_resamples=200)
        >>> b.estimate.tolist()
        [0.25, 0.75, 1.0]
        """
        return band_of(self, kind, curve, grid, level, n_resamples, seed)

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
        "balanced_accuracy", "mcc", "kappa"; multi-class scores: "ovo_auc", "ovo_auc_weighted").
        Per-class columns need ``label`` (a class) or
        ``average`` ("micro", "macro", "weighted"); for a binary task they default to the
        positive class.

        >>> ev = evaluate(["n", "p", "p", "n", "p"], ["n", "p", "n", "n", "p"], pos_label="p")
        >>> ci = ev.ci("recall")
        >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
        (0.6667, 0.2077, 0.9385)
        """
        data = self.intervals(level, method=method, n_resamples=n_resamples, seed=seed, sampling=sampling)
        return interval_of(self, data, metric, label=label, average=average)

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
        from clfeval import __version__

        start_threshold_entries(self)  # the calibration, on the worker thread while this one reads the report
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
            "main_curve": None if self.rankings is None else self._main_name(),  # roc.main_name, without the curves
            "break_even": None if self.break_even is None else self.break_even.to_dict(),
            **self.thresholds_dict(costs=costs, prevalence=prevalence),
            **({} if ci_level is None else {"intervals": self.intervals_dict(ci_level, method=ci_method)}),
            **({} if self.binning is None else {"binning": {k: b.to_dict() for k, b in self.binning.items()}}),
            **({} if self.by_group is None else {"groups": self.by_group.to_dict(ci=ci_level, method=ci_method)}),
            **prevalence_entry(self, ci_level, max_points),
            **prg_entry(self, ci_level),
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
            return threshold_entries(self, costs, prevalence, max_lines, n_bins)
        cache = self.__dict__.setdefault("_thresholds_cache", {})
        if key not in cache:  # the CLI prints and writes the same entries
            cache[key] = threshold_entries(self, costs, prevalence, max_lines, n_bins)
        return plain_copy(cache[key])  # the caller's to change

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
        text = json_text(data, indent)  # json.dumps(json_safe(data), indent=indent, allow_nan=False), faster
        if path is not None:
            from clfeval.support.atomic import atomic_write

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
        from clfeval.report.html import write_html

        return write_html(path, [self if costs is None else self.to_dict(costs=costs, prevalence=prevalence)],
                          title=title)


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
    options: EvaluateOptions | None = None,
    groups: Any = None,
    group_missing: str = "error",
    prevalence: float | None = None,
) -> Evaluation:
    """Evaluate a classifier from its predictions, its scores, or both.

    * ``y_score``: 1-D scores of ``pos_label`` (binary), (n, 2) binary or (n, k) multi-class
      scores/probabilities with columns in label order, or (n, L) for a multilabel y_true.
    * Without ``y_pred``, predictions come from the scores: binary and multilabel
      ``score >= threshold`` (default 0.5 for probabilities, 0 for decision values), multi-class
      the highest-scoring column.
    * ``labels``: the classes and their order (a superset of those present; for multilabel,
      names of the L columns). ``target_names``: display names. ``beta``: adds an F-beta column.
    * ``options``: all of ``labels``, ``pos_label``, ``threshold``, ``beta``, ``target_names`` and
      ``name`` as one :class:`~clfeval.inputs.evaluate_options.EvaluateOptions` (checked once; the
      same object a :class:`~clfeval.streaming.StreamingEvaluation` or :func:`clfeval.dask.evaluate`
      takes), instead of the keywords.
    * ``groups``: evaluate each slice too (one array, or several as a mapping name -> array or a
      DataFrame: each combination of values present is a group); the result's ``by_group`` holds
      each group's Evaluation and the tables that compare them (:mod:`clfeval.evaluation.groups`).
      ``group_missing="keep"`` makes missing group values a group of their own (default: an error).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes, or a multilabel indicator matrix.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels), optional
        Predicted classes. Default None: derived from ``y_score`` (one of the two is needed).
    y_score : array-like of shape (n_samples,) or (n_samples, n_columns), optional
        Scores or probabilities, shaped as described above; they add the ranking measures
        (ROC AUC, average precision, curves). Default None.
    labels : array-like, optional
        The classes and their order, or the names of the multilabel columns. Default None: the
        sorted classes present.
    pos_label : object, optional
        The positive class of a binary task. Default None: 1 for labels {0, 1} or {-1, 1};
        with other labels and two score columns, the second of the sorted classes (with a
        note); a single score column of such labels needs it.
    threshold : float, optional
        Cut of binary and multilabel scores when predictions are derived from them. Default
        None: 0.5 for probabilities, 0 for decision values.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weight of each row; default None (each row counts once).
    beta : float, optional
        Adds an F-beta column to the report (recall weighted ``beta`` times as much as
        precision); default None.
    target_names : list of str, optional
        Display names of the classes, in the order of ``labels``; default None (the labels
        as strings).
    name : str, optional
        Name of the classifier, shown in reprs and reports; default None.
    options : EvaluateOptions, optional
        The six options above as one object, instead of the keywords; default None.
    groups : array-like, mapping or DataFrame, optional
        Group membership of each row, for per-group evaluations; default None.
    group_missing : {"error", "keep"}, default "error"
        Whether a missing group value is an error or a group of its own.
    prevalence : float, optional
        Binary tasks: the positive class's share where the model is used (0 < pi < 1); the
        measures are then also reported at it (:meth:`Evaluation.at_prevalence`, the "at_prevalence"
        entry of :meth:`Evaluation.to_dict`). Default None.

    Returns
    -------
    Evaluation
        The confusion matrix, report, curves and areas of the classifier on these rows (with
        ``by_group`` filled when ``groups`` is given).

    Examples
    --------
    >>> ev = evaluate([1, 0, 1, 1], [1, 0, 0, 1])
    >>> ev.confusion.counts.tolist(), round(ev.report.overall["mcc"], 4)
    ([[1, 0], [1, 2]], 0.5774)
    >>> ev = evaluate([0, 0, 1, 1, 1], y_score=[0.2, 0.6, 0.4, 0.7, 0.9], name="model")
    >>> ev
    Evaluation(name='model', task='binary', n_samples=5, classes=['0', '1'], accuracy=0.6000, roc_auc=0.8333)
    >>> evaluate(["a", "b", "a", "b"], ["a", "b", "b", "b"], groups=["x", "x", "y", "y"]).by_group
    GroupEvaluations(2 groups by group: x, y)
    """
    options = EvaluateOptions.of(options, labels=labels, pos_label=pos_label, threshold=threshold, beta=beta,
                                 target_names=target_names, name=name, prevalence=prevalence)
    built = evaluation_fields(y_true, y_pred, y_score, sample_weight=sample_weight, options=options)
    ev = Evaluation(**built, prevalence=checked_prevalence(built["task"], options.prevalence))
    if groups is None:
        return ev
    from clfeval.evaluation.groups import with_groups

    return with_groups(ev, Evaluation, groups, group_missing, y_true, y_pred, y_score, options)
