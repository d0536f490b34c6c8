"""The report's line on smooth ECE and the CORP decomposition, from the "calibration" entry of an
Evaluation's plain form (``ev.calibration(n_bins).to_dict()``); names from the measure registry.

>>> import clfeval
>>> ev = clfeval.evaluate([0, 0, 1, 1, 1, 0], y_score=[0.1, 0.3, 0.8, 0.9, 0.6, 0.6])
>>> print(calibration_modern_line(ev.calibration(5).to_dict(), lambda v: f"{v:.4f}"))
smooth ECE 0.1209 (bandwidth 0.1221); CORP (positive class 1, isotonic recalibration): Brier 0.1117 = MCB 0.0283 - DSC 0.1667 + UNC 0.2500; log score 0.3696 = MCB 0.1386 - DSC 0.4621 + UNC 0.6931
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clfeval.formulas.measure_registry import MEASURES

__all__ = ["calibration_modern_line", "corp_terms_text"]

_SCORE_NAMES = {"brier": "Brier", "log": "log score"}


def corp_terms_text(d: dict[str, Any], fmt: Callable[[Any], str]) -> str:
    """``MCB x - DSC y + UNC z`` of one decomposition's plain form (short names from the registry).

    >>> corp_terms_text({"miscalibration": 0.03, "discrimination": 0.09, "uncertainty": 0.24}, str)
    'MCB 0.03 - DSC 0.09 + UNC 0.24'
    """
    short = {k: MEASURES[f"corp_{k}"].short for k in ("miscalibration", "discrimination", "uncertainty")}
    return (f"{short['miscalibration']} {fmt(d['miscalibration'])} - {short['discrimination']} "
            f"{fmt(d['discrimination'])} + {short['uncertainty']} {fmt(d['uncertainty'])}")


def calibration_modern_line(cal: dict[str, Any], fmt: Callable[[Any], str]) -> str:
    """The line ('' when the entry has neither smooth ECE nor CORP); ``fmt`` writes a number."""
    parts = []
    smooth = cal.get("smooth_ece")
    if smooth:
        text = f"{MEASURES['smooth_ece'].title} {fmt(smooth['value'])} (bandwidth {fmt(smooth['bandwidth'])})"
        ci = smooth.get("interval")
        if ci:
            text += f" [{fmt(ci['low'])}, {fmt(ci['high'])}]"
        parts.append(text)
    corp = cal.get("corp")
    if corp:
        terms = [f"{_SCORE_NAMES[d['score']]} {fmt(d['value'])} = {corp_terms_text(d, fmt)}"
                 for d in (corp["brier"], corp["log"])]
        binned = "" if corp["grouping"] == "distinct probabilities" else f", over {corp['grouping']}"
        view = "top-label confidence against correct" if corp["view"] == "top-label" else corp["view"]
        parts.append(f"CORP ({view}, isotonic recalibration{binned}): " + "; ".join(terms))
    return "; ".join(parts)
