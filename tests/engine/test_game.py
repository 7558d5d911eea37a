import json

import pytest

from pyramid_env.engine import DRAW, Game, IllegalMove, format_move
from tests.conftest import STUCK, board, refused


def test_play_accepts_moves_ids_and_text_and_refuses_bad_input():
    g = Game(0)
    assert g.play(DRAW) == DRAW and g.play(0) == DRAW and g.play("draw") == DRAW
    refused(g.play, 999, error=IllegalMove, match="move id 999 is out of range 0..326")
    refused(g.play, -1, error=IllegalMove, match="move id -1 is out of range")
    with pytest.raises(ValueError, match="bad card"):
        g.play("Xx")
    refused(Game(0).undo, error=IllegalMove, match="nothing to undo")


def test_restart_replays_the_identical_deal():
    g = Game(12, "two-card")
    opening = g.state.copy()
    for _ in range(10):
        g.play(g.legal_moves()[-1])
    g.restart()
    assert g.state == opening and g.moves == 0 and g.log == []


def test_save_and_load_restore_exactly(tmp_path):
    g = Game(33, "unlimited")
    for i in range(60):
        g.play(g.legal_moves()[i % len(g.legal_moves())])
        if i % 7 == 3:
            g.undo()
    path = tmp_path / "game.json"
    g.save(path)
    h = Game.load(path)
    assert h.state == g.state and h.moves == g.moves and h.log == g.log
    assert h.deal.number == 33 and h.rules == g.rules
    for _ in range(20):  # the undo stacks match too
        g.undo()
        h.undo()
        assert h.state == g.state and h.moves == g.moves


def test_save_of_a_hand_built_board_and_bad_saves(tmp_path):
    g = Game.from_board(STUCK + "stock: Jh 5c\n", "relaxed")
    g.play("draw")
    g.play("2c+Jh")
    h = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert h.state == g.state
    h.restart()
    assert h.state == board(STUCK + "stock: Jh 5c\n")
    with pytest.raises(ValueError, match="not a pyramid-env-save v1 save"):
        Game.from_dict({"format": "other"})
    bad = g.to_dict() | {"log": ["draw", "Kc"]}
    refused(
        Game.from_dict, bad, error=IllegalMove, match=r"save log entry 1 \('Kc'\): Kc is covered"
    )


def test_summary_and_text():
    g = Game(3, "two-card")
    text = str(g)
    assert "deal #3 · two-card · code P2-" in text and "stock: 24 face down" in text
    assert g.summary() == "playing · pass 1/3 · moves 0 · pyramid 28 left · score 0"


# -- 000's hint --
def hinted(text: str, rules: str = "relaxed") -> str | None:
    g = Game.from_board(text, rules)
    h = g.hint()
    assert h is None or h in g.legal_moves()
    return None if h is None else format_move(g.state, h)


def test_hint_prefers_pyramid_removals_then_the_most_exposing_then_lowest_id():
    text = STUCK.replace("2c  2d  2h", "2c  Jh  2h") + "stock:\nwaste: Kd\n"
    # 2c+Jh and Jh+2h each expose one card; Kd on the waste would shrink nothing.
    assert hinted(text) == "2c+Jh"


def test_hint_knows_covering_pairs():
    text = STUCK.replace("3d  3h  4c", "3d  ..  4c") + "stock:\n"
    assert hinted(text) == "Ts+3d"  # 3d is the last card on Ts


def test_hint_draws_only_toward_a_useful_card():
    assert hinted(STUCK + "stock: 5c 6c\n", "two-pass") is None  # nothing can ever help
    assert hinted(STUCK + "stock: 5c Jh\n", "two-pass") == "draw"  # Jh pairs with a 2
    assert hinted(STUCK + "stock:\nwaste: Jh 5c\n", "two-pass") == "recycle"
    assert hinted(STUCK + "stock: Jh\nwaste: Kd\n") == "draw"  # before a waste-only removal
    assert hinted(STUCK + "stock: 5c\nwaste: Kd\n") == "Kd"  # the last thing left to do
