"""
Cross-validation: average the folds, or pool their predictions?
===============================================================

After a k-fold cross-validation there are two ways to get one number. *Averaging* computes the
metric on each fold and takes the mean. *Pooling* gathers every out-of-fold prediction and
computes the metric once. For accuracy the two agree. For metrics that are ratios of small counts
(F1, MCC) or that depend on the ranking within a test set (average precision, ROC AUC) they do
not, and when a fold holds only a handful of positives, the average starts to depend on how many
folds you chose. This example shows it on a rare-positive version of the breast cancer data.
"""

# %%
# Twenty malignant tumours among 377
# ----------------------------------
# We keep every benign tumour and 20 malignant ones drawn at random (5% positives), and three
# weak measurements, so that the task is hard. An SVM with balanced class weights is
# cross-validated with 2 to 20 folds, each protocol repeated ten times; with 20 folds each test
# fold holds a single malignant tumour.

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

import clfeval
from clfeval.plot import FoldMetricsDisplay
from clfeval.protocols import KFold

data = load_breast_cancer()
rng = np.random.default_rng(0)
malignant = rng.choice(np.flatnonzero(data.target == 0), 20, replace=False)
rows = np.concatenate([np.flatnonzero(data.target == 1), malignant])
columns = [list(data.feature_names).index(c) for c in ("mean texture", "mean smoothness", "mean symmetry")]
X = data.data[rows][:, columns]
y = np.where(data.target[rows] == 0, "malignant", "benign")
model = make_pipeline(StandardScaler(), SVC(class_weight="balanced"))

metrics = {"accuracy": "accuracy", "f1": "F1 (malignant)", "mcc": "MCC", "roc_auc": "ROC AUC",
           "average_precision": "average precision"}
n_folds = [2, 3, 5, 10, 20]
runs = {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", clfeval.UndefinedMetricWarning)
    for k in n_folds:
        runs[k] = clfeval.cross_evaluate(model, X, y, KFold(k, n_repeats=10, random_state=0),
                                         pos_label="malignant", name=f"SVM, {k}-fold", progress=False)
for w in caught:
    print(f"{w.category.__name__}: {w.message}")

short = {"accuracy": "accuracy", "f1": "F1", "mcc": "MCC", "roc_auc": "ROC AUC", "average_precision": "AP"}
print(f"{'k':>3} {'pos./fold':>9}  " + "  ".join(f"{short[m]:^13}" for m in metrics))
for k, cv in runs.items():
    cells = "  ".join(f"{cv.mean_value(m):.3f} / {cv.pooled_value(m):.3f}" for m in metrics)
    print(f"{k:3d} {20 / k:9.1f}  {cells}")
print("(each cell: mean over folds / pooled)")

# %%
# The picture
# -----------
# The warning printed above is part of the story: in a few small test folds the SVM predicted
# no malignant tumour at all, so that fold's precision is 0/0. clfeval says so once for the whole
# run, leaves those values out of the fold's macro averages, and keeps going.
#
# Solid lines are the averages over folds, dashed lines the pooled values. Accuracy is the
# same either way. The pooled values of the other metrics barely move with the number of folds:
# they are what the learner achieves. The averages drift upwards as the folds shrink, average
# precision most of all: with one positive in a test fold, the fold's average precision is 1/r,
# where r is that tumour's rank among the fold's scores. It is 1 whenever the tumour happens to
# be ranked first, and the mean of such numbers is not the average precision of the learner.

fig, ax = plt.subplots(figsize=(8, 5), layout="constrained")
for (m, label), color in zip(metrics.items(), plt.rcParams["axes.prop_cycle"].by_key()["color"]):
    ax.plot(n_folds, [runs[k].mean_value(m) for k in n_folds], "o-", color=color,
            label=f"{label}: mean of folds")
    ax.plot(n_folds, [runs[k].pooled_value(m) for k in n_folds], "s--", color=color, alpha=0.7,
            label=f"{label}: pooled")
ax.set_xscale("log")
ax.set_xticks(n_folds, [str(k) for k in n_folds])
ax.minorticks_off()
ax.set(xlabel="number of folds k (10 repetitions each)", ylabel="estimate",
       title="Averaging folds vs pooling their predictions")
ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
ax.grid(True, color="0.92")
plt.show()

# %%
# What the folds look like
# ------------------------
# With 20 folds each fold's F1, MCC and average precision can take only a few values, and the
# average precision is often exactly 1. The box plot shows the two hundred fold values beside the
# mean (with its interval) and the pooled value (hollow diamond).

FoldMetricsDisplay.from_cross_evaluation(runs[20], ["f1", "mcc", "roc_auc", "average_precision"])
plt.show()

print("distinct fold values of average precision, 20 folds:",
      np.unique(np.round(runs[20].values("average_precision"), 3)).size)
ap_folds = np.asarray(runs[20].values("average_precision"))
print(f"share of folds with average precision 1: {np.mean(ap_folds == 1):.3f}")

# %%
# Which one to report
# -------------------
# * For a *point estimate* of F1, MCC or average precision with few positives per fold, pool
#   (Forman and Scholz, 2010): it does not depend on k. ``cv.pooled`` is one evaluation of all the
#   out-of-fold predictions, with its full report and curves.
# * Pooled ROC AUC and average precision rank together scores from different fold models; a
#   learner whose scores shift from fold to fold loses a little there, as the slightly lower
#   pooled AUC shows.
# * For an *interval*, use the folds: ``cv.summary()`` (mean and corrected interval). The pooled
#   evaluation of a repeated protocol counts every sample once per repetition, so its own
#   intervals would be too narrow; ``cv.pooled_by_repeat`` holds one pooled evaluation per
#   repetition, each sample once.

print(runs[10].pooling)
print(runs[10].summary(metrics=["f1", "average_precision"]))
