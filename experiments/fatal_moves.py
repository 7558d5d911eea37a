"""Where an agent loses a winnable deal: its first fatal move, by phase and by what it spoils.

    python -m experiments.fatal_moves --rules msc --agents greedy greedy-careful --seeds "val[:500]"

Counts each agent's first fatal move by phase, kind and whether the pyramid alone decides it,
which says what tests without search could still gain (the method: docs/experiments.md).
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from pyramid_env.agents import make_agent
from pyramid_env.benchmark import machine
from pyramid_env.engine.rules import get_rules
from pyramid_env.lab.fatal import first_fatal
from pyramid_env.lab.tables import markdown_table, write_csv
from pyramid_env.seeds import seed_set

ROOT = Path(__file__).parents[1]


def main(argv: list[str] | None = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="msc")
    p.add_argument("--agents", nargs="+", default=["greedy", "greedy-careful"])
    p.add_argument("--seeds", default="val[:500]")
    p.add_argument("--out", type=Path, default=ROOT / "results" / "fatal_moves")
    args = p.parse_args(argv)
    rules = get_rules(args.rules)
    deals = list(seed_set(args.seeds))
    rows = []
    for name in args.agents:
        agent = make_agent(name)
        counts: Counter = Counter()
        for n in deals:
            fatal = first_fatal(agent, rules, n)
            if fatal is not None:
                counts[(fatal["phase"], fatal["spoils"])] += 1
                counts[("all", fatal["kind"])] += 1
        row = {"rules": rules.name, "seeds": args.seeds, "agent": name}
        for phase in ("hidden", "known"):
            for what in ("pyramid", "order"):
                row[f"{phase}_{what}"] = counts[(phase, what)]
        row["lost_winnable"] = sum(row[k] for k in list(row)[3:]) + counts[("end", "none")]
        row.update({f"by_{k}": counts[("all", k)] for k in ("draw", "pyramid", "stock")})
        rows.append(row)
        print(row, flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    write_csv(args.out / "fatal_moves.csv", rows)
    print(f"\n{machine()}\n")
    columns = {"agent": "agent", "lost_winnable": "winnable deals lost",
               "hidden_pyramid": "hidden: pyramid", "hidden_order": "hidden: order",
               "known_pyramid": "known: pyramid", "known_order": "known: order",
               "by_draw": "a draw", "by_pyramid": "pyramid cards",
               "by_stock": "a stock card"}  # fmt: skip
    print(markdown_table(list(columns.values()), ([r[k] for k in columns] for r in rows)))
    return rows


if __name__ == "__main__":
    main()
