"""
Confusion matrix: counts and normalised views
=============================================

A confusion matrix counts, for each true class, how the model's predictions fell. Its raw counts
answer "how many", and its normalised forms answer two different questions: divided by the row
totals it shows each class's recall on the diagonal, divided by the column totals each class's
precision. This example reads all three on a naive Bayes model of scikit-learn's handwritten
digits, whose mistakes are far from uniform.
"""

# %%
# A ten-class model with a weakness
# ---------------------------------
# Gaussian naive Bayes treats the 64 pixels as independent, which they are not, so some digits
# that share strokes get mixed up. We evaluate its hard predictions on half the data.

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

import clfeval
from clfeval.plot import ConfusionMatrixDisplay

X, y = load_digits(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0, stratify=y)
model = GaussianNB().fit(X_train, y_train)
ev = clfeval.evaluate(y_test, model.predict(X_test), name="naive Bayes")

cm = ev.confusion
print(cm.counts)
print(f"{cm.total} test images, {np.trace(cm.counts)} on the diagonal")

# %%
# The counts
# ----------
# Rows are the true digits, columns the predicted ones. The diagonal holds the correct
# predictions; the large off-diagonal cells are the model's habits. Column 8 stands out: many
# 2s, 3s and 9s are read as 8s.

ConfusionMatrixDisplay.from_evaluation(ev)
plt.show()

# %%
# Normalised by the true class, and by the predicted class
# --------------------------------------------------------
# ``normalize="true"`` divides each row by its total: the diagonal is then each digit's recall
# (the share of the 2s that were found) and the row reads "where did this class go?". Most of
# the true 2s that went wrong went to 8.

ConfusionMatrixDisplay.from_evaluation(ev, normalize="true")
plt.show()

# %%
# ``normalize="pred"`` divides each column by its total: the diagonal is each digit's precision
# (the share of predicted 8s that are 8s) and the column reads "where did these predictions come
# from?". The same cell tells another story here: the 2s are only a part of what makes the
# predicted 8s unreliable; 3s, 9s and 1s add to it.

ConfusionMatrixDisplay.from_evaluation(ev, normalize="pred")
plt.show()

# %%
# The diagonals of the two normalised tables are exactly the recall and precision columns of the
# classification report, computed from the same counts:

recall_diag = np.diag(cm.normalized("true"))
precision_diag = np.diag(cm.normalized("pred"))
for row, r, p in zip(ev.report.rows, recall_diag, precision_diag):
    assert np.isclose(row["recall"], r) and np.isclose(row["precision"], p)
print("digit  recall  precision")
for label, r, p in zip(ev.names, recall_diag, precision_diag):
    print(f"{label:>5}  {r:6.3f}  {p:9.3f}")

# %%
# ``normalize="all"`` divides by the grand total, so the diagonal sums to the accuracy.

print(f"trace of the 'all' table {np.trace(cm.normalized('all')):.4f} = "
      f"accuracy {ev.report.overall['accuracy']:.4f}")

# %%
# One class against the rest
# --------------------------
# Many measures look at one class at a time: its true positives, false negatives, false
# positives and true negatives. ``per_class()`` gives the four counts of every class, and
# ``textbook()`` lays each class out as the 2 x 2 table of textbooks, ``[[TP, FN], [FP, TN]]``.

pc = cm.per_class()
print({k: v[8] for k, v in pc.items()})
print("digit 8 against the rest:")
print(cm.textbook()[8])
