"""Coverage of the nominal 95% intervals of Hand & Till's M and the weighted one-vs-one AUC (slow).

Test sets are drawn cross-sectionally (class totals random) from a softmax of Gaussian class
signals rounded to one decimal (ties); the population value is M on 400,000 cases of the same
model. The band is 93-97% (each class has at least 20 expected cases), widened by 2.576 Monte
Carlo standard errors, as tests/test_uncertainty_coverage.py does. benchmarks/ovo_coverage.py runs
the larger grid (11 designs, bootstrap comparison, fixed against random pair weights).
"""

from __future__ import annotations

import numpy as np
import pytest

from clfeval.uncertainty.hand_till import ovo_influences, ovo_interval

pytestmark = pytest.mark.slow

LOW, HIGH = 0.93, 0.97


def _draw(rng, n, prev, sep):
    k = len(prev)
    y = rng.choice(k, size=n, p=prev)
    z = rng.normal(size=(n, k))
    z[np.arange(n), y] += sep
    z = np.round(z, 1)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    return y, p / p.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("k, n, prev, sep", [
    (3, 60, (1 / 3, 1 / 3, 1 / 3), 1.0),
    (4, 200, (0.4, 0.3, 0.2, 0.1), 0.5),
    (5, 500, (0.4, 0.25, 0.15, 0.1, 0.1), 1.5),
    (3, 300, (1 / 3, 1 / 3, 1 / 3), 2.5),
])
def test_coverage_of_m_and_weighted_m(k, n, prev, sep) -> None:
    rng = np.random.default_rng(20260)
    truth = ovo_influences(*_draw(rng, 400_000, prev, sep), k, influence=False).estimates
    reps = 1000
    hits = {"macro": 0, "weighted": 0}
    for _ in range(reps):
        y, s = _draw(rng, n, prev, sep)
        while np.bincount(y, minlength=k).min() < 2:
            y, s = _draw(rng, n, prev, sep)
        fit = ovo_influences(y, s, k)
        for avg in hits:
            iv = ovo_interval(fit, avg, 0.95)
            hits[avg] += iv.low <= truth[avg] <= iv.high
    slack = 2.576 * np.sqrt(0.95 * 0.05 / reps)
    for avg, h in hits.items():
        share = h / reps
        print(f"k={k} n={n} {avg}: {share:.3f}")
        assert LOW - slack <= share <= HIGH + slack, (avg, share)
