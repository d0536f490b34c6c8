"""Output files written all together or not at all, and never over an input.

An :class:`OutputPlan` is made from the paths the user gave, before any input is read: it refuses
(:class:`OutputConflict`, a usage error) an output that is an input file (the same file through
any symlink, hard link or relative path; a file of an input directory; a ``--cost`` file) and
two outputs that are one file, and it fails early (:class:`OutputError`) on a missing or
read-only folder. Once everything is rendered, :meth:`OutputPlan.write` stages every file, then
moves them all into place:

- a file is staged unnamed (``O_TMPFILE``) in its target's folder, so a process killed even by
  SIGKILL leaves nothing behind; where the file system lacks ``O_TMPFILE`` it is staged under a
  hidden name ``.clfeval-staged-<pid>-<12 hex digits>.tmp``, and the next run removes such
  files whose process is gone from the folders it writes to (nothing else);
- the commit links each staged file under a hidden name beside its target, then renames them
  over their targets one after the other (keeping the originals until all are in place, to put
  them back if a rename fails); SIGINT, SIGTERM and SIGHUP are held back meanwhile, so a
  signal cannot leave half a set; on any error or signal before the commit the staged files
  are removed and the targets are untouched;
- an output that is a symlink is written through to the file it points to (the link stays);
  standard output (``-``), a FIFO or a device is written directly, last, after the files.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> plan = OutputPlan([("--json", str(d / "o.json")), ("--html", str(d / "o.html"))])
>>> plan.write([b"{}", b"<html></html>"])  # doctest: +ELLIPSIS
['...o.json', '...o.html']
>>> sorted(p.name for p in d.iterdir())
['o.html', 'o.json']
>>> OutputPlan([("--json", str(d / "o.json")), ("--html", str(d / "o.json"))])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
clfeval.support.staged_outputs.OutputConflict: --json ...o.json and --html ...o.json are the same file; give each output its own path
"""

from __future__ import annotations

import errno
import io
import os
import re
import secrets
import stat
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from clfeval.support.signals import signals_deferred

__all__ = ["OutputPlan", "OutputError", "OutputConflict", "Output", "StagedOutputs", "resolve_output",
           "remove_stale_staged", "progress", "STAGED_NAME", "staged_file"]

#: the names of clfeval's own staged files (used only where O_TMPFILE is not available)
STAGED_NAME = re.compile(r"\.clfeval-staged-(\d+)-[0-9a-f]{12}\.tmp")
#: stage unnamed (O_TMPFILE) where the file system allows; tests turn this off to try the fallback
USE_TMPFILE = True
#: TEST ONLY: seconds to sleep between staging and commit, so a test can signal "while writing"
TEST_PAUSE_ENV = "CLFEVAL_TEST_PAUSE_BEFORE_COMMIT"
#: TEST ONLY: seconds to sleep inside the commit (between naming the files and moving them)
TEST_PAUSE_COMMIT_ENV = "CLFEVAL_TEST_PAUSE_DURING_COMMIT"
_NO_TMPFILE = {errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, getattr(errno, "ENOTSUP", errno.EOPNOTSUPP)}

_progress: dict[str, Any] = {"written": [], "writing": None}


class OutputError(OSError):
    """An output file cannot be written where asked (exit status 1); the message names it."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class OutputConflict(Exception):
    """Outputs that would overwrite an input or each other (a usage error: exit status 2)."""


def progress() -> tuple[list[str], str | None]:
    """(outputs written so far by this process's last plan, the one being written directly or None),
    so that a message about an interruption can say what is true."""
    return list(_progress["written"]), _progress["writing"]


def _reason(exc: OSError) -> str:
    text = exc.strerror or str(exc)
    return text[:1].lower() + text[1:]


def cannot_write(shown: str, exc: OSError) -> OutputError:
    """``cannot write DIR/o.html: no space left on device``."""
    return OutputError(f"cannot write {shown}: {_reason(exc)}")


@dataclass(frozen=True)
class Output:
    """One output: ``option`` and ``shown`` (the path as the user typed it) for messages; ``path``
    the file to write (a symlink's target; None for standard output); ``stream`` when it is
    written directly (standard output, a FIFO, a device) rather than staged."""

    option: str
    shown: str
    path: Path | None
    stream: bool = False

    def key(self) -> tuple[Any, ...]:
        """What makes two outputs the same file: (device, inode) when it exists, else the real path."""
        try:
            st = os.fstat(1) if self.path is None else os.stat(self.path)
        except OSError:
            return ("path", str(self.path))
        return ("inode", st.st_dev, st.st_ino)


def resolve_output(text: str, option: str) -> Output:
    """The output ``text`` names: standard output for ``-``; a FIFO or device as it is; otherwise
    the regular file it is or will be (symlinks followed to their target).

    >>> resolve_output("-", "--json")
    Output(option='--json', shown='standard output', path=None, stream=True)
    """
    if text == "-":
        return Output(option, "standard output", None, True)
    try:
        st: os.stat_result | None = os.stat(text)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OutputError(f"{option} {text}: {_reason(exc)}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{option} {text}: is a folder; give a file name")
    if st is not None and not stat.S_ISREG(st.st_mode):
        return Output(option, text, Path(text), True)
    real = Path(os.path.realpath(text))
    if not real.parent.is_dir():
        folder = real.parent if os.path.islink(text) else (Path(text).parent if str(Path(text).parent) else Path("."))
        raise OutputError(f"{option} {text}: folder {folder} does not exist")
    return Output(option, text, real, False)


def _input_files(inputs: Iterable[tuple[str, str | None]]) -> dict[tuple[Any, ...], str]:
    """(device, inode) of every input file -> how to name it (files of an input directory included)."""
    found: dict[tuple[Any, ...], str] = {}

    def add(path: str, name: str) -> None:
        with suppress(OSError):
            st = os.stat(path)
            if stat.S_ISREG(st.st_mode):
                found.setdefault(("inode", st.st_dev, st.st_ino), name)

    for label, text in inputs:
        if not text or text == "-":
            continue
        if os.path.isdir(text):
            for root, _, files in os.walk(text, followlinks=True):
                for f in files:
                    path = os.path.join(root, f)
                    add(path, f"{path}, a file of the input directory {text}")
        else:
            add(text, f"the input file {text}" if label == "FILE" else f"the {label} file {text}")
    return found


def _read_only(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


@dataclass(frozen=True)
class _Folder:
    option: str
    shown: str
    path: Path  # real path
    exists: bool


class OutputPlan:
    """The outputs asked for, checked before any input is read; :meth:`write` writes them all or none.

    ``files``: (option, path as typed or None) pairs; ``png``: a folder for :meth:`write`'s
    ``pngs`` (created if missing); ``inputs``: (label, path) of every file or directory read
    (``"FILE"`` for the main input, an option such as ``"--cost"`` otherwise).
    """

    def __init__(self, files: Sequence[tuple[str, str | None]], png: str | None = None,
                 inputs: Sequence[tuple[str, str | None]] = (), png_option: str = "--png") -> None:
        self.files = [resolve_output(text, option) for option, text in files if text is not None]
        self.png = None if png is None else self._folder(png, png_option)
        self.inputs = _input_files(inputs)
        self._check([])
        for out in self.files:
            if not out.stream:
                self._writable(out.path.parent, out.shown)  # type: ignore[union-attr]
        if self.png is not None:
            self._writable(self.png.path if self.png.exists else self.png.path.parent, self.png.shown)

    @property
    def to_stdout(self) -> bool:
        """Whether an output is this process's standard output (``-``, ``/dev/stdout``...)."""
        try:
            st = os.fstat(1)
        except OSError:
            return any(o.path is None for o in self.files)
        return any(o.key() == ("inode", st.st_dev, st.st_ino) for o in self.files)

    @staticmethod
    def _folder(text: str, option: str) -> _Folder:
        if text == "-":
            raise OutputConflict(f"{option} -: the plots are files; give a folder")
        real = Path(os.path.realpath(text))
        if real.exists() and not real.is_dir():
            raise OutputError(f"{option} {text}: exists and is not a folder")
        if not real.parent.is_dir():
            parent = Path(text).parent if str(Path(text).parent) else Path(".")
            raise OutputError(f"{option} {text}: folder {parent} does not exist")
        return _Folder(option, text, real, real.is_dir())

    @staticmethod
    def _writable(folder: Path, shown: str) -> None:
        if _read_only(folder):
            raise OutputError(f"cannot write {shown}: {_reason(OSError(errno.EROFS, os.strerror(errno.EROFS)))}")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OutputError(f"cannot write {shown}: {_reason(OSError(errno.EACCES, os.strerror(errno.EACCES)))}")

    def _check(self, extra: Sequence[Output]) -> None:
        seen: dict[tuple[Any, ...], Output] = {}
        for out in [*self.files, *extra]:
            key = out.key()
            if key in self.inputs:
                raise OutputConflict(f"{out.option} {out.shown}: that is {self.inputs[key]}; clfeval never writes "
                                     "over its input (give another path)")
            if key in seen:
                first = seen[key]
                raise OutputConflict(f"{first.option} {first.shown} and {out.option} {out.shown} are the same file; "
                                     "give each output its own path")
            seen[key] = out
        if self.png is not None and self.png.exists and not extra and self.inputs:
            for entry in _pngs_in(self.png.path):  # an input named like a plot, in the plots' folder
                name = self.inputs.get(Output("", "", entry).key())
                if name is not None:
                    raise OutputConflict(f"{self.png.option} {self.png.shown}: it holds {name}, which a plot "
                                         "could overwrite; give another folder")

    def write(self, contents: Sequence[bytes], pngs: Sequence[tuple[str, bytes]] = ()) -> list[str]:
        """Stage ``contents`` (one per file output, in order) and ``pngs`` ((name, bytes) in the
        png folder), then move them all into place; returns the outputs written (as typed)."""
        if len(contents) != len(self.files):
            raise ValueError(f"{len(self.files)} outputs, {len(contents)} contents")
        png_outputs: list[Output] = []
        if pngs and self.png is not None:
            for name, _ in pngs:
                shown = f"{self.png.shown.rstrip('/')}/{name}"
                if self.png.exists:
                    png_outputs.append(resolve_output(str(self.png.path / name), self.png.option))
                    png_outputs[-1] = Output(self.png.option, shown, png_outputs[-1].path, png_outputs[-1].stream)
                else:
                    png_outputs.append(Output(self.png.option, shown, self.png.path / name))
            self._check(png_outputs)
        with StagedOutputs() as staged:
            if png_outputs and self.png is not None and not self.png.exists:
                staged.make_folder(self.png.path, self.png.shown)
            for out, data in zip(self.files, contents):
                staged.add(out, data)
            for out, (_, data) in zip(png_outputs, pngs):
                staged.add(out, data)
            return staged.commit()


def _pngs_in(folder: Path) -> list[Path]:
    try:
        return [Path(e.path) for e in os.scandir(folder) if e.name.lower().endswith(".png")]
    except OSError:
        return []


# ---------------------------------------------------------------- staging


def _test_pause(variable: str) -> None:
    """TEST ONLY: sleep as long as the environment variable says (unset: not at all)."""
    seconds = os.environ.get(variable)
    if seconds:
        time.sleep(float(seconds))


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def remove_stale_staged(folder: str | os.PathLike[str]) -> list[str]:
    """Remove the staged files (``.clfeval-staged-<pid>-<hex>.tmp``, nothing else) that a clfeval
    process now gone left in ``folder``; returns their names.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for name in (".clfeval-staged-999999999-0123456789ab.tmp", ".clfeval-staged-1-x.tmp", "keep.tmp"):
    ...     _ = (d / name).write_text("x")
    >>> remove_stale_staged(d), sorted(p.name for p in d.iterdir())
    (['.clfeval-staged-999999999-0123456789ab.tmp'], ['.clfeval-staged-1-x.tmp', 'keep.tmp'])
    """
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        m = STAGED_NAME.fullmatch(entry.name)
        if m is None or int(m.group(1)) == os.getpid() or _pid_alive(int(m.group(1))):
            continue
        with suppress(OSError):
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(entry.name)
    return removed


def _hidden_name(folder: Path) -> Path:
    return folder / f".clfeval-staged-{os.getpid()}-{secrets.token_hex(6)}.tmp"


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


class _Staged:
    """One staged file: an open descriptor, unnamed (O_TMPFILE) or under a hidden name."""

    def __init__(self, out: Output, fd: int, name: Path | None) -> None:
        self.out, self.fd, self.name = out, fd, name
        self.backup: Path | None = None  # a spare link to the file the target held, to put it back
        self.existed = False  # the target held a file before the commit

    @classmethod
    def create(cls, out: Output, folder: Path) -> _Staged:
        try:
            mode = os.stat(out.path).st_mode & 0o7777  # type: ignore[arg-type]
        except OSError:
            mode = _new_file_mode()
        if USE_TMPFILE and hasattr(os, "O_TMPFILE") and os.path.isdir("/proc/self/fd"):
            try:
                fd = os.open(folder, os.O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, 0o600)
            except OSError as exc:
                if exc.errno not in _NO_TMPFILE:
                    raise
            else:
                os.fchmod(fd, mode)
                return cls(out, fd, None)
        name = _hidden_name(folder)
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        staged = cls(out, fd, name)
        os.fchmod(fd, mode)
        return staged

    def file(self, text: bool = False, encoding: str | None = "utf-8") -> IO[Any]:
        raw = os.fdopen(self.fd, "wb", closefd=False)
        return io.TextIOWrapper(raw, encoding=encoding or "utf-8", newline="") if text else raw

    def finish(self) -> None:
        """Everything is written: on the disk before the file is named."""
        os.fsync(self.fd)

    def name_beside_target(self) -> None:
        """Commit, first step: a hidden name in the target's folder (nothing visible changes)."""
        folder = self.out.path.parent  # type: ignore[union-attr]
        if self.name is None:
            hidden = _hidden_name(folder)
            # linkat(/proc/self/fd/N, AT_SYMLINK_FOLLOW): os.link calls linkat only with a dir fd
            proc = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                os.link(str(self.fd), hidden, src_dir_fd=proc, follow_symlinks=True)
            finally:
                os.close(proc)
            self.name = hidden
        elif self.name.parent != folder:
            hidden = _hidden_name(folder)
            os.replace(self.name, hidden)
            self.name = hidden
        with suppress(OSError):  # keep the original to put it back if a later rename fails
            self.existed = os.path.lexists(self.out.path)  # type: ignore[arg-type]
            if stat.S_ISREG(os.lstat(self.out.path).st_mode):  # type: ignore[arg-type]
                backup = _hidden_name(folder)
                os.link(self.out.path, backup, follow_symlinks=False)  # type: ignore[arg-type]
                self.backup = backup

    def discard(self) -> None:
        with suppress(OSError):
            os.close(self.fd)
        for path in (self.name, self.backup):
            if path is not None:
                with suppress(OSError):
                    os.unlink(path)
        self.name = self.backup = None


class StagedOutputs:
    """Files staged one by one and moved into place all together by :meth:`commit`; leaving the
    ``with`` block on an error (or a signal) before that removes every staged file."""

    def __init__(self, track: bool = True) -> None:
        self._staged: list[_Staged] = []
        self._streams: list[tuple[Output, bytes]] = []
        self._folders: list[tuple[Path, str]] = []
        self._made: list[Path] = []
        self._swept: set[Path] = set()
        self._track = track
        if track:
            _progress["written"], _progress["writing"] = [], None

    def __enter__(self) -> StagedOutputs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()

    def make_folder(self, path: Path, shown: str) -> None:
        """Create ``path`` (a folder whose parent exists) as the commit starts."""
        self._folders.append((path, shown))

    def _stage_folder(self, out: Output) -> Path:
        folder = out.path.parent  # type: ignore[union-attr]
        return folder.parent if any(folder == f for f, _ in self._folders) else folder

    def _sweep(self, folder: Path) -> None:
        if folder not in self._swept:
            self._swept.add(folder)
            remove_stale_staged(folder)

    def _open(self, out: Output) -> _Staged:
        folder = self._stage_folder(out)
        self._sweep(folder)
        self._sweep(out.path.parent)  # type: ignore[union-attr]
        with signals_deferred():  # a descriptor or name is never lost between creation and record
            try:
                staged = _Staged.create(out, folder)
            except OSError as exc:
                raise cannot_write(out.shown, exc) from None
            self._staged.append(staged)
        return staged

    def add(self, out: Output, data: bytes) -> None:
        """Stage ``data`` for ``out`` (a stream is kept, to be written directly after the commit)."""
        if out.stream:
            self._streams.append((out, data))
            return
        staged = self._open(out)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(staged.fd, view):]
            staged.finish()
        except OSError as exc:
            raise cannot_write(out.shown, exc) from None

    @contextmanager
    def open(self, out: Output, text: bool = True, encoding: str | None = "utf-8") -> Iterator[IO[Any]]:
        """A file object writing ``out``'s staged file."""
        staged = self._open(out)
        f = staged.file(text, encoding)
        try:
            yield f
            f.flush()
            staged.finish()
        except OSError as exc:
            raise cannot_write(out.shown, exc) from None
        finally:
            with suppress(Exception):
                f.close()  # closefd=False: the descriptor stays open for the commit

    def commit(self) -> list[str]:
        """Move every staged file into place (signals held back meanwhile), then write the streams;
        returns the outputs written (as typed)."""
        _test_pause(TEST_PAUSE_ENV)
        written: list[str] = []
        with signals_deferred():
            current = None
            done: list[_Staged] = []
            try:
                for path, shown in self._folders:
                    current = shown
                    with suppress(FileExistsError):
                        os.mkdir(path)
                        self._made.append(path)
                for staged in self._staged:
                    current = staged.out.shown
                    staged.name_beside_target()
                _test_pause(TEST_PAUSE_COMMIT_ENV)
                # a target whose original could not be kept (no hard links on that file system)
                # cannot be put back: such files are replaced last, when nothing else can fail
                order = sorted(self._staged, key=lambda st: st.existed and st.backup is None)
                for staged in order:
                    current = staged.out.shown
                    os.replace(staged.name, staged.out.path)  # type: ignore[arg-type]
                    staged.name = None
                    done.append(staged)
            except OSError as exc:
                kept = self._roll_back(done)
                error = cannot_write(current or "?", exc)
                if kept:
                    error = OutputError(f"{error}; the earlier content of {', '.join(kept)} could not be put back "
                                        "and is kept as named")
                raise error from None
            written = [s.out.shown for s in self._staged]
            self._made = []
            for staged in self._staged:
                staged.discard()  # closes it and removes the original's spare link
            self._staged = []
            if self._track:
                _progress["written"] = list(written)
        for out, data in self._streams:
            self._write_stream(out, data)
            written.append(out.shown)
        self._streams = []
        return written

    def _write_stream(self, out: Output, data: bytes) -> None:
        if self._track:
            _progress["writing"] = out.shown
        try:
            if out.path is None:
                sys.stdout.flush()
                sys.stdout.buffer.write(data)
                sys.stdout.buffer.flush()
            else:
                with open(out.path, "wb") as f:
                    f.write(data)
        except OSError as exc:
            raise cannot_write(out.shown, exc) from None
        if self._track:
            _progress["writing"] = None
            _progress["written"].append(out.shown)

    def _roll_back(self, done: list[_Staged]) -> list[str]:
        """Put the originals back and remove what was new; never removes a file the user had.
        Returns the outputs whose original could not be put back (its spare link is kept)."""
        kept: list[str] = []
        for staged in reversed(done):
            if staged.backup is not None:
                try:
                    os.replace(staged.backup, staged.out.path)  # type: ignore[arg-type]
                except OSError:  # keep it under a name no sweep of staged files removes
                    spare = staged.out.path.with_name(f"{staged.out.path.name}.clfeval-original")  # type: ignore[union-attr]
                    try:
                        os.replace(staged.backup, spare)
                    except OSError:
                        spare = staged.backup
                    kept.append(f"{staged.out.shown} ({spare})")
                staged.backup = None  # restored, or kept: never unlinked
            elif not staged.existed:
                with suppress(OSError):
                    os.unlink(staged.out.path)  # type: ignore[arg-type]
        return kept

    def discard(self) -> None:
        """Remove every staged file (and folders made for them); the targets stay as they were."""
        with signals_deferred(reraise=False):
            for staged in self._staged:
                staged.discard()
            self._staged = []
            for path in reversed(self._made):
                with suppress(OSError):
                    os.rmdir(path)
            self._made = []


@contextmanager
def staged_file(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO[Any]]:
    """One file written whole or not at all (see :func:`clfeval.support.atomic.atomic_write`)."""
    out = resolve_output(os.fspath(path), "")
    text = "b" not in mode
    if out.stream:
        with open(out.path if out.path is not None else sys.stdout.fileno(), "w" if text else "wb",
                  encoding=encoding if text else None, closefd=out.path is not None) as f:
            yield f
        return
    with StagedOutputs(track=False) as staged:
        with staged.open(out, text, encoding) as f:
            yield f
        staged.commit()
