"""What the group tests share: the delta method computed independently of clfeval (each case's
influence on a weighted metric, by central differences with respect to that case's weight, per
group and overall), and the sample weights their hypothesis strategies draw."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from hypothesis import strategies as st


def finite_difference_influences(value: Callable[[np.ndarray, np.ndarray], float], w: np.ndarray | None,
                                 g: np.ndarray, n: int) -> dict[str, np.ndarray]:
    """{group or "overall": each case's influence w_i * d metric / d w_i}. ``value(weights, rows)`` is
    the metric of the cases ``rows`` with those weights (e.g. scikit-learn's, with ``sample_weight``).

    >>> v = lambda w, rows: float(np.average(np.arange(4.0)[rows], weights=w[rows]))
    >>> [round(float(x), 6) for x in finite_difference_influences(v, None, np.array(["a"] * 4), 4)["overall"]]
    [-0.375, -0.125, 0.125, 0.375]
    """
    w = np.ones(n) if w is None else np.asarray(w, dtype=np.float64)
    members = {"overall": np.arange(n), **{key: np.flatnonzero(g == key) for key in np.unique(g)}}
    out = {key: np.zeros(n) for key in members}
    for i in range(n):
        h = 1e-6 * w[i]
        up, down = w.copy(), w.copy()
        up[i] += h
        down[i] -= h
        for key in ("overall", g[i]):
            rows = members[key]
            out[key][i] = w[i] * (value(up, rows) - value(down, rows)) / (2 * h)
    return out


def draw_group_weights(draw: Callable, rng: np.random.Generator, g: np.ndarray) -> np.ndarray | None:
    """Sample weights for rows in groups ``g``: none, small integers with zeros (never a whole
    group's), or floats of three scales.

    >>> from hypothesis import strategies as st
    >>> draw_group_weights(lambda s: None, np.random.default_rng(0), np.array(["a"])) is None
    True
    """
    weights = draw(st.sampled_from([None, "int", "float"]))
    if weights == "int":
        w = rng.integers(0, 4, g.size)
        for key in set(g.tolist()):  # zero weights, never a whole group's
            w[np.flatnonzero(g == key)[0]] = 1
        return w
    if weights == "float":
        return rng.random(g.size) * draw(st.sampled_from([1.0, 1e-3, 1e6]))
    return None
