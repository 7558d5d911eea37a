"""The Gymnasium face of the engine: ``PyramidEnv``, its action codec and observation encoder."""

from pyramid_env.env.actions import N_ACTIONS, action_name, decode, encode
from pyramid_env.env.pyramid_env import PyramidEnv
from pyramid_env.env.vector import PyramidVectorEnv

__all__ = ["N_ACTIONS", "PyramidEnv", "PyramidVectorEnv", "action_name", "decode", "encode"]
