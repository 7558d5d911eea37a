"""Exact solver: won / lost for a deal or any position, a winning line, a shortest line.

The solver is clairvoyant: it knows the stock order. It plays through the engine's own move
generator and ``apply``/``undo`` (one source of rules truth) and adds search on top:

* **Verdict** (``shortest=False``): depth-first search, removals before turning the stock, with a
  set of positions already entered (``State.key()``, which under unlimited recycling ignores the
  lap count, so the search closes). Pruned: positions where some pyramid card has no partner
  left that it could ever meet (a live stock card of the partner rank, or a pyramid card of that
  rank in a place that can ever be exposed together with it, or its last coverer where covering
  pairs count), and where a rank class runs short by count. An exposed pyramid King is removed at
  once (it never hurts: it only exposes cards), and so is a waste or stock King when one card is
  turned per draw.
* **Free-stock abstraction**: with unlimited passes, one card per draw and only the waste top in
  play (``relaxed``, ``unlimited``), every live stock card can be brought to the waste top at
  will by drawing and recycling, which change nothing else. Stock order is then irrelevant to the
  verdict, and so is which card of a rank is used: the search runs on (pyramid shape, live stock
  cards per rank). The winning line is turned back into engine moves (draws and recycles
  included) and replayed through the engine. For every other rule set the same search is a
  relaxation, used to prune; on the last pass under waste-top rules it counts only the stock
  cards still reachable (see ``DealTables.reachable``).
* **Shortest** (``shortest=True``): A* over full positions, every step (draw, recycle, removal)
  costing 1, with the admissible and consistent bound "removals still needed": for each rank
  class ``{r, 13 - r}`` at least ``max(pyramid r, pyramid 13 - r)``, plus one per pyramid King.
  With numba installed (the ``fast`` extra) the same A* runs compiled (:mod:`pyramid_env._kernel`,
  about x13 faster); ``compiled=False`` keeps the pure-Python search, the reference.

Every ``win`` line is replayed through the engine before it is returned (``check=True``).
``unknown`` is returned only when an explicit ``budget`` (positions) or ``time_limit`` ran out.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pyramid_env import _kernel
from pyramid_env.engine import state as st
from pyramid_env.engine.cards import KING, RANK, TARGET
from pyramid_env.engine.deal import DealLike
from pyramid_env.engine.game import Game
from pyramid_env.engine.layout import COVERED_BY, FULL, SHAPES, SLOTS
from pyramid_env.engine.moves import DRAW, KING_AT, MOVES, PAIR_AT, RECYCLE, WASTE, Move
from pyramid_env.engine.notation import format_move
from pyramid_env.engine.rules import Goal, Rules, StockPlay

_STOCK_MASK = (1 << 24) - 1


class Verdict(StrEnum):
    """The solver's answer."""

    WIN = "win"
    LOSS = "loss"
    UNKNOWN = "unknown"
    """A budget ran out; never a guess."""


@dataclass(frozen=True)
class Solution:
    """What :func:`solve` found.

    Attributes:
        status: win, loss or unknown.
        moves: the winning line as engine moves from the position solved (``None`` unless win).
        line: the same line as text (``'draw'``, ``'Kd'``, ``'5d+8s'``), for people and JSON.
        nodes: positions expanded.
        seconds: wall time of the search.
        shortest: whether ``moves`` is proven to have the fewest steps.
    """

    status: Verdict
    moves: tuple[Move, ...] | None = None
    line: tuple[str, ...] | None = None
    nodes: int = 0
    seconds: float = 0.0
    shortest: bool = False

    @property
    def steps(self) -> int | None:
        """Length of the winning line (draws, recycles and removals), ``None`` if no win."""
        return None if self.moves is None else len(self.moves)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"status", "moves", "steps", "nodes", "seconds", "shortest"}``."""
        return {
            "status": self.status.value,
            "moves": list(self.line) if self.line is not None else None,
            "steps": self.steps,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "shortest": self.shortest,
        }


class _Budget(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Tables shared by every search
# ---------------------------------------------------------------------------------------------
def _partner_slots(covering: bool) -> tuple[int, ...]:
    """``mask[i]``: slots that slot ``i`` can ever be removed together with."""
    masks = [0] * SLOTS
    for m in MOVES:
        if m.a >= 0 and m.b >= 0 and m.b < SLOTS:
            direct = m.a in COVERED_BY[m.b] or m.b in COVERED_BY[m.a]
            if covering or not direct:
                masks[m.a] |= 1 << m.b
                masks[m.b] |= 1 << m.a
    return tuple(masks)


_PARTNERS = {True: _partner_slots(True), False: _partner_slots(False)}
_KING_IDS = range(KING_AT[0].id, KING_AT[-1].id + 1)
_FIRST_KING_AT_STOCK = KING_AT[WASTE].id  # King ids below this are pyramid slots
_PYRAMID_CARDS = tuple(sum(p < SLOTS for p in m.places) for m in MOVES)
"""Pyramid cards each move removes: the search tries pairs inside the pyramid first."""


def _bits(m: int) -> list[int]:
    """Indices of the set bits of ``m``, lowest first."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


class DealTables:
    """Per-(deal, rules) tables for pruning and the bound.

    Public because agents use :meth:`hopeless` and :meth:`bound` too (they read only the
    pyramid and the count of live stock cards per rank, which every player can know).
    """

    def __init__(self, s: st.State) -> None:
        """Tables for the deal and rules of ``s`` (any position of it)."""
        cards = s.deal.cards
        self.prank = tuple(RANK[c] for c in cards[:SLOTS])
        self.srank = tuple(RANK[c] for c in cards[SLOTS:])
        self.mode = 0 if s.rules.stock_play is StockPlay.WASTE_TOP else 1
        # slots_of[r]: pyramid slots holding rank r; stock_of[r]: stock cycle positions of rank r.
        self.slots_of = [0] * 14
        self.stock_of = [0] * 14
        for i, c in enumerate(cards[:SLOTS]):
            self.slots_of[RANK[c]] |= 1 << i
        for i, c in enumerate(cards[SLOTS:]):
            self.stock_of[RANK[c]] |= 1 << i
        self._stock_needed: dict[int, tuple[int, ...]] = {}
        partners = _PARTNERS[s.rules.covering_pair]
        # need[i]: pyramid slots that could partner slot i (same deal, any time).
        self.need = tuple(
            partners[i] & self.slots_of[TARGET - self.prank[i]] if self.prank[i] != KING else 0
            for i in range(SLOTS)
        )

    def stock_counts(self, left: int) -> list[int]:
        """Live stock cards per rank (index 1..13)."""
        return [(left & m).bit_count() for m in self.stock_of]

    def hopeless(self, pyr: int, counts: list[int]) -> bool:
        """Some pyramid card can never be removed, or a rank class is short by count.

        ``counts[r]``: live stock cards of rank ``r``. Sound under every rule set: a card is
        only ever removed with a partner of the complementary rank, from the stock or from a
        pyramid place that can meet it; each removal uses up one card of each rank in the pair.
        """
        return any(self.hopeless_class(pyr, counts, r) for r in range(1, 7))

    def reachable(self, s: st.State) -> int:
        """Live stock cards that can still be played: a mask over the stock cycle.

        All of them before the last pass (each comes round again), or where stock cards pair
        with each other. On the last pass under waste-top rules (one card a draw), every card
        still in the stock will be turned, but a waste card is reached only once every card
        above it has gone, and a waste card goes only with a pyramid card (or as a King).
        Walking down from the top and spending pyramid partners rank by rank, the first card
        left without one buries everything below it.
        """
        if s.recycles_left != 0 or s.rules.draw_count != 1 or self.mode != 0:
            return s.left
        below = (1 << s.ptr) - 1
        waste = s.left & below
        reach = s.left & ~below
        spare = [(s.pyr & m).bit_count() for m in self.slots_of]
        while waste:
            top = 1 << (waste.bit_length() - 1)
            reach |= top
            waste ^= top
            r = self.srank[top.bit_length() - 1]
            if r != KING:
                if not spare[TARGET - r]:
                    break  # this card stays for good, and so does everything under it
                spare[TARGET - r] -= 1
        return reach

    def hopeless_class(self, pyr: int, counts: list[int], r: int) -> bool:
        """:meth:`hopeless` restricted to the rank class of ``r``.

        A move changes only the cards and stock counts of its own class ``{r, 13 - r}``, so
        after a move from a position that passed :meth:`hopeless`, only that class can fail.
        """
        q = TARGET - r
        slots_of, prank, need = self.slots_of, self.prank, self.need
        pr, pq = (pyr & slots_of[r]).bit_count(), (pyr & slots_of[q]).bit_count()
        if pr > pq + counts[q] or pq > pr + counts[r]:
            return True
        m = pyr & (slots_of[r] | slots_of[q])
        while m:
            low = m & -m
            i = low.bit_length() - 1
            m ^= low
            if not counts[TARGET - prank[i]] and not (pyr & need[i]):
                return True
        return False

    def draws(self, pyr: int, left: int, ptr: int) -> int:
        """Draws still needed, at least, where every stock card must be drawn to be played.

        (One card a draw; not ``msc``, whose face-up stock top is played undrawn.) A pyramid
        card with no pyramid partner left that could ever meet it must go with a stock card of
        the partner rank. A live one on the waste costs no draw (the removals that uncover it
        are counted by :meth:`bound`); one in the stock must be drawn, after every live card in
        front of it. The farthest such rank sets the bound; draws and removals are different
        steps, so it adds to :meth:`bound`. On deals 0-11 (``experiments/bench_shortest.py``)
        it expanded x2.0 fewer positions under relaxed, x2.1 two-card, x4.2 three-pass. (An
        ``msc`` version, which may not charge for front cards that a pyramid partner could
        take, cut positions by 16% and cost more time than it saved.)
        """
        ranks = self._stock_needed.get(pyr)
        if ranks is None:
            ranks = self._stock_needed[pyr] = tuple(
                {TARGET - self.prank[i] for i in _bits(pyr & ~self.slots_of[KING])
                 if not pyr & self.need[i]}
            )  # fmt: skip
        below = (1 << ptr) - 1
        worst = 0
        for q in ranks:
            live = left & self.stock_of[q]
            if not live or live & below:
                continue  # none left (pruned elsewhere), or one already on the waste
            first = live & -live
            d = (left & ((first << 1) - 1) & ~below).bit_count()
            if d > worst:
                worst = d
        return worst

    def bound(self, pyr: int) -> int:
        """Removals still needed, at least: admissible and consistent for A*.

        For each rank class ``{r, 13 - r}`` at least ``max(pyramid r, pyramid 13 - r)`` (one
        removal takes at most one card of each), plus one per pyramid King. Each step changes it
        by at most 1. (A bound that also charged for turning the stock, counting the cards in
        front of a needed stock card whose partners are gone from the pyramid, cut positions
        expanded by a third on msc-1500 decks but cost as much time as it saved.)
        """
        slots_of = self.slots_of
        h = (pyr & slots_of[KING]).bit_count()
        for r in range(1, 7):
            h += max((pyr & slots_of[r]).bit_count(), (pyr & slots_of[TARGET - r]).bit_count())
        return h


# ---------------------------------------------------------------------------------------------
# Verdict: depth-first search over engine positions
# ---------------------------------------------------------------------------------------------
def _ordered(s: st.State, force_stock_kings: bool) -> list[int]:
    """Legal move ids in search order: a forced King alone, else removals, then draw/recycle."""
    ids = st.legal_ids(s)
    if not ids:
        return ids
    turn = ids[0] if ids[0] <= RECYCLE.id else -1
    for i in ids:  # ids are sorted: draw/recycle, then Kings, then pairs
        if i in _KING_IDS:
            if i < _FIRST_KING_AT_STOCK or force_stock_kings:
                return [i]
        elif i > RECYCLE.id:
            break
    if turn >= 0:
        ids = ids[1:]
    ids.sort(key=_PYRAMID_CARDS.__getitem__, reverse=True)  # stable: id order within a group
    if turn >= 0:
        ids.append(turn)
    return ids


def _dead(s: st.State, info: DealTables, free: _FreeStock) -> bool:
    """Pruned: hopeless, or lost even if every stock card still reachable were free.

    Cached on (pyramid, reachable stock), which many positions share: they differ only in where
    the stock is turned to.
    """
    reach = info.reachable(s)
    k = s.pyr | reach << 28
    dead = free.dead_cache.get(k)
    if dead is None:
        counts = info.stock_counts(reach)
        dead = info.hopeless(s.pyr, counts) or not free.wins(s.pyr, counts)
        free.dead_cache[k] = dead
    return dead


def _dfs(s: st.State, info: DealTables, limit: _Limit) -> list[int] | None:
    force = s.rules.draw_count == 1
    free = _FreeStock(s, info, limit)
    if _dead(s, info, free):
        return None
    seen = {s.key()}
    path: list[int] = []
    tokens: list[st.Token] = []
    stack = [iter(_ordered(s, force))]
    while stack:
        i = next(stack[-1], None)
        if i is None:
            stack.pop()
            if tokens:
                st.undo(s, tokens.pop())
                path.pop()
            continue
        tok = st.apply(s, MOVES[i])
        if st.is_won(s):
            return [*path, i]
        k = s.key()
        if k in seen or _dead(s, info, free):
            st.undo(s, tok)
            continue
        seen.add(k)
        limit.tick()
        tokens.append(tok)
        path.append(i)
        stack.append(iter(_ordered(s, force)))
    return None


# ---------------------------------------------------------------------------------------------
# Verdict with a free stock (unlimited passes, draw one, waste top only)
# ---------------------------------------------------------------------------------------------
def free_stock_rules(rules: Rules) -> bool:
    """Unlimited passes, one card a draw, only the waste top in play (``relaxed``, ``unlimited``).

    Under these rules any live stock card can be brought to the waste top at will, so a
    position's future depends only on (pyramid shape, live stock cards per rank).
    """
    waste_top = rules.stock_play is StockPlay.WASTE_TOP
    return rules.passes is None and rules.draw_count == 1 and waste_top


def free_stock_moves(
    pyr: int, prank: tuple[int, ...], counts: list[int], covering: bool
) -> list[tuple[int, int, int, int]]:
    """Moves of the free-stock game from (pyramid ``pyr``, live stock cards per rank ``counts``).

    Each is ``(pyramid after, stock rank used or 0, slot, second slot or -1)``: a King (alone:
    when one is exposed it is the only move offered, since removing it never hurts), a pair of
    exposed pyramid cards, a card with its last coverer (``covering``), or a pyramid card with
    a live stock card of the partner rank. Shared by the solver's free-stock search and the
    lookahead agents (``pyramid_env.agents.lookahead``).
    """
    shape = SHAPES[pyr]
    exp = shape.exposed
    for i in exp:
        if prank[i] == KING:
            return [(pyr ^ (1 << i), 0, i, -1)]
    out = []
    for a, i in enumerate(exp):
        need = TARGET - prank[i]
        for j in exp[a + 1 :]:
            if prank[j] == need:
                out.append((pyr ^ (1 << i) ^ (1 << j), 0, i, j))
    if covering:
        for i, j in shape.covering:
            if prank[i] + prank[j] == TARGET:
                out.append((pyr ^ (1 << i) ^ (1 << j), 0, min(i, j), max(i, j)))
    for i in exp:
        q = TARGET - prank[i]
        if counts[q]:
            out.append((pyr ^ (1 << i), q, i, -1))
    return out


class _FreeStock:
    """Search on (pyramid shape, live stock cards per rank), as if the stock were free.

    "Free": any live stock card can be played at any time. Exact for free-stock rules (see the
    module docstring). For every other rule set it is a relaxation: a position it cannot win is
    lost, so the depth-first and A* searches use it to prune, with its verdicts cached across
    the whole search (many positions share a key).
    Abstract moves are ``(slot, slot)``, ``(slot, -rank)`` (with a stock card of that rank) and
    ``(slot, -13)`` (a King).
    """

    def __init__(self, s: st.State, info: DealTables, limit: _Limit) -> None:
        self.prank = info.prank
        self.info = info
        self.limit = limit
        self.covering = s.rules.covering_pair
        self.goal_all = s.rules.goal is Goal.ALL
        self.stock_pairs = s.rules.stock_play is not StockPlay.WASTE_TOP
        self.failed: set[int] = set()
        self.won: set[int] = set()
        self.dead_cache: dict[int, bool] = {}  # for _dead, keyed by pyr | reachable << 28

    @staticmethod
    def key(pyr: int, counts: list[int]) -> int:
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
        if pyr == 0:
            return False
        k = self.key(pyr, counts)
        if k in self.failed:
            return False
        self.limit.tick()
        prank = self.prank
        hopeless_class = self.info.hopeless_class
        for after, q, i, j in free_stock_moves(pyr, prank, counts, self.covering):
            king = not q and j < 0  # an exposed King, the only move offered when there is one
            if q:
                counts[q] -= 1
            if king or not hopeless_class(after, counts, prank[i]):
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
    free = _FreeStock(s, tables, _Limit(None, None))

    def wins(pyr: int, counts: list[int]) -> bool:
        if pyr == 0:
            return True
        return not tables.hopeless(pyr, counts) and free.wins(pyr, list(counts))

    return wins


def _concrete(s: st.State, abstract: list[tuple[int, int]]) -> list[int]:
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


# ---------------------------------------------------------------------------------------------
# Shortest: A* over engine positions
# ---------------------------------------------------------------------------------------------
def _fields_of(key: int, unlimited: bool) -> tuple[int, int, int, bool, int]:
    recycles = 0 if unlimited else key >> 58
    return key & FULL, key >> 28 & _STOCK_MASK, key >> 52 & 31, bool(key >> 57 & 1), recycles


def _uses_draw_term(rules: Rules) -> bool:
    return rules.stock_play is not StockPlay.FACE_UP_STOCK and rules.draw_count == 1


def _astar_compiled(s: st.State, info: DealTables, limit: _Limit) -> list[int] | None:
    """The same A* in :mod:`pyramid_env._kernel` (numba), run in chunks between limit checks."""
    if st.is_won(s):
        return []
    if _dead(s, info, _FreeStock(s, info, limit)):
        return None
    r = s.rules
    draws = _uses_draw_term(r)
    h0 = info.bound(s.pyr) + (info.draws(s.pyr, s.left, s.ptr) if draws else 0)
    knobs = (
        st.MODE[r.stock_play], -1 if r.recycles is None else r.recycles, r.covering_pair,
        r.draw_count == 3, r.dead_deal_ends_game, r.goal is Goal.ALL, draws,
    )  # fmt: skip
    search = _kernel.Search(
        info.prank, info.srank, tuple(int(k) for k in knobs), info.slots_of, info.stock_of,
        info.need, s.fields(), h0,
    )  # fmt: skip
    while True:
        chunk = 20_000
        if limit.budget is not None:
            chunk = min(chunk, limit.budget - limit.nodes + 1)
        result, expanded = search.run(chunk)
        limit.add(expanded)
        if result >= 0:
            return search.line(result)
        if result == _kernel.NO_WIN:
            return None
        if result == _kernel.TOO_DEEP:  # lines past the kernel's bucket range: rare, slow
            return _astar(s, info, limit)


def _astar(s: st.State, info: DealTables, limit: _Limit) -> list[int] | None:
    unlimited = s.rules.passes is None
    start = s.key()
    if st.is_won(s):
        return []
    g_of = {start: 0}
    parent: dict[int, tuple[int, int]] = {}
    draws = info.draws if _uses_draw_term(s.rules) else None

    def h(x: st.State) -> int:
        return info.bound(x.pyr) + (draws(x.pyr, x.left, x.ptr) if draws else 0)

    heap = [(h(s), 0, start)]  # (f, -g, key): ties go to the deeper position
    work = s.copy()
    free = _FreeStock(s, info, limit)
    if _dead(s, info, free):
        return None
    while heap:
        _, neg_g, k = heapq.heappop(heap)
        g = -neg_g
        if g > g_of[k]:  # a shorter way here was found after this entry was pushed
            continue
        work.pyr, work.left, work.ptr, work.drawn, work.recycles = _fields_of(k, unlimited)
        if st.is_won(work):
            line = []
            while k != start:
                k, i = parent[k]
                line.append(i)
            return line[::-1]
        limit.tick()
        for i in _ordered(work, force_stock_kings=False):
            tok = st.apply(work, MOVES[i])
            nk = work.key()
            if g + 1 < g_of.get(nk, 1 << 30) and (st.is_won(work) or not _dead(work, info, free)):
                g_of[nk] = g + 1
                parent[nk] = (k, i)
                heapq.heappush(heap, (g + 1 + h(work), -g - 1, nk))
            st.undo(work, tok)
    return None


# ---------------------------------------------------------------------------------------------
# The API
# ---------------------------------------------------------------------------------------------
class _Limit:
    __slots__ = ("nodes", "budget", "deadline", "start")

    def __init__(self, budget: int | None, time_limit: float | None) -> None:
        self.nodes = 0
        self.budget = budget
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit

    def tick(self) -> None:
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise _Budget
        if self.deadline is not None and not self.nodes & 1023:
            if time.perf_counter() > self.deadline:
                raise _Budget

    def add(self, n: int) -> None:
        """Count ``n`` expansions done elsewhere (the compiled kernel's chunks), then check."""
        self.nodes += n
        if self.budget is not None and self.nodes > self.budget:
            raise _Budget
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Budget


def _start_state(target: DealLike | Game | st.State, rules: Rules | str | None) -> st.State:
    if isinstance(target, Game):
        return target.state.copy()
    if isinstance(target, st.State):
        return target.copy()
    return st.State(target, rules)


def solve(
    target: DealLike | Game | st.State,
    rules: Rules | str | None = None,
    *,
    shortest: bool = False,
    budget: int | None = None,
    time_limit: float | None = None,
    check: bool = True,
    compiled: bool | None = None,
) -> Solution:
    """Solve a deal under ``rules``, or a ``Game``/``State`` from its current position.

    A deal is a number, a code, 52 cards as text or a ``Deal``. For a game or a state, ``rules``
    is ignored: the position's own rules apply.

    Args:
        target: what to solve.
        rules: preset name or ``Rules`` for a deal; default ``relaxed``.
        shortest: return a line with the fewest steps (draw, recycle and removal each count 1).
        budget: give up (status ``unknown``) after expanding this many positions.
        time_limit: give up (status ``unknown``) after this many seconds.
        check: replay a winning line through the engine before returning it (an assertion).
        compiled: run the shortest search in the numba kernel (:mod:`pyramid_env._kernel`);
            ``None`` (default) uses it when numba is installed (the ``fast`` extra), ``False``
            forces the pure-Python reference search.

    Raises:
        ImportError: ``compiled=True`` without numba installed.

    Returns:
        A :class:`Solution`.
    """
    if compiled and not _kernel.AVAILABLE:
        raise ImportError('compiled=True needs numba: pip install "pyramid-env[fast]"')
    use_kernel = _kernel.AVAILABLE if compiled is None else compiled
    s = _start_state(target, rules)
    limit = _Limit(budget, time_limit)
    info = DealTables(s)
    status = st.status(s)
    line: list[int] | None
    try:
        if status is st.Status.WON:
            line = []
        elif status is st.Status.LOST:
            line = None
        elif shortest and use_kernel:
            line = _astar_compiled(s.copy(), info, limit)
        elif shortest:
            line = _astar(s.copy(), info, limit)
        elif free_stock_rules(s.rules):
            counts = info.stock_counts(s.left)
            free = _FreeStock(s, info, limit)
            abstract = None if info.hopeless(s.pyr, counts) else free.solve(s.pyr, counts)
            line = None if abstract is None else _concrete(s, abstract)
        else:
            line = _dfs(s.copy(), info, limit)
    except _Budget:
        return Solution(Verdict.UNKNOWN, nodes=limit.nodes, seconds=_since(limit))
    seconds = _since(limit)
    if line is None:
        return Solution(Verdict.LOSS, nodes=limit.nodes, seconds=seconds, shortest=shortest)
    moves = tuple(MOVES[i] for i in line)
    texts = _replay(s, moves, check)
    return Solution(Verdict.WIN, moves, texts, limit.nodes, seconds, shortest)


def _since(limit: _Limit) -> float:
    return time.perf_counter() - limit.start


def _replay(s: st.State, moves: tuple[Move, ...], check: bool) -> tuple[str, ...]:
    """Play the line through the engine (checked); return its text form."""
    s = s.copy()
    texts = []
    for m in moves:
        texts.append(format_move(s, m))
        if check:
            st.apply_checked(s, m)
        else:
            st.apply(s, m)
    if check and not st.is_won(s):
        raise AssertionError("solver line does not win when replayed: " + " ".join(texts))
    return tuple(texts)


def is_winnable(game: Game | st.State, *, budget: int | None = None) -> bool | None:
    """Can the position still be won (knowing the stock)? ``None`` if the budget ran out."""
    sol = solve(game, budget=budget)
    return None if sol.status is Verdict.UNKNOWN else sol.status is Verdict.WIN


def best_move(
    game: Game | st.State, *, budget: int | None = 200_000, shortest: bool = True
) -> Move | None:
    """A move that keeps the position winnable, from a shortest line when the budget allows.

    Falls back to the first move of any winning line if the shortest search runs out of budget.
    Returns ``None`` when the position cannot be won (or nothing is left to do).
    """
    if shortest:
        sol = solve(game, shortest=True, budget=budget)
        if sol.status is not Verdict.UNKNOWN:
            return sol.moves[0] if sol.moves else None
    sol = solve(game)
    return sol.moves[0] if sol.moves else None


__all__ = [
    "DealTables",
    "Solution",
    "Verdict",
    "best_move",
    "free_stock_moves",
    "free_stock_oracle",
    "free_stock_rules",
    "is_winnable",
    "solve",
]
