"""What :func:`clfeval.evaluate` does before the :class:`~clfeval.evaluation.Evaluation` is made:
check the inputs, resolve the classes and the positive class, and build the sufficient statistics
(the confusion matrix, and with scores one ranking per class) in one pass.

:func:`evaluation_statistics` returns the statistics of single-label rows (what a stream adds per
batch); :func:`evaluation_fields` returns the Evaluation's constructor arguments (those statistics,
the micro-averaged ranking and the confusion matrix); :mod:`clfeval.evaluation` makes the Evaluation
of them (this module does not import it, so that it need not import this one
back). The micro average of rankings is :func:`clfeval.statistics.ranking_merges.merge_rankings`.

>>> evaluation_fields([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])["threshold"]
0.5
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.statistics import sparse_counts
from clfeval.results.confusion import ConfusionMatrix
from clfeval.statistics.counts import ConfusionCounts, MultilabelCounts
from clfeval.inputs.evaluate_arguments import (
    first_outside,
    indicator_matrix,
    label_names,
    resolve_labels,
    resolve_pos_label,
)
from clfeval.formulas.exact_sums import weight_total
from clfeval.exceptions import ValuesError
from clfeval.uncertainty.influence import Cases
from clfeval.inputs.evaluate_options import EvaluateOptions
from clfeval.inputs.labels import as_array, as_score_array, check_finite_labels, check_sample_weight, encode
from clfeval.statistics.rankings import BinaryRanking
from clfeval.statistics.ranking_merges import merge_rankings
from clfeval.statistics.class_cells import OvoCounts
from clfeval.inputs.score_kind import default_threshold, score_kind as kind_of_scores
from clfeval.statistics.scores import ScoreTable, one_vs_rest_columns

__all__ = ["evaluation_fields", "evaluation_statistics", "EvaluationStatistics", "binary_rankings",
           "NO_OPTIONS", "check_ranked_weight_total"]

_BINARY = np.array([False, True])
NO_OPTIONS = EvaluateOptions()  # evaluate()'s defaults


def binary_rankings(
    is_pos: np.ndarray,
    pos_scores: np.ndarray,
    neg_scores: np.ndarray | None,
    w: np.ndarray | None,
    names: list[str],
    pos_index: int,
) -> dict[str, BinaryRanking]:
    """The rankings of both classes of a binary task, by class name in label order: the positive
    class's from ``pos_scores``, the other's from ``neg_scores`` (its own column) or, for 1-D
    scores (``neg_scores`` None), the positive ranking reversed."""
    pos = BinaryRanking.from_table(ScoreTable.from_validated(is_pos, pos_scores, _BINARY, w), 1)
    if neg_scores is None:
        neg = pos.reversed()  # with integer counts it reads the AUC of pos (bitwise the same)
    else:
        neg = BinaryRanking.from_table(ScoreTable.from_validated(~is_pos, neg_scores, _BINARY, w), 1)
    pair = [neg, pos] if pos_index == 1 else [pos, neg]
    return dict(zip(names, pair))


@dataclass(frozen=True, eq=False)
class EvaluationStatistics:
    """The sufficient statistics of single-label rows, as :func:`clfeval.evaluate` builds them
    (what a stream adds per batch): the classes, the confusion counts (``counts``: a dense
    :class:`~clfeval.statistics.counts.ConfusionCounts`, or a pair-coded
    :class:`~clfeval.statistics.sparse_counts.PairCounts` for many classes), one
    :class:`~clfeval.statistics.rankings.BinaryRanking` per class name with scores, the notes, and the coerced
    rows (``cases``) for what needs each row. No micro-averaged ranking, no confusion-matrix views."""

    task: str
    labels: np.ndarray
    names: list[str]
    pos_label: Any
    threshold: float | None
    score_kind: str | None
    n_samples: int
    total_weight: float
    counts: ConfusionCounts | sparse_counts.PairCounts
    rankings: dict[str, BinaryRanking] | None
    notes: list[str]
    cases: Cases
    ovo: Any = None  # multi-class, unweighted, with scores: the OvoCounts of Hand & Till's M

    @property
    def positive_index(self) -> int:
        """The positive class's index in ``labels`` (1 when there is none), as the Evaluation's."""
        return int(np.flatnonzero(self.labels == self.pos_label)[0]) if self.pos_label is not None else 1


def evaluation_statistics(
    y_true: Any,
    y_pred: Any = None,
    y_score: Any = None,
    *,
    sample_weight: Any = None,
    options: EvaluateOptions = NO_OPTIONS,
) -> EvaluationStatistics:
    """The statistics :func:`clfeval.evaluate` builds from single-label rows, after the same
    checks (same messages), without making the Evaluation (see :func:`evaluation_fields`).
    Multilabel rows (a 2-D indicator ``y_true``) are refused.

    >>> st = evaluation_statistics([0, 1, 1], y_score=[0.2, 0.9, 0.4])
    >>> st.task, st.threshold, st.counts.matrix.tolist(), list(st.rankings)
    ('binary', 0.5, [[1, 0], [1, 1]], ['0', '1'])
    """
    yt, yp, s, w = _checked_rows(y_true, y_pred, y_score, options.threshold, sample_weight)
    if yt.ndim == 2 and yt.shape[1] > 1:
        raise ValueError("multilabel y_true (a 2-D indicator matrix) has no single-label statistics; "
                         "use clfeval.evaluate.")
    return _single_label_statistics(yt, yp, s, w, options)


def evaluation_fields(
    y_true: Any,
    y_pred: Any = None,
    y_score: Any = None,
    *,
    sample_weight: Any = None,
    options: EvaluateOptions = NO_OPTIONS,
) -> dict[str, Any]:
    """The constructor arguments of the :class:`~clfeval.evaluation.Evaluation` that
    :func:`clfeval.evaluate` returns (see there for the arguments): the inputs checked, the
    classes and positive class resolved, and the statistics built in one pass
    (:func:`evaluation_statistics`), with the micro-averaged ranking and the confusion matrix.

    >>> f = evaluation_fields([0, 1, 1], [0, 1, 0])
    >>> f["task"], f["confusion"].counts.tolist()
    ('binary', [[1, 0], [1, 1]])
    """
    yt, yp, s, w = _checked_rows(y_true, y_pred, y_score, options.threshold, sample_weight)
    if yt.ndim == 2 and yt.shape[1] > 1:
        return _multilabel_fields(yt, yp, s, w, options, [])
    st = _single_label_statistics(yt, yp, s, w, options)
    cc = st.counts
    if isinstance(cc, sparse_counts.PairCounts):  # many classes: pair-coded, no k x k table
        confusion = ConfusionMatrix.from_counts(cc, st.names)
    else:  # float weight sums out of range: rates read them rescaled
        # exact sums (Python ints in units of 2**-1074): the formulas divide them exactly
        confusion = ConfusionMatrix.from_matrix(st.labels, cc.matrix, st.names, formula=cc.exact)
    micro = None
    if st.rankings is not None and st.task == "multiclass":
        micro = merge_rankings(list(st.rankings.values()))
    return dict(
        task=st.task,
        labels=st.labels,
        names=st.names,
        pos_label=st.pos_label,
        name=options.name,
        threshold=st.threshold,
        score_kind=st.score_kind,
        n_samples=st.n_samples,
        total_weight=st.total_weight,
        confusion=confusion,
        rankings=st.rankings,
        micro=micro,
        beta=options.beta,
        per_sample=None,
        sample_weight=w,
        notes=st.notes,
        cases=st.cases,
        ovo=st.ovo,
    )


def check_ranked_weight_total(total: float, n_rows: int, largest: float | None = None) -> None:
    """Refuse float weights whose total passes the float64 range when there are scores: the
    rankings keep float64 running sums of the weights (thresholds, curves and operating points
    read them), which would overflow. The predictions alone are counted exactly, and so are the
    drop-in metrics; dividing every weight by 2**bits(n) brings any total back in range.

    >>> check_ranked_weight_total(1e308, 4)
    >>> check_ranked_weight_total(float("inf"), 4)
    Traceback (most recent call last):
    ...
    clfeval.exceptions.ValuesError: sample_weight sums past the float64 range (1.8e308), which scores cannot be ranked with; divide every weight by the same number (2**3 is enough): rates and areas do not change.
    """
    if np.isfinite(total):
        return
    raise ValuesError(
        "sample_weight sums past the float64 range (1.8e308), which scores cannot be ranked with; "
        f"divide every weight by the same number (2**{int(n_rows).bit_length()} is enough): rates and "
        "areas do not change.",
        argument="sample_weight", kind="sum-overflow", value=largest,
    )


def _checked_rows(
    y_true: Any, y_pred: Any, y_score: Any, threshold: float | None, sample_weight: Any
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """The checks evaluate makes of the rows before it looks at the classes (the options were
    checked when they were made): (y_true, y_pred, y_score, sample_weight) coerced."""
    if y_pred is None and y_score is None:
        raise ValueError("evaluate needs y_pred, y_score or both; got neither.")
    if threshold is not None and y_pred is not None:
        raise ValueError(
            "pass threshold or y_pred, not both: threshold turns y_score into predictions, "
            "which y_pred already are."
        )
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
    if s is not None and w is not None and w.dtype.kind == "f":
        with np.errstate(over="ignore"):
            check_ranked_weight_total(float(w.sum()), n, float(w.max()))
    return yt, yp, s, w


def _single_label_statistics(
    yt: np.ndarray,
    yp: np.ndarray | None,
    s: np.ndarray | None,
    w: np.ndarray | None,
    options: EvaluateOptions,
) -> EvaluationStatistics:
    """:func:`evaluation_statistics` of checked rows (``yt`` not a multilabel matrix)."""
    thr, labels, pos_label, target_names = options.threshold, options.labels, options.pos_label, options.target_names
    n = yt.shape[0]
    notes: list[str] = []
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
    classes = resolve_labels(yt, yp, labels, pos_label, n_columns)
    t_codes = encode(yt, classes)
    if t_codes.size and t_codes.min() < 0:
        raise first_outside(yt, t_codes, classes, "y_true")
    k = classes.size
    names = label_names(classes, target_names)
    binary = k <= 2 and (n_columns is None or n_columns <= 2)
    if s is not None and k < 2:
        raise ValuesError(
            f"y_true has a single class ({classes.tolist()}) and no other class is named: pass "
            "labels=[negative, positive] (or pos_label) so the scores can be read.",
            argument="y_true", kind="one-class", allowed=classes.tolist(),
        )
    pos = None
    score_kind = None if s is None else kind_of_scores(s)
    if binary and k == 2 and (s is not None or pos_label is not None or classes.dtype.kind in "biuf"):
        try:
            pos = resolve_pos_label(classes, pos_label, s is not None and s.ndim == 1, notes)
        except ValueError:
            if s is not None:
                raise
    rankings = ovo_u = None
    if s is not None:
        if binary:
            pos_index = int(np.flatnonzero(classes == pos)[0])
            is_pos = t_codes == pos_index
            if s.ndim == 1:
                pos_scores, neg_scores = s, None
            else:
                pos_scores, neg_scores = s[:, pos_index], s[:, 1 - pos_index]
            rankings = binary_rankings(is_pos, pos_scores, neg_scores, w, names, pos_index)
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
            # one packed sort per column (threads across columns) gives its one-vs-rest table and,
            # unweighted, the U statistics of Hand & Till's M
            tables, ovo_u = one_vs_rest_columns(t_codes, s, k, w)
            rankings = {names[c]: BinaryRanking.from_table(table, 1) for c, table in enumerate(tables)}
    if yp is not None:
        yp_codes = encode(yp, classes)
        if yp_codes.size and yp_codes.min() < 0:
            raise first_outside(yp, yp_codes, classes, "y_pred")
    if yp is not None or not binary or (w is not None and w.dtype.kind in "iu"):
        counts = ConfusionCounts.from_codes(t_codes, yp_codes, classes, w)
    else:
        counts = ConfusionCounts(classes, matrix)
    return EvaluationStatistics(
        task="binary" if binary else "multiclass",
        labels=classes,
        names=names,
        pos_label=pos,
        threshold=thr,
        score_kind=score_kind,
        n_samples=n,
        total_weight=float(n if w is None else weight_total(w)),
        counts=counts,
        rankings=rankings,
        notes=notes,
        cases=Cases(t_codes, None if yp is None and s is not None and binary else yp_codes, s, w,
                    pos_index=0 if pos is None else int(np.flatnonzero(classes == pos)[0])),
        ovo=None if ovo_u is None else OvoCounts(ovo_u, np.bincount(t_codes, minlength=k)[:k].astype(np.float64)),
    )


def _multilabel_fields(
    yt: np.ndarray,
    yp: np.ndarray | None,
    s: np.ndarray | None,
    w: np.ndarray | None,
    options: EvaluateOptions,
    notes: list[str],
) -> dict[str, Any]:
    """:func:`evaluation_fields` of a multilabel y_true (an (n, L) indicator matrix)."""
    labels, thr, target_names = options.labels, options.threshold, options.target_names
    L = yt.shape[1]
    t = indicator_matrix(yt, "y_true", L)
    cols = np.arange(L) if labels is None else as_array(labels, "labels").reshape(-1)
    if cols.size != L:
        raise ValueError(f"labels must name the {L} columns of the multilabel y_true, got {cols.size}.")
    names = label_names(cols, target_names)
    score_kind = None
    rankings = micro = None
    if s is not None:
        if s.ndim != 2 or s.shape[1] != L:
            raise ValueError(f"y_score must have one column per label, shape ({yt.shape[0]}, {L}), got {s.shape}.")
        score_kind = kind_of_scores(s)
        if yp is None:
            thr = default_threshold(score_kind) if thr is None else thr
            p = s >= thr
            notes.append(f"Predictions derived from the scores: each label where its score >= {thr:g}.")
        rankings = {
            names[c]: BinaryRanking.from_table(
                ScoreTable.from_validated(t[:, c], np.ascontiguousarray(s[:, c]), _BINARY, w), 1
            )
            for c in range(L)
        }
        micro = merge_rankings(list(rankings.values()))
    if yp is not None:
        p = indicator_matrix(yp, "y_pred", L)
    mc = MultilabelCounts.from_indicators(t, p, w)
    confusion = ConfusionMatrix.from_label_tables(cols, mc.tables, names)
    return dict(
        task="multilabel",
        labels=cols,
        names=names,
        pos_label=None,
        name=options.name,
        threshold=thr,
        score_kind=score_kind,
        n_samples=yt.shape[0],
        total_weight=float(yt.shape[0] if w is None else weight_total(w)),
        confusion=confusion,
        rankings=rankings,
        micro=micro,
        beta=options.beta,
        per_sample=mc.per_sample,
        sample_weight=w,
        notes=notes,
        cases=Cases(t, p, s, w),
    )
