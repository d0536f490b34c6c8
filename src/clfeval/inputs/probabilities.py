"""Checked inputs of probabilistic measures: scores read as a float array, 1-D class labels,
probabilities confined to [0, 1], and the class list with each sample's code.

The scikit-learn compatible functions (:mod:`clfeval.metrics.probabilistic`) and the calibration
statistics (:mod:`clfeval.calibration`) read their inputs through these, so both give the same
messages for the same mistakes.

>>> import numpy as np
>>> kind, classes, codes = classes_and_codes(np.array(["b", "a", "b"]), None, strict_order=False)
>>> kind, classes.tolist(), codes.tolist()
('binary', ['a', 'b'], [1, 0, 1])
>>> check_unit_interval(np.array([0.2, 1.5]), "y_prob")
Traceback (most recent call last):
...
ValueError: y_prob contains values greater than 1 (e.g. 1.5 at position 1); it must hold probabilities in [0, 1], such as predict_proba output. For unbounded scores, apply a sigmoid/softmax or calibrate first.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from clfeval.inputs.labels import as_1d, as_array, as_score_array, encode, target_kind, union_labels, unique_sorted

__all__ = ["read_scores", "read_labels_1d", "check_unit_interval", "classes_and_codes"]


def read_scores(y: Any, name: str) -> np.ndarray:
    """Non-empty finite float scores; a single column becomes 1-D."""
    arr = as_score_array(y, name)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty (0 samples); at least 1 sample is required.")
    if arr.ndim == 2 and arr.shape[1] == 0:
        raise ValueError(f"{name} has 0 columns; it needs one column per class.")
    return arr


def read_labels_1d(y_true: Any) -> np.ndarray:
    return as_1d(
        as_array(y_true, "y_true"),
        "y_true must be a 1-D array of class labels; multilabel (indicator) targets are not "
        "supported here",
    )


def check_unit_interval(proba: np.ndarray, name: str) -> None:
    hi, lo = proba.max(), proba.min()
    for bad, value, side in ((hi > 1, hi, "greater than 1"), (lo < 0, lo, "less than 0")):
        if bad:
            where = np.argwhere(proba == value)[0]
            pos = int(where[0]) if where.size == 1 else tuple(int(i) for i in where)
            raise ValueError(
                f"{name} contains values {side} (e.g. {float(value)!r} at position {pos}); "
                "it must hold probabilities in [0, 1], such as predict_proba output. "
                "For unbounded scores, apply a sigmoid/softmax or calibrate first."
            )


def classes_and_codes(
    yt: np.ndarray, labels: Any, *, strict_order: bool
) -> tuple[str, np.ndarray, np.ndarray]:
    """Target kind of ``yt``, the class list (from ``labels`` or ``yt``) and the codes of ``yt``.

    ``labels`` must be unique; unsorted labels are an error when ``strict_order`` (top-k), else
    a UserWarning, and the sorted order is used (the columns are read in sorted order).
    """
    kind, present = target_kind(yt, "y_true")
    if kind in ("continuous", "unknown"):
        what = "continuous values" if kind == "continuous" else "values of an unknown type"
        example = (yt[yt != np.floor(yt)] if kind == "continuous" else yt)[:1].tolist()[0]
        raise ValueError(
            f"y_true contains {what} (e.g. {example!r}); it must hold class labels "
            "(integers, strings or booleans)."
        )
    if labels is None:
        classes = present
    else:
        given = as_array(labels, "labels")
        if given.ndim != 1:
            raise ValueError(f"labels must be a 1-D list of class labels, got shape {given.shape}.")
        classes = unique_sorted(given, "labels")
        if classes.size != given.size:
            values, counts = np.unique(given, return_counts=True)
            raise ValueError(
                f"labels must be unique; {values[counts > 1].tolist()} appear more than once."
            )
        if not np.array_equal(classes, given):
            if strict_order:
                raise ValueError(
                    f"labels must be sorted, as they index the columns of y_score in sorted "
                    f"order: pass labels={classes.tolist()} and order the columns to match."
                )
            warnings.warn(
                f"Labels passed were {given.tolist()}, but the columns of y_proba are read in "
                f"sorted label order. Pass labels={classes.tolist()} and make sure the "
                "columns of y_proba follow that order.",
                UserWarning,
                stacklevel=4,
            )
        union_labels(present, classes, names=("y_true", "labels"))
        missing = present[encode(present, classes) < 0]
        if missing.size:
            raise ValueError(
                f"y_true contains labels {missing.tolist()} that are not in labels "
                f"{classes.tolist()}; add them to labels."
            )
    return kind, classes, encode(yt, classes)
