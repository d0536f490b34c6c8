"""Warnings and errors raised by clfeval.

>>> issubclass(UndefinedMetricWarning, UserWarning)
True
"""

from __future__ import annotations

__all__ = ["UndefinedMetricWarning", "ScoresBinnedWarning"]


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined (0/0) for the given data and was set by ``zero_division``."""


class ScoresBinnedWarning(UserWarning):
    """A stream's scores were binned (too many distinct scores to keep): areas come with bounds."""
