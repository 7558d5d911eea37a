"""Command-line options the ``pyramid-env`` subcommands share, and how they become values.

The rules and the deal options are read here once (``--rules`` plus a knob option each, and
``--deal``/``--code``/``--cards``) for every subcommand, :mod:`pyramid_env.cli` and
:mod:`pyramid_env.play` alike, so the two cannot read them differently; the plain help
formatter lives here for the same reason. This module imports neither of them.
"""

from __future__ import annotations

import argparse
import textwrap

from pyramid_env.argtypes import integer
from pyramid_env.engine import PRESETS, Deal, Game, to_deal
from pyramid_env.engine.deal import decode_code
from pyramid_env.engine.errors import PyramidError, shorten
from pyramid_env.engine.rules import KNOBS, Goal, Rules, StockPlay, get_rules
from pyramid_env.sweep import MAX_WORKERS

AGENTS = "{agents}"  # replaced by the list of agents, only when help is printed


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Plain help: descriptions as written, option help wrapped without breaking names.

    ``{agents}`` in an option's help becomes the list of agents by kind. Listing them imports
    the agents and reads the shipped networks, so it happens here, when
    help is printed, not on every command. Option help is wrapped at spaces only: agent and
    preset names have hyphens (``bc-ppo-msc``), and a name split across lines misleads; a word
    longer than the line (a file's path in an error) overflows it rather than being cut.
    """

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if text and AGENTS in text:
            from pyramid_env.benchmark import known_agents

            try:
                kinds = known_agents()
            except PyramidError as err:  # a damaged install: help still prints, saying so
                return text.replace(AGENTS, f"(the list cannot be read: {err})")
            text = text.replace(
                AGENTS, "; ".join(f"{k}: {', '.join(n)}" for k, n in kinds.items() if n)
            )
        return text

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(
            " ".join(text.split()), width, break_on_hyphens=False, break_long_words=False
        )


_RULES_HELP = f"rule preset: {', '.join(PRESETS)} (default relaxed)"


def _passes(text: str) -> int | None:
    """``--passes``: a whole number, or ``unlimited``."""
    if text == "unlimited":
        return None
    try:
        return integer(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"{shorten(text)} is not a number or 'unlimited'"
        ) from None


def add_rule_args(p: argparse.ArgumentParser) -> None:
    """``--rules`` and an option per rule knob of play (scoring and undo are not options)."""
    p.add_argument("--rules", default="relaxed", metavar="PRESET", help=_RULES_HELP)
    knobs = p.add_argument_group("rule knobs (override the preset's)")
    knobs.add_argument("--passes", type=_passes, default=argparse.SUPPRESS, metavar="N",
                       help="passes through the stock: a number, or 'unlimited'")  # fmt: skip
    for knob, what in (
        ("covering-pair", "a card may pair with a card covering it"),
        ("dead-deal-ends-game", "the game ends once no stock card can ever help"),
    ):
        knobs.add_argument(f"--{knob}", action=argparse.BooleanOptionalAction,
                           default=argparse.SUPPRESS, help=what)  # fmt: skip
    for knob, enum, what in (
        ("stock-play", StockPlay, "which stock cards are in play"),
        ("goal", Goal, "clear the pyramid, or all 52 cards"),
    ):
        values = [e.value for e in enum]
        knobs.add_argument(f"--{knob}", choices=values, metavar=knob.split("-")[-1].upper(),
                           default=argparse.SUPPRESS,
                           help=f"{what}: {', '.join(values)}")  # fmt: skip
    knobs.add_argument("--draw-count", type=integer, choices=(1, 3), default=argparse.SUPPRESS,
                       help="cards turned per draw")  # fmt: skip
    knobs.add_argument("--waste-start", type=integer, choices=(0, 1), default=argparse.SUPPRESS,
                       help="cards the deal turns onto the waste")  # fmt: skip


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The preset with the knobs given: the one place the command line builds rules."""
    knobs = {k: v for k, v in vars(args).items() if k in KNOBS and k != "name"}
    return get_rules(args.rules, **knobs)


def game_from_args(args: argparse.Namespace) -> Game:
    """The game the options name (``--deal``, ``--code`` or ``--cards``; deal 0 if none)."""
    rules = rules_from_args(args)
    # `is not None`, not truthiness: an empty --code is an error, never deal 0.
    if args.code is not None:  # read as a code even when it is not one, for the right error
        return Game(Deal(decode_code(args.code)), rules)
    given = [v for v in (args.cards, args.deal) if v is not None]
    return Game(to_deal(given[0] if given else 0), rules)


def add_backend_args(p: argparse.ArgumentParser, workers: int = 2, what: str = "agent") -> None:
    """``--workers``, ``--backend`` and ``--address``: where a sweep's chunks of deals run.

    Shared by ``pyramid-env benchmark`` and the experiment scripts (winnability, labels), so
    every sweep command takes them alike; :func:`pyramid_env.sweep.check_backend` checks them.
    """
    p.add_argument(
        "--workers",
        type=integer,
        default=workers,
        metavar="N",
        help=f"processes per {what}, or the CPUs of a local Ray instance: 1 to {MAX_WORKERS} "
        f"(default {workers})",
    )
    p.add_argument(
        "--backend",
        default="local",
        choices=["local", "ray"],
        help="local: this machine's processes; ray: Ray tasks (the ray extra), on a local Ray "
        "instance or the cluster at --address (default local)",
    )
    p.add_argument(
        "--address",
        metavar="ADDR",
        help="a running Ray cluster to use (auto, or ray://HOST:10001), with --backend ray",
    )


def add_sweep_args(p: argparse.ArgumentParser, chunk: int, workers: int) -> None:
    """:func:`add_backend_args`, plus ``--chunk`` and ``--resume``: a script's stored sweep.

    Shared by the experiment scripts that keep their finished chunks (winnability, labels).
    """
    p.add_argument("--chunk", type=integer, default=chunk, help=f"deals per task (default {chunk})")
    p.add_argument(
        "--resume",
        action="store_true",
        help="keep the chunks a stopped run with the same settings wrote, and play the rest",
    )
    add_backend_args(p, workers=workers, what="run")
