"""Ship a trained policy: copy a run's ``.npz`` into ``agents/trained/`` (float16 weights).

    python experiments/ship_agent.py runs/<run>/best.npz ppo-relaxed

The benchmark then loads it by name (``pyramid-env benchmark --agents ppo-relaxed``) and, by
default, with every other agent trained for the same rules. The training scripts do the same
at the end of a run with ``--ship NAME``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from pyramid_env.agents import MANIFEST, MLPPolicy

SHIP_DIR = Path(__file__).parents[1] / "agents" / "trained"


def ship(policy: Path, name: str, dest: Path = SHIP_DIR) -> Path:
    """Save the policy at ``policy`` as ``dest/NAME.npz`` (float16 weights), in the manifest.

    The manifest (``manifest.json``: the file's SHA-256 and the policy's metadata) is what lists
    the shipped agents, so a missing or damaged file is reported, never silently dropped.
    """
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / f"{name}.npz"
    MLPPolicy.load(policy).save(out, half=True)
    manifest_path = dest / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
    manifest[name] = {
        "sha256": hashlib.sha256(out.read_bytes()).hexdigest(),
        "meta": MLPPolicy.load(out).meta,
    }
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"{out} ({out.stat().st_size / 1e6:.2f} MB), listed in {manifest_path}")
    return out


def main(argv: list[str] | None = None) -> Path:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("policy", type=Path, help="a policy .npz written by a training run")
    p.add_argument("name", help="the agent's name (file agents/trained/NAME.npz)")
    p.add_argument("--dest", type=Path, default=SHIP_DIR)
    args = p.parse_args(argv)
    return ship(args.policy, args.name, args.dest)


if __name__ == "__main__":
    main()
