"""Warnings and errors raised by clfeval.

>>> issubclass(UndefinedMetricWarning, UserWarning)
True
>>> err = ValuesError("y_score contains 1 infinite value(s); the first is at position 3.",
...                   argument="y_score", position=3, kind="infinite", value=float("inf"))
>>> isinstance(err, ValueError), err.argument, err.position, err.column
(True, 'y_score', 3, None)
>>> import pickle  # errors travel from Dask workers
>>> again = pickle.loads(pickle.dumps(err))
>>> str(again) == str(err), again.argument, again.position, again.kind
(True, 'y_score', 3, 'infinite')
"""

from __future__ import annotations

from typing import Any

__all__ = ["UndefinedMetricWarning", "ScoresBinnedWarning", "ValuesError"]


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined (0/0) for the given data and was set by ``zero_division``."""


class ScoresBinnedWarning(UserWarning):
    """A stream's scores were binned (too many distinct scores to keep): areas come with bounds."""


class ValuesError(ValueError):
    """A :class:`ValueError` about the values of one argument, with where the first bad one is.

    The message is the one users of the library read; the attributes let a caller (the ``clfeval``
    command) say the same in its own words: ``argument`` is the argument's name (``"y_true"``,
    ``"y_pred"``, ``"y_score"``, ``"sample_weight"``, ``"pos_label"``), ``position`` the 0-based
    sample (row) of the first bad value (None when the problem is not one value), ``column`` its
    column for a 2-D argument (else None), ``kind`` what is wrong (``"missing"``, ``"infinite"``,
    ``"non-finite"``, ``"negative"``, ``"not-in-labels"``, ``"not-a-class"``), ``value`` the bad
    value, ``count`` how many values are bad and ``allowed`` the values that were allowed (labels).
    """

    def __init__(self, message: str, *, argument: str = "", kind: str = "", position: int | None = None,
                 column: int | None = None, value: Any = None, count: int | None = None,
                 allowed: list[Any] | None = None) -> None:
        super().__init__(message)
        self.argument, self.kind, self.position, self.column = argument, kind, position, column
        self.value, self.count, self.allowed = value, count, allowed
