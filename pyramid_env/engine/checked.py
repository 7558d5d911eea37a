"""Why a move is illegal, in words: the rules written plainly from the cards.

A separate, slow, readable statement of the rules, independent of the fast move generator, of
:mod:`~pyramid_env.engine.primitives` and of :class:`~pyramid_env.engine.state.State`'s own
readings (tops, exposure, win and dead-deal tests are restated here from a position's fields).
Tests hold the two equal on every move of the positions they visit, so a slip in either shows;
:func:`~pyramid_env.engine.state.apply_checked` plays a move only if this finds nothing wrong.
It names no ``State`` (only :class:`Position`, the fields it reads), so ``state`` can import it
without an import circle, not even for the annotations.
"""

from __future__ import annotations

from typing import Any, Protocol

from pyramid_env.engine.cards import CARD_NAMES, KING, RANK, TARGET
from pyramid_env.engine.layout import COVERED_BY, SLOTS, STOCK_SIZE, slot_name
from pyramid_env.engine.moves import STOCK, WASTE, Move, MoveKind
from pyramid_env.engine.rules import Goal, Rules, StockPlay


class Position(Protocol):
    """What the plain rules read of a position: a :class:`~pyramid_env.engine.state.State` is one.

    Only the deal, the rules and the five fields (docs/engine.md, "A position"): everything else
    is read from them here, so this statement shares no reading with the fast path.
    """

    deal: Any
    rules: Rules
    pyr: int
    left: int
    ptr: int
    drawn: bool
    recycles: int


def _cycle(s: Position, lo: int, hi: int) -> list[int]:
    """The live stock-cycle cards at positions ``lo``..``hi - 1``, in order."""
    return [s.deal.cards[SLOTS + i] for i in range(lo, hi) if s.left >> i & 1]


def _stock_size(s: Position) -> int:
    """Cards in the stock: the live cycle cards from ``ptr`` on."""
    return len(_cycle(s, s.ptr, STOCK_SIZE))


def _coverers(s: Position, slot: int) -> tuple[int, ...]:
    """The slots still directly covering ``slot``."""
    return tuple(t for t in COVERED_BY[slot] if s.pyr >> t & 1)


def _exposed(s: Position, slot: int) -> bool:
    """``slot`` holds a card and nothing covers it."""
    return bool(s.pyr >> slot & 1) and not _coverers(s, slot)


def _names(cards: list[int]) -> str:
    return " and ".join(CARD_NAMES[c] for c in cards)


def _absent(s: Position, place: int) -> str:
    if place < SLOTS:
        return f"{slot_name(place)} is empty: its card is gone"
    if place == WASTE:
        return "the waste is empty"
    return {
        StockPlay.WASTE_TOP: "these rules play only the waste top: there is no drawn or face-up "
        "stock card",
        StockPlay.DRAWN_AND_WASTE: "there is no drawn card: draw one first",
        StockPlay.FACE_UP_STOCK: "the stock is empty: there is no face-up stock card",
    }[s.rules.stock_play]


def _stock_in_play(s: Position) -> dict[int, int]:
    """The stock cards that can be played, by place (``WASTE``, ``STOCK``), read plainly.

    Written from the rules' own words, not from the fast path's bit tricks: the waste is the
    cycle's live cards below ``ptr`` in order, the stock the rest.
    """
    pile = _cycle(s, 0, s.ptr)
    stock = _cycle(s, s.ptr, STOCK_SIZE)
    play = s.rules.stock_play
    out = {}
    if play is StockPlay.DRAWN_AND_WASTE and s.drawn:
        out[STOCK] = pile.pop()  # the drawn card lies in a spot of its own
    elif play is StockPlay.FACE_UP_STOCK and stock:
        out[STOCK] = stock[0]
    if pile:
        out[WASTE] = pile[-1]
    return out


def _card_in(s: Position, place: int, stock: dict[int, int]) -> int | None:
    if place < SLOTS:
        return s.deal.cards[place] if s.pyr >> place & 1 else None
    return stock.get(place)


_last_read: list[tuple[tuple, tuple[str | None, dict[int, int]]]] = []  # (identity, reading)


def _read(s: Position) -> tuple[str | None, dict[int, int]]:
    """Why the game is over (or ``None``), and the stock cards in play, read plainly.

    Remembered for the last position asked about: checking every move of one position (as the
    tests and ``check_rollout`` do) reads the cards once, not once per move.
    """
    ident = (s.deal, s.rules, s.pyr, s.left, s.ptr, s.drawn, s.recycles)
    memo = _last_read[0] if _last_read else None
    if memo is None or memo[0] != ident:
        memo = (ident, (_over_now(s), _stock_in_play(s)))
        _last_read[:] = [memo]  # one assignment: a thread never sees half of it
    return memo[1]


def _over_now(s: Position) -> str | None:
    if not s.pyr and (s.rules.goal is Goal.PYRAMID or not s.left):
        return "the game is over: won"
    stock_size = _stock_size(s)
    if (stock_size and not s.rules.dead_deal_ends_game) or _removal_possible(s):
        return None  # a draw (where a dead deal plays on) or a removal is left
    if s.rules.dead_deal_ends_game and _nothing_helps(s):
        return "the game is over: lost (dead deal: nothing can ever be removed)"
    if not stock_size and _recycle_refused(s):
        return "the game is over: lost (no move left)"
    return None


def _recycle_refused(s: Position) -> str | None:
    if stock_size := _stock_size(s):
        return f"the stock still has {stock_size} card(s): only an empty stock is recycled"
    if not _cycle(s, 0, s.ptr):  # the waste, drawn card included
        return "the waste is empty: there is nothing to recycle"
    if s.rules.passes is not None and s.recycles >= s.rules.passes - 1:
        return f"no recycle left: these rules allow {s.rules.passes} pass(es) through the stock"
    return None


def _removal_possible(s: Position) -> bool:
    """Some removal is legal now: a King or a pair making 13 among the cards in play."""
    exposed = [s.deal.cards[i] for i in range(SLOTS) if _exposed(s, i)]
    stock = _stock_in_play(s)
    playable = exposed + list(stock.values())
    if any(RANK[c] == KING for c in playable):
        return True
    pairs = [(a, b) for i, a in enumerate(playable) for b in playable[i + 1 :]]
    if len(stock) == 2 and s.rules.stock_play is StockPlay.WASTE_TOP:
        pairs.remove((stock[STOCK], stock[WASTE]))  # never both in play under waste-top rules
    if any(RANK[a] + RANK[b] == TARGET for a, b in pairs):
        return True
    if s.rules.covering_pair:  # a card with its one remaining, exposed coverer
        for low in range(SLOTS):
            cov = _coverers(s, low)
            if s.pyr >> low & 1 and len(cov) == 1 and _exposed(s, cov[0]):
                if RANK[s.deal.cards[low]] + RANK[s.deal.cards[cov[0]]] == TARGET:
                    return True
    return False


def _nothing_helps(s: Position) -> bool:
    """000's second condition from the cards: no stock or waste card could ever help."""
    ranks = [RANK[c] for c in _cycle(s, 0, STOCK_SIZE)]  # stock, waste and drawn card alike
    if s.pyr:  # a stock card helps only by pairing with an exposed pyramid card
        return not any(TARGET - RANK[s.deal.cards[i]] in ranks for i in range(SLOTS)
                       if _exposed(s, i))  # fmt: skip
    if KING in ranks:
        return False
    if s.rules.stock_play is StockPlay.WASTE_TOP:
        return True
    return not any(TARGET - r in ranks for r in ranks)


def _covered(s: Position, slot: int) -> str | None:
    cov = _coverers(s, slot)
    if not cov:
        return None
    return (
        f"{CARD_NAMES[s.deal.cards[slot]]} is covered by {_names([s.deal.cards[t] for t in cov])}"
    )


def why_illegal(s: Position, move: Move) -> str | None:
    """Why ``move`` is illegal here, in words; ``None`` if it is legal.

    This is the rules written plainly from the cards and the rules' words, independent of the
    fast move generator and of :mod:`~pyramid_env.engine.primitives` (tops, win and dead-deal
    tests are restated here); tests check that the two agree on every move of every position
    they visit, so a slip in either shows.
    """
    over, stock = _read(s)
    if over:
        return over
    if move.kind == MoveKind.DRAW:
        return None if _stock_size(s) else "the stock is empty"
    if move.kind == MoveKind.RECYCLE:
        return _recycle_refused(s)
    cards = []
    for p in move.places:
        c = _card_in(s, p, stock)
        if c is None:
            return _absent(s, p)
        cards.append(c)
    if move.kind == MoveKind.KING:
        if RANK[cards[0]] != KING:
            return f"{CARD_NAMES[cards[0]]} is not a King: it needs a partner making 13"
        return _covered(s, move.a) if move.a < SLOTS else None
    for c in cards:
        if RANK[c] == KING:
            return f"{CARD_NAMES[c]} is a King: it is removed on its own"
    a, b = move.a, move.b
    if a == WASTE and b == STOCK and s.rules.stock_play is StockPlay.WASTE_TOP:
        return "these rules play only the waste top: two stock cards never pair"
    if b < SLOTS and (a in COVERED_BY[b] or b in COVERED_BY[a]):
        low, top = (a, b) if b in COVERED_BY[a] else (b, a)  # top covers low
        lc, tc = CARD_NAMES[s.deal.cards[low]], CARD_NAMES[s.deal.cards[top]]
        if not s.rules.covering_pair:
            return f"{lc} is covered by {tc}: these rules do not let a card pair with its coverer"
        others = [s.deal.cards[t] for t in _coverers(s, low) if t != top]
        if others:
            return (
                f"{lc} is covered by {tc} and {_names(others)}: a covering pair needs one coverer"
            )
        reason = _covered(s, top)
    else:
        reason = next((r for p in (a, b) if p < SLOTS and (r := _covered(s, p))), None)
    if reason:
        return reason
    total = RANK[cards[0]] + RANK[cards[1]]
    if total != TARGET:
        return f"{CARD_NAMES[cards[0]]} + {CARD_NAMES[cards[1]]} = {total}, not 13"
    return None
