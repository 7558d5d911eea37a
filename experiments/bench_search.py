"""Honest search speed: ``pimc`` (determinized search, the solver on every sample) per deal.

    python -m experiments.bench_search --rules msc two-pass --seeds "val[:40]" --samples 16

Prints CPU per deal and a fingerprint of the games, to compare two versions of the code
(the method: docs/experiments.md).
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

import numpy as np

from pyramid_env.agents import PimcAgent, honest
from pyramid_env.engine.state import State
from pyramid_env.evaluation import evaluate
from pyramid_env.solver import _search, kernel
from pyramid_env.solver.tables import Budget, Limit

ROOT = Path(__file__).parents[1]


class _Timed:
    """``winning_line`` with the CPU time, kind, outcome and positions of each call kept.

    The kind: ``sample``, a sampled order's own verdict (is it winnable at all: the call
    from ``_winnable_samples``), or ``move``, the position after a candidate move in it. The
    outcome: ``win``, ``loss``, or ``budget`` (ran out; the search counts it as a loss).
    """

    def __init__(self) -> None:
        self.calls: list[tuple[float, str, str, int]] = []  # (seconds, kind, outcome, positions)

    def __call__(self, s: State, *, budget: int | None = None) -> list[int] | None:
        kind = "sample" if sys._getframe(1).f_code.co_name == "_winnable_samples" else "move"
        limit = Limit(budget, None)
        start = time.process_time()
        try:  # the call winning_line makes, with the positions it cost kept
            line = _search(s, limit, False, kernel.AVAILABLE)
            outcome = "loss" if line is None else "win"
        except Budget:
            line, outcome = None, "budget"
        self.calls.append((time.process_time() - start, kind, outcome, limit.nodes))
        return line

    def shares(self, total: float) -> dict:
        """The verdicts' calls and shares of the CPU, whole and split.

        Calls, their share of ``total``, the share of the largest 1% and 5% of them, and per
        kind and outcome the calls, their share of the verdicts' CPU and the positions they
        cost (median and 99th percentile).
        """
        times = sorted((c[0] for c in self.calls), reverse=True)
        spent = sum(times) or 1.0
        top = {f"top_{p}pct": round(sum(times[: max(1, len(times) * p // 100)]) / spent, 3)
               for p in (1, 5)}  # fmt: skip
        split = {}
        for kind in ("sample", "move"):
            for outcome in ("win", "loss", "budget"):
                group = [c for c in self.calls if c[1] == kind and c[2] == outcome]
                if group:
                    nodes = np.array([c[3] for c in group])
                    split[f"{kind}_{outcome}"] = {
                        "calls": len(group),
                        "share": round(sum(c[0] for c in group) / spent, 3),
                        "positions_p50_p99": np.percentile(nodes, [50, 99]).astype(int).tolist(),
                    }
        return {"solver_calls": len(times), "solver_share": round(spent / total, 3), **top,
                "by_kind": split}  # fmt: skip


def main(argv: list[str] | None = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["msc", "two-pass"])
    p.add_argument("--seeds", default="val[:40]")
    p.add_argument("--samples", type=int, default=16, help="pimc's orders per decision")
    p.add_argument("--profile", action="store_true", help="how the solver's verdicts share the CPU")
    p.add_argument("--delay", action="store_true", help="pimc tries the draw before pyramid pairs")
    args = p.parse_args(argv)
    for rules in args.rules:  # untimed: the compiled solver's first calls compile it
        evaluate(PimcAgent(samples=2), rules, "val[:1]")
    rows = []
    for rules in args.rules:
        timed = _Timed()
        patch = mock.patch.object(honest, "winning_line", timed)
        with patch if args.profile else contextlib.nullcontext():
            t0 = time.process_time()
            report = evaluate(PimcAgent(samples=args.samples, delay=args.delay), rules, args.seeds)
            cpu = time.process_time() - t0
        games = [(e.deal, e.won, e.moves, e.pyramid_left) for e in report.episodes]
        rows.append(
            {
                "rules": rules,
                "seeds": args.seeds,
                "samples": args.samples,
                "delay": args.delay,
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
