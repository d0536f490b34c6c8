"""Result objects shared by every test and interval in clfeval.stats and clfeval.uncertainty.

In the manner of ``scipy.stats``: a test returns a :class:`TestResult` (``statistic``, ``pvalue``,
``estimate``, ``confidence_interval(level)``, ``method``, ``alternative``); an interval is a
:class:`ConfidenceInterval` (``low``, ``high``, ``level``, ``method``, ``estimate``).

>>> ci = ConfidenceInterval(0.2, 0.6, 0.95, "Wilson score", estimate=0.4)
>>> ci
ConfidenceInterval(estimate=0.4, low=0.2, high=0.6, level=0.95, method='Wilson score')
>>> r = TestResult(statistic=2.5, pvalue=0.0124, method="demo test", alternative="two-sided",
...                estimate=0.1, interval=lambda level: (0.02, 0.18))
>>> r.confidence_interval(0.9).low, r.to_dict()["pvalue"]
(0.02, 0.0124)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from clfeval.support.html_table import html_block, html_table
from clfeval.support.number_text import DIGITS, format_value, interval_decimals, interval_text, pvalue_text

__all__ = ["ConfidenceInterval", "TestResult", "ALTERNATIVES", "check_alternative", "check_level"]

ALTERNATIVES = ("two-sided", "less", "greater")


def check_alternative(alternative: str) -> str:
    """The alternative, or a ValueError naming the allowed ones."""
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {ALTERNATIVES}, got {alternative!r}.")
    return alternative


def check_level(level: float) -> float:
    """The confidence level as a float in (0, 1), or a ValueError."""
    level = float(level)
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be between 0 and 1 (e.g. 0.95), got {level!r}.")
    return level


def _fmt(v: Any) -> str:
    return repr(round(v, 6)) if isinstance(v, float) and math.isfinite(v) else repr(v)


@dataclass(frozen=True)
class ConfidenceInterval:
    """A confidence interval: ``low`` and ``high`` at ``level``, found by ``method``.

    ``standard_error``: the standard error of ``estimate`` when the interval is made from one
    (Wald-type intervals, estimate +/- z se, clipped to the measure's range; DeLong; the delta
    method), else None (score, exact and bootstrap intervals).

    Parameters
    ----------
    low : float or numpy.ndarray
        Lower limit of the interval (an array of limits, one per class, for stacked intervals).
    high : float or numpy.ndarray
        Upper limit of the interval, shaped like ``low``.
    level : float
        Confidence level the limits were computed at, between 0 and 1 (e.g. 0.95).
    method : str
        Human-readable name of the procedure that produced the limits (e.g. ``"Wilson score"``).
    estimate : float or numpy.ndarray, optional
        The point estimate the interval surrounds. Default None (not known).
    standard_error : float or numpy.ndarray, optional
        Standard error of ``estimate`` when the limits were derived from it; default None.

    Examples
    --------
    >>> ci = ConfidenceInterval(0.2, 0.6, 0.95, "Wilson score", estimate=0.4)
    >>> ci
    ConfidenceInterval(estimate=0.4, low=0.2, high=0.6, level=0.95, method='Wilson score')
    >>> low, high = ci
    >>> high - low
    0.39999999999999997
    """

    low: float
    high: float
    level: float
    method: str
    estimate: float | None = None
    standard_error: Any = None

    def __repr__(self) -> str:
        se = "" if self.standard_error is None else f", standard_error={_fmt(self.standard_error)}"
        return (f"ConfidenceInterval(estimate={_fmt(self.estimate)}, low={_fmt(self.low)}, high={_fmt(self.high)}"
                f"{se}, level={self.level!r}, method={self.method!r})")

    def __iter__(self):  # low, high = ci
        return iter((self.low, self.high))

    def _repr_html_(self) -> str:
        table = html_table(["", "estimate", "interval", "std. error"], _interval_rows(self))
        return html_block(f"{self.level:.0%} confidence interval", table, subtitle=f"({self.method})")

    @classmethod
    def stacked(cls, intervals: Any) -> ConfidenceInterval:
        """One interval with array bounds from a sequence of intervals (the first one's level
        and method); ``standard_error`` is an array when every interval has one, else None."""
        import numpy as np

        cis = list(intervals)
        ses = [c.standard_error for c in cis]
        se = None if any(s is None for s in ses) else np.array(ses, dtype=np.float64)
        return cls(np.array([c.low for c in cis], dtype=np.float64), np.array([c.high for c in cis], dtype=np.float64),
                   cis[0].level, cis[0].method, np.array([c.estimate for c in cis], dtype=np.float64), se)

    def at(self, index: Any) -> ConfidenceInterval:
        """Entry ``index`` of an interval whose bounds are arrays (one per class), as floats.

        >>> ConfidenceInterval([0.1, 0.2], [0.5, 0.6], 0.95, "m", [0.3, 0.4], [0.1, 0.1]).at(1)
        ConfidenceInterval(estimate=0.4, low=0.2, high=0.6, standard_error=0.1, level=0.95, method='m')
        """
        def pick(v: Any) -> Any:
            return None if v is None else float(v[index])

        return ConfidenceInterval(pick(self.low), pick(self.high), self.level, self.method, pick(self.estimate),
                                  pick(self.standard_error))

    def to_dict(self) -> dict[str, Any]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high, "level": self.level,
                "method": self.method, "standard_error": self.standard_error}


@dataclass(frozen=True)
class TestResult:
    """The outcome of a hypothesis test.

    ``interval(level) -> (low, high)`` gives the confidence interval of ``estimate`` (None when
    the test has no natural estimate). ``notes`` say what was decided about edge cases (e.g.
    "no discordant pairs: nothing to test, p = 1"). ``standard_error`` (of ``estimate``) is set
    where the interval is made from one, and :meth:`confidence_interval` carries it.

    Parameters
    ----------
    statistic : float
        Value of the test statistic (chi-squared, z, t, F, ... depending on the test).
    pvalue : float
        The p-value of ``statistic`` under the null hypothesis, for ``alternative``.
    method : str
        Name of the test that was run, as it should appear in reports.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis the p-value refers to.
    estimate : float, optional
        Point estimate of the effect the test is about (e.g. a difference in accuracy or AUC);
        default None when the test has none.
    estimate_name : str, optional
        What ``estimate`` measures, used as its label in the repr; default None ("estimate").
    df : float or tuple of float, optional
        Degrees of freedom of the reference distribution (a pair for F tests); default None.
    interval : callable, optional
        Function of a confidence level returning ``(low, high)`` limits for ``estimate``;
        default None when no interval is available.
    interval_method : str, optional
        Name of the procedure behind ``interval`` when it differs from ``method``; default None.
    notes : tuple of str, default ()
        Remarks on how edge cases were handled.
    extra : dict, default {}
        Further test-specific outputs (ranks, critical differences, per-pair results, ...),
        added to :meth:`to_dict`.
    standard_error : float, optional
        Standard error of ``estimate`` where the interval is built from it; default None.

    Examples
    --------
    >>> r = TestResult(statistic=2.5, pvalue=0.0124, method="demo test", estimate=0.1,
    ...                interval=lambda level: (0.02, 0.18))
    >>> r
    TestResult(statistic=2.5, pvalue=0.0124, estimate=0.1, method='demo test', alternative='two-sided')
    >>> r.confidence_interval(0.9).low
    0.02
    """

    statistic: float
    pvalue: float
    method: str
    alternative: str = "two-sided"
    estimate: float | None = None
    estimate_name: str | None = None
    df: float | tuple[float, ...] | None = None
    interval: Callable[[float], tuple[float, float]] | None = field(default=None, repr=False, compare=False)
    interval_method: str | None = None
    notes: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    standard_error: float | None = None  # of ``estimate``, where the interval is estimate +/- q se

    __test__ = False  # not a pytest test class

    def confidence_interval(self, level: float = 0.95) -> ConfidenceInterval:
        """Confidence interval of :attr:`estimate` at ``level``."""
        if self.interval is None:
            raise ValueError(f"{self.method} gives no confidence interval.")
        low, high = self.interval(check_level(level))
        return ConfidenceInterval(float(low), float(high), level, self.interval_method or self.method,
                                  self.estimate, self.standard_error)

    def __repr__(self) -> str:
        parts = [f"statistic={_fmt(self.statistic)}", f"pvalue={_fmt(self.pvalue)}"]
        if self.estimate is not None:
            parts.append(f"{self.estimate_name or 'estimate'}={_fmt(self.estimate)}")
        if self.df is not None:
            parts.append(f"df={self.df!r}")
        parts += [f"method={self.method!r}", f"alternative={self.alternative!r}"]
        return f"TestResult({', '.join(parts)})"

    def _repr_html_(self) -> str:  # the numbers as the terminal's table of tests writes them
        import numpy as np

        rows = [["statistic", _cell(self.statistic)], ["p-value", pvalue_text(self.pvalue)]]
        if self.df is not None:
            rows.append(["df", ", ".join(f"{float(d):g}" for d in np.atleast_1d(self.df))])
        if self.estimate is not None:
            rows.append([self.estimate_name or "estimate", _cell(self.estimate)])
        notes = list(self.notes)
        if self.interval is not None:
            ci = self.confidence_interval(0.95)
            rows.append(["95% interval", interval_text(ci.low, ci.high, DIGITS)])
            notes.insert(0, f"interval: {ci.method}")
        if self.standard_error is not None:
            rows.append(["standard error", _cell(self.standard_error)])
        return html_block(self.method, html_table(["", "value"], rows), subtitle=f"({self.alternative})", notes=notes)

    def to_dict(self, level: float = 0.95) -> dict[str, Any]:
        out: dict[str, Any] = {"statistic": self.statistic, "pvalue": self.pvalue, "method": self.method,
                               "alternative": self.alternative, "estimate": self.estimate,
                               "estimate_name": self.estimate_name, "df": self.df, "notes": list(self.notes)}
        if self.interval is not None:
            out["confidence_interval"] = self.confidence_interval(level).to_dict()
        out.update({k: _plain(v, level) for k, v in self.extra.items()})
        return out


def _cell(value: Any, digits: int = DIGITS) -> str:
    """A number as the reports write it (4 decimals, 'nan'); anything else as its text."""
    try:
        return format_value(float(value), digits)
    except (TypeError, ValueError):
        return str(value)


def _interval_rows(ci: ConfidenceInterval) -> list[list[str]]:
    """[label, estimate, [low, high], standard error] per entry of an interval (one row, "value", for
    scalar limits; one per class, labelled by its index, for stacked ones), each
    number with the decimals its interval needs (at least 4)."""
    import numpy as np

    low = np.atleast_1d(np.asarray(ci.low, dtype=np.float64))

    def each(v: Any) -> list[Any]:
        return [None] * low.size if v is None else np.atleast_1d(np.asarray(v, dtype=np.float64)).tolist()

    rows = []
    for i, (est, lo, hi, se) in enumerate(zip(each(ci.estimate), low.tolist(), each(ci.high), each(ci.standard_error))):
        d = interval_decimals(lo, hi, DIGITS)
        rows.append(["value" if np.ndim(ci.low) == 0 else str(i), format_value(est, d), interval_text(lo, hi, DIGITS),
                     format_value(se, d)])
    return rows


def _plain(value: Any, level: float) -> Any:
    """Nested results, arrays and tuples as plain Python (for JSON)."""
    if hasattr(value, "to_dict"):
        try:
            return value.to_dict(level)
        except TypeError:
            return value.to_dict()
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v, level) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v, level) for k, v in value.items()}
    return value
