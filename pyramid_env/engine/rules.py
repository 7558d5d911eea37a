"""Rule sets: one frozen value object, and named presets for the rulebooks we implement.

Published Pyramid games differ in a handful of knobs: how many passes through the stock, whether
a card may pair with its last coverer, which stock cards are in play, what counts as a win, and
how the score and undo behave. ``Rules`` holds all of them; every function of the engine takes
the ``Rules`` it plays by, so one engine serves every variant (two copies would drift).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pyramid_env.engine.errors import RulesError, as_int, describe, shorten
from pyramid_env.engine.primitives import Knobs

MAX_PASSES = 255
"""The most passes a rule set may allow (besides unlimited): the observation's byte."""
MAX_UNDO_LIMIT = 1_000_000
"""The longest undo history a rule set may keep (besides all of it)."""
MAX_POINTS = 10**9
"""The largest score parameter, either sign: scores stay exact in the vector env's arrays."""


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

    The per-card points and the clear bonus are integers; the win bonus and its rates are any
    numbers (stored as ``float``); all within ``-10**9..10**9`` (:data:`MAX_POINTS`), so a score
    fits the vector env's arrays exactly. Numpy numbers are accepted and stored as Python ones.
    """

    pyramid_card: int = 10
    stock_card: int = 0
    clear_bonus: int = 0
    win_bonus: float = 0.0
    win_per_move: float = 0.0
    win_per_second: float = 0.0

    def __post_init__(self) -> None:
        """Type-check every field once, here, so a score can never be computed from a string."""
        top = f"{MAX_POINTS:,}"
        for name in _INT_POINTS:
            allowed = f"must be an int in -{top}..{top}"
            value = as_int(getattr(self, name), f"rule scoring.{name}", allowed, RulesError)
            if abs(value) > MAX_POINTS:
                raise RulesError(f"rule scoring.{name}={shorten(value)} {allowed}")
            object.__setattr__(self, name, value)
        for name in _REAL_POINTS:
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, numbers.Real)
                or not math.isfinite(value)
                or abs(value) > MAX_POINTS
            ):
                raise RulesError(
                    f"rule scoring.{name}={describe(value)} must be a finite number in "
                    f"-{top}..{top}"
                )
            object.__setattr__(self, name, float(value))


_INT_POINTS = ("pyramid_card", "stock_card", "clear_bonus")
_REAL_POINTS = ("win_bonus", "win_per_move", "win_per_second")
SCORING_FIELDS: tuple[str, ...] = _INT_POINTS + _REAL_POINTS


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set: the knobs of play, each described on the rules page, and a name.

    Build one with :func:`get_rules` (a preset plus overrides). Every field is checked on
    construction: a wrong type or value is a :class:`~pyramid_env.engine.errors.RulesError`
    naming the knob, the value and what it can take, never a silent fallback. ``name`` is a
    preset's name only for that preset unchanged (it finds the solver's shipped labels); a
    changed preset is named with its changes (``"msc passes=1"``); other text names your own.
    Enum knobs (``stock_play``, ``goal``, ``undo_moves``) take the member or its value;
    ``scoring`` a :class:`Scoring` or a dict of its fields.
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
        """Check and normalise every knob once, so the engine can trust ``Rules`` everywhere.

        A misspelt value would otherwise change the game quietly: ``covering_pair="False"`` is
        truthy, ``passes=True`` reads as one pass, ``undo_limit="5"`` fails deep in a deque.
        Enum strings become enum members and numpy integers plain ints, so equal rules compare,
        hash and save the same.
        """
        put = object.__setattr__
        if not isinstance(self.name, str) or not self.name.strip():
            raise RulesError(f"rule name={describe(self.name)} must be a non-empty str")
        put(self, "passes", _count("passes", self.passes, 1, "unlimited passes", MAX_PASSES))
        for knob in ("covering_pair", "dead_deal_ends_game"):
            put(self, knob, _flag(knob, getattr(self, knob)))
        for knob, enum in _ENUMS.items():
            put(self, knob, _choice(knob, getattr(self, knob), enum))
        put(self, "waste_start", _one_of("waste_start", self.waste_start, (0, 1)))
        put(self, "draw_count", _one_of("draw_count", self.draw_count, (1, 3)))
        put(self, "scoring", _scoring(self.scoring))
        put(
            self, "undo_limit", _count("undo_limit", self.undo_limit, 0, "no limit", MAX_UNDO_LIMIT)
        )
        _check_name(self)

    @property
    def knobs(self) -> Knobs:
        """The rules as one named tuple of ints: what the fast paths and the kernel read."""
        return _knobs(self)

    @property
    def recycles(self) -> int | None:
        """Recycles (turns of the waste) allowed: ``passes - 1``, ``None`` if unlimited."""
        return None if self.passes is None else self.passes - 1

    def replace(self, **changes: Any) -> Rules:
        """A copy with some knobs changed; unknown knob names are an error that lists the known.

        A preset (or a preset already changed) keeps a name that says what differs from the
        preset, so changed rules never pass for the preset: ``get_rules("msc").replace(
        passes=1).name == "msc passes=1"``, and changing it back gives ``"msc"`` again. Rules with
        a name of their own keep it, unless ``name`` is among the changes. A ``scoring`` dict
        changes only the scoring fields it names.
        """
        _check_knobs(changes)
        if isinstance(changes.get("scoring"), Mapping):
            changes["scoring"] = _scoring(changes["scoring"], base=self.scoring)
        preset = None if "name" in changes else _preset_of(self.name)
        if preset is None:
            return dataclasses.replace(self, **changes)
        new = dataclasses.replace(self, name=_UNNAMED, **changes)
        object.__setattr__(new, "name", _changed_name(preset, new))
        return new

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict of every knob; ``Rules.from_dict(r.to_dict()) == r``."""
        return dataclasses.asdict(self) | {
            "stock_play": self.stock_play.value,
            "goal": self.goal.value,
            "undo_moves": self.undo_moves.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`; also reads a preset named with some knobs changed.

        A dict whose ``name`` is a preset is that preset with the other knobs given as overrides
        (``{"name": "msc"}`` is msc, ``{"name": "msc", "passes": 1}`` is ``"msc passes=1"``).
        Any other dict must give every knob, and a ``scoring`` dict every scoring field: a save
        that leaves a knob out must not be played by some default rule (relaxed's, once).

        Raises:
            RulesError: not a dict, an unknown knob, a missing one, or a bad value.
        """
        if not isinstance(data, Mapping):
            raise RulesError(
                f"rules={describe(data)} must be a dict of rule knobs (Rules.to_dict() writes one)"
            )
        _check_knobs(data)
        name = data.get("name")
        if isinstance(name, str) and name in PRESETS:
            return PRESETS[name].replace(**{k: v for k, v in data.items() if k != "name"})
        missing = [k for k in KNOBS if k not in data]
        if missing:
            raise RulesError(
                f"rules named {name!r} are not a preset ({', '.join(PRESETS)}), so every knob "
                f"must be given; missing: {', '.join(missing)}"
            )
        scoring = data["scoring"]
        if isinstance(scoring, Mapping):
            gone = [k for k in SCORING_FIELDS if k not in scoring]
            if gone and not set(scoring) - set(SCORING_FIELDS):
                raise RulesError(
                    f"rules named {name!r}: scoring must give every field; missing: "
                    f"{', '.join(gone)}"
                )
        return cls(**data)

    def describe(self) -> str:
        """One line: ``relaxed: unlimited passes, covering pair, waste-top, clear pyramid``."""
        if self.passes is None:
            passes = "unlimited passes"
        else:
            passes = f"{self.passes} pass" + ("" if self.passes == 1 else "es")
        parts = [passes, "covering pair" if self.covering_pair else "no covering pair"]
        parts += [self.stock_play.value, f"clear {self.goal.value}", f"draw {self.draw_count}"]
        if self.waste_start:
            parts.append("1 card on the waste at the start")
        return f"{self.name}: " + ", ".join(parts)


KNOBS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))

STOCK_PLAY_FLAGS: dict[StockPlay, dict[str, int]] = {
    StockPlay.WASTE_TOP: {"drawn_spot": 0, "face_up_top": 0, "stock_pairs": 0},
    StockPlay.DRAWN_AND_WASTE: {"drawn_spot": 1, "face_up_top": 0, "stock_pairs": 1},
    StockPlay.FACE_UP_STOCK: {"drawn_spot": 0, "face_up_top": 1, "stock_pairs": 1},
}
"""What each stock-play mode means, as the :class:`Knobs` flags every backend reads."""


@functools.lru_cache(maxsize=256)
def _knobs(rules: Rules) -> Knobs:
    return Knobs(
        max_recycles=-1 if rules.passes is None else rules.passes - 1,
        covering_pair=int(rules.covering_pair),
        draw_count=rules.draw_count,
        waste_start=rules.waste_start,
        goal_all=int(rules.goal is Goal.ALL),
        dead_deal_ends=int(rules.dead_deal_ends_game),
        **STOCK_PLAY_FLAGS[rules.stock_play],
    )


_ENUMS: dict[str, type[StrEnum]] = {"stock_play": StockPlay, "goal": Goal, "undo_moves": UndoMoves}
_UNNAMED = "(being renamed)"  # a placeholder no preset name check applies to


def _check_knobs(names: Iterable[Any]) -> None:
    unknown = sorted(repr(k) for k in set(names) - set(KNOBS))
    if unknown:
        raise RulesError(f"unknown rule {', '.join(unknown)}; known: {', '.join(KNOBS)}")


def _count(knob: str, value: Any, low: int, none: str, high: int) -> int | None:
    """An int knob in ``low..high``, or ``None`` (which means ``none``)."""
    if value is None:
        return None
    allowed = f"must be an int in {low}..{high:,}, or None for {none}"
    number = as_int(value, f"rule {knob}", allowed, RulesError)
    if not low <= number <= high:
        raise RulesError(f"rule {knob}={shorten(number)} {allowed}")
    return number


def _one_of(knob: str, value: Any, allowed: tuple[int, ...]) -> int:
    text = " or ".join(map(str, allowed))
    number = as_int(value, f"rule {knob}", f"must be the int {text}", RulesError)
    if number not in allowed:
        raise RulesError(f"rule {knob}={number} must be {text}")
    return number


def _flag(knob: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"):
        return bool(value)  # numpy's bool is a bool to its users; 0/1 or "False" are not
    raise RulesError(f"rule {knob}={describe(value)} must be True or False (a bool)")


def _choice(knob: str, value: Any, enum: type[StrEnum]) -> StrEnum:
    if isinstance(value, enum):
        return value
    choices = ", ".join(e.value for e in enum)
    if not isinstance(value, str):
        raise RulesError(f"rule {knob}={describe(value)} must be one of the strings: {choices}")
    try:
        return enum(value)
    except ValueError:
        raise RulesError(f"rule {knob}={value!r} is not one of: {choices}") from None


def _scoring(value: Any, base: Scoring | None = None) -> Scoring:
    """A ``Scoring`` as is, or one from a dict of its fields (changing ``base``'s, if given)."""
    if isinstance(value, Scoring):
        return value
    if not isinstance(value, Mapping):
        raise RulesError(
            f"rule scoring={describe(value)} must be a Scoring or a dict of its fields: "
            f"{', '.join(SCORING_FIELDS)}"
        )
    unknown = sorted(repr(k) for k in set(value) - set(SCORING_FIELDS))
    if unknown:
        raise RulesError(
            f"unknown rule scoring field {', '.join(unknown)}; known: {', '.join(SCORING_FIELDS)}"
        )
    return dataclasses.replace(base, **value) if base else Scoring(**value)


def _text(knob: str, value: Any) -> str:
    """A knob's value as a rule set's name writes it: ``passes=unlimited``, ``goal=all``."""
    if value is None:
        return "unlimited"
    if isinstance(value, StrEnum):
        return value.value
    return repr(value)


def _changed_name(preset: str, rules: Rules) -> str:
    """``preset`` followed by every knob of ``rules`` that differs from it: ``"msc passes=1"``."""
    base = PRESETS[preset]
    changes = []
    for knob in KNOBS[1:]:
        mine, theirs = getattr(rules, knob), getattr(base, knob)
        if knob == "scoring":
            changes += [
                f"scoring.{f}={_text(f, getattr(mine, f))}"
                for f in SCORING_FIELDS
                if getattr(mine, f) != getattr(theirs, f)
            ]
        elif mine != theirs:
            changes.append(f"{knob}={_text(knob, mine)}")
    return " ".join([preset, *changes])


def _preset_of(name: str) -> str | None:
    """The preset a name says the rules are (``"msc"``, ``"msc passes=1"``), else ``None``.

    Only a preset's name, alone or followed by ``knob=value`` words, counts: ``"msc variant"``
    is a name of one's own.
    """
    head, _, tail = name.partition(" ")
    if head not in PRESETS:
        return None
    known = {*KNOBS[1:], *(f"scoring.{f}" for f in SCORING_FIELDS)}
    for word in tail.split(" ") if tail else ():
        knob, equals, _ = word.partition("=")
        if not equals or knob not in known:
            return None
    return head


def _check_name(rules: Rules) -> None:
    """A preset's name is a promise: the rules must be that preset, or name what they change.

    Results, labels and saves are filed by name (the solver's shipped labels are looked up by
    it), so ``Rules(name="msc", passes=1)`` would report one pass as msc's three.
    """
    preset = _preset_of(rules.name)
    if preset is None:
        return
    want = _changed_name(preset, rules)
    if want != rules.name:
        raise RulesError(
            f"rule name={rules.name!r} does not match the knobs: they are {want!r}; change a "
            f"preset with get_rules({preset!r}, knob=value), which names the result, or give a "
            "name of your own"
        )


PRESETS: dict[str, Rules] = {}
"""The presets by name. Filled one by one: each is checked against those already in."""
for _preset in (
    # The ids name rulebooks: pyramid_env.engine.RULEBOOKS (engine/rulebooks.py) says which is
    # which. msc follows no rulebook: Microsoft Solitaire Collection, known from an oracle.
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
):
    PRESETS[_preset.name] = _preset

DEFAULT_PRESET = "relaxed"


def get_rules(rules: str | Rules | None = None, **overrides: Any) -> Rules:
    """A preset by name (or a ``Rules`` as is), with knobs overridden.

    ``get_rules("two-card", passes=1)``; ``get_rules("relaxed", goal="all", draw_count=3)``.
    Overrides that change a preset show in the name (``"two-card passes=1"``), so the result is
    never reported or looked up as the unchanged preset; overrides equal to the preset's own
    values leave it as it is.

    Raises:
        RulesError: an unknown preset (listing the known ones), an unknown knob, a bad value,
            or ``rules`` of another type.
    """
    if rules is None:
        rules = DEFAULT_PRESET
    if isinstance(rules, str):
        try:
            rules = PRESETS[rules]
        except KeyError:
            raise RulesError(
                f"unknown preset {shorten(rules)}; known presets: {', '.join(PRESETS)}"
            ) from None
    elif not isinstance(rules, Rules):
        raise RulesError(
            f"rules={describe(rules)} must be a preset name ({', '.join(PRESETS)}), a Rules, "
            f"or None for {DEFAULT_PRESET}"
        )
    return rules.replace(**overrides) if overrides else rules
