"""Evaluation protocols: how a data set is split into training and test parts.

Each protocol has scikit-learn's splitter interface (``split(X, y=None, groups=None)`` yields
``(train_index, test_index)`` numpy arrays; ``get_n_splits()``), a readable ``repr`` and a
``name`` / ``description`` for reports, so it works with :func:`clfeval.cross_evaluate` and with
scikit-learn's own ``cross_validate``.

* :class:`HoldOut` - one (or ``n_repeats``) random train/test split(s), stratified by default.
* :class:`KFold` - k-fold cross-validation, stratified by default, repeated ``n_repeats`` times.
* :class:`LeaveOneOut` - n folds of one test sample (one group each with ``groups=``).
* :class:`Bootstrap` - train on a bootstrap sample, test on the rows it did not draw (out of bag).
* :class:`FiveByTwo` - five repetitions of stratified 2-fold CV (Dietterich's 5x2cv design).
* :class:`TrainValidationTest` - a tuning split: ``split3`` yields (train, validation, test);
  ``.validation`` is the protocol to tune on and the object itself tests the final model.
* :class:`PredefinedSplits` - splits you already have.

Grouped splits: pass ``groups=`` to ``split`` and :class:`HoldOut`, :class:`KFold`,
:class:`LeaveOneOut`, :class:`Bootstrap` keep every group on one side (scikit-learn's
GroupShuffleSplit, GroupKFold / StratifiedGroupKFold, LeaveOneGroupOut; groups drawn whole
for the bootstrap).

scikit-learn's splitters do the work wherever they exist (imported when a protocol is used, never
at import time); only the bootstrap and the three-way split are written here.

>>> import numpy as np
>>> y = np.array([0, 1] * 5)
>>> p = KFold(5, random_state=0)
>>> p
KFold(n_splits=5, stratify=True, n_repeats=1, shuffle=True, random_state=0)
>>> p.name, p.get_n_splits()
('stratified 5-fold CV', 5)
>>> [len(test) for _, test in p.split(np.zeros((10, 1)), y)]
[2, 2, 2, 2, 2]
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "Protocol",
    "HoldOut",
    "KFold",
    "LeaveOneOut",
    "Bootstrap",
    "FiveByTwo",
    "TrainValidationTest",
    "PredefinedSplits",
    "require_sklearn",
    "n_samples_of",
]

Split = tuple[np.ndarray, np.ndarray]
EXTRA = "pip install 'clfeval[protocols]'"


def require_sklearn(what: str = "evaluation protocols") -> Any:
    """The ``sklearn.model_selection`` module, or an ImportError naming the extra to install.

    Parameters
    ----------
    what : str, default="evaluation protocols"
        What needs scikit-learn, for the error message.

    Returns
    -------
    module
        ``sklearn.model_selection``.

    Examples
    --------
    >>> require_sklearn().__name__
    'sklearn.model_selection'
    """
    try:
        import sklearn.model_selection as ms
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(f"{what} need scikit-learn: {EXTRA}") from exc
    return ms


def n_samples_of(X: Any) -> int:
    """Number of rows of an array-like (numpy, pandas, lists, sparse matrices).

    Parameters
    ----------
    X : array-like
        Anything with a ``shape`` (its first entry counts) or a length; a TypeError otherwise.

    Returns
    -------
    int
        The number of rows.

    Examples
    --------
    >>> n_samples_of([[1, 2], [3, 4], [5, 6]])
    3
    """
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) > 0:
        return int(shape[0])
    if hasattr(X, "__len__"):
        return len(X)
    raise TypeError(f"X must be an array-like of samples (rows), got {type(X).__name__}.")


def _rng(random_state: Any) -> np.random.Generator:
    """A numpy Generator from None, an int, a Generator or a legacy RandomState."""
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**31 - 1))
    return np.random.default_rng(random_state)


def _check_int(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}.")
    return int(value)


def _check_size(value: Any, name: str) -> float | int:
    """A test/validation size: a fraction in (0, 1) or a positive number of samples."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a fraction in (0, 1) or a number of samples, got {value!r}.")
    if isinstance(value, numbers.Integral):
        if value < 1:
            raise ValueError(f"{name} as a number of samples must be >= 1, got {value!r}.")
        return int(value)
    if not 0.0 < float(value) < 1.0:
        raise ValueError(f"{name} as a fraction must be between 0 and 1 (exclusive), got {value!r}.")
    return float(value)


def _rows(X: Any, y: Any) -> int:
    if X is not None:
        return n_samples_of(X)
    if y is not None:
        return n_samples_of(y)
    raise ValueError("split needs X (or y) to know how many samples there are.")


def _labels_of(y: Any, n: int, protocol: str) -> np.ndarray:
    if y is None:
        raise ValueError(f"{protocol} is stratified, so split needs y; pass y or stratify=False.")
    arr = np.asarray(y)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(f"y must be 1-D with one label per row of X ({n}), got shape {arr.shape}.")
    return arr


def _check_strata(y: np.ndarray, n_splits: int, protocol: str) -> None:
    """Every class needs at least ``n_splits`` members, so that each fold can hold one."""
    classes, counts = np.unique(y, return_counts=True)
    i = int(np.argmin(counts))
    if counts[i] < n_splits:
        raise ValueError(
            f"{protocol}: class {classes[i].item()!r} has only {int(counts[i])} member(s), fewer than "
            f"n_splits={n_splits}; stratified folds need at least one of each class per fold. Use fewer "
            "folds, stratify=False, or merge rare classes."
        )


def _groups_of(groups: Any, n: int) -> np.ndarray:
    g = np.asarray(groups)
    if g.ndim != 1 or g.shape[0] != n:
        raise ValueError(f"groups must be 1-D with one group per row of X ({n}), got shape {g.shape}.")
    return g


def _as_index_pair(train: Any, test: Any) -> Split:
    return np.asarray(train, dtype=np.intp), np.asarray(test, dtype=np.intp)


class Protocol:
    """Base of clfeval's protocols: scikit-learn's splitter interface plus a name.

    Subclasses define :meth:`split`, :meth:`get_n_splits`, ``name`` and ``n_repeats`` (the number
    of independent repetitions: the splits of one repetition are consecutive).

    Examples
    --------
    >>> p = KFold(5).with_random_state(0)
    >>> isinstance(p, Protocol), p.random_state, p.n_repeats
    (True, 0, 1)
    >>> p.description
    'stratified 5-fold CV: KFold(n_splits=5, stratify=True, n_repeats=1, shuffle=True, random_state=0)'
    """

    n_repeats: int = 1

    @property
    def name(self) -> str:
        """Short name for tables and legends, e.g. "stratified 10-fold CV"."""
        raise NotImplementedError

    @property
    def description(self) -> str:
        """One sentence for reports."""
        return f"{self.name}: {self!r}"

    def split(self, X: Any, y: Any = None, groups: Any = None) -> Iterator[Split]:
        raise NotImplementedError

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        raise NotImplementedError

    def with_random_state(self, random_state: Any) -> Protocol:
        """This protocol with ``random_state`` where it has none (itself when it has one or draws nothing)."""
        if getattr(self, "random_state", 0) is None and random_state is not None:
            return dataclasses.replace(self, random_state=random_state)  # type: ignore[type-var]
        return self


@dataclass(frozen=True)
class HoldOut(Protocol):
    """Hold-out: train on one part, test on the rest; ``n_repeats`` independent random splits.

    ``test_size``: fraction of the rows or a number of rows. Stratified by default (class shares
    kept in both parts). With ``groups=`` the split is grouped (scikit-learn's GroupShuffleSplit:
    ``test_size`` is then a share of the groups) and cannot also be stratified.

    Parameters
    ----------
    test_size : float or int, default=0.25
        The test part: a fraction of the rows in (0, 1), or a number of rows (at least 1).
    stratify : bool, default=True
        Keep the class shares in both parts (``split`` then needs ``y``, and every class needs
        at least 2 members).
    n_repeats : int, default=1
        Number of independent random splits.
    random_state : int, numpy.random.RandomState or None, default=None
        Seed of the splits; None draws fresh ones each call.

    Examples
    --------
    >>> import numpy as np
    >>> train, test = next(HoldOut(0.25, random_state=0).split(np.zeros((8, 1)), [0, 0, 0, 0, 1, 1, 1, 1]))
    >>> len(train), len(test)
    (6, 2)
    >>> HoldOut(0.2, n_repeats=3).name, HoldOut(5, stratify=False).get_n_splits()
    ('3x stratified hold-out (20% test)', 1)
    """

    test_size: float | int = 0.25
    stratify: bool = True
    n_repeats: int = 1
    random_state: Any = None

    def __post_init__(self) -> None:
        _check_size(self.test_size, "test_size")
        _check_int(self.n_repeats, "n_repeats", 1)

    @property
    def name(self) -> str:
        kind = "stratified hold-out" if self.stratify else "hold-out"
        size = f"{self.test_size:.0%}" if isinstance(self.test_size, float) else f"{self.test_size} rows"
        rep = f"{self.n_repeats}x " if self.n_repeats > 1 else ""
        return f"{rep}{kind} ({size} test)"

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        return self.n_repeats

    def split(self, X: Any, y: Any = None, groups: Any = None) -> Iterator[Split]:
        ms = require_sklearn()
        n = _rows(X, y)
        kwargs = dict(n_splits=self.n_repeats, test_size=self.test_size, random_state=self.random_state)
        if groups is not None:
            splitter = ms.GroupShuffleSplit(**kwargs)
            yield from (_as_index_pair(a, b) for a, b in splitter.split(np.zeros(n), None, _groups_of(groups, n)))
            return
        if self.stratify:
            labels = _labels_of(y, n, "HoldOut")
            _check_strata(labels, 2, "HoldOut")
            splitter = ms.StratifiedShuffleSplit(**kwargs)
        else:
            labels = None
            splitter = ms.ShuffleSplit(**kwargs)
        yield from (_as_index_pair(a, b) for a, b in splitter.split(np.zeros(n), labels))


@dataclass(frozen=True)
class KFold(Protocol):
    """k-fold cross-validation, stratified by default, repeated ``n_repeats`` times.

    Each repetition is a fresh shuffle (scikit-learn's (Repeated)(Stratified)KFold, so the
    indices equal scikit-learn's for the same ``random_state``). With ``groups=``: GroupKFold, or
    StratifiedGroupKFold when stratified; every group lands in one fold.

    Parameters
    ----------
    n_splits : int, default=10
        Number of folds (at least 2).
    stratify : bool, default=True
        Keep the class shares in every fold (``split`` then needs ``y``, and every class needs at
        least ``n_splits`` members).
    n_repeats : int, default=1
        Number of repetitions, each with a fresh shuffle (more than 1 needs ``shuffle=True``).
    shuffle : bool, default=True
        Shuffle the rows before cutting them into folds; False keeps their order.
    random_state : int, numpy.random.RandomState or None, default=None
        Seed of the shuffles; None draws fresh ones each call.

    Examples
    --------
    >>> KFold(10, n_repeats=10, random_state=1).name
    '10x stratified 10-fold CV'
    >>> import numpy as np
    >>> [t.tolist() for _, t in KFold(3, stratify=False, shuffle=False).split(np.zeros((6, 1)))]
    [[0, 1], [2, 3], [4, 5]]
    """

    n_splits: int = 10
    stratify: bool = True
    n_repeats: int = 1
    shuffle: bool = True
    random_state: Any = None

    def __post_init__(self) -> None:
        _check_int(self.n_splits, "n_splits", 2)
        _check_int(self.n_repeats, "n_repeats", 1)
        if self.n_repeats > 1 and not self.shuffle:
            raise ValueError(
                f"n_repeats={self.n_repeats} without shuffling would repeat the same folds; pass shuffle=True."
            )

    @property
    def name(self) -> str:
        kind = "stratified " if self.stratify else ""
        rep = f"{self.n_repeats}x " if self.n_repeats > 1 else ""
        return f"{rep}{kind}{self.n_splits}-fold CV"

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        return self.n_splits * self.n_repeats

    def split(self, X: Any, y: Any = None, groups: Any = None) -> Iterator[Split]:
        ms = require_sklearn()
        n = _rows(X, y)
        if self.n_splits > n:
            raise ValueError(f"KFold: n_splits={self.n_splits} is more than the {n} samples; use at most {n} folds.")
        labels = None
        if self.stratify:
            labels = _labels_of(y, n, "KFold")
            _check_strata(labels, self.n_splits, "KFold")
        if groups is not None:
            yield from self._grouped(ms, n, labels, _groups_of(groups, n))
            return
        state = self.random_state if self.shuffle else None
        if self.n_repeats > 1:
            cls = ms.RepeatedStratifiedKFold if self.stratify else ms.RepeatedKFold
            splitter = cls(n_splits=self.n_splits, n_repeats=self.n_repeats, random_state=state)
        else:
            cls = ms.StratifiedKFold if self.stratify else ms.KFold
            splitter = cls(n_splits=self.n_splits, shuffle=self.shuffle, random_state=state)
        yield from (_as_index_pair(a, b) for a, b in splitter.split(np.zeros(n), labels))

    def _grouped(self, ms: Any, n: int, labels: np.ndarray | None, groups: np.ndarray) -> Iterator[Split]:
        n_groups = np.unique(groups).size
        if self.n_splits > n_groups:
            raise ValueError(f"KFold: n_splits={self.n_splits} is more than the {n_groups} groups.")
        rng = _rng(self.random_state)
        for _ in range(self.n_repeats):
            state = int(rng.integers(2**31 - 1)) if self.shuffle else None
            if self.stratify:
                splitter = ms.StratifiedGroupKFold(self.n_splits, shuffle=self.shuffle, random_state=state)
            else:
                splitter = ms.GroupKFold(self.n_splits, shuffle=self.shuffle, random_state=state)
            yield from (_as_index_pair(a, b) for a, b in splitter.split(np.zeros(n), labels, groups))


@dataclass(frozen=True)
class FiveByTwo(KFold):
    """Five repetitions of stratified 2-fold CV: the design of Dietterich's 5x2cv paired t test
    and Alpaydin's combined F test (see :meth:`clfeval.cross_evaluation.CrossEvaluation.compare`).

    Parameters
    ----------
    stratify : bool, default=True
        Keep the class shares in both halves of each repetition.
    random_state : int, numpy.random.RandomState or None, default=None
        Seed of the five shuffles; None draws fresh ones each call.

    Examples
    --------
    >>> FiveByTwo(random_state=0).get_n_splits()
    10
    >>> FiveByTwo(stratify=False).name
    '5x2 CV'
    """

    n_splits: int = field(default=2, init=False)
    n_repeats: int = field(default=5, init=False)
    shuffle: bool = field(default=True, init=False)
    stratify: bool = True
    random_state: Any = None

    def __repr__(self) -> str:
        return f"FiveByTwo(stratify={self.stratify!r}, random_state={self.random_state!r})"

    @property
    def name(self) -> str:
        return "5x2 CV" if not self.stratify else "stratified 5x2 CV"


@dataclass(frozen=True)
class LeaveOneOut(Protocol):
    """Leave-one-out: n folds, each testing one sample (with ``groups=``: one group per fold).

    It takes no arguments; the number of folds comes from the data.

    Examples
    --------
    >>> import numpy as np
    >>> [t.tolist() for _, t in LeaveOneOut().split(np.zeros((3, 1)))]
    [[0], [1], [2]]
    >>> LeaveOneOut().get_n_splits(groups=["a", "a", "b", "c"])
    3
    """

    @property
    def name(self) -> str:
        return "leave-one-out"

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        if groups is not None:
            return int(np.unique(np.asarray(groups)).size)
        if X is None and y is None:
            raise ValueError("LeaveOneOut.get_n_splits needs X (or y): it has one split per sample.")
        return _rows(X, y)

    def split(self, X: Any, y: Any = None, groups: Any = None) -> Iterator[Split]:
        ms = require_sklearn()
        n = _rows(X, y)
        if n < 2:
            raise ValueError(f"LeaveOneOut needs at least 2 samples, got {n}.")
        if groups is not None:
            g = _groups_of(groups, n)
            yield from (_as_index_pair(a, b) for a, b in ms.LeaveOneGroupOut().split(np.zeros(n), None, g))
            return
        yield from (_as_index_pair(a, b) for a, b in ms.LeaveOneOut().split(np.zeros(n)))


@dataclass(frozen=True)
class Bootstrap(Protocol):
    """Bootstrap with out-of-bag testing: train on n rows drawn with replacement, test on the
    rows never drawn (about 1 - 1/e = 36.8% of them).

    The train index holds duplicates on purpose: the estimator sees repeated rows, which is what
    the bootstrap is. ``stratify``: draw within each class (class counts kept in every bag).
    ``groups=``: draw whole groups with replacement (cluster bootstrap); out of bag are the
    groups not drawn. A bag whose out-of-bag part is empty (possible only for tiny data) is
    drawn again. Each bag counts as its own repetition. The .632 and .632+ estimators are in
    :meth:`clfeval.cross_evaluation.CrossEvaluation.bootstrap_estimates`.

    Parameters
    ----------
    n_bootstraps : int, default=200
        Number of bags (at least 1).
    stratify : bool, default=False
        Draw each bag within the classes, so that every bag keeps the class counts (``split``
        then needs ``y``; not with ``groups=``).
    random_state : int, numpy.random.Generator, numpy.random.RandomState or None, default=None
        Seed of the draws; None draws fresh bags each call.

    Examples
    --------
    >>> import numpy as np
    >>> train, test = next(Bootstrap(3, random_state=0).split(np.zeros((6, 1))))
    >>> len(train), bool(np.isin(test, train).any())
    (6, False)
    """

    n_bootstraps: int = 200
    stratify: bool = False
    random_state: Any = None

    def __post_init__(self) -> None:
        _check_int(self.n_bootstraps, "n_bootstraps", 1)

    @property
    def n_repeats(self) -> int:  # type: ignore[override]
        return self.n_bootstraps

    @property
    def name(self) -> str:
        kind = "stratified bootstrap" if self.stratify else "bootstrap"
        return f"{kind} ({self.n_bootstraps} bags, out-of-bag test)"

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        return self.n_bootstraps

    def split(self, X: Any, y: Any = None, groups: Any = None) -> Iterator[Split]:
        n = _rows(X, y)
        if n < 2:
            raise ValueError(f"Bootstrap needs at least 2 samples, got {n}.")
        rng = _rng(self.random_state)
        if groups is not None:
            if self.stratify:
                raise ValueError("Bootstrap: a grouped bootstrap cannot also be stratified; pass stratify=False.")
            draw = self._group_drawer(_groups_of(groups, n))
        elif self.stratify:
            labels = _labels_of(y, n, "Bootstrap")
            members = [np.flatnonzero(labels == c) for c in np.unique(labels)]

            def draw(rng: np.random.Generator) -> np.ndarray:
                return np.concatenate([m[rng.integers(0, m.size, m.size)] for m in members])
        else:

            def draw(rng: np.random.Generator) -> np.ndarray:
                return rng.integers(0, n, n)

        for _ in range(self.n_bootstraps):
            for _attempt in range(1000):
                train = np.sort(draw(rng)).astype(np.intp)
                drawn = np.zeros(n, dtype=bool)
                drawn[train] = True
                test = np.flatnonzero(~drawn).astype(np.intp)
                if test.size:
                    break
            else:  # pragma: no cover - needs a pathological data set
                raise ValueError("Bootstrap: every bag drew every sample; the data set is too small to bootstrap.")
            yield train, test

    @staticmethod
    def _group_drawer(groups: np.ndarray) -> Any:
        uniq, codes = np.unique(groups, return_inverse=True)
        if uniq.size < 2:
            raise ValueError("Bootstrap with groups needs at least 2 groups.")
        order = np.argsort(codes, kind="stable")
        bounds = np.r_[0, np.cumsum(np.bincount(codes, minlength=uniq.size))]

        def draw(rng: np.random.Generator) -> np.ndarray:
            picked = rng.integers(0, uniq.size, uniq.size)
            return np.concatenate([order[bounds[g]:bounds[g + 1]] for g in picked])

        return draw


@dataclass(frozen=True)
class PredefinedSplits(Protocol):
    """Splits you already have: a sequence of (train, test) index pairs.

    ``n_repeats``: how many repetitions the splits form (consecutive, equal numbers of splits).

    Parameters
    ----------
    splits : sequence of (array-like, array-like)
        The (train indices, test indices) pairs, at least one.
    n_repeats : int, default=1
        How many repetitions the splits form; their number must be a multiple of it.
    label : str, default="predefined splits"
        The protocol's ``name`` in tables and reports.

    Examples
    --------
    >>> p = PredefinedSplits([([0, 1], [2]), ([1, 2], [0])])
    >>> p.get_n_splits(), [t.tolist() for _, t in p.split(None)]
    (2, [[2], [0]])
    >>> PredefinedSplits([([0, 1], [2]), ([1, 2], [0])], n_repeats=2, label="my folds")
    PredefinedSplits(<2 splits>, n_repeats=2, label='my folds')
    """

    splits: Sequence[Any] = ()
    n_repeats: int = 1
    label: str = "predefined splits"

    def __post_init__(self) -> None:
        pairs = tuple(_as_index_pair(*pair) for pair in self.splits)
        if not pairs:
            raise ValueError("PredefinedSplits needs at least one (train, test) pair.")
        _check_int(self.n_repeats, "n_repeats", 1)
        if len(pairs) % self.n_repeats:
            raise ValueError(f"{len(pairs)} splits cannot form n_repeats={self.n_repeats} equal repetitions.")
        object.__setattr__(self, "splits", pairs)

    def __repr__(self) -> str:
        return f"PredefinedSplits(<{len(self.splits)} splits>, n_repeats={self.n_repeats}, label={self.label!r})"

    @property
    def name(self) -> str:
        return self.label

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        return len(self.splits)

    def split(self, X: Any = None, y: Any = None, groups: Any = None) -> Iterator[Split]:
        if X is not None or y is not None:
            n = _rows(X, y)
            top = max(int(max(a.max(initial=-1), b.max(initial=-1))) for a, b in self.splits)
            if top >= n:
                raise ValueError(f"the predefined splits index row {top}, but the data has {n} rows.")
        yield from ((a.copy(), b.copy()) for a, b in self.splits)


@dataclass(frozen=True)
class TrainValidationTest(Protocol):
    """A tuning split into train, validation and test parts (stratified by default).

    Tune on validation, never on test: ``split3(X, y)`` yields (train, validation, test);
    ``.validation`` is a protocol yielding (train, validation) - evaluate candidate settings with
    it; the object itself yields (train + validation, test) - the one final evaluation of the
    chosen model. Sizes are fractions of all rows (or numbers of rows); the same
    ``random_state`` gives the same three parts in all three views. Needs an int random_state
    (or None for fresh randomness each call, which breaks the link between the views).

    Parameters
    ----------
    validation_size : float or int, default=0.2
        The validation part: a fraction of all rows in (0, 1), or a number of rows.
    test_size : float or int, default=0.2
        The test part: a fraction of all rows in (0, 1), or a number of rows; two fractions must
        leave rows to train on.
    stratify : bool, default=True
        Keep the class shares in all three parts (``split`` then needs ``y``).
    random_state : int or None, default=None
        Seed of the split; None draws a fresh one each call.

    Examples
    --------
    >>> import numpy as np
    >>> tvt = TrainValidationTest(0.2, 0.2, random_state=0)
    >>> y = np.array([0, 1] * 10)
    >>> train, val, test = next(tvt.split3(np.zeros((20, 1)), y))
    >>> len(train), len(val), len(test)
    (12, 4, 4)
    >>> [len(t) for t in next(tvt.split(np.zeros((20, 1)), y))]
    [16, 4]
    """

    validation_size: float | int = 0.2
    test_size: float | int = 0.2
    stratify: bool = True
    random_state: Any = None

    def __post_init__(self) -> None:
        v = _check_size(self.validation_size, "validation_size")
        t = _check_size(self.test_size, "test_size")
        if isinstance(v, float) and isinstance(t, float) and v + t >= 1.0:
            raise ValueError(f"validation_size + test_size must leave rows to train on, got {v} + {t} >= 1.")

    @property
    def name(self) -> str:
        kind = "stratified " if self.stratify else ""
        return f"{kind}train/validation/test split"

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        return 1

    @property
    def validation(self) -> ValidationView:
        """The (train, validation) protocol for tuning."""
        return ValidationView(self)

    def split3(self, X: Any, y: Any = None, groups: Any = None) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Yield the one (train, validation, test) triple."""
        n = _rows(X, y)
        y_arr = None if y is None else np.asarray(y)
        rest, test = next(HoldOut(self.test_size, self.stratify, 1, self.random_state).split(X, y, groups))
        n_val = self._absolute(self.validation_size, n)
        if n_val >= rest.size:
            raise ValueError(f"validation_size={self.validation_size!r} leaves no training rows ({rest.size} left after test).")
        inner = HoldOut(n_val, self.stratify, 1, self._inner_state())
        sub_y = None if y_arr is None else y_arr[rest]
        sub_g = None if groups is None else np.asarray(groups)[rest]
        train, val = next(inner.split(np.zeros(rest.size), sub_y, sub_g))
        yield np.sort(rest[train]), np.sort(rest[val]), test

    def split(self, X: Any, y: Any = None, groups: Any = None) -> Iterator[Split]:
        for train, val, test in self.split3(X, y, groups):
            yield np.sort(np.concatenate([train, val])), test

    def _inner_state(self) -> Any:
        return None if self.random_state is None else _rng(self.random_state).integers(2**31 - 1).item()

    @staticmethod
    def _absolute(size: float | int, n: int) -> int:
        return int(size) if isinstance(size, numbers.Integral) else max(1, int(round(size * n)))


@dataclass(frozen=True)
class ValidationView(Protocol):
    """The (train, validation) view of a :class:`TrainValidationTest` (its ``.validation``)."""

    parent: TrainValidationTest

    @property
    def name(self) -> str:
        return f"validation part of a {self.parent.name}"

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        return 1

    def split(self, X: Any, y: Any = None, groups: Any = None) -> Iterator[Split]:
        for train, val, _test in self.parent.split3(X, y, groups):
            yield train, val
