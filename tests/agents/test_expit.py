"""Expert iteration's pieces: the counts observation, the guided search, its agent and games.

The search must be honest (a shuffle of the unseen cards changes nothing it reads, nor its
move), its targets must be what they claim (on a fully known position, exactly the moves after
which the solver still wins), and the recorded games must not depend on how deals are chunked.
"""

import copy

import numpy as np
import pytest

from pyramid_env import deal
from pyramid_env.agents import (
    CarefulAgent,
    ExpitPolicyAgent,
    ExpitSearchAgent,
    GreedyAgent,
    MLPPolicy,
    Turn,
    make_agent,
)
from pyramid_env.agents.expit import order_agent, record_games, search
from pyramid_env.agents.honest import determinize, unseen
from pyramid_env.engine.cards import RANK
from pyramid_env.engine.moves import MOVES, NUM_MOVES
from pyramid_env.engine.rules import get_rules
from pyramid_env.engine.state import State, apply, face_up, legal_ids
from pyramid_env.env import PyramidEnv
from pyramid_env.env import observation as ob
from pyramid_env.solver import Verdict, solve
from tests.conftest import play_turns, refused


def tiny_net(seed: int = 0, hidden: int = 16, scale: float = 1.0) -> MLPPolicy:
    rng = np.random.default_rng(seed)
    layers = [
        (rng.normal(0, 0.1, (ob.COUNTS_SIZE, hidden)), np.zeros(hidden)),
        (rng.normal(0, scale, (hidden, NUM_MOVES + 1)), np.zeros(NUM_MOVES + 1)),
    ]
    meta = {"obs_mode": "counts", "value_head": True, "rules": "msc"}
    return MLPPolicy(layers, "relu", meta)


def counts_obs(s: State, seen: int) -> np.ndarray:
    return ob.counts(ob.Encoder(s, False).encode(s, seen & s.left, with_unseen=True))


# -- the counts observation --------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["msc", "two-pass", "relaxed"])
def test_counts_form_counts_the_unseen_ranks_and_the_recycles_left(rules):
    env = PyramidEnv(rules, obs_mode="counts")
    rng = np.random.default_rng(0)
    for n in range(3):
        obs, _ = env.reset(options={"deal": n})
        for _ in range(80):
            assert obs.shape == (ob.COUNTS_SIZE,) and env.observation_space.contains(obs)
            s = env.state
            _, cards = unseen(s, env.known_stock())
            expect = np.bincount([RANK[c] for c in cards], minlength=14)[1:]
            assert np.array_equal(obs[ob.ONEHOT_SIZE : ob.ONEHOT_SIZE + 13] * 4, expect)
            left = s.recycles_left
            passes = obs[ob.ONEHOT_SIZE + 13 :]
            assert passes.sum() == 1 and passes[3 if left is None else min(left, 3)] == 1
            legal = env.legal_actions()
            if not legal:
                break
            obs, _, term, trunc, _ = env.step(int(rng.choice(legal)))
            if term or trunc:
                break
    full = PyramidEnv(rules, obs_mode="counts", observe_stock="full")
    obs, _ = full.reset(options={"deal": 1})
    assert not obs[ob.ONEHOT_SIZE : ob.ONEHOT_SIZE + 13].any()  # nothing is unseen


def test_counts_form_begins_with_the_onehot_form():
    """The counts form extends the one-hot form (the vector env's agreement with the single
    env, in this form too, is tests/env/test_vector.py's)."""
    single = PyramidEnv("msc", obs_mode="counts")
    onehot = PyramidEnv("msc", obs_mode="onehot")
    a, _ = single.reset(options={"deal": 7})
    b, _ = onehot.reset(options={"deal": 7})
    assert np.array_equal(a[: ob.ONEHOT_SIZE], b)


def test_counts_form_is_blind_to_the_unseen_order():
    s = State(deal(3), "msc")
    seen = face_up(s)
    for step in range(30):
        places, cards = unseen(s, seen & s.left)
        other = determinize(s, places, cards, np.random.default_rng(step))
        assert np.array_equal(counts_obs(s, seen), counts_obs(other, seen))
        legal = legal_ids(s)
        apply(s, MOVES[legal[step % len(legal)]])
        seen |= face_up(s)


# -- the value head -----------------------------------------------------------------------------
def test_value_head_is_split_from_the_logits_and_survives_save(tmp_path):
    net = tiny_net()
    x = np.random.default_rng(0).random(ob.COUNTS_SIZE).astype(np.float32)
    logits, value = net.logits(x), net.value(x)
    assert logits.shape == (NUM_MOVES,) and 0 < value < 1
    assert np.allclose(net.forward(x), [*logits, np.log(value / (1 - value))], atol=1e-4)
    net.save(tmp_path / "n.npz")
    again = MLPPolicy.load(tmp_path / "n.npz")
    assert np.allclose(again.logits(x), logits, atol=1e-5)
    plain = MLPPolicy(net.layers, "relu", {"obs_mode": "counts"})
    assert plain.logits(x).shape == (NUM_MOVES + 1,)
    with pytest.raises(Exception, match="no value head"):
        plain.value(x)
    with pytest.raises(Exception, match="value head"):
        ExpitSearchAgent(plain)


# -- the search --------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["msc", "two-pass"])
def test_search_on_a_known_position_targets_exactly_the_winning_moves(rules):
    checked = 0
    winnable = [n for n in range(40) if solve(State(deal(n), rules)).status is Verdict.WIN]
    for n in winnable[:5]:
        s = State(deal(n), rules)
        rng = np.random.default_rng(n)
        for _ in range(40):
            legal = legal_ids(s)
            if len(legal) < 2:
                if not legal:
                    break
                apply(s, MOVES[legal[0]])
                continue
            res = search(s, s.left, legal, 1, None, rng, ties=True)
            winning = []
            for a in legal:
                child = s.copy()
                apply(child, MOVES[a])
                if solve(child, check=False).status is Verdict.WIN:
                    winning.append(a)
            assert sorted(res.best()) == sorted(winning), (n, legal)
            if winning:
                assert res.action == next(a for a in legal if a in winning)
                checked += 1
            keep = winning and rng.random() < 0.8  # mostly stay on winnable positions
            apply(s, MOVES[res.action if keep else int(rng.choice(legal))])
    assert checked > 30


def test_search_ties_and_play_agree_on_the_move():
    s = State(deal(2), "two-pass")
    known = face_up(s)
    legal = legal_ids(s)
    full = search(s, known, legal, 8, 30_000, np.random.default_rng(0), ties=True)
    quick = search(s, known, legal, 8, 30_000, np.random.default_rng(0))
    assert quick.action == full.action and full.action in full.best()
    assert quick.solves <= full.solves
    assert set(full.best()) <= set(full.complete) and set(full.wins) == set(legal)


# -- the agent ---------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["msc", "two-pass"])
def test_expit_search_never_reads_an_unseen_card(rules):
    """As the honest agents' test: the same position with its unseen cards shuffled (same
    observation, same generator) must get the same move, searched or not."""
    agents = [
        ExpitSearchAgent(tiny_net(), samples=3, budget=3_000, top_k=2, margin=1.1),
        ExpitSearchAgent(tiny_net(1), samples=3, budget=3_000, top_k=0, margin=0.1, hopeless=0.3),
        ExpitPolicyAgent(tiny_net(2)),
    ]
    shuffler = np.random.default_rng(0)
    checked = 0
    for agent in agents:
        for n in range(2):
            s = State(deal(n), rules)
            seen = face_up(s)
            for step in range(40):
                legal = legal_ids(s)
                if not legal:
                    break
                places, cards = unseen(s, seen & s.left)
                twin = copy.deepcopy(agent)
                turn = Turn(s, legal, seen & s.left, counts_obs(s, seen))
                action = agent.act(turn, np.random.default_rng([n, step]))
                if places:
                    other = determinize(s, places, cards, shuffler)
                    turn2 = Turn(other, legal, seen & s.left, counts_obs(other, seen))
                    assert twin.act(turn2, np.random.default_rng([n, step])) == action
                    checked += other.deal.cards != s.deal.cards
                apply(s, MOVES[action])
                seen |= face_up(s)
    assert checked > 20


def test_expit_search_gives_up_where_the_value_head_says_so(monkeypatch):
    """Where the value head's chance is below ``hopeless`` no solver call is made while cards
    are hidden: greedy's move is played."""
    import pyramid_env.agents.expit as expit

    agent = ExpitSearchAgent(tiny_net(2), samples=4, hopeless=1.01)
    greedy = GreedyAgent()
    monkeypatch.setattr(expit, "search", lambda *a, **k: pytest.fail("searched"))
    env = PyramidEnv("msc", obs_mode="counts")
    obs, _ = env.reset(options={"deal": 5})
    for _ in range(10):
        turn = Turn(env.state, env.legal_actions(), env.known_stock(), obs)
        move = agent.act(turn, np.random.default_rng(0))
        assert move == greedy.act(turn, np.random.default_rng(0))
        obs, *_ = env.step(move)


def test_expit_search_looks_again_where_contested():
    """A first look that finds a move better than greedy's is followed by a bigger one: the
    agent then plays what the bigger search alone would (same generator)."""
    net = tiny_net(4)
    cheap = ExpitSearchAgent(net, samples=2, more=12, top_k=0, margin=2.0)
    greedy = GreedyAgent()
    env = PyramidEnv("two-pass", obs_mode="counts")
    looked = 0
    for n in range(40):
        if looked >= 2:
            break
        obs, _ = env.reset(options={"deal": n})
        for step in range(30):
            legal = env.legal_actions()
            if not legal or env.known_stock() & env.state.left == env.state.left:
                break
            turn = Turn(env.state, legal, env.known_stock(), obs)
            prefs = greedy.preferences(turn)
            kings = [a for a in turn.removals if MOVES[a].kind.name == "KING"]
            move = cheap.act(turn, np.random.default_rng([n, step]))
            if len(legal) > 1 and not kings:
                rng = np.random.default_rng([n, step])
                first = search(env.state, turn.known, prefs, 2, 30_000, rng)
                if first.action != prefs[0]:
                    second = search(env.state, turn.known, prefs, 12, 30_000, rng)
                    assert move == second.action
                    looked += 1
                else:
                    assert move == prefs[0]
            obs, _, term, trunc, _ = env.step(move)
            if term or trunc:
                break
    assert looked > 0


def test_policy_agent_breaks_the_networks_ties_in_greedys_order():
    """A network that rates every move alike (zero output) plays greedy's move; a network with
    its own opinion overrules greedy."""
    silent = tiny_net(3, scale=0.0)
    loud = tiny_net(3, scale=50.0)
    greedy = GreedyAgent()
    differ = []

    def choose(turn: Turn) -> int:
        rng = np.random.default_rng(0)
        move = greedy.act(turn, rng)
        assert ExpitPolicyAgent(silent).act(turn, rng) == move
        differ.append(ExpitPolicyAgent(loud).act(turn, rng) != move)
        return move

    assert play_turns(PyramidEnv("msc", obs_mode="counts"), range(3), 40, choose) > 0
    assert any(differ)


def test_the_order_a_network_was_trained_with_is_the_one_it_plays_with():
    """A network records the heuristic whose order its search followed (``order``); both its
    agents break ties in that order, and a silent network plays that heuristic's move. An
    unknown order is refused, naming the known ones."""
    net = tiny_net(3, scale=0.0)
    careful = MLPPolicy(net.layers, "relu", net.meta | {"order": "greedy-careful"})
    assert type(ExpitPolicyAgent(careful).greedy) is CarefulAgent
    assert type(ExpitSearchAgent(careful).greedy) is CarefulAgent
    assert type(ExpitPolicyAgent(net).greedy) is GreedyAgent  # the first networks': no key
    differ = []

    def choose(turn: Turn) -> int:
        move = ExpitPolicyAgent(careful).act(turn, None)
        assert move == CarefulAgent().act(turn, None)
        differ.append(move != GreedyAgent().act(turn, None))
        return move

    assert play_turns(PyramidEnv("msc", obs_mode="counts"), range(2000, 2010), 60, choose) > 0
    assert any(differ)
    refused(order_agent, "greedier", match="order 'greedier' is not one of greedy, greedy-c")
    (game,) = record_games([2000], get_rules("msc"), None, 2, 5_000, seed=3,
                           order="greedy-careful")  # fmt: skip
    assert game["actions"]


def test_shipped_search_file_becomes_the_search_agent(tmp_path):
    net = tiny_net()
    searcher = MLPPolicy(net.layers, "relu", net.meta | {"kind": "expit-search",
                         "search": {"samples": 5, "top_k": 2}})  # fmt: skip
    searcher.save(tmp_path / "s.npz")
    agent = make_agent(str(tmp_path / "s.npz"))
    assert isinstance(agent, ExpitSearchAgent)
    assert (agent.samples, agent.top_k, agent.name) == (5, 2, "s")
    assert make_agent(str(tmp_path / "s.npz"), samples=7).samples == 7
    assert agent.env_kwargs == {"obs_mode": "counts"}
    MLPPolicy(net.layers, "relu", net.meta | {"kind": "expit"}).save(tmp_path / "p.npz")
    assert isinstance(make_agent(str(tmp_path / "p.npz")), ExpitPolicyAgent)


# -- the recorded games ------------------------------------------------------------------------
def test_record_games_are_deterministic_whatever_the_chunks(tmp_path):
    net = tiny_net()
    net.save(tmp_path / "n.npz")
    rules = get_rules("msc")
    both = record_games([11, 12], rules, str(tmp_path / "n.npz"), 4, 5_000, seed=3, round_=1)
    alone = record_games([12], rules, str(tmp_path / "n.npz"), 4, 5_000, seed=3, round_=1)
    strip = [{k: v for k, v in g.items() if k != "cpu"} for g in (both[1], alone[0])]
    assert strip[0] == strip[1]
    env = PyramidEnv(rules)
    for n, game in zip([11, 12], both, strict=True):
        env.reset(options={"deal": n})
        assert len(game["actions"]) == len(game["q"]) == len(game["values"]) > 0
        steps = zip(game["actions"], game["q"], game["values"], strict=True)
        for action, q, value in steps:
            legal = env.legal_actions()
            assert action in legal and {a for a, _ in q} <= set(legal)
            assert value is None or (0 <= value <= 1 and all(0 <= x <= value for _, x in q))
            assert (value is None) == (len(legal) == 1 or any(MOVES[a].kind.name == "KING"
                                                                for a in legal))  # fmt: skip
            *_, term, trunc, info = env.step(action)
        assert game["won"] == info["won"]
    first = record_games([11], rules, None, 4, 5_000, seed=3)  # round 0: greedy's order
    assert first[0]["actions"]
    # top_k=1: the search examines greedy's move and the network's best alone, so plays one of
    # them; learner=1: the network's favourite is played whatever the search found.
    (pruned,) = record_games([11], rules, str(tmp_path / "n.npz"), 4, 5_000, seed=3, top_k=1)
    (led,) = record_games([11], rules, str(tmp_path / "n.npz"), 4, 5_000, seed=3, learner=1.0)
    greedy = GreedyAgent()
    differ = 0
    for game in (pruned, led):
        env = PyramidEnv(rules, obs_mode="counts")
        obs, _ = env.reset(options={"deal": 11})
        for action, q, value in zip(game["actions"], game["q"], game["values"], strict=True):
            if value is not None:
                turn = Turn(env.state, env.legal_actions(), env.known_stock(), obs)
                if game is led:
                    assert action == ExpitPolicyAgent(net).act(turn, np.random.default_rng(0))
                    differ += dict(q).get(action, -1) < max(x for _, x in q)
                else:
                    best = max(turn.legal, key=lambda a: net.logits(obs)[a])
                    assert action in (greedy.preferences(turn)[0], best)
                    assert {a for a, _ in q} <= {greedy.preferences(turn)[0], best}
            obs, *_ = env.step(action)
    assert differ > 0  # the network played a move the search counted worse, somewhere
