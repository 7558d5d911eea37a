"""Agents for Pyramid Solitaire: baselines, the solver as oracle, trained policies.

Installed as ``pyramid_env.agents`` (the repo keeps it in the top-level ``agents/`` folder).
Every agent follows :class:`Agent`: ``act(turn, rng) -> action id``. Build one by name with
:func:`make_agent`:

==================  ===========================================================================
name                agent
==================  ===========================================================================
``random``          uniform over legal actions
``random-removal``  uniform among removals, draws when there is none
``first-removal``   the first legal removal, draws when there is none
``hint``            rulebook 000's hint as a policy
``greedy``          the heuristic from the rulebooks' strategy advice
``solver``          the exact solver's winning line (clairvoyant: the upper bound)
``solver-greedy``   greedy's favourite move among those that keep the deal winnable
                    (clairvoyant; the teacher for imitation)
``lookahead``       free-stock rules only: a 2-move search over the pyramid and the stock's
                    ranks, never its order, pruning hopeless positions (``depth=`` to change)
``<file>.npz``      a trained policy saved as an :class:`MLPPolicy` (a path, or the name of a
                    file shipped in ``pyramid_env/agents/trained``, such as ``ppo-relaxed``);
                    a value network (``value-relaxed``) becomes a :class:`LookaheadAgent`
==================  ===========================================================================
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from pyramid_env.agents.base import Agent, Turn
from pyramid_env.agents.baselines import (
    FirstRemovalAgent,
    GreedyAgent,
    HintAgent,
    RandomAgent,
    RandomRemovalAgent,
)
from pyramid_env.agents.lookahead import LookaheadAgent
from pyramid_env.agents.policy import MLPPolicy, PolicyAgent

BASELINES: dict[str, type] = {
    cls.name: cls
    for cls in (RandomAgent, RandomRemovalAgent, FirstRemovalAgent, HintAgent, GreedyAgent)
}
ORACLES = ("solver-greedy", "solver")  # clairvoyant: they see the stock order
SEARCH: dict[str, type] = {"lookahead": LookaheadAgent}  # free-stock rules only
TRAINED_DIR = "trained"


def shipped() -> dict[str, dict[str, Any]]:
    """The trained policies shipped with the package: name -> metadata (rules, obs form...)."""
    folder = resources.files("pyramid_env.agents") / TRAINED_DIR
    if not folder.is_dir():
        return {}
    out = {}
    for f in sorted(folder.iterdir(), key=lambda f: f.name):
        if f.name.endswith(".npz"):
            out[f.name.removesuffix(".npz")] = MLPPolicy.load(f).meta
    return out


def make_agent(name: str, **kwargs: Any) -> Agent:
    """The agent called ``name`` (see the module table); ``kwargs`` go to its constructor.

    Raises:
        ValueError: an unknown name, listing the known ones.
    """
    if name in BASELINES:
        return BASELINES[name](**kwargs)
    if name in SEARCH:
        return SEARCH[name](**kwargs)
    if name in ORACLES:
        from pyramid_env.agents import oracle  # imports the solver only when asked

        cls = oracle.SolverAgent if name == "solver" else oracle.SolverGreedyAgent
        return cls(**kwargs)
    path = Path(name)
    if path.suffix == ".npz" and path.is_file():
        return _trained(MLPPolicy.load(path), path.stem, **kwargs)
    ref = resources.files("pyramid_env.agents") / TRAINED_DIR / f"{name}.npz"
    if ref.is_file():  # a shipped agent: open this one file, not every shipped one
        with resources.as_file(ref) as file:
            return _trained(MLPPolicy.load(file), name, **kwargs)
    known = [*BASELINES, *SEARCH, *ORACLES, *shipped()]
    raise ValueError(f"unknown agent {name!r}: one of {', '.join(known)}, or a path to a .npz")


def _trained(net: MLPPolicy, name: str, **kwargs: Any) -> Agent:
    """A policy network as a :class:`PolicyAgent`, a value network as a lookahead agent."""
    if net.meta.get("kind") == "value":
        kwargs.setdefault("depth", net.meta.get("depth", 2))
        return LookaheadAgent(value=net, name=name, **kwargs)
    return PolicyAgent(net, name=name, **kwargs)


__all__ = [
    "BASELINES",
    "ORACLES",
    "SEARCH",
    "Agent",
    "FirstRemovalAgent",
    "GreedyAgent",
    "HintAgent",
    "LookaheadAgent",
    "MLPPolicy",
    "PolicyAgent",
    "RandomAgent",
    "RandomRemovalAgent",
    "Turn",
    "make_agent",
    "shipped",
]
