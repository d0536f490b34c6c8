"""Coverage of the partial AUC's nominal 95% interval in seeded simulations (slow: ``pytest -m slow``).

Binormal scores (negatives N(0, 1), positives N(mu, sd)), labels drawn with the population's
prevalence so the class totals vary between test sets, as in tests/test_uncertainty_coverage.py.
The true partial area is the binormal ROC curve's, by quadrature. Bands as there: 93-97% where the
range holds at least 20 expected cases of its own axis and the other class at least 20, at least
90% below that, each widened by 2.576 Monte Carlo standard errors. The full grid (3 binormal
models x 7 ranges x n = 50 to 1000 x prevalence 0.2 and 0.5) is benchmarks/partial_auc_coverage.py.
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from clfeval.uncertainty.partial_auc_intervals import partial_auc_interval

# the simulation's pieces (the binormal truth, the ranking of a drawn set) live with the full grid
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from partial_auc_coverage import ranking_of, true_area  # noqa: E402

pytestmark = pytest.mark.slow

SIMS = 1000


def coverage(mu, sd, axis, lo, hi, n, prevalence, seed) -> float:
    rng = np.random.default_rng(seed)
    truth = true_area(mu, sd, axis, lo, hi)
    hits = done = 0
    while done < SIMS:
        y = (rng.random(n) < prevalence).astype(float)
        if y.sum() < 2 or n - y.sum() < 2:
            continue
        s = np.where(y > 0, rng.normal(mu, sd, n), rng.normal(0.0, 1.0, n))
        ci = partial_auc_interval(ranking_of(y, s), standardized=False, **{f"{axis}_range": (lo, hi)})
        hits += ci.low <= truth <= ci.high
        done += 1
    share = hits / done
    print(f"coverage partial AUC {axis} [{lo}, {hi}], mu={mu}, sd={sd}, n={n}, prevalence={prevalence}: {share:.3f}")
    return share


ALLOWANCE = 2.576 * np.sqrt(0.95 * 0.05 / SIMS)


@pytest.mark.parametrize(("mu", "sd", "axis", "lo", "hi", "n", "prevalence"), [
    (1.0, 1.0, "fpr", 0.0, 0.2, 300, 0.5),    # 30 negatives in range, 150 positives
    (1.5, 1.5, "fpr", 0.1, 0.3, 300, 0.2),    # 48 in range, 60 positives
    (1.0, 1.0, "tpr", 0.8, 1.0, 300, 0.5),    # 30 positives in range, 150 negatives
    (2.0, 1.0, "fpr", 0.5, 1.0, 100, 0.5),    # near-perfect there: shares of 1, the score bound
    (1.0, 1.0, "tpr", 0.9, 1.0, 1000, 0.2),   # 20 positives in range
    (2.0, 1.0, "fpr", 0.0, 0.1, 1000, 0.5),   # 50 in range
])
def test_partial_auc_interval_covers_93_to_97(mu, sd, axis, lo, hi, n, prevalence):
    share = coverage(mu, sd, axis, lo, hi, n, prevalence, seed=zlib.crc32(repr((mu, sd, axis, lo, hi, n)).encode()))
    assert 0.93 - ALLOWANCE <= share <= 0.97 + ALLOWANCE


@pytest.mark.parametrize(("mu", "sd", "axis", "lo", "hi", "n", "prevalence"), [
    (1.0, 1.0, "fpr", 0.0, 0.1, 100, 0.2),    # 8 negatives in range
    (1.5, 1.5, "tpr", 0.9, 1.0, 50, 0.5),     # 2.5 positives in range
])
def test_with_few_cases_in_range_it_covers_at_least_90(mu, sd, axis, lo, hi, n, prevalence):
    share = coverage(mu, sd, axis, lo, hi, n, prevalence, seed=7 + n)
    assert share >= 0.90 - ALLOWANCE
