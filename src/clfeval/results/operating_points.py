"""Operating points: the decision threshold that a criterion picks on one class's ranking.

:func:`find_operating_point` reads the confusion counts at every distinct threshold of a
:class:`~clfeval.statistics.rankings.BinaryRanking` (``counts_at_thresholds``: +inf, predicting nothing
positive, then every distinct score) and picks the best by a criterion. Every criterion but
min-cost with unusual costs is monotone (no worse with more true positives or fewer false
positives), so blocks of about sqrt(d) thresholds whose best corner cannot reach the best are
skipped, and the rest is searched exactly: O(sqrt(d)) plus the thresholds near the best, for d
distinct scores; only the rows searched are formed (:class:`~clfeval.results.threshold_index.ThresholdIndex`),
no array of every threshold's counts. The rule is always "predict positive where score >= threshold". Criteria:

* ``"break-even"``: precision = recall (the ranking's own :meth:`~BinaryRanking.break_even`, so
  the point agrees with the report; ``value`` is the interpolated crossing);
* ``"youden"``: max Youden's J = TPR - FPR;
* ``"closest-topleft"``: min distance from (FPR, TPR) to (0, 1);
* ``"max-fbeta"`` (``beta=``; ``"max-f1"`` is beta = 1): max F-beta;
* ``"min-cost"``: min expected cost (``costs``: (2, 2) over the label order, rows true,
  columns predicted; ``prevalence``: the positive share, or one share per label; without
  it, the data's own class mix), by :func:`clfeval.costs.expected_cost`;
* ``"recall"`` / ``"sensitivity"`` (``at=``): recall >= at, with the highest precision /
  specificity; ``"precision"``: precision >= at, highest recall; ``"specificity"``:
  specificity >= at, highest sensitivity.

Ties: values within ``1e-12 * max(1, |best|)`` of the best count as equal. The constrained criteria
then prefer the better constrained metric (so the pick is never dominated: among equal
precision the higher recall), and every criterion finally prefers the highest threshold
(fewest positive predictions). ``value`` is the criterion's own number: J, the distance, F-beta,
the expected cost, or for the constrained criteria the constrained metric achieved (e.g. the
recall reached for ``"recall"``).

>>> import numpy as np
>>> from clfeval.statistics.rankings import BinaryRanking
>>> r = BinaryRanking(np.array([0.9, 0.8, 0.6, 0.4, 0.2]), None, np.array([1, 1, 0, 1, 0], bool))
>>> p = find_operating_point(r, "youden", curve="yes")
>>> p.threshold, round(p.value, 4), (p.tp, p.fp, p.fn, p.tn)
(0.8, 0.6667, (2, 0, 1, 2))
>>> find_operating_point(r, "recall", at=1.0).threshold
0.4
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from numbers import Real
from typing import Any

import numpy as np

from clfeval.results.confusion import ConfusionMatrix
from clfeval.results.cost_curves import check_costs, expected_cost
from clfeval.formulas.measure_registry import MEASURES, resolve
from clfeval.formulas.measures import fallout, fbeta, recall
from clfeval.statistics.rankings import BinaryRanking, ThresholdCounts
from clfeval.results.threshold_index import ThresholdIndex
from clfeval.support.number_text import format_value

__all__ = ["ThresholdPoint", "find_operating_point", "CRITERIA", "binary_matrices"]

#: every criterion name :func:`find_operating_point` takes ("max-f1" is max-fbeta with beta 1)
CRITERIA = (
    "break-even", "youden", "closest-topleft", "max-fbeta", "max-f1", "min-cost",
    "recall", "sensitivity", "precision", "specificity",
)
#: the criteria that need ``at=``: {name: (constrained metric, metric maximised)}
_CONSTRAINED = {
    "recall": ("recall", "precision"),
    "sensitivity": ("recall", "specificity"),
    "precision": ("precision", "recall"),
    "specificity": ("specificity", "recall"),
}
#: the criteria undefined without negatives (they need the false positive rate)
_NEED_NEGATIVES = ("youden", "closest-topleft", "sensitivity", "specificity")
#: relative tolerance under which two criterion values count as equal (rounding noise)
TIE_TOLERANCE = 1e-12


@dataclass(frozen=True, eq=False)
class ThresholdPoint:
    """One operating point: the threshold a criterion picked, and what predicting
    ``score >= threshold`` gives there.

    ``curve`` is the class the ranking is for; ``confusion`` is the 2 x 2 matrix in the
    evaluation's label order (one-vs-rest: labels [rest, class]); ``options`` holds the
    criterion's settings (``beta``, ``at``, ``costs``, ``prevalence``).

    >>> import numpy as np
    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.array([0.9, 0.5, 0.2]), None, np.array([True, False, True]))
    >>> find_operating_point(r, "max-f1", curve="pos")
    ThresholdPoint('max-f1', curve='pos', threshold=0.2, value=0.8, tp=2, fp=1, fn=0, tn=0, precision=0.666667, recall=1, specificity=0, fpr=1, f1=0.8, accuracy=0.666667)
    """

    criterion: str
    curve: str
    threshold: float
    value: float
    confusion: ConfusionMatrix = field(repr=False)
    tp: Any
    fp: Any
    fn: Any
    tn: Any
    precision: float
    recall: float
    specificity: float
    fpr: float
    f1: float
    accuracy: float
    options: dict[str, Any] = field(default_factory=dict)

    _RATES = ("precision", "recall", "specificity", "fpr", "f1", "accuracy")

    def to_dict(self) -> dict[str, Any]:
        """Plain Python (NaN and inf kept as floats; :func:`clfeval.evaluation.json_safe` makes
        them strict JSON)."""
        return {
            "criterion": self.criterion,
            "curve": self.curve,
            "threshold": self.threshold,
            "value": self.value,
            "options": dict(self.options),
            **{k: getattr(self, k) for k in ("tp", "fp", "fn", "tn")},
            **{k: getattr(self, k) for k in self._RATES},
            "confusion": self.confusion.to_dict(),
        }

    def __repr__(self) -> str:
        # counts as the report writes supports: whole numbers in full (``:g`` made 1386940 1.38694e+06)
        counts = ", ".join(f"{k}={format_value(getattr(self, k), 6, 'support')}" for k in ("tp", "fp", "fn", "tn"))
        rates = ", ".join(f"{k}={getattr(self, k):.6g}" for k in self._RATES)
        return (
            f"ThresholdPoint({self.criterion!r}, curve={self.curve!r}, threshold={self.threshold:.6g}, "
            f"value={self.value:.6g}, {counts}, {rates})"
        )


def binary_matrices(counts: ThresholdCounts, pos_index: int = 1) -> np.ndarray:
    """(m, 2, 2) confusion tables in label order: the positive class at ``pos_index`` (0 or 1).

    >>> import numpy as np
    >>> c = ThresholdCounts(np.array([0.5]), np.array([3]), np.array([1]), np.array([2]), np.array([4]))
    >>> binary_matrices(c, 1)[0].tolist(), binary_matrices(c, 0)[0].tolist()
    ([[4, 1], [2, 3]], [[3, 2], [1, 4]])
    """
    m = counts.matrices()  # [[tn, fp], [fn, tp]]: the positive class second
    return m if pos_index == 1 else np.ascontiguousarray(m[:, ::-1, ::-1])


def _canonical(criterion: Any) -> str:
    if not isinstance(criterion, str) or criterion not in CRITERIA:
        raise ValueError(f"unknown criterion {criterion!r}; choose one of {', '.join(map(repr, CRITERIA))}.")
    return "max-fbeta" if criterion == "max-f1" else criterion


def _check_options(
    criterion: str, kind: str, beta: Any, costs: Any, prevalence: Any, at: Any, pos_index: int
) -> dict[str, Any]:
    """Validate the settings of ``kind`` (the canonical criterion); return them as options."""
    def is_number(v: Any) -> bool:
        return isinstance(v, Real) and not isinstance(v, (bool, np.bool_))

    options: dict[str, Any] = {}
    if kind == "max-fbeta":
        if not is_number(beta) or not 0 < float(beta) < math.inf:
            raise ValueError(f"beta must be a positive finite number, got {beta!r}.")
        if criterion == "max-f1" and float(beta) != 1.0:
            raise ValueError(f"'max-f1' is F-beta with beta = 1, got beta={beta!r}; use 'max-fbeta'.")
        options["beta"] = float(beta)
    elif not (is_number(beta) and float(beta) == 1.0):
        raise ValueError(f"beta applies only to 'max-fbeta' (and is 1 for 'max-f1'); got beta={beta!r} "
                         f"with {criterion!r}.")
    if kind in _CONSTRAINED:
        if at is None:
            metric = _CONSTRAINED[kind][0]
            raise ValueError(f"{criterion!r} needs at=, the {metric} to reach (a number in [0, 1]), "
                             f"e.g. operating_point({criterion!r}, at=0.9).")
        if not is_number(at) or not 0.0 <= float(at) <= 1.0:
            raise ValueError(f"at must be a number in [0, 1], got {at!r}.")
        options["at"] = float(at)
    elif at is not None:
        raise ValueError(f"at applies only to {', '.join(map(repr, _CONSTRAINED))}; got at={at!r} "
                         f"with {criterion!r}.")
    if kind == "min-cost":
        if costs is None:
            raise ValueError("'min-cost' needs costs=, a (2, 2) cost matrix in label order (rows the true "
                             "class, columns the predicted class), e.g. [[0, 1], [5, 0]].")
        options["costs"] = check_costs(costs, 2).tolist()
        options["prevalence"] = None if prevalence is None else _prevalence_shares(prevalence, pos_index).tolist()
    elif costs is not None or prevalence is not None:
        given = "costs" if costs is not None else "prevalence"
        raise ValueError(f"{given} applies only to 'min-cost'; got it with {criterion!r}.")
    return options


def _prevalence_shares(prevalence: Any, pos_index: int) -> np.ndarray:
    """Two class shares in label order from the positive share (a number) or two shares."""
    try:
        p = np.asarray(prevalence, dtype=np.float64)
    except (TypeError, ValueError):
        p = np.array(math.nan)
    if p.size == 1:
        share = float(p.reshape(-1)[0])
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"prevalence must be the positive class's share in [0, 1] or one share per "
                             f"label (summing to 1), got {prevalence!r}.")
        return np.array([1.0 - share, share] if pos_index == 1 else [share, 1.0 - share])
    return p  # two shares: checked by expected_cost


def _undefined(criterion: str, curve: str, missing: str) -> ValueError:
    return ValueError(
        f"{criterion!r} is undefined for curve {curve!r}: it has no {missing} samples, so no threshold "
        "can be chosen by it."
    )


def _tied(key: np.ndarray, best: float) -> np.ndarray:
    """Which entries of ``key`` count as equal to ``best`` (the tie tolerance)."""
    return key >= best - TIE_TOLERANCE * max(1.0, abs(best))


def _pick(keys: list[np.ndarray], candidates: np.ndarray) -> tuple[int, list[float]]:
    """Index of the best candidate: the largest first key (within the tie tolerance), then the
    largest next key among those, ...; then the lowest index (the highest threshold). Also
    returns the best value of each key (over the candidates tied on the keys before it)."""
    bests = [float(keys[0][candidates].max())]
    # a cheap first cut over all candidates: usually only a few are tied at the top
    idx = np.flatnonzero(candidates & _tied(keys[0], bests[0]))
    for key in keys[1:]:
        v = key[idx]
        bests.append(float(v.max()))
        idx = idx[_tied(v, bests[-1])]
    return int(idx[0]), bests


def _blocks(m: int) -> tuple[np.ndarray, np.ndarray]:
    """First and last index of consecutive blocks of about sqrt(m) thresholds."""
    size = max(2, math.isqrt(m))
    first = np.arange(0, m, size)
    return first, np.minimum(first + size, m) - 1


def _search(measure: Any, counts: ThresholdIndex, monotone: bool) -> tuple[int, float] | None:
    """The pick of the tie rule over every threshold, or None when no threshold is usable.

    ``measure(tp, fp, fn, tn)`` gives (value, keys, feasible or None) for count arrays. A
    ``monotone`` criterion is no worse with more true positives or fewer false positives (so
    are its keys and its feasibility). Then, as tp and fp both grow along the thresholds, no
    threshold of a block beats the block's best corner (its last tp and fn with its first fp and
    tn): blocks whose corner is already worse than some actual threshold (the block ends) are
    skipped, and the rule runs on the rest, which hold every threshold that can tie the best.
    Only the rows read are formed (:class:`~clfeval.results.threshold_index.ThresholdIndex`).
    """
    def usable(keys: list[np.ndarray], feasible: np.ndarray | None) -> np.ndarray:
        ok = ~np.isnan(keys[0])
        return ok if feasible is None else ok & feasible

    where: np.ndarray | None = None  # None: every threshold
    if monotone and len(counts) > 8:
        first, last = _blocks(len(counts))
        at_last = counts.take(last)
        _, keys, feasible = measure(at_last.tp, at_last.fp, at_last.fn, at_last.tn)
        ok = usable(keys, feasible)
        if ok.any():
            low = float(keys[0][ok].max())  # an actual value: the best is at least this
            at_first = counts.take(first)
            _, corner_keys, corner_feasible = measure(at_last.tp, at_first.fp, at_last.fn, at_first.tn)
            # two tolerances: the tie rule's, and as much again for rounding in the corner values
            hopeless = corner_keys[0] < low - 2 * TIE_TOLERANCE * max(1.0, abs(low))
            if corner_feasible is not None:
                hopeless |= ~corner_feasible
            keep = np.flatnonzero(~hopeless)
            sizes = last[keep] - first[keep] + 1
            # the kept blocks' indices, in order
            where = np.repeat(first[keep] - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))
    rows = counts.full() if where is None else counts.take(where)
    value, keys, feasible = measure(rows.tp, rows.fp, rows.fn, rows.tn)
    ok = usable(keys, feasible)
    if not ok.any():
        return None
    i, _ = _pick(keys, ok)
    return (i if where is None else int(where[i])), float(value[i])


def _check_expected_cost_defined(ranking: BinaryRanking, prevalence: Any, pos_index: int, curve: str) -> None:
    """With ``prevalence`` the expected cost needs each class's rates: both classes present."""
    n_total, p_total = ranking.totals
    if prevalence is not None and not (n_total > 0 and p_total > 0):
        raise ValueError(
            f"'min-cost' is undefined for curve {curve!r}: with prevalence= each class's rates are "
            "needed, and a class has no samples; leave prevalence out to use the data's mix."
        )


def _binary_expected_cost(
    tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray, costs: np.ndarray, prevalence: Any,
    pos_index: int,
) -> np.ndarray:
    """:func:`clfeval.costs.expected_cost` of the tables at many thresholds, from the four count
    arrays (no (m, 2, 2) tables); equal to it up to rounding."""
    n, p = 1 - pos_index, pos_index
    c = np.asarray(costs, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        if prevalence is None:
            return (tn * c[n, n] + fp * c[n, p] + fn * c[p, n] + tp * c[p, p]) / (tn + fp + fn + tp)
        shares = np.asarray(prevalence, dtype=np.float64)
        return (shares[n] * (tn * c[n, n] + fp * c[n, p]) / (tn + fp)
                + shares[p] * (fn * c[p, n] + tp * c[p, p]) / (fn + tp))


def find_operating_point(
    ranking: BinaryRanking,
    criterion: str,
    *,
    beta: float = 1.0,
    costs: Any = None,
    prevalence: Any = None,
    at: float | None = None,
    curve: str = "positive",
    labels: Any = None,
    names: list[str] | None = None,
    pos_index: int = 1,
) -> ThresholdPoint:
    """The threshold that ``criterion`` picks on ``ranking`` (see the module doc for the
    criteria and the tie rule).

    ``labels``/``names``: the two classes in the order of the result's confusion matrix and
    of ``costs`` (default ``["rest", curve]``); ``pos_index``: where the ranked class sits.
    ValueError when the criterion is undefined (no positives; no negatives for the criteria
    that need the false positive rate) or no threshold meets ``at`` (the message gives the
    best achievable value).

    >>> import numpy as np
    >>> r = BinaryRanking(np.array([0.9, 0.5, 0.2]), None, np.array([True, False, True]))
    >>> p = find_operating_point(r, "min-cost", costs=[[0, 1], [5, 0]])
    >>> p.threshold, p.value
    (0.2, 0.3333333333333333)
    >>> find_operating_point(r, "precision", at=0.9).threshold
    0.9
    """
    kind = _canonical(criterion)
    if pos_index not in (0, 1):
        raise ValueError(f"pos_index must be 0 or 1, got {pos_index!r}.")
    options = _check_options(criterion, kind, beta, costs, prevalence, at, pos_index)
    if labels is None:
        rest = "rest" if curve != "rest" else "not rest"
        labels = [rest, curve] if pos_index == 1 else [curve, rest]
    if not isinstance(labels, np.ndarray):  # a list may mix "rest" with a class's own label
        labels = np.array(labels, dtype=None if all(isinstance(v, str) for v in labels) else object)
    n_total, p_total = ranking.totals
    if kind != "min-cost" and not p_total > 0:
        raise _undefined(criterion, curve, "positive")
    if kind in _NEED_NEGATIVES and not n_total > 0:
        raise _undefined(criterion, curve, "negative")

    if kind == "break-even":
        be = ranking.break_even()
        assert be is not None  # positives exist
        counts = ranking.counts_at_thresholds(np.array([be.threshold]))
        return _point(criterion, curve, counts, 0, be.value, labels, names, pos_index, options)

    counts = ThresholdIndex(ranking)  # the rows the search reads, not every threshold's
    target = options.get("at")
    monotone = True  # no worse with more true positives or fewer false positives
    if kind == "min-cost":
        c = np.asarray(options["costs"], dtype=np.float64)
        # a missed positive costs at least as much as a caught one, a false alarm as a true negative
        monotone = bool(c[pos_index, 1 - pos_index] >= c[pos_index, pos_index]
                        and c[1 - pos_index, pos_index] >= c[1 - pos_index, 1 - pos_index])
        _check_expected_cost_defined(ranking, options["prevalence"], pos_index, curve)

    def measure(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray,
                tn: np.ndarray) -> tuple[np.ndarray, list[np.ndarray], np.ndarray | None]:
        if kind == "youden":
            value = MEASURES["youden_j"].formula(tp, fp, fn, tn)
            return value, [value], None
        if kind == "closest-topleft":
            value = np.hypot(fallout(fp, tn), 1.0 - recall(tp, fn))
            return value, [-value], None
        if kind == "max-fbeta":
            value = fbeta(tp, fp, fn, options["beta"])
            return value, [value], None
        if kind == "min-cost":
            value = _binary_expected_cost(tp, fp, fn, tn, options["costs"], options["prevalence"], pos_index)
            return value, [-value], None
        constrained, maximised = _CONSTRAINED[kind]
        value = MEASURES[constrained].formula(tp, fp, fn, tn)
        best = MEASURES[maximised].formula(tp, fp, fn, tn)
        return value, [best, value], value >= target - TIE_TOLERANCE

    if kind in _CONSTRAINED:
        constrained = _CONSTRAINED[kind][0]
        every = counts.full()
        reached = measure(every.tp, every.fp, every.fn, every.tn)[0]
        if not (reached >= target - TIE_TOLERANCE).any():
            i_best = int(np.nanargmax(reached))  # the first: the highest threshold
            raise ValueError(
                f"no threshold of curve {curve!r} reaches {constrained} >= {target:g}: the best achievable "
                f"{constrained} is {reached[i_best]:.6g} (at threshold {every.thresholds[i_best]:.6g})."
            )
    found = _search(measure, counts, monotone)
    if found is None:
        raise ValueError(f"{criterion!r} is undefined at every threshold of curve {curve!r}.")
    i, value_i = found
    one = counts.take(np.array([i]))
    if kind == "min-cost":  # the reported value by the one formula of clfeval.costs
        value_i = float(expected_cost(binary_matrices(one, pos_index), options["costs"],
                                      prevalence=options["prevalence"])[0])
    return _point(criterion, curve, one, 0, value_i, labels, names, pos_index, options)


def _point(
    criterion: str, curve: str, counts: ThresholdCounts, i: int, value: float, labels: np.ndarray,
    names: list[str] | None, pos_index: int, options: dict[str, Any],
) -> ThresholdPoint:
    tp, fp, fn, tn = (a[i].item() for a in (counts.tp, counts.fp, counts.fn, counts.tn))
    one = ThresholdCounts(*(a[i:i + 1] for a in (counts.thresholds, counts.tp, counts.fp, counts.fn, counts.tn)))
    matrix = binary_matrices(one, pos_index)[0]
    # the rates of ThresholdPoint by the registry's formulas (its "fpr" is the fall-out)
    rates = {}
    for name in ThresholdPoint._RATES:
        measure = resolve(name)
        rates[name] = measure.formula(matrix) if measure.kind == "overall" else measure.formula(tp, fp, fn, tn)
    return ThresholdPoint(
        criterion=criterion,
        curve=curve,
        threshold=float(counts.thresholds[i]),
        value=float(value),
        confusion=ConfusionMatrix.from_matrix(labels, matrix, names),
        tp=tp, fp=fp, fn=fn, tn=tn,
        **{k: float(v) for k, v in rates.items()},
        options=options,
    )
