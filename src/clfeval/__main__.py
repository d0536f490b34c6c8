"""``python -m clfeval`` is the ``clfeval`` command (:func:`clfeval.cli.main`).

>>> callable(main)
True
"""

from __future__ import annotations

import sys

from clfeval.cli import main

if __name__ == "__main__":
    sys.exit(main())
