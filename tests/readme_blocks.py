"""The README's code blocks, read as the tests run them (used by ``tests/test_readme.py``).

Every fenced block of README.md is one of:

* ``python``: run (blocks share one namespace, in README order, as in a notebook); when a
  ``text`` block (or an untagged block after "prints") follows, what the block prints — print
  calls, and the repr of each bare expression, as an interactive session shows them — must equal it;
* ``python`` or untagged starting with ``>>>``: a doctest;
* ``bash``: each command is run (``pip install`` and ``python -m pytest`` are what ``.ci/run``
  runs in a fresh virtual environment, so they are skipped here); a ``text`` block after it is
  its expected output;
* untagged starting with ``$``: a console session, each ``$`` command followed by what it prints;
* ``text`` after a code block: expected output; ``text`` elsewhere: prose (a folder listing);
* untagged between ``<!-- ...:START -->``/``END`` markers: generated output, checked elsewhere.

Expected output is compared line by line after ``rstrip``; a line ``...`` stands for any number
of lines, a line ending in ``...`` is a prefix, and ``  # comment`` at the end of an expected
line is the README's remark, not output.

>>> blocks = parse_blocks("text\\n```python\\nx = 1\\n```\\n```text\\n1\\n```\\n")
>>> [(b.kind, b.line) for b in blocks]
[('python', 2), ('output', 5)]
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass
class Block:
    kind: str  # python, doctest, bash, console, output, prose, generated
    text: str
    line: int  # 1-based line of the opening fence
    expected: Block | None = None  # the output block that follows a code block

    @property
    def name(self) -> str:
        first = next((x for x in self.text.splitlines() if x.strip()), "")
        return f"README.md:{self.line} ({self.kind}: {first.strip()[:50]})"


def parse_blocks(readme: str) -> list[Block]:
    """Every fenced block with its kind; output blocks are attached to the code block before them."""
    lines = readme.splitlines()
    blocks: list[Block] = []
    i = 0
    in_generated = False
    prose_since_last = ""
    while i < len(lines):
        line = lines[i]
        if re.match(r"<!-- [A-Z-]+:START -->", line.strip()):
            in_generated = True
        elif re.match(r"<!-- [A-Z-]+:END -->", line.strip()):
            in_generated = False
        m = FENCE.match(line)
        if not m:
            prose_since_last += line + "\n"
            i += 1
            continue
        lang, start = m.group(1), i
        body = []
        i += 1
        while i < len(lines) and lines[i].rstrip() != "```":
            body.append(lines[i])
            i += 1
        i += 1  # the closing fence
        text = "\n".join(body) + "\n"
        first = next((x.lstrip() for x in body if x.strip()), "")
        previous = blocks[-1] if blocks else None
        follows_code = (previous is not None and previous.kind in ("python", "bash")
                        and previous.expected is None
                        and (not prose_since_last.strip() or prose_since_last.strip().endswith("prints")))
        if in_generated:
            kind = "generated"
        elif first.startswith(">>>"):
            kind = "doctest"
        elif lang == "python":
            kind = "python"
        elif lang in ("bash", "sh", "shell"):
            kind = "bash"
        elif lang == "" and first.startswith("$ "):
            kind = "console"
        elif lang in ("", "text") and follows_code:
            kind = "output"
        elif lang == "text":
            kind = "prose"
        else:
            raise ValueError(f"README.md:{start + 1}: a ```{lang} block the README tests cannot classify "
                             "(tag it python, bash or text; start a console session with '$ ')")
        block = Block(kind, text, start + 1)
        if kind == "output":
            previous.expected = block  # type: ignore[union-attr]
        blocks.append(block)
        prose_since_last = ""
    return blocks


def expected_lines(block: Block) -> list[str]:
    """The output lines of an output block, the README's trailing ``  # remarks`` removed."""
    out = []
    for line in block.text.splitlines():
        out.append(re.sub(r"\s{2,}# .*$", "", line).rstrip())
    while out and not out[-1]:
        out.pop()
    return out


def match_output(expected: list[str], actual: list[str]) -> str | None:
    """None when ``actual`` matches ``expected`` (``...`` lines and ``...`` suffixes are wildcards),
    else the first difference, for the assertion message.

    >>> match_output(["a", "...", "d..."], ["a", "b", "c", "done"]) is None
    True
    >>> match_output(["a", "x"], ["a", "b"])
    "line 2: expected 'x', got 'b'"
    """
    actual = [x.rstrip() for x in actual]
    while actual and not actual[-1]:
        actual.pop()

    def fits(want: str, got: str) -> bool:
        return got.startswith(want[:-3].rstrip()) if want.endswith("...") and want != "..." else got == want

    def walk(e: int, a: int) -> bool:
        while e < len(expected):
            if expected[e] == "...":
                return any(walk(e + 1, k) for k in range(a, len(actual) + 1))
            if a >= len(actual) or not fits(expected[e], actual[a]):
                return False
            e, a = e + 1, a + 1
        return a == len(actual)

    if walk(0, 0):
        return None
    for k, want in enumerate(expected):
        if want == "...":
            return f"no match around line {k + 1} (after '...'); got:\n" + "\n".join(actual)
        got = actual[k] if k < len(actual) else "<end of output>"
        if not fits(want, got):
            return f"line {k + 1}: expected {want!r}, got {got!r}"
    return f"{len(actual) - len(expected)} more line(s) than expected: {actual[len(expected):]!r}"


def shell_commands(text: str) -> list[list[str]]:
    r"""The commands of a bash block as argument lists: continuation lines joined, comments dropped.

    >>> shell_commands("a 'x y' \\\n  --y 1   # why\n\nb\n")
    [['a', 'x y', '--y', '1'], ['b']]
    """
    commands, current = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        argv = shlex.split(current + line, comments=True)
        if argv:
            commands.append(argv)
        current = ""
    return commands


def console_session(text: str) -> list[tuple[list[str], list[str]]]:
    """``$ command`` lines of a console block with the output lines that follow each."""
    session: list[tuple[list[str], list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            session.append((shlex.split(line[2:], comments=True), []))
        elif session:
            session[-1][1].append(line.rstrip())
    for _, out in session:
        while out and not out[-1]:
            out.pop()
    return session
