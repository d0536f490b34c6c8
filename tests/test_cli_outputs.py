"""Outputs all or nothing, never over an input; Ctrl-C and other signals (issue 16, sections 1 and 5).

Every test runs the real command (``python -m clfeval``) and checks the exit status, the one line
on standard error, the files present afterwards (hidden ones included) and the contents of the
files that were there before, byte for byte. Full and read-only disks are tmpfs mounts (root
only: skipped with the reason where mounting fails).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from clfeval.support import staged_outputs
from clfeval.support.staged_outputs import OutputConflict, OutputPlan, StagedOutputs, resolve_output

COMMAND = [sys.executable, "-m", "clfeval"]
CSV = b"label,score\n1,0.9\n0,0.2\n1,0.4\n0,0.6\n1,0.7\n"
PAUSE = "CLFEVAL_TEST_PAUSE_BEFORE_COMMIT"  # test-only hook: sleep between staging and commit
PAUSE_IN = "CLFEVAL_TEST_PAUSE_DURING_COMMIT"  # test-only hook: sleep between the commit's two steps


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, "COLUMNS": "160", "NO_COLOR": "1", **extra}


def run(*args: str | os.PathLike[str], cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMMAND, *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env(**extra),
                          timeout=120)


def listing(folder: Path) -> dict[str, bytes | str]:
    """Every entry (hidden ones too, recursively): file contents, or '->target' for a link."""
    out: dict[str, bytes | str] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            p = Path(root, name)
            rel = str(p.relative_to(folder))
            if p.is_symlink():
                out[rel] = "->" + os.readlink(p)
            elif p.is_dir():
                out[rel] = "<dir>"
            elif p.is_file():
                out[rel] = p.read_bytes()
            else:
                out[rel] = "<special>"
    return out


def one_line_error(r: subprocess.CompletedProcess[str], status: int, text: str) -> None:
    assert r.returncode == status, (r.returncode, r.stderr)
    errors = [x for x in r.stderr.splitlines() if not x.startswith("clfeval: detected columns")]
    assert errors == [f"clfeval: error: {text}"], r.stderr
    assert "Traceback" not in r.stderr


@pytest.fixture
def work(tmp_path: Path) -> Path:
    (tmp_path / "i.csv").write_bytes(CSV)
    return tmp_path


@pytest.fixture
def tmpfs(tmp_path: Path):
    """mount(size, read_only) -> a fresh tmpfs folder (unmounted afterwards)."""
    mounted: list[Path] = []

    def mount(size: str = "1m", read_only: bool = False) -> Path:
        d = tmp_path / f"mnt{len(mounted)}"
        d.mkdir()
        opts = f"size={size}" + (",ro" if read_only else "")
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(d)], capture_output=True, text=True)
        if r.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here (needs root): {r.stderr.strip()}")
        mounted.append(d)
        return d

    yield mount
    for d in mounted:
        subprocess.run(["umount", "-l", str(d)], capture_output=True)


# ---------------------------------------------------------------- outputs that are inputs


@pytest.mark.parametrize("make, option, shown, what", [
    (lambda d: None, "--json", "i.csv", "the input file i.csv"),
    (lambda d: None, "--html", "./i.csv", "the input file i.csv"),
    (lambda d: (d / "sub").mkdir(), "--json", "sub/../i.csv", "the input file i.csv"),
    (lambda d: (d / "link.csv").symlink_to("i.csv"), "--json", "link.csv", "the input file i.csv"),
    (lambda d: os.link(d / "i.csv", d / "hard.csv"), "--html", "hard.csv", "the input file i.csv"),
])
def test_an_output_that_is_the_input_is_refused_before_reading(work: Path, make, option, shown, what) -> None:
    make(work)
    (work / "i.csv").write_bytes(CSV + b"1,not a number\n")  # reading it would be a data error (exit 1)
    before = listing(work)
    r = run("report", "i.csv", option, shown, "--json" if option == "--html" else "--html", "other.out", cwd=work)
    one_line_error(r, 2, f"{option} {shown}: that is {what}; clfeval never writes over its input (give another path)")
    assert listing(work) == before


def test_compare_a_cost_file_and_a_directory_input_are_inputs_too(work: Path) -> None:
    (work / "c.csv").write_bytes(b"y,a,b\n1,1,0\n0,0,0\n1,1,1\n")
    (work / "costs.csv").write_bytes(b"0,1\n5,0\n")
    (work / "parts").mkdir()
    (work / "parts" / "p1.csv").write_bytes(CSV)
    before = listing(work)
    r = run("compare", "c.csv", "--y-true", "y", "--model", "A=a", "--model", "B=b", "--json", "c.csv", cwd=work)
    one_line_error(r, 2, "--json c.csv: that is the input file c.csv; clfeval never writes over its input "
                         "(give another path)")
    r = run("report", "i.csv", "--cost", "costs.csv", "--html", "costs.csv", cwd=work)
    one_line_error(r, 2, "--html costs.csv: that is the --cost file costs.csv; clfeval never writes over its input "
                         "(give another path)")
    r = run("report", "parts", "--json", "parts/p1.csv", cwd=work)
    one_line_error(r, 2, "--json parts/p1.csv: that is parts/p1.csv, a file of the input directory parts; clfeval "
                         "never writes over its input (give another path)")
    assert listing(work) == before


def test_two_outputs_on_one_file_are_refused(work: Path) -> None:
    (work / "o").write_bytes(b"old")
    (work / "lo").symlink_to("o")
    (work / "dangling").symlink_to("new.json")
    before = listing(work)
    for a, b in (("o", "o"), ("o", "lo"), ("new.json", "dangling")):
        r = run("report", "i.csv", "--json", a, "--html", b, cwd=work)
        one_line_error(r, 2, f"--json {a} and --html {b} are the same file; give each output its own path")
    r = run("report", "i.csv", "--json", "-", "--html", "/dev/stdout", cwd=work)
    one_line_error(r, 2, "--json standard output and --html /dev/stdout are the same file; give each output its own "
                         "path")
    assert listing(work) == before


def test_an_output_named_like_a_plot_in_the_plot_folder(work: Path) -> None:
    (work / "plots").mkdir()
    r = run("report", "i.csv", "--json", "plots/roc.png", "--png", "plots", cwd=work)
    one_line_error(r, 2, "--json plots/roc.png and --png plots/roc.png are the same file; give each output its "
                         "own path")
    assert sorted(listing(work)) == ["i.csv", "plots"]


def test_a_plot_folder_holding_an_input_named_like_a_plot(tmp_path: Path) -> None:
    (tmp_path / "roc.png").write_bytes(b"label,score\n")
    with pytest.raises(OutputConflict, match="holds the input file"):
        OutputPlan([], png=str(tmp_path), inputs=[("FILE", str(tmp_path / "roc.png"))])
    OutputPlan([], png=str(tmp_path), inputs=[("FILE", str(tmp_path / "other.csv"))])  # fine


# ---------------------------------------------------------------- links, devices, standard output


def test_a_symlinked_output_is_written_through(work: Path) -> None:
    (work / "real").mkdir()
    (work / "real" / "o.json").write_bytes(b"old")
    (work / "o.json").symlink_to("real/o.json")
    r = run("report", "i.csv", "--json", "o.json", cwd=work)
    assert r.returncode == 0, r.stderr
    assert os.readlink(work / "o.json") == "real/o.json"  # the link stays
    assert json.loads((work / "real" / "o.json").read_bytes())["task"] == "binary"
    assert sorted(listing(work)) == ["i.csv", "o.json", "real", "real/o.json"]


def test_json_to_standard_output_fifo_and_dev_stdout(work: Path) -> None:
    r = run("report", "i.csv", "--json", "-", cwd=work)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)  # standard output holds the JSON only; the report went to stderr
    assert data["task"] == "binary" and data["n_samples"] == 5
    assert "Classification report" in r.stderr and "wrote the JSON to standard output" in r.stderr
    r = run("report", "i.csv", "--json", "/dev/stdout", cwd=work)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == data
    os.mkfifo(work / "pipe")
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append((work / "pipe").read_bytes()))
    reader.start()
    r = run("report", "i.csv", "--json", "pipe", "--html", "o.html", cwd=work)
    reader.join(30)
    assert r.returncode == 0, r.stderr
    assert json.loads(got[0]) == data
    assert (work / "pipe").is_fifo() and sorted(listing(work)) == ["i.csv", "o.html", "pipe"]


# ---------------------------------------------------------------- full and read-only disks


def test_full_disk_report_keeps_nothing_new_and_the_old_files_intact(work: Path, tmpfs) -> None:
    d = tmpfs("1m")
    (d / "o.json").write_bytes(b"the old json")
    before = listing(d)
    r = run("report", "i.csv", "--json", d / "o.json", "--html", d / "o.html", cwd=work)
    one_line_error(r, 1, f"cannot write {d}/o.html: no space left on device")
    assert listing(d) == before


def test_full_disk_png_compare_and_demo(work: Path, tmpfs) -> None:
    d = tmpfs("1m")
    (d / "filler").write_bytes(b"x" * 900_000)  # room for the JSON, not for every plot
    before = listing(d)
    r = run("report", "i.csv", "--json", d / "o.json", "--png", d / "plots", cwd=work)
    assert r.returncode == 1 and re.fullmatch(
        rf"clfeval: error: cannot write {d}/plots/\w+\.png: no space left on device", r.stderr.splitlines()[-1])
    assert len(r.stderr.splitlines()) == 2 and "Traceback" not in r.stderr  # detected columns, the error
    assert listing(d) == before  # no plots folder, no JSON
    (work / "c.csv").write_bytes(b"y,a,b\n1,1,0\n0,0,0\n1,1,1\n")
    r = run("compare", "c.csv", "--y-true", "y", "--model", "A=a", "--model", "B=b", "--html", d / "c.html", cwd=work)
    one_line_error(r, 1, f"cannot write {d}/c.html: no space left on device")
    r = run("demo", "--kind", "binary", "--out", d, cwd=work)
    one_line_error(r, 1, f"cannot write {d}/clfeval-demo-binary.html: no space left on device")
    assert listing(d) == before


def test_read_only_folder(work: Path, tmpfs) -> None:
    d = tmpfs("1m", read_only=True)
    r = run("report", "i.csv", "--json", d / "o.json", cwd=work)
    one_line_error(r, 1, f"cannot write {d}/o.json: read-only file system")
    r = run("demo", "--out", d, cwd=work)
    one_line_error(r, 1, f"cannot write {d}/clfeval-demo-binary.html: read-only file system")
    assert listing(d) == {}


# ---------------------------------------------------------------- signals


def _handlers_installed(pid: int) -> bool:
    """ready(): the command has installed its signal handlers (the interpreter alone catches SIGINT
    but not SIGTERM; clfeval.command catches both)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = int(re.search(r"^SigCgt:\s*([0-9a-f]+)", status, flags=re.MULTILINE).group(1), 16)
    return bool(caught >> (signal.SIGTERM - 1) & 1)


def _default_signals() -> None:
    """The child starts as a command typed at a terminal does: SIGINT, SIGTERM and SIGHUP at their
    defaults (a test run started in the background inherits SIGINT ignored, which the command
    rightly keeps)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def _signalled(args: list[str], cwd: Path, after: float, sig: int = signal.SIGINT, ready=None,
               **extra: str) -> subprocess.CompletedProcess[str]:
    p = subprocess.Popen([*COMMAND, *args], cwd=cwd, env=env(**extra), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, preexec_fn=_default_signals)
    if ready is not None:
        deadline = time.monotonic() + 60
        while not ready(p.pid) and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.005)
    time.sleep(after)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def _staging(folder: Path):
    """ready(): the process holds a staged (unnamed, or hidden-named) file in ``folder`` open."""
    def ready(pid: int) -> bool:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            return False
        for fd in fds:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith(str(folder) + "/") and (target.endswith("(deleted)") or ".clfeval-staged-" in target):
                return True
        return False
    return ready


def test_ctrl_c_while_starting_up(work: Path) -> None:
    """SIGINT in the first quarter second after the command's handlers are in place (while numpy
    and the rest are imported): one line, 130. Before that only the interpreter runs (site,
    runpy finding the package), which no program can answer for; the test waits for the
    handlers (SIGTERM caught, in /proc/PID/status) instead of guessing the start-up time, which a
    loaded machine stretches."""
    run("report", "i.csv", cwd=work)  # a first run compiles the bytecode (a fresh clone has none)
    numpy_loaded_before_handlers = []

    def ready(pid: int) -> bool:
        if not _handlers_installed(pid):
            return False
        maps = Path(f"/proc/{pid}/maps").read_text()
        numpy_loaded_before_handlers.append("_multiarray_umath" in maps)
        return True

    for delay in (0.0, 0.05, 0.1, 0.25):
        # the pause before the commit keeps a fast machine from finishing within the delay
        r = _signalled(["report", "i.csv", "--json", "o.json"], work, delay, ready=ready, **{PAUSE: "30"})
        one_line_error(r, 130, "interrupted (SIGINT); nothing was written")
        assert sorted(listing(work)) == ["i.csv"]
    # the handlers come first: numpy was not yet loaded when they were in place
    assert numpy_loaded_before_handlers == [False] * 4


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_while_writing_leaves_nothing(work: Path, sig: int, status: int) -> None:
    (work / "o.json").write_bytes(b"the old json")
    before = listing(work)
    r = _signalled(["report", "i.csv", "--json", "o.json", "--html", "o.html"], work, 0.1, sig,
                   ready=_staging(work), **{PAUSE: "30"})
    one_line_error(r, status, f"interrupted ({signal.Signals(sig).name}); nothing was written")
    assert listing(work) == before


def test_sigkill_while_writing_leaves_no_staged_file(work: Path) -> None:
    before = listing(work)
    r = _signalled(["report", "i.csv", "--json", "o.json", "--png", "plots"], work, 0.1, signal.SIGKILL,
                   ready=_staging(work), **{PAUSE: "30"})
    assert r.returncode == -signal.SIGKILL
    assert listing(work) == before


def test_a_signal_during_the_commit_completes_the_set(work: Path) -> None:
    """The moves into place are not interrupted: every output is written, and the message says so."""
    r = _signalled(["report", "i.csv", "--json", "o.json", "--html", "o.html"], work, 0.3,
                   ready=_staging(work), **{PAUSE: "0.2", PAUSE_IN: "1"})
    one_line_error(r, 130, "interrupted (SIGINT) after writing o.json, o.html")
    assert json.loads((work / "o.json").read_bytes())["task"] == "binary"
    assert (work / "o.html").read_bytes().rstrip().endswith(b"</html>")
    assert sorted(listing(work)) == ["i.csv", "o.html", "o.json"]


FORCED_FALLBACK = ("import sys, clfeval.support.staged_outputs as s; s.USE_TMPFILE = False; "
                   "from clfeval.command import main; sys.argv[0] = 'clfeval'; sys.exit(main())")


def test_without_o_tmpfile_a_signal_removes_the_named_staged_files(work: Path) -> None:
    p = subprocess.Popen([sys.executable, "-c", FORCED_FALLBACK, "report", "i.csv", "--json", "o.json", "--html",
                          "o.html"], cwd=work, env=env(**{PAUSE: "30"}), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    ready = _staging(work)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None and not ready(p.pid):
        time.sleep(0.02)
    time.sleep(0.3)
    assert any(n.startswith(".clfeval-staged-") for n in os.listdir(work))  # staged under hidden names
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=60)
    one_line_error(subprocess.CompletedProcess(p.args, p.returncode, "", err), 143,
                   "interrupted (SIGTERM); nothing was written")
    assert sorted(listing(work)) == ["i.csv"]


def test_without_o_tmpfile_a_killed_run_is_cleaned_by_the_next(work: Path) -> None:
    """Where O_TMPFILE is missing, staged files have clfeval's own hidden names; the next run removes
    those of dead processes, and nothing else."""
    p = subprocess.Popen([sys.executable, "-c", FORCED_FALLBACK, "report", "i.csv", "--json", "o.json", "--html", "o.html"],
                         cwd=work, env=env(**{PAUSE: "30"}), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    ready = _staging(work)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None and not ready(p.pid):
        time.sleep(0.02)
    time.sleep(0.3)  # both files staged
    p.kill()
    p.communicate(timeout=60)
    stale = sorted(n for n in os.listdir(work) if n.startswith(".clfeval-staged-"))
    assert len(stale) == 2 and all(staged_outputs.STAGED_NAME.fullmatch(n) for n in stale)
    keep = [f".clfeval-staged-{os.getpid()}-0123456789ab.tmp", ".clfeval-staged-1-x.tmp", ".o.json.abc.tmp"]
    for name in keep:
        (work / name).write_bytes(b"not ours to remove")
    r = run("report", "i.csv", "--json", "o.json", cwd=work)
    assert r.returncode == 0, r.stderr
    assert sorted(listing(work)) == sorted(["i.csv", "o.json", *keep])


# ---------------------------------------------------------------- the staging itself


def test_a_failed_move_puts_the_originals_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a").write_bytes(b"old a")
    (tmp_path / "b").write_bytes(b"old b")
    real_replace = os.replace
    calls = []

    def failing(src, dst):
        calls.append(dst)
        if len(calls) == 2 and Path(dst).name == "b":
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(staged_outputs.os, "replace", failing)
    with pytest.raises(staged_outputs.OutputError, match=r"cannot write .*b: no space left on device"):
        with StagedOutputs(track=False) as staged:
            staged.add(resolve_output(str(tmp_path / "a"), "--json"), b"new a")
            staged.add(resolve_output(str(tmp_path / "b"), "--html"), b"new b")
            staged.commit()
    assert listing(tmp_path) == {"a": b"old a", "b": b"old b"}


@pytest.mark.parametrize("use_tmpfile", [True, False])
def test_staged_files_keep_the_mode_and_leave_nothing(tmp_path: Path, monkeypatch, use_tmpfile: bool) -> None:
    monkeypatch.setattr(staged_outputs, "USE_TMPFILE", use_tmpfile)
    (tmp_path / "a").write_bytes(b"old")
    os.chmod(tmp_path / "a", 0o640)
    plan = OutputPlan([("--json", str(tmp_path / "a")), ("--html", str(tmp_path / "new"))])
    assert plan.write([b"A", b"N"]) == [str(tmp_path / "a"), str(tmp_path / "new")]
    assert listing(tmp_path) == {"a": b"A", "new": b"N"}
    assert (tmp_path / "a").stat().st_mode & 0o777 == 0o640


def test_a_signal_the_caller_ignores_stays_ignored(work: Path) -> None:
    """nohup ignores SIGHUP: the command keeps running and writes its output."""
    p = subprocess.Popen(["nohup", *COMMAND, "report", "i.csv", "--json", "o.json"], cwd=work, env=env(**{PAUSE: "1"}),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready = _staging(work)
    deadline = time.monotonic() + 60
    while not ready(p.pid) and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.02)
    p.send_signal(signal.SIGHUP)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert json.loads((work / "o.json").read_bytes())["task"] == "binary"
