"""What the two coverage simulations (coverage.py, group_coverage.py) share: counting one interval
against the truth, and judging a coverage against its band within Monte Carlo error."""

from __future__ import annotations

import math

#: the 99% normal quantile: a coverage is outside its band only beyond this many Monte Carlo errors
Z99 = 2.576


def count_interval(tally: list, low: float, high: float, truth: float) -> bool:
    """Add one interval to ``tally`` = [covered, truth below, truth above, undefined, sum of widths, ...];
    False (and counted undefined) where a limit is not finite.

    >>> t = [0, 0, 0, 0, 0.0]
    >>> count_interval(t, 0.25, 0.75, 0.5), count_interval(t, float("nan"), 1.0, 0.5), t
    (True, False, [1, 0, 0, 1, 0.5])
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        tally[3] += 1
        return False
    tally[0] += low <= truth <= high
    tally[1] += truth < low
    tally[2] += truth > high
    tally[4] += high - low
    return True


def judge(coverage: float, low: float, high: float, replicates: int) -> str:
    """"in" the band [low, high]; "mc": outside but within 99% Monte Carlo error of a 95% coverage
    over ``replicates`` test sets; "low" / "high": outside beyond it; "n/a": never defined.

    >>> judge(0.95, 0.93, 0.97, 1000), judge(0.925, 0.93, 0.97, 1000), judge(0.90, 0.93, 0.97, 1000)
    ('in', 'mc', 'low')
    """
    if not math.isfinite(coverage):
        return "n/a"
    if low <= coverage <= high:
        return "in"
    se = math.sqrt(0.95 * 0.05 / max(replicates, 1))
    if coverage < low:
        return "mc" if coverage + Z99 * se >= low else "low"
    return "mc" if coverage - Z99 * se <= high else "high"
