"""Boards as text (``parse_board``): a board play cannot reach under the rules is refused naming
the line and what is wrong (recycles, shape, duplicates, drawn spot, draw count); a good one parses
to itself. The ``slow``-marked twins run the properties with many more examples (``pytest -m
slow``).
"""

import random

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from pyramid_env.engine import (
    MOVES,
    CardError,
    Game,
    IllegalMove,
    PyramidError,
    RulesError,
    State,
    format_board,
    format_move,
    get_rules,
    legal_ids,
    parse_board,
)
from pyramid_env.engine.cards import CARD_NAMES
from pyramid_env.engine.invariants import check_conservation, check_position
from pyramid_env.engine.layout import SHAPES, SLOTS
from pyramid_env.engine.rules import StockPlay
from tests.conftest import refused
from tests.engine.input_strategies import BAD_TOKENS, FAST, SLOW, VARIANTS, opening_board, positions


def test_board_recycles_beyond_the_rules_are_refused():
    text = opening_board("one-pass")
    refused(
        parse_board,
        text.replace("recycles: 0", "recycles: 5"),
        "one-pass",
        error=CardError,
        match=r"recycles: 5 is out of range: rules 'one-pass' allow 0\.\.0 \(1 pass\)",
    )
    # A negative count would grant extra passes: it is not a count at all.
    refused(
        parse_board,
        text.replace("recycles: 0", "recycles: -1"),
        "one-pass",
        error=CardError,
        match=r"recycles: '-1' must be one whole number",
    )
    for junk in ("recycles:", "recycles: 1 2", "recycles: x", "recycles: 1.5"):
        refused(
            parse_board,
            text.replace("recycles: 0", junk),
            "one-pass",
            error=CardError,
            match="recycles",
        )
    two = opening_board("two-pass")
    assert parse_board(two.replace("recycles: 0", "recycles: 1"), "two-pass").recycles == 1
    refused(
        parse_board,
        two.replace(": 0", ": 2"),
        "two-pass",
        error=CardError,
        match=r"0\.\.1 \(2 passes\)",
    )
    # Unlimited passes: any count.
    assert parse_board(text.replace("recycles: 0", "recycles: 99"), "relaxed").recycles == 99


def test_a_game_from_a_board_cannot_recycle_past_its_passes():
    # The old parser let this board in, and then "recycle" was legal: "pass 7/1".
    board = "Kc\n" + "\n".join("  ".join([".."] * (r + 1)) for r in range(1, 7))
    board += "\nstock:\nwaste: 5d\nrecycles: 5\n"
    refused(
        Game.from_board, board, "one-pass", error=CardError, match="recycles: 5 is out of range"
    )
    g = Game.from_board(board.replace("recycles: 5", "recycles: 0"), "one-pass")
    refused(g.play, "recycle", error=IllegalMove, match="no recycle left")


def test_an_empty_slot_under_a_card_is_refused_naming_both():
    rows = opening_board().splitlines()
    rows[0] = rows[0].replace(rows[0].strip(), "..")  # the apex gone, row 2 still there
    message = refused(
        parse_board,
        "\n".join(rows),
        error=CardError,
        match=r"row 1 col 1 is empty, but \w\w at row 2 col 1 and \w\w at row 2 col 2 still cover",
    )
    assert "StopIteration" not in message
    rows = opening_board().splitlines()
    cells = rows[5].split()  # row 6: its first card gone, row 7 intact
    rows[5] = "  ".join([".."] + cells[1:])
    refused(
        parse_board,
        "\n".join(rows),
        error=CardError,
        match=r"row 6 col 1 is empty, but .* at row 7 col 1 and",
    )


def test_legal_shapes_still_parse():
    rows = opening_board().splitlines()
    bottom = rows[6].split()
    rows[6] = "  ".join([".."] + bottom[1:])  # a bottom card gone: the card above stays
    s = parse_board("\n".join(rows))
    assert s.pyr in SHAPES and s.pyramid_left == 27


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t + "\nfoo: 1", r"board line 11: unknown line 'foo'"),
        (lambda t: t + "\nstock: Kd", r"board line 11: a second 'stock' line"),
        (lambda t: t + "\nwaste:", r"a second 'waste' line"),
        (lambda t: t.replace("stock: ", "stock: Zz "), r"board stock card 1: bad card 'Zz'"),
        (lambda t: t.replace("stock: ", "stock: .. "), r"stock card 1 is '\.\.'"),
        (lambda t: t.replace("waste:", "waste: ??"), r"waste card 1: bad card '\?\?'"),
        (lambda t: "\n".join(t.splitlines()[1:]), r"7 pyramid rows of 1\.\.7 cards"),
        (lambda t: t.replace("\n", " Kh\n", 1), r"got rows of \[2, 2, 3"),
        (lambda t: t + "\ndrawn: ..", r"'drawn:' line, but rules 'relaxed' have no drawn card"),
    ],
)
def test_malformed_board_lines_name_the_line(edit, message):
    refused(parse_board, edit(opening_board()), "relaxed", error=CardError, match=message)


def test_a_card_in_two_places_names_both():
    text = opening_board()
    apex = text.split()[0]
    refused(
        parse_board,
        text.replace("stock: ", f"stock: {apex} "),
        error=CardError,
        match=f"{apex} appears twice on the board: row 1 col 1 and stock card 1",
    )
    stock_top = State(5).stock_cards[0]
    refused(
        parse_board,
        text.replace("waste:", f"waste: {CARD_NAMES[stock_top]}"),
        error=CardError,
        match=f"{CARD_NAMES[stock_top]} appears twice on the board: waste card 1 and stock card 1",
    )


def test_the_drawn_line_holds_one_card_or_dots():
    s = State(5, "two-card")
    text = format_board(s)
    assert "drawn: .." in text and parse_board(text, "two-card") == s
    refused(
        parse_board,
        text.replace("drawn: ..", "drawn:"),
        "two-card",
        error=CardError,
        match="must be one card",
    )
    refused(
        parse_board,
        text.replace("drawn: ..", "drawn: .. Kd"),
        "two-card",
        error=CardError,
        match="must be one card",
    )


def test_boards_that_no_play_under_the_rules_leaves_are_refused():
    # 002 turns one card onto the waste at the deal: a full stock needs a recycle first.
    text = opening_board("relaxed")
    refused(
        parse_board,
        text,
        "unlimited",
        error=CardError,
        match=r"rules 'unlimited' the deal turns 1 card onto the waste, so before any recycle",
    )
    assert parse_board(text.replace("recycles: 0", "recycles: 1"), "unlimited").recycles == 1
    # Draw-three turns three cards at a time: one card turned and nothing removed cannot be.
    s = State(5, "relaxed")
    one = text.replace("waste:", "waste: " + CARD_NAMES[s.stock_cards[0]]).replace(
        "stock: " + CARD_NAMES[s.stock_cards[0]] + " ", "stock: "
    )
    assert parse_board(one, "relaxed").waste_size == 1
    refused(
        parse_board,
        one,
        get_rules("relaxed", draw_count=3),
        error=CardError,
        match="each draw turns 3 cards",
    )
    # With two stock cards removed, play could have left it: 3 turned, 2 of them removed since.
    fewer = one
    for c in s.stock_cards[1:3]:
        fewer = fewer.replace("stock: " + CARD_NAMES[c] + " ", "stock: ")
    parsed = parse_board(fewer, get_rules("relaxed", draw_count=3))
    assert format_board(parsed) == fewer and parsed.ptr % 3 == 0


def test_board_text_and_rules_of_the_wrong_type_are_refused():
    refused(parse_board, 7, error=CardError, match=r"board 7 \(int\) must be board text")
    refused(parse_board, opening_board(), "nope", error=RulesError, match="unknown preset 'nope'")
    refused(
        parse_board,
        opening_board(),
        3,
        error=RulesError,
        match=r"rules=3 \(int\) must be a preset name",
    )


def split_board(text):
    rows, fields = [], []
    for line in text.splitlines():
        head, sep, rest = line.partition(":")
        if sep:
            fields.append([head.strip(), rest.split()])
        else:
            rows.append(line.split())
    return rows, fields


def render(rows, fields):
    lines = ["  " * max(0, 6 - r) + "  ".join(row) for r, row in enumerate(rows)]
    lines += [(f"{key}: " + " ".join(tokens)).rstrip() for key, tokens in fields]
    return "\n".join(line.rstrip() for line in lines)


def canonical(rows, fields, rules):
    """How format_board writes the board these lines describe (missing lines: empty, 0)."""
    given = dict(fields)
    out = [["stock", given.get("stock", [])], ["waste", given.get("waste", [])]]
    if rules.stock_play is StockPlay.DRAWN_AND_WASTE:
        out.append(["drawn", given.get("drawn", [".."])])
    out.append(["recycles", [str(int(given["recycles"][0]))] if "recycles" in given else ["0"]])
    return render(rows, out)


MUTATIONS = [
    "empty_slot", "fill_slot", "move_to_stock", "move_to_waste", "duplicate", "recycles",
    "drop_line", "repeat_line", "unknown_line", "drawn", "bad_token", "drop_token", "drop_row",
    "stock_to_waste", "waste_to_stock", "drop_stock_card", "add_stock_card",
]  # fmt: skip


def mutate(draw, rows, fields, kind):
    on_board = [t for row in rows for t in row if t != ".."] + [
        t for _, tokens in fields for t in tokens if t != ".." and not t.isdigit()
    ]
    absent = [c for c in CARD_NAMES if c not in on_board]
    cells = [(r, c) for r, row in enumerate(rows) for c in range(len(row))]
    lines = {k: i for i, (k, _) in enumerate(fields)}
    pick = lambda xs: draw(st.sampled_from(xs))  # noqa: E731
    if kind == "empty_slot" and cells:
        r, c = pick(cells)
        rows[r][c] = ".."
    elif kind == "fill_slot" and cells:
        r, c = pick(cells)
        rows[r][c] = pick(absent or CARD_NAMES)
    elif kind in ("move_to_stock", "move_to_waste") and cells:
        r, c = pick(cells)
        if rows[r][c] != ".." and kind[8:] in lines:
            fields[lines[kind[8:]]][1].append(rows[r][c])
            rows[r][c] = ".."
    elif kind == "duplicate" and on_board:
        card = pick(on_board)
        place = pick(["pyramid", *lines])
        if place == "pyramid" and cells:
            r, c = pick(cells)
            rows[r][c] = card
        elif place in ("stock", "waste"):
            fields[lines[place]][1].insert(draw(st.integers(0, 3)), card)
    elif kind == "recycles" and "recycles" in lines:
        value = draw(
            st.one_of(
                st.integers(-3, 6).map(str),
                st.sampled_from(["x", "1.5", "", "1 2", "+1", "01", "٣"]),
            )
        )
        fields[lines["recycles"]][1] = value.split()
    elif kind == "drop_line" and fields:
        del fields[draw(st.integers(0, len(fields) - 1))]
    elif kind == "repeat_line" and fields:
        fields.append(list(pick(fields)))
    elif kind == "unknown_line":
        fields.append([pick(["foo", "Stock2", "pass", "deal"]), ["1"]])
    elif kind == "drawn":
        fields.insert(len(fields) - 1, ["drawn", [pick([*absent, *on_board, "..", "Zz"])]])
    elif kind == "bad_token":
        target = pick(["pyramid", *lines])
        token = pick(BAD_TOKENS)
        if target == "pyramid" and cells:
            r, c = pick(cells)
            rows[r][c] = token
        elif target != "pyramid":
            fields[lines[target]][1].append(token)
    elif kind == "drop_token" and cells:
        r, c = pick(cells)
        del rows[r][c]
    elif kind == "drop_row":
        del rows[draw(st.integers(0, len(rows) - 1))]
    elif kind in ("stock_to_waste", "waste_to_stock") and "stock" in lines and "waste" in lines:
        src, dst = ("stock", "waste") if kind == "stock_to_waste" else ("waste", "stock")
        tokens = fields[lines[src]][1]
        if tokens:
            card = tokens.pop(0 if src == "stock" else -1)
            fields[lines[dst]][1].insert(len(fields[lines[dst]][1]) if dst == "waste" else 0, card)
    elif kind == "drop_stock_card" and "stock" in lines and fields[lines["stock"]][1]:
        tokens = fields[lines["stock"]][1]
        del tokens[draw(st.integers(0, len(tokens) - 1))]
    elif kind == "add_stock_card" and "stock" in lines and absent:
        fields[lines["stock"]][1].insert(0, pick(absent))


def _check_board(data):
    s = data.draw(positions())
    rules = data.draw(st.sampled_from([s.rules, s.rules, *VARIANTS]))  # sometimes other rules
    text = format_board(s)
    rows, fields = split_board(text)
    kinds = data.draw(st.lists(st.sampled_from(MUTATIONS), max_size=3))
    for kind in kinds:
        mutate(data.draw, rows, fields, kind)
    mutated = render(rows, fields)
    unchanged = mutated == text and rules == s.rules
    try:
        parsed = parse_board(mutated, rules)
    except PyramidError as err:
        assert str(err) and not unchanged, f"a reachable board was refused: {err}\n{text}"
        event(f"board refused: {type(err).__name__} {' '.join(str(err).split()[:3])}")
        return
    event(f"board parsed ({'unchanged' if unchanged else 'changed'})")
    # It parsed: the same board, a position play can reach, every card in one place.
    assert format_board(parsed) == canonical(rows, fields, rules)
    check_conservation(parsed)
    assert parsed.pyr in SHAPES
    assert rules.recycles is None or 0 <= parsed.recycles <= rules.recycles
    turned = parsed.ptr - (rules.waste_start if parsed.recycles == 0 else 0)
    assert parsed.stock_size == 0 or (turned >= 0 and turned % rules.draw_count == 0)
    check_position(parsed, random.Random(0), full_table=False)
    assert parse_board(format_board(parsed), rules) == parsed
    if unchanged:
        assert [format_move(parsed, m) for m in legal_moves_of(parsed)] == [
            format_move(s, m) for m in legal_moves_of(s)
        ]


def legal_moves_of(s):
    return [MOVES[i] for i in legal_ids(s)]


@FAST
@given(st.data())
def test_any_board_parses_to_itself_or_is_a_card_error(data):
    _check_board(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_any_board_slow(data):
    _check_board(data)


def test_slot_count_is_what_the_board_tests_assume():
    assert SLOTS == 28 and len(CARD_NAMES) == 52
