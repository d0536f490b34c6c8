"""Cross-evaluation: fit an estimator on the training part of each split, evaluate it on the test
part, and aggregate honestly.

* :func:`cross_evaluate` runs any scikit-learn-compatible classifier over a protocol
  (:mod:`clfeval.protocols` or any scikit-learn splitter) and returns a :class:`CrossEvaluation`:
  a full :class:`~clfeval.Evaluation` per fold, the pooled out-of-fold Evaluation, per-fold metric
  tables, means, spreads and intervals (Nadeau-Bengio corrected), times and split indices.
* Aggregation named plainly: "mean over folds" vs "pooled"; ``f1_macro`` (mean of per-class F1,
  scikit-learn's macro F1) vs ``f1_of_macros`` (F1 of macro precision and macro recall);
  :func:`aggregate_confusions` does the same for confusion tables from several data sets or runs.
* :func:`mean_curve`: ROC / PR curves averaged vertically across folds, with a pointwise band.
* :func:`compare` / :meth:`CrossEvaluation.compare`: two estimators on identical splits with the
  corrected resampled t test (or 5x2cv).
* :func:`bootstrap_632` / :meth:`CrossEvaluation.bootstrap_estimates`: the leave-one-out
  bootstrap, .632 and .632+ estimators of Efron and Tibshirani (1997).

scikit-learn and joblib are needed only when an estimator is run (``pip install
'clfeval[protocols]'``); aggregating tables and curves needs neither.

>>> agg = aggregate_confusions([[[8, 2], [1, 9]], [[5, 5], [0, 10]]])
>>> round(agg.pooled_value("accuracy"), 4), round(agg.mean_value("accuracy"), 4)
(0.8, 0.8)
>>> round(agg.pooled_value("f1_macro"), 4), round(agg.mean_value("f1_macro"), 4)
(0.7954, 0.7915)
"""

from __future__ import annotations

import math
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from . import measures
from .confusion import ConfusionMatrix
from .evaluation import Evaluation, evaluate
from .exceptions import UndefinedMetricWarning
from .labels import as_array, check_sample_weight, encode, unique_sorted
from .protocols import EXTRA, Bootstrap, KFold, PredefinedSplits, Protocol, n_samples_of, require_sklearn
from .report.table import Report, build_report

__all__ = [
    "cross_evaluate",
    "CrossEvaluation",
    "Fold",
    "FoldError",
    "MetricSummary",
    "metric_value",
    "METRICS",
    "aggregate_confusions",
    "ConfusionAggregate",
    "mean_curve",
    "MeanCurve",
    "compare",
    "Comparison",
    "bootstrap_632",
    "efron_tibshirani",
    "BootstrapEstimate",
]

# -- metric names ---------------------------------------------------------------------------------

AVERAGES = ("micro", "macro", "weighted")
METRICS: dict[str, str] = {
    "accuracy": "accuracy",
    "error_rate": "error rate (1 - accuracy)",
    "balanced_accuracy": "balanced accuracy (mean recall over classes)",
    "mcc": "Matthews correlation coefficient",
    "kappa": "Cohen's kappa",
    "roc_auc": "ROC AUC (binary: positive class; multi-class: macro one-vs-rest)",
    "average_precision": "average precision (binary: positive class; multi-class: macro one-vs-rest)",
    "precision": "precision of the positive class (binary)",
    "recall": "recall of the positive class (binary)",
    "f1": "F1 of the positive class (binary)",
    "f1_macro": "mean of per-class F1 (scikit-learn's macro F1)",
    "f1_of_macros": "F1 of macro precision and macro recall (Sokolova & Lapalme 2009)",
    "<column>_<average>": "a report column (precision, recall, f1, fallout, specificity, npv, roc_auc, "
    "average_precision) averaged micro, macro or weighted, e.g. recall_weighted",
}
# scikit-learn scorer names that mean a report number under another name
_ALIASES = {
    "matthews_corrcoef": "mcc",
    "cohen_kappa": "kappa",
    "roc_auc_ovr": "roc_auc_macro",
    "roc_auc_ovr_weighted": "roc_auc_weighted",
}
_SCORE_METRICS = ("roc_auc", "average_precision")
_LOSSES = ("error_rate", "fallout")
_SIGNED = ("mcc", "kappa")  # range [-1, 1]; every other report number lies in [0, 1]


def _float(v: Any) -> float:
    return float("nan") if v is None else float(v)


def metric_value(report: Report, metric: str, pos_row: int | None = None) -> float:
    """One number of a :class:`~clfeval.report.table.Report` by name (see :data:`METRICS`).

    ``pos_row``: the row of the positive class, for per-class names ("precision", "f1", ...) of a
    binary task. scikit-learn scorer names work where they denote a report number (``f1_macro``,
    ``precision_weighted``, ``roc_auc_ovr``, ``matthews_corrcoef``, ...).

    >>> ev = evaluate([0, 1, 1, 0, 1], [0, 1, 0, 0, 1])
    >>> metric_value(ev.report, "f1", pos_row=1), round(metric_value(ev.report, "f1_macro"), 4)
    (0.8, 0.8)
    """
    name = _ALIASES.get(metric, metric)
    if name == "f1_of_macros":
        p, r = (_float(report.averages["macro"][c]) for c in ("precision", "recall"))
        return float(measures.ratio(2.0 * p * r, p + r)) if not (math.isnan(p) or math.isnan(r)) else math.nan
    if name in report.overall:
        return _float(report.overall[name])
    base, _, average = name.rpartition("_")
    if average in AVERAGES and base in report.columns and average in report.averages:
        return _float(report.averages[average][base])
    if name in report.columns:
        if pos_row is None:
            raise ValueError(
                f"{metric!r} is a per-class number and this task is not binary: name an average, e.g. "
                f"{name}_macro or {name}_weighted."
            )
        return _float(report.rows[pos_row][name])
    if any(name.startswith(s) for s in _SCORE_METRICS):
        raise ValueError(f"{metric!r} needs scores; these predictions have none (response='predict').")
    raise ValueError(f"unknown metric {metric!r}; known: {sorted(k for k in METRICS if '<' not in k)} and "
                     "<column>_<average> (e.g. recall_macro).")


def default_metrics(task: str, has_scores: bool) -> list[str]:
    """The metrics of the per-fold table when none are asked for."""
    if task == "binary":
        names = ["accuracy", "balanced_accuracy", "precision", "recall", "f1", "f1_macro", "f1_of_macros"]
    else:
        names = ["accuracy", "balanced_accuracy", "precision_macro", "recall_macro", "f1_macro", "f1_of_macros",
                 "f1_weighted"]
    names += ["mcc", "kappa"]
    return names + list(_SCORE_METRICS) if has_scores else names


def _higher_is_better(metric: str) -> bool:
    return not any(_ALIASES.get(metric, metric).startswith(s) for s in _LOSSES)


def _mean_interval(values: np.ndarray, ratio: float | None, level: float) -> dict[str, np.ndarray]:
    """Mean, sd and a t interval for the mean of ``values`` along axis 0 (NaN rows ignored).

    With ``ratio`` (n_test / n_train) the variance of the mean is Nadeau and Bengio's corrected
    ``(1/J + ratio) s^2`` - the interval of :func:`clfeval.stats.corrected_resampled_ttest` -
    else the naive ``s^2 / J``. J - 1 degrees of freedom; NaN where J < 2.
    """
    from scipy import stats

    v = np.asarray(values, dtype=np.float64)
    j = np.sum(~np.isnan(v), axis=0)
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(v, axis=0)
        sd = np.nanstd(v, axis=0, ddof=1)
        factor = 1.0 / j + (ratio if ratio is not None else 0.0)
        half = stats.t.ppf(0.5 + level / 2.0, j - 1) * np.sqrt(factor * sd**2)
    half = np.where(j >= 2, half, np.nan)
    return {"mean": mean, "std": np.where(j >= 2, sd, np.nan), "low": mean - half, "high": mean + half, "n": j}


_INTERVAL_METHODS = {
    "corrected": "t interval with Nadeau-Bengio corrected variance (1/J + n_test/n_train) s^2, J-1 df",
    "t": "t interval with naive variance s^2/J, J-1 df (too narrow: the folds share training data)",
    "independent": "t interval with variance s^2/J, J-1 df (the runs taken as independent)",
}


# -- folds ----------------------------------------------------------------------------------------


class FoldError(RuntimeError):
    """A fold failed (fit, predict or evaluation); ``__cause__`` is the original exception."""

    def __init__(self, message: str, *, fold: int, repeat: int, n_train: int, n_test: int, stage: str) -> None:
        super().__init__(message)
        self.fold, self.repeat, self.n_train, self.n_test, self.stage = fold, repeat, n_train, n_test, stage


@dataclass(frozen=True, eq=False)
class Fold:
    """One split's outcome: indices, the fitted model's Evaluation on the test part, times, error.

    ``index``: position in the protocol's order (0-based); ``repeat``: which repetition it belongs
    to. ``fit_time`` / ``predict_time`` (predict plus the score method) / ``evaluation_time``
    (clfeval's work) in seconds. A failed fold has ``evaluation=None`` and ``error`` set.
    """

    index: int
    repeat: int
    train: np.ndarray = field(repr=False)
    test: np.ndarray = field(repr=False)
    evaluation: Evaluation | None = field(repr=False)
    fit_time: float
    predict_time: float
    evaluation_time: float
    error: str | None = None
    stage: str | None = field(default=None, repr=False)
    y_pred: np.ndarray | None = field(default=None, repr=False)
    y_score: np.ndarray | None = field(default=None, repr=False)
    estimator: Any = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return self.error is None

    def __repr__(self) -> str:
        head = f"Fold(index={self.index}, repeat={self.repeat}, n_train={self.train.size}, n_test={self.test.size}"
        if self.evaluation is None:
            return f"{head}, error={self.error!r})"
        return (f"{head}, accuracy={self.evaluation.report.overall['accuracy']:.4f}, "
                f"fit_time={self.fit_time:.3g}s)")


@dataclass(frozen=True)
class _FoldSpec:
    index: int
    repeat: int
    response: str
    labels: np.ndarray
    pos_label: Any
    keep_estimator: bool


def _index_rows(X: Any, idx: np.ndarray) -> Any:
    from sklearn.utils import _safe_indexing

    return _safe_indexing(X, idx)


def _fit_params_for(params: dict[str, Any], idx: np.ndarray, n: int) -> dict[str, Any]:
    """Per-sample fit parameters (length n) cut to the training rows; the rest passed as they are."""
    out = {}
    for k, v in params.items():
        if v is not None and hasattr(v, "__len__") and not isinstance(v, (str, dict)) and n_samples_of(v) == n:
            out[k] = _index_rows(v, idx)
        else:
            out[k] = v
    return out


def _scores_in_label_order(est: Any, raw: np.ndarray, spec: _FoldSpec) -> np.ndarray:
    """predict_proba / decision_function output with one column per global label (1-D for binary:
    the positive class). Columns follow ``est.classes_``; classes the fold's model never saw get 0
    (probabilities) or the lowest float (decision values), as in cross_val_predict."""
    raw = np.asarray(raw, dtype=np.float64)
    classes = np.asarray(getattr(est, "classes_", spec.labels))
    if raw.ndim == 1:  # binary decision function: the score of classes_[1]
        raw = np.column_stack([-raw, raw])
    cols = encode(classes, spec.labels)
    if cols.size != raw.shape[1] or (cols < 0).any():
        raise ValueError(f"the model's classes_ {classes.tolist()} do not match its {raw.shape[1]} score columns "
                         f"or are not among the labels {spec.labels.tolist()}.")
    fill = 0.0 if spec.response == "predict_proba" else np.finfo(np.float64).min
    full = np.full((raw.shape[0], spec.labels.size), fill)
    full[:, cols] = raw
    if spec.labels.size == 2:
        return full[:, int(np.flatnonzero(spec.labels == spec.pos_label)[0])]
    return full


def _run_fold(estimator: Any, X: Any, y: np.ndarray, w: np.ndarray | None, fit_params: dict[str, Any],
              train: np.ndarray, test: np.ndarray, spec: _FoldSpec) -> tuple[Fold, list[str]]:
    """Fit a clone on ``train``, predict ``test``, evaluate. Never raises: errors are returned."""
    from sklearn.base import clone

    fit_time = predict_time = eval_time = 0.0
    stage, y_pred, y_score, ev, est = "fit", None, None, None, None
    caught: list[str] = []
    try:
        est = clone(estimator)
        kwargs = _fit_params_for(fit_params, train, y.size)
        if w is not None:
            kwargs["sample_weight"] = w[train]
        start = time.perf_counter()
        est.fit(_index_rows(X, train), y[train], **kwargs)
        fit_time = time.perf_counter() - start
        stage = "predict"
        X_test = _index_rows(X, test)
        start = time.perf_counter()
        y_pred = np.asarray(est.predict(X_test))
        raw = None if spec.response == "predict" else getattr(est, spec.response)(X_test)
        predict_time = time.perf_counter() - start
        stage = "evaluate"
        start = time.perf_counter()
        y_score = None if raw is None else _scores_in_label_order(est, raw, spec)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", UndefinedMetricWarning)
            ev = evaluate(y[test], y_pred, y_score, labels=spec.labels,
                          pos_label=spec.pos_label if spec.labels.size == 2 else None,
                          sample_weight=None if w is None else w[test], name=f"fold {spec.index}")
            ev.report  # noqa: B018 - computed here, in the worker
        eval_time = time.perf_counter() - start
        caught = [str(m.message) for m in seen if issubclass(m.category, UndefinedMetricWarning)]
        error = None
    except Exception as exc:  # noqa: BLE001 - reported per fold, re-raised by the caller
        error = exc
    fold = Fold(spec.index, spec.repeat, train, test, ev, fit_time, predict_time, eval_time,
                None if error is None else f"{type(error).__name__}: {error}", None if error is None else stage,
                y_pred, y_score, est if spec.keep_estimator else None)
    if error is not None:
        object.__setattr__(fold, "_exception", error)
    return fold, caught


@contextmanager
def _progress(total: int, enabled: bool, what: str) -> Iterator[Callable[[], None]]:
    """A rich progress bar on a terminal (transient); a no-op otherwise."""
    bar = None
    if enabled and total > 1 and sys.stderr.isatty():
        try:
            from rich.console import Console
            from rich.progress import Progress
        except ImportError:  # pragma: no cover - rich is optional
            bar = None
        else:
            bar = Progress(console=Console(stderr=True), transient=True)
    if bar is None:
        yield lambda: None
        return
    with bar:
        task = bar.add_task(what, total=total)
        yield lambda: bar.advance(task)


# -- cross_evaluate -------------------------------------------------------------------------------


def _check_estimator(estimator: Any) -> None:
    for method in ("fit", "predict"):
        if not callable(getattr(estimator, method, None)):
            raise TypeError(f"estimator must have fit and predict (a scikit-learn classifier); "
                            f"{type(estimator).__name__} has no {method}().")
    if isinstance(estimator, type):
        raise TypeError(f"estimator must be an instance, got the class {estimator.__name__}; call it first.")


def _check_target(y: Any, n: int) -> np.ndarray:
    arr = as_array(y, "y")
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"y must be 1-D class labels (binary or multi-class), got shape {arr.shape}.")
    if arr.shape[0] != n:
        raise ValueError(f"X has {n} rows but y has {arr.shape[0]}; they must match.")
    if arr.dtype.kind == "f" and not np.array_equal(arr, np.floor(arr)):
        raise ValueError("y holds continuous values; cross_evaluate needs class labels.")
    return arr


def _resolve_response(estimator: Any, response: str) -> str:
    allowed = ("auto", "predict_proba", "decision_function", "predict")
    if response not in allowed:
        raise ValueError(f"response must be one of {allowed}, got {response!r}.")
    if response == "auto":
        for method in ("predict_proba", "decision_function"):
            if hasattr(estimator, method):
                return method
        return "predict"
    if response != "predict" and not hasattr(estimator, response):
        raise ValueError(f"response={response!r} but {type(estimator).__name__} has no {response}().")
    return response


def _resolve_pos_label(labels: np.ndarray, pos_label: Any, notes: list[str]) -> Any:
    if labels.size != 2:
        if pos_label is not None:
            raise ValueError(f"pos_label applies to binary tasks; y has {labels.size} classes.")
        return None
    if pos_label is not None:
        if not (labels == pos_label).any():
            raise ValueError(f"pos_label={pos_label!r} is not one of the classes {labels.tolist()}.")
        return labels[labels == pos_label][0]
    if labels.dtype.kind not in "biuf" or set(labels.tolist()) not in ({0, 1}, {-1, 1}):
        notes.append(f"Positive class taken as {labels[1].item()!r}, the second of the sorted classes (the "
                     "column predict_proba puts second); pass pos_label to choose.")
    return labels[1]


def _resolve_protocol(protocol: Any, random_state: Any) -> Any:
    if protocol is None or (isinstance(protocol, int) and not isinstance(protocol, bool)):
        k = 5 if protocol is None else protocol
        return KFold(k, stratify=True, shuffle=random_state is not None, random_state=random_state)
    if isinstance(protocol, Protocol):
        return protocol.with_random_state(random_state)
    if callable(getattr(protocol, "split", None)) and not isinstance(protocol, (str, bytes)):
        return protocol
    if isinstance(protocol, (list, tuple)):
        return PredefinedSplits(protocol)
    raise TypeError(f"protocol must be a clfeval protocol, an object with split() (a scikit-learn splitter), "
                    f"an int (k-fold) or a list of (train, test) pairs; got {type(protocol).__name__}.")


def _protocol_name(protocol: Any) -> str:
    return getattr(protocol, "name", None) or repr(protocol)


@dataclass
class _Prepared:
    """Validated input shared by the runs of :func:`cross_evaluate` and :func:`compare`."""

    X: Any
    y: np.ndarray
    w: np.ndarray | None
    labels: np.ndarray
    pos_label: Any
    protocol: Any
    splits: list[tuple[np.ndarray, np.ndarray]]
    n_repeats: int
    notes: list[str]


def _prepare(X: Any, y: Any, protocol: Any, groups: Any, sample_weight: Any, labels: Any, pos_label: Any,
             random_state: Any) -> _Prepared:
    require_sklearn("cross_evaluate")
    n = n_samples_of(X)
    y_arr = _check_target(y, n)
    present = unique_sorted(y_arr, "y")
    if labels is None:
        classes = present
    else:
        classes = as_array(labels, "labels").reshape(-1)
        missing = present[encode(present, classes) < 0]
        if missing.size:
            raise ValueError(f"y holds {missing.tolist()}, which labels= {classes.tolist()} does not list.")
    if classes.size < 2:
        raise ValueError(f"y has a single class ({classes.tolist()}); a classifier needs at least two.")
    notes: list[str] = []
    pos = _resolve_pos_label(classes, pos_label, notes)
    w = check_sample_weight(sample_weight, n, allow_all_zero=False)
    proto = _resolve_protocol(protocol, random_state)
    splits = [(np.asarray(a, dtype=np.intp), np.asarray(b, dtype=np.intp)) for a, b in proto.split(X, y_arr, groups)]
    if not splits:
        raise ValueError(f"the protocol {_protocol_name(proto)!r} gave no splits.")
    for i, (train, test) in enumerate(splits):
        if train.size == 0 or test.size == 0:
            raise ValueError(f"split {i} of {_protocol_name(proto)!r} has an empty {'train' if train.size == 0 else 'test'} part.")
    n_repeats = getattr(proto, "n_repeats", 1)
    if not isinstance(n_repeats, int) or n_repeats < 1 or len(splits) % n_repeats:
        n_repeats = 1
    return _Prepared(X, y_arr, w, classes, pos, proto, splits, n_repeats, notes)


def _check_fit_weight(estimator: Any) -> None:
    from sklearn.utils.validation import has_fit_parameter

    if not has_fit_parameter(estimator, "sample_weight"):
        raise TypeError(
            f"sample_weight was given but {type(estimator).__name__}.fit takes no sample_weight; use an estimator "
            "that does, or route the weights yourself with fit_params (e.g. {'step__sample_weight': w} for a "
            "Pipeline) and leave sample_weight out."
        )


def _run(estimator: Any, prep: _Prepared, *, response: str, n_jobs: int | None, progress: bool, on_error: str,
         fit_params: dict[str, Any] | None, apparent: bool | None, return_estimators: bool,
         name: str | None) -> CrossEvaluation:
    try:
        from joblib import Parallel, delayed
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(f"cross_evaluate needs joblib: {EXTRA}") from exc

    _check_estimator(estimator)
    if on_error not in ("raise", "continue"):
        raise ValueError(f"on_error must be 'raise' or 'continue', got {on_error!r}.")
    if prep.w is not None:
        _check_fit_weight(estimator)
    used = _resolve_response(estimator, response)
    params = dict(fit_params or {})
    per_repeat = len(prep.splits) // prep.n_repeats
    specs = [_FoldSpec(i, i // per_repeat, used, prep.labels, prep.pos_label, return_estimators)
             for i in range(len(prep.splits))]
    jobs = [delayed(_run_fold)(estimator, prep.X, prep.y, prep.w, params, tr, te, s)
            for (tr, te), s in zip(prep.splits, specs)]
    if apparent is None:
        apparent = isinstance(prep.protocol, Bootstrap)
    if apparent:
        everything = np.arange(prep.y.size, dtype=np.intp)
        jobs.append(delayed(_run_fold)(estimator, prep.X, prep.y, prep.w, params, everything, everything,
                                       _FoldSpec(-1, -1, used, prep.labels, prep.pos_label, return_estimators)))
    folds: list[Fold] = []
    undefined: list[str] = []
    label = name or type(estimator).__name__
    with _progress(len(jobs), progress, f"cross_evaluate {label}") as advance:
        for fold, caught in Parallel(n_jobs=n_jobs, return_as="generator")(jobs):
            advance()
            if fold.error is not None and on_error == "raise":
                where = "the fit on all data" if fold.index < 0 else f"fold {fold.index} (repeat {fold.repeat})"
                raise FoldError(
                    f"{where} failed in {fold.stage} (train {fold.train.size} rows, test {fold.test.size} rows): "
                    f"{fold.error}. Pass on_error='continue' to record failures and carry on.",
                    fold=fold.index, repeat=fold.repeat, n_train=fold.train.size, n_test=fold.test.size,
                    stage=fold.stage or "",
                ) from getattr(fold, "_exception", None)
            undefined += [f"fold {fold.index}: {m}" for m in caught]
            folds.append(fold)
    resub = folds.pop() if apparent else None
    failed = [f for f in folds if f.error is not None]
    if len(failed) == len(folds):
        raise FoldError(f"all {len(folds)} folds failed; the first: fold {failed[0].index} in {failed[0].stage}: "
                        f"{failed[0].error}", fold=failed[0].index, repeat=failed[0].repeat,
                        n_train=failed[0].train.size, n_test=failed[0].test.size, stage=failed[0].stage or "")
    notes = list(prep.notes)
    if failed:
        msg = f"{len(failed)} of {len(folds)} folds failed: " + "; ".join(f"fold {f.index}: {f.error}" for f in failed[:5])
        notes.append(msg)
        warnings.warn(msg, RuntimeWarning, stacklevel=3)
    if undefined:
        warnings.warn(f"undefined (0/0) metrics in {len(undefined)} fold reports; the first: {undefined[0]}",
                      UndefinedMetricWarning, stacklevel=3)
    return CrossEvaluation(folds, protocol=prep.protocol, response=used, labels=prep.labels, pos_label=prep.pos_label,
                           y=prep.y, sample_weight=prep.w, n_repeats=prep.n_repeats, name=label, notes=notes,
                           apparent=resub)


def cross_evaluate(
    estimator: Any,
    X: Any,
    y: Any,
    protocol: Any = None,
    *,
    groups: Any = None,
    sample_weight: Any = None,
    response: str = "auto",
    labels: Any = None,
    pos_label: Any = None,
    n_jobs: int | None = None,
    progress: bool = True,
    random_state: Any = None,
    on_error: str = "raise",
    fit_params: dict[str, Any] | None = None,
    apparent: bool | None = None,
    return_estimators: bool = False,
    name: str | None = None,
) -> CrossEvaluation:
    """Fit a clone of ``estimator`` on each training part and evaluate it on the test part.

    * ``protocol``: a :mod:`clfeval.protocols` object, any scikit-learn splitter, a list of
      (train, test) pairs, or an int k. Default (None): stratified 5-fold without shuffling -
      exactly the folds of scikit-learn's ``cross_validate(cv=5)`` for a classifier; with
      ``random_state`` the folds are shuffled with it. ``random_state`` also seeds a clfeval
      protocol built without one; it does not touch the estimator's own randomness.
    * ``response``: "auto" takes predict_proba, else decision_function, else predictions only; the
      choice is in ``result.response``. Predictions always come from ``predict``, so confusion
      matrices equal scikit-learn's cross_val_predict + metrics.
    * ``labels``: the classes (default: those of y, sorted), fixed across folds, so a fold missing
      a class still has a k-class table. ``pos_label``: the positive class of a binary task.
    * ``sample_weight``: passed to fit (as ``sample_weight=``, an error if fit takes none) and to
      each fold's metrics (its test rows' weights). ``fit_params``: more fit arguments; those with
      one value per row are cut to the training rows.
    * ``n_jobs``: folds in parallel with joblib (same result for any n_jobs); ``progress``: a rich
      progress bar on a terminal.
    * ``on_error``: "raise" raises :class:`FoldError` naming the fold and the original error;
      "continue" records it (``result.failed``) and goes on.
    * ``apparent``: also fit on all data and evaluate on it (resubstitution, ``result.apparent``);
      default True for :class:`~clfeval.protocols.Bootstrap` (the .632 estimators need it).

    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> cv = cross_evaluate(GaussianNB(), X, y, progress=False)
    >>> cv.response, len(cv.folds), round(cv.mean["accuracy"], 4), round(cv.pooled.report.overall["accuracy"], 4)
    ('predict_proba', 5, 0.9533, 0.9533)
    """
    prep = _prepare(X, y, protocol, groups, sample_weight, labels, pos_label, random_state)
    return _run(estimator, prep, response=response, n_jobs=n_jobs, progress=progress, on_error=on_error,
                fit_params=fit_params, apparent=apparent, return_estimators=return_estimators, name=name)


# -- results --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MetricSummary:
    """Per metric: mean and sd over folds, an interval for the mean, and the pooled value.

    ``rows``: one dict per metric {"metric", "mean", "std", "low", "high", "n_folds", "pooled"}.
    """

    rows: list[dict[str, Any]]
    level: float
    method: str
    notes: tuple[str, ...] = ()

    def __getitem__(self, metric: str) -> dict[str, Any]:
        for r in self.rows:
            if r["metric"] == metric:
                return r
        raise KeyError(f"no metric {metric!r} in this summary; it has {[r['metric'] for r in self.rows]}.")

    def __repr__(self) -> str:
        lines = [f"MetricSummary(level={self.level}, method={self.method!r})",
                 f"  {'metric':<20} {'mean':>8} {'sd':>8} {'low':>8} {'high':>8} {'pooled':>8} folds"]
        for r in self.rows:
            nums = " ".join(f"{r[k]:8.4f}" for k in ("mean", "std", "low", "high", "pooled"))
            lines.append(f"  {r['metric']:<20} {nums} {r['n_folds']}")
        return "\n".join(lines + [f"  note: {n}" for n in self.notes])

    def to_dict(self) -> dict[str, Any]:
        return {"level": self.level, "method": self.method, "rows": [dict(r) for r in self.rows],
                "notes": list(self.notes)}

    def to_frame(self) -> Any:
        """A pandas DataFrame indexed by metric."""
        return _pandas().DataFrame.from_records(self.rows).set_index("metric")


def _pandas() -> Any:
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("to_frame() needs pandas: pip install pandas") from exc
    return pd


class _ReportSet:
    """Shared by results made of several reports (folds, runs) and one pooled report."""

    _unit = "fold"

    def _reports(self) -> list[Report | None]:
        raise NotImplementedError

    def _pooled_report(self) -> Report:
        raise NotImplementedError

    _pos_row: int | None = None
    _task: str = "binary"
    _has_scores: bool = False

    def values(self, metric: str) -> np.ndarray:
        """The metric per fold / run (NaN for a failed fold or an undefined value)."""
        return np.array([np.nan if r is None else metric_value(r, metric, self._pos_row) for r in self._reports()])

    def _metrics(self, metrics: Sequence[str] | str | None) -> list[str]:
        if metrics is None:
            return default_metrics(self._task, self._has_scores)
        return [metrics] if isinstance(metrics, str) else list(metrics)

    @property
    def mean(self) -> dict[str, float]:
        """Mean over folds (runs) of each default metric; undefined values left out."""
        return {m: _mean_interval(self.values(m)[:, None], None, 0.95)["mean"].item() for m in self._metrics(None)}

    @property
    def std(self) -> dict[str, float]:
        """Sample standard deviation (ddof=1) over folds (runs) of each default metric."""
        return {m: _mean_interval(self.values(m)[:, None], None, 0.95)["std"].item() for m in self._metrics(None)}

    def mean_value(self, metric: str) -> float:
        """The metric averaged over folds / runs (macro over folds), undefined values left out."""
        return _mean_interval(self.values(metric)[:, None], None, 0.95)["mean"].item()

    def pooled_value(self, metric: str) -> float:
        """The metric of the pooled table (micro over folds / runs)."""
        return metric_value(self._pooled_report(), metric, self._pos_row)

    def _summary(self, level: float, metrics: Sequence[str] | str | None, ratio: float | None,
                 method: str, notes: list[str]) -> MetricSummary:
        names = self._metrics(metrics)
        rows = []
        for m in names:
            s = _mean_interval(self.values(m)[:, None], ratio, level)
            lowest = -1.0 if _ALIASES.get(m, m) in _SIGNED else 0.0  # intervals stay in the metric's range
            rows.append({"metric": m, "mean": s["mean"].item(), "std": s["std"].item(),
                         "low": max(s["low"].item(), lowest), "high": min(s["high"].item(), 1.0),
                         "n_folds": int(s["n"].item()), "pooled": self.pooled_value(m)})
        if rows and rows[0]["n_folds"] < 2:
            notes = [*notes, f"one {self._unit}: no spread to build an interval from (low/high are NaN); "
                     "the pooled Evaluation has intervals of its own (.ci())."]
        return MetricSummary(rows, level, method, tuple(notes))


class CrossEvaluation(_ReportSet):
    """The outcome of :func:`cross_evaluate`.

    Attributes: ``folds`` (list of :class:`Fold`), ``protocol`` and ``protocol_name``, ``response``
    (the score method used), ``labels``, ``pos_label``, ``name``, ``n_repeats``, ``failed`` (the
    failed folds), ``apparent`` (the fold fitted and evaluated on all data, when asked for),
    ``notes``. ``pooled`` is one Evaluation of every out-of-fold prediction; ``pooled_by_repeat``
    one per repetition. ``table()`` / ``to_frame()`` the per-fold metrics; ``mean`` / ``std``;
    ``summary()`` with intervals; ``mean_curve()``; ``compare()``; ``bootstrap_estimates()``.
    """

    def __init__(self, folds: list[Fold], *, protocol: Any, response: str, labels: np.ndarray, pos_label: Any,
                 y: np.ndarray, sample_weight: np.ndarray | None, n_repeats: int, name: str, notes: list[str],
                 apparent: Fold | None = None) -> None:
        self.folds = folds
        self.protocol = protocol
        self.protocol_name = _protocol_name(protocol)
        self.response = response
        self.labels = labels
        self.pos_label = pos_label
        self.name = name
        self.n_repeats = n_repeats
        self.notes = notes
        self.apparent = apparent
        self._y = y
        self._w = sample_weight
        self._task = "binary" if labels.size == 2 else "multiclass"
        self._has_scores = response != "predict"
        self._pos_row = int(np.flatnonzero(labels == pos_label)[0]) if pos_label is not None else None

    @property
    def failed(self) -> list[Fold]:
        """The folds that failed (with on_error='continue')."""
        return [f for f in self.folds if f.error is not None]

    @property
    def evaluations(self) -> list[Evaluation]:
        """The Evaluations of the folds that ran."""
        return [f.evaluation for f in self.folds if f.evaluation is not None]

    def _reports(self) -> list[Report | None]:
        return [None if f.evaluation is None else f.evaluation.report for f in self.folds]

    def _pooled_report(self) -> Report:
        return self.pooled.report

    @property
    def pooling(self) -> str:
        """How :attr:`pooled` was built, in words."""
        n = sum(f.test.size for f in self.folds if f.ok)
        return (f"every out-of-fold prediction of the {len(self.folds) - len(self.failed)} folds that ran, each test "
                f"appearance counted ({n} predictions for {self._y.size} samples); pooled_by_repeat has one per "
                f"repetition")

    def _pool(self, folds: list[Fold], label: str) -> Evaluation:
        folds = [f for f in folds if f.ok]
        test = np.concatenate([f.test for f in folds])
        score = None if not self._has_scores else np.concatenate([f.y_score for f in folds])  # type: ignore[misc]
        ev = evaluate(self._y[test], np.concatenate([f.y_pred for f in folds]), score,  # type: ignore[misc]
                      labels=self.labels, pos_label=self.pos_label if self._task == "binary" else None,
                      sample_weight=None if self._w is None else self._w[test], name=label)
        repeated = test.size - np.unique(test).size
        if repeated:
            ev._dependent_rows = (
                f"{label}: {repeated} of the {test.size} pooled predictions are of samples already counted "
                "(repeated or resampling protocol); intervals that treat them as independent cases are too "
                "narrow. Use pooled_by_repeat[r].intervals() (one repetition, each sample once) or summary() "
                "(corrected across folds).")
        return ev

    @cached_property
    def pooled(self) -> Evaluation:
        """One Evaluation of all out-of-fold predictions (micro over folds; see :attr:`pooling`).

        Scores of different folds come from different models: the pooled ROC AUC mixes their
        scales and can differ from the mean of fold AUCs.
        """
        return self._pool(self.folds, f"{self.name} (pooled)")

    @cached_property
    def pooled_by_repeat(self) -> list[Evaluation]:
        """One pooled Evaluation per repetition (for repeated k-fold: each sample once in each)."""
        return [self._pool([f for f in self.folds if f.repeat == r], f"{self.name} (repeat {r})")
                for r in range(self.n_repeats) if any(f.ok and f.repeat == r for f in self.folds)]

    def table(self, metrics: Sequence[str] | str | None = None) -> dict[str, list[Any]]:
        """Per-fold numbers: fold, repeat, sizes, times, then each metric (default: :func:`default_metrics`)."""
        out: dict[str, list[Any]] = {
            "fold": [f.index for f in self.folds],
            "repeat": [f.repeat for f in self.folds],
            "n_train": [int(f.train.size) for f in self.folds],
            "n_test": [int(f.test.size) for f in self.folds],
            "fit_time": [f.fit_time for f in self.folds],
            "predict_time": [f.predict_time for f in self.folds],
            "evaluation_time": [f.evaluation_time for f in self.folds],
        }
        for m in self._metrics(metrics):
            out[m] = self.values(m).tolist()
        if self.failed:
            out["error"] = [f.error for f in self.folds]
        return out

    def to_frame(self, metrics: Sequence[str] | str | None = None) -> Any:
        """:meth:`table` as a pandas DataFrame indexed by fold."""
        return _pandas().DataFrame(self.table(metrics)).set_index("fold")

    @property
    def test_train_ratio(self) -> float:
        """Mean test size over mean training size (n_test / n_train of the Nadeau-Bengio correction)."""
        ok = [f for f in self.folds if f.ok]
        return float(np.mean([f.test.size for f in ok]) / np.mean([f.train.size for f in ok]))

    def summary(self, level: float = 0.95, metrics: Sequence[str] | str | None = None, *,
                method: str = "corrected") -> MetricSummary:
        """Mean, sd and an interval for the mean across folds, plus the pooled value, per metric.

        Fold results are correlated (training sets overlap), so the default ``method="corrected"``
        uses Nadeau and Bengio's variance ``(1/J + n_test/n_train) s^2`` with a t interval on J - 1
        df (the interval of :func:`clfeval.stats.corrected_resampled_ttest`; for r x k-fold CV,
        n_test/n_train = 1/(k-1), Bouckaert & Frank's correction). ``method="t"``: the naive
        ``s^2/J`` (too narrow; for comparison only). Bounds are clipped to the metric's range
        ([0, 1]; [-1, 1] for MCC and kappa); a metric undefined in a fold leaves that fold out.
        """
        from .stats._result import check_level

        level = check_level(level)
        if method not in _INTERVAL_METHODS:
            raise ValueError(f"method must be one of {list(_INTERVAL_METHODS)}, got {method!r}.")
        ratio = self.test_train_ratio if method == "corrected" else None
        return self._summary(level, metrics, ratio, _INTERVAL_METHODS[method], list(self.notes))

    @property
    def times(self) -> dict[str, float]:
        """Total seconds spent fitting, predicting and evaluating, over all folds."""
        return {k: float(sum(getattr(f, k) for f in self.folds)) for k in ("fit_time", "predict_time", "evaluation_time")}

    def mean_curve(self, kind: str = "roc", curve: str | None = None, *, grid: Any = None,
                   band: str = "corrected", level: float = 0.95) -> MeanCurve:
        """The fold curves averaged vertically, with a pointwise band (see :func:`mean_curve`);
        ``band="corrected"`` uses the same corrected t interval as :meth:`summary`."""
        return mean_curve(self.evaluations, kind, curve=curve, grid=grid, band=band, level=level,
                          test_train_ratio=self.test_train_ratio)

    def compare(self, other: CrossEvaluation, metric: str = "accuracy", *, test: str = "auto",
                alternative: str = "two-sided") -> Comparison:
        """Test whether this model (A) and ``other`` (B) differ in ``metric`` over the same splits.

        ``test="auto"``: Dietterich's 5x2cv paired t test for five repetitions of 2-fold CV; the
        Bouckaert-Frank corrected repeated k-fold t test when every repetition partitions the data
        (k-fold, repeated k-fold, leave-one-out); else the Nadeau-Bengio corrected resampled t test
        (hold-out repeats, bootstrap). Also "5x2cv_t", "5x2cv_f" (Alpaydin's combined F),
        "corrected_kfold", "corrected_resampled", "uncorrected". Refuses results from different
        splits or with failed folds.
        """
        _check_same_splits(self, other)
        a, b = self.values(metric), other.values(metric)
        return _compare_scores(a, b, self.folds, self._y.size, self.n_repeats, metric, test, alternative,
                               (self.name, other.name))

    def bootstrap_estimates(self, metric: str = "error_rate") -> BootstrapEstimate:
        """The leave-one-out bootstrap, .632 and .632+ estimates (Efron & Tibshirani 1997) of ``metric``.

        Needs out-of-bag folds (a :class:`~clfeval.protocols.Bootstrap` protocol) and the fit on all
        data (``apparent``, made by default for Bootstrap). See :func:`efron_tibshirani`.
        """
        return _bootstrap_estimates(self, metric)

    def __repr__(self) -> str:
        ok = len(self.folds) - len(self.failed)
        bits = [f"name={self.name!r}", f"protocol={self.protocol_name!r}", f"folds={ok}/{len(self.folds)}",
                f"response={self.response!r}"]
        means = self.mean
        bits.append(f"accuracy={means['accuracy']:.4f}±{self.std['accuracy']:.4f}")
        if "roc_auc" in means:
            bits.append(f"roc_auc={means['roc_auc']:.4f}")
        return f"CrossEvaluation({', '.join(bits)})"

    def to_dict(self, level: float = 0.95) -> dict[str, Any]:
        """Plain Python: settings, per-fold table, summary, pooled report, times, failures, indices."""
        return {
            "name": self.name,
            "protocol": self.protocol_name,
            "protocol_repr": repr(self.protocol),
            "response": self.response,
            "labels": self.labels.tolist(),
            "pos_label": None if self.pos_label is None else np.asarray(self.pos_label).tolist(),
            "n_folds": len(self.folds),
            "n_repeats": self.n_repeats,
            "failed": [{"fold": f.index, "repeat": f.repeat, "stage": f.stage, "error": f.error} for f in self.failed],
            "pooling": self.pooling,
            "table": self.table(),
            "summary": self.summary(level).to_dict(),
            "pooled": self.pooled.report.to_dict(),
            "times": self.times,
            "splits": [{"train": f.train.tolist(), "test": f.test.tolist()} for f in self.folds],
            "notes": list(self.notes),
        }


# -- aggregation of confusion tables --------------------------------------------------------------


class ConfusionAggregate(_ReportSet):
    """Confusion tables of several data sets or runs, aggregated two ways.

    ``pooled_value(metric)``: the metric of the summed table (micro over runs); ``mean_value(metric)``: the
    mean of the per-run metric (macro over runs); ``values(metric)`` per run; ``summary()``.
    ``reports``: one report per run; ``pooled_report``.
    """

    _unit = "run"

    def __init__(self, tables: np.ndarray, labels: np.ndarray, names: list[str] | None, pos_label: Any) -> None:
        self.tables = tables
        self.labels = labels
        self.names = names if names is not None else [str(v) for v in labels.tolist()]
        self.reports = [build_report(ConfusionMatrix.from_matrix(labels, t, self.names)) for t in tables]
        self.pooled_report = build_report(ConfusionMatrix.from_matrix(labels, tables.sum(axis=0), self.names))
        self._task = "binary" if labels.size == 2 else "multiclass"
        self._pos_row = None if pos_label is None else int(np.flatnonzero(labels == pos_label)[0])

    def _reports(self) -> list[Report | None]:
        return list(self.reports)

    def _pooled_report(self) -> Report:
        return self.pooled_report

    def summary(self, level: float = 0.95, metrics: Sequence[str] | str | None = None) -> MetricSummary:
        """Mean, sd, t interval of the mean over runs (runs taken as independent) and pooled value."""
        from .stats._result import check_level

        return self._summary(check_level(level), metrics, None, _INTERVAL_METHODS["independent"], [])

    def __repr__(self) -> str:
        return (f"ConfusionAggregate(runs={len(self.reports)}, labels={self.labels.tolist()}, "
                f"pooled_accuracy={self.pooled_value('accuracy'):.4f}, mean_accuracy={self.mean_value('accuracy'):.4f})")

    def to_dict(self) -> dict[str, Any]:
        return {"labels": self.labels.tolist(), "tables": self.tables.tolist(),
                "pooled": self.pooled_report.to_dict(), "summary": self.summary().to_dict()}


def aggregate_confusions(tables: Sequence[Any], *, labels: Any = None, names: list[str] | None = None,
                         pos_label: Any = None) -> ConfusionAggregate:
    """Aggregate confusion tables (or Evaluations) from several data sets or runs.

    ``tables``: (k, k) count tables (rows true, columns predicted) or Evaluations with the same
    labels. ``labels`` default: those of the Evaluations, else 0..k-1. ``pos_label``: positive class
    for per-class names of a binary task (default: the second label).

    >>> agg = aggregate_confusions([[[5, 0], [1, 4]], [[3, 2], [0, 5]]])
    >>> agg.values("recall").tolist(), agg.pooled_value("recall")
    ([0.8, 1.0], 0.9)
    """
    if len(tables) == 0:
        raise ValueError("aggregate_confusions needs at least one table.")
    found_labels = None
    arrays = []
    for i, t in enumerate(tables):
        if isinstance(t, Evaluation):
            if t.confusion.counts is None:
                raise ValueError(f"tables[{i}] is a multilabel Evaluation; aggregate_confusions takes (k, k) tables.")
            if found_labels is not None and not np.array_equal(found_labels, t.labels):
                raise ValueError(f"tables[{i}] has labels {t.labels.tolist()}, tables[0] {found_labels.tolist()}; "
                                 "evaluate every run with the same labels=.")
            found_labels = t.labels
            names = names or t.names
            t = t.confusion.counts
        arr = np.asarray(t)
        if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.dtype.kind not in "biuf":
            raise ValueError(f"tables[{i}] must be a square (k, k) table of counts, got shape {arr.shape}.")
        arrays.append(arr)
    if len({a.shape for a in arrays}) > 1:
        raise ValueError(f"the tables differ in shape: {[a.shape for a in arrays]}; they need the same classes.")
    stacked = np.stack(arrays)
    if (stacked < 0).any():
        raise ValueError("confusion tables hold counts or weights, which cannot be negative.")
    k = stacked.shape[1]
    lab = np.asarray(labels).reshape(-1) if labels is not None else (found_labels if found_labels is not None else np.arange(k))
    if lab.size != k:
        raise ValueError(f"labels has {lab.size} entries for {k} x {k} tables.")
    if k == 2 and pos_label is None:
        pos_label = lab[1]
    return ConfusionAggregate(stacked, lab, names, pos_label)


# -- mean curves ----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MeanCurve:
    """Curves averaged vertically over folds with a pointwise band; plain numpy data to draw.

    ``x``: the grid (FPR for ROC, recall for PR); ``mean``, ``low``, ``high``, ``std``: the
    averaged y (TPR / precision), its band and the sd across folds at each grid point;
    ``curves``: (n_curves, len(x)) the interpolated fold curves; ``areas``: each fold's exact area
    (ROC AUC / AP); ``band``: how the band was made.
    """

    kind: str
    curve: str
    x: np.ndarray
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    std: np.ndarray
    curves: np.ndarray
    areas: np.ndarray
    band: str
    level: float

    @property
    def area_mean(self) -> float:
        return float(np.mean(self.areas))

    @property
    def area_std(self) -> float:
        return float(np.std(self.areas, ddof=1)) if self.areas.size > 1 else math.nan

    def __repr__(self) -> str:
        area = "AUC" if self.kind == "roc" else "AP"
        return (f"MeanCurve(kind={self.kind!r}, curve={self.curve!r}, n_curves={self.curves.shape[0]}, "
                f"points={self.x.size}, mean {area}={self.area_mean:.4f}±{self.area_std:.4f}, band={self.band!r})")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "curve": self.curve, "x": self.x.tolist(), "mean": self.mean.tolist(),
                "low": self.low.tolist(), "high": self.high.tolist(), "std": self.std.tolist(),
                "areas": self.areas.tolist(), "band": self.band, "level": self.level}


def _roc_at(fpr: np.ndarray, tpr: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """TPR of a ROC curve at each FPR of ``grid``: linear between thresholds; at an FPR where the
    curve rises vertically (ties, or the first point), the top of the rise."""
    xs, first = np.unique(fpr, return_index=True)
    last = np.r_[first[1:], fpr.size] - 1  # points are in increasing-FPR order
    top, bottom = tpr[last], tpr[first]
    j = np.clip(np.searchsorted(xs, grid, side="right") - 1, 0, xs.size - 1)
    nxt = np.minimum(j + 1, xs.size - 1)
    span = xs[nxt] - xs[j]
    with np.errstate(invalid="ignore", divide="ignore"):
        frac = np.where(span > 0, (grid - xs[j]) / np.where(span > 0, span, 1.0), 0.0)
    return top[j] + frac * (bottom[nxt] - top[j])


def _pr_at(recall: np.ndarray, precision: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Precision of a PR curve at each recall of ``grid`` by the step rule average precision
    integrates: the precision of the first threshold (from the top) whose recall reaches r, so the
    curve is flat on each (R_{n-1}, R_n]; at r = 0, its right limit."""
    real = recall > 0
    r, p = recall[real], precision[real]  # decreasing-threshold order: recall non-decreasing
    idx = np.clip(np.searchsorted(r, np.maximum(grid, np.finfo(float).tiny), side="left"), 0, r.size - 1)
    return p[idx]


def _grid(grid: Any) -> np.ndarray:
    g = np.linspace(0.0, 1.0, 101) if grid is None else np.asarray(grid, dtype=np.float64).reshape(-1)
    if g.size == 0 or not np.all(np.isfinite(g)) or g.min() < 0 or g.max() > 1 or np.any(np.diff(g) <= 0):
        raise ValueError("grid must be increasing values in [0, 1].")
    return g


def mean_curve(evaluations: Sequence[Evaluation], kind: str = "roc", *, curve: str | None = None, grid: Any = None,
               band: str = "sd", level: float = 0.95, test_train_ratio: float | None = None) -> MeanCurve:
    """Vertical average of ROC (TPR at fixed FPR) or PR (precision at fixed recall) curves.

    ``curve``: which curve of each Evaluation (a class name, "micro" or "macro"; default the main
    one). ``grid``: x values (default 101 points on [0, 1]). ROC points are joined linearly
    between thresholds; PR curves are read as the step function average precision integrates
    (precision of the first threshold reaching recall r) - linear interpolation would overstate
    PR curves. ``band``: "sd" (mean ± 1 sd across folds), "t" (t interval of the mean, naive),
    "corrected" (t interval with the Nadeau-Bengio variance; needs ``test_train_ratio``) or
    "percentile" (the central ``level`` range of the fold curves). Bands are clipped to [0, 1].
    Folds whose curve is undefined (no positives or negatives) are skipped.

    >>> a = evaluate([0, 0, 1, 1], y_score=[0.1, 0.6, 0.4, 0.9])
    >>> b = evaluate([0, 0, 1, 1], y_score=[0.1, 0.2, 0.8, 0.9])
    >>> m = mean_curve([a, b], "roc", grid=[0.0, 0.5, 1.0])
    >>> m.mean.tolist(), m.area_mean
    ([0.75, 1.0, 1.0], 0.875)
    """
    if kind not in ("roc", "pr"):
        raise ValueError(f"kind must be 'roc' or 'pr', got {kind!r}.")
    bands = ("sd", "t", "corrected", "percentile")
    if band not in bands:
        raise ValueError(f"band must be one of {bands}, got {band!r}.")
    if band == "corrected" and test_train_ratio is None:
        raise ValueError("band='corrected' needs test_train_ratio (n_test / n_train of the splits).")
    evaluations = list(evaluations)
    if not evaluations:
        raise ValueError("mean_curve needs at least one Evaluation.")
    g = _grid(grid)
    rows, areas = [], []
    for i, ev in enumerate(evaluations):
        sets = ev.roc if kind == "roc" else ev.pr
        if sets is None:
            raise ValueError(f"evaluation {i} has no scores, so no curves; evaluate with y_score.")
        c = sets.main if curve is None else sets[curve]
        if not np.isfinite(c.area):
            continue
        rows.append(_roc_at(c.x, c.y, g) if kind == "roc" else _pr_at(c.x, c.y, g))
        areas.append(c.area)
    if not rows:
        raise ValueError("every curve is undefined (a class with no positives or no negatives in each fold).")
    name = curve if curve is not None else (evaluations[0].roc.main_name if kind == "roc" else evaluations[0].pr.main_name)  # type: ignore[union-attr]
    ys = np.vstack(rows)
    stats = _mean_interval(ys, test_train_ratio if band == "corrected" else None, level)
    if band == "sd":
        low, high = stats["mean"] - stats["std"], stats["mean"] + stats["std"]
        what = "mean ± 1 sd across folds"
    elif band == "percentile":
        low, high = np.percentile(ys, [50 * (1 - level), 50 * (1 + level)], axis=0)
        what = f"central {level:.0%} of the fold curves"
    else:
        low, high = stats["low"], stats["high"]
        what = _INTERVAL_METHODS["corrected" if band == "corrected" else "t"]
    return MeanCurve(kind, str(name), g, stats["mean"], np.clip(low, 0, 1), np.clip(high, 0, 1),
                     stats["std"], ys, np.asarray(areas), what, level)


# -- comparison -----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Comparison:
    """Two models' per-fold scores on the same splits and the test of their difference (A - B).

    ``statistic``, ``pvalue`` and ``confidence_interval(level)`` come from ``test`` (a
    :class:`~clfeval.stats.TestResult`); ``a`` and ``b`` hold the CrossEvaluations when
    :func:`compare` made them.
    """

    metric: str
    names: tuple[str, str]
    scores_a: np.ndarray
    scores_b: np.ndarray
    test: Any
    a: CrossEvaluation | None = field(default=None, repr=False)
    b: CrossEvaluation | None = field(default=None, repr=False)

    @property
    def statistic(self) -> float:
        return self.test.statistic

    @property
    def pvalue(self) -> float:
        return self.test.pvalue

    def confidence_interval(self, level: float = 0.95) -> Any:
        return self.test.confidence_interval(level)

    def __repr__(self) -> str:
        return (f"Comparison({self.names[0]!r} vs {self.names[1]!r} on {self.metric!r}: "
                f"mean {np.mean(self.scores_a):.4f} vs {np.mean(self.scores_b):.4f}, "
                f"statistic={self.statistic:.4f}, pvalue={self.pvalue:.4g}, method={self.test.method!r})")

    def to_dict(self, level: float = 0.95) -> dict[str, Any]:
        return {"metric": self.metric, "names": list(self.names), "scores_a": self.scores_a.tolist(),
                "scores_b": self.scores_b.tolist(), "test": self.test.to_dict(level)}


def _check_same_splits(a: CrossEvaluation, b: CrossEvaluation) -> None:
    if not isinstance(b, CrossEvaluation):
        raise TypeError(f"compare needs another CrossEvaluation, got {type(b).__name__}.")
    if len(a.folds) != len(b.folds) or a._y.size != b._y.size:
        raise ValueError(f"the two results come from different splits ({len(a.folds)} vs {len(b.folds)} folds); "
                         "run both on the same protocol and random_state, or use clfeval.cross_evaluation.compare().")
    for fa, fb in zip(a.folds, b.folds):
        if not (np.array_equal(fa.train, fb.train) and np.array_equal(fa.test, fb.test)):
            raise ValueError(f"fold {fa.index} differs between the two results (other train/test indices); a paired "
                             "test needs identical splits: use the same protocol and random_state, or compare().")
    for r in (a, b):
        if r.failed:
            raise ValueError(f"{r.name!r} has failed folds {[f.index for f in r.failed]}; the paired tests need "
                             "every fold.")


def _layout(folds: list[Fold], n: int, n_repeats: int) -> tuple[str, int, int]:
    """("5x2", 5, 2), ("kfold", r, k) when each repetition's tests partition the n samples, else
    ("resampled", J, 1)."""
    j = len(folds)
    k = j // n_repeats
    for r in range(n_repeats):
        tests = np.concatenate([f.test for f in folds[r * k:(r + 1) * k]])
        if tests.size != n or np.unique(tests).size != n:
            return "resampled", j, 1
    return ("5x2" if (n_repeats, k) == (5, 2) else "kfold"), n_repeats, k


def _compare_scores(a: np.ndarray, b: np.ndarray, folds: list[Fold], n: int, n_repeats: int, metric: str,
                    test: str, alternative: str, names: tuple[str, str]) -> Comparison:
    from . import stats

    layout, r, k = _layout(folds, n, n_repeats)
    tests = ("auto", "5x2cv_t", "5x2cv_f", "corrected_kfold", "corrected_resampled", "uncorrected")
    if test not in tests:
        raise ValueError(f"test must be one of {tests}, got {test!r}.")
    if test == "auto":
        test = {"5x2": "5x2cv_t", "kfold": "corrected_kfold"}.get(layout, "corrected_resampled")
    if test.startswith("5x2cv") and layout != "5x2":
        raise ValueError(f"test={test!r} needs five repetitions of 2-fold CV (protocols.FiveByTwo); these splits "
                         "are not.")
    if test == "corrected_kfold" and layout == "resampled":
        raise ValueError("test='corrected_kfold' needs repetitions that each partition the data (k-fold); use "
                         "'corrected_resampled'.")
    if test == "5x2cv_t":
        result = stats.paired_ttest_5x2cv(a.reshape(5, 2), b.reshape(5, 2), alternative=alternative)
    elif test == "5x2cv_f":
        result = stats.combined_ftest_5x2cv(a.reshape(5, 2), b.reshape(5, 2))
    elif test == "corrected_kfold":
        result = stats.corrected_repeated_kfold_ttest(a.reshape(r, k), b.reshape(r, k), n_repeats=r, n_folds=k,
                                                      alternative=alternative)
    elif test == "corrected_resampled":
        n_train = int(round(np.mean([f.train.size for f in folds])))
        n_test = int(round(np.mean([f.test.size for f in folds])))
        result = stats.corrected_resampled_ttest(a, b, n_train=n_train, n_test=n_test, alternative=alternative)
    else:
        result = stats.uncorrected_resampled_ttest(a, b, alternative=alternative)
    return Comparison(metric, names, a, b, result)


def compare(estimator_a: Any, estimator_b: Any, X: Any, y: Any, protocol: Any = None, *, metric: str = "accuracy",
            test: str = "auto", alternative: str = "two-sided", groups: Any = None, sample_weight: Any = None,
            labels: Any = None, pos_label: Any = None, random_state: Any = None, names: tuple[str, str] | None = None,
            **kwargs: Any) -> Comparison:
    """Cross-evaluate two estimators on identical splits (drawn once) and test their difference.

    ``metric``: any report number (see :data:`METRICS`); ``test``: see
    :meth:`CrossEvaluation.compare`. Other keyword arguments go to :func:`cross_evaluate`
    (``response``, ``n_jobs``, ``progress``, ``on_error``, ``fit_params``). The result keeps both
    CrossEvaluations (``.a``, ``.b``).

    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from clfeval.protocols import FiveByTwo
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> c = compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y, FiveByTwo(random_state=0),
    ...             progress=False)
    >>> c.test.method, c.scores_a.shape
    ("Dietterich's 5x2cv paired t test", (10,))
    """
    prep = _prepare(X, y, protocol, groups, sample_weight, labels, pos_label, random_state)
    names = names or (type(estimator_a).__name__, type(estimator_b).__name__)
    if names[0] == names[1]:
        names = (f"{names[0]} (A)", f"{names[1]} (B)")
    options = {"response": "auto", "n_jobs": None, "progress": True, "on_error": "raise", "fit_params": None,
               "apparent": False, "return_estimators": False, **kwargs}
    res_a = _run(estimator_a, prep, name=names[0], **options)
    res_b = _run(estimator_b, prep, name=names[1], **options)
    out = res_a.compare(res_b, metric, test=test, alternative=alternative)
    object.__setattr__(out, "a", res_a)
    object.__setattr__(out, "b", res_b)
    return out


# -- bootstrap estimators (Efron & Tibshirani 1997) -----------------------------------------------


@dataclass(frozen=True)
class BootstrapEstimate:
    """Bootstrap estimates of a metric's generalisation value (Efron & Tibshirani 1997).

    * ``apparent``: the resubstitution value (fit on all data, evaluated on the same data) - "err";
    * ``loo_bootstrap``: the leave-one-out bootstrap Err^(1): each sample's loss averaged over
      the bags that left it out, then averaged over samples (for other metrics: the metric of the
      pooled out-of-bag table where each sample carries total weight 1);
    * ``oob_mean``: the plain mean of the per-bag out-of-bag values (a different number);
    * ``no_information``: gamma, the value if predictions were independent of the truth:
      sum_k p_k (1 - q_k) for the error rate (p: observed class shares, q: predicted shares of the
      full-data fit); in general the metric of the table n p_k q_l;
    * ``relative_overfitting``: R'; ``weight``: w = .632 / (1 - .368 R');
    * ``estimate_632`` = .368 apparent + .632 Err^(1); ``estimate_632_plus`` = (1 - w) apparent + w Err^(1)'.
    """

    metric: str
    apparent: float
    loo_bootstrap: float
    oob_mean: float
    no_information: float
    relative_overfitting: float
    weight: float
    estimate_632: float
    estimate_632_plus: float
    n_bootstraps: int
    n_never_out: int = 0

    def __repr__(self) -> str:
        return (f"BootstrapEstimate(metric={self.metric!r}, .632+={self.estimate_632_plus:.4f}, "
                f".632={self.estimate_632:.4f}, loo_bootstrap={self.loo_bootstrap:.4f}, "
                f"oob_mean={self.oob_mean:.4f}, apparent={self.apparent:.4f}, no_information={self.no_information:.4f}, "
                f"R'={self.relative_overfitting:.4f}, n_bootstraps={self.n_bootstraps})")

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def efron_tibshirani(apparent: float, loo_bootstrap: float, no_information: float, *,
                     higher_is_better: bool = False) -> dict[str, float]:
    """The .632 and .632+ estimates from their three ingredients (Efron & Tibshirani 1997, sec. 3).

    For a loss (error rate): err = ``apparent``, Err1 = ``loo_bootstrap``, gamma =
    ``no_information``; Err.632 = .368 err + .632 Err1 (eq. 24); Err1' = min(Err1, gamma);
    R' = (Err1' - err) / (gamma - err) when Err1 > err and gamma > err, else 0 (eqs. 28, 31: so
    0 <= R' <= 1); w = .632 / (1 - .368 R'); Err.632+ = (1 - w) err + w Err1' (eq. 29/32; equal to
    the paper's Err.632 + (Err1' - err) .368 .632 R' / (1 - .368 R') whenever Err1 <= gamma, and
    gamma itself when Err1 > gamma). ``higher_is_better`` (accuracy, F1, ...): the same on the
    negated values.

    >>> r = efron_tibshirani(0.0, 0.3, 0.5)
    >>> round(r["estimate_632"], 4), round(r["relative_overfitting"], 4), round(r["estimate_632_plus"], 4)
    (0.1896, 0.6, 0.2433)
    """
    sign = -1.0 if higher_is_better else 1.0
    err, err1, gamma = sign * apparent, sign * loo_bootstrap, sign * no_information
    e632 = 0.368 * err + 0.632 * err1
    err1p = min(err1, gamma)
    r = (err1p - err) / (gamma - err) if err1 > err and gamma > err else 0.0
    w = 0.632 / (1.0 - 0.368 * r)
    return {"estimate_632": sign * e632, "estimate_632_plus": sign * ((1.0 - w) * err + w * err1p),
            "relative_overfitting": r, "weight": w}


def _bootstrap_estimates(cv: CrossEvaluation, metric: str) -> BootstrapEstimate:
    if cv.apparent is None or cv.apparent.evaluation is None:
        raise ValueError("the .632 estimators need the fit on all data: run cross_evaluate with a Bootstrap protocol "
                         "(or apparent=True).")
    folds = [f for f in cv.folds if f.ok]
    n = cv._y.size
    for f in folds:
        drawn = np.zeros(n, dtype=bool)
        drawn[f.train] = True
        if not np.array_equal(np.flatnonzero(~drawn), np.sort(f.test)) or np.unique(f.train).size == f.train.size:
            raise ValueError(f"fold {f.index} is not a bootstrap bag tested out of bag (drawn with replacement, "
                             "tested on the rows never drawn); the .632 estimators need protocols.Bootstrap.")
    pos_row = cv._pos_row
    apparent = metric_value(cv.apparent.evaluation.report, metric, pos_row)
    # leave-one-out bootstrap: each out-of-bag appearance of sample i weighted 1 / (its number of appearances)
    test = np.concatenate([f.test for f in folds])
    times_out = np.bincount(test, minlength=n)
    base = np.ones(n) if cv._w is None else cv._w.astype(np.float64)
    weight = base[test] / times_out[test]
    pooled = evaluate(cv._y[test], np.concatenate([f.y_pred for f in folds]), labels=cv.labels,  # type: ignore[misc]
                      pos_label=cv.pos_label, sample_weight=weight)
    loo = metric_value(pooled.report, metric, pos_row)
    # no-information table: truth and prediction independent, with the observed and predicted shares
    y_codes = encode(cv._y, cv.labels)
    p_codes = encode(np.asarray(cv.apparent.y_pred), cv.labels)
    k = cv.labels.size
    p = np.bincount(y_codes, weights=base, minlength=k)
    q = np.bincount(p_codes, weights=base, minlength=k)
    table = np.outer(p, q) / base.sum()
    gamma = metric_value(build_report(ConfusionMatrix.from_matrix(cv.labels, table)), metric, pos_row)
    parts = efron_tibshirani(apparent, loo, gamma, higher_is_better=_higher_is_better(metric))
    return BootstrapEstimate(metric=metric, apparent=apparent, loo_bootstrap=loo,
                             oob_mean=cv.mean_value(metric), no_information=gamma, n_bootstraps=len(folds),
                             n_never_out=int(np.sum(times_out == 0)), **parts)


def bootstrap_632(estimator: Any, X: Any, y: Any, *, n_bootstraps: int = 200, metric: str = "error_rate",
                  stratify: bool = False, random_state: Any = None, **kwargs: Any) -> BootstrapEstimate:
    """The .632 / .632+ bootstrap estimates of ``metric`` for ``estimator`` on (X, y).

    Runs :func:`cross_evaluate` with :class:`~clfeval.protocols.Bootstrap` (out-of-bag tests) plus
    one fit on all data; other keyword arguments go to :func:`cross_evaluate`. For the folds
    themselves, call ``cross_evaluate(..., protocol=Bootstrap(...))`` and ``.bootstrap_estimates()``.

    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> b = bootstrap_632(DecisionTreeClassifier(random_state=0), X, y, n_bootstraps=20, random_state=0, progress=False)
    >>> b.apparent, b.relative_overfitting > 0, b.estimate_632 < b.estimate_632_plus
    (0.0, True, True)
    """
    cv = cross_evaluate(estimator, X, y, Bootstrap(n_bootstraps, stratify=stratify, random_state=random_state),
                        apparent=True, **kwargs)
    return cv.bootstrap_estimates(metric)

