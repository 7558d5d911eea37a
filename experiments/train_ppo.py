"""Train MaskablePPO on a Pyramid Solitaire id; evaluate on the val deals; keep the best policy.

    python -m experiments.train_ppo --config configs/ppo_relaxed.toml
    python -m experiments.train_ppo --config configs/ppo_relaxed.toml --total-timesteps 20000 \
        --set ppo.learning_rate=1e-4 --set seed=2

The project's PPO baseline, on the train deals only, scored as the benchmark scores (the
method: docs/experiments.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from pyramid_env.lab.config import add_config_args, config_from_args
from pyramid_env.lab.ppo import train

ROOT = Path(__file__).parents[1]


def load_config(argv: list[str] | None) -> tuple[dict[str, Any], argparse.Namespace]:
    """The TOML config with command-line overrides applied."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_config_args(p, ROOT / "configs" / "ppo_relaxed.toml", ROOT / "runs")
    p.add_argument("--ship", help="copy the best policy to agents/trained/NAME.npz")
    p.add_argument("--init", type=Path, help="start from this policy .npz (behaviour cloning)")
    args = p.parse_args(argv)
    return config_from_args(args), args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    cfg, args = load_config(argv)
    return train(cfg, args.runs, init=args.init, ship=args.ship)


if __name__ == "__main__":
    main()
