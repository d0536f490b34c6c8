"""Intervals from each case's influence: for the numbers that cell counts alone cannot qualify.

Most intervals read only the cell counts (:mod:`clfeval.uncertainty`). Three kinds of number
also need to know *which* cells each case falls in:

* averages of areas over classes (macro, weighted and micro ROC AUC and average precision):
  every case is a positive of one class and a negative of the others, so the per-class areas
  are correlated;
* anything computed with sample weights: the variance depends on how the weights spread
  within each cell, not only on their totals;
* multilabel averages over labels and the samples average: each case sits in every label's table.

For a statistic f of the weighted cell totals W, unchanged when every weight is scaled (true of
every ratio measure), the first-order variance under independent sampling of cases is

    Var f = sum_i u_i^2 - (sum_i u_i)^2 / n,     u_i = w_i * sum over tables of df/dW[cell of case i]

(the delta method, or infinitesimal jackknife; with unit weights and one table it is the
multinomial delta method of :func:`clfeval.uncertainty.delta_method_se`). The gradients of the
areas are exact (:func:`area_gradients`), and so are those of the confusion measures
(:mod:`clfeval.formulas.measure_gradients`); :func:`cell_gradients` (central differences) serves only
functions the package has no gradient for (:func:`clfeval.uncertainty.delta_method_se` of a
user's own function).

>>> from clfeval.statistics.rankings import BinaryRanking
>>> r = BinaryRanking(np.array([0.9, 0.8, 0.7, 0.6, 0.5]), np.array([0, 1, 0, 1, 1]), np.array([1, 0, 1, 1, 0]))
>>> g_neg, g_pos = area_gradients(r, "roc_auc")
>>> round(float(g_pos @ r.pos + g_neg @ r.neg), 12)  # scale invariance: the weighted sum is 0
0.0
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.formulas.curves import placement_values
from clfeval.stats._result import ConfidenceInterval, check_level

__all__ = [
    "Cases",
    "cell_gradients",
    "area_gradients",
    "average_precision_gradients",
    "cell_variance",
    "cells_of_scores",
    "influence_variance",
    "influence_interval",
    "area_influences",
    "linearized_variance",
    "area_interval",
    "multilabel_influence_intervals",
    "label_cells",
    "label_table_influences",
    "MULTILABEL_ROW_MEANS",
    "multilabel_row_influences",
]

# Relative step of the central differences (truncation ~ eps^2, rounding ~ 1e-16 / eps).
_EPS = 1e-5
# Largest number of array elements one batch of perturbed tables may hold.
_CHUNK_ELEMENTS = 1 << 22


@dataclass(frozen=True)
class Cases:
    """The coerced inputs of an evaluation, kept (by reference) for case-level intervals.

    ``true``: (n,) class codes, or (n, L) booleans (multilabel). ``pred``: the same shape, or
    None. ``scores``: (n,) scores of class ``pos_index`` (binary, one column) or (n, k) / (n, L).
    ``weight``: (n,) or None.
    """

    true: np.ndarray
    pred: np.ndarray | None
    scores: np.ndarray | None
    weight: np.ndarray | None
    pos_index: int = 1

    @property
    def n(self) -> int:
        return int(self.true.shape[0])

    def is_positive(self, c: int) -> np.ndarray:
        """(n,) booleans: the cases of class (or label) ``c``."""
        return self.true[:, c] if self.true.ndim == 2 else self.true == c

    def column(self, c: int) -> np.ndarray:
        """(n,) scores that rank class ``c`` (a single binary column, negated for the other class)."""
        assert self.scores is not None
        if self.scores.ndim == 1:
            return self.scores if c == self.pos_index else -self.scores
        return self.scores[:, c]

    def weighted(self, u: np.ndarray) -> np.ndarray:
        return u if self.weight is None else u * self.weight


# ------------------------------------------------------------------------------------------
# gradients
# ------------------------------------------------------------------------------------------
def cell_gradients(
    func: Callable[[np.ndarray], Any], cells: np.ndarray, cell_ndim: int = 2
) -> Iterator[tuple[np.ndarray, dict[Any, np.ndarray]]]:
    """Central-difference gradients of ``func`` with respect to each cell, chunk by chunk.

    ``cells`` has shape (*lead, *cell_shape) with ``cell_ndim`` trailing cell axes; ``func`` maps
    arrays of shape (*lead, 2, m, *cell_shape) to arrays (or a dict of arrays) of shape
    (*lead, 2, m, *value_shape). Each cell is moved by +/- 1e-5 of its count (empty cells are
    not moved and get gradient 0: no case falls in them). Yields (flat cell indices (m,),
    {key: gradient (L, m, *value_shape)}), L the product of ``lead``.

    >>> import numpy as np
    >>> [(idx.tolist(), g[None].round(6).tolist()) for idx, g in cell_gradients(
    ...     lambda t: t[..., 0, 0] / t.sum(axis=(-2, -1)), np.array([[3.0, 1.0], [0.0, 4.0]]))]
    [([0, 1, 2, 3], [[0.078125, -0.046875, 0.0, -0.046875]])]
    """
    cells = np.asarray(cells, dtype=np.float64)
    cell_shape = cells.shape[cells.ndim - cell_ndim:]
    lead = cells.shape[:cells.ndim - cell_ndim]
    flat = cells.reshape((-1, int(np.prod(cell_shape, dtype=np.int64))))
    L, C = flat.shape
    h = _EPS * flat
    chunk = max(1, _CHUNK_ELEMENTS // max(1, 2 * L * C))
    for start in range(0, C, chunk):
        idx = np.arange(start, min(C, start + chunk))
        mm = idx.size
        pert = np.broadcast_to(flat[:, None, None, :], (L, 2, mm, C)).copy()
        rows = np.arange(mm)
        pert[:, 0, rows, idx] += h[:, idx]
        pert[:, 1, rows, idx] -= h[:, idx]
        vals = func(pert.reshape(lead + (2, mm) + cell_shape))
        if not isinstance(vals, dict):
            vals = {None: vals}
        hh = h[:, idx]
        out = {}
        for key, v in vals.items():
            v = np.asarray(v, dtype=np.float64).reshape((L, 2, mm) + np.shape(v)[len(lead) + 2:])
            hx = hh.reshape(hh.shape + (1,) * (v.ndim - 3))
            with np.errstate(invalid="ignore", divide="ignore"):
                out[key] = np.where(hx > 0, (v[:, 0] - v[:, 1]) / np.where(hx > 0, 2 * hx, 1.0), 0.0)
        yield idx, out


def linearized_variance(
    func: Callable[[np.ndarray], Any], cells: np.ndarray, squares: np.ndarray, n_cases: Any, cell_ndim: int = 2
) -> dict[Any, np.ndarray]:
    """First-order variance of ``func`` of weighted cell totals, per leading table and key.

    ``cells``: weight totals W (*lead, *cell_shape); ``squares``: the sums of squared weights
    per cell (equal to ``cells`` for counts); ``n_cases``: the number of cases per table.
    Var = sum_c g_c^2 S2_c - (sum_c g_c W_c)^2 / n. Returns {key: (*lead, *value_shape)}
    (key None when ``func`` returns an array).

    >>> t = np.array([[30.0, 10.0], [10.0, 50.0]])
    >>> v = linearized_variance(lambda x: np.trace(x, axis1=-2, axis2=-1) / x.sum(axis=(-2, -1)), t, t, 100)
    >>> round(float(v[None]) ** 0.5, 6)
    0.04
    """
    cells = np.asarray(cells, dtype=np.float64)
    lead = cells.shape[:cells.ndim - cell_ndim]
    flat_w = cells.reshape((int(np.prod(lead, dtype=np.int64)), -1))
    flat_s = np.asarray(squares, dtype=np.float64).reshape(flat_w.shape)
    s1: dict[Any, Any] = {}
    s2: dict[Any, Any] = {}
    for idx, grads in cell_gradients(func, cells, cell_ndim):
        for key, g in grads.items():
            extra = (1,) * (g.ndim - 2)
            w = flat_w[:, idx].reshape(flat_w.shape[0], idx.size, *extra)
            s = flat_s[:, idx].reshape(w.shape)
            s1[key] = s1.get(key, 0.0) + (g * w).sum(axis=1)
            s2[key] = s2.get(key, 0.0) + (g * g * s).sum(axis=1)
    n = np.asarray(n_cases, dtype=np.float64).reshape(-1)
    out = {}
    for key in s1:
        nn = n.reshape((-1,) + (1,) * (s1[key].ndim - 1))
        var = np.maximum(s2[key] - s1[key] ** 2 / nn, 0.0)
        out[key] = var.reshape(lead + var.shape[1:])
    return out


def area_gradients(ranking: Any, area: str) -> tuple[np.ndarray, np.ndarray]:
    """Exact gradients (d area / d negatives, d area / d positives) at each distinct score.

    ``area``: "roc_auc" or "average_precision". With cumulative counts TP_d, FP_d down the
    ranking (P, N the totals): AUC = sum_d pos_d (N - FP_d + neg_d / 2) / (P N), so
    dAUC/dpos_e = (N - FP_e + neg_e / 2) / (P N) - AUC / P and dAUC/dneg_e =
    (TP_e - pos_e / 2) / (P N) - AUC / N (DeLong's placements); AP = sum_d pos_d prec_d / P with
    prec_d = TP_d / (TP_d + FP_d), so dAP/dpos_e = (prec_e - AP) / P + sum_{d >= e} pos_d FP_d /
    (P K_d^2) and dAP/dneg_e = -sum_{d >= e} pos_d TP_d / (P K_d^2), K_d = TP_d + FP_d.
    NaN arrays where the area is undefined.
    """
    pos = np.asarray(ranking.pos, dtype=np.float64)
    neg = np.asarray(ranking.negatives(), dtype=np.float64)
    P, N = pos.sum(), neg.sum()
    if area == "roc_auc":
        if not (P > 0 and N > 0):
            return np.full(pos.shape, np.nan), np.full(pos.shape, np.nan)
        v10, v01 = placement_values(neg, pos)  # dAUC/dpos_e = (V10_e - AUC) / P, dAUC/dneg_e = (V01_e - AUC) / N
        auc = float(np.dot(pos, v10) / P)
        return (v01 - auc) / N, (v10 - auc) / P
    if area != "average_precision":
        raise ValueError(f"area must be 'roc_auc' or 'average_precision', got {area!r}.")
    if not P > 0:
        return np.full(pos.shape, np.nan), np.full(pos.shape, np.nan)
    return average_precision_gradients(neg, pos)[1:]


def average_precision_gradients(neg: Any, pos: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(AP, d AP / d negatives, d AP / d positives) of per-score counts, batched over leading axes.

    ``neg`` and ``pos``: (..., D) counts at each distinct score, highest score first. AP (...,)
    is NaN, and the gradients NaN, where a table has no positive. The formulas are
    :func:`area_gradients`'.

    >>> ap, g_neg, g_pos = average_precision_gradients(np.array([0, 1, 0]), np.array([1, 0, 1]))
    >>> round(float(ap), 4), g_neg.round(4).tolist()
    (0.8333, [-0.6111, -0.1111, -0.1111])
    """
    pos = np.asarray(pos, dtype=np.float64)
    neg = np.asarray(neg, dtype=np.float64)
    tp, fp = np.cumsum(pos, axis=-1), np.cumsum(neg, axis=-1)
    P = tp[..., -1:] if tp.shape[-1] else np.zeros(tp.shape[:-1] + (1,))
    k = tp + fp
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = np.where(k > 0, tp / np.where(k > 0, k, 1.0), 0.0)
        step = np.where(k > 0, pos / (P * np.where(k > 0, k, 1.0) ** 2), 0.0)
        ap = (pos * prec).sum(axis=-1, keepdims=True) / P
        tail_fp = np.cumsum((step * fp)[..., ::-1], axis=-1)[..., ::-1]
        tail_tp = np.cumsum((step * tp)[..., ::-1], axis=-1)[..., ::-1]
        g_pos = (prec - ap) / P + tail_fp
    undefined = ~(P > 0)
    g_neg = np.where(undefined, np.nan, -tail_tp)
    g_pos = np.where(undefined, np.nan, g_pos)
    return np.where(undefined, np.nan, ap)[..., 0], g_neg, g_pos


def cell_variance(neg: Any, pos: Any, g_neg: Any, g_pos: Any) -> np.ndarray:
    """First-order variance sum c g^2 - (sum c g)^2 / n of a statistic of per-score counts under
    multinomial sampling of all its cells (cross-sectional), batched over leading axes."""
    neg, pos = np.asarray(neg, dtype=np.float64), np.asarray(pos, dtype=np.float64)
    n = neg.sum(axis=-1) + pos.sum(axis=-1)
    s1 = (neg * g_neg + pos * g_pos).sum(axis=-1)
    s2 = (neg * g_neg**2 + pos * g_pos**2).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.maximum(s2 - s1**2 / n, 0.0)


def cells_of_scores(ranking: Any, scores: np.ndarray) -> np.ndarray:
    """Index into ``ranking.scores`` (decreasing) of each score.

    A score that is not among them (a zero-weight case: the ranking leaves those out) maps to a
    neighbouring index; its influence is multiplied by its weight, 0, so which one does not matter.
    """
    desc = np.asarray(ranking.scores, dtype=np.float64)
    idx = np.searchsorted(-desc, -np.asarray(scores, dtype=np.float64))
    return np.minimum(idx, max(desc.size - 1, 0))


def influence_variance(u: np.ndarray) -> float:
    """sum u_i^2 - (sum u_i)^2 / n: the first-order variance from per-case influences ``u``."""
    u = np.asarray(u, dtype=np.float64)
    return float(max(np.dot(u, u) - u.sum() ** 2 / max(u.size, 1), 0.0))


def influence_interval(
    estimate: float, u: np.ndarray, level: float, method: str, bounds: tuple[float, float] = (0.0, 1.0)
) -> ConfidenceInterval:
    """Normal interval estimate +/- z sqrt(Var), clipped to ``bounds``; NaN for a NaN estimate."""
    from clfeval.uncertainty.checks import z_quantile

    level = check_level(level)
    if not np.isfinite(estimate):
        return ConfidenceInterval(float("nan"), float("nan"), level, method, float(estimate), float("nan"))
    se = influence_variance(u) ** 0.5
    half = z_quantile(level) * se
    return ConfidenceInterval(max(bounds[0], estimate - half), min(bounds[1], estimate + half), level, method,
                              float(estimate), se)


# ------------------------------------------------------------------------------------------
# areas: per class, and their averages
# ------------------------------------------------------------------------------------------
def _row_gradients(cases: Cases, rankings: list[Any], area: str) -> list[np.ndarray]:
    """For each class c: (n,) d area_c / d (weight of case i), before multiplying by w_i."""
    out = []
    for c, r in enumerate(rankings):
        g_neg, g_pos = area_gradients(r, area)
        idx = cells_of_scores(r, cases.column(c))
        out.append(np.where(cases.is_positive(c), g_pos[idx], g_neg[idx]))
    return out


def area_influences(
    cases: Cases, rankings: list[Any], micro: Any, area: str, *, per_class: bool = True
) -> dict[str, tuple[Any, Any]]:
    """{"per_class": (areas (k,), influences (k, n) or None), "macro" / "weighted" / "micro":
    (estimate, influences (n,))} for ROC AUC or average precision.

    Classes whose area is undefined are left out of the averages (as in the report); the
    weighted average also moves with the class supports, which the influence includes.
    """
    areas = np.array([getattr(r, area) for r in rankings], dtype=np.float64)
    grads = _row_gradients(cases, rankings, area)
    ok = np.isfinite(areas)
    out: dict[str, tuple[Any, Any]] = {}
    if per_class:
        out["per_class"] = (areas, np.stack([cases.weighted(np.nan_to_num(g)) for g in grads]))
    if ok.any():
        used = np.flatnonzero(ok)
        macro = float(areas[used].mean())
        out["macro"] = (macro, cases.weighted(sum(grads[c] for c in used) / used.size))
        w = np.ones(cases.n) if cases.weight is None else cases.weight
        member = np.stack([cases.is_positive(c) for c in used])  # (m, n)
        support = member @ w
        total = float(support.sum())
        if total > 0:
            est = float(np.dot(support, areas[used]) / total)
            u = sum(support[j] * grads[c] for j, c in enumerate(used)) / total
            u = u + ((areas[used] - est)[:, None] * member).sum(axis=0) / total  # supports move too
            out["weighted"] = (est, cases.weighted(u))
    if micro is not None and np.isfinite(getattr(micro, area)):
        g_neg, g_pos = area_gradients(micro, area)
        u = np.zeros(cases.n)
        for c in range(len(rankings)):
            idx = cells_of_scores(micro, cases.column(c))
            u += np.where(cases.is_positive(c), g_pos[idx], g_neg[idx])
        out["micro"] = (float(getattr(micro, area)), cases.weighted(u))
    return out


DELTA_CASES = "delta method (case influence)"
AREA_METHOD = "delta method (case influence, logit scale)"


def area_interval(area: str, estimate: float, u: np.ndarray, level: float, df: float | None = None,
                  df_name: str | None = None) -> ConfidenceInterval:
    """Interval of an area from per-case influences, on the logit scale (both areas are skewed
    near their bounds), with the t quantile of ``df`` degrees of freedom (None: normal).

    Callers pass df = (fewest cases of a class among the classes averaged) - 1, as the
    single-ranking intervals of :mod:`clfeval.uncertainty.area_intervals` do: with 6 positives the normal
    interval of the AUC covered 78% in ``benchmarks/coverage.py``. An estimate at 0 or 1 gives a
    zero-width interval (no first-order spread to transform).

    >>> iv = area_interval("roc_auc", 0.8, np.array([0.05, -0.05, 0.02, -0.02]), 0.95, df=3)
    >>> round(iv.low, 4), round(iv.high, 4), iv.method
    (0.4679, 0.9479, 'delta method (case influence, logit scale, t(3) quantile)')
    """
    from scipy.stats import t as student_t

    from clfeval.uncertainty.scales import logit_interval
    from clfeval.uncertainty.checks import z_quantile

    level = check_level(level)
    name = AREA_METHOD
    if df is not None:  # df_name: how the name gives df where stacked intervals differ in it
        name = name[:-1] + f", t({df_name or format(df, 'g')}) quantile)"
    se = influence_variance(u) ** 0.5 if np.isfinite(estimate) else float("nan")
    if not (0.0 < estimate < 1.0):
        v = float(estimate)
        return ConfidenceInterval(v, v, level, name, v, se)
    q = z_quantile(level) if df is None else float(student_t.ppf(0.5 + level / 2, max(df, 1.0)))
    return ConfidenceInterval(*logit_interval(float(estimate), se, q), level, name, float(estimate), se)


# ------------------------------------------------------------------------------------------
# multilabel: averages over labels, the samples average, the overall numbers
# ------------------------------------------------------------------------------------------
def _label_table_metrics(t: np.ndarray, beta: float | None) -> dict[tuple[str, str], np.ndarray]:
    """Micro, macro and weighted averages of the report's rates over (..., L, 2, 2) tables
    laid out [[tn, fp], [fn, tp]]."""
    from clfeval.uncertainty.confusion_measures import nan_average as _nan_average, rates as _rates

    tn, fp, fn, tp = t[..., 0, 0], t[..., 0, 1], t[..., 1, 0], t[..., 1, 1]
    per_label = _rates(tp, fp, fn, tn, beta)
    micro = _rates(*(a.sum(axis=-1) for a in (tp, fp, fn, tn)), beta)
    out = {("micro", k): v for k, v in micro.items()}
    out.update({("macro", k): _nan_average(v) for k, v in per_label.items()})
    out.update({("weighted", k): _nan_average(v, tp + fn) for k, v in per_label.items()})
    return out


def _mean_of_rows(values: np.ndarray, weight: np.ndarray | None) -> tuple[float, np.ndarray]:
    """(weighted mean of the defined per-case values, each case's influence on it)."""
    keep = ~np.isnan(values)
    w = np.ones(values.shape) if weight is None else weight
    wk = np.where(keep, w, 0.0)
    total = float(wk.sum())
    if total == 0:
        return float("nan"), np.zeros(values.shape)
    est = float(np.dot(wk, np.where(keep, values, 0.0)) / total)
    return est, np.where(keep, wk * (values - est) / total, 0.0)


def label_cells(cases: Cases) -> np.ndarray:
    """(n, L) flat index of each case's cell in every label's table, for (L, 2, 2) multilabel tables
    laid out [[tn, fp], [fn, tp]]: 4 l + 2 true + predicted.

    >>> label_cells(Cases(np.array([[True, False]]), np.array([[True, True]]), None, None)).tolist()
    [[3, 5]]
    """
    assert cases.pred is not None
    return np.arange(cases.true.shape[1]) * 4 + 2 * cases.true + cases.pred


def label_table_influences(func: Callable[[np.ndarray], Any], tables: np.ndarray, cases: Cases) -> np.ndarray:
    """Each case's influence (n,) on ``func`` of the multilabel tables ``tables`` (L, 2, 2) [[tn, fp],
    [fn, tp]] (weight totals): w_i times the sum over labels of the gradient of ``func`` at the cell
    case i falls in for that label (:func:`label_cells`; gradients by :func:`cell_gradients`, so
    ``func`` maps (..., L, 2, 2) to (...)). A case sits in every label's table, so the labels'
    correlation is kept.

    >>> cases = Cases(np.array([[1, 0], [1, 1], [0, 1]], bool), np.array([[1, 0], [0, 1], [0, 1]], bool), None, None)
    >>> t = np.array([[[1.0, 0.0], [1.0, 1.0]], [[1.0, 0.0], [0.0, 2.0]]])
    >>> micro_recall = lambda x: x[..., 1, 1].sum(axis=-1) / x[..., 1, :].sum(axis=(-2, -1))
    >>> label_table_influences(micro_recall, t, cases).round(6).tolist()
    [0.0625, -0.125, 0.0625]
    """
    tables = np.asarray(tables, dtype=np.float64)
    g = np.zeros(tables.size)
    for idx, grads in cell_gradients(func, tables, cell_ndim=3):
        g[idx] = grads[None][0]
    return cases.weighted(g[label_cells(cases)].sum(axis=1))


#: the overall numbers of a multilabel report that are (weighted) means over cases
MULTILABEL_ROW_MEANS = ("accuracy", "error_rate", "hamming_loss")


def multilabel_row_influences(per_sample: np.ndarray, n_labels: int, weight: np.ndarray | None, name: str
                              ) -> tuple[float, np.ndarray]:
    """(estimate, each case's influence (n,)) of an overall multilabel number of
    :data:`MULTILABEL_ROW_MEANS`, a weighted mean over cases of each case's value: "accuracy" (subset
    accuracy: 1 where every label is right), "error_rate" (1 - it) or "hamming_loss" (the share of
    the case's labels that are wrong). ``per_sample``: (n, 3) counts of (tp, fp, fn) per case.

    >>> e, u = multilabel_row_influences(np.array([[1, 0, 0], [0, 1, 1]]), 2, None, "hamming_loss")
    >>> e, u.tolist()
    (0.5, [-0.25, 0.25])
    """
    wrong = per_sample[:, 1].astype(np.float64) + per_sample[:, 2]
    if name == "accuracy":
        values = wrong == 0
    elif name == "error_rate":
        values = wrong > 0
    elif name == "hamming_loss":
        values = wrong / n_labels
    else:
        raise ValueError(f"{name!r} is not a mean over cases of a multilabel task; one of {MULTILABEL_ROW_MEANS}.")
    return _mean_of_rows(np.asarray(values, dtype=np.float64), weight)


def multilabel_influence_intervals(
    cases: Cases, tables: np.ndarray, per_sample: np.ndarray, level: float, beta: float | None
) -> tuple[dict[str, dict[str, ConfidenceInterval]], dict[str, ConfidenceInterval], list[str]]:
    """(averages, overall, notes) of a multilabel report, every interval from per-case influence.

    ``tables``: (L, 2, 2) [[tn, fp], [fn, tp]] weight totals; ``per_sample``: (n, 3) counts of
    (tp, fp, fn) per case. Micro, macro and weighted averages: the delta method over all the
    label tables at once, each case's gradient summed over its L cells (so the correlation
    between labels is kept); the samples average and the Hamming loss are means over cases;
    subset accuracy and its error rate are proportions of cases (Wilson; with weights, over
    Kish's effective number of cases).
    """
    from clfeval.uncertainty.confusion_measures import rates as _rates
    from clfeval.uncertainty.proportions import KISH, proportion_ci

    from clfeval.formulas.measure_gradients import label_table_gradients

    L = tables.shape[0]
    tables = np.asarray(tables, dtype=np.float64)
    est = {key: float(v[0]) for key, v in _label_table_metrics(tables[None], beta).items()}
    exact = label_table_gradients(tables, beta)
    grads = {key: exact[key].reshape(-1) for key in est}
    cell = label_cells(cases)  # (n, L) flat cell of each case and label
    averages: dict[str, dict[str, ConfidenceInterval]] = {}
    for (avg, name), e in est.items():
        u = cases.weighted(grads[avg, name][cell].sum(axis=1))
        averages.setdefault(avg, {})[name] = influence_interval(e, u, level, DELTA_CASES)
    tp, fp, fn = (per_sample[:, i].astype(np.float64) for i in range(3))
    for name, v in _rates(tp, fp, fn, L - tp - fp - fn, beta).items():
        e, u = _mean_of_rows(v, cases.weight)
        averages.setdefault("samples", {})[name] = influence_interval(e, u, level, DELTA_CASES)
    w = np.ones(cases.n) if cases.weight is None else cases.weight
    n_eff = float(w.sum() ** 2 / np.dot(w, w))
    exact = multilabel_row_influences(per_sample, L, cases.weight, "accuracy")[0]
    acc = proportion_ci(exact * n_eff, n_eff, level=level)
    how = acc.method + ("" if cases.weight is None else KISH)
    e, u = multilabel_row_influences(per_sample, L, cases.weight, "hamming_loss")
    overall = {
        "accuracy": ConfidenceInterval(float(acc.low), float(acc.high), level, how, exact),
        "error_rate": ConfidenceInterval(1.0 - float(acc.high), 1.0 - float(acc.low), level, how, 1.0 - exact),
        "hamming_loss": influence_interval(e, u, level, DELTA_CASES),
    }
    notes = ["multilabel: the averages over labels, the samples average and the Hamming loss use each "
             "case's influence (a case sits in every label's table, so the labels are correlated)."]
    return averages, overall, notes


