"""The package's thread pools, made on first use and safe across ``fork``.

numpy releases the GIL in sorts, bincounts and reductions, so a few threads put a second core to
work. A pool belongs to the process that made it: after ``os.fork`` (``multiprocessing``'s default
start method on Linux) the child inherits the pool object but none of its threads, and work handed
to it would wait forever. So the child forgets every pool and makes its own on first use.

>>> pool = thread_pool("doc", 2)
>>> pool is thread_pool("doc", 2), list(pool.map(abs, [-1, 2]))
(True, [1, 2])
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

__all__ = ["thread_pool"]

_POOLS: dict[str, ThreadPoolExecutor] = {}


def thread_pool(name: str, workers: int) -> ThreadPoolExecutor:
    """The process's pool called ``name`` (threads named ``clfeval-<name>``), of ``workers``
    threads when it is made."""
    pool = _POOLS.get(name)
    if pool is None:
        pool = _POOLS[name] = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"clfeval-{name}")
    return pool


def _forget_pools() -> None:
    """In a forked child: the inherited pools have no threads; drop them (never shut them down:
    that would wait for threads that do not exist here)."""
    _POOLS.clear()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_forget_pools)
