"""
Multi-class curves: one against the rest, micro and macro averages
==================================================================

ROC and precision-recall curves are defined for two classes. With three or more, each class is
taken in turn as the positive class against all the others ("one against the rest"), which gives
one curve per class, and two ways of summarising them: the *micro* average pools every
(sample, class) decision into one big binary problem, the *macro* average takes the mean of the
class curves. This example draws them for a deliberately weak model of scikit-learn's wine data,
so that the classes differ.
"""

# %%
# A model that sees two of thirteen measurements
# ----------------------------------------------
# The wine data hold 178 wines from three cultivars. A logistic regression that sees only the
# magnesium content and the OD280/OD315 ratio separates one cultivar well and mixes up the other
# two. ``y_score`` is the (n, 3) matrix of class probabilities, its columns in label order.

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, label_binarize

import clfeval
from clfeval.plot import OneVsRestDisplay

wine = load_wine()
columns = [wine.feature_names.index("magnesium"), wine.feature_names.index("od280/od315_of_diluted_wines")]
X_train, X_test, y_train, y_test = train_test_split(
    wine.data[:, columns], wine.target, test_size=0.5, random_state=0, stratify=wine.target
)
model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
proba = model.predict_proba(X_test)

cultivars = ["cultivar A", "cultivar B", "cultivar C"]
ev = clfeval.evaluate(y_test, y_score=proba, target_names=cultivars, name="2-feature model")
print(ev.report)

# %%
# One curve per class, and two averages
# -------------------------------------
# ``ev.roc`` and ``ev.pr`` hold a curve for every class, then ``"micro"`` and ``"macro"``.
# The micro curve has real thresholds (it is the ROC curve of the pooled binary problem); the
# macro curve is the mean of the class curves on a common grid of false positive rates, so it
# has none.

for name, curve in ev.roc.items():
    interpolated = np.isnan(curve.thresholds).all()
    thresholds = "interpolated, no thresholds" if interpolated else f"{curve.x.size} points"
    print(f"{name:>10}: ROC AUC {curve.area:.4f}   AP {ev.pr[name].area:.4f}   ({thresholds})")

# %%
# The same numbers from scikit-learn, as a check: the macro AUC is its
# ``roc_auc_score(..., multi_class="ovr")``, the micro AUC the AUC of the binarised labels.

print("macro", roc_auc_score(y_test, proba, multi_class="ovr", average="macro"))
print("micro", roc_auc_score(label_binarize(y_test, classes=[0, 1, 2]), proba, average="micro"))

# %%
# The pictures
# ------------
# ``OneVsRestDisplay`` draws every class in its own colour, the micro average as a thick black
# dashed line and the macro average dotted. Cultivar C stands apart from the others; A and B
# overlap, and B, in the middle of the two measurements, is the hardest to tell from the rest.

fig, (ax_roc, ax_pr) = plt.subplots(1, 2, figsize=(10.5, 5.4), layout="constrained")
OneVsRestDisplay.from_evaluation(ev, "roc", ax=ax_roc)
OneVsRestDisplay.from_evaluation(ev, "pr", ax=ax_pr)
plt.show()

# %%
# Micro or macro?
# ---------------
# The micro average weighs classes by their size and scores all classes on one scale: a
# probability of 0.6 means the same thing whichever class it belongs to. The macro average gives
# every class the same weight, so a small class that the model handles badly pulls it down as
# much as a large one. With classes of similar size, as here, the two agree closely; they drift
# apart on skewed data.
#
# Operating points work per class. In a multi-class problem the predictions are the arg-max
# class, so there is no single threshold; ``curve=`` picks the class whose one-against-the-rest
# scores are cut:

p = ev.operating_point("max-f1", curve="cultivar B")
print(f"cultivar B against the rest: best F1 {p.f1:.3f} at probability {p.threshold:.3f} "
      f"(TP {p.tp}, FP {p.fp}, FN {p.fn})")
row = ev.report.rows[1]
print(f"the arg-max predictions reach F1 {row['f1']:.3f} for cultivar B")
