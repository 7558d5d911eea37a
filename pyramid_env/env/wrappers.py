"""Wrappers for an honest learner: the ``info`` keys that name the deal taken out.

``info`` names the game the env dealt (``deal``, ``code``, and ``seed``, which the deal is
drawn from), for logs and replays. A deal's name is its whole stock order, which the
observation hides: a learner that is to be compared with honest agents must not read them.
:class:`HideDeal` (one env) and :class:`HideDealVector` (the vector env) remove them from every
``info`` of ``reset`` and ``step``; everything else passes through unchanged.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium.vector import VectorEnv, VectorWrapper

from pyramid_env.engine.errors import PyramidError, shorten

HIDDEN_KEYS = ("deal", "code", "seed")


def _hidden(info: dict[str, Any]) -> dict[str, Any]:
    """``info`` without the keys that name the deal (and, in a vector info, their masks)."""
    return {k: v for k, v in info.items() if k.lstrip("_") not in HIDDEN_KEYS}


class HideDeal(gym.Wrapper):
    """A single env whose ``info`` does not name the deal (:data:`HIDDEN_KEYS` removed).

    Args:
        env: the env to wrap (``PyramidEnv``, or any Gymnasium env with dict infos).
    """

    def __init__(self, env: gym.Env) -> None:
        """See the class docstring."""
        if not isinstance(env, gym.Env):
            raise PyramidError(
                f"env={shorten(env)} must be a gymnasium.Env (a vector env: HideDealVector)"
            )
        super().__init__(env)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """The env's reset, its ``info`` without the deal's name."""
        obs, info = self.env.reset(**kwargs)
        return obs, _hidden(info)

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        """The env's step, its ``info`` without the deal's name."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, terminated, truncated, _hidden(info)


class HideDealVector(VectorWrapper):
    """A vector env whose ``infos`` do not name the deals (:data:`HIDDEN_KEYS` and masks).

    Args:
        env: the vector env to wrap (``PyramidVectorEnv``, or any Gymnasium vector env).
    """

    def __init__(self, env: VectorEnv) -> None:
        """See the class docstring."""
        if not isinstance(env, VectorEnv):
            raise PyramidError(
                f"env={shorten(env)} must be a gymnasium.vector.VectorEnv (one env: HideDeal)"
            )
        super().__init__(env)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """The env's reset, its ``infos`` without the deals' names."""
        obs, infos = self.env.reset(**kwargs)
        return obs, _hidden(infos)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """The env's step, its ``infos`` without the deals' names."""
        obs, rewards, terminated, truncated, infos = self.env.step(actions)
        return obs, rewards, terminated, truncated, _hidden(infos)


__all__ = ["HIDDEN_KEYS", "HideDeal", "HideDealVector"]
