"""Observation: the position as named pieces of small integers, and its other forms.

The ``Dict`` pieces (``pyramid``, ``exposed``, ``stock``, ``stock_where``, ``counters``) and
the forms built from them (flat, one-hot, counts, compact) are laid out index by index in the
docs' environment page (docs/environment.md, "Observation Space"), the one statement of the
layout. :class:`Encoder` writes them for the single env from the engine's ints; the vector
env writes the same layout in its compiled step, and tests hold the two to each other.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from pyramid_env.engine.cards import RANK
from pyramid_env.engine.layout import SHAPES, SLOTS
from pyramid_env.engine.state import STOCK_SIZE, State

PIECES: tuple[tuple[str, int, int], ...] = (
    ("pyramid", SLOTS, 13),
    ("exposed", SLOTS, 1),
    ("stock", STOCK_SIZE, 14),
    ("stock_where", STOCK_SIZE, 4),
    ("counters", 5, 255),
)
FLAT_SIZE = sum(n for _, n, _ in PIECES)
UNKNOWN = 14


def _bits28(mask: int) -> np.ndarray:
    return np.array([mask >> i & 1 for i in range(SLOTS)], np.int8)


# Per reachable pyramid shape (1,430 of them): which slots hold a card, which are exposed.
_PRESENT = {m: _bits28(m) for m in SHAPES}
_EXPOSED = {m: _bits28(sh.exposed_mask) for m, sh in SHAPES.items()}


def _bits48(mask: int) -> np.ndarray:
    """``mask``'s 48 low bits as an int8 array, bit 0 first (two 24-bit masks in one call)."""
    raw = np.frombuffer(mask.to_bytes(6, "little"), np.uint8)
    return np.unpackbits(raw, bitorder="little").view(np.int8)


def dict_space() -> spaces.Dict:
    """The ``Dict`` observation space (int8 pieces, int16 counters)."""
    return spaces.Dict(
        {
            name: spaces.Box(0, high, (n,), np.int16 if name == "counters" else np.int8)
            for name, n, high in PIECES
        }
    )


def flat_space(dtype: Any = np.float32) -> spaces.Box:
    """The flat ``Box`` form: the pieces concatenated, as float32 (or uint8: all fit)."""
    high = np.concatenate([np.full(n, h, dtype) for _, n, h in PIECES])
    return spaces.Box(np.zeros(FLAT_SIZE, dtype), high, dtype=dtype)


def unseen_ranks(srank: np.ndarray, unseen: np.ndarray) -> np.ndarray:
    """Cards of each rank (1..13) among the ``unseen`` places: ``(..., 24)`` -> ``(..., 13)``.

    ``srank`` holds the stock cycle's ranks, ``unseen`` 1 where a live stock card has never been
    face up. The count is what a player works out from the cards seen; the order stays hidden.
    """
    hot = np.eye(14, dtype=np.int8)[srank] * unseen[..., None].astype(np.int8)
    return hot.sum(axis=-2, dtype=np.int8)[..., 1:]


def rank_maps(n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` random relabellings of the ranks that keep the game: ``(n, 15)`` tables.

    Cards pair when their ranks sum to 13, and Kings go alone; nothing else in the rules
    looks at a rank. So sending the six pairs of ranks (1, 12), (2, 11) .. (6, 7) to the six
    pairs in any order, either way round, maps every position to one that plays the same
    (46,080 ways); 0 (no card), 13 (King) and 14 (unseen) stay. Index ``m[r]`` is ``r``'s new rank.
    """
    maps = np.tile(np.arange(15), (n, 1))
    pairs = np.argsort(rng.random((n, 6)), axis=1) + 1  # pair r -> pair pairs[r - 1]
    flip = rng.random((n, 6)) < 0.5
    low = np.where(flip, 13 - pairs, pairs)  # where rank r (1..6) goes
    maps[:, 1:7] = low
    maps[:, 12:6:-1] = 13 - low  # rank 13 - r goes to the partner of r's image
    return maps


class Encoder:
    """Turns positions of one deal into observations; holds the deal's rank tables.

    The single env's encoder, from the engine's ints and per-shape tables: the same
    observation as a row of the vector env's compiled encoder.
    """

    def __init__(self, s: State, reveal_stock: bool) -> None:
        """Tables for the deal of ``s``; ``reveal_stock`` shows the whole stock order."""
        self.reveal = reveal_stock
        self.prank = np.array([RANK[c] for c in s.deal.pyramid], np.int8)
        self.srank = np.array([RANK[c] for c in s.deal.stock], np.int8)

    def encode(self, s: State, seen: int, with_unseen: bool = False) -> dict[str, np.ndarray]:
        """The observation of ``s``; ``seen`` is the mask of cycle cards ever turned face up.

        ``with_unseen`` adds the piece ``"unseen"`` (:func:`unseen_ranks`), for the counts form.
        """
        bits = _bits48(s.left | (s.left if self.reveal else seen & s.left) << 24)
        live, known = bits[:24], bits[24:]
        stock = np.where(known, self.srank, live * np.int8(UNKNOWN))
        where = live.copy()  # 1: in the stock, face down
        where[: s.ptr] *= 2  # 2: on the waste
        w, d = s.tops()
        if w >= 0:
            where[w] = 3
        if d >= 0:
            where[d] = 4
        left = s.recycles_left
        counters = np.array(
            [
                min(s.recycles + 1, 255),
                255 if left is None else left,
                s.stock_size,
                s.waste_size,
                s.pyramid_left,
            ],
            np.int16,
        )
        obs = {
            "pyramid": _PRESENT[s.pyr] * self.prank,
            "exposed": _EXPOSED[s.pyr].copy(),
            "stock": stock,
            "stock_where": where,
            "counters": counters,
        }
        if with_unseen:
            obs["unseen"] = unseen_ranks(self.srank, live - known)
        return obs


def flatten(obs: dict[str, np.ndarray], dtype: Any = np.float32) -> np.ndarray:
    """The flat form of a ``Dict`` observation, or of a batch of them (leading axes kept)."""
    return np.concatenate([obs[name] for name, _, _ in PIECES], axis=-1).astype(dtype)


# The one-hot form: every categorical piece as one-hot rows, the counters scaled to [0, 1].
_ONEHOT = (("pyramid", 14), ("exposed", 1), ("stock", 15), ("stock_where", 5))
_COUNTER_SCALE = np.array([255, 255, STOCK_SIZE, STOCK_SIZE, SLOTS], np.float32)
ONEHOT_SIZE = SLOTS * 14 + SLOTS + STOCK_SIZE * 15 + STOCK_SIZE * 5 + 5


def onehot_space(dtype: Any = np.float32) -> spaces.Box:
    """The one-hot ``Box`` form (``obs_mode="onehot"``): 905 float32 numbers in [0, 1].

    With ``dtype=np.uint8`` the one-hot rows are 0 or 1 and the counters come as they are
    (0..255, 0..24, 0..28: a network divides them itself), a quarter of the bytes.
    """
    if dtype == np.float32:
        return spaces.Box(0.0, 1.0, (ONEHOT_SIZE,), np.float32)
    high = np.ones(ONEHOT_SIZE, np.uint8)
    high[-5:] = _COUNTER_SCALE
    return spaces.Box(np.zeros(ONEHOT_SIZE, np.uint8), high, dtype=np.uint8)


def onehot(obs: dict[str, np.ndarray], dtype: Any = np.float32) -> np.ndarray:
    """The one-hot form of a ``Dict`` observation, or of a batch of them (leading axes kept).

    Ranks and places are categories, not quantities (a 7 is not "more" than a 6 for pairing),
    so a network learns faster from one-hot rows than from the raw numbers of the flat form.
    Layout: pyramid 28 x 14 (rank 0..13), exposed 28, stock 24 x 15 (0..14), stock_where
    24 x 5 (0..4), counters 5 divided by (255, 255, 24, 24, 28) (not divided in uint8).
    """
    parts = []
    for name, k in _ONEHOT:
        x = obs[name]
        if k == 1:
            parts.append(x.astype(dtype))
        else:
            hot = np.eye(k, dtype=dtype)[x]
            parts.append(hot.reshape(*x.shape[:-1], x.shape[-1] * k))
    if dtype == np.float32:
        parts.append(obs["counters"].astype(np.float32) / _COUNTER_SCALE)
    else:  # uint8: the counters as they are (all within 0..255)
        parts.append(obs["counters"].astype(dtype))
    return np.concatenate(parts, axis=-1)


# The counts form: the one-hot form, the unseen ranks (/4) and the recycles left, one-hot.
PASSES_LEFT = 4  # recycles left: none, one, two, three or more (or unlimited)
COUNTS_SIZE = ONEHOT_SIZE + 13 + PASSES_LEFT


def counts_space(dtype: Any = np.float32) -> spaces.Box:
    """The counts ``Box`` form (``obs_mode="counts"``), 922 float32 numbers in [0, 1].

    With ``dtype=np.uint8``: the one-hot form's uint8 layout, the unseen counts as they are
    (0..4), the recycles left one-hot.
    """
    if dtype == np.float32:
        return spaces.Box(0.0, 1.0, (COUNTS_SIZE,), np.float32)
    high = np.ones(COUNTS_SIZE, np.uint8)
    high[ONEHOT_SIZE - 5 : ONEHOT_SIZE] = _COUNTER_SCALE
    high[ONEHOT_SIZE : ONEHOT_SIZE + 13] = 4
    return spaces.Box(np.zeros(COUNTS_SIZE, np.uint8), high, dtype=np.uint8)


def counts(obs: dict[str, np.ndarray], dtype: Any = np.float32) -> np.ndarray:
    """The counts form of a ``Dict`` observation holding ``"unseen"`` (or of a batch of them).

    The one-hot form, then the unseen cards of each rank divided by 4, then the recycles left
    one-hot: what a determinized search reads from a position (which cards may still come,
    and how many more times the stock can be gone through), given to a network directly
    rather than left for it to work out from the pyramid and the seen stock.
    """
    recycles_left = obs["counters"][..., 1].astype(np.int64)  # 255: unlimited
    passes = np.eye(PASSES_LEFT, dtype=dtype)[np.minimum(recycles_left, PASSES_LEFT - 1)]
    unseen = obs["unseen"].astype(dtype)
    if dtype == np.float32:
        unseen /= 4
    return np.concatenate([onehot(obs, dtype), unseen, passes], axis=-1)


# The compact form: one row of small integers per card place, and a row of counters.
COMPACT_SHAPE = (53, 5)
COMPACT_WHERE = ("gone", "stock", "waste", "waste top", "second stock card", "covered", "exposed")


def compact_space() -> spaces.Box:
    """The compact ``Box`` form (``obs_mode="compact"``): (53, 5) uint8, see :func:`compact`."""
    high = np.zeros(COMPACT_SHAPE, np.uint8)
    high[:52] = (14, 51, len(COMPACT_WHERE) - 1, 1, 1)
    high[52] = (255, 255, 24, 24, 28)
    return spaces.Box(np.zeros(COMPACT_SHAPE, np.uint8), high, dtype=np.uint8)


def compact(obs: dict[str, np.ndarray]) -> np.ndarray:
    """The compact form of a ``Dict`` observation, or of a batch of them: (..., 53, 5) uint8.

    One row per card place, for a network to embed cards as tokens: rows 0-27 the pyramid
    slots, 28-51 the stock cycle places, each ``(rank, place, where, playable, seen)`` with
    ``where`` an index into :data:`COMPACT_WHERE`; row 52 the five counters, as in the dict
    form. The columns' values: docs/environment.md ("compact").
    """
    lead = obs["pyramid"].shape[:-1]
    out = np.zeros((*lead, *COMPACT_SHAPE), np.uint8)
    pyramid, exposed = obs["pyramid"], obs["exposed"]
    stock, where = obs["stock"], obs["stock_where"]
    out[..., :28, 0] = pyramid
    out[..., 28:52, 0] = stock
    out[..., :52, 1] = np.arange(52)
    out[..., :28, 2] = np.where(pyramid != 0, 5 + exposed, 0)
    out[..., 28:52, 2] = where
    out[..., :28, 3] = exposed
    out[..., 28:52, 3] = where >= 3
    out[..., :28, 4] = pyramid != 0
    out[..., 28:52, 4] = (stock != 0) & (stock != UNKNOWN)
    out[..., 52, :] = obs["counters"]
    return out
