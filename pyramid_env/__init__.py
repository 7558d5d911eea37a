"""pyramid-env: Pyramid Solitaire for reinforcement-learning research.

The Gymnasium ids (``PyramidSolitaire-v0`` and one per preset, :data:`ENV_IDS`) are registered
once both this package and gymnasium are imported, in either order: at once if gymnasium is
already loaded, else right after ``import gymnasium`` runs (a one-shot post-import hook, see
:mod:`pyramid_env.registration`). This package never imports gymnasium or numpy itself, so
``import pyramid_env.engine`` (which runs this file first) stays pure Python and works where
neither is installed. ``gym.make("pyramid_env:PyramidSolitaire-v0")`` needs no prior import.
"""

import sys

from pyramid_env.engine import *  # noqa: F403  (the engine's public names are the package's)
from pyramid_env.engine import __all__ as _engine_all
from pyramid_env.registration import ENV_IDS, register_envs, register_when_gymnasium_loads

__version__ = "0.1.0"
__all__ = [*_engine_all, "ENV_IDS", "__version__", "evaluate"]  # noqa: F405 (lazy, below)

# ``sys.modules["gymnasium"]`` may be None (an import that was blocked): that is "not loaded".
if sys.modules.get("gymnasium") is not None:
    register_envs()
else:
    register_when_gymnasium_loads()


def __getattr__(name: str) -> object:
    """``pyramid_env.evaluate``, imported on first use (it loads the env and the agents)."""
    if name == "evaluate":
        from pyramid_env.evaluation import evaluate

        return evaluate
    raise AttributeError(f"module 'pyramid_env' has no attribute {name!r}")
