"""The bootstrap estimators of Efron and Tibshirani (1997): the leave-one-out bootstrap, .632 and
.632+ estimates of a metric (:class:`BootstrapEstimate`), from their three ingredients
(:func:`efron_tibshirani`) or from the out-of-bag folds of a bootstrap protocol and one fit on all
data (:func:`bootstrap_estimates`).

>>> r = efron_tibshirani(0.1, 0.1, 0.5)
>>> r["estimate_632"], r["relative_overfitting"]
(0.1, 0.0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.results.confusion import ConfusionMatrix
from clfeval.evaluation import evaluate
from clfeval.inputs.labels import encode
from clfeval.results.report import build_report
from clfeval.cross_evaluation.folds import Fold
from clfeval.cross_evaluation.metric_names import higher_is_better, metric_value

__all__ = ["BootstrapEstimate", "efron_tibshirani", "bootstrap_estimates"]


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

    Parameters
    ----------
    metric : str
        The metric estimated.
    apparent : float
        Its resubstitution value.
    loo_bootstrap : float
        Its leave-one-out bootstrap value.
    oob_mean : float
        The mean of its per-bag out-of-bag values.
    no_information : float
        Its value when predictions are independent of the truth.
    relative_overfitting : float
        R', between 0 and 1.
    weight : float
        w, the weight of the bootstrap value in the .632+ estimate.
    estimate_632 : float
        The .632 estimate.
    estimate_632_plus : float
        The .632+ estimate.
    n_bootstraps : int
        Number of bags used.
    n_never_out : int, default=0
        Samples that no bag left out (so they count in no out-of-bag test).

    Examples
    --------
    >>> r = efron_tibshirani(0.0, 0.3, 0.5)
    >>> b = BootstrapEstimate("error_rate", 0.0, 0.3, 0.31, 0.5, n_bootstraps=50, **r)
    >>> round(b.estimate_632_plus, 4), b.to_dict()["n_never_out"]
    (0.2433, 0)
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

    Parameters
    ----------
    apparent : float
        The resubstitution value: the model fitted and evaluated on all data (err).
    loo_bootstrap : float
        The leave-one-out bootstrap value, Err1.
    no_information : float
        The value when predictions are independent of the truth, gamma.
    higher_is_better : bool, default=False
        False for a loss such as the error rate; True for a score such as accuracy.

    Returns
    -------
    dict of str to float
        "estimate_632", "estimate_632_plus", "relative_overfitting" (R') and "weight" (w).

    Examples
    --------
    >>> r = efron_tibshirani(0.0, 0.3, 0.5)
    >>> round(r["estimate_632"], 4), round(r["relative_overfitting"], 4), round(r["estimate_632_plus"], 4)
    (0.1896, 0.6, 0.2433)
    >>> round(efron_tibshirani(1.0, 0.7, 0.5, higher_is_better=True)["estimate_632_plus"], 4)
    0.7567
    """
    sign = -1.0 if higher_is_better else 1.0
    err, err1, gamma = sign * apparent, sign * loo_bootstrap, sign * no_information
    e632 = 0.368 * err + 0.632 * err1
    err1p = min(err1, gamma)
    r = (err1p - err) / (gamma - err) if err1 > err and gamma > err else 0.0
    w = 0.632 / (1.0 - 0.368 * r)
    return {"estimate_632": sign * e632, "estimate_632_plus": sign * ((1.0 - w) * err + w * err1p),
            "relative_overfitting": r, "weight": w}


def bootstrap_estimates(metric: str, *, folds: list[Fold], apparent: Fold | None, y: np.ndarray,
                        sample_weight: np.ndarray | None, labels: np.ndarray, pos_label: Any, pos_row: int | None,
                        mean_value: Callable[[str], float]) -> BootstrapEstimate:
    """The :class:`BootstrapEstimate` of ``metric`` from the folds of a bootstrap protocol (each a bag
    tested out of bag) and ``apparent``, the fold fitted and evaluated on all data; ``y``,
    ``sample_weight``, ``labels``, ``pos_label`` (row ``pos_row``) those of the run;
    ``mean_value(metric)`` the mean over the bags (``oob_mean``). What
    :meth:`~clfeval.cross_evaluation.CrossEvaluation.bootstrap_estimates` returns.

    >>> import numpy as np
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from clfeval.cross_evaluation import cross_evaluate
    >>> from clfeval.protocols import Bootstrap
    >>> X, y = np.array([[0.0], [1.0]] * 15), np.array([0, 1] * 15)
    >>> cv = cross_evaluate(GaussianNB(), X, y, Bootstrap(5, random_state=0), progress=False)
    >>> b = bootstrap_estimates("accuracy", folds=cv.folds, apparent=cv.apparent, y=y, sample_weight=None,
    ...                         labels=cv.labels, pos_label=cv.pos_label, pos_row=1, mean_value=cv.mean_value)
    >>> b.apparent, b.loo_bootstrap, b.estimate_632_plus, b.n_bootstraps
    (1.0, 1.0, 1.0, 5)
    """
    if apparent is None or apparent.evaluation is None:
        raise ValueError("the .632 estimators need the fit on all data: run cross_evaluate with a Bootstrap protocol "
                         "(or apparent=True).")
    folds = [f for f in folds if f.ok]
    n = y.size
    for f in folds:
        drawn = np.zeros(n, dtype=bool)
        drawn[f.train] = True
        if not np.array_equal(np.flatnonzero(~drawn), np.sort(f.test)) or np.unique(f.train).size == f.train.size:
            raise ValueError(f"fold {f.index} is not a bootstrap bag tested out of bag (drawn with replacement, "
                             "tested on the rows never drawn); the .632 estimators need protocols.Bootstrap.")
    apparent_value = metric_value(apparent.evaluation.report, metric, pos_row)
    # leave-one-out bootstrap: each out-of-bag appearance of sample i weighted 1 / (its number of appearances)
    test = np.concatenate([f.test for f in folds])
    times_out = np.bincount(test, minlength=n)
    base = np.ones(n) if sample_weight is None else sample_weight.astype(np.float64)
    weight = base[test] / times_out[test]
    pooled = evaluate(y[test], np.concatenate([f.y_pred for f in folds]), labels=labels,  # type: ignore[misc]
                      pos_label=pos_label, sample_weight=weight)
    loo = metric_value(pooled.report, metric, pos_row)
    # no-information table: truth and prediction independent, with the observed and predicted shares
    y_codes = encode(y, labels)
    p_codes = encode(np.asarray(apparent.y_pred), labels)
    k = labels.size
    p = np.bincount(y_codes, weights=base, minlength=k)
    q = np.bincount(p_codes, weights=base, minlength=k)
    table = np.outer(p, q) / base.sum()
    gamma = metric_value(build_report(ConfusionMatrix.from_matrix(labels, table)), metric, pos_row)
    parts = efron_tibshirani(apparent_value, loo, gamma, higher_is_better=higher_is_better(metric))
    return BootstrapEstimate(metric=metric, apparent=apparent_value, loo_bootstrap=loo,
                             oob_mean=mean_value(metric), no_information=gamma, n_bootstraps=len(folds),
                             n_never_out=int(np.sum(times_out == 0)), **parts)
