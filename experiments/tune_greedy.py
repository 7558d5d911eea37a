"""Choose the greedy agent's weights on the val deals (never on test).

    python -m experiments.tune_greedy --rules relaxed msc --seeds val

Grid over a few weights of :class:`pyramid_env.agents.baselines.GreedyAgent` (the others at
their defaults); for each point, the deals won on ``--seeds`` under every preset in ``--rules``.
Prints the points sorted by total wins and writes ``tune_greedy.csv`` to ``--out``. The
defaults in ``GreedyAgent.WEIGHTS`` are the best point of the run quoted in the README.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

from tqdm import tqdm

from pyramid_env.agents import GreedyAgent
from pyramid_env.evaluation import evaluate
from pyramid_env.lab.tables import write_csv

GRID = {
    "exposed": [1.0, 3.0, 6.0],
    "held_up": [0.0, 0.5, 1.5],
    "stock_card": [0.0, 2.0, 5.0],
    "no_spare": [0.0, 2.0, 6.0],
}


def main(argv: list[str] | None = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["relaxed", "msc"])
    p.add_argument("--seeds", default="val")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=Path("results/tune_greedy"))
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    points = list(itertools.product(*GRID.values()))
    for values in tqdm(points, desc="grid", unit="point"):
        weights = dict(zip(GRID, values, strict=True))
        row = dict(weights)
        for rules in args.rules:
            agent = GreedyAgent(weights)
            row[rules] = evaluate(agent, rules, args.seeds, workers=args.workers).summary()["wins"]
        row["total"] = sum(row[r] for r in args.rules)
        rows.append(row)
    rows.sort(key=lambda r: -r["total"])
    write_csv(args.out / "tune_greedy.csv", rows)
    default = next(r for r in rows if all(r[k] == GreedyAgent.WEIGHTS[k] for k in GRID))
    for r in [*rows[:5], default]:
        print(r)
    return rows


if __name__ == "__main__":
    main()
