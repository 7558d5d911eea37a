"""Train MaskablePPO on a Pyramid Solitaire id; evaluate on the val deals; keep the best policy.

    python -m experiments.train_ppo --config configs/ppo_relaxed.toml
    python -m experiments.train_ppo --config configs/ppo_relaxed.toml --total-timesteps 20000 \
        --set ppo.learning_rate=1e-4 --set seed=2

CleanRL-shaped (``main(argv)`` importable), on sb3-contrib's MaskablePPO; the loop is
:func:`pyramid_env.lab.ppo.train`, which ``experiments.train_bc`` fine-tunes with too. Training
deals come from the ``train`` seed set only; every ``eval.every`` steps the policy is exported
to an :class:`~pyramid_env.agents.MLPPolicy` and evaluated (deterministic, masked) on
``eval.seeds`` with :func:`pyramid_env.evaluate`: the figures the benchmark will report. The run
folder ``runs/<env_id>__<exp_name>__<seed>__<time>/`` holds the resolved config, TensorBoard
logs (``tensorboard --logdir runs``), ``eval.csv``, the best policy (``best.npz``, by val win
rate), the SB3 model saved at every evaluation and at the end (``model.zip``, for
``MaskablePPO.load``) and ``metrics.json``. ``--ship NAME`` copies ``best.npz`` to
``agents/trained/NAME.npz``, where the benchmark finds it.
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
