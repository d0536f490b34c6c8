"""The formulas: every label-based measure as a function of count arrays.

All functions accept counts with any leading batch shape, e.g. confusion tables of shape
(..., k, k) or per-class counts of shape (..., k), so that a bootstrap is one call on a stack of
resampled tables.  An undefined value (0/0) is returned as NaN; the caller decides what to do with
it (scikit-learn's ``zero_division``, or the Evaluation layer's NaN-and-report).

>>> cm = np.array([[2, 0, 0], [0, 0, 1], [1, 0, 2]])
>>> tp, fp, fn, tn = one_vs_rest(cm)
>>> precision(tp, fp).round(3).tolist()
[0.667, nan, 0.667]
>>> float(accuracy(cm))
0.6666666666666666
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from clfeval.formulas.exact_sums import exact_kappa, exact_mcc, exact_ratio, is_big

__all__ = [
    "kappa_disagreement_weights",
    "one_vs_rest",
    "mcc_of_margins",
    "ratio",
    "precision",
    "recall",
    "specificity",
    "npv",
    "fallout",
    "fbeta",
    "jaccard",
    "scaled_below_overflow",
    "accuracy",
    "error_rate",
    "balanced_accuracy",
    "matthews_corrcoef",
    "cohen_kappa",
    "likelihood_ratios",
    "average",
]


def one_vs_rest(cm: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-class (tp, fp, fn, tn) from confusion tables of shape (..., k, k).

    >>> [x.tolist() for x in one_vs_rest(np.array([[5, 1], [2, 3]]))]
    [[5, 3], [2, 1], [1, 2], [3, 5]]
    """
    tp = np.diagonal(cm, axis1=-2, axis2=-1)
    with np.errstate(over="ignore", invalid="ignore"):  # weight sums past the float range: inf, NaN
        predicted = cm.sum(axis=-2)
        actual = cm.sum(axis=-1)
        total = actual.sum(axis=-1, keepdims=True)
        fp = predicted - tp
        fn = actual - tp
        tn = total - tp - fp - fn
    if cm.dtype.kind == "f":
        # Weighted tables: the subtraction leaves rounding residue (even negative) where the
        # true tn is exactly 0, which would turn an undefined 0/0 into a number. tn is 0 exactly
        # when no cell outside row c and column c holds weight.
        nz = cm != 0
        outside = (
            nz.sum(axis=(-2, -1))[..., None] - nz.sum(axis=-1) - nz.sum(axis=-2)
            + np.diagonal(nz, axis1=-2, axis2=-1)
        )
        tn = np.where(outside == 0, 0.0, np.maximum(tn, 0.0))
    return tp, fp, fn, tn


def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den in float64, NaN where den == 0.

    >>> ratio(np.array([1, 0]), np.array([2, 0])).tolist()
    [0.5, nan]

    Integer counts of 2**53 and more (and Python-int object arrays) are divided exactly, so the
    result is correctly rounded where converting each count to float64 first would not be.

    >>> float(ratio(np.array(2**53 + 1), np.array(3 * 2**52 + 1)))  # float64 first: ...666
    0.6666666666666667
    """
    if is_big(num, den):
        return exact_ratio(num, den)
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.asarray(np.true_divide(num, den))
    zero = den == 0
    if zero.any():
        if out.ndim == 0:
            return np.asarray(np.nan)
        out = out.copy() if not out.flags.writeable else out
        out[np.broadcast_to(zero, out.shape)] = np.nan
    return out


def precision(tp: np.ndarray, fp: np.ndarray) -> np.ndarray:
    """Positive predictive value tp / (tp + fp)."""
    return ratio(tp, tp + fp)


def recall(tp: np.ndarray, fn: np.ndarray) -> np.ndarray:
    """Sensitivity, true positive rate: tp / (tp + fn)."""
    return ratio(tp, tp + fn)


def specificity(tn: np.ndarray, fp: np.ndarray) -> np.ndarray:
    """True negative rate tn / (tn + fp)."""
    return ratio(tn, tn + fp)


def npv(tn: np.ndarray, fn: np.ndarray) -> np.ndarray:
    """Negative predictive value tn / (tn + fn)."""
    return ratio(tn, tn + fn)


def fallout(fp: np.ndarray, tn: np.ndarray) -> np.ndarray:
    """False positive rate fp / (fp + tn)."""
    return ratio(fp, fp + tn)


def fbeta(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, beta: float = 1.0) -> np.ndarray:
    """F-beta = (1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp); b = inf gives recall, b = 0 precision.

    >>> float(fbeta(np.array(2), np.array(1), np.array(1)))
    0.6666666666666666
    """
    if np.isposinf(beta):
        return recall(tp, fn)
    if beta == 0:
        return precision(tp, fp)
    b2 = beta * beta
    integer = all(np.asarray(x).dtype.kind in "biuO" for x in (tp, fp, fn))
    if is_big(tp, fp, fn) or (integer and is_big(np.asarray(tp) * 2 + fp + fn)):
        # exact: (1 + b2) tp / ((1 + b2) tp + b2 fn + fp) with b2 as a fraction
        from fractions import Fraction

        fb2 = Fraction(b2)
        tp_, fp_, fn_ = (np.asarray(x, dtype=object) for x in (tp, fp, fn))
        return exact_ratio((1 + fb2) * tp_, (1 + fb2) * tp_ + fb2 * fn_ + fp_)
    # the denominator is at most 2 (1 + b2) times the largest of tp, fp, fn
    tp, fp, fn = scaled_below_overflow(2.0 * (1.0 + b2), tp, fp, fn)
    true_sum = np.asarray(tp + fn, dtype=np.float64)
    pred_sum = np.asarray(tp + fp, dtype=np.float64)
    return ratio((1 + b2) * np.asarray(tp, dtype=np.float64), b2 * true_sum + pred_sum)


def jaccard(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> np.ndarray:
    """Jaccard index (intersection over union) tp / (tp + fp + fn).

    >>> float(jaccard(np.array(2.0**1023), np.array(2.0**1022), np.array(2.0**1022)))  # the union passes float64
    0.5
    """
    tp, fp, fn = scaled_below_overflow(3.0, tp, fp, fn)
    return ratio(tp, tp + fp + fn)


def scaled_below_overflow(factor: float, *arrays: Any) -> tuple[np.ndarray, ...]:
    """Float arrays (broadcast together) of which each entry whose largest value times ``factor``
    would pass float64 is divided, in every array alike, by a power of two (exact) that keeps it
    inside: for ratios of sums of them, which do not change. Other entries are left as they are;
    integer counts (no float among the arrays) come back unchanged, as they cannot get there.

    >>> tp, fp = scaled_below_overflow(4.0, np.array([1e308, 3.0]), np.array([2e307, 1.0]))
    >>> (tp / fp).tolist(), bool(tp[1] == 3.0)
    ([5.0, 3.0], True)
    """
    if all(np.asarray(a).dtype.kind in "biuO" for a in arrays):
        return arrays
    arrays = tuple(np.asarray(a, dtype=np.float64) for a in arrays)
    exponent = int(np.frexp(factor)[1]) + 1  # factor < 2**exponent / 2
    limit = 2.0 ** (1023 - exponent)
    with np.errstate(invalid="ignore"):
        top = np.maximum.reduce(np.broadcast_arrays(*(np.abs(a) for a in arrays)))
        big = top >= limit
    if not big.any():
        return arrays
    scale = np.where(big, 2.0**-exponent, 1.0)
    return tuple(a * scale for a in arrays)


def accuracy(cm: np.ndarray) -> np.ndarray:
    """Fraction on the diagonal of (..., k, k) tables."""
    return ratio(np.trace(cm, axis1=-2, axis2=-1), cm.sum(axis=(-2, -1)))


def error_rate(cm: np.ndarray) -> np.ndarray:
    """1 - accuracy, computed from the off-diagonal mass."""
    total = cm.sum(axis=(-2, -1))
    return ratio(total - np.trace(cm, axis1=-2, axis2=-1), total)


def balanced_accuracy(cm: np.ndarray, adjusted: bool = False) -> np.ndarray:
    """Mean recall over the classes present in y_true (rows with support); NaN where undefined.

    ``adjusted`` rescales so that chance scores 0 (undefined, NaN, with a single class).

    >>> float(balanced_accuracy(np.array([[3, 1], [1, 1]])))
    0.625
    """
    diag = np.diagonal(cm, axis1=-2, axis2=-1)
    per_class = ratio(diag, cm.sum(axis=-1))
    present = ~np.isnan(per_class)
    n_present = present.sum(axis=-1)
    score = ratio(np.where(present, per_class, 0.0).sum(axis=-1), n_present)
    if adjusted:
        chance = ratio(np.ones_like(score), n_present)
        score = ratio(score - chance, 1.0 - chance)
    return score


def matthews_corrcoef(cm: np.ndarray) -> np.ndarray:
    """Matthews correlation (Gorodkin's multi-class R_K); 0 where it is undefined.

    >>> float(matthews_corrcoef(np.array([[1, 1], [0, 2]])))
    0.5773502691896258
    """
    split = _split_exact(cm, exact_mcc, matthews_corrcoef)
    if split is not None:
        return split
    cm = np.asarray(cm, dtype=np.float64)
    if cm.shape[-1] != 2:
        return mcc_of_margins(np.trace(cm, axis1=-2, axis2=-1), cm.sum(axis=-1), cm.sum(axis=-2))
    # two classes: (TP TN - FP FN) / sqrt(margins); the trace form cancels digits away (weights)
    r, ok = _two_class_mcc(cm)
    if ok.all():
        return r
    # products of weights past the float range: the same on shares of the total (an empty margin, 0 by
    # the report's convention, or a denominator below the range: the margins' form)
    total = cm.sum(axis=(-2, -1), keepdims=True)
    q = cm / np.where(total > 0, total, 1.0)
    r_shares, ok_shares = _two_class_mcc(q)
    with np.errstate(under="ignore"):
        by_margins = mcc_of_margins(np.trace(q, axis1=-2, axis2=-1), q.sum(axis=-1), q.sum(axis=-2))
    return np.where(ok, r, np.where(ok_shares, r_shares, by_margins))


def _two_class_mcc(cm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(MCC, where it is a finite ratio) of (..., 2, 2) float tables, (TP TN - FP FN) / sqrt(margins)."""
    tn, fp, fn, tp = cm[..., 0, 0], cm[..., 0, 1], cm[..., 1, 0], cm[..., 1, 1]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        num = tp * tn - fp * fn
        den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        ok = (den > 0) & np.isfinite(den) & np.isfinite(num)
        r = num / np.sqrt(np.where(ok, den, 1.0))
    return np.clip(np.where(ok, r, 0.0), -1.0, 1.0), ok


def mcc_of_margins(correct: Any, t_sum: np.ndarray, p_sum: np.ndarray) -> np.ndarray:
    """Matthews correlation from the trace and the margins (true-class totals ``t_sum``,
    predicted-class totals ``p_sum``, classes on the last axis): all it needs, so that a dense
    table and pair-coded counts share it. 0 where undefined: a margin with one class only, whose
    covariance is 0 (or, by float cancellation with weights, a few ulps below).

    >>> float(mcc_of_margins(3.0, np.array([2.0, 2.0]), np.array([1.0, 3.0])))
    0.5773502691896258
    """
    t_sum = np.asarray(t_sum, dtype=np.float64)
    p_sum = np.asarray(p_sum, dtype=np.float64)
    n = p_sum.sum(axis=-1)
    cov_tp = correct * n - np.sum(t_sum * p_sum, axis=-1)
    cov_pp = n**2 - np.sum(p_sum * p_sum, axis=-1)
    cov_tt = n**2 - np.sum(t_sum * t_sum, axis=-1)
    den = cov_pp * cov_tt
    undefined = ~(den > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(undefined, 0.0, cov_tp / np.sqrt(np.where(undefined, 1.0, den)))
    # a correlation: within [-1, 1] (Cauchy-Schwarz), where float sums of weights can pass it by ulps
    return np.clip(r, -1.0, 1.0)


def _products_inexact(cm: np.ndarray) -> np.ndarray | bool:
    """Which integer tables have totals of 2**26 and more (a boolean per table; False for float
    tables, True for Python-int object arrays): products of their margins pass 2**53, where
    float64 rounds them (and their differences cancel), so the exact formulas take over."""
    cm = np.asarray(cm)
    if cm.dtype.kind == "O":
        return True
    if cm.dtype.kind not in "iu" or cm.size == 0:
        return False
    totals = cm.sum(axis=(-2, -1))
    return np.asarray((totals >= 1 << 26) | (totals <= -(1 << 26)))


def _split_exact(cm: Any, exact_one: Callable[[np.ndarray], float],
                 formula: Callable[[np.ndarray], np.ndarray]) -> np.ndarray | None:
    """The values of a product formula (MCC, kappa) where some tables need the exact path: those
    tables one by one exactly (correctly rounded), the rest by ``formula``'s float path, so that a
    table's value does not depend on the batch it is in. None where no table needs it."""
    inexact = _products_inexact(cm)
    if not np.any(inexact):
        return None
    cm = np.asarray(cm)
    flat = cm.reshape((-1,) + cm.shape[-2:])
    big = np.broadcast_to(np.asarray(inexact), cm.shape[:-2]).reshape(-1)
    out = np.empty(flat.shape[0], dtype=np.float64)
    out[big] = [exact_one(t) for t in flat[big]]
    if not big.all():
        out[~big] = formula(flat[~big])
    return out.reshape(cm.shape[:-2])


def kappa_disagreement_weights(k: int, weights: str | None = None) -> np.ndarray:
    """The (k, k) disagreement weights of Cohen's kappa: 1 off the diagonal (plain), ``|i - j|``
    (linear) or ``(i - j)**2`` (quadratic).

    >>> kappa_disagreement_weights(3, "linear").tolist()
    [[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]]
    """
    if weights is None:
        return 1.0 - np.eye(k)
    grid = np.arange(k, dtype=np.float64)
    diff = grid[None, :] - grid[:, None]
    if weights == "linear":
        return np.abs(diff)
    if weights == "quadratic":
        return diff**2
    raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}.")


def cohen_kappa(
    cm: np.ndarray, weights: Literal["linear", "quadratic"] | None = None
) -> np.ndarray:
    """Cohen's kappa (optionally linear/quadratic weighted); NaN where undefined.

    >>> float(cohen_kappa(np.array([[20, 5], [10, 15]])))
    0.4
    """
    split = _split_exact(cm, lambda t: exact_kappa(t, weights), lambda c: cohen_kappa(c, weights))
    if split is not None:
        return split
    cm = np.asarray(cm, dtype=np.float64)
    k = cm.shape[-1]
    row = cm.sum(axis=-1)
    col = cm.sum(axis=-2)
    total = col.sum(axis=-1)[..., None, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = col[..., :, None] * row[..., None, :] / total
    w = kappa_disagreement_weights(k, weights)
    observed = np.sum(w * cm, axis=(-2, -1))
    chance = np.sum(w * expected, axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(chance == 0, np.nan, 1.0 - observed / np.where(chance == 0, 1.0, chance))


def likelihood_ratios(tp, fp, fn, tn) -> tuple[np.ndarray, np.ndarray]:
    """(LR+, LR-) = (sensitivity / fall-out, miss rate / specificity); NaN where undefined.

    >>> [float(x) for x in likelihood_ratios(2, 1, 1, 2)]
    [2.0, 0.5]
    """
    tp, fp, fn, tn = (np.asarray(x, dtype=np.float64) for x in (tp, fp, fn, tn))
    pos = tp + fn
    neg = tn + fp
    lr_pos = ratio(tp * neg, fp * pos)
    lr_neg = ratio(fn * neg, tn * pos)
    return np.where(pos == 0, np.nan, lr_pos), np.where(pos == 0, np.nan, lr_neg)


def average(values: np.ndarray, weights: np.ndarray | None = None) -> float:
    """Average over the last axis ignoring NaN (undefined) entries, optionally weighted.

    All-NaN gives NaN; all-zero weights fall back to the plain mean (as scikit-learn does).

    >>> average(np.array([1.0, np.nan, 0.0]))
    0.5
    """
    values = np.asarray(values, dtype=np.float64)
    if values.shape[0] == 0:
        return float("nan")
    keep = ~np.isnan(values)
    if not keep.any():
        return float("nan")
    if weights is None:
        return float(np.mean(values[keep]))
    w = np.asarray(weights, dtype=np.float64)[keep]
    if w.sum() == 0:
        return float(np.mean(values[keep]))
    return float(np.average(values[keep], weights=w))
