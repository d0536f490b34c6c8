"""The package's thread pools survive ``fork``: a child process that inherits a pool with no
threads must not hang (found by mutmut, whose forked children waited on the calibration entry of
``Evaluation.to_dict`` until its timeout)."""

from __future__ import annotations

import multiprocessing
import sys

import numpy as np
import pytest

import clfeval
from clfeval.statistics.packed_sort import PARALLEL_SORT_MIN, sort_in_place
from clfeval.support.thread_pools import thread_pool

pytestmark = pytest.mark.skipif(sys.platform == "win32" or "fork" not in multiprocessing.get_all_start_methods(),
                                reason="fork is POSIX only")


def _evaluate_to_dict(queue) -> None:
    y = np.array([0, 1, 1, 0, 1, 0, 1, 1])
    p = np.array([0.1, 0.8, 0.7, 0.3, 0.6, 0.4, 0.9, 0.2])
    ev = clfeval.evaluate(y, y_score=p)
    values = np.random.default_rng(0).random(PARALLEL_SORT_MIN + 5)
    sort_in_place(values)
    queue.put((ev.to_dict()["calibration"]["n_bins"], bool(np.all(values[1:] >= values[:-1]))))


def test_a_forked_child_uses_pools_of_its_own():
    # the parent's pools exist and have threads: the calibration entry of to_dict ran on one
    y = np.array([0, 1, 1, 0])
    ev = clfeval.evaluate(y, y_score=[0.2, 0.7, 0.6, 0.4])
    parent_calibration = ev.to_dict()["calibration"]
    list(thread_pool("sort", 2).map(abs, [1, -2]))
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_evaluate_to_dict, args=(queue,))
    child.start()
    child.join(60)
    if child.is_alive():  # the old behaviour: waiting for a thread that does not exist
        child.kill()
        child.join()
        pytest.fail("the forked child hung on a thread pool it inherited")
    assert child.exitcode == 0
    n_bins, sorted_ok = queue.get(timeout=5)
    assert n_bins == parent_calibration["n_bins"] and sorted_ok
