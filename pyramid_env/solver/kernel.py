"""The solver's searches compiled with numba: an optional kernel behind :func:`solver.solve`.

The shortest-line A* (:func:`astar_chunk`, as :func:`pyramid_env.solver.shortest.astar`), the
depth-first verdict search (:func:`dfs_chunk`, as :func:`pyramid_env.solver.search.dfs`) and its
free-stock search (:func:`free_wins`), compiled when numba is installed. The rules are not
restated: they are the engine's primitives and dead-deal tests compiled as they are, the knobs
the same :class:`~pyramid_env.engine.primitives.Knobs`. Tests hold the compiled and Python
searches equal on every rule variant; every line is replayed through the engine. The searches
run in chunks over numpy arrays that grow between them: docs/solver.md ("The compiled kernel").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pyramid_env.engine import dead_deal as D
from pyramid_env.engine import moves
from pyramid_env.engine import primitives as P
from pyramid_env.engine.cards import KING, TARGET
from pyramid_env.engine.layout import COVER_MASK
from pyramid_env.jit import AVAILABLE, compiled, forget_stale_cache

__all__ = ["AVAILABLE", "astar_chunk", "dfs_chunk"]

_COVER = np.array(COVER_MASK, dtype=np.int64)
_KING = np.array(moves.KING_ID, dtype=np.int64)
_PAIR = np.array(moves.PAIR_ID, dtype=np.int64)
_MOVE_A = np.array(moves.MOVE_A, dtype=np.int64)
_MOVE_B = np.array(moves.MOVE_B, dtype=np.int64)
_W, _S = moves.WASTE, moves.STOCK
_CACHED: list[Any] = []
_jit = compiled(_CACHED)


@_jit
def _lowidx(x: int) -> int:
    return (x & -x).bit_length() - 1


@_jit
def _cannot_clear(pyr: int, left: int, prank: Any, slots_of: Any, stock_of: Any,
                  need: Any) -> bool:  # fmt: skip
    """``DealTables.cannot_clear`` over the live stock ``left``."""
    for r in range(1, 7):
        cr = (left & stock_of[r]).bit_count()
        cq = (left & stock_of[TARGET - r]).bit_count()
        if D.class_short(pyr, r, cr, cq, prank, slots_of, need):
            return True
    return False


@_jit
def _bound(pyr: int, left: int, ptr: int, use_draws: bool, prank: Any, slots_of: Any,
           stock_of: Any, need: Any) -> int:  # fmt: skip
    """``DealTables.bound`` plus, where it applies, ``DealTables.draws``."""
    h = P.removals_needed(pyr, slots_of)
    if not use_draws:
        return h
    ranks = P.stock_ranks_needed(pyr, prank, slots_of, need)
    return h + P.draws_needed(ranks, left, ptr, stock_of)


@_jit
def _expand(
    pyr: int, left: int, ptr: int, drawn: int, rec: int, prank: Any, srank: Any, k: Any,
    out_moves: Any, out_fields: Any, stock_of: Any, exps: Any, cands: Any,
) -> int:  # fmt: skip
    """Children of a position in the solver's order; returns how many.

    ``out_moves[c]`` is the move id, ``out_fields[c]`` the child's (pyr, left, ptr, drawn,
    recycles): the primitives' removals (:func:`~pyramid_env.engine.primitives.removals`) in
    their order, then draw or recycle. An exposed pyramid King is the only child when there is
    one (it never hurts). ``exps``, ``cands``: scratch for the pyramid's shape.
    """
    sh = P.shape(pyr, _COVER, k.covering_pair, exps, cands)
    ne, nc = sh & 255, sh >> 8
    i = P.exposed_king(exps, ne, prank)
    if i >= 0:
        out_moves[0] = _KING[i]
        _child(out_fields, 0, pyr ^ (1 << i), left, ptr, drawn, rec)
        return 1
    n = P.removals(exps, ne, cands, nc, left, ptr, drawn, prank, srank, _KING, _PAIR, k,
                   out_moves)  # fmt: skip
    if n == 0 and k.dead_deal_ends:
        exposed = 0
        for a in range(ne):
            exposed |= 1 << exps[a]
        if P.nothing_can_help(pyr, exposed, left, prank, stock_of, k):
            return 0  # 000's dead deal: the game is over
    turn = P.turn_id(left, ptr, rec, k)
    if turn >= 0:
        out_moves[n] = turn
        n += 1
    for c in range(n):
        m = out_moves[c]
        cp, cl, cptr, cd, cr = P.play(pyr, left, ptr, drawn, rec, m, _MOVE_A[m], _MOVE_B[m], k)
        _child(out_fields, c, cp, cl, cptr, cd, cr)
    return n


@_jit
def _child(out: Any, k: int, pyr: int, left: int, ptr: int, drawn: int, rec: int) -> None:
    out[k, 0] = pyr
    out[k, 1] = left
    out[k, 2] = ptr
    out[k, 3] = drawn
    out[k, 4] = rec


# Result codes of astar_chunk besides a goal node (>= 0).
NO_WIN, PAUSED, TOO_DEEP, GROW = -1, -2, -3, -4
_FMAX = 512  # f and g stay below this (bucket queue size); deeper searches fall back to Python
_EMPTY = -1  # an empty hash slot (keys are >= 0)
_HASH_MUL = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer


@_jit
def _find(hkeys: Any, k: int) -> int:
    """Slot of key ``k`` in the open-addressing table, or of the empty slot where it goes."""
    mask = len(hkeys) - 1
    h = ((k * _HASH_MUL) >> 29) & mask
    while hkeys[h] != _EMPTY and hkeys[h] != k:
        h = (h + 1) & mask
    return h


@_jit
def rehash(hkeys: Any, hvals: Any, new_keys: Any, new_vals: Any) -> None:
    """Move every entry into a larger table."""
    for h in range(len(hkeys)):
        if hkeys[h] != _EMPTY:
            j = _find(new_keys, hkeys[h])
            new_keys[j] = hkeys[h]
            new_vals[j] = hvals[h]


@_jit
def _push(head: Any, topg: Any, ent_node: Any, ent_next: Any, cnt: Any, f: int, g: int,
          node: int) -> None:  # fmt: skip
    e = cnt[2]
    cnt[2] = e + 1
    b = f * _FMAX + g
    ent_node[e] = node
    ent_next[e] = head[b]
    head[b] = e
    if g > topg[f]:
        topg[f] = g
    if f < cnt[3]:
        cnt[3] = f  # only if the bound were inconsistent; kept so the search stays exact
    cnt[4] += 1


@_jit
def astar_chunk(
    prank: Any, srank: Any, slots_of: Any, stock_of: Any, need: Any, k: Any, use_draws: bool,
    hkeys: Any, hvals: Any, nodes: Any, head: Any, topg: Any, ent_node: Any, ent_next: Any,
    cnt: Any, max_expand: int,
) -> tuple[int, int]:  # fmt: skip
    """Run A* for at most ``max_expand`` expansions; returns ``(result, expanded)``.

    ``result``: the goal node, or ``NO_WIN`` (search space exhausted), ``PAUSED`` (call again),
    ``TOO_DEEP`` (f or g reached the bucket limit) or ``GROW`` (a table needs room first).
    ``nodes[i]`` = (pyr | left << 28 | ptr << 52, drawn | recycles << 1, parent, move, g);
    ``hkeys``/``hvals`` map a position key to its node (-1: pruned); ``head``, ``topg``,
    ``ent_node``, ``ent_next`` are the bucket queue over (f, g), ``cnt`` its counters
    (docs/solver.md, "The compiled kernel"). ``use_draws``: the bound adds the draws term.
    """
    out_moves = np.empty(64, dtype=np.int64)
    out_fields = np.empty((64, 5), dtype=np.int64)
    exps = np.empty(28, dtype=np.int64)  # scratch: the shape of the position expanded
    cands = np.empty(56, dtype=np.int64)
    expanded = 0
    while cnt[4] > 0:
        if expanded >= max_expand:
            return PAUSED, expanded
        if (cnt[0] + 64 > len(nodes) or cnt[2] + 64 > len(ent_node)
                or 2 * (cnt[1] + 64) > len(hkeys)):  # fmt: skip
            return GROW, expanded
        f = cnt[3]
        g = topg[f]
        while g >= 0 and head[f * _FMAX + g] < 0:
            g -= 1
        topg[f] = g
        if g < 0:
            cnt[3] = f + 1
            if f + 1 >= _FMAX:
                return TOO_DEEP, expanded
            continue
        b = f * _FMAX + g
        e = head[b]
        head[b] = ent_next[e]
        cnt[4] -= 1
        idx = ent_node[e]
        if g > nodes[idx, 4]:
            continue  # a shorter way here was found after this entry was pushed
        packed, extra = nodes[idx, 0], nodes[idx, 1]
        pyr, left, ptr = packed & 0xFFFFFFF, (packed >> 28) & 0xFFFFFF, packed >> 52
        drawn, rec = extra & 1, extra >> 1
        if P.is_won(pyr, left, k):
            return idx, expanded
        expanded += 1
        if g + 2 >= _FMAX:
            return TOO_DEEP, expanded
        n = _expand(pyr, left, ptr, drawn, rec, prank, srank, k, out_moves, out_fields,
                    stock_of, exps, cands)  # fmt: skip
        for c in range(n):
            cp, cl, cptr, cd, cr = (out_fields[c, 0], out_fields[c, 1], out_fields[c, 2],
                                    out_fields[c, 3], out_fields[c, 4])  # fmt: skip
            key = P.key(cp, cl, cptr, cd, cr, k)
            h = _find(hkeys, key)
            j = hvals[h] if hkeys[h] == key else -2
            if j == -1:
                continue  # pruned before
            if j >= 0 and nodes[j, 4] <= g + 1:
                continue
            if j == -2:
                hkeys[h] = key
                cnt[1] += 1
                if not P.is_won(cp, cl, k):
                    reach = P.reachable(cp, cl, cptr, cr, srank, slots_of, k)
                    if _cannot_clear(cp, reach, prank, slots_of, stock_of, need):
                        hvals[h] = -1
                        continue
                j = cnt[0]
                cnt[0] = j + 1
                hvals[h] = j
                nodes[j, 0] = cp | cl << 28 | cptr << 52
                nodes[j, 1] = cd | cr << 1
            nodes[j, 2] = idx
            nodes[j, 3] = out_moves[c]
            nodes[j, 4] = g + 1
            fc = g + 1 + _bound(cp, cl, cptr, use_draws, prank, slots_of, stock_of, need)
            if fc >= _FMAX:
                return TOO_DEEP, expanded
            _push(head, topg, ent_node, ent_next, cnt, fc, g + 1, j)
    return NO_WIN, expanded


class _Chunked:
    """A compiled search run in chunks: ``_chunk`` runs one, ``_grow`` makes the room it asks."""

    def _chunk(self, budget: int) -> tuple[int, int]:
        raise NotImplementedError

    def _grow(self) -> None:
        raise NotImplementedError

    def run(self, max_expand: int) -> tuple[int, int]:
        """Expand up to ``max_expand`` positions, growing the tables as they fill.

        A chunk stops early with ``GROW`` when an array needs room; ``_grow`` makes it, and the
        search goes on where it stopped.

        Returns:
            ``(result, expanded)`` as the chunk gives them (never ``GROW``).
        """
        done = 0
        while True:
            result, n = self._chunk(max_expand - done)
            done += n
            if result != GROW:
                return result, done
            self._grow()


def _deal_arrays(prank: tuple[int, ...], srank: tuple[int, ...], knobs: P.Knobs,
                 slots_of: list[int], stock_of: list[int],
                 need: tuple[int, ...]) -> tuple[Any, ...]:  # fmt: skip
    """A deal's tables as the chunks take them: int64 arrays, then the rules as plain ints."""
    arrays = (np.array(t, dtype=np.int64) for t in (prank, srank, slots_of, stock_of, need))
    return (*arrays, P.Knobs(*(int(v) for v in knobs)))


class Search(_Chunked):
    """One A* run: the tables of a deal and rules, and the arrays the chunks share."""

    def __init__(
        self,
        prank: tuple[int, ...],
        srank: tuple[int, ...],
        knobs: P.Knobs,
        slots_of: list[int],
        stock_of: list[int],
        need: tuple[int, ...],
        use_draws: bool,
        start: tuple[int, int, int, bool, int],
        h0: int,
    ) -> None:
        """Set up the search from ``start`` with bound ``h0``.

        Tables as :class:`~pyramid_env.solver.tables.DealTables` holds them; ``use_draws``:
        the bound adds the draws still needed.
        """
        i64 = np.int64
        self.tables = (*_deal_arrays(prank, srank, knobs, slots_of, stock_of, need),
                       bool(use_draws))  # fmt: skip
        self.hkeys = np.full(1 << 16, _EMPTY, dtype=i64)
        self.hvals = np.zeros(1 << 16, dtype=i64)
        self.nodes = np.zeros((1 << 15, 5), dtype=i64)
        self.head = np.full(_FMAX * _FMAX, -1, dtype=i64)
        self.topg = np.full(_FMAX, -1, dtype=i64)
        self.ent_node = np.zeros(1 << 15, dtype=i64)
        self.ent_next = np.zeros(1 << 15, dtype=i64)
        self.cnt = np.zeros(5, dtype=i64)
        pyr, left, ptr, drawn, rec = start
        self.nodes[0] = (pyr | left << 28 | ptr << 52, int(drawn) | rec << 1, -1, -1, 0)
        key = P.key(pyr, left, ptr, int(drawn), rec, knobs)
        h = _find(self.hkeys, key)
        self.hkeys[h], self.hvals[h] = key, 0
        self.cnt[:] = (1, 1, 0, h0, 0)
        _push(self.head, self.topg, self.ent_node, self.ent_next, self.cnt, h0, 0, 0)

    def _chunk(self, budget: int) -> tuple[int, int]:
        return astar_chunk(*self.tables, self.hkeys, self.hvals, self.nodes, self.head,
                           self.topg, self.ent_node, self.ent_next, self.cnt,
                           budget)  # fmt: skip

    def _grow(self) -> None:
        n_nodes, n_keys, n_ent = int(self.cnt[0]), int(self.cnt[1]), int(self.cnt[2])
        if n_nodes + 64 > len(self.nodes):
            self.nodes = np.concatenate([self.nodes, np.zeros_like(self.nodes)])
        if n_ent + 64 > len(self.ent_node):
            self.ent_node = np.concatenate([self.ent_node, np.zeros_like(self.ent_node)])
            self.ent_next = np.concatenate([self.ent_next, np.zeros_like(self.ent_next)])
        if 2 * (n_keys + 64) > len(self.hkeys):
            keys = np.full(2 * len(self.hkeys), _EMPTY, dtype=np.int64)
            vals = np.zeros(2 * len(self.hkeys), dtype=np.int64)
            rehash(self.hkeys, self.hvals, keys, vals)
            self.hkeys, self.hvals = keys, vals

    def line(self, goal: int) -> list[int]:
        """Move ids from the start to node ``goal``."""
        out = []
        while self.nodes[goal, 2] >= 0:
            out.append(int(self.nodes[goal, 3]))
            goal = int(self.nodes[goal, 2])
        return out[::-1]


# -- the verdict search -------------------------------------------------------------------------
# Result codes of dfs_chunk (besides PAUSED and GROW, as for astar_chunk).
WIN, LOSS = 1, 0


_FULL_AT = 0.7  # a cache table this full takes no new entries (a cache may forget)


@_jit
def _free_key(pyr: int, counts: Any) -> int:
    """A free-stock position as one int: the pyramid, then the counts of ranks 1..12 in base 5."""
    key = pyr
    for r in range(1, KING):
        key = key * 5 + counts[r]
    return key


@_jit
def _remember(keys: Any, vals: Any, cnt: Any, slot: int, key: int, value: int) -> None:
    """Store ``key -> value`` in an open-addressing cache, unless the table is full enough."""
    if cnt[0] < _FULL_AT * len(keys):
        keys[slot] = key
        vals[slot] = value
        cnt[0] += 1


_STOP = -1  # _free_wins / _pruned: stopped midway (cache full or chunk spent), nothing decided
_WORK_SLICE = 20_000  # positions (main and free-stock) a verdict chunk may run between checks


@_jit
def _free_wins(pyr: int, counts: Any, prank: Any, slots_of: Any, need: Any, k: Any,
               fkeys: Any, fvals: Any, fcnt: Any, fexp: Any, scratch: Any) -> int:  # fmt: skip
    """:meth:`FreeStock.wins <pyramid_env.solver.free_stock.FreeStock.wins>`, compiled.

    The same moves in the same order (a King alone, else
    :func:`~pyramid_env.engine.primitives.free_removals`), the same tests, from (``pyr``,
    ``counts``: live stock cards per rank, changed and restored), verdicts cached in
    ``fkeys``/``fvals``. Returns 1 (won), 0 (lost) or ``_STOP``: the cache is full or the
    positions expanded (``fexp[0]``, counted as ``FreeStock`` ticks them) reached ``fexp[1]``;
    run again, it goes on from its cached verdicts (``fexp[2]`` counts the positions expanded
    and left undecided, which it expands again). ``scratch``: a row per level.
    """
    if pyr == 0:
        if not k.goal_all:
            return 1
        for r in range(1, 7):
            if k.stock_pairs:
                if counts[r] != counts[TARGET - r]:
                    return 0
            elif counts[r] or counts[TARGET - r]:
                return 0
        return 1
    if D.stock_stranded(pyr, counts, slots_of, k):
        return 0
    key = _free_key(pyr, counts)
    h = _find(fkeys, key)
    if fkeys[h] == key:
        return fvals[h]
    if fcnt[0] >= _FULL_AT * len(fkeys) or fexp[0] >= fexp[1]:
        return _STOP
    fexp[0] += 1
    level = pyr.bit_count()  # each move removes a pyramid card: one row of scratch a level
    exps, cands, out = scratch[0][level], scratch[1][level], scratch[2][level]
    sh = P.shape(pyr, _COVER, k.covering_pair, exps, cands)
    ne = sh & 255
    i = P.exposed_king(exps, ne, prank)
    if i >= 0:  # a King goes alone: removing it never hurts
        won = _free_wins(pyr ^ (1 << i), counts, prank, slots_of, need, k, fkeys, fvals, fcnt,
                         fexp, scratch)  # fmt: skip
        if won != _STOP:
            _remember(fkeys, fvals, fcnt, _find(fkeys, key), key, won)
        else:
            fexp[2] += 1  # expanded, not decided: the next run expands it again
        return won
    n = P.free_removals(exps, ne, cands, sh >> 8, counts, prank, _KING, _PAIR, k.covering_pair,
                        out)  # fmt: skip
    for c in range(n):
        m = out[c]
        a, b = _MOVE_A[m], _MOVE_B[m]
        r = prank[a]
        q = TARGET - r
        stock = b == _W  # with a stock card of rank q
        if stock:
            counts[q] -= 1
            after = pyr ^ (1 << a)
        else:
            after = pyr ^ (1 << a) ^ (1 << b)
        won = 0
        if not D.class_short(after, r, counts[r], counts[q], prank, slots_of, need):
            won = _free_wins(after, counts, prank, slots_of, need, k, fkeys, fvals, fcnt, fexp,
                             scratch)  # fmt: skip
        if stock:
            counts[q] += 1
        if won == 1:
            _remember(fkeys, fvals, fcnt, _find(fkeys, key), key, 1)
        elif won == _STOP:
            fexp[2] += 1  # expanded, not decided: the next run expands it again
        if won != 0:
            return won
    _remember(fkeys, fvals, fcnt, _find(fkeys, key), key, 0)
    return 0


@_jit
def _free_scratch() -> tuple[Any, Any, Any]:
    """Room for :func:`_free_wins`: the shape and moves of each level, by pyramid cards left."""
    return (np.empty((29, 28), dtype=np.int64), np.empty((29, 56), dtype=np.int64),
            np.empty((29, 64), dtype=np.int64))  # fmt: skip


def free_wins(prank: tuple[int, ...], slots_of: list[int], need: tuple[int, ...],
              knobs: P.Knobs, pyr: int, counts: list[int], limit: Any) -> bool:  # fmt: skip
    """:meth:`FreeStock.wins <pyramid_env.solver.free_stock.FreeStock.wins>` run compiled.

    The same search (:func:`_free_wins`) in slices of at most ``limit.chunk()`` positions, each
    charged with ``limit.add`` (which raises ``Budget`` past the budget or the clock), so a
    budget ends it where the Python search would. A slice that stops on a full cache is run
    again in a larger one (its verdicts found are kept). A run after a stop expands again the
    undecided positions on the path where it stopped (``fexp[2]`` of them) before any new one:
    those are not charged twice, and do not count against the slice.
    """
    i64 = np.int64
    k = P.Knobs(*(int(v) for v in knobs))
    prank_a, slots_a, need_a = (np.array(t, dtype=i64) for t in (prank, slots_of, need))
    live = np.array(counts, dtype=i64)
    keys, vals = np.full(1 << 12, _EMPTY, dtype=i64), np.zeros(1 << 12, dtype=i64)
    fcnt, fexp, scratch = np.zeros(1, dtype=i64), np.zeros(3, dtype=i64), _free_scratch()
    again = 0  # positions the last run expanded and left undecided: this run expands them again
    while True:
        fexp[0], fexp[1], fexp[2] = 0, limit.chunk() + again, 0
        won = _free_wins(pyr, live, prank_a, slots_a, need_a, k, keys, vals, fcnt, fexp, scratch)
        limit.add(int(fexp[0]) - again)
        again = int(fexp[2])
        if won != _STOP:
            return won == 1
        if fcnt[0] >= _FULL_AT * len(keys):
            bigger = np.full(2 * len(keys), _EMPTY, dtype=i64), np.zeros(2 * len(keys), dtype=i64)
            rehash(keys, vals, *bigger)
            keys, vals = bigger


@_jit
def _pruned(pyr: int, reach: int, slot: int, prank: Any, slots_of: Any, stock_of: Any,
            need: Any, k: Any, caches: Any, cache_cnt: Any, counts: Any, fexp: Any,
            scratch: Any) -> int:  # fmt: skip
    """:func:`pyramid_env.solver.search.pruned` on a cache miss: 1 if lost for sure, else 0.

    ``reach``: the stock cards still reachable; ``slot``: where the key ``pyr | reach << 28``
    goes in ``caches[0:2]`` (the free-stock verdicts are in ``caches[2:4]``). ``dfs_chunk``
    reads the cache itself: a hit, the common case, costs no call. ``_STOP`` (nothing cached)
    when the free-stock search stopped midway (see :func:`_free_wins`).
    """
    dead = 1 if _cannot_clear(pyr, reach, prank, slots_of, stock_of, need) else 0
    if not dead:
        for r in range(14):
            counts[r] = (reach & stock_of[r]).bit_count()
        won = _free_wins(pyr, counts, prank, slots_of, need, k, caches[2], caches[3],
                         cache_cnt[1:], fexp, scratch)  # fmt: skip
        if won == _STOP:
            return _STOP
        dead = 1 - won
    _remember(caches[0], caches[1], cache_cnt, slot, pyr | reach << 28, dead)
    return dead


@_jit
def dfs_chunk(
    prank: Any, srank: Any, slots_of: Any, stock_of: Any, need: Any, k: Any,
    hkeys: Any, lv_fields: Any, lv_moves: Any, lv_n: Any, lv_i: Any, cnt: Any, caches: Any,
    cache_cnt: Any, max_expand: int,
) -> tuple[int, int]:  # fmt: skip
    """Depth-first verdict search for at most ``max_expand`` expansions: ``(result, expanded)``.

    ``result``: ``WIN`` (the line: ``lv_moves[j, lv_i[j] - 1]`` for ``j < cnt[0]``, then
    ``cnt[2]``), ``LOSS``, ``PAUSED`` (call again) or ``GROW`` (a table needs room first). The
    search of :func:`pyramid_env.solver.search.dfs`: level ``d`` of the stack holds ``lv_n[d]``
    children (``lv_fields``, ``lv_moves``), the next to try ``lv_i[d]``; ``hkeys``, the
    positions entered; ``caches``, the pruning caches. A chunk also stops after a slice of work
    counting the free-stock positions, so the caller's clock is read (docs/solver.md).
    """
    exps = np.empty(28, dtype=np.int64)  # scratch: the shape of the position expanded
    cands = np.empty(56, dtype=np.int64)
    counts = np.zeros(14, dtype=np.int64)
    fexp = np.zeros(3, dtype=np.int64)  # free-stock: expanded, the most allowed, left undecided
    scratch = _free_scratch()  # the free-stock search's shape and moves, a row per level
    dkeys, dvals = caches[0], caches[1]  # the dead-position cache (it grows between chunks)
    force_kings = k.draw_count == 1
    expanded = 0
    work = 0  # expanded, plus the free-stock positions: what bounds a chunk's time
    # At least a full slice of work, however little budget is left: with the budget's last
    # position to spend, the free-stock search still needs room to finish (it goes on where it
    # stopped, its verdicts cached, but never if each slice were one position).
    slice_ = max(max_expand, _WORK_SLICE)
    while True:
        d = cnt[0]
        if d < 0:
            return LOSS, expanded
        if lv_i[d] >= lv_n[d]:
            cnt[0] = d - 1
            continue
        if expanded >= max_expand or work >= slice_:
            return PAUSED, expanded
        # fmt: off
        if (d + 2 >= len(lv_n) or 2 * (cnt[1] + 64) > len(hkeys)
                or cache_cnt[0] > 0.5 * caches.shape[1] or cache_cnt[1] > 0.5 * caches.shape[1]):
            return GROW, expanded
        # fmt: on
        c = lv_i[d]
        lv_i[d] = c + 1
        pyr, left, ptr = lv_fields[d, c, 0], lv_fields[d, c, 1], lv_fields[d, c, 2]
        drawn, rec = lv_fields[d, c, 3], lv_fields[d, c, 4]
        if P.is_won(pyr, left, k):
            cnt[2] = lv_moves[d, c]
            return WIN, expanded
        key = P.key(pyr, left, ptr, drawn, rec, k)
        h = _find(hkeys, key)
        if hkeys[h] == key:
            continue  # entered before, or pruned
        reach = P.reachable(pyr, left, ptr, rec, srank, slots_of, k)
        dkey = pyr | reach << 28
        slot = _find(dkeys, dkey)
        fexp[0] = 0
        if dkeys[slot] == dkey:
            dead = dvals[slot]
        else:
            fexp[1] = slice_ - work
            dead = _pruned(pyr, reach, slot, prank, slots_of, stock_of, need, k, caches,
                           cache_cnt, counts, fexp, scratch)  # fmt: skip
            work += fexp[0]
        if dead == _STOP or (not dead and (expanded >= max_expand or work >= slice_)):
            lv_i[d] = c  # this position again in the next chunk (its verdicts found are cached)
            return (GROW if dead == _STOP and fexp[0] < fexp[1] else PAUSED), expanded
        hkeys[h] = key
        cnt[1] += 1
        if dead:
            continue
        expanded += 1
        work += 1
        n = _expand(pyr, left, ptr, drawn, rec, prank, srank, k, lv_moves[d + 1],
                    lv_fields[d + 1], stock_of, exps, cands)  # fmt: skip
        if force_kings:  # a waste or stock King goes alone, as an exposed pyramid King does
            for j in range(n):
                m = lv_moves[d + 1, j]
                if m == _KING[_W] or m == _KING[_S]:
                    lv_moves[d + 1, 0] = m
                    for f in range(5):
                        lv_fields[d + 1, 0, f] = lv_fields[d + 1, j, f]
                    n = 1
                    break
        lv_n[d + 1] = n
        lv_i[d + 1] = 0
        cnt[0] = d + 1


class DepthFirst(_Chunked):
    """One depth-first verdict search: the tables of a deal and rules, and its stack."""

    def __init__(
        self,
        prank: tuple[int, ...],
        srank: tuple[int, ...],
        knobs: P.Knobs,
        slots_of: list[int],
        stock_of: list[int],
        need: tuple[int, ...],
        start: tuple[int, int, int, bool, int],
    ) -> None:
        """Set up the search from ``start`` (which must not be won, lost or pruned)."""
        i64 = np.int64
        self.tables = _deal_arrays(prank, srank, knobs, slots_of, stock_of, need)
        # Small to start (a verdict from mid-game is often quick); each grows as it fills.
        self.hkeys = np.full(1 << 12, _EMPTY, dtype=i64)
        self.lv_fields = np.zeros((64, 64, 5), dtype=i64)
        self.lv_moves = np.zeros((64, 64), dtype=i64)
        self.lv_n = np.zeros(64, dtype=i64)
        self.lv_i = np.zeros(64, dtype=i64)
        self.cnt = np.zeros(4, dtype=i64)
        self.caches = np.zeros((4, 1 << 12), dtype=i64)
        self.caches[0] = self.caches[2] = _EMPTY
        self.cache_cnt = np.zeros(2, dtype=i64)
        pyr, left, ptr, drawn, rec = start
        self.lv_fields[0, 0] = (pyr, left, ptr, int(drawn), rec)
        self.lv_moves[0, 0] = -1
        self.lv_n[0] = 1

    def _chunk(self, budget: int) -> tuple[int, int]:
        return dfs_chunk(*self.tables, self.hkeys, self.lv_fields, self.lv_moves, self.lv_n,
                         self.lv_i, self.cnt, self.caches, self.cache_cnt, budget)  # fmt: skip

    def _grow(self) -> None:
        if self.cnt[0] + 2 >= len(self.lv_n):
            self.lv_fields = np.concatenate([self.lv_fields, np.zeros_like(self.lv_fields)])
            self.lv_moves = np.concatenate([self.lv_moves, np.zeros_like(self.lv_moves)])
            self.lv_n = np.concatenate([self.lv_n, np.zeros_like(self.lv_n)])
            self.lv_i = np.concatenate([self.lv_i, np.zeros_like(self.lv_i)])
        if 2 * (self.cnt[1] + 64) > len(self.hkeys):
            keys = np.full(2 * len(self.hkeys), _EMPTY, dtype=np.int64)
            rehash_set(self.hkeys, keys)
            self.hkeys = keys
        if self.cache_cnt.max() > 0.5 * self.caches.shape[1]:
            old = self.caches
            self.caches = np.zeros((4, 2 * old.shape[1]), dtype=np.int64)
            self.caches[0] = self.caches[2] = _EMPTY
            rehash(old[0], old[1], self.caches[0], self.caches[1])
            rehash(old[2], old[3], self.caches[2], self.caches[3])

    def line(self) -> list[int]:
        """Move ids from the start to the win (after ``run`` returned ``WIN``)."""
        depth = int(self.cnt[0])
        out = [int(self.lv_moves[j, self.lv_i[j] - 1]) for j in range(1, depth)]
        return [*out, int(self.cnt[2])]


@_jit
def rehash_set(hkeys: Any, new_keys: Any) -> None:
    """Move every key into a larger set."""
    for h in range(len(hkeys)):
        if hkeys[h] != _EMPTY:
            new_keys[_find(new_keys, hkeys[h])] = hkeys[h]


forget_stale_cache(_CACHED, "kernel")
