"""Which phase of the game a player loses in: the hidden stock or the fully known endgame.

    python -m experiments.phase_split --rules msc two-pass --seeds "test[:1000]"
    python -m experiments.phase_split --rules msc --then bc-msc bc-ppo-msc expit-msc \
        --out results/phase_split/networks

Plays agents made of two parts, one per phase, to say what a network alone must learn (the
method: docs/experiments.md).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from pyramid_env.agents import (
    CarefulAgent,
    GreedyAgent,
    PimcAgent,
    make_agent,
)
from pyramid_env.agents.phase_split import PhaseSplit
from pyramid_env.benchmark import machine
from pyramid_env.engine.rules import get_rules
from pyramid_env.evaluation import evaluate
from pyramid_env.lab.tables import markdown_table, write_csv

ROOT = Path(__file__).parents[1]


def agents(samples: int, then: list[str] | None = None) -> list[PhaseSplit]:
    """The combinations, then greedy's first pass with each agent named in ``then``.

    ``pimc`` plays with ``samples`` orders per decision.
    """
    rows = [
        PhaseSplit(GreedyAgent(), GreedyAgent(), "greedy"),
        PhaseSplit(GreedyAgent(), "solver", "greedy, then solver"),
        PhaseSplit(PimcAgent(samples=samples), GreedyAgent(), f"pimc-{samples}, then greedy"),
        PhaseSplit(PimcAgent(samples=samples), "solver", f"pimc-{samples}"),
        PhaseSplit(CarefulAgent(), CarefulAgent(), "greedy-careful"),
        PhaseSplit(CarefulAgent(), "solver", "greedy-careful, then solver"),
        PhaseSplit(PimcAgent(samples=samples), CarefulAgent(), f"pimc-{samples}, then careful"),
    ]
    return rows + [
        PhaseSplit(GreedyAgent(), make_agent(n), f"greedy, then {n}") for n in then or []
    ]


def main(argv: list[str] | None = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["msc", "two-pass"])
    p.add_argument("--seeds", default="test[:1000]")
    p.add_argument("--samples", type=int, default=4, help="pimc's orders per decision")
    p.add_argument(
        "--then",
        nargs="*",
        default=[],
        metavar="AGENT",
        help="agents (names or .npz paths) to play the known phase after greedy",
    )
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=ROOT / "results" / "phase_split")
    args = p.parse_args(argv)
    rows = []
    for name in args.rules:
        rules = get_rules(name)
        for agent in agents(args.samples, args.then):
            t0 = time.time()
            s = evaluate(agent, rules, args.seeds, workers=args.workers).summary()
            rows.append(
                {
                    "rules": rules.name,
                    "seeds": args.seeds,
                    "agent": agent.name,
                    "wins": s["wins"],
                    "solver_wins": s["solver_winnable"],
                    "solver_normalised": round(s["solver_normalised"], 4),
                    "cpu_per_deal": round(s["cpu_per_deal"], 4),
                    "wall_s": round(time.time() - t0, 1),
                }
            )
            print(rows[-1], flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    write_csv(args.out / "phase_split.csv", rows)
    print(f"\n{machine()}\n")
    header = ["rules", "agent (hidden phase, then known)", "wins", "of the solver's"]
    cells = ([r["rules"], r["agent"], f"{r['wins']} / {r['solver_wins']}",
              f"{r['solver_normalised']:.3f}"] for r in rows)  # fmt: skip
    print(markdown_table(header, cells))
    return rows


if __name__ == "__main__":
    main()
