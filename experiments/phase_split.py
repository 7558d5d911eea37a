"""Which phase of the game a player loses in: the hidden stock or the fully known endgame.

    python -m experiments.phase_split --rules msc two-pass --seeds "test[:1000]"
    python -m experiments.phase_split --rules msc --then bc-msc bc-ppo-msc expit-msc \
        --out results/phase_split/networks
    python -m experiments.phase_split --rules msc --split cards-msc --out results/phase_split/cards

Plays agents made of two parts, one per phase, to say what a network alone must learn (the
method: docs/experiments.md). Writes ``phase_split.csv`` (a row per agent) and, per rule set,
``episodes-RULES.csv`` (the games deal by deal, for ``pyramid-env compare``).
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
from pyramid_env.agents.cardnet import PLAY_MODES, CardNet, CardNetAgent, parse_way
from pyramid_env.agents.phase_split import PhaseSplit
from pyramid_env.benchmark import machine
from pyramid_env.engine.rules import get_rules
from pyramid_env.evaluation import evaluate
from pyramid_env.lab.tables import markdown_table, write_csv

ROOT = Path(__file__).parents[1]


def read_as(agent: CardNetAgent, way: str) -> CardNetAgent:
    """A card network's agent reading its heads another way (``"q:0.1"``: ``play:tie``)."""
    play, tie = parse_way(way)
    net = CardNet(agent.net.w, agent.net.meta | {"play": play, "tie": tie})
    return CardNetAgent(net, name=f"{agent.name} as {way}")


def agents(
    samples: int,
    then: list[str] | None = None,
    split: list[str] | None = None,
    known: list[str] | None = None,
    known_ways: list[str] | None = None,
    first_ways: list[str] | None = None,
) -> list[PhaseSplit]:
    """The combinations, then greedy's first pass with each agent named in ``then``.

    ``pimc`` plays with ``samples`` orders per decision. Each agent named in ``split`` is
    then taken apart: it alone, it then the solver's line, ``greedy-careful`` then it, and it
    then ``greedy-careful`` (which phase it loses deals in, against ``greedy-careful``'s rows);
    then it followed by each agent in ``known``, and (a card network) by itself read each way
    in ``known_ways`` (``play:tie``), in the known phase; and read each way in ``first_ways``
    during the first pass, then itself as it plays, and then the solver's line.
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
    rows += [PhaseSplit(GreedyAgent(), make_agent(n), f"greedy, then {n}") for n in then or []]
    for n in split or []:
        rows += [
            PhaseSplit(make_agent(n), make_agent(n), n),
            PhaseSplit(make_agent(n), "solver", f"{n}, then solver"),
            PhaseSplit(CarefulAgent(), make_agent(n), f"greedy-careful, then {n}"),
            PhaseSplit(make_agent(n), CarefulAgent(), f"{n}, then greedy-careful"),
        ]
        rows += [PhaseSplit(make_agent(n), make_agent(k), f"{n}, then {k}") for k in known or []]
        rows += [
            PhaseSplit(make_agent(n), read_as(make_agent(n), w), f"{n}, then itself as {w}")
            for w in known_ways or []
        ]
        for w in first_ways or []:
            rows += [
                PhaseSplit(read_as(make_agent(n), w), make_agent(n), f"{n} as {w}, then itself"),
                PhaseSplit(read_as(make_agent(n), w), "solver", f"{n} as {w}, then solver"),
            ]
    return rows


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
    p.add_argument(
        "--split",
        nargs="*",
        default=[],
        metavar="AGENT",
        help="agents (names or .npz paths) to take apart: each alone, then the solver, after "
        "greedy-careful, then greedy-careful",
    )
    p.add_argument(
        "--known",
        nargs="*",
        default=[],
        metavar="AGENT",
        help="with --split: agents (names or .npz paths) to play the known phase after it",
    )
    p.add_argument(
        "--known-ways",
        nargs="*",
        default=[],
        metavar="PLAY:TIE",
        help="with --split (card networks): the network read another way in the known phase, "
        f"PLAY one of {', '.join(PLAY_MODES)} (the ways of CardNet.act_logits)",
    )
    p.add_argument(
        "--first-ways",
        nargs="*",
        default=[],
        metavar="PLAY:TIE",
        help="with --split (card networks): the network read another way in the first pass, "
        "then itself as it plays, or the solver",
    )
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=ROOT / "results" / "phase_split")
    args = p.parse_args(argv)
    if (args.known or args.known_ways or args.first_ways) and not args.split:
        p.error("--known, --known-ways and --first-ways read a network taken apart: give --split")
    for flag, ways in (("--known-ways", args.known_ways), ("--first-ways", args.first_ways)):
        for way in ways:
            try:
                parse_way(way)
            except ValueError as err:
                p.error(f"{flag} {err}")
    rows = []
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.rules:
        rules = get_rules(name)
        episodes: list[dict] = []
        for agent in agents(args.samples, args.then, args.split, args.known, args.known_ways,
                            args.first_ways):  # fmt: skip
            t0 = time.time()
            report = evaluate(agent, rules, args.seeds, workers=args.workers)
            s = report.summary()
            episodes += [{"agent": agent.name} | e for e in report.rows()]
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
            # Written as each agent finishes, so a run stopped keeps what it has played. The
            # games deal by deal go to one file per rule set in a benchmark's columns, which
            # ``pyramid-env compare`` pairs and pools over seeds (``--across-seeds``).
            write_csv(args.out / "phase_split.csv", rows)
            write_csv(args.out / f"episodes-{rules.name}.csv", episodes)
    print(f"\n{machine()}\n")
    header = ["rules", "agent (hidden phase, then known)", "wins", "of the solver's"]
    cells = ([r["rules"], r["agent"], f"{r['wins']} / {r['solver_wins']}",
              f"{r['solver_normalised']:.3f}"] for r in rows)  # fmt: skip
    print(markdown_table(header, cells))
    return rows


if __name__ == "__main__":
    main()
