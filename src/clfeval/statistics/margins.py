"""Overall label measures read off the margins of confusion counts (dense or pair-coded).

Accuracy, balanced accuracy, MCC and Cohen's kappa need only the diagonal, the row sums (support),
the column sums (predicted counts) and the total, so they never need a k x k table; weighted kappa
adds one sum over the non-zero cells. The formulas are those of :mod:`clfeval.formulas.measures`, written on
margins, so a pair-coded :class:`clfeval.statistics.sparse_counts.PairCounts` of 10^5 classes costs O(cells + k).

>>> from clfeval.statistics.sparse_counts import PairCounts
>>> pc = PairCounts.from_dense([0, 1], np.array([[1, 1], [0, 2]]))
>>> round(float(matthews_corrcoef(pc)), 6), float(balanced_accuracy(pc))
(0.57735, 0.75)
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from clfeval.formulas.exact_sums import exact_div, exact_mcc_of_margins, exact_plain_kappa_of_margins, is_big
from clfeval.formulas.measures import mcc_of_margins, ratio
from clfeval.statistics.sparse_counts import PairCounts

#: integer totals from which products of margins pass 2**53 (float64 would round them)
EXACT_FROM = 1 << 26

__all__ = ["pair_overall", "Margins", "margins", "accuracy", "balanced_accuracy", "matthews_corrcoef", "cohen_kappa"]


class Margins:
    """diagonal, row sums, column sums, trace and total of one table (dense or pair-coded).

    >>> m = margins(np.array([[2, 1], [0, 3]]))
    >>> m.diagonal.tolist(), m.rows.tolist(), m.cols.tolist(), int(m.trace), int(m.total)
    ([2, 3], [3, 3], [2, 4], 5, 6)
    """

    __slots__ = ("diagonal", "rows", "cols", "trace", "total")

    def __init__(self, diagonal: np.ndarray, rows: np.ndarray, cols: np.ndarray, total: Any) -> None:
        self.diagonal, self.rows, self.cols = diagonal, rows, cols
        self.trace = diagonal.sum()
        self.total = total


def margins(counts: Any) -> Margins:
    """The margins of a :class:`PairCounts` (as the formulas read it: the exact sums of extreme
    float weights, see :meth:`PairCounts.for_formulas`), a ``ConfusionCounts`` or a dense (k, k) array."""
    if isinstance(counts, PairCounts):
        counts = counts.for_formulas()[0]
        return Margins(counts.diagonal, counts.row_sums, counts.col_sums, counts.total)
    cm = np.asarray(getattr(counts, "matrix", counts))
    return Margins(np.diagonal(cm).copy(), cm.sum(axis=1), cm.sum(axis=0), cm.sum())


def accuracy(counts: Any) -> float:
    """Trace / total (NaN for an empty table)."""
    m = margins(counts)
    return float(ratio(m.trace, m.total))


def balanced_accuracy(counts: Any, adjusted: bool = False) -> float:
    """Mean recall over the classes with support, as :func:`clfeval.formulas.measures.balanced_accuracy`.

    >>> balanced_accuracy(np.array([[3, 1], [1, 1]]))
    0.625
    """
    m = margins(counts)
    per_class = ratio(m.diagonal, m.rows)
    present = ~np.isnan(per_class)
    n_present = present.sum()
    score = ratio(np.where(present, per_class, 0.0).sum(), n_present)
    if adjusted:
        chance = ratio(np.ones_like(score), n_present)
        score = ratio(score - chance, 1.0 - chance)
    return float(score)


def matthews_corrcoef(counts: Any) -> float:
    """Gorodkin's R_K from the margins, as :func:`clfeval.formulas.measures.matthews_corrcoef` (0 where undefined)."""
    m = margins(counts)
    if _needs_exact(m, counts):  # products float64 would round (or cancel): exact, correctly rounded
        return exact_mcc_of_margins(m.trace, m.rows.tolist(), m.cols.tolist())
    return float(mcc_of_margins(float(m.trace), m.rows, m.cols))


def _needs_exact(m: Margins, counts: Any) -> bool:
    """Exact sums (Python ints: extreme weights), or integer totals from :data:`EXACT_FROM` on:
    the margins are then combined in exact arithmetic (float64 products would round or cancel)."""
    return m.rows.dtype.kind == "O" or (m.rows.dtype.kind in "iu" and is_big(np.asarray(m.total), limit=EXACT_FROM))


def _pairs(counts: Any) -> PairCounts:
    if isinstance(counts, PairCounts):
        return counts.for_formulas()[0]
    cm = np.asarray(getattr(counts, "matrix", counts))
    return PairCounts.from_dense(np.arange(cm.shape[0]), cm)


def cohen_kappa(counts: Any, weights: Literal["linear", "quadratic"] | None = None) -> float:
    """Cohen's kappa (plain, linear or quadratic weights) in O(cells + k); NaN where undefined.

    >>> cohen_kappa(np.array([[20, 5], [10, 15]]))
    0.4
    >>> round(cohen_kappa(np.array([[2, 1, 0], [0, 3, 1], [1, 0, 2]]), "quadratic"), 6)
    0.5
    """
    pc = _pairs(counts)
    if weights is None and _needs_exact(margins(pc), counts):
        return exact_plain_kappa_of_margins(pc.trace, pc.row_sums.tolist(), pc.col_sums.tolist())
    # exact sums (Python ints) as floats over one common power of two: kappa is scale-free
    shift = max(int(pc.total).bit_length() - 60, 0) if pc.values.dtype.kind == "O" else 0
    row = _as_floats(pc.row_sums, shift)  # y1 (true) margin
    col = _as_floats(pc.col_sums, shift)  # y2 (predicted) margin
    total = float(col.sum())
    if total == 0:
        return float("nan")
    values = _as_floats(pc.values, shift)
    gap = (pc.true_index - pc.pred_index).astype(np.float64)
    # Only sums of non-negative terms (no a - b of near-equal sums), so that weights spanning the
    # float range keep their small cells: sum_ij w(i - j) col_i row_j = sum_j row_j * side_j, where
    # side_j sums w(i - j) col_i over i below and above j by running sums.
    if weights is None:
        observed = float(values[gap != 0].sum())
        side = _exclusive(col) + _exclusive(col[::-1])[::-1]
    elif weights == "linear":
        observed = float(np.dot(np.abs(gap), values))
        side = _linear_side(col) + _linear_side(col[::-1])[::-1]
    else:
        observed = float(np.dot(gap * gap, values))
        side = _quadratic_side(col) + _quadratic_side(col[::-1])[::-1]
    chance = float(np.dot(side, row)) / total
    if chance == 0:
        return float("nan")
    return float(1.0 - observed / chance)


def _as_floats(values: np.ndarray, shift: int) -> np.ndarray:
    """float64 of counts, exact Python ints divided by 2**shift first (correctly rounded)."""
    if values.dtype.kind != "O":
        return np.asarray(values, dtype=np.float64)
    return np.array([exact_div(int(v), 1 << shift) for v in values.tolist()], dtype=np.float64)


def pair_overall(counts: Any) -> dict[str, float]:
    """The report's overall numbers (accuracy, error rate, balanced accuracy, MCC, kappa) of counts.

    >>> {k: round(v, 4) for k, v in pair_overall(np.array([[3, 1], [2, 4]])).items()}
    {'accuracy': 0.7, 'error_rate': 0.3, 'balanced_accuracy': 0.7083, 'mcc': 0.4082, 'kappa': 0.4}
    """
    m = margins(counts)
    return {
        "accuracy": float(ratio(m.trace, m.total)),  # integers: divided exactly
        "error_rate": float(ratio(m.total - m.trace, m.total)),
        "balanced_accuracy": balanced_accuracy(counts),
        "mcc": matthews_corrcoef(counts),
        "kappa": cohen_kappa(counts),
    }


def _exclusive(c: np.ndarray) -> np.ndarray:
    """sum_{i < j} c_i for each j."""
    out = np.zeros_like(c)
    np.cumsum(c[:-1], out=out[1:])
    return out


def _linear_side(c: np.ndarray) -> np.ndarray:
    """sum_{i < j} (j - i) c_i for each j: D_{j+1} = D_j + sum_{i <= j} c_i."""
    return _exclusive(np.cumsum(c))


def _quadratic_side(c: np.ndarray) -> np.ndarray:
    """sum_{i < j} (j - i)^2 c_i for each j: Q_{j+1} = Q_j + 2 D_j + sum_{i <= j} c_i."""
    return _exclusive(2.0 * _linear_side(c) + np.cumsum(c))
