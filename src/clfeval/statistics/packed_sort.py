"""Sorting (score, class code) pairs fast: the packed-key sort behind every score table.

Each sample becomes one uint64 key whose high bits are an order-preserving offset of its score's
bit pattern and whose low bits are its class code; one SIMD sort of the keys then orders the
scores (highest first) and groups tied scores by class. :func:`sorted_parts` yields the sorted
keys part by part with a decoder that gives the scores back, :func:`take_codes` splits the class
codes off, and :func:`sort_in_place` sorts large arrays on several cores.
:class:`~clfeval.statistics.scores.ScoreTable` and :func:`~clfeval.statistics.scores.pairwise_u` read these.

>>> keys, decode = next(sorted_parts(np.array([0.5, 2.0, 0.5]), np.array([1, 0, 0], np.uint8), 1))
>>> codes = take_codes(keys, 1)
>>> decode(keys).tolist(), codes.tolist()
([2.0, 0.5, 0.5], [0, 0, 1])
"""

from __future__ import annotations

import os
from functools import partial
from typing import Callable, Iterator

import numpy as np

from clfeval.support.thread_pools import thread_pool

__all__ = [
    "Decoder", "sorted_parts", "sorted_binary_keys", "grouped_binary_keys", "take_codes", "code_bits",
    "sort_in_place", "PARALLEL_SORT_MIN", "PARALLEL_SORT_MIN_WORKERS",
]

_SIGN = np.uint64(1 << 63)
_FLOAT_INF = 0x7FF0000000000000  # bit pattern of +inf
_MAGNITUDE = np.int64(0x7FFFFFFFFFFFFFFF)
_NOT_BIT_62 = np.int64(~(1 << 62))


def take_codes(keys: np.ndarray, bits: int) -> np.ndarray:
    """Split packed keys in place: return the class codes and leave the value part in ``keys``."""
    code = np.empty(keys.size, dtype=np.uint8 if bits <= 8 else np.uint16)
    np.bitwise_and(keys, (1 << bits) - 1, out=code, casting="unsafe")
    keys >>= np.uint64(bits)
    return code


def code_bits(k: int) -> int:
    return max(1, (k - 1).bit_length())


def _float_bits(v: float) -> np.uint64:
    return np.array(v + 0.0, dtype=np.float64).view(np.uint64)[()]


Decoder = Callable[[np.ndarray], np.ndarray]


def sorted_parts(
    x: np.ndarray, codes: np.ndarray, bits: int, owned: bool = False
) -> Iterator[tuple[np.ndarray, Decoder]]:
    """Sort (score, class code) pairs, highest score first, in parts that each fit one uint64 key.

    Speed trick: instead of an argsort (several times slower than a plain sort, and followed by
    gathers), each sample becomes one uint64 key whose high bits are an order-preserving offset of
    the score's bit pattern and whose low ``bits`` bits are the class code; one SIMD ``np.sort``
    of the keys then orders scores and groups tied scores by class. A part is a range of scores
    narrow enough for the offset to fit beside the code. Ascending keys are descending scores;
    parts come out highest first. Yields (sorted keys, decode) where ``decode(keys >> bits)``
    gives the scores back. ``owned``: x is a scratch copy whose memory may become the keys.
    """
    if x.size == 0:
        return
    lo, hi = float(x.min()), float(x.max())
    if lo >= 0 or hi < 0:
        yield from _sorted_sign_part(x, codes, bits, lo, hi, hi < 0, owned)
    elif bits == 1:
        yield from _sorted_mixed_signs(x, codes, lo, hi, owned)
    else:
        yield from _sorted_by_sign(x, codes, bits)


def _sorted_by_sign(
    x: np.ndarray, codes: np.ndarray, bits: int
) -> Iterator[tuple[np.ndarray, Decoder]]:
    """Non-negative scores first, then negative ones, each as its own part."""
    neg = x < 0
    for negative, mask in ((False, ~neg), (True, neg)):
        xp = x[mask]
        yield from _sorted_sign_part(
            xp, codes[mask], bits, float(xp.min()), float(xp.max()), negative, True
        )


def _sorted_sign_part(
    x: np.ndarray,
    codes: np.ndarray,
    bits: int,
    lo: float,
    hi: float,
    negative: bool,
    owned: bool,
) -> Iterator[tuple[np.ndarray, Decoder]]:
    """Scores of one sign: the key offset is taken from the pattern of the highest score."""
    owned = owned and x.flags.c_contiguous
    if lo == 0.0:  # -0.0 and 0.0 tie, so give them the same bit pattern
        x = np.add(x, 0.0, out=x if owned else None)
        owned = True
    pattern = x.view(np.uint64)
    # Non-negative scores: a larger pattern is a larger score; negative: a smaller score. Either
    # way the offset from the highest score's pattern grows as the score falls.
    base = _float_bits(hi)
    span = abs(int(base) - int(_float_bits(lo)))
    if span >> (64 - bits) == 0:
        out = pattern if owned else None
        if negative:
            keys = np.subtract(pattern, base, out=out)
        else:
            keys = np.subtract(base, pattern, out=out)
        yield _pack_and_sort(keys, codes, bits, span), partial(_decode_sign, base, negative)
        return
    # Too wide: split by the leading bits of the magnitude's pattern, so every piece fits.
    piece = ((pattern & ~_SIGN) >> np.uint64(63 - bits)).astype(np.uint8 if bits <= 8 else np.uint16)
    present = np.flatnonzero(np.bincount(piece, minlength=1 << bits))
    for p in present[::-1] if not negative else present:
        mask = piece == p
        xp = x[mask]
        yield from _sorted_sign_part(
            xp, codes[mask], bits, float(xp.min()), float(xp.max()), negative, True
        )


def _sorted_mixed_signs(
    x: np.ndarray, codes: np.ndarray, lo: float, hi: float, owned: bool
) -> Iterator[tuple[np.ndarray, Decoder]]:
    """Scores of both signs, one class code bit (binary problems), in a single part.

    Speed trick: rather than splitting by sign (four boolean gathers), scale by a power of two
    so that |x| < 2**-512, map float bits to order-preserving signed integers, and the whole
    range then fits beside the code bit (below the pattern of +inf, so it sorts as float64).
    Scaling is exact unless a value turns subnormal, which the sorted keys reveal; then the
    scores are split by sign instead.
    """
    shift = int(np.frexp(max(-lo, hi))[1]) + 512  # max |x| < 2**(shift - 512)
    if shift > 1022:  # |x| >= 2**510: 2**-shift itself would be subnormal
        yield from _sorted_by_sign(x, codes, 1)
        return
    in_place = owned and shift <= 0 and x.flags.c_contiguous  # else x is kept for the fallback
    scaled = np.multiply(x, 2.0**-shift, out=x if in_place else None)
    scaled += 0.0  # -0.0 and 0.0 tie
    ints = scaled.view(np.int64)
    flip = ints >> 63  # negative scores: flip the magnitude bits so that integers order floats
    flip &= _MAGNITUDE
    ints ^= flip
    del flip
    top = _order_int(hi * 2.0**-shift)
    span = top - _order_int(lo * 2.0**-shift)  # < 2**62
    keys = np.subtract(top, ints, out=ints).view(np.uint64)  # grows as the score falls
    keys = _pack_and_sort(keys, codes, 1, span)
    tiny = _tiny_after_scaling(keys, top, span) if shift > 0 else 0
    if tiny and tiny > np.count_nonzero(x == 0):  # scaling lost something: split by sign
        yield from _sorted_by_sign(x, codes, 1)
        return
    yield keys, partial(_decode_mixed, top, shift)


def _order_int(value: float) -> int:
    """The order-preserving integer of a float (as in _sorted_mixed_signs)."""
    i = int(np.array(value + 0.0).view(np.int64))
    return i ^ 0x7FFFFFFFFFFFFFFF if i < 0 else i


def _tiny_after_scaling(keys: np.ndarray, top: int, span: int) -> int:
    """How many scaled scores are zero or subnormal (below 2**-1022 in magnitude).

    Scaling was exact if these are just the zeros of the data. Sorted keys are
    ``(top - order integer) << 1 | code`` and the order integers of zero and subnormals fill
    [-2**52, 2**52), so two binary searches count them (no pass over the data).
    """

    def key(i: int) -> int:
        return min(max(top - i, 0), span) << 1

    tiny = 1 << 52
    bounds = np.array([key(tiny - 1), key(-tiny) + 2], dtype=np.uint64)
    first, stop = np.searchsorted(keys, bounds).tolist()
    return stop - first


def _pack_and_sort(keys: np.ndarray, codes: np.ndarray, bits: int, span: int) -> np.ndarray:
    """Shift the value offsets up, put the class codes in the low bits, sort in place."""
    keys <<= np.uint64(bits)
    keys |= codes
    if (span << bits) | ((1 << bits) - 1) < _FLOAT_INF:
        # Keys below the pattern of +inf are ordered like the positive floats with the same
        # bits, and numpy sorts float64 faster than uint64.
        sort_in_place(keys.view(np.float64))
    else:
        sort_in_place(keys)
    return keys


_CACHE_BLOCK = 1 << 15  # elements per block where passes are fused block by block (temporaries stay in cache)

#: below this many elements one thread sorts (threads cost more than they save)
PARALLEL_SORT_MIN = 1 << 21
#: fewer cores than this sort on one thread: splitting the values into ranges takes several
#: passes (a mask and a gather per range), which on two cores cost more than the second core saves
#: (measured: 3x one np.sort at 10^7 on a 2-core machine)
PARALLEL_SORT_MIN_WORKERS = 4


def _ranges(values: np.ndarray, pivots: np.ndarray) -> Iterator[np.ndarray]:
    """Masks of the values below the first pivot, between consecutive pivots, and above the last."""
    below = None
    for pivot in pivots:
        mask = values < pivot
        yield mask if below is None else mask & ~below
        below = mask
    yield ~below


def sort_in_place(values: np.ndarray) -> None:
    """Sort a 1-D array in place, large ones on several cores: the values are split into
    ranges by pivots taken from a sample (so the ranges need no merging afterwards), each range
    is sorted by its own thread (numpy releases the GIL while sorting), and the result is
    copied back. Same result as ``values.sort()`` for NaN-free input.

    >>> a = np.array([3.0, 1.0, 2.0])
    >>> sort_in_place(a); a.tolist()
    [1.0, 2.0, 3.0]
    """
    workers = min(os.cpu_count() or 1, 8)
    if workers < max(2, PARALLEL_SORT_MIN_WORKERS) or values.size < max(PARALLEL_SORT_MIN, workers):
        values.sort()
        return
    sample = np.sort(values[:: max(1, values.size // (1024 * workers))])
    pivots = np.unique(sample[(np.arange(1, workers) * sample.size) // workers])
    out = np.empty_like(values)
    parts, start = [], 0
    for mask in _ranges(values, pivots):
        stop = start + int(np.count_nonzero(mask))
        np.compress(mask, values, out=out[start:stop])
        parts.append(out[start:stop])
        start = stop
    for _ in thread_pool("sort", workers).map(np.ndarray.sort, parts):
        pass
    values[...] = out


def sorted_binary_keys(x: np.ndarray, is_pos: np.ndarray, owned: bool = False) -> tuple[np.ndarray, Decoder] | None:
    """Sort (score, is positive) pairs of a binary problem, lowest score first, in one uint64 key each.

    The fast path of binary score tables: bit 0 of each key is the class (1: positive), the
    other bits an order-preserving image of the score, so ``key >> 1`` is equal for tied scores.
    Returns (sorted keys, decode), where ``decode(keys)`` gives the scores of (sorted) keys
    back (in the keys' memory: it consumes them; ``decode(keys, fresh=True)``: in a new array),
    or None where this layout does not apply (scores of both signs with a zero or a value that
    scaling would make subnormal; the caller then uses :func:`sorted_parts`).

    Speed trick: the keys are built block by block (one read of the scores; the other passes hit
    the cache), with no split by sign or range. Non-negative scores: ``pattern + pattern | class``
    (any pattern fits, and -0.0 wraps onto 0.0). Scores of both signs, scaled by a power of two
    below 1 in magnitude so that the top exponent bits are free: the magnitude shifted up one bit,
    the sign put back with copysign, the class or-ed in; such keys sort as float64. ``x`` is
    not modified unless ``owned`` (a scratch copy whose memory may become the keys of
    non-negative scores).

    >>> keys, decode = sorted_binary_keys(np.array([0.5, 2.0, 0.5]), np.array([True, False, False]))
    >>> (keys & 1).tolist(), decode(keys.copy()).tolist()
    ([0, 1, 0], [0.5, 0.5, 2.0])
    """
    code = is_pos.view(np.uint8) if is_pos.dtype in (np.bool_, np.uint8) else is_pos.astype(np.uint8)
    owned = owned and x.flags.c_contiguous and x.dtype == np.float64
    lo = float(x.min())
    n = x.size
    one = np.uint64(1)
    if lo >= 0:
        pattern = x.view(np.uint64)
        keys = pattern if owned else np.empty(n, dtype=np.uint64)
        for start in range(0, n, _CACHE_BLOCK):  # both passes per block: the second reads the cache
            part, block = keys[start : start + _CACHE_BLOCK], pattern[start : start + _CACHE_BLOCK]
            np.add(block, block, out=part)
            np.bitwise_or(part, code[start : start + _CACHE_BLOCK], out=part)
        keys.sort()
        return keys, _decode_non_negative
    hi = float(x.max())
    shift = max(int(np.frexp(max(-lo, hi))[1]), 0)  # |x| * 2**-shift < 1: shifted keys stay finite
    if shift > 1022:
        return None
    keys = np.empty(n, dtype=np.float64)  # (x keeps the signs)
    ints = keys.view(np.uint64)
    for start in range(0, n, _CACHE_BLOCK):
        part, block = keys[start : start + _CACHE_BLOCK], x[start : start + _CACHE_BLOCK]
        part_ints = ints[start : start + _CACHE_BLOCK]
        np.multiply(block, 2.0**-shift, out=part)
        np.left_shift(part_ints, one, out=part_ints)  # the sign bit drops out; the top exponent bits are free
        np.copysign(part, block, out=part)
        np.bitwise_or(part_ints, code[start : start + _CACHE_BLOCK], out=part_ints)
    keys.sort()
    # zeros (-0.0 and 0.0 would be two keys) and scaled values below the normal range: not here
    smallest = float(np.array(1 << 53, dtype=np.uint64).view(np.float64))
    if np.searchsorted(keys, smallest) > np.searchsorted(keys, -smallest, side="right"):
        return None
    return ints, partial(_decode_both_signs, shift)


def grouped_binary_keys(
    x: np.ndarray, is_pos: np.ndarray, owned: bool = False
) -> tuple[np.ndarray | None, tuple[np.ndarray, Decoder] | None, np.ndarray | None, np.ndarray | None] | None:
    """A binary score table's arrays from one sort of :func:`sorted_binary_keys`, highest score
    first: (scores or None, (keys, decode) or None, (D, 2) int64 counts or None, codes or None);
    None where those keys do not apply.

    When every score is distinct the table is the keys' class bits (a reversed view: the keys
    sort lowest first) and the keys with their decoder, so that scores are decoded only if read.

    >>> scores, lazy, counts, codes = grouped_binary_keys(np.array([0.2, 0.9, 0.5]), np.array([0, 1, 0], np.uint8))
    >>> scores, counts, codes.tolist(), lazy[1](lazy[0])[::-1].tolist()
    (None, None, [1, 0, 0], [0.9, 0.5, 0.2])
    >>> scores, lazy, counts, codes = grouped_binary_keys(np.array([0.2, 0.9, 0.2]), np.array([0, 1, 1], np.uint8))
    >>> scores.tolist(), counts.tolist()
    ([0.9, 0.2], [[0, 1], [1, 1]])
    """
    built = sorted_binary_keys(x, is_pos, owned)
    if built is None:
        return None
    keys, decode = built
    n = keys.size
    code = np.empty(n, dtype=np.uint8)
    if _split_classes_untied(keys, code):
        return None, (keys, decode), None, code[::-1]
    values = keys >> np.uint64(1)
    ends = np.flatnonzero(values[1:] != values[:-1])
    ends = np.append(ends, n - 1)
    cum_pos = np.cumsum(code, dtype=np.int64)[ends]
    counts = np.empty((ends.size, 2), dtype=np.int64, order="F")
    pos = np.diff(cum_pos, prepend=0)
    counts[:, 1] = pos[::-1]
    counts[:, 0] = (np.diff(ends, prepend=-1) - pos)[::-1]
    return decode(keys[ends])[::-1], None, counts, None


def _split_classes_untied(keys: np.ndarray, code: np.ndarray) -> bool:
    """Write the class bits of sorted binary keys into ``code``; True when no two scores tie.

    Tied scores have keys that differ in the class bit at most (xor below 2). Speed trick: both
    passes run block by block, so the xor's temporary stays in cache.
    """
    one = np.uint64(1)
    n = keys.size
    gaps = np.empty(min(_CACHE_BLOCK, n), dtype=np.uint64)
    untied = True
    for start in range(0, n, _CACHE_BLOCK):
        stop = min(start + _CACHE_BLOCK, n)
        np.bitwise_and(keys[start:stop], one, out=code[start:stop], casting="unsafe")
        if untied:
            last = min(stop + 1, n)
            block = gaps[: last - start - 1]
            np.bitwise_xor(keys[start + 1 : last], keys[start : last - 1], out=block)
            untied = not block.size or block.min() >= 2
    return untied


def _decode_non_negative(keys: np.ndarray, fresh: bool = False) -> np.ndarray:
    """Scores of sorted_binary_keys' keys of non-negative scores (in place, or ``fresh``: new)."""
    return np.right_shift(keys, np.uint64(1), out=None if fresh else keys).view(np.float64)


def _decode_both_signs(shift: int, keys: np.ndarray, fresh: bool = False) -> np.ndarray:
    """Scores of sorted_binary_keys' keys of scores of both signs (in place, or ``fresh``: new)."""
    # arithmetic shift: the sign stays, and is copied into bit 62, which the magnitude never uses
    ints = np.right_shift(keys.view(np.int64), 1, out=None if fresh else keys.view(np.int64))
    ints &= _NOT_BIT_62
    keys = ints.view(np.uint64)
    values = keys.view(np.float64)
    if shift:
        values *= 2.0**shift
    return values


def _decode_sign(base: np.uint64, negative: bool, value_keys: np.ndarray) -> np.ndarray:
    """Scores from the value part of packed keys (inverse of _sorted_sign_part's offset)."""
    if negative:
        value_keys += base
    else:
        np.subtract(base, value_keys, out=value_keys)
    return value_keys.view(np.float64)


def _decode_mixed(top: int, shift: int, value_keys: np.ndarray) -> np.ndarray:
    """Scores from the value part of packed keys (inverse of _sorted_mixed_signs)."""
    # Keys are sorted, so the non-negative scores (order integer i = top - key >= 0, pattern i)
    # come first and the negative ones (pattern: sign bit + magnitude -1 - i) after them.
    first_negative = int(np.searchsorted(value_keys, np.uint64(top), side="right"))
    np.subtract(np.uint64(top), value_keys[:first_negative], out=value_keys[:first_negative])
    value_keys[first_negative:] += np.uint64((int(_SIGN) - top - 1) % (1 << 64))
    values = value_keys.view(np.float64)
    values *= 2.0**shift
    return values
