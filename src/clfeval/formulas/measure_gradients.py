"""Exact gradients of the measures of :mod:`clfeval.formulas.measures` with respect to the cells of a table.

The delta method's standard error of a measure f of a confusion table with cell totals W (counts,
or sums of sample weights), sums of squared weights S (equal to W for counts) and n cases is

    Var f = sum_c g_c^2 S_c - (sum_c g_c W_c)^2 / n,        g = df/dW

(Agresti, Categorical Data Analysis, 3rd ed., section 16.1; for Cohen's kappa this is the
large-sample variance of Fleiss, Cohen & Everitt 1969). Every g here is written out in closed
form, so the standard errors are exact to rounding (no finite differences):

* a rate of the one-vs-rest counts (tp, fp, fn, tn) of class c, a / (a + b), moves by
  b / (a + b)^2 with a and by -a / (a + b)^2 with b; cell (i, j) is class c's tp when i = j = c,
  its fn when only i = c, its fp when only j = c and its tn otherwise (:func:`rate_partials`,
  :func:`one_vs_rest_gradient`);
* MCC = X / sqrt(Y Z) with X = C n - sum_k t_k p_k, Y = sum_k p_k (n - p_k), Z = sum_k t_k (n - t_k)
  (t row sums, p column sums, C the trace): dX/dW_ij = [i = j] n + C - p_i - t_j,
  dY/dW_ij = 2 (n - p_j), dZ/dW_ij = 2 (n - t_i);
* kappa = 1 - n A / B with disagreement weights v, A = sum v_ij W_ij, B = sum v_ij t_i p_j:
  dkappa/dW_ij = -(A + n v_ij - (1 - kappa) ((v p)_i + (t v)_j)) / B.

>>> t = np.array([[30.0, 10.0], [10.0, 50.0]])
>>> g = accuracy_gradient(t)
>>> round(float(table_variance(g, t, t, 100.0)) ** 0.5, 6)  # sqrt(0.8 * 0.2 / 100)
0.04
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.formulas import measures as m

__all__ = [
    "RATES",
    "rate_partials",
    "one_vs_rest_gradient",
    "one_vs_rest_variance",
    "table_variance",
    "accuracy_gradient",
    "error_rate_gradient",
    "balanced_accuracy_gradient",
    "mcc_gradient",
    "kappa_gradient",
    "average_weights",
    "f_column",
    "confusion_variances",
    "label_table_gradients",
    "gradient_of",
]

#: The one-vs-rest rates of the report, in its column order.
RATES = ("precision", "recall", "fbeta", "fallout", "specificity", "npv")


def _f(a: Any) -> np.ndarray:
    return np.asarray(a, dtype=np.float64)


def _ratio_partials(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(d/da, d/db) of a / (a + b); NaN where a + b = 0."""
    d = a + b
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(d > 0, 1.0 / np.where(d > 0, d, 1.0), np.nan)
    return b * inv * inv, -a * inv * inv


def rate_partials(name: str, tp: Any, fp: Any, fn: Any, tn: Any, beta: float | None = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(d/dtp, d/dfp, d/dfn, d/dtn) of a rate of :data:`RATES`; NaN where it is undefined.

    >>> [float(x) for x in rate_partials("precision", 3, 1, 5, 7)]
    [0.0625, -0.1875, 0.0, 0.0]
    """
    tp, fp, fn, tn = (_f(x) for x in (tp, fp, fn, tn))
    shape = np.broadcast_shapes(tp.shape, fp.shape, fn.shape, tn.shape)
    if name == "fbeta":
        b = 1.0 if beta is None else float(beta)
        name = "recall" if np.isposinf(b) else "precision" if b == 0 else name
    if name == "fbeta":  # F = (1 + b2) tp / D, D = (1 + b2) tp + b2 fn + fp
        b2 = b * b
        d = (1 + b2) * tp + b2 * fn + fp
        with np.errstate(divide="ignore", invalid="ignore"):
            inv = np.where(d > 0, 1.0 / np.where(d > 0, d, 1.0), np.nan)
        scale = (1 + b2) * inv * inv
        parts = (scale * (b2 * fn + fp), -scale * tp, -scale * b2 * tp, 0.0 * inv)  # d/d(tp, fp, fn, tn)
        return tuple(np.broadcast_to(x, shape) for x in parts)
    # a / (a + b): which two counts are a and b, and where each partial goes
    a_b = {"precision": ("tp", "fp"), "recall": ("tp", "fn"), "specificity": ("tn", "fp"), "npv": ("tn", "fn"),
           "fallout": ("fp", "tn")}
    if name in a_b:
        counts = {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
        a, b = a_b[name]
        d_a, d_b = _ratio_partials(counts[a], counts[b])
        out = {key: 0.0 * d_a for key in counts}  # NaN where the rate is undefined, else 0
        out[a], out[b] = d_a, d_b
        return tuple(np.broadcast_to(out[key], shape) for key in ("tp", "fp", "fn", "tn"))
    raise ValueError(f"unknown rate {name!r}; one of {RATES}.")


def one_vs_rest_gradient(partials: tuple[np.ndarray, ...], a: np.ndarray) -> np.ndarray:
    """Gradient (..., k, k) of sum_c a_c f_c, each f_c a function of class c's (tp, fp, fn, tn)
    with partials (..., k) each. Classes with a_c = 0 add nothing (their partials may be NaN)."""
    d_tp, d_fp, d_fn, d_tn = (np.where(a != 0, p, 0.0) * a for p in partials)
    k = a.shape[-1]
    g = d_tn.sum(axis=-1)[..., None, None] + (d_fp - d_tn)[..., None, :] + (d_fn - d_tn)[..., :, None]
    idx = np.arange(k)
    g[..., idx, idx] += d_tp - d_fp - d_fn + d_tn
    return g


def one_vs_rest_variance(partials: tuple[np.ndarray, ...], cells: np.ndarray, squares: np.ndarray,
                         n_cases: Any) -> np.ndarray:
    """Per-class variances (..., k) of f_c(tp_c, fp_c, fn_c, tn_c), from its partials, without
    forming the (k, k) gradient of each class: cell (i, j) belongs to one of four groups."""
    w = m.one_vs_rest(_f(cells))
    s = m.one_vs_rest(_f(squares))
    n = _f(n_cases)[..., None]
    with np.errstate(invalid="ignore"):
        s2 = sum(p * p * sj for p, sj in zip(partials, s))
        s1 = sum(p * wj for p, wj in zip(partials, w))
        return np.maximum(s2 - s1 * s1 / n, 0.0)


def table_variance(g: np.ndarray, cells: Any, squares: Any, n_cases: Any) -> np.ndarray:
    """sum g^2 S - (sum g W)^2 / n over the last two axes (empty cells add nothing)."""
    w, s = _f(cells), _f(squares)
    g = np.where(w != 0, g, 0.0) if g.shape == w.shape else np.where(np.broadcast_to(w, g.shape) != 0, g, 0.0)
    s1 = (g * w).sum(axis=(-2, -1))
    s2 = (g * g * s).sum(axis=(-2, -1))
    return np.maximum(s2 - s1 * s1 / _f(n_cases), 0.0)


def accuracy_gradient(cm: Any) -> np.ndarray:
    """d accuracy / dW_ij = ([i = j] - accuracy) / n."""
    cm = _f(cm)
    n = cm.sum(axis=(-2, -1))[..., None, None]
    acc = _f(m.accuracy(cm))[..., None, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        return (np.eye(cm.shape[-1]) - acc) / n


def error_rate_gradient(cm: Any) -> np.ndarray:
    """d error rate / dW_ij = -d accuracy / dW_ij."""
    return -accuracy_gradient(cm)


def balanced_accuracy_gradient(cm: Any) -> np.ndarray:
    """Mean recall over the m rows with support: ([i = j] - W_ii / t_i) / (t_i m) on row i."""
    cm = _f(cm)
    k = cm.shape[-1]
    t = cm.sum(axis=-1)
    present = t > 0
    mm = present.sum(axis=-1)[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(present, 1.0 / (np.where(present, t, 1.0) * np.maximum(mm, 1)), 0.0)
        rec = np.where(present, np.diagonal(cm, axis1=-2, axis2=-1) / np.where(present, t, 1.0), 0.0)
    return (np.eye(k) - rec[..., :, None]) * scale[..., :, None]


def mcc_gradient(cm: Any) -> np.ndarray:
    """Gradient of Gorodkin's R_K (see the module docstring); 0 where MCC is 0/0."""
    value = _f(m.matthews_corrcoef(cm))[..., None, None]
    cm = _f(cm)
    k = cm.shape[-1]
    t, p = cm.sum(axis=-1), cm.sum(axis=-2)
    n = t.sum(axis=-1)
    c = np.trace(cm, axis1=-2, axis2=-1)
    y = (p * (n[..., None] - p)).sum(axis=-1)  # n^2 - sum p^2, without the cancellation
    z = (t * (n[..., None] - t)).sum(axis=-1)
    d_x = (c[..., None, None] - p[..., :, None] - t[..., None, :]) + np.eye(k) * n[..., None, None]
    d_y = 2.0 * (n[..., None, None] - p[..., None, :])
    d_z = 2.0 * (n[..., None, None] - t[..., :, None])
    ok = (y > 0) & (z > 0)
    y1, z1 = np.where(ok, y, 1.0)[..., None, None], np.where(ok, z, 1.0)[..., None, None]
    g = d_x / np.sqrt(y1) / np.sqrt(z1) - 0.5 * value * (d_y / y1 + d_z / z1)
    return np.where(ok[..., None, None], g, 0.0)


def kappa_gradient(cm: Any, weights: str | None = None) -> np.ndarray:
    """Gradient of Cohen's kappa (optionally weighted, as :func:`clfeval.formulas.measures.cohen_kappa`);
    NaN where kappa is undefined.

    >>> g = kappa_gradient(np.array([[20, 5], [10, 15]]))
    >>> abs(float((g * np.array([[20, 5], [10, 15]])).sum())) < 1e-15  # scale invariance
    True
    """
    value = _f(m.cohen_kappa(cm, weights))[..., None, None]
    cm = _f(cm)
    v = m.kappa_disagreement_weights(cm.shape[-1], weights)
    t, p = cm.sum(axis=-1), cm.sum(axis=-2)
    n = t.sum(axis=-1)[..., None, None]
    a = (v * cm).sum(axis=(-2, -1))[..., None, None]
    b = (t[..., :, None] * v * p[..., None, :]).sum(axis=(-2, -1))[..., None, None]
    vp = (v * p[..., None, :]).sum(axis=-1)  # (v p)_i
    tv = (t[..., :, None] * v).sum(axis=-2)  # (t v)_j
    with np.errstate(divide="ignore", invalid="ignore"):
        inner = a + n * v - (1.0 - value) * (vp[..., :, None] + tv[..., None, :])
        return np.where(b > 0, -inner / np.where(b > 0, b, 1.0), np.nan)


def average_weights(values: np.ndarray, support: np.ndarray | None) -> np.ndarray:
    """The weights a_c with which a NaN-skipping average of ``values`` (..., k) weighs each class
    (as :func:`clfeval.uncertainty` averages: NaN left out, all-zero supports give the plain mean)."""
    keep = ~np.isnan(values)
    plain = keep / np.maximum(keep.sum(axis=-1, keepdims=True), 1)
    if support is None:
        return plain
    w = np.where(keep, _f(support), 0.0)
    total = w.sum(axis=-1, keepdims=True)
    return np.where(total > 0, w / np.where(total > 0, total, 1.0), plain)


def _support_term(values: np.ndarray, support: np.ndarray) -> np.ndarray:
    """d/d(support_c) of the support-weighted average: (v_c - average) / total, on kept classes
    (0 where the supports are all zero and the plain mean is taken)."""
    keep = ~np.isnan(values)
    w = np.where(keep, _f(support), 0.0)
    total = w.sum(axis=-1, keepdims=True)
    v = np.where(keep, values, 0.0)
    ok = total > 0
    est = (v * w).sum(axis=-1, keepdims=True) / np.where(ok, total, 1.0)
    return np.where(keep & ok, (v - est) / np.where(ok, total, 1.0), 0.0)


def _rate_values(tp: Any, fp: Any, fn: Any, tn: Any, beta: float | None) -> dict[str, np.ndarray]:
    return {
        "precision": m.precision(tp, fp), "recall": m.recall(tp, fn), "fbeta": m.fbeta(tp, fp, fn, 1.0 if beta is None else beta),
        "fallout": m.fallout(fp, tn), "specificity": m.specificity(tn, fp), "npv": m.npv(tn, fn),
    }


def f_column(beta: float | None) -> str:
    """The report's name of the F-beta column: "f1" for beta None or 1, else e.g. "f2", "f0.5".

    >>> f_column(None), f_column(0.5)
    ('f1', 'f0.5')
    """
    return "f1" if beta is None or beta == 1 else f"f{beta:g}"


def confusion_variances(cm: Any, squares: Any, n_cases: Any, beta: float | None
                        ) -> dict[tuple[str, str], np.ndarray]:
    """Delta-method variances of the report's numbers that take the delta method, for tables
    (..., k, k): ("per_class", F-beta) (..., k); ("macro" | "weighted", rate) and ("overall",
    "balanced_accuracy" | "mcc" | "kappa") (...); :func:`f_column` names the F-beta entries.
    """
    fname = f_column(beta)
    cm = _f(cm)
    sq = _f(squares)
    tp, fp, fn, tn = m.one_vs_rest(cm)
    support = tp + fn
    out: dict[tuple[str, str], np.ndarray] = {}
    values = _rate_values(tp, fp, fn, tn, beta)
    for rate in RATES:
        name = fname if rate == "fbeta" else rate
        partials = rate_partials(rate, tp, fp, fn, tn, beta)
        v = _f(values[rate])
        if rate == "fbeta":
            out["per_class", name] = np.where(np.isnan(v), np.nan, one_vs_rest_variance(partials, cm, sq, n_cases))
        for avg, sup in (("macro", None), ("weighted", support)):
            g = one_vs_rest_gradient(partials, average_weights(v, sup))
            if sup is not None:
                g = g + _support_term(v, sup)[..., :, None]  # support_c is row c's total
            var = table_variance(g, cm, sq, n_cases)
            out[avg, name] = np.where(np.isnan(v).all(axis=-1), np.nan, var)
    out["overall", "balanced_accuracy"] = table_variance(balanced_accuracy_gradient(cm), cm, sq, n_cases)
    out["overall", "mcc"] = table_variance(mcc_gradient(cm), cm, sq, n_cases)
    out["overall", "kappa"] = table_variance(kappa_gradient(cm), cm, sq, n_cases)
    return out


def label_table_gradients(tables: Any, beta: float | None) -> dict[tuple[str, str], np.ndarray]:
    """Gradients (L, 2, 2) of the micro, macro and weighted averages of the rates over L label
    tables laid out [[tn, fp], [fn, tp]] (a case sits in one cell of every label's table)."""
    fname = f_column(beta)
    t = _f(tables)
    tn, fp, fn, tp = t[..., 0, 0], t[..., 0, 1], t[..., 1, 0], t[..., 1, 1]
    support = tp + fn
    values = _rate_values(tp, fp, fn, tn, beta)

    def layout(d_tp: Any, d_fp: Any, d_fn: Any, d_tn: Any) -> np.ndarray:
        d_tp, d_fp, d_fn, d_tn = np.broadcast_arrays(*(_f(x) for x in (d_tp, d_fp, d_fn, d_tn)))
        return np.stack([np.stack([d_tn, d_fp], axis=-1), np.stack([d_fn, d_tp], axis=-1)], axis=-2)

    out: dict[tuple[str, str], np.ndarray] = {}
    for rate in RATES:
        name = fname if rate == "fbeta" else rate
        micro = rate_partials(rate, *(x.sum(axis=-1, keepdims=True) for x in (tp, fp, fn, tn)), beta)
        out["micro", name] = layout(*(np.broadcast_to(p, tp.shape) for p in micro))
        partials = rate_partials(rate, tp, fp, fn, tn, beta)
        v = _f(values[rate])
        for avg, sup in (("macro", None), ("weighted", support)):
            a = average_weights(v, sup)
            g = layout(*(np.where(a != 0, p, 0.0) * a for p in partials))
            if sup is not None:  # support_l = fn_l + tp_l: the second row of label l's table
                g[..., 1, :] += _support_term(v, sup)[..., None]
            out[avg, name] = g
    return out


def gradient_of(func: Any) -> Any:
    """The exact gradient function of a measure of whole tables (accuracy, error rate, balanced
    accuracy, MCC, Cohen's kappa, also ``functools.partial(cohen_kappa, weights=...)``), or None."""
    import functools

    if isinstance(func, functools.partial) and func.func is m.cohen_kappa and not func.args \
            and set(func.keywords) <= {"weights"}:
        return functools.partial(kappa_gradient, weights=func.keywords.get("weights"))
    return {
        m.accuracy: accuracy_gradient,
        m.error_rate: error_rate_gradient,
        m.balanced_accuracy: balanced_accuracy_gradient,
        m.matthews_corrcoef: mcc_gradient,
        m.cohen_kappa: kappa_gradient,
    }.get(func)
