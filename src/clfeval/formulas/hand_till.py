"""Hand & Till's multi-class AUC (M) and its support-weighted variant, from pairwise U statistics.

``u`` is the (k, k) matrix of Mann-Whitney U statistics, ``u[a, b]``: the (weighted) pairs of a
class-a case and a class-b case in which the class-a case has the higher score on column a
(ties count one half), as :func:`clfeval.formulas.curves.mann_whitney_u` gives row by row;
``support`` is each class's count (or total weight). Classes with no support are left out, as
scikit-learn's ``roc_auc_score(multi_class="ovo")`` leaves out classes absent from ``y_true``.

The pair (a, b) scores ``S = (A[a, b] + A[b, a]) / 2`` with ``A = u / (n_a n_b)``. Its macro
average over pairs is Hand & Till's M; the "weighted" average weighs each pair by
``(n_a + n_b) / n`` (scikit-learn's ``average="weighted"``). Both are linear in ``A``:
``M = sum over a != b of omega[a, b] A[a, b]`` with the pair weights of :func:`ovo_pair_weights`.

>>> u = np.array([[2.0, 3.0, 4.0], [1.0, 2.0, 3.0], [0.0, 1.0, 2.0]])
>>> hand_till_average(u, np.array([2, 2, 2])), hand_till_average(u, np.array([2, 3, 1]), "weighted")
(0.5, 0.6111111111111112)
"""

from __future__ import annotations

import numpy as np

from clfeval.formulas.curves import hand_till_pairs, mann_whitney_u

__all__ = ["OVO_AVERAGES", "hand_till_average", "ovo_pair_weights", "ovo_share_gradient", "ovo_u"]

#: The averages over pairs of classes, with the registry name of each.
OVO_AVERAGES = {"macro": "ovo_auc", "weighted": "ovo_auc_weighted"}


def _check_average(average: str) -> None:
    if average not in OVO_AVERAGES:
        raise ValueError(f"average must be 'macro' or 'weighted', got {average!r}.")


def hand_till_average(u: np.ndarray, support: np.ndarray, average: str = "macro") -> float:
    """Hand & Till's M (``average="macro"``) or the pair-weighted one-vs-one AUC
    (``"weighted"``); NaN with fewer than two classes present.

    Computed as scikit-learn computes it (``numpy.average`` over the pairs in order), so that the
    two agree to the last bits.

    >>> hand_till_average(np.array([[2.0, 3.0], [1.0, 2.0]]), np.array([2, 2]))
    0.5
    """
    _check_average(average)
    support = np.asarray(support)
    if np.count_nonzero(support > 0) < 2:
        return float("nan")
    scores, share = hand_till_pairs(np.asarray(u, dtype=np.float64), support)
    return float(np.average(scores, weights=share if average == "weighted" else None))


def ovo_u(tables: list[np.ndarray]) -> np.ndarray:
    """(k, k) U matrix from k per-column count tables: ``tables[a]`` is the (D_a, k) count (or
    weight) of every class at each distinct score of column a, highest first (the counts of a
    k-class :class:`~clfeval.statistics.scores.ScoreTable` of that column). Such tables merge
    exactly (``ScoreTable.merge``), so M of merged tables is M of the concatenated data.

    >>> t0 = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 2]])  # column 0: scores hi, mid, lo
    >>> t1 = np.array([[0, 1, 0], [2, 0, 1], [0, 0, 1]])
    >>> t2 = np.array([[0, 0, 2], [2, 1, 0]])
    >>> ovo_u([t0, t1, t2]).tolist()
    [[2.0, 1.5, 4.0], [2.0, 0.5, 2.0], [4.0, 2.0, 2.0]]
    """
    return np.stack([mann_whitney_u(np.asarray(t), a) for a, t in enumerate(tables)])


def ovo_pair_weights(support: np.ndarray, average: str = "macro") -> np.ndarray:
    """(k, k) weights ``omega`` with ``M = sum of omega[a, b] * A[a, b]`` (a != b): each pair's
    weight in the average, halved between its two AUCs; 0 on the diagonal and for absent classes.

    >>> ovo_pair_weights(np.array([1, 3, 0])).tolist()
    [[0.0, 0.5, 0.0], [0.5, 0.0, 0.0], [0.0, 0.0, 0.0]]
    >>> ovo_pair_weights(np.array([1, 1, 2]), "weighted").round(4).tolist()
    [[0.0, 0.125, 0.1875], [0.125, 0.0, 0.1875], [0.1875, 0.1875, 0.0]]
    """
    _check_average(average)
    support = np.asarray(support, dtype=np.float64)
    present = support > 0
    both = np.logical_and.outer(present, present)
    np.fill_diagonal(both, False)
    if average == "macro":
        raw = both.astype(np.float64)
    else:
        raw = np.where(both, np.add.outer(support, support), 0.0)
    total = raw.sum()  # each pair counted twice: once as (a, b), once as (b, a)
    return raw / total if total > 0 else raw


def ovo_share_gradient(u: np.ndarray, support: np.ndarray) -> np.ndarray:
    """(k,) derivative of the weighted one-vs-one AUC with respect to the weight of one case of
    each class, through the pair weights ``(n_a + n_b) / n`` alone (the AUCs held fixed):
    ``(mean score of the pairs holding class c - M_weighted) / n``. Zero for absent classes.

    Under cross-sectional sampling the class totals are random and this term belongs in each
    case's influence; with the totals fixed by design (stratified sampling) it does not.

    >>> g = ovo_share_gradient(np.array([[2.0, 4.0, 3.0], [2.0, 2.0, 2.0], [3.0, 2.0, 2.0]]), np.array([2, 2, 2]))
    >>> (g * 6 * 144).round(9).tolist()  # pair scores 0.75, 0.75, 0.5: (3/4 - 2/3) / 6 for class 0
    [12.0, -6.0, -6.0]
    """
    support = np.asarray(support, dtype=np.float64)
    out = np.zeros(support.size)
    present = np.flatnonzero(support > 0)
    if present.size < 2:
        return out
    a = np.asarray(u, dtype=np.float64)[np.ix_(present, present)]
    s = support[present]
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = a / np.multiply.outer(s, s)
    pair = (auc + auc.T) / 2
    np.fill_diagonal(pair, 0.0)
    mean_with = pair.sum(axis=1) / (present.size - 1)
    m_weighted = hand_till_average(u, support, "weighted")
    out[present] = (mean_with - m_weighted) / support.sum()
    return out
