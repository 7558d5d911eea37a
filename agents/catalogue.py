"""The agent catalogue: every agent that can be named, and its kind.

Agents come in five kinds (:data:`KINDS`), and a benchmark's table, CSV and chart group them in
that order, so a learned agent is read against the baselines above it and the ceiling below it.
:func:`~pyramid_env.agents.make_agent` builds an agent by name; this module says which names
exist (:func:`known_agents`), what kind each is (:func:`agent_kind`) and which a benchmark of
some rules runs when none are named (:func:`default_agents`).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from pyramid_env.agents import BASELINES, ORACLES, SEARCH, TRAINED_SEARCH, load_network, shipped
from pyramid_env.engine.errors import PyramidError, shorten
from pyramid_env.engine.rules import Rules, get_rules

# The kinds of agent, in table order, with what sets each apart (the note under the table says
# it, so a reader does not compare a clairvoyant agent with the rest unawares). "learned" is a
# network alone: observation in, move out, no search, no solver, no hand-written rule; a network
# whose moves a hand-written rule ranks or vetoes is "hybrid".
KINDS: dict[str, str] = {
    "baseline": "hand-written rules",
    "search": "looks ahead over what a player knows, value-* with a learned leaf value",
    "learned": "a trained network alone",
    "hybrid": "a trained network and a hand-written rule's ranking of moves",
    "clairvoyant": "reads the stock order: the ceiling",
}
HYBRID = ("expit",)  # shipped files' "kind"s that play a network within a rule's ranking


@functools.cache
def shipped_meta() -> dict[str, dict[str, Any]]:
    """``shipped()``, read once per process: a run asks about every agent, and help lists all."""
    return shipped()


def agent_meta(name: str) -> dict[str, Any] | None:
    """A trained agent's metadata (a .npz path or a shipped name, as ``make_agent`` reads them).

    ``None`` for any other name, known or not.
    """
    path = Path(name)
    if path.suffix == ".npz" and path.is_file():
        return load_network(path).meta
    return shipped_meta().get(name)


def known_agents() -> dict[str, list[str]]:
    """Every agent that can be named, by kind (for help text and the unknown-agent message)."""
    out: dict[str, list[str]] = {kind: [] for kind in KINDS}
    out["baseline"] += BASELINES
    out["search"] += SEARCH
    for name, meta in shipped_meta().items():
        out[_trained_kind(meta)].append(name)
    out["clairvoyant"] += ORACLES
    return out


def unknown_agent(name: object) -> PyramidError:
    """The error for a name no agent answers to, listing every name that does."""
    known = [n for group in known_agents().values() for n in group]
    return PyramidError(
        f"unknown agent {shorten(name)}: one of {', '.join(known)}, or the path of a .npz"
    )


def agent_kind(name: str) -> str:
    """Which of the kinds (:data:`KINDS`) the agent ``name`` is.

    The kind says what an agent's figures can be compared with (the docs' evaluation page
    describes each); a shipped value network is ``search``, a .npz path ``learned``.

    Args:
        name: an agent name as ``make_agent`` takes it, or a path to a .npz file.

    Returns:
        ``"baseline"``, ``"search"``, ``"learned"``, ``"hybrid"`` or ``"clairvoyant"``.

    Raises:
        PyramidError: an unknown name, listing the known ones (a run checks every name first).
    """
    if name in BASELINES:
        return "baseline"
    if name in SEARCH:
        return "search"
    if name in ORACLES:
        return "clairvoyant"
    meta = agent_meta(name)
    if meta is None:
        raise unknown_agent(name)
    return _trained_kind(meta)


def _trained_kind(meta: dict[str, Any]) -> str:
    """A trained agent's kind from its metadata's ``kind``."""
    if meta.get("kind") in TRAINED_SEARCH:
        return "search"
    return "hybrid" if meta.get("kind") in HYBRID else "learned"


def default_agents(rules: str | Rules) -> list[str]:
    """The agents a benchmark of ``rules`` runs when none are named.

    Every baseline, the search baselines that support ``rules``, the shipped learned agents
    trained for exactly these rules (a preset changed by knobs has a name of its own), and the
    solver.
    """
    played = get_rules(rules)
    search = [name for name, cls in SEARCH.items() if cls.supports(played)]
    learned = [name for name, meta in shipped().items() if meta.get("rules") == played.name]
    return [*BASELINES, *search, *learned, "solver"]


def by_kind(agents: list[str]) -> list[str]:
    """``agents`` grouped by kind in :data:`KINDS` order, keeping the given order within a kind.

    Raises:
        PyramidError: an unknown agent name (from :func:`agent_kind`).
    """
    order = list(KINDS)
    return sorted(agents, key=lambda name: order.index(agent_kind(name)))


def is_known(name: str) -> bool:
    """A name ``make_agent`` can resolve (its file may still turn out broken)."""
    if name in BASELINES or name in SEARCH or name in ORACLES or name in shipped_meta():
        return True
    return name.endswith(".npz") and Path(name).is_file()


def from_file(name: str) -> bool:
    """An agent read from a file: a user's .npz or a shipped network."""
    return name.endswith(".npz") or name in shipped_meta()


__all__ = [
    "HYBRID",
    "KINDS",
    "agent_kind",
    "agent_meta",
    "by_kind",
    "default_agents",
    "from_file",
    "is_known",
    "known_agents",
    "shipped_meta",
    "unknown_agent",
]
