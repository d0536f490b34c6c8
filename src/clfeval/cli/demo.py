"""``clfeval demo``: two models evaluated on the example data shipped inside the package (the same
confusion matrix, different ROC curves), printed, and their HTML reports written.

>>> from clfeval.inputs.examples import load_demo
>>> demo_command(load_demo("binary")).split()[:2]
['clfeval', 'report']
"""

from __future__ import annotations

import argparse
import contextlib
import os
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clfeval.cli.options import UsageError
from clfeval.cli.parser import DEMO_FOLDER
from clfeval.cli.views import console_for
from clfeval.support.staged_outputs import OutputError, OutputPlan

if TYPE_CHECKING:
    from clfeval.evaluation import Evaluation

__all__ = ["demo", "demo_command"]


def demo(args: argparse.Namespace) -> int:
    from clfeval.evaluation import evaluate
    from clfeval.inputs.examples import demo_kinds, load_demo
    from clfeval.report.terminal import print_comparison, print_evaluation

    kinds = list(demo_kinds()) if args.kind == "all" else [args.kind]
    default_folder = args.out is None
    created: Path | None = None  # the default folder, when this run made it: removed again if nothing is written
    out = Path(DEMO_FOLDER if default_folder else args.out)
    single_file = out.suffix.lower() == ".html"
    if single_file and len(kinds) > 1:
        raise UsageError("--out FILE.html needs --kind binary or --kind multiclass (two reports otherwise)")
    targets = {k: out if single_file else out / f"clfeval-demo-{k}.html" for k in kinds}
    plan = None
    if not args.no_html:
        folder = out.parent if single_file else out
        if default_folder and not folder.is_dir():
            try:
                folder.mkdir()
                created = folder
            except OSError as e:
                raise OutputError(f"cannot create the folder {folder} for the demo's HTML reports: "
                                  f"{e.strerror or e} (give another with --out DIR)") from None
        if not folder.is_dir():
            raise OutputError(f"--out {out}: folder {folder} does not exist")
        plan = OutputPlan([("--out", str(targets[k])) for k in kinds])
    console = console_for()
    if plan is not None:
        names = ", ".join(targets[k].name for k in kinds)
        console.print(f"clfeval demo: the HTML reports go to {folder.resolve()}{os.sep} ({names})", soft_wrap=True)
        console.print()
    pages: list[tuple[Path, str]] = []
    for kind in kinds:
        demo = load_demo(kind)
        console.rule(f"[bold]{demo.title}")
        console.print(demo.description)
        console.print()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            evs = [evaluate(demo.y_true, m.y_pred, m.y_score, labels=demo.classes, pos_label=demo.pos_label,
                            name=name) for name, m in demo.models.items()]
        print_evaluation(evs[0], console)
        console.print()
        print_comparison(evs, console)
        console.print()
        console.print(_demo_moral(evs))
        console.print(f"[dim]the same from the command line: {demo_command(demo)}[/dim]", soft_wrap=True)
        console.print()
        if not args.no_html:
            from clfeval.report.html import render_html

            pages.append((targets[kind], render_html(evs, title=f"clfeval demo: {demo.title}")))
    if plan is not None:
        try:
            plan.write([text.encode() for _, text in pages])
        except BaseException:
            if created is not None:
                with contextlib.suppress(OSError):
                    created.rmdir()
            raise
    for path, _ in pages:
        console.print(f"wrote the HTML report to {path.resolve()} (open it in a browser; it works offline)")
    return 0


def demo_command(demo: Any) -> str:
    """The ``clfeval report`` command that evaluates the demo's first model from its file."""
    import shlex

    path = next(iter(demo.models.values())).path
    pos = [] if demo.pos_label is None else ["--pos-label", str(demo.pos_label)]
    return shlex.join(["clfeval", "report", str(path), *pos])


def _demo_moral(evs: list[Evaluation]) -> str:
    import numpy as np

    a, b = evs[0], evs[1]
    same = np.array_equal(a.confusion.counts, b.confusion.counts)
    auc = " vs ".join(f"{ev.report.overall.get('roc_auc', float('nan')):.4f}" for ev in evs)
    if same:
        return (f"The models make the same predictions (identical confusion matrices and reports) but rank the "
                f"samples differently: ROC AUC {auc}. Only the scores tell them apart; the curves show where.")
    return f"ROC AUC {auc}."
