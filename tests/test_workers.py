"""Sweeps: every chunk on one BLAS and torch thread, in a worker or not; a safe start after Ray."""

import json
import multiprocessing
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from pyramid_env.sweep import sweep
from pyramid_env.workers import one_thread, pool_context

ROOT = Path(__file__).parents[1]

# Run in a fresh interpreter, as a user's script would: this test process may hold the threads
# of earlier tests' libraries (Ray's, started by tests/test_sweep.py), and a fork copies their
# locks but not the threads that would release them, so a child forked from here can hang.
PROBE = textwrap.dedent(
    """
    import json, os
    import numpy as np
    from threadpoolctl import threadpool_info
    from pyramid_env.workers import process_pool

    def threads_seen():
        np.ones((64, 64)) @ np.ones((64, 64))  # the BLAS is loaded and has run
        pools = {p["internal_api"]: p["num_threads"] for p in threadpool_info()}
        return pools, os.environ.get("OMP_NUM_THREADS")

    if __name__ == "__main__":
        with process_pool(1) as pool:  # one worker: the old share would be every core
            print(json.dumps(pool.submit(threads_seen).result()))
    """
)


def test_each_worker_runs_on_one_thread():
    want = 1
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    pools, omp = json.loads(done.stdout.splitlines()[-1])
    assert omp == str(want)
    assert pools, "numpy's BLAS should be visible to threadpoolctl"
    assert all(n == want for n in pools.values()), pools


def _blas_threads(deals: list[int]) -> list[int]:
    np.ones((64, 64)) @ np.ones((64, 64))
    return [max(p["num_threads"] for p in threadpool_info())] * len(deals)


def test_chunks_in_the_calling_process_run_on_one_thread_and_it_is_restored(monkeypatch):
    """As in a worker: a BLAS splits a product by its threads, and a network's near ties with it."""
    with threadpool_limits(limits=2):
        before = max(p["num_threads"] for p in threadpool_info())
        assert sweep(_blas_threads, [1, 2, 3], workers=1) == [1, 1, 1]
        assert max(p["num_threads"] for p in threadpool_info()) == before
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    with one_thread():
        assert max(p["num_threads"] for p in threadpool_info()) == 1
        assert os.environ["OMP_NUM_THREADS"] == "1"  # for a library first loaded in the block
    assert "OMP_NUM_THREADS" not in os.environ


def test_pools_start_from_a_forkserver_once_ray_is_loaded(monkeypatch):
    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: None)
    monkeypatch.delitem(sys.modules, "ray", raising=False)
    assert pool_context() is None  # Python's default: fork on Linux
    monkeypatch.setitem(sys.modules, "ray", types.ModuleType("ray"))
    assert pool_context().get_start_method() == "forkserver"
    # Fork, as the default becomes once used, is not kept; another method the user set is.
    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: "fork")
    assert pool_context().get_start_method() == "forkserver"
    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: "spawn")
    assert pool_context() is None


# Ray started and stopped in the process, as after an RLlib run, then a pool of workers: it
# must start from a forkserver and give the same results as one process.
AFTER_RAY = textwrap.dedent(
    """
    import json
    import ray
    from pyramid_env.agents import GreedyAgent
    from pyramid_env.evaluation import evaluate
    from pyramid_env.workers import pool_context

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    ray.shutdown()
    reports = [evaluate(GreedyAgent(), "msc", "val[:6]", workers=n) for n in (2, 1)]
    games = [[(e.deal, e.won, e.moves) for e in r.episodes] for r in reports]
    print(json.dumps([pool_context().get_start_method(), games[0] == games[1]]))
    """
)


def test_a_pool_after_ray_starts_from_a_forkserver_and_plays_the_same():
    pytest.importorskip("ray")
    done = subprocess.run(
        [sys.executable, "-c", AFTER_RAY], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.splitlines()[-1]) == ["forkserver", True]
