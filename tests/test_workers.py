"""Worker processes cap their BLAS and torch threads at their share of the cores."""

import os

import numpy as np
from threadpoolctl import threadpool_info

from pyramid_env.workers import process_pool, threads_per_worker


def _threads_seen():
    np.ones((64, 64)) @ np.ones((64, 64))  # the BLAS is loaded and has run
    pools = {p["internal_api"]: p["num_threads"] for p in threadpool_info()}
    return pools, os.environ.get("OMP_NUM_THREADS")


def test_each_worker_gets_its_share_of_the_cores():
    assert threads_per_worker(1) == (os.cpu_count() or 1)
    assert threads_per_worker(10**6) == 1
    want = threads_per_worker(2)
    with process_pool(2) as pool:
        pools, omp = pool.submit(_threads_seen).result()
    assert omp == str(want)
    assert pools, "numpy's BLAS should be visible to threadpoolctl"
    assert all(n == want for n in pools.values()), pools
