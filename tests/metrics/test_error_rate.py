"""``metrics.error_rate`` is the report's error rate: misclassified weight over total weight,
correctly rounded (``zero_one_loss`` keeps scikit-learn's ``1 - accuracy``, which differs in the
last bit, e.g. 0.30000000000000004 for 3 errors in 10)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval import metrics


def test_three_errors_in_ten_is_three_tenths():
    y, p = [0] * 10, [1] * 3 + [0] * 7
    assert metrics.error_rate(y, p) == 0.3
    assert metrics.zero_one_loss(y, p) == 1 - 0.7  # scikit-learn's value, kept by the drop-in


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 5)), min_size=1, max_size=40))
def test_error_rate_is_the_correctly_rounded_ratio_and_the_reports(rows):
    y, p, w = (np.array(c) for c in zip(*rows))
    if w.sum() == 0:
        w[0] = 1
    wrong, total = int(w[y != p].sum()), int(w.sum())
    got = metrics.error_rate(y, p, sample_weight=w)
    assert got == float(Fraction(wrong, total))
    assert got == clfeval.evaluate(y, p, sample_weight=w).report.overall["error_rate"]


def test_multilabel_error_rate_is_its_own_ratio_too():
    y = np.array([[1, 0]] * 10)
    p = np.array([[0, 0]] * 3 + [[1, 0]] * 7)
    assert clfeval.evaluate(y, p).report.overall["error_rate"] == 0.3 == metrics.error_rate(y, p)
