"""
A first evaluation
==================

Fit a logistic regression on scikit-learn's breast cancer data, hand its held-out probabilities to
:func:`clfeval.evaluate`, and read what comes back: the classification report, the confusion
matrix, the ROC and precision-recall curves with the point where the model's own predictions sit.
One call computes all of it from a single pass over the scores.
"""

# %%
# A model and a test set
# ----------------------
# scikit-learn codes the diagnosis as 0 = malignant and 1 = benign. Names are easier to read in
# a report than codes, so we turn the codes into words and ask for the probability of
# ``"malignant"``, the class we want to find.

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import clfeval
from clfeval.plot import PrecisionRecallDisplay, RocCurveDisplay

data = load_breast_cancer()
diagnosis = np.where(data.target == 0, "malignant", "benign")
X_train, X_test, y_train, y_test = train_test_split(
    data.data, diagnosis, test_size=0.3, random_state=0, stratify=diagnosis
)
model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
p_malignant = model.predict_proba(X_test)[:, list(model.classes_).index("malignant")]

# %%
# One call
# --------
# ``evaluate`` takes the true labels and the scores of the positive class. Without ``y_pred`` it
# makes the predictions itself, at threshold 0.5 because the scores are probabilities, and says
# so in a note under the report.

ev = clfeval.evaluate(y_test, y_score=p_malignant, pos_label="malignant", name="logistic regression")
print(ev.report)

# %%
# Every number of the report is also available as data: ``ev.report.overall`` for the summary
# numbers, ``ev.confusion`` for the table the report was computed from.

print(f"accuracy {ev.report.overall['accuracy']:.4f}, MCC {ev.report.overall['mcc']:.4f}")
print("confusion matrix (rows = true class, columns = predicted class):")
print(ev.confusion.counts)
print("break-even point:", ev.break_even)

# %%
# The two curves
# --------------
# ``from_evaluation`` draws clfeval's view of a curve: the dot marks the operating point (the
# false and true positive rates of the predictions made at 0.5), the precision-recall plot adds
# the break-even point where precision equals recall, grey iso-F1 lines and the prevalence of
# malignant tumours, which is the precision of a model that guesses.

fig, (ax_roc, ax_pr) = plt.subplots(1, 2, figsize=(10.5, 5), layout="constrained")
RocCurveDisplay.from_evaluation(ev, ax=ax_roc)
PrecisionRecallDisplay.from_evaluation(ev, ax=ax_pr)
plt.show()

# %%
# What next
# ---------
# The other examples of this gallery take each part further: intervals around every number,
# thresholds and costs, comparisons between models, cross-validation and calibration.
