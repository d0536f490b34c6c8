"""scikit-learn's drop-in :func:`classification_report`: precision, recall, F1 and support per class,
with the micro (or accuracy), macro, weighted and (multilabel) samples averages, as text or a dict.

>>> classification_report(["a", "b", "b"], ["a", "b", "a"], output_dict=True)["macro avg"]["recall"]
0.75
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from clfeval.statistics.counts import build_counts
from clfeval.metrics.label_options import check_bool, zero_division_value
from clfeval.metrics.label_tables import ovr_tables, unit_exponent_of
from clfeval.metrics.setwise import SetwiseCounts, multilabel_setwise, prf_from_counts

__all__ = ["classification_report"]


def classification_report(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    target_names: Any = None,
    sample_weight: Any = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: Any = "warn",
) -> str | dict:
    """Text (or dict) report of precision, recall, F1 and support per class, with averages.

    One row per class, then the averages: "accuracy" (the micro average, when it equals accuracy:
    binary or multiclass data scored over every class present) or "micro avg", "macro avg",
    "weighted avg" and, for multilabel data, "samples avg".

    Same as `sklearn.metrics.classification_report`; differences: none in results for ordinary
    input (same text and dict; float weights: up to rounding in the last bits); faster (every row
    read off confusion counts built in one pass); exact where scikit-learn's sums fail (integer
    supports past 2**53 print as exact integers where scikit-learn prints a float, and float weights
    whose sums overflow still give the right rates; scikit-learn: NaN); a negative
    ``sample_weight`` raises ValueError (scikit-learn accepts it); invalid ``digits`` raises
    ValueError (scikit-learn: its InvalidParameterError); clfeval's own error messages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True classes: 1-D labels, or a 0/1 indicator matrix for multilabel data.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted classes, in the same form as ``y_true``.
    labels : array-like of shape (n_classes,), default=None
        Classes to report, in this order (column indices for multilabel data); None: every label
        in ``y_true`` and ``y_pred``, sorted. Leaving out a present class turns the "accuracy"
        row into "micro avg".
    target_names : list of str of shape (n_classes,), default=None
        Display names of the reported classes, in the order of ``labels``; None uses the labels
        themselves.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weight of each sample; None weighs every sample 1. Supports are then total
        weights.
    digits : int, default=2
        Decimals of the rates in the text report (the dict keeps full precision).
    output_dict : bool, default=False
        If True, return a dict instead of text.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a rate that is 0/0 (no predicted or no true samples of a class). "warn" uses 0
        and gives an UndefinedMetricWarning.

    Returns
    -------
    str or dict
        The text table, or a dict mapping each class name and average name to
        ``{"precision", "recall", "f1-score", "support"}`` (with ``"accuracy"`` mapped to a float).

    See Also
    --------
    precision_recall_fscore_support : The numbers behind each row.

    Examples
    --------
    >>> print(classification_report([0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 2, 2, 2, 1]))  # doctest: +NORMALIZE_WHITESPACE
                  precision    recall  f1-score   support
    <BLANKLINE>
               0       1.00      1.00      1.00         2
               1       0.50      0.50      0.50         2
               2       0.67      0.67      0.67         3
    <BLANKLINE>
        accuracy                           0.71         7
       macro avg       0.72      0.72      0.72         7
    weighted avg       0.71      0.71      0.71         7
    <BLANKLINE>
    """
    zero_division_value(zero_division)
    check_bool(output_dict, "output_dict")
    if not isinstance(digits, int) or digits < 0:
        raise ValueError(f"digits must be an integer >= 0, got {digits!r}.")
    kind, counts, true_labels, pred_labels = build_counts(y_true, y_pred, sample_weight)
    present = np.arange(counts.n_labels) if kind == "multilabel-indicator" else counts.labels
    labels_given = labels is not None
    labels = present if labels is None else np.asarray(labels)
    micro_is_accuracy = kind in ("binary", "multiclass") and (
        not labels_given or set(labels.tolist()) >= set(present.tolist())
    )
    if target_names is not None and len(labels) != len(target_names):
        if labels_given:
            warnings.warn(
                f"labels size, {len(labels)}, does not match size of target_names, "
                f"{len(target_names)}",
                UserWarning,
                stacklevel=2,
            )
        else:
            raise ValueError(
                f"Number of classes, {len(labels)}, does not match size of target_names, "
                f"{len(target_names)}. Try specifying the labels parameter"
            )
    if target_names is None:
        target_names = [f"{label}" for label in labels.tolist()]
    if kind == "multilabel-indicator":
        base = multilabel_setwise(y_true, y_pred, counts, labels, None, sample_weight)
        averages = ("micro", "macro", "weighted", "samples")
    else:
        tables = ovr_tables(counts, labels, sample_weight is not None)
        base = SetwiseCounts(kind, tables[:, 1, 1], tables[:, 0, 1], tables[:, 1, 0], tables[:, 0, 0], None, None,
                              unit_exponent_of(counts))
        averages = ("micro", "macro", "weighted")
    warn_for = ("precision", "recall", "f-score")
    p, r, f1, support = prf_from_counts(base, 1.0, warn_for, zero_division)
    headers = ["precision", "recall", "f1-score", "support"]
    summary: list[tuple[str, list]] = []
    total_support = np.sum(support)
    for average in averages:
        if average == "samples":
            c = multilabel_setwise(y_true, y_pred, counts, labels, "samples", sample_weight)
        else:
            c = base.with_average(average)
        ap, ar, af, _ = prf_from_counts(c, 1.0, warn_for, zero_division)
        heading = "accuracy" if (average == "micro" and micro_is_accuracy) else f"{average} avg"
        summary.append((heading, [ap, ar, af, total_support]))
    if output_dict:
        report: dict = {}
        for name, row in zip(target_names, zip(p, r, f1, support)):
            report[name] = dict(zip(headers, [float(v) for v in row]))
        for heading, row in summary:
            report[heading] = dict(zip(headers, [float(v) for v in row]))
        if "accuracy" in report:
            report["accuracy"] = report["accuracy"]["precision"]
        return report
    return _format_report(target_names, p, r, f1, support, summary, digits, headers)


def _format_report(target_names, p, r, f1, support, summary, digits, headers) -> str:
    width = max(max(len(str(n)) for n in target_names), len("weighted avg"), digits)
    head_fmt = "{:>{width}s} " + " {:>9}" * len(headers)
    lines = [head_fmt.format("", *headers, width=width), "\n\n"]
    row_fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    for row in zip(target_names, p, r, f1, support):
        lines.append(row_fmt.format(*row, width=width, digits=digits))
    lines.append("\n")
    for heading, (ap, ar, af, s) in summary:
        if heading == "accuracy":
            fmt = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n"
            lines.append(fmt.format(heading, "", "", af, s, width=width, digits=digits))
        else:
            lines.append(row_fmt.format(heading, ap, ar, af, s, width=width, digits=digits))
    return "".join(lines)
