"""Every input boundary of the engine: bad input is a PyramidError naming the field, the value and
what is allowed; good input works and keeps the invariants; nothing becomes a different game.

The first half pins each finding of issue 14 with a plain test; the second half throws random
and mutated input (rule overrides, boards, saves, deal specs) at the engine with Hypothesis.
The ``slow``-marked twins run the same properties with many more examples (``pytest -m slow``).
"""

import json
import random
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pyramid_env.engine import (
    MOVES,
    PRESETS,
    CardError,
    Deal,
    Game,
    IllegalMove,
    PyramidError,
    Rules,
    RulesError,
    Scoring,
    State,
    apply,
    apply_checked,
    deal,
    format_board,
    format_move,
    get_rules,
    legal_ids,
    parse_board,
    parse_move,
    to_deal,
)
from pyramid_env.engine.cards import CARD_NAMES, parse_card
from pyramid_env.engine.deal import MAX_DEAL, decode_code, shuffled_deck
from pyramid_env.engine.layout import SHAPES, SLOTS
from pyramid_env.engine.rules import KNOBS, SCORING_FIELDS, Goal, StockPlay, UndoMoves
from pyramid_env.testing import check_conservation, check_position, rule_variants

FAST = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "engine-boundaries-slow",
    max_examples=5000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
SLOW = settings(settings.get_profile("engine-boundaries-slow"))


def refused(error, match, fn, *args, **kwargs):
    """``fn`` raises ``error`` (a PyramidError) whose message matches ``match``."""
    assert issubclass(error, PyramidError)
    with pytest.raises(error, match=match) as info:
        fn(*args, **kwargs)
    return str(info.value)


def opening_board(rules="relaxed", n=5):
    return format_board(State(n, rules))


# =============================================================================================
# 1. parse_board checks recycles against the rules
# =============================================================================================
def test_board_recycles_beyond_the_rules_are_refused():
    text = opening_board("one-pass")
    refused(
        CardError,
        r"recycles: 5 is out of range: rules 'one-pass' allow 0\.\.0 \(1 pass\)",
        parse_board,
        text.replace("recycles: 0", "recycles: 5"),
        "one-pass",
    )
    # A negative count would grant extra passes: it is not a count at all.
    refused(
        CardError,
        r"recycles: '-1' must be one whole number",
        parse_board,
        text.replace("recycles: 0", "recycles: -1"),
        "one-pass",
    )
    for junk in ("recycles:", "recycles: 1 2", "recycles: x", "recycles: 1.5"):
        refused(CardError, "recycles", parse_board, text.replace("recycles: 0", junk), "one-pass")
    two = opening_board("two-pass")
    assert parse_board(two.replace("recycles: 0", "recycles: 1"), "two-pass").recycles == 1
    refused(CardError, r"0\.\.1 \(2 passes\)", parse_board, two.replace(": 0", ": 2"), "two-pass")
    # Unlimited passes: any count.
    assert parse_board(text.replace("recycles: 0", "recycles: 99"), "relaxed").recycles == 99


def test_game_from_such_a_board_cannot_recycle_past_its_passes():
    # The old parser let this board in, and then "recycle" was legal: "pass 7/1".
    board = "Kc\n" + "\n".join("  ".join([".."] * (r + 1)) for r in range(1, 7))
    board += "\nstock:\nwaste: 5d\nrecycles: 5\n"
    with pytest.raises(CardError, match="recycles: 5 is out of range"):
        Game.from_board(board, "one-pass")
    g = Game.from_board(board.replace("recycles: 5", "recycles: 0"), "one-pass")
    with pytest.raises(IllegalMove, match="no recycle left"):
        g.play("recycle")


# =============================================================================================
# 2. parse_board: the shape check looks the right way; every line is checked
# =============================================================================================
def test_an_empty_slot_under_a_card_is_refused_naming_both():
    rows = opening_board().splitlines()
    rows[0] = rows[0].replace(rows[0].strip(), "..")  # the apex gone, row 2 still there
    message = refused(
        CardError,
        r"row 1 col 1 is empty, but \w\w at row 2 col 1 and \w\w at row 2 col 2 still cover it",
        parse_board,
        "\n".join(rows),
    )
    assert "StopIteration" not in message
    rows = opening_board().splitlines()
    cells = rows[5].split()  # row 6: its first card gone, row 7 intact
    rows[5] = "  ".join([".."] + cells[1:])
    refused(
        CardError, r"row 6 col 1 is empty, but .* at row 7 col 1 and", parse_board, "\n".join(rows)
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
    refused(CardError, message, parse_board, edit(opening_board()), "relaxed")


def test_a_card_in_two_places_names_both():
    text = opening_board()
    apex = text.split()[0]
    refused(
        CardError,
        f"{apex} appears twice on the board: row 1 col 1 and stock card 1",
        parse_board,
        text.replace("stock: ", f"stock: {apex} "),
    )
    stock_top = State(5).stock_cards[0]
    refused(
        CardError,
        f"{CARD_NAMES[stock_top]} appears twice on the board: waste card 1 and stock card 1",
        parse_board,
        text.replace("waste:", f"waste: {CARD_NAMES[stock_top]}"),
    )


def test_drawn_line_under_two_card():
    s = State(5, "two-card")
    text = format_board(s)
    assert "drawn: .." in text and parse_board(text, "two-card") == s
    refused(
        CardError, "must be one card", parse_board, text.replace("drawn: ..", "drawn:"), "two-card"
    )
    refused(
        CardError,
        "must be one card",
        parse_board,
        text.replace("drawn: ..", "drawn: .. Kd"),
        "two-card",
    )


def test_boards_that_no_play_under_the_rules_leaves_are_refused():
    # 002 turns one card onto the waste at the deal: a full stock needs a recycle first.
    text = opening_board("relaxed")
    refused(
        CardError,
        r"rules 'unlimited' the deal turns 1 card onto the waste, so before any recycle",
        parse_board,
        text,
        "unlimited",
    )
    assert parse_board(text.replace("recycles: 0", "recycles: 1"), "unlimited").recycles == 1
    # Draw-three turns three cards at a time: one card turned and nothing removed cannot be.
    s = State(5, "relaxed")
    one = text.replace("waste:", "waste: " + CARD_NAMES[s.stock_cards[0]]).replace(
        "stock: " + CARD_NAMES[s.stock_cards[0]] + " ", "stock: "
    )
    assert parse_board(one, "relaxed").waste_size == 1
    refused(
        CardError, "each draw turns 3 cards", parse_board, one, get_rules("relaxed", draw_count=3)
    )
    # With two stock cards removed, play could have left it: 3 turned, 2 of them removed since.
    fewer = one
    for c in s.stock_cards[1:3]:
        fewer = fewer.replace("stock: " + CARD_NAMES[c] + " ", "stock: ")
    parsed = parse_board(fewer, get_rules("relaxed", draw_count=3))
    assert format_board(parsed) == fewer and parsed.ptr % 3 == 0


def test_board_text_and_rules_of_the_wrong_type():
    refused(CardError, r"board 7 \(int\) must be board text", parse_board, 7)
    refused(RulesError, "unknown preset 'nope'", parse_board, opening_board(), "nope")
    refused(RulesError, r"rules=3 \(int\) must be a preset name", parse_board, opening_board(), 3)


# =============================================================================================
# 3. every Rules field is type-checked
# =============================================================================================
@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"covering_pair": "False"}, r"rule covering_pair='False' \(str\) must be True or False"),
        ({"covering_pair": 0}, r"covering_pair=0 \(int\) must be True or False"),
        ({"dead_deal_ends_game": None}, r"dead_deal_ends_game=None \(NoneType\)"),
        ({"passes": True}, r"rule passes=True \(bool\) must be an int in 1..255, or None"),
        ({"passes": 0}, r"rule passes=0 must be an int in 1..255, or None for unlimited passes"),
        ({"passes": 2.0}, r"passes=2\.0 \(float\)"),
        ({"passes": "3"}, r"passes='3' \(str\)"),
        ({"undo_limit": "5"}, r"rule undo_limit=.5. \(str\) must be an int in 0..1,000,000, or"),
        ({"undo_limit": -1}, r"undo_limit=-1 must be an int in 0..1,000,000"),
        ({"waste_start": 2}, r"rule waste_start=2 must be 0 or 1"),
        ({"waste_start": True}, r"waste_start=True \(bool\) must be the int 0 or 1"),
        ({"draw_count": 2}, r"rule draw_count=2 must be 1 or 3"),
        ({"stock_play": "waste top"}, r"stock_play='waste top' is not one of: waste-top, "),
        ({"goal": 1}, r"rule goal=1 \(int\) must be one of the strings: pyramid, all"),
        ({"undo_moves": Goal.ALL}, r"undo_moves=.*all.* is not one of: decrement, keep, count"),
        ({"scoring": 10}, r"rule scoring=10 \(int\) must be a Scoring or a dict of its fields"),
        ({"scoring": {"bonus": 1}}, r"unknown rule scoring field 'bonus'; known: pyramid_card"),
        ({"scoring": {"stock_card": 1.5}}, r"scoring\.stock_card=1\.5 \(float\) must be an int"),
        ({"scoring": {"win_bonus": "600"}}, r"scoring\.win_bonus='600' \(str\) must be a finite"),
        ({"scoring": {"win_bonus": float("nan")}}, r"scoring\.win_bonus=nan"),
        ({"name": ""}, r"rule name='' \(str\) must be a non-empty str"),
        ({"name": 5}, r"rule name=5 \(int\)"),
        ({"pases": 1}, r"unknown rule 'pases'; known: name, passes, covering_pair"),
    ],
)
def test_rule_knobs_of_the_wrong_type_or_value(knobs, message):
    refused(RulesError, message, get_rules, "msc", **knobs)
    refused(RulesError, message, Game, 0, "msc", **knobs)  # 8: constructors check the same
    refused(RulesError, message, Game.from_board, opening_board(), "relaxed", **knobs)
    if "pases" not in knobs and "name" not in knobs:
        refused(RulesError, message, Rules, name="mine", **knobs)


def test_numpy_values_are_accepted_and_normalised():
    r = get_rules(
        "relaxed",
        passes=np.int64(2),
        undo_limit=np.uint8(7),
        draw_count=np.int32(3),
        waste_start=np.int16(1),
        covering_pair=np.bool_(False),
        scoring={"stock_card": np.int64(3), "win_bonus": np.float32(1.5)},
    )
    assert (r.passes, r.undo_limit, r.draw_count, r.waste_start) == (2, 7, 3, 1)
    for value in (r.passes, r.undo_limit, r.draw_count, r.waste_start, r.scoring.stock_card):
        assert type(value) is int
    assert r.covering_pair is False and type(r.scoring.win_bonus) is float
    json.dumps(r.to_dict())  # numpy scalars would not serialise


def test_enum_strings_become_members():
    r = get_rules("relaxed", stock_play="face-up-stock", goal="all", undo_moves="count")
    assert r.stock_play is StockPlay.FACE_UP_STOCK and r.goal is Goal.ALL
    assert r.undo_moves is UndoMoves.COUNT


# =============================================================================================
# 4. Rules.from_dict: a preset's name means that preset, other dicts give every knob
# =============================================================================================
def test_a_save_naming_a_preset_is_that_preset():
    assert Rules.from_dict({"name": "msc"}) == PRESETS["msc"]  # was relaxed under msc's name
    assert Rules.from_dict({"name": "two-card", "passes": 1}) == get_rules("two-card", passes=1)
    assert Rules.from_dict({"name": "three-pass", "scoring": {"stock_card": 0}}).scoring == (
        Scoring(pyramid_card=10, win_bonus=600, win_per_move=2, win_per_second=0.5)
    )
    for r in [*PRESETS.values(), get_rules("msc", passes=1, goal="all"), Rules(name="mine")]:
        assert Rules.from_dict(r.to_dict()) == r
        assert Rules.from_dict(json.loads(json.dumps(r.to_dict()))) == r


def test_a_dict_not_naming_a_preset_must_give_every_knob():
    refused(
        RulesError,
        r"rules named 'mine' are not a preset .* every knob must be given; missing: "
        r"covering_pair, stock_play, waste_start, goal",
        Rules.from_dict,
        {"name": "mine", "passes": 1},
    )
    refused(RulesError, "missing: name, passes", Rules.from_dict, {})
    partial = Rules(name="mine").to_dict() | {"scoring": {"pyramid_card": 5}}
    refused(
        RulesError, "scoring must give every field; missing: stock_card", Rules.from_dict, partial
    )
    refused(RulesError, r"rules=\[\] \(list\) must be a dict", Rules.from_dict, [])
    refused(RulesError, "unknown rule 'extra'", Rules.from_dict, {"name": "msc", "extra": 1})


# =============================================================================================
# 5. changed presets say so in their name
# =============================================================================================
def test_overrides_show_in_the_name():
    assert get_rules("msc", passes=1).name == "msc passes=1"
    assert get_rules("msc", passes=3).name == "msc"  # the preset's own value: unchanged
    assert get_rules("msc", passes=3) == PRESETS["msc"]
    assert get_rules("relaxed", goal="all", draw_count=3).name == "relaxed goal=all draw_count=3"
    assert get_rules("one-pass", passes=None).name == "one-pass passes=unlimited"
    assert get_rules("three-pass", scoring={"win_bonus": 500}).name == (
        "three-pass scoring.win_bonus=500.0"
    )
    r = get_rules("msc", passes=1).replace(passes=3)
    assert r == PRESETS["msc"] and r.name == "msc"
    assert get_rules(get_rules("msc", passes=1), goal="all").name == "msc passes=1 goal=all"
    assert get_rules("msc", passes=1, name="my msc").name == "my msc"  # a name of one's own
    assert get_rules("msc", passes=1).describe() == (
        "msc passes=1: 1 pass, no covering pair, face-up-stock, clear pyramid, draw 1"
    )


def test_a_preset_name_on_other_rules_is_refused():
    refused(RulesError, r"rule name='msc' does not match the knobs", Rules, name="msc", passes=1)
    msc = PRESETS["msc"].to_dict()
    refused(
        RulesError,
        "they are 'msc passes=1'",
        Rules.from_dict,
        msc | {"name": "msc passes=2", "passes": 1},
    )
    assert Rules(**(msc | {"name": "msc variant", "passes": 1})).name == "msc variant"


def test_solver_labels_are_looked_up_only_for_unchanged_presets(monkeypatch):
    evaluation = pytest.importorskip("pyramid_env.evaluation")
    asked = []
    monkeypatch.setattr(evaluation, "labels", lambda preset: asked.append(preset) or {})
    for rules in (get_rules("msc"), get_rules("msc", passes=3), get_rules("msc", passes=1)):
        evaluation.solver_labels(rules, [])
    assert asked == ["msc", "msc"]
    for r in (get_rules("msc", passes=1), get_rules("two-card", goal="all")):
        assert r.name not in PRESETS  # so evaluate() reports it under its own name


# =============================================================================================
# 6. deal specs
# =============================================================================================
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
def test_bad_deal_specs(spec, message):
    refused(CardError, message, to_deal, spec)
    refused(CardError, message, Game, spec)


def test_numpy_deal_numbers_and_cards():
    assert to_deal(np.int64(7)) == deal(7) and to_deal(np.int64(7)).number == 7
    assert type(to_deal(np.uint64(MAX_DEAL)).number) is int
    cards = to_deal(np.array(deal(3).cards))
    assert cards == deal(3) and all(type(c) is int for c in cards.cards)
    assert Game(np.int64(7)).deal.number == 7


def test_a_deal_number_must_name_its_cards():
    refused(CardError, "deal number 4 does not match the cards", Deal, deal(3).cards, 4)
    refused(CardError, r"deal number True \(bool\)", Deal, deal(3).cards, True)
    assert Deal(deal(3).cards, np.int64(3)).number == 3


# =============================================================================================
# 7. saves
# =============================================================================================
def a_save(n=7, rules="two-card", moves=12):
    g = Game(n, rules)
    rng = random.Random(n)
    for i in range(moves):
        if not g.legal_moves():
            break
        g.play(rng.choice(g.legal_moves()))
        if i % 5 == 4:
            g.undo()
    return g, json.loads(json.dumps(g.to_dict()))


def test_a_save_whose_number_disagrees_with_its_cards_is_refused():
    g, data = a_save()
    refused(
        CardError,
        r"save field 'deal_number' is 8, but the saved deal 'P2-.*' is not deal #8",
        Game.from_dict,
        data | {"deal_number": 8},
    )
    # Right cards, no number: loads, as cards without a name.
    assert Game.from_dict(data | {"deal_number": None}).deal.number is None


@pytest.mark.parametrize(
    ("edit", "error", "message"),
    [
        (lambda d: [], CardError, r"save \[\] \(list\) must be a dict"),
        (lambda d: d | {"version": True}, CardError, "not a pyramid-env-save v1 save"),
        (lambda d: d | {"version": 2}, CardError, "version=2"),
        (lambda d: d | {"extra": 1}, CardError, r"save has unknown field\(s\) 'extra'"),
        (
            lambda d: {k: v for k, v in d.items() if k != "log"},
            CardError,
            r"missing field\(s\): log",
        ),
        (lambda d: d | {"deal": 7}, CardError, r"save field 'deal': 7 \(int\) must be a deal code"),
        (lambda d: d | {"deal": "7"}, CardError, r"deal numbers go in 'deal_number'"),
        (lambda d: d | {"deal": ""}, CardError, r"save field 'deal': deal '' is empty text"),
        (lambda d: d | {"deal": d["deal"][:-1] + "!"}, CardError, r"save field 'deal': bad deal"),
        (lambda d: d | {"deal_number": "7"}, CardError, r"deal_number': deal number '7' \(str\)"),
        (lambda d: d | {"deal_number": True}, CardError, r"deal number True \(bool\)"),
        (lambda d: d | {"rules": "msc"}, RulesError, r"save field 'rules': rules='msc' \(str\)"),
        (
            lambda d: d | {"rules": d["rules"] | {"passes": "3"}},
            RulesError,
            r"save field 'rules': rule passes='3' \(str\)",
        ),
        (lambda d: d | {"log": "draw"}, CardError, r"save field 'log' is 'draw' \(str\)"),
        (lambda d: d | {"log": ["draw", None]}, CardError, r"save log entry 1 is None"),
        (lambda d: d | {"log": ["draw", 1.0]}, CardError, r"save log entry 1 is 1\.0 \(float\)"),
        (lambda d: d | {"log": ["draw", True]}, CardError, r"save log entry 1 is True \(bool\)"),
        (lambda d: d | {"log": ["Zz"]}, CardError, r"save log entry 0 \('Zz'\): bad card 'Zz'"),
        (
            lambda d: d | {"log": [999]},
            IllegalMove,
            r"entry 0 \(999\): move id 999 is out of range",
        ),
        (lambda d: d | {"log": ["undo"]}, IllegalMove, r"entry 0 \('undo'\): nothing to undo"),
        (lambda d: d | {"board": 5}, CardError, r"save field 'board' is 5 \(int\)"),
        (lambda d: d | {"board": "x"}, CardError, r"save field 'board': a board has 7"),
    ],
)
def test_bad_save_fields_are_named(edit, error, message):
    _, data = a_save()
    refused(error, message, Game.from_dict, edit(data))


def test_board_saves_keep_deal_and_board_together():
    g = Game.from_board(opening_board("relaxed", 9).replace("recycles: 0", "recycles: 2"))
    g.play("draw")
    data = json.loads(json.dumps(g.to_dict()))
    assert Game.from_dict(data).to_dict() == data
    refused(
        CardError,
        "'deal' is not the deal of its board",
        Game.from_dict,
        data | {"deal": deal(1).code},
    )
    data_n = data | {"deal_number": 9}  # the board is deal 9's opening, but a board has no number
    refused(CardError, "a game started from a board has no deal number", Game.from_dict, data_n)


def test_log_ids_and_numpy_ids_replay_and_save_as_text():
    g, data = a_save(moves=8)
    ids = []
    replay = Game(7, "two-card")
    for entry in data["log"]:
        if entry == "undo":
            replay.undo()
            ids.append("undo")
        else:
            move = replay.play(entry)
            ids.append(int(move.id))
    h = Game.from_dict(data | {"log": ids})
    assert h.to_dict() == data and h.state == g.state
    h2 = Game(7, "two-card")
    for entry in ids:
        h2.undo() if entry == "undo" else h2.play(np.int64(entry))
    assert h2.state == g.state
    refused(IllegalMove, r"move True \(bool\) is not a move", Game(0).play, True)
    refused(IllegalMove, r"move 1\.0 \(float\) is not a move", Game(0).play, 1.0)


def test_moves_and_cards_of_the_wrong_type():
    s = State(0)
    assert apply_checked(s, np.int64(0)) and s.ptr == 1  # a numpy id draws
    refused(IllegalMove, r"move True \(bool\) is not a Move or a move id", apply_checked, s, True)
    refused(CardError, r"move 5 \(int\) must be text", parse_move, s, 5)
    refused(CardError, r"card 5 \(int\) must be text", parse_card, 5)
    refused(CardError, r"bad move 'Kd\+kd': the same card twice", parse_move, s, "Kd+kd")


def test_load_of_a_file_that_is_not_json(tmp_path):
    path = tmp_path / "save.json"
    path.write_text("{not json")
    refused(CardError, r"save file '.*save\.json' is not JSON", Game.load, path)
    path.write_bytes(b"\xff\xfe")
    refused(CardError, "is not JSON", Game.load, path)


# =============================================================================================
# Properties (Hypothesis): any input works and keeps the invariants, or is a PyramidError
# =============================================================================================
VARIANTS = rule_variants()

JUNK = [
    None, True, False, 0, 1, 2, 3, -1, 1.0, 0.5, float("nan"), "", "1", "True", "False", "x",
    "waste-top", "all", "keep", [], {}, (), b"1", np.int64(2), np.int64(-2), np.uint8(1),
    np.bool_(True), np.float64(1.0), object(),
]  # fmt: skip
GOOD = {
    "name": ["mine", "msc", "msc passes=1", "relaxed", "x y"],
    "passes": [None, 1, 2, 3, 7, np.int64(2), np.int32(1)],
    "covering_pair": [True, False, np.bool_(False)],
    "stock_play": [*StockPlay, *(e.value for e in StockPlay)],
    "waste_start": [0, 1, np.int64(1)],
    "goal": [*Goal, *(e.value for e in Goal)],
    "draw_count": [1, 3, np.int8(3)],
    "dead_deal_ends_game": [True, False],
    "scoring": [Scoring(), {}, {"stock_card": 4}, {"win_bonus": 1.5, "clear_bonus": 9}],
    "undo_limit": [None, 0, 5, np.uint16(100)],
    "undo_moves": [*UndoMoves, *(e.value for e in UndoMoves)],
}
INTS = (int, np.integer)


def knob_ok(knob, v):
    """The knob's documented contract, written independently of rules.py."""
    is_int = isinstance(v, INTS) and not isinstance(v, bool)
    is_bool = isinstance(v, (bool, np.bool_))
    if knob == "name":
        return isinstance(v, str) and bool(v.strip())
    if knob == "passes":
        return v is None or (is_int and v >= 1)
    if knob == "undo_limit":
        return v is None or (is_int and v >= 0)
    if knob in ("covering_pair", "dead_deal_ends_game"):
        return is_bool
    if knob == "waste_start":
        return is_int and v in (0, 1)
    if knob == "draw_count":
        return is_int and v in (1, 3)
    if knob in ("stock_play", "goal", "undo_moves"):
        enum = {"stock_play": StockPlay, "goal": Goal, "undo_moves": UndoMoves}[knob]
        return isinstance(v, str) and v in {e.value for e in enum}
    if knob == "scoring":
        if isinstance(v, Scoring):
            return True
        if not isinstance(v, dict) or set(v) - set(SCORING_FIELDS):
            return False
        for f, x in v.items():
            if f in ("pyramid_card", "stock_card", "clear_bonus"):
                if not (isinstance(x, INTS) and not isinstance(x, bool)):
                    return False
            elif isinstance(x, bool) or not isinstance(x, (int, float, np.number)):
                return False
            elif not np.isfinite(x):
                return False
        return True
    return False


rule_values = st.one_of(
    st.sampled_from(JUNK),
    st.integers(-3, 10),
    st.dictionaries(st.sampled_from([*SCORING_FIELDS, "bogus"]), st.sampled_from(JUNK), max_size=3),
)
overrides = st.dictionaries(
    st.sampled_from([*KNOBS, "pases", "Goal"]),
    st.one_of(rule_values, st.sampled_from([v for vs in GOOD.values() for v in vs])),
    max_size=4,
) | st.fixed_dictionaries(
    {}, optional={k: st.sampled_from(vs) for k, vs in GOOD.items() if k != "name"}
)


def _check_rule_overrides(preset, knobs):
    known = all(k in KNOBS for k in knobs)
    try:
        r = get_rules(preset, **knobs)
    except PyramidError as err:
        assert str(err)
        event("rules refused")
        if known and all(knob_ok(k, v) for k, v in knobs.items()):
            # Only the name may refuse a valid-looking value: a preset name on other knobs.
            assert "name" in knobs and re.search("does not match the knobs", str(err)), err
        return
    assert known and all(knob_ok(k, v) for k, v in knobs.items()), (knobs, r)
    event("rules accepted")
    for k, v in knobs.items():  # nothing replaced by something else
        if k == "scoring":
            expect = vars_of(v) if isinstance(v, Scoring) else vars_of(PRESETS[preset].scoring) | v
            assert vars_of(r.scoring) == expect
        else:
            assert getattr(r, k) == v
    for k in ("passes", "undo_limit", "waste_start", "draw_count"):
        value = getattr(r, k)
        assert value is None or type(value) is int
    assert type(r.covering_pair) is bool and type(r.dead_deal_ends_game) is bool
    assert all(type(getattr(r.scoring, f)) in (int, float) for f in SCORING_FIELDS)
    # A preset's name means exactly that preset; changes are spelt out after it.
    if r.name in PRESETS:
        assert r == PRESETS[r.name]
    elif "name" not in knobs:
        assert r.name.startswith(preset + " ")
    data = json.loads(json.dumps(r.to_dict()))
    assert Rules.from_dict(data) == r
    assert r.describe().startswith(r.name + ": ")


def vars_of(scoring):
    if isinstance(scoring, dict):
        return scoring
    return {f: getattr(scoring, f) for f in SCORING_FIELDS}


@FAST
@given(st.sampled_from(list(PRESETS)), overrides)
def test_any_rule_overrides_give_checked_rules_or_a_rules_error(preset, knobs):
    _check_rule_overrides(preset, knobs)


@pytest.mark.slow
@SLOW
@given(st.sampled_from(list(PRESETS)), overrides)
def test_any_rule_overrides_slow(preset, knobs):
    _check_rule_overrides(preset, knobs)


# -- boards ------------------------------------------------------------------------------------
@st.composite
def positions(draw):
    """A position reached by random play: a deal, a rule set, and up to 150 random moves."""
    rules = draw(st.sampled_from(VARIANTS))
    s = State(deal(draw(st.integers(0, MAX_DEAL))), rules)
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 150))):
        ids = legal_ids(s)
        if not ids:
            break
        apply(s, MOVES[rng.choice(ids)])
    return s


BAD_TOKENS = ["Zz", "??", "1", "Kdd", "X", "...", "face", "-", "K"]


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


# -- saves -------------------------------------------------------------------------------------
SAVE_JUNK = [None, True, 1.5, "x", "", [], {}, -1, 2**64, 3, "P1-", "undo", ["draw"]]


@st.composite
def saves(draw):
    if draw(st.integers(0, 3)) == 0:  # a game from a board: a reachable position of its own
        s = draw(positions())
        g = Game.from_board(format_board(s), s.rules)
    else:
        g = Game(draw(st.integers(0, MAX_DEAL)), draw(st.sampled_from(VARIANTS)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 40))):
        if g.legal_moves() and rng.random() < 0.85:
            g.play(rng.choice(g.legal_moves()))
        else:
            try:
                g.undo()
            except IllegalMove:
                pass
    return g


def mutate_save(draw, data):
    kind = draw(st.sampled_from([
        "none", "junk", "drop", "unknown", "deal_number", "deal", "log_entry", "log_append",
        "log_truncate", "rules_preset", "rules_knob", "rules_drop", "board_drop", "version",
    ]))  # fmt: skip
    out = dict(data)
    pick = lambda xs: draw(st.sampled_from(xs))  # noqa: E731
    if kind == "junk":
        out[pick(sorted(out))] = pick(SAVE_JUNK)
    elif kind == "drop":
        del out[pick(sorted(out))]
    elif kind == "unknown":
        out[pick(["extra", "Board", "seconds"])] = 1
    elif kind == "deal_number":
        n = data["deal_number"]
        out["deal_number"] = pick([None, True, 0, 7, (n or 0) + 1, np.uint64(n or 0), str(n)])
    elif kind == "deal":
        other = deal(draw(st.integers(0, 50)))
        out["deal"] = pick([other.code, other.text, list(other.cards), to_deal(data["deal"]).text,
                            list(to_deal(data["deal"]).cards), data["deal"].lower()])  # fmt: skip
    elif kind == "log_entry" and data["log"]:
        log = list(data["log"])
        log[draw(st.integers(0, len(log) - 1))] = pick(
            [*SAVE_JUNK, 0, 1, 326, 327, "draw", "recycle", "UNDO", "Kd", "Kd+Kd", "5d+8s"]
        )
        out["log"] = log
    elif kind == "log_append":
        out["log"] = [*data["log"], pick(["draw", "recycle", "undo", 0, 1, "Qs+Ac", "Kh"])]
    elif kind == "log_truncate":
        out["log"] = data["log"][: draw(st.integers(0, len(data["log"])))]
    elif kind == "rules_preset":
        out["rules"] = {"name": pick(list(PRESETS))}
    elif kind == "rules_knob":
        knob = pick(list(KNOBS))
        out["rules"] = data["rules"] | {knob: pick([*JUNK, *GOOD[knob]])}
    elif kind == "rules_drop":
        rules = dict(data["rules"])
        del rules[pick(sorted(rules))]
        out["rules"] = rules
    elif kind == "board_drop" and "board" in out:
        del out["board"]
    elif kind == "version":
        out["version"] = pick([0, 2, True, "1", 1.0])
    return kind, out


def same(a, b):
    """Equal and of the same types all the way down (``True == 1`` is not the same here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same, a, b))
    return a == b


def _check_save(data):
    g = data.draw(saves())
    saved = json.loads(json.dumps(g.to_dict()))
    kind, mutated = mutate_save(data.draw, saved)
    try:
        h = Game.from_dict(mutated)
    except PyramidError as err:
        assert str(err) and not same(mutated, saved), f"a valid save was refused: {err}"
        event(f"save refused: {type(err).__name__} ({kind})")
        return
    event(f"save loaded ({kind})")
    out = h.to_dict()
    assert json.loads(json.dumps(out)) == out
    if same(mutated, saved):
        assert out == saved and h.state == g.state and h.moves == g.moves
        return
    # Loaded from a changed save: what it says is what was loaded, never something else.
    assert out["deal"] == to_deal(mutated["deal"]).code
    assert out["deal_number"] == mutated["deal_number"]
    assert Rules.from_dict(out["rules"]) == Rules.from_dict(mutated["rules"])
    assert ("board" in out) == ("board" in mutated)
    # The log is what replaying its entries one by one gives (ids and other spellings of a
    # move are saved as the engine writes them); an untouched log is saved as it was.
    rules = Rules.from_dict(mutated["rules"])
    if "board" in mutated:
        ref = Game.from_board(mutated["board"], rules)
    else:
        ref = Game(Deal(to_deal(mutated["deal"]).cards, mutated["deal_number"]), rules)
    for entry in mutated["log"]:
        is_undo = isinstance(entry, str) and entry.strip().lower() == "undo"
        ref.undo() if is_undo else ref.play(entry)
    assert out["log"] == ref.log and h.state == ref.state and h.moves == ref.moves
    if mutated["log"] == saved["log"][: len(mutated["log"])]:
        assert out["log"] == mutated["log"]
    again = Game.from_dict(json.loads(json.dumps(out)))
    assert again.to_dict() == out and again.state == h.state and again.moves == h.moves
    check_conservation(h.state)


@FAST
@given(st.data())
def test_any_save_loads_to_itself_or_is_refused(data):
    _check_save(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_any_save_slow(data):
    _check_save(data)


# -- deal specs --------------------------------------------------------------------------------
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


def test_slot_count_is_what_the_board_tests_assume():
    assert SLOTS == 28 and len(CARD_NAMES) == 52
