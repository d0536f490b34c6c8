"""The ``groups=`` argument of an evaluation: which slice each row belongs to.

``groups`` is one array (a list, numpy array, pandas/polars Series, pyarrow array), several
(a mapping name -> array, a pandas or polars DataFrame: its columns), and each distinct
combination of the columns' values present in the data is one group (the intersection of the
columns). Groups are sorted by value, a pandas categorical column's by the order of its categories. :func:`group_keys` reads it once into a :class:`GroupKeys`: one integer code per row,
the groups' keys in sorted order (a value for one column, a tuple for several) and their display
names.

Missing values in a group column are an error that names the count and the first row, unless
``missing="keep"`` makes them a group of their own (key None, shown as ``(missing)``).

>>> g = group_keys(["b", "a", "b", "c"])
>>> g.keys, g.codes.tolist(), g.columns
(['a', 'b', 'c'], [1, 0, 1, 2], ['group'])
>>> group_keys({"sex": ["F", "M", "F"], "age": [1, 1, 2]}).display
['F, 1', 'F, 2', 'M, 1']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.exceptions import ValuesError

__all__ = ["GroupKeys", "group_keys", "MISSING_NAME", "MAX_GROUPS", "GROUP_MISSING"]

#: how a missing group value appears in tables
MISSING_NAME = "(missing)"
#: groups beyond which tables are truncated (the evaluation itself keeps every group)
MAX_GROUPS = 10_000
#: what ``missing=`` may say
GROUP_MISSING = ("error", "keep")


@dataclass(frozen=True, eq=False)
class GroupKeys:
    """Rows -> groups. ``codes``: (n,) int64 group index per row; ``keys``: the groups in sorted
    order (None sorts last: the missing group); ``display``: their names as tables show them;
    ``columns``: the group columns' names; ``sizes``: rows per group."""

    codes: np.ndarray
    keys: list[Any]
    display: list[str]
    columns: list[str]
    sizes: np.ndarray

    @property
    def n_groups(self) -> int:
        return len(self.keys)

    def order(self) -> np.ndarray:
        """The row indices sorted by group, stably (rows of group j are ``order[starts[j]:starts[j+1]]``)."""
        return np.argsort(self.codes, kind="stable")

    def starts(self) -> np.ndarray:
        """(G + 1,) where each group's rows begin in :meth:`order`."""
        return np.concatenate([[0], np.cumsum(self.sizes)])


def _python(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _column(x: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(values, missing mask) of one group column, whatever library holds it."""
    module = type(x).__module__
    if module.startswith("pandas"):
        missing = np.asarray(x.isna(), dtype=bool)
        if str(x.dtype) == "category":
            values = np.asarray(x.astype(object), dtype=object)
        else:
            values = x.to_numpy(dtype=object) if missing.any() or x.dtype.kind not in "biuf" else x.to_numpy()
        return values, missing
    if module.startswith("polars"):
        missing = np.asarray(x.is_null().to_numpy(), dtype=bool)
        if str(x.dtype).startswith(("Categorical", "Enum")):
            x = x.cast(str)
        return np.asarray(x.to_list(), dtype=object) if missing.any() else x.to_numpy(), missing
    if module.startswith("pyarrow"):
        missing = np.asarray(x.is_null().to_numpy(zero_copy_only=False), dtype=bool)
        if str(x.type).startswith("dictionary"):
            x = x.cast(x.type.value_type)
        return np.asarray(x.to_pylist(), dtype=object), missing
    if isinstance(x, (str, bytes)) or np.isscalar(x):
        raise TypeError(f"{name} must be an array-like with one group per row, got a scalar {x!r}.")
    values = np.asarray(x)
    if values.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one group per row), got shape {values.shape}; pass several "
                         "group columns as a mapping name -> array or a DataFrame.")
    if values.dtype.kind in "fc":
        missing = np.isnan(values)
    elif values.dtype.kind == "O":
        missing = np.fromiter((v is None or (isinstance(v, float) and v != v) for v in values),
                              dtype=bool, count=values.size)
    elif values.dtype.kind == "M":
        missing = np.isnat(values)
    else:
        missing = np.zeros(values.shape, dtype=bool)
    return values, missing


def _columns_of(groups: Any) -> list[tuple[str, Any]]:
    module = type(groups).__module__
    if isinstance(groups, Mapping):
        cols = [(str(k), v) for k, v in groups.items()]
    elif module.startswith("pandas") and getattr(groups, "ndim", 1) == 2:
        cols = [(str(c), groups[c]) for c in groups.columns]
    elif module.startswith("polars") and hasattr(groups, "iter_columns"):
        cols = [(s.name, s) for s in groups.iter_columns()]
    elif module.startswith("pyarrow") and hasattr(groups, "column_names"):
        cols = [(c, groups.column(c)) for c in groups.column_names]
    else:
        name = getattr(groups, "name", None)
        cols = [(str(name) if isinstance(name, str) and name else "group", groups)]
    if not cols:
        raise ValueError("groups has no columns: pass an array with one group per row, or a mapping "
                         "name -> array.")
    names = [c for c, _ in cols]
    if len(set(names)) != len(names):
        dup = next(c for c in names if names.count(c) > 1)
        raise ValueError(f"groups names the column {dup!r} twice; each group column needs its own name.")
    return cols


def _unique_inverse(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sorted distinct values, index of each value among them): counted for integers of a small
    span, hashed (pandas' factorize) for other kinds when pandas is there, else sorted."""
    if values.dtype.kind in "iub" and values.size:
        lo, hi = int(values.min()), int(values.max())
        if hi - lo <= max(1 << 20, values.size):
            shifted = values.astype(np.int64) - lo
            present = np.flatnonzero(np.bincount(shifted, minlength=hi - lo + 1))
            lookup = np.zeros(hi - lo + 1, dtype=np.int64)
            lookup[present] = np.arange(present.size)
            return (present + lo).astype(values.dtype), lookup[shifted]
    if values.dtype.kind in "OUSf" and values.size > 10_000:
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - pandas comes with the test extra
            pd = None
        if pd is not None:
            codes, uniq = pd.factorize(values, sort=True)
            return np.asarray(uniq), codes.astype(np.int64)
    return np.unique(values, return_inverse=True)


def _codes_of(values: np.ndarray, missing: np.ndarray, name: str) -> tuple[np.ndarray, list[Any]]:
    """(codes (n,), sorted distinct values): missing rows get the code len(values) (sorted last)."""
    present = values[~missing] if missing.any() else values
    try:
        uniq, inv = _unique_inverse(present)
    except TypeError:  # values that do not order among themselves (mixed types): by their text
        text = np.array([repr(v) if not isinstance(v, str) else v for v in present], dtype=object)
        _, first, inv = np.unique(text, return_index=True, return_inverse=True)
        uniq = present[first]
    keys = [_python(v) for v in uniq]
    if not missing.any():
        return inv.reshape(-1).astype(np.int64), keys
    codes = np.full(values.shape[0], len(keys), dtype=np.int64)
    codes[~missing] = inv.reshape(-1)
    return codes, keys + [None]


def _category_codes(x: Any, missing: np.ndarray) -> tuple[np.ndarray, list[Any]]:
    """(codes, keys) of a pandas categorical column in the order of its categories (those present),
    missing values last, as :func:`_codes_of` gives them."""
    raw = np.asarray(x.cat.codes, dtype=np.int64)
    present = np.flatnonzero(np.bincount(raw[~missing], minlength=len(x.cat.categories)))
    lookup = np.full(len(x.cat.categories), -1, dtype=np.int64)
    lookup[present] = np.arange(present.size)
    keys = [_python(v) for v in np.asarray(x.cat.categories, dtype=object)[present]]
    codes = np.where(missing, present.size, lookup[np.maximum(raw, 0)])
    return codes, keys + ([None] if missing.any() else [])


def _missing_error(name: str, missing: np.ndarray) -> ValuesError:
    count = int(np.count_nonzero(missing))
    first = int(np.flatnonzero(missing)[0])
    return ValuesError(
        f"group column {name!r} has {count} missing value(s); the first is at row {first}. Drop or fill "
        "them, or keep them as a group of their own (evaluate(..., group_missing='keep'); --by-missing keep "
        "on the command line).",
        argument=name, kind="missing", count=count, position=first,
    )


def group_keys(groups: Any, n_rows: int | None = None, *, missing: str = "error") -> GroupKeys:
    """Read ``groups`` (see the module) into a :class:`GroupKeys`; ``n_rows``: the rows it must have.

    >>> group_keys([1.0, float("nan"), 1.0], missing="keep").display
    ['1.0', '(missing)']
    """
    if missing not in GROUP_MISSING:
        raise ValueError(f"missing must be 'error' or 'keep', got {missing!r}.")
    cols = _columns_of(groups)
    per_column = []
    for name, x in cols:
        values, miss = _column(x, f"groups[{name!r}]" if len(cols) > 1 else "groups")
        if n_rows is not None and values.shape[0] != n_rows:
            raise ValueError(f"y_true has {n_rows} samples but group column {name!r} has {values.shape[0]}.")
        if miss.any() and missing == "error":
            raise _missing_error(name, miss)
        if type(x).__module__.startswith("pandas") and str(getattr(x, "dtype", "")) == "category":
            per_column.append(_category_codes(x, miss))  # the categories' own order
        else:
            per_column.append(_codes_of(values, miss, name))
    if per_column[0][0].size == 0:
        raise ValueError("groups is empty: there is nothing to evaluate.")
    combined = per_column[0][0]
    radix = [len(k) for _, k in per_column]
    for (codes, _), r in zip(per_column[1:], radix[1:]):
        combined = combined * r + codes
    if len(per_column) == 1:
        codes, keys = per_column[0]
        sizes = np.bincount(codes, minlength=len(keys))
        key_tuples = [(k,) for k in keys]
    else:
        uniq, codes = np.unique(combined, return_inverse=True)
        codes = codes.reshape(-1).astype(np.int64)
        sizes = np.bincount(codes, minlength=uniq.size)
        key_tuples = []
        for c in uniq.tolist():
            parts = []
            for r in reversed(radix):
                parts.append(c % r)
                c //= r
            key_tuples.append(tuple(per_column[j][1][p] for j, p in enumerate(reversed(parts))))
        keys = key_tuples
    display = [", ".join(MISSING_NAME if v is None else str(v) for v in t) for t in key_tuples]
    return GroupKeys(codes=codes, keys=list(keys), display=display, columns=[c for c, _ in cols],
                     sizes=sizes.astype(np.int64))
