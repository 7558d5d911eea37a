"""Saves: a save loads to the same game, a changed save loads as exactly what it says or is refused
naming the field, moves replay from ids or text, a board game keeps its deal and board together.
The ``slow``-marked twins run the properties with many more examples (``pytest -m
slow``).
"""

import json
import random

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from pyramid_env.engine import (
    PRESETS,
    CardError,
    Deal,
    Game,
    IllegalMove,
    PyramidError,
    Rules,
    RulesError,
    State,
    apply_checked,
    deal,
    format_board,
    parse_move,
    to_deal,
)
from pyramid_env.engine.cards import parse_card
from pyramid_env.engine.deal import MAX_DEAL
from pyramid_env.engine.invariants import check_conservation
from pyramid_env.engine.rules import KNOBS
from tests.conftest import refused
from tests.engine.input_strategies import (
    FAST,
    GOOD_KNOBS,
    JUNK,
    SLOW,
    VARIANTS,
    opening_board,
    positions,
)


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
        Game.from_dict,
        data | {"deal_number": 8},
        error=CardError,
        match=r"save field 'deal_number' is 8, but the saved deal 'P2-.*' is not deal #8",
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
    refused(Game.from_dict, edit(data), error=error, match=message)


def test_board_saves_keep_deal_and_board_together():
    g = Game.from_board(opening_board("relaxed", 9).replace("recycles: 0", "recycles: 2"))
    g.play("draw")
    data = json.loads(json.dumps(g.to_dict()))
    assert Game.from_dict(data).to_dict() == data
    refused(
        Game.from_dict,
        data | {"deal": deal(1).code},
        error=CardError,
        match="'deal' is not the deal of its board",
    )
    data_n = data | {"deal_number": 9}  # the board is deal 9's opening, but a board has no number
    refused(
        Game.from_dict,
        data_n,
        error=CardError,
        match="a game started from a board has no deal number",
    )


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
    refused(Game(0).play, True, error=IllegalMove, match=r"move True \(bool\) is not a move")
    refused(Game(0).play, 1.0, error=IllegalMove, match=r"move 1\.0 \(float\) is not a move")


def test_moves_and_cards_of_the_wrong_type_are_refused():
    s = State(0)
    assert apply_checked(s, np.int64(0)) and s.ptr == 1  # a numpy id draws
    refused(
        apply_checked,
        s,
        True,
        error=IllegalMove,
        match=r"move True \(bool\) is not a Move or a move id",
    )
    refused(parse_move, s, 5, error=CardError, match=r"move 5 \(int\) must be text")
    refused(parse_card, 5, error=CardError, match=r"card 5 \(int\) must be text")
    refused(
        parse_move, s, "Kd+kd", error=CardError, match=r"bad move 'Kd\+kd': the same card twice"
    )


def test_load_of_a_file_that_is_not_json(tmp_path):
    path = tmp_path / "save.json"
    path.write_text("{not json")
    refused(Game.load, path, error=CardError, match=r"save file '.*save\.json' is not JSON")
    path.write_bytes(b"\xff\xfe")
    refused(Game.load, path, error=CardError, match="is not JSON")


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
        out["rules"] = data["rules"] | {knob: pick([*JUNK, *GOOD_KNOBS[knob]])}
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
