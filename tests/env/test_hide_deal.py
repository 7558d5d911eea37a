"""HideDeal and HideDealVector: the info keys that name the deal are gone, the rest unchanged."""

import gymnasium as gym
import numpy as np
import pytest

import pyramid_env  # noqa: F401  (registers the ids)
from pyramid_env.env import HideDeal, HideDealVector, PyramidEnv, PyramidVectorEnv
from pyramid_env.env.wrappers import HIDDEN_KEYS
from tests.conftest import refused


def same_obs(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_obs(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


def same_info(hidden, full, masks=False) -> bool:
    """``hidden`` is ``full`` less the deal's keys (and their ``_key`` masks), values equal."""
    gone = set(HIDDEN_KEYS) | ({f"_{k}" for k in HIDDEN_KEYS} if masks else set())
    assert gone <= set(full)  # the env did name the deal: the wrapper had work to do
    return hidden.keys() == set(full) - gone and all(
        np.array_equal(hidden[k], full[k]) for k in hidden
    )


@pytest.mark.parametrize("rules", ["msc", "relaxed"])
def test_hide_deal_removes_the_deals_name_from_every_info_to_the_end(rules):
    wrapped, plain = HideDeal(PyramidEnv(rules)), PyramidEnv(rules)
    for seed in (0, 1):
        (obs, info), (obs2, info2) = wrapped.reset(seed=seed), plain.reset(seed=seed)
        assert same_obs(obs, obs2) and same_info(info, info2)
        rng, done, steps = np.random.default_rng(seed), False, 0
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, r, term, trunc, info = wrapped.step(action)
            obs2, r2, term2, trunc2, info2 = plain.step(action)
            assert same_obs(obs, obs2) and (r, term, trunc) == (r2, term2, trunc2)
            assert same_info(info, info2)
            done, steps = term or trunc, steps + 1
        assert steps > 5  # the last step's info too


def test_hide_deal_wraps_a_made_env():
    env = HideDeal(gym.make("PyramidSolitaire-MSC-v0"))
    _, info = env.reset(options={"deal": 42})
    assert not set(HIDDEN_KEYS) & set(info) and info["pyramid_left"] == 28


@pytest.mark.parametrize("make", [lambda: PyramidVectorEnv(4, rules="msc"),
                                  lambda: gym.make_vec("PyramidSolitaire-MSC-v0", 4)])  # fmt: skip
def test_hide_deal_vector_removes_the_deals_names_and_their_masks(make):
    wrapped, plain = HideDealVector(make()), make()
    (obs, infos), (obs2, infos2) = wrapped.reset(seed=3), plain.reset(seed=3)
    assert same_obs(obs, obs2) and same_info(infos, infos2, masks=True)
    rng = np.random.default_rng(0)
    for _ in range(120):  # long enough for games to end and autoreset
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        obs, r, term, trunc, infos = wrapped.step(actions)
        obs2, r2, term2, trunc2, infos2 = plain.step(actions)
        assert same_obs(obs, obs2) and np.array_equal(r, r2) and np.array_equal(term, term2)
        assert same_info(infos, infos2, masks=True)


def test_each_wrapper_refuses_the_other_kind_of_env():
    refused(HideDeal, PyramidVectorEnv(2), match=r"env=.* must be a gymnasium.Env .*HideDealVector")
    refused(HideDealVector, PyramidEnv(), match=r"env=.* must be a gymnasium.vector.VectorEnv")
