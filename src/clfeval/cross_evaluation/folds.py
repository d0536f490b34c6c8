"""One split of a cross-evaluation: fit a clone of the estimator on the training rows, predict the
test rows, evaluate (:func:`run_fold`, run in the joblib workers), and the record of its outcome
(:class:`Fold`; :class:`FoldError` when a failure is raised).

>>> import numpy as np
>>> f = Fold(0, 0, np.arange(8), np.arange(8, 10), None, 0.0, 0.0, 0.0, error="ValueError: no classes")
>>> f, f.ok
(Fold(index=0, repeat=0, n_train=8, n_test=2, error='ValueError: no classes'), False)
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.evaluation import Evaluation, evaluate
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.inputs.labels import encode
from clfeval.protocols import n_samples_of

__all__ = ["FoldError", "Fold", "FoldSpec", "run_fold", "exception_of"]


class FoldError(RuntimeError):
    """A fold failed (fit, predict or evaluation); ``__cause__`` is the original exception.

    Parameters
    ----------
    message : str
        What failed and why, for the exception's text.
    fold : int
        Index of the failed fold in the protocol's order (-1 for the fit on all data).
    repeat : int
        The repetition the fold belongs to (-1 for the fit on all data).
    n_train : int
        Number of training rows of the fold.
    n_test : int
        Number of test rows of the fold.
    stage : str
        Where it failed: "fit", "predict" or "evaluate".

    Examples
    --------
    >>> err = FoldError("fold 2 failed in fit", fold=2, repeat=0, n_train=80, n_test=20, stage="fit")
    >>> str(err), err.fold, err.stage, isinstance(err, RuntimeError)
    ('fold 2 failed in fit', 2, 'fit', True)
    """

    def __init__(self, message: str, *, fold: int, repeat: int, n_train: int, n_test: int, stage: str) -> None:
        super().__init__(message)
        self.fold, self.repeat, self.n_train, self.n_test, self.stage = fold, repeat, n_train, n_test, stage


@dataclass(frozen=True, eq=False)
class Fold:
    """One split's outcome: indices, the fitted model's Evaluation on the test part, times, error.

    ``index``: position in the protocol's order (0-based); ``repeat``: which repetition it belongs
    to. ``fit_time`` / ``predict_time`` (predict plus the score method) / ``evaluation_time``
    (clfeval's work) in seconds. A failed fold has ``evaluation=None`` and ``error`` set.

    Parameters
    ----------
    index : int
        Position of the split in the protocol's order, from 0 (-1 for the fit on all data).
    repeat : int
        The repetition the split belongs to (-1 for the fit on all data).
    train : numpy.ndarray
        Row indices the model was fitted on (a bootstrap bag repeats rows).
    test : numpy.ndarray
        Row indices it was evaluated on.
    evaluation : Evaluation or None
        The model's evaluation on the test rows; None when the fold failed.
    fit_time : float
        Seconds spent fitting.
    predict_time : float
        Seconds spent in ``predict`` and the score method.
    evaluation_time : float
        Seconds spent evaluating.
    error : str, default=None
        "ExceptionType: message" of a failure; None when the fold ran.
    stage : str, default=None
        Where a failure happened: "fit", "predict" or "evaluate"; None when the fold ran.
    y_pred : numpy.ndarray, default=None
        The predictions for the test rows.
    y_score : numpy.ndarray, default=None
        The scores for the test rows, one column per label (1-D for the positive class of a
        binary task); None without a score method.
    estimator : object, default=None
        The fitted model, kept only when asked for (``return_estimators=True``).

    Examples
    --------
    >>> import numpy as np
    >>> f = Fold(0, 0, np.arange(8), np.arange(8, 10), None, 0.0, 0.0, 0.0, error="ValueError: no classes")
    >>> f, f.ok
    (Fold(index=0, repeat=0, n_train=8, n_test=2, error='ValueError: no classes'), False)
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
class FoldSpec:
    """What :func:`run_fold` needs besides the data: the fold's position, the score method
    (``response``), the labels and positive class, and whether to keep the fitted model.

    >>> import numpy as np
    >>> FoldSpec(3, 1, "predict_proba", np.array([0, 1]), 1, keep_estimator=False).repeat
    1
    """

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


def _scores_in_label_order(est: Any, raw: np.ndarray, spec: FoldSpec) -> np.ndarray:
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


def run_fold(estimator: Any, X: Any, y: np.ndarray, w: np.ndarray | None, fit_params: dict[str, Any],
             train: np.ndarray, test: np.ndarray, spec: FoldSpec) -> tuple[Fold, list[str]]:
    """Fit a clone on ``train``, predict ``test``, evaluate. Never raises: errors are returned.

    Returns the :class:`Fold` and the messages of the undefined-metric warnings its evaluation
    raised; a failed fold carries the exception (see :func:`exception_of`).

    >>> import numpy as np
    >>> from sklearn.naive_bayes import GaussianNB
    >>> X, y = np.array([[0.0], [0.1], [0.2], [1.0], [1.1], [1.2]]), np.array([0, 0, 0, 1, 1, 1])
    >>> spec = FoldSpec(0, 0, "predict", np.array([0, 1]), 1, keep_estimator=False)
    >>> fold, undefined = run_fold(GaussianNB(), X, y, None, {}, np.array([0, 1, 3, 4]), np.array([2, 5]), spec)
    >>> fold.ok, fold.evaluation.report.overall["accuracy"], fold.y_pred.tolist(), undefined
    (True, 1.0, [0, 1], [])
    """
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


def exception_of(fold: Fold) -> BaseException | None:
    """The exception a failed fold caught (None for a fold that ran), to chain to :class:`FoldError`.

    >>> import numpy as np
    >>> X, y = np.zeros((4, 1)), np.array([0, 1, 0, 1])
    >>> spec = FoldSpec(0, 0, "predict", np.array([0, 1]), 1, keep_estimator=False)
    >>> bad, _ = run_fold("not an estimator", X, y, None, {}, np.array([0, 1]), np.array([2, 3]), spec)
    >>> bad.ok, bad.stage, type(exception_of(bad)).__name__
    (False, 'fit', 'TypeError')
    """
    return getattr(fold, "_exception", None)
