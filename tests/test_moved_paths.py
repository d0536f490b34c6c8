"""The module paths of earlier releases keep working for one release (issue 19): each old path is the
very module at its new home, warns once naming the new path, and nothing in the package uses an old
path itself."""

from __future__ import annotations

import ast
import json
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

from architecture import SRC
from clfeval.support.moved_paths import MOVED

#: the old paths the issue names, and the Evaluation attributes it names, must stay
NAMED_IN_THE_ISSUE = ["clfeval.counts", "clfeval.roc_pr", "clfeval.area_intervals", "clfeval.atomic"]


def test_every_old_path_is_the_module_at_its_new_home_and_warns_naming_it():
    """In a fresh interpreter (an import warns only the first time): ``import OLD`` and
    ``from PARENT import LEAF`` give the module object of the new path."""
    script = """
import importlib, json, sys, warnings
from clfeval.support.moved_paths import MOVED
out = {}
for old, new in MOVED.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    parent, _, leaf = old.rpartition(".")
    out[old] = {"same": module is importlib.import_module(new), "name": module.__name__,
                "spec": module.__spec__.name, "attribute": getattr(importlib.import_module(parent), leaf) is module,
                "warnings": [(w.category.__name__, str(w.message)) for w in caught]}
print(json.dumps(out))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    assert set(found) == set(MOVED)
    for old, new in MOVED.items():
        entry = found[old]
        assert entry["same"] and entry["name"] == new and entry["spec"] == new and entry["attribute"], (old, entry)
        assert [c for c, _ in entry["warnings"]] == ["DeprecationWarning"], (old, entry)
        assert new in entry["warnings"][0][1], (old, entry)
    assert set(NAMED_IN_THE_ISSUE) <= set(MOVED)


def test_an_old_package_path_does_not_load_a_second_copy_of_its_submodules():
    script = """
import sys, warnings
warnings.simplefilter("ignore")
import clfeval.tabular.arrays as old
import clfeval.inputs.tabular.arrays as new
copies = [m for m in sys.modules.values() if getattr(m, "__file__", None) == new.__file__]
print(old is new, len(set(map(id, copies))))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "1"]


def test_a_pickle_that_names_an_old_path_loads():
    from clfeval.statistics.counts import ConfusionCounts

    counts = ConfusionCounts.from_labels([0, 1, 1, 2], [0, 1, 0, 2])
    payload = pickle.dumps(counts, protocol=0)  # protocol 0 names classes as plain text lines
    assert b"clfeval.statistics.counts" in payload
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        loaded = pickle.loads(payload.replace(b"clfeval.statistics.counts", b"clfeval.counts"))
    np.testing.assert_array_equal(loaded.matrix, counts.matrix)
    assert type(loaded) is ConfusionCounts


def test_patching_an_old_path_patches_the_module_in_use(monkeypatch):
    import clfeval.formulas.curves as curves

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import clfeval.curves as old
    monkeypatch.setattr(old, "roc_auc", lambda *a, **k: -1.0)
    assert curves.roc_auc is old.roc_auc


def _imported_names(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def test_nothing_in_the_package_imports_an_old_path():
    uses = [f"{path.relative_to(SRC.parent)}:{line} {name}"
            for path in sorted(SRC.rglob("*.py"))
            for line, name in _imported_names(ast.parse(path.read_text(encoding="utf-8")))
            if name in MOVED]
    assert uses == []


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_has_no_file_of_its_own(old):
    """The old top level is not refilled: an old path is answered by the finder alone."""
    relative = old.split(".")[1:]
    assert not SRC.joinpath(*relative).with_suffix(".py").exists()
    assert not SRC.joinpath(*relative, "__init__.py").exists()
