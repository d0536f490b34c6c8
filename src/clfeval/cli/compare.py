"""``clfeval compare``: two or more models' predictions or scores in one file, evaluated side by side,
with McNemar's test, DeLong's test and a paired bootstrap of macro F1 for every pair.

>>> model_specs(["a=pred_a", "b=p0, p1"])
[('a', ['pred_a']), ('b', ['p0', 'p1'])]
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clfeval.cli.engines import in_words
from clfeval.cli.messages import Where, data_error, warning_notes
from clfeval.cli.notes import add_notes, check_probability_threshold, flipped_scores_note, print_model_notes
from clfeval.cli.options import PROG, UsageError, check_labels, check_options, typed
from clfeval.cli.report_options import as_label
from clfeval.cli.views import Outputs, console_for
from clfeval.inputs.column_roles import scores_in_label_order
from clfeval.exceptions import ValuesError
from clfeval.support.progress import Progress
from clfeval.inputs.score_kind import evaluation_score_note

if TYPE_CHECKING:
    from clfeval.evaluation import Evaluation

__all__ = ["compare", "model_specs"]


def model_specs(specs: list[str]) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for spec in specs:
        name, sep, cols = spec.partition("=")
        columns = [c.strip() for c in cols.split(",") if c.strip()]
        if not sep or not name.strip() or not columns:
            raise UsageError(f"--model {spec!r}: write NAME=COLUMN or NAME=COL1,COL2,... (one score column per class)")
        out.append((name.strip(), columns))
    names = [n for n, _ in out]
    if len(out) < 2:
        raise UsageError("compare needs at least two --model options")
    if len(set(names)) != len(names):
        raise UsageError(f"--model names must differ, got {names}")
    return out


def compare(args: argparse.Namespace) -> int:
    from clfeval.report.terminal import print_comparison, print_tests

    check_options(args)
    outputs = Outputs(args.json, args.html, args.png, inputs=[("FILE", args.file)])
    specs = model_specs(args.model)
    from clfeval.inputs.tabular import detect_true_column, read_models

    if args.y_true is None:  # found as report finds it, among the columns no model reads
        args.y_true = detect_true_column(args.file, specs)
        print(f"{PROG}: detected columns: y_true = {args.y_true}", file=sys.stderr)
    y_true, models, _ = read_models(args.file, y_true=args.y_true, models=specs, progress=args.progress)
    labels = None if args.labels is None else [as_label(v.strip(), y_true, "--labels") for v in args.labels.split(",")]
    pos_label = None if args.pos_label is None else as_label(args.pos_label, y_true, "--pos-label")
    check_labels(labels, pos_label, args)
    for m in models:  # per-class columns named after their classes, in any order: put in label order
        m.y_score = scores_in_label_order(m.y_score, m.columns, y_true, labels)
    evs, preds, stderr_notes = [], [], []
    bar = Progress(len(models) * (len(models) + 1) // 2, force=args.progress)  # models, then pairs
    with bar:
        for m in models:
            with bar.step(f"evaluating model {m.name}"):
                _compare_model(m, y_true, labels, pos_label, args, evs, preds, stderr_notes)
        tests = _paired_tests(y_true, models, evs, preds, args, bar)
    for note in stderr_notes:
        print(f"{PROG}: note: {note}", file=sys.stderr)
    console = console_for(outputs.to_stdout)
    print_comparison(evs, console)
    console.print()
    print_tests(tests, args.level, console)
    print_model_notes(evs, console)
    extra = {"tests": [{"model_a": a, "model_b": b, "test": t, "result": r.to_dict(args.level)}
                       for a, b, t, r in tests]}
    read = [{"columns": {"y_true": args.y_true, "y_pred": m.columns[0] if m.y_pred is not None else None,
                         "y_score": list(m.columns) if m.y_pred is None else [], "sample_weight": None,
                         "unused": []}} for m in models]  # which file column was read for what
    outputs.write(evs, title="clfeval compare: " + " vs ".join(ev.name for ev in evs), console=console,
                  json_extra=extra, html_tests=extra["tests"], model_extras=read)
    return 0


def _compare_model(m: Any, y_true: Any, labels: Any, pos_label: Any, args: argparse.Namespace, evs: list[Any],
                   preds: list[Any], stderr_notes: list[str]) -> None:
    """Evaluate one model of ``compare`` (appends to ``evs``, ``preds`` and ``stderr_notes``)."""
    from clfeval.evaluation import evaluate, predict_from_scores

    thr = args.threshold if m.y_score is not None and m.y_pred is None else None
    with warning_notes() as model_notes:  # warnings: this model's notes
        try:
            ev = evaluate(y_true, m.y_pred, m.y_score, labels=labels, pos_label=pos_label, threshold=thr,
                          name=m.name)
        except ValuesError as exc:
            columns = {"y_true": args.y_true, "y_pred": m.columns, "y_score": m.columns}
            where = Where(Path(args.file), columns, argv=args.argv, arrays={"y_true": y_true, "y_pred": m.y_pred},
                          options={"--labels": args.labels, "--pos-label": args.pos_label,
                                   "--threshold": args.threshold})
            raise data_error(exc, where) or in_words(exc, args.file, columns) from None
        except ValueError as exc:
            raise in_words(exc, args.file, {"y_true": args.y_true, "y_score": m.columns}) from None
    if thr is not None:
        check_probability_threshold(ev.score_kind, thr, f"--threshold {typed(args.argv, '--threshold', thr)}")
    add_notes(ev, [*model_notes, flipped_scores_note(ev) or ""])
    evs.append(ev)
    note = None if m.y_score is None or not m.y_score.size else evaluation_score_note(
        ev, (float(m.y_score.min()), float(m.y_score.max())), columns=m.columns,
        threshold_given=None if args.threshold is None else f"--threshold {args.threshold:g}")
    if note is not None:
        stderr_notes.append(f"model {m.name}: {note}")
    if m.y_pred is not None:
        preds.append(m.y_pred)
    elif ev.task == "multiclass":
        preds.append(predict_from_scores(m.y_score, ev.labels))
    else:
        preds.append(predict_from_scores(m.y_score, ev.labels, pos_label=ev.pos_label, threshold=ev.threshold))
    ev.report  # noqa: B018 - computed here, inside the progress bar's step


def _paired_tests(y_true: Any, models: list[Any], evs: list[Evaluation], preds: list[Any],
                  args: argparse.Namespace, bar: Progress) -> list[tuple[str, str, str, Any]]:
    """(model a, model b, test name, TestResult) for every pair of models."""
    tests = []
    for i in range(len(models)):
        for j in range(i + 1, len(models)):
            with bar.step(f"paired tests {models[i].name} vs {models[j].name}"):
                tests += _pair_tests(y_true, models[i], models[j], (evs[i], evs[j], evs[0]), preds[i], preds[j], args)
    return tests


def _pair_tests(y_true: Any, a: Any, b: Any, evs: tuple[Evaluation, Evaluation, Evaluation], pred_a: Any,
                pred_b: Any, args: argparse.Namespace) -> list[tuple[str, str, str, Any]]:
    """McNemar, DeLong where both models have scores, and the paired bootstrap of macro F1 (over the
    classes of the first model, ``evs[2]``, for every pair)."""
    from clfeval.metrics import f1_score
    from clfeval.stats.delong import delong, delong_average
    from clfeval.stats.mcnemar import mcnemar
    from clfeval.stats.paired import paired_bootstrap_test

    ev, ev_b, first = evs
    tests = [(a.name, b.name, "McNemar (accuracy)", mcnemar(y_true, pred_a, pred_b))]
    if ev.task == "multiclass" and a.y_score is not None and b.y_score is not None:
        tests.append((a.name, b.name, "DeLong (macro one-vs-rest ROC AUC)",
                      delong_average(y_true, a.y_score, b.y_score, labels=ev.labels)))
    if ev.task == "binary" and a.y_score is not None and b.y_score is not None:
        sa = a.y_score if a.y_score.ndim == 1 else a.y_score[:, list(ev.labels).index(ev.pos_label)]
        sb = b.y_score if b.y_score.ndim == 1 else b.y_score[:, list(ev_b.labels).index(ev_b.pos_label)]
        tests.append((a.name, b.name, "DeLong (ROC AUC)", delong(y_true, sa, sb, pos_label=ev.pos_label)))
    # a partial of clfeval's f1_score: the bootstrap resamples the joint (true, A, B) cell counts
    macro_f1 = functools.partial(f1_score, average="macro", labels=list(first.labels), zero_division=0)
    tests.append((a.name, b.name, "paired bootstrap (macro F1)", paired_bootstrap_test(
        y_true, pred_a, pred_b, macro_f1, n_resamples=args.n_resamples, seed=args.seed, level=args.level)))
    return tests
