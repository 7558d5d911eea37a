"""pyramid-env: Pyramid Solitaire for reinforcement-learning research.

Importing the package registers the Gymnasium ids (``PyramidSolitaire-v0`` and one per preset).
"""

from pyramid_env.engine import *  # noqa: F403  (the engine's public names are the package's)
from pyramid_env.engine import __all__ as _engine_all
from pyramid_env.registration import ENV_IDS, register_envs

__version__ = "0.1.0"
__all__ = [*_engine_all, "ENV_IDS", "__version__", "evaluate"]  # noqa: F405 (lazy, below)

register_envs()


def __getattr__(name: str) -> object:
    """``pyramid_env.evaluate``, imported on first use (it loads the env and the agents)."""
    if name == "evaluate":
        from pyramid_env.evaluation import evaluate

        return evaluate
    raise AttributeError(f"module 'pyramid_env' has no attribute {name!r}")
