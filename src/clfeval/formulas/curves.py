"""Formulas that read score statistics: ROC, precision-recall and DET points, AUC, partial AUC,
average precision and the pairwise (Mann-Whitney) AUCs of multiclass problems.

Inputs are per-score counts, highest score first: ``neg`` and ``pos`` (the two columns of a
binary :class:`~clfeval.statistics.scores.ScoreTable`, e.g. from ``table.binary_counts()``), or a whole
(D, k) count table. ``neg=None`` means that every score holds exactly one sample, so that
``neg = 1 - pos`` (``table.binary_counts(compact=True)``): the formulas then skip a cumulative
sum. Area formulas accept any leading batch shape, ``(..., D)``; positions whose counts are all
zero are allowed anywhere (they add nothing), which is how padded batches of tables of
different sizes are read.

>>> neg, pos = np.array([0, 1, 1]), np.array([1, 1, 0])  # scores 0.8, 0.4, 0.1
>>> roc_auc(neg, pos)
0.875
"""

from __future__ import annotations

import numpy as np

from clfeval.formulas.exact_sums import rescale_classes

_CACHE_BLOCK = 1 << 16  # entries per block where passes run block by block to keep temporaries in cache

__all__ = [
    "trapezoid",
    "count_totals",
    "cumulative_counts",
    "positions_sum",
    "roc_auc",
    "partial_roc_auc",
    "average_precision",
    "partial_area",
    "partial_roc_area",
    "mcclish_standardized",
    "roc_points",
    "precision_recall_points",
    "det_points",
    "interpolate_roc",
    "roc_rates",
    "placement_values",
    "mann_whitney_u",
    "pairwise_auc",
    "hand_till_pairs",
]


def trapezoid(x: np.ndarray, y: np.ndarray) -> float:
    """Area under the polyline through (x, y) by the trapezoidal rule (signed by x's direction).

    >>> trapezoid(np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 1.0]))
    0.75
    """
    dx = np.diff(x)
    return float((dx * (y[1:] + y[:-1]) / 2.0).sum())


def interpolate_roc(fpr_grid: np.ndarray, fpr: np.ndarray, tpr: np.ndarray, side: str = "high") -> np.ndarray:
    """TPR of the ROC polyline through (fpr, tpr) (fpr non-decreasing) at each grid FPR, linearly
    between points; at a vertical step (several points at one FPR) the highest TPR is read, or with
    ``side="low"`` the lowest (where the polyline arrives at that FPR).

    >>> fpr, tpr = np.array([0.0, 0.5, 0.5, 1.0]), np.array([0.0, 0.5, 1.0, 1.0])
    >>> interpolate_roc(np.array([0.25, 0.5]), fpr, tpr).tolist(), interpolate_roc(np.array([0.5]), fpr, tpr, "low").tolist()
    ([0.25, 1.0], [0.5])
    """
    if side == "low":  # np.interp reads the last of equal x values: reversed, that is the first
        return -np.interp(-np.asarray(fpr_grid), -fpr[::-1], -tpr[::-1])
    return np.interp(fpr_grid, fpr, tpr)


def _total(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "b" and a.ndim == 1:  # (count_nonzero along an axis is several times slower)
        return np.int64(np.count_nonzero(a[::-1] if a.strides[0] < 0 else a))
    return np.count_nonzero(a, axis=-1) if a.dtype.kind == "b" else a.sum(axis=-1)


def count_totals(neg: np.ndarray | None, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Total negatives and positives (over the last axis) of per-score counts.

    >>> [int(t) for t in count_totals(np.array([True, False]), np.array([0, 3]))]
    [1, 3]
    """
    pos = np.asarray(pos)
    p_total = _total(pos)
    if neg is None:
        return pos.shape[-1] - p_total, p_total
    return _total(np.asarray(neg)), p_total


def _negatives(neg: np.ndarray | None, pos: np.ndarray) -> np.ndarray:
    """Per-score negative counts, also when given as None (one sample per score)."""
    if neg is None:
        return np.logical_not(pos) if pos.dtype == np.bool_ else 1 - pos
    return np.asarray(neg)


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sum of a * b over the last axis, exact for counts (int64 accumulator), float for weights."""
    exact = a.dtype.kind in "biu" and b.dtype.kind in "biu"
    return np.einsum("...d,...d->...", a, b, dtype=np.int64 if exact else np.float64)


def _exact_dot(a: np.ndarray, b: np.ndarray) -> int:
    """sum(a * b) of two 1-D arrays of non-negative int64, exactly, as a Python int (no overflow):
    each is split into 24-bit limbs, whose products summed over chunks of 2^15 fit in int64.

    >>> big = np.array([2**62, 3], dtype=np.int64)
    >>> _exact_dot(big, big) == 2**124 + 9
    True
    """
    chunk, bits = 1 << 15, 24
    mask = (1 << bits) - 1
    n = a.size
    pad = (-n) % chunk
    limbs_a = [np.pad((a >> (bits * i)) & mask, (0, pad)).reshape(-1, chunk) for i in range(3)]
    limbs_b = [np.pad((b >> (bits * i)) & mask, (0, pad)).reshape(-1, chunk) for i in range(3)]
    total = 0
    for i, x in enumerate(limbs_a):
        for j, y in enumerate(limbs_b):
            partial = np.einsum("cd,cd->c", x, y, dtype=np.int64)  # each < 2^15 * 2^48
            total += sum(int(v) for v in partial) << (bits * (i + j))
    return total


def _is_integer(a: np.ndarray) -> bool:
    return a.dtype.kind in "biu"


def cumulative_counts(a: np.ndarray) -> np.ndarray:
    """Cumulative counts along the last axis, in the counts' own kind (int stays exact): the
    true (or false) positives at each threshold, from per-score counts.

    >>> cumulative_counts(np.array([True, False, True])).tolist()
    [1, 1, 2]

    Speed trick: a casting cumsum is several times slower than a native one, and boolean (one
    sample per score) counts accumulate in int32, twice as fast as int64, when that cannot
    overflow.
    """
    if a.dtype.kind == "b" and a.shape[-1] < 2**31:
        return np.cumsum(a, axis=-1, dtype=np.int32)
    return np.cumsum(a, axis=-1)


def positions_sum(flags: np.ndarray) -> int:
    """Sum of the positions (0-based) of the non-zero entries of a 1-D array, as a Python int.

    A reversed view is read in its memory order (no copy).

    >>> positions_sum(np.array([True, False, True])), positions_sum(np.array([1, 1, 0])[::-1])
    (2, 3)
    """
    forward = flags[::-1] if flags.strides[0] < 0 else flags
    count = total = 0
    for hits in _nonzero_blocks(forward):  # (no array of every position)
        count += hits.size
        total += int(hits.sum(dtype=np.int64))
    return count * (flags.size - 1) - total if forward is not flags else total


def _nonzero_blocks(a: np.ndarray, backwards: bool = False):
    """The positions of the non-zero entries of a 1-D array, block by block (first block first,
    or with ``backwards`` last block first; positions ascending within a block)."""
    starts = range(0, a.size, _CACHE_BLOCK)
    for start in reversed(starts) if backwards else starts:
        hits = np.flatnonzero(a[start : start + _CACHE_BLOCK])
        hits += start
        yield hits


def _ranks(d: int, dtype: np.dtype) -> np.ndarray:
    """1, 2, ..., d: the number of samples at or above each score when each score has one."""
    return np.arange(1, d + 1, dtype=dtype)


def _cumulative(neg: np.ndarray | None, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cumulative (fps, tps) along the last axis."""
    tps = cumulative_counts(pos)
    if neg is None:
        fps = _ranks(tps.shape[-1], tps.dtype) - tps
        return fps, tps
    return cumulative_counts(neg), tps


def roc_auc(neg: np.ndarray, pos: np.ndarray, *, tps: np.ndarray | None = None) -> float | np.ndarray:
    """Area under the ROC curve from per-score counts; NaN where a class is missing.

    Equals the Mann-Whitney probability that a positive outscores a negative (ties count half).
    Integer counts are summed exactly, so the only rounding is the final division.

    >>> roc_auc(np.array([[1, 1], [0, 2]]), np.array([[1, 1], [2, 0]])).tolist()
    [0.5, 1.0]
    """
    pos = np.asarray(pos)
    n_total, p_total = count_totals(neg, pos)
    if neg is None and pos.ndim == 1 and _is_integer(pos) and p_total > 0 and n_total > 0:
        # One sample per score: the j-th positive (j = 0, 1, ...) at position q outscores the
        # n_total - (q - j) negatives below it, so U = P N - sum(q) + P (P - 1) / 2: no cumulative
        # counts, only the positives' positions (exact integers, one correctly rounded division).
        p, n = int(p_total), int(n_total)
        return (p * n - positions_sum(pos) + p * (p - 1) // 2) / (p * n)
    neg = _negatives(neg, pos)
    tps = cumulative_counts(pos) if tps is None else tps
    # Twice the trapezoid area in count units: the sum of neg * (tps + tps_before), where
    # tps + tps_before = 2 tps - pos.
    if pos.ndim == 1 and _is_integer(neg) and _is_integer(pos) and p_total > 0 and n_total > 0:
        # exact integers and one correctly rounded division; where the int64 sums could overflow,
        # they are summed in Python integers
        pairs = 2 * int(p_total) * int(n_total)
        if pairs >= 1 << 63:
            num = 2 * _exact_dot(neg, tps) - _exact_dot(neg, pos)
        else:
            num = 2 * int(_dot(neg, tps)) - int(_dot(neg, pos))
        return num / pairs
    if pos.ndim == 1 and not (_is_integer(neg) and _is_integer(pos)):
        # a class of tiny total weight: scaled up by a power of two (exact) so that the
        # products below do not underflow (the area depends on each class's proportions only)
        scaled = rescale_classes(neg, pos, float(n_total), float(p_total))
        if scaled is not None:
            neg, pos, n_total, p_total = scaled
            tps = cumulative_counts(pos)
    area2 = 2 * _dot(neg, tps) - _dot(neg, pos)
    denom = 2 * np.multiply(p_total, n_total, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(denom > 0, area2 / np.where(denom > 0, denom, 1), np.nan)
    out = np.clip(out, 0.0, 1.0)  # float weights: rounding must not leave [0, 1]
    return float(out) if out.ndim == 0 else out


def partial_area(x: np.ndarray, y: np.ndarray, lo: float, hi: float) -> float:
    """Area under the polyline through (x, y) (x non-decreasing) between x = lo and x = hi.

    Exact for a ROC curve with ties: the segment of tied scores is the straight line the polyline
    draws. At a vertical step on a boundary, the area starts where the polyline leaves ``lo`` and
    ends where it arrives at ``hi``.

    >>> x, y = np.array([0.0, 0.5, 0.5, 1.0]), np.array([0.0, 0.5, 1.0, 1.0])
    >>> partial_area(x, y, 0.0, 0.5), partial_area(x, y, 0.5, 1.0), partial_area(x, y, 0.25, 0.75)
    (0.125, 0.5, 0.34375)
    """
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    inside = (x >= lo) & (x <= hi)
    xs, ys = x[inside], y[inside]
    if xs.size == 0 or xs[0] > lo:
        xs, ys = np.concatenate(([lo], xs)), np.concatenate((interpolate_roc(np.array([lo]), x, y), ys))
    if xs[-1] < hi:
        xs, ys = np.append(xs, hi), np.append(ys, interpolate_roc(np.array([hi]), x, y, side="low"))
    return trapezoid(xs, ys)


def partial_roc_area(fpr: np.ndarray, tpr: np.ndarray, lo: float, hi: float, axis: str = "fpr"
                     ) -> tuple[float, float, float]:
    """A partial area of a ROC curve, with the areas McClish's standardisation maps to 0.5 and 1.

    ``axis="fpr"``: the area under the curve for FPR in [lo, hi]; a chance curve (the diagonal)
    has (hi² - lo²) / 2 there, a perfect one hi - lo. ``axis="tpr"``: the area to the right of the
    curve for TPR in [lo, hi], i.e. the integral of specificity over sensitivity (pROC's
    ``partial.auc.focus="se"``); chance has (hi - lo) - (hi² - lo²) / 2, perfect hi - lo. Over
    [0, 1] either is the AUC.

    Returns (area, chance area, perfect area).

    >>> fpr, tpr = np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0, 1.0])  # a perfect ranking
    >>> [round(v, 12) for v in partial_roc_area(fpr, tpr, 0.0, 0.1) + partial_roc_area(fpr, tpr, 0.8, 1.0, "tpr")]
    [0.1, 0.005, 0.1, 0.2, 0.02, 0.2]
    """
    if axis == "fpr":
        area = partial_area(fpr, tpr, lo, hi)
        chance = (hi * hi - lo * lo) / 2
    elif axis == "tpr":  # specificity over sensitivity: (hi - lo) minus the area under FPR(TPR)
        area = (hi - lo) - partial_area(tpr, fpr, lo, hi)
        chance = (hi - lo) - (hi * hi - lo * lo) / 2
    else:
        raise ValueError(f"axis must be 'fpr' or 'tpr', got {axis!r}.")
    return area, chance, hi - lo


def mcclish_standardized(area: float, chance: float, perfect: float, below_chance: bool = False) -> float:
    """McClish's standardised partial area: 0.5 for the chance area, 1 for the perfect one
    (McClish 1989, Med Decis Making 9:190; scikit-learn's ``max_fpr`` and pROC's
    ``partial.auc.correct``). Below chance pROC calls it undefined (NaN here) and scikit-learn
    extends the line below 0.5 (``below_chance=True``).

    >>> mcclish_standardized(0.1, 0.005, 0.1), mcclish_standardized(0.0525, 0.005, 0.1)
    (1.0, 0.75)
    >>> mcclish_standardized(0.0, 0.005, 0.1), mcclish_standardized(0.0, 0.005, 0.1, below_chance=True)
    (nan, 0.4736842105263158)
    """
    # below chance by more than rounding (a constant score's area is chance to the last bits)
    if not (below_chance or area >= chance - 1e-12 * perfect):
        return float("nan")
    return float(0.5 * (1 + (area - chance) / (perfect - chance)))


def partial_roc_auc(neg: np.ndarray, pos: np.ndarray, max_fpr: float) -> float:
    """Standardised partial AUC over FPR in [0, max_fpr] (McClish correction), from 1-D counts.

    0.5 means no discrimination and 1 perfect, whatever max_fpr is.

    >>> partial_roc_auc(np.array([0, 1, 1]), np.array([1, 1, 0]), 0.5)
    0.8333333333333333
    """
    fps, tps = _cumulative(neg, np.asarray(pos))
    if fps.size == 0 or fps[-1] <= 0 or tps[-1] <= 0:
        return float("nan")
    fpr = np.concatenate(([0.0], fps / fps[-1]))
    tpr = np.concatenate(([0.0], tps / tps[-1]))
    return mcclish_standardized(*partial_roc_area(fpr, tpr, 0.0, max_fpr), below_chance=True)


def average_precision(
    neg: np.ndarray, pos: np.ndarray, *, tps: np.ndarray | None = None
) -> float | np.ndarray:
    """Average precision: the step-sum of precision weighted by each rise in recall.

    Not interpolated (scikit-learn's definition). With no positives it is 0.

    >>> average_precision(np.array([0, 1, 1]), np.array([1, 1, 0]))
    0.8333333333333333
    """
    pos = np.asarray(pos)
    if neg is None and pos.ndim == 1:
        # One sample per score: the k-th positive (k = 1, 2, ...) sits at rank r_k, where the
        # precision is k / r_k; AP is their mean. Only the positives' positions are needed.
        # Block by block from the top (a reversed view in its memory order, last block first).
        reverse = pos.strides[0] < 0
        seen, total = 0, 0.0
        for hits in _nonzero_blocks(pos[::-1] if reverse else pos, backwards=reverse):
            if not hits.size:
                continue
            ranks = np.subtract(pos.size, hits[::-1]) if reverse else hits + 1
            precision = np.arange(seen + 1, seen + hits.size + 1, dtype=np.float64)
            precision /= ranks
            total += precision.sum()
            seen += hits.size
        return float(total / seen) if seen else 0.0
    _, p_total = count_totals(neg, pos)
    tps = cumulative_counts(pos) if tps is None else tps
    if neg is None:
        predicted = _ranks(tps.shape[-1], tps.dtype)
    else:
        with np.errstate(over="ignore"):
            fps = cumulative_counts(np.asarray(neg))
            predicted = fps + tps
    if pos.ndim == 1 and neg is not None and fps.dtype.kind == "f" and fps.size and not (
        np.isfinite(fps[-1]) and np.isfinite(predicted[-1])
    ):
        # sums past the float range: precision = 1 / (1 + fps / tps), the ratio formed from
        # mantissas and exponents; where the negatives' running sum overflowed, it is taken
        # from a scaled-down copy instead
        with np.errstate(all="ignore"):
            m_neg, e_neg = np.frexp(fps)
            if not np.isfinite(fps[-1]):
                k = 8 + int(fps.size).bit_length()
                m_big, e_big = np.frexp(np.cumsum(np.ldexp(np.asarray(neg, dtype=np.float64), -k)))
                over = ~np.isfinite(fps)
                m_neg, e_neg = np.where(over, m_big, m_neg), np.where(over, e_big + k, e_neg)
            m_pos, e_pos = np.frexp(tps)
            odds = np.ldexp(m_neg / np.where(m_pos > 0, m_pos, 1.0), e_neg - e_pos)
            precision = np.where(tps > 0, 1.0 / (1.0 + odds), 0.0)
    # precision at each score; positions with no positives add nothing, whatever their precision
    elif predicted.size and (predicted[..., 0] > 0).all():  # cumulative, so no zero anywhere
        precision = np.divide(tps, predicted)
    else:
        precision = np.zeros(tps.shape)
        np.divide(tps, predicted, out=precision, where=predicted > 0)
    if pos.ndim == 1 and pos.dtype.kind == "f" and not (p_total == 0 or 2.0**-240 <= p_total <= 2.0**240):
        # extreme total weight: the recall steps scaled by a power of two (exact) so that
        # precision * weight neither underflows nor overflows
        shift = -int(np.frexp(p_total)[1])
        pos, p_total = np.ldexp(pos, shift), np.ldexp(p_total, shift)
    total = _dot(precision, pos)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(p_total > 0, total / np.where(p_total > 0, p_total, 1), 0.0)
    return float(out) if out.ndim == 0 else out


def _roc_corners(
    neg: np.ndarray | None, pos: np.ndarray, tps_all: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Indices of the ROC points not collinear with both neighbours, with (fps, tps) there."""
    d = pos.size
    if neg is None and pos.ndim == 1 and _is_integer(pos) and tps_all is None:
        return _one_each_corners(pos)
    keep = np.empty(d, dtype=bool)
    keep[0] = keep[-1] = True
    if neg is None or (_is_integer(neg) and _is_integer(pos)):
        # Speed trick: with integer counts the second difference of the cumulative counts is the
        # first difference of the counts, so corners come from the counts themselves (no
        # temporary difference arrays), and cumulative counts are gathered at the corners only.
        np.not_equal(pos[1:-1], pos[2:], out=keep[1:-1])
        if neg is not None:
            keep[1:-1] |= neg[1:-1] != neg[2:]
        idx = np.flatnonzero(keep)
        tps = (cumulative_counts(pos) if tps_all is None else tps_all)[idx]
        if neg is None:  # one sample per score: fps = rank - tps
            fps = idx + 1
            fps -= tps
        else:
            fps = cumulative_counts(neg)[idx]
        return idx, fps, tps
    # Float weights: test the cumulative sums themselves, as scikit-learn does (same rounding).
    fps, tps = _cumulative(neg, pos)
    dfps, dtps = np.diff(fps), np.diff(tps)
    np.not_equal(dfps[1:], dfps[:-1], out=keep[1:-1])
    keep[1:-1] |= dtps[1:] != dtps[:-1]
    idx = np.flatnonzero(keep)
    return idx, fps[idx], tps[idx]


def _changes(a: np.ndarray) -> np.ndarray:
    """Positions j where a[j] != a[j + 1] (a 1-D array), found block by block.

    >>> _changes(np.array([0, 0, 1, 1, 0])).tolist()
    [1, 3]
    """
    found = []
    differ = np.empty(min(_CACHE_BLOCK, max(a.size - 1, 0)), dtype=bool)
    for start in range(0, a.size - 1, _CACHE_BLOCK):
        stop = min(start + _CACHE_BLOCK, a.size - 1)
        block = differ[: stop - start]
        np.not_equal(a[start + 1 : stop + 1], a[start:stop], out=block)
        hits = np.flatnonzero(block)
        hits += start
        found.append(hits)
    return np.concatenate(found) if found else np.empty(0, dtype=np.intp)


def _one_each_corners(pos: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_roc_corners` of one sample per score (0/1 ``pos``): the last position of every run of
    equal classes, and the first position.

    Speed trick: the true positives there come from the runs' lengths (every other run is
    positive), so no cumulative count of the whole array is formed; a reversed view is read in
    its memory order.
    """
    d = pos.size
    reverse = pos.strides[0] < 0
    changes = _changes(pos[::-1] if reverse else pos)
    m = changes.size
    # [0, the run ends (ascending), d - 1]; the leading 0 is dropped when it is a run end itself
    ends = np.empty(m + 2, dtype=np.intp)
    ends[0], ends[m + 1] = 0, d - 1
    if reverse:  # forward memory: a change between j and j + 1 there is one at d - 2 - j here
        np.subtract(d - 2, changes[::-1], out=ends[1 : m + 1])
    else:
        ends[1 : m + 1] = changes
    tps = np.empty(m + 2, dtype=np.int64)
    tps[0], tps[1] = pos[0], ends[1] + 1
    np.subtract(ends[2:], ends[1:-1], out=tps[2:])  # run lengths ...
    tps[1:] *= pos[ends[1:]]  # ... of the positive runs
    np.cumsum(tps[1:], out=tps[1:])
    start = 1 if ends[1] == 0 else 0
    ends, tps = ends[start:], tps[start:]
    fps = ends + 1
    fps -= tps
    return ends, fps, tps


def roc_rates(neg: np.ndarray | None, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(fpr, tpr) at every score of per-score counts (..., D), batched over leading axes, each
    (..., D + 1) and starting at the origin; NaN rates where a class is missing. No point is
    dropped (:func:`roc_points` gives scikit-learn's curve).

    >>> fpr, tpr = roc_rates(np.array([[0, 1, 1]]), np.array([[1, 1, 0]]))
    >>> fpr.tolist(), tpr.tolist()
    ([[0.0, 0.0, 0.5, 1.0]], [[0.0, 0.5, 1.0, 1.0]])
    """
    fps, tps = _cumulative(None if neg is None else np.asarray(neg), np.asarray(pos))
    zero = np.zeros(fps.shape[:-1] + (1,))
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr = np.concatenate([zero, fps / fps[..., -1:]], axis=-1)
        tpr = np.concatenate([zero, tps / tps[..., -1:]], axis=-1)
    return fpr, tpr


def _keep_tps_steps(tps: np.ndarray) -> np.ndarray:
    """Indices of the first and last point of every run of equal tps (end points kept)."""
    keep = np.ones(tps.size, dtype=bool)
    change = tps[1:] != tps[:-1]
    np.logical_or(change[:-1], change[1:], out=keep[1:-1])
    return np.flatnonzero(keep)


def _rate(cum: np.ndarray, out: np.ndarray) -> None:
    """cum / cum[-1] into out (NaN when the total is not positive)."""
    if cum.size and cum[-1] > 0:
        np.divide(cum, cum[-1], out=out)
    else:
        out[:] = np.nan


def roc_points(
    neg: np.ndarray,
    pos: np.ndarray,
    scores: np.ndarray,
    drop_intermediate: bool = True,
    *,
    tps: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROC curve (fpr, tpr, thresholds), starting at the synthetic point (0, 0, +inf).

    ``drop_intermediate`` leaves out points collinear with their neighbours. A rate whose class
    is missing is NaN. ``scores`` may also be a function of the positions kept (None: all) that
    gives their scores, e.g. :meth:`~clfeval.statistics.scores.ScoreTable.scores_at`.

    >>> fpr, tpr, thr = roc_points(np.array([0, 1, 1]), np.array([1, 1, 0]), np.array([.8, .4, .1]))
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0], [inf, 0.8, 0.4, 0.1])
    """
    neg = None if neg is None else np.asarray(neg)
    pos = np.asarray(pos)
    if drop_intermediate and pos.size > 2:
        idx, fps, tps = _roc_corners(neg, pos, tps)
    else:
        idx = None
        fps, tps = _cumulative(neg, pos)
    m = fps.size
    fpr, tpr, thresholds = np.empty(m + 1), np.empty(m + 1), np.empty(m + 1)
    thresholds[0] = np.inf
    if callable(scores):
        thresholds[1:] = scores(idx)
    elif idx is None:
        thresholds[1:] = scores
    else:
        np.take(scores, idx, out=thresholds[1:])
    for rate, cum in ((fpr, fps), (tpr, tps)):
        _rate(cum, rate[1:])
        rate[0] = 0.0 if np.isfinite(rate[-1]) else np.nan
    return fpr, tpr, thresholds


def precision_recall_points(
    neg: np.ndarray,
    pos: np.ndarray,
    scores: np.ndarray,
    drop_intermediate: bool = False,
    *,
    tps: np.ndarray | None = None,
    descending: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision-recall curve in scikit-learn's order: thresholds increasing, recall decreasing,
    ending at the synthetic point (precision 1, recall 0) that has no threshold.

    With no positives, recall is 1 at every threshold. ``drop_intermediate`` keeps only the
    first and last point of each run of equal recall. ``descending`` gives the points in the
    opposite order, by decreasing threshold, starting at the synthetic point, whose threshold
    is then +inf (so that all three arrays have the same length).

    >>> neg, pos, scores = np.array([0, 1, 1]), np.array([1, 1, 0]), np.array([.8, .4, .1])
    >>> p, r, t = precision_recall_points(neg, pos, scores)
    >>> p.tolist(), r.tolist(), t.tolist()
    ([0.5, 0.6666666666666666, 1.0, 1.0], [1.0, 1.0, 0.5, 0.0], [0.1, 0.4, 0.8])
    """
    pos = np.asarray(pos)
    if neg is None and tps is None and not drop_intermediate and not descending and pos.ndim == 1 and pos.size \
            and _is_integer(pos):
        precision, recall = _one_each_precision_recall(pos)
        thresholds = scores(None)[::-1] if callable(scores) else scores[::-1].copy()
        return precision, recall, thresholds
    if callable(scores):
        scores = scores(None)
    tps = cumulative_counts(pos) if tps is None else tps
    if neg is None:  # one sample per score: everything ranked so far is predicted positive
        predicted = _ranks(tps.size, tps.dtype)
    else:
        predicted = cumulative_counts(np.asarray(neg))
        predicted += tps
    if drop_intermediate and tps.size > 2:
        keep = _keep_tps_steps(tps)
        predicted, tps, scores = predicted[keep], tps[keep], scores[keep]
    d = tps.size
    precision, recall = np.empty(d + 1), np.empty(d + 1)
    precision[d], recall[d] = 1.0, 0.0
    if descending:
        precision[0], recall[0] = 1.0, 0.0
        prec_rev, rec_rev = precision[1:], recall[1:]
    else:
        # Written through reversed views: the points come out by increasing threshold, no copies.
        prec_rev, rec_rev = precision[d - 1 :: -1], recall[d - 1 :: -1]
    if d and predicted[0] > 0:  # cumulative, so then nothing is 0
        np.divide(tps, predicted, out=prec_rev)
    elif d:
        prec_rev[:] = 0.0
        np.divide(tps, predicted, out=prec_rev, where=predicted > 0)
    if d and tps[-1] > 0:
        np.divide(tps, tps[-1], out=rec_rev)
    else:
        rec_rev[:] = 1.0
    if descending:
        thresholds = np.empty(d + 1)
        thresholds[0] = np.inf
        thresholds[1:] = scores
        return precision, recall, thresholds
    return precision, recall, scores[::-1].copy()


def _forward_blocks(pos: np.ndarray):
    """(start, stop, positives before start, cumulative positives of the block) over ``pos`` read
    lowest score first (``pos[::-1]``), block by block: the running count of positives without a
    cumulative array of the whole ranking."""
    forward = pos[::-1]
    before = 0
    for start in range(0, forward.size, _CACHE_BLOCK):
        stop = min(start + _CACHE_BLOCK, forward.size)
        cum = np.cumsum(forward[start:stop], dtype=np.int64)
        yield start, stop, before, cum
        before += int(cum[-1])


def _one_each_precision_recall(pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """precision_recall_points' precision and recall for one sample per score (0/1 ``pos``).

    Lowest score first, position j predicts the d - j samples from j on positive, P - (positives
    before j) of them true. Speed trick: computed block by block from a running count, straight
    into the outputs (no cumulative or rank arrays of the whole ranking).
    """
    d = pos.size
    precision, recall = np.empty(d + 1), np.empty(d + 1)
    precision[d], recall[d] = 1.0, 0.0
    p_total = int(_total(pos))
    ranks = np.arange(min(_CACHE_BLOCK, d), dtype=np.float64)
    tp, count = np.empty(ranks.size), np.empty(ranks.size)
    forward = pos[::-1]
    for start, stop, before, cum in _forward_blocks(pos):
        m = stop - start
        true, predicted = tp[:m], count[:m]
        np.subtract(p_total - before, cum, out=true)  # P - positives strictly before j ...
        true += forward[start:stop]  # ... = P - (cum - pos[j] + before)
        np.subtract(d - start, ranks[:m], out=predicted)
        np.divide(true, predicted, out=precision[start:stop])
        if p_total > 0:
            np.divide(true, p_total, out=recall[start:stop])
    if p_total <= 0:
        recall[:d] = 1.0
    return precision, recall


def det_points(
    neg: np.ndarray, pos: np.ndarray, scores: np.ndarray, drop_intermediate: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """DET curve (fpr, fnr, thresholds) with thresholds increasing, in scikit-learn's form.

    It starts where false positives first reach their smallest value (the synthetic +inf
    threshold if no finite threshold gives fpr = 0) and stops where false negatives reach 0.
    ``drop_intermediate`` keeps only the first and last point of each run of equal fnr.

    >>> f, m, t = det_points(np.array([0, 1, 1]), np.array([1, 1, 0]), np.array([.8, .4, .1]))
    >>> f.tolist(), m.tolist(), t.tolist()
    ([0.5, 0.0], [0.0, 0.5], [0.4, 0.8])
    """
    if neg is None and not drop_intermediate and np.ndim(pos) == 1 and _is_integer(np.asarray(pos)):
        pos = np.asarray(pos)
        n_total, p_total = count_totals(None, pos)
        if n_total > 0 and p_total > 0:
            return _one_each_det(pos, scores)
    if callable(scores):
        scores = scores(None)
    fps, tps = _cumulative(None if neg is None else np.asarray(neg), np.asarray(pos))
    fps = np.concatenate(([0], fps))
    tps = np.concatenate(([0], tps))
    thresholds = np.concatenate(([np.inf], scores))
    if drop_intermediate and fps.size > 2:
        keep = _keep_tps_steps(tps)
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    p_total, n_total = tps[-1], fps[-1]
    first = int(np.searchsorted(fps, fps[0], side="right")) - 1
    last = int(np.searchsorted(tps, p_total)) + 1
    sl = slice(first, last)
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr = fps[sl][::-1] / n_total
        fnr = (p_total - tps[sl])[::-1] / p_total
    return fpr, fnr, thresholds[sl][::-1].copy()


def _one_each_det(pos: np.ndarray, scores) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """det_points for one sample per score (0/1 ``pos``, both classes present), block by block.

    Lowest score first, the points run from the first positive (below it, false negatives would
    stay 0) up to just below the highest-scored negative's position + 1 (the positives above every
    negative all share fpr 0 there), then the synthetic +inf threshold when a negative scores
    highest. At position j, with c positives before it: fpr = (N - j + c) / N,
    fnr = c / P.
    """
    d = pos.size
    forward = pos[::-1]
    n_total, p_total = (int(t) for t in count_totals(None, pos))
    first = int(np.argmax(forward))  # the lowest-scored positive
    leading = int(np.argmin(pos))  # positives above every negative
    stop_at = min(d - leading + 1, d)  # up to the highest-scored negative's position + 1
    with_inf = leading == 0  # a negative scores highest: the synthetic point (0, 1) is a DET point
    m = stop_at - first + with_inf
    fpr, fnr = np.empty(m), np.empty(m)
    ranks = np.arange(min(_CACHE_BLOCK, d), dtype=np.float64)
    buffer = np.empty(ranks.size)
    for start, stop, before, cum in _forward_blocks(pos):
        lo, hi = max(start, first), min(stop, stop_at)
        if lo >= hi:
            continue
        c = buffer[: hi - lo]
        np.subtract(cum[lo - start : hi - start], forward[lo:hi], out=c)
        c += before  # positives before j
        np.divide(c, p_total, out=fnr[lo - first : hi - first])
        c += n_total - lo
        c -= ranks[: hi - lo]  # N - j + c
        np.divide(c, n_total, out=fpr[lo - first : hi - first])
    every = scores(None)[::-1] if callable(scores) else scores[::-1].copy()  # lowest first, a new array
    thresholds = np.append(every[first:], np.inf) if with_inf else every[first:stop_at]
    if with_inf:
        fpr[-1], fnr[-1] = 0.0, 1.0
    return fpr, fnr, thresholds


def placement_values(neg: np.ndarray, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's placement values at each score, from per-score counts (..., D), highest first.

    ``V10``: the share of negatives a positive at that score outscores (ties half); ``V01``: the
    share of positives that outscore a negative there (ties half). The AUC is the positives'
    mean ``V10`` (and the negatives' mean ``V01``); DeLong's variance is
    ``var(V10) / m + var(V01) / n``. NaN where a class is missing.

    >>> v10, v01 = placement_values(np.array([0, 1, 1]), np.array([1, 1, 0]))
    >>> v10.tolist(), v01.tolist()
    ([1.0, 0.75, 0.25], [0.25, 0.75, 1.0])
    """
    neg = np.asarray(neg, dtype=np.float64)
    pos = np.asarray(pos, dtype=np.float64)
    n, m = neg.sum(axis=-1, keepdims=True), pos.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        # scores decrease along the arrays: negatives below score d = n - (negatives at or above d)
        v10 = (n - np.cumsum(neg, axis=-1) + 0.5 * neg) / n
        v01 = (np.cumsum(pos, axis=-1) - 0.5 * pos) / m
    return v10, v01


def mann_whitney_u(counts: np.ndarray, positive: int) -> np.ndarray:
    """U of class ``positive`` against every class, from (..., D, k) counts of its score column.

    ``U[b]`` counts pairs (i in positive, j in b) with i scored higher, ties counting one half.

    >>> mann_whitney_u(np.array([[1, 0, 0], [1, 1, 0], [0, 0, 2]]), 0).tolist()
    [2.0, 1.5, 4.0]
    """
    counts = np.asarray(counts)
    a = counts[..., positive].astype(np.float64)
    above = np.cumsum(a, axis=-1) - a  # class-a count strictly above each score
    above += 0.5 * a
    return np.einsum("...d,...dk->...k", above, counts)


def pairwise_auc(u: np.ndarray, support: np.ndarray) -> np.ndarray:
    """AUC matrix ``A[a, b] = U[a, b] / (n_a n_b)``: class a against class b on column a.

    >>> pairwise_auc(np.array([[2.0, 3.0], [1.0, 0.5]]), np.array([2, 2])).tolist()
    [[0.5, 0.75], [0.25, 0.125]]
    """
    support = np.asarray(support, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return u / np.multiply.outer(support, support)


def hand_till_pairs(u: np.ndarray, support: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One-vs-one scores of Hand & Till (2001) over the classes present (support > 0).

    Returns the score of each pair a < b, ``(A[a, b] + A[b, a]) / 2``, and the pair's share of
    the samples ``(n_a + n_b) / n`` (the weights of the 'weighted' average).

    >>> s, w = hand_till_pairs(np.array([[2.0, 3.0], [1.0, 2.0]]), np.array([2, 2]))
    >>> s.tolist(), w.tolist()
    ([0.5], [1.0])
    """
    support = np.asarray(support)
    present = np.flatnonzero(support > 0)
    a_idx, b_idx = np.triu_indices(present.size, k=1)
    a, b = present[a_idx], present[b_idx]
    auc = pairwise_auc(u, support)
    scores = (auc[a, b] + auc[b, a]) / 2
    share = (support[a] + support[b]) / support.sum()
    return scores, share
