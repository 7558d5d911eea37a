"""The verdict search: depth-first over engine positions, with the solver's pruning.

Removals come before turning the stock, with a set of positions already entered
(``State.key()``, which under unlimited recycling ignores the lap count, so the search closes).
Pruned (:func:`pruned`): positions where some pyramid card has no partner left that it could
ever meet, where a rank class runs short by count, and where even a free stock would not win
(the free-stock relaxation, on the stock cards still reachable). An exposed pyramid King is
removed at once (it never hurts: it only exposes cards), and so is a waste or stock King when
one card is turned per draw.
"""

from __future__ import annotations

from pyramid_env.engine import state as st
from pyramid_env.engine.layout import SLOTS
from pyramid_env.engine.moves import KING_AT, MOVES, RECYCLE, WASTE
from pyramid_env.engine.primitives import reachable as _reachable
from pyramid_env.solver import kernel
from pyramid_env.solver.free_stock import FreeStock
from pyramid_env.solver.tables import DealTables, Limit

KING_IDS = range(KING_AT[0].id, KING_AT[-1].id + 1)
_FIRST_KING_AT_STOCK = KING_AT[WASTE].id  # King ids below this are pyramid slots
_PYRAMID_CARDS = tuple(sum(p < SLOTS for p in m.places) for m in MOVES)
"""Pyramid cards each move removes: the search tries pairs inside the pyramid first."""


def ordered(s: st.State, force_stock_kings: bool) -> list[int]:
    """Legal move ids in search order: a forced King alone, else removals, then draw/recycle."""
    ids = st.legal_ids(s)
    if not ids:
        return ids
    turn = ids[0] if ids[0] <= RECYCLE.id else -1
    for i in ids:  # ids are sorted: draw/recycle, then Kings, then pairs
        if i in KING_IDS:
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


def pruned(s: st.State, info: DealTables, free: FreeStock) -> bool:
    """Lost for sure: a card or rank class can never be cleared, or a free stock would not win.

    The free stock is made of the stock cards still reachable.

    Cached on (pyramid, reachable stock), which many positions share: they differ only in where
    the stock is turned to.
    """
    reach = _reachable(s.pyr, s.left, s.ptr, s.recycles, info.srank, info.slots_of, s.knobs)
    k = s.pyr | reach << 28
    dead = free.dead_cache.get(k)
    if dead is None:
        counts = info.stock_counts(reach)
        dead = info.cannot_clear(s.pyr, counts) or not free.wins(s.pyr, counts)
        free.dead_cache[k] = dead
    return dead


# The start position's free-stock verdict, with the positions it cost, by (pyramid ranks, rules,
# pyramid, reachable stock per rank): a search agent solves many deals that differ only in the
# order of the unseen stock (pimc: dozens a decision), and they share this key.
_START: dict[tuple, tuple[bool, int]] = {}
_START_MAX = 20_000


def _pruned_start(s: st.State, info: DealTables, limit: Limit) -> bool:
    """:func:`pruned` for a compiled search's start position, remembered across searches.

    The free-stock search runs compiled (:func:`~pyramid_env.solver.kernel.free_wins`),
    charging ``limit`` as :class:`FreeStock` would. The verdict and the positions it expanded
    depend only on the key, so a hit charges ``limit`` those positions: the budget runs out
    exactly where it would have.
    """
    reach = _reachable(s.pyr, s.left, s.ptr, s.recycles, info.srank, info.slots_of, s.knobs)
    counts = info.stock_counts(reach)
    key = (info.prank, s.knobs, s.pyr, tuple(counts))
    hit = _START.get(key)
    if hit is not None:
        dead, expanded = hit
        if limit.budget is not None and limit.nodes + expanded > limit.budget:
            limit.nodes = limit.budget
            limit.tick()  # raises one position past the budget, where the search itself would
        limit.add(expanded)
        return dead
    before = limit.nodes
    dead = info.cannot_clear(s.pyr, counts) or not kernel.free_wins(
        info.prank, info.slots_of, info.need, s.knobs, s.pyr, counts, limit
    )
    if len(_START) >= _START_MAX:
        _START.clear()
    _START[key] = (dead, limit.nodes - before)
    return dead


def dfs(s: st.State, info: DealTables, limit: Limit) -> list[int] | None:
    """A winning line (move ids) from ``s``, or ``None`` if there is none.

    ``s`` is used as scratch: it is left as it was found.
    """
    force = s.rules.draw_count == 1
    free = FreeStock(s, info, limit)
    if pruned(s, info, free):
        return None
    seen = {s.key()}
    path: list[int] = []
    tokens: list[st.Token] = []
    stack = [iter(ordered(s, force))]
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
        if k in seen or pruned(s, info, free):
            st.undo(s, tok)
            continue
        seen.add(k)
        limit.tick()
        tokens.append(tok)
        path.append(i)
        stack.append(iter(ordered(s, force)))
    return None


def dfs_compiled(s: st.State, info: DealTables, limit: Limit) -> list[int] | None:
    """The same verdict search in :mod:`pyramid_env.solver.kernel`, in chunks between checks.

    The start position is pruned here (:func:`_pruned_start`), since the kernel's stack starts
    from a position it has entered; every line is replayed through the engine by
    :func:`~pyramid_env.solver.solve`.
    """
    if _pruned_start(s, info, limit):
        return None
    search = kernel.DepthFirst(
        info.prank, info.srank, s.knobs, info.slots_of, info.stock_of, info.need, s.fields()
    )
    while True:
        result, expanded = search.run(limit.chunk())
        limit.add(expanded)
        if result == kernel.WIN:
            return search.line()
        if result == kernel.LOSS:
            return None
