"""What a perfect cue would buy: ``pimc``'s search only where it would change the move.

    python -m experiments.perfect_cue --rules msc --seeds "test[:1000]" --cue 128 \
        --samples 32 16 8 0 --pimc 32

Bounds what a better cue for the guided search could save (the method:
docs/experiments.md).
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_env.agents import PimcAgent, Turn
from pyramid_env.agents.expit import order_agent
from pyramid_env.agents.honest import _king, _Line, all_seen, search
from pyramid_env.benchmark import machine
from pyramid_env.engine.rules import Rules, get_rules
from pyramid_env.env import PyramidEnv
from pyramid_env.evaluation import play_deal, solver_labels, wilson
from pyramid_env.seeds import seed_set
from pyramid_env.sweep import sweep

ROOT = Path(__file__).parents[1]


class PerfectCueAgent:
    """The heuristic's move, or ``pimc``'s where a much larger search says it is not the best.

    Args:
        cue: orders of the unseen cards the cue's search deals (its CPU is kept apart in
            ``cue_cpu``).
        samples: the orders of the search that picks the move at a flagged decision.
        budget: positions per solver verdict.
        order: the heuristic (:func:`~pyramid_env.agents.expit.order_agent`).
    """

    name = "perfect-cue"

    def __init__(
        self, cue: int = 128, samples: int = 32, budget: int = 30_000, order: str = "greedy-careful"
    ) -> None:
        """See the class docstring."""
        self.cue, self.samples, self.budget = cue, samples, budget
        self.heuristic = order_agent(order)
        self.line = _Line(None)
        self.cue_cpu = self.search_cpu = 0.0
        self.decisions = self.flagged = 0

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The heuristic's move unless the cue flags the decision; then the search's (or cue's)."""
        s = turn.state
        if all_seen(s, turn.known):
            return self.line.play(turn, rng, self.heuristic)
        prefs = self.heuristic.preferences(turn)
        if len(prefs) == 1 or _king(prefs[0]):
            return prefs[0]
        self.decisions += 1
        start = time.process_time()
        cue_rng = np.random.default_rng(rng.integers(2**63))
        cue = search(s, turn.known, prefs, self.cue, self.budget, cue_rng).action
        self.cue_cpu += time.process_time() - start
        if cue == prefs[0]:
            return prefs[0]
        self.flagged += 1
        if not self.samples:
            return cue
        start = time.process_time()
        action = search(s, turn.known, prefs, self.samples, self.budget, rng).action
        self.search_cpu += time.process_time() - start
        return action


def _chunk(rules: Rules, agent_name: str, cue: int, samples: int, deals: list[int]) -> list:
    """Per deal: won, the CPU seconds without the cue's, decisions, flagged ones, their search's."""
    env = PyramidEnv(rules)
    out = []
    for n in deals:
        agent = PerfectCueAgent(cue, samples) if agent_name == "perfect-cue" else PimcAgent(samples)
        start = time.process_time()
        won = play_deal(agent, env, n)[0]
        cpu = time.process_time() - start - getattr(agent, "cue_cpu", 0.0)
        counts = [getattr(agent, k, 0) for k in ("decisions", "flagged", "search_cpu")]
        out.append([won, cpu, *counts])
    return out


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="msc")
    p.add_argument("--seeds", default="test[:1000]")
    p.add_argument("--cue", type=int, default=128, help="the cue's orders per decision")
    p.add_argument(
        "--samples",
        type=int,
        nargs="+",
        default=[32],
        help="orders of the search where flagged, a row each (0: the cue's move)",
    )
    p.add_argument("--pimc", type=int, help="also pimc with this many orders at every decision")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=ROOT / "results" / "perfect_cue")
    args = p.parse_args(argv)
    rules = get_rules(args.rules)
    deals = list(seed_set(args.seeds))
    winnable = solver_labels(rules, deals)
    solver = sum(bool(winnable[n]) for n in deals)
    rows = []
    runs = [("perfect-cue", n) for n in args.samples]
    for name, samples in [*runs, *([("pimc", args.pimc)] if args.pimc else [])]:
        fn = functools.partial(_chunk, rules, name, args.cue, samples)
        results = sweep(fn, deals, workers=args.workers)
        wins = sum(r[0] for r in results)
        low, high = wilson(wins, solver)
        rows.append(
            {
                "rules": rules.name,
                "seeds": args.seeds,
                "agent": name,
                "cue": args.cue if name == "perfect-cue" else None,
                "samples": samples,
                "wins": wins,
                "solver_wins": solver,
                "solver_normalised": round(wins / solver, 4),
                "ci": [round(low, 4), round(high, 4)],
                "cpu_per_deal_ms": round(1000 * sum(r[1] for r in results) / len(deals), 1),
                "decisions": sum(r[2] for r in results),
                "flagged": sum(r[3] for r in results),
                "flagged_search_ms": round(1000 * sum(r[4] for r in results) / len(deals), 1),
                "machine": machine(),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"{rules.name}.json").write_text(json.dumps(rows, indent=1) + "\n")
    return rows


if __name__ == "__main__":
    main()
