"""Replays: a game's moves, to watch again in a browser and to find the move that lost it.

:mod:`~pyramid_env.replay.format` is the file (:class:`Replay`, :func:`open_replay`),
:mod:`~pyramid_env.replay.analysis` the solver's verdict per position (:func:`analyse`),
:mod:`~pyramid_env.replay.page` the self-contained page (:func:`write_html`) and
:mod:`~pyramid_env.replay.command` ``pyramid-env replay FILE [--out page.html] [--analyse]``.
"""

from pyramid_env.replay.analysis import DEFAULT_BUDGET, DEFAULT_TIME_LIMIT, Analysis, analyse
from pyramid_env.replay.command import add_replay_arguments, main_replay
from pyramid_env.replay.format import (
    REPLAY_FIELDS,
    REPLAY_FORMAT,
    REPLAY_VERSION,
    Replay,
    open_replay,
)
from pyramid_env.replay.page import page_data, render_html, write_html

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_TIME_LIMIT",
    "REPLAY_FIELDS",
    "REPLAY_FORMAT",
    "REPLAY_VERSION",
    "Analysis",
    "Replay",
    "add_replay_arguments",
    "analyse",
    "main_replay",
    "open_replay",
    "page_data",
    "render_html",
    "write_html",
]
