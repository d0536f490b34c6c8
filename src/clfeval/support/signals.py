"""Signals that stop the command cleanly: SIGINT (Ctrl-C), SIGTERM and SIGHUP become
:class:`Interrupted` once :func:`install_signal_handlers` ran; :func:`signals_deferred` holds one
back while a set of output files is moved into place, so the set is completed, and raises it
right after; :func:`interruption_message` says truly what was written.

Only the standard library is imported here: :func:`clfeval.cli.main` installs the handlers before
numpy and the rest load.

>>> exc = Interrupted(15)
>>> isinstance(exc, KeyboardInterrupt), exc.signum, exc.status, exc.name
(True, 15, 143, 'SIGTERM')
>>> with signals_deferred():
...     pass
>>> raised_signal()
0
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["SIGNALS", "Interrupted", "install_signal_handlers", "restore_signal_handlers", "signals_deferred",
           "interruption_message", "raised_signal"]

#: the signals that stop the command cleanly (staged outputs removed, one line, 128 + number)
SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))

_deferral = {"depth": 0, "pending": 0, "raised": 0}


class Interrupted(KeyboardInterrupt):
    """A signal that stops the command (a KeyboardInterrupt, so ``except KeyboardInterrupt`` sees it)."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signum)
        self.signum = int(signum)

    @property
    def status(self) -> int:
        """The exit status: 128 + the signal's number."""
        return 128 + self.signum

    @property
    def name(self) -> str:
        try:
            return signal.Signals(self.signum).name
        except ValueError:  # pragma: no cover
            return f"signal {self.signum}"


def _handler(signum: int, frame: object) -> None:
    if _deferral["depth"]:
        _deferral["pending"] = _deferral["pending"] or signum
        return
    _deferral["raised"] = signum
    raise Interrupted(signum)


def install_signal_handlers() -> dict[int, object]:
    """Make SIGINT, SIGTERM and SIGHUP raise :class:`Interrupted`; returns the previous handlers
    (for :func:`restore_signal_handlers`). A signal the caller ignores stays ignored (``nohup``
    ignores SIGHUP). Does nothing outside the main thread."""
    previous: dict[int, object] = {}
    for sig in SIGNALS:
        try:
            if signal.getsignal(sig) is signal.SIG_IGN:  # ignored by the caller (nohup, a background job): kept so
                continue
            previous[sig] = signal.signal(sig, _handler)
        except (ValueError, OSError):  # not the main thread, or not settable here
            break
    return previous


def restore_signal_handlers(previous: dict[int, object]) -> None:
    """Put back the handlers :func:`install_signal_handlers` replaced."""
    for sig, handler in previous.items():
        if handler is not None:
            signal.signal(sig, handler)  # type: ignore[arg-type]


@contextmanager
def signals_deferred(reraise: bool = True) -> Iterator[None]:
    """Hold SIGINT/SIGTERM/SIGHUP back inside the block (when this module's handlers are
    installed); the first one that arrived is raised as :class:`Interrupted` as the block ends,
    or dropped with ``reraise=False`` (for cleanup on the way out anyway)."""
    _deferral["depth"] += 1
    try:
        yield
    finally:
        _deferral["depth"] -= 1
        if not _deferral["depth"] and _deferral["pending"]:
            signum, _deferral["pending"] = _deferral["pending"], 0
            if reraise:
                raise Interrupted(signum)


def interruption_message(exc: BaseException) -> tuple[str, int]:
    """The one line (without ``clfeval: error:``) and the exit status for an interruption, saying
    truly what was written (the outputs are moved into place all together, or not at all)."""
    signum = exc.signum if isinstance(exc, Interrupted) else int(signal.SIGINT)
    name = Interrupted(signum).name
    outputs = sys.modules.get(f"{__package__}.staged_outputs")
    written, writing = outputs.progress() if outputs is not None else ([], None)
    if writing is not None:
        done = f"; {', '.join(written)} written" if written else ""
        what = f"interrupted ({name}) while writing {writing} (it may be incomplete){done}"
    elif written:
        what = f"interrupted ({name}) after writing {', '.join(written)}"
    else:
        what = f"interrupted ({name}); nothing was written"
    return what, 128 + signum


def raised_signal() -> int:
    """The number of the last signal a handler raised as :class:`Interrupted` (0 if none): an
    error that follows it (an import the signal broke) is still an interruption."""
    return _deferral["raised"]

