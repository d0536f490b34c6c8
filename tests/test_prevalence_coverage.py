"""Coverage of the nominal 95% intervals at another prevalence and of the PRG area, in seeded simulations
(slow: ``pytest -m slow``). The simulation is ``benchmarks/prevalence_coverage.py`` (which prints the
full table); each setting draws a true TPR, FPR, class sizes (30-400) and a prevalence pi (log-uniform
0.01-0.6), or class-conditional score distributions on a grid of score levels.

The rule of the package: nominal 95% covers 93-97% on average over random settings, and no setting
falls far below (Monte Carlo error at 300 replicates is about 1.3 points per setting).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from prevalence_coverage import area_coverage, measure_coverage

pytestmark = pytest.mark.slow


def test_measures_at_prevalence_cover():
    cov = measure_coverage(n_settings=30, n_reps=300, seed=11)
    for name, c in cov.items():
        assert 0.93 <= c.mean() <= 0.97, (name, c.mean())
        assert c.min() >= 0.89, (name, c.min())


def test_ap_at_prevalence_and_prg_auc_cover():
    cov = area_coverage(n_settings=16, n_reps=250, seed=12)
    for name, c in cov.items():
        assert 0.93 <= c.mean() <= 0.97, (name, c.mean())
        assert c.min() >= 0.86, (name, c.min())


def test_weighted_ap_at_prevalence_covers():
    """Random non-integer, informative sampling weights (``benchmarks/prevalence_weighted_coverage.py``)."""
    from prevalence_weighted_coverage import weighted_ap_coverage

    cov = weighted_ap_coverage(n_settings=16, n_reps=250, seed=21)
    assert 0.93 <= cov.mean() <= 0.97, cov.mean()
    assert cov.min() >= 0.86, cov.min()
