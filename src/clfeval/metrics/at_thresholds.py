"""Binary confusion counts and metrics at every threshold, as scikit-learn 1.9 computes them.

:func:`confusion_matrix_at_thresholds` and :func:`metric_at_thresholds` take scikit-learn's
arguments and return its values (thresholds are the distinct scores, decreasing, in y_score's
dtype; a sample is predicted positive when its score is >= the threshold). The counts come
from one :class:`~clfeval.statistics.rankings.BinaryRanking` of the sorted scores. scikit-learn calls
``metric_func`` once per threshold; here a label metric that clfeval knows (its own or
scikit-learn's of the same name, also through ``functools.partial`` or ``metric_params``) is
computed at every threshold at once from those counts with the :mod:`clfeval.formulas.measures`
formulas (see :func:`known_metric`), and any other callable is called once per threshold,
exactly as scikit-learn does.

>>> import numpy as np
>>> from clfeval.metrics import f1_score
>>> values, thresholds = metric_at_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], f1_score)
>>> thresholds.tolist(), values.round(3).tolist()
([0.8, 0.4, 0.35, 0.1], [0.667, 0.5, 0.8, 0.667])
"""

from __future__ import annotations

import functools
import inspect
import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np

from clfeval.formulas import measures
from clfeval.inputs.labels import as_1d, as_array, as_score_array, check_consistent_length, check_sample_weight
from clfeval.statistics.rankings import BinaryRanking, ThresholdCounts
from clfeval.metrics.ranking import binary_positives

__all__ = ["confusion_matrix_at_thresholds", "metric_at_thresholds"]

# where the metrics that known_metric recognises live (module, as the functions report it)
_CLFEVAL_MODULE = "clfeval.metrics.classification"
_SKLEARN_MODULE = "sklearn.metrics._classification"


# --------------------------------------------------------------------------------------------
# the sorted scores
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class SortedScores:
    """Samples sorted by decreasing score (a stable sort keeps ties in input order), zero-weight
    samples left out, as scikit-learn sorts them before a threshold sweep.

    ``order`` indexes the input arrays; ``last`` is the position (in sorted order) of the last
    sample of each distinct score: the thresholds are ``y_score[last]`` and, at threshold i, the
    first ``last[i] + 1`` samples are predicted positive.

    >>> s = sort_scores(np.array([0, 1, 1]), [0.5, 0.9, 0.5], None, "f")
    >>> s.order.tolist(), s.last.tolist(), s.thresholds.tolist()
    ([1, 0, 2], [0, 2], [0.9, 0.5])
    """

    order: np.ndarray
    y_score: np.ndarray  # sorted, in the input's dtype
    sample_weight: np.ndarray | None  # sorted float64 (the array scikit-learn hands to metrics)
    last: np.ndarray

    @functools.cached_property
    def thresholds(self) -> np.ndarray:
        """The distinct scores, decreasing."""
        return self.y_score[self.last]

    def ranking(self, is_pos: np.ndarray) -> BinaryRanking:
        """The ranking of the (input-order) positive mask ``is_pos``: counts per distinct score."""
        pos = is_pos[self.order]
        n, w = pos.size, self.sample_weight
        if w is None and self.last.size == n:  # one sample per score
            return BinaryRanking(self.thresholds, None, pos)
        starts = np.empty(self.last.size, dtype=np.intp)
        starts[0], starts[1:] = 0, self.last[:-1] + 1
        if w is None:
            p = np.add.reduceat(pos.astype(np.int64), starts)
            return BinaryRanking(self.thresholds, np.diff(self.last, prepend=-1) - p, p)
        p = np.add.reduceat(np.where(pos, w, 0.0), starts)
        q = np.add.reduceat(np.where(pos, 0.0, w), starts)
        return BinaryRanking(self.thresholds, q, p)

    def counts(self, is_pos: np.ndarray) -> ThresholdCounts:
        """(tp, fp, fn, tn) of ``is_pos`` at each threshold (no +inf row)."""
        c = self.ranking(is_pos).counts_at_thresholds()
        return ThresholdCounts(self.thresholds, c.tp[1:], c.fp[1:], c.fn[1:], c.tn[1:])


def sort_scores(y: np.ndarray, y_score: Any, sample_weight: Any, func: str, *, stable: bool = True) -> SortedScores:
    """Validate scores (finite numbers, one per label of ``y``) and weights (finite, >= 0, not
    all zero), drop the zero-weight samples and sort the rest by decreasing score: stably
    (ties in input order, as scikit-learn passes them to a metric), or, when only the counts
    per distinct score matter, with numpy's faster default sort."""
    raw = as_1d(as_array(y_score, "y_score"), f"{func} needs y_score of shape (n_samples,)")
    as_score_array(raw)  # numeric and finite
    n = check_consistent_length(y_true=y, y_score=raw)
    w = check_sample_weight(sample_weight, n, allow_all_zero=False)
    keep = None
    if w is not None:
        w = w.astype(np.float64)
        if not w.all():
            keep = np.flatnonzero(w)
            raw, w = raw[keep], w[keep]
    if stable:  # stable descending: ascending stable sort of the reversed array, read backwards
        order = (raw.size - 1) - np.argsort(raw[::-1], kind="stable")[::-1]
    else:
        order = np.argsort(raw)[::-1]
    sorted_scores = raw[order]
    sorted_weights = None if w is None else w[order]
    if keep is not None:
        order = keep[order]
    last = np.flatnonzero(sorted_scores[1:] != sorted_scores[:-1])
    last = np.append(last, sorted_scores.size - 1)
    return SortedScores(order, sorted_scores, sorted_weights, last)


def _labels(y_true: Any, func: str) -> np.ndarray:
    y = as_1d(as_array(y_true, "y_true"), f"{func} needs y_true of shape (n_samples,)")
    if y.size == 0:
        raise ValueError(f"{func} got empty input (0 samples); at least one sample is needed.")
    if y.dtype.kind in "fc" and not np.isfinite(y).all():
        raise ValueError(f"{func}: y_true contains infinity (first at position {int(np.argmin(np.isfinite(y)))}).")
    return y


def _keywords_once_positional(func: Callable[..., Any]) -> Callable[..., Any]:
    """Accept the keyword-only arguments positionally too, with scikit-learn 1.9's FutureWarning
    (scikit-learn 1.8 took them positionally; 1.11 will not)."""
    names = [p.name for p in inspect.signature(func).parameters.values() if p.kind is p.KEYWORD_ONLY]

    @functools.wraps(func)
    def wrapper(y_true: Any, y_score: Any, *args: Any, **kwargs: Any) -> Any:
        if args:
            if len(args) > len(names):
                raise TypeError(f"{func.__name__} takes at most {2 + len(names)} positional arguments.")
            given = ", ".join(f"{name}={value}" for name, value in zip(names, args))
            warnings.warn(
                f"Pass {given} as keyword args. From version 1.11 passing these as positional "
                "arguments will result in an error",
                FutureWarning,
                stacklevel=2,
            )
            for name, value in zip(names, args):
                if name in kwargs:
                    raise TypeError(f"{func.__name__} got multiple values for argument {name!r}.")
                kwargs[name] = value
        return func(y_true, y_score, **kwargs)

    return wrapper


@_keywords_once_positional
def confusion_matrix_at_thresholds(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Binary confusion counts at each distinct score: (tns, fps, fns, tps, thresholds).

    Thresholds decrease (y_score's dtype); at ``thresholds[i]`` every sample scoring at least
    it is predicted positive. Counts are float64 (weighted sums with ``sample_weight``);
    zero-weight samples are left out, so their scores are no thresholds. ``pos_label``
    defaults to 1 for labels in {0, 1} or {-1, 1} and is required otherwise.

    Same as `sklearn.metrics.confusion_matrix_at_thresholds`; differences: none in results for
    ordinary input (same thresholds; float-weighted counts up to rounding in the last bits:
    ``fns`` and ``tns`` are sums over the samples below each threshold, not differences of running
    totals, so small weights are not lost and overflowing totals give inf where scikit-learn's
    subtraction gives NaN); faster (one sort into counts per distinct score); a negative
    ``sample_weight`` raises ValueError (scikit-learn accepts it); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels; with ``pos_label``, any labels (``pos_label`` against the rest).
    y_score : array-like of shape (n_samples,)
        Finite scores of the positive class; higher means more positive.
    pos_label : int, float, bool or str, default=None
        The positive class; None means 1 for labels in {0, 1} or {-1, 1}. It may also be passed
        positionally, with scikit-learn's FutureWarning.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None counts every sample once. It may also be passed
        positionally, with scikit-learn's FutureWarning.

    Returns
    -------
    tns : ndarray of shape (n_thresholds,)
        True negatives at each threshold (float64).
    fps : ndarray of shape (n_thresholds,)
        False positives at each threshold (float64).
    fns : ndarray of shape (n_thresholds,)
        False negatives at each threshold (float64).
    tps : ndarray of shape (n_thresholds,)
        True positives at each threshold (float64).
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores of the samples with non-zero weight, decreasing.

    See Also
    --------
    metric_at_thresholds : Any label metric at every threshold.
    roc_curve : Rates read off the same counts.

    Examples
    --------
    >>> tns, fps, fns, tps, thr = confusion_matrix_at_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> tns.tolist(), fps.tolist(), fns.tolist(), tps.tolist(), thr.tolist()
    ([2.0, 1.0, 1.0, 0.0], [0.0, 1.0, 1.0, 2.0], [1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 2.0, 2.0], [0.8, 0.4, 0.35, 0.1])
    """
    func = "confusion_matrix_at_thresholds"
    if pos_label is not None and not isinstance(pos_label, (Real, str, np.bool_)):
        raise TypeError(f"pos_label must be a number, string, bool or None, got {pos_label!r}.")
    y = _labels(y_true, func)
    is_pos, _ = binary_positives(y, pos_label, func)
    s = sort_scores(y, y_score, sample_weight, func, stable=False)  # counts only: tie order is moot
    c = s.counts(is_pos)
    tns, fps, fns, tps = (np.array(x, dtype=np.float64) for x in (c.tn, c.fp, c.fn, c.tp))
    return tns, fps, fns, tps, s.thresholds


# --------------------------------------------------------------------------------------------
# metrics the sweep computes
# --------------------------------------------------------------------------------------------
class _Unsupported(Exception):
    """Arguments the sweep does not reproduce: the metric is called once per threshold."""


def _flag(kw: dict[str, Any], name: str, default: bool) -> bool:
    value = kw.get(name, default)
    if not isinstance(value, (bool, np.bool_)):
        raise _Unsupported
    return bool(value)


def _binary_rate_options(kw: dict[str, Any], *, nan_allowed: bool = True) -> tuple[int, float]:
    """(pos_label as 0 or 1, the value of an undefined rate) of precision_score's arguments with
    average='binary'; anything else is left to the metric itself."""
    if set(kw) - {"labels", "pos_label", "average", "zero_division"}:
        raise _Unsupported
    if kw.get("labels") is not None or kw.get("average", "binary") != "binary":
        raise _Unsupported
    pos = kw.get("pos_label", 1)
    if isinstance(pos, (str, bytes)) or not isinstance(pos, (Real, np.bool_)) or pos not in (0, 1):
        raise _Unsupported
    zd = kw.get("zero_division", "warn")
    if isinstance(zd, str):
        if zd != "warn":
            raise _Unsupported
        return int(pos), 0.0
    if not isinstance(zd, Real) or not (zd in (0, 1) or (nan_allowed and math.isnan(zd))):
        raise _Unsupported
    return int(pos), float(zd)


def _no_options(kw: dict[str, Any], *allowed: str) -> None:
    if set(kw) - set(allowed):
        raise _Unsupported


def _filled(values: np.ndarray, fill: float) -> np.ndarray:
    return np.where(np.isnan(values), fill, values)


def _oriented(c: ThresholdCounts, kw: dict[str, Any], nan_allowed: bool = True) -> tuple[ThresholdCounts, float]:
    """The counts seen from pos_label (0 swaps tp with tn and fp with fn), and the fill value."""
    pos, fill = _binary_rate_options(kw, nan_allowed=nan_allowed)
    if pos == 0:
        c = ThresholdCounts(c.thresholds, c.tn, c.fn, c.fp, c.tp)
    return c, fill


def _set_rate(formula: Callable[..., np.ndarray], *cells: str, nan_allowed: bool = True):
    """(values, warning key) of a set-wise rate of the positive class: ``formula`` of the named
    cells, which is undefined (and warns) where those cells sum to zero."""

    def compute(c: ThresholdCounts, kw: dict[str, Any]) -> np.ndarray:
        c, fill = _oriented(c, kw, nan_allowed)
        return _filled(formula(*(getattr(c, name) for name in cells)), fill)

    def key(c: ThresholdCounts, kw: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        c, _ = _oriented(c, kw, nan_allowed)
        undefined = sum(getattr(c, name) for name in cells) == 0
        return undefined, undefined[:, None]

    return compute, key


def _never(c: ThresholdCounts, kw: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros(len(c), dtype=bool), np.zeros((len(c), 0), dtype=bool)


def _label_sets(c: ThresholdCounts, kw: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Label-set metrics warn where y_true holds one class (a single label, a predicted class
    absent from y_true, kappa undefined); which warning depends on the predicted classes too."""
    key = np.stack([c.tp + c.fn == 0, c.fp + c.tn == 0, c.tp + c.fp == 0, c.fn + c.tn == 0], axis=1)
    return key[:, 0] | key[:, 1], key


def _without_beta(kw: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    beta = kw.get("beta")
    if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, Real) or not 0 < beta < math.inf:
        raise _Unsupported
    return float(beta), {k: v for k, v in kw.items() if k != "beta"}


_F1 = _set_rate(measures.fbeta, "tp", "fp", "fn")  # beta = 1


def _fbeta(c: ThresholdCounts, kw: dict[str, Any]) -> np.ndarray:
    beta, rest = _without_beta(kw)
    compute, _ = _set_rate(functools.partial(measures.fbeta, beta=beta), "tp", "fp", "fn")
    return compute(c, rest)


def _fbeta_key(c: ThresholdCounts, kw: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    return _F1[1](c, _without_beta(kw)[1])


def _table_measure(formula: Callable[[np.ndarray], np.ndarray], flag: tuple[str, bool] | None = None):
    """A measure of the (m, 2, 2) tables; ``flag``: a boolean option and the one value of it
    that the sweep reproduces."""

    def compute(c: ThresholdCounts, kw: dict[str, Any]) -> np.ndarray:
        _no_options(kw, *(flag[:1] if flag else ()))
        if flag is not None and _flag(kw, *flag) != flag[1]:
            raise _Unsupported
        return formula(c.matrices())

    return compute


def _kappa(c: ThresholdCounts, kw: dict[str, Any]) -> np.ndarray:
    _no_options(kw, "labels", "weights", "replace_undefined_by")
    # with two labels, linear and quadratic weights are both 1 off the diagonal
    if kw.get("labels") is not None or kw.get("weights") not in (None, "linear", "quadratic"):
        raise _Unsupported
    fill = kw.get("replace_undefined_by", np.nan)
    if not isinstance(fill, float):  # scikit-learn returns it as given: an int stays an int
        raise _Unsupported
    if not (math.isnan(fill) or -1.0 <= fill <= 1.0):
        raise _Unsupported
    return _filled(measures.cohen_kappa(c.matrices()), float(fill))


#: name -> (values at every threshold from the counts and keyword arguments, where the metric
#: may warn and the pattern that decides which warning); the warnings themselves come from
#: calling the metric once per distinct pattern
_Entry = tuple[Callable[[ThresholdCounts, dict], np.ndarray], Callable[[ThresholdCounts, dict], tuple]]
_METRICS: dict[str, _Entry] = {
    "precision_score": _set_rate(measures.precision, "tp", "fp"),
    "recall_score": _set_rate(measures.recall, "tp", "fn"),
    "f1_score": _F1,
    "fbeta_score": (_fbeta, _fbeta_key),
    "jaccard_score": _set_rate(measures.jaccard, "tp", "fp", "fn", nan_allowed=False),
    "accuracy_score": (_table_measure(measures.accuracy, ("normalize", True)), _never),
    "zero_one_loss": (_table_measure(measures.error_rate, ("normalize", True)), _never),
    "hamming_loss": (_table_measure(measures.error_rate), _never),
    "balanced_accuracy_score": (_table_measure(measures.balanced_accuracy, ("adjusted", False)), _label_sets),
    "matthews_corrcoef": (_table_measure(measures.matthews_corrcoef), _label_sets),
    "cohen_kappa_score": (_kappa, _label_sets),
}
#: clfeval's own metrics that scikit-learn does not have
_CLFEVAL_ONLY: dict[str, _Entry] = {
    "specificity_score": _set_rate(measures.specificity, "tn", "fp"),
    "npv_score": _set_rate(measures.npv, "tn", "fn"),
    "fallout_score": _set_rate(measures.fallout, "fp", "tn"),
    "error_rate": (_table_measure(measures.error_rate), _never),
}


@dataclass(frozen=True)
class KnownMetric:
    """A label metric that :func:`metric_at_thresholds` computes from the sweep's counts:
    its ``name``, the library it comes from and the keyword arguments it will get."""

    name: str
    library: str
    keywords: dict[str, Any]

    def values(self, counts: ThresholdCounts) -> np.ndarray | None:
        """The metric at every threshold, or None when its arguments need the metric itself."""
        compute, _ = self._entry
        try:
            return np.asarray(compute(counts, self.keywords), dtype=np.float64)
        except _Unsupported:
            return None

    def warning_patterns(self, counts: ThresholdCounts) -> tuple[np.ndarray, np.ndarray]:
        """(mask of the thresholds where the metric may warn, a boolean key per threshold: the
        metric gives the same warnings at thresholds of the same key)."""
        return self._entry[1](counts, self.keywords)

    @property
    def _entry(self):
        return _METRICS.get(self.name) or _CLFEVAL_ONLY[self.name]


def known_metric(metric_func: Any, metric_params: dict[str, Any] | None = None) -> KnownMetric | None:
    """The metric that ``metric_func`` is, when clfeval can compute it from a threshold sweep:
    clfeval's or scikit-learn's function of that name (recognised by module and name, so
    scikit-learn is never imported here), possibly wrapped in ``functools.partial`` with
    keyword arguments; ``metric_params`` are added as the call would add them. None otherwise
    (positional arguments bound in a partial, or ``sample_weight`` among the arguments).

    >>> import functools
    >>> from clfeval.metrics import fbeta_score
    >>> known_metric(functools.partial(fbeta_score, beta=2), {"zero_division": 0})
    KnownMetric(name='fbeta_score', library='clfeval', keywords={'beta': 2, 'zero_division': 0})
    >>> known_metric(lambda y_true, y_pred: 0.0) is None
    True
    """
    keywords: dict[str, Any] = {}
    func = metric_func
    while isinstance(func, functools.partial):
        if func.args:
            return None
        keywords = {**func.keywords, **keywords}
        func = func.func
    keywords.update(metric_params or {})
    if "sample_weight" in keywords:
        return None
    module, name = getattr(func, "__module__", None), getattr(func, "__qualname__", None)
    if module == _SKLEARN_MODULE and name in _METRICS:
        return KnownMetric(name, "scikit-learn", keywords)
    if module == _CLFEVAL_MODULE and (name in _METRICS or name in _CLFEVAL_ONLY):
        return KnownMetric(name, "clfeval", keywords)
    return None


def _binary_01(y: np.ndarray) -> bool:
    """Labels that are numbers (or bools) in {0, 1}: the sweep's positive class is 1."""
    return y.dtype.kind in "biuf" and bool(np.all((y == 0) | (y == 1)))


def metric_at_thresholds(
    y_true: Any,
    y_score: Any,
    metric_func: Callable[..., Any],
    *,
    sample_weight: Any = None,
    metric_params: dict[str, Any] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``metric_func(y_true, y_pred, **metric_params)`` at every distinct score, where
    ``y_pred`` is the int32 prediction ``y_score >= threshold``: (metric_values, thresholds).

    Thresholds decrease (y_score's dtype); zero-weight samples are left out. y_true, y_pred
    and ``sample_weight`` (float64; passed as a keyword when given) reach ``metric_func`` in
    decreasing-score order, as in scikit-learn. A metric returning several values gives one
    row per threshold. Label metrics that clfeval knows (see :func:`known_metric`) on labels
    in {0, 1} are computed for all thresholds at once from one sorted sweep, with the
    warnings the metric itself gives; any other callable is called once per threshold.

    Same as `sklearn.metrics.metric_at_thresholds`; differences: a label metric clfeval knows, on
    0/1 labels and with arguments the sweep reproduces, is computed for every threshold from one
    sweep of counts instead of one call per threshold (far faster), with the same values (float
    weights: up to rounding in the last bits) and its warnings given once per distinct situation
    rather than at every threshold; any other callable is called as scikit-learn calls it; a
    negative ``sample_weight`` raises ValueError (scikit-learn accepts it); clfeval's own error
    messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels, passed to ``metric_func`` as they are (in decreasing-score order).
    y_score : array-like of shape (n_samples,)
        Finite scores; at each threshold the samples scoring at least it are predicted 1, the
        others 0.
    metric_func : callable
        ``metric_func(y_true, y_pred, **metric_params)`` returning a number or an array, such as
        :func:`f1_score` (clfeval's or scikit-learn's).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample, passed on to ``metric_func`` as ``sample_weight``;
        zero-weight samples are left out. None passes no weights.
    metric_params : dict, default=None
        Further keyword arguments of ``metric_func`` (``pos_label``, ``average``,
        ``zero_division``, ...).

    Returns
    -------
    metric_values : ndarray of shape (n_thresholds,) or (n_thresholds, ...)
        The metric at each threshold; a metric returning several values gives one row each.
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores, decreasing, in the dtype of ``y_score``.

    See Also
    --------
    confusion_matrix_at_thresholds : The counts the sweep is computed from.

    Examples
    --------
    >>> values, thresholds = metric_at_thresholds(
    ...     [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], lambda t, p: int((t == p).sum()))
    >>> values.tolist(), thresholds.tolist()
    ([3, 2, 3, 2], [0.8, 0.4, 0.35, 0.1])
    """
    func = "metric_at_thresholds"
    if not callable(metric_func):
        raise TypeError(f"metric_func must be a callable, got {metric_func!r}.")
    if metric_params is not None and not isinstance(metric_params, dict):
        raise TypeError(f"metric_params must be a dict or None, got {metric_params!r}.")
    y = _labels(y_true, func)
    known = known_metric(metric_func, metric_params)
    if known is not None and _binary_01(y):
        s = sort_scores(y, y_score, sample_weight, func, stable=False)
        counts = s.counts(y == 1)
        values = known.values(counts)
        if values is not None:
            _warn_as_metric(known, counts, _caller(metric_func, metric_params, y, s))
            return values, s.thresholds
    s = sort_scores(y, y_score, sample_weight, func)
    call_at = _caller(metric_func, metric_params, y, s)
    return np.asarray([call_at(i) for i in range(s.thresholds.size)]), s.thresholds


def _caller(metric_func: Callable[..., Any], metric_params: dict | None, y: np.ndarray, s: SortedScores):
    """The call at threshold i, as scikit-learn makes it: metric_func(y_true, y_pred (int32),
    **metric_params, sample_weight=...), all in the sorted order."""
    y_sorted = y[s.order]
    kwargs = dict(metric_params or {})
    if s.sample_weight is not None:
        kwargs["sample_weight"] = s.sample_weight

    def call_at(i: int) -> Any:
        y_pred = np.zeros(y_sorted.size, dtype=np.int32)
        y_pred[: s.last[i] + 1] = 1  # the scores >= thresholds[i] come first
        return metric_func(y_sorted, y_pred, **kwargs)

    return call_at


def _warn_as_metric(known: KnownMetric, counts: ThresholdCounts, call_at: Callable[[int], Any]) -> None:
    """Call the metric once per distinct warning pattern among the thresholds where it may
    warn, so that its own warnings (class and message) reach the caller; scikit-learn, calling
    it at every threshold, gives the same warnings (repeated)."""
    mask, key = known.warning_patterns(counts)
    where = np.flatnonzero(mask)
    if where.size == 0:
        return
    _, first = np.unique(key[where], axis=0, return_index=True)
    for i in np.sort(first):
        call_at(int(where[i]))
