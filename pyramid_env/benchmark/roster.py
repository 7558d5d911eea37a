"""The agents of one benchmark run: each built, checked and given the name its rows go under.

Every agent is built before any deal is played: an unknown name fails at once, and an agent
whose file cannot be used (damaged, of the wrong shape) is skipped with the reason, so one bad
file does not cost the rest of the table.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from pyramid_env.agents import make_agent
from pyramid_env.agents.base import PlayerView
from pyramid_env.agents.catalogue import from_file, is_known, known_agents, unknown_agent
from pyramid_env.engine.errors import PyramidError, shorten
from pyramid_env.engine.rules import Rules
from pyramid_env.env.actions import N_ACTIONS
from pyramid_env.env.pyramid_env import PyramidEnv


def make_agents(names: list[str]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Every named agent built now, before any deal is played.

    An unknown name is an error (a typo: nothing runs). An agent whose file exists but cannot
    be used (a damaged or missing shipped file, a .npz that is empty, corrupted or not a
    policy) is skipped with the reason, naming the file, so one bad file does not cost the rest
    of the table.
    """
    made: dict[str, Any] = {}
    skipped: list[tuple[str, str]] = []
    for name in names:
        if not isinstance(name, str) or not is_known(name):
            raise unknown_agent(name)
        try:
            made[name] = make_agent(name)
        except PyramidError as err:
            skipped.append((name, str(err)))
        except Exception as err:  # numpy and zlib raise anything on bad bytes
            if not from_file(name):
                raise
            skipped.append((name, file_error(name, err)))
    return made, skipped


def file_error(name: str, err: BaseException) -> str:
    """Why the agent file ``name`` cannot be used, naming it (numpy's own message names none)."""
    return f"agent file {name!r} cannot be used ({type(err).__name__}: {shorten(str(err), 200)})"


def probe(agent: Any, name: str, rules: Rules, observe_stock: str, deal: int) -> None:
    """One decision of an agent read from a file, on the run's first deal, before any work.

    A network of the wrong shape (weights that do not fit the observation, a value network
    given as a policy) otherwise fails mid-run, after other agents played, or worse, plays:
    one output broadcast over 327 actions picks the first legal one every time.

    Raises:
        PyramidError: naming the file and what is wrong.
    """
    env = PyramidEnv(rules, **({"observe_stock": observe_stock} | getattr(agent, "env_kwargs", {})))
    obs, _ = env.reset(options={"deal": deal})
    if callable(getattr(agent, "logits", None)):
        size = np.asarray(agent.logits(obs)).size
        if size != N_ACTIONS:
            hint = " (a value network?)" if size == 1 else ""
            raise PyramidError(
                f"agent file {name!r}: its network gives {size} outputs for an observation; a "
                f"policy gives {N_ACTIONS}, one per action{hint}"
            )
    legal = env.legal_actions()
    if legal:
        turn = PlayerView(agent, (0, deal)).turn(env.state, legal, env.known_stock(), obs)
        action = agent.act(turn, np.random.default_rng(0))
        if action not in legal:
            raise PyramidError(
                f"agent file {name!r}: chose action {action!r} on deal {deal}, not a legal one"
            )


def agent_labels(names: list[str]) -> dict[str, str]:
    """The name each agent's rows go under: unique, so no result hides another.

    A .npz plays under its file's stem, unless the stem is another agent's name (a user's
    ``greedy.npz`` beside, or instead of, the baseline ``greedy``) or another file's stem: then
    under its path as given.

    Raises:
        PyramidError: an agent given twice (the same name, or the same file by two paths).
    """
    known = {n for group in known_agents().values() for n in group} | set(names)
    files = [n for n in names if n.endswith(".npz")]
    stems = Counter(Path(n).stem for n in files)
    labels: dict[str, str] = {}
    seen: dict[Path, str] = {}
    for name in names:
        if name in labels:
            raise PyramidError(f"agent {shorten(name)} is given twice in --agents")
        if name not in files:
            labels[name] = name
            continue
        where = Path(name).resolve()
        if where in seen:
            raise PyramidError(
                f"agent file {name!r} is given twice in --agents (also as {seen[where]!r})"
            )
        seen[where] = name
        stem = Path(name).stem
        labels[name] = stem if stems[stem] == 1 and stem not in known else name
    return labels
