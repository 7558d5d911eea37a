"""The single env's compiled observation against the numpy encoder, form by form."""

import numpy as np
import pytest

from pyramid_env import jit
from pyramid_env.engine.invariants import rule_variants
from pyramid_env.env import PyramidEnv

FORMS = [
    ("dict", "float32"), ("flat", "float32"), ("flat", "uint8"), ("onehot", "float32"),
    ("onehot", "uint8"), ("counts", "float32"), ("counts", "uint8"), ("compact", "float32"),
    ("pettingzoo", "float32"), ("rllib", "float32"),
]  # fmt: skip


def same(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


@pytest.mark.skipif(not jit.AVAILABLE, reason="the compiled observation needs numba")
@pytest.mark.parametrize("mode, dtype", FORMS)
def test_compiled_observation_equals_the_numpy_one(mode, dtype):
    # The env gives out the compiled encoder's observation where numba is installed; the
    # numpy encoder (pyramid_env.env.observation) states the layout independently.
    rng = np.random.default_rng(0)
    variants = rule_variants()
    for n, rules in enumerate(variants[:: max(1, len(variants) // 6)]):
        for observe in ("seen", "full"):
            env = PyramidEnv(rules, obs_mode=mode, obs_dtype=dtype, observe_stock=observe)
            obs, info = env.reset(seed=n)
            assert env._fast is not None
            for _ in range(150):
                assert same(obs, env._numpy_obs()), (rules.name, mode, dtype, observe)
                legal = np.flatnonzero(info["action_mask"])
                obs, _, term, trunc, info = env.step(int(rng.choice(legal)))
                if term or trunc:
                    obs, info = env.reset()
            assert env.observation_space.contains(obs)
