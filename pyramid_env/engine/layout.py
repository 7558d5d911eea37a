"""Geometry of the pyramid: 28 slots, what covers what, and every reachable shape.

Slots are numbered row by row from the apex, left to right (slot 0 the apex, 21..27 the bottom
row), the order of cards 1..28 in a deal's text; the card at row ``r``, column ``c`` is covered
by ``(r+1, c)`` and ``(r+1, c+1)``. A pyramid position is a 28-bit mask of the slots holding a
card, always closed upward (every removal takes exposed cards), so there are exactly 1,430
shapes (the Catalan number C(8)); ``SHAPES`` maps each to its exposed slots and covering-pair
candidates, computed once so that move generation is a dictionary lookup, not a scan.
"""

from __future__ import annotations

from dataclasses import dataclass

ROWS = 7
SLOTS = 28
FULL = (1 << SLOTS) - 1
STOCK_SIZE = 52 - SLOTS  # 24: the stock cycle, the deal's cards 29..52 in order


def slot(row: int, col: int) -> int:
    """Slot index of 0-based ``row`` and ``col``: ``(0, 0) -> 0``, ``(6, 0) -> 21``."""
    return row * (row + 1) // 2 + col


ROW_COL: tuple[tuple[int, int], ...] = tuple((r, c) for r in range(ROWS) for c in range(r + 1))


def _make_coverers() -> tuple[tuple[int, ...], ...]:
    # A card in row r, column c lies under (r+1, c) and (r+1, c+1); the bottom row is free.
    return tuple(() if r == ROWS - 1 else (slot(r + 1, c), slot(r + 1, c + 1)) for r, c in ROW_COL)


COVERED_BY: tuple[tuple[int, ...], ...] = _make_coverers()
"""``COVERED_BY[s]``: the (0 or 2) slots that directly overlap slot ``s``."""

COVER_MASK: tuple[int, ...] = tuple(sum(1 << t for t in ts) for ts in COVERED_BY)
"""Bitmask of ``COVERED_BY``: ``s`` is exposed in ``mask`` iff ``mask & COVER_MASK[s] == 0``."""

UNCOVERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(SLOTS) if t in COVERED_BY[s]) for t in range(SLOTS)
)
"""``UNCOVERS[t]``: the slots that slot ``t`` directly overlaps (the inverse of ``COVERED_BY``)."""


def _make_below() -> tuple[int, ...]:
    # Everything that must go before slot s is exposed: its coverers and, recursively, theirs.
    below = [0] * SLOTS
    for s in reversed(range(SLOTS)):  # bottom rows first, so coverers are already done
        for t in COVERED_BY[s]:
            below[s] |= (1 << t) | below[t]
    return tuple(below)


BELOW_MASK: tuple[int, ...] = _make_below()


def slot_name(s: int) -> str:
    """Human name of a slot, 1-based: slot 0 -> ``'row 1 col 1'``."""
    r, c = ROW_COL[s]
    return f"row {r + 1} col {c + 1}"


def exposed_slots(mask: int) -> tuple[int, ...]:
    """Slots present in ``mask`` with no present coverer, in slot order."""
    return tuple(s for s in range(SLOTS) if mask >> s & 1 and not mask & COVER_MASK[s])


@dataclass(frozen=True, slots=True)
class Shape:
    """Facts about one reachable pyramid shape, precomputed for move generation.

    Attributes:
        exposed: present slots with no present coverer, ascending.
        covering: ``(covered, coverer)`` pairs where ``coverer`` is exposed and is the only
            card still on ``covered``: the candidates for 000's covering pair.
        exposed_mask: ``exposed`` as a bitmask of slots.
    """

    exposed: tuple[int, ...]
    covering: tuple[tuple[int, int], ...]
    exposed_mask: int


def _make_shapes() -> dict[int, Shape]:
    # Walk every shape reachable from the full pyramid by removing exposed cards; covering
    # pairs remove a card with its last coverer, which leads to shapes this walk also reaches.
    shapes: dict[int, Shape] = {}
    todo = [FULL]
    while todo:
        mask = todo.pop()
        if mask in shapes:
            continue
        exposed = exposed_slots(mask)
        covering = []
        for s in range(SLOTS):
            left = [t for t in COVERED_BY[s] if mask >> t & 1]
            if mask >> s & 1 and len(left) == 1 and left[0] in exposed:
                covering.append((s, left[0]))
        shapes[mask] = Shape(exposed, tuple(covering), sum(1 << s for s in exposed))
        todo.extend(mask & ~(1 << s) for s in exposed)
    return shapes


SHAPES: dict[int, Shape] = _make_shapes()
