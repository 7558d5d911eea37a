"""Agents: legal play on every preset, no peeking at the stock, the protocol from the engine."""

import numpy as np
import pytest

from pyramid_env import PRESETS, Game, deal, evaluate, is_won
from pyramid_env.agents import BASELINES, ORACLES, MLPPolicy, PolicyAgent, Turn, make_agent
from pyramid_env.agents.oracle import SolverAgent
from pyramid_env.engine.deal import Deal
from pyramid_env.engine.moves import MOVES
from pyramid_env.engine.notation import format_move
from pyramid_env.engine.state import State, apply, legal_ids
from pyramid_env.env.observation import ONEHOT_SIZE
from pyramid_env.seeds import labels
from pyramid_env.solver.tables import DealTables
from tests.conftest import fixture_board

AGENTS = [*BASELINES, *ORACLES]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_agent_plays_only_legal_moves_to_the_end_on_every_preset(preset):
    for name in AGENTS:
        report = evaluate(name, rules=preset, seeds="val[:6]")  # raises on an illegal action
        for e in report.episodes:
            assert e.won == (e.pyramid_left == 0)
            assert e.steps == e.moves > 0
            # only `random` may skip every removal for two whole passes (the idle-pass limit)
            assert not e.truncated or name == "random", (name, preset, e)


@pytest.mark.parametrize(
    ("preset", "name"),
    [
        ("relaxed", "solver"),
        ("msc", "solver"),
        ("three-pass", "solver"),
        ("relaxed", "solver-greedy"),
        ("msc", "solver-greedy"),
    ],
)  # solver-greedy asks the solver about each candidate move: slow where losses are slow
def test_oracles_win_exactly_the_deals_the_labels_call_winnable(preset, name):
    report = evaluate(name, rules=preset, seeds="test[:30]")
    assert all(e.won == e.solver_won for e in report.episodes)
    assert 0 < sum(e.won for e in report.episodes) < 30


def test_solver_greedy_plays_greedy_while_that_keeps_the_deal_winnable():
    # On a deal greedy itself wins, every greedy move keeps it winnable: the two play alike.
    greedy = evaluate("greedy", seeds="val[:30]").episodes
    teacher = evaluate("solver-greedy", seeds="val[:30]").episodes
    for g, t in zip(greedy, teacher, strict=True):
        if g.won:
            assert t.won and t.moves == g.moves


def swap_unseen(n: int, i: int, j: int) -> Deal:
    cards = list(deal(n).cards)
    cards[28 + i], cards[28 + j] = cards[28 + j], cards[28 + i]
    return Deal(tuple(cards))


def assert_plays_alike_until_seen(agent, rules: str, deals: range, steps: int = 300) -> None:
    """Two deals differing only in the order of the last two stock cards: until one of them is
    turned face up, an agent that reads only what a player may know plays the same moves."""
    for n in deals:
        a, b = State(deal(n), rules), State(swap_unseen(n, 22, 23), rules)
        for step in range(steps):
            if a.ptr >= 22 or a.recycles or not legal_ids(a):
                break
            rng_a, rng_b = np.random.default_rng([1, step]), np.random.default_rng([1, step])
            move_a = agent.act(Turn(a, legal_ids(a), a.left & ((1 << a.ptr) - 1)), rng_a)
            move_b = agent.act(Turn(b, legal_ids(b), b.left & ((1 << b.ptr) - 1)), rng_b)
            assert move_a == move_b, (agent.name, n, step)
            apply(a, MOVES[move_a])
            apply(b, MOVES[move_b])


@pytest.mark.parametrize("name", [*BASELINES])
def test_baselines_do_not_peek_at_unseen_stock_order(name):
    assert_plays_alike_until_seen(make_agent(name), "one-pass", range(30))


def test_agents_play_a_game_straight_from_the_engine():
    # The protocol without the env: Turn.from_state on a Game's position.
    assert labels("relaxed")[1].won  # deal 1 is winnable under relaxed
    game = Game(1, "relaxed")
    agent, rng = SolverAgent(), np.random.default_rng(0)
    while legal_ids(game.state):
        game.play(agent.act(Turn.from_state(game.state), rng))
    assert is_won(game.state)


def test_solver_agent_resolves_from_a_position_off_its_line():
    game = Game(12, "msc")
    game.play("draw")
    agent = SolverAgent()
    first = agent.act(Turn.from_state(game.state), np.random.default_rng(0))
    game.undo()  # the position changes under the agent: it must solve again, not replay
    second = agent.act(Turn.from_state(game.state), np.random.default_rng(0))
    assert second in legal_ids(game.state) and first in range(327)


def test_careful_agent_plays_greedy_unless_greedys_move_is_doomed():
    """It plays greedy's move unless the tests call the position after it lost, and then a
    move they do not, if there is one."""
    careful, greedy = make_agent("greedy-careful"), make_agent("greedy")
    overruled = 0
    for rules in ("msc", "relaxed"):
        for n in range(2000, 2030):
            s = State(deal(n), rules)
            tables = DealTables(s)
            for _ in range(200):
                if not (legal := legal_ids(s)):
                    break
                turn = Turn(s, legal, s.left)
                move, first = careful.act(turn, None), greedy.act(turn, None)

                def doomed(a, s=s, tables=tables):
                    after = s.child(MOVES[a])
                    return tables.doomed(after.pyr, tables.stock_counts(tables.reachable(after)))

                if not doomed(first):
                    assert move == first
                else:
                    overruled += 1
                    assert not doomed(move) or all(doomed(a) for a in legal)
                apply(s, MOVES[move])
    assert overruled > 10


def test_careful_agent_keeps_the_queen_greedy_spends():
    s = fixture_board("msc_aces_queens.txt", "msc")
    turn = Turn(s, legal_ids(s), s.left)
    assert format_move(s, MOVES[make_agent("greedy").act(turn, None)]) == "Ah+Qd"
    assert format_move(s, MOVES[make_agent("greedy-careful").act(turn, None)]) != "Ah+Qd"


def test_careful_agent_beats_greedy_on_val():
    for rules in ("msc", "relaxed"):
        greedy = evaluate("greedy", rules, "val[:200]").summary()["wins"]
        assert evaluate("greedy-careful", rules, "val[:200]").summary()["wins"] > greedy + 10


def test_greedy_agent_beats_the_naive_ones_on_val():
    deals = "val[:200]"
    greedy = evaluate("greedy", seeds=deals).summary()["wins"]
    assert greedy > evaluate("first-removal", seeds=deals).summary()["wins"]
    assert greedy > evaluate("random", seeds=deals).summary()["wins"]


def test_unknown_agent_and_bad_weights_are_named():
    with pytest.raises(ValueError, match="unknown agent 'gredy'.*greedy"):
        make_agent("gredy")
    with pytest.raises(ValueError, match="unknown greedy weights \\['kings'\\]"):
        make_agent("greedy", weights={"kings": 1.0})


def random_mlp(seed=0, obs=ONEHOT_SIZE):
    rng = np.random.default_rng(seed)
    sizes = [obs, 16, 16, 327]
    layers = [
        (rng.normal(size=(a, b)), rng.normal(size=b))
        for a, b in zip(sizes, sizes[1:], strict=False)
    ]
    return MLPPolicy(layers, "tanh", {"obs_mode": "onehot", "rules": "relaxed"})


def test_policy_agent_always_applies_the_mask(tmp_path):
    # A random network prefers illegal actions almost everywhere: the mask must stop it.
    agent = PolicyAgent(random_mlp(), name="mlp")
    report = evaluate(agent, seeds="val[:10]")
    assert all(e.steps > 0 for e in report.episodes)
    path = tmp_path / "mlp.npz"
    agent.policy.save(path)
    again = make_agent(str(path))
    obs = np.random.default_rng(1).random(ONEHOT_SIZE).astype(np.float32)
    assert np.array_equal(again.policy.logits(obs), agent.policy.logits(obs))
    assert again.policy.meta == agent.policy.meta and again.name == "mlp"
    assert evaluate(again, seeds="val[:10]").episodes == report.episodes


def test_stochastic_policy_uses_the_evaluation_generator():
    agent = PolicyAgent(random_mlp(), deterministic=False)
    a = evaluate(agent, seeds="val[:5]", seed=3).episodes
    assert a == evaluate(agent, seeds="val[:5]", seed=3).episodes
    assert a != evaluate(agent, seeds="val[:5]", seed=4).episodes


def test_reports_say_what_each_agent_saw_of_the_stock():
    seeing = random_mlp()
    seeing.meta["observe_stock"] = "full"
    assert evaluate(PolicyAgent(seeing), seeds=[1]).observe_stock == "full"
    assert evaluate(PolicyAgent(random_mlp()), seeds=[1]).observe_stock == "seen"
    assert evaluate("greedy", seeds=[1], observe_stock="full").observe_stock == "full"
    assert evaluate("solver", seeds=[1]).observe_stock == "clairvoyant"


def highest_legal_id(obs):
    """A policy on RLlib's dict observation: prefers the highest legal action id."""
    return obs["action_mask"] * np.arange(len(obs["action_mask"]))


class HighestLegalId:
    name = "highest"

    def act(self, turn, rng):
        return max(turn.legal)


def test_policy_agent_takes_any_callable_on_dict_observations():
    agent = PolicyAgent(highest_legal_id, name="rllib-like", obs_mode="rllib")
    report = evaluate(agent, rules="msc", seeds="val[:8]", workers=2)
    assert report.episodes == evaluate(HighestLegalId(), rules="msc", seeds="val[:8]").episodes
    # a torch module on a dict batch, as RLlib's modules read one
    torch = pytest.importorskip("torch")

    class DictModule(torch.nn.Module):
        def forward(self, batch):
            assert batch["observations"].shape == (1, 109)
            return batch["action_mask"] * torch.arange(327)

    again = evaluate(PolicyAgent(DictModule(), obs_mode="rllib"), rules="msc", seeds="val[:8]")
    assert again.episodes == report.episodes


def test_agent_config_names_the_settings_and_weights_play_depends_on():
    from pyramid_env.agents import PimcAgent
    from pyramid_env.agents.base import agent_config

    assert agent_config(PimcAgent(samples=2)) == agent_config(PimcAgent(samples=2))
    assert agent_config(PimcAgent(samples=2))["samples"] == 2
    assert agent_config(PimcAgent(samples=2)) != agent_config(PimcAgent(samples=4))
    greedy = make_agent("greedy", weights={"short": 1.0})
    default = agent_config(make_agent("greedy"))["w"]["short"]
    assert agent_config(greedy)["w"]["short"] == 1.0 != default
    # A network by its weights: one changed number is another network.
    rng = np.random.default_rng(0)
    layers = [(rng.normal(size=(4, 3)), np.zeros(3))]
    net, other = MLPPolicy(layers), MLPPolicy([(layers[0][0] + 1e-3, layers[0][1])])
    assert agent_config(PolicyAgent(net))["policy"] == net.digest() != other.digest()
    assert net.digest() == MLPPolicy(layers).digest()
    # An agent's own config() leaves out what changes as it plays (the solver's counter).
    solver = SolverAgent()
    solver.unknown = 5
    assert agent_config(solver) == {"shortest": False, "time_limit": None}
    # Anything else is known by its class only.
    assert agent_config(PolicyAgent(lambda obs: np.zeros(327)))["policy"] == "<builtins.function>"


def test_agent_config_reads_a_torch_module_by_its_parameters():
    torch = pytest.importorskip("torch")
    from pyramid_env.agents.base import agent_config

    module = torch.nn.Linear(4, 327)
    before = agent_config(PolicyAgent(module))["policy"]
    assert before == agent_config(PolicyAgent(module))["policy"]
    with torch.no_grad():
        module.bias[0] += 1
    assert agent_config(PolicyAgent(module))["policy"] != before
