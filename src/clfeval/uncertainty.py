"""How sure are we: confidence intervals for classification measures, analytic and bootstrap.

Everything works on the sufficient statistics, never on rows:

* :func:`proportion_ci`: Wilson, Clopper-Pearson, Agresti-Coull, Jeffreys and Wald intervals of a
  binomial proportion, vectorised over arrays of counts.
* :func:`delta_method_se`: standard errors of any function of a confusion table under multinomial
  sampling of its cells (the delta method, exact gradients of the report's measures, batched).
* :func:`bootstrap_confusion` / :func:`bootstrap_ranking`: a bootstrap is a batch of resampled count
  tables, multinomial over the cells (stratified by true class by default), that the formulas of
  :mod:`clfeval.measures` and :mod:`clfeval.curves` read all at once.
* :func:`bootstrap_ci`: percentile and BCa intervals of any vectorised statistic of a count table;
  BCa's jackknife runs over the cells (leave one count out of a cell, weighted by the cell count).
* :func:`confusion_intervals`: every interval of the classification report in one dict;
  :func:`ranking_intervals`: ROC AUC and average precision; :func:`roc_band`, :func:`pr_band`,
  :func:`sensitivity_at_specificity`, :func:`specificity_at_sensitivity`: curves and operating points.

>>> ci = proportion_ci(81, 100)
>>> round(ci.low, 4), round(ci.high, 4), ci.method
(0.7222, 0.8749, 'Wilson score')
>>> d = confusion_intervals(np.array([[40, 10], [5, 45]]))
>>> d["per_class"]["recall"].low.round(3).tolist()
[0.67, 0.786]
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from . import measures as m
from .curves import average_precision as _average_precision
from .curves import roc_auc as _roc_auc
from .exceptions import UndefinedMetricWarning
from .interval_results import Intervals
from .interval_scales import transformed_interval
from .resampling import check_sampling, resampled_tables, sampling_phrase, smoothing_of
from .measure_gradients import f_column
from .stats._result import ConfidenceInterval, check_level

__all__ = [
    "PROPORTION_METHODS",
    "proportion_ci",
    "delta_method_se",
    "bootstrap_confusion",
    "bootstrap_ranking",
    "bootstrap_ci",
    "interval_from_replicates",
    "jackknife_acceleration",
    "auc_leave_one_out",
    "mover_average",
    "confusion_intervals",
    "ranking_intervals",
    "CurveBand",
    "roc_band",
    "pr_band",
    "sensitivity_at_specificity",
    "specificity_at_sensitivity",
]

#: Method key -> name reported in :attr:`ConfidenceInterval.method`.
PROPORTION_METHODS = {
    "wilson": "Wilson score",
    "clopper-pearson": "Clopper-Pearson (exact)",
    "agresti-coull": "Agresti-Coull",
    "jeffreys": "Jeffreys",
    "wald": "Wald (normal approximation)",
}
DELTA = "delta method (multinomial)"
DELTA_WEIGHTED = "delta method (weighted cases)"


def delta_method_name(base: str, measure: str, k: int) -> str:
    """The method name of a report's delta-method interval: the variance, the scale, the smoothing.

    >>> delta_method_name(DELTA, "mcc", 2)
    'delta method (multinomial), Fisher z scale, cells + 1/2'
    """
    scale = "Fisher z" if measure in _RANGE else "logit"
    return f"{base}, {scale} scale, cells + 1/{k}"
KISH = " (Kish effective sample size)"

from .resampling import CHUNK_ELEMENTS as _CHUNK_ELEMENTS  # noqa: E402


# ------------------------------------------------------------------------------------------
# small helpers
# ------------------------------------------------------------------------------------------
def _z(level: float) -> float:
    """Two-sided normal quantile of ``level`` (1.96 at 0.95)."""
    from scipy.special import ndtri

    return float(ndtri(0.5 + level / 2.0))


def _choice(value: str, allowed: Any, name: str) -> str:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}.")
    return value


def _out(a: np.ndarray) -> Any:
    """A 0-d array as a Python float, other arrays as they are."""
    a = np.asarray(a, dtype=np.float64)
    return float(a) if a.ndim == 0 else a


def _first_bad(mask: np.ndarray) -> str:
    idx = np.argwhere(mask)[0]
    return str(tuple(int(i) for i in idx)) if idx.size > 1 else str(int(idx[0])) if idx.size else "()"


def _check_resamples(n_resamples: int) -> int:
    if isinstance(n_resamples, bool) or int(n_resamples) != n_resamples or n_resamples < 2:
        raise ValueError(f"n_resamples must be an integer of at least 2, got {n_resamples!r}.")
    return int(n_resamples)


# ------------------------------------------------------------------------------------------
# 1. proportions
# ------------------------------------------------------------------------------------------
def proportion_ci(
    successes: Any,
    total: Any,
    *,
    level: float = 0.95,
    method: Literal["wilson", "clopper-pearson", "agresti-coull", "jeffreys", "wald"] = "wilson",
) -> ConfidenceInterval:
    """Confidence interval of a binomial proportion ``successes / total``.

    Vectorised: ``successes`` and ``total`` broadcast against each other; scalars give floats in
    ``low``/``high``/``estimate``, arrays give float arrays of the broadcast shape. Counts may be
    non-integer (weighted data); they must be finite, non-negative, with successes <= total.

    ``total == 0`` (no trials) leaves the proportion undefined (0/0): its estimate, low and high
    are NaN there, and only there.

    Methods (Brown, Cai & DasGupta 2001, Statistical Science 16:101-133): ``wilson`` (score
    interval, Wilson 1927), ``clopper-pearson`` (inverts two one-sided binomial tests; at least
    nominal coverage), ``agresti-coull`` (Wald at the Wilson centre with n + z^2 trials),
    ``jeffreys`` (equal-tailed Beta(x + 1/2, n - x + 1/2) quantiles, with low = 0 at x = 0 and
    high = 1 at x = n as Brown, Cai & DasGupta recommend) and ``wald`` (p +/- z se, zero width
    at 0 and n; shown for comparison, not recommended). Wald and Agresti-Coull are clipped to
    [0, 1].

    >>> ci = proportion_ci(np.array([0, 5, 10]), 10, method="clopper-pearson")
    >>> ci.low.round(4).tolist(), ci.high.round(4).tolist()
    ([0.0, 0.1871, 0.6915], [0.3085, 0.8129, 1.0])
    >>> proportion_ci(0, 0).low
    nan
    """
    level = check_level(level)
    _choice(method, PROPORTION_METHODS, "method")
    try:
        x = np.asarray(successes, dtype=np.float64)
        n = np.asarray(total, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"successes and total must be numbers or arrays of numbers: {exc}") from None
    try:
        x, n = np.broadcast_arrays(x, n)
    except ValueError:
        raise ValueError(
            f"successes (shape {np.shape(successes)}) and total (shape {np.shape(total)}) do not broadcast."
        ) from None
    for name, a in (("successes", x), ("total", n)):
        if not np.isfinite(a).all():
            raise ValueError(f"{name} must be finite; found {a[~np.isfinite(a)].flat[0]} at {_first_bad(~np.isfinite(a))}.")
        if (a < 0).any():
            raise ValueError(f"{name} must be non-negative; found {a[a < 0].flat[0]} at {_first_bad(a < 0)}.")
    over = x > n * (1 + 1e-12)
    if over.any():
        raise ValueError(f"successes exceed total at {_first_bad(over)} ({x[over].flat[0]} > {n[over].flat[0]}).")
    x = np.minimum(x, n)
    empty = n == 0
    nn = np.where(empty, 1.0, n)
    p = x / nn
    alpha = 1.0 - level
    z = _z(level)
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "wilson":
            z2 = z * z
            centre = (x + z2 / 2) / (nn + z2)
            half = z * np.sqrt(x * (nn - x) / nn + z2 / 4) / (nn + z2)
            low, high = centre - half, centre + half
        elif method == "agresti-coull":
            z2 = z * z
            nt = nn + z2
            pt = (x + z2 / 2) / nt
            half = z * np.sqrt(pt * (1 - pt) / nt)
            low, high = pt - half, pt + half
        elif method == "wald":
            half = z * np.sqrt(p * (1 - p) / nn)
            low, high = p - half, p + half
        else:
            from scipy.special import betaincinv

            shift = 0.5 if method == "jeffreys" else 0.0
            a_low = np.where(x > 0, x + shift, 1.0)
            b_high = np.where(x < nn, nn - x + shift, 1.0)
            low = betaincinv(a_low, nn - x + (shift or 1.0), alpha / 2)
            high = betaincinv(x + (shift or 1.0), b_high, 1 - alpha / 2)
    low = np.where(x <= 0, 0.0, np.clip(low, 0.0, 1.0))
    high = np.where(x >= nn, 1.0, np.clip(high, 0.0, 1.0))
    if method == "wald":  # Wald has zero width at the ends, and no other help there
        low = np.where(x >= nn, 1.0, low)
        high = np.where(x <= 0, 0.0, high)
    nan = np.nan
    low, high, p = (np.where(empty, nan, a) for a in (low, high, p))
    se = None
    if method == "wald":  # the only proportion interval made of a standard error
        with np.errstate(invalid="ignore"):
            se = _out(np.where(empty, nan, np.sqrt(p * (1 - p) / nn)))
    return ConfidenceInterval(_out(low), _out(high), level, PROPORTION_METHODS[method], _out(p), standard_error=se)


# ------------------------------------------------------------------------------------------
# confusion tables: validation and the metrics of the report, batched
# ------------------------------------------------------------------------------------------
def _table(counts: Any, *, batch: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """(table as float64 or int64 array, labels or None); ValueError on anything unusable."""
    labels = None
    if hasattr(counts, "matrix") and hasattr(counts, "labels"):  # ConfusionCounts
        labels, counts = np.asarray(counts.labels), counts.matrix
    elif hasattr(counts, "per_class") and hasattr(counts, "counts"):  # ConfusionMatrix
        if counts.counts is None:
            raise ValueError(
                "this confusion matrix is multilabel (per-label 2 x 2 tables); give one label's "
                "(2, 2) table, or the (k, k) table of a single-label task."
            )
        labels, counts = np.asarray(counts.labels), counts.counts
    a = np.asarray(counts)
    if a.dtype.kind == "b":
        a = a.astype(np.int64)
    if a.dtype.kind not in "iuf":
        try:
            a = a.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"counts must be numbers, got an array of dtype {a.dtype}.") from None
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or (a.ndim > 2 and not batch):
        want = "(k, k) or (..., k, k)" if batch else "(k, k)"
        raise ValueError(
            f"counts must be a {want} confusion table (rows true, columns predicted), got shape {a.shape}."
        )
    if a.shape[-1] == 0 or a.size == 0:
        raise ValueError(f"counts is empty (shape {a.shape}): there are no classes to evaluate.")
    if a.dtype.kind == "f" and not np.isfinite(a).all():
        raise ValueError(f"counts must be finite; found {a[~np.isfinite(a)].flat[0]} at {_first_bad(~np.isfinite(a))}.")
    if (a < 0).any():
        raise ValueError(f"counts must be non-negative; found {a[a < 0].flat[0]} at {_first_bad(a < 0)}.")
    totals = a.sum(axis=(-2, -1))
    if (totals == 0).any():
        where = "" if a.ndim == 2 else f" (table {_first_bad(totals == 0)} of the batch)"
        raise ValueError(f"the confusion table holds no samples{where}: every count is zero.")
    if a.dtype.kind == "u":
        a = a.astype(np.int64)
    return a, labels


_fname = f_column


PER_CLASS = ("precision", "recall", "f1", "fallout", "specificity", "npv")
OVERALL = ("accuracy", "error_rate", "balanced_accuracy", "mcc", "kappa")
AVERAGES = ("micro", "macro", "weighted")


def _nan_average(values: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Average over the last axis leaving NaN out (as measures.average), batched."""
    keep = ~np.isnan(values)
    v = np.where(keep, values, 0.0)
    if weights is None:
        w = keep.astype(np.float64)
    else:
        w = np.where(keep, np.asarray(weights, dtype=np.float64), 0.0)
        w = np.where((w.sum(axis=-1) == 0)[..., None], keep, w)  # all-zero weights: plain mean
    return m.ratio((v * w).sum(axis=-1), w.sum(axis=-1))


def _rates(tp, fp, fn, tn, beta: float | None) -> dict[str, np.ndarray]:
    return {
        "precision": m.precision(tp, fp),
        "recall": m.recall(tp, fn),
        _fname(beta): m.fbeta(tp, fp, fn, 1.0 if beta is None else beta),
        "fallout": m.fallout(fp, tn),
        "specificity": m.specificity(tn, fp),
        "npv": m.npv(tn, fn),
    }


def _confusion_metrics(cm: np.ndarray, beta: float | None) -> dict[tuple[str, str], np.ndarray]:
    """Every interval-bearing number of the report, for tables of shape (..., k, k).

    Keys are (section, metric): section "per_class" gives (..., k) arrays, "micro", "macro",
    "weighted" and "overall" give (...) arrays. Same conventions as the report (NaN classes
    are left out of the averages; MCC is 0 where undefined, as in measures).
    """
    cm = np.asarray(cm, dtype=np.float64)
    tp, fp, fn, tn = m.one_vs_rest(cm)
    per_class = _rates(tp, fp, fn, tn, beta)
    micro = _rates(*(a.sum(axis=-1) for a in (tp, fp, fn, tn)), beta)
    support = tp + fn
    out: dict[tuple[str, str], np.ndarray] = {}
    for name, v in per_class.items():
        out["per_class", name] = v
    for name, v in micro.items():
        out["micro", name] = v
    for name, v in per_class.items():
        out["macro", name] = _nan_average(v)
    for name, v in per_class.items():
        out["weighted", name] = _nan_average(v, support)
    out["overall", "accuracy"] = m.accuracy(cm)
    out["overall", "error_rate"] = m.error_rate(cm)
    out["overall", "balanced_accuracy"] = m.balanced_accuracy(cm)
    out["overall", "mcc"] = m.matthews_corrcoef(cm)
    out["overall", "kappa"] = m.cohen_kappa(cm)
    return out


def _mcc_undefined(cm: np.ndarray) -> np.ndarray:
    """MCC is 0/0 where all samples share one true class or one predicted class."""
    n = cm.sum(axis=(-2, -1))
    return (cm.sum(axis=-1).max(axis=-1) == n) | (cm.sum(axis=-2).max(axis=-1) == n)


_RANGE = {"mcc": (-1.0, 1.0), "kappa": (-1.0, 1.0)}


# ------------------------------------------------------------------------------------------
# 2. the delta method
# ------------------------------------------------------------------------------------------
def delta_method_se(
    func: Callable[[np.ndarray], Any], counts: Any
) -> Any:
    """Standard error(s) of ``func(table)`` under multinomial sampling of the table's cells.

    ``func`` maps tables of shape (..., k, k) to an array of shape (..., *s), or to a dict of
    such arrays; the result has the same structure, with the leading shape of ``counts``.
    With cell counts c and gradient g = d func / d c,

        Var = sum_c g_c^2 c - (sum_c g_c c)^2 / n,

    the first-order (delta-method) variance of the multinomial (Agresti, Categorical Data
    Analysis, 3rd ed., section 16.1). Cells with count 0 add nothing. The measures of whole tables
    (``measures.accuracy``, ``error_rate``, ``balanced_accuracy``, ``matthews_corrcoef``,
    ``cohen_kappa``, also ``functools.partial(cohen_kappa, weights=...)``) take their exact
    gradients (:mod:`clfeval.measure_gradients`): for Cohen's kappa this is the large-sample
    variance of Fleiss, Cohen & Everitt (1969), statsmodels' ``cohens_kappa(...).std_kappa``.
    Any other ``func`` is differentiated numerically (central differences with a step of 1e-5
    of each cell, all cells of all tables in one batched call; about 10 correct digits).

    >>> se = delta_method_se(m.accuracy, np.array([[30, 10], [10, 50]]))
    >>> round(float(se), 6), round((0.8 * 0.2 / 100) ** 0.5, 6)
    (0.04, 0.04)
    """
    from .influence import linearized_variance
    from .measure_gradients import gradient_of, table_variance

    table, _ = _table(counts)
    cm = table.astype(np.float64)
    n = cm.sum(axis=(-2, -1))
    grad = gradient_of(func)
    if grad is not None:
        return _out(np.sqrt(table_variance(grad(table), cm, cm, n)))
    var = linearized_variance(func, cm, cm, n)
    out = {key: _out(np.sqrt(v)) for key, v in var.items()}
    return out[None] if list(out) == [None] else out


# ------------------------------------------------------------------------------------------
# 3. bootstrap over the cells
# ------------------------------------------------------------------------------------------
def _integer_cells(cells: np.ndarray, what: str) -> np.ndarray:
    if cells.dtype.kind == "f":
        if not np.array_equal(cells, np.round(cells)):
            raise ValueError(
                f"the bootstrap resamples {what} as counts, but these are non-integer weights; "
                "use method='analytic' (delta method and proportion intervals accept weights) or "
                "resample the weighted rows yourself."
            )
        cells = np.round(cells)
    return cells.astype(np.int64)


def bootstrap_confusion(
    cm: Any, n_resamples: int = 2000, *, seed: Any = None, sampling: str = "cross-sectional",
    stratify: bool | None = None,
) -> np.ndarray:
    """``n_resamples`` bootstrap replicates of a (k, k) confusion table, as a (B, k, k) int64 array.

    Each replicate is a multinomial draw over the cells (:mod:`clfeval.resampling`): with
    ``sampling="cross-sectional"`` (the default) all cells together with the grand total, so
    class supports vary as they do between test sets; with "stratified" each row (true class)
    with its own total. ``stratify`` is the deprecated spelling (True: "stratified"). Same
    ``seed``, same replicates. Any formula of :mod:`clfeval.measures` then evaluates every
    replicate in one call.

    >>> reps = bootstrap_confusion(np.array([[8, 2], [1, 9]]), 5, seed=0, sampling="stratified")
    >>> reps.shape, reps.sum(axis=2)[:, 0].tolist()
    ((5, 2, 2), [10, 10, 10, 10, 10])
    """
    sampling = check_sampling(sampling, stratify)
    table, _ = _table(cm, batch=False)
    table = _integer_cells(table, "the confusion table")
    n_resamples = _check_resamples(n_resamples)
    rng = np.random.default_rng(seed)
    return np.concatenate(list(resampled_tables(table, n_resamples, rng, sampling)), axis=0)


def _ranking_cells(ranking: Any) -> np.ndarray:
    """The (2, D) table [negatives; positives] of a BinaryRanking (or a (2, D) array)."""
    if hasattr(ranking, "pos") and hasattr(ranking, "negatives"):
        pos = np.asarray(ranking.pos)
        neg = np.asarray(ranking.negatives())
        cells = np.stack([neg.astype(np.float64 if neg.dtype.kind == "f" else np.int64),
                          pos.astype(np.float64 if pos.dtype.kind == "f" else np.int64)])
    else:
        cells = np.asarray(ranking)
        if cells.ndim != 2 or cells.shape[0] != 2:
            raise ValueError(
                f"expected a BinaryRanking or a (2, D) array of [negative; positive] counts per score "
                f"(highest score first), got shape {cells.shape}."
            )
    if cells.shape[1] == 0:
        raise ValueError("the ranking is empty: there are no scores.")
    if cells.dtype.kind == "f" and not np.isfinite(cells).all():
        raise ValueError("the ranking's counts must be finite.")
    if (cells < 0).any():
        raise ValueError("the ranking's counts must be non-negative.")
    totals = cells.sum(axis=1)
    if (totals == 0).any():
        side = "negatives" if totals[0] == 0 else "positives"
        raise ValueError(f"the ranking has no {side}: ROC AUC and the curves are undefined (0/0).")
    return _integer_cells(cells, "the ranking's score counts")


def bootstrap_ranking(
    ranking: Any, n_resamples: int = 2000, *, seed: Any = None, sampling: str = "cross-sectional",
    stratify: bool | None = None,
) -> np.ndarray:
    """Bootstrap replicates of a ranking's per-score counts, (B, 2, D): [:, 0] negatives, [:, 1] positives.

    All score cells are redrawn together (``sampling="cross-sectional"``, the default), or each
    class with its own total ("stratified"; ``stratify=True`` is the deprecated spelling); scores
    keep their order, so ``curves.roc_auc(reps[:, 0], reps[:, 1])`` gives
    every replicate's AUC at once. Memory is B x 2 x D counts: for long rankings use
    :func:`ranking_intervals` or :func:`bootstrap_ci`, which stream the replicates.

    >>> from clfeval.roc_pr import BinaryRanking
    >>> r = BinaryRanking(np.array([0.9, 0.5, 0.1]), np.array([0, 1, 2]), np.array([2, 1, 0]))
    >>> bootstrap_ranking(r, 3, seed=1, sampling="stratified").sum(axis=2).tolist()
    [[3, 3], [3, 3], [3, 3]]
    """
    sampling = check_sampling(sampling, stratify)
    cells = _ranking_cells(ranking)
    n_resamples = _check_resamples(n_resamples)
    rng = np.random.default_rng(seed)
    return np.concatenate(list(resampled_tables(cells, n_resamples, rng, sampling)), axis=0)


def _replicates(
    statistic: Callable[[np.ndarray], Any], cells: np.ndarray, n_resamples: int, seed: Any, sampling: str,
    smoothing: float = 0.0,
) -> Any:
    """statistic evaluated on every replicate: (B, ...) array, or dict of them."""
    rng = np.random.default_rng(seed)
    parts = [statistic(batch) for batch in resampled_tables(cells, n_resamples, rng, sampling, smoothing)]
    if isinstance(parts[0], dict):
        return {k: np.concatenate([np.asarray(p[k], dtype=np.float64) for p in parts]) for k in parts[0]}
    return np.concatenate([np.asarray(p, dtype=np.float64) for p in parts])


def _quantiles(values: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Per-column quantiles of (B, E) values ignoring NaN, with per-column levels q (Q, E).

    Linear interpolation between order statistics (numpy's default); all-NaN columns give NaN.
    """
    s = np.sort(values, axis=0)  # NaN last
    valid = (~np.isnan(values)).sum(axis=0)
    pos = q * np.maximum(valid - 1, 0)
    lo = np.floor(pos).astype(np.intp)
    hi = np.minimum(lo + 1, np.maximum(valid - 1, 0))
    frac = pos - lo
    cols = np.arange(values.shape[1])
    a, b = s[lo, cols], s[hi, cols]
    out = a + frac * (b - a)
    return np.where(valid > 0, out, np.nan)


def jackknife_acceleration(loo: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """BCa's acceleration a = sum w d^3 / (6 (sum w d^2)^1.5), d = mean - leave-one-out value.

    ``loo``: (m, E) leave-one-out values of E statistics, one row per non-empty cell; ``weights``
    (m,): how many cases each row stands for (the cell's count). NaN values are left out; no
    spread gives 0.

    >>> round(float(jackknife_acceleration(np.array([[1.0], [2.0], [4.0]]), np.ones(3))[0]), 5)
    -0.03674
    """
    keep = ~np.isnan(loo)
    w = np.where(keep, weights[:, None], 0.0)
    v = np.where(keep, loo, 0.0)
    sw = w.sum(axis=0)
    mean = np.divide((w * v).sum(axis=0), sw, out=np.zeros(sw.shape), where=sw > 0)
    d = np.where(keep, mean - loo, 0.0)
    num = (w * d**3).sum(axis=0)
    den = 6.0 * (w * d**2).sum(axis=0) ** 1.5
    return np.divide(num, den, out=np.zeros(num.shape), where=den > 0)


def interval_from_replicates(
    reps: np.ndarray, estimate: np.ndarray, level: float, kind: str, accel: np.ndarray | None = None,
    center: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(low, high, undefined replicates per entry) of (B, ...) bootstrap replicates.

    ``kind="percentile"``: the alpha/2 and 1 - alpha/2 quantiles (linear interpolation, numpy's
    default), NaN replicates left out. ``kind="bca"`` (Efron 1987): the quantile levels
    Phi(z0 + (z0 + z_q) / (1 - a (z0 + z_q))), with the bias correction z0 = Phi^-1(share of
    replicates below ``center``, ties counted half, kept within [0.5/B, 1 - 0.5/B]) and the
    acceleration ``accel`` (:func:`jackknife_acceleration`; None: 0). ``center``: the statistic
    of the table the replicates were drawn from (default ``estimate``; the smoothed table's
    value when the draws were smoothed). scipy.stats.bootstrap's BCa gives the same bounds from
    the same replicates (tests/test_uncertainty.py).

    >>> reps = np.arange(1, 1001, dtype=float)[:, None] / 1000
    >>> low, high, _ = interval_from_replicates(reps, np.array([0.5]), 0.9, "percentile")
    >>> round(float(low[0]), 5), round(float(high[0]), 5)
    (0.05095, 0.95005)
    """
    from scipy.special import ndtr, ndtri

    B = reps.shape[0]
    shape = reps.shape[1:]
    flat = reps.reshape(B, -1)
    est = np.broadcast_to(np.asarray(estimate, dtype=np.float64), shape).reshape(-1)
    ref = est if center is None else np.broadcast_to(np.asarray(center, dtype=np.float64), shape).reshape(-1)
    alpha = 1.0 - level
    q = np.array([alpha / 2, 1 - alpha / 2])[:, None] * np.ones(flat.shape[1])
    if kind == "bca":
        valid = (~np.isnan(flat)).sum(axis=0)
        with np.errstate(invalid="ignore"):
            below = (flat < ref).sum(axis=0) + 0.5 * (flat == ref).sum(axis=0)
            frac = np.divide(below, valid, out=np.full(below.shape, 0.5), where=valid > 0)
        frac = np.clip(frac, 0.5 / B, 1 - 0.5 / B)  # all replicates on one side: keep z0 finite
        z0 = ndtri(frac)
        a = np.zeros(flat.shape[1]) if accel is None else np.nan_to_num(np.asarray(accel).reshape(-1))
        zq = ndtri(q)
        t = z0 + zq
        den = 1.0 - a * t
        adj = ndtr(z0 + t / np.where(den > 0, den, 1.0))
        q = np.where(den > 0, adj, q)
    qs = _quantiles(flat, q)
    nanest = np.isnan(est)
    # undefined replicates per entry, counted where the estimate itself is defined
    undefined = np.where(nanest, 0, np.isnan(flat).sum(axis=0)).reshape(shape)
    low = np.where(nanest, np.nan, qs[0]).reshape(shape)
    high = np.where(nanest, np.nan, qs[1]).reshape(shape)
    return low, high, undefined


def _cells_of(data: Any) -> tuple[np.ndarray, bool]:
    """(cells (r, c), is_ranking)."""
    if hasattr(data, "pos") and hasattr(data, "negatives"):
        return _ranking_cells(data), True
    table, _ = _table(data, batch=False)
    return table, False


def _jackknife(statistic: Callable[[np.ndarray], Any], cells: np.ndarray) -> tuple[Any, np.ndarray]:
    """Leave-one-out statistic for every non-empty cell (table minus one count there), with the
    cell counts as weights: (values (m, ...) or dict of them, weights (m,))."""
    r, c = cells.shape
    nz = np.flatnonzero(cells.reshape(-1))
    if nz.size * r * c > 200 * _CHUNK_ELEMENTS:
        raise ValueError(
            f"BCa's jackknife needs one evaluation per non-empty cell ({nz.size} cells of a "
            f"{r} x {c} table): too many; use method='percentile', or coarsen the ranking first."
        )
    per = max(1, _CHUNK_ELEMENTS // (r * c))
    parts = []
    for start in range(0, nz.size, per):
        idx = nz[start:start + per]
        loo = np.broadcast_to(cells.reshape(-1), (idx.size, r * c)).copy()
        loo[np.arange(idx.size), idx] -= 1
        parts.append(statistic(loo.reshape(idx.size, r, c)))
    weights = cells.reshape(-1)[nz].astype(np.float64)
    if isinstance(parts[0], dict):
        return {k: np.concatenate([np.asarray(p[k], dtype=np.float64) for p in parts]) for k in parts[0]}, weights
    return np.concatenate([np.asarray(p, dtype=np.float64) for p in parts]), weights


def _method_name(kind: str, n_resamples: int, sampling: str, ranking: bool, k: int | None = None) -> str:
    """k: the classes of a confusion table whose cells are smoothed by 1/k (None: no smoothing)."""
    what = "score cells" if ranking else "cells"
    name = "percentile" if kind == "percentile" else "BCa"
    smoothed = f", shares of cell + 1/{k}" if k else ""
    design = sampling_phrase(sampling, ranking)
    return f"bootstrap {name} (multinomial over {what}{smoothed}, {design}, B={n_resamples})"


def _warn_undefined(count: int, total: int, what: str) -> None:
    if count:
        warnings.warn(
            f"{count} of {total} bootstrap values of {what} are undefined (0/0) and were left out "
            "of the interval.",
            UndefinedMetricWarning,
            stacklevel=3,
        )


def bootstrap_ci(
    statistic: Callable[[np.ndarray], Any],
    data: Any,
    *,
    method: Literal["percentile", "bca"] = "percentile",
    n_resamples: int = 2000,
    level: float = 0.95,
    seed: Any = None,
    sampling: str = "cross-sectional",
    stratify: bool | None = None,
) -> ConfidenceInterval:
    """Bootstrap confidence interval of ``statistic`` over the cells of a count table.

    ``data`` is a (k, k) confusion table (array, ConfusionCounts or ConfusionMatrix) or a
    BinaryRanking (read as the (2, D) table [negatives; positives] per score, highest first).
    ``statistic`` must be vectorised: it maps a batch of tables (b, r, c) to (b,) or (b, s)
    values (e.g. ``lambda t: m.accuracy(t)``, or for a ranking
    ``lambda t: curves.roc_auc(t[:, 0], t[:, 1])``); scalars give float bounds, vectors arrays.

    Replicates are multinomial over the cells: all together (``sampling="cross-sectional"``,
    the default), or each row (true class) with its own total ("stratified"; ``stratify`` is the
    deprecated spelling). ``percentile``: the alpha/2 and 1 - alpha/2 quantiles of the replicates.
    ``bca`` (Efron 1987): the quantiles shifted by the bias correction z0 (share of replicates
    below the estimate, ties counted half, kept within [0.5/B, 1 - 0.5/B]) and the acceleration
    from a jackknife over the cells: leaving out one count of cell c gives theta_(c), weighted
    by the count of c (the same as leaving out each row). Undefined (NaN) replicates are left
    out, with an UndefinedMetricWarning saying how many. Same seed, same interval.

    >>> t = np.array([[45, 5], [10, 40]])
    >>> ci = bootstrap_ci(m.accuracy, t, n_resamples=1000, seed=1)
    >>> ci.estimate, ci.low < 0.85 < ci.high
    (0.85, True)
    """
    level = check_level(level)
    _choice(method, ("percentile", "bca"), "method")
    sampling = check_sampling(sampling, stratify)
    n_resamples = _check_resamples(n_resamples)
    cells, is_ranking = _cells_of(data)
    cells = _integer_cells(cells, "the table")
    estimate = np.asarray(statistic(cells[None]), dtype=np.float64)[0]
    reps = _replicates(statistic, cells, n_resamples, seed, sampling)
    accel = None
    if method == "bca":
        loo, w = _jackknife(statistic, cells)
        accel = jackknife_acceleration(np.asarray(loo).reshape(loo.shape[0], -1), w)
    low, high, undefined = interval_from_replicates(reps, estimate, level, method, accel)
    _warn_undefined(int(undefined.sum()), reps.size, "the statistic")
    name = _method_name(method, n_resamples, sampling, is_ranking)
    return ConfidenceInterval(_out(low), _out(high), level, name, _out(estimate))


# ------------------------------------------------------------------------------------------
# 4. everything the report shows
# ------------------------------------------------------------------------------------------
def confusion_intervals(
    counts: Any,
    *,
    level: float = 0.95,
    method: Literal["analytic", "bootstrap", "bca"] = "analytic",
    n_resamples: int = 2000,
    seed: Any = 0,
    beta: float | None = None,
    labels: Any = None,
    proportion_method: str = "wilson",
    sampling: str = "cross-sectional",
    stratify: bool | None = None,
    weight_squares: Any = None,
    n_cases: Any = None,
) -> Intervals:
    """Confidence intervals of every number in the classification report of a confusion table.

    ``counts``: a (k, k) table (rows true, columns predicted) as an array, ConfusionCounts or
    ConfusionMatrix; ``method="analytic"`` also takes a batch (..., k, k), which adds the leading
    shape to every array below. ``beta`` renames and recomputes the F column (None or 1: "f1",
    else e.g. "f2"). ``labels`` (default: the table's own labels, else 0..k-1) name the rows.

    The result::

        {
          "level": 0.95,
          "method": "analytic" | "bootstrap" | "bca",        # as asked
          "labels": [label, ...],                           # k names, in table order
          "per_class": {metric: ConfidenceInterval},        # metric in precision, recall, f1
                                                            # (or f{beta}), fallout, specificity,
                                                            # npv; low/high/estimate are (k,) arrays
          "averages": {"micro" | "macro" | "weighted": {metric: ConfidenceInterval}},
                                                            # the same six metrics; float bounds
          "overall": {metric: ConfidenceInterval},          # accuracy, error_rate,
                                                            # balanced_accuracy, mcc, kappa
          "notes": [str, ...],                              # why any interval is NaN or degenerate
        }

    The dict is an :class:`~clfeval.interval_results.Intervals`: its ``repr`` lists every number
    like the report, ``to_frame()`` gives one row per number. Every ConfidenceInterval carries
    ``estimate`` (the report's value), ``low``, ``high``, ``level``, ``standard_error`` (where the
    interval is estimate +/- z se: the delta method and Wald; else None) and ``method``, the
    name of the method that interval used:

    * analytic: per-class precision, recall, fall-out, specificity, NPV, and accuracy and error
      rate are binomial proportions (``proportion_method``, Wilson score by default); micro
      precision = recall = F equal accuracy, and micro fall-out = error rate / (k - 1) with
      micro specificity = micro NPV = 1 - that, so those are the same interval, transformed;
      balanced accuracy and macro recall (the mean of the classes' recalls) combine the
      classes' score intervals by MOVER; F-beta, the other macro and weighted averages, MCC and
      Cohen's kappa use the delta method, with two guards that the coverage simulation
      (``benchmarks/coverage.py``) asked for: the variance is taken at the table smoothed by
      1/k of a case per cell (:func:`clfeval.resampling.smoothing_of`; an empty cell would
      give no variance at all), and the interval is formed on the logit scale (Fisher's z for
      MCC and kappa, on [-1, 1]), so it stays inside the range and follows its skew
      (:func:`clfeval.interval_scales.transformed_interval`). ``standard_error`` is the plain delta method's, at the
      observed table (as statsmodels and textbooks give it); the interval is not estimate +/- z
      times it.
    * bootstrap / bca: every entry from the same ``n_resamples`` multinomial resamples of the
      cells, percentile or BCa: all cells together (``sampling="cross-sectional"``, the
      default: the prevalence varies between replicates as between test sets), or each true
      class with its own total (``sampling="stratified"``, for samples drawn by class;
      ``stratify=True`` is its deprecated spelling). Each cell's share in the draws is its
      count plus 1/k (so that an empty cell can fill: with every positive caught, recall would
      otherwise be 1 in every replicate); BCa's bias correction counts the replicates against
      the smoothed table's value. The method name says all of it.

    * weighted cases (``counts`` holds sums of sample weights): give ``weight_squares``, the
      (k, k) sums of squared weights per cell, and ``n_cases``, the number of cases; analytic
      only. Proportions then use Kish's effective number of cases, (sum w)^2 / sum w^2 of their
      denominator's cells (Korn & Graubard 1998), and the delta method the variance of
      weighted cases, sum over cells of g^2 sum w^2 (:mod:`clfeval.influence`). With unit
      weights both equal the unweighted intervals.

    An interval is NaN exactly where its metric is undefined (0/0, see ``notes``); MCC, which the
    report shows as 0 when a single true or predicted class makes it 0/0, gets a NaN interval
    there. Bootstrap replicates where a metric is undefined are left out (counted in ``notes``).

    >>> d = confusion_intervals(np.array([[40, 10], [5, 45]]), method="bootstrap", n_resamples=500)
    >>> d["overall"]["accuracy"].method
    'bootstrap percentile (multinomial over cells, shares of cell + 1/2, cross-sectional, B=500)'
    >>> sorted(d["averages"]["macro"])
    ['f1', 'fallout', 'npv', 'precision', 'recall', 'specificity']
    """
    level = check_level(level)
    _choice(method, ("analytic", "bootstrap", "bca"), "method")
    sampling = check_sampling(sampling, stratify)
    _choice(proportion_method, PROPORTION_METHODS, "proportion_method")
    if beta is not None and not (beta >= 0):
        raise ValueError(f"beta must be non-negative, got {beta!r}.")
    cm, table_labels = _table(counts, batch=method == "analytic")
    k = cm.shape[-1]
    if labels is None:
        labels = table_labels if table_labels is not None else np.arange(k)
    labels = list(np.asarray(labels).tolist())
    if len(labels) != k:
        raise ValueError(f"{len(labels)} labels given for a table of {k} classes; give one per row.")
    fname = _fname(beta)
    cmf = cm.astype(np.float64)
    est = _confusion_metrics(cmf, beta)
    notes: list[str] = []
    cis: dict[tuple[str, str], ConfidenceInterval] = {}
    squares = _weight_squares(weight_squares, n_cases, cmf, method)
    if method == "analytic":
        cis = _analytic(cmf, est, level, proportion_method, beta, k, squares, n_cases)
        flat = sorted({f"{s} {n}" for (s, n), ci in cis.items() if ci.method.startswith((DELTA, DELTA_WEIGHTED))
                       and np.any((np.asarray(ci.low) == np.asarray(ci.high)) & ~np.isnan(np.asarray(ci.low)))})
        if flat:
            notes.append(
                f"{', '.join(flat)}: the delta method gives a zero-width interval where the cells the "
                "metric depends on leave it no first-order variation (e.g. no errors at all); "
                "the proportion intervals, or method='bootstrap', say more there."
            )
    else:
        cells = _integer_cells(cm, "the confusion table")
        n_resamples = _check_resamples(n_resamples)
        smoothing = smoothing_of(cells)
        reps = _replicates(lambda t: _confusion_metrics(t, beta), cells, n_resamples, seed, sampling, smoothing)
        center = _confusion_metrics(cells + smoothing, beta)
        accel: dict[Any, np.ndarray] = {}
        kind = "percentile" if method == "bootstrap" else "bca"
        if kind == "bca":
            loo, w = _jackknife(lambda t: _confusion_metrics(t, beta), cells)
            accel = {key: jackknife_acceleration(v.reshape(v.shape[0], -1), w) for key, v in loo.items()}
        name = _method_name(kind, n_resamples, sampling, ranking=False, k=k)
        for key, r in reps.items():
            low, high, undefined = interval_from_replicates(r, est[key], level, kind, accel.get(key), center[key])
            if undefined.any():
                where = ""
                if key[0] == "per_class":
                    where = " for " + ", ".join(f"{labels[i]!r} ({undefined[i]})" for i in np.flatnonzero(undefined))
                notes.append(
                    f"{key[0]} {key[1]}: undefined (0/0) in some of the {n_resamples} bootstrap resamples"
                    f"{where or f' ({int(undefined)})'}; left out of the interval."
                )
            cis[key] = ConfidenceInterval(_out(low), _out(high), level, name, _out(est[key]))
    # MCC 0/0: the report says 0; no interval around a convention
    undefined_mcc = _mcc_undefined(cmf)
    if undefined_mcc.any():
        ci = cis["overall", "mcc"]
        nan_if = lambda a: _out(np.where(undefined_mcc, np.nan, a))  # noqa: E731
        se = None if ci.standard_error is None else nan_if(ci.standard_error)
        cis["overall", "mcc"] = ConfidenceInterval(nan_if(ci.low), nan_if(ci.high), level, ci.method, ci.estimate, se)
        notes.append("mcc: undefined (0/0: a single true or predicted class), reported as 0 with a NaN interval.")
    notes = _nan_notes(est, labels) + notes
    result: dict[str, Any] = {"level": level, "method": method, "labels": labels}
    result["per_class"] = {name: cis["per_class", name] for name in _names(fname)}
    result["averages"] = {avg: {name: cis[avg, name] for name in _names(fname)} for avg in AVERAGES}
    result["overall"] = {name: cis["overall", name] for name in OVERALL}
    result["notes"] = notes
    return Intervals(result)


def _weight_squares(squares: Any, n_cases: Any, cm: np.ndarray, method: str) -> np.ndarray | None:
    """The validated (..., k, k) sums of squared weights, or None for counts."""
    if squares is None:
        if n_cases is not None:
            raise ValueError("n_cases goes with weight_squares (weighted cases); counts need neither.")
        return None
    if method != "analytic":
        raise ValueError(
            f"method={method!r} resamples counts; with weighted cells (weight_squares) use "
            "method='analytic', or Evaluation.intervals(method='bootstrap'), which resamples the cases."
        )
    sq = np.asarray(squares, dtype=np.float64)
    if sq.shape != cm.shape:
        raise ValueError(f"weight_squares must have the counts' shape {cm.shape}, got {sq.shape}.")
    if not np.isfinite(sq).all() or (sq < 0).any():
        raise ValueError("weight_squares must be finite and non-negative (sums of squared weights).")
    if n_cases is None or not np.all(np.asarray(n_cases) >= 1):
        raise ValueError(f"weighted cells need n_cases, the number of cases (at least 1), got {n_cases!r}.")
    return sq


def _names(fname: str) -> tuple[str, ...]:
    return tuple(fname if n == "f1" else n for n in PER_CLASS)


_WHY = {
    "precision": "never predicted",
    "recall": "no true samples",
    "fallout": "no negative samples",
    "specificity": "no negative samples",
    "npv": "never predicted negative",
}


def _nan_notes(est: dict, labels: list) -> list[str]:
    notes = []
    for (section, name), v in est.items():
        bad = np.isnan(v)
        if not bad.any():
            continue
        if section == "per_class":
            classes = sorted({labels[i] for i in np.argwhere(bad)[:, -1]}, key=labels.index)
            why = _WHY.get(name, "neither true nor predicted" if name.startswith("f") else "0/0")
            notes.append(f"per_class {name}: undefined (0/0) for {classes} ({why}); NaN interval.")
        else:
            notes.append(f"{section} {name}: undefined (0/0); NaN interval.")
    return notes


def _analytic(
    cm: np.ndarray, est: dict, level: float, pmethod: str, beta: float | None, k: int,
    squares: np.ndarray | None = None, n_cases: Any = None,
) -> dict[tuple[str, str], ConfidenceInterval]:
    tp, fp, fn, tn = m.one_vs_rest(cm)
    sq = None if squares is None else m.one_vs_rest(squares)
    fname = _fname(beta)
    out: dict[tuple[str, str], ConfidenceInterval] = {}

    def prop(key: tuple[str, str], x: Any, n: Any, n_sq: Any = None) -> None:
        suffix = ""
        if n_sq is not None:  # weighted: the proportion over Kish's effective number of cases
            with np.errstate(invalid="ignore", divide="ignore"):
                n_eff = np.where(n_sq > 0, np.asarray(n, dtype=np.float64) ** 2 / np.where(n_sq > 0, n_sq, 1), 0.0)
                x = np.where(n > 0, np.asarray(x, dtype=np.float64) / np.where(n > 0, n, 1), 0.0) * n_eff
            n, suffix = n_eff, KISH
        ci = proportion_ci(x, n, level=level, method=pmethod)
        out[key] = ConfidenceInterval(ci.low, ci.high, level, ci.method + suffix, _out(est[key]), ci.standard_error)

    def sq_of(*parts: int) -> Any:
        return None if sq is None else sum(sq[i] for i in parts)

    prop(("per_class", "precision"), tp, tp + fp, sq_of(0, 1))
    prop(("per_class", "recall"), tp, tp + fn, sq_of(0, 2))
    prop(("per_class", "specificity"), tn, tn + fp, sq_of(3, 1))
    prop(("per_class", "npv"), tn, tn + fn, sq_of(3, 2))
    prop(("per_class", "fallout"), fp, fp + tn, sq_of(1, 3))
    n = cm.sum(axis=(-2, -1))
    errors = n - np.trace(cm, axis1=-2, axis2=-1)
    n_sq = None if squares is None else squares.sum(axis=(-2, -1))
    prop(("overall", "accuracy"), n - errors, n, n_sq)
    prop(("overall", "error_rate"), errors, n, n_sq)
    acc = out["overall", "accuracy"]
    err = out["overall", "error_rate"]
    for name in ("precision", "recall", fname):
        out["micro", name] = ConfidenceInterval(
            acc.low, acc.high, level, f"{acc.method} (micro {name} = accuracy)", _out(est["micro", name]),
            acc.standard_error,
        )
    if k > 1:
        f_low, f_high = _out(np.asarray(err.low) / (k - 1)), _out(np.asarray(err.high) / (k - 1))
        s_low, s_high = _out(1 - np.asarray(f_high)), _out(1 - np.asarray(f_low))
    else:
        f_low = f_high = s_low = s_high = _out(np.full(np.shape(n), np.nan))
    how = f"{err.method} of the error rate, / (k - 1)"
    f_se = None if err.standard_error is None or k < 2 else _out(np.asarray(err.standard_error) / (k - 1))
    out["micro", "fallout"] = ConfidenceInterval(f_low, f_high, level, how, _out(est["micro", "fallout"]), f_se)
    for name in ("specificity", "npv"):
        out["micro", name] = ConfidenceInterval(
            s_low, s_high, level, f"1 - ({how})", _out(est["micro", name]), f_se
        )
    delta_keys = [("per_class", fname)] + [(a, nm) for a in ("macro", "weighted") for nm in _names(fname)]
    delta_keys += [("overall", "balanced_accuracy"), ("overall", "mcc"), ("overall", "kappa")]
    from .measure_gradients import confusion_variances

    # the delta method at the table smoothed by 1/k of a case per cell (clfeval.resampling): an
    # empty cell would otherwise give its measures no variance at all
    if squares is None:
        plain = confusion_variances(cm, cm, cm.sum(axis=(-2, -1)), beta)
        smoothed = cm + smoothing_of(cm)
        variances = confusion_variances(smoothed, smoothed, smoothed.sum(axis=(-2, -1)), beta)
        how = DELTA
    else:  # weighted cases: 1/k of a case of the mean weight per cell
        plain = confusion_variances(cm, squares, n_cases, beta)
        mean_weight = (cm.sum(axis=(-2, -1)) / np.asarray(n_cases, dtype=np.float64))[..., None, None]
        smoothed = cm + smoothing_of(cm) * mean_weight
        variances = confusion_variances(smoothed, squares + smoothing_of(cm) * mean_weight**2, n_cases, beta)
        how = DELTA_WEIGHTED
    center = _confusion_metrics(smoothed, beta)
    z = _z(level)
    for key in delta_keys:
        e = np.asarray(est[key])
        se_smoothed = np.where(np.isnan(e), np.nan, np.sqrt(variances[key]))
        low, high = transformed_interval(e, np.asarray(center[key]), se_smoothed, z, _RANGE.get(key[1], (0.0, 1.0)))
        se = np.where(np.isnan(e), np.nan, np.sqrt(plain[key]))  # the textbook delta method's, reported
        out[key] = ConfidenceInterval(_out(low), _out(high), level, delta_method_name(how, key[1], k),
                                      _out(e), standard_error=_out(se))
    recall = np.asarray(est["per_class", "recall"])
    for key in (("overall", "balanced_accuracy"), ("macro", "recall")):
        out[key] = mover_average(out["per_class", "recall"], recall, None, np.asarray(est[key]), level)
    out["weighted", "recall"] = ConfidenceInterval(  # sum over classes of support x recall / n = accuracy
        acc.low, acc.high, level, f"{acc.method} (weighted recall = accuracy)", _out(est["weighted", "recall"]),
        acc.standard_error)
    support = tp + fn
    for avg, weights in (("macro", None), ("weighted", support)):
        for name in ("precision", "specificity", "npv", "fallout"):
            delta = out[avg, name]
            mover = mover_average(out["per_class", name], np.asarray(est["per_class", name]), weights,
                                  np.asarray(est[avg, name]), level)
            out[avg, name] = ConfidenceInterval(
                _out(np.fmin(delta.low, mover.low)), _out(np.fmax(delta.high, mover.high)), level,
                f"{delta.method} or {mover.method}, whichever reaches further", delta.estimate, delta.standard_error)
    return out


def mover_average(per_class: ConfidenceInterval, values: np.ndarray, weights: np.ndarray | None,
                  average: np.ndarray, level: float) -> ConfidenceInterval:
    """An average of per-class proportions sum_i w_i p_i by MOVER (Zou & Donner 2008; Newcombe
    2011): low = average - sqrt(sum w_i^2 (p_i - l_i)^2), high = average + sqrt(sum w_i^2 (u_i -
    p_i)^2), from each class's score interval (l_i, u_i). The skew of each interval carries into
    the average, and a class at 0 or 1 still adds its width. Exact in its assumptions for the
    recalls (balanced accuracy: each from its own row) and for two classes; classes with an
    undefined value are left out and the weights (None: equal; else e.g. the supports) rescaled.

    >>> from clfeval.uncertainty import proportion_ci
    >>> ci = proportion_ci(np.array([6, 50]), np.array([6, 54]))  # recalls 6/6 and 50/54
    >>> r = np.array([1.0, 50 / 54])
    >>> iv = mover_average(ci, r, None, r.mean(), 0.95)
    >>> round(iv.low, 4), round(iv.high, 4)
    (0.7613, 0.9854)
    """
    lows, highs = np.asarray(per_class.low, dtype=np.float64), np.asarray(per_class.high, dtype=np.float64)
    ok = ~np.isnan(values)
    w = np.ones(values.shape) if weights is None else np.asarray(weights, dtype=np.float64)
    w = np.where(ok, w, 0.0)
    total = w.sum(axis=-1, keepdims=True)
    w = np.where(total > 0, w, ok.astype(np.float64))  # all-zero weights: plain mean, as the report
    with np.errstate(invalid="ignore", divide="ignore"):
        w = w / w.sum(axis=-1, keepdims=True)
        down = np.sqrt(np.where(ok, (w * (values - lows)) ** 2, 0.0).sum(axis=-1))
        up = np.sqrt(np.where(ok, (w * (highs - values)) ** 2, 0.0).sum(axis=-1))
    defined = ok.any(axis=-1) & ~np.isnan(average)
    low = np.where(defined, np.clip(average - down, 0.0, 1.0), np.nan)
    high = np.where(defined, np.clip(average + up, 0.0, 1.0), np.nan)
    return ConfidenceInterval(_out(low), _out(high), level, f"MOVER from each class's {per_class.method} interval",
                              _out(average))


# ------------------------------------------------------------------------------------------
# ranking measures: AUC and AP
# ------------------------------------------------------------------------------------------
def _auc_stat(t: np.ndarray) -> np.ndarray:
    return np.asarray(_roc_auc(t[:, 0], t[:, 1]), dtype=np.float64)


def _ap_stat(t: np.ndarray) -> np.ndarray:
    return np.asarray(_average_precision(t[:, 0], t[:, 1]), dtype=np.float64)


def auc_leave_one_out(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Closed-form leave-one-out AUCs (one per non-empty cell) and their weights, for BCa.

    ``cells``: the (2, D) table [negatives; positives] per score, highest first.

    U counts (positive, negative) pairs with the positive ranked higher (ties half). Dropping a
    positive at score s removes the negatives below it plus half those tied at s; dropping a
    negative removes the positives above it plus half those tied.
    """
    neg, pos = cells.astype(np.float64)
    N, P = neg.sum(), pos.sum()
    fps, tps = np.cumsum(neg), np.cumsum(pos)
    U = float((neg * (tps - pos)).sum() + 0.5 * (neg * pos).sum())  # negatives x positives above
    # U as written counts, for each negative, the positives strictly above it plus half the tied
    with np.errstate(invalid="ignore", divide="ignore"):
        drop_pos = (U - (N - fps) - 0.5 * neg) / ((P - 1) * N)
        drop_neg = (U - (tps - pos) - 0.5 * pos) / (P * (N - 1))
    values = np.concatenate([drop_neg[neg > 0], drop_pos[pos > 0]])
    weights = np.concatenate([neg[neg > 0], pos[pos > 0]])
    return values, weights


def ranking_intervals(
    ranking: Any,
    *,
    level: float = 0.95,
    method: Literal["bootstrap"] = "bootstrap",
    interval: Literal["percentile", "bca"] = "percentile",
    n_resamples: int = 2000,
    seed: Any = 0,
    sampling: str = "cross-sectional",
    stratify: bool | None = None,
) -> dict[str, ConfidenceInterval]:
    """Bootstrap intervals of ROC AUC and average precision of a BinaryRanking.

    Returns ``{"roc_auc": ConfidenceInterval, "average_precision": ConfidenceInterval}``, both
    from the same replicates: the counts redrawn multinomially over the distinct scores, all
    together (``sampling="cross-sectional"``) or each class with its own total ("stratified").
    ``interval="bca"`` takes ROC AUC's jackknife in closed form (from the Mann-Whitney
    placements) and AP's over the score cells. These are the plain percentile and BCa intervals;
    the report's intervals of the areas, chosen by their coverage, are
    :func:`clfeval.area_intervals.ranking_area_intervals`. Cost: B x (number of distinct scores).

    >>> from clfeval.roc_pr import BinaryRanking
    >>> r = BinaryRanking(np.arange(8.0)[::-1], None, np.array([1, 1, 0, 1, 0, 1, 0, 0], bool))
    >>> d = ranking_intervals(r, n_resamples=500, seed=3)
    >>> round(d["roc_auc"].estimate, 4), d["roc_auc"].low <= 0.8125 <= d["roc_auc"].high
    (0.8125, True)
    """
    level = check_level(level)
    if method == "delong":
        raise ValueError("method='delong' lives in clfeval.stats.delong.delong_auc_ci; here method='bootstrap'.")
    _choice(method, ("bootstrap",), "method")
    _choice(interval, ("percentile", "bca"), "interval")
    sampling = check_sampling(sampling, stratify)
    n_resamples = _check_resamples(n_resamples)
    cells = _ranking_cells(ranking)

    def both(t: np.ndarray) -> dict[str, np.ndarray]:
        return {"roc_auc": _auc_stat(t), "average_precision": _ap_stat(t)}

    est = both(cells[None])
    reps = _replicates(both, cells, n_resamples, seed, sampling)
    accel: dict[str, np.ndarray] = {}
    if interval == "bca":
        loo, w = auc_leave_one_out(cells)
        accel["roc_auc"] = jackknife_acceleration(loo[:, None], w)
        loo_ap, w_ap = _jackknife(_ap_stat, cells)
        accel["average_precision"] = jackknife_acceleration(loo_ap[:, None], w_ap)
    name = _method_name(interval, n_resamples, sampling, ranking=True)
    out = {}
    for key, r in reps.items():
        low, high, undefined = interval_from_replicates(r, est[key][0], level, interval, accel.get(key))
        _warn_undefined(int(undefined.sum()), r.size, key)
        out[key] = ConfidenceInterval(_out(low), _out(high), level, name, float(est[key][0]))
    return out


# ------------------------------------------------------------------------------------------
# 5. curves: pointwise bands and operating points
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CurveBand:
    """A pointwise confidence band of a curve on a fixed grid of ``x`` values.

    ``kind`` "roc": x is the false positive rate, y the true positive rate; "pr": x is recall,
    y precision. ``estimate``, ``low`` and ``high`` have the grid's length.
    """

    kind: str
    x: np.ndarray
    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    level: float
    method: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "x": self.x.tolist(), "estimate": self.estimate.tolist(),
                "low": self.low.tolist(), "high": self.high.tolist(), "level": self.level,
                "method": self.method}

    def __repr__(self) -> str:
        return f"CurveBand({self.kind!r}, n_points={self.x.size}, level={self.level}, method={self.method!r})"


def _roc_axes(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(fpr, tpr) of (b, 2, D) counts, each (b, D + 1) starting at the origin."""
    fps = np.cumsum(t[:, 0], axis=-1, dtype=np.float64)
    tps = np.cumsum(t[:, 1], axis=-1, dtype=np.float64)
    zero = np.zeros((t.shape[0], 1))
    with np.errstate(invalid="ignore", divide="ignore"):  # a class drawn empty: NaN, counted later
        fpr = np.concatenate([zero, fps / fps[:, -1:]], axis=1)
        tpr = np.concatenate([zero, tps / tps[:, -1:]], axis=1)
    return fpr, tpr


def _y_at_x(x_pts: np.ndarray, y_pts: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """On each row's polyline (x non-decreasing), the highest y at each grid x (b, G)."""
    b, npts = x_pts.shape
    out = np.empty((b, grid.size))
    for r in range(b):
        i = np.searchsorted(x_pts[r], grid, side="right") - 1
        j = np.minimum(i + 1, npts - 1)
        x0, x1, y0, y1 = x_pts[r, i], x_pts[r, j], y_pts[r, i], y_pts[r, j]
        dx = x1 - x0
        t = np.divide(grid - x0, dx, out=np.zeros(grid.size), where=dx > 0)
        out[r] = y0 + t * (y1 - y0)
    return out


def _x_at_y(x_pts: np.ndarray, y_pts: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """On each row's polyline (y non-decreasing), the lowest x reaching each grid y (b, G)."""
    b, npts = x_pts.shape
    out = np.empty((b, grid.size))
    for r in range(b):
        j = np.minimum(np.searchsorted(y_pts[r], grid, side="left"), npts - 1)
        i = np.maximum(j - 1, 0)
        x0, x1, y0, y1 = x_pts[r, i], x_pts[r, j], y_pts[r, i], y_pts[r, j]
        dy = y1 - y0
        t = np.divide(grid - y0, dy, out=np.ones(grid.size), where=dy > 0)
        out[r] = np.where(j == 0, x_pts[r, 0], x0 + np.clip(t, 0, 1) * (x1 - x0))
    return out


def _precision_at_recall(t: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Precision of the first point (by decreasing threshold) whose recall reaches each grid
    recall: the step function that average precision integrates (recall 0: the first point
    with a positive)."""
    fps = np.cumsum(t[:, 0], axis=-1, dtype=np.float64)
    tps = np.cumsum(t[:, 1], axis=-1, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        rec = tps / tps[:, -1:]
    out = np.empty((t.shape[0], grid.size))
    zero = grid <= 0
    for r in range(t.shape[0]):
        i = np.where(zero, np.searchsorted(rec[r], 0.0, side="right"), np.searchsorted(rec[r], grid, side="left"))
        i = np.minimum(i, rec.shape[1] - 1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[r] = np.where(np.isnan(rec[r, -1]), np.nan, tps[r, i] / (tps[r, i] + fps[r, i]))
    return out


def _grid(values: Any, name: str, default: int = 101) -> np.ndarray:
    g = np.linspace(0.0, 1.0, default) if values is None else np.asarray(values, dtype=np.float64)
    if g.ndim > 1 or g.size == 0 or not np.isfinite(g).all() or (g < 0).any() or (g > 1).any():
        raise ValueError(f"{name} must be one or more numbers in [0, 1], got {values!r}.")
    return np.atleast_1d(g)


def _band(
    kind: str, stat: Callable[[np.ndarray], np.ndarray], ranking: Any, grid: np.ndarray,
    level: float, n_resamples: int, seed: Any, sampling: str, stratify: bool | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    level = check_level(level)
    sampling = check_sampling(sampling, stratify, stacklevel=4)
    n_resamples = _check_resamples(n_resamples)
    cells = _ranking_cells(ranking)
    est = stat(cells[None])[0]
    reps = _replicates(stat, cells, n_resamples, seed, sampling)
    low, high, undefined = interval_from_replicates(reps, est, level, "percentile")
    _warn_undefined(int(undefined.sum()), reps.size, f"the {kind}")
    return est, low, high, _method_name("percentile", n_resamples, sampling, ranking=True)


def roc_band(
    ranking: Any, fpr: Any = None, *, level: float = 0.95, n_resamples: int = 2000, seed: Any = 0,
    sampling: str = "stratified",
    stratify: bool | None = None,
) -> CurveBand:
    """Pointwise bootstrap band of the ROC curve: TPR at each false positive rate of ``fpr``.

    The curve is the ROC polyline (ties as straight segments); at an FPR where it rises
    vertically the highest TPR is taken. Default grid: 0, 0.01, ..., 1. The ROC curve is
    conditional on the class, so the replicates redraw each class with its own total
    (``sampling="stratified"``) by default; "cross-sectional" also redraws the prevalence.

    >>> from clfeval.roc_pr import BinaryRanking
    >>> r = BinaryRanking(np.arange(6.0)[::-1], None, np.array([1, 1, 0, 1, 0, 0], bool))
    >>> band = roc_band(r, [0.0, 0.5, 1.0], n_resamples=200, seed=0)
    >>> band.estimate.round(3).tolist()
    [0.667, 1.0, 1.0]
    """
    grid = _grid(fpr, "fpr")

    def stat(t: np.ndarray) -> np.ndarray:
        return _y_at_x(*_roc_axes(t), grid)

    est, low, high, name = _band("ROC band", stat, ranking, grid, level, n_resamples, seed, sampling, stratify)
    return CurveBand("roc", grid, est, low, high, level, name)


def pr_band(
    ranking: Any, recall: Any = None, *, level: float = 0.95, n_resamples: int = 2000, seed: Any = 0,
    sampling: str = "cross-sectional",
    stratify: bool | None = None,
) -> CurveBand:
    """Pointwise bootstrap band of the precision-recall curve: precision at each recall of ``recall``.

    Precision at recall r is that of the first threshold (from the top) whose recall reaches r,
    the step function average precision integrates. Default grid: 0, 0.01, ..., 1.

    >>> from clfeval.roc_pr import BinaryRanking
    >>> r = BinaryRanking(np.arange(6.0)[::-1], None, np.array([1, 0, 1, 1, 0, 0], bool))
    >>> pr_band(r, [0.5, 1.0], n_resamples=200, seed=0).estimate.round(3).tolist()
    [0.667, 0.75]
    """
    grid = _grid(recall, "recall")

    def stat(t: np.ndarray) -> np.ndarray:
        return _precision_at_recall(t, grid)

    est, low, high, name = _band("PR band", stat, ranking, grid, level, n_resamples, seed, sampling, stratify)
    return CurveBand("pr", grid, est, low, high, level, name)


def sensitivity_at_specificity(
    ranking: Any, specificity: Any, *, level: float = 0.95, n_resamples: int = 2000, seed: Any = 0,
    sampling: str = "stratified",
    stratify: bool | None = None,
) -> ConfidenceInterval:
    """Sensitivity (TPR) on the ROC polyline where specificity is ``specificity``, with a
    bootstrap percentile interval (over the score cells, each class redrawn with its own total
    by default, as :func:`roc_band`). Arrays of specificities give arrays.

    >>> from clfeval.roc_pr import BinaryRanking
    >>> r = BinaryRanking(np.arange(6.0)[::-1], None, np.array([1, 1, 0, 1, 0, 0], bool))
    >>> round(sensitivity_at_specificity(r, 0.5, n_resamples=200).estimate, 3)
    1.0
    """
    spec = _grid(specificity, "specificity")

    def stat(t: np.ndarray) -> np.ndarray:
        return _y_at_x(*_roc_axes(t), 1.0 - spec)

    est, low, high, name = _band("sensitivity", stat, ranking, spec, level, n_resamples, seed, sampling, stratify)
    squeeze = np.ndim(specificity) == 0
    pick = (lambda a: float(a[0])) if squeeze else (lambda a: a)  # noqa: E731
    return ConfidenceInterval(pick(low), pick(high), level, name, pick(est))


def specificity_at_sensitivity(
    ranking: Any, sensitivity: Any, *, level: float = 0.95, n_resamples: int = 2000, seed: Any = 0,
    sampling: str = "stratified",
    stratify: bool | None = None,
) -> ConfidenceInterval:
    """Specificity on the ROC polyline where sensitivity first reaches ``sensitivity``, with a
    bootstrap percentile interval (over the score cells, each class redrawn with its own total
    by default, as :func:`roc_band`). Arrays of sensitivities give arrays.

    >>> from clfeval.roc_pr import BinaryRanking
    >>> r = BinaryRanking(np.arange(6.0)[::-1], None, np.array([1, 1, 0, 1, 0, 0], bool))
    >>> round(specificity_at_sensitivity(r, 1.0, n_resamples=200).estimate, 3)
    0.667
    """
    sens = _grid(sensitivity, "sensitivity")

    def stat(t: np.ndarray) -> np.ndarray:
        fpr, tpr = _roc_axes(t)
        return 1.0 - _x_at_y(fpr, tpr, sens)

    est, low, high, name = _band("specificity", stat, ranking, sens, level, n_resamples, seed, sampling, stratify)
    squeeze = np.ndim(sensitivity) == 0
    pick = (lambda a: float(a[0])) if squeeze else (lambda a: a)  # noqa: E731
    return ConfidenceInterval(pick(low), pick(high), level, name, pick(est))
