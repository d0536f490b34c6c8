"""Streaming evaluation: statistics updated batch by batch, merged across workers.

:class:`StreamingEvaluation` keeps what :func:`clfeval.evaluate` would build from all the rows
at once, without keeping the rows: the confusion counts (a (k, k) table) and, with scores, one
ranking per class (the distinct scores with the count or weight of each outcome at each). Each
``update`` builds its batch's statistics as :func:`clfeval.evaluate` does
(:func:`clfeval.evaluation.build.evaluation_statistics`: same checks, same label rules, no
Evaluation per batch) and adds them; ``merge`` adds another stream's; ``result()`` gives the
:class:`~clfeval.evaluation.Evaluation` of everything seen, equal to ``evaluate`` on the
concatenated rows (counts exactly; weights up to the order of float sums).

Multi-class scores: each score column's k-class cells instead of the rankings
(:mod:`clfeval.statistics.class_cells`: the distinct (score, class) pairs with their counts), from which
``result()`` reads each class's one-vs-rest ranking (the same, exactly) and Hand & Till's M and the
weighted one-vs-one AUC (equal to ``evaluate``'s; :mod:`clfeval.evaluation.hand_till`). They hold no more
than the rankings did: at 10^6 rows x 10 classes of continuous probabilities, 86 MiB (a score and a
one-byte class per row and column; with float weights 17 bytes, where the rankings took 24).

Size: the confusion counts do not grow with rows; a ranking grows with the number of distinct
scores. Above ``max_distinct`` distinct scores (or from the start with ``mode="binned"``), the
scores are binned onto a fixed grid (:func:`clfeval.statistics.binning.quantize`, ``bits`` mantissa bits:
relative bin width 2^-bits): the state is then bounded by the number of occupied bins, and the
result carries exact lower and upper bounds of ROC AUC and average precision
(:class:`clfeval.statistics.binning.BinnedBounds`) - the values on the unbinned scores are provably inside.
The switch is never silent: it warns once, and the result says so in its notes and
``ev.binning``. Predictions from scores are always made on the unbinned scores, so the
confusion counts and every measure computed from them stay exact.

>>> import numpy as np
>>> s = StreamingEvaluation()
>>> s.update([0, 1, 1], y_score=[0.2, 0.9, 0.4]).update([0, 0, 1], y_score=[0.6, 0.1, 0.8])
StreamingEvaluation(task='binary', n_samples=6, distinct_scores=6, mode='exact')
>>> ev = s.result()
>>> ev.report.overall["roc_auc"], ev.confusion.counts.tolist()
(0.8888888888888888, [[2, 1], [1, 2]])
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Any

import numpy as np

from clfeval.results.confusion import ConfusionMatrix
from clfeval.formulas.exact_sums import add_counts, in_units
from clfeval.evaluation import Evaluation, predict_from_scores
from clfeval.evaluation.build import EvaluationStatistics, check_ranked_weight_total, evaluation_statistics
from clfeval.evaluation.group_streams import GroupStreams
from clfeval.evaluation.hand_till import ovo_bounds_note
from clfeval.evaluation.prevalence import checked_prevalence
from clfeval.inputs.evaluate_arguments import label_names
from clfeval.inputs.evaluate_options import DEFAULT_BITS, DEFAULT_MAX_DISTINCT, EvaluateOptions, StreamSettings
from clfeval.exceptions import ScoresBinnedWarning
from clfeval.inputs.labels import as_array, as_score_array, union_labels, unique_sorted
from clfeval.statistics.class_cells import (ClassCells, collapse_cell_runs, distinct_in_cell_runs, merge_cell_runs,
                                            pairwise_u_of_cells, ranking_of_cells)
from clfeval.statistics.ranking_merges import collapse_runs, merge_rankings, merge_runs
from clfeval.statistics.rankings import BinaryRanking
from clfeval.inputs.score_kind import combined_kind
from clfeval.statistics.sparse_counts import PairCounts, add_pairs, use_pairs

__all__ = ["StreamingEvaluation", "DEFAULT_MAX_DISTINCT", "DEFAULT_BITS"]

#: equal-width calibration bins kept for multi-class probabilities: 2520 = lcm(1..10) is divisible
#: by 1-10, 12, 14, 15, 18, 20, ..., so the usual reliability bin counts come out exactly
CALIBRATION_BINS = 2520
_PREDICTED = "Predictions derived from the scores"  # evaluate's note on predictions from scores


def distinct_in_runs(runs: list[Any]) -> int:
    """Distinct scores over sorted runs of one ranking (each run's scores distinct and sorted).

    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> distinct_in_runs([BinaryRanking(np.array([0.1, 0.5]), None, np.array([True, False])),
    ...                   BinaryRanking(np.array([0.5, 0.9]), None, np.array([True, True]))])
    3
    """
    if len(runs) == 1:
        return int(runs[0].scores.size)
    return int(np.unique(np.concatenate([r.scores for r in runs])).size)


class StreamingEvaluation:
    """Evaluation statistics updated per batch (``update``) and merged (``merge``); ``result()``
    is the :class:`~clfeval.evaluation.Evaluation` of all rows seen.

    Arguments are those of :func:`clfeval.evaluate` that fix how rows are read (``labels``,
    ``pos_label``, ``threshold``, ``beta``, ``target_names``, ``name``), plus:

    * ``mode``: "auto" (exact until a ranking holds more than ``max_distinct`` distinct scores,
      then binned), "exact" (never bins; memory grows with distinct scores) or "binned" (bins
      from the first row);
    * ``bits``: the bin grid's mantissa bits (1 to 52); relative bin width 2^-bits;
    * ``warn``: warn (:class:`~clfeval.exceptions.ScoresBinnedWarning`) when the scores get binned
      (a driver that merges workers' streams may warn once itself instead);
    * ``options`` / ``settings``: the options of ``evaluate`` as one
      :class:`~clfeval.inputs.evaluate_options.EvaluateOptions` and ``mode``, ``max_distinct``,
      ``bits`` as one :class:`~clfeval.inputs.evaluate_options.StreamSettings`, instead of the
      keywords (how :mod:`clfeval.dask` and the command line hand on what they checked once);
    * ``groups``: keep one state per group too (:mod:`clfeval.evaluation.group_streams`): True, or the
      group column name(s); each ``update`` then passes its rows' ``groups=`` (any form
      :func:`clfeval.evaluate` takes: one array, a mapping name -> array, a DataFrame, of which the
      named columns are read), and ``result().by_group`` holds each group's Evaluation, read with
      the whole stream's classes, positive class and threshold, as ``evaluate(..., groups=)`` does.
      ``group_missing``: "error" (default) or "keep" (missing group values form a group).

    Without ``labels`` the classes are those seen so far (sorted, as ``evaluate`` sorts them);
    scores need the classes fixed by the first batch: a first batch of one class with scores
    needs ``labels=``. Multilabel data are not streamed yet.

    Parameters
    ----------
    labels : array-like, optional
        The classes and their order. Default None: the classes seen so far, sorted.
    pos_label : object, optional
        The positive class of a binary task; default None (chosen as :func:`clfeval.evaluate`
        chooses it).
    threshold : float, optional
        Cut of binary scores when predictions are derived from them. Default None: 0.5 for
        probabilities, 0 for decision values.
    beta : float, optional
        Adds an F-beta column to the result's report; default None.
    target_names : list of str, optional
        Display names of the classes, in the order of ``labels``; default None.
    name : str, optional
        Name of the classifier, carried to the result; default None.
    mode : {"auto", "exact", "binned"}, default "auto"
        When the scores are binned, as described above.
    max_distinct : int, default 16777216 (2**24)
        Distinct scores a ranking may hold before ``mode="auto"`` bins them.
    bits : int, default 16
        Mantissa bits of the bin grid, 1 to 52.
    warn : bool, default True
        Whether to warn with :class:`~clfeval.exceptions.ScoresBinnedWarning` when the scores
        get binned.
    options : EvaluateOptions, optional
        ``labels``, ``pos_label``, ``threshold``, ``beta``, ``target_names`` and ``name`` as one
        object, instead of the keywords; default None.
    settings : StreamSettings, optional
        ``mode``, ``max_distinct`` and ``bits`` as one object, instead of the keywords;
        default None.
    groups : bool, str or list of str, optional
        Keep one state per group: True, or the group column name(s). Default None (no groups).
    group_missing : {"error", "keep"}, default "error"
        Whether a missing group value is an error or a group of its own.

    Examples
    --------
    >>> stream = StreamingEvaluation(labels=["ham", "spam"], pos_label="spam", name="filter")
    >>> _ = stream.update(["ham", "spam", "spam"], y_score=[0.2, 0.9, 0.4])
    >>> _ = stream.update(["ham", "ham"], y_score=[0.7, 0.1])
    >>> stream.n_samples
    5
    >>> stream.result()
    Evaluation(name='filter', task='binary', n_samples=5, classes=['ham', 'spam'], accuracy=0.6000, roc_auc=0.8333)
    """

    def __init__(
        self,
        *,
        labels: Any = None,
        pos_label: Any = None,
        threshold: float | None = None,
        beta: float | None = None,
        target_names: Any = None,
        name: str | None = None,
        mode: str = "auto",
        max_distinct: int = DEFAULT_MAX_DISTINCT,
        bits: int = DEFAULT_BITS,
        warn: bool = True,
        options: EvaluateOptions | None = None,
        settings: StreamSettings | None = None,
        groups: Any = None,
        group_missing: str = "error",
    ) -> None:
        self.settings = StreamSettings.of(settings, mode, max_distinct, bits)
        self.options = EvaluateOptions.of(options, labels=labels, pos_label=pos_label, threshold=threshold,
                                          beta=beta, target_names=target_names, name=name)
        labels = self.options.labels
        self._fixed_labels = None if labels is None else as_array(labels, "labels").reshape(-1)
        self.warn = bool(warn)
        self._labels: np.ndarray | None = self._fixed_labels
        # (k, k) in self._labels order; pair-coded (sparse_counts.PairCounts) for many classes
        self._matrix: np.ndarray | PairCounts | None = None
        #: the dense table's exact sums (units of 2**-1074) once a batch had extreme float weights
        self._exact: np.ndarray | None = None
        self._rankings: dict[Any, list[BinaryRanking]] | None = None  # label -> runs to merge
        #: multi-class scores: per column, runs of its k-class cells (Hand & Till's M; statistics.class_cells)
        self._cells: list[list[ClassCells]] | None = None
        self._task: str | None = None
        self._pos: Any = None
        self._score_kind: str | None = None
        self._threshold: float | None = None
        self._n_columns: int | None = None  # None: nothing yet; 0: no scores; 1: binary; k
        self._one_column = False  # binary scores in one column (the positive class's)
        self._n_samples = 0
        self._total_weight = 0.0
        self._weighted = False
        self._notes: list[str] = []
        self._binned_at: int | None = 0 if self.mode == "binned" else None  # rows seen when first binned
        # multi-class probabilities: a CalibrationHistogram, or why there is none (str)
        self._calibration: Any = None
        #: with groups=: one StreamingEvaluation per group (never changed in place)
        self._groups: GroupStreams | None = GroupStreams.declared(groups, group_missing)

    # -- reading ----------------------------------------------------------------------------

    @property
    def mode(self) -> str:
        """"auto", "exact" or "binned" (see the class)."""
        return self.settings.mode

    @property
    def max_distinct(self) -> int:
        """Distinct scores kept exactly per ranking before ``mode="auto"`` bins them."""
        return self.settings.max_distinct

    @property
    def bits(self) -> int:
        """Mantissa bits of the bin grid."""
        return self.settings.bits

    @property
    def n_samples(self) -> int:
        """Rows seen."""
        return self._n_samples

    @property
    def binned(self) -> bool:
        """True once the scores are binned."""
        return self._binned_at is not None

    @property
    def distinct_scores(self) -> int:
        """Distinct scores (or occupied bins) held, summed over the classes' rankings.

        The state keeps each class's scores in a few sorted runs merged lazily; a score held in
        several runs counts once."""
        if self._rankings is None:
            return 0
        return sum(distinct_in_runs(runs) for runs in self._rankings.values()) + \
            sum(distinct_in_cell_runs(runs) for runs in self._cells or [])

    @property
    def nbytes(self) -> int:
        """Bytes held by the statistics (the state's size)."""
        total = 0 if self._matrix is None else (
            self._matrix.codes.nbytes + self._matrix.values.nbytes if isinstance(self._matrix, PairCounts)
            else self._matrix.nbytes)
        for runs in (self._rankings or {}).values():
            for r in runs:
                total += r.scores.nbytes + np.asarray(r.pos).nbytes + (0 if r.neg is None else r.neg.nbytes)
        total += sum(c.nbytes for runs in (self._cells or []) for c in runs)
        return total + sum(g.nbytes for g in self._groups.states.values()) if self._groups else total

    @property
    def groups(self) -> GroupStreams | None:
        """The per-group states (group key -> StreamingEvaluation), or None without ``groups=``."""
        return self._groups

    def __repr__(self) -> str:
        mode = "empty" if self._task is None else ("binned" if self.binned else "exact")
        shown = "" if self._groups is None else f", groups={len(self._groups)}"
        return (f"StreamingEvaluation(task={self._task!r}, n_samples={self._n_samples}, "
                f"distinct_scores={self.distinct_scores}, mode={mode!r}{shown})")

    # -- updating ---------------------------------------------------------------------------

    def update(self, y_true: Any, y_pred: Any = None, y_score: Any = None, sample_weight: Any = None, *,
               groups: Any = None) -> StreamingEvaluation:
        """Add one batch (the arguments of :func:`clfeval.evaluate`; ``groups``: its rows' groups, for
        a stream made with ``groups=``); returns self. A batch that fails its checks leaves the
        state as it was."""
        yt = as_array(y_true, "y_true")
        if self._groups is None and groups is not None:
            raise ValueError("this stream keeps no groups: make it with StreamingEvaluation(groups=True) (or the "
                             "group column names) to evaluate each group.")
        keys = None if self._groups is None else self._groups.keys_of(groups, yt.shape[0] if yt.ndim else 1)
        before = None if keys is None else self._copy()
        if yt.ndim == 2 and yt.shape[1] > 1:
            raise ValueError("multilabel y_true (a 2-D indicator matrix) is not streamed yet; "
                             "use clfeval.evaluate on all rows.")
        if self._n_columns is not None and (y_score is None) != (self._n_columns == 0):
            had = "no scores" if self._n_columns == 0 else "scores"
            raise ValueError(f"every batch must be alike: earlier batches had {had}, this one "
                             f"{'has none' if y_score is None else 'has scores'}.")
        st = None
        if self._fixed_labels is None and self._labels is not None:
            try:  # the usual batch: only classes seen before (the full path below looks for new ones)
                st, one_column, zero = self._statistics(yt, y_pred, y_score, sample_weight, self._labels)
            except (ValueError, TypeError):
                st = None  # a new class, or a bad batch: the full path adds it, or says what is wrong
        if st is None:
            labels = self._labels_for(yt, y_pred, y_score)
            st, one_column, zero = self._statistics(yt, y_pred, y_score, sample_weight, labels)
        self._add(st, had_weights=sample_weight is not None, one_column=one_column, zero=zero)
        if y_score is not None and self.mode == "auto" and not self.binned and self._too_many_distinct():
            self._switch_to_bins()
        if keys is not None:
            try:
                self._groups = self._groups.updated(keys, self._group_adder(yt, y_pred, y_score, sample_weight))
            except BaseException:
                self.__dict__.update(before.__dict__)  # all or nothing: the overall state as it was
                raise
        return self

    def _group_adder(self, yt: np.ndarray, y_pred: Any, y_score: Any, sample_weight: Any) -> Any:
        """``add(state, rows)`` for :meth:`GroupStreams.updated`: a group's state with the batch's
        ``rows`` added (a copy; a new state for a new group)."""
        yp = None if y_pred is None else as_array(y_pred, "y_pred")
        ys = None if y_score is None else as_score_array(y_score, "y_score")
        w = None if sample_weight is None else as_array(sample_weight, "sample_weight").reshape(-1)

        def add(state: StreamingEvaluation | None, rows: np.ndarray) -> StreamingEvaluation:
            state = StreamingEvaluation(options=self.options, settings=self.settings, warn=False) if state is None \
                else state._copy()
            yt_g, yp_g, ys_g, w_g = (None if a is None else a[rows] for a in (yt, yp, ys, w))
            return state._add_group_rows(self, yt_g, yp_g, ys_g, w_g)

        return add

    def _add_group_rows(self, overall: StreamingEvaluation, yt: np.ndarray, y_pred: Any, y_score: Any,
                        sample_weight: Any) -> StreamingEvaluation:
        """(A group's state.) Add the group's rows of a batch, read with the overall stream's
        classes, positive class and threshold (as ``evaluate(..., groups=)`` reads each group)."""
        labels = overall._labels
        if self._labels is not None and not np.array_equal(self._labels, labels):
            self._reindex(labels)  # the overall met new classes (predictions only)
        options = replace(self.options, pos_label=overall._pos,
                          threshold=None if y_pred is not None else overall._threshold)
        st, one_column, zero = self._statistics(yt, y_pred, y_score, sample_weight, labels, options)
        self._add(st, had_weights=sample_weight is not None, one_column=one_column, zero=zero)
        if y_score is not None and self.mode == "auto" and not self.binned and self._too_many_distinct():
            self._switch_to_bins()
        return self

    def _statistics(self, yt: np.ndarray, y_pred: Any, y_score: Any, sample_weight: Any, labels: Any,
                    options: EvaluateOptions | None = None) -> tuple[EvaluationStatistics, bool, bool]:
        """The batch's statistics over ``labels`` (as evaluate builds them, with ``options``:
        default the stream's), whether its scores are one column, and whether its weights are all zero."""
        score = None if y_score is None else np.asarray(y_score)
        pred = y_pred
        options = replace(self.options if options is None else options, labels=labels)
        binning = self.mode == "binned" or self.binned
        if score is not None and binning:
            score, pred, options = self._binned_inputs(score, pred, labels, options)
        zero = sample_weight is not None and _all_zero(sample_weight)
        if zero:  # rows that weigh nothing: checked (and their classes seen), counted, adding nothing
            integer = np.asarray(sample_weight).dtype.kind in "biu"
            sample_weight = np.ones(np.shape(sample_weight), dtype=np.int64 if integer else np.float64)
        st = evaluation_statistics(yt, pred, score, sample_weight=sample_weight, options=options)
        one_column = score is not None and (score.ndim == 1 or score.shape[1] == 1)
        return st, one_column, zero

    def _labels_for(self, yt: np.ndarray, y_pred: Any, y_score: Any) -> np.ndarray | None:
        """The labels to evaluate this batch with: fixed ones, or the classes seen so far joined
        with the batch's (re-indexing the state when new classes appear)."""
        if self._fixed_labels is not None:
            return self._fixed_labels
        if self._labels is None:
            return None  # the first batch: evaluate's own rules
        parts = [self._labels, unique_sorted(yt.reshape(-1), "y_true")]
        names = ["classes seen", "y_true"]
        if y_pred is not None:
            parts.append(unique_sorted(as_array(y_pred, "y_pred").reshape(-1), "y_pred"))
            names.append("y_pred")
        joined = union_labels(*parts, names=tuple(names))
        if joined.size != self._labels.size:
            if self._n_columns not in (None, 0):
                new = [v for v in joined.tolist() if v not in self._labels.tolist()]
                raise ValueError(
                    f"this batch has classes {new} that earlier batches did not; with scores the classes "
                    f"are fixed by the first batch ({self._labels.tolist()}): pass labels= to "
                    "StreamingEvaluation listing every class."
                )
            self._reindex(joined)
        return self._labels

    def _reindex(self, labels: np.ndarray) -> None:
        """Move the confusion counts to a larger, re-sorted label set."""
        old = self._labels
        assert old is not None and self._matrix is not None
        if isinstance(self._matrix, PairCounts) or use_pairs(labels.size):  # many classes: pair-coded
            pairs = self._matrix if isinstance(self._matrix, PairCounts) else PairCounts.from_counts(
                _DenseState(old, self._matrix, self._exact))
            self._labels, self._matrix, self._exact = labels, pairs.reindex(labels), None
            if self._task == "binary" and labels.size > 2:
                self._task = "multiclass"
            return
        where = np.array([int(np.flatnonzero(labels == v)[0]) for v in old], dtype=np.intp)
        matrix = np.zeros((labels.size, labels.size), dtype=self._matrix.dtype)
        matrix[np.ix_(where, where)] = self._matrix
        if self._exact is not None:
            exact = np.zeros(matrix.shape, dtype=object)
            exact[np.ix_(where, where)] = self._exact
            self._exact = exact
        self._labels, self._matrix = labels, matrix
        if self._task == "binary" and labels.size > 2:
            self._task = "multiclass"

    def _binned_inputs(self, score: np.ndarray, pred: Any, labels: Any, options: EvaluateOptions
                       ) -> tuple[np.ndarray, Any, EvaluateOptions]:
        """Scores on the bin grid; predictions still from the unbinned scores."""
        from clfeval.statistics.binning import is_grid_value, quantize

        threshold = options.threshold
        raw = score
        score = quantize(np.asarray(score, dtype=np.float64), self.bits)
        if pred is None and score.ndim == 1 and threshold is not None and not is_grid_value(threshold, self.bits):
            # a threshold between grid values: predict from the unbinned scores here
            if labels is None:
                raise ValueError("a threshold off the bin grid needs labels= (the classes to predict).")
            pred = predict_from_scores(raw, labels, pos_label=options.pos_label, threshold=threshold)
            options = replace(options, threshold=None)
            self._threshold = float(threshold)
        return score, pred, options

    def _check_alike(self, st: EvaluationStatistics, one_column: bool) -> None:
        """Refuse a batch that would be read differently from the earlier ones."""
        if self._task is None:
            return
        if self._n_columns and one_column != self._one_column:
            raise ValueError("every batch must have the same score columns: earlier batches had "
                             f"{'one' if self._one_column else 'one per class'}, this one "
                             f"{'one' if one_column else 'one per class'}.")
        if st.threshold is not None and self._threshold is not None and st.threshold != self._threshold:
            raise ValueError(
                f"this batch's scores would be cut at {st.threshold:g} but earlier batches' at "
                f"{self._threshold:g} (the default threshold follows the score kind: 0.5 for probabilities, "
                "0 for decision values): pass threshold= to StreamingEvaluation."
            )
        if st.pos_label is not None and self._pos is not None and st.pos_label != self._pos:
            raise ValueError(f"this batch's positive class {st.pos_label!r} differs from the earlier "
                             f"{self._pos!r}: pass pos_label= to StreamingEvaluation.")

    def _add(self, st: EvaluationStatistics, had_weights: bool, one_column: bool, zero: bool = False) -> None:
        self._check_alike(st, one_column)
        pairs = st.counts if isinstance(st.counts, PairCounts) else None
        if self._task is None:
            self._task, self._pos, self._labels = st.task, st.pos_label, st.labels
            if pairs is not None:
                self._matrix = PairCounts(st.labels, pairs.codes[:0], pairs.values[:0])
            else:
                self._matrix = np.zeros((st.labels.size,) * 2, dtype=st.counts.matrix.dtype)
            self._n_columns = 0 if st.rankings is None else (1 if st.task == "binary" else st.labels.size)
            self._one_column = one_column
            self._rankings = None if st.rankings is None else {}
        if st.pos_label is not None and self._pos is None:
            self._pos = st.pos_label
        if isinstance(self._matrix, PairCounts) or pairs is not None:
            batch = pairs if pairs is not None else st.counts.matrix
            self._matrix = add_pairs(self._matrix, self._labels, batch, st.labels, zero=zero)
        else:
            counts, exact = st.counts.matrix, st.counts.exact  # exact: sums of extreme float weights
            if st.labels is self._labels or np.array_equal(st.labels, self._labels):
                where = np.arange(st.labels.size)  # the usual case: the batch's classes are the state's
                cells: Any = (slice(None), slice(None))
            else:
                where = np.array([int(np.flatnonzero(self._labels == v)[0]) for v in st.labels], dtype=np.intp)
                cells = np.ix_(where, where)
            if not zero and (self._exact is not None or exact is not None):
                self._exact = _add_exact(self._exact, self._matrix, where,
                                         exact if exact is not None else in_units(counts))
            self._matrix = _add_at(self._matrix, cells, np.zeros_like(counts) if zero else counts)
        if st.rankings is not None and not zero:
            self._score_kind = combined_kind(self._score_kind, st.score_kind)  # clfeval.inputs.score_kind's rule, all rows
            # one binary score column: the other class's ranking is this one reversed; multi-class: the
            # rankings are read from the k-class cells (one statistic kept, not two)
            values = st.labels.tolist()
            wanted = [] if st.task == "multiclass" else [values[st.positive_index]] if self._one_column else values
            if st.task == "multiclass":
                self._add_cells(st)
            for label in wanted:
                ranking = st.rankings[st.names[values.index(label)]]
                runs = self._rankings.setdefault(label, [])
                runs.append(ranking)
                collapse_runs(runs)
        if st.threshold is not None:
            self._threshold = st.threshold
        if st.task == "multiclass" and st.rankings is not None and not zero:
            self._add_calibration(st)
        self._n_samples += st.n_samples
        self._total_weight += 0.0 if zero else st.total_weight
        self._weighted |= had_weights
        self._add_notes(st.notes)

    def _add_notes(self, notes: list[str]) -> None:
        for note in notes:
            if note not in self._notes and not (note.startswith(_PREDICTED) and
                                                any(n.startswith(_PREDICTED) for n in self._notes)):
                self._notes.append(note)

    def _add_cells(self, st: EvaluationStatistics) -> None:
        """Multi-class scores: add the batch's k-class cells of each column (Hand & Till's M)."""
        cases, k = st.cases, st.labels.size
        if self._cells is None:
            self._cells = [[] for _ in range(k)]
        for c, runs in enumerate(self._cells):
            runs.append(ClassCells.from_column(cases.true, cases.scores[:, c], cases.weight, k))
            collapse_cell_runs(runs)

    def _add_calibration(self, st: EvaluationStatistics) -> None:
        """Multi-class probabilities: add the batch to a bounded calibration histogram."""
        if isinstance(self._calibration, str):
            return
        if st.score_kind != "probability":
            self._calibration = "some scores are not probabilities (they lie outside [0, 1])"
            return
        from clfeval.calibration.of_evaluation import calibration_of_evaluation

        try:
            state = calibration_of_evaluation(st, n_bins=CALIBRATION_BINS)  # reads task, names, cases
        except ValueError as exc:
            self._calibration = str(exc)
            return
        self._calibration = state if self._calibration is None else self._calibration.merge(state)

    def _too_many_distinct(self) -> bool:
        """Whether a class's ranking holds more than ``max_distinct`` distinct scores. The runs' sizes
        summed are an upper bound (a score may be in several runs); only above the limit are the runs
        merged to count exactly, so a stream is never binned for scores it holds twice."""
        for label, runs in self._rankings.items():
            if sum(r.scores.size for r in runs) <= self.max_distinct:
                continue
            if len(runs) > 1:
                self._rankings[label] = runs = [merge_runs(runs)]
            if runs[0].scores.size > self.max_distinct:
                return True
        for i, runs in enumerate(self._cells or []):  # a cell per (score, class): sizes bound the scores
            if sum(c.size for c in runs) <= self.max_distinct:
                continue
            if len(runs) > 1:
                self._cells[i] = runs = [merge_cell_runs(runs)]
            if distinct_in_cell_runs(runs) > self.max_distinct:
                return True
        return False

    def _switch_to_bins(self) -> None:
        from clfeval.statistics.binning import quantize_ranking

        self._binned_at = self._n_samples
        for label, runs in self._rankings.items():
            self._rankings[label] = [quantize_ranking(merge_runs(runs), self.bits)]
        if self._cells is not None:
            self._cells = [[merge_cell_runs(runs).quantized(self.bits)] if runs else [] for runs in self._cells]
        if not self.warn:
            return
        warnings.warn(
            f"more than {self.max_distinct} distinct scores after {self._n_samples} rows: the scores are now "
            f"binned ({self.bits} mantissa bits, relative bin width 2^-{self.bits}); ROC AUC and average "
            "precision come with exact bounds (ev.binning). Pass mode='exact' to keep every score.",
            ScoresBinnedWarning, stacklevel=3,
        )

    # -- merging ----------------------------------------------------------------------------

    def merge(self, other: StreamingEvaluation) -> StreamingEvaluation:
        """A new stream holding both streams' rows (neither is changed). Both must have the same
        settings; an exact stream merged with a binned one is binned first."""
        if not isinstance(other, StreamingEvaluation):
            raise TypeError(f"can only merge a StreamingEvaluation, got {type(other).__name__}.")
        same_labels = (self._fixed_labels is None) == (other._fixed_labels is None) and (
            self._fixed_labels is None or np.array_equal(self._fixed_labels, other._fixed_labels))
        if self.settings != other.settings or not same_labels or not self.options.same_as(other.options):
            raise ValueError("cannot merge streams built with different settings (labels, pos_label, threshold, "
                             "beta, target_names, name, mode, max_distinct, bits).")
        if (self._groups is None) != (other._groups is None):
            raise ValueError("cannot merge a stream that keeps groups with one that does not; make both with "
                             "the same groups=.")
        groups = None if self._groups is None else self._groups.merged(other._groups, lambda a, b: a.merge(b))
        out = self._copy()
        if other._task is None:
            out._groups = groups
            return out
        if out._task is None:
            out = other._copy()
            out._groups = groups
            return out
        if (out._n_columns == 0) != (other._n_columns == 0) or out._one_column != other._one_column:
            raise ValueError("cannot merge streams with different score columns (or scores with none).")
        if out._threshold is not None and other._threshold is not None and out._threshold != other._threshold:
            raise ValueError(f"cannot merge streams cut at different thresholds ({out._threshold:g} and "
                             f"{other._threshold:g}); pass threshold= to both.")
        labels = out._labels
        if not np.array_equal(labels, other._labels):
            if out._n_columns:
                raise ValueError(f"cannot merge streams with scores over different classes ({labels.tolist()} "
                                 f"vs {other._labels.tolist()}); pass the same labels= to both.")
            joined = union_labels(labels, other._labels, names=("this stream's classes", "the other's"))
            out._reindex(joined)
        if isinstance(out._matrix, PairCounts) or isinstance(other._matrix, PairCounts):
            out._matrix = add_pairs(out._matrix, out._labels, other._matrix, other._labels)
        else:
            where = np.array([int(np.flatnonzero(out._labels == v)[0]) for v in other._labels], dtype=np.intp)
            if out._exact is not None or other._exact is not None:
                theirs = other._exact if other._exact is not None else in_units(other._matrix)
                out._exact = _add_exact(out._exact, out._matrix, where, theirs)
            out._matrix = _add_at(out._matrix, np.ix_(where, where), other._matrix)
        if out._rankings is not None:
            if other.binned and not out.binned:
                out._binned_at = out._n_samples
                out._quantize_all()
            theirs = other._rankings
            if out.binned and not other.binned:
                from clfeval.statistics.binning import quantize_ranking

                theirs = {k: [quantize_ranking(r, self.bits) for r in runs] for k, runs in theirs.items()}
            for label, runs in theirs.items():
                mine = out._rankings.setdefault(label, [])
                mine.extend(runs)
                mine.sort(key=lambda r: -r.scores.size)
                collapse_runs(mine)
            out._merge_cells(other)
            out._score_kind = combined_kind(out._score_kind, other._score_kind)
        if out._pos is None:
            out._pos = other._pos
        out._n_samples += other._n_samples
        out._total_weight += other._total_weight
        out._weighted |= other._weighted
        if out._threshold is None:
            out._threshold = other._threshold
        out._add_notes(other._notes)
        if isinstance(out._calibration, str) or other._calibration is None:
            pass
        elif isinstance(other._calibration, str) or out._calibration is None:
            out._calibration = other._calibration
        else:
            out._calibration = out._calibration.merge(other._calibration)
        if out._rankings is not None and out.mode == "auto" and not out.binned and out._too_many_distinct():
            out._switch_to_bins()
        out._groups = groups
        return out

    def _quantize_all(self) -> None:
        from clfeval.statistics.binning import quantize_ranking

        for label, runs in self._rankings.items():
            self._rankings[label] = [quantize_ranking(r, self.bits) for r in runs]
            collapse_runs(self._rankings[label])
        for runs in self._cells or []:
            runs[:] = [c.quantized(self.bits) for c in runs]
            collapse_cell_runs(runs)

    def _merge_cells(self, other: StreamingEvaluation) -> None:
        """Add ``other``'s k-class cells (binned onto this stream's grid when this one is binned)."""
        if other._cells is None:
            return
        if self._cells is None:
            self._cells = [[] for _ in other._cells]
        for mine, theirs in zip(self._cells, other._cells):
            mine.extend([c.quantized(self.bits) for c in theirs] if self.binned and not other.binned else theirs)
            mine.sort(key=lambda c: -c.size)
            collapse_cell_runs(mine)

    def _copy(self) -> StreamingEvaluation:
        out = object.__new__(StreamingEvaluation)
        out.__dict__.update(self.__dict__)
        out._matrix = None if self._matrix is None else self._matrix if isinstance(self._matrix, PairCounts) else self._matrix.copy()
        out._exact = None if self._exact is None else self._exact.copy()
        out._rankings = None if self._rankings is None else {k: list(v) for k, v in self._rankings.items()}
        out._cells = None if self._cells is None else [list(runs) for runs in self._cells]
        out._notes = list(self._notes)
        return out

    # -- the result -------------------------------------------------------------------------

    def result(self) -> Evaluation:
        """The :class:`~clfeval.evaluation.Evaluation` of every row seen (the state is kept: more
        batches can follow). Intervals need each row and are not available from a stream,
        except the analytic ones of an unweighted binary stream (Wilson, delta method, DeLong)."""
        if self._task is None:
            raise ValueError("nothing to evaluate yet: update() the stream with at least one batch.")
        if not self._total_weight > 0:
            raise ValueError(f"sample_weight is zero for all {self._n_samples} rows seen: there is nothing to "
                             "evaluate.")
        if self._rankings is not None:  # each batch fitted, their sum does not
            check_ranked_weight_total(self._total_weight, self._n_samples)
        labels = self._labels
        names = label_names(labels, self.options.target_names)
        rankings = micro = None
        binning = None
        if self._rankings is not None:
            merged = {label: merge_runs(runs) for label, runs in self._rankings.items()}
            for label, runs in self._rankings.items():
                self._rankings[label] = [merged[label]]
            if self._cells is not None:  # multi-class: each class's ranking from its column's cells
                merged = {v: ranking_of_cells(cells, c) for c, (v, cells)
                          in enumerate(zip(labels.tolist(), self._merged_cells()))}
            if self._one_column:
                pos_index = int(np.flatnonzero(labels == self._pos)[0])
                main = merged[self._pos]
                other = main.reversed()  # with integer counts it reads main's AUC (bitwise the same, as evaluate)
                pair = [other, main] if pos_index == 1 else [main, other]
                rankings = dict(zip(names, pair))
            else:
                empty = BinaryRanking(np.zeros(0), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
                rankings = {n: merged.get(v, empty) for n, v in zip(names, labels.tolist())}
                if self._task == "multiclass":  # two binary columns have no micro average (as evaluate)
                    micro = merge_rankings(list(rankings.values()))
            if self.binned:
                from clfeval.statistics.binning import binned_bounds

                binning = {n: binned_bounds(r, self.bits) for n, r in rankings.items()}
        # the score kind is that of all the rows (a batch of decision values may lie in [0, 1])
        notes = [n.replace("(probability scores)", f"({self._score_kind} scores)") if n.startswith(_PREDICTED) else n
                 for n in self._notes]
        if self.binned and self._rankings is not None:
            notes.append(
                f"Scores binned ({self.bits} mantissa bits, relative bin width 2^-{self.bits}) "
                + ("from the first row" if self.mode == "binned" else
                   f"after {self._binned_at} rows (more than {self.max_distinct} distinct scores)")
                + ": ROC AUC and average precision are the binned values, with exact bounds in ev.binning."
            )
        ovo = self._ovo_counts()
        if ovo is not None and ovo.binned:
            notes.append(ovo_bounds_note(ovo))
        ev = Evaluation(
            task=self._task, labels=labels, names=names, pos_label=self._pos, name=self.options.name,
            threshold=self._threshold, score_kind=self._score_kind, n_samples=self._n_samples,
            total_weight=float(self._total_weight),
            confusion=(ConfusionMatrix.from_counts(self._matrix, names) if isinstance(self._matrix, PairCounts)
                       else ConfusionMatrix.from_matrix(labels, self._matrix.copy(), names, formula=self._exact)),
            rankings=rankings, micro=micro, beta=self.options.beta, per_sample=None,
            sample_weight=None, notes=notes, cases=None, streamed="weighted" if self._weighted else "unweighted",
            calibration_state=self._calibration, binning=binning,
            prevalence=checked_prevalence(self._task, self.options.prevalence), ovo=ovo,
        )
        if self._groups is None:
            return ev
        return replace(ev, by_group=self._groups.evaluations(ev, self._group_result, lambda g: g.n_samples))

    def _ovo_counts(self) -> Any:
        """The U statistics of Hand & Till's M (:class:`~clfeval.statistics.class_cells.OvoCounts`) of a
        multi-class stream with scores (its cells merged into one run per column), else None."""
        if self._task != "multiclass" or self._cells is None or self._n_columns != self._labels.size:
            return None
        return pairwise_u_of_cells(self._merged_cells(), self._labels.size, bounds=self.binned)

    def _merged_cells(self) -> list[ClassCells]:
        """Each column's cells as one run (kept so: the next call finds them merged)."""
        self._cells = [[merge_cell_runs(runs)] if runs else [] for runs in self._cells]
        empty = ClassCells(np.zeros(0), np.zeros(0, dtype=np.uint8), None)
        return [runs[0] if runs else empty for runs in self._cells]

    def _group_result(self, state: StreamingEvaluation, display: str) -> Evaluation:
        """A group's Evaluation: its state over the whole stream's classes, named as evaluate names it."""
        if not np.array_equal(state._labels, self._labels):  # classes the overall met after the group's rows
            state = state._copy()
            state._reindex(self._labels)
        name = display if self.options.name is None else f"{self.options.name}: {display}"
        return replace(state.result(), name=name)


class _DenseState:
    """A stream's dense table as ``PairCounts.from_counts`` reads it (labels, matrix, exact)."""

    def __init__(self, labels: np.ndarray, matrix: np.ndarray, exact: np.ndarray | None) -> None:
        self.labels, self.matrix, self.exact = labels, matrix, exact


def _add_exact(exact: np.ndarray | None, matrix: np.ndarray, where: np.ndarray, units: np.ndarray) -> np.ndarray:
    """The exact sums (units of 2**-1074) of ``matrix`` (or ``exact`` where kept) with ``units``
    added at rows and columns ``where``."""
    out = in_units(matrix) if exact is None else exact.copy()
    out[np.ix_(where, where)] += units
    return out


def _add_at(matrix: np.ndarray, cells: Any, counts: np.ndarray) -> np.ndarray:
    """``matrix`` with ``counts`` added at ``cells`` (an index of its rows and columns, e.g.
    ``np.ix_(where, where)``), exactly: integer counts whose sums leave int64 become Python ints
    (never wrapped); weights make it float64."""
    added = add_counts(matrix[cells], counts)
    kinds = {added.dtype.kind, matrix.dtype.kind}
    target = np.dtype(np.float64) if "f" in kinds else np.dtype(object) if "O" in kinds else matrix.dtype
    if matrix.dtype != target:
        matrix = matrix.astype(target)
    matrix[cells] = added
    return matrix


def _all_zero(sample_weight: Any) -> bool:
    """True for weights that are all exactly 0 (anything else is left to evaluate's checks)."""
    try:
        w = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return w.size > 0 and bool(np.all(w == 0))
