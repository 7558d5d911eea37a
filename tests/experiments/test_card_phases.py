"""load_data's phases: the positions with a card unseen, and those with every card seen."""

import numpy as np
import pytest

from experiments import card_data
from pyramid_env.agents.honest import all_seen
from pyramid_env.engine.rules import get_rules
from pyramid_env.env import PyramidEnv
from pyramid_env.lab.card_data import load_data


def test_a_phase_keeps_the_positions_with_a_card_unseen_or_with_every_card_seen(tmp_path):
    """``--phase``: the two phases split the positions, and 'known' is where nothing is unseen,
    checked against the engine's own view of the game (every stock card seen)."""
    rules = get_rules("msc")
    deals = [1_000_030, 1_000_031]
    games = [card_data.label_game(rules, 0.1, 0, n) for n in deals]
    data = card_data.replay(rules, deals, games)
    np.savez_compressed(tmp_path / "d.npz", rules=np.array("msc"), **data)
    expected = []
    for n, game in zip(deals, games, strict=True):
        env = PyramidEnv(rules, obs_mode="counts")
        env.reset(options={"deal": n})
        labelled = set(game["steps"])
        for step, action in enumerate(game["actions"]):
            if step in labelled:
                expected.append(all_seen(env.state, env.known_stock()))
            env.step(action)
    expected = np.array(expected)
    assert expected.any() and not expected.all()  # both phases are in these games
    whole = load_data([tmp_path / "d.npz"], None)
    known = load_data([tmp_path / "d.npz"], None, phase="known")
    hidden = load_data([tmp_path / "d.npz"], None, phase="hidden")
    assert len(known["teacher"]) == expected.sum()
    assert len(hidden["teacher"]) == (~expected).sum()
    assert (known["obs"] == whole["obs"][expected]).all()
    assert (hidden["teacher"] == whole["teacher"][~expected]).all()
    with pytest.raises(ValueError, match="phase 'endgame'"):
        load_data([tmp_path / "d.npz"], None, phase="endgame")
