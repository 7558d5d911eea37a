"""The benchmark's plan: what a run is about to do, printed before any work.

Rules, deals, stock view, workers, agents by kind and the output folder, so a mistyped option
shows before minutes of work.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from pyramid_env.agents.catalogue import KINDS, agent_kind, agent_meta
from pyramid_env.benchmark.store import FILES
from pyramid_env.engine.rules import Rules, get_rules
from pyramid_env.seeds import seed_set
from pyramid_env.sweep import Backend


def _count(n: int, noun: str, plural: str = "") -> str:
    """``n`` and the noun, plural unless ``n`` is 1: ``"1 deal"``, ``"1,000 deals"``."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def where_played(backend: Backend) -> str:
    """Where the deals are played, in words: ``"2 processes per agent"``."""
    if backend.name == "local":
        return f"{_count(backend.workers, 'process', 'processes')} per agent"
    if backend.address:
        return f"Ray tasks on the cluster at {backend.address}"
    return f"Ray tasks on a local Ray instance of {_count(backend.workers, 'CPU')}"


def plan(
    rules: str | Rules,
    seeds: str,
    agents: list[str],
    observe_stock: str,
    out: str | Path,
    workers: int | Backend,
    replays: int = 0,
) -> str:
    """What a run is about to do, as lines printed before any work: a wrong option shows at once.

    Args:
        rules: a preset name or ``Rules``.
        seeds: the seed-set spec.
        agents: the agent names, in the order they will run.
        observe_stock: ``"seen"`` or ``"full"``.
        out: the output folder.
        workers: processes per agent, or a :class:`~pyramid_env.sweep.Backend`.
        replays: lost-but-winnable deals kept as pages per agent.

    Raises:
        PyramidError: an unknown preset, seed spec or agent name.
    """
    n = len(seed_set(seeds))
    where = where_played(workers if isinstance(workers, Backend) else Backend("local", workers))
    view = {"seen": "the cards turned so far", "full": "the whole order"}.get(observe_stock, "")
    groups: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for name in agents:
        kind = agent_kind(name)
        trained = kind in ("learned", "hybrid")
        trained_view = (agent_meta(name) or {}).get("observe_stock") if trained else None
        # A policy plays with the stock view it was trained on (evaluate() honours it): say so
        # where it differs from the run's, or its row's "stock order" would surprise.
        extra = f" (sees {trained_view})" if trained_view and trained_view != observe_stock else ""
        groups[kind].append(name + extra)
    listed = [f"{kind}: {', '.join(names)}" for kind, names in groups.items() if names]
    chart = importlib.util.find_spec("matplotlib") is not None  # find_spec does not import it
    files = ", ".join(FILES if chart else [*FILES[:-1], "no chart: matplotlib is not installed"])
    lines = [
        f"Benchmark plan: {_count(len(agents), 'agent')}, each on the same {_count(n, 'deal')}",
        f"  rules        {get_rules(rules).describe()}",
        f"  deals        {seeds} ({_count(n, 'deal')})",
        f"  stock order  {observe_stock}: agents see {view}; trained policies keep the view they",
        "               were trained with; clairvoyant agents read the whole order",
        f"  workers      {where}",
        f"  agents       {listed[0] if listed else '(none)'}",
        *(f"               {line}" for line in listed[1:]),
        f"  output       {out}/ ({files})",
    ]
    if replays:
        lines.append(
            f"  replays      up to {replays} lost deals the solver wins per agent, as pages with "
            f"the losing move marked, in {out}/replays/"
        )
    return "\n".join(lines)
