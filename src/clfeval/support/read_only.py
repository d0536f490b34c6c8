"""Arrays that cannot be written: what frozen result objects hand out.

>>> a = read_only_array([1, 2, 3])
>>> a.flags.writeable, a.dtype.name
(False, 'float64')
>>> source = np.array([1, 2])
>>> b = read_only_array(source, dtype=None, copy=True)
>>> source[0] = 9
>>> b.tolist(), b.flags.writeable
([1, 2], False)
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["read_only_array"]


def read_only_array(a: Any, dtype: Any = np.float64, *, copy: bool = False) -> np.ndarray:
    """``a`` as an array (of ``dtype``; None keeps its own) that refuses writes: a read-only view
    of it, or with ``copy=True`` a read-only copy that later writes to ``a`` do not reach."""
    out = np.array(a, dtype=dtype) if copy else np.asarray(a, dtype=dtype).view()
    out.flags.writeable = False
    return out
