"""Running estimators over the splits of a protocol: :func:`cross_evaluate` (each split's fold
run with joblib, failures raised or recorded, a progress bar on a terminal), :func:`compare` (two
estimators on identical splits, drawn once) and :func:`bootstrap_632` (a bootstrap protocol plus
one fit on all data).

scikit-learn and joblib are imported only when an estimator is run.

>>> from sklearn.datasets import load_iris
>>> from sklearn.naive_bayes import GaussianNB
>>> X, y = load_iris(return_X_y=True)
>>> cv = cross_evaluate(GaussianNB(), X, y, 3, progress=False)
>>> len(cv.folds), cv.failed
(3, [])
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from clfeval.exceptions import UndefinedMetricWarning
from clfeval.protocols import EXTRA, Bootstrap
from clfeval.cross_evaluation.bootstrap_estimators import BootstrapEstimate
from clfeval.cross_evaluation.comparison import Comparison
from clfeval.cross_evaluation.folds import Fold, FoldError, FoldSpec, exception_of, run_fold
from clfeval.cross_evaluation.inputs import (
    Prepared, check_estimator, check_fit_weight, estimator_name, prepare, resolve_response,
)
from clfeval.cross_evaluation.results import CrossEvaluation

__all__ = ["cross_evaluate", "compare", "bootstrap_632"]


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


def _run(estimator: Any, prep: Prepared, *, response: str, n_jobs: int | None, progress: bool, on_error: str,
         fit_params: dict[str, Any] | None, apparent: bool | None, return_estimators: bool,
         name: str | None) -> CrossEvaluation:
    try:
        from joblib import Parallel, delayed
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(f"cross_evaluate needs joblib: {EXTRA}") from exc

    check_estimator(estimator)
    if on_error not in ("raise", "continue"):
        raise ValueError(f"on_error must be 'raise' or 'continue', got {on_error!r}.")
    if prep.w is not None:
        check_fit_weight(estimator)
    used = resolve_response(estimator, response)
    params = dict(fit_params or {})
    per_repeat = len(prep.splits) // prep.n_repeats
    specs = [FoldSpec(i, i // per_repeat, used, prep.labels, prep.pos_label, return_estimators)
             for i in range(len(prep.splits))]
    jobs = [delayed(run_fold)(estimator, prep.X, prep.y, prep.w, params, tr, te, s)
            for (tr, te), s in zip(prep.splits, specs)]
    if apparent is None:
        apparent = isinstance(prep.protocol, Bootstrap)
    if apparent:
        everything = np.arange(prep.y.size, dtype=np.intp)
        jobs.append(delayed(run_fold)(estimator, prep.X, prep.y, prep.w, params, everything, everything,
                                      FoldSpec(-1, -1, used, prep.labels, prep.pos_label, return_estimators)))
    folds: list[Fold] = []
    undefined: list[str] = []
    label = name or estimator_name(estimator)
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
                ) from exception_of(fold)
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

    Parameters
    ----------
    estimator : scikit-learn classifier
        The unfitted model; each fold fits a clone of it.
    X : array-like or DataFrame of shape (n_samples, n_features)
        The features, indexed by row for each split.
    y : array-like of shape (n_samples,)
        The true classes.
    protocol : protocol, splitter, int or list of (train, test) pairs, optional
        How the data are split, as described above. Default None: stratified 5-fold.
    groups : array-like of shape (n_samples,), optional
        Group of each row, for group-aware splitters; default None.
    sample_weight : array-like of shape (n_samples,), optional
        Weight of each row, given to fit and to the metrics; default None.
    response : {"auto", "predict_proba", "decision_function", "predict"}, default "auto"
        Which method supplies the scores ("predict": none).
    labels : array-like, optional
        The classes and their order; default None (the sorted classes of ``y``).
    pos_label : object, optional
        The positive class of a binary task; default None (as :func:`clfeval.evaluate`).
    n_jobs : int, optional
        Number of folds run in parallel with joblib; default None (one at a time).
    progress : bool, default True
        Show a progress bar on a terminal.
    random_state : int, numpy.random.Generator or None, default None
        Shuffles the default folds and seeds a clfeval protocol built without a seed.
    on_error : {"raise", "continue"}, default "raise"
        Whether a failing fold raises :class:`FoldError` or is recorded and skipped.
    fit_params : dict, optional
        Further keyword arguments of ``fit``; those with one value per row are cut to the
        training rows. Default None.
    apparent : bool, optional
        Also fit and evaluate on all the data. Default None: True for the bootstrap protocol
        only.
    return_estimators : bool, default False
        Keep each fold's fitted estimator on its :class:`Fold`.
    name : str, optional
        Name of the model in the result; default None (the estimator's class name).

    Returns
    -------
    CrossEvaluation
        The folds with their Evaluations, the pooled out-of-fold Evaluation, and summaries.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> cv = cross_evaluate(GaussianNB(), X, y, progress=False)
    >>> cv.response, len(cv.folds), round(cv.mean["accuracy"], 4), round(cv.pooled.report.overall["accuracy"], 4)
    ('predict_proba', 5, 0.9533, 0.9533)
    """
    prep = prepare(X, y, protocol, groups, sample_weight, labels, pos_label, random_state)
    return _run(estimator, prep, response=response, n_jobs=n_jobs, progress=progress, on_error=on_error,
                fit_params=fit_params, apparent=apparent, return_estimators=return_estimators, name=name)


def compare(estimator_a: Any, estimator_b: Any, X: Any, y: Any, protocol: Any = None, *, metric: str = "accuracy",
            test: str = "auto", alternative: str = "two-sided", groups: Any = None, sample_weight: Any = None,
            labels: Any = None, pos_label: Any = None, random_state: Any = None, names: tuple[str, str] | None = None,
            **kwargs: Any) -> Comparison:
    """Cross-evaluate two estimators on identical splits (drawn once) and test their difference.

    ``metric``: any report number (see :data:`METRICS`); ``test``: see
    :meth:`CrossEvaluation.compare`. Other keyword arguments go to :func:`cross_evaluate`
    (``response``, ``n_jobs``, ``progress``, ``on_error``, ``fit_params``). The result keeps both
    CrossEvaluations (``.a``, ``.b``).

    Parameters
    ----------
    estimator_a : scikit-learn classifier
        Model A (the difference is A - B).
    estimator_b : scikit-learn classifier
        Model B.
    X : array-like or DataFrame of shape (n_samples, n_features)
        The features, indexed by row for each split.
    y : array-like of shape (n_samples,)
        The true classes.
    protocol : protocol, splitter, int or list of (train, test) pairs, optional
        How the data are split, as described above. Default None: stratified 5-fold.
    metric : str, default "accuracy"
        The report number compared fold by fold.
    test : str, default "auto"
        The test of the difference: "auto" (chosen from the protocol), "5x2cv_t", "5x2cv_f",
        "corrected_kfold", "corrected_resampled" or "uncorrected".
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis; "greater" means A scores higher than B.
    groups : array-like of shape (n_samples,), optional
        Group of each row, for group-aware splitters; default None.
    sample_weight : array-like of shape (n_samples,), optional
        Weight of each row; default None.
    labels : array-like, optional
        The classes and their order; default None (the sorted classes of ``y``).
    pos_label : object, optional
        The positive class of a binary task; default None.
    random_state : int, numpy.random.Generator or None, default None
        Seeds the splits, which both models share.
    names : tuple of (str, str), optional
        Names of the two models; default None (their class names, marked (A) and (B) when
        equal).
    **kwargs : object
        Further arguments of :func:`cross_evaluate`.

    Returns
    -------
    Comparison
        The per-fold scores of both models, the test of their difference (``test``,
        ``statistic``, ``pvalue``) and both CrossEvaluations.

    References
    ----------
    .. [1] Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
       classification learning algorithms. Neural Computation, 10(7), 1895-1923.
    .. [2] Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. Machine
       Learning, 52(3), 239-281.

    Examples
    --------
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
    prep = prepare(X, y, protocol, groups, sample_weight, labels, pos_label, random_state)
    names = names or (estimator_name(estimator_a), estimator_name(estimator_b))
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


def bootstrap_632(estimator: Any, X: Any, y: Any, *, n_bootstraps: int = 200, metric: str = "error_rate",
                  stratify: bool = False, random_state: Any = None, **kwargs: Any) -> BootstrapEstimate:
    """The .632 / .632+ bootstrap estimates of ``metric`` for ``estimator`` on (X, y).

    Runs :func:`cross_evaluate` with :class:`~clfeval.protocols.Bootstrap` (out-of-bag tests) plus
    one fit on all data; other keyword arguments go to :func:`cross_evaluate`. For the folds
    themselves, call ``cross_evaluate(..., protocol=Bootstrap(...))`` and ``.bootstrap_estimates()``.

    Parameters
    ----------
    estimator : object
        A scikit-learn-compatible classifier (unfitted); a clone is fitted on each bag.
    X : array-like of shape (n_samples, n_features)
        The features.
    y : array-like of shape (n_samples,)
        The true classes.
    n_bootstraps : int, default=200
        Number of bootstrap bags.
    metric : str, default="error_rate"
        The metric to estimate (a report number, see :data:`METRICS`); losses and scores alike.
    stratify : bool, default=False
        Draw each bag within the classes, keeping their counts.
    random_state : int, numpy.random.Generator, numpy.random.RandomState or None, default=None
        Seed of the bags; None draws fresh ones each call.
    **kwargs
        Further arguments of :func:`cross_evaluate` (``response``, ``n_jobs``, ``progress``,
        ``sample_weight``, ...).

    Returns
    -------
    BootstrapEstimate
        The apparent, leave-one-out bootstrap, .632 and .632+ values of the metric, and their
        ingredients.

    Examples
    --------
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
