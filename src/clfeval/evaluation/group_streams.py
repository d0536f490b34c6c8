"""One stream state per group: what a :class:`~clfeval.streaming.StreamingEvaluation` (and each
Dask partition) keeps when it is told the rows' groups.

:class:`GroupStreams` maps each group key seen so far to its own stream state. Each batch's groups
are read as :func:`clfeval.inputs.group_keys.group_keys` reads the ``groups=`` of
:func:`clfeval.evaluate` (one array, a mapping name -> array, a DataFrame), its rows are split by
group, and each group's rows are added to that group's state (a group first seen in a late batch
starts its state then). Two :class:`GroupStreams` merge group by group (the union of the groups),
so the per-group states merge exactly as the overall state does. The result sorts the groups as
``group_keys`` sorts them, with the same display names, into a
:class:`~clfeval.evaluation.groups.GroupEvaluations`.

The stream states themselves are opaque here: the caller says how a group's rows are added
(``add``), how two states merge (``merge``) and how a state becomes an Evaluation (``result``), so
the rules of reading rows stay in one place (:mod:`clfeval.streaming`). A :class:`GroupStreams` is
never changed in place: ``updated`` and ``merged`` return new ones (a batch that fails leaves the
stream as it was).

>>> gs = GroupStreams.declared(True, "error")
>>> keys = gs.keys_of(["b", "a", "b"], 3)
>>> gs = gs.updated(keys, lambda state, rows: (state or []) + rows.tolist())
>>> gs.columns, gs.states
(['group'], {'a': [1], 'b': [0, 2]})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from clfeval.evaluation.groups import GroupEvaluations
from clfeval.inputs.group_keys import GROUP_MISSING, GroupKeys, group_keys

__all__ = ["GroupStreams", "group_columns"]


def group_columns(groups: Any) -> list[str] | None | bool:
    """The ``groups=`` of a stream, checked: False (no groups), None (groups given with each batch,
    their column names taken from the first) or the group columns' names (a name or a list of
    names: a batch's table of columns is read by these names, in this order)."""
    if groups is None or groups is False:
        return False
    if groups is True:
        return None
    names = [groups] if isinstance(groups, str) else groups
    if not isinstance(names, (list, tuple)) or not names or not all(isinstance(n, str) and n for n in names):
        raise TypeError("groups must be True (each batch passes its groups) or the group column name(s): "
                        f"a string or a list of strings, got {groups!r}.")
    if len(set(names)) != len(names):
        raise ValueError(f"groups names a column twice: {list(names)}.")
    return list(names)


def _table_columns(groups: Any) -> list[Any] | None:
    """The column names of a table of group columns (a mapping, a pandas/polars DataFrame, an
    arrow table), or None for one column."""
    if isinstance(groups, Mapping):
        return list(groups.keys())
    if hasattr(groups, "column_names") and not hasattr(groups, "columns"):  # pyarrow.Table
        return list(groups.column_names)
    if hasattr(groups, "columns") and getattr(groups, "ndim", 2) == 2:
        return list(groups.columns)
    return None


class GroupStreams:
    """Group key -> stream state (see the module). ``columns``: the group columns' names (None
    until the first batch names them); ``missing``: what a missing group value is ("error" or
    "keep", as ``group_keys``); ``states``: key -> the caller's state of that group's rows."""

    def __init__(self, columns: list[str] | None, missing: str, states: dict[Any, Any] | None = None) -> None:
        if missing not in GROUP_MISSING:
            raise ValueError(f"group_missing must be 'error' or 'keep', got {missing!r}.")
        self.columns = None if columns is None else list(columns)
        self.missing = missing
        self.states: dict[Any, Any] = {} if states is None else states

    @classmethod
    def declared(cls, groups: Any, missing: str) -> GroupStreams | None:
        """The empty group states of a stream made with ``groups=`` (None when it has none)."""
        columns = group_columns(groups)
        out = cls(None if columns is False else columns, missing)  # checks missing either way
        return None if columns is False else out

    def __len__(self) -> int:
        return len(self.states)

    def __repr__(self) -> str:
        return f"GroupStreams({len(self)} groups by {self.columns})"

    def keys_of(self, groups: Any, n_rows: int) -> GroupKeys:
        """One batch's groups (``n_rows`` rows) read into :class:`GroupKeys`; a table of columns is
        read by the stream's column names, in their order."""
        if groups is None:
            raise ValueError("this stream keeps one state per group: pass each batch's groups "
                             "(update(..., groups=...)).")
        names = _table_columns(groups)
        if self.columns is not None and names is not None:
            by_text = {str(c): c for c in names}
            absent = [c for c in self.columns if c not in by_text]
            if absent:
                raise ValueError(f"this batch's groups have no column {absent[0]!r} (columns: "
                                 f"{', '.join(map(str, names))}); the stream's group columns are {self.columns}.")
            groups = {c: groups[by_text[c]] for c in self.columns}
        keys = group_keys(groups, n_rows, missing=self.missing)
        if self.columns is not None and keys.columns != self.columns:
            if len(keys.columns) == 1 == len(self.columns):  # one unnamed (or otherwise named) column
                return replace(keys, columns=list(self.columns))
            raise ValueError(f"this batch has group columns {keys.columns} but the stream's are {self.columns}; "
                             "pass the same group columns with every batch.")
        return keys

    def updated(self, keys: GroupKeys, add: Callable[[Any, np.ndarray], Any]) -> GroupStreams:
        """New group states with one batch added: ``add(state, rows)`` returns the state of a group
        with the batch's ``rows`` (indices into the batch, in order) added to ``state`` (None for a
        group not seen before); it must not change ``state`` itself."""
        order = keys.order()
        starts = keys.starts()
        states = dict(self.states)
        for j, key in enumerate(keys.keys):
            rows = order[starts[j]:starts[j + 1]]
            if rows.size:
                states[key] = add(states.get(key), rows)
        return GroupStreams(keys.columns if self.columns is None else self.columns, self.missing, states)

    def compatible(self, other: GroupStreams) -> bool:
        """True when ``other`` reads groups alike (the same columns, where both know them)."""
        return self.missing == other.missing and (
            self.columns is None or other.columns is None or self.columns == other.columns)

    def merged(self, other: GroupStreams, merge: Callable[[Any, Any], Any]) -> GroupStreams:
        """The union of both streams' groups; a group in both gets ``merge(mine, theirs)`` (a new
        state)."""
        if not self.compatible(other):
            raise ValueError(f"cannot merge streams grouped differently (group columns {self.columns} vs "
                             f"{other.columns}, missing={self.missing!r} vs {other.missing!r}).")
        states = dict(self.states)
        for key, state in other.states.items():
            states[key] = merge(states[key], state) if key in states else state
        return GroupStreams(self.columns if self.columns is not None else other.columns, self.missing, states)

    def sorted_keys(self, sizes: Callable[[Any], int]) -> GroupKeys:
        """The groups seen, sorted and named as :func:`group_keys` sorts and names them (no rows:
        ``codes`` is empty; ``sizes``: ``sizes(state)``, each group's rows)."""
        if not self.states:
            raise ValueError("no group has any rows yet.")
        seen = list(self.states)
        columns = list(self.columns or ["group"])
        if len(columns) == 1:
            table: Any = _objects(seen)
        else:
            table = {c: _objects([k[j] for k in seen]) for j, c in enumerate(columns)}
        read = group_keys(table, len(seen), missing="keep")
        return GroupKeys(codes=np.zeros(0, dtype=np.int64), keys=read.keys, display=read.display, columns=columns,
                         sizes=np.array([sizes(self.states[k]) for k in read.keys], dtype=np.int64))

    def evaluations(self, overall: Any, result: Callable[[Any, str], Any], sizes: Callable[[Any], int]
                    ) -> GroupEvaluations:
        """The :class:`GroupEvaluations` of ``overall`` (the Evaluation of all rows): each group's
        Evaluation is ``result(state, display_name)``."""
        keys = self.sorted_keys(sizes)
        return GroupEvaluations(overall, keys, [result(self.states[k], d) for k, d in zip(keys.keys, keys.display)])


def _objects(values: list[Any]) -> np.ndarray:
    """``values`` as a 1-D object array (each value as it is: no common dtype imposed)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out
