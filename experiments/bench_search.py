"""Honest search speed: ``pimc`` (determinized search, the solver on every sample) per deal.

    python experiments/bench_search.py --rules msc two-pass --seeds "val[:40]" --samples 16

Plays ``pimc`` in one process on each rule set's deals and prints, per rule set, the CPU time
per deal and a fingerprint of the games (deal, outcome, moves and cards left of each, hashed),
as JSON. The fingerprint says whether two versions of the code play the same games; the time,
what they cost. This machine is noisy: time two checkouts against each other run by run (the
same command in each) and quote the ratio of the pairs, not two absolute times.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
if str(ROOT) not in sys.path:  # run as a script, the repo root is not on the path
    sys.path.insert(0, str(ROOT))

from pyramid_env.agents import PimcAgent  # noqa: E402
from pyramid_env.evaluation import evaluate  # noqa: E402


def main(argv: list[str] | None = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["msc", "two-pass"])
    p.add_argument("--seeds", default="val[:40]")
    p.add_argument("--samples", type=int, default=16, help="pimc's orders per decision")
    args = p.parse_args(argv)
    for rules in args.rules:  # untimed: the compiled solver's first calls compile it
        evaluate(PimcAgent(samples=2), rules, "val[:1]")
    rows = []
    for rules in args.rules:
        t0 = time.process_time()
        report = evaluate(PimcAgent(samples=args.samples), rules, args.seeds)
        cpu = time.process_time() - t0
        games = [(e.deal, e.won, e.moves, e.pyramid_left) for e in report.episodes]
        rows.append(
            {
                "rules": rules,
                "seeds": args.seeds,
                "samples": args.samples,
                "wins": sum(e.won for e in report.episodes),
                "cpu_per_deal_ms": round(1000 * cpu / len(games), 1),
                "games": hashlib.sha256(repr(games).encode()).hexdigest()[:16],
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


if __name__ == "__main__":
    main()
