"""The engine's rules over N positions at once, as numpy array operations.

:class:`~pyramid_env.env.vector.PyramidVectorEnv` keeps its games as arrays (one row per game:
the same five integers as :class:`~pyramid_env.engine.state.State`, plus each deal's ranks) and
computes the legal-move masks, the moves, the dead-deal test and the end of play for all of them
with a few dozen numpy operations, instead of a Python call per game.

This module is the one other statement of the rules, beside the engine's scalar one
(:mod:`pyramid_env.engine.primitives` and the move generator of
:mod:`pyramid_env.engine.state`): a Python call per rule and per game is what the vector env
exists to avoid, so the rules are restated here on arrays, reading the same
:class:`~pyramid_env.engine.primitives.Knobs` flags as the engine (never the stock-play mode by
name), so a rule variant means the same thing to both. Where a scalar primitive already works on
arrays as written (:func:`~pyramid_env.engine.primitives.face_up`), it is called, not restated.
Being a second statement, it is tested against the engine: on random playouts under every
:func:`pyramid_env.engine.invariants.rule_variants` entry the masks equal ``legal_ids``, the
dead-deal test equals ``nothing_can_help`` and the positions after each move equal ``apply``'s
(``tests/env/test_batch.py``). Pure numpy, like pgx's batched games; no compiler needed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pyramid_env.engine import primitives as P
from pyramid_env.engine.cards import KING, RANK, TARGET
from pyramid_env.engine.deal import Deal
from pyramid_env.engine.layout import COVER_MASK, COVERED_BY, FULL, SLOTS
from pyramid_env.engine.moves import MOVES, STOCK, WASTE, MoveKind
from pyramid_env.engine.primitives import Knobs
from pyramid_env.engine.rules import Rules
from pyramid_env.engine.state import State

N_MOVES = len(MOVES)
_P = np.arange(SLOTS, dtype=np.int64)
_COVER = np.array(COVER_MASK, dtype=np.int64)
# Per move id, and one more (_NOTHING, kind -1) for rows that do not move.
_NOTHING = len(MOVES)
_KIND = np.array([m.kind for m in MOVES] + [-1], dtype=np.int64)
_A = np.array([m.a for m in MOVES], dtype=np.int64)
_B = np.array([m.b for m in MOVES], dtype=np.int64)
_KINGS = np.flatnonzero(_KIND == MoveKind.KING)  # ids 2..31, place = id - 2
_PAIRS = [m for m in MOVES if m.kind is MoveKind.PAIR]  # the last ids, in order
assert _PAIRS[-1].id == len(MOVES) - 1 and _KINGS[-1] + 1 == _PAIRS[0].id
# A pair of slots where one directly covers the other can only go as a covering pair; every
# other pair needs both of its places available (exposed, or the waste top / stock card).
_DIRECT = [m for m in _PAIRS if m.b < SLOTS and (m.a in COVERED_BY[m.b] or m.b in COVERED_BY[m.a])]
_FIRST_KING, _FIRST_PAIR = _PAIRS[0].id - len(_KINGS), _PAIRS[0].id
_PAIR_A = np.array([m.a for m in _PAIRS], dtype=np.int64)
_PAIR_B = np.array([m.b for m in _PAIRS], dtype=np.int64)
_DIRECT_ID = np.array([m.id for m in _DIRECT], dtype=np.int64)
_WASTE_STOCK = next(m.id for m in _PAIRS if {m.a, m.b} == {WASTE, STOCK})
# COVERED_BY[s] lists the slots lying on s: in a direct pair, the one on top is the coverer.
_TOP = np.array([m.a if m.a in COVERED_BY[m.b] else m.b for m in _DIRECT], dtype=np.int64)
_LOW = np.array([m.b if m.a in COVERED_BY[m.b] else m.a for m in _DIRECT], dtype=np.int64)
_RANK_OF = np.array([RANK[c] for c in range(52)], dtype=np.int8)
_RANKS14 = np.arange(14, dtype=np.int8)[:, None]
_POW24 = np.int64(1) << np.arange(24, dtype=np.int64)
_ALL_STOCK = (1 << 24) - 1
_LOW_AND_COVER = ((np.int64(1) << _LOW) | _COVER[_LOW])[:, None]
_LOW_AND_TOP = ((np.int64(1) << _LOW) | (np.int64(1) << _TOP))[:, None]
_POW14 = np.int64(1) << np.arange(14, dtype=np.int64)
_BITS32 = np.arange(32, dtype=np.int64)
# _HAS_PAIR[live]: some rank r and its partner 13 - r are both among the live ranks (bits).
_HAS_PAIR = np.array(
    [any(x >> q & 1 and x >> (TARGET - q) & 1 for q in range(1, 7)) for x in range(1 << 14)]
)


# What each move takes off the board (nothing for _NOTHING).
_USES_WASTE = np.append((_A == WASTE) | (_B == WASTE), False)
_USES_STOCK = np.append((_A == STOCK) | (_B == STOCK), False)
_PYR_BITS = np.array(
    [sum(1 << p for p in m.places if p < SLOTS) for m in MOVES] + [0], dtype=np.int64
)


def bitlen(x: np.ndarray) -> np.ndarray:
    """``int.bit_length`` elementwise for non-negative integers below 2**53 (exact via frexp)."""
    return np.frexp(x.astype(np.float64))[1].astype(np.int64)


def lowest(x: np.ndarray) -> np.ndarray:
    """Index of the lowest set bit (``-1`` for 0)."""
    return bitlen(x & -x) - 1


def popcount(x: np.ndarray) -> np.ndarray:
    """``int.bit_count`` elementwise for a 1-d array of masks below 2**32 (pyramid, stock)."""
    if hasattr(np, "bitwise_count"):  # numpy >= 2
        return np.bitwise_count(x).astype(np.int64)
    return ((x[:, None] >> _BITS32) & 1).sum(axis=1)


def tops(left: np.ndarray, ptr: np.ndarray, drawn: np.ndarray,
         k: Knobs) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """:func:`~pyramid_env.engine.primitives.tops` on arrays: (waste top, second stock card).

    Stock cycle indices, -1 where there is none. The second playable stock card is the drawn
    card (``drawn_spot``, which lifts the waste top one card down) or the face-up stock top
    (``face_up_top``).
    """
    waste = left & ((np.int64(1) << ptr) - 1)
    w = bitlen(waste) - 1
    if k.drawn_spot:
        held = drawn.astype(bool)
        d = np.where(held, w, -1)
        under = bitlen(waste ^ (np.int64(1) << np.maximum(w, 0))) - 1
        return np.where(held, under, w), d
    if k.face_up_top:
        hi = left >> ptr
        return w, np.where(hi != 0, ptr + lowest(hi), -1)
    return w, np.full_like(w, -1)


def present(pyr: np.ndarray) -> np.ndarray:
    """(N, 28) bool: the slot still holds its card."""
    return ((pyr[:, None] >> _P) & 1).astype(bool)


def exposed(pyr: np.ndarray, held: np.ndarray) -> np.ndarray:
    """(N, 28) bool: the slot holds its card (``held``, from :func:`present`) and none covers it."""
    return held & ((pyr[:, None] & _COVER) == 0)


def is_won(pyr: np.ndarray, left: np.ndarray, k: Knobs) -> np.ndarray:
    """:func:`~pyramid_env.engine.primitives.is_won` on arrays: the goal is reached."""
    done = pyr == 0
    return done & (left == 0) if k.goal_all else done


def is_over(mask: np.ndarray, removal: np.ndarray, no_help: np.ndarray,
            dead_ends: bool) -> np.ndarray:  # fmt: skip
    """:func:`~pyramid_env.engine.state.is_over` on arrays: play stops in these rows.

    No legal move (``mask``, as :meth:`Batch.legal` gives it), or, with ``dead_ends``, no legal
    removal (``removal``) and 000's "nothing can help" test (``no_help``). The vector env's
    episode end is this function, as the single env's is ``is_over``.
    """
    over = ~mask.any(axis=1)
    if dead_ends:
        over |= ~removal & no_help
    return over


@dataclass
class Batch:
    """N positions under one rule set; every array has the games on axis 0.

    ``pyr``, ``left``, ``ptr``, ``drawn``, ``recycles`` as in :class:`State`; ``prank`` (N, 28)
    and ``srank`` (N, 24) the deals' ranks; ``stock_of`` (N, 14) the stock positions of each
    rank as a bitmask; ``need_bit`` (N, 28) ``1 << (13 - rank)`` of each pyramid card;
    ``cover_sum13`` (N, direct pairs) whether each card-and-coverer pair of slots sums to 13.
    ``knobs`` is ``rules.knobs``, read by every rule below.
    """

    rules: Rules
    pyr: np.ndarray
    left: np.ndarray
    ptr: np.ndarray
    drawn: np.ndarray
    recycles: np.ndarray
    prank: np.ndarray
    srank: np.ndarray
    stock_of: np.ndarray
    need_bit: np.ndarray
    cover_sum13: np.ndarray
    knobs: Knobs = field(init=False)

    def __post_init__(self) -> None:
        """Read the rules' knobs once: every rule below branches on them."""
        self.knobs = self.rules.knobs

    @classmethod
    def empty(cls, n: int, rules: Rules) -> Batch:
        """N rows to be filled by :meth:`set_deal` or :meth:`set_row`."""
        z = np.zeros(n, dtype=np.int64)
        return cls(
            rules, z.copy(), z.copy(), z.copy(), z.copy(), z.copy(),
            np.zeros((n, SLOTS), np.int8), np.zeros((n, 24), np.int8),
            np.zeros((n, 14), np.int64), np.zeros((n, SLOTS), np.int64),
            np.zeros((n, len(_DIRECT)), bool),
        )  # fmt: skip

    def set_deal(self, i: int, deal: Deal) -> None:
        """Row ``i`` becomes the opening position of ``deal`` (what ``State(deal, rules)`` is)."""
        self.pyr[i], self.left[i], self.ptr[i] = FULL, _ALL_STOCK, self.knobs.waste_start
        self.drawn[i] = self.recycles[i] = 0
        self._ranks(i, deal)

    def set_row(self, i: int, s: State) -> None:
        """Copy position ``s`` (and its deal's ranks) into row ``i``."""
        self.pyr[i], self.left[i], self.ptr[i], self.drawn[i], self.recycles[i] = s.fields()
        self._ranks(i, s.deal)

    def _ranks(self, i: int, deal: Deal) -> None:
        ranks = _RANK_OF[np.array(deal.cards)]
        pr, sr = ranks[:SLOTS], ranks[SLOTS:]
        self.prank[i], self.srank[i] = pr, sr
        self.need_bit[i] = np.int64(1) << (TARGET - pr.astype(np.int64))
        self.cover_sum13[i] = pr[_LOW] + pr[_TOP] == TARGET
        self.stock_of[i] = ((sr == _RANKS14) * _POW24).sum(axis=1)

    def state(self, i: int, s: State) -> State:
        """Row ``i`` written into ``s`` (a State of the same deal and rules)."""
        s.pyr, s.left, s.ptr = int(self.pyr[i]), int(self.left[i]), int(self.ptr[i])
        s.drawn, s.recycles = bool(self.drawn[i]), int(self.recycles[i])
        return s

    # -- where things are ------------------------------------------------------------------------
    def tops(self) -> tuple[np.ndarray, np.ndarray]:
        """Stock cycle index of (waste top, drawn or face-up stock card); -1 where none."""
        return tops(self.left, self.ptr, self.drawn, self.knobs)

    def present(self) -> np.ndarray:
        """(N, 28) bool: the slot still holds its card."""
        return present(self.pyr)

    def exposed(self, present: np.ndarray) -> np.ndarray:
        """(N, 28) bool: present (from :meth:`present`) with no present coverer."""
        return exposed(self.pyr, present)

    def face_up(self) -> np.ndarray:
        """Cycle cards face up now: the waste (and drawn card), and a face-up stock top.

        The engine's own :func:`~pyramid_env.engine.primitives.face_up`: its shifts and masks
        work on arrays as written, so there is nothing to restate.
        """
        return P.face_up(self.left, self.ptr, self.knobs)

    def won(self) -> np.ndarray:
        """The goal is reached."""
        return is_won(self.pyr, self.left, self.knobs)

    # -- the rules -------------------------------------------------------------------------------
    def legal(
        self,
        present: np.ndarray | None = None,
        exposed: np.ndarray | None = None,
        tops: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Legal moves of every row, as ``state.legal_ids`` gives them.

        Args:
            present: :meth:`present`, if the caller has it already.
            exposed: :meth:`exposed`, likewise.
            tops: :meth:`tops`, likewise.

        Returns:
            ``(mask, removal, no_help)``: the (N, 327) legal-move mask; whether some removal is
            legal; and 000's "no stock or waste card could ever help" test
            (``state.nothing_can_help``; meaningful where the goal is not reached).
        """
        n = len(self.pyr)
        k = self.knobs
        if present is None:
            present = self.present()
        if exposed is None:
            exposed = self.exposed(present)
        w, d = self.tops() if tops is None else tops
        rows = np.arange(n)
        # Built with places on axis 0 (gathers along the first axis are about twice as fast).
        # code: the rank of each place's card if it can be played now, else 64, so that a pair
        # of places sums to 13 only if both are playable: one gather per side, no and-ing.
        code = np.full((SLOTS + 2, n), 64, np.int16)
        np.copyto(code[:SLOTS], self.prank.T, where=exposed.T)
        code[WASTE] = np.where(w >= 0, self.srank[rows, w], 64)
        code[STOCK] = np.where(d >= 0, self.srank[rows, d], 64)
        mask = np.zeros((N_MOVES, n), bool)
        np.equal(code, KING, out=mask[_FIRST_KING:_FIRST_PAIR])
        # Every pair id at once (they are the last ids): a direct pair comes out false here,
        # since its covered card is not exposed; covering pairs are set below.
        np.equal(code[_PAIR_A] + code[_PAIR_B], TARGET, out=mask[_FIRST_PAIR:])
        if not k.stock_pairs:  # the two stock cards never pair (nor are both in play)
            mask[_WASTE_STOCK] = False
        if k.covering_pair:
            # The covered card is present and its only coverer left is the top one, which is
            # exposed; and the two sum to 13.
            mask[_DIRECT_ID] = (
                ((self.pyr & _LOW_AND_COVER) == _LOW_AND_TOP) & exposed.T[_TOP] & self.cover_sum13.T
            )
        waste = self.left & ((np.int64(1) << self.ptr) - 1)
        stock = (self.left >> self.ptr) != 0
        mask[0] = stock
        turns = True if k.max_recycles < 0 else self.recycles < k.max_recycles
        mask[1] = ~stock & (waste != 0) & turns
        # live ranks: bit q set when a live stock card has rank q; need_bit: the partner rank
        # of each pyramid card as a bit (bit 0, never live, for a King).
        live = ((self.left[:, None] & self.stock_of) != 0) @ _POW14
        partner = (live[:, None] & self.need_bit) != 0
        # Pyramid cleared (goal "all"): a stock King helps, or, where two stock cards can pair,
        # a live rank with its partner live too.
        cleared = (live >> KING) & 1 == 0
        if k.stock_pairs:
            cleared &= ~_HAS_PAIR[live]
        no_help = np.where(self.pyr != 0, ~(exposed & partner).any(axis=1), cleared)
        out = np.ascontiguousarray(mask.T)
        removal = out[:, 2:].any(axis=1)
        over = self.won()
        if k.dead_deal_ends:
            over = over | (~removal & no_help)
        out[over] = False
        return out, removal & ~over, no_help

    def apply(self, moves: np.ndarray, rows: np.ndarray) -> None:
        """Play ``moves[i]`` in every row where ``rows`` is true (unchecked, as ``state.apply``)."""
        k = self.knobs
        m = np.where(rows, moves, _NOTHING)
        kind = _KIND[m]
        draw = kind == MoveKind.DRAW
        if draw.any():
            # primitives.advance: past the next draw_count live stock cards (fewer if short).
            p = self.ptr + lowest(self.left >> self.ptr) + 1
            for _ in range(k.draw_count - 1):
                hi = self.left >> p
                p = np.where(hi != 0, p + lowest(hi) + 1, p)
            self.ptr = np.where(draw, p, self.ptr)
            if k.drawn_spot:
                self.drawn = self.drawn | draw
        rec = kind == MoveKind.RECYCLE
        if rec.any():
            self.ptr = np.where(rec, 0, self.ptr)
            self.recycles = self.recycles + rec
            self.drawn = np.where(rec, 0, self.drawn)
        from_waste, from_stock = _USES_WASTE[m], _USES_STOCK[m]
        if from_waste.any() or from_stock.any():
            w, d = self.tops()
            one = np.int64(1)
            gone = np.where(from_waste, one << np.maximum(w, 0), 0)
            gone |= np.where(from_stock, one << np.maximum(d, 0), 0)
            self.left = self.left ^ gone
            self.drawn = np.where(from_stock, 0, self.drawn)
        self.pyr = self.pyr ^ _PYR_BITS[m]
