"""Make the demo data of ``clfeval demo``: ``src/clfeval/data/demo_*.csv``.

Usage::

    python scripts/make_demo_data.py            # writes src/clfeval/data/demo_*.csv
    python scripts/make_demo_data.py --out DIR  # writes the files into DIR instead

Needs scikit-learn (both data sets ship with it; nothing is downloaded). Deterministic: fixed
seeds everywhere, so a second run reproduces the files byte for byte (on the same platform and
library versions; the files were made with scikit-learn 1.9.1).

How each file was made
----------------------
All predictions are out-of-fold: ``cross_val_predict`` with
``StratifiedKFold(n_splits=5, shuffle=True, random_state=0)``, so every sample is predicted by a
model that did not see it. Each demo has two models, "A" and "B", whose *hard predictions are
identical* (so their confusion matrices are equal) but whose *scores rank the samples
differently* (so their ROC curves and AUCs differ).

Binary: breast cancer (``sklearn.datasets.load_breast_cancer``, 569 tumours, 30 features,
classes "malignant"/"benign"; the positive class, the one to detect, is "malignant").
Columns ``y_true,y_pred,y_score``; ``y_score`` is the probability of "malignant" and
``y_pred = "malignant" if y_score >= 0.5 else "benign"``.

* ``demo_breast_cancer_logistic_regression.csv`` (A): ``StandardScaler`` + ``LogisticRegression``
  on all 30 features; ``y_score`` = its out-of-fold probability of malignant (6 significant
  digits).
* ``demo_breast_cancer_naive_bayes_remapped.csv`` (B): ``GaussianNB`` on two features only
  ("mean texture", "mean smoothness"), out-of-fold log-odds of malignant. These are remapped to
  agree with A's decisions: the tumours A calls malignant get evenly spaced scores in (0.5, 1),
  the others evenly spaced scores in (0, 0.5), each group in naive Bayes' order (ties stay ties).
  So ``y_pred`` is A's, while within each group the ranking is naive Bayes'.

Multi-class: handwritten digits (``sklearn.datasets.load_digits``, 1797 images of 8x8 pixels,
classes 0-9). Columns ``y_true,y_pred,proba_0,...,proba_9`` (probability of each class, rounded
to 6 decimal places to keep the files small); ``y_pred`` = the argmax (always unique).

* ``demo_digits_logistic_regression.csv`` (A): ``StandardScaler`` + ``LogisticRegression`` on the
  64 pixels; out-of-fold class probabilities.
* ``demo_digits_naive_bayes_remapped.csv`` (B): ``GaussianNB`` on 4 features, the total ink in
  each quadrant (4x4 pixels) of the image; out-of-fold class probabilities, then, in every row,
  the entries of naive Bayes' top class and of A's predicted class are swapped. Each row stays a
  probability vector, its argmax is A's prediction, but the scores of the other classes (and the
  confidence) are naive Bayes'.

The script checks what the tests check (same confusion matrices, decisions unchanged by
rounding, unique argmax, rows summing to 1) and prints the ROC AUCs.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import numpy as np
from scipy.stats import rankdata
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix, roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from clfeval.inputs.examples import _DEMOS

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "src" / "clfeval" / "data"
SEED = 0
POS, NEG = "malignant", "benign"


def _cv() -> StratifiedKFold:
    return StratifiedKFold(n_splits=5, shuffle=True, random_state=SEED)


def _logistic_regression():
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000))


def _write(path: Path, header: list[str], rows: list[list[str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def _fmt_sig(x: float) -> str:
    """6 significant digits."""
    return f"{x:.6g}"


def _fmt_dec(x: float) -> str:
    """6 decimal places, without trailing zeros ("0" for values below 5e-7)."""
    s = f"{x:.6f}".rstrip("0").rstrip(".")
    return "0" if s in ("", "-0") else s


def _round_binary(score: np.ndarray) -> np.ndarray:
    """Round to what is written; make sure no decision (score >= 0.5) changes."""
    out = np.array([float(_fmt_sig(v)) for v in score])
    crossed = (out >= 0.5) != (score >= 0.5)
    if crossed.any():  # a value just below 0.5 that rounds up to 0.5: keep it below
        out[crossed] = 0.499999
    assert ((out >= 0.5) == (score >= 0.5)).all()
    return out


def _round_rows(proba: np.ndarray) -> np.ndarray:
    out = np.vectorize(lambda v: float(_fmt_dec(v)))(proba)
    top2 = np.sort(out, axis=1)[:, -2:]
    assert (top2[:, 1] > top2[:, 0]).all(), "rounding made an argmax tie"
    assert (out.argmax(axis=1) == proba.argmax(axis=1)).all()
    assert np.abs(out.sum(axis=1) - 1).max() < 1e-5
    return out


def make_binary(out_dir: Path) -> None:
    data = load_breast_cancer()
    x, target = data.data, data.target
    names = np.asarray(data.target_names)[target]  # target 0 = malignant, 1 = benign
    is_pos = names == POS
    # model A: logistic regression on all features
    proba_a = cross_val_predict(_logistic_regression(), x, names, cv=_cv(), method="predict_proba")
    score_a = _round_binary(proba_a[:, list(np.unique(names)).index(POS)])
    pred_a = np.where(score_a >= 0.5, POS, NEG)
    # model B: naive Bayes on two features, its malignant log-odds remapped into A's halves
    features = [list(data.feature_names).index(f) for f in ("mean texture", "mean smoothness")]
    logp = cross_val_predict(GaussianNB(), x[:, features], names, cv=_cv(), method="predict_log_proba")
    order = list(np.unique(names))
    log_odds = logp[:, order.index(POS)] - logp[:, order.index(NEG)]
    score_b = np.empty(len(names))
    for group, low in ((pred_a == POS, 0.5), (pred_a == NEG, 0.0)):
        ranks = rankdata(log_odds[group], method="average")  # 1..n, in naive Bayes' order
        score_b[group] = low + 0.5 * (ranks - 0.5) / group.sum()  # inside (low, low + 0.5)
    score_b = _round_binary(score_b)
    pred_b = np.where(score_b >= 0.5, POS, NEG)
    assert (pred_a == pred_b).all()
    assert (confusion_matrix(names, pred_a) == confusion_matrix(names, pred_b)).all()

    _, _, _, files = _DEMOS["binary"]
    for (model, file_name), score, pred in zip(files, (score_a, score_b), (pred_a, pred_b)):
        rows = [[t, p, _fmt_sig(s)] for t, p, s in zip(names, pred, score)]
        _write(out_dir / file_name, ["y_true", "y_pred", "y_score"], rows)
        print(f"binary  {model:45s} ROC AUC {roc_auc_score(is_pos, score):.4f}  -> {file_name}")


def make_multiclass(out_dir: Path) -> None:
    x, y = load_digits(return_X_y=True)
    classes = np.unique(y)
    rows_idx = np.arange(len(y))
    # model A: logistic regression on the 64 pixels
    proba_a = cross_val_predict(_logistic_regression(), x, y, cv=_cv(), method="predict_proba")
    pred_a = classes[proba_a.argmax(axis=1)]
    # model B: naive Bayes on the ink per image quadrant, columns swapped to agree with A
    quadrants = x.reshape(-1, 2, 4, 2, 4).sum(axis=(2, 4)).reshape(-1, 4)
    proba_nb = cross_val_predict(GaussianNB(), quadrants, y, cv=_cv(), method="predict_proba")
    top_nb = proba_nb.argmax(axis=1)
    top_a = proba_a.argmax(axis=1)
    proba_b = proba_nb.copy()
    proba_b[rows_idx, top_a] = proba_nb[rows_idx, top_nb]
    proba_b[rows_idx, top_nb] = proba_nb[rows_idx, top_a]
    proba_a, proba_b = _round_rows(proba_a), _round_rows(proba_b)
    pred_b = classes[proba_b.argmax(axis=1)]
    assert (pred_a == pred_b).all()

    _, _, _, files = _DEMOS["multiclass"]
    header = ["y_true", "y_pred"] + [f"proba_{c}" for c in classes]
    for (model, file_name), proba, pred in zip(files, (proba_a, proba_b), (pred_a, pred_b)):
        rows = [[str(t), str(p)] + [_fmt_dec(v) for v in row] for t, p, row in zip(y, pred, proba)]
        _write(out_dir / file_name, header, rows)
        auc = roc_auc_score(y, proba, multi_class="ovr", average="macro")
        print(f"digits  {model:45s} ROC AUC {auc:.4f} (ovr macro) -> {file_name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    make_binary(args.out)
    make_multiclass(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
