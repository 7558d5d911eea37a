"""A position and its rules: legal moves, apply/undo, status, and why a move is illegal.

The position is five integers, so copying, undoing and hashing are cheap:

* ``pyr``: 28-bit mask of pyramid slots still holding their card.
* ``left``: 24-bit mask over the stock cycle (the deal's cards 29..52 in order) of the cards
  still in play, in the stock or on the waste.
* ``ptr``: cycle positions below ``ptr`` are on the waste, the others in the stock. Recycling
  never shuffles, so waste (bottom to top) followed by stock (top to bottom) is always the
  original cycle order with the removed cards left out: the waste top is the highest live bit
  below ``ptr``, the stock top the lowest live bit at or above it. A draw moves ``ptr`` past the
  next 1 (or 3) live cards; a recycle sets it to 0.
* ``drawn``: under ``two-card``, whether the drawn-card spot holds a card (the highest live bit
  below ``ptr``; the waste top is then the next one down).
* ``recycles``: turns of the waste used so far.

Three tiers, as in OpenSpiel: :func:`legal_ids` / :func:`apply` / :func:`undo` are the fast
unchecked path (search, the env); :func:`apply_checked` validates with :func:`why_illegal`, a
separate, slow, readable implementation of the rules that tests compare with the fast one.
"""

from __future__ import annotations

import operator
from enum import StrEnum

from pyramid_env.engine.cards import CARD_NAMES, KING, RANK, TARGET
from pyramid_env.engine.deal import DealLike, to_deal
from pyramid_env.engine.errors import IllegalMove, describe, is_int
from pyramid_env.engine.layout import COVERED_BY, FULL, SHAPES, SLOTS, slot_name
from pyramid_env.engine.moves import MOVES, PLACES, STOCK, WASTE, Move, MoveKind
from pyramid_env.engine.rules import Goal, Rules, StockPlay, get_rules

STOCK_SIZE = 24
_DRAW, _RECYCLE = 0, 1
_KING_ID: tuple[int, ...] = tuple(m.id for m in MOVES if m.kind is MoveKind.KING)
_PAIR_ID: list[list[int]] = [[-1] * PLACES for _ in range(PLACES)]
for _m in MOVES:
    if _m.kind is MoveKind.PAIR:
        _PAIR_ID[_m.a][_m.b] = _PAIR_ID[_m.b][_m.a] = _m.id
MODE = {StockPlay.WASTE_TOP: 0, StockPlay.DRAWN_AND_WASTE: 1, StockPlay.FACE_UP_STOCK: 2}
"""The kind of stock play as a small integer, for the fast paths (and the compiled kernel)."""




class Status(StrEnum):
    """Where a game stands."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class State:
    """A position under a rule set. Create with ``State(deal, rules)`` for the opening.

    Attributes:
        rules: the :class:`Rules` in force.
        deal: the :class:`Deal` being played.
        pyr, left, ptr, drawn, recycles: the position (see the module docstring).
    """

    __slots__ = (
        "rules", "deal", "pyr", "left", "ptr", "drawn", "recycles",
        "_prank", "_srank", "_rank_pos", "_mode", "_max_recycles", "_cover", "_goal_all",
        "_dead_ends",
        "_draw3",
    )  # fmt: skip

    def __init__(self, deal: DealLike = 0, rules: Rules | str | None = None) -> None:
        """The opening position of ``deal`` (a number, code, text or ``Deal``) under ``rules``."""
        self.deal = to_deal(deal)
        self.rules = rules = get_rules(rules)
        self._prank = tuple(RANK[c] for c in self.deal.pyramid)
        self._srank = tuple(RANK[c] for c in self.deal.stock)
        # _rank_pos[r]: mask of the stock cycle positions holding rank r (1..13).
        self._rank_pos = tuple(
            sum(1 << i for i, r in enumerate(self._srank) if r == rank) for rank in range(14)
        )
        self._mode = MODE[rules.stock_play]
        self._max_recycles = rules.recycles
        self._cover = rules.covering_pair
        self._goal_all = rules.goal is Goal.ALL
        self._dead_ends = rules.dead_deal_ends_game
        self._draw3 = rules.draw_count == 3
        self.pyr = FULL
        self.left = (1 << STOCK_SIZE) - 1
        self.ptr = rules.waste_start
        self.drawn = False
        self.recycles = 0

    # -- copying, identity --------------------------------------------------------------------
    def copy(self) -> State:
        """An independent copy (shares the immutable deal, rules and rank tables)."""
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        return new

    def child(self, move: Move) -> State:
        """Copy, then apply ``move`` unchecked."""
        new = self.copy()
        apply(new, move)
        return new

    def key(self) -> int:
        """The position as one int for search: equal keys have the same futures.

        Bits 0-27 ``pyr``, 28-51 ``left``, 52-56 ``ptr``, 57 ``drawn``, 58+ ``recycles``. With
        unlimited passes the recycle count changes nothing ahead, so it is left out: otherwise
        every lap of the stock would look like a new position and search would never close.
        """
        key = self.pyr | self.left << 28 | self.ptr << 52 | self.drawn << 57
        return key if self._max_recycles is None else key | self.recycles << 58

    def fields(self) -> tuple[int, int, int, bool, int]:
        """The exact position, recycle count included: ``(pyr, left, ptr, drawn, recycles)``."""
        return (self.pyr, self.left, self.ptr, self.drawn, self.recycles)

    def __eq__(self, other: object) -> bool:
        """Same deal, rules and exact position (recycle count included)."""
        if not isinstance(other, State):
            return NotImplemented
        return (self.fields(), self.deal, self.rules) == (other.fields(), other.deal, other.rules)

    def __hash__(self) -> int:
        """Hash of the deal's cards and the exact position."""
        return hash((self.fields(), self.deal.cards))

    def __repr__(self) -> str:
        """Short form: deal, rules and counts."""
        return (
            f"State({self.deal.label()}, {self.rules.name}, pyramid={self.pyramid_left}, "
            f"stock={self.stock_size}, waste={self.waste_size}, recycles={self.recycles})"
        )

    def __str__(self) -> str:
        """The board as text (see :mod:`pyramid_env.engine.notation`)."""
        from pyramid_env.engine.notation import format_board

        return format_board(self)

    # -- what is where -------------------------------------------------------------------------
    def _tops(self) -> tuple[int, int]:
        """Cycle indices of (waste top, stock card in play); -1 where there is none."""
        waste = self.left & ((1 << self.ptr) - 1)
        w = waste.bit_length() - 1
        d = -1
        if self._mode == 1:
            if self.drawn:
                d, w = w, (waste ^ (1 << w)).bit_length() - 1
        elif self._mode == 2:
            hi = self.left >> self.ptr
            if hi:
                d = self.ptr + (hi & -hi).bit_length() - 1
        return w, d

    def card_at(self, place: int) -> int | None:
        """The card at a place (slot, ``WASTE`` or ``STOCK``), or ``None`` if it is empty."""
        if place < SLOTS:
            return self.deal.cards[place] if self.pyr >> place & 1 else None
        w, d = self._tops()
        i = w if place == WASTE else d
        return None if i < 0 else self.deal.cards[SLOTS + i]

    def is_exposed(self, s: int) -> bool:
        """Slot ``s`` holds a card and no card covers it."""
        return bool(self.pyr >> s & 1) and not any(self.pyr >> t & 1 for t in COVERED_BY[s])

    def coverers(self, s: int) -> tuple[int, ...]:
        """The slots still directly covering slot ``s``."""
        return tuple(t for t in COVERED_BY[s] if self.pyr >> t & 1)

    def _cycle(self, lo: int, hi: int) -> list[int]:
        return [self.deal.cards[SLOTS + i] for i in range(lo, hi) if self.left >> i & 1]

    @property
    def stock_cards(self) -> list[int]:
        """Cards in the stock, the next to be turned first."""
        return self._cycle(self.ptr, STOCK_SIZE)

    @property
    def waste_cards(self) -> list[int]:
        """Cards on the waste, bottom first, top last (the drawn card, if any, excluded)."""
        cards = self._cycle(0, self.ptr)
        return cards[:-1] if self.drawn else cards

    @property
    def drawn_card(self) -> int | None:
        """The card in the drawn spot (``two-card`` rules), else ``None``."""
        return self.card_at(STOCK) if self._mode == 1 else None

    @property
    def pyramid_left(self) -> int:
        """Pyramid cards still in place."""
        return self.pyr.bit_count()

    @property
    def stock_size(self) -> int:
        """Cards in the stock."""
        return (self.left >> self.ptr).bit_count()

    @property
    def waste_size(self) -> int:
        """Cards on the waste, the drawn card excluded."""
        return (self.left & ((1 << self.ptr) - 1)).bit_count() - self.drawn

    @property
    def recycles_left(self) -> int | None:
        """Turns of the waste still allowed, ``None`` if unlimited."""
        m = self._max_recycles
        return None if m is None else m - self.recycles


def face_up(s: State) -> int:
    """Cycle positions face up now: the waste (and drawn card), and a face-up stock top (``msc``).

    A bitmask like ``s.left`` (bit ``i``: deal card ``SLOTS + i``). It is what a player can see
    of the stock cycle at this moment, so the env's observation and every text or picture of a
    hidden stock build on it.
    """
    up = s.left & ((1 << s.ptr) - 1)
    hi = s.left >> s.ptr
    if hi and s.rules.stock_play is StockPlay.FACE_UP_STOCK:
        up |= (hi & -hi) << s.ptr
    return up


# -- the fast path ----------------------------------------------------------------------------
def _removals(s: State) -> list[int]:
    """Ids of every legal removal (unsorted), and of draw or recycle last; no terminal check."""
    shape = SHAPES[s.pyr]
    exp = shape.exposed
    rk = s._prank
    ids: list[int] = []
    app = ids.append
    for k, i in enumerate(exp):
        r = rk[i]
        if r == KING:
            app(_KING_ID[i])
        else:
            need = TARGET - r
            row = _PAIR_ID[i]
            for j in exp[k + 1 :]:
                if rk[j] == need:
                    app(row[j])
    if s._cover:
        for i, j in shape.covering:
            if rk[i] + rk[j] == TARGET:
                app(_PAIR_ID[i][j])
    left, ptr = s.left, s.ptr
    waste = left & ((1 << ptr) - 1)
    if waste or s._mode == 2:
        sr = s._srank
        w, d = s._tops()
        for place, idx in ((WASTE, w), (STOCK, d)):
            if idx >= 0:
                r = sr[idx]
                if r == KING:
                    app(_KING_ID[place])
                else:
                    need = TARGET - r
                    for i in exp:
                        if rk[i] == need:
                            app(_PAIR_ID[i][place])
        if w >= 0 and d >= 0 and sr[w] + sr[d] == TARGET:
            app(_PAIR_ID[WASTE][STOCK])
    if left >> ptr:
        app(_DRAW)
    elif waste and (s._max_recycles is None or s.recycles < s._max_recycles):
        app(_RECYCLE)
    return ids


def hopeless(s: State) -> bool:
    """000's second condition: no stock or waste card could ever help reach the goal.

    With no removal playable (the first condition), this is the dead-deal test: callers that
    already hold the legal moves use it directly instead of :func:`is_dead`.

    With pyramid cards left, a stock card helps only by pairing with an exposed pyramid card
    (only removals expose cards, so the exposed set is fixed until one happens). With the pyramid
    cleared under goal "all", a stock card helps if it is a King or, where two stock cards can
    pair, if some partner for it is left too.
    """
    left, pos = s.left, s._rank_pos
    if s.pyr:
        rk = s._prank
        return not any(left & pos[TARGET - rk[i]] for i in SHAPES[s.pyr].exposed)
    if left & pos[KING]:
        return False
    return s._mode == 0 or not any(left & pos[r] and left & pos[TARGET - r] for r in range(1, 7))


def is_won(s: State) -> bool:
    """The goal is reached: the pyramid is clear (and, for goal "all", the stock and waste)."""
    return s.pyr == 0 and (not s._goal_all or s.left == 0)


def is_dead(s: State) -> bool:
    """000's dead-deal test: no removal now, and no stock or waste card could ever help.

    Conservative: it never calls a winnable position dead. Available under every preset; it
    ends the game only where ``rules.dead_deal_ends_game``.
    """
    if is_won(s):
        return False
    ids = _removals(s)
    return (not ids or ids[0] <= _RECYCLE) and hopeless(s)


def legal_ids(s: State) -> list[int]:
    """Sorted ids (``MOVES`` indices) of the legal moves; empty once the game is over."""
    if s.pyr == 0 and (not s._goal_all or s.left == 0):
        return []
    ids = _removals(s)
    if s._dead_ends and (not ids or ids[0] <= _RECYCLE) and hopeless(s):
        return []
    ids.sort()
    return ids


def legal_moves(s: State) -> tuple[Move, ...]:
    """The legal moves, sorted by id; empty once the game is over (won, or lost)."""
    return tuple(MOVES[i] for i in legal_ids(s))


def status(s: State) -> Status:
    """Won, lost or playing.

    Lost means no legal move: nothing left to do, or 000's dead deal where it ends the game.
    Terminal comes from the rules, not from a flag.
    """
    if is_won(s):
        return Status.WON
    return Status.PLAYING if legal_ids(s) else Status.LOST


Token = tuple[int, int, int, bool, int]


def apply(s: State, move: Move) -> Token:
    """Play ``move`` without checking it; return the token that :func:`undo` takes."""
    token = (s.pyr, s.left, s.ptr, s.drawn, s.recycles)
    kind = move.kind
    if kind == MoveKind.DRAW:
        hi = s.left >> s.ptr
        if s._draw3:
            p = s.ptr
            for _ in range(3):
                if not hi:
                    break
                step = (hi & -hi).bit_length()
                p += step
                hi >>= step
            s.ptr = p
        else:
            s.ptr += (hi & -hi).bit_length()
        if s._mode == 1:
            s.drawn = True
    elif kind == MoveKind.RECYCLE:
        s.ptr = 0
        s.recycles += 1
        s.drawn = False
    else:
        a, b = move.a, move.b
        if b >= WASTE or a >= WASTE:
            w, d = s._tops()
            if WASTE in (a, b):
                s.left ^= 1 << w
            if b == STOCK or a == STOCK:
                s.left ^= 1 << d
                s.drawn = False
        if a < SLOTS:
            s.pyr ^= 1 << a
        if 0 <= b < SLOTS:
            s.pyr ^= 1 << b
    return token


def undo(s: State, token: Token) -> None:
    """Restore the position from before the move that returned ``token``."""
    s.pyr, s.left, s.ptr, s.drawn, s.recycles = token


# -- the checked path ---------------------------------------------------------------------------
def _names(cards: list[int]) -> str:
    return " and ".join(CARD_NAMES[c] for c in cards)


def _absent(s: State, place: int) -> str:
    if place < SLOTS:
        return f"{slot_name(place)} is empty: its card is gone"
    if place == WASTE:
        return "the waste is empty"
    return {
        0: "these rules play only the waste top: there is no drawn or face-up stock card",
        1: "there is no drawn card: draw one first",
        2: "the stock is empty: there is no face-up stock card",
    }[s._mode]


def _covered(s: State, slot: int) -> str | None:
    cov = s.coverers(slot)
    if not cov:
        return None
    return (
        f"{CARD_NAMES[s.deal.cards[slot]]} is covered by {_names([s.deal.cards[t] for t in cov])}"
    )


def why_illegal(s: State, move: Move) -> str | None:
    """Why ``move`` is illegal here, in words; ``None`` if it is legal.

    This is the rules written plainly, independent of the fast move generator; tests check that
    the two agree on every move of every position they visit.
    """
    st = status(s)
    if st is not Status.PLAYING:
        dead = " (dead deal: nothing can ever be removed)" if st is Status.LOST else ""
        return f"the game is over: {st.value}{dead}"
    if move.kind == MoveKind.DRAW:
        return None if s.stock_size else "the stock is empty"
    if move.kind == MoveKind.RECYCLE:
        if s.stock_size:
            return f"the stock still has {s.stock_size} card(s): only an empty stock is recycled"
        if not s.waste_size + s.drawn:
            return "the waste is empty: there is nothing to recycle"
        if s.recycles_left == 0:
            return f"no recycle left: these rules allow {s.rules.passes} pass(es) through the stock"
        return None
    cards = []
    for p in move.places:
        c = s.card_at(p)
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
    if b < SLOTS and (a in COVERED_BY[b] or b in COVERED_BY[a]):
        low, top = (a, b) if b in COVERED_BY[a] else (b, a)  # top covers low
        lc, tc = CARD_NAMES[s.deal.cards[low]], CARD_NAMES[s.deal.cards[top]]
        if not s.rules.covering_pair:
            return f"{lc} is covered by {tc}: these rules do not let a card pair with its coverer"
        others = [s.deal.cards[t] for t in s.coverers(low) if t != top]
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


def apply_checked(s: State, move: Move | int) -> Token:
    """Play ``move`` (a ``Move`` or its id) if legal, else raise :class:`IllegalMove` saying why.

    Raises:
        IllegalMove: the move is not legal here; the message names the cards and the rule.
    """
    if not isinstance(move, Move):
        if not is_int(move):  # numpy's integers are ids too; True is not
            raise IllegalMove(
                f"move {describe(move)} is not a Move or a move id 0..{len(MOVES) - 1}"
            )
        move = operator.index(move)
        if not 0 <= move < len(MOVES):
            raise IllegalMove(f"move id {move!r} is out of range 0..{len(MOVES) - 1}")
        move = MOVES[move]
    reason = why_illegal(s, move)
    if reason is not None:
        raise IllegalMove(reason)
    return apply(s, move)
