"""The front ends of ``pyramid-env play``: a full-screen board (blessed) and one command a line.

:func:`run_terminal` draws a :class:`~pyramid_env.play.session.PlaySession` with blessed (the
``play`` extra: colours, the cursor, a command line) and turns keys into the session's commands;
:func:`run_lines` is the plain front end, for a pipe or a terminal without blessed (``--plain``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO

from pyramid_env.engine import state as st
from pyramid_env.engine.cards import CARD_NAMES
from pyramid_env.engine.layout import ROWS, slot
from pyramid_env.engine.moves import STOCK, WASTE
from pyramid_env.play.cursor import DECK
from pyramid_env.play.session import PlaySession

if TYPE_CHECKING:  # blessed is the optional `play` extra; only the full-screen board needs it
    from blessed import Terminal

WIDTH, HEIGHT = 80, 24
_PYRAMID_X, _PYRAMID_Y, _PANEL_X = 2, 3, 38
_PILES_Y, _STATUS_Y, _MESSAGE_Y, _MESSAGE_LINES = 11, 15, 16, 5
KEYS = "arrows move · Enter/Space pick · Esc let go · type a command, Enter · 'help'"


def _card(term: Terminal, card: int | None, cursor: bool, selected: bool, hidden: str = "") -> str:
    """One 4-column cell: ``' Kd '``, ``'[Kd]'`` under the cursor, ``'<Kd>'`` when picked.

    Red suits are red; the marks are plain characters as well as colours, so the board reads
    the same in a terminal without colour (and in a screen capture).
    """
    name = hidden or (CARD_NAMES[card] if card is not None else "..")
    left, right = ("[", "]") if cursor else ("<", ">") if selected else (" ", " ")
    colour = ""
    if card is None and not hidden:
        colour = term.dim
    elif not hidden and name[1] in "dh":
        colour = term.red
    mark = term.black_on_yellow if selected else term.reverse if cursor else ""
    return f"{mark}{left}{colour}{name}{term.normal}{mark}{right}{term.normal}"


def frame(term: Terminal, session: PlaySession, line: str, overlay: str | None = None) -> list[str]:
    """The screen as 24 lines of styled text, for an 80x24 terminal (wider is fine).

    Rows: header and rules; the pyramid (counters to its right); the piles with the seen stock
    and the waste; the status line; the last answer; the keys; the command line. An answer too
    long for its rows (``help``) is drawn over the board instead, until the next key.
    """
    g, s = session.game, session.game.state
    width = min(term.width or WIDTH, 200)
    rows = [""] * HEIGHT
    if width < WIDTH or (term.height or HEIGHT) < HEIGHT:  # drawn rows would overlap
        rows[0] = f"make the terminal at least {WIDTH}x{HEIGHT} (it is {width}x{term.height})"
        return [term.truncate(row, width) for row in rows[: max(1, term.height or 1)]]
    rows[0] = term.bold(f"Pyramid · {session.header()}")
    rows[1] = term.dim(g.rules.describe())
    cursor, picked = session.stop(), session.selected
    for r in range(ROWS):
        cells = [
            _card(term, s.card_at(i), i == cursor, i == picked)
            for i in (slot(r, c) for c in range(r + 1))
        ]
        rows[_PYRAMID_Y + r] = " " * (_PYRAMID_X + 2 * (ROWS - 1 - r)) + "".join(cells)
    for k, (name, value) in enumerate(session.counters()):
        rows[_PYRAMID_Y + k] = _pad(term, rows[_PYRAMID_Y + k], _PANEL_X) + f"{name:8}{value}"
    deck = _card(term, None, cursor == DECK, False, hidden="##" if s.stock_size else "--")
    piles = [f"stock{deck}{s.stock_size:<3}"]
    piles.append(f"waste{_card(term, s.card_at(WASTE), cursor == WASTE, picked == WASTE)}")
    if s.knobs.drawn_spot or s.knobs.face_up_top:
        kind = "drawn" if s.knobs.drawn_spot else "face-up"
        piles.append(f"{kind}{_card(term, s.card_at(STOCK), cursor == STOCK, picked == STOCK)}")
    rows[_PILES_Y] = "  " + "   ".join(piles)
    rows[_PILES_Y + 1] = "  " + session.stock_text()
    waste = " ".join(CARD_NAMES[c] for c in s.waste_cards)
    room = width - 12
    rows[_PILES_Y + 2] = "  waste: " + (waste if len(waste) <= room else ".." + waste[-room:])
    status = session.status_line()
    paint = {st.Status.WON: term.bold_green, st.Status.LOST: term.bold_red}.get(g.status, term.bold)
    rows[_STATUS_Y] = paint(status)
    message = _wrap(overlay or session.message, width - 2)
    if overlay:
        for k, text in enumerate(message[: _MESSAGE_Y + _MESSAGE_LINES - _PYRAMID_Y]):
            rows[_PYRAMID_Y + k] = text
        for k in range(_PYRAMID_Y + len(message), _MESSAGE_Y + _MESSAGE_LINES):
            rows[k] = ""
    else:
        for k, text in enumerate(message[:_MESSAGE_LINES]):
            rows[_MESSAGE_Y + k] = text
    rows[HEIGHT - 3] = term.dim(KEYS)
    rows[HEIGHT - 2] = "> " + line[-(width - 4) :] + term.reverse(" ")
    return [term.truncate(row, width) for row in rows]


def _pad(term: Terminal, text: str, column: int) -> str:
    return text + " " * max(1, column - term.length(text))


def _wrap(text: str, width: int) -> list[str]:
    """Lines of ``text`` within ``width``, keeping its own line breaks (help is laid out)."""
    out: list[str] = []
    for para in text.splitlines() or [""]:
        out += textwrap.wrap(para, width, break_on_hyphens=False, subsequent_indent="  ") or [""]
    return out


def run_terminal(session: PlaySession, term: Terminal) -> None:
    """Play ``session`` full screen until ``quit``, Ctrl-D or Ctrl-C.

    The terminal is restored on every way out (the blessed context managers), an exception
    included. Keys: arrows move the cursor; Enter runs the typed command, or picks the card
    under the cursor when nothing is typed; Space picks too when nothing is typed; Esc clears
    the typed text, or lets go of a picked card; Backspace edits.
    """
    line, overlay = "", None
    arrows = {term.KEY_LEFT: "left", term.KEY_RIGHT: "right", term.KEY_UP: "up"}
    arrows[term.KEY_DOWN] = "down"
    shown: tuple | None = None
    with term.fullscreen(), term.cbreak(), term.hidden_cursor():
        try:
            while not session.quit:
                size = (term.width, term.height)
                rows = frame(term, session, line, overlay)
                if shown is None or shown[0] != size:
                    print(term.home + term.clear, end="")
                if shown is None or shown != (size, rows):
                    print("".join(term.move_yx(y, 0) + row + term.clear_eol
                                  for y, row in enumerate(rows)), end="", flush=True)  # fmt: skip
                    shown = (size, rows)
                key = term.inkey(timeout=1)  # the timeout refreshes a play-time clock
                if not key:
                    continue
                overlay = None
                if key.code in arrows:
                    session.handle(arrows[key.code])
                elif key.code == term.KEY_ENTER or key in ("\r", "\n"):
                    session.handle(line if line.strip() else "select")
                    line = ""
                elif key == " " and not line:
                    session.handle("select")
                elif key.code == term.KEY_ESCAPE:
                    if not line:
                        session.handle("cancel")
                    line = ""
                elif key.code in (term.KEY_BACKSPACE, term.KEY_DELETE) or key == "\x7f":
                    line = line[:-1]
                elif key == "\x04" and not line:  # Ctrl-D on an empty line: leave
                    session.handle("quit")
                elif key.isprintable() and not key.is_sequence:
                    line += str(key)
                if session.message.count("\n") >= _MESSAGE_LINES:
                    overlay = session.message
        except KeyboardInterrupt:  # Ctrl-C: every move is autosaved already
            pass


def run_lines(session: PlaySession, inp: Iterable[str], out: TextIO) -> None:
    """Play ``session`` one command a line: the plain front end, for pipes and dumb terminals."""
    print(session.screen(), file=out)
    print(session.message, file=out)
    print("> ", end="", file=out, flush=True)
    for line in inp:
        answer = session.handle(line)
        if session.quit:
            break
        print(session.screen(), file=out)
        if answer:
            print(answer, file=out)
        print("> ", end="", file=out, flush=True)
    print(file=out)
