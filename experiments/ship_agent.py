"""Ship a trained policy: copy a run's ``.npz`` into ``agents/trained/`` (float16 weights).

    python -m experiments.ship_agent runs/<run>/best.npz ppo-relaxed

The benchmark then loads it by name (``pyramid-env benchmark --agents ppo-relaxed``) and, by
default, with every other agent trained for the same rules. The training scripts do the same
at the end of a run with ``--ship NAME``. Weights already shipped under another name are not
stored twice (see :func:`pyramid_env.lab.shipping.ship`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pyramid_env.lab.shipping import SHIP_DIR, ship


def main(argv: list[str] | None = None) -> Path:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("policy", type=Path, help="a policy .npz written by a training run")
    p.add_argument("name", help="the agent's name (file agents/trained/NAME.npz)")
    p.add_argument("--dest", type=Path, default=SHIP_DIR)
    args = p.parse_args(argv)
    return ship(args.policy, args.name, args.dest)


if __name__ == "__main__":
    main()
