"""Honest search speed: ``pimc`` (determinized search, the solver on every sample) per deal.

    python experiments/bench_search.py --rules msc two-pass --seeds "val[:40]" --samples 16

Plays ``pimc`` in one process on each rule set's deals and prints, per rule set, the CPU time
per deal and a fingerprint of the games (deal, outcome, moves and cards left of each, hashed),
as JSON. The fingerprint says whether two versions of the code play the same games; the time,
what they cost. This machine is noisy: time two checkouts against each other run by run (the
same command in each) and quote the ratio of the pairs, not two absolute times.

``--profile`` also times each of the solver's verdicts the search asks for (the calls of
``winning_line`` in :mod:`pyramid_env.agents.honest`) and says how they share the CPU: their
part of the whole, and the part of the largest 1% and 5% of them. Where a few hard verdicts
take most of it, spending fewer samples on some decisions saves less than their count says.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).parents[1]
if str(ROOT) not in sys.path:  # run as a script, the repo root is not on the path
    sys.path.insert(0, str(ROOT))

from pyramid_env.agents import PimcAgent, honest  # noqa: E402
from pyramid_env.engine.state import State  # noqa: E402
from pyramid_env.evaluation import evaluate  # noqa: E402


class _Timed:
    """``winning_line`` with the CPU time of each call kept."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self._solve = honest.winning_line

    def __call__(self, s: State, *, budget: int | None = None) -> list[int] | None:
        start = time.process_time()
        try:
            return self._solve(s, budget=budget)
        finally:
            self.times.append(time.process_time() - start)

    def shares(self, total: float) -> dict:
        """Calls, their share of ``total``, and the share of the largest 1% and 5% of them."""
        times = sorted(self.times, reverse=True)
        spent = sum(times) or 1.0
        top = {f"top_{p}pct": round(sum(times[: max(1, len(times) * p // 100)]) / spent, 3)
               for p in (1, 5)}  # fmt: skip
        return {"solver_calls": len(times), "solver_share": round(spent / total, 3), **top}


def main(argv: list[str] | None = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["msc", "two-pass"])
    p.add_argument("--seeds", default="val[:40]")
    p.add_argument("--samples", type=int, default=16, help="pimc's orders per decision")
    p.add_argument("--profile", action="store_true", help="how the solver's verdicts share the CPU")
    args = p.parse_args(argv)
    for rules in args.rules:  # untimed: the compiled solver's first calls compile it
        evaluate(PimcAgent(samples=2), rules, "val[:1]")
    rows = []
    for rules in args.rules:
        timed = _Timed()
        patch = mock.patch.object(honest, "winning_line", timed)
        with patch if args.profile else contextlib.nullcontext():
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
                **(timed.shares(cpu) if args.profile else {}),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


if __name__ == "__main__":
    main()
