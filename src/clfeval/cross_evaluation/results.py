"""The result of a cross-evaluation: :class:`CrossEvaluation`, made of one :class:`~.folds.Fold`
per split, with the pooled out-of-fold Evaluation, per-fold metric tables, means, spreads and
intervals (Nadeau-Bengio corrected), mean curves, paired comparisons and the bootstrap estimates.

>>> from sklearn.datasets import load_iris
>>> from sklearn.naive_bayes import GaussianNB
>>> from clfeval.cross_evaluation import cross_evaluate
>>> X, y = load_iris(return_X_y=True)
>>> cv = cross_evaluate(GaussianNB(), X, y, 3, progress=False)
>>> isinstance(cv, CrossEvaluation), cv.table(["accuracy"])["n_test"]
(True, [50, 50, 50])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any

import numpy as np

from clfeval.evaluation import Evaluation, evaluate
from clfeval.results.report import Report
from clfeval.cross_evaluation.bootstrap_estimators import BootstrapEstimate, bootstrap_estimates
from clfeval.cross_evaluation.comparison import Comparison, compare_scores
from clfeval.cross_evaluation.curves import MeanCurve, mean_curve
from clfeval.cross_evaluation.folds import Fold
from clfeval.cross_evaluation.inputs import protocol_name
from clfeval.cross_evaluation.summaries import INTERVAL_METHODS, MetricSummary, ReportSet, pandas_module

__all__ = ["CrossEvaluation"]


class CrossEvaluation(ReportSet):
    """The outcome of :func:`cross_evaluate`.

    Attributes: ``folds`` (list of :class:`Fold`), ``protocol`` and ``protocol_name``, ``response``
    (the score method used), ``labels``, ``pos_label``, ``name``, ``n_repeats``, ``failed`` (the
    failed folds), ``apparent`` (the fold fitted and evaluated on all data, when asked for),
    ``notes``. ``pooled`` is one Evaluation of every out-of-fold prediction; ``pooled_by_repeat``
    one per repetition. ``table()`` / ``to_frame()`` the per-fold metrics; ``mean`` / ``std``;
    ``summary()`` with intervals; ``mean_curve()``; ``compare()``; ``bootstrap_estimates()``.

    Built by :func:`cross_evaluate`, which passes the arguments below.

    Parameters
    ----------
    folds : list of Fold
        The outcome of every split, in the protocol's order.
    protocol : object
        The protocol (or splitter) the folds came from.
    response : str
        The score method used: "predict_proba", "decision_function" or "predict".
    labels : numpy.ndarray of shape (k,)
        The classes, fixed across folds.
    pos_label : object
        The positive class of a binary task, else None.
    y : numpy.ndarray of shape (n_samples,)
        The true classes of all rows.
    sample_weight : numpy.ndarray of shape (n_samples,) or None
        The rows' weights, or None.
    n_repeats : int
        Number of repetitions of the protocol.
    name : str
        Name of the model.
    notes : list of str
        Remarks made while running the folds.
    apparent : Fold, optional
        The fold fitted and evaluated on all the data; default None.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from clfeval import cross_evaluate
    >>> X, y = load_iris(return_X_y=True)
    >>> cv = cross_evaluate(GaussianNB(), X, y, 3, progress=False, name="nb")
    >>> cv.protocol_name, cv.response, len(cv.folds), cv.n_samples
    ('stratified 3-fold CV', 'predict_proba', 3, 150)
    >>> round(cv.mean["accuracy"], 4), round(cv.std["accuracy"], 4)
    (0.94, 0.02)
    """

    def __init__(self, folds: list[Fold], *, protocol: Any, response: str, labels: np.ndarray, pos_label: Any,
                 y: np.ndarray, sample_weight: np.ndarray | None, n_repeats: int, name: str, notes: list[str],
                 apparent: Fold | None = None) -> None:
        self.folds = folds
        self.protocol = protocol
        self.protocol_name = protocol_name(protocol)
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
    def n_samples(self) -> int:
        """How many samples the protocol drew its folds from."""
        return int(self._y.size)

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
            ev = replace(ev, dependent_rows=(
                f"{label}: {repeated} of the {test.size} pooled predictions are of samples already counted "
                "(repeated or resampling protocol); intervals that treat them as independent cases are too "
                "narrow. Use pooled_by_repeat[r].intervals() (one repetition, each sample once) or summary() "
                "(corrected across folds)."))
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
        return pandas_module().DataFrame(self.table(metrics)).set_index("fold")

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
        from clfeval.stats._result import check_level

        level = check_level(level)
        if method not in INTERVAL_METHODS:
            raise ValueError(f"method must be one of {list(INTERVAL_METHODS)}, got {method!r}.")
        ratio = self.test_train_ratio if method == "corrected" else None
        return self._summary(level, metrics, ratio, INTERVAL_METHODS[method], list(self.notes))

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
        return compare_scores(a, b, self.folds, self._y.size, self.n_repeats, metric, test, alternative,
                               (self.name, other.name))

    def bootstrap_estimates(self, metric: str = "error_rate") -> BootstrapEstimate:
        """The leave-one-out bootstrap, .632 and .632+ estimates (Efron & Tibshirani 1997) of ``metric``.

        Needs out-of-bag folds (a :class:`~clfeval.protocols.Bootstrap` protocol) and the fit on all
        data (``apparent``, made by default for Bootstrap). See :func:`efron_tibshirani`.
        """
        return bootstrap_estimates(metric, folds=self.folds, apparent=self.apparent, y=self._y, sample_weight=self._w,
                                   labels=self.labels, pos_label=self.pos_label, pos_row=self._pos_row,
                                   mean_value=self.mean_value)

    def __repr__(self) -> str:
        ok = len(self.folds) - len(self.failed)
        bits = [f"name={self.name!r}", f"protocol={self.protocol_name!r}", f"folds={ok}/{len(self.folds)}",
                f"response={self.response!r}"]
        means = self.mean
        bits.append(f"accuracy={means['accuracy']:.4f}±{self.std['accuracy']:.4f}")
        if "roc_auc" in means:
            bits.append(f"roc_auc={means['roc_auc']:.4f}")
        return f"CrossEvaluation({', '.join(bits)})"

    def _repr_html_(self) -> str:  # a title line, then the summary's table (its notes included)
        from clfeval.support.html_table import RawHtml, html_block

        ok = len(self.folds) - len(self.failed)
        about = f"{self.protocol_name} · {ok}/{len(self.folds)} folds · response {self.response}"
        return html_block(self.name, RawHtml(self.summary(0.95)._repr_html_()), subtitle=about)

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
