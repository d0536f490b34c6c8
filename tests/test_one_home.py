"""One home per formula and rule (issue 19).

Each formula or rule below has one home module (and function). The source of every module under
``src/clfeval`` is parsed with :mod:`ast` (nothing is imported) and each rule's *signature* - the
calls, definitions or expressions that identify its formula - is looked for outside the home: a
module other than the home that computes it again fails the test, naming the line. Each home is
also checked directly on a value computed by hand.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "clfeval"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["clfeval", *parts])


def _trees() -> dict[str, ast.Module]:
    return {module_name(p): ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in sorted(SRC.rglob("*.py"))}


TREES = _trees()
Hit = tuple[int, str]


# ------------------------------------------------------------------------------------------------
# signatures
# ------------------------------------------------------------------------------------------------
def _dotted(node: ast.AST) -> str:
    """``np.random.normal`` -> "np.random.normal"; "" for anything that is not a dotted name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else ""
    return ""


def _calls(tree: ast.AST, names: set[str]) -> Iterator[Hit]:
    """Calls whose dotted callee ends with one of ``names`` (``"norm.ppf"`` matches
    ``stats.norm.ppf`` and ``norm.ppf``), and imports of those names."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            callee = _dotted(node.func)
            for name in names:
                if callee == name or callee.endswith("." + name):
                    yield node.lineno, f"calls {callee}"
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in names:
                    yield node.lineno, f"imports {alias.name} from {node.module}"


def _defines(tree: ast.Module, names: set[str]) -> Iterator[Hit]:
    """Module-level function definitions named one of ``names`` (leading underscores ignored);
    methods are left out (a cached property that calls the home is no copy)."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.lstrip("_") in names:
            yield node.lineno, f"defines {node.name}"


def _const(node: ast.AST) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def _is_diff_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _dotted(node.func) in ("np.diff", "numpy.diff")


def _step_sums(tree: ast.AST) -> Iterator[Hit]:
    """``np.diff(x) * y``: a trapezoid or a step sum (AP's ``sum (R_k - R_k-1) P_k``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            if _is_diff_call(node.left) or _is_diff_call(node.right):
                yield node.lineno, "multiplies np.diff(...) (a trapezoid or step sum)"


def _normalised_by_last(tree: ast.AST) -> Iterator[Hit]:
    """``cum / cum[-1]`` or ``cum / cum[:, -1:]``: cumulative counts turned into curve rates."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)):
            continue
        left, right = node.left, node.right
        if not (isinstance(left, ast.Name) and isinstance(right, ast.Subscript)):
            continue
        if not left.id.lower().startswith(("tp", "fp", "tn", "fn", "cum")):  # counts, not e.g. arc lengths
            continue
        if not (isinstance(right.value, ast.Name) and right.value.id == left.id):
            continue
        text = ast.unparse(right.slice).strip("()")
        if text.endswith("-1") or text.endswith("-1:"):
            yield node.lineno, f"divides {left.id} by its last entry (curve rates)"


def _placements(tree: ast.AST) -> Iterator[Hit]:
    """``n - cumsum(neg) + 0.5 * neg`` / ``cumsum(pos) - 0.5 * pos``: a placement (or a Mann-Whitney
    tie count) from cumulative counts; also a definition of a placement function."""
    yield from _defines(tree, {"placement_values", "delong_placements_of_counts"})
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            right = node.right
            if not (isinstance(right, ast.BinOp) and isinstance(right.op, ast.Mult) and _const(right.left) == 0.5):
                continue
            if any(isinstance(n, ast.Call) and _dotted(n.func).endswith("cumsum") for n in ast.walk(node.left)):
                yield node.lineno, "placement from cumulative counts (cumsum +/- 0.5 * counts)"


def _interpolation(tree: ast.AST) -> Iterator[Hit]:
    yield from _calls(tree, {"np.interp", "numpy.interp", "interp1d", "scipy.interpolate"})


def _normal_quantile(tree: ast.AST) -> Iterator[Hit]:
    yield from _calls(tree, {"ndtri", "ndtri_exp", "erfinv", "erfcinv", "norm.ppf", "norm.isf", "inv_cdf",
                             "NormalDist", "probit"})


def _auc(tree: ast.Module) -> Iterator[Hit]:
    """numpy's or scipy's trapezoid rule (imported or called), or a module-level AUC formula."""
    yield from _calls(tree, {"np.trapezoid", "np.trapz", "numpy.trapz", "numpy.trapezoid", "integrate.trapezoid",
                             "integrate.trapz", "simpson"})
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("numpy", "scipy", "sklearn"):
            for alias in node.names:
                if alias.name in ("trapz", "trapezoid", "simpson", "roc_auc_score", "auc"):
                    yield node.lineno, f"imports {alias.name} from {node.module}"
    yield from _defines(tree, {"trapezoid", "trapz", "roc_auc", "mann_whitney_u", "binary_auc_of_counts"})


def _ap(tree: ast.Module) -> Iterator[Hit]:
    yield from _defines(tree, {"average_precision"})
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sklearn":
            for alias in node.names:
                if alias.name == "average_precision_score":
                    yield node.lineno, "imports scikit-learn's average_precision_score"


def _curve_points(tree: ast.AST) -> Iterator[Hit]:
    yield from _defines(tree, {"roc_points", "precision_recall_points", "det_points", "cumulative_counts",
                               "roc_rates", "cumsum"})
    yield from _normalised_by_last(tree)


def _trapezoid_or_step(tree: ast.AST) -> Iterator[Hit]:
    yield from _step_sums(tree)


def _pos_label_rule(tree: ast.AST) -> Iterator[Hit]:
    """A definition resolving the positive class, or the conventional label pairs {0, 1} / {-1, 1}."""
    yield from _defines(tree, {"resolve_pos_label", "sklearn_pos_label", "pos_label_of", "positive_class"})
    for node in ast.walk(tree):
        if isinstance(node, (ast.Set, ast.List, ast.Tuple)) and len(node.elts) == 2:
            values = [ast.unparse(e) for e in node.elts]
            if values == ["-1", "1"]:
                yield node.lineno, "the conventional label pair {-1, 1}"


def _default_threshold(tree: ast.AST) -> Iterator[Hit]:
    """``0.5 if <probability> else 0``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.IfExp) and _const(node.body) == 0.5 and _const(node.orelse) in (0, 0.0):
            if not isinstance(_const(node.orelse), bool) and "prob" in ast.unparse(node.test):
                yield node.lineno, "0.5 if ... else 0 (the default threshold)"


def _is_nan_test(node: ast.AST) -> bool:
    """``v != v`` or a call to ``isnan``."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.NotEq):
        return ast.unparse(node.left) == ast.unparse(node.comparators[0])
    return isinstance(node, ast.Call) and _dotted(node.func).split(".")[-1] == "isnan"


def _is_none(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _json_cleaning(tree: ast.AST) -> Iterator[Hit]:
    """NaN turned into None: ``None if v != v else ...`` or ``if isnan(v): return None``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.IfExp) and _is_none(node.body) and _is_nan_test(node.test):
            yield node.lineno, "NaN -> None (JSON cleaning)"
        elif isinstance(node, ast.If) and _is_nan_test(node.test) and any(
            isinstance(s, ast.Return) and _is_none(s.value) for s in node.body
        ):
            yield node.lineno, "NaN -> None (JSON cleaning)"


# ------------------------------------------------------------------------------------------------
# the table
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Home:
    """``rule``'s home: ``module.function``; ``also`` lists other modules allowed the signature
    (each with its reason); ``detect`` finds the signature in a module's tree."""

    rule: str
    module: str
    function: str
    detect: Callable[[ast.AST], Iterator[Hit]]
    also: tuple[tuple[str, str], ...] = ()
    pending: bool = False  # owned by another change that is still consolidating it
    known: tuple[tuple[str, str], ...] = ()  # copies not yet merged, each with why (the list may only shrink)

    @property
    def allowed(self) -> set[str]:
        return {self.module, *(m for m, _ in self.also), *(m for m, _ in self.known)}


HOMES = [
    Home("ROC AUC (counts, Mann-Whitney, trapezoid)", "clfeval.formulas.curves", "roc_auc", _auc),
    Home("trapezoid / step sums over np.diff", "clfeval.formulas.curves", "trapezoid", _trapezoid_or_step),
    Home("average precision", "clfeval.formulas.curves", "average_precision", _ap),
    Home("ROC / PR / DET curve points (cumulative counts, rates)", "clfeval.formulas.curves", "roc_points", _curve_points),
    Home("DeLong placements", "clfeval.formulas.curves", "placement_values", _placements),
    Home("curve interpolation", "clfeval.formulas.curves", "interpolate_roc", _interpolation,
         also=(("clfeval.results.cost_curves", "the cost curve's lower envelope, read at a probability cost: "
                "not a ROC or PR curve"),)),
    Home("normal quantile", "clfeval.uncertainty.checks", "normal_quantile", _normal_quantile),
    Home("positive-class rule", "clfeval.inputs.evaluate_arguments", "resolve_pos_label", _pos_label_rule,
         also=(("clfeval.inputs.sklearn_pos_label", "scikit-learn's rule, for the drop-in metrics and DeLong's test"),)),
    Home("default threshold (0.5 for probabilities, else 0)", "clfeval.inputs.score_kind", "default_threshold",
         _default_threshold),
    Home("JSON cleaning (NaN -> None, inf -> text)", "clfeval.support.json_plain", "json_safe", _json_cleaning),
]


def copies(home: Home, trees: dict[str, ast.Module] | None = None) -> list[str]:
    """``module:line what`` of every place outside the home that carries the rule's signature."""
    found = []
    for name, tree in (TREES if trees is None else trees).items():
        if name in home.allowed:
            continue
        found.extend(f"{name}:{line} {what}" for line, what in home.detect(tree))
    return sorted(set(found))


def _param(home: Home):
    marks = ()
    if home.pending and copies(home):
        marks = (pytest.mark.xfail(strict=False, reason="home being created"),)
    return pytest.param(home, id=home.rule, marks=marks)


@pytest.mark.parametrize("home", [_param(h) for h in HOMES])
def test_no_copy_outside_the_home(home: Home) -> None:
    found = copies(home)
    assert not found, (f"{home.rule}: its home is {home.module}.{home.function}; these modules compute it "
                       "again (call the home instead):\n  " + "\n  ".join(found))


def test_known_copies_are_still_there() -> None:
    """A known copy that has been merged must leave the ``known`` list (so that it cannot come back)."""
    for home in HOMES:
        for module, _ in home.known:
            assert list(home.detect(TREES[module])), f"{module} no longer copies {home.rule}: drop it from known"


@pytest.mark.parametrize("home", HOMES, ids=[h.rule for h in HOMES])
def test_home_exists_and_carries_the_signature(home: Home) -> None:
    tree = TREES.get(home.module)
    if tree is None and home.pending:
        pytest.xfail("home being created")
    assert tree is not None, f"{home.module} is missing"
    defined = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    assert home.function in defined, f"{home.module} does not define {home.function}"


@pytest.mark.parametrize(
    "snippet, rule",
    [
        ("from scipy.special import ndtri\nz = ndtri(0.975)\n", "normal quantile"),
        ("from scipy import stats\nz = stats.norm.ppf(0.975)\n", "normal quantile"),
        ("import statistics\nz = statistics.NormalDist().inv_cdf(0.975)\n", "normal quantile"),
        ("import numpy as np\na = np.trapz([0, 1, 1], [0, .5, 1])\n", "ROC AUC (counts, Mann-Whitney, trapezoid)"),
        ("import numpy as np\na = np.sum(np.diff(r) * p[1:])\n", "trapezoid / step sums over np.diff"),
        ("import numpy as np\ny = np.interp(grid, fpr, tpr)\n", "curve interpolation"),
        ("def average_precision(neg, pos):\n    pass\n", "average precision"),
        ("tpr = tps / tps[-1]\n", "ROC / PR / DET curve points (cumulative counts, rates)"),
        ("import numpy as np\nv = (n - np.cumsum(neg) + 0.5 * neg) / n\n", "DeLong placements"),
        ("t = 0.5 if kind == 'probability' else 0.0\n", "default threshold (0.5 for probabilities, else 0)"),
        ("def clean(v):\n    if v != v:\n        return None\n    return v\n",
         "JSON cleaning (NaN -> None, inf -> text)"),
        ("CONVENTIONAL = ({0, 1}, {-1, 1})\n", "positive-class rule"),
    ],
)
def test_a_new_copy_is_caught(snippet: str, rule: str) -> None:
    """The signatures are precise enough to catch a copy added to any other module."""
    home = next(h for h in HOMES if h.rule == rule)
    assert copies(home, {"clfeval.somewhere_else": ast.parse(snippet)}), snippet
    assert not copies(home, {home.module: ast.parse(snippet)})  # the home itself may


# ------------------------------------------------------------------------------------------------
# each home on a value computed by hand
# ------------------------------------------------------------------------------------------------
def _binary_counts():
    from clfeval.statistics.scores import ScoreTable

    # [0, 0, 1, 1] scored [0.1, 0.4, 0.35, 0.8]: of the 4 (positive, negative) pairs, 3 are ordered
    return ScoreTable.from_labels([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).binary_counts()


def test_auc_home() -> None:
    from clfeval.formulas.curves import roc_auc, trapezoid

    neg, pos = _binary_counts()
    assert roc_auc(neg, pos) == 0.75
    assert trapezoid(np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 1.0])) == 0.75


def test_average_precision_home() -> None:
    from clfeval.formulas.curves import average_precision

    neg, pos = _binary_counts()
    # positives at ranks 1 and 3: (1/1 + 2/3) / 2
    assert average_precision(neg, pos) == pytest.approx((1 + 2 / 3) / 2, abs=1e-15)


def test_curve_points_home() -> None:
    from clfeval.formulas.curves import cumulative_counts, roc_points

    neg, pos = _binary_counts()
    assert cumulative_counts(pos).tolist() == [1, 1, 2, 2]
    fpr, tpr, thr = roc_points(neg, pos, np.array([0.8, 0.4, 0.35, 0.1]))
    assert fpr.tolist() == [0.0, 0.0, 0.5, 0.5, 1.0]
    assert tpr.tolist() == [0.0, 0.5, 0.5, 1.0, 1.0]
    assert thr.tolist() == [np.inf, 0.8, 0.4, 0.35, 0.1]


def test_delong_home() -> None:
    from clfeval.uncertainty.area_intervals import delong_variances
    from clfeval.formulas.curves import placement_values

    neg, pos = _binary_counts()  # scores 0.8 (+), 0.4 (-), 0.35 (+), 0.1 (-)
    v10, v01 = placement_values(neg, pos)
    assert v10[pos > 0].tolist() == [1.0, 0.5]  # the positives outscore 2 and 1 of the 2 negatives
    assert v01[neg > 0].tolist() == [0.5, 1.0]  # 1 and 2 of the 2 positives outscore the negatives
    auc, var = delong_variances(neg, pos)
    # var(V10) / m + var(V01) / n = (0.125 / 2) + (0.125 / 2)
    assert float(auc) == 0.75
    assert float(var) == pytest.approx(0.125, abs=1e-15)


def test_interpolation_home() -> None:
    from clfeval.formulas.curves import interpolate_roc

    fpr, tpr = np.array([0.0, 0.0, 0.5, 0.5, 1.0]), np.array([0.0, 0.5, 0.5, 1.0, 1.0])
    # at a vertical step the upper point is read; between points, linearly
    assert interpolate_roc(np.array([0.0, 0.25, 0.5, 0.75]), fpr, tpr).tolist() == [0.5, 0.5, 1.0, 1.0]
    assert interpolate_roc(np.array([0.5]), np.array([0.0, 1.0]), np.array([0.0, 0.8])).tolist() == [0.4]


def test_normal_quantile_home() -> None:
    from clfeval.uncertainty.checks import normal_quantile, z_quantile

    assert z_quantile(0.95) == 1.959963984540054
    assert float(normal_quantile(0.975)) == 1.959963984540054
    assert float(normal_quantile(0.5)) == 0.0
    assert math.isclose(-float(normal_quantile(0.025)), 1.959963984540054, rel_tol=1e-15)


def test_positive_class_homes() -> None:
    from clfeval.inputs.sklearn_pos_label import label_mask, sklearn_pos_label

    assert sklearn_pos_label(None, np.array([-1, 1]), "f") == 1
    assert sklearn_pos_label("b", np.array(["a", "b"]), "f") == "b"
    with pytest.raises(ValueError, match="pos_label"):
        sklearn_pos_label(None, np.array([1, 2]), "f")
    assert label_mask(np.array([1, 0, 1]), 1).tolist() == [True, False, True]
    try:
        from clfeval.inputs.evaluate_arguments import resolve_pos_label
    except ImportError:
        pytest.xfail("home being created")
    notes: list[str] = []
    assert resolve_pos_label(np.array([0, 1]), None, True, notes) == 1


def test_default_threshold_home() -> None:
    from clfeval.inputs.score_kind import default_threshold

    assert default_threshold("probability") == 0.5
    assert default_threshold("decision") == 0.0


def test_json_cleaning_home() -> None:
    try:
        from clfeval.support.json_plain import json_safe
    except ImportError:
        pytest.xfail("home being created")
    assert json_safe({"a": [1.0, float("nan"), float("-inf")], "b": np.int64(3)}) == {"a": [1.0, None, "-inf"],
                                                                                       "b": 3}
