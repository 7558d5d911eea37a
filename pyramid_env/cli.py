"""The ``pyramid-env`` command line: show, solve, benchmark, compare, play and replay.

``show`` prints a deal's board, code and rules; ``solve`` solves it (the solver knows the stock
order); ``benchmark`` plays every agent on fixed deals (:mod:`pyramid_env.benchmark`);
``compare`` pairs agents deal by deal from benchmark runs; ``play``
is a game in the terminal (:mod:`pyramid_env.play`); ``replay`` writes a saved game as a web
page (:mod:`pyramid_env.replay`). Help text is plain (argparse prints it as written); the agent
list of ``benchmark --help`` is filled in only when help is shown (:class:`HelpFormatter`), as it
imports the agents, which ``show`` should not pay for.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pyramid_env.argtypes import integer, positive, seconds
from pyramid_env.engine import PyramidError
from pyramid_env.engine.notation import format_board
from pyramid_env.options import (
    AGENTS,
    HelpFormatter,
    add_backend_args,
    add_rule_args,
    game_from_args,
    rules_from_args,
)

# Help text is printed as written (RawDescriptionHelpFormatter), so it is plain text, with lines
# under 80 characters to fit a default terminal.
DESCRIPTION = """\
Pyramid Solitaire from the command line: look at a deal, solve it, or
benchmark the agents. Deals are numbered (0 to 2**64 - 1) or given by code
(P2-...); the rules are a named preset."""

EPILOG = """\
examples:
  pyramid-env show --deal 5               deal 5's board, code and rules
  pyramid-env show --deal 5 --hide-stock  as a player sees it: stock face down
  pyramid-env solve --deal 5 --shortest   a shortest winning line (or "loss")
  pyramid-env benchmark                   every agent on 1,000 test deals
  pyramid-env benchmark --agents greedy solver --seeds "val[:200]"
  pyramid-env compare results/benchmark/relaxed   each agent against greedy-careful,
                                          deal by deal (McNemar's test)
  pyramid-env play --rules msc --deal 5   play deal 5 in the terminal
  pyramid-env replay game.json --analyse  a saved game as a page, losing move marked

"pyramid-env COMMAND --help" gives a command's options."""

SHOW_DESCRIPTION = """\
Print a deal's board (the pyramid, then the stock, top card first), its code
and its rules. With no deal given, deal 0."""

SOLVE_DESCRIPTION = """\
Solve a deal exactly: won or lost, with a winning line (with --shortest, one
with the fewest steps). The solver sees the whole stock order. With no deal
given, deal 0."""

COMPARE_DESCRIPTION = """\
Pair agents deal by deal from benchmark runs: for each agent, the deals both it
and the reference win, the deals only one of them wins, and McNemar's exact
test of whether those split deals lean one way more than coin flips would. Two
win rates on the same deals are not independent, so their intervals can
overlap where one agent wins all the other's deals and more; the split deals
are what tell them apart. --across-seeds pools several seeds of one recipe, and
pairs them with the reference deal by deal, each deal counted once."""

REPLAY_DESCRIPTION = """\
Write a saved game (Game.save, pyramid-env play's save) or a replay file as
one self-contained web page to step through. With --analyse the solver, which
knows the stock order, judges every position and marks the move after which
the deal could no longer be won, with a move that would have kept it
winnable."""

BENCHMARK_DESCRIPTION = """\
Play agents on the same fixed deals and compare them. Prints its plan first,
then progress bars, then one table: the win rate and the solver-normalised
win rate (the share of the deals the solver can win that the agent wins),
each with its 95% interval. Writes benchmark.md and benchmark.csv (the
table), episodes.csv (one row per agent and deal) and benchmark.png (the
chart; needs matplotlib) to the output folder."""

BENCHMARK_EPILOG = """\
agent kinds (the table and the chart group them in this order):
  baseline     hand-written rules
  search       looks ahead over what a player knows (value-*: with a
               learned leaf value)
  learned      a trained policy network
  clairvoyant  reads the stock order: the ceiling, not a rival

examples:
  pyramid-env benchmark --seeds "test[:50]" --agents greedy solver --workers 1
  pyramid-env benchmark --rules msc --seeds "val[:200]" --out results/msc-val"""


# Exit statuses (the README lists them): 0 done; 2 bad input, said on stderr before any work
# (argparse uses 2 for bad options too); 1 a failure while working (a file that cannot be
# written, an agent's illegal move); 130 interrupted (Ctrl-C).
EXIT_BAD_INPUT, EXIT_FAILED, EXIT_INTERRUPTED = 2, 1, 130


def _add_deal_args(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--deal", type=integer, metavar="N", help="deal number (0 <= N < 2**64); the default is 0"
    )
    g.add_argument("--code", help="deal code, 'P2-...'")
    g.add_argument("--cards", help="52 cards: pyramid apex first, then the stock, top first")
    add_rule_args(p)


def _show(args: argparse.Namespace) -> int:
    game = game_from_args(args)
    print(f"{game.deal.label()} · code {game.deal.code}")
    print(game.rules.describe())
    print(format_board(game.state, hide_stock=args.hide_stock))
    print(game.summary())
    return 0


def _solve(args: argparse.Namespace) -> int:
    from pyramid_env.solver import solve  # the solver is not needed by `show`

    game = game_from_args(args)
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
        rules_from_args(args),
        args.seeds,
        args.agents,
        args.observe_stock,
        args.out,
        args.workers,
        progress=not args.no_progress,
        resume=args.resume,
        replays=args.replays,
        backend=args.backend,
        address=args.address,
    )
    return 0


def _compare(args: argparse.Namespace) -> int:
    from pyramid_env.benchmark import compare as cmp
    from pyramid_env.engine.files import write_atomic

    runs = cmp.read_runs(args.runs)
    groups = args.across_seeds or []
    pair = not groups or bool(args.reference or args.agents)  # seeds alone: no pairing asked
    paired = cmp.compare(runs, args.reference or cmp.DEFAULT_REFERENCE, args.agents) if pair else []
    pooled = [cmp.across_seeds(runs, group) for group in groups]
    ref = args.reference_seeds or [args.reference or cmp.DEFAULT_REFERENCE]
    paired_seeds = pair or bool(args.reference_seeds)
    against = [cmp.seeds_against(runs, group, ref) for group in groups] if paired_seeds else []
    if args.json:
        rows = {"paired": [r.to_dict() for r in paired], "seeds": [r.to_dict() for r in pooled],
                "seeds_paired": [r.to_dict() for r in against]}  # fmt: skip
        text = json.dumps(rows) + "\n"
    else:
        parts = [cmp.markdown(paired)] if pair else []
        parts += [cmp.seeds_markdown(pooled)] if pooled else []
        text = "\n".join(parts + ([cmp.seeds_paired_markdown(against)] if against else []))
    print(text, end="")
    if args.out:
        write_atomic(args.out, text)
    return 0


def _command(
    sub: argparse._SubParsersAction, name: str, func: Any, **kwargs: Any
) -> argparse.ArgumentParser:
    """A subcommand's parser: plain help text, and ``func`` to run it."""
    parser = sub.add_parser(name, formatter_class=HelpFormatter, **kwargs)
    parser.set_defaults(func=func)
    return parser


def _parser() -> argparse.ArgumentParser:
    from pyramid_env.play import PLAY_DESCRIPTION, add_play_args, run_play
    from pyramid_env.replay import add_replay_arguments, main_replay

    parser = argparse.ArgumentParser(
        prog="pyramid-env", description=DESCRIPTION, epilog=EPILOG, formatter_class=HelpFormatter
    )
    sub = parser.add_subparsers(title="commands", dest="command", required=True)
    show = _command(
        sub,
        "show",
        _show,
        help="print a deal's board, code and rules",
        description=SHOW_DESCRIPTION,
    )
    _add_deal_args(show)
    show.add_argument("--hide-stock", action="store_true", help="print the stock face down")
    solve = _command(
        sub,
        "solve",
        _solve,
        help="won or lost, with a winning (or shortest) line",
        description=SOLVE_DESCRIPTION,
    )
    _add_deal_args(solve)
    solve.add_argument("--shortest", action="store_true", help="a line with the fewest steps")
    solve.add_argument("--json", action="store_true", help="print the result as JSON")
    solve.add_argument(
        "--budget", type=positive, metavar="N", help="give up (unknown) after N positions"
    )
    solve.add_argument(
        "--time-limit", type=seconds, metavar="S", help="give up (unknown) after S seconds"
    )
    _add_benchmark_args(
        _command(
            sub,
            "benchmark",
            _benchmark,
            help="every agent on fixed deals: table, CSVs, chart",
            description=BENCHMARK_DESCRIPTION,
            epilog=BENCHMARK_EPILOG,
        )
    )
    _add_compare_args(
        _command(
            sub,
            "compare",
            _compare,
            help="agents paired deal by deal with a reference, from benchmark runs",
            description=COMPARE_DESCRIPTION,
        )
    )
    add_play_args(
        _command(
            sub, "play", run_play, help="play a deal in the terminal", description=PLAY_DESCRIPTION
        )
    )
    add_replay_arguments(
        _command(
            sub,
            "replay",
            main_replay,
            help="a game as a web page to step through; --analyse marks the losing move",
            description=REPLAY_DESCRIPTION,
        )
    )
    return parser


def _add_compare_args(compare: argparse.ArgumentParser) -> None:
    compare.add_argument(
        "runs", nargs="+", type=Path, metavar="RUN",
        help="benchmark output folders (their episodes.csv) or episodes CSV files, of one "
        "rule set and the same deals; several join into one set of agents",
    )  # fmt: skip
    compare.add_argument(
        "--reference", metavar="AGENT",
        help="the agent every other is paired with (default greedy-careful, the strongest "
        "rule without search)",
    )  # fmt: skip
    compare.add_argument(
        "--agents", nargs="+", metavar="AGENT", help="only these agents (default: all others)"
    )
    compare.add_argument(
        "--across-seeds", nargs="+", action="append", metavar="AGENT",
        help="these agents are seeds of one recipe: their mean share of the solver's wins, "
        "with a 95%% bootstrap interval over seeds and deals, and with --reference or "
        "--agents a sign test against the reference over the deals, each counted once (their "
        "mean win on it against the reference's); repeat for several recipes",
    )  # fmt: skip
    compare.add_argument(
        "--reference-seeds", nargs="+", metavar="AGENT",
        help="pair each --across-seeds group with these seeds of another recipe (their mean "
        "win a deal) instead of --reference",
    )  # fmt: skip
    compare.add_argument("--json", action="store_true", help="print the rows as JSON")
    compare.add_argument("--out", type=Path, metavar="FILE", help="write the output here too")


def _add_benchmark_args(bench: argparse.ArgumentParser) -> None:
    add_rule_args(bench)
    bench.add_argument(
        "--seeds",
        default="test[:1000]",
        metavar="SPEC",
        help='the deals: a set (test, val, train), a slice of one ("val[:200]"), a span '
        "(0-99) or a list (3,5,8); default test[:1000]",
    )
    bench.add_argument(
        "--agents",
        nargs="+",
        metavar="AGENT",
        help=f"agents to run, by name or as a path to a .npz policy. Names by kind: {AGENTS}. "
        "Default: every baseline, the search agents that play the rules, the shipped agents "
        "trained for the rules, and solver",
    )
    bench.add_argument(
        "--observe-stock",
        default="seen",
        choices=["seen", "full"],
        help="what the agents see of the stock order: seen (the cards turned so far, as a "
        "player) or full (all of it); default seen. Trained policies keep the view they were "
        "trained with; clairvoyant agents see it all",
    )
    bench.add_argument(
        "--out", metavar="DIR", help="output folder (default results/benchmark/PRESET)"
    )
    add_backend_args(bench)
    bench.add_argument(
        "--replays",
        type=integer,
        default=3,
        metavar="N",
        help="per agent, N deals it lost that the solver wins, kept as pages with the losing "
        "move marked, in DIR/replays/ (default 3; 0 for none)",
    )
    bench.add_argument("--no-progress", action="store_true", help="no progress bars")
    bench.add_argument(
        "--resume",
        action="store_true",
        help="keep the agents a stopped run with the same settings finished in --out, and the "
        "chunks of deals the agent it stopped in had finished",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for bad input, with the reason on stderr)."""
    args = _parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # the reader went away (`| head`): nothing of ours went wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("pyramid-env: interrupted (a benchmark goes on with --resume)", file=sys.stderr)
        return EXIT_INTERRUPTED
    # Bad input, found before any work; a fault while working (an agent's illegal move); the
    # machine refusing (a file that cannot be written, say).
    except (PyramidError, ValueError, RuntimeError, OSError) as err:
        print(f"pyramid-env: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT if isinstance(err, PyramidError) else EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
