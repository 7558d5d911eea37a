"""What the card network is told besides the cards: the relations, the order, the counts.

Each is a fact a player can read off the cards seen, computed here in numpy and given to the
network (:mod:`pyramid_env.agents.cardnet`, its torch twin
:mod:`pyramid_env.agents.cardnet_torch`) rather than left for attention, which averages, to
estimate: which cards pair and which cover which (:func:`relations`), where each stock card
stands in the cycle (:func:`cycle_order`), each card's partners and rivals (:func:`tallies`)
and its partners lying directly on it or under it (:func:`covering_partners`).
"""

from __future__ import annotations

import numpy as np

from pyramid_env.engine.layout import BELOW_MASK, COVERED_BY, SLOTS

TOKENS = 28 + 24


def _geometry() -> np.ndarray:
    """How each token stands to each other one, by place alone: ``(53, 53)`` ints 0..8.

    0 the counters' token, 1 itself, 2 a slot that covers the other (must go first), 3 a slot
    the other covers, 4 two slots that can meet, 5 slot to stock place, 6 stock place to slot,
    7 a stock place before the other in the cycle, 8 one after it. Under the covering-pair
    rule a slot lying directly on another can meet it too (:func:`covering_partners`);
    ``tests/agents/test_cardnet_rules.py`` checks each kind against the engine, preset by preset.
    """
    geo = np.zeros((TOKENS + 1, TOKENS + 1), np.int64)
    for i in range(TOKENS):
        for j in range(TOKENS):
            if i == j:
                kind = 1
            elif i < 28 and j < 28:
                kind = 2 if BELOW_MASK[j] >> i & 1 else 3 if BELOW_MASK[i] >> j & 1 else 4
            elif i < 28 or j < 28:
                kind = 5 if i < 28 else 6
            else:
                kind = 7 if i < j else 8
            geo[i + 1, j + 1] = kind
    return geo


GEOMETRY = _geometry()
RELATIONS = 9 * 4  # place relations x rank relations (same, sum 13, other, not both known)


def relations(rank: np.ndarray) -> np.ndarray:
    """Every token pair's relation id ``(B, 53, 53)`` from the cards' ranks ``(B, 52)``.

    The pairing rule and the cover relation, the two facts every move rests on, given to the
    attention as one learned bias per relation and head (as Graphormer gives a graph's edges)
    rather than left for it to find from the places' embeddings.
    """
    r = np.concatenate([np.zeros((len(rank), 1), rank.dtype), rank], 1)
    known = (r >= 1) & (r <= 13)
    a, b = r[:, :, None], r[:, None, :]
    kind = np.where(a == b, 0, np.where(a + b == 13, 1, 2))
    kind = np.where(known[:, :, None] & known[:, None, :], kind, 3)
    return GEOMETRY[None] * 4 + kind


ORDERS = 1 + 24 + 24  # cycle_order's values: none, 24 places in the stock, 24 in the waste


def cycle_order(where: np.ndarray) -> np.ndarray:
    """Where each stock place's card stands in the cycle's order ``(B, 24)``, from its state.

    0 for a card gone; ``1 + k`` for a card in the stock with ``k`` stock cards before it (the
    draws until it turns up); ``25 + k`` for a waste card with ``k`` waste cards on it (the
    removals until it plays). The places' own embeddings say where a card was dealt; which
    card each draw brings up next depends on which cards around it are gone, a count that
    self-attention, which averages, can only estimate. Here it is counted and given, as a
    sequence model is given positions.
    """
    stock = (where == 1) | (where == 4)
    waste = (where == 2) | (where == 3)
    ahead = np.cumsum(stock, 1) - stock
    below = np.cumsum(waste[:, ::-1], 1)[:, ::-1] - waste
    return np.where(stock, 1 + ahead, np.where(waste, 25 + below, 0)).astype(np.int64)


TALLIES = 6  # tallies' counts a card: partners that can meet it, blocked, stock, unseen; twins
TALLY_CAP = 4  # a count above this reads as this (four cards of a rank)
# Token pairs of slots where one must go before the other (GEOMETRY's kinds 2 and 3).
_COVER = np.isin(GEOMETRY[1:, 1:], (2, 3))
_SLOT = np.arange(TOKENS) < 28


def _known_pairs(rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Token pairs ``(B, 52, 52)`` whose two cards are known, and those of them that pair."""
    known = (rank >= 1) & (rank <= 13)
    both = known[:, :, None] & known[:, None, :]
    return both, both & (rank[:, :, None] + rank[:, None, :] == 13)


def tallies(rank: np.ndarray, unseen: np.ndarray) -> np.ndarray:
    """Each card's counts of the cards that bear on it: ``(B, 52, 6)`` ints 0..4.

    From the tokens' ranks ``(B, 52)`` (0 no card, 14 unseen) and the unseen cards per rank
    ``(B, 13)``. For a known card of rank ``r``: its partners (rank ``13 - r``) in the pyramid
    that can meet it, those that cannot (one covers the other), those among the stock cards
    seen, those unseen; the other cards of its rank in the pyramid and in the stock (rivals for
    the same partners). Whether a pair leaves a card without a partner is a matter of such
    counts, and attention, which averages, can only estimate a count, so it is given, as
    :func:`cycle_order` gives the order. Each is a count a player can make from the cards seen.
    """
    rank = np.asarray(rank, np.int64)
    known = (rank >= 1) & (rank <= 13)
    both, partner = _known_pairs(rank)
    twin = both & (rank[:, :, None] == rank[:, None, :]) & ~np.eye(TOKENS, dtype=bool)
    meet = partner & _SLOT[None, None] & ~_COVER[None]
    blocked = partner & _SLOT[None, None] & _COVER[None]
    need = np.where(known & (rank < 13), 13 - rank, 0)  # the partner's rank; 0 for none
    per_rank = np.concatenate([np.zeros((len(rank), 1), np.int64), np.asarray(unseen, np.int64)], 1)
    unseen_partner = np.take_along_axis(per_rank, need, 1)
    counts = np.stack(
        [
            meet.sum(-1),
            blocked.sum(-1),
            (partner & ~_SLOT[None, None]).sum(-1),
            unseen_partner,
            (twin & _SLOT[None, None]).sum(-1),
            (twin & ~_SLOT[None, None]).sum(-1),
        ],
        -1,
    )
    return np.minimum(counts, TALLY_CAP) * (need > 0)[..., None]  # Kings go alone: none


def tally_index(rank: np.ndarray, unseen: np.ndarray) -> np.ndarray:
    """:func:`tallies` as rows of one embedding table ``(B, 52, 6)``.

    Count ``c`` of kind ``k`` is row ``k * 5 + c``, so a network adds one learned vector for
    each of a card's counts.
    """
    return tallies(rank, unseen) + np.arange(TALLIES) * (TALLY_CAP + 1)


# Slot pairs where one lies directly on the other: under the covering-pair rule (``relaxed``,
# ``one-pass``) such a pair can meet once the other card on the lower one is gone.
_DIRECT = np.zeros((TOKENS, TOKENS), bool)
for _s in range(SLOTS):
    for _t in COVERED_BY[_s]:
        _DIRECT[_s, _t] = _DIRECT[_t, _s] = True


def covering_partners(rank: np.ndarray) -> np.ndarray:
    """Each pyramid card's partners lying directly on it or directly under it: ``(B, 52)`` 0..4.

    From the tokens' ranks ``(B, 52)`` (0 no card, 14 unseen). :func:`tallies` counts such a
    partner as blocked (one covers the other), which is so where a card may not pair with its
    coverer; under the covering-pair rule the two can meet once the lower card's other
    coverer is gone, and whether a pair leaves a card a partner turns on it.
    """
    partner = _known_pairs(np.asarray(rank, np.int64))[1]
    return np.minimum((partner & _DIRECT[None]).sum(-1), TALLY_CAP)
