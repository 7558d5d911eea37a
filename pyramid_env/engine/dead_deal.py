"""Tests that a position is lost, by counting and ordering the cards left, without search.

Plain functions of ints, as :mod:`pyramid_env.engine.primitives` (the same restrictions, and
compiled the same way: :mod:`pyramid_env.jit` registers :data:`FUNCTIONS`): the solver prunes
with :func:`class_short` and :func:`stock_stranded`, the careful agents ask
:func:`class_unmatched` and :func:`removal_cycle` (``DealTables.doomed``). Each is a relaxation,
sound under every rule set; docs/engine.md ("Dead-deal tests") says why.
"""

from __future__ import annotations

from typing import Any

from pyramid_env.engine.cards import KING, TARGET
from pyramid_env.engine.primitives import PYRAMID_BITS, Knobs


def class_short(pyr: int, r: int, count_r: int, count_q: int, prank: Any, slots_of: Any,
                need: Any) -> bool:  # fmt: skip
    """The rank class ``{r, 13 - r}`` can never be cleared from here (the solver's pruning).

    ``count_r``, ``count_q``: live stock cards of rank ``r`` and ``13 - r`` (or those still
    reachable). True when one side outnumbers every partner it could have (each removal takes at
    most one card of each rank), or a pyramid card of the class has no partner left anywhere: no
    live stock card of the partner rank and no pyramid card it could ever meet (``need[i]``: the
    slots of partner rank that can ever be removed with slot ``i``).
    """
    q = TARGET - r
    pr, pq = (pyr & slots_of[r]).bit_count(), (pyr & slots_of[q]).bit_count()
    if pr > pq + count_q or pq > pr + count_r:
        return True
    m = pyr & ((slots_of[r] if count_q == 0 else 0) | (slots_of[q] if count_r == 0 else 0))
    while m:
        i = (m & -m).bit_length() - 1
        m &= m - 1
        if not pyr & need[i]:
            return True
    return False


def pair_matching(pyr: int, r: int, slots_of: Any, need: Any) -> int:
    """The most disjoint pairs of pyramid cards of ranks ``r`` and ``13 - r`` that can ever meet.

    Two pyramid cards can be removed together only if neither lies under the other (or, with
    a covering pair, one covers the other directly): ``need[i]`` holds the slots of partner
    rank that slot ``i`` can ever go with. The answer is a maximum matching of that graph,
    by König's formula: the ``r`` cards, less the largest deficiency ``|X| - |N(X)|`` over the
    sets ``X`` of ``r`` cards (``N(X)``: the partner cards some card of ``X`` can meet). At
    most four cards a side, so at most fifteen sets: loops over bits, no recursion, so the
    compiled kernel could run it as it is.
    """
    a, b = pyr & slots_of[r], pyr & slots_of[TARGET - r]
    worst = 0
    sub = a
    while sub:  # every non-empty set of the r cards
        reach = 0
        m = sub
        while m:
            i = (m & -m).bit_length() - 1
            m &= m - 1
            reach |= need[i]
        short = sub.bit_count() - (reach & b).bit_count()
        if short > worst:
            worst = short
        sub = (sub - 1) & a
    return a.bit_count() - worst


def class_unmatched(pyr: int, r: int, count_r: int, count_q: int, slots_of: Any,
                    need: Any) -> bool:  # fmt: skip
    """The rank class ``{r, 13 - r}`` can never be cleared: its cards cannot all find partners.

    Each pyramid card of the class leaves with a pyramid card it can meet or a live stock card
    of the partner rank (``count_r``, ``count_q``: those of rank ``r`` and ``13 - r``, or those
    still reachable). With ``M`` the most pyramid pairs that can ever meet
    (:func:`pair_matching`), lost when ``pr - M > count_q`` or ``pq - M > count_r``. Sound
    under every rule set and stronger than :func:`class_short` (docs/engine.md, "Dead-deal
    tests", gives an example only it sees).
    """
    q = TARGET - r
    pr, pq = (pyr & slots_of[r]).bit_count(), (pyr & slots_of[q]).bit_count()
    req = pr - count_q
    if pq - count_r > req:
        req = pq - count_r
    if req <= 0:
        return False  # the stock alone can partner every card left unpaired
    if req > pr or req > pq:
        return True  # more pairs needed than one side has cards: short by count
    return pair_matching(pyr, r, slots_of, need) < req


def removal_cycle(pyr: int, counts: Any, prank: Any, slots_of: Any, need: Any, below: Any,
                  cover: Any, covering: int) -> bool:  # fmt: skip
    """Some pyramid card would have to be removed before itself: the deal is lost.

    Works out, for each pyramid card ``x``, cards that must be gone before it (``first[x]``, a
    mask): its coverers (``below[x] & pyr``; with ``covering``, less a direct coverer that
    partners it), and, for a card that must go with a pyramid partner (the stock's cards of
    the partner rank are all spoken for), what must go before every partner it could meet;
    closed under "before a card that goes before ``x``". ``x`` in ``first[x]`` is the
    contradiction. A relaxation like :func:`class_unmatched` (``counts[r]``: live or reachable
    stock cards of rank ``r``), so sound under every rule set (docs/engine.md, "Dead-deal tests").
    """
    first = [0] * PYRAMID_BITS
    spoken = [0] * (KING + 1)  # per rank: its cards with no pyramid partner take stock ones
    m = pyr
    while m:
        x = (m & -m).bit_length() - 1
        m &= m - 1
        first[x] = below[x] & pyr
        if covering:
            first[x] &= ~(cover[x] & need[x])
        if not need[x] & pyr:
            spoken[prank[x]] += 1
    forced = 0  # cards that can go only with a pyramid partner
    m = pyr & ~slots_of[KING]
    while m:
        x = (m & -m).bit_length() - 1
        m &= m - 1
        r = prank[x]
        if need[x] & pyr and counts[TARGET - r] <= spoken[r]:
            forced |= 1 << x
    changed = True
    while changed:
        changed = False
        m = pyr
        while m:
            x = (m & -m).bit_length() - 1
            m &= m - 1
            new = first[x]
            if forced >> x & 1:
                common = pyr
                o = need[x] & pyr
                while o:
                    y = (o & -o).bit_length() - 1
                    o &= o - 1
                    common &= first[y]
                new |= common
            w = new
            while w:
                i = (w & -w).bit_length() - 1
                w &= w - 1
                new |= first[i]
            if new != first[x]:
                first[x] = new
                changed = True
                if new >> x & 1:
                    return True
    return False


def stock_stranded(pyr: int, counts: Any, slots_of: Any, k: Knobs) -> bool:
    """A live stock card can never be removed: its rank outnumbers the pyramid partners left.

    Only where every card must go (``goal_all``) and stock cards never pair with each other
    (no ``stock_pairs``): there each non-King stock card leaves with a pyramid card of the
    partner rank, each of which takes one (the solver's pruning; most such deals fail it at the
    start). ``counts[r]``: live stock cards of rank ``r`` (or those still reachable).
    """
    if not k.goal_all or k.stock_pairs:
        return False
    for r in range(1, KING):
        if counts[r] > (pyr & slots_of[TARGET - r]).bit_count():
            return True
    return False


FUNCTIONS = (class_short, pair_matching, class_unmatched, removal_cycle, stock_stranded)
"""Every function above: :mod:`pyramid_env.jit` registers each for compilation."""
