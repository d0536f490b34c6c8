"""Probabilities or decision values: the one rule that :func:`clfeval.evaluate`, the streams of
:mod:`clfeval.streaming`, :mod:`clfeval.dask` and the ``clfeval`` command all follow.

Scores that all lie within :data:`PROBABILITY_TOLERANCE` (1e-6) of [0, 1] are probabilities, cut
at 0.5 by default; scores clearly outside (any one beyond the tolerance) are decision values
(``decision_function`` output, margins, logits), cut at 0. A probability written as
``1.0000001`` (rounding in a file) stays a probability: its value is kept as given everywhere
(curves, thresholds), only the kind and the default threshold are decided here. The kind of
many batches is that of all their rows: one batch of decision values makes all of them so.

The sklearn-compatible functions (:mod:`clfeval.metrics`) do not use this rule: they follow
scikit-learn.

>>> score_kind([0.2, 0.9, 1.0000001]), default_threshold("probability")
('probability', 0.5)
>>> score_kind([-1.5, 0.3, 2.0]), default_threshold("decision")
('decision', 0.0)
>>> combined_kind("probability", "decision")
'decision'
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["PROBABILITY_TOLERANCE", "score_kind", "kind_of_range", "default_threshold", "combined_kind",
           "outside_unit_interval", "score_range_note"]

#: how far outside [0, 1] a probability may lie (rounding in a file, float noise) and stay one
PROBABILITY_TOLERANCE = 1e-6


def kind_of_range(lo: float, hi: float) -> str:
    """"probability" when scores from ``lo`` to ``hi`` all lie within the tolerance of [0, 1],
    else "decision" (also for no scores: ``lo`` > ``hi``, or NaN).

    >>> kind_of_range(-1e-7, 1 + 1e-6), kind_of_range(0.0, 1.00001), kind_of_range(float("inf"), float("-inf"))
    ('probability', 'decision', 'decision')
    """
    lo, hi = float(lo), float(hi)
    if lo <= hi and lo >= -PROBABILITY_TOLERANCE and hi <= 1.0 + PROBABILITY_TOLERANCE:
        return "probability"
    return "decision"


def score_kind(scores: Any) -> str:
    """The kind of an array of scores (any shape): "probability" or "decision" (see the module);
    no scores at all are "decision".

    >>> score_kind([[0.1, 0.9], [0.5, 0.5]]), score_kind([0.5, 1.5]), score_kind([])
    ('probability', 'decision', 'decision')
    """
    s = np.asarray(scores, dtype=np.float64)
    if s.size == 0:
        return "decision"
    return kind_of_range(s.min(), s.max())


def default_threshold(kind: str | None) -> float:
    """The default cut of binary scores of a kind: 0.5 for probabilities, 0 for decision values.

    >>> default_threshold("probability"), default_threshold("decision")
    (0.5, 0.0)
    """
    return 0.5 if kind == "probability" else 0.0


def combined_kind(a: str | None, b: str | None) -> str | None:
    """The kind of two sets of rows together: decision values if either is, else the one known.

    >>> combined_kind(None, "probability"), combined_kind("probability", "probability")
    ('probability', 'probability')
    """
    if "decision" in (a, b):
        return "decision"
    return a if a is not None else b


def outside_unit_interval(lo: float, hi: float) -> bool:
    """Whether any score of the range ``lo``..``hi`` lies outside [0, 1] (at all: no tolerance).

    >>> outside_unit_interval(0.0, 1.0), outside_unit_interval(0.0, 1.0000001)
    (False, True)
    """
    return bool(float(lo) <= float(hi) and (lo < 0.0 or hi > 1.0))


def score_range_note(lo: float, hi: float, *, column: str | None = None, threshold: float | None = None,
                     threshold_given: bool = False, predictions: str | None = None) -> str | None:
    """One line that says how scores from ``lo`` to ``hi`` were read, when any lies outside
    [0, 1]; None when all lie inside (nothing to say).

    ``threshold`` is the cut that made the predictions (``threshold_given`` if the user chose it);
    ``predictions`` says where the predictions came from otherwise (e.g. "the highest-scoring
    class").

    >>> score_range_note(0.1, 1.0000001, column="score", threshold=0.5)
    "scores of 'score' run from 0.1 to 1.0000001: read as probabilities (within 1e-06 of [0, 1]); the default threshold 0.5 applies"
    >>> score_range_note(-2.0, 3.5, threshold=0.0)
    'scores run from -2 to 3.5: read as decision values (some lie more than 1e-06 outside [0, 1]); the default threshold 0 applies'
    >>> score_range_note(0.0, 1.0) is None
    True
    """
    if not outside_unit_interval(lo, hi):
        return None
    kind = kind_of_range(lo, hi)
    of = "" if column is None else f" of {column!r}"
    read = (f"read as probabilities (within {PROBABILITY_TOLERANCE:g} of [0, 1])" if kind == "probability" else
            f"read as decision values (some lie more than {PROBABILITY_TOLERANCE:g} outside [0, 1])")
    if threshold is not None:
        cut = f"{'the given' if threshold_given else 'the default'} threshold {threshold:g} applies"
    else:
        cut = f"predictions are {predictions or 'not derived from the scores'}"
    return f"scores{of} run from {float(lo):.10g} to {float(hi):.10g}: {read}; {cut}"
