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

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["PROBABILITY_TOLERANCE", "score_kind", "kind_of_range", "default_threshold", "combined_kind",
           "outside_unit_interval", "score_range_note", "evaluation_score_note"]

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
                     threshold_given: str | None = None, predictions: str | None = None) -> str | None:
    """One line that says how scores from ``lo`` to ``hi`` were read, when any lies outside
    [0, 1]; None when all lie inside (nothing to say).

    ``threshold`` is the cut that made the predictions; ``threshold_given`` the option, as the
    user typed it, that chose it (None: the default of the kind); ``predictions`` says where the
    predictions came from otherwise (e.g. "the highest-scoring class").

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
    if threshold is not None and threshold_given is None:
        cut = f"the default threshold {threshold:g} applies"
    elif threshold is not None:
        given = threshold_given.split()[-1]
        cut = f"{threshold_given} applies" if given == f"{threshold:g}" else \
            f"the threshold {threshold:g} ({threshold_given}) applies"
    else:
        cut = f"predictions are {predictions or 'not derived from the scores'}"
    return f"scores{of} run from {float(lo):.10g} to {float(hi):.10g}: {read}; {cut}"


def evaluation_score_note(ev: Any, score_range: tuple[float, float] | None = None, *,
                          columns: Sequence[str] | None = None, threshold_given: str | None = None) -> str | None:
    """:func:`score_range_note` of an :class:`~clfeval.evaluation.Evaluation`: its scores' range
    (``score_range`` as read, else from its score statistics), the threshold it applied, or how
    its predictions were made; None when it has no scores or all lie in [0, 1].

    >>> import clfeval
    >>> ev = clfeval.evaluate([1, 1, 1, 0, 0], y_score=[0.9, 0.6, 0.2, 0.7, 1.0000001])
    >>> evaluation_score_note(ev, columns=["score"])
    "scores of 'score' run from 0.2 to 1.0000001: read as probabilities (within 1e-06 of [0, 1]); the default threshold 0.5 applies"
    """
    if ev.rankings is None:
        return None
    if score_range is None:
        if ev.task == "binary":  # the positive class's scores (the other's may be these negated)
            wanted = [ev.names[int(np.flatnonzero(ev.labels == ev.pos_label)[0]) if ev.pos_label is not None else 1]]
        else:
            wanted = [n for n in ev.names if n in ev.rankings]
        ends = [(float(r.scores[-1]), float(r.scores[0])) for r in (ev.rankings[n] for n in wanted) if r.scores.size]
        if not ends:
            return None
        score_range = (min(e[0] for e in ends), max(e[1] for e in ends))
    column = None
    if columns:
        column = columns[0] if len(columns) == 1 else f"{columns[0]}, ..., {columns[-1]}"
    threshold = ev.threshold if ev.task != "multiclass" else None
    if threshold is None:
        predictions = ("the highest-scoring class" if ev.task == "multiclass" else
                       "those of the prediction column, not derived from the scores")
    else:
        predictions = None
    return score_range_note(score_range[0], score_range[1], column=column, threshold=threshold,
                            threshold_given=threshold_given, predictions=predictions)
