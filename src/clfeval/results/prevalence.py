"""The measures of a binary classifier at another prevalence, as one small immutable result.

:class:`AtPrevalence` holds each measure at prevalence pi (PPV, NPV, F-beta, accuracy, MCC; TPR and
FPR, which do not change), their intervals, and AP and the precision-recall curve at pi. Every view
of it (repr, HTML, dict) says that the numbers are for pi, not for the sample's share of positives.
Built by :meth:`clfeval.Evaluation.at_prevalence`.

>>> r = AtPrevalence(0.1, 0.5, 1.0, {"precision": 0.4706, "recall": 0.8}, None)
>>> print(r.caption)
at prevalence π = 0.1, not the sample's p̂ = 0.5
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from clfeval.formulas.measure_registry import title
from clfeval.statistics.rankings import Curve
from clfeval.stats._result import ConfidenceInterval
from clfeval.support.html_table import html_block, html_table

__all__ = ["AtPrevalence", "prevalence_caption"]


def prevalence_caption(prevalence: float, sample_prevalence: float) -> str:
    """The line every view of the measures at a prevalence carries.

    >>> prevalence_caption(0.02, 0.25)
    "at prevalence π = 0.02, not the sample's p̂ = 0.25"
    """
    return f"at prevalence π = {prevalence:.4g}, not the sample's p̂ = {sample_prevalence:.4g}"


def _number(v: Any) -> str:
    return "nan" if v is None or v != v else f"{float(v):.4f}"


@dataclass(frozen=True)
class AtPrevalence:
    """A binary classifier's measures at prevalence ``prevalence`` (pi) instead of the sample's
    ``sample_prevalence`` (p-hat): each of ``values`` (key as in the report: "precision" is PPV,
    "npv", "f<beta>", "accuracy", "mcc", and the unchanged "recall" and "fallout") recomputed from the
    sample's TPR and FPR for pi; ``intervals`` (None when not asked) their confidence intervals;
    ``average_precision`` and ``pr_curve`` the AP and the precision-recall curve at pi (calibrated
    precision, Siblini et al. 2020; None without scores) and ``ap_interval`` AP's interval.
    ``pr_curve`` may be given as a function of no arguments that builds the curve: it is then built on
    first reading (a curve has a point per distinct score), and kept.

    >>> r = AtPrevalence(0.1, 0.5, 1.0, {"precision": 0.4706, "accuracy": 0.89}, None)
    >>> r
    AtPrevalence(at prevalence π = 0.1, not the sample's p̂ = 0.5: precision=0.4706, accuracy=0.8900)
    >>> r["accuracy"], r.to_dict()["prevalence"]
    (0.89, 0.1)
    """

    prevalence: float
    sample_prevalence: float
    beta: float
    values: dict[str, float]
    intervals: dict[str, ConfidenceInterval] | None = None
    average_precision: float | None = None
    ap_interval: ConfidenceInterval | None = None
    pr_curve: Curve | Callable[[], Curve] | None = field(default=None, repr=False, compare=False)
    level: float | None = None

    def __getattribute__(self, name: str) -> Any:
        value = object.__getattribute__(self, name)
        if name == "pr_curve" and value is not None and not isinstance(value, Curve):
            value = value()  # the curve's builder: build it once, keep it
            object.__setattr__(self, "pr_curve", value)
        return value

    @property
    def caption(self) -> str:
        """"at prevalence π = ..., not the sample's p̂ = ..." (every view says it)."""
        return prevalence_caption(self.prevalence, self.sample_prevalence)

    def __getitem__(self, name: str) -> float:
        if name == "average_precision" and self.average_precision is not None:
            return self.average_precision
        return self.values[name]

    def rows(self) -> list[tuple[str, str, float, ConfidenceInterval | None]]:
        """(key, title, value, interval or None) per measure, AP last (where there are scores)."""
        out = [(k, title(k), v, None if self.intervals is None else self.intervals.get(k))
               for k, v in self.values.items()]
        if self.average_precision is not None:
            out.append(("average_precision", title("average_precision"), self.average_precision, self.ap_interval))
        return out

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={_number(v)}" for k, _, v, _ in self.rows())
        return f"AtPrevalence({self.caption}: {shown})"

    def _repr_html_(self) -> str:
        with_ci = self.intervals is not None
        header = ["measure", "value"] + ([f"{self.level:.0%} interval"] if with_ci else [])
        rows = []
        for _, name, value, ci in self.rows():
            row = [name, _number(value)]
            if with_ci:
                row.append("" if ci is None else f"[{_number(ci.low)}, {_number(ci.high)}]")
            rows.append(row)
        notes = ["TPR (recall) and FPR (fall-out) do not depend on the prevalence; the others are recomputed "
                 "from them for π (AP and the PR curve with the calibrated precision, Siblini et al. 2020)."]
        return html_block("Measures " + self.caption, html_table(header, rows), notes=notes)

    def to_dict(self, max_points: int | None = 2000) -> dict[str, Any]:
        """Plain Python: the prevalence, the sample's, a note, the measures, their intervals, AP and
        the PR curve at pi (at most ``max_points`` points)."""
        return {
            "prevalence": self.prevalence,
            "sample_prevalence": self.sample_prevalence,
            "note": self.caption,
            "beta": self.beta,
            "measures": dict(self.values),
            "intervals": None if self.intervals is None else {k: ci.to_dict() for k, ci in self.intervals.items()},
            "average_precision": self.average_precision,
            "average_precision_interval": None if self.ap_interval is None else self.ap_interval.to_dict(),
            "pr_curve": None if self.pr_curve is None else self.pr_curve.to_dict(max_points),
        }
