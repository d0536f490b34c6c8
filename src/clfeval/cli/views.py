"""What the ``clfeval`` command shows and writes: the terminal's console (:func:`console_for`), the
report's terminal view and files (:func:`show_report`), and :class:`Outputs`, the JSON, HTML and
PNG files asked for: checked before any input is read, rendered once everything is computed, then
written all together or not at all (:mod:`clfeval.support.staged_outputs`).

>>> outputs = Outputs(None, None, None)
>>> outputs.to_stdout, outputs.plan.files
(False, [])
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from clfeval.cli.options import PROG, UsageError
from clfeval.support.staged_outputs import OutputConflict, OutputPlan

if TYPE_CHECKING:
    from rich.console import Console

    from clfeval.cli.groups import GroupResults
    from clfeval.cli.report_options import ReportOptions
    from clfeval.cli.tracking import MlflowOutput
    from clfeval.evaluation import Evaluation

__all__ = ["Outputs", "console_for", "show_report"]


def console_for(stderr: bool = False) -> Console:
    """The terminal report's console; on standard error when an output (``--json -``) takes standard output."""
    from rich.console import Console

    # piped output keeps whole lines (no wrapping at 80 columns)
    if (sys.stderr if stderr else sys.stdout).isatty():
        return Console(stderr=stderr)
    return Console(stderr=stderr, width=max(100, shutil.get_terminal_size((120, 24)).columns))


def show_report(ev: Evaluation, thresholds: dict[str, Any], intervals: Any, options: ReportOptions,
                outputs: Outputs, notices: list[str], columns_used: dict[str, Any] | None,
                by_group: GroupResults | None = None) -> None:
    """``report``'s notices (standard error), its terminal view (with ``--by``, the groups last), then
    its files (the JSON entry "groups")."""
    for notice in notices:
        print(f"{PROG}: {notice}", file=sys.stderr)
    console = console_for(outputs.to_stdout)
    from clfeval.report.terminal import print_binning, print_evaluation, print_intervals, print_thresholds

    print_evaluation(ev, console)
    print_binning(ev, console)
    print_thresholds(ev, thresholds, console)
    extra: dict[str, Any] | None = None
    if options.partial is not None:  # --partial-fpr / --partial-tpr (clfeval.cli.partial_auc)
        from clfeval.cli.partial_auc import partial_entry
        from clfeval.report.partial_auc_text import print_partial_auc

        extra = {"partial_auc": partial_entry(ev, options.partial, options.level if options.ci else None)}
        print_partial_auc(extra["partial_auc"], console)
    if ev.task == "binary" and ev.has_scores:  # the area under the PRG curve (Flach & Kull 2015)
        from clfeval.evaluation.prevalence import prg_entry
        from clfeval.report.prevalence_text import print_prg_auc

        extra = {**(extra or {}), **prg_entry(ev, options.level if options.ci else None)}
        print_prg_auc(extra["prg_auc"], console)
    if ev.prevalence is not None:  # --prevalence P (clfeval.cli.prevalence)
        from clfeval.cli.prevalence import at_prevalence_entry
        from clfeval.report.prevalence_text import print_at_prevalence

        extra = {**(extra or {}), "at_prevalence": at_prevalence_entry(ev, options.level if options.ci else None)}
        print_at_prevalence(extra["at_prevalence"], console)
    if options.ci is not None:
        console.print()
        print_intervals(ev, intervals, console)
        from clfeval.evaluation import intervals_to_plain

        extra = {**(extra or {}), "intervals": intervals_to_plain(intervals)}
    if by_group is not None:
        from clfeval.cli.groups import GROUP_ROWS, groups_json
        from clfeval.report.group_text import print_groups

        console.print()
        print_groups(ev, by_group.table, by_group.metric, by_group.shown, console, gaps=by_group.gap(),
                     fairness=by_group.fairness, notes=by_group.notes, limit=GROUP_ROWS,
                     more=_where_all_groups(outputs))
        extra = {**(extra or {}), "groups": groups_json(by_group)}
    extra = {**thresholds, **(extra or {}), **({"columns": columns_used} if columns_used else {})}
    html_items = None
    page = options.html is not None or options.mlflow is not None  # --mlflow logs the page too
    if page and (options.ci is not None or options.costs is not None or columns_used or by_group is not None
                 or options.partial or ev.prevalence is not None):  # the page's entries (only a page reads them)
        item = {**ev.to_dict(), **extra}
        if ev.has_scores and ev.sample_weight is None and ev.streamed != "weighted":
            from clfeval.report.html import bands_dict

            item["bands"] = bands_dict(ev, options.level)
        if by_group is not None and by_group.table.level is None:
            # the page's forest plot wants each shown group's interval, which the terminal left to --ci
            from dataclasses import replace

            from clfeval.report.html_model import groups_dict

            item["groups"] = groups_dict(replace(ev, by_group=by_group.groups), options.level, by_group.metric,
                                         base=item["groups"])
        html_items = [item]
    outputs.write([ev], title=f"clfeval report: {ev.name}", console=console, json_extra=extra, html_items=html_items,
                  intervals=intervals)


def _where_all_groups(outputs: Outputs) -> str:
    """Where the groups left out of the terminal's tables are (the JSON, or the option that writes it)."""
    for out in outputs.plan.files:
        if out.option == "--json":
            return "the JSON" if out.path is None else f"the JSON ({out.shown})"
    return "the JSON (--json PATH)"


class Outputs:
    """The files asked for: checked before any input is read (see :class:`OutputPlan`), rendered
    once everything is computed, then written all together or not at all."""

    def __init__(self, json_path: str | None, html_path: str | None, png_dir: str | None,
                 inputs: Sequence[tuple[str, str | None]] = (), mlflow: MlflowOutput | None = None) -> None:
        self.html = html_path
        #: --mlflow: logged after the files (see :mod:`clfeval.cli.tracking`)
        self.mlflow = mlflow
        try:
            self.plan = OutputPlan([("--json", json_path), ("--html", html_path)], png_dir, inputs)
        except OutputConflict as exc:
            raise UsageError(str(exc)) from None
        self.to_stdout = self.plan.to_stdout

    def write(self, evaluations: list[Evaluation], title: str, console: Console,
              json_extra: dict[str, Any] | None = None, html_items: list[Any] | None = None,
              html_tests: list[dict[str, Any]] | None = None, model_extras: list[dict[str, Any]] | None = None,
              intervals: Any = None) -> None:
        """Render every output asked for, then write them; ``html_items`` (e.g. to_dict()s with
        intervals) replace the evaluations in the HTML page; ``model_extras``: entries added to each
        model's dict (JSON and HTML) when there are several. With --mlflow, the run's record is made
        (with ``intervals``, from --ci) before any file is written, and logged after them all."""
        if model_extras is not None and html_items is None:
            html_items = [{**ev.to_dict(), **more} for ev, more in zip(evaluations, model_extras)]
        documents: dict[str, bytes] = {}  # each rendered once, for its file and for MLflow

        def document(option: str) -> bytes:
            if option not in documents:
                if option == "--json":
                    documents[option] = _json_of(evaluations, json_extra, model_extras).encode()
                else:
                    from clfeval.report.html import render_html

                    documents[option] = render_html(html_items or evaluations, title=title, tests=html_tests).encode()
            return documents[option]

        tracking = self.mlflow
        # the run's metric names are checked first; its record is complete before any file is written
        record = None if tracking is None else tracking.record(evaluations[0], intervals)
        contents = [document(out.option) for out in self.plan.files]
        pngs: list[tuple[str, bytes]] = []
        if self.plan.png is not None or (tracking is not None and tracking.figures):
            from clfeval.plot import render_pngs

            pngs = render_pngs(evaluations if len(evaluations) > 1 else evaluations[0])
        if tracking is not None and record is not None:
            record = tracking.with_outputs(record, document("--json"), document("--html") if tracking.html else None,
                                           pngs if tracking.figures else [])
        try:
            self.plan.write(contents, pngs if self.plan.png is not None else [])
        except OutputConflict as exc:  # a plot named like another output: known only now, still nothing written
            raise UsageError(str(exc)) from None
        for out in self.plan.files:
            console.print(f"wrote the {out.option[2:].upper()} to standard output" if out.path is None
                          else f"wrote {out.shown}")
        if pngs and self.plan.png is not None:
            console.print(f"wrote {len(pngs)} PNG files to {self.plan.png.shown.rstrip('/')}/: "
                          f"{', '.join(name for name, _ in pngs)}")
        if tracking is not None and record is not None:  # only once every file is written
            tracking.log(record, console, wrote=bool(self.plan.files) or self.plan.png is not None)


def _json_of(evaluations: list[Evaluation], extra: dict[str, Any] | None = None,
             model_extras: list[dict[str, Any]] | None = None) -> str:
    """One evaluation's dict (plus ``extra`` entries), or {"models": [...], **extra} for several
    (each model's dict with its ``model_extras`` entries)."""
    from clfeval.results.json_text import json_text

    if len(evaluations) == 1:
        data = {**evaluations[0].to_dict(), **(extra or {})}
    else:
        data = {"models": [{**ev.to_dict(), **more} for ev, more in zip(evaluations, model_extras or [{}] * len(evaluations))],
                **(extra or {})}
    return json_text(data, indent=2) + "\n"  # json.dumps(json_safe(data), indent=2, allow_nan=False)
