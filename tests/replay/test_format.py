"""Replay files: the format, building one from games, saves and solver lines, and bad input
refused naming the field.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pyramid_env.engine import (
    MOVES,
    CardError,
    Game,
    IllegalMove,
    RulesError,
    State,
    apply_checked,
    is_won,
    parse_move,
)
from pyramid_env.engine.state import face_up
from pyramid_env.replay import Replay, open_replay
from pyramid_env.solver import solve
from tests.conftest import refused
from tests.replay.conftest import DEAL, RULES, WINNING_START

# -- the file ----------------------------------------------------------------------------------


def test_round_trip_through_dict_and_file(lost: Replay, tmp_path: Path) -> None:
    data = lost.to_dict()
    assert data["format"] == "pyramid-env-replay" and data["version"] == 1
    assert json.loads(json.dumps(data)) == data
    assert Replay.from_dict(data) == lost
    lost.save(tmp_path / "r.json")
    assert Replay.load(tmp_path / "r.json") == lost
    assert open_replay(tmp_path / "r.json") == lost
    masks = lost.seen_masks()
    with_seen = Replay(lost.deal, lost.rules, lost.moves, None, masks)
    assert Replay.from_dict(json.loads(json.dumps(with_seen.to_dict()))) == with_seen


def test_deal_and_moves_are_normalised() -> None:
    r = Replay(str(DEAL), RULES, ["6H+7s", "d"])
    assert r.deal == Game(DEAL).deal.code and r.deal.startswith("P2-")
    assert r.moves == ("7s+6h", "draw")
    assert r.rules.name == RULES


def test_positions_replay_the_moves(lost: Replay) -> None:
    states = list(lost.positions())
    assert len(states) == len(lost.moves) + 1
    assert states[0] == State(DEAL, RULES)
    s = State(DEAL, RULES)
    for text, after in zip(lost.moves, states[1:], strict=True):
        apply_checked(s, parse_move(s, text))
        assert after == s


def test_seen_defaults_to_the_cards_ever_face_up() -> None:
    r = Replay(DEAL, "msc", ("draw", "draw"))
    states = list(r.positions())
    want, seen = [], 0
    for s in states:
        seen |= face_up(s)
        want.append(seen)
    assert r.seen is None and r.seen_masks() == tuple(want)
    assert want[0] == 0b1 and want[2] == 0b111  # msc: the stock top lies face up


# -- building one ------------------------------------------------------------------------------


def test_from_game_without_undo(tmp_path: Path) -> None:
    g = Game(DEAL, RULES)
    for text in WINNING_START[:6]:
        g.play(text)
    r = Replay.from_game(g, agent="me")
    assert r.moves == tuple(g.log) and r.agent == "me" and r.seen is None
    assert list(r.positions())[-1].fields() == g.state.fields()
    g.save(tmp_path / "game.json")
    assert Replay.from_save(tmp_path / "game.json", agent="me") == r
    assert Replay.from_save(g.to_dict(), agent="me") == r
    assert open_replay(tmp_path / "game.json").moves == r.moves


def test_from_game_with_undo_keeps_the_standing_line_and_what_was_seen() -> None:
    g = Game(DEAL, RULES)
    g.play("draw")  # shows stock card 0...
    g.undo()  # ...and takes it back
    g.play(WINNING_START[0])
    g.play("draw")
    g.play("draw")  # shows stock card 1
    g.undo()
    assert "undo" in g.log
    r = Replay.from_game(g)
    assert r.moves == (WINNING_START[0], "draw")
    assert list(r.positions())[-1].fields() == g.state.fields()
    # Per position, what the player had seen when they played the move that stands: card 0
    # was peeked at before the first move; card 1 by the end.
    assert r.seen == (0b1, 0b1, 0b11)
    assert Replay(r.deal, r.rules, r.moves).seen_masks() == (0, 0, 0b1)  # without the peeks


def test_from_save_refuses_a_game_started_from_a_board() -> None:
    g = Game.from_board(str(State(DEAL, RULES).child(MOVES[0])), RULES)
    refused(Replay.from_game, g, error=CardError, match="'board'")


def test_from_solution_replays_to_a_win() -> None:
    sol = solve(DEAL, RULES)
    r = Replay.from_solution(DEAL, RULES, sol)
    assert r.moves == sol.line and r.agent == "solver"
    assert is_won(list(r.positions())[-1])
    assert set(r.seen_masks()) == {2**24 - 1}  # the solver reads the whole stock
    loss = solve(3, RULES)  # deal 3 cannot be won
    refused(Replay.from_solution, 3, RULES, loss, error=CardError, match="no winning line.*'loss'")


# -- bad input ---------------------------------------------------------------------------------

GOOD = {
    "format": "pyramid-env-replay",
    "version": 1,
    "deal": Game(DEAL).deal.code,
    "rules": {"name": RULES},
    "moves": ["7s+6h", "draw"],
}


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        ({"format": "pyramid-env-save"}, CardError, "format='pyramid-env-save'"),
        ({"version": 2}, CardError, "version=2"),
        ({"colour": "red"}, CardError, "unknown field(s) 'colour'"),
        ({"moves": None}, CardError, "field 'moves' is None"),
        ({"deal": 4}, CardError, "field 'deal' is 4 (int)"),
        ({"deal": "P1-nonsense"}, CardError, "field 'deal': "),
        ({"rules": "relaxed"}, CardError, "field 'rules' is 'relaxed' (str)"),
        ({"rules": {"name": RULES, "passes": 0}}, RulesError, "field 'rules': rule passes=0"),
        ({"moves": "draw"}, CardError, "field 'moves' is 'draw' (str)"),
        ({"moves": ["draw", 5]}, CardError, "field 'moves[1]' is 5 (int)"),
        ({"moves": ["draw", "Kd"]}, IllegalMove, "field 'moves', move 1 ('Kd'): "),
        ({"moves": ["draw", "Zz"]}, CardError, "field 'moves', move 1 ('Zz'): "),
        ({"agent": 7}, CardError, "field 'agent' is 7 (int)"),
        ({"seen": [0, 1]}, CardError, "field 'seen' has 2 mask(s): it needs one per position, 3"),
        ({"seen": [0, -1, 0]}, CardError, "field 'seen[1]' is -1 (int)"),
        ({"seen": [0, 2**24, 0]}, CardError, "field 'seen[1]' is 16777216 (int)"),
        ({"seen": [0, True, 0]}, CardError, "field 'seen[1]' is True (bool)"),
        ({"seen": "all"}, CardError, "field 'seen' is 'all' (str)"),
    ],
)
def test_bad_input_names_the_field_and_value(change, error, words) -> None:
    refused(Replay.from_dict, GOOD | change, error=error, match=re.escape(words))


def test_missing_fields_and_non_json_files(tmp_path: Path) -> None:
    no_moves = {k: v for k, v in GOOD.items() if k != "moves"}
    refused(Replay.from_dict, no_moves, error=CardError, match="missing field.*moves")
    refused(Replay.from_dict, ["not", "a", "dict"], error=CardError, match="must be a dict")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    refused(Replay.load, bad, error=CardError, match="not JSON")
    bad.write_text('{"format": "something-else"}')
    refused(open_replay, bad, error=CardError, match="format 'something-else'")
    assert Replay.from_dict(GOOD | {"agent": None, "seen": None}).agent is None
