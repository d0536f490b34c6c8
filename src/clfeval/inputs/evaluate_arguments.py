"""Input resolution for :func:`clfeval.evaluate`, its streams and :mod:`clfeval.dask`, in one place:
the class set and its order, the positive-class rule, threshold checks, display names, multilabel
indicators, and the predictions :func:`clfeval.evaluate` derives from scores (the default
threshold is :func:`clfeval.inputs.score_kind.default_threshold`: 0.5 for probabilities, else 0).

>>> resolve_pos_label(np.array([0, 1]), None, True, []), check_threshold(0.3)
(np.int64(1), 0.3)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.exceptions import ValuesError
from clfeval.inputs.labels import as_array, union_labels, unique_sorted
from clfeval.inputs.score_kind import default_threshold, score_kind

__all__ = ["CONVENTIONAL_POSITIVE", "resolve_labels", "resolve_pos_label", "check_threshold", "label_names",
           "first_outside", "indicator_matrix", "predict_from_scores"]

#: label pairs whose positive class is conventional (1 / True), as in scikit-learn
CONVENTIONAL_POSITIVE = ({0, 1}, {-1, 1})


def resolve_labels(
    yt: np.ndarray, yp: np.ndarray | None, labels: Any, pos_label: Any, n_columns: int | None
) -> np.ndarray:
    """The ordered classes of a single-label task: ``labels`` as given (distinct, of one type with
    the data, one per score column), else the sorted union of the classes in ``yt`` and ``yp``
    (with ``pos_label`` added when the data hold fewer than two classes), checked against the
    number of score columns ``n_columns`` (None for 1-D scores or none).

    >>> resolve_labels(np.array(["b", "a"]), np.array(["c", "a"]), None, None, None).tolist()
    ['a', 'b', 'c']
    """
    present = [unique_sorted(yt, "y_true")]
    names = ["y_true"]
    if yp is not None:
        present.append(unique_sorted(yp, "y_pred"))
        names.append("y_pred")
    if labels is not None:
        given = as_array(labels, "labels").reshape(-1)
        if unique_sorted(given, "labels").size != given.size:
            raise ValueError(f"labels must be distinct, got {given.tolist()}.")
        union_labels(given, *present, names=("labels", *names))  # refuses a type mix
        if n_columns is not None and n_columns != given.size and not (n_columns == 2 and given.size < 2):
            raise ValuesError(
                f"y_score has {n_columns} columns but labels has {given.size} classes ({given.tolist()}); "
                "give one score column per class, in the order of labels.",
                argument="y_score", kind="columns-vs-classes", count=n_columns, allowed=given.tolist(),
            )
        return given
    out = union_labels(*present, names=tuple(names))
    if pos_label is not None and out.size < 2 and not (out == pos_label).any():
        out = union_labels(out, np.array([pos_label]), names=(*names, "pos_label"))
    if n_columns is not None and n_columns != out.size and not (n_columns == 2 and out.size < 2):
        raise ValuesError(
            f"y_score has {n_columns} columns but the data has {out.size} classes "
            f"({out.tolist()}); pass labels= listing every class in column order.",
            argument="y_score", kind="columns-vs-classes", count=n_columns, allowed=out.tolist(),
        )
    return out


def resolve_pos_label(classes: np.ndarray, pos_label: Any, one_column: bool, notes: list[str]) -> Any:
    """The positive class of two ``classes``, by the one rule: ``pos_label`` when given (it must be
    one of them); else 1 of {0, 1} or {-1, 1} (numbers or bools); else the second of the sorted
    classes (predict_proba's second column), saying so in ``notes``, except that a single score
    column (``one_column``) needs ``pos_label`` to say which class it scores.

    >>> resolve_pos_label(np.array([-1, 1]), None, True, [])
    np.int64(1)
    >>> notes = []
    >>> resolve_pos_label(np.array(["ham", "spam"]), None, False, notes), len(notes)
    (np.str_('spam'), 1)
    """
    values = classes.tolist()
    if pos_label is not None:
        if not (classes == pos_label).any():
            raise ValuesError(f"pos_label={pos_label!r} is not one of the classes {values}.", argument="pos_label",
                              kind="not-a-class", value=pos_label, allowed=values)
        return classes[classes == pos_label][0]
    if classes.dtype.kind in "biuf" and set(values) in CONVENTIONAL_POSITIVE:
        return classes[-1]
    if one_column:
        raise ValuesError(
            f"y_score is a single column, so it scores one class of {values}: pass pos_label= "
            "to say which.",
            argument="pos_label", kind="pos-label-needed", allowed=values,
        )
    notes.append(
        f"Positive class taken as {values[-1]!r}, the second of the sorted classes (the column "
        "predict_proba puts second); pass pos_label to choose."
    )
    return classes[-1]


def check_threshold(threshold: Any) -> float | None:
    """A threshold as a finite float (None stays None): a bool or a non-number is a TypeError,
    NaN or an infinity a ValueError.

    >>> check_threshold(1), check_threshold(None)
    (1.0, None)
    """
    if threshold is None:
        return None
    if isinstance(threshold, (bool, np.bool_)) or not isinstance(threshold, (int, float, np.number)):
        raise TypeError(f"threshold must be a number, got {threshold!r}.")
    t = float(threshold)
    if t != t or t in (float("inf"), float("-inf")):
        raise ValueError(f"threshold must be finite, got {threshold!r}.")
    return t


def label_names(labels: np.ndarray, target_names: Any) -> list[str]:
    """The display name of each class: ``target_names`` (one per class, distinct), else the labels
    as strings.

    >>> label_names(np.array([0, 1]), None), label_names(np.array([0, 1]), ["no", "yes"])
    (['0', '1'], ['no', 'yes'])
    """
    if target_names is None:
        return [str(v) for v in labels.tolist()]
    names = [str(v) for v in target_names]
    if len(names) != labels.size:
        raise ValueError(
            f"target_names has {len(names)} entries but there are {labels.size} classes "
            f"({labels.tolist()}); give one name per class."
        )
    if len(set(names)) != len(names):
        raise ValueError(f"target_names must be distinct, got {names}.")
    return names


def first_outside(y: np.ndarray, codes: np.ndarray, labels: np.ndarray, name: str) -> ValueError:
    """The error for the first value of ``y`` (its ``codes`` in ``labels``, -1 outside) that is no label."""
    bad = int(np.flatnonzero(codes < 0)[0])
    value = y[bad:bad + 1].tolist()[0]
    return ValuesError(
        f"{name}[{bad}] = {value!r} is not one of labels {labels.tolist()}; add it to labels "
        "or drop those samples.",
        argument=name, kind="not-in-labels", position=bad, value=value, count=int(np.count_nonzero(codes < 0)),
        allowed=labels.tolist(),
    )


def indicator_matrix(y: np.ndarray, name: str, L: int) -> np.ndarray:
    """A multilabel 0/1 indicator matrix with ``L`` columns as booleans (refused otherwise).

    >>> indicator_matrix(np.array([[0, 1], [1, 1]]), "y_true", 2).tolist()
    [[False, True], [True, True]]
    """
    if y.ndim != 2 or y.shape[1] != L:
        raise ValueError(f"{name} must be a 0/1 indicator matrix with {L} columns like y_true, got shape {y.shape}.")
    if y.dtype.kind not in "biuf" or not np.isin(unique_sorted(y, name), [0, 1]).all():
        raise ValueError(f"{name} must hold only 0 and 1 (a multilabel indicator matrix).")
    return y != 0


def predict_from_scores(y_score: Any, labels: Any, *, pos_label: Any = None, threshold: float | None = None) -> np.ndarray:
    """The labels :func:`evaluate` predicts from scores: binary ``score >= threshold`` (default 0.5
    for probabilities, 0 for decision values; ``y_score`` 1-D for ``pos_label`` or one column per
    label), multi-class the highest-scoring label.

    Parameters
    ----------
    y_score : array-like of shape (n_samples,) or (n_samples, n_labels)
        Scores of the positive class (1-D, binary), or one column per label.
    labels : array-like of shape (n_labels,)
        The classes, in the order of the score columns.
    pos_label : object, optional
        The positive class of binary scores. Default None: ``labels[1]``.
    threshold : float, optional
        Cut of binary scores (a score at the threshold predicts the positive class). Default
        None: 0.5 for probabilities, 0 for decision values.

    Returns
    -------
    numpy.ndarray of shape (n_samples,)
        The predicted label of each row.

    Examples
    --------
    >>> predict_from_scores([0.2, 0.7], ["no", "yes"], pos_label="yes").tolist()
    ['no', 'yes']
    >>> predict_from_scores([[0.1, 0.9, 0.0], [0.5, 0.2, 0.3]], [3, 1, 2]).tolist()
    [1, 3]
    """
    s = np.asarray(y_score, dtype=np.float64)
    labels = np.asarray(labels)
    if s.ndim == 2 and s.shape[1] != labels.size:
        raise ValueError(f"y_score has {s.shape[1]} columns but there are {labels.size} labels.")
    if s.ndim == 2 and labels.size > 2:
        return labels[np.argmax(s, axis=1)]
    if labels.size != 2:
        raise ValueError(f"binary scores need two labels, got {labels.tolist()}.")
    pos = labels[1] if pos_label is None else pos_label
    if pos not in labels.tolist():
        raise ValueError(f"pos_label {pos!r} is not one of the labels {labels.tolist()}.")
    pos_index = labels.tolist().index(pos)
    pos_scores = s if s.ndim == 1 else s[:, pos_index]
    if threshold is None:
        threshold = default_threshold(score_kind(s))
    return np.where(pos_scores >= threshold, labels[pos_index], labels[1 - pos_index])
