"""Measures at another prevalence: what a classifier's TPR and FPR give where the positive class has
prevalence pi, not the sample's.

A model validated on a balanced or enriched sample is used where positives are rare. TPR and FPR (and
so the ROC curve) do not depend on the prevalence; PPV, NPV, F-beta, accuracy, MCC, the precision-recall
curve and average precision do. At prevalence pi the confusion table, in shares of all cases, is

    TP' = pi TPR,  FN' = pi (1 - TPR),  FP' = (1 - pi) FPR,  TN' = (1 - pi) (1 - FPR),

and every measure is the package's own formula (:mod:`clfeval.formulas.measures`) of that table: the
same numbers as reweighting the sample so that its prevalence is pi (positives by pi / p, negatives by
(1 - pi) / (1 - p)). The precision there is the *calibrated precision* of Siblini et al. (2020),
pi TPR / (pi TPR + (1 - pi) FPR); the PR curve and AP at pi are the same step curve and step area as
the sample's, with that precision.

All functions are batched over leading axes (pi broadcasts against them), except the passes over one
ranking's cells chunk by chunk (:func:`positive_cell_chunks`, :func:`calibrated_precision_sum`), which one
ranking's AP at pi and its interval (:mod:`clfeval.uncertainty.prevalence_intervals`) read.

>>> vals = measures_at_prevalence(np.array(0.8), np.array(0.1), 0.1)
>>> round(float(vals["precision"]), 6), round(float(vals["npv"]), 6), round(float(vals["accuracy"]), 6)
(0.470588, 0.975904, 0.89)

References
----------
.. [1] Siblini, W., Frery, J., He-Guelton, L., Oble, F. and Wang, Y.-Q. (2020). Master your metrics
   with calibration. Advances in Intelligent Data Analysis XVIII (IDA 2020), LNCS 12080, 457-469.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from clfeval.formulas import measures as m
from clfeval.formulas.curves import average_precision, precision_recall_points

__all__ = [
    "CHUNK",
    "PREVALENCE_MEASURES",
    "average_precision_at_prevalence",
    "calibrated_precision",
    "calibrated_precision_sum",
    "class_totals",
    "measure_gradients_at_prevalence",
    "measures_at_prevalence",
    "positive_cell_chunks",
    "pr_points_at_prevalence",
    "prevalence_weights",
    "table_at_prevalence",
]

#: the measures that change with the prevalence, in the order views show them (F-beta as "f<beta>")
PREVALENCE_MEASURES = ("precision", "npv", "f1", "accuracy", "mcc")


def table_at_prevalence(tpr: Any, fpr: Any, prevalence: Any) -> tuple[np.ndarray, ...]:
    """(TP', FP', FN', TN'): the confusion table at prevalence pi, in shares of all cases.

    >>> [round(float(x), 4) for x in table_at_prevalence(0.8, 0.1, 0.1)]
    [0.08, 0.09, 0.02, 0.81]
    """
    t, f, p = (np.asarray(x, dtype=np.float64) for x in (tpr, fpr, prevalence))
    return p * t, (1.0 - p) * f, p * (1.0 - t), (1.0 - p) * (1.0 - f)


def measures_at_prevalence(tpr: Any, fpr: Any, prevalence: Any, beta: float = 1.0) -> dict[str, np.ndarray]:
    """PPV ("precision"), NPV, F-beta (key "f<beta>"), accuracy and MCC at prevalence pi, with TPR
    ("recall") and FPR ("fallout") as given; NaN where a measure is 0/0 (e.g. PPV where TPR = FPR = 0).

    Parameters
    ----------
    tpr, fpr : array-like
        True and false positive rates, any (broadcastable) shape.
    prevalence : float or array-like
        The positive class's share pi, 0 < pi < 1.
    beta : float, default 1.0
        Weight of recall in F-beta.

    Returns
    -------
    dict of str to numpy.ndarray
        One array per measure.

    Examples
    --------
    >>> v = measures_at_prevalence(0.5, 0.5, 0.3)  # a coin: PPV is the prevalence, MCC 0
    >>> round(float(v["precision"]), 12), float(v["mcc"])
    (0.3, 0.0)
    """
    tp, fp, fn, tn = table_at_prevalence(tpr, fpr, prevalence)
    cm = np.stack(np.broadcast_arrays(tn, fp, fn, tp), axis=-1).reshape(np.broadcast(tn, fp, fn, tp).shape + (2, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = {
            "precision": m.precision(tp, fp),
            "recall": np.asarray(tpr, dtype=np.float64) + 0.0 * tp,
            "fallout": np.asarray(fpr, dtype=np.float64) + 0.0 * tp,
            "npv": m.npv(tn, fn),
            f"f{beta:g}": m.fbeta(tp, fp, fn, beta),
            "accuracy": m.accuracy(cm),
            "mcc": m.matthews_corrcoef(cm),
        }
    return out


def measure_gradients_at_prevalence(tpr: Any, fpr: Any, prevalence: Any, beta: float = 1.0
                                    ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """(d measure / d TPR, d measure / d FPR) of each measure of :func:`measures_at_prevalence`,
    pi fixed. With D = pi t + (1 - pi) f (the predicted positive share) and E = 1 - D:

    * PPV = pi t / D: (pi (1 - pi) f / D^2, -pi (1 - pi) t / D^2);
    * NPV = (1 - pi)(1 - f) / E: (pi (1 - pi)(1 - f) / E^2, -pi (1 - pi)(1 - t) / E^2);
    * F-beta = (1 + b^2) pi t / G, G = pi t + b^2 pi + (1 - pi) f:
      ((1 + b^2) pi (G - pi t) / G^2, -(1 + b^2) pi (1 - pi) t / G^2);
    * accuracy = pi t + (1 - pi)(1 - f): (pi, -(1 - pi));
    * MCC = s (t - f) / sqrt(D E), s = sqrt(pi (1 - pi)):
      s / sqrt(DE) - s (t - f)(1 - 2D) pi / (2 (DE)^(3/2)) and -s / sqrt(DE) - s (t - f)(1 - 2D)(1 - pi) / (2 (DE)^(3/2)).

    >>> g = measure_gradients_at_prevalence(0.8, 0.1, 0.5)
    >>> [round(float(x), 6) for x in g["accuracy"]], [round(float(x), 6) for x in g["precision"]]
    ([0.5, -0.5], [0.123457, -0.987654])
    """
    t, f, p = (np.asarray(x, dtype=np.float64) for x in (tpr, fpr, prevalence))
    q = 1.0 - p
    b2 = beta * beta
    d = p * t + q * f
    e = 1.0 - d
    g = p * t + b2 * p + q * f
    s = np.sqrt(p * q)
    with np.errstate(invalid="ignore", divide="ignore"):
        de = d * e
        root = np.sqrt(de)
        mcc_common = s * (t - f) * (1.0 - 2.0 * d) / (2.0 * de * root)
        out = {
            "precision": (p * q * f / d**2, -p * q * t / d**2),
            "npv": (p * q * (1.0 - f) / e**2, -p * q * (1.0 - t) / e**2),
            f"f{beta:g}": ((1.0 + b2) * p * (g - p * t) / g**2, -(1.0 + b2) * p * q * t / g**2),
            "accuracy": (p + 0.0 * t, -q + 0.0 * f),
            "mcc": (s / root - mcc_common * p, -s / root - mcc_common * q),
            "recall": (np.ones_like(t + f), np.zeros_like(t + f)),
            "fallout": (np.zeros_like(t + f), np.ones_like(t + f)),
        }
    return out


def calibrated_precision(tpr: Any, fpr: Any, prevalence: Any) -> np.ndarray:
    """Precision at prevalence pi, pi TPR / (pi TPR + (1 - pi) FPR) (Siblini et al. 2020); NaN where
    TPR = FPR = 0.

    >>> float(calibrated_precision(0.5, 0.25, 0.2))
    0.3333333333333333
    """
    tp, fp, _, _ = table_at_prevalence(tpr, fpr, prevalence)
    return m.precision(tp, fp)


def prevalence_weights(neg: Any, pos: Any, prevalence: float) -> tuple[np.ndarray, np.ndarray]:
    """Per-score counts reweighted to prevalence pi: positives scaled to total pi, negatives to
    1 - pi (the sample's counts in shares of a population with that prevalence). Every measure of
    rates reads the same TPR and FPR off them, and the precision there is the calibrated precision.

    >>> n, p = prevalence_weights(np.array([0, 1, 3]), np.array([2, 1, 1]), 0.5)
    >>> n.tolist(), p.tolist()
    ([0.0, 0.125, 0.375], [0.25, 0.125, 0.125])
    """
    neg = np.asarray(neg, dtype=np.float64)
    pos = np.asarray(pos, dtype=np.float64)
    n_total, p_total = neg.sum(axis=-1, keepdims=True), pos.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return neg * ((1.0 - prevalence) / n_total), pos * (prevalence / p_total)


def pr_points_at_prevalence(neg: Any, pos: Any, scores: np.ndarray, prevalence: float
                            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The precision-recall curve at prevalence pi (precision, recall, thresholds), by decreasing
    threshold, starting at the synthetic point (precision 1, recall 0, threshold +inf): the sample's
    curve with the calibrated precision. ``neg`` and ``pos`` are per-score counts, highest score first
    (``neg`` None: one sample per score).

    >>> p, r, t = pr_points_at_prevalence(np.array([0, 1, 1]), np.array([1, 1, 0]), np.array([.8, .4, .1]), 0.2)
    >>> [round(x, 4) for x in p.tolist()], r.tolist()
    ([1.0, 1.0, 0.3333, 0.2], [0.0, 0.5, 1.0, 1.0])
    """
    pos = np.asarray(pos)
    neg = (1 - pos) if neg is None else np.asarray(neg)
    w_neg, w_pos = prevalence_weights(neg, pos, prevalence)
    return precision_recall_points(w_neg, w_pos, np.asarray(scores), descending=True)


def average_precision_at_prevalence(neg: Any, pos: Any, prevalence: float, *, tps: Any = None,
                                    fps: Any = None) -> float | np.ndarray:
    """Average precision at prevalence pi: the step area sum over scores of the calibrated precision
    times each rise in recall (the package's AP, with its step rule, at pi); NaN without positives or
    negatives (pi has no meaning without both classes).

    One ranking (1-D counts, ``neg`` None: one sample per score) reads only the cells that hold
    positives (:func:`positive_cell_chunks`; ``tps`` and ``fps``: its cumulative counts, where held):
    AP = sum pos prec / P, prec the calibrated precision there (:func:`calibrated_precision_sum`).

    >>> round(average_precision_at_prevalence(np.array([0, 1, 1]), np.array([1, 1, 0]), 0.5), 6)
    0.833333
    """
    pos = np.asarray(pos)
    if pos.ndim == 1:
        n_total, p_total = class_totals(neg, pos)
        if np.isfinite(n_total) and np.isfinite(p_total):
            if not (n_total > 0 and p_total > 0):
                return float("nan")
            c_p, c_n = prevalence / p_total, (1.0 - prevalence) / n_total
            parts = [calibrated_precision_sum(tp, fp, w, c_p, c_n)[2]
                     for _, _, _, tp, fp, w in positive_cell_chunks(neg, pos, tps, fps)]
            return math.fsum(parts) / p_total
    neg = (1 - pos) if neg is None else np.asarray(neg)
    w_neg, w_pos = prevalence_weights(neg, pos, prevalence)
    ok = (neg.sum(axis=-1) > 0) & (pos.sum(axis=-1) > 0)
    if not np.any(ok):
        return float("nan") if pos.ndim == 1 else np.full(pos.shape[:-1], np.nan)
    ap = average_precision(np.where(np.isfinite(w_neg), w_neg, 0.0), np.where(np.isfinite(w_pos), w_pos, 0.0))
    out = np.where(ok, ap, np.nan)
    return float(out) if out.ndim == 0 else out


#: cells per chunk of the passes over one ranking (arrays that stay in cache)
CHUNK = 1 << 15


def class_totals(neg: Any, pos: np.ndarray) -> tuple[float, float]:
    """(N, P) of one ranking's per-score counts (``neg`` None: one sample per score).

    >>> class_totals(None, np.array([True, False, False]))
    (2.0, 1.0)
    """
    if neg is None:
        p = float(np.count_nonzero(pos))
        return float(pos.size) - p, p
    return float(np.sum(neg)), float(np.sum(pos))


def positive_cell_chunks(neg: Any, pos: np.ndarray, tps: Any = None, fps: Any = None, *, reverse: bool = False,
                         size: int = CHUNK) -> Iterator[tuple[int, int, np.ndarray, np.ndarray, np.ndarray, Any]]:
    """The cells of one ranking that hold positives, chunk by chunk of ``size`` cells (last chunk first with
    ``reverse``): (lo, hi, idx, TP, FP, pos) with idx the cells in lo..hi-1 that hold positives, TP and FP the
    cumulative counts there (float64; read from ``tps`` and ``fps`` where given) and pos their positives
    (None: one each, ``neg`` None: one sample per score).

    >>> [(lo, hi, i.tolist(), t.tolist(), f.tolist()) for lo, hi, i, t, f, _ in
    ...  positive_cell_chunks(None, np.array([True, False, True, False]), size=3)]
    [(0, 3, [0, 2], [1.0, 2.0], [0.0, 1.0]), (3, 4, [], [], [])]
    """
    d = pos.size
    tps = np.cumsum(pos) if tps is None else tps
    if neg is not None:
        fps = np.cumsum(neg) if fps is None else fps
    starts = range(0, d, size)
    for lo in (reversed(starts) if reverse else starts):
        hi = min(d, lo + size)
        idx = np.flatnonzero(pos[lo:hi])
        idx += lo
        tp = tps[idx].astype(np.float64)
        if neg is None:
            fp = idx + 1.0
            fp -= tp
            yield lo, hi, idx, tp, fp, None
        else:
            yield lo, hi, idx, tp, fps[idx].astype(np.float64), np.asarray(pos[idx], dtype=np.float64)


def calibrated_precision_sum(tp: np.ndarray, fp: np.ndarray, w: Any, c_p: float, c_n: float
                             ) -> tuple[np.ndarray, np.ndarray, float]:
    """(the calibrated precision c_p TP / K at cells with cumulative counts TP and FP, K = c_p TP + c_n FP, and
    the precision's sum weighted by ``w`` (None: 1 each)); c_p = pi / P and c_n = (1 - pi) / N. ``tp`` is
    overwritten (it becomes the precision).

    >>> prec, k, total = calibrated_precision_sum(np.array([1.0, 2.0]), np.array([0.0, 1.0]), None, 0.5, 0.25)
    >>> prec.tolist(), k.tolist(), total
    ([1.0, 0.8], [0.5, 1.25], 1.8)
    """
    tp *= c_p
    k = fp * c_n
    k += tp
    prec = np.divide(tp, k, out=tp)
    total = float(prec.sum()) if w is None else float(np.einsum("i,i->", w, prec))
    return prec, k, total
