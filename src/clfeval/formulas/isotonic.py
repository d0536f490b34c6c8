"""Isotonic recalibration and the CORP decomposition (Dimitriadis, Gneiting & Jordan 2021,
"Stable reliability diagrams for probabilistic classifiers", PNAS 118(8)).

Everything reads the distinct probabilities ``v`` (increasing) with the weight of the negative
and positive outcomes at each: ties are pooled by construction, as CORP asks.

- :func:`pav`: weighted pool-adjacent-violators, the isotonic (non-decreasing) least-squares fit
  of the share of positives at each distinct probability. Adjacent violating blocks are pooled
  all at once, pass after pass (any order of pooling adjacent violators reaches the same unique
  fit), then the few blocks left are finished on a stack. Long inputs (10^7 distinct
  probabilities) pool runs of violators and ties while a pass shrinks them by a quarter or more
  (each pass reads only the blocks left), then split what is left at means (:func:`_split_blocks`).
- :func:`pav_blocks_of_counts`: the same blocks from integer outcome counts, exactly, as the
  vertices of the greatest convex minorant of the cumulative sum diagram (candidates pruned all
  at once, pass after pass, in integer arithmetic); a ranking's running counts give the diagram's
  points without a pass (10^7 distinct probabilities: one pass over the outcomes, ~0.4 of a sort).
- :func:`corp_decomposition`: for a proper score S (the Brier score or the log score), mean
  score of the forecasts ``S(v)``, of their recalibration ``S(v_hat)`` and of the base rate
  ``S(y_bar)``: MCB = S(v) - S(v_hat) >= 0, DSC = S(y_bar) - S(v_hat) >= 0, UNC = S(y_bar), so
  that S(v) = MCB - DSC + UNC. The isotonic fit minimises every such score among non-decreasing
  recalibrations at once, hence the signs.
- :func:`consistency_band`: the paper's consistency band: outcomes redrawn under the hypothesis
  of calibration (y ~ Bernoulli(v), a binomial count per distinct probability), recalibrated, and
  the pointwise quantiles of the recalibrated values.

>>> v = np.array([0.1, 0.4, 0.6, 0.9]); neg = np.array([3.0, 1.0, 2.0, 0.0]); pos = np.array([0.0, 2.0, 1.0, 1.0])
>>> pav(pos / (neg + pos), neg + pos).round(4).tolist()
[0.0, 0.5, 0.5, 1.0]
>>> d = corp_decomposition(v, neg, pos, "brier")
>>> [round(x, 6) for x in d], round(d[1] - d[2] + d[3], 6)
([0.18, 0.03, 0.09, 0.24], 0.18)
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "SCORES", "consistency_band", "corp_decomposition", "corp_decompositions", "pav", "pav_blocks",
    "pav_blocks_of_counts", "pav_rows",
]

#: the proper scores CORP decomposes
SCORES = ("brier", "log")

_PASSES = 64  # vectorised pooling passes before the stack finishes the rest
_SPLIT_FROM = 1 << 15  # inputs this long first try splitting at means (few blocks: much faster)
_MAX_SPLIT_BLOCKS = 4096
_EPS = float(np.finfo(np.float64).eps)


def _stack_pool(sw: np.ndarray, swy: np.ndarray, starts: np.ndarray, ties: bool = False
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pool the blocks (weights, weighted sums, start indices) on a stack, left to right; ``ties``:
    pool equal means too. Integer sums compare exactly (Python integers)."""
    out_w: list[float] = []
    out_s: list[float] = []
    out_i: list[int] = []
    for w, s, i in zip(sw.tolist(), swy.tolist(), starts.tolist()):
        while out_w and (out_s[-1] * w >= s * out_w[-1] if ties else out_s[-1] * w > s * out_w[-1]):
            # mean before > this mean (>= with ties; weights > 0)
            w += out_w.pop()
            s += out_s.pop()
            i = out_i.pop()
        out_w.append(w)
        out_s.append(s)
        out_i.append(i)
    return np.array(out_w), np.array(out_s), np.array(out_i, dtype=np.intp)


def _split_blocks(y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The blocks by splitting at means (for long inputs with few blocks); None when the fit has
    more than :data:`_MAX_SPLIT_BLOCKS` blocks (then pooling is faster).

    A run [a, b) that is a union of whole blocks of the fit, with weighted mean t, splits into the
    blocks below t and those at or above t at the first minimiser j of ``S(j) = sum_{a <= k < j}
    (y_k - t) w_k`` (the suffix [j, b) of largest ``sum (y - t) w`` is the upper set of the fit at
    t; within a block every prefix mean is at least the block's mean, so j is a block's start); a
    run whose S never drops below 0 (up to rounding in the running sums) is one block.
    """
    run_w = np.zeros(y.size + 1)
    run_wy = np.zeros(y.size + 1)
    np.cumsum(w, out=run_w[1:])
    np.cumsum(np.multiply(w, y, out=run_wy[1:]), out=run_wy[1:])
    tol = 64 * _EPS * (run_w[-1] + max(float(run_wy.max()), -float(run_wy.min())))  # rounding in S
    starts: list[int] = []
    values: list[float] = []
    todo = [(0, y.size)]
    while todo:
        if len(starts) + len(todo) > _MAX_SPLIT_BLOCKS:
            return None
        a, b = todo.pop()
        t = (run_wy[b] - run_wy[a]) / (run_w[b] - run_w[a])
        if b - a > 1:
            inner = np.subtract(run_wy[a + 1:b], run_wy[a])
            part = np.subtract(run_w[a + 1:b], run_w[a])
            inner -= np.multiply(part, t, out=part)
            j = int(np.argmin(inner))
            if inner[j] < -tol:
                todo += [(a + 1 + j, b), (a, a + 1 + j)]
                continue
        starts.append(a)
        values.append(t)
    order = np.argsort(starts)
    return np.asarray(starts, dtype=np.intp)[order], np.asarray(values)[order]


def _violators_pooled(swy: np.ndarray, sw: np.ndarray) -> np.ndarray:
    """Where the blocks start after one pass that pools every run of adjacent violators and ties
    (the fit is constant across a tie: a block ends at or above its mean and the next starts at
    or below its own, so a tie between blocks would make the two means equal, one block, as
    :func:`_split_blocks` finds it)."""
    means = swy / sw
    keep = np.empty(means.size, dtype=bool)
    keep[0] = True
    np.less(means[:-1], means[1:], out=keep[1:])  # a block starts where the mean rises
    return np.flatnonzero(keep)


def pav_blocks(y: Any, weight: Any) -> tuple[np.ndarray, np.ndarray]:
    """The blocks of the isotonic fit: (start index of each block, fitted value of each block).

    ``y``: values in the order of the covariate; ``weight``: positive weights. A block runs from
    its start to the next block's start.

    >>> pav_blocks([0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0])
    (array([0, 1, 3]), array([0. , 0.5, 1. ]))
    """
    yv = np.asarray(y, dtype=np.float64)
    sw = np.asarray(weight, dtype=np.float64)
    if yv.ndim != 1 or sw.shape != yv.shape:
        raise ValueError(f"y and weight must be 1-D of one length, got shapes {yv.shape} and {sw.shape}.")
    if yv.size and not (sw > 0).all():
        raise ValueError("pav needs positive weights; drop the values of zero weight first.")
    starts = np.arange(yv.size)
    swy = sw * yv
    # long inputs: pool the runs of violators while that shrinks them fast (a pass reads only
    # the blocks left), then split what is left at means (few blocks: much faster than pooling on)
    while starts.size >= _SPLIT_FROM:
        at = _violators_pooled(swy, sw)
        if at.size > 0.75 * starts.size:
            break
        starts, sw, swy = starts[at], np.add.reduceat(sw, at), np.add.reduceat(swy, at)
    if yv.size >= _SPLIT_FROM:
        found = _split_blocks(swy / sw, sw)
        if found is not None:
            return starts[found[0]], found[1]
    for _ in range(_PASSES):
        if starts.size < 2:
            break
        means = swy / sw
        keep = np.empty(starts.size, dtype=bool)
        keep[0] = True
        np.less_equal(means[:-1], means[1:], out=keep[1:])  # a block starts where no violation
        if keep.all():
            break
        at = np.flatnonzero(keep)
        slow = at.size > 0.95 * starts.size  # passes pool less and less: the stack is faster now
        starts, sw, swy = starts[at], np.add.reduceat(sw, at), np.add.reduceat(swy, at)
        if slow:
            sw, swy, starts = _stack_pool(sw, swy, starts)
            break
    else:
        sw, swy, starts = _stack_pool(sw, swy, starts)
    return starts, swy / sw


def _below(above: np.ndarray, at: np.ndarray, d: int) -> np.ndarray:
    """Counts below positions ``at`` (increasing, 0..d), int64, from the counts at or above each of
    d positions."""
    total = int(above[0])
    inside = int(np.searchsorted(at, d))  # the positions before d
    out = np.empty(at.size, dtype=np.int64)
    out[:inside] = above[at[:inside]]
    np.subtract(total, out[:inside], out=out[:inside])
    out[inside:] = total
    return out


def pav_blocks_of_counts(neg: Any, pos: Any, *, above: Any = None) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`pav_blocks` of the share of positives ``pos / (neg + pos)`` with weights ``neg + pos``
    from integer counts (increasing probabilities; ``neg`` None: one sample at each, ``pos`` 0 or
    1), the same blocks and values; None where that cannot be exact (float counts, totals near
    the int64 range) or some weight is 0 (drop those first). From :data:`_SPLIT_FROM` values on
    (where :func:`pav_blocks` pools ties) exactly, in integer arithmetic, as follows; below, by
    :func:`pav_blocks`.

    The fit is the slope sequence of the greatest convex minorant of the cumulative sum diagram
    ``(W_k, S_k)`` (weight and positives below position k): its blocks start at the diagram's
    vertices. A vertex k has ``y[k - 1] < y[k]`` (one vectorised pass; one sample each: a 0 then a
    1), and lies strictly below the chord between any two points on either side of it: points on
    or above the chord of their neighbours among the candidates are dropped, all at once, pass
    after pass (each pass reads only the candidates left, about half the last), and the few left
    are pooled on a stack. ``above``: the counts at or above each probability (a ranking's running
    counts, reversed: (neg_above or None, pos_above)) give the diagram's points without a pass.

    >>> pav_blocks_of_counts(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1]))
    (array([0, 1, 3]), array([0. , 0.5, 1. ]))
    >>> pav_blocks_of_counts(None, np.array([False, True, False, True]))
    (array([0, 1, 3]), array([0. , 0.5, 1. ]))
    """
    p = np.asarray(pos)
    n = None if neg is None else np.asarray(neg)
    d = p.size
    if p.dtype.kind not in "biu" or (n is not None and n.dtype.kind not in "biu"):
        return None
    if d < _SPLIT_FROM:  # short: pav_blocks itself (which pools ties from that length on)
        nf = (1 - p.astype(np.float64)) if n is None else n.astype(np.float64)
        w = nf + p
        return pav_blocks(p / w, w) if w.all() else None
    if above is None:
        p_above = np.cumsum(p[::-1], dtype=np.int64)[::-1]
        n_above = None if n is None else np.cumsum(n[::-1], dtype=np.int64)[::-1]
    else:
        n_above, p_above = (None if above[0] is None else np.asarray(above[0])), np.asarray(above[1])
    total_p = int(p_above[0])
    total_w = d if n is None else int(n_above[0]) + total_p
    if total_w * max(total_p, 1) >= 1 << 62:  # the products below could leave the int64 range
        return None
    # candidates: y[k - 1] < y[k], with the diagram's ends 0 and d; a reversed array (a ranking's)
    # is read in memory order, where the test is y[j + 1] < y[j]
    flip = p.strides[0] < 0 and (n is None or n.strides[0] < 0)
    q = p[::-1] if flip else p
    if n is None:
        q = q.view(np.uint8) if q.dtype == np.bool_ else q
        low, high = (q[1:], q[:-1]) if flip else (q[:-1], q[1:])
        rise = np.less(low, high)
    else:
        m = n[::-1] if flip else n
        w = np.add(m, q, dtype=np.int64)
        if not w.all():
            return None
        low, high = (slice(1, None), slice(None, -1)) if flip else (slice(None, -1), slice(1, None))
        rise = np.less(q[low] * w[high], q[high] * w[low])
    at = np.flatnonzero(rise)
    at = (d - 1 - at)[::-1] if flip else at + 1
    idx = np.concatenate([[0], at, [d]])
    ys = _below(p_above, idx, d)
    xs = idx.astype(np.int64) if n is None else _below(n_above, idx, d) + ys
    while idx.size > 2:
        dx, dy = np.diff(xs), np.diff(ys)
        keep = np.ones(idx.size, dtype=bool)
        # strictly below the chord of its neighbours: the slope before it below the slope after,
        # dy1 / dx1 < dy2 / dx2 (weights > 0)
        np.less(dy[:-1] * dx[1:], dy[1:] * dx[:-1], out=keep[1:-1])
        kept = int(np.count_nonzero(keep))
        if kept == idx.size:
            break
        idx, ys = idx[keep], ys[keep]
        xs = idx.astype(np.int64) if n is None else xs[keep]
        if kept > 0.9 * keep.size and kept < 1 << 16:  # passes drop less and less: the stack finishes
            sw, swy, starts = _stack_pool(np.diff(xs), np.diff(ys), idx[:-1], ties=True)
            return starts, np.asarray(swy, dtype=np.float64) / np.asarray(sw, dtype=np.float64)
    return idx[:-1], np.diff(ys) / np.diff(xs)


def pav_rows(Y: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """:func:`pav` of every row of ``Y`` (R, D) with the same positive weights (D,), all rows at
    once: each row's fit is the slope sequence of the greatest convex minorant of its cumulative
    sum diagram (running weights, running weighted sums); a block can start only where ``y``
    rises, and the candidate starts of all rows (one flat array, each row's ends kept) drop,
    all at once, pass after pass, where the mean of the block before is at least that of the block
    after (each pass reads only the candidates left); rows still pooling when the passes slow down
    finish on a stack. Block means from the running sums.

    >>> pav_rows(np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]), np.ones(3)).round(4).tolist()
    [[0.0, 0.5, 0.5], [0.3333, 0.3333, 0.3333]]
    """
    R, D = Y.shape
    if R == 0 or D == 0:
        return np.zeros((R, D))
    run_w = np.concatenate([np.zeros(1), np.cumsum(weight)])
    run_y = np.concatenate([np.zeros((R, 1)), np.cumsum(Y * weight, axis=1)], axis=1)
    candidate = np.ones((R, D + 1), dtype=bool)
    np.less(Y[:, :-1], Y[:, 1:], out=candidate[:, 1:D])
    row, k = np.nonzero(candidate)  # row by row, increasing k; each row from 0 to D
    xs, ys = run_w[k], run_y[row, k]
    end = (k == 0) | (k == D)
    pooling = None
    for _ in range(_PASSES):
        mean = np.diff(ys) / np.diff(xs)  # of the block from each candidate to the next
        keep = end.copy()
        keep[1:-1] |= mean[:-1] < mean[1:]  # a block starts where the mean rises
        if keep.all():
            break
        row, k, xs, ys, end = row[keep], k[keep], xs[keep], ys[keep], end[keep]
    else:
        mean = np.diff(ys) / np.diff(xs)
        pooling = ~(mean[:-1] < mean[1:]) & ~end[1:-1]
    ends = k[:-1] != D  # a block from each candidate to the next of its row
    out = np.repeat((np.diff(ys) / np.diff(xs))[ends], np.diff(k)[ends]).reshape(R, D)
    if pooling is not None:  # the rows still pooling finish on a stack, from the blocks the passes left
        for i in np.unique(row[1:-1][pooling]).tolist():
            a, b = np.searchsorted(row, [i, i + 1])
            sw, swy, starts = _stack_pool(np.diff(xs[a:b]), np.diff(ys[a:b]), k[a:b - 1])
            out[i] = np.repeat(swy / sw, np.diff(np.append(starts, D)))
    return out


def pav(y: Any, weight: Any) -> np.ndarray:
    """Weighted isotonic (non-decreasing) least-squares fit of ``y`` (in the covariate's order).

    Parameters
    ----------
    y : array-like of shape (D,)
        The values to fit, ordered by the covariate (here: the share of positives at each
        distinct probability, increasing probability).
    weight : array-like of shape (D,)
        Positive weights.

    Returns
    -------
    numpy.ndarray of shape (D,)
        The fitted values, non-decreasing; each block's value is the weighted mean of its ``y``.

    Examples
    --------
    >>> pav([1.0, 0.0, 2.0], [1.0, 3.0, 1.0]).tolist()
    [0.25, 0.25, 2.0]
    """
    starts, values = pav_blocks(y, weight)
    lengths = np.diff(np.append(starts, np.asarray(y).size))
    return np.repeat(values, lengths)


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """Dot product of two 1-D arrays by einsum: a threaded BLAS dot leaves its threads spinning,
    which slows what runs next on a busy machine."""
    return float(np.einsum("i,i->", a, b))


def _mean_score(x: np.ndarray, neg: np.ndarray, pos: np.ndarray, total: float, score: str,
                finite: bool = False) -> float:
    """Mean score of forecasts x (one per group) given the outcome weights there. Log score:
    0 log 0 = 0, so an exact 0 or 1 costs nothing where it is right."""
    if score == "brier":
        if x.size > 64:  # pos (1 - x)^2 + neg x^2 = (pos + neg) x^2 - 2 pos x + pos: one array formed, not four
            return float(_dot(pos + neg, x * x) - 2.0 * _dot(pos, x) + pos.sum()) / total
        u = 1.0 - x
        return float(_dot(pos, u * u) + _dot(neg, x * x)) / total
    if finite:  # every x strictly inside (0, 1): no 0 log 0 to guard; one scratch array
        scratch = np.log(x)
        with_pos = float(_dot(pos, scratch))
        np.log1p(np.negative(x, out=scratch), out=scratch)
        return 0.0 - (with_pos + float(_dot(neg, scratch))) / total
    with np.errstate(divide="ignore", invalid="ignore"):
        log_x = np.where(pos > 0, np.log(x), 0.0)
        log_u = np.where(neg > 0, np.log1p(-x), 0.0)
    return 0.0 - float(_dot(pos, log_x) + _dot(neg, log_u)) / total  # 0.0 - 0.0: no -0.0


def corp_decomposition(
    values: Any, neg: Any, pos: Any, score: str = "brier", *, fitted: np.ndarray | None = None,
    blocks: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[float, float, float, float]:
    """(score, MCB, DSC, UNC) of probabilities ``values`` (increasing, distinct) with the weights
    of negative and positive outcomes at each; score = MCB - DSC + UNC.

    Parameters
    ----------
    values : array-like of shape (D,)
        Distinct probabilities, increasing, in [0, 1].
    neg, pos : array-like of shape (D,)
        Weight of the negative and of the positive outcomes at each probability; probabilities
        of zero total weight are left out.
    score : {"brier", "log"}, default="brier"
        The proper score: the Brier score ``mean (y - p)^2`` (scikit-learn's binary
        ``brier_score_loss``) or the log score ``-mean log(probability of the outcome)``, with
        the forecasts (not their recalibration) clipped to ``[eps, 1 - eps]`` as scikit-learn's
        ``log_loss`` does.
    fitted : numpy.ndarray, optional
        The isotonic recalibration of the kept values, if already known.
    blocks : tuple of two numpy.ndarray, optional
        The same as :func:`pav_blocks` gives it (start of each block, its value), if known.

    Returns
    -------
    tuple of float
        The mean score, miscalibration (MCB), discrimination (DSC) and uncertainty (UNC); NaN
        with no weight.

    Examples
    --------
    >>> s, mcb, dsc, unc = corp_decomposition([0.2, 0.8], [2.0, 1.0], [1.0, 2.0], "log")
    >>> round(s, 6), round(mcb, 6), round(dsc, 6), round(unc, 6)
    (0.685242, 0.048728, 0.056633, 0.693147)
    """
    if score not in SCORES:
        raise ValueError(f"score must be one of {list(SCORES)}, got {score!r}.")
    if blocks is None and fitted is not None:
        starts = np.flatnonzero(np.r_[True, fitted[1:] != fitted[:-1]])
        blocks = starts, fitted[starts]
    return corp_decompositions(values, neg, pos, (score,), blocks=blocks)[score]


def corp_decompositions(
    values: Any, neg: Any, pos: Any, scores: tuple[str, ...] = SCORES, *,
    blocks: tuple[np.ndarray, np.ndarray] | None = None, forecast: dict[str, float] | None = None,
    above: Any = None,
) -> dict[str, tuple[float, float, float, float]]:
    """:func:`corp_decomposition` for each of ``scores``, sharing one isotonic fit and one pass of
    block sums: {score: (score, MCB, DSC, UNC)}. ``forecast``: the mean score of the forecasts
    themselves where already known (e.g. a calibration report's Brier score and log loss, the
    same numbers to rounding), by score name; the others are computed. ``above``: integer counts
    at or above each probability ((neg_above or None, pos_above), as for
    :func:`pav_blocks_of_counts`; ``neg`` may then be None, one sample at each) with ``blocks``
    over all the probabilities (none of zero weight): the blocks' outcome counts are read off
    them, and with ``forecast`` for every score nothing reads the per-probability arrays.

    >>> d = corp_decompositions([0.2, 0.8], [2.0, 1.0], [1.0, 2.0])
    >>> [round(x, 6) for x in d["log"]] == [round(x, 6) for x in corp_decomposition([0.2, 0.8], [2.0, 1.0], [1.0, 2.0], "log")]
    True
    >>> neg, pos = np.array([2, 1]), np.array([1, 2])
    >>> fast = corp_decompositions([0.2, 0.8], neg, pos, blocks=pav_blocks_of_counts(neg, pos), above=([3, 1], [3, 2]))
    >>> fast == corp_decompositions([0.2, 0.8], neg, pos)
    True
    """
    bad = [s for s in scores if s not in SCORES]
    if bad:
        raise ValueError(f"score must be one of {list(SCORES)}, got {bad[0]!r}.")
    if above is not None and blocks is not None:
        return _decompositions_of_running(values, neg, pos, scores, blocks, forecast, above)
    v = np.asarray(values, dtype=np.float64)
    n = np.asarray(neg, dtype=np.float64)
    p = np.asarray(pos, dtype=np.float64)
    w = n + p
    keep = w > 0
    if not keep.all():
        v, n, p, w = v[keep], n[keep], p[keep], w[keep]
    total = float(w.sum())
    if not total > 0:
        return {s: (float("nan"),) * 4 for s in scores}
    # the recalibration is constant on blocks: its score from the blocks' outcome sums
    starts, hat = pav_blocks(p / w, w) if blocks is None else blocks
    block_neg, block_pos = np.add.reduceat(n, starts), np.add.reduceat(p, starts)
    return _decomposed(scores, hat, block_neg, block_pos, total, forecast, lambda: (v, n, p))


def _decompositions_of_running(
    values: Any, neg: Any, pos: Any, scores: tuple[str, ...], blocks: tuple[np.ndarray, np.ndarray],
    forecast: dict[str, float] | None, above: Any,
) -> dict[str, tuple[float, float, float, float]]:
    """:func:`corp_decompositions` with the blocks' outcome counts from the running counts."""
    n_above, p_above = (None if above[0] is None else np.asarray(above[0])), np.asarray(above[1])
    d = p_above.size
    if d == 0:
        return {s: (float("nan"),) * 4 for s in scores}
    starts, hat = blocks
    edges = np.append(starts, d)
    below = _below(p_above, edges, d)
    block_pos = np.diff(below)
    block_w = np.diff(edges) if n_above is None else np.diff(_below(n_above, edges, d)) + block_pos
    block_neg = (block_w - block_pos).astype(np.float64)
    total = float(block_w.sum())
    if not total > 0:
        return {s: (float("nan"),) * 4 for s in scores}

    def arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        p = np.asarray(pos, dtype=np.float64)
        n = 1.0 - p if neg is None else np.asarray(neg, dtype=np.float64)
        return np.asarray(values, dtype=np.float64), n, p

    return _decomposed(scores, hat, block_neg, block_pos.astype(np.float64), total, forecast, arrays)


def _decomposed(
    scores: tuple[str, ...], hat: np.ndarray, block_neg: np.ndarray, block_pos: np.ndarray, total: float,
    forecast: dict[str, float] | None, arrays: Any,
) -> dict[str, tuple[float, float, float, float]]:
    """(score, MCB, DSC, UNC) per score from the recalibration's blocks; ``arrays()`` gives
    (values, neg, pos) for the forecasts' own scores not in ``forecast``."""
    all_neg, all_pos = np.array([block_neg.sum()]), np.array([block_pos.sum()])
    base = all_pos / total
    out = {}
    for score in scores:
        if forecast is not None and score in forecast:
            s_forecast = float(forecast[score])
        else:
            v, n, p = arrays()
            x = np.clip(v, _EPS, 1.0 - _EPS) if score == "log" else v
            s_forecast = _mean_score(x, n, p, total, score, finite=True)  # log: clipped
        s_hat = _mean_score(hat, block_neg, block_pos, total, score)
        s_base = _mean_score(base, all_neg, all_pos, total, score)
        out[score] = (s_forecast, s_forecast - s_hat, s_base - s_hat, s_base)
    return out


def consistency_band(
    values: Any, weight: Any, *, level: float = 0.9, n_resamples: int = 1000, seed: Any = 0, trials: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(low, high): the CORP consistency band at each distinct probability.

    Under the hypothesis that the forecasts are calibrated, the positives at each distinct
    probability ``v`` are drawn Binomial(trials, v) (``trials``: the number of samples there,
    default the weight rounded; with non-integer weights pass e.g. ones: one Bernoulli(v) draw per
    distinct probability), their share is recalibrated by :func:`pav` with the weights, and each
    probability gets the ``(1 - level) / 2``
    and ``(1 + level) / 2`` quantiles (numpy's linear) of its recalibrated values.

    Parameters
    ----------
    values : array-like of shape (D,)
        Distinct probabilities, increasing.
    weight : array-like of shape (D,)
        Positive total weight at each.
    level : float, default=0.9
        The band's level.
    n_resamples : int, default=1000
        Redraws of the outcomes.
    seed : int or numpy.random.Generator, default=0
        Seed of the redraws.
    trials : array-like of shape (D,), optional
        Samples at each probability (binomial draws); default ``weight`` rounded (at least 1).

    Returns
    -------
    low, high : numpy.ndarray of shape (D,)
        The band's limits at each probability.

    Examples
    --------
    >>> low, high = consistency_band([0.2, 0.5, 0.8], [50, 50, 50], n_resamples=200)
    >>> bool((low <= [0.2, 0.5, 0.8]).all() and ([0.2, 0.5, 0.8] <= high).all())
    True
    """
    v = np.asarray(values, dtype=np.float64)
    w = np.asarray(weight, dtype=np.float64)
    if not 0 < level < 1:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level}.")
    rng = np.random.default_rng(seed)
    n = np.round(w if trials is None else np.asarray(trials, dtype=np.float64))
    trials = np.maximum(n, 1).astype(np.int64)
    fits = pav_rows(rng.binomial(trials, v, size=(n_resamples, v.size)) / trials, w)
    low, high = np.quantile(fits, [(1 - level) / 2, (1 + level) / 2], axis=0)
    return low, high
