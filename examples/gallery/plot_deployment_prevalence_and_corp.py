"""
Deployment prevalence and CORP reliability diagrams
===================================================

A screening model is validated on a *case–control* sample, half with the condition and half
without, and deployed where 2% of the people screened have it. Its ROC curve carries over; its
precision–recall curve does not. This example draws, side by side, the precision–recall curve on
the sample and at the deployment prevalence (``ev.at_prevalence()``), and the CORP reliability
diagram of the sample's probabilities with its consistency band, smooth ECE and the CORP
decomposition of the Brier score (``ev.calibration()``). The guide page
:doc:`/guide/beyond_the_classics` explains each measure.
"""

# %%
# A model validated on a balanced sample
# --------------------------------------
# Gaussian naive Bayes on correlated features: it ranks well, and it is overconfident.
# ``evaluate(..., prevalence=0.02)`` records the deployment prevalence; the sample's numbers
# stay as they are.

import matplotlib.pyplot as plt
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

import clfeval

X, y = make_classification(n_samples=6000, n_features=12, n_informative=3, n_redundant=6,
                           n_clusters_per_class=1, class_sep=0.8, flip_y=0.02, random_state=7)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
p = GaussianNB().fit(X_train, y_train).predict_proba(X_test)[:, 1]

ev = clfeval.evaluate(y_test, y_score=p, prevalence=0.02, name="naive Bayes")
print(f"sample prevalence {y_test.mean():.3f}, ROC AUC {ev.report.overall['roc_auc']:.4f}")

# %%
# The measures at the deployment prevalence
# -----------------------------------------
# Recall and fall-out are rates within one class and stay as they are. Precision, NPV, F1,
# accuracy, MCC and average precision are recomputed for π from them, with intervals
# (delta method on TPR and FPR, π fixed).

at = ev.at_prevalence()
print(at.caption)
for name, title, value, ci in at.rows():
    interval = "" if ci is None else f"  [{ci.low:.4f}, {ci.high:.4f}]"
    print(f"{title:16s} {value:.4f}{interval}")

# %%
# Smooth ECE and the CORP decomposition
# -------------------------------------
# ``ev.calibration()`` holds the smooth ECE (Błasiok & Nakkiran 2023) and the CORP diagram
# (Dimitriadis, Gneiting & Jordan 2021): the isotonic recalibration of the probabilities, its
# consistency band, and the decomposition of the Brier score into miscalibration (MCB),
# discrimination (DSC) and uncertainty (UNC), which adds up exactly.

calibration = ev.calibration()
corp, smooth = calibration.corp, calibration.smooth_ece
brier = corp.brier
print(smooth)
print(f"Brier {brier.value:.6f} = {brier.text(lambda v: f'{v:.6f}')}")
print(f"MCB - DSC + UNC - Brier = "
      f"{brier.miscalibration - brier.discrimination + brier.uncertainty - brier.value:.1e}")

# %%
# Two panels
# ----------
# Left, the precision–recall curve of the sample and the one at π = 0.02, from the same ROC
# curve: at 2% prevalence every false positive weighs 49 times more against the true ones than
# in the balanced sample. Right, the CORP diagram: the recalibrated probability against the
# predicted one, where a calibrated model follows the diagonal, and the band where the curve
# would lie, at each point, if the probabilities were calibrated. Naive Bayes leaves the band
# at both ends, where its probabilities are too extreme.

fig, (ax_pr, ax_corp) = plt.subplots(1, 2, figsize=(11, 5), layout="constrained")

sample = ev.pr.main
ax_pr.plot(sample.recall, sample.precision, color="tab:blue",
           label=f"test sample, π = {at.sample_prevalence:.2f}: AP {sample.area:.3f}")
ax_pr.plot(at.pr_curve.recall, at.pr_curve.precision, color="tab:orange",
           label=f"deployment, π = {at.prevalence:.2f}: AP {at.average_precision:.3f}")
ax_pr.axhline(at.prevalence, color="tab:orange", linestyle=":", linewidth=1,
              label=f"chance at π = {at.prevalence:.2f}")
ax_pr.axhline(at.sample_prevalence, color="tab:blue", linestyle=":", linewidth=1,
              label="chance in the sample")
ax_pr.set(xlabel="recall", ylabel="precision", xlim=(0, 1), ylim=(0, 1.02),
          title="Precision–recall: the sample and the deployment")
ax_pr.legend(loc="lower left", fontsize="small")

ax_corp.fill_between(corp.x, corp.band_low, corp.band_high, color="tab:blue", alpha=0.2, linewidth=0,
                     label=f"{corp.band_level:.0%} consistency band")
ax_corp.plot(corp.x, corp.recalibrated, color="tab:red", linewidth=2,
             label=f"CORP curve (isotonic), {corp.n_blocks} blocks")
ax_corp.plot([0, 1], [0, 1], color="0.5", linestyle=":", linewidth=1, label="calibrated")
ax_corp.set(xlabel="predicted probability", ylabel="recalibrated probability (observed frequency)",
            xlim=(0, 1), ylim=(0, 1), aspect="equal",
            title=f"CORP reliability diagram, smooth ECE {smooth.value:.3f}")
ax_corp.legend(loc="upper left", fontsize="small",
               title=f"Brier {brier.value:.4f} =\n{brier.text()}", title_fontsize="small")
plt.show()

# %%
# The uncertainty term is the Brier score of always predicting the sample's base rate, so it
# belongs to the data, not to the model; the discrimination term is what the model's ranking
# gains over it, and the miscalibration term what its probabilities lose against their own
# isotonic recalibration. Note that the diagram and the decomposition are for the sample's
# prevalence: probabilities estimated on a balanced sample are too high for a population with
# 2% prevalence, whatever the diagram says about the sample.
