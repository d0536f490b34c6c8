"""Evaluation by group: one Evaluation per slice of the rows, and what compares them.

:func:`clfeval.evaluate` with ``groups=`` sorts the rows by group once and evaluates each group's
rows with the overall evaluation's label set, positive class and threshold (so a group's numbers are
exactly those of ``evaluate`` on its rows with those options); the overall evaluation is the usual
one, whose statistics are the merge of the groups'. :class:`GroupEvaluations` (the Evaluation's
``by_group``) is a mapping group key -> Evaluation that also offers:

* :meth:`~GroupEvaluations.table`: every metric per group, with intervals and the small-group flag;
* :meth:`~GroupEvaluations.gaps`: one metric of each group against the overall, a group or the best
  group: difference and ratio with intervals that respect the overlap, p-values, Holm-adjusted;
* :meth:`~GroupEvaluations.worst` and :meth:`~GroupEvaluations.fairness` (fairlearn's summaries:
  demographic parity, equalized odds, equal opportunity; each with an interval);
* :meth:`~GroupEvaluations.to_dict`, the Evaluation JSON's ``groups`` entry.

Intervals come from the statistics: each group's own analytic intervals, the delta method on each
case's influence for gaps (:mod:`clfeval.uncertainty.group_gaps`), a bootstrap over the groups'
count cells for the non-smooth fairness summaries.

>>> import clfeval
>>> ev = clfeval.evaluate([0, 1, 1, 0, 1, 0], [0, 1, 0, 0, 1, 1], groups=["x", "x", "x", "y", "y", "y"])
>>> sorted(ev.by_group), ev.by_group["x"].report.overall["accuracy"]
(['x', 'y'], 0.6666666666666666)
>>> ev.by_group.worst("recall").group
'x'
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from clfeval.evaluation.build import evaluation_fields
from clfeval.evaluation.group_metrics import GroupMetric, default_metrics, group_metric
from clfeval.exceptions import ValuesError
from clfeval.formulas import measures as fm
from clfeval.inputs.evaluate_options import EvaluateOptions
from clfeval.inputs.group_keys import MAX_GROUPS, GroupKeys, group_keys
from clfeval.inputs.labels import as_array, as_score_array
from clfeval.results.group_results import (
    SMALL_CLASS_CASES,
    FairnessSummary,
    GapTable,
    GroupTable,
    GroupValue,
    worst_order,
)
from clfeval.uncertainty.group_gaps import (
    GROUP_SAMPLING,
    gap_estimate,
    resampled_group_tables,
    spread_limits,
)
from clfeval.uncertainty.multiplicity import holm_adjusted

__all__ = ["GroupEvaluations", "evaluate_groups", "with_groups", "sorted_rows", "FAIRNESS_DEFINITIONS"]

#: fairlearn's definitions, as the fairness summary prints them
FAIRNESS_DEFINITIONS = {
    "demographic_parity_difference": "max - min of the selection rate across groups",
    "demographic_parity_ratio": "min / max of the selection rate across groups",
    "equalized_odds_difference": "the larger of the TPR and FPR differences (max - min) across groups",
    "equalized_odds_ratio": "the smaller of the TPR and FPR ratios (min / max) across groups",
    "equal_opportunity_difference": "max - min of the TPR across groups",
    "equal_opportunity_ratio": "min / max of the TPR across groups",
}


class GroupEvaluations(Mapping):
    """The Evaluation of each group (a mapping key -> Evaluation; a group is also found by its
    display name), with the tables that compare them. Built by :func:`clfeval.evaluate` with
    ``groups=``; ``overall`` is the evaluation of all rows, ``keys`` the rows' groups."""

    def __init__(self, overall: Any, keys: GroupKeys, evaluations: list[Any]) -> None:
        self.overall = overall
        self.keys = keys
        self._evaluations = evaluations
        self._index = {k: j for j, k in enumerate(keys.keys)}
        self._by_name = {d: j for j, d in enumerate(keys.display)}
        self._cache: dict[Any, Any] = {}

    # -- the mapping ---------------------------------------------------------------------------
    def _position(self, key: Any) -> int:
        if isinstance(key, list):
            key = tuple(key)
        try:
            if key in self._index:
                return self._index[key]
        except TypeError:
            pass
        if isinstance(key, str) and key in self._by_name:
            return self._by_name[key]
        raise KeyError(f"no group {key!r}; groups: {self.keys.display[:10]}"
                       + (" ..." if len(self.keys.display) > 10 else ""))

    def __getitem__(self, key: Any) -> Any:
        return self._evaluations[self._position(key)]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.keys.keys)

    def __len__(self) -> int:
        return len(self.keys.keys)

    def __repr__(self) -> str:
        shown = ", ".join(self.keys.display[:5]) + (", ..." if len(self) > 5 else "")
        return f"GroupEvaluations({len(self)} groups by {', '.join(self.keys.columns)}: {shown})"

    def _repr_html_(self) -> str:  # the table of every metric per group (no intervals: table(ci=0.95) has them)
        from clfeval.support.html_table import RawHtml, html_block

        return html_block(f"{len(self)} groups by {', '.join(self.keys.columns)}", RawHtml(self.table()._repr_html_()))

    @property
    def names(self) -> list[str]:
        """The groups' display names, in key order."""
        return list(self.keys.display)

    def _rows(self, j: int) -> np.ndarray:
        """Indices (into the overall rows) of group j's rows, in the order its Evaluation holds them."""
        starts = self.keys.starts()
        return self._order()[starts[j]:starts[j + 1]]

    def _order(self) -> np.ndarray:
        if "order" not in self._cache:
            self._cache["order"] = sorted_rows(self.keys)
        return self._cache["order"]

    def at(self, overall: Any, threshold: float, curve: str | None = None) -> GroupEvaluations:
        """Every group at another threshold (:meth:`Evaluation.at <clfeval.evaluation.Evaluation.at>`),
        with ``overall`` (the overall evaluation at that threshold).

        >>> import clfeval
        >>> ev = clfeval.evaluate([0, 1, 1, 0], y_score=[0.2, 0.6, 0.4, 0.1], groups=["a", "a", "b", "b"])
        >>> ev.at(0.3).by_group["b"].confusion.counts.tolist()
        [[1, 0], [0, 1]]
        """
        out = GroupEvaluations(overall, self.keys, [e.at(threshold, curve=curve) for e in self._evaluations])
        out._cache.update({k: v for k, v in self._cache.items() if k == "order"})
        return out

    # -- tables ---------------------------------------------------------------------------------
    def table(self, metrics: Any = None, ci: float | None = None, *, method: str = "analytic",
              n_resamples: int = 2000, seed: Any = 0, sampling: str = "cross-sectional",
              max_groups: int = MAX_GROUPS) -> GroupTable:
        """Every metric per group (default: the report's, see
        :func:`clfeval.evaluation.group_metrics.default_metrics`), with each group's interval at
        level ``ci`` (``method``, ``n_resamples``, ``seed`` and ``sampling`` within a group as
        :meth:`Evaluation.intervals <clfeval.evaluation.Evaluation.intervals>`: analytic by default, or
        a bootstrap over the group's count cells, its size fixed), its size and class
        supports, and a flag for groups too small for their intervals (fewer than 20 cases of some
        class: :data:`clfeval.results.group_results.SMALL_GROUP_RULE` says why). Beyond ``max_groups``
        groups, only the worst by the first metric are kept (``omitted`` counts the others).

        >>> import clfeval
        >>> ev = clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0], groups=["a", "a", "b", "b"])
        >>> ev.by_group.table(["accuracy", "recall"]).values.tolist()
        [[1.0, 1.0], [0.5, 0.0]]
        """
        chosen = self._metrics(metrics)
        evs = self._evaluations
        values = np.array([[m.value(ev) for m in chosen] for ev in evs], dtype=np.float64).reshape(len(evs), len(chosen))
        keep = np.arange(len(evs))
        omitted = 0
        if len(evs) > max_groups:
            keep = np.sort(worst_order(values[:, 0], chosen[0].higher_is_better)[:max_groups])
            omitted = len(evs) - max_groups
        low = high = None
        methods: dict[str, str] = {}
        if ci is not None:
            low = np.full((keep.size, len(chosen)), np.nan)
            high = np.full_like(low, np.nan)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # undefined numbers are NaN with their reason in notes
                for r, g in enumerate(keep):
                    for j, m in enumerate(chosen):
                        try:
                            iv = m.interval(evs[g], ci, sampling, method=method, n_resamples=n_resamples,
                                            seed=seed)
                        except ValueError as exc:
                            methods.setdefault(m.key, f"not available: {exc}")
                            continue
                        low[r, j], high[r, j] = iv.low, iv.high
                        if np.isfinite(values[g, j]):
                            methods[m.key] = iv.method
        support, small = self._supports(keep)
        ov = self.overall
        return GroupTable(
            metrics=[m.key for m in chosen], groups=[self.keys.display[g] for g in keep],
            keys=[self.keys.keys[g] for g in keep], n=self.keys.sizes[keep], values=values[keep],
            small=small, columns=list(self.keys.columns), low=low, high=high, level=ci, methods=methods,
            support=support,
            weight=None if ov.sample_weight is None else np.array([evs[g].total_weight for g in keep]),
            notes=[_undefined_notes(chosen, values[g], evs[g]) for g in keep],
            higher_is_better={m.key: m.higher_is_better for m in chosen}, omitted=omitted,
        )

    def _metrics(self, metrics: Any) -> list[GroupMetric]:
        if metrics is None:
            metrics = default_metrics(self.overall)
        elif isinstance(metrics, str):
            metrics = [metrics]
        out = [group_metric(self.overall, k) for k in metrics]
        if not out:
            raise ValueError("metrics is empty: name at least one metric, e.g. ['accuracy'].")
        return out

    def _supports(self, keep: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Cases of each true class per group, and the small-group flag: the rows of positive weight
        (each group's confusion counts' row sums without weights)."""
        ov = self.overall
        names = [str(n) for n in ov.names]
        if ov.task == "multilabel" or ov.confusion.pairs is not None:
            return {"n": self.keys.sizes[keep]}, self.keys.sizes[keep] < SMALL_CLASS_CASES
        k = len(names)
        rows = []
        for g in keep:
            e = self._evaluations[g]
            if e.sample_weight is None or e.cases is None:  # counts; a weighted stream: its weight sums
                rows.append(np.asarray(e.confusion.counts).sum(axis=1))
            else:
                rows.append(np.bincount(e.cases.true[e.sample_weight > 0], minlength=k))
        table = np.array(rows).reshape(len(rows), k)
        return {n: table[:, c] for c, n in enumerate(names)}, table.min(axis=1) < SMALL_CLASS_CASES

    def worst(self, metric: str) -> GroupValue:
        """The group with the worst value of ``metric`` (lowest where higher is better; undefined
        values are never worst).

        >>> import clfeval
        >>> clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0], groups=["a", "a", "b", "b"]).by_group.worst("accuracy").group
        'b'
        """
        m = group_metric(self.overall, metric)
        values = np.array([m.value(e) for e in self._evaluations])
        if np.isnan(values).all():
            raise ValueError(f"{metric!r} is undefined in every group.")
        g = int(worst_order(values, m.higher_is_better)[0])
        return GroupValue(self.keys.keys[g], self.keys.display[g], metric, float(values[g]), int(self.keys.sizes[g]))

    def gaps(self, metric: str, reference: Any = "overall", *, level: float = 0.95,
             sampling: str = "cross-sectional", max_groups: int = MAX_GROUPS) -> GapTable:
        """Each group's ``metric`` against ``reference``: "overall" (the evaluation of all rows, which
        contains the group), a group (its key or name) or "best" (the group with the best value; the
        intervals do not account for having picked it). Difference and ratio with intervals by the
        delta method on each case's influence, which accounts for a group being part of the overall,
        and limits from the two numbers' own intervals (MOVER: a group at the edge of the range keeps
        the width of its own interval; :mod:`clfeval.uncertainty.group_gaps`); ``sampling``: "cross-sectional" (cases drawn whatever
        their group: the default) or "by-group" (so many cases per group, by design). p-values test
        no difference; ``pvalue_holm`` adjusts them over the groups compared.

        >>> import clfeval
        >>> y = [0, 1] * 30; p = [0, 1] * 20 + [1, 0] * 10; g = ["a"] * 40 + ["b"] * 20
        >>> gap = clfeval.evaluate(y, p, groups=g).by_group.gaps("accuracy")
        >>> gap.difference[:, 0].round(4).tolist(), round(gap.reference_value, 4)
        ([0.3333, -0.6667], 0.6667)
        """
        if sampling not in GROUP_SAMPLING:
            raise ValueError(f"sampling must be one of {GROUP_SAMPLING}, got {sampling!r}.")
        m = group_metric(self.overall, metric)
        if self.overall.cases is None:
            raise ValueError("gaps between groups need each case's influence, which a stream does not keep: "
                             "evaluate the rows in memory (clfeval.evaluate) for gaps; the stream's "
                             "by_group.table() has each group's numbers and intervals.")
        evs = self._evaluations
        G = len(evs)
        values = np.array([m.value(e) for e in evs])
        ref_index: int | None = None
        if isinstance(reference, str) and reference == "overall":
            ref_name, ref_value = "overall", m.value(self.overall)
        elif isinstance(reference, str) and reference == "best":
            if np.isnan(values).all():
                raise ValueError(f"{metric!r} is undefined in every group: there is no best group.")
            ranked = worst_order(values, m.higher_is_better)
            ref_index = int(ranked[~np.isnan(values[ranked])][-1])
            ref_name, ref_value = f"best ({self.keys.display[ref_index]})", float(values[ref_index])
        else:
            ref_index = self._position(reference)
            ref_name, ref_value = self.keys.display[ref_index], float(values[ref_index])
        sizes = self.keys.sizes.astype(np.int64)
        order = self._order()
        starts = self.keys.starts()
        if ref_index is None:  # the overall: each case's influence on it, in the overall's row order
            v_all = m.influences(self.overall)[order]
            v_sums = np.stack([np.add.reduceat(v_all, starts[:-1]) if v_all.size else np.zeros(G),
                               np.add.reduceat(v_all * v_all, starts[:-1]) if v_all.size else np.zeros(G)], axis=1)
            v_sums[sizes == 0] = 0.0
        else:
            v_ref = m.influences(evs[ref_index])
            v_sums = np.zeros((G, 2))
            v_sums[ref_index] = v_ref.sum(), float(np.dot(v_ref, v_ref))
        def own_interval(e: Any, value: float) -> Any:
            """An evaluation's own interval of the metric (for the MOVER limits), or None."""
            if not np.isfinite(value):
                return None
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    return m.interval(e, level)
            except ValueError:
                return None

        ref_own = own_interval(self.overall if ref_index is None else evs[ref_index], ref_value)
        no_interval: list[str] = []
        diff = np.full((G, 4), np.nan)
        ratio = np.full((G, 4), np.nan)
        pvalue = np.full(G, np.nan)
        for g in range(G):
            if g == ref_index:
                continue
            u = m.influences(evs[g])
            inside = v_all[starts[g]:starts[g + 1]] if ref_index is None else np.zeros_like(u)
            mine = own_interval(evs[g], values[g])
            if np.isfinite(values[g]) and not _bounded(mine) or np.isfinite(ref_value) and not _bounded(ref_own):
                no_interval.append(self.keys.display[g] if _bounded(ref_own) else ref_name)
                diff[g, 0], ratio[g, 0] = values[g] - ref_value, values[g] / ref_value if ref_value else np.nan
                continue
            est = gap_estimate(values[g], ref_value, u, inside, v_sums, g, sizes, level=level, sampling=sampling,
                               bounds=m.bounds, own=(mine, ref_own))
            d, r = est.difference, est.ratio
            diff[g] = d.estimate, d.low, d.high, d.standard_error
            ratio[g] = r.estimate, r.low, r.high, r.standard_error
            pvalue[g] = est.pvalue
        keep = np.arange(G)
        omitted = 0
        if G > max_groups:
            keep = np.sort(worst_order(values, m.higher_is_better)[:max_groups])
            omitted = G - max_groups
        notes = []
        if no_interval:
            notes.append(f"no interval where a number's own interval is undefined (too few cases of a class, "
                         f"e.g. one positive for an AUC): {', '.join(dict.fromkeys(no_interval))}.")
        if isinstance(reference, str) and reference == "best":
            notes.append("the best group was chosen from the same data: its gaps are larger than a "
                         "pre-chosen reference's would be, and the intervals do not account for the choice.")
        return GapTable(
            metric=metric, reference=ref_name, reference_value=float(ref_value),
            groups=[self.keys.display[g] for g in keep], keys=[self.keys.keys[g] for g in keep],
            n=sizes[keep], values=values[keep], difference=diff[keep], ratio=ratio[keep], pvalue=pvalue[keep],
            pvalue_holm=holm_adjusted(pvalue)[keep], level=level, sampling=sampling,
            method=("MOVER limits from each number's own interval; correlation and standard error by the delta "
                    "method on each case's influence; Holm over groups"),
            higher_is_better=m.higher_is_better, notes=notes, omitted=omitted,
            reference_group=None if ref_index is None else self.keys.display[ref_index],
        )

    def fairness(self, level: float = 0.95, *, method: str = "simultaneous", n_resamples: int = 1000,
                 seed: Any = 0, sampling: str = "cross-sectional") -> FairnessSummary:
        """fairlearn's summaries of a binary task across groups (the positive class's selection rate,
        TPR and FPR per group; max - min and min / max; groups where a rate is undefined are left
        out), each with an interval at ``level``: ``method="simultaneous"`` (the default; limits from
        simultaneous Wilson intervals of the groups' rates, valid when the groups are equal too:
        :func:`clfeval.uncertainty.group_gaps.spread_limits`) or ``"bootstrap"`` (percentile intervals
        of ``n_resamples`` replicates of the groups' count cells, ``sampling`` as in :meth:`gaps`; they
        miss 0 when the groups' rates are equal, and are widened to the simultaneous limits where a
        group has fewer than 20 cases of a class). Weighted rows get no interval.

        >>> import clfeval
        >>> ev = clfeval.evaluate([0, 1, 1, 0, 1, 0], [0, 1, 1, 1, 0, 0], groups=list("aaabbb"))
        >>> round(ev.by_group.fairness()["demographic_parity_difference"], 4)
        0.3333
        """
        ov = self.overall
        if ov.task != "binary":
            raise ValueError("the fairness summaries (demographic parity, equalized odds, equal opportunity) "
                             "are defined for a binary task; compare groups with gaps() instead.")
        if sampling not in GROUP_SAMPLING:
            raise ValueError(f"sampling must be one of {GROUP_SAMPLING}, got {sampling!r}.")
        if method not in ("simultaneous", "bootstrap"):
            raise ValueError(f"method must be 'simultaneous' or 'bootstrap', got {method!r}.")
        pos = ov.positive_index
        tables = np.stack([np.asarray(e.confusion.counts) for e in self._evaluations])
        rates = _fairness_rates(tables, pos)
        entries = {name: {"value": value, "low": float("nan"), "high": float("nan"),
                          "definition": FAIRNESS_DEFINITIONS[name]} for name, value in _summaries(rates).items()}
        notes: list[str] = []
        if tables.dtype.kind not in "iu":
            notes.append("sample weights: the summaries have no interval (their limits count cases, which "
                         "weighted cells do not).")
            label = "none (weighted rows)"
        elif method == "simultaneous":
            _simultaneous_limits(entries, tables, pos, level)
            label = ("simultaneous Wilson intervals of every group's rate (Bonferroni over the groups): valid "
                     "when the groups are equal too, conservative")
        else:
            reps = resampled_group_tables(tables, n_resamples, seed, sampling)
            a = (1 - level) / 2
            for name, values in _summaries(_fairness_rates(reps, pos)).items():
                v = np.asarray(values, dtype=np.float64)
                v = v[np.isfinite(v)]
                if v.size:
                    entries[name]["low"], entries[name]["high"] = (float(x) for x in np.quantile(v, [a, 1 - a]))
            label = f"percentile bootstrap, {n_resamples} replicates of the groups' count cells ({sampling})"
            if (tables.sum(axis=2) < SMALL_CLASS_CASES).any():  # the percentile limits of max - min fail there
                _simultaneous_limits(simultaneous := {k: dict(v) for k, v in entries.items()}, tables, pos, level)
                for name, entry in entries.items():
                    entry["low"] = float(np.fmin(entry["low"], simultaneous[name]["low"]))
                    entry["high"] = float(np.fmax(entry["high"], simultaneous[name]["high"]))
                label += ", widened to the simultaneous Wilson limits"
                notes.append(f"a group has fewer than {SMALL_CLASS_CASES} cases of a class: the bootstrap limits "
                             "are widened to the simultaneous Wilson limits (percentile limits of max - min "
                             "covered 74-86% there in benchmarks/group_coverage.py).")
            notes.append("max - min across groups is biased upwards when the groups' true rates are equal; "
                         "a bootstrap interval then excludes 0 nearly always (method='simultaneous' does not).")
        return FairnessSummary(entries=entries, rates={k: v for k, v in rates.items()}, groups=self.names,
                               level=level, method=label, notes=notes)

    def to_dict(self, metrics: Any = None, ci: float | None = None, *, method: str = "analytic",
                gap_metrics: Any = None) -> dict[str, Any]:
        """The table (intervals at level ``ci`` by ``method``, as :meth:`table`), the gaps to the
        overall of ``gap_metrics`` (default: the table's first metric, and ROC AUC with scores) and,
        for a binary task, the fairness summaries, as plain Python."""
        table = self.table(metrics, ci, method=method)
        level = 0.95 if ci is None else ci
        if gap_metrics is None:
            gap_metrics = [table.metrics[0]] + (["roc_auc"] if self.overall.rankings is not None
                                                and "roc_auc" != table.metrics[0] else [])
        out: dict[str, Any] = {"columns": list(self.keys.columns), "n_groups": len(self), "table": table.to_dict()}
        out["gaps"] = {}
        for metric in gap_metrics:
            try:
                out["gaps"][metric] = self.gaps(metric, level=level).to_dict()
            except ValueError as exc:
                out["gaps"][metric] = {"error": str(exc)}
        if self.overall.task == "binary":
            out["fairness"] = self.fairness(level).to_dict()
        return out


def _bounded(ci: Any) -> bool:
    """Whether an interval has finite limits."""
    return ci is not None and ci.low is not None and ci.high is not None and bool(np.isfinite([ci.low, ci.high]).all())


def sorted_rows(keys: GroupKeys) -> np.ndarray:
    """Row indices sorted by group, stably (a radix sort when the codes fit 16 bits)."""
    codes = keys.codes
    if keys.n_groups <= np.iinfo(np.uint16).max:
        codes = codes.astype(np.uint16)
    return np.argsort(codes, kind="stable")


def _fairness_rates(tables: np.ndarray, pos: int) -> dict[str, np.ndarray]:
    """Selection rate, TPR and FPR of the positive class per group, of (..., G, 2, 2) tables."""
    t = tables.astype(np.float64)
    neg = 1 - pos
    tp, fp, fn, tn = t[..., pos, pos], t[..., neg, pos], t[..., pos, neg], t[..., neg, neg]
    with np.errstate(invalid="ignore", divide="ignore"):
        return {"selection_rate": fm.ratio(tp + fp, tp + fp + fn + tn), "tpr": fm.recall(tp, fn),
                "fpr": fm.fallout(fp, tn)}


def _summaries(rates: dict[str, np.ndarray]) -> dict[str, Any]:
    """fairlearn's six summaries of the per-group rates (over the last axis, NaN groups left out)."""
    def spread(v: np.ndarray) -> tuple[Any, Any]:
        with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN replicates stay NaN
            hi, lo = np.nanmax(v, axis=-1), np.nanmin(v, axis=-1)
            return hi - lo, np.where(hi > 0, lo / np.where(hi > 0, hi, 1.0), np.where(hi == 0, 1.0, np.nan))

    sr, tpr, fpr = (spread(rates[k]) for k in ("selection_rate", "tpr", "fpr"))
    out = {
        "demographic_parity_difference": sr[0], "demographic_parity_ratio": sr[1],
        "equalized_odds_difference": np.fmax(tpr[0], fpr[0]) if np.ndim(tpr[0]) else max(tpr[0], fpr[0]),
        "equalized_odds_ratio": np.fmin(tpr[1], fpr[1]) if np.ndim(tpr[1]) else min(tpr[1], fpr[1]),
        "equal_opportunity_difference": tpr[0], "equal_opportunity_ratio": tpr[1],
    }
    return {k: float(v) if np.ndim(v) == 0 else v for k, v in out.items()}


def _simultaneous_limits(entries: dict[str, dict[str, Any]], tables: np.ndarray, pos: int, level: float) -> None:
    """The fairness summaries' limits from simultaneous Wilson intervals (spread_limits), in place."""
    neg = 1 - pos
    tp, fp, fn, tn = tables[:, pos, pos], tables[:, neg, pos], tables[:, pos, neg], tables[:, neg, neg]
    sr = spread_limits(tp + fp, tp + fp + fn + tn, level)
    both = int(((tp + fn) > 0).sum() + ((fp + tn) > 0).sum())  # equalized odds: TPR and FPR together
    tpr, fpr = spread_limits(tp, tp + fn, level, both), spread_limits(fp, fp + tn, level, both)
    tpr_alone = spread_limits(tp, tp + fn, level)
    limits = {
        "demographic_parity_difference": sr[:2], "demographic_parity_ratio": sr[2:],
        "equalized_odds_difference": (max(tpr[0], fpr[0]), max(tpr[1], fpr[1])),
        "equalized_odds_ratio": (min(tpr[2], fpr[2]), min(tpr[3], fpr[3])),
        "equal_opportunity_difference": tpr_alone[:2], "equal_opportunity_ratio": tpr_alone[2:],
    }
    for name, (low, high) in limits.items():
        entries[name]["low"], entries[name]["high"] = float(low), float(high)


def _undefined_notes(chosen: list[GroupMetric], values: np.ndarray, ev: Any) -> list[str]:
    notes = []
    for m, v in zip(chosen, values):
        if np.isnan(v):
            why = m.measure.undefined_because or "undefined on these rows"
            where = f" of class {ev.names[m.class_index]!r}" if m.scope == "class" else ""
            notes.append(f"{m.key}: undefined ({why}{where} in this group)")
    return notes


def evaluate_groups(overall: Any, keys: GroupKeys, rows: Callable[[np.ndarray, str], Any]) -> GroupEvaluations:
    """The :class:`GroupEvaluations` of ``overall`` split by ``keys``: ``rows(indices, name)`` evaluates
    the rows at ``indices`` with the overall's options (the caller binds the data)."""
    if keys.n_groups > MAX_GROUPS:
        warnings.warn(f"{keys.n_groups:,} groups: every group is evaluated, but tables show the "
                      f"{MAX_GROUPS:,} worst and say how many were left out.", UserWarning, stacklevel=3)
    order = sorted_rows(keys)
    starts = keys.starts()
    evaluations = [rows(order[starts[j]:starts[j + 1]], keys.display[j]) for j in range(keys.n_groups)]
    out = GroupEvaluations(overall, keys, evaluations)
    out._cache["order"] = order
    return out


def with_groups(ev: Any, make: Callable[..., Any], groups: Any, missing: str, y_true: Any, y_pred: Any, y_score: Any,
                options: EvaluateOptions) -> Any:
    """The Evaluation ``ev`` of all rows with its ``by_group`` added: each group's rows evaluated
    with ``ev``'s label set, positive class and threshold (``make``: the Evaluation class)."""
    keys = group_keys(groups, ev.n_samples, missing=missing)
    if ev.sample_weight is not None:
        totals = np.bincount(keys.codes, weights=ev.sample_weight != 0, minlength=keys.n_groups)
        if (totals == 0).any():
            j = int(np.flatnonzero(totals == 0)[0])
            raise ValuesError(
                f"group {keys.display[j]!r} has sample weights that are all zero ({int(keys.sizes[j])} rows): it "
                "has nothing to evaluate; drop its rows or give them weight.",
                argument="groups", kind="zero-weight-group", value=keys.keys[j], count=int(keys.sizes[j]))
    yt, yp = as_array(y_true, "y_true"), None if y_pred is None else as_array(y_pred, "y_pred")
    s, w = None if y_score is None else as_score_array(y_score, "y_score"), ev.sample_weight
    fixed = replace(options, labels=ev.labels, pos_label=ev.pos_label,
                    threshold=None if y_pred is not None else ev.threshold)

    def rows(idx: np.ndarray, display: str) -> Any:
        name = display if options.name is None else f"{options.name}: {display}"
        return make(**evaluation_fields(yt[idx], None if yp is None else yp[idx], None if s is None else s[idx],
                                        sample_weight=None if w is None else w[idx], options=replace(fixed, name=name)))

    return replace(ev, by_group=evaluate_groups(ev, keys, rows))
