"""The mergeable calibration states: :class:`CalibrationTable` (exact: the distinct probabilities
of every view) and :class:`CalibrationHistogram` (bounded: fixed equal-width bins), both holding
a log-loss and a Brier sum; :func:`calibration_of` builds one from encoded data. The statistic of
two batches merges into the statistic of their concatenation (see :mod:`clfeval.calibration`).

>>> a = calibration_of(np.array([0, 1]), np.array([0.2, 0.9]), n_bins=4)
>>> b = calibration_of(np.array([1]), np.array([0.6]), n_bins=4)
>>> a.merge(b).sums.weight.tolist() == calibration_of(
...     np.array([0, 1, 1]), np.array([0.2, 0.9, 0.6]), n_bins=4).sums.weight.tolist()
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence, Union

import numpy as np

from clfeval.inputs.labels import check_consistent_length, check_sample_weight
from clfeval.inputs.probabilities import check_unit_interval
from clfeval.formulas.sums import BrierSum, LogLossSum
from clfeval.calibration.bin_sums import BinSums, binned_calibration_error
from clfeval.calibration.binning import uniform_edges
from clfeval.calibration.checks import (
    MODES,
    NORMS,
    STRATEGIES,
    check_choice,
    check_n_bins,
    check_rows_sum_to_one,
    first_true,
)
from clfeval.calibration.modern import DISTINCT, of_view_counts, view_counts_of_bins, view_counts_of_table
from clfeval.calibration.results import BrierDecomposition, CalibrationReport, ReliabilityCurve, format_number
from clfeval.calibration.views import coarsen, table_bins, table_edges, view_histogram, view_table

__all__ = ["CalibrationTable", "CalibrationHistogram", "State", "calibration_of"]


@dataclass(frozen=True, eq=False)
class _CalibrationState:
    """What both states share: the classes, the default mode, the additive sums, the readers."""

    classes: tuple
    mode: str
    positive: int | None
    log_loss_sum: LogLossSum
    brier_sum: BrierSum

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    @property
    def total_weight(self) -> float:
        return float(self.brier_sum.weight)

    # -- subclass hooks --------------------------------------------------------------------------
    _default_bins = 15

    def _bins(self, view: int, n_bins: int | None, strategy: str) -> BinSums:  # pragma: no cover
        raise NotImplementedError

    def _groups(self, view: int) -> BinSums:  # pragma: no cover
        """The decomposition's default grouping: distinct probabilities, or the histogram's bins."""
        raise NotImplementedError

    def _merge_parts(self, other: Any) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def _view_counts(self, view: int) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], str]:  # pragma: no cover
        """(values increasing, neg, pos) of one view for smooth ECE and CORP, and what they are."""
        raise NotImplementedError

    # -- merging -----------------------------------------------------------------------------------
    def merge(self, other: Any) -> Any:
        """The state of the concatenated data (same classes, settings and kind of state)."""
        if type(other) is not type(self):
            raise TypeError(f"cannot merge {type(self).__name__} with {type(other).__name__}.")
        mine = (self.classes, self.mode, self.positive)
        theirs = (other.classes, other.mode, other.positive)
        if mine != theirs:
            raise ValueError(
                "cannot merge calibration states built with different classes or settings: "
                f"(classes, mode, positive) = {mine} vs {theirs}."
            )
        return replace(
            self,
            log_loss_sum=self.log_loss_sum.merge(other.log_loss_sum),
            brier_sum=self.brier_sum.merge(other.brier_sum),
            **self._merge_parts(other),
        )

    # -- views ---------------------------------------------------------------------------------------
    def _class_index(self, label: Any) -> int:
        for i, c in enumerate(self.classes):
            if c == label or str(c) == str(label):
                return i
        raise ValueError(f"{label!r} is not one of the classes {list(self.classes)}.")

    def _positive_index(self, pos_label: Any) -> int:
        if pos_label is not None:
            return self._class_index(pos_label)
        if self.positive is None:
            raise ValueError(
                f"mode='binary' needs a positive class among {self.n_classes} classes: pass "
                "pos_label (that class against the rest)."
            )
        return self.positive

    def _views(self, mode: str | None, pos_label: Any = None) -> tuple[str, list[int]]:
        mode = self.mode if mode is None else check_choice(mode, MODES, "mode")
        if mode == "binary":
            return mode, [self._positive_index(pos_label)]
        if mode == "class-wise":
            return mode, list(range(self.n_classes))
        return mode, [self.n_classes]

    def _view_name(self, view: int) -> str:
        if view == self.n_classes:
            return "top-label"
        return f"class {self.classes[view]} vs rest" if self.n_classes > 2 else (
            f"positive class {self.classes[view]}"
        )

    # -- readers -----------------------------------------------------------------------------------
    def reliability(
        self, *, mode: str | None = None, pos_label: Any = None, n_bins: int | None = None,
        strategy: str = "uniform",
    ) -> ReliabilityCurve:
        """Reliability bins of one view: ``mode`` "binary" (class ``pos_label``, default the
        positive class) or "top-label"; default the state's mode."""
        check_choice(strategy, STRATEGIES, "strategy")
        mode, views = self._views(mode, pos_label)
        if len(views) != 1:
            raise ValueError(
                "a reliability curve shows one view: use mode='binary' with pos_label=<class> "
                "or mode='top-label'."
            )
        b = self._bins(views[0], n_bins, strategy)
        return ReliabilityCurve.from_bins(b, self._view_name(views[0]), strategy)

    def ece(
        self, norm: str = "l1", *, mode: str | None = None, pos_label: Any = None,
        n_bins: int | None = None, strategy: str = "uniform",
    ) -> float:
        """Expected calibration error; class-wise is the mean over classes of each class's ECE."""
        check_choice(norm, NORMS, "norm")
        check_choice(strategy, STRATEGIES, "strategy")
        _, views = self._views(mode, pos_label)
        errors = [binned_calibration_error(*self._bins(v, n_bins, strategy).gaps(), norm) for v in views]
        return float(np.mean(errors))

    def brier_decomposition(
        self, *, n_bins: int | None = None, strategy: str = "uniform", pos_label: Any = None
    ) -> BrierDecomposition:
        """Brier decomposition: the positive class for two classes (or ``pos_label``'s
        one-vs-rest view), else summed over the classes. ``n_bins=None``: over the distinct
        probabilities (exact state) or the histogram's own bins (bounded state)."""
        check_choice(strategy, STRATEGIES, "strategy")
        if pos_label is not None or self.n_classes == 2:
            views = [self._positive_index(pos_label)]
        else:
            views = list(range(self.n_classes))
        bins = [self._bins(v, n_bins, strategy) if n_bins is not None else self._groups(v) for v in views]
        used = None if bins[0].edges is None else bins[0].n_bins
        return BrierDecomposition.from_bins(bins, used, None if used is None else strategy)

    def report(self, n_bins: int | None = None, strategy: str = "uniform") -> CalibrationReport:
        """Every calibration number of this state (see :class:`CalibrationReport`)."""
        check_choice(strategy, STRATEGIES, "strategy")
        headline = self._views(None)[1][0]
        b = self._bins(headline, n_bins, strategy)
        used = b.n_bins
        ece3 = {norm: self.ece(norm, n_bins=used, strategy=strategy) for norm in NORMS}
        modes = ["binary"] if self.positive is not None else []
        by_mode = {m: self.ece(mode=m, n_bins=used, strategy=strategy) for m in modes + ["class-wise", "top-label"]}
        report = CalibrationReport(
            mode=self.mode,
            n_bins=used,
            strategy=strategy,
            ece=ece3["l1"],
            ece_l2=ece3["l2"],
            ece_max=ece3["max"],
            ece_by_mode=by_mode,
            brier=self.brier_sum.score(),
            log_loss=self.log_loss_sum.mean(),
            decomposition=self.brier_decomposition(n_bins=used, strategy=strategy),
            reliability=self.reliability(n_bins=used, strategy=strategy),
            classes=self.classes,
            total_weight=self.total_weight,
        )
        return of_view_counts(report, *self._view_counts(headline))

    def _common_dict(self) -> dict[str, Any]:
        return {
            "classes": [c if isinstance(c, (str, int, float, bool)) else str(c) for c in self.classes],
            "mode": self.mode,
            "positive": self.positive,
            "log_loss": {"total": self.log_loss_sum.total, "weight": self.log_loss_sum.weight},
            "brier": {"total": self.brier_sum.total, "weight": self.brier_sum.weight},
        }


@dataclass(frozen=True, eq=False)
class CalibrationTable(_CalibrationState):
    """Exact calibration state: per view (each class, then top-label) a ScoreTable of the distinct
    probabilities with [negative, positive] outcome weights. Merges exactly; any binning is exact.

    Build it with :func:`calibration_of` (``n_bins=None``) rather than by hand.

    Parameters
    ----------
    classes : tuple
        The labels of the k classes, in code order.
    mode : {"binary", "top-label"}
        The view the readers use when none is named.
    positive : int or None
        Index of the positive class, which ``mode="binary"`` reads; None when there is none.
    log_loss_sum : LogLossSum
        The running log-loss total and weight.
    brier_sum : BrierSum
        The running Brier-score total and weight.
    tables : tuple of ScoreTable, default=()
        One table per view: the k classes against the rest, then the top label.

    Examples
    --------
    >>> s = calibration_of(np.array([0, 1, 1]), np.array([0.2, 0.9, 0.6]))
    >>> s
    CalibrationTable(classes=[0, 1], mode='binary', total_weight=3, distinct=[3, 3, 3])
    >>> round(s.merge(s).ece(n_bins=2), 6)
    0.233333
    """

    tables: tuple = ()

    def _bins(self, view: int, n_bins: int | None, strategy: str) -> BinSums:
        table = self.tables[view]
        n_bins = self._default_bins if n_bins is None else check_n_bins(n_bins)
        return table_bins(table, table_edges(table, n_bins, strategy))

    def _groups(self, view: int) -> BinSums:
        return table_bins(self.tables[view], None)

    def _merge_parts(self, other: CalibrationTable) -> dict[str, Any]:
        return {"tables": tuple(a.merge(b) for a, b in zip(self.tables, other.tables))}

    def _view_counts(self, view: int) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], str]:
        return view_counts_of_table(self.tables[view]), DISTINCT

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form: the per-view tables (classes in order, then top-label)."""
        out = self._common_dict()
        out["views"] = [t.to_dict() for t in self.tables]
        return out

    def __repr__(self) -> str:
        return (
            f"CalibrationTable(classes={list(self.classes)}, mode={self.mode!r}, "
            f"total_weight={format_number(self.total_weight)}, distinct={[len(t) for t in self.tables]})"
        )


@dataclass(frozen=True, eq=False)
class CalibrationHistogram(_CalibrationState):
    """Bounded calibration state: fixed equal-width bins, per view (each class, then top-label)
    the :class:`BinSums`, stacked ``(k + 1, n_bins)``. Merges by adding the arrays.

    Build it with :func:`calibration_of` (an integer ``n_bins``) rather than by hand.

    Parameters
    ----------
    classes : tuple
        The labels of the k classes, in code order.
    mode : {"binary", "top-label"}
        The view the readers use when none is named.
    positive : int or None
        Index of the positive class, which ``mode="binary"`` reads; None when there is none.
    log_loss_sum : LogLossSum
        The running log-loss total and weight.
    brier_sum : BrierSum
        The running Brier-score total and weight.
    sums : BinSums, default=None
        The per-bin sums of every view, stacked ``(k + 1, n_bins)``; it must be given (None is
        only the dataclass placeholder).

    Examples
    --------
    >>> h = calibration_of(np.array([0, 1, 1]), np.array([0.2, 0.9, 0.6]), n_bins=4)
    >>> h
    CalibrationHistogram(classes=[0, 1], mode='binary', n_bins=4, total_weight=3)
    >>> h.merge(h).sums.weight.tolist()
    [[2, 2, 0, 2], [2, 0, 2, 2], [0, 0, 2, 4]]
    """

    sums: BinSums | None = None

    @property
    def n_bins(self) -> int:
        assert self.sums is not None
        return self.sums.n_bins

    def _bins(self, view: int, n_bins: int | None, strategy: str) -> BinSums:
        assert self.sums is not None
        n_bins = self.n_bins if n_bins is None else check_n_bins(n_bins)
        return coarsen(self.sums.row(view), n_bins, strategy)

    def _groups(self, view: int) -> BinSums:
        assert self.sums is not None
        return self.sums.row(view)

    def _merge_parts(self, other: CalibrationHistogram) -> dict[str, Any]:
        assert self.sums is not None and other.sums is not None
        return {"sums": self.sums.merge(other.sums)}

    def _view_counts(self, view: int) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], str]:
        # each bin at its mean probability: the isotonic fit over bins, the smoothing of bin means
        return view_counts_of_bins(self._groups(view)), f"{self.n_bins} equal-width bins, each at its mean"

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form: the stacked bin sums (classes in order, then top-label)."""
        assert self.sums is not None
        out = self._common_dict()
        out["sums"] = self.sums.to_dict()
        return out

    def __repr__(self) -> str:
        return (
            f"CalibrationHistogram(classes={list(self.classes)}, mode={self.mode!r}, "
            f"n_bins={self.n_bins}, total_weight={format_number(self.total_weight)})"
        )


State = Union[CalibrationTable, CalibrationHistogram]


def calibration_of(
    true_codes: Any,
    proba: Any,
    weights: Any = None,
    *,
    classes: Sequence[Any] | None = None,
    positive: int | None = None,
    n_bins: int | None = None,
) -> State:
    """The mergeable calibration state of encoded data: the entry point for other layers.

    ``true_codes``: (n,) integer class indices in ``[0, k)``. ``proba``: (n,) probabilities of
    class ``positive`` (binary, k = 2; default 1) or (n, k) with rows summing to 1. ``weights``:
    (n,) non-negative or None. ``classes``: the k class labels (default ``0..k-1``).
    ``positive``: with (n, k) input, the class that ``mode="binary"`` reads (default 1 for two
    classes, else none). ``n_bins``: None for the exact :class:`CalibrationTable`, an integer for
    a bounded :class:`CalibrationHistogram` with that many equal-width bins.
    Default mode: "binary" for 1-D ``proba``, "top-label" for (n, k).

    Parameters
    ----------
    true_codes : array-like of int, shape (n,)
        The true class of each sample as an index into the classes.
    proba : array-like of shape (n,) or (n, k)
        Predicted probabilities: 1-D, those of class ``positive`` in a two-class problem; 2-D,
        one column per class, rows summing to 1. They must be finite and lie in [0, 1].
    weights : array-like of shape (n,), default=None
        Non-negative sample weights; None counts every sample once (integer counts).
    classes : sequence, default=None
        The labels of the k classes, in code order; None names them ``0..k-1``.
    positive : int, default=None
        Index of the positive class: for 1-D ``proba`` 0 or 1 (None: 1); for 2-D the class that
        ``mode="binary"`` reads (None: 1 for two classes, none for more).
    n_bins : int, default=None
        None for the exact state; an integer for the bounded state with that many equal-width
        bins.

    Returns
    -------
    CalibrationTable or CalibrationHistogram
        The exact state (``n_bins=None``) or the bounded one.

    Examples
    --------
    >>> calibration_of([0, 1, 2], [[.7, .2, .1], [.1, .8, .1], [.3, .3, .4]], n_bins=5).ece()
    0.3666666666666667
    >>> calibration_of([0, 1, 1], [0.2, 0.9, 0.6], classes=["no", "yes"])
    CalibrationTable(classes=['no', 'yes'], mode='binary', total_weight=3, distinct=[3, 3, 3])
    """
    codes = np.asarray(true_codes)
    if codes.ndim != 1 or codes.dtype.kind not in "biu":
        raise TypeError(
            f"true_codes must be a 1-D array of integer class indices, got dtype {codes.dtype} "
            f"and shape {codes.shape}."
        )
    P = np.asarray(proba)
    if P.dtype.kind not in "biuf":
        raise TypeError(f"proba must be numeric probabilities, got dtype {P.dtype}.")
    if P.dtype.kind != "f":
        P = P.astype(np.float64)
    if P.ndim not in (1, 2):
        raise ValueError(f"proba must be 1-D (binary) or 2-D (n, k), got shape {P.shape}.")
    n = check_consistent_length(true_codes=codes, proba=P)
    if not np.isfinite(P).all():
        bad = ~np.isfinite(P)
        where = np.argwhere(bad)[0]
        pos = int(where[0]) if where.size == 1 else tuple(int(i) for i in where)
        raise ValueError(
            f"proba contains {int(bad.sum())} NaN or infinite value(s); the first is at position "
            f"{pos}. Probabilities must be finite numbers in [0, 1]."
        )
    if n:
        check_unit_interval(P, "proba")
    k = 2 if P.ndim == 1 else P.shape[1]
    if k < 2:
        raise ValueError(f"proba needs at least two classes (columns), got shape {P.shape}.")
    if P.ndim == 2 and n:
        check_rows_sum_to_one(P, "proba")
    names = tuple(range(k)) if classes is None else tuple(np.asarray(classes).tolist())
    if len(names) != k:
        raise ValueError(f"classes has {len(names)} entries but proba has {k} classes.")
    if n and (int(codes.min()) < 0 or int(codes.max()) >= k):
        bad = first_true((codes < 0) | (codes >= k))
        raise ValueError(
            f"true_codes must lie in [0, {k}) to index the {k} classes; true_codes[{bad}] = "
            f"{int(codes[bad])}."
        )
    codes = codes.astype(np.intp, copy=False)
    w = check_sample_weight(weights, n)
    if P.ndim == 1:
        positive = 1 if positive is None else int(positive)
        if positive not in (0, 1):
            raise ValueError(f"positive must be 0 or 1 for 1-D binary proba, got {positive}.")
        mode, target = "binary", (codes == positive).view(np.uint8)
    else:
        if positive is None:
            positive = 1 if k == 2 else None
        elif not 0 <= int(positive) < k:
            raise ValueError(f"positive must index one of the {k} classes, got {positive}.")
        else:
            positive = int(positive)
        mode, target = "top-label", codes
    sums = (LogLossSum.from_encoded(target, P, w), BrierSum.from_encoded(target, P, w))
    pos = 1 if positive is None else positive
    views = list(range(k + 1))
    if n_bins is None:
        tables = tuple(view_table(codes, P, pos, w, v) for v in views)
        return CalibrationTable(names, mode, positive, *sums, tables=tables)
    edges = uniform_edges(check_n_bins(n_bins))
    return CalibrationHistogram(names, mode, positive, *sums, sums=view_histogram(codes, P, pos, w, edges, views))
