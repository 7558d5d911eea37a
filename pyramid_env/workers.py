"""Sweeps that share the machine fairly and give the same games whatever the worker count.

numpy's BLAS, OpenMP and torch each start a thread per core in every process: with a worker per
core, cores² threads, and small matrix products many times slower. And a BLAS splits a product
differently on one thread and on two, so a network's near ties (and one agent's games) depended
on the worker count (``docs/evaluation.md`` has the case). So every chunk of a sweep
runs on one thread, in a worker of a pool made here (:func:`process_pool`, started safely after
Ray: :func:`pool_context`) or in the calling process (:func:`one_thread`).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing.context import BaseContext

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


@contextmanager
def one_thread() -> Iterator[None]:
    """BLAS, OpenMP and torch on one thread inside the block, as in a worker; restored after.

    A sweep's chunks played in the calling process run inside it, so that their results are a
    worker's, bit for bit. The environment variables are set too, for a library first loaded
    inside the block (it keeps its one thread after).
    """
    from threadpoolctl import threadpool_limits

    torch = sys.modules.get("torch")
    before = torch.get_num_threads() if torch is not None else None
    env = {var: os.environ.get(var) for var in _THREAD_VARS}
    os.environ.update(dict.fromkeys(_THREAD_VARS, "1"))
    try:
        with threadpool_limits(limits=1):
            if torch is not None:
                torch.set_num_threads(1)
            yield
    finally:
        for var, value in env.items():
            if value is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = value
        if torch is not None and before is not None:
            torch.set_num_threads(before)


def pool_context() -> BaseContext | None:
    """How the pool starts its workers: Python's default, or ``forkserver`` once Ray is loaded.

    Ray leaves threads of its own running, and a ``fork`` copies the locks they hold without the
    threads that would release them, so a forked worker can hang for good; a ``forkserver``
    starts clean (as on macOS and Windows, the starting script then needs an
    ``if __name__ == "__main__":`` guard; docs/scaling.md). A start method other than ``fork``
    set with ``multiprocessing.set_start_method`` is kept.

    Returns:
        The ``forkserver`` context, or ``None`` for Python's default.
    """
    if "ray" not in sys.modules or multiprocessing.get_start_method(allow_none=True) not in (
        None,
        "fork",  # also what the default becomes once anything has used it
    ):
        return None
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return None  # macOS and Windows: spawn, the default there, is already safe
    return multiprocessing.get_context("forkserver")


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes, each on one thread (the module's docstring says why).

    Started as :func:`pool_context` says.
    """
    return ProcessPoolExecutor(
        workers,
        mp_context=pool_context(),
        initializer=limit_threads,
        initargs=(1,),
    )


__all__ = ["limit_threads", "one_thread", "pool_context", "process_pool"]
