"""Exactness at scale: integer counts beyond 2^53, areas whose sums overflow int64, and areas
known in closed form on millions of rows.

Oracles: Python's exact integers and fractions.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.formulas.curves import _exact_dot, roc_auc
from clfeval.streaming import StreamingEvaluation


def exact_auc(neg: list[int], pos: list[int]) -> Fraction:
    """Mann-Whitney by hand over scores in decreasing order: a positive beats the negatives
    below its score, ties count half."""
    P, N = sum(pos), sum(neg)
    below = [sum(neg[i + 1:]) for i in range(len(neg))]
    return Fraction(sum(p * (2 * b + n) for p, n, b in zip(pos, neg, below)), 2 * P * N)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**61), st.integers(0, 2**61)), min_size=1, max_size=6))
def test_roc_auc_of_huge_counts_is_the_exact_fraction_rounded(cells):
    neg = [n for n, _ in cells]
    pos = [p for _, p in cells]
    if sum(neg) == 0 or sum(pos) == 0 or sum(neg) >= 2**63 or sum(pos) >= 2**63:
        return
    got = roc_auc(np.array(neg, dtype=np.int64), np.array(pos, dtype=np.int64))
    assert got == float(exact_auc(neg, pos))


def test_exact_dot_matches_python_integers():
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 2**62, 70_000), rng.integers(0, 2**62, 70_000)
    assert _exact_dot(a, b) == sum(int(x) * int(y) for x, y in zip(a.tolist(), b.tolist()))


def test_stream_counts_stay_exact_beyond_2_to_the_53():
    y = [0, 1, 1, 0, 1, 0, 0]
    s = StreamingEvaluation(labels=[0, 1]).update(y, y_score=[0.1, 0.9, 0.4, 0.4, 0.7, 0.2, 0.8])
    base = s.result()
    for _ in range(58):  # 7 * 2^58 rows: far beyond 2^53, below 2^63
        s = s.merge(s)
    ev = s.result()
    assert ev.n_samples == 7 * 2**58
    assert ev.confusion.counts.tolist() == [[c * 2**58 for c in row] for row in base.confusion.counts.tolist()]
    assert ev.confusion.counts.dtype == np.int64
    # the same rows 2^58 times over: the same areas, exactly (the sums overflow int64 on the way)
    assert ev.report.overall["roc_auc"] == base.report.overall["roc_auc"]
    assert ev.report.overall["average_precision"] == pytest.approx(base.report.overall["average_precision"],
                                                                  rel=1e-15)


@pytest.mark.parametrize("m", [1_000_000])
def test_areas_known_in_closed_form_on_millions_of_rows(m):
    """Positives score j, negatives j + 1/2 (j = 0 .. m-1): the ranking alternates negative,
    positive from the top, so ROC AUC = (m - 1) / (2 m) and every positive's precision is 1/2 (AP 1/2)."""
    j = np.arange(m, dtype=np.float64)
    s = StreamingEvaluation(labels=[0, 1], mode="exact", threshold=0.0)
    for start in range(0, m, 250_000):
        part = j[start:start + 250_000]
        s.update(np.r_[np.ones(part.size, int), np.zeros(part.size, int)], y_score=np.r_[part, part + 0.5])
    ev = s.result()
    auc = ev.report.overall["roc_auc"]
    assert auc == pytest.approx(float(Fraction(m - 1, 2 * m)), rel=1e-12)
    assert ev.report.overall["average_precision"] == pytest.approx(0.5, rel=1e-12)
    assert auc == clfeval.evaluate(np.r_[np.ones(m, int), np.zeros(m, int)], y_score=np.r_[j, j + 0.5],
                                   threshold=0.0).report.overall["roc_auc"]
