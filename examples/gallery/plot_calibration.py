"""
Calibration: reliability diagrams, ECE and the Brier decomposition
==================================================================

A model ranks well when its higher scores go to the positive cases; it is *calibrated* when its
probabilities mean what they say: of the cases given 0.8, about 80% are positive. ROC AUC sees
only the ranking, so a model can rank perfectly well and still be badly calibrated, which matters
as soon as the probabilities are used as risks, for expected costs or for decision curves. This
example measures calibration three ways: the reliability diagram, the expected calibration error
(ECE) and the decomposition of the Brier score into reliability, resolution and uncertainty.
"""

# %%
# Three models that rank alike
# ----------------------------
# On a synthetic problem with many redundant (correlated) features, Gaussian naive Bayes, which
# assumes the features independent, counts the same evidence several times and becomes
# overconfident. A logistic regression does not. Recalibrating naive Bayes with isotonic
# regression (scikit-learn's ``CalibratedClassifierCV``) keeps its ranking and fixes its scale.

import matplotlib.pyplot as plt
import numpy as np
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

import clfeval
from clfeval.calibration import brier_decomposition, expected_calibration_error
from clfeval.plot import ReliabilityDisplay

X, y = make_classification(20_000, n_features=20, n_informative=3, n_redundant=10, class_sep=0.4,
                           n_clusters_per_class=1, random_state=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)
models = {
    "logistic regression": LogisticRegression(),
    "naive Bayes": GaussianNB(),
    "naive Bayes + isotonic": CalibratedClassifierCV(GaussianNB(), method="isotonic", cv=5),
}
evaluations = []
for name, model in models.items():
    p = model.fit(X_train, y_train).predict_proba(X_test)[:, 1]
    evaluations.append(clfeval.evaluate(y_test, y_score=p, name=name))

for ev in evaluations:
    c = ev.calibration(n_bins=10)
    print(f"{ev.name:>24}: ROC AUC {ev.report.overall['roc_auc']:.4f}   ECE {c.ece:.4f}   "
          f"Brier {c.brier:.4f}   log loss {c.log_loss:.4f}")

# %%
# The reliability diagram
# -----------------------
# The probabilities are grouped into ten equal-width bins; each dot is a bin's mean predicted
# probability against the share of positives in it. A calibrated model follows the diagonal.
# Naive Bayes's curve is an S: below the diagonal at high probabilities and above it at low
# ones, the signature of overconfidence. The panel below counts the cases per bin: naive Bayes
# puts most of them at the extremes.

ReliabilityDisplay.from_evaluations(evaluations, n_bins=10)
plt.show()

# %%
# Expected calibration error
# --------------------------
# The ECE is the gap between the dots and the diagonal, averaged over the bins with weights
# equal to their shares of cases (``norm="l1"``); ``"l2"`` takes the root mean square of the
# gaps and ``"max"`` the largest one. Its value depends on the bins: more bins see finer
# detail but each holds fewer cases, so their noise adds to the estimate. Equal-mass
# (``strategy="quantile"``) bins give every bin the same number of cases.

for ev in evaluations:
    p = models[ev.name].predict_proba(X_test)[:, 1]
    cells = "  ".join(f"{norm} {expected_calibration_error(y_test, p, n_bins=15, norm=norm):.4f}"
                      for norm in ("l1", "l2", "max"))
    quantile = expected_calibration_error(y_test, p, n_bins=15, strategy="quantile")
    print(f"{ev.name:>24}: {cells}   quantile bins (l1) {quantile:.4f}")

bins = [5, 10, 15, 20, 30, 50, 100]
fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
for ev in evaluations:
    p = models[ev.name].predict_proba(X_test)[:, 1]
    ax.plot(bins, [expected_calibration_error(y_test, p, n_bins=b) for b in bins], "o-", label=ev.name)
ax.set(xscale="log", xlabel="number of equal-width bins", ylabel="ECE (l1)",
       title="ECE depends on the binning; the ranking of the models does not")
ax.set_xticks(bins, [str(b) for b in bins])
ax.minorticks_off()
ax.grid(True, color="0.92")
ax.legend()
plt.show()

# %%
# The Brier score and its decomposition
# -------------------------------------
# The Brier score, the mean squared difference between the probability and the outcome, mixes
# two qualities. Murphy's decomposition separates them:
# ``brier = reliability - resolution + uncertainty``. *Reliability* is the calibration error
# (lower is better), *resolution* how far the bins' outcome rates are from the overall rate, a
# measure of discrimination (higher is better), and *uncertainty* the variance of the outcome,
# the same for every model. Over bins the identity needs two more terms, the variance and
# covariance within the bins, which clfeval keeps so that the sum is exact.

for ev in evaluations:
    d = ev.calibration(n_bins=10).decomposition
    total = d.reliability - d.resolution + d.uncertainty + d.within_variance - d.within_covariance
    print(f"{ev.name:>24}: brier {d.brier:.5f} = REL {d.reliability:.5f} - RES {d.resolution:.5f} "
          f"+ UNC {d.uncertainty:.5f} + within {d.within_variance - d.within_covariance:+.5f}  "
          f"(sum {total:.5f})")

# %%
# Isotonic recalibration cuts naive Bayes's reliability term two hundredfold. Its resolution
# even rises a little, because ten equal-width bins could not tell apart probabilities crowded
# at 0 and 1, and its Brier score ends slightly below the logistic regression's.

names = [ev.name for ev in evaluations]
decompositions = [ev.calibration(n_bins=10).decomposition for ev in evaluations]
fig, ax = plt.subplots(figsize=(8, 4.2), layout="constrained")
x = np.arange(len(names))
base = np.array([d.uncertainty - d.resolution for d in decompositions])
reliability = np.array([d.reliability for d in decompositions])
ax.bar(x, base, 0.5, color="tab:green", alpha=0.7, label="uncertainty - resolution")
ax.bar(x, reliability, 0.5, bottom=base, color="tab:orange", label="reliability (calibration error)")
ax.plot(x, [d.brier for d in decompositions], "k_", markersize=40, markeredgewidth=2,
        label="Brier score (the two + within-bin terms)")
ax.set_xticks(x, names)
ax.set_ylim(0, 0.28)
ax.set_ylabel("squared error")
ax.legend(loc="upper left", fontsize="small", markerscale=0.4)
ax.set_title("What the Brier score is made of")
plt.show()

# %%
# Same ranking, other probabilities
# ---------------------------------
# Any increasing transformation of the scores leaves the ROC curve unchanged but moves the
# probabilities. Dividing the logistic regression's log-odds by a *temperature* T makes it
# overconfident (T < 1) or timid (T > 1): its AUC is identical to the last digit, its
# calibration is not. The direct functions of :mod:`clfeval.calibration` take arrays, like
# scikit-learn's.

log_odds = models["logistic regression"].decision_function(X_test)
tempered = []
for T in (0.4, 1.0, 2.5):
    p = 1 / (1 + np.exp(-log_odds / T))
    ev = clfeval.evaluate(y_test, y_score=p, name=f"temperature {T}")
    tempered.append(ev)
    d = brier_decomposition(y_test, p, n_bins=10)
    print(f"T = {T}: ROC AUC {ev.report.overall['roc_auc']:.6f}, ECE {ev.calibration(n_bins=10).ece:.4f}, "
          f"reliability {d.reliability:.5f}, resolution {d.resolution:.5f}")
ReliabilityDisplay.from_evaluations(tempered, n_bins=10)
plt.show()

# %%
# Many classes: top-label and class-wise
# --------------------------------------
# With k classes there are several calibrations to check. *Top-label* calibration asks whether
# the confidence in the predicted class matches how often that prediction is right; *class-wise*
# calibration checks each class's probability against the rest and averages. ``ev.calibration()``
# of a multi-class evaluation reports both.

from sklearn.datasets import load_digits

X_d, y_d = load_digits(return_X_y=True)
Xd_train, Xd_test, yd_train, yd_test = train_test_split(X_d, y_d, test_size=0.5, random_state=0,
                                                        stratify=y_d)
proba = GaussianNB().fit(Xd_train, yd_train).predict_proba(Xd_test)
ev_digits = clfeval.evaluate(yd_test, y_score=proba, name="naive Bayes, digits")
report = ev_digits.calibration()
print(report)
print(report.ece_by_mode)
print(f"accuracy {ev_digits.report.overall['accuracy']:.3f}, "
      f"mean confidence {proba.max(axis=1).mean():.3f}")

# %%
# Naive Bayes on the digits is almost always nearly certain: nearly every prediction falls in
# the last bin, where it is right far less often than its confidence claims. The top-label ECE
# is large; the class-wise one is small because most per-class probabilities are close to 0 and
# correctly so, which is why the two must not be compared with each other.

ReliabilityDisplay.from_evaluation(ev_digits, n_bins=10)
plt.show()
