"""``pyramid-env play``: the options, the session they describe, and the front end to run.

Every change to the game is written to an autosave file (``~/.pyramid-env/autosave.json`` or
``--save PATH``) in :meth:`Game.save`'s format; ``--resume`` goes on with it, and a new game
started beside an unfinished one says so and offers ``resume``.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path

from pyramid_env.argtypes import integer
from pyramid_env.engine import state as st
from pyramid_env.engine.errors import PyramidError
from pyramid_env.engine.game import Game
from pyramid_env.options import HelpFormatter, add_rule_args, game_from_args, rules_from_args
from pyramid_env.play.session import DEFAULT_AUTOSAVE, WELCOME, PlaySession, seeded_deals
from pyramid_env.play.terminal import run_lines, run_terminal

PLAY_DESCRIPTION = """\
Play a deal in the terminal: the pyramid, the stock face down (cards you
have seen named), the score and counters. Pick cards with the arrow keys and
Enter, or type moves and commands ('help' lists them). Every move is
autosaved; --resume goes on with the saved game. With no deal given, a
random one (from --seed, if given)."""


def unfinished_save(path: Path) -> str | None:
    """A line offering the unfinished game saved at ``path``, or ``None`` if there is none."""
    if not path.exists():
        return None
    try:
        game = Game.load(path)
    except (OSError, PyramidError):
        return None
    if game.status is not st.Status.PLAYING or not game.log:
        return None
    return (
        f"an unfinished game ({game.deal.label()} · {game.rules.name}, {game.moves} moves) is "
        f"autosaved: 'resume' goes on with it; your first move here replaces it"
    )


def add_play_args(p: argparse.ArgumentParser) -> None:
    """The options of ``play``: a deal, the rules and their knobs, and the session's own."""
    # The deal options are cli's but for the default: a random deal here rather than deal 0.
    g = p.add_mutually_exclusive_group()
    g.add_argument("--deal", type=integer, metavar="N",
                   help="deal number (0 <= N < 2**64); the default is a random deal")  # fmt: skip
    g.add_argument("--code", help="deal code, 'P2-...'")
    g.add_argument("--cards", help="52 cards: pyramid apex first, then the stock, top first")
    add_rule_args(p)
    p.add_argument("--seed", type=integer, metavar="S",
                   help="deal from this seed: the first deal (unless one is given) and every "
                   "'new' one; without it 'new' deals the next deal number")  # fmt: skip
    p.add_argument("--resume", action="store_true",
                   help="go on with the autosaved game (its deal and rules)")  # fmt: skip
    p.add_argument("--save", metavar="PATH", default=str(DEFAULT_AUTOSAVE),
                   help=f"the autosave file (default {DEFAULT_AUTOSAVE})")  # fmt: skip
    p.add_argument("--plain", action="store_true",
                   help="no full-screen board: one command a line (also used when the input "
                   "or output is not a terminal)")  # fmt: skip


def session_from_args(args: argparse.Namespace) -> PlaySession:
    """The session the options describe.

    Raises:
        PyramidError: bad options (a bad deal or rule, --resume with a deal, nothing to resume,
            a --save path that is a folder).
    """
    if not str(args.save).strip():
        raise PyramidError("--save '' names no file: give a path, or leave --save out")
    autosave = Path(args.save).expanduser()
    if autosave.is_dir():
        raise PyramidError(f"--save {str(autosave)!r} is a folder: give the path of a file")
    given = any(getattr(args, k) is not None for k in ("deal", "code", "cards"))
    deals = None if args.seed is None else seeded_deals(args.seed)
    if args.resume:
        if given:
            raise PyramidError("--resume plays the saved game: leave out --deal/--code/--cards")
        if not autosave.exists():
            raise PyramidError(f"no saved game to resume in {autosave}")
        return PlaySession(Game.load(autosave), deals=deals, autosave=autosave)
    if given:
        game = game_from_args(args)
    else:
        deals = deals or seeded_deals(secrets.randbits(64))
        game = Game(next(deals), rules_from_args(args))
    session = PlaySession(game, deals=deals, autosave=autosave)
    session.message = unfinished_save(autosave) or WELCOME
    return session


def run_play(args: argparse.Namespace) -> int:
    """Run ``play`` with parsed options; returns the exit status (cli.py's conventions).

    Raises:
        PyramidError: bad options, before any play (the caller reports it, exit status 2).
    """
    session = session_from_args(args)
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        run_lines(session, sys.stdin, sys.stdout)
    else:
        try:
            from blessed import Terminal
        except ImportError:
            print(
                "pyramid-env play: error: the full-screen board needs blessed: "
                "pip install 'pyramid-env[play]' (or play line by line with --plain)",
                file=sys.stderr,
            )
            return 1
        run_terminal(session, Terminal())
    if session.autosave_error is not None:  # the last change is not in the file: say so, fail
        print(
            f"pyramid-env play: error: the game could not be saved in {session.autosave}: "
            f"{session.autosave_error}",
            file=sys.stderr,
        )
        return 1
    if session.game.status is st.Status.PLAYING and session.game.log and session.autosave:
        print(f"game saved in {session.autosave}: 'pyramid-env play --resume' goes on with it")
    return 0


def main_play(argv: Sequence[str] | None = None) -> int:
    """``pyramid-env play`` on its own (``python -m pyramid_env.play``); the exit status."""
    parser = argparse.ArgumentParser(
        prog="pyramid-env play", description=PLAY_DESCRIPTION, formatter_class=HelpFormatter
    )
    add_play_args(parser)
    args = parser.parse_args(argv)
    try:
        return run_play(args)
    except PyramidError as err:
        print(f"pyramid-env play: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"pyramid-env play: error: {err}", file=sys.stderr)
        return 1
