"""scikit-learn compatible ranking metrics: ``roc_curve``, ``auc``, ``roc_auc_score``,
``precision_recall_curve``, ``average_precision_score`` and ``det_curve``.

Same arguments, defaults, results and warnings as scikit-learn 1.9. Each function is thin: it
validates, builds the score statistics (:mod:`clfeval.statistics.scores`) and reads them with the formulas
of :mod:`clfeval.formulas.curves`.

>>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
0.75
"""

from __future__ import annotations

import numbers
import warnings
from functools import partial
from typing import Any

import numpy as np

from clfeval.formulas.curves import (
    average_precision,
    count_totals,
    det_points,
    hand_till_pairs,
    partial_roc_auc,
    precision_recall_points,
    roc_auc,
    roc_points,
    trapezoid,
)
from clfeval.formulas.exact_sums import (
    class_total_overflows,
    exact_average_precision,
    exact_pr_points,
    exact_roc_points,
    overflow_scaled_weights,
    ranking_weight_scale,
    sums_overflow,
)
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.inputs.labels import (
    as_1d,
    as_array,
    as_score_array,
    check_consistent_length,
    check_not_bytes,
    check_sample_weight,
    encode,
    target_kind,
    unique_sorted,
)
from clfeval.statistics.scores import ScoreTable, pairwise_u_validated, rowwise_counts
from clfeval.inputs.sklearn_pos_label import label_mask, sklearn_pos_label

__all__ = [
    "auc",
    "roc_curve",
    "roc_auc_score",
    "precision_recall_curve",
    "average_precision_score",
    "det_curve",
]

_BINARY = np.array([False, True])  # classes of a binary table: "is the positive class"
_AVERAGES = ("micro", "macro", "samples", "weighted", None)
# Rows per block when checking that multiclass probabilities sum to one.
_BLOCK = 1 << 16

_ONE_CLASS = "Only one class is present in y_true. ROC AUC score is not defined in that case."
_NO_NEGATIVE = "No negative samples in y_true, false positive value should be meaningless"
_NO_POSITIVE = "No positive samples in y_true, true positive value should be meaningless"
_NO_POSITIVE_PR = "No positive class found in y_true, recall is set to one for all thresholds."
_NO_POSITIVE_DET = "The positive samples all have zero weight: the false negative rate is NaN."
_NO_NEGATIVE_DET = "The negative samples all have zero weight: the false positive rate is NaN."


class _WarnOnce:
    """Emit each distinct warning once per call, however many columns or rows raise it."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def __call__(self, message: str, category: type[Warning] = UndefinedMetricWarning) -> None:
        if message not in self.seen:
            self.seen.add(message)
            warnings.warn(message, category, stacklevel=4)


# -- input checks ----------------------------------------------------------------------------


def _labels_1d(y_true: Any, func: str) -> np.ndarray:
    y = as_1d(
        as_array(y_true, "y_true"),
        f"{func} needs y_true of shape (n_samples,); for multilabel data call it once per label "
        "column",
    )
    check_not_bytes(y, "y_true")
    return y


def _scores_1d(y_score: Any, func: str) -> np.ndarray:
    return _one_column(as_score_array(y_score, "y_score"), func)


def _one_column(s: np.ndarray, func: str) -> np.ndarray:
    """Validated scores as one column (an (n, 1) matrix is accepted, as scikit-learn does)."""
    if s.ndim == 2 and s.shape[1] == 1:
        s = s[:, 0]
    if s.ndim != 1:
        raise ValueError(
            f"{func} needs one score per sample (y_score of shape (n_samples,)), got shape "
            f"{s.shape}. For a matrix of class probabilities pass the positive class's column, "
            "e.g. y_score[:, 1]."
        )
    return s


def _check_nonempty(n: int, func: str) -> None:
    if n == 0:
        raise ValueError(f"{func} got empty input (0 samples); at least one sample is needed.")


def _kind_error(kind: str, func: str, y: np.ndarray, hint: str = "") -> ValueError:
    if kind in ("continuous", "continuous-multioutput"):
        flat = y.reshape(-1)
        frac = np.flatnonzero(flat != np.floor(flat))
        where = f" (e.g. {float(flat[frac[0]])!r} at position {int(frac[0])})" if frac.size else ""
        return ValueError(
            f"{func}: y_true contains continuous values{where}, but it must hold class labels "
            "(the scores go in y_score). Were y_true and y_score swapped?"
        )
    return ValueError(f"{func}: {kind} y_true is not supported{hint}.")


def _binary_table(
    y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any, func: str
) -> tuple[ScoreTable | tuple, np.ndarray]:
    """Validate binary-curve input and build its table; also return y_true's distinct labels.

    Float weights whose sums pass the float range give, for the ROC and PR curves, the validated
    (is_pos, scores, weights) instead: those curves are then read off exact sums."""
    y = _labels_1d(y_true, func)
    s = _scores_1d(y_score, func)
    n = check_consistent_length(y_true=y, y_score=s)
    _check_nonempty(n, func)
    w = check_sample_weight(sample_weight, n, allow_all_zero=False)
    is_pos, classes = binary_positives(y, pos_label, func)
    if func != "det_curve" and sums_overflow(w, is_pos):
        return (is_pos, s, w), classes
    # DET: float weights whose sums pass the float range scaled down by a power of two per class
    w = overflow_scaled_weights(w, is_pos)
    return ScoreTable.from_validated(is_pos, s, _BINARY, w), classes


def binary_positives(y: np.ndarray, pos_label: Any, func: str) -> tuple[np.ndarray, np.ndarray]:
    """Binary (or, with ``pos_label``, multiclass) 1-D labels as a mask of the positive class,
    by scikit-learn's rules (no pos_label: labels in {0, 1} or {-1, 1}, 1 positive); also
    returns y's distinct labels.

    >>> mask, classes = binary_positives(np.array(["a", "b", "b"]), "b", "roc_curve")
    >>> mask.tolist(), classes.tolist()
    ([False, True, True], ['a', 'b'])
    """
    kind, classes = target_kind(y, "y_true")
    if not (kind == "binary" or (kind == "multiclass" and pos_label is not None)):
        hint = (
            f"; y_true has {classes.size} classes, so pass pos_label= to pick the positive one"
            if kind == "multiclass"
            else "; pass one label column at a time"
        )
        raise _kind_error(kind, func, y, hint)
    return label_mask(y, sklearn_pos_label(pos_label, classes, func)), classes


def _score_dtype(y_score: Any) -> np.dtype:
    """dtype of the thresholds precision_recall_curve returns (that of y_score, as sklearn)."""
    dtype = getattr(y_score, "dtype", None)
    if not isinstance(dtype, np.dtype):
        try:
            dtype = np.asarray(y_score[:1] if hasattr(y_score, "__getitem__") else y_score).dtype
        except Exception:  # noqa: BLE001 - any odd container: fall back to float64
            dtype = np.dtype(np.float64)
    return dtype if dtype.kind in "iuf" else np.dtype(np.float64)


def _check_average(average: Any, options: tuple = _AVERAGES) -> None:
    if average not in options:
        raise ValueError(
            f"average={average!r} is not supported; use one of {list(options)}."
        )


# -- curves ----------------------------------------------------------------------------------


def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Receiver operating characteristic: (fpr, tpr, thresholds), thresholds decreasing from inf.

    At each threshold t the samples scoring at least t are predicted positive; the curve plots the
    true positive rate (recall) against the false positive rate (fall-out) over every distinct
    score, from nothing predicted positive (threshold inf) to everything.

    Same as `sklearn.metrics.roc_curve`; differences: none in results for ordinary input (same
    points, thresholds and warnings; float weights: up to rounding in the last bits); faster (one
    sort into counts per distinct score); exact where scikit-learn's float sums overflow (float
    weights whose totals pass the float64 range are summed exactly, so the curve stays right;
    scikit-learn: NaN); a negative ``sample_weight`` raises ValueError (scikit-learn accepts it);
    clfeval's own error messages (non-finite scores: their count and first position).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels. Without ``pos_label`` they must be {0, 1} or {-1, 1} (1 is positive);
        with it, any two labels (or more: ``pos_label`` against the rest).
    y_score : array-like of shape (n_samples,)
        Finite scores of the positive class (probabilities, decision values, any ranking score);
        higher means more positive.
    pos_label : int, float, bool or str, default=None
        The positive class; None means 1 for labels in {0, 1} or {-1, 1} and is an error otherwise.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    drop_intermediate : bool, default=True
        Leave out the thresholds whose points lie on a straight line between their neighbours
        (they change neither the plotted curve nor its area).

    Returns
    -------
    fpr : ndarray of shape (n_thresholds,)
        False positive rate at each threshold, increasing from 0 to 1.
    tpr : ndarray of shape (n_thresholds,)
        True positive rate at each threshold, increasing from 0 to 1.
    thresholds : ndarray of shape (n_thresholds,)
        The thresholds, decreasing; the first is inf (no sample predicted positive).

    See Also
    --------
    roc_auc_score : The area under this curve.
    det_curve : False negative against false positive rate.

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([1, 1, 2, 2], [0.1, 0.4, 0.35, 0.8], pos_label=2)
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    table, _ = _binary_table(y_true, y_score, pos_label, sample_weight, "roc_curve")
    if isinstance(table, tuple):  # weight sums past the float range: exact sums
        fpr, tpr, thr = exact_roc_points(*table, drop_intermediate)
        for rate, message in ((fpr, _NO_NEGATIVE), (tpr, _NO_POSITIVE)):
            if np.isnan(rate[-1]):
                warnings.warn(message, UndefinedMetricWarning, stacklevel=2)
        return fpr, tpr, thr
    neg, pos = table.binary_counts(compact=True)
    n_total, p_total = table.totals
    if n_total <= 0:
        warnings.warn(_NO_NEGATIVE, UndefinedMetricWarning, stacklevel=2)
    if p_total <= 0:
        warnings.warn(_NO_POSITIVE, UndefinedMetricWarning, stacklevel=2)
    return roc_points(neg, pos, table.scores_at, drop_intermediate)


def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision-recall pairs: (precision, recall, thresholds), thresholds increasing.

    The last point (precision 1, recall 0) has no threshold.

    At each threshold t the samples scoring at least t are predicted positive; precision and
    recall of the positive class are given for every distinct score.

    Same as `sklearn.metrics.precision_recall_curve`; differences: none in results for ordinary
    input (same points, thresholds and warnings; float weights: up to rounding in the last bits);
    faster (one sort into counts per distinct score); exact where scikit-learn's float sums
    overflow (float weights whose totals pass the float64 range are summed exactly, so the curve
    stays right; scikit-learn: NaN); a negative ``sample_weight`` raises ValueError (scikit-learn
    accepts it); clfeval's own error messages (non-finite scores: their count and first position).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels. Without ``pos_label`` they must be {0, 1} or {-1, 1} (1 is positive);
        with it, any two labels (or more: ``pos_label`` against the rest).
    y_score : array-like of shape (n_samples,)
        Finite scores of the positive class (probabilities, decision values, any ranking score);
        higher means more positive.
    pos_label : int, float, bool or str, default=None
        The positive class; None means 1 for labels in {0, 1} or {-1, 1} and is an error otherwise.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    drop_intermediate : bool, default=False
        Leave out the thresholds whose true positive count equals that of both neighbouring
        thresholds (inside a run of constant recall): they add no corner to the plotted step curve.

    Returns
    -------
    precision : ndarray of shape (n_thresholds + 1,)
        Precision at each threshold, then 1 for the final point.
    recall : ndarray of shape (n_thresholds + 1,)
        Recall at each threshold, decreasing to 0 at the final point. Without positive samples it
        is 1 at every threshold, with a UserWarning.
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores, increasing, in the dtype of ``y_score``.

    See Also
    --------
    average_precision_score : A summary of this curve.

    Examples
    --------
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> p.round(3).tolist(), r.tolist(), t.tolist()
    ([0.5, 0.667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    table, _ = _binary_table(y_true, y_score, pos_label, sample_weight, "precision_recall_curve")
    if isinstance(table, tuple):  # weight sums past the float range: exact sums
        is_pos, _, w = table
        if not (is_pos & (w > 0)).any():
            warnings.warn(_NO_POSITIVE_PR, UserWarning, stacklevel=2)
        precision, recall, thresholds = exact_pr_points(*table, drop_intermediate)
        return precision, recall, thresholds.astype(_score_dtype(y_score), copy=False)
    neg, pos = table.binary_counts(compact=True)
    if table.totals[1] <= 0:
        warnings.warn(_NO_POSITIVE_PR, UserWarning, stacklevel=2)
    precision, recall, thresholds = precision_recall_points(
        neg, pos, partial(table.scores_at, release=True), drop_intermediate
    )
    return precision, recall, thresholds.astype(_score_dtype(y_score), copy=False)


def det_curve(
    y_true: Any,
    y_score: Any,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Detection error tradeoff: (fpr, fnr, thresholds), thresholds increasing.

    The two error rates of the positive class at each threshold (samples scoring at least it are
    predicted positive): the false positive rate and the false negative rate (1 - recall). The
    points start at the highest threshold that still has no false negatives and end at the lowest
    one with no false positives (inf when a negative sample has the top score).

    Same as `sklearn.metrics.det_curve`; differences: none in results for ordinary input (same
    points and thresholds; float weights: up to rounding in the last bits); faster (one sort into
    counts per distinct score); a class whose samples all have zero weight gives an
    UndefinedMetricWarning (scikit-learn: numpy's RuntimeWarning); float weights whose totals pass
    the float64 range are scaled per class by a power of two, so the curve stays right
    (scikit-learn: an empty curve); a negative ``sample_weight`` raises ValueError (scikit-learn
    accepts it); clfeval's own error messages (non-finite scores: their count and first position).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels. Without ``pos_label`` they must be {0, 1} or {-1, 1} (1 is positive);
        with it, any two labels.
    y_score : array-like of shape (n_samples,)
        Finite scores of the positive class (probabilities, decision values, any ranking score);
        higher means more positive.
    pos_label : int, float, bool or str, default=None
        The positive class; None means 1 for labels in {0, 1} or {-1, 1} and is an error otherwise.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.
    drop_intermediate : bool, default=False
        Leave out the thresholds whose points lie on a straight line between their neighbours.

    Returns
    -------
    fpr : ndarray of shape (n_thresholds,)
        False positive rate at each threshold.
    fnr : ndarray of shape (n_thresholds,)
        False negative rate at each threshold.
    thresholds : ndarray of shape (n_thresholds,)
        The thresholds (distinct scores), increasing.

    See Also
    --------
    roc_curve : True against false positive rate.

    Examples
    --------
    >>> fpr, fnr, thr = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), fnr.tolist(), thr.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    """
    table, classes = _binary_table(y_true, y_score, pos_label, sample_weight, "det_curve")
    if classes.size != 2:
        raise ValueError(
            f"det_curve needs exactly two classes in y_true, got {classes.size} "
            f"({classes.tolist()}); the detection error tradeoff is not defined otherwise."
        )
    n_total, p_total = table.totals
    if p_total <= 0:
        warnings.warn(_NO_POSITIVE_DET, UndefinedMetricWarning, stacklevel=2)
    if n_total <= 0:
        warnings.warn(_NO_NEGATIVE_DET, UndefinedMetricWarning, stacklevel=2)
    neg, pos = table.binary_counts(compact=True)
    return det_points(neg, pos, partial(table.scores_at, release=True), drop_intermediate)


def auc(x: Any, y: Any) -> float:
    """Area under a curve through the points (x, y) by the trapezoidal rule; x monotonic.

    A decreasing ``x`` gives the same (positive) area as the points in reverse order.

    Same as `sklearn.metrics.auc`; differences: none in results for numeric input (NaN coordinates
    propagate to the area in both); boolean coordinates are read as 0 and 1 (scikit-learn raises
    TypeError); clfeval's own error messages.

    Parameters
    ----------
    x : array-like of shape (n_points,)
        The x coordinates, at least two, all increasing or all decreasing (ties allowed).
    y : array-like of shape (n_points,)
        The y coordinates, one per x.

    Returns
    -------
    float
        The area between the curve and the x axis (negative where y is negative).

    See Also
    --------
    roc_auc_score : The area under the ROC curve straight from scores.
    average_precision_score : A step-wise summary of the precision-recall curve.

    Examples
    --------
    >>> auc([0, 0.5, 1], [0, 1, 1])
    0.75
    >>> fpr, tpr, _ = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> auc(fpr, tpr)
    0.75
    """
    xs, ys = (_points_1d(v, name) for v, name in ((x, "x"), (y, "y")))
    check_consistent_length(x=xs, y=ys)
    if xs.size < 2:
        raise ValueError(
            f"auc needs at least 2 points to compute an area, got x of shape {xs.shape}."
        )
    dx = np.diff(xs)
    direction = 1.0
    if np.any(dx < 0):
        if not np.all(dx <= 0):
            raise ValueError(
                "auc: x is neither increasing nor decreasing (first reversal at position "
                f"{int(np.flatnonzero(dx < 0)[0]) + 1}); sort the points by x first."
            )
        direction = -1.0
    return direction * trapezoid(xs, ys)


def _points_1d(v: Any, name: str) -> np.ndarray:
    """Curve coordinates as 1-D float64 (NaN allowed: it propagates to the area)."""
    arr = np.asarray(v)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"auc: {name} must be 1-D, got shape {arr.shape}.")
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"auc: {name} must be numeric, got dtype {arr.dtype}.")
    return arr.astype(np.float64, copy=False)


# -- scores ----------------------------------------------------------------------------------


def _auc_of_counts(
    neg: np.ndarray, pos: np.ndarray, max_fpr: float | None, warn: _WarnOnce
) -> float:
    n_total, p_total = count_totals(neg, pos)
    if n_total <= 0:
        warn(_NO_NEGATIVE)
    if p_total <= 0:
        warn(_NO_POSITIVE)
    if n_total <= 0 or p_total <= 0:
        return float("nan")
    if max_fpr is None or max_fpr == 1:
        return float(roc_auc(neg, pos))
    return partial_roc_auc(neg, pos, max_fpr)


def _ap_of_counts(neg: np.ndarray, pos: np.ndarray, warn: _WarnOnce) -> float:
    if count_totals(neg, pos)[1] <= 0:
        warn(_NO_POSITIVE_PR, UserWarning)
    return float(average_precision(neg, pos))


def _binary_auc(
    is_pos: np.ndarray,
    s: np.ndarray,
    w: np.ndarray | None,
    max_fpr: float | None,
    warn: _WarnOnce,
    owned: bool = False,
) -> float:
    """ROC AUC of one binary problem (scikit-learn's NaN + warning when a class is absent)."""
    n_pos = int(np.count_nonzero(is_pos))
    if n_pos == 0 or n_pos == is_pos.size:
        warn(_ONE_CLASS)
        return float("nan")
    w = ranking_weight_scale(w, is_pos)  # extreme weights: each class scaled on its own (exact)
    neg, pos = ScoreTable.from_validated(is_pos, s, _BINARY, w, owned).binary_counts(compact=True)
    return _auc_of_counts(neg, pos, max_fpr, warn)


def _binary_ap(
    is_pos: np.ndarray, s: np.ndarray, w: np.ndarray | None, warn: _WarnOnce
) -> float:
    if class_total_overflows(w, is_pos):  # no one float scale holds these sums: exact ones
        if not (is_pos & (w > 0)).any():
            warn(_NO_POSITIVE_PR, UserWarning)
        return exact_average_precision(is_pos, s, w)
    neg, pos = ScoreTable.from_validated(is_pos, s, _BINARY, w).binary_counts(compact=True)
    return _ap_of_counts(neg, pos, warn)


def _check_max_fpr(max_fpr: Any) -> None:
    if max_fpr is None:
        return
    if (
        isinstance(max_fpr, bool)
        or not isinstance(max_fpr, numbers.Real)
        or not 0 < max_fpr <= 1
    ):
        raise ValueError(f"max_fpr must be a number in (0, 1] or None, got {max_fpr!r}.")


def _read_scored_targets(
    y_true: Any, y_score: Any, sample_weight: Any, func: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, str, np.ndarray]:
    """Validate (y_true, y_score, sample_weight) for an area metric; y_true's kind and labels."""
    y = as_array(y_true, "y_true")
    s = as_score_array(y_score, "y_score")
    n = check_consistent_length(y_true=y, y_score=s)
    _check_nonempty(n, func)
    w = check_sample_weight(sample_weight, n, allow_all_zero=False)  # as scikit-learn
    kind, classes = target_kind(y, "y_true")
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    return y, s, w, kind, classes


def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    sample_weight: Any = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: Any = None,
) -> float | np.ndarray:
    """Area under the ROC curve: binary, multiclass (one-vs-rest or one-vs-one) or multilabel.

    For a binary problem it is the probability that a random positive scores above a random
    negative (ties count half). Multiclass: the one-vs-rest AUC of each class, or Hand and Till's
    mean over class pairs (one-vs-one), averaged; multilabel: one AUC per label column, averaged.

    Same as `sklearn.metrics.roc_auc_score`; differences: none in results for ordinary input (float
    weights: up to rounding in the last bits; with ``multi_class='ovo'`` a Python float where
    scikit-learn returns numpy.float64); faster (one sort into counts per distinct score);
    exact where scikit-learn's float sums overflow (float weights whose totals pass the float64
    range are scaled per class by a power of two, so the area stays right; scikit-learn: NaN); a
    negative ``sample_weight`` raises ValueError
    (scikit-learn accepts it); an invalid ``max_fpr`` raises ValueError (scikit-learn: its
    InvalidParameterError); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        True labels: binary (greater label positive), multiclass, or a 0/1 indicator matrix for
        multilabel data.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Binary: the score of the greater label (an (n, 2) probability matrix is not accepted: pass
        its second column). Multiclass: probabilities, one column per class in sorted label order,
        each row summing to 1. Multilabel: one score column per label.
    average : {"micro", "macro", "samples", "weighted"} or None, default="macro"
        How per-class (per-label) areas are combined: "macro" their unweighted mean; "weighted"
        their mean weighted by support; "micro" one area over every (sample, class) pair pooled;
        "samples" the mean of each sample's area over its labels (multilabel only); None returns
        them all (not with ``multi_class='ovo'``). Ignored for binary data.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1. Not supported with
        ``multi_class='ovo'``.
    max_fpr : float in (0, 1], default=None
        Binary only: the area over false positive rates from 0 to ``max_fpr``, standardised
        (McClish) so that 0.5 is chance and 1 perfect; None or 1 is the whole area.
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        For multiclass ``y_true``: "ovr" scores each class against the rest, "ovo" every pair of
        classes (Hand and Till); "raise" refuses multiclass data.
    labels : array-like of shape (n_classes,), default=None
        Multiclass only: the classes that index the columns of ``y_score``, sorted; needed when
        ``y_true`` lacks some of them. None: the labels of ``y_true``.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The (averaged) area; one per class or label with ``average=None``. NaN, with an
        UndefinedMetricWarning, when a needed class is absent from ``y_true``.

    See Also
    --------
    roc_curve : The curve itself.
    average_precision_score : The analogous summary of the precision-recall curve.

    Examples
    --------
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> roc_auc_score([0, 1, 2, 2], [[.6, .2, .2], [.2, .6, .2], [.1, .2, .7], [.3, .3, .4]],
    ...               multi_class="ovo")
    1.0
    """
    _check_average(average)
    if multi_class not in ("raise", "ovr", "ovo"):
        raise ValueError(f"multi_class must be 'raise', 'ovr' or 'ovo', got {multi_class!r}.")
    _check_max_fpr(max_fpr)
    y, s, w, kind, classes = _read_scored_targets(y_true, y_score, sample_weight, "roc_auc_score")
    warn = _WarnOnce()
    if kind == "multiclass" or (kind == "binary" and s.ndim == 2 and s.shape[1] > 2):
        return _multiclass_roc_auc(y, s, labels, multi_class, average, w, max_fpr, classes, warn)
    if kind == "binary":
        s = _one_column(s, "roc_auc_score")
        if classes.size < 2:
            warn(_ONE_CLASS)
            return float("nan")
        return _binary_auc(label_mask(y, classes[-1]), s, w, max_fpr, warn)
    if kind == "multilabel-indicator":
        indicator = _indicator(y, s, "roc_auc_score")
        return _average_labels(indicator, s, w, average, "roc", max_fpr, warn)
    raise _kind_error(kind, "roc_auc_score", y)


def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    pos_label: Any = 1,
    sample_weight: Any = None,
) -> float | np.ndarray:
    """Average precision: the precision at each threshold weighted by the rise in recall.

    The sum over the thresholds of (R_n - R_(n-1)) P_n, a step-wise area under the
    precision-recall curve with no interpolation between points.

    Same as `sklearn.metrics.average_precision_score`; differences: none in results for ordinary
    input (float weights: up to rounding in the last bits); faster (one sort into counts per
    distinct score); exact where scikit-learn's float sums overflow (when a class's total weight
    passes the float64 range the sums are exact; scikit-learn: a wrong value); empty input raises
    ValueError (scikit-learn: IndexError); a negative ``sample_weight`` raises ValueError
    (scikit-learn accepts it); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        True labels: binary, multiclass (scored one class against the rest), or a 0/1 indicator
        matrix for multilabel data.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Binary: the score of ``pos_label``. Multiclass and multilabel: one score column per class
        (in sorted label order) or label.
    average : {"micro", "samples", "weighted", "macro"} or None, default="macro"
        How per-class (per-label) values are combined: "macro" their unweighted mean; "weighted"
        their mean weighted by support; "micro" one value over every (sample, class) pair pooled;
        "samples" the mean over samples of each sample's value over its labels; None returns them
        all. Ignored for binary data.
    pos_label : int, float, bool or str, default=1
        The positive class of binary data; must stay 1 for multiclass and multilabel data.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The (averaged) average precision; one per class or label with ``average=None``. Without
        positive samples it is 0, with a UserWarning.

    See Also
    --------
    precision_recall_curve : The curve this summarises.
    roc_auc_score : The area under the ROC curve.

    Examples
    --------
    >>> average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.8333333333333333
    """
    _check_average(average)
    y, s, w, kind, present = _read_scored_targets(y_true, y_score, sample_weight, "average_precision_score")
    warn = _WarnOnce()
    if kind == "binary":
        if present.size == 2 and not label_mask(present, pos_label).any():
            raise ValueError(
                f"pos_label={pos_label!r} is not a valid label: y_true's labels are "
                f"{present.tolist()}. Pass one of them as pos_label."
            )
        s = _one_column(s, "average_precision_score")
        return _binary_ap(label_mask(y, pos_label), s, w, warn)
    if kind in ("multilabel-indicator", "multiclass"):
        if not (isinstance(pos_label, numbers.Number) and pos_label == 1):
            raise ValueError(
                f"pos_label is fixed to 1 for {kind} y_true (got pos_label={pos_label!r}); "
                "leave pos_label out or set it to 1."
            )
        if kind == "multiclass":
            y = encode(y, present)[:, None] == np.arange(present.size)
        indicator = _indicator(y, s, "average_precision_score")
        return _average_labels(indicator, s, w, average, "ap", None, warn)
    raise _kind_error(kind, "average_precision_score", y)


# -- multilabel and one-vs-rest averaging ----------------------------------------------------


def _indicator(y: np.ndarray, s: np.ndarray, func: str) -> np.ndarray:
    """Boolean label-indicator matrix, checked against the shape of y_score."""
    if s.shape != y.shape:
        raise ValueError(
            f"{func}: y_score must have the same shape as the label-indicator y_true, "
            f"{y.shape} (one column per label), got {s.shape}."
        )
    return y.astype(bool, copy=False)


def _average_labels(
    y: np.ndarray,
    s: np.ndarray,
    w: np.ndarray | None,
    average: str | None,
    metric: str,
    max_fpr: float | None,
    warn: _WarnOnce,
) -> float | np.ndarray:
    """A binary metric over the columns of an indicator matrix, averaged as scikit-learn does."""
    n, n_labels = y.shape
    if average == "micro":
        flat_w = None if w is None else np.repeat(w, n_labels)
        if metric == "roc":
            return _binary_auc(y.ravel(), s.ravel(), flat_w, max_fpr, warn)
        return _binary_ap(y.ravel(), s.ravel(), flat_w, warn)
    if average == "samples":
        return _average(_row_scores(y, s, metric, max_fpr, warn), ranking_weight_scale(w))
    weights = None
    if average == "weighted":
        weights = y.sum(axis=0, dtype=np.float64) if w is None else ranking_weight_scale(w) @ y
        if np.isclose(weights.sum(), 0.0):
            return 0.0
    if metric == "roc":
        scores = [_binary_auc(y[:, c], s[:, c], w, max_fpr, warn) for c in range(n_labels)]
    else:
        scores = [_binary_ap(y[:, c], s[:, c], w, warn) for c in range(n_labels)]
    return np.asarray(scores) if average is None else _average(np.asarray(scores), weights)


def _row_scores(
    y: np.ndarray, s: np.ndarray, metric: str, max_fpr: float | None, warn: _WarnOnce
) -> np.ndarray:
    """The metric of every sample over its labels (average='samples'), unweighted within rows."""
    neg, pos = rowwise_counts(y, s)
    n_pos = y.sum(axis=1)
    if metric == "ap":
        if (n_pos == 0).any():
            warn(_NO_POSITIVE_PR, UserWarning)
        return np.asarray(average_precision(neg, pos))
    one_class = (n_pos == 0) | (n_pos == y.shape[1])
    if one_class.any():
        warn(_ONE_CLASS)
    if max_fpr is None or max_fpr == 1:
        out = np.asarray(roc_auc(neg, pos), dtype=np.float64)
    else:
        out = np.array([partial_roc_auc(neg[i], pos[i], max_fpr) for i in range(y.shape[0])])
    out[one_class] = np.nan
    return out


def _average(scores: np.ndarray, weights: np.ndarray | None) -> float:
    if weights is None:
        return float(np.mean(scores))
    total = weights.sum()
    if total == 0:
        raise ValueError("cannot average: the weights of every score sum to zero.")
    # A score with zero weight cannot move the average, even when it is NaN.
    return float(np.dot(np.where(weights == 0, 0.0, scores), weights) / total)


# -- multiclass ------------------------------------------------------------------------------


def _check_probabilities(s: np.ndarray) -> None:
    """Rows must sum to 1 (numpy allclose tolerances), checked in blocks to bound memory."""
    # Speed trick: a matrix-vector product sums the short rows about twice as fast as
    # sum(axis=1) (it differs from it by rounding only, far below the tolerance).
    row_sums = s @ np.ones(s.shape[1], dtype=s.dtype)
    for start in range(0, s.shape[0], _BLOCK):
        total = row_sums[start : start + _BLOCK]
        bad = ~(np.abs(1.0 - total) <= 1e-8 + 1e-5 * np.abs(total))
        if bad.any():
            row = start + int(np.flatnonzero(bad)[0])
            raise ValueError(
                "multiclass roc_auc_score needs probabilities: each row of y_score must sum to "
                f"1 over the classes, but row {row} sums to {float(total[row - start]):.10g}. Pass "
                "predict_proba output, or normalise the scores (e.g. a softmax)."
            )


def _column_major(s: np.ndarray) -> np.ndarray:
    """A column-major copy of a score matrix, so that each class column is contiguous.

    Speed trick: transposing block by block (cache-sized row blocks) is several times faster than
    numpy's plain transposed copy, and far faster than reading a strided column per class.
    """
    if s.flags.f_contiguous:
        return s.copy(order="F")
    out = np.empty(s.shape, dtype=s.dtype, order="F")
    block = max(1, (1 << 18) // max(1, s.shape[1]))
    for start in range(0, s.shape[0], block):
        out.T[:, start : start + block] = s[start : start + block].T
    return out


def _multiclass_classes(
    y: np.ndarray, s: np.ndarray, labels: Any, present: np.ndarray
) -> np.ndarray:
    """The classes that index y_score's columns: ``labels`` if given, else y_true's labels."""
    if labels is None:
        if present.size != s.shape[1]:
            raise ValueError(
                f"y_score has {s.shape[1]} columns but y_true has {present.size} classes "
                f"({present.tolist()}); pass labels= listing every class in column order when "
                "some classes are missing from y_true."
            )
        return present
    given = as_array(labels, "labels").reshape(-1)
    classes = unique_sorted(given, "labels")
    if classes.size != given.size:
        raise ValueError(f"labels must be unique, got {given.tolist()}.")
    if not np.array_equal(classes, given):
        raise ValueError(
            f"labels must be sorted (they index y_score's columns in sorted order), got "
            f"{given.tolist()}; pass {classes.tolist()} and reorder y_score's columns to match."
        )
    if classes.size != s.shape[1]:
        raise ValueError(
            f"labels has {classes.size} entries but y_score has {s.shape[1]} columns; they "
            "must match, one column per label."
        )
    return classes


def _multiclass_roc_auc(
    y: np.ndarray,
    s: np.ndarray,
    labels: Any,
    multi_class: str,
    average: str | None,
    w: np.ndarray | None,
    max_fpr: float | None,
    present: np.ndarray,
    warn: _WarnOnce,
) -> float | np.ndarray:
    if max_fpr is not None and max_fpr != 1:
        raise ValueError(
            f"max_fpr={max_fpr!r}: partial AUC is not available for multiclass y_true; leave "
            "max_fpr as None."
        )
    if multi_class == "raise":
        raise ValueError(
            "y_true is multiclass: pass multi_class='ovr' (one-vs-rest) or 'ovo' (one-vs-one, "
            "Hand & Till) to roc_auc_score."
        )
    if s.ndim != 2:
        raise ValueError(
            f"y_score must have shape (n_samples, n_classes) for multiclass y_true, got shape "
            f"{s.shape}."
        )
    _check_probabilities(s)
    options: tuple = ("macro", "weighted", None)
    if multi_class == "ovr":
        options = ("micro", *options)
    if average not in options:
        raise ValueError(
            f"average={average!r} is not supported for multiclass roc_auc_score with "
            f"multi_class={multi_class!r}; use one of {list(options)}."
        )
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    classes = _multiclass_classes(y, s, labels, present)
    codes = encode(y, classes)
    if codes.size and codes.min() < 0:
        bad = int(np.flatnonzero(codes < 0)[0])
        raise ValueError(
            f"y_true[{bad}] = {y[bad:bad + 1].tolist()[0]!r} is not in labels "
            f"{classes.tolist()}; add it to labels (with a y_score column) or drop those samples."
        )
    if multi_class == "ovo":
        if w is not None:
            raise ValueError(
                "sample_weight is not supported for multi_class='ovo' (Hand & Till's measure is "
                "unweighted); drop sample_weight or use multi_class='ovr'."
            )
        return _ovo(codes, s, classes.size, average, warn)
    return _ovr(codes, s, classes.size, average, w, warn)


def _ovo(codes: np.ndarray, s: np.ndarray, k: int, average: str | None, warn: _WarnOnce) -> float:
    support = np.bincount(codes, minlength=k)
    if np.count_nonzero(support) < 2:
        warn("Only one class is present in y_true; one-vs-one ROC AUC is not defined.")
        return float("nan")
    scores, share = hand_till_pairs(pairwise_u_validated(codes, s, k), support)
    return float(np.average(scores, weights=share if average == "weighted" else None))


def _ovr(
    codes: np.ndarray,
    s: np.ndarray,
    k: int,
    average: str | None,
    w: np.ndarray | None,
    warn: _WarnOnce,
) -> float | np.ndarray:
    if average == "micro":
        indicator = codes[:, None] == np.arange(k)
        flat_w = None if w is None else np.repeat(w, k)
        return _binary_auc(indicator.ravel(), s.ravel(), flat_w, None, warn)
    weights = None
    if average == "weighted":
        weights = np.bincount(codes, ranking_weight_scale(w), minlength=k).astype(np.float64)
        if np.isclose(weights.sum(), 0.0):
            return 0.0
    # One binary table per class column (class vs rest): with one class code bit, the packed
    # sort key always fits, whatever the range of the probabilities.
    columns = _column_major(s)
    scores = np.array(
        [_binary_auc(codes == a, columns[:, a], w, None, warn, owned=True) for a in range(k)]
    )
    return scores if average is None else _average(scores, weights)
