"""The confidence intervals of a report as one object: a dict that reads like the report.

:meth:`clfeval.Evaluation.intervals` and :func:`clfeval.uncertainty.confusion_intervals` return an
:class:`Intervals`: the same mapping as before (``d["overall"]["kappa"]``, ``d["per_class"]["recall"]``,
``d["averages"]["macro"]["f1"]``, ``d["notes"]``), with a readable ``repr`` (one row per measure:
estimate, interval, standard error where the interval is made from one, method), ``to_frame()``
(pandas, one row per measure and class) and ``to_dict()`` (plain Python, for JSON).

>>> import numpy as np
>>> from clfeval.uncertainty import confusion_intervals
>>> d = confusion_intervals(np.array([[40, 10], [5, 45]]), labels=["no", "yes"])
>>> round(d["overall"]["kappa"].standard_error, 4)
0.0711
>>> print(repr(d).splitlines()[0])
95% confidence intervals (method='analytic')
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from clfeval.support.html_table import html_block, html_pre, html_table
from clfeval.support.number_text import DIGITS, format_value, interval_decimals

__all__ = ["Intervals", "INTERVAL_COLUMNS", "MAX_REPR_CLASSES", "intervals_to_plain"]

#: The columns of :meth:`Intervals.to_frame`, in order.
INTERVAL_COLUMNS = ("section", "label", "measure", "estimate", "low", "high", "standard_error", "level", "method")

#: Classes (or labels) whose rows the repr lists; to_frame() has them all.
MAX_REPR_CLASSES = 10

_SECTION_TITLES = {"overall": "overall", "micro": "micro average", "macro": "macro average",
                   "weighted": "weighted average", "samples": "samples average"}


def _float(v: Any) -> float:
    return float("nan") if v is None else float(v)


def _entry(ci: Any, index: int | None) -> tuple[float, float, float, float | None, str]:
    """(estimate, low, high, standard error or None, method) of a scalar or per-class interval."""
    def pick(v: Any) -> Any:
        if v is None:
            return None
        return float(v[index]) if index is not None else float(v)

    return (_float(pick(ci.estimate)), _float(pick(ci.low)), _float(pick(ci.high)), pick(ci.standard_error),
            ci.method)


class Intervals(dict):
    """The intervals of every number of a report: a dict with a report-like ``repr``.

    Keys as :func:`clfeval.uncertainty.confusion_intervals` documents ("level", "method",
    "labels", "per_class", "averages", "overall", "notes"); every value is a
    :class:`~clfeval.stats.ConfidenceInterval` whose ``standard_error`` is set where the interval
    is estimate +/- z se (delta method, DeLong, Wald), else None.
    """

    __slots__ = ()

    def rows(self) -> Iterator[tuple[str, Any, str, float, float, float, float | None, float, str]]:
        """(section, label, measure, estimate, low, high, standard_error, level, method) per
        number: overall first, then the averages, then each class (label None outside per_class)."""
        level = float(self.get("level", float("nan")))
        for measure, ci in self.get("overall", {}).items():
            yield ("overall", None, measure, *_entry(ci, None)[:4], level, ci.method)
        for avg, row in self.get("averages", {}).items():
            for measure, ci in row.items():
                yield (avg, None, measure, *_entry(ci, None)[:4], level, ci.method)
        labels = list(self.get("labels", []))
        per_class = self.get("per_class", {})
        for i, label in enumerate(labels):
            for measure, ci in per_class.items():
                yield ("per_class", label, measure, *_entry(ci, i)[:4], level, ci.method)

    def to_frame(self) -> Any:
        """One row per number (see :data:`INTERVAL_COLUMNS`) as a pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(list(self.rows()), columns=list(INTERVAL_COLUMNS))

    def to_dict(self) -> dict[str, Any]:
        """Plain Python for JSON: {"level", "method", "per_class": {measure: {"low": [...], "high":
        [...], "standard_error": [...] or None, "method"}}, "averages": {average: {measure: {...}}},
        "overall": {measure: {...}}, "notes"}."""
        import numpy as np

        def value(v: Any) -> Any:
            return None if v is None else np.asarray(v, dtype=np.float64).tolist()

        def plain(ci: Any) -> dict[str, Any]:
            return {"low": value(ci.low), "high": value(ci.high), "standard_error": value(ci.standard_error),
                    "method": ci.method}

        return {
            "level": self["level"],
            "method": self["method"],
            "per_class": {m: plain(ci) for m, ci in self["per_class"].items()},
            "averages": {a: {m: plain(ci) for m, ci in row.items()} for a, row in self["averages"].items()},
            "overall": {m: plain(ci) for m, ci in self["overall"].items()},
            "notes": list(self.get("notes", [])),
        }

    def _table(self) -> tuple[list[tuple[str, list[str]]], list[str], list[str]]:
        """([(group title, [row cells])], method legend, closing lines) for the text and HTML views."""
        from clfeval.formulas.measure_registry import title

        methods: dict[str, int] = {}
        groups: list[tuple[str, list[list[str]]]] = []
        labels = list(self.get("labels", []))
        shown = labels[:MAX_REPR_CLASSES]
        for section, label, measure, est, low, high, se, _, method in self.rows():
            if section == "per_class":
                if label not in shown:
                    continue
                group = f"class {label!r}"
            else:
                group = _SECTION_TITLES.get(section, section)
            if not groups or groups[-1][0] != group:
                groups.append((group, []))
            d = interval_decimals(low, high, DIGITS)  # never 'x to x' for ends that differ
            key = methods.setdefault(method, len(methods) + 1)
            interval = "nan" if math.isnan(low) else f"{format_value(low, d)} to {format_value(high, d)}"
            groups[-1][1].append([title(measure), format_value(est, d), interval, format_value(se, max(d, DIGITS)),
                                  f"[{key}]"])
        legend = [f"[{k}] {m}" for m, k in methods.items()]
        tail = []
        if len(labels) > len(shown):
            tail.append(f"... {len(labels) - len(shown)} more classes not shown; to_frame() has every one.")
        tail += [f"note: {n}" for n in self.get("notes", [])]
        return groups, legend, tail  # type: ignore[return-value]

    def __repr__(self) -> str:
        if not {"level", "overall", "per_class", "averages"} <= self.keys():
            return f"Intervals({dict.__repr__(self)})"
        groups, legend, tail = self._table()
        header = ["", "estimate", "interval", "std. error", "method"]
        cells = [header] + [row for _, rows in groups for row in rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(header))]

        def line(r: list[str], indent: str = "  ") -> str:
            first = indent + r[0].ljust(widths[0])
            rest = [r[i].rjust(widths[i]) if i < 4 else r[i] for i in range(1, len(r))]
            return "  ".join([first, *rest]).rstrip()

        out = [f"{self['level']:.0%} confidence intervals (method={self['method']!r})", line(header)]
        for group, rows in groups:
            out.append(group)
            out += [line(r) for r in rows]
        return "\n".join(out + ["methods:"] + ["  " + m for m in legend] + tail)

    def _repr_html_(self) -> str:
        if not {"level", "overall", "per_class", "averages"} <= self.keys():
            return html_pre(repr(self))
        groups, legend, tail = self._table()  # the cells of the text repr
        rows = [row for group, cells in groups for row in (group, *cells)]
        table = html_table(["", "estimate", "interval", "std. error", "method"], rows)
        return html_block(f"{self['level']:.0%} confidence intervals", table, subtitle=f"(method={self['method']!r})",
                          notes=["methods:", *legend, *tail])


def intervals_to_plain(data: dict[str, Any]) -> dict[str, Any]:
    """An :meth:`Evaluation.intervals` dict as plain Python: {"level", "method", "per_class":
    {metric: {"low": [...], "high": [...], "standard_error": [...] or None, "method"}}, "averages":
    {average: {metric: {"low", "high", "standard_error", "method"}}}, "overall": {metric: {...}},
    "notes"} (:meth:`clfeval.results.intervals.Intervals.to_dict`).

    Parameters
    ----------
    data : dict
        The dict of intervals :meth:`Evaluation.intervals` (or
        :func:`clfeval.uncertainty.confusion_intervals`) returns.

    Returns
    -------
    dict
        The same content with every ConfidenceInterval spelled out as lists and floats.

    Examples
    --------
    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 0, 1, 1, 1], [0, 1, 1, 1, 0])
    >>> plain = intervals_to_plain(ev.intervals())
    >>> list(plain)
    ['level', 'method', 'per_class', 'averages', 'overall', 'notes']
    >>> plain["overall"]["accuracy"]["method"]
    'Wilson score'
    """

    return Intervals(data).to_dict()
