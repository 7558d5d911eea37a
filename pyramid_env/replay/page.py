"""The replay page: one self-contained HTML file that draws the table at every step.

The page's HTML, CSS and script are package data (``static/page.html``, ``page.css``,
``page.js``), put together here with the replay as embedded JSON: inline CSS and script,
nothing fetched, so it opens from disk and can be mailed. The rules are applied in Python by the
engine; the page only draws, from the deal's 52 cards and a few integers per position.
"""

from __future__ import annotations

import functools
import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from pyramid_env.engine import state as st
from pyramid_env.engine.cards import CARD_NAMES
from pyramid_env.engine.errors import CardError
from pyramid_env.engine.files import write_atomic
from pyramid_env.engine.notation import parse_move
from pyramid_env.replay.analysis import Analysis
from pyramid_env.replay.format import Replay


@functools.cache
def _static(name: str) -> str:
    """One of the page's files (``page.html``, ``page.css``, ``page.js``), read once."""
    return resources.files("pyramid_env.replay").joinpath("static", name).read_text("utf-8")


_STATUS_CODE = {st.Status.PLAYING: 0, st.Status.WON: 1, st.Status.LOST: 2}


def page_data(replay: Replay, analysis: Analysis | None = None) -> dict[str, Any]:
    """What the page embeds: the deal's cards and a few integers per position and move.

    ``pos[k]`` is position ``k`` (after ``k`` moves) as ``[pyr, left, ptr, drawn, recycles,
    known, waste_top, second, status]``: the engine's five integers, the stock cycle cards
    the player knew there (what they had seen, plus what lies face up), the cycle indices of
    the waste top and of the drawn card or face-up stock top (``-1``: none) and 0/1/2 for
    playing/won/lost. ``moves[k]`` is ``[text, kind, place...]``, the places it removes cards
    from (slots 0..27, 28 the waste top, 29 the drawn card or face-up stock top).

    Raises:
        CardError: ``analysis`` is not one of this replay (another number of positions).
    """
    masks = replay.seen_masks()
    pos, moves = [], []
    states = list(replay.positions())
    for k, s in enumerate(states):
        known = (masks[k] | st.face_up(s)) & s.left
        w, d = s.tops()
        code = _STATUS_CODE[st.status(s)]
        pos.append([s.pyr, s.left, s.ptr, int(s.drawn), s.recycles, known, w, d, code])
        if k < len(replay.moves):
            move = parse_move(s, replay.moves[k])
            moves.append([replay.moves[k], int(move.kind), *move.places])
    data: dict[str, Any] = {
        "deal": replay.deal,
        "rules": replay.rules.name,
        "rulesText": replay.rules.describe(),
        # What the second playable stock card is, as the rules' knobs say (not the mode's name).
        "drawnSpot": replay.rules.knobs.drawn_spot,
        "faceUpTop": replay.rules.knobs.face_up_top,
        "passes": replay.rules.passes,
        "agent": replay.agent,
        "cards": [CARD_NAMES[c] for c in states[0].deal.cards],
        "pos": pos,
        "moves": moves,
        "analysis": None,
    }
    if analysis is not None:
        if len(analysis.verdicts) != len(states):
            raise CardError(
                f"analysis has {len(analysis.verdicts)} verdicts, but the replay has "
                f"{len(states)} positions: it is the analysis of another game"
            )
        data["analysis"] = {
            "verdicts": "".join(v[0] for v in analysis.verdicts),  # w, l, u
            "searched": "".join("1" if a else "0" for a in analysis.searched),
            "losing": analysis.losing_move,
            "better": analysis.better_move,
            "betterLine": None if analysis.better_line is None else list(analysis.better_line),
        }
    return data


def render_html(replay: Replay, analysis: Analysis | None = None) -> str:
    """The page as text (see :func:`write_html`)."""
    data = json.dumps(page_data(replay, analysis), separators=(",", ":"))
    # "<" only occurs inside JSON strings, where \u003c means the same: no "</script>" ends
    # the data early, whatever an agent's name says.
    data = data.replace("<", "\\u003c")
    who = f" · {replay.agent}" if replay.agent else ""
    title = html.escape(f"Pyramid replay · {replay.rules.name}{who} · {replay.deal}")
    return (
        _static("page.html")
        .replace("__TITLE__", title)
        .replace("__CSS__", _static("page.css"))
        .replace("__JS__", _static("page.js"))
        .replace("__DATA__", data)
    )


def write_html(replay: Replay, path: str | Path, analysis: Analysis | None = None) -> Path:
    """Write the replay as one self-contained HTML page and return its path.

    No fonts, images or requests (a content security policy forbids them). Given an
    ``analysis``, each position shows its verdict and the losing move is marked; what the page
    shows is in the docs' evaluation page, and ``window.replayState()`` returns it, for tests.

    Raises:
        CardError: ``analysis`` belongs to another game. OSError: the file cannot be written.
    """
    return write_atomic(path, render_html(replay, analysis))  # never half a page
