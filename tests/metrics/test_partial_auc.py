"""Partial AUC on either axis: pROC's reference values on aSAH, scikit-learn's max_fpr, properties.

Reference values: pROC's own test suite, tests/testthat/test-auc.R (github.com/xrobin/pROC), with
r.wfns <- roc(aSAH$outcome, aSAH$wfns), r.ndka <- roc(aSAH$outcome, aSAH$ndka) (cases "Poor",
direction "<"). pROC's ``partial.auc = c(1, .9)`` is a specificity range (FPR 0 to 0.1) by default
and a sensitivity range (TPR 0.9 to 1) with ``partial.auc.focus = "se"``; ``partial.auc.correct``
is McClish's standardisation.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clfeval import metrics
from clfeval.exceptions import UndefinedMetricWarning

sklearn_metrics = pytest.importorskip("sklearn.metrics")


#: (marker, axis, (a, b) in clfeval's terms, standardized, pROC's value); NaN: pROC returns NA with a warning
PROC = [
    ("wfns", "fpr", (0.0, 0.1), False, 0.0334417344173442),
    ("wfns", "fpr", (0.1, 0.2), False, 0.0598373983739837),
    ("wfns", "fpr", (0.5, 1.0), False, 0.488134475939354),
    ("ndka", "fpr", (0.0, 0.1), False, 0.0107046070460705),
    ("ndka", "fpr", (0.1, 0.2), False, 0.0277777777777778),
    ("ndka", "fpr", (0.5, 1.0), False, 0.416836043360434),
    ("wfns", "tpr", (0.9, 1.0), False, 0.0400999322493225),
    ("wfns", "tpr", (0.8, 0.9), False, 0.0609953703703703),
    ("wfns", "tpr", (0.0, 0.5), False, 0.483358739837398),
    ("ndka", "tpr", (0.9, 1.0), False, 0.0037940379403794),
    ("ndka", "tpr", (0.8, 0.9), False, 0.0242547425474255),
    ("ndka", "tpr", (0.0, 0.5), False, 0.428523035230352),
    ("wfns", "fpr", (0.0, 0.1), True, 0.649693339038653),
    ("wfns", "fpr", (0.1, 0.2), True, 0.763749402199904),
    ("wfns", "fpr", (0.5, 1.0), True, 0.952537903757416),
    ("ndka", "fpr", (0.0, 0.1), True, 0.530024247610897),
    ("ndka", "fpr", (0.1, 0.2), True, 0.575163398692811),
    ("ndka", "fpr", (0.5, 1.0), True, 0.667344173441734),
    ("wfns", "tpr", (0.9, 1.0), True, 0.68473648552275),
    ("wfns", "tpr", (0.8, 0.9), True, 0.770561002178649),
    ("wfns", "tpr", (0.0, 0.5), True, 0.933434959349593),
    ("ndka", "tpr", (0.9, 1.0), True, float("nan")),
    ("ndka", "tpr", (0.8, 0.9), True, 0.554439662043679),
    ("ndka", "tpr", (0.0, 0.5), True, 0.714092140921409),
    ("wfns", "fpr", (0.0, 1.0), True, 0.823678861788618),  # full interval == full AUC
    ("ndka", "tpr", (0.0, 1.0), True, 0.611957994579946),
]


@pytest.mark.parametrize(("marker", "axis", "bounds", "standardized", "want"), PROC)
def test_proc_reference_values_on_asah(asah, marker, axis, bounds, standardized, want):
    y = (asah["outcome"] == "Poor").to_numpy()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = metrics.partial_auc(y, asah[marker].to_numpy(float), standardized=standardized,
                                  **{f"{axis}_range": bounds})
    if np.isnan(want):
        assert np.isnan(got) and [w.category for w in caught] == [UndefinedMetricWarning]
        assert "below the chance area" in str(caught[0].message)
    else:
        assert got == pytest.approx(want, rel=1e-13) and not caught


scores = st.lists(st.tuples(st.booleans(), st.integers(0, 6), st.integers(0, 3)), min_size=2, max_size=60)


def _arrays(rows):
    y = np.array([r[0] for r in rows])
    y[:2] = [False, True]
    return y, np.array([r[1] for r in rows], dtype=float) / 6, np.array([r[2] for r in rows])


@settings(max_examples=60, deadline=None)
@given(rows=scores, m=st.floats(0.01, 1.0), weighted=st.booleans())
def test_fpr_range_from_zero_standardized_is_sklearns_max_fpr(rows, m, weighted):
    y, s, w = _arrays(rows)
    w = w + 1 if weighted else None
    want = sklearn_metrics.roc_auc_score(y, s, max_fpr=m, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # below chance: tested on aSAH above
        got = metrics.partial_auc(y, s, fpr_range=(0.0, m), sample_weight=w)
    if want < 0.5 - 1e-12:  # scikit-learn extends McClish's line below chance; pROC (and this) call it undefined
        assert np.isnan(got)
    else:
        assert got == pytest.approx(want, rel=1e-12, abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(rows=scores, cuts=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=3), axis=st.sampled_from(["fpr", "tpr"]),
       weighted=st.booleans())
def test_areas_of_adjacent_ranges_add_up_to_the_auc(rows, cuts, axis, weighted):
    """Ties (7 score values) make diagonal segments and vertical steps; the pieces still add up."""
    y, s, w = _arrays(rows)
    w = w if weighted and w.sum() > 0 and (w[y] > 0).any() and (w[~y] > 0).any() else None
    edges = sorted({0.0, 1.0, *cuts})
    parts = [metrics.partial_auc(y, s, standardized=False, sample_weight=w, **{f"{axis}_range": (a, b)})
             for a, b in zip(edges[:-1], edges[1:])]
    auc = sklearn_metrics.roc_auc_score(y, s, sample_weight=w)
    assert sum(parts) == pytest.approx(auc, abs=1e-12)
    assert all(-1e-15 <= p <= b - a + 1e-15 for p, (a, b) in zip(parts, zip(edges[:-1], edges[1:])))


def test_perfect_and_reversed_rankings_hit_the_ends():
    y = np.array([0, 0, 0, 1, 1, 1])
    s = np.arange(6.0)
    for axis in ("fpr", "tpr"):
        assert metrics.partial_auc(y, s, **{f"{axis}_range": (0.2, 0.6)}) == 1.0
        assert metrics.partial_auc(y, s, standardized=False, **{f"{axis}_range": (0.2, 0.6)}) == pytest.approx(0.4)
        assert metrics.partial_auc(y, -s, standardized=False, **{f"{axis}_range": (0.2, 0.6)}) == 0.0


def test_a_constant_score_is_chance_on_either_axis():
    y = np.array([0, 1, 0, 1, 1])
    for axis in ("fpr", "tpr"):
        assert metrics.partial_auc(y, np.zeros(5), **{f"{axis}_range": (0.1, 0.3)}) == pytest.approx(0.5, abs=1e-12)


def test_one_class_only_is_nan():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(metrics.partial_auc([1, 1, 1], [0.1, 0.2, 0.3], fpr_range=(0, 0.5)))


@pytest.mark.parametrize(("kwargs", "match"), [
    ({}, "exactly one of fpr_range"),
    ({"fpr_range": (0, 0.1), "tpr_range": (0, 0.1)}, "exactly one of fpr_range"),
    ({"fpr_range": (0.2, 0.1)}, r"fpr_range must satisfy 0 <= a < b <= 1, got \(0.2, 0.1\)"),
    ({"tpr_range": (0.0, 1.5)}, "tpr_range must satisfy"),
    ({"fpr_range": (0.1, 0.1)}, "fpr_range must satisfy"),
    ({"fpr_range": 0.1}, "fpr_range must be a pair"),
    ({"fpr_range": ("a", 0.1)}, "pair of numbers"),
    ({"fpr_range": (0, 0.1), "standardized": "yes"}, "standardized must be True or False"),
])
def test_bad_arguments_say_which_and_why(kwargs, match):
    with pytest.raises(ValueError, match=match):
        metrics.partial_auc([0, 1, 0, 1], [0.1, 0.8, 0.3, 0.6], **kwargs)
