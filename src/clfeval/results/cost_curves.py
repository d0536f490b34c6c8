"""Misclassification costs as formulas of counts and rankings: expected cost, Drummond and
Holte's cost curves, decision curves. The functions of labels and scores given as arrays
(``cost_curve``, ``decision_curve``, ``net_benefit``) are in :mod:`clfeval.costs`.

A cost matrix ``costs`` is (k, k) over the evaluation's label order: ``costs[i, j]`` is the cost
of predicting class j for a sample of class i (rows true, columns predicted, like the confusion
matrix). The diagonal is usually 0; negative entries are benefits.

>>> expected_cost([[50, 10], [5, 35]], [[0, 1], [5, 0]])
0.35
>>> cost_sensitive_error_rate([[50, 10], [5, 35]], [[0, 1], [5, 0]])  # 0.35 / (0.6 * 1 + 0.4 * 5)
0.1346153846153846

Over thresholds of a binary scorer (a :class:`~clfeval.statistics.rankings.BinaryRanking`):

* the **cost curve** (Drummond and Holte 2006) draws each threshold's normalised expected cost as
  a line over the probability cost PC(+) in [0, 1]; its lower envelope (the dual of the ROC convex
  hull) is the best any threshold can do at each PC (:func:`cost_curve_of`);
* the **decision curve** (Vickers and Elkin 2006) draws the net benefit of treating the samples
  whose predicted risk reaches the threshold probability pt (:func:`decision_curve_of`).

>>> import numpy as np
>>> from clfeval.statistics.rankings import BinaryRanking
>>> ranking = BinaryRanking(np.array([0.8, 0.4, 0.35, 0.1]), None, np.array([True, False, True, False]))
>>> cc = cost_curve_of(ranking)
>>> cc.envelope_pc.tolist(), cc.envelope_nec.tolist(), cc.area
([0.0, 0.5, 1.0], [0.0, 0.25, 0.0], 0.125)
>>> decision_curve_of(ranking, [0.2, 0.5]).net_benefit.tolist()
[0.4375, 0.25]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.formulas.curves import trapezoid
from clfeval.formulas.measures import fallout, ratio
from clfeval.support.read_only import read_only_array
from clfeval.support.sorted_search import first_reaching
from clfeval.inputs.score_kind import kind_of_range
from clfeval.results.threshold_index import ThresholdIndex

if TYPE_CHECKING:  # pragma: no cover
    from clfeval.statistics.rankings import BinaryRanking, ThresholdCounts

__all__ = [
    "check_costs",
    "expected_cost",
    "cost_sensitive_error_rate",
    "probability_cost",
    "normalized_expected_cost",
    "CostLine",
    "CostCurve",
    "cost_curve_of",
    "cost_curve_dict",
    "DecisionCurve",
    "DEFAULT_DECISION_THRESHOLDS",
    "decision_curve_of",
    "require_probabilities",
    "check_decision_thresholds",
]


# -- cost matrices ------------------------------------------------------------------------------


def check_costs(costs: Any, k: int, *, where: str = "costs") -> np.ndarray:
    """``costs`` as a finite float (k, k) array, or a ValueError saying what is wrong.

    Parameters
    ----------
    costs : array-like of shape (k, k)
        The cost matrix: ``costs[i, j]`` is the cost of predicting class j for a sample of
        class i (rows true, columns predicted, in label order).
    k : int
        The number of classes the matrix must cover.
    where : str, default="costs"
        The name the error messages give the matrix (e.g. the argument it came from).

    Returns
    -------
    numpy.ndarray of shape (k, k)
        The matrix as float64.

    Examples
    --------
    >>> check_costs([[0, 1], [5, 0]], 2).tolist()
    [[0.0, 1.0], [5.0, 0.0]]
    """
    try:
        c = np.asarray(costs, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{where} must be a ({k}, {k}) array of numbers, got {costs!r}.") from None
    if c.shape != (k, k):
        raise ValueError(
            f"{where} must be ({k}, {k}) - rows the true class, columns the predicted class, in label "
            f"order - got shape {c.shape}."
        )
    if not np.isfinite(c).all():
        i, j = np.argwhere(~np.isfinite(c))[0]
        raise ValueError(f"{where}[{i}, {j}] is {c[i, j]}; costs must be finite.")
    return c


def _check_confusion(confusion: Any) -> np.ndarray:
    cm = np.asarray(confusion, dtype=np.float64)
    if cm.ndim < 2 or cm.shape[-1] != cm.shape[-2]:
        raise ValueError(f"confusion must be (..., k, k), got shape {cm.shape}.")
    return cm


def _scalar_or_array(out: np.ndarray) -> float | np.ndarray:
    return float(out) if np.ndim(out) == 0 else out


def _expected(cm: np.ndarray, c: np.ndarray, prevalence: Any) -> np.ndarray:
    """Expected cost per sample of tables ``cm`` (..., k, k) under a checked cost matrix ``c``."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if prevalence is None:
            return (cm * c).sum(axis=(-2, -1)) / cm.sum(axis=(-2, -1))
        p = _check_prevalence(prevalence, c.shape[0])
        rates = cm / cm.sum(axis=-1, keepdims=True)
        return np.einsum("...ij,ij,i->...", rates, c, p)


def expected_cost(confusion: Any, costs: Any, *, prevalence: Any = None) -> float | np.ndarray:
    """Expected cost per sample of confusion table(s) ``(..., k, k)`` under ``costs`` (k, k).

    Without ``prevalence``: ``sum(confusion * costs) / sum(confusion)`` (the class mix of the data).
    With ``prevalence`` (k shares summing to 1): ``sum_i prevalence[i] * sum_j rate[i, j] *
    costs[i, j]``, where ``rate[i, j]`` is the share of class-i samples predicted j - the cost
    expected where the classes occur in those shares. NaN where a needed total is 0.

    Parameters
    ----------
    confusion : array-like of shape (..., k, k)
        One confusion table, or a stack of them: counts (or weights), rows the true class,
        columns the predicted one.
    costs : array-like of shape (k, k)
        The cost of predicting class j for a sample of class i, same layout; negative entries
        are benefits.
    prevalence : array-like of shape (k,) or float, default=None
        The class shares to weigh the rows by (for two classes, the positive class's share alone
        will do); None uses the class mix of the tables themselves.

    Returns
    -------
    float or numpy.ndarray
        The expected cost per sample: a float for one table, an array of shape ``(...)`` for a
        stack.

    Examples
    --------
    >>> expected_cost([[50, 10], [5, 35]], [[0, 1], [5, 0]])
    0.35
    >>> expected_cost([[50, 10], [5, 35]], [[0, 1], [5, 0]], prevalence=[0.9, 0.1])
    0.2125
    """
    cm = _check_confusion(confusion)
    c = check_costs(costs, cm.shape[-1])
    return _scalar_or_array(_expected(cm, c, prevalence))


def cost_sensitive_error_rate(confusion: Any, costs: Any, *, prevalence: Any = None) -> float | np.ndarray:
    """Expected cost of table(s) ``(..., k, k)`` as a share of the worst it could be; with 0/1
    costs, the error rate.

    Each cost is first taken relative to being right, ``regret[i, j] = costs[i, j] - costs[i, i]``
    (so a cost every class-i sample pays whatever is predicted does not count). Then::

        CSER = sum_i p_i sum_j rate[i, j] * regret[i, j]  /  sum_i p_i max_j regret[i, j]

    with ``rate[i, j]`` the share of class-i samples predicted j and ``p_i`` the class shares
    (those of the data, or ``prevalence``). The denominator is the expected regret of a classifier
    that always makes each class's most expensive prediction; the max includes j = i, so it is
    never negative. CSER is 0 for a perfect classifier and at most 1; it lies in [0, 1] when each
    diagonal entry is its row's minimum (the usual case) and can be negative when a mistake is
    cheaper than being right. NaN where the denominator is 0 (no mistake costs anything) or a
    needed total is 0. For two classes it is Drummond and Holte's normalised expected cost
    (:func:`normalized_expected_cost` at ``probability_cost(p, costs)``).

    Parameters
    ----------
    confusion : array-like of shape (..., k, k)
        One confusion table, or a stack of them: counts (or weights), rows the true class,
        columns the predicted one.
    costs : array-like of shape (k, k)
        The cost of predicting class j for a sample of class i, same layout.
    prevalence : array-like of shape (k,) or float, default=None
        The class shares ``p_i`` (for two classes, the positive class's share alone will do);
        None uses the class mix of the tables themselves.

    Returns
    -------
    float or numpy.ndarray
        The cost-sensitive error rate: a float for one table, an array of shape ``(...)`` for a
        stack.

    Examples
    --------
    >>> cost_sensitive_error_rate([[50, 10], [5, 35]], [[0, 1], [1, 0]])  # 15 errors in 100
    0.15
    >>> round(cost_sensitive_error_rate([[50, 10], [5, 35]], [[0, 1], [5, 0]], prevalence=[0.9, 0.1]), 15)
    0.151785714285714
    """
    cm = _check_confusion(confusion)
    k = cm.shape[-1]
    c = check_costs(costs, k)
    regret = c - np.diag(c)[:, None]
    worst = regret.max(axis=1)
    num = _expected(cm, regret, prevalence)
    if prevalence is None:
        rows = cm.sum(axis=-1)
        den = ratio(rows @ worst, rows.sum(axis=-1))
    else:
        den = _check_prevalence(prevalence, k) @ worst
    return _scalar_or_array(ratio(num, den))


def _check_prevalence(prevalence: Any, k: int) -> np.ndarray:
    p = np.asarray(prevalence, dtype=np.float64).reshape(-1)
    if k == 2 and p.size == 1:  # the positive class's share
        p = np.array([1.0 - p[0], p[0]])
    if p.size != k or not np.isfinite(p).all() or (p < 0).any() or not np.isclose(p.sum(), 1.0, rtol=0, atol=1e-9):
        raise ValueError(
            f"prevalence must be {k} non-negative class shares summing to 1 (or, for two classes, the "
            f"positive class's share), got {prevalence!r}."
        )
    return p


def _check_unit(values: Any, name: str, *, upper_open: bool = False) -> np.ndarray:
    """``values`` as float64 within [0, 1] (or [0, 1)), else a ValueError naming the first bad one."""
    try:
        v = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers, got {values!r}.") from None
    ok = (v >= 0) & ((v < 1) if upper_open else (v <= 1))
    if not ok.all():
        where = "" if v.ndim == 0 else f"[{', '.join(map(str, np.argwhere(~ok)[0]))}]"
        bad = v if v.ndim == 0 else v[tuple(np.argwhere(~ok)[0])]
        interval = "[0, 1)" if upper_open else "[0, 1]"
        raise ValueError(f"{name} must lie in {interval}; {name}{where} is {float(bad)!r}.")
    return v


def probability_cost(prevalence: Any, costs: Any, *, positive: int = 1) -> float | np.ndarray:
    """Drummond and Holte's probability cost PC(+) of a binary problem.

    ``PC(+) = p C(-|+) / (p C(-|+) + (1 - p) C(+|-))`` with ``p`` the positive class's prevalence
    (a number or an array), ``C(-|+)`` the cost of a false negative and ``C(+|-)`` that of a false
    positive, both taken relative to being right (``costs[pos, neg] - costs[pos, pos]`` and
    ``costs[neg, pos] - costs[neg, neg]``). ``costs`` is a (2, 2) matrix, rows true, columns
    predicted; ``positive`` is the index of the positive class in it (default 1:
    ``[[C(-|-), C(+|-)], [C(-|+), C(+|+)]]``). NaN where both terms are 0.

    Parameters
    ----------
    prevalence : float or array-like
        The positive class's share(s), in [0, 1].
    costs : array-like of shape (2, 2)
        The cost matrix, rows true, columns predicted; a mistake must cost at least as much as
        being right (else a ValueError).
    positive : {0, 1}, default=1
        Index of the positive class in ``costs``.

    Returns
    -------
    float or numpy.ndarray
        PC(+), in [0, 1]: a float for a scalar ``prevalence``, else an array of its shape.

    Examples
    --------
    >>> probability_cost(0.1, [[0, 1], [5, 0]])  # 0.1 * 5 / (0.1 * 5 + 0.9 * 1)
    0.35714285714285715
    >>> probability_cost([0.1, 0.5], [[0, 1], [5, 0]]).round(4).tolist()
    [0.3571, 0.8333]
    """
    if positive not in (0, 1):
        raise ValueError(f"positive must be 0 or 1 (the positive class's row in costs), got {positive!r}.")
    c = check_costs(costs, 2)
    neg = 1 - positive
    c_fn = c[positive, neg] - c[positive, positive]
    c_fp = c[neg, positive] - c[neg, neg]
    if c_fn < 0 or c_fp < 0:
        raise ValueError(
            f"a false negative and a false positive must cost at least as much as being right, got "
            f"C(-|+) - C(+|+) = {c_fn:g} and C(+|-) - C(-|-) = {c_fp:g}; check the cost matrix's "
            "layout (rows true, columns predicted) and positive=."
        )
    p = _check_unit(prevalence, "prevalence")
    return _scalar_or_array(ratio(p * c_fn, p * c_fn + (1 - p) * c_fp))


def normalized_expected_cost(fpr: Any, fnr: Any, pc: Any) -> float | np.ndarray:
    """Normalised expected cost ``NEC = FNR * PC + FPR * (1 - PC)`` of a classifier with false
    positive and false negative rates ``fpr``, ``fnr`` at probability cost(s) ``pc`` (broadcast).

    It is the expected cost divided by that of a classifier that is always wrong, so it lies in
    [0, 1]: 0 when perfect, ``min(PC, 1 - PC)`` for the better of always-negative and
    always-positive.

    Parameters
    ----------
    fpr : float or array-like
        False positive rate(s) of the classifier(s).
    fnr : float or array-like
        False negative rate(s), broadcast with ``fpr``.
    pc : float or array-like
        Probability cost(s) PC(+), in [0, 1] (see :func:`probability_cost`).

    Returns
    -------
    float or numpy.ndarray
        The normalised expected cost: a float when every input is a scalar, else the broadcast
        array.

    Examples
    --------
    >>> normalized_expected_cost(0.2, 0.1, [0.0, 0.5, 1.0]).tolist()
    [0.2, 0.15000000000000002, 0.1]
    """
    pc = _check_unit(pc, "pc")
    fpr = np.asarray(fpr, dtype=np.float64)
    fnr = np.asarray(fnr, dtype=np.float64)
    return _scalar_or_array(fnr * pc + fpr * (1 - pc))


# -- cost curves --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CostLine:
    """One classifier on a cost curve: the line ``NEC(PC) = fnr * PC + fpr * (1 - PC)``.

    Parameters
    ----------
    fpr : float
        The classifier's false positive rate: the line's height at PC = 0.
    fnr : float
        Its false negative rate: the line's height at PC = 1.
    threshold : float, default=None
        The score threshold whose predictions the line stands for; None when unknown.

    Examples
    --------
    >>> line = CostLine.from_counts(tp=8, fp=1, fn=2, tn=9, threshold=0.5)
    >>> line, line.nec(0.5)
    (CostLine(fpr=0.1, fnr=0.2, threshold=0.5), 0.15000000000000002)
    """

    fpr: float
    fnr: float
    threshold: float | None = None

    @classmethod
    def from_counts(cls, tp: float, fp: float, fn: float, tn: float, threshold: float | None = None) -> CostLine:
        """The line of confusion counts (NaN rates where a class has no samples)."""
        return cls(float(fallout(fp, tn)), float(ratio(fn, fn + tp)), threshold)

    @classmethod
    def at_threshold(cls, ranking: BinaryRanking, threshold: float) -> CostLine:
        """The line of predicting positive where the ranking's score >= ``threshold``."""
        c = ranking.counts_at_thresholds([threshold])
        return cls.from_counts(c.tp[0], c.fp[0], c.fn[0], c.tn[0], float(threshold))

    def nec(self, pc: Any) -> float | np.ndarray:
        """Normalised expected cost at probability cost(s) ``pc``."""
        return normalized_expected_cost(self.fpr, self.fnr, pc)

    def to_dict(self) -> dict[str, Any]:
        return {"fpr": self.fpr, "fnr": self.fnr, "threshold": self.threshold}


@dataclass(frozen=True)
class CostCurve:
    """Drummond and Holte's cost curve of a binary scorer.

    * ``fpr``, ``fnr``, ``thresholds`` (m,): one line ``NEC(PC) = fnr * PC + fpr * (1 - PC)`` per
      threshold, by decreasing threshold: +inf (always negative: the line NEC = PC), then each
      distinct score (predict positive where score >= it; the lowest is always positive: 1 - PC).
    * ``envelope_pc``, ``envelope_nec`` (s + 1,): the exact breakpoints of the lower envelope,
      from PC = 0 to PC = 1; ``envelope_lines`` (s,): the index of the line lying lowest on each
      of its s segments. Those lines are the vertices of the ROC convex hull and each inner
      breakpoint is a hull edge (the envelope is the hull's dual); a corner (0, 0) or (1, 1) whose
      hull edge is vertical or horizontal is lowest only at PC = 0 or 1 and has no segment.
    * ``area``: the area under the envelope, the expected minimum normalised cost when PC is
      uniform on [0, 1] (the trivial classifiers alone: 0.25).
    * ``operating_line``: the line of the current predictions, if known.

    Usually made by :func:`clfeval.costs.cost_curve` or :func:`cost_curve_of`; the arrays are
    stored read-only.

    Parameters
    ----------
    fpr : array-like of shape (m,)
        False positive rate of each threshold's line.
    fnr : array-like of shape (m,)
        False negative rate of each threshold's line.
    thresholds : array-like of shape (m,)
        The thresholds, decreasing from +inf.
    envelope_pc : array-like of shape (s + 1,)
        Probability costs of the lower envelope's breakpoints, from 0 to 1.
    envelope_nec : array-like of shape (s + 1,)
        Normalised expected cost of the envelope at each breakpoint.
    envelope_lines : array-like of int, shape (s,)
        Index of the line lowest on each envelope segment.
    area : float
        Area under the lower envelope.
    operating_line : CostLine, default=None
        The line of the model's own predictions; None when unknown.
    pos_label : int, float, bool or str, default=None
        The positive class (for labels; not compared by ``==``).

    Examples
    --------
    >>> from clfeval.costs import cost_curve
    >>> cc = cost_curve([0, 1, 1], [0.2, 0.7, 0.9])
    >>> cc.envelope_nec.tolist(), cc.best_threshold(0.5)
    ([0.0, 0.0], 0.7)
    >>> trivial = CostCurve([0.0, 1.0], [1.0, 0.0], [np.inf, 0.1], [0.0, 0.5, 1.0], [0.0, 0.5, 0.0], [0, 1], 0.25)
    >>> trivial.best_threshold([0.25, 0.75]).tolist(), trivial.envelope(0.25)
    ([inf, 0.1], 0.25)
    """

    fpr: np.ndarray
    fnr: np.ndarray
    thresholds: np.ndarray
    envelope_pc: np.ndarray
    envelope_nec: np.ndarray
    envelope_lines: np.ndarray
    area: float
    operating_line: CostLine | None = None
    pos_label: Any = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for name in ("fpr", "fnr", "thresholds", "envelope_pc", "envelope_nec"):
            object.__setattr__(self, name, read_only_array(getattr(self, name)))
        lines = np.array(self.envelope_lines, dtype=np.intp)
        lines.flags.writeable = False
        object.__setattr__(self, "envelope_lines", lines)
        if not (self.fnr.size == self.thresholds.size == self.fpr.size):
            raise ValueError("fpr, fnr and thresholds must have the same length.")
        if not (self.envelope_nec.size == self.envelope_pc.size == lines.size + 1):
            raise ValueError("the envelope needs one more breakpoint than it has segments.")

    def __len__(self) -> int:
        return int(self.thresholds.size)

    def __repr__(self) -> str:
        return (f"CostCurve(n_lines={len(self)}, envelope_segments={self.envelope_lines.size}, "
                f"area={self.area:.6g})")

    @property
    def hull_fpr(self) -> np.ndarray:
        """False positive rates of the ROC convex hull's vertices (the envelope's lines)."""
        return self.fpr[self.envelope_lines]

    @property
    def hull_tpr(self) -> np.ndarray:
        """True positive rates of the ROC convex hull's vertices (the envelope's lines)."""
        return 1.0 - self.fnr[self.envelope_lines]

    def envelope(self, pc: Any) -> float | np.ndarray:
        """The lower envelope (lowest normalised expected cost of any threshold) at ``pc``."""
        pc = _check_unit(pc, "pc")
        return _scalar_or_array(np.interp(pc, self.envelope_pc, self.envelope_nec))

    @staticmethod
    def trivial_envelope(pc: Any) -> float | np.ndarray:
        """``min(PC, 1 - PC)``: the better of always-negative (NEC = PC) and always-positive."""
        pc = _check_unit(pc, "pc")
        return _scalar_or_array(np.minimum(pc, 1.0 - pc))

    def _segment(self, pc: Any) -> np.ndarray:
        pc = _check_unit(pc, "pc")
        seg = np.searchsorted(self.envelope_pc, pc, side="right") - 1
        return np.clip(seg, 0, self.envelope_lines.size - 1)

    def best_threshold(self, pc: Any) -> float | np.ndarray:
        """The threshold whose line is lowest at probability cost(s) ``pc``.

        At a breakpoint, where two lines tie, the line of the segment to its right (higher PC);
        at PC = 1, that of the last segment. +inf means "predict negative for all".
        """
        return _scalar_or_array(self.thresholds[self.envelope_lines[self._segment(pc)]])

    def line(self, index: int) -> CostLine:
        """Line ``index`` as a :class:`CostLine`."""
        return CostLine(float(self.fpr[index]), float(self.fnr[index]), float(self.thresholds[index]))

    def line_subset(self, max_lines: int) -> np.ndarray:
        """Indices (increasing) of at most ``max_lines`` lines: both trivial ones, the envelope's
        (all of them, even if they alone are more) and others spread evenly along the ROC curve
        (by FPR + TPR).

        >>> from clfeval.costs import cost_curve
        >>> cc = cost_curve(np.arange(100) % 2, np.linspace(0, 1, 100))
        >>> len(cc), len(cc.line_subset(10)) <= 10
        (101, True)
        """
        return _line_subset(len(self), self.envelope_lines, lambda i: (self.fpr[i], self.fnr[i]), max_lines)

    def to_dict(self, max_lines: int | None = 2000) -> dict[str, Any]:
        """Plain-Python form; the lines thinned to ``max_lines`` (see :meth:`line_subset`; None:
        all). The envelope is always exact. The always-negative line's threshold is +inf
        (:func:`clfeval.evaluation.json_safe` writes it as "inf" for JSON). :func:`cost_curve_dict`
        gives the same from a ranking without building every line."""
        keep = np.arange(len(self)) if max_lines is None else self.line_subset(max_lines)
        return _curve_dict(self.fpr[keep], self.fnr[keep], self.thresholds[keep], len(self), self.envelope_pc,
                           self.envelope_nec, self.thresholds[self.envelope_lines], self.area, self.operating_line)


def _curve_dict(fpr: np.ndarray, fnr: np.ndarray, thresholds: np.ndarray, n_lines: int, envelope_pc: np.ndarray,
                envelope_nec: np.ndarray, envelope_thresholds: np.ndarray, area: float,
                operating_line: CostLine | None) -> dict[str, Any]:
    """The plain form of a cost curve from the lines kept and its envelope."""
    return {
        "kind": "cost",
        "fpr": fpr.tolist(),
        "fnr": fnr.tolist(),
        "thresholds": thresholds.tolist(),
        "n_lines": n_lines,
        "envelope_pc": envelope_pc.tolist(),
        "envelope_nec": envelope_nec.tolist(),
        "envelope_thresholds": envelope_thresholds.tolist(),
        "area": area,
        "operating_line": None if operating_line is None else operating_line.to_dict(),
    }


def _line_subset(m: int, envelope_lines: np.ndarray, rates: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
                 max_lines: int) -> np.ndarray:
    """:meth:`CostCurve.line_subset` of ``m`` lines whose (fpr, fnr) at index arrays ``rates`` gives."""
    if max_lines < 2:
        raise ValueError(f"max_lines must be at least 2, got {max_lines}.")
    if m <= max_lines:
        return np.arange(m)
    required = np.unique(np.concatenate([[0, m - 1], envelope_lines]))

    def walk(i: np.ndarray) -> np.ndarray:  # non-decreasing along the lines, 0 to 2
        fpr, fnr = rates(i)
        return fpr + (1.0 - fnr)

    extra = max(max_lines - required.size, 0)
    picks = first_reaching(walk, np.linspace(0.0, float(walk(np.array([m - 1]))[0]), extra + 2)[1:-1], m)
    return np.union1d(required, picks)


def _upper_hull(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of the strict vertices of the upper convex hull of points in lexicographic order
    (x, then y, non-decreasing), from the first point to the last. O(n).

    Vectorised passes first drop points on or below the chord of their neighbours (never a hull
    vertex); Andrew's monotone chain finishes what is left.

    >>> _upper_hull(np.array([0., 0., .5, .5, 1.]), np.array([0., .5, .5, 1., 1.])).tolist()
    [0, 1, 3, 4]
    """
    # exact duplicates (consecutive, as the points are ordered) would knock each other out in a
    # vectorised pass: keep the first of each run
    idx = np.flatnonzero(np.r_[True, (x[1:] != x[:-1]) | (y[1:] != y[:-1])])
    for _ in range(64):
        if idx.size <= 2:
            break
        xs, ys = x[idx], y[idx]
        cross = (xs[1:-1] - xs[:-2]) * (ys[2:] - ys[1:-1]) - (ys[1:-1] - ys[:-2]) * (xs[2:] - xs[1:-1])
        keep = np.r_[True, cross < 0, True]
        if keep.all():
            return idx
        idx = idx[keep]
    hull: list[int] = []
    xl, yl = x.tolist(), y.tolist()
    for i in idx.tolist():
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (xl[b] - xl[a]) * (yl[i] - yl[b]) - (yl[b] - yl[a]) * (xl[i] - xl[b]) >= 0:
                hull.pop()
            else:
                break
        hull.append(i)
    return np.array(hull, dtype=np.intp)


def _sorted_union(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distinct values of two integer arrays, sorted (``numpy.union1d`` without its hashing)."""
    both = np.sort(np.concatenate([a, b]))
    return both[np.r_[True, both[1:] != both[:-1]]]


def _roc_hull(fp: np.ndarray, tp: np.ndarray) -> np.ndarray:
    """:func:`_upper_hull` of the ROC points (fp, tp) at every threshold (both non-decreasing)
    (:func:`_roc_hull_of_rows` of the two arrays).

    >>> fp, tp = np.array([0, 0, 1, 1, 2, 3, 3, 4]), np.array([0, 1, 1, 2, 3, 3, 4, 4])
    >>> _roc_hull(fp, tp).tolist() == _upper_hull(fp.astype(float), tp.astype(float)).tolist()
    True
    """
    return _roc_hull_of_rows(lambda i: (fp[i], tp[i]), fp.size)


def _roc_hull_of_rows(points: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], m: int) -> np.ndarray:
    """:func:`_upper_hull` of the m ROC points (fp, tp) that ``points`` gives at index arrays (both
    non-decreasing along the indices), skipping the blocks of points that lie strictly under a first
    hull of some of them, in passes of smaller and smaller blocks; only the points looked at are read.

    The points of a block of consecutive thresholds lie in the box between its first and last
    point, so none is above the box's top-left corner (its first fp, its last tp). A block whose
    corner lies strictly under the hull of all the blocks' end points holds no point of the hull
    (a point on the hull lies at or above the hull at the corner's fp, and the corner above it), and
    the hull of what is left is the hull of all, with the same points on it. A pass over what is
    left (a subsequence, so still non-decreasing) drops more the same way.
    """
    # float weights near the top of the range: the cross products would overflow. A hull is the
    # same under a positive scaling of each axis; a power of two keeps every coordinate exact
    scales = [2.0 ** -int(np.frexp(v[-1])[1]) if v.dtype.kind == "f" and v.size and v[-1] > 2.0**500 else None
              for v in points(np.array([m - 1]))]

    def at(i: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        fp, tp = (v if s is None else v * s for v, s in zip(points(i), scales))
        return fp.astype(np.float64), tp.astype(np.float64)

    cand: np.ndarray | None = None  # the points that may lie on the hull: None, all of them
    n = m
    # blocks of 4096 points first, then blocks of what is left: each pass drops most of the
    # points the one before kept (a smooth ROC curve pokes out of a coarse hull near each vertex)
    for size in (64, 8):
        if n <= 4 * size:
            continue
        start = np.arange(0, n, size)  # the blocks' first and last positions among the candidates
        stop = np.minimum(start + size, n) - 1
        first, last = (start, stop) if cand is None else (cand[start], cand[stop])
        ends = _sorted_union(first, last)
        rough = ends[_upper_hull(*at(ends))]
        hx, hy = at(rough)
        cx, cy = at(first)[0], at(last)[1]
        # the hull edge (a, b) over each corner's x: a the last vertex with x <= the corner's
        a = np.searchsorted(hx, cx, side="right") - 1
        inside = (a >= 0) & (a < hx.size - 1)
        a = np.clip(a, 0, hx.size - 2)
        b = a + 1
        cross = (hx[b] - hx[a]) * (cy - hy[a]) - (hy[b] - hy[a]) * (cx - hx[a])
        keep = ~(inside & (cross < 0))
        sizes = stop[keep] - start[keep] + 1
        kept = np.repeat(start[keep] - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))
        cand = _sorted_union(kept if cand is None else cand[kept], rough)
        n = cand.size
    if cand is None:
        cand = np.arange(m)
    return cand[_upper_hull(*at(cand))]


def cost_curve_of(ranking: BinaryRanking, *, operating_line: CostLine | None = None,
                  pos_label: Any = None) -> CostCurve:
    """The cost curve of a binary ranking (see :class:`CostCurve`): every threshold's line and the
    exact lower envelope, computed from the ROC convex hull in O(d) for d distinct scores.

    Consecutive hull vertices (f0, t0), (f1, t1) have lines that cross at
    ``PC = (f1 - f0) / ((f1 - f0) + (t1 - t0))``; the envelope runs along vertex i's line between
    its two crossings. Needs both classes.

    Parameters
    ----------
    ranking : BinaryRanking
        The distinct scores of a binary problem with their positive and negative counts (or
        weights); a ValueError when a class is missing.
    operating_line : CostLine, default=None
        The line of the model's own predictions, stored in the result.
    pos_label : int, float, bool or str, default=None
        The positive class, stored in the result for labels.

    Returns
    -------
    CostCurve
        Every threshold's line, the exact lower envelope and its area.

    Examples
    --------
    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.array([0.8, 0.4, 0.35, 0.1]), None, np.array([True, False, True, False]))
    >>> cc = cost_curve_of(r)  # ROC hull (0, 0), (0, .5), (.5, 1), (1, 1): lines 0, 1, 3, 4
    >>> cc.envelope_lines.tolist(), cc.envelope_pc.tolist()  # vertical/horizontal edges: PC 0, 1
    ([1, 3], [0.0, 0.5, 1.0])
    """
    _check_both_classes(ranking)
    counts = ranking.counts_at_thresholds()
    rates = _line_rates(ThresholdIndex(ranking), counts)
    fpr, fnr = rates(None)
    bounds, nec, lines, area = _envelope(len(counts), lambda i: (fpr[i], fnr[i]),
                                         lambda i: (counts.fp[i], counts.tp[i]))
    return CostCurve(fpr, fnr, counts.thresholds, bounds, nec, lines, area, operating_line, pos_label)


def cost_curve_dict(ranking: BinaryRanking, *, operating_line: CostLine | None = None,
                    max_lines: int | None = 2000) -> dict[str, Any]:
    """``cost_curve_of(ranking, operating_line=...).to_dict(max_lines)``, equal to it, reading only
    the lines it keeps and those the envelope's search looks at (no array of every line, see
    :class:`~clfeval.results.threshold_index.ThresholdIndex`).

    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.linspace(1, 0, 1000), None, np.arange(1000) % 3 == 0)
    >>> cost_curve_dict(r, max_lines=20) == cost_curve_of(r).to_dict(max_lines=20)
    True
    """
    _check_both_classes(ranking)
    rows = ThresholdIndex(ranking)
    if max_lines is None or len(rows) <= max_lines:
        return cost_curve_of(ranking, operating_line=operating_line).to_dict(max_lines)
    rates = _line_rates(rows, None)
    bounds, nec, lines, area = _envelope(len(rows), rates, rows.fp_tp)
    keep = _line_subset(len(rows), lines, rates, max_lines)
    fpr, fnr = rates(keep)
    return _curve_dict(fpr, fnr, rows.take(keep).thresholds, len(rows), bounds, nec, rows.take(lines).thresholds,
                       area, operating_line)


def _check_both_classes(ranking: BinaryRanking) -> None:
    n_total, p_total = ranking.totals
    if not (n_total > 0 and p_total > 0):
        missing = "positives" if not p_total > 0 else "negatives"
        raise ValueError(f"a cost curve needs both classes, but the ranking has no {missing}.")


def _line_rates(rows: ThresholdIndex, every: ThresholdCounts | None) -> Callable[[Any], tuple[np.ndarray, np.ndarray]]:
    """(fpr, fnr) of the lines at index arrays (None: of every line, from ``every``, the full rows)."""
    first = rows.take(np.array([0]))
    if all(a.dtype.kind in "iu" for a in (first.tp, first.fp, first.fn, first.tn)):
        # fp + tn and fn + tp are the class totals at every threshold, exactly
        negatives, positives = float(first.fp[0] + first.tn[0]), float(first.fn[0] + first.tp[0])

        def rates(i: Any) -> tuple[np.ndarray, np.ndarray]:
            c = every if i is None else rows.take(i)
            return c.fp / negatives, c.fn / positives
    else:
        def rates(i: Any) -> tuple[np.ndarray, np.ndarray]:
            c = every if i is None else rows.take(i)
            return fallout(c.fp, c.tn), ratio(c.fn, c.fn + c.tp)
    return rates


def _envelope(m: int, rates: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
              points: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray,
                                                                                     np.ndarray, float]:
    """(envelope_pc, envelope_nec, envelope_lines, area) of the ``m`` lines of a ranking's thresholds,
    from their (fpr, fnr) and ROC points (fp, tp) at index arrays."""
    # the hull of (fp, tp) is that of (fpr, tpr) scaled, and exact on integer counts
    hull = _roc_hull_of_rows(points, m)
    fpr, fnr = rates(hull)
    df, dt = np.diff(fpr), np.diff(1.0 - fnr)  # along the hull: FPR and TPR
    with np.errstate(invalid="ignore", divide="ignore"):
        crossings = df / (df + dt)
    # PC rises along the hull (its slopes fall); guard against rounding of near-equal slopes
    pc = np.maximum.accumulate(np.concatenate([[0.0], np.clip(crossings, 0.0, 1.0), [1.0]]))
    nonempty = pc[1:] > pc[:-1]
    lines = hull[nonempty]
    bounds = np.concatenate([pc[:-1][nonempty], [1.0]])
    on = np.append(np.flatnonzero(nonempty), np.flatnonzero(nonempty)[-1])  # positions in the hull
    # each breakpoint's value, read off the segment starting there
    nec = fnr[on] * bounds + fpr[on] * (1.0 - bounds)
    area = trapezoid(bounds, nec)
    return bounds, nec, lines, area


# -- decision curves ----------------------------------------------------------------------------

#: Threshold probabilities of a decision curve when none are given: 0.01, 0.02, ..., 0.99.
DEFAULT_DECISION_THRESHOLDS: np.ndarray = read_only_array(np.round(np.linspace(0.01, 0.99, 99), 2))


@dataclass(frozen=True)
class DecisionCurve:
    """Vickers and Elkin's decision curve of a risk model, at threshold probabilities ``thresholds``.

    Treating the samples whose predicted risk is >= pt has net benefit
    ``NB(pt) = TP / n - FP / n * pt / (1 - pt)`` (counts or weights; n the total): a false
    positive is weighed by the odds at which one is indifferent about treating. Fields:
    ``net_benefit`` (the model), ``treat_all`` (``prevalence - (1 - prevalence) * pt / (1 - pt)``),
    ``standardized_net_benefit`` (``NB / prevalence``, 1 for a perfect model), ``prevalence``;
    ``treat_none`` is 0 everywhere.

    Usually made by :func:`clfeval.costs.decision_curve` or :func:`decision_curve_of`; the
    arrays are stored read-only.

    Parameters
    ----------
    thresholds : array-like of shape (m,)
        The threshold probabilities pt, in [0, 1).
    net_benefit : array-like of shape (m,)
        The model's net benefit at each threshold.
    treat_all : array-like of shape (m,)
        The net benefit of treating every sample, at each threshold.
    standardized_net_benefit : array-like of shape (m,)
        The model's net benefit divided by the prevalence.
    prevalence : float
        Share (by weight) of the positive class.
    pos_label : int, float, bool or str, default=None
        The positive class (for labels; not compared by ``==``).

    Examples
    --------
    >>> from clfeval.costs import decision_curve
    >>> dc = decision_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], thresholds=[0.2, 0.5])
    >>> dc.treat_all.tolist(), dc.standardized_net_benefit.tolist()
    ([0.375, 0.0], [0.875, 0.5])
    >>> DecisionCurve([0.5], [0.25], [0.0], [0.5], 0.5).interventions_avoided.tolist()
    [0.25]
    """

    thresholds: np.ndarray
    net_benefit: np.ndarray
    treat_all: np.ndarray
    standardized_net_benefit: np.ndarray
    prevalence: float
    pos_label: Any = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for name in ("thresholds", "net_benefit", "treat_all", "standardized_net_benefit"):
            object.__setattr__(self, name, read_only_array(getattr(self, name)))

    def __len__(self) -> int:
        return int(self.thresholds.size)

    def __repr__(self) -> str:
        lo, hi = (self.thresholds.min(), self.thresholds.max()) if len(self) else (np.nan, np.nan)
        return (f"DecisionCurve(n_thresholds={len(self)}, pt=[{lo:.3g}, {hi:.3g}], "
                f"prevalence={self.prevalence:.4g})")

    @property
    def treat_none(self) -> np.ndarray:
        """The net benefit of treating no one: 0 at every threshold."""
        return np.zeros(len(self))

    @property
    def interventions_avoided(self) -> np.ndarray:
        """Net reduction in interventions per sample compared with treating all,
        ``(NB - NB_all) * (1 - pt) / pt`` (NaN at pt = 0); times 100 for "per 100 patients"."""
        return ratio((self.net_benefit - self.treat_all) * (1.0 - self.thresholds), self.thresholds)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "decision",
            "thresholds": self.thresholds.tolist(),
            "net_benefit": self.net_benefit.tolist(),
            "treat_all": self.treat_all.tolist(),
            "treat_none": self.treat_none.tolist(),
            "standardized_net_benefit": self.standardized_net_benefit.tolist(),
            "prevalence": self.prevalence,
        }


def check_decision_thresholds(thresholds: Any) -> np.ndarray:
    if thresholds is None:
        return DEFAULT_DECISION_THRESHOLDS
    t = _check_unit(thresholds, "thresholds", upper_open=True)
    if t.ndim > 1:
        raise ValueError(f"thresholds must be 1-D, got shape {t.shape}.")
    return t


def decision_curve_of(ranking: BinaryRanking, thresholds: Any = None, *, pos_label: Any = None) -> DecisionCurve:
    """The decision curve of a binary ranking whose scores are predicted risks (probabilities of
    the positive class; not checked here), at ``thresholds`` in [0, 1) (default
    :data:`DEFAULT_DECISION_THRESHOLDS`: 0.01 to 0.99 by 0.01). A scalar threshold gives 1-D
    arrays of length 1.

    Parameters
    ----------
    ranking : BinaryRanking
        The distinct predicted risks of a binary problem with their positive and negative
        counts (or weights).
    thresholds : float or array-like, default=None
        Threshold probabilities in [0, 1); None for 0.01 to 0.99 by 0.01.
    pos_label : int, float, bool or str, default=None
        The positive class, stored in the result for labels.

    Returns
    -------
    DecisionCurve
        Net benefit of the model and of treating all, at each threshold.

    Examples
    --------
    >>> from clfeval.statistics.rankings import BinaryRanking
    >>> r = BinaryRanking(np.array([0.8, 0.4, 0.35, 0.1]), None, np.array([True, False, True, False]))
    >>> decision_curve_of(r, [0.0, 0.3]).net_benefit.tolist()
    [0.5, 0.39285714285714285]
    """
    t = np.atleast_1d(check_decision_thresholds(thresholds))
    counts = ranking.counts_at_thresholds(t)
    n_total, p_total = ranking.totals
    n = n_total + p_total
    odds = t / (1.0 - t)
    prevalence = p_total / n
    nb = (counts.tp - counts.fp * odds) / n
    return DecisionCurve(t, nb, prevalence - (1.0 - prevalence) * odds, ratio(nb, prevalence),
                         float(prevalence), pos_label)


def require_probabilities(ranking: BinaryRanking) -> None:
    """A ValueError unless the ranking's scores lie in [0, 1], within 1e-6 (decision curves need risks)."""
    hi, lo = float(ranking.scores[0]), float(ranking.scores[-1])
    if kind_of_range(lo, hi) != "probability":  # within 1e-6 of [0, 1]: probabilities (rounded in a file)
        raise ValueError(
            f"a decision curve needs predicted probabilities of the positive class, in [0, 1]; the scores "
            f"run from {lo:g} to {hi:g}. Decision values (decision_function, margins, logits) are "
            "not probabilities, and the threshold pt of a decision curve is a risk: use "
            "predict_proba, or calibrate the scores first (e.g. sklearn.calibration.CalibratedClassifierCV)."
        )


