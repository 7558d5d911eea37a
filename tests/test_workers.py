"""Worker processes cap their BLAS and torch threads at their share of the cores."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from pyramid_env.workers import threads_per_worker

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
        with process_pool(2) as pool:
            print(json.dumps(pool.submit(threads_seen).result()))
    """
)


def test_each_worker_gets_its_share_of_the_cores():
    assert threads_per_worker(1) == (os.cpu_count() or 1)
    assert threads_per_worker(10**6) == 1
    want = threads_per_worker(2)
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    pools, omp = json.loads(done.stdout.splitlines()[-1])
    assert omp == str(want)
    assert pools, "numpy's BLAS should be visible to threadpoolctl"
    assert all(n == want for n in pools.values()), pools
