"""``clfeval report --mlflow EXPERIMENT``: the evaluation logged into a new run of an MLflow experiment
(:mod:`clfeval.integrations.mlflow`), under the command's safety rules.

* Checked first, before any input is read: MLflow must import (else one line naming the extra,
  ``pip install 'clfeval[mlflow]'``, exit 2) and the tracking store MLflow's settings name
  (``MLFLOW_TRACKING_URI``) must be one this MLflow can log to (exit 2, saying what to change).
* Prepared with the other outputs, before any file is written: the metric names (two classes
  whose names clash are an error, exit 1, nothing written), the JSON and HTML page (the very
  bytes ``--json`` and ``--html`` write), the curves and the plots.
* Logged only once every file asked for is written; a failure then is one line (exit 1) that
  says the files were written. MLflow's own messages go to standard error, never into ``--json -``.

The HTML page and the plots are logged when plotly and matplotlib are installed; a note says
which were left out and which extra adds them.

>>> missing_extras({"plotly": False, "matplotlib": True})
["the HTML page (plotly is missing: pip install 'clfeval[report]')"]
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import sys
from typing import TYPE_CHECKING, Any

from clfeval.cli.options import PROG, UsageError
from clfeval.support.staged_outputs import OutputError

if TYPE_CHECKING:
    from rich.console import Console

    from clfeval.evaluation import Evaluation
    from clfeval.integrations.mlflow import EvaluationRecord

__all__ = ["MlflowOutput", "missing_extras"]

#: skipped metric names a note lists before "and N more"
NOTE_NAMES = 5


@contextlib.contextmanager
def quiet_loggers(*names: str) -> Any:
    """Raise the named loggers to WARNING for the block (their INFO lines are not the command's)."""
    loggers = [logging.getLogger(name) for name in names]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(max(lg.getEffectiveLevel(), logging.WARNING))
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


def missing_extras(found: dict[str, bool]) -> list[str]:
    """What is left out of the run for want of ``found``'s missing modules, each with its extra."""
    out = []
    if not found.get("plotly", True):
        out.append("the HTML page (plotly is missing: pip install 'clfeval[report]')")
    if not found.get("matplotlib", True):
        out.append("the plots (matplotlib is missing: pip install 'clfeval[plot]')")
    return out


class MlflowOutput:
    """``--mlflow EXPERIMENT``: checked when made, its record prepared with the other outputs
    (:meth:`record`, :meth:`with_outputs`), logged after them (:meth:`log`)."""

    def __init__(self, experiment: str) -> None:
        if not experiment.strip():
            raise UsageError("--mlflow: give the name of an MLflow experiment (created if missing)")
        from clfeval.integrations.mlflow import check_tracking_store

        try:
            self.uri = check_tracking_store()
        except ImportError as exc:
            raise UsageError(f"--mlflow: {exc}") from None
        except ValueError as exc:
            raise UsageError(f"--mlflow {experiment}: {exc}") from None
        self.experiment = experiment
        found = {name: importlib.util.find_spec(name) is not None for name in ("plotly", "matplotlib")}
        self.html = found["plotly"]
        self.figures = found["matplotlib"]
        self.left_out = missing_extras(found)

    def record(self, ev: Evaluation, intervals: Any) -> EvaluationRecord:
        """The run's metrics (with ``intervals``, from --ci) and curves; a ValueError (exit 1) when two
        classes would share a metric name, before anything is rendered."""
        from clfeval.integrations.mlflow import RENAME_HINT, evaluation_record

        try:
            return evaluation_record(ev, intervals=False if intervals is None else intervals, artifacts=False,
                                     figures=False)
        except ValueError as exc:  # the classes as the file names them: rename them there
            raise ValueError(f"--mlflow {self.experiment}: {str(exc).replace(RENAME_HINT, ' in the file')}") from None

    def with_outputs(self, record: EvaluationRecord, json_bytes: bytes, html_bytes: bytes | None,
                     pngs: list[tuple[str, bytes]]) -> EvaluationRecord:
        """``record`` with the command's own JSON, page and plots (the bytes its files get)."""
        from clfeval.integrations.mlflow import FIGURES_FOLDER, HTML_ARTIFACT, JSON_ARTIFACT

        files = {JSON_ARTIFACT: json_bytes, **({} if html_bytes is None else {HTML_ARTIFACT: html_bytes}),
                 **{f"{FIGURES_FOLDER}/{name}": data for name, data in pngs}}
        return record.with_files(files)

    def log(self, record: EvaluationRecord, console: Console, wrote: bool) -> None:
        """Log ``record`` into a new run; one line on the console says which; ``wrote``: whether files
        were written before (a failure's message says so)."""
        from clfeval.integrations.mlflow import SKIPPED_TAG, log_record

        try:
            # MLflow's messages never go into `--json -`; its INFO lines (a new database's set-up) not at all
            with contextlib.redirect_stdout(sys.stderr), quiet_loggers("mlflow", "alembic"):
                logged = log_record(record, experiment=self.experiment)
        except (KeyboardInterrupt, UsageError):
            raise
        except Exception as exc:
            done = "; the files above were written" if wrote else ""
            raise OutputError(f"--mlflow {self.experiment}: logging to MLflow ({self.uri}) failed: "
                              f"{type(exc).__name__}: {exc}{done}") from None
        console.print(f"logged to MLflow experiment {self.experiment!r} ({self.uri}): run {logged.run_id}, "
                      f"{len(logged.metrics)} metrics, {len(logged.artifacts)} artifacts",
                      markup=False, highlight=False, soft_wrap=True)
        for what in self.left_out:
            print(f"{PROG}: note: --mlflow: {what} not logged", file=sys.stderr)
        if logged.skipped:
            names = list(logged.skipped)
            more = f", and {len(names) - NOTE_NAMES} more" if len(names) > NOTE_NAMES else ""
            print(f"{PROG}: note: --mlflow: {len(names)} numbers not logged as metrics (undefined: NaN, or "
                  f"infinite), listed in the run's tag {SKIPPED_TAG}: {', '.join(names[:NOTE_NAMES])}{more}",
                  file=sys.stderr)
