"""Hypothesis tests and model comparison, with results in the manner of ``scipy.stats``.

Two classifiers on the same cases: :func:`mcnemar`, :func:`delong`, :func:`paired_bootstrap_test`,
:func:`paired_permutation_test`. Intervals of single numbers: :func:`delong_auc_ci` and
:mod:`clfeval.uncertainty` (:func:`bootstrap_ci`).

>>> from clfeval.stats import mcnemar
>>> mcnemar([1, 1, 0, 0, 1, 0], [1, 1, 0, 1, 1, 0], [0, 1, 0, 0, 0, 0]).pvalue
1.0
"""

from __future__ import annotations

from ..uncertainty import bootstrap_ci
from ._result import ConfidenceInterval, TestResult
from .delong import delong, delong_auc_ci
from .mcnemar import mcnemar, mcnemar_table
from .paired import paired_bootstrap_test, paired_permutation_test

__all__ = [
    "ConfidenceInterval",
    "TestResult",
    "bootstrap_ci",
    "delong",
    "delong_auc_ci",
    "mcnemar",
    "mcnemar_table",
    "paired_bootstrap_test",
    "paired_permutation_test",
]
