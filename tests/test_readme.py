"""Every Python and shell block of README.md runs, and prints what the README says it prints.

The blocks are read by :mod:`readme_blocks` (what counts as code, output and prose is documented
there). They run in one temporary folder, in README order, with the names the README leaves to
the reader (``y_true``, ``model``, ``X``, ``ev_a``...) defined by :func:`reader_names` from the
example data shipped with clfeval, and with the files its commands name (``predictions.parquet``,
``preds.csv``, ``spam.csv``, ``models.csv``, ``preds/``, ``i.csv``...) made by :func:`make_files`.
A new block that uses a name or file the harness does not know fails here, which is the point.
"""

from __future__ import annotations

import doctest
import os
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from readme_blocks import Block, console_session, expected_lines, match_output, parse_blocks, shell_commands

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCKS = parse_blocks(README.read_text(encoding="utf-8"))
RUNNABLE = [b for b in BLOCKS if b.kind in ("python", "doctest", "bash", "console")]

#: commands the README shows that this test does not run, and why
NOT_RUN_HERE = {
    "pip": "installing is what .ci/run does, in a fresh virtual environment, before it runs these tests",
    "python -m pytest": "this is the test run itself",
    "python -m sphinx": ".ci/run builds the documentation after the tests (minutes: every example runs)",
}

#: text of the README replaced before it runs here: what a reader would change for their machine
FOR_THIS_MACHINE = {
    '"tcp://10.0.0.5:8786"': "SCHEDULER_ADDRESS",  # a LocalCluster stands in for the reader's cluster
}


def make_files(folder: Path) -> None:
    """The data files the README's commands name, with the layouts the commands expect."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from clfeval.inputs.examples import load_demo

    rng = np.random.default_rng(17)
    demo = load_demo("binary")
    (lr, lr_model), (_, nb_model) = list(demo.models.items())[:2]
    y = (demo.y_true == demo.pos_label).astype(int)
    pq.write_table(pa.table({"y_true": y, "y_score": lr_model.y_score}), folder / "predictions.parquet")
    # three classes a, b, c with one probability column per class
    n = 600
    label = rng.choice(np.array(["a", "b", "c"]), n)
    logits = rng.normal(size=(n, 3)) + 1.5 * (label[:, None] == np.array(["a", "b", "c"]))
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    write_csv(folder / "preds.csv", {"label": label, "proba_a": proba[:, 0], "proba_b": proba[:, 1],
                                     "proba_c": proba[:, 2]})
    # spam or ham with a score and a sample weight
    spam = rng.random(n) < 0.3
    score = np.clip(0.35 * spam + 0.65 * rng.random(n), 0, 1)
    write_csv(folder / "spam.csv", {"label": np.where(spam, "spam", "ham"), "score": score,
                                    "w": rng.integers(1, 4, n)})
    # two models' probabilities for one binary target
    write_csv(folder / "models.csv", {"y": y, "proba_a": lr_model.y_score, "proba_b": nb_model.y_score})
    # a directory of four Parquet files, 10^6 rows in all
    (folder / "preds").mkdir()
    for part in range(4):
        yy = rng.integers(0, 2, 250_000)
        pq.write_table(pa.table({"label": yy, "score": np.clip(0.3 * yy + 0.7 * rng.random(250_000), 0, 1)}),
                       folder / "preds" / f"part-{part}.parquet")
    # the files of "Safe with your files"
    (folder / "i.csv").write_text("y_true,y_score\n0,0.1\n1,0.8\n0,0.3\n1,0.6\n")
    (folder / "d.csv").write_text("label,score,score\n0,0.1,0.2\n1,0.8,0.7\n")
    (folder / "p.csv").write_text("y_true,score\n0,0.1\n1,1.0000001\n0,0.4\n1,0.7\n")
    # the package's example data where the README names it by its path in the repository
    data = Path(__import__("clfeval").__file__).parent / "data"
    (folder / "src" / "clfeval").mkdir(parents=True)
    (folder / "src" / "clfeval" / "data").symlink_to(data)
    del lr


def write_csv(path: Path, columns: dict[str, Any]) -> None:
    names = list(columns)
    rows = zip(*(np.asarray(columns[c]).tolist() for c in names))
    path.write_text(",".join(names) + "\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))


def reader_names() -> dict[str, Any]:
    """The names the README's Python blocks take as given: a model with its data, evaluations of the
    example data's two binary models (``ev_a``, ``ev_b``) and of a multi-class model, predictions of
    two models (``pred_a``, ``score_a``...), their scores on ten data sets (``scores``) or folds."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    import clfeval
    from clfeval.inputs.examples import load_demo

    X, y_true = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y_true)
    binary, multiclass = load_demo("binary"), load_demo("multiclass")
    (name_a, a), (name_b, b) = list(binary.models.items())[:2]
    ev_a = clfeval.evaluate(binary.y_true, a.y_pred, a.y_score, pos_label=binary.pos_label, name=name_a)
    ev_b = clfeval.evaluate(binary.y_true, b.y_pred, b.y_score, pos_label=binary.pos_label, name=name_b)
    (_, ma), (_, mb) = list(multiclass.models.items())[:2]
    ev_multiclass = clfeval.evaluate(multiclass.y_true, ma.y_pred, ma.y_score, labels=multiclass.classes)
    rng = np.random.default_rng(5)
    fold_a = 0.9 + 0.02 * rng.standard_normal((5, 2))
    return {
        "X": X, "y_true": y_true, "model": model, "ev_a": ev_a, "ev_b": ev_b, "ev_multiclass": ev_multiclass,
        "y": (binary.y_true == binary.pos_label).astype(int),
        "pred_a": (a.y_pred == binary.pos_label).astype(int),
        "pred_b": (b.y_pred == binary.pos_label).astype(int), "score_a": a.y_score, "score_b": b.y_score,
        "y_multi": multiclass.y_true, "proba_a": ma.y_score, "proba_b": mb.y_score,
        "a": fold_a, "b": fold_a - 0.01 + 0.01 * rng.standard_normal((5, 2)),
        "scores": 0.8 + 0.05 * rng.standard_normal((10, 4)), "pvalues": [0.01, 0.04, 0.03, 0.2],
    }


class Session:
    """One folder and one Python namespace for the whole README, blocks run once each, in order."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.namespace: dict[str, Any] = {"__name__": "__readme__"}
        self.done: dict[int, str | None] = {}  # block line -> None (ran) or why it failed
        self.cluster: Any = None
        self.env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "PYTHONUNBUFFERED": "1", "MPLBACKEND": "Agg"}
        make_files(folder)

    def run_through(self, block: Block) -> None:
        """Run every runnable block up to and including ``block`` (each once)."""
        for b in RUNNABLE:
            if b.line not in self.done:
                try:
                    self.run(b)
                    self.done[b.line] = None
                except BaseException as e:  # noqa: BLE001 - recorded, re-raised for its own test
                    self.done[b.line] = f"{type(e).__name__}: {e}"
                    if b is block:
                        raise
            if b is block:
                why = self.done[b.line]
                if why is not None:
                    pytest.fail(f"{b.name} failed earlier: {why}")
                return

    # ------------------------------------------------------------ kinds
    def run(self, block: Block) -> None:
        getattr(self, f"run_{block.kind}")(block)

    def source(self, block: Block) -> str:
        text = block.text
        for old, new in FOR_THIS_MACHINE.items():
            if old in text:
                text = text.replace(old, new)
                if new == "SCHEDULER_ADDRESS":
                    self.namespace["SCHEDULER_ADDRESS"] = self.scheduler_address()
        return text

    def run_python(self, block: Block) -> None:
        import ast
        import contextlib
        import io

        if not self.namespace.get("__reader_names__"):
            self.namespace.update(reader_names())
            self.namespace["__reader_names__"] = True
        tree = ast.parse(self.source(block), filename=block.name)
        printed = io.StringIO()
        cwd = os.getcwd()
        os.chdir(self.folder)
        try:
            with contextlib.redirect_stdout(printed):
                for node in tree.body:
                    if isinstance(node, ast.Expr):
                        value = eval(compile(ast.Expression(node.value), block.name, "eval"), self.namespace)
                        if value is not None and block.expected is not None:
                            print(repr(value))
                    else:
                        exec(compile(ast.Module([node], []), block.name, "exec"), self.namespace)
        finally:
            os.chdir(cwd)
        if block.expected is not None:
            self.compare(block, printed.getvalue().splitlines())

    def run_doctest(self, block: Block) -> None:
        import clfeval
        from clfeval import metrics

        parser = doctest.DocTestParser()
        test = parser.get_doctest(block.text, {"clfeval": clfeval, "metrics": metrics, "np": np}, block.name,
                                  str(README), block.line)
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
        out: list[str] = []
        runner.run(test, out=out.append)
        assert runner.failures == 0, "".join(out)

    def run_bash(self, block: Block) -> None:
        outputs: list[str] = []
        for argv in shell_commands(self.source(block)):
            if any(shlex.join(argv).startswith(prefix) for prefix in NOT_RUN_HERE):
                continue
            r = self.command(argv)
            assert r.returncode == 0, f"{block.name}: `{shlex.join(argv)}` exited {r.returncode}:\n{r.stdout}"
            outputs += r.stdout.splitlines()
        if block.expected is not None:  # the lines the README shows, in order, among the rest
            self.compare(block, outputs, among_others=True)

    def run_console(self, block: Block) -> None:
        for argv, expected in console_session(self.source(block)):
            if argv[-2:] == ["--html", "full/o.html"] and not self.full_disk():
                continue  # a full disk needs a tmpfs (root); tests/test_cli_outputs.py covers it elsewhere
            r = self.command(argv)
            fails = any(x.startswith("clfeval: error:") for x in expected)
            assert (r.returncode != 0) == fails, f"`{shlex.join(argv)}` exited {r.returncode}:\n{r.stdout}"
            # the README shows the lines it is about, in order, among the rest; an error ends the output
            diff = match_output([x for e in expected for x in ("...", e)] + ([] if fails else ["..."]),
                                r.stdout.splitlines())
            assert diff is None, f"{block.name}: `{shlex.join(argv)}`: {diff}"

    # ------------------------------------------------------------ helpers
    def command(self, argv: list[str]) -> subprocess.CompletedProcess[str]:
        assert argv[0] == "clfeval", f"the README's commands start with clfeval: {argv}"
        return subprocess.run([sys.executable, "-m", "clfeval", *argv[1:]], cwd=self.folder, env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)

    def compare(self, block: Block, actual: list[str], among_others: bool = False) -> None:
        assert block.expected is not None
        expected = expected_lines(block.expected)
        if among_others:
            expected = [x for e in expected for x in ("...", e)] + ["..."]
        diff = match_output(expected, actual)
        assert diff is None, f"{block.name} prints other than README.md:{block.expected.line} says: {diff}"

    def scheduler_address(self) -> str:
        if self.cluster is None:
            from distributed import LocalCluster

            self.cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)
        return self.cluster.scheduler_address

    def full_disk(self) -> bool:
        full = self.folder / "full"
        if full.is_mount():
            return True
        full.mkdir(exist_ok=True)
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(full)], capture_output=True)
        return r.returncode == 0

    def close(self) -> None:
        if self.cluster is not None:
            self.cluster.close()
        full = self.folder / "full"
        if full.is_mount():
            subprocess.run(["umount", str(full)], check=False)


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory):
    pytest.importorskip("sklearn")
    s = Session(tmp_path_factory.mktemp("readme"))
    yield s
    s.close()


def test_every_block_is_classified() -> None:
    kinds = {b.kind for b in BLOCKS}
    assert {"python", "bash", "console", "doctest", "output"} <= kinds
    assert len(RUNNABLE) >= 15, [b.name for b in RUNNABLE]


@pytest.mark.parametrize("block", RUNNABLE, ids=[f"line{b.line}-{b.kind}" for b in RUNNABLE])
def test_readme_block(block: Block, session: Session) -> None:
    session.run_through(block)


def test_reader_names_are_the_only_free_names() -> None:
    """A README name that no block defines must be one :func:`reader_names` gives (and each of those is used)."""
    import ast
    import builtins

    defined: set[str] = set(dir(builtins)) | {"SCHEDULER_ADDRESS"}
    used: set[str] = set()
    for b in (x for x in RUNNABLE if x.kind == "python"):
        tree = ast.parse(textwrap.dedent(b.text))
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                (defined if isinstance(node.ctx, ast.Store) else used).add(node.id)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                defined.update((a.asname or a.name).split(".")[0] for a in node.names)
    given = {"X", "y_true", "model", "ev_a", "ev_b", "ev_multiclass", "y", "pred_a", "pred_b", "score_a",
             "score_b", "y_multi", "proba_a", "proba_b", "a", "b", "scores", "pvalues"}
    assert used - defined <= given, f"README names no block defines: {sorted(used - defined - given)}"
    assert given <= used, f"names the harness gives that the README no longer uses: {sorted(given - used)}"
