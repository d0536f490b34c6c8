"""A failed commit never removes a file the user had (file systems without hard links included)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from clfeval.support import staged_outputs as so


def _fail(monkeypatch: pytest.MonkeyPatch, *, link_of: str | None = None, replace_to: str | None = None) -> None:
    real_link, real_replace = os.link, os.replace

    def link(src, dst, *args, **kwargs):  # the spare link of an existing target (no hard links here)
        if link_of is not None and str(src).endswith(link_of):
            raise OSError(errno.EPERM, "Operation not permitted")
        return real_link(src, dst, *args, **kwargs)

    def replace(src, dst, *args, **kwargs):
        if replace_to is not None and str(dst).endswith(replace_to):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "link", link)
    monkeypatch.setattr(os, "replace", replace)


@pytest.mark.parametrize("tmpfile", [True, False])
def test_an_original_without_a_spare_link_is_replaced_last_and_never_removed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tmpfile: bool) -> None:
    monkeypatch.setattr(so, "USE_TMPFILE", tmpfile)
    a, b = tmp_path / "a.json", tmp_path / "b.html"
    a.write_text("OLD-A")
    b.write_text("OLD-B")
    _fail(monkeypatch, link_of="a.json", replace_to="b.html")
    plan = so.OutputPlan([("--json", str(a)), ("--html", str(b))])
    with pytest.raises(so.OutputError, match="cannot write .*b.html: no space left on device"):
        plan.write([b"NEW-A", b"NEW-B"])
    monkeypatch.undo()
    # a.json could not be backed up, so it was to be replaced last: b.html failed first, a.json is untouched
    assert a.read_text() == "OLD-A" and b.read_text() == "OLD-B"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.html"]


def test_a_new_file_is_removed_and_an_old_one_restored_when_a_later_rename_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.html"
    a.write_text("OLD-A")
    _fail(monkeypatch, replace_to="b.html")
    plan = so.OutputPlan([("--json", str(a)), ("--html", str(b))])
    with pytest.raises(so.OutputError, match="b.html: no space left on device"):
        plan.write([b"NEW-A", b"NEW-B"])
    monkeypatch.undo()
    assert a.read_text() == "OLD-A"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]
