"""The words of the errors raised in the formulas, statistics and uncertainty layers.

Mutation testing (``python scripts/mutation_score.py``) found that many ``raise`` statements of
these layers had no test that read their message, so a mutant that replaced the text (with None,
with "XX...XX" or in upper case) survived. Each case here reaches one raise through the function
or method that holds it and pins the exception class and the whole message, with the values
interpolated into it (shapes, counts, the offending value and where it is).

Every listed raise is reached; not reached: none.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from clfeval.formulas.sums import BrierSum, LogLossSum, TopKHits, weighted_mean
from clfeval.results.confusion import ConfusionMatrix
from clfeval.statistics.binning import binned_bounds, quantize
from clfeval.statistics.counts import ConfusionCounts, MultilabelCounts, build_counts
from clfeval.statistics.rankings import BinaryRanking, Curve
from clfeval.statistics.scores import ScoreTable, pairwise_u
from clfeval.statistics.sparse_counts import DenseTableTooLarge, PairCounts
from clfeval.uncertainty.area_intervals import (
    bootstrap_area_intervals,
    ranking_area_intervals,
)
from clfeval.uncertainty.bands import (
    pr_band,
    roc_band,
    sensitivity_at_specificity,
    specificity_at_sensitivity,
)
from clfeval.uncertainty.bootstrap import ranking_cells
from clfeval.uncertainty.checks import check_choice, check_resamples
from clfeval.uncertainty.confusion_intervals import confusion_intervals
from clfeval.uncertainty.confusion_measures import check_table
from clfeval.uncertainty.proportions import proportion_ci
from clfeval.uncertainty.ranking_intervals import ranking_intervals
from clfeval.uncertainty.resampling import check_sampling


def whole(message: str) -> str:
    """A pattern that matches exactly ``message``, from its start to its end."""
    return "^" + re.escape(message) + "$"


def _ranking() -> BinaryRanking:
    """A small ranking with both classes: 4 distinct scores, one sample at each."""
    return BinaryRanking(np.array([0.9, 0.7, 0.4, 0.1]), None, np.array([True, False, True, False]))


def _roc_curve() -> Curve:
    return Curve("roc", "a", np.array([0.0, 1.0]), np.array([0.0, 1.0]), np.array([np.inf, 0.5]),
                 np.array([True, False]), 0.5)


def _table() -> ScoreTable:
    return ScoreTable.from_labels(["x", "y"], [0.2, 0.9])


def _multilabel(n_labels: int, weighted: bool = False) -> MultilabelCounts:
    t = np.eye(2, n_labels, dtype=int)
    p = np.ones((2, n_labels), dtype=int)
    return MultilabelCounts.from_indicators(t, p, np.array([1.0, 2.0]) if weighted else None)


_DENSE_ADVICE = (
    "use the pair-coded counts instead: clfeval.ConfusionCounts.from_labels(y_true, y_pred) (a "
    "clfeval.statistics.sparse_counts.PairCounts with .codes/.values, .diagonal, .row_sums, .col_sums) "
    "or Evaluation.confusion.pairs, or per-class tables (multilabel_confusion_matrix, "
    "Evaluation.confusion.per_class())."
)

_WEIGHTED = np.array([[3.0, 1.0], [0.5, 2.0]])

# (call, exception class, the whole message); the id names module-function-case.
CASES: list[Any] = [
    # ---- formulas/sums.py ------------------------------------------------------------------
    pytest.param(
        lambda: LogLossSum.from_encoded(np.array([0, 1]), np.array([0.2, 0.8]), np.array([1.0, 1.0, 1.0])),
        ValueError, "sample_weight has shape (3,); expected (2,).",
        id="sums-_check_weight-via-LogLossSum.from_encoded",
    ),
    pytest.param(
        lambda: BrierSum.from_encoded(np.array([0, 1]), np.array([[0.8, 0.2], [0.3, 0.7]]), np.array([1.0])),
        ValueError, "sample_weight has shape (1,); expected (2,).",
        id="sums-_check_weight-via-BrierSum.from_encoded",
    ),
    pytest.param(
        lambda: TopKHits.from_encoded(np.array([0, 1, 2]), np.eye(3), 1, np.ones((3, 1))),
        ValueError, "sample_weight has shape (3, 1); expected (3,).",
        id="sums-_check_weight-via-TopKHits.from_encoded",
    ),
    pytest.param(
        lambda: LogLossSum.from_encoded(np.array([0, 1]), np.array([0.2, 0.8]), np.array([0.0, 0.0])).mean(),
        ZeroDivisionError,
        "LogLossSum: the total sample weight is zero, so the mean is undefined. Give at least one "
        "sample a positive weight, or use normalize=False.",
        id="sums-SampleSum.mean-zero-weight",
    ),
    pytest.param(
        lambda: BrierSum(0.0, 0, 2).score(),
        ZeroDivisionError,
        "BrierSum: the total sample weight is zero, so the mean is undefined. Give at least one "
        "sample a positive weight, or use normalize=False.",
        id="sums-SampleSum.mean-zero-weight-names-the-class",
    ),
    pytest.param(
        lambda: weighted_mean(np.array([1.0, 2.0, 3.0]), np.array([0, 0, 0])),
        ZeroDivisionError,
        "Weights sum to zero, can't be normalized: sample_weight is zero for all 3 samples.",
        id="sums-weighted_mean-zero-weight",
    ),
    # ---- statistics/binning.py -------------------------------------------------------------
    pytest.param(
        lambda: quantize(["a", "b"]),
        TypeError, "scores must be numeric: could not convert string to float: 'a'",
        id="binning-quantize-not-numeric",
    ),
    pytest.param(
        lambda: binned_bounds(BinaryRanking(np.array([1.0, 0.7]), np.array([1, 1]), np.array([1, 1])), bits=1),
        ValueError,
        "the ranking's score 0.7 is not on the 1-bit grid; bin the scores with quantize(scores, bits=1) "
        "before building the ranking.",
        id="binning-binned_bounds-off-grid",
    ),
    # ---- statistics/counts.py --------------------------------------------------------------
    pytest.param(
        lambda: ConfusionCounts(np.array([0, 1]), np.zeros((3, 3), dtype=np.int64)),
        ValueError, "matrix has shape (3, 3), expected (..., 2, 2).",
        id="counts-ConfusionCounts.__post_init__-shape",
    ),
    pytest.param(
        lambda: ConfusionCounts.from_labels(np.array([[1, 0], [0, 1]]), np.array([[1, 1], [0, 1]])),
        ValueError, "from_labels needs 1-D labels; use MultilabelCounts for indicator matrices.",
        id="counts-ConfusionCounts.from_labels-multilabel",
    ),
    pytest.param(
        lambda: _multilabel(2).merge(_multilabel(3)),
        ValueError, "Cannot merge multilabel counts over 2 and 3 labels.",
        id="counts-MultilabelCounts.merge-label-count",
    ),
    pytest.param(
        lambda: _multilabel(2, weighted=True).merge(_multilabel(2)),
        ValueError, "Cannot merge weighted with unweighted multilabel counts.",
        id="counts-MultilabelCounts.merge-weighted-with-unweighted",
    ),
    pytest.param(
        lambda: build_counts([0, 1, 1], [0, 1, 0], sample_weight=[0, 0, 0]),
        ValueError,
        "Sample weights must contain at least one non-zero number: sample_weight is zero for all 3 samples.",
        id="counts-build_counts-all-zero-weights",
    ),
    pytest.param(
        lambda: build_counts(np.array([[1, 0], [0, 1]]), np.array([[1, 1], [0, 1]]), sample_weight=[0.0, 0.0]),
        ValueError,
        "Sample weights must contain at least one non-zero number: sample_weight is zero for all 2 samples.",
        id="counts-build_counts-all-zero-weights-multilabel",
    ),
    # ---- statistics/rankings.py ------------------------------------------------------------
    pytest.param(
        lambda: Curve("roc", "a", np.zeros(2), np.zeros(3), np.zeros(2), np.zeros(2, bool), 0.5),
        ValueError, "x, y, thresholds and synthetic must have the same length.",
        id="rankings-Curve.__post_init__-lengths",
    ),
    pytest.param(
        lambda: _roc_curve().precision,
        AttributeError, "a roc curve has no such axis; use x and y.",
        id="rankings-Curve._axis-roc-has-no-precision",
    ),
    pytest.param(
        lambda: _roc_curve().recall,
        AttributeError, "a roc curve has no such axis; use x and y.",
        id="rankings-Curve._axis-roc-has-no-recall",
    ),
    pytest.param(
        lambda: BinaryRanking(np.array([0.9, 0.1]), None, np.array([True, False]), known={"auc": 1.0, "n": 2}),
        TypeError, "known takes totals, roc_auc and average_precision, not ['auc', 'n'].",
        id="rankings-BinaryRanking.__init__-unknown-known",
    ),
    # ---- statistics/scores.py --------------------------------------------------------------
    pytest.param(
        lambda: ScoreTable([1.0, 0.5], [[1, 0]], [0, 1]),
        ValueError, "counts must have shape (n_scores, n_classes) = (2, 2), got (1, 2).",
        id="scores-ScoreTable.__init__-counts-shape",
    ),
    pytest.param(
        lambda: ScoreTable([np.nan, 0.5], [[1, 0], [0, 1]], [0, 1]),
        ValueError, "ScoreTable scores must be finite.",
        id="scores-ScoreTable.__init__-scores-finite",
    ),
    pytest.param(
        lambda: ScoreTable([0.5, 0.9], [[1, 0], [0, 1]], [0, 1]),
        ValueError, "ScoreTable scores must be distinct and in decreasing order.",
        id="scores-ScoreTable.__init__-scores-decreasing",
    ),
    pytest.param(
        lambda: ScoreTable([0.5], [["a", "b"]], [0, 1]),
        TypeError, "counts must be numeric, got dtype <U1.",
        id="scores-ScoreTable.__init__-counts-numeric",
    ),
    pytest.param(
        lambda: setattr(_table(), "extra", 1),
        AttributeError, "ScoreTable is immutable; build a new one (e.g. with merge).",
        id="scores-ScoreTable.__setattr__-immutable",
    ),
    pytest.param(
        lambda: ScoreTable.from_codes([0.0, 1.0], [0.1, 0.2], [0, 1]),
        TypeError, "codes must be integer class indices, got dtype float64.",
        id="scores-ScoreTable.from_codes-integer-codes",
    ),
    pytest.param(
        lambda: ScoreTable.from_codes([1, 3], [0.1, 0.2], ["a", "b"]),
        ValueError, "codes must lie in [0, 2) to index the 2 classes; got values from 1 to 3.",
        id="scores-ScoreTable.from_codes-codes-range",
    ),
    pytest.param(
        lambda: _table().class_index("z"),
        ValueError, "'z' is not one of this table's classes ['x', 'y'].",
        id="scores-ScoreTable.class_index-unknown-label",
    ),
    pytest.param(
        lambda: _table().merge([0.2, 0.9]),
        TypeError, "can only merge a ScoreTable with a ScoreTable, got list.",
        id="scores-ScoreTable.merge-not-a-table",
    ),
    pytest.param(
        lambda: ScoreTable.from_labels([0, 1], [0.2, 0.9], classes=[0, 1]).merge(
            ScoreTable.from_labels([0, 2], [0.2, 0.9], classes=[0, 2])),
        ValueError,
        "cannot merge tables over different classes ([0, 1] vs [0, 2]); build both with the same classes=.",
        id="scores-ScoreTable.merge-different-classes",
    ),
    pytest.param(
        lambda: pairwise_u([0, 1], [[0.1, 0.9], [0.8, 0.2]], 3),
        ValueError, "y_score must have shape (n_samples, 3), got (2, 2).",
        id="scores-pairwise_u-score-shape",
    ),
    pytest.param(
        lambda: pairwise_u([0, 2], [[0.1, 0.9], [0.8, 0.2]], 2),
        ValueError, "codes must be integers in [0, 2) indexing the columns of y_score.",
        id="scores-pairwise_u-codes-range",
    ),
    # ---- statistics/sparse_counts.py -------------------------------------------------------
    pytest.param(
        lambda: PairCounts.from_codes(np.array([0, 1, 2]), np.array([0, 2, 2]), np.array([0, 1, 2])).dense_matrix(64),
        DenseTableTooLarge,
        "a dense confusion matrix over 3 classes needs 72 bytes (3 x 3 cells of 8 bytes), more than the "
        "64 bytes a dense view may take (clfeval.statistics.sparse_counts.DENSE_VIEW_BYTES); " + _DENSE_ADVICE,
        id="sparse_counts-PairCounts.dense_matrix-too-large",
    ),
    # ---- uncertainty/area_intervals.py -----------------------------------------------------
    pytest.param(
        lambda: bootstrap_area_intervals(_ranking(), method="analytic"),
        ValueError, "method must be 'bootstrap' or 'bca', got 'analytic'.",
        id="area_intervals-bootstrap_area_intervals-method",
    ),
    pytest.param(
        lambda: ranking_area_intervals(_ranking(), method="percentile"),
        ValueError, "method must be 'analytic', 'delong', 'bootstrap' or 'bca', got 'percentile'.",
        id="area_intervals-ranking_area_intervals-method",
    ),
    # ---- uncertainty/bands.py --------------------------------------------------------------
    pytest.param(
        lambda: roc_band(_ranking(), [0.5, 1.5]),
        ValueError, "fpr must be one or more numbers in [0, 1], got [0.5, 1.5].",
        id="bands-_grid-via-roc_band",
    ),
    pytest.param(
        lambda: pr_band(_ranking(), []),
        ValueError, "recall must be one or more numbers in [0, 1], got [].",
        id="bands-_grid-via-pr_band",
    ),
    pytest.param(
        lambda: sensitivity_at_specificity(_ranking(), -0.1),
        ValueError, "specificity must be one or more numbers in [0, 1], got -0.1.",
        id="bands-_grid-via-sensitivity_at_specificity",
    ),
    pytest.param(
        lambda: specificity_at_sensitivity(_ranking(), [[0.5]]),
        ValueError, "sensitivity must be one or more numbers in [0, 1], got [[0.5]].",
        id="bands-_grid-via-specificity_at_sensitivity",
    ),
    # ---- uncertainty/bootstrap.py ----------------------------------------------------------
    pytest.param(
        lambda: ranking_cells(np.zeros((3, 2))),
        ValueError,
        "expected a BinaryRanking or a (2, D) array of [negative; positive] counts per score "
        "(highest score first), got shape (3, 2).",
        id="bootstrap-ranking_cells-shape",
    ),
    pytest.param(
        lambda: ranking_cells(np.array([[1.0, np.inf], [1.0, 1.0]])),
        ValueError, "the ranking's counts must be finite.",
        id="bootstrap-ranking_cells-finite",
    ),
    pytest.param(
        lambda: ranking_cells(np.array([[1, -1], [1, 1]])),
        ValueError, "the ranking's counts must be non-negative.",
        id="bootstrap-ranking_cells-non-negative",
    ),
    # ---- uncertainty/checks.py -------------------------------------------------------------
    pytest.param(
        lambda: check_choice("x", ("percentile", "bca"), "interval"),
        ValueError, "interval must be one of ['percentile', 'bca'], got 'x'.",
        id="checks-check_choice",
    ),
    pytest.param(
        lambda: confusion_intervals([[3, 1], [0, 2]], method="delong"),
        ValueError, "method must be one of ['analytic', 'bootstrap', 'bca'], got 'delong'.",
        id="checks-check_choice-via-confusion_intervals",
    ),
    pytest.param(
        lambda: check_resamples(1),
        ValueError, "n_resamples must be an integer of at least 2, got 1.",
        id="checks-check_resamples-too-few",
    ),
    pytest.param(
        lambda: check_resamples(True),
        ValueError, "n_resamples must be an integer of at least 2, got True.",
        id="checks-check_resamples-bool",
    ),
    pytest.param(
        lambda: ranking_intervals(_ranking(), n_resamples=2.5),
        ValueError, "n_resamples must be an integer of at least 2, got 2.5.",
        id="checks-check_resamples-via-ranking_intervals",
    ),
    # ---- uncertainty/confusion_intervals.py ------------------------------------------------
    pytest.param(
        lambda: confusion_intervals([[3, 1], [0, 2]], beta=-1),
        ValueError, "beta must be non-negative, got -1.",
        id="confusion_intervals-confusion_intervals-beta",
    ),
    pytest.param(
        lambda: confusion_intervals([[3, 1], [0, 2]], labels=["a", "b", "c"]),
        ValueError, "3 labels given for a table of 2 classes; give one per row.",
        id="confusion_intervals-confusion_intervals-labels",
    ),
    pytest.param(
        lambda: confusion_intervals([[3, 1], [0, 2]], n_cases=6),
        ValueError, "n_cases goes with weight_squares (weighted cases); counts need neither.",
        id="confusion_intervals-_weight_squares-n_cases-alone",
    ),
    pytest.param(
        lambda: confusion_intervals(_WEIGHTED, weight_squares=np.ones((3, 3)), n_cases=6),
        ValueError, "weight_squares must have the counts' shape (2, 2), got (3, 3).",
        id="confusion_intervals-_weight_squares-shape",
    ),
    pytest.param(
        lambda: confusion_intervals(_WEIGHTED, weight_squares=[[1.0, -1.0], [0.5, 2.0]], n_cases=6),
        ValueError, "weight_squares must be finite and non-negative (sums of squared weights).",
        id="confusion_intervals-_weight_squares-non-negative",
    ),
    pytest.param(
        lambda: confusion_intervals(_WEIGHTED, weight_squares=[[5.0, 1.0], [0.25, 2.0]]),
        ValueError, "weighted cells need n_cases, the number of cases (at least 1), got None.",
        id="confusion_intervals-_weight_squares-n_cases-missing",
    ),
    pytest.param(
        lambda: confusion_intervals(_WEIGHTED, weight_squares=[[5.0, 1.0], [0.25, 2.0]], n_cases=0),
        ValueError, "weighted cells need n_cases, the number of cases (at least 1), got 0.",
        id="confusion_intervals-_weight_squares-n_cases-zero",
    ),
    # ---- uncertainty/confusion_measures.py -------------------------------------------------
    pytest.param(
        lambda: check_table(ConfusionMatrix(["a", "b"], None, np.ones((2, 2, 2), dtype=np.int64))),
        ValueError,
        "this confusion matrix is multilabel (per-label 2 x 2 tables); give one label's (2, 2) table, "
        "or the (k, k) table of a single-label task.",
        id="confusion_measures-check_table-multilabel",
    ),
    pytest.param(
        lambda: check_table(np.array([["a", "b"], ["c", "d"]])),
        TypeError, "counts must be numbers, got an array of dtype <U1.",
        id="confusion_measures-check_table-not-numbers",
    ),
    pytest.param(
        lambda: check_table([1, 2, 3]),
        ValueError,
        "counts must be a (k, k) or (..., k, k) confusion table (rows true, columns predicted), got shape (3,).",
        id="confusion_measures-check_table-shape-batch",
    ),
    pytest.param(
        lambda: check_table(np.ones((2, 3, 3)), batch=False),
        ValueError,
        "counts must be a (k, k) confusion table (rows true, columns predicted), got shape (2, 3, 3).",
        id="confusion_measures-check_table-shape-single",
    ),
    pytest.param(
        lambda: check_table(np.zeros((0, 0))),
        ValueError, "counts is empty (shape (0, 0)): there are no classes to evaluate.",
        id="confusion_measures-check_table-empty",
    ),
    pytest.param(
        lambda: check_table([[1, -2], [0, 1]]),
        ValueError, "counts must be non-negative; found -2 at (0, 1).",
        id="confusion_measures-check_table-negative",
    ),
    # ---- uncertainty/proportions.py --------------------------------------------------------
    pytest.param(
        lambda: proportion_ci("a", 3),
        TypeError,
        "successes and total must be numbers or arrays of numbers: could not convert string to float: 'a'",
        id="proportions-proportion_ci-not-numbers",
    ),
    pytest.param(
        lambda: proportion_ci([1, 2], [3, 4, 5]),
        ValueError, "successes (shape (2,)) and total (shape (3,)) do not broadcast.",
        id="proportions-proportion_ci-broadcast",
    ),
    pytest.param(
        lambda: proportion_ci([1, np.nan], 3),
        ValueError, "successes must be finite; found nan at 1.",
        id="proportions-proportion_ci-successes-finite",
    ),
    pytest.param(
        lambda: proportion_ci([1, 2], [3, np.inf]),
        ValueError, "total must be finite; found inf at 1.",
        id="proportions-proportion_ci-total-finite",
    ),
    pytest.param(
        lambda: proportion_ci([1, -1], 3),
        ValueError, "successes must be non-negative; found -1.0 at 1.",
        id="proportions-proportion_ci-successes-negative",
    ),
    pytest.param(
        lambda: proportion_ci([0, 0], [[3, 3], [-2, 3]]),
        ValueError, "total must be non-negative; found -2.0 at (1, 0).",
        id="proportions-proportion_ci-total-negative",
    ),
    pytest.param(
        lambda: proportion_ci([1, 5], [3, 4]),
        ValueError, "successes exceed total at 1 (5.0 > 4.0).",
        id="proportions-proportion_ci-exceed",
    ),
    # ---- uncertainty/ranking_intervals.py --------------------------------------------------
    pytest.param(
        lambda: ranking_intervals(_ranking(), method="delong"),
        ValueError, "method='delong' lives in clfeval.stats.delong.delong_auc_ci; here method='bootstrap'.",
        id="ranking_intervals-ranking_intervals-delong",
    ),
    # ---- uncertainty/resampling.py ---------------------------------------------------------
    pytest.param(
        lambda: check_sampling("bootstrap"),
        ValueError, "sampling must be one of ['cross-sectional', 'stratified'], got 'bootstrap'.",
        id="resampling-check_sampling-sampling",
    ),
    pytest.param(
        lambda: ranking_intervals(_ranking(), sampling="stratify"),
        ValueError, "sampling must be one of ['cross-sectional', 'stratified'], got 'stratify'.",
        id="resampling-check_sampling-via-ranking_intervals",
    ),
]


@pytest.mark.parametrize("call, error, message", CASES)
def test_layer_error_message(call: Callable[[], Any], error: type[BaseException], message: str) -> None:
    with pytest.raises(error, match=whole(message)) as info:
        call()
    assert type(info.value) is error


@pytest.mark.parametrize(
    "stratify",
    [pytest.param("yes", id="str"), pytest.param(1, id="int")],
)
def test_resampling_check_sampling_refuses_a_stratify_that_is_not_a_bool(stratify: Any) -> None:
    """resampling-check_sampling-stratify: the deprecation warning comes first, then the TypeError."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        with pytest.raises(TypeError, match=whole(f"stratify must be True or False, got {stratify!r}.")) as info:
            check_sampling("cross-sectional", stratify)
    assert type(info.value) is TypeError
