"""The Gymnasium face of the engine: ``PyramidEnv``, its action codec and observation encoder."""

from pyramid_env.env.actions import N_ACTIONS, action_name, decode, encode
from pyramid_env.env.pyramid_env import PyramidEnv
from pyramid_env.env.vector import PyramidVectorEnv
from pyramid_env.env.wrappers import HideDeal, HideDealVector

__all__ = [
    "N_ACTIONS", "HideDeal", "HideDealVector", "PyramidEnv", "PyramidVectorEnv",
    "action_name", "decode", "encode",
]  # fmt: skip
