"""``clfeval report --partial-fpr a,b`` / ``--partial-tpr a,b``: the options read and checked (one
line, exit 2, the option quoted as typed) and the partial AUC entry of the report.

>>> import argparse
>>> read_partial(argparse.Namespace(partial_fpr="0,0.1", partial_tpr=None, argv=None))
('fpr', 0.0, 0.1, '--partial-fpr 0,0.1')
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from clfeval.cli.options import UsageError, typed

__all__ = ["check_partial", "partial_entry", "read_partial"]


def read_partial(args: argparse.Namespace) -> tuple[str, float, float, str] | None:
    """(axis, a, b, the option as typed) of --partial-fpr or --partial-tpr; None without either."""
    fpr, tpr = getattr(args, "partial_fpr", None), getattr(args, "partial_tpr", None)
    argv = getattr(args, "argv", None)
    if fpr is not None and tpr is not None:
        raise UsageError(f"--partial-fpr {typed(argv, '--partial-fpr', fpr)} and --partial-tpr "
                         f"{typed(argv, '--partial-tpr', tpr)}: give one of them (one range, on one axis)")
    if fpr is None and tpr is None:
        return None
    axis, text = ("fpr", fpr) if fpr is not None else ("tpr", tpr)
    option = f"--partial-{axis}"
    shown = f"{option} {typed(argv, option, text)}"
    rate = "false positive rates" if axis == "fpr" else "true positive rates (sensitivities)"
    parts = [p.strip() for p in str(text).split(",")]
    try:
        a, b = (float(p) for p in parts) if len(parts) == 2 else (None, None)  # type: ignore[misc]
    except ValueError:
        a = b = None
    if a is None or b is None or math.isnan(a) or math.isnan(b):
        raise UsageError(f"{shown}: give two numbers a,b with 0 <= a < b <= 1 (the range of {rate}, e.g. "
                         f"{option} 0,0.1)")
    if not (0.0 <= a <= 1.0 and 0.0 <= b <= 1.0):
        raise UsageError(f"{shown}: both ends must be from 0 to 1 (rates), e.g. {option} 0,0.1")
    if not a < b:
        example = f"{b:g},{a:g}" if a > b else "0,0.1"  # the ends swapped, or any range of some width
        raise UsageError(f"{shown}: the range must run from low to high, a < b (e.g. {option} {example})")
    return axis, a + 0.0, b + 0.0, shown  # + 0.0: -0 reads 0


def check_partial(ev: Any, partial: tuple[str, float, float, str] | None) -> None:
    """A usage error when the evaluation has no ROC curve (no scores) for the partial AUC."""
    if partial is not None and not ev.has_scores:
        raise UsageError(f"{partial[3]}: the partial AUC needs scores, and this {ev.task} evaluation has "
                         "predicted labels only; name a score column with --y-score COL (one per class for "
                         "multi-class)")


def partial_entry(ev: Any, partial: tuple[str, float, float, str], level: float | None) -> dict[str, Any]:
    """The report's "partial_auc" entry (see :func:`clfeval.evaluation.partial_areas.partial_auc_summary`)."""
    from clfeval.evaluation.partial_areas import partial_auc_summary

    axis, a, b, _ = partial
    return partial_auc_summary(ev, level=level, **{f"{axis}_range": (a, b)})
