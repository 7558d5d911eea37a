"""Shortest-line search with and without the bound's draw term, on the same deals.

    python -m experiments.bench_shortest --rules relaxed two-card three-pass --deals 0-19

For each preset, every deal is solved with ``shortest=True`` twice, alternating: with the
solver as it is, and with the draw term of its A* bound switched off (``DealTables.draws`` returning
0, so only the removals bound is left). Positions expanded are the machine-independent figure;
seconds are reported too. Deals that run out of ``--time-limit`` in either mode are counted
apart and left out of the totals, so both columns cover the same deals. It runs the pure-Python
A* (``compiled=False``): the switch patches the Python bound, which the compiled kernel does not
call.
"""

from __future__ import annotations

import argparse
import json

from pyramid_env import solver
from pyramid_env.seeds import seed_set
from pyramid_env.solver import Verdict, solve


def run(rules: str, deals: list[int], time_limit: float) -> dict[str, float]:
    with_term = solver.DealTables.draws
    totals = {"with_nodes": 0, "without_nodes": 0, "with_s": 0.0, "without_s": 0.0}
    skipped = 0
    for n in deals:
        solver.DealTables.draws = with_term
        a = solve(n, rules, shortest=True, time_limit=time_limit, compiled=False)
        solver.DealTables.draws = lambda self, pyr, left, ptr: 0
        try:
            b = solve(n, rules, shortest=True, time_limit=time_limit, compiled=False)
        finally:
            solver.DealTables.draws = with_term
        if Verdict.UNKNOWN in (a.status, b.status):
            skipped += 1
            continue
        assert a.steps == b.steps, (rules, n)  # both exact
        totals["with_nodes"] += a.nodes
        totals["without_nodes"] += b.nodes
        totals["with_s"] += a.seconds
        totals["without_s"] += b.seconds
    totals["ratio_nodes"] = totals["without_nodes"] / max(1, totals["with_nodes"])
    return {"rules": rules, "deals": len(deals) - skipped, "skipped": skipped, **totals}


def main(argv: list[str] | None = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["relaxed", "two-card", "three-pass"])
    p.add_argument("--deals", default="0-19")
    p.add_argument("--time-limit", type=float, default=20.0)
    args = p.parse_args(argv)
    out = []
    for rules in args.rules:
        out.append(run(rules, list(seed_set(args.deals)), args.time_limit))
        print(
            json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in out[-1].items()}),
            flush=True,
        )
    return out


if __name__ == "__main__":
    main()
