"""Step's action: any integer form of an id in range works as that id; anything else is refused,
leaving the env as it was; an illegal id is a penalty or ``IllegalMove`` as asked.
``pytest -m slow`` runs the properties with many more examples.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import event
from hypothesis import strategies as st

from pyramid_env.engine import IllegalMove
from pyramid_env.env import N_ACTIONS, PyramidEnv
from tests.conftest import refused
from tests.env.input_strategies import (
    ACTIONS,
    action_oracle,
    check_playing_invariants,
    fuzz,
    same,
    snapshot,
)


@pytest.mark.parametrize(
    "action", [1.5, 3.0, np.float64(2.0), "3", None, [1], (1,), True, np.True_, np.array([3])]
)
def test_non_integer_actions_are_refused(action):
    env = PyramidEnv()
    env.reset(seed=0)
    before = snapshot(env)
    msg = refused(env.step, action)
    assert "action" in msg and "0..326" in msg and snapshot(env) == before


@pytest.mark.parametrize("action", [-1, N_ACTIONS, 2**70, np.int64(-1), np.uint16(400)])
def test_out_of_range_actions_are_refused(action):
    env = PyramidEnv()
    env.reset(seed=0)
    assert "out of range 0..326" in refused(env.step, action)


def test_numpy_integer_actions_and_0d_arrays_work():
    env, twin = PyramidEnv(), PyramidEnv()
    env.reset(seed=0)
    twin.reset(seed=0)
    for a in (np.int64(0), np.uint8(0), np.array(0), env.action_space.sample()):
        out = env.step(a)  # as the plain int id does: the same step, the same game after it
        assert all(same(x, y) for x, y in zip(out, twin.step(int(a)), strict=True))


def _actions(data, illegal_action, seed):
    env = PyramidEnv("relaxed", illegal_action=illegal_action, max_steps=40)
    twin = PyramidEnv("relaxed", illegal_action=illegal_action, max_steps=40)
    obs, info = env.reset(seed=seed)
    twin.reset(seed=seed)
    terminated = False
    for _ in range(25):
        legal = env.legal_actions()
        if legal and data.draw(st.booleans()):
            action = data.draw(st.sampled_from(legal))
        else:
            action = data.draw(ACTIONS)
        expected = action_oracle(action)
        event(
            "action: "
            + ("bad" if expected is None else "legal" if expected in legal else "illegal")
        )
        before = snapshot(env)
        if expected is None:
            refused(env.step, action)
            assert snapshot(env) == before
            continue
        if expected not in legal and illegal_action == "raise":
            refused(env.step, action, error=IllegalMove)
            assert snapshot(env) == before
            continue
        out = env.step(action)
        assert all(same(x, y) for x, y in zip(out, twin.step(expected), strict=True))
        obs, reward, terminated, truncated, info = out
        if expected not in legal:  # a no-op with the penalty
            assert reward == env.illegal_reward and "illegal_action" in info
            assert snapshot(env)[0] == before[0]
        check_playing_invariants(env, obs, info, terminated)
        if terminated or truncated:
            obs, info = env.reset(seed=seed + 1)
            twin.reset(seed=seed + 1)


test_step_actions, test_step_actions_slow = fuzz(
    data=st.data(),
    illegal_action=st.sampled_from(["penalty", "raise"]),
    seed=st.integers(0, 10**6),
)(_actions)
