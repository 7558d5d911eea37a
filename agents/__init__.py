"""Agents for Pyramid Solitaire: baselines, the solver as oracle, trained policies.

Installed as ``pyramid_env.agents`` (the repo keeps it in the top-level ``agents/`` folder).
Every agent follows :class:`Agent`: ``act(turn, rng) -> action id``. Build one by name with
:func:`make_agent`: ``random``, ``random-removal``, ``first-removal``, ``hint``, ``greedy``,
``greedy-careful``, ``solver``, ``solver-greedy``, ``lookahead``, ``scout``, ``pimc``, or a
trained network's ``.npz`` (a path, or a file shipped in ``pyramid_env/agents/trained`` such as
``ppo-relaxed``). The agents page describes each.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

from pyramid_env.agents.base import Agent, Turn, agent_config
from pyramid_env.agents.baselines import (
    CarefulAgent,
    FirstRemovalAgent,
    GreedyAgent,
    HintAgent,
    RandomAgent,
    RandomRemovalAgent,
)
from pyramid_env.agents.cardnet import CardNet, CardNetAgent
from pyramid_env.agents.expit import ExpitPolicyAgent, ExpitSearchAgent
from pyramid_env.agents.honest import PimcAgent, ScoutAgent
from pyramid_env.agents.lookahead import LookaheadAgent
from pyramid_env.agents.policy import MLPPolicy, PolicyAgent
from pyramid_env.engine.errors import PyramidError, shorten

BASELINES: dict[str, type] = {
    cls.name: cls
    for cls in (
        RandomAgent,
        RandomRemovalAgent,
        FirstRemovalAgent,
        HintAgent,
        GreedyAgent,
        CarefulAgent,
    )
}
ORACLES = ("solver-greedy", "solver")  # clairvoyant: they see the stock order
# Search agents: they look ahead over what a player knows (lookahead: free-stock rules only).
SEARCH: dict[str, type] = {"lookahead": LookaheadAgent, "scout": ScoutAgent, "pimc": PimcAgent}
# Shipped files that play as search agents, by their metadata's "kind": the agent class.
TRAINED_SEARCH: dict[str, type] = {"value": LookaheadAgent, "expit-search": ExpitSearchAgent}
TRAINED_DIR = "trained"
MANIFEST = "manifest.json"  # written by pyramid_env.lab.shipping.ship


def _manifest() -> dict[str, dict[str, Any]]:
    """``trained/manifest.json``: per shipped agent its file's SHA-256 and its metadata."""
    ref = resources.files("pyramid_env.agents") / TRAINED_DIR / MANIFEST
    if not ref.is_file():
        return {}
    try:
        data = json.loads(ref.read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as err:  # not JSON, not UTF-8, nested without end
        raise PyramidError(
            f"the shipped agents' manifest {ref} is damaged ({shorten(str(err), 200)}); "
            "reinstall pyramid-env"
        ) from None
    if not isinstance(data, dict) or not all(
        isinstance(e, dict) and isinstance(e.get("meta"), dict) for e in data.values()
    ):
        raise PyramidError(
            f"the shipped agents' manifest {ref} is damaged (not a dict of agents, each with "
            "its meta); reinstall pyramid-env"
        )
    return data


def shipped() -> dict[str, dict[str, Any]]:
    """The trained agents shipped with the package: name -> metadata (rules, obs form...).

    Read from the manifest, so listing them opens no weights file; a listed file that is missing
    or corrupt shows when the agent is made (:func:`shipped_file`).
    """
    return {name: entry["meta"] for name, entry in sorted(_manifest().items())}


def shipped_file(name: str) -> Path:
    """The weights file of shipped agent ``name``, checked against the manifest's checksum.

    An agent that plays the same network as another (an expert-iteration search agent and its
    network alone) is listed with ``"weights": <the other's name>`` and no file of its own:
    this is then the other's file.

    Raises:
        PyramidError: ``name`` is not shipped, or its file is missing or does not match the
            checksum the manifest holds (a damaged install: reinstall, or re-ship the agent).
    """
    manifest = _manifest()
    entry = manifest.get(name)
    if entry is None:
        raise PyramidError(f"{name!r} is not a shipped agent: one of {', '.join(shipped())}")
    owner = entry.get("weights", name)
    entry = manifest.get(owner, {})
    if "sha256" not in entry:
        raise PyramidError(
            f"shipped agent {name!r}: its weights are listed as {owner!r}'s, which {MANIFEST} "
            "does not hold as a file; reinstall pyramid-env or ship the agent again"
        )
    whose = repr(name) if owner == name else f"{name!r} (the weights of {owner!r})"
    ref = resources.files("pyramid_env.agents") / TRAINED_DIR / f"{owner}.npz"
    path = Path(str(ref))
    if not path.is_file():
        raise PyramidError(
            f"shipped agent {whose}: its file {path} is missing (the manifest lists it); "
            "reinstall pyramid-env"
        )
    if hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
        raise PyramidError(
            f"shipped agent {whose}: {path} does not match its checksum in {MANIFEST} "
            "(damaged or replaced); reinstall pyramid-env or ship it again"
        )
    return path


def load_network(path: str | Path) -> MLPPolicy | CardNet:
    """A network file of either shipped form: a :class:`CardNet` or an :class:`MLPPolicy`.

    Raises:
        PyramidError: the file cannot be read as either, naming it.
    """
    import zipfile
    import zlib

    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            card = "meta" in data.files
    except (OSError, ValueError, EOFError, zlib.error, zipfile.BadZipFile) as err:
        raise PyramidError(
            f"agent file {str(path)!r} is not a saved network ({type(err).__name__}: {err})"
        ) from err
    return CardNet.load(path) if card else MLPPolicy.load(path)


def load_shipped(name: str) -> MLPPolicy | CardNet:
    """The network of shipped agent ``name``, with the manifest's metadata (its kind, settings).

    Raises:
        PyramidError: as :func:`shipped_file`.
    """
    net = load_network(shipped_file(name))
    net.meta = dict(_manifest()[name]["meta"])
    return net


def make_agent(name: str, **kwargs: Any) -> Agent:
    """The agent called ``name`` (see the module table); ``kwargs`` go to its constructor.

    Raises:
        PyramidError: an unknown name (listing the known ones), or an agent file that is
            missing, damaged or not a policy (naming the file).
    """
    if not isinstance(name, str):
        raise PyramidError(f"agent name {name!r} ({type(name).__name__}) must be a str")
    if name in BASELINES:
        return BASELINES[name](**kwargs)
    if name in SEARCH:
        return SEARCH[name](**kwargs)
    if name in ORACLES:
        from pyramid_env.agents import oracle  # imports the solver only when asked

        cls = oracle.SolverAgent if name == "solver" else oracle.SolverGreedyAgent
        return cls(**kwargs)
    path = Path(name)
    if path.suffix == ".npz":
        if not path.is_file():
            raise PyramidError(f"agent file {name!r} does not exist")
        return _trained(load_network(path), path.stem, **kwargs)
    if name in _manifest():  # a shipped agent: open this one file, checked, not every one
        return _trained(load_shipped(name), name, **kwargs)
    known = [*BASELINES, *SEARCH, *ORACLES, *shipped()]
    raise PyramidError(f"unknown agent {name!r}: one of {', '.join(known)}, or a path to a .npz")


def _trained(net: MLPPolicy | CardNet, name: str, **kwargs: Any) -> Agent:
    """A policy network as a :class:`PolicyAgent`, a value network as a lookahead agent.

    An expert-iteration search file becomes its search agent, with the settings it was shipped
    with (``kwargs`` override them).
    """
    if isinstance(net, CardNet):
        return CardNetAgent(net, name=name, **kwargs)
    kind = net.meta.get("kind")
    if kind == "value":
        kwargs.setdefault("depth", net.meta.get("depth", 2))
        return LookaheadAgent(value=net, name=name, **kwargs)
    if kind == "expit-search":
        return ExpitSearchAgent(net, name=name, **(net.meta.get("search", {}) | kwargs))
    if kind == "expit":
        return ExpitPolicyAgent(net, name=name, **kwargs)
    return PolicyAgent(net, name=name, **kwargs)


__all__ = [
    "BASELINES",
    "MANIFEST",
    "ORACLES",
    "SEARCH",
    "TRAINED_SEARCH",
    "Agent",
    "CardNet",
    "CardNetAgent",
    "CarefulAgent",
    "ExpitPolicyAgent",
    "ExpitSearchAgent",
    "FirstRemovalAgent",
    "GreedyAgent",
    "HintAgent",
    "LookaheadAgent",
    "MLPPolicy",
    "PimcAgent",
    "PolicyAgent",
    "RandomAgent",
    "RandomRemovalAgent",
    "ScoutAgent",
    "Turn",
    "agent_config",
    "load_network",
    "load_shipped",
    "make_agent",
    "shipped",
    "shipped_file",
]
