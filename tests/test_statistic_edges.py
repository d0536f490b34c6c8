"""Edges of the statistics and interval layers that mutation testing found unpinned
(``python scripts/mutation_score.py``): degenerate curves, messages that name what is wrong,
and the plain-data form of pair-coded counts."""

from __future__ import annotations

import math
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
