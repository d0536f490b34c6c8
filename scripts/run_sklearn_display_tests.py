"""Run scikit-learn's own Display tests against clfeval's Display classes.

The installed ``sklearn/metrics/_plot/tests`` files are rewritten into a temporary folder with
``RocCurveDisplay``, ``PrecisionRecallDisplay``, ``DetCurveDisplay`` and
``ConfusionMatrixDisplay`` imported from ``clfeval.plot`` after scikit-learn's names (everything
else, such as ``CalibrationDisplay`` and the metric functions, stays scikit-learn's), then pytest
runs them with this checkout's ``src`` first on the path. Extra arguments go to pytest (paths
are relative to the temporary folder, e.g. ``test_roc_curve_display.py``). Nothing is written
into the repository.

    python scripts/run_sklearn_display_tests.py -q
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

FILES = ["test_common_curve_display", "test_confusion_matrix_display", "test_det_curve_display",
         "test_precision_recall_display", "test_roc_curve_display"]
OURS = "from clfeval.plot import ConfusionMatrixDisplay, DetCurveDisplay, PrecisionRecallDisplay, RocCurveDisplay\n"
CONFTEST = '''import pytest


@pytest.fixture
def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.close("all")
    yield plt
    plt.close("all")
'''


def rewrite(text: str) -> str:
    """scikit-learn's test module, with clfeval's displays shadowing scikit-learn's."""
    text = text.replace("from sklearn.metrics._plot.tests.test_common_curve_display", "from test_common_curve_display")
    found = re.search(r"^from sklearn\.metrics import (\([^)]*\)|[^\n]*)\n", text, re.M)
    if found is None:
        raise SystemExit("no 'from sklearn.metrics import' line to follow")
    return text[: found.end()] + OURS + text[found.end():]


def main(argv: list[str]) -> int:
    import sklearn

    source = Path(sklearn.__file__).parent / "metrics" / "_plot" / "tests"
    with tempfile.TemporaryDirectory() as tmp:
        for name in FILES:
            (Path(tmp) / f"{name}.py").write_text(rewrite((source / f"{name}.py").read_text()))
        (Path(tmp) / "conftest.py").write_text(CONFTEST)
        print(f"scikit-learn {sklearn.__version__}: {source}", flush=True)
        src = str(Path(__file__).resolve().parents[1] / "src")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH")) if p)}
        return subprocess.call([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--rootdir", tmp,
                                *(argv if any(a.endswith(".py") for a in argv) else [*argv, tmp])], cwd=tmp, env=env)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
