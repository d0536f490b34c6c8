"""Every interval of the classification report of a confusion table: :func:`confusion_intervals`.

Analytic intervals (binomial proportions, MOVER averages by :func:`mover_average`, the delta
method on the logit or Fisher-z scale), or the percentile / BCa bootstrap over the cells, all in
one :class:`~clfeval.results.intervals.Intervals` dict laid out like the report.

>>> d = confusion_intervals(np.array([[40, 10], [5, 45]]))
>>> d["per_class"]["recall"].low.round(3).tolist()
[0.67, 0.786]
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from clfeval.formulas import measures as m
from clfeval.results.intervals import Intervals
from clfeval.uncertainty.scales import transformed_interval
from clfeval.formulas.measure_gradients import f_column
from clfeval.formulas.measure_registry import undefined_because
from clfeval.uncertainty.resampling import check_sampling, smoothing_of
from clfeval.stats._result import ConfidenceInterval, check_level
from clfeval.uncertainty.bootstrap import (
    bootstrap_method_name,
    integer_cells,
    interval_from_replicates,
    jackknife,
    jackknife_acceleration,
    replicates,
)
from clfeval.uncertainty.checks import check_choice, check_resamples, float_or_array, z_quantile
from clfeval.uncertainty.confusion_measures import (
    AVERAGES,
    MEASURE_RANGES,
    OVERALL,
    PER_CLASS,
    check_table,
    confusion_metrics,
    mcc_undefined,
)
from clfeval.uncertainty.delta import DELTA, DELTA_WEIGHTED, delta_method_name
from clfeval.results.group_results import SMALL_CLASS_CASES
from clfeval.uncertainty.cell_ratio_intervals import F_BETA_METHOD, MCC_BOUND_METHOD, f_beta_interval, mcc_bound
from clfeval.uncertainty.proportions import KISH, PROPORTION_METHODS, kish_counts, proportion_ci

__all__ = ["confusion_intervals", "mover_average"]


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

    The dict is an :class:`~clfeval.results.intervals.Intervals`: its ``repr`` lists every number
    like the report, ``to_frame()`` gives one row per number. Every ConfidenceInterval carries
    ``estimate`` (the report's value), ``low``, ``high``, ``level``, ``standard_error`` (where the
    interval is estimate +/- z se: the delta method and Wald; else None) and ``method``, the
    name of the method that interval used:

    * analytic: per-class precision, recall, fall-out, specificity, NPV, and accuracy and error
      rate are binomial proportions (``proportion_method``, Wilson score by default); micro
      precision = recall = F equal accuracy, and micro fall-out = error rate / (k - 1) with
      micro specificity = micro NPV = 1 - that, so those are the same interval, transformed;
      balanced accuracy and macro recall (the mean of the classes' recalls) combine the
      classes' score intervals by MOVER; each class's F-beta comes from score intervals of two
      proportions of its cells (:func:`clfeval.uncertainty.cell_ratio_intervals.f_beta_interval`;
      no standard error); the macro and weighted F-beta and other averages, MCC and
      Cohen's kappa use the delta method, with two guards that the coverage simulation
      (``benchmarks/coverage.py``) asked for: the variance is taken at the table smoothed by
      1/k of a case per cell (:func:`clfeval.uncertainty.resampling.smoothing_of`; an empty cell would
      give no variance at all), and the interval is formed on the logit scale (Fisher's z for
      MCC and kappa, on [-1, 1]), so it stays inside the range and follows its skew
      (:func:`clfeval.uncertainty.scales.transformed_interval`). ``standard_error`` is the plain delta method's, at the
      observed table (as statsmodels and textbooks give it); the interval is not estimate +/- z
      times it. Where a margin of a two-class table has fewer than 20 cases, MCC reaches at
      least as far as :func:`clfeval.uncertainty.cell_ratio_intervals.mcc_bound`, and kappa
      (of MCC's sign, at most its size) as far as MCC's limits and 0. Macro and weighted
      averages of the per-class F-beta, precision, specificity, NPV and fall-out reach as far
      as MOVER from the classes' intervals does (:func:`mover_average`).
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
      weighted cases, sum over cells of g^2 sum w^2 (:mod:`clfeval.uncertainty.influence`). With unit
      weights both equal the unweighted intervals.

    An interval is NaN exactly where its metric is undefined (0/0, see ``notes``); MCC, which the
    report shows as 0 when a single true or predicted class makes it 0/0, gets a NaN interval
    there. Bootstrap replicates where a metric is undefined are left out (counted in ``notes``).

    Parameters
    ----------
    counts : array-like of shape (k, k) or (..., k, k), ConfusionCounts or ConfusionMatrix
        The confusion table (rows true classes, columns predictions), or a batch of them for
        the analytic method.
    level : float, default 0.95
        Confidence level, between 0 and 1.
    method : {"analytic", "bootstrap", "bca"}, default "analytic"
        Closed-form intervals, or percentile or BCa bootstrap intervals.
    n_resamples : int, default 2000
        Number of bootstrap replicates (bootstrap and bca only).
    seed : int, numpy.random.Generator or None, default 0
        Seed of the bootstrap's random stream; the fixed default makes repeated calls agree.
    beta : float, optional
        Weight of recall in the F column (F-beta); default None means F1.
    labels : array-like of shape (k,), optional
        Names of the classes, in table order. Default None: the table's own labels, else
        0 .. k - 1.
    proportion_method : str, default "wilson"
        Interval of the binomial proportions (a key of ``PROPORTION_METHODS``: "wilson",
        "clopper-pearson", "agresti-coull", "jeffreys" or "wald").
    sampling : {"cross-sectional", "stratified"}, default "cross-sectional"
        How the bootstrap redraws the table: all cells together, or each true class alone.
    stratify : bool, optional
        Deprecated spelling of ``sampling`` (True means "stratified"); it warns. Default None.
    weight_squares : array-like of shape (k, k), optional
        Sums of squared sample weights per cell, when ``counts`` holds sums of weights
        (analytic only). Default None: unweighted counts.
    n_cases : int, optional
        Number of cases behind weighted ``counts``; given together with ``weight_squares``.
        Default None.

    Returns
    -------
    Intervals
        The dict described above: ``level``, ``method``, ``labels``, ``per_class``,
        ``averages``, ``overall`` and ``notes``.

    References
    ----------
    .. [1] Korn, E. L. and Graubard, B. I. (1998). Confidence intervals for proportions with
       small expected number of positive counts estimated from survey data. Survey
       Methodology, 24(2), 193-201.
    .. [2] Zou, G. Y. and Donner, A. (2008). Construction of confidence limits about effect
       measures: a general approach. Statistics in Medicine, 27(10), 1693-1702.
    .. [3] Newcombe, R. G. (2011). Propagating imprecision: combining confidence intervals from
       independent sources. Communications in Statistics - Theory and Methods, 40(17),
       3154-3180.

    Examples
    --------
    >>> d = confusion_intervals(np.array([[40, 10], [5, 45]]))
    >>> d["per_class"]["recall"].low.round(3).tolist()
    [0.67, 0.786]
    >>> d = confusion_intervals(np.array([[40, 10], [5, 45]]), method="bootstrap", n_resamples=500)
    >>> d["overall"]["accuracy"].method
    'bootstrap percentile (multinomial over cells, shares of cell + 1/2, cross-sectional, B=500)'
    >>> sorted(d["averages"]["macro"])
    ['f1', 'fallout', 'npv', 'precision', 'recall', 'specificity']
    """
    level = check_level(level)
    check_choice(method, ("analytic", "bootstrap", "bca"), "method")
    sampling = check_sampling(sampling, stratify)
    check_choice(proportion_method, PROPORTION_METHODS, "proportion_method")
    if beta is not None and not (beta >= 0):
        raise ValueError(f"beta must be non-negative, got {beta!r}.")
    cm, table_labels = check_table(counts, batch=method == "analytic")
    k = cm.shape[-1]
    if labels is None:
        labels = table_labels if table_labels is not None else np.arange(k)
    labels = list(np.asarray(labels).tolist())
    if len(labels) != k:
        raise ValueError(f"{len(labels)} labels given for a table of {k} classes; give one per row.")
    fname = f_column(beta)
    cmf = cm.astype(np.float64)
    est = confusion_metrics(cmf, beta)
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
        cells = integer_cells(cm, "the confusion table")
        n_resamples = check_resamples(n_resamples)
        smoothing = smoothing_of(cells)
        reps = replicates(lambda t: confusion_metrics(t, beta), cells, n_resamples, seed, sampling, smoothing)
        center = confusion_metrics(cells + smoothing, beta)
        accel: dict[Any, np.ndarray] = {}
        kind = "percentile" if method == "bootstrap" else "bca"
        if kind == "bca":
            loo, w = jackknife(lambda t: confusion_metrics(t, beta), cells)
            accel = {key: jackknife_acceleration(v.reshape(v.shape[0], -1), w) for key, v in loo.items()}
        name = bootstrap_method_name(kind, n_resamples, sampling, ranking=False, k=k)
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
            cis[key] = ConfidenceInterval(float_or_array(low), float_or_array(high), level, name,
                                          float_or_array(est[key]))
    # MCC 0/0: the report says 0; no interval around a convention
    undefined_mcc = mcc_undefined(cmf)
    if undefined_mcc.any():
        ci = cis["overall", "mcc"]
        nan_if = lambda a: float_or_array(np.where(undefined_mcc, np.nan, a))  # noqa: E731
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


def _nan_notes(est: dict, labels: list) -> list[str]:
    notes = []
    for (section, name), v in est.items():
        bad = np.isnan(v)
        if not bad.any():
            continue
        if section == "per_class":
            classes = sorted({labels[i] for i in np.argwhere(bad)[:, -1]}, key=labels.index)
            why = undefined_because(name) or "0/0"
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
    fname = f_column(beta)
    out: dict[tuple[str, str], ConfidenceInterval] = {}

    def prop(key: tuple[str, str], x: Any, n: Any, n_sq: Any = None) -> None:
        suffix = ""
        if n_sq is not None:  # weighted: the proportion over Kish's effective number of cases
            (x, n), suffix = kish_counts(x, n, n_sq), KISH
        ci = proportion_ci(x, n, level=level, method=pmethod)
        out[key] = ConfidenceInterval(ci.low, ci.high, level, ci.method + suffix, float_or_array(est[key]),
                                      ci.standard_error)

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
            acc.low, acc.high, level, f"{acc.method} (micro {name} = accuracy)", float_or_array(est["micro", name]),
            acc.standard_error,
        )
    if k > 1:
        f_low, f_high = float_or_array(np.asarray(err.low) / (k - 1)), float_or_array(np.asarray(err.high) / (k - 1))
        s_low, s_high = float_or_array(1 - np.asarray(f_high)), float_or_array(1 - np.asarray(f_low))
    else:
        f_low = f_high = s_low = s_high = float_or_array(np.full(np.shape(n), np.nan))
    how = f"{err.method} of the error rate, / (k - 1)"
    f_se = None if err.standard_error is None or k < 2 else float_or_array(np.asarray(err.standard_error) / (k - 1))
    out["micro", "fallout"] = ConfidenceInterval(f_low, f_high, level, how, float_or_array(est["micro", "fallout"]),
                                                 f_se)
    for name in ("specificity", "npv"):
        out["micro", name] = ConfidenceInterval(
            s_low, s_high, level, f"1 - ({how})", float_or_array(est["micro", name]), f_se
        )
    delta_keys = [("per_class", fname)] + [(a, nm) for a in ("macro", "weighted") for nm in _names(fname)]
    delta_keys += [("overall", "balanced_accuracy"), ("overall", "mcc"), ("overall", "kappa")]
    from clfeval.formulas.measure_gradients import confusion_variances

    # the delta method at the table smoothed by 1/k of a case per cell (clfeval.uncertainty.resampling): an
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
    center = confusion_metrics(smoothed, beta)
    z = z_quantile(level)
    for key in delta_keys:
        e = np.asarray(est[key])
        se_smoothed = np.where(np.isnan(e), np.nan, np.sqrt(variances[key]))
        low, high = transformed_interval(e, np.asarray(center[key]), se_smoothed, z,
                                         MEASURE_RANGES.get(key[1], (0.0, 1.0)))
        se = np.where(np.isnan(e), np.nan, np.sqrt(plain[key]))  # the textbook delta method's, reported
        out[key] = ConfidenceInterval(float_or_array(low), float_or_array(high), level,
                                      delta_method_name(how, key[1], k),
                                      float_or_array(e), standard_error=float_or_array(se))
    _small_count_guards(out, cm, squares, level, pmethod, beta, fname, k)
    recall = np.asarray(est["per_class", "recall"])
    for key in (("overall", "balanced_accuracy"), ("macro", "recall")):
        out[key] = mover_average(out["per_class", "recall"], recall, None, np.asarray(est[key]), level)
    out["weighted", "recall"] = ConfidenceInterval(  # sum over classes of support x recall / n = accuracy
        acc.low, acc.high, level, f"{acc.method} (weighted recall = accuracy)",
        float_or_array(est["weighted", "recall"]),
        acc.standard_error)
    support = tp + fn
    for avg, weights in (("macro", None), ("weighted", support)):
        for name in ("precision", "specificity", "npv", "fallout", fname):
            delta = out[avg, name]
            mover = mover_average(out["per_class", name], np.asarray(est["per_class", name]), weights,
                                  np.asarray(est[avg, name]), level)
            out[avg, name] = ConfidenceInterval(
                float_or_array(np.fmin(delta.low, mover.low)), float_or_array(np.fmax(delta.high, mover.high)), level,
                f"{delta.method} or {mover.method}, whichever reaches further", delta.estimate, delta.standard_error)
    return out


def _small_count_guards(out: dict, cm: np.ndarray, squares: np.ndarray | None, level: float,
                        pmethod: str, beta: float | None, fname: str, k: int) -> None:
    """Per-class F-beta from binomial pieces (:func:`f_beta_interval`, in place of the delta
    method: the same limits at large counts, honest ones at 0-2 positives), and a two-class MCC
    whose delta-method interval is widened to :func:`mcc_bound` where a margin of the table has
    fewer than SMALL_CLASS_CASES cases (the delta method covered 87% there; the bound is
    conservative, so it is not used above), and with it kappa, which has MCC's sign and at most
    its size (the delta method covered 78-80% at 2 expected positives)."""
    p_name = PROPORTION_METHODS[pmethod] + ("" if squares is None else KISH)
    tp, fp, fn, _ = m.one_vs_rest(cm)
    sq = None if squares is None else m.one_vs_rest(squares)
    f_low, f_high = f_beta_interval(tp, fp, fn, 1.0 if beta is None else beta, level=level, method=pmethod,
                                    squares=None if sq is None else sq[:3])
    delta = out["per_class", fname]
    out["per_class", fname] = ConfidenceInterval(
        float_or_array(f_low), float_or_array(f_high), level, F_BETA_METHOD[beta in (None, 1)].format(p=p_name),
        delta.estimate)  # no standard error: the limits are not made of one (as for the proportions)
    if k != 2:
        return
    cells = [cm[..., 1, 1], cm[..., 0, 1], cm[..., 1, 0], cm[..., 0, 0]]  # tp, fp, fn, tn
    cell_squares = None if squares is None else [squares[..., 1, 1], squares[..., 0, 1], squares[..., 1, 0],
                                                 squares[..., 0, 0]]
    margins = [(0, 2), (1, 3), (0, 1), (2, 3)]  # positives, negatives, predicted positive, predicted negative
    cases = [cells[i] + cells[j] if cell_squares is None
             else kish_counts(0.0, cells[i] + cells[j], cell_squares[i] + cell_squares[j])[1] for i, j in margins]
    small = np.min(cases, axis=0) < SMALL_CLASS_CASES
    if not small.any():
        return
    b_low, b_high = mcc_bound(*cells, level=level, method=pmethod, squares=cell_squares)
    delta = out["overall", "mcc"]
    low = np.where(small, np.fmin(delta.low, b_low), delta.low)
    high = np.where(small, np.fmax(delta.high, b_high), delta.high)
    name = (f"{delta.method}, widened to the {MCC_BOUND_METHOD.format(p=p_name)} where a margin of the table "
            f"has fewer than {SMALL_CLASS_CASES} cases")
    out["overall", "mcc"] = ConfidenceInterval(float_or_array(low), float_or_array(high), level, name,
                                               delta.estimate, delta.standard_error)
    # two classes: kappa has MCC's sign and at most its size, so MCC's limits, stretched to 0, hold it
    kappa = out["overall", "kappa"]
    k_low = np.where(small, np.fmin(kappa.low, np.fmin(low, 0.0)), kappa.low)
    k_high = np.where(small, np.fmax(kappa.high, np.fmax(high, 0.0)), kappa.high)
    out["overall", "kappa"] = ConfidenceInterval(
        float_or_array(k_low), float_or_array(k_high), level,
        f"{kappa.method}, widened to MCC's limits and 0 where a margin of the table has fewer than "
        f"{SMALL_CLASS_CASES} cases (|kappa| <= |MCC|, same sign)", kappa.estimate, kappa.standard_error)


def mover_average(per_class: ConfidenceInterval, values: np.ndarray, weights: np.ndarray | None,
                  average: np.ndarray, level: float, *, comonotone: bool = False) -> ConfidenceInterval:
    """An average of per-class proportions sum_i w_i p_i by MOVER (Zou & Donner 2008; Newcombe
    2011): low = average - sqrt(sum w_i^2 (p_i - l_i)^2), high = average + sqrt(sum w_i^2 (u_i -
    p_i)^2), from each class's score interval (l_i, u_i). The skew of each interval carries into
    the average, and a class at 0 or 1 still adds its width. Exact in its assumptions for the
    recalls (balanced accuracy: each from its own row) and for two classes; classes with an
    undefined value are left out and the weights (None: equal; else e.g. the supports) rescaled.
    ``comonotone=True`` adds the distances instead (sum w_i (p_i - l_i)): the limits if the
    classes' errors were perfectly correlated, as the two classes' ROC AUCs of a binary task are;
    conservative otherwise.

    Parameters
    ----------
    per_class : ConfidenceInterval
        Each class's interval, with array limits over the last axis (one entry per class).
    values : numpy.ndarray of shape (..., k)
        Each class's proportion; NaN marks a class whose value is undefined.
    weights : numpy.ndarray of shape (..., k) or None
        Weight of each class in the average; None gives equal weights.
    average : numpy.ndarray or float
        The average itself, the centre of the interval.
    level : float
        Confidence level of the per-class intervals, recorded on the result.
    comonotone : bool, default False
        Add the classes' distances to their limits instead of combining them in quadrature.

    Returns
    -------
    ConfidenceInterval
        The average as ``estimate`` and its limits, clipped to [0, 1] (NaN where no class is
        defined).

    References
    ----------
    .. [1] Zou, G. Y. and Donner, A. (2008). Construction of confidence limits about effect
       measures: a general approach. Statistics in Medicine, 27(10), 1693-1702.
    .. [2] Newcombe, R. G. (2011). Propagating imprecision: combining confidence intervals from
       independent sources. Communications in Statistics - Theory and Methods, 40(17),
       3154-3180.

    Examples
    --------
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
        if comonotone:
            down = np.where(ok, w * (values - lows), 0.0).sum(axis=-1)
            up = np.where(ok, w * (highs - values), 0.0).sum(axis=-1)
        else:
            down = np.sqrt(np.where(ok, (w * (values - lows)) ** 2, 0.0).sum(axis=-1))
            up = np.sqrt(np.where(ok, (w * (highs - values)) ** 2, 0.0).sum(axis=-1))
    defined = ok.any(axis=-1) & ~np.isnan(average)
    low = np.where(defined, np.clip(average - down, 0.0, 1.0), np.nan)
    high = np.where(defined, np.clip(average + up, 0.0, 1.0), np.nan)
    how = "the average of each class's limits" if comonotone else "MOVER from each class's interval"
    return ConfidenceInterval(float_or_array(low), float_or_array(high), level,
                              f"{how} ({per_class.method})", float_or_array(average))
