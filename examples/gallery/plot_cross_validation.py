"""
Cross-validation with full evaluations per fold
===============================================

Cross-validation estimates how well a *way of building models* works on data like yours. Each
fold fits a model on part of the data and tests it on the rest; the folds' numbers are then
averaged. :func:`clfeval.cross_evaluate` runs any evaluation protocol and keeps a complete
evaluation for every fold, so the mean of any number, its interval, the folds' curves and a
comparison between two learners all come from one run. This example compares a logistic
regression and naive Bayes on the breast cancer data with five repetitions of stratified 10-fold
cross-validation.
"""

# sphinx_gallery_thumbnail_number = 2

# %%
# Fifty folds for each learner
# ----------------------------
# A protocol from :mod:`clfeval.protocols` says how to split; with the same ``random_state`` both
# learners see exactly the same folds, which the comparison below relies on.

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import clfeval
from clfeval.plot import CrossValidationCurveDisplay, FoldMetricsDisplay
from clfeval.protocols import KFold

data = load_breast_cancer()
X = data.data
y = np.where(data.target == 0, "malignant", "benign")

protocol = KFold(10, n_repeats=5, random_state=0)
print(protocol.description)
lr = clfeval.cross_evaluate(make_pipeline(StandardScaler(), LogisticRegression()), X, y, protocol,
                            pos_label="malignant", name="logistic regression", progress=False)
nb = clfeval.cross_evaluate(GaussianNB(), X, y, protocol, pos_label="malignant", name="naive Bayes",
                            progress=False)

# %%
# Every fold is a full evaluation
# -------------------------------
# ``cv.folds[i].evaluation`` is the same object ``clfeval.evaluate`` returns, and ``to_frame()``
# puts one row per fold with the sizes, the times and the metrics.

print(lr.folds[0].evaluation.confusion.counts)
print(lr.to_frame()[["repeat", "n_train", "n_test", "accuracy", "f1", "roc_auc"]].head(12))

# %%
# The summary: mean, interval, pooled
# -----------------------------------
# ``summary()`` averages each metric over the folds and gives it an interval. The folds are not
# independent (any two training sets share most of their rows), so the naive t interval is too
# narrow; the default ``method="corrected"`` widens it with Nadeau and Bengio's correction. The
# last column, "pooled", is the metric of all out-of-fold predictions evaluated at once.

metrics = ["accuracy", "balanced_accuracy", "f1", "mcc", "roc_auc"]
print(lr.summary(metrics=metrics))
print(lr.summary(metrics=["accuracy"], method="t"))

# %%
# Comparing the two learners
# --------------------------
# ``compare`` pairs the folds (the same training and test rows for both) and, because this
# protocol repeats a k-fold split, chooses Bouckaert and Frank's corrected repeated k-fold t
# test.

for metric in ("accuracy", "roc_auc"):
    comparison = lr.compare(nb, metric)
    ci = comparison.confidence_interval()
    print(comparison)
    print(f"   difference {ci.estimate:+.4f}, 95% interval [{ci.low:+.4f}, {ci.high:+.4f}]")

# %%
# The folds side by side
# ----------------------
# ``FoldMetricsDisplay`` shows the fifty fold values of each metric as points over a box, the
# mean with its corrected interval, and the pooled value as a hollow diamond. Naive Bayes is
# lower on every metric, and more variable.

FoldMetricsDisplay.from_cross_evaluation([lr, nb], ["accuracy", "balanced_accuracy", "f1", "mcc", "roc_auc"])
plt.show()

# %%
# The folds' curves and their mean
# --------------------------------
# ``CrossValidationCurveDisplay`` draws each fold's ROC or precision-recall curve thinly, their
# vertical average thickly, and a band for the mean (again with the corrected variance).

fig, axes = plt.subplots(1, 2, figsize=(10.5, 5), layout="constrained")
CrossValidationCurveDisplay.from_cross_evaluation(lr, "roc", ax=axes[0])
CrossValidationCurveDisplay.from_cross_evaluation(nb, "roc", ax=axes[1])
for ax in axes:  # the interesting part is the top left corner
    ax.set(xlim=(-0.01, 0.4), ylim=(0.6, 1.01))
plt.show()

# %%
# The same for the precision-recall curves of naive Bayes, zoomed on the upper right corner,
# where the folds differ: in a few folds a benign tumour scores higher than almost every
# malignant one, and the precision stays below 1 even at low recall.

disp = CrossValidationCurveDisplay.from_cross_evaluation(nb, "pr")
disp.ax_.set(xlim=(0.4, 1.01), ylim=(0.4, 1.01))
disp.ax_.legend(loc="lower left")
plt.show()
