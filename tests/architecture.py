"""The package's structure read from its source (no import is run): modules, the imports between
them (at top level, inside functions and under ``TYPE_CHECKING`` alike), private names used across
modules, writes to other objects' private attributes, and module sizes.

``tests/test_architecture.py`` turns these into rules; ``python tests/architecture.py`` prints
what breaks them, for whoever restructures.

>>> graph = ImportGraph.of_package(SRC)
>>> "clfeval.evaluation" in graph.modules
True
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "clfeval"
PACKAGE = "clfeval"


def module_name(path: Path, root: Path = SRC) -> str:
    """``src/clfeval/report/html.py`` -> ``clfeval.report.html``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


@dataclass(frozen=True)
class Import:
    """One import statement's effect: ``source`` imports module ``target`` (line ``line``),
    taking ``names`` from it (empty for ``import target``)."""

    source: str
    target: str
    line: int
    names: tuple[str, ...] = ()


@dataclass
class ImportGraph:
    """Every module of the package with its source, and every import between them."""

    modules: dict[str, Path]
    trees: dict[str, ast.Module] = field(repr=False)
    imports: list[Import]

    @classmethod
    def of_package(cls, root: Path = SRC) -> ImportGraph:
        modules = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
        trees = {m: ast.parse(p.read_text(encoding="utf-8"), str(p)) for m, p in modules.items()}
        graph = cls(modules, trees, [])
        for m in modules:
            graph.imports.extend(graph._imports_of(m))
        return graph

    def _is_package(self, module: str) -> bool:
        return self.modules[module].name == "__init__.py"

    def _resolve(self, module: str, level: int, name: str | None) -> str:
        if level == 0:
            return name or ""
        base = module.split(".")
        if not self._is_package(module):
            base = base[:-1]
        base = base[: len(base) - (level - 1)]
        return ".".join(base + ([name] if name else []))

    def _imports_of(self, module: str) -> Iterator[Import]:
        for node in ast.walk(self.trees[module]):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == PACKAGE:
                        yield Import(module, self._nearest_module(alias.name), node.lineno)
            elif isinstance(node, ast.ImportFrom):
                target = self._resolve(module, node.level, node.module)
                if target.split(".")[0] != PACKAGE:
                    continue
                plain = []
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in self.modules:  # from package import submodule
                        yield Import(module, sub, node.lineno)
                    else:
                        plain.append(alias.name)
                if plain:
                    yield Import(module, self._nearest_module(target), node.lineno, tuple(plain))

    def _nearest_module(self, dotted: str) -> str:
        parts = dotted.split(".")
        while parts and ".".join(parts) not in self.modules:
            parts.pop()
        return ".".join(parts)

    def edges(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {m: set() for m in self.modules}
        for imp in self.imports:
            if imp.target != imp.source and not self._is_ancestor(imp.target, imp.source):
                out[imp.source].add(imp.target)
        return out

    @staticmethod
    def _is_ancestor(package: str, module: str) -> bool:
        """A module importing a name from its own package's ``__init__`` (``from . import x`` where x
        is a name there) is counted as no edge: the package is already being imported."""
        return module.startswith(package + ".")

    def cycles(self) -> list[list[str]]:
        """The strongly connected components with more than one module (Tarjan)."""
        edges = self.edges()
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on_stack: set[str] = set()
        found: list[list[str]] = []
        counter = [0]

        def visit(v: str) -> None:
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on_stack.add(v)
            for w in sorted(edges[v]):
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

        sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
        for v in sorted(edges):
            if v not in index:
                visit(v)
        return found

    def private_imports(self) -> list[str]:
        """``from x import _name`` across modules, and ``module._name`` read from an imported module."""
        found = []
        for imp in self.imports:
            for name in imp.names:
                if _private(name) and imp.target != imp.source:
                    found.append(f"{imp.source}:{imp.line} imports {imp.target}.{name}")
        for module, tree in self.trees.items():
            aliases = self._module_aliases(module)
            for node in ast.walk(tree):
                if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                        and node.value.id in aliases and aliases[node.value.id] != module):
                    found.append(f"{module}:{node.lineno} uses {aliases[node.value.id]}.{node.attr}")
        return found

    def _module_aliases(self, module: str) -> dict[str, str]:
        """Local names bound to modules of the package (``from . import x``, ``import clfeval.x as y``)."""
        out = {}
        for node in ast.walk(self.trees[module]):
            if isinstance(node, ast.ImportFrom):
                target = self._resolve(module, node.level, node.module)
                for alias in node.names:
                    if f"{target}.{alias.name}" in self.modules:
                        out[alias.asname or alias.name] = f"{target}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in self.modules and alias.asname:
                        out[alias.asname] = alias.name
        return out

    def owned_attributes(self, module: str) -> set[str]:
        """Attribute names a class of ``module`` owns: assigned on ``self``/``cls`` or declared in a
        class body (dataclass fields, methods, slots)."""
        owned: set[str] = set()
        for node in ast.walk(self.trees[module]):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        owned.add(item.name)
                    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        owned.add(item.target.id)
                    elif isinstance(item, ast.Assign):
                        owned.update(t.id for t in item.targets if isinstance(t, ast.Name))
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                owned.add(node.attr)
        return owned

    def private_writes(self) -> list[str]:
        """Assignments to another object's private attribute (``ev._x = ...``, ``obj.__dict__[k] = ...``,
        ``setattr(obj, "_x", ...)``). A module may write the private attributes its own classes own
        on any instance of them (a classmethod filling a new object, a copy)."""
        found = []
        for module, tree in self.trees.items():
            owned = self.owned_attributes(module)
            for node in ast.walk(tree):
                targets: list[ast.expr] = []
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                    targets = [node.target]
                for t in targets:
                    for leaf in _leaves(t):
                        if (isinstance(leaf, ast.Attribute) and _private(leaf.attr) and leaf.attr not in owned
                                and not _is_self(leaf.value)):
                            found.append(f"{module}:{node.lineno} writes {ast.unparse(leaf)}")
                        elif (isinstance(leaf, ast.Subscript) and isinstance(leaf.value, ast.Attribute)
                              and leaf.value.attr == "__dict__" and not _is_self(leaf.value.value)):
                            found.append(f"{module}:{node.lineno} writes {ast.unparse(leaf)}")
            for node in ast.walk(tree):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr"
                        and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                        and isinstance(node.args[1].value, str) and _private(node.args[1].value)
                        and node.args[1].value not in owned and not _is_self(node.args[0])):
                    found.append(f"{module}:{node.lineno} sets {ast.unparse(node)}")
        return found

    def private_reads(self) -> list[str]:
        """``obj._name`` read where no class of the reading module owns ``_name``: another module's
        private state or method used from outside (``ev._cases``, ``ScoreTable._build``)."""
        found = []
        for module, tree in self.trees.items():
            owned = self.owned_attributes(module)
            aliases = self._module_aliases(module)
            for node in ast.walk(tree):
                if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and _private(node.attr)
                        and node.attr not in owned and not _is_self(node.value)
                        and not (isinstance(node.value, ast.Name) and node.value.id in aliases)):
                    found.append(f"{module}:{node.lineno} reads {ast.unparse(node)}")
        return found

    def sizes(self) -> dict[str, int]:
        """Lines of code per module: lines as ``wc -l`` counts them, less the lines of docstrings.

        The size rule is about how much code a reader holds in mind; the numpydoc docstrings every
        public name carries (parameters, returns, an example) are read one function at a time.
        """
        return {m: p.read_bytes().count(b"\n") - docstring_lines(self.trees[m]) for m, p in self.modules.items()}

    def importers_of(self, target: str) -> list[str]:
        return sorted({i.source for i in self.imports if i.target == target})


def docstring_lines(tree: ast.Module) -> int:
    """Lines taken by the docstrings of a module, its classes and functions (nested ones included)."""
    total = 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(
                    first.value.value, str):
                total += first.end_lineno - first.lineno + 1
    return total


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _leaves(target: ast.expr) -> Iterator[ast.expr]:
    if isinstance(target, (ast.Tuple, ast.List)):
        for t in target.elts:
            yield from _leaves(t)
    else:
        yield target


if __name__ == "__main__":
    g = ImportGraph.of_package()
    print("cycles:")
    for c in g.cycles():
        print("  ", len(c), " ".join(m.removeprefix("clfeval.") for m in c))
    print("private imports:", len(p := g.private_imports()))
    for line in p:
        print("  ", line)
    print("private writes:", len(w := g.private_writes()))
    for line in w:
        print("  ", line)
    print("private reads:", len(r := g.private_reads()))
    for line in r:
        print("  ", line)
    big = {m: n for m, n in g.sizes().items() if n > 800}
    print("over 800 lines of code:", len(big))
    for m, n in sorted(big.items(), key=lambda kv: -kv[1]):
        print("  ", n, m)
    print("importers of cli:", [m for m in g.importers_of("clfeval.cli") if not m.startswith("clfeval.cli")])
