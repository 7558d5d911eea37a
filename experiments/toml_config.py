"""The training scripts' configs: a TOML file with command-line overrides applied.

Shared by ``train_ppo.py`` and ``train_rllib.py``, which read their configs alike
(``--total-timesteps``, ``--seed``, ``--set KEY=VALUE`` with dotted keys). It imports nothing
of either's libraries, so each script's extra alone is enough to use it.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def read_config(
    path: Path, total_timesteps: int | None, seed: int | None, sets: Iterable[str]
) -> dict[str, Any]:
    """The TOML file at ``path``, then the overrides: step count, seed, ``KEY=VALUE`` items.

    A value is read as a Python literal (``3e-4``, ``[64, 64]``, ``'"val[:20]"'``), else kept
    as the bare string; ``a.b=1`` sets ``cfg["a"]["b"]``, making the table if missing.
    """
    with open(path, "rb") as f:
        cfg = tomllib.load(f)
    if total_timesteps is not None:
        cfg["total_timesteps"] = total_timesteps
    if seed is not None:
        cfg["seed"] = seed
    for item in sets:
        key, _, value = item.partition("=")
        *path_, last = key.split(".")
        node = cfg
        for k in path_:
            node = node.setdefault(k, {})
        try:
            node[last] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            node[last] = value  # a bare string
    return cfg
