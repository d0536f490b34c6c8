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

__all__ = ["SCORES", "consistency_band", "corp_decomposition", "corp_decompositions", "pav", "pav_blocks", "pav_rows"]

#: the proper scores CORP decomposes
SCORES = ("brier", "log")

_PASSES = 64  # vectorised pooling passes before the stack finishes the rest
_SPLIT_FROM = 1 << 15  # inputs this long first try splitting at means (few blocks: much faster)
_MAX_SPLIT_BLOCKS = 4096
_EPS = float(np.finfo(np.float64).eps)


def _stack_pool(sw: np.ndarray, swy: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pool the blocks (weights, weighted sums, start indices) on a stack, left to right."""
    out_w: list[float] = []
    out_s: list[float] = []
    out_i: list[int] = []
    for w, s, i in zip(sw.tolist(), swy.tolist(), starts.tolist()):
        while out_w and out_s[-1] * w > s * out_w[-1]:  # mean before > this mean (weights > 0)
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


def pav_rows(Y: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """:func:`pav` of every row of ``Y`` (R, D) with the same positive weights (D,), pooling the
    violators of all rows at once, pass after pass (block means from running sums); rows still
    pooling after the passes run one by one.

    >>> pav_rows(np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]), np.ones(3)).round(4).tolist()
    [[0.0, 0.5, 0.5], [0.3333, 0.3333, 0.3333]]
    """
    R, D = Y.shape
    zero = np.zeros((R, 1))
    run_w = np.concatenate([np.zeros(1), np.cumsum(weight)])
    run_y = np.concatenate([zero, np.cumsum(Y * weight, axis=1)], axis=1)
    start = np.ones((R, D), dtype=bool)
    pos = np.arange(D)
    rows = np.arange(R)[:, None]
    for _ in range(max(1, _PASSES // 4)):
        first = np.maximum.accumulate(np.where(start, pos, 0), axis=1)  # block start of each position
        nxt = np.where(start, pos, D)
        nxt = np.minimum.accumulate(np.append(nxt[:, 1:], np.full((R, 1), D), axis=1)[:, ::-1], axis=1)[:, ::-1]
        mean = (run_y[rows, nxt] - run_y[rows, first]) / (run_w[nxt] - run_w[first])
        merge = start[:, 1:] & (mean[:, :-1] > mean[:, 1:])
        if not merge.any():
            return mean
        start[:, 1:] &= ~merge
    # rows still pooling: finish each on a stack, from the blocks the passes left
    out = mean
    for i in np.flatnonzero(merge.any(axis=1)):
        at = np.flatnonzero(start[i])
        sw, swy, starts = _stack_pool(np.add.reduceat(weight, at), np.add.reduceat(Y[i] * weight, at), at)
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


def _mean_score(x: np.ndarray, neg: np.ndarray, pos: np.ndarray, total: float, score: str,
                finite: bool = False) -> float:
    """Mean score of forecasts x (one per group) given the outcome weights there. Log score:
    0 log 0 = 0, so an exact 0 or 1 costs nothing where it is right."""
    if score == "brier":
        if x.size > 64:  # pos (1 - x)^2 + neg x^2 = (pos + neg) x^2 - 2 pos x + pos: one array formed, not four
            return float(np.dot(pos + neg, x * x) - 2.0 * np.dot(pos, x) + pos.sum()) / total
        u = 1.0 - x
        return float(np.dot(pos, u * u) + np.dot(neg, x * x)) / total
    if finite:  # every x strictly inside (0, 1): no 0 log 0 to guard; one scratch array
        scratch = np.log(x)
        with_pos = float(np.dot(pos, scratch))
        np.log1p(np.negative(x, out=scratch), out=scratch)
        return 0.0 - (with_pos + float(np.dot(neg, scratch))) / total
    with np.errstate(divide="ignore", invalid="ignore"):
        log_x = np.where(pos > 0, np.log(x), 0.0)
        log_u = np.where(neg > 0, np.log1p(-x), 0.0)
    return 0.0 - float(np.dot(pos, log_x) + np.dot(neg, log_u)) / total  # 0.0 - 0.0: no -0.0


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
) -> dict[str, tuple[float, float, float, float]]:
    """:func:`corp_decomposition` for each of ``scores``, sharing one isotonic fit and one pass of
    block sums: {score: (score, MCB, DSC, UNC)}. ``forecast``: the mean score of the forecasts
    themselves where already known (e.g. a calibration report's Brier score and log loss, the
    same numbers to rounding), by score name; the others are computed.

    >>> d = corp_decompositions([0.2, 0.8], [2.0, 1.0], [1.0, 2.0])
    >>> [round(x, 6) for x in d["log"]] == [round(x, 6) for x in corp_decomposition([0.2, 0.8], [2.0, 1.0], [1.0, 2.0], "log")]
    True
    """
    bad = [s for s in scores if s not in SCORES]
    if bad:
        raise ValueError(f"score must be one of {list(SCORES)}, got {bad[0]!r}.")
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
    all_neg, all_pos = np.array([block_neg.sum()]), np.array([block_pos.sum()])
    base = all_pos / total
    out = {}
    for score in scores:
        if forecast is not None and score in forecast:
            s_forecast = float(forecast[score])
        else:
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
