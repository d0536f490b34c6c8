"""ROC and precision-recall curves as an Evaluation holds them, read from score statistics.

A :class:`Curve` is one curve with its thresholds, area and the operating point of the current
predictions; a :class:`CurveSet` is the ordered family of one task (binary: the positive class;
multi-class and multilabel: one-vs-rest per class, then "micro" and "macro" averages). Points run
in order of decreasing threshold for both kinds, starting at a synthetic point (threshold +inf)
that is marked in ``synthetic``.

>>> from clfeval.statistics.scores import ScoreTable
>>> table = ScoreTable.from_labels([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
>>> roc = roc_curve_of(BinaryRanking.from_table(table, 1), name="1")
>>> roc.fpr.tolist(), roc.tpr.tolist(), roc.area
([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], 0.75)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

import numpy as np

from clfeval.formulas.curves import (
    average_precision,
    count_totals,
    cumulative_counts,
    interpolate_roc,
    precision_recall_points,
    roc_auc,
    roc_points,
)
from clfeval.formulas.measures import average
from clfeval.support.html_table import html_block, html_table
from clfeval.support.number_text import DIGITS, format_value
from clfeval.support.read_only import read_only_array
from clfeval.statistics.scores import ScoreTable
from clfeval.support.sorted_search import first_reaching

__all__ = [
    "BinaryRanking",
    "OperatingPoint",
    "ThresholdCounts",
    "BreakEvenPoint",
    "Curve",
    "CurveSet",
    "roc_curve_of",
    "pr_curve_of",
    "macro_curve",
]


def _count_at_least(decreasing: np.ndarray, value: float) -> int:
    """How many entries of a decreasing array are >= value (bisection, no temporary arrays).

    >>> _count_at_least(np.array([0.9, 0.5, 0.5, 0.2]), 0.5)
    3
    """
    lo, hi = 0, decreasing.size
    while lo < hi:
        mid = (lo + hi) // 2
        if decreasing[mid] >= value:
            lo = mid + 1
        else:
            hi = mid
    return lo


def counts_at_least(decreasing: np.ndarray, values: np.ndarray) -> np.ndarray:
    """:func:`_count_at_least` of many values at once (vectorised bisection, no copy of the array).

    >>> counts_at_least(np.array([0.9, 0.5, 0.5, 0.2]), np.array([np.inf, 0.5, 0.3, -np.inf])).tolist()
    [0, 3, 3, 4]
    """
    d = decreasing.size
    if d == 0:
        return np.zeros(values.size, dtype=np.intp)
    # the first index whose score is below the value: -score >= the next float above -value
    targets = np.nextafter(-values, np.inf)
    first = first_reaching(lambda i: -decreasing[i], targets, d)
    return np.where(-decreasing[first] >= targets, first, d).astype(np.intp)


class BinaryRanking:
    """One class against the rest: distinct scores (decreasing) with negative and positive counts.

    ``neg`` may be None when every score holds exactly one (unweighted) sample. Areas are
    computed once and kept; ``known`` gives values already known of ``totals``, ``roc_auc`` and
    ``average_precision`` (kept as given, not computed again), ``auc_of`` a ranking whose ROC AUC
    is exactly this one's (read from it when asked).

    >>> r = BinaryRanking.from_table(ScoreTable.from_labels([0, 1, 1], [0.2, 0.9, 0.2]), 1)
    >>> r.scores.tolist(), r.pos.tolist()
    ([0.9, 0.2], [1, 1])
    """

    def __init__(
        self, scores: np.ndarray, neg: np.ndarray | None, pos: np.ndarray, *, negated_of: np.ndarray | None = None,
        known: dict[str, Any] | None = None, auc_of: BinaryRanking | None = None,
    ) -> None:
        # ``negated_of``: the scores are ``-negated_of[::-1]``, formed only if someone reads them
        self._scores = scores
        self._negated_of = negated_of
        self.neg = neg
        self.pos = pos
        # a ranking whose ROC AUC is bitwise this one's (see reversed), read when asked
        self._auc_of = auc_of
        if known:
            unknown = set(known) - {"totals", "roc_auc", "average_precision"}
            if unknown:
                raise TypeError(f"known takes totals, roc_auc and average_precision, not {sorted(unknown)}.")
            self.__dict__.update(known)  # the cached properties' values

    @property
    def scores(self) -> np.ndarray:
        """Distinct scores, decreasing."""
        if self._scores is None:
            self._scores = -self._negated_of[::-1]
        return self._scores

    @classmethod
    def from_table(cls, table: ScoreTable, positive: int = -1) -> BinaryRanking:
        """Column ``positive`` of a score table against all its other columns."""
        neg, pos = table.binary_counts(positive, compact=True)
        return cls(table.scores, neg, pos)

    def __repr__(self) -> str:
        n, p = self.totals
        return f"BinaryRanking(n_scores={self.scores.size}, negatives={n:g}, positives={p:g})"

    def negatives(self) -> np.ndarray:
        """The negative counts, materialised."""
        if self.neg is None:
            return (~self.pos) if self.pos.dtype == np.bool_ else 1 - self.pos
        return self.neg

    def reversed(self) -> BinaryRanking:
        """The other class as positive, ranked by the negated score (same samples, same ties).

        With integer counts both ROC AUCs are exact ratios of the same integers: the reversed
        ranking's is bitwise this one's, and is read from it rather than summed again.

        >>> r = BinaryRanking(np.array([0.9, 0.2]), np.array([0, 1]), np.array([1, 1]))
        >>> r.reversed().scores.tolist(), r.reversed().pos.tolist(), r.reversed().roc_auc == r.roc_auc
        ([-0.2, -0.9], [1, 0], True)
        """
        exact = self.pos.dtype.kind != "f" and (self.neg is None or self.neg.dtype.kind != "f")
        auc_of = self if exact else None
        if self.neg is None:  # still one sample per score
            return BinaryRanking(None, None, self.negatives()[::-1], negated_of=self.scores, auc_of=auc_of)
        return BinaryRanking(None, self.pos[::-1], self.neg[::-1], negated_of=self.scores, auc_of=auc_of)

    @cached_property
    def totals(self) -> tuple[float, float]:
        """(total negatives, total positives)."""
        n, p = count_totals(self.neg, self.pos)
        return n.item(), p.item()

    @cached_property
    def tps(self) -> np.ndarray:
        """Cumulative positives down the ranking (true positives at each threshold)."""
        return cumulative_counts(self.pos)

    @cached_property
    def roc_auc(self) -> float:
        """Area under the ROC curve (NaN when a class is missing)."""
        if self._auc_of is not None:
            return self._auc_of.roc_auc
        # one sample per score: the area needs no cumulative counts (unless they exist already)
        tps = self.__dict__.get("tps") if self.neg is None else self.tps
        return float(roc_auc(self.neg, self.pos, tps=tps))

    @cached_property
    def average_precision(self) -> float:
        """Average precision (NaN when there are no positives, where scikit-learn says 0)."""
        if not self.totals[1] > 0:
            return float("nan")
        return float(average_precision(self.neg, self.pos, tps=self.tps))

    @cached_property
    def fps(self) -> np.ndarray:
        """Cumulative negatives down the ranking (false positives at each threshold)."""
        if self.neg is None:
            return np.arange(1, self.tps.size + 1, dtype=self.tps.dtype) - self.tps
        return cumulative_counts(self.neg)

    def _fps_at(self, idx: np.ndarray) -> np.ndarray:
        if self.neg is None:  # one sample per score: no need for the whole cumulative array
            return idx + 1 - self.tps[idx]
        return self.fps[idx]

    def cut_points(self, max_points: int) -> np.ndarray:
        """At most ``max_points`` score positions spread evenly over the ranking, the curves'
        false positives, true positives and rank (the last position always included).

        >>> r = BinaryRanking(np.linspace(1, 0, 1000), None, np.arange(1000) % 3 == 0)
        >>> cuts = r.cut_points(30)
        >>> len(cuts) <= 30, int(cuts[-1])
        (True, 999)
        """
        d = self.tps.size
        if d <= max_points:
            return np.arange(d)
        per_axis = max(1, (max_points - 1) // 3)
        n_total, p_total = self.totals
        ranks = np.linspace(0, d - 1, per_axis).astype(np.intp)
        picks = [ranks, [d - 1]]
        for total, at in ((p_total, lambda i: self.tps[i]), (n_total, self._fps_at)):
            if total > 0:
                targets = np.linspace(0, total, per_axis + 1)[1:]
                picks.append(first_reaching(at, targets, d))
        return np.unique(np.concatenate(picks).astype(np.intp))[:max_points]

    def coarsened(self, cuts: np.ndarray) -> BinaryRanking:
        """The ranking with the scores between consecutive cuts merged into the lower one.

        Its curve points are exactly the full curves' points at the cuts; its areas are kept
        from the full ranking (they are not recomputed from the coarse counts).

        >>> r = BinaryRanking(np.array([.9, .8, .7, .6]), None, np.array([True, False, True, False]))
        >>> c = r.coarsened(np.array([1, 3]))
        >>> c.scores.tolist(), c.pos.tolist(), c.neg.tolist(), c.roc_auc == r.roc_auc
        ([0.8, 0.6], [1, 1], [1, 1], True)
        """
        tps, fps = self.tps[cuts], self._fps_at(cuts)
        known = {area: getattr(self, area) for area in ("totals", "roc_auc", "average_precision")}
        return BinaryRanking(self.scores[cuts], np.diff(fps, prepend=0), np.diff(tps, prepend=0), known=known)

    def counts_at(self, threshold: float) -> tuple[Any, Any, Any, Any]:
        """(tp, fp, fn, tn) when every score >= ``threshold`` is predicted positive.

        >>> BinaryRanking(np.array([0.9, 0.5, 0.2]), None, np.array([True, False, True])).counts_at(0.5)
        (1, 1, 1, 0)
        """
        # scores decrease, so the predicted positives are a prefix
        stop = _count_at_least(self.scores, threshold)
        tp = self.tps[stop - 1].item() if stop else 0
        if self.neg is None:
            fp = stop - tp
        else:
            fp = count_totals(None, self.neg[:stop])[1].item()
        if self.pos.dtype.kind == "f" or (self.neg is not None and self.neg.dtype.kind == "f"):
            # weights: sum the rest directly, so a cell with no samples is exactly 0 (a
            # difference of totals would leave rounding residue there)
            fn = count_totals(None, self.pos[stop:])[1].item()
            tn = count_totals(None, self.negatives()[stop:])[1].item()
            return tp, fp, fn, tn
        n_total, p_total = self.totals
        return tp, fp, p_total - tp, n_total - fp

    def counts_at_thresholds(self, thresholds: Any = None) -> ThresholdCounts:
        """(tp, fp, fn, tn) at many thresholds at once, each predicting positive where score >= it.

        ``thresholds=None``: +inf (nothing predicted positive) then every distinct score, in
        decreasing order - every operating point the scores allow. Otherwise any 1-D array of
        thresholds (kept in the given order), each located by bisection: O(m log d).
        Integer counts stay integer; with weights, fn and tn are sums of the scores below the
        threshold (a cell with no samples is exactly 0).

        >>> r = BinaryRanking(np.array([0.9, 0.5, 0.2]), None, np.array([True, False, True]))
        >>> c = r.counts_at_thresholds()
        >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist(), c.fn.tolist(), c.tn.tolist()
        ([inf, 0.9, 0.5, 0.2], [0, 1, 1, 2], [0, 0, 1, 1], [2, 1, 1, 0], [1, 1, 0, 0])
        >>> r.counts_at_thresholds([0.5, 1.0]).tp.tolist()
        [1, 0]
        """
        if thresholds is None:
            return self._every_threshold_counts
        return self._threshold_counts(thresholds)

    @cached_property
    def _every_threshold_counts(self) -> ThresholdCounts:
        # kept: operating points, the sweep and the cost curve all read it (its arrays are read-only)
        return self._threshold_counts(None)

    def _threshold_counts(self, thresholds: Any) -> ThresholdCounts:
        tps = self.tps
        dtype = np.result_type(tps.dtype, self.pos.dtype if self.neg is None else self.neg.dtype, np.int64)
        if thresholds is None:
            thr = np.concatenate([[np.inf], self.scores])
            stop: Any = slice(None)  # every threshold in order
            # index = number of distinct scores predicted positive
            tp = np.empty(tps.size + 1, dtype=dtype)
            tp[0], tp[1:] = 0, tps
            if self.neg is None:  # one sample per score: fp = rank - tp, without the cumulative fps
                fp = np.arange(tp.size, dtype=dtype)
                fp -= tp
            else:
                fp = np.empty(tp.size, dtype=dtype)
                fp[0], fp[1:] = 0, self.fps
        else:
            thr = np.asarray(thresholds, dtype=np.float64)
            if thr.ndim != 1:
                raise ValueError(f"thresholds must be 1-D, got shape {thr.shape}.")
            if np.isnan(thr).any():
                raise ValueError(f"thresholds hold NaN (first at position {int(np.flatnonzero(np.isnan(thr))[0])}).")
            stop = counts_at_least(self.scores, thr)
            before = np.maximum(stop - 1, 0)
            tp = np.where(stop > 0, tps[before], 0).astype(dtype, copy=False)
            fp = np.where(stop > 0, self._fps_at(before), 0).astype(dtype, copy=False)
        if self.pos.dtype.kind == "f" or (self.neg is not None and self.neg.dtype.kind == "f"):
            pos_below = np.concatenate([np.cumsum(self.pos[::-1], dtype=np.float64)[::-1], [0.0]])
            neg_below = np.concatenate([np.cumsum(self.negatives()[::-1], dtype=np.float64)[::-1], [0.0]])
            fn, tn = pos_below[stop], neg_below[stop]
        else:
            n_total, p_total = self.totals
            fn, tn = p_total - tp, n_total - fp
        return ThresholdCounts(read_only_array(thr), read_only_array(tp, tp.dtype), read_only_array(fp, fp.dtype),
                               read_only_array(fn, np.asarray(fn).dtype), read_only_array(tn, np.asarray(tn).dtype))

    def break_even(self) -> BreakEvenPoint | None:
        """Precision-recall break-even point (None without positives).

        Precision exceeds recall exactly while fewer samples are predicted positive than there
        are positives, so the crossing is where the predicted count reaches the positive total
        (found by bisection); between two scores it is interpolated linearly on the PR curve,
        whose first point is the synthetic (recall 0, precision 1). Points ranked above the
        first positive (precision = recall = 0) are not crossings.

        >>> BinaryRanking(np.array([0.9, 0.5, 0.2]), None, np.array([True, False, True])).break_even()
        BreakEvenPoint(value=0.5, threshold=0.5, precision=0.5, recall=0.5)
        """
        _, p_total = self.totals
        if not p_total > 0:
            return None
        tps = self.tps
        if self.neg is None:  # one sample per score: the predicted count is the rank
            i = min(int(np.ceil(p_total)) - 1, tps.size - 1)

            def predicted_at(j: int) -> float:
                return float(j + 1)
        else:
            predicted = self.fps + tps
            i = min(int(np.searchsorted(predicted, p_total, side="left")), predicted.size - 1)

            def predicted_at(j: int) -> float:
                return float(predicted[j])

        def point(j: int) -> tuple[float, float]:  # (precision, recall) at score j
            tp = float(tps[j])
            return tp / predicted_at(j), tp / p_total

        p_i, r_i = point(i)
        if predicted_at(i) == p_total:
            value, j = r_i, i
        else:
            # A point with no true positive yet (precision = recall = 0) is no crossing: the
            # curve's start there is the synthetic (recall 0, precision 1).
            p_h, r_h = point(i - 1) if i > 0 and tps[i - 1] > 0 else (1.0, 0.0)
            gap_h, gap_i = p_h - r_h, p_i - r_i
            t = gap_h / (gap_h - gap_i) if gap_h != gap_i else 1.0
            value = r_h + t * (r_i - r_h)
            j = i if (t >= 0.5 or i == 0) else i - 1
        p_j, r_j = point(j)
        return BreakEvenPoint(float(value), float(self.scores[j]), p_j, r_j)


@dataclass(frozen=True)
class ThresholdCounts:
    """Confusion counts of a binary ranking at several thresholds (parallel 1-D arrays).

    ``matrices()`` gives them as (m, 2, 2) tables [[tn, fp], [fn, tp]] (rows true negative,
    positive; columns predicted), the layout of :func:`clfeval.formulas.measures` formulas.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray

    def __len__(self) -> int:
        return int(self.thresholds.size)

    def matrices(self) -> np.ndarray:
        """(m, 2, 2) confusion tables [[tn, fp], [fn, tp]], one per threshold."""
        dtype = np.result_type(self.tp, self.fp, self.fn, self.tn)
        out = np.empty((len(self), 2, 2), dtype=dtype)
        out[:, 0, 0], out[:, 0, 1], out[:, 1, 0], out[:, 1, 1] = self.tn, self.fp, self.fn, self.tp
        return out


@dataclass(frozen=True)
class OperatingPoint:
    """Where the current predictions sit on a curve: (x, y) and the threshold if there is one."""

    x: float
    y: float
    threshold: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"x": self.x, "y": self.y, "threshold": self.threshold}


@dataclass(frozen=True)
class BreakEvenPoint:
    """Precision-recall break-even point: where precision equals recall.

    ``value`` is the crossing, interpolated linearly between the two curve points around it;
    ``threshold``, ``precision`` and ``recall`` are those of the curve point nearest to it.
    """

    value: float
    threshold: float
    precision: float
    recall: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "threshold": self.threshold,
            "precision": self.precision,
            "recall": self.recall,
        }


@dataclass(frozen=True)
class Curve:
    """One ROC or PR curve: points by decreasing threshold, first point synthetic (threshold +inf).

    >>> c = Curve("roc", "pos", [0, 0.5, 1], [0, 1, 1], [np.inf, 0.7, 0.2], [True, False, False], 0.75)
    >>> c.fpr.tolist(), c.area_name
    ([0.0, 0.5, 1.0], 'ROC AUC')
    """

    kind: Literal["roc", "pr"]
    name: str
    x: np.ndarray
    y: np.ndarray
    thresholds: np.ndarray
    synthetic: np.ndarray
    area: float
    operating_point: OperatingPoint | None = None
    label: Any = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "x", read_only_array(self.x))
        object.__setattr__(self, "y", read_only_array(self.y))
        object.__setattr__(self, "thresholds", read_only_array(self.thresholds))
        object.__setattr__(self, "synthetic", read_only_array(self.synthetic, bool))
        n = self.x.size
        if not (self.y.size == self.thresholds.size == self.synthetic.size == n):
            raise ValueError("x, y, thresholds and synthetic must have the same length.")

    @property
    def area_name(self) -> str:
        """'ROC AUC' or 'AP'."""
        return "ROC AUC" if self.kind == "roc" else "AP"

    @property
    def fpr(self) -> np.ndarray:
        return self._axis("roc", self.x)

    @property
    def tpr(self) -> np.ndarray:
        return self._axis("roc", self.y)

    @property
    def recall(self) -> np.ndarray:
        return self._axis("pr", self.x)

    @property
    def precision(self) -> np.ndarray:
        return self._axis("pr", self.y)

    def _axis(self, kind: str, values: np.ndarray) -> np.ndarray:
        if self.kind != kind:
            raise AttributeError(f"a {self.kind} curve has no such axis; use x and y.")
        return values

    def __len__(self) -> int:
        return self.x.size

    def downsample(self, max_points: int = 2000) -> Curve:
        """At most ``max_points`` points, evenly spaced along the curve's length (ends kept).

        The area is unchanged (it is that of the full curve).

        >>> x = np.linspace(0, 1, 10_001)
        >>> c = Curve("roc", "a", x, np.sqrt(x), np.linspace(1, 0, x.size), np.zeros(x.size, bool), 0.6)
        >>> len(c.downsample(100)) <= 100
        True
        """
        n = self.x.size
        if n <= max_points:
            return self
        if max_points < 2:
            raise ValueError(f"max_points must be at least 2, got {max_points}.")
        x = np.nan_to_num(self.x)
        y = np.nan_to_num(self.y)
        step = np.hypot(np.diff(x), np.diff(y))
        arc = np.concatenate(([0.0], np.cumsum(step)))
        if arc[-1] <= 0:
            keep = np.unique(np.linspace(0, n - 1, max_points).round().astype(np.intp))
        else:
            # first point of each of (max_points - 2) equal slices of the arc length, + both ends
            bins = np.minimum((arc / arc[-1] * (max_points - 2)).astype(np.intp), max_points - 3)
            first = np.flatnonzero(np.diff(bins, prepend=-1))
            keep = np.unique(np.concatenate(([0], first, np.flatnonzero(self.synthetic), [n - 1])))
            keep = keep[: max_points - 1] if keep.size > max_points else keep
            if keep[-1] != n - 1:
                keep = np.append(keep[: max_points - 1], n - 1)
        return replace(
            self,
            x=self.x[keep],
            y=self.y[keep],
            thresholds=self.thresholds[keep],
            synthetic=self.synthetic[keep],
        )

    def to_dict(self, max_points: int | None = 2000) -> dict[str, Any]:
        """Plain-Python form, downsampled to ``max_points`` (None: every point)."""
        c = self if max_points is None else self.downsample(max_points)
        return {
            "kind": c.kind,
            "name": c.name,
            "x": c.x.tolist(),
            "y": c.y.tolist(),
            "thresholds": c.thresholds.tolist(),
            "synthetic": c.synthetic.tolist(),
            "area": c.area,
            "area_name": c.area_name,
            "n_points": len(self),
            "operating_point": None if c.operating_point is None else c.operating_point.to_dict(),
        }

    def __repr__(self) -> str:
        return f"Curve({self.kind!r}, {self.name!r}, n_points={len(self)}, {self.area_name}={self.area:.6g})"


class CurveSet(Mapping):
    """The curves of one task, by name: a class's curve under its display name, then averages.

    ``main`` is the curve a headline refers to: the binary positive class, else "micro".
    """

    def __init__(self, curves: dict[str, Curve], main: str) -> None:
        if main not in curves:
            raise ValueError(f"main curve {main!r} is not among {list(curves)}.")
        self._curves = dict(curves)
        self._main = main

    def __getitem__(self, name: str) -> Curve:
        try:
            return self._curves[name]
        except KeyError:
            raise KeyError(f"no curve named {name!r}; the curves are {list(self._curves)}.") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._curves)

    def __len__(self) -> int:
        return len(self._curves)

    @property
    def main(self) -> Curve:
        return self._curves[self._main]

    @property
    def main_name(self) -> str:
        return self._main

    def to_dict(self, max_points: int | None = 2000) -> dict[str, Any]:
        return {name: c.to_dict(max_points) for name, c in self._curves.items()}

    def __repr__(self) -> str:  # the kind, the main curve and each curve's area (4 decimals, as the report)
        areas = ", ".join(f"{n!r}: {format_value(float(c.area), DIGITS)}" for n, c in self._curves.items())
        return f"CurveSet({self.main.kind!r}, main={self._main!r}, {self.main.area_name}={{{areas}}})"

    def _repr_html_(self) -> str:  # each curve's area and operating point, as the terminal writes them
        main = self.main
        axes = "FPR, TPR" if main.kind == "roc" else "recall, precision"

        def point(p: OperatingPoint | None) -> str:
            return "" if p is None else f"{format_value(float(p.x), DIGITS)}, {format_value(float(p.y), DIGITS)}"

        rows = [[name, format_value(float(c.area), DIGITS), f"{len(c):,}", point(c.operating_point)]
                for name, c in self._curves.items()]
        table = html_table(["curve", main.area_name, "points", f"{axes} at threshold"], rows)
        return html_block("ROC curves" if main.kind == "roc" else "Precision-recall curves", table,
                          subtitle=f"(main: {self._main})",
                          notes=["at threshold = the operating point of the current predictions"])


def roc_curve_of(
    ranking: BinaryRanking,
    name: str,
    operating_point: OperatingPoint | None = None,
    label: Any = None,
) -> Curve:
    """ROC curve (scikit-learn's points, drop_intermediate=True) with its AUC."""
    fpr, tpr, thr = roc_points(ranking.neg, ranking.pos, ranking.scores, True, tps=ranking.tps)
    synthetic = np.zeros(fpr.size, dtype=bool)
    synthetic[0] = True
    return Curve("roc", name, fpr, tpr, thr, synthetic, ranking.roc_auc, operating_point, label)


def pr_curve_of(
    ranking: BinaryRanking,
    name: str,
    operating_point: OperatingPoint | None = None,
    label: Any = None,
) -> Curve:
    """Precision-recall curve (scikit-learn's points, reversed: decreasing threshold) with its AP."""
    precision, recall, thresholds = precision_recall_points(
        ranking.neg, ranking.pos, ranking.scores, tps=ranking.tps, descending=True
    )
    synthetic = np.zeros(thresholds.size, dtype=bool)
    synthetic[0] = True
    return Curve(
        "pr", name, recall, precision, thresholds, synthetic,
        ranking.average_precision, operating_point, label,
    )


def _union_with_places(arrays: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The distinct values of several increasing arrays, in order, and where each array's values
    sit in it (one stable argsort of them all: it merges the sorted runs; no searches).

    >>> grid, places = _union_with_places([np.array([0., .5, 1.]), np.array([0., .2, 1.])])
    >>> grid.tolist(), [p.tolist() for p in places]
    ([0.0, 0.2, 0.5, 1.0], [[0, 2, 3], [0, 1, 3]])
    """
    merged = np.concatenate(arrays)
    order = np.argsort(merged, kind="stable")  # timsort: merges the sorted runs
    ordered = merged[order]
    new = np.empty(merged.size, dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    place = np.empty(merged.size, dtype=np.intp)
    place[order] = np.cumsum(new) - 1
    return ordered[new], np.split(place, np.cumsum([a.size for a in arrays])[:-1])


def _first_of_each(x: np.ndarray) -> np.ndarray:
    """Index of the first entry of each run of equal values of ``x`` (non-decreasing).

    >>> _first_of_each(np.array([0.0, 0.0, 0.5, 1.0, 1.0])).tolist()
    [0, 2, 3]
    """
    first = np.empty(x.size, dtype=bool)
    first[:1] = True
    np.not_equal(x[1:], x[:-1], out=first[1:])
    return np.flatnonzero(first)


def _steps_on_grid(size: int, places: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """The step function on a grid of ``size`` values that is ``levels[j]`` from just after grid
    place ``places[j - 1]`` up to ``places[j]`` (increasing), and ``levels[-1]`` after the last:
    ``levels[np.searchsorted(values, grid)]`` for values at those places, with no index array.

    >>> _steps_on_grid(4, np.array([1, 3]), np.array([7.0, 8.0, 9.0])).tolist()
    [7.0, 7.0, 8.0, 8.0]
    """
    return np.repeat(levels, np.diff(places, prepend=-1, append=size - 1))


def _all_finite(a: np.ndarray) -> bool:
    """Whether every entry is finite: a finite sum says so at once (rates never overflow it).

    >>> _all_finite(np.array([0.0, 1.0])), _all_finite(np.array([0.0, np.nan]))
    (True, False)
    """
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isfinite(a.sum())) or bool(np.isfinite(a).all())


def macro_curve(curves: list[Curve], name: str = "macro") -> Curve:
    """Pointwise mean of several curves of one kind, on the union of their x values.

    ROC: each curve's TPR is linearly interpolated at every FPR of the union, read where the curve
    arrives at it and where it leaves it (two points where some curve steps up there), so the mean
    polyline's area is the mean of the areas. PR: each curve's
    precision is read as the step function whose area is its AP (so the mean curve's step area
    is the mean AP when every class has positives). Curves with undefined
    points (a class with no positives or no negatives) are left out. The area is the mean of
    the curves' own areas (the macro average the report shows), not the area under the mean.
    """
    usable = [c for c in curves if _all_finite(c.x) and _all_finite(c.y)]
    kind = curves[0].kind if curves else "roc"
    if not usable:
        nan = np.array([np.nan])
        return Curve(kind, name, nan, nan, nan, [False], float("nan"))
    # each curve's distinct x values (the first point at each): the grid is their union, and the
    # searches below run over them rather than over every point (a PR curve repeats each recall)
    firsts = [_first_of_each(c.x) for c in usable]
    grid, places = _union_with_places([c.x[f] for c, f in zip(usable, firsts)])
    if kind == "pr":
        mean_y = np.zeros(grid.size)
        for c, f, at in zip(usable, firsts, places):
            # precision as the step function of recall that AP integrates: at recall r, the
            # precision of the first point (by decreasing threshold) whose recall reaches r
            mean_y += _steps_on_grid(grid.size, at, np.append(c.y[f], c.y[-1]))  # past the last: the last point
        x, y = grid, mean_y / len(usable)
    else:
        # each FPR twice: the mean of the TPRs where each polyline arrives at it, then where it
        # leaves it, so that a vertical step of one class is not cut short by the next grid point
        low = np.zeros(grid.size)
        steps = np.zeros(grid.size, dtype=bool)
        for c, f, at in zip(usable, firsts, places):
            low += interpolate_roc(grid, c.x, c.y, side="low")
            # where the curve has several points at one FPR (decided by the FPRs, not by the TPRs'
            # last bits, so that sums in another order draw the same points): the grid points of
            # the FPRs that the curve holds more than once
            steps[at[np.diff(f, append=c.x.size) > 1]] = True
        # where the polylines leave: read only where some curve steps (elsewhere it is one point)
        at_steps = grid[steps]
        high = np.zeros(at_steps.size)
        for c in usable:
            high += interpolate_roc(at_steps, c.x, c.y)
        pairs = np.zeros((grid.size, 2))
        pairs[:, 0] = low
        pairs[steps, 1] = high
        keep = np.ones(2 * grid.size, dtype=bool)
        keep[1::2] = steps  # one point where no curve steps
        x, y = np.repeat(grid, 2)[keep], pairs.ravel()[keep] / len(usable)
    area = average(np.array([c.area for c in curves]))
    return Curve(kind, name, x, y, np.full(x.size, np.nan), np.zeros(x.size, bool), area)
