"""What the player's view costs: evaluation of honest agents shown worlds against the real deal.

    python -m experiments.bench_view --rules msc --seeds "test[:200]" --agents greedy --rounds 7

Evaluation shows an agent not declared clairvoyant a world (the unseen stock cards dealt at
random, :class:`~pyramid_env.agents.base.PlayerView`). This plays each agent both ways in one
process, alternating, and prints the median CPU per deal of each, their ratio, and whether the
games were the same (they must be, for an honest agent).
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

import numpy as np

from pyramid_env.agents import make_agent
from pyramid_env.evaluation import evaluate


class _ShownTheDeal:
    """``agent`` declared clairvoyant: evaluation shows it the real deal, as before the view."""

    clairvoyant = True

    def __init__(self, agent: Any) -> None:
        self.agent, self.name = agent, agent.name
        self.env_kwargs = getattr(agent, "env_kwargs", {})

    def act(self, turn: Any, rng: np.random.Generator) -> int:
        return self.agent.act(turn, rng)


def main(argv: list[str] | None = None) -> list[dict]:
    """Run the comparison; one JSON row per agent (also printed)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="msc")
    p.add_argument("--seeds", default="test[:200]")
    p.add_argument("--agents", nargs="+", default=["greedy"])
    p.add_argument("--rounds", type=int, default=7, help="plays each way, alternating")
    args = p.parse_args(argv)
    rows = []
    for name in args.agents:
        cpu: dict[str, list[float]] = {"worlds": [], "deal": []}
        same = True
        for r in range(args.rounds):
            ways = ["worlds", "deal"] if r % 2 == 0 else ["deal", "worlds"]
            episodes = {}
            for way in ways:
                agent = make_agent(name)
                report = evaluate(
                    agent if way == "worlds" else _ShownTheDeal(agent), args.rules, args.seeds
                )
                episodes[way] = report.episodes
                cpu[way].append(float(np.mean([e.cpu for e in report.episodes])))
            same &= episodes["worlds"] == episodes["deal"]
        worlds, deal = statistics.median(cpu["worlds"]), statistics.median(cpu["deal"])
        rows.append(
            {
                "agent": name,
                "rules": args.rules,
                "seeds": args.seeds,
                "rounds": args.rounds,
                "ms_per_deal_worlds": round(worlds * 1e3, 3),
                "ms_per_deal_deal": round(deal * 1e3, 3),
                "ratio": round(worlds / deal, 3),
                "same_games": same,
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


if __name__ == "__main__":
    main()
