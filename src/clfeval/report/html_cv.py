"""The cross-validation section of the HTML report, for a CrossEvaluation: its settings, the
per-fold table with the mean, sd, interval and pooled value of each metric, each fold's ROC and PR
curve with their vertical mean and its band, and the metrics across folds.

Everything is read from :func:`cross_validation_dict`.

>>> from sklearn.datasets import load_iris
>>> from sklearn.naive_bayes import GaussianNB
>>> from clfeval.cross_evaluation import cross_evaluate
>>> X, y = load_iris(return_X_y=True)
>>> d = cross_validation_dict(cross_evaluate(GaussianNB(), X, y, progress=False))
>>> [f["id"] for f in cv_figures(d, 1)]
['cv1-roc', 'cv1-pr', 'cv1-metrics']
"""

from __future__ import annotations

import math
from typing import Any

from clfeval.report.html_assets import MODEL_COLORS
from clfeval.report.html_charts import AXIS, PLOT_CONFIG, base_layout, chart_div, rgba, unit_square_layout
from clfeval.report.html_format import DASH, as_number, esc, finite_number, fmt, plot_values, ptext
from clfeval.report.html_model import Model, evaluation_list, is_cross_evaluation
from clfeval.report.html_tables import value_cell

__all__ = ["CV_LEVEL", "cross_validation_dict", "cv_figures", "cv_section", "cv_datas"]


#: level of the intervals and bands of the cross-validation section
CV_LEVEL = 0.95


_CV_AREA = {"roc": "AUC", "pr": "AP"}


def cross_validation_dict(cv: Any, level: float = CV_LEVEL, *, max_points: int = 2000) -> dict[str, Any]:
    """What the cross-validation section of the page shows, as plain Python (JSON-ready after
    ``plot_values``): settings, the per-fold table (``cv.table()``), the summary (``cv.summary(level)``)
    and, with scores, each fold's exact ROC and PR curve (at most ``max_points`` points) and
    their vertical mean with its corrected band (``cv.mean_curve(kind, band="corrected")``).

    Parameters
    ----------
    cv : CrossEvaluation
        The result of ``cross_evaluate``.
    level : float, default 0.95
        The confidence level of the summary's intervals and of the mean curves' bands.
    max_points : int, default 2000
        The most points kept of each fold's ROC and PR curve, at least 8; longer curves are
        thinned to exact points of theirs, evenly spread (the areas stay exact).

    Returns
    -------
    dict
        The settings ("name", "protocol", "protocol_repr", "response", "binary", "n_folds",
        "n_failed", "n_repeats", "n_samples", "test_train_ratio", "pooling", "notes", "times"),
        "metrics", the per-fold "table" (one list per column), the "summary" (a
        ``summary(level).to_dict()``), the "mean_curves" and "fold_curves" of each kind ("roc",
        "pr"; both empty without scores) and "prevalence", the chance level of the PR chart
        (None without scores).

    Raises
    ------
    TypeError
        If ``cv`` is not a CrossEvaluation.
    ValueError
        If ``max_points`` is below 8 (with scores).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from clfeval.cross_evaluation import cross_evaluate
    >>> X, y = load_iris(return_X_y=True)
    >>> d = cross_validation_dict(cross_evaluate(GaussianNB(), X, y, progress=False))
    >>> d["protocol"], d["response"], len(d["table"]["fold"]), d["mean_curves"]["roc"]["curve"]
    ('stratified 5-fold CV', 'predict_proba', 5, 'micro')

    With 90% intervals and at most 10 points per fold curve. The 150 cases make 5 test folds of
    30; the summary's mean accuracy is the mean of the folds' accuracies:

    >>> d = cross_validation_dict(cross_evaluate(GaussianNB(), X, y, progress=False), 0.9, max_points=10)
    >>> accuracy = d["table"]["accuracy"]
    >>> d["table"]["n_test"], [round(a * 30) for a in accuracy]  # correct test cases per fold
    ([30, 30, 30, 30, 30], [28, 29, 28, 28, 30])
    >>> row = d["summary"]["rows"][0]
    >>> row["metric"], round(row["mean"], 4), round(sum(accuracy) / 5, 4), d["summary"]["level"]
    ('accuracy', 0.9533, 0.9533, 0.9)
    >>> max(len(fold["x"]) for fold in d["fold_curves"]["roc"]) <= 10
    True
    """
    if not is_cross_evaluation(cv):
        raise TypeError(f"expected a CrossEvaluation (from cross_evaluate), got {type(cv).__name__}.")
    table = cv.table()
    fixed = {"fold", "repeat", "n_train", "n_test", "fit_time", "predict_time", "evaluation_time", "error"}
    metrics = [k for k in table if k not in fixed]
    summary = cv.summary(level, metrics)
    out: dict[str, Any] = {
        "name": str(cv.name), "protocol": cv.protocol_name, "protocol_repr": repr(cv.protocol),
        "response": cv.response, "binary": len(cv.labels) == 2, "n_folds": len(cv.folds), "n_failed": len(cv.failed), "n_repeats": cv.n_repeats,
        "n_samples": cv.n_samples, "test_train_ratio": cv.test_train_ratio, "pooling": cv.pooling,
        "notes": list(cv.notes), "times": cv.times, "metrics": metrics, "table": table,
        "summary": summary.to_dict(), "mean_curves": {}, "fold_curves": {}, "prevalence": None,
    }
    if cv.response == "predict" or not cv.evaluations:
        return out
    for kind in ("roc", "pr"):
        try:
            mean = cv.mean_curve(kind, band="corrected", level=level)
        except ValueError as exc:  # every fold's curve undefined
            out["notes"].append(f"no mean {kind.upper()} curve: {exc}")
            continue
        out["mean_curves"][kind] = {**mean.to_dict(), "area_mean": mean.area_mean, "area_std": mean.area_std,
                                    "method": mean.band}
        folds = []
        for f in cv.folds:
            if f.evaluation is None:
                continue
            c = f.evaluation.compact_curves(kind, max_points)[mean.curve]
            if math.isfinite(c.area):
                folds.append({"fold": f.index, "repeat": f.repeat, "x": c.x.tolist(), "y": c.y.tolist(),
                              "area": float(c.area)})
        out["fold_curves"][kind] = folds
        if kind == "pr":
            pooled = cv.pooled.to_dict()
            m = Model(0, "", pooled, "")
            out["prevalence"] = m.prevalence("pr", mean.curve)
    return out


def _cv_curve_figure(d: dict[str, Any], c: int, kind: str) -> dict[str, Any] | None:
    """Per-fold curves (thin), their vertical mean (bold) and its band, and the chance line."""
    mean = d["mean_curves"].get(kind)
    if mean is None:
        return None
    xs, ys, xtitle, ytitle = AXIS[kind]
    area = _CV_AREA[kind]
    color = MODEL_COLORS[0]
    stepped = kind == "pr"
    shape = "vh" if stepped else "linear"
    traces: list[dict[str, Any]] = []
    if kind == "roc":
        traces.append({"type": "scatter", "x": [0, 1], "y": [0, 1], "mode": "lines", "name": "chance",
                       "line": {"color": "#8c959f", "dash": "dash", "width": 1}, "hoverinfo": "skip"})
    elif d.get("prevalence") is not None:
        p = d["prevalence"]
        traces.append({"type": "scatter", "x": [0, 1], "y": [p, p], "mode": "lines",
                       "name": f"baseline (prevalence {p:.3f})",
                       "line": {"color": "#8c959f", "dash": "dash", "width": 1},
                       "hovertemplate": "baseline: precision of random guessing %{y:.4f}<extra></extra>"})
    folds = d["fold_curves"].get(kind) or []
    for i, f in enumerate(folds):
        rep = f" (repeat {f['repeat'] + 1})" if d["n_repeats"] > 1 else ""
        traces.append({
            "type": "scatter", "mode": "lines", "x": plot_values(f["x"]), "y": plot_values(f["y"]),
            "name": f"folds ({len(folds)} curves)", "legendgroup": "folds", "showlegend": i == 0,
            "opacity": 0.45, "line": {"color": color, "width": 1, "shape": shape},
            "hovertemplate": (f"fold {f['fold'] + 1}{rep}, {area} {f['area']:.4f}<br>{xs} %{{x:.4f}}<br>"
                              f"{ys} %{{y:.4f}}<extra></extra>"),
        })
    band_name = f"{mean['level'] * 100:.4g}% corrected band of the mean"
    edge = {"type": "scatter", "mode": "lines", "x": plot_values(mean["x"]), "legendgroup": "band",
            "line": {"color": color, "width": 0, "shape": shape}}
    traces.append({**edge, "y": plot_values(mean["low"]), "name": f"{band_name} (lower edge)", "showlegend": False,
                   "hoverinfo": "skip"})
    traces.append({**edge, "y": plot_values(mean["high"]), "name": band_name, "fill": "tonexty",
                   "fillcolor": rgba(color, 0.22), "customdata": plot_values(mean["low"]),
                   "hovertemplate": (f"{band_name}<br>{xs} %{{x:.4f}}<br>{ys} %{{customdata:.4f}} to %{{y:.4f}}"
                                     f"<extra>{ptext(mean['method'])}</extra>")})
    curve = str(mean["curve"])
    which = "" if d["binary"] else (f", {curve}-average" if curve in ("micro", "macro") else f", class {curve}")
    traces.append({
        "type": "scatter", "mode": "lines", "x": plot_values(mean["x"]), "y": plot_values(mean["mean"]),
        "name": f"mean{which} ({area} {fmt(mean['area_mean'], 3)} \u00b1 {fmt(mean['area_std'], 3)})",
        "line": {"color": color, "width": 3, "shape": shape},
        "hovertemplate": f"mean over folds<br>{xs} %{{x:.4f}}<br>{ys} %{{y:.4f}}<extra></extra>",
    })
    title = ("ROC curves" if kind == "roc" else "Precision-recall curves") + " across folds"
    layout = unit_square_layout(title, 560, xtitle, ytitle, top=64)
    return {"id": f"cv{c}-{kind}", "kind": "2d", "data": traces, "layout": layout}


def _cv_metrics_figure(d: dict[str, Any], c: int) -> dict[str, Any] | None:
    """Box and strip plot of each metric across folds, with the mean, its interval and the pooled value."""
    metrics = d["metrics"]
    if not metrics:
        return None
    rows = {r["metric"]: r for r in d["summary"]["rows"]}
    folds = [i + 1 for i in d["table"]["fold"]]
    traces: list[dict[str, Any]] = []
    for i, m in enumerate(metrics):
        traces.append({
            "type": "box", "x": [i] * len(folds), "y": plot_values(d["table"][m]), "name": ptext(m),
            "boxpoints": "all", "jitter": 0.5, "pointpos": 0, "width": 0.42, "showlegend": False,
            "fillcolor": rgba(MODEL_COLORS[0], 0.15), "line": {"color": "#59636e", "width": 1},
            "marker": {"color": MODEL_COLORS[0], "size": 6, "opacity": 0.85,
                       "line": {"color": "#ffffff", "width": 0.5}},
            "customdata": folds, "hovertemplate": f"{ptext(m)}<br>fold %{{customdata}}: %{{y:.4f}}<extra></extra>",
        })
    xs = [i + 0.36 for i in range(len(metrics))]
    mu = [finite_number(rows[m]["mean"]) for m in metrics]
    lo = [finite_number(rows[m]["low"]) for m in metrics]
    hi = [finite_number(rows[m]["high"]) for m in metrics]
    level = d["summary"]["level"]
    traces.append({
        "type": "scatter", "mode": "markers", "x": xs, "y": mu, "name": f"mean, {level * 100:.4g}% corrected interval",
        "marker": {"color": "#1f2328", "size": 7},
        "error_y": {"type": "data", "symmetric": False, "color": "#1f2328", "thickness": 1.5, "width": 4,
                    "array": [None if a is None or b is None else b - a for a, b in zip(mu, hi)],
                    "arrayminus": [None if a is None or b is None else a - b for a, b in zip(mu, lo)]},
        "customdata": [[fmt(a), fmt(b)] for a, b in zip(lo, hi)], "text": [ptext(m) for m in metrics],
        "hovertemplate": "%{text}<br>mean %{y:.4f}<br>interval %{customdata[0]} to %{customdata[1]}<extra></extra>",
    })
    traces.append({
        "type": "scatter", "mode": "markers", "x": xs, "y": [finite_number(rows[m]["pooled"]) for m in metrics],
        "name": "pooled (all out-of-fold predictions)", "text": [ptext(m) for m in metrics],
        "marker": {"symbol": "diamond-open", "color": "#c0392b", "size": 12, "line": {"width": 2}},
        "hovertemplate": "%{text}<br>pooled %{y:.4f}<extra></extra>",
    })
    layout = base_layout("Metrics across folds", 460)
    layout["xaxis"] = {"tickvals": list(range(len(metrics))), "ticktext": [ptext(m) for m in metrics],
                       "range": [-0.6, len(metrics) - 0.4], "zeroline": False, "showgrid": False,
                       "tickangle": -30 if len(metrics) > 6 else 0,
                       "linecolor": "#8c959f", "mirror": True, "automargin": True}
    layout["yaxis"] = {"title": {"text": "value per fold"}, "gridcolor": "#eaeef2", "zeroline": False,
                       "linecolor": "#8c959f", "mirror": True, "ticks": "outside", "automargin": True}
    layout["legend"] = {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.03, "yanchor": "bottom",
                        "font": {"size": 11}}
    layout["margin"] = {"l": 64, "r": 24, "t": 96, "b": 48}
    layout["hovermode"] = "closest"
    return {"id": f"cv{c}-metrics", "kind": "2d", "data": traces, "layout": layout}


def cv_figures(d: dict[str, Any], c: int) -> list[dict[str, Any]]:
    """The charts of one cross-validation section (``c``: its number on the page): curves across
    folds and metrics across folds, each with plotly's config."""
    figs = [f for f in (_cv_curve_figure(d, c, "roc"), _cv_curve_figure(d, c, "pr"), _cv_metrics_figure(d, c))
            if f is not None]
    for fig in figs:
        fig["config"] = {**PLOT_CONFIG, "toImageButtonOptions": {"filename": fig["id"], "scale": 2}}
    return figs


_CV_FIXED_COLS = (("n_train", "train"), ("n_test", "test"))


def _cv_table(d: dict[str, Any], c: int) -> str:
    t, metrics = d["table"], d["metrics"]
    repeats = d["n_repeats"] > 1
    failed = "error" in t
    head = '<th scope="col">fold</th>' + ('<th scope="col" data-col="repeat">repeat</th>' if repeats else "")
    head += "".join(f'<th scope="col" data-col="{k}">{label}</th>' for k, label in _CV_FIXED_COLS)
    head += "".join(f'<th scope="col" data-col="{esc(m)}">{esc(m)}</th>' for m in metrics)
    head += '<th scope="col" data-col="fit_time">fit (s)</th>'
    body = []
    for r, fold in enumerate(t["fold"]):
        cells = (f'<td data-col="repeat" data-value="{t["repeat"][r]}">{t["repeat"][r] + 1}</td>' if repeats else "")
        cells += "".join(f'<td data-col="{k}" data-value="{t[k][r]}">{t[k][r]}</td>' for k, _ in _CV_FIXED_COLS)
        if failed and t["error"][r] is not None:
            cells += f'<td class="undefined" colspan="{len(metrics)}" style="text-align:left">failed: {esc(t["error"][r])}</td>'
        else:
            cells += "".join(value_cell(m, t[m][r]) for m in metrics)
        cells += f'<td data-col="fit_time" data-value="{t["fit_time"][r]!r}">{t["fit_time"][r]:.3g}</td>'
        body.append(f'<tr data-row="fold" data-fold="{fold}"><th scope="row">{fold + 1}</th>{cells}</tr>')
    rows = {r["metric"]: r for r in d["summary"]["rows"]}
    pad = 1 + len(_CV_FIXED_COLS) + (1 if repeats else 0)  # columns before the metrics (fold header apart)
    level = d["summary"]["level"]
    stats = []
    for key, label in (("mean", "mean"), ("std", "sd"), ("interval", f"{level * 100:.4g}% interval"),
                       ("pooled", "pooled")):
        cells = ""
        for m in metrics:
            row = rows[m]
            if key == "interval":
                low, high = as_number(row["low"]), as_number(row["high"])
                ok = low is not None and high is not None and not (math.isnan(low) or math.isnan(high))
                text = f"{fmt(low, 3)}\u2013{fmt(high, 3)}" if ok else DASH
                cells += (f'<td data-col="{esc(m)}" data-low="{low!r}" data-high="{high!r}" '
                          f'title="{esc(d["summary"]["method"])}">{text}</td>')
            else:
                cells += value_cell(m, row[key])
        title = {"mean": "mean over folds (macro over folds)", "std": "standard deviation across folds (ddof=1)",
                 "interval": d["summary"]["method"],
                 "pooled": "the metric of all out-of-fold predictions at once (micro over folds)"}[key]
        stats.append(f'<tr data-row="{key}" data-kind="summary"><th scope="row" colspan="{pad}" '
                     f'style="white-space:nowrap" title="{esc(title)}">{esc(label)}</th>{cells}<td></td></tr>')
    return (
        f'<div class="table-wrap"><table class="numbers cv-folds" data-cv="{c}">'
        f"<caption>One row per fold (train and test: sizes), then the mean and sd over folds, a "
        f"{level * 100:.4g}% interval for the mean (hover for the method) and the pooled value; {DASH} marks "
        "a value that is undefined in that fold.</caption>"
        f"<thead><tr>{head}</tr></thead><tbody class=\"folds\">{''.join(body)}</tbody>"
        f'<tbody class="summary">{"".join(stats)}</tbody></table></div>'
    )


_RESPONSES = {
    "predict_proba": "predict_proba (class probabilities as scores)",
    "decision_function": "decision_function (decision values as scores)",
    "predict": "predict only (no scores, so no curves)",
}


def cv_section(d: dict[str, Any], c: int, figs: dict[str, dict[str, Any]]) -> str:
    """The cross-validation section's HTML; ``figs``: the page's figures by id (from :func:`cv_figures`)."""
    ran = d["n_folds"] - d["n_failed"]
    folds = f"{ran} of {d['n_folds']} ran" if d["n_failed"] else f"{d['n_folds']}"
    if d["n_repeats"] > 1:
        folds += f" ({d['n_repeats']} repetitions)"
    n_train = sum(d["table"]["n_train"]) / max(len(d["table"]["n_train"]), 1)
    n_test = sum(d["table"]["n_test"]) / max(len(d["table"]["n_test"]), 1)
    times = d["times"]
    meta = [
        ("protocol", f"{d['protocol']}: {d['protocol_repr']}"),
        ("response", _RESPONSES.get(d["response"], d["response"])),
        ("folds", folds),
        ("samples", f"{d['n_samples']}; on average {n_train:.1f} to train and {n_test:.1f} to test per fold"),
        ("interval", d["summary"]["method"]),
        ("time", f"fit {times['fit_time']:.3g} s, predict {times['predict_time']:.3g} s, "
                 f"evaluate {times['evaluation_time']:.3g} s (all folds)"),
    ]
    parts = [f'<section class="cross-validation" id="cv-{c}" data-cv="{c}">',
             f"<h2>Cross-validation: {esc(d['name'])}</h2>",
             '<dl class="meta">' + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in meta) + "</dl>"]
    notes = list(d["notes"])
    if notes:
        parts.append('<ul class="notes">' + "".join(f"<li>{esc(n)}</li>" for n in notes) + "</ul>")
    parts.append("<h3>Metrics per fold</h3>")
    parts.append(_cv_table(d, c))
    curves = [figs[f"cv{c}-{k}"] for k in ("roc", "pr") if f"cv{c}-{k}" in figs]
    if curves:
        hint = ("Thin lines: each fold's curve. Bold: their vertical average (the mean true positive rate at "
                "each false positive rate, the mean precision at each recall, as average precision reads the "
                "curve), with the pointwise interval of the mean shaded. The legend gives the mean area over "
                "folds \u00b1 its sd. Hover a fold's curve to see which fold it is.")
        parts.append(f'<h3>Curves across folds</h3><p class="hint">{esc(hint)}</p><div class="charts">')
        parts.extend(chart_div(f) for f in curves)
        parts.append("</div>")
    if f"cv{c}-metrics" in figs:
        hint = ("Each point is one fold; the box spans the middle half of the folds, its line the median. "
                "Beside each box: the mean over folds with its interval, and the pooled value (a diamond).")
        parts.append(f'<h3>Metrics across folds</h3><p class="hint">{esc(hint)}</p>')
        parts.append(chart_div(figs[f"cv{c}-metrics"]))
    parts.append("</section>\n")
    return "".join(parts)


def cv_datas(evaluations: Any) -> list[dict[str, Any]]:
    """The cross-validation dicts of the CrossEvaluations among ``evaluations``, in order."""
    datas = []
    for e in evaluation_list(evaluations):
        if is_cross_evaluation(e):
            datas.append(cross_validation_dict(e))
    return datas
