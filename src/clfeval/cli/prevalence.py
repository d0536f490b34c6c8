"""``clfeval report --prevalence P``: a binary task's measures at the positive class's prevalence P.

A single number 0 < P < 1 stands alone (with or without ``--cost``, which it also weighs); several
class shares only weigh ``--cost`` (and need it). Errors are one line, exit 2, quoting the option as
typed.

>>> import argparse
>>> read_at_prevalence(argparse.Namespace(prevalence="0.05", cost=None, argv=None))
0.05
>>> read_at_prevalence(argparse.Namespace(prevalence="0.2,0.8", cost="0,1;1,0", argv=None)) is None
True
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from clfeval.cli.options import UsageError, read_numbers, typed

__all__ = ["read_at_prevalence", "with_prevalence", "at_prevalence_entry"]


def read_at_prevalence(args: argparse.Namespace) -> float | None:
    """The positive class's prevalence of ``--prevalence P`` (one number), None without it or for class
    shares (which need ``--cost``); a UsageError for P of 0 or 1 without ``--cost``, or for shares
    without ``--cost``."""
    text = getattr(args, "prevalence", None)
    if text is None:
        return None
    shown = f"--prevalence {typed(getattr(args, 'argv', None), '--prevalence', text)}"
    values = read_numbers(text, "--prevalence")
    has_cost = getattr(args, "cost", None) is not None
    if len(values) > 1:
        if not has_cost:
            raise UsageError(f"{shown}: several class shares weigh the costs: give --cost too (a single number "
                             "0 < P < 1 is a binary task's positive prevalence, e.g. --prevalence 0.05)")
        return None
    p = values[0]
    if not 0.0 < p < 1.0:
        if has_cost and 0.0 <= p <= 1.0:
            return None  # a share of 0 or 1 still weighs the costs; measures at it are undefined
        raise UsageError(f"{shown}: the positive class's prevalence must be strictly between 0 and 1 (at 0 or 1 "
                         "PPV or NPV is undefined), e.g. --prevalence 0.05")
    return p


def with_prevalence(ev: Any, prevalence: float | None, text: str | None, argv: Any = None) -> Any:
    """``ev`` holding ``prevalence`` (None: unchanged); a UsageError for a task that is not binary."""
    if prevalence is None:
        return ev
    if ev.task != "binary":
        shown = f"--prevalence {typed(argv, '--prevalence', text)}"
        raise UsageError(f"{shown}: one number is the positive class's prevalence of a binary task; the data are "
                         f"{ev.task} ({len(ev.names)} classes: {', '.join(ev.names[:8])}"
                         f"{', ...' if len(ev.names) > 8 else ''}); to weigh --cost, give one share per class")
    return replace(ev, prevalence=prevalence)


def at_prevalence_entry(ev: Any, level: float | None) -> dict[str, Any]:
    """The report's "at_prevalence" entry (intervals at ``level``; None: none)."""
    return ev.at_prevalence(level=level).to_dict()
