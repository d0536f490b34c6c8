"""The options of one evaluation, checked once and shared by every engine: :func:`clfeval.evaluate`,
:class:`clfeval.streaming.StreamingEvaluation` (and so :mod:`clfeval.dask`) and the command line
build an :class:`EvaluateOptions` and hand the same object on; a stream's exact-or-binned settings
are a :class:`StreamSettings`.

>>> options = EvaluateOptions(pos_label="spam", threshold=0.3)
>>> options.threshold, options.as_keywords()["pos_label"]
(0.3, 'spam')
>>> EvaluateOptions(beta=0)
Traceback (most recent call last):
ValueError: beta must be a positive finite number, got 0.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from clfeval.inputs.evaluate_arguments import check_threshold

__all__ = ["EvaluateOptions", "StreamSettings", "check_prevalence", "STREAM_MODES", "DEFAULT_MAX_DISTINCT", "DEFAULT_BITS"]

#: how a stream keeps its scores: every distinct score, bins on a fixed grid, or bins once too many
STREAM_MODES = ("auto", "exact", "binned")
#: distinct scores kept exactly (per class) before ``mode="auto"`` bins them: about 150 MB per ranking
DEFAULT_MAX_DISTINCT = 1 << 24
#: mantissa bits of the bin grid: relative bin width 2^-16 (about 1.5e-5)
DEFAULT_BITS = 16


def check_prevalence(prevalence: Any, what: str = "prevalence") -> float:
    """``prevalence`` as a float strictly between 0 and 1, or a ValueError that says what is wrong.

    >>> check_prevalence(0.25)
    0.25
    >>> check_prevalence(1)
    Traceback (most recent call last):
    ValueError: prevalence must be a number strictly between 0 and 1 (the positive class's share where the model is used), got 1.
    """
    ok = isinstance(prevalence, numbers.Real) and not isinstance(prevalence, (bool, np.bool_))
    if not ok or not 0.0 < float(prevalence) < 1.0:
        raise ValueError(f"{what} must be a number strictly between 0 and 1 (the positive class's share where the "
                         f"model is used), got {prevalence!r}.")
    return float(prevalence)


@dataclass(frozen=True, eq=False)
class EvaluateOptions:
    """What an evaluation is asked for, beyond the data: the classes and their order (``labels``),
    the positive class, the threshold that turns scores into predictions (a finite float, or None
    for the default of the scores' kind), ``beta`` of an extra F-beta column (positive, finite),
    display names, the evaluation's name and the ``prevalence`` (0 < pi < 1) at which a binary task's
    measures are also reported (:meth:`clfeval.Evaluation.at_prevalence`). Checked when built, so an
    engine never checks again.

    >>> EvaluateOptions(threshold=1).threshold
    1.0
    >>> EvaluateOptions(labels=["a", "b"]).same_as(EvaluateOptions(labels=("a", "b")))
    True
    """

    labels: Any = None
    pos_label: Any = None
    threshold: float | None = None
    beta: float | None = None
    target_names: Any = None
    name: str | None = None
    prevalence: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "threshold", check_threshold(self.threshold))
        if self.prevalence is not None:
            object.__setattr__(self, "prevalence", check_prevalence(self.prevalence))
        beta = self.beta
        if beta is not None and (isinstance(beta, (bool, np.bool_)) or not isinstance(beta, numbers.Real)
                                 or not beta > 0 or beta == float("inf")):
            raise ValueError(f"beta must be a positive finite number, got {beta!r}.")

    @classmethod
    def of(cls, options: EvaluateOptions | None, **keywords: Any) -> EvaluateOptions:
        """``options`` if given (then every keyword must be left at None), else the options the
        keywords name: how :func:`clfeval.evaluate`, a stream and :mod:`clfeval.dask` take either.

        >>> EvaluateOptions.of(None, pos_label=1).pos_label
        1
        >>> EvaluateOptions.of(EvaluateOptions(), beta=2.0)
        Traceback (most recent call last):
        TypeError: pass options= or beta=, not both: options= already holds beta.
        """
        if options is None:
            return cls(**keywords)
        if not isinstance(options, EvaluateOptions):
            raise TypeError(f"options must be an EvaluateOptions, got {type(options).__name__}.")
        given = [key for key, value in keywords.items() if value is not None]
        if given:
            raise TypeError(f"pass options= or {'=, '.join(given)}=, not both: options= already holds "
                            f"{', '.join(given)}.")
        return options

    def as_keywords(self) -> dict[str, Any]:
        """The options as the keyword arguments of :func:`clfeval.evaluate`."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def given(self) -> dict[str, Any]:
        """The options that are set (not None), as keywords: what a call through a keyword API
        (:func:`clfeval.dask.evaluate_file`) passes on.

        >>> EvaluateOptions(threshold=0.4, name="b").given()
        {'threshold': 0.4, 'name': 'b'}
        """
        return {key: value for key, value in self.as_keywords().items() if value is not None}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EvaluateOptions) and self.same_as(other)

    __hash__ = None  # type: ignore[assignment]  # labels may be a list or an array

    def same_as(self, other: EvaluateOptions) -> bool:
        """Whether two streams built with these options may be merged: equal values, where a
        list and a tuple of the same labels are equal and None equals only None."""
        for key, x in self.as_keywords().items():
            y = getattr(other, key)
            if x is None or y is None:
                if (x is None) != (y is None):
                    return False
            elif not np.array_equal(np.asarray(x, dtype=object), np.asarray(y, dtype=object)):
                return False
        return True


@dataclass(frozen=True)
class StreamSettings:
    """How a stream keeps its scores: ``mode`` ("auto": exact until ``max_distinct`` distinct
    scores, then binned; "exact"; "binned"), ``max_distinct`` and the bin grid's mantissa ``bits``.

    >>> StreamSettings(mode="binned", bits=12).bits
    12
    >>> StreamSettings(bits=60)
    Traceback (most recent call last):
    ValueError: bits must be an integer from 1 to 52 (the bin grid's mantissa bits), got 60.
    """

    mode: str = "auto"
    max_distinct: int = DEFAULT_MAX_DISTINCT
    bits: int = DEFAULT_BITS

    @classmethod
    def of(cls, settings: StreamSettings | None, mode: str, max_distinct: int, bits: int) -> StreamSettings:
        """``settings`` if given (then the keywords must be left at their defaults), else the
        settings the keywords name.

        >>> StreamSettings.of(None, "exact", DEFAULT_MAX_DISTINCT, DEFAULT_BITS).mode
        'exact'
        """
        if settings is None:
            return cls(mode, max_distinct, bits)
        if not isinstance(settings, StreamSettings):
            raise TypeError(f"settings must be a StreamSettings, got {type(settings).__name__}.")
        if (mode, max_distinct, bits) != (cls.mode, cls.max_distinct, cls.bits):
            raise TypeError("pass settings= or mode=, max_distinct=, bits=, not both.")
        return settings

    def given(self) -> dict[str, Any]:
        """The settings that differ from the defaults, as keywords.

        >>> StreamSettings(mode="binned", bits=12).given()
        {'mode': 'binned', 'bits': 12}
        """
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != f.default}

    def __post_init__(self) -> None:
        if self.mode not in STREAM_MODES:
            raise ValueError(f"mode must be one of {', '.join(map(repr, STREAM_MODES))}, got {self.mode!r}.")
        m = self.max_distinct
        if not isinstance(m, (int, np.integer)) or isinstance(m, bool) or m < 1:
            raise ValueError(f"max_distinct must be a positive integer, got {m!r}.")
        b = self.bits
        if not isinstance(b, (int, np.integer)) or isinstance(b, bool) or not 1 <= b <= 52:
            raise ValueError(f"bits must be an integer from 1 to 52 (the bin grid's mantissa bits), got {b!r}.")
        object.__setattr__(self, "max_distinct", int(m))
        object.__setattr__(self, "bits", int(b))
