"""Atomic file writes and a description of the machine the benchmark ran on."""

from __future__ import annotations

import os
import platform
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["write_text_atomic", "machine_info"]


def _new_file_mode(path: Path) -> int:
    """The mode a plain write would give ``path``: its current mode, or 0o666 less the umask."""
    if path.exists():
        return stat.S_IMODE(path.stat().st_mode)
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary ``*.tmp`` file in the same folder and a rename.

    Readers see either the old or the new content, never a partial file; the text is written
    verbatim (no newline translation).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as tmp:
            tmp.write(text)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.chmod(tmp_name, _new_file_mode(path))  # mkstemp creates 0o600
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


def _cpu_model() -> str:
    """CPU model name (from /proc/cpuinfo on Linux, else the platform module)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib() -> float | None:
    """Physical memory in GiB, where the OS tells."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (AttributeError, ValueError, OSError):
        return None


def machine_info() -> dict[str, Any]:
    """CPU, usable cores, memory, OS and Python of this machine."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    memory = _memory_gib()
    return {
        "cpu": _cpu_model(),
        "cores": usable,
        "memory_gib": None if memory is None else round(memory, 1),
        "os": platform.platform(),
        "python": sys.version.split()[0],
    }
