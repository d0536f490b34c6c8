"""Reading and validating the inputs of calibration: ``y_true`` / ``y_prob`` (/ ``pos_label``,
``labels``, ``sample_weight``) as the scikit-learn-style functions take them, or an Evaluation's
probabilities, into :class:`Inputs` (class codes, probabilities, weights, classes, positive
class); and the views that a ``mode`` reads from them.

>>> x = read_inputs(["a", "b", "b"], [0.3, 0.8, 0.4], pos_label="b")
>>> x.codes.tolist(), x.classes, x.positive, x.k
([0, 1, 1], ('a', 'b'), 1, 2)
>>> input_views(x, None)
('binary', [1])
"""

from __future__ import annotations

import numbers
from typing import Any, NamedTuple

import numpy as np

from clfeval.inputs.labels import check_consistent_length, check_sample_weight, encode, target_kind, union_labels
from clfeval.inputs.sklearn_pos_label import has_conventional_labels
from clfeval.inputs.probabilities import check_unit_interval, classes_and_codes, read_labels_1d, read_scores
from clfeval.calibration.checks import MODES, check_choice, check_rows_sum_to_one

__all__ = [
    "ROUNDED_ROWS_TOLERANCE",
    "Inputs",
    "read_binary",
    "read_inputs",
    "input_views",
    "resolve_view",
    "onto_unit_interval",
    "evaluation_inputs",
]

#: An Evaluation's (n, k) probability rows that all sum to 1 within this (rounding in a file, e.g.
#: 6 decimals over 10 classes) are divided by their sums before calibration; larger gaps are refused.
ROUNDED_ROWS_TOLERANCE = 1e-4


class Inputs(NamedTuple):
    """Validated calibration input: ``codes`` (n,) class indices, ``proba`` (n,) probabilities of
    class ``positive`` (binary) or (n, k) rows, ``weight`` (n,) or None, the ``classes`` in order
    and the ``positive`` class's index (None: no positive class among more than two)."""

    codes: np.ndarray
    proba: np.ndarray
    weight: np.ndarray | None
    classes: tuple
    positive: int | None

    @property
    def k(self) -> int:
        return 2 if self.proba.ndim == 1 else self.proba.shape[1]




def read_binary(y_true: Any, proba: np.ndarray, pos_label: Any, weight: Any) -> Inputs:
    """Validated inputs of 1-D ``proba`` (the probability of ``pos_label``): binary ``y_true``,
    with ``pos_label`` required unless the labels are {0, 1} or {-1, 1}.

    >>> read_binary([-1, 1, 1], np.array([0.2, 0.7, 0.9]), None, None).codes.tolist()
    [0, 1, 1]
    """
    yt = read_labels_1d(y_true)
    n = check_consistent_length(y_true=yt, y_prob=proba)
    w = check_sample_weight(weight, n, allow_all_zero=False)
    check_unit_interval(proba, "y_prob")
    kind, present = target_kind(yt, "y_true")
    if kind != "binary":
        what = f"{present.size} classes {present[:8].tolist()}" if kind == "multiclass" else f"{kind} values"
        raise ValueError(
            f"y_prob is 1-D (the probability of one class), so y_true must be binary, but it has "
            f"{what}. For several classes pass y_prob with shape (n_samples, n_classes)."
        )
    if pos_label is None:
        if not has_conventional_labels(present):
            raise ValueError(
                f"y_true takes values {present.tolist()} and pos_label is not specified: pass "
                "pos_label (the class whose probability y_prob holds), or make y_true take "
                "values in {0, 1} or {-1, 1}."
            )
        pos_label = 1
    elif not isinstance(pos_label, (str, numbers.Real, np.bool_)):
        raise TypeError(f"pos_label must be a single label, got {pos_label!r}.")
    union_labels(present, np.asarray([pos_label]), names=("y_true", "pos_label"))
    pos_code = encode(np.asarray([pos_label]), present)[0]
    if pos_code < 0 and present.size == 2:
        raise ValueError(
            f"pos_label={pos_label!r} is not one of the classes in y_true {present.tolist()}; "
            "pass one of them."
        )
    pos = pos_label.item() if isinstance(pos_label, np.generic) else pos_label
    if present.size == 2:  # the classes in sorted order; p is the probability of one of them
        return Inputs(encode(yt, present), proba, w, tuple(present.tolist()), int(pos_code))
    # one class present: name the missing one
    if pos_code >= 0:
        negative: Any = {1: 0, 0: 1, -1: 1}.get(pos, f"not {pos}") if not isinstance(pos, bool) else not pos
    else:
        negative = present.tolist()[0]
    codes = np.full(yt.shape[0], 1 if pos_code >= 0 else 0, dtype=np.intp)
    return Inputs(codes, proba, w, (negative, pos), 1)


def read_inputs(
    y_true: Any, y_prob: Any, *, pos_label: Any = None, labels: Any = None, sample_weight: Any = None
) -> Inputs:
    """Validated (codes, probabilities, weights, classes, positive) from user input."""
    proba = read_scores(y_prob, "y_prob")
    if proba.ndim == 1:
        if labels is not None:
            raise ValueError("labels applies to (n_samples, n_classes) y_prob; for 1-D use pos_label.")
        return read_binary(y_true, proba, pos_label, sample_weight)
    yt = read_labels_1d(y_true)
    n = check_consistent_length(y_true=yt, y_prob=proba)
    w = check_sample_weight(sample_weight, n, allow_all_zero=False)
    check_unit_interval(proba, "y_prob")
    _, classes, codes = classes_and_codes(yt, labels, strict_order=False)
    k = proba.shape[1]
    if classes.size != k:
        source = "y_true" if labels is None else "labels"
        hint = " If y_true lacks some classes, pass all of them through labels." if labels is None else ""
        raise ValueError(
            f"{source} has {classes.size} classes {classes.tolist()[:8]} but y_prob has {k} "
            f"columns; y_prob needs one column per class, in sorted label order.{hint}"
        )
    check_rows_sum_to_one(proba, "y_prob")
    positive = None
    if pos_label is not None:
        idx = encode(np.asarray([pos_label]), classes)[0]
        if idx < 0:
            raise ValueError(f"pos_label={pos_label!r} is not one of the classes {classes.tolist()}.")
        positive = int(idx)
    elif k == 2:
        positive = 1
    return Inputs(codes, proba, w, tuple(classes.tolist()), positive)


def input_views(x: Inputs, mode: str | None) -> tuple[str, list[int]]:
    """(mode, the views it reads): view ``c < k`` is class ``c`` against the rest, ``k`` the top
    label; ``mode=None`` is "binary" for 1-D probabilities and "top-label" for (n, k)."""
    mode = ("binary" if x.proba.ndim == 1 else "top-label") if mode is None else mode
    check_choice(mode, MODES, "mode")
    if mode == "binary":
        if x.positive is None:
            raise ValueError(
                f"mode='binary' with {x.k} classes needs pos_label: the class to read against the "
                "rest."
            )
        return mode, [x.positive]
    if mode == "class-wise":
        return mode, list(range(x.k))
    return mode, [x.k]



def resolve_view(x: Inputs, mode: str | None, pos_label: Any) -> int:
    """The one view a reliability curve shows: ``pos_label``'s class (mode "binary"), the
    positive class, or top-label."""
    if mode is None and pos_label is not None:
        mode = "binary"
    if mode == "binary" and pos_label is not None:
        hits = [i for i, c in enumerate(x.classes) if c == pos_label or str(c) == str(pos_label)]
        if not hits:
            raise ValueError(f"pos_label={pos_label!r} is not one of the classes {list(x.classes)}.")
        return hits[0]
    _, views = input_views(x, mode)
    if len(views) != 1:
        raise ValueError(
            "a reliability curve shows one view: pass mode='binary' (with pos_label for more "
            "than two classes) or mode='top-label'."
        )
    return views[0]



def onto_unit_interval(p: np.ndarray) -> np.ndarray:
    """Probabilities that lie within the tolerance of [0, 1] (an Evaluation reads them as
    probabilities, see :mod:`clfeval.inputs.score_kind`) put onto [0, 1]: 1.0000001 counts as 1 in the
    bins, the Brier score and the log loss; ``p`` itself when all lie inside (no copy).

    >>> onto_unit_interval(np.array([1.0000001, 0.5, -1e-9])).tolist()
    [1.0, 0.5, 0.0]
    """
    if p.size and (p.min() < 0.0 or p.max() > 1.0):
        return np.clip(p, 0.0, 1.0)
    return p


def evaluation_inputs(ev: Any) -> Inputs:
    """The encoded probabilities of an Evaluation (binary: the positive class's, 1-D)."""
    cases = getattr(ev, "cases", None)
    if cases is None or cases.scores is None:
        raise ValueError(
            "this evaluation has no scores; calibration needs predicted probabilities: pass "
            "y_score=predict_proba(X) to clfeval.evaluate."
        )
    if ev.task == "multilabel":
        raise ValueError("calibration of multilabel evaluations is not supported yet.")
    if ev.score_kind != "probability":
        raise ValueError(
            "this evaluation's scores are not probabilities (some lie outside [0, 1]); "
            "calibration needs predict_proba output, not decision values."
        )
    s = cases.scores
    names = tuple(ev.names)
    if ev.task == "binary":
        pos = int(cases.pos_index)
        p = onto_unit_interval(s if s.ndim == 1 else s[:, pos])
        return Inputs(np.asarray(cases.true, dtype=np.intp), p, cases.weight, names, pos)
    s = onto_unit_interval(s)
    # column by column, left to right: the same sums whatever the array's memory layout
    sums = s[:, 0].astype(np.float64)
    for j in range(1, s.shape[1]):
        sums += s[:, j]
    if np.all(np.abs(sums - 1.0) <= ROUNDED_ROWS_TOLERANCE):
        # probabilities written to a file with a few decimals: rows off 1 by rounding only
        s = s / sums[:, None]
    check_rows_sum_to_one(s, "y_score")
    return Inputs(np.asarray(cases.true, dtype=np.intp), s, cases.weight, names, None)
