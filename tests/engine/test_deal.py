import random

import pytest

from pyramid_env.engine import Deal, deal, to_deal
from pyramid_env.engine.cards import CardError
from pyramid_env.engine.deal import SplitMix64, decode_code, encode_code, parse_cards
from tests.conftest import refused


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
        # The pinned codes are of version 1 ("P1-"): they still decode to the same deal.
        assert code.startswith("P1-") and decode_code(code) == d.cards
        assert to_deal(code) == d and to_deal(text) == d
        assert decode_code(d.code) == d.cards and d.code.startswith("P2-")


def test_version_2_codes_are_pinned():
    # Written by this version; deal #1's code is in the README.
    assert deal(1).code == "P2-EH86pdNhPy5PFvMK8y9L3PraWP8XrxiLS8HPEY9T"
    assert deal(0).code == "P2-YnU58uZBEG2NuriaxeZQ7dyHax1em078anVu6q61"


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
        assert len(code) == 43 and decode_code(code) == cards
    assert decode_code(encode_code(tuple(range(52)))) == tuple(range(52))
    assert decode_code(encode_code(tuple(reversed(range(52))))) == tuple(reversed(range(52)))


ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def test_code_errors_catch_typos():
    code = deal(3).code
    refused(decode_code, "X" + code[1:], error=CardError, match="must start with 'P2-'")
    refused(decode_code, code[:-2], error=CardError, match="expected 40")
    refused(decode_code, code[:10] + "!" + code[11:], error=CardError, match="character '!'")


def _typos(code: str):
    """Every single-character substitution and every swap of neighbours of ``code``."""
    for i in range(len(code)):
        for ch in ALPHABET + "-":
            if ch != code[i]:
                yield code[:i] + ch + code[i + 1 :]
        if i + 1 < len(code) and code[i] != code[i + 1]:
            yield code[:i] + code[i + 1] + code[i] + code[i + 2 :]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 123456789, 2**64 - 1])
def test_every_single_typo_of_a_code_is_caught(n):
    # Each of the ~2,700 substitutions (0 <-> z among them, which version 1 missed) and swaps,
    # the prefix's "2" too: no typo decodes to a deal, old format or new.
    code = deal(n).code
    for typo in _typos(code):
        refused(decode_code, typo, error=CardError)


def test_every_typo_is_caught_on_random_codes():
    rng = random.Random(29)
    for _ in range(40):
        code = encode_code(tuple(rng.sample(range(52), 52)))
        for typo in rng.sample(list(_typos(code)), 300):
            refused(decode_code, typo, error=CardError)


def test_the_check_catches_zero_for_z():
    # Version 1's check, modulo 61, took "0" for "z": 30 of 57,096 typos decoded to another deal.
    for n in range(60):
        code = deal(n).code
        for i, ch in enumerate(code[3:], start=3):
            if ch in "0z":
                refused(
                    decode_code,
                    code[:i] + ("z" if ch == "0" else "0") + code[i + 1 :],
                    error=CardError,
                    match="check",
                )


def test_verhoeff_permutation_is_anti_symmetric():
    # What makes every swap of neighbours change the check: a * s(b) != b * s(a) for a != b.
    from pyramid_env.engine.deal import _SIGMA_POWERS, _VERHOEFF

    sigma = _SIGMA_POWERS[1]
    for a in range(62):
        for b in range(a + 1, 62):
            assert _VERHOEFF[a][sigma[b]] != _VERHOEFF[b][sigma[a]]
    # D31 is a group with unit 0: every row and column is a permutation.
    assert all(sorted(row) == list(range(62)) for row in _VERHOEFF)
    assert all(sorted(col) == list(range(62)) for col in zip(*_VERHOEFF, strict=True))


def test_version_1_codes_still_decode():
    for n in (0, 7, 2**64 - 1):
        cards = deal(n).cards
        body = deal(n).code[3:41]
        total = sum((i + 1) * ALPHABET.index(ch) for i, ch in enumerate(body)) % 61
        assert decode_code("P1-" + body + ALPHABET[total]) == cards


def test_card_text_errors_name_the_problem():
    text = deal(0).text.split()
    refused(
        parse_cards,
        " ".join(text[:3] + ["Zz"] + text[4:]),
        error=CardError,
        match="card 4: bad card 'Zz'",
    )
    refused(
        parse_cards,
        " ".join(text[:-1] + [text[0]]),
        error=CardError,
        match=f"{text[0]} appears twice \\(cards 1 and 52\\)",
    )
    refused(parse_cards, " ".join(text[:-1]), error=CardError, match=f"got 51; missing: {text[-1]}")
    refused(parse_cards, " ".join(text + [text[0]]), error=CardError, match="got 53")


def test_deal_is_independent_of_rules_and_splits_28_24():
    d = deal(9)
    assert len(d.pyramid) == 28 and len(d.stock) == 24
    assert d.pyramid + d.stock == d.cards
    assert to_deal(d) is d and to_deal(list(d.cards)) == d and to_deal("9") == d
    refused(Deal, (0,) * 52, error=CardError)


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
    refused(s.restocked, s.deal.pyramid[:24], error=CardError, match="24 stock cards")
