"""The card network's statements about the rules, checked against the engine under every preset.

The network is told, besides the cards, which pyramid places can meet and which cover which
(``GEOMETRY``, in its relations), and counts built on that (``tallies``' partners that can meet
and blocked ones, ``covering_partners``). A statement that the rules contradict is an input that
misleads every network trained on it, as the tallies did under the covering-pair rule until the
thirtieth session; so each is tested here against the engine's own legal moves, preset by preset,
in the one position that decides it: both cards' other coverers gone.
"""

import numpy as np
import pytest

from pyramid_env.agents.cardnet_inputs import GEOMETRY, covering_partners, tallies
from pyramid_env.engine.deal import Deal
from pyramid_env.engine.layout import BELOW_MASK, COVERED_BY, FULL, SLOTS
from pyramid_env.engine.moves import PAIR_AT
from pyramid_env.engine.rules import PRESETS
from pyramid_env.engine.state import State, legal_ids

SIX, SEVEN = 5, 6  # cards (rank = card % 13 + 1) that pair: 6 + 7 = 13


def _pair_legal(rules: str, a: int, b: int) -> bool:
    """Whether the engine lets slots ``a`` (a 6) and ``b`` (a 7) pair once all else on them is
    gone (where one lies directly on the other, it stays)."""
    pyr = FULL & ~(BELOW_MASK[a] | BELOW_MASK[b])
    if a in COVERED_BY[b] or b in COVERED_BY[a]:
        pyr |= 1 << (a if a in COVERED_BY[b] else b)
    cards = list(range(52))
    for slot, card in ((a, SIX), (b, SEVEN)):
        other = cards.index(card)
        cards[slot], cards[other] = cards[other], cards[slot]
    s = State(Deal(tuple(cards)), rules)
    s.pyr = pyr
    move = PAIR_AT.get((min(a, b), max(a, b)))
    return move is not None and move.id in legal_ids(s)


def _place(a: int, b: int) -> str:
    """What the geometry says of two slots: "meet", "direct" (one lies on the other), "far"."""
    kind = GEOMETRY[a + 1, b + 1]
    if kind == 4:
        return "meet"
    assert kind in (2, 3), (a, b, kind)
    return "direct" if a in COVERED_BY[b] or b in COVERED_BY[a] else "far"


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_the_places_the_network_is_told_can_meet_are_those_the_rules_let_pair(rules):
    covering = PRESETS[rules].covering_pair
    seen = {"meet": 0, "direct": 0, "far": 0}
    for a in range(SLOTS):
        for b in range(SLOTS):
            if a == b:
                continue
            place = _place(a, b)
            seen[place] += 1
            if place == "far":  # a card lies between them: never both free of the rest
                assert (min(a, b), max(a, b)) not in PAIR_AT
                continue
            legal = _pair_legal(rules, a, b)
            assert legal == (place == "meet" or covering), (rules, a, b, place)
    assert seen["meet"] and seen["direct"] and seen["far"]


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_the_counts_say_meet_and_blocked_as_the_rules_do(rules):
    """A pyramid 6 and its partner 7s: tallies' "meet" are the pairs legal once all else is gone;
    its "blocked" are not, except those ``covering_partners`` counts, legal under the rule."""
    covering = PRESETS[rules].covering_pair
    rng = np.random.default_rng(1)
    for _ in range(40):
        a = int(rng.integers(SLOTS))
        sevens = rng.choice([s for s in range(SLOTS) if s != a], 2, replace=False)
        rank = np.full((1, 52), 1, np.int64)  # Aces elsewhere: no partner of a 6 or a 7
        rank[0, a], rank[0, sevens] = 6, 7
        meet, blocked = tallies(rank, np.zeros((1, 13), np.int64))[0, a, :2]
        near = covering_partners(rank)[0, a]
        legal = direct = 0
        for b in map(int, sevens):
            place = _place(a, b)
            direct += place == "direct"
            legal += place != "far" and _pair_legal(rules, a, b)
        assert near == direct
        assert legal == meet + (near if covering else 0), (rules, a, sevens)
        assert meet + blocked == 2
