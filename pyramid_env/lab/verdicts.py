"""Solver verdicts of a chunk of deals: the function a winnability sweep maps over chunks.

Shared by ``experiments.winnability`` (the labels' sweep) and ``experiments.bench_sweep`` (the
sweep backends' throughput). In the package, so a worker process (local or Ray) imports it
without the repo's ``experiments`` folder on its path.
"""

from __future__ import annotations

import time

from pyramid_env.engine.rules import Rules
from pyramid_env.solver import solve


def solve_chunk(
    rules: Rules, time_limit: float | None, python: bool, check: bool, deals: list[int]
) -> list[list]:
    """``[status, steps, nodes, seconds, cpu]`` per deal: one sweep chunk."""
    compiled = False if python else None
    out = []
    for n in deals:
        cpu = time.process_time()
        sol = solve(n, rules, time_limit=time_limit, check=check, compiled=compiled)
        out.append([sol.status.value, sol.steps, sol.nodes, sol.seconds,
                    time.process_time() - cpu])  # fmt: skip
    return out
