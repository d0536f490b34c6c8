"""clfeval and the tools around it: :mod:`clfeval.integrations.mlflow` logs an evaluation into an
MLflow run (``pip install 'clfeval[mlflow]'``).

Each integration imports its tool only when it is called, so ``import clfeval`` never needs it.
"""

from __future__ import annotations

__all__: list[str] = []
