"""The game as a person plays it, with no terminal in it: :class:`PlaySession`.

A session holds a :class:`~pyramid_env.engine.Game` and takes commands as text (``'5d 8s'``,
``'r7c1'``, ``'draw'``, ``'undo'``, ``'hint'``, ``'left'``, ``'select'``...; ``help`` lists them)
and answers in text, so the game a person plays is tested without a terminal; the front ends
(:mod:`pyramid_env.play.terminal`) only draw it and map keys to commands. The board shows the
stock as the env's ``observe_stock="seen"`` does (the docs' getting-started page says how).
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from pyramid_env.engine import state as st
from pyramid_env.engine.cards import CARD_NAMES, KING, RANK, CardError
from pyramid_env.engine.deal import MASK64, SplitMix64
from pyramid_env.engine.errors import IllegalMove, PyramidError
from pyramid_env.engine.game import Game
from pyramid_env.engine.layout import ROWS, SLOTS, slot, slot_name
from pyramid_env.engine.moves import DRAW, KING_AT, PAIR_AT, RECYCLE, STOCK, WASTE, Move
from pyramid_env.engine.notation import format_board, format_move, parse_move, stock_line
from pyramid_env.play import cursor
from pyramid_env.play.cursor import DECK

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


class PlaySession:
    """A game as a person plays it: text commands in, text answers out, no terminal.

    ``PlaySession(Game(5, "msc"), autosave=None).handle("draw")`` is ``'played draw'``.

    Attributes:
        game: the :class:`Game` being played (replaced by ``new`` and ``load``).
        seen: stock cycle positions face up since the deal was (re)started (bit ``i``: deal
            card ``SLOTS + i``), as the env's ``observe_stock="seen"``.
        cursor: the place under the keyboard cursor (a slot, ``WASTE``, ``STOCK``, :data:`DECK`).
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
        """The board as text, the stock as the player sees it (seen cards named)."""
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
        """The places the cursor visits, in left-to-right order (:func:`cursor.stops`)."""
        return cursor.stops(self.game.state)

    def stop(self) -> int:
        """The cursor's place, moved to the nearest stop if its card has gone."""
        self.cursor = cursor.settle(self.stops(), self.cursor)
        return self.cursor

    def _move_cursor(self, way: str) -> str:
        here = self.stop()
        self.cursor = cursor.step(self.stops(), here, way)
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
