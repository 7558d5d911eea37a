"""Gymnasium ids, registered when ``pyramid_env`` is imported (as ``import minigrid`` does).

``PyramidSolitaire-v0`` plays the default rules (``relaxed``); each preset has its own id,
``PyramidSolitaire-<Preset>-v0``. ``gym.make_vec`` builds our ``PyramidVectorEnv`` (the
``vector_entry_point``) unless ``vectorization_mode="sync"`` or ``"async"`` is asked for. Entry
points are strings, so registering imports nothing of the env until ``gym.make``;
``gym.make("pyramid_env:PyramidSolitaire-v0")`` works without a prior import, because Gymnasium
imports the module named before the colon.
"""

from __future__ import annotations

import gymnasium as gym

from pyramid_env.engine.rules import PRESETS

ENTRY_POINT = "pyramid_env.env.pyramid_env:PyramidEnv"
VECTOR_ENTRY_POINT = "pyramid_env.env.vector:PyramidVectorEnv"


def env_id(preset: str) -> str:
    """``'two-card'`` -> ``'PyramidSolitaire-TwoCard-v0'`` (``msc`` -> ``MSC``)."""
    name = "MSC" if preset == "msc" else "".join(p.capitalize() for p in preset.split("-"))
    return f"PyramidSolitaire-{name}-v0"


ENV_IDS: dict[str, str] = {"PyramidSolitaire-v0": "relaxed"} | {env_id(p): p for p in PRESETS}


def register_envs() -> None:
    """Register every id (idempotent: ids already registered are left alone)."""
    for env, preset in ENV_IDS.items():
        if env not in gym.registry:
            gym.register(
                id=env,
                entry_point=ENTRY_POINT,
                vector_entry_point=VECTOR_ENTRY_POINT,
                kwargs={"rules": preset},
            )
