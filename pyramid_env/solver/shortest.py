"""The shortest search: A* over engine positions, every step (draw, recycle, removal) costing 1.

The bound is "removals still needed" (for each rank class ``{r, 13 - r}`` at least
``max(pyramid r, pyramid 13 - r)``, plus one per pyramid King), admissible and consistent; where
every stock card must be drawn to be played (one card a draw, no face-up stock top) the draws
still needed are added (:func:`~pyramid_env.engine.primitives.draws_needed`). With numba
installed (the ``fast`` extra) the same A* runs compiled (:mod:`pyramid_env.solver.kernel`);
:func:`astar` is the pure-Python reference that tests compare it with.
"""

from __future__ import annotations

import heapq

from pyramid_env.engine import primitives as P
from pyramid_env.engine import state as st
from pyramid_env.engine.moves import MOVES
from pyramid_env.solver import kernel
from pyramid_env.solver.free_stock import FreeStock
from pyramid_env.solver.search import ordered, pruned
from pyramid_env.solver.tables import DealTables, Limit


def uses_draw_term(k: P.Knobs) -> bool:
    """Whether the bound may count draws: every stock card must be drawn to be played."""
    return not k.face_up_top and k.draw_count == 1


def astar_compiled(s: st.State, info: DealTables, limit: Limit) -> list[int] | None:
    """The same A* in :mod:`pyramid_env.solver.kernel`, run in chunks between limit checks."""
    if st.is_won(s):
        return []
    if pruned(s, info, FreeStock(s, info, limit)):
        return None
    k = s.knobs
    draws = uses_draw_term(k)
    h0 = info.bound(s.pyr) + (info.draws(s.pyr, s.left, s.ptr) if draws else 0)
    search = kernel.Search(
        info.prank, info.srank, k, info.slots_of, info.stock_of, info.need, draws, s.fields(),
        h0,
    )  # fmt: skip
    while True:
        result, expanded = search.run(limit.chunk())
        limit.add(expanded)
        if result >= 0:
            return search.line(result)
        if result == kernel.NO_WIN:
            return None
        if result == kernel.TOO_DEEP:  # lines past the kernel's bucket range: rare, slow
            return astar(s, info, limit)


def astar(s: st.State, info: DealTables, limit: Limit) -> list[int] | None:
    """A shortest winning line (move ids) from ``s``, or ``None``; the pure-Python reference."""
    k = s.knobs
    start = s.key()
    if st.is_won(s):
        return []
    g_of = {start: 0}
    parent: dict[int, tuple[int, int]] = {}
    draws = info.draws if uses_draw_term(k) else None

    def h(x: st.State) -> int:
        return info.bound(x.pyr) + (draws(x.pyr, x.left, x.ptr) if draws else 0)

    heap = [(h(s), 0, start)]  # (f, -g, key): ties go to the deeper position
    work = s.copy()
    free = FreeStock(s, info, limit)
    if pruned(s, info, free):
        return None
    while heap:
        _, neg_g, key = heapq.heappop(heap)
        g = -neg_g
        if g > g_of[key]:  # a shorter way here was found after this entry was pushed
            continue
        work.pyr, work.left, work.ptr, drawn, work.recycles = P.unkey(key, k)
        work.drawn = bool(drawn)
        if st.is_won(work):
            line = []
            while key != start:
                key, i = parent[key]
                line.append(i)
            return line[::-1]
        limit.tick()
        for i in ordered(work, force_stock_kings=False):
            tok = st.apply(work, MOVES[i])
            nk = work.key()
            if g + 1 < g_of.get(nk, 1 << 30) and (st.is_won(work) or not pruned(work, info, free)):
                g_of[nk] = g + 1
                parent[nk] = (key, i)
                heapq.heappush(heap, (g + 1 + h(work), -g - 1, nk))
            st.undo(work, tok)
    return None
