"""Play a deal in the terminal: ``pyramid-env play [--rules R] [--deal N | --code C]``.

:mod:`~pyramid_env.play.session` is the game as a player drives it, text commands in and
answers out, with no terminal in it (:class:`PlaySession`); :mod:`~pyramid_env.play.cursor` the
keyboard cursor's stops; :mod:`~pyramid_env.play.terminal` the front ends (the blessed board and
the line-by-line one); :mod:`~pyramid_env.play.command` the command line.
"""

from pyramid_env.play.command import (
    PLAY_DESCRIPTION,
    add_play_args,
    main_play,
    run_play,
    session_from_args,
    unfinished_save,
)
from pyramid_env.play.cursor import DECK
from pyramid_env.play.session import (
    DEFAULT_AUTOSAVE,
    HELP,
    SOLVER_SECONDS,
    WELCOME,
    PlaySession,
    seeded_deals,
)
from pyramid_env.play.terminal import HEIGHT, KEYS, WIDTH, frame, run_lines, run_terminal

__all__ = [
    "DECK",
    "DEFAULT_AUTOSAVE",
    "HEIGHT",
    "HELP",
    "KEYS",
    "PLAY_DESCRIPTION",
    "SOLVER_SECONDS",
    "WELCOME",
    "WIDTH",
    "PlaySession",
    "add_play_args",
    "frame",
    "main_play",
    "run_lines",
    "run_play",
    "run_terminal",
    "seeded_deals",
    "session_from_args",
    "unfinished_save",
]
