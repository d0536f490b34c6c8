"""Edges of the interval layer (``clfeval.uncertainty``) that mutation testing found unpinned
(``python scripts/mutation_score.py``): the level an interval reports where it is undefined or at
an end, scalar versus array answers, bootstrap batches, the BCa limit and the case-influence sums
over chunks of cells. Expected values are computed here by a second route (one by one, by hand,
or by the formula the docstring states)."""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import clfeval
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


def test_bootstrap_auc_interval_reports_the_auc_as_its_estimate():
    from clfeval.uncertainty.area_intervals import BOOT_AUC, bootstrap_area_intervals

    r = _ranking([0.9, 0.8, 0.6, 0.5, 0.3, 0.2], [1, 0, 1, 0, 1, 0])
    ci = bootstrap_area_intervals(r, n_resamples=200, seed=1)["roc_auc"]
    assert ci.method.startswith(BOOT_AUC) and ci.estimate == r.roc_auc == 6 / 9  # by hand: 6 of 9 pairs


def test_bca_auc_resamples_with_the_design_asked():
    from clfeval.uncertainty.area_intervals import bootstrap_area_intervals
    from clfeval.uncertainty.ranking_intervals import ranking_intervals

    r = _ranking(np.arange(10.0), [0, 1, 0, 0, 1, 1, 0, 1, 1, 1])
    for sampling in ("stratified", "cross-sectional"):
        got = bootstrap_area_intervals(r, method="bca", n_resamples=300, seed=2, sampling=sampling)["roc_auc"]
        want = ranking_intervals(r, interval="bca", n_resamples=300, seed=2, sampling=sampling)["roc_auc"]
        assert (got.low, got.high) == (want.low, want.high)
    a, b = (bootstrap_area_intervals(r, method="bca", n_resamples=300, seed=2, sampling=s)["roc_auc"]
            for s in ("stratified", "cross-sectional"))
    assert (a.low, a.high) != (b.low, b.high)


def test_area_intervals_without_negatives_are_nan_at_both_ends():
    from clfeval.uncertainty.area_intervals import bootstrap_area_intervals

    cis = bootstrap_area_intervals(_ranking([0.9, 0.5], [1, 1]), n_resamples=20)
    for ci in cis.values():
        assert type(ci.low) is float and type(ci.high) is float and math.isnan(ci.low) and math.isnan(ci.high)


def test_bands_pass_the_deprecated_stratify_on():
    from clfeval.uncertainty.bands import roc_band

    r = _ranking(np.arange(12.0), [0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1])
    with pytest.warns(FutureWarning, match="stratify= is deprecated"):
        old = roc_band(r, [0.5], n_resamples=100, seed=1, sampling="cross-sectional", stratify=True)
    new = roc_band(r, [0.5], n_resamples=100, seed=1, sampling="stratified")
    other = roc_band(r, [0.5], n_resamples=100, seed=1, sampling="cross-sectional")
    assert (old.low.tolist(), old.high.tolist()) == (new.low.tolist(), new.high.tolist())
    assert (other.low.tolist(), other.high.tolist()) != (new.low.tolist(), new.high.tolist())


def test_micro_specificity_interval_is_one_minus_the_fallout_interval():
    from clfeval.uncertainty.confusion_intervals import confusion_intervals

    cis = confusion_intervals(np.array([[20, 3, 2], [4, 15, 1], [2, 2, 11]]))
    fallout, spec, npv = (cis["averages"]["micro"][k] for k in ("fallout", "specificity", "npv"))
    assert spec.low == 1 - fallout.high and spec.high == 1 - fallout.low and spec.high <= 1
    assert (npv.low, npv.high) == (spec.low, spec.high)


def test_mover_average_weights_each_class_by_the_weights_given():
    """sum w_i p_i with w = (3, 1) / 4, and each side's MOVER half-width (hand-computed from the
    Wilson limits): the weights must change the interval from the plain mean's."""
    from clfeval.uncertainty import proportion_ci
    from clfeval.uncertainty.confusion_intervals import mover_average

    ci = proportion_ci(np.array([8, 3]), np.array([10, 10]))
    r = np.array([0.8, 0.3])
    w = np.array([3.0, 1.0])
    iv = mover_average(ci, r, w, np.array(0.675), 0.95)
    lows, highs = np.asarray(ci.low), np.asarray(ci.high)
    down = math.sqrt(((0.75 * (0.8 - lows[0])) ** 2) + (0.25 * (0.3 - lows[1])) ** 2)
    up = math.sqrt(((0.75 * (highs[0] - 0.8)) ** 2) + (0.25 * (highs[1] - 0.3)) ** 2)
    assert iv.low == pytest.approx(0.675 - down, rel=1e-14) and iv.high == pytest.approx(0.675 + up, rel=1e-14)


def test_linearized_variance_keeps_a_vector_statistic_per_table():
    """A statistic of k values per table (each class's recall), over 2 tables: variance (2, k),
    each recall's first-order variance r (1 - r) / row total (hand-derived: the gradient of
    d / row is (1 - r) / row on the diagonal cell, -r / row on the rest of the row)."""
    from clfeval.uncertainty.influence import linearized_variance

    t = np.array([[[8.0, 2.0], [3.0, 7.0]], [[5.0, 5.0], [1.0, 9.0]]])

    def recalls(x):
        return np.diagonal(x, axis1=-2, axis2=-1) / x.sum(axis=-1)

    var = linearized_variance(recalls, t, t, t.sum(axis=(-2, -1)))[None]
    r = np.diagonal(t, axis1=-2, axis2=-1) / t.sum(axis=-1)
    assert var.shape == (2, 2)
    assert var.reshape(-1).tolist() == pytest.approx((r * (1 - r) / t.sum(axis=-1)).reshape(-1).tolist(), rel=1e-8)


def test_ranking_intervals_name_the_interval_argument_and_default_to_seed_0():
    from clfeval.uncertainty.ranking_intervals import ranking_intervals

    r = _ranking(np.arange(8.0), [0, 1, 0, 1, 1, 0, 1, 1])
    with pytest.raises(ValueError, match=r"^interval must be one of \['percentile', 'bca'\], got 'normal'\.$"):
        ranking_intervals(r, interval="normal")
    assert ranking_intervals(r, n_resamples=100)["roc_auc"].low == ranking_intervals(r, n_resamples=100, seed=0)[
        "roc_auc"].low


def test_a_scale_interval_with_an_undefined_standard_error_is_undefined_even_at_a_bound():
    from clfeval.uncertainty.scales import transformed_interval

    lo, hi = transformed_interval(np.array([0.0, 1.0, 0.5]), np.array([0.1, 0.9, 0.5]),
                                  np.array([np.nan, np.nan, np.nan]), 1.96, (0.0, 1.0))
    assert np.isnan(lo).all() and np.isnan(hi).all()
    lo, hi = transformed_interval(np.array([np.nan]), np.array([0.5]), np.array([0.1]), 1.96, (0.0, 1.0))
    assert np.isnan(lo).all() and np.isnan(hi).all()


def test_bootstrap_t_ap_interval_carries_its_standard_error():
    from clfeval.uncertainty.area_intervals import bootstrap_area_intervals

    r = _ranking(np.arange(12.0), [0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1])
    ap = bootstrap_area_intervals(r, n_resamples=200)["average_precision"]
    assert type(ap.standard_error) is float and 0 < ap.standard_error < 0.5


def test_bootstrap_areas_of_many_scores_resample_them_in_groups():
    from clfeval.uncertainty.area_intervals import BOOTSTRAP_MAX_SCORES, bootstrap_area_intervals

    rng = np.random.default_rng(0)
    y = rng.random(BOOTSTRAP_MAX_SCORES + 500) < 0.4
    r = _ranking(rng.normal(size=y.size) + y, y)
    cis = bootstrap_area_intervals(r, n_resamples=50)
    for ci in cis.values():
        groups = re.search(r", scores in (\d+) groups$", ci.method)
        assert groups and 1000 < int(groups.group(1)) <= BOOTSTRAP_MAX_SCORES
    assert cis["roc_auc"].estimate == r.roc_auc and cis["average_precision"].estimate == r.average_precision


def test_delong_variance_needs_two_cases_of_each_class():
    from clfeval.uncertainty.area_intervals import delong_variances

    auc, var = delong_variances(np.array([[1, 1, 1, 0], [1, 1, 0, 0]]), np.array([[0, 1, 0, 1], [0, 0, 1, 1]]))
    assert auc.tolist() == [0.25, 0.0] and np.isfinite(var).all()  # by hand: (1 + 1/2) / 6 and 0
    auc, var = delong_variances(np.array([[1, 1, 1, 0]]), np.array([[0, 1, 0, 0]]))  # one positive
    assert auc.tolist() == [0.5] and np.isnan(var).all()
    auc, var = delong_variances(np.array([[0, 1, 0, 0]]), np.array([[1, 0, 1, 1]]))  # one negative
    assert np.isnan(var).all()


def test_ranking_area_intervals_bootstrap_by_default_resamples_cross_sectionally():
    from clfeval.uncertainty.area_intervals import ranking_area_intervals

    r = _ranking(np.arange(12.0), [0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1])
    cis = ranking_area_intervals(r, method="bootstrap", n_resamples=100)
    assert "cross-sectional" in cis["roc_auc"].method and "cross-sectional" in cis["average_precision"].method


def test_specificity_at_sensitivity_reads_the_grid_given_and_the_deprecated_stratify():
    """Perfectly separated scores: specificity 1 at every sensitivity below 1 (hand-read)."""
    from clfeval.uncertainty.bands import specificity_at_sensitivity

    r = _ranking(np.arange(8.0), [0, 0, 0, 0, 1, 1, 1, 1])
    got = specificity_at_sensitivity(r, [0.25, 0.5], n_resamples=50)
    assert got.estimate.tolist() == [1.0, 1.0] and got.low.shape == (2,)
    mixed = _ranking(np.arange(12.0), [0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1])
    with pytest.warns(FutureWarning, match="stratify= is deprecated"):
        old = specificity_at_sensitivity(mixed, 0.5, n_resamples=100, seed=1, sampling="cross-sectional",
                                         stratify=True)
    new = specificity_at_sensitivity(mixed, 0.5, n_resamples=100, seed=1, sampling="stratified")
    assert (old.low, old.high) == (new.low, new.high)


def test_curve_band_as_plain_data():
    from clfeval.uncertainty.bands import roc_band

    band = roc_band(_ranking(np.arange(8.0), [0, 1, 0, 1, 1, 0, 1, 1]), [0.5], level=0.9, n_resamples=50)
    d = band.to_dict()
    assert list(d) == ["kind", "x", "estimate", "low", "high", "level", "method"]
    assert d["kind"] == "roc" and d["x"] == [0.5] and d["level"] == 0.9 and d["method"] == band.method


def test_bootstrap_method_names_say_what_was_resampled_and_how():
    from clfeval.uncertainty.bootstrap import bootstrap_method_name

    assert bootstrap_method_name("percentile", 100, "stratified", ranking=False, k=3) == (
        "bootstrap percentile (multinomial over cells, shares of cell + 1/3, stratified by true class, B=100)")
    assert bootstrap_method_name("bca", 100, "stratified", ranking=True) == (
        "bootstrap BCa (multinomial over score cells, stratified by class, B=100)")
    assert bootstrap_method_name("bca", 7, "cross-sectional", ranking=True) == (
        "bootstrap BCa (multinomial over score cells, cross-sectional, B=7)")


def test_the_mcc_interval_reports_its_level():
    from clfeval.uncertainty.confusion_intervals import confusion_intervals

    for method in ("analytic", "bootstrap"):
        ci = confusion_intervals(np.array([[20, 5], [4, 18]]), level=0.8, method=method, n_resamples=100)
        assert ci["overall"]["mcc"].level == 0.8
    undefined = confusion_intervals(np.array([[20, 0], [4, 0]]), level=0.8)["overall"]["mcc"]  # MCC 0/0
    assert undefined.level == 0.8 and math.isnan(undefined.low) and math.isnan(undefined.high)


def test_mover_average_of_a_batch_is_each_table_alone():
    from clfeval.uncertainty import proportion_ci
    from clfeval.uncertainty.confusion_intervals import mover_average

    s, n = np.array([[8, 3], [5, 9]]), np.array([[10, 10], [10, 12]])
    values = s / n
    batch = mover_average(proportion_ci(s, n), values, None, values.mean(axis=1), 0.95)
    for i in range(2):
        one = mover_average(proportion_ci(s[i], n[i]), values[i], None, values[i].mean(), 0.95)
        assert (batch.low[i], batch.high[i]) == (one.low, one.high)


def test_a_table_with_an_infinite_count_is_refused_at_that_cell():
    from clfeval.uncertainty.confusion_measures import check_table

    with pytest.raises(ValueError, match=r"^counts must be finite; found inf at \(1, 0\)\.$"):
        check_table(np.array([[1.0, 2.0], [np.inf, 3.0]]))


def test_ranking_bca_intervals_are_bca():
    from clfeval.uncertainty.ranking_intervals import ranking_intervals

    r = _ranking(np.arange(12.0), [0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1])
    bca = ranking_intervals(r, interval="bca", n_resamples=200)
    pct = ranking_intervals(r, interval="percentile", n_resamples=200)
    for key in ("roc_auc", "average_precision"):
        assert bca[key].method.startswith("bootstrap BCa") and pct[key].method.startswith("bootstrap percentile")
        assert (bca[key].low, bca[key].high) != (pct[key].low, pct[key].high)


def test_ranking_bca_matches_the_generic_bca_of_the_same_cells():
    """The ranking's BCa takes AUC's jackknife in closed form (Mann-Whitney placements);
    bootstrap_ci leaves one count out of each score cell and evaluates: same replicates (same
    seed), same acceleration, so the same interval."""
    from clfeval.formulas import curves
    from clfeval.statistics.scores import ScoreTable
    from clfeval.uncertainty.bootstrap import bootstrap_ci
    from clfeval.uncertainty.ranking_intervals import ranking_intervals

    rng = np.random.default_rng(5)
    y = rng.random(60) < 0.3
    r = BinaryRanking.from_table(ScoreTable.from_labels(y.astype(int), np.round(rng.normal(size=60) + 0.8 * y, 1)), 1)
    got = ranking_intervals(r, interval="bca", n_resamples=1000, seed=4)
    stats = {"roc_auc": lambda t: curves.roc_auc(t[:, 0], t[:, 1]),
             "average_precision": lambda t: curves.average_precision(t[:, 0], t[:, 1])}
    for key, statistic in stats.items():
        want = bootstrap_ci(statistic, r, method="bca", n_resamples=1000, seed=4)
        assert got[key].low == pytest.approx(want.low, rel=1e-12) and got[key].high == pytest.approx(want.high, rel=1e-12)
        assert 0 < got[key].low < got[key].estimate < got[key].high < 1


@pytest.mark.parametrize("average", ["weighted", "macro"])
def test_case_influences_of_averaged_aucs_are_their_weight_derivatives(average):
    """Each case's influence on the one-vs-rest ROC AUC averaged over 3 classes is w_i times the
    derivative of that average with respect to w_i; the weighted average also moves through the
    class supports. The derivative is taken numerically (central differences) of scikit-learn's
    roc_auc_score(multi_class="ovr"), an independent oracle."""
    from sklearn.metrics import roc_auc_score

    import clfeval
    from clfeval.uncertainty.influence import area_influences

    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 40)
    scores = rng.dirichlet([1, 1, 1], 40) + 0.3 * np.eye(3)[y]
    scores /= scores.sum(axis=1, keepdims=True)
    w = rng.uniform(0.5, 2.0, 40)
    ev = clfeval.evaluate(y, y_score=scores, sample_weight=w)
    est, u = area_influences(ev.cases, list(ev.rankings.values()), ev.micro, "roc_auc")[average]

    def auc(weights):
        return roc_auc_score(y, scores, multi_class="ovr", average=average, sample_weight=weights)

    assert est == pytest.approx(auc(w), rel=1e-15)
    numeric = np.empty(40)
    for i in range(40):
        h = 1e-6 * w[i]
        up, down = w.copy(), w.copy()
        up[i] += h
        down[i] -= h
        numeric[i] = w[i] * (auc(up) - auc(down)) / (2 * h)
    assert np.abs(numeric - u).max() < 1e-8 < np.abs(u).max()


def test_closed_form_area_intervals_at_their_edges():
    from clfeval.uncertainty.area_intervals import (
        LOGIT_AP,
        LOGIT_DELONG,
        average_precision_interval,
        logit_delong_interval,
        ranking_area_intervals,
    )

    tied = BinaryRanking(np.array([0.5]), np.array([2]), np.array([2]))  # every placement 1/2: no spread
    ci = logit_delong_interval(tied, 0.9)
    assert (ci.low, ci.high, ci.estimate, ci.standard_error, ci.method) == (0.5, 0.5, 0.5, 0.0, LOGIT_DELONG)
    none = average_precision_interval(_ranking([0.9, 0.5], [0, 0]), 0.9)
    assert none.method == LOGIT_AP and none.level == 0.9
    assert all(math.isnan(v) for v in (none.low, none.high, none.estimate, none.standard_error))
    one = average_precision_interval(_ranking([0.9, 0.5, 0.2], [0, 1, 0]), 0.9)
    assert one.estimate == 0.5 and math.isnan(one.standard_error) and math.isnan(one.low)
    r = _ranking(np.arange(12.0), [0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1])
    assert ranking_area_intervals(r, method="delong", level=0.8)["roc_auc"].level == 0.8
    assert (ranking_area_intervals(r, method="delong", level=0.8)["roc_auc"].low
            > ranking_area_intervals(r, method="delong", level=0.95)["roc_auc"].low)


def test_specificity_at_sensitivity_defaults_to_seed_0():
    from clfeval.uncertainty.bands import specificity_at_sensitivity

    r = _ranking(np.arange(12.0), [0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1])
    a = specificity_at_sensitivity(r, 0.5, n_resamples=100)
    b = specificity_at_sensitivity(r, 0.5, n_resamples=100, seed=0)
    assert (a.low, a.high) == (b.low, b.high)


def test_the_bootstrap_refuses_non_integer_weights_in_full_words():
    from clfeval.uncertainty.bootstrap import bootstrap_confusion

    with pytest.raises(ValueError, match=re.escape(
            "the bootstrap resamples the confusion table as counts, but these are non-integer weights; use "
            "method='analytic' (delta method and proportion intervals accept weights) or resample the weighted "
            "rows yourself.")):
        bootstrap_confusion(np.array([[1.5, 0.0], [0.0, 2.0]]), 10, seed=0)


def test_binary_micro_fallout_interval_carries_the_error_rates_standard_error():
    from clfeval.uncertainty.confusion_intervals import confusion_intervals

    cis = confusion_intervals(np.array([[20, 5], [4, 18]]), proportion_method="wald")
    err = cis["overall"]["error_rate"]
    fallout = cis["averages"]["micro"]["fallout"]
    assert fallout.standard_error == err.standard_error == pytest.approx(math.sqrt(9 / 47 * 38 / 47 / 47), rel=1e-14)
    with pytest.raises(ValueError, match=r"^proportion_method must be one of \["):
        confusion_intervals(np.array([[20, 5], [4, 18]]), proportion_method="exact")


def test_unsigned_and_confusion_matrix_tables_are_read_as_counts():
    import clfeval
    from clfeval.uncertainty.confusion_measures import check_table

    table, labels = check_table(np.array([[3, 1], [0, 2]], dtype=np.uint8))
    assert table.dtype == np.int64 and table.tolist() == [[3, 1], [0, 2]] and labels is None
    cm = clfeval.evaluate(["a", "b", "b"], ["a", "b", "a"]).confusion
    table, labels = check_table(cm)
    assert table.tolist() == [[1, 0], [1, 1]] and list(labels) == ["a", "b"]


def test_multilabel_influence_intervals_say_why_and_use_beta():
    import clfeval

    y = np.array([[1, 0], [0, 1], [1, 1], [0, 0], [1, 0], [0, 1]])
    p = np.array([[1, 0], [0, 0], [1, 1], [0, 1], [1, 0], [1, 1]])
    ev = clfeval.evaluate(y, p)
    notes = ev.intervals()["notes"]
    assert notes == ["multilabel: the averages over labels, the samples average and the Hamming loss use each "
                     "case's influence (a case sits in every label's table, so the labels are correlated)."]
    f2 = clfeval.evaluate(y, p, beta=2.0).intervals()
    f1 = ev.intervals()
    assert np.asarray(f2["per_class"]["f2"].estimate).tolist() != np.asarray(f1["per_class"]["f1"].estimate).tolist()


# -- survivors of mutation samples 22 and 23 (benchmarks/results/mutation_sample_seed2{2,3}.json) ------------


def test_bootstrap_t_ap_counts_a_replicate_without_spread_as_far_out_on_its_side():
    from clfeval.uncertainty.area_intervals import _bootstrap_t_ap

    # half the replicates 0.1 below the AP with se* 0 (t* = -inf in effect), half 0.1 above with se* 0.1 (t* = 1)
    reps = np.r_[np.full(50, 0.4), np.full(50, 0.6)]
    rep_var = np.r_[np.zeros(50), np.full(50, 0.01)]
    ci = _bootstrap_t_ap(0.5, 0.1, reps, rep_var, 10.0, 0.95, "bootstrap-t")
    assert ci.low == pytest.approx(0.4, abs=1e-15) and ci.high == 1.0  # AP - 1 * se, AP + huge * se clipped


def test_specificity_at_sensitivity_passes_the_seed_on():
    from clfeval.uncertainty.bands import specificity_at_sensitivity

    rng = np.random.default_rng(3)
    r = _ranking(rng.random(80), rng.integers(0, 2, 80))
    runs = [specificity_at_sensitivity(r, 0.7, n_resamples=200, seed=s) for s in (0, 0, 1)]
    assert (runs[0].low, runs[0].high) == (runs[1].low, runs[1].high) != (runs[2].low, runs[2].high)
    default = specificity_at_sensitivity(r, 0.7, n_resamples=200)
    assert (default.low, default.high) == (runs[0].low, runs[0].high)


def test_undefined_resample_notes_of_an_overall_number_give_their_count():
    from clfeval.uncertainty.confusion_intervals import confusion_intervals

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cis = confusion_intervals(np.array([[1, 0], [0, 1]]), method="bootstrap", n_resamples=50, seed=0)
    kappa = [n for n in cis["notes"] if n.startswith("overall kappa")]
    assert len(kappa) == 1
    m = re.fullmatch(r"overall kappa: undefined \(0/0\) in some of the 50 bootstrap resamples \((\d+)\); "
                     r"left out of the interval\.", kappa[0])
    assert m and 0 < int(m.group(1)) < 50


def test_multilabel_samples_average_uses_beta():
    import clfeval
    from sklearn.metrics import fbeta_score

    y = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 1]])
    p = np.array([[1, 0, 0], [0, 0, 1], [1, 1, 1], [0, 1, 1], [1, 0, 0], [1, 1, 0]])
    samples = clfeval.evaluate(y, p, beta=2.0).intervals()["averages"]["samples"]
    assert "f1" not in samples
    assert samples["f2"].estimate == pytest.approx(fbeta_score(y, p, beta=2.0, average="samples"), rel=1e-15)


def test_bootstrap_auc_interval_clips_replicates_at_one_half_a_pair_inside():
    from clfeval.uncertainty.area_intervals import _bootstrap_auc
    from clfeval.uncertainty.checks import z_quantile

    # 3 positives, 4 negatives: replicates at 1 are read as 1 - 1/24; half the replicates 0.5 (logit 0),
    # half 1, so the 16th-84th percentile spread on the logit scale is logit(23/24) = ln 23
    reps = np.r_[np.full(10, 0.5), np.full(10, 1.0)]
    ci = _bootstrap_auc(0.75, reps, 3.0, 4.0, 0.95, "bootstrap")
    half = z_quantile(0.95) * math.log(23) / 2
    expit = lambda v: 1 / (1 + math.exp(-v))  # noqa: E731
    assert ci.low == pytest.approx(expit(math.log(3) - half), rel=1e-12)
    assert ci.high == pytest.approx(expit(math.log(3) + half), rel=1e-12)


def test_bootstrap_ap_replicate_variances_are_each_replicates_own_influence_variance():
    from clfeval.uncertainty.area_intervals import _replicate_areas, average_precision_interval
    from clfeval.uncertainty.resampling import resampled_tables

    cells = np.array([[1, 3, 0, 4, 2], [2, 1, 2, 1, 0]], dtype=np.int64)  # negatives, positives per score, decreasing
    got = _replicate_areas(cells, 6, 11, "cross-sectional")
    tables = np.concatenate(list(resampled_tables(cells, 6, np.random.default_rng(11), "cross-sectional")))
    assert tables.shape == (6, 2, 5)
    for t, v in zip(tables, got["ap_variance"]):
        keep = t.sum(axis=0) > 0
        r = BinaryRanking(np.arange(5.0)[::-1][keep], t[0, keep], t[1, keep])
        se = average_precision_interval(r).standard_error
        if np.isnan(se):
            assert np.isnan(v)
        else:
            assert v == pytest.approx(se**2, rel=1e-12, abs=1e-300)


def test_bca_with_an_acceleration_past_the_pole_falls_back_to_the_plain_level():
    from scipy.special import ndtr
    from scipy.stats import norm

    from clfeval.uncertainty.bootstrap import interval_from_replicates

    reps = np.arange(1, 1001, dtype=float)[:, None] / 1000
    low, high, _ = interval_from_replicates(reps, np.array([0.5]), 0.95, "bca", accel=np.array([10.0]))
    assert high[0] == np.quantile(reps[:, 0], 0.975)  # 1 - a (z0 + z) < 0: the percentile level itself
    z0 = norm.ppf(499.5 / 1000)
    t = z0 + norm.ppf(0.025)
    assert low[0] == pytest.approx(np.quantile(reps[:, 0], ndtr(z0 + t / (1 - 10 * t))), rel=1e-12)


def test_an_object_with_only_one_of_a_confusion_matrix_attributes_is_not_read_as_one():
    from types import SimpleNamespace

    from clfeval.uncertainty.confusion_measures import check_table

    for fake in (SimpleNamespace(counts=[[1, 2], [3, 4]]), SimpleNamespace(per_class={}, labels=[0, 1])):
        with pytest.raises(TypeError, match=r"^counts must be numbers, got an array of dtype object\.$"):
            check_table(fake)


# -- survivors of mutation sample 24 (benchmarks/results/mutation_sample_seed24.json) ----------------------


def test_bootstrap_auc_interval_at_zero_mirrors_the_one_at_one_and_clips_replicates_at_zero():
    from clfeval.uncertainty.area_intervals import _bootstrap_auc
    from clfeval.uncertainty.checks import z_quantile

    reps = np.r_[np.full(10, 0.5), np.full(10, 0.0)]
    one = _bootstrap_auc(1.0, reps, 3.0, 4.0, 0.95, "bootstrap")
    zero = _bootstrap_auc(0.0, reps, 3.0, 4.0, 0.95, "bootstrap")
    assert one.high == 1.0 and 0.0 < one.low < 1.0
    assert (zero.low, zero.high) == (0.0, 1.0 - one.low)
    # replicates at 0 read as 1/24 (half a pair of 3 x 4): the 16th-84th percentile spread is ln 23 on the logit scale
    ci = _bootstrap_auc(0.25, reps, 3.0, 4.0, 0.95, "bootstrap")
    half = z_quantile(0.95) * math.log(23) / 2
    expit = lambda v: 1 / (1 + math.exp(-v))  # noqa: E731
    assert ci.low == pytest.approx(expit(-math.log(3) - half), rel=1e-12)
    assert ci.high == pytest.approx(expit(-math.log(3) + half), rel=1e-12)


def test_delong_and_cell_variances_of_a_batch_are_each_table_alone():
    from clfeval.uncertainty.area_intervals import delong_variances
    from clfeval.uncertainty.influence import average_precision_gradients, cell_variance

    rng = np.random.default_rng(8)
    neg, pos = rng.integers(0, 4, (5, 9)), rng.integers(0, 4, (5, 9))
    auc, var = delong_variances(neg, pos)
    ap, g_neg, g_pos = average_precision_gradients(neg, pos)
    cv = cell_variance(neg, pos, g_neg, g_pos)
    for i in range(5):
        a1, v1 = delong_variances(neg[i], pos[i])
        _, gn, gp = average_precision_gradients(neg[i], pos[i])
        assert (auc[i], var[i]) == pytest.approx((float(a1), float(v1)), rel=1e-13)
        assert cv[i] == pytest.approx(float(cell_variance(neg[i], pos[i], gn, gp)), rel=1e-12)


def test_an_auc_interval_of_one_positive_is_undefined_at_the_level_asked():
    from clfeval.uncertainty.area_intervals import logit_delong_interval

    ci = logit_delong_interval(_ranking([0.9, 0.5, 0.2, 0.1], [0, 1, 0, 0]), 0.9)
    assert ci.level == 0.9 and ci.estimate == pytest.approx(2 / 3, rel=1e-15)
    assert math.isnan(ci.low) and math.isnan(ci.high) and math.isnan(ci.standard_error)


def test_ranking_area_intervals_pass_the_resample_count_on_and_default_to_seed_0():
    from clfeval.uncertainty.area_intervals import bootstrap_area_intervals, ranking_area_intervals

    rng = np.random.default_rng(6)
    r = _ranking(rng.random(40), rng.integers(0, 2, 40))
    got = ranking_area_intervals(r, method="bootstrap", n_resamples=60)
    want = bootstrap_area_intervals(r, method="bootstrap", n_resamples=60, seed=0)
    assert all((got[k].low, got[k].high) == (want[k].low, want[k].high) for k in ("roc_auc", "average_precision"))
    assert "60" in got["roc_auc"].method


def test_curve_bands_default_to_a_grid_of_101_points_over_0_to_1():
    from clfeval.uncertainty.bands import pr_band, roc_band

    r = _ranking(np.arange(12.0), [0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for band in (roc_band(r, n_resamples=20), pr_band(r, n_resamples=20)):
            assert band.x.tolist() == np.linspace(0.0, 1.0, 101).tolist()


def test_an_object_with_only_one_of_a_ranking_attributes_is_not_read_as_one():
    from types import SimpleNamespace

    from clfeval.uncertainty.bootstrap import bootstrap_ci

    with pytest.raises(TypeError, match=r"^counts must be numbers, got an array of dtype object\.$"):
        bootstrap_ci(lambda t: t.sum(axis=(-2, -1)), SimpleNamespace(pos=np.array([1, 2])), n_resamples=10)


def test_bca_without_an_acceleration_is_bias_corrected_percentiles():
    from scipy.special import ndtr
    from scipy.stats import norm

    from clfeval.uncertainty.bootstrap import interval_from_replicates

    reps = np.arange(1, 1001, dtype=float)[:, None] / 1000
    low, high, _ = interval_from_replicates(reps, np.array([0.3]), 0.9, "bca")
    z0 = norm.ppf(299.5 / 1000)  # 299 replicates below 0.3, one tie counted half
    for got, z in ((low[0], norm.ppf(0.05)), (high[0], norm.ppf(0.95))):
        assert got == pytest.approx(np.quantile(reps[:, 0], ndtr(2 * z0 + z)), rel=1e-12)


def test_an_area_interval_of_an_undefined_area_is_undefined_and_one_at_a_bound_has_no_width():
    from clfeval.uncertainty.influence import area_interval

    nan = area_interval("roc_auc", float("nan"), np.array([0.1, -0.1]), 0.9)
    assert math.isnan(nan.low) and math.isnan(nan.high) and math.isnan(nan.standard_error) and nan.level == 0.9
    edge = area_interval("roc_auc", 1.0, np.array([0.0, 0.0]), 0.9)
    assert (edge.low, edge.high, edge.estimate, edge.standard_error) == (1.0, 1.0, 1.0, 0.0)


def test_wald_intervals_have_no_width_at_the_ends():
    from clfeval.uncertainty import proportion_ci

    for x in (0, 20):
        ci = proportion_ci(x, 20, method="wald")
        assert float(ci.low) == float(ci.high) == x / 20


def test_nan_average_with_all_zero_weights_is_the_plain_mean_of_the_defined_values():
    from clfeval.uncertainty.confusion_measures import nan_average

    got = nan_average(np.array([[0.2, np.nan, 0.6], [0.1, 0.3, 0.5]]), np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 1.0]]))
    assert got.tolist() == pytest.approx([0.4, 0.3], rel=1e-15)


def test_cell_variance_is_the_multinomial_variance_of_any_gradient_batched():
    from clfeval.uncertainty.influence import cell_variance

    rng = np.random.default_rng(12)
    neg, pos = rng.integers(0, 5, (4, 7)).astype(float), rng.integers(0, 5, (4, 7)).astype(float)
    g_neg, g_pos = rng.normal(size=(4, 7)), rng.normal(size=(4, 7))  # not centred: the mean term counts
    got = cell_variance(neg, pos, g_neg, g_pos)
    for i in range(4):
        c, g = np.r_[neg[i], pos[i]], np.r_[g_neg[i], g_pos[i]]
        want = (c * g**2).sum() - (c * g).sum() ** 2 / c.sum()
        assert got[i] == pytest.approx(want, rel=1e-12)


def test_micro_specificity_and_npv_intervals_carry_the_fallout_standard_error():
    from clfeval.uncertainty.confusion_intervals import confusion_intervals

    cis = confusion_intervals(np.array([[20, 5, 1], [4, 18, 2], [1, 3, 15]]), proportion_method="wald")
    err = cis["overall"]["error_rate"]
    micro = cis["averages"]["micro"]
    assert micro["fallout"].standard_error == pytest.approx(err.standard_error / 2, rel=1e-15)
    assert micro["specificity"].standard_error == micro["npv"].standard_error == micro["fallout"].standard_error


def test_an_undefined_mcc_has_a_nan_interval_and_standard_error():
    from clfeval.uncertainty.confusion_intervals import confusion_intervals

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mcc = confusion_intervals(np.array([[5, 0], [3, 0]]))["overall"]["mcc"]  # one predicted class: 0/0
    assert mcc.estimate == 0.0 and math.isnan(mcc.low) and math.isnan(mcc.high) and math.isnan(mcc.standard_error)


@pytest.mark.parametrize("weight", [0.1, 0.5, 3.0])
def test_equal_weights_give_the_unweighted_proportion_intervals(weight):
    import clfeval

    rng = np.random.default_rng(2)
    y, p = rng.integers(0, 3, 30), rng.integers(0, 3, 30)
    plain = clfeval.evaluate(y, p).intervals()
    weighted = clfeval.evaluate(y, p, sample_weight=np.full(30, weight)).intervals()  # Kish: n_eff = n
    for name in ("precision", "recall"):
        a, b = weighted["per_class"][name], plain["per_class"][name]
        np.testing.assert_allclose(np.asarray(a.low), np.asarray(b.low), rtol=1e-12)
        np.testing.assert_allclose(np.asarray(a.high), np.asarray(b.high), rtol=1e-12)


def test_the_deprecated_stratify_warns_at_the_callers_line():
    import clfeval
    from clfeval.uncertainty.bands import roc_band
    from clfeval.uncertainty.bootstrap import bootstrap_confusion

    if "mutants" in Path(clfeval.__file__).parts:
        pytest.skip("under mutmut every function gains a trampoline frame, which moves the warning's line")
    r = _ranking(np.arange(12.0), [0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        roc_band(r, n_resamples=20, stratify=True)
        bootstrap_confusion(np.array([[3, 1], [2, 4]]), 20, stratify=True)
    future = [w for w in caught if issubclass(w.category, FutureWarning)]
    assert [w.filename for w in future] == [__file__] * 2


# -- survivors of mutation sample 25 (benchmarks/results/mutation_sample_seed25.json) ----------------------


def test_bootstrap_auc_intervals_at_a_bound_report_the_auc():
    from clfeval.uncertainty.area_intervals import _bootstrap_auc

    reps = np.full(20, 0.9)
    for auc in (0.0, 1.0):
        assert _bootstrap_auc(auc, reps, 3.0, 4.0, 0.9, "bootstrap").estimate == auc


def test_area_intervals_at_their_edges_keep_level_and_standard_error():
    from clfeval.uncertainty.area_intervals import average_precision_interval, logit_ap_interval

    top = average_precision_interval(_ranking([0.9, 0.5, 0.2], [1, 1, 0]), 0.9)
    assert top.level == 0.9 and top.estimate == 1.0 and top.high == 1.0
    none = logit_ap_interval(_ranking([0.9, 0.5], [0, 0]), 0.9)
    assert none.level == 0.9 and all(math.isnan(v) for v in (none.low, none.high, none.standard_error))


def test_confusion_intervals_of_one_class_undefined_classes_and_bootstrap_names():
    from clfeval.uncertainty.confusion_intervals import confusion_intervals

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = confusion_intervals(np.array([[5]]))["averages"]["micro"]
        assert all(math.isnan(one[name].low) and math.isnan(one[name].high) for name in ("fallout", "specificity"))
        f1 = confusion_intervals(np.array([[5, 0], [0, 0]]))["per_class"]["f1"]  # class 1 never seen nor predicted
        assert math.isnan(f1.estimate[1]) and math.isnan(f1.low[1]) and not math.isnan(f1.estimate[0])
        assert f1.standard_error is None  # a score interval, not estimate +/- z se
        boot = confusion_intervals(np.array([[5, 2], [1, 4]]), method="bootstrap", n_resamples=200, seed=0)
    assert boot["per_class"]["recall"].method.endswith(", cross-sectional, B=200)")


def test_a_negative_count_is_located_at_its_cell():
    from clfeval.uncertainty.confusion_measures import check_table

    with pytest.raises(ValueError, match=r"^counts must be non-negative; found -4 at \(1, 1\)\.$"):
        check_table(np.array([[3, 0], [2, -4]]))


def test_area_averages_of_few_cases_reach_the_classes_limits_or_have_none():
    """Binary, 20 cases: the macro ROC AUC is the class's AUC, so its interval is the class's (the
    influence interval alone covered 72% at 2 positives), while the macro AP, a mean of two different
    APs, reaches the average of their limits; one positive: the classes have no interval of their
    own, said so, the AP average counts their limits as 0 and 1 and the AUC's averages, this AUC,
    have none either; no positive: none at all."""
    import clfeval

    rng = np.random.default_rng(8)
    y = np.r_[np.zeros(17, int), np.ones(3, int)]
    s = rng.normal(size=20) + 1.5 * y
    d = clfeval.evaluate(y, y_score=s, threshold=0.7).intervals()
    cls = d["per_class"]["roc_auc"]
    for avg in ("macro", "weighted"):
        ci = d["averages"][avg]["roc_auc"]
        assert (ci.low, ci.high) == (cls.low[1], cls.high[1])
        assert "widened to the average of each class's limits" in d["averages"][avg]["average_precision"].method
    y1 = np.r_[np.zeros(19, int), np.ones(1, int)]
    d1 = clfeval.evaluate(y1, y_score=s, threshold=0.7).intervals()
    macro = d1["averages"]["macro"]
    assert np.isnan(macro["roc_auc"].low) and np.isnan(d1["overall"]["roc_auc"].low)
    ap0 = d1["per_class"]["average_precision"]
    assert np.isnan(ap0.low[1]) and macro["average_precision"].high >= (ap0.high[0] + 1.0) / 2 - 1e-12
    assert any(n.startswith("roc_auc: no interval for class 0, 1") and "have none either" in n for n in d1["notes"])
    assert any(n.startswith("average_precision: no interval for class 1") and "limits as 0 and 1" in n
               for n in d1["notes"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d0 = clfeval.evaluate(np.zeros(20, int), y_score=s, threshold=0.7, labels=[0, 1]).intervals()
    assert np.isnan(d0["averages"]["macro"]["average_precision"].low)


def test_bootstrap_intervals_of_a_small_class_reach_the_analytic_ones():
    """Below 20 cases of a class the bootstrap alone held 83-87% (2 positives in 20 cases), so each of
    its intervals reaches at least the analytic limits there; with larger classes it is untouched."""
    import clfeval

    rng = np.random.default_rng(9)
    y = (rng.random(40) < 0.2).astype(int)
    s = rng.normal(size=40) + 1.5 * y
    ev = clfeval.evaluate(y, y_score=s, threshold=0.8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for method in ("bootstrap", "bca"):
            boot, analytic = ev.intervals(method=method, n_resamples=300), ev.intervals()
            for section in ("per_class", "overall"):
                for name, ci in boot[section].items():
                    a = analytic[section][name]
                    ok = ~np.isnan(np.asarray(a.low, dtype=float))
                    assert np.all(np.asarray(ci.low)[ok] <= np.asarray(a.low)[ok]), (section, name)
                    assert np.all(np.asarray(ci.high)[ok] >= np.asarray(a.high)[ok]), (section, name)
                    assert "or the analytic interval, whichever reaches further" in ci.method
            assert any("widened to reach the analytic one" in n for n in boot["notes"])
        big_y = (rng.random(400) < 0.5).astype(int)
        big = clfeval.evaluate(big_y, y_score=rng.normal(size=400) + big_y, threshold=0.5)
        assert "whichever" not in big.intervals(method="bootstrap", n_resamples=200)["overall"]["accuracy"].method


@pytest.mark.parametrize(("weighted", "method"), [(False, "analytic"), (True, "analytic"), (False, "bootstrap")])
def test_binary_macro_and_weighted_roc_auc_have_the_roc_aucs_own_interval(weighted, method):
    """In a binary task both classes' ROC AUCs are one number, and so are their macro and weighted
    averages; they printed an influence interval ([0.7600, 0.8719]) beside DeLong's for the same
    number ([0.7596, 0.8721]). Now one number has one interval."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    s = np.clip(y * 0.3 + rng.random(200) * 0.8, 0, 1)
    w = rng.integers(1, 4, 200) if weighted else None
    ev = clfeval.evaluate(y, y_score=s, sample_weight=w)
    options = {} if method == "analytic" else {"n_resamples": 200, "seed": 3}
    own = ev.ci("roc_auc", method=method, **options)
    for average in ("macro", "weighted"):
        got = ev.ci("roc_auc", average=average, method=method, **options)
        assert (got.low, got.high, got.method) == (own.low, own.high, own.method)
        assert got.estimate == pytest.approx(ev.report.averages[average]["roc_auc"], abs=1e-15)
