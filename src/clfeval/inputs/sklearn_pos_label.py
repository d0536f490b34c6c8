"""scikit-learn's positive-class rule for binary ranking metrics, and the label mask it selects.

Used by the drop-in ranking metrics (:mod:`clfeval.metrics.ranking`) and by DeLong's test
(:mod:`clfeval.stats.delong`), which take ``pos_label`` as scikit-learn does. (The rule of
:func:`clfeval.evaluate` is :func:`clfeval.inputs.evaluate_arguments.resolve_pos_label`.)

>>> classes = np.array([-1, 1])
>>> label_mask(np.array([1, -1, 1]), sklearn_pos_label(None, classes, "roc_curve")).tolist()
[True, False, True]
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["label_mask", "sklearn_pos_label", "CONVENTIONAL_LABELS", "has_conventional_labels"]

#: The label sets whose positive class scikit-learn takes as 1 when ``pos_label`` is not given:
#: {0, 1}, {-1, 1}, and one of their values alone.
CONVENTIONAL_LABELS = ([0, 1], [-1, 1], [0], [-1], [1])


def label_mask(y: np.ndarray, label: Any) -> np.ndarray:
    """Boolean mask of y == label (all False when the types cannot match).

    >>> label_mask(np.array(["a", "b"]), 1).tolist()
    [False, False]
    """
    mask = y == label
    if not isinstance(mask, np.ndarray) or mask.shape != y.shape:
        return np.zeros(y.shape, dtype=bool)
    return mask.astype(bool, copy=False)


def has_conventional_labels(classes: np.ndarray) -> bool:
    """Whether the sorted distinct labels ``classes`` are one of :data:`CONVENTIONAL_LABELS`
    (numbers or booleans: the text "1" is not the number 1).

    >>> has_conventional_labels(np.array([-1, 1])), has_conventional_labels(np.array(["0", "1"]))
    (True, False)
    """
    return classes.tolist() in CONVENTIONAL_LABELS


def sklearn_pos_label(pos_label: Any, classes: np.ndarray, func: str) -> Any:
    """scikit-learn's rule: without pos_label, labels must be {0, 1} or {-1, 1}; 1 is positive.

    ``classes``: y_true's distinct labels, sorted; ``func`` names the caller in the error.

    >>> sklearn_pos_label(None, np.array([0, 1]), "roc_curve"), sklearn_pos_label("b", np.array(["a", "b"]), "f")
    (1, 'b')
    """
    if pos_label is not None:
        return pos_label
    values = classes.tolist()
    if not has_conventional_labels(classes):
        raise ValueError(
            f"{func}: y_true takes values {values} and pos_label is not given; pass "
            f"pos_label= naming the positive class (one of {values}), or use labels in "
            "{0, 1} or {-1, 1}."
        )
    return 1
