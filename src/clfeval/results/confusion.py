"""The confusion matrix as an Evaluation shows it: counts, normalised views and per-class tables.

:class:`ConfusionMatrix` is a read-only view over the sufficient statistic (a (k, k) table for
binary and multi-class tasks, per-label 2 x 2 tables for multilabel ones). It computes nothing
from raw data.

>>> cm = ConfusionMatrix.from_matrix(["cat", "dog"], [[3, 1], [2, 4]])
>>> cm.normalized("true").round(3).tolist()
[[0.75, 0.25], [0.333, 0.667]]
>>> cm.textbook()[1].tolist()  # class "dog": [[TP, FN], [FP, TN]]
[[4, 2], [1, 3]]
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from clfeval.formulas.measures import one_vs_rest, ratio
from clfeval.support.html_table import RawHtml, html_block, html_escape, html_table
from clfeval.support.number_text import format_value, share_text
from clfeval.support.read_only import read_only_array
from clfeval.statistics.sparse_counts import PairCounts

__all__ = ["ConfusionMatrix", "confusion_html", "MAX_MATRIX_CLASSES"]

#: the most classes whose k x k table the terminal and the notebook show (a picture or the page beyond)
MAX_MATRIX_CLASSES = 20

Normalize = Literal["true", "pred", "all"]


class ConfusionMatrix:
    """Counts (or weights) of true against predicted classes, with the views people ask for.

    ``counts`` is (k, k), rows = true class, columns = predicted, over ``labels`` in order; it is
    None for multilabel tasks, whose per-label 2 x 2 tables are in :meth:`sklearn_layout`.
    With many classes the counts are pair-coded (:attr:`pairs`, a
    :class:`clfeval.statistics.sparse_counts.PairCounts`): ``counts`` then builds the dense table on request,
    and refuses with a ``MemoryError`` naming its size past ``sparse_counts.DENSE_VIEW_BYTES``.

    The constructor takes the tables as they are; :meth:`from_matrix` and :meth:`from_counts`
    build the per-class tables from a (k, k) table.

    Parameters
    ----------
    labels : array-like of shape (k,)
        The classes (or, for multilabel tasks, the label columns), in table order.
    counts : numpy.ndarray of shape (k, k) or None
        Counts or weight sums, rows true class and columns predicted class; None for multilabel
        tasks and for pair-coded tables.
    tables : numpy.ndarray of shape (k, 2, 2)
        Each class's one-vs-rest table ``[[tn, fp], [fn, tp]]``.
    names : list of str, optional
        Display name of each label. Default None: the labels as strings.
    pairs : PairCounts, optional
        Pair-coded counts of a task with many classes, used instead of a dense ``counts``;
        default None.

    Examples
    --------
    >>> counts = np.array([[3, 1], [0, 2]])
    >>> tables = np.array([[[2, 0], [1, 3]], [[3, 1], [0, 2]]])
    >>> ConfusionMatrix(["a", "b"], counts, tables, names=["cat", "dog"])
    ConfusionMatrix(labels=['cat', 'dog'], counts=[[3, 1], [0, 2]])
    >>> cm = ConfusionMatrix.from_matrix([0, 1, 2], [[2, 0, 0], [1, 1, 0], [0, 0, 3]])
    >>> cm.per_class()["fp"].tolist()
    [1, 0, 0]
    """

    __slots__ = ("_labels", "_names", "_counts", "_tables", "_formula", "_pairs")

    def __init__(
        self,
        labels: Any,
        counts: np.ndarray | None,
        tables: np.ndarray,
        names: list[str] | None = None,
        pairs: PairCounts | None = None,
    ) -> None:
        self._pairs = pairs
        self._labels = read_only_array(np.asarray(labels).reshape(-1), None, copy=True)
        self._counts = None if counts is None else read_only_array(counts, None, copy=True)
        self._tables = read_only_array(tables, None, copy=True)
        self._names = list(names) if names is not None else [str(v) for v in self._labels.tolist()]
        self._formula: np.ndarray | None = None  # (k, k) table the rates read, if not _counts
        if len(self._names) != self._labels.size:
            raise ValueError(
                f"{len(self._names)} names given for {self._labels.size} labels; give one per label."
            )

    @classmethod
    def from_matrix(
        cls, labels: Any, counts: Any, names: list[str] | None = None, formula: Any = None
    ) -> ConfusionMatrix:
        """From a (k, k) table, rows = true, columns = predicted. ``formula``: a table proportional
        to ``counts`` that the rates are read from instead (float weights whose sums overflow:
        see :func:`clfeval.formulas.exact_sums.scaled_floats`).

        >>> ConfusionMatrix.from_matrix(["a", "b"], [[1, 2], [0, 3]]).total
        6
        """
        counts = np.asarray(counts)
        k = np.asarray(labels).reshape(-1).size
        if counts.shape != (k, k):
            raise ValueError(f"counts must have shape ({k}, {k}) for {k} labels, got {counts.shape}.")
        tp, fp, fn, tn = one_vs_rest(counts)
        tables = np.stack([tn, fp, fn, tp], axis=-1).reshape(-1, 2, 2)
        out = cls(labels, counts, tables, names)
        if formula is not None:
            out._formula = read_only_array(formula, None, copy=True)
        return out

    @classmethod
    def from_counts(cls, counts: Any, names: list[str] | None = None) -> ConfusionMatrix:
        """From confusion counts: a dense ``ConfusionCounts`` or a pair-coded ``PairCounts``
        (kept pair-coded: no k x k table is built).

        >>> pc = PairCounts.from_dense(["a", "b"], np.array([[1, 2], [0, 3]]))
        >>> cm = ConfusionMatrix.from_counts(pc); cm.total, cm.per_class()["fp"].tolist(), cm.counts.tolist()
        (6, [0, 2], [[1, 2], [0, 3]])
        """
        if isinstance(counts, PairCounts):
            return cls(counts.labels, None, counts.one_vs_rest(), names, pairs=counts)
        return cls.from_matrix(counts.labels, counts.matrix, names)

    @classmethod
    def from_label_tables(
        cls, labels: Any, tables: Any, names: list[str] | None = None
    ) -> ConfusionMatrix:
        """Multilabel: from per-label (L, 2, 2) tables in scikit-learn's [[TN, FP], [FN, TP]] order.

        >>> ConfusionMatrix.from_label_tables([0, 1], [[[1, 0], [0, 1]], [[0, 1], [1, 0]]]).counts is None
        True
        """
        return cls(labels, None, np.asarray(tables), names)

    # -- reading ---------------------------------------------------------------------------------

    @property
    def labels(self) -> np.ndarray:
        """The classes in row/column order."""
        return self._labels

    @property
    def names(self) -> list[str]:
        """Display names of the classes."""
        return list(self._names)

    @property
    def counts(self) -> np.ndarray | None:
        """(k, k) counts or weights, rows = true class, columns = predicted; None for multilabel.

        Pair-coded counts are made dense on request (a ``MemoryError`` naming the size where
        that is too large; read :attr:`pairs` or :meth:`per_class` instead)."""
        if self._pairs is not None:
            return read_only_array(self._pairs.dense_matrix(), None, copy=True)
        return self._counts

    @property
    def pairs(self) -> PairCounts | None:
        """The pair-coded counts of a task with many classes, else None."""
        return self._pairs

    @property
    def is_multilabel(self) -> bool:
        """Whether these are per-label 2 x 2 tables of a multilabel task (no k x k counts)."""
        return self._counts is None and self._pairs is None

    @property
    def total(self) -> Any:
        """Total count (int) or weight (float) of the evaluated samples."""
        if self._counts is not None:
            return np.asarray(self._counts.sum()).item()
        if self._pairs is not None:
            return np.asarray(self._pairs.total).item()
        return self._tables[0].sum().item() if self._tables.shape[0] else 0

    def normalized(self, by: Normalize = "true") -> np.ndarray:
        """Counts divided by row sums ("true"), column sums ("pred") or the total ("all").

        A row or column with no samples gives NaN, not 0: there is nothing to divide.

        >>> ConfusionMatrix.from_matrix([0, 1], [[1, 1], [0, 0]]).normalized("true").tolist()
        [[0.5, 0.5], [nan, nan]]
        """
        if self.is_multilabel:
            raise ValueError("a multilabel task has no k x k matrix to normalise; use sklearn_layout().")
        c = self.counts
        if by == "true":
            return ratio(c, c.sum(axis=1, keepdims=True) + np.zeros_like(c))
        if by == "pred":
            return ratio(c, c.sum(axis=0, keepdims=True) + np.zeros_like(c))
        if by == "all":
            return ratio(c, np.full_like(c, c.sum()))
        raise ValueError(f"by must be 'true', 'pred' or 'all', got {by!r}.")

    def per_class(self) -> dict[str, np.ndarray]:
        """One-vs-rest counts of each class: {"tp", "fn", "fp", "tn"}, each (k,).

        >>> {k: v.tolist() for k, v in ConfusionMatrix.from_matrix([0, 1], [[5, 1], [2, 3]]).per_class().items()}
        {'tp': [5, 3], 'fn': [1, 2], 'fp': [2, 1], 'tn': [3, 5]}
        """
        t = self._tables
        return {"tp": t[:, 1, 1], "fn": t[:, 1, 0], "fp": t[:, 0, 1], "tn": t[:, 0, 0]}

    def formula_per_class(self) -> dict[str, np.ndarray]:
        """:meth:`per_class` as the rates read it: proportional to it, in the float range even
        where the weights' sums overflow (the same arrays in the common case)."""
        if self._pairs is not None and self._pairs.exact is not None:  # pair-coded exact sums
            tp, fp, fn, tn = self._pairs.for_formulas()[0].per_class()
            return {"tp": tp, "fn": fn, "fp": fp, "tn": tn}
        if self._formula is None:
            return self.per_class()
        tp, fp, fn, tn = one_vs_rest(self._formula)
        return {"tp": tp, "fn": fn, "fp": fp, "tn": tn}

    def formula_counts(self) -> np.ndarray | None:
        """The (k, k) table the overall measures read (see :meth:`formula_per_class`)."""
        return self._counts if self._formula is None else self._formula

    def textbook(self) -> np.ndarray:
        """(k, 2, 2) tables in the textbook layout: [[TP, FN], [FP, TN]] (actual P/N by predicted P/N).

        >>> ConfusionMatrix.from_matrix([0, 1], [[5, 1], [2, 3]]).textbook()[1].tolist()
        [[3, 2], [1, 5]]
        """
        return self._tables[:, ::-1, ::-1].copy()

    def sklearn_layout(self) -> np.ndarray:
        """(k, 2, 2) tables as ``sklearn.metrics.multilabel_confusion_matrix``: [[TN, FP], [FN, TP]].

        >>> ConfusionMatrix.from_matrix([0, 1], [[5, 1], [2, 3]]).sklearn_layout()[1].tolist()
        [[5, 1], [2, 3]]
        """
        return self._tables.copy()

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form (NaN in the normalised views left as float NaN; see Evaluation.to_dict)."""
        out: dict[str, Any] = {
            "labels": self._labels.tolist(),
            "names": self.names,
            "per_class": {k: v.tolist() for k, v in self.per_class().items()},
        }
        if self._pairs is not None:  # many classes: the non-zero cells, not k x k lists
            out["counts"] = None
            out["normalized"] = None
            out["cells"] = self._pairs.to_dict()["cells"]
        elif self._counts is not None:
            out["counts"] = self._counts.tolist()
            out["normalized"] = {by: self.normalized(by).tolist() for by in ("true", "pred", "all")}
        else:
            out["counts"] = None
            out["normalized"] = None
        return out

    def __repr__(self) -> str:
        if self._pairs is not None:
            return f"ConfusionMatrix({self._labels.size} classes, pair-coded, total={self.total})"
        if self._counts is None:
            return f"ConfusionMatrix(multilabel, labels={self._names}, total={self.total})"
        return f"ConfusionMatrix(labels={self._names}, counts={self._counts.tolist()})"

    def _repr_html_(self) -> str:
        return confusion_html(self)


def _item(v: Any) -> Any:
    return v.item() if hasattr(v, "item") else v


def confusion_html(cm: ConfusionMatrix) -> str:
    """The notebook's view of a confusion matrix, as the terminal shows it: each count with its
    share of the row (the diagonal in bold); per-label TP, FN, FP, TN for a multilabel task; a line
    instead of a table past :data:`MAX_MATRIX_CLASSES` classes. Labels are escaped.

    >>> page = confusion_html(ConfusionMatrix.from_matrix(["a", "b&c"], [[3, 1], [2, 4]]))
    >>> "<th>b&amp;c</th><td>2 <small>33%</small></td><td><b>4 <small>67%</small></b></td>" in page
    True
    """
    k = len(cm.names)
    if cm.is_multilabel:
        pc = cm.per_class()
        rows = [[name, *(format_value(_item(pc[c][i]), column="support") for c in ("tp", "fn", "fp", "tn"))]
                for i, name in enumerate(cm.names)]
        return html_block("Per-label counts", html_table(["label", "TP", "FN", "FP", "TN"], rows))
    if cm.pairs is not None or k > MAX_MATRIX_CLASSES:
        kept = "" if cm.pairs is None else f", kept as its {cm.pairs.codes.size:,} non-zero cells"
        note = f"{k:,} classes{kept}: too many for a table here; to_dict() has every cell, clfeval.plot the picture."
        return html_block("Confusion matrix", notes=[note])
    counts, share = cm.counts, cm.normalized("true")
    rows = []
    for i, name in enumerate(cm.names):
        cells: list[Any] = [name]
        for j in range(k):
            text, pct = html_escape(format_value(_item(counts[i, j]), column="support")), share_text(share[i, j])
            text += f" <small>{html_escape(pct)}</small>" if pct else ""
            cells.append(RawHtml(f"<b>{text}</b>" if i == j else text))
        rows.append(cells)
    return html_block("Confusion matrix", html_table(["true \\ pred", *cm.names], rows),
                      notes=["rows = true class, columns = predicted class; % = share of the row"])
