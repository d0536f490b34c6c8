"""
The HTML report, and the other ways out: JSON, Markdown, PNG
============================================================

An evaluation is often read by someone who will not run Python: a colleague, a reviewer, a
future you. ``clfeval.report.html.write_html`` writes one self-contained page (the charting
library inline, no network access) with the classification report, an interactive confusion
matrix, ROC and precision-recall charts with their operating and break-even points, the threshold
views, calibration and costs, evaluation by group and, for several models, a comparison table.
This example writes such a page for two models into a temporary folder, together with the JSON,
Markdown and PNG outputs, and shows the PNG plots.
"""

# %%
# Two models, evaluated by group
# ------------------------------

import re
import tempfile
from pathlib import Path

import matplotlib.image as mpimg
import matplotlib.pyplot as plt
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import clfeval
from clfeval.plot import save_pngs
from clfeval.report.html import write_html

cancer = load_breast_cancer(as_frame=True)
diagnosis = cancer.target.map({0: "malignant", 1: "benign"}).to_numpy()
thirds = ["lowest third", "middle third", "highest third"]
size = pd.qcut(cancer.data["mean radius"], 3, labels=thirds).to_numpy()
X_train, X_test, y_train, y_test, size_train, size_test = train_test_split(
    cancer.data, diagnosis, size, test_size=0.5, random_state=0, stratify=diagnosis
)
evaluations = []
for name, model in [("logistic regression", make_pipeline(StandardScaler(), LogisticRegression())),
                    ("naive Bayes", GaussianNB())]:
    p_malignant = model.fit(X_train, y_train).predict_proba(X_test)[:, 1]  # classes: benign, malignant
    evaluations.append(clfeval.evaluate(y_test, y_score=p_malignant, pos_label="malignant", name=name,
                                        groups=size_test))

# %%
# The page
# --------
# Everything goes into a fresh temporary folder; open the printed path in a browser to see the
# page. ``bands=0.95`` shades bootstrap bands around the main curves. The file is written
# atomically: it is either the complete new page or not there at all.

folder = Path(tempfile.mkdtemp(prefix="clfeval-gallery-"))
page = write_html(folder / "breast_cancer_report.html", evaluations, title="Breast cancer: two models",
                  bands=0.95)
print(f"wrote {page} ({page.stat().st_size / 2**20:.1f} MiB)")

html = page.read_text(encoding="utf-8")
print("sections:")
for heading in re.findall(r"<h2[^>]*>(.*?)</h2>", html):
    print("  -", heading)

# %%
# One model's page can carry a cost matrix: its thresholds section then adds the expected cost,
# the threshold that minimises it, and the cost curve.

single = evaluations[0].to_html(folder / "logistic_regression.html", costs=[[0, 1], [10, 0]])
print(f"wrote {single}")

# %%
# JSON and Markdown
# -----------------
# ``to_json`` writes every number, curve (thinned to at most 2000 points, areas exact) and
# operating point as strict JSON; ``ci_level`` adds the intervals. ``to_markdown`` gives the
# report as tables for a README or a pull request.

path = evaluations[0].to_json(folder / "logistic_regression.json", ci_level=0.95)
print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")
print(sorted(evaluations[0].to_dict())[:12], "...")
print(evaluations[0].to_markdown())

# %%
# PNG files
# ---------
# ``save_pngs`` writes the standard plots, the same set as ``clfeval report --png``: confusion
# matrices, ROC and PR curves with every model overlaid, and the 3-D threshold views.

pngs = save_pngs(evaluations, folder / "png", dpi=80)
for p in pngs:
    print(f"  {p.relative_to(folder)}")

shown = ["confusion_matrix_normalized_logistic-regression.png", "confusion_matrix_normalized_naive-bayes.png",
         "roc.png", "pr.png"]
fig, axes = plt.subplots(2, 2, figsize=(10, 9.5), layout="constrained")
for ax, name in zip(axes.flat, shown):
    ax.imshow(mpimg.imread(folder / "png" / name))
    ax.set_title(name, fontsize=10, family="monospace")
    ax.set_axis_off()
plt.show()

# %%
# ``roc_3d.png`` pairs the 3-D view of the ROC curves (threshold as depth) with an exact 2-D panel
# of the two rates against the threshold.

fig, ax = plt.subplots(figsize=(10, 4.6), layout="constrained")
ax.imshow(mpimg.imread(folder / "png" / "roc_3d.png"))
ax.set_axis_off()
plt.show()

# %%
# The folder stays in your temporary directory after the script ends; delete it when done.

print(f"everything is in {folder}")
