"""Comparing two Evaluations through their plain (JSON) form: shared by the streaming, Dask and
file tests, whose oracle is clfeval.evaluate on all rows at once."""

from __future__ import annotations

import pytest

import clfeval
from clfeval.evaluation import json_safe


def plain(ev: clfeval.Evaluation) -> dict:
    """The strict-JSON dict of ``ev`` without the version."""
    d = json_safe(ev.to_dict())
    d.pop("clfeval_version")
    return d


def assert_close(a, b, rel=1e-9):
    """Equal structures; floats to ``rel`` (sums in another order)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), (a, b)
        for k in a:
            assert_close(a[k], b[k], rel)
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b)
        for x, y in zip(a, b):
            assert_close(x, y, rel)
    elif isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, rel=rel, abs=1e-12)
    else:
        assert a == b


def without_binned_calibration(ca: dict | None, cb: dict | None) -> None:
    """Drop the smooth ECE and CORP of two "calibration" entries read off different statistics: a
    multi-class stream keeps a histogram, so they run over its bins, not over the distinct
    probabilities (bounds in tests/test_smooth_ece.py and tests/test_corp.py)."""
    ca, cb = ca or {}, cb or {}
    if ca.get("corp") and cb.get("corp") and ca["corp"]["grouping"] != cb["corp"]["grouping"]:
        for key in ("smooth_ece", "corp"):
            ca.pop(key), cb.pop(key)


def assert_same(got: clfeval.Evaluation, want: clfeval.Evaluation, *, exact: bool = True) -> None:
    """Equal plain forms: exactly (the calibration histograms to rounding: they sum in another
    order), or everything to rounding (float weights)."""
    a, b = plain(got), plain(want)
    without_binned_calibration(a.get("calibration"), b.get("calibration"))
    if exact:
        ca, cb = a.pop("calibration"), b.pop("calibration")
        assert a == b
        assert_close(ca, cb)
    else:
        assert_close(a, b)
