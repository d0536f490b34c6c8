"""The ``clfeval`` command's entry point: signal handling first, everything heavy after.

Ctrl-C (SIGINT), SIGTERM and SIGHUP become :class:`~clfeval.signals.Interrupted` from the first
line of this module on, also while numpy and the rest are still being imported; :func:`main`
turns one into a single line (``clfeval: error: interrupted (SIGINT); nothing was written``) and
exit status 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM), never a traceback. Only
the standard library and :mod:`clfeval.signals` are imported here; :mod:`clfeval.cli` is imported
inside :func:`main`, after the handlers are in place.

>>> exc = Interrupted(15)
>>> exc.status
143
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .signals import (SIGNALS, Interrupted, install_signal_handlers, interruption_message, raised_signal,
                      restore_signal_handlers, signals_deferred)

__all__ = ["Interrupted", "main", "install_signal_handlers", "signals_deferred", "interruption_message",
           "restore_signal_handlers", "SIGNALS"]


def main(argv: Sequence[str] | None = None) -> int:
    """The ``clfeval`` console command: handlers first, then :func:`clfeval.cli.main`."""
    try:
        install_signal_handlers()
        # held back while the heavy modules load: a C extension (numpy's) that is interrupted while
        # importing turns the KeyboardInterrupt into an ImportError; the signal is raised right after
        with signals_deferred():
            from .cli import main as cli_main

        return cli_main(argv)
    except KeyboardInterrupt as exc:  # while importing, or anywhere cli.main does not catch it
        return _report_interruption(exc)
    except Exception as exc:  # an error a signal caused (an import it broke): still an interruption
        if not raised_signal():
            raise
        return _report_interruption(Interrupted(raised_signal()))


def _report_interruption(exc: BaseException) -> int:
    with signals_deferred(reraise=False):
        text, status = interruption_message(exc)
        sys.stderr.write(f"clfeval: error: {text}\n")
        sys.stderr.flush()
    return status
