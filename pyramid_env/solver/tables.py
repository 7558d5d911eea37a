"""Per-deal tables for pruning and bounds, and the limits every search runs under.

The tests themselves are :mod:`pyramid_env.engine.dead_deal` (``class_short``) and
:mod:`pyramid_env.engine.primitives` (``reachable``, ``removals_needed``, ``draws_needed``),
written once and shared with the compiled kernel; this module holds the deal's rank tables they
read and gives them a Python face that searches and agents call.
"""

from __future__ import annotations

import numbers
import time

from pyramid_env.engine import dead_deal as D
from pyramid_env.engine import primitives as P
from pyramid_env.engine import state as st
from pyramid_env.engine.cards import KING, RANK, TARGET
from pyramid_env.engine.errors import PyramidError, describe, is_int
from pyramid_env.engine.layout import BELOW_MASK, COVER_MASK, COVERED_BY, SLOTS
from pyramid_env.engine.moves import MOVES


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


class DealTables:
    """Per-(deal, rules) rank tables, and the solver's pruning tests and bounds over them.

    Public because agents use :meth:`cannot_clear` and :meth:`bound` too (they read only the
    pyramid and the count of live stock cards per rank, which every player can know).

    Attributes:
        prank: rank of each pyramid slot's card (28).
        srank: rank of each stock cycle card (24).
        slots_of: ``slots_of[r]``, the mask of pyramid slots holding rank ``r`` (14).
        stock_of: ``stock_of[r]``, the mask of stock cycle positions holding rank ``r`` (14).
        need: ``need[i]``, the pyramid slots that could ever partner slot ``i``.
        knobs: the rules, as :class:`~pyramid_env.engine.primitives.Knobs`.
    """

    def __init__(self, s: st.State) -> None:
        """Tables for the deal and rules of ``s`` (any position of it)."""
        cards = s.deal.cards
        self.knobs = s.knobs
        self.prank = tuple(RANK[c] for c in cards[:SLOTS])
        self.srank = tuple(RANK[c] for c in cards[SLOTS:])
        self.slots_of = [0] * 14
        self.stock_of = [0] * 14
        for i, c in enumerate(cards[:SLOTS]):
            self.slots_of[RANK[c]] |= 1 << i
        for i, c in enumerate(cards[SLOTS:]):
            self.stock_of[RANK[c]] |= 1 << i
        self._stock_needed: dict[int, int] = {}
        partners = _PARTNERS[s.rules.covering_pair]
        self.need = tuple(
            partners[i] & self.slots_of[TARGET - self.prank[i]] if self.prank[i] != KING else 0
            for i in range(SLOTS)
        )

    def stock_counts(self, left: int) -> list[int]:
        """Live stock cards per rank (index 1..13)."""
        return [(left & m).bit_count() for m in self.stock_of]

    def cannot_clear(self, pyr: int, counts: list[int]) -> bool:
        """Some pyramid card can never be removed, or a rank class is short by count.

        ``counts[r]``: live stock cards of rank ``r``. Sound under every rule set: a card is
        only ever removed with a partner of the complementary rank, from the stock or from a
        pyramid place that can meet it; each removal uses up one card of each rank in the pair.
        """
        short, prank, slots_of, need = D.class_short, self.prank, self.slots_of, self.need
        return any(
            short(pyr, r, counts[r], counts[TARGET - r], prank, slots_of, need) for r in range(1, 7)
        )

    def class_short(self, pyr: int, counts: list[int], r: int) -> bool:
        """:meth:`cannot_clear` restricted to the rank class of ``r``.

        A move changes only the cards and stock counts of its own class ``{r, 13 - r}``, so
        after a move from a position that passed :meth:`cannot_clear`, only that class can fail.
        """
        q = TARGET - r
        return D.class_short(pyr, r, counts[r], counts[q], self.prank, self.slots_of, self.need)

    def unmatched(self, pyr: int, counts: list[int]) -> bool:
        """Some rank class can never be cleared: not all its cards can get partners they meet.

        :func:`~pyramid_env.engine.dead_deal.class_unmatched` for each class. Stronger than
        :meth:`cannot_clear`, and sound too. ``counts[r]``: live (or reachable) stock cards
        of rank ``r``.
        """
        slots_of, need = self.slots_of, self.need
        return any(
            D.class_unmatched(pyr, r, counts[r], counts[TARGET - r], slots_of, need)
            for r in range(1, 7)
        )

    def doomed(self, pyr: int, counts: list[int]) -> bool:
        """Lost for sure by a test without search: no matching, or a cycle of removals.

        :meth:`unmatched`, or an order of removals that would need some card gone before
        itself (:func:`~pyramid_env.engine.dead_deal.removal_cycle`). Both read only the
        pyramid and the live stock cards per rank, so a player can run them on every move
        (:class:`~pyramid_env.agents.baselines.CarefulAgent`). The solver prunes with the
        weaker :meth:`cannot_clear`: its free-stock search finds these positions lost at once
        anyway (the matching test, tried in its place, took no time off the verdicts).
        """
        if self.unmatched(pyr, counts):
            return True
        return D.removal_cycle(pyr, counts, self.prank, self.slots_of, self.need, BELOW_MASK,
                               COVER_MASK, self.knobs.covering_pair)  # fmt: skip

    def reachable(self, s: st.State) -> int:
        """Live stock cards that can still be played (:func:`~pyramid_env.engine.primitives.reachable`)."""  # noqa: E501
        return P.reachable(s.pyr, s.left, s.ptr, s.recycles, self.srank, self.slots_of, s.knobs)

    def draws(self, pyr: int, left: int, ptr: int) -> int:
        """Draws still needed, at least (:func:`~pyramid_env.engine.primitives.draws_needed`).

        Applies where every stock card must be drawn to be played (one card a draw, no face-up
        stock top). The ranks needed depend on the pyramid alone, so they are cached by it.
        """
        ranks = self._stock_needed.get(pyr)
        if ranks is None:
            ranks = self._stock_needed[pyr] = P.stock_ranks_needed(
                pyr, self.prank, self.slots_of, self.need
            )
        return P.draws_needed(ranks, left, ptr, self.stock_of)

    def bound(self, pyr: int) -> int:
        """Removals still needed, at least (:func:`~pyramid_env.engine.primitives.removals_needed`)."""  # noqa: E501
        return P.removals_needed(pyr, self.slots_of)


class Budget(Exception):
    """A search's position budget or time limit ran out."""


MAX_BUDGET = 10**12  # positions: more than any search here runs in a day
MAX_SECONDS = 10**6  # about 11 days


class Limit:
    """A search's position budget and deadline; :meth:`tick` raises :class:`Budget` past them."""

    __slots__ = ("nodes", "budget", "deadline", "start")

    def __init__(self, budget: int | None, time_limit: float | None) -> None:
        """Start the clock; ``None`` for no budget or no time limit.

        Raises:
            PyramidError: a budget that is not an int in 0..10**12 (0: only what needs no
                search) or a time limit that is not a number of seconds in (0, 10**6] (a
                negative number or nan would give up at once or never, unnoticed).
        """
        if budget is not None:
            if not is_int(budget) or not 0 <= budget <= MAX_BUDGET:
                raise PyramidError(f"budget={describe(budget)} must be an int in 0..10**12")
            budget = int(budget)
        if time_limit is not None:
            if (
                isinstance(time_limit, bool)
                or not isinstance(time_limit, numbers.Real)
                or not 0 < time_limit <= MAX_SECONDS  # False for nan
            ):
                raise PyramidError(
                    f"time_limit={describe(time_limit)} must be seconds in (0, 10**6]"
                )
            time_limit = float(time_limit)
        self.nodes = 0
        self.budget = budget
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit

    def tick(self) -> None:
        """Count one position expanded, then check the budget (and the clock, now and then)."""
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise Budget
        if self.deadline is not None and not self.nodes & 1023:
            if time.perf_counter() > self.deadline:
                raise Budget

    def add(self, n: int) -> None:
        """Count ``n`` expansions done elsewhere (the compiled kernel's chunks), then check."""
        self.nodes += n
        if self.budget is not None and self.nodes > self.budget:
            raise Budget
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Budget

    def chunk(self, size: int = 20_000) -> int:
        """Expansions a compiled search may run before the next check.

        ``size``, or fewer so that the budget is overrun by at most one position.
        """
        if self.budget is None:
            return size
        return min(size, self.budget - self.nodes + 1)

    def seconds(self) -> float:
        """Wall time since the search started."""
        return time.perf_counter() - self.start
