"""Ship a trained policy: copy a run's ``.npz`` into ``agents/trained/`` (float16 weights).

    python experiments/ship_agent.py runs/<run>/best.npz ppo-relaxed

The benchmark then loads it by name (``pyramid-env benchmark --agents ppo-relaxed``) and, by
default, with every other agent trained for the same rules. The training scripts do the same
at the end of a run with ``--ship NAME``. Weights already shipped under another name are not
stored twice (see :func:`ship`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import numpy as np

from pyramid_env.agents import MANIFEST, MLPPolicy

SHIP_DIR = Path(__file__).parents[1] / "agents" / "trained"


def ship(policy: Path, name: str, dest: Path = SHIP_DIR) -> Path:
    """Save the policy at ``policy`` as ``dest/NAME.npz`` (float16 weights), in the manifest.

    The manifest (``manifest.json``: the file's SHA-256 and the policy's metadata) is what lists
    the shipped agents, so a missing or damaged file is reported, never silently dropped. A
    policy whose weights another shipped file already holds (an expert-iteration search agent
    and its network alone) gets no file of its own: its entry names that file
    (``"weights"``) beside its own metadata. Shipping new weights under a name that others
    share first gives those others the old weights in files of their own, so no agent
    changes but the one shipped.

    Returns:
        The weights file the agent now plays (its own, or the one it shares).
    """
    dest.mkdir(parents=True, exist_ok=True)
    manifest_path = dest / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
    new = dest / f".{name}.new.npz"
    MLPPolicy.load(policy).save(new, half=True)
    net = MLPPolicy.load(new)
    out = dest / f"{name}.npz"
    sharing = sorted(k for k, e in manifest.items() if e.get("weights") == name)
    old = MLPPolicy.load(out) if sharing and out.is_file() else None
    if old is not None and not _same_weights(old, net):
        for other in sharing:  # they keep the weights they were shipped with
            old.meta = manifest[other]["meta"]
            old.save(dest / f"{other}.npz", half=True)
            manifest[other] = {"sha256": _sha(dest / f"{other}.npz"), "meta": old.meta}
        sharing = []
    twin = next(
        (k for k, e in sorted(manifest.items()) if k != name and "sha256" in e
         and _same_weights(MLPPolicy.load(dest / f"{k}.npz"), net)),
        None,
    )  # fmt: skip
    if twin is None:
        new.replace(out)
        manifest[name] = {"sha256": _sha(out), "meta": net.meta}
    else:
        new.unlink()
        out.unlink(missing_ok=True)
        manifest[name] = {"weights": twin, "meta": net.meta}
        for other in sharing:  # they shared this file, now gone: the twin holds their weights
            manifest[other]["weights"] = twin
        out = dest / f"{twin}.npz"
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    shared = f", the weights of {twin}" if twin else ""
    print(f"{name}: {out} ({out.stat().st_size / 1e6:.2f} MB{shared}), listed in {manifest_path}")
    return out


def _same_weights(a: MLPPolicy, b: MLPPolicy) -> bool:
    return (
        a.activation == b.activation
        and len(a.layers) == len(b.layers)
        and all(
            np.array_equal(wa, wb) and np.array_equal(ba, bb)
            for (wa, ba), (wb, bb) in zip(a.layers, b.layers, strict=True)
        )
    )


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> Path:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("policy", type=Path, help="a policy .npz written by a training run")
    p.add_argument("name", help="the agent's name (file agents/trained/NAME.npz)")
    p.add_argument("--dest", type=Path, default=SHIP_DIR)
    args = p.parse_args(argv)
    return ship(args.policy, args.name, args.dest)


if __name__ == "__main__":
    main()
