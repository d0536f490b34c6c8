"""A small progress bar for the ``clfeval`` command's long steps, on standard error.

One line, redrawn in place (``\\r``) while the steps run and erased when they end::

    clfeval [#########...............] 2/5 paired tests A vs B  3.1 s

It appears only when standard error is a terminal and the work has run longer than
:data:`DELAY` seconds (so quick commands print nothing extra), never in pipes, files or tests,
unless forced: ``force=True`` (the command's ``--progress``) or the environment variable
``CLFEVAL_PROGRESS=1`` draw it from the first step on, wherever standard error goes;
``force=False`` (``--no-progress``) or ``CLFEVAL_PROGRESS=0`` never draw it. A background thread
redraws it every :data:`INTERVAL` seconds, so a single long step still shows its elapsed time.
Only the standard library is used.

>>> import io
>>> out = io.StringIO()
>>> with Progress(2, force=True, stream=out) as bar:
...     with bar.step("reading"):
...         pass
...     with bar.step("evaluating"):
...         pass
>>> "1/2 evaluating" in out.getvalue(), out.getvalue().endswith("\\r")
(True, True)
>>> with Progress(2, stream=io.StringIO()) as bar:  # not a terminal, not forced: nothing drawn
...     bar.enabled
False
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, TextIO

__all__ = ["Progress", "progress_wanted", "DELAY", "INTERVAL"]

#: seconds of work before a bar appears on a terminal (unless forced)
DELAY = 1.0
#: seconds between redraws
INTERVAL = 0.2
#: width of the bar itself, in characters
BAR_WIDTH = 24


def progress_wanted(force: bool | None, stream: Any) -> tuple[bool, bool]:
    """(draw at all, draw from the start): ``force`` (the command's flags) first, then the
    environment variable ``CLFEVAL_PROGRESS`` (1/0), else only when ``stream`` is a terminal.

    >>> import io
    >>> progress_wanted(None, io.StringIO()), progress_wanted(True, io.StringIO()), progress_wanted(False, None)
    ((False, False), (True, True), (False, False))
    """
    if force is not None:
        return bool(force), bool(force)
    env = os.environ.get("CLFEVAL_PROGRESS", "").strip().lower()
    if env in ("1", "true", "yes", "always"):
        return True, True
    if env in ("0", "false", "no", "never"):
        return False, False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty()), False
    except (ValueError, OSError):  # a closed stream
        return False, False


class Progress:
    """A progress bar over ``total`` steps (see the module). Use as a context manager; each
    ``with bar.step(label):`` block is one step."""

    def __init__(self, total: int, *, force: bool | None = None, stream: TextIO | None = None,
                 delay: float = DELAY) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.enabled, immediate = progress_wanted(force, self.stream)
        self.total = max(1, int(total))
        self.done = 0
        self.label = ""
        self.delay = 0.0 if immediate else delay
        self._start = time.monotonic()
        self._shown = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Progress:
        self._start = time.monotonic()
        if self.enabled:
            self._thread = threading.Thread(target=self._run, name="clfeval-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Stop redrawing and erase the line (if one was drawn)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._lock:
            if self._shown:
                self._write("\r" + " " * self._width() + "\r")
                self._shown = False

    @contextlib.contextmanager
    def step(self, label: str) -> Iterator[None]:
        """One step named ``label``: shown while it runs, counted when it ends."""
        with self._lock:
            self.label = label
        self._draw()
        try:
            yield
        finally:
            with self._lock:
                self.done = min(self.total, self.done + 1)

    # -- drawing ----------------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.wait(INTERVAL):
            self._draw()

    def _width(self) -> int:
        return max(20, shutil.get_terminal_size((80, 24)).columns - 1)

    def line(self) -> str:
        """The bar's text now (without the leading ``\\r``)."""
        filled = BAR_WIDTH * self.done // self.total
        elapsed = time.monotonic() - self._start
        text = f"clfeval [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {self.done}/{self.total} {self.label}  " \
               f"{elapsed:.1f} s"
        width = self._width()
        return text if len(text) <= width else text[: width - 3] + "..."

    def _draw(self) -> None:
        if not self.enabled or self._stop.is_set():
            return
        if time.monotonic() - self._start < self.delay:
            return
        with self._lock:
            text = self.line()
            self._write("\r" + text.ljust(self._width()))
            self._shown = True

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: stop drawing
            self.enabled = False
