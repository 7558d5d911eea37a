"""Throughput of the sweep backends: deals solved per second by backend and worker count.

    python -m experiments.bench_sweep --rules msc --deals 20000 --rounds 2

Solves the same deals with winnability's chunk function (compiled verdicts, winning lines not
replayed) on each setting of ``--settings`` (default: local with 1 and 2 workers, Ray with 1
and 2), in alternating rounds, since these machines' speed drifts by up to 30% within minutes.
A setting's rate is its best round; ratios are to one worker of the same backend. Each round
first starts its workers and plays one small chunk on each (imports, the compiled search's
cache), timed apart as "start": the rate is of the sweep alone. The rows are checked equal
across settings.
"""

from __future__ import annotations

import argparse
import functools
import time
from pathlib import Path

from pyramid_env.benchmark import machine
from pyramid_env.engine import get_rules
from pyramid_env.lab.verdicts import solve_chunk
from pyramid_env.sweep import Backend, sweep

ROOT = Path(__file__).parents[1]


def one_round(fn, deals: list[int], backend: str, workers: int, chunk: int) -> tuple:
    """``(start seconds, sweep seconds, rows)`` of one setting."""
    start = time.perf_counter()
    if backend == "ray":
        import ray

        ray.init(num_cpus=workers, include_dashboard=False, logging_level="WARNING")
    where = Backend(backend, workers)
    sweep(fn, range(10_000_000, 10_000_000 + workers), backend=where, chunk_size=1)  # warm up
    ready = time.perf_counter()
    rows = sweep(fn, deals, backend=where, chunk_size=chunk)
    done = time.perf_counter()
    if backend == "ray":
        ray.shutdown()
    return ready - start, done - ready, [r[:3] for r in rows]


def main(argv: list[str] | None = None) -> dict[str, float]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="msc")
    p.add_argument("--deals", type=int, default=20_000)
    p.add_argument("--chunk", type=int, default=500)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--settings", nargs="+", default=["local:1", "local:2", "ray:1", "ray:2"])
    args = p.parse_args(argv)
    rules = get_rules(args.rules)
    fn = functools.partial(solve_chunk, rules, None, False, False)
    deals = list(range(args.deals))
    settings = [(s.split(":")[0], int(s.split(":")[1])) for s in args.settings]
    best: dict[tuple[str, int], tuple[float, float]] = {}
    reference = None
    for r in range(args.rounds):
        for backend, workers in settings:
            start, seconds, rows = one_round(fn, deals, backend, workers, args.chunk)
            if reference is None:
                reference = rows
            assert rows == reference, f"{backend}:{workers} gave other rows"
            rate = args.deals / seconds
            print(f"round {r + 1}: {backend} x{workers}: {rate:,.0f} deals/s "
                  f"({seconds:.1f} s; start {start:.1f} s)", flush=True)  # fmt: skip
            old = best.get((backend, workers))
            if old is None or rate > old[0]:
                best[(backend, workers)] = (rate, start)
    print(f"\n{args.rules}, {args.deals:,} deals, chunks of {args.chunk}, best of {args.rounds} "
          f"alternating rounds; {machine()}")  # fmt: skip
    print("| backend | workers | deals/s | vs 1 worker | start |\n|---|---|---|---|---|")
    out = {}
    for (backend, workers), (rate, start) in best.items():
        one = best.get((backend, 1), (float("nan"),))[0]
        out[f"{backend}:{workers}"] = rate
        print(f"| {backend} | {workers} | {rate:,.0f} | ×{rate / one:.2f} | {start:.1f} s |")
    return out


if __name__ == "__main__":
    main()
