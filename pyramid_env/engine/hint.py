"""The hint described by rulebook 000, as a deterministic function of the position.

000: "The hint prefers removals that shrink the pyramid (waste-only removals do not), knows
about covering pairs, and suggests drawing only when a genuinely useful card still exists in the
stock or waste." Where 000 is silent we choose, and say so:

1. A removal that takes pyramid cards, the one taking the most pyramid cards, then exposing the
   most new cards, then the lowest move id (so the hint never depends on anything but the
   position). Covering pairs are pyramid removals like any other.
2. Under goal "all", any other removal (stock cards must go too).
3. Draw (or recycle) if a card not in play now, in the stock or under the waste top, pairs with
   an exposed pyramid card (or, under goal "all", could be removed at all).
4. A waste-only removal (a King on the waste, a drawn card with the waste top).
5. Otherwise ``None``: nothing useful is left.

This is a heuristic, not search: the solver's ``best_move`` is the one that keeps a deal winnable.
"""

from __future__ import annotations

from pyramid_env.engine.cards import KING, RANK, TARGET
from pyramid_env.engine.layout import SHAPES, SLOTS
from pyramid_env.engine.moves import Move, MoveKind
from pyramid_env.engine.rules import Goal
from pyramid_env.engine.state import STOCK_SIZE, State, legal_moves


def _pyramid_removed(m: Move) -> int:
    return sum(p < SLOTS for p in m.places)


def _newly_exposed(s: State, m: Move) -> int:
    after = s.pyr
    for p in m.places:
        if p < SLOTS:
            after &= ~(1 << p)
    return len(set(SHAPES[after].exposed) - set(SHAPES[s.pyr].exposed))


def _useful_card_waiting(s: State) -> bool:
    in_play = {s.card_at(p) for p in (SLOTS, SLOTS + 1)}
    waiting = [
        RANK[s.deal.cards[SLOTS + i]]
        for i in range(STOCK_SIZE)
        if s.left >> i & 1 and s.deal.cards[SLOTS + i] not in in_play
    ]
    need = {TARGET - RANK[s.deal.cards[i]] for i in SHAPES[s.pyr].exposed}
    if any(r in need for r in waiting):
        return True
    if s.rules.goal is Goal.ALL:
        live = [RANK[s.deal.cards[SLOTS + i]] for i in range(STOCK_SIZE) if s.left >> i & 1]
        pairable = s.knobs.stock_pairs
        return KING in waiting or (pairable and any(TARGET - r in live for r in waiting))
    return False


def hint(s: State) -> Move | None:
    """The move 000's hint would show, or ``None`` when nothing useful is left."""
    moves = legal_moves(s)
    removals = [m for m in moves if m.kind >= MoveKind.KING]
    pyramid = [m for m in removals if _pyramid_removed(m)]
    if pyramid:
        return max(pyramid, key=lambda m: (_pyramid_removed(m), _newly_exposed(s, m), -m.id))
    if removals and s.rules.goal is Goal.ALL:
        return removals[0]
    turns = [m for m in moves if m.kind <= MoveKind.RECYCLE]
    if turns and _useful_card_waiting(s):
        return turns[0]
    return removals[0] if removals else None
