"""Rule sets: one frozen value object, and named presets for the rulebooks we implement.

Published Pyramid games differ in a handful of knobs: how many passes through the stock, whether
a card may pair with its last coverer, which stock cards are in play, what counts as a win, and
how the score and undo behave. ``Rules`` holds all of them; every function of the engine takes
the ``Rules`` it plays by, so one engine serves every variant (two copies would drift).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class StockPlay(StrEnum):
    """Which stock cards can be played, besides pyramid cards."""

    WASTE_TOP = "waste-top"
    """Only the top card of the waste (000, 002, 003, 004)."""
    DRAWN_AND_WASTE = "drawn-and-waste"
    """The card just drawn, in a spot of its own, and the waste top; they may pair (001)."""
    FACE_UP_STOCK = "face-up-stock"
    """The stock top lies face up and plays without a draw, with the waste top; they may pair
    (Microsoft Solitaire Collection, ``msc``)."""


class Goal(StrEnum):
    """What must be cleared to win."""

    PYRAMID = "pyramid"
    """The 28 pyramid cards; the stock and waste may keep cards (every rulebook's default)."""
    ALL = "all"
    """All 52 cards: pyramid, stock and waste (000's "full-clear" variant)."""


class UndoMoves(StrEnum):
    """What an undo does to the move counter."""

    DECREMENT = "decrement"
    """Undo takes the move back: the counter goes down, as if it was never played."""
    KEEP = "keep"
    """The counter does not go down (002)."""
    COUNT = "count"
    """Undo is itself a move: the counter goes up (004)."""


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points: per card removed, plus bonuses.

    ``score = pyramid_card * pyramid cards removed + stock_card * stock cards removed``
    ``+ clear_bonus`` once the pyramid is empty, ``+ max(0, win_bonus - win_per_move * moves -
    win_per_second * seconds)`` once the game is won (the bonus never goes negative: our reading
    of 004, which does not say).
    """

    pyramid_card: int = 10
    stock_card: int = 0
    clear_bonus: int = 0
    win_bonus: float = 0.0
    win_per_move: float = 0.0
    win_per_second: float = 0.0


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set. Build one with :func:`get_rules` (a preset plus overrides).

    Attributes:
        name: the preset it came from, for display (``"relaxed"``, ``"two-card"``, ...).
        passes: trips through the stock allowed (recycles allowed = ``passes - 1``);
            ``None`` for unlimited.
        covering_pair: a card may be removed with the one card still covering it (000).
        stock_play: which stock cards are in play; see :class:`StockPlay`.
        waste_start: cards turned onto the waste by the deal itself (0, or 1 in 002).
        goal: see :class:`Goal`.
        draw_count: cards turned per draw (1, or 3 for draw-three).
        dead_deal_ends_game: the game ends, lost, as soon as 000's dead-deal test holds (no
            removal now and no stock or waste card that could ever help). Otherwise it ends only
            when no action at all is left. The test itself is always available as a query.
        scoring: see :class:`Scoring`.
        undo_limit: how many of the last actions can be undone; ``None`` for all.
        undo_moves: see :class:`UndoMoves`.
    """

    name: str = "relaxed"
    passes: int | None = None
    covering_pair: bool = True
    stock_play: StockPlay = StockPlay.WASTE_TOP
    waste_start: int = 0
    goal: Goal = Goal.PYRAMID
    draw_count: int = 1
    dead_deal_ends_game: bool = True
    scoring: Scoring = field(default_factory=Scoring)
    undo_limit: int | None = None
    undo_moves: UndoMoves = UndoMoves.DECREMENT

    def __post_init__(self) -> None:
        """Coerce enum strings and reject impossible values with a message naming the knob."""
        for name, enum in (("stock_play", StockPlay), ("goal", Goal), ("undo_moves", UndoMoves)):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, enum(value))
            except ValueError:
                choices = ", ".join(e.value for e in enum)
                raise ValueError(f"rule {name}={value!r} is not one of: {choices}") from None
        if isinstance(self.scoring, dict):
            object.__setattr__(self, "scoring", Scoring(**self.scoring))
        if self.passes is not None and (not isinstance(self.passes, int) or self.passes < 1):
            raise ValueError(f"rule passes={self.passes!r} must be an integer >= 1, or None")
        if self.waste_start not in (0, 1):
            raise ValueError(f"rule waste_start={self.waste_start!r} must be 0 or 1")
        if self.draw_count not in (1, 3):
            raise ValueError(f"rule draw_count={self.draw_count!r} must be 1 or 3")
        if self.undo_limit is not None and self.undo_limit < 0:
            raise ValueError(f"rule undo_limit={self.undo_limit!r} must be >= 0, or None")

    @property
    def recycles(self) -> int | None:
        """Recycles (turns of the waste) allowed: ``passes - 1``, ``None`` if unlimited."""
        return None if self.passes is None else self.passes - 1

    def replace(self, **changes: Any) -> Rules:
        """A copy with some knobs changed; unknown knob names are an error that lists the known."""
        _check_knobs(changes)
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict; ``Rules.from_dict(r.to_dict()) == r``."""
        return dataclasses.asdict(self) | {
            "stock_play": self.stock_play.value,
            "goal": self.goal.value,
            "undo_moves": self.undo_moves.value,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`."""
        _check_knobs(data)
        return cls(**data)

    def describe(self) -> str:
        """One line: ``relaxed: unlimited passes, covering pair, waste-top, clear pyramid``."""
        passes = "unlimited passes" if self.passes is None else f"{self.passes} pass(es)"
        parts = [passes, "covering pair" if self.covering_pair else "no covering pair"]
        parts += [self.stock_play.value, f"clear {self.goal.value}", f"draw {self.draw_count}"]
        if self.waste_start:
            parts.append("1 card on the waste at the start")
        return f"{self.name}: " + ", ".join(parts)


KNOBS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))


def _check_knobs(names: Any) -> None:
    unknown = sorted(set(names) - set(KNOBS))
    if unknown:
        raise ValueError(f"unknown rule {', '.join(map(repr, unknown))}; known: {', '.join(KNOBS)}")


PRESETS: dict[str, Rules] = {
    rules.name: rules
    for rules in (
        # 000 (cardgames.io): unlimited recycling, covering pair, the game declares dead deals.
        Rules(name="relaxed"),
        # 000's strict variant: the stock is dealt through once.
        Rules(name="one-pass", passes=1),
        # 001 (Poozee): drawn card and waste top both play; 3 passes by default (1-3 offered).
        Rules(
            name="two-card",
            passes=3,
            covering_pair=False,
            stock_play=StockPlay.DRAWN_AND_WASTE,
            dead_deal_ends_game=False,
            scoring=Scoring(pyramid_card=10, stock_card=5, clear_bonus=100),
        ),
        # 002: one card on the waste at the start, unlimited passes, undo of the last 100 actions.
        Rules(
            name="unlimited",
            covering_pair=False,
            waste_start=1,
            dead_deal_ends_game=False,
            undo_limit=100,
            undo_moves=UndoMoves.KEEP,
        ),
        # 003: one turn of the waste.
        Rules(name="two-pass", passes=2, covering_pair=False, dead_deal_ends_game=False),
        # 004 (Hevagames): two redeals; a win bonus that shrinks with moves and time.
        Rules(
            name="three-pass",
            passes=3,
            covering_pair=False,
            dead_deal_ends_game=False,
            scoring=Scoring(
                pyramid_card=10, stock_card=2, win_bonus=600, win_per_move=2, win_per_second=0.5
            ),
            undo_moves=UndoMoves.COUNT,
        ),
        # Microsoft Solitaire Collection (shared/oracle/msc-1500): face-up stock top, 3 passes.
        Rules(
            name="msc",
            passes=3,
            covering_pair=False,
            stock_play=StockPlay.FACE_UP_STOCK,
            dead_deal_ends_game=False,
        ),
    )
}
DEFAULT_PRESET = "relaxed"


def get_rules(rules: str | Rules | None = None, **overrides: Any) -> Rules:
    """A preset by name (or a ``Rules`` as is), with knobs overridden.

    ``get_rules("two-card", passes=1)``; ``get_rules("relaxed", goal="all", draw_count=3)``.

    Raises:
        ValueError: an unknown preset (listing the known ones), an unknown knob or a bad value.
    """
    if rules is None:
        rules = DEFAULT_PRESET
    if isinstance(rules, str):
        try:
            rules = PRESETS[rules]
        except KeyError:
            raise ValueError(
                f"unknown preset {rules!r}; known presets: {', '.join(PRESETS)}"
            ) from None
    return rules.replace(**overrides) if overrides else rules
