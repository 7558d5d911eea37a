"""The Gymnasium face of the engine: ``PyramidEnv``, its action codec and observation encoder."""

from pyramid_env.env.actions import N_ACTIONS, action_name, decode, encode
from pyramid_env.env.pyramid_env import PyramidEnv

__all__ = ["N_ACTIONS", "PyramidEnv", "action_name", "decode", "encode"]
