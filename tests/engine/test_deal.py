import random

import pytest

from pyramid_env.engine import Deal, deal, to_deal
from pyramid_env.engine.cards import CardError
from pyramid_env.engine.deal import SplitMix64, decode_code, encode_code, parse_cards


def test_splitmix64_reference_outputs():
    # The published reference sequence for seed 1234567 (Rosetta Code, "Splitmix64").
    rng = SplitMix64(1234567)
    assert [rng.next_u64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_pinned_deals_never_change(fixtures_dir):
    lines = (fixtures_dir / "deals.txt").read_text().splitlines()
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    assert len(rows) == 13
    for number, code, text in rows:
        d = deal(int(number))
        assert d.text == text, f"deal {number} changed"
        assert d.code == code
        assert to_deal(code) == d and to_deal(text) == d


def test_deal_numbers_and_errors():
    assert deal(5) == deal(5) and deal(5) != deal(6)
    assert deal(5).number == 5 and deal(5).label() == "deal #5"
    for bad in (-1, 2**64, 1.5, True):
        with pytest.raises(ValueError, match="deal number"):
            deal(bad)


def test_codes_round_trip_random_permutations():
    rng = random.Random(7)
    for _ in range(500):
        cards = tuple(rng.sample(range(52), 52))
        code = encode_code(cards)
        assert len(code) == 42 and decode_code(code) == cards
    assert decode_code(encode_code(tuple(range(52)))) == tuple(range(52))
    assert decode_code(encode_code(tuple(reversed(range(52))))) == tuple(reversed(range(52)))


def test_code_errors_catch_typos():
    code = deal(3).code
    with pytest.raises(CardError, match="must start with 'P1-'"):
        decode_code("X" + code[1:])
    with pytest.raises(CardError, match="expected 39"):
        decode_code(code[:-2])
    with pytest.raises(CardError, match="character '!'"):
        decode_code(code[:10] + "!" + code[11:])
    # Every single-character change and every swap of neighbours is caught by the check digit.
    body = code[3:]
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    for i in range(len(body) - 1):
        for ch in alphabet[:8]:
            if ch != body[i] and abs(alphabet.index(ch) - alphabet.index(body[i])) != 61:
                with pytest.raises(CardError):
                    decode_code("P1-" + body[:i] + ch + body[i + 1 :])
        if body[i] != body[i + 1]:
            with pytest.raises(CardError):
                decode_code("P1-" + body[:i] + body[i + 1] + body[i] + body[i + 2 :])


def test_card_text_errors_name_the_problem():
    text = deal(0).text.split()
    with pytest.raises(CardError, match="card 4: bad card 'Zz'"):
        parse_cards(" ".join(text[:3] + ["Zz"] + text[4:]))
    with pytest.raises(CardError, match=f"{text[0]} appears twice \\(cards 1 and 52\\)"):
        parse_cards(" ".join(text[:-1] + [text[0]]))
    with pytest.raises(CardError, match=f"got 51; missing: {text[-1]}"):
        parse_cards(" ".join(text[:-1]))
    with pytest.raises(CardError, match="got 53"):
        parse_cards(" ".join(text + [text[0]]))


def test_deal_is_independent_of_rules_and_splits_28_24():
    d = deal(9)
    assert len(d.pyramid) == 28 and len(d.stock) == 24
    assert d.pyramid + d.stock == d.cards
    assert to_deal(d) is d and to_deal(list(d.cards)) == d and to_deal("9") == d
    with pytest.raises(CardError):
        Deal((0,) * 52)


def test_shuffle_is_roughly_uniform():
    # Where card 0 (Ac) lands over 5,200 deals: a chi-square test at a generous threshold
    # (51 degrees of freedom; 99.99th percentile is about 100).
    counts = [0] * 52
    for n in range(5200):
        counts[deal(n).cards.index(0)] += 1
    chi2 = sum((c - 100) ** 2 / 100 for c in counts)
    assert chi2 < 100, chi2


def test_restocked_is_the_checked_deal_with_the_stock_reordered():
    """A determinized search's fast path: the same position over another stock order, equal in
    every way to the deal built and checked from scratch."""
    from pyramid_env.engine import MOVES, State, apply, legal_ids

    rng = random.Random(3)
    for n in range(20):
        s = State(n, "msc")
        for _ in range(rng.randrange(30)):
            if not legal_ids(s):
                break
            apply(s, MOVES[rng.choice(legal_ids(s))])
        before = s.deal
        stock = list(s.deal.stock)
        rng.shuffle(stock)
        fast = s.restocked(stock)
        assert s.deal is before and s.deal.stock != fast.deal.stock  # s is left as it was
        slow = State(Deal(s.deal.pyramid + tuple(stock)), s.rules)
        slow.pyr, slow.left, slow.ptr, slow.drawn, slow.recycles = s.fields()
        assert fast == slow and fast.deal.number is None
        assert fast._srank == slow._srank and fast._rank_pos == slow._rank_pos
        assert legal_ids(fast) == legal_ids(slow)
    with pytest.raises(CardError, match="24 stock cards"):
        s.restocked(s.deal.pyramid[:24])
