"""JSON cleaning, in one place: plain Python made valid for strict JSON.

Results give plain Python (``to_dict()``) with NaN and infinities kept as floats where that is
what they are; :func:`json_safe` makes such data valid for strict JSON (NaN -> None, +-inf ->
"inf" / "-inf"); :func:`nan_to_none` is the NaN half alone, for results that keep
infinities as floats.

>>> json_safe({"auc": float("nan"), "threshold": float("inf")})
{'auc': None, 'threshold': 'inf'}
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["json_safe", "nan_to_none"]


def nan_to_none(value: float) -> float | None:
    """``value`` as a float, or None where it is NaN (infinities stay floats).

    >>> nan_to_none(float("nan")), nan_to_none(2), nan_to_none(float("-inf"))
    (None, 2.0, -inf)
    """
    v = float(value)
    return None if v != v else v


def json_safe(obj: Any) -> Any:
    """Plain-Python data made valid for strict JSON: NaN -> None, +-inf -> "inf" / "-inf".

    Dict keys become strings, tuples and arrays lists, numpy scalars Python numbers, and any
    other object its ``str``.

    Parameters
    ----------
    obj : object
        Nested dicts, lists, tuples, arrays, numbers, strings and None.

    Returns
    -------
    object
        The same structure, built only of dict, list, str, int, float, bool and None.

    Examples
    --------
    >>> json_safe({"a": [1.0, float("nan"), float("inf")], "b": np.int64(3)})
    {'a': [1.0, None, 'inf'], 'b': 3}
    """
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return json_safe(obj.tolist())
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        v = nan_to_none(float(obj))
        if v is None:
            return None
        if v in (float("inf"), float("-inf")):
            return "inf" if v > 0 else "-inf"
        return v
    if obj is None or isinstance(obj, str):
        return obj
    return str(obj)
