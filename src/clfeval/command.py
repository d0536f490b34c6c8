"""Kept for one release for the old import path ``clfeval.command``; use :mod:`clfeval.cli` instead.

The ``clfeval`` command's entry point is now :func:`clfeval.cli.main` (the console script is
``clfeval = "clfeval.cli:main"``); it installs the handling of Ctrl-C, SIGTERM and SIGHUP before
numpy and the rest load, as this module's ``main`` did. This module only re-exports that
:func:`main` and the names of :mod:`clfeval.support.signals` it used to hold, and will be removed.

>>> exc = Interrupted(15)
>>> exc.status
143
>>> from clfeval import cli
>>> main is cli.main
True
"""

from __future__ import annotations

from clfeval.cli import main
from clfeval.support.signals import (SIGNALS, Interrupted, install_signal_handlers, interruption_message, restore_signal_handlers,
                      signals_deferred)

__all__ = ["Interrupted", "main", "install_signal_handlers", "signals_deferred", "interruption_message",
           "restore_signal_handlers", "SIGNALS"]
