"""Text forms: the board picture (printed and parsed back) and moves as card text.

A board is the triangle, one line per row (``..`` for a removed card), then the stock cards
(the next to be turned first), the waste (bottom first, top last), the drawn card where the rules
have one, and the recycles used::

                Jd
              6c  7h
            As  4d  Qs
          5h  3d  6h  8s
        Kh  Kc  Ad  Ks  9c
      Qc  2c  8d  Td  Ts  Js
    7c  ..  3h  4h  ..  ..  7s
    stock: 4s 6c 7c
    waste: 7d
    recycles: 0

A board can also be printed as a player sees it (``format_board(s, hide_stock=True)`` or
``known=``): the stock line then names only the cards the player knows, in drawing order, and
writes ``??`` for each of the others (``stock: 4s ?? ?? 7c``); with none known it just counts
them (``stock: 24 face down``). The waste is face up, so it is always printed. Such a board does
not say where the hidden cards are, so :func:`parse_board` refuses it.

It serves ``str(state)``, test fixtures (``tests/fixtures/boards``) and hand-built positions:
:func:`parse_board` accepts any position whose cards are distinct, filling the removed places
with the cards that appear nowhere. Lines starting with ``#`` are comments.

Moves are written by card: ``draw``, ``recycle``, ``Kd`` (a King alone), ``5d+8s`` (a pair).
"""

from __future__ import annotations

from pyramid_env.engine.cards import CARD_NAMES, CardError, parse_card
from pyramid_env.engine.deal import Deal
from pyramid_env.engine.layout import ROWS, SHAPES, SLOTS, UNCOVERS, slot_name
from pyramid_env.engine.moves import DRAW, KING_AT, PAIR_AT, RECYCLE, STOCK, WASTE, Move, MoveKind
from pyramid_env.engine.rules import Rules, StockPlay, get_rules
from pyramid_env.engine.state import STOCK_SIZE, IllegalMove, State, face_up

_GAP = "  "
HIDDEN = "??"
"""How a board written as a player sees it marks a stock card whose face is not known."""


def format_board(s: State, *, hide_stock: bool = False, known: int | None = None) -> str:
    """The board as text; the whole stock, parseable by :func:`parse_board`, unless hidden.

    Args:
        s: the position.
        hide_stock: print the stock as a player at the table sees it: only a card the rules lay
            face up (the ``msc`` stock top) is named. Shorthand for ``known=face_up(s)``.
        known: stock cycle positions whose card may be named (bit ``i``: deal card
            ``SLOTS + i``), e.g. ``PyramidEnv.known_stock()``, so the text shows exactly what the
            observation shows. The others are written ``??``.
    """
    lines = []
    for r in range(ROWS):
        first = r * (r + 1) // 2
        cells = [
            CARD_NAMES[s.deal.cards[i]] if s.pyr >> i & 1 else ".."
            for i in range(first, first + r + 1)
        ]
        lines.append(_GAP * (ROWS - 1 - r) + _GAP.join(cells))
    if known is None and hide_stock:
        known = face_up(s)
    lines.append(stock_line(s, known))
    lines.append("waste: " + " ".join(CARD_NAMES[c] for c in s.waste_cards))
    if s.rules.stock_play is StockPlay.DRAWN_AND_WASTE:
        d = s.drawn_card
        lines.append(f"drawn: {CARD_NAMES[d] if d is not None else '..'}")
    lines.append(f"recycles: {s.recycles}")
    return "\n".join(line.rstrip() for line in lines)


def stock_line(s: State, known: int | None = None) -> str:
    """The board's ``stock:`` line: every card (``known=None``) or only the ``known`` ones.

    Unknown cards are written :data:`HIDDEN` in their place in the drawing order, so a reader
    sees how deep a known card lies; a stock with no known card is just counted.
    """
    if known is None:
        return "stock: " + " ".join(CARD_NAMES[c] for c in s.stock_cards)
    cycle = range(s.ptr, STOCK_SIZE)
    live = [i for i in cycle if s.left >> i & 1]
    if live and not any(known >> i & 1 for i in live):
        return f"stock: {len(live)} face down"
    return "stock: " + " ".join(
        CARD_NAMES[s.deal.cards[SLOTS + i]] if known >> i & 1 else HIDDEN for i in live
    )


def parse_board(text: str, rules: Rules | str | None = None) -> State:
    """Build a position from board text (see the module docstring).

    Raises:
        CardError: a bad card, a duplicate, a row of the wrong length, or a pyramid shape that
            no play can reach (a card present while one it covers is gone).
    """
    rules = get_rules(rules)
    rows: list[list[str]] = []
    fields: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, sep, rest = line.partition(":")
        if sep:
            fields[head.strip().lower()] = rest.split()
        else:
            rows.append(line.split())
    if len(rows) != ROWS or any(len(row) != r + 1 for r, row in enumerate(rows)):
        raise CardError(
            f"a board has 7 pyramid rows of 1..7 cards; got rows of {[len(r) for r in rows]}"
        )
    unknown = set(fields) - {"stock", "waste", "drawn", "recycles"}
    if unknown:
        raise CardError(f"unknown board line(s): {', '.join(sorted(unknown))}")

    hidden = fields.get("stock", [])
    if HIDDEN in hidden or "face" in hidden:
        raise CardError(
            "the stock is printed hidden (?? or 'face down'): a board printed as a player sees "
            "it does not say where those cards are; print it with format_board(s) to parse it"
        )

    def cards_of(tokens: list[str]) -> list[int | None]:
        return [None if t in ("..", "--") else parse_card(t) for t in tokens]

    pyramid = cards_of([t for row in rows for t in row])
    waste = [c for c in cards_of(fields.get("waste", [])) if c is not None]
    drawn = [c for c in cards_of(fields.get("drawn", [])) if c is not None]
    stock = [c for c in cards_of(fields.get("stock", [])) if c is not None]
    if drawn and rules.stock_play is not StockPlay.DRAWN_AND_WASTE:
        raise CardError(f"rules {rules.name!r} have no drawn card")
    cycle: list[int | None] = [*waste, *drawn, *stock]
    if len(cycle) > STOCK_SIZE:
        raise CardError(f"stock, waste and drawn card hold {len(cycle)} cards; at most 24")
    placed = [c for c in pyramid + cycle if c is not None]
    seen: set[int] = set()
    for c in placed:
        if c in seen:
            raise CardError(f"{CARD_NAMES[c]} appears twice on the board")
        seen.add(c)
    spare = iter(c for c in range(52) if c not in seen)
    cycle += [None] * (STOCK_SIZE - len(cycle))
    cards = [c if c is not None else next(spare) for c in pyramid + cycle]
    s = State(Deal(tuple(cards)), rules)
    s.pyr = sum(1 << i for i, c in enumerate(pyramid) if c is not None)
    if s.pyr not in SHAPES:
        bad = next(
            i
            for i in range(SLOTS)
            if not s.pyr >> i & 1 and any(s.pyr >> t & 1 for t in UNCOVERS[i])
        )
        raise CardError(f"{slot_name(bad)} is empty but a card it covers is still there")
    s.left = sum(1 << i for i, c in enumerate(cycle) if c is not None)
    s.ptr = len(waste) + len(drawn)
    s.drawn = bool(drawn)
    s.recycles = int(fields.get("recycles", ["0"])[0])
    return s


def format_move(s: State, move: Move) -> str:
    """``'draw'``, ``'recycle'``, ``'Kd'``, ``'5d+8s'`` (cards as they lie in ``s``)."""
    if move.kind == MoveKind.DRAW:
        return "draw"
    if move.kind == MoveKind.RECYCLE:
        return "recycle"
    names = []
    for p in move.places:
        c = s.card_at(p)
        names.append(CARD_NAMES[c] if c is not None else f"<empty {p}>")
    return "+".join(names)


def _place_of(s: State, card: int) -> int:
    for p in (WASTE, STOCK):
        if s.card_at(p) == card:
            return p
    i = s.deal.cards.index(card)
    if i < SLOTS:
        if s.pyr >> i & 1:
            return i
        raise IllegalMove(f"{CARD_NAMES[card]} has already been removed")
    if not s.left >> (i - SLOTS) & 1:
        raise IllegalMove(f"{CARD_NAMES[card]} has already been removed")
    where = "in the stock" if i - SLOTS >= s.ptr else "under the waste top"
    raise IllegalMove(f"{CARD_NAMES[card]} is not in play: it is {where}")


def parse_move(s: State, text: str) -> Move:
    """The move named by ``text`` in position ``s``: ``draw``, ``recycle``, ``Kd``, ``5d+8s``.

    The move is looked up, not validated: pass it to ``apply_checked`` for that.

    Raises:
        IllegalMove: a card that is not in play (with where it is). CardError: bad card text.
    """
    t = text.strip().lower()
    if t in ("draw", "d"):
        return DRAW
    if t in ("recycle", "r"):
        return RECYCLE
    parts = [p for p in t.replace(" ", "").split("+")]
    if not 1 <= len(parts) <= 2:
        raise CardError(
            f"bad move {text!r}: write 'draw', 'recycle', a King 'Kd' or a pair '5d+8s'"
        )
    places = sorted(_place_of(s, parse_card(p)) for p in parts)
    if len(places) == 1:
        return KING_AT[places[0]]
    move = PAIR_AT.get((places[0], places[1]))
    if move is None:
        raise IllegalMove(f"{text.strip()} can never be removed together: one lies above the other")
    return move
