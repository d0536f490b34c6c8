"""The models an HTML report shows, read from what the caller passes: Evaluations, their
``to_dict()`` dicts (e.g. a loaded ``to_json`` file) or CrossEvaluations (shown by their pooled
Evaluation), with the pointwise curve bands asked for.

>>> import clfeval
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="demo")
>>> [(m.key, m.name, m.task) for m in page_models([ev, ev.to_dict()])]
[('m0', 'demo', 'binary'), ('m1', 'demo (2)', 'binary')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Real
from typing import Any

from clfeval.report.html_assets import MODEL_COLORS
from clfeval.report.html_format import as_number

__all__ = ["Model", "bands_dict", "groups_dict", "GROUP_LEVEL", "is_cross_evaluation", "evaluation_list",
           "page_models"]

#: The level of the intervals of the "By group" section when the page is made from an Evaluation
GROUP_LEVEL = 0.95


@dataclass
class Model:
    """One model of the page: its place (``index``, ``key``), its unique display name, its
    ``Evaluation.to_dict()`` and its colour, with readers of the parts the page draws.

    >>> m = Model(0, "A", {"task": "binary", "names": [0, 1], "roc": {"1": {}}}, "#000000")
    >>> m.key, m.names, m.main_curve("roc"), m.main_curve("pr")
    ('m0', ['0', '1'], '1', None)
    """

    index: int
    name: str
    data: dict[str, Any]
    color: str
    #: set when the model is the pooled Evaluation of a cross-evaluation: how it was pooled
    pooled_from: str | None = None

    @property
    def key(self) -> str:
        return f"m{self.index}"

    @property
    def task(self) -> str:
        return str(self.data.get("task"))

    @property
    def names(self) -> list[str]:
        return [str(n) for n in self.data.get("names") or []]

    @property
    def report(self) -> dict[str, Any]:
        return self.data["report"]

    def curves(self, kind: str) -> dict[str, dict[str, Any]]:
        return dict(self.data.get(kind) or {})

    def bands(self, kind: str) -> dict[str, dict[str, Any]]:
        """Curve name -> pointwise band (a ``CurveBand.to_dict()``), of the curves that have one."""
        return dict((self.data.get("bands") or {}).get(kind) or {})

    def main_curve(self, kind: str) -> str | None:
        curves = self.curves(kind)
        if not curves:
            return None
        main = self.data.get("main_curve")
        if main in curves:
            return str(main)
        if len(curves) == 1:
            return next(iter(curves))
        return "micro" if "micro" in curves else next(iter(curves))

    def class_index(self, kind: str, curve: str) -> int | None:
        """Index of the class a curve belongs to; None for the micro and macro averages."""
        keys = list(self.curves(kind))
        if self.task == "binary":
            return self.names.index(curve) if curve in self.names else None
        i = keys.index(curve)
        return i if i < len(self.names) else None

    def prevalence(self, kind: str, curve: str) -> float | None:
        """Share of positives of a curve's class (micro: of all class/sample pairs)."""
        pc = (self.data.get("confusion") or {}).get("per_class") or {}
        try:
            tp, fn, fp, tn = ([as_number(v) or 0.0 for v in pc[k]] for k in ("tp", "fn", "fp", "tn"))
        except KeyError:
            return None
        i = self.class_index(kind, curve)
        if i is not None:
            pos, total = tp[i] + fn[i], tp[i] + fn[i] + fp[i] + tn[i]
        elif curve == "micro":
            pos, total = sum(tp) + sum(fn), sum(tp) + sum(fn) + sum(fp) + sum(tn)
        else:
            return None
        return pos / total if total > 0 else None


def _as_dict(evaluation: Any, bands: float | None = None, group_level: float = GROUP_LEVEL,
             group_metric: str | None = None) -> dict[str, Any]:
    if isinstance(evaluation, Mapping):
        data = dict(evaluation)
        if group_metric is not None and isinstance(data.get("groups"), Mapping):
            data["groups"] = {**data["groups"], "main_metric": group_metric}
    elif callable(getattr(evaluation, "to_dict", None)):
        data = evaluation.to_dict()
        if bands is not None and getattr(evaluation, "has_scores", False):
            data["bands"] = bands_dict(evaluation, bands)
        if getattr(evaluation, "by_group", None) is not None:
            data["groups"] = groups_dict(evaluation, group_level, group_metric, base=data.get("groups"))
    else:
        raise TypeError(
            f"expected an Evaluation (from clfeval.evaluate) or its to_dict(), got {type(evaluation).__name__}."
        )
    missing = [k for k in ("task", "names", "report", "confusion") if k not in data]
    if missing:
        raise ValueError(f"not an Evaluation.to_dict(): the keys {missing} are missing.")
    _check_bands(data.get("bands"))
    return data


def _check_bands(bands: Any) -> None:
    """A ValueError that names the curve when a "bands" entry is not in :func:`bands_dict`'s form."""
    if bands is None:
        return
    if not isinstance(bands, Mapping) or set(bands) - {"roc", "pr"}:
        raise ValueError('"bands" must be a dict {"roc": {curve: band}, "pr": {curve: band}} (see bands_dict).')
    for kind, per_curve in bands.items():
        for curve, band in (per_curve or {}).items():
            sizes = {len(band.get(k) or []) for k in ("x", "low", "high")} if isinstance(band, Mapping) else set()
            if len(sizes) != 1 or 0 in sizes:
                raise ValueError(f'bands["{kind}"]["{curve}"] must be a CurveBand.to_dict(): "x", "low" and '
                                 '"high" lists of the same, non-zero length.')


def bands_dict(evaluation: Any, level: float = 0.95, *, n_resamples: int = 2000, seed: Any = 0) -> dict[str, Any]:
    """Pointwise bootstrap bands of the main ROC and PR curves of an Evaluation, in the form the
    page reads from a dict's "bands" entry: ``{"roc": {curve: CurveBand.to_dict()}, "pr": ...}``.

    Only the main curve (binary: the positive class; otherwise "micro") gets a band: each costs
    a bootstrap (about 0.1 to 1 s at 2000 resamples), a page would need two per class, and a
    dozen overlapping shaded areas hide the curves they are meant to qualify. For a class's
    band, add ``ev.band(kind, class_name).to_dict()`` under its curve name.

    Parameters
    ----------
    evaluation : Evaluation
        An Evaluation made with scores (``y_score``), whose main ROC and PR curves are resampled.
    level : float, default 0.95
        The pointwise confidence level of the bands, strictly between 0 and 1.
    n_resamples : int, default 2000
        How many bootstrap resamples each band is computed from: fewer is faster, and rougher.
    seed : int, numpy.random.Generator or None, default 0
        The seed of the resampling. The default 0 gives the same bands on every run; None gives
        fresh ones each time.

    Returns
    -------
    dict
        ``{"roc": {name: band}, "pr": {name: band}}``, with ``name`` the main curve's name and
        ``band`` a ``CurveBand.to_dict()``: its "kind", the grid "x", and "estimate", "low" and
        "high" at each grid point, with the "level" and the "method".

    Raises
    ------
    ValueError
        If the evaluation has no scores, or ``level`` is not strictly between 0 and 1.

    Examples
    --------
    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 1, 1, 0, 1, 0], y_score=[.2, .9, .6, .4, .3, .5])
    >>> b = bands_dict(ev, 0.9, n_resamples=200)
    >>> list(b["roc"]), b["pr"]["1"]["level"]
    (['1'], 0.9)

    The ROC band's grid is the false positive rates 0, 0.01, ..., 1. Ranked by score, the cases
    are positive, positive, negative, negative, positive, negative, so at a false positive rate
    of 0.5 the curve is at a true positive rate of 2/3, inside its band:

    >>> roc = b["roc"]["1"]
    >>> i = roc["x"].index(0.5)
    >>> round(roc["estimate"][i], 4), roc["low"][i] <= roc["estimate"][i] <= roc["high"][i]
    (0.6667, True)

    A dict with this "bands" entry has them drawn, each band one legend entry:

    >>> from clfeval.report.html import figures
    >>> roc_chart = figures({**ev.to_dict(), "bands": b})[1]
    >>> [trace["name"] for trace in roc_chart["data"] if "band" in trace["name"]]
    ['1: 90% pointwise band (lower edge)', '1: 90% pointwise band']
    """
    level = _bands_level(level)
    if evaluation.roc is None:
        raise ValueError("this evaluation has no scores, so it has no curves to band: pass y_score to evaluate().")
    out: dict[str, Any] = {}
    for kind in ("roc", "pr"):
        name = getattr(evaluation, kind).main_name
        band = evaluation.band(kind, name, level=level, n_resamples=n_resamples, seed=seed)
        out[kind] = {name: band.to_dict()}
    return out


def _bands_level(bands: Any, name: str = "bands") -> float:
    if isinstance(bands, bool) or not isinstance(bands, Real) or not 0.0 < float(bands) < 1.0:
        raise ValueError(f"{name} must be a confidence level strictly between 0 and 1 (e.g. 0.95)"
                         f"{' or None' if name == 'bands' else ''}, got {bands!r}.")
    return float(bands)


def groups_dict(evaluation: Any, level: float = GROUP_LEVEL, metric: str | None = None, *,
                base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The "By group" entry the page reads, of an Evaluation made with ``groups=``: its
    ``by_group.to_dict()`` (``base``, if the caller has it already), whose table is replaced by one
    with each group's intervals at ``level`` for the groups the page shows (the
    :data:`~clfeval.plot.group_labels.MAX_SHOWN_GROUPS` worst by the section's metric; ``omitted`` counts
    the others), with the gaps of that metric and of the table's first metric, and
    ``"main_metric"``: the metric the section leads with (``metric``, else
    :func:`clfeval.plot.group_labels.default_group_metric`: ROC AUC with scores, else balanced accuracy).

    A dict given to the page instead (``Evaluation.to_dict()``, whose "groups" entry has intervals
    only with ``ci_level``) is shown as it is.

    Parameters
    ----------
    evaluation : Evaluation
        An Evaluation made with ``groups=``; its ``by_group`` is read.
    level : float, default 0.95
        The confidence level, strictly between 0 and 1, of each group's intervals, of the gaps
        and of the fairness summaries.
    metric : str, optional
        The metric the section leads with, by its key in the group tables (e.g. "accuracy" or
        "recall.macro"); it joins the table's metrics when it is not among them. Default None:
        ROC AUC with scores, else balanced accuracy.
    base : Mapping, optional
        The evaluation's ``by_group.to_dict()``, when the caller has it already (e.g. the "groups"
        entry of ``Evaluation.to_dict()``), so that it is not computed again. Default None:
        computed here.

    Returns
    -------
    dict
        The entries of ``by_group.to_dict()`` ("columns", "n_groups", "table", "gaps" and, for a
        binary task, "fairness"), with "table" holding the intervals at ``level`` of the groups
        shown and, under "omitted", how many groups were left out; "gaps" holding, for each metric,
        every group's difference to the overall value (or ``{"error": why}`` where there are
        none); and "main_metric".

    Raises
    ------
    ValueError
        If ``level`` is not strictly between 0 and 1.

    Examples
    --------
    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 1, 1, 0, 1, 0], y_score=[.2, .9, .6, .4, .3, .5], groups=list("aabbcc"))
    >>> d = groups_dict(ev)
    >>> d["main_metric"], d["table"]["level"], d["table"]["metrics"][:2], sorted(d["gaps"])
    ('roc_auc', 0.95, ['roc_auc', 'accuracy'], ['accuracy', 'roc_auc'])

    Led by accuracy instead, with 90% intervals. At the threshold 0.5, group "c" (true classes
    1 and 0, scores 0.3 and 0.5) gets both its cases wrong and the other groups all theirs
    right, so its gap to the overall accuracy of 4/6 is -2/3:

    >>> d = groups_dict(ev, 0.9, "accuracy")
    >>> d["main_metric"], d["table"]["level"]
    ('accuracy', 0.9)
    >>> {row["group"]: row["accuracy"] for row in d["table"]["rows"]}
    {'a': 1.0, 'b': 1.0, 'c': 0.0}
    >>> gap = d["gaps"]["accuracy"]["rows"][2]
    >>> gap["group"], round(gap["difference"], 4)
    ('c', -0.6667)
    """
    from clfeval.evaluation.group_metrics import default_metrics
    from clfeval.plot.group_labels import MAX_SHOWN_GROUPS, default_group_metric

    level = _bands_level(level, "the groups' interval level")
    by_group = evaluation.by_group
    metrics = default_metrics(evaluation)
    if metric is not None and metric not in metrics:
        metrics.append(metric)
    main = default_group_metric(metrics) if metric is None else metric
    out = dict(by_group.to_dict() if base is None else base)
    # intervals for the shown groups only: by_group.table keeps the worst by its first metric
    ordered = [main] + [k for k in metrics if k != main]
    out["table"] = by_group.table(ordered, level, max_groups=MAX_SHOWN_GROUPS).to_dict()
    gaps = dict(out.get("gaps") or {})
    for name in dict.fromkeys([main, metrics[0], *gaps]):
        have = gaps.get(name)
        if have is None or ("error" not in have and have.get("level") != level):
            try:
                gaps[name] = by_group.gaps(name, level=level).to_dict()
            except ValueError as exc:  # a stream, a multilabel task: no gaps, and why
                gaps[name] = {"error": str(exc)}
    out["gaps"] = gaps
    if isinstance(out.get("fairness"), Mapping) and out["fairness"].get("level") != level:
        out["fairness"] = by_group.fairness(level).to_dict()
    out["main_metric"] = main
    return out


#: What only a :class:`~clfeval.cross_evaluation.CrossEvaluation` has, looked up on its class (so
#: that the pooled Evaluation, computed on first use, is not computed by the check)
CROSS_EVALUATION_MEMBERS = ("pooled", "pooled_by_repeat", "pooling", "mean_curve")


def is_cross_evaluation(obj: Any) -> bool:
    """Whether ``obj`` is a CrossEvaluation (from ``cross_evaluate``): it has folds, and its class the
    pooled Evaluations and the mean curves. Read from the object's attributes, so that the report
    needs no import of :mod:`clfeval.cross_evaluation`.

    >>> import clfeval, types
    >>> is_cross_evaluation(clfeval.evaluate([0, 1], [0, 1])), is_cross_evaluation(types.SimpleNamespace(folds=[]))
    (False, False)
    """
    if not hasattr(obj, "folds"):
        return False
    return all(hasattr(type(obj), name) for name in CROSS_EVALUATION_MEMBERS)


def evaluation_list(evaluations: Any) -> list[Any]:
    """The evaluations passed to a page as a list: one Evaluation (or dict) becomes a list of one.

    >>> evaluation_list({"task": "binary"}), evaluation_list(({"a": 1}, {"b": 2}))
    ([{'task': 'binary'}], [{'a': 1}, {'b': 2}])
    """
    if isinstance(evaluations, Mapping) or callable(getattr(evaluations, "to_dict", None)):
        return [evaluations]
    return list(evaluations)


def page_models(evaluations: Any, bands: float | None = None, *, group_level: float = GROUP_LEVEL,
                group_metric: str | None = None) -> list[Model]:
    """One :class:`Model` per evaluation, with names made unique and a colour each; a
    CrossEvaluation stands for its pooled Evaluation. ``bands``, ``group_level`` and
    ``group_metric``: as in :func:`~clfeval.report.html.write_html`. (Example: the module docstring.)"""
    if bands is not None:
        bands = _bands_level(bands)
    group_level = _bands_level(group_level, "group_level")
    items = evaluation_list(evaluations)
    if not items:
        raise ValueError("write_html needs at least one Evaluation, got none.")
    pooling = [e.pooling if is_cross_evaluation(e) else None for e in items]
    items = [e.pooled if is_cross_evaluation(e) else e for e in items]
    datas = [_as_dict(e, bands, group_level, group_metric) for e in items]
    multi = len(datas) > 1
    names: list[str] = []
    for i, d in enumerate(datas):
        base = str(d["name"]) if d.get("name") not in (None, "") else (f"model {i + 1}" if multi else "model")
        name, n = base, 2
        while name in names:
            name, n = f"{base} ({n})", n + 1
        names.append(name)
    return [Model(i, nm, d, MODEL_COLORS[i % len(MODEL_COLORS)], pooling[i])
            for i, (nm, d) in enumerate(zip(names, datas))]
