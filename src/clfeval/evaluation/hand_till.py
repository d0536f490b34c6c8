"""Hand & Till's M and the weighted one-vs-one AUC of a multi-class :class:`~clfeval.evaluation.Evaluation`.

Both are overall numbers of a multi-class report with scores ("ovo_auc", "ovo_auc_weighted",
named in :mod:`clfeval.formulas.measure_registry`), with intervals from each case's influence
(:mod:`clfeval.uncertainty.hand_till`) in :meth:`Evaluation.intervals
<clfeval.evaluation.Evaluation.intervals>`. A binary task's M is its ROC AUC, so its report does not
repeat it.

What they read: each case's class and scores (the Evaluation's ``cases``): the one-vs-rest rankings
alone do not suffice: a one-vs-rest ranking pools the other classes, and a pair needs class b's cases on
column a. Unweighted, :func:`clfeval.evaluate` takes the U statistics from the same sort of each column
that gives its one-vs-rest ranking (:func:`clfeval.statistics.scores.one_vs_rest_columns`, ``ev.ovo``);
the intervals, and weighted cases, read ``cases``. A stream
(:class:`~clfeval.streaming.StreamingEvaluation`, :mod:`clfeval.dask`, the command
line's ``--stream``) keeps no rows but each column's k-class cells
(:mod:`clfeval.statistics.class_cells`), which merge exactly; its Evaluation carries their U statistics
(``ev.ovo``), and both numbers are those of all the rows (integer counts: to the last bit). A binned
stream's numbers are those of the binned scores, and its notes give bounds on the unbinned scores' values
(:func:`ovo_bounds_note`: ties within a bin counted 0 and 1). A stream has no intervals of them (it
keeps no case influences). With sample weights, every pair of cases counts ``w_i w_j`` (scikit-learn
has no weighted one-vs-one AUC; unweighted, the numbers equal its ``roc_auc_score(multi_class="ovo")``).

>>> import clfeval
>>> ev = clfeval.evaluate([0, 1, 2, 1], y_score=np.eye(3)[[0, 1, 2, 0]])
>>> ovo_areas(ev)
{'ovo_auc': 0.875, 'ovo_auc_weighted': 0.859375}
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.formulas.hand_till import OVO_AVERAGES, hand_till_average

__all__ = ["ovo_areas", "ovo_bounds_note", "ovo_fit", "ovo_intervals"]


def _available(ev: Any) -> bool:
    cases = ev.cases
    return (ev.task == "multiclass" and ev.rankings is not None and cases is not None
            and cases.scores is not None and np.ndim(cases.scores) == 2)


def ovo_fit(ev: Any, influence: bool = True) -> Any:
    """The :class:`~clfeval.uncertainty.hand_till.OvoInfluence` of ``ev`` (cached on it), or None
    where there are no one-vs-one areas (not multi-class, no scores). A multi-class stream's
    (``ev.ovo``) has estimates and no influences: None when they are asked for.

    >>> import clfeval
    >>> ovo_fit(clfeval.evaluate([0, 1, 1], y_score=[0.2, 0.7, 0.9])) is None  # binary
    True
    """
    if not _available(ev):
        return _stream_fit(ev) if not influence else None
    cache = ev.__dict__.setdefault("_ovo_cache", {})  # {with influences: fit}; one with them serves both
    if True in cache:
        return cache[True]
    if not influence and getattr(ev, "ovo", None) is not None:  # U statistics built with the rankings
        if False not in cache:
            cache[False] = _stream_fit(ev)
        return cache[False]
    if influence not in cache:
        from clfeval.uncertainty.hand_till import ovo_influences

        cases = ev.cases
        cache[influence] = ovo_influences(cases.true, cases.scores, ev.labels.size, weight=cases.weight,
                                          influence=influence)
    return cache[influence]


def _stream_fit(ev: Any) -> Any:
    """The estimates-only OvoInfluence of a multi-class stream's U statistics (``ev.ovo``), or None."""
    ovo = getattr(ev, "ovo", None)
    if ovo is None or ev.task != "multiclass":
        return None
    from clfeval.uncertainty.hand_till import OvoInfluence

    estimates = {avg: hand_till_average(ovo.u, ovo.support, avg) for avg in OVO_AVERAGES}
    return OvoInfluence(ovo.u, ovo.support, ovo.support, estimates)


def ovo_bounds_note(ovo: Any) -> str:
    """The note of a binned stream: M and the weighted variant are those of the binned scores, and
    where the unbinned scores' values lie (the rows of one bin ranked every way: ties counted 0 to 1).

    >>> from clfeval.statistics.class_cells import OvoCounts
    >>> u, low, high = np.array([[2., 3.], [1., 2.]]), np.array([[2., 2.], [0., 2.]]), np.array([[2., 4.], [2., 2.]])
    >>> ovo_bounds_note(OvoCounts(u, np.array([2., 2.]), low, high))
    'Scores binned: Hand-Till AUC (ovo_auc) 0.5 and weighted OvO AUC (ovo_auc_weighted) 0.5 are of the binned scores; on the unbinned scores they lie in [0.25, 0.75] and [0.25, 0.75].'
    """
    from clfeval.formulas.measure_registry import MEASURES

    parts, ranges = [], []
    for avg, name in OVO_AVERAGES.items():
        est, lo, hi = (hand_till_average(m, ovo.support, avg) for m in (ovo.u, ovo.low, ovo.high))
        if ovo.weighted:  # float sums: their rounding (counts: exact, and IEEE operations are monotone)
            lo, hi = max(0.0, lo - 1e-12), min(1.0, hi + 1e-12)
        parts.append(f"{MEASURES[name].title} ({name}) {est:.6g}")
        ranges.append(f"[{lo:.6g}, {hi:.6g}]")
    return (f"Scores binned: {' and '.join(parts)} are of the binned scores; on the unbinned scores they "
            f"lie in {' and '.join(ranges)}.")


def ovo_areas(ev: Any) -> dict[str, float]:
    """{"ovo_auc": M, "ovo_auc_weighted": ...} of a multi-class evaluation with scores (held in
    memory, or a stream's U statistics); {} otherwise. NaN with fewer than two classes present."""
    fit = ovo_fit(ev, influence=False)
    if fit is None:
        return {}
    return {name: float(fit.estimates[avg]) for avg, name in OVO_AVERAGES.items()}


def ovo_intervals(ev: Any, level: float, sampling: str = "cross-sectional") -> dict[str, Any]:
    """{"ovo_auc": interval, "ovo_auc_weighted": interval} from each case's influence (logit
    scale, t quantile of the fewest cases of a class - 1), or {} where there are no such areas.
    ``sampling="stratified"`` (class totals fixed by design) holds the weighted variant's pair
    weights fixed; cross-sectional sampling lets them vary with the class totals (in
    ``benchmarks/ovo_coverage.py`` the two differ in the third digit of the standard error).

    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 1, 2, 0, 1, 2, 0, 1, 2, 1], y_score=np.eye(3)[[0, 1, 2, 0, 2, 2, 1, 1, 0, 1]])
    >>> ci = ovo_intervals(ev, 0.95)["ovo_auc"]
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.7708, 0.186, 0.9802)
    """
    from clfeval.uncertainty.hand_till import ovo_interval

    fit = ovo_fit(ev, influence=True)
    if fit is None:
        return {}
    out = {name: ovo_interval(fit, avg, level) for avg, name in OVO_AVERAGES.items()}
    if sampling == "stratified":
        from clfeval.uncertainty.hand_till import ovo_influences

        cases = ev.cases
        fixed = ovo_influences(cases.true, cases.scores, ev.labels.size, weight=cases.weight,
                               averages=("weighted",), fixed_shares=True)
        out["ovo_auc_weighted"] = ovo_interval(fixed, "weighted", level)
    return out
