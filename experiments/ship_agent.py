"""Ship a trained policy: copy a run's ``.npz`` into ``agents/trained/`` (float16 weights).

    python -m experiments.ship_agent runs/<run>/best.npz ppo-relaxed

``--result RUN/result.json`` records a card network's training settings in its meta
(:func:`pyramid_env.lab.shipping.training`), for a network trained before ``train_cards``
wrote them there.

The benchmark then loads it by name (``pyramid-env benchmark --agents ppo-relaxed``) and, by
default, with every other agent trained for the same rules. The training scripts do the same
at the end of a run with ``--ship NAME``. Weights already shipped under another name are not
stored twice (see :func:`pyramid_env.lab.shipping.ship`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pyramid_env.lab.shipping import SHIP_DIR, ship, training


def main(argv: list[str] | None = None) -> Path:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("policy", type=Path, help="a policy .npz written by a training run")
    p.add_argument("name", help="the agent's name (file agents/trained/NAME.npz)")
    p.add_argument("--dest", type=Path, default=SHIP_DIR)
    p.add_argument("--result", type=Path, help="a train_cards run's result.json: its "
                   "training settings into the network's meta")  # fmt: skip
    args = p.parse_args(argv)
    meta = {"train": training(json.loads(args.result.read_text()))} if args.result else None
    return ship(args.policy, args.name, args.dest, meta)


if __name__ == "__main__":
    main()
