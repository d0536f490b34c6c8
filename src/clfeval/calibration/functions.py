"""The public scikit-learn-style calibration functions of ``y_true`` and ``y_prob``:
:func:`calibration_curve` (as scikit-learn's), :func:`reliability_curve`,
:func:`expected_calibration_error`, :func:`brier_decomposition` and :func:`calibration_report`;
and :func:`view_reliability`, the reliability curve of one view of read inputs.

>>> round(expected_calibration_error([0, 0, 1, 1, 1, 0], [0.1, 0.3, 0.8, 0.9, 0.6, 0.6], n_bins=5), 6)
0.15
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.inputs.labels import as_1d
from clfeval.inputs.probabilities import read_scores
from clfeval.calibration.bin_sums import BinSums, binned_calibration_error
from clfeval.calibration.binning import uniform_edges
from clfeval.calibration.checks import NORMS, STRATEGIES, check_choice, check_n_bins
from clfeval.calibration.inputs import Inputs, input_views, read_binary, read_inputs, resolve_view
from clfeval.calibration.results import BrierDecomposition, CalibrationReport, ReliabilityCurve
from clfeval.calibration.states import calibration_of
from clfeval.calibration.views import table_bins, table_edges, view_histogram, view_table

__all__ = [
    "calibration_curve",
    "reliability_curve",
    "expected_calibration_error",
    "brier_decomposition",
    "calibration_report",
    "view_reliability",
]


def _input_bins(x: Inputs, views: list[int], n_bins: int | None, strategy: str) -> list[BinSums]:
    """Bin sums of the requested views only: one histogram pass for uniform bins, an exact table
    per view for quantile bins and for ``n_bins=None`` (one group per distinct probability)."""
    pos = 1 if x.positive is None else x.positive
    if n_bins is not None and strategy == "uniform":
        stacked = view_histogram(x.codes, x.proba, pos, x.weight, uniform_edges(n_bins), views)
        return [stacked.row(i) for i in range(len(views))]
    out = []
    for v in views:
        table = view_table(x.codes, x.proba, pos, x.weight, v)
        out.append(table_bins(table, None if n_bins is None else table_edges(table, n_bins, strategy)))
    return out


def _view_label(x: Inputs, view: int) -> str:
    if view == x.k:
        return "top-label"
    return f"positive class {x.classes[view]}" if x.k == 2 else f"class {x.classes[view]} vs rest"



def view_reliability(x: Inputs, view: int, n_bins: int, strategy: str) -> ReliabilityCurve:
    """The reliability curve of view ``view`` of read inputs ``x`` (see :func:`resolve_view`).

    >>> from clfeval.calibration.inputs import read_inputs
    >>> x = read_inputs([0, 1, 1, 0], [0.2, 0.9, 0.7, 0.4])
    >>> view_reliability(x, 1, 2, "uniform").observed.tolist()
    [0.0, 1.0]
    """
    bins = _input_bins(x, [view], n_bins, strategy)[0]
    return ReliabilityCurve.from_bins(bins, _view_label(x, view), strategy)



def calibration_curve(
    y_true: Any, y_prob: Any, *, pos_label: Any = None, n_bins: int = 5, strategy: str = "uniform"
) -> tuple[np.ndarray, np.ndarray]:
    """(fraction of positives, mean predicted probability) per non-empty bin, as
    ``sklearn.calibration.calibration_curve`` (same arguments and results).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels of a binary problem.
    y_prob : array-like of shape (n_samples,)
        Predicted probability of the positive class for each sample, in [0, 1].
    pos_label : int, float, bool or str, default=None
        The class whose probability ``y_prob`` holds; None is allowed only for labels {0, 1} or
        {-1, 1}, and takes 1.
    n_bins : int, default=5
        Number of bins the probabilities are grouped into; empty bins are left out of the result.
    strategy : {"uniform", "quantile"}, default="uniform"
        "uniform": bins of equal width on [0, 1]; "quantile": edges at the quantiles of
        ``y_prob``, so that the bins hold about as many samples each.

    Returns
    -------
    prob_true : numpy.ndarray
        Share of positives in each non-empty bin.
    prob_pred : numpy.ndarray
        Mean predicted probability in each non-empty bin.

    Examples
    --------
    >>> prob_true, prob_pred = calibration_curve([0, 0, 1, 1], [0.1, 0.4, 0.6, 0.9], n_bins=2)
    >>> prob_true.tolist(), prob_pred.tolist()
    ([0.0, 1.0], [0.25, 0.75])
    """
    n_bins = check_n_bins(n_bins)
    check_choice(strategy, STRATEGIES, "strategy")
    proba = as_1d(
        read_scores(y_prob, "y_prob"),
        "y_prob must be 1-D: the probability of the positive class",
    )
    x = read_binary(y_true, proba, pos_label, None)
    curve = view_reliability(x, x.positive, n_bins, strategy)
    keep = curve.nonempty
    return curve.observed[keep], curve.mean_predicted[keep]


def reliability_curve(
    y_true: Any,
    y_prob: Any,
    *,
    pos_label: Any = None,
    n_bins: int = 10,
    strategy: str = "uniform",
    mode: str | None = None,
    labels: Any = None,
    sample_weight: Any = None,
) -> ReliabilityCurve:
    """Reliability bins (edges, weight, mean predicted probability, observed frequency) of one
    view: binary (1-D ``y_prob``, or ``pos_label``'s column against the rest) or top-label
    (the default for (n, k) ``y_prob``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class of each sample.
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities in [0, 1]: 1-D, the probability of the positive class of a binary
        problem; 2-D, one column per class (in sorted label order, or that of ``labels``) with rows
        summing to 1.
    pos_label : int, float, bool or str, default=None
        With 1-D ``y_prob``, the class it is the probability of (None is allowed only for labels
        {0, 1} or {-1, 1}, and takes 1); with 2-D ``y_prob``, the class read against the rest
        (None: the second of two classes, none for more).
    n_bins : int, default=10
        Number of bins.
    strategy : {"uniform", "quantile"}, default="uniform"
        "uniform": bins of equal width on [0, 1]; "quantile": edges at quantiles of the
        probabilities, so that the bins hold about equal weight.
    mode : {"binary", "top-label"}, default=None
        The view: "binary" reads the positive class (``pos_label``) against the rest,
        "top-label" the largest probability of each row against whether its class is right.
        None: "binary" for 1-D ``y_prob`` or when ``pos_label`` is given, else "top-label".
    labels : array-like, default=None
        The classes of the columns of a 2-D ``y_prob``, in order; None takes the sorted classes
        of ``y_true``. Not allowed with 1-D ``y_prob``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.

    Returns
    -------
    ReliabilityCurve
        The bins of that view, empty bins included (NaN means, zero weight).

    Examples
    --------
    >>> c = reliability_curve([0, 1, 2, 1], [[.8, .1, .1], [.2, .7, .1], [.1, .3, .6], [.5, .4, .1]],
    ...                       n_bins=2)
    >>> c.view, c.observed.tolist(), c.weight.tolist()
    ('top-label', [0.0, 1.0], [1, 3])
    """
    n_bins = check_n_bins(n_bins)
    check_choice(strategy, STRATEGIES, "strategy")
    x = read_inputs(y_true, y_prob, pos_label=pos_label, labels=labels, sample_weight=sample_weight)
    return view_reliability(x, resolve_view(x, mode, pos_label), n_bins, strategy)


def expected_calibration_error(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 15,
    strategy: str = "uniform",
    norm: str = "l1",
    mode: str | None = None,
    pos_label: Any = None,
    labels: Any = None,
    sample_weight: Any = None,
) -> float:
    """Expected calibration error: the weighted gap between observed frequency and mean
    probability per bin.

    ``norm``: "l1" ``sum_b w_b/W |acc_b - conf_b|``, "l2" ``sqrt(sum_b w_b/W (acc_b - conf_b)^2)``,
    "max" ``max_b |acc_b - conf_b|`` over non-empty bins. ``mode``: "binary" (default for 1-D
    ``y_prob``; with (n, k) input the class ``pos_label``, default the greater of two labels),
    "top-label" (default for (n, k)), or "class-wise" (mean over classes of each class's
    one-vs-rest ECE). Bins: see the module notes (a probability on an edge goes to the lower bin).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class of each sample.
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities in [0, 1]: 1-D, the probability of the positive class of a binary
        problem; 2-D, one column per class (in sorted label order, or that of ``labels``) with rows
        summing to 1.
    n_bins : int, default=15
        Number of bins.
    strategy : {"uniform", "quantile"}, default="uniform"
        "uniform": bins of equal width on [0, 1]; "quantile": edges at quantiles of the
        probabilities, so that the bins hold about equal weight.
    norm : {"l1", "l2", "max"}, default="l1"
        How the per-bin gaps are combined (formulas above).
    mode : {"binary", "top-label", "class-wise"}, default=None
        The view(s) read (see above); None: "binary" for 1-D ``y_prob``, "top-label" for 2-D.
    pos_label : int, float, bool or str, default=None
        With 1-D ``y_prob``, the class it is the probability of (None is allowed only for labels
        {0, 1} or {-1, 1}, and takes 1); with 2-D ``y_prob``, the class read against the rest
        (None: the second of two classes, none for more).
    labels : array-like, default=None
        The classes of the columns of a 2-D ``y_prob``, in order; None takes the sorted classes
        of ``y_true``. Not allowed with 1-D ``y_prob``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.

    Returns
    -------
    float
        The calibration error, between 0 and 1.

    Examples
    --------
    >>> round(expected_calibration_error([1, 1, 0, 1], [0.9, 0.8, 0.3, 0.4], n_bins=2), 6)
    0.15
    >>> y, p = [0, 1, 1, 1], [0.1, 0.4, 0.8, 0.9]
    >>> [round(expected_calibration_error(y, p, n_bins=2, norm=norm), 6) for norm in ("l1", "l2", "max")]
    [0.2, 0.206155, 0.25]
    """
    n_bins = check_n_bins(n_bins)
    check_choice(strategy, STRATEGIES, "strategy")
    check_choice(norm, NORMS, "norm")
    x = read_inputs(y_true, y_prob, pos_label=pos_label, labels=labels, sample_weight=sample_weight)
    _, views = input_views(x, mode)
    errors = [binned_calibration_error(*b.gaps(), norm) for b in _input_bins(x, views, n_bins, strategy)]
    return float(np.mean(errors))


def brier_decomposition(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int | None = None,
    strategy: str = "uniform",
    pos_label: Any = None,
    labels: Any = None,
    sample_weight: Any = None,
) -> BrierDecomposition:
    """Murphy's decomposition ``brier = reliability - resolution + uncertainty``.

    ``n_bins=None`` (default): the forecasts are grouped by distinct probability and the identity
    is exact. With ``n_bins`` the samples are grouped into bins (``strategy``) and the two
    within-bin terms of Stephenson et al. (2008) keep it exact:
    ``brier = reliability - resolution + uncertainty + within_variance - within_covariance``.
    Two classes: the positive class's Brier score (scikit-learn's binary ``brier_score_loss``);
    more: the sum over classes of each one-vs-rest decomposition (scikit-learn's multiclass
    Brier score), or ``pos_label``'s alone.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class of each sample.
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities in [0, 1]: 1-D, the probability of the positive class of a binary
        problem; 2-D, one column per class (in sorted label order, or that of ``labels``) with rows
        summing to 1.
    n_bins : int, default=None
        Number of bins to group the samples into; None groups them by distinct probability.
    strategy : {"uniform", "quantile"}, default="uniform"
        "uniform": bins of equal width on [0, 1]; "quantile": edges at quantiles of the
        probabilities, so that the bins hold about equal weight.
        Used only with ``n_bins``.
    pos_label : int, float, bool or str, default=None
        With 1-D ``y_prob``, the class it is the probability of (None is allowed only for labels
        {0, 1} or {-1, 1}, and takes 1); with 2-D ``y_prob``, the class read against the rest
        alone (None: the second of two classes, all classes summed for more).
    labels : array-like, default=None
        The classes of the columns of a 2-D ``y_prob``, in order; None takes the sorted classes
        of ``y_true``. Not allowed with 1-D ``y_prob``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.

    Returns
    -------
    BrierDecomposition
        The Brier score and its terms.

    Examples
    --------
    >>> d = brier_decomposition([0, 0, 1, 1], [0.2, 0.2, 0.6, 0.6])
    >>> round(d.brier, 6), round(d.reliability, 6), d.resolution, d.uncertainty
    (0.1, 0.1, 0.25, 0.25)
    """
    if n_bins is not None:
        n_bins = check_n_bins(n_bins)
    check_choice(strategy, STRATEGIES, "strategy")
    x = read_inputs(y_true, y_prob, pos_label=pos_label, labels=labels, sample_weight=sample_weight)
    views = [x.positive] if x.positive is not None else list(range(x.k))
    bins = _input_bins(x, views, n_bins, strategy)
    return BrierDecomposition.from_bins(bins, n_bins, None if n_bins is None else strategy)


def calibration_report(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 15,
    strategy: str = "uniform",
    pos_label: Any = None,
    labels: Any = None,
    sample_weight: Any = None,
) -> CalibrationReport:
    """Every calibration number at once (from the exact state; see :class:`CalibrationReport`).

    The headline ECE is that of the positive class for 1-D ``y_prob`` and top-label for 2-D.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class of each sample.
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities in [0, 1]: 1-D, the probability of the positive class of a binary
        problem; 2-D, one column per class (in sorted label order, or that of ``labels``) with rows
        summing to 1.
    n_bins : int, default=15
        Number of bins of the ECEs, the reliability curve and the decomposition.
    strategy : {"uniform", "quantile"}, default="uniform"
        "uniform": bins of equal width on [0, 1]; "quantile": edges at quantiles of the
        probabilities, so that the bins hold about equal weight.
    pos_label : int, float, bool or str, default=None
        With 1-D ``y_prob``, the class it is the probability of (None is allowed only for labels
        {0, 1} or {-1, 1}, and takes 1); with 2-D ``y_prob``, the class whose view against the
        rest adds a "binary" entry to ``ece_by_mode`` (None: the second of two classes, none for
        more).
    labels : array-like, default=None
        The classes of the columns of a 2-D ``y_prob``, in order; None takes the sorted classes
        of ``y_true``. Not allowed with 1-D ``y_prob``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1.

    Returns
    -------
    CalibrationReport
        ECE in three norms and in each mode, Brier score and its decomposition, log loss and the
        reliability bins.

    Examples
    --------
    >>> r = calibration_report([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4], n_bins=2)
    >>> round(r.ece, 6), round(r.brier, 6), round(r.log_loss, 6)
    (0.275, 0.0925, 0.337539)
    """
    n_bins = check_n_bins(n_bins)
    check_choice(strategy, STRATEGIES, "strategy")
    x = read_inputs(y_true, y_prob, pos_label=pos_label, labels=labels, sample_weight=sample_weight)
    state = calibration_of(x.codes, x.proba, x.weight, classes=x.classes, positive=x.positive)
    return state.report(n_bins=n_bins, strategy=strategy)
