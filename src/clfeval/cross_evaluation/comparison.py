"""Two models compared on the same splits: the paired test of their per-fold scores, chosen from
the splits' layout (:func:`compare_scores`: Dietterich's 5x2cv, the corrected repeated k-fold or
resampled t test), and its result, :class:`Comparison`.

:meth:`~clfeval.cross_evaluation.CrossEvaluation.compare` compares two results;
:func:`~clfeval.cross_evaluation.compare` runs two estimators on splits drawn once and compares them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.cross_evaluation.folds import Fold

__all__ = ["Comparison", "compare_scores"]


@dataclass(frozen=True, eq=False)
class Comparison:
    """Two models' per-fold scores on the same splits and the test of their difference (A - B).

    ``statistic``, ``pvalue`` and ``confidence_interval(level)`` come from ``test`` (a
    :class:`~clfeval.stats.TestResult`); ``a`` and ``b`` hold the CrossEvaluations when
    :func:`compare` made them.

    Parameters
    ----------
    metric : str
        The metric compared (a report number, see :data:`METRICS`).
    names : tuple of (str, str)
        The two models' names, A then B.
    scores_a : numpy.ndarray
        Model A's metric on each fold.
    scores_b : numpy.ndarray
        Model B's metric on the same folds, in the same order.
    test : TestResult
        The paired test of the difference A - B.
    a : CrossEvaluation, default=None
        Model A's cross-evaluation, when :func:`compare` ran it.
    b : CrossEvaluation, default=None
        Model B's cross-evaluation, when :func:`compare` ran it.

    Examples
    --------
    >>> from clfeval import stats
    >>> a, b = np.array([0.8, 0.9, 0.85, 0.9]), np.array([0.7, 0.8, 0.8, 0.85])
    >>> c = Comparison("accuracy", ("A", "B"), a, b, stats.corrected_resampled_ttest(a, b, n_train=15, n_test=5))
    >>> round(c.statistic, 4), round(c.pvalue, 4), c.test.method
    (3.4017, 0.0424, 'Nadeau-Bengio corrected resampled t test')
    """

    metric: str
    names: tuple[str, str]
    scores_a: np.ndarray
    scores_b: np.ndarray
    test: Any
    # CrossEvaluations, typed Any: clfeval.cross_evaluation.results (that class's home) imports this module
    a: Any = field(default=None, repr=False)
    b: Any = field(default=None, repr=False)

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


def compare_scores(a: np.ndarray, b: np.ndarray, folds: list[Fold], n: int, n_repeats: int, metric: str,
                   test: str, alternative: str, names: tuple[str, str]) -> Comparison:
    """Test the difference of two models' per-fold scores ``a`` and ``b`` on the same ``folds``
    (``n`` samples, ``n_repeats`` repetitions); ``test``: see
    :meth:`~clfeval.cross_evaluation.CrossEvaluation.compare` ("auto" picks it from the layout).

    >>> import numpy as np
    >>> from clfeval.protocols import KFold
    >>> splits = list(KFold(4).split(np.zeros((20, 1)), [0, 1] * 10))
    >>> folds = [Fold(i, 0, tr, te, None, 0.0, 0.0, 0.0) for i, (tr, te) in enumerate(splits)]
    >>> c = compare_scores(np.array([0.8, 0.9, 0.85, 0.9]), np.array([0.7, 0.8, 0.8, 0.85]), folds, 20, 1,
    ...                    "accuracy", "auto", "two-sided", ("A", "B"))
    >>> c.test.method, round(c.pvalue, 4)
    ('Bouckaert-Frank corrected repeated k-fold t test', 0.0424)
    """
    from clfeval import stats

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
