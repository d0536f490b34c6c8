"""
Many models over many data sets: Friedman, Nemenyi and the critical-difference diagram
======================================================================================

Is one learning algorithm better than another *in general*, not just on one data set? Demšar
(2006) showed how to answer with ranks: rank the algorithms on each data set, average the ranks,
test with Friedman whether the average ranks differ more than chance allows, and if so find which
pairs differ with the Nemenyi post-hoc test. The critical-difference (CD) diagram draws the whole
result on one line. This example runs six common classifiers on twelve small data sets, four
shipped with scikit-learn and eight made by its generators.
"""

# sphinx_gallery_thumbnail_number = 2

# %%
# Twelve data sets, six algorithms
# --------------------------------
# Each algorithm is scored by its mean balanced accuracy over a 5-fold cross-validation, run by
# :func:`clfeval.cross_evaluate` (the folds are the same for every algorithm on a data set).

import matplotlib.pyplot as plt
import numpy as np
from sklearn import datasets
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

import clfeval
from clfeval import stats
from clfeval.plot import CriticalDifferenceDisplay
from clfeval.protocols import KFold

data_sets = {
    "breast cancer": datasets.load_breast_cancer(return_X_y=True),
    "iris": datasets.load_iris(return_X_y=True),
    "wine": datasets.load_wine(return_X_y=True),
    "digits": datasets.load_digits(return_X_y=True),
    "moons": datasets.make_moons(300, noise=0.3, random_state=0),
    "circles": datasets.make_circles(300, noise=0.2, factor=0.5, random_state=0),
    "blobs": datasets.make_blobs(300, centers=4, cluster_std=2.5, random_state=0),
    "linear, 20 features": datasets.make_classification(300, n_features=20, n_informative=5, random_state=0),
    "two clusters per class": datasets.make_classification(300, n_features=4, n_informative=2, n_redundant=0,
                                                           random_state=1),
    "3 classes, 10% noise": datasets.make_classification(300, n_features=10, n_informative=4, n_classes=3,
                                                         flip_y=0.1, random_state=2),
    "gaussian quantiles": datasets.make_gaussian_quantiles(n_samples=300, n_features=3, random_state=0),
    "Hastie 10.2": datasets.make_hastie_10_2(300, random_state=0),
}
algorithms = {  # newton-cg: the quickest of scikit-learn's solvers on these small problems
    "logistic regression": make_pipeline(StandardScaler(), LogisticRegression(solver="newton-cg")),
    "naive Bayes": GaussianNB(),
    "k nearest neighbours": make_pipeline(StandardScaler(), KNeighborsClassifier()),
    "decision tree": DecisionTreeClassifier(random_state=0),
    "random forest": RandomForestClassifier(n_estimators=25, random_state=0),
    "RBF SVM": make_pipeline(StandardScaler(), SVC()),
}

scores = np.zeros((len(data_sets), len(algorithms)))
for i, (X, y) in enumerate(data_sets.values()):
    for j, algorithm in enumerate(algorithms.values()):
        cv = clfeval.cross_evaluate(algorithm, X, y, KFold(5, random_state=0), progress=False)
        scores[i, j] = cv.mean_value("balanced_accuracy")

# %%
# The table, and the ranks
# ------------------------
# No algorithm wins everywhere: the linear model fails on the circles and the Gaussian
# quantiles, naive Bayes on the digits, and the single tree is never first. Ranks make the data sets
# comparable: a difference of 0.2 on a hard problem and of 0.002 on an easy one both count as
# one place.

names = list(algorithms)

fig, ax = plt.subplots(figsize=(9, 6), layout="constrained")
im = ax.imshow(scores, cmap="viridis", aspect="auto")
for (i, j), v in np.ndenumerate(scores):
    best = v == scores[i].max()
    ax.text(j, i, f"{v:.3f}", ha="center", va="center", fontsize=9,
            color="black" if v > 0.75 else "white", fontweight="bold" if best else "normal")
ax.set_xticks(range(len(names)), names, rotation=25, ha="right")
ax.set_yticks(range(len(data_sets)), list(data_sets))
ax.set_title("mean balanced accuracy, 5-fold cross-validation (best in bold)")
fig.colorbar(im, ax=ax, shrink=0.8)
plt.show()

# %%
# Friedman's test
# ---------------
# The null hypothesis is that all algorithms are equivalent, so that their average ranks differ
# only by chance. Friedman's chi-squared statistic is known to be conservative; Iman and
# Davenport's F version, in ``extra``, is the one Demšar recommends.

friedman = stats.friedman(scores, names=names)
print(friedman)
print(friedman.extra["iman_davenport"])
for name, r in sorted(zip(names, friedman.extra["average_ranks"]), key=lambda t: t[1]):
    print(f"  {name:>20}: average rank {r:.2f}")

# %%
# Nemenyi's post-hoc test and the diagram
# ---------------------------------------
# Two algorithms differ significantly when their average ranks are further apart than the
# critical difference. The diagram puts every algorithm on the rank axis (best on the right) and
# joins with a thick bar the groups that are *not* significantly different.

nemenyi = stats.nemenyi(scores, names=names)
print(f"critical difference at alpha = 0.05: {nemenyi.extra['critical_difference']:.3f}")
print("groups not significantly different:",
      [[names[i] for i in g] for g in nemenyi.extra["groups"]])

CriticalDifferenceDisplay.from_scores(scores, names, title="Nemenyi test, alpha = 0.05, 12 data sets")
plt.show()

# %%
# The pairs that Nemenyi's test tells apart are those not joined by any bar:

significant = nemenyi.extra["significant"]
for i in range(len(names)):
    for j in range(i + 1, len(names)):
        if significant[i][j]:
            print(f"  {names[i]} and {names[j]} differ (p = {nemenyi.extra['pvalues'][i][j]:.4f})")

# %%
# Only two pairs: the single decision tree ranks significantly below the random forest (an
# ensemble of such trees) and below the RBF SVM. Everything else cannot be separated with twelve
# data sets. Nemenyi compares all pairs, which costs power; when there is one candidate to
# compare with the rest, a test against a *control* asks fewer questions. Holm's procedure with
# the SVM as the control also finds it better than the logistic regression and k nearest
# neighbours, though still not better than the random forest:

holm = stats.holm_control(scores, control=names.index("RBF SVM"), names=names)
for name, p, adjusted, significant in zip(names, holm.extra["pvalues"], holm.extra["adjusted_pvalues"],
                                          holm.extra["significant"]):
    if name != "RBF SVM":
        print(f"  RBF SVM vs {name:>20}: p = {p:.4f}, Holm-adjusted {adjusted:.4f}"
              f"{'  significant' if significant else ''}")

# %%
# The Bonferroni-Dunn version of the diagram draws the control's critical interval instead of
# the groups.

CriticalDifferenceDisplay.from_scores(scores, names, test="bonferroni-dunn", control=names.index("RBF SVM"),
                                      title="Bonferroni-Dunn test against the RBF SVM")
plt.show()
