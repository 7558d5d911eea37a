"""The ``pyramid-env`` command line.

``pyramid-env show (--deal N | --code C | --cards "...") [--rules R] [--hide-stock]`` prints a
deal's board, its code and its rules. ``pyramid-env solve ... [--shortest] [--json]`` solves it
(the solver knows the stock order). ``pyramid-env benchmark [--rules R] [--seeds S] [--agents
...]`` plays every agent on fixed deals and writes the table (see ``pyramid_env.benchmark``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from pyramid_env.engine import PRESETS, CardError, Game, to_deal
from pyramid_env.engine.notation import format_board


def _add_deal_args(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--deal", type=int, help="deal number (0 <= N < 2**64); the default is 0")
    g.add_argument("--code", help="deal code, 'P1-...'")
    g.add_argument("--cards", help="52 cards: pyramid apex first, then the stock, top first")
    p.add_argument("--rules", default="relaxed", help=f"preset: {', '.join(PRESETS)}")


def _game(args: argparse.Namespace) -> Game:
    spec = args.code or args.cards or (args.deal if args.deal is not None else 0)
    return Game(to_deal(spec), args.rules)


def _show(args: argparse.Namespace) -> int:
    game = _game(args)
    print(f"{game.deal.label()} · code {game.deal.code}")
    print(game.rules.describe())
    print(format_board(game.state, hide_stock=args.hide_stock))
    print(game.summary())
    return 0


def _solve(args: argparse.Namespace) -> int:
    from pyramid_env.solver import solve  # the solver is not needed by `show`

    game = _game(args)
    sol = solve(game, shortest=args.shortest, budget=args.budget, time_limit=args.time_limit)
    if args.json:
        print(json.dumps(sol.to_dict()))
        return 0
    print(f"{game.deal.label()} · {game.rules.name} · code {game.deal.code}")
    print(f"{sol.status.value} · {sol.nodes:,} positions · {sol.seconds:.3f} s")
    if sol.line is not None:
        kind = "shortest line" if sol.shortest else "winning line"
        print(f"{kind}, {sol.steps} steps: {' '.join(sol.line)}")
    return 0


def _benchmark(args: argparse.Namespace) -> int:
    from pyramid_env.benchmark import run  # loads the env, the agents and the solver

    run(
        args.rules,
        args.seeds,
        args.agents,
        args.observe_stock,
        args.out,
        args.workers,
        progress=not args.no_progress,
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for bad input, with the reason on stderr)."""
    parser = argparse.ArgumentParser(prog="pyramid-env", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("show", help="print a deal's board and code")
    _add_deal_args(show)
    show.add_argument("--hide-stock", action="store_true", help="print the stock face down")
    show.set_defaults(func=_show)
    solve = sub.add_parser("solve", help="won or lost, with a winning (or shortest) line")
    _add_deal_args(solve)
    solve.add_argument("--shortest", action="store_true", help="a line with the fewest steps")
    solve.add_argument("--json", action="store_true", help="print the result as JSON")
    solve.add_argument("--budget", type=int, help="give up (unknown) after N positions")
    solve.add_argument("--time-limit", type=float, help="give up (unknown) after S seconds")
    solve.set_defaults(func=_solve)
    bench = sub.add_parser("benchmark", help="every agent on fixed deals: table, CSV, chart")
    bench.add_argument("--rules", default="relaxed", help=f"preset: {', '.join(PRESETS)}")
    bench.add_argument("--seeds", default="test[:1000]", help="'test[:1000]', 'val', '0-99'...")
    bench.add_argument("--agents", nargs="+", help="default: baselines, shipped, solver")
    bench.add_argument("--observe-stock", default="seen", choices=["seen", "full"])
    bench.add_argument("--out", help="output folder (default results/benchmark/<rules>)")
    bench.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    bench.add_argument("--no-progress", action="store_true", help="no progress bars")
    bench.set_defaults(func=_benchmark)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (CardError, ValueError) as err:
        print(f"pyramid-env: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
