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

Code written for scikit-learn catches clfeval's warnings with scikit-learn's classes (see
:class:`SklearnTwinWarning`); clfeval itself never imports scikit-learn:

>>> import warnings
>>> from sklearn.exceptions import UndefinedMetricWarning as SkUndefined
>>> from clfeval.metrics import precision_score
>>> with warnings.catch_warnings():
...     warnings.simplefilter("error", SkUndefined)
...     try:
...         precision_score([0, 1], [0, 0])
...     except SkUndefined as caught:
...         print(type(caught).__module__, issubclass(type(caught), SkUndefined))
clfeval.exceptions True
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["SklearnTwinWarning", "UndefinedMetricWarning", "ScoresBinnedWarning", "ValuesError",
           "link_sklearn_twins"]

#: the module whose classes clfeval's twins join when it is imported (never imported by clfeval)
SKLEARN_EXCEPTIONS = "sklearn.exceptions"


class SklearnTwinWarning(UserWarning):
    """A clfeval warning that scikit-learn users filter and catch under scikit-learn's class.

    A subclass names its scikit-learn twin in ``sklearn_twin`` (a class name in
    ``sklearn.exceptions``). Whenever a twin warning is created (``warnings.warn`` creates it
    before it consults the filters) and ``sklearn.exceptions`` is already imported, the
    subclass also becomes a subclass of scikit-learn's class: ``warnings.filterwarnings(...,
    category=...)``, ``warnings.simplefilter("error", ...)`` + ``except ...``, ``pytest.warns(...)``
    and pytest's ``filterwarnings`` marks written for scikit-learn then act on clfeval's warning
    too, and clfeval's own class keeps catching it. (Python's own ``-W`` option ignores a category
    of a module not yet imported, scikit-learn's included.) The check is a dictionary
    look-up; scikit-learn is never imported here (code that filters on scikit-learn's class has
    imported it already).

    Parameters
    ----------
    *args : object
        The warning's arguments, as for any :class:`Warning`; usually one message string.

    Examples
    --------
    >>> issubclass(UndefinedMetricWarning, SklearnTwinWarning), UndefinedMetricWarning.sklearn_twin
    (True, 'UndefinedMetricWarning')
    >>> str(SklearnTwinWarning("a message"))
    'a message'
    """

    sklearn_twin = ""

    def __init__(self, *args: Any) -> None:
        if SKLEARN_EXCEPTIONS in sys.modules:
            link_sklearn_twins()
        super().__init__(*args)


class UndefinedMetricWarning(SklearnTwinWarning):
    """A metric is undefined (0/0) for the given data and was set by ``zero_division``.

    Parameters
    ----------
    *args : object
        The warning's arguments; clfeval passes one message saying which metric and why.

    Examples
    --------
    Precision of a class that is never predicted is 0/0:

    >>> import warnings
    >>> from clfeval.metrics import precision_score
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = precision_score([0, 1], [0, 0])
    >>> value, caught[0].category.__name__
    (0.0, 'UndefinedMetricWarning')
    """

    sklearn_twin = "UndefinedMetricWarning"


def link_sklearn_twins() -> list[str]:
    """Make each twin warning a subclass of its scikit-learn class, if scikit-learn's are loaded.

    Idempotent and cheap; called by every twin warning as it is created, and at the import of
    this module. Returns the names linked so far (empty while ``sklearn.exceptions`` is not
    imported; it is never imported here).

    Returns
    -------
    list of str
        Names of clfeval's warning classes that are subclasses of their scikit-learn twin.

    Examples
    --------
    >>> set(link_sklearn_twins()) <= {"UndefinedMetricWarning"}
    True
    """
    module = sys.modules.get(SKLEARN_EXCEPTIONS)
    linked: list[str] = []
    for twin in _TWINS:
        theirs = getattr(module, twin.sklearn_twin, None) if module is not None else None
        if not (isinstance(theirs, type) and issubclass(theirs, Warning)):
            continue  # not loaded (or still loading): try again at the next warning
        if not issubclass(twin, theirs):
            # SklearnTwinWarning stays first: clfeval's hierarchy is kept, scikit-learn's is added
            twin.__bases__ = (*twin.__bases__, theirs)
        linked.append(twin.__name__)
    return linked


class ScoresBinnedWarning(UserWarning):
    """A stream's scores were binned (too many distinct scores to keep): areas come with bounds.

    Examples
    --------
    A stream allowed three distinct scores that sees five:

    >>> import warnings
    >>> from clfeval import StreamingEvaluation
    >>> stream = StreamingEvaluation(max_distinct=3)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = stream.update([0, 1, 0, 1, 1], y_score=[0.1, 0.8, 0.3, 0.6, 0.9])
    >>> caught[0].category.__name__, stream.binned
    ('ScoresBinnedWarning', True)
    """


class ValuesError(ValueError):
    """A :class:`ValueError` about the values of one argument, with where the first bad one is.

    The message is the one users of the library read; the attributes let a caller (the ``clfeval``
    command) say the same in its own words: ``argument`` is the argument's name (``"y_true"``,
    ``"y_pred"``, ``"y_score"``, ``"sample_weight"``, ``"pos_label"``), ``position`` the 0-based
    sample (row) of the first bad value (None when the problem is not one value), ``column`` its
    column for a 2-D argument (else None), ``kind`` what is wrong (``"missing"``, ``"infinite"``,
    ``"non-finite"``, ``"negative"``, ``"not-in-labels"``, ``"not-a-class"``), ``value`` the bad
    value, ``count`` how many values are bad and ``allowed`` the values that were allowed (labels).

    Parameters
    ----------
    message : str
        The error message shown to users.
    argument : str, default ""
        Name of the argument whose values are wrong.
    kind : str, default ""
        What is wrong with the value, one of the kinds listed above.
    position : int, optional
        0-based row of the first bad value; default None when no single value is at fault.
    column : int, optional
        Column of the first bad value in a 2-D argument; default None.
    value : object, optional
        The first bad value itself; default None.
    count : int, optional
        How many values are bad; default None when not counted.
    allowed : list, optional
        The values that would have been accepted (e.g. the labels); default None.

    Examples
    --------
    >>> import clfeval
    >>> try:
    ...     clfeval.evaluate([0, 1, 1], [0, 1, float("nan")])
    ... except ValuesError as err:
    ...     print(err.argument, err.position, err.kind)
    y_pred 2 missing
    """

    def __init__(self, message: str, *, argument: str = "", kind: str = "", position: int | None = None,
                 column: int | None = None, value: Any = None, count: int | None = None,
                 allowed: list[Any] | None = None) -> None:
        super().__init__(message)
        self.argument, self.kind, self.position, self.column = argument, kind, position, column
        self.value, self.count, self.allowed = value, count, allowed


#: clfeval's warnings that have a scikit-learn twin (scikit-learn's metrics raise plain ValueError
#: and TypeError, which clfeval's errors subclass already; no other sklearn.exceptions class is mirrored)
_TWINS: tuple[type[SklearnTwinWarning], ...] = (UndefinedMetricWarning,)
link_sklearn_twins()
