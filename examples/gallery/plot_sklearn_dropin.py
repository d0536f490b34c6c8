"""
A drop-in for scikit-learn's metrics and displays
=================================================

Code written against ``sklearn.metrics`` keeps working when the import changes to
:mod:`clfeval.metrics`: the same function names, arguments, defaults and results. The four
scikit-learn displays (ROC, precision-recall, DET and confusion matrix) are drop-ins too, with
``from_estimator``, ``from_predictions`` and ``from_cv_results``, and draw what scikit-learn draws.
This example runs the same calls through both libraries on the wine data, compares the numbers,
and draws scikit-learn-style plots with clfeval, including a DET curve and the curves of every
fold of a ``cross_validate`` run.
"""

# %%
# The same calls, the same numbers
# --------------------------------
# One cultivar of the wine data against the other two, with a logistic regression on four of the
# thirteen measurements so that the task is not trivial.

import matplotlib.pyplot as plt
import numpy as np
import sklearn.metrics as skm
from sklearn.datasets import load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_validate, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import clfeval.metrics as cm
from clfeval.plot import (
    ConfusionMatrixDisplay,
    DetCurveDisplay,
    PrecisionRecallDisplay,
    RocCurveDisplay,
)

wine = load_wine()
X = wine.data[:, [0, 1, 3, 4]]  # alcohol, malic acid, alcalinity of ash, magnesium
y = (wine.target == 1).astype(int)  # cultivar B against the rest
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0, stratify=y)
model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
pred, score = model.predict(X_test), model.predict_proba(X_test)[:, 1]

calls = {
    "accuracy_score": (pred, {}),
    "balanced_accuracy_score": (pred, {}),
    "f1_score": (pred, {}),
    "fbeta_score": (pred, {"beta": 2}),
    "matthews_corrcoef": (pred, {}),
    "cohen_kappa_score": (pred, {}),
    "roc_auc_score": (score, {}),
    "average_precision_score": (score, {}),
    "log_loss": (score, {}),
    "brier_score_loss": (score, {}),
}
for name, (argument, options) in calls.items():
    ours = getattr(cm, name)(y_test, argument, **options)
    theirs = getattr(skm, name)(y_test, argument, **options)
    print(f"{name:>24}: clfeval {ours:.12f}   scikit-learn {theirs:.12f}   diff {abs(ours - theirs):.1e}")

print(cm.classification_report(y_test, pred, target_names=["other", "cultivar B"]))

# %%
# And a few it adds, with the same conventions (``pos_label``, ``average``, ``zero_division``):

print(f"specificity {cm.specificity_score(y_test, pred):.4f}, NPV {cm.npv_score(y_test, pred):.4f}, "
      f"fall-out {cm.fallout_score(y_test, pred):.4f}, error rate {cm.error_rate(y_test, pred):.4f}")

# %%
# A metric at every threshold
# ---------------------------
# ``metric_at_thresholds`` is scikit-learn 1.9's sweep of a metric over every threshold. When the
# metric is one clfeval knows, even scikit-learn's own ``f1_score``, clfeval computes all
# thresholds in one sorted pass instead of one call per threshold.

f1, thresholds = cm.metric_at_thresholds(y_test, score, skm.f1_score)
best = np.argmax(f1)
print(f"best F1 {f1[best]:.3f} at threshold {thresholds[best]:.3f} ({thresholds.size} thresholds)")

# %%
# The displays, scikit-learn style
# --------------------------------
# ``from_estimator`` and ``from_predictions`` draw exactly what scikit-learn's displays draw:
# the same points, legend text and colours. The DET curve plots the two error rates on normal
# deviate scales, which spreads out the region near zero where good classifiers live. The
# confusion matrix comes in scikit-learn's viridis.

fig, axes = plt.subplots(2, 2, figsize=(10, 9.5), layout="constrained")
RocCurveDisplay.from_estimator(model, X_test, y_test, ax=axes[0, 0], plot_chance_level=True)
PrecisionRecallDisplay.from_predictions(y_test, score, ax=axes[0, 1], plot_chance_level=True,
                                        name="LogisticRegression")
DetCurveDisplay.from_estimator(model, X_test, y_test, ax=axes[1, 0])
ConfusionMatrixDisplay.from_estimator(model, X_test, y_test, normalize="true", ax=axes[1, 1],
                                      display_labels=["other", "cultivar B"])
plt.show()

# %%
# The curves of every fold
# ------------------------
# ``from_cv_results`` takes the dictionary ``cross_validate(..., return_estimator=True,
# return_indices=True)`` returns and draws one curve per fold, with scikit-learn's
# "AUC = mean ± std" legend.

cv_results = cross_validate(make_pipeline(StandardScaler(), LogisticRegression()), X, y,
                            cv=StratifiedKFold(5, shuffle=True, random_state=0),
                            return_estimator=True, return_indices=True)
fig, (ax_roc, ax_pr) = plt.subplots(1, 2, figsize=(11, 5), layout="constrained")
RocCurveDisplay.from_cv_results(cv_results, X, y, ax=ax_roc, plot_chance_level=True)
PrecisionRecallDisplay.from_cv_results(cv_results, X, y, ax=ax_pr)
plt.show()

# %%
# clfeval's own view of the same model is one keyword away: ``from_evaluation`` adds the
# operating point, the break-even point, iso-F1 curves and confidence bands (see the other
# examples of this gallery).
