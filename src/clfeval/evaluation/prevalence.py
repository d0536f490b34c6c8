"""An Evaluation's measures at another prevalence, and its area under the PRG curve: the logic
behind :meth:`clfeval.Evaluation.at_prevalence` and :meth:`clfeval.Evaluation.prg_auc`.

>>> from clfeval import evaluate
>>> ev = evaluate([0, 0, 1, 1, 0, 1, 1, 0], y_score=[.1, .4, .35, .8, .5, .9, .7, .2], prevalence=0.1)
>>> r = ev.at_prevalence()
>>> r.prevalence, r.sample_prevalence, round(r["precision"], 4)
(0.1, 0.5, 0.25)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.formulas.prevalence import (
    PREVALENCE_MEASURES,
    measures_at_prevalence,
    pr_points_at_prevalence,
)
from clfeval.inputs.evaluate_options import check_prevalence
from clfeval.results.prevalence import AtPrevalence
from clfeval.statistics.rankings import Curve, OperatingPoint
from clfeval.stats._result import ConfidenceInterval, check_level
from clfeval.uncertainty.prevalence_intervals import (
    ap_at_prevalence_interval,
    prevalence_intervals,
    prg_auc_interval,
)

__all__ = ["at_prevalence_of", "checked_prevalence", "prevalence_entry", "prg_auc_of", "prg_entry"]


def checked_prevalence(task: str, prevalence: Any) -> float | None:
    """``prevalence`` checked for an evaluation of ``task``: None stays None; else a float in (0, 1)
    of a binary task, or a ValueError that says what is wrong and what to do.

    >>> checked_prevalence("binary", 0.3), checked_prevalence("multiclass", None)
    (0.3, None)
    >>> checked_prevalence("multiclass", 0.3)
    Traceback (most recent call last):
    ValueError: prevalence=0.3 is the positive class's share, for a binary task; this task is multiclass (evaluate one class against the rest, e.g. y_true == c, to take its prevalence).
    """
    if prevalence is None:
        return None
    value = check_prevalence(prevalence)
    if task != "binary":
        raise ValueError(f"prevalence={prevalence!r} is the positive class's share, for a binary task; this task is "
                         f"{task} (evaluate one class against the rest, e.g. y_true == c, to take its prevalence).")
    return value


def _table(ev: Any) -> tuple[float, float, float, float]:
    """(tp, fp, fn, tn) of the positive class of a binary evaluation."""
    cm = np.asarray(ev.confusion.counts, dtype=np.float64)
    i = ev.positive_index
    j = 1 - i
    return float(cm[i, i]), float(cm[j, i]), float(cm[i, j]), float(cm[j, j])


def _class_squares(ev: Any) -> tuple[float, float] | None:
    """Sums of squared weights of the positives and the negatives (weighted rows), else None."""
    if ev.sample_weight is None or ev.cases is None:
        return None
    w2 = np.asarray(ev.sample_weight, dtype=np.float64) ** 2
    pos = np.asarray(ev.cases.is_positive(ev.positive_index))
    return float(w2[pos].sum()), float(w2[~pos].sum())


def _cell_squares(ev: Any, ranking: Any) -> tuple[tuple[np.ndarray, np.ndarray], tuple[float, float]]:
    """((sums of squared weights of the negatives, of the positives) at each of the positive class's score
    cells, (cases of non-zero weight among the negatives, among the positives)) of weighted rows."""
    from clfeval.uncertainty.influence import cells_of_scores

    c = ev.positive_index
    w = np.asarray(ev.sample_weight, dtype=np.float64)
    positive = np.asarray(ev.cases.is_positive(c))
    cell = cells_of_scores(ranking, ev.cases.column(c))
    w2, d = w * w, ranking.scores.size
    squares = (np.bincount(cell[~positive], w2[~positive], d), np.bincount(cell[positive], w2[positive], d))
    nonzero = w != 0
    return squares, (float(np.count_nonzero(nonzero & ~positive)), float(np.count_nonzero(nonzero & positive)))


def at_prevalence_of(ev: Any, prevalence: Any = None, level: float | None = 0.95) -> AtPrevalence:
    """The measures of a binary Evaluation at ``prevalence`` (default: the one it was evaluated with),
    with intervals at ``level`` (None: none), AP and the PR curve at pi where it has scores (the curve
    is built when first read).

    Weighted rows: the measures' intervals take Kish's effective numbers of positives and negatives, and
    AP at pi's interval the sums of squared weights at each score of each class. A weighted stream keeps
    neither (only the weights' sums): it has the values, and no intervals (``intervals`` and
    ``ap_interval`` None)."""
    if ev.task != "binary":
        raise ValueError(f"measures at another prevalence are for a binary task; this evaluation is {ev.task} "
                         "(evaluate one class against the rest, e.g. y_true == c).")
    if prevalence is None:
        prevalence = ev.prevalence
        if prevalence is None:
            raise ValueError("at_prevalence() needs a prevalence: pass prevalence=pi (0 < pi < 1), or evaluate(..., "
                             "prevalence=pi).")
    pi = check_prevalence(prevalence)
    tp, fp, fn, tn = _table(ev)
    p, n = tp + fn, fp + tn
    beta = 1.0 if ev.beta is None else float(ev.beta)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = tp / p if p > 0 else float("nan")
        f = fp / n if n > 0 else float("nan")
    raw = measures_at_prevalence(t, f, pi, beta)
    keys = [k if k != "f1" else f"f{beta:g}" for k in PREVALENCE_MEASURES] + ["recall", "fallout"]
    values = {k: float(raw[k]) for k in keys}
    intervals = None
    # weighted rows whose squared weights are not at hand (a weighted stream keeps only the weights' sums)
    no_squares = ev.cases is None and (ev.sample_weight is not None or ev.streamed == "weighted")
    if level is not None and not no_squares:
        level = check_level(level)
        cis = prevalence_intervals(tp, fp, fn, tn, pi, beta=beta, level=level, class_squares=_class_squares(ev))
        intervals = {k: cis[k] for k in keys}
    ap = ap_ci = curve = None
    if ev.rankings is not None:
        name, _ = ev.class_curve(None, "PR curve at a prevalence")
        ranking = ev.ranking(name)
        neg = ranking.neg  # None: one sample per score
        held = {"tps": ranking.tps, "fps": None if neg is None else ranking.fps}
        if level is not None and not no_squares:
            weights = {}
            if ev.sample_weight is not None:
                squares, cases = _cell_squares(ev, ranking)
                weights = {"squares": squares, "n_cases": cases}
            ap_ci = ap_at_prevalence_interval(neg, ranking.pos, pi, level, **weights, **held)
            ap = ap_ci.estimate
        else:
            from clfeval.formulas.prevalence import average_precision_at_prevalence

            ap = float(average_precision_at_prevalence(neg, ranking.pos, pi, **held))
        point = OperatingPoint(values["recall"], values["precision"], ev.threshold)
        label = ev.labels[ev.positive_index]

        def curve() -> Curve:
            precision, recall, thresholds = pr_points_at_prevalence(neg, ranking.pos, ranking.scores, pi)
            synthetic = np.zeros(thresholds.size, dtype=bool)
            synthetic[0] = True
            return Curve("pr", f"{name} at prevalence {pi:.4g}", recall, precision, thresholds, synthetic, ap, point,
                         label)

    return AtPrevalence(pi, p / (p + n) if p + n > 0 else float("nan"), beta, values, intervals, ap, ap_ci, curve,
                        level)


def prg_auc_of(ev: Any, curve: str | None = None, level: float = 0.95) -> ConfidenceInterval:
    """The area under the precision-recall-gain curve of one class's scores (binary: the positive
    class; otherwise ``curve`` names the class, one against the rest) with its interval."""
    name, c = ev.class_curve(curve, "PRG area")
    ranking = ev.ranking(name)
    if ev.sample_weight is None and ev.streamed != "weighted":
        return prg_auc_interval(ranking.neg, ranking.pos, check_level(level), cum_pos=ranking.tps)
    if ev.cases is None:  # a weighted stream: the cells' variance needs each case's weight
        ci = prg_auc_interval(ranking.negatives(), ranking.pos, check_level(level))
        return ConfidenceInterval(float("nan"), float("nan"), ci.level, ci.method + " (a weighted stream keeps no "
                                  "case weights: no interval)", ci.estimate, float("nan"))
    from clfeval.uncertainty.influence import cells_of_scores

    cell = cells_of_scores(ranking, ev.cases.column(c))
    w2 = np.asarray(ev.sample_weight, dtype=np.float64) ** 2
    positive = np.asarray(ev.cases.is_positive(c))
    d = ranking.scores.size
    squares = (np.bincount(cell[~positive], w2[~positive], d), np.bincount(cell[positive], w2[positive], d))
    return prg_auc_interval(ranking.negatives(), ranking.pos, check_level(level), squares=squares,
                            n_cases=ev.n_samples)


def prevalence_entry(ev: Any, level: float | None = None, max_points: int | None = 2000) -> dict[str, Any]:
    """The "at_prevalence" entry of :meth:`clfeval.Evaluation.to_dict` (empty where no prevalence is set),
    with intervals at ``level`` (to_dict's ``ci_level``; None: none)."""
    if getattr(ev, "prevalence", None) is None:
        return {}
    return {"at_prevalence": at_prevalence_of(ev, None, level).to_dict(max_points)}


def prg_entry(ev: Any, level: float | None = None) -> dict[str, Any]:
    """The "prg_auc" entry of :meth:`clfeval.Evaluation.to_dict` for a binary evaluation with scores
    ({"value": AUPRG, "interval": its interval at ``level`` or None}); empty for the other tasks.

    >>> from clfeval import evaluate
    >>> prg_entry(evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8]))
    {'prg_auc': {'value': 0.25, 'interval': None}}
    """
    if ev.task != "binary" or ev.rankings is None:
        return {}
    cache = ev.__dict__.setdefault("_prg_entry_cache", {})  # the terminal, the JSON and the page read it
    if level not in cache:
        cache[level] = _prg_entry(ev, level)
    return {"prg_auc": {**cache[level]["prg_auc"]}}


def _prg_entry(ev: Any, level: float | None) -> dict[str, Any]:
    if level is None:
        from clfeval.formulas.prg import prg_area

        name, _ = ev.class_curve(None, "PRG area")
        ranking = ev.ranking(name)
        return {"prg_auc": {"value": prg_area(ranking.neg, ranking.pos, cum_pos=ranking.tps,
                                                     cum_neg=None if ranking.neg is None else ranking.fps),
                            "interval": None}}
    ci = prg_auc_of(ev, None, level)
    return {"prg_auc": {"value": ci.estimate, "interval": ci.to_dict()}}
