"""The results of an evaluation by group: the table of every metric per group, the gaps of one
metric to a reference, and the fairness summaries across groups. Immutable, with ``to_dict()``,
``to_frame()`` (pandas, if installed) and a text table when printed.

>>> t = GroupTable(metrics=["recall"], groups=["a", "b"], keys=["a", "b"], n=np.array([30, 12]),
...                values=np.array([[0.9], [0.5]]), small=np.array([False, True]), columns=["site"])
>>> [r["group"] for r in t.rows(sort_by="recall")], t.to_dict()["rows"][1]["small"]
(['b', 'a'], True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.support.html_table import html_block, html_table
from clfeval.support.json_plain import json_safe
from clfeval.support.number_text import format_value

__all__ = ["GroupTable", "GapTable", "FairnessSummary", "GroupValue", "SMALL_GROUP_RULE", "SMALL_CLASS_CASES",
           "worst_order"]

#: fewest cases of each class a group needs for its intervals to be trusted
SMALL_CLASS_CASES = 20
#: the rule behind a group table's "small" flag, as the views print it
SMALL_GROUP_RULE = (
    f"small: some class has fewer than {SMALL_CLASS_CASES} cases in the group. The repository's coverage "
    f"simulation holds every 95% interval at 93-97% from {SMALL_CLASS_CASES} cases of each class on, and "
    "only at 90% or more below; per-class rates of so few cases are also too wide to compare groups.")


def _float(v: Any) -> float:
    return float(v)  # NaN stays NaN here; to_dict's json_safe writes it as null


def worst_order(values: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Indices of ``values`` worst first (lowest first when higher is better), NaN last, ties in order.

    >>> worst_order(np.array([0.5, np.nan, 0.2, 0.9]), True).tolist()
    [2, 0, 3, 1]
    """
    v = np.asarray(values, dtype=np.float64)
    key = np.where(np.isnan(v), np.inf, v if higher_is_better else -v)
    return np.argsort(key, kind="stable")


def _frame(records: list[dict[str, Any]]) -> Any:
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - pandas is installed with the test extra
        raise ImportError("to_frame needs pandas: pip install pandas.") from exc
    return pd.DataFrame.from_records(records)


def _text_table(header: list[str], lines: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in lines)) if lines else len(h) for i, h in enumerate(header)]
    out = ["  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(header, widths)))]
    out += ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in lines]
    return "\n".join(out)


def _with_hidden(text: str, hidden: int) -> str:
    return text + f"\n... {hidden:,} more group(s) not shown" if hidden else text


def _num(v: Any, digits: int = 4) -> str:
    return "nan" if v is None else format_value(float(v), digits)


#: groups the notebook's view of a table lists (the text and to_frame() have them all)
MAX_HTML_GROUPS = 50


def _html(title: str, header: list[str], lines: list[list[str]], hidden: int, notes: list[str],
          subtitle: str | None = None) -> str:
    more = [f"... {hidden:,} more group(s) not shown"] if hidden else []
    return html_block(title, html_table(header, lines), subtitle=subtitle, notes=more + notes)


@dataclass(frozen=True, eq=False)
class GroupValue:
    """One group's value of one metric (what ``by_group.worst(metric)`` returns)."""

    key: Any
    group: str
    metric: str
    value: float
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"group": self.group, "key": self.key, "metric": self.metric, "value": _float(self.value), "n": self.n}


@dataclass(frozen=True, eq=False)
class GroupTable:
    """Every metric per group. ``values`` (G, M); ``low``/``high`` (G, M) with intervals (``level``),
    ``methods`` the interval method per metric; ``small`` (G,) the groups too small for their intervals
    (:data:`SMALL_GROUP_RULE`); ``support`` {class name: (G,) cases}; ``notes`` per group (why a number
    is undefined); ``omitted``: groups left out of a truncated table (the worst are kept)."""

    metrics: list[str]
    groups: list[str]
    keys: list[Any]
    n: np.ndarray
    values: np.ndarray
    small: np.ndarray
    columns: list[str] = field(default_factory=lambda: ["group"])
    low: np.ndarray | None = None
    high: np.ndarray | None = None
    level: float | None = None
    methods: dict[str, str] = field(default_factory=dict)
    support: dict[str, np.ndarray] = field(default_factory=dict)
    weight: np.ndarray | None = None
    notes: list[list[str]] = field(default_factory=list)
    higher_is_better: dict[str, bool] = field(default_factory=dict)
    omitted: int = 0

    def column(self, metric: str) -> np.ndarray:
        """The (G,) values of one metric."""
        if metric not in self.metrics:
            raise ValueError(f"metric {metric!r} is not in this table; it has {self.metrics}.")
        return self.values[:, self.metrics.index(metric)]

    def rows(self, sort_by: str | None = None) -> list[dict[str, Any]]:
        """One dict per group (optionally worst first by ``sort_by``): group, n, support, each metric
        (and ``<metric>_low``/``_high`` with intervals), small, notes."""
        order = range(len(self.groups))
        if sort_by is not None:
            order = worst_order(self.column(sort_by), self.higher_is_better.get(sort_by, True))
        out = []
        for g in order:
            row: dict[str, Any] = {"group": self.groups[g], "key": self.keys[g], "n": int(self.n[g])}
            if self.weight is not None:
                row["weight"] = float(self.weight[g])
            row["support"] = {c: float(v[g]) if v.dtype.kind == "f" else int(v[g]) for c, v in self.support.items()}
            for j, m in enumerate(self.metrics):
                row[m] = _float(self.values[g, j])
                if self.low is not None and self.high is not None:
                    row[f"{m}_low"], row[f"{m}_high"] = _float(self.low[g, j]), _float(self.high[g, j])
            row["small"] = bool(self.small[g])
            row["notes"] = list(self.notes[g]) if self.notes else []
            out.append(row)
        return out

    def to_dict(self) -> dict[str, Any]:
        return json_safe({
            "columns": list(self.columns), "metrics": list(self.metrics), "level": self.level,
            "methods": dict(self.methods), "small_rule": SMALL_GROUP_RULE, "omitted": self.omitted,
            "rows": self.rows(),
        })

    def to_frame(self) -> Any:
        """One row per group (pandas DataFrame); the supports as ``support_<class>`` columns."""
        records = []
        for r in self.rows():
            r = dict(r)
            for c, v in r.pop("support").items():
                r[f"support_{c}"] = v
            r["notes"] = "; ".join(r["notes"])
            records.append(r)
        return _frame(records).set_index("group")

    def _cells(self, sort_by: str | None, limit: int | None) -> tuple[list[str], list[list[str]], int]:
        """(header, one row of cells per group shown, groups not shown) of the text and HTML views."""
        sort_by = sort_by or self.metrics[0]
        rows = self.rows(sort_by)
        shown = rows if limit is None else rows[:limit]
        header = [" / ".join(self.columns), "n"] + self.metrics + ["small"]
        lines = []
        for r in shown:
            cells = [str(r["group"]), f"{r['n']:,}"]
            for m in self.metrics:
                v = _num(r[m])
                if self.low is not None:
                    v += f" [{_num(r[m + '_low'])}, {_num(r[m + '_high'])}]"
                cells.append(v)
            cells.append("yes" if r["small"] else "")
            lines.append(cells)
        return header, lines, len(rows) - len(shown) + self.omitted

    def text(self, sort_by: str | None = None, limit: int | None = None) -> str:
        """The table as text, worst first by ``sort_by`` (default: the first metric), at most
        ``limit`` groups (the rest counted in a last line)."""
        header, lines, hidden = self._cells(sort_by, limit)
        return _with_hidden(_text_table(header, lines), hidden)

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        header, lines, hidden = self._cells(None, MAX_HTML_GROUPS)
        level = None if self.level is None else f"(intervals at {self.level:.0%})"
        return _html("Metrics by group, worst first", header, lines, hidden,
                     [SMALL_GROUP_RULE] if self.small.any() else [], subtitle=level)

    def __repr__(self) -> str:
        return f"GroupTable({len(self.groups)} groups x {len(self.metrics)} metrics, level={self.level})"


@dataclass(frozen=True, eq=False)
class GapTable:
    """One metric of each group against a reference ("overall", a group, or the best group).

    ``values`` (G,) the groups' values, ``reference_value``; ``difference``/``ratio`` (G, 4) arrays of
    (estimate, low, high, standard error); ``pvalue`` and ``pvalue_holm`` (G,) (Holm over the groups
    compared; NaN for the reference group itself, ``reference_group``, and where the metric is
    undefined)."""

    metric: str
    reference: str
    reference_value: float
    groups: list[str]
    keys: list[Any]
    n: np.ndarray
    values: np.ndarray
    difference: np.ndarray
    ratio: np.ndarray
    pvalue: np.ndarray
    pvalue_holm: np.ndarray
    level: float
    sampling: str
    method: str
    higher_is_better: bool = True
    notes: list[str] = field(default_factory=list)
    omitted: int = 0
    reference_group: str | None = None  # the reference's display name when it is a group

    def rows(self, sort: bool = False) -> list[dict[str, Any]]:
        order = worst_order(self.values, self.higher_is_better) if sort else range(len(self.groups))
        out = []
        for g in order:
            d, r = self.difference[g], self.ratio[g]
            out.append({
                "group": self.groups[g], "key": self.keys[g], "n": int(self.n[g]), "value": _float(self.values[g]),
                "difference": _float(d[0]), "difference_low": _float(d[1]), "difference_high": _float(d[2]),
                "difference_se": _float(d[3]), "ratio": _float(r[0]), "ratio_low": _float(r[1]),
                "ratio_high": _float(r[2]), "pvalue": _float(self.pvalue[g]), "pvalue_holm": _float(self.pvalue_holm[g]),
            })
        return out

    def to_dict(self) -> dict[str, Any]:
        return json_safe({
            "metric": self.metric, "reference": self.reference, "reference_value": _float(self.reference_value),
            "level": self.level, "sampling": self.sampling, "method": self.method, "notes": list(self.notes),
            "omitted": self.omitted, "rows": self.rows(),
        })

    def to_frame(self) -> Any:
        return _frame(self.rows()).set_index("group")

    def _cells(self, limit: int | None) -> tuple[str, list[str], list[list[str]], int]:
        """(title, header, one row of cells per group shown, groups not shown) of the text and HTML views."""
        rows = self.rows(sort=True)
        shown = rows if limit is None else rows[:limit]
        pct = f"{self.level:.0%}"
        header = ["group", "n", self.metric, "difference", f"{pct} interval", "ratio", f"{pct} interval", "p", "p (Holm)"]
        lines = [[str(r["group"]), f"{r['n']:,}", _num(r["value"]), _num(r["difference"]),
                  f"[{_num(r['difference_low'])}, {_num(r['difference_high'])}]", _num(r["ratio"]),
                  f"[{_num(r['ratio_low'])}, {_num(r['ratio_high'])}]", _num(r["pvalue"]), _num(r["pvalue_holm"])]
                 if r["group"] != self.reference_group else
                 [str(r["group"]), f"{r['n']:,}", _num(r["value"]), "(the reference)", "", "", "", "", ""]
                 for r in shown]
        title = f"{self.metric} against {self.reference} ({_num(self.reference_value)}), {self.sampling} sampling"
        return title, header, lines, len(rows) - len(shown) + self.omitted

    def text(self, limit: int | None = None) -> str:
        title, header, lines, hidden = self._cells(limit)
        return _with_hidden(title + "\n" + _text_table(header, lines), hidden)

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        title, header, lines, hidden = self._cells(MAX_HTML_GROUPS)
        return _html(title, header, lines, hidden, list(self.notes), subtitle=f"({self.method})")

    def __repr__(self) -> str:
        return f"GapTable({self.metric!r} against {self.reference!r}, {len(self.groups)} groups)"


@dataclass(frozen=True, eq=False)
class FairnessSummary:
    """fairlearn's summaries across groups, each with a bootstrap interval: ``entries`` {name:
    {"value", "low", "high", "definition"}}; ``rates`` {"selection_rate" | "tpr" | "fpr": (G,)}."""

    entries: dict[str, dict[str, Any]]
    rates: dict[str, np.ndarray]
    groups: list[str]
    level: float
    method: str
    notes: list[str] = field(default_factory=list)

    def __getitem__(self, name: str) -> float:
        return self.entries[name]["value"]

    def to_dict(self) -> dict[str, Any]:
        return json_safe({
            "level": self.level, "method": self.method, "notes": list(self.notes),
            "summaries": {k: {kk: _float(vv) if isinstance(vv, float) else vv for kk, vv in v.items()}
                          for k, v in self.entries.items()},
            "rates": {k: {"groups": list(self.groups), "values": [_float(x) for x in v]} for k, v in self.rates.items()},
        })

    def to_frame(self) -> Any:
        return _frame([{"summary": k, **v} for k, v in self.entries.items()]).set_index("summary")

    def _cells(self) -> tuple[list[str], list[list[str]]]:
        lines = [[k, _num(v["value"]), f"[{_num(v['low'])}, {_num(v['high'])}]", v["definition"]]
                 for k, v in self.entries.items()]
        return ["fairness summary", "value", f"{self.level:.0%} interval", "definition"], lines

    def text(self) -> str:
        return _text_table(*self._cells())

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        header, lines = self._cells()
        return _html("Fairness across groups", header, lines, 0, list(self.notes), subtitle=f"({self.method})")

    def __repr__(self) -> str:
        return "FairnessSummary(" + ", ".join(f"{k}={_num(v['value'])}" for k, v in self.entries.items()) + ")"
