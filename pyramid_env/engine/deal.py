"""Deals: 52 cards in a fixed order, from a deal number, a deal code or text.

A deal is independent of the rules: deal ``n`` is the same cards under every preset. Cards 1-28
are the pyramid, rows top to bottom, each left to right (card 1 the apex); cards 29-52 the stock
in drawing order: the deck format of public Pyramid solvers (mchung94/pyramid-solver), so decks
are exchanged with them as text. Deal numbers use our own PRNG (SplitMix64) and Fisher-Yates
shuffle, written out here, because neither Python's ``random`` nor NumPy promises the same
stream across versions; deal ``n`` must mean the same cards forever (tests pin the first deals).
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any

from pyramid_env.engine.cards import CARD_NAMES, CardError, format_card, parse_card
from pyramid_env.engine.errors import describe, is_int, shorten

MASK64 = (1 << 64) - 1
MAX_DEAL = MASK64  # deal numbers are 64-bit seeds: 0 <= n <= 2**64 - 1


class SplitMix64:
    """SplitMix64 (Steele, Lea and Flood 2014; the seeder of Java's SplittableRandom).

    Chosen because it is 6 lines of integer arithmetic that anyone can re-implement and check
    against published outputs, and every 64-bit seed gives a well-mixed stream.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        """Start the stream at ``seed`` (taken modulo 2**64)."""
        self.state = seed & MASK64

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, without modulo bias (reject the short last bucket)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n


def shuffled_deck(seed: int) -> tuple[int, ...]:
    """Fisher-Yates over the new-deck order ``Ac..Kc Ad..Kd Ah..Kh As..Ks``.

    For ``i`` from 51 down to 1, swap position ``i`` with ``below(i + 1)``.
    """
    deck = list(range(52))
    rng = SplitMix64(seed)
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


# ---------------------------------------------------------------------------------------------
# Deal codes: the permutation's Lehmer rank (an integer below 52!) in 38 base-62 digits, then
# check characters, behind a prefix naming the format's version ("P" for pyramid-env).
#
# Version 2 (written now): "P2-", the 38 digits and two check characters, 43 characters in all.
# Each check character is Verhoeff's scheme over the dihedral group of order 62 (D31, one
# element per symbol), which catches every single wrong character and every swap of two
# neighbours; the first reads the digits in order, the second in reverse, so most double errors
# are caught too. Two check characters make a version-2 code one character longer than a
# version-1 code, so no single typo (a "2" read as "1") turns one into a valid code of the other.
# Version 1 (still read): "P1-", the digits and one check digit, a weighted sum modulo 61, which
# missed a "0" typed for a "z" and back (values 61 apart).
# ---------------------------------------------------------------------------------------------
CODE_PREFIX = "P2-"
OLD_CODE_PREFIX = "P1-"
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_DIGIT = {ch: i for i, ch in enumerate(_ALPHABET)}
_CODE_DIGITS = 38  # 62**38 > 52! > 62**37
_CHECKS = {CODE_PREFIX: 2, OLD_CODE_PREFIX: 1}  # check characters after the digits, by version
_FACT52 = math.factorial(52)
_N = 31  # D31: symbol k + 31*f is the element r**k s**f (a rotation, or a reflection if f)


def _d31(a: int, b: int) -> int:
    """The product of two elements of D31, as symbol values 0..61."""
    (f1, k1), (f2, k2) = divmod(a, _N), divmod(b, _N)
    return (k1 + k2) % _N + _N * f2 if f1 == 0 else (k1 - k2) % _N + _N * (1 - f2)


def _make_verhoeff() -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Verhoeff's tables for D31: the product, the powers of the permutation, the inverses.

    The permutation ``sigma`` (rotation r**k to r**-k, reflection r**k s to r**(k+1) s) is
    anti-symmetric, ``a * sigma(b) != b * sigma(a)`` for ``a != b`` (a test checks all pairs),
    which is what makes a swap of neighbours change the product.
    """
    table = [[_d31(a, b) for b in range(2 * _N)] for a in range(2 * _N)]
    sigma = [(-k) % _N for k in range(_N)] + [(k + 1) % _N + _N for k in range(_N)]
    powers = [list(range(2 * _N))]
    while len(powers) < 2 * _N:  # sigma's order divides 62: enough powers for any position
        powers.append([sigma[x] for x in powers[-1]])
    inverse = [next(b for b in range(2 * _N) if table[a][b] == 0) for a in range(2 * _N)]
    return table, powers, inverse


_VERHOEFF, _SIGMA_POWERS, _INVERSE = _make_verhoeff()


def _verhoeff(digits: str) -> str:
    """The check character ``c`` that makes ``c`` followed by ``digits`` multiply to the unit.

    The product is ``c * sigma(d_n) * sigma**2(d_(n-1)) * ...``, the last digit first.
    """
    product = 0
    for i, ch in enumerate(reversed(digits), start=1):
        product = _VERHOEFF[product][_SIGMA_POWERS[i % len(_SIGMA_POWERS)][_DIGIT[ch]]]
    return _ALPHABET[_INVERSE[product]]


def _check_chars(prefix: str, digits: str) -> str:
    if prefix == OLD_CODE_PREFIX:  # version 1: a weighted sum modulo the prime 61
        return _ALPHABET[sum((i + 1) * _DIGIT[ch] for i, ch in enumerate(digits)) % 61]
    return _verhoeff(digits) + _verhoeff(digits[::-1])


def encode_code(cards: Sequence[int]) -> str:
    """The deal code of 52 cards, e.g. ``'P2-...'`` (43 characters)."""
    remaining = list(range(52))
    value = 0
    for c in cards:
        i = remaining.index(c)
        value = value * len(remaining) + i
        remaining.pop(i)
    digits = []
    for _ in range(_CODE_DIGITS):
        value, d = divmod(value, 62)
        digits.append(_ALPHABET[d])
    body = "".join(reversed(digits))
    return CODE_PREFIX + body + _check_chars(CODE_PREFIX, body)


def decode_code(code: str) -> tuple[int, ...]:
    """The 52 cards of a deal code: ``'P2-...'``, or an older ``'P1-...'``.

    Raises:
        CardError: a wrong prefix or length, a bad character, or a failed check.
    """
    if not isinstance(code, str):
        raise CardError(f"deal code {describe(code)} must be text, like {CODE_PREFIX + '...'!r}")
    text = code.strip()
    shown = shorten(code)
    prefix = text[: len(CODE_PREFIX)]
    if prefix not in _CHECKS:
        raise CardError(
            f"bad deal code {shown}: it must start with {CODE_PREFIX!r} (or {OLD_CODE_PREFIX!r} "
            "for a code of version 1)"
        )
    body = text[len(prefix) :]
    want = _CODE_DIGITS + _CHECKS[prefix]
    if len(body) != want:
        raise CardError(
            f"bad deal code {shown}: {len(body)} characters after {prefix!r}, expected {want}"
        )
    for i, ch in enumerate(body):
        if ch not in _DIGIT:
            raise CardError(
                f"bad deal code {shown}: character {ch!r} at position "
                f"{len(prefix) + i + 1} is not a letter or digit"
            )
    digits, check = body[:_CODE_DIGITS], body[_CODE_DIGITS:]
    if _check_chars(prefix, digits) != check:
        raise CardError(f"bad deal code {shown}: the check does not match (a typo?)")
    value = 0
    for ch in digits:
        value = value * 62 + _DIGIT[ch]
    if value >= _FACT52:
        raise CardError(f"bad deal code {shown}: the value is out of range")
    lehmer = []
    for base in range(1, 53):  # peel the mixed-radix digits off from the last (radix 1) up
        value, d = divmod(value, base)
        lehmer.append(d)
    remaining = list(range(52))
    return tuple(remaining.pop(i) for i in reversed(lehmer))


# ---------------------------------------------------------------------------------------------
# Deals as text and as values.
# ---------------------------------------------------------------------------------------------
def check_cards(cards: Iterable[Any]) -> tuple[int, ...]:
    """Validate a full deck: 52 distinct cards in ``0..51`` (numpy integers become ints).

    Raises:
        CardError: naming the first bad entry (with its type) and its position, a duplicate, or
            the missing cards.
    """
    try:
        given = tuple(cards)
    except TypeError:
        raise CardError(f"cards={describe(cards)} must be 52 card numbers 0..51") from None
    for pos, c in enumerate(given, start=1):
        if not (is_int(c) and 0 <= c < 52):
            raise CardError(f"card {pos} is {describe(c)}: cards are integers 0..51")
    cards = tuple(map(operator.index, given))
    if len(cards) > 52:
        raise CardError(f"a deal has 52 cards, got {len(cards)}")
    seen: dict[int, int] = {}
    for pos, c in enumerate(cards, start=1):
        if c in seen:
            raise CardError(f"{format_card(c)} appears twice (cards {seen[c]} and {pos})")
        seen[c] = pos
    if len(cards) != 52:
        missing = " ".join(CARD_NAMES[c] for c in range(52) if c not in seen)
        raise CardError(f"a deal has 52 cards, got {len(cards)}; missing: {missing}")
    return cards


def parse_cards(text: str) -> tuple[int, ...]:
    """Parse 52 cards separated by white space (or commas).

    Raises:
        CardError: naming the bad token and its position, a duplicate, or the missing cards.
    """
    if not isinstance(text, str):
        raise CardError(f"cards {describe(text)} must be text, like 'Jd 6c 7h ...'")
    tokens = text.replace(",", " ").split()
    cards = []
    for pos, token in enumerate(tokens, start=1):
        try:
            cards.append(parse_card(token))
        except CardError as err:
            raise CardError(f"card {pos}: {err}") from None
    return check_cards(cards)


@dataclass(frozen=True, slots=True)
class Deal:
    """52 cards in deal order. Equality looks at the cards only, not at the deal number.

    Attributes:
        cards: the 52 cards; ``cards[:28]`` the pyramid, ``cards[28:]`` the stock.
        number: the deal number it came from, if any (for display).
    """

    cards: tuple[int, ...]
    number: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        """Reject anything that is not a full deck, and a number that names other cards.

        A number is shown as the deal's name (``deal #7``) and filed with results, so a wrong
        one would report these cards as another deal: it must be the deal number of the cards.
        """
        object.__setattr__(self, "cards", check_cards(self.cards))
        if self.number is not None:
            n = deal_number(self.number)
            if shuffled_deck(n) != self.cards:
                raise CardError(
                    f"deal number {n} does not match the cards: deal #{n} is "
                    f"{encode_code(shuffled_deck(n))}, these cards are {encode_code(self.cards)}; "
                    "give number=None for cards that are not a numbered deal"
                )
            object.__setattr__(self, "number", n)

    def restocked(self, stock: Sequence[int]) -> Deal:
        """The same pyramid over ``stock``: this deal's 24 stock cards in another order.

        Checked only for being those cards: a determinized search builds thousands of such
        deals a decision, and the full check of a deal typed by a user cost more than the
        rest of building one.

        Raises:
            CardError: ``stock`` is not this deal's stock cards.
        """
        stock = tuple(stock)
        if sorted(stock) != sorted(self.cards[28:]):
            raise CardError(
                f"stock={describe(stock)} must be this deal's 24 stock cards in some order"
            )
        new = object.__new__(Deal)
        object.__setattr__(new, "cards", self.cards[:28] + stock)
        object.__setattr__(new, "number", None)
        return new

    @property
    def pyramid(self) -> tuple[int, ...]:
        """The 28 pyramid cards, apex first."""
        return self.cards[:28]

    @property
    def stock(self) -> tuple[int, ...]:
        """The 24 stock cards, the first to be turned first."""
        return self.cards[28:]

    @property
    def code(self) -> str:
        """The compact deal code (see :func:`encode_code`)."""
        return encode_code(self.cards)

    @property
    def text(self) -> str:
        """The 52 cards as text, the exchange format."""
        return " ".join(CARD_NAMES[c] for c in self.cards)

    def label(self) -> str:
        """``'deal #7'`` or the code when there is no number."""
        return f"deal #{self.number}" if self.number is not None else f"deal {self.code}"


def deal_number(n: Any) -> int:
    """``n`` as a deal number: an integer (numpy's too, not bool) in ``0..2**64-1``.

    Raises:
        CardError: naming the value, its type if it is not an integer, and the range.
    """
    if not is_int(n):
        raise CardError(f"deal number {describe(n)} must be an integer 0..2**64-1")
    n = operator.index(n)
    if not 0 <= n <= MAX_DEAL:
        raise CardError(
            f"deal number {n} is out of range: deal numbers are 0..2**64-1 ({MAX_DEAL})"
        )
    return n


def deal(n: int) -> Deal:
    """Deal number ``n`` (``0 <= n < 2**64``): the same cards on every machine, forever.

    Raises:
        CardError: ``n`` is not an integer in range (a ``ValueError``, as before).
    """
    n = deal_number(n)
    # Built without Deal.__post_init__: the shuffle is a valid deck of number n by construction,
    # and checking it would shuffle twice on every env reset.
    d = object.__new__(Deal)
    object.__setattr__(d, "cards", shuffled_deck(n))
    object.__setattr__(d, "number", n)
    return d


DealLike = int | str | Deal | Iterable[int]
_NUMBER = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: no "٥", no "5_000"
_CODE = re.compile(r"[Pp][0-9]-")  # any version's prefix, so a code gets a code's error
_KINDS = "a deal number (int), a deal code 'P2-...', 52 cards as text, or 52 card numbers 0..51"


def to_deal(spec: DealLike) -> Deal:
    """The deal named by a number, a code ``'P2-...'``, 52 cards as text or ints, or a ``Deal``.

    Numpy integers are deal numbers (and card numbers) like ints; text that is an integer is a
    deal number. Nothing falls back to a default deal: empty text, ``True``, floats, unordered
    collections and anything else are refused.

    Raises:
        CardError: malformed text or code, a deal number out of range, bad card numbers, or a
            value of a type that names no deal (the message says which type).
    """
    if isinstance(spec, Deal):
        return spec
    if is_int(spec):
        return deal(spec)
    if isinstance(spec, str):
        text = spec.strip()
        if not text:
            raise CardError(f"deal {spec!r} is empty text: give {_KINDS}")
        if _CODE.match(text):
            return Deal(decode_code(text))
        if _NUMBER.fullmatch(text):
            return deal(int(text))
        if len(text.replace(",", " ").split()) == 1:
            raise CardError(f"deal {shorten(spec)} is not {_KINDS}")
        return Deal(parse_cards(text))
    unordered = isinstance(spec, (Mapping, Set))  # their order is not a deal order
    if isinstance(spec, (bool, bytes, bytearray)) or unordered or not isinstance(spec, Iterable):
        raise CardError(f"deal {describe(spec)} is not {_KINDS}")
    return Deal(check_cards(spec))
