"""The free-stock lookahead agents: legal, fair with the stock, and stronger than greedy."""

import numpy as np
import pytest

from pyramid_env import deal, evaluate
from pyramid_env.agents import LookaheadAgent, Turn, make_agent
from pyramid_env.agents.lookahead import FEATURES, abstract_moves, features, features_batch
from pyramid_env.engine.layout import SHAPES
from pyramid_env.engine.moves import MOVES
from pyramid_env.engine.state import State, apply, legal_ids
from pyramid_env.solver import DealTables
from tests.agents.test_agents import swap_unseen

NAMES = ["lookahead", "value-relaxed"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("preset", ["relaxed", "unlimited"])
def test_lookahead_agents_play_legal_moves_to_the_end(name, preset):
    report = evaluate(name, rules=preset, seeds="val[:8]")  # raises on an illegal action
    for e in report.episodes:
        assert e.won == (e.pyramid_left == 0) and not e.truncated
        assert not e.won or e.solver_won


@pytest.mark.parametrize("name", NAMES)
def test_lookahead_agents_do_not_peek_at_unseen_stock_order(name):
    agent = make_agent(name)
    for n in range(8):
        a, b = State(deal(n), "relaxed"), State(swap_unseen(n, 22, 23), "relaxed")
        for step in range(300):
            if a.ptr >= 22 or a.recycles or not legal_ids(a):
                break
            rng = np.random.default_rng(step)
            move_a = agent.act(Turn(a, legal_ids(a), a.left & ((1 << a.ptr) - 1)), rng)
            move_b = agent.act(Turn(b, legal_ids(b), b.left & ((1 << b.ptr) - 1)), rng)
            assert move_a == move_b, (name, n, step)
            apply(a, MOVES[move_a])
            apply(b, MOVES[move_b])


def test_lookahead_refuses_rules_where_the_stock_order_matters():
    agent = LookaheadAgent()
    s = State(5, "msc")
    with pytest.raises(ValueError, match="free-stock rules only.*msc"):
        agent.act(Turn.from_state(s), np.random.default_rng(0))
    with pytest.raises(ValueError, match="depth"):
        LookaheadAgent(depth=0)
    assert LookaheadAgent.supports(State(0, "unlimited").rules)


def test_lookahead_beats_greedy_on_val():
    deals = "val[:200]"
    greedy = evaluate("greedy", seeds=deals).summary()["wins"]
    assert evaluate(LookaheadAgent(depth=1), seeds=deals).summary()["wins"] > greedy


def test_features_of_one_and_of_a_batch_agree():
    rng = np.random.default_rng(0)
    s = State(11, "relaxed")
    tables = DealTables(s)
    pyrs, counts = [], []
    pyr, c = s.pyr, tables.stock_counts(s.left)
    while pyr:  # a random walk down the abstract game
        moves = abstract_moves(pyr, tables.prank, c, True)
        if not moves:
            break
        pyr, q, _, _ = moves[int(rng.integers(len(moves)))]
        c = list(c)
        c[q] -= bool(q)
        pyrs.append(pyr)
        counts.append(c)
    batch = features_batch(pyrs, tables.prank, counts)
    assert batch.shape == (len(pyrs), FEATURES) and len(pyrs) > 5
    for k, (p, cc) in enumerate(zip(pyrs, counts, strict=True)):
        one = features(p, tables.prank, cc)
        assert np.array_equal(one, batch[k])
        exposed = one[28 + 28 * 13 : 28 + 28 * 13 + 28]
        assert np.flatnonzero(exposed).tolist() == list(SHAPES[p].exposed)
