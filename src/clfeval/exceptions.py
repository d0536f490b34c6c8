"""Warnings and errors raised by clfeval.

>>> issubclass(UndefinedMetricWarning, UserWarning)
True
"""

from __future__ import annotations

__all__ = ["UndefinedMetricWarning"]


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined (0/0) for the given data and was set by ``zero_division``."""
