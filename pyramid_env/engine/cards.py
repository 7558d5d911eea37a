"""Cards as small integers.

A card is an ``int`` in ``0..51``: ``suit * 13 + (rank - 1)``, so a new deck in suit order
``c d h s`` reads ``Ac 2c ... Kc Ad ... Ks``. Ranks run 1 (Ace) to 13 (King); suits never matter
for play, only for telling cards apart. Text is two characters, rank then suit: ``Kd``, ``Ts``,
``7h``. Ints keep the hot paths (legal moves, the solver) free of object overhead; the tables
below turn every per-card question into one tuple index.
"""

from __future__ import annotations

from pyramid_env.engine.errors import CardError  # noqa: F401  (re-exported from its old home)

RANKS = "A23456789TJQK"
SUITS = "cdhs"
KING = 13
TARGET = 13  # two cards are removed together when their ranks sum to this

CARD_NAMES: tuple[str, ...] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))
RANK: tuple[int, ...] = tuple(c % 13 + 1 for c in range(52))
_BY_NAME: dict[str, int] = dict(zip(CARD_NAMES, range(52), strict=True))


def rank(card: int) -> int:
    """Rank 1..13 of ``card`` (Ace 1, Jack 11, Queen 12, King 13)."""
    return RANK[card]


def suit(card: int) -> int:
    """Suit index 0..3 of ``card`` (``cdhs``)."""
    return card // 13


def is_king(card: int) -> bool:
    """Kings are worth 13 alone, so they are removed without a partner."""
    return RANK[card] == KING


def pairs_with(a: int, b: int) -> bool:
    """Whether ``a`` and ``b`` are removed together: ranks summing to 13 (``5d, 8s`` -> True)."""
    return RANK[a] + RANK[b] == TARGET


def format_card(card: int) -> str:
    """``0 -> 'Ac'``, ``51 -> 'Ks'``."""
    return CARD_NAMES[card]


def parse_card(text: str) -> int:
    """Parse ``'Kd'`` (also ``'kd'``, ``'KD'`` and ``'10d'``) into a card.

    Raises:
        CardError: naming the token and what is wrong with it (or its type, if not text).
    """
    if not isinstance(text, str):
        raise CardError(f"card {text!r} ({type(text).__name__}) must be text, like 'Kd' or 'Ts'")
    token = text.strip()
    norm = token[:-1].upper().replace("10", "T") + token[-1:].lower()
    card = _BY_NAME.get(norm)
    if card is not None:
        return card
    if len(norm) != 2:
        raise CardError(f"bad card {token!r}: a card is a rank and a suit, like 'Kd' or 'Ts'")
    if norm[0] not in RANKS:
        raise CardError(f"bad card {token!r}: rank {norm[0]!r} is not one of {RANKS}")
    raise CardError(f"bad card {token!r}: suit {norm[1]!r} is not one of {SUITS}")
