"""Hypothesis tests and model comparison, with results in the manner of ``scipy.stats``.

Two classifiers on the same cases: :func:`mcnemar`, :func:`delong`, :func:`paired_bootstrap_test`,
:func:`paired_permutation_test`; two models' multi-class AUCs: :func:`delong_average` (one-vs-rest),
:func:`delong_ovo` (Hand & Till's M); partial ROC areas: :func:`delong_partial`. Two learning algorithms across resamplings:
:func:`paired_ttest_5x2cv`, :func:`combined_ftest_5x2cv`, :func:`corrected_resampled_ttest`,
:func:`corrected_repeated_kfold_ttest` (and, under a name that warns, the uncorrected test).
Several classifiers over several data sets (Demšar 2006): :func:`wilcoxon`, :func:`sign_test`,
:func:`friedman` (with Iman-Davenport), :func:`nemenyi`, :func:`bonferroni_dunn`, :func:`holm`;
an error rate against a hypothesised rate: :func:`binomial_test`. Intervals of single numbers:
:func:`delong_auc_ci` and :mod:`clfeval.uncertainty` (:func:`bootstrap_ci`).

>>> from clfeval.stats import mcnemar
>>> mcnemar([1, 1, 0, 0, 1, 0], [1, 1, 0, 1, 1, 0], [0, 1, 0, 0, 0, 0]).pvalue
1.0
"""

from __future__ import annotations

from typing import Any

from clfeval.stats._result import ConfidenceInterval, TestResult
from clfeval.stats.delong import delong, delong_auc_ci, delong_average, delong_average_ci
from clfeval.stats.hand_till import delong_ovo, delong_ovo_ci
from clfeval.stats.partial_delong import delong_partial
from clfeval.stats.mcnemar import mcnemar, mcnemar_table
from clfeval.stats.paired import paired_bootstrap_test, paired_permutation_test
from clfeval.stats.ranks import binomial_test, bonferroni_dunn, friedman, holm, holm_control, nemenyi, sign_test, wilcoxon
from clfeval.stats.resampled import (
    combined_ftest_5x2cv,
    corrected_repeated_kfold_ttest,
    corrected_resampled_ttest,
    paired_ttest_5x2cv,
    uncorrected_resampled_ttest,
)

__all__ = [
    "ConfidenceInterval",
    "TestResult",
    "binomial_test",
    "bonferroni_dunn",
    "bootstrap_ci",
    "combined_ftest_5x2cv",
    "corrected_repeated_kfold_ttest",
    "corrected_resampled_ttest",
    "delong",
    "delong_auc_ci",
    "delong_average",
    "delong_average_ci",
    "delong_ovo",
    "delong_ovo_ci",
    "delong_partial",
    "friedman",
    "holm",
    "holm_control",
    "mcnemar",
    "mcnemar_table",
    "nemenyi",
    "paired_bootstrap_test",
    "paired_permutation_test",
    "paired_ttest_5x2cv",
    "sign_test",
    "uncorrected_resampled_ttest",
    "wilcoxon",
]


def __getattr__(name: str) -> Any:
    # bootstrap_ci lives in clfeval.uncertainty, which imports this package's result types:
    # importing it lazily keeps either import order working
    if name == "bootstrap_ci":
        from clfeval.uncertainty import bootstrap_ci

        return bootstrap_ci
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
