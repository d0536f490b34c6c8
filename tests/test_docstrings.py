"""Every public function and class documents itself the numpydoc way (issue 21).

The public names are those in the ``__all__`` of the modules listed in docs/api_modules.py, from
which the API reference (docs/api) is written. Each docstring, read by numpydoc's own validator, has:

* every parameter of the signature under ``Parameters`` and none that the signature lacks
  (PR01, PR02), with a description (PR07);
* a ``Returns`` (or ``Yields``) section when it is a function (RT01);
* an ``Examples`` section (EX01); the examples run as doctests (``--doctest-modules`` in pyproject);
* for a function or class named like one in ``sklearn.metrics`` (a drop-in), the line
  "Same as `sklearn.metrics.X`; differences: ...".
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from pathlib import Path

import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate", reason="numpydoc is in the docs and test extras")

def documented_modules() -> tuple[str, ...]:
    """The modules whose ``__all__`` is the documented API: docs/api_modules.py, the list the
    reference pages are written from."""
    path = Path(__file__).resolve().parents[1] / "docs" / "api_modules.py"
    spec = importlib.util.spec_from_file_location("api_modules", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(name for name, _ in module.PUBLIC_MODULES)


PUBLIC_MODULES = documented_modules()

#: The numpydoc checks every public docstring passes.
CHECKS = ("GL08", "PR01", "PR02", "PR07", "RT01", "EX01")


def public_objects() -> list[tuple[str, object]]:
    """(qualified name, object) for each public function and class, each object once."""
    seen: set[int] = set()
    found = []
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            found.append((f"{module_name}.{name}", obj))
    return found


PUBLIC = public_objects()


class ObjectValidator(numpydoc_validate.Validator):
    """numpydoc's validator, handed the object itself (a name like ``clfeval.stats.mcnemar``
    would resolve to the module of that name, not the function)."""

    objects: dict[str, object] = dict(PUBLIC)

    def __init__(self, obj_name):
        # numpydoc.validate.validate calls validator_cls(obj_name=...); the base class takes a doc object
        from numpydoc.docscrape import get_doc_object

        super().__init__(get_doc_object(self._load_obj(obj_name)))

    @staticmethod
    def _load_obj(name):
        return ObjectValidator.objects[name]


@pytest.mark.parametrize("name", [name for name, _ in PUBLIC])
def test_public_docstring_is_complete(name):
    result = numpydoc_validate.validate(name, validator_cls=ObjectValidator)
    errors = [f"{code}: {message}" for code, message in result["errors"] if code in CHECKS]
    assert not errors, f"{name}: " + "; ".join(errors)


@pytest.mark.parametrize("name", [name for name, _ in PUBLIC])
def test_drop_in_names_its_sklearn_twin(name):
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    short = name.rsplit(".", 1)[1]
    if not hasattr(sklearn_metrics, short):
        return
    doc = inspect.getdoc(dict(PUBLIC)[name]) or ""
    assert f"Same as `sklearn.metrics.{short}`; differences: " in " ".join(doc.split()), name


def test_public_names_are_many_and_include_the_main_job():
    names = {name for name, _ in PUBLIC}
    assert {"clfeval.evaluate", "clfeval.metrics.roc_auc_score", "clfeval.stats.mcnemar"} <= names
    assert len(names) > 150
