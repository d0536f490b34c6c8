"""What the ``clfeval`` command adds to an evaluation's notes, and the option checks that need the data.

- :func:`check_probability_threshold`: ``--threshold T`` with probability scores must lie in
  [0, 1] (a usage error otherwise; decision scores take any threshold).
- :func:`flipped_scores_note`: a binary ROC AUC below 0.5 says that the scores may be those of
  the other class, and names ``--pos-label`` with that class.
- :func:`add_notes`: lines appended to an evaluation's report notes, so that the terminal, the
  JSON (``report.notes``) and the HTML page all show them.
- :func:`print_model_notes`: each model's notes under ``compare``'s tables.

>>> import clfeval
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.9, 0.6, 0.2, 0.4])
>>> print(flipped_scores_note(ev))
ROC AUC of the positive class '1' is 0.0000, below 0.5: the scores may be those of the other class; if they are, pass --pos-label 0 (the scores are then read as that class's)
"""

from __future__ import annotations

import math
from typing import Any

from clfeval.cli.options import UsageError

__all__ = ["check_probability_threshold", "flipped_scores_note", "add_notes", "print_model_notes"]


def check_probability_threshold(score_kind: str | None, threshold: float | None, option: str) -> None:
    """Raise :class:`UsageError` when a probability threshold lies outside [0, 1] (``option``: the
    option as typed, e.g. ``--threshold 1.5``).

    >>> check_probability_threshold("decision", 1.5, "--threshold 1.5")  # any threshold for decision scores
    >>> check_probability_threshold("probability", 1.5, "--threshold 1.5")
    Traceback (most recent call last):
    ...
    clfeval.cli.options.UsageError: --threshold 1.5: the scores are probabilities (all within [0, 1]), so the threshold must lie in [0, 1]; 1.5 would predict no case positive
    """
    if score_kind != "probability" or threshold is None or math.isnan(threshold) or 0.0 <= threshold <= 1.0:
        if threshold is not None and math.isnan(threshold):
            raise UsageError(f"{option}: give a number (a probability threshold lies in [0, 1])")
        return
    what = "no case positive" if threshold > 1.0 else "every case positive"
    raise UsageError(f"{option}: the scores are probabilities (all within [0, 1]), so the threshold must lie in "
                     f"[0, 1]; {threshold:g} would predict {what}")


def flipped_scores_note(ev: Any) -> str | None:
    """For a binary evaluation with scores whose ROC AUC is below 0.5: the note that the scores may
    belong to the other class, naming ``--pos-label`` with that class; None otherwise."""
    if ev.task != "binary" or not ev.has_scores:
        return None
    auc = ev.report.overall.get("roc_auc")
    if auc is None or not isinstance(auc, float) or math.isnan(auc) or auc >= 0.5:
        return None
    labels = list(ev.labels)
    if ev.pos_label not in labels or len(labels) != 2:
        return None
    i = labels.index(ev.pos_label)
    pos, other = ev.names[i], ev.names[1 - i]
    return (f"ROC AUC of the positive class {pos!r} is {auc:.4f}, below 0.5: the scores may be those of the other "
            f"class; if they are, pass --pos-label {other} (the scores are then read as that class's)")


def add_notes(ev: Any, notes: list[str]) -> None:
    """Append ``notes`` (each once) to ``ev``'s report notes: the terminal report, the JSON's
    ``report.notes`` and the HTML page's notes all read that list."""
    own = ev.report.notes
    for note in notes:
        if note and note not in own:
            own.append(note)


def print_model_notes(evaluations: list[Any], console: Any) -> None:
    """Each model's report notes under a comparison, ``note: model NAME: ...`` (the lines that
    say how predictions were derived from scores are left to the JSON and HTML)."""
    from rich.markup import escape

    lines = [f"model {ev.name}: {note}" for ev in evaluations for note in ev.report.notes
             if not note.startswith("Predictions derived from the scores")]
    if lines:
        console.print()
    for line in lines:
        console.print(f"[dim]note: {escape(line)}[/dim]")
