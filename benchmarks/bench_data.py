"""Deterministic synthetic benchmark data (binary and multi-class).

Arrays are built in place where possible so that the largest input (a 10^7 x 10 float64
probability matrix, 800 MB) exists exactly once, and are marked read-only so that a metric that
mutates its input fails loudly instead of silently changing the data the next call sees.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BINARY", "MULTICLASS", "N_CLASSES", "AGREEMENT", "Dataset", "make_dataset", "task_label"]

BINARY = "binary"
MULTICLASS = "multiclass"
N_CLASSES = {BINARY: 2, MULTICLASS: 10}
AGREEMENT = 0.7  # fraction of hard predictions equal to the truth
_SIGNAL = 1.5  # logit bonus of the true class: makes the scores informative but imperfect


@dataclass(frozen=True)
class Dataset:
    """One task's inputs: labels 0..k-1, hard predictions, and scores.

    ``y_score`` is a 1-D probability of class 1 for binary tasks and an (n, k) matrix of
    row-normalised probabilities for multi-class tasks.
    """

    task: str
    n_classes: int
    y_true: np.ndarray
    y_pred: np.ndarray
    y_score: np.ndarray

    @property
    def nbytes(self) -> int:
        """Total size of the arrays in bytes."""
        return self.y_true.nbytes + self.y_pred.nbytes + self.y_score.nbytes


def task_label(task: str) -> str:
    """Short display name of a task, e.g. ``binary`` or ``10-class``."""
    return BINARY if task == BINARY else f"{N_CLASSES[task]}-class"


def _hard_predictions(rng: np.random.Generator, y_true: np.ndarray, k: int) -> np.ndarray:
    """Predictions equal to ``y_true`` with probability AGREEMENT, else a uniformly drawn other class."""
    y_pred = rng.integers(1, k, size=y_true.size)  # offset to a *different* class
    y_pred += y_true
    y_pred %= k
    keep = rng.random(y_true.size) < AGREEMENT
    np.copyto(y_pred, y_true, where=keep)
    return y_pred


def _binary_scores(rng: np.random.Generator, y_true: np.ndarray) -> np.ndarray:
    """P(class 1) = sigmoid(noisy logit): continuous float64 in (0, 1), valid for log_loss too."""
    logit = rng.standard_normal(y_true.size)
    logit += np.where(y_true == 1, _SIGNAL, -_SIGNAL)
    np.negative(logit, out=logit)
    np.exp(logit, out=logit)
    logit += 1.0
    return np.reciprocal(logit, out=logit)


def _class_probabilities(rng: np.random.Generator, y_true: np.ndarray, k: int) -> np.ndarray:
    """Row-wise softmax of standard-normal logits with a bonus on the true class, computed in place."""
    proba = rng.standard_normal((y_true.size, k))
    proba[np.arange(y_true.size), y_true] += _SIGNAL
    proba -= proba.max(axis=1, keepdims=True)
    np.exp(proba, out=proba)
    proba /= proba.sum(axis=1, keepdims=True)
    return proba


def make_dataset(task: str, n: int, seed: int) -> Dataset:
    """Generate the data of ``task`` with ``n`` samples; the same (task, n, seed) gives the same data."""
    k = N_CLASSES[task]
    rng = np.random.default_rng([seed, n, k])
    y_true = rng.integers(0, k, size=n)
    y_pred = _hard_predictions(rng, y_true, k)
    y_score = _binary_scores(rng, y_true) if task == BINARY else _class_probabilities(rng, y_true, k)
    for array in (y_true, y_pred, y_score):
        array.flags.writeable = False
    return Dataset(task, k, y_true, y_pred, y_score)
