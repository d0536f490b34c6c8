"""Write one file all at once or not at all (see :mod:`clfeval.support.staged_outputs` for several).

The file is staged unnamed (``O_TMPFILE``, or a hidden ``.clfeval-staged-*`` name where the file
system lacks it) in the target's folder and linked into place only when the block succeeds; a
symlink is written through to its target, a FIFO or device directly.

>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
>>> with atomic_write(target) as f:
...     _ = f.write("hello")
>>> target.read_text(), [p.name for p in target.parent.iterdir()]
('hello', ['out.txt'])
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from clfeval.support.staged_outputs import staged_file

__all__ = ["atomic_write"]


@contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO]:
    """Open a staged file for ``path``; it replaces ``path`` only if the block succeeds.

    On an error (or Ctrl-C) the staged file is removed and ``path`` is left as it was. A missing
    folder is a ``FileNotFoundError``, a folder given as ``path`` an ``IsADirectoryError``; a
    file that cannot be written (a full disk, a read-only folder) a
    :class:`~clfeval.support.staged_outputs.OutputError` (an ``OSError``) naming it.
    """
    target = Path(path)
    real = Path(os.path.realpath(target))
    if real.is_dir():
        raise IsADirectoryError(f"cannot write {target}: it is a folder; give a file name.")
    if not real.parent.is_dir():
        folder = target.parent if not target.parent.is_dir() else real.parent
        raise FileNotFoundError(f"cannot write {target}: folder {folder} does not exist.")
    with staged_file(target, mode, None if "b" in mode else encoding) as f:
        yield f
