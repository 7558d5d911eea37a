"""The training scripts' configs: a TOML file with command-line overrides applied.

Shared by ``train_ppo``, ``train_rllib`` and ``train_expit``, which read their configs alike
(``--total-timesteps``, ``--seed``, ``--set KEY=VALUE`` with dotted keys). It imports nothing
of their libraries, so each script's extra alone is enough to use it.
"""

from __future__ import annotations

import argparse
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


def add_config_args(
    p: argparse.ArgumentParser, config: Path, runs: Path, *, steps: bool = True
) -> None:
    """The arguments :func:`config_from_args` reads: ``--config``, overrides and ``--runs``.

    Args:
        p: the script's parser.
        config: the default TOML file.
        runs: the default folder of run folders.
        steps: whether to offer ``--total-timesteps``.
    """
    p.add_argument("--config", type=Path, default=config)
    if steps:
        p.add_argument("--total-timesteps", type=int, help="override total_timesteps")
    p.add_argument("--seed", type=int, help="override seed")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config value (dotted key, Python literal)")  # fmt: skip
    p.add_argument("--runs", type=Path, default=runs, help="where run folders go")


def config_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The config named by arguments of :func:`add_config_args`, overrides applied."""
    steps = getattr(args, "total_timesteps", None)
    return read_config(args.config, steps, args.seed, args.set)
