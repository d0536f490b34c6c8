"""Warnings are drop-in: scikit-learn's ``UndefinedMetricWarning`` catches clfeval's.

Each check runs in a fresh interpreter (subprocess), because what is imported is the point:
``import clfeval`` and a metric call import no scikit-learn, and code written for scikit-learn
(filters, ``pytest.warns``, ``simplefilter("error")`` + ``except``) acts on clfeval's warning
whether scikit-learn was imported before or after clfeval; clfeval's own class still catches it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def run_python(code: str) -> str:
    """Run ``code`` in a fresh interpreter with this checkout's clfeval first; return its stdout."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_import_and_metric_calls_import_no_sklearn():
    out = run_python("""
        import sys, warnings
        import clfeval, clfeval.metrics
        from clfeval.metrics import precision_score, roc_auc_score, log_loss
        from clfeval.exceptions import UndefinedMetricWarning
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            precision_score([0, 1], [0, 0])                   # undefined: 0/0
            roc_auc_score([0, 1, 1], [0.1, 0.4, 0.8])
            log_loss([0, 1], [0.2, 0.7])
            clfeval.evaluate([0, 1, 1], [0, 1, 0])
        assert any(issubclass(w.category, UndefinedMetricWarning) for w in seen)
        print(sorted(m for m in sys.modules if m == "sklearn" or m.startswith("sklearn.")))
    """)
    assert out == "[]"


@pytest.mark.parametrize("order", ["sklearn-first", "clfeval-first"])
def test_every_sklearn_catching_style_catches_clfeval_warning(order):
    imports = ("from sklearn.exceptions import UndefinedMetricWarning as Sk\nimport clfeval.metrics as cm"
               if order == "sklearn-first" else
               "import clfeval.metrics as cm\nfrom sklearn.exceptions import UndefinedMetricWarning as Sk")
    out = run_python(imports + """
import warnings
import pytest
from clfeval.exceptions import UndefinedMetricWarning as Ours

def undefined():
    return cm.precision_score([0, 1], [0, 0])   # no predicted positive: 0/0 -> 0.0 with a warning

results = []
# 1. filterwarnings(category=...) silences it (first emission in the process: nothing linked yet
#    when clfeval-first)
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    warnings.filterwarnings("ignore", category=Sk)
    undefined()
results.append(len(seen) == 0)
# 2. pytest.warns(sklearn's class, match=...)
with pytest.warns(Sk, match="Precision is ill-defined"):
    undefined()
results.append(True)
# 3. simplefilter("error", ...) + except sklearn's class
with warnings.catch_warnings():
    warnings.simplefilter("error", Sk)
    try:
        undefined()
        results.append(False)
    except Sk as caught:
        results.append(isinstance(caught, Ours))
# 4. clfeval's own class still catches it, and the categories are ordered as expected
with pytest.warns(Ours, match="Precision is ill-defined"):
    undefined()
results.append(issubclass(Ours, Sk) and issubclass(Ours, UserWarning) and not issubclass(Sk, Ours))
# 5. the same for a ranking metric's warning
with warnings.catch_warnings():
    warnings.simplefilter("error", Sk)
    try:
        cm.roc_curve([1, 1], [0.2, 0.4])
        results.append(False)
    except Sk as caught:
        results.append("No negative samples" in str(caught))
print(results)
""")
    assert out == "[True, True, True, True, True]"


def test_pytest_filterwarnings_mark_on_sklearn_class(tmp_path):
    """``@pytest.mark.filterwarnings("error::sklearn.exceptions.UndefinedMetricWarning")`` (pytest
    imports the class by name) turns clfeval's warning into an error, and ``ignore::`` silences it."""
    (tmp_path / "test_marks.py").write_text(textwrap.dedent("""
        import warnings
        import pytest
        import clfeval.metrics as cm

        @pytest.mark.filterwarnings("error::sklearn.exceptions.UndefinedMetricWarning")
        def test_error():
            cm.precision_score([0, 1], [0, 0])

        @pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
        def test_ignore():
            with warnings.catch_warnings(record=True) as seen:  # keeps the mark's filters
                cm.precision_score([0, 1], [0, 0])
            assert seen == []
    """))
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    assert "1 failed, 1 passed" in done.stdout, done.stdout
    assert "UndefinedMetricWarning: Precision is ill-defined" in done.stdout


def test_pickled_warning_keeps_clfeval_class():
    out = run_python("""
        import pickle
        import sklearn.exceptions
        from clfeval.exceptions import UndefinedMetricWarning
        again = pickle.loads(pickle.dumps(UndefinedMetricWarning("x")))
        print(type(again) is UndefinedMetricWarning, isinstance(again, sklearn.exceptions.UndefinedMetricWarning))
    """)
    assert out == "True True"
