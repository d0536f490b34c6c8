"""Adjusting p-values for testing several hypotheses at once.

:func:`holm_adjusted` is Holm's step-down adjustment (Holm 1979), the one home of its formula:
:func:`clfeval.stats.holm` (the comparison of classifiers over data sets) and the gaps between
groups (:mod:`clfeval.evaluation.groups`) read it.

>>> holm_adjusted([0.01, 0.04, float("nan"), 0.03]).round(3).tolist()
[0.03, 0.06, nan, 0.06]
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["holm_adjusted"]


def holm_adjusted(pvalues: Any) -> np.ndarray:
    """Holm's step-down adjusted p-values: sorted ascending, max_{j <= i} min(1, (m - j + 1) p_(j));
    NaN entries stay NaN and do not count in m."""
    p = np.asarray(pvalues, dtype=np.float64).reshape(-1)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = ok.size
    if m:
        order = ok[np.argsort(p[ok], kind="stable")]
        out[order] = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    return out
