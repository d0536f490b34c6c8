"""The results of calibration: :class:`ReliabilityCurve` (the bins of one view),
:class:`BrierDecomposition` and :class:`CalibrationReport`.

>>> BrierDecomposition(0.1, 0.1, 0.25, 0.25)
BrierDecomposition(brier=0.1, reliability=0.1, resolution=0.25, uncertainty=0.25)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from clfeval.calibration.bin_sums import BinSums, binned_calibration_error, decomposition_terms
from clfeval.support.json_plain import nan_to_none
from clfeval.calibration.checks import NORMS, check_choice

__all__ = ["ReliabilityCurve", "BrierDecomposition", "CalibrationReport", "format_number"]


@dataclass(frozen=True, eq=False)
class ReliabilityCurve:
    """Per-bin mean predicted probability and observed frequency of one view, for a reliability
    diagram. Empty bins are kept (NaN means, zero weight) so that counts line up with ``edges``.

    ``weight`` is the number of samples per bin (int64), or their total weight when the data
    carry sample weights (``weighted``).

    Parameters
    ----------
    edges : numpy.ndarray of shape (n_bins + 1,)
        The bin edges, from 0 to 1.
    weight : numpy.ndarray of shape (n_bins,)
        Samples (int64) or total sample weight (float) in each bin.
    mean_predicted : numpy.ndarray of shape (n_bins,)
        Mean predicted probability in each bin (NaN when empty).
    observed : numpy.ndarray of shape (n_bins,)
        Share of positive outcomes in each bin (NaN when empty).
    view : str
        Which view the bins are of, e.g. "positive class 1", "class b vs rest" or "top-label".
    strategy : {"uniform", "quantile"}
        How the bin edges were chosen.
    weighted : bool, default=False
        Whether ``weight`` holds sample weights rather than counts.

    Examples
    --------
    >>> from clfeval.calibration import reliability_curve
    >>> c = reliability_curve([0, 1, 1, 0], [0.2, 0.9, 0.7, 0.4], n_bins=2)
    >>> c.mean_predicted.round(6).tolist(), c.observed.tolist(), c.weight.tolist()
    ([0.3, 0.8], [0.0, 1.0], [2, 2])
    """

    edges: np.ndarray
    weight: np.ndarray
    mean_predicted: np.ndarray
    observed: np.ndarray
    view: str
    strategy: str
    weighted: bool = False

    @classmethod
    def from_bins(cls, bins: BinSums, view: str, strategy: str) -> ReliabilityCurve:
        w = bins.weight.astype(np.float64)
        nz = w > 0
        nan = np.full_like(w, np.nan)
        mean_p = np.divide(bins.sum_p, w, out=nan.copy(), where=nz)
        observed = np.divide(bins.positives, w, out=nan, where=nz)
        assert bins.edges is not None
        return cls(
            bins.edges, bins.weight, mean_p, observed, view, strategy,
            weighted=bins.weight.dtype.kind == "f",
        )

    @property
    def n_bins(self) -> int:
        return int(self.weight.size)

    @property
    def nonempty(self) -> np.ndarray:
        """Bins that hold samples (positive weight)."""
        return self.weight > 0

    @property
    def gap(self) -> np.ndarray:
        """Observed frequency minus mean predicted probability (NaN where empty)."""
        return self.observed - self.mean_predicted

    def calibration_error(self, norm: str = "l1") -> float:
        """ECE of this curve's bins (``norm``: "l1", "l2" or "max").

        >>> from clfeval.calibration import reliability_curve
        >>> reliability_curve([0, 1, 1, 0], [0.2, 0.9, 0.7, 0.4], n_bins=2).calibration_error()
        0.25
        """
        check_choice(norm, NORMS, "norm")
        w = self.weight.astype(np.float64)
        return binned_calibration_error(w, np.nan_to_num(self.gap), norm)

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form (valid JSON: empty bins give None)."""
        return {
            "view": self.view,
            "strategy": self.strategy,
            "weighted": self.weighted,
            "edges": self.edges.tolist(),
            "weight": self.weight.tolist(),
            "mean_predicted": [nan_to_none(v) for v in self.mean_predicted.tolist()],
            "observed": [nan_to_none(v) for v in self.observed.tolist()],
        }

    def __repr__(self) -> str:
        return (
            f"ReliabilityCurve(view={self.view!r}, strategy={self.strategy!r}, "
            f"n_bins={self.n_bins}, nonempty={int(self.nonempty.sum())}, "
            f"total_weight={format_number(float(self.weight.sum()))})"
        )


def format_number(v: float | None) -> str:
    """A total weight for a repr: an integer as such, else 4 significant digits.

    >>> format_number(3.0), format_number(2.5), format_number(None)
    ('3', '2.5', 'None')
    """
    if v is None:
        return "None"
    return f"{v:.4g}" if abs(v - round(v)) > 0 or abs(v) >= 1e15 else str(int(round(v)))


@dataclass(frozen=True)
class BrierDecomposition:
    """The Brier score split into reliability, resolution and uncertainty.

    ``brier = reliability - resolution + uncertainty + within_variance - within_covariance``
    (Murphy 1973; the two within-bin terms of Stephenson, Coelho & Jolliffe 2008 are zero when
    each group holds one distinct probability, ``n_bins=None``). Binary: the Brier score of the
    positive class, ``mean (y - p)^2`` (scikit-learn's binary ``brier_score_loss``); more classes:
    each term summed over the one-vs-rest views, so ``brier`` is scikit-learn's multiclass Brier
    score (unscaled, range [0, 2]).

    Parameters
    ----------
    brier : float
        The Brier score.
    reliability : float
        Weighted mean squared gap between each group's mean probability and its share of
        positives (lower is better calibrated).
    resolution : float
        Weighted mean squared gap between each group's share of positives and the overall
        share (higher separates the outcomes better).
    uncertainty : float
        Variance of the outcome, ``p (1 - p)`` for an overall share ``p`` of positives.
    within_variance : float, default=0.0
        Weighted variance of the probabilities within the groups (zero for distinct-probability
        groups).
    within_covariance : float, default=0.0
        Twice the weighted covariance of probability and outcome within the groups, as the
        decomposition subtracts it (zero for distinct-probability groups).
    n_bins : int, default=None
        Number of bins the samples were grouped into; None for grouping by distinct probability.
    strategy : {"uniform", "quantile"}, default=None
        How the bins were made; None with ``n_bins=None``.

    Examples
    --------
    >>> from clfeval.calibration import brier_decomposition
    >>> d = brier_decomposition([0, 1, 1, 0], [0.2, 0.9, 0.9, 0.2])
    >>> round(d.brier, 6), round(d.reliability, 6), d.resolution, d.uncertainty
    (0.025, 0.025, 0.25, 0.25)
    >>> BrierDecomposition(0.1, 0.1, 0.25, 0.25)
    BrierDecomposition(brier=0.1, reliability=0.1, resolution=0.25, uncertainty=0.25)
    """

    brier: float
    reliability: float
    resolution: float
    uncertainty: float
    within_variance: float = 0.0
    within_covariance: float = 0.0
    n_bins: int | None = None
    strategy: str | None = None

    @classmethod
    def from_bins(cls, views: Sequence[BinSums], n_bins: int | None, strategy: str | None) -> BrierDecomposition:
        terms = np.sum([decomposition_terms(b) for b in views], axis=0)
        return cls(*(float(t) for t in terms), n_bins=n_bins, strategy=strategy)

    def to_dict(self) -> dict[str, Any]:
        return {
            "brier": self.brier,
            "reliability": self.reliability,
            "resolution": self.resolution,
            "uncertainty": self.uncertainty,
            "within_variance": self.within_variance,
            "within_covariance": self.within_covariance,
            "n_bins": self.n_bins,
            "strategy": self.strategy,
        }

    def __repr__(self) -> str:
        parts = [
            f"brier={self.brier:.6g}", f"reliability={self.reliability:.6g}",
            f"resolution={self.resolution:.6g}", f"uncertainty={self.uncertainty:.6g}",
        ]
        if self.n_bins is not None:
            parts += [
                f"within_variance={self.within_variance:.6g}",
                f"within_covariance={self.within_covariance:.6g}",
                f"n_bins={self.n_bins}", f"strategy={self.strategy!r}",
            ]
        return f"BrierDecomposition({', '.join(parts)})"


@dataclass(frozen=True, eq=False)
class CalibrationReport:
    """Calibration of one probabilistic classifier: ECE (three norms) in the headline ``mode``,
    L1 ECE in every mode, Brier score with its decomposition, log loss and the reliability bins.

    ``brier`` and ``log_loss`` follow scikit-learn (binary Brier halved, multiclass unscaled);
    ``decomposition`` is over the report's bins, with Stephenson et al.'s within-bin terms (over
    distinct probabilities, as :func:`brier_decomposition` gives by default, continuous scores
    make every group one sample: reliability = Brier and resolution = uncertainty, which says
    nothing).

    Parameters
    ----------
    mode : {"binary", "top-label"}
        The headline view of ``ece``, ``ece_l2``, ``ece_max`` and ``reliability``.
    n_bins : int
        Number of bins used.
    strategy : {"uniform", "quantile"}
        How the bins were made.
    ece : float
        Expected calibration error, L1 norm, in the headline mode.
    ece_l2 : float
        Expected calibration error, L2 norm, in the headline mode.
    ece_max : float
        Largest gap of a non-empty bin, in the headline mode.
    ece_by_mode : dict of str to float
        The L1 ECE in each mode available ("binary" when there is a positive class,
        "class-wise", "top-label").
    brier : float
        The Brier score.
    log_loss : float
        The log loss (cross-entropy) of the probabilities.
    decomposition : BrierDecomposition
        The Brier score's terms over the report's bins.
    reliability : ReliabilityCurve
        The reliability bins of the headline view.
    classes : tuple
        The class labels, in order.
    total_weight : float
        Number of samples, or their total weight.
    smooth_ece : SmoothECE, optional
        The smooth ECE of the headline view (:mod:`clfeval.calibration.modern`); None where not
        computed.
    corp : CORPDiagram, optional
        The CORP reliability diagram of the headline view with the Brier and log-score
        decompositions into MCB - DSC + UNC; None where not computed.

    Examples
    --------
    >>> from clfeval.calibration import calibration_report
    >>> r = calibration_report([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4], n_bins=2)
    >>> r.mode, r.n_bins, round(r.ece, 6), r.ece_by_mode["binary"] == r.ece
    ('binary', 2, 0.275, True)
    >>> r.reliability.observed.tolist(), r.total_weight
    ([0.0, 1.0], 4.0)
    """

    mode: str
    n_bins: int
    strategy: str
    ece: float
    ece_l2: float
    ece_max: float
    ece_by_mode: dict[str, float]
    brier: float
    log_loss: float
    decomposition: BrierDecomposition
    reliability: ReliabilityCurve
    classes: tuple
    total_weight: float
    smooth_ece: Any = None
    corp: Any = None

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form (valid JSON)."""
        return {
            "mode": self.mode,
            "n_bins": self.n_bins,
            "strategy": self.strategy,
            "ece": self.ece,
            "ece_l2": self.ece_l2,
            "ece_max": self.ece_max,
            "ece_by_mode": dict(self.ece_by_mode),
            "brier": self.brier,
            "log_loss": self.log_loss,
            "decomposition": self.decomposition.to_dict(),
            "reliability": self.reliability.to_dict(),
            "classes": [c if isinstance(c, (str, int, float, bool)) else str(c) for c in self.classes],
            "total_weight": self.total_weight,
            "smooth_ece": None if self.smooth_ece is None else self.smooth_ece.to_dict(),
            "corp": None if self.corp is None else self.corp.to_dict(),
        }

    def __repr__(self) -> str:
        extra = "" if self.smooth_ece is None else f", smooth_ece={self.smooth_ece.value:.4f}"
        if self.corp is not None:
            extra += f", corp_brier=({self.corp.brier.text()})"
        return (
            f"CalibrationReport(mode={self.mode!r}, n_bins={self.n_bins}, "
            f"strategy={self.strategy!r}, ece={self.ece:.4f}, ece_l2={self.ece_l2:.4f}, "
            f"ece_max={self.ece_max:.4f}, brier={self.brier:.4f}, log_loss={self.log_loss:.4f}"
            f"{extra}, total_weight={format_number(self.total_weight)})"
        )

    def _repr_html_(self) -> str:
        from clfeval.support.html_table import html_block, html_table

        def num(v: float) -> str:
            return f"{v:.4f}"

        rows = [["ECE (L1, L2, max)", f"{num(self.ece)}, {num(self.ece_l2)}, {num(self.ece_max)}"]]
        if self.smooth_ece is not None:
            rows.append(["smooth ECE", f"{num(self.smooth_ece.value)} (bandwidth {self.smooth_ece.bandwidth:.4g})"])
        rows.append(["Brier score", num(self.brier)])
        rows.append(["log loss", num(self.log_loss)])
        if self.corp is not None:
            rows += [[f"CORP {d.score}", f"{num(d.value)} = {d.text(num)}"] for d in (self.corp.brier, self.corp.log)]
        return html_block("Calibration", html_table(["", "value"], rows),
                          subtitle=f"({self.mode}, {self.n_bins} {self.strategy} bins)")

