"""An agent's first fatal move on a deal: the move after which the solver can no longer win.

Counted by ``experiments.fatal_moves`` and ``experiments.expit_errors``: the phase it is made
in (``hidden`` or ``known`` stock), its kind, and what it spoils (``pyramid`` if lost even with
a free stock, else ``order``). The solver is the judge here only; the agent plays as it always
does.
"""

from __future__ import annotations

import numpy as np

from pyramid_env.agents import Agent
from pyramid_env.agents.base import PlayerView
from pyramid_env.agents.honest import all_seen
from pyramid_env.engine.moves import MOVES
from pyramid_env.engine.rules import Rules
from pyramid_env.engine.state import State
from pyramid_env.env import PyramidEnv
from pyramid_env.solver import DealTables, winning_line
from pyramid_env.solver.free_stock import FreeStock
from pyramid_env.solver.tables import Limit


def spoils(s: State) -> str:
    """``"pyramid"`` if ``s`` is lost even with a free stock, else ``"order"``."""
    tables = DealTables(s)
    counts = tables.stock_counts(tables.reachable(s))
    free = FreeStock(s, tables, Limit(None, None))
    return "order" if free.wins(s.pyr, counts) else "pyramid"


def kind(action: int) -> str:
    """``draw`` (or recycle), ``pyramid`` (pyramid cards only) or ``stock`` (a stock card used)."""
    move = MOVES[action]
    if action <= 1:
        return "draw"
    return "stock" if any(p >= 28 for p in move.places) else "pyramid"


def first_fatal(agent: Agent, rules: Rules, n: int) -> dict | None:
    """The first move after which deal ``n`` is lost (``None``: won, or lost at the deal)."""
    env = PyramidEnv(rules, **getattr(agent, "env_kwargs", {}))
    obs, _ = env.reset(options={"deal": n})
    if winning_line(env.state) is None:
        return None
    rng = np.random.default_rng([0, n])
    view = PlayerView(agent, (0, n))  # as evaluation shows it the game
    done = False
    while not done and (legal := env.legal_actions()):
        s, known = env.state, env.known_stock()
        hidden = not all_seen(s, known)
        action = agent.act(view.turn(s, legal, known, obs), rng)
        obs, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        if not info["won"] and winning_line(env.state) is None:
            return {
                "phase": "hidden" if hidden else "known",
                "kind": kind(action),
                "spoils": spoils(env.state),
            }
    return None if info["won"] else {"phase": "end", "kind": "none", "spoils": "none"}
