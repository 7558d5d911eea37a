"""Ship a trained policy: copy a run's ``.npz`` into ``agents/trained/`` (float16 weights).

    python experiments/ship_agent.py runs/<run>/best.npz ppo-relaxed

The benchmark then loads it by name (``pyramid-env benchmark --agents ppo-relaxed``) and, by
default, with every other agent trained for the same rules. The training scripts do the same
at the end of a run with ``--ship NAME``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pyramid_env.agents import MLPPolicy

SHIP_DIR = Path(__file__).parents[1] / "agents" / "trained"


def main(argv: list[str] | None = None) -> Path:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("policy", type=Path, help="a policy .npz written by a training run")
    p.add_argument("name", help="the agent's name (file agents/trained/NAME.npz)")
    p.add_argument("--dest", type=Path, default=SHIP_DIR)
    args = p.parse_args(argv)
    args.dest.mkdir(parents=True, exist_ok=True)
    out = args.dest / f"{args.name}.npz"
    MLPPolicy.load(args.policy).save(out, half=True)
    print(f"{out} ({out.stat().st_size / 1e6:.2f} MB)")
    return out


if __name__ == "__main__":
    main()
