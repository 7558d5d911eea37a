"""Play a deal in the terminal: ``pyramid-env play [--rules R] [--deal N | --code C]``.

Two halves, so that the game a person plays is tested without a terminal:

* :class:`PlaySession` is the game as a player drives it, with no terminal in it. It holds a
  :class:`~pyramid_env.engine.Game` and takes commands as text (``'5d 8s'``, ``'r7c1'``,
  ``'draw'``, ``'undo'``, ``'hint'``, ``'left'``, ``'select'``...; ``help`` lists them) and
  answers in text. The keyboard cursor lives here too, as the commands ``left``, ``right``,
  ``up``, ``down``, ``select`` and ``cancel``: the terminal only maps keys to them.
* :func:`run_terminal` draws a session with blessed (colours, the cursor, a command line) and
  turns keys into commands; :func:`run_lines` is the plain front end, one command a line, for
  a pipe or a terminal without blessed (``--plain``).

The board is shown as a player at the table sees it: the stock face down, except the cards
that have been face up since the deal was (re)started, which is what the env shows with its
default ``observe_stock="seen"`` (:func:`~pyramid_env.engine.state.face_up`, accumulated).
Undone moves count (the player saw those cards); a restart or a new deal forgets them, as the
env's ``reset`` does, and a resumed save gets them back by replaying its log, so the board is
the same after a resume as before it.

Illegal moves are answered with the engine's own reason
(:func:`~pyramid_env.engine.state.why_illegal`, through the ``IllegalMove`` that ``Game.play``
raises). Help from the solver (``solve``, ``winnable?``) is labelled as knowing the stock
order, which the player does not: it is the ceiling, not a fair hint; ``hint`` is 000's rule of
thumb (:mod:`pyramid_env.engine.hint`).

Every change to the game is written to an autosave file (``~/.pyramid-env/autosave.json`` or
``--save PATH``) in :meth:`Game.save`'s format; ``--resume`` goes on with it, and a new game
started beside an unfinished one says so and offers ``resume``.
"""

from __future__ import annotations

import argparse
import re
import secrets
import sys
import textwrap
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pyramid_env.argtypes import integer
from pyramid_env.engine import state as st
from pyramid_env.engine.cards import CARD_NAMES, KING, RANK, CardError
from pyramid_env.engine.deal import MASK64, SplitMix64
from pyramid_env.engine.errors import IllegalMove, PyramidError
from pyramid_env.engine.game import Game
from pyramid_env.engine.layout import ROW_COL, ROWS, SLOTS, slot, slot_name
from pyramid_env.engine.moves import DRAW, KING_AT, PAIR_AT, PLACES, RECYCLE, STOCK, WASTE, Move
from pyramid_env.engine.notation import format_board, format_move, parse_move, stock_line
from pyramid_env.options import (
    HelpFormatter,
    add_rule_args,
    game_from_args,
    rules_from_args,
)

if TYPE_CHECKING:  # blessed is the optional `play` extra; only the terminal front end needs it
    from blessed import Terminal

DECK = PLACES
"""The cursor's stop on the stock pile itself (not a move place): selecting it draws or
recycles, as clicking the pile does in card games."""

DEFAULT_AUTOSAVE = Path("~/.pyramid-env/autosave.json")
SOLVER_SECONDS = 10.0
"""How long ``solve`` and ``winnable?`` may think before answering "no answer in time"."""

HELP = """\
commands (type one, then Enter):
  5d 8s   5d+8s     remove a pair making 13 (cards by name); Kd removes a King
  r7c1  w  s        pick by place: row 7 col 1, the waste top, the drawn or
                    face-up stock card (e.g. 'w r7c1', 's')
  draw (d)          turn a stock card; recycle (r): turn the waste over
  undo (u)          take back the last action
  restart           this deal again from the start;  new: another deal
  hint (h)          000's hint: a rule of thumb, not search
  solve, best       the solver's move (it knows the stock order: a ceiling)
  winnable?         can this still be won? (the solver, knowing the stock)
  save FILE         save the game;  load FILE: play a saved game
  resume            go on with the autosaved game
  help (?)          this list;  quit (q): leave (the game is autosaved)
keys: the arrows move the cursor over the cards you can play, Enter or
Space picks the card under it: two picks making 13 remove the pair, a King
goes at once, picking the stock draws (or recycles); Esc lets go."""

WELCOME = "arrows and Enter pick cards, or type a move or command ('help' lists them)"

_SLOT = re.compile(r"r([1-9])c([1-9])")
_COMMAND = {  # every spelling of a command -> its name
    **dict.fromkeys(("help", "?"), "help"),
    **dict.fromkeys(("quit", "q", "exit"), "quit"),
    **dict.fromkeys(("draw", "d"), "draw"),
    **dict.fromkeys(("recycle", "r"), "recycle"),
    **dict.fromkeys(("undo", "u"), "undo"),
    **dict.fromkeys(("hint", "h"), "hint"),
    **dict.fromkeys(("solve", "best"), "solve"),
    **dict.fromkeys(("winnable?", "winnable", "w?"), "winnable"),
    **dict.fromkeys(("cancel", "esc"), "cancel"),
    **{name: name for name in ("restart", "new", "save", "load", "resume", "select")},
    **{name: name for name in ("left", "right", "up", "down")},
}


def _spot(place: int) -> tuple[int, int]:
    """Where a cursor stop lies on the table: (row, column in half-card steps).

    ``row 1 col 1 -> (0, 6)``, ``row 7 col 1 -> (6, 0)``; the piles lie on a row of their own
    under the pyramid, stock pile, waste, then the drawn or face-up card.
    """
    if place < SLOTS:
        r, c = ROW_COL[place]
        return r, ROWS - 1 - r + 2 * c
    return ROWS + 1, {DECK: 0, WASTE: 4, STOCK: 8}[place]


def _distance(a: int, b: int) -> tuple[int, int]:
    (ra, xa), (rb, xb) = _spot(a), _spot(b)
    return abs(ra - rb), abs(xa - xb)


class PlaySession:
    """A game as a person plays it: text commands in, text answers out, no terminal.

    Example:
        >>> s = PlaySession(Game(5, "msc"), autosave=None)
        >>> s.handle("6s 8c")
        'illegal: 6s + 8c = 14, not 13'
        >>> s.handle("draw"), s.game.moves
        ('played draw', 1)

    Attributes:
        game: the :class:`Game` being played (replaced by ``new`` and ``load``).
        seen: stock cycle positions that have been face up since the deal was (re)started
            (bit ``i``: deal card ``SLOTS + i``), as the env's ``observe_stock="seen"``.
        cursor: the place under the keyboard cursor: a slot, ``WASTE``, ``STOCK`` or
            :data:`DECK`; kept on a playable place by :meth:`stops`.
        selected: the place picked first for a pair, or ``None``.
        message: the answer to the last command.
        quit: set by ``quit``; the front ends stop then.
        autosave: the file every change is written to, or ``None`` for none.
    """

    def __init__(
        self,
        game: Game,
        *,
        deals: Iterator[int] | None = None,
        autosave: str | Path | None = DEFAULT_AUTOSAVE,
        solver_seconds: float = SOLVER_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Start playing ``game``.

        Args:
            game: the game, at its start or anywhere in it.
            deals: the deal numbers ``new`` deals, e.g. :func:`seeded_deals`; ``None``: the
                next deal number (a random deal after a deal given by code).
            autosave: written after every change; ``None`` turns it off.
            solver_seconds: the time ``solve`` and ``winnable?`` may take.
            clock: seconds, for the preset scores that count play time (``three-pass``);
                the engine never reads a clock, so the session does.
        """
        self.autosave = None if autosave is None else Path(autosave).expanduser()
        self.autosave_error: str | None = None  # why the last autosave failed, if it did
        self.solver_seconds = solver_seconds
        self._deals = deals
        self._clock = clock
        self.quit = False
        self.message = WELCOME
        self.cursor: int | None = None
        self.selected: int | None = None
        self._start_game(game)

    # -- the game and what is seen of it --------------------------------------------------------
    def _start_game(self, game: Game) -> None:
        """Take ``game`` as the game in play: seen cards from its log, clock from now."""
        self.game = game
        self.seen = _seen_along(game)
        self.cursor = self.selected = None
        self._t0, self._t_end = self._clock(), None
        self._tick()

    def _tick(self) -> None:
        """After every change: note newly face-up cards and stop the clock on a win."""
        self.seen |= st.face_up(self.game.state)
        won = self.game.status is st.Status.WON
        if won and self._t_end is None:
            self._t_end = self._clock()
        elif not won:
            self._t_end = None

    def _changed(self) -> str:
        """Bookkeeping after a change of the game; returns a note if the autosave failed."""
        self._tick()
        self.selected = None
        if self.autosave is None:
            return ""
        try:
            self.autosave.parent.mkdir(parents=True, exist_ok=True)
            self.game.save(self.autosave)
        except OSError as err:
            self.autosave_error = str(err.strerror or err)
            return f" (autosave to {self.autosave} failed: {self.autosave_error})"
        self.autosave_error = None
        return ""

    @property
    def seconds(self) -> float:
        """Play time of this deal so far (stopped at a win), for time-scored presets."""
        return (self._t_end if self._t_end is not None else self._clock()) - self._t0

    def known(self) -> int:
        """The live stock cycle positions whose card the player may see (face up once)."""
        return self.seen & self.game.state.left

    def score(self) -> float:
        """The preset's score now, play time included where the preset counts it."""
        return self.game.score(self.seconds)

    # -- what a front end shows -------------------------------------------------------------------
    def header(self) -> str:
        """``'deal #5 · msc · code P2-...'``."""
        g = self.game
        return f"{g.deal.label()} · {g.rules.name} · code {g.deal.code}"

    def counters(self) -> list[tuple[str, str]]:
        """The counters beside the board: pass, moves, pyramid cards left, score (and time)."""
        g = self.game
        passes = "unlimited" if g.rules.passes is None else str(g.rules.passes)
        out = [
            ("pass", f"{g.pass_number}/{passes}"),
            ("moves", str(g.moves)),
            ("pyramid", f"{g.state.pyramid_left} left"),
            ("score", f"{self.score():g}"),
        ]
        if g.rules.scoring.win_per_second:
            m, s = divmod(int(self.seconds), 60)
            out.append(("time", f"{m}:{s:02d}"))
        return out

    def status_line(self) -> str:
        """Won, lost (in the engine's words), a dead deal, a pick waiting, or playing."""
        g = self.game
        if g.status is st.Status.WON:
            return f"won! score {self.score():g}: 'new' deals another, 'restart' plays it again"
        if g.status is st.Status.LOST:
            reason = st.why_illegal(g.state, DRAW)  # the engine's words for why play stopped
            return f"{reason}: 'undo', 'restart' or 'new'"
        if g.is_dead():
            return "no card left can help (000's dead-deal test): 'undo', 'restart' or 'new'"
        if self.selected is not None:
            return f"picked {self.place_label(self.selected)}: now a card making 13 with it"
        return "playing"

    def board_text(self) -> str:
        """The board as text, the stock as the player sees it (see the module docstring)."""
        return format_board(self.game.state, known=self.known())

    def stock_text(self) -> str:
        """The ``stock:`` line as the player sees it: seen cards named, the others ``??``."""
        return stock_line(self.game.state, self.known())

    def screen(self) -> str:
        """Everything a player is shown, as plain text (the line-by-line front end prints it)."""
        counters = " · ".join(f"{k} {v}" for k, v in self.counters())
        cursor = self.stop()
        return "\n".join(
            [
                self.header(),
                self.board_text(),
                counters,
                self.status_line(),
                f"cursor: {self.place_label(cursor)}",
            ]
        )

    def place_label(self, place: int) -> str:
        """A place in words: ``'6s (row 7 col 1)'``, ``'Qs (waste top)'``, ``'the stock'``."""
        s = self.game.state
        if place == DECK:
            what = "draw" if s.stock_size else "recycle"
            return f"the stock ({s.stock_size} left: picking it means {what})"
        card = s.card_at(place)
        name = CARD_NAMES[card] if card is not None else "nothing"
        if place < SLOTS:
            return f"{name} ({slot_name(place)})"
        if place == WASTE:
            return f"{name} (waste top)"
        kind = "drawn" if s.knobs.drawn_spot else "face-up stock"
        return f"{name} ({kind} card)"

    # -- the cursor --------------------------------------------------------------------------
    def stops(self) -> list[int]:
        """The places the cursor visits, in left-to-right order.

        The cards a player could pick: exposed pyramid cards (and, where the rules allow a
        covering pair, a card whose one remaining coverer is exposed), ordered across the
        table; then the stock pile (:data:`DECK`), the waste top and the drawn or face-up
        stock card. Covered cards are skipped: no move can take them now.
        """
        s = self.game.state
        pyramid = [i for i in range(SLOTS) if s.is_exposed(i)]
        if s.rules.covering_pair:
            pyramid += [
                i
                for i in range(SLOTS)
                if s.pyr >> i & 1 and len(cov := s.coverers(i)) == 1 and s.is_exposed(cov[0])
            ]
        pyramid.sort(key=lambda p: _spot(p)[::-1])
        piles = [p for p in (WASTE, STOCK) if s.card_at(p) is not None]
        return pyramid + [DECK, *piles]

    def stop(self) -> int:
        """The cursor's place, moved to the nearest stop if its card has gone."""
        stops = self.stops()
        if self.cursor not in stops:
            old = self.cursor
            self.cursor = stops[0] if old is None else min(stops, key=lambda p: _distance(p, old))
        return self.cursor

    def _move_cursor(self, way: str) -> str:
        here = self.stop()
        stops = self.stops()
        if way in ("left", "right"):
            step = 1 if way == "right" else -1
            self.cursor = stops[(stops.index(here) + step) % len(stops)]
        else:  # the nearest stop on the nearest row above (below) with one
            row = _spot(here)[0]
            ahead = [p for p in stops if (_spot(p)[0] < row if way == "up" else _spot(p)[0] > row)]
            if ahead:
                self.cursor = min(ahead, key=lambda p: _distance(p, here))
        return f"cursor: {self.place_label(self.cursor)}"

    def _select(self) -> str:
        """Pick the card under the cursor: a pair on the second pick, a King at once."""
        place = self.stop()
        s = self.game.state
        if place == DECK:
            self.selected = None
            return self._play(DRAW if s.stock_size else RECYCLE)
        if RANK[s.card_at(place)] == KING:
            self.selected = None
            return self._play(KING_AT[place])
        if self.selected is None:
            self.selected = place
            return f"picked {self.place_label(place)}"
        first, self.selected = self.selected, None
        if first == place:
            return f"let go of {self.place_label(place)}"
        return self._play_places([first, place])

    # -- commands ------------------------------------------------------------------------------
    def handle(self, text: str) -> str:
        """Carry out one command and return the answer (also kept in :attr:`message`).

        Args:
            text: a command (``help`` lists them) or a move by cards or places.
        """
        self.message = self._handle(text.strip())
        return self.message

    def _handle(self, text: str) -> str:
        if not text:
            return ""
        word, _, rest = text.partition(" ")
        command = _COMMAND.get(word.lower())
        rest = rest.strip()
        if command in ("save", "load") and not rest:
            return f"{command} needs a file: '{command} FILE'"
        if command is None:
            return self._pick(text)
        if rest and command not in ("save", "load"):
            return f"'{word}' takes nothing after it; 'help' lists the commands"
        if command in ("left", "right", "up", "down"):
            return self._move_cursor(command)
        return getattr(self, f"_cmd_{command}")(rest)

    def _cmd_help(self, _: str) -> str:
        return HELP

    def _cmd_quit(self, _: str) -> str:
        self.quit = True
        return "bye"

    def _cmd_draw(self, _: str) -> str:
        return self._play(DRAW)

    def _cmd_recycle(self, _: str) -> str:
        return self._play(RECYCLE)

    def _cmd_select(self, _: str) -> str:
        return self._select()

    def _cmd_cancel(self, _: str) -> str:
        if self.selected is None:
            return ""
        place, self.selected = self.selected, None
        return f"let go of {self.place_label(place)}"

    def _cmd_undo(self, _: str) -> str:
        last = _last_action(self.game.log)
        try:
            self.game.undo()
        except IllegalMove as err:
            return f"cannot undo: {err}"
        return f"took back {last}" + self._changed()

    def _cmd_restart(self, _: str) -> str:
        self.game.restart()
        self._start_game(self.game)
        return f"{self.game.deal.label()} again from the start" + self._changed()

    def _cmd_new(self, _: str) -> str:
        number = self.game.deal.number
        if self._deals is None and number is None:  # a deal given by code: no next number
            self._deals = seeded_deals(secrets.randbits(64))
        number = next(self._deals) if self._deals else (number + 1) & MASK64
        self._start_game(Game(number, self.game.rules))
        return f"new game: {self.game.deal.label()}" + self._changed()

    def _cmd_hint(self, _: str) -> str:
        move = self.game.hint()
        if move is None:
            return "hint (000's rule of thumb): nothing useful is left"
        if move.places:
            self.cursor = move.places[0]
        elif move in (DRAW, RECYCLE):
            self.cursor = DECK
        return f"hint (000's rule of thumb): {format_move(self.game.state, move)}"

    def _over(self) -> str | None:
        status = self.game.status
        return None if status is st.Status.PLAYING else f"the game is {status.value}"

    def _cmd_solve(self, _: str) -> str:
        from pyramid_env.solver import Verdict, kernel, solve  # loads numba where installed

        label = "solver (it knows the stock order)"
        if over := self._over():
            return f"{label}: {over}"
        half = self.solver_seconds / 2
        # A shortest line is the best move, but in pure Python (no `fast` extra) its search
        # often takes far longer than a player waits: a short try, then any winning line.
        first = half if kernel.AVAILABLE else min(half, 1.0)
        sol = solve(self.game, shortest=True, time_limit=first)
        if sol.status is Verdict.UNKNOWN:
            sol = solve(self.game, time_limit=half)
        if sol.status is Verdict.LOSS:
            return f"{label}: no line wins from here"
        if sol.status is Verdict.UNKNOWN:
            return f"{label}: no answer within {self.solver_seconds:g} s"
        kind = "a shortest" if sol.shortest else "a"
        return f"{label}: {sol.line[0]}, the first of {kind} winning line of {sol.steps} steps"

    def _cmd_winnable(self, _: str) -> str:
        from pyramid_env.solver import Verdict, solve

        label = "still winnable? (the solver, knowing the stock order)"
        if over := self._over():
            return f"{label}: {over}"
        sol = solve(self.game, time_limit=self.solver_seconds)
        answer = {
            Verdict.WIN: f"yes, in {sol.steps} steps",
            Verdict.LOSS: "no: no line wins from here",
            Verdict.UNKNOWN: f"no answer within {self.solver_seconds:g} s",
        }[sol.status]
        return f"{label}: {answer}"

    def _cmd_save(self, path: str) -> str:
        target = Path(path).expanduser()
        try:
            self.game.save(target)
        except OSError as err:
            return f"could not save to {target}: {err.strerror or err}"
        return f"saved to {target}"

    def _cmd_load(self, path: str) -> str:
        target = Path(path).expanduser()
        try:
            game = Game.load(target)
        except OSError as err:
            return f"could not load {target}: {err.strerror or err}"
        except PyramidError as err:
            return f"could not load {target}: {err}"
        self._start_game(game)
        return f"loaded {target}: {game.deal.label()}, {game.moves} moves" + self._changed()

    def _cmd_resume(self, _: str) -> str:
        if self.autosave is None or not self.autosave.exists():
            return "no autosaved game to resume"
        return self._cmd_load(str(self.autosave))

    # -- moves ---------------------------------------------------------------------------------
    def _play(self, move: Move) -> str:
        """Play ``move``; an illegal one is answered with the engine's reason."""
        self.selected = None
        text = format_move(self.game.state, move)
        try:
            self.game.play(move)
        except IllegalMove as err:
            return f"illegal: {err}"
        note = self._changed()
        if self.game.status is st.Status.WON:
            return f"played {text}: won! score {self.score():g}" + note
        return f"played {text}" + note

    def _place(self, token: str) -> int:
        """The place a pick names: ``'w'``, ``'s'``, ``'r7c1'`` or a card in play.

        Raises:
            IllegalMove: a card that is not in play, saying where it is (the engine's words).
            CardError: neither a place nor a card.
        """
        t = token.lower()
        if t in ("w", "waste"):
            return WASTE
        if t in ("s", "stock"):
            return STOCK
        if m := _SLOT.fullmatch(t):
            row, col = int(m[1]), int(m[2])
            if not (row <= ROWS and col <= row):
                raise CardError(f"{token}: there is no row {row} col {col}; row R has R cards")
            return slot(row - 1, col - 1)
        if not 2 <= len(t) <= 3:
            raise CardError(f"{token!r} is neither a command nor a card")
        return parse_move(self.game.state, token).a  # a card alone parses as a King's place

    def _pick(self, text: str) -> str:
        """A move by cards or places: one (a King) or two (a pair), e.g. ``'5d 8s'``."""
        tokens = text.replace("+", " ").split()
        if len(tokens) > 2:
            return f"{text!r}: a move is one card (a King) or two making 13; 'help' lists more"
        try:
            places = [self._place(t) for t in tokens]
        except PyramidError as err:
            self.selected = None
            if isinstance(err, IllegalMove):
                return f"illegal: {err}"
            return f"{err}; 'help' lists the commands"
        return self._play_places(places)

    def _play_places(self, places: list[int]) -> str:
        if len(places) == 1:
            return self._play(KING_AT[places[0]])
        a, b = sorted(places)
        if a == b:
            self.selected = None
            return "illegal: the same card twice; a pair is two cards making 13"
        move = PAIR_AT.get((a, b))
        if move is None:  # as parse_move says it: such places never pair in any position
            self.selected = None
            names = " and ".join(self.place_label(p) for p in (a, b))
            return f"illegal: {names} can never be removed together: one lies above the other"
        return self._play(move)


def seeded_deals(seed: int) -> Iterator[int]:
    """Deal numbers drawn from ``seed`` by the engine's SplitMix64: the same deals forever."""
    rng = SplitMix64(seed)
    while True:
        yield rng.next_u64()


def _last_action(log: list[str]) -> str:
    """The action an undo would take back: the last one in ``log`` not undone already."""
    pending = 0
    for action in reversed(log):
        if action == "undo":
            pending += 1
        elif pending:
            pending -= 1
        else:
            return action
    return "nothing"


def _seen_along(game: Game) -> int:
    """The stock cards face up at some point of ``game``'s log, undone moves included."""
    start = Game.from_dict(game.to_dict() | {"log": []})
    seen = st.face_up(start.state)
    for action in game.log:
        start.undo() if action == "undo" else start.play(action)
        seen |= st.face_up(start.state)
    return seen


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


# -- the terminal front end ------------------------------------------------------------------------
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


# -- the command -----------------------------------------------------------------------------------
PLAY_DESCRIPTION = """\
Play a deal in the terminal: the pyramid, the stock face down (cards you
have seen named), the score and counters. Pick cards with the arrow keys and
Enter, or type moves and commands ('help' lists them). Every move is
autosaved; --resume goes on with the saved game. With no deal given, a
random one (from --seed, if given)."""


def add_play_args(p: argparse.ArgumentParser) -> None:
    """The options of ``play``: a deal, the rules and their knobs, and the session's own."""
    # cli.py imports this module, so its helpers are imported late; the deal options are
    # cli's but for the default, which is a random deal here rather than deal 0.

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


if __name__ == "__main__":
    sys.exit(main_play())
