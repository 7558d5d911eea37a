"""A deliberately plain exhaustive search, as an oracle for tests.

No pruning, no dominance, no move ordering: depth-first over every legal move with a visited set
(needed only because unlimited recycling revisits positions). The dead-deal ending is switched
off, so the oracle never relies on the test it is used to check.
"""

from __future__ import annotations

from pyramid_env.engine import State, apply, is_won, legal_moves, parse_board
from pyramid_env.engine.notation import format_board


def without_dead_ending(s: State) -> State:
    return parse_board(format_board(s), s.rules.replace(dead_deal_ends_game=False))


def brute_winnable(s: State, limit: int = 200_000) -> bool | None:
    """True/False, or None when more than ``limit`` positions would be needed."""
    root = without_dead_ending(s)
    seen: set[int] = set()
    stack = [root]
    while stack:
        x = stack.pop()
        if is_won(x):
            return True
        k = x.key()
        if k in seen:
            continue
        seen.add(k)
        if len(seen) > limit:
            return None
        for m in legal_moves(x):
            y = x.copy()
            apply(y, m)
            stack.append(y)
    return False
