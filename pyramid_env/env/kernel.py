"""The envs' compiled step: every game's move, mask, end and observation in one call.

:class:`~pyramid_env.env.vector.PyramidVectorEnv` keeps its games in arrays (a row per game)
and calls :func:`step_games` once a step; the single env keeps one row and calls
:func:`play_one`. The rules are the engine's primitives compiled as they are (move generator,
``play``, ``turn_id``, dead-deal test); this module's own are the episode's bookkeeping
(:func:`step_games` inline, :func:`_play` for one game) and the observation's layout, tested
equal to the engine's Python path step for step. Without numba it runs as plain Python,
slowly. docs/scaling.md ("Training throughput") describes the arrays and the new deals' shuffle.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from pyramid_env.engine import moves
from pyramid_env.engine import primitives as P
from pyramid_env.engine.cards import RANK
from pyramid_env.engine.deal import (
    _ALPHABET,
    _INVERSE,
    _SIGMA_POWERS,
    _VERHOEFF,
    CODE_PREFIX,
    encode_code,
    shuffled_deck,
)
from pyramid_env.engine.game import points
from pyramid_env.engine.layout import COVER_MASK, FULL
from pyramid_env.engine.rules import Scoring
from pyramid_env.env.settings import REWARDS, step_reward
from pyramid_env.jit import AVAILABLE, borrowed, compiled, forget_stale_cache, outlined

_CACHED: list[Any] = []
_jit = compiled(_CACHED)
_inline = compiled(_CACHED, inline=True)  # see step_games
# The move generator and a move, typed once and inlined by LLVM (jit.outlined): numba's own
# inlining of them was most of the kernel's first compilation.
_OUT = outlined(_CACHED)
_shape, _removals, _play_move = _OUT["shape"], _OUT["removals"], _OUT["play"]
_tops, _turn_id = _OUT["tops"], _OUT["turn_id"]

if AVAILABLE:  # the single env's score and reward, compiled as they are
    from numba.extending import register_jitable

    register_jitable(points)
    # A function of its own, called with the kind as a constant string (see _reward): numba
    # compiles one version per kind and drops the other kinds' branches, string compares and all.
    _step_reward = _jit(step_reward)
else:
    _step_reward = step_reward

# Columns of the games' state array (int64, one row per game).
PYR, LEFT, PTR, DRAWN, REC = 0, 1, 2, 3, 4  # the position, as State holds it
STEPS, MOVES_, IDLE, REMOVED, ENDED = 5, 6, 7, 8, 9  # the episode's counters
DONE, WON, SEEN, PLEFT, SLEFT = 10, 11, 12, 13, 14  # over, won, ever face up, cards left
COLUMNS = 15
# Observation forms the kernel writes.
DICT, FLAT, ONEHOT, COUNTS, COMPACT = 0, 1, 2, 3, 4
CODE_LEN = len(CODE_PREFIX) + 38 + 2

COVER = np.array(COVER_MASK, np.int64)
KING_ID = np.array(moves.KING_ID, np.int64)
PAIR_ID = np.array(moves.PAIR_ID, np.int64)
MOVE_A = np.array(moves.MOVE_A, np.int64)
MOVE_B = np.array(moves.MOVE_B, np.int64)
RANK_OF = np.array(RANK, np.int64)
_ALPHA = np.frombuffer(_ALPHABET.encode(), np.uint8).astype(np.int64)
_PREFIX = np.frombuffer(CODE_PREFIX.encode(), np.uint8).astype(np.int64)
_VTABLE = np.array(_VERHOEFF, np.int64)
_SIGMA = np.array(_SIGMA_POWERS, np.int64)
_INV = np.array(_INVERSE, np.int64)
_SCALE = np.array([255, 255, 24, 24, 28], np.float32)  # the one-hot form's counters


class Points(NamedTuple):
    """A :class:`~pyramid_env.engine.rules.Scoring` as numba takes it (same field names).

    :func:`~pyramid_env.engine.game.points` reads its scoring by attribute, so it runs on this
    as on the rules' own value.
    """

    pyramid_card: int
    stock_card: int
    clear_bonus: int
    win_bonus: float
    win_per_move: float
    win_per_second: float

    @classmethod
    def of(cls, scoring: Scoring) -> Points:
        """The scoring's fields, typed for the kernel."""
        return cls(
            int(scoring.pyramid_card), int(scoring.stock_card), int(scoring.clear_bonus),
            float(scoring.win_bonus), float(scoring.win_per_move), float(scoring.win_per_second),
        )  # fmt: skip


# -- new games -----------------------------------------------------------------------------------
@_jit
def _shuffle_compiled(seed: Any, out: Any) -> None:
    """:func:`~pyramid_env.engine.deal.shuffled_deck` on uint64: SplitMix64 and Fisher-Yates."""
    for i in range(52):
        out[i] = i
    state = np.uint64(seed)
    for i in range(51, 0, -1):
        n = np.uint64(i + 1)
        top = np.uint64(0xFFFFFFFFFFFFFFFF) - (np.uint64(0) - n) % n  # reject the short bucket
        while True:
            state += np.uint64(0x9E3779B97F4A7C15)
            z = state
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            z = z ^ (z >> np.uint64(31))
            if z <= top:
                break
        j = np.int64(z % n)
        out[i], out[j] = out[j], out[i]


def _shuffle_python(seed: Any, out: Any) -> None:
    out[:] = shuffled_deck(int(seed))


shuffle = _shuffle_compiled if AVAILABLE else _shuffle_python


_CHUNK = 62**5  # five base-62 digits at a time: below 2**30, so a limb's division fits int64


@_jit
def _code_compiled(cards: Any, out: Any) -> None:
    """``Deal.code``'s characters (ASCII) into ``out``: prefix, 38 base-62 digits, 2 checks.

    The deal's Lehmer number (below 52! < 2**226) is built in eight 32-bit limbs, then cut
    into base-62 digits five at a time (64 limb divisions and 40 small ones), because an
    autoreset codes every new deal and a digit at a time is a long chain of divisions.
    """
    limbs = np.zeros(8, np.int64)  # the number, least significant limb first
    used = 0
    for t in range(52):  # Horner over the Lehmer digits, radix 52 - t
        c = cards[t]
        carry = c - (used & ((1 << c) - 1)).bit_count()
        used |= 1 << c
        for j in range(8):
            x = limbs[j] * (52 - t) + carry
            limbs[j] = x & 0xFFFFFFFF
            carry = x >> 32
    body = np.empty(40, np.int64)  # 40 digits, most significant first; the top two are 0
    for chunk in range(8):
        rem = 0
        for j in range(7, -1, -1):
            x = (rem << 32) | limbs[j]
            limbs[j] = x // _CHUNK
            rem = x - limbs[j] * _CHUNK
        for d in range(5):
            body[39 - 5 * chunk - d] = rem % 62
            rem //= 62
    for t in range(3):
        out[t] = _PREFIX[t]
    for t in range(38):
        out[3 + t] = _ALPHA[body[2 + t]]
    forward = 0  # Verhoeff over the digits read from the last, then over them reversed
    backward = 0
    for i in range(1, 39):
        forward = _VTABLE[forward, _SIGMA[i % 62, body[40 - i]]]
        backward = _VTABLE[backward, _SIGMA[i % 62, body[i + 1]]]
    out[41] = _ALPHA[_INV[forward]]
    out[42] = _ALPHA[_INV[backward]]


def _code_python(cards: Any, out: Any) -> None:
    out[:] = np.frombuffer(encode_code([int(c) for c in cards]).encode(), np.uint8)


code_chars = _code_compiled if AVAILABLE else _code_python


@_jit
def _deal_row(i: int, S: Any, cards: Any, prank: Any, srank: Any, stock_of: Any, k: Any) -> None:
    """Game ``i`` starts ``cards[i]``: its rank tables, the opening position, counters at 0."""
    for j in range(28):
        prank[i, j] = RANK_OF[cards[i, j]]
    for r in range(14):
        stock_of[i, r] = 0
    for j in range(24):
        r = RANK_OF[cards[i, 28 + j]]
        srank[i, j] = r
        stock_of[i, r] |= 1 << j
    left = (1 << 24) - 1
    S[i, PYR], S[i, LEFT], S[i, PTR], S[i, DRAWN], S[i, REC] = FULL, left, k.waste_start, 0, 0
    S[i, STEPS] = S[i, MOVES_] = S[i, IDLE] = S[i, REMOVED] = S[i, ENDED] = 0
    S[i, SEEN] = P.face_up(left, k.waste_start, k)


# -- one game's position: legal moves, end, observation ------------------------------------------
@_inline
def _refresh(i: int, S: Any, prank: Any, srank: Any, stock_of: Any, k: Any, stops_dead: bool,
             mask: Any, ids: Any, exps: Any, cands: Any) -> tuple[int, int]:  # fmt: skip
    """Game ``i``'s mask row, done, won and cards left, from its position.

    Returns the exposed slots and how many legal ids ``ids`` holds (0 once done), so that a
    copy of the mask row is written from them rather than copied byte by byte.

    The legal moves as ``state.legal_ids`` gives them and the end as ``state.is_over``: none
    once won, none at a dead deal the rules end, done at one the env ends (``stops_dead``).
    """
    # int(): the primitives call int methods, which numpy integers lack (numba: a no-op)
    pyr, left, ptr = int(S[i, PYR]), int(S[i, LEFT]), int(S[i, PTR])
    drawn, rec = int(S[i, DRAWN]), int(S[i, REC])
    shape = _shape(pyr, COVER, k.covering_pair, exps, cands)
    ne, nc = shape & 255, shape >> 8
    exp = 0
    for a in range(ne):
        exp |= 1 << exps[a]
    won = P.is_won(pyr, left, k)
    n = 0
    done = True
    if not won:
        pr = prank[i]
        n = _removals(exps, ne, cands, nc, left, ptr, drawn, pr, srank[i], KING_ID, PAIR_ID, k,
                       ids)  # fmt: skip
        dead = False
        if n == 0 and (k.dead_deal_ends or stops_dead):
            dead = P.nothing_can_help(pyr, exp, left, pr, stock_of[i], k)
        if not dead:
            turn = _turn_id(left, ptr, rec, k)
            if turn >= 0:
                ids[n] = turn
                n += 1
            done = n == 0
    _mask_row(mask[i], ids, n)  # done: n is 0
    S[i, DONE] = done
    S[i, WON] = won
    S[i, PLEFT] = pyr.bit_count()
    S[i, SLEFT] = left.bit_count()
    return exp, n


@_inline
def _mask_row(row: Any, ids: Any, n: int) -> None:
    """A mask row allowing ``ids[:n]``, or action 0 alone if ``n`` is 0 (the game is done)."""
    row[:] = 0
    if n == 0:
        row[0] = 1  # never all false: see PyramidEnv
    for j in range(n):
        row[ids[j]] = 1


@_inline
def _encode(i: int, S: Any, prank: Any, srank: Any, k: Any, exp: int, reveal: bool, form: int,
            scaled: bool, raw: Any, pieces: Any, counters: Any, out: Any,
            out8: Any) -> None:  # fmt: skip
    """Game ``i``'s observation in ``form``, as :mod:`pyramid_env.env.observation` lays it out.

    ``raw`` (scratch, 122): the flat form's 109 numbers, then the unseen cards of each rank.
    ``pieces`` (N, 104) int8 and ``counters`` (N, 5) int16 take the dict form; ``out`` (N,
    width) float32 the flat, one-hot or counts form (``scaled``: its counts divided into
    [0, 1]), ``out8`` (N, width) uint8 those forms undivided, or the compact form. One
    signature for every form: one compilation.
    """
    pyr, left, ptr = int(S[i, PYR]), int(S[i, LEFT]), int(S[i, PTR])
    drawn, rec = int(S[i, DRAWN]), int(S[i, REC])
    known = left if reveal else int(S[i, SEEN]) & left
    if form == COMPACT:
        _compact(out8[i], pyr, left, ptr, drawn, rec, known, exp, prank[i], srank[i], k,
                 int(S[i, PLEFT]))  # fmt: skip
        return
    for j in range(28):
        raw[j] = prank[i, j] if pyr >> j & 1 else 0
        raw[28 + j] = exp >> j & 1
    for r in range(109, 122):
        raw[r] = 0
    for j in range(24):
        live = left >> j & 1
        if known >> j & 1:
            raw[56 + j] = srank[i, j]
        else:
            raw[56 + j] = 14 * live
            if live:
                raw[108 + srank[i, j]] += 1  # an unseen card of this rank
        raw[80 + j] = live * (2 if j < ptr else 1)
    w, d = _tops(left, ptr, drawn, k)
    if w >= 0:
        raw[80 + w] = 3
    if d >= 0:
        raw[80 + d] = 4
    raw[104] = rec + 1 if rec < 255 else 255
    raw[105] = 255 if k.max_recycles < 0 else k.max_recycles - rec
    raw[106] = (left >> ptr).bit_count()
    raw[107] = (left & ((1 << ptr) - 1)).bit_count() - drawn
    raw[108] = S[i, PLEFT]
    if form == DICT:
        for j in range(104):
            pieces[i, j] = raw[j]
        for j in range(5):
            counters[i, j] = raw[104 + j]
    elif scaled:
        _fill(out[i], raw, form, True)
    else:
        _fill(out8[i], raw, form, False)


@_inline
def _compact(row: Any, pyr: int, left: int, ptr: int, drawn: int, rec: int, known: int, exp: int,
             prank: Any, srank: Any, k: Any, pleft: int) -> None:  # fmt: skip
    """One compact row (see observation.compact) straight from the position.

    The form a fast learner reads, written without the flat numbers in between and without
    a branch a place.
    """
    for j in range(28):
        present = pyr >> j & 1
        e = exp >> j & 1  # exposed implies present
        r = 5 * j
        row[r] = prank[j] * present
        row[r + 1] = j
        row[r + 2] = present * (5 + e)
        row[r + 3] = e
        row[r + 4] = present
    for j in range(24):
        live = left >> j & 1
        seen = known >> j & 1  # seen implies live
        r = 140 + 5 * j
        row[r] = srank[j] * seen + 14 * (live - seen)
        row[r + 1] = 28 + j
        row[r + 2] = live * (2 if j < ptr else 1)
        row[r + 3] = 0
        row[r + 4] = seen
    w, d = _tops(left, ptr, drawn, k)
    if w >= 0:
        row[142 + 5 * w] = 3
        row[143 + 5 * w] = 1
    if d >= 0:
        row[142 + 5 * d] = 4
        row[143 + 5 * d] = 1
    row[260] = rec + 1 if rec < 255 else 255
    row[261] = 255 if k.max_recycles < 0 else k.max_recycles - rec
    row[262] = (left >> ptr).bit_count()
    row[263] = (left & ((1 << ptr) - 1)).bit_count() - drawn
    row[264] = pleft


@_inline
def _fill(row: Any, raw: Any, form: int, scaled: bool) -> None:
    """One observation row in the flat, one-hot or counts form, from ``raw``."""
    if form == FLAT:
        for j in range(109):
            row[j] = raw[j]
        return
    row[:] = 0
    for j in range(28):
        row[14 * j + raw[j]] = 1
        row[392 + j] = raw[28 + j]
    for j in range(24):
        row[420 + 15 * j + raw[56 + j]] = 1
        row[780 + 5 * j + raw[80 + j]] = 1
    for j in range(5):  # scaled to [0, 1] in float32; as they are in uint8
        row[900 + j] = np.float32(raw[104 + j]) / _SCALE[j] if scaled else raw[104 + j]
    if form == COUNTS:
        for r in range(13):
            row[905 + r] = np.float32(raw[109 + r]) / np.float32(4) if scaled else raw[109 + r]
        row[918 + min(raw[105], 3)] = 1


# -- the vector env's calls ------------------------------------------------------------------------
class Config(NamedTuple):
    """The env's settings as the kernel reads them: one typed value, built once."""

    knobs: P.Knobs
    scoring: Points
    reward: int  # step_reward's kind, as its index in REWARDS
    illegal_reward: float
    stops_dead: bool  # the env ends a dead deal the rules would play on
    reveal: bool  # observe_stock="full"
    form: int  # DICT, FLAT, ONEHOT, COUNTS or COMPACT
    scaled: bool  # one-hot and counts in float32 (counts scaled), not uint8
    max_steps: int
    max_idle: int  # -1: no idle-pass limit
    raise_illegal: bool


FORMS = {"dict": DICT, "onehot": ONEHOT, "counts": COUNTS, "compact": COMPACT}
"""The kernel's form of each ``obs_mode`` (the others, flat and its wrappings, are ``FLAT``)."""


def config_of(settings: Any) -> Config:
    """The kernel's :class:`Config` of an env's :class:`~pyramid_env.env.settings.EnvSettings`."""
    rules = settings.rules
    return Config(
        knobs=rules.knobs,
        scoring=Points.of(rules.scoring),
        reward=REWARDS.index(settings.reward),
        illegal_reward=settings.illegal_reward,
        stops_dead=settings.stops_at_dead_deal,
        reveal=settings.observe_stock == "full",
        form=FORMS.get(settings.obs_mode, FLAT),
        scaled=settings.obs_dtype == "float32",
        max_steps=settings.max_steps,
        max_idle=-1 if settings.max_idle_passes is None else settings.max_idle_passes,
        raise_illegal=settings.illegal_action == "raise",
    )


N_INTS, N_FLOATS = 20, 4  # the lengths of config_arrays' two arrays


def config_arrays(c: Config) -> tuple[np.ndarray, np.ndarray]:
    """``c`` as an int64 and a float64 array, as :func:`step_games` and :func:`play_one` take it.

    numba types a tuple argument in Python at every call (about 100 microseconds for these
    nested ones), an array in C: the kernel's entry takes arrays and rebuilds the tuples.
    """
    ints = [*c.knobs, *c.scoring[:3], c.reward, c.stops_dead, c.reveal, c.form, c.scaled,
            c.max_steps, c.max_idle, c.raise_illegal]  # fmt: skip
    floats = [*c.scoring[3:], c.illegal_reward]
    assert len(ints) == N_INTS and len(floats) == N_FLOATS
    return np.array(ints, np.int64), np.array(floats, np.float64)


@_jit
def _config(ci: Any, cf: Any) -> Config:
    """The inverse of :func:`config_arrays`, in compiled code."""
    k = P.Knobs(ci[0], ci[1], ci[2], ci[3], ci[4], ci[5], ci[6], ci[7], ci[8])
    scoring = Points(ci[9], ci[10], ci[11], cf[0], cf[1], cf[2])
    return Config(k, scoring, ci[12], cf[3], ci[13] != 0, ci[14] != 0, ci[15], ci[16] != 0,
                  ci[17], ci[18], ci[19] != 0)  # fmt: skip


@_jit
def check_actions(actions: Any, S: Any, mask: Any, raise_illegal: bool) -> tuple[int, int]:
    """``(0, -1)`` if every action may be stepped; else ``(why, game)`` of the first that not.

    ``why`` 1: an id outside 0..326 (in any game); 2: an id the rules forbid (ended games aside),
    where ``raise_illegal``.
    """
    for i in range(len(actions)):
        if not 0 <= actions[i] < 327:
            return 1, i
    if raise_illegal:
        for i in range(len(actions)):
            if not S[i, ENDED] and (S[i, DONE] or not mask[i, actions[i]]):
                return 2, i
    return 0, -1


@_jit
def _reward(kind: int, before: int, after: int, won: bool, score_before: float,
            score_after: float) -> float:  # fmt: skip
    """:func:`~pyramid_env.env.settings.step_reward` of the kind ``REWARDS[kind]``.

    Each kind's call passes its name as a constant: numba compiles no string code for it.
    """
    if kind == 0:
        return _step_reward("cards", before, after, won, score_before, score_after)
    if kind == 1:
        return _step_reward("win", before, after, won, score_before, score_after)
    return _step_reward("score", before, after, won, score_before, score_after)


assert REWARDS == ("cards", "win", "score"), "_reward's kinds are REWARDS' in order"


@_jit
def _score(i: int, S: Any, score: Any, c: Config) -> None:
    """Game ``i``'s score into ``score[i]``: ``game.score`` on the row's numbers."""
    pleft = S[i, PLEFT]
    score[i] = points(c.scoring, 28 - pleft, 24 - S[i, SLEFT], pleft == 0, S[i, WON] != 0,
                      S[i, MOVES_], 0.0)  # fmt: skip


@_inline
def _outcome(i: int, S: Any, score: Any, c: Config, info: Any) -> None:
    """Game ``i``'s score (into ``score`` and the infos), cards left, moves, pass, won."""
    pleft = S[i, PLEFT]
    won = S[i, WON] != 0
    score[i] = points(c.scoring, 28 - pleft, 24 - S[i, SLEFT], pleft == 0, won, S[i, MOVES_], 0.0)
    info.pyramid_left[i] = pleft
    info.moves[i] = S[i, MOVES_]
    info.pass_[i] = S[i, REC] + 1
    info.score[i] = score[i]
    info.won[i] = won


@_jit  # step_games keeps its own copy of these lines: sharing them slowed it (docs/scaling.md)
def _play(i: int, a: int, S: Any, prank: Any, srank: Any, stock_of: Any, score: Any, mask: Any,
          c: Config, ids: Any, exps: Any, cands: Any) -> tuple[float, int, int, bool]:  # fmt: skip
    """Game ``i`` plays action ``a`` as ``PyramidEnv.step`` does (:func:`step_games` inline).

    An action the mask forbids (or any, once done) leaves the position and costs the illegal
    reward. Returns the reward, why truncated (0, 1 ``max_steps``, 2 idle passes), the exposed
    slots (for :func:`_encode`) and whether ``a`` was played.
    """
    k = c.knobs
    before = S[i, PLEFT]
    before_score = score[i]
    go = not S[i, DONE] and mask[i, a] != 0
    if go:
        pyr, left, ptr, drawn, rec = _play_move(
            int(S[i, PYR]), int(S[i, LEFT]), int(S[i, PTR]), int(S[i, DRAWN]), int(S[i, REC]),
            a, int(MOVE_A[a]), int(MOVE_B[a]), k,
        )  # fmt: skip
        S[i, PYR], S[i, LEFT], S[i, PTR], S[i, DRAWN], S[i, REC] = pyr, left, ptr, drawn, rec
        S[i, MOVES_] += 1
        if a > 1:  # a removal
            S[i, IDLE] = 0
            S[i, REMOVED] = 1
        elif a == 1:  # a pass ends: idle unless it saw a removal
            S[i, IDLE] = 0 if S[i, REMOVED] else S[i, IDLE] + 1
            S[i, REMOVED] = 0
        S[i, SEEN] |= P.face_up(left, ptr, k)
    exp = _refresh(i, S, prank, srank, stock_of, k, c.stops_dead, mask, ids, exps, cands)[0]
    _score(i, S, score, c)
    if go:
        reward = _reward(c.reward, before, S[i, PLEFT], S[i, WON] != 0, before_score, score[i])
    else:
        reward = c.illegal_reward
    S[i, STEPS] += 1
    trunc = 0
    if not S[i, DONE]:
        if c.max_idle >= 0 and S[i, IDLE] >= c.max_idle:
            trunc = 2
        elif S[i, STEPS] >= c.max_steps:
            trunc = 1
    return reward, trunc, exp, go


class Infos(NamedTuple):
    """Fresh arrays a call fills: the infos' numbers, the mask and the observation."""

    pyramid_left: Any
    moves: Any
    pass_: Any
    score: Any
    won: Any
    mask: Any  # (N, 327) int8, the mask given out (the env keeps its own copy)
    pieces: Any  # (N, 104) int8: the dict form's four pieces (one row if another form)
    counters: Any  # (N, 5) int16: the dict form's counters (one row if another form)
    out: Any  # (N, width) float32: the flat, one-hot or counts form (else one row)
    out8: Any  # (N, width) uint8: those forms in uint8, or the compact form (else one row)


@_jit
def step_games(reset: bool, rows: Any, actions: Any, numbers: Any, S: Any, cards: Any,
               prank: Any, srank: Any, stock_of: Any, score: Any, mask: Any, codes: Any, ci: Any,
               cf: Any, rewards: Any, terminated: Any, truncated: Any, why: Any, ends: Any,
               pyramid_left: Any, moves: Any, pass_: Any, info_score: Any, won: Any,
               mask_out: Any, pieces: Any, counters: Any, out: Any,
               out8: Any) -> tuple[int, int]:  # fmt: skip
    """One step of every game: autoreset, move, counters, reward, mask, end and observation.

    The vector env's one call a step (and a reset); arrays only, the settings as
    :func:`config_arrays` gives them, the outputs :class:`Infos`' fields. A game that ended at
    the last step is dealt ``numbers[i]`` (next-step autoreset, reward 0); any other plays
    ``actions[i]`` if legal, else the illegal reward. ``why``: 1 truncated by ``max_steps``, 2
    by the idle passes. Returns how many games end now (listed in ``ends``) and how many of
    them were truncated. With ``reset`` (one function: one compilation), game ``i`` in
    ``rows`` is dealt ``cards[i]`` instead; the step's inputs and outputs are not read.
    """
    c = _config(ci, cf)
    # Borrowed: no reference counting in the loop (see jit.borrowed); all live for the call.
    b = borrowed
    rows, actions, numbers, S, cards = b(rows), b(actions), b(numbers), b(S), b(cards)
    prank, srank, stock_of, score, mask = b(prank), b(srank), b(stock_of), b(score), b(mask)
    codes, rewards, terminated, truncated = b(codes), b(rewards), b(terminated), b(truncated)
    why, ends = b(why), b(ends)
    info = Infos(b(pyramid_left), b(moves), b(pass_), b(info_score), b(won), b(mask_out),
                 b(pieces), b(counters), b(out), b(out8))  # fmt: skip
    ids = np.empty(64, np.int64)
    exps = np.empty(28, np.int64)  # scratch: the shape of the pyramid (P.shape)
    cands = np.empty(56, np.int64)
    raw = np.empty(122, np.int64)
    k = c.knobs
    n_end = n_trunc = 0
    for i in range(len(rows)):
        # One tail for a reset and a step: _refresh and _encode are inlined, once each.
        ended = go = False
        a = 0
        before, before_score = S[i, PLEFT], score[i]
        if reset:
            if rows[i]:
                _deal_row(i, S, cards, prank, srank, stock_of, k)
                code_chars(cards[i], codes[i])
        else:
            ended = S[i, ENDED] != 0
            a = int(actions[i])
            go = not ended and not S[i, DONE] and mask[i, a] != 0
            if ended:
                shuffle(numbers[i], cards[i])
                _deal_row(i, S, cards, prank, srank, stock_of, k)
                code_chars(cards[i], codes[i])
            elif go:  # _play's lines: a shared helper measured slower twice (before the
                # helpers were forceinlined; worth timing again with bench_env --against)
                pyr, left, ptr, drawn, rec = _play_move(
                    int(S[i, PYR]), int(S[i, LEFT]), int(S[i, PTR]), int(S[i, DRAWN]),
                    int(S[i, REC]), a, int(MOVE_A[a]), int(MOVE_B[a]), k,
                )  # fmt: skip
                S[i, PYR], S[i, LEFT], S[i, PTR] = pyr, left, ptr
                S[i, DRAWN], S[i, REC] = drawn, rec
                S[i, MOVES_] += 1
                if a > 1:  # a removal
                    S[i, IDLE] = 0
                    S[i, REMOVED] = 1
                elif a == 1:  # a pass ends: idle unless it saw a removal
                    S[i, IDLE] = 0 if S[i, REMOVED] else S[i, IDLE] + 1
                    S[i, REMOVED] = 0
                S[i, SEEN] |= P.face_up(left, ptr, k)
        exp, n = _refresh(i, S, prank, srank, stock_of, k, c.stops_dead, mask, ids, exps, cands)
        _mask_row(info.mask[i], ids, n)  # the copy given out, written as the kept one
        _outcome(i, S, score, c, info)
        if not reset:
            term = False
            trunc = 0
            reward = 0.0
            if not ended:
                if go:
                    reward = _reward(c.reward, before, S[i, PLEFT], S[i, WON] != 0,
                                     before_score, score[i])  # fmt: skip
                else:
                    reward = c.illegal_reward
                S[i, STEPS] += 1
                term = S[i, DONE] != 0
                if not term:
                    if c.max_idle >= 0 and S[i, IDLE] >= c.max_idle:
                        trunc = 2
                    elif S[i, STEPS] >= c.max_steps:
                        trunc = 1
            rewards[i] = reward
            terminated[i] = term
            truncated[i] = trunc != 0
            why[i] = trunc
            if term or trunc != 0:
                S[i, ENDED] = 1
                ends[n_end] = i
                n_end += 1
                n_trunc += trunc != 0
        _encode(i, S, prank, srank, k, exp, c.reveal, c.form, c.scaled, raw, info.pieces,
                info.counters, info.out, info.out8)  # fmt: skip
    return n_end, n_trunc


@_jit
def play_one(a: int, S: Any, cards: Any, prank: Any, srank: Any, stock_of: Any, score: Any,
             mask: Any, ci: Any, cf: Any, pieces: Any, counters: Any, out: Any,
             out8: Any) -> tuple[float, int]:  # fmt: skip
    """The single env's step of action ``a``, or (``a`` < 0) its new deal ``cards[0]``.

    One game kept as one row of :func:`step_games`' arrays, played by :func:`_play`, its
    observation written into the one-row outputs; one call a step. Returns the reward and
    a code: why truncated (0, 1, 2), plus 4 if ``a`` was not played; ``(0.0, -1)``, nothing
    changed, for an action the rules forbid under ``illegal_action="raise"``.
    """
    c = _config(ci, cf)
    k = c.knobs
    i = len(S) - 1  # the row, 0: an int64, not the literal 0 (numba would compile it apart)
    ids = np.empty(64, np.int64)
    exps = np.empty(28, np.int64)
    cands = np.empty(56, np.int64)
    raw = np.empty(122, np.int64)
    reward = 0.0
    code = 0
    if a < 0:
        _deal_row(i, S, cards, prank, srank, stock_of, k)
        exp = _refresh(i, S, prank, srank, stock_of, k, c.stops_dead, mask, ids, exps, cands)[0]
        _score(i, S, score, c)
    else:
        if c.raise_illegal and (S[i, DONE] or not mask[i, a]):
            return 0.0, -1
        reward, code, exp, go = _play(i, a, S, prank, srank, stock_of, score, mask, c, ids,
                                      exps, cands)  # fmt: skip
        if not go:
            code += 4
    _encode(i, S, prank, srank, k, exp, c.reveal, c.form, c.scaled, raw, pieces, counters, out,
            out8)  # fmt: skip
    return reward, code


forget_stale_cache(_CACHED, "env-kernel", uses=(step_reward, points))
