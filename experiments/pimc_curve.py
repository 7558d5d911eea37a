"""The determinized search's win rate against its samples per decision.

    python -m experiments.pimc_curve --rules two-pass one-pass --seeds "test[:100]" --samples 4 8 16

For each preset and number of samples, ``pimc`` plays the deals; each row gives the share of
the solver's wins it wins (95% Wilson interval) and its CPU time per deal, appended to
``--out/curve.csv`` as each finishes (the header is written once, for a new file).
``--consistent`` plays ``PimcAgent(consistent=True)``: one more decision chosen alike in the
samples a player cannot tell apart (the remedy it tries for strategy fusion). ``--budget``
changes the positions each solver verdict may take (one that runs out counts as a loss); the
rows then name it (``pimc-budget3000``), so they stay apart from the default's curve. Several
budgets play every one with every number of samples: how to spend the CPU, on more orders or
on harder verdicts. ``--order greedy-careful``, ``--exact``, ``--extra N``, ``--keep``,
``--delay``, ``--screen N``, ``--live N``, ``--slack`` and ``--margin N`` play the search's
other settings (``PimcAgent``'s arguments), named in the rows likewise
(``pimc-careful-exact-extra64``, ``pimc-keep``, ``pimc-delay-screen10000``, ``pimc-live16``,
``pimc-slack``, ``pimc-delay-margin1``). ``--net-order NET`` orders the moves by a card
network's policy (:class:`NetOrder`, ``pimc-net``): an honest network breaks the search's ties.
``--agent-seed N`` plays with evaluate's ``seed=N`` (``pimc-seedN``): the same deals, other
sampled orders, so two seeds of one setting say how many deals a setting wins or loses by the
sampling's luck alone.

Each deal's outcome is appended too, to ``--out/episodes-<rules>.csv`` in the benchmark's
``episodes.csv`` columns (the agent named ``<kind>-<samples>``), so that two settings played on
the same deals can be compared deal by deal: ``pyramid-env compare
results/pimc_delay_paired/episodes-two-pass.csv --reference pimc-32``.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np

from pyramid_env import evaluate
from pyramid_env.agents import PimcAgent, Turn
from pyramid_env.agents.baselines import GreedyAgent
from pyramid_env.agents.cardnet import CardNet
from pyramid_env.agents.honest import ORDERS
from pyramid_env.benchmark.store import EPISODE_FIELDS

DEFAULT_BUDGET = PimcAgent().budget


class NetOrder(GreedyAgent):
    """A card network's policy as ``pimc``'s move order: the legal moves by its logits.

    The network reads the ``counts`` observation, what a player knows, so the search stays honest;
    the order decides the search's ties (and its move where every sample is lost).
    """

    def __init__(self, net: CardNet) -> None:
        """See the class docstring."""
        super().__init__()
        self.net = net

    def preferences(self, turn: Turn) -> list[int]:
        """The legal moves, the policy's favourite first."""
        logits = self.net.forward(turn.obs[None])[0, 0]
        return sorted(turn.legal, key=lambda a: (-logits[a], a))

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The policy's favourite legal move."""
        return self.preferences(turn)[0]


def _append_episodes(path: Path, agent: str, rows: list[dict]) -> None:
    """Append one run's per-deal rows, the benchmark's columns, the header once a file."""
    new = not path.exists()
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=EPISODE_FIELDS)
        if new:
            w.writeheader()
        w.writerows({"agent": agent, **r} for r in rows)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["two-pass", "one-pass"])
    p.add_argument("--seeds", default="test[:100]")
    p.add_argument("--samples", nargs="+", type=int, default=[4, 8, 16])
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--consistent", action="store_true", help="PimcAgent(consistent=True)")
    p.add_argument(
        "--budget", nargs="+", type=int, default=[DEFAULT_BUDGET], help="positions per verdict"
    )
    p.add_argument("--order", choices=sorted(ORDERS), default="greedy", help="move order")
    p.add_argument("--exact", action="store_true", help="every order of few unseen cards")
    p.add_argument("--extra", type=int, default=0, help="samples to ask hard decisions again")
    p.add_argument("--keep", action="store_true", help="keep the worlds between decisions")
    p.add_argument("--delay", action="store_true", help="the draw before pyramid-only removals")
    p.add_argument("--screen", type=int, help="positions per verdict before the move")
    p.add_argument("--live", type=int, default=0, help="winnable samples to draw more orders for")
    p.add_argument("--slack", action="store_true", help="ties to the move won with a pass fewer")
    p.add_argument("--margin", type=int, default=0, help="with --delay: samples a pyramid pair "
                   "must win beyond the draw")  # fmt: skip
    p.add_argument("--net-order", type=Path, help="a card network whose policy orders the moves")
    p.add_argument("--agent-seed", type=int, default=0, help="evaluate's seed: other orders "
                   "sampled on the same deals, to measure the search's own luck")  # fmt: skip
    p.add_argument("--out", type=Path, default=Path("results/pimc_curve"))
    args = p.parse_args(argv)
    if args.margin and not args.delay:
        p.error(f"--margin {args.margin}: a margin against the draw tried first, with --delay")
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "curve.csv"
    fields = ["rules", "seeds", "agent", "samples", "wins", "solver_winnable",
              "solver_normalised", "norm_ci_low", "norm_ci_high", "cpu_per_deal"]  # fmt: skip
    if not path.exists():
        with open(path, "w", newline="") as f:
            csv.writer(f).writerow(fields)
    for rules in args.rules:
        for budget in args.budget:
            kind = "pimc-consistent" if args.consistent else "pimc"
            if budget != DEFAULT_BUDGET:
                kind += f"-budget{budget}"
            kind += "-careful" * (args.order == "greedy-careful") + "-exact" * args.exact
            kind += f"-extra{args.extra}" * (args.extra > 0) + "-keep" * args.keep
            kind += "-delay" * args.delay + f"-screen{args.screen}" * (args.screen is not None)
            kind += f"-live{args.live}" * (args.live > 0) + "-slack" * args.slack
            kind += f"-margin{args.margin}" * (args.margin > 0) + "-net" * bool(args.net_order)
            kind += f"-seed{args.agent_seed}" * (args.agent_seed > 0)
            settings = {"order": args.order, "exact": args.exact, "extra": args.extra}
            settings.update(keep=args.keep, delay=args.delay, screen=args.screen, live=args.live)
            settings.update(slack=args.slack, margin=args.margin)
            for samples in args.samples:
                name = f"{kind}-{samples}"
                agent = PimcAgent(samples, budget, args.consistent, name=name, **settings)
                if args.net_order:  # the network's order in place of the heuristic's
                    agent.greedy = NetOrder(CardNet.load(args.net_order))
                    agent.env_kwargs = {"obs_mode": "counts"}
                report = evaluate(
                    agent, rules, args.seeds, workers=args.workers, seed=args.agent_seed
                )
                _append_episodes(args.out / f"episodes-{rules}.csv", name, report.rows())
                s = report.summary()
                row = [rules, args.seeds, kind, samples, *(s[k] for k in fields[4:])]
                with open(path, "a", newline="") as f:
                    csv.writer(f).writerow(row)
                print(*row, flush=True)


if __name__ == "__main__":
    main()
