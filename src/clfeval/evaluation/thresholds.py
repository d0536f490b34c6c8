"""The threshold, cost and calibration entries of an Evaluation's plain form (:meth:`Evaluation.thresholds_dict
<clfeval.evaluation.Evaluation.thresholds_dict>`, part of ``to_dict()``), built from its public methods.

>>> import clfeval
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
>>> entries = threshold_entries(ev, None, None, 200, 15)
>>> entries["operating_points"]["1"]["youden"]["threshold"], sorted(entries)
(0.8, ['calibration', 'cost_curve', 'decision_curve', 'operating_points'])
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["threshold_entries", "start_threshold_entries", "plain_copy"]

#: values plain_copy shares rather than copies (immutable)
_ATOMS = (float, int, str, bool, type(None))


def threshold_entries(ev: Any, costs: Any, prevalence: Any, max_lines: int, n_bins: int) -> dict[str, Any]:
    """The entries of :meth:`Evaluation.thresholds_dict <clfeval.evaluation.Evaluation.thresholds_dict>`
    of the Evaluation ``ev`` (uncached; see there)."""
    out: dict[str, Any] = {"operating_points": None, "cost_curve": None, "decision_curve": None,
                           "calibration": None}
    if costs is not None:
        out["costs"] = {
            "matrix": np.asarray(costs, dtype=np.float64).tolist(),
            "prevalence": None if prevalence is None else np.asarray(prevalence, dtype=np.float64).tolist(),
            "expected_cost": ev.expected_cost(costs, prevalence=prevalence),
            "cost_sensitive_error_rate": ev.cost_sensitive_error_rate(costs, prevalence=prevalence),
        }
    if ev.rankings is None:
        return out
    calibration = start_threshold_entries(ev, n_bins)  # on another core meanwhile
    if ev.task != "multiclass":
        criteria: list[tuple[str, dict[str, Any]]] = [("break-even", {}), ("youden", {}), ("closest-topleft", {}),
                                                      ("max-f1", {})]
        if ev.beta is not None and ev.beta != 1:
            criteria.append(("max-fbeta", {"beta": ev.beta}))
        if costs is not None and ev.task == "binary":
            criteria.append(("min-cost", {"costs": costs, "prevalence": prevalence}))
        curves = [ev.names[ev.positive_index]] if ev.task == "binary" else list(ev.names)
        out["operating_points"] = {c: {name: _point_or_error(ev, name, c, kw) for name, kw in criteria}
                                   for c in curves}
    if ev.task == "binary":
        ranking = ev.rankings[ev.names[ev.positive_index]]
        n_total, p_total = ranking.totals
        if n_total > 0 and p_total > 0:
            out["cost_curve"] = ev.cost_curve_dict(max_lines=max_lines)
        if ev.score_kind == "probability":
            out["decision_curve"] = ev.decision_curve().to_dict()
    if calibration:
        out["calibration"] = _calibration_entry(ev, n_bins)
    return out


def start_threshold_entries(ev: Any, n_bins: int = 15) -> bool:
    """Start what :func:`threshold_entries` will need of the Evaluation ``ev`` that takes long and runs
    on its own, its calibration (``n_bins`` uniform bins), on the package's worker thread
    (:meth:`Evaluation.start_calibration <clfeval.evaluation.Evaluation.start_calibration>`), so that
    a caller can do other work meanwhile (the report's areas); whether its entries have a calibration."""
    if ev.rankings is None or ev.score_kind != "probability" or ev.task == "multilabel":
        return False
    ev.start_calibration(n_bins)
    return True


def _calibration_entry(ev: Any, n_bins: int) -> dict[str, Any]:
    """The "calibration" entry: ``ev.calibration(n_bins)`` as plain Python, or {"error": why}."""
    try:
        return ev.calibration(n_bins).to_dict()
    except ValueError as exc:  # e.g. rows that are not probability distributions
        return {"error": str(exc)}


def _point_or_error(ev: Any, criterion: str, curve: str, options: dict[str, Any]) -> dict[str, Any]:
    """An operating point as plain Python, or {"error": why} where the criterion is undefined."""
    try:
        return ev.operating_point(criterion, curve=None if ev.task == "binary" else curve, **options).to_dict()
    except ValueError as exc:
        return {"criterion": criterion, "curve": curve, "error": str(exc)}


def plain_copy(obj: Any) -> Any:
    """``copy.deepcopy`` of plain results (dicts, lists, numbers, strings), faster: immutable values
    are shared, anything else is deep-copied.

    >>> entries = {"a": [1.0, {"b": [2]}], "c": None}
    >>> copied = plain_copy(entries)
    >>> copied == entries, copied["a"] is entries["a"], copied["a"][1]["b"] is entries["a"][1]["b"]
    (True, False, False)
    """
    kind = type(obj)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else plain_copy(v) for k, v in obj.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else plain_copy(v) for v in obj]
    if kind in _ATOMS:
        return obj
    import copy

    return copy.deepcopy(obj)
