"""``python -m clfeval`` is the ``clfeval`` command (see :mod:`clfeval.command` and :mod:`clfeval.cli`).

>>> callable(main)
True
"""

from __future__ import annotations

import sys

from .command import main

if __name__ == "__main__":
    sys.exit(main())
