"""One self-contained HTML page for one or several evaluations: tables, interactive charts, 3-D views.

The page works offline and from ``file://``: plotly.js is embedded once, inline; styles and
scripts are inline; fonts are the reader's system fonts; a Content-Security-Policy forbids any
network access. It holds, for each model, the headline numbers, the classification report and an
interactive confusion matrix (counts or shares by true class, by predicted class or of all);
then ROC and precision-recall charts (per class, micro and macro for multi-class; operating points,
chance diagonal, iso-F1 lines, break-even point and baseline), and 3-D threshold views
(FPR-threshold-TPR, recall-threshold-precision). Several models are compared in a summary table
and overlaid in the charts, whose menu also shows each model on its own.

Everything is read from ``Evaluation.to_dict()`` (a dict in that schema, e.g. a loaded
``to_json`` file, works too). plotly is imported only when a page is made.

Pointwise confidence bands of the ROC and PR curves are shaded when asked for
(``render_html(ev, bands=0.95)``) or when a dict carries a "bands" entry (:func:`bands_dict`);
each band is one legend entry, so a click hides or shows it.

This module assembles the page; its parts live beside it: :mod:`.html_model` (the models read
from the evaluations), :mod:`.html_header`, :mod:`.html_tables`, :mod:`.html_confusion`,
:mod:`.html_curves`, :mod:`.html_decisions`, :mod:`.html_groups` (the "By group" section of an
evaluation made with ``groups=``) and :mod:`.html_cv` (the sections and their charts),
:mod:`.html_charts` (what the charts share), :mod:`.html_format` (escaping and numbers),
:mod:`.html_numbers` (the figures' compact JSON) and :mod:`.html_assets` (styles and scripts).

>>> import clfeval
>>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="demo")
>>> page = render_html(ev, title="Demo")
>>> # the charts: 1 heat map, 3 decision charts, 2 curves, 2 3-D views
>>> page.startswith("<!DOCTYPE html>"), page.count(' data-chart="')
(True, 8)
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from clfeval.inputs.column_roles import columns_html
from clfeval.report.html_assets import BOOT_JS, CSP, CSS
from clfeval.report.html_charts import BELOW_AXES_LEGEND as BELOW_AXES_LEGEND  # importable from here as before
from clfeval.report.html_charts import PLOT_CONFIG, chart_div
from clfeval.report.html_confusion import confusion_figure, confusion_table, confusion_width
from clfeval.report.html_curves import bands_hint, curve_figure, threshold_figure
from clfeval.report.html_cv import CV_LEVEL as CV_LEVEL  # importable from here as before
from clfeval.report.html_cv import cross_validation_dict, cv_datas, cv_figures, cv_section
from clfeval.report.html_decisions import decision_figures, decision_section
from clfeval.report.html_format import esc
from clfeval.report.html_groups import group_figures, group_section
from clfeval.report.html_format import script_json as _script_json  # the name tests/report/test_html.py reads
from clfeval.report.html_header import clfeval_version, data_warnings, meta_rows, title_text
from clfeval.report.html_partial_auc import partial_auc_html
from clfeval.report.html_prevalence import at_prevalence_html, prg_auc_html
from clfeval.report.html_model import GROUP_LEVEL, Model, bands_dict, evaluation_list, groups_dict, page_models
from clfeval.report.html_tables import HEADLINE as HEADLINE  # importable from here as before
from clfeval.report.html_tables import cards, comparison_table, report_table, paired_tests_section

__all__ = ["render_html", "write_html", "figures", "bands_dict", "groups_dict", "cross_validation_dict"]


def _plotly_js() -> str:
    """The plotly.js bundle, made safe to place inside a <script> element."""
    try:
        from plotly.offline import get_plotlyjs
    except ImportError as exc:
        raise ImportError(
            "The HTML report needs plotly: pip install 'clfeval[report]'"
        ) from exc
    # "</script" can only occur in strings, regular expressions and comments, where "<\/" reads
    # the same; the bundle has none today, this keeps it that way.
    return get_plotlyjs().replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT")


def figures(evaluations: Any, *, bands: float | None = None, group_level: float = GROUP_LEVEL,
            group_metric: str | None = None) -> list[dict[str, Any]]:
    """The page's figures as plotly JSON dicts: ``{"id", "kind", "data", "layout"}`` each.

    ``kind`` is "heatmap", "2d" or "3d". Useful to inspect, or to validate with
    ``plotly.graph_objects.Figure(data=fig["data"], layout=fig["layout"])``. ``bands``,
    ``group_level`` and ``group_metric`` as in :func:`write_html`.

    Parameters
    ----------
    evaluations : Evaluation, CrossEvaluation, dict or sequence of them
        What the page would show: one evaluation, or several models evaluated on the same cases
        (see :func:`write_html`). A dict is read as an ``Evaluation.to_dict()``.
    bands : float, optional
        A confidence level strictly between 0 and 1: the ROC and PR charts then carry the pointwise
        bootstrap band of each Evaluation's main curve. Default None: no bands, except those a dict
        brings in its own "bands" entry.
    group_level : float, default 0.95
        The confidence level of each group's interval in the "By group" forest plot of an
        Evaluation made with ``groups=``.
    group_metric : str, optional
        The metric that forest plot shows, by its name in the groups' table (e.g. "accuracy").
        Default None: ROC AUC when there are scores, else balanced accuracy.

    Returns
    -------
    list of dict
        One dict per chart, in the order of the page: the cross-validation charts, then the
        confusion matrices, the ROC and PR curves, their 3-D threshold views, the group forest
        plots and the decision charts (reliability diagram, cost curve, decision curve). Each has
        the keys "id" (the chart's name on the page, e.g. "roc-curves"), "kind", "data" (the
        traces), "layout" and "config" (plotly's display options).

    Examples
    --------
    Without scores, the only chart is the confusion matrix:

    >>> import clfeval
    >>> [f["id"] for f in figures(clfeval.evaluate([0, 1, 1], [0, 1, 0]))]
    ['confusion-1']

    With scores come the curves, their 3-D views and the decision charts. At the default
    threshold 0.5 these scores give one false negative and no false positive:

    >>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
    >>> figs = figures(ev)
    >>> [(f["id"], f["kind"]) for f in figs[:4]]
    [('confusion-1', 'heatmap'), ('roc-curves', '2d'), ('pr-curves', '2d'), ('roc-threshold-3d', '3d')]
    >>> figs[0]["data"][0]["z"]  # rows: true class 0, 1; columns: predicted class 0, 1
    [[2.0, 0.0], [1.0, 1.0]]

    Each dict makes a plotly figure. The ROC curve's legend names its area, 0.75: of the four
    pairs of a positive and a negative case, three have the higher score on the positive one.

    >>> import plotly.graph_objects as go
    >>> roc = go.Figure(data=figs[1]["data"], layout=figs[1]["layout"])
    >>> [trace.name for trace in roc.data][:2]
    ['chance', '1 (AUC 0.750)']
    """
    evaluations = evaluation_list(evaluations)
    cvs = [f for c, d in enumerate(cv_datas(evaluations), start=1) for f in cv_figures(d, c)]
    return cvs + _figures(page_models(evaluations, bands, group_level=group_level, group_metric=group_metric))


def _figures(models: list[Model]) -> list[dict[str, Any]]:
    out = [f for f in (confusion_figure(m) for m in models) if f is not None]
    for build in (curve_figure, threshold_figure):
        for kind in ("roc", "pr"):
            fig = build(models, kind)
            if fig is not None:
                out.append(fig)
    out += [f for m in models for f in group_figures(m)]
    out += [f for m in models for f in decision_figures(m)]
    for fig in out:
        fig["config"] = {**PLOT_CONFIG, "toImageButtonOptions": {"filename": fig["id"], "scale": 2}}
    return out


def _model_section(m: Model, fig: dict[str, Any] | None, multi: bool) -> str:
    parts = [f'<section class="model" id="model-{m.index + 1}" data-model="{m.index}">']
    if m.pooled_from is not None:
        parts.append(f"<h2>Pooled out-of-fold evaluation{': ' + esc(m.name) if multi else ''}</h2>"
                     f'<p class="hint">{esc(m.pooled_from[:1].upper() + m.pooled_from[1:])}.</p>')
    else:
        parts.append(f"<h2>Model: {esc(m.name)}</h2>" if multi else "<h2>Results</h2>")
    parts.append(cards(m))
    parts.append(columns_html(m.data.get("columns")))  # which file column was read for what (the CLI's)
    parts.append("<h3>Classification report</h3>")
    parts.append(report_table(m))
    notes = m.report.get("notes") or []
    if notes:
        parts.append('<ul class="notes">' + "".join(f"<li>{esc(n)}</li>" for n in notes) + "</ul>")
    parts.append(partial_auc_html(m.data.get("partial_auc")))  # clfeval report --partial-fpr / --partial-tpr
    parts.append(at_prevalence_html(m.data.get("at_prevalence")))  # evaluate(prevalence=) / report --prevalence P
    parts.append(prg_auc_html(m.data.get("prg_auc")))  # binary scores: the area under the PRG curve
    parts.append("<h3>Confusion matrix</h3>")
    if fig is not None:
        if m.data.get("confusion", {}).get("counts") is not None:
            hint = ("Rows are the true classes, columns the predicted ones. The buttons switch between "
                    "counts and shares of each true class (recall on the diagonal), of each predicted "
                    "class (precision on the diagonal) or of all samples.")
        else:
            hint = ("One row per label: its true positives, false negatives, false positives and true "
                    "negatives, as counts or as shares of the label's samples.")
        parts.append(f'<p class="hint">{esc(hint)}</p>')
        parts.append(chart_div(fig, "confusion", max_width=confusion_width(len(m.names))))
    parts.append(confusion_table(m))
    parts.append("</section>")
    return "".join(parts)


def _chunks(models: list[Model], title: str | None, plotly_js: str,
            tests: Sequence[Mapping[str, Any]] | None = None,
            cvs: Sequence[dict[str, Any]] = ()) -> Iterator[str]:
    """The page, piece by piece (so a file can be written without joining 5 MB first)."""
    multi = len(models) > 1
    cv_figs = [f for c, d in enumerate(cvs, start=1) for f in cv_figures(d, c)]
    figs = cv_figs + _figures(models)
    by_id = {f["id"]: f for f in figs}
    if title is None and cvs:
        title = "Cross-validation: " + ", ".join(str(d["name"]) for d in cvs)
    page_title = title_text(models, title)
    yield (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="clfeval {esc(clfeval_version())}">\n'
        f"<title>{esc(page_title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
    )
    has_curves = any(m.curves("roc") or m.curves("pr") for m in models)
    has_3d = any(f["kind"] == "3d" for f in figs)
    toc = [(f"cv-{c}", "Cross-validation" + (f": {d['name']}" if len(cvs) > 1 else ""))
           for c, d in enumerate(cvs, start=1)]
    toc += [("summary", "Comparison")] if multi else []
    toc += [("tests", "Paired tests")] if tests else []
    for m in models:
        toc.append((f"model-{m.index + 1}", m.name if multi else ("Pooled" if m.pooled_from else "Results")))
        if m.data.get("groups"):
            toc.append((f"groups-{m.index + 1}", f"{m.name}: by group" if multi else "By group"))
    toc += [("curves", "ROC and PR curves")] if has_curves else []
    toc += [("threshold-views", "Threshold views (3-D)")] if has_3d else []
    meta = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in meta_rows(models))
    links = " ".join(f'<a href="#{esc(i)}">{esc(t)}</a>' for i, t in toc)  # a space: lines break between links
    nav = f'<nav class="toc" aria-label="contents">{links}</nav>\n' if len(toc) > 1 else ""
    warnings = "".join(f'<p class="warning">{esc(w)}</p>' for w in data_warnings(models))
    yield (
        f'<header class="page">\n<h1>{esc(page_title)}</h1>\n<dl class="meta">{meta}</dl>\n'
        f"{nav}{warnings}</header>\n"
        "<noscript><p>The charts need JavaScript; the tables below do not.</p></noscript>\n"
    )
    for c, d in enumerate(cvs, start=1):
        yield cv_section(d, c, by_id)
    if multi:
        yield f'<section id="summary"><h2>Comparison</h2>{comparison_table(models)}</section>\n'
    if tests:
        yield paired_tests_section(tests)
    for m in models:
        yield _model_section(m, by_id.get(f"confusion-{m.index + 1}"), multi) + "\n"
        yield group_section(m, by_id) + "\n"
        yield decision_section(m, by_id) + "\n"

    if has_curves:
        yield '<section id="curves"><h2>ROC and precision-recall curves</h2>'
        hint = ("Hover a curve to see the threshold of each point. Circles mark the operating point "
                "(the predictions the tables describe), the diamond the break-even point where "
                "precision equals recall. Click a legend entry to hide or show a curve.")
        if multi:
            hint += " The menu at the top right switches between comparing the models and one model's curves."
        hint += bands_hint(models)
        yield f'<p class="hint">{esc(hint)}</p><div class="charts">'
        for fid in ("roc-curves", "pr-curves"):
            if fid in by_id:
                yield chart_div(by_id[fid])
        yield "</div></section>\n"
    else:
        yield ('<p class="hint no-curves">No scores were given, so there are no curves: pass y_score to '
               "clfeval.evaluate() to get ROC and precision-recall curves.</p>\n")
    if has_3d:
        hint = ("Each point of a curve lifted to the height of its threshold (the synthetic end points, "
                "whose threshold is infinite, are left out). Drag to turn, scroll to zoom, hover for values.")
        yield (f'<section id="threshold-views"><h2>Threshold views (3-D)</h2><p class="hint">{esc(hint)}</p>'
               '<div class="charts">')
        for fid in ("roc-threshold-3d", "pr-threshold-3d"):
            if fid in by_id:
                yield chart_div(by_id[fid])
        yield "</div></section>\n"
    yield (f'<footer>Made by clfeval {esc(clfeval_version())}. This file is self-contained: it works offline and '
           "loads nothing from the network.</footer>\n</main>\n")
    yield "<script>"
    yield plotly_js
    yield "</script>\n"
    yield f'<script type="application/json" id="clfeval-figures">{_figures_json(figs)}</script>\n'
    yield f"<script>{BOOT_JS}</script>\n</body>\n</html>\n"


def _figures_json(figs: list[dict[str, Any]]) -> str:
    from clfeval.report.html_numbers import compact_figures, share_arrays

    return _script_json(share_arrays(compact_figures(figs)))


def render_html(evaluations: Any, title: str | None = None,
                tests: Sequence[Mapping[str, Any]] | None = None, *, bands: float | None = None,
                group_level: float = GROUP_LEVEL, group_metric: str | None = None) -> str:
    """The report page as a string (see :func:`write_html`, also for ``bands``, ``group_level`` and
    ``group_metric``). ``tests``: paired tests to show after the comparison, each
    ``{"model_a", "model_b", "test", "result": TestResult.to_dict()}``.

    Parameters
    ----------
    evaluations : Evaluation, CrossEvaluation, dict or sequence of them
        What the page shows: one evaluation, or several models evaluated on the same cases, which
        the page compares (see :func:`write_html`). A dict is read as an ``Evaluation.to_dict()``.
    title : str, optional
        The page's title and main heading. Default None: "Classifier evaluation" followed by the
        names of the models that have one ("Cross-validation: " and the names for a page of
        cross-validations).
    tests : sequence of dict, optional
        Paired tests between the models, shown in a "Paired tests" table after the comparison, one
        row each. Each dict holds the names of the two models under "model_a" and "model_b", the
        name of the test under "test" and the test's ``TestResult.to_dict()`` under "result", of
        which the table shows the estimate (a minus b), its interval, the statistic and the
        p-value. Default None: no such table.
    bands : float, optional
        A confidence level strictly between 0 and 1: the pointwise bootstrap band of each
        Evaluation's main ROC and PR curve is shaded. Default None: no bands, except those a dict
        brings in its own "bands" entry.
    group_level : float, default 0.95
        The confidence level of each group's interval in the "By group" section of an Evaluation
        made with ``groups=``.
    group_metric : str, optional
        The metric the "By group" section leads with, by its name in the groups' table (e.g.
        "accuracy"). Default None: ROC AUC when there are scores, else balanced accuracy.

    Returns
    -------
    str
        The whole HTML document, from ``<!DOCTYPE html>`` on, with its styles, scripts, plotly.js
        and the figures' data inline (a few megabytes, mostly plotly.js).

    Examples
    --------
    Names are escaped:

    >>> import clfeval
    >>> page = render_html(clfeval.evaluate(["a", "b", "b"], ["a", "b", "a"], name="<m>"))
    >>> "&lt;m&gt;" in page and "<m>" not in page
    True

    Two models on the same eight cases, with McNemar's test between them. A is right on 7 cases
    and B on 4, so the estimate, the difference in accuracy, is (7 - 4) / 8 = 0.375:

    >>> from clfeval.stats import mcnemar
    >>> y = [0, 1, 1, 0, 1, 0, 1, 0]
    >>> a, b = [0, 1, 1, 0, 1, 1, 1, 0], [0, 1, 0, 0, 0, 1, 1, 1]
    >>> evs = [clfeval.evaluate(y, a, name="A"), clfeval.evaluate(y, b, name="B")]
    >>> test = {"model_a": "A", "model_b": "B", "test": "McNemar", "result": mcnemar(y, a, b).to_dict()}
    >>> page = render_html(evs, title="A vs B", tests=[test])
    >>> page.startswith("<!DOCTYPE html>"), "<title>A vs B</title>" in page, '<section id="tests">' in page
    (True, True, True)
    >>> "<td>+0.3750</td>" in page
    True
    """
    evaluations = evaluation_list(evaluations)
    models = page_models(evaluations, bands, group_level=group_level, group_metric=group_metric)
    return "".join(_chunks(models, title, _plotly_js(), tests, cv_datas(evaluations)))


def write_html(path: str | os.PathLike[str], evaluations: Any, title: str | None = None, *,
               bands: float | None = None, group_level: float = GROUP_LEVEL, group_metric: str | None = None) -> Path:
    """Write one self-contained HTML report (atomically) and return its path.

    ``evaluations``: one :class:`~clfeval.Evaluation` or a list of them (several models on the
    same data: their curves are overlaid, each gets its own report table, and a comparison
    table leads the page). A dict from ``Evaluation.to_dict()`` works in place of an Evaluation.
    ``title`` defaults to one naming the models.

    ``bands``: a confidence level (e.g. 0.95) shades the pointwise bootstrap band (2000
    resamples, seed 0) of each Evaluation's main ROC and PR curve (see :func:`bands_dict` for
    why only the main one); None (default) draws none. A dict is drawn with the bands in its
    own "bands" entry, whatever ``bands`` says (it holds no data to resample).

    An Evaluation made with ``groups=`` gets a "By group" section (:mod:`.html_groups`): a forest
    plot of ``group_metric`` per group (default: ROC AUC with scores, else balanced accuracy) with each
    group's interval at ``group_level`` and a line at the overall value, the table of every group's
    metrics (worst first, small groups flagged), the gaps to the overall and, for a binary task,
    the fairness summaries. A dict shows its own "groups" entry (with intervals only if it was made
    with ``to_dict(ci_level=...)``); ``group_metric`` then picks among its table's metrics.

    The page is written to a temporary file beside ``path`` and renamed into place, so ``path``
    is either the whole new page or untouched. A missing folder is a ``FileNotFoundError``, a
    folder given as ``path`` an ``IsADirectoryError``; both name the path.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write, e.g. "report.html". Its folder must exist; a file already there is
        replaced.
    evaluations : Evaluation, CrossEvaluation, dict or sequence of them
        One Evaluation or several, as above. A CrossEvaluation (from ``cross_evaluate``) gets a
        cross-validation section, and its pooled out-of-fold Evaluation stands for it in the rest
        of the page.
    title : str, optional
        The page's title and main heading. Default None: "Classifier evaluation" followed by the
        names of the models that have one ("Cross-validation: " and the names for a page of
        cross-validations).
    bands : float, optional
        The confidence level of the shaded bands, strictly between 0 and 1, as above. Default
        None: no bands, except those a dict brings in its own "bands" entry.
    group_level : float, default 0.95
        The confidence level of each group's interval in the "By group" section.
    group_metric : str, optional
        The metric of the "By group" forest plot, by its name in the groups' table (e.g.
        "accuracy"). Default None: ROC AUC when there are scores, else balanced accuracy.

    Returns
    -------
    pathlib.Path
        ``path``, as a :class:`~pathlib.Path`.

    Raises
    ------
    FileNotFoundError
        If the folder of ``path`` does not exist.
    IsADirectoryError
        If ``path`` is a folder.
    ImportError
        If plotly is not installed (``pip install 'clfeval[report]'``); nothing is written then.

    Examples
    --------
    Two models compared on one page. B's scores rank 3 of the 4 pairs of a positive and a
    negative case the right way round, so its ROC AUC in the comparison table is 0.75:

    >>> import clfeval, tempfile, pathlib
    >>> a = clfeval.evaluate([0, 1, 1, 0], y_score=[0.2, 0.9, 0.6, 0.4], name="A")
    >>> b = clfeval.evaluate([0, 1, 1, 0], y_score=[0.3, 0.7, 0.2, 0.1], name="B")
    >>> folder = tempfile.TemporaryDirectory()
    >>> out = write_html(pathlib.Path(folder.name) / "report.html", [a, b])
    >>> out.name, out.stat().st_size > 1_000_000
    ('report.html', True)
    >>> page = out.read_text(encoding="utf-8")
    >>> page.startswith("<!DOCTYPE html>"), "<title>Classifier evaluation: A, B</title>" in page
    (True, True)
    >>> '<td data-col="roc_auc" data-value="0.75">0.7500</td>' in page
    True

    A folder is not a file name:

    >>> write_html(folder.name, a)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    IsADirectoryError: cannot write the HTML report to ...: it is a folder; give a file name.
    >>> folder.cleanup()
    """
    from clfeval.support.atomic import atomic_write

    evaluations = evaluation_list(evaluations)
    models = page_models(evaluations, bands, group_level=group_level, group_metric=group_metric)
    cvs = cv_datas(evaluations)
    plotly_js = _plotly_js()  # fail before touching the file system when plotly is missing
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(f"cannot write the HTML report to {target}: it is a folder; give a file name.")
    if not target.parent.is_dir():
        raise FileNotFoundError(
            f"cannot write the HTML report to {target}: the folder {target.parent} does not exist."
        )
    with atomic_write(target, "w", encoding="utf-8") as f:
        for piece in _chunks(models, title, plotly_js, cvs=cvs):
            f.write(piece)
    return target
