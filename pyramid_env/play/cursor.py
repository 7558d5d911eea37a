"""The keyboard cursor of ``pyramid-env play``: the places it stops on and where keys take it.

The cursor visits only the places a player could pick now (exposed cards, the piles), in
left-to-right order across the table, so the arrows never land on a card no move can take.
"""

from __future__ import annotations

from pyramid_env.engine.layout import ROW_COL, ROWS, SLOTS
from pyramid_env.engine.moves import PLACES, STOCK, WASTE
from pyramid_env.engine.state import State

DECK = PLACES
"""The cursor's stop on the stock pile itself (not a move place): selecting it draws or
recycles, as clicking the pile does in card games."""


def spot(place: int) -> tuple[int, int]:
    """Where a cursor stop lies on the table: (row, column in half-card steps).

    ``row 1 col 1 -> (0, 6)``, ``row 7 col 1 -> (6, 0)``; the piles lie on a row of their own
    under the pyramid, stock pile, waste, then the drawn or face-up card.
    """
    if place < SLOTS:
        r, c = ROW_COL[place]
        return r, ROWS - 1 - r + 2 * c
    return ROWS + 1, {DECK: 0, WASTE: 4, STOCK: 8}[place]


def distance(a: int, b: int) -> tuple[int, int]:
    """How far apart two stops lie: rows first, then half-card steps."""
    (ra, xa), (rb, xb) = spot(a), spot(b)
    return abs(ra - rb), abs(xa - xb)


def stops(s: State) -> list[int]:
    """The places the cursor visits in ``s``, in left-to-right order.

    Exposed pyramid cards (and, where the rules allow a covering pair, a card whose one
    remaining coverer is exposed), ordered across the table; then the stock pile
    (:data:`DECK`), the waste top and the drawn or face-up stock card.
    """
    pyramid = [i for i in range(SLOTS) if s.is_exposed(i)]
    if s.rules.covering_pair:
        pyramid += [
            i
            for i in range(SLOTS)
            if s.pyr >> i & 1 and len(cov := s.coverers(i)) == 1 and s.is_exposed(cov[0])
        ]
    pyramid.sort(key=lambda p: spot(p)[::-1])
    piles = [p for p in (WASTE, STOCK) if s.card_at(p) is not None]
    return pyramid + [DECK, *piles]


def settle(places: list[int], old: int | None) -> int:
    """The stop nearest ``old`` (a place whose card has gone), or the first one."""
    if old in places:
        return old
    return places[0] if old is None else min(places, key=lambda p: distance(p, old))


def step(places: list[int], here: int, way: str) -> int:
    """Where ``way`` (``left``, ``right``, ``up``, ``down``) takes the cursor from ``here``.

    Left and right go round the stops; up and down go to the nearest stop on the nearest row
    above (below) that has one, or stay.
    """
    if way in ("left", "right"):
        return places[(places.index(here) + (1 if way == "right" else -1)) % len(places)]
    row = spot(here)[0]
    ahead = [p for p in places if (spot(p)[0] < row if way == "up" else spot(p)[0] > row)]
    return min(ahead, key=lambda p: distance(p, here)) if ahead else here
