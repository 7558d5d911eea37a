"""The hint described by rulebook 000, as a deterministic function of the position.

It prefers removals that shrink the pyramid (most pyramid cards, then most cards exposed, then
the lowest move id), then under goal "all" any removal, then a draw when a useful card is still
in the stock or waste, then a waste-only removal, else ``None``; the engine page gives the order
and where 000 is silent. A heuristic, not search: the solver's ``best_move`` keeps a deal winnable.
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
