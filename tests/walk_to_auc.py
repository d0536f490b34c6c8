"""Follow one ``y_score`` from the command line to the ROC AUC formula: run ``clfeval report FILE
--y-score y_score`` in this process and record the call stack (package functions only, outermost
first) the first time :func:`clfeval.formulas.curves.roc_auc` runs.

``python tests/walk_to_auc.py`` prints the walk; ``tests/test_architecture.py`` keeps it short.
"""

from __future__ import annotations

import contextlib
import io
import sys
import traceback
from pathlib import Path

DEMO = Path(__file__).resolve().parents[1] / "src" / "clfeval" / "data" / "demo_breast_cancer_logistic_regression.csv"


def walk(path: Path = DEMO) -> list[str]:
    """``module.function`` of each package frame on the stack when the AUC formula first runs
    (found by a profile hook on the call of ``roc_auc`` in ``clfeval/formulas/curves.py``, so it does not
    depend on which module object other tests have left in ``sys.modules``)."""
    from clfeval.cli import main

    stack: list[str] = []

    def hook(frame, event, arg):
        if (not stack and event == "call" and frame.f_code.co_name == "roc_auc"
                and frame.f_code.co_filename.replace("\\", "/").endswith("/clfeval/formulas/curves.py")):
            for entry in traceback.extract_stack(frame):
                if "/clfeval/" in entry.filename.replace("\\", "/"):
                    module = entry.filename.replace("\\", "/").split("/src/")[-1].removesuffix(".py")
                    module = module.removesuffix("/__init__")
                    stack.append(f"{module.replace('/', '.')}.{entry.name}")

    previous = sys.getprofile()
    sys.setprofile(hook)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            status = main(["report", str(path), "--y-score", "y_score", "--pos-label", "malignant"])
    finally:
        sys.setprofile(previous)
    assert status == 0, status
    return stack


def modules_of(stack: list[str]) -> list[str]:
    """The modules the walk passes through, in order, each run of calls within one module once."""
    out: list[str] = []
    for entry in stack:
        module = entry.rsplit(".", 1)[0]
        if not out or out[-1] != module:
            out.append(module)
    return out


if __name__ == "__main__":
    steps = walk()
    print("\n".join(f"{i:2d}. {s}" for i, s in enumerate(steps, 1)))
    mods = modules_of(steps)
    print(f"{len(set(mods))} modules, {len(mods) - 1} hops between modules, "
          f"{len(mods) - len(set(mods))} returns to a module already left")
