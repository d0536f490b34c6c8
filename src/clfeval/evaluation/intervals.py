"""The confidence intervals of an :class:`~clfeval.evaluation.Evaluation`: every number of its
report, laid out like the report (:meth:`Evaluation.intervals <clfeval.evaluation.Evaluation.intervals>`
caches and documents them).

The counts' intervals come from :func:`clfeval.uncertainty.confusion_intervals` (per label for
multilabel, with the averages from each case's influence), the areas' from
:func:`clfeval.uncertainty.area_intervals.ranking_area_intervals` per class and from each case's influence
(:mod:`clfeval.uncertainty.influence`) for the averages over classes and for weighted cases. These functions
read the Evaluation's public fields only.

>>> import clfeval
>>> data = interval_tables(clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0]), 0.95, "analytic", 2000, 0,
...                        "cross-sectional")
>>> data["method"], sorted(data)[:3]
('analytic', ['averages', 'labels', 'level'])
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from clfeval.results.group_results import SMALL_CLASS_CASES
from clfeval.statistics import sparse_counts

__all__ = ["interval_tables", "band_of", "interval_of"]


def interval_tables(ev: Any, level: float, method: str, n_resamples: int, seed: Any, sampling: str) -> dict[str, Any]:
    """The intervals dict of :meth:`Evaluation.intervals <clfeval.evaluation.Evaluation.intervals>`
    (uncached; the arguments checked there), for the Evaluation ``ev``."""
    from clfeval.uncertainty import confusion_intervals

    weighted = ev.sample_weight is not None
    if ev.confusion.pairs is not None:  # many classes (clfeval.statistics.sparse_counts): no k x k table
        raise ValueError(
            f"confidence intervals are not available for {ev.labels.size:,} classes: they resample "
            f"the k x k confusion table, which is kept pair-coded above {sparse_counts.SPARSE_ABOVE} classes.")
    if ev.cases is None and ev.streamed is not None:
        if ev.streamed == "weighted":
            raise ValueError("intervals of weighted rows need each row's weight, which a stream does not keep; "
                             "evaluate the rows in memory (clfeval.evaluate) for intervals.")
        if ev.task != "binary" or method not in ("analytic", "delong"):
            raise ValueError("a stream keeps counts, not rows: it gives the analytic intervals of a binary "
                             "evaluation (Wilson, delta method, DeLong); for the others evaluate the rows in "
                             "memory (clfeval.evaluate).")
    if method not in ("analytic", "delong", "bootstrap", "bca"):
        raise ValueError(f"method must be 'analytic', 'delong', 'bootstrap' or 'bca', got {method!r}.")
    if weighted and method not in ("analytic", "delong"):
        raise ValueError(
            f"method={method!r} resamples counts of cases, and this evaluation has sample weights; "
            "use method='analytic' (Kish effective sizes and the delta method for weighted cases)."
        )
    table_method = "analytic" if method == "delong" else method  # "delong" changes only the ROC AUC
    if ev.task == "multilabel":
        out = _multilabel_intervals(ev, level, table_method, n_resamples, seed, sampling)
    else:
        extra = {}
        if weighted:
            extra = {"weight_squares": _weight_squares(ev), "n_cases": ev.n_samples}
        out = confusion_intervals(ev.confusion.counts, level=level, method=table_method,
                                  n_resamples=n_resamples, seed=seed, beta=ev.beta, labels=ev.names,
                                  sampling=sampling, **extra)
    out["method"] = method
    if ev.rankings is not None:
        _add_area_intervals(ev, out, level, method, n_resamples, seed, sampling)
        from clfeval.evaluation.hand_till import ovo_intervals

        out["overall"].update(ovo_intervals(ev, level, sampling))  # Hand & Till's M (multi-class): case influence
    if method in ("bootstrap", "bca") and ev.task != "multilabel":
        cases = np.asarray(ev.confusion.counts).sum(axis=1)  # an absent class has 0: its rates are the least sure
        if (cases < SMALL_CLASS_CASES).any():
            _reach_the_analytic_limits(out, interval_tables(ev, level, "analytic", n_resamples, seed, sampling))
    if ev.dependent_rows is not None:
        warnings.warn(ev.dependent_rows, UserWarning, stacklevel=4)
        out["notes"] = [*out.get("notes", []), ev.dependent_rows]
    return out


def _reach_the_analytic_limits(out: dict[str, Any], analytic: dict[str, Any]) -> None:
    """Widen every bootstrap interval of ``out`` to reach the analytic one's limits, in place. Used
    where a class has fewer than SMALL_CLASS_CASES cases: with 2 positives in 20 cases the
    bootstrap's precision, NPV, F1 and kappa held 83-87% (BCa's AUC 84-86% with 4), the analytic
    intervals 90% or more (benchmarks/coverage.py)."""
    from clfeval.stats._result import ConfidenceInterval

    def widened(b: Any, a: Any) -> Any:
        if a is None:
            return b
        low, high = np.fmin(b.low, a.low), np.fmax(b.high, a.high)
        low, high = (float(v) if np.ndim(v) == 0 else v for v in (low, high))
        return ConfidenceInterval(low, high, b.level, f"{b.method} or the analytic interval, whichever reaches "
                                  f"further (a class has fewer than {SMALL_CLASS_CASES} cases)", b.estimate,
                                  b.standard_error)

    for section in ("per_class", "overall"):
        for name, ci in out[section].items():
            out[section][name] = widened(ci, analytic[section].get(name))
    for avg, row in out["averages"].items():
        for name, ci in row.items():
            out["averages"][avg][name] = widened(ci, analytic["averages"].get(avg, {}).get(name))
    out["notes"] = [*out.get("notes", []), f"a class has fewer than {SMALL_CLASS_CASES} cases: each bootstrap "
                    "interval is widened to reach the analytic one (alone, the bootstrap's held 83-87% with 2 "
                    "positives in 20 cases in benchmarks/coverage.py)."]


def _pred_codes(ev: Any) -> np.ndarray:
    """Each case's predicted class code (binary predictions from scores: score >= threshold)."""
    cases = ev.cases
    if cases.pred is not None:
        return cases.pred
    i = cases.pos_index
    return np.where(cases.column(i) >= ev.threshold, i, 1 - i)


def _weight_squares(ev: Any) -> np.ndarray:
    """(k, k) sums of squared sample weights per confusion cell."""
    k = ev.labels.size
    cell = ev.cases.true * k + _pred_codes(ev)
    return np.bincount(cell, weights=ev.sample_weight ** 2, minlength=k * k).reshape(k, k)


def _multilabel_intervals(ev: Any, level: float, method: str, n_resamples: int, seed: Any,
                          sampling: str) -> dict[str, Any]:
    """Each label's row from its own 2 x 2 table; the averages over labels, the samples
    average and the overall numbers from each case's influence (labels share cases)."""
    from clfeval.uncertainty.influence import multilabel_influence_intervals
    from clfeval.stats._result import ConfidenceInterval
    from clfeval.uncertainty import confusion_intervals

    tables = ev.confusion.sklearn_layout()  # (L, 2, 2): [[TN, FP], [FN, TP]]
    cases = ev.cases
    if ev.sample_weight is not None:
        w2 = ev.sample_weight[:, None] ** 2
        t, p = cases.true, cases.pred
        squares = np.stack([((~t) & (~p)) * w2, ((~t) & p) * w2, (t & (~p)) * w2, (t & p) * w2]).sum(axis=1)
        squares = squares.T.reshape(-1, 2, 2)
        extra = lambda i: {"weight_squares": squares[i], "n_cases": ev.n_samples}  # noqa: E731
    else:
        extra = lambda i: {}  # noqa: E731

    def positive_rows(i: int) -> dict[str, Any]:
        d = confusion_intervals(tables[i], level=level, method=method, n_resamples=n_resamples, seed=seed,
                                beta=ev.beta, labels=["rest", "label"], sampling=sampling, **extra(i))
        return {m: ci.at(1) for m, ci in d["per_class"].items()}

    rows = [positive_rows(i) for i in range(len(tables))]
    per_class = {m: ConfidenceInterval.stacked(r[m] for r in rows) for m in rows[0]}
    averages, overall, notes = multilabel_influence_intervals(cases, tables, ev.per_sample, level, ev.beta)
    return {"level": level, "method": method, "labels": list(ev.names), "per_class": per_class,
            "averages": averages, "overall": overall, "notes": notes}


def _add_area_intervals(ev: Any, out: dict[str, Any], level: float, method: str, n_resamples: int,
                        seed: Any, sampling: str) -> None:
    """Add ROC AUC and AP intervals: per class by DeLong / bootstrap (weighted cases: from
    each case's influence), the averages over classes from each case's influence."""
    from clfeval.uncertainty.area_intervals import ranking_area_intervals
    from clfeval.uncertainty.influence import area_influences, area_interval
    from clfeval.stats._result import ConfidenceInterval

    assert ev.rankings is not None
    rankings = list(ev.rankings.values())
    weighted = ev.sample_weight is not None
    per_class: dict[str, Any] = {}
    averages: dict[str, dict[str, Any]] = {}
    positives, negatives = _cases_per_class(ev, rankings)
    for area in ("roc_auc", "average_precision"):
        # a stream (no cases) is binary and unweighted here: per class from the rankings only
        infl = {} if ev.cases is None else area_influences(ev.cases, rankings, ev.micro, area,
                                                              per_class=weighted)
        # t quantiles: (fewest cases on either side of a class) - 1, as area_intervals does
        fewest = np.minimum(positives, negatives)
        df = [max(float(f) - 1, 1.0) for f in fewest]
        df_avg = max(float(fewest[fewest > 0].min()) - 1, 1.0) if (fewest > 0).any() else None
        if weighted:
            est, u = infl["per_class"]
            cis = [area_interval(area, e, ui, level, df=d, df_name="min(P, N) - 1") for e, ui, d in zip(est, u, df)]
        else:
            cis = [ranking_area_intervals(r, level=level, method=method, n_resamples=n_resamples,
                                          seed=seed, sampling=sampling)[area] for r in rankings]
        per_class[area] = ConfidenceInterval.stacked(cis)
        for avg in ("micro", "macro", "weighted"):
            if avg in infl:
                averages.setdefault(avg, {})[area] = area_interval(area, *infl[avg], level, df=df_avg)
                if avg != "micro" and ((fewest < SMALL_CLASS_CASES).any()):
                    averages[avg][area] = _reaching_the_classes_limits(
                        averages[avg][area], per_class[area], None if avg == "macro" else _supports(ev, positives),
                        absent_left_out=ev.task == "multilabel")
    out["per_class"].update(per_class)
    for area, ci in per_class.items():
        lonely = np.isnan(np.asarray(ci.low, dtype=np.float64))
        if lonely.any():
            names = ", ".join(str(ev.labels[c]) if c < len(ev.labels) else str(c) for c in np.flatnonzero(lonely))
            kind, kinds = ("label", "labels") if ev.task == "multilabel" else ("class", "classes")
            absent = ("leave out a label absent from the sample" if ev.task == "multilabel"
                      else "have no interval where a class is absent from the sample")
            if ev.task == "binary" and area == "roc_auc":  # the averages are this AUC (see below)
                averaged = "its macro and weighted averages are this AUC and have none either"
            else:
                averaged = f"the averages over the {kinds} count its limits as 0 and 1, and {absent}"
            out["notes"] = [*out.get("notes", []), f"{area}: no interval for {kind} {names} (at most one case on "
                            f"one side of it: no spread to estimate); {averaged}."]
    if ev.cases is None:
        out["notes"] = [*out.get("notes", []), "ROC AUC and average precision averaged over classes have no "
                        "interval here: those need each row, which a stream does not keep."]
    if ev.task == "binary":
        # the two classes' ROC AUCs are one number (one ranking read both ways), so their macro and
        # weighted averages are that number, with its own interval rather than an influence one
        for avg in ("macro", "weighted"):
            if "roc_auc" in averages.get(avg, {}):
                averages[avg]["roc_auc"] = per_class["roc_auc"].at(ev.positive_index)
    for avg, d in averages.items():
        out["averages"].setdefault(avg, {}).update(d)
    if ev.task == "binary":  # the report's headline areas are the positive class's
        i = ev.positive_index
        for area, c in per_class.items():
            out["overall"][area] = c.at(i)
    else:  # multi-class and multilabel headlines are the macro averages
        for area in per_class:
            if area in averages.get("macro", {}):
                out["overall"][area] = averages["macro"][area]


def _reaching_the_classes_limits(average: Any, per_class: Any, weights: np.ndarray | None, *,
                                 absent_left_out: bool) -> Any:
    """An average of areas over classes whose influence interval is widened to the same average of
    the classes' own limits (:func:`~clfeval.uncertainty.confusion_intervals.mover_average`,
    comonotone). Used below SMALL_CLASS_CASES cases of a class: there an area at 1 leaves the
    influence no spread (in benchmarks/coverage.py, 2 positives: 62-72%), while each class's
    interval has its score bound; a binary task's two ROC AUCs are one number, whose interval
    this returns. A class without an interval of its own (one case on a side) counts with limits 0
    and 1. A class absent from the sample (no value) leaves the average without an interval: it is
    then an average over other classes than the population's; the labels of a multilabel task,
    whose averages leave out absent labels by definition, are the exception (``absent_left_out``)."""
    from clfeval.stats._result import ConfidenceInterval
    from clfeval.uncertainty.confusion_intervals import mover_average

    values = np.asarray(per_class.estimate, dtype=np.float64)
    name = f"{average.method}, widened to the average of each class's limits (fewer than {SMALL_CLASS_CASES} cases " \
           "of a class)"
    if np.isnan(values).any() and not absent_left_out:
        return ConfidenceInterval(float("nan"), float("nan"), average.level, name, average.estimate,
                                  average.standard_error)
    lows, highs = (np.asarray(v, dtype=np.float64) for v in (per_class.low, per_class.high))
    limits = ConfidenceInterval(np.where(np.isnan(lows), 0.0, lows), np.where(np.isnan(highs), 1.0, highs),
                                average.level, per_class.method, values)
    spread = mover_average(limits, values, weights, np.asarray(average.estimate), average.level, comonotone=True)
    return ConfidenceInterval(float(np.fmin(average.low, spread.low)), float(np.fmax(average.high, spread.high)),
                              average.level, name, average.estimate, average.standard_error)


def _supports(ev: Any, positives: np.ndarray) -> np.ndarray:
    """Each class's support as the weighted average counts it: its cases, or their sum of weights."""
    if ev.sample_weight is None or ev.cases is None:
        return positives
    w = np.asarray(ev.sample_weight, dtype=np.float64)
    return np.array([float(w[ev.cases.is_positive(c)].sum()) for c in range(len(positives))])


def _cases_per_class(ev: Any, rankings: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """(cases of each class, cases of the rest) per ranking: counts of cases, not sums of
    weights (zero-weight cases left out); a stream is unweighted, so its rankings count them."""
    if ev.cases is None:
        return (np.array([np.asarray(r.pos, dtype=np.float64).sum() for r in rankings]),
                np.array([np.asarray(r.negatives(), dtype=np.float64).sum() for r in rankings]))
    counted = np.ones(ev.cases.n, bool) if ev.sample_weight is None else ev.sample_weight > 0
    positives = np.array([float((ev.cases.is_positive(c) & counted).sum()) for c in range(len(rankings))])
    return positives, float(counted.sum()) - positives


def band_of(ev: Any, kind: str, curve: str | None, grid: Any, level: float, n_resamples: int, seed: Any) -> Any:
    """:meth:`Evaluation.band <clfeval.evaluation.Evaluation.band>` of the Evaluation ``ev`` (see there)."""
    from clfeval.uncertainty.area_intervals import BOOTSTRAP_MAX_SCORES
    from clfeval.uncertainty import pr_band, roc_band

    if kind not in ("roc", "pr"):
        raise ValueError(f"kind must be 'roc' or 'pr', got {kind!r}.")
    if ev.rankings is None:
        raise ValueError("this evaluation has no scores, so it has no curves: pass y_score to evaluate().")
    name = curve if curve is not None else (ev.names[ev.positive_index] if ev.task == "binary" else "micro")
    ranking = ev.ranking(name)
    if ranking is None:
        raise ValueError("the macro curve is an average of curves and has no band; pick a class or 'micro'.")
    if ranking.scores.size > BOOTSTRAP_MAX_SCORES:
        ranking = ranking.coarsened(ranking.cut_points(BOOTSTRAP_MAX_SCORES))
    make = roc_band if kind == "roc" else pr_band
    return make(ranking, grid, level=level, n_resamples=n_resamples, seed=seed)


def interval_of(ev: Any, data: dict[str, Any], metric: str, *, label: Any, average: str | None) -> Any:
    """The interval of ``metric`` (of ``label`` or of an ``average`` for a per-class measure) in the
    intervals ``data`` of the Evaluation ``ev``: :meth:`Evaluation.ci <clfeval.evaluation.Evaluation.ci>`."""
    if metric in data["overall"] and average is None and label is None:
        return data["overall"][metric]
    if metric not in data["per_class"] and (average is None or metric not in data["averages"].get(average, {})):
        known = sorted({*data["overall"], *data["per_class"]})
        raise ValueError(f"no interval for {metric!r}; the report's numbers are {known}.")
    if average is not None:
        if average not in data["averages"] or metric not in data["averages"][average]:
            raise ValueError(f"no {average!r} average of {metric!r}; averages: {sorted(data['averages'])}.")
        return data["averages"][average][metric]
    if label is None:
        if ev.task != "binary" or ev.pos_label is None:
            raise ValueError(f"{metric!r} is per class: pass label= (one of {ev.labels.tolist()}) or average=.")
        label = ev.pos_label
    matches = np.flatnonzero(ev.labels == label)
    if matches.size == 0:
        raise ValueError(f"label {label!r} is not one of {ev.labels.tolist()}.")
    return data["per_class"][metric].at(int(matches[0]))
