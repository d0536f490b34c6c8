"""Paired comparison of two classifiers on the same cases by any metric: bootstrap and permutation.

``metric`` is a callable ``metric(y_true, y_pred_or_score) -> float`` or the name of a
:mod:`clfeval.metrics` function (``"f1_score"``, ``"roc_auc_score"``, ...). The estimate is
``metric(A) - metric(B)``.

Speed: a label metric of :mod:`clfeval.metrics` (by name, or a ``functools.partial`` of one)
depends only on the confusion table, so the data reduce to the counts of the joint cells
(true, pred_a, pred_b) of a k x k x k table. A bootstrap replicate is then a multinomial draw
over those cells (per true class when stratified) and a permutation replicate a binomial
number of swapped cases per discordant cell, vectorised over replicates; accuracy, error rate,
MCC, kappa and balanced accuracy are evaluated for every replicate at once by the batched
formulas of :mod:`clfeval.formulas.measures`, other label metrics by one weighted call per replicate
on the k x k cells. Any other callable resamples rows.

>>> y = [0, 1, 1, 0, 1, 0, 1, 1]
>>> a = [0, 1, 1, 0, 1, 0, 0, 1]
>>> b = [0, 1, 0, 1, 1, 0, 0, 1]
>>> r = paired_permutation_test(y, a, b, "accuracy_score")
>>> round(r.estimate, 3), round(r.pvalue, 3), r.extra["exact"]
(0.25, 0.5, True)
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from clfeval.inputs.labels import as_array, check_consistent_length, encode, union_labels, unique_sorted
from clfeval.formulas.measure_registry import measures_of_kind
from clfeval.uncertainty.resampling import check_sampling, sampling_phrase
from clfeval.stats._result import TestResult, check_alternative, check_level

__all__ = ["paired_bootstrap_test", "paired_permutation_test"]

# Label metrics of clfeval.metrics that depend on the data only through the confusion table.
_CONFUSION_METRICS = frozenset({
    "accuracy_score", "balanced_accuracy_score", "cohen_kappa_score", "matthews_corrcoef",
    "f1_score", "fbeta_score", "precision_score", "recall_score", "jaccard_score",
    "specificity_score", "npv_score", "fallout_score", "zero_one_loss", "error_rate",
})
# Batched formulas over (..., k, k) tables, for the metric called with its defaults: the overall
# measures of the registry, under their clfeval.metrics names (accuracy_score, zero_one_loss, ...).
_BATCHED: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    key: measure.formula
    for measure in measures_of_kind("overall") if measure.formula is not None
    for key in (measure.name, *measure.aliases) if key in _CONFUSION_METRICS
}
# Joint (true, A, B) cells counted by one bincount up to this many (k**3), sorted beyond.
_DENSE_CELLS = 1 << 22
# Replicates per batch of the vectorised paths (bounds memory at about B x cells numbers).
_CHUNK = 1 << 21


# ------------------------------------------------------------------------------------------
# the metric
# ------------------------------------------------------------------------------------------
class _Metric:
    """A resolved metric: the callable, a display name, and whether its confusion table suffices."""

    def __init__(self, metric: Any) -> None:
        from clfeval import metrics as cm

        self.no_formula = False  # set when a batched formula disagreed with the metric
        if isinstance(metric, str):
            func = getattr(cm, metric, None) if metric in cm.__all__ else None
            if func is None:
                raise ValueError(
                    f"metric {metric!r} is not a clfeval.metrics function; use one of "
                    f"{sorted(cm.__all__)} or pass a callable metric(y_true, y_pred) -> float."
                )
            self.func, self.name, self.key = func, metric, metric
        elif callable(metric):
            self.func = metric
            self.name = getattr(metric, "__name__", None) or repr(metric)
            self.key = None
            base = metric
            if isinstance(metric, functools.partial) and not metric.args and "sample_weight" not in metric.keywords:
                base = metric.func
                self.name = f"{getattr(base, '__name__', base)}({', '.join(f'{k}={v!r}' for k, v in metric.keywords.items())})"
            for nm in _CONFUSION_METRICS:
                if getattr(cm, nm) is base:
                    self.key = nm if base is metric else f"partial:{nm}"
        else:
            raise TypeError(f"metric must be a callable or the name of a clfeval.metrics function, got {metric!r}.")

    @property
    def confusion(self) -> bool:
        return self.key is not None and self.key.split(":")[-1] in _CONFUSION_METRICS

    @property
    def batched(self) -> Callable[[np.ndarray], np.ndarray] | None:
        return _BATCHED.get(self.key) if self.key and not self.no_formula else None

    def batched_for(self, cells: _Cells) -> Callable[[np.ndarray], np.ndarray] | None:
        """The batched formula over (B, k, k) tables of ``cells``' labels, or None (then one call
        per table): the plain formulas, and macro F-beta of a ``functools.partial`` with a number
        as ``zero_division`` (the command's paired bootstrap of macro F1)."""
        if self.no_formula or self.batched is not None or self.key not in ("partial:f1_score", "partial:fbeta_score"):
            return self.batched
        return macro_fbeta_formula(self.func.keywords, cells.labels)  # type: ignore[attr-defined]

    def __call__(self, y: np.ndarray, p: np.ndarray, w: np.ndarray | None = None) -> float:
        value = self.func(y, p) if w is None else self.func(y, p, sample_weight=w)
        value = float(np.asarray(value, dtype=np.float64))
        return value


def _inputs(y_true: Any, pred_a: Any, pred_b: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y = as_array(y_true, "y_true")
    a = as_array(pred_a, "pred_a")
    b = as_array(pred_b, "pred_b")
    check_consistent_length(y_true=y, pred_a=a, pred_b=b)
    if a.shape != b.shape:
        raise ValueError(
            f"pred_a and pred_b must have the same shape (the same cases, the same kind of output); "
            f"got {a.shape} and {b.shape}."
        )
    if y.shape[0] < 2:
        raise ValueError(f"a paired comparison needs at least 2 cases; got {y.shape[0]}.")
    return y, a, b


class _Cells:
    """Joint cells (true, pred_a, pred_b) of 1-D label data with their counts."""

    def __init__(self, y: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
        self.labels = union_labels(unique_sorted(y, "y_true"), unique_sorted(a, "pred_a"),
                                   unique_sorted(b, "pred_b"), names=("y_true", "pred_a", "pred_b"))
        k = self.k = self.labels.size
        t, pa, pb = (encode(v, self.labels) for v in (y, a, b))
        joint = (t.astype(np.int64) * k + pa) * k + pb
        if k**3 <= _DENSE_CELLS:  # few classes: one bincount over the rows (no sort)
            dense = np.bincount(joint, minlength=k**3)
            cells = np.flatnonzero(dense)
            counts = dense[cells]
        else:
            cells, counts = np.unique(joint, return_counts=True)
        self.t, rest = np.divmod(cells, k * k)
        self.a, self.b = np.divmod(rest, k)
        self.counts = counts.astype(np.int64)

    def tables(self, reps: np.ndarray, swapped: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(B, k, k) tables of A and of B from per-cell counts (B, m); ``swapped`` cases per cell
        exchange their two predictions."""
        k, nb = self.k, reps.shape[0]
        flat_a = self.t * k + self.a
        flat_b = self.t * k + self.b
        out_a = np.zeros((nb, k * k))
        out_b = np.zeros((nb, k * k))
        kept = reps if swapped is None else reps - swapped
        rows = np.arange(nb)[:, None]
        np.add.at(out_a, (rows, flat_a[None, :]), kept)
        np.add.at(out_b, (rows, flat_b[None, :]), kept)
        if swapped is not None:
            np.add.at(out_a, (rows, flat_b[None, :]), swapped)
            np.add.at(out_b, (rows, flat_a[None, :]), swapped)
        return out_a.reshape(nb, k, k), out_b.reshape(nb, k, k)


def _table_values(metric: _Metric, cells: _Cells, tables: np.ndarray, notes: dict[str, Any]) -> np.ndarray:
    """The metric of each (B, k, k) table: batched formula where valid, else a weighted call."""
    values = np.full(tables.shape[0], np.nan)
    batched = metric.batched_for(cells)
    if batched is not None:
        with np.errstate(invalid="ignore", divide="ignore"):
            values = np.asarray(batched(tables), dtype=np.float64).reshape(-1)
    todo = np.flatnonzero(np.isnan(values))
    if todo.size:
        k = cells.k
        ti, pi = np.divmod(np.arange(k * k), k)
        flat = tables.reshape(tables.shape[0], -1)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for r in todo:
                nz = flat[r] > 0
                w = np.rint(flat[r][nz]).astype(np.int64)
                values[r] = metric(cells.labels[ti[nz]], cells.labels[pi[nz]], w)
        if caught:
            notes["warned"] = notes.get("warned", 0) + len(caught)
            notes.setdefault("example", str(caught[0].message)[:120])  # type: ignore[arg-type]
    return values


def macro_fbeta_formula(keywords: dict[str, Any], labels: np.ndarray) -> Callable[[np.ndarray], np.ndarray] | None:
    """Macro F-beta of (B, k, k) tables (rows true, columns predicted, in ``labels``' order) as
    ``fbeta_score(..., average="macro", **keywords)`` gives it, or None where these keywords ask
    for something else (another average, ``zero_division`` "warn" or NaN, sample weights, ...).
    A class of ``keywords["labels"]`` absent from ``labels`` has no cases: its F is ``zero_division``.

    >>> f = macro_fbeta_formula({"average": "macro", "zero_division": 0}, np.array([0, 1]))
    >>> float(f(np.array([[[3.0, 1.0], [2.0, 4.0]]]))[0])  # F1 of class 0: 6/9, of class 1: 8/11
    0.696969696969697
    """
    allowed = {"average", "labels", "zero_division", "beta"}
    zero = keywords.get("zero_division", "warn")
    if (set(keywords) - allowed or keywords.get("average") != "macro" or isinstance(zero, (str, bool))
            or not isinstance(zero, (int, float)) or zero not in (0, 1)):
        return None
    beta = float(keywords.get("beta", 1.0))
    if not beta > 0 or math.isinf(beta):
        return None
    wanted = labels if keywords.get("labels") is None else np.asarray(keywords["labels"])
    where = [np.flatnonzero(labels == v) for v in wanted.tolist()]
    index = np.array([w[0] if w.size else -1 for w in where], dtype=np.int64)
    b2 = beta * beta

    def formula(tables: np.ndarray) -> np.ndarray:
        tp = np.diagonal(tables, axis1=-2, axis2=-1)
        fn = tables.sum(axis=-1) - tp
        fp = tables.sum(axis=-2) - tp
        num = (1 + b2) * tp
        den = num + b2 * fn + fp
        with np.errstate(invalid="ignore", divide="ignore"):
            per_class = np.where(den > 0, num / np.where(den > 0, den, 1.0), float(zero))
        picked = np.where(index >= 0, per_class[..., np.maximum(index, 0)], float(zero))
        return picked.mean(axis=-1)

    return formula


def _check_batched(metric: _Metric, cells: _Cells, y: np.ndarray, a: np.ndarray) -> None:
    """Drop the batched formula if it disagrees with the metric on the observed data."""
    batched = metric.batched_for(cells)
    if batched is None:
        return
    table, _ = cells.tables(cells.counts[None].astype(np.float64))
    with np.errstate(invalid="ignore", divide="ignore"):
        fast = float(np.asarray(batched(table)).reshape(-1)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        slow = metric(y, a)
    if not (math.isnan(fast) or abs(fast - slow) <= 1e-12 * max(1.0, abs(slow))):
        metric.no_formula = True  # keeps the cells path, drops the formula


def _warn_note(counters: dict[str, Any], notes: list[str]) -> None:
    if counters.get("warned"):
        notes.append(f"the metric warned on some resampled tables ({counters['warned']} warnings, e.g. "
                     f"{counters['example']!r}); its own value for such cases (e.g. zero_division) was used.")


def _observed(metric: _Metric, y: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    va, vb = metric(y, a), metric(y, b)
    if math.isnan(va) or math.isnan(vb):
        which = " and ".join(n for n, v in (("A", va), ("B", vb)) if math.isnan(v))
        raise ValueError(
            f"{metric.name} is undefined (NaN) for classifier {which} on these data; a comparison "
            "needs a defined value for both (check the classes present and the metric's arguments)."
        )
    return va, vb


def _use_cells(metric: _Metric, y: np.ndarray, a: np.ndarray) -> bool:
    return metric.confusion and y.ndim == 1 and a.ndim == 1


def _strata(y: np.ndarray) -> list[np.ndarray]:
    """Indices of each distinct y_true value (row of a 2-D target)."""
    if y.ndim == 1:
        _, inv = np.unique(y, return_inverse=True)
    else:
        _, inv = np.unique(y.reshape(y.shape[0], -1), axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    order = np.argsort(inv, kind="stable")
    bounds = np.flatnonzero(np.diff(inv[order])) + 1
    return np.split(order, bounds)


def _index_replicates(n: int, strata: list[np.ndarray] | None, size: int, rng: np.random.Generator) -> np.ndarray:
    """(size, n) row indices of bootstrap replicates, per stratum when given."""
    if strata is None:
        return rng.integers(0, n, size=(size, n))
    parts = [s[rng.integers(0, s.size, size=(size, s.size))] for s in strata]
    return np.concatenate(parts, axis=1)


def _cell_replicates(cells: _Cells, stratify: bool, size: int, rng: np.random.Generator) -> np.ndarray:
    """(size, m) multinomial draws of the cell counts, per true class when ``stratify``
    (``sampling="stratified"``)."""
    counts = cells.counts
    if not stratify:
        return rng.multinomial(int(counts.sum()), counts / counts.sum(), size=size)
    out = np.empty((size, counts.size), dtype=np.int64)
    for t in np.unique(cells.t):
        idx = np.flatnonzero(cells.t == t)
        c = counts[idx]
        out[:, idx] = rng.multinomial(int(c.sum()), c / c.sum(), size=size)
    return out


def _chunks(total: int, per: int) -> list[int]:
    per = max(1, per)
    return [min(per, total - s) for s in range(0, total, per)]


def _check_resamples(n_resamples: Any) -> int:
    if isinstance(n_resamples, bool) or int(n_resamples) != n_resamples or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer, got {n_resamples!r}.")
    return int(n_resamples)


def _identical(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.array_equal(a, b))


# ------------------------------------------------------------------------------------------
# bootstrap
# ------------------------------------------------------------------------------------------
def paired_bootstrap_test(
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    metric: Any,
    *,
    n_resamples: int = 2000,
    seed: Any = None,
    alternative: str = "two-sided",
    level: float = 0.95,
    sampling: str = "cross-sectional",
    stratify: bool | None = None,
) -> TestResult:
    """Paired bootstrap of ``metric(A) - metric(B)``: cases are resampled with both predictions.

    Replicates resample the cases with replacement: all together (``sampling="cross-sectional"``,
    the default: the number of cases of each class varies as it does between test sets), or
    within each true class ("stratified", for samples drawn by class; ``stratify=True`` is the
    deprecated spelling). The interval is the percentile
    interval of the replicated differences (one-sided for one-sided alternatives); the p-value
    inverts it: ``(1 + #{d* <= 0}) / (B + 1)`` for ``alternative="greater"`` (A better),
    ``(1 + #{d* >= 0}) / (B + 1)`` for ``"less"``, twice the smaller for two-sided (at most 1).
    ``statistic`` is the observed difference. Replicates where the metric is undefined (NaN)
    are left out, with a note. Same seed, same result.

    Seeds: ``seed`` starts one ``numpy.random.default_rng`` stream. A label metric of
    :mod:`clfeval.metrics` (a name, or a ``functools.partial`` such as ``partial(f1_score,
    average="macro", labels=..., zero_division=0)``) draws each replicate's joint (true, A, B) cell
    counts, multinomially (over all cells, or within each true class when stratified); any other
    callable draws row indices. Drawing n rows with replacement (``n_c`` from class ``c``) gives
    exactly a multinomial of the cell counts, so the two paths resample the same distribution, and their estimates are the same number; but
    they use the seed's random numbers differently, so for one seed their replicates (and so the
    interval and p-value) agree only within Monte Carlo error, not digit for digit.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_outputs)
        True labels of the cases.
    pred_a : array-like
        Output of classifier A for each case: labels, or scores for a score metric.
    pred_b : array-like
        Output of classifier B for the same cases, in the same form as ``pred_a``.
    metric : str or callable
        Name of a :mod:`clfeval.metrics` function (``"accuracy_score"``, ``"roc_auc_score"``,
        ...) or a callable ``metric(y_true, pred) -> float``; higher or lower need not mean
        better, the difference is taken as is.
    n_resamples : int, default 2000
        Number of bootstrap replicates B.
    seed : int, numpy.random.Generator or None, default None
        Seed of the random stream (anything ``numpy.random.default_rng`` accepts); None draws
        fresh entropy, so results then vary from call to call.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means A's metric is larger than B's.
    level : float, default 0.95
        Confidence level recorded in ``extra["level"]``; any level can be asked of
        :meth:`TestResult.confidence_interval`.
    sampling : {"cross-sectional", "stratified"}, default "cross-sectional"
        Resample all cases together, or within each true class.
    stratify : bool, optional
        Deprecated spelling of ``sampling`` (True means "stratified"); it warns. Default None.

    Returns
    -------
    TestResult
        The observed difference ``metric(A) - metric(B)`` as ``statistic`` and ``estimate``,
        the bootstrap p-value, the percentile interval, and ``extra`` holding ``metric_a``,
        ``metric_b``, ``n_resamples``, the bootstrap ``se`` and ``level``.

    References
    ----------
    .. [1] Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman &
       Hall/CRC, New York.

    Examples
    --------
    >>> y = [0, 1, 1, 0, 1, 0, 1, 1, 0, 0]
    >>> a = [0, 1, 1, 0, 1, 0, 1, 0, 0, 0]
    >>> b = [0, 1, 0, 0, 1, 1, 1, 0, 1, 0]
    >>> r = paired_bootstrap_test(y, a, b, "accuracy_score", seed=0)
    >>> round(r.estimate, 3), r.confidence_interval().low <= r.estimate <= r.confidence_interval().high
    (0.3, True)
    """
    check_alternative(alternative)
    level = check_level(level)
    stratify = check_sampling(sampling, stratify) == "stratified"
    n_resamples = _check_resamples(n_resamples)
    y, a, b = _inputs(y_true, pred_a, pred_b)
    m = _Metric(metric)
    va, vb = _observed(m, y, a, b)
    estimate = va - vb
    rng = np.random.default_rng(seed)
    notes: list[str] = []
    counters: dict[str, Any] = {}
    if _use_cells(m, y, a):
        cells = _Cells(y, a, b)
        _check_batched(m, cells, y, a)
        parts = []
        for size in _chunks(n_resamples, _CHUNK // max(1, cells.counts.size + 2 * cells.k**2)):
            reps = _cell_replicates(cells, stratify, size, rng)
            ta, tb = cells.tables(reps.astype(np.float64))
            parts.append(_table_values(m, cells, ta, counters) - _table_values(m, cells, tb, counters))
        diffs = np.concatenate(parts)
        how = "multinomial over the joint (true, A, B) cells"
    else:
        strata = _strata(y) if stratify else None
        diffs = np.empty(n_resamples)
        per = max(1, _CHUNK // max(1, y.shape[0]))
        done = 0
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for size in _chunks(n_resamples, per):
                idx = _index_replicates(y.shape[0], strata, size, rng)
                for r in range(size):
                    ii = idx[r]
                    diffs[done + r] = m(y[ii], a[ii]) - m(y[ii], b[ii])
                done += size
        if caught:
            notes.append(f"the metric warned during resampling ({len(caught)} warnings, e.g. "
                         f"{str(caught[0].message)[:120]!r}).")
        how = "rows resampled"
    how += ", " + sampling_phrase("stratified" if stratify else "cross-sectional")
    _warn_note(counters, notes)
    bad = np.isnan(diffs)
    if bad.any():
        notes.append(f"{int(bad.sum())} of {n_resamples} replicates were undefined (NaN) and left out.")
        diffs = diffs[~bad]
    if diffs.size == 0:
        raise ValueError(f"{m.name} is undefined in every bootstrap replicate; no interval or p-value.")
    if _identical(a, b):
        notes.append("pred_a and pred_b are identical: the difference is 0 in every replicate, p = 1.")
    nb = diffs.size
    tol = 1e-12 * max(1.0, abs(estimate))
    p_greater = (1 + np.count_nonzero(diffs <= tol)) / (nb + 1)
    p_less = (1 + np.count_nonzero(diffs >= -tol)) / (nb + 1)
    pvalue = {"greater": p_greater, "less": p_less}.get(alternative, min(1.0, 2 * min(p_greater, p_less)))
    if _identical(a, b):
        pvalue = 1.0
    sorted_diffs = np.sort(diffs)

    def interval(lv: float) -> tuple[float, float]:
        alpha = 1.0 - lv
        if alternative == "two-sided":
            lo, hi = np.quantile(sorted_diffs, [alpha / 2, 1 - alpha / 2])
        elif alternative == "greater":
            lo, hi = np.quantile(sorted_diffs, alpha), math.inf
        else:
            lo, hi = -math.inf, np.quantile(sorted_diffs, 1 - alpha)
        return float(lo), float(hi)

    return TestResult(
        statistic=float(estimate),
        pvalue=float(pvalue),
        method=f"paired bootstrap test of {m.name} (B={n_resamples}, {how})",
        alternative=alternative,
        estimate=float(estimate),
        estimate_name=f"{m.name} difference (A - B)",
        interval=interval,
        interval_method=f"bootstrap percentile (paired, B={n_resamples})",
        notes=tuple(notes),
        extra={"metric_a": va, "metric_b": vb, "n_resamples": n_resamples,
               "se": float(np.std(diffs, ddof=1)) if nb > 1 else math.nan, "level": level},
    )


# ------------------------------------------------------------------------------------------
# permutation
# ------------------------------------------------------------------------------------------
def _pvalue_from_null(null: np.ndarray, weights: np.ndarray | None, observed: float, alternative: str,
                      exact: bool) -> float:
    tol = 1e-12 * max(1.0, abs(observed))
    if alternative == "greater":
        hit = null >= observed - tol
    elif alternative == "less":
        hit = null <= observed + tol
    else:
        hit = np.abs(null) >= abs(observed) - tol
    if exact:
        w = np.full(null.size, 1.0 / null.size) if weights is None else weights
        return float(min(1.0, np.sum(w[hit])))
    return float((1 + np.count_nonzero(hit)) / (null.size + 1))


def paired_permutation_test(
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    metric: Any,
    *,
    n_resamples: int = 9999,
    seed: Any = None,
    alternative: str = "two-sided",
) -> TestResult:
    """Paired permutation test of ``metric(A) - metric(B)``: swap A's and B's output per case.

    Under the null hypothesis the two classifiers are exchangeable on each case, so every
    swap pattern is equally likely. When the swap patterns that matter (cases where A and B
    differ; for label metrics, the number of swapped cases per joint cell) number at most
    ``n_resamples``, they are enumerated and the p-value is exact; otherwise ``n_resamples``
    random patterns give ``(1 + #{as extreme}) / (n_resamples + 1)``. Two-sided: ``|d*| >= |d|``
    (the null distribution is symmetric). ``extra["exact"]`` says which. Identical predictions:
    p = 1 with a note. No interval (use :func:`paired_bootstrap_test`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_outputs)
        True labels of the cases.
    pred_a : array-like
        Output of classifier A for each case: labels, or scores for a score metric.
    pred_b : array-like
        Output of classifier B for the same cases, in the same form as ``pred_a``.
    metric : str or callable
        Name of a :mod:`clfeval.metrics` function (``"accuracy_score"``, ``"roc_auc_score"``,
        ...) or a callable ``metric(y_true, pred) -> float``; higher or lower need not mean
        better, the difference is taken as is.
    n_resamples : int, default 9999
        Number of random swap patterns drawn when the patterns are too many to enumerate (and
        the largest number enumerated exactly).
    seed : int, numpy.random.Generator or None, default None
        Seed of the random stream used for random swap patterns (anything
        ``numpy.random.default_rng`` accepts).
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means A's metric is larger than B's.

    Returns
    -------
    TestResult
        The observed difference as ``statistic`` and ``estimate``, the permutation p-value, and
        ``extra`` saying among others whether the p-value is ``exact``.

    References
    ----------
    .. [1] Efron, B. and Tibshirani, R. J. (1993), chapter 15. An Introduction to the Bootstrap. Chapman &
       Hall/CRC, New York.

    Examples
    --------
    >>> y = [0, 1, 1, 0, 1, 0, 1, 1]
    >>> r = paired_permutation_test(y, [0, 1, 1, 0, 1, 0, 0, 1], [0, 1, 0, 1, 1, 0, 0, 1], "accuracy_score")
    >>> round(r.estimate, 3), round(r.pvalue, 3), r.extra["exact"]
    (0.25, 0.5, True)
    >>> r = paired_permutation_test([0, 1, 1, 0], [0, 1, 1, 0], [0, 1, 1, 1], "accuracy_score")
    >>> r.estimate, r.pvalue
    (0.25, 1.0)
    """
    check_alternative(alternative)
    n_resamples = _check_resamples(n_resamples)
    y, a, b = _inputs(y_true, pred_a, pred_b)
    m = _Metric(metric)
    va, vb = _observed(m, y, a, b)
    observed = va - vb
    rng = np.random.default_rng(seed)
    notes: list[str] = []
    counters: dict[str, Any] = {}
    if _identical(a, b):
        notes.append("pred_a and pred_b are identical: every permutation gives the same value, p = 1.")
        return _perm_result(m, observed, 1.0, alternative, n_resamples, True, notes, va, vb)
    if _use_cells(m, y, a):
        cells = _Cells(y, a, b)
        _check_batched(m, cells, y, a)
        disc = np.flatnonzero(cells.a != cells.b)
        c = cells.counts[disc]
        n_patterns = math.prod(int(x) + 1 for x in c)
        exact = n_patterns <= n_resamples
        if exact:
            from scipy.stats import binom

            grid = np.array(list(itertools.product(*(range(int(x) + 1) for x in c))), dtype=np.int64)
            weights = np.prod(binom.pmf(grid, c[None, :], 0.5), axis=1)
            swaps_all = grid
        else:
            weights = None
            swaps_all = rng.binomial(c[None, :], 0.5, size=(n_resamples, c.size))
        null_parts = []
        for start in range(0, swaps_all.shape[0], max(1, _CHUNK // max(1, cells.counts.size + 2 * cells.k**2))):
            sw = swaps_all[start:start + _CHUNK // max(1, cells.counts.size + 2 * cells.k**2)]
            full = np.zeros((sw.shape[0], cells.counts.size))
            full[:, disc] = sw
            reps = np.broadcast_to(cells.counts.astype(np.float64), full.shape)
            ta, tb = cells.tables(reps, full)
            null_parts.append(_table_values(m, cells, ta, counters) - _table_values(m, cells, tb, counters))
        null = np.concatenate(null_parts)
    else:
        differ = a != b
        if differ.ndim > 1:
            differ = differ.reshape(differ.shape[0], -1).any(axis=1)
        d_idx = np.flatnonzero(differ)
        exact = d_idx.size < 62 and 2 ** d_idx.size <= n_resamples
        if exact:
            bits = ((np.arange(2 ** d_idx.size)[:, None] >> np.arange(d_idx.size)[None, :]) & 1).astype(bool)
        else:
            bits = rng.random((n_resamples, d_idx.size)) < 0.5
        weights = None
        null = np.empty(bits.shape[0])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for r in range(bits.shape[0]):
                swap = np.zeros(y.shape[0], dtype=bool)
                swap[d_idx[bits[r]]] = True
                mask = swap.reshape((-1,) + (1,) * (a.ndim - 1))
                aa = np.where(mask, b, a)
                bb = np.where(mask, a, b)
                null[r] = m(y, aa) - m(y, bb)
        if caught:
            notes.append(f"the metric warned during the permutations ({len(caught)} warnings, e.g. "
                         f"{str(caught[0].message)[:120]!r}).")
    _warn_note(counters, notes)
    bad = np.isnan(null)
    if bad.any():
        notes.append(f"{int(bad.sum())} of {null.size} permutations gave an undefined (NaN) value and were "
                     "left out.")
        if weights is not None:
            weights = weights[~bad] / weights[~bad].sum()
        null = null[~bad]
    pvalue = _pvalue_from_null(null, weights, observed, alternative, exact)
    return _perm_result(m, observed, pvalue, alternative, n_resamples, exact, notes, va, vb)


def _perm_result(m: _Metric, observed: float, pvalue: float, alternative: str, n_resamples: int,
                 exact: bool, notes: list[str], va: float, vb: float) -> TestResult:
    kind = "exact, all swap patterns" if exact else f"Monte Carlo, {n_resamples} random swap patterns"
    return TestResult(
        statistic=float(observed),
        pvalue=float(pvalue),
        method=f"paired permutation test of {m.name} ({kind})",
        alternative=alternative,
        estimate=float(observed),
        estimate_name=f"{m.name} difference (A - B)",
        notes=tuple(notes),
        extra={"metric_a": va, "metric_b": vb, "exact": exact, "n_resamples": n_resamples},
    )
