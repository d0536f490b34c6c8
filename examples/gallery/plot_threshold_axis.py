"""
The threshold: the axis that ROC and PR curves hide
===================================================

A ROC or precision-recall curve is drawn without its threshold: each point *is* a threshold, but
the picture does not say which. To choose a threshold you need it back. This example finds the
handwritten nines among scikit-learn's digits with a linear support vector machine, whose scores
are decision values around 0 rather than probabilities, and looks at the threshold three ways:
every metric against the threshold, the curves in three dimensions, and the whole evaluation
recomputed at a threshold of our choice.
"""

# sphinx_gallery_thumbnail_number = 2

# %%
# A detector of nines
# -------------------
# One image in ten is a nine. The SVM's ``decision_function`` gives a signed distance to its
# separating hyperplane; scikit-learn orients it towards ``classes_[1]``, which is "other" here,
# so we flip its sign to get a score for "nine". clfeval sees scores outside [0, 1], reads them as
# decision values and predicts "nine" where the score is at least 0.

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

import clfeval
from clfeval.plot import ThresholdCurve3DDisplay, ThresholdMetricsDisplay

X, digit = load_digits(return_X_y=True)
y = np.where(digit == 9, "nine", "other")
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0, stratify=y)
svm = make_pipeline(StandardScaler(), LinearSVC(C=0.01)).fit(X_train, y_train)
sign = 1 if svm.classes_[1] == "nine" else -1
score_nine = sign * svm.decision_function(X_test)

ev = clfeval.evaluate(y_test, y_score=score_nine, pos_label="nine", name="linear SVM")
print(f"score kind: {ev.score_kind}, threshold: {ev.threshold}")
print(ev.confusion.counts)

# %%
# Every metric at every threshold
# -------------------------------
# ``threshold_sweep`` computes the confusion table and the measures built on it at each distinct
# score (or at thresholds you give), in one pass over the sorted scores.

sweep = ev.threshold_sweep(["tp", "fp", "fn", "precision", "recall", "f1", "mcc"],
                           thresholds=[1.0, 0.5, 0.0, -0.25, -0.5, -1.0])
print(sweep.to_frame().round(4).to_string(index=False))

# %%
# The same sweep as a picture. The vertical lines mark the thresholds chosen by three rules:
# the best F1, Youden's J (the largest gap between true and false positive rates) and the
# highest precision that still finds 98% of the nines (here Youden's J picks the same
# threshold). The default threshold 0 is none of them: trained on data with nine "other" images
# for each nine, the SVM puts its zero on the cautious side.

needs_98 = ev.operating_point("recall", at=0.98)
fig, ax = plt.subplots(figsize=(10, 4.8), layout="constrained")
disp = ThresholdMetricsDisplay.from_evaluation(
    ev, ["precision", "recall", "f1", "predicted_positive_rate"], mark=["max-f1", "youden", needs_98], ax=ax
)
ax.axvline(0.0, color="tab:red", linestyle=":", label="default threshold 0")
ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
plt.show()

# %%
# The curves with their third axis
# --------------------------------
# ``ThresholdCurve3DDisplay`` puts the threshold back as a depth axis: the ROC curve becomes a
# staircase climbing from the highest threshold (near the viewer) to the lowest (far wall). Its
# shadows are the familiar pictures: the ordinary ROC curve on the far wall, the true positive
# rate against the threshold on the side wall, the false positive rate against the threshold on
# the floor. The operating point sits at threshold 0.

ThresholdCurve3DDisplay.from_evaluation(ev, "roc")
plt.show()

# %%
# The precision-recall curve in the same way: precision is the height, recall runs left to right.
# Near the lowest thresholds (far) recall is 1 and precision sinks to the share of nines, 0.1;
# at the highest (near) few images are called nines and precision is 1. A 3-D line on paper has
# no depth, so a point near the viewer looks lower than it is (the near end of this curve seems
# to sit at 0.8): read values off the thin projections on the walls, or off the exact 2-D sweep
# above.

ThresholdCurve3DDisplay.from_evaluation(ev, "pr")
plt.show()

# %%
# The whole evaluation at another threshold
# -----------------------------------------
# ``ev.at(t)`` re-evaluates at threshold ``t`` from the statistics already built: a new
# confusion matrix and report, the same curves and areas, with the operating point moved. Here
# we compare the default threshold with the one that guarantees 98% recall.

at_98 = ev.at(needs_98.threshold)
for label, e in (("threshold 0", ev), (f"threshold {needs_98.threshold:.3f}", at_98)):
    row = e.report.rows[list(e.names).index("nine")]
    print(f"{label:>17}: precision {row['precision']:.3f}, recall {row['recall']:.3f}, "
          f"F1 {row['f1']:.3f}, MCC {e.report.overall['mcc']:.3f}, ROC AUC {e.report.overall['roc_auc']:.4f}")
print(at_98.confusion.counts)
