"""Built-in example data: Fisher's iris measurements with leave-one-out predictions.

The predictions come from a nearest-centroid classifier on the sepal measurements only (so that
it makes mistakes worth looking at), fitted without the sample being predicted (leave-one-out).
Nothing is downloaded; the data file ships inside the package.

>>> ex = load_iris_example()
>>> ex.y_true.shape, ex.y_score.shape
((150,), (150, 3))
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib import resources

import numpy as np

__all__ = ["Example", "load_iris_example"]


@dataclass(frozen=True)
class Example:
    """Labels, hard predictions and class probabilities of one classifier on one data set."""

    name: str
    classes: np.ndarray
    y_true: np.ndarray
    y_pred: np.ndarray
    y_score: np.ndarray


def _read_iris() -> tuple[np.ndarray, np.ndarray]:
    text = resources.files("clfeval").joinpath("data/iris.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(text.splitlines()))[1:]
    features = np.array([[float(v) for v in r[:4]] for r in rows])
    species = np.array([r[4] for r in rows])
    return features, species


def load_iris_example() -> Example:
    """Iris species (150 flowers, 3 classes) with leave-one-out nearest-centroid predictions."""
    features, species = _read_iris()
    x = features[:, :2]  # sepal length and width only
    classes = np.unique(species)
    onehot = species[:, None] == classes[None, :]
    sums = onehot.T.astype(float) @ x  # (k, 2)
    sizes = onehot.sum(axis=0).astype(float)
    # leave-one-out centroids: remove each sample from its own class centroid
    loo_sums = sums[None, :, :] - onehot[:, :, None] * x[:, None, :]
    loo_sizes = sizes[None, :] - onehot
    centroids = loo_sums / loo_sizes[:, :, None]
    dist2 = ((x[:, None, :] - centroids) ** 2).sum(axis=-1)
    logits = -dist2 / dist2.mean()
    proba = np.exp(logits - logits.max(axis=1, keepdims=True))
    proba /= proba.sum(axis=1, keepdims=True)
    y_pred = classes[np.argmin(dist2, axis=1)]
    return Example("iris (sepal-only nearest centroid, leave-one-out)", classes, species, y_pred, proba)
