"""The options of scikit-learn's label metrics, checked as scikit-learn checks them and with its messages:
``zero_division``, boolean flags, ``pos_label``, ``average``, and which labels a set-wise score reads.

>>> check_average("macro")
>>> select_binary_labels("binary", np.array([0, 1]), "binary", None, 1)
[1]
>>> check_bool(1, "normalize")
Traceback (most recent call last):
...
TypeError: normalize must be True or False, got 1.
"""

from __future__ import annotations

import warnings
from numbers import Real
from typing import Any, Literal

import numpy as np

__all__ = ["AVERAGES", "ZeroDivision", "zero_division_value", "check_bool", "check_pos_label", "check_average",
           "select_binary_labels", "multilabel_columns"]

#: the averages of the set-wise scores (besides 'binary')
AVERAGES = (None, "micro", "macro", "weighted", "samples")
ZeroDivision = Literal["warn"] | float


def zero_division_value(zero_division: Any) -> float:
    """The value of an undefined (0/0) score: ``zero_division`` checked ('warn' is 0.0).

    >>> zero_division_value("warn"), zero_division_value(1)
    (0.0, 1.0)
    """
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return 0.0
    elif isinstance(zero_division, Real):
        if np.isnan(zero_division) or zero_division in (0, 1):
            return float(zero_division)
    raise ValueError(
        f"zero_division must be 'warn', 0.0, 1.0 or np.nan, got {zero_division!r}."
    )


def check_bool(value: Any, name: str) -> None:
    """Flags are True or False (numpy booleans too), as in scikit-learn; 1, 'yes', None are not."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}.")


def check_pos_label(pos_label: Any) -> None:
    """``pos_label`` is one label (a number, string or bool) or None; a list is a TypeError."""
    if pos_label is not None and not isinstance(pos_label, (Real, str, bool, np.bool_)):
        raise TypeError(
            f"pos_label must be a single label (a number, string or bool), got {pos_label!r}; "
            "use labels=[...] to choose several classes."
        )


def check_average(average: Any) -> None:
    """``average`` is one of :data:`AVERAGES` or 'binary'."""
    if average not in AVERAGES and average != "binary":
        raise ValueError(
            f"average has to be one of {AVERAGES + ('binary',)}, got {average!r}."
        )


def select_binary_labels(kind: str, present: np.ndarray, average: Any, labels: Any, pos_label: Any):
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
        options = [o for o in AVERAGES if not (kind == "multiclass" and o == "samples")]
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


def multilabel_columns(n_labels: int, labels: Any) -> np.ndarray:
    """``labels`` of a multilabel target as column indices, each checked to be in [0, n_labels).

    >>> multilabel_columns(3, [2, 0]).tolist()
    [2, 0]
    """
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
