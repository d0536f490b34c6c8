"""The package as a user meets it: a light import, the README's commands, the built-in example."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.inputs.examples import load_iris_example

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("matplotlib", "plotly", "pyarrow", "dask", "sklearn", "pandas", "polars")


def test_import_is_light():
    code = "import sys, clfeval, clfeval.metrics; print(','.join(sorted(m for m in %r if m in sys.modules)))" % (HEAVY,)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_readme_opens_with_the_two_setup_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = text.split("```bash\n", 1)[1].split("```", 1)[0].strip().splitlines()
    assert len(first_block) == 2
    assert first_block[0].split("#")[0].split() == ["pip", "install", "-e", "'.[all]'", "&&", "clfeval", "demo"]
    assert "pytest" in first_block[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pytest" in ci and ".[test]" in ci


def test_iris_example_is_the_real_data_and_a_leave_one_out_classifier():
    ex = load_iris_example()
    assert ex.y_true.shape == (150,)
    assert {c: int((ex.y_true == c).sum()) for c in ex.classes} == {
        "setosa": 50, "versicolor": 50, "virginica": 50,
    }
    np.testing.assert_allclose(ex.y_score.sum(axis=1), 1.0, rtol=1e-12)
    assert (ex.classes[ex.y_score.argmax(axis=1)] == ex.y_pred).all()
    # sepal-only nearest centroid separates setosa but confuses the other two
    assert 0.7 < float((ex.y_true == ex.y_pred).mean()) < 0.9


def test_readme_shows_what_the_demo_prints():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- DEMO-OUTPUT:START -->", 1)[1].split("<!-- DEMO-OUTPUT:END -->", 1)[0]
    shown = block.split("```\n", 1)[1].rsplit("```", 1)[0].splitlines()
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
    out = subprocess.run([sys.executable, "-m", "clfeval", "demo", "--kind", "binary", "--no-html"],
                         capture_output=True, text=True, check=True, env=env).stdout.splitlines()
    assert len(shown) > 20
    assert [x.rstrip() for x in shown] == [x.rstrip() for x in out[: len(shown)]]


def test_module_entry_point_is_the_command():
    out = subprocess.run([sys.executable, "-m", "clfeval", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"clfeval {clfeval.__version__}"


def test_version():
    assert clfeval.__version__.count(".") == 2


@pytest.mark.parametrize("module", ["clfeval.uncertainty", "clfeval.stats", "clfeval.uncertainty.area_intervals",
                                    "clfeval.cli", "clfeval.plot", "clfeval.report.html"])
def test_every_module_imports_first_in_a_fresh_process(module):
    code = f"import {module}; from clfeval.stats import bootstrap_ci, delong; import clfeval.uncertainty"
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
