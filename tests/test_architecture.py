"""The package's structure as rules: layers, no import cycles, nothing imports the CLI, no private
name crosses a module boundary, no module writes another object's private state, no module over
800 lines of code (docstrings not counted). Read from the source with ``ast``
(tests/architecture.py), so imports inside functions and under ``TYPE_CHECKING`` count like any
other.

docs/architecture.md draws the layers; ``python tests/architecture.py`` prints what breaks a rule.
"""

from __future__ import annotations

import ast
from fnmatch import fnmatchcase

import pytest

from architecture import SRC, ImportGraph

GRAPH = ImportGraph.of_package(SRC)

#: The layers from the bottom up. A module may import from its own layer and the layers below,
#: never from a layer above. Patterns are fnmatch patterns over dotted module names; each module
#: belongs to exactly one layer: a layer that names it exactly, else the one pattern it matches.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("support", (  # errors and small tools every layer uses; no number of evaluation
        "clfeval.exceptions", "clfeval.support", "clfeval.support.*",
        "clfeval.stats._result", "clfeval.stats._common", "clfeval.uncertainty.checks",
    )),
    ("inputs", ("clfeval.inputs", "clfeval.inputs.*")),  # raw data -> checked arrays
    ("formulas", (  # pure functions of count arrays: measures and their registry, curve formulas
        "clfeval.formulas", "clfeval.formulas.*",
        "clfeval.calibration.bin_sums", "clfeval.calibration.binning", "clfeval.calibration.checks",
    )),
    ("statistics", (  # the sufficient statistics that merge: counts, score tables, rankings, bins
        "clfeval.statistics", "clfeval.statistics.*",
        "clfeval.calibration.inputs", "clfeval.calibration.states", "clfeval.calibration.results",
        "clfeval.calibration.views", "clfeval.calibration.modern",
    )),
    ("results", ("clfeval.results", "clfeval.results.*")),  # result types read off the statistics
    ("uncertainty", ("clfeval.uncertainty", "clfeval.uncertainty.*")),  # an interval for every number
    ("evaluation", (  # evaluate(): inputs -> statistics -> a frozen Evaluation; its stream
        "clfeval.evaluation", "clfeval.evaluation.*", "clfeval.costs", "clfeval.streaming",
        "clfeval.calibration.of_evaluation",
    )),
    ("drop-ins", (  # the scikit-learn compatible functions: no lower layer imports them
        "clfeval.metrics", "clfeval.metrics.*", "clfeval.calibration", "clfeval.calibration.functions",
    )),
    ("comparison", (  # hypothesis tests, model comparison and evaluation protocols
        "clfeval.stats", "clfeval.stats.*", "clfeval.protocols", "clfeval.cross_evaluation",
        "clfeval.cross_evaluation.*",
    )),
    ("views", ("clfeval.report", "clfeval.report.*", "clfeval.plot", "clfeval.plot.*")),
    ("interfaces", (  # files, engines and the command line
        "clfeval", "clfeval.__main__", "clfeval.dask",
        "clfeval.cli", "clfeval.cli.*", "clfeval.command", "clfeval.integrations", "clfeval.integrations.*",
    )),
]

#: Imports that go up a layer, each with why it stays for now; the test fails when one is no
#: longer made, so the list only shrinks.
UPWARD_EXCEPTIONS: dict[tuple[str, str], str] = {
    ("clfeval.evaluation", "clfeval.report.html"):
        "Evaluation.to_html() writes the page through the view (a convenience of the result object)",
}

#: The entry points that may import the command line: the old `clfeval.command` (kept one release)
#: and `python -m clfeval`.
COMPATIBILITY_SHIMS = {"clfeval.command", "clfeval.__main__"}

MAX_LINES = 800


def layer_of(module: str) -> int:
    """The index of ``module``'s layer: a layer naming it exactly wins over a pattern."""
    exact = [i for i, (_, patterns) in enumerate(LAYERS) if module in patterns]
    found = exact or [i for i, (_, patterns) in enumerate(LAYERS) if any(fnmatchcase(module, p) for p in patterns)]
    assert len(found) == 1, f"{module} is in {len(found)} layers: {[LAYERS[i][0] for i in found]}"
    return found[0]


def test_every_module_is_in_exactly_one_layer():
    missing = [m for m in GRAPH.modules if not any(fnmatchcase(m, p) for _, ps in LAYERS for p in ps)]
    assert not missing, f"modules in no layer (add them to LAYERS): {missing}"
    for module in GRAPH.modules:
        layer_of(module)


def upward_imports() -> dict[tuple[str, str], int]:
    """(importer, imported) pairs that go up a layer, with the first line of each."""
    edges = GRAPH.edges()
    found: dict[tuple[str, str], int] = {}
    for imp in GRAPH.imports:
        if imp.target in edges[imp.source] and layer_of(imp.target) > layer_of(imp.source):
            found.setdefault((imp.source, imp.target), imp.line)
    return found


def test_no_module_imports_from_a_higher_layer():
    found = upward_imports()
    unexpected = {pair: line for pair, line in found.items() if pair not in UPWARD_EXCEPTIONS}
    assert not unexpected, "\n".join(
        f"{src}:{line} imports {dst} ({LAYERS[layer_of(src)][0]} -> {LAYERS[layer_of(dst)][0]})"
        for (src, dst), line in sorted(unexpected.items()))


def test_every_declared_upward_import_is_still_made():
    stale = set(UPWARD_EXCEPTIONS) - set(upward_imports())
    assert not stale, f"remove these from UPWARD_EXCEPTIONS, they are gone: {sorted(stale)}"


def test_no_import_cycles():
    assert GRAPH.cycles() == []


def test_nothing_imports_the_command_line():
    importers = [m for m in GRAPH.importers_of("clfeval.cli")
                 if not m.startswith("clfeval.cli") and m not in COMPATIBILITY_SHIMS]
    assert importers == []
    for module in GRAPH.modules:
        if fnmatchcase(module, "clfeval.cli.*"):
            outside = [m for m in GRAPH.importers_of(module)
                       if m != "clfeval.cli" and not fnmatchcase(m, "clfeval.cli.*") and m not in COMPATIBILITY_SHIMS]
            assert outside == [], f"{module} is imported by {outside}"


def test_no_private_name_is_imported_across_modules():
    assert GRAPH.private_imports() == []


def test_no_private_attribute_is_read_from_outside():
    assert GRAPH.private_reads() == []


def test_no_module_writes_another_objects_private_state():
    assert GRAPH.private_writes() == []


def test_no_module_is_over_800_lines_of_code():
    big = {m: n for m, n in GRAPH.sizes().items() if n > MAX_LINES}
    assert big == {}


# -- the checks themselves find what they are for ------------------------------------------------


def graph_of(tmp_path, files: dict[str, str]) -> ImportGraph:
    root = tmp_path / "clfeval"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return ImportGraph.of_package(root)


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path):
    g = graph_of(tmp_path, {
        "a.py": "from .b import f\n",
        "b.py": "def f():\n    from .a import g\n",
    })
    assert g.cycles() == [["clfeval.a", "clfeval.b"]]


def test_a_type_checking_import_counts(tmp_path):
    g = graph_of(tmp_path, {
        "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n",
        "b.py": "import clfeval.a\n",
    })
    assert g.cycles() == [["clfeval.a", "clfeval.b"]]


def test_private_imports_reads_and_writes_are_found(tmp_path):
    g = graph_of(tmp_path, {
        "a.py": "class A:\n    def __init__(self):\n        self._x = 1\n"
                "    @classmethod\n    def copy(cls, other):\n        out = cls()\n        out._x = other._x\n"
                "        return out\n\ndef _helper():\n    pass\n",
        "b.py": "from .a import _helper, A\nfrom . import a\n"
                "def f(obj):\n    obj._x = 2\n    obj.__dict__['y'] = 3\n    return obj._x, a._helper\n",
    })
    assert g.private_imports() == ["clfeval.b:1 imports clfeval.a._helper", "clfeval.b:6 uses clfeval.a._helper"]
    assert g.private_writes() == ["clfeval.b:4 writes obj._x", "clfeval.b:5 writes obj.__dict__['y']"]
    assert g.private_reads() == ["clfeval.b:6 reads obj._x"]


def test_sizes_count_lines_as_wc_does_less_docstrings(tmp_path):
    source = '"""Module.\n\nMore."""\nx = 1\n\n\ndef f():\n    """One."""\n    return 2\n\n\nclass C:\n    """A\n    b."""\n'
    g = graph_of(tmp_path, {"a.py": source, "b.py": "x = 1\ny = 2\n"})
    assert g.sizes()["clfeval.a"] == 14 - 3 - 1 - 2
    assert g.sizes()["clfeval.b"] == 2


@pytest.mark.parametrize("module", sorted(GRAPH.modules))
def test_each_module_parses_and_has_a_docstring(module):
    tree = GRAPH.trees[module]
    doc = ast.get_docstring(tree)
    assert doc, f"{module} has no module docstring saying what it holds"


def test_a_score_column_reaches_the_auc_formula_in_few_hops():
    """`clfeval report FILE --y-score y_score`: command line -> engine -> Evaluation -> ranking ->
    formula, never back to a module already left (before issue 19: 9 modules, 6 returns)."""
    from walk_to_auc import modules_of, walk

    assert modules_of(walk()) == ["clfeval.cli", "clfeval.cli.engines", "clfeval.evaluation",
                                  "clfeval.statistics.rankings", "clfeval.formulas.curves"]
