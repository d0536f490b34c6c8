"""The example notebook runs in a real Jupyter kernel and shows each result as HTML (issue 21).

examples/notebooks/evaluate_in_jupyter.ipynb is executed with nbclient (kernel "python3", in a
temporary folder); each tagged cell's output is read: the Evaluation's HTML holds the accuracy and
ROC AUC that scikit-learn computes here from the same split and model, and every result cell shows
self-contained HTML (no script, no link) next to its text form.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

nbformat = pytest.importorskip("nbformat", reason="running the example notebook needs nbformat (the test extra)")
nbclient = pytest.importorskip("nbclient", reason="running the example notebook needs nbclient (the test extra)")
pytest.importorskip("ipykernel", reason="running the example notebook needs a Jupyter kernel: pip install ipykernel")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "notebooks" / "evaluate_in_jupyter.ipynb"

#: the cells whose last expression is a result object, and a word its HTML shows
RICH = {"evaluation": "Confusion matrix", "report": "Classification report", "confusion": "Confusion matrix",
        "curves": "ROC curves", "intervals": "95% confidence intervals", "interval": "95% confidence interval",
        "mcnemar": "McNemar", "cross": "Summary"}


def _kernel_available() -> bool:
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        return False
    return True


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    if not _kernel_available():
        pytest.skip("no Jupyter kernel named 'python3' (python -m ipykernel install --user)")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    cwd = tmp_path_factory.mktemp("notebook")
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(cwd)}})
    client.execute()
    return nb, cwd


def cell(nb, tag: str):
    found = [c for c in nb.cells if tag in c.get("metadata", {}).get("tags", [])]
    assert len(found) == 1, f"one cell tagged {tag!r}, found {len(found)}"
    return found[0]


def result_of(nb, tag: str) -> dict:
    """The data of the cell's execute_result (its mime bundle)."""
    results = [o for o in cell(nb, tag).outputs if o.output_type == "execute_result"]
    assert results, f"cell {tag!r} shows no result: {cell(nb, tag).outputs}"
    return results[-1]["data"]


def test_the_stored_notebook_has_no_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    assert nb.nbformat == 4
    for c in nb.cells:
        if c.cell_type == "code":
            assert c.outputs == [] and c.execution_count is None, f"cell {c.get('id')} stores outputs"


def test_every_cell_runs_without_error(executed):
    nb, cwd = executed
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors, errors
    assert list(cwd.iterdir()) == []  # the notebook writes no files


def test_each_result_shows_html_and_text(executed):
    nb, _ = executed
    for tag, word in RICH.items():
        data = result_of(nb, tag)
        assert "text/html" in data and "text/plain" in data, (tag, list(data))
        html = data["text/html"]
        assert word in html, (tag, word)
        assert "<table>" in html
        low = html.lower()
        assert "<script" not in low and "http://" not in low and "https://" not in low and "<link" not in low
        assert len(html) < 100_000, (tag, len(html))


def test_the_evaluation_shows_the_numbers_scikit_learn_computes(executed):
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import accuracy_score, average_precision_score, roc_auc_score
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    nb, _ = executed
    data = load_breast_cancer()
    diagnosis = np.where(data.target == 0, "malignant", "benign")
    X_train, X_test, y_train, y_test = train_test_split(data.data, diagnosis, test_size=0.3, random_state=0,
                                                        stratify=diagnosis)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
    p = model.predict_proba(X_test)[:, list(model.classes_).index("malignant")]
    positive = y_test == "malignant"
    accuracy = accuracy_score(positive, p >= 0.5)
    auc, ap = roc_auc_score(positive, p), average_precision_score(positive, p)

    html = result_of(nb, "evaluation")["text/html"]
    assert f"<th>accuracy</th><td>{accuracy:.4f}</td>" in html
    assert f"<th>malignant</th><td>{auc:.4f}</td><td>{ap:.4f}</td>" in html
    assert f"{len(y_test)} samples" in html and "positive class malignant" in html
    assert f"accuracy={accuracy:.4f}" in result_of(nb, "evaluation")["text/plain"]
    report = result_of(nb, "report")
    assert f"{accuracy:.4f}" in report["text/html"] and f"{accuracy:.4f}" in report["text/plain"]


def test_the_notebook_is_what_its_generator_writes():
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_notebooks", NOTEBOOK.parent / "make_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    stored = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert stored == json.loads(nbformat.writes(module.notebook())), "run examples/notebooks/make_notebooks.py"
