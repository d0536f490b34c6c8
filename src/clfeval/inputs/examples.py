"""Built-in example data, shipped inside the package (nothing is downloaded).

* :func:`load_iris_example`: Fisher's iris measurements with leave-one-out predictions.
* :func:`load_demo`: the data behind ``clfeval demo``: a binary (breast cancer) and a multi-class
  (handwritten digits) example, each with out-of-fold predictions of two models that have the
  same hard predictions, hence the same confusion matrix, but different ROC curves. The files
  ``data/demo_*.csv`` are made by ``scripts/make_demo_data.py``.

Iris: the predictions come from a nearest-centroid classifier on the sepal measurements only (so that
it makes mistakes worth looking at), fitted without the sample being predicted (leave-one-out).
Nothing is downloaded; the data file ships inside the package.

>>> ex = load_iris_example()
>>> ex.y_true.shape, ex.y_score.shape
((150,), (150, 3))
>>> demo_kinds()
('binary', 'multiclass')
>>> list(load_demo("binary").models)
['logistic regression', 'naive Bayes (2 features), remapped']
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

__all__ = ["Example", "load_iris_example", "ModelPredictions", "Demo", "load_demo", "demo_kinds"]


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


# --------------------------------------------------------------------------------------------
# demo data (``clfeval demo``)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelPredictions:
    """One model's out-of-fold predictions on a demo data set, read from one CSV file.

    ``y_score``: binary, the probability of the positive class (1-D); multi-class, one column per
    class in the order of ``Demo.classes``. ``path``: the CSV file (a valid ``clfeval report``
    input on its own).
    """

    name: str
    y_pred: np.ndarray
    y_score: np.ndarray
    path: Path


@dataclass(frozen=True)
class Demo:
    """A demo data set: true labels and the predictions of two models, keyed by model name."""

    key: str
    title: str
    description: str
    classes: np.ndarray
    pos_label: str | None
    y_true: np.ndarray
    models: dict[str, ModelPredictions]


# Single source of truth for the demo files; scripts/make_demo_data.py writes exactly these.
# key -> (title, description, pos_label, ((model name, file name), ...))
_DEMOS: dict[str, tuple[str, str, str | None, tuple[tuple[str, str], ...]]] = {
    "binary": (
        "Breast cancer: malignant or benign (binary)",
        "The Breast Cancer Wisconsin (Diagnostic) data set (UCI; 569 tumours, 30 features, as "
        "shipped with scikit-learn), positive class malignant. Out-of-fold probabilities from "
        "stratified 5-fold cross-validation of a logistic regression, and of a naive Bayes model "
        "on two features whose scores were remapped so that it makes exactly the same decisions "
        "at threshold 0.5 (same confusion matrix) but ranks the tumours differently (different "
        "ROC curve).",
        "malignant",
        (
            ("logistic regression", "demo_breast_cancer_logistic_regression.csv"),
            ("naive Bayes (2 features), remapped", "demo_breast_cancer_naive_bayes_remapped.csv"),
        ),
    ),
    "multiclass": (
        "Handwritten digits 0-9 (multi-class)",
        "The UCI optical recognition of handwritten digits data set (1797 images of 8x8 pixels, "
        "10 classes, as shipped with scikit-learn). Out-of-fold class probabilities from "
        "stratified 5-fold cross-validation of a logistic regression, and of a naive Bayes model "
        "on the ink in the four image quadrants whose probability columns were swapped per row "
        "so that its argmax equals the logistic regression's prediction (same confusion matrix) "
        "while its scores rank the images differently (different ROC curves).",
        None,
        (
            ("logistic regression", "demo_digits_logistic_regression.csv"),
            ("naive Bayes (4 quadrant features), remapped", "demo_digits_naive_bayes_remapped.csv"),
        ),
    ),
}


def demo_kinds() -> tuple[str, ...]:
    """The demo data sets :func:`load_demo` knows.

    >>> demo_kinds()
    ('binary', 'multiclass')
    """
    return tuple(_DEMOS)


def _read_demo_csv(file_name: str) -> tuple[Path, list[str], list[list[str]]]:
    path = Path(str(resources.files("clfeval").joinpath("data", file_name)))
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    return path, rows[0], rows[1:]


def load_demo(kind: str = "binary") -> Demo:
    """Load a demo data set: ``"binary"`` (breast cancer) or ``"multiclass"`` (digits).

    Both models of a demo make the same hard predictions (threshold 0.5 on the probability of
    ``pos_label`` for binary, argmax for multi-class) but score the samples differently.

    >>> demo = load_demo("binary")
    >>> demo.y_true.shape, demo.pos_label, demo.classes.tolist()
    ((569,), 'malignant', ['benign', 'malignant'])
    >>> lr = demo.models["logistic regression"]
    >>> bool((lr.y_pred == np.where(lr.y_score >= 0.5, "malignant", "benign")).all())
    True
    >>> digits = load_demo("multiclass")
    >>> digits.classes.tolist() == list(range(10)), digits.models["logistic regression"].y_score.shape
    (True, (1797, 10))
    >>> load_demo("iris")
    Traceback (most recent call last):
    ...
    ValueError: unknown demo kind 'iris'; choose one of: 'binary', 'multiclass'.
    """
    if kind not in _DEMOS:
        choices = ", ".join(repr(k) for k in _DEMOS)
        raise ValueError(f"unknown demo kind {kind!r}; choose one of: {choices}.")
    title, description, pos_label, files = _DEMOS[kind]
    y_true: np.ndarray | None = None
    classes: np.ndarray | None = None
    models: dict[str, ModelPredictions] = {}
    for name, file_name in files:
        path, header, rows = _read_demo_csv(file_name)
        if kind == "binary":
            if header != ["y_true", "y_pred", "y_score"]:
                raise ValueError(f"{path}: unexpected columns {header}")
            yt = np.array([r[0] for r in rows])
            yp = np.array([r[1] for r in rows])
            score = np.array([float(r[2]) for r in rows])
            cls = np.unique(yt)
        else:
            cls = np.array([int(h[len("proba_"):]) for h in header[2:]])
            if header[:2] != ["y_true", "y_pred"] or header[2:] != [f"proba_{c}" for c in cls]:
                raise ValueError(f"{path}: unexpected columns {header}")
            yt = np.array([int(r[0]) for r in rows])
            yp = np.array([int(r[1]) for r in rows])
            score = np.array([[float(v) for v in r[2:]] for r in rows])
        if y_true is None:
            y_true, classes = yt, cls
        elif not np.array_equal(y_true, yt):
            raise ValueError(f"{path}: y_true differs from the other model's file")
        models[name] = ModelPredictions(name, yp, score, path)
    assert y_true is not None and classes is not None
    return Demo(kind, title, description, classes, pos_label, y_true, models)
