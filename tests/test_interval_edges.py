"""Edges of the interval layer (``clfeval.uncertainty``) that mutation testing found unpinned
(``python scripts/mutation_score.py``): the level an interval reports where it is undefined or at
an end, scalar versus array answers, bootstrap batches, the BCa limit and the case-influence sums
over chunks of cells. Expected values are computed here by a second route (one by one, by hand,
or by the formula the docstring states)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from clfeval.statistics.rankings import BinaryRanking


def _ranking(scores, positive):
    order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")
    return BinaryRanking(np.asarray(scores, dtype=np.float64)[order], None, np.asarray(positive, bool)[order])


def test_bootstrap_t_ap_interval_of_a_perfect_ranking_is_wilsons_at_the_level_asked():
    """Every positive on top: AP = 1, and the low end is Wilson's for P out of P at that level."""
    from clfeval.uncertainty import proportion_ci
    from clfeval.uncertainty.area_intervals import bootstrap_area_intervals

    r = _ranking([0.9, 0.8, 0.7, 0.4, 0.3], [1, 1, 1, 0, 0])
    for level in (0.8, 0.95):
        ap = bootstrap_area_intervals(r, level=level, n_resamples=50)["average_precision"]
        assert (ap.estimate, ap.high, ap.level) == (1.0, 1.0, level)
        assert ap.low == float(proportion_ci(3, 3, level=level, method="wilson").low)
    z = 1.2815515655446004  # level 0.8, by hand: Wilson's low end for 3 of 3 is n / (n + z^2)
    assert bootstrap_area_intervals(r, level=0.8, n_resamples=50)["average_precision"].low == pytest.approx(
        3 / (3 + z * z), rel=1e-14)


def test_bca_auc_with_two_negatives_is_the_ranking_bca_interval():
    """BCa needs two cases of each class; with exactly two negatives it is the ranking's BCa."""
    from clfeval.uncertainty.area_intervals import BOOT_BCA_AUC, bootstrap_area_intervals
    from clfeval.uncertainty.ranking_intervals import ranking_intervals

    r = _ranking([0.9, 0.8, 0.6, 0.5, 0.3], [1, 0, 1, 0, 1])
    got = bootstrap_area_intervals(r, method="bca", n_resamples=300, seed=3)["roc_auc"]
    want = ranking_intervals(r, interval="bca", n_resamples=300, seed=3)["roc_auc"]
    assert (got.low, got.high, got.method) == (want.low, want.high, want.method)
    assert not got.method.startswith(BOOT_BCA_AUC) and got.estimate == 0.5  # by hand: 3 of the 6 pairs in order
    one = _ranking([0.9, 0.8, 0.6, 0.3], [1, 0, 1, 1])  # one negative: the normal-logit route, named BCa
    assert bootstrap_area_intervals(one, method="bca", n_resamples=50)["roc_auc"].method.startswith(BOOT_BCA_AUC)


@pytest.mark.parametrize("kind", ["sensitivity_at_specificity", "specificity_at_sensitivity"])
def test_operating_point_bands_answer_a_number_with_floats_and_an_array_with_arrays(kind):
    from clfeval.uncertainty import bands

    r = _ranking(np.arange(12.0), [0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1])
    read = getattr(bands, kind)
    one = read(r, 0.5, n_resamples=100, seed=1)
    assert all(type(v) is float for v in (one.low, one.high, one.estimate))
    many = read(r, [0.25, 0.5], n_resamples=100, seed=1)
    assert all(isinstance(v, np.ndarray) and v.shape == (2,) for v in (many.low, many.high, many.estimate))
    assert (many.low[1], many.high[1], many.estimate[1]) == (one.low, one.high, one.estimate)
    single = read(r, [0.5], n_resamples=100, seed=1)
    assert isinstance(single.low, np.ndarray) and single.low.shape == (1,)


def test_bootstrap_confusion_joins_its_batches_replicate_by_replicate():
    """A 700 x 700 table is drawn 8 replicates per batch: 9 replicates come in two batches."""
    from clfeval.uncertainty.bootstrap import bootstrap_confusion

    table = np.eye(700, dtype=np.int64)
    table[0, 1:] = 1
    reps = bootstrap_confusion(table, 9, seed=0)
    assert reps.shape == (9, 700, 700)
    assert reps.sum(axis=(1, 2)).tolist() == [int(table.sum())] * 9
    assert bootstrap_confusion(table, 9, seed=0).tolist() == reps.tolist()


def test_the_jackknife_refuses_past_its_work_limit_before_any_evaluation():
    """The limit is 200 evaluations' worth of 2**22 cells: 801 non-empty cells of a 1024 x 1024
    table are 801 * 2**20 > 200 * 2**22; nothing is evaluated."""
    from clfeval.uncertainty.bootstrap import jackknife

    cells = np.zeros((1024, 1024), dtype=np.int64)
    cells.reshape(-1)[:801] = 1

    def statistic(tables):
        raise AssertionError("evaluated")

    with pytest.raises(ValueError, match=r"^BCa's jackknife needs one evaluation per non-empty cell \(801 cells"):
        jackknife(statistic, cells)


def test_mover_average_of_undefined_classes_is_undefined():
    from clfeval.uncertainty import proportion_ci
    from clfeval.uncertainty.confusion_intervals import mover_average

    ci = proportion_ci(np.array([0, 0]), np.array([0, 0]))
    nan = np.array([np.nan, np.nan])
    iv = mover_average(ci, nan, None, np.nanmean(np.array([np.inf, -np.inf])), 0.9)
    assert type(iv.low) is float and math.isnan(iv.low) and type(iv.high) is float and math.isnan(iv.high)
    assert iv.level == 0.9


def test_auc_gradients_without_positives_are_undefined_without_a_warning():
    from clfeval.uncertainty.influence import area_gradients

    r = _ranking([0.9, 0.5, 0.2], [0, 0, 0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for area in ("roc_auc", "average_precision"):
            g_neg, g_pos = area_gradients(r, area)
            assert np.isnan(g_neg).all() and np.isnan(g_pos).all() and g_neg.shape == (3,)
    with pytest.raises(ValueError, match=r"^area must be 'roc_auc' or 'average_precision', got 'pr'\.$"):
        area_gradients(r, "pr")


def test_an_undefined_influence_interval_keeps_its_level():
    from clfeval.uncertainty.influence import influence_interval

    iv = influence_interval(float("nan"), np.zeros(4), 0.8, "m")
    assert iv.level == 0.8 and iv.method == "m" and math.isnan(iv.low) and math.isnan(iv.standard_error)
    ok = influence_interval(0.5, np.array([0.1, -0.1, 0.2, -0.2]), 0.8, "m")
    half = 1.2815515655446004 * math.sqrt(0.1)  # sum u^2 = 0.1, sum u = 0
    assert ok.level == 0.8 and ok.low == pytest.approx(0.5 - half, rel=1e-14)
    assert ok.high == pytest.approx(0.5 + half, rel=1e-14)


def test_linearized_variance_adds_every_chunk_of_cells_for_every_key():
    """A 40 x 40 table is differentiated in two chunks of cells; accuracy's first-order variance
    is p (1 - p) / n (hand-derived: its gradient ([i = j] - p) / n sums to 0 over the cases), and
    a statistic given as a dict of two gets the same per key."""
    from clfeval.uncertainty.influence import linearized_variance

    rng = np.random.default_rng(0)
    t = rng.integers(1, 9, size=(40, 40)).astype(np.float64) + np.diag(rng.integers(50, 90, 40))
    n = t.sum()
    p = np.trace(t) / n

    def acc(x):
        return np.trace(x, axis1=-2, axis2=-1) / x.sum(axis=(-2, -1))

    def first(x):
        return x[..., 0, 0] / x.sum(axis=(-2, -1))

    both = linearized_variance(lambda x: {"accuracy": acc(x), "first": first(x)}, t, t, n)
    assert float(both["accuracy"]) == pytest.approx(p * (1 - p) / n, rel=1e-8)
    q = t[0, 0] / n
    assert float(both["first"]) == pytest.approx(q * (1 - q) / n, rel=1e-8)
    assert float(linearized_variance(acc, t, t, n)[None]) == pytest.approx(p * (1 - p) / n, rel=1e-8)
