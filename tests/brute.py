"""A deliberately plain exhaustive search, as an oracle for tests.

No pruning, no dominance, no move ordering: depth-first over every legal move with a visited set
(needed only because unlimited recycling revisits positions). The dead-deal ending is switched
off, so the oracle never relies on the test it is used to check.
"""

from __future__ import annotations

import random

from pyramid_env.engine import Rules, State, apply, is_won, legal_moves, parse_board
from pyramid_env.engine.cards import CARD_NAMES
from pyramid_env.engine.layout import ROWS, SHAPES
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


def brute_shortest(s: State, limit: int = 200_000) -> int | None:
    """Fewest steps to a win by plain breadth-first search; -1 if none; None past ``limit``."""
    root = without_dead_ending(s)
    if is_won(root):
        return 0
    seen = {root.key()}
    frontier = [root]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for x in frontier:
            for m in legal_moves(x):
                y = x.copy()
                apply(y, m)
                if is_won(y):
                    return depth
                k = y.key()
                if k not in seen:
                    seen.add(k)
                    nxt.append(y)
        if len(seen) > limit:
            return None
        frontier = nxt
    return -1


SMALL_SHAPES = sorted(m for m in SHAPES if m.bit_count() <= 6)


def random_small_board(rng: random.Random, rules: Rules) -> str:
    """A random position with at most 6 pyramid cards, 6 stock and 3 waste cards.

    Under goal "all" the stock is kept to 2 cards, or almost no position would be winnable.
    """
    cards = rng.sample(range(52), 52)
    mask = rng.choice(SMALL_SHAPES)
    rows, k = [], 0
    for r in range(ROWS):
        row = []
        for _ in range(r + 1):
            row.append(CARD_NAMES[cards.pop()] if mask >> k & 1 else "..")
            k += 1
        rows.append("  ".join(row))
    short = rules.goal == "all"
    stock = [CARD_NAMES[cards.pop()] for _ in range(rng.randint(0, 2 if short else 6))]
    waste = [CARD_NAMES[cards.pop()] for _ in range(rng.randint(0, 0 if short else 3))]
    lines = rows + ["stock: " + " ".join(stock), "waste: " + " ".join(waste)]
    if rules.stock_play == "drawn-and-waste" and rng.random() < 0.5:
        lines.append("drawn: " + CARD_NAMES[cards.pop()])
    if rules.recycles is not None:
        lines.append(f"recycles: {rng.randint(0, rules.recycles)}")
    return "\n".join(lines)
