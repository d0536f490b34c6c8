"""The benchmarked calls and their required speed-ups (the single source of the target list)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bench_data import BINARY, MULTICLASS, Dataset

__all__ = ["Case", "CASES", "TARGET_N", "case_names"]

TARGET_N = 10**7  # the size at which the required speed-ups and memory bound are checked

_PRED = "y_pred"
_SCORE = "y_score"


@dataclass(frozen=True)
class Case:
    """One metric call: ``func(y_true, <second>, **kwargs)`` on the data of ``task``.

    ``min_speedup`` is the required sklearn/clfeval time ratio at TARGET_N (None: no speed target;
    the peak-memory bound applies to every case).
    """

    func: str
    task: str
    second: str  # which Dataset field is the second positional argument: "y_pred" or "y_score"
    kwargs: dict[str, Any] = field(default_factory=dict)
    min_speedup: float | None = None

    @property
    def label(self) -> str:
        """The call as it reads, e.g. ``f1_score(average='macro')``."""
        args = ", ".join(f"{key}={value!r}" for key, value in self.kwargs.items())
        return f"{self.func}({args})" if args else self.func

    def args(self, data: Dataset) -> tuple[Any, Any]:
        """Positional arguments of the call on ``data``."""
        return data.y_true, getattr(data, self.second)


def _both(func: str, second: str, kwargs: dict[str, Any] | None = None, min_speedup: float | None = None) -> list[Case]:
    """The same call on the binary and the multi-class task."""
    return [Case(func, task, second, dict(kwargs or {}), min_speedup) for task in (BINARY, MULTICLASS)]


CASES: tuple[Case, ...] = (
    *_both("confusion_matrix", _PRED, min_speedup=15),
    *_both("precision_recall_fscore_support", _PRED, {"average": None}, min_speedup=15),
    *_both("f1_score", _PRED, {"average": "macro"}, min_speedup=15),
    *_both("balanced_accuracy_score", _PRED, min_speedup=15),
    *_both("classification_report", _PRED, min_speedup=30),
    *_both("accuracy_score", _PRED),
    *_both("matthews_corrcoef", _PRED),
    *_both("cohen_kappa_score", _PRED),
    Case("roc_auc_score", BINARY, _SCORE, min_speedup=10),
    Case("roc_auc_score", MULTICLASS, _SCORE, {"multi_class": "ovr"}, min_speedup=8),
    Case("roc_auc_score", MULTICLASS, _SCORE, {"multi_class": "ovo"}, min_speedup=8),
    Case("roc_curve", BINARY, _SCORE, min_speedup=10),
    Case("precision_recall_curve", BINARY, _SCORE, min_speedup=10),
    Case("average_precision_score", BINARY, _SCORE, min_speedup=10),
    *_both("log_loss", _SCORE),
    Case("top_k_accuracy_score", MULTICLASS, _SCORE, {"k": 2}),
)


def case_names() -> list[str]:
    """The distinct function names, in benchmark order."""
    return list(dict.fromkeys(case.func for case in CASES))
