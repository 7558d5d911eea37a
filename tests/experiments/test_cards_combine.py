"""cards_combine: several card networks as one, and the policy within a margin of Q's best."""

import numpy as np

from experiments.cards_combine import Ensemble, FilterAgent
from pyramid_env.agents import Turn, make_agent
from pyramid_env.agents.cardnet import CardNet
from pyramid_env.env import PyramidEnv


def _positions(n: int = 40) -> tuple[np.ndarray, list[Turn]]:
    """``counts`` observations and turns along a game the shipped network plays."""
    env = PyramidEnv("msc", obs_mode="counts", max_idle_passes=None)
    obs, _ = env.reset(options={"deal": 7})
    agent, rng, turns = make_agent("cards-msc"), np.random.default_rng(0), []
    for _ in range(n):
        turn = Turn(env.state, sorted(env.legal_actions()), env.known_stock(), obs)
        turns.append(turn)
        obs, _, done, cut, _ = env.step(agent.act(turn, rng))
        if done or cut:
            break
    return np.stack([t.obs for t in turns]), turns


def test_an_ensemble_plays_the_mean_of_its_networks_logits():
    net = make_agent("cards-msc").net
    other = CardNet({k: v * 0.5 for k, v in net.w.items()}, net.meta)
    x, _ = _positions()
    both = Ensemble([net, other], "q", 0.1).forward(x)
    np.testing.assert_allclose(both, (net.forward(x) + other.forward(x)) / 2, rtol=1e-5, atol=1e-5)
    assert not np.allclose(both, net.forward(x))


def test_the_filter_is_the_policy_at_a_wide_margin_and_q_at_none():
    net = make_agent("cards-msc").net
    _, turns = _positions()
    wide = FilterAgent(CardNet(net.w, net.meta | {"tie": 2.0}))
    none = FilterAgent(CardNet(net.w, net.meta | {"tie": 0.0}))
    rng = np.random.default_rng(0)
    differ = 0
    for t in turns:
        out = net.forward(t.obs[None])[0]
        legal = np.asarray(t.legal)
        assert wide.act(t, rng) == legal[np.argmax(out[0, legal])]
        assert none.act(t, rng) == legal[np.argmax(out[1, legal])]  # no exact ties in Q here
        differ += wide.act(t, rng) != none.act(t, rng)
    assert differ > 0  # the two heads disagree somewhere along the game, so both paths are seen
