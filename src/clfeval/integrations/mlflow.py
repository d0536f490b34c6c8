"""Experiment tracking with MLflow: :func:`log_evaluation` logs an :class:`~clfeval.evaluation.Evaluation`
into an MLflow run (``pip install 'clfeval[mlflow]'``; MLflow is imported only when something is logged).

What a run gets, every name after ``prefix`` (default none):

* **Metrics**, one number each at step 0, under flat names that do not change between releases:

  - the report's overall numbers under their own names: ``accuracy``, ``error_rate``,
    ``balanced_accuracy``, ``mcc``, ``kappa``, ``roc_auc``, ``average_precision`` (multilabel:
    ``hamming_loss``);
  - ``<column>.<average>`` for the averaged rows: ``f1.macro``, ``f1.micro``, ``f1.weighted``,
    ``precision.macro``, ``roc_auc.macro``, ``f1.samples`` (multilabel)...; the columns are the
    report's: ``precision``, ``recall``, ``f1`` (``f2``... with a beta), ``fallout``,
    ``specificity``, ``npv``, ``roc_auc``, ``average_precision``;
  - ``<column>.class_<label>`` for each class: ``precision.class_spam``, ``recall.class_1``,
    ``support.class_spam`` (the class's count, or weight);
  - ``n_samples``, and ``threshold`` where the predictions come from a threshold on the scores.

  A class's label keeps letters, digits, ``_`` and ``-``; every other character becomes ``_``
  (label ``"a b"``: ``recall.class_a_b``), so that the name's dots always separate the metric from
  the average or class. Two classes, or two numbers, that would get the same name are a
  ``ValueError`` before anything is logged, never one value overwriting another.
* **Intervals** (``intervals=True``, or the intervals the caller computed): ``<name>_ci_low`` and
  ``<name>_ci_high`` for every number that has one (``accuracy_ci_low``, ``f1.macro_ci_high``,
  ``recall.class_spam_ci_low``), their level and method in the tags ``clfeval.ci_level`` and
  ``clfeval.ci_method``.
* **Undefined numbers** (NaN: the precision of a class that is never predicted...) and infinite ones
  are not logged as numbers: their names are in the tag ``clfeval.skipped_metrics`` (comma-separated;
  empty when none) and, with the reason, in the result's ``skipped``.
* **Artifacts**, at the top of the run's artifacts: ``evaluation.json`` (the text of
  :meth:`Evaluation.to_json <clfeval.evaluation.Evaluation.to_json>`, with an ``"intervals"`` entry
  when intervals are logged) and ``evaluation.html`` (the page of :meth:`Evaluation.to_html
  <clfeval.evaluation.Evaluation.to_html>`); the ROC and PR curves as CSV tables,
  ``curves/roc.csv`` (columns ``curve, threshold, fpr, tpr``) and ``curves/pr.csv`` (``curve,
  threshold, recall, precision``), one row per point, ``curve`` naming the class (one-vs-rest) or the
  micro or macro average, every number as Python writes it (read back exactly); the plots of
  :func:`clfeval.plot.render_pngs` as ``figures/<name>.png``. CSV files rather than
  ``mlflow.log_table``: they need neither pandas nor MLflow to read, and MLflow's page shows them
  as tables.
* **Tags** ``clfeval.version``, ``clfeval.task`` and ``clfeval.model`` (the evaluation's name).

The run is the one MLflow's settings point at: the tracking server of ``MLFLOW_TRACKING_URI`` (or
:func:`mlflow.set_tracking_uri`), the experiment given (created if missing), else the active run,
else MLflow's current experiment. MLflow 3's default store is ``sqlite:///mlflow.db`` in the current
folder, which needs SQLAlchemy and Alembic: the ``mlflow`` extra installs them beside mlflow-skinny.
A tracking server (``http://host:5000``) needs nothing more; a folder (``file:./mlruns``) MLflow 3.7
and later accept only with ``MLFLOW_ALLOW_FILE_STORE=true``.

Everything is computed before the run is touched (:func:`evaluation_record`): an error in the names,
the intervals or the plots leaves the run as it was.

>>> import clfeval
>>> ev = clfeval.evaluate(["ham", "spam", "spam", "ham"], y_score=[0.1, 0.9, 0.4, 0.3], pos_label="spam")
>>> record = evaluation_record(ev, intervals=False, artifacts=False, curves=False, figures=False)
>>> record.metrics["roc_auc"], record.metrics["f1.macro"], record.metrics["recall.class_spam"]
(1.0, 0.7333333333333334, 0.5)
>>> record.skipped
{}
"""

from __future__ import annotations

import csv
import io
import json
import math
import posixpath
import re
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from types import ModuleType

    from clfeval.evaluation import Evaluation

__all__ = ["log_evaluation", "evaluation_record", "log_record", "EvaluationRecord", "LoggedEvaluation",
           "metric_label", "require_mlflow", "check_tracking_store"]

#: how to install what this module needs
INSTALL_HINT = "pip install 'clfeval[mlflow]'"
#: the artifacts' names (after the prefix)
JSON_ARTIFACT = "evaluation.json"
HTML_ARTIFACT = "evaluation.html"
CURVES_FOLDER = "curves"
FIGURES_FOLDER = "figures"
#: the tag that lists the numbers not logged (NaN or infinite)
SKIPPED_TAG = "clfeval.skipped_metrics"
#: MLflow's longest metric or tag name, and a tag value every MLflow 3 store takes
MAX_NAME_LENGTH = 250
MAX_TAG_LENGTH = 5000
#: the characters MLflow allows in a name (less the colon, which it refuses on Windows)
NAME_CHARACTERS = re.compile(r"[\w.\-/ ]*")
#: how a caller of evaluate() renames classes (said after "give the classes distinct names")
RENAME_HINT = ", e.g. evaluate(..., target_names=[...])"
#: what a class's label keeps in a metric name: letters, digits, "_" and "-"
NOT_IN_LABEL = re.compile(r"[^\w\-]")
#: the curve tables' columns after "curve" and "threshold"
CURVE_AXES = {"roc": ("fpr", "tpr"), "pr": ("recall", "precision")}


def require_mlflow() -> ModuleType:
    """Import MLflow, or say how to install it.

    Returns
    -------
    module
        The ``mlflow`` module.

    Raises
    ------
    ModuleNotFoundError
        When ``mlflow`` cannot be imported; the message names the extra, ``pip install 'clfeval[mlflow]'``.

    Examples
    --------
    >>> require_mlflow().__name__
    'mlflow'
    """
    try:
        import mlflow
    except ImportError as exc:
        why = "is not installed" if exc.name == "mlflow" else f"cannot be imported ({exc})"
        raise ModuleNotFoundError(f"logging to MLflow needs the mlflow package, which {why}: {INSTALL_HINT}",
                                  name="mlflow") from exc
    return mlflow


def check_tracking_store(tracking_uri: str | None = None, timeout: float = 10) -> str:
    """The tracking URI MLflow will log to, checked without creating anything there.

    A database URI (``sqlite:``, MLflow 3's default, ``postgresql:``...) needs SQLAlchemy and Alembic,
    which the ``mlflow`` extra installs beside mlflow-skinny (the full ``mlflow`` package has them too); a folder
    (``file:`` or a path) is refused by MLflow 3.7 and later unless ``MLFLOW_ALLOW_FILE_STORE=true``;
    a tracking server (``http:``, ``https:``) must answer within ``timeout`` seconds (any HTTP answer
    will do: MLflow itself would retry an unreachable one for minutes, after the work is done).
    Found here, these are errors before any work rather than after it.

    Parameters
    ----------
    tracking_uri : str, optional
        The URI to check; default None: the one MLflow uses (``MLFLOW_TRACKING_URI``,
        :func:`mlflow.set_tracking_uri`, else MLflow's default).
    timeout : float, default 10
        Seconds a tracking server has to answer.

    Returns
    -------
    str
        The tracking URI.

    Raises
    ------
    ModuleNotFoundError
        When MLflow is not installed (see :func:`require_mlflow`).
    ValueError
        When MLflow, as installed and configured, cannot log to that store; the message says what to change.

    Examples
    --------
    >>> check_tracking_store("sqlite:///mlflow.db")  # nothing is created
    'sqlite:///mlflow.db'
    >>> check_tracking_store("http://127.0.0.1:9", timeout=2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the MLflow tracking server http://127.0.0.1:9 does not answer (...)...
    """
    mlflow = require_mlflow()
    uri = str(tracking_uri or mlflow.get_tracking_uri())
    scheme = uri.split(":", 1)[0].split("+", 1)[0].lower() if ":" in uri else ""
    if len(scheme) == 1:  # a Windows drive letter
        scheme = ""
    try:
        from mlflow.store.db.db_types import DATABASE_ENGINES
    except ImportError:  # pragma: no cover - an MLflow that moved it
        DATABASE_ENGINES = ["postgresql", "mysql", "sqlite", "mssql"]
    if scheme in DATABASE_ENGINES:
        try:
            import mlflow.store.tracking.sqlalchemy_store  # noqa: F401
        except ImportError as exc:
            missing = exc.name or str(exc)
            raise ValueError(f"the MLflow tracking store {uri} is a database, which needs SQLAlchemy and Alembic "
                             f"({missing} is missing): pip install 'clfeval[mlflow]', or set MLFLOW_TRACKING_URI to a "
                             "tracking server (e.g. http://127.0.0.1:5000)") from None
    elif scheme in ("", "file"):
        from mlflow import environment_variables

        allow = getattr(environment_variables, "MLFLOW_ALLOW_FILE_STORE", None)
        if allow is not None and not allow.get():
            raise ValueError(f"the MLflow tracking store {uri} is a folder, which MLflow {mlflow.__version__} "
                             "refuses unless MLFLOW_ALLOW_FILE_STORE=true: set that, or set MLFLOW_TRACKING_URI to a "
                             "tracking server (e.g. http://127.0.0.1:5000)")
    elif scheme in ("http", "https"):
        import urllib.error
        import urllib.request

        try:
            with urllib.request.urlopen(uri.rstrip("/") + "/health", timeout=timeout):
                pass
        except urllib.error.HTTPError:
            pass  # it answered
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ValueError(f"the MLflow tracking server {uri} does not answer ({reason}): start it, or set "
                             "MLFLOW_TRACKING_URI to one that runs") from None
    return uri


def metric_label(label: Any) -> str:
    """The part of a metric name that names a class: ``class_`` and the label, every character other
    than a letter, a digit, ``_`` or ``-`` replaced by ``_``.

    Parameters
    ----------
    label : object
        The class's label or display name.

    Returns
    -------
    str
        ``"class_<label>"``, as metric names hold it.

    Examples
    --------
    >>> metric_label("spam"), metric_label("a b/c"), metric_label(1.5)
    ('class_spam', 'class_a_b_c', 'class_1_5')
    """
    return "class_" + NOT_IN_LABEL.sub("_", str(label))


@dataclass(frozen=True, repr=False)
class EvaluationRecord:
    """What :func:`log_record` logs into a run: metrics, the names skipped, tags and files, every name
    complete (with its prefix). Made by :func:`evaluation_record`.

    Parameters
    ----------
    metrics : dict of str to float
        Metric name to value (finite numbers only).
    skipped : dict of str to str
        Name to why it is not logged ("undefined (NaN)", "not finite (inf)").
    tags : dict of str to str
        Tag name to value.
    files : dict of str to bytes
        Artifact path (``/``-separated, relative to the run's artifact root) to content.
    prefix : str, optional
        The prefix of every name (default ""); :meth:`with_files` adds it to the names it gets.

    Examples
    --------
    >>> import clfeval
    >>> ev = clfeval.evaluate([0, 1, 1], [0, 1, 0])
    >>> evaluation_record(ev, intervals=False, curves=False, figures=False, artifacts=False, prefix="test.")
    EvaluationRecord(38 metrics, 0 skipped, 3 tags, 0 files, prefix='test.')
    """

    metrics: dict[str, float]
    skipped: dict[str, str]
    tags: dict[str, str]
    files: dict[str, bytes]
    prefix: str = ""

    def __repr__(self) -> str:
        return (f"EvaluationRecord({len(self.metrics)} metrics, {len(self.skipped)} skipped, {len(self.tags)} tags, "
                f"{len(self.files)} files, prefix={self.prefix!r})")

    def with_files(self, files: Mapping[str, str | bytes]) -> EvaluationRecord:
        """This record with ``files`` added or replaced (names relative to the prefix; text is written
        as UTF-8), e.g. a JSON with more entries than the evaluation's own.

        >>> import clfeval
        >>> r = evaluation_record(clfeval.evaluate([0, 1], [0, 1]), intervals=False, curves=False,
        ...                       figures=False, artifacts=False)
        >>> sorted(r.with_files({"notes/readme.txt": "hello"}).files)
        ['notes/readme.txt']
        """
        added = {}
        for name, data in files.items():
            path = self.prefix + name
            check_artifact_path(path)
            added[path] = data.encode() if isinstance(data, str) else bytes(data)
        return replace(self, files={**self.files, **added})


@dataclass(frozen=True)
class LoggedEvaluation:
    """What :func:`log_evaluation` logged, and where.

    Parameters
    ----------
    run_id : str
        The run's id.
    experiment_id : str
        The id of the run's experiment.
    metrics : dict of str to float
        The metrics logged, by name.
    skipped : dict of str to str
        The numbers not logged (NaN or infinite), by the name they would have had, with the reason.
    tags : dict of str to str
        The tags set.
    artifacts : list of str
        The artifact paths logged, relative to the run's artifact root.

    Examples
    --------
    >>> LoggedEvaluation("4f2c", "0", {"accuracy": 0.75}, {}, {}, ["evaluation.json"]).run_id
    '4f2c'
    """

    run_id: str
    experiment_id: str
    metrics: dict[str, float]
    skipped: dict[str, str]
    tags: dict[str, str]
    artifacts: list[str]


def log_evaluation(
    ev: Evaluation,
    *,
    experiment: str | None = None,
    run_id: str | None = None,
    run_name: str | None = None,
    nested: bool = False,
    prefix: str = "",
    intervals: bool | Mapping[str, Any] = True,
    level: float = 0.95,
    method: str = "analytic",
    artifacts: bool = True,
    curves: bool = True,
    figures: bool = True,
    max_points: int | None = 2000,
) -> LoggedEvaluation:
    """Log an evaluation into an MLflow run: its numbers as metrics, its JSON, HTML page, curves and
    plots as artifacts (the names: :mod:`clfeval.integrations.mlflow`).

    The run: ``run_id`` when given; else the active run (:func:`mlflow.active_run`), or with
    ``nested=True`` a new child run of it (in ``experiment``, default its parent's); else a new run,
    in ``experiment`` (created if missing) or MLflow's current experiment. A run started here is
    ended here (FINISHED, or FAILED when logging fails); a run that was already there is left as it
    was. Everything is computed before the run is touched, so an error in the names, the intervals
    or the plots logs nothing.

    Parameters
    ----------
    ev : Evaluation
        The evaluation to log.
    experiment : str, optional
        The name of the experiment of a run started here, created if missing. With an active run
        (and ``nested=False``) it must be that run's experiment. Default None: MLflow's current one.
    run_id : str, optional
        Log into this existing run (which stays as it is, running or ended); not with ``experiment``,
        ``run_name`` or ``nested``.
    run_name : str, optional
        The name of a run started here (MLflow picks one when None).
    nested : bool, optional
        With an active run, start a child run of it (default False: log into the active run).
    prefix : str, optional
        Put before every metric, tag and artifact name (e.g. ``"test."``, or ``"val/"`` for a folder
        of artifacts); letters, digits, ``_``, ``-``, ``.``, ``/`` and spaces. Default "".
    intervals : bool or Intervals, optional
        True (default): log the confidence interval of every number, ``ev.intervals(level,
        method=method)`` (a stream of a multi-class task has none: pass False); False: none; or
        intervals already computed (``ev.intervals(...)``), logged as they are.
    level : float, optional
        Confidence level of ``intervals=True`` (default 0.95).
    method : str, optional
        Interval method of ``intervals=True`` (see :meth:`Evaluation.intervals
        <clfeval.evaluation.Evaluation.intervals>`; default "analytic").
    artifacts : bool, optional
        Log ``evaluation.json`` and ``evaluation.html`` (default True; the page needs plotly).
    curves : bool, optional
        Log the ROC and PR curves as CSV tables (default True; nothing without scores).
    figures : bool, optional
        Log the plots as PNG files (default True; needs matplotlib, ``pip install 'clfeval[plot]'``).
    max_points : int or None, optional
        At most this many points per curve in the tables (default 2000, exact points of the full
        curves: :meth:`Evaluation.compact_curves <clfeval.evaluation.Evaluation.compact_curves>`);
        None: every point.

    Returns
    -------
    LoggedEvaluation
        The run's id, its experiment's id, the metrics logged, the numbers skipped (NaN or
        infinite) and why, the tags and the artifact paths.

    Raises
    ------
    ModuleNotFoundError
        When MLflow is not installed (``pip install 'clfeval[mlflow]'``), before anything is computed.
    ValueError
        Two classes or numbers that would share a metric name, a prefix MLflow refuses, a name over
        MLflow's 250 characters, arguments that contradict the active run; nothing is logged then.

    Examples
    --------
    >>> import tempfile, mlflow, clfeval
    >>> from clfeval.integrations.mlflow import log_evaluation
    >>> store = tempfile.TemporaryDirectory()  # a throw-away MLflow store for this example
    >>> mlflow.set_tracking_uri(f"sqlite:///{store.name}/mlflow.db")
    >>> _ = mlflow.set_experiment(experiment_id=mlflow.create_experiment(
    ...     "toy models", artifact_location=f"file://{store.name}/artifacts"))
    >>> ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8], name="toy")
    >>> logged = log_evaluation(ev, experiment="toy models", figures=False)
    >>> logged.metrics["roc_auc"], logged.metrics["roc_auc_ci_low"] < 0.75
    (0.75, True)

    Inside a run of your own, each fold's numbers under a prefix of their own:

    >>> folds = [clfeval.evaluate([0, 1, 1], [0, 1, 0]), clfeval.evaluate([1, 0, 1], [1, 0, 1])]
    >>> with mlflow.start_run(run_name="cv"):
    ...     for fold, fold_ev in enumerate(folds):
    ...         _ = log_evaluation(fold_ev, prefix=f"fold{fold}.", intervals=False, artifacts=False)
    >>> mlflow.set_tracking_uri(None); store.cleanup()
    """
    require_mlflow()
    check_run_arguments(experiment, run_id, run_name, nested)
    record = evaluation_record(ev, prefix=prefix, intervals=intervals, level=level, method=method,
                               artifacts=artifacts, curves=curves, figures=figures, max_points=max_points)
    return log_record(record, experiment=experiment, run_id=run_id, run_name=run_name, nested=nested)


def evaluation_record(
    ev: Evaluation,
    *,
    prefix: str = "",
    intervals: bool | Mapping[str, Any] = True,
    level: float = 0.95,
    method: str = "analytic",
    artifacts: bool = True,
    curves: bool = True,
    figures: bool = True,
    max_points: int | None = 2000,
) -> EvaluationRecord:
    """Everything :func:`log_evaluation` logs, computed and checked, without MLflow.

    Parameters
    ----------
    ev : Evaluation
        The evaluation.
    prefix : str, optional
        Put before every name (see :func:`log_evaluation`). Default "".
    intervals : bool or Intervals, optional
        True (default): ``ev.intervals(level, method=method)``; False: none; or intervals already computed.
    level : float, optional
        Confidence level of ``intervals=True`` (default 0.95).
    method : str, optional
        Interval method of ``intervals=True`` (default "analytic").
    artifacts : bool, optional
        Add ``evaluation.json`` and ``evaluation.html`` (default True).
    curves : bool, optional
        Add ``curves/roc.csv`` and ``curves/pr.csv`` (default True).
    figures : bool, optional
        Add ``figures/<name>.png`` (default True).
    max_points : int or None, optional
        At most this many points per curve (default 2000; None: all).

    Returns
    -------
    EvaluationRecord
        The metrics, the numbers skipped, the tags and the files.

    Raises
    ------
    ValueError
        Two classes or numbers that would share a metric name, a prefix MLflow refuses, a name over
        250 characters, intervals the evaluation cannot give.

    Examples
    --------
    >>> import clfeval
    >>> ev = clfeval.evaluate(["a+b", "c", "c"], ["a+b", "c", "a+b"])
    >>> r = evaluation_record(ev, figures=False, artifacts=False)
    >>> r.metrics["precision.class_a_b"], r.metrics["accuracy_ci_low"] < 0.667 < r.metrics["accuracy_ci_high"]
    (0.5, True)
    >>> evaluation_record(clfeval.evaluate(["a+b", "a b"], ["a+b", "a b"]), figures=False)
    Traceback (most recent call last):
    ...
    ValueError: the classes 'a b' and 'a+b' would both be named 'class_a_b' in MLflow metric names ...
    """
    check_artifact_path(prefix + "x", what=f"prefix {prefix!r}")
    data = intervals_of(ev, intervals, level, method)
    names = MetricNames(prefix, class_keys([row["label"] for row in ev.report.rows]
                                           + ([] if data is None else list(data.get("labels") or []))))
    report_metrics(names, ev)
    if data is not None:
        interval_metrics(names, data)
    from clfeval import __version__

    tags = {"clfeval.version": __version__, "clfeval.task": ev.task,
            **({} if ev.name is None else {"clfeval.model": str(ev.name)}),
            **({} if data is None else {"clfeval.ci_level": repr(float(data["level"])),
                                        "clfeval.ci_method": str(data.get("method", ""))}),
            SKIPPED_TAG: tag_list(list(names.skipped))}
    tags = {prefix + key: value[:MAX_TAG_LENGTH] for key, value in tags.items()}
    files: dict[str, bytes] = {}
    if artifacts:
        files[JSON_ARTIFACT] = (json_text(ev, data) + "\n").encode()
        files[HTML_ARTIFACT] = html_text(ev, data).encode()
    if curves and ev.has_scores:
        for kind in CURVE_AXES:
            files[f"{CURVES_FOLDER}/{kind}.csv"] = curve_table(ev, kind, max_points).encode()
    if figures:
        from clfeval.plot import render_pngs

        files.update((f"{FIGURES_FOLDER}/{name}", png) for name, png in render_pngs(ev))
    record = EvaluationRecord(names.metrics, names.skipped, tags, {}, prefix)
    return record.with_files(files)


def log_record(record: EvaluationRecord, *, experiment: str | None = None, run_id: str | None = None,
               run_name: str | None = None, nested: bool = False) -> LoggedEvaluation:
    """Log a record (:func:`evaluation_record`) into an MLflow run, chosen as :func:`log_evaluation` says.

    Parameters
    ----------
    record : EvaluationRecord
        What to log.
    experiment : str, optional
        The experiment of a run started here (created if missing); see :func:`log_evaluation`.
    run_id : str, optional
        Log into this existing run.
    run_name : str, optional
        The name of a run started here.
    nested : bool, optional
        With an active run, start a child run of it (default False: log into the active run).

    Returns
    -------
    LoggedEvaluation
        Where it went and what was logged.

    Examples
    --------
    >>> import tempfile, mlflow, clfeval
    >>> store = tempfile.TemporaryDirectory()  # a throw-away MLflow store for this example
    >>> mlflow.set_tracking_uri(f"sqlite:///{store.name}/mlflow.db")
    >>> _ = mlflow.create_experiment("toy models", artifact_location=f"file://{store.name}/artifacts")
    >>> record = evaluation_record(clfeval.evaluate([0, 1, 1], [0, 1, 0]), figures=False)
    >>> logged = log_record(record, experiment="toy models")
    >>> logged.metrics["accuracy"] == 2 / 3, len(logged.run_id)
    (True, 32)
    >>> mlflow.set_tracking_uri(None); store.cleanup()
    """
    mlflow = require_mlflow()
    check_run_arguments(experiment, run_id, run_name, nested)
    from mlflow.tracking import MlflowClient

    client = MlflowClient()
    if run_id is not None:
        run = client.get_run(run_id)
        return log_into(client, run.info.run_id, run.info.experiment_id, record)
    active = mlflow.active_run()
    if active is not None and not nested:
        if run_name is not None:
            raise ValueError(f"run_name={run_name!r} names a new run, but an MLflow run is active "
                             f"({active.info.run_id}) and is the one logged into: pass nested=True for a child run")
        if experiment is not None:
            found = client.get_experiment_by_name(experiment)
            if found is None or found.experiment_id != active.info.experiment_id:
                raise ValueError(f"experiment={experiment!r}, but the active MLflow run ({active.info.run_id}) is in "
                                 f"experiment {active.info.experiment_id}: end that run, leave experiment out to log "
                                 "into it, or pass nested=True for a child run")
        return log_into(client, active.info.run_id, active.info.experiment_id, record)
    if experiment is not None:
        experiment_id = experiment_id_of(client, experiment)
    else:  # a child run goes with its parent; a new run into MLflow's current experiment
        experiment_id = None if active is None else active.info.experiment_id
    with mlflow.start_run(experiment_id=experiment_id, run_name=run_name, nested=active is not None) as run:
        return log_into(client, run.info.run_id, run.info.experiment_id, record)


# -- the pieces ------------------------------------------------------------------------------------


def check_run_arguments(experiment: str | None, run_id: str | None, run_name: str | None, nested: bool) -> None:
    """A ValueError for arguments that choose the run in two ways."""
    if run_id is not None and (experiment is not None or run_name is not None or nested):
        raise ValueError("run_id names the run to log into; experiment, run_name and nested choose a run to "
                         "start: give one or the other")
    if experiment is not None and not str(experiment).strip():
        raise ValueError("experiment: give the name of an MLflow experiment (created if missing), or None")


def experiment_id_of(client: Any, name: str) -> str:
    """The id of the experiment named ``name``, created if missing."""
    found = client.get_experiment_by_name(name)
    if found is None:
        return str(client.create_experiment(name))
    if found.lifecycle_stage == "deleted":
        raise ValueError(f"the MLflow experiment {name!r} is deleted: restore it (mlflow experiments restore "
                         f"--experiment-id {found.experiment_id}) or choose another name")
    return str(found.experiment_id)


def log_into(client: Any, run_id: str, experiment_id: str, record: EvaluationRecord) -> LoggedEvaluation:
    """Log ``record`` into the run ``run_id``: the metrics and tags in batches, then the files."""
    from mlflow.entities import Metric, RunTag

    now = int(time.time() * 1000)
    client.log_batch(run_id, metrics=[Metric(key, value, now, 0) for key, value in record.metrics.items()],
                     tags=[RunTag(key, value) for key, value in record.tags.items()])
    if record.files:
        with tempfile.TemporaryDirectory(prefix="clfeval-mlflow-") as folder:
            for path, data in record.files.items():
                target = Path(folder, *path.split("/"))
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            client.log_artifacts(run_id, folder)
    return LoggedEvaluation(run_id=run_id, experiment_id=str(experiment_id), metrics=dict(record.metrics),
                            skipped=dict(record.skipped), tags=dict(record.tags), artifacts=sorted(record.files))


def check_artifact_path(path: str, what: str | None = None) -> None:
    """A ValueError unless MLflow takes ``path`` as a name: its characters, no ``..``, ``//`` or leading ``/``."""
    if (not NAME_CHARACTERS.fullmatch(path) or path.startswith("/") or posixpath.normpath(path) != path
            or ".." in path.split("/")):
        raise ValueError(f"{what or repr(path)}: MLflow names may hold letters, digits, '_', '-', '.', '/' and spaces, "
                         "without '..', '//', './' or a leading '/' (e.g. 'test.' or 'val/')")


def class_keys(labels: list[Any]) -> dict[str, str]:
    """Each class's display name to its part of a metric name; a ValueError when two share one."""
    keys: dict[str, str] = {}
    owner: dict[str, str] = {}
    for label in labels:
        label = str(label)
        key = metric_label(label)
        if owner.setdefault(key, label) != label:
            first, second = sorted((owner[key], label))
            raise ValueError(f"the classes {first!r} and {second!r} would both be named {key!r} in MLflow metric "
                             "names (a label keeps letters, digits, '_' and '-'; any other character becomes '_'): "
                             "give the classes distinct names" + RENAME_HINT)
        keys[label] = key
    return keys


class MetricNames:
    """The metrics of a record as they are added: each name once (a second is a ValueError naming
    both numbers), finite values logged, NaN and infinities skipped with the reason."""

    def __init__(self, prefix: str, classes: dict[str, str]) -> None:
        self.prefix = prefix
        self.classes = classes
        self.metrics: dict[str, float] = {}
        self.skipped: dict[str, str] = {}
        self.sources: dict[str, str] = {}

    def add(self, name: str, value: Any, source: str) -> None:
        if value is None:  # does not apply (e.g. the micro average's AUC of a binary task)
            return
        full = self.prefix + name
        if full in self.sources:
            raise ValueError(f"{self.sources[full]} and {source} would both be logged as the MLflow metric {full!r}: "
                             "give the classes distinct names" + RENAME_HINT)
        if len(full) > MAX_NAME_LENGTH:
            raise ValueError(f"the MLflow metric name of {source} would be {len(full)} characters long, over MLflow's "
                             f"{MAX_NAME_LENGTH}: {full[:60]!r}...; give the class a shorter name (target_names=)")
        self.sources[full] = source
        number = float(value)
        if math.isnan(number):
            self.skipped[full] = "undefined (NaN)"
        elif math.isinf(number):
            self.skipped[full] = f"not finite ({number})"
        else:
            self.metrics[full] = number

    def of_class(self, label: Any) -> str:
        label = str(label)
        if label not in self.classes:  # pragma: no cover - every label is known up front
            self.classes.update(class_keys([*self.classes, label]))
        return self.classes[label]


def report_metrics(names: MetricNames, ev: Evaluation) -> None:
    """The report's numbers: overall, averaged (not the support) and per class; n_samples, threshold."""
    report = ev.report
    for key, value in report.overall.items():
        names.add(key, value, f"the overall {key}")
    for average, row in report.averages.items():
        for column in report.columns:
            if column != "support":
                names.add(f"{column}.{average}", row.get(column), f"the {average} {column}")
    for row in report.rows:
        key = names.of_class(row["label"])
        for column in report.columns:
            names.add(f"{column}.{key}", row.get(column), f"the {column} of class {row['label']!r}")
    names.add("n_samples", ev.n_samples, "the number of samples")
    if ev.threshold is not None:
        names.add("threshold", ev.threshold, "the threshold")


def interval_metrics(names: MetricNames, data: Mapping[str, Any]) -> None:
    """``<name>_ci_low`` and ``<name>_ci_high`` of every interval."""

    def add(name: str, low: Any, high: Any, source: str) -> None:
        names.add(f"{name}_ci_low", low, f"the low end of the interval of {source}")
        names.add(f"{name}_ci_high", high, f"the high end of the interval of {source}")

    for key, ci in (data.get("overall") or {}).items():
        if ci is not None:
            add(key, ci.low, ci.high, f"the overall {key}")
    for average, table in (data.get("averages") or {}).items():
        for column, ci in (table or {}).items():
            if ci is not None:
                add(f"{column}.{average}", ci.low, ci.high, f"the {average} {column}")
    labels = list(data.get("labels") or [])
    for column, ci in (data.get("per_class") or {}).items():
        if ci is None:
            continue
        lows, highs = np.atleast_1d(ci.low).tolist(), np.atleast_1d(ci.high).tolist()
        for label, low, high in zip(labels, lows, highs):
            add(f"{column}.{names.of_class(label)}", low, high, f"the {column} of class {str(label)!r}")


def intervals_of(ev: Evaluation, intervals: bool | Mapping[str, Any] | None, level: float,
                 method: str) -> Mapping[str, Any] | None:
    """The intervals to log: computed (True), none (False, None) or the caller's."""
    if intervals is None or intervals is False:
        return None
    if intervals is True:
        try:
            return ev.intervals(level, method=method)
        except ValueError as exc:
            raise ValueError(f"intervals=True: {exc} (pass intervals=False to log without intervals)") from None
    if not isinstance(intervals, Mapping) or "level" not in intervals:
        raise TypeError(f"intervals must be True, False or the intervals of Evaluation.intervals(), got "
                        f"{type(intervals).__name__}")
    return intervals


def json_text(ev: Evaluation, data: Mapping[str, Any] | None) -> str:
    """The text of ``ev.to_json()``, with an "intervals" entry for ``data``."""
    from clfeval.evaluation import intervals_to_plain, json_safe

    plain = ev.to_dict()
    if data is not None:
        plain["intervals"] = intervals_to_plain(dict(data))
    return json.dumps(json_safe(plain), indent=2, allow_nan=False)


def html_text(ev: Evaluation, data: Mapping[str, Any] | None) -> str:
    """The page of ``ev.to_html()``, with the intervals of ``data``."""
    from clfeval.evaluation import intervals_to_plain
    from clfeval.report.html import render_html

    item: Any = ev if data is None else {**ev.to_dict(), "intervals": intervals_to_plain(dict(data))}
    return render_html([item])


def curve_table(ev: Evaluation, kind: str, max_points: int | None) -> str:
    """One CSV table of every ROC (or PR) curve of ``ev``: curve, threshold, x, y."""
    curves = getattr(ev, kind) if max_points is None else ev.compact_curves(kind, max(8, int(max_points)))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["curve", "threshold", *CURVE_AXES[kind]])
    for name, curve in curves.items():
        for row in zip(curve.thresholds.tolist(), curve.x.tolist(), curve.y.tolist()):
            writer.writerow([name, *row])
    return out.getvalue()


def tag_list(names: list[str]) -> str:
    """Names joined by ", ", cut to fit a tag: "..., and 12 more"."""
    text = ", ".join(names)
    if len(text) <= MAX_TAG_LENGTH:
        return text
    kept: list[str] = []
    for name in names:
        if len(", ".join([*kept, name])) + 40 > MAX_TAG_LENGTH:
            break
        kept.append(name)
    return ", ".join(kept) + f", and {len(names) - len(kept)} more"
