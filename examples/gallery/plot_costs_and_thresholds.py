"""
Choosing a threshold with costs: expected cost, cost curves and decision curves
===============================================================================

A threshold of 0.5 is right only when both kinds of mistake cost the same and the classes are
as frequent in use as in the test set. In screening, a missed malignant tumour costs far more than
a needless biopsy. This example puts a price on each mistake, finds the threshold that minimises
the expected cost, sees how it moves with the costs and with the prevalence, and compares two
models over all cost ratios at once with Drummond and Holte's cost curves and Vickers and Elkin's
decision curves.
"""

# sphinx_gallery_thumbnail_number = 2

# %%
# Out-of-fold probabilities for two models
# ----------------------------------------
# We use scikit-learn's ``cross_val_predict`` so that every one of the 569 tumours gets a
# probability from a model that did not see it.

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import clfeval
from clfeval.plot import CostCurveDisplay, DecisionCurveDisplay

data = load_breast_cancer()
y = np.where(data.target == 0, "malignant", "benign")
folds = StratifiedKFold(5, shuffle=True, random_state=0)
evaluations = []
for name, model in [("logistic regression", make_pipeline(StandardScaler(), LogisticRegression())),
                    ("naive Bayes", GaussianNB())]:
    proba = cross_val_predict(model, data.data, y, cv=folds, method="predict_proba")
    p_malignant = proba[:, 1]  # columns follow the sorted classes: benign, malignant
    evaluations.append(clfeval.evaluate(y, y_score=p_malignant, pos_label="malignant", name=name))
lr, nb = evaluations

# %%
# A cost matrix
# -------------
# Rows are the true class and columns the prediction, in the evaluation's label order
# (benign, malignant), as in the confusion matrix. A false alarm (benign called malignant) costs
# 1, a missed malignant tumour 10, correct decisions nothing. The expected cost is the average
# cost per tumour.

print("labels:", lr.labels)
costs = [[0, 1],
         [10, 0]]
for ev in evaluations:
    print(f"{ev.name:>20} at threshold 0.5: expected cost {ev.expected_cost(costs):.4f} per tumour, "
          f"confusion {ev.confusion.counts.tolist()}")

# %%
# The threshold that minimises it
# -------------------------------
# ``operating_point("min-cost", costs=...)`` searches every threshold. For the logistic
# regression it lowers the threshold to about 0.2: eighteen false alarms instead of three, to
# miss four tumours instead of nine. ``ev.at(t)`` gives the whole evaluation there.

best = lr.operating_point("min-cost", costs=costs)
print(best)
at_best = lr.at(best.threshold)
print(f"expected cost {lr.expected_cost(costs):.4f} at 0.5 -> {at_best.expected_cost(costs):.4f} "
      f"at {best.threshold:.3f}")
print(at_best.confusion.counts)

# %%
# The cost depends on the prevalence too. The data hold 37% malignant tumours; in a screening
# population there might be 5%. ``prevalence=`` re-weighs the two classes' rates, and with fewer
# malignant tumours to miss, the best threshold moves back above 0.5.

for prevalence in (None, 0.2, 0.05):
    p = lr.operating_point("min-cost", costs=costs, prevalence=prevalence)
    label = "as in the data (37%)" if prevalence is None else f"{prevalence:.0%}"
    print(f"prevalence {label:>21}: threshold {p.threshold:.3f}, expected cost {p.value:.4f}, "
          f"recall {p.recall:.3f}, specificity {p.specificity:.3f}")

# %%
# Expected cost against the threshold
# -----------------------------------
# The sweep gives the counts at every threshold, from which the cost follows; the curve is flat
# near its minimum, so the exact threshold matters less than getting to the right region.

sweep = lr.threshold_sweep(["fp", "fn", "tp", "tn"])
t = sweep.column("threshold")
n = lr.n_samples
fig, ax = plt.subplots(figsize=(10, 4.5), layout="constrained")
for ratio, color in ((1, "tab:gray"), (5, "tab:blue"), (10, "tab:red"), (50, "tab:purple")):
    cost = (sweep.column("fp") * 1 + sweep.column("fn") * ratio) / n
    label = "a miss costs as much as a false alarm" if ratio == 1 else f"a miss costs {ratio} false alarms"
    ax.step(t[1:], cost[1:], where="post", color=color, label=label)
    p = lr.operating_point("min-cost", costs=[[0, 1], [ratio, 0]])
    ax.plot(p.threshold, p.value, "o", color=color, markersize=7)
ax.axvline(0.5, color="k", linestyle=":", label="threshold 0.5")
ax.set(xlabel="threshold on P(malignant)", ylabel="expected cost per tumour (false alarm = 1)",
       ylim=(0, 0.6), title="logistic regression: the minimum (dots) moves with the cost ratio")
ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
plt.show()

# %%
# Cost curves: every cost ratio at once
# -------------------------------------
# Drummond and Holte's cost curve puts the *probability cost* PC(+) on the x axis, a single
# number that combines the prevalence and the cost ratio, and the normalised expected cost on the
# y axis. Each threshold is a straight line; the model's best achievable cost is their lower
# envelope (thick), and its area summarises the model over all conditions. The dashed triangle
# is the better of "always benign" and "always malignant". Our situation, 37% malignant with
# misses ten times as costly, is PC(+) = 0.86 (grey vertical line). The plots are cut at 0.2
# to show the envelopes; the triangle of the trivial classifiers peaks at 0.5.

from clfeval.costs import probability_cost

pc = probability_cost(np.mean(y == "malignant"), costs)
fig, axes = plt.subplots(1, 2, figsize=(10.5, 5), layout="constrained")
for ax, ev in zip(axes, evaluations):
    CostCurveDisplay.from_evaluation(ev, ax=ax, y_max=0.2)
    ax.axvline(pc, color="0.5", linewidth=1)
    curve = ev.cost_curve()
    print(f"{ev.name:>20}: area under the envelope {curve.area:.4f}; "
          f"best threshold at PC(+) = {pc:.2f}: {curve.best_threshold([pc])[0]:.3g}")
plt.show()

# %%
# Both envelopes on one axes show where each model is cheaper: the logistic regression's lies
# below almost everywhere.

CostCurveDisplay.from_evaluations(evaluations, show_lines=False)
plt.show()

# %%
# Decision curves: net benefit
# ----------------------------
# Decision curve analysis asks a clinician's question: if I would send a patient to biopsy once
# her risk exceeds p_t, is acting on the model better than biopsying everyone or no one? The net
# benefit counts true positives and charges each false positive the odds p_t / (1 - p_t). It
# uses the probabilities as risks, so it rewards calibration: naive Bayes's probabilities sit at
# 0 and 1 and its net benefit drops below the logistic regression's at every threshold.

disps = DecisionCurveDisplay.from_evaluations(evaluations)
plt.show()

dc = lr.decision_curve([0.05, 0.1, 0.2, 0.3])
for pt, nb_model, nb_all in zip(dc.thresholds, dc.net_benefit, dc.treat_all):
    print(f"p_t = {pt:.2f}: net benefit of the model {nb_model:.4f}, of treating everyone {nb_all:.4f}")
