"""The board printed as text: the triangle, then the stock, waste, drawn and recycles lines.

This is the printing half of :mod:`pyramid_env.engine.notation` (which parses the text back
and documents the format). It reads a :class:`~pyramid_env.engine.state.State`'s fields and the
scalar rules of :mod:`pyramid_env.engine.primitives`, and imports nothing of ``state``, so
``str(state)`` can call it without an import circle.
"""

from __future__ import annotations

from typing import Any, Protocol

from pyramid_env.engine.cards import CARD_NAMES
from pyramid_env.engine.layout import ROWS, SLOTS
from pyramid_env.engine.primitives import STOCK_BITS, Knobs
from pyramid_env.engine.primitives import face_up as _face_up


class Position(Protocol):
    """What printing reads of a position: a :class:`~pyramid_env.engine.state.State` is one.

    Named here, not imported, so this module depends on nothing of ``state`` (no import circle,
    not even for the annotations).
    """

    deal: Any
    pyr: int
    left: int
    ptr: int
    recycles: int
    knobs: Knobs

    @property
    def stock_cards(self) -> list[int]: ...  # noqa: D102

    @property
    def waste_cards(self) -> list[int]: ...  # noqa: D102

    @property
    def drawn_card(self) -> int | None: ...  # noqa: D102


_GAP = "  "
HIDDEN = "??"
"""How a board written as a player sees it marks a stock card whose face is not known."""


def format_board(s: Position, *, hide_stock: bool = False, known: int | None = None) -> str:
    """The board as text: the whole stock (parseable by :func:`.parse_board`), unless hidden.

    Args:
        s: the position.
        hide_stock: print the stock as a player at the table sees it: only a card the rules lay
            face up (the ``msc`` stock top) is named. Shorthand for ``known=face_up(s)``.
        known: stock cycle positions whose card may be named (bit ``i``: deal card
            ``SLOTS + i``), e.g. ``PyramidEnv.known_stock()``, so the text shows exactly what the
            observation shows. The others are written ``??``.
    """
    lines = []
    for r in range(ROWS):
        first = r * (r + 1) // 2
        cells = [
            CARD_NAMES[s.deal.cards[i]] if s.pyr >> i & 1 else ".."
            for i in range(first, first + r + 1)
        ]
        lines.append(_GAP * (ROWS - 1 - r) + _GAP.join(cells))
    if known is None and hide_stock:
        known = _face_up(s.left, s.ptr, s.knobs)  # state.face_up(s), without importing state
    lines.append(stock_line(s, known))
    lines.append("waste: " + " ".join(CARD_NAMES[c] for c in s.waste_cards))
    if s.knobs.drawn_spot:
        d = s.drawn_card
        lines.append(f"drawn: {CARD_NAMES[d] if d is not None else '..'}")
    lines.append(f"recycles: {s.recycles}")
    return "\n".join(line.rstrip() for line in lines)


def stock_line(s: Position, known: int | None = None) -> str:
    """The board's ``stock:`` line: every card (``known=None``) or only the ``known`` ones.

    Unknown cards are written :data:`HIDDEN` in their place in the drawing order, so a reader
    sees how deep a known card lies; a stock with no known card is just counted.
    """
    if known is None:
        return "stock: " + " ".join(CARD_NAMES[c] for c in s.stock_cards)
    cycle = range(s.ptr, STOCK_BITS)
    live = [i for i in cycle if s.left >> i & 1]
    if live and not any(known >> i & 1 for i in live):
        return f"stock: {len(live)} face down"
    return "stock: " + " ".join(
        CARD_NAMES[s.deal.cards[SLOTS + i]] if known >> i & 1 else HIDDEN for i in live
    )
