"""Confusion matrices, scikit-learn's drop-ins: :func:`confusion_matrix` (normalised on request,
exact shares for exact counts) and :func:`multilabel_confusion_matrix` (one-vs-rest 2x2 tables per
label, or per sample).

>>> confusion_matrix(["a", "b", "b"], ["a", "b", "a"], normalize="true").tolist()
[[1.0, 0.0], [0.5, 0.5]]
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from clfeval.statistics.counts import build_counts
from clfeval.formulas.exact_sums import exact_ratio, is_big
from clfeval.metrics.label_options import check_bool
from clfeval.metrics.label_tables import binary_1d, labelled_matrix, ovr_tables, warn_single_label
from clfeval.metrics.setwise import multilabel_setwise

__all__ = ["confusion_matrix", "multilabel_confusion_matrix"]


def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    normalize: Literal["true", "pred", "all"] | None = None,
) -> np.ndarray:
    """Confusion matrix C[i, j]: samples of true class i predicted as class j.

    >>> confusion_matrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2]).tolist()
    [[2, 0, 0], [0, 0, 1], [1, 0, 2]]
    """
    if normalize not in ("true", "pred", "all", None):
        raise ValueError(f"normalize must be one of {{'true', 'pred', 'all', None}}, got {normalize!r}.")
    kind, counts, true_labels, _ = build_counts(y_true, y_pred, sample_weight)
    cm = labelled_matrix(binary_1d(kind, counts), true_labels, labels)
    if normalize is not None and (counts.exact is not None or is_big(cm)):
        # exact counts: each share correctly rounded (0 where the row/column/total is 0)
        t = labelled_matrix(counts, true_labels, labels, exact=True)
        den = {"true": t.sum(axis=1, keepdims=True), "pred": t.sum(axis=0, keepdims=True), "all": t.sum()}[normalize]
        cm = np.nan_to_num(exact_ratio(t, den))
    elif normalize is not None:
        with np.errstate(all="ignore"):
            if normalize == "true":
                cm = cm / cm.sum(axis=1, keepdims=True)
            elif normalize == "pred":
                cm = cm / cm.sum(axis=0, keepdims=True)
            else:
                cm = cm / cm.sum()
        cm = np.nan_to_num(cm)
    if cm.shape == (1, 1):
        warn_single_label(stacklevel=3)
    return cm


def multilabel_confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
) -> np.ndarray:
    """One-vs-rest 2x2 tables ``[[tn, fp], [fn, tp]]`` per label (or per sample).

    >>> multilabel_confusion_matrix(["cat", "ant", "cat"], ["ant", "ant", "cat"]).tolist()
    [[[1, 1], [0, 1]], [[1, 0], [1, 1]]]
    """
    check_bool(samplewise, "samplewise")
    kind, counts, _, _ = build_counts(y_true, y_pred, sample_weight)
    if kind != "multilabel-indicator":
        if samplewise:
            raise ValueError(
                "Samplewise metrics are not available outside of multilabel classification."
            )
        lab = counts.labels if labels is None else np.asarray(labels)
        return ovr_tables(counts, lab, sample_weight is not None, exact=False)
    average = "samples" if samplewise else None
    c = multilabel_setwise(y_true, y_pred, counts, labels, average, sample_weight)
    return np.stack([c.tn, c.fp, c.fn, c.tp], axis=-1).reshape(-1, 2, 2)
