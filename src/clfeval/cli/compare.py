"""``clfeval compare``: two or more models' predictions or scores in one file, evaluated side by side,
with McNemar's test, DeLong's test and a paired bootstrap of macro F1 for every pair; with ``--by``,
McNemar's and DeLong's tests on each group's rows too, Holm-adjusted over the groups.

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
from clfeval.cli.groups import check_by_options, checked_group_keys
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
    by = check_by_options(args)
    outputs = Outputs(args.json, args.html, args.png, inputs=[("FILE", args.file)])
    specs = model_specs(args.model)
    from clfeval.inputs.tabular import detect_true_column, read_group_columns, read_models

    if args.y_true is None:  # found as report finds it, among the columns no model (and no --by) reads
        args.y_true = detect_true_column(args.file, specs + ([("--by", by)] if by else []))
        print(f"{PROG}: detected columns: y_true = {args.y_true}", file=sys.stderr)
    keys = None
    if by:  # the groups first: a missing value is an error before any model is read
        groups = read_group_columns(args.file, by, progress=args.progress)
        keys = checked_group_keys(groups, args.by_missing or "error",
                                  Where(Path(args.file), {}, argv=args.argv, groups=tuple(by)))
    y_true, models, _ = read_models(args.file, y_true=args.y_true, models=specs, progress=args.progress)
    labels = None if args.labels is None else [as_label(v.strip(), y_true, "--labels") for v in args.labels.split(",")]
    pos_label = None if args.pos_label is None else as_label(args.pos_label, y_true, "--pos-label")
    check_labels(labels, pos_label, args)
    for m in models:  # per-class columns named after their classes, in any order: put in label order
        m.y_score = scores_in_label_order(m.y_score, m.columns, y_true, labels)
    evs, preds, stderr_notes = [], [], []
    n_pairs = len(models) * (len(models) - 1) // 2
    bar = Progress(len(models) + n_pairs * (1 + (keys is not None)), force=args.progress)  # models, then pairs
    group_rows: list[dict[str, Any]] = []
    with bar:
        for m in models:
            with bar.step(f"evaluating model {m.name}"):
                _compare_model(m, y_true, labels, pos_label, args, evs, preds, stderr_notes)
        tests = _paired_tests(y_true, models, evs, preds, args, bar)
        if keys is not None:
            group_rows = _group_tests(y_true, models, evs, preds, keys, args.level, bar)
    for note in stderr_notes:
        print(f"{PROG}: note: {note}", file=sys.stderr)
    console = console_for(outputs.to_stdout)
    print_comparison(evs, console)
    console.print()
    print_tests(tests, args.level, console)
    if keys is not None:
        from clfeval.cli.groups import GROUP_ROWS
        from clfeval.report.group_text import print_group_tests

        console.print()
        print_group_tests(_ordered(group_rows, GROUP_ROWS), keys.columns, args.level, console, limit=GROUP_ROWS,
                          n_groups=keys.n_groups, more="the JSON" if args.json else "the JSON (--json PATH)")
    print_model_notes(evs, console)
    extra: dict[str, Any] = {"tests": [{"model_a": a, "model_b": b, "test": t, "result": r.to_dict(args.level)}
                                       for a, b, t, r in tests]}
    if keys is not None:
        extra["group_tests"] = {"columns": list(keys.columns), "n_groups": keys.n_groups, "level": args.level,
                                "adjustment": "Holm over the groups, for each test and pair of models",
                                "rows": group_rows}
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


def _group_tests(y_true: Any, models: list[Any], evs: list[Evaluation], preds: list[Any], keys: Any, level: float,
                 bar: Progress) -> list[dict[str, Any]]:
    """``--by``: McNemar's test of every pair of models on each group's rows, and DeLong's where both
    have scores (the tests of the whole file, on the group's rows); each test's p-values Holm-adjusted
    over the groups. One dict per group, pair and test (a test a group cannot have, e.g. DeLong's
    where the group holds one class, has a note and NaN)."""
    order, starts = keys.order(), keys.starts()
    rows: list[dict[str, Any]] = []
    for i in range(len(models)):
        for j in range(i + 1, len(models)):
            a, b = models[i], models[j]
            with bar.step(f"paired tests by group {a.name} vs {b.name}"):
                pair: list[dict[str, Any]] = []
                for g in range(keys.n_groups):
                    idx = order[starts[g]:starts[g + 1]]
                    for name, test in _group_pair_tests(a, b, evs[i], evs[j], preds[i], preds[j], y_true):
                        pair.append(_test_row(keys, g, (a.name, b.name, name), test, idx, level))
                for name in dict.fromkeys(r["test"] for r in pair):
                    _holm([r for r in pair if r["test"] == name])
                rows += pair
    return rows


def _group_pair_tests(a: Any, b: Any, ev_a: Evaluation, ev_b: Evaluation, pred_a: Any, pred_b: Any, y_true: Any
                      ) -> list[tuple[str, Any]]:
    """(test name, a function of a group's row indices -> TestResult) for one pair of models."""
    from clfeval.stats.delong import delong, delong_average
    from clfeval.stats.mcnemar import mcnemar

    tests: list[tuple[str, Any]] = [("McNemar (accuracy)", lambda idx: mcnemar(y_true[idx], pred_a[idx], pred_b[idx]))]
    if a.y_score is None or b.y_score is None:
        return tests
    if ev_a.task == "multiclass":
        tests.append(("DeLong (macro one-vs-rest ROC AUC)", lambda idx: delong_average(
            y_true[idx], a.y_score[idx], b.y_score[idx], labels=ev_a.labels)))
    elif ev_a.task == "binary":
        sa = a.y_score if a.y_score.ndim == 1 else a.y_score[:, list(ev_a.labels).index(ev_a.pos_label)]
        sb = b.y_score if b.y_score.ndim == 1 else b.y_score[:, list(ev_b.labels).index(ev_b.pos_label)]
        tests.append(("DeLong (ROC AUC)", lambda idx: delong(y_true[idx], sa[idx], sb[idx], pos_label=ev_a.pos_label)))
    return tests


def _test_row(keys: Any, g: int, names: tuple[str, str, str], test: Any, idx: Any, level: float) -> dict[str, Any]:
    """Group ``g``'s result of one test (``names``: model a, model b, the test), as plain Python (NaN
    and a note where the test cannot be made)."""
    import warnings

    a, b, name = names
    row: dict[str, Any] = {"group": keys.display[g], "key": keys.keys[g], "n": int(idx.size), "a": a, "b": b, "test": name,
                           "estimate": None, "low": None, "high": None, "statistic": None, "pvalue": float("nan"),
                           "pvalue_holm": float("nan"), "note": None}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = test(idx)
    except ValueError as exc:
        row["note"] = " ".join(str(exc).split())
        return row
    row.update(statistic=float(r.statistic), pvalue=float(r.pvalue),
               estimate=None if r.estimate is None else float(r.estimate))
    if r.interval is not None:
        ci = r.confidence_interval(level)
        row.update(low=float(ci.low), high=float(ci.high))
    if r.notes:
        row["note"] = "; ".join(r.notes)
    return row


def _holm(rows: list[dict[str, Any]]) -> None:
    """Each row's ``pvalue_holm``: Holm's adjustment over the rows with a p-value (the groups of one test)."""
    import math

    from clfeval.stats import holm

    ok = [r for r in rows if not math.isnan(r["pvalue"])]
    if ok:
        for r, p in zip(ok, holm([r["pvalue"] for r in ok]).adjusted):
            r["pvalue_holm"] = float(p)


def _ordered(rows: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """The rows in group order; past ``limit`` groups, the groups with the smallest adjusted p-value first."""
    import math

    groups = list(dict.fromkeys(r["group"] for r in rows))
    if len(groups) <= limit:
        return rows
    best: dict[str, float] = {}
    for r in rows:
        p = r["pvalue_holm"]
        best[r["group"]] = min(best.get(r["group"], math.inf), math.inf if math.isnan(p) else p)
    rank = {g: i for i, g in enumerate(sorted(groups, key=lambda g: best[g]))}
    return sorted(rows, key=lambda r: rank[r["group"]])
