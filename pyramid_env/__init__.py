"""pyramid-env: Pyramid Solitaire as an exact rules engine, for reinforcement-learning research."""

from pyramid_env.engine import *  # noqa: F403  (the engine's public names are the package's)
from pyramid_env.engine import __all__ as _engine_all

__version__ = "0.1.0"
__all__ = [*_engine_all, "__version__"]
