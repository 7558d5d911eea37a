"""The benchmark: every agent on the same fixed deals, as a table, CSVs and a chart.

    pyramid-env benchmark --rules msc --agents greedy solver --seeds "val[:200]"

:func:`run` (:mod:`~pyramid_env.benchmark.runner`) plays the agents and writes the folder;
:mod:`~pyramid_env.benchmark.planning` prints its plan, :mod:`~pyramid_env.benchmark.roster`
builds and checks the agents, :mod:`~pyramid_env.benchmark.store` keeps the rows (CSV, resume,
digests), :mod:`~pyramid_env.benchmark.table` and :mod:`~pyramid_env.benchmark.chart` show
them, :mod:`~pyramid_env.benchmark.compare` pairs agents deal by deal; the agents and their
kinds: :mod:`pyramid_env.agents.catalogue`.
"""

from pyramid_env.agents.catalogue import (
    HYBRID,
    KINDS,
    agent_kind,
    by_kind,
    default_agents,
    known_agents,
)
from pyramid_env.benchmark.chart import KIND_COLOURS, plot
from pyramid_env.benchmark.planning import plan
from pyramid_env.benchmark.runner import MAX_REPLAYS, run
from pyramid_env.benchmark.store import (
    DIGESTS,
    EPISODE_FIELDS,
    FILES,
    RUN_FILE,
    SUMMARY_FIELDS,
    VIEWS,
    Store,
    folder_name,
)
from pyramid_env.benchmark.table import machine, markdown

__all__ = [
    "DIGESTS",
    "EPISODE_FIELDS",
    "FILES",
    "HYBRID",
    "KINDS",
    "KIND_COLOURS",
    "MAX_REPLAYS",
    "RUN_FILE",
    "SUMMARY_FIELDS",
    "VIEWS",
    "Store",
    "agent_kind",
    "by_kind",
    "default_agents",
    "folder_name",
    "known_agents",
    "machine",
    "markdown",
    "plan",
    "plot",
    "run",
]
