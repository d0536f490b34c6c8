"""
Comparing two models on the same test set: McNemar, DeLong and the paired bootstrap
===================================================================================

Two models scored on the same cases are not two independent samples: a case that is hard for
one is usually hard for the other. Tests for such *paired* data look at where the models differ.
McNemar's test compares their decisions through the cases on which exactly one of them is right;
DeLong's test compares the areas under their ROC curves while accounting for the correlation of
the two rankings; the paired bootstrap does the same for any metric. This example compares a
logistic regression with naive Bayes on the breast cancer data and finds that the answer depends
on the question.
"""

# sphinx_gallery_thumbnail_number = 2

# %%
# Two models, one test set
# ------------------------

from functools import partial

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import clfeval
from clfeval import stats
from clfeval.metrics import average_precision_score, f1_score
from clfeval.plot import RocCurveDisplay

data = load_breast_cancer()
diagnosis = np.where(data.target == 0, "malignant", "benign")
X_train, X_test, y_train, y_test = train_test_split(
    data.data, diagnosis, test_size=0.5, random_state=0, stratify=diagnosis
)


def fit_and_predict(model):
    model.fit(X_train, y_train)
    score = model.predict_proba(X_test)[:, list(model.classes_).index("malignant")]
    return model.predict(X_test), score


pred_a, score_a = fit_and_predict(make_pipeline(StandardScaler(), LogisticRegression()))
pred_b, score_b = fit_and_predict(GaussianNB())
ev_a = clfeval.evaluate(y_test, pred_a, y_score=score_a, pos_label="malignant", name="A: logistic regression")
ev_b = clfeval.evaluate(y_test, pred_b, y_score=score_b, pos_label="malignant", name="B: naive Bayes")
for ev in (ev_a, ev_b):
    o = ev.report.overall
    print(f"{ev.name:>24}: accuracy {o['accuracy']:.4f}, MCC {o['mcc']:.4f}, ROC AUC {o['roc_auc']:.4f}")

# %%
# McNemar: do the decisions differ?
# ---------------------------------
# Only the discordant cases count: ``b`` cases where A is right and B wrong, ``c`` the other way
# round. Without a real difference they would split evenly; the exact test asks how surprising
# the observed split is. The result also carries the accuracy difference with a paired
# (Newcombe) interval.

mc = stats.mcnemar(y_test, pred_a, pred_b)
print(mc)
print(mc.extra)
print(mc.confidence_interval(0.95))

# %%
# DeLong: do the rankings differ?
# -------------------------------
# The two ROC curves are close, and DeLong's test, which uses each case's contribution to both
# areas, finds no evidence that one ranks tumours better than the other.

dl = stats.delong(y_test, score_a, score_b, pos_label="malignant")
print(dl)
print(dl.confidence_interval(0.95))

ax = RocCurveDisplay.from_evaluations([ev_a, ev_b])[0].ax_
ax.set_title(f"ROC AUC difference {dl.estimate:+.4f} (DeLong p = {dl.pvalue:.2f})")
plt.show()

# %%
# So A makes significantly better *decisions at 0.5* (p = 0.03), while neither model *ranks*
# the tumours significantly better. Both statements are true. Naive Bayes's probabilities are
# badly calibrated, so 0.5 is a poor threshold for it, but its ordering of the cases is nearly
# as good as the logistic regression's.
#
# The paired bootstrap: any metric
# --------------------------------
# ``paired_bootstrap_test`` resamples the cases (for a label metric, the counts of the joint
# (true class, A's prediction, B's prediction) cells, which is the same distribution and much
# faster) and recomputes the metric for both models on every replicate. A metric is a name of a
# :mod:`clfeval.metrics` function or a callable; ``functools.partial`` fixes its options.

tests = {
    "accuracy": stats.paired_bootstrap_test(y_test, pred_a, pred_b, "accuracy_score", seed=0),
    "F1 (malignant)": stats.paired_bootstrap_test(y_test, pred_a, pred_b,
                                                  partial(f1_score, pos_label="malignant"), seed=0),
    "MCC": stats.paired_bootstrap_test(y_test, pred_a, pred_b, "matthews_corrcoef", seed=0),
    "balanced accuracy": stats.paired_bootstrap_test(y_test, pred_a, pred_b, "balanced_accuracy_score",
                                                     seed=0),
    "average precision": stats.paired_bootstrap_test(
        y_test, score_a, score_b, partial(average_precision_score, pos_label="malignant"), seed=0),
}
for name, t in tests.items():
    ci = t.confidence_interval()
    print(f"{name:>18}: A - B = {t.estimate:+.4f}  95% [{ci.low:+.4f}, {ci.high:+.4f}]  p = {t.pvalue:.3f}")

# %%
# The discordant cases and every difference at a glance
# -----------------------------------------------------
# On the left, the table McNemar's test reads: who was right on which case. On the right, each
# difference A - B with its 95% interval; an interval that crosses zero leaves the question
# open.

a_right, b_right = pred_a == y_test, pred_b == y_test
table = np.array([[np.sum(a_right & b_right), np.sum(a_right & ~b_right)],
                  [np.sum(~a_right & b_right), np.sum(~a_right & ~b_right)]])

fig, (ax_t, ax_d) = plt.subplots(1, 2, figsize=(10.5, 4.4), layout="constrained",
                                 gridspec_kw={"width_ratios": [1, 1.6]})
ax_t.imshow(np.log1p(table), cmap="Blues")
for (i, j), v in np.ndenumerate(table):
    ax_t.text(j, i, str(v), ha="center", va="center", fontsize=14,
              color="white" if v > table.max() / 2 else "black")
ax_t.set_xticks([0, 1], ["B right", "B wrong"])
ax_t.set_yticks([0, 1], ["A right", "A wrong"])
ax_t.set_title(f"McNemar: b = {mc.extra['b']}, c = {mc.extra['c']}, p = {mc.pvalue:.3f}")

rows = [("accuracy (McNemar)", mc.estimate, mc.confidence_interval())]
rows += [(name + " (bootstrap)", t.estimate, t.confidence_interval()) for name, t in tests.items()
         if name != "accuracy"]
rows += [("ROC AUC (DeLong)", dl.estimate, dl.confidence_interval())]
for i, (name, estimate, ci) in enumerate(rows):
    color = "tab:green" if ci.low > 0 or ci.high < 0 else "0.4"
    ax_d.errorbar(estimate, i, xerr=[[estimate - ci.low], [ci.high - estimate]], fmt="o", color=color,
                  capsize=4)
ax_d.axvline(0, color="k", linewidth=0.8)
ax_d.set_yticks(range(len(rows)), [r[0] for r in rows])
ax_d.invert_yaxis()
ax_d.set_xlabel("difference A - B with 95% interval (green: excludes 0)")
ax_d.grid(axis="x", color="0.9")
plt.show()

# %%
# One more caution: every extra test is another chance of a false alarm. When several metrics
# are compared, adjust their p-values, for instance with Holm's step-down method.

adjusted = stats.holm([t.pvalue for t in tests.values()] + [dl.pvalue])
for name, p, q in zip([*tests, "ROC AUC (DeLong)"], adjusted.pvalues, adjusted.adjusted):
    print(f"{name:>18}: p = {p:.3f}, Holm-adjusted {q:.3f}")

# %%
# After the adjustment no difference is significant at 5%. Holm's method is valid whatever the
# dependence between the tests, and therefore conservative here: accuracy, F1, MCC and balanced
# accuracy all read the same 18 discordant cases, so they are nearly one test asked four times.
# The cleaner course is to choose, before looking, the one metric that matters for the
# application, and test that.
