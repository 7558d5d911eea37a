"""Worker processes that share the machine fairly: one thread pool per core, not per library.

numpy's BLAS (OpenBLAS, MKL), OpenMP and torch each start a thread per core in every process.
With one worker process per core that is cores² threads fighting for cores, and small matrix
products (the shipped networks' forward passes) then run many times slower than on one thread.
Every process pool of the project is made here, with each worker limited to its share of the
cores: ``cpu_count // workers`` threads (at least one).
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ProcessPoolExecutor

_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def limit_threads(threads: int) -> None:
    """Cap this process's BLAS, OpenMP and torch threads at ``threads``.

    Libraries already loaded are capped through threadpoolctl (and torch's own setting); the
    environment variables cover those loaded later in the process (a worker started by
    ``spawn`` imports torch only when it unpickles an agent).
    """
    from threadpoolctl import threadpool_limits

    for var in _THREAD_VARS:
        os.environ[var] = str(threads)
    threadpool_limits(limits=threads)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(threads)


def threads_per_worker(workers: int) -> int:
    """Each worker's share of the cores: ``cpu_count // workers``, at least 1."""
    return max(1, (os.cpu_count() or 1) // max(1, workers))


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes, each limited to its share of the cores."""
    return ProcessPoolExecutor(
        workers, initializer=limit_threads, initargs=(threads_per_worker(workers),)
    )


__all__ = ["limit_threads", "process_pool", "threads_per_worker"]
