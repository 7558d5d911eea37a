"""Moves: one fixed table of every move that can ever be legal, each with a stable id.

A move names *places*, not cards: the 28 pyramid slots, ``WASTE`` (the waste top) and
``STOCK`` (the drawn card, or the face-up stock top), so a move id means the same part of the
board in every deal and serves as the env's fixed ``Discrete`` action id. Ids: 0 DRAW,
1 RECYCLE, 2..31 a King at place 0..29, then the pairs of places ``(a, b)``, ``a < b``, in
lexicographic order: only those some reachable pyramid shape offers (the engine page tells how).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from pyramid_env.engine.layout import SHAPES, SLOTS

WASTE = SLOTS  # 28: the top card of the waste
STOCK = SLOTS + 1  # 29: the drawn card, or the face-up stock top
PLACES = SLOTS + 2


class MoveKind(IntEnum):
    """The four kinds of move."""

    DRAW = 0
    RECYCLE = 1
    KING = 2
    PAIR = 3


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """One entry of the move table. Compare and sort by ``id``; build none, use ``MOVES``.

    Attributes:
        id: index in ``MOVES``; also the env's action id.
        kind: see :class:`MoveKind`.
        a: first place (KING, PAIR) or -1.
        b: second place (PAIR, ``a < b``) or -1.
    """

    id: int
    kind: MoveKind
    a: int = -1
    b: int = -1

    @property
    def places(self) -> tuple[int, ...]:
        """Places the move removes cards from (empty for draw and recycle)."""
        return () if self.a < 0 else (self.a,) if self.b < 0 else (self.a, self.b)

    def __repr__(self) -> str:
        """``Move(5: KING 27)``: id, kind, places."""
        places = " ".join(place_name(p) for p in self.places)
        return f"Move({self.id}: {self.kind.name}{' ' + places if places else ''})"


def place_name(p: int) -> str:
    """``'12'`` for a slot, ``'WASTE'``, ``'STOCK'``."""
    return "WASTE" if p == WASTE else "STOCK" if p == STOCK else str(p)


def _feasible_slot_pairs() -> list[tuple[int, int]]:
    pairs = set()
    for shape in SHAPES.values():
        exp = shape.exposed
        pairs.update((a, b) for i, a in enumerate(exp) for b in exp[i + 1 :])
        pairs.update((min(s, t), max(s, t)) for s, t in shape.covering)
    return sorted(pairs)


def _make_moves() -> tuple[Move, ...]:
    moves = [Move(0, MoveKind.DRAW), Move(1, MoveKind.RECYCLE)]
    moves += [Move(len(moves) + p, MoveKind.KING, p) for p in range(PLACES)]
    pairs = _feasible_slot_pairs()
    pairs += [(s, p) for s in range(SLOTS) for p in (WASTE, STOCK)] + [(WASTE, STOCK)]
    moves += [Move(len(moves) + i, MoveKind.PAIR, a, b) for i, (a, b) in enumerate(sorted(pairs))]
    return tuple(moves)


MOVES: tuple[Move, ...] = _make_moves()
NUM_MOVES = len(MOVES)
DRAW: Move = MOVES[0]
RECYCLE: Move = MOVES[1]
KING_AT: tuple[Move, ...] = MOVES[2 : 2 + PLACES]
PAIR_AT: dict[tuple[int, int], Move] = {(m.a, m.b): m for m in MOVES if m.kind is MoveKind.PAIR}
"""``PAIR_AT[a, b]`` with ``a < b``."""


def _pair_ids() -> tuple[int, ...]:
    ids = [-1] * (PLACES * PLACES)
    for (a, b), m in PAIR_AT.items():
        ids[a * PLACES + b] = ids[b * PLACES + a] = m.id
    return tuple(ids)


KING_ID: tuple[int, ...] = tuple(m.id for m in KING_AT)
"""``KING_ID[place]``: the id of the King move at a place: the move generator's table."""
PAIR_ID: tuple[int, ...] = _pair_ids()
"""``PAIR_ID[a * 30 + b]``: the id of the pair move of places ``a`` and ``b`` (either order), -1
where there is none: the move generator's table."""
MOVE_A: tuple[int, ...] = tuple(m.a for m in MOVES)
"""``MOVE_A[id]``: the move's first place, -1 for draw and recycle (compiled code's ``.a``)."""
MOVE_B: tuple[int, ...] = tuple(m.b for m in MOVES)
"""``MOVE_B[id]``: the move's second place, -1 where it has none."""
