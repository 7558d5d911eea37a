"""experiments/perfect_cue.py: the bound on what a cue could buy the guided search."""

import copy
import json

import numpy as np

from experiments import perfect_cue
from pyramid_env import deal
from pyramid_env.agents import CarefulAgent, Turn
from pyramid_env.agents.honest import all_seen, determinize, unseen
from pyramid_env.engine.moves import MOVES
from pyramid_env.engine.state import State, apply, face_up, legal_ids


def test_the_run_writes_both_agents_on_the_same_deals(tmp_path):
    rows = perfect_cue.main(["--seeds", "val[:3]", "--cue", "8", "--samples", "4", "0",
                             "--pimc", "4", "--workers", "1", "--out", str(tmp_path)])  # fmt: skip
    assert [(r["agent"], r["samples"]) for r in rows] == [
        ("perfect-cue", 4), ("perfect-cue", 0), ("pimc", 4)
    ]  # fmt: skip
    assert rows[0]["solver_wins"] == rows[2]["solver_wins"] <= 3
    for r in rows[:2]:
        assert 0 <= r["flagged"] <= r["decisions"] and r["decisions"] > 0
        assert 0 <= r["flagged_search_ms"] <= r["cpu_per_deal_ms"]
    assert rows[1]["flagged_search_ms"] == 0  # the cue's own move: no search of the agent's
    assert all(r["cpu_per_deal_ms"] > 0 and r["wins"] <= r["solver_wins"] for r in rows)
    assert json.loads((tmp_path / "msc.json").read_text()) == rows


def test_unflagged_decisions_get_the_heuristics_move_and_no_card_is_read():
    """Where the cue does not flag the decision the agent plays greedy-careful's move; and it
    chooses alike when the unseen cards are shuffled (the cue and the search are honest)."""
    agent, careful = perfect_cue.PerfectCueAgent(cue=6, samples=3), CarefulAgent()
    shuffler = np.random.default_rng(0)
    checked = unflagged = 0
    for n in range(3):
        s = State(deal(n), "msc")
        seen = face_up(s)
        for step in range(40):
            legal = legal_ids(s)
            if not legal:
                break
            turn = Turn(s, legal, seen & s.left)
            twin, flagged = copy.deepcopy(agent), agent.flagged
            action = agent.act(turn, np.random.default_rng([n, step]))
            if not all_seen(s, turn.known):
                if agent.flagged == flagged:
                    assert action == careful.preferences(turn)[0]
                    unflagged += 1
                places, cards = unseen(s, turn.known)
                other = determinize(s, places, cards, shuffler)
                again = twin.act(Turn(other, legal, turn.known), np.random.default_rng([n, step]))
                assert again == action
                checked += other.deal.cards != s.deal.cards
            apply(s, MOVES[action])
            seen |= face_up(s)
    assert checked > 20 and unflagged > 10
