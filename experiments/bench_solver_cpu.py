"""The compiled solver on msc-1500 timed by CPU: to compare two versions of the code.

    python -m experiments.bench_solver_cpu --decks 1500              # verdicts
    python -m experiments.bench_solver_cpu --shortest --decks 25     # shortest lines
    python -m experiments.bench_solver_cpu --against dc0d750 --rounds 3   # this tree / a ref

``bench_solver`` times each solve by the wall, which on a shared machine moves with the
neighbours' load; this times the same calls by the process's CPU time (one warm-up solve first,
so compiling is left out). ``--against REF`` runs this tree and a git ref's (exported to a
temporary directory, this script copied in) in turn, each in its own process, and prints the
ratios: read those, not the seconds.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
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


def cpu_seconds(tree: Path, args: list[str]) -> float:
    """One run of this benchmark on the package in ``tree``, in a process of its own."""
    out = subprocess.run([sys.executable, "-m", "experiments.bench_solver_cpu", *args], cwd=tree,
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    print(f"  {tree.name}: {out.strip()}")
    return float(re.findall(r"([\d.]+) s CPU", out)[-1])


def against(ref: str, rounds: int, args: list[str]) -> None:
    """This tree and git ref ``ref`` in turn, ``rounds`` times; the ratio of each round."""
    here = Path(__file__).parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / ref
        old.mkdir()
        archive = subprocess.run(["git", "archive", ref], cwd=here, capture_output=True,
                                 check=True).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        shutil.copy(__file__, old / "experiments" / "bench_solver_cpu.py")
        for r in range(rounds):
            base, now = cpu_seconds(old, args), cpu_seconds(here, args)
            print(f"round {r + 1}: this tree / {ref} = x{now / base:.2f}")


def main(argv: list[str] | None = None) -> float:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shortest", action="store_true")
    p.add_argument("--decks", type=int, default=1500)
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per deck")
    p.add_argument("--against", metavar="REF", help="a git ref to compare with, run in turn")
    p.add_argument("--rounds", type=int, default=2, help="with --against: runs of each")
    args = p.parse_args(argv)
    if args.against:
        rest = [f"--decks={args.decks}", f"--time-limit={args.time_limit}"]
        against(args.against, args.rounds, rest + ["--shortest"] * args.shortest)
        return 0.0
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
