"""Stable-Baselines3: its env checker, and MaskablePPO learning a few thousand steps.

Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib); skipped without it.
"""

import numpy as np
import pytest

sb3 = pytest.importorskip("stable_baselines3")
sb3_contrib = pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

import gymnasium as gym  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402

import pyramid_env  # noqa: E402


@pytest.mark.parametrize("env_id", list(pyramid_env.ENV_IDS))
def test_sb3_check_env_on_every_id(env_id):
    check_env(gym.make(env_id).unwrapped, warn=False)
    check_env(gym.make(env_id, obs_mode="flat").unwrapped, warn=False)


def test_maskable_ppo_learns_a_few_thousand_steps_without_error():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.evaluation import evaluate_policy

    torch.set_num_threads(1)  # small MLPs on 2 cores: 1 thread is much faster
    env = gym.make("PyramidSolitaire-v0", obs_mode="flat", max_steps=200)
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, seed=0, verbose=0)
    model.learn(total_timesteps=2048)
    obs, info = env.reset(seed=1)
    for _ in range(50):
        mask = env.unwrapped.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(action)]  # the mask is handed over: never an illegal action
        obs, _, term, trunc, _ = env.step(int(action))
        if term or trunc:
            break
    mean, _ = evaluate_policy(model, env, n_eval_episodes=3, warn=False)
    assert np.isfinite(mean)
