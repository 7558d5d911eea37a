"""The free-stock game: the verdict search on (pyramid shape, live stock cards per rank).

With unlimited passes, one card per draw and only the waste top in play (``relaxed``,
``unlimited``), every live stock card can be brought to the waste top at will by drawing and
recycling, which change nothing else. Stock order is then irrelevant to the verdict, and so is
which card of a rank is used, so the search runs on (pyramid shape, live stock cards per rank)
and its line is turned back into engine moves. For every other rule set the same search is a
relaxation (a position it cannot win is lost), which the other searches prune with.
"""

from __future__ import annotations

from collections.abc import Callable

from pyramid_env.engine import primitives as P
from pyramid_env.engine import state as st
from pyramid_env.engine.cards import KING, RANK, TARGET
from pyramid_env.engine.dead_deal import class_short as _class_short
from pyramid_env.engine.dead_deal import stock_stranded as _stock_stranded
from pyramid_env.engine.layout import SHAPES
from pyramid_env.engine.moves import (
    DRAW,
    KING_AT,
    KING_ID,
    MOVE_A,
    MOVE_B,
    PAIR_AT,
    PAIR_ID,
    RECYCLE,
    WASTE,
    Move,
)
from pyramid_env.engine.rules import Goal, Rules
from pyramid_env.solver.tables import DealTables, Limit


def free_stock_rules(rules: Rules) -> bool:
    """Unlimited passes, one card a draw, only the waste top in play (``relaxed``, ``unlimited``).

    Under these rules any live stock card can be brought to the waste top at will, so a
    position's future depends only on (pyramid shape, live stock cards per rank).
    """
    k = rules.knobs
    return k.max_recycles < 0 and k.draw_count == 1 and not (k.drawn_spot or k.face_up_top)


def free_stock_moves(
    pyr: int, prank: tuple[int, ...], counts: list[int], covering: bool
) -> list[tuple[int, int, int, int]]:
    """Moves of the free-stock game from (pyramid ``pyr``, live stock cards per rank ``counts``).

    Each is ``(pyramid after, stock rank used or 0, slot, second slot or -1)``: an exposed King
    alone (the only move offered when there is one: removing it never hurts), else the
    primitives' :func:`~pyramid_env.engine.primitives.free_removals` in their order. Shared by
    the solver's free-stock search and the lookahead agents (``pyramid_env.agents.lookahead``).
    """
    exps, cands = SHAPES[pyr].exposed, st.SHAPE_CANDIDATES[pyr]
    i = P.exposed_king(exps, len(exps), prank)
    if i >= 0:
        return [(pyr ^ (1 << i), 0, i, -1)]
    buf = [0] * 64
    n = P.free_removals(exps, len(exps), cands, len(cands) // 2, counts, prank, KING_ID, PAIR_ID,
                        covering, buf)  # fmt: skip
    out = []
    for m in buf[:n]:
        a, b = MOVE_A[m], MOVE_B[m]
        if b == WASTE:  # with a stock card of the partner rank
            out.append((pyr ^ (1 << a), TARGET - prank[a], a, -1))
        else:
            out.append((pyr ^ (1 << a) ^ (1 << b), 0, a, b))
    return out


class FreeStock:
    """Search on (pyramid shape, live stock cards per rank), as if the stock were free.

    "Free": any live stock card can be played at any time. Exact for free-stock rules (see the
    module docstring). For every other rule set it is a relaxation: a position it cannot win is
    lost, so the depth-first and A* searches use it to prune, with its verdicts cached across
    the whole search (many positions share a key).
    Abstract moves are ``(slot, slot)``, ``(slot, -rank)`` (with a stock card of that rank) and
    ``(slot, -13)`` (a King).
    """

    def __init__(self, s: st.State, info: DealTables, limit: Limit) -> None:
        """An empty cache for the deal and rules of ``s``, searching within ``limit``."""
        self.prank = info.prank
        self.info = info
        self.limit = limit
        k = s.knobs
        self.covering = k.covering_pair
        self.goal_all = k.goal_all
        self.stock_pairs = k.stock_pairs
        self.knobs = k
        self.failed: set[int] = set()
        self.won: set[int] = set()
        self.dead_cache: dict[int, bool] = {}  # for search.pruned: pyr | reachable << 28

    @staticmethod
    def key(pyr: int, counts: list[int]) -> int:
        """The free-stock position as one int: the pyramid, then 3 bits per rank count."""
        k = pyr
        for r in range(1, 13):
            k = k << 3 | counts[r]
        return k

    def _won(self, pyr: int, counts: list[int]) -> bool:
        if pyr:
            return False
        if not self.goal_all:
            return True
        if self.stock_pairs:  # leftover stock cards must pair off among themselves
            return all(counts[r] == counts[TARGET - r] for r in range(1, 7))
        return not any(counts[1:KING])

    def wins(self, pyr: int, counts: list[int]) -> bool:
        """Cached verdict of the relaxation for this shape and stock."""
        k = self.key(pyr, counts)
        if k in self.won:
            return True
        if k in self.failed:
            return False
        if self.solve(pyr, list(counts)) is None:
            return False
        self.won.add(k)
        return True

    def solve(self, pyr: int, counts: list[int]) -> list[tuple[int, int]] | None:
        """A winning abstract line, or ``None``."""
        line: list[tuple[int, int]] = []
        return line if self._go(pyr, counts, line) else None

    def _go(self, pyr: int, counts: list[int], line: list[tuple[int, int]]) -> bool:
        if self._won(pyr, counts):
            return True
        if pyr == 0 or _stock_stranded(pyr, counts, self.info.slots_of, self.knobs):
            return False
        k = self.key(pyr, counts)
        if k in self.failed:
            return False
        self.limit.tick()
        prank, slots_of, need = self.prank, self.info.slots_of, self.info.need
        for after, q, i, j in free_stock_moves(pyr, prank, counts, self.covering):
            king = not q and j < 0  # an exposed King, the only move offered when there is one
            if q:
                counts[q] -= 1
            # Only the moved cards' rank class can have become short (DealTables.class_short).
            r = prank[i]
            if king or not _class_short(
                after, r, counts[r], counts[TARGET - r], prank, slots_of, need
            ):
                line.append((i, -KING) if king else (i, j) if j >= 0 else (i, -q))
                if self._go(after, counts, line):
                    if q:
                        counts[q] += 1
                    return True
                line.pop()
            if q:
                counts[q] += 1
        self.failed.add(k)
        return False


def free_stock_oracle(s: st.State) -> Callable[[int, list[int]], bool]:
    """Exact "still winnable?" for the free-stock positions of ``s``'s deal and rules.

    The returned function takes (pyramid mask, live stock cards per rank, index 0..13) and
    caches what it learns across calls: the labeller of ``experiments/train_value.py``.

    Raises:
        ValueError: ``s``'s rules are not free-stock rules (see :func:`free_stock_rules`).
    """
    if not free_stock_rules(s.rules):
        raise ValueError(f"{s.rules.name} is not a free-stock rule set")
    tables = DealTables(s)
    free = FreeStock(s, tables, Limit(None, None))

    def wins(pyr: int, counts: list[int]) -> bool:
        if pyr == 0:  # won, unless stock cards must go too (goal="all")
            return free.wins(pyr, list(counts))
        return not tables.cannot_clear(pyr, counts) and free.wins(pyr, list(counts))

    return wins


def concrete(s: st.State, abstract: list[tuple[int, int]]) -> list[int]:
    """Turn a free-stock line into engine moves, turning the stock to each card it uses."""
    s = s.copy()
    out: list[int] = []

    def play(m: Move) -> None:
        st.apply(s, m)
        out.append(m.id)

    for i, j in abstract:
        if j >= 0:
            play(PAIR_AT[min(i, j), max(i, j)])
        elif j == -KING and RANK[s.deal.cards[i]] == KING:
            play(KING_AT[i])
        else:
            rank = -j
            while True:
                top = s.card_at(WASTE)
                if top is not None and RANK[top] == rank:
                    break
                play(DRAW if s.stock_size else RECYCLE)
            play(PAIR_AT[i, WASTE])
        if st.is_won(s):
            break
    if s.rules.goal is Goal.ALL:  # stock Kings last; the line ends once everything is gone
        while not st.is_won(s):
            top = s.card_at(WASTE)
            if top is not None and RANK[top] == KING:
                play(KING_AT[WASTE])
            else:
                play(DRAW if s.stock_size else RECYCLE)
    return out
