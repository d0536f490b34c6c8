"""Smooth ECE and CORP of one calibration view, read off the statistic that already holds the
view's distinct probabilities: an Evaluation's ranking (binary), an exact
:class:`~clfeval.calibration.states.CalibrationTable` view, or the bins of a bounded
:class:`~clfeval.calibration.states.CalibrationHistogram`.

- From distinct probabilities (a ranking, an exact table, an exact stream: they merge exactly)
  both are exact: :func:`clfeval.formulas.smooth_ece.smooth_ece` and the isotonic recalibration of
  :mod:`clfeval.formulas.isotonic` need nothing but the sorted distinct probabilities with their
  outcome weights.
- From bins (a bounded histogram, or a binned stream's floored scores) each bin stands for its
  samples at one probability: the bin's mean probability (histogram), or its grid value (binned
  ranking). The isotonic fit is then over bins; as such a fit is also an isotonic fit of the exact
  probabilities (constant on each bin), the binned DSC is at most the exact one and UNC is exact.
  The smoothing moves each sample by at most its bin's width. ``grouping`` says which.

A ranking's view (:func:`view_counts_of_ranking`, a :class:`ViewCounts`) also carries the
ranking's running counts; with integer counts both are then read off them and one pass over the
probabilities (:func:`~clfeval.formulas.smooth_ece.smooth_ece_of_counts`,
:func:`~clfeval.formulas.isotonic.pav_blocks_of_counts`), with the same numbers.

The consistency band redraws outcomes at each distinct probability; above
:data:`BAND_POINTS` distinct probabilities it redraws adjacent groups of about equal weight
instead (each group's positives Binomial(its count, its mean probability): a little wider than the
per-sample draw), and says so in ``band_method``.

>>> r = corp_and_smooth_ece(np.array([0.2, 0.6, 0.9]), np.array([2, 1, 0]), np.array([0, 1, 2]),
...                         view="positive class 1", band_resamples=100)
>>> r[0]
SmoothECE(value=0.1191, bandwidth=0.1201, view='positive class 1', grouping='distinct probabilities')
>>> r[1].brier
CORPDecomposition(score='brier', value=0.1033, miscalibration=0.02, discrimination=0.1667, uncertainty=0.25)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Self

import numpy as np

from clfeval.calibration.bin_sums import BinSums
from clfeval.calibration.inputs import onto_unit_interval
from clfeval.formulas.isotonic import (
    consistency_band,
    corp_decompositions,
    pav_blocks,
    pav_blocks_of_counts,
)
from clfeval.formulas.measure_registry import MEASURES
from clfeval.formulas.smooth_ece import smooth_ece, smooth_ece_of_counts
from clfeval.stats._result import ConfidenceInterval
from clfeval.support.json_plain import nan_to_none

__all__ = [
    "BAND_POINTS",
    "CORPDecomposition",
    "CORPDiagram",
    "SmoothECE",
    "ViewCounts",
    "corp_and_smooth_ece",
    "of_view_counts",
    "view_counts_of_bins",
    "view_counts_of_ranking",
    "view_counts_of_table",
]

#: most distinct probabilities the consistency band redraws one by one
BAND_POINTS = 500
DISTINCT = "distinct probabilities"


@dataclass(frozen=True, eq=False)
class SmoothECE:
    """The smooth ECE of one view and the bandwidth it was read at.

    Parameters
    ----------
    value : float
        The smooth ECE (:mod:`clfeval.formulas.smooth_ece`); NaN with no samples.
    bandwidth : float
        The kernel bandwidth sigma where smECE_sigma = sigma (a multiple of 1/1024).
    view : str
        Which view: e.g. "positive class 1" or "top-label".
    grouping : str
        "distinct probabilities" (exact) or what the bins were (see the module notes).
    interval : ConfidenceInterval, optional
        A bootstrap interval, when one was asked for; default None.

    Examples
    --------
    >>> SmoothECE(0.05, 0.0625, "top-label", "distinct probabilities").to_dict()["value"]
    0.05
    """

    value: float
    bandwidth: float
    view: str
    grouping: str
    interval: ConfidenceInterval | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form (valid JSON)."""
        return {"value": nan_to_none(self.value), "bandwidth": nan_to_none(self.bandwidth), "view": self.view,
                "grouping": self.grouping,
                "interval": None if self.interval is None else {
                    k: nan_to_none(v) if isinstance(v, float) else v for k, v in self.interval.to_dict().items()}}

    def __repr__(self) -> str:
        ci = "" if self.interval is None else f", interval=[{self.interval.low:.4f}, {self.interval.high:.4f}]"
        return (f"SmoothECE(value={self.value:.4g}, bandwidth={self.bandwidth:.4g}, view={self.view!r}, "
                f"grouping={self.grouping!r}{ci})")


@dataclass(frozen=True)
class CORPDecomposition:
    """A mean proper score split as CORP does: ``value = miscalibration - discrimination +
    uncertainty`` (MCB - DSC + UNC; titles from the measure registry's ``corp_*`` entries).

    Parameters
    ----------
    score : {"brier", "log"}
        Which score.
    value : float
        The mean score of the probabilities.
    miscalibration : float
        MCB: the score minus that of the isotonic recalibration (>= 0).
    discrimination : float
        DSC: the base rate's score minus the recalibration's (>= 0).
    uncertainty : float
        UNC: the base rate's score.

    Examples
    --------
    >>> d = CORPDecomposition("brier", 0.18, 0.03, 0.09, 0.24)
    >>> round(d.miscalibration - d.discrimination + d.uncertainty, 12) == d.value
    True
    """

    score: str
    value: float
    miscalibration: float
    discrimination: float
    uncertainty: float

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, "value": nan_to_none(self.value),
                "miscalibration": nan_to_none(self.miscalibration),
                "discrimination": nan_to_none(self.discrimination), "uncertainty": nan_to_none(self.uncertainty)}

    def __repr__(self) -> str:
        return (f"CORPDecomposition(score={self.score!r}, value={self.value:.4g}, "
                f"miscalibration={self.miscalibration:.4g}, discrimination={self.discrimination:.4g}, "
                f"uncertainty={self.uncertainty:.4g})")

    def text(self, fmt: Any = lambda v: f"{v:.4f}") -> str:
        """One line with the registry's short names, e.g. ``MCB 0.0300 - DSC 0.0900 + UNC 0.2400``.

        >>> CORPDecomposition("brier", 0.18, 0.03, 0.09, 0.24).text()
        'MCB 0.0300 - DSC 0.0900 + UNC 0.2400'
        """
        short = [MEASURES[f"corp_{k}"].short for k in ("miscalibration", "discrimination", "uncertainty")]
        return (f"{short[0]} {fmt(self.miscalibration)} - {short[1]} {fmt(self.discrimination)} + "
                f"{short[2]} {fmt(self.uncertainty)}")


@dataclass(frozen=True, eq=False)
class CORPDiagram:
    """The CORP reliability diagram of one view: the isotonic recalibration as a curve (the first
    and last probability of each of its constant blocks, joined by straight lines as the paper
    draws it), the consistency band at the same points, and the decompositions of the Brier and
    the log score.

    Parameters
    ----------
    x : numpy.ndarray
        Probabilities where the curve's points lie (increasing).
    recalibrated : numpy.ndarray
        The recalibrated probability (observed frequency) at each.
    band_low, band_high : numpy.ndarray or None
        The consistency band at each point (None when not computed).
    band_level : float
        The band's level (default 0.9).
    band_method : str
        How the band was drawn.
    brier : CORPDecomposition
        The Brier score's decomposition.
    log : CORPDecomposition
        The log score's decomposition.
    view : str
        Which view.
    grouping : str
        "distinct probabilities" (exact) or what the bins were.

    Examples
    --------
    >>> _, d = corp_and_smooth_ece(np.array([0.1, 0.4, 0.6, 0.9]), np.array([3, 1, 2, 0]),
    ...                            np.array([0, 2, 1, 1]), view="v", band_resamples=0)
    >>> d.x.tolist(), d.recalibrated.tolist(), d.n_blocks
    ([0.1, 0.4, 0.6, 0.9], [0.0, 0.5, 0.5, 1.0], 3)
    """

    x: np.ndarray
    recalibrated: np.ndarray
    band_low: np.ndarray | None
    band_high: np.ndarray | None
    band_level: float
    band_method: str
    brier: CORPDecomposition
    log: CORPDecomposition
    view: str
    grouping: str

    @property
    def n_blocks(self) -> int:
        """Constant pieces of the recalibration."""
        r = self.recalibrated
        return int(r.size and 1 + np.count_nonzero(r[1:] != r[:-1]))

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form (valid JSON)."""
        band = None if self.band_low is None or self.band_high is None else {
            "level": self.band_level, "method": self.band_method,
            "low": self.band_low.tolist(), "high": self.band_high.tolist()}
        return {"view": self.view, "grouping": self.grouping, "x": self.x.tolist(),
                "recalibrated": self.recalibrated.tolist(), "band": band,
                "brier": self.brier.to_dict(), "log": self.log.to_dict()}

    def __repr__(self) -> str:
        return (f"CORPDiagram(view={self.view!r}, blocks={self.n_blocks}, brier: {self.brier.text()}, "
                f"log: {self.log.text()})")


def _curve(d: int, blocks: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(indices of the curve's points, their fitted values) of the fit's blocks (as pav_blocks
    gives them) over d probabilities: each block's first and last probability (one point for a
    block of one)."""
    starts, values = blocks
    ends = np.append(starts[1:], d) - 1
    idx = np.stack([starts, ends], axis=1).ravel()  # increasing; a block of one gives its index twice
    fitted = np.repeat(values, 2)
    first = np.r_[True, idx[1:] != idx[:-1]]
    return idx[first], fitted[first]


def _band(v: np.ndarray, w: np.ndarray | None, idx: np.ndarray, level: float, n: int, seed: Any,
          counts: bool, below: Any = None) -> tuple[np.ndarray, np.ndarray, str]:
    """The band at the curve's points ``idx``; ``w`` None: the weight below each position is
    ``below(positions)`` (exact running counts; one sample each: the position itself)."""
    how = f"{n} redraws of the outcomes under calibration (Bernoulli(p)), recalibrated; pointwise quantiles"
    d = v.size
    if d <= BAND_POINTS:
        w_small = np.diff(below(np.arange(d + 1))) if w is None else w
        trials = None if counts else np.ones(d)
        low, high = consistency_band(v, w_small, level=level, n_resamples=n, seed=seed, trials=trials)
        return low[idx], high[idx], how
    # adjacent distinct probabilities pooled into groups of about equal weight
    # group of each probability: floor(weight below it / total * BAND_POINTS), at most the last
    # (a hair above, so that rounding in scaled weights does not move a value across a boundary);
    # the groups' first positions by a binary search each (all at once), on the running weight
    if w is None:
        total = float(below(np.array([d]))[0])
        key = below
    else:
        running = np.cumsum(w)
        total = float(w.sum())

        def key(k: np.ndarray) -> np.ndarray:
            return running[k] - w[k]
    goal = np.arange(1, BAND_POINTS)
    lo = np.zeros(goal.size, dtype=np.intp)
    hi = np.full(goal.size, d, dtype=np.intp)
    while (lo < hi).any():
        mid = (lo + hi) // 2
        reached = key(np.minimum(mid, d - 1)).astype(np.float64) / total * BAND_POINTS + 1e-9 >= goal
        searching = lo < hi
        hi = np.where(searching & reached, mid, hi)
        lo = np.where(searching & ~reached, mid + 1, lo)
    first = np.unique(np.append(lo[lo < d], 0))
    edges = np.append(first, d)
    gw = np.add.reduceat(w, first) if w is not None else np.diff(below(edges)).astype(np.float64)
    # the groups' weighted mean probabilities (one sample each: sums of the values, read in
    # memory order when v is a reversed array)
    if w is None and v.strides[0] < 0:
        gv = np.add.reduceat(v[::-1], d - edges[:0:-1])[::-1] / gw
    else:
        gv = np.add.reduceat(v if w is None else w * v, first) / gw
    trials = None if counts else np.diff(edges).astype(np.float64)
    low, high = consistency_band(gv, gw, level=level, n_resamples=n, seed=seed, trials=trials)
    at = np.searchsorted(first, idx, side="right") - 1
    return low[at], high[at], how + f", over {first.size} groups of adjacent probabilities of about equal weight"


def corp_and_smooth_ece(
    values: np.ndarray, neg: np.ndarray, pos: np.ndarray, *, view: str, grouping: str = DISTINCT,
    band_level: float = 0.9, band_resamples: int = 200, seed: Any = 0, forecast_scores: dict[str, float] | None = None,
    above: Any = None,
) -> tuple[SmoothECE, CORPDiagram]:
    """The smooth ECE and the CORP diagram of distinct probabilities ``values`` (increasing) with
    the weight of negative and positive outcomes at each (probabilities of no weight left out).

    Parameters
    ----------
    values : numpy.ndarray of shape (D,)
        Distinct probabilities, increasing, in [0, 1].
    neg, pos : numpy.ndarray of shape (D,)
        Weight of the negative and the positive outcomes at each (``neg`` None: one sample at each
        probability, ``pos`` 0 or 1).
    view : str
        Which view they are (named in the results).
    grouping : str, default="distinct probabilities"
        What each value stands for (see the module notes).
    band_level : float, default=0.9
        Level of the consistency band.
    band_resamples : int, default=200
        Redraws for the band; 0 for no band.
    seed : int, default=0
        Seed of the band's redraws.
    forecast_scores : dict, optional
        The mean Brier and log score of these probabilities ({"brier": ..., "log": ...}) where
        already known (a calibration report's ``brier`` and ``log_loss`` of the same view), so that
        the decompositions do not sum them again.
    above : tuple (neg_above, pos_above), optional
        Integer counts of negatives and positives at or above each probability (a ranking's
        running counts, reversed; see :class:`ViewCounts`), with integer ``neg`` (None: one
        sample at each probability) and ``pos``: the sums are read off them (see
        :func:`~clfeval.formulas.smooth_ece.smooth_ece_of_counts` and
        :func:`~clfeval.formulas.isotonic.pav_blocks_of_counts`), the same numbers.

    Returns
    -------
    tuple of (SmoothECE, CORPDiagram)
        Both results of the view.

    Examples
    --------
    >>> s, d = corp_and_smooth_ece(np.array([0.3, 0.7]), np.array([1, 1]), np.array([1, 1]), view="v",
    ...                            band_resamples=0)
    >>> round(d.brier.miscalibration, 6), d.recalibrated.tolist()
    (0.04, [0.5, 0.5])
    """
    if above is not None:
        fast = _from_running(values, neg, pos, above, view, grouping, band_level, band_resamples, seed,
                             forecast_scores)
        if fast is not None:
            return fast
    if neg is None:  # one sample at each probability
        neg = 1 - np.asarray(pos, dtype=np.int64)
    v = onto_unit_interval(np.asarray(values, dtype=np.float64))
    counts = np.asarray(neg).dtype.kind in "biu" and np.asarray(pos).dtype.kind in "biu"
    n = np.asarray(neg, dtype=np.float64)
    p = np.asarray(pos, dtype=np.float64)
    top = 0.0 if counts else max(float(n.max(initial=0.0)), float(p.max(initial=0.0)))  # counts: < 2**64
    if top > 2.0**700:  # weights near the top of the float range: scaled by a power of two (exact)
        shift = int(np.frexp(top)[1]) - 700
        n, p = np.ldexp(n, -shift), np.ldexp(p, -shift)
    w = n + p
    keep = w > 0
    if not keep.all():
        v, n, p, w = v[keep], n[keep], p[keep], w[keep]
    if not counts and v.size:
        # sample weights: scaled to a mean of 1 per distinct probability, so that equal weights
        # give the unweighted numbers (smooth ECE's density floor is not scale-free)
        scale = v.size / float(w.sum())
        n, p, w = n * scale, p * scale, w * scale
    if v.size == 0:
        nan = float("nan")
        empty = np.zeros(0)
        decs = [CORPDecomposition(s, nan, nan, nan, nan) for s in ("brier", "log")]
        return (SmoothECE(nan, nan, view, grouping),
                CORPDiagram(empty, empty, None, None, band_level, "", *decs, view, grouping))
    value, sigma = smooth_ece(v, w, w * v - p)
    blocks = pav_blocks(p / w, w)
    idx, curve = _curve(v.size, blocks)
    decs = [CORPDecomposition(s, *d) for s, d in corp_decompositions(v, n, p, ("brier", "log"), blocks=blocks,
                                                                    forecast=forecast_scores).items()]
    low = high = None
    method = ""
    if band_resamples:
        low, high, method = _band(v, w, idx, band_level, band_resamples, seed, counts)
    return (SmoothECE(value, sigma, view, grouping),
            CORPDiagram(v[idx], curve, low, high, band_level, method, *decs, view, grouping))


def _from_running(
    values: np.ndarray, neg: np.ndarray | None, pos: np.ndarray, above: Any, view: str, grouping: str,
    band_level: float, band_resamples: int, seed: Any, forecast_scores: dict[str, float] | None,
) -> tuple[SmoothECE, CORPDiagram] | None:
    """:func:`corp_and_smooth_ece` from integer counts with their running counts ``above``, no
    weight or residual array formed; None where that path does not apply (float counts, a
    probability of no weight, no probabilities)."""
    v = np.asarray(values, dtype=np.float64)
    p = np.asarray(pos)
    if v.size == 0 or p.dtype.kind not in "biu" or (neg is not None and np.asarray(neg).dtype.kind not in "biu"):
        return None
    blocks = pav_blocks_of_counts(neg, p, above=above)
    if blocks is None:  # a probability of no weight (or counts near the int64 range)
        return None
    if v[0] < 0.0 or v[-1] > 1.0:  # increasing: the ends tell
        v = onto_unit_interval(v)
    value, sigma = smooth_ece_of_counts(v, neg, p, above=above)
    idx, curve = _curve(v.size, blocks)
    decs = [CORPDecomposition(s, *d) for s, d in corp_decompositions(
        v, neg, p, ("brier", "log"), blocks=blocks, forecast=forecast_scores, above=above).items()]
    low = high = None
    method = ""
    if band_resamples and neg is None:  # one sample each: the weight below position k is k
        low, high, method = _band(v, None, idx, band_level, band_resamples, seed, True,
                                  lambda k: np.asarray(k, dtype=np.int64))
    elif band_resamples:
        w = np.add(neg, p, dtype=np.float64)
        low, high, method = _band(v, w, idx, band_level, band_resamples, seed, True)
    return (SmoothECE(value, sigma, view, grouping),
            CORPDiagram(v[idx], curve, low, high, band_level, method, *decs, view, grouping))


# -- the views' distinct probabilities, from each statistic -----------------------------------------

class ViewCounts(tuple):
    """(values increasing, neg, pos) of one view, a plain tuple to unpack; a ranking's also keep
    its running counts: ``above`` = (negatives at or above each value, or None with ``one_each``;
    positives at or above each value), integer, and ``one_each``: one sample at each value
    (``neg`` is ``1 - pos``).

    >>> c = ViewCounts(np.array([0.2, 0.7]), np.array([1, 0]), np.array([0, 1]))
    >>> v, neg, pos = c
    >>> pos.tolist(), c.above, c.one_each
    ([0, 1], None, False)
    """

    above: Any
    one_each: bool

    def __new__(cls, values: np.ndarray, neg: np.ndarray, pos: np.ndarray, *, above: Any = None,
                one_each: bool = False) -> Self:
        self = super().__new__(cls, (values, neg, pos))
        self.above = above
        self.one_each = one_each
        return self


def view_counts_of_ranking(ranking: Any) -> ViewCounts:
    """(values increasing, neg, pos) of a BinaryRanking of probabilities (decreasing scores); with
    integer counts also its running counts (the ranking's cumulative counts, computed once and
    kept by the ranking), reversed."""
    pos = np.asarray(ranking.pos)
    neg = np.asarray(ranking.negatives())
    exact = pos.dtype.kind in "biu" and neg.dtype.kind in "biu"
    above = None
    if exact:
        above = (None if ranking.neg is None else ranking.fps[::-1], ranking.tps[::-1])
    if pos.dtype == np.bool_:
        pos, neg = pos.view(np.uint8), neg.view(np.uint8) if neg.dtype == np.bool_ else neg
    return ViewCounts(np.asarray(ranking.scores, dtype=np.float64)[::-1], neg[::-1], pos[::-1], above=above,
                      one_each=exact and ranking.neg is None)


def view_counts_of_table(table: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(values increasing, neg, pos) of an exact view table (two columns: negative, positive)."""
    counts = table.counts[::-1]
    return table.scores[::-1], counts[:, 0], counts[:, 1]


def view_counts_of_bins(bins: BinSums) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bin means, neg, pos) of one view's bin sums: each non-empty bin as one probability, its
    mean (bins whose means coincide are pooled)."""
    w = bins.weight
    nz = w > 0
    mean = bins.sum_p[nz] / w[nz].astype(np.float64)
    neg, pos = (w - bins.positives)[nz], bins.positives[nz]
    order = np.argsort(mean, kind="stable")
    mean, neg, pos = mean[order], neg[order], pos[order]
    first = np.flatnonzero(np.r_[True, mean[1:] != mean[:-1]])
    return mean[first], np.add.reduceat(neg, first), np.add.reduceat(pos, first)


def of_view_counts(report: Any, counts: tuple[np.ndarray, np.ndarray, np.ndarray], grouping: str = DISTINCT,
                   same_view: bool = False) -> Any:
    """``report`` (a CalibrationReport) with the smooth ECE and CORP diagram of its headline view;
    ``same_view``: the report's Brier score and log loss are of exactly these counts (a binary
    report read off the same ranking), and CORP takes them as the forecasts' scores."""
    scores = {"brier": report.brier, "log": report.log_loss} if same_view else None
    values, neg, pos = counts
    above = getattr(counts, "above", None)
    if above is not None and getattr(counts, "one_each", False):
        neg = None
    smooth, corp = corp_and_smooth_ece(values, neg, pos, view=report.reliability.view, grouping=grouping,
                                       forecast_scores=scores, above=above)
    return replace(report, smooth_ece=smooth, corp=corp)
