"""
ROC and precision-recall curves, operating points and the break-even point
==========================================================================

A score ranks the cases; a threshold turns the ranking into decisions. The ROC curve and the
precision-recall (PR) curve show every decision the ranking allows, and on each of them the
model's actual predictions are one point, the *operating point*. This example draws both curves
for three models of the breast cancer data, marks where each model operates at its default
threshold, and finds other points by rule: Youden's J, the best F1, the break-even point where
precision equals recall, and the best precision with a guaranteed recall.
"""

# %%
# Three models, three kinds of score
# ----------------------------------
# A logistic regression gives smooth probabilities; Gaussian naive Bayes gives probabilities
# pushed towards 0 and 1; a depth-3 decision tree gives only as many distinct scores as it has
# leaves, so many tumours share a score.

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import clfeval
from clfeval.plot import PrecisionRecallDisplay, RocCurveDisplay

data = load_breast_cancer()
diagnosis = np.where(data.target == 0, "malignant", "benign")
X_train, X_test, y_train, y_test = train_test_split(
    data.data, diagnosis, test_size=0.5, random_state=1, stratify=diagnosis
)
models = {
    "logistic regression": make_pipeline(StandardScaler(), LogisticRegression(C=0.1)),
    "naive Bayes": GaussianNB(),
    "decision tree (depth 3)": DecisionTreeClassifier(max_depth=3, random_state=0),
}
evaluations = []
for name, model in models.items():
    model.fit(X_train, y_train)
    p = model.predict_proba(X_test)[:, list(model.classes_).index("malignant")]
    evaluations.append(clfeval.evaluate(y_test, y_score=p, pos_label="malignant", name=name))
    print(f"{name:>24}: {np.unique(p).size:3d} distinct scores, "
          f"ROC AUC {evaluations[-1].report.overall['roc_auc']:.4f}, "
          f"AP {evaluations[-1].report.overall['average_precision']:.4f}")

# %%
# Both curves, all models
# -----------------------
# ``from_evaluations`` draws several models on one axes, each with its operating point at
# threshold 0.5. On the ROC plot the tree's few distinct scores show as straight segments: a
# group of tied cases moves the curve diagonally, because no threshold can separate them. The PR
# plot marks each model's break-even point; its dashed line is the prevalence of malignant
# tumours, the precision of a model that guesses at random.

fig, (ax_roc, ax_pr) = plt.subplots(1, 2, figsize=(10.5, 5), layout="constrained")
RocCurveDisplay.from_evaluations(evaluations, ax=ax_roc)
PrecisionRecallDisplay.from_evaluations(evaluations, ax=ax_pr)
ax_roc.set_title("ROC curves")
ax_pr.set_title("Precision-recall curves")
plt.show()

# %%
# Where each model sits
# ---------------------
# Each curve keeps its points, thresholds and area, and the operating point of the predictions:

for ev in evaluations:
    roc, pr = ev.roc.main, ev.pr.main
    print(f"{ev.name:>24}: {roc.x.size:3d} ROC points, operating point FPR {roc.operating_point.x:.3f}, "
          f"TPR {roc.operating_point.y:.3f}; break-even {ev.break_even.value:.3f} "
          f"at threshold {ev.break_even.threshold:.3g}")

# %%
# Operating points chosen by rule
# -------------------------------
# ``ev.operating_point(rule)`` searches every threshold the scores allow and returns the full
# confusion table at the best one. The rules answer different questions, and for the naive Bayes
# model none of them lands anywhere near 0.5: its probabilities are so extreme that its best
# thresholds are tiny numbers.

rules = [("break-even", {}), ("youden", {}), ("max-f1", {}), ("recall", {"at": 0.99})]
for ev in evaluations[:2]:
    print(ev.name)
    for rule, options in rules:
        p = ev.operating_point(rule, **options)
        label = rule + (f" >= {options['at']}" if options else "")
        print(f"  {label:>14}: threshold {p.threshold:<10.3g} TP {p.tp:3d} FP {p.fp:3d} FN {p.fn:3d} "
              f"precision {p.precision:.3f} recall {p.recall:.3f} FPR {p.fpr:.3f}")

# %%
# The chosen points on the logistic regression's curves
# -----------------------------------------------------
# Youden's J is the vertical distance from the ROC curve to the diagonal; the break-even point
# and the best F1 live on the PR curve. Here Youden's J and the best F1 pick the same threshold,
# 0.41, lower than the default 0.5: one more false alarm, three more tumours found. Asking for
# 99% recall moves the point far to the right on the ROC plot: the last malignant tumours found
# cost many false alarms. Both plots are zoomed on the corner where the points are.

ev = evaluations[0]
fig, (ax_roc, ax_pr) = plt.subplots(1, 2, figsize=(10.5, 5), layout="constrained")
RocCurveDisplay.from_evaluation(ev, ax=ax_roc, show_operating_point=False)
PrecisionRecallDisplay.from_evaluation(ev, ax=ax_pr, show_operating_point=False, show_break_even=False,
                                       iso_f1=())
markers = {"break-even": "D", "youden": "s", "max-f1": "^", "recall": "v"}
for (rule, options), color in zip(rules, ("tab:red", "tab:green", "tab:purple", "tab:brown")):
    p = ev.operating_point(rule, **options)
    label = (rule + (f" >= {options['at']}" if options else "")) + f" (t = {p.threshold:.3f})"
    ax_roc.plot(p.fpr, p.recall, markers[rule], color=color, markersize=9, label=label, zorder=5)
    ax_pr.plot(p.recall, p.precision, markers[rule], color=color, markersize=9, label=label, zorder=5)
for ax in (ax_roc, ax_pr):
    ax.legend(loc="lower left" if ax is ax_pr else "lower right", fontsize="small")
ax_roc.set(xlim=(-0.005, 0.2), ylim=(0.8, 1.005), title="logistic regression: points chosen by rule")
ax_pr.set(xlim=(0.8, 1.005), ylim=(0.8, 1.005))
ax_pr.set_title("the same points on the PR curve")
plt.show()
