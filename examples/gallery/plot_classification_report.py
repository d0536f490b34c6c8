"""
The classification report and its averages
==========================================

The classification report lists precision, recall and F1 for every class, then summarises them in
three averages that weigh the classes differently: *micro* pools every decision, *macro* gives
each class the same vote, *weighted* gives each class a vote in proportion to its support. On
balanced data they agree; on skewed data they can tell opposite stories. This example builds a
four-class problem with one class twelve times rarer than another and compares two models whose
averages move in different directions.
"""

# %%
# Four classes of very different sizes
# ------------------------------------
# ``make_classification`` draws 3000 samples; the four classes take 60%, 25%, 10% and 5% of
# them. Half of the data trains a logistic regression, the other half evaluates it.
# ``target_names`` gives the classes names for the report.

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

import clfeval

X, y = make_classification(n_samples=3000, n_classes=4, n_informative=6, class_sep=0.8,
                           weights=[0.6, 0.25, 0.1, 0.05], random_state=3)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0, stratify=y)
names = ["common", "frequent", "rare", "very rare"]

plain = LogisticRegression(max_iter=1000).fit(X_train, y_train)
ev_plain = clfeval.evaluate(y_test, plain.predict(X_test), y_score=plain.predict_proba(X_test),
                            target_names=names, name="plain")
print(ev_plain.report)

# %%
# Reading the report
# ------------------
# The class rows show the usual consequence of imbalance: the model leans towards the common
# class (recall 0.94) and almost never predicts the very rare one. When it does, it is right
# (precision 1.0), but it finds 4% of those cases.
#
# * **micro avg** sums the true positives, false positives and false negatives of all classes
#   before dividing. In a single-label multi-class problem each mistake is one false positive and
#   one false negative, so micro precision, micro recall and micro F1 all equal the accuracy.
# * **macro avg** is the plain mean of the class rows. The two rare classes pull macro recall
#   down to 0.45, which is also the balanced accuracy.
# * **weighted avg** weighs the rows by support, so it looks much like the common class.
#
# The rows are data too: ``report.rows`` for the classes, ``report.averages`` for the summaries,
# ``report.overall`` for the single numbers.

r = ev_plain.report
macro_f1 = np.mean([row["f1"] for row in r.rows])
print(f"macro F1 {r.averages['macro']['f1']:.4f} = mean of the class F1s {macro_f1:.4f}")
print(f"micro F1 {r.averages['micro']['f1']:.4f} = accuracy {r.overall['accuracy']:.4f}")
print(f"macro recall {r.averages['macro']['recall']:.4f} = balanced accuracy "
      f"{r.overall['balanced_accuracy']:.4f}")

# %%
# There are two "macro F1"s in the literature. The report's is the mean of the per-class F1
# scores, which is what scikit-learn's ``f1_score(average="macro")`` computes. The other is the
# harmonic mean of macro precision and macro recall; here the high precision of the very rare
# class props it up, so it comes out higher.

mp, mr = r.averages["macro"]["precision"], r.averages["macro"]["recall"]
print(f"F1 of the macro averages: {2 * mp * mr / (mp + mr):.4f}")

# %%
# A model that weighs the classes equally
# ---------------------------------------
# ``class_weight="balanced"`` makes every class count the same in training. Accuracy, and with
# it micro F1, fall sharply; the rare classes' F1 gain a little; macro F1 does not improve at
# all, because the common classes lose more than the rare ones win.

balanced = LogisticRegression(max_iter=1000, class_weight="balanced").fit(X_train, y_train)
ev_balanced = clfeval.evaluate(y_test, balanced.predict(X_test), y_score=balanced.predict_proba(X_test),
                               target_names=names, name="class-balanced")

print(f"{'':>16} {'micro F1':>9} {'macro F1':>9} {'weighted F1':>12} {'bal. acc.':>10}")
for ev in (ev_plain, ev_balanced):
    a = ev.report.averages
    print(f"{ev.name:>16} {a['micro']['f1']:9.4f} {a['macro']['f1']:9.4f} {a['weighted']['f1']:12.4f} "
          f"{ev.report.overall['balanced_accuracy']:10.4f}")

# %%
# The picture below sets the class F1 scores of both models side by side, with the three
# averages as horizontal lines. Which model is "better" depends on which average matches the
# cost of mistakes in your application; the report gives all of them so that the choice is made
# on purpose.

fig, axes = plt.subplots(1, 2, figsize=(11, 5.2), sharey=True, layout="constrained")
x = np.arange(len(names))
styles = {"micro": ":", "macro": "-", "weighted": "--"}
for ax, ev, color in zip(axes, (ev_plain, ev_balanced), ("tab:blue", "tab:orange")):
    rows = ev.report.rows
    ax.bar(x - 0.2, [row["precision"] for row in rows], 0.2, color=color, alpha=0.35, label="precision")
    ax.bar(x, [row["recall"] for row in rows], 0.2, color=color, alpha=0.65, label="recall")
    ax.bar(x + 0.2, [row["f1"] for row in rows], 0.2, color=color, label="F1")
    for avg, ls in styles.items():
        ax.axhline(ev.report.averages[avg]["f1"], color="0.2", linestyle=ls, linewidth=1.2,
                   label=f"{avg} F1 = {ev.report.averages[avg]['f1']:.3f}")
    supports = [int(row["support"]) for row in rows]
    ax.set_xticks(x, [f"{n}\n(n = {s})" for n, s in zip(names, supports)])
    ax.set_title(f"{ev.name} logistic regression")
    ax.set_ylim(0, 1.05)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, fontsize="small", frameon=False)
axes[0].set_ylabel("value on the test set")
plt.show()

# %%
# Exporting the report
# --------------------
# ``to_frame()`` gives a pandas DataFrame (one row per class and per average) and
# ``to_markdown()`` a table for a README or a pull request.

print(ev_balanced.report.to_markdown())
