"""Hypothesis tests and model comparison (issue 4): results in the manner of ``scipy.stats``.

>>> from clfeval.stats import TestResult, ConfidenceInterval
"""

from __future__ import annotations

from ._result import ConfidenceInterval, TestResult

__all__ = ["ConfidenceInterval", "TestResult"]
