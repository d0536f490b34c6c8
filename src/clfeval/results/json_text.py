"""Strict JSON text of plain results, fast on the long lists of floats that curves hold.

:func:`json_text` gives exactly ``json.dumps(json_safe(data), indent=indent, allow_nan=False)`` (the
cleaning of :func:`clfeval.support.json_plain.json_safe`: NaN is null, infinities are "inf" and
"-inf"), character for character. With an indent the standard library encodes in pure Python, one
generator step per value; here a list of floats is written in one ``join`` of their ``repr``, which
is what :mod:`json` writes for each.

>>> print(json_text({"auc": 0.75, "fpr": [0.0, float("nan"), float("inf")], "n": 3}))
{
  "auc": 0.75,
  "fpr": [
    0.0,
    null,
    "inf"
  ],
  "n": 3
}
>>> json_text([1, True, None, "é"], indent=None)
'[1, true, null, "\\\\u00e9"]'
"""

from __future__ import annotations

from json.encoder import encode_basestring_ascii
from typing import Any

from clfeval.support.json_plain import json_safe

__all__ = ["json_text"]

#: what json_safe and json write for the floats whose repr is one of these
_SPECIAL = {"nan": "null", "inf": '"inf"', "-inf": '"-inf"'}


def json_text(data: Any, indent: int | str | None = 2) -> str:
    """``json.dumps(json_safe(data), indent=indent, allow_nan=False)``, equal to it character for
    character (``indent``: spaces per level, a string, or None for one line).

    >>> json_text({"a": [], "b": {}, 1: (2.5, -0.0)}, indent=1)
    '{\\n "a": [],\\n "b": {},\\n "1": [\\n  2.5,\\n  -0.0\\n ]\\n}'
    """
    if indent is None:
        return _Encoder(None, ", ").text(data, 0)
    return _Encoder(" " * indent if isinstance(indent, int) else str(indent), ",").text(data, 0)


class _Encoder:
    """The text of one value at a nesting depth, with json's layout for ``indent``."""

    def __init__(self, indent: str | None, item_separator: str) -> None:
        self.indent = indent
        self.item_separator = item_separator

    def _joined(self, items: list[str], depth: int, open_: str, close: str) -> str:
        if self.indent is None:
            return open_ + self.item_separator.join(items) + close
        inner = "\n" + self.indent * (depth + 1)
        return open_ + inner + (self.item_separator + inner).join(items) + "\n" + self.indent * depth + close

    def text(self, obj: Any, depth: int) -> str:
        if obj is None:
            return "null"
        kind = type(obj)
        if kind is float:
            text = float.__repr__(obj)
            return _SPECIAL.get(text, text)
        if kind is str:
            return encode_basestring_ascii(obj)
        if kind is int:
            return int.__repr__(obj)
        if kind is bool:
            return "true" if obj else "false"
        if kind is dict:
            if not obj:
                return "{}"
            if not all(type(k) is str for k in obj):  # keys as json_safe makes them (str(key); the last wins)
                obj = {str(k): v for k, v in obj.items()}
            items = [encode_basestring_ascii(k) + ": " + self.text(v, depth + 1) for k, v in obj.items()]
            return self._joined(items, depth, "{", "}")
        if kind is list or kind is tuple:
            if not obj:
                return "[]"
            try:  # a list of floats (numpy's included): their repr, as json writes them
                items = list(map(float.__repr__, obj))
            except TypeError:  # any other list; flags (a curve's "synthetic") without a call each
                items = ["true" if v is True else "false" if v is False else self.text(v, depth + 1) for v in obj]
            else:
                if not _SPECIAL.keys().isdisjoint(items):
                    items = [_SPECIAL.get(v, v) for v in items]
            return self._joined(items, depth, "[", "]")
        plain = json_safe(obj)  # numpy values, other containers and objects: as json_safe makes them
        if isinstance(plain, str):
            return encode_basestring_ascii(plain)
        return self.text(plain, depth)
