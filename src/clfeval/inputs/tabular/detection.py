"""Which column of a file holds what: the columns named by the caller, checked, and the others
detected from the usual names (``y_true``/``label``/``target``..., ``y_pred``/``prediction``...,
``y_score``/``score``/``proba``..., ``sample_weight``/``weight``) or as one score column per class
(:mod:`clfeval.inputs.column_roles`), as a :class:`ColumnLayout`.

>>> layout = ColumnLayout.resolve(Path("p.csv"), ["id", "target", "proba"], None, None, None, None)
>>> layout.y_true, layout.y_score, layout.detected
('target', ['proba'], ['y_true = target', 'y_score = proba'])

Group columns (``groups=``) are read as they are and kept out of the detection of every role:

>>> ColumnLayout.resolve(Path("p.csv"), ["label", "score", "site"], None, None, None, None, groups=["site"]).groups
['site']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clfeval.inputs.column_roles import PER_CLASS_PATTERN, ColumnChoice, ColumnChoiceError
from clfeval.inputs.checks import duplicate_column_problem
from clfeval.inputs.tabular.messages import InputFileError, listing, missing_column_message

__all__ = ["TRUE_NAMES", "PRED_NAMES", "SCORE_NAMES", "WEIGHT_NAMES", "detect_column", "ColumnLayout",
           "check_duplicate_columns", "no_true_column_error"]

TRUE_NAMES = ("y_true", "true", "target", "label", "labels", "actual", "truth", "y", "class", "gold")
PRED_NAMES = ("y_pred", "pred", "prediction", "predictions", "predicted", "y_hat", "yhat")
SCORE_NAMES = ("y_score", "score", "scores", "y_proba", "proba", "probability", "prob", "y_prob",
               "decision", "decision_function")
WEIGHT_NAMES = ("sample_weight", "weight", "weights")

_DETECTED_BY = {"y_true": TRUE_NAMES, "y_pred": PRED_NAMES, "sample_weight": WEIGHT_NAMES, "y_score": SCORE_NAMES}


def detect_column(path: Path, free: list[str], role: str, names: Sequence[str], detected: list[str]) -> str | None:
    """The first column of ``free`` named (in any case) like one of ``names``, in their order of preference;
    it is taken out of ``free`` and recorded in ``detected`` as "role = column". Two columns that differ only
    in case (``Score`` and ``score``) are an error: which one is meant is not known.

    >>> free, detected = ["id", "Label", "p"], []
    >>> detect_column(Path("f.csv"), free, "y_true", TRUE_NAMES, detected), free, detected
    ('Label', ['id', 'p'], ['y_true = Label'])
    """
    lower = {c.lower(): c for c in free}
    for n in names:
        alike = list(dict.fromkeys(c for c in free if c.lower() == n))
        if len(alike) > 1:
            raise InputFileError(
                f"{path}: columns {' and '.join(repr(c) for c in alike)} both look like the {role} column; "
                f"name the one to read with --{role.replace('_', '-')} COLUMN")
        if n in lower:
            free.remove(lower[n])
            detected.append(f"{role} = {lower[n]}")
            return lower[n]
    return None


@dataclass
class ColumnLayout:
    """The columns read for each role (named or detected), what was detected, and the choice of
    score columns (:class:`clfeval.inputs.column_roles.ColumnChoice`) they come from."""

    y_true: str
    y_pred: str | None
    y_score: list[str] | None
    sample_weight: str | None
    score_labels: list[str] | None
    detected: list[str]
    choice: ColumnChoice | None = None
    #: the group columns (``groups=``, ``--by``): read as they are, kept out of every detection
    groups: list[str] = field(default_factory=list)

    def all_columns(self) -> list[str | None]:
        return [self.y_true, self.y_pred, *(self.y_score or []), self.sample_weight, *self.groups]

    def roles(self) -> list[tuple[str, str]]:
        """(role, column) of every column read."""
        pairs = [("y_true", self.y_true), ("y_pred", self.y_pred), *(("y_score", c) for c in self.y_score or []),
                 ("sample_weight", self.sample_weight), *(("group", c) for c in self.groups)]
        return [(role, name) for role, name in pairs if name is not None]

    @classmethod
    def resolve(cls, path: Path, columns: list[str], y_true: str | None, y_pred: str | None,
                y_score: list[str] | None, sample_weight: str | None, *,
                groups: Sequence[str] | None = None) -> ColumnLayout:
        """The layout of a file of ``columns``: the columns named (each checked to be there, not
        duplicated), the others detected; ``groups`` (group columns) are read as they are and never
        detected as another role (a group column that is missing is a :class:`ColumnChoiceError`:
        which columns to read is the caller's choice)."""
        group_columns = list(dict.fromkeys(groups or []))
        for name in group_columns:
            if name not in columns:
                raise ColumnChoiceError(missing_column_message(path, "--by", name, columns))
        for option, name in (("--y-true", y_true), ("--y-pred", y_pred), ("--sample-weight", sample_weight),
                             *(("--y-score", c) for c in (y_score or []))):
            if name is not None and name not in columns:
                raise InputFileError(missing_column_message(path, option, name, columns))
        check_duplicate_columns(path, columns, {"y_true": y_true, "y_pred": y_pred, "sample_weight": sample_weight,
                                          "y_score": y_score, **({"--by": group_columns} if group_columns else {})})
        detected: list[str] = []
        named = {y_true, y_pred, sample_weight, *(y_score or []), *group_columns}
        free = [c for c in columns if c not in named]

        def pick(role: str, given: str | None, names: Sequence[str]) -> str | None:
            return given if given is not None else detect_column(path, free, role, names, detected)

        true_col = pick("y_true", y_true, TRUE_NAMES)
        if true_col is None:
            raise no_true_column_error(path, columns)
        explicit = y_pred is not None or y_score is not None  # then no other output column is detected
        pred_col = y_pred if explicit else pick("y_pred", None, PRED_NAMES)
        weight_col = pick("sample_weight", sample_weight, WEIGHT_NAMES)
        single = None if explicit else pick("y_score", None, SCORE_NAMES)
        choice = ColumnChoice(str(path), list(columns), true_col, pred_col, y_score or ([single] if single else None),
                              weight_col, explicit, free, detected, groups=group_columns)
        layout = cls(true_col, pred_col, choice.y_score, weight_col, None, detected, choice, group_columns)
        if not choice.needs_classes:
            layout.settle(None, False)
        return layout

    def settle(self, classes: Sequence[Any] | None, labels_given: bool, kind: str | None = None) -> None:
        """The score columns decided from the classes (see :mod:`clfeval.inputs.column_roles`)."""
        choice = self.choice
        assert choice is not None
        choice.settle(classes, labels_given, kind)
        self.y_score, self.score_labels = choice.y_score, choice.score_labels
        if self.y_pred is None and not self.y_score:
            several = "; several models' columns: clfeval compare --model NAME=COL" if len(choice.free) > 1 else ""
            raise ColumnChoiceError(
                f"{choice.path}: no prediction or score column found; name them with --y-pred COLUMN "
                f"or --y-score COLUMN[,COLUMN...]{several} (columns: {listing(choice.columns)})")

    def classes_needed(self) -> bool:
        return self.choice is not None and self.choice.needs_classes


def check_duplicate_columns(path: Path, columns: list[str], given: dict[str, Any]) -> None:
    """:func:`clfeval.inputs.checks.duplicate_column_problem` of the file's columns (``given``:
    role -> the column or columns named, or None) as an :class:`InputFileError`."""
    problem = duplicate_column_problem(columns, given, _DETECTED_BY, PER_CLASS_PATTERN)
    if problem is not None:
        raise InputFileError(f"{path}: {problem}")


def no_true_column_error(path: Path, columns: Sequence[str]) -> InputFileError:
    """The error of a file without a column of true labels, named or detected."""
    return InputFileError(f"{path}: no column of true labels found; name it with --y-true COLUMN "
                          f"(columns: {listing(columns)})")
