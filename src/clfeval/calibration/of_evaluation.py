"""Calibration of an :class:`~clfeval.evaluation.Evaluation`: its mergeable state
(:func:`calibration_of_evaluation`), and the report of a binary evaluation read off its ranking
of distinct probabilities (:func:`binary_calibration_report`).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from clfeval.formulas.sums import BrierSum, LogLossSum
from clfeval.calibration.bin_sums import binned_calibration_error
from clfeval.calibration.binning import inverted_cdf_edges, linear_quantile_edges, uniform_edges
from clfeval.calibration.checks import NORMS, STRATEGIES, check_choice, check_n_bins
from clfeval.calibration.inputs import evaluation_inputs, onto_unit_interval
from clfeval.calibration.modern import (
    DISTINCT,
    of_view_counts,
    view_counts_of_bins,
    view_counts_of_ranking,
    view_counts_of_table,
)
from clfeval.calibration.results import BrierDecomposition, CalibrationReport, ReliabilityCurve
from clfeval.calibration.states import State, calibration_of
from clfeval.calibration.views import decreasing_bins

__all__ = ["calibration_of_evaluation", "binary_calibration_report", "calibration_report", "headline_view_counts",
           "smooth_ece_interval_of", "corp_interval_of"]


def calibration_of_evaluation(ev: Any, *, n_bins: int | None = None) -> State:
    """The calibration state of an :class:`~clfeval.evaluation.Evaluation` with probabilities.

    Binary: the positive class's probabilities (mode "binary"); multi-class: the (n, k) rows
    (mode "top-label"). Multilabel evaluations are not supported yet.

    Parameters
    ----------
    ev : Evaluation
        An evaluation made with scores (``y_score``) that are probabilities; a ValueError when
        it has no scores or is multilabel.
    n_bins : int, default=None
        None for the exact :class:`CalibrationTable`; an integer for a bounded
        :class:`CalibrationHistogram` with that many equal-width bins.

    Returns
    -------
    CalibrationTable or CalibrationHistogram
        The mergeable state of the evaluation's probabilities.

    Examples
    --------
    >>> import clfeval
    >>> ev = clfeval.evaluate(["a", "b", "b"], y_score=[0.3, 0.8, 0.4], pos_label="b")
    >>> calibration_of_evaluation(ev)
    CalibrationTable(classes=['a', 'b'], mode='binary', total_weight=3, distinct=[3, 3, 3])
    >>> calibration_of_evaluation(ev, n_bins=4)
    CalibrationHistogram(classes=['a', 'b'], mode='binary', n_bins=4, total_weight=3)
    """
    x = evaluation_inputs(ev)
    return calibration_of(x.codes, x.proba, x.weight, classes=x.classes, positive=x.positive, n_bins=n_bins)


def binary_calibration_report(
    ranking: Any, *, classes: Sequence[Any], positive: int, n_bins: int = 15, strategy: str = "uniform",
    grouping: str = DISTINCT,
) -> CalibrationReport:
    """The calibration report of a binary evaluation's positive-class probabilities, read off its
    :class:`~clfeval.statistics.rankings.BinaryRanking` (the distinct probabilities with their outcome counts,
    already sorted): O(distinct probabilities), no pass over the samples. Mode "binary" only
    (``ece_by_mode`` holds just it); the Brier decomposition is over the report's bins, exact with
    its within-bin terms.
    The numbers equal :func:`calibration_report` on the same data.

    Parameters
    ----------
    ranking : BinaryRanking
        The positive class's ranking of a binary evaluation (``ev.ranking(name)``), whose scores
        are probabilities.
    classes : sequence
        The two class labels, in order.
    positive : int
        Index of the positive class in ``classes`` (named in the reliability curve's view).
    n_bins : int, default=15
        Number of bins.
    strategy : {"uniform", "quantile"}, default="uniform"
        "uniform": bins of equal width on [0, 1]; "quantile": edges at quantiles of the
        probabilities.
    grouping : str, default="distinct probabilities"
        What each distinct score of the ranking is (a binned stream's grid values: say so); named
        in the smooth ECE and the CORP diagram, which read the ranking's distinct scores.

    Returns
    -------
    CalibrationReport
        The report, in mode "binary", with smooth ECE and the CORP diagram.

    Examples
    --------
    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 0, 1, 1, 1, 0], y_score=[0.1, 0.3, 0.8, 0.9, 0.6, 0.6])
    >>> r = binary_calibration_report(ev.ranking("1"), classes=[0, 1], positive=1, n_bins=5)
    >>> round(r.ece, 6), round(r.brier, 6)
    (0.15, 0.111667)
    """
    check_choice(strategy, STRATEGIES, "strategy")
    n_bins = check_n_bins(n_bins)
    # decreasing; probabilities within the tolerance of [0, 1] (clfeval.inputs.score_kind) count as 0 or 1
    # contiguous: sums over a reversed view would add in another order (and differ in the last digit)
    v = np.ascontiguousarray(ranking.scores, dtype=np.float64)
    if v.size and (v[-1] < 0.0 or v[0] > 1.0):  # decreasing: its ends are its extremes (no pass to find them)
        v = onto_unit_interval(v)
    eps = np.finfo(np.float64).eps
    if ranking.neg is None and ranking.pos.dtype == np.bool_:
        # one sample per distinct probability: its outcome is pos
        is_pos = ranking.pos
        edges = uniform_edges(n_bins) if strategy == "uniform" else linear_quantile_edges(
            v[::-1], np.ones(v.size, dtype=np.int64), n_bins)
        binned = decreasing_bins(v, None, is_pos, edges)
        brier_total = log_total = 0.0
        step = 1 << 18  # in blocks: one small buffer that stays in cache
        buffer = np.empty(min(step, v.size))
        for start in range(0, v.size, step):
            vb, yb = v[start:start + step], is_pos[start:start + step]
            gap = np.subtract(vb, yb, out=buffer[:vb.size])
            # einsum, not np.dot: a threaded BLAS dot leaves its threads spinning on a busy machine
            brier_total += float(np.einsum("i,i->", gap, gap))
            # -log of the probability given to what happened (v where it happened, else 1 - v),
            # clipped as scikit-learn does
            q = np.subtract(1.0, vb, out=gap)
            np.copyto(q, vb, where=yb)
            log_total -= float(np.log(np.clip(q, eps, 1.0 - eps, out=q), out=q).sum())
        total = float(v.size)
    else:
        neg, pos = ranking.negatives(), np.asarray(ranking.pos)
        count_dtype = np.float64 if neg.dtype.kind == "f" or pos.dtype.kind == "f" else np.int64
        neg, pos = neg.astype(count_dtype, copy=False), pos.astype(count_dtype, copy=False)
        if strategy == "uniform":
            edges = uniform_edges(n_bins)
        else:
            w_up = (neg + pos)[::-1]
            quantiles = inverted_cdf_edges if count_dtype == np.float64 else linear_quantile_edges
            edges = quantiles(v[::-1], w_up, n_bins)
        binned = decreasing_bins(v, neg, pos, edges)
        # sums over the distinct probabilities v, each outcome weighted by its count
        wn, wp = neg.astype(np.float64, copy=False), pos.astype(np.float64, copy=False)
        total = float(wn.sum() + wp.sum())
        u = 1.0 - v
        brier_total = float(np.einsum("i,i->", wp * u, u) + np.einsum("i,i->", wn * v, v))  # no BLAS threads
        log_p = np.log(np.clip(v, eps, 1.0 - eps, out=np.empty_like(v)))
        log_q = np.log(np.clip(u, eps, 1.0 - eps, out=u), out=u)
        log_total = -float(np.einsum("i,i->", wp, log_p) + np.einsum("i,i->", wn, log_q))
    w_gap = binned.gaps()
    ece3 = {norm: binned_calibration_error(*w_gap, norm) for norm in NORMS}
    # the per-sample terms of BrierSum (2 (y - v)^2 over both columns) and LogLossSum
    brier_sum, log_loss_sum = BrierSum(2.0 * brier_total, total, 2), LogLossSum(log_total, total, 2)
    report = CalibrationReport(
        mode="binary", n_bins=n_bins, strategy=strategy,
        ece=ece3["l1"], ece_l2=ece3["l2"], ece_max=ece3["max"], ece_by_mode={"binary": ece3["l1"]},
        brier=brier_sum.score(),
        log_loss=log_loss_sum.mean(),
        decomposition=BrierDecomposition.from_bins([binned], n_bins, strategy),
        reliability=ReliabilityCurve.from_bins(binned, f"positive class {classes[positive]}", strategy),
        classes=tuple(classes), total_weight=total,
    )
    return of_view_counts(report, view_counts_of_ranking(ranking), grouping, same_view=True)


def calibration_report(ev: Any, n_bins: int, strategy: str) -> CalibrationReport:
    """:meth:`Evaluation.calibration <clfeval.evaluation.Evaluation.calibration>` of the Evaluation
    ``ev`` (uncached; see there)."""
    if ev.rankings is None or ev.score_kind != "probability":
        what = "no scores" if ev.rankings is None else "scores that are not probabilities (some lie outside [0, 1])"
        raise ValueError(f"this evaluation has {what}; calibration needs predicted probabilities "
                         "(predict_proba output) passed as y_score.")
    if ev.task == "binary":
        grouping = DISTINCT if not ev.binning else "binned scores (each grid value of the stream's binning)"
        return binary_calibration_report(ev.rankings[ev.names[ev.positive_index]], classes=ev.labels.tolist(),
                                         positive=ev.positive_index, n_bins=n_bins, strategy=strategy,
                                         grouping=grouping)
    if ev.cases is None:  # a stream: its bounded histogram (see clfeval.streaming)
        state = ev.calibration_state
        if state is None or isinstance(state, str):
            raise ValueError(f"this stream kept no calibration histogram: {state or 'no probabilities'}.")
        return state.report(n_bins, strategy)
    if strategy == "quantile":
        return calibration_of_evaluation(ev).report(n_bins, strategy)
    # uniform bins from the histogram; smooth ECE and CORP from the exact top-label table
    report = calibration_of_evaluation(ev, n_bins=n_bins).report(n_bins, strategy)
    exact = calibration_of_evaluation(ev)
    return of_view_counts(report, view_counts_of_table(exact.tables[exact.n_classes]))


def headline_view_counts(ev: Any) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], str]:
    """(values increasing, neg, pos) of the headline view of an Evaluation with probabilities, and
    what they are: the binary ranking's distinct scores; a multi-class evaluation's exact top-label
    table; a multi-class stream's histogram bins (each at its mean)."""
    ev.calibration()  # the checks (probabilities; a stream kept a state), cached
    if ev.task == "binary":
        grouping = DISTINCT if not ev.binning else "binned scores (each grid value of the stream's binning)"
        return view_counts_of_ranking(ev.rankings[ev.names[ev.positive_index]]), grouping
    if ev.cases is None:
        state = ev.calibration_state
        top = state.sums.row(state.n_classes)
        return view_counts_of_bins(top), f"{state.n_bins} equal-width bins, each at its mean"
    exact = calibration_of_evaluation(ev)
    return view_counts_of_table(exact.tables[exact.n_classes]), DISTINCT


def smooth_ece_interval_of(
    ev: Any, level: float = 0.95, *, n_resamples: int = 1000, seed: Any = 0, sampling: str = "cross-sectional",
    kind: str | None = None,
) -> Any:
    """:meth:`Evaluation.smooth_ece_interval <clfeval.evaluation.Evaluation.smooth_ece_interval>`:
    a bootstrap interval (:func:`clfeval.uncertainty.calibration_intervals.smooth_ece_interval`) of
    the smooth ECE of the evaluation's headline calibration view, redrawing the cells of its
    distinct probabilities (or of a stream's bins); ``kind`` None: that function's default.

    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 1, 1, 0, 1, 0], y_score=[0.2, 0.7, 0.9, 0.4, 0.6, 0.3])
    >>> ci = smooth_ece_interval_of(ev, n_resamples=50)
    >>> round(ci.estimate, 4) == round(ev.calibration().smooth_ece.value, 4), ci.level
    (True, 0.95)
    """
    from clfeval.uncertainty.calibration_intervals import smooth_ece_interval

    (values, neg, pos), _ = headline_view_counts(ev)
    return smooth_ece_interval(values, neg, pos, level=level, n_resamples=n_resamples, seed=seed,
                               sampling=sampling, **({} if kind is None else {"kind": kind}))


def corp_interval_of(
    ev: Any, measure: str, score: str = "brier", level: float = 0.95, *, n_resamples: int = 1000, seed: Any = 0,
    sampling: str = "cross-sectional", kind: str | None = None,
) -> Any:
    """:meth:`Evaluation.corp_interval <clfeval.evaluation.Evaluation.corp_interval>`: a bootstrap
    interval (:func:`clfeval.uncertainty.calibration_intervals.corp_interval`) of CORP's
    miscalibration ("mcb") or discrimination ("dsc") of the evaluation's headline calibration view,
    redrawing the cells of its distinct probabilities (or of a stream's bins); ``kind`` None: that
    function's default.

    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 1, 1, 0, 1, 0], y_score=[0.2, 0.7, 0.9, 0.4, 0.6, 0.3])
    >>> ci = corp_interval_of(ev, "dsc", n_resamples=50)
    >>> round(ci.estimate, 12) == round(ev.calibration().corp.brier.discrimination, 12), ci.level
    (True, 0.95)
    """
    from clfeval.uncertainty.calibration_intervals import corp_interval

    (values, neg, pos), _ = headline_view_counts(ev)
    return corp_interval(values, neg, pos, measure=measure, score=score, level=level, n_resamples=n_resamples,
                         seed=seed, sampling=sampling, **({} if kind is None else {"kind": kind}))
