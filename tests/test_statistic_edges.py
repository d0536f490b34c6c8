"""Edges of the statistics and interval layers that mutation testing found unpinned
(``python scripts/mutation_score.py``): degenerate curves, messages that name what is wrong,
and the plain-data form of pair-coded counts."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest

from clfeval.statistics.rankings import Curve, CurveSet, macro_curve
from clfeval.statistics.sparse_counts import PairCounts
from clfeval.uncertainty.bootstrap import bootstrap_confusion, ranking_cells
from clfeval.uncertainty.resampling import check_sampling


def test_downsampling_a_curve_of_zero_length_keeps_evenly_spaced_points_and_both_ends():
    n = 5000
    c = Curve("roc", "a", np.zeros(n), np.zeros(n), np.linspace(1, 0, n), np.zeros(n, bool), 0.5)
    d = c.downsample(100)
    assert len(d) == 100
    assert d.thresholds[0] == 1.0 and d.thresholds[-1] == 0.0
    assert d.thresholds.tolist() == np.linspace(1, 0, n)[np.linspace(0, n - 1, 100).round().astype(int)].tolist()


def test_macro_curve_of_undefined_curves_has_an_undefined_area():
    nan = np.array([np.nan, np.nan])
    undefined = Curve("pr", "a", nan, nan, np.array([np.inf, 0.5]), np.array([True, False]), math.nan)
    m = macro_curve([undefined])
    assert m.kind == "pr" and isinstance(m.area, float) and math.isnan(m.area)


def test_curve_set_names_its_curves_when_the_main_one_is_missing():
    c = Curve("roc", "a", np.array([0.0, 1.0]), np.array([0.0, 1.0]), np.array([np.inf, 0.5]),
              np.array([True, False]), 0.5)
    with pytest.raises(ValueError, match=r"^main curve 'b' is not among \['a'\]\.$"):
        CurveSet({"a": c}, "b")


def test_pair_counts_as_plain_data():
    counts = PairCounts.from_dense(np.array(["x", "y"]), np.array([[2, 0], [1, 3]]))
    assert counts.to_dict() == {"labels": ["x", "y"],
                                "cells": {"true": [0, 1, 1], "pred": [0, 0, 1], "count": [2, 1, 3]}}


def test_bootstrap_messages_name_what_is_wrong():
    with pytest.raises(ValueError, match=r"^the bootstrap resamples the confusion table as counts, but these are"):
        bootstrap_confusion(np.array([[1.5, 0.0], [0.0, 2.0]]), 10, seed=0)
    with pytest.raises(ValueError, match=r"^the ranking is empty: there are no scores\.$"):
        ranking_cells(np.zeros((2, 0)))


@pytest.mark.parametrize(("stratify", "design"), [(True, "stratified"), (False, "cross-sectional")])
def test_the_deprecated_stratify_names_the_design_to_use(stratify, design):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert check_sampling("cross-sectional", stratify) == design
    assert [str(w.message) for w in caught] == [
        f"stratify= is deprecated and will be removed in the next release; use sampling={design!r} instead."]


def test_the_dense_view_of_pair_counts_is_refused_past_its_byte_limit():
    """3 classes of int64 counts take 3 * 3 * 8 = 72 bytes: allowed at 72, refused at 71."""
    counts = PairCounts.from_dense(np.array([0, 1, 2]), np.eye(3, dtype=np.int64))
    assert counts.dense_matrix(limit=72).tolist() == np.eye(3).tolist()
    with pytest.raises(MemoryError):
        counts.dense_matrix(limit=71)


def test_band_helpers_read_each_polyline_between_its_points():
    """The band's inverse read (lowest x reaching each y) interpolates inside a segment, and a
    row with undefined points (a class drawn empty) leaves only its own row NaN."""
    from clfeval.uncertainty.bands import _x_at_y, _y_at_x

    x = np.array([[0.0, 0.5, 1.0], [0.0, 1.0, 1.0]])
    y = np.array([[0.0, 0.5, 1.0], [0.0, 0.5, 1.0]])
    assert _x_at_y(x, y, np.array([0.25, 0.75])).tolist() == [[0.25, 0.75], [0.5, 1.0]]
    x_nan = np.array([[0.0, 0.5, 1.0], [np.nan, np.nan, np.nan]])
    got = _y_at_x(x_nan, y, np.array([0.25, 0.75]))
    assert got[0].tolist() == [0.25, 0.75] and np.isnan(got[1]).all()


def test_bca_intervals_of_a_proportion_stay_beside_the_percentile_and_wilson_ones():
    """Accuracy 120/200: its jackknife acceleration is about (1 - 2p) / (6 sqrt(n p (1 - p))) =
    -0.005 and the bias small, so BCa, the percentile interval on the same resamples and Wilson's
    [0.531, 0.665] agree to about 0.01 (an acceleration wired wrongly moves BCa's low end by 0.04)."""
    from clfeval.uncertainty import proportion_ci
    from clfeval.uncertainty.confusion_intervals import confusion_intervals

    table = np.array([[60, 40], [40, 60]])
    bca = confusion_intervals(table, method="bca", n_resamples=2000, seed=1)["overall"]["accuracy"]
    pct = confusion_intervals(table, method="bootstrap", n_resamples=2000, seed=1)["overall"]["accuracy"]
    wilson = proportion_ci(120, 200, method="wilson")
    assert bca.method.startswith("bootstrap BCa")
    for low, high in ((pct.low, pct.high), (wilson.low, wilson.high)):
        assert abs(bca.low - low) < 0.012 and abs(bca.high - high) < 0.012


def test_precision_at_a_score_of_no_weight_is_zero():
    """Per-score counts whose top score weighs nothing (0 predicted there): precision 0/0 is 0,
    as scikit-learn's rule; below it 1/3 and 1/4 (hand-counted)."""
    from clfeval.formulas.curves import precision_recall_points

    precision, recall, thresholds = precision_recall_points(
        np.array([0.0, 2.0, 1.0]), np.array([0.0, 1.0, 0.0]), np.array([0.9, 0.5, 0.2]))
    assert precision.tolist() == [0.25, 1 / 3, 0.0, 1.0]
    assert recall.tolist() == [1.0, 1.0, 0.0, 0.0] and thresholds.tolist() == [0.2, 0.5, 0.9]


def test_area_intervals_of_a_ranking_without_negatives_keep_the_ap():
    """No negative: ROC AUC is undefined (NaN interval), AP is 1 (every positive at precision 1)."""
    from clfeval.statistics.rankings import BinaryRanking
    from clfeval.uncertainty.area_intervals import bootstrap_area_intervals, logit_ap_interval

    r = BinaryRanking(np.array([0.9, 0.5]), None, np.array([True, True]))
    cis = bootstrap_area_intervals(r, n_resamples=20)
    assert math.isnan(cis["roc_auc"].estimate) and cis["average_precision"].estimate == 1.0
    mixed = BinaryRanking(np.array([0.9, 0.8, 0.7, 0.2]), None, np.array([True, False, True, False]))
    assert logit_ap_interval(mixed).method == "logit (Boyd et al. 2013)"


# ------------------------------------------------------------------------------------------
# exact arithmetic: where each exact path starts, and that it is right there
# ------------------------------------------------------------------------------------------
def test_no_weights_never_overflow_a_class_total():
    from clfeval.formulas.exact_sums import class_total_overflows

    assert class_total_overflows(np.zeros(0), np.zeros(0, bool)) is False
    assert class_total_overflows(np.array([1e308]), np.array([True])) is False
    assert class_total_overflows(np.array([1e308, 1e308]), np.array([True, True])) is True


def test_integer_bincount_adds_every_block_of_rows(monkeypatch):
    """Weights past 2**53 are summed in 26-bit limbs, block by block of rows; blocks of 3 rows
    here (the real block is 2**27 rows) must give the Python-integer sums."""
    from clfeval.formulas import exact_sums

    monkeypatch.setattr(exact_sums, "_LIMB_ROWS", 3)
    idx = np.array([0, 1, 0, 2, 1, 0, 0, 2, 1, 1])
    w = np.array([2**60 + 7 * i + 1 for i in range(10)], dtype=np.uint64)
    want = [sum(int(w[j]) for j in range(10) if idx[j] == c) for c in range(3)]
    assert exact_sums.integer_bincount(idx, w.astype(np.float64), 3, None).tolist() != want  # float64 rounds
    got = exact_sums.integer_bincount(idx, w, 3)
    assert [int(v) for v in got] == want


def test_a_square_root_that_is_exactly_a_rounding_tie_rounds_to_even():
    """sqrt((2**53 + 1)**2 / 2**60) = (2**53 + 1) / 2**30 exactly, half-way between two floats:
    ties-to-even gives 2**23; a sticky bit set where the root is exact would round it up."""
    from fractions import Fraction

    from clfeval.formulas.exact_sums import _sqrt_ratio

    assert _sqrt_ratio((2**53 + 1) ** 2, 2**60) == float(Fraction(2**53 + 1, 2**30)) == 2.0**23
    assert _sqrt_ratio(2, 1) == math.sqrt(2.0) and _sqrt_ratio(1, 4) == 0.5 and _sqrt_ratio(0, 3) == 0.0


def test_fbeta_is_exact_when_only_its_denominator_passes_2_to_the_53():
    """tp, fp, fn each below 2**53, 2 tp + fp + fn above: float64 sums would round (found by a
    search of such counts; the correctly rounded F1 is ...687, float64 gives ...684)."""
    from fractions import Fraction

    from clfeval.formulas.measures import fbeta

    tp, fp, fn = 1126093042239960, 1126848982104598, 6755994783963397
    want = float(Fraction(2 * tp, 2 * tp + fp + fn))
    assert float(fbeta(np.array(tp), np.array(fp), np.array(fn))) == want == 0.22221800208690687
    assert float(2.0 * tp / (float(tp + fn) + float(tp + fp))) != want


def test_a_ratio_with_a_big_numerator_alone_is_exact():
    """(2**53 + 1) / 3 = 3002399751580331 exactly; float64 first gives 2**53 / 3 = ...330.5."""
    from clfeval.formulas.measures import ratio

    assert float(ratio(np.array(2**53 + 1), np.array(3))) == 3002399751580331.0
    assert float(ratio(np.array(3), np.array(2**53 + 1))) == 3 / (2**53 + 1)


def test_kappa_disagreement_weights_are_floats():
    from clfeval.formulas.measures import kappa_disagreement_weights

    for kind, want in (("linear", [[0, 1, 2], [1, 0, 1], [2, 1, 0]]), ("quadratic", [[0, 1, 4], [1, 0, 1], [4, 1, 0]]),
                       (None, [[0, 1, 1], [1, 0, 1], [1, 1, 0]])):
        w = kappa_disagreement_weights(3, kind)
        assert w.dtype == np.float64 and w.tolist() == want
    with pytest.raises(ValueError, match=r"^weights must be None, 'linear' or 'quadratic', got 'cubic'\.$"):
        kappa_disagreement_weights(3, "cubic")


def test_rate_partials_name_the_rates_they_know():
    from clfeval.formulas.measure_gradients import RATES, rate_partials

    with pytest.raises(ValueError, match=rf"^unknown rate 'accuracy'; one of {re.escape(str(RATES))}\.$"):
        rate_partials("accuracy", 1, 1, 1, 1)


def test_table_variance_of_batched_gradients_leaves_empty_cells_out():
    """Gradients (B, 2, 2) over one table with an empty cell: each table's variance is the one
    of its own gradient (the same-shape path), the empty cell's gradient ignored."""
    from clfeval.formulas.measure_gradients import table_variance

    cells = np.array([[5.0, 0.0], [2.0, 3.0]])
    g = np.array([[[0.1, 9.0], [-0.2, 0.3]], [[1.0, -4.0], [0.5, 0.0]], [[0.0, 2.0], [0.0, 0.25]]])
    got = table_variance(g, cells, cells, 10.0)
    one_by_one = [float(table_variance(g[b], cells, cells, 10.0)) for b in range(3)]
    assert got.tolist() == one_by_one
    kept = np.where(cells != 0, g[0], 0.0)  # by hand: sum g^2 w - (sum g w)^2 / n
    assert got[0] == pytest.approx(float((kept**2 * cells).sum() - (kept * cells).sum() ** 2 / 10.0), rel=1e-15)


def test_rowwise_counts_order_unsigned_and_boolean_scores_as_numbers():
    from clfeval.statistics.scores import rowwise_counts

    y = np.array([[1, 0, 0, 1], [0, 1, 1, 0]])
    s = np.array([[0, 3, 2, 3], [1, 0, 2, 2]], dtype=np.uint8)
    want = rowwise_counts(y, s.astype(np.float64))
    for dtype in (np.uint8, np.uint64):
        got = rowwise_counts(y, s.astype(dtype))
        assert [a.tolist() for a in got] == [a.tolist() for a in want]
    # by hand: row 0 sorts as 3 (neg), 3 (pos), 2 (neg), 0 (pos); a tie group's counts at its first place
    assert [a.tolist() for a in want] == [[[1, 0, 1, 0], [1, 0, 1, 0]], [[1, 0, 0, 1], [1, 0, 0, 1]]]
    flags = rowwise_counts(np.array([[1, 0, 1]]), np.array([[False, True, True]]))
    assert [a.tolist() for a in flags] == [[[1, 0, 0]], [[1, 0, 1]]]


def test_batched_average_precision_of_one_sample_per_score_reads_each_row():
    """Rows of per-score positives without negatives (one sample per score), 2 rows of 3 scores:
    each row's AP is the one of that row alone (by hand: (1/1 + 2/3) / 2 and (1/2 + 2/3) / 2)."""
    from clfeval.formulas.curves import average_precision

    pos = np.array([[1, 0, 1], [0, 1, 1]])
    got = average_precision(None, pos)
    assert got.tolist() == [float(average_precision(None, row)) for row in pos]
    assert got.tolist() == pytest.approx([(1 + 2 / 3) / 2, (1 / 2 + 2 / 3) / 2], rel=1e-15)


def test_float_weights_in_units_of_the_smallest_subnormal_are_exact():
    from fractions import Fraction

    from clfeval.formulas.exact_sums import UNIT_EXPONENT, in_units

    got = in_units(np.array([0.5, 1.25, 3.0, 2.0**-1074]))
    assert got.tolist() == [int(Fraction(v) * 2**-UNIT_EXPONENT) for v in (0.5, 1.25, 3.0, 2.0**-1074)]
    assert got.tolist()[-1] == 1 and in_units(np.array([[3]])).tolist() == [[3 * 2**1074]]


def test_a_float_weight_total_past_the_range_is_inf_without_a_warning():
    from clfeval.formulas.exact_sums import weight_total

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert weight_total(np.array([1e308, 1e308])) == math.inf
    assert weight_total(np.array([0.5, 0.25])) == 0.75 and weight_total(np.array([2**62] * 4)) == 2**64


def test_column_titles_of_f_scores():
    from clfeval.formulas.measure_registry import title

    assert [title(k) for k in ("f1", "f0.5", "fallout", "npv", "support", "fold")] == [
        "f1-score", "f0.5-score", "fall-out", "NPV", "support", "fold"]


def test_a_pr_curve_marks_its_synthetic_first_point_with_booleans():
    from clfeval.statistics.rankings import BinaryRanking, pr_curve_of

    r = BinaryRanking(np.array([0.9, 0.4, 0.1]), None, np.array([True, False, True]))
    curve = pr_curve_of(r, "a")
    assert curve.synthetic.dtype == np.bool_ and curve.synthetic.tolist() == [True] + [False] * (len(curve) - 1)


def test_a_float_weighted_ranking_reversed_sums_its_auc_again():
    """With float weights the reversed ranking's AUC is summed from its own counts (it may differ
    from the original's in the last bit, as a fresh computation does); integer counts share it."""
    from clfeval.formulas.curves import roc_auc
    from clfeval.statistics.rankings import BinaryRanking

    pos = np.array([0.0, 0.9504636963259353, 0.14415961271963373, 0.0, 0.31183145201048545])
    neg = np.array([0.5495936876730595, 0.027559113243068367, 0.7535131086748066, 0.5381433132192782,
                    0.32973171649909216])
    r = BinaryRanking(np.arange(5, 0, -1.0), neg, pos)
    fresh = roc_auc(pos[::-1].copy(), neg[::-1].copy())
    assert r.reversed().roc_auc == fresh and fresh != r.roc_auc  # 0.5772696792585982 vs ...983
    counted = np.array([1, 1, 2, 2, 0])  # integer positives, float negatives: still summed again
    mixed_neg = np.array([0.9486494471372439, 0.31183145201048545, 0.42332644897257565, 0.8277025938204418,
                          0.4091991363691613])
    mixed = BinaryRanking(np.arange(5, 0, -1.0), mixed_neg, counted)
    fresh = roc_auc(counted[::-1].copy(), mixed_neg[::-1].copy())
    assert mixed.reversed().roc_auc == fresh and fresh != mixed.roc_auc  # 0.5024897949846925 vs ...924
    ints = BinaryRanking(np.arange(5, 0, -1.0), np.array([1, 0, 2, 1, 0]), np.array([0, 3, 1, 0, 2]))
    assert ints.reversed().roc_auc == ints.roc_auc == roc_auc(np.array([2, 0, 1, 3, 0]), np.array([0, 1, 2, 0, 1]))


def test_three_point_roc_curves_drop_a_collinear_middle_point_as_scikit_learn():
    from sklearn.metrics import roc_curve as sk_roc_curve

    from clfeval.metrics import roc_curve

    y, s = [0, 0, 1, 1], [0.1, 0.2, 0.3, 0.4]
    for got, want in zip(roc_curve(y, s), sk_roc_curve(y, s)):
        assert got.tolist() == want.tolist()
    y, s = [0, 1], [0.2, 0.9]
    assert [a.tolist() for a in roc_curve(y, s)] == [a.tolist() for a in sk_roc_curve(y, s)]
    y, s = [0, 1, 0, 1, 0, 1], [0.9, 0.9, 0.5, 0.5, 0.2, 0.2]  # three scores, the middle point collinear: dropped
    assert [a.tolist() for a in roc_curve(y, s)] == [a.tolist() for a in sk_roc_curve(y, s)]
    from clfeval.formulas.curves import roc_points

    fpr, tpr, thr = roc_points(np.array([1, 1, 1]), np.array([1, 1, 1]), np.array([0.9, 0.5, 0.2]), True)
    assert (fpr.tolist(), tpr.tolist(), thr.tolist()) == ([0.0, 1 / 3, 1.0], [0.0, 1 / 3, 1.0], [np.inf, 0.9, 0.2])


def test_exact_curve_thresholds_read_minus_zero_as_zero():
    from clfeval.formulas.exact_sums import exact_cumulative

    thr = exact_cumulative(np.array([True, False]), np.array([-0.0, -1.0]), np.array([1e308, 1e308]))[0]
    assert [math.copysign(1.0, t) for t in thr] == [1.0, -1.0] and thr.tolist() == [0.0, -1.0]


def test_an_exact_mcc_of_zero_is_plus_zero():
    from clfeval.formulas.exact_sums import exact_mcc

    value = exact_mcc(np.array([[2**60, 2**60], [2**60, 2**60]], dtype=object))
    assert value == 0.0 and math.copysign(1.0, value) == 1.0
    assert exact_mcc(np.array([[0, 2**60], [2**60, 0]], dtype=object)) == -1.0


def test_ranking_weight_scale_scales_each_class_that_needs_it():
    """Positives of ordinary weight, negatives past 2**500: only the negatives are rescaled (by a
    power of two); with the classes the other way round, only the positives."""
    from clfeval.formulas.exact_sums import ranking_weight_scale

    w = np.array([1.0, 2.0, 1e300, 1e300])
    is_pos = np.array([True, True, False, False])
    for groups in (is_pos, ~is_pos):
        out = ranking_weight_scale(w, groups)
        assert out[:2].tolist() == [1.0, 2.0] and out[2] == out[3] < 1.0
        assert math.frexp(out[2] / 1e300)[0] == 0.5  # scaled by a power of two


def test_rescaling_two_huge_class_totals_raises_no_overflow_warning():
    from clfeval.formulas.exact_sums import rescale_classes

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        neg, pos, n, p = rescale_classes(np.array([1e200]), np.array([1e200, 1e200]), 1e200, 2e200)
    assert 0.5 <= n < 1 and 0.5 <= p < 1 and pos.tolist() == [p / 2, p / 2]


def test_measure_labels_kept_as_declared_and_made_from_titles_otherwise():
    from clfeval.formulas.measure_registry import label

    assert [label(k) for k in ("fallout", "f1", "accuracy", "npv")] == [
        "False positive rate", "F1", "Accuracy", "NPV"]


def test_cohen_kappa_of_a_table_without_chance_disagreement_is_nan_without_a_warning():
    from clfeval.formulas.measures import cohen_kappa

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(float(cohen_kappa(np.array([[4, 0], [0, 0]]))))
        assert float(cohen_kappa(np.array([[3, 1], [1, 3]]))) == 0.5


def test_brier_and_log_loss_sums_of_one_probability_column():
    from clfeval.formulas.sums import BrierSum, LogLossSum

    b = BrierSum.from_encoded(np.array([0, 1]), np.array([0.2, 0.6]))
    assert b.score() == b.score("auto") == pytest.approx((0.2**2 + 0.4**2) / 2, rel=1e-15)
    assert LogLossSum.from_encoded(np.array([0, 1]), np.array([0.2, 0.6])).n_classes == 2
    three = BrierSum.from_encoded(np.array([0, 2]), np.array([[0.6, 0.2, 0.2], [0.1, 0.1, 0.8]]))
    full = ((0.4**2 + 0.2**2 + 0.2**2) + (0.1**2 + 0.1**2 + 0.2**2)) / 2  # by hand: not halved with 3 classes
    assert three.score() == three.score("auto") == pytest.approx(full, rel=1e-15) and three.score(True) == three.score() / 2


def test_operating_point_as_plain_data():
    from clfeval.statistics.rankings import OperatingPoint

    assert OperatingPoint(0.25, 0.75, 0.5).to_dict() == {"x": 0.25, "y": 0.75, "threshold": 0.5}


@pytest.mark.parametrize(("a", "b"), [(np.int64, np.uint64), (np.int64, object)])
def test_merging_pair_counts_of_integer_kinds_stays_exact(a, b):
    left = PairCounts.from_dense(np.array([0, 1]), np.array([[2**62, 0], [1, 2]], dtype=a))
    right = PairCounts.from_dense(np.array([0, 1]), np.array([[2**62, 5], [0, 1]], dtype=b))
    merged = left.merge(right)
    assert merged.values.dtype == object and [int(v) for v in merged.values] == [2**63, 5, 1, 3]


def test_exact_sums_of_nothing():
    from clfeval.formulas.exact_sums import exact_average_precision, overflow_scaled_weights, scaled_floats

    empty = np.zeros(0)
    assert overflow_scaled_weights(empty) is empty and scaled_floats(empty).tolist() == []
    assert exact_average_precision(np.array([False, False]), np.array([0.2, 0.1]), np.array([1e308, 1e308])) == 0.0


def test_balanced_accuracy_gradient_of_a_batch_is_each_table_alone():
    from clfeval.formulas.measure_gradients import balanced_accuracy_gradient

    tables = np.array([[[5.0, 1.0, 0.0], [2.0, 6.0, 1.0], [0.0, 1.0, 4.0]], [[3.0, 3.0, 1.0], [0.0, 2.0, 0.0],
                                                                               [1.0, 1.0, 1.0]]])
    batch = balanced_accuracy_gradient(tables)
    assert batch.tolist() == [balanced_accuracy_gradient(t).tolist() for t in tables]


def test_fbeta_partials_with_fractional_weights():
    """F1 = 2 tp / D, D = 2 tp + fn + fp = 0.9 here: dF/dtp = 2 (fn + fp) / D^2, dF/dfp = dF/dfn =
    -2 tp / D^2 (hand-derived), with counts below one (fractional weights)."""
    from clfeval.formulas.measure_gradients import rate_partials

    d_tp, d_fp, d_fn, d_tn = (float(x) for x in rate_partials("fbeta", 0.3, 0.2, 0.1, 0.0, beta=1.0))
    assert d_tp == pytest.approx(2 * 0.3 / 0.81, rel=1e-14) and d_fp == pytest.approx(-0.6 / 0.81, rel=1e-14)
    assert d_fn == d_fp and d_tn == 0.0


def test_mcc_of_margins_with_products_past_int64_is_right():
    """Margins near 2**40 (int64): their products pass int64 and must be formed in float64 or
    exactly; the value equals the float formula of the same table."""
    from clfeval.formulas.measures import mcc_of_margins

    big = 2**40
    t_sum, p_sum = np.array([3 * big, 5 * big]), np.array([4 * big, 4 * big])
    correct = 6 * big
    n, c = 8.0 * big, 6.0 * big
    want = (c * n - (3 * 4 + 5 * 4) * big * big) / math.sqrt((n * n - (9 + 25) * big * big) * (n * n - 32.0 * big * big))
    assert float(mcc_of_margins(correct, t_sum, p_sum)) == pytest.approx(want, rel=1e-12)


def test_kappa_of_margins_without_chance_disagreement_is_nan():
    from clfeval.statistics import margins

    assert math.isnan(margins.cohen_kappa(np.array([[4, 0], [0, 0]])))


def test_merging_runs_of_single_samples_gives_the_compact_ranking():
    from clfeval.statistics.ranking_merges import merge_runs
    from clfeval.statistics.rankings import BinaryRanking

    a = BinaryRanking(np.array([0.9, 0.4]), np.array([0, 1]), np.array([1, 0]))
    b = BinaryRanking(np.array([0.7, 0.1]), np.array([1, 0]), np.array([0, 1]))
    merged = merge_runs([a, b])
    assert merged.neg is None and merged.pos.dtype == np.bool_
    assert merged.scores.tolist() == [0.9, 0.7, 0.4, 0.1] and merged.pos.tolist() == [True, False, False, True]
    assert merged.roc_auc == 0.5  # by hand: pairs (0.9 > 0.7, 0.9 > 0.4, 0.1 < both)


def test_integer_rankings_merge_into_integer_counts():
    from clfeval.statistics.ranking_merges import merge_rankings
    from clfeval.statistics.rankings import BinaryRanking

    a = BinaryRanking(np.array([0.9, 0.4]), np.array([2, 1]), np.array([1, 3]))
    b = BinaryRanking(np.array([0.9, 0.1]), np.array([0, 4]), np.array([5, 1]))
    m = merge_rankings([a, b])
    assert m.pos.dtype.kind in "iu" and m.scores.tolist() == [0.9, 0.4, 0.1]
    assert m.pos.tolist() == [6, 3, 1] and m.negatives().tolist() == [2, 1, 4]


def test_one_vs_rest_of_a_table_of_single_samples():
    from clfeval.statistics.scores import ScoreTable

    t = ScoreTable.from_labels(["a", "b", "a"], [0.1, 0.5, 0.9])
    neg, pos = t.one_vs_rest(0).binary_counts()
    assert neg.tolist() == [0, 1, 0] and pos.tolist() == [1, 0, 1]


def test_binary_counts_of_a_table_with_tied_scores():
    from clfeval.statistics.scores import ScoreTable

    t = ScoreTable.from_labels(["a", "b", "a", "b", "b"], [0.1, 0.1, 0.9, 0.5, 0.9])
    neg, pos = t.one_vs_rest(0).binary_counts()
    assert neg.tolist() == [1, 1, 1] and pos.tolist() == [1, 0, 1]  # scores 0.1, 0.5, 0.9, by hand


# -- survivors of mutation sample 23 (benchmarks/results/mutation_sample_seed23.json) ----------------------


def test_adding_an_int_table_to_an_object_table_of_small_counts_gives_int64():
    from clfeval.formulas.exact_sums import add_counts

    got = add_counts(np.array([1, 2]), np.array([3, 4], dtype=object))
    assert got.dtype == np.int64 and got.tolist() == [4, 6]
    got = add_counts(np.array([3, 4], dtype=object), np.array([1, 2]))
    assert got.dtype == np.int64 and got.tolist() == [4, 6]
    big = add_counts(np.array([1, 2]), np.array([2**63, 4], dtype=object))
    assert big.dtype == object and big.tolist() == [2**63 + 1, 6]


def test_exact_average_precision_of_a_positive_weighing_one_unit():
    from clfeval.formulas.exact_sums import exact_average_precision

    # one positive of weight 2**-1074 (one unit of the exact sums) ranked first: AP 1; ranked second: 1/2
    assert exact_average_precision(np.array([True, False]), np.array([0.9, 0.1]), np.array([5e-324, 1.0])) == 1.0
    got = exact_average_precision(np.array([False, True]), np.array([0.9, 0.1]), np.array([5e-324, 5e-324]))
    assert got == 0.5
    assert exact_average_precision(np.array([False, False]), np.array([0.9, 0.1]), np.array([1.0, 1.0])) == 0.0


def test_exact_kappa_of_counts_whose_margin_products_pass_int64():
    from fractions import Fraction

    from clfeval.formulas.exact_sums import exact_kappa

    t = [[2**40 + 7, 3 * 2**38], [5 * 2**37, 2**41 + 1]]
    n = sum(map(sum, t))
    po = Fraction(t[0][0] + t[1][1], n)
    pe = Fraction(sum(t[0]) * (t[0][0] + t[1][0]) + sum(t[1]) * (t[0][1] + t[1][1]), n * n)
    assert exact_kappa(np.array(t, dtype=object)) == float((po - pe) / (1 - pe))


def test_confusion_counts_of_a_column_of_integer_labels():
    from clfeval.statistics.counts import build_counts

    kind, cc, _, _ = build_counts(np.array([[0], [1], [1]]), np.array([0, 1, 0]))
    assert kind == "binary" and cc.matrix.tolist() == [[1, 0], [1, 1]]


def test_cohen_kappa_of_an_empty_table_is_nan():
    from clfeval.statistics.margins import cohen_kappa

    assert math.isnan(cohen_kappa(np.zeros((2, 2), dtype=np.int64)))
    assert math.isnan(cohen_kappa(np.zeros((3, 3)), "linear"))


def test_one_vs_one_pair_counts_of_more_than_256_classes_keep_every_class():
    from clfeval.statistics.scores import pairwise_u_validated

    rng = np.random.default_rng(5)
    k, n = 300, 900
    codes = np.r_[np.arange(k), rng.integers(0, k, n - k)]
    scores = rng.random((n, k)).round(2)  # ties within columns
    u = pairwise_u_validated(codes, scores, k)
    for a in (0, 1, 257, 299):  # by hand: pairs (i in a, j in b) with s_i > s_j, ties half, on column a
        col = scores[:, a]
        ia = col[codes == a][:, None]
        wins = (ia > col[None, :]).sum(axis=0) + 0.5 * (ia == col[None, :]).sum(axis=0)
        want = np.bincount(codes, weights=wins, minlength=k)
        np.testing.assert_array_equal(u[a], want)


def test_downsampling_a_curve_to_its_own_length_keeps_every_point():
    x = np.sqrt(np.linspace(0, 1, 50))
    c = Curve("roc", "a", x, x**3, np.linspace(1, 0, 50), np.zeros(50, bool), 0.5)
    d = c.downsample(50)
    assert d.x.tolist() == c.x.tolist() and d.thresholds.tolist() == c.thresholds.tolist()
    assert len(c.downsample(49)) <= 49


def test_binary_counts_of_three_classes_with_ties():
    from clfeval.statistics.scores import ScoreTable

    t = ScoreTable.from_labels([0, 1, 2, 1, 0], [0.1, 0.1, 0.9, 0.9, 0.5])
    neg, pos = t.binary_counts(1)  # scores 0.9 (classes 2, 1), 0.5 (0), 0.1 (0, 1), by hand
    assert neg.tolist() == [1, 1, 1] and pos.tolist() == [1, 0, 1]


def test_a_score_table_from_a_column_of_labels_and_its_messages():
    from clfeval.statistics.scores import ScoreTable

    t = ScoreTable.from_labels(np.array([[0], [1], [1]]), [0.2, 0.8, 0.5])
    assert t.scores.tolist() == [0.8, 0.5, 0.2] and t.counts.tolist() == [[0, 1], [0, 1], [1, 0]]
    with pytest.raises(TypeError, match=r"^y_true is None; pass an array-like of labels or scores\.$"):
        ScoreTable.from_labels(None, [0.5])


def test_an_empty_score_table_of_many_classes_counts_in_int64():
    from clfeval.statistics.scores import ScoreTable

    t = ScoreTable.from_labels(np.array([], dtype=np.int64), np.array([]), classes=np.arange(70_000))
    assert t.counts.shape == (0, 70_000) and t.counts.dtype == np.int64


def test_merging_float_pair_counts_into_integer_ones_keeps_the_fractions():
    a = PairCounts.from_codes(np.array([0, 1]), np.array([0, 1]), np.array([0, 1]), sample_weight=np.array([0.5, 0.25]))
    b = PairCounts.from_codes(np.array([0, 1]), np.array([0, 0]), np.array([0, 1]))
    for m in (a.merge(b), b.merge(a)):
        assert m.values.dtype == np.float64
        assert dict(zip(m.codes.tolist(), m.values.tolist())) == {0: 1.5, 2: 1.0, 3: 0.25}


# -- survivors of mutation sample 24 (benchmarks/results/mutation_sample_seed24.json) ----------------------


def test_exact_division_past_the_range_keeps_the_sign():
    from clfeval.formulas.exact_sums import exact_div

    assert exact_div(-(2**2000), 1) == -math.inf and exact_div(2**2000, -1) == -math.inf
    assert exact_div(-(2**2000), -1) == math.inf


def test_ranking_weight_scale_leaves_zero_weights_alone_and_scales_tiny_ones():
    from clfeval.formulas.exact_sums import ranking_weight_scale

    zeros = np.zeros(3)
    assert ranking_weight_scale(zeros) is zeros  # documented: the same object when nothing needs scaling
    tiny = ranking_weight_scale(np.array([1e-320, 1e-320, 1e-320]))
    assert tiny.tolist() == [0.494140625] * 3  # the peak scaled by a power of two into [2**-2, 2**-1) (3 weights)


def test_the_f_beta_measure_of_no_fixed_beta_is_labelled_f_beta():
    from clfeval.formulas.measure_registry import fbeta_measure

    assert fbeta_measure(None).label == "F-beta" and fbeta_measure(2.0).label == "F2"


def test_quantizing_a_ranking_adds_the_counts_of_each_bin():
    from clfeval.statistics.binning import quantize, quantize_ranking
    from clfeval.statistics.rankings import BinaryRanking

    rng = np.random.default_rng(4)
    scores = np.unique(rng.random(200))[::-1]
    neg, pos = rng.integers(0, 3, scores.size), rng.integers(0, 3, scores.size)
    q = quantize_ranking(BinaryRanking(scores, neg, pos), bits=3)
    bins = quantize(scores, 3)
    want = np.unique(bins)[::-1]
    assert q.scores.tolist() == want.tolist()
    assert q.neg.tolist() == [int(neg[bins == b].sum()) for b in want]
    assert q.pos.tolist() == [int(pos[bins == b].sum()) for b in want]


def test_margins_of_a_dense_table():
    from clfeval.statistics.margins import margins

    m = margins(np.array([[3, 1, 0], [2, 4, 1], [0, 0, 5]]))
    assert m.rows.tolist() == [4, 7, 5] and m.cols.tolist() == [5, 5, 6] and int(m.total) == 16
    assert m.diagonal.tolist() == [3, 4, 5]


def test_downsampling_keeps_the_first_point_of_each_slice_of_the_arc_length():
    x = np.array([0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 1.0])
    c = Curve("roc", "a", x, np.zeros(7), np.linspace(1, 0, 7), np.zeros(7, bool), 0.5)
    # 3 slices of the length [0, 1/3), [1/3, 2/3), [2/3, 1]: the first holds points 0-5, the last point 6
    assert c.downsample(5).x.tolist() == [0.0, 1.0]


# -- survivors of mutation sample 25 (benchmarks/results/mutation_sample_seed25.json) ----------------------


def test_exact_kappa_of_counts_whose_row_sums_pass_int64():
    from fractions import Fraction

    from clfeval.formulas.exact_sums import exact_kappa

    t = [[2**62 + 5, 2**62 + 7], [3, 2**61 + 1]]  # each count fits int64, the first row's sum does not
    n = sum(map(sum, t))
    rows, cols = [sum(r) for r in t], [t[0][j] + t[1][j] for j in range(2)]
    po = Fraction(t[0][0] + t[1][1], n)
    pe = Fraction(rows[0] * cols[0] + rows[1] * cols[1], n * n)
    want = float((po - pe) / (1 - pe))
    assert exact_kappa(np.array(t, dtype=object)) == exact_kappa(np.array(t, dtype=np.int64)) == want


def test_exact_mcc_of_margins_is_zero_where_undefined():
    from clfeval.formulas.exact_sums import exact_mcc_of_margins

    assert exact_mcc_of_margins(5, [5, 0], [5, 0]) == 0.0  # a single class: 0/0, reported as 0
    assert exact_mcc_of_margins(3, [2, 2], [1, 3]) == pytest.approx(1 / math.sqrt(3), rel=1e-15)


def test_registered_rates_know_their_names_and_default_short_titles():
    from clfeval.formulas.measure_registry import MEASURES

    for name in ("precision", "recall", "specificity", "npv", "fallout"):
        assert MEASURES[name].name == name
    for m in MEASURES.values():
        assert m.short  # a measure declared without a short title takes its title
        if m.short != m.title:
            assert len(m.short) < len(m.title)


def test_pairwise_u_and_score_tables_name_the_input_in_their_messages():
    from clfeval.statistics.scores import ScoreTable, pairwise_u

    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: codes has 3, y_score has 2"):
        pairwise_u(np.array([0, 1, 1]), np.full((2, 2), 0.5), 2)
    mixed = r"^Mix of label input types \(string and number\) in y_true: e\.g\. 'a' and 1"
    with pytest.raises(ValueError, match=mixed):
        ScoreTable.from_labels(np.array(["a", 1], dtype=object), [0.1, 0.2])
