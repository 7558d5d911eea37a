"""``pyramid-env replay FILE [--out PAGE] [--analyse]``: a saved game or replay file as a page."""

from __future__ import annotations

import argparse
from pathlib import Path

from pyramid_env.argtypes import positive, seconds
from pyramid_env.engine.errors import PyramidError
from pyramid_env.replay.analysis import DEFAULT_BUDGET, DEFAULT_TIME_LIMIT, analyse
from pyramid_env.replay.format import open_replay
from pyramid_env.replay.page import write_html


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``pyramid-env replay``, for ``pyramid_env.cli`` to add to its parser."""
    parser.add_argument("file", metavar="FILE", help="a game save (Game.save) or a replay file")
    parser.add_argument(
        "--out", metavar="PAGE", help="the page to write (default: FILE with .html)"
    )
    parser.add_argument(
        "--analyse",
        "--analyze",
        action="store_true",
        help="ask the solver about every position and mark the move that lost the deal "
        "(the solver knows the stock order)",
    )
    parser.add_argument(
        "--budget",
        type=positive,
        default=DEFAULT_BUDGET,
        metavar="N",
        help="with --analyse: positions per search (default: no limit but --time-limit)",
    )
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=f"with --analyse: seconds per search (default {DEFAULT_TIME_LIMIT:g})",
    )


def main_replay(args: argparse.Namespace) -> int:
    """``pyramid-env replay FILE [--out PAGE] [--analyse]``: write the page, print where.

    Raises:
        PyramidError: a bad file (the CLI turns it into exit status 2). OSError: unreadable
            input or unwritable page.
    """
    out = Path(args.out) if args.out is not None else Path(args.file).with_suffix(".html")
    if not str(args.out if args.out is not None else out).strip():
        raise PyramidError("--out '': give the page's path, or leave --out out for FILE.html")
    if out.exists() and Path(args.file).exists() and out.resolve() == Path(args.file).resolve():
        raise PyramidError(
            f"--out {str(out)!r} is the input file itself: the page would overwrite the game"
        )
    replay = open_replay(args.file)
    analysis = None
    if args.analyse:
        analysis = analyse(replay, budget=args.budget, time_limit=args.time_limit)
    write_html(replay, out, analysis)
    print(f"{len(replay.moves)} moves · {replay.rules.name} · {replay.deal}")
    if analysis is not None:
        print(analysis.summary(replay))
    print(f"wrote {out}")
    return 0
