"""Write the example notebooks of this folder (nbformat v4, cells without outputs).

Run ``python examples/notebooks/make_notebooks.py`` after changing a cell here; the notebook is
the file to open in Jupyter, this script the one to edit. tests/test_notebook.py runs the notebook
in a real kernel and reads its outputs, finding cells by their tags.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

CELLS = [
    ("md", None, """# Evaluating a classifier in Jupyter

Every result of clfeval shows itself in a notebook: the last expression of a cell is drawn as a
small table (its `_repr_html_`) with the same numbers, in the same 4 decimals, as
`print(ev.report)` writes in a terminal. Nothing here needs a network or a script: the tables are
plain HTML.

We fit two models on scikit-learn's breast cancer data and evaluate them on the same held-out
cases."""),
    ("code", "setup", """import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import clfeval
from clfeval.cross_evaluation import cross_evaluate
from clfeval.stats import mcnemar

data = load_breast_cancer()
diagnosis = np.where(data.target == 0, "malignant", "benign")
X_train, X_test, y_train, y_test = train_test_split(
    data.data, diagnosis, test_size=0.3, random_state=0, stratify=diagnosis
)
logistic = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
bayes = GaussianNB().fit(X_train, y_train)
p_logistic = logistic.predict_proba(X_test)[:, list(logistic.classes_).index("malignant")]
p_bayes = bayes.predict_proba(X_test)[:, list(bayes.classes_).index("malignant")]"""),
    ("md", None, """## One evaluation

`evaluate` takes the true labels and the probability of the positive class. Shown in a cell, the
Evaluation is its title line, the confusion matrix, the classification report and the areas under
the curves (`ev.to_html(path)` writes the full page with pictures)."""),
    ("code", "evaluation", """ev = clfeval.evaluate(
    y_test, y_score=p_logistic, pos_label="malignant", name="logistic regression"
)
ev"""),
    ("code", "report", "ev.report"),
    ("code", "confusion", "ev.confusion"),
    ("code", "curves", "ev.roc"),
    ("md", None, """## How sure are these numbers?

Every number of the report has a confidence interval; `ev.ci(name)` gives one of them."""),
    ("code", "intervals", "ev.intervals(0.95)"),
    ("code", "interval", "ev.ci(\"accuracy\")"),
    ("md", None, """## Two models on the same cases

McNemar's test compares the two models' hard predictions case by case."""),
    ("code", "mcnemar", """pred_logistic = np.where(p_logistic >= 0.5, "malignant", "benign")
pred_bayes = np.where(p_bayes >= 0.5, "malignant", "benign")
mcnemar(y_test, pred_logistic, pred_bayes)"""),
    ("md", None, """## Cross-validation

`cross_evaluate` fits the model on each training fold and evaluates it on the held-out fold: the
mean over folds, the spread, and an interval for the mean that allows for the folds sharing
training data."""),
    ("code", "cross", """cv = cross_evaluate(
    make_pipeline(StandardScaler(), LogisticRegression()), data.data, diagnosis, 5,
    progress=False, name="logistic regression, 5 folds",
)
cv"""),
]


def notebook() -> nbformat.NotebookNode:
    """The notebook of :data:`CELLS`; a code cell's tag names it for the test."""
    cells = []
    for i, (kind, tag, source) in enumerate(CELLS):
        if kind == "md":
            cells.append(new_markdown_cell(source, id=f"text-{i}"))  # fixed ids: the file changes only with a cell
        else:
            cells.append(new_code_cell(source, metadata={"tags": [tag]}, id=tag))
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


if __name__ == "__main__":
    nb = notebook()
    nbformat.validate(nb)
    nbformat.write(nb, HERE / "evaluate_in_jupyter.ipynb")
