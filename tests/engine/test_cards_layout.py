import pytest

from pyramid_env.engine.cards import (
    CARD_NAMES,
    CardError,
    format_card,
    is_king,
    pairs_with,
    parse_card,
    rank,
)
from pyramid_env.engine.layout import (
    BELOW_MASK,
    COVER_MASK,
    COVERED_BY,
    FULL,
    ROW_COL,
    SHAPES,
    SLOTS,
    UNCOVERS,
    exposed_slots,
    slot,
)
from tests.conftest import refused


def test_pairs_with_all_52x52():
    values = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13} | {str(v): v for v in range(2, 10)}
    for a in range(52):
        for b in range(52):
            va, vb = values[CARD_NAMES[a][0]], values[CARD_NAMES[b][0]]
            assert pairs_with(a, b) == (va + vb == 13), (CARD_NAMES[a], CARD_NAMES[b])
    assert sum(is_king(c) for c in range(52)) == 4


def test_card_text_round_trip_and_aliases():
    assert [parse_card(format_card(c)) for c in range(52)] == list(range(52))
    assert parse_card("kd") == parse_card("KD") == parse_card("Kd")
    assert parse_card("10h") == parse_card("Th")
    assert rank(parse_card("Qs")) == 12 and rank(parse_card("Ac")) == 1


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("Xd", "rank 'X'"),
        ("Kx", "suit 'x'"),
        ("K", "a rank and a suit"),
        ("Kdd", "a rank and a suit"),
    ],
)
def test_bad_card_names_what_is_wrong(token, message):
    refused(parse_card, token, error=CardError, match=message)


def test_geometry_every_slot():
    assert len(ROW_COL) == SLOTS == 28
    for s, (r, c) in enumerate(ROW_COL):
        assert slot(r, c) == s
        expected = () if r == 6 else (slot(r + 1, c), slot(r + 1, c + 1))
        assert COVERED_BY[s] == expected
        for t in COVERED_BY[s]:
            assert s in UNCOVERS[t]
    assert exposed_slots(FULL) == tuple(range(21, 28))
    assert BELOW_MASK[0] == FULL ^ 1  # everything else lies over the apex
    assert all(BELOW_MASK[s] == 0 for s in range(21, 28))


def test_shapes_are_the_catalan_number_and_closed():
    assert len(SHAPES) == 1430  # Catalan(8): the order ideals of the pyramid
    for mask, shape in SHAPES.items():
        for s in range(SLOTS):
            if mask >> s & 1:  # a present card keeps everything it covers present
                assert all(mask >> t & 1 for t in UNCOVERS[s])
        assert shape.exposed == exposed_slots(mask)
        for covered, coverer in shape.covering:
            assert mask & COVER_MASK[covered] == 1 << coverer
            assert coverer in shape.exposed
