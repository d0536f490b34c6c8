"""The progress bar shown while large input files are read (rich, on standard error), and when to show it.

>>> want_progress(10, None), want_progress(10, True)
(False, True)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["PROGRESS_MIN_BYTES", "ProgressBar", "want_progress"]

#: files at least this large get a progress bar (when stderr is a terminal)
PROGRESS_MIN_BYTES = 64 * 2**20


def want_progress(size: int, progress: bool | None) -> bool:
    """Show a bar: as asked, or for ``size`` bytes of files or more when stderr is a terminal."""
    if progress is not None:
        return progress
    import sys

    return size >= PROGRESS_MIN_BYTES and sys.stderr.isatty()


class ProgressBar:
    """A rich progress bar on stderr; ``with ProgressBar(path, total, unit) as advance``
    (``unit``: "bytes", else rows), ``advance(n)`` for each ``n`` more read."""

    def __init__(self, path: Path, total: int, unit: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

        cols: list[Any] = [TextColumn("reading {task.description}"), BarColumn()]
        cols.append(DownloadColumn() if unit == "bytes" else TextColumn("{task.completed:,}/{task.total:,} rows"))
        cols.append(TimeRemainingColumn())
        self._progress = Progress(*cols, console=Console(stderr=True), transient=True)
        self._task = self._progress.add_task(path.name, total=total)

    def __enter__(self) -> Callable[[int], None]:
        self._progress.start()
        return lambda n: self._progress.advance(self._task, n)

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()
