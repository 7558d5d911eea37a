"""Deal specs (numbers, codes, card text, card lists, numpy values): each gives exactly the deal it
names, or a ``CardError`` saying what is wrong. The ``slow``-marked twins run the properties
with many more examples (``pytest -m slow``).
"""

import re

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from pyramid_env.engine import (
    CardError,
    Deal,
    Game,
    PyramidError,
    deal,
    to_deal,
)
from pyramid_env.engine.cards import CARD_NAMES, parse_card
from pyramid_env.engine.deal import MAX_DEAL, decode_code, shuffled_deck
from tests.conftest import refused
from tests.engine.input_strategies import BAD_TOKENS, FAST, SLOW


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", r"deal '' is empty text: give a deal number"),
        ("   ", r"deal '   ' is empty text"),
        (True, r"deal True \(bool\) is not a deal number"),
        (7.0, r"deal 7\.0 \(float\) is not"),
        (np.float64(7), r"\(float64\) is not"),
        (None, r"deal None \(NoneType\) is not"),
        (b"7", r"\(bytes\) is not"),
        (set(range(52)), r"\(set\) is not"),
        ({0: 1}, r"\(dict\) is not"),
        (-1, r"deal number -1 is out of range: deal numbers are 0\.\.2\*\*64-1"),
        (2**64, r"deal number 18446744073709551616 is out of range"),
        ("-1", r"deal number -1 is out of range"),
        ("hello", r"deal 'hello' is not a deal number"),
        ([0] * 52, r"Ac appears twice \(cards 1 and 2\)"),
        ([*range(51), 52], r"card 52 is 52 \(int\): cards are integers 0\.\.51"),
        ([True, *range(1, 52)], r"card 1 is True \(bool\)"),
        (list(range(51)), r"got 51; missing: Ks"),
        (["Kd"] * 52, r"card 1 is 'Kd' \(str\)"),
    ],
)
def test_bad_deal_specs_are_refused_naming_the_problem(spec, message):
    refused(to_deal, spec, error=CardError, match=message)
    refused(Game, spec, error=CardError, match=message)


def test_numpy_deal_numbers_and_cards():
    assert to_deal(np.int64(7)) == deal(7) and to_deal(np.int64(7)).number == 7
    assert type(to_deal(np.uint64(MAX_DEAL)).number) is int
    cards = to_deal(np.array(deal(3).cards))
    assert cards == deal(3) and all(type(c) is int for c in cards.cards)
    assert Game(np.int64(7)).deal.number == 7


def test_a_deal_number_must_name_its_cards():
    refused(Deal, deal(3).cards, 4, error=CardError, match="deal number 4 does not match the cards")
    refused(Deal, deal(3).cards, True, error=CardError, match=r"deal number True \(bool\)")
    assert Deal(deal(3).cards, np.int64(3)).number == 3


@st.composite
def card_lists(draw):
    cards = list(draw(st.permutations(range(52))))
    kind = draw(st.sampled_from(["none", "dup", "drop", "out", "bool", "numpy", "str", "extra"]))
    i = draw(st.integers(0, 51))
    if kind == "dup":
        cards[i] = cards[(i + 1) % 52]
    elif kind == "drop":
        del cards[i]
    elif kind == "out":
        cards[i] = draw(st.sampled_from([52, -1, 100, 2**70]))
    elif kind == "bool":
        cards[cards.index(1)] = True
    elif kind == "numpy":
        cards = [np.int64(c) for c in cards]
    elif kind == "str":
        cards[i] = CARD_NAMES[cards[i]]
    elif kind == "extra":
        cards.append(cards[0])
    return draw(st.sampled_from([list, tuple, np.array]))(cards) if kind != "str" else cards


@st.composite
def card_texts(draw):
    tokens = [CARD_NAMES[c] for c in draw(st.permutations(range(52)))]
    kind = draw(st.sampled_from(["none", "dup", "drop", "bad", "lower", "tens", "commas"]))
    i = draw(st.integers(0, 51))
    if kind == "dup":
        tokens[i] = tokens[(i + 1) % 52]
    elif kind == "drop":
        del tokens[i]
    elif kind == "bad":
        tokens[i] = draw(st.sampled_from(BAD_TOKENS))
    elif kind == "lower":
        tokens = [t.lower() for t in tokens]
    elif kind == "tens":
        tokens = [t.replace("T", "10") for t in tokens]
    return (", " if kind == "commas" else " ").join(tokens)


@st.composite
def codes(draw):
    code = deal(draw(st.integers(0, MAX_DEAL))).code
    i = draw(st.integers(0, len(code)))
    ch = draw(st.sampled_from("0aZ!-P "))
    return draw(st.sampled_from([code, code[:i] + ch + code[i + 1 :], code[:i], " " + code + "\n"]))


deal_specs = st.one_of(
    st.integers(-(2**65), 2**65),
    st.sampled_from([0, 1, MAX_DEAL, MAX_DEAL + 1, -1]),
    st.integers(0, 2**63 - 1).map(np.int64),
    st.integers(0, MAX_DEAL).map(np.uint64),
    st.booleans(),
    st.floats(allow_nan=True),
    st.none(),
    st.binary(max_size=8),
    st.text(max_size=12),
    st.from_regex(r"\s*[+-]?[0-9]{1,22}\s*", fullmatch=True),
    codes(),
    card_texts(),
    card_lists(),
    st.sets(st.integers(0, 51), max_size=5),
    st.dictionaries(st.integers(0, 51), st.integers(0, 51), max_size=3),
)


def _check_deal(spec):
    try:
        d = to_deal(spec)
    except PyramidError as err:
        assert str(err)
        event(f"deal refused: {type(spec).__name__}")
        return
    event(f"deal: {type(spec).__name__}")
    assert isinstance(d, Deal) and len(d.cards) == 52 and sorted(d.cards) == list(range(52))
    assert all(type(c) is int for c in d.cards)
    assert d.number is None or (type(d.number) is int and d.cards == shuffled_deck(d.number))
    # The deal is the one the spec names, not another.
    if isinstance(spec, (int, np.integer)) and not isinstance(spec, bool):
        assert d.number == int(spec)
    elif isinstance(spec, str) and spec.strip().startswith(("P1-", "P2-")):
        assert d.cards == decode_code(spec.strip())  # a version-1 code reads as its deal
        assert decode_code(d.code) == d.cards
    elif isinstance(spec, str) and re.fullmatch(r"[+-]?[0-9]+", spec.strip()):
        assert d.number == int(spec.strip())
    elif isinstance(spec, str):
        assert d.cards == tuple(parse_card(t) for t in spec.replace(",", " ").split())
    else:
        assert isinstance(spec, (list, tuple, np.ndarray))
        assert d.cards == tuple(int(c) for c in spec)
    assert to_deal(d.code) == d and to_deal(d.text) == d


@FAST
@given(deal_specs)
def test_any_deal_spec_gives_that_deal_or_a_card_error(spec):
    _check_deal(spec)


@pytest.mark.slow
@SLOW
@given(deal_specs)
def test_any_deal_spec_slow(spec):
    _check_deal(spec)
