"""Input coercion, target-type detection, label sets and label encoding.

Everything that turns user input (lists, numpy, pandas, polars, pyarrow) into clean numpy arrays
lives here, so that the statistics and formulas never see anything else.

>>> kind, classes = target_kind(as_array([0, 1, 1, 0], "y_true"), "y_true")
>>> kind, classes.tolist()
('binary', [0, 1])
"""

from __future__ import annotations

import numbers
from typing import Any, Sequence

import numpy as np

from clfeval.exceptions import ValuesError

__all__ = [
    "as_array",
    "as_score_array",
    "as_1d",
    "check_consistent_length",
    "check_sample_weight",
    "check_finite_labels",
    "all_zero_weights_error",
    "target_kind",
    "unique_sorted",
    "union_labels",
    "encode",
    "check_classification_targets",
    "ClassificationTargets",
]

# Integer label ranges up to this span are counted with bincount instead of sorted.
_DENSE_SPAN = 1 << 20


def _first_position(mask: np.ndarray) -> str:
    """Human-readable position of the first True in a boolean mask (row, or (row, col))."""
    idx = np.argwhere(mask)[0]
    return str(int(idx[0])) if idx.size == 1 else str(tuple(int(i) for i in idx))


def _first_where(mask: np.ndarray) -> dict[str, Any]:
    """The first True of a boolean mask as ValuesError's ``position`` (row) and ``column``."""
    idx = np.argwhere(mask)[0]
    return {"position": int(idx[0]), "column": int(idx[1]) if idx.size > 1 else None}


def _missing_error(name: str, mask: np.ndarray) -> ValueError:
    return ValuesError(
        f"{name} contains {int(np.count_nonzero(mask))} missing value(s) (Input {name} contains NaN, None or "
        f"null); the first is at position {_first_position(mask)}. Drop or impute them before evaluating.",
        argument=name, kind="missing", count=int(np.count_nonzero(mask)), **_first_where(mask),
    )


def _from_pandas(x: Any, name: str) -> np.ndarray:
    isna = x.isna()
    na = np.asarray(isna.to_numpy() if hasattr(isna, "to_numpy") else isna, dtype=bool)
    if na.any():
        raise _missing_error(name, na)
    dtype = x.dtypes.iloc[0] if getattr(x, "ndim", 1) == 2 else x.dtype
    if getattr(x, "ndim", 1) == 1 and str(dtype) == "category":
        categories = np.asarray(x.cat.categories)
        return categories[np.asarray(x.cat.codes)]
    numpy_dtype = getattr(dtype, "numpy_dtype", None)  # nullable Int64 / boolean / Float64
    if numpy_dtype is not None and getattr(x, "ndim", 1) == 1:
        return x.to_numpy(dtype=numpy_dtype)
    if getattr(x, "ndim", 1) == 2 and len(x.columns):
        kinds = [getattr(d, "numpy_dtype", d) for d in x.dtypes]
        if all(isinstance(d, np.dtype) and d.kind in "biuf" for d in kinds):
            return x.to_numpy(dtype=np.result_type(*kinds))  # nullable columns, NA-free
    if str(dtype).startswith("string"):
        return x.to_numpy(dtype=object)
    return x.to_numpy()


def _from_polars(x: Any, name: str) -> np.ndarray:
    if hasattr(x, "iter_columns"):  # DataFrame: columns stacked side by side
        if x.width == 0:
            return np.empty((x.height, 0))
        nulls = np.column_stack([np.asarray(s.is_null().to_numpy(), bool) for s in x.iter_columns()])
        if nulls.any():
            raise _missing_error(name, nulls)
        return np.column_stack([_from_polars(s, name) for s in x.iter_columns()])
    if x.null_count() > 0:
        raise _missing_error(name, np.asarray(x.is_null().to_numpy(), dtype=bool))
    if str(x.dtype).startswith(("Categorical", "Enum")):
        x = x.cast(str)
    return x.to_numpy()


def _from_arrow(x: Any, name: str) -> np.ndarray:
    if x.null_count > 0:
        raise _missing_error(name, np.asarray(x.is_null().to_numpy(zero_copy_only=False), dtype=bool))
    if str(x.type).startswith("dictionary"):
        x = x.cast(x.type.value_type)
    return x.to_numpy(zero_copy_only=False)


def as_array(x: Any, name: str, *, nan_checked: bool = False) -> np.ndarray:
    """Convert list/numpy/pandas/polars/pyarrow input to a numpy array, rejecting missing values.

    ``nan_checked``: the caller has seen that a float array holds no NaN (no second look).

    >>> as_array([1, 2, 3], "y").tolist()
    [1, 2, 3]
    """
    if x is None:
        raise TypeError(f"{name} is None; pass an array-like of labels or scores.")
    module = type(x).__module__
    nulls_checked = False  # a dataframe library has already refused its missing values
    if isinstance(x, np.ndarray):
        arr = x
    elif module.startswith("pandas"):
        arr, nulls_checked = _from_pandas(x, name), True
    elif module.startswith("polars"):
        # a polars Object column holds Python objects: a float NaN there is not null
        dtypes = x.dtypes if hasattr(x, "iter_columns") else [x.dtype]
        arr, nulls_checked = _from_polars(x, name), not any(str(d) == "Object" for d in dtypes)
    elif module.startswith("pyarrow"):
        arr, nulls_checked = _from_arrow(x, name), True
    elif hasattr(x, "toarray") and module.startswith("scipy.sparse"):
        arr = x.toarray()
    elif isinstance(x, (str, bytes)) or np.isscalar(x):
        raise TypeError(f"{name} must be an array-like of samples, got a scalar {x!r}.")
    else:
        try:
            arr = np.asarray(x)
        except ValueError as exc:  # ragged nested lists
            raise ValueError(f"{name} could not be read as an array: {exc}") from None
    if arr.dtype.kind == "O":
        if not nulls_checked:  # None / NaN among Python objects: one pass in Python
            missing = np.fromiter(
                (v is None or (isinstance(v, float) and v != v) for v in arr.ravel()),
                dtype=bool,
                count=arr.size,
            ).reshape(arr.shape)
            if missing.any():
                raise _missing_error(name, missing)
        if arr.size and all(isinstance(v, (bool, np.bool_)) for v in arr.ravel()):
            arr = arr.astype(bool)
    elif arr.dtype.kind in "fc" and arr.size and not nan_checked and _may_hold_nan(arr):
        bad = np.isnan(arr)
        if bad.any():
            raise _missing_error(name, bad)
    return arr


def _may_hold_nan(arr: np.ndarray) -> bool:
    """False when a float array surely holds no NaN: its minimum (a NaN propagates through it) is
    not NaN; one reduction, no temporary array.

    >>> _may_hold_nan(np.array([1.0, 2.0])), _may_hold_nan(np.array([1.0, np.nan]))
    (False, True)
    """
    return arr.dtype.kind == "c" or bool(np.isnan(arr.min()))


def as_score_array(x: Any, name: str = "y_score") -> np.ndarray:
    """Scores or probabilities as float64 (1-D or 2-D), rejecting NaN and infinity.

    >>> as_score_array([0.1, 0.9]).dtype
    dtype('float64')
    """
    # a float array seen finite holds no NaN either: one pass instead of two
    finite = isinstance(x, np.ndarray) and x.dtype.kind == "f" and x.ndim and bool(np.isfinite(x).all())
    arr = as_array(x, name, nan_checked=finite)
    if arr.dtype.kind not in "biuf":
        raise TypeError(
            f"{name} must be numeric scores or probabilities, got dtype {arr.dtype}; "
            "labels belong in y_true / y_pred."
        )
    if arr.dtype != np.float64 and arr.dtype != np.float32:
        arr = arr.astype(np.float64)
    if arr.ndim == 0 or arr.ndim > 2:
        raise ValueError(f"{name} must be 1-D or 2-D, got an array of shape {arr.shape}.")
    if not finite and not np.isfinite(arr).all():
        bad = ~np.isfinite(arr)
        where = _first_where(bad)
        raise ValuesError(
            f"{name} contains {int(bad.sum())} infinite value(s); the first is at position "
            f"{_first_position(bad)}. Scores must be finite.",
            argument=name, kind="infinite", count=int(bad.sum()), value=float(arr[tuple(np.argwhere(bad)[0])]),
            **where,
        )
    return arr


def as_1d(arr: np.ndarray, message: str) -> np.ndarray:
    """Squeeze an (n, 1) column to 1-D; anything else not 1-D raises ``message`` (shape appended).

    >>> as_1d(np.array([[1], [2]]), "need 1-D").tolist()
    [1, 2]
    """
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"{message} (got shape {arr.shape}).")
    return arr


def check_consistent_length(**arrays: Any) -> int:
    """Check that all named arrays (None skipped) have the same number of samples.

    >>> check_consistent_length(y_true=[1, 2], y_pred=[2, 1])
    2
    """
    lengths = {k: len(v) for k, v in arrays.items() if v is not None}
    if len(set(lengths.values())) > 1:
        desc = ", ".join(f"{k} has {n}" for k, n in lengths.items())
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {desc}.")
    return next(iter(lengths.values()), 0)


def check_sample_weight(sample_weight: Any, n: int, *, allow_all_zero: bool = True) -> np.ndarray | None:
    """Validate sample weights: 1-D, length n, finite and non-negative (and, unless
    ``allow_all_zero``, not all zero, as scikit-learn's metrics require).

    Integer and boolean weights keep an integer dtype (exact counts); others become float64.

    >>> check_sample_weight([1, 2], 2).tolist()
    [1, 2]
    """
    if sample_weight is None:
        return None
    w = as_array(sample_weight, "sample_weight")
    if w.ndim != 1:
        w = np.squeeze(w)
        if w.ndim != 1:
            raise ValueError(f"sample_weight must be 1-D, got shape {np.shape(sample_weight)}.")
    if w.shape[0] != n:
        raise ValueError(  # scikit-learn's words (the targets' lengths, then the weights'), then ours
            f"Found input variables with inconsistent numbers of samples: [{n}, {n}, {w.shape[0]}]: "
            f"sample_weight has {w.shape[0]} samples but the targets have {n}; they must match."
        )
    if w.dtype.kind == "c":
        raise ValueError(f"Complex data not supported: sample_weight has dtype {w.dtype}; weights must be real.")
    if w.dtype.kind in "OUS":  # numbers held as objects or text: float64, as scikit-learn converts them
        try:
            w = w.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"sample_weight must be numeric, got dtype {w.dtype}.") from None
    if w.dtype.kind in "biu":
        # uint64 weights above int64's range stay uint64 (they are not negative); others int64
        if not (w.dtype == np.uint64 and w.size and w.max() > np.iinfo(np.int64).max):
            w = w.astype(np.int64)
    elif w.dtype.kind == "f":
        w = w.astype(np.float64, copy=False)
        if not np.isfinite(w).all():
            bad = ~np.isfinite(w)
            raise ValuesError(
                f"sample_weight contains {int(bad.sum())} non-finite value(s); the first is at "
                f"position {_first_position(bad)}.",
                argument="sample_weight", kind="non-finite", count=int(bad.sum()),
                value=float(w[np.argmax(bad)]), **_first_where(bad),
            )
    else:
        raise TypeError(f"sample_weight must be numeric, got dtype {w.dtype}.")
    if w.size and w.min() < 0:
        raise ValuesError(
            f"sample_weight contains negative values; the first is at position "
            f"{_first_position(w < 0)}. Weights must be >= 0.",
            argument="sample_weight", kind="negative", count=int(np.count_nonzero(w < 0)),
            value=w[np.argmax(w < 0)].item(), **_first_where(w < 0),
        )
    if not allow_all_zero and w.size and not w.any():
        raise all_zero_weights_error(w.size)
    return w


def all_zero_weights_error(n: int) -> ValueError:
    """scikit-learn's error for all-zero sample weights, with the count.

    >>> str(all_zero_weights_error(3))
    'Sample weights must contain at least one non-zero number: sample_weight is zero for all 3 samples.'
    """
    return ValueError(
        f"Sample weights must contain at least one non-zero number: sample_weight is zero for all "
        f"{n} samples."
    )


def check_finite_labels(y: np.ndarray, name: str) -> None:
    """Float labels must be finite: infinity is an error in scikit-learn's words, with where.

    >>> check_finite_labels(np.array([np.inf, 1.0]), "y_true")
    Traceback (most recent call last):
    ...
    ValueError: Input y_true contains infinity or a value too large for dtype('float64'): 1 infinite value(s), the first at position 0.
    """
    if y.dtype.kind == "f" and y.size and not np.isfinite(y).all():
        bad = np.isinf(y)
        raise ValueError(
            f"Input {name} contains infinity or a value too large for dtype({str(y.dtype)!r}): "
            f"{int(bad.sum())} infinite value(s), the first at position {_first_position(bad)}."
        )


def check_not_bytes(y: np.ndarray, name: str) -> None:
    """Refuse labels held as bytes with a TypeError, as scikit-learn's ``type_of_target`` does.

    >>> check_not_bytes(np.array([b"a", b"b"]), "y_true")
    Traceback (most recent call last):
    TypeError: Support for labels represented as bytes is not supported: y_true holds bytes (b'a'); convert the labels to str or int.
    """
    if y.size and (y.dtype.kind == "S" or (y.dtype.kind == "O" and isinstance(y.reshape(-1)[0], bytes))):
        raise TypeError(f"Support for labels represented as bytes is not supported: {name} holds bytes "
                        f"({bytes(y.reshape(-1)[0])!r}); convert the labels to str or int.")


def _check_label_types(values: np.ndarray, name: str) -> None:
    """Reject object arrays that mix strings with numbers (they have no meaningful order)."""
    if values.dtype.kind != "O" or values.size == 0:
        return
    is_str = np.fromiter((isinstance(v, str) for v in values), dtype=bool, count=values.size)
    if is_str.any() and not is_str.all():
        raise ValueError(
            f"Mix of label input types (string and number) in {name}: e.g. "
            f"{values[is_str][0]!r} and {values[~is_str][0]!r}. Use one type for all labels."
        )


def unique_sorted(y: np.ndarray, name: str = "y") -> np.ndarray:
    """Sorted distinct values of a label array; integer labels are counted, not sorted.

    >>> unique_sorted(np.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    """
    if y.size == 0:
        return y.reshape(-1)[:0]
    if y.dtype.kind in "iu":
        flat = y.reshape(-1)
        lo, hi = int(flat.min()), int(flat.max())
        if hi - lo <= 1:  # no integer lies between them: both are present (one if equal), no count needed
            return np.array([lo, hi][: hi - lo + 1], dtype=y.dtype)
        if hi - lo < max(_DENSE_SPAN, flat.size):
            shifted = flat if lo == 0 and flat.dtype.kind == "i" else flat.astype(np.intp, copy=False) - lo
            present = np.flatnonzero(np.bincount(shifted, minlength=hi - lo + 1))
            return (present + lo).astype(y.dtype)
        return np.unique(flat)
    if y.dtype.kind == "b":
        return np.unique(y.reshape(-1))
    if y.dtype.kind == "O":
        try:
            uniq = np.unique(y.reshape(-1))
        except TypeError:
            _check_label_types(y.reshape(-1), name)
            raise TypeError(f"{name} contains labels that cannot be ordered.") from None
        _check_label_types(uniq, name)
        return uniq
    return np.unique(y.reshape(-1))


def _kind_of_values(y: np.ndarray) -> str:
    """'numeric', 'string' or 'other' for a label array."""
    if y.dtype.kind in "biuf":
        return "numeric"
    if y.dtype.kind in "US":
        return "string"
    if y.dtype.kind == "O" and y.size:
        first = y.reshape(-1)[0]
        if isinstance(first, str):
            return "string"
        if isinstance(first, numbers.Number):
            return "numeric"
        return "other"
    return "numeric"


def target_kind(y: np.ndarray, name: str) -> tuple[str, np.ndarray]:
    """Classify a target array the way scikit-learn's ``type_of_target`` does.

    Returns the kind ('binary', 'multiclass', 'multilabel-indicator', 'continuous',
    'continuous-multioutput', 'multiclass-multioutput', 'unknown') and the sorted
    distinct labels (for 1-D kinds) or column indices (multilabel).

    >>> target_kind(np.array([0.2, 0.7]), "y")[0]
    'continuous'
    """
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim > 2 or y.ndim == 0:
        raise ValueError(f"{name} must be 1-D (labels) or 2-D (indicator matrix), got shape {y.shape}.")
    check_not_bytes(y, name)
    if y.dtype.kind == "O" and _kind_of_values(y) == "other":
        return "unknown", y[:0]
    check_finite_labels(y, name)
    if y.dtype.kind in "fc" and y.size:
        if y.dtype.kind == "c" or not np.array_equal(y, np.floor(y)):
            return ("continuous" if y.ndim == 1 else "continuous-multioutput"), y[:0]
    if y.ndim == 2:
        if y.shape[1] == 0:
            raise ValueError(f"{name} is a 2-D array with no columns.")
        uniq = unique_sorted(y, name)
        if y.dtype.kind in "biuf" and np.isin(uniq, [0, 1]).all():
            return "multilabel-indicator", np.arange(y.shape[1])
        return "multiclass-multioutput", uniq
    uniq = unique_sorted(y, name)
    return ("multiclass" if uniq.size > 2 else "binary"), uniq


def union_labels(*label_sets: np.ndarray, names: Sequence[str] = ()) -> np.ndarray:
    """Sorted union of label sets, refusing to mix strings and numbers.

    >>> union_labels(np.array([1, 3]), np.array([2])).tolist()
    [1, 2, 3]
    """
    kinds = {_kind_of_values(s) for s in label_sets if s.size}
    if len(kinds) > 1:
        where = f" ({' vs '.join(names)})" if names else ""
        each = [_kind_of_values(s) if s.size else "" for s in label_sets]
        text = next((n for n, k in zip(names, each) if k == "string"), "")
        raise ValuesError(
            f"Mix of label input types (string and number){where}; "
            "y_true and y_pred must use labels of the same type.",
            argument=text, kind="mixed-types", allowed=[n for n, k in zip(names, each) if k and n != text],
        )
    nonempty = [s for s in label_sets if s.size]
    if not nonempty:
        return label_sets[0]
    if len(nonempty) == 1:
        return nonempty[0]
    if all(np.array_equal(nonempty[0], s) for s in nonempty[1:]):
        return nonempty[0]
    combined = np.concatenate(nonempty)
    if combined.dtype.kind == "O":
        _check_label_types(combined, "labels")
    return np.unique(combined)


def encode(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Map each label of ``y`` to its index in ``classes`` (any order); -1 when absent
    (a string label is absent from numeric classes, and the other way round).

    >>> encode(np.array(["b", "a", "z"]), np.array(["a", "b"])).tolist()
    [1, 0, -1]
    """
    k = classes.size
    if y.size == 0:
        return np.zeros(y.shape, dtype=np.intp)
    if k == 0 or _kind_of_values(y) != _kind_of_values(classes):
        return np.full(y.shape, -1, dtype=np.intp)  # nothing to find; strings never equal numbers
    if y.dtype.kind in "biu" and classes.dtype.kind in "biuf" and k:
        cls = classes
        if cls.dtype.kind == "f":
            if not np.array_equal(cls, np.floor(cls)):
                return _encode_sorted(y, classes)
        cls = cls.astype(np.int64)
        lo = min(int(cls.min()), int(y.min()))
        hi = max(int(cls.max()), int(y.max()))
        if hi - lo < max(_DENSE_SPAN, y.size):
            if lo == 0 and k == hi + 1 and np.array_equal(cls, np.arange(k)):
                return y if y.dtype == np.intp else y.astype(np.intp)
            table = np.full(hi - lo + 1, -1, dtype=np.intp)
            table[cls - lo] = np.arange(k)
            idx = y.astype(np.intp, copy=False)  # bool would mask, small ints could wrap
            return table[idx - lo if lo else idx]
    return _encode_sorted(y, classes)


def _encode_sorted(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    order = np.argsort(classes, kind="stable")
    sorted_classes = classes[order]
    try:
        pos = np.searchsorted(sorted_classes, y)
    except TypeError:
        raise ValueError(
            "Mix of label input types (string and number) between the labels and the data."
        ) from None
    pos_clipped = np.minimum(pos, max(classes.size - 1, 0))
    found = sorted_classes[pos_clipped] == y if classes.size else np.zeros(y.shape, bool)
    return np.where(found, order[pos_clipped], -1).astype(np.intp)


class ClassificationTargets:
    """Validated (y_true, y_pred) pair with its common kind and label set.

    >>> t = check_classification_targets([0, 1, 2], [0, 2, 2])
    >>> t.kind, t.labels.tolist()
    ('multiclass', [0, 1, 2])
    """

    __slots__ = ("kind", "y_true", "y_pred", "labels", "true_labels", "pred_labels")

    def __init__(self, kind, y_true, y_pred, labels, true_labels, pred_labels):
        self.kind = kind
        self.y_true = y_true
        self.y_pred = y_pred
        self.labels = labels
        self.true_labels = true_labels
        self.pred_labels = pred_labels


def _continuous_error(name: str, y: np.ndarray, prefix: str = "") -> ValueError:
    flat = y.reshape(-1)
    frac = np.flatnonzero(flat != np.floor(flat))
    example = f" (e.g. {flat[frac[0]].item()!r} at position {int(frac[0])})" if frac.size else ""
    return ValueError(
        f"{prefix}{name} contains continuous values{example}, but classification metrics need class "
        "labels. If these are probabilities or scores, turn them into labels first (for example "
        "y_score >= 0.5, or argmax over the class columns), or use a score-based metric such as "
        "roc_auc_score or average_precision_score."
    )


def check_classification_targets(y_true: Any, y_pred: Any) -> ClassificationTargets:
    """Validate a pair of label arrays for a classification metric (sklearn's ``_check_targets``).

    Raises a clear error for continuous values (scores passed as labels), mixed kinds,
    mismatched lengths, empty input and mixed label types.
    """
    yt = as_array(y_true, "y_true")
    yp = as_array(y_pred, "y_pred")
    if yt.ndim == 0 or yp.ndim == 0:
        raise TypeError("y_true and y_pred must be array-likes of samples, not scalars.")
    check_consistent_length(y_true=yt, y_pred=yp)
    if yt.shape[0] == 0:
        raise ValueError(
            "Found empty input array (e.g., `y_true` or `y_pred`) while a minimum of 1 sample is "
            "required: y_true and y_pred have 0 samples."
        )
    kind_t, labels_t = target_kind(yt, "y_true")
    kind_p, labels_p = target_kind(yp, "y_pred")
    for kind, name, arr in ((kind_t, "y_true", yt), (kind_p, "y_pred", yp)):
        if kind in ("continuous", "continuous-multioutput"):
            mix = kind_t != kind_p  # scikit-learn's words for a mix, then what to do
            raise _continuous_error(name, arr, f"Classification metrics can't handle a mix of {kind_t} and "
                                               f"{kind_p} targets: " if mix else "")
    kinds = {kind_t, kind_p}
    if kinds == {"binary", "multiclass"}:
        kinds = {"multiclass"}
    if len(kinds) > 1:
        raise ValueError(
            f"Classification metrics can't handle a mix of {kind_t} (y_true) and {kind_p} "
            "(y_pred) targets."
        )
    kind = kinds.pop()
    if kind == "multiclass-multioutput":
        values = union_labels(labels_t, labels_p) if kind_t == kind_p else labels_t
        raise ValueError(
            f"{kind} targets are not supported by classification metrics: a 2-D target must be a "
            f"0/1 indicator matrix (multilabel), but it holds the values {values[:8].tolist()}."
        )
    if kind not in ("binary", "multiclass", "multilabel-indicator"):
        raise ValueError(f"{kind} targets are not supported by classification metrics.")
    if kind == "multilabel-indicator":
        if yt.shape[1] != yp.shape[1]:
            raise ValueError(
                f"Multilabel y_true has {yt.shape[1]} columns but y_pred has {yp.shape[1]}."
            )
        return ClassificationTargets(kind, yt, yp, labels_t, labels_t, labels_p)
    yt = yt.reshape(-1)
    yp = yp.reshape(-1)
    labels = union_labels(labels_t, labels_p, names=("y_true", "y_pred"))
    if kind == "binary" and labels.size > 2:
        kind = "multiclass"
    return ClassificationTargets(kind, yt, yp, labels, labels_t, labels_p)
