"""The replay file: a game's deal, rules and moves, built from games, saves and solver lines.

A :class:`Replay` is checked when built (its moves replay through the engine), so one that exists
always replays. It comes from a :class:`~pyramid_env.engine.game.Game` or its save file, from a
solver line, or from its own JSON file (:meth:`Replay.load`); :func:`open_replay` reads either
kind of file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyramid_env.engine import state as st
from pyramid_env.engine.deal import DealLike, to_deal
from pyramid_env.engine.errors import CardError, PyramidError, check_file_fields, describe, is_int
from pyramid_env.engine.files import read_json, write_atomic
from pyramid_env.engine.game import SAVE_FORMAT, Game
from pyramid_env.engine.notation import format_move, parse_move
from pyramid_env.engine.rules import Rules, get_rules

REPLAY_FORMAT = "pyramid-env-replay"
REPLAY_VERSION = 1
REPLAY_FIELDS = ("format", "version", "deal", "rules", "moves", "agent", "seen")
"""The fields of a replay file; ``agent`` and ``seen`` may be left out (or null)."""
_REQUIRED = REPLAY_FIELDS[:5]
_ALL_STOCK = (1 << st.STOCK_SIZE) - 1


def _field_error(name: str, value: Any, allowed: str) -> CardError:
    return CardError(f"replay field {name!r} is {describe(value)}: {allowed}")


@dataclass(frozen=True, slots=True)
class Replay:
    """A deal, its rules and the moves played from its opening; checked when built.

    Building one replays the moves through the engine's checked path, so a ``Replay`` that
    exists always replays; move texts are stored as the engine writes them (``'5d+8s'``).

    Attributes:
        deal: the deal code (anything ``to_deal`` takes is accepted and stored as its code).
        rules: the :class:`Rules` (a preset name is accepted).
        moves: the moves in order, as text: ``'draw'``, ``'recycle'``, ``'Kd'``, ``'5d+8s'``.
        agent: who played, for the page's title (``None``: not recorded).
        seen: per position, the stock cycle cards that player had seen (bit ``i``: deal card
            ``29 + i``, as the env's ``known_stock()``); ``None``: the cards turned face up so
            far (:meth:`seen_masks`).
    """

    deal: str
    rules: Rules
    moves: tuple[str, ...]
    agent: str | None = None
    seen: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        """Normalise the fields and replay the moves, naming the field that is wrong.

        Raises:
            CardError: a bad deal, a malformed moves list, agent or seen.
            RulesError: bad rules.
            IllegalMove: a move that does not replay, naming it by its index.
        """
        try:
            code = to_deal(self.deal).code
        except PyramidError as err:
            raise type(err)(f"replay field 'deal': {err}") from None
        try:
            rules = get_rules(self.rules)
        except PyramidError as err:
            raise type(err)(f"replay field 'rules': {err}") from None
        moves = self.moves
        if isinstance(moves, str) or not isinstance(moves, Sequence):
            raise _field_error("moves", moves, "it must be a list of moves as text")
        s = st.State(code, rules)
        texts = []
        for i, text in enumerate(moves):
            if not isinstance(text, str):
                raise _field_error(
                    f"moves[{i}]", text, "a move is text: 'draw', 'recycle', 'Kd', '5d+8s'"
                )
            try:
                move = parse_move(s, text)
                texts.append(format_move(s, move))
                st.apply_checked(s, move)
            except PyramidError as err:
                raise type(err)(f"replay field 'moves', move {i} ({text!r}): {err}") from None
        if self.agent is not None and not isinstance(self.agent, str):
            raise _field_error("agent", self.agent, "it must be text or None")
        seen = self.seen
        if seen is not None:
            if isinstance(seen, str) or not isinstance(seen, Sequence):
                raise _field_error("seen", seen, "it must be a list of masks, one per position")
            if len(seen) != len(texts) + 1:
                raise CardError(
                    f"replay field 'seen' has {len(seen)} mask(s): it needs one per position, "
                    f"{len(texts) + 1} for {len(texts)} move(s)"
                )
            for i, mask in enumerate(seen):
                if not is_int(mask) or not 0 <= mask <= _ALL_STOCK:
                    raise _field_error(
                        f"seen[{i}]", mask, f"a mask is an int in 0..{_ALL_STOCK} (24 bits)"
                    )
            seen = tuple(int(m) for m in seen)
        object.__setattr__(self, "deal", code)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "moves", tuple(texts))
        object.__setattr__(self, "seen", seen)

    # -- building one ----------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Game, agent: str | None = None) -> Replay:
        """The replay of a game, through its save (see :meth:`from_save`)."""
        return cls.from_save(game.to_dict(), agent)

    @classmethod
    def from_save(cls, save: str | Path | Mapping[str, Any], agent: str | None = None) -> Replay:
        """The replay of a ``Game.save`` file (or the dict ``Game.to_dict`` writes).

        The replay is the line that stands (each ``'undo'`` takes back the move before it);
        ``seen`` keeps what undone draws showed, since undo lets a player peek at the stock.

        Raises:
            CardError: not JSON, not a save, or a game started from a board, not an opening.
            RulesError, IllegalMove: as :meth:`Game.from_dict`. OSError: unreadable file.
        """
        data = save if isinstance(save, Mapping) else _read_json(save, "save")
        game = Game.from_dict(data)
        if "board" in data:
            raise CardError(
                "save field 'board': this game started from a board, not from a deal's "
                "opening; a replay starts from the opening, so it cannot replay it"
            )
        return cls._from_log(game.deal.code, game.rules, game.log, agent)

    @classmethod
    def _from_log(cls, deal: str, rules: Rules, log: Sequence[str], agent: str | None) -> Replay:
        """The standing line of a game's log (move texts and ``'undo'``), with what was seen."""
        s = st.State(deal, rules)
        seen = st.face_up(s)
        stack: list[tuple[str, st.Token, int]] = []  # (move, undo token, seen before it)
        for entry in log:
            if entry == "undo":
                st.undo(s, stack.pop()[1])
                continue
            move = parse_move(s, entry)
            text = format_move(s, move)
            stack.append((text, st.apply_checked(s, move), seen))
            seen |= st.face_up(s)
        masks = (*(m for _, _, m in stack), seen) if "undo" in log else None
        return cls(deal, rules, tuple(t for t, _, _ in stack), agent, masks)

    @classmethod
    def from_solution(
        cls, deal: DealLike, rules: Rules | str | None, solution: Any, agent: str = "solver"
    ) -> Replay:
        """The replay of a solver's winning line from the opening of ``deal``.

        The solver reads the stock order, so ``seen`` is the whole stock at every position.

        Args:
            deal: the deal solved (a number, code, text or ``Deal``).
            rules: its rules (a preset name or ``Rules``; ``None`` for the default preset).
            solution: a ``pyramid_env.solver.Solution`` of ``solve(deal, rules)``.
            agent: the name shown on the page.

        Raises:
            CardError: no winning line (a loss or unknown), or not a Solution. IllegalMove:
                the line does not replay from the opening.
        """
        line = getattr(solution, "line", None)
        if line is None:
            status = getattr(getattr(solution, "status", None), "value", None)
            raise CardError(
                f"solution {describe(solution)[:80]} has no winning line to replay "
                f"(status {status!r}): only a 'win' has one"
            )
        seen = (_ALL_STOCK,) * (len(line) + 1)
        return cls(to_deal(deal).code, get_rules(rules), tuple(line), agent, seen)

    # -- reading it ------------------------------------------------------------------------
    def positions(self) -> Iterator[st.State]:
        """Every position, the opening first and then one after each move (fresh copies)."""
        s = st.State(self.deal, self.rules)
        yield s.copy()
        for text in self.moves:
            st.apply_checked(s, parse_move(s, text))
            yield s.copy()

    def seen_masks(self) -> tuple[int, ...]:
        """Per position, the stock cycle cards the player had seen (bit ``i``: card ``29+i``).

        ``seen`` when given; else the cards turned face up at this position or before
        (``face_up``, as the env's observation keeps them with ``observe_stock="seen"``).
        """
        if self.seen is not None:
            return self.seen
        masks, seen = [], 0
        for s in self.positions():
            seen |= st.face_up(s)
            masks.append(seen)
        return tuple(masks)

    # -- files -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-able form; ``Replay.from_dict(r.to_dict()) == r``."""
        return {
            "format": REPLAY_FORMAT,
            "version": REPLAY_VERSION,
            "deal": self.deal,
            "rules": self.rules.to_dict(),
            "moves": list(self.moves),
            "agent": self.agent,
            "seen": None if self.seen is None else list(self.seen),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Replay:
        """Inverse of :meth:`to_dict`; every field is checked.

        Raises:
            CardError: not a replay of this format and version, an unknown or missing field,
                or a bad value, naming the field.
            RulesError: bad ``rules``, naming the knob. IllegalMove: a move that does not
                replay, naming it.
        """
        check_file_fields(
            data, "replay", REPLAY_FORMAT, REPLAY_VERSION, REPLAY_FIELDS, _REQUIRED,
            "Replay.to_dict()", "file",
        )  # fmt: skip
        deal = data["deal"]
        if not isinstance(deal, str):
            raise _field_error("deal", deal, "it must be a deal code 'P2-...'")
        rules = data["rules"]
        if not isinstance(rules, Mapping):  # a bare preset name would hide knob changes
            raise _field_error("rules", rules, "it must be a dict, as Rules.to_dict() writes")
        try:
            rules = Rules.from_dict(rules)
        except PyramidError as err:
            raise type(err)(f"replay field 'rules': {err}") from None
        moves = data["moves"]
        if not isinstance(moves, list):
            raise _field_error("moves", moves, "it must be a list of moves as text")
        seen = data.get("seen")
        if seen is not None and not isinstance(seen, list):
            raise _field_error("seen", seen, "it must be a list of masks, one per position")
        seen = None if seen is None else tuple(seen)
        return cls(deal, rules, tuple(moves), data.get("agent"), seen)

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_dict` as JSON to ``path``."""
        write_atomic(path, json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        """Read a file written by :meth:`save`.

        Raises:
            CardError: not JSON, or not a replay (see :meth:`from_dict`); RulesError,
                IllegalMove as :meth:`from_dict`. OSError: the file cannot be read.
        """
        return cls.from_dict(_read_json(path, "replay"))


def _read_json(path: str | Path, what: str) -> Any:
    return read_json(path, what)


def open_replay(path: str | Path) -> Replay:
    """A replay file (:meth:`Replay.save`) or a game save (``Game.save``), told by its format.

    Raises:
        CardError: not JSON, or neither kind of file. Others as the two readers.
    """
    data = _read_json(path, "replay")
    fmt = data.get("format") if isinstance(data, Mapping) else None
    if fmt == SAVE_FORMAT:
        return Replay.from_save(data)
    if fmt == REPLAY_FORMAT:
        return Replay.from_dict(data)
    raise CardError(
        f"file {str(path)!r} has format {fmt!r}: give a {REPLAY_FORMAT} file (Replay.save) or "
        f"a {SAVE_FORMAT} file (Game.save)"
    )
