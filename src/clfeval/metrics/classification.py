"""Label-based metrics: drop-in replacements for scikit-learn's, built on :mod:`clfeval.counts`.

Each function validates its input, builds the confusion counts once and reads every number off
them with the formulas of :mod:`clfeval.measures`.

Deliberate differences from scikit-learn at the ends of the number range (see
:mod:`clfeval.exact_sums`): integer weights are summed exactly, and sums past int64 come back as
Python ints in an object array (scikit-learn wraps them to negative counts); float weights whose
sums overflow are still read exactly by the formulas, so ``f1_score(y, p, sample_weight=[1e308]
* 5)`` is 0.8 where scikit-learn's float64 sums reach inf and it returns NaN (the confusion
matrix itself still shows the float64 sums, inf included).

>>> precision_recall_fscore_support([0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 2, 2, 2, 1], average="macro")[0]
0.7222222222222222
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from numbers import Real
from typing import Any, Callable, Literal

import numpy as np

from .. import margins, measures
from ..counts import ConfusionCounts, MultilabelCounts, build_counts
from ..exact_sums import UNIT_EXPONENT, exact_div, exact_ratio, is_big, scaled_floats, to_float
from ..exceptions import UndefinedMetricWarning
from ..sparse_counts import PairCounts, dense_limit_bytes, dense_refusal

__all__ = [
    "confusion_matrix",
    "multilabel_confusion_matrix",
    "accuracy_score",
    "error_rate",
    "balanced_accuracy_score",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "fbeta_score",
    "f1_score",
    "specificity_score",
    "npv_score",
    "fallout_score",
    "jaccard_score",
    "classification_report",
    "matthews_corrcoef",
    "cohen_kappa_score",
    "hamming_loss",
    "zero_one_loss",
    "class_likelihood_ratios",
]

_AVERAGES = (None, "micro", "macro", "weighted", "samples")
ZeroDivision = Literal["warn"] | float


# --------------------------------------------------------------------------------------------
# shared plumbing
# --------------------------------------------------------------------------------------------
def _zero_division_value(zero_division: Any) -> float:
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return 0.0
    elif isinstance(zero_division, Real):
        if np.isnan(zero_division) or zero_division in (0, 1):
            return float(zero_division)
    raise ValueError(
        f"zero_division must be 'warn', 0.0, 1.0 or np.nan, got {zero_division!r}."
    )


def _check_bool(value: Any, name: str) -> None:
    """Flags are True or False (numpy booleans too), as in scikit-learn; 1, 'yes', None are not."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}.")


def _check_pos_label(pos_label: Any) -> None:
    if pos_label is not None and not isinstance(pos_label, (Real, str, bool, np.bool_)):
        raise TypeError(
            f"pos_label must be a single label (a number, string or bool), got {pos_label!r}; "
            "use labels=[...] to choose several classes."
        )


def _binary_1d(kind: str, counts: Any) -> ConfusionCounts:
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"{kind} targets are not supported by this metric; it needs 1-D labels.")
    return counts


@dataclass
class _SetwiseCounts:
    """Per-label (or, for average='samples', per-sample) tp/fp/fn/tn and averaging weights."""

    kind: str
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    sample_weight: np.ndarray | None
    average: str | None
    #: counts are in units of 2**unit_exponent (exact sums of extreme float weights)
    unit_exponent: int = 0

    @property
    def support(self) -> np.ndarray:
        s = self.tp + self.fn
        return to_float(s, self.unit_exponent) if self.unit_exponent else s

    def support_weights(self) -> np.ndarray:
        """The supports as averaging weights (only their proportions count): float64."""
        s = self.tp + self.fn
        return scaled_floats(s) if s.dtype.kind == "O" else s

    def summed(self) -> "_SetwiseCounts":
        """Counts pooled over labels (the micro average)."""
        pooled = [np.asarray([x.sum()]) for x in (self.tp, self.fp, self.fn, self.tn)]
        return _SetwiseCounts(self.kind, *pooled, self.sample_weight, self.average, self.unit_exponent)

    def with_average(self, average: Any) -> "_SetwiseCounts":
        return _SetwiseCounts(self.kind, self.tp, self.fp, self.fn, self.tn, None, average, self.unit_exponent)


def _unit(counts: ConfusionCounts) -> int:
    if isinstance(counts, PairCounts):
        return counts.for_formulas()[1]
    return UNIT_EXPONENT if counts.exact is not None else 0


def _div(a: Any, b: Any) -> float:
    """a / b as a float: correctly rounded for exact counts (Python ints, or 2**53 and beyond)."""
    if isinstance(a, int) or isinstance(b, int) or is_big(np.asarray(a), np.asarray(b)):
        return exact_div(a, b)
    return float(a / b)


def _check_average(average: Any) -> None:
    if average not in _AVERAGES and average != "binary":
        raise ValueError(
            f"average has to be one of {_AVERAGES + ('binary',)}, got {average!r}."
        )


def _select_binary_labels(kind: str, present: np.ndarray, average: Any, labels: Any, pos_label: Any):
    """scikit-learn's set-wise label rules: average='binary' means labels=[pos_label]."""
    if average == "binary":
        if kind == "binary":
            present_list = present.tolist()
            if pos_label not in present_list and len(present_list) >= 2:
                raise ValueError(
                    f"pos_label={pos_label!r} is not a valid label. It should be one of "
                    f"{present_list}."
                )
            return [pos_label]
        options = [o for o in _AVERAGES if not (kind == "multiclass" and o == "samples")]
        raise ValueError(
            f"Target is {kind} but average='binary'. Please choose another average setting, "
            f"one of {options}."
        )
    if pos_label not in (None, 1):
        warnings.warn(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != 'binary' "
            f"(got {average!r}). You may use labels=[pos_label] to specify a single positive "
            "class.",
            UserWarning,
            stacklevel=4,
        )
    return labels


def _multilabel_columns(n_labels: int, labels: Any) -> np.ndarray:
    cols = np.asarray(labels)
    if cols.size == 0:
        return cols.astype(np.intp)
    if cols.size and (cols.max() >= n_labels or cols.min() < 0):
        bad = cols.max() if cols.max() >= n_labels else cols.min()
        raise ValueError(
            f"All labels must be in [0, n labels) for multilabel targets. Got {bad} "
            f"(there are {n_labels} label columns)."
        )
    return cols


def _ovr_tables(counts: ConfusionCounts, labels: Any, weighted: bool, exact: bool = True) -> np.ndarray:
    """Per-label [[tn, fp], [fn, tp]] tables, in the dtype scikit-learn returns them.

    scikit-learn returns float tables when sample weights are given, and also (a quirk kept for
    identical output) when no sample at all is predicted correctly. Counts that float64 would
    round (2**53 and beyond, Python ints) stay exact integers. ``exact``: the formulas' table
    (exact sums of extreme float weights), else the user-facing one.
    """
    if isinstance(counts, PairCounts):
        pairs = counts.for_formulas()[0] if exact else counts
        tables, total = pairs.one_vs_rest(labels), pairs.total
    else:
        tables, total = counts.one_vs_rest(labels, exact=exact), counts.table.sum()
    # float64 holds the formulas' sums of counts (2 tp + fp + fn at most) exactly while the
    # total stays below 2**52
    if (weighted or _trace(counts) == 0) and not is_big(total, limit=1 << 52):
        tables = tables.astype(np.float64)
    return tables


def _setwise_counts(
    y_true: Any, y_pred: Any, *, average: Any, labels: Any, pos_label: Any, sample_weight: Any
) -> _SetwiseCounts:
    _check_average(average)
    _check_pos_label(pos_label)
    kind, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    if kind == "multilabel-indicator":
        present = np.arange(counts.n_labels)
    else:
        present = counts.labels
    labels = _select_binary_labels(kind, present, average, labels, pos_label)
    if kind == "multilabel-indicator":
        return _multilabel_setwise(y_true, y_pred, counts, labels, average, sample_weight)
    if average == "samples":
        raise ValueError("Samplewise metrics are not available outside of multilabel classification.")
    tables = _ovr_tables(counts, labels, sample_weight is not None)
    tn, fp, fn, tp = (tables[:, 0, 0], tables[:, 0, 1], tables[:, 1, 0], tables[:, 1, 1])
    return _SetwiseCounts(kind, tp, fp, fn, tn, None, average, _unit(counts))


def _multilabel_setwise(y_true, y_pred, counts: MultilabelCounts, labels, average, sample_weight):
    if labels is not None:
        cols = _multilabel_columns(counts.n_labels, labels)
        if not np.array_equal(cols, np.arange(counts.n_labels)):
            from ..labels import as_array

            yt = as_array(y_true, "y_true")[:, cols]
            yp = as_array(y_pred, "y_pred")[:, cols]
            counts = MultilabelCounts.from_indicators(yt, yp, counts.sample_weight)
    if average == "samples":
        tp, fp, fn = (counts.per_sample[:, i] for i in range(3))
        n_cols = counts.n_labels
        w = counts.sample_weight
        if w is not None:
            tp, fp, fn = (x * w for x in (tp, fp, fn))
            tn = w * n_cols - tp - fp - fn
        else:
            tn = n_cols - tp - fp - fn
        return _SetwiseCounts("multilabel-indicator", tp, fp, fn, tn, w, average)
    t = counts.tables
    if counts.sample_weight is not None and counts.per_sample.any():
        # scikit-learn's weighted tables are float, except (a numpy bincount quirk kept for
        # identical output) integer-weighted ones where the chosen columns hold no positives.
        t = t.astype(np.float64)
    return _SetwiseCounts("multilabel-indicator", t[:, 1, 1], t[:, 0, 1], t[:, 1, 0], t[:, 0, 0], None, average)


def _warn_undefined(metric: str, modifier: str, average: Any, size: int) -> None:
    axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
    where = "due to" if size == 1 else f"in {axis1}s with"
    warnings.warn(
        f"{metric} is ill-defined and being set to 0.0 {where} no {modifier} {axis0}s. "
        "Use `zero_division` parameter to control this behavior.",
        UndefinedMetricWarning,
        stacklevel=4,
    )


def _fill_undefined(
    values: np.ndarray, zero_division: Any, *, metric: str, modifier: str, average: Any, warn: bool
) -> np.ndarray:
    """Replace NaN (0/0) by the zero_division value, warning when it is 'warn'."""
    undefined = np.isnan(values)
    if not undefined.any():
        return values
    values = values.copy()
    values[undefined] = _zero_division_value(zero_division)
    if warn and isinstance(zero_division, str) and zero_division == "warn":
        _warn_undefined(metric, modifier, average, values.shape[0])
    return values


def _reduce(values: np.ndarray, c: _SetwiseCounts) -> float | np.ndarray:
    """Average per-label values as scikit-learn does (NaN entries are left out)."""
    if c.average is None:
        return values
    if c.average == "weighted":
        return measures.average(values, c.support_weights())
    if c.average == "samples":
        return measures.average(values, c.sample_weight)
    return measures.average(values)


# (formula, metric name in warnings, what is missing when undefined)
_RATE_FORMULAS: dict[str, tuple[Callable[[_SetwiseCounts], np.ndarray], str, str]] = {
    "precision": (lambda c: measures.precision(c.tp, c.fp), "Precision", "predicted"),
    "recall": (lambda c: measures.recall(c.tp, c.fn), "Recall", "true"),
    "specificity": (lambda c: measures.specificity(c.tn, c.fp), "Specificity", "negative"),
    "npv": (lambda c: measures.npv(c.tn, c.fn), "NPV", "predicted negative"),
    "fallout": (lambda c: measures.fallout(c.fp, c.tn), "Fall-out", "negative"),
    "jaccard": (lambda c: measures.jaccard(c.tp, c.fp, c.fn), "Jaccard", "true or predicted"),
}


def _rate(name: str, c: _SetwiseCounts, zero_division: Any, warn: bool = True):
    formula, metric, modifier = _RATE_FORMULAS[name]
    if c.average == "micro":
        c = c.summed()
    values = _fill_undefined(
        formula(c), zero_division, metric=metric, modifier=modifier, average=c.average, warn=warn
    )
    return _reduce(values, c)


def _setwise_rate(name: str, y_true, y_pred, *, labels, pos_label, average, sample_weight, zero_division):
    _zero_division_value(zero_division)
    c = _setwise_counts(
        y_true, y_pred, average=average, labels=labels, pos_label=pos_label, sample_weight=sample_weight
    )
    result = _rate(name, c, zero_division)
    return result if average is None else float(result)


# --------------------------------------------------------------------------------------------
# confusion matrices
# --------------------------------------------------------------------------------------------
def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    normalize: Literal["true", "pred", "all"] | None = None,
) -> np.ndarray:
    """Confusion matrix C[i, j]: samples of true class i predicted as class j.

    >>> confusion_matrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2]).tolist()
    [[2, 0, 0], [0, 0, 1], [1, 0, 2]]
    """
    if normalize not in ("true", "pred", "all", None):
        raise ValueError(f"normalize must be one of {{'true', 'pred', 'all', None}}, got {normalize!r}.")
    kind, counts, true_labels, _ = build_counts(y_true, y_pred, sample_weight)
    cm = _labelled_matrix(_binary_1d(kind, counts), true_labels, labels)
    if normalize is not None and (counts.exact is not None or is_big(cm)):
        # exact counts: each share correctly rounded (0 where the row/column/total is 0)
        t = _labelled_matrix(counts, true_labels, labels, exact=True)
        den = {"true": t.sum(axis=1, keepdims=True), "pred": t.sum(axis=0, keepdims=True), "all": t.sum()}[normalize]
        cm = np.nan_to_num(exact_ratio(t, den))
    elif normalize is not None:
        with np.errstate(all="ignore"):
            if normalize == "true":
                cm = cm / cm.sum(axis=1, keepdims=True)
            elif normalize == "pred":
                cm = cm / cm.sum(axis=0, keepdims=True)
            else:
                cm = cm / cm.sum()
        cm = np.nan_to_num(cm)
    if cm.shape == (1, 1):
        _warn_single_label(stacklevel=3)
    return cm


def _trace(counts: Any, exact: bool = False) -> Any:
    """Sum of the diagonal of dense (the formulas' table with ``exact``) or pair-coded counts."""
    if isinstance(counts, PairCounts):
        return (counts.for_formulas()[0] if exact else counts).trace
    return np.trace(counts.table if exact else counts.matrix)


def _dense_of_pairs(counts: PairCounts) -> np.ndarray:
    """The dense table scikit-learn returns, refused with its size when the machine cannot hold it."""
    limit = dense_limit_bytes()
    if counts.k * counts.k * counts.values.dtype.itemsize > limit:
        raise dense_refusal(counts.k, counts.values.dtype.itemsize, limit,
                            f"the {limit / 2**30:.1f} GiB (half of this machine's memory) it may take")
    return counts.dense_matrix(limit)


def _labelled_matrix(
    counts: ConfusionCounts, true_labels: np.ndarray, labels: Any, exact: bool = False
) -> np.ndarray:
    """A writable copy of the table over ``labels`` (all present labels when None), with
    scikit-learn's checks on ``labels``. ``exact``: of the formulas' table (``counts.table``)."""
    if labels is None:
        if isinstance(counts, PairCounts):
            return _dense_of_pairs(counts)
        return (counts.table if exact else counts.matrix).copy()
    lab = np.asarray(labels)
    if lab.size == 0:
        raise ValueError("'labels' should contain at least one label.")
    if lab.ndim != 1:
        raise ValueError(f"'labels' must be 1-D, got shape {lab.shape}.")
    if not encode_hits(lab, true_labels):
        raise ValueError(
            f"At least one label specified must be in y_true: labels={_preview(lab)}, "
            f"y_true has {_preview(true_labels)}."
        )
    return _table_at(counts, lab, exact)


def _table_at(counts: ConfusionCounts, labels: np.ndarray, exact: bool = False) -> np.ndarray:
    """The table over ``labels`` (unseen labels give zero rows/columns). A label given more than
    once is counted in its last row/column only, as scikit-learn does."""
    if isinstance(counts, PairCounts):
        return _dense_of_pairs(counts.reindex(labels))
    idx = np.array(counts.positions(labels), dtype=np.intp, copy=True)  # may alias ``labels``
    seen: set[int] = set()
    for i in range(idx.shape[0] - 1, -1, -1):
        if idx[i] in seen:
            idx[i] = -1
        seen.add(int(idx[i]))
    k = counts.labels.shape[0]
    source = counts.table if exact else counts.matrix
    padded = np.zeros((k + 1, k + 1), dtype=source.dtype)
    padded[:-1, :-1] = source
    return padded[np.ix_(idx, idx)]  # index -1 is the zero padding row/column


def _warn_single_label(stacklevel: int) -> None:
    warnings.warn(
        "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix to "
        "have the correct shape, use the 'labels' parameter to pass all known labels.",
        UserWarning,
        stacklevel=stacklevel,
    )


def _preview(values: np.ndarray, limit: int = 8) -> str:
    """Short text of a label array: the first ``limit`` labels and how many more."""
    head = values[:limit].tolist()
    more = values.shape[0] - len(head)
    return f"{head!r}" + (f" (and {more} more)" if more > 0 else "")


def encode_hits(labels: np.ndarray, present: np.ndarray) -> bool:
    """Whether any of ``labels`` is among ``present``."""
    from ..labels import encode

    return bool((encode(labels, present) >= 0).any())


def multilabel_confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
) -> np.ndarray:
    """One-vs-rest 2x2 tables ``[[tn, fp], [fn, tp]]`` per label (or per sample).

    >>> multilabel_confusion_matrix(["cat", "ant", "cat"], ["ant", "ant", "cat"]).tolist()
    [[[1, 1], [0, 1]], [[1, 0], [1, 1]]]
    """
    _check_bool(samplewise, "samplewise")
    kind, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    if kind != "multilabel-indicator":
        if samplewise:
            raise ValueError(
                "Samplewise metrics are not available outside of multilabel classification."
            )
        lab = counts.labels if labels is None else np.asarray(labels)
        return _ovr_tables(counts, lab, sample_weight is not None, exact=False)
    average = "samples" if samplewise else None
    c = _multilabel_setwise(y_true, y_pred, counts, labels, average, sample_weight)
    return np.stack([c.tn, c.fp, c.fn, c.tp], axis=-1).reshape(-1, 2, 2)


# --------------------------------------------------------------------------------------------
# accuracy family
# --------------------------------------------------------------------------------------------
def _weighted_total(counts: Any, exact: bool = True) -> Any:
    """Total weight: of the formulas' table (``exact``), else as the user sees it."""
    if isinstance(counts, PairCounts):
        return (counts.for_formulas()[0] if exact else counts).total
    if isinstance(counts, MultilabelCounts):
        w = counts.sample_weight
        return counts.per_sample.shape[0] if w is None else w.sum()
    return (counts.table if exact else counts.matrix).sum()


def _correct(counts: Any, exact: bool = True) -> Any:
    if isinstance(counts, MultilabelCounts):
        hit = (counts.per_sample[:, 1] + counts.per_sample[:, 2]) == 0
        w = counts.sample_weight
        if w is not None and w.dtype.kind in "iu" and is_big(w):
            return sum(w[hit].tolist())  # exact Python int
        return hit.sum() if w is None else np.dot(hit, w)
    return _trace(counts, exact)


def accuracy_score(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Fraction (or count, normalize=False) of exactly correct predictions; subset accuracy for multilabel.

    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3])
    0.5
    """
    _check_bool(normalize, "normalize")
    _, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    if not normalize:
        return float(_correct(counts, exact=False))
    correct = _correct(counts)
    total = _weighted_total(counts)
    if total == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return _div(correct, total)


def zero_one_loss(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Fraction (or count) of misclassified samples.

    >>> zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    """
    _check_bool(normalize, "normalize")
    _, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    if not normalize:
        return float(_weighted_total(counts, exact=False) - _correct(counts, exact=False))
    total = _weighted_total(counts)
    correct = _correct(counts)
    if total == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    if isinstance(total, int) or is_big(np.asarray(total), np.asarray(correct)):
        return exact_div(total - correct, total)
    return float(1 - correct / total)


def error_rate(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Misclassification rate, 1 - accuracy (subset error for multilabel).

    >>> error_rate([0, 1, 1, 0], [0, 1, 0, 0])
    0.25
    """
    return zero_one_loss(y_true, y_pred, normalize=True, sample_weight=sample_weight)


def hamming_loss(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Fraction of wrong labels (per label for multilabel).

    >>> hamming_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    """
    kind, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    if isinstance(counts, MultilabelCounts):
        wrong = counts.tables[:, 0, 1].sum() + counts.tables[:, 1, 0].sum()
        return float(wrong / (counts.n_labels * _weighted_total(counts)))
    total = _weighted_total(counts)
    if total == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return _div(total - _trace(counts, exact=True), total)


def _balanced_accuracy(table: Any, adjusted: bool) -> float:
    """Balanced accuracy of pair-coded counts (from their margins) or of a dense table."""
    if isinstance(table, PairCounts):
        return margins.balanced_accuracy(table, adjusted=adjusted)
    return float(measures.balanced_accuracy(table, adjusted=adjusted))


def balanced_accuracy_score(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, adjusted: bool = False
) -> float:
    """Mean per-class recall (classes present in y_true); chance-adjusted on request.

    >>> balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1])
    0.625
    """
    _check_bool(adjusted, "adjusted")
    kind, counts, true_labels, _ = build_counts(y_true, y_pred, sample_weight)
    counts = _binary_1d(kind, counts)
    if counts.labels.shape[0] == 1:
        _warn_single_label(stacklevel=3)
    table = counts if isinstance(counts, PairCounts) else counts.table
    rows = margins.margins(table).rows if isinstance(counts, PairCounts) else table.sum(axis=1)
    if (rows == 0).any():
        warnings.warn("y_pred contains classes not in y_true", UserWarning, stacklevel=2)
    score = _balanced_accuracy(table, adjusted)
    if np.isnan(score):
        # One class in y_true: chance is 1 and the rescaling divides by zero. scikit-learn lets
        # IEEE arithmetic decide: -inf below a perfect score, nan at it.
        raw = _balanced_accuracy(table, False)
        score = float("nan") if raw >= 1.0 else float("-inf")
        warnings.warn(
            "Adjusted balanced accuracy is undefined with a single class in y_true (chance "
            f"level is 1) and is set to {score}.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    return score


def matthews_corrcoef(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Matthews correlation coefficient (multi-class generalisation of Gorodkin).

    >>> round(matthews_corrcoef([+1, +1, +1, -1], [+1, -1, +1, +1]), 4)
    -0.3333
    """
    kind, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    counts = _binary_1d(kind, counts)
    if counts.labels.shape[0] == 1:
        _warn_single_label(stacklevel=3)
    if isinstance(counts, PairCounts):
        return margins.matthews_corrcoef(counts)
    return float(measures.matthews_corrcoef(counts.table))


def cohen_kappa_score(
    y1: Any,
    y2: Any,
    *,
    labels: Any = None,
    weights: Literal["linear", "quadratic"] | None = None,
    sample_weight: Any = None,
    replace_undefined_by: float = np.nan,
) -> float:
    """Cohen's kappa between two annotators (optionally linear or quadratic weighted).

    >>> cohen_kappa_score(["negative", "positive", "negative", "neutral", "positive"],
    ...                   ["negative", "positive", "negative", "neutral", "negative"])
    0.6875
    """
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}.")
    if not isinstance(replace_undefined_by, Real) or not (
        np.isnan(replace_undefined_by) or -1.0 <= replace_undefined_by <= 1.0
    ):
        raise ValueError(
            f"replace_undefined_by must be in [-1, 1] or np.nan, got {replace_undefined_by!r}."
        )
    try:
        cm = _kappa_table(y1, y2, labels, sample_weight)
    except ValueError as exc:
        if "At least one label specified must be in y_true" in str(exc):
            raise ValueError(
                "At least one label in `labels` must be present in `y1` (even though "
                "`cohen_kappa_score` is otherwise agnostic to the order of `y1` and `y2`)."
            ) from None
        raise
    if isinstance(cm, PairCounts):
        kappa = margins.cohen_kappa(cm, weights)
    else:
        kappa = float(measures.cohen_kappa(cm, weights))
    if np.isnan(kappa):
        warnings.warn(
            "`cohen_kappa_score` is undefined for these labels (no agreement expected by chance "
            "can be computed) and set to the value of the `replace_undefined_by` param, "
            f"which is {replace_undefined_by}.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return replace_undefined_by
    return kappa


def _kappa_table(y1: Any, y2: Any, labels: Any, sample_weight: Any) -> Any:
    """confusion_matrix(y1, y2, labels=...), kept pair-coded for many classes."""
    kind, counts, true_labels, _ = build_counts(y1, y2, sample_weight)
    counts = _binary_1d(kind, counts)
    if not isinstance(counts, PairCounts):  # the formulas' table (exact sums of extreme float weights)
        cm = _labelled_matrix(counts, true_labels, labels, exact=True)
        if cm.shape == (1, 1):
            _warn_single_label(stacklevel=3)
        return cm
    if labels is not None:
        lab = np.asarray(labels)
        if lab.size == 0:
            raise ValueError("'labels' should contain at least one label.")
        if not encode_hits(lab, true_labels):
            raise ValueError("At least one label specified must be in y_true.")
        counts = counts.reindex(lab)
    if counts.k == 1:
        _warn_single_label(stacklevel=3)
    return counts


# --------------------------------------------------------------------------------------------
# precision, recall, F, and the other set-wise rates
# --------------------------------------------------------------------------------------------
def precision_recall_fscore_support(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = None,
    warn_for: tuple = ("precision", "recall", "f-score"),
    sample_weight: Any = None,
    zero_division: Any = "warn",
):
    """Precision, recall, F-beta and support, per label or averaged.

    >>> p, r, f, s = precision_recall_fscore_support([0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 2, 2, 2, 1])
    >>> p.round(2).tolist(), s.tolist()
    ([1.0, 0.5, 0.67], [2, 2, 3])
    """
    _zero_division_value(zero_division)
    if not isinstance(warn_for, (list, tuple, set)):
        raise TypeError(f"warn_for must be a list, tuple or set of metric names, got {warn_for!r}.")
    if not isinstance(beta, Real) or beta < 0 or np.isnan(beta):
        raise ValueError(f"beta should be >= 0 in the F-beta score, got {beta!r}.")
    c = _setwise_counts(
        y_true, y_pred, average=average, labels=labels, pos_label=pos_label, sample_weight=sample_weight
    )
    return _prf_from_counts(c, beta, warn_for, zero_division)


def _prf_from_counts(c: _SetwiseCounts, beta: float, warn_for, zero_division):
    support = c.support
    per = c.summed() if c.average == "micro" else c
    common = dict(average=c.average)
    precision = _fill_undefined(
        measures.precision(per.tp, per.fp), zero_division, metric="Precision",
        modifier="predicted", warn="precision" in warn_for, **common,
    )
    recall = _fill_undefined(
        measures.recall(per.tp, per.fn), zero_division, metric="Recall", modifier="true",
        warn="recall" in warn_for, **common,
    )
    if np.isposinf(beta):
        f = recall
    elif beta == 0:
        f = precision
    else:
        f = _fill_undefined(
            measures.fbeta(per.tp, per.fp, per.fn, beta), zero_division, metric="F-score",
            modifier="true nor predicted", warn="f-score" in warn_for, **common,
        )
    if c.average is None:
        return precision, recall, f, support
    return float(_reduce(precision, per)), float(_reduce(recall, per)), float(_reduce(f, per)), None


def _prf_one(which: int, warn_name: str, y_true, y_pred, *, beta=1.0, labels, pos_label, average, sample_weight, zero_division):
    result = precision_recall_fscore_support(
        y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label, average=average,
        warn_for=(warn_name,), sample_weight=sample_weight, zero_division=zero_division,
    )
    return result[which]


def precision_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Precision tp / (tp + fp).

    >>> precision_score([0, 1, 1, 0], [1, 1, 1, 0])
    0.6666666666666666
    """
    return _prf_one(0, "precision", y_true, y_pred, labels=labels, pos_label=pos_label,
                    average=average, sample_weight=sample_weight, zero_division=zero_division)


def recall_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Recall (sensitivity, true positive rate) tp / (tp + fn).

    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _prf_one(1, "recall", y_true, y_pred, labels=labels, pos_label=pos_label,
                    average=average, sample_weight=sample_weight, zero_division=zero_division)


def fbeta_score(
    y_true: Any, y_pred: Any, *, beta: float, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """F-beta: weighted harmonic mean of precision and recall (beta > 1 favours recall).

    >>> round(fbeta_score([0, 1, 1, 0], [1, 1, 0, 0], beta=2), 4)
    0.5
    """
    return _prf_one(2, "f-score", y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label,
                    average=average, sample_weight=sample_weight, zero_division=zero_division)


def f1_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """F1: harmonic mean of precision and recall.

    >>> f1_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return fbeta_score(y_true, y_pred, beta=1.0, labels=labels, pos_label=pos_label,
                       average=average, sample_weight=sample_weight, zero_division=zero_division)


def specificity_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Specificity (true negative rate) tn / (tn + fp), with precision_score's arguments.

    The 'weighted' average weights each class by its support, as scikit-learn's averages do.

    >>> specificity_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _setwise_rate("specificity", y_true, y_pred, labels=labels, pos_label=pos_label,
                         average=average, sample_weight=sample_weight, zero_division=zero_division)


def npv_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Negative predictive value tn / (tn + fn), with precision_score's arguments.

    >>> npv_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _setwise_rate("npv", y_true, y_pred, labels=labels, pos_label=pos_label,
                         average=average, sample_weight=sample_weight, zero_division=zero_division)


def fallout_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Fall-out (false positive rate) fp / (fp + tn), with precision_score's arguments.

    >>> fallout_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _setwise_rate("fallout", y_true, y_pred, labels=labels, pos_label=pos_label,
                         average=average, sample_weight=sample_weight, zero_division=zero_division)


def jaccard_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
):
    """Jaccard similarity tp / (tp + fp + fn).

    >>> jaccard_score([0, 1, 2, 2], [0, 2, 1, 2], average=None).round(3).tolist()
    [1.0, 0.0, 0.333]
    """
    if np.isnan(_zero_division_value(zero_division)):
        raise ValueError(f"jaccard_score's zero_division must be 'warn', 0 or 1, got {zero_division!r}.")
    c = _setwise_counts(
        y_true, y_pred, average=average, labels=labels, pos_label=pos_label, sample_weight=sample_weight
    )
    values = _rate("jaccard", c, zero_division)
    if average is None:
        return values
    if average == "weighted" and not np.any(c.support):
        return float(measures.average(_rate("jaccard", c.with_average(None), zero_division, warn=False)))
    return float(values)


def class_likelihood_ratios(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    replace_undefined_by: Any = np.nan,
) -> tuple[float, float]:
    """Positive and negative likelihood ratios (LR+, LR-) of a binary classifier.

    >>> class_likelihood_ratios([0, 1, 0, 1, 0], [1, 1, 0, 0, 0])
    (1.5, 0.75)
    """
    kind, counts, true_labels, _ = build_counts(y_true, y_pred, sample_weight)
    if kind != "binary":
        raise ValueError(
            "class_likelihood_ratios only supports binary classification problems, got targets "
            f"of type: {kind}"
        )
    lr_pos_fill, lr_neg_fill = _check_lr_replacement(replace_undefined_by)
    cm = _labelled_matrix(counts, true_labels, labels, exact=True)
    if cm.shape != (2, 2):
        raise ValueError(f"class_likelihood_ratios needs exactly 2 labels, got {cm.shape[0]}.")
    if is_big(cm):  # exact counts: each ratio correctly rounded
        tn, fp, fn, tp = (int(x) for x in cm.ravel().tolist())
        pos_, neg_ = tp + fn, tn + fp
        lr_pos = exact_div(tp * neg_, fp * pos_) if pos_ else float("nan")
        lr_neg = exact_div(fn * neg_, tn * pos_) if pos_ else float("nan")
    else:
        tn, fp, fn, tp = (float(x) for x in cm.ravel())
        lr_pos, lr_neg = (float(x) for x in measures.likelihood_ratios(tp, fp, fn, tn))
    if tp + fn == 0:
        warnings.warn(
            "No samples of the positive class are present in `y_true`. "
            "`positive_likelihood_ratio` and `negative_likelihood_ratio` are both set to "
            "`np.nan`. Use the `replace_undefined_by` param to control this behavior.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    if fp == 0:
        start = (
            "No samples were predicted for the positive class and `positive_likelihood_ratio` is "
            if tp == 0
            else "`positive_likelihood_ratio` is ill-defined and "
        )
        warnings.warn(start + "set to `np.nan`. Use the `replace_undefined_by` param to control "
                      "this behavior.", UndefinedMetricWarning, stacklevel=2)
        lr_pos = lr_pos_fill
    if tn == 0:
        warnings.warn(
            "`negative_likelihood_ratio` is ill-defined and set to `np.nan`. Use the "
            "`replace_undefined_by` param to control this behavior.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        lr_neg = lr_neg_fill
    return float(lr_pos), float(lr_neg)


def _check_lr_replacement(replace: Any) -> tuple[float, float]:
    if isinstance(replace, dict):
        if "LR+" not in replace or "LR-" not in replace:
            raise ValueError("replace_undefined_by must be {'LR+': value, 'LR-': value}.")
        pos, neg = replace["LR+"], replace["LR-"]
        ok_pos = isinstance(pos, Real) and (np.isnan(pos) or pos >= 1.0)
        ok_neg = isinstance(neg, Real) and (np.isnan(neg) or 0.0 <= neg <= 1.0)
        if not (ok_pos and ok_neg):
            raise ValueError(
                "The dictionary passed as `replace_undefined_by` needs LR+ in [1, inf] or nan and "
                f"LR- in [0, 1] or nan; got {replace}."
            )
        return float(pos), float(neg)
    if isinstance(replace, Real) and replace == 1.0:
        return 1.0, 1.0
    if isinstance(replace, Real) and np.isnan(replace):
        return np.nan, np.nan
    raise ValueError(f"replace_undefined_by must be np.nan, 1.0 or a dict, got {replace!r}.")


# --------------------------------------------------------------------------------------------
# classification report
# --------------------------------------------------------------------------------------------
def classification_report(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    target_names: Any = None,
    sample_weight: Any = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: Any = "warn",
) -> str | dict:
    """Text (or dict) report of precision, recall, F1 and support per class, with averages.

    >>> print(classification_report([0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 2, 2, 2, 1]))  # doctest: +NORMALIZE_WHITESPACE
                  precision    recall  f1-score   support
    <BLANKLINE>
               0       1.00      1.00      1.00         2
               1       0.50      0.50      0.50         2
               2       0.67      0.67      0.67         3
    <BLANKLINE>
        accuracy                           0.71         7
       macro avg       0.72      0.72      0.72         7
    weighted avg       0.71      0.71      0.71         7
    <BLANKLINE>
    """
    _zero_division_value(zero_division)
    _check_bool(output_dict, "output_dict")
    if not isinstance(digits, int) or digits < 0:
        raise ValueError(f"digits must be an integer >= 0, got {digits!r}.")
    kind, counts, true_labels, pred_labels = build_counts(y_true, y_pred, sample_weight)
    present = np.arange(counts.n_labels) if kind == "multilabel-indicator" else counts.labels
    labels_given = labels is not None
    labels = present if labels is None else np.asarray(labels)
    micro_is_accuracy = kind in ("binary", "multiclass") and (
        not labels_given or set(labels.tolist()) >= set(present.tolist())
    )
    if target_names is not None and len(labels) != len(target_names):
        if labels_given:
            warnings.warn(
                f"labels size, {len(labels)}, does not match size of target_names, "
                f"{len(target_names)}",
                UserWarning,
                stacklevel=2,
            )
        else:
            raise ValueError(
                f"Number of classes, {len(labels)}, does not match size of target_names, "
                f"{len(target_names)}. Try specifying the labels parameter"
            )
    if target_names is None:
        target_names = [f"{label}" for label in labels.tolist()]
    if kind == "multilabel-indicator":
        base = _multilabel_setwise(y_true, y_pred, counts, labels, None, sample_weight)
        averages = ("micro", "macro", "weighted", "samples")
    else:
        tables = _ovr_tables(counts, labels, sample_weight is not None)
        base = _SetwiseCounts(kind, tables[:, 1, 1], tables[:, 0, 1], tables[:, 1, 0], tables[:, 0, 0], None, None,
                              _unit(counts))
        averages = ("micro", "macro", "weighted")
    warn_for = ("precision", "recall", "f-score")
    p, r, f1, support = _prf_from_counts(base, 1.0, warn_for, zero_division)
    headers = ["precision", "recall", "f1-score", "support"]
    summary: list[tuple[str, list]] = []
    total_support = np.sum(support)
    for average in averages:
        if average == "samples":
            c = _multilabel_setwise(y_true, y_pred, counts, labels, "samples", sample_weight)
        else:
            c = base.with_average(average)
        ap, ar, af, _ = _prf_from_counts(c, 1.0, warn_for, zero_division)
        heading = "accuracy" if (average == "micro" and micro_is_accuracy) else f"{average} avg"
        summary.append((heading, [ap, ar, af, total_support]))
    if output_dict:
        report: dict = {}
        for name, row in zip(target_names, zip(p, r, f1, support)):
            report[name] = dict(zip(headers, [float(v) for v in row]))
        for heading, row in summary:
            report[heading] = dict(zip(headers, [float(v) for v in row]))
        if "accuracy" in report:
            report["accuracy"] = report["accuracy"]["precision"]
        return report
    return _format_report(target_names, p, r, f1, support, summary, digits, headers)


def _format_report(target_names, p, r, f1, support, summary, digits, headers) -> str:
    width = max(max(len(str(n)) for n in target_names), len("weighted avg"), digits)
    head_fmt = "{:>{width}s} " + " {:>9}" * len(headers)
    lines = [head_fmt.format("", *headers, width=width), "\n\n"]
    row_fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    for row in zip(target_names, p, r, f1, support):
        lines.append(row_fmt.format(*row, width=width, digits=digits))
    lines.append("\n")
    for heading, (ap, ar, af, s) in summary:
        if heading == "accuracy":
            fmt = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n"
            lines.append(fmt.format(heading, "", "", af, s, width=width, digits=digits))
        else:
            lines.append(row_fmt.format(heading, ap, ar, af, s, width=width, digits=digits))
    return "".join(lines)
