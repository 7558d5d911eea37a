"""The scalar rules and the one move generator, written once as plain functions of ints.

The engine runs them as Python; the compiled kernels (:mod:`pyramid_env.solver.kernel`,
:mod:`pyramid_env.env.kernel`) compile the very same functions (:mod:`pyramid_env.jit` registers
them), so a rule cannot drift between backends. Hence they use only ints, bools, tuples,
indexing (a tuple or a numpy array alike) and ``int.bit_length`` / ``bit_count``. The rules
arrive as :class:`Knobs`, a position as five ints; docs/engine.md describes both ("A position")
and the move generator ("One move generator"). The tests that a position is lost are
:mod:`pyramid_env.engine.dead_deal`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pyramid_env.engine.cards import KING, TARGET  # the one definition of each

STOCK_BITS = 24
PYRAMID_BITS = 28


class Knobs(NamedTuple):
    """The rules as ints, named: what the fast paths and the compiled kernel read.

    Built by :attr:`Rules.knobs <pyramid_env.engine.rules.Rules.knobs>`; numba takes a
    ``NamedTuple`` of ints as it is, so the kernel reads ``k.covering_pair`` too, not
    ``rules[2]``. Flags are 0 or 1.

    Attributes:
        max_recycles: turns of the waste allowed; -1 for unlimited.
        covering_pair: a card may pair with its last coverer.
        drawn_spot: a draw puts the card in a spot of its own, where it plays (the second
            playable stock card is the drawn one).
        face_up_top: the stock's top card lies face up and plays undrawn (the second playable
            stock card is the stock top).
        stock_pairs: the two playable stock cards may pair with each other.
        draw_count: cards turned per draw.
        waste_start: cards on the waste at the deal.
        goal_all: the stock and waste must be cleared too.
        dead_deal_ends: the game ends as soon as 000's dead-deal test holds.
    """

    max_recycles: int
    covering_pair: int
    drawn_spot: int
    face_up_top: int
    stock_pairs: int
    draw_count: int
    waste_start: int
    goal_all: int
    dead_deal_ends: int


def tops(left: int, ptr: int, drawn: int, k: Knobs) -> tuple[int, int]:
    """Cycle indices of (waste top, second playable stock card); -1 where there is none.

    The waste top is the highest live card below ``ptr``; with a drawn card in its spot that
    card is the second playable one and the waste top is the next one down. A face-up stock
    top is the lowest live card at or above ``ptr``.
    """
    waste = left & ((1 << ptr) - 1)
    w = waste.bit_length() - 1
    d = -1
    if k.drawn_spot:
        if drawn:
            d = w
            w = (waste ^ (1 << w)).bit_length() - 1
    elif k.face_up_top:
        hi = left >> ptr
        if hi:
            d = ptr + (hi & -hi).bit_length() - 1
    return w, d


def face_up(left: int, ptr: int, k: Knobs) -> int:
    """Cycle cards face up now (a mask like ``left``): the waste, drawn card and face-up top.

    What a player can see of the stock cycle at this moment: the observation, the text and
    the picture of a hidden stock, and the honest agents' knowledge all build on it.
    """
    up = left & ((1 << ptr) - 1)
    if k.face_up_top:
        hi = left >> ptr
        up |= (hi & -hi) << ptr
    return up


def advance(left: int, ptr: int, k: Knobs) -> int:
    """``ptr`` after a draw: past the next ``draw_count`` live stock cards (fewer if short)."""
    hi = left >> ptr
    if not hi:
        return ptr
    step = (hi & -hi).bit_length()
    if k.draw_count == 1:  # the common case, spared the loop
        return ptr + step
    for _ in range(k.draw_count):
        if not hi:
            break
        step = (hi & -hi).bit_length()
        ptr += step
        hi >>= step
    return ptr


def can_recycle(left: int, ptr: int, recycles: int, k: Knobs) -> bool:
    """The stock is empty, the waste is not, and a turn of the waste is left."""
    if left >> ptr or not left & ((1 << ptr) - 1):
        return False
    return k.max_recycles < 0 or recycles < k.max_recycles


def turn_id(left: int, ptr: int, recycles: int, k: Knobs) -> int:
    """The turn of the stock legal now, as a move id: 0 (draw), 1 (recycle) or -1 (none).

    A draw while the stock holds a card, else a recycle where :func:`can_recycle`: the one
    statement of it, for the engine's fast path and both kernels.
    """
    if left >> ptr:
        return 0
    if can_recycle(left, ptr, recycles, k):
        return 1
    return -1


def is_won(pyr: int, left: int, k: Knobs) -> bool:
    """The goal is reached: the pyramid is clear (and, for goal "all", the stock and waste)."""
    return pyr == 0 and (not k.goal_all or left == 0)


def key(pyr: int, left: int, ptr: int, drawn: int, recycles: int, k: Knobs) -> int:
    """The position packed into one int for search: equal keys have the same futures.

    Bits 0-27 ``pyr``, 28-51 ``left``, 52-56 ``ptr``, 57 ``drawn``, 58+ ``recycles``. With
    unlimited passes the recycle count changes nothing ahead, so it is left out: otherwise every
    lap of the stock would look like a new position and search would never close.
    """
    packed = pyr | left << 28 | ptr << 52 | drawn << 57
    return packed if k.max_recycles < 0 else packed | recycles << 58


def unkey(packed: int, k: Knobs) -> tuple[int, int, int, int, int]:
    """The inverse of :func:`key`: ``(pyr, left, ptr, drawn, recycles)``.

    With unlimited passes the key holds no recycle count; 0 stands in (it changes nothing).
    """
    recycles = 0 if k.max_recycles < 0 else packed >> 58
    return (packed & 0xFFFFFFF, packed >> 28 & 0xFFFFFF, packed >> 52 & 31, packed >> 57 & 1,
            recycles)  # fmt: skip


def shape(pyr: int, cover: Any, covering: int, exps: Any, cands: Any) -> int:
    """The pyramid's shape: what the move generator reads of ``pyr``, written into arrays.

    ``exps``: the exposed slots, ascending; ``cands`` (with ``covering`` only, else none):
    the covering-pair candidates, flat pairs ``covered, coverer`` by covered slot ascending,
    where the coverer is the last card on the covered one and exposed. Returns ``ne | nc << 8``,
    the counts of each. The engine reads the same facts from its precomputed table
    (:data:`pyramid_env.engine.layout.SHAPES`), which tests hold equal to this on every shape.
    """
    ne = 0
    nc = 0
    m = pyr
    while m:
        i = (m & -m).bit_length() - 1
        m &= m - 1
        c = pyr & cover[i]
        if not c:
            exps[ne] = i
            ne += 1
        elif covering and not c & (c - 1):  # one coverer left: a candidate if nothing covers it
            j = c.bit_length() - 1
            if not pyr & cover[j]:
                cands[2 * nc] = i
                cands[2 * nc + 1] = j
                nc += 1
    return ne | nc << 8


def exposed_king(exps: Any, ne: int, prank: Any) -> int:
    """The lowest exposed slot holding a King, or -1: searches remove it alone (it never hurts)."""
    for a in range(ne):
        if prank[exps[a]] == KING:
            return exps[a]
    return -1


def pyramid_removals(exps: Any, ne: int, cands: Any, nc: int, prank: Any, king_id: Any,
                     pair_id: Any, covering: int, out: Any) -> int:  # fmt: skip
    """The removals inside the pyramid, written into ``out`` from index 0; returns how many.

    In this order: for each exposed slot ascending, its King move or its pairs with the exposed
    slots after it; then, with ``covering``, each covering-pair candidate whose ranks make 13.
    Shared by :func:`removals` and :func:`free_removals`, so the pyramid's rules are written
    once. Arguments as :func:`removals` names them.
    """
    n = 0
    for a in range(ne):
        i = exps[a]
        r = prank[i]
        if r == KING:
            out[n] = king_id[i]
            n += 1
            continue
        need = TARGET - r
        row = i * 30
        for b in range(a + 1, ne):  # the exposed slots after i: each pair once
            j = exps[b]
            if prank[j] == need:
                out[n] = pair_id[row + j]
                n += 1
    if covering:
        for c in range(0, 2 * nc, 2):
            i = cands[c]
            j = cands[c + 1]
            if prank[i] + prank[j] == TARGET:
                out[n] = pair_id[i * 30 + j]
                n += 1
    return n


def stock_removals(exps: Any, ne: int, left: int, ptr: int, drawn: int, prank: Any,
                   srank: Any, king_id: Any, pair_id: Any, k: Knobs, out: Any,
                   n: int) -> int:  # fmt: skip
    """The removals with a stock card, written into ``out`` from index ``n``; returns the end.

    A King or an exposed pyramid card with the waste top, then with the second playable stock
    card, then the two stock cards together (``stock_pairs``). Arguments as :func:`removals`.
    """
    if left & ((1 << ptr) - 1) or k.face_up_top:
        w, d = tops(left, ptr, drawn, k)
        for place in range(28, 30):  # the waste top, then the second playable stock card
            idx = w if place == 28 else d
            if idx < 0:
                continue
            r = srank[idx]
            if r == KING:
                out[n] = king_id[place]
                n += 1
                continue
            need = TARGET - r
            for i in exps[:ne]:
                if prank[i] == need:
                    out[n] = pair_id[i * 30 + place]
                    n += 1
        if k.stock_pairs and w >= 0 and d >= 0 and srank[w] + srank[d] == TARGET:
            out[n] = pair_id[28 * 30 + 29]
            n += 1
    return n


def removals(exps: Any, ne: int, cands: Any, nc: int, left: int, ptr: int, drawn: int,
             prank: Any, srank: Any, king_id: Any, pair_id: Any, k: Knobs,
             out: Any) -> int:  # fmt: skip
    """The legal removals' move ids written into ``out``; returns how many.

    The one move generator: the engine's fast path, the solver's kernel and the vector env all
    derive from it. The pyramid's removals (:func:`pyramid_removals`), then those with a stock
    card (:func:`stock_removals`). Draw and recycle are not removals: the caller adds them.

    Args:
        exps: the exposed slots, ascending (:func:`shape`).
        ne: how many there are.
        cands: the covering-pair candidates, flat pairs ``covered, coverer`` (:func:`shape`).
        nc: how many there are.
        left: the live stock cycle (mask).
        ptr: cycle positions below it are on the waste.
        drawn: the drawn-card spot holds a card.
        prank: rank of each pyramid slot's card (28 entries).
        srank: rank of each stock cycle card (24 entries).
        king_id: ``king_id[place]``, the id of the King move at a place (30 entries).
        pair_id: ``pair_id[a * 30 + b]``, the id of the pair move of places ``a`` and ``b``.
        k: the rules.
        out: room for the ids (at most 64 are ever legal at once).
    """
    n = pyramid_removals(exps, ne, cands, nc, prank, king_id, pair_id, k.covering_pair, out)
    return stock_removals(exps, ne, left, ptr, drawn, prank, srank, king_id, pair_id, k, out, n)


def free_removals(exps: Any, ne: int, cands: Any, nc: int, counts: Any, prank: Any,
                  king_id: Any, pair_id: Any, covering: int, out: Any) -> int:  # fmt: skip
    """The removals of the free-stock game (any live stock card at hand), into ``out``.

    The free-stock search's moves (:mod:`pyramid_env.solver.free_stock`): the pyramid's
    removals (:func:`pyramid_removals`), then each exposed card ascending with a stock card of
    its partner rank where ``counts`` (live stock cards per rank) has one, written as the pair
    move of that slot and the waste top.
    """
    n = pyramid_removals(exps, ne, cands, nc, prank, king_id, pair_id, covering, out)
    for a in range(ne):
        i = exps[a]
        r = prank[i]
        if r != KING and counts[TARGET - r]:
            out[n] = pair_id[i * 30 + 28]
            n += 1
    return n


def play(pyr: int, left: int, ptr: int, drawn: int, recycles: int, move: int, a: int, b: int,
         k: Knobs) -> tuple[int, int, int, int, int]:  # fmt: skip
    """The position after move id ``move`` of places ``a``, ``b`` (-1 where none), unchecked.

    Id 0 draws, 1 recycles; any other takes its places' cards: a pyramid slot (below 28), the
    waste top (28) or the second playable stock card (29). Returns ``(pyr, left, ptr, drawn,
    recycles)``, as :func:`pyramid_env.engine.state.apply` leaves them.
    """
    if move == 0:
        return pyr, left, advance(left, ptr, k), 1 if k.drawn_spot else drawn, recycles
    if move == 1:
        return pyr, left, 0, 0, recycles + 1
    if a >= 28 or b >= 28:
        w, d = tops(left, ptr, drawn, k)
        if a == 28 or b == 28:
            left ^= 1 << w
        if a == 29 or b == 29:
            left ^= 1 << d
            drawn = 0
    if 0 <= a < 28:
        pyr ^= 1 << a
    if 0 <= b < 28:
        pyr ^= 1 << b
    return pyr, left, ptr, drawn, recycles


def nothing_can_help(pyr: int, exposed: int, left: int, prank: Any, stock_of: Any,
                     k: Knobs) -> bool:  # fmt: skip
    """000's second dead-deal condition: no stock or waste card could ever help reach the goal.

    With no removal playable (the first condition) this is the dead-deal test. With pyramid
    cards left, a stock card helps only by pairing with an exposed pyramid card (``exposed``,
    a mask; only removals expose cards, so that set is fixed until one happens). With the
    pyramid cleared under goal "all", a stock card helps if it is a King or, where two stock
    cards can pair, if a partner for it is left too.

    Args:
        pyr: the pyramid slots holding a card (mask).
        exposed: those of them no card covers (mask).
        left: the live stock cycle (mask).
        prank: rank of each pyramid slot's card (28 entries).
        stock_of: ``stock_of[r]``, the mask of cycle positions holding rank ``r`` (14 entries).
        k: the rules.
    """
    if pyr:
        m = exposed
        while m:
            i = (m & -m).bit_length() - 1
            m &= m - 1
            if left & stock_of[TARGET - prank[i]]:
                return False
        return True
    if left & stock_of[KING]:
        return False
    if not k.stock_pairs:
        return True
    for r in range(1, 7):
        if left & stock_of[r] and left & stock_of[TARGET - r]:
            return False
    return True


def reachable(pyr: int, left: int, ptr: int, recycles: int, srank: Any, slots_of: Any,
              k: Knobs) -> int:  # fmt: skip
    """Live stock cards that can still be played, as a mask over the stock cycle.

    All of them before the last pass (each comes round again), or wherever more than the waste
    top plays or a draw turns several cards. On the last pass with only the waste top in play
    and one card a draw, every card still in the stock will be turned, but a waste card is
    reached only once every card above it has gone, and a waste card goes only with a pyramid
    card (or as a King). Walking down from the top and spending pyramid partners rank by rank,
    the first card left without one buries everything below it.

    Args:
        pyr: the pyramid slots holding a card (mask).
        left: the live stock cycle (mask).
        ptr: cycle positions below it are on the waste.
        recycles: turns of the waste used so far.
        srank: rank of each stock cycle card (24 entries).
        slots_of: ``slots_of[r]``, the mask of pyramid slots holding rank ``r`` (14 entries).
        k: the rules.
    """
    if (k.max_recycles < 0 or recycles < k.max_recycles or k.draw_count != 1
            or k.drawn_spot or k.face_up_top):  # fmt: skip
        return left
    below = (1 << ptr) - 1
    waste = left & below
    reach = left & ~below
    used = 0  # pyramid partners spent so far, 3 bits per rank (at most 4 of a rank)
    while waste:
        i = waste.bit_length() - 1
        reach |= 1 << i
        waste ^= 1 << i
        r = srank[i]
        if r != KING:
            q = TARGET - r
            spent = used >> (3 * q) & 7
            if (pyr & slots_of[q]).bit_count() <= spent:
                break  # this card stays for good, and so does everything under it
            used += 1 << (3 * q)
    return reach


def removals_needed(pyr: int, slots_of: Any) -> int:
    """Removals still needed, at least: the A* bound, admissible and consistent.

    For each rank class ``{r, 13 - r}`` at least ``max(pyramid r, pyramid 13 - r)`` (one removal
    takes at most one card of each), plus one per pyramid King. Each step changes it by at most 1.
    """
    h = (pyr & slots_of[KING]).bit_count()
    for r in range(1, 7):
        a, b = (pyr & slots_of[r]).bit_count(), (pyr & slots_of[TARGET - r]).bit_count()
        h += a if a > b else b
    return h


def stock_ranks_needed(pyr: int, prank: Any, slots_of: Any, need: Any) -> int:
    """Ranks (bit ``q``) of stock cards that some pyramid card must be removed with.

    A pyramid card (not a King) with no pyramid partner left that could ever meet it can go
    only with a stock card of the partner rank.
    """
    ranks = 0
    m = pyr & ~slots_of[KING]
    while m:
        i = (m & -m).bit_length() - 1
        m &= m - 1
        if not pyr & need[i]:
            ranks |= 1 << (TARGET - prank[i])
    return ranks


def draws_needed(ranks: int, left: int, ptr: int, stock_of: Any) -> int:
    """Draws still needed, at least, where every stock card must be drawn to be played.

    (One card a draw, no face-up stock top.) For each rank in ``ranks`` (from
    :func:`stock_ranks_needed`): a live card of it on the waste costs no draw; otherwise the
    first one in the stock must be drawn, after every live card in front of it. The farthest
    such rank sets the bound; draws and removals are different steps, so it adds to
    :func:`removals_needed`.
    """
    below = (1 << ptr) - 1
    worst = 0
    for q in range(1, 13):
        if ranks >> q & 1:
            live = left & stock_of[q]
            if live == 0 or live & below:
                continue  # none left (pruned elsewhere), or one already on the waste
            first = live & -live
            d = (left & ((first << 1) - 1) & ~below).bit_count()
            if d > worst:
                worst = d
    return worst


PRIMITIVES = (
    tops, face_up, shape, exposed_king, pyramid_removals, stock_removals, removals,
    free_removals, play, advance, can_recycle, turn_id, is_won, key, unkey,
    nothing_can_help, reachable, removals_needed, stock_ranks_needed, draws_needed,
)  # fmt: skip
"""Every function above: :mod:`pyramid_env.jit` registers each for compilation."""

INLINED = (
    shape, exposed_king, pyramid_removals, stock_removals, removals, free_removals, play, tops,
    turn_id,
)  # fmt: skip
"""The move generator and a move: compiled into the solver's callers (no call to pay per
position); the env kernel calls compiled copies of them instead (``jit.outlined``), which
compile once rather than at every call site."""
