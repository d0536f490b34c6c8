"""scikit-learn compatible multilabel ranking metrics and discounted cumulative gain.

Each sample (row) ranks its labels (columns) by score. Every function sorts all rows at once
(one sort over the matrix) and reads per-row quantities from the tie groups of the sorted rows:
a label's rank counts every label scored at least as high, so tied labels share the worse rank,
as in scikit-learn 1.9, whose arguments, results, warnings and errors these follow (sample
weights must be >= 0, as everywhere in clfeval).

>>> y_true = [[1, 0, 0], [0, 0, 1]]
>>> y_score = [[0.75, 0.5, 1], [1, 0.2, 0.1]]
>>> coverage_error(y_true, y_score), label_ranking_loss(y_true, y_score)
(2.5, 0.75)
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from clfeval.inputs.labels import (
    as_array,
    as_score_array,
    check_consistent_length,
    check_finite_labels,
    check_sample_weight,
    unique_sorted,
)
from clfeval.formulas.sums import weighted_mean

__all__ = [
    "coverage_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "dcg_score",
    "ndcg_score",
]

_DCG_KINDS = ("multilabel-indicator", "continuous-multioutput", "multiclass-multioutput")


# ---------------------------------------------------------------------------------------------
# input checks


def _is_sparse(y: Any) -> bool:
    return type(y).__module__.startswith("scipy.sparse")


def _numeric_target(y_true: Any, func: str, *, sparse_ok: bool) -> np.ndarray:
    """``y_true`` as a numeric numpy array (a scipy sparse matrix densified where accepted)."""
    if _is_sparse(y_true) and not sparse_ok:
        raise TypeError(f"{func} does not accept a sparse y_true; pass a dense array (y_true.toarray()).")
    y = as_array(y_true, "y_true")
    if y.dtype.kind not in "biuf":
        raise ValueError(f"y_true must be numeric, got dtype {y.dtype}.")
    check_finite_labels(y, "y_true")
    if y.ndim == 0 or y.shape[0] == 0:
        raise ValueError(f"y_true has shape {y.shape}; {func} needs at least 1 sample.")
    return y


def _scores(y_score: Any) -> np.ndarray:
    """Finite numeric scores; integer and boolean scores keep their dtype (numpy's argsort
    breaks ties by dtype-specific algorithms, and ``ignore_ties`` follows its order)."""
    raw = as_array(y_score, "y_score")
    s = as_score_array(raw, "y_score")
    if s.shape[0] == 0:
        raise ValueError(f"y_score has shape {s.shape}; at least 1 sample is required.")
    return raw if raw.dtype.kind in "biu" and raw.ndim == s.ndim else s


def target_type(y: np.ndarray) -> str:
    """scikit-learn's target type of a numeric array, including its rule for 2-D indicators.

    A 2-D array with more than one column is an indicator when it holds at most two distinct
    integral values (any two: nonzero means relevant).

    >>> target_type(np.array([[1, 2], [2, 1]])), target_type(np.array([[0.5, 1], [1, 0]]))
    ('multilabel-indicator', 'continuous-multioutput')
    """
    column = y.ndim == 1 or (y.ndim == 2 and y.shape[1] == 1)
    values = unique_sorted(y, "y_true")
    integral = y.dtype.kind in "biu" or bool(np.all(values == np.floor(values)))
    if not integral:
        return "continuous" if column else "continuous-multioutput"
    if column:
        return "binary" if values.size <= 2 else "multiclass"
    return "multilabel-indicator" if values.size <= 2 else "multiclass-multioutput"


def _check_kind(y: np.ndarray, allowed: tuple[str, ...], func: str) -> None:
    kind = target_type(y)
    if kind not in allowed:
        raise ValueError(
            f"{func} needs y_true of type {' or '.join(repr(a) for a in allowed)} (a 2-D matrix, one "
            f"column per label); got {kind!r} y_true of shape {y.shape}."
        )


def _same_shape(y: np.ndarray, s: np.ndarray) -> None:
    if y.shape != s.shape:
        raise ValueError(f"y_true and y_score have different shapes: {y.shape} and {s.shape}.")


def _read_inputs(
    y_true: Any, y_score: Any, sample_weight: Any, func: str, *, sparse_ok: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(y_true, y_score, weights), checked one by one and for the same number of samples."""
    y = _numeric_target(y_true, func, sparse_ok=sparse_ok)
    s = _scores(y_score)
    n = check_consistent_length(y_true=y, y_score=s)
    return y, s, check_sample_weight(sample_weight, n)


def _indicator_inputs(
    y_true: Any, y_score: Any, sample_weight: Any, func: str, *, allowed: tuple[str, ...], sparse_ok: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(relevance mask, float scores, weights) for a multilabel ranking metric."""
    y, s, weight = _read_inputs(y_true, y_score, sample_weight, func, sparse_ok=sparse_ok)
    s = s.astype(np.float64, copy=False)
    _check_kind(y, allowed, func)
    _same_shape(y, s)
    return y != 0, s, weight


def _check_k(k: Any) -> int | None:
    if k is None:
        return None
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise TypeError(f"k must be an integer >= 1 or None, got {k!r}.")
    if k < 1:
        raise ValueError(f"k must be an integer >= 1 or None, got {k!r}.")
    return int(k)


def _check_ignore_ties(ignore_ties: Any) -> bool:
    if not isinstance(ignore_ties, (bool, np.bool_)):
        raise TypeError(f"ignore_ties must be True or False, got {ignore_ties!r}.")
    return bool(ignore_ties)


# ---------------------------------------------------------------------------------------------
# sorted rows and their tie groups


def _sorted_rows(s: np.ndarray, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each row sorted ascending by ``s`` (stable), with ``arrays`` permuted the same way."""
    order = np.argsort(s, axis=1, kind="stable")
    return tuple(np.take_along_axis(a, order, axis=1) for a in (s, *arrays))


def _group_last(sorted_scores: np.ndarray) -> np.ndarray:
    """For each position of each sorted row, the last position of its tie group."""
    n, m = sorted_scores.shape
    is_last = np.ones((n, m), dtype=bool)
    is_last[:, :-1] = sorted_scores[:, 1:] != sorted_scores[:, :-1]
    ends = np.where(is_last, np.arange(m), m - 1)
    return np.minimum.accumulate(ends[:, ::-1], axis=1)[:, ::-1]


def _ranked_relevance(scores: np.ndarray, relevant: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows sorted ascending by ``scores``: relevance in that order, the last position of each
    label's tie group, and the number of relevant labels up to and including that position."""
    sorted_scores, rel = _sorted_rows(scores, relevant)
    last = _group_last(sorted_scores)
    cum_relevant = np.cumsum(rel, axis=1)
    return rel, last, np.take_along_axis(cum_relevant, last, axis=1)


def _degenerate(relevant: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Relevant labels per row, and rows where none or all labels are relevant."""
    n_relevant = relevant.sum(axis=1)
    return n_relevant, (n_relevant == 0) | (n_relevant == relevant.shape[1])


# ---------------------------------------------------------------------------------------------
# multilabel ranking


def coverage_error(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Average number of top-ranked labels needed to cover every relevant label of a sample.

    Labels tied with the lowest-scored relevant label count; a sample with no relevant label
    needs 0. ``y_true`` is a 2-D indicator (nonzero = relevant).

    Same as `sklearn.metrics.coverage_error`; differences: none in results for ordinary input;
    faster (plain array operations instead of masked arrays); a negative ``sample_weight`` raises
    ValueError (scikit-learn accepts it); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        Relevance of each label of each sample: a 2-D indicator matrix (nonzero = relevant).
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores ranking the labels of each sample (higher = ranked first).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample in the mean over samples; None weighs every sample 1.

    Returns
    -------
    float
        Mean number of labels to go down the ranking, ties included, to reach every relevant label;
        between 0 and n_labels.

    See Also
    --------
    label_ranking_loss : Share of wrongly ordered (relevant, irrelevant) pairs.

    Examples
    --------
    >>> coverage_error([[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.2, 0.3, 0.9]])
    2.5
    """
    for name, value in (("y_true", y_true), ("y_score", y_score)):
        if not _is_sparse(value) and np.ndim(value) == 1:
            raise ValueError(
                f"Expected 2D array, got 1D array instead: {name} has shape {np.shape(value)}; "
                "coverage_error needs one row per sample and one column per label."
            )
    relevant, s, weight = _indicator_inputs(
        y_true, y_score, sample_weight, "coverage_error", allowed=("multilabel-indicator",), sparse_ok=False
    )
    lowest = np.where(relevant, s, np.inf).min(axis=1, keepdims=True)
    coverage = np.where(relevant.any(axis=1), (s >= lowest).sum(axis=1), 0)
    return weighted_mean(coverage.astype(np.float64), weight)


def label_ranking_average_precision_score(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Label ranking average precision (LRAP).

    For each relevant label of a sample: the share of relevant labels among those scored at least
    as high; averaged over its relevant labels, then over samples. A sample whose labels are all
    relevant or all irrelevant scores 1. ``y_true`` is a 2-D indicator, dense or scipy sparse.

    Same as `sklearn.metrics.label_ranking_average_precision_score`; differences: none in results
    for ordinary input (to rounding in the last bits); faster (one sort of the whole score matrix
    instead of a Python loop over samples); an explicitly stored zero in a sparse ``y_true`` is
    not relevant (scikit-learn counts it as relevant); unsigned-integer scores rank as numbers
    (scikit-learn negates them, which wraps around and ranks a score of 0 first); a negative
    ``sample_weight`` raises ValueError (scikit-learn accepts it); clfeval's own error messages.

    Parameters
    ----------
    y_true : {array-like, sparse matrix} of shape (n_samples, n_labels)
        Relevance of each label of each sample: a 2-D indicator (nonzero = relevant).
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores ranking the labels of each sample (higher = ranked first).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample in the mean over samples; None weighs every sample 1.

    Returns
    -------
    float
        The (weighted) mean over samples, in (0, 1]; 1 is a perfect ranking. NaN, with a
        RuntimeWarning, when every weight is zero.

    See Also
    --------
    average_precision_score : Average precision per label, over the samples.

    Examples
    --------
    >>> label_ranking_average_precision_score([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.41666666666666663
    """
    relevant, s, weight = _indicator_inputs(
        y_true, y_score, sample_weight, "label_ranking_average_precision_score",
        allowed=("multilabel-indicator", "binary"), sparse_ok=True,
    )
    if relevant.ndim != 2:
        raise ValueError(f"y_true must be 2-D (one column per label); got shape {relevant.shape}.")
    rel, last, relevant_above = _ranked_relevance(-s, relevant)
    precision = np.where(rel, relevant_above / (last + 1.0), 0.0)
    n_relevant, degenerate = _degenerate(relevant)
    per_sample = np.ones(s.shape[0])
    ok = ~degenerate
    per_sample[ok] = precision[ok].sum(axis=1) / n_relevant[ok]
    if weight is not None and not weight.any():
        warnings.warn("invalid value encountered in scalar divide", RuntimeWarning, stacklevel=2)
        return float("nan")
    return weighted_mean(per_sample, weight)


def label_ranking_loss(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Share of (relevant, irrelevant) label pairs ordered wrongly, averaged over samples.

    A pair is wrong when the irrelevant label scores at least as high as the relevant one (ties
    count as wrong). A sample whose labels are all relevant or all irrelevant scores 0.
    ``y_true`` is a 2-D indicator, dense or scipy sparse.

    Same as `sklearn.metrics.label_ranking_loss`; differences: none in results for ordinary input;
    faster (one sort of the whole score matrix instead of a Python loop over samples); an
    explicitly stored zero in a sparse ``y_true`` is not relevant (scikit-learn counts it as
    relevant); a negative ``sample_weight`` raises ValueError (scikit-learn accepts it); clfeval's
    own error messages.

    Parameters
    ----------
    y_true : {array-like, sparse matrix} of shape (n_samples, n_labels)
        Relevance of each label of each sample: a 2-D indicator (nonzero = relevant).
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores ranking the labels of each sample (higher = ranked first).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample in the mean over samples; None weighs every sample 1.

    Returns
    -------
    float
        The (weighted) mean over samples of the share of misordered pairs, in [0, 1]; 0 is a
        perfect ranking.

    See Also
    --------
    coverage_error : How far down the ranking the relevant labels reach.

    Examples
    --------
    >>> label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.75
    """
    relevant, s, weight = _indicator_inputs(
        y_true, y_score, sample_weight, "label_ranking_loss",
        allowed=("multilabel-indicator",), sparse_ok=True,
    )
    rel, _, relevant_at_or_below = _ranked_relevance(s, relevant)
    wrong = np.where(rel, 0, relevant_at_or_below).sum(axis=1)
    n_relevant, degenerate = _degenerate(relevant)
    pairs = n_relevant * (relevant.shape[1] - n_relevant)
    loss = np.zeros(s.shape[0])
    ok = ~degenerate
    loss[ok] = wrong[ok] / pairs[ok]
    return weighted_mean(loss, weight)


# ---------------------------------------------------------------------------------------------
# discounted cumulative gain


def _discount(m: int, k: int | None, log_base: float) -> np.ndarray:
    """``1 / log_base(rank + 1)`` for ranks 1..m, zero past rank k."""
    if log_base == 1:  # every discount is 1 / inf = 0, as numpy's division by log(1) = 0 gives
        warnings.warn("divide by zero encountered in divide", RuntimeWarning, stacklevel=3)
    with np.errstate(divide="ignore"):
        discount = 1 / (np.log(np.arange(m) + 2) / np.log(log_base))
    if k is not None:
        discount[k:] = 0
    return discount


def _dcg_per_sample(y: np.ndarray, s: np.ndarray, discount: np.ndarray, ignore_ties: bool) -> np.ndarray:
    """DCG of each row; tied scores share the average gain of their group unless ``ignore_ties``."""
    n, m = y.shape
    if ignore_ties:  # ties in numpy's default argsort order, reversed (scikit-learn's order)
        ranked = np.take_along_axis(y, np.argsort(s)[:, ::-1], axis=1)
        return ranked @ discount
    neg_sorted, gains = _sorted_rows(-s.astype(np.float64, copy=False), y)
    is_first = np.ones((n, m), dtype=bool)
    is_first[:, 1:] = neg_sorted[:, 1:] != neg_sorted[:, :-1]
    starts = np.flatnonzero(is_first)
    group_gain = np.add.reduceat(gains.ravel(), starts)
    size = np.diff(np.append(starts, n * m))
    first = starts % m
    cum = np.concatenate(([0.0], np.cumsum(discount)))
    discount_sum = cum[first + size] - cum[first]
    return np.bincount(starts // m, weights=group_gain / size * discount_sum, minlength=n)


def _dcg_inputs(y_true: Any, y_score: Any, sample_weight: Any, func: str, k: Any, ignore_ties: Any):
    k = _check_k(k)
    ignore_ties = _check_ignore_ties(ignore_ties)
    y, s, weight = _read_inputs(y_true, y_score, sample_weight, func, sparse_ok=False)
    return y, s, weight, k, ignore_ties


def _dcg_shapes(y: np.ndarray, s: np.ndarray, func: str) -> tuple[np.ndarray, np.ndarray]:
    _check_kind(y, _DCG_KINDS, func)
    _same_shape(y, s)
    return y.astype(np.float64), s


def dcg_score(
    y_true: Any,
    y_score: Any,
    *,
    k: int | None = None,
    log_base: float = 2,
    sample_weight: Any = None,
    ignore_ties: bool = False,
) -> float:
    """Discounted cumulative gain: gains ``y_true`` summed in ``y_score`` order, discounted by
    ``1 / log_base(rank + 1)``, over the top ``k`` ranks; averaged over samples.

    Tied scores share the average gain of their group (unless ``ignore_ties``, which ranks ties in
    numpy's argsort order, faster). ``y_true`` is 2-D, one column per document.

    Same as `sklearn.metrics.dcg_score`; differences: none in results for ordinary input (to
    rounding in the last bits); faster (tie groups summed for all rows at once instead of a Python
    loop over samples); unsigned-integer scores with ``ignore_ties=False`` rank by value
    (scikit-learn negates them, which wraps around, so a score of 0 ranks first) and boolean scores
    are accepted (scikit-learn raises TypeError); a negative ``sample_weight`` raises ValueError
    (scikit-learn accepts it); an invalid ``k``, ``log_base`` or ``ignore_ties`` raises TypeError
    or ValueError (scikit-learn: its InvalidParameterError); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_documents)
        Gain (true relevance) of each document for each sample (query).
    y_score : array-like of shape (n_samples, n_documents)
        Finite scores that rank the documents of each sample (higher = ranked first).
    k : int, default=None
        Count only the top ``k`` ranks (>= 1); None counts every rank.
    log_base : float, default=2
        Base of the logarithm in the discount (> 0); a larger base discounts less steeply.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample in the mean over samples; None weighs every sample 1.
    ignore_ties : bool, default=False
        If True, break ties between scores in numpy's argsort order instead of averaging the gains
        of tied documents; faster, but the result then depends on the order of the columns.

    Returns
    -------
    float
        The (weighted) mean over samples of the discounted cumulative gain.

    See Also
    --------
    ndcg_score : The same gain divided by that of the ideal ranking.

    Examples
    --------
    >>> round(dcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]]), 10)
    9.4994578259
    """
    y, s, weight, k, ignore_ties = _dcg_inputs(y_true, y_score, sample_weight, "dcg_score", k, ignore_ties)
    if isinstance(log_base, (bool, np.bool_)) or not isinstance(log_base, numbers.Real):
        raise TypeError(f"log_base must be a number > 0, got {log_base!r}.")
    if not log_base > 0:
        raise ValueError(f"log_base must be a number > 0, got {log_base!r}.")
    y, s = _dcg_shapes(y, s, "dcg_score")
    gains = _dcg_per_sample(y, s, _discount(y.shape[1], k, log_base), ignore_ties)
    return weighted_mean(gains, weight)


def ndcg_score(
    y_true: Any, y_score: Any, *, k: int | None = None, sample_weight: Any = None, ignore_ties: bool = False
) -> float:
    """Normalized DCG: each sample's DCG divided by the DCG of its ideal ranking (0 when that is 0).

    ``y_true`` holds non-negative gains, 2-D with at least two columns. Ties as in
    :func:`dcg_score`.

    Same as `sklearn.metrics.ndcg_score`; differences: none in results for ordinary input (to
    rounding in the last bits); faster (tie groups summed for all rows at once instead of a Python
    loop over samples); unsigned-integer scores with ``ignore_ties=False`` rank by value
    (scikit-learn negates them, which wraps around, so a score of 0 ranks first) and boolean scores
    are accepted (scikit-learn raises TypeError); a negative ``sample_weight`` raises ValueError
    (scikit-learn accepts it); an invalid ``k`` or ``ignore_ties`` raises TypeError or ValueError
    (scikit-learn: its InvalidParameterError); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_documents)
        Non-negative gain (true relevance) of each document for each sample (query); at least two
        documents.
    y_score : array-like of shape (n_samples, n_documents)
        Finite scores that rank the documents of each sample (higher = ranked first).
    k : int, default=None
        Count only the top ``k`` ranks (>= 1), in both the DCG and the ideal DCG; None counts
        every rank.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample in the mean over samples; None weighs every sample 1.
    ignore_ties : bool, default=False
        If True, break ties between scores in numpy's argsort order instead of averaging the gains
        of tied documents; faster, but the result then depends on the order of the columns.

    Returns
    -------
    float
        The (weighted) mean over samples of DCG / ideal DCG, in [0, 1].

    See Also
    --------
    dcg_score : The unnormalised gain.

    Examples
    --------
    >>> round(ndcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]]), 10)
    0.6956940444
    """
    y, s, weight, k, ignore_ties = _dcg_inputs(y_true, y_score, sample_weight, "ndcg_score", k, ignore_ties)
    if y.min() < 0:
        raise ValueError("ndcg_score should not be used on negative y_true values (they are gains).")
    if y.ndim > 1 and y.shape[1] <= 1:
        raise ValueError(
            f"Computing NDCG is only meaningful when there is more than 1 document. Got {y.shape[1]} instead."
        )
    y, s = _dcg_shapes(y, s, "ndcg_score")
    discount = _discount(y.shape[1], k, 2)
    gains = _dcg_per_sample(y, s, discount, ignore_ties)
    ideal = np.sort(y, axis=1)[:, ::-1] @ discount
    found = ideal != 0
    gains[~found] = 0.0
    gains[found] /= ideal[found]
    return weighted_mean(gains, weight)
