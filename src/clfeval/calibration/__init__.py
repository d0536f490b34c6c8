"""Calibration: reliability curves, expected calibration error (ECE), the Brier decomposition.

A forecast is calibrated when, among the samples given probability ``p``, a fraction ``p`` is
positive. Every calibration measure here reads one small statistic that merges: the statistic of
two batches merges into the statistic of their concatenation.

**Views.** A probability forecast is looked at through *views*, each a (probability, 0/1 outcome)
pair per sample: for each class ``c`` the one-vs-rest view (``p_c``, ``y == c``); and the
top-label view (``max_c p_c``, whether the arg-max class is the true one; ties go to the lower
class index, as ``numpy.argmax``). ``mode="binary"`` reads the view of the positive class,
``"class-wise"`` averages over the class views, ``"top-label"`` reads the top-label view.
For 1-D binary input ``p`` (the probability of the positive class) the columns are
``[1 - p, p]`` (in class order); (n, k) input must have rows that sum to 1 (within
``1e-8 + sqrt(eps)``), else a ValueError names the first row that does not.

**Bins.** ``n_bins`` intervals with edges ``e_0 < ... < e_B``. A probability goes into the bin
whose upper edge is the first edge ``>= p``: bins are ``[e_0, e_1], (e_1, e_2], ..., (e_B-1, e_B]``,
so a probability exactly on an interior edge falls in the lower bin, 0 in the first bin and 1.0
in the last (``numpy.searchsorted(edges[1:-1], p, side="left")``, as scikit-learn's
``calibration_curve`` and Guo et al. (2017)'s reference ECE code). Uniform edges are
``numpy.linspace(0, 1, n_bins + 1)``. Quantile edges are ``numpy.percentile(p, linspace(0, 100,
n_bins + 1))`` (numpy's default "linear" method, as scikit-learn) for unweighted data, and numpy's
weighted ``method="inverted_cdf"`` quantiles when the data carry sample weights (any weights,
integer ones included: numpy has no weighted "linear" method). torchmetrics'
``binary_/multiclass_calibration_error`` (1.x) bins ``[e_b, e_b+1)`` instead
(``torch.bucketize(right=True) - 1``), usually in float32, and puts a confidence of exactly 1.0
in an extra bin of its own: it agrees with the numbers here unless a probability lies exactly on
an interior edge or equals 1.

**States.** Two mergeable statistics, both holding every view (each class, then top-label), a
:class:`~clfeval.formulas.sums.LogLossSum` and a :class:`~clfeval.formulas.sums.BrierSum`:

- :class:`CalibrationTable` (exact): per view a :class:`~clfeval.statistics.scores.ScoreTable` of the distinct
  probabilities with the weight of positive and negative outcomes at each; merges like ScoreTable
  (union of values, weights added). Any binning is exact from it: uniform with any ``n_bins``,
  quantile (equal mass) bins, and Murphy's decomposition over the distinct probabilities. Its size
  grows with the number of distinct probabilities.
- :class:`CalibrationHistogram` (bounded memory): fixed equal-width bins; per view and bin the
  total weight, ``sum w*y``, ``sum w*p``, ``sum w*p^2`` and ``sum w*p*y`` (:class:`BinSums`).
  Merging adds the arrays; the size does not grow with rows. Uniform bins with ``n_bins`` equal
  to the histogram's, or a divisor of it (unions of adjacent bins, whose edges are the fine edges:
  within one rounding of ``linspace(0, 1, n_bins + 1)``, exactly equal when the ratio is a power of
  two), are exact. Quantile bins are *approximated*: the coarse edges are fine edges, the upper
  edge of the fine bin that holds each weighted quantile (``i / n_bins`` of the total weight,
  inverted CDF); every coarse bin is a union of whole fine bins, so its sums, ECE terms and the
  decomposition are exact for the bins used, and each bin's mass is off equal mass by at most the
  mass of one fine bin. Build it with many bins (say 1024, a power of two) to serve both. Its
  Brier decomposition is over its own bins (with the within-bin terms, so still exact).

Counts are int64 (exact) without sample weights; with weights they are float64 weights.

**Smooth ECE and CORP.** Every report also carries the smooth ECE (Błasiok & Nakkiran 2023,
:class:`SmoothECE`, equal to ``relplot.smECE``) and the CORP reliability diagram (Dimitriadis,
Gneiting & Jordan 2021, :class:`CORPDiagram`: the isotonic recalibration, its 90% consistency band,
and the Brier and log score split into MCB - DSC + UNC, :class:`CORPDecomposition`) of its headline
view. Both need only the view's sorted distinct probabilities with their outcome weights: exact from
a :class:`CalibrationTable`, an Evaluation's ranking, or an exact stream (they merge exactly); from a
:class:`CalibrationHistogram` (or a binned stream) the isotonic fit runs over bins and the smoothing
over bin means, named in their ``grouping`` (see :mod:`~clfeval.calibration.modern`).

>>> y = [0, 0, 1, 1, 1, 0]
>>> p = [0.1, 0.3, 0.8, 0.9, 0.6, 0.6]
>>> round(expected_calibration_error(y, p, n_bins=5), 6)
0.15
>>> d = brier_decomposition(y, p)
>>> round(d.brier, 6), round(d.reliability - d.resolution + d.uncertainty, 6)
(0.111667, 0.111667)

**Modules.** :mod:`~clfeval.calibration.checks` (the choices and argument checks),
:mod:`~clfeval.calibration.bin_sums` (per-bin sums and the formulas that read them),
:mod:`~clfeval.calibration.binning` (bin edges and bin assignment),
:mod:`~clfeval.calibration.views` (the views' bin sums from validated arrays),
:mod:`~clfeval.calibration.results` (result types), :mod:`~clfeval.calibration.modern` (smooth ECE
and CORP of one view), :mod:`~clfeval.calibration.states` (the
mergeable states), :mod:`~clfeval.calibration.inputs` (reading ``y_true`` / ``y_prob`` and
Evaluations), :mod:`~clfeval.calibration.functions` (the scikit-learn-style functions) and
:mod:`~clfeval.calibration.of_evaluation` (an Evaluation's calibration).
"""

from __future__ import annotations

from clfeval.calibration.bin_sums import BinSums
from clfeval.calibration.binning import uniform_edges
from clfeval.calibration.checks import MODES, NORMS, STRATEGIES
from clfeval.calibration.functions import (
    brier_decomposition,
    calibration_curve,
    calibration_report,
    expected_calibration_error,
    reliability_curve,
)
from clfeval.calibration.inputs import ROUNDED_ROWS_TOLERANCE
from clfeval.calibration.of_evaluation import binary_calibration_report, calibration_of_evaluation
from clfeval.calibration.results import BrierDecomposition, CalibrationReport, ReliabilityCurve
from clfeval.calibration.states import CalibrationHistogram, CalibrationTable, State, calibration_of
from clfeval.calibration.modern import CORPDecomposition, CORPDiagram, SmoothECE

__all__ = [
    "calibration_curve",
    "reliability_curve",
    "expected_calibration_error",
    "brier_decomposition",
    "calibration_report",
    "calibration_of",
    "calibration_of_evaluation",
    "binary_calibration_report",
    "uniform_edges",
    "BinSums",
    "CalibrationHistogram",
    "CalibrationTable",
    "ReliabilityCurve",
    "BrierDecomposition",
    "CalibrationReport",
    "SmoothECE",
    "CORPDecomposition",
    "CORPDiagram",
]
