"""
How sure are we? Intervals for every number, bands for every curve
==================================================================

A test set is a sample, and every number computed on it would come out a little different on
another sample. A confidence interval says how different. ``ev.intervals()`` puts one under every
number of the classification report, each computed by a method that held its nominal coverage in
simulation, and ``ev.band()`` draws a pointwise band around a curve. This example shows them on
the breast cancer data, compares the closed-form intervals with bootstrap ones, and watches the
intervals shrink as the test set grows.
"""

# sphinx_gallery_thumbnail_number = 2

# %%
# An evaluation on 171 tumours
# ----------------------------

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer, make_classification
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
p = model.predict_proba(X_test)[:, list(model.classes_).index("malignant")]
ev = clfeval.evaluate(y_test, y_score=p, pos_label="malignant", name="logistic regression")

# %%
# Every number, with its interval
# -------------------------------
# The printout lists each number with its 95% interval, its standard error where the method has
# one, and a footnote naming the method: Wilson intervals for proportions such as recall,
# the delta method for MCC and kappa, DeLong's method for the ROC AUC, and so on. They are all
# closed forms computed from the counts, so the whole table takes milliseconds.

intervals = ev.intervals(0.95)
print(intervals)

# %%
# One number at a time
# --------------------
# ``ev.ci`` gives one interval; ``method="bootstrap"`` or ``"bca"`` resample instead. The
# bootstrap draws the cells of the confusion table (or of the score table), not the rows, so two
# thousand replicates cost a few milliseconds.

for metric, options in [("recall", {}), ("precision", {}), ("mcc", {}), ("f1", {"average": "macro"}),
                        ("roc_auc", {})]:
    cis = {m: ev.ci(metric, method=m, **options) for m in ("analytic", "bootstrap", "bca")}
    cells = "   ".join(f"{m} [{c.low:.3f}, {c.high:.3f}]" for m, c in cis.items())
    label = metric + (" (macro)" if options else "")
    print(f"{label:>12} {cis['analytic'].estimate:.4f}   {cells}")

# %%
# As a picture, the main numbers of the report with their analytic and bootstrap intervals.
# The intervals are not symmetric: near 1 a proportion cannot go much higher, so the interval
# reaches further down than up.

rows = [("accuracy", "accuracy", {}), ("balanced accuracy", "balanced_accuracy", {}),
        ("MCC", "mcc", {}), ("kappa", "kappa", {}), ("recall (malignant)", "recall", {}),
        ("precision (malignant)", "precision", {}), ("macro F1", "f1", {"average": "macro"}),
        ("ROC AUC", "roc_auc", {}), ("average precision", "average_precision", {})]
fig, ax = plt.subplots(figsize=(7.5, 5), layout="constrained")
for offset, method, color in ((-0.15, "analytic", "tab:blue"), (0.15, "bootstrap", "tab:orange")):
    for i, (label, metric, options) in enumerate(rows):
        c = ev.ci(metric, method=method, **options)
        ax.errorbar(c.estimate, i + offset, xerr=[[c.estimate - c.low], [c.high - c.estimate]], fmt="o",
                    color=color, capsize=3, label=method if i == 0 else None)
ax.set_yticks(range(len(rows)), [r[0] for r in rows])
ax.invert_yaxis()
ax.set_xlabel("value on the test set, with 95% interval")
ax.set_title("logistic regression on 171 tumours")
ax.grid(axis="x", color="0.9")
ax.legend(loc="lower left")
plt.show()

# %%
# Bands around the curves
# -----------------------
# ``band=0.95`` shades a pointwise 95% bootstrap band: at each false positive rate (ROC) or
# recall (PR), the range that holds the curve in 95% of the resamples. With 64 malignant
# tumours the PR band is wide at high recall, where a few cases decide the precision.

fig, (ax_roc, ax_pr) = plt.subplots(1, 2, figsize=(10.5, 5), layout="constrained")
RocCurveDisplay.from_evaluation(ev, band=0.95, ax=ax_roc)
PrecisionRecallDisplay.from_evaluation(ev, band=0.95, ax=ax_pr)
plt.show()

# %%
# The band is data too: ``ev.band("roc")`` returns the grid and the limits.

band = ev.band("roc", level=0.95)
i = np.searchsorted(band.x, 0.05)
print(band)
print(f"at FPR {band.x[i]:.2f}: TPR {band.estimate[i]:.3f}, band [{band.low[i]:.3f}, {band.high[i]:.3f}]")

# %%
# Intervals shrink like one over the square root of the test set
# --------------------------------------------------------------
# On a larger synthetic problem we evaluate the same model on test sets of growing size. The
# width of each interval falls roughly by half each time the test set grows four times. A
# hundred test cases (about thirty positives) leave the recall's interval more than a quarter
# wide; it takes thousands of cases to pin it down to the second decimal.

Xs, ys = make_classification(n_samples=26_000, n_features=10, n_informative=4, weights=[0.7],
                             class_sep=0.8, random_state=0)
X_fit, X_pool, y_fit, y_pool = train_test_split(Xs, ys, train_size=1_000, random_state=0, stratify=ys)
clf = LogisticRegression().fit(X_fit, y_fit)
score_pool = clf.predict_proba(X_pool)[:, 1]

sizes = [50, 100, 200, 400, 800, 1600, 3200, 6400, 12800, 25000]
metrics = [("recall", "recall"), ("precision", "precision"), ("mcc", "MCC"), ("roc_auc", "ROC AUC")]
widths = {m: [] for m, _ in metrics}
for n in sizes:
    e = clfeval.evaluate(y_pool[:n], y_score=score_pool[:n])
    for m, _ in metrics:
        c = e.ci(m)
        widths[m].append(c.high - c.low)
print("     n  " + "  ".join(f"{label:>9}" for _, label in metrics))
for i, n in enumerate(sizes):
    print(f"{n:6d}  " + "  ".join(f"{widths[m][i]:9.3f}" for m, _ in metrics))

fig, ax = plt.subplots(figsize=(7, 4.6), layout="constrained")
for m, label in metrics:
    ax.plot(sizes, widths[m], "o-", label=label)
ax.plot(sizes, 2 * 1.96 * 0.5 / np.sqrt(np.array(sizes) * 0.3), "k:", label="$1/\\sqrt{n}$ reference")
ax.set(xscale="log", yscale="log", xlabel="test set size n", ylabel="width of the 95% interval",
       title="Intervals narrow as the test set grows")
ax.grid(True, which="both", color="0.92")
ax.legend()
plt.show()
