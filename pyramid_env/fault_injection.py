"""A sweep chunk that kills its own worker process, for the sweep's fault-injection tests.

In the package, not the tests, so that worker processes (Ray's included) can import it.
"""

from __future__ import annotations

import os


def squares_crashing_once(
    marker: str, crash_at: int, deals: list[int], times: int = 1
) -> list[list[int]]:
    """A sweep chunk for fault-injection tests: ``[n, n * n]`` per deal.

    The first ``times`` processes to reach deal ``crash_at`` die there at once, as a killed
    worker would (no exception, no cleanup), each adding a line to the file ``marker`` first;
    the chunk played again after that finishes.
    """
    for n in deals:
        if n == crash_at:
            deaths = open(marker).read().count("\n") if os.path.exists(marker) else 0
            if deaths < times:
                with open(marker, "a") as f:
                    f.write(f"{os.getpid()}\n")
                os._exit(17)
    return [[n, n * n] for n in deals]
