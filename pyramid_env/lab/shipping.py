"""Ship a trained policy: copy a run's ``.npz`` into the shipped agents (float16 weights).

The benchmark then loads it by name (``pyramid-env benchmark --agents ppo-relaxed``) and, by
default, with every other agent trained for the same rules. ``python -m experiments.ship_agent``
and the training scripts' ``--ship NAME`` call :func:`ship`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

import pyramid_env.agents as _agents
from pyramid_env.agents import MANIFEST, TRAINED_DIR, CardNet, MLPPolicy, load_network

SHIP_DIR = Path(_agents.__file__).parent / TRAINED_DIR
"""Where the shipped agents live: the repo's ``agents/trained/`` in a development install."""

TRAINING: dict[str, Any] = {
    "batch": 256, "lr": 1e-3, "hard_weight": 1.0, "hard_share": 0.0, "safe_share": 0.0,
    "q_target": "verdict", "gamma": 0.5, "ema": 0.0, "phase": "all", "partner": 0.0,
}  # fmt: skip
"""``train_cards``' settings and their defaults, which a card network's ``meta["train"]``
records (with ``bf16``, ``data`` and ``init``), so a shipped network can be checked against
its recipe; ``experiments/train_cards.py`` takes its defaults from here."""


def training(result: dict[str, Any]) -> dict[str, Any]:
    """A ``train_cards`` run's settings from its ``result.json``: a network's ``meta["train"]``.

    A setting an older run's result lacks was not an option yet, and the run did what its
    default does now, so the default stands in for it (``bf16``, with no default, must be
    there). ``data`` and ``init`` keep the file names alone: folders differ between machines.
    """
    if "bf16" not in result or "data" not in result:
        raise ValueError(f"result {sorted(result)}: a train_cards result names bf16 and data")
    init = result.get("init")
    return {k: result.get(k, v) for k, v in TRAINING.items()} | {
        "bf16": result["bf16"],
        "data": [Path(d).name for d in result["data"]],
        "init": Path(init).name if init else None,
    }


def ship(
    policy: Path, name: str, dest: Path = SHIP_DIR, meta: dict[str, Any] | None = None
) -> Path:
    """Save the network at ``policy`` (either form) as ``dest/NAME.npz``, float16, in the manifest.

    The manifest (``manifest.json``: the file's SHA-256 and the policy's metadata) is what lists
    the shipped agents, so a missing or damaged file is reported, never silently dropped. A
    policy whose weights another shipped file already holds (an expert-iteration search agent
    and its network alone) gets no file of its own: its entry names that file
    (``"weights"``) beside its own metadata. Shipping new weights under a name that others
    share first gives those others the old weights in files of their own, so no agent
    changes but the one shipped.

    Args:
        policy: the network's file.
        name: the agent's name.
        dest: the shipped agents' folder.
        meta: added to the network's own (for example :func:`training`'s settings).

    Returns:
        The weights file the agent now plays (its own, or the one it shares).
    """
    dest.mkdir(parents=True, exist_ok=True)
    manifest_path = dest / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
    new = dest / f".{name}.new.npz"
    net = load_network(policy)
    net.meta |= meta or {}
    _save(net, new)
    net = load_network(new)
    out = dest / f"{name}.npz"
    sharing = sorted(k for k, e in manifest.items() if e.get("weights") == name)
    old = load_network(out) if sharing and out.is_file() else None
    if old is not None and not _same_weights(old, net):
        for other in sharing:  # they keep the weights they were shipped with
            old.meta = manifest[other]["meta"]
            _save(old, dest / f"{other}.npz")
            manifest[other] = {"sha256": _sha(dest / f"{other}.npz"), "meta": old.meta}
        sharing = []
    twin = next(
        (k for k, e in sorted(manifest.items()) if k != name and "sha256" in e
         and _same_weights(load_network(dest / f"{k}.npz"), net)),
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


def _save(net: MLPPolicy | CardNet, path: Path) -> None:
    """Float16 weights either way (a card network always stores them so)."""
    if isinstance(net, CardNet):
        net.save(path)
    else:
        net.save(path, half=True)


def _same_weights(a: MLPPolicy | CardNet, b: MLPPolicy | CardNet) -> bool:
    if isinstance(a, CardNet) or isinstance(b, CardNet):
        return (
            isinstance(a, CardNet)
            and isinstance(b, CardNet)
            and a.w.keys() == b.w.keys()
            and all(np.array_equal(a.w[k], b.w[k]) for k in a.w)
        )
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
