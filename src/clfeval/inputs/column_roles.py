"""Which columns of a predictions file hold one model's scores and predictions: the one rule that
every reader of files follows (:mod:`clfeval.inputs.tabular` in memory and streamed, :mod:`clfeval.dask`).

- Score columns named ``<score prefix>_<suffix>`` (``proba_setosa``, ``p_1``, ``score:spam``) are
  read as one column per class only when their suffixes name the classes: every class found in
  y_true (or every class of ``--labels``, exactly) has its column, and each suffix reads as a
  label of y_true's kind (a suffix may name a class absent from the data). Their order is then
  the label order. A single such column that names one of two classes is that class's score.
- Suffixes that do not name the classes (``proba_lr, proba_rf``: two models), two sets of
  per-class columns (``proba_lr_0, proba_lr_1, proba_rf_0, proba_rf_1``), a plain score column
  beside suffixed ones, or two prediction columns (``pred_lr, pred_rf``) are never guessed
  between: :class:`ColumnChoiceError` lists them and says which option to pass.
- When the prediction or the score column is named, no other prediction or score column is read
  or guessed; the columns left unused are listed (:meth:`ColumnChoice.unused`).
- Group columns (``groups``, ``--by`` on the command line) are read as groups only: they take no
  other role, are never detected as a model's column, and are not listed as unused.

>>> c = ColumnChoice("p.csv", ["y", "proba_b", "proba_a"], "y", None, None, None, explicit=False,
...                  free=["proba_b", "proba_a"])
>>> c.settle(["a", "b"], labels_given=False)
>>> c.y_score, c.score_labels, c.detected
(['proba_b', 'proba_a'], ['b', 'a'], ['y_score = proba_b, proba_a (one column per class)'])
>>> c = ColumnChoice("p.csv", ["y", "proba_lr", "proba_rf"], "y", None, None, None, explicit=False,
...                  free=["proba_lr", "proba_rf"])
>>> c.settle([0, 1], labels_given=False)
Traceback (most recent call last):
...
clfeval.inputs.column_roles.ColumnChoiceError: p.csv: score columns proba_lr, proba_rf: their suffixes do not name the classes (0, 1), so they are not read as one column per class; which model's outputs to read is not known: pass --y-score COL to read one of them, or compare them with clfeval compare --model NAME=COL
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ColumnChoiceError", "ColumnChoice", "PER_CLASS_PATTERN", "PRED_PATTERN", "parse_label",
           "labels_from_columns", "columns_html", "classes_named_by",
           "scores_in_label_order"]

#: ``<score prefix><separator><suffix>``: a score column that may be one of one column per class
PER_CLASS_PATTERN = re.compile(r"^(y_score|score|y_proba|proba|probability|prob|y_prob|p)[_:.\-](.+)$", re.I)
#: ``<prediction prefix><separator><suffix>``: a model's predictions (``pred_lr``)
PRED_PATTERN = re.compile(r"^(y_pred|pred|prediction|predictions|predicted|y_hat|yhat)[_:.\-](.+)$", re.I)
_SEPARATORS = "_:.-"
_HINT = "compare them with clfeval compare --model NAME=COL"


class ColumnChoiceError(ValueError):
    """The file holds the outputs of several models, or scores whose columns do not name the
    classes: which columns to read is not known. The CLI exits with status 2 (pass an option)."""


def parse_label(text: str, kind: str) -> Any:
    """``text`` as a label of a y_true of numpy dtype kind ``kind``, or None if it is not one.

    >>> parse_label("1", "i"), parse_label("lr", "i"), parse_label("True", "b"), parse_label("spam", "U")
    (1, None, True, 'spam')
    """
    try:
        if kind in "iu":
            return int(text)
        if kind == "f":
            return float(text)
    except ValueError:
        return None
    if kind == "b":
        low = text.lower()
        return low in ("true", "1") if low in ("true", "1", "false", "0") else None
    return text


def _listing(names: Sequence[Any]) -> str:
    return ", ".join(str(n) for n in names)


@dataclass
class ColumnChoice:
    """The prediction and score columns of one file, found from their names (``free``: the
    columns no role took yet) and, for suffixed score columns, settled by the classes
    (:meth:`settle`). ``explicit``: the prediction or the score column was named."""

    path: str
    columns: list[str]
    y_true: str
    y_pred: str | None
    y_score: list[str] | None
    sample_weight: str | None
    explicit: bool
    free: list[str]
    detected: list[str] = field(default_factory=list)
    score_labels: list[str] | None = None
    pending: list[str] = field(default_factory=list)  # suffixed score columns, waiting for the classes
    pred_like: list[str] = field(default_factory=list)
    order_note: str | None = None  # named --y-score columns read in label order although they name no class
    groups: list[str] = field(default_factory=list)  # group columns (--by): read as groups, no other role

    def __post_init__(self) -> None:
        if self.explicit:
            given = self.y_score or []
            if len(given) > 1 and all(PER_CLASS_PATTERN.match(c) for c in given):
                self.pending = list(given)  # named per-class columns: if they name the classes, their order
            return
        self.pending = [c for c in self.free if PER_CLASS_PATTERN.match(c)]
        self.pred_like = [c for c in self.free if PRED_PATTERN.match(c)]
        if self.y_score and self.pending:
            raise ColumnChoiceError(
                f"{self.path}: score columns {_listing(self.y_score + self.pending)}: which model's scores to read "
                f"is not known; pass --y-score COL[,COL...], or {_HINT}")

    @property
    def needs_classes(self) -> bool:
        """Suffixed score columns wait for the classes (:meth:`settle`)."""
        return bool(self.pending)

    def settle(self, classes: Sequence[Any] | None, labels_given: bool, kind: str | None = None) -> None:
        """Decide the scores from the classes (those found in y_true, or ``--labels`` when
        ``labels_given``; ``kind``: y_true's numpy dtype kind, by default that of the classes);
        a :class:`ColumnChoiceError` when the columns do not say which model to read."""
        if self.explicit:
            self._named_order(classes, labels_given, kind)
            return
        preds = ([self.y_pred] if self.y_pred is not None else []) + self.pred_like
        problems = []
        if not self.explicit and len(preds) > 1:
            problems.append(f"prediction columns {_listing(preds)}")
        groups: list[list[tuple[str, Any]]] = []
        left: list[str] = []
        if self.pending:
            known = list(classes or [])
            groups, left = _class_groups(self.pending, known, kind or _kind_of(known), labels_given)
            if len(groups) > 1:
                sets = " and ".join(_listing(c for c, _ in g) for g in groups)
                problems.insert(0, f"columns {sets} are {len(groups)} sets of one score column per class")
            elif left:
                one = len(left) == 1
                shown = _listing(known[:10]) + (", ..." if len(known) > 10 else "")
                problems.insert(0, f"score column{'' if one else 's'} {_listing(left)}: "
                                   f"{'its suffix does' if one else 'their suffixes do'} not name the classes "
                                   f"{'of --labels ' if labels_given else ''}({shown}), so "
                                   f"{'it is' if one else 'they are'} not read as one column per class")
        if problems:
            read = "--y-score COL" if groups or left else "--y-pred COL"
            if (groups or left) and len(preds) > 1:
                read = "--y-score COL or --y-pred COL"
            if len(left) == 1 and not groups and len(preds) < 2:
                raise ColumnChoiceError(f"{self.path}: {problems[0]}; pass --y-score {left[0]} to read it as the "
                                        "scores of the positive class")
            raise ColumnChoiceError(f"{self.path}: {'; '.join(problems)}; which model's outputs to read is not "
                                    f"known: pass {read} to read one of them, or {_HINT}")
        if groups:
            chosen = groups[0]
            if labels_given and len(chosen) > 1:  # the columns in the order of --labels
                order = {repr(v): i for i, v in enumerate(known)}
                chosen = sorted(chosen, key=lambda cv: order[repr(cv[1])])
            self.y_score = [c for c, _ in chosen]
            self.score_labels = [str(v) for _, v in chosen]
            if len(chosen) == 1:
                self.detected.append(f"y_score = {chosen[0][0]} (the scores of class {chosen[0][1]})")
            else:
                self.detected.append(f"y_score = {_listing(self.y_score)} (one column per class)")
        self.pending = []

    def _named_order(self, classes: Sequence[Any] | None, labels_given: bool, kind: str | None) -> None:
        """``--y-score`` columns whose suffixes name the classes give the label order (the option
        says "in label order": a name that says otherwise is not overruled silently)."""
        named, self.pending = self.pending, []
        if not named:
            return
        known = list(classes or [])
        values = classes_named_by(named, known, labels_given, kind)
        if values is None:
            self.order_note = (f"--y-score {','.join(named)}: the column names do not name the classes "
                               f"{_listing(known)}, so the columns are read as their scores in that order")
            return
        if labels_given and values != known:
            raise ColumnChoiceError(f"--y-score {','.join(named)}: the columns name the classes "
                                    f"{_listing(values)}, but --labels orders them {_listing(known)}; "
                                    "list the columns in the order of --labels")
        self.score_labels = [str(v) for v in values]

    def unused(self) -> list[str]:
        """The file's columns that are not read."""
        read = {self.y_true, self.y_pred, self.sample_weight, *(self.y_score or []), *self.groups}
        return [c for c in self.columns if c not in read]

    def unused_note(self) -> str | None:
        """A note naming the prediction and score columns left unused when one was named, and how
        named score columns that name no class were read."""
        unused = self.unused()
        notes = [] if self.order_note is None else [self.order_note]
        if self.explicit and unused:
            shown = _listing(unused[:30]) + (f", ... ({len(unused)} in all)" if len(unused) > 30 else "")
            notes.append(f"columns not read: {shown} (only the columns named or detected are read)")
        return "; ".join(notes) or None

    def used(self) -> dict[str, Any]:
        """The JSON entry ``"columns"``: which column was read for what (``"groups"``: the group
        columns, when there are any)."""
        used = {"y_true": self.y_true, "y_pred": self.y_pred, "y_score": list(self.y_score or []),
                "sample_weight": self.sample_weight}
        if self.groups:
            used["groups"] = list(self.groups)
        return {**used, "unused": self.unused()}


def _kind_of(values: list[Any]) -> str:
    import numpy as np

    return np.asarray(values).dtype.kind if values else "U"


def _class_groups(names: list[str], known: list[Any], kind: str, labels_given: bool
                  ) -> tuple[list[list[tuple[str, Any]]], list[str]]:
    """The sets of per-class score columns among ``names`` (each a list of (column, class)) whose
    suffixes name the classes ``known``, and the columns in no such set."""
    lower: dict[str, list[Any]] = {}
    for v in known:
        lower.setdefault(str(v).lower(), []).append(v)

    def named(text: str) -> Any:
        v = parse_label(text, kind)
        if v is not None and v in known:
            return v
        alike = lower.get(text.lower(), [])
        return alike[0] if len(alike) == 1 else None

    by_stem: dict[str, list[tuple[str, Any]]] = {}
    for name in names:
        m = PER_CLASS_PATTERN.match(name)
        assert m is not None
        rest, stem, value = m.group(2), name[: m.start(2)], None
        value = named(rest)
        if value is None:  # <prefix>_<model>_<class>: the longest tail that names a class (the model's name
            for i, ch in enumerate(rest):  # is not empty: proba_-1 is class -1, not class 1 of a model "")
                if i > 0 and ch in _SEPARATORS and named(rest[i + 1:]) is not None:
                    stem, value = name[: m.start(2) + i + 1], named(rest[i + 1:])
                    break
        if value is None and not labels_given:
            value = parse_label(rest, kind)  # a class absent from the data, perhaps
        by_stem.setdefault(stem.lower(), []).append((name, value))
    groups, left = [], []
    for members in by_stem.values():
        values = [v for _, v in members]
        complete = None not in values and len(set(values)) == len(values)
        if complete:
            if len(members) == 1:  # one column: the score of one of two classes (perhaps absent from the rows)
                complete = len(known) == 2 if labels_given else len(set(known) | {values[0]}) <= 2
            elif labels_given:
                complete = set(values) == set(known)
            else:
                complete = set(known) <= set(values)
        if complete:
            groups.append(members)
        else:
            left += [c for c, _ in members]
    return groups, left


def classes_named_by(columns: Sequence[str], classes: Sequence[Any], labels_given: bool = False,
                     kind: str | None = None) -> list[Any] | None:
    """The class each of ``columns`` names by its suffix, when together they are one set of
    per-class score columns for ``classes`` (those of y_true, or ``--labels`` when ``labels_given``);
    None otherwise.

    >>> classes_named_by(["p_spam", "p_ham"], ["ham", "spam"])
    ['spam', 'ham']
    >>> classes_named_by(["proba_lr", "proba_rf"], [0, 1]) is None
    True
    """
    known = list(classes)
    if not columns or not all(PER_CLASS_PATTERN.match(c) for c in columns):
        return None
    groups, left = _class_groups(list(columns), known, kind or _kind_of(known), labels_given)
    if len(groups) != 1 or left:
        return None
    return [v for _, v in groups[0]]


def scores_in_label_order(y_score: Any, columns: Sequence[str], y_true: Any, labels: Any) -> Any:
    """``y_score``'s per-class columns put in the label order (``labels``, or y_true's sorted
    classes) when their names end in the classes (``p_spam``, ``lr.ham``: the text after a ``_``,
    ``:``, ``.`` or ``-``), one each; otherwise ``y_score`` as it is (its columns then taken in
    label order).

    >>> import numpy as np
    >>> scores_in_label_order(np.array([[0.9, 0.1]]), ["q_spam", "q_ham"], np.array(["ham", "spam"]), None)
    array([[0.1, 0.9]])
    """
    import numpy as np

    if y_score is None or np.ndim(y_score) != 2 or len(columns) != np.shape(y_score)[1] or len(columns) < 2:
        return y_score
    order = list(labels) if labels is not None else np.unique(np.asarray(y_true)).tolist()
    text = {str(v): v for v in order}
    lower: dict[str, list[Any]] = {}
    for v in order:
        lower.setdefault(str(v).lower(), []).append(v)

    def named(column: str) -> Any:
        for i, ch in enumerate(column):  # the longest tail after a separator that names a class
            if ch in _SEPARATORS:
                tail = column[i + 1:]
                if tail in text:
                    return text[tail]
                if len(lower.get(tail.lower(), [])) == 1:
                    return lower[tail.lower()][0]
        return None

    named_classes = [named(c) for c in columns]
    if None in named_classes or len(named_classes) != len(order) or len({str(v) for v in named_classes}) != len(order):
        return y_score
    position = {str(v): i for i, v in enumerate(named_classes)}
    return np.asarray(y_score)[:, [position[str(v)] for v in order]]


def labels_from_columns(score_labels: Sequence[str] | None, like: Any, labels: Any, pos_label: Any,
                        score_columns: Sequence[str] = ()) -> tuple[Any, Any]:
    """(labels, pos_label) for ``evaluate``: per-class score columns give the label order (their
    classes, typed like ``like``, y_true's values), a single class's column the positive class,
    unless the options gave them.

    >>> import numpy as np
    >>> labels_from_columns(["b", "a"], np.array(["a", "b"]), None, None)
    (['b', 'a'], 'b')
    >>> labels_from_columns(["0"], np.array([0, 1]), None, None)
    (None, 0)
    """
    if not score_labels:
        return labels, pos_label
    kind = getattr(getattr(like, "dtype", None), "kind", "U")
    parsed = [parse_label(v, kind) for v in score_labels]
    if any(p is None for p in parsed):
        return labels, pos_label
    if len(parsed) == 1:
        if pos_label is not None and pos_label != parsed[0]:
            raise ColumnChoiceError(f"--pos-label {pos_label}: the score column {_listing(score_columns)} holds the "
                                    f"scores of class {parsed[0]}; leave out --pos-label, or pass --y-score COL "
                                    "to read the column as the scores of the positive class")
        return labels, parsed[0]
    if labels is None:
        if len(parsed) == 2 and pos_label is None:  # as with predict_proba's columns: the larger class
            try:
                pos_label = sorted(parsed)[1]
            except TypeError:
                pass
        return parsed, pos_label
    return labels, pos_label


def columns_html(columns: Any) -> str:
    """The "columns read" line of an HTML report from the JSON entry ``"columns"`` ("" without one).

    >>> columns_html({"y_true": "y", "y_pred": None, "y_score": ["s"], "sample_weight": None, "unused": ["id"]})
    '<p class="hint">Columns read: y_true = y; y_score = s; not read: id</p>'
    """
    if not isinstance(columns, dict):
        return ""
    parts = []
    for role in ("y_true", "y_pred", "y_score", "sample_weight", "groups"):
        value = columns.get(role)
        if value:
            parts.append(f"{role} = {_listing(value) if isinstance(value, list) else value}")
    if columns.get("unused"):
        parts.append(f"not read: {_listing(columns['unused'])}")
    return f'<p class="hint">Columns read: {html.escape("; ".join(parts))}</p>' if parts else ""
