"""The shortest-line A* compiled with numba: an optional kernel behind :func:`solver.solve`.

Pure Python expands about 70,000 positions a second; a shortest line under ``msc`` can take a
million positions, so the pure-Python A* was about 5x slower than the Java solver that issue 3
measures us against. This module is the same search (the same bound, the same pruning tests,
the same move rules) over the same packed positions, compiled when ``numba`` is installed
(``pip install "pyramid-env[fast]"``). :mod:`pyramid_env.solver` keeps the pure-Python A* as
the reference: tests compare the two on every preset, and every line the kernel returns is
replayed move by move through the engine before the solver hands it out.

What the kernel leaves out, on purpose: the free-stock relaxation that the Python search also
prunes with (a search of its own, with a cache; the kernel prunes with the per-card and
per-rank-class tests only). Both are exact pruning, so the line lengths are the same; the
kernel just expands some positions the relaxation would have cut.

The move generator mirrors :func:`pyramid_env.engine.state.legal_ids` and ``apply``; the rule
knobs arrive as integers (``mode``: 0 waste top, 1 drawn card and waste, 2 face-up stock).
The search state lives in numpy arrays held by :class:`Search` (an open-addressing table from
position key to node, the nodes, and a bucket queue over (f, g) in place of a heap: numba's
``heapq`` on a typed list cost 1.3 us a push and pop, the buckets a few ns), so the search runs
in chunks of expansions, the tables grow between chunks, and the caller can stop at a deadline.

Measured (``experiments/bench_solver.py --shortest``, msc-1500 decks 0-29, one run after the
other): 152.8 s pure Python, 11.8 s compiled; all 1,500 decks in 474 s, every length equal to
the oracle's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from numba import njit
except ImportError:  # the kernel is optional; solver.py falls back to pure Python
    njit = None

from pyramid_env.engine.layout import COVER_MASK
from pyramid_env.engine.moves import KING_AT, PAIR_AT, PLACES, STOCK, WASTE

AVAILABLE = njit is not None

_POP = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.int64)
_BITLEN = np.array([i.bit_length() for i in range(1 << 16)], dtype=np.int64)
_COVER = np.array(COVER_MASK, dtype=np.int64)
_KING = np.array([m.id for m in KING_AT], dtype=np.int64)
_PAIR = np.full((PLACES, PLACES), -1, dtype=np.int64)
for (_a, _b), _m in PAIR_AT.items():
    _PAIR[_a, _b] = _PAIR[_b, _a] = _m.id
_W, _S = WASTE, STOCK


def _jit(fn: Any) -> Any:
    return njit(cache=True, nogil=True)(fn) if AVAILABLE else fn


@_jit
def _pop(x: int) -> int:
    return _POP[x & 0xFFFF] + _POP[(x >> 16) & 0xFFFF]


@_jit
def _bitlen(x: int) -> int:
    if x >> 16:
        return 16 + _BITLEN[x >> 16]
    return _BITLEN[x]


@_jit
def _lowidx(x: int) -> int:
    return _bitlen(x & -x) - 1


@_jit
def _tops(left: int, ptr: int, drawn: int, mode: int) -> tuple[int, int]:
    waste = left & ((1 << ptr) - 1)
    w = _bitlen(waste) - 1
    d = -1
    if mode == 1:
        if drawn:
            d = w
            w = _bitlen(waste ^ (1 << w)) - 1
    elif mode == 2:
        hi = left >> ptr
        if hi:
            d = ptr + _lowidx(hi)
    return w, d


@_jit
def _hopeless(pyr: int, left: int, prank: Any, slots_of: Any, stock_of: Any, need: Any) -> bool:
    """``DealTables.hopeless`` over the live stock ``left``.

    True when a pyramid card has no partner it could ever meet, or a rank class is short.
    """
    for r in range(1, 7):
        q = 13 - r
        pr, pq = _pop(pyr & slots_of[r]), _pop(pyr & slots_of[q])
        cr, cq = _pop(left & stock_of[r]), _pop(left & stock_of[q])
        if pr > pq + cq or pq > pr + cr:
            return True
        m = pyr & (slots_of[r] | slots_of[q])
        while m:
            i = _lowidx(m)
            m &= m - 1
            if _pop(left & stock_of[13 - prank[i]]) == 0 and not (pyr & need[i]):
                return True
    return False


@_jit
def _reachable(pyr: int, left: int, ptr: int, last_pass: bool, srank: Any, slots_of: Any) -> int:
    """``DealTables.reachable``: the live stock cards that can still be played.

    Only the last pass under waste-top rules limits them: a waste card without a pyramid
    partner buries everything under it.
    """
    if not last_pass:
        return left
    below = (1 << ptr) - 1
    waste = left & below
    reach = left & ~below
    spare = np.zeros(14, dtype=np.int64)
    for r in range(1, 14):
        spare[r] = _pop(pyr & slots_of[r])
    while waste:
        top = 1 << (_bitlen(waste) - 1)
        reach |= top
        waste ^= top
        r = srank[_bitlen(top) - 1]
        if r != 13:
            if spare[13 - r] == 0:
                break
            spare[13 - r] -= 1
    return reach


@_jit
def _bound(
    pyr: int, left: int, ptr: int, use_draws: bool, prank: Any, slots_of: Any, stock_of: Any,
    need: Any,
) -> int:  # fmt: skip
    """``DealTables.bound`` plus, where it applies, ``DealTables.draws``."""
    h = _pop(pyr & slots_of[13])
    for r in range(1, 7):
        a, b = _pop(pyr & slots_of[r]), _pop(pyr & slots_of[13 - r])
        h += a if a > b else b
    if not use_draws:
        return h
    ranks = 0
    m = pyr & ~slots_of[13]
    while m:
        i = _lowidx(m)
        m &= m - 1
        if not (pyr & need[i]):
            ranks |= 1 << (13 - prank[i])
    below = (1 << ptr) - 1
    worst = 0
    for q in range(1, 13):
        if ranks >> q & 1:
            live = left & stock_of[q]
            if live == 0 or live & below:
                continue
            first = live & -live
            d = _pop(left & ((first << 1) - 1) & ~below)
            if d > worst:
                worst = d
    return h + worst


@_jit
def _expand(
    pyr: int, left: int, ptr: int, drawn: int, rec: int, prank: Any, srank: Any, rules: Any,
    out_moves: Any, out_fields: Any, stock_of: Any, exp: Any,
) -> int:  # fmt: skip
    """Children of a position in the solver's order; returns how many.

    ``out_moves[k]`` is the move id, ``out_fields[k]`` the child's (pyr, left, ptr, drawn,
    recycles). An exposed pyramid King is the only child when there is one (it never hurts).
    """
    mode, max_rec, cover, draw3, dead_ends = rules[0], rules[1], rules[2], rules[3], rules[4]
    ne = 0
    for i in range(28):
        if pyr >> i & 1 and not (pyr & _COVER[i]):
            if prank[i] == 13:
                out_moves[0] = _KING[i]
                _child(out_fields, 0, pyr ^ (1 << i), left, ptr, drawn, rec)
                return 1
            exp[ne] = i
            ne += 1
    n = 0
    for a in range(ne):
        i = exp[a]
        for b in range(a + 1, ne):
            j = exp[b]
            if prank[i] + prank[j] == 13:
                out_moves[n] = _PAIR[i, j]
                _child(out_fields, n, pyr ^ (1 << i) ^ (1 << j), left, ptr, drawn, rec)
                n += 1
    if cover:
        for i in range(28):
            c = pyr & _COVER[i]
            if pyr >> i & 1 and c and not (c & (c - 1)):
                j = _lowidx(c)
                if not (pyr & _COVER[j]) and prank[i] + prank[j] == 13:
                    out_moves[n] = _PAIR[i, j]
                    _child(out_fields, n, pyr ^ (1 << i) ^ (1 << j), left, ptr, drawn, rec)
                    n += 1
    waste = left & ((1 << ptr) - 1)
    if waste or mode == 2:
        w, d = _tops(left, ptr, drawn, mode)
        for place in (_W, _S):
            idx = w if place == _W else d
            if idx < 0:
                continue
            r = srank[idx]
            nl = left ^ (1 << idx)
            nd = 0 if place == _S else drawn
            if r == 13:
                out_moves[n] = _KING[place]
                _child(out_fields, n, pyr, nl, ptr, nd, rec)
                n += 1
            else:
                for a in range(ne):
                    i = exp[a]
                    if prank[i] == 13 - r:
                        out_moves[n] = _PAIR[i, place]
                        _child(out_fields, n, pyr ^ (1 << i), nl, ptr, nd, rec)
                        n += 1
        if w >= 0 and d >= 0 and srank[w] + srank[d] == 13:
            out_moves[n] = _PAIR[_W, _S]
            _child(out_fields, n, pyr, left ^ (1 << w) ^ (1 << d), ptr, 0, rec)
            n += 1
    if dead_ends and n == 0:  # 000's dead deal: no removal and no stock card would ever help
        helps = False
        if pyr:
            for a in range(ne):
                if left & stock_of[13 - prank[exp[a]]]:
                    helps = True
                    break
        else:
            helps = (left & stock_of[13]) != 0
            if not helps and mode != 0:
                for r in range(1, 7):
                    if left & stock_of[r] and left & stock_of[13 - r]:
                        helps = True
        if not helps:
            return 0
    hi = left >> ptr
    if hi:
        p = ptr + _lowidx(hi) + 1
        if draw3:
            for _ in range(2):
                hi2 = left >> p
                if hi2:
                    p += _lowidx(hi2) + 1
        out_moves[n] = 0
        _child(out_fields, n, pyr, left, p, 1 if mode == 1 else drawn, rec)
        n += 1
    elif waste and (max_rec < 0 or rec < max_rec):
        out_moves[n] = 1
        _child(out_fields, n, pyr, left, 0, 0, rec + 1)
        n += 1
    return n


@_jit
def _child(out: Any, k: int, pyr: int, left: int, ptr: int, drawn: int, rec: int) -> None:
    out[k, 0] = pyr
    out[k, 1] = left
    out[k, 2] = ptr
    out[k, 3] = drawn
    out[k, 4] = rec


@_jit
def _key(pyr: int, left: int, ptr: int, drawn: int, rec: int, unlimited: bool) -> int:
    k = pyr | left << 28 | ptr << 52 | drawn << 57
    return k if unlimited else k | rec << 58


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
    prank: Any, srank: Any, rules: Any, slots_of: Any, stock_of: Any, need: Any,
    hkeys: Any, hvals: Any, nodes: Any, head: Any, topg: Any, ent_node: Any, ent_next: Any,
    cnt: Any, max_expand: int,
) -> tuple[int, int]:  # fmt: skip
    """Run A* for at most ``max_expand`` expansions; returns ``(result, expanded)``.

    ``result``: the goal node, or ``NO_WIN`` (search space exhausted), ``PAUSED`` (the chunk
    ran out: call again), ``TOO_DEEP`` (f or g reached the bucket limit) or ``GROW`` (a table
    needs room first; nothing was expanded since the last check).

    Node ``i`` is ``nodes[i]`` = (pyr | left << 28 | ptr << 52, drawn | recycles << 1, parent,
    move, g). ``hkeys``/``hvals``: open-addressing map from position key to node (-1: pruned as
    lost). The open list is a bucket queue over (f, g): ``head[f * 512 + g]`` starts a stack of
    entries linked by ``ent_next``; ``topg[f]``, the deepest g that may be non-empty at f; the
    smallest f first, then the deepest g (ties go to the deeper position, as in Python).
    ``cnt`` = (nodes, keys, entries, current f, live entries).
    """
    mode, max_rec, goal_all = rules[0], rules[1], rules[5]
    unlimited = max_rec < 0
    use_draws = rules[6] == 1
    out_moves = np.empty(64, dtype=np.int64)
    out_fields = np.empty((64, 5), dtype=np.int64)
    exp = np.empty(28, dtype=np.int64)  # scratch: the exposed slots of the position expanded
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
        if pyr == 0 and (not goal_all or left == 0):
            return idx, expanded
        expanded += 1
        if g + 2 >= _FMAX:
            return TOO_DEEP, expanded
        n = _expand(pyr, left, ptr, drawn, rec, prank, srank, rules, out_moves, out_fields,
                    stock_of, exp)  # fmt: skip
        for c in range(n):
            cp, cl, cptr, cd, cr = (out_fields[c, 0], out_fields[c, 1], out_fields[c, 2],
                                    out_fields[c, 3], out_fields[c, 4])  # fmt: skip
            k = _key(cp, cl, cptr, cd, cr, unlimited)
            h = _find(hkeys, k)
            j = hvals[h] if hkeys[h] == k else -2
            if j == -1:
                continue  # pruned before
            if j >= 0 and nodes[j, 4] <= g + 1:
                continue
            if j == -2:
                hkeys[h] = k
                cnt[1] += 1
                won = cp == 0 and (not goal_all or cl == 0)
                if not won:
                    last = not unlimited and cr == max_rec and mode == 0 and rules[3] == 0
                    reach = _reachable(cp, cl, cptr, last, srank, slots_of)
                    if _hopeless(cp, reach, prank, slots_of, stock_of, need):
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


class Search:
    """One A* run: the tables of a deal and rules, and the arrays the chunks share."""

    def __init__(
        self,
        prank: tuple[int, ...],
        srank: tuple[int, ...],
        rules: tuple[int, ...],
        slots_of: list[int],
        stock_of: list[int],
        need: tuple[int, ...],
        start: tuple[int, int, int, bool, int],
        h0: int,
    ) -> None:
        """Set up the search from ``start`` with bound ``h0``.

        Tables as ``solver.DealTables`` holds them; ``rules`` = (mode, max recycles or -1, covering
        pair, draw three, dead deal ends game, goal all, draw term) as integers.
        """
        i64 = np.int64
        self.tables = tuple(
            np.array(t, dtype=i64) for t in (prank, srank, rules, slots_of, stock_of, need)
        )
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
        key = _key(pyr, left, ptr, int(drawn), rec, rules[1] < 0)
        h = _find(self.hkeys, key)
        self.hkeys[h], self.hvals[h] = key, 0
        self.cnt[:] = (1, 1, 0, h0, 0)
        _push(self.head, self.topg, self.ent_node, self.ent_next, self.cnt, h0, 0, 0)

    def run(self, max_expand: int) -> tuple[int, int]:
        """Expand up to ``max_expand`` positions, growing the tables as they fill.

        Returns:
            ``(result, expanded)`` as :func:`astar_chunk` gives them (never ``GROW``).
        """
        done = 0
        while True:
            result, n = astar_chunk(
                *self.tables, self.hkeys, self.hvals, self.nodes, self.head, self.topg,
                self.ent_node, self.ent_next, self.cnt, max_expand - done,
            )  # fmt: skip
            done += n
            if result != GROW:
                return result, done
            self._grow()

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
