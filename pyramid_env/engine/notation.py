"""Text forms: the board picture (printed and parsed back) and moves as card text.

A board is the triangle, one line per row (``..`` for a removed card), then ``stock:``,
``waste:``, ``drawn:`` and ``recycles:`` lines (the engine page shows one, and a board printed
as a player sees it). It serves ``str(state)``, test fixtures and hand-built positions:
:func:`parse_board` accepts any position play could reach under the rules and refuses anything
else with a ``CardError`` naming the line or slot. Moves are written by card: ``draw``,
``recycle``, ``Kd`` (a King alone), ``5d+8s`` (a pair). The printing is
:mod:`pyramid_env.engine.board_text` (so ``str(state)`` needs no parser), re-exported here.
"""

from __future__ import annotations

from pyramid_env.engine.board_text import HIDDEN as HIDDEN  # printing: re-exported here
from pyramid_env.engine.board_text import format_board as format_board
from pyramid_env.engine.board_text import stock_line as stock_line
from pyramid_env.engine.cards import CARD_NAMES, CardError, parse_card
from pyramid_env.engine.deal import Deal
from pyramid_env.engine.errors import describe
from pyramid_env.engine.layout import COVERED_BY, ROWS, SHAPES, SLOTS, slot_name
from pyramid_env.engine.moves import DRAW, KING_AT, PAIR_AT, RECYCLE, STOCK, WASTE, Move, MoveKind
from pyramid_env.engine.rules import Rules, get_rules
from pyramid_env.engine.state import STOCK_SIZE, IllegalMove, State

_LINES = ("stock", "waste", "drawn", "recycles")
_EMPTY = ("..", "--")


def parse_board(text: str, rules: Rules | str | None = None) -> State:
    """Build a position from board text (the engine page describes the form).

    The position must be one play could reach under ``rules`` from some deal, as far as the
    board shows (pyramid shape, recycles, drawn card, stock and waste counts); which cards went
    with which is not checked, so hand-built positions fill the removed places freely.

    Raises:
        CardError: naming the line or slot: a bad or repeated card or line, a row of the wrong
            length, recycles out of range, or a position no play can reach (saying why).
        RulesError: bad ``rules``.
    """
    rules = get_rules(rules)
    if not isinstance(text, str):
        raise CardError(f"board {describe(text)} must be board text (str)")
    rows: list[list[str]] = []
    fields: dict[str, list[str]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, sep, rest = line.partition(":")
        if not sep:
            rows.append(line.split())
            continue
        key = head.strip().lower()
        if key not in _LINES:
            raise CardError(
                f"board line {number}: unknown line {head.strip()!r}; after the pyramid rows a "
                f"board has the lines {', '.join(k + ':' for k in _LINES)}"
            )
        if key in fields:
            raise CardError(f"board line {number}: a second {key!r} line; each appears once")
        fields[key] = rest.split()
    if len(rows) != ROWS or any(len(row) != r + 1 for r, row in enumerate(rows)):
        raise CardError(
            f"a board has 7 pyramid rows of 1..7 cards; got rows of {[len(r) for r in rows]}"
        )

    hidden = fields.get("stock", [])
    if HIDDEN in hidden or "face" in hidden:
        raise CardError(
            "the stock is printed hidden (?? or 'face down'): a board printed as a player sees "
            "it does not say where those cards are; print it with format_board(s) to parse it"
        )

    where: dict[int, str] = {}  # card -> its place, to name both places of a duplicate

    def card(token: str, place: str) -> int:
        try:
            c = parse_card(token)
        except CardError as err:
            raise CardError(f"board {place}: {err}") from None
        if c in where:
            raise CardError(f"{CARD_NAMES[c]} appears twice on the board: {where[c]} and {place}")
        where[c] = place
        return c

    def pile(name: str) -> list[int]:
        tokens = fields.get(name, [])
        for i, t in enumerate(tokens, start=1):
            if t in _EMPTY:
                raise CardError(
                    f"board {name} card {i} is {t!r}: the {name} line lists only its cards "
                    "('..' marks an empty pyramid slot or drawn spot)"
                )
        return [card(t, f"{name} card {i}") for i, t in enumerate(tokens, start=1)]

    pyramid = [
        None if t in _EMPTY else card(t, slot_name(i))
        for i, t in enumerate(t for row in rows for t in row)
    ]
    waste = pile("waste")
    drawn: list[int] = []
    if "drawn" in fields:
        if not rules.knobs.drawn_spot:
            raise CardError(
                f"board has a 'drawn:' line, but rules {rules.name!r} have no drawn card "
                f"(stock_play={rules.stock_play.value})"
            )
        tokens = fields["drawn"]
        if len(tokens) != 1:
            raise CardError(
                f"board drawn: {' '.join(tokens)!r} must be one card, or '..' for an empty spot"
            )
        if tokens[0] not in _EMPTY:
            drawn = [card(tokens[0], "drawn card")]
    stock = pile("stock")
    recycles = _recycles(fields.get("recycles"), rules)
    cycle: list[int | None] = [*waste, *drawn, *stock]
    if len(cycle) > STOCK_SIZE:
        raise CardError(f"stock, waste and drawn card hold {len(cycle)} cards; at most 24")

    pyr = sum(1 << i for i, c in enumerate(pyramid) if c is not None)
    if pyr not in SHAPES:
        raise CardError(_unreachable_shape(pyr, pyramid))
    below = _turned_removed(len(waste) + len(drawn), len(stock), recycles, rules)
    # Removed stock cards go where play could have taken them: ``below`` of them among the
    # cards turned this pass (so the draw count adds up), the others after the stock.
    cycle = [None] * below + cycle
    cycle += [None] * (STOCK_SIZE - len(cycle))
    spare = iter(c for c in range(52) if c not in where)
    cards = [c if c is not None else next(spare) for c in pyramid + cycle]
    s = State(Deal(tuple(cards)), rules)
    s.pyr = pyr
    s.left = sum(1 << i for i, c in enumerate(cycle) if c is not None)
    s.ptr = below + len(waste) + len(drawn)
    s.drawn = bool(drawn)
    s.recycles = recycles
    return s


def _recycles(tokens: list[str] | None, rules: Rules) -> int:
    """The ``recycles:`` line's count, checked against the rules (no line: 0)."""
    if tokens is None:
        return 0
    allowed = (
        "0 or more (unlimited passes)"
        if rules.recycles is None
        else f"0..{rules.recycles} ({rules.passes} pass{'es' if rules.passes != 1 else ''})"
    )
    if len(tokens) != 1 or not tokens[0].isascii() or not tokens[0].isdigit():
        raise CardError(
            f"board recycles: {' '.join(tokens)!r} must be one whole number; rules "
            f"{rules.name!r} allow {allowed}"
        )
    n = int(tokens[0])
    if rules.recycles is not None and n > rules.recycles:
        raise CardError(
            f"board recycles: {n} is out of range: rules {rules.name!r} allow {allowed}"
        )
    return n


def _unreachable_shape(pyr: int, pyramid: list[int | None]) -> str:
    """Why a pyramid mask is no shape play leaves: an empty slot with a card still covering it.

    A card is removed only once no card covers it (or together with its last coverer), so
    every removed card's coverers are gone too.
    """
    for i in range(SLOTS):
        on = [t for t in COVERED_BY[i] if pyr >> t & 1]
        if not pyr >> i & 1 and on:
            names = " and ".join(f"{CARD_NAMES[pyramid[t]]} at {slot_name(t)}" for t in on)
            return (
                f"{slot_name(i)} is empty, but {names} still cover{'s' if len(on) == 1 else ''} "
                "it: a card is removed only after the cards covering it"
            )
    raise AssertionError(f"mask {pyr:#x} is closed upward yet not a shape")  # layout.py's claim


def _turned_removed(turned: int, stock: int, recycles: int, rules: Rules) -> int:
    """How many removed cards to place among the cards turned this pass (fewest that fit).

    In the pass under way, the cards turned so far (by the deal's ``waste_start`` on the first
    pass, then ``draw_count`` at a time) are the waste, the drawn card and those of them removed
    since; only the last draw of a pass may turn fewer, emptying the stock. A board whose waste
    no removals can make up to such a count could not arise.

    Raises:
        CardError: saying which rule the waste and stock cannot have come from.
    """
    if stock == 0:
        return 0
    removed = STOCK_SIZE - turned - stock
    start = rules.waste_start if recycles == 0 else 0
    for extra in range(removed + 1):
        if turned + extra >= start and (turned + extra - start) % rules.draw_count == 0:
            return extra
    if rules.draw_count == 1:
        raise CardError(
            f"under rules {rules.name!r} the deal turns {start} card onto the waste, so before "
            f"any recycle (recycles: 0) the stock cannot hold all {stock} cards"
        )
    dealt = f"the deal turns {start} card onto the waste and " if start else ""
    raise CardError(
        f"under rules {rules.name!r} {dealt}each draw turns {rules.draw_count} cards (the last "
        f"may turn fewer, emptying the stock): {turned} card(s) turned this pass and {stock} in "
        f"the stock, with {removed} stock card(s) removed, is a count no draws leave"
    )


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
    if not isinstance(text, str):
        raise CardError(f"move {describe(text)} must be text: 'draw', 'recycle', 'Kd', '5d+8s'")
    t = text.strip().lower()
    if t in ("draw", "d"):
        return DRAW
    if t in ("recycle", "r"):
        return RECYCLE
    parts = text.strip().replace(" ", "").split("+")  # cards as written, for the messages
    if not 1 <= len(parts) <= 2:
        raise CardError(
            f"bad move {text!r}: write 'draw', 'recycle', a King 'Kd' or a pair '5d+8s'"
        )
    cards = [parse_card(p) for p in parts]
    if len(cards) == 2 and cards[0] == cards[1]:
        raise CardError(f"bad move {text!r}: the same card twice; a pair is two cards, '5d+8s'")
    places = sorted(_place_of(s, c) for c in cards)
    if len(places) == 1:
        return KING_AT[places[0]]
    move = PAIR_AT.get((places[0], places[1]))
    if move is None:
        raise IllegalMove(f"{text.strip()} can never be removed together: one lies above the other")
    return move
