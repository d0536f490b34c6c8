"""Integer sample weights whose total passes int64 (found while writing the drop-ins' docstrings).

The per-sample means (log loss, Brier, hinge, top-k, the multilabel ranking metrics) summed the
weights with ``weight.sum()`` and counted hits with an int64 ``np.dot``: with five weights of
2**62 both wrapped, and the metrics came out 5x too large, 0 or negative. Equal weights, however
large, must give the unweighted mean; unequal ones the float-weighted mean scikit-learn gives.
"""

from __future__ import annotations

import numpy as np
import pytest

from clfeval import metrics

sklearn_metrics = pytest.importorskip("sklearn.metrics")

Y_BIN = np.array([0, 1, 1, 0, 1])
P_BIN = np.array([0.1, 0.8, 0.3, 0.4, 0.9])
Y_ML = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 0]])
S_ML = np.array([[0.9, 0.2, 0.4], [0.1, 0.7, 0.3], [0.5, 0.6, 0.8], [0.2, 0.3, 0.1], [0.4, 0.9, 0.6]])

CASES = [
    ("log_loss", Y_BIN, P_BIN),
    ("brier_score_loss", Y_BIN, P_BIN),
    ("hinge_loss", 2 * Y_BIN - 1, P_BIN - 0.5),
    ("top_k_accuracy_score", Y_BIN, P_BIN),
    ("coverage_error", Y_ML, S_ML),
    ("label_ranking_loss", Y_ML, S_ML),
    ("label_ranking_average_precision_score", Y_ML, S_ML),
    ("dcg_score", Y_ML, S_ML),
    ("ndcg_score", Y_ML, S_ML),
]


@pytest.mark.parametrize(("name", "y", "s"), CASES, ids=[c[0] for c in CASES])
def test_equal_huge_integer_weights_give_the_unweighted_mean(name, y, s):
    f = getattr(metrics, name)
    assert f(y, s, sample_weight=np.full(5, 2**62, dtype=np.int64)) == pytest.approx(f(y, s), rel=1e-15)


@pytest.mark.parametrize(("name", "y", "s"), CASES, ids=[c[0] for c in CASES])
def test_unequal_huge_integer_weights_match_float_weights_in_sklearn(name, y, s):
    w = np.array([2**62, 2**61, 2**62, 3 * 2**60, 2**62], dtype=np.int64)
    ours = getattr(metrics, name)(y, s, sample_weight=w)
    theirs = getattr(sklearn_metrics, name)(y, s, sample_weight=w.astype(np.float64))
    assert ours == pytest.approx(theirs, rel=1e-14)
