"""The env's constructor arguments (also as RLlib's config dict, and through ``gym.make`` and
``gym.make_vec``): each is checked once and normalised, a bad one is refused naming the field, and
a working env keeps its invariants. ``pytest -m slow`` runs the properties with many more examples.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import event

from pyramid_env.env import PyramidEnv, PyramidVectorEnv
from pyramid_env.env.pyramid_env import ENV_ARGS, RULE_KNOBS
from tests.conftest import refused
from tests.env.input_strategies import (
    arg_oracle,
    check_playing_invariants,
    env_kwargs,
    fuzz,
    outcome,
    same,
)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"max_steps": 0}, "max_steps"),
        ({"max_steps": 1.5}, "max_steps"),
        ({"max_steps": "100"}, "max_steps"),
        ({"max_steps": True}, "max_steps"),
        ({"max_steps": None}, "max_steps"),
        ({"illegal_reward": "x"}, "illegal_reward"),
        ({"illegal_reward": float("nan")}, "illegal_reward"),
        ({"illegal_reward": float("-inf")}, "illegal_reward"),
        ({"illegal_reward": True}, "illegal_reward"),
        ({"terminate_on_dead": 1}, "terminate_on_dead"),
        ({"terminate_on_dead": "yes"}, "terminate_on_dead"),
        ({"deals": []}, "deals"),
        ({"deals": range(0)}, "deals"),
        ({"deals": "nope"}, "deals"),
        ({"deals": 5}, "deals"),
        ({"deals": [1, -2]}, "deals"),
        ({"deals": [1.5]}, "deals"),
        ({"deals": range(0, 2**64)}, "deals"),
        ({"observe_stock": ["seen"]}, "observe_stock"),
        ({"reward": np.array(["cards"])}, "reward"),
        ({"rules": 5}, "rules"),
        ({"max_idle_passes": 0}, "max_idle_passes"),
    ],
)
def test_bad_arguments_are_refused_naming_the_field(kwargs, field):
    msg = refused(PyramidEnv, **kwargs)
    assert field in msg
    assert refused(PyramidEnv, dict(kwargs)) == msg  # RLlib's env_config form: the same error


def test_arguments_are_normalised_once():
    env = PyramidEnv(
        max_steps=np.int32(50),
        illegal_reward=np.float32(-0.5),
        terminate_on_dead=np.False_,
        max_idle_passes=np.uint8(3),
        deals=[np.int64(4), 7],
    )
    assert type(env.max_steps) is int and type(env.max_idle_passes) is int
    assert type(env.illegal_reward) is float and env.terminate_on_dead is False
    assert env.deals == [4, 7] and all(type(n) is int for n in env.deals)
    assert env.reset(seed=0)[1]["deal"] in (4, 7)


@pytest.mark.parametrize("name", ["max_step", "seed", "num_envs", "Reward"])
def test_unknown_argument_names_list_the_env_arguments_and_the_rule_knobs(name):
    msg = refused(PyramidEnv, **{name: 1})
    assert repr(name) in msg and "env arguments: rules, observe_stock" in msg
    assert "rule knobs: " in msg and "passes" in msg
    assert refused(PyramidEnv, {name: 1}) == msg


def test_the_config_dict_refuses_what_it_cannot_take():
    assert "max_steps" in refused(PyramidEnv, {"max_steps": 10}, max_steps=20)
    assert "passes" in refused(PyramidEnv, {"passes": 1}, passes=2)
    refused(PyramidEnv, {1: "x"})
    refused(PyramidEnv, {"rules": {"rules": "msc"}})
    env = PyramidEnv({"rules": "msc", "max_steps": 10}, reward="win")  # beside it: merged
    assert env.rules.name == "msc" and env.max_steps == 10 and env.reward_kind == "win"


def test_rule_knobs_reach_the_engine_and_its_errors_are_pyramid_errors():
    assert PyramidEnv(passes=2).rules.passes == 2
    assert "passes" in refused(PyramidEnv, passes=0)
    assert "goal" in refused(PyramidEnv, goal="x")
    assert "nope" in refused(PyramidEnv, "nope")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_steps": 0},
        {"reward": "x"},
        {"illegal_reward": "x"},
        {"terminate_on_dead": 1},
        {"deals": []},
        {"passes": 0},
        {"obs_mode": None},
        {"rules": "nope"},
    ],
)
def test_make_and_make_vec_raise_the_classes_errors_unchanged(kwargs):
    msg = refused(PyramidEnv, **kwargs)
    assert refused(gym.make, "PyramidSolitaire-v0", **kwargs) == msg
    assert refused(gym.make_vec, "PyramidSolitaire-v0", 2, **kwargs) == msg
    sync = {"vectorization_mode": "sync"}
    assert refused(gym.make_vec, "PyramidSolitaire-v0", 2, **sync, **kwargs) == msg
    assert refused(PyramidVectorEnv, 2, **kwargs) == msg


def test_make_and_make_vec_name_an_unknown_argument():
    for call in (
        lambda: gym.make("PyramidSolitaire-MSC-v0", max_step=3),
        lambda: gym.make_vec("PyramidSolitaire-MSC-v0", 2, max_step=3),
        lambda: gym.make_vec("PyramidSolitaire-MSC-v0", 2, vectorization_mode="sync", max_step=3),
    ):
        msg = refused(call)
        assert "'max_step'" in msg and "max_steps" in msg and "rule knobs" in msg
    assert "num_envs" in refused(gym.make_vec, "PyramidSolitaire-v0", 0)
    assert gym.make_vec("PyramidSolitaire-v0", 2, max_episode_steps=9).settings.max_steps == 9


def _constructor(kwargs):
    verdicts = [arg_oracle(n, v) for n, v in kwargs.items()]
    kind, result = outcome(PyramidEnv, **kwargs)
    event(f"constructor: {kind}")
    if False in verdicts:
        assert kind == "error", (kwargs, result)
    elif all(verdicts):
        assert kind == "ok", (kwargs, result)
    # The config-dict form and the vector env say the same.
    kind2, result2 = outcome(PyramidEnv, dict(kwargs))
    assert kind2 == kind and (kind == "ok" or result2 == result)
    if not {"num_envs", "max_episode_steps"} & kwargs.keys():  # the vector env's own names
        vkind, vresult = outcome(PyramidVectorEnv, 2, **kwargs)
        assert vkind == kind
        if kind == "error" and all(n in ENV_ARGS or n in RULE_KNOBS for n in kwargs):
            assert vresult == result  # (an unknown name: the message names the vector class)
    if kind == "error":
        return
    env = result
    assert type(env.max_steps) is int and type(env.illegal_reward) is float
    assert type(env.terminate_on_dead) is bool
    assert env.max_idle_passes is None or type(env.max_idle_passes) is int
    twin = PyramidEnv(**kwargs)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=5)
    obs2, info2 = twin.reset(seed=5)
    assert same(obs, obs2) and same(info, info2)  # same seed, same game
    if env.deals is not None:
        assert info["deal"] in env.deals
    check_playing_invariants(env, obs, info, False)
    for _ in range(15):
        a = int(rng.choice(np.flatnonzero(env.action_masks())))
        out, out2 = env.step(a), twin.step(a)
        assert all(same(x, y) for x, y in zip(out, out2, strict=True))
        check_playing_invariants(env, out[0], out[4], out[2])
        if out[2] or out[3]:
            break


test_constructor_arguments, test_constructor_arguments_slow = fuzz(kwargs=env_kwargs(True))(
    _constructor
)
test_constructor_valid_arguments, test_constructor_valid_arguments_slow = fuzz(
    kwargs=env_kwargs(False)
)(_constructor)
