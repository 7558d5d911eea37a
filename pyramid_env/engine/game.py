"""A game session: a position plus what a player sees around it.

``State`` is the position, kept minimal for search. ``Game`` adds the session: the move counter
(whose behaviour on undo differs by rulebook), a bounded undo stack, restart, score, the hint,
and save/load. Save files hold the deal, the full rules and the log of every action, undos
included, so loading replays the session and restores it exactly (position, counter, undo stack).
"""

from __future__ import annotations

import json
import operator
import re
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from pyramid_env.engine import state as st
from pyramid_env.engine.deal import Deal, DealLike, deal_number, shuffled_deck, to_deal
from pyramid_env.engine.errors import (
    CardError,
    IllegalMove,
    PyramidError,
    check_file_fields,
    describe,
    is_int,
)
from pyramid_env.engine.files import read_json, write_atomic
from pyramid_env.engine.hint import hint
from pyramid_env.engine.moves import MOVES, Move
from pyramid_env.engine.notation import format_board, format_move, parse_board, parse_move
from pyramid_env.engine.rules import Rules, Scoring, UndoMoves, get_rules

SAVE_FORMAT = "pyramid-env-save"
SAVE_VERSION = 1
SAVE_FIELDS = ("format", "version", "deal", "deal_number", "rules", "log", "board")
"""The fields of a save; all but ``board`` (only for a game started from a board) required."""
_T = TypeVar("_T")


def points(
    scoring: Scoring,
    pyramid_removed: Any,
    stock_removed: Any,
    cleared: Any,
    won: Any,
    moves: Any,
    seconds: Any = 0.0,
) -> Any:
    """The score from the numbers it depends on: the one statement of the scoring rule.

    Plain arithmetic (a flag multiplies its term; ``x * (x > 0)`` is ``max(0, x)``), so ints
    and bools for one game (:func:`score`) and numpy arrays for many (the vector env) go through
    the same code and cannot drift apart; a term the scoring does not use is left out. The
    arguments: the rules' :class:`~pyramid_env.engine.rules.Scoring`, pyramid and stock cards
    removed, the pyramid cleared and the goal reached (bools or 0/1), the move counter, and the
    play time (for time bonuses only).
    """
    pts = scoring.pyramid_card * pyramid_removed
    if scoring.stock_card:
        pts = pts + scoring.stock_card * stock_removed
    if scoring.clear_bonus:
        pts = pts + scoring.clear_bonus * cleared
    if scoring.win_bonus or scoring.win_per_move or scoring.win_per_second:
        bonus = scoring.win_bonus - scoring.win_per_move * moves - scoring.win_per_second * seconds
        pts = pts + won * bonus * (bonus > 0)
    return pts


def score(s: st.State, moves: int, seconds: float = 0.0) -> float:
    """The score of position ``s`` under its rules' scoring, after ``moves`` moves.

    :func:`points` on the position's numbers; ``seconds`` only feeds time bonuses. One function
    for the game, the env and (through :func:`points`) the vector env, so they cannot disagree.
    """
    return points(
        s.rules.scoring,
        28 - s.pyr.bit_count(),
        24 - s.left.bit_count(),
        s.pyr == 0,
        st.is_won(s),
        moves,
        seconds,
    )


class Game:
    """One deal being played under one rule set (the engine page has a worked example).

    Attributes:
        deal: the :class:`Deal`.
        rules: the :class:`Rules`.
        state: the current :class:`State` (treat as read-only; play through the game).
        moves: the move counter: every removal, draw and recycle counts; undo per the rules.
        log: every action so far as text (``'5d+8s'``, ``'draw'``, ``'undo'``...).
    """

    def __init__(
        self, deal: DealLike = 0, rules: Rules | str | None = None, **overrides: Any
    ) -> None:
        """Start ``deal`` (number, code, 52 cards as text, or ``Deal``) under ``rules``.

        ``overrides`` change knobs of the preset: ``Game(5, "two-card", passes=1)``.
        """
        self.deal: Deal = to_deal(deal)
        self.rules: Rules = get_rules(rules, **overrides)
        self._start: st.State | None = None  # a hand-built start position, if any
        self.restart()

    @classmethod
    def from_board(cls, text: str, rules: Rules | str | None = None, **overrides: Any) -> Game:
        """A game that starts from a position given as board text (see ``parse_board``).

        ``restart`` returns to that position, and saves record it.
        """
        start = parse_board(text, get_rules(rules, **overrides))
        game = cls(start.deal, start.rules)
        game._start = start
        game.restart()
        return game

    def restart(self) -> None:
        """Back to the start of the same deal: counter, log and undo stack cleared."""
        self.state = self._start.copy() if self._start else st.State(self.deal, self.rules)
        self.moves = 0
        self.log: list[str] = []
        self._undo: deque[st.Token] = deque(maxlen=self.rules.undo_limit)
        self._done = 0  # actions that could be undone if the stack were unbounded

    # -- playing -------------------------------------------------------------------------------
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves now, sorted by id (empty once the game is over)."""
        return st.legal_moves(self.state)

    def play(self, move: Move | int | str) -> Move:
        """Play a move given as a ``Move``, a move id or text (``'draw'``, ``'Kd'``, ``'5d+8s'``).

        Raises:
            IllegalMove: the move is not legal here, or not a move; the message says why.
            CardError: move text with a bad card.
        """
        if isinstance(move, str):
            move = parse_move(self.state, move)
        elif not isinstance(move, Move):
            if not is_int(move):
                raise IllegalMove(
                    f"move {describe(move)} is not a move: give a Move, a move id "
                    f"0..{len(MOVES) - 1} or text such as 'draw', 'Kd', '5d+8s'"
                )
            move = operator.index(move)  # numpy's integers are move ids too
            if not 0 <= move < len(MOVES):
                raise IllegalMove(f"move id {move!r} is out of range 0..{len(MOVES) - 1}")
            move = MOVES[move]
        text = format_move(self.state, move)
        token = st.apply_checked(self.state, move)
        self._undo.append(token)
        self._done += 1
        self.moves += 1
        self.log.append(text)
        return move

    def undo(self) -> None:
        """Take back the last action (removal, draw or recycle).

        Raises:
            IllegalMove: nothing to undo, or the rules' undo limit is reached.
        """
        if not self._undo:
            if self._done:
                raise st.IllegalMove(
                    f"undo reaches back only {self.rules.undo_limit} action(s) under these rules"
                )
            raise st.IllegalMove("nothing to undo")
        st.undo(self.state, self._undo.pop())
        self._done -= 1
        policy = self.rules.undo_moves
        self.moves += {UndoMoves.DECREMENT: -1, UndoMoves.KEEP: 0, UndoMoves.COUNT: 1}[policy]
        self.log.append("undo")

    def hint(self) -> Move | None:
        """000's hint (see :mod:`pyramid_env.engine.hint`), or ``None`` if nothing helps."""
        return hint(self.state)

    # -- where it stands -----------------------------------------------------------------------
    @property
    def status(self) -> st.Status:
        """Playing, won or lost."""
        return st.status(self.state)

    def is_dead(self) -> bool:
        """000's dead-deal test on the current position (available under every preset)."""
        return st.is_dead(self.state)

    @property
    def pass_number(self) -> int:
        """The pass through the stock in progress, from 1."""
        return self.state.recycles + 1

    def score(self, seconds: float = 0.0) -> float:
        """The preset's score; ``seconds`` is the play time, used by time bonuses only.

        The engine never reads a clock (results must not depend on the machine): callers that
        score by time pass it in.
        """
        return score(self.state, self.moves, seconds)

    def summary(self) -> str:
        """One line: status, pass, moves, pyramid cards left, score."""
        passes = "unlimited" if self.rules.passes is None else str(self.rules.passes)
        return (
            f"{self.status.value} · pass {self.pass_number}/{passes} · moves {self.moves} · "
            f"pyramid {self.state.pyramid_left} left · score {self.score():g}"
        )

    def __str__(self) -> str:
        """Header (deal, rules, code), the board with the stock face down, and the summary."""
        return "\n".join(
            [
                f"{self.deal.label()} · {self.rules.name} · code {self.deal.code}",
                format_board(self.state, hide_stock=True),
                self.summary(),
            ]
        )

    # -- save and load -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-able save: format, deal code and number, full rules, action log."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "deal": self.deal.code,
            "deal_number": self.deal.number,
            "rules": self.rules.to_dict(),
            "log": list(self.log),
        } | ({"board": format_board(self._start)} if self._start else {})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """Rebuild a game by replaying its log; every field is checked first.

        A save is trusted only as far as it agrees with itself: its ``deal_number`` must name
        its cards and its deal must be its board's, or the game would be shown and filed under
        the wrong deal. Log entries are move texts, move ids (ints) or ``"undo"``; ids and
        texts written another way (``"kd"``, ``"8s+5d"``) are saved back as the engine writes
        them.

        Raises:
            CardError: not a save of this format, a missing, unknown or malformed field, or
                fields that disagree, naming the field (and a log entry by its index).
            RulesError: bad ``rules``, naming the knob.
            IllegalMove: a log entry that does not replay here, naming the entry.
        """
        check_file_fields(
            data, "save", SAVE_FORMAT, SAVE_VERSION, SAVE_FIELDS, SAVE_FIELDS[:-1],
            "Game.to_dict()", "save",
        )  # fmt: skip
        rules = _in_field("rules", Rules.from_dict, data["rules"])
        cards = _in_field("deal", _saved_cards, data["deal"])
        number = data["deal_number"]
        if number is not None:
            number = _in_field("deal_number", deal_number, number)
            if shuffled_deck(number) != cards:
                raise CardError(
                    f"save field 'deal_number' is {number}, but the saved deal "
                    f"{data['deal']!r} is not deal #{number}: the number must name the cards"
                )
        log = data["log"]
        if not isinstance(log, list):
            raise CardError(f"save field 'log' is {describe(log)}: it must be a list of moves")
        for i, action in enumerate(log):
            if not (isinstance(action, str) or is_int(action)):
                raise CardError(
                    f"save log entry {i} is {describe(action)}: an entry is a move as text "
                    "('draw', 'Kd', '5d+8s'), a move id (int) or 'undo'"
                )
        if "board" in data:
            board = data["board"]
            if not isinstance(board, str):
                raise CardError(f"save field 'board' is {describe(board)}: it must be board text")
            game = _in_field("board", cls.from_board, board, rules)
            if game.deal.cards != cards:
                raise CardError(
                    "save field 'deal' is not the deal of its board: a game started from a "
                    f"board is saved with the deal {game.deal.code!r} that its board fills in"
                )
            if number is not None:
                raise CardError(
                    f"save field 'deal_number' is {number}, but a game started from a board "
                    "has no deal number: it must be null"
                )
        else:
            game = cls(Deal(cards, number), rules)
        for i, action in enumerate(log):
            try:
                is_undo = isinstance(action, str) and action.strip().lower() == "undo"
                game.undo() if is_undo else game.play(action)
            except PyramidError as err:
                raise type(err)(f"save log entry {i} ({action!r}): {err}") from None
        return game

    def save(self, path: str | Path) -> None:
        """Write the save as JSON to ``path``, whole or not at all (an older save survives)."""
        write_atomic(path, json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Game:
        """Read a save written by :meth:`save`.

        Raises:
            CardError: no such file, not a file, too large, not JSON (or nested too deeply), or
                not a valid save (see :meth:`from_dict`). RulesError, IllegalMove: as
                :meth:`from_dict`. OSError: the file cannot be read.
        """
        return cls.from_dict(read_json(path, "save"))


_NUMBER_TEXT = re.compile(r"\s*[+-]?[0-9]+\s*")


def _saved_cards(value: Any) -> tuple[int, ...]:
    """The cards of a save's ``deal``: a deal code or 52 cards (as text or card numbers).

    A deal number is refused here: it belongs in ``deal_number``, which is checked against the
    cards, so one deal cannot be saved under two names.
    """
    if isinstance(value, str) and not _NUMBER_TEXT.fullmatch(value):
        return to_deal(value).cards
    if isinstance(value, (list, tuple)):
        return to_deal(value).cards
    raise CardError(
        f"{describe(value)} must be a deal code 'P2-...' or 52 cards (deal numbers go in "
        "'deal_number')"
    )


def _in_field(name: str, parse: Callable[..., _T], *args: Any) -> _T:
    """``parse(*args)``, with any bad-input error prefixed by the save field it came from."""
    try:
        return parse(*args)
    except PyramidError as err:
        raise type(err)(f"save field {name!r}: {err}") from None
