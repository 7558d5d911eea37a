"""The compiled solver on msc-1500 timed by CPU: to compare two versions of the code.

    python -m experiments.bench_solver_cpu --decks 1500              # verdicts
    python -m experiments.bench_solver_cpu --shortest --decks 25     # shortest lines

``bench_solver`` times each solve by the wall, which on a shared machine moves with the
neighbours' load; this times the same calls by the process's CPU time (one warm-up solve first,
so compiling is left out). Run it on each version back to back and read the ratio.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from pyramid_env.engine.deal import Deal, parse_cards
from pyramid_env.solver import Verdict, solve

ORACLE = Path(__file__).parents[1] / "tests" / "fixtures" / "msc-1500"  # as bench_solver's


def load() -> tuple[list[Deal], list[int]]:
    """The 1,500 msc decks and their shortest solutions' lengths (0: no solution)."""
    lines = (ORACLE / "decks.txt").read_text().splitlines()
    lengths = [int(x) for x in (ORACLE / "lengths.txt").read_text().split()]
    return [Deal(parse_cards(line)) for line in lines], lengths


def main(argv: list[str] | None = None) -> float:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shortest", action="store_true")
    p.add_argument("--decks", type=int, default=1500)
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per deck")
    args = p.parse_args(argv)
    decks, lengths = load()
    solve(decks[0], "msc", shortest=args.shortest)  # compile (or load) the kernel first
    start = time.process_time()
    agree = 0
    for deck, length in zip(decks[: args.decks], lengths, strict=False):
        sol = solve(deck, "msc", shortest=args.shortest, time_limit=args.time_limit)
        want = Verdict.WIN if length else Verdict.LOSS
        agree += sol.status == want and (not args.shortest or sol.steps in (None, length))
    spent = time.process_time() - start
    mode = "shortest" if args.shortest else "verdict"
    print(f"{mode}: {args.decks} decks, {agree} agree with the oracle, {spent:.2f} s CPU")
    return spent


if __name__ == "__main__":
    main()
