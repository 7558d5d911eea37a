"""A position and its rules: legal moves, apply/undo, status, and checked play.

The position is five integers, so copying, undoing and hashing are cheap (docs/engine.md, "A
position", says what each holds); the rules on them are :mod:`~pyramid_env.engine.primitives`,
shared with the compiled kernels. Three tiers, as in OpenSpiel: :func:`legal_ids` /
:func:`apply` / :func:`undo` are the fast unchecked path (search, the env); :func:`apply_checked`
validates with :func:`~pyramid_env.engine.checked.why_illegal`, the rules written plainly, which
tests compare with the fast path.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from enum import StrEnum

from pyramid_env.engine import primitives as P
from pyramid_env.engine.board_text import format_board
from pyramid_env.engine.cards import RANK
from pyramid_env.engine.checked import why_illegal
from pyramid_env.engine.deal import DealLike, to_deal
from pyramid_env.engine.errors import IllegalMove, describe, is_int
from pyramid_env.engine.layout import COVERED_BY, FULL, SHAPES, SLOTS, STOCK_SIZE
from pyramid_env.engine.moves import (
    DRAW,
    KING_ID,
    MOVES,
    PAIR_ID,
    RECYCLE,
    STOCK,
    WASTE,
    Move,
)
from pyramid_env.engine.rules import Rules, get_rules

_DRAW, _RECYCLE = DRAW.id, RECYCLE.id
# The primitives the fast path calls, bound once (a module attribute costs a lookup per call).
_tops, _advance, _turn_id, _is_won = P.tops, P.advance, P.turn_id, P.is_won
_pyramid_gen, _stock_gen = P.pyramid_removals, P.stock_removals
SHAPE_CANDIDATES: dict[int, tuple[int, ...]] = {
    pyr: tuple(x for pair in shape.covering for x in pair) for pyr, shape in SHAPES.items()
}
"""Each shape's covering-pair candidates as the move generator takes them: flat pairs."""
_STOCK_ROOM = (0,) * 9  # removals with a stock card: two Kings, or 2 x 4 pairs and a stock pair


class Status(StrEnum):
    """Where a game stands."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class State:
    """A position under a rule set. Create with ``State(deal, rules)`` for the opening.

    Attributes:
        rules: the :class:`Rules` in force.
        knobs: the same rules as :class:`~pyramid_env.engine.primitives.Knobs` (ints).
        deal: the :class:`Deal` being played.
        pyr, left, ptr, drawn, recycles: the position (docs/engine.md, "A position").
    """

    __slots__ = (
        "rules", "knobs", "deal", "pyr", "left", "ptr", "drawn", "recycles",
        "_prank", "_srank", "_rank_pos", "_pyramid_moves",
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
        self.knobs = rules.knobs
        self._pyramid_moves: dict[int, tuple[int, ...]] = {}  # see _removals
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

    def restocked(self, stock: Sequence[int]) -> State:
        """This position with ``stock`` in the stock places (see :meth:`Deal.restocked`)."""
        new = self.copy()
        new.deal = self.deal.restocked(stock)
        new._srank = srank = tuple(RANK[c] for c in new.deal.stock)
        pos = [0] * 14
        for i, r in enumerate(srank):
            pos[r] |= 1 << i
        new._rank_pos = tuple(pos)
        return new

    def child(self, move: Move) -> State:
        """Copy, then apply ``move`` unchecked."""
        new = self.copy()
        apply(new, move)
        return new

    def key(self) -> int:
        """The position as one int for search (:func:`~pyramid_env.engine.primitives.key`)."""
        return P.key(self.pyr, self.left, self.ptr, self.drawn, self.recycles, self.knobs)

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
        return format_board(self)

    # -- what is where -------------------------------------------------------------------------
    def tops(self) -> tuple[int, int]:
        """Cycle indices of (waste top, second playable stock card); -1 where there is none.

        The second card is the drawn card or the face-up stock top, as the rules say
        (:func:`~pyramid_env.engine.primitives.tops`).
        """
        return P.tops(self.left, self.ptr, self.drawn, self.knobs)

    def card_at(self, place: int) -> int | None:
        """The card at a place (slot, ``WASTE`` or ``STOCK``), or ``None`` if it is empty."""
        if place < SLOTS:
            return self.deal.cards[place] if self.pyr >> place & 1 else None
        w, d = self.tops()
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
        return self.card_at(STOCK) if self.knobs.drawn_spot else None

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
        m = self.knobs.max_recycles
        return None if m < 0 else m - self.recycles


def face_up(s: State) -> int:
    """Cycle positions face up now: the waste (and drawn card), and a face-up stock top (``msc``).

    A bitmask like ``s.left`` (bit ``i``: deal card ``SLOTS + i``). It is what a player can see
    of the stock cycle at this moment, so the env's observation and every text or picture of a
    hidden stock build on it (:func:`~pyramid_env.engine.primitives.face_up`).
    """
    return P.face_up(s.left, s.ptr, s.knobs)


# -- the fast path ----------------------------------------------------------------------------
def _removals(s: State) -> list[int]:
    """Ids of every legal removal (unsorted), and of draw or recycle last; no terminal check.

    The primitives' one generator, run as plain Python: the pyramid's removals
    (:func:`~pyramid_env.engine.primitives.pyramid_removals`), which depend only on the
    pyramid's shape for a deal and rules, are remembered per shape in ``s._pyramid_moves``
    (shared by the copies of a position), then those with a stock card
    (:func:`~pyramid_env.engine.primitives.stock_removals`).
    """
    pyr = s.pyr
    known = s._pyramid_moves
    pm = known.get(pyr)
    if pm is None:
        exps, cands = SHAPES[pyr].exposed, SHAPE_CANDIDATES[pyr]
        buf = [0] * 64
        n = _pyramid_gen(exps, len(exps), cands, len(cands) // 2, s._prank, KING_ID, PAIR_ID,
                         s.knobs.covering_pair, buf)  # fmt: skip
        known[pyr] = pm = tuple(buf[:n])
    exps = SHAPES[pyr].exposed
    left, ptr, k = s.left, s.ptr, s.knobs
    n = len(pm)
    ids = [*pm, *_STOCK_ROOM]
    n = _stock_gen(exps, len(exps), left, ptr, s.drawn, s._prank, s._srank, KING_ID,
                   PAIR_ID, k, ids, n)  # fmt: skip
    del ids[n:]
    turn = _turn_id(left, ptr, s.recycles, k)  # DRAW, RECYCLE or none (-1)
    if turn >= 0:
        ids.append(turn)
    return ids


def nothing_can_help(s: State) -> bool:
    """000's second dead-deal condition: no stock or waste card could ever help reach the goal.

    With no removal playable (the first condition), this is the dead-deal test: callers that
    already hold the legal moves use it directly instead of :func:`is_dead`
    (:func:`~pyramid_env.engine.primitives.nothing_can_help` says why it is sound).
    """
    exposed = SHAPES[s.pyr].exposed_mask
    return P.nothing_can_help(s.pyr, exposed, s.left, s._prank, s._rank_pos, s.knobs)


def is_won(s: State) -> bool:
    """The goal is reached: the pyramid is clear (and, for goal "all", the stock and waste)."""
    return P.is_won(s.pyr, s.left, s.knobs)


def is_dead(s: State) -> bool:
    """000's dead-deal test: no removal now, and no stock or waste card could ever help.

    Conservative: it never calls a winnable position dead. Available under every preset; it
    ends the game only where ``rules.dead_deal_ends_game``.
    """
    if is_won(s):
        return False
    ids = _removals(s)
    return (not ids or ids[0] <= _RECYCLE) and nothing_can_help(s)


def legal_ids(s: State) -> list[int]:
    """Sorted ids (``MOVES`` indices) of the legal moves; empty once the game is over."""
    k = s.knobs
    if not s.pyr and _is_won(s.pyr, s.left, k):  # (only an empty pyramid can be won)
        return []
    ids = _removals(s)
    if k.dead_deal_ends and (not ids or ids[0] <= _RECYCLE) and nothing_can_help(s):
        return []
    ids.sort()
    return ids


def is_over(s: State, ids: list[int], dead_ends: bool = False) -> bool:
    """Play stops here: no legal move, or (``dead_ends``) a dead deal the rules would play on.

    ``ids`` are the legal moves (:func:`legal_ids`); with ``dead_ends``, play also stops when
    no removal is legal and 000's dead-deal test holds.

    One definition of an episode's end, for the env (its ``terminate_on_dead`` option) and
    anything else that stops at a dead deal the rules would let drag on.
    """
    # ids are sorted, draw and recycle first: a removal among them rules out a dead deal.
    return not ids or (dead_ends and ids[-1] <= _RECYCLE and nothing_can_help(s))


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
    i = move.id  # draw and recycle are ids 0 and 1 (an int compares faster than the kind)
    if i == _DRAW:
        k = s.knobs
        s.ptr = _advance(s.left, s.ptr, k)
        if k.drawn_spot:
            s.drawn = True
    elif i == _RECYCLE:
        s.ptr = 0
        s.recycles += 1
        s.drawn = False
    else:
        a, b = move.a, move.b
        if b >= WASTE or a >= WASTE:
            w, d = _tops(s.left, s.ptr, s.drawn, s.knobs)
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
