r"""Paired wins: agent against agent on the same deals, from the benchmark's ``episodes.csv``.

Two agents' win rates on the same deals are not independent samples, so the intervals of the
benchmark's table overlap even where one agent wins nearly every deal the other wins and a few
more. Counting, over the deals the solver wins, the deals both win and the deals only one wins
answers the question a table cannot: does one agent win the other's games, and are the deals
that tell them apart more one way than chance allows (McNemar's exact test, two-sided).

    python -m experiments.paired_wins results/cards/two-pass-pimc8/test1000 \\
        --reference greedy-careful
"""

from __future__ import annotations

import argparse
import csv
import math
from pathlib import Path


def load(folders: list[Path]) -> dict[str, dict[int, tuple[bool, bool]]]:
    """Per agent, per deal: (the agent won, the solver won), from each folder's episodes.csv.

    A path that is a file is read as such a CSV itself (``pimc_curve``'s ``episodes-<rules>.csv``).

    Several folders join into one set of agents (runs of the same deals split in two); a deal the
    solver wins in one folder and loses in another means they are not the same deals and rules.
    """
    agents: dict[str, dict[int, tuple[bool, bool]]] = {}
    solver: dict[int, bool] = {}
    for folder in folders:
        path = folder if folder.is_file() else folder / "episodes.csv"
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                deal, won = int(row["deal"]), row["won"] == "True"
                solver_won = row["solver_won"] == "True"
                if solver.setdefault(deal, solver_won) != solver_won:
                    raise ValueError(f"{folder}: deal {deal}'s solver verdict differs")
                agents.setdefault(row["agent"], {})[deal] = (won, solver_won)
    return agents


def mcnemar(only_a: int, only_b: int) -> float:
    """Exact two-sided McNemar p-value: the discordant deals as fair coin flips."""
    n, k = only_a + only_b, min(only_a, only_b)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def table(agents: dict[str, dict[int, tuple[bool, bool]]], reference: str) -> str:
    """A markdown table: each agent against ``reference`` on the deals the solver wins."""
    if reference not in agents:
        raise ValueError(f"--reference {reference!r}: not among the agents {sorted(agents)}")
    ref = agents[reference]
    lines = [
        f"| agent | solver wins | agent wins | both | only the agent | only `{reference}` "
        "| McNemar p |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, eps in agents.items():
        if name == reference:
            continue
        if set(eps) != set(ref):
            raise ValueError(f"{name} and {reference} did not play the same deals")
        winnable = [d for d, (_, solver_won) in eps.items() if solver_won]
        a = {d for d in winnable if eps[d][0]}
        b = {d for d in winnable if ref[d][0]}
        p = mcnemar(len(a - b), len(b - a))
        lines.append(f"| {name} | {len(winnable)} | {len(a)} | {len(a & b)} | {len(a - b)} | "
                     f"{len(b - a)} | {p:.3f} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> str:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folders", type=Path, nargs="+", help="benchmark folders or CSVs")
    p.add_argument("--reference", default="greedy-careful", help="the agent to pair with")
    p.add_argument("--out", type=Path, help="write the table here too")
    args = p.parse_args(argv)
    text = table(load(args.folders), args.reference)
    print(text, end="")
    if args.out:
        args.out.write_text(text)
    return text


if __name__ == "__main__":
    main()
